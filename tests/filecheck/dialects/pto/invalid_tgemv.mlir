// Static legality of pto.tgemv_mx_bias (D16): one negative case per rule, in the verifier's
// check order (PTO-SPEC 3.5, 8; D1-D3, D10-D15). Each checks the full diagnostic.
// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Reserved PreQuantMode 6 does not decode (PTO-SPEC 3.3)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<pre_quant_mode = 6>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [IllegalInstruction] fpatr: pre_quant_mode 6 is reserved (PTO-SPEC 3.3){{$}}

// -----

// Reserved ReluMode 4
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<relu_mode = 4>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [IllegalInstruction] fpatr: relu_mode 4 is reserved (PTO-SPEC 3.3){{$}}

// -----

// Reserved GroupNCode 10
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<group_n_code = 10, group_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [IllegalInstruction] fpatr: group_n_code 10 is reserved (PTO-SPEC 3.3){{$}}

// -----

// Reserved values are decoded even under mask 0 (D12: no-op before any check but decoding)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<pre_quant_mode = 63>, mask = #pto.mask<0000>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [IllegalInstruction] fpatr: pre_quant_mode 63 is reserved (PTO-SPEC 3.3){{$}}

// -----

// Target a2a3 has no MX CUBE function (D15)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  %a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
  %b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
  %bias = "test.op"() : () -> !pto.tile<1x32xf32>
  %d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
}
// CHECK: {{^}}'pto.tgemv_mx_bias' op [IllegalInstruction] CUBE function 21 is an MX function, illegal on target a2a3 (PTO-SPEC 3.1, D12, D15){{$}}

// -----

// On a2a3 the MX selector does not decode, even under mask 0: decoding precedes the no-op (D12, D15)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  %a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
  %b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
  %bias = "test.op"() : () -> !pto.tile<1x32xf32>
  %d = pto.tgemv_mx_bias %a, %b, %bias {mask = #pto.mask<0000>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
}
// CHECK: {{^}}'pto.tgemv_mx_bias' op [IllegalInstruction] CUBE function 21 is an MX function, illegal on target a2a3 (PTO-SPEC 3.1, D12, D15){{$}}

// -----

// pto.target must be a #pto.target (D15)
builtin.module attributes {pto.target = "a2a3"} {
  %a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
  %b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
  %bias = "test.op"() : () -> !pto.tile<1x32xf32>
  %d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
}
// CHECK: {{^}}'builtin.module' op attribute pto.target must be #pto.target<a5> or #pto.target<a2a3> (D15){{$}}

// -----

// HiF8 is not an MX input type (D2)
%a = "test.op"() : () -> !pto.tile<1x64x!pto.hif8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64x!pto.hif8, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a: AType !pto.hif8 is not an MX input type (FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2) (PTO-SPEC 1, D2){{$}}

// -----

// E3M2 is not an MX input type (D2)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf6E3M2FN, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf6E3M2FN, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b: BType f6E3M2FN is not an MX input type (FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2) (PTO-SPEC 1, D2){{$}}

// -----

// Integers are not MX input types (D2)
%a = "test.op"() : () -> !pto.tile<1x64xsi8, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xsi8, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a: AType si8 is not an MX input type (FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2) (PTO-SPEC 1, D2){{$}}

// -----

// FP32 is not an MX input type (D2)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf32, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf32, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b: BType f32 is not an MX input type (FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2) (PTO-SPEC 1, D2){{$}}

// -----

// An E4M3 A needs its scale (D2)
%a = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x32>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, b_scale %bs, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a_scale is required: AType f8E4M3FN is not FP16/BF16 (PTO-SPEC 4, D2){{$}}

// -----

// An FP16 A carries no scale (D2)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x2>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, a_scale %as, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a_scale must be absent: AType f16 carries no scale (PTO-SPEC 4, D2){{$}}

// -----

// An E2M1X2 B needs its scale (D2)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf4E2M1FN, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf4E2M1FN, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b_scale is required: BType f4E2M1FN is not FP16/BF16 (PTO-SPEC 4, D2){{$}}

// -----

