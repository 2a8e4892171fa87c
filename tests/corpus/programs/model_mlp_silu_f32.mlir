// Corpus program 'model_mlp_silu_f32' (tests/corpus/generate.py): ONNX Add, MatMul, Mul, Sigmoid imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<4x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32x16xf32>, %arg4: tensor<16xf32>) -> tensor<4x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x32xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%1 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<4x32xf32>, tensor<32xf32>) outs(%0 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %10 = arith.addf %in, %in_1 : f32
      linalg.yield %10 : f32
    } -> tensor<4x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<4x32xf32>) outs(%0 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.negf %in : f32
      %11 = math.exp %10 : f32
      %12 = arith.addf %11, %cst_0 : f32
      %13 = arith.divf %cst_0, %12 : f32
      linalg.yield %13 : f32
    } -> tensor<4x32xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<4x32xf32>, tensor<4x32xf32>) outs(%0 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %10 = arith.mulf %in, %in_1 : f32
      linalg.yield %10 : f32
    } -> tensor<4x32xf32>
    %6 = tensor.empty() : tensor<4x16xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %8 = linalg.matmul ins(%5, %arg3 : tensor<4x32xf32>, tensor<32x16xf32>) outs(%7 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %arg4 : tensor<4x16xf32>, tensor<16xf32>) outs(%6 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %10 = arith.addf %in, %in_1 : f32
      linalg.yield %10 : f32
    } -> tensor<4x16xf32>
    return %9 : tensor<4x16xf32>
  }
}

