// Elementwise bodies the table refuses stay, and D19 says why (passes/lowering/elementwise.py).
// RUN: pto-opt %s -p pto-lower,pto-lowering-report 2>&1 >/dev/null | filecheck %s --check-prefix=WHY
// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// WHY: pto lowering report: 3 op(s) not lowered to PTO
// WHY-NEXT: @maximumf_kept_f32 op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, f32, f32]: elementwise: arith.maximumf (NaN rule differs from TMAX) needs TCMP, TSEL: in the pto dialect; its row in the elementwise table is not written yet
// WHY-NEXT: @tanh_kept op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, f32]: elementwise: math.tanh: no PTO instruction computes tanh
// WHY-NEXT: @relu_keeps_minus_zero op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, f32]: elementwise: arith.cmpf (a compare gives a predicate tile) needs TCMP: in the pto dialect; its row in the elementwise table is not written yet; arith.select (a select reads a predicate tile) needs TSEL: in the pto dialect; its row in the elementwise table is not written yet

// CHECK-LABEL: func.func @maximumf_kept_f32
// CHECK:         arith.maximumf
func.func @maximumf_kept_f32(%a0: tensor<4x16xf32>, %a1: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.maximumf %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @tanh_kept
// CHECK:         math.tanh
func.func @tanh_kept(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = math.tanh %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
// select(x olt 0, 0, x) keeps -0 (and is not TRELU, which gives +0): TCMP + TSEL (D18).
// CHECK-LABEL: func.func @relu_keeps_minus_zero
// CHECK:         arith.cmpf olt
func.func @relu_keeps_minus_zero(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %z = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %p = arith.cmpf olt, %x0, %z : f32
    %y = arith.select %p, %z, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
