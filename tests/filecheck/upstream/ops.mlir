// RUN: pto-opt %s | filecheck %s
// Upstream ops xDSL 0.75 lacks, registered by pto-opt: parse/print round trip.

func.func @f(%a: tensor<1x8xbf16>, %b: tensor<8x4xbf16>, %c: tensor<1x4xf32>, %x: tensor<8xf16>, %n: tensor<8x4xf16>, %m: tensor<4x8xf16>, %y: tensor<4xf32>, %s: f32) -> (tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, f32) {
  %0 = linalg.matmul ins(%a, %b : tensor<1x8xbf16>, tensor<8x4xbf16>) outs(%c : tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = linalg.vecmat ins(%x, %n : tensor<8xf16>, tensor<8x4xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.matvec ins(%m, %x : tensor<4x8xf16>, tensor<8xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %3 = arith.remf %s, %s fastmath<nnan> : f32
  %4 = arith.remf %3, %s : f32
  func.return %0, %1, %2, %4 : tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, f32
}

// CHECK:      %0 = linalg.matmul ins(%a, %b : tensor<1x8xbf16>, tensor<8x4xbf16>) outs(%c : tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: %1 = linalg.vecmat ins(%x, %n : tensor<8xf16>, tensor<8x4xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = linalg.matvec ins(%m, %x : tensor<4x8xf16>, tensor<8xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %3 = arith.remf %s, %s fastmath<nnan> : f32
// CHECK-NEXT: %4 = arith.remf %3, %s : f32
