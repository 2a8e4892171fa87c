// Static legality of the CUBE family and the binary siblings (D16): one negative case per
// rule that is new with the family (PTO-SPEC 1, 2, 3.1, 3.3, 4-6; D1-D3, D10, D11, D15).
// Tile-type errors (no CUBE geometry, M beyond the layout) are parse diagnostics.
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// Ordinary input type outside the set: S32 (PTO-SPEC 1)
%a = "test.op"() : () -> !pto.tile<16x64xsi32, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xsi32, cube_n8, mat>
%d = pto.tmatmul %a, %b : (!pto.tile<16x64xsi32, cube_m16, mat>, !pto.tile<64x16xsi32, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] a: AType si32 is not an ordinary matmul input type (PTO-SPEC 1){{$}}

// -----

// Ordinary input type outside the set: U32 on the right (PTO-SPEC 1)
%a = "test.op"() : () -> !pto.tile<16x64xui8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xui32, cube_n8, mat>
%d = pto.tmatmul %a, %b : (!pto.tile<16x64xui8, cube_m16, mat>, !pto.tile<64x16xui32, cube_n8, mat>) -> !pto.tile<16x16xui32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] b: BType ui32 is not an ordinary matmul input type (PTO-SPEC 1){{$}}

// -----

// Ordinary input type outside the set: E8M0 is a scale type, not a matmul input (PTO-SPEC 1)
%a = "test.op"() : () -> !pto.tile<1x64xf8E8M0FNU, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf8E8M0FNU, cube_n8, mat>
%d = pto.tgemv %a, %b : (!pto.tile<1x64xf8E8M0FNU, cube_m16, mat>, !pto.tile<64x16xf8E8M0FNU, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv' op [TileLegality] a: AType f8E8M0FNU is not an ordinary matmul input type (PTO-SPEC 1){{$}}

// -----

// FP64 has no CUBE geometry at all: rejected by the tile type (PTO-SPEC 2)
%a = "test.op"() : () -> !pto.tile<16x16xf64, cube_m16, mat>
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: FP64 has no CUBE geometry (b64 types and HiF4X2 are illegal in cube_m16; PTO-SPEC 2){{$}}

// -----

// Mixed classes: S8 x F16 (PTO-SPEC 1, both sides one class)
%a = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tmatmul %a, %b : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] b: BType f16 is float but AType si8 is signed; both sides must be one class (PTO-SPEC 1){{$}}

// -----

// Mixed classes: U8 x S8 (PTO-SPEC 1)
%a = "test.op"() : () -> !pto.tile<16x64xui8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xui32, valid=1x16>
%d = pto.tmatmul_bias %a, %b, %bias : (!pto.tile<16x64xui8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x32xui32, valid=1x16>) -> !pto.tile<16x16xui32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_bias' op [TileLegality] b: BType si8 is signed but AType ui8 is unsigned; both sides must be one class (PTO-SPEC 1){{$}}

// -----

