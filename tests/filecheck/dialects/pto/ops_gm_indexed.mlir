// Round trip of the global-memory TLSU operations (pto_dialect/gm_indexed.py; D25,
// docs/gm-indexed.md) in custom and generic syntax; default properties are elided.
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s

// CHECK: builtin.module {
%gm = "test.op"() : () -> tensor<4096xi8>
// CHECK-NEXT: %gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
// CHECK-NEXT: %b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
// CHECK-NEXT: %idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%m = "test.op"() : () -> !pto.pred<1x4, valid=1x2>
// CHECK-NEXT: %m = "test.op"() : () -> !pto.pred<1x4, valid=1x2>
%v = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
// CHECK-NEXT: %v = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%s = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
// CHECK-NEXT: %s = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%d = pto.mgather %gm, %b, %idx {pad = #pto.pad<max>} : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK-NEXT: %d = pto.mgather %gm, %b, %idx {pad = #pto.pad<max>} : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
%d0 = pto.mgather %gm, %b, %idx {pad = #pto.pad<null>} : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK-NEXT: %d0 = pto.mgather %gm, %b, %idx : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
%d2 = pto.mgather_mask %gm, %b, %idx, %m : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.pred<1x4, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK-NEXT: %d2 = pto.mgather_mask %gm, %b, %idx, %m : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.pred<1x4, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
%d3, %g3 = pto.mgather_cas %gm, %b, %idx, %v, %v : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>) -> (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>)
// CHECK-NEXT: %d3, %g3 = pto.mgather_cas %gm, %b, %idx, %v, %v : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>) -> (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>)
%g4 = pto.mscatter %v, %gm, %b, %idx : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> tensor<4096xi8>
// CHECK-NEXT: %g4 = pto.mscatter %v, %gm, %b, %idx : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> tensor<4096xi8>
%g5 = pto.mscatter_mask %v, %gm, %b, %idx, %m : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.pred<1x4, valid=1x2>) -> tensor<4096xi8>
// CHECK-NEXT: %g5 = pto.mscatter_mask %v, %gm, %b, %idx, %m : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.pred<1x4, valid=1x2>) -> tensor<4096xi8>
pto.tprefetch %gm, %b, %b {footprint = !pto.tile<64x2xui16, valid=2x2>} : (tensor<4096xi8>, index, index) -> ()
// CHECK-NEXT: pto.tprefetch %gm, %b, %b {footprint = !pto.tile<64x2xui16, valid=2x2>} : (tensor<4096xi8>, index, index) -> ()
%d6 = pto.gmov %s {peers = array<i64: 3, 2, 1, 0>} : (!pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<128x1xui8, valid=1x1>
// CHECK-NEXT: %d6 = pto.gmov %s {peers = array<i64: 3, 2, 1, 0>} : (!pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<128x1xui8, valid=1x1>
// CHECK-NEXT: }
// GENERIC: %d = "pto.mgather"(%gm, %b, %idx) <{pad = #pto.pad<max>}> : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// GENERIC: %d0 = "pto.mgather"(%gm, %b, %idx) <{pad = #pto.pad<null>}> : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// GENERIC: %d2 = "pto.mgather_mask"(%gm, %b, %idx, %m) <{pad = #pto.pad<null>}> : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.pred<1x4, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// GENERIC: %d3, %g3 = "pto.mgather_cas"(%gm, %b, %idx, %v, %v) <{pad = #pto.pad<null>}> : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>) -> (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>)
// GENERIC: %g4 = "pto.mscatter"(%v, %gm, %b, %idx) : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> tensor<4096xi8>
// GENERIC: %g5 = "pto.mscatter_mask"(%v, %gm, %b, %idx, %m) : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.pred<1x4, valid=1x2>) -> tensor<4096xi8>
// GENERIC: "pto.tprefetch"(%gm, %b, %b) <{footprint = !pto.tile<64x2xui16, valid=2x2>}> : (tensor<4096xi8>, index, index) -> ()
// GENERIC: %d6 = "pto.gmov"(%s) <{peers = array<i64: 3, 2, 1, 0>}> : (!pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<128x1xui8, valid=1x1>
