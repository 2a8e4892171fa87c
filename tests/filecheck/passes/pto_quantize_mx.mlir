// RUN: pto-opt %s -p 'pto-quantize-mx{format=mxfp4}' | filecheck %s
// RUN: pto-opt %s -p 'pto-quantize-mx{format=mxfp8},convert-linalg-to-pto' | filecheck %s --check-prefix=LOWER
// RUN: not pto-opt %s -p 'pto-quantize-mx{format=E1M2X2}' 2>&1 | filecheck %s --check-prefix=E1M2
// RUN: not pto-opt %s -p 'pto-quantize-mx{format=fp9}' 2>&1 | filecheck %s --check-prefix=BADFMT
// RUN: not pto-opt %s -p 'pto-quantize-mx{side=activations}' 2>&1 | filecheck %s --check-prefix=SIDE
// pto-quantize-mx: constant weights of GEMV / matmul contractions become MX codes + E8M0
// scales (OCP MX v1.0 6.3, D1, D2); near misses are left as they were.

// E1M2: pto-opt: error: pto-quantize-mx: format 'E1M2X2' (E1M2X2) cannot be a constant GEMV weight
// BADFMT: pto-opt: error: pto-quantize-mx: 'fp9' is not an MX element format
// SIDE: pto-opt: error: pto-quantize-mx: side 'activations' is not supported

// K = 40: one full block of 32 and a partial one of 8 -> scales 2x3.
// Column 1 is all zero (scale 2^-127); block 2 of column 0 holds an outlier (100).
// CHECK-LABEL: func.func @matmul_const
// CHECK:         %[[C:.*]] = arith.constant dense<{{.*}}> : tensor<40x3xf4E2M1FN>
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense<{{.*}}> : tensor<2x3xf8E8M0FNU>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> ((d2 floordiv 32), d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[C]], %[[S]] : tensor<1x40xf16>, tensor<40x3xf4E2M1FN>, tensor<2x3xf8E8M0FNU>)
// CHECK:           arith.extf {{.*}} : f4E2M1FN to f32
// CHECK:           arith.extf {{.*}} : f8E8M0FNU to f32
// CHECK-NOT:     linalg.matmul
// LOWER-LABEL: func.func @matmul_const
// LOWER:         pto.gemv %{{.*}}, %{{.*}} b_scale %{{.*}} : (tensor<1x40xf16>, tensor<40x3xf8E4M3FN>, tensor<2x3xf8E8M0FNU>) -> tensor<1x3xf32>
func.func @matmul_const(%a: tensor<1x40xf16>) -> tensor<1x3xf32> {
  %w = arith.constant dense<[[3.0, 0.0, 1.0], [0.5, 0.0, -1.0], [0.25, 0.0, 2.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [100.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]> : tensor<40x3xf16>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.matmul ins(%a, %w : tensor<1x40xf16>, tensor<40x3xf16>) outs(%z : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

// linalg.vecmat with a splat constant weight: the (n, k) MX generic.
// CHECK-LABEL: func.func @vecmat_splat
// CHECK:         arith.constant dense<{{.*}}> : tensor<64x8xf4E2M1FN>
// CHECK:         arith.constant dense<{{.*}}> : tensor<2x8xf8E8M0FNU>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> ((d1 floordiv 32), d0)>, affine_map<(d0, d1) -> (d0)>]
// LOWER-LABEL: func.func @vecmat_splat
// LOWER:         pto.gemv {{.*}} b_scale {{.*}} bias
func.func @vecmat_splat(%a: tensor<64xbf16>, %c: tensor<8xf32>) -> tensor<8xf32> {
  %w = arith.constant dense<0.75> : tensor<64x8xf32>
  %r = linalg.vecmat ins(%a, %w : tensor<64xbf16>, tensor<64x8xf32>) outs(%c : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// Near misses: a weight that is an argument, f32 activations (not a D2 unscaled side), an
// f16 result (not the CUBE accumulator).
// CHECK-LABEL: func.func @weight_argument
// CHECK:         linalg.matmul
func.func @weight_argument(%a: tensor<1x64xf16>, %w: tensor<64x8xf16>, %c: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %r = linalg.matmul ins(%a, %w : tensor<1x64xf16>, tensor<64x8xf16>) outs(%c : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
// CHECK-LABEL: func.func @f32_activations
// CHECK:         linalg.matmul
func.func @f32_activations(%a: tensor<1x64xf32>, %c: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %w = arith.constant dense<1.0> : tensor<64x8xf16>
  %r = linalg.matmul ins(%a, %w : tensor<1x64xf32>, tensor<64x8xf16>) outs(%c : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
// CHECK-LABEL: func.func @f16_result
// CHECK:         linalg.matmul
func.func @f16_result(%a: tensor<1x64xf16>, %c: tensor<1x8xf16>) -> tensor<1x8xf16> {
  %w = arith.constant dense<1.0> : tensor<64x8xf16>
  %r = linalg.matmul ins(%a, %w : tensor<1x64xf16>, tensor<64x8xf16>) outs(%c : tensor<1x8xf16>) -> tensor<1x8xf16>
  return %r : tensor<1x8xf16>
}
