// Corpus program 'cast_f32_to_f16' (tests/corpus/generate.py): ONNX Cast imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<4x16xf32>) -> tensor<4x16xf16> {
    %0 = tensor.empty() : tensor<4x16xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x16xf32>) outs(%0 : tensor<4x16xf16>) {
    ^bb0(%in: f32, %out: f16):
      %2 = arith.truncf %in : f32 to f16
      linalg.yield %2 : f16
    } -> tensor<4x16xf16>
    return %1 : tensor<4x16xf16>
  }
}

