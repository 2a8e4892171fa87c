// Corpus program 'model_llama_mlp_f16' (tests/corpus/generate.py): ONNX Add, Div, MatMul, Mul, Pow, ReduceMean, Sigmoid, Sqrt imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> ()>
#map3 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<4x16xf16>, %arg1: tensor<16xf16>, %arg2: tensor<16x32xf16>, %arg3: tensor<16x32xf16>, %arg4: tensor<32x16xf16>) -> tensor<4x16xf16> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f16
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f16
    %cst_2 = arith.constant dense<1.001360e-05> : tensor<f16>
    %cst_3 = arith.constant 1.600000e+01 : f16
    %0 = tensor.empty() : tensor<4x16xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x16xf16>) outs(%0 : tensor<4x16xf16>) {
    ^bb0(%in: f16, %out: f16):
      %25 = math.fpowi %in, %c2_i64 : f16, i64
      linalg.yield %25 : f16
    } -> tensor<4x16xf16>
    %2 = tensor.empty() : tensor<4x1xf16>
    %3 = linalg.fill ins(%cst : f16) outs(%2 : tensor<4x1xf16>) -> tensor<4x1xf16>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<4x16xf16>) outs(%3 : tensor<4x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %25 = arith.addf %in, %out : f16
      linalg.yield %25 : f16
    } -> tensor<4x1xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<4x1xf16>) outs(%2 : tensor<4x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %25 = arith.divf %in, %cst_3 : f16
      linalg.yield %25 : f16
    } -> tensor<4x1xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_2 : tensor<4x1xf16>, tensor<f16>) outs(%2 : tensor<4x1xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %25 = arith.addf %in, %in_4 : f16
      linalg.yield %25 : f16
    } -> tensor<4x1xf16>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<4x1xf16>) outs(%2 : tensor<4x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %25 = math.sqrt %in : f16
      linalg.yield %25 : f16
    } -> tensor<4x1xf16>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %7 : tensor<4x16xf16>, tensor<4x1xf16>) outs(%0 : tensor<4x16xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %25 = arith.divf %in, %in_4 : f16
      linalg.yield %25 : f16
    } -> tensor<4x16xf16>
    %9 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %arg1 : tensor<4x16xf16>, tensor<16xf16>) outs(%0 : tensor<4x16xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %25 = arith.mulf %in, %in_4 : f16
      linalg.yield %25 : f16
    } -> tensor<4x16xf16>
    %10 = tensor.empty() : tensor<4x32xf32>
    %11 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %12 = linalg.matmul ins(%9, %arg2 : tensor<4x16xf16>, tensor<16x32xf16>) outs(%11 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %13 = tensor.empty() : tensor<4x32xf16>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<4x32xf32>) outs(%13 : tensor<4x32xf16>) {
    ^bb0(%in: f32, %out: f16):
      %25 = arith.truncf %in : f32 to f16
      linalg.yield %25 : f16
    } -> tensor<4x32xf16>
    %15 = linalg.matmul ins(%9, %arg3 : tensor<4x16xf16>, tensor<16x32xf16>) outs(%11 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%15 : tensor<4x32xf32>) outs(%13 : tensor<4x32xf16>) {
    ^bb0(%in: f32, %out: f16):
      %25 = arith.truncf %in : f32 to f16
      linalg.yield %25 : f16
    } -> tensor<4x32xf16>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%14 : tensor<4x32xf16>) outs(%13 : tensor<4x32xf16>) {
    ^bb0(%in: f16, %out: f16):
      %25 = arith.negf %in : f16
      %26 = math.exp %25 : f16
      %27 = arith.addf %26, %cst_1 : f16
      %28 = arith.divf %cst_1, %27 : f16
      linalg.yield %28 : f16
    } -> tensor<4x32xf16>
    %18 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%14, %17 : tensor<4x32xf16>, tensor<4x32xf16>) outs(%13 : tensor<4x32xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %25 = arith.mulf %in, %in_4 : f16
      linalg.yield %25 : f16
    } -> tensor<4x32xf16>
    %19 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%18, %16 : tensor<4x32xf16>, tensor<4x32xf16>) outs(%13 : tensor<4x32xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %25 = arith.mulf %in, %in_4 : f16
      linalg.yield %25 : f16
    } -> tensor<4x32xf16>
    %20 = tensor.empty() : tensor<4x16xf32>
    %21 = linalg.fill ins(%cst_0 : f32) outs(%20 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %22 = linalg.matmul ins(%19, %arg4 : tensor<4x32xf16>, tensor<32x16xf16>) outs(%21 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%22 : tensor<4x16xf32>) outs(%0 : tensor<4x16xf16>) {
    ^bb0(%in: f32, %out: f16):
      %25 = arith.truncf %in : f32 to f16
      linalg.yield %25 : f16
    } -> tensor<4x16xf16>
    %24 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %23 : tensor<4x16xf16>, tensor<4x16xf16>) outs(%0 : tensor<4x16xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %25 = arith.addf %in, %in_4 : f16
      linalg.yield %25 : f16
    } -> tensor<4x16xf16>
    return %24 : tensor<4x16xf16>
  }
}

