// Corpus program 'model_l2_normalize_f32' (tests/corpus/generate.py): ONNX Div, Max, Mul, ReduceSum, Sqrt imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> ()>
module {
  func.func @main(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense<9.99999996E-13> : tensor<f32>
    %0 = tensor.empty() : tensor<4x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg0 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %8 = arith.mulf %in, %in_1 : f32
      linalg.yield %8 : f32
    } -> tensor<4x16xf32>
    %2 = tensor.empty() : tensor<4x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<4x16xf32>) outs(%3 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %8 = arith.addf %in, %out : f32
      linalg.yield %8 : f32
    } -> tensor<4x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<4x1xf32>) outs(%2 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %8 = math.sqrt %in : f32
      linalg.yield %8 : f32
    } -> tensor<4x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_0 : tensor<4x1xf32>, tensor<f32>) outs(%2 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %8 = arith.cmpf ogt, %in, %in_1 : f32
      %9 = arith.select %8, %in, %in_1 : f32
      linalg.yield %9 : f32
    } -> tensor<4x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %6 : tensor<4x16xf32>, tensor<4x1xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %8 = arith.divf %in, %in_1 : f32
      linalg.yield %8 : f32
    } -> tensor<4x16xf32>
    return %7 : tensor<4x16xf32>
  }
}

