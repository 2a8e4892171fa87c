func.func @main(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = arith.addf %a, %b : tensor<4x16xf32>
  %1 = arith.mulf %0, %c : tensor<4x16xf32>
  func.return %1 : tensor<4x16xf32>
}