// A BF16 B carries no scale (D2)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xbf16, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x32>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, b_scale %bs, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xbf16, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b_scale must be absent: BType bf16 carries no scale (PTO-SPEC 4, D2){{$}}

// -----

// RowMaxInit needs RowMaxEn
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%rmi = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x1>
%d = pto.tgemv_mx_bias %a, %b, %bias, row_max_in %rmi {fpatr = #pto.fpatr<row_max_init = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xf32, valid=1x1>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] fpatr: row_max_init requires row_max_en (PTO-SPEC 3.3, D11){{$}}

// -----

// GroupMaxEn needs GroupNCode != 0
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d, %r1 = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<group_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] fpatr: group_max_en must be set exactly when group_n_code != 0 (PTO-SPEC 3.3, D11){{$}}

// -----

// GroupNCode != 0 needs GroupMaxEn
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<group_n_code = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] fpatr: group_max_en must be set exactly when group_n_code != 0 (PTO-SPEC 3.3, D11){{$}}

// -----

// MaxAbsEn needs a reduction
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<max_abs_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] fpatr: max_abs_en requires row_max_en or group_max_en (PTO-SPEC 3.3, D11){{$}}

// -----

// TransA must be 0 for TGEMV (D11)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<trans_a = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] fpatr: trans_a must be 0 for TGEMV (PTO-SPEC 3.3, D11){{$}}

// -----

// TransB must be 0 for TGEMV (D11)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<trans_b = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] fpatr: trans_b must be 0 for TGEMV (PTO-SPEC 3.3, D11){{$}}

// -----

// CScaleEn must be 0: only the ACC forms allow it (D11)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<cscale_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] fpatr: cscale_en must be 0 (only the FP32-accumulator ACC forms allow it) (PTO-SPEC 3.3, D11){{$}}

// -----

// An S32-accumulator PreQuantMode with the FP32 accumulator (D11)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%q = "test.op"() : () -> !pto.tile<1x32xui64>
%d = pto.tgemv_mx_bias %a, %b, %bias, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xui64>) -> !pto.tile<1x32xsi8, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] fpatr: pre_quant_mode 2 (VREQ8) reads an S32 accumulator; the FP32 accumulator allows {0, 1, 16, 23-28, 32-34, 36-38} (PTO-SPEC 3.3, D11){{$}}

// -----

// A quant vector tile must be in location any (asl TileMatrixAuxiliarySourceSchemaLegal)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%q = "test.op"() : () -> !pto.tile<1x32xui64, vec>
%d = pto.tgemv_mx_bias %a, %b, %bias, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 23>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xui64, vec>) -> !pto.tile<1x32xsi8, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] quant: auxiliary matrix sources live in location any, got vec (asl/tile/model/legality/matrix-postprocess.asl TileMatrixAuxiliarySourceSchemaLegal){{$}}

// -----


