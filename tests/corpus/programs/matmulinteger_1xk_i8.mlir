// Corpus program 'matmulinteger_1xk_i8' (tests/corpus/generate.py): ONNX MatMulInteger imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
module {
  func.func @main(%arg0: tensor<1x40xi8>, %arg1: tensor<40x16xi8>) -> tensor<1x16xi32> {
    %c0_i32 = arith.constant 0 : i32
    %0 = tensor.empty() : tensor<1x16xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<1x16xi32>) -> tensor<1x16xi32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<1x40xi8>, tensor<40x16xi8>) outs(%1 : tensor<1x16xi32>) -> tensor<1x16xi32>
    return %2 : tensor<1x16xi32>
  }
}

