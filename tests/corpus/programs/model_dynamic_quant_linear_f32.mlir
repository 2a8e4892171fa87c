// Corpus program 'model_dynamic_quant_linear_f32' (tests/corpus/generate.py): ONNX Cast, DynamicQuantizeLinear, MatMulInteger, Mul imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
#map2 = affine_map<() -> ()>
module {
  func.func @main(%arg0: tensor<4x16xf32>) -> tensor<4x8xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0x7F800000 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %cst_2 = arith.constant 2.550000e+02 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_3 = arith.constant dense<2.550000e+02> : tensor<f32>
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_5 = arith.constant dense<0.00999999977> : tensor<f32>
    %cst_6 = arith.constant dense<"0x62F1EF4E57415138D2C9E13763CE62BB096B2F7D32E878CA0527CBBFB06764FD72360369CDF1E49484BC6E9A713B4E0DEF18805C9617102B647C545AAE8F4757348E25A4BFDA8408E4C0755F213F171C718951B472FF864FC1FBE086BEE5C617C70E2770D905404EDC0797D1A7140F8D28F708781E4F5CDBCDBD1A23BC6ED55B"> : tensor<16x8xi8>
    %cst_7 = arith.constant dense<-128> : tensor<i8>
    %0 = tensor.empty() : tensor<f32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<f32>) -> tensor<f32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%arg0 : tensor<4x16xf32>) outs(%1 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.maximumf %in, %out : f32
      linalg.yield %33 : f32
    } -> tensor<f32>
    %3 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<f32>) -> tensor<f32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%arg0 : tensor<4x16xf32>) outs(%3 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.minimumf %in, %out : f32
      linalg.yield %33 : f32
    } -> tensor<f32>
    %5 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = []} ins(%2, %cst_4 : tensor<f32>, tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %33 = arith.cmpf ogt, %in, %in_9 : f32
      %34 = arith.select %33, %in, %in_9 : f32
      linalg.yield %34 : f32
    } -> tensor<f32>
    %6 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = []} ins(%4, %cst_4 : tensor<f32>, tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %33 = arith.cmpf olt, %in, %in_9 : f32
      %34 = arith.select %33, %in, %in_9 : f32
      linalg.yield %34 : f32
    } -> tensor<f32>
    %7 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = []} ins(%5, %6 : tensor<f32>, tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %33 = arith.subf %in, %in_9 : f32
      linalg.yield %33 : f32
    } -> tensor<f32>
    %8 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = []} ins(%7, %cst_3 : tensor<f32>, tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %33 = arith.divf %in, %in_9 : f32
      linalg.yield %33 : f32
    } -> tensor<f32>
    %9 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = []} ins(%4, %8 : tensor<f32>, tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %33 = arith.divf %in, %in_9 : f32
      linalg.yield %33 : f32
    } -> tensor<f32>
    %10 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = []} ins(%cst_4, %9 : tensor<f32>, tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %33 = arith.subf %in, %in_9 : f32
      linalg.yield %33 : f32
    } -> tensor<f32>
    %11 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%10 : tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.cmpf ult, %in, %cst_1 : f32
      %34 = arith.select %33, %cst_1, %in : f32
      %35 = arith.cmpf ugt, %34, %cst_2 : f32
      %36 = arith.select %35, %cst_2, %34 : f32
      linalg.yield %36 : f32
    } -> tensor<f32>
    %12 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%11 : tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = math.roundeven %in : f32
      linalg.yield %33 : f32
    } -> tensor<f32>
    %13 = tensor.empty() : tensor<i8>
    %14 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%12 : tensor<f32>) outs(%13 : tensor<i8>) {
    ^bb0(%in: f32, %out: i8):
      %33 = arith.fptosi %in : f32 to i8
      linalg.yield %33 : i8
    } -> tensor<i8>
    %extracted = tensor.extract %14[] : tensor<i8>
    %15 = arith.extui %extracted : i8 to i64
    %extracted_8 = tensor.extract %8[] : tensor<f32>
    %16 = tensor.empty() : tensor<4x16xi8>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x16xf32>) outs(%16 : tensor<4x16xi8>) {
    ^bb0(%in: f32, %out: i8):
      %33 = arith.sitofp %15 : i64 to f32
      %34 = arith.divf %in, %extracted_8 : f32
      %35 = math.roundeven %34 : f32
      %36 = arith.addf %35, %33 : f32
      %37 = arith.maximumf %36, %cst_1 : f32
      %38 = arith.minimumf %37, %cst_2 : f32
      %39 = arith.fptoui %38 : f32 to i8
      linalg.yield %39 : i8
    } -> tensor<4x16xi8>
    %18 = tensor.empty() : tensor<4x16xi32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%17 : tensor<4x16xi8>) outs(%18 : tensor<4x16xi32>) {
    ^bb0(%in: i8, %out: i32):
      %33 = arith.extui %in : i8 to i32
      linalg.yield %33 : i32
    } -> tensor<4x16xi32>
    %20 = tensor.empty() : tensor<16x8xi32>
    %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%cst_6 : tensor<16x8xi8>) outs(%20 : tensor<16x8xi32>) {
    ^bb0(%in: i8, %out: i32):
      %33 = arith.extui %in : i8 to i32
      linalg.yield %33 : i32
    } -> tensor<16x8xi32>
    %22 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%19, %14 : tensor<4x16xi32>, tensor<i8>) outs(%18 : tensor<4x16xi32>) {
    ^bb0(%in: i32, %in_9: i8, %out: i32):
      %33 = arith.extui %in_9 : i8 to i32
      %34 = arith.subi %in, %33 : i32
      linalg.yield %34 : i32
    } -> tensor<4x16xi32>
    %23 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%21, %cst_7 : tensor<16x8xi32>, tensor<i8>) outs(%20 : tensor<16x8xi32>) {
    ^bb0(%in: i32, %in_9: i8, %out: i32):
      %33 = arith.extui %in_9 : i8 to i32
      %34 = arith.subi %in, %33 : i32
      linalg.yield %34 : i32
    } -> tensor<16x8xi32>
    %24 = tensor.empty() : tensor<4x8xi64>
    %25 = linalg.fill ins(%c0_i64 : i64) outs(%24 : tensor<4x8xi64>) -> tensor<4x8xi64>
    %26 = linalg.matmul ins(%22, %23 : tensor<4x16xi32>, tensor<16x8xi32>) outs(%25 : tensor<4x8xi64>) -> tensor<4x8xi64>
    %27 = tensor.empty() : tensor<4x8xi32>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%26 : tensor<4x8xi64>) outs(%27 : tensor<4x8xi32>) {
    ^bb0(%in: i64, %out: i32):
      %33 = arith.trunci %in : i64 to i32
      linalg.yield %33 : i32
    } -> tensor<4x8xi32>
    %29 = tensor.empty() : tensor<4x8xf32>
    %30 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%28 : tensor<4x8xi32>) outs(%29 : tensor<4x8xf32>) {
    ^bb0(%in: i32, %out: f32):
      %33 = arith.sitofp %in : i32 to f32
      linalg.yield %33 : f32
    } -> tensor<4x8xf32>
    %31 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = []} ins(%8, %cst_5 : tensor<f32>, tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %33 = arith.mulf %in, %in_9 : f32
      linalg.yield %33 : f32
    } -> tensor<f32>
    %32 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%30, %31 : tensor<4x8xf32>, tensor<f32>) outs(%29 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %33 = arith.mulf %in, %in_9 : f32
      linalg.yield %33 : f32
    } -> tensor<4x8xf32>
    return %32 : tensor<4x8xf32>
  }
}

