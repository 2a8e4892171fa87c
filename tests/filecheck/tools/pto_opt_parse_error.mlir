// pto-opt on a type that breaks a descriptor rule: a parse error with its location, exit 1,
// no traceback (PTO-SPEC 2, D14).
// RUN: not pto-opt %s 2>&1 | filecheck %s

%x = "test.op"() : () -> !pto.tile<4x12xf32, size=256B>

// CHECK-NOT: Traceback
// CHECK: {{^.*}}pto_opt_parse_error.mlir:5:35{{$}}
// CHECK-NEXT: %x = "test.op"() : () -> !pto.tile<4x12xf32, size=256B>
// CHECK-NEXT: {{^ *}}^^^^^^^^^^^^^^^^^^^^^{{$}}
// CHECK-NEXT: {{^ *}}[TileLegality] invalid !pto.tile: row_major Col 12 must be a power of two (PTO-SPEC 2, D14){{$}}
// CHECK-NOT: Traceback
