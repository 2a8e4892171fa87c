// Corpus program 'model_gru_onnx_f32' (tests/corpus/generate.py): ONNX GRU imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<2x1x4xf32>) -> tensor<1x1x8xf32> {
    %cst = arith.constant dense<0.000000e+00> : tensor<2x1x8xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<1x8xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %c2_i64 = arith.constant 2 : i64
    %cst_2 = arith.constant 1.000000e+00 : f32
    %cst_3 = arith.constant dense<1.000000e+00> : tensor<1x8xf32>
    %cst_4 = arith.constant dense<[0.442005396, 0.466385305, -0.484244466, 0.130077839, -0.264008075, -0.474228114, -0.449212343, 0.328337044]> : tensor<8xf32>
    %cst_5 = arith.constant dense<[-0.0749063417, 0.402367204, 0.49453491, 0.351199478, 0.168559715, -0.0471252091, 0.148614854, 0.36486581]> : tensor<8xf32>
    %cst_6 = arith.constant dense<[0.255587578, 0.454254717, 0.445118725, 0.220696226, 0.23106429, 0.197052732, 0.0489151254, -0.208918467]> : tensor<8xf32>
    %cst_7 = arith.constant dense<[-0.18967022, 0.214426771, 0.402174681, -0.306381017, 0.110196762, -0.438499719, 0.0510683805, -0.387567222]> : tensor<8xf32>
    %cst_8 = arith.constant dense<[0.0131460903, -0.320759952, 0.250464588, 0.292978227, 0.0538289063, 0.321738243, 0.110868849, -0.0663104877]> : tensor<8xf32>
    %cst_9 = arith.constant dense<[0.241801992, 0.253668815, -0.0348194614, -0.396274984, 0.46685186, -0.179249674, -0.299668461, 0.357759178]> : tensor<8xf32>
    %cst_10 = arith.constant dense<[[0.0731306598, 0.028491145, 0.263650239, 0.311692774], [0.0102288555, 0.279339671, 0.296113312, 9.475500e-02], [-0.0914219543, 0.171276435, 0.127467826, 0.340082347], [0.224163488, 0.0290184077, 0.464065909, -0.0312457923], [0.311105967, 0.365276873, 0.129842937, -0.453088343], [-0.445112675, -0.380120099, 0.202309459, -0.455924422], [0.200206786, -0.0801245644, -0.130628243, -0.346074879], [-0.393628687, -0.374610424, 0.277810305, -0.325424016], [0.209727064, 0.201875925, 0.0228866171, 0.460396349], [-0.126673684, -0.464557558, -4.587920e-03, -0.297470033], [-0.375669241, 0.492493153, -0.141563773, 0.192196235], [-0.289680153, -0.486429721, 0.474761069, 0.223316729], [0.207152918, 0.318410754, -0.180869743, -0.0636931359], [-0.125061497, 0.374288946, -0.184012979, -0.159444794], [0.250729293, 1.121550e-01, 0.0302470382, -0.358757973], [-0.116973229, 0.39927426, -0.403211504, 0.312083423], [0.176824227, -0.385889947, 0.303300887, 0.00118466187], [-0.0912717134, 0.122819901, -0.203353122, -0.423819482], [-0.266659439, -0.318284392, -0.0836986824, 0.014974175], [-0.254344136, 0.288999617, -0.136794552, 0.112899482], [0.193288475, 0.273018062, -0.34046495, -0.190653786], [0.326013297, 0.205639437, 0.0168638211, 0.411932647], [-0.253106773, -0.0523385592, -0.0113944178, -0.328182906], [-0.291613847, 0.133148044, -0.499945819, -0.102741756]]> : tensor<24x4xf32>
    %cst_11 = arith.constant dense<"0x5DABCF3EBB75D8BE79E368BEBF8CF93DF938DE3EDB81D4BECF54043EBD178D3E927D3B3CCF787E3EC7CFC23EE6B35FBACEFD963E75C0E3BE47E36B3EE8B98B3EA7F7DDBEB035CABE0D16E1BDCE1532BE41467EBE2C94AF3E2161FCBE8646A3BED29C0D3EF70CAEBCBA7F953ABC49393E3590E3BE4A706F3E54FD1C3E0ACDCC3EFDC1F93DDAB2FB3EBC0233BB38DD613E63EFE9BE605C76BE1E6AA7BEE924393D023854BD60499DBE13D914BD6172BCBE0EA947BDDFDAE93E7DC6323C9F4F4FBDE28782BCE75081BEECE39C3D3906AFBE0FE2CCBEECC311BC4AADBBBEE3F3353E3446ED3D9D220CBDDFDE98BEC2C0C9BDE976E33E35B13F3E050A9F3E409EB2BE5452F03E98440DBE6226FFBD6BEBF8BD3210CDBE3F127A3E3FB06DBEE927F7BB319FDC3ED31AF23DFFD9CD3EF7CA98BE0E8A9DBDF930343EFCF12EBE60E7BA3C1F39D3BE066EF23D6D5B3FBD0496CE3EAF17D4BDFF1ADA3C0B54FF3DEBD7443EB6DF2ABE0B25D13D6FAA5CBEC9CDF5BECD85D93E56108F3E58CC29BEC5A3F8BEE070B43C659860BDA411A03D6E1116BE66DC763EB494353EE581813CB40A9CBE6962E9BEEEAD03BEC61ABC3E0063C9BDC5683DBE62CE94BDC745AD3D457A85BED4517C3ECBAAF7BEA3E3C13E19C1E2BE2C06BFBED4DB57BD6D2E213D3CA2E7BCDE9B03BD9D54A4BE0BFB8CBEC22CB03DB9F4F83B00CE453EA24D34BE42619FBEAC295C3E5288B0BE7CA1813EC6C5133EF8318B3E67168C3EAB48C0BD9FB377BE1F47ABBDB098B9BEA3DCCFBE9D0A953DE3B2AEBE40B8A5BE2BC390BE54700CBE77F0F43E97CF343E253587BEF59BF7BE17DA733EB907D8BEC1D2EC3EEFC95F3E963187BE8D5AF0BEDE1C853E186257BE4FC72C3E1C0E973E157A933EB0E9C9BE269D383D93C0C0BE0BC390BED781DABC406AFD3EA1E415BE6D51453EF57BE53E37D792BEB05ADDBE17E46A3EA64FC53D397EC6BE313C43BE613AA9BE7C4956BECD06A8BEAF4A15BE34A5843D1525DC3DA089AABD5939A03C9164E6BE120D38BC5FCF62BEFE8C3BBD7219FA3D2A30253E5036B73E5CE0203E574271BE3291E2BD"> : tensor<24x8xf32>
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %extracted_slice = tensor.extract_slice %cst_10[0, 0] [8, 4] [1, 1] : tensor<24x4xf32> to tensor<8x4xf32>
    %extracted_slice_12 = tensor.extract_slice %cst_10[8, 0] [8, 4] [1, 1] : tensor<24x4xf32> to tensor<8x4xf32>
    %extracted_slice_13 = tensor.extract_slice %cst_10[16, 0] [8, 4] [1, 1] : tensor<24x4xf32> to tensor<8x4xf32>
    %extracted_slice_14 = tensor.extract_slice %cst_11[0, 0] [8, 8] [1, 1] : tensor<24x8xf32> to tensor<8x8xf32>
    %extracted_slice_15 = tensor.extract_slice %cst_11[8, 0] [8, 8] [1, 1] : tensor<24x8xf32> to tensor<8x8xf32>
    %extracted_slice_16 = tensor.extract_slice %cst_11[16, 0] [8, 8] [1, 1] : tensor<24x8xf32> to tensor<8x8xf32>
    %0:2 = scf.for %arg1 = %c0 to %c2 step %c1 iter_args(%arg2 = %cst, %arg3 = %cst_0) -> (tensor<2x1x8xf32>, tensor<1x8xf32>) {
      %1 = arith.index_cast %arg1 : index to i64
      %2 = arith.cmpi slt, %1, %c0_i64 : i64
      %3 = arith.extui %2 : i1 to i64
      %4 = arith.muli %3, %c2_i64 : i64
      %5 = arith.addi %1, %4 : i64
      %6 = arith.addi %5, %c2_i64 : i64
      %7 = arith.cmpi sge, %5, %c0_i64 : i64
      %8 = arith.select %7, %5, %6 : i64
      %9 = arith.maxsi %8, %c0_i64 : i64
      %10 = arith.minsi %9, %c2_i64 : i64
      %11 = arith.index_cast %10 : i64 to index
      %extracted_slice_17 = tensor.extract_slice %arg0[%11, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<2x1x4xf32> to tensor<1x1x4xf32>
      %collapsed = tensor.collapse_shape %extracted_slice_17 [[0, 1], [2]] : tensor<1x1x4xf32> into tensor<1x4xf32>
      %12 = tensor.empty() : tensor<4x8xf32>
      %transposed = linalg.transpose ins(%extracted_slice : tensor<8x4xf32>) outs(%12 : tensor<4x8xf32>) permutation = [1, 0] 
      %13 = tensor.empty() : tensor<1x8xf32>
      %14 = linalg.fill ins(%cst_1 : f32) outs(%13 : tensor<1x8xf32>) -> tensor<1x8xf32>
      %15 = linalg.matmul ins(%collapsed, %transposed : tensor<1x4xf32>, tensor<4x8xf32>) outs(%14 : tensor<1x8xf32>) -> tensor<1x8xf32>
      %16 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%15, %cst_9 : tensor<1x8xf32>, tensor<8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.addf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %17 = tensor.empty() : tensor<8x8xf32>
      %transposed_18 = linalg.transpose ins(%extracted_slice_14 : tensor<8x8xf32>) outs(%17 : tensor<8x8xf32>) permutation = [1, 0] 
      %18 = linalg.matmul ins(%arg3, %transposed_18 : tensor<1x8xf32>, tensor<8x8xf32>) outs(%14 : tensor<1x8xf32>) -> tensor<1x8xf32>
      %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%18, %cst_6 : tensor<1x8xf32>, tensor<8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.addf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %20 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%16, %19 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.addf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%20 : tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %45 = arith.negf %in : f32
        %46 = math.exp %45 : f32
        %47 = arith.addf %46, %cst_2 : f32
        %48 = arith.divf %cst_2, %47 : f32
        linalg.yield %48 : f32
      } -> tensor<1x8xf32>
      %transposed_19 = linalg.transpose ins(%extracted_slice_12 : tensor<8x4xf32>) outs(%12 : tensor<4x8xf32>) permutation = [1, 0] 
      %22 = linalg.matmul ins(%collapsed, %transposed_19 : tensor<1x4xf32>, tensor<4x8xf32>) outs(%14 : tensor<1x8xf32>) -> tensor<1x8xf32>
      %23 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%22, %cst_8 : tensor<1x8xf32>, tensor<8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.addf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %transposed_20 = linalg.transpose ins(%extracted_slice_15 : tensor<8x8xf32>) outs(%17 : tensor<8x8xf32>) permutation = [1, 0] 
      %24 = linalg.matmul ins(%arg3, %transposed_20 : tensor<1x8xf32>, tensor<8x8xf32>) outs(%14 : tensor<1x8xf32>) -> tensor<1x8xf32>
      %25 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%24, %cst_5 : tensor<1x8xf32>, tensor<8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.addf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %26 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%23, %25 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.addf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%26 : tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %45 = arith.negf %in : f32
        %46 = math.exp %45 : f32
        %47 = arith.addf %46, %cst_2 : f32
        %48 = arith.divf %cst_2, %47 : f32
        linalg.yield %48 : f32
      } -> tensor<1x8xf32>
      %transposed_21 = linalg.transpose ins(%extracted_slice_13 : tensor<8x4xf32>) outs(%12 : tensor<4x8xf32>) permutation = [1, 0] 
      %28 = linalg.matmul ins(%collapsed, %transposed_21 : tensor<1x4xf32>, tensor<4x8xf32>) outs(%14 : tensor<1x8xf32>) -> tensor<1x8xf32>
      %29 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%28, %cst_7 : tensor<1x8xf32>, tensor<8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.addf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %transposed_22 = linalg.transpose ins(%extracted_slice_16 : tensor<8x8xf32>) outs(%17 : tensor<8x8xf32>) permutation = [1, 0] 
      %30 = linalg.matmul ins(%arg3, %transposed_22 : tensor<1x8xf32>, tensor<8x8xf32>) outs(%14 : tensor<1x8xf32>) -> tensor<1x8xf32>
      %31 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%30, %cst_4 : tensor<1x8xf32>, tensor<8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.addf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %32 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%31, %27 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.mulf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %33 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%29, %32 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.addf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %34 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%33 : tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %45 = math.tanh %in : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %35 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%cst_3, %21 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.subf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %36 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%35, %34 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.mulf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %37 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg3, %21 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.mulf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %38 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%36, %37 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%13 : tensor<1x8xf32>) {
      ^bb0(%in: f32, %in_24: f32, %out: f32):
        %45 = arith.addf %in, %in_24 : f32
        linalg.yield %45 : f32
      } -> tensor<1x8xf32>
      %expanded_23 = tensor.expand_shape %38 [[0, 1], [2]] output_shape [1, 1, 8] : tensor<1x8xf32> into tensor<1x1x8xf32>
      %39 = arith.addi %1, %c2_i64 : i64
      %40 = arith.cmpi sge, %1, %c0_i64 : i64
      %41 = arith.select %40, %1, %39 : i64
      %42 = arith.maxsi %41, %c0_i64 : i64
      %43 = arith.minsi %42, %c2_i64 : i64
      %44 = arith.index_cast %43 : i64 to index
      %inserted_slice = tensor.insert_slice %expanded_23 into %arg2[%44, 0, 0] [1, 1, 8] [1, 1, 1] : tensor<1x1x8xf32> into tensor<2x1x8xf32>
      scf.yield %inserted_slice, %38 : tensor<2x1x8xf32>, tensor<1x8xf32>
    }
    %expanded = tensor.expand_shape %0#1 [[0, 1], [2]] output_shape [1, 1, 8] : tensor<1x8xf32> into tensor<1x1x8xf32>
    return %expanded : tensor<1x1x8xf32>
  }
}

