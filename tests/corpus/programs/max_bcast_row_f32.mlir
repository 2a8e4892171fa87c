// Corpus program 'max_bcast_row_f32' (tests/corpus/generate.py): ONNX Max imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<4x16xf32>, %arg1: tensor<16xf32>) -> tensor<4x16xf32> {
    %0 = tensor.empty() : tensor<4x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<16xf32>) outs(%0 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %2 = arith.cmpf ogt, %in, %in_0 : f32
      %3 = arith.select %2, %in, %in_0 : f32
      linalg.yield %3 : f32
    } -> tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }
}

