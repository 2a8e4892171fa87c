// Corpus program 'model_mlp_gelu_erf_f32' (tests/corpus/generate.py): ONNX Add, Div, Erf, MatMul, Mul imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> ()>
module {
  func.func @main(%arg0: tensor<4x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32x16xf32>, %arg4: tensor<16xf32>) -> tensor<4x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense<1.41421354> : tensor<f32>
    %cst_1 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_2 = arith.constant dense<5.000000e-01> : tensor<f32>
    %0 = tensor.empty() : tensor<4x32xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%1 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<4x32xf32>, tensor<32xf32>) outs(%0 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %13 = arith.addf %in, %in_3 : f32
      linalg.yield %13 : f32
    } -> tensor<4x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_0 : tensor<4x32xf32>, tensor<f32>) outs(%0 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %13 = arith.divf %in, %in_3 : f32
      linalg.yield %13 : f32
    } -> tensor<4x32xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<4x32xf32>) outs(%0 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = math.erf %in : f32
      linalg.yield %13 : f32
    } -> tensor<4x32xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_1 : tensor<4x32xf32>, tensor<f32>) outs(%0 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %13 = arith.addf %in, %in_3 : f32
      linalg.yield %13 : f32
    } -> tensor<4x32xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %6 : tensor<4x32xf32>, tensor<4x32xf32>) outs(%0 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %13 = arith.mulf %in, %in_3 : f32
      linalg.yield %13 : f32
    } -> tensor<4x32xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %cst_2 : tensor<4x32xf32>, tensor<f32>) outs(%0 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %13 = arith.mulf %in, %in_3 : f32
      linalg.yield %13 : f32
    } -> tensor<4x32xf32>
    %9 = tensor.empty() : tensor<4x16xf32>
    %10 = linalg.fill ins(%cst : f32) outs(%9 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %11 = linalg.matmul ins(%8, %arg3 : tensor<4x32xf32>, tensor<32x16xf32>) outs(%10 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %arg4 : tensor<4x16xf32>, tensor<16xf32>) outs(%9 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %13 = arith.addf %in, %in_3 : f32
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    return %12 : tensor<4x16xf32>
  }
}

