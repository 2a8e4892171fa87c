// Round trip of the irregular tile-local rearrangements (TGATHER, TSCATTER, TFILLPAD, TEXTRACT, TINSERT, TMRGSORT, THISTOGRAM;
// pto_dialect/tile_rearrange.py) in custom and generic syntax; explicit defaults print
// canonically, TFILLPAD with and without its padding word.
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s
// CHECK: builtin.module {
%v = "test.op"() : () -> !pto.tile<8x8xf16, valid=4x2>
// CHECK-NEXT: %v = "test.op"() : () -> !pto.tile<8x8xf16, valid=4x2>
%i = "test.op"() : () -> !pto.tile<4x8xui32, valid=2x2>
// CHECK-NEXT: %i = "test.op"() : () -> !pto.tile<4x8xui32, valid=2x2>
%tgather = pto.tgather %v, %i {pad = #pto.pad<null>, mask = #pto.mask<1111>} : (!pto.tile<8x8xf16, valid=4x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xf16, valid=2x2>
// CHECK-NEXT: %tgather = pto.tgather %v, %i : (!pto.tile<8x8xf16, valid=4x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xf16, valid=2x2>
// GENERIC: %tgather = "pto.tgather"(%v, %i) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x8xf16, valid=4x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xf16, valid=2x2>
%s = "test.op"() : () -> !pto.tile<8x8xf16, valid=2x2>
// CHECK-NEXT: %s = "test.op"() : () -> !pto.tile<8x8xf16, valid=2x2>
%tscatter = pto.tscatter %s, %i : (!pto.tile<8x8xf16, valid=2x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xf16, valid=4x2>
// CHECK-NEXT: %tscatter = pto.tscatter %s, %i : (!pto.tile<8x8xf16, valid=2x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xf16, valid=4x2>
// GENERIC: %tscatter = "pto.tscatter"(%s, %i) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x8xf16, valid=2x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xf16, valid=4x2>
%f = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
// CHECK-NEXT: %f = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%w = "test.op"() : () -> i64
// CHECK-NEXT: %w = "test.op"() : () -> i64
%tfillpad = pto.tfillpad %f, %w : (!pto.tile<32x4xui8, valid=1x2>, i64) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK-NEXT: %tfillpad = pto.tfillpad %f, %w : (!pto.tile<32x4xui8, valid=1x2>, i64) -> !pto.tile<32x4xui8, valid=2x3>
// GENERIC: %tfillpad = "pto.tfillpad"(%f, %w) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1>}> : (!pto.tile<32x4xui8, valid=1x2>, i64) -> !pto.tile<32x4xui8, valid=2x3>
%tfillpadzero = pto.tfillpad %f {mask = #pto.mask<1111>} : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK-NEXT: %tfillpadzero = pto.tfillpad %f : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=2x3>
// GENERIC: %tfillpadzero = "pto.tfillpad"(%f) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 0>}> : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=2x3>
// TFILLPAD: the result as large as the source (every bound of TileOperandsLegal_TFILLPAD is >=)
%tfillpadsame = pto.tfillpad %f : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=1x2>
// CHECK-NEXT: %tfillpadsame = pto.tfillpad %f : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=1x2>
%e = "test.op"() : () -> !pto.tile<32x4xui8, valid=3x4>
// CHECK-NEXT: %e = "test.op"() : () -> !pto.tile<32x4xui8, valid=3x4>
%textract = pto.textract %e, %w, %w : (!pto.tile<32x4xui8, valid=3x4>, i64, i64) -> !pto.tile<32x4xui8, valid=2x2>
// CHECK-NEXT: %textract = pto.textract %e, %w, %w : (!pto.tile<32x4xui8, valid=3x4>, i64, i64) -> !pto.tile<32x4xui8, valid=2x2>
// GENERIC: %textract = "pto.textract"(%e, %w, %w) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 2>}> : (!pto.tile<32x4xui8, valid=3x4>, i64, i64) -> !pto.tile<32x4xui8, valid=2x2>
%textract0 = pto.textract %e : (!pto.tile<32x4xui8, valid=3x4>) -> !pto.tile<32x4xui8, valid=2x2>
// CHECK-NEXT: %textract0 = pto.textract %e : (!pto.tile<32x4xui8, valid=3x4>) -> !pto.tile<32x4xui8, valid=2x2>
%o = "test.op"() : () -> !pto.tile<32x4xui8, valid=2x3>
// CHECK-NEXT: %o = "test.op"() : () -> !pto.tile<32x4xui8, valid=2x3>
%x = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
// CHECK-NEXT: %x = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%tinsert = pto.tinsert %o, %x, %w, %w {mask = #pto.mask<1111>} : (!pto.tile<32x4xui8, valid=2x3>, !pto.tile<128x1xui8, valid=1x1>, i64, i64) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK-NEXT: %tinsert = pto.tinsert %o, %x, %w, %w : (!pto.tile<32x4xui8, valid=2x3>, !pto.tile<128x1xui8, valid=1x1>, i64, i64) -> !pto.tile<32x4xui8, valid=2x3>
// GENERIC: %tinsert = "pto.tinsert"(%o, %x, %w, %w) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 2, 2>}> : (!pto.tile<32x4xui8, valid=2x3>, !pto.tile<128x1xui8, valid=1x1>, i64, i64) -> !pto.tile<32x4xui8, valid=2x3>
%ml = "test.op"() : () -> !pto.tile<16x2xf32, valid=1x2>
// CHECK-NEXT: %ml = "test.op"() : () -> !pto.tile<16x2xf32, valid=1x2>
%tmrgsort = pto.tmrgsort %ml, %ml, %w : (!pto.tile<16x2xf32, valid=1x2>, !pto.tile<16x2xf32, valid=1x2>, i64) -> !pto.tile<8x4xf32, valid=1x4>
// CHECK-NEXT: %tmrgsort = pto.tmrgsort %ml, %ml, %w : (!pto.tile<16x2xf32, valid=1x2>, !pto.tile<16x2xf32, valid=1x2>, i64) -> !pto.tile<8x4xf32, valid=1x4>
// GENERIC: %tmrgsort = "pto.tmrgsort"(%ml, %ml, %w) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 2, 1>}> : (!pto.tile<16x2xf32, valid=1x2>, !pto.tile<16x2xf32, valid=1x2>, i64) -> !pto.tile<8x4xf32, valid=1x4>
%tmrgsortasc = pto.tmrgsort %ml, %ml : (!pto.tile<16x2xf32, valid=1x2>, !pto.tile<16x2xf32, valid=1x2>) -> !pto.tile<8x4xf32, valid=1x4>
// CHECK-NEXT: %tmrgsortasc = pto.tmrgsort %ml, %ml : (!pto.tile<16x2xf32, valid=1x2>, !pto.tile<16x2xf32, valid=1x2>) -> !pto.tile<8x4xf32, valid=1x4>
%hs = "test.op"() : () -> !pto.tile<16x4xui16, valid=1x4>
// CHECK-NEXT: %hs = "test.op"() : () -> !pto.tile<16x4xui16, valid=1x4>
%hf = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
// CHECK-NEXT: %hf = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%thistogram = pto.thistogram %hs, %hf {byte_id = 1 : i64} : (!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x256xui32>
// CHECK-NEXT: %thistogram = pto.thistogram %hs, %hf {byte_id = 1 : i64} : (!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x256xui32>
// GENERIC: %thistogram = "pto.thistogram"(%hs, %hf) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, byte_id = 1 : i64}> : (!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x256xui32>
%thistogram0 = pto.thistogram %hs, %hf {byte_id = 0 : i64} : (!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x256xui32>
// CHECK-NEXT: %thistogram0 = pto.thistogram %hs, %hf : (!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x256xui32>
// One-row and one-column gathers and scatters are legal (only a zero extent is not).
%i1 = "test.op"() : () -> !pto.tile<4x8xui32, valid=1x1>
// CHECK-NEXT: %i1 = "test.op"() : () -> !pto.tile<4x8xui32, valid=1x1>
%tgather1 = pto.tgather %v, %i1 : (!pto.tile<8x8xf16, valid=4x2>, !pto.tile<4x8xui32, valid=1x1>) -> !pto.tile<8x8xf16, valid=1x1>
// CHECK-NEXT: %tgather1 = pto.tgather %v, %i1 : (!pto.tile<8x8xf16, valid=4x2>, !pto.tile<4x8xui32, valid=1x1>) -> !pto.tile<8x8xf16, valid=1x1>
%s1 = "test.op"() : () -> !pto.tile<8x8xf16, valid=1x1>
// CHECK-NEXT: %s1 = "test.op"() : () -> !pto.tile<8x8xf16, valid=1x1>
%tscatter1 = pto.tscatter %s1, %i1 : (!pto.tile<8x8xf16, valid=1x1>, !pto.tile<4x8xui32, valid=1x1>) -> !pto.tile<8x8xf16, valid=4x1>
// CHECK-NEXT: %tscatter1 = pto.tscatter %s1, %i1 : (!pto.tile<8x8xf16, valid=1x1>, !pto.tile<4x8xui32, valid=1x1>) -> !pto.tile<8x8xf16, valid=4x1>
// CHECK-NEXT: }
