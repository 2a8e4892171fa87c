// Static legality of pto.trem (PTO-SPEC 5, 8; D6, D10, D13, D16): one negative case per rule.
// The capacity-equality rule cannot fire on its own: two legal row-major tiles with the same
// shape and element type always have the same TSize (D14).
// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s

// HiF8 is outside TREM's set: the ASL TileVecArithmeticDataTypeSupported (D6 revised)
%a = "test.op"() : () -> !pto.tile<16x8x!pto.hif8>
%r = pto.trem %a, %a : !pto.tile<16x8x!pto.hif8>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type !pto.hif8 is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, D6){{$}}

// -----

// Divisor element type differs (D10)
%a = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
%b = "test.op"() : () -> !pto.tile<8x16xui32, valid=3x5>
%r = pto.trem %a, %b : (!pto.tile<8x16xsi32, valid=3x5>, !pto.tile<8x16xui32, valid=3x5>) -> !pto.tile<8x16xsi32, valid=3x5>
// CHECK: {{^}}'pto.trem' op [TileLegality] divisor: element type ui32 differs from dividend's si32; dividend, divisor and result must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// Result element type differs (D10)
%a = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
%r = pto.trem %a, %a : (!pto.tile<8x16xsi32, valid=3x5>, !pto.tile<8x16xsi32, valid=3x5>) -> !pto.tile<8x16xf32, valid=3x5>
// CHECK: {{^}}'pto.trem' op [TileLegality] result: element type f32 differs from dividend's si32; dividend, divisor and result must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// Physical shapes differ at the same capacity (D10)
%a = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
%b = "test.op"() : () -> !pto.tile<4x32xsi32, valid=3x5>
%r = pto.trem %a, %b : (!pto.tile<8x16xsi32, valid=3x5>, !pto.tile<4x32xsi32, valid=3x5>) -> !pto.tile<8x16xsi32, valid=3x5>
// CHECK: {{^}}'pto.trem' op [TileLegality] divisor: physical shape 4x32 differs from dividend's 8x16; dividend, divisor and result must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// Result physical shape and capacity differ (D10)
%a = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
%r = pto.trem %a, %a : (!pto.tile<8x16xsi32, valid=3x5>, !pto.tile<8x16xsi32, valid=3x5>) -> !pto.tile<16x16xsi32, valid=3x5>
// CHECK: {{^}}'pto.trem' op [TileLegality] result: physical shape 16x16 differs from dividend's 8x16; dividend, divisor and result must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// Valid shapes differ (D10)
%a = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
%b = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x4>
%r = pto.trem %a, %b : (!pto.tile<8x16xsi32, valid=3x5>, !pto.tile<8x16xsi32, valid=3x4>) -> !pto.tile<8x16xsi32, valid=3x5>
// CHECK: {{^}}'pto.trem' op [TileLegality] divisor: valid shape 3x4 differs from dividend's 3x5; dividend, divisor and result must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// Result valid shape differs (D10)
%a = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
%r = pto.trem %a, %a : (!pto.tile<8x16xsi32, valid=3x5>, !pto.tile<8x16xsi32, valid=3x5>) -> !pto.tile<8x16xsi32>
// CHECK: {{^}}'pto.trem' op [TileLegality] result: valid shape 8x16 differs from dividend's 3x5; dividend, divisor and result must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// Dividend not row-major (D10)
%a = "test.op"() : () -> !pto.tile<16x8xf32, col_major>
%r = pto.trem %a, %a : !pto.tile<16x8xf32, col_major>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: layout col_major must be row_major (PTO-SPEC 5, D10){{$}}

// -----

// Result not row-major (D10)
%a = "test.op"() : () -> !pto.tile<16x8xf32>
%r = pto.trem %a, %a : (!pto.tile<16x8xf32>, !pto.tile<16x8xf32>) -> !pto.tile<16x8xf32, zn>
// CHECK: {{^}}'pto.trem' op [TileLegality] result: layout zn must be row_major (PTO-SPEC 5, D10){{$}}

// -----

// Shared tiles are illegal for TREM (B.IOS is illegal; PTO-SPEC 3.4, 5)
%a = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
%b = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5, shared>
%r = pto.trem %a, %b : (!pto.tile<8x16xsi32, valid=3x5>, !pto.tile<8x16xsi32, valid=3x5, shared>) -> !pto.tile<8x16xsi32, valid=3x5>
// CHECK: {{^}}'pto.trem' op [TileLegality] divisor: operands are Local tiles, got shared (PTO-SPEC 5){{$}}

// -----

// All bindings share one mask (D13)
%a = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
%b = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5, pe=1100>
%r = pto.trem %a, %b : (!pto.tile<8x16xsi32, valid=3x5>, !pto.tile<8x16xsi32, valid=3x5, pe=1100>) -> !pto.tile<8x16xsi32, valid=3x5>
// CHECK: {{^}}'pto.trem' op [TileLegality] divisor: held by PEs 1100 but the op's mask is 1111; all bindings share one mask (PTO-SPEC 2, D13){{$}}

// -----

// The op mask must match the tiles' (D13)
%a = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
%r = pto.trem %a, %a {mask = #pto.mask<1000>} : !pto.tile<8x16xsi32, valid=3x5>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: held by PEs 1111 but the op's mask is 1000; all bindings share one mask (PTO-SPEC 2, D13){{$}}