// QF322F16_PRE fixes RNE: rmode must stay default (PTO-SPEC 3.2, 3.3)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%qs = "test.op"() : () -> i64
%d = pto.tgemv_mx_bias %a, %b, %bias, quant_scalar %qs {rmode = #pto.rmode<rne>, fpatr = #pto.fpatr<pre_quant_mode = 32>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf16, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] rmode: pre_quant_mode 32 (QF322F16_PRE) fixes its rounding (rne); rmode must be default (PTO-SPEC 3.2, 3.3){{$}}

// -----

// QF322HIF8_PRE fixes RHB
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%qs = "test.op"() : () -> i64
%d = pto.tgemv_mx_bias %a, %b, %bias, quant_scalar %qs {rmode = #pto.rmode<rtz>, fpatr = #pto.fpatr<pre_quant_mode = 25>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32x!pto.hif8, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] rmode: pre_quant_mode 25 (QF322HIF8_PRE) fixes its rounding (rhb); rmode must be default (PTO-SPEC 3.2, 3.3){{$}}

// -----

// RowMaxIn is required by RowMaxEn + RowMaxInit
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d, %r1 = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<row_max_en = 1, row_max_init = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] row_max_in is required by fpatr <row_max_en = 1, row_max_init = 1> (PTO-SPEC 3.3){{$}}

// -----

// RowMaxIn without RowMaxInit
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%rmi = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x1>
%d, %r1 = pto.tgemv_mx_bias %a, %b, %bias, row_max_in %rmi {fpatr = #pto.fpatr<row_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xf32, valid=1x1>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] row_max_in must be absent: fpatr <row_max_en = 1> does not use it (PTO-SPEC 3.3){{$}}

// -----

// A vector PreQuantMode needs the quant vector
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<pre_quant_mode = 38>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] quant is required by fpatr <pre_quant_mode = 38> (PTO-SPEC 3.3){{$}}

// -----

// A quant vector without a vector PreQuantMode
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%q = "test.op"() : () -> !pto.tile<1x32xui64>
%qs = "test.op"() : () -> i64
%d = pto.tgemv_mx_bias %a, %b, %bias, quant %q, quant_scalar %qs {fpatr = #pto.fpatr<pre_quant_mode = 27>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xui64>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] quant must be absent: fpatr <pre_quant_mode = 27> does not use it (PTO-SPEC 3.3){{$}}

// -----

// Vector PReLU needs its vector
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<relu_mode = 3>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] prelu is required by fpatr <relu_mode = 3> (PTO-SPEC 3.3){{$}}

// -----

// A PReLU vector without ReluMode 3
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%pr = "test.op"() : () -> !pto.tile<1x32xui64>
%d = pto.tgemv_mx_bias %a, %b, %bias, prelu %pr {fpatr = #pto.fpatr<relu_mode = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xui64>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] prelu must be absent: fpatr <relu_mode = 1> does not use it (PTO-SPEC 3.3){{$}}

// -----

// A scalar PreQuantMode needs its parameter word
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<pre_quant_mode = 27>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] quant_scalar is required by fpatr <pre_quant_mode = 27> (PTO-SPEC 3.3){{$}}

// -----

// A quant parameter word with NoQuant
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%qs = "test.op"() : () -> i64
%d = pto.tgemv_mx_bias %a, %b, %bias, quant_scalar %qs : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] quant_scalar must be absent: fpatr <> does not use it (PTO-SPEC 3.3){{$}}

// -----

// Scalar LReLU needs its parameter word
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<relu_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] lrelu_scalar is required by fpatr <relu_mode = 2> (PTO-SPEC 3.3){{$}}

// -----

// An LReLU parameter word with vector PReLU
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%pr = "test.op"() : () -> !pto.tile<1x32xui64>
%ls = "test.op"() : () -> i64
%d = pto.tgemv_mx_bias %a, %b, %bias, prelu %pr, lrelu_scalar %ls {fpatr = #pto.fpatr<relu_mode = 3>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xui64>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] lrelu_scalar must be absent: fpatr <relu_mode = 3> does not use it (PTO-SPEC 3.3){{$}}

// -----

// RowMaxEn needs the row_max result
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<row_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] result row_max is required by fpatr <row_max_en = 1> (PTO-SPEC 3.3){{$}}

// -----

// A row_max result without RowMaxEn
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d, %r1 = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] result row_max must be absent: fpatr <> does not enable it (PTO-SPEC 3.3){{$}}

// -----

// GroupMaxEn needs the group_max result
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d, %r1 = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<group_n_code = 2, row_max_en = 1, group_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] result group_max is required by fpatr <group_n_code = 2, row_max_en = 1, group_max_en = 1> (PTO-SPEC 3.3){{$}}

// -----

// A third result without GroupMaxEn
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d, %r1, %r2 = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<row_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] result group_max must be absent: fpatr <row_max_en = 1> does not enable it (PTO-SPEC 3.3){{$}}

// -----

