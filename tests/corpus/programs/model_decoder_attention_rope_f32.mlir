// Corpus program 'model_decoder_attention_rope_f32' (tests/corpus/generate.py): ONNX Add, Concat, MatMul, Mul, Neg, Reshape, Slice, Softmax, Transpose imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> ()>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @main(%arg0: tensor<1x8x16xf32>, %arg1: tensor<16x16xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<16x16xf32>, %arg4: tensor<16x16xf32>, %arg5: tensor<8x8xf32>, %arg6: tensor<8x8xf32>) -> tensor<1x8x16xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0.353553385> : tensor<f32>
    %cst_2 = arith.constant dense<[[0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<8x8xf32>
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
    %expanded_3 = tensor.expand_shape %7 [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
    %transposed_4 = linalg.transpose ins(%expanded_3 : tensor<1x8x2x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3] 
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg3 : tensor<16x16xf32>) outs(%0 : tensor<1x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16x16xf32>
    %9 = linalg.batch_matmul ins(%arg0, %8 : tensor<1x8x16xf32>, tensor<1x16x16xf32>) outs(%3 : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
    %expanded_5 = tensor.expand_shape %9 [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
    %transposed_6 = linalg.transpose ins(%expanded_5 : tensor<1x8x2x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3] 
    %extracted_slice = tensor.extract_slice %transposed[0, 0, 0, 0] [1, 2, 8, 4] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x8x4xf32>
    %extracted_slice_7 = tensor.extract_slice %transposed[0, 0, 0, 4] [1, 2, 8, 4] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x8x4xf32>
    %10 = tensor.empty() : tensor<1x2x8x4xf32>
    %11 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_7 : tensor<1x2x8x4xf32>) outs(%10 : tensor<1x2x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.negf %in : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x4xf32>
    %concat = tensor.concat dim(3) %11, %extracted_slice : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x8xf32>
    %12 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed, %arg5 : tensor<1x2x8x8xf32>, tensor<8x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.mulf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %13 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat, %arg6 : tensor<1x2x8x8xf32>, tensor<8x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.mulf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %14 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %13 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.addf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %extracted_slice_8 = tensor.extract_slice %transposed_4[0, 0, 0, 0] [1, 2, 8, 4] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x8x4xf32>
    %extracted_slice_9 = tensor.extract_slice %transposed_4[0, 0, 0, 4] [1, 2, 8, 4] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x8x4xf32>
    %15 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_9 : tensor<1x2x8x4xf32>) outs(%10 : tensor<1x2x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.negf %in : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x4xf32>
    %concat_10 = tensor.concat dim(3) %15, %extracted_slice_8 : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x8xf32>
    %16 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_4, %arg5 : tensor<1x2x8x8xf32>, tensor<8x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.mulf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %17 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_10, %arg6 : tensor<1x2x8x8xf32>, tensor<8x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.mulf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %18 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16, %17 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.addf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %transposed_11 = linalg.transpose ins(%18 : tensor<1x2x8x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %14 [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
    %collapsed_12 = tensor.collapse_shape %transposed_11 [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
    %19 = tensor.empty() : tensor<2x8x8xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %21 = linalg.batch_matmul ins(%collapsed, %collapsed_12 : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%20 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %expanded_13 = tensor.expand_shape %21 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
    %22 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_13, %cst_1 : tensor<1x2x8x8xf32>, tensor<f32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.mulf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %cst_2 : tensor<1x2x8x8xf32>, tensor<8x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.addf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %24 = tensor.empty() : tensor<1x2x8xi64>
    %25 = linalg.fill ins(%c0_i64 : i64) outs(%24 : tensor<1x2x8xi64>) -> tensor<1x2x8xi64>
    %26 = tensor.empty() : tensor<1x2x8xf32>
    %27 = linalg.fill ins(%cst_0 : f32) outs(%26 : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %28:2 = linalg.generic {indexing_maps = [#map2, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<1x2x8x8xf32>) outs(%27, %25 : tensor<1x2x8xf32>, tensor<1x2x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_20: i64):
      %40 = linalg.index 3 : index
      %41 = arith.index_cast %40 : index to i64
      %42 = arith.maximumf %in, %out : f32
      %43 = arith.cmpf ogt, %in, %out : f32
      %44 = arith.select %43, %41, %out_20 : i64
      linalg.yield %42, %44 : f32, i64
    } -> (tensor<1x2x8xf32>, tensor<1x2x8xi64>)
    %expanded_14 = tensor.expand_shape %28#0 [[0], [1], [2, 3]] output_shape [1, 2, 8, 1] : tensor<1x2x8xf32> into tensor<1x2x8x1xf32>
    %29 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %expanded_14 : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.subf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %30 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29 : tensor<1x2x8x8xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = math.exp %in : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %31 = tensor.empty() : tensor<1x2x8x1xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
    %33 = linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%30 : tensor<1x2x8x8xf32>) outs(%32 : tensor<1x2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.addf %in, %out : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x1xf32>
    %34 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %33 : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) outs(%5 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.divf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %collapsed_15 = tensor.collapse_shape %34 [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
    %collapsed_16 = tensor.collapse_shape %transposed_6 [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
    %35 = linalg.batch_matmul ins(%collapsed_15, %collapsed_16 : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%20 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %expanded_17 = tensor.expand_shape %35 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
    %36 = tensor.empty() : tensor<1x8x2x8xf32>
    %transposed_18 = linalg.transpose ins(%expanded_17 : tensor<1x2x8x8xf32>) outs(%36 : tensor<1x8x2x8xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_19 = tensor.collapse_shape %transposed_18 [[0], [1], [2, 3]] : tensor<1x8x2x8xf32> into tensor<1x8x16xf32>
    %37 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg4 : tensor<16x16xf32>) outs(%0 : tensor<1x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16x16xf32>
    %38 = linalg.batch_matmul ins(%collapsed_19, %37 : tensor<1x8x16xf32>, tensor<1x16x16xf32>) outs(%3 : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
    %39 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %38 : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%2 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.addf %in, %in_20 : f32
      linalg.yield %40 : f32
    } -> tensor<1x8x16xf32>
    return %39 : tensor<1x8x16xf32>
  }
}

