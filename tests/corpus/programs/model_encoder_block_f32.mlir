// Corpus program 'model_encoder_block_f32' (tests/corpus/generate.py): ONNX Add, Identity, LayerNormalization, MatMul, Mul, Relu, Reshape, Softmax, Transpose imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> ()>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map7 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map8 = affine_map<(d0, d1, d2) -> (d2)>
module {
  func.func @main(%arg0: tensor<1x8x16xf32>, %arg1: tensor<16x16xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<16x16xf32>, %arg4: tensor<16x16xf32>, %arg5: tensor<16xf32>, %arg6: tensor<16xf32>, %arg7: tensor<16x32xf32>, %arg8: tensor<32xf32>, %arg9: tensor<32x16xf32>, %arg10: tensor<16xf32>, %arg11: tensor<16xf32>, %arg12: tensor<16xf32>) -> tensor<1x8x16xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0.353553385> : tensor<f32>
    %cst_2 = arith.constant 1.600000e+01 : f32
    %cst_3 = arith.constant 9.99999974E-6 : f32
    %0 = tensor.empty() : tensor<1x16x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<16x16xf32>) outs(%0 : tensor<1x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16x16xf32>
    %2 = tensor.empty() : tensor<1x8x16xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
    %4 = linalg.batch_matmul ins(%arg0, %1 : tensor<1x8x16xf32>, tensor<1x16x16xf32>) outs(%3 : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
    %expanded = tensor.expand_shape %4 [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
    %5 = tensor.empty() : tensor<1x2x8x8xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<1x8x2x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3] 
    %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg2 : tensor<16x16xf32>) outs(%0 : tensor<1x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16x16xf32>
    %7 = linalg.batch_matmul ins(%arg0, %6 : tensor<1x8x16xf32>, tensor<1x16x16xf32>) outs(%3 : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
    %expanded_4 = tensor.expand_shape %7 [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg3 : tensor<16x16xf32>) outs(%0 : tensor<1x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16x16xf32>
    %9 = linalg.batch_matmul ins(%arg0, %8 : tensor<1x8x16xf32>, tensor<1x16x16xf32>) outs(%3 : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
    %expanded_5 = tensor.expand_shape %9 [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
    %transposed_6 = linalg.transpose ins(%expanded_5 : tensor<1x8x2x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3] 
    %transposed_7 = linalg.transpose ins(%expanded_4 : tensor<1x8x2x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) permutation = [0, 2, 3, 1] 
    %collapsed = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
    %collapsed_8 = tensor.collapse_shape %transposed_7 [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
    %10 = tensor.empty() : tensor<2x8x8xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %12 = linalg.batch_matmul ins(%collapsed, %collapsed_8 : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%11 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %expanded_9 = tensor.expand_shape %12 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
    %13 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9, %cst_1 : tensor<1x2x8x8xf32>, tensor<f32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.mulf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x2x8x8xf32>
    %14 = tensor.empty() : tensor<1x2x8xi64>
    %15 = linalg.fill ins(%c0_i64 : i64) outs(%14 : tensor<1x2x8xi64>) -> tensor<1x2x8xi64>
    %16 = tensor.empty() : tensor<1x2x8xf32>
    %17 = linalg.fill ins(%cst_0 : f32) outs(%16 : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %18:2 = linalg.generic {indexing_maps = [#map2, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%13 : tensor<1x2x8x8xf32>) outs(%17, %15 : tensor<1x2x8xf32>, tensor<1x2x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_20: i64):
      %70 = linalg.index 3 : index
      %71 = arith.index_cast %70 : index to i64
      %72 = arith.maximumf %in, %out : f32
      %73 = arith.cmpf ogt, %in, %out : f32
      %74 = arith.select %73, %71, %out_20 : i64
      linalg.yield %72, %74 : f32, i64
    } -> (tensor<1x2x8xf32>, tensor<1x2x8xi64>)
    %expanded_10 = tensor.expand_shape %18#0 [[0], [1], [2, 3]] output_shape [1, 2, 8, 1] : tensor<1x2x8xf32> into tensor<1x2x8x1xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_10 : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.subf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x2x8x8xf32>
    %20 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<1x2x8x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = math.exp %in : f32
      linalg.yield %70 : f32
    } -> tensor<1x2x8x8xf32>
    %21 = tensor.empty() : tensor<1x2x8x1xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%20 : tensor<1x2x8x8xf32>) outs(%22 : tensor<1x2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.addf %in, %out : f32
      linalg.yield %70 : f32
    } -> tensor<1x2x8x1xf32>
    %24 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %23 : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.divf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x2x8x8xf32>
    %collapsed_11 = tensor.collapse_shape %24 [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
    %collapsed_12 = tensor.collapse_shape %transposed_6 [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
    %25 = linalg.batch_matmul ins(%collapsed_11, %collapsed_12 : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%11 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %expanded_13 = tensor.expand_shape %25 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
    %26 = tensor.empty() : tensor<1x8x2x8xf32>
    %transposed_14 = linalg.transpose ins(%expanded_13 : tensor<1x2x8x8xf32>) outs(%26 : tensor<1x8x2x8xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_15 = tensor.collapse_shape %transposed_14 [[0], [1], [2, 3]] : tensor<1x8x2x8xf32> into tensor<1x8x16xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg4 : tensor<16x16xf32>) outs(%0 : tensor<1x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16x16xf32>
    %28 = linalg.batch_matmul ins(%collapsed_15, %27 : tensor<1x8x16xf32>, tensor<1x16x16xf32>) outs(%3 : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
    %29 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %28 : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.addf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %30 = tensor.empty() : tensor<1x8x1xf32>
    %31 = linalg.fill ins(%cst : f32) outs(%30 : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
    %32 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%29 : tensor<1x8x16xf32>) outs(%31 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.addf %in, %out : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %33 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%32 : tensor<1x8x1xf32>) outs(%30 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.divf %in, %cst_2 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %collapsed_16 = tensor.collapse_shape %33 [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
    %34 = linalg.generic {indexing_maps = [#map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_16 : tensor<1x8xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x16xf32>
    %35 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%29, %34 : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.subf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %36 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%35, %35 : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.mulf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %37 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%36 : tensor<1x8x16xf32>) outs(%31 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.addf %in, %out : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %38 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%37 : tensor<1x8x1xf32>) outs(%30 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.divf %in, %cst_2 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %39 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%38 : tensor<1x8x1xf32>) outs(%30 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.addf %in, %cst_3 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %40 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%39 : tensor<1x8x1xf32>) outs(%30 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = math.rsqrt %in : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %collapsed_17 = tensor.collapse_shape %40 [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
    %41 = linalg.generic {indexing_maps = [#map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_17 : tensor<1x8xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x16xf32>
    %42 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%35, %41 : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.mulf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %43 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%42, %arg5 : tensor<1x8x16xf32>, tensor<16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.mulf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %44 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%43, %arg6 : tensor<1x8x16xf32>, tensor<16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.addf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %45 = tensor.empty() : tensor<1x16x32xf32>
    %46 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg7 : tensor<16x32xf32>) outs(%45 : tensor<1x16x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16x32xf32>
    %47 = tensor.empty() : tensor<1x8x32xf32>
    %48 = linalg.fill ins(%cst : f32) outs(%47 : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
    %49 = linalg.batch_matmul ins(%44, %46 : tensor<1x8x16xf32>, tensor<1x16x32xf32>) outs(%48 : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
    %50 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%49, %arg8 : tensor<1x8x32xf32>, tensor<32xf32>) outs(%47 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.addf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x32xf32>
    %51 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%50 : tensor<1x8x32xf32>) outs(%47 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.cmpf ugt, %in, %cst : f32
      %71 = arith.select %70, %in, %cst : f32
      linalg.yield %71 : f32
    } -> tensor<1x8x32xf32>
    %52 = tensor.empty() : tensor<1x32x16xf32>
    %53 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg9 : tensor<32x16xf32>) outs(%52 : tensor<1x32x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x32x16xf32>
    %54 = linalg.batch_matmul ins(%51, %53 : tensor<1x8x32xf32>, tensor<1x32x16xf32>) outs(%3 : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
    %55 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%54, %arg10 : tensor<1x8x16xf32>, tensor<16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.addf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %56 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%44, %55 : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.addf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %57 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%56 : tensor<1x8x16xf32>) outs(%31 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.addf %in, %out : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %58 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%57 : tensor<1x8x1xf32>) outs(%30 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.divf %in, %cst_2 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %collapsed_18 = tensor.collapse_shape %58 [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
    %59 = linalg.generic {indexing_maps = [#map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_18 : tensor<1x8xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x16xf32>
    %60 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56, %59 : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.subf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %61 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60, %60 : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.mulf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %62 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%61 : tensor<1x8x16xf32>) outs(%31 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.addf %in, %out : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %63 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%62 : tensor<1x8x1xf32>) outs(%30 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.divf %in, %cst_2 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %64 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63 : tensor<1x8x1xf32>) outs(%30 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = arith.addf %in, %cst_3 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %65 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%64 : tensor<1x8x1xf32>) outs(%30 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %70 = math.rsqrt %in : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x1xf32>
    %collapsed_19 = tensor.collapse_shape %65 [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
    %66 = linalg.generic {indexing_maps = [#map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_19 : tensor<1x8xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x16xf32>
    %67 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60, %66 : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.mulf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %68 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%67, %arg11 : tensor<1x8x16xf32>, tensor<16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.mulf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    %69 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%68, %arg12 : tensor<1x8x16xf32>, tensor<16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %70 = arith.addf %in, %in_20 : f32
      linalg.yield %70 : f32
    } -> tensor<1x8x16xf32>
    return %69 : tensor<1x8x16xf32>
  }
}

