// Corpus program 'matmul_mxk_f16' (tests/corpus/generate.py): ONNX MatMul imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<8x64xf16>, %arg1: tensor<64x16xf16>) -> tensor<8x16xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<8x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<8x64xf16>, tensor<64x16xf16>) outs(%1 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %3 = tensor.empty() : tensor<8x16xf16>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<8x16xf32>) outs(%3 : tensor<8x16xf16>) {
    ^bb0(%in: f32, %out: f16):
      %5 = arith.truncf %in : f32 to f16
      linalg.yield %5 : f16
    } -> tensor<8x16xf16>
    return %4 : tensor<8x16xf16>
  }
}

