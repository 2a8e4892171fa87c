// Corpus program 'model_dwsep_conv_f32' (tests/corpus/generate.py): ONNX BatchNormalization, Conv, Relu imported with iree-import-onnx +
// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
module {
  func.func @main(%arg0: tensor<1x4x6x6xf32>) -> tensor<1x8x6x6xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense<[[[[-0.249175549]], [[0.446752936]], [[-0.310679615]], [[-0.320708603]]], [[[-0.150110766]], [[-0.269458741]], [[0.17044574]], [[-0.384920627]]], [[[0.396309376]], [[0.358130485]], [[-0.497172982]], [[0.0414661616]]], [[[-0.39314872]], [[-0.242045045]], [[-0.0831039622]], [[-0.0463838764]]], [[[-0.0318534076]], [[0.427516699]], [[-0.241228908]], [[-0.312109798]]], [[[0.170510471]], [[0.446618706]], [[0.422810882]], [[3.802500e-01]]], [[[-0.435644299]], [[0.436696112]], [[0.149240375]], [[0.371555835]]], [[[-0.0919015333]], [[-0.280610055]], [[0.292970091]], [[0.161634475]]]]> : tensor<8x4x1x1xf32>
    %cst_1 = arith.constant dense<[[[-0.371429801, -7.22137571E-4, 0.101498358], [-4.713110e-01, -0.352073908, 0.428211033], [-0.429579437, -0.370226055, 0.448328465]], [[0.121883593, -0.131006882, 0.011390022], [0.162842959, -0.224691182, -0.362031937], [0.288039595, 0.17036058, 0.0123823136]], [[0.31673643, 0.0490752682, 0.480913639], [-0.295490533, 0.0537303612, -0.0163753033], [-0.146725148, 0.091595307, -0.264698774]], [[0.302202672, 0.367333561, -0.371240318], [-0.0329267941, -0.222855106, -4.168830e-01], [0.395944297, -0.070051305, -0.352308691]]]> : tensor<4x3x3xf32>
    %cst_2 = arith.constant dense<[[[[0.410407186]], [[0.484803468]], [[-0.213703394]], [[0.313661128]]]]> : tensor<1x4x1x1xf32>
    %cst_3 = arith.constant dense<[[[[0.623611927]], [[1.157420e+00]], [[1.72655571]], [[1.113100e+00]]]]> : tensor<1x4x1x1xf32>
    %cst_4 = arith.constant 9.99999974E-6 : f32
    %cst_5 = arith.constant dense<[[[[1.36479759]], [[1.35530257]], [[1.31102335]], [[0.761446356]]]]> : tensor<1x4x1x1xf32>
    %cst_6 = arith.constant dense<[[[[-0.422800541]], [[0.44646579]], [[0.113791689]], [[-0.49736926]]]]> : tensor<1x4x1x1xf32>
    %cst_7 = arith.constant dense<[[[[-0.271279365]], [[0.150194183]], [[0.47128427]], [[-0.201286912]], [[-0.0371692106]], [[0.391613901]], [[0.0514008775]], [[-0.0785352587]]]]> : tensor<1x8x1x1xf32>
    %cst_8 = arith.constant dense<[[[[1.50243616]], [[0.546230376]], [[0.730694652]], [[1.80698502]], [[0.737359762]], [[0.544200242]], [[1.88959336]], [[1.62917757]]]]> : tensor<1x8x1x1xf32>
    %cst_9 = arith.constant dense<[[[[1.33098328]], [[0.860946655]], [[1.20273936]], [[1.36011875]], [[1.14131749]], [[1.04836321]], [[1.26231337]], [[1.21631444]]]]> : tensor<1x8x1x1xf32>
    %cst_10 = arith.constant dense<[[[[-0.0328312479]], [[0.0724589378]], [[0.246322364]], [[-0.436436087]], [[0.146876037]], [[0.236057147]], [[-0.101241156]], [[7.182530e-03]]]]> : tensor<1x8x1x1xf32>
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
    %0 = tensor.empty() : tensor<1x4x6x6xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %2 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_1 : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%1 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %3 = tensor.empty() : tensor<1x4x1x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_3 : tensor<1x4x1x1xf32>) outs(%3 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %cst_4 : f32
      linalg.yield %22 : f32
    } -> tensor<1x4x1x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<1x4x1x1xf32>) outs(%3 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.rsqrt %in : f32
      linalg.yield %22 : f32
    } -> tensor<1x4x1x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %cst_2 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %22 = arith.subf %in, %in_11 : f32
      linalg.yield %22 : f32
    } -> tensor<1x4x6x6xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %5 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %22 = arith.mulf %in, %in_11 : f32
      linalg.yield %22 : f32
    } -> tensor<1x4x6x6xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %cst_5 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %22 = arith.mulf %in, %in_11 : f32
      linalg.yield %22 : f32
    } -> tensor<1x4x6x6xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %cst_6 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %22 = arith.addf %in, %in_11 : f32
      linalg.yield %22 : f32
    } -> tensor<1x4x6x6xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9 : tensor<1x4x6x6xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.cmpf ugt, %in, %cst : f32
      %23 = arith.select %22, %in, %cst : f32
      linalg.yield %23 : f32
    } -> tensor<1x4x6x6xf32>
    %11 = tensor.empty() : tensor<1x8x6x6xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    %13 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%10, %cst_0 : tensor<1x4x6x6xf32>, tensor<8x4x1x1xf32>) outs(%12 : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    %14 = tensor.empty() : tensor<1x8x1x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_8 : tensor<1x8x1x1xf32>) outs(%14 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %cst_4 : f32
      linalg.yield %22 : f32
    } -> tensor<1x8x1x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x8x1x1xf32>) outs(%14 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.rsqrt %in : f32
      linalg.yield %22 : f32
    } -> tensor<1x8x1x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %cst_7 : tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) outs(%11 : tensor<1x8x6x6xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %22 = arith.subf %in, %in_11 : f32
      linalg.yield %22 : f32
    } -> tensor<1x8x6x6xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %16 : tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) outs(%11 : tensor<1x8x6x6xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %22 = arith.mulf %in, %in_11 : f32
      linalg.yield %22 : f32
    } -> tensor<1x8x6x6xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %cst_9 : tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) outs(%11 : tensor<1x8x6x6xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %22 = arith.mulf %in, %in_11 : f32
      linalg.yield %22 : f32
    } -> tensor<1x8x6x6xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %cst_10 : tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) outs(%11 : tensor<1x8x6x6xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %22 = arith.addf %in, %in_11 : f32
      linalg.yield %22 : f32
    } -> tensor<1x8x6x6xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20 : tensor<1x8x6x6xf32>) outs(%11 : tensor<1x8x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.cmpf ugt, %in, %cst : f32
      %23 = arith.select %22, %in, %cst : f32
      linalg.yield %23 : f32
    } -> tensor<1x8x6x6xf32>
    return %21 : tensor<1x8x6x6xf32>
  }
}

