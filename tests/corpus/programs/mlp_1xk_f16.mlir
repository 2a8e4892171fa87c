// Corpus program 'mlp_1xk_f16' (tests/corpus/generate.py): ONNX Add, MatMul, Relu imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x64xf16>, %arg1: tensor<64x16xf16>, %arg2: tensor<16xf16>) -> tensor<1x16xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f16
    %0 = tensor.empty() : tensor<1x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<1x64xf16>, tensor<64x16xf16>) outs(%1 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %3 = tensor.empty() : tensor<1x16xf16>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<1x16xf32>) outs(%3 : tensor<1x16xf16>) {
    ^bb0(%in: f32, %out: f16):
      %7 = arith.truncf %in : f32 to f16
      linalg.yield %7 : f16
    } -> tensor<1x16xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %arg2 : tensor<1x16xf16>, tensor<16xf16>) outs(%3 : tensor<1x16xf16>) {
    ^bb0(%in: f16, %in_1: f16, %out: f16):
      %7 = arith.addf %in, %in_1 : f16
      linalg.yield %7 : f16
    } -> tensor<1x16xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<1x16xf16>) outs(%3 : tensor<1x16xf16>) {
    ^bb0(%in: f16, %out: f16):
      %7 = arith.cmpf ugt, %in, %cst_0 : f16
      %8 = arith.select %7, %in, %cst_0 : f16
      linalg.yield %8 : f16
    } -> tensor<1x16xf16>
    return %6 : tensor<1x16xf16>
  }
}

