// Static legality of pto.trem (PTO-SPEC 5, 8; D6, D10, D13, D16): one negative case per rule.
// The capacity-equality rule cannot fire on its own: two legal row-major tiles with the same
// shape and element type always have the same TSize (D14).
// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s

// 8-bit signed is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<16x8xsi8>
%r = pto.trem %a, %a : !pto.tile<16x8xsi8>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type si8 is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// 8-bit unsigned is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<16x8xui8>
%r = pto.trem %a, %a : !pto.tile<16x8xui8>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type ui8 is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// 64-bit signed is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<2x8xsi64>
%r = pto.trem %a, %a : !pto.tile<2x8xsi64>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type si64 is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// 64-bit unsigned is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<2x8xui64>
%r = pto.trem %a, %a : !pto.tile<2x8xui64>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type ui64 is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// FP64 is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<2x8xf64>
%r = pto.trem %a, %a : !pto.tile<2x8xf64>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type f64 is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// TF32 is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<4x8xtf32>
%r = pto.trem %a, %a : !pto.tile<4x8xtf32>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type tf32 is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// HF32 is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<4x8x!pto.hf32>
%r = pto.trem %a, %a : !pto.tile<4x8x!pto.hf32>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type !pto.hf32 is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// FP8 E4M3 is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<16x8xf8E4M3FN>
%r = pto.trem %a, %a : !pto.tile<16x8xf8E4M3FN>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type f8E4M3FN is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// FP8 E5M2 is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<16x8xf8E5M2>
%r = pto.trem %a, %a : !pto.tile<16x8xf8E5M2>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type f8E5M2 is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// HiF8 is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<16x8x!pto.hif8>
%r = pto.trem %a, %a : !pto.tile<16x8x!pto.hif8>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type !pto.hif8 is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// FP6 is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<16x8xf6E2M3FN>
%r = pto.trem %a, %a : !pto.tile<16x8xf6E2M3FN>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type f6E2M3FN is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// packed FP4 is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<32x8xf4E2M1FN>
%r = pto.trem %a, %a : !pto.tile<32x8xf4E2M1FN>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type f4E2M1FN is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// packed S4 is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<32x8xsi4>
%r = pto.trem %a, %a : !pto.tile<32x8xsi4>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type si4 is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

// -----

// E8M0 scale is outside TREM's default type set (D6; the wider ASL set is opt-in only)
%a = "test.op"() : () -> !pto.tile<16x8xf8E8M0FNU>
%r = pto.trem %a, %a : !pto.tile<16x8xf8E8M0FNU>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type f8E8M0FNU is not supported (allowed: BF16, FP16, FP32, S16, S32, U16, U32) (PTO-SPEC 5, D6){{$}}

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
