// Corpus program 'cast_i16_to_i32' (tests/corpus/generate.py): ONNX Cast imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<4x16xi16>) -> tensor<4x16xi32> {
    %0 = tensor.empty() : tensor<4x16xi32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x16xi16>) outs(%0 : tensor<4x16xi32>) {
    ^bb0(%in: i16, %out: i32):
      %2 = arith.extsi %in : i16 to i32
      linalg.yield %2 : i32
    } -> tensor<4x16xi32>
    return %1 : tensor<4x16xi32>
  }
}

