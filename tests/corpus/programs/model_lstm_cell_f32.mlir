// Corpus program 'model_lstm_cell_f32' (tests/corpus/generate.py): ONNX Add, MatMul, Mul, Sigmoid, Split, Tanh imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x4xf32>, %arg1: tensor<1x8xf32>, %arg2: tensor<1x8xf32>) -> tensor<1x8xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense<"0x896CCE3E4659DDBE59E0303EEDE9E0BCA1AF353EF0B1EBBEAFC7E5BED79DA5BE3114F53EFB964ABEAFE3B83DA1B8F73E0602523E747694BEB4D89ABD37E2CABE6C4E5CBE05854ABECE1BF6BE2058AF3E4637CB3EF031903C0CA80A3E1939C33D1013253E2D23FD3E8D1D9F3D4E5BB7BE9B74453EFA0E433E0958B53E9C36383EE2C434BEBA1EEBBEADFA54BD244C033EE3C46F3E93432F3EB69AC83D666DD63D668A88BE16EADBBD357CA8BD30ACEABEF19EE73ED72DD5BE0FC5F03E6CCD953EFB318EBE6B7D0CBE631381BE0493F33D7805F0BE78F599BDD1CC813EA58F36BD10C0023EF53C93BD12DE023ECD82BA3E4EAF333E437CCB3E14A1AE3E5D1E073BFDBBABBD48E64B3EFB853A3E84153BBEA04FFE3D7B89E1BDB69CF53EF4C488BEF171A4BD5FAFB33EFFC9D6BC841274BE1D138CBE421D673E563A2A3E5BBA3ABE12F641BED217AD3C92B5BC3E7658233E948DE2BEF10B023E034DE23E6546ABBDE50EBE3E0D05CD3E7E0C8EBE261416BEE18D8EBEE8C003BC27833A3E09C68A3EE408DFBE915FDB3E20C4DCBE821FD73EDD96C5BC53F0DCBEE398F9BE7DD4BBBE98D9F8BE7CF5E33E4C95B13D164285BE2561D4BE5DC3633D617AE1BD22A6ABBEFC2F57BEC64B833E8CF1EDBE23239E3ED04ED43E234ABF3EA806C2BEA0FC993ED119493E5A3BE2BE25C7B5BE71A7E5BD688984BDAE792B3E35C7F93D10C5D23D"> : tensor<4x32xf32>
    %cst_2 = arith.constant dense<"0xA7F4ADBE0FED933D5BA0FBBD7B5035BEB6173F3E66C8F13E6004EF3EDB682F3E1303A93E330525BD05503BBE714F2E3D344ECF3D4D78D33EB57ABBBD428D503D7C53B7BDF4F9B1BE133EEBBE449C88BEF8BDDC3D9545CF3EBD8DFBBE861627BD5F08A03EAB6FEC3E7777ADBEFFDDDDBE378EB3BE7C4F31BED6C909BE4645BB3D7A23E8BE055CD93EEECB273E681A123D1F7CF93E637D8DBD1C374EBE01E47E3E781B9E3E16495E3E8101BB3EBEFCC2BEE99EDC3E915369BE5E4FF93D18EA79BE56419B3C32AAE13E55A824BE3861FB3EAB1A19BBB256DC3EE383B6BB9467EDBD7A73A13EA16F5BBEFBB79E3EA2F45DBE045102BE2DB6823E8F89F2BDE22D803E309FA9BEFFD89FBE872BC6BEFBE8B43E1280A13E8B31983E02A5D13E46ABFEBEE68B963EA94EF3BEC6E6AABE5376EBBE66CABABE02B9F3BEDD6FC63EF2C587BE9B4A263DB97C133E71F619BE19AB38B95DB6193E40ABD93E5FA1DEBCE3B642BED20FBC3E7900823D1285823D901EB93E3537BF3E4D7C8F3DC54B2D3DD18AE53EA292AB3E3582AABEA2A9993E5A0F39BE12943BBE27EB913E60198E3EEC96F73EFB783F3EE2FC90BEC2FADCBEF44DABBEE2BDD5BEC0BD4ABE13CDC73DD58E523EA45E7CBE9EF73DBD9295523EC65747BEB01FB7BEC6D0C9BE8E66EABEE5BC8CBE2F06A83E9B3C8B3D8F27DFBEA69C1DBE0FD185BCB861B8BD719AF5BE26EA97BE489E7DBE96F127BE805A9CBC496AB6BECBA8C4BD0DE4A2BDCF65F43EB494B3BE4A2E763E0005C83DBCFDF93EEF88D83E0309DEBE7167D7BEBEE3083EF41879BE615B26BE4BDBA4BD98B0043E58585FBDAA2ABABEE5F47B3E01FE603EB72940BED131C3BEFFF959BE573BE7BE094A23BE0E7BFB3E32B0A13D47849EBE7231EF3E80D4DDBE5637EBBE388C9E3C163E8BBE26B9E63B6148D0BEC8019F3E5A078D3EA2680EBD5C2357BCDE6390BB3281CE3E21E8D5BE9FBA453C1FA1893D76D32C3EDCE8233EE7C7A33E8407B3BE724DD7BE46FAF6BD851AB5BE969E9F3C11D8F63EAFF843BEB7C9BCBE2982EA3EAD5D89BE0138A0BEE145EEBE8EAECFBE51B4BB3E7D88A33DDD8B08BD2355AABE17B803BE5C63F1BE2E63CBBD062A97BE33FA613E19D098BB864EC33EF44AF5BE48023F3ECC06193E0A9486BE062180BE21748A3DD40EB4BEEAF5B1BC8ED653BE9CFC143EA831E6BE3552AABE6D146DBDAC10A0BE03E02F3E70AE80BE316A973E0D7776BEF0664E3EA2CFC1BE1FA1283EA070E8BE6C8FD73E5290563E3884B43E7AB1F5BE7F9FA2BE574A64BE2625B7BE379ABBBD9CA5D8BDDE7C45BEA83B8EBE357467BEAA979DBE2E86D73E31DE833D89E4D43D7DF3F8BE16CD3DBE6DCD163EDD18ECBE59A2F7BEEA2E8EBEECB1843E2FD1683E61D972BE45885C3E8F37863E6254B93EDE49A43E788C833D2499BE3E55D4D0BE"> : tensor<8x32xf32>
    %cst_3 = arith.constant dense<[-0.0563577637, 0.0684911906, 0.408103764, -0.245750442, 0.0887812674, -0.140876681, 0.256373614, 0.043058861, -0.297915548, 0.0161052849, -0.257944107, -0.450428426, -0.387081593, -0.157211885, -0.484563679, 0.272622317, 0.303641945, -0.479401916, 0.0261748359, -0.068024069, -0.0988605916, -0.428076625, 0.440111965, -0.203222424, 0.432230353, -0.0964680537, -0.290438145, -0.248883143, -0.252457142, 0.304835975, 0.329257846, 0.308377922]> : tensor<32xf32>
    %0 = tensor.empty() : tensor<1x32xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x32xf32>) -> tensor<1x32xf32>
    %2 = linalg.matmul ins(%arg0, %cst_1 : tensor<1x4xf32>, tensor<4x32xf32>) outs(%1 : tensor<1x32xf32>) -> tensor<1x32xf32>
    %3 = linalg.matmul ins(%arg1, %cst_2 : tensor<1x8xf32>, tensor<8x32xf32>) outs(%1 : tensor<1x32xf32>) -> tensor<1x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %3 : tensor<1x32xf32>, tensor<1x32xf32>) outs(%0 : tensor<1x32xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %16 = arith.addf %in, %in_7 : f32
      linalg.yield %16 : f32
    } -> tensor<1x32xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %cst_3 : tensor<1x32xf32>, tensor<32xf32>) outs(%0 : tensor<1x32xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %16 = arith.addf %in, %in_7 : f32
      linalg.yield %16 : f32
    } -> tensor<1x32xf32>
    %extracted_slice = tensor.extract_slice %5[0, 0] [1, 8] [1, 1] : tensor<1x32xf32> to tensor<1x8xf32>
    %extracted_slice_4 = tensor.extract_slice %5[0, 8] [1, 8] [1, 1] : tensor<1x32xf32> to tensor<1x8xf32>
    %extracted_slice_5 = tensor.extract_slice %5[0, 16] [1, 8] [1, 1] : tensor<1x32xf32> to tensor<1x8xf32>
    %extracted_slice_6 = tensor.extract_slice %5[0, 24] [1, 8] [1, 1] : tensor<1x32xf32> to tensor<1x8xf32>
    %6 = tensor.empty() : tensor<1x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice : tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.negf %in : f32
      %17 = math.exp %16 : f32
      %18 = arith.addf %17, %cst_0 : f32
      %19 = arith.divf %cst_0, %18 : f32
      linalg.yield %19 : f32
    } -> tensor<1x8xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_4 : tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.negf %in : f32
      %17 = math.exp %16 : f32
      %18 = arith.addf %17, %cst_0 : f32
      %19 = arith.divf %cst_0, %18 : f32
      linalg.yield %19 : f32
    } -> tensor<1x8xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_5 : tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = math.tanh %in : f32
      linalg.yield %16 : f32
    } -> tensor<1x8xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_6 : tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.negf %in : f32
      %17 = math.exp %16 : f32
      %18 = arith.addf %17, %cst_0 : f32
      %19 = arith.divf %cst_0, %18 : f32
      linalg.yield %19 : f32
    } -> tensor<1x8xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %arg2 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %16 = arith.mulf %in, %in_7 : f32
      linalg.yield %16 : f32
    } -> tensor<1x8xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %9 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %16 = arith.mulf %in, %in_7 : f32
      linalg.yield %16 : f32
    } -> tensor<1x8xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %12 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %16 = arith.addf %in, %in_7 : f32
      linalg.yield %16 : f32
    } -> tensor<1x8xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = math.tanh %in : f32
      linalg.yield %16 : f32
    } -> tensor<1x8xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%10, %14 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%6 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %16 = arith.mulf %in, %in_7 : f32
      linalg.yield %16 : f32
    } -> tensor<1x8xf32>
    return %15 : tensor<1x8xf32>
  }
}

