// pto-opt on invalid input: exit status 1, the diagnostic (op, fault kind, message, location),
// no Python traceback. Also --version and a missing input file.
// RUN: not pto-opt %s 2>&1 | filecheck %s
// RUN: pto-opt --version | filecheck %s --check-prefix=VERSION
// RUN: not pto-opt %s.does-not-exist 2>&1 | filecheck %s --check-prefix=MISSING

%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<trans_b = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>

// The diagnostic is at the op's own line (file:line:col, the source line, a caret under the
// op), not a dump of the module.
// CHECK-NOT: Traceback
// CHECK: {{^}}{{.*}}pto_opt.mlir:10:1{{$}}
// CHECK-NEXT: {{^}}%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr
// CHECK-NEXT: {{^}}^^^^^^^^^^^^^^^^^^^^^^{{$}}
// CHECK-NEXT: {{^}}'pto.tgemv_mx_bias' op [TileLegality] fpatr: trans_b must be 0 for TGEMV (PTO-SPEC 3.3, D11){{$}}
// CHECK-NOT: builtin.module
// CHECK-NOT: Traceback

// VERSION: {{^}}pto-opt (pto-xdsl) {{[0-9]+\.[0-9]+\.[0-9]+}}, xDSL 0.75.0{{$}}

// MISSING-NOT: Traceback
// MISSING: pto-opt: error: {{.*}}does-not-exist
// MISSING-NOT: Traceback

// An unknown pass or pass option is one error line, exit status 1, no traceback.
// RUN: not pto-opt %s -p no-such-pto-pass 2>&1 | filecheck %s --check-prefix=BADPASS
// BADPASS: pto-opt: error: unknown pass 'no-such-pto-pass'; pto-opt --help lists the PTO passes
// BADPASS-NOT: Traceback
// RUN: not pto-opt %s -p 'pto-tile-to-capacity{bogus=5}' 2>&1 | filecheck %s --check-prefix=BADOPT
// BADOPT: pto-opt: error: pass 'pto-tile-to-capacity' has no option 'bogus'; its options: 
// BADOPT-NOT: Traceback
