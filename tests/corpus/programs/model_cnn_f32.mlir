// Corpus program 'model_cnn_f32' (tests/corpus/generate.py): ONNX BatchNormalization, Conv, Flatten, Gemm, GlobalAveragePool, MaxPool, Relu imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x1x8x8xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<[[[[0.0118216248, 0.450463682, -0.355840385], [0.448649436, -0.188168541, -0.0766735524], [0.327702582, -0.0908008665, 0.0495936871]]], [[[-0.472440898, 0.253513098, 0.0381433144], [-0.170268282, 0.288428694, -0.196805164], [-0.0465021096, -0.365958303, -0.0968870148]]], [[[-0.29654476, -0.237686664, 0.250364661], [-0.219591245, -0.0148090255, 0.480737209], [0.461657196, 0.224789947, 0.0412268564]]], [[[-0.223108798, -3.393480e-01, 0.469925404], [0.0160685852, -0.384134382, 0.123489752], [0.276683122, 0.113003299, 0.417297691]]]]> : tensor<4x1x3x3xf32>
    %cst_2 = arith.constant dense<[-0.238387868, -0.20150885, 0.314225733, -0.408084065]> : tensor<4xf32>
    %cst_3 = arith.constant dense<"0x40D8E23E3397393C37D6F33EA99CD6BE60DDDB3D9AF4FCBDCC929A3E4AA4A6BEFB46BE3EE6FB333D23EFCD3E8828BBBCF8578EBDD3F0933EE7E2F73E9A6605BEF817F03E59A9DB3E7A05A5BE99EDDE3D10C8513E2AB7E23E19A2293E8DB3BBBEC1BF0BBBB610D1BB3E2D6D394CCBEA3E03AA19BEDE6D8DBECDEFB43C1C8F103EA4D2E03EE6F7A73D15BD6DBE6E0BDC3EAC9207BC2405343E0C4AC4BCFEE790BE5D2C453E14908A3EF8509EBE1B2F24BD5A800DBE1A96A8BEFFAA8EBEC5CDEC3EE2B8C43EFC10F1BD7938753E2A83EABE6182D43E7640183D24FAA33E717065BECCB2FDBD6D9A1BBE9DE3F13E567790BDAB17A1B91276E93EA76FCE3EBB04D7BDF74345BE63359D3E7CF9C8BE0FCCDCBDEFBBC03E3AD5D53ECC7588BEFEB1D7BE0551933EC766F93DC56586BEB21BC13B126FDBBEB1E34C3E58EFDA3C368F513E77DBD2BE644A143EACC604BE5A4135BA477728BEFA4D093E64CC8B3DDDD9EF3DB58CDFBE3DBA8CBE532FDBBE8901EFBD13949BBC1E7BC6BE799C2B3E9C254FBC34DDAC392C9CC73D62A8DE3ED6FEB53D0E23D0BEFC01B5BEEB8B463ED5A335BE02B5823E624E2E3CDA65F6BD0A32753E5750A2BE165A5CBE770D55BEBC6DADBD3A71D03E3205A03E33A9A43E264C063E66CBFBBEF0FF5ABEEFD9EB3A4302CC3EAB7D0BBE71174F3D7874B23E566622BE54077E3EA19DC23DD484CF3CE9E7043EDE2278BC7628C6BE3C37CB3ECF80F03E6D94AA3E96B715BEF120093E76A18A3E1D21E0BE2E32943EB788D4BEA330E13E295F84BEF720ED3E842D89BEB8EF103DDAB6A93E1F9FF93E43A2523E2361AB3E3C9FDDBDF45D803E623FECBDD714DC3E97088C3E42F9F6BD4685913E31F2DDBE9CA3D93ED2C2453EABF230BE5079163EA08C913E0565033EF3F0C53E4E59ADBD204F38BEB52404BE59805FBE7872ABBC0CCA833E0DC7BF3EEFEF073E544E923E27ADF03E268A233E08ABD4BE169B003ECED9F5BE72EE353EFF2FFF3E4BEA3ABC99B4DD3E49F9F5BEF026EE3EF0C9A9BEEFD5AD3EDE8C4EBE179FDABD3A20BCBEA9D5ECBE811F813EA6037C3EF1C3C0BEC805FB3DFE4078BE571CCB3EBA4BBBBE74A5B33D9992C73E84581D3D8AF52E3EB2E99E3EB8EC533E865AA63EF0638DBEE809D23E7938763B91C3D43EEC6B4B3E88B26F3E4AE6E63E3FD8C9BE58ACBD3EC09E54BEC27EA43E58578DBE7B9400BD87B7B8BE03569C3E125B54BE462FDBBCFE44973E47BA03BE7A52C53EDCAA2C3CB7F6E23E91FC8A3E47BBFC3E6BB8593EC2C93FBEAEB6F63C1B7EE13E695FD93E0B607FBEF8DC79BE0B447DBEA282003E97709CBE0F31523E3E9738BEF6F6AC3EBAE381BE9C5EDA3E04A52CBE4129EEBE7022ADBEF3DEA13E9DCFA8BE1A387FBE0DA1FD3EDF18AABDFC2B123E1653373DCD3E00BD6478CB3EB751EDBE65E4F3BD5E5C47BDFD303D3ECBE8693EA154FEBEF3E3CDBE6DC385BE0DFE29BE0A14893E573C783EE7C9DA3E132FC9BDDF6FA5BD4C7FB7BEC73BCA3E2802CC3E7A66E93E82516F3E51A1C33EF0FB883D14C0AD3E300D32BEE6B5833E1E73843E5C24F23DACC0AD3E9068343E116F80BE9C98E5BEC65732BE4E009CBE3070CF3E32B7073D"> : tensor<8x4x3x3xf32>
    %cst_4 = arith.constant dense<[0.305002928, 0.307940781, 0.0153255612, -0.214198619, -0.4460693, -0.11663112, -0.0915267915, -0.454724818]> : tensor<8xf32>
    %cst_5 = arith.constant dense<[[0.0381643511, -0.156729132, -0.130932763, -0.125503227, 4.874450e-01, 0.132756278, 0.174323931, -0.170036539], [0.179917663, -0.377027631, -0.448270768, 0.350191355, -0.491104186, 0.478767574, 0.327003032, 0.285210967], [-0.451916516, -0.292560726, 0.349865645, -0.0675051883, 0.12746793, -0.377717614, -0.313663691, -0.00273208716], [0.259466588, 0.039857205, -0.393119931, 0.366186082, -0.360341102, -0.0603422411, 0.0868494734, -0.180850491], [-0.0819458365, 0.3869645, -4.586430e-02, 0.0392471142, 0.470489144, -0.22401686, 0.394790202, -0.138144478], [-0.187958986, 0.381289184, -0.434503257, 0.366655111, 0.327767611, 0.394714832, -0.440242738, -0.261194408], [0.275153607, -0.0631499141, -0.494686842, 0.192619622, 0.29976967, 0.473624945, -0.349335879, -0.248045027], [0.341360599, -0.408190876, -0.225729436, -0.048237294, -0.0816571712, 0.0427339301, 0.368684262, 0.13126336], [0.154000074, 0.0922215655, -0.289171368, -0.0503408909, 0.487538397, 0.409230441, 0.267444402, 0.0336816646], [0.368865758, 0.130882472, -0.102430731, 0.026319664, -0.301416487, 0.0728201419, -0.186375469, 0.281399339]]> : tensor<10x8xf32>
    %cst_6 = arith.constant dense<[0.125095472, 0.397213787, 0.275685698, -0.27479282, -0.199833721, 0.373553455, -0.494734704, 0.321228415, 0.29706943, -0.0320650488]> : tensor<10xf32>
    %cst_7 = arith.constant dense<[[[[0.234577149]], [[-0.386327982]], [[-0.108771808]], [[0.0167401824]]]]> : tensor<1x4x1x1xf32>
    %cst_8 = arith.constant dense<[[[[1.14594197]], [[1.38019788]], [[1.60675669]], [[1.93440092]]]]> : tensor<1x4x1x1xf32>
    %cst_9 = arith.constant 9.99999974E-6 : f32
    %cst_10 = arith.constant dense<[[[[0.585649192]], [[0.736810505]], [[1.30127442]], [[1.08216202]]]]> : tensor<1x4x1x1xf32>
    %cst_11 = arith.constant dense<[[[[-0.405871361]], [[-0.0668730587]], [[-0.0209487025]], [[-0.340261072]]]]> : tensor<1x4x1x1xf32>
    %cst_12 = arith.constant 4.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x1x8x8xf32> to tensor<1x1x10x10xf32>
    %0 = tensor.empty() : tensor<1x4x8x8xf32>
    %broadcasted = linalg.broadcast ins(%cst_2 : tensor<4xf32>) outs(%0 : tensor<1x4x8x8xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_1 : tensor<1x1x10x10xf32>, tensor<4x1x3x3xf32>) outs(%broadcasted : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %2 = tensor.empty() : tensor<1x4x1x1xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_8 : tensor<1x4x1x1xf32>) outs(%2 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.addf %in, %cst_9 : f32
      linalg.yield %26 : f32
    } -> tensor<1x4x1x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x4x1x1xf32>) outs(%2 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = math.rsqrt %in : f32
      linalg.yield %26 : f32
    } -> tensor<1x4x1x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %cst_7 : tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %26 = arith.subf %in, %in_15 : f32
      linalg.yield %26 : f32
    } -> tensor<1x4x8x8xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %4 : tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %26 = arith.mulf %in, %in_15 : f32
      linalg.yield %26 : f32
    } -> tensor<1x4x8x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %cst_10 : tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %26 = arith.mulf %in, %in_15 : f32
      linalg.yield %26 : f32
    } -> tensor<1x4x8x8xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %cst_11 : tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %26 = arith.addf %in, %in_15 : f32
      linalg.yield %26 : f32
    } -> tensor<1x4x8x8xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<1x4x8x8xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.cmpf ugt, %in, %cst : f32
      %27 = arith.select %26, %in, %cst : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x8x8xf32>
    %10 = tensor.empty() : tensor<1x4x4x4xf32>
    %11 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %12 = tensor.empty() : tensor<2x2xf32>
    %13 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%9, %12 : tensor<1x4x8x8xf32>, tensor<2x2xf32>) outs(%11 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %padded_13 = tensor.pad %13 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
    %14 = tensor.empty() : tensor<1x8x2x2xf32>
    %broadcasted_14 = linalg.broadcast ins(%cst_4 : tensor<8xf32>) outs(%14 : tensor<1x8x2x2xf32>) dimensions = [0, 2, 3] 
    %15 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_13, %cst_3 : tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>) outs(%broadcasted_14 : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x8x2x2xf32>) outs(%14 : tensor<1x8x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.cmpf ugt, %in, %cst : f32
      %27 = arith.select %26, %in, %cst : f32
      linalg.yield %27 : f32
    } -> tensor<1x8x2x2xf32>
    %17 = tensor.empty() : tensor<1x8x1x1xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
    %19 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%16, %12 : tensor<1x8x2x2xf32>, tensor<2x2xf32>) outs(%18 : tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<1x8x1x1xf32>) outs(%17 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.divf %in, %cst_12 : f32
      linalg.yield %26 : f32
    } -> tensor<1x8x1x1xf32>
    %collapsed = tensor.collapse_shape %20 [[0], [1, 2, 3]] : tensor<1x8x1x1xf32> into tensor<1x8xf32>
    %21 = tensor.empty() : tensor<8x10xf32>
    %transposed = linalg.transpose ins(%cst_5 : tensor<10x8xf32>) outs(%21 : tensor<8x10xf32>) permutation = [1, 0] 
    %22 = tensor.empty() : tensor<1x10xf32>
    %23 = linalg.fill ins(%cst : f32) outs(%22 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %24 = linalg.matmul ins(%collapsed, %transposed : tensor<1x8xf32>, tensor<8x10xf32>) outs(%23 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %25 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%24, %cst_6 : tensor<1x10xf32>, tensor<10xf32>) outs(%22 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %26 = arith.addf %in, %in_15 : f32
      linalg.yield %26 : f32
    } -> tensor<1x10xf32>
    return %25 : tensor<1x10xf32>
  }
}

