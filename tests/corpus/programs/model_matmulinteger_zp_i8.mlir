// Corpus program 'model_matmulinteger_zp_i8' (tests/corpus/generate.py): ONNX MatMulInteger imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
module {
  func.func @main(%arg0: tensor<4x32xi8>, %arg1: tensor<32x16xi8>) -> tensor<4x16xi32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant dense<3> : tensor<i8>
    %cst_0 = arith.constant dense<-5> : tensor<i8>
    %0 = tensor.empty() : tensor<4x32xi32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x32xi8>) outs(%0 : tensor<4x32xi32>) {
    ^bb0(%in: i8, %out: i32):
      %11 = arith.extsi %in : i8 to i32
      linalg.yield %11 : i32
    } -> tensor<4x32xi32>
    %2 = tensor.empty() : tensor<32x16xi32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<32x16xi8>) outs(%2 : tensor<32x16xi32>) {
    ^bb0(%in: i8, %out: i32):
      %11 = arith.extsi %in : i8 to i32
      linalg.yield %11 : i32
    } -> tensor<32x16xi32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %cst : tensor<4x32xi32>, tensor<i8>) outs(%0 : tensor<4x32xi32>) {
    ^bb0(%in: i32, %in_1: i8, %out: i32):
      %11 = arith.extsi %in_1 : i8 to i32
      %12 = arith.subi %in, %11 : i32
      linalg.yield %12 : i32
    } -> tensor<4x32xi32>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_0 : tensor<32x16xi32>, tensor<i8>) outs(%2 : tensor<32x16xi32>) {
    ^bb0(%in: i32, %in_1: i8, %out: i32):
      %11 = arith.extsi %in_1 : i8 to i32
      %12 = arith.subi %in, %11 : i32
      linalg.yield %12 : i32
    } -> tensor<32x16xi32>
    %6 = tensor.empty() : tensor<4x16xi64>
    %7 = linalg.fill ins(%c0_i64 : i64) outs(%6 : tensor<4x16xi64>) -> tensor<4x16xi64>
    %8 = linalg.matmul ins(%4, %5 : tensor<4x32xi32>, tensor<32x16xi32>) outs(%7 : tensor<4x16xi64>) -> tensor<4x16xi64>
    %9 = tensor.empty() : tensor<4x16xi32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<4x16xi64>) outs(%9 : tensor<4x16xi32>) {
    ^bb0(%in: i64, %out: i32):
      %11 = arith.trunci %in : i64 to i32
      linalg.yield %11 : i32
    } -> tensor<4x16xi32>
    return %10 : tensor<4x16xi32>
  }
}

