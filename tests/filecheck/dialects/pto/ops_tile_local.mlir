// Round trip of every tile-local TEPL op (reductions, expansions, TTRANS, TCONCAT, TPART*, TCI, TTRI;
// TEPL modes 2 and 3, pto_dialect/tile_local.py) in custom and generic syntax; explicit
// defaults print canonically.
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s
// CHECK: builtin.module {
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%h = "test.op"() : () -> !pto.tile<8x16xf16, valid=4x5>
// CHECK-NEXT: %h = "test.op"() : () -> !pto.tile<8x16xf16, valid=4x5>
%i = "test.op"() : () -> !pto.tile<8x16xsi16, valid=3x16, pe=1100>
// CHECK-NEXT: %i = "test.op"() : () -> !pto.tile<8x16xsi16, valid=3x16, pe=1100>
%rb = "test.op"() : () -> !pto.tile<32x1xf32, valid=4x1>
// CHECK-NEXT: %rb = "test.op"() : () -> !pto.tile<32x1xf32, valid=4x1>
%cb = "test.op"() : () -> !pto.tile<2x16xf32, valid=1x5>
// CHECK-NEXT: %cb = "test.op"() : () -> !pto.tile<2x16xf32, valid=1x5>
%hrb = "test.op"() : () -> !pto.tile<64x1xf16, valid=4x1>
// CHECK-NEXT: %hrb = "test.op"() : () -> !pto.tile<64x1xf16, valid=4x1>
%hcb = "test.op"() : () -> !pto.tile<4x16xf16, valid=1x5>
// CHECK-NEXT: %hcb = "test.op"() : () -> !pto.tile<4x16xf16, valid=1x5>
%trowsum = pto.trowsum %s {pad = #pto.pad<max>} : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
// CHECK-NEXT: %trowsum = pto.trowsum %s {pad = #pto.pad<max>} : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
// GENERIC: %trowsum = "pto.trowsum"(%s) <{pad = #pto.pad<max>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
%trowmax = pto.trowmax %s {pad = #pto.pad<null>, mask = #pto.mask<1111>} : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
// CHECK-NEXT: %trowmax = pto.trowmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
// GENERIC: %trowmax = "pto.trowmax"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
%trowmin = pto.trowmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
// CHECK-NEXT: %trowmin = pto.trowmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
// GENERIC: %trowmin = "pto.trowmin"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
%trowprod = pto.trowprod %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
// CHECK-NEXT: %trowprod = pto.trowprod %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
// GENERIC: %trowprod = "pto.trowprod"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
%trowargmax = pto.trowargmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xsi32, valid=4x1>
// CHECK-NEXT: %trowargmax = pto.trowargmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xsi32, valid=4x1>
// GENERIC: %trowargmax = "pto.trowargmax"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xsi32, valid=4x1>
%trowargmin = pto.trowargmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xsi32, valid=4x1>
// CHECK-NEXT: %trowargmin = pto.trowargmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xsi32, valid=4x1>
// GENERIC: %trowargmin = "pto.trowargmin"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xsi32, valid=4x1>
%tcolsum = pto.tcolsum %s {pad = #pto.pad<max>} : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
// CHECK-NEXT: %tcolsum = pto.tcolsum %s {pad = #pto.pad<max>} : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
// GENERIC: %tcolsum = "pto.tcolsum"(%s) <{pad = #pto.pad<max>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
%tcolmax = pto.tcolmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
// CHECK-NEXT: %tcolmax = pto.tcolmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
// GENERIC: %tcolmax = "pto.tcolmax"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
%tcolmin = pto.tcolmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
// CHECK-NEXT: %tcolmin = pto.tcolmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
// GENERIC: %tcolmin = "pto.tcolmin"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
%tcolprod = pto.tcolprod %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
// CHECK-NEXT: %tcolprod = pto.tcolprod %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
// GENERIC: %tcolprod = "pto.tcolprod"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x5>
%tcolargmax = pto.tcolargmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xui32, valid=1x5>
// CHECK-NEXT: %tcolargmax = pto.tcolargmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xui32, valid=1x5>
// GENERIC: %tcolargmax = "pto.tcolargmax"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xui32, valid=1x5>
%tcolargmin = pto.tcolargmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xui32, valid=1x5>
// CHECK-NEXT: %tcolargmin = pto.tcolargmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xui32, valid=1x5>
// GENERIC: %tcolargmin = "pto.tcolargmin"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xui32, valid=1x5>
%trowexpand = pto.trowexpand %rb : (!pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %trowexpand = pto.trowexpand %rb : (!pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %trowexpand = "pto.trowexpand"(%rb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
%trowexpandadd = pto.trowexpandadd %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %trowexpandadd = pto.trowexpandadd %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %trowexpandadd = "pto.trowexpandadd"(%s, %rb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
%trowexpandsub = pto.trowexpandsub %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %trowexpandsub = pto.trowexpandsub %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %trowexpandsub = "pto.trowexpandsub"(%s, %rb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
%trowexpandmul = pto.trowexpandmul %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %trowexpandmul = pto.trowexpandmul %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %trowexpandmul = "pto.trowexpandmul"(%s, %rb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
%trowexpanddiv = pto.trowexpanddiv %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %trowexpanddiv = pto.trowexpanddiv %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %trowexpanddiv = "pto.trowexpanddiv"(%s, %rb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
%trowexpandmax = pto.trowexpandmax %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %trowexpandmax = pto.trowexpandmax %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %trowexpandmax = "pto.trowexpandmax"(%s, %rb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
%trowexpandmin = pto.trowexpandmin %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %trowexpandmin = pto.trowexpandmin %s, %rb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %trowexpandmin = "pto.trowexpandmin"(%s, %rb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
%trowexpandexpdif = pto.trowexpandexpdif %h, %hrb {pad = #pto.pad<zero>} : (!pto.tile<8x16xf16, valid=4x5>, !pto.tile<64x1xf16, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %trowexpandexpdif = pto.trowexpandexpdif %h, %hrb {pad = #pto.pad<zero>} : (!pto.tile<8x16xf16, valid=4x5>, !pto.tile<64x1xf16, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %trowexpandexpdif = "pto.trowexpandexpdif"(%h, %hrb) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf16, valid=4x5>, !pto.tile<64x1xf16, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
%tcolexpand = pto.tcolexpand %cb : (!pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %tcolexpand = pto.tcolexpand %cb : (!pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %tcolexpand = "pto.tcolexpand"(%cb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
%tcolexpandadd = pto.tcolexpandadd %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %tcolexpandadd = pto.tcolexpandadd %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %tcolexpandadd = "pto.tcolexpandadd"(%s, %cb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
%tcolexpandsub = pto.tcolexpandsub %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %tcolexpandsub = pto.tcolexpandsub %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %tcolexpandsub = "pto.tcolexpandsub"(%s, %cb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
%tcolexpandmul = pto.tcolexpandmul %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %tcolexpandmul = pto.tcolexpandmul %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %tcolexpandmul = "pto.tcolexpandmul"(%s, %cb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
%tcolexpanddiv = pto.tcolexpanddiv %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %tcolexpanddiv = pto.tcolexpanddiv %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %tcolexpanddiv = "pto.tcolexpanddiv"(%s, %cb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
%tcolexpandmax = pto.tcolexpandmax %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %tcolexpandmax = pto.tcolexpandmax %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %tcolexpandmax = "pto.tcolexpandmax"(%s, %cb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
%tcolexpandmin = pto.tcolexpandmin %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %tcolexpandmin = pto.tcolexpandmin %s, %cb : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %tcolexpandmin = "pto.tcolexpandmin"(%s, %cb) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
%tcolexpandexpdif = pto.tcolexpandexpdif %h, %hcb {pad = #pto.pad<zero>} : (!pto.tile<8x16xf16, valid=4x5>, !pto.tile<4x16xf16, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK-NEXT: %tcolexpandexpdif = pto.tcolexpandexpdif %h, %hcb {pad = #pto.pad<zero>} : (!pto.tile<8x16xf16, valid=4x5>, !pto.tile<4x16xf16, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// GENERIC: %tcolexpandexpdif = "pto.tcolexpandexpdif"(%h, %hcb) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf16, valid=4x5>, !pto.tile<4x16xf16, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
%ttrans = pto.ttrans %i {mask = #pto.mask<1100>} : (!pto.tile<8x16xsi16, valid=3x16, pe=1100>) -> !pto.tile<16x8xsi16, valid=16x3, pe=1100>
// CHECK-NEXT: %ttrans = pto.ttrans %i {mask = #pto.mask<1100>} : (!pto.tile<8x16xsi16, valid=3x16, pe=1100>) -> !pto.tile<16x8xsi16, valid=16x3, pe=1100>
// GENERIC: %ttrans = "pto.ttrans"(%i) <{pad = #pto.pad<null>, mask = #pto.mask<1100>}> : (!pto.tile<8x16xsi16, valid=3x16, pe=1100>) -> !pto.tile<16x8xsi16, valid=16x3, pe=1100>
%pl = "test.op"() : () -> !pto.tile<8x16xsi16, valid=4x5>
// CHECK-NEXT: %pl = "test.op"() : () -> !pto.tile<8x16xsi16, valid=4x5>
%pr = "test.op"() : () -> !pto.tile<8x16xsi16, valid=2x3>
// CHECK-NEXT: %pr = "test.op"() : () -> !pto.tile<8x16xsi16, valid=2x3>
%tpartadd = pto.tpartadd %pl, %pr : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=2x3>) -> !pto.tile<8x16xsi16, valid=4x5>
// CHECK-NEXT: %tpartadd = pto.tpartadd %pl, %pr : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=2x3>) -> !pto.tile<8x16xsi16, valid=4x5>
// GENERIC: %tpartadd = "pto.tpartadd"(%pl, %pr) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=2x3>) -> !pto.tile<8x16xsi16, valid=4x5>
%tpartmul = pto.tpartmul %pr, %pl : (!pto.tile<8x16xsi16, valid=2x3>, !pto.tile<8x16xsi16, valid=4x5>) -> !pto.tile<8x16xsi16, valid=4x5>
// CHECK-NEXT: %tpartmul = pto.tpartmul %pr, %pl : (!pto.tile<8x16xsi16, valid=2x3>, !pto.tile<8x16xsi16, valid=4x5>) -> !pto.tile<8x16xsi16, valid=4x5>
// GENERIC: %tpartmul = "pto.tpartmul"(%pr, %pl) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xsi16, valid=2x3>, !pto.tile<8x16xsi16, valid=4x5>) -> !pto.tile<8x16xsi16, valid=4x5>
%tpartmax = pto.tpartmax %pl, %pl : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=4x5>) -> !pto.tile<16x8xsi16, valid=4x5>
// CHECK-NEXT: %tpartmax = pto.tpartmax %pl, %pl : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=4x5>) -> !pto.tile<16x8xsi16, valid=4x5>
// GENERIC: %tpartmax = "pto.tpartmax"(%pl, %pl) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=4x5>) -> !pto.tile<16x8xsi16, valid=4x5>
%tpartmin = pto.tpartmin %pl, %pr {mask = #pto.mask<1111>} : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=2x3>) -> !pto.tile<8x16xsi16, valid=4x5>
// CHECK-NEXT: %tpartmin = pto.tpartmin %pl, %pr : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=2x3>) -> !pto.tile<8x16xsi16, valid=4x5>
// GENERIC: %tpartmin = "pto.tpartmin"(%pl, %pr) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=2x3>) -> !pto.tile<8x16xsi16, valid=4x5>
%cl = "test.op"() : () -> !pto.tile<64x2xui8, valid=2x2>
// CHECK-NEXT: %cl = "test.op"() : () -> !pto.tile<64x2xui8, valid=2x2>
%cr = "test.op"() : () -> !pto.tile<128x1xui8, valid=2x1>
// CHECK-NEXT: %cr = "test.op"() : () -> !pto.tile<128x1xui8, valid=2x1>
%tconcat = pto.tconcat %cl, %cr : (!pto.tile<64x2xui8, valid=2x2>, !pto.tile<128x1xui8, valid=2x1>) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK-NEXT: %tconcat = pto.tconcat %cl, %cr : (!pto.tile<64x2xui8, valid=2x2>, !pto.tile<128x1xui8, valid=2x1>) -> !pto.tile<32x4xui8, valid=2x3>
// GENERIC: %tconcat = "pto.tconcat"(%cl, %cr) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<64x2xui8, valid=2x2>, !pto.tile<128x1xui8, valid=2x1>) -> !pto.tile<32x4xui8, valid=2x3>
%p0 = "test.op"() : () -> i64
// CHECK-NEXT: %p0 = "test.op"() : () -> i64
%p1 = "test.op"() : () -> i64
// CHECK-NEXT: %p1 = "test.op"() : () -> i64
%tci = pto.tci %p0, %p1 : (i64, i64) -> !pto.tile<16x4xui16, valid=1x3>
// CHECK-NEXT: %tci = pto.tci %p0, %p1 : (i64, i64) -> !pto.tile<16x4xui16, valid=1x3>
// GENERIC: %tci = "pto.tci"(%p0, %p1) <{mask = #pto.mask<1111>}> : (i64, i64) -> !pto.tile<16x4xui16, valid=1x3>
%tcidefault = pto.tci : () -> !pto.tile<8x8xsi32, valid=1x8>
// CHECK-NEXT: %tcidefault = pto.tci : () -> !pto.tile<8x8xsi32, valid=1x8>
// GENERIC: %tcidefault = "pto.tci"() <{mask = #pto.mask<1111>}> : () -> !pto.tile<8x8xsi32, valid=1x8>
%ttri = pto.ttri %p0, %p1 {mask = #pto.mask<1111>} : (i64, i64) -> !pto.tile<8x16xf16, valid=4x4>
// CHECK-NEXT: %ttri = pto.ttri %p0, %p1 : (i64, i64) -> !pto.tile<8x16xf16, valid=4x4>
// GENERIC: %ttri = "pto.ttri"(%p0, %p1) <{mask = #pto.mask<1111>}> : (i64, i64) -> !pto.tile<8x16xf16, valid=4x4>
%ttridefault = pto.ttri : () -> !pto.tile<8x4xf32, valid=3x4>
// CHECK-NEXT: %ttridefault = pto.ttri : () -> !pto.tile<8x4xf32, valid=3x4>
// GENERIC: %ttridefault = "pto.ttri"() <{mask = #pto.mask<1111>}> : () -> !pto.tile<8x4xf32, valid=3x4>
// CHECK-NEXT: }
