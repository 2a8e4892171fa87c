// Corpus program 'matmul_k50_f32' (tests/corpus/generate.py): ONNX MatMul imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
module {
  func.func @main(%arg0: tensor<4x50xf32>, %arg1: tensor<50x8xf32>) -> tensor<4x8xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<4x50xf32>, tensor<50x8xf32>) outs(%1 : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %2 : tensor<4x8xf32>
  }
}

