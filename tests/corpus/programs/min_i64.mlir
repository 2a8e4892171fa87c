// Corpus program 'min_i64' (tests/corpus/generate.py): ONNX Min imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<4x16xi64>, %arg1: tensor<4x16xi64>) -> tensor<4x16xi64> {
    %0 = tensor.empty() : tensor<4x16xi64>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x16xi64>, tensor<4x16xi64>) outs(%0 : tensor<4x16xi64>) {
    ^bb0(%in: i64, %in_0: i64, %out: i64):
      %2 = arith.minsi %in, %in_0 : i64
      linalg.yield %2 : i64
    } -> tensor<4x16xi64>
    return %1 : tensor<4x16xi64>
  }
}

