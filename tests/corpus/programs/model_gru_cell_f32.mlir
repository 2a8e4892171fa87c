// Corpus program 'model_gru_cell_f32' (tests/corpus/generate.py): ONNX Add, MatMul, Mul, Sigmoid, Split, Sub, Tanh imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x4xf32>, %arg1: tensor<1x8xf32>) -> tensor<1x8xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense<[[0.454151094, 0.267932087, -0.374029249, 0.326988071, 0.349072069, -0.150217161, 0.0114092343, 0.10249991, -0.16116409, 0.121806398, 0.232484668, 0.361088276, -0.162175611, -0.0707107559, 0.0941813439, 0.475677937, 0.427869171, -0.441517532, 0.265021831, -0.34245491, -0.222457737, 0.0836403146, 0.279396892, -0.326593935], [0.426685154, -0.151584923, 0.337465525, 0.397012055, -0.272090733, -0.336327851, 0.378343612, -0.35354504, 0.28959319, 0.494294196, -0.418466747, 6.664100e-02, -0.148076072, 2.091750e-01, 0.379907817, -0.177894354, -0.172142252, -0.24971427, 0.35102585, 0.264871687, 0.361674666, 0.057166893, 0.38837868, -0.370074153], [0.382339686, -0.129110992, -0.0856730639, 0.332232505, 0.227203831, -0.447311759, -0.24727723, 0.422105223, -0.394949734, 0.222561672, -0.209918097, -1.067250e-01, 0.332070261, 0.308305323, -0.454364032, 0.39002344, -0.466126233, 0.122854374, 0.0514364243, -0.403416961, 0.476005852, 0.145762533, 0.45238927, 0.196252391], [0.158602729, -0.365946651, -0.0959794595, 0.08035665, -0.429688096, -0.372393847, 0.153147057, 0.0900571271, -0.0319098048, 0.366877735, 0.0145485392, 0.212167725, -0.330341041, 0.254325926, 0.46622479, 0.141076759, -0.0481613316, 0.213966772, -0.431359351, 0.326476961, -0.00262818276, -0.137763768, 0.0174758229, -0.281715453]]> : tensor<4x24xf32>
    %cst_2 = arith.constant dense<"0xF8438C3E9A5A7ABD269AB73ED81A4A3EFDC7CFBEC684F33E1AB4853E0577923EE467BEBE1D384BBD864D04BEF180DA3E6151133E0341A53E83C667BD5EA78BBE4C945F3D5853DFBE46BFA73E08D3063E1424843E25F714BE55FFF03E2C47C93E48888E3E51589CBE8F4F08BD8E92E9BEF800B1BE2F713B3EEEA27A3E705DEF3ED65A32BE36A604BE1766F9BC9CFD9EBEEE7ABDBE7606C7BC8AD28BBEB8E32D3E7FB680BDCC54AA3E4B124D3EF62240BEF51DAA3E130A9C3EBC71E6BD84C058BE1AE03A3E5D72B8BEA2A599BE033BFCBEC1E7923EAACE283EDF16523EB7BB8F3EEF4728BD2FC88C3D876CB8BE505CC5BED3712C3EA6C7ECBC829A853DEEAD873E99F3093E13765B3D3583723D4EC148BEA538F0BE509A81BDF52192BE5655BBBD3FF1B43E153988BE2526E2BEE7DC5FBE285C53BE71CD253E8C9A693D1B5B913ECF41283E3FB8BFBD48C7A03E8782AABE155FF4BE3FE5D1BE2BB2633E9F261CBDC96DADBED6F0883A2604B2BE3508493E3D8B5CBD25ABF3BD6A404BBECD68053EFF800DBE8D1FD3BEBB94C3BEDA7DEC3E7D31D13E07804C3EC9BF6FBEE337F03E70B88E3E76185E3E506A4FBD823969BED8A5CEBEE721CE3EEC2335BDD46398BE4FB346BEDF3DA23D0A7EA5BE2696B63EAC5C843EE6BA603ECE128BBD405D023E8E3BAC3D6371193EB7C3D4BE2B6DACBD8CB1EABEA9E8C4BBDD382EBEED00B6BEC40ECBBEFF7EB33D0AA8A8BE58A9D93E6203A63D29CE1CBEE731BA3D0D53F4BE46C8EA3E62F890BCACC2903E6AA4D5BE04975ABCB14118BCCA2AE03E28E6923DC12CD9BCEF9D6EBE2D792CBE2C59A93CFA377ABD43EFF4BEBC0FA73E96D5CA3E4531B8BE01555D3DC368C8BEB55F303E400460BEB03F233E4771683E2A8C893E2ED6C8BE81FFD43E64218ABE43D8ECBEFCAC603DF32C04BE34DAA83E23D39D3EF13F3BBE6EE2E73EA21956BE2DB2763C4AE479BE1A41DF3E86B8ABBE7A01E9BED5EB84BDA618FC3EEC89C83E1A937E3EF415C83ED771C93ED97C9A3C187D3CBE37458B3E888A253EDE5F01BE11A2CFBE6AB67C3E8D3D73BEF9A5DF3E819F84BE"> : tensor<8x24xf32>
    %cst_3 = arith.constant dense<[0.15229927, -0.45622468, -0.479970425, 0.339212596, 0.0871430486, -0.275294781, 0.251792282, -0.2363078, -0.0800220891, -0.0489686131, 0.455314577, 0.391901672, -0.221366972, -0.221465707, -0.0780004263, -0.495922267, -0.191076234, 4.517540e-01, 0.338204771, 0.0351282582, -0.0145114539, 0.445126683, 0.0931741893, 0.442867905]> : tensor<24xf32>
    %cst_4 = arith.constant dense<[-0.377434492, -0.241886929, -0.0942292734, 0.469183952, -0.337682873, 0.357293665, -0.336954743, -0.162038058, 0.177722812, 0.116534173, 0.454936177, -0.0885992199, 0.439641804, 0.426748693, 0.215571746, -0.480537891, 0.297399312, 0.400755197, 0.0238628201, -0.302837312, -0.319206774, 0.345395148, -0.412758917, 0.0462064296]> : tensor<24xf32>
    %0 = tensor.empty() : tensor<1x24xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x24xf32>) -> tensor<1x24xf32>
    %2 = linalg.matmul ins(%arg0, %cst_1 : tensor<1x4xf32>, tensor<4x24xf32>) outs(%1 : tensor<1x24xf32>) -> tensor<1x24xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %cst_3 : tensor<1x24xf32>, tensor<24xf32>) outs(%0 : tensor<1x24xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %17 = arith.addf %in, %in_10 : f32
      linalg.yield %17 : f32
    } -> tensor<1x24xf32>
    %4 = linalg.matmul ins(%arg1, %cst_2 : tensor<1x8xf32>, tensor<8x24xf32>) outs(%1 : tensor<1x24xf32>) -> tensor<1x24xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %cst_4 : tensor<1x24xf32>, tensor<24xf32>) outs(%0 : tensor<1x24xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %17 = arith.addf %in, %in_10 : f32
      linalg.yield %17 : f32
    } -> tensor<1x24xf32>
    %extracted_slice = tensor.extract_slice %3[0, 0] [1, 8] [1, 1] : tensor<1x24xf32> to tensor<1x8xf32>
    %extracted_slice_5 = tensor.extract_slice %3[0, 8] [1, 8] [1, 1] : tensor<1x24xf32> to tensor<1x8xf32>
    %extracted_slice_6 = tensor.extract_slice %3[0, 16] [1, 8] [1, 1] : tensor<1x24xf32> to tensor<1x8xf32>
    %extracted_slice_7 = tensor.extract_slice %5[0, 0] [1, 8] [1, 1] : tensor<1x24xf32> to tensor<1x8xf32>
    %extracted_slice_8 = tensor.extract_slice %5[0, 8] [1, 8] [1, 1] : tensor<1x24xf32> to tensor<1x8xf32>
    %extracted_slice_9 = tensor.extract_slice %5[0, 16] [1, 8] [1, 1] : tensor<1x24xf32> to tensor<1x8xf32>
    %6 = tensor.empty() : tensor<1x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice, %extracted_slice_7 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %17 = arith.addf %in, %in_10 : f32
      linalg.yield %17 : f32
    } -> tensor<1x8xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.negf %in : f32
      %18 = math.exp %17 : f32
      %19 = arith.addf %18, %cst_0 : f32
      %20 = arith.divf %cst_0, %19 : f32
      linalg.yield %20 : f32
    } -> tensor<1x8xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_5, %extracted_slice_8 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %17 = arith.addf %in, %in_10 : f32
      linalg.yield %17 : f32
    } -> tensor<1x8xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.negf %in : f32
      %18 = math.exp %17 : f32
      %19 = arith.addf %18, %cst_0 : f32
      %20 = arith.divf %cst_0, %19 : f32
      linalg.yield %20 : f32
    } -> tensor<1x8xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%10, %extracted_slice_9 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %17 = arith.mulf %in, %in_10 : f32
      linalg.yield %17 : f32
    } -> tensor<1x8xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_6, %11 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %17 = arith.addf %in, %in_10 : f32
      linalg.yield %17 : f32
    } -> tensor<1x8xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = math.tanh %in : f32
      linalg.yield %17 : f32
    } -> tensor<1x8xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %13 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %17 = arith.subf %in, %in_10 : f32
      linalg.yield %17 : f32
    } -> tensor<1x8xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %14 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %17 = arith.mulf %in, %in_10 : f32
      linalg.yield %17 : f32
    } -> tensor<1x8xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %15 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %17 = arith.addf %in, %in_10 : f32
      linalg.yield %17 : f32
    } -> tensor<1x8xf32>
    return %16 : tensor<1x8xf32>
  }
}

