// A convolution's strides must give one positive integer per spatial dimension
// (pto_dialect/upstream/window_ops.py, the upstream named op's definition).
// RUN: not pto-opt %s 2>&1 | filecheck %s

func.func @main(%x: tensor<1x1x4x4xf32>, %k: tensor<1x1x2x2xf32>, %o: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %r = linalg.conv_2d_nchw_fchw {strides = dense<[1, 1, 1]> : vector<3xi64>} ins(%x, %k : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) outs(%o : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  func.return %r : tensor<1x1x3x3xf32>
}

// CHECK: 'linalg.conv_2d_nchw_fchw' strides must be 2 positive integers, got [1, 1, 1]
