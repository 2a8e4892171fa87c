// Corpus program 'model_embedding_classifier_f32' (tests/corpus/generate.py): ONNX Gather, Gemm, ReduceMean imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map4 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x8xi64>, %arg1: tensor<32x16xf32>, %arg2: tensor<16x4xf32>, %arg3: tensor<4xf32>) -> tensor<1x4xf32> {
    %c32_i64 = arith.constant 32 : i64
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 8.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x8xi1>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<1x8xi64>) outs(%0 : tensor<1x8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %15 = arith.cmpi slt, %in, %c0_i64 : i64
      linalg.yield %15 : i1
    } -> tensor<1x8xi1>
    %2 = tensor.empty() : tensor<1x8xi64>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<1x8xi64>) outs(%2 : tensor<1x8xi64>) {
    ^bb0(%in: i64, %out: i64):
      %15 = arith.addi %in, %c32_i64 : i64
      linalg.yield %15 : i64
    } -> tensor<1x8xi64>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %3, %arg0 : tensor<1x8xi1>, tensor<1x8xi64>, tensor<1x8xi64>) outs(%2 : tensor<1x8xi64>) {
    ^bb0(%in: i1, %in_1: i64, %in_2: i64, %out: i64):
      %15 = arith.select %in, %in_1, %in_2 : i64
      linalg.yield %15 : i64
    } -> tensor<1x8xi64>
    %collapsed = tensor.collapse_shape %4 [[0, 1]] : tensor<1x8xi64> into tensor<8xi64>
    %5 = tensor.empty() : tensor<8x16xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]} ins(%collapsed : tensor<8xi64>) outs(%5 : tensor<8x16xf32>) {
    ^bb0(%in: i64, %out: f32):
      %15 = arith.index_cast %in : i64 to index
      %16 = linalg.index 1 : index
      %extracted = tensor.extract %arg1[%15, %16] : tensor<32x16xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16xf32>
    %expanded = tensor.expand_shape %6 [[0, 1], [2]] output_shape [1, 8, 16] : tensor<8x16xf32> into tensor<1x8x16xf32>
    %7 = tensor.empty() : tensor<1x16xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "reduction", "parallel"]} ins(%expanded : tensor<1x8x16xf32>) outs(%8 : tensor<1x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %15 = arith.addf %in, %out : f32
      linalg.yield %15 : f32
    } -> tensor<1x16xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<1x16xf32>) outs(%7 : tensor<1x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %15 = arith.divf %in, %cst_0 : f32
      linalg.yield %15 : f32
    } -> tensor<1x16xf32>
    %11 = tensor.empty() : tensor<1x4xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<1x4xf32>) -> tensor<1x4xf32>
    %13 = linalg.matmul ins(%10, %arg2 : tensor<1x16xf32>, tensor<16x4xf32>) outs(%12 : tensor<1x4xf32>) -> tensor<1x4xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %arg3 : tensor<1x4xf32>, tensor<4xf32>) outs(%11 : tensor<1x4xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %15 = arith.addf %in, %in_1 : f32
      linalg.yield %15 : f32
    } -> tensor<1x4xf32>
    return %14 : tensor<1x4xf32>
  }
}

