// Legality rules pto-opt adds to xDSL's verifier (issue 13): SSA dominance, constant
// tload/tstore offsets inside the tensor, f80/f128 refused. Each case is one diagnostic.
// RUN: pto-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @self_use(%a: f32) -> f32 {
  %0 = arith.addf %0, %a : f32
  func.return %0 : f32
}
// CHECK: 'arith.addf' op uses operand #0 inside its own definition

// -----

func.func @store_before_load(%a: tensor<16x64xf16>, %d: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %c0 = arith.constant 0 : index
  %r = pto.tstore %t, %d[%c0, %c0] : !pto.tile<1x64xf16, cube_m16, mat> -> tensor<16x64xf16>
  %t = pto.tload %a[%c0, %c0] : tensor<16x64xf16> -> !pto.tile<1x64xf16, cube_m16, mat>
  func.return %r : tensor<16x64xf16>
}
// CHECK: 'pto.tstore' op uses operand #0 (%t) before its definition (operand does not dominate this use)

// -----

func.func @branch(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addi %a, %a : i32
  cf.br ^bb2
^bb2:
  func.return %x : i32
}
// CHECK: 'func.return' op uses operand #0 (%x), whose definition does not dominate this use

// -----

func.func @tload_oob(%a: tensor<16x64xf16>) -> !pto.tile<1x64xf16, cube_m16, mat> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %t = pto.tload %a[%c16, %c0] : tensor<16x64xf16> -> !pto.tile<1x64xf16, cube_m16, mat>
  func.return %t : !pto.tile<1x64xf16, cube_m16, mat>
}
// CHECK: 'pto.tload' op [TileLegality] offset 0 = 16: the PE slice(s) [16, 17) lie outside the source's extent 16 (docs/dialect.md)

// -----

func.func @tstore_oob(%t: !pto.tile<1x64xf16, cube_m16, mat>, %d: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = pto.tstore %t, %d[%c0, %c1] : !pto.tile<1x64xf16, cube_m16, mat> -> tensor<16x64xf16>
  func.return %r : tensor<16x64xf16>
}
// CHECK: 'pto.tstore' op [TileLegality] offset 1 = 1: the PE slice(s) [1, 65) lie outside the destination's extent 64 (docs/dialect.md)

// -----

%f = arith.constant 1.0 : f128
// CHECK: 'arith.constant' op uses f80 or f128, which this toolchain does not support (float types up to f64 only)

// -----

// Graph regions (the module body) may use a value before its definition.
%1 = "test.op"(%0) : (i32) -> i32
%0 = "test.op"() : () -> i32
// CHECK: %{{.*}} = "test.op"(%{{.*}}) : (i32) -> i32
