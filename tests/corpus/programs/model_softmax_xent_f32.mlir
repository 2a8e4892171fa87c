// Corpus program 'model_softmax_xent_f32' (tests/corpus/generate.py): ONNX SoftmaxCrossEntropyLoss imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<(d0) -> ()>
#map5 = affine_map<() -> ()>
module {
  func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4xi64>) -> tensor<f32> {
    %c-100_i64 = arith.constant -100 : i64
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0xFF800000 : f32
    %c8 = arith.constant 8 : index
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant dense<0> : tensor<i64>
    %0 = tensor.empty() : tensor<4xi64>
    %1 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<4xi64>) -> tensor<4xi64>
    %2 = tensor.empty() : tensor<4xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4xf32>) -> tensor<4xf32>
    %4:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%3, %1 : tensor<4xf32>, tensor<4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_3: i64):
      %26 = linalg.index 1 : index
      %27 = arith.index_cast %26 : index to i64
      %28 = arith.maximumf %in, %out : f32
      %29 = arith.cmpf ogt, %in, %out : f32
      %30 = arith.select %29, %27, %out_3 : i64
      linalg.yield %28, %30 : f32, i64
    } -> (tensor<4xf32>, tensor<4xi64>)
    %expanded = tensor.expand_shape %4#0 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
    %5 = tensor.empty() : tensor<4x8xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expanded : tensor<4x8xf32>, tensor<4x1xf32>) outs(%5 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %26 = arith.subf %in, %in_3 : f32
      linalg.yield %26 : f32
    } -> tensor<4x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<4x8xf32>) outs(%5 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = math.exp %in : f32
      linalg.yield %26 : f32
    } -> tensor<4x8xf32>
    %8 = tensor.empty() : tensor<4x1xf32>
    %9 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<4x8xf32>) outs(%9 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.addf %in, %out : f32
      linalg.yield %26 : f32
    } -> tensor<4x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<4x1xf32>) outs(%8 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = math.log %in : f32
      linalg.yield %26 : f32
    } -> tensor<4x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %11 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%5 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %26 = arith.subf %in, %in_3 : f32
      linalg.yield %26 : f32
    } -> tensor<4x8xf32>
    %13 = tensor.empty() : tensor<4xi1>
    %14 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg1 : tensor<4xi64>) outs(%13 : tensor<4xi1>) {
    ^bb0(%in: i64, %out: i1):
      %26 = arith.cmpi ne, %in, %c-100_i64 : i64
      linalg.yield %26 : i1
    } -> tensor<4xi1>
    %15 = linalg.generic {indexing_maps = [#map3, #map3, #map4, #map3], iterator_types = ["parallel"]} ins(%14, %arg1, %cst_1 : tensor<4xi1>, tensor<4xi64>, tensor<i64>) outs(%0 : tensor<4xi64>) {
    ^bb0(%in: i1, %in_3: i64, %in_4: i64, %out: i64):
      %26 = arith.select %in, %in_3, %in_4 : i64
      linalg.yield %26 : i64
    } -> tensor<4xi64>
    %expanded_2 = tensor.expand_shape %15 [[0, 1]] output_shape [4, 1] : tensor<4xi64> into tensor<4x1xi64>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded_2 : tensor<4x1xi64>) outs(%9 : tensor<4x1xf32>) {
    ^bb0(%in: i64, %out: f32):
      %26 = linalg.index 0 : index
      %27 = arith.index_cast %in : i64 to index
      %28 = arith.cmpi slt, %27, %c8 : index
      cf.assert %28, "index must be smaller than dim size"
      %29 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %29, "index must be larger or equal to 0"
      %extracted = tensor.extract %12[%26, %27] : tensor<4x8xf32>
      linalg.yield %extracted : f32
    } -> tensor<4x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<4x1xf32>) outs(%8 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.negf %in : f32
      linalg.yield %26 : f32
    } -> tensor<4x1xf32>
    %collapsed = tensor.collapse_shape %17 [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
    %18 = linalg.generic {indexing_maps = [#map3, #map3, #map4, #map3], iterator_types = ["parallel"]} ins(%14, %collapsed, %cst_1 : tensor<4xi1>, tensor<4xf32>, tensor<i64>) outs(%2 : tensor<4xf32>) {
    ^bb0(%in: i1, %in_3: f32, %in_4: i64, %out: f32):
      %26 = arith.sitofp %in_4 : i64 to f32
      %27 = arith.select %in, %in_3, %26 : f32
      linalg.yield %27 : f32
    } -> tensor<4xf32>
    %19 = tensor.empty() : tensor<i64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<i64>) -> tensor<i64>
    %21 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["reduction"]} ins(%14 : tensor<4xi1>) outs(%20 : tensor<i64>) {
    ^bb0(%in: i1, %out: i64):
      %26 = arith.extui %in : i1 to i64
      %27 = arith.addi %26, %out : i64
      linalg.yield %27 : i64
    } -> tensor<i64>
    %22 = tensor.empty() : tensor<f32>
    %23 = linalg.fill ins(%cst_0 : f32) outs(%22 : tensor<f32>) -> tensor<f32>
    %24 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["reduction"]} ins(%18 : tensor<4xf32>) outs(%23 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.addf %in, %out : f32
      linalg.yield %26 : f32
    } -> tensor<f32>
    %25 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = []} ins(%24, %21 : tensor<f32>, tensor<i64>) outs(%22 : tensor<f32>) {
    ^bb0(%in: f32, %in_3: i64, %out: f32):
      %26 = arith.sitofp %in_3 : i64 to f32
      %27 = arith.divf %in, %26 : f32
      linalg.yield %27 : f32
    } -> tensor<f32>
    return %25 : tensor<f32>
  }
}

