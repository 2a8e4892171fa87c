// D19: the block targets refuse computation that is not PTO, one diagnostic per op, a
// program never lowered included; the lowering report says what became what and why not.
// RUN: not pto-opt %s -t pto-asm 2>&1 | filecheck %s --check-prefix=RAW
// RUN: not pto-opt %s -p pto-lower -t pto-bin 2>&1 | filecheck %s --check-prefix=PART
// RUN: pto-opt %s -p 'pto-lower{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: pto-opt %s -p pto-lower,pto-lowering-report 2>&1 >/dev/null | filecheck %s --check-prefix=LEFT

// RAW: {{^}}pto-opt: error: -t pto-asm: 3 operation(s) not lowered to PTO; emitting blocks would drop their computation (D19); lower it first (-p pto-lower):{{$}}
// RAW-NEXT: {{^}}  @mlp op 3 (%z): 'linalg.fill' not lowered to PTO: fill: the initial value of linalg.matmul, which stays; a fill is lowered with its reader (TEXPANDS when no linalg op reads it){{$}}
// RAW-NEXT: {{^}}  @mlp op 5 (%mm): 'linalg.matmul' not lowered to PTO: contraction f32 x f32 -> f32 that pto-lower converts (TGEMV/TMATMUL): the program was not lowered (-p pto-lower){{$}}
// RAW-NEXT: {{^}}  @mlp op 9 (%r): 'linalg.generic' not lowered to PTO: elementwise: math.sin: no PTO instruction computes it; range reduction of large f32 arguments needs more precision than f32 tile arithmetic gives (no D22 composition yet){{$}}

// PART: {{^}}pto-opt: error: -t pto-bin: 1 operation(s) not lowered to PTO; emitting blocks would drop their computation (D19):{{$}}
// PART-NEXT: {{^}}  @mlp op {{[0-9]+}} (%r): 'linalg.generic' not lowered to PTO: elementwise: math.sin: no PTO instruction computes it; range reduction of large f32 arguments needs more precision than f32 tile arithmetic gives (no D22 composition yet){{$}}

// REPORT: pto-lower report: 2 of 3 computing op(s) lowered
// REPORT-NEXT: lowered  @mlp op 3 (%z): 'linalg.fill' [fill: f32, f32] -> erased (dead, or folded into its consumer)
// REPORT-NEXT: lowered  @mlp op 5 (%mm): 'linalg.matmul' [contraction: f32, f32, f32] -> pto.matmul
// REPORT-NEXT: kept     @mlp op 9 (%r): 'linalg.generic' [elementwise: f32, f32]: elementwise: math.sin: no PTO instruction computes it; range reduction of large f32 arguments needs more precision than f32 tile arithmetic gives (no D22 composition yet)
// REPORT-NEXT: instructions executed: {{.*}}TMATMUL{{.*}}
// REPORT-NEXT: approx   math.sin (f32): not composed: range reduction of large f32 arguments needs more precision than f32 tile arithmetic gives (no D22 composition yet)
// REPORT-NEXT: tile sizes: GEMV/matmul up to 64 KiB per PE, the others up to (KiB) binary 16, map 32, convert 32, cmpsel 16, reduce 32, expand 16, transpose 32; peak {{[0-9]+}} B of the 262144 B core tile capacity

// LEFT: pto lowering report: 1 op(s) not lowered to PTO
// LEFT-NEXT: kept     @mlp op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, f32]: elementwise: math.sin: no PTO instruction computes it; range reduction of large f32 arguments needs more precision than f32 tile arithmetic gives (no D22 composition yet)

func.func @mlp(%a: tensor<4x40xf32>, %b: tensor<40x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x40xf32>, tensor<40x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sin %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
