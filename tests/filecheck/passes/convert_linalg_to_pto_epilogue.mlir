// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// RUN: pto-opt %s -p 'convert-linalg-to-pto{target=a2a3}' | filecheck %s --check-prefix=A2A3
// Epilogues that do not mean ReLU / F322F16 / a bias stay where they are (PTO-SPEC 3.3).

// maxnumf(NaN, 0) = 0 but ReLU(NaN) = NaN: not folded; the GEMV itself is recognised.
// CHECK-LABEL: func.func @maxnumf_not_relu
// CHECK:         %[[G:.*]] = pto.gemv %a, %b : (tensor<1x64xf16>, tensor<64x32xf16>) -> tensor<1x32xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[G]]
// CHECK:           arith.maxnumf
// On a2a3 there is no MX CUBE function (D15), but FP16 x FP16 runs on the ordinary TGEMV.
// A2A3-LABEL:  func.func @maxnumf_not_relu
// A2A3:          pto.gemv %a, %b
func.func @maxnumf_not_relu(%a: tensor<1x64xf16>, %b: tensor<64x32xf16>) -> tensor<1x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf16>, tensor<64x32xf16>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<1x32xf32>) outs(%e : tensor<1x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %x = arith.maxnumf %v, %zero : f32
    linalg.yield %x : f32
  } -> tensor<1x32xf32>
  return %m : tensor<1x32xf32>
}

// The GEMV result has a second user: the bias add cannot absorb it; it is a TADD.
// CHECK-LABEL: func.func @two_users
// CHECK:         %[[G:.*]] = pto.gemv %a, %b : (tensor<1x64xf16>, tensor<64x32xf16>) -> tensor<1x32xf32>
// CHECK:         pto.elementwise add %[[G]], %bias
func.func @two_users(%a: tensor<1x64xf16>, %b: tensor<64x32xf16>, %bias: tensor<1x32xf32>) -> (tensor<1x32xf32>, tensor<1x32xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf16>, tensor<64x32xf16>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  %s = linalg.add ins(%r, %bias : tensor<1x32xf32>, tensor<1x32xf32>) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %s, %r : tensor<1x32xf32>, tensor<1x32xf32>
}

// A second bias add after an accumulated init is a second rounding: kept, as a TADD.
// CHECK-LABEL: func.func @bias_twice
// CHECK:         %[[G:.*]] = pto.gemv %a, %b bias %init
// CHECK:         pto.elementwise add %[[G]], %bias
func.func @bias_twice(%a: tensor<1x64xf16>, %b: tensor<64x32xf16>, %init: tensor<1x32xf32>, %bias: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<1x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf16>, tensor<64x32xf16>) outs(%init : tensor<1x32xf32>) -> tensor<1x32xf32>
  %s = linalg.add ins(%r, %bias : tensor<1x32xf32>, tensor<1x32xf32>) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %s : tensor<1x32xf32>
}

// ReLU before the bias add is not post-processing order (bias is added first).
// CHECK-LABEL: func.func @relu_then_bias
// CHECK:         %[[G:.*]] = pto.gemv %a, %b {relu}
// CHECK:         pto.elementwise add %[[G]], %bias
func.func @relu_then_bias(%a: tensor<1x64xf16>, %b: tensor<64x32xf16>, %bias: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf16>, tensor<64x32xf16>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<1x32xf32>) outs(%e : tensor<1x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %x = arith.maximumf %v, %zero : f32
    linalg.yield %x : f32
  } -> tensor<1x32xf32>
  %s = linalg.add ins(%m, %bias : tensor<1x32xf32>, tensor<1x32xf32>) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %s : tensor<1x32xf32>
}
