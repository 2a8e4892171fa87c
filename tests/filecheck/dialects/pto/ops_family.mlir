// Round trip of every CUBE family member (the 12 live functions, PTO-SPEC 3.1) and every
// binary elementwise sibling (TEPL mode 0, PTO-SPEC 5), in custom and generic syntax.
// Representative types: ordinary float (f16, bf16 x E4M3, TF32), signed (S8, S16, S4X2) and
// unsigned (U8) inputs with their S32/U32 accumulators (PTO-SPEC 1), MX with and without
// scales (D1, D2), ACC with C (and CScaleEn on the two FP32 ACC forms, D11), M = 16 / 32
// for TMATMUL in cube_m16 / cube_m32, S32 PreQuantModes on an integer accumulator (PTO-SPEC
// 3.3). Explicit defaults print canonically.
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s
// RUN: pto-opt %s --print-op-generic | pto-opt | filecheck %s
// CHECK: builtin.module attributes {pto.target = #pto.target<a5>} {
builtin.module attributes {pto.target = #pto.target<a5>} {

// ---- Operand tiles
%a16 = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>
// CHECK-NEXT: %a16 = "test.op"() : () -> !pto.tile<16x64xf16, cube_m16, mat>{{$}}
%b16 = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>
// CHECK-NEXT: %b16 = "test.op"() : () -> !pto.tile<64x16xf16, cube_n8, mat>{{$}}
%a32 = "test.op"() : () -> !pto.tile<32x64xf16, cube_m32, mat>
// CHECK-NEXT: %a32 = "test.op"() : () -> !pto.tile<32x64xf16, cube_m32, mat>{{$}}
%abf = "test.op"() : () -> !pto.tile<16x64xbf16, cube_m16, mat>
// CHECK-NEXT: %abf = "test.op"() : () -> !pto.tile<16x64xbf16, cube_m16, mat>{{$}}
%b8f = "test.op"() : () -> !pto.tile<64x16xf8E4M3FN, cube_n8, mat>
// CHECK-NEXT: %b8f = "test.op"() : () -> !pto.tile<64x16xf8E4M3FN, cube_n8, mat>{{$}}
%atf = "test.op"() : () -> !pto.tile<16x64xtf32, cube_m16, mat>
// CHECK-NEXT: %atf = "test.op"() : () -> !pto.tile<16x64xtf32, cube_m16, mat>{{$}}
%btf = "test.op"() : () -> !pto.tile<64x16xtf32, cube_n8, mat>
// CHECK-NEXT: %btf = "test.op"() : () -> !pto.tile<64x16xtf32, cube_n8, mat>{{$}}
%as8 = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>
// CHECK-NEXT: %as8 = "test.op"() : () -> !pto.tile<16x64xsi8, cube_m16, mat>{{$}}
%bs8 = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>
// CHECK-NEXT: %bs8 = "test.op"() : () -> !pto.tile<64x16xsi8, cube_n8, mat>{{$}}
%bs16 = "test.op"() : () -> !pto.tile<64x16xsi16, cube_n8, mat>
// CHECK-NEXT: %bs16 = "test.op"() : () -> !pto.tile<64x16xsi16, cube_n8, mat>{{$}}
%as16 = "test.op"() : () -> !pto.tile<16x64xsi16, cube_m16, mat>
// CHECK-NEXT: %as16 = "test.op"() : () -> !pto.tile<16x64xsi16, cube_m16, mat>{{$}}
%au8 = "test.op"() : () -> !pto.tile<16x64xui8, cube_m16, mat>
// CHECK-NEXT: %au8 = "test.op"() : () -> !pto.tile<16x64xui8, cube_m16, mat>{{$}}
%bu8 = "test.op"() : () -> !pto.tile<64x16xui8, cube_n8, mat>
// CHECK-NEXT: %bu8 = "test.op"() : () -> !pto.tile<64x16xui8, cube_n8, mat>{{$}}
%as4 = "test.op"() : () -> !pto.tile<16x64xsi4, cube_m16, mat>
// CHECK-NEXT: %as4 = "test.op"() : () -> !pto.tile<16x64xsi4, cube_m16, mat>{{$}}
%bs4 = "test.op"() : () -> !pto.tile<64x16xsi4, cube_n8, mat>
// CHECK-NEXT: %bs4 = "test.op"() : () -> !pto.tile<64x16xsi4, cube_n8, mat>{{$}}
%ae4 = "test.op"() : () -> !pto.tile<16x64xf8E4M3FN, cube_m16, mat>
// CHECK-NEXT: %ae4 = "test.op"() : () -> !pto.tile<16x64xf8E4M3FN, cube_m16, mat>{{$}}
%ae5 = "test.op"() : () -> !pto.tile<64x16xf8E5M2, cube_n8, mat>
// CHECK-NEXT: %ae5 = "test.op"() : () -> !pto.tile<64x16xf8E5M2, cube_n8, mat>{{$}}
%asc = "test.op"() : () -> !pto.tile<16x8xf8E8M0FNU, valid=16x2>
// CHECK-NEXT: %asc = "test.op"() : () -> !pto.tile<16x8xf8E8M0FNU, valid=16x2>{{$}}
%bsc = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x16>
// CHECK-NEXT: %bsc = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x16>{{$}}
%cf = "test.op"() : () -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %cf = "test.op"() : () -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%ci = "test.op"() : () -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK-NEXT: %ci = "test.op"() : () -> !pto.tile<16x16xsi32, cube_m16, mat>{{$}}
%biasf = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>
// CHECK-NEXT: %biasf = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x16>{{$}}
%biasi = "test.op"() : () -> !pto.tile<1x32xsi32, valid=1x16>
// CHECK-NEXT: %biasi = "test.op"() : () -> !pto.tile<1x32xsi32, valid=1x16>{{$}}
%biasu = "test.op"() : () -> !pto.tile<1x32xui32, valid=1x16>
// CHECK-NEXT: %biasu = "test.op"() : () -> !pto.tile<1x32xui32, valid=1x16>{{$}}
%q = "test.op"() : () -> !pto.tile<1x16xui64>
// CHECK-NEXT: %q = "test.op"() : () -> !pto.tile<1x16xui64>{{$}}
%g16 = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
// CHECK-NEXT: %g16 = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>{{$}}
%gs8 = "test.op"() : () -> !pto.tile<1x64xsi8, cube_m16, mat>
// CHECK-NEXT: %gs8 = "test.op"() : () -> !pto.tile<1x64xsi8, cube_m16, mat>{{$}}
%ge4 = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m32, mat>
// CHECK-NEXT: %ge4 = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m32, mat>{{$}}
%gsc = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x2>
// CHECK-NEXT: %gsc = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x2>{{$}}
%gcf = "test.op"() : () -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK-NEXT: %gcf = "test.op"() : () -> !pto.tile<1x16xf32, cube_m16, mat>{{$}}
%gcf32 = "test.op"() : () -> !pto.tile<1x16xf32, cube_m32, mat>
// CHECK-NEXT: %gcf32 = "test.op"() : () -> !pto.tile<1x16xf32, cube_m32, mat>{{$}}
%gci = "test.op"() : () -> !pto.tile<1x16xsi32, cube_m16, mat>
// CHECK-NEXT: %gci = "test.op"() : () -> !pto.tile<1x16xsi32, cube_m16, mat>{{$}}

// ---- pto.tmatmul (function 0)
%mm0 = pto.tmatmul %a16, %b16 : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %mm0 = pto.tmatmul %a16, %b16 : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%mm1 = pto.tmatmul %a32, %b16 : (!pto.tile<32x64xf16, cube_m32, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<32x16xf32, cube_m32, mat>
// CHECK-NEXT: %mm1 = pto.tmatmul %a32, %b16 : (!pto.tile<32x64xf16, cube_m32, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<32x16xf32, cube_m32, mat>{{$}}
%mm2 = pto.tmatmul %abf, %b8f : (!pto.tile<16x64xbf16, cube_m16, mat>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %mm2 = pto.tmatmul %abf, %b8f : (!pto.tile<16x64xbf16, cube_m16, mat>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%mm3 = pto.tmatmul %atf, %btf : (!pto.tile<16x64xtf32, cube_m16, mat>, !pto.tile<64x16xtf32, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %mm3 = pto.tmatmul %atf, %btf : (!pto.tile<16x64xtf32, cube_m16, mat>, !pto.tile<64x16xtf32, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%mm4 = pto.tmatmul %as8, %bs16 : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi16, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK-NEXT: %mm4 = pto.tmatmul %as8, %bs16 : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi16, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>{{$}}
%mm5 = pto.tmatmul %au8, %bu8 : (!pto.tile<16x64xui8, cube_m16, mat>, !pto.tile<64x16xui8, cube_n8, mat>) -> !pto.tile<16x16xui32, cube_m16, mat>
// CHECK-NEXT: %mm5 = pto.tmatmul %au8, %bu8 : (!pto.tile<16x64xui8, cube_m16, mat>, !pto.tile<64x16xui8, cube_n8, mat>) -> !pto.tile<16x16xui32, cube_m16, mat>{{$}}
%mm6 = pto.tmatmul %as4, %bs4 : (!pto.tile<16x64xsi4, cube_m16, mat>, !pto.tile<64x16xsi4, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK-NEXT: %mm6 = pto.tmatmul %as4, %bs4 : (!pto.tile<16x64xsi4, cube_m16, mat>, !pto.tile<64x16xsi4, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>{{$}}
%mm7 = pto.tmatmul %as8, %bs8, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 2>} : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<16x16xsi8, cube_m16, mat>
// CHECK-NEXT: %mm7 = pto.tmatmul %as8, %bs8, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 2>} : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<16x16xsi8, cube_m16, mat>{{$}}
%mm8 = pto.tmatmul %as16, %bs16, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 4>} : (!pto.tile<16x64xsi16, cube_m16, mat>, !pto.tile<64x16xsi16, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<16x16xf16, cube_m16, mat>
// CHECK-NEXT: %mm8 = pto.tmatmul %as16, %bs16, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 4>} : (!pto.tile<16x64xsi16, cube_m16, mat>, !pto.tile<64x16xsi16, cube_n8, mat>, !pto.tile<1x16xui64>) -> !pto.tile<16x16xf16, cube_m16, mat>{{$}}

// ---- pto.tmatmul_bias (function 1)
%mb0 = pto.tmatmul_bias %a16, %b16, %biasf : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %mb0 = pto.tmatmul_bias %a16, %b16, %biasf : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%mb1 = pto.tmatmul_bias %as8, %bs8, %biasi : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x32xsi32, valid=1x16>) -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK-NEXT: %mb1 = pto.tmatmul_bias %as8, %bs8, %biasi : (!pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x32xsi32, valid=1x16>) -> !pto.tile<16x16xsi32, cube_m16, mat>{{$}}
%mb2 = pto.tmatmul_bias %au8, %bu8, %biasu : (!pto.tile<16x64xui8, cube_m16, mat>, !pto.tile<64x16xui8, cube_n8, mat>, !pto.tile<1x32xui32, valid=1x16>) -> !pto.tile<16x16xui32, cube_m16, mat>
// CHECK-NEXT: %mb2 = pto.tmatmul_bias %au8, %bu8, %biasu : (!pto.tile<16x64xui8, cube_m16, mat>, !pto.tile<64x16xui8, cube_n8, mat>, !pto.tile<1x32xui32, valid=1x16>) -> !pto.tile<16x16xui32, cube_m16, mat>{{$}}

// ---- pto.tmatmul_acc (function 2)
%ma0 = pto.tmatmul_acc %cf, %a16, %b16 : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %ma0 = pto.tmatmul_acc %cf, %a16, %b16 : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%ma1 = pto.tmatmul_acc %cf, %a16, %b16 {fpatr = #pto.fpatr<cscale_en = 1>} : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %ma1 = pto.tmatmul_acc %cf, %a16, %b16 {fpatr = #pto.fpatr<cscale_en = 1>} : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%ma2 = pto.tmatmul_acc %ci, %as8, %bs8 : (!pto.tile<16x16xsi32, cube_m16, mat>, !pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>
// CHECK-NEXT: %ma2 = pto.tmatmul_acc %ci, %as8, %bs8 : (!pto.tile<16x16xsi32, cube_m16, mat>, !pto.tile<16x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>{{$}}

// ---- pto.tmatmul_mx (function 4)
%mx0 = pto.tmatmul_mx %ae4, a_scale %asc, %b8f, b_scale %bsc : (!pto.tile<16x64xf8E4M3FN, cube_m16, mat>, !pto.tile<16x8xf8E8M0FNU, valid=16x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %mx0 = pto.tmatmul_mx %ae4, a_scale %asc, %b8f, b_scale %bsc : (!pto.tile<16x64xf8E4M3FN, cube_m16, mat>, !pto.tile<16x8xf8E8M0FNU, valid=16x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%mx1 = pto.tmatmul_mx %a16, %b16 : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %mx1 = pto.tmatmul_mx %a16, %b16 : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%mx2 = pto.tmatmul_mx %abf, %ae5, b_scale %bsc : (!pto.tile<16x64xbf16, cube_m16, mat>, !pto.tile<64x16xf8E5M2, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %mx2 = pto.tmatmul_mx %abf, %ae5, b_scale %bsc : (!pto.tile<16x64xbf16, cube_m16, mat>, !pto.tile<64x16xf8E5M2, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}

// ---- pto.tmatmul_mx_bias (function 5)
%mxb0 = pto.tmatmul_mx_bias %ae4, a_scale %asc, %b8f, b_scale %bsc, %biasf : (!pto.tile<16x64xf8E4M3FN, cube_m16, mat>, !pto.tile<16x8xf8E8M0FNU, valid=16x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %mxb0 = pto.tmatmul_mx_bias %ae4, a_scale %asc, %b8f, b_scale %bsc, %biasf : (!pto.tile<16x64xf8E4M3FN, cube_m16, mat>, !pto.tile<16x8xf8E8M0FNU, valid=16x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%mxb1 = pto.tmatmul_mx_bias %a16, %b16, %biasf {fpatr = #pto.fpatr<pre_quant_mode = 16>} : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<16x16xbf16, cube_m16, mat>
// CHECK-NEXT: %mxb1 = pto.tmatmul_mx_bias %a16, %b16, %biasf {fpatr = #pto.fpatr<pre_quant_mode = 16>} : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<16x16xbf16, cube_m16, mat>{{$}}

// ---- pto.tmatmul_mx_acc (function 6)
%mxa0 = pto.tmatmul_mx_acc %cf, %ae4, a_scale %asc, %b8f, b_scale %bsc : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xf8E4M3FN, cube_m16, mat>, !pto.tile<16x8xf8E8M0FNU, valid=16x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %mxa0 = pto.tmatmul_mx_acc %cf, %ae4, a_scale %asc, %b8f, b_scale %bsc : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xf8E4M3FN, cube_m16, mat>, !pto.tile<16x8xf8E8M0FNU, valid=16x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}
%mxa1 = pto.tmatmul_mx_acc %cf, %a16, %b16 {fpatr = #pto.fpatr<cscale_en = 1>} : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
// CHECK-NEXT: %mxa1 = pto.tmatmul_mx_acc %cf, %a16, %b16 {fpatr = #pto.fpatr<cscale_en = 1>} : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>{{$}}

// ---- pto.tgemv (function 16), pto.tgemv_bias (17), pto.tgemv_acc (18)
%gv0 = pto.tgemv %g16, %b16 : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK-NEXT: %gv0 = pto.tgemv %g16, %b16 : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>{{$}}
%gv1 = pto.tgemv %gs8, %bs8 : (!pto.tile<1x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>) -> !pto.tile<1x16xsi32, cube_m16, mat>
// CHECK-NEXT: %gv1 = pto.tgemv %gs8, %bs8 : (!pto.tile<1x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>) -> !pto.tile<1x16xsi32, cube_m16, mat>{{$}}
%gb0 = pto.tgemv_bias %g16, %b16, %biasf : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK-NEXT: %gb0 = pto.tgemv_bias %g16, %b16, %biasf : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<1x16xf32, cube_m16, mat>{{$}}
%gb1 = pto.tgemv_bias %gs8, %bs8, %biasi : (!pto.tile<1x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x32xsi32, valid=1x16>) -> !pto.tile<1x16xsi32, cube_m16, mat>
// CHECK-NEXT: %gb1 = pto.tgemv_bias %gs8, %bs8, %biasi : (!pto.tile<1x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>, !pto.tile<1x32xsi32, valid=1x16>) -> !pto.tile<1x16xsi32, cube_m16, mat>{{$}}
%ga0 = pto.tgemv_acc %gcf, %g16, %b16 : (!pto.tile<1x16xf32, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK-NEXT: %ga0 = pto.tgemv_acc %gcf, %g16, %b16 : (!pto.tile<1x16xf32, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>{{$}}
%ga1 = pto.tgemv_acc %gci, %gs8, %bs8 : (!pto.tile<1x16xsi32, cube_m16, mat>, !pto.tile<1x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>) -> !pto.tile<1x16xsi32, cube_m16, mat>
// CHECK-NEXT: %ga1 = pto.tgemv_acc %gci, %gs8, %bs8 : (!pto.tile<1x16xsi32, cube_m16, mat>, !pto.tile<1x64xsi8, cube_m16, mat>, !pto.tile<64x16xsi8, cube_n8, mat>) -> !pto.tile<1x16xsi32, cube_m16, mat>{{$}}

// ---- pto.tgemv_mx (20), pto.tgemv_mx_bias (21), pto.tgemv_mx_acc (22)
%gx0 = pto.tgemv_mx %ge4, a_scale %gsc, %b8f, b_scale %bsc : (!pto.tile<1x64xf8E4M3FN, cube_m32, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<1x16xf32, cube_m32, mat>
// CHECK-NEXT: %gx0 = pto.tgemv_mx %ge4, a_scale %gsc, %b8f, b_scale %bsc : (!pto.tile<1x64xf8E4M3FN, cube_m32, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<1x16xf32, cube_m32, mat>{{$}}
%gx1 = pto.tgemv_mx %g16, %b16 : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK-NEXT: %gx1 = pto.tgemv_mx %g16, %b16 : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>{{$}}
%gxb0 = pto.tgemv_mx_bias %ge4, a_scale %gsc, %b8f, b_scale %bsc, %biasf : (!pto.tile<1x64xf8E4M3FN, cube_m32, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<1x16xf32, cube_m32, mat>
// CHECK-NEXT: %gxb0 = pto.tgemv_mx_bias %ge4, a_scale %gsc, %b8f, b_scale %bsc, %biasf : (!pto.tile<1x64xf8E4M3FN, cube_m32, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>, !pto.tile<1x32xf32, valid=1x16>) -> !pto.tile<1x16xf32, cube_m32, mat>{{$}}
%gxa0 = pto.tgemv_mx_acc %gcf32, %ge4, a_scale %gsc, %b8f, b_scale %bsc : (!pto.tile<1x16xf32, cube_m32, mat>, !pto.tile<1x64xf8E4M3FN, cube_m32, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<1x16xf32, cube_m32, mat>
// CHECK-NEXT: %gxa0 = pto.tgemv_mx_acc %gcf32, %ge4, a_scale %gsc, %b8f, b_scale %bsc : (!pto.tile<1x16xf32, cube_m32, mat>, !pto.tile<1x64xf8E4M3FN, cube_m32, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x16xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x16>) -> !pto.tile<1x16xf32, cube_m32, mat>{{$}}
%gxa1 = pto.tgemv_mx_acc %gcf, %g16, %b16 {fpatr = #pto.fpatr<pre_quant_mode = 1>} : (!pto.tile<1x16xf32, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf16, cube_m16, mat>
// CHECK-NEXT: %gxa1 = pto.tgemv_mx_acc %gcf, %g16, %b16 {fpatr = #pto.fpatr<pre_quant_mode = 1>} : (!pto.tile<1x16xf32, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf16, cube_m16, mat>{{$}}

// ---- Binary elementwise siblings (TEPL mode 0)
%xf32 = "test.op"() : () -> !pto.tile<8x16xf32, valid=3x5>
// CHECK-NEXT: %xf32 = "test.op"() : () -> !pto.tile<8x16xf32, valid=3x5>{{$}}
%xsi32 = "test.op"() : () -> !pto.tile<8x16xsi32>
// CHECK-NEXT: %xsi32 = "test.op"() : () -> !pto.tile<8x16xsi32>{{$}}
%xf16 = "test.op"() : () -> !pto.tile<8x16xf16>
// CHECK-NEXT: %xf16 = "test.op"() : () -> !pto.tile<8x16xf16>{{$}}
%xbf16 = "test.op"() : () -> !pto.tile<8x16xbf16>
// CHECK-NEXT: %xbf16 = "test.op"() : () -> !pto.tile<8x16xbf16>{{$}}
%xui16 = "test.op"() : () -> !pto.tile<8x16xui16>
// CHECK-NEXT: %xui16 = "test.op"() : () -> !pto.tile<8x16xui16>{{$}}
%xsi8 = "test.op"() : () -> !pto.tile<16x8xsi8>
// CHECK-NEXT: %xsi8 = "test.op"() : () -> !pto.tile<16x8xsi8>{{$}}
%xf64 = "test.op"() : () -> !pto.tile<2x8xf64>
// CHECK-NEXT: %xf64 = "test.op"() : () -> !pto.tile<2x8xf64>{{$}}
%xe4 = "test.op"() : () -> !pto.tile<16x8xf8E4M3FN>
// CHECK-NEXT: %xe4 = "test.op"() : () -> !pto.tile<16x8xf8E4M3FN>{{$}}
%add0 = pto.tadd %xf32, %xf32 : !pto.tile<8x16xf32, valid=3x5>
// CHECK-NEXT: %add0 = pto.tadd %xf32, %xf32 : !pto.tile<8x16xf32, valid=3x5>{{$}}
%add1 = pto.tadd %xsi8, %xsi8 {pad = #pto.pad<max>} : !pto.tile<16x8xsi8>
// CHECK-NEXT: %add1 = pto.tadd %xsi8, %xsi8 {pad = #pto.pad<max>} : !pto.tile<16x8xsi8>{{$}}
%sub0 = pto.tsub %xsi32, %xsi32 : !pto.tile<8x16xsi32>
// CHECK-NEXT: %sub0 = pto.tsub %xsi32, %xsi32 : !pto.tile<8x16xsi32>{{$}}
%sub1 = pto.tsub %xf64, %xf64 : !pto.tile<2x8xf64>
// CHECK-NEXT: %sub1 = pto.tsub %xf64, %xf64 : !pto.tile<2x8xf64>{{$}}
%mul0 = pto.tmul %xf16, %xf16 : !pto.tile<8x16xf16>
// CHECK-NEXT: %mul0 = pto.tmul %xf16, %xf16 : !pto.tile<8x16xf16>{{$}}
%mul1 = pto.tmul %xe4, %xe4 : !pto.tile<16x8xf8E4M3FN>
// CHECK-NEXT: %mul1 = pto.tmul %xe4, %xe4 : !pto.tile<16x8xf8E4M3FN>{{$}}
%div0 = pto.tdiv %xf32, %xf32 {pad = #pto.pad<zero>} : !pto.tile<8x16xf32, valid=3x5>
// CHECK-NEXT: %div0 = pto.tdiv %xf32, %xf32 {pad = #pto.pad<zero>} : !pto.tile<8x16xf32, valid=3x5>{{$}}
%div1 = pto.tdiv %xsi32, %xsi32 : !pto.tile<8x16xsi32>
// CHECK-NEXT: %div1 = pto.tdiv %xsi32, %xsi32 : !pto.tile<8x16xsi32>{{$}}
%rem0 = pto.trem %xsi32, %xsi32 {pad = #pto.pad<min>} : !pto.tile<8x16xsi32>
// CHECK-NEXT: %rem0 = pto.trem %xsi32, %xsi32 {pad = #pto.pad<min>} : !pto.tile<8x16xsi32>{{$}}
%rem1 = pto.trem %xbf16, %xbf16 : !pto.tile<8x16xbf16>
// CHECK-NEXT: %rem1 = pto.trem %xbf16, %xbf16 : !pto.tile<8x16xbf16>{{$}}
%and0 = pto.tand %xsi32, %xsi32 {pad = #pto.pad<max>} : !pto.tile<8x16xsi32>
// CHECK-NEXT: %and0 = pto.tand %xsi32, %xsi32 {pad = #pto.pad<max>} : !pto.tile<8x16xsi32>{{$}}
%or0 = pto.tor %xui16, %xui16 : !pto.tile<8x16xui16>
// CHECK-NEXT: %or0 = pto.tor %xui16, %xui16 : !pto.tile<8x16xui16>{{$}}
%xor0 = pto.txor %xsi8, %xsi8 : !pto.tile<16x8xsi8>
// CHECK-NEXT: %xor0 = pto.txor %xsi8, %xsi8 : !pto.tile<16x8xsi8>{{$}}
%max0 = pto.tmax %xbf16, %xbf16 : !pto.tile<8x16xbf16>
// CHECK-NEXT: %max0 = pto.tmax %xbf16, %xbf16 : !pto.tile<8x16xbf16>{{$}}
%max1 = pto.tmax %xf32, %xf32 {pad = #pto.pad<zero>, mask = #pto.mask<1111>} : !pto.tile<8x16xf32, valid=3x5>
// CHECK-NEXT: %max1 = pto.tmax %xf32, %xf32 {pad = #pto.pad<zero>} : !pto.tile<8x16xf32, valid=3x5>{{$}}
%min0 = pto.tmin %xui16, %xui16 : !pto.tile<8x16xui16>
// CHECK-NEXT: %min0 = pto.tmin %xui16, %xui16 : !pto.tile<8x16xui16>{{$}}
%min1 = pto.tmin %xsi8, %xsi8 {mask = #pto.mask<0000>} : (!pto.tile<16x8xsi8>, !pto.tile<16x8xsi8>) -> !pto.tile<16x8xsi8>
// CHECK-NEXT: %min1 = pto.tmin %xsi8, %xsi8 {mask = #pto.mask<0000>} : !pto.tile<16x8xsi8>{{$}}
}

// The generic form carries every property, the segment sizes included (one op per name).
// GENERIC:      %mm0 = "pto.tmatmul"(%a16, %b16) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %mb0 = "pto.tmatmul_bias"(%a16, %b16, %biasf) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %ma0 = "pto.tmatmul_acc"(%cf, %a16, %b16) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %mx0 = "pto.tmatmul_mx"(%ae4, %asc, %b8f, %bsc) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %mxb0 = "pto.tmatmul_mx_bias"(%ae4, %asc, %b8f, %bsc, %biasf) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %mxa0 = "pto.tmatmul_mx_acc"(%cf, %ae4, %asc, %b8f, %bsc) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %gv0 = "pto.tgemv"(%g16, %b16) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %gb0 = "pto.tgemv_bias"(%g16, %b16, %biasf) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %ga0 = "pto.tgemv_acc"(%gcf, %g16, %b16) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %gx0 = "pto.tgemv_mx"(%ge4, %gsc, %b8f, %bsc) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %gxb0 = "pto.tgemv_mx_bias"(%ge4, %gsc, %b8f, %bsc, %biasf) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %gxa0 = "pto.tgemv_mx_acc"(%gcf32, %ge4, %gsc, %b8f, %bsc) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %add0 = "pto.tadd"(%xf32, %xf32) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}>
// GENERIC:      %sub0 = "pto.tsub"(%xsi32, %xsi32) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}>
// GENERIC:      %mul0 = "pto.tmul"(%xf16, %xf16) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}>
// GENERIC:      %div0 = "pto.tdiv"(%xf32, %xf32) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}>
// GENERIC:      %rem0 = "pto.trem"(%xsi32, %xsi32) <{pad = #pto.pad<min>, mask = #pto.mask<1111>}>
// GENERIC:      %and0 = "pto.tand"(%xsi32, %xsi32) <{pad = #pto.pad<max>, mask = #pto.mask<1111>}>
// GENERIC:      %or0 = "pto.tor"(%xui16, %xui16) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}>
// GENERIC:      %xor0 = "pto.txor"(%xsi8, %xsi8) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}>
// GENERIC:      %max0 = "pto.tmax"(%xbf16, %xbf16) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}>
// GENERIC:      %min0 = "pto.tmin"(%xui16, %xui16) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}>

