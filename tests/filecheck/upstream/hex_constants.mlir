// RUN: pto-opt %s | filecheck %s
// RUN: pto-opt %s | pto-opt | filecheck %s
// RUN: pto-run %s --symbol f --engine both | filecheck %s --check-prefix=OUT
// Hex elements of a float dense constant are bit patterns (MLIR; issue 23): 0xFF800000 is
// f32 -inf, 0xFC00 f16 -inf. Printed back as the same bit patterns; splats decided by bits.

func.func @f() -> (tensor<f32>, tensor<3xf32>, tensor<2xf16>, tensor<2xbf16>, tensor<2x2xf8E5M2>, tensor<2xf64>) {
  %0 = arith.constant dense<0xFF800000> : tensor<f32>
  %1 = arith.constant dense<[0xFF800000, 1.5, 0x7F800001]> : tensor<3xf32>
  %2 = arith.constant dense<0xFC00> : tensor<2xf16>
  %3 = arith.constant dense<[0.0, -0.0]> : tensor<2xbf16>
  %4 = arith.constant dense<[[0xFC, 0x7D], [0x80, 0x01]]> : tensor<2x2xf8E5M2>
  %5 = arith.constant dense<[0x7FF0000000000001, 0x0000000000000001]> : tensor<2xf64>
  func.return %0, %1, %2, %3, %4, %5 : tensor<f32>, tensor<3xf32>, tensor<2xf16>, tensor<2xbf16>, tensor<2x2xf8E5M2>, tensor<2xf64>
}

// CHECK:      arith.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: arith.constant dense<[0xFF800000, 1.500000e+00, 0x7F800001]> : tensor<3xf32>
// CHECK-NEXT: arith.constant dense<0xFC00> : tensor<2xf16>
// CHECK-NEXT: arith.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xbf16>
// CHECK-NEXT: arith.constant dense<{{\[\[}}0xFC, 0x7D], [-0.000000e+00, 1.525880e-05]]> : tensor<2x2xf8E5M2>
// CHECK-NEXT: arith.constant dense<[0x7FF0000000000001, 4.940660e-324]> : tensor<2xf64>

// OUT: result0: tensor<f32> = -inf
// OUT-NEXT: result1: tensor<3xf32> = [-inf, 1.5, nan]
// OUT-NEXT: result2: tensor<2xf16> = [-inf, -inf]
// OUT-NEXT: result3: tensor<2xbf16> = [0.0, -0.0]