// The quant parameter word is i64
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%qs = "test.op"() : () -> i32
%d = pto.tgemv_mx_bias %a, %b, %bias, quant_scalar %qs {fpatr = #pto.fpatr<pre_quant_mode = 27>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i32) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] quant_scalar is a 64-bit parameter word (i64), got i32 (PTO-SPEC 3.3){{$}}

// -----

// The LReLU parameter word is i64 (signless)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%ls = "test.op"() : () -> ui64
%d = pto.tgemv_mx_bias %a, %b, %bias, lrelu_scalar %ls {fpatr = #pto.fpatr<relu_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, ui64) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] lrelu_scalar is a 64-bit parameter word (i64), got ui64 (PTO-SPEC 3.3){{$}}

// -----

// TGEMV is Local-only: a Shared bias
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<64x128xf32, valid=1x32, shared>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<64x128xf32, valid=1x32, shared>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] bias: TGEMV is Local-only, the tile is shared (PTO-SPEC 4, D10){{$}}

// -----

// A Shared destination
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat, shared>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] d: TGEMV is Local-only, the tile is shared (PTO-SPEC 4, D10){{$}}

// -----

// Every PE the op's mask selects must hold each source (D13)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat, pe=1100>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat, pe=1100>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b: held by PEs 1100 but the op's mask 1111 selects a PE that does not hold it (PTO-SPEC 2, D13){{$}}

// -----

// Sources may be held by more PEs (AVS TMATMUL-MASK-001), the destination only by the selected ones (D13)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {mask = #pto.mask<1100>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] d: allocated on PEs 1111 but the op's mask is 1100; only the selected PEs allocate and publish (PTO-SPEC 2, D13){{$}}

// -----

// TGEMV fixes M = 1
%a = "test.op"() : () -> !pto.tile<2x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<2x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a: TGEMV fixes M = 1, a's valid shape is 2x64 (PTO-SPEC 4){{$}}

// -----

// K mismatch between A and B
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<32x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<32x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b: valid rows 32 must equal K = 64 (a's valid cols) (PTO-SPEC 4){{$}}

// -----

// RowMaxIn is M x 1
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%rmi = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x2>
%d, %r1 = pto.tgemv_mx_bias %a, %b, %bias, row_max_in %rmi {fpatr = #pto.fpatr<row_max_en = 1, row_max_init = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xf32, valid=1x2>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] row_max_in: valid shape 1x2 must be 1x1 (PTO-SPEC 3.3){{$}}

// -----

// RowMaxIn has the accumulator type (FP32)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%rmi = "test.op"() : () -> !pto.tile<1x64xf16, valid=1x1>
%d, %r1 = pto.tgemv_mx_bias %a, %b, %bias, row_max_in %rmi {fpatr = #pto.fpatr<row_max_en = 1, row_max_init = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x64xf16, valid=1x1>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] row_max_in: element type f16 must be f32 (PTO-SPEC 3.3){{$}}

// -----

// The quant vector is U64
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%q = "test.op"() : () -> !pto.tile<1x32xsi64>
%d = pto.tgemv_mx_bias %a, %b, %bias, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 38>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xsi64>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] quant: element type si64 must be ui64 (PTO-SPEC 3.3){{$}}

// -----

// The quant vector is 1 x N
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%q = "test.op"() : () -> !pto.tile<1x32xui64, valid=1x16>
%d = pto.tgemv_mx_bias %a, %b, %bias, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 38>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xui64, valid=1x16>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] quant: valid shape 1x16 must be 1x32 (PTO-SPEC 3.3){{$}}

// -----

// The PReLU vector is row-major
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%pr = "test.op"() : () -> !pto.tile<32x1xui64, col_major>
%d = pto.tgemv_mx_bias %a, %b, %bias, prelu %pr {fpatr = #pto.fpatr<relu_mode = 3>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<32x1xui64, col_major>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] prelu: layout col_major must be row_major (PTO-SPEC 3.3){{$}}

// -----

// A is cube_m16 or cube_m32
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_n8, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_n8, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a: layout cube_n8 is illegal, expected cube_m16 or cube_m32 (PTO-SPEC 4, D10){{$}}

// -----

// B is cube_n8
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b: layout row_major is illegal, expected cube_n8 (PTO-SPEC 4, D10){{$}}

// -----

// The A scale is E8M0
%a = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<1x128xui8, valid=1x2>
%b = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x32>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xui8, valid=1x2>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a_scale: element type ui8 must be f8E8M0FNU (PTO-SPEC 4, D1){{$}}

// -----

// The A scale is row-major
%a = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<128x1xf8E8M0FNU, valid=1x1, col_major>
%b = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x32>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<128x1xf8E8M0FNU, valid=1x1, col_major>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a_scale: layout col_major must be row_major (PTO-SPEC 4, D1){{$}}

// -----

// The A scale is 1 x ceil(K/32) = 1x2 (D1)
%a = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x3>
%b = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x32>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x3>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a_scale: valid shape 1x3 must be 1x2 (PTO-SPEC 4, D1){{$}}

// -----

// The ADR-0034 scale shape M x 1 is superseded (D1)
%a = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x1>
%b = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x32>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x1>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] a_scale: valid shape 1x1 must be 1x2 (PTO-SPEC 4, D1){{$}}

// -----

// The B scale is E8M0
%a = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x2>
%b = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<2x64xf8E4M3FN, valid=2x32>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E4M3FN, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b_scale: element type f8E4M3FN must be f8E8M0FNU (PTO-SPEC 4, D1){{$}}

// -----

// The B scale is row-major
%a = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x2>
%b = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<16x32xf8E8M0FNU, valid=2x32, zn>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<16x32xf8E8M0FNU, valid=2x32, zn>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b_scale: layout zn must be row_major (PTO-SPEC 4, D1){{$}}

// -----

// The B scale is ceil(K/32) x N: K blocks
%a = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x2>
%b = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<4x32xf8E8M0FNU, valid=3x32>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<4x32xf8E8M0FNU, valid=3x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b_scale: valid shape 3x32 must be 2x32 (PTO-SPEC 4, D1){{$}}

// -----

// The B scale is ceil(K/32) x N: N columns
%a = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>
%as = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x2>
%b = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
%bs = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x16>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] b_scale: valid shape 2x16 must be 2x32 (PTO-SPEC 4, D1){{$}}

