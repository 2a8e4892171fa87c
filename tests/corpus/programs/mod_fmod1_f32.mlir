// Corpus program 'mod_fmod1_f32' (tests/corpus/generate.py): ONNX Mod imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
module {
  func.func @main(%arg0: tensor<4x16xf32>, %arg1: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %cst = arith.constant dense<-1.000000e+00> : tensor<f32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_1 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_2 = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %12 = arith.divf %in, %in_3 : f32
      linalg.yield %12 : f32
    } -> tensor<4x16xf32>
    %2 = tensor.empty() : tensor<4x16xi1>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x16xf32>) outs(%2 : tensor<4x16xi1>) {
    ^bb0(%in: f32, %out: i1):
      %12 = arith.cmpf ogt, %in, %cst_2 : f32
      linalg.yield %12 : i1
    } -> tensor<4x16xi1>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x16xf32>) outs(%2 : tensor<4x16xi1>) {
    ^bb0(%in: f32, %out: i1):
      %12 = arith.cmpf olt, %in, %cst_2 : f32
      linalg.yield %12 : i1
    } -> tensor<4x16xi1>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_1, %cst_0 : tensor<4x16xi1>, tensor<f32>, tensor<f32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: i1, %in_3: f32, %in_4: f32, %out: f32):
      %12 = arith.select %in, %in_3, %in_4 : f32
      linalg.yield %12 : f32
    } -> tensor<4x16xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %cst, %5 : tensor<4x16xi1>, tensor<f32>, tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: i1, %in_3: f32, %in_4: f32, %out: f32):
      %12 = arith.select %in, %in_3, %in_4 : f32
      linalg.yield %12 : f32
    } -> tensor<4x16xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %12 = math.absf %in : f32
      linalg.yield %12 : f32
    } -> tensor<4x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %12 = math.floor %in : f32
      linalg.yield %12 : f32
    } -> tensor<4x16xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %8 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %12 = arith.mulf %in, %in_3 : f32
      linalg.yield %12 : f32
    } -> tensor<4x16xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %arg1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %12 = arith.mulf %in, %in_3 : f32
      linalg.yield %12 : f32
    } -> tensor<4x16xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %10 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %12 = arith.subf %in, %in_3 : f32
      linalg.yield %12 : f32
    } -> tensor<4x16xf32>
    return %11 : tensor<4x16xf32>
  }
}