// MX op with an ordinary-only type: E3M2 (D2)
%a = "test.op"() : () -> !pto.tile<16x64xf6E3M2FN, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x16>
%d = pto.tmatmul_mx %a, %b, b_scale %bs : (!pto.tile<16x64xf6E3M2FN, cube_m16, mat>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_mx' op [TileLegality] a: AType f6E3M2FN is not an MX input type (FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2) (PTO-SPEC 1, D2){{$}}

// -----

// MX op with an ordinary-only type: HiF8 on the right of TGEMV_MX_ACC (D2)
%c = "test.op"() : () -> !pto.tile<1x16xf32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16x!pto.hif8, cube_n8, mat>
%d = pto.tgemv_mx_acc %c, %a, %b : (!pto.tile<1x16xf32, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16x!pto.hif8, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_acc' op [TileLegality] b: BType !pto.hif8 is not an MX input type (FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2) (PTO-SPEC 1, D2){{$}}

// -----

// MX op with a signed input: S8 in TMATMUL_MX_BIAS (D2)
%a = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>
%d = pto.tmatmul_mx_bias %a, %b, %bias : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_mx_bias' op [TileLegality] a: AType si8 is not an MX input type (FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2) (PTO-SPEC 1, D2){{$}}

// -----

// An E4M3 side of TMATMUL_MX needs its E8M0 scale (D2)
%a = "test.op"() : () -> !pto.tile<16x64xf8E4M3FN, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tmatmul_mx %a, %b : (!pto.tile<16x64xf8E4M3FN, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_mx' op [TileLegality] a_scale is required: AType f8E4M3FN is not FP16/BF16 (PTO-SPEC 4, D2){{$}}

// -----

// A non-MX op has no scale operands: the syntax cannot express one (PTO-SPEC 3.1)
%a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
%s = "test.op"() : () -> !pto.tile<16x8xf8E8M0FNU, valid=16x2>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tmatmul %a, a_scale %s, %b : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<16x8xf8E8M0FNU, valid=16x2>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^ *}}'a_scale' is not an optional operand of pto.tmatmul; expected one of ['lrelu_scalar', 'prelu', 'quant', 'quant_scalar', 'row_max_in']{{$}}

// -----

// TMATMUL_MX scale shapes follow M: a_scale is M x ceil(K/32) = 16x2 (D1)
%a = "test.op"() : () -> !pto.tile<16x64xf8E4M3FN, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x2>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tmatmul_mx %a, a_scale %as, %b : (!pto.tile<16x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_mx' op [TileLegality] a_scale: valid shape 1x2 must be 16x2 (PTO-SPEC 4, D1){{$}}

// -----

// C dtype must be the accumulator type: F16 C with an FP32 accumulator (PTO-SPEC 1, 3.1)
%c = "test.op"() : () -> !pto.tile<16x16xf16, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tmatmul_acc %c, %a, %b : (!pto.tile<16x16xf16, cube_m16, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_acc' op [TileLegality] c: element type f16 must be the accumulator type f32 (PTO-SPEC 1, 3.1){{$}}

// -----

// C dtype must be the accumulator type: FP32 C with an S32 accumulator
%c = "test.op"() : () -> !pto.tile<16x16xf32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>
%d = pto.tmatmul_acc %c, %a, %b : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_acc' op [TileLegality] c: element type f32 must be the accumulator type si32 (PTO-SPEC 1, 3.1){{$}}

// -----

// C dtype of an MX ACC is FP32 whatever the inputs (D3)
%c = "test.op"() : () -> !pto.tile<1x16xsi32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tgemv_mx_acc %c, %a, %b : (!pto.tile<1x16xsi32, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_acc' op [TileLegality] c: element type si32 must be the accumulator type f32 (PTO-SPEC 1, 3.1){{$}}

// -----

// C layout must be A's layout (D10)
%c = "test.op"() : () -> !pto.tile<16x16xf32, cube_m32, mat>
%a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tmatmul_acc %c, %a, %b : (!pto.tile<16x16xf32, cube_m32, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_acc' op [TileLegality] c: layout cube_m32 must be a's layout cube_m16 (PTO-SPEC 3.1, D10){{$}}

// -----

// C valid shape must be M x N
%c = "test.op"() : () -> !pto.tile<16x16xf32, valid=16x8, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tmatmul_acc %c, %a, %b : (!pto.tile<16x16xf32, valid=16x8, cube_m16, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_acc' op [TileLegality] c: valid shape 16x8 must be 16x16 (PTO-SPEC 3.1){{$}}

// -----

// C valid shape of TGEMV_ACC must be 1 x N
%c = "test.op"() : () -> !pto.tile<1x32xf32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tgemv_acc %c, %a, %b : (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_acc' op [TileLegality] c: valid shape 1x32 must be 1x16 (PTO-SPEC 3.1){{$}}

// -----

// Bias has the accumulator type: FP32 bias with an S32 accumulator (D3)
%a = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>
%d = pto.tmatmul_bias %a, %b, %bias : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_bias' op [TileLegality] bias: element type f32 must be si32 (PTO-SPEC 4, D3){{$}}

// -----

// CScaleEn on a non-ACC form (TMATMUL) (D11)
%a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tmatmul %a, %b {fpatr = #pto.fpatr<cscale_en = 1>} : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] fpatr: cscale_en must be 0 (only the FP32-accumulator ACC forms allow it) (PTO-SPEC 3.3, D11){{$}}

// -----

// CScaleEn on the integer-accumulator TMATMUL_ACC (D11: FP32 accumulator only)
%c = "test.op"() : () -> !pto.tile<16x16xsi32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>
%d = pto.tmatmul_acc %c, %a, %b {fpatr = #pto.fpatr<cscale_en = 1>} : (!pto.tile<16x16xsi32, cube_m16, mat>, !pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_acc' op [TileLegality] fpatr: cscale_en must be 0 (only the FP32-accumulator ACC forms allow it) (PTO-SPEC 3.3, D11){{$}}

// -----

// CScaleEn on TGEMV_ACC: only TMATMUL.ACC and TMATMULMX.ACC allow it (D11)
%c = "test.op"() : () -> !pto.tile<1x16xf32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tgemv_acc %c, %a, %b {fpatr = #pto.fpatr<cscale_en = 1>} : (!pto.tile<1x16xf32, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_acc' op [TileLegality] fpatr: cscale_en must be 0 (only the FP32-accumulator ACC forms allow it) (PTO-SPEC 3.3, D11){{$}}

// -----

// CScaleEn on TMATMUL_MX_BIAS (D11)
%a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>
%d = pto.tmatmul_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<cscale_en = 1>} : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_mx_bias' op [TileLegality] fpatr: cscale_en must be 0 (only the FP32-accumulator ACC forms allow it) (PTO-SPEC 3.3, D11){{$}}

// -----

// TransA on a Local primary of TMATMUL (PTO-SPEC 3.3, 3.5)
%a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tmatmul %a, %b {fpatr = #pto.fpatr<trans_a = 1>} : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] fpatr: trans_a transposes a Shared primary, but a is a Local tile (PTO-SPEC 3.3, 3.5){{$}}

// -----

// TransB on a Local primary of TMATMUL_MX_ACC (PTO-SPEC 3.3, 3.5)
%c = "test.op"() : () -> !pto.tile<16x16xf32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tmatmul_mx_acc %c, %a, %b {fpatr = #pto.fpatr<trans_b = 1>} : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_mx_acc' op [TileLegality] fpatr: trans_b transposes a Shared primary, but b is a Local tile (PTO-SPEC 3.3, 3.5){{$}}

// -----

// TransB must be 0 for TGEMV_BIAS (D11)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>
%d = pto.tgemv_bias %a, %b, %bias {fpatr = #pto.fpatr<trans_b = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_bias' op [TileLegality] fpatr: trans_b must be 0 for TGEMV (PTO-SPEC 3.3, D11){{$}}

// -----

// S32 PreQuantMode 2 (VREQ8) on an FP32 accumulator (PTO-SPEC 3.3, D11)
%a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%q = "test.op"() : () -> !pto.tile<1x16xui64>
%d = pto.tmatmul %a, %b, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 2>} : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<16x16xsi8, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] fpatr: pre_quant_mode 2 (VREQ8) reads an S32 accumulator; the FP32 accumulator allows {0, 1, 16, 23-28, 32-34, 36-38} (PTO-SPEC 3.3, D11){{$}}

// -----

// S32 PreQuantMode 12 (VSHIFTS322S16) on the FP32 accumulator of an MX op (D11)
%a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%q = "test.op"() : () -> !pto.tile<1x16xui64>
%d = pto.tmatmul_mx %a, %b, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 12>} : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<16x16xsi16, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_mx' op [TileLegality] fpatr: pre_quant_mode 12 (VSHIFTS322S16) reads an S32 accumulator; the FP32 accumulator allows {0, 1, 16, 23-28, 32-34, 36-38} (PTO-SPEC 3.3, D11){{$}}

// -----

// FP32 PreQuantMode 1 (F322F16) on an S32 accumulator (PTO-SPEC 3.3)
%a = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>
%d = pto.tmatmul %a, %b {fpatr = #pto.fpatr<pre_quant_mode = 1>} : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>) -> !pto.tile<16x16xf16, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] fpatr: pre_quant_mode 1 (F322F16) needs an FP32 accumulator, the accumulator is S32 (PTO-SPEC 3.3){{$}}

// -----

// FP32 PreQuantMode 38 (VQF322F32_PRE) on an S32 accumulator (PTO-SPEC 3.3)
%c = "test.op"() : () -> !pto.tile<1x16xsi32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<1x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>
%q = "test.op"() : () -> !pto.tile<1x16xui64>
%d = pto.tgemv_acc %c, %a, %b, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 38>} : (!pto.tile<1x16xsi32, cube_m16, mat>, !pto.tile<1x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<1x16xsi32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_acc' op [TileLegality] fpatr: pre_quant_mode 38 (VQF322F32_PRE) needs an FP32 accumulator, the accumulator is S32 (PTO-SPEC 3.3){{$}}

// -----

// U32 accumulator takes only PreQuantMode 0: S32 mode 2 rejected (PTO-SPEC 3.3)
%a = "test.op"() : () -> !pto.tile<16x64xui8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xui8, cube_n8, mat>
%q = "test.op"() : () -> !pto.tile<1x16xui64>
%d = pto.tmatmul %a, %b, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 2>} : (!pto.tile<16x64xui8, cube_m16, mat>, !pto.tile<64x16xui8, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<16x16xsi8, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] fpatr: pre_quant_mode 2 (VREQ8) needs an S32 accumulator, the accumulator is U32 (PTO-SPEC 3.3){{$}}

// -----

// U32 accumulator takes only PreQuantMode 0: FP32 mode 16 rejected (PTO-SPEC 3.3)
%a = "test.op"() : () -> !pto.tile<16x64xui8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xui8, cube_n8, mat>
%d = pto.tmatmul %a, %b {fpatr = #pto.fpatr<pre_quant_mode = 16>} : (!pto.tile<16x64xui8, cube_m16, mat>, !pto.tile<64x16xui8, cube_n8, mat>) -> !pto.tile<16x16xbf16, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] fpatr: pre_quant_mode 16 (F322BF16) needs an FP32 accumulator, the accumulator is U32 (PTO-SPEC 3.3){{$}}

// -----

// D of an S32 PreQuantMode has the mode's output type (S8 for VREQ8) (PTO-SPEC 3.3)
%a = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>
%q = "test.op"() : () -> !pto.tile<1x16xui64>
%d = pto.tmatmul %a, %b, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 2>} : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] d: element type si32 must be si8 (pre_quant_mode 2) (PTO-SPEC 3.3, D3){{$}}

// -----

// M > 16 does not fit cube_m16: rejected by the tile type (PTO-SPEC 2)
%a = "test.op"() : () -> !pto.tile<17x64xf16, cube_m16, mat>
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m16 stores at most 16 rows (M <= 16), got 17 (PTO-SPEC 2){{$}}

// -----

// M > 32 does not fit cube_m32 (PTO-SPEC 2)
%a = "test.op"() : () -> !pto.tile<33x64xf16, cube_m32, mat>
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m32 stores at most 32 rows (M <= 32), got 33 (PTO-SPEC 2){{$}}

// -----

// pto.tgemv: TGEMV fixes M = 1 (PTO-SPEC 4)
%a = "test.op"() : () -> !pto.tile<2x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tgemv %a, %b : (!pto.tile<2x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<2x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv' op [TileLegality] a: TGEMV fixes M = 1, a's valid shape is 2x64 (PTO-SPEC 4){{$}}

// -----

// pto.tgemv_bias: TGEMV fixes M = 1 (PTO-SPEC 4)
%a = "test.op"() : () -> !pto.tile<2x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>
%d = pto.tgemv_bias %a, %b, %bias : (!pto.tile<2x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<2x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_bias' op [TileLegality] a: TGEMV fixes M = 1, a's valid shape is 2x64 (PTO-SPEC 4){{$}}

// -----

// pto.tgemv_acc: TGEMV fixes M = 1 (PTO-SPEC 4)
%c = "test.op"() : () -> !pto.tile<2x16xf32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<2x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tgemv_acc %c, %a, %b : (!pto.tile<2x16xf32, cube_m16, mat>, !pto.tile<2x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<2x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_acc' op [TileLegality] a: TGEMV fixes M = 1, a's valid shape is 2x64 (PTO-SPEC 4){{$}}

// -----

// pto.tgemv_mx: TGEMV fixes M = 1 (PTO-SPEC 4)
%a = "test.op"() : () -> !pto.tile<2x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tgemv_mx %a, %b : (!pto.tile<2x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<2x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx' op [TileLegality] a: TGEMV fixes M = 1, a's valid shape is 2x64 (PTO-SPEC 4){{$}}

// -----

// pto.tgemv_mx_bias: TGEMV fixes M = 1 (PTO-SPEC 4)
%a = "test.op"() : () -> !pto.tile<2x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<2x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<2x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a: TGEMV fixes M = 1, a's valid shape is 2x64 (PTO-SPEC 4){{$}}

// -----

// pto.tgemv_mx_acc: TGEMV fixes M = 1 (PTO-SPEC 4)
%c = "test.op"() : () -> !pto.tile<2x16xf32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<2x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
%d = pto.tgemv_mx_acc %c, %a, %b : (!pto.tile<2x16xf32, cube_m16, mat>, !pto.tile<2x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<2x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_acc' op [TileLegality] a: TGEMV fixes M = 1, a's valid shape is 2x64 (PTO-SPEC 4){{$}}

// -----

// pto.tgemv_mx with scaled E4M3: M = 2 rejected before the scale shapes (PTO-SPEC 4)
%a = "test.op"() : () -> !pto.tile<2x64xf8E4M3FN, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x2>
%b = "test.op"() : () -> !pto.tile<64x16xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x16>
%d = pto.tgemv_mx %a, a_scale %as, %b, b_scale %bs : (!pto.tile<2x64xf8E4M3FN, cube_m16, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<2x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx' op [TileLegality] a: TGEMV fixes M = 1, a's valid shape is 2x64 (PTO-SPEC 4){{$}}

// -----

// A==B: one tile as both primaries is rejected (PTO-SPEC 6 tile-bound-preflight-002)
%a = "test.op"() : () -> !pto.tile<1x1xf16, cube_m16, mat>
%d = pto.tgemv %a, %a : (!pto.tile<1x1xf16, cube_m16, mat>, !pto.tile<1x1xf16, cube_m16, mat>) -> !pto.tile<1x1xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv' op [TileLegality] b: the same tile as a; the left and right primaries must be distinct tiles (A==B) (PTO-SPEC 6){{$}}

// -----

// A==B in TMATMUL_ACC (PTO-SPEC 6)
%c = "test.op"() : () -> !pto.tile<16x16xf32, cube_m16, mat>
%a = "test.op"() : () -> !pto.tile<16x16xf16, cube_m16, mat>
%d = pto.tmatmul_acc %c, %a, %a : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x16xf16, cube_m16, mat>, !pto.tile<16x16xf16, cube_m16, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul_acc' op [TileLegality] b: the same tile as a; the left and right primaries must be distinct tiles (A==B) (PTO-SPEC 6){{$}}

// -----

// pto.tadd: element type outside its set (PTO-SPEC 5)
%x = "test.op"() : () -> !pto.tile<16x8x!pto.hif8>
%d = pto.tadd %x, %x : !pto.tile<16x8x!pto.hif8>
// CHECK: {{^}}'pto.tadd' op [TileLegality] lhs: element type !pto.hif8 is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileVecArithmeticDataTypeSupported){{$}}

// -----

// pto.tsub: element type outside its set (PTO-SPEC 5)
%x = "test.op"() : () -> !pto.tile<16x8xf8E8M0FNU>
%d = pto.tsub %x, %x : !pto.tile<16x8xf8E8M0FNU>
// CHECK: {{^}}'pto.tsub' op [TileLegality] lhs: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileVecArithmeticDataTypeSupported){{$}}

// -----

// pto.tmul: element type outside its set (PTO-SPEC 5)
%x = "test.op"() : () -> !pto.tile<32x8xsi4>
%d = pto.tmul %x, %x : !pto.tile<32x8xsi4>
// CHECK: {{^}}'pto.tmul' op [TileLegality] lhs: element type si4 is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileVecArithmeticDataTypeSupported){{$}}

// -----

// pto.tdiv: element type outside its set (PTO-SPEC 5)
%x = "test.op"() : () -> !pto.tile<32x8xf4E2M1FN>
%d = pto.tdiv %x, %x : !pto.tile<32x8xf4E2M1FN>
// CHECK: {{^}}'pto.tdiv' op [TileLegality] dividend: element type f4E2M1FN is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileVecArithmeticDataTypeSupported){{$}}

// -----

// pto.trem: element type outside its set (PTO-SPEC 5, D6)
%x = "test.op"() : () -> !pto.tile<32x8xf4E2M1FN>
%d = pto.trem %x, %x : !pto.tile<32x8xf4E2M1FN>
// CHECK: {{^}}'pto.trem' op [TileLegality] dividend: element type f4E2M1FN is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, D6){{$}}

// -----

// pto.tand: floats are illegal, integers only (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported)
%x = "test.op"() : () -> !pto.tile<8x16xf32>
%d = pto.tand %x, %x : !pto.tile<8x16xf32>
// CHECK: {{^}}'pto.tand' op [TileLegality] lhs: element type f32 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported){{$}}

// -----

// pto.tor: packed integers are illegal (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported)
%x = "test.op"() : () -> !pto.tile<32x8xui4>
%d = pto.tor %x, %x : !pto.tile<32x8xui4>
// CHECK: {{^}}'pto.tor' op [TileLegality] lhs: element type ui4 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported){{$}}

// -----

// pto.txor: floats are illegal, integers only (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported)
%x = "test.op"() : () -> !pto.tile<8x16xbf16>
%d = pto.txor %x, %x : !pto.tile<8x16xbf16>
// CHECK: {{^}}'pto.txor' op [TileLegality] lhs: element type bf16 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported){{$}}

// -----

// pto.elementwise and: the kind's type set is its tile op's (TAND: integers only, PTO-SPEC 5)
%t = "test.op"() : () -> tensor<8xf32>
%r = pto.elementwise and %t, %t : tensor<8xf32>
// CHECK: {{^}}'pto.elementwise' op [TileLegality] element type f32 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5){{$}}

// -----

// pto.tmax: element type outside its set (PTO-SPEC 5)
%x = "test.op"() : () -> !pto.tile<16x8x!pto.hif8>
%d = pto.tmax %x, %x : !pto.tile<16x8x!pto.hif8>
// CHECK: {{^}}'pto.tmax' op [TileLegality] lhs: element type !pto.hif8 is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileVecArithmeticDataTypeSupported){{$}}

// -----

// pto.tmin: element type outside its set (PTO-SPEC 5)
%x = "test.op"() : () -> !pto.tile<16x8xf6E3M2FN>
%d = pto.tmin %x, %x : !pto.tile<16x8xf6E3M2FN>
// CHECK: {{^}}'pto.tmin' op [TileLegality] lhs: element type f6E3M2FN is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileVecArithmeticDataTypeSupported){{$}}

// -----

// pto.tdiv: operands must match exactly (PTO-SPEC 5, D10)
%x = "test.op"() : () -> !pto.tile<8x16xf32>
%y = "test.op"() : () -> !pto.tile<8x16xf32, valid=8x8>
%d = pto.tdiv %x, %y : (!pto.tile<8x16xf32>, !pto.tile<8x16xf32, valid=8x8>) -> !pto.tile<8x16xf32>
// CHECK: {{^}}'pto.tdiv' op [TileLegality] divisor: valid shape 8x8 differs from dividend's 8x16; dividend, divisor and result must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// pto.tmax: operands are row-major (PTO-SPEC 5, D10)
%x = "test.op"() : () -> !pto.tile<16x8xf32, col_major>
%d = pto.tmax %x, %x : !pto.tile<16x8xf32, col_major>
// CHECK: {{^}}'pto.tmax' op [TileLegality] lhs: layout col_major must be row_major (PTO-SPEC 5, D10){{$}}

// -----

// pto.tmatmul_mx on target a2a3: IllegalInstruction (D15)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  %a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
  %b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
  %d = pto.tmatmul_mx %a, %b : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
}
// CHECK: {{^}}'pto.tmatmul_mx' op [IllegalInstruction] CUBE function 4 is an MX function, illegal on target a2a3 (PTO-SPEC 3.1, D12, D15){{$}}

// -----

// pto.tmatmul_mx_bias on target a2a3: IllegalInstruction (D15)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  %a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
  %b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
  %bias = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>
  %d = pto.tmatmul_mx_bias %a, %b, %bias : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<16x16xf32, cube_m16, mat>
}
// CHECK: {{^}}'pto.tmatmul_mx_bias' op [IllegalInstruction] CUBE function 5 is an MX function, illegal on target a2a3 (PTO-SPEC 3.1, D12, D15){{$}}

// -----

// pto.tmatmul_mx_acc on target a2a3: IllegalInstruction (D15)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  %c = "test.op"() : () -> !pto.tile<16x16xf32, cube_m16, mat>
  %a = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
  %b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
  %d = pto.tmatmul_mx_acc %c, %a, %b : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
}
// CHECK: {{^}}'pto.tmatmul_mx_acc' op [IllegalInstruction] CUBE function 6 is an MX function, illegal on target a2a3 (PTO-SPEC 3.1, D12, D15){{$}}

// -----

// pto.tgemv_mx on target a2a3: IllegalInstruction (D15)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  %a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
  %b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
  %d = pto.tgemv_mx %a, %b : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
}
// CHECK: {{^}}'pto.tgemv_mx' op [IllegalInstruction] CUBE function 20 is an MX function, illegal on target a2a3 (PTO-SPEC 3.1, D12, D15){{$}}

// -----

// pto.tgemv_mx_bias on target a2a3: IllegalInstruction (D15)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  %a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
  %b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
  %bias = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>
  %d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<1x16xf32, cube_m16, mat>
}
// CHECK: {{^}}'pto.tgemv_mx_bias' op [IllegalInstruction] CUBE function 21 is an MX function, illegal on target a2a3 (PTO-SPEC 3.1, D12, D15){{$}}

// -----

// pto.tgemv_mx_acc on target a2a3: IllegalInstruction (D15)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  %c = "test.op"() : () -> !pto.tile<1x16xf32, cube_m16, mat>
  %a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
  %b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
  %d = pto.tgemv_mx_acc %c, %a, %b : (!pto.tile<1x16xf32, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
}
// CHECK: {{^}}'pto.tgemv_mx_acc' op [IllegalInstruction] CUBE function 22 is an MX function, illegal on target a2a3 (PTO-SPEC 3.1, D12, D15){{$}}

// -----

// The ordinary TMATMUL is legal on a2a3, but its rules still apply (D15)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  %a = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
  %b = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
  %d = pto.tmatmul %a, %b : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>
}
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] b: BType f16 is float but AType si8 is signed; both sides must be one class (PTO-SPEC 1){{$}}

// -----

// A shift PreQuantMode (12, VSHIFTS322S16) takes no saturation (PTO-SPEC 3.2)
%a = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>
%q = "test.op"() : () -> !pto.tile<1x16xui64>
%d = pto.tmatmul %a, %b, quant %q {sat, fpatr = #pto.fpatr<pre_quant_mode = 12>} : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<16x16xsi16, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] rmode/sat: shift modes need rmode default and no sat (PTO-SPEC 3.2){{$}}

// -----

// ... and no rounding mode: a shift does not round (PTO-SPEC 3.2)
%a = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>
%q = "test.op"() : () -> !pto.tile<1x16xui64>
%d = pto.tmatmul %a, %b, quant %q {rmode = #pto.rmode<rtz>, fpatr = #pto.fpatr<pre_quant_mode = 12>} : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<16x16xsi16, cube_m16, mat>
// CHECK: {{^}}'pto.tmatmul' op [TileLegality] rmode/sat: shift modes need rmode default and no sat (PTO-SPEC 3.2){{$}}
