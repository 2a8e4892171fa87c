// Round trip of the format-conversion family (TCVT TEPL 0/27, TQUANT 3/10, TDEQUANT 3/11),
// custom and generic (asl/tile/model/numeric/formats.asl, D20).
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s
// CHECK: builtin.module {
builtin.module {
%s = "test.op"() : () -> i64
// CHECK-NEXT: %s = "test.op"() : () -> i64{{$}}
// GENERIC: %s = "test.op"() : () -> i64
%f = "test.op"() : () -> f32
// CHECK-NEXT: %f = "test.op"() : () -> f32{{$}}
// GENERIC: %f = "test.op"() : () -> f32
%t0 = "test.op"() : () -> !pto.tile<8x16xf32, valid=5x10>
// CHECK-NEXT: %t0 = "test.op"() : () -> !pto.tile<8x16xf32, valid=5x10>{{$}}
// GENERIC: %t0 = "test.op"() : () -> !pto.tile<8x16xf32, valid=5x10>
%r0 = pto.tcvt %t0 : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xf16, valid=5x10>
// CHECK-NEXT: %r0 = pto.tcvt %t0 : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xf16, valid=5x10>{{$}}
// GENERIC: %r0 = "pto.tcvt"(%t0) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, rmode = #pto.rmode<default>}> : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xf16, valid=5x10>
%r1 = pto.tcvt %t0 {rmode = #pto.rmode<rtm>, sat, pad = #pto.pad<zero>} : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xsi32, valid=5x10>
// CHECK-NEXT: %r1 = pto.tcvt %t0 {rmode = #pto.rmode<rtm>, sat, pad = #pto.pad<zero>} : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xsi32, valid=5x10>{{$}}
// GENERIC: %r1 = "pto.tcvt"(%t0) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>, rmode = #pto.rmode<rtm>, sat}> : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xsi32, valid=5x10>
%r2 = pto.tcvt %t0 {rmode = #pto.rmode<rto>} : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xbf16, valid=5x10, col_major>
// CHECK-NEXT: %r2 = pto.tcvt %t0 {rmode = #pto.rmode<rto>} : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xbf16, valid=5x10, col_major>{{$}}
// GENERIC: %r2 = "pto.tcvt"(%t0) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, rmode = #pto.rmode<rto>}> : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xbf16, valid=5x10, col_major>
%r3 = pto.tcvt %t0 {rmode = #pto.rmode<rtp>, sat} : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xf8E8M0FNU, valid=5x10>
// CHECK-NEXT: %r3 = pto.tcvt %t0 {rmode = #pto.rmode<rtp>, sat} : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xf8E8M0FNU, valid=5x10>{{$}}
// GENERIC: %r3 = "pto.tcvt"(%t0) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, rmode = #pto.rmode<rtp>, sat}> : (!pto.tile<8x16xf32, valid=5x10>) -> !pto.tile<8x16xf8E8M0FNU, valid=5x10>
%r4 = pto.tquant %t0, %s, %s {rmode = #pto.rmode<rna>, sat} : (!pto.tile<8x16xf32, valid=5x10>, i64, i64) -> !pto.tile<8x16xui8, valid=5x10>
// CHECK-NEXT: %r4 = pto.tquant %t0, %s, %s {rmode = #pto.rmode<rna>, sat} : (!pto.tile<8x16xf32, valid=5x10>, i64, i64) -> !pto.tile<8x16xui8, valid=5x10>{{$}}
// GENERIC: %r4 = "pto.tquant"(%t0, %s, %s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, rmode = #pto.rmode<rna>, sat}> : (!pto.tile<8x16xf32, valid=5x10>, i64, i64) -> !pto.tile<8x16xui8, valid=5x10>
%r5 = pto.tquant %t0, %f, %s : (!pto.tile<8x16xf32, valid=5x10>, f32, i64) -> !pto.tile<8x16xsi8, valid=5x10>
// CHECK-NEXT: %r5 = pto.tquant %t0, %f, %s : (!pto.tile<8x16xf32, valid=5x10>, f32, i64) -> !pto.tile<8x16xsi8, valid=5x10>{{$}}
// GENERIC: %r5 = "pto.tquant"(%t0, %f, %s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, rmode = #pto.rmode<default>}> : (!pto.tile<8x16xf32, valid=5x10>, f32, i64) -> !pto.tile<8x16xsi8, valid=5x10>
%r6 = pto.tdequant %r5 {rmode = #pto.rmode<rtz>} : (!pto.tile<8x16xsi8, valid=5x10>) -> !pto.tile<8x16xf32, valid=5x10>
// CHECK-NEXT: %r6 = pto.tdequant %r5 {rmode = #pto.rmode<rtz>} : (!pto.tile<8x16xsi8, valid=5x10>) -> !pto.tile<8x16xf32, valid=5x10>{{$}}
// GENERIC: %r6 = "pto.tdequant"(%r5) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, rmode = #pto.rmode<rtz>}> : (!pto.tile<8x16xsi8, valid=5x10>) -> !pto.tile<8x16xf32, valid=5x10>
%t1 = "test.op"() : () -> !pto.tile<16x16xsi32, valid=5x10>
// CHECK-NEXT: %t1 = "test.op"() : () -> !pto.tile<16x16xsi32, valid=5x10>{{$}}
// GENERIC: %t1 = "test.op"() : () -> !pto.tile<16x16xsi32, valid=5x10>
%r7 = pto.tcvt %t1 {rmode = #pto.rmode<rhb>} : (!pto.tile<16x16xsi32, valid=5x10>) -> !pto.tile<16x16xsi4, valid=5x10>
// CHECK-NEXT: %r7 = pto.tcvt %t1 {rmode = #pto.rmode<rhb>} : (!pto.tile<16x16xsi32, valid=5x10>) -> !pto.tile<16x16xsi4, valid=5x10>{{$}}
// GENERIC: %r7 = "pto.tcvt"(%t1) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, rmode = #pto.rmode<rhb>}> : (!pto.tile<16x16xsi32, valid=5x10>) -> !pto.tile<16x16xsi4, valid=5x10>
}
// CHECK-NEXT: }