// -----

// Bias is FP32 (D3)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x64xf16, valid=1x32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x64xf16, valid=1x32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] bias: element type f16 must be f32 (PTO-SPEC 4, D3){{$}}

// -----

// Bias is row-major (D3)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<32x1xf32, valid=32x1, col_major>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<32x1xf32, valid=32x1, col_major>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] bias: layout col_major must be row_major (PTO-SPEC 4, D3){{$}}

// -----

// Bias is 1 x N (D3)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] bias: valid shape 1x16 must be 1x32 (PTO-SPEC 4, D3){{$}}

// -----

// D takes A's layout (D10)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m32, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] d: layout cube_m32 must be a's layout cube_m16 (PTO-SPEC 4, D10){{$}}

// -----

// D is 1 x N
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] d: valid shape 1x16 must be 1x32 (PTO-SPEC 4){{$}}

// -----

// Without PreQuantMode D is FP32 (D3)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf16, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] d: element type f16 must be f32 (pre_quant_mode 0) (PTO-SPEC 3.3, D3){{$}}

// -----

// F322BF16 produces BF16, not FP16 (PTO-SPEC 3.3)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<pre_quant_mode = 16>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf16, cube_m16, mat>
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] d: element type f16 must be bf16 (pre_quant_mode 16) (PTO-SPEC 3.3, D3){{$}}

// -----

// row_max is M x 1
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d, %r1 = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<row_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x2>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] row_max: valid shape 1x2 must be 1x1 (PTO-SPEC 3.3){{$}}

// -----

// row_max has the accumulator type
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d, %r1 = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<row_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xsi32, valid=1x1>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] row_max: element type si32 must be f32 (PTO-SPEC 3.3){{$}}

// -----

// group_max is M x ceil(N/GroupN) = 1 x ceil(32/16)
%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
%d, %r1 = pto.tgemv_mx_bias %a, %b, %bias {fpatr = #pto.fpatr<group_n_code = 2, group_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK: {{^}}'pto.tgemv_mx_bias' op [TileLegality] group_max: valid shape 1x1 must be 1x2 (PTO-SPEC 3.3){{$}}
