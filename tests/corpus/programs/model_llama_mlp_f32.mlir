// Corpus program 'model_llama_mlp_f32' (tests/corpus/generate.py): ONNX Add, Div, MatMul, Mul, Pow, ReduceMean, Sigmoid, Sqrt imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> ()>
#map3 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<4x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<16x32xf32>, %arg4: tensor<32x16xf32>) -> tensor<4x16xf32> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense<9.99999974E-6> : tensor<f32>
    %cst_2 = arith.constant 1.600000e+01 : f32
    %0 = tensor.empty() : tensor<4x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %20 : f32
    } -> tensor<4x16xf32>
    %2 = tensor.empty() : tensor<4x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<4x16xf32>) outs(%3 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = arith.addf %in, %out : f32
      linalg.yield %20 : f32
    } -> tensor<4x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<4x1xf32>) outs(%2 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = arith.divf %in, %cst_2 : f32
      linalg.yield %20 : f32
    } -> tensor<4x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_1 : tensor<4x1xf32>, tensor<f32>) outs(%2 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %20 = arith.addf %in, %in_3 : f32
      linalg.yield %20 : f32
    } -> tensor<4x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<4x1xf32>) outs(%2 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = math.sqrt %in : f32
      linalg.yield %20 : f32
    } -> tensor<4x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %7 : tensor<4x16xf32>, tensor<4x1xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %20 = arith.divf %in, %in_3 : f32
      linalg.yield %20 : f32
    } -> tensor<4x16xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %arg1 : tensor<4x16xf32>, tensor<16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %20 = arith.mulf %in, %in_3 : f32
      linalg.yield %20 : f32
    } -> tensor<4x16xf32>
    %10 = tensor.empty() : tensor<4x32xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %12 = linalg.matmul ins(%9, %arg2 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%11 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %13 = linalg.matmul ins(%9, %arg3 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%11 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<4x32xf32>) outs(%10 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = arith.negf %in : f32
      %21 = math.exp %20 : f32
      %22 = arith.addf %21, %cst_0 : f32
      %23 = arith.divf %cst_0, %22 : f32
      linalg.yield %23 : f32
    } -> tensor<4x32xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%12, %14 : tensor<4x32xf32>, tensor<4x32xf32>) outs(%10 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %20 = arith.mulf %in, %in_3 : f32
      linalg.yield %20 : f32
    } -> tensor<4x32xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%15, %13 : tensor<4x32xf32>, tensor<4x32xf32>) outs(%10 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %20 = arith.mulf %in, %in_3 : f32
      linalg.yield %20 : f32
    } -> tensor<4x32xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %18 = linalg.matmul ins(%16, %arg4 : tensor<4x32xf32>, tensor<32x16xf32>) outs(%17 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %18 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %20 = arith.addf %in, %in_3 : f32
      linalg.yield %20 : f32
    } -> tensor<4x16xf32>
    return %19 : tensor<4x16xf32>
  }
}

