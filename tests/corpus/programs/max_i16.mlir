// Corpus program 'max_i16' (tests/corpus/generate.py): ONNX Max imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<4x16xi16>, %arg1: tensor<4x16xi16>) -> tensor<4x16xi16> {
    %0 = tensor.empty() : tensor<4x16xi16>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x16xi16>, tensor<4x16xi16>) outs(%0 : tensor<4x16xi16>) {
    ^bb0(%in: i16, %in_0: i16, %out: i16):
      %2 = arith.maxsi %in, %in_0 : i16
      linalg.yield %2 : i16
    } -> tensor<4x16xi16>
    return %1 : tensor<4x16xi16>
  }
}

