// Corpus program 'matmul_1xk_bf16' (tests/corpus/generate.py): ONNX MatMul imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<1x64xbf16>, %arg1: tensor<64x16xbf16>) -> tensor<1x16xbf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<1x64xbf16>, tensor<64x16xbf16>) outs(%1 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %3 = tensor.empty() : tensor<1x16xbf16>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<1x16xf32>) outs(%3 : tensor<1x16xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %5 = arith.truncf %in : f32 to bf16
      linalg.yield %5 : bf16
    } -> tensor<1x16xbf16>
    return %4 : tensor<1x16xbf16>
  }
}

