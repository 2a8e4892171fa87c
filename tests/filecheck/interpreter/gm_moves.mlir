// RUN: pto-run %s --symbol moves --engine both | filecheck %s
// RUN: pto-opt %s -p pto-lower | pto-run - --symbol moves | filecheck %s
// GM moves through pto-run (docs/dialect.md 1.1), as tile ops (both engines) and as blocks.
// Packed 4-bit GM: a U4X2 2x3 tile loaded from i8 GM bytes at a 4-byte row pitch (low nibble
// first) and stored at byte column 1 of a 2x3 byte tensor: each row's three elements fill one
// byte and the low nibble of the next, whose high nibble keeps its bits (0xF_ -> 0xF3,
// 0xA_ -> 0xA6).
// row_stride: rows 1 and 4 of GM at row_stride 3, stored at rows 0 and 2 (row_stride 2) and
// at row 1 twice (row_stride 0, the encoded-zero stride: the last row stays).

// CHECK: result0: tensor<2x3xi8> = {{\[}}[ 85,  33, -13],
// CHECK-NEXT: [ 85,  84, -90]]
// CHECK-NEXT: result1: tensor<3x2xi32> = {{\[}}[2, 3],
// CHECK-NEXT: [8, 9],
// CHECK-NEXT: [8, 9]]

func.func @moves() -> (tensor<2x3xi8>, tensor<3x2xi32>) {
  %gm = arith.constant dense<[[33, 3, 0, 0], [84, 6, 0, 0]]> : tensor<2x4xi8>
  %out = arith.constant dense<[[85, 85, -16], [85, 85, -96]]> : tensor<2x3xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = pto.tload %gm[%c0, %c0] : tensor<2x4xi8> -> !pto.tile<64x4xui4, valid=2x3, pe=1000>
  %r = pto.tstore %t, %out[%c0, %c1] : !pto.tile<64x4xui4, valid=2x3, pe=1000> -> tensor<2x3xi8>
  %g32 = arith.constant dense<[[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]> : tensor<5x2xi32>
  %o32 = arith.constant dense<-1> : tensor<3x2xi32>
  %u = pto.tload %g32[%c1, %c0] {row_stride = 3} : tensor<5x2xi32> -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  %s = pto.tstore %u, %o32[%c0, %c0] {row_stride = 2} : !pto.tile<32x2xui32, valid=2x2, pe=1000> -> tensor<3x2xi32>
  %s2 = pto.tstore %u, %s[%c1, %c0] {row_stride = 0} : !pto.tile<32x2xui32, valid=2x2, pe=1000> -> tensor<3x2xi32>
  func.return %r, %s2 : tensor<2x3xi8>, tensor<3x2xi32>
}
