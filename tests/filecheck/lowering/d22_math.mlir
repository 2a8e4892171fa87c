// D22: tanh, erf and small constant integer powers lower to compositions of exactly lowered
// PTO ops (passes/lowering/approximate.py) and assemble; the report names each one's
// measured bound; approx=false keeps them with the reason; a power outside the measured
// exponents stays with its reason.
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: pto-opt %s -p 'pto-lower{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: pto-opt %s -p 'pto-lower{approx=false},pto-lowering-report' 2>&1 >/dev/null | filecheck %s --check-prefix=STRICT

// ASM: BSTART.{{.*}}TEXP
// ASM-NOT: error

// REPORT: pto-lower report: 3 of 3 computing op(s) lowered
// REPORT: approx   math.tanh (f32): D22 composition of TABS, TMUL, TADD, TMULS, TADDS, TEXP, TDIV, TCMP, TSEL; measured max error 1 ulp (bound 4)
// REPORT-NEXT: approx   math.erf (bf16): D22 composition of TABS, TMIN, TMUL, TADD, TMULS, TADDS, TNEG, TEXP, TCMP, TSEL; measured max error 0 ulp (bound 1)
// REPORT-NEXT: approx   math.fpowi (f16): D22 composition of TMUL, TDIV, TEXPANDS; measured max error 0 ulp (bound 1)

// STRICT: pto lowering report: 3 op(s) not lowered to PTO
// STRICT-NEXT: @tanh_f32 op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, f32]: elementwise: math.tanh: no PTO instruction computes it; pto-lower expands its D22 composition unless approx=false
// STRICT-NEXT: @erf_bf16 op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: bf16, bf16]: elementwise: math.erf: no PTO instruction computes it; pto-lower expands its D22 composition unless approx=false
// STRICT-NEXT: @cube_f16 op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f16, f16]: elementwise: math.fpowi: no PTO instruction computes it; pto-lower expands its D22 composition unless approx=false

func.func @tanh_f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

func.func @erf_bf16(%a: tensor<4x16xbf16>) -> tensor<4x16xbf16> {
  %e = tensor.empty() : tensor<4x16xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x16xbf16>) outs(%e : tensor<4x16xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %y = math.erf %x : bf16
    linalg.yield %y : bf16
  } -> tensor<4x16xbf16>
  return %r : tensor<4x16xbf16>
}

func.func @cube_f16(%a: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %c3 = arith.constant 3 : i64
  %e = tensor.empty() : tensor<4x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = math.fpowi %x, %c3 : f16, i64
    linalg.yield %y : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}
