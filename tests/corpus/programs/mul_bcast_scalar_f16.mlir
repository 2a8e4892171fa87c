// Corpus program 'mul_bcast_scalar_f16' (tests/corpus/generate.py): ONNX Mul imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (0)>
module {
  func.func @main(%arg0: tensor<4x16xf16>, %arg1: tensor<1xf16>) -> tensor<4x16xf16> {
    %0 = tensor.empty() : tensor<4x16xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x16xf16>, tensor<1xf16>) outs(%0 : tensor<4x16xf16>) {
    ^bb0(%in: f16, %in_0: f16, %out: f16):
      %2 = arith.mulf %in, %in_0 : f16
      linalg.yield %2 : f16
    } -> tensor<4x16xf16>
    return %1 : tensor<4x16xf16>
  }
}

