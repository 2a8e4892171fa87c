// Corpus program 'model_qlinearmatmul_u8' (tests/corpus/generate.py): ONNX QLinearMatMul imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<4x32xi8>, %arg1: tensor<32x16xi8>) -> tensor<4x16xi8> {
    %c0_i32 = arith.constant 0 : i32
    %c-128_i8 = arith.constant -128 : i8
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 2.550000e+02 : f32
    %c-8_i32 = arith.constant -8 : i32
    %c2_i32 = arith.constant 2 : i32
    %cst_1 = arith.constant 9.9999999254941907E-4 : f64
    %cst_2 = arith.constant 5.000000e-01 : f32
    %cst_3 = arith.constant 1.280000e+02 : f32
    %0 = tensor.empty() : tensor<4x16xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<4x16xi32>) -> tensor<4x16xi32>
    %2 = tensor.empty() : tensor<4x32xi8>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x32xi8>) outs(%2 : tensor<4x32xi8>) {
    ^bb0(%in: i8, %out: i8):
      %11 = arith.addi %in, %c-128_i8 : i8
      linalg.yield %11 : i8
    } -> tensor<4x32xi8>
    %4 = tensor.empty() : tensor<32x16xi8>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<32x16xi8>) outs(%4 : tensor<32x16xi8>) {
    ^bb0(%in: i8, %out: i8):
      %11 = arith.addi %in, %c-128_i8 : i8
      linalg.yield %11 : i8
    } -> tensor<32x16xi8>
    %6 = linalg.quantized_matmul ins(%3, %5, %c-8_i32, %c2_i32 : tensor<4x32xi8>, tensor<32x16xi8>, i32, i32) outs(%1 : tensor<4x16xi32>) -> tensor<4x16xi32>
    %7 = tensor.empty() : tensor<4x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<4x16xi32>) outs(%7 : tensor<4x16xf32>) {
    ^bb0(%in: i32, %out: f32):
      %11 = arith.truncf %cst_1 : f64 to f32
      %12 = arith.sitofp %in : i32 to f32
      %13 = arith.mulf %12, %11 : f32
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    %9 = tensor.empty() : tensor<4x16xi8>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<4x16xf32>) outs(%9 : tensor<4x16xi8>) {
    ^bb0(%in: f32, %out: i8):
      %11 = arith.divf %in, %cst_2 : f32
      %12 = math.roundeven %11 : f32
      %13 = arith.addf %12, %cst_3 : f32
      %14 = arith.maximumf %13, %cst : f32
      %15 = arith.minimumf %14, %cst_0 : f32
      %16 = arith.fptoui %15 : f32 to i8
      linalg.yield %16 : i8
    } -> tensor<4x16xi8>
    return %10 : tensor<4x16xi8>
  }
}

