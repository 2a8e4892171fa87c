func.func @main(%x: tensor<4x6xf32>) -> tensor<4x1xf32> {
  %0 = pto.reduce rowmax %x : (tensor<4x6xf32>) -> tensor<4x1xf32>
  %1 = pto.reduce rowsum %x : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x1xf32>

  %2 = pto.reduce rowmin %x : (tensor<4x6xf32>) -> tensor<4x1xf32>
  func.return %2 : tensor<4x1xf32>
}
