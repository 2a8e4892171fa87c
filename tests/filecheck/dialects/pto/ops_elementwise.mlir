// Round trip of the unary (TEPL mode 0, functions 15-23), tile-scalar (mode 1, functions
// 0-12), TFMA and TEXPANDS ops and the TSHL/TSHR binary rows, custom and generic (PTO-SPEC 5).
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s
// CHECK: builtin.module {
builtin.module {
%s = "test.op"() : () -> i64
// CHECK-NEXT: %s = "test.op"() : () -> i64{{$}}
%t0 = "test.op"() : () -> !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %t0 = "test.op"() : () -> !pto.tile<4x16xf32, valid=3x10>{{$}}
// GENERIC: %t0 = "test.op"() : () -> !pto.tile<4x16xf32, valid=3x10>
%r0 = pto.tadds %t0, %s {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>, i64
// CHECK-NEXT: %r0 = pto.tadds %t0, %s {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>, i64{{$}}
// GENERIC: %r0 = "pto.tadds"(%t0, %s) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>, i64) -> !pto.tile<4x16xf32, valid=3x10>
%r1 = pto.tsubs %t0, %s : !pto.tile<4x16xf32, valid=3x10>, i64
// CHECK-NEXT: %r1 = pto.tsubs %t0, %s : !pto.tile<4x16xf32, valid=3x10>, i64{{$}}
// GENERIC: %r1 = "pto.tsubs"(%t0, %s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>, i64) -> !pto.tile<4x16xf32, valid=3x10>
%r2 = pto.tmuls %t0, %s {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>, i64
// CHECK-NEXT: %r2 = pto.tmuls %t0, %s {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>, i64{{$}}
// GENERIC: %r2 = "pto.tmuls"(%t0, %s) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>, i64) -> !pto.tile<4x16xf32, valid=3x10>
%r3 = pto.tdivs %t0, %s : !pto.tile<4x16xf32, valid=3x10>, i64
// CHECK-NEXT: %r3 = pto.tdivs %t0, %s : !pto.tile<4x16xf32, valid=3x10>, i64{{$}}
// GENERIC: %r3 = "pto.tdivs"(%t0, %s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>, i64) -> !pto.tile<4x16xf32, valid=3x10>
%r4 = pto.trems %t0, %s {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>, i64
// CHECK-NEXT: %r4 = pto.trems %t0, %s {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>, i64{{$}}
// GENERIC: %r4 = "pto.trems"(%t0, %s) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>, i64) -> !pto.tile<4x16xf32, valid=3x10>
%t1 = "test.op"() : () -> !pto.tile<4x16xsi32, valid=3x10>
// CHECK-NEXT: %t1 = "test.op"() : () -> !pto.tile<4x16xsi32, valid=3x10>{{$}}
// GENERIC: %t1 = "test.op"() : () -> !pto.tile<4x16xsi32, valid=3x10>
%r5 = pto.tands %t1, %s : !pto.tile<4x16xsi32, valid=3x10>, i64
// CHECK-NEXT: %r5 = pto.tands %t1, %s : !pto.tile<4x16xsi32, valid=3x10>, i64{{$}}
// GENERIC: %r5 = "pto.tands"(%t1, %s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xsi32, valid=3x10>, i64) -> !pto.tile<4x16xsi32, valid=3x10>
%r6 = pto.tors %t1, %s {pad = #pto.pad<zero>} : !pto.tile<4x16xsi32, valid=3x10>, i64
// CHECK-NEXT: %r6 = pto.tors %t1, %s {pad = #pto.pad<zero>} : !pto.tile<4x16xsi32, valid=3x10>, i64{{$}}
// GENERIC: %r6 = "pto.tors"(%t1, %s) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xsi32, valid=3x10>, i64) -> !pto.tile<4x16xsi32, valid=3x10>
%r7 = pto.txors %t1, %s : !pto.tile<4x16xsi32, valid=3x10>, i64
// CHECK-NEXT: %r7 = pto.txors %t1, %s : !pto.tile<4x16xsi32, valid=3x10>, i64{{$}}
// GENERIC: %r7 = "pto.txors"(%t1, %s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xsi32, valid=3x10>, i64) -> !pto.tile<4x16xsi32, valid=3x10>
%r8 = pto.tshls %t1, %s {pad = #pto.pad<zero>} : !pto.tile<4x16xsi32, valid=3x10>, i64
// CHECK-NEXT: %r8 = pto.tshls %t1, %s {pad = #pto.pad<zero>} : !pto.tile<4x16xsi32, valid=3x10>, i64{{$}}
// GENERIC: %r8 = "pto.tshls"(%t1, %s) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xsi32, valid=3x10>, i64) -> !pto.tile<4x16xsi32, valid=3x10>
%t2 = "test.op"() : () -> !pto.tile<8x16xsi16, valid=3x10>
// CHECK-NEXT: %t2 = "test.op"() : () -> !pto.tile<8x16xsi16, valid=3x10>{{$}}
// GENERIC: %t2 = "test.op"() : () -> !pto.tile<8x16xsi16, valid=3x10>
%r9 = pto.tshrs %t2, %s : !pto.tile<8x16xsi16, valid=3x10>, i64
// CHECK-NEXT: %r9 = pto.tshrs %t2, %s : !pto.tile<8x16xsi16, valid=3x10>, i64{{$}}
// GENERIC: %r9 = "pto.tshrs"(%t2, %s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xsi16, valid=3x10>, i64) -> !pto.tile<8x16xsi16, valid=3x10>
%t3 = "test.op"() : () -> !pto.tile<16x16xui8, valid=3x10>
// CHECK-NEXT: %t3 = "test.op"() : () -> !pto.tile<16x16xui8, valid=3x10>{{$}}
// GENERIC: %t3 = "test.op"() : () -> !pto.tile<16x16xui8, valid=3x10>
%r10 = pto.tmaxs %t3, %s {pad = #pto.pad<zero>} : !pto.tile<16x16xui8, valid=3x10>, i64
// CHECK-NEXT: %r10 = pto.tmaxs %t3, %s {pad = #pto.pad<zero>} : !pto.tile<16x16xui8, valid=3x10>, i64{{$}}
// GENERIC: %r10 = "pto.tmaxs"(%t3, %s) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<16x16xui8, valid=3x10>, i64) -> !pto.tile<16x16xui8, valid=3x10>
%r11 = pto.tmins %t0, %s : !pto.tile<4x16xf32, valid=3x10>, i64
// CHECK-NEXT: %r11 = pto.tmins %t0, %s : !pto.tile<4x16xf32, valid=3x10>, i64{{$}}
// GENERIC: %r11 = "pto.tmins"(%t0, %s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>, i64) -> !pto.tile<4x16xf32, valid=3x10>
%t4 = "test.op"() : () -> !pto.tile<8x16xf16, valid=3x10>
// CHECK-NEXT: %t4 = "test.op"() : () -> !pto.tile<8x16xf16, valid=3x10>{{$}}
// GENERIC: %t4 = "test.op"() : () -> !pto.tile<8x16xf16, valid=3x10>
%r12 = pto.tabs %t4 {pad = #pto.pad<zero>} : !pto.tile<8x16xf16, valid=3x10>
// CHECK-NEXT: %r12 = pto.tabs %t4 {pad = #pto.pad<zero>} : !pto.tile<8x16xf16, valid=3x10>{{$}}
// GENERIC: %r12 = "pto.tabs"(%t4) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf16, valid=3x10>) -> !pto.tile<8x16xf16, valid=3x10>
%r13 = pto.tnot %t1 : !pto.tile<4x16xsi32, valid=3x10>
// CHECK-NEXT: %r13 = pto.tnot %t1 : !pto.tile<4x16xsi32, valid=3x10>{{$}}
// GENERIC: %r13 = "pto.tnot"(%t1) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xsi32, valid=3x10>) -> !pto.tile<4x16xsi32, valid=3x10>
%r14 = pto.tneg %t4 {pad = #pto.pad<zero>} : !pto.tile<8x16xf16, valid=3x10>
// CHECK-NEXT: %r14 = pto.tneg %t4 {pad = #pto.pad<zero>} : !pto.tile<8x16xf16, valid=3x10>{{$}}
// GENERIC: %r14 = "pto.tneg"(%t4) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf16, valid=3x10>) -> !pto.tile<8x16xf16, valid=3x10>
%r15 = pto.texp %t0 : !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %r15 = pto.texp %t0 : !pto.tile<4x16xf32, valid=3x10>{{$}}
// GENERIC: %r15 = "pto.texp"(%t0) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>) -> !pto.tile<4x16xf32, valid=3x10>
%r16 = pto.tlog %t0 {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %r16 = pto.tlog %t0 {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>{{$}}
// GENERIC: %r16 = "pto.tlog"(%t0) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>) -> !pto.tile<4x16xf32, valid=3x10>
%r17 = pto.trecip %t0 : !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %r17 = pto.trecip %t0 : !pto.tile<4x16xf32, valid=3x10>{{$}}
// GENERIC: %r17 = "pto.trecip"(%t0) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>) -> !pto.tile<4x16xf32, valid=3x10>
%r18 = pto.tsqrt %t0 {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %r18 = pto.tsqrt %t0 {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>{{$}}
// GENERIC: %r18 = "pto.tsqrt"(%t0) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>) -> !pto.tile<4x16xf32, valid=3x10>
%r19 = pto.trsqrt %t0 : !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %r19 = pto.trsqrt %t0 : !pto.tile<4x16xf32, valid=3x10>{{$}}
// GENERIC: %r19 = "pto.trsqrt"(%t0) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>) -> !pto.tile<4x16xf32, valid=3x10>
%r20 = pto.trelu %t0 {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %r20 = pto.trelu %t0 {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>{{$}}
// GENERIC: %r20 = "pto.trelu"(%t0) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>) -> !pto.tile<4x16xf32, valid=3x10>
%r21 = pto.tfma %t0, %t0, %t0 : !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %r21 = pto.tfma %t0, %t0, %t0 : !pto.tile<4x16xf32, valid=3x10>{{$}}
// GENERIC: %r21 = "pto.tfma"(%t0, %t0, %t0) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>) -> !pto.tile<4x16xf32, valid=3x10>
%r22 = pto.texpands %s {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>, i64
// CHECK-NEXT: %r22 = pto.texpands %s {pad = #pto.pad<zero>} : !pto.tile<4x16xf32, valid=3x10>, i64{{$}}
// GENERIC: %r22 = "pto.texpands"(%s) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (i64) -> !pto.tile<4x16xf32, valid=3x10>
%r23 = pto.tshl %t1, %t1 : !pto.tile<4x16xsi32, valid=3x10>
// CHECK-NEXT: %r23 = pto.tshl %t1, %t1 : !pto.tile<4x16xsi32, valid=3x10>{{$}}
// GENERIC: %r23 = "pto.tshl"(%t1, %t1) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xsi32, valid=3x10>, !pto.tile<4x16xsi32, valid=3x10>) -> !pto.tile<4x16xsi32, valid=3x10>
%r24 = pto.tshr %t2, %t2 {pad = #pto.pad<zero>} : !pto.tile<8x16xsi16, valid=3x10>
// CHECK-NEXT: %r24 = pto.tshr %t2, %t2 {pad = #pto.pad<zero>} : !pto.tile<8x16xsi16, valid=3x10>{{$}}
// GENERIC: %r24 = "pto.tshr"(%t2, %t2) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xsi16, valid=3x10>, !pto.tile<8x16xsi16, valid=3x10>) -> !pto.tile<8x16xsi16, valid=3x10>
%f = "test.op"() : () -> f32
// CHECK-NEXT: %f = "test.op"() : () -> f32{{$}}
%rf = pto.tmuls %t0, %f {mask = #pto.mask<1111>} : !pto.tile<4x16xf32, valid=3x10>, f32
// CHECK-NEXT: %rf = pto.tmuls %t0, %f : !pto.tile<4x16xf32, valid=3x10>, f32{{$}}
// GENERIC: %rf = "pto.tmuls"(%t0, %f) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<4x16xf32, valid=3x10>, f32) -> !pto.tile<4x16xf32, valid=3x10>
}
// CHECK-NEXT: }
