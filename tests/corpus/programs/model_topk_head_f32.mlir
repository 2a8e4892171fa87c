// Corpus program 'model_topk_head_f32' (tests/corpus/generate.py): ONNX MatMul, TopK imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<4x16xf32>, %arg1: tensor<16x16xf32>) -> tensor<4x3xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<16x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %3 = tensor.empty() : tensor<4x16xi64>
    %4 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%3 : tensor<4x16xi64>) {
    ^bb0(%out: i64):
      %6 = linalg.index 1 : index
      %7 = arith.index_cast %6 : index to i64
      linalg.yield %7 : i64
    } -> tensor<4x16xi64>
    %5:2 = tm_tensor.sort dimension(1) outs(%2, %4 : tensor<4x16xf32>, tensor<4x16xi64>) {
    ^bb0(%arg2: f32, %arg3: f32, %arg4: i64, %arg5: i64):
      %6 = arith.cmpf oge, %arg2, %arg3 : f32
      tm_tensor.yield %6 : i1
    } -> tensor<4x16xf32>, tensor<4x16xi64>
    %extracted_slice = tensor.extract_slice %5#0[0, 0] [4, 3] [1, 1] : tensor<4x16xf32> to tensor<4x3xf32>
    return %extracted_slice : tensor<4x3xf32>
  }
}

