// Corpus program 'max_f16' (tests/corpus/generate.py): ONNX Max imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<4x16xf16>, %arg1: tensor<4x16xf16>) -> tensor<4x16xf16> {
    %0 = tensor.empty() : tensor<4x16xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x16xf16>, tensor<4x16xf16>) outs(%0 : tensor<4x16xf16>) {
    ^bb0(%in: f16, %in_0: f16, %out: f16):
      %2 = arith.cmpf ogt, %in, %in_0 : f16
      %3 = arith.select %2, %in, %in_0 : f16
      linalg.yield %3 : f16
    } -> tensor<4x16xf16>
    return %1 : tensor<4x16xf16>
  }
}

