// Corpus program 'mod_fmod0_i32' (tests/corpus/generate.py): ONNX Mod imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<4x16xi32>, %arg1: tensor<4x16xi32>) -> tensor<4x16xi32> {
    %c0_i32 = arith.constant 0 : i32
    %0 = tensor.empty() : tensor<4x16xi32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%0 : tensor<4x16xi32>) {
    ^bb0(%in: i32, %in_0: i32, %out: i32):
      %2 = arith.remsi %in, %in_0 : i32
      %3 = arith.cmpi ne, %2, %c0_i32 : i32
      %4 = arith.cmpi slt, %in_0, %c0_i32 : i32
      %5 = arith.cmpi slt, %2, %c0_i32 : i32
      %6 = arith.xori %4, %5 : i1
      %7 = arith.andi %3, %6 : i1
      %8 = arith.addi %2, %in_0 : i32
      %9 = arith.select %7, %8, %2 : i32
      linalg.yield %9 : i32
    } -> tensor<4x16xi32>
    return %1 : tensor<4x16xi32>
  }
}

