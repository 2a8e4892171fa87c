// Corpus program 'reducesum_i32' (tests/corpus/generate.py): ONNX ReduceSum imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<4x16xi32>) -> tensor<16xi32> {
    %c0_i32 = arith.constant 0 : i32
    %0 = tensor.empty() : tensor<16xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<16xi32>) -> tensor<16xi32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "parallel"]} ins(%arg0 : tensor<4x16xi32>) outs(%1 : tensor<16xi32>) {
    ^bb0(%in: i32, %out: i32):
      %3 = arith.addi %in, %out : i32
      linalg.yield %3 : i32
    } -> tensor<16xi32>
    return %2 : tensor<16xi32>
  }
}

