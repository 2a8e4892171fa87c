// Corpus program 'model_resnet_block_f16' (tests/corpus/generate.py): ONNX Add, BatchNormalization, Conv, Relu imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
module {
  func.func @main(%arg0: tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16> {
    %cst = arith.constant 0.000000e+00 : f16
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant dense<"0x6631112C0730E4B3052D9E34E2A971B36634C22ED0B19B2EBB3494B1CB32A32F58B10DB25C3421AE80A8FE2D96A8CCB49AB044A40431162C5CA9EFB1773102B24C305F96022874ACB4B157B26F2D4CB0AAB4E7B10B3411302A2A8EAB1B328CB01C2DAFB4982D8934003010B4072B09AF0734A0B4B0B4C1B32CAE5833F7283C2E60B43EB294ACE82CD430BD293CB027B205AAB0B0FE308C33D73147B38431A8B401B3B62FD3AE48323C2F632DBA2BEE33613285B4A73447A9DAAF183306343D313930B3B44AB0FE31C93436B002316EB3C23082AD0FB439B233293BA4322FD2AD662BC7AC2631BDB4D42ABA2A3EB415312A2D523402B2C4A9023344341D2FA7ADAF3005A75025CF2E2134B7B4AD2FF633D3AC0EB15C2983B4DB314F9F482E5E31"> : tensor<4x4x3x3xf16>
    %cst_2 = arith.constant dense<"0x22ADC6B1E6B3E22D3FA6AF34C03278324EB44028202C52B4F7A28BAE72B1B43113AA9EB307ADF7333DAC01B229B47A1F6F2EB2AAB0328623B6310129F92AB8AA7EB3DB2FE23252302DAAEDB308B2E0271A2E8CB441341F304530B034A42CA79C4BB11D2FA82F59342B34569DC532663465AA162C2E2B01A2C1A459B100B25CAF122B202E223217B0DC202BA754B2A03451AE532F5A2F333167324934E1AE772E09AFC3AF9F31CA3074303EB37C34ED2C65A5ED3375B3A1AFDAB2A0AE8231B9B20531872B8BAEB73264B4EDB0A208A9AB6DACC6348827302EC8A6C9B19AB3E8304930B834C6B014ACCAACA92956B4B6317830CBB314302CAE35A9BBB1382FFB2994B4BBB2763005B319A57F2E58B2479521AAE8B28B3102B44532B0AE68AD4CB1"> : tensor<4x4x3x3xf16>
    %cst_3 = arith.constant dense<[[[[0.216552734]], [[-0.029296875]], [[-0.084777832]], [[-0.150878906]]]]> : tensor<1x4x1x1xf32>
    %cst_4 = arith.constant dense<[[[[0.595703125]], [[1.18164063]], [[0.952148437]], [[1.08398438]]]]> : tensor<1x4x1x1xf32>
    %cst_5 = arith.constant 9.99999974E-6 : f32
    %cst_6 = arith.constant dense<[[[[1.19433594]], [[1.14160156]], [[0.628417969]], [[0.613769531]]]]> : tensor<1x4x1x1xf32>
    %cst_7 = arith.constant dense<[[[[0.153320313]], [[0.353515625]], [[-0.298339844]], [[-0.281982422]]]]> : tensor<1x4x1x1xf32>
    %cst_8 = arith.constant dense<[[[[0.242431641]], [[0.3203125]], [[0.212158203]], [[-0.0900878906]]]]> : tensor<1x4x1x1xf32>
    %cst_9 = arith.constant dense<[[[[1.9140625]], [[0.546386719]], [[1.70410156]], [[1.40332031]]]]> : tensor<1x4x1x1xf32>
    %cst_10 = arith.constant dense<[[[[0.830078125]], [[0.905273437]], [[1.07519531]], [[1.00683594]]]]> : tensor<1x4x1x1xf32>
    %cst_11 = arith.constant dense<[[[[0.0642089844]], [[0.0697021484]], [[0.374023438]], [[-0.413574219]]]]> : tensor<1x4x1x1xf32>
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f16
    } : tensor<1x4x6x6xf16> to tensor<1x4x8x8xf16>
    %0 = tensor.empty() : tensor<1x4x6x6xf32>
    %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_1 : tensor<1x4x8x8xf16>, tensor<4x4x3x3xf16>) outs(%1 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %3 = tensor.empty() : tensor<1x4x6x6xf16>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<1x4x6x6xf32>) outs(%3 : tensor<1x4x6x6xf16>) {
    ^bb0(%in: f32, %out: f16):
      %27 = arith.truncf %in : f32 to f16
      linalg.yield %27 : f16
    } -> tensor<1x4x6x6xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<1x4x6x6xf16>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f16, %out: f32):
      %27 = arith.extf %in : f16 to f32
      linalg.yield %27 : f32
    } -> tensor<1x4x6x6xf32>
    %6 = tensor.empty() : tensor<1x4x1x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_4 : tensor<1x4x1x1xf32>) outs(%6 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.addf %in, %cst_5 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x1x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7 : tensor<1x4x1x1xf32>) outs(%6 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = math.rsqrt %in : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x1x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %cst_3 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %27 = arith.subf %in, %in_13 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x6x6xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %8 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %27 = arith.mulf %in, %in_13 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x6x6xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10, %cst_6 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %27 = arith.mulf %in, %in_13 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x6x6xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %cst_7 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %27 = arith.addf %in, %in_13 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x6x6xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12 : tensor<1x4x6x6xf32>) outs(%3 : tensor<1x4x6x6xf16>) {
    ^bb0(%in: f32, %out: f16):
      %27 = arith.truncf %in : f32 to f16
      linalg.yield %27 : f16
    } -> tensor<1x4x6x6xf16>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<1x4x6x6xf16>) outs(%3 : tensor<1x4x6x6xf16>) {
    ^bb0(%in: f16, %out: f16):
      %27 = arith.cmpf ugt, %in, %cst : f16
      %28 = arith.select %27, %in, %cst : f16
      linalg.yield %28 : f16
    } -> tensor<1x4x6x6xf16>
    %padded_12 = tensor.pad %14 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f16
    } : tensor<1x4x6x6xf16> to tensor<1x4x8x8xf16>
    %15 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_12, %cst_2 : tensor<1x4x8x8xf16>, tensor<4x4x3x3xf16>) outs(%1 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x4x6x6xf32>) outs(%3 : tensor<1x4x6x6xf16>) {
    ^bb0(%in: f32, %out: f16):
      %27 = arith.truncf %in : f32 to f16
      linalg.yield %27 : f16
    } -> tensor<1x4x6x6xf16>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<1x4x6x6xf16>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f16, %out: f32):
      %27 = arith.extf %in : f16 to f32
      linalg.yield %27 : f32
    } -> tensor<1x4x6x6xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_9 : tensor<1x4x1x1xf32>) outs(%6 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.addf %in, %cst_5 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x1x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<1x4x1x1xf32>) outs(%6 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = math.rsqrt %in : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x1x1xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %cst_8 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %27 = arith.subf %in, %in_13 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x6x6xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %19 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %27 = arith.mulf %in, %in_13 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x6x6xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %cst_10 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %27 = arith.mulf %in, %in_13 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x6x6xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %cst_11 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %27 = arith.addf %in, %in_13 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x6x6xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<1x4x6x6xf32>) outs(%3 : tensor<1x4x6x6xf16>) {
    ^bb0(%in: f32, %out: f16):
      %27 = arith.truncf %in : f32 to f16
      linalg.yield %27 : f16
    } -> tensor<1x4x6x6xf16>
    %25 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %arg0 : tensor<1x4x6x6xf16>, tensor<1x4x6x6xf16>) outs(%3 : tensor<1x4x6x6xf16>) {
    ^bb0(%in: f16, %in_13: f16, %out: f16):
      %27 = arith.addf %in, %in_13 : f16
      linalg.yield %27 : f16
    } -> tensor<1x4x6x6xf16>
    %26 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25 : tensor<1x4x6x6xf16>) outs(%3 : tensor<1x4x6x6xf16>) {
    ^bb0(%in: f16, %out: f16):
      %27 = arith.cmpf ugt, %in, %cst : f16
      %28 = arith.select %27, %in, %cst : f16
      linalg.yield %28 : f16
    } -> tensor<1x4x6x6xf16>
    return %26 : tensor<1x4x6x6xf16>
  }
}

