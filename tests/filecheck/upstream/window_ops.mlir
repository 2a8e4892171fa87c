// RUN: pto-opt %s | filecheck %s
// Convolution and pooling ops (pto_dialect/upstream/window_ops.py): parse/print round trip,
// including the f16 x f16 -> f32 convolution xDSL 0.75 failed on with an AssertionError.

func.func @f(%x: tensor<1x4x9x9xf16>, %w: tensor<8x4x3x3xf16>, %acc: tensor<1x8x4x4xf32>, %dw: tensor<4x3x3xf16>, %dacc: tensor<1x4x7x7xf32>, %win: tensor<2x2xf32>, %pacc: tensor<1x8x2x2xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x4x7x7xf32>, tensor<1x8x2x2xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x4x9x9xf16>, tensor<8x4x3x3xf16>) outs(%acc : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %dw : tensor<1x4x9x9xf16>, tensor<4x3x3xf16>) outs(%dacc : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  %2 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%0, %win : tensor<1x8x4x4xf32>, tensor<2x2xf32>) outs(%pacc : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %3 = linalg.pooling_nchw_max {strides = dense<2> : vector<2xi64>} ins(%0, %win : tensor<1x8x4x4xf32>, tensor<2x2xf32>) outs(%2 : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  func.return %0, %1, %3 : tensor<1x8x4x4xf32>, tensor<1x4x7x7xf32>, tensor<1x8x2x2xf32>
}

// CHECK:      %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x4x9x9xf16>, tensor<8x4x3x3xf16>) outs(%acc : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT: %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %dw : tensor<1x4x9x9xf16>, tensor<4x3x3xf16>) outs(%dacc : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
// CHECK-NEXT: %2 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%0, %win : tensor<1x8x4x4xf32>, tensor<2x2xf32>) outs(%pacc : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
// CHECK-NEXT: %3 = linalg.pooling_nchw_max {strides = dense<2> : vector<2xi64>} ins(%0, %win : tensor<1x8x4x4xf32>, tensor<2x2xf32>) outs(%2 : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
