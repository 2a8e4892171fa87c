// Corpus program 'matmul_3d_f32' (tests/corpus/generate.py): ONNX MatMul imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @main(%arg0: tensor<2x4x40xf32>, %arg1: tensor<40x8xf32>) -> tensor<2x4x8xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x40x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<40x8xf32>) outs(%0 : tensor<2x40x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x40x8xf32>
    %2 = tensor.empty() : tensor<2x4x8xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %4 = linalg.batch_matmul ins(%arg0, %1 : tensor<2x4x40xf32>, tensor<2x40x8xf32>) outs(%3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    return %4 : tensor<2x4x8xf32>
  }
}

