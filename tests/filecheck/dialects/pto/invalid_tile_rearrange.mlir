// Static legality of the irregular tile-local rearrangements (pto_dialect/tile_rearrange.py;
// asl/tile/model/legality/indexed-rearrangement.asl, layout-rearrangement.asl; D16): one
// negative case per rule.
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// TGATHER: value types are IndexedTLSUTransferDataTypeLegal (no packed four-bit type)
%v = "test.op"() : () -> !pto.tile<16x16xui4, valid=4x2>
%i = "test.op"() : () -> !pto.tile<4x8xui32, valid=2x2>
%d = pto.tgather %v, %i : (!pto.tile<16x16xui4, valid=4x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<16x16xui4, valid=2x2>
// CHECK: {{^}}'pto.tgather' op [TileLegality] src: element type ui4 is not supported (allowed: BF16, E2M3, E3M2, E4M3, E5M2, E8M0, FP16, FP32, FP64, HF32, HIF8, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (IndexedTLSUTransferDataTypeLegal, asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// TGATHER: the index type is S16 U16 S32 U32 S64 U64 (AVS TGATHER-TYPES-001 rejects S8)
%v = "test.op"() : () -> !pto.tile<8x8xf16, valid=4x2>
%i = "test.op"() : () -> !pto.tile<16x8xsi8, valid=2x2>
%d = pto.tgather %v, %i : (!pto.tile<8x8xf16, valid=4x2>, !pto.tile<16x8xsi8, valid=2x2>) -> !pto.tile<8x8xf16, valid=2x2>
// CHECK: {{^}}'pto.tgather' op [TileLegality] index: element type si8 is not a row-index type (allowed: S16, S32, S64, U16, U32, U64) (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// TGATHER: the result has the value source's type
%v = "test.op"() : () -> !pto.tile<8x8xf16, valid=4x2>
%i = "test.op"() : () -> !pto.tile<4x8xui32, valid=2x2>
%d = pto.tgather %v, %i : (!pto.tile<8x8xf16, valid=4x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xsi16, valid=2x2>
// CHECK: {{^}}'pto.tgather' op [TileLegality] result: element type si16 must be f16 (src's type) (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// TGATHER: the index tile's valid shape is the result's
%v = "test.op"() : () -> !pto.tile<8x8xf16, valid=4x2>
%i = "test.op"() : () -> !pto.tile<4x8xui32, valid=1x2>
%d = pto.tgather %v, %i : (!pto.tile<8x8xf16, valid=4x2>, !pto.tile<4x8xui32, valid=1x2>) -> !pto.tile<8x8xf16, valid=2x2>
// CHECK: {{^}}'pto.tgather' op [TileLegality] index: valid shape 1x2 must be 2x2 (the result's) (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// TGATHER: the source has at least the result's valid columns
%v = "test.op"() : () -> !pto.tile<8x8xf16, valid=4x1>
%i = "test.op"() : () -> !pto.tile<4x8xui32, valid=2x2>
%d = pto.tgather %v, %i : (!pto.tile<8x8xf16, valid=4x1>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xf16, valid=2x2>
// CHECK: {{^}}'pto.tgather' op [TileLegality] src: valid columns 1 are fewer than the result's 2 (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// TGATHER: B.DATR PadValue must be zero (catalog pad_union must-zero; Null padding)
%v = "test.op"() : () -> !pto.tile<8x8xf16, valid=4x2>
%i = "test.op"() : () -> !pto.tile<4x8xui32, valid=2x2>
%d = pto.tgather %v, %i {pad = #pto.pad<zero>} : (!pto.tile<8x8xf16, valid=4x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xf16, valid=2x2>
// CHECK: {{^}}'pto.tgather' op [TileLegality] pad: TGATHER takes no PadValue (B.DATR PadValue must be zero) (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// TSCATTER: the index tile's valid shape is the source's
%s = "test.op"() : () -> !pto.tile<8x8xf16, valid=2x2>
%i = "test.op"() : () -> !pto.tile<4x8xui32, valid=2x1>
%d = pto.tscatter %s, %i : (!pto.tile<8x8xf16, valid=2x2>, !pto.tile<4x8xui32, valid=2x1>) -> !pto.tile<8x8xf16, valid=4x2>
// CHECK: {{^}}'pto.tscatter' op [TileLegality] index: valid shape 2x1 must be 2x2 (the src's) (asl/tile/irregular-and-complex/layout/TSCATTER.asl){{$}}

// -----

// TSCATTER: the result's valid columns are the source's
%s = "test.op"() : () -> !pto.tile<8x8xf16, valid=2x2>
%i = "test.op"() : () -> !pto.tile<4x8xui32, valid=2x2>
%d = pto.tscatter %s, %i : (!pto.tile<8x8xf16, valid=2x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xf16, valid=4x3>
// CHECK: {{^}}'pto.tscatter' op [TileLegality] result: valid columns 3 must be 2 (the source's) (asl/tile/irregular-and-complex/layout/TSCATTER.asl){{$}}

// -----

// TSCATTER: the result has the source's type
%s = "test.op"() : () -> !pto.tile<8x8xf16, valid=2x2>
%i = "test.op"() : () -> !pto.tile<4x8xui32, valid=2x2>
%d = pto.tscatter %s, %i : (!pto.tile<8x8xf16, valid=2x2>, !pto.tile<4x8xui32, valid=2x2>) -> !pto.tile<8x8xbf16, valid=4x2>
// CHECK: {{^}}'pto.tscatter' op [TileLegality] result: element type bf16 must be f16 (src's type) (asl/tile/irregular-and-complex/layout/TSCATTER.asl){{$}}

// -----

// TFILLPAD: at most one parameter (the padding word)
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%w = "test.op"() : () -> i64
%d = pto.tfillpad %s, %w, %w : (!pto.tile<32x4xui8, valid=1x2>, i64, i64) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK: {{^}}'pto.tfillpad' op [TileLegality] operands: pto.tfillpad takes no parameter or 1 i64 (padding), got 2 (asl/tile/layout-and-rearrangement/initialization/TFILLPAD.asl){{$}}

// -----

// TFILLPAD: the padding word is an i64 GPR value
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%w = "test.op"() : () -> i32
%d = pto.tfillpad %s, %w : (!pto.tile<32x4xui8, valid=1x2>, i32) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK: {{^}}'pto.tfillpad' op [TileLegality] padding must be i64 (a GPR word), got i32 (asl/tile/layout-and-rearrangement/initialization/TFILLPAD.asl){{$}}

// -----

// TFILLPAD: types of TileFillPadDataTypeSupported (E8M0 is not)
%s = "test.op"() : () -> !pto.tile<32x4xf8E8M0FNU, valid=1x2>
%d = pto.tfillpad %s : (!pto.tile<32x4xf8E8M0FNU, valid=1x2>) -> !pto.tile<32x4xf8E8M0FNU, valid=2x3>
// CHECK: {{^}}'pto.tfillpad' op [TileLegality] src: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (TileFillPadDataTypeSupported, asl/tile/layout-and-rearrangement/initialization/TFILLPAD.asl){{$}}

// -----

// TFILLPAD: the result has the source's type
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%d = pto.tfillpad %s : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xsi8, valid=2x3>
// CHECK: {{^}}'pto.tfillpad' op [TileLegality] result: element type si8 must be ui8 (src's type) (asl/tile/layout-and-rearrangement/initialization/TFILLPAD.asl){{$}}

// -----

// TFILLPAD: the result's physical rows are at least the source's
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%d = pto.tfillpad %s : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<16x8xui8, valid=2x3>
// CHECK: {{^}}'pto.tfillpad' op [TileLegality] result: physical rows 16 are fewer than the source's 32 (asl/tile/layout-and-rearrangement/initialization/TFILLPAD.asl){{$}}

// -----

// TFILLPAD: the result's physical columns are at least the source's
%s = "test.op"() : () -> !pto.tile<16x8xui8, valid=1x2>
%d = pto.tfillpad %s : (!pto.tile<16x8xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK: {{^}}'pto.tfillpad' op [TileLegality] result: physical columns 4 are fewer than the source's 8 (asl/tile/layout-and-rearrangement/initialization/TFILLPAD.asl){{$}}

// -----

// TFILLPAD: the result's valid rows are at least the source's
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=3x2>
%d = pto.tfillpad %s : (!pto.tile<32x4xui8, valid=3x2>) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK: {{^}}'pto.tfillpad' op [TileLegality] result: valid rows 2 are fewer than the source's 3 (asl/tile/layout-and-rearrangement/initialization/TFILLPAD.asl){{$}}

// -----

// TFILLPAD: the result's valid columns are at least the source's
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x4>
%d = pto.tfillpad %s : (!pto.tile<32x4xui8, valid=1x4>) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK: {{^}}'pto.tfillpad' op [TileLegality] result: valid columns 3 are fewer than the source's 4 (asl/tile/layout-and-rearrangement/initialization/TFILLPAD.asl){{$}}

// -----

// TEXTRACT: types of TileCarrierOrMove24BaselineDataTypeSupported (HiF4X2 is not)
%s = "test.op"() : () -> !pto.tile<16x16x!pto.hif4x2, valid=3x4>
%d = pto.textract %s : (!pto.tile<16x16x!pto.hif4x2, valid=3x4>) -> !pto.tile<16x16x!pto.hif4x2, valid=2x2>
// CHECK: {{^}}'pto.textract' op [TileLegality] src: element type !pto.hif4x2 is not supported (allowed: BF16, E1M2X2, E2M1X2, E2M3, E3M2, E4M3, E5M2, E8M0, FP16, FP32, FP64, HF32, HIF8, S16, S32, S4X2, S64, S8, TF32, U16, U32, U4X2, U64, U8) (TileCarrierOrMove24BaselineDataTypeSupported, asl/tile/layout-and-rearrangement/layout/TEXTRACT.asl){{$}}

// -----

// TEXTRACT: the result has the source's type
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=3x4>
%d = pto.textract %s : (!pto.tile<32x4xui8, valid=3x4>) -> !pto.tile<32x4xsi8, valid=2x2>
// CHECK: {{^}}'pto.textract' op [TileLegality] result: element type si8 must be ui8 (src's type) (asl/tile/layout-and-rearrangement/layout/TEXTRACT.asl){{$}}

// -----

// TEXTRACT: the offsets are i64 GPR values
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=3x4>
%r = "test.op"() : () -> i16
%d = pto.textract %s, %r, %r : (!pto.tile<32x4xui8, valid=3x4>, i16, i16) -> !pto.tile<32x4xui8, valid=2x2>
// CHECK: {{^}}'pto.textract' op [TileLegality] row_offset must be i64 (a GPR word), got i16 (asl/tile/layout-and-rearrangement/layout/TEXTRACT.asl){{$}}

// -----

// TINSERT: the result has the insertion source's type
%o = "test.op"() : () -> !pto.tile<32x4xui8, valid=2x3>
%s = "test.op"() : () -> !pto.tile<64x1xsi16, valid=1x1>
%d = pto.tinsert %o, %s : (!pto.tile<32x4xui8, valid=2x3>, !pto.tile<64x1xsi16, valid=1x1>) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK: {{^}}'pto.tinsert' op [TileLegality] src: element type si16 must be ui8 (old's type) (asl/tile/layout-and-rearrangement/layout/TINSERT.asl){{$}}

// -----

// TINSERT: the result has the old destination's physical shape (TileShapeAndTypeMatch)
%o = "test.op"() : () -> !pto.tile<32x4xui8, valid=2x3>
%s = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%d = pto.tinsert %o, %s : (!pto.tile<32x4xui8, valid=2x3>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<16x8xui8, valid=2x3>
// CHECK: {{^}}'pto.tinsert' op [TileLegality] result: physical shape 16x8 must be 32x4 (the old destination's) (asl/tile/layout-and-rearrangement/layout/TINSERT.asl){{$}}

// -----

// TINSERT: the result has the old destination's valid shape (TileShapeAndTypeMatch)
%o = "test.op"() : () -> !pto.tile<32x4xui8, valid=2x3>
%s = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%d = pto.tinsert %o, %s : (!pto.tile<32x4xui8, valid=2x3>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<32x4xui8, valid=2x4>
// CHECK: {{^}}'pto.tinsert' op [TileLegality] result: valid shape 2x4 must be 2x3 (the old destination's) (asl/tile/layout-and-rearrangement/layout/TINSERT.asl){{$}}

// -----

// TINSERT: no offset or both (two i64), never one
%o = "test.op"() : () -> !pto.tile<32x4xui8, valid=2x3>
%s = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%r = "test.op"() : () -> i64
%d = pto.tinsert %o, %s, %r : (!pto.tile<32x4xui8, valid=2x3>, !pto.tile<128x1xui8, valid=1x1>, i64) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK: {{^}}'pto.tinsert' op [TileLegality] operands: pto.tinsert takes no parameter or 2 i64 (row_offset, column_offset), got 1 (asl/tile/layout-and-rearrangement/layout/TINSERT.asl){{$}}

// -----

// TMRGSORT: FP32 or FP16 only (TileSortDataTypeSupported; AVS TMRGSORT-TYPES-001 rejects BF16)
%l = "test.op"() : () -> !pto.tile<32x2xbf16, valid=1x2>
%d = pto.tmrgsort %l, %l : (!pto.tile<32x2xbf16, valid=1x2>, !pto.tile<32x2xbf16, valid=1x2>) -> !pto.tile<16x4xbf16, valid=1x4>
// CHECK: {{^}}'pto.tmrgsort' op [TileLegality] left: element type bf16 is not supported (allowed: FP16, FP32) (TileSortDataTypeSupported, asl/tile/irregular-and-complex/sorting/TMRGSORT.asl){{$}}

// -----

// TMRGSORT: both sources and the result one element type
%l = "test.op"() : () -> !pto.tile<16x2xf32, valid=1x2>
%r = "test.op"() : () -> !pto.tile<32x2xf16, valid=1x2>
%d = pto.tmrgsort %l, %r : (!pto.tile<16x2xf32, valid=1x2>, !pto.tile<32x2xf16, valid=1x2>) -> !pto.tile<8x4xf32, valid=1x4>
// CHECK: {{^}}'pto.tmrgsort' op [TileLegality] right: element type f16 must be f32 (left's type) (asl/tile/irregular-and-complex/sorting/TMRGSORT.asl){{$}}

// -----

// TMRGSORT: single-row streams
%l = "test.op"() : () -> !pto.tile<16x2xf32, valid=2x2>
%d = pto.tmrgsort %l, %l : (!pto.tile<16x2xf32, valid=2x2>, !pto.tile<16x2xf32, valid=2x2>) -> !pto.tile<8x4xf32, valid=1x4>
// CHECK: {{^}}'pto.tmrgsort' op [TileLegality] left: valid rows 2 must be 1 (one sorted stream) (asl/tile/irregular-and-complex/sorting/TMRGSORT.asl){{$}}

// -----

// TMRGSORT: the result's valid columns are left's plus right's
%l = "test.op"() : () -> !pto.tile<16x2xf32, valid=1x2>
%d = pto.tmrgsort %l, %l : (!pto.tile<16x2xf32, valid=1x2>, !pto.tile<16x2xf32, valid=1x2>) -> !pto.tile<8x4xf32, valid=1x3>
// CHECK: {{^}}'pto.tmrgsort' op [TileLegality] result: valid columns 3 must be 4 (left's plus right's) (asl/tile/irregular-and-complex/sorting/TMRGSORT.asl){{$}}

// -----

// TMRGSORT: the result's physical Col is the smallest power of two covering them
%l = "test.op"() : () -> !pto.tile<16x2xf32, valid=1x2>
%d = pto.tmrgsort %l, %l : (!pto.tile<16x2xf32, valid=1x2>, !pto.tile<16x2xf32, valid=1x2>) -> !pto.tile<4x8xf32, valid=1x4>
// CHECK: {{^}}'pto.tmrgsort' op [TileLegality] result: physical Col 8 must be 4 (the smallest power of two covering them, SmallestTilePhysicalColumns) (asl/tile/irregular-and-complex/sorting/TMRGSORT.asl){{$}}

// -----

// TMRGSORT: the direction flag is an i64 GPR word
%l = "test.op"() : () -> !pto.tile<16x2xf32, valid=1x2>
%f = "test.op"() : () -> i1
%d = pto.tmrgsort %l, %l, %f : (!pto.tile<16x2xf32, valid=1x2>, !pto.tile<16x2xf32, valid=1x2>, i1) -> !pto.tile<8x4xf32, valid=1x4>
// CHECK: {{^}}'pto.tmrgsort' op [TileLegality] descending must be i64 (a GPR word), got i1 (asl/tile/irregular-and-complex/sorting/TMRGSORT.asl){{$}}

// -----

// THISTOGRAM: U16 or U32 sources (TileHistogramSelectedByteSupported)
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x4>
%f = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%d = pto.thistogram %s, %f : (!pto.tile<32x4xui8, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x256xui32>
// CHECK: {{^}}'pto.thistogram' op [TileLegality] src: element type ui8 is not supported (allowed: U16, U32) (TileHistogramSelectedByteSupported, asl/tile/irregular-and-complex/initialization/THISTOGRAM.asl){{$}}

// -----

// THISTOGRAM: U16 ByteId is 0 or 1 (AVS THISTOGRAM-SCHEMA-001 rejects 2)
%s = "test.op"() : () -> !pto.tile<16x4xui16, valid=1x4>
%f = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%d = pto.thistogram %s, %f {byte_id = 2 : i64} : (!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x256xui32>
// CHECK: {{^}}'pto.thistogram' op [TileLegality] byte_id: 2 is not a ByteId of U16 (U16: 0..1, U32: 0..3) (TileHistogramSelectedByteSupported, asl/tile/irregular-and-complex/initialization/THISTOGRAM.asl){{$}}

// -----

// THISTOGRAM: the filter is U8 (AVS THISTOGRAM-SCHEMA-001 rejects S8)
%s = "test.op"() : () -> !pto.tile<16x4xui16, valid=1x4>
%f = "test.op"() : () -> !pto.tile<128x1xsi8, valid=1x1>
%d = pto.thistogram %s, %f : (!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1xsi8, valid=1x1>) -> !pto.tile<1x256xui32>
// CHECK: {{^}}'pto.thistogram' op [TileLegality] filter: element type si8 must be ui8 (a U8 prefix filter) (asl/tile/irregular-and-complex/initialization/THISTOGRAM.asl){{$}}

// -----

// THISTOGRAM: U32 counts
%s = "test.op"() : () -> !pto.tile<16x4xui16, valid=1x4>
%f = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%d = pto.thistogram %s, %f : (!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x256xsi32>
// CHECK: {{^}}'pto.thistogram' op [TileLegality] result: element type si32 must be ui32 (U32 counts) (asl/tile/irregular-and-complex/initialization/THISTOGRAM.asl){{$}}

// -----

// THISTOGRAM: valid (source valid rows) x 256 (AVS THISTOGRAM-SCHEMA-001 rejects 257 columns)
%s = "test.op"() : () -> !pto.tile<16x4xui16, valid=1x4>
%f = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%d = pto.thistogram %s, %f : (!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x512xui32, valid=1x257>
// CHECK: {{^}}'pto.thistogram' op [TileLegality] result: valid shape 1x257 must be 1x256 (source valid rows x 256 bins) (asl/tile/irregular-and-complex/initialization/THISTOGRAM.asl){{$}}

// -----

// THISTOGRAM: physical Col 256 (the block's destination)
%s = "test.op"() : () -> !pto.tile<16x4xui16, valid=1x4>
%f = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%d = pto.thistogram %s, %f : (!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x512xui32, valid=1x256>
// CHECK: {{^}}'pto.thistogram' op [TileLegality] result: physical Col 512 must be 256 (the block's 256-column destination) (asl/tile/irregular-and-complex/initialization/THISTOGRAM.asl){{$}}

// -----

// THISTOGRAM: U32 ByteId0 reads filter rows 0..2 at column 0
%s = "test.op"() : () -> !pto.tile<8x4xui32, valid=1x4>
%f = "test.op"() : () -> !pto.tile<128x1xui8, valid=2x1>
%d = pto.thistogram %s, %f : (!pto.tile<8x4xui32, valid=1x4>, !pto.tile<128x1xui8, valid=2x1>) -> !pto.tile<1x256xui32>
// CHECK: {{^}}'pto.thistogram' op [TileLegality] filter: valid shape 2x1 lacks the 3 x 1 elements read at column 0 (TileHistogramInputsLegal) (asl/tile/irregular-and-complex/initialization/THISTOGRAM.asl){{$}}

// -----

// THISTOGRAM: U32 ByteId1 reads filter rows 0..1 at column 0 (two prefix bytes)
%s = "test.op"() : () -> !pto.tile<8x4xui32, valid=1x4>
%f = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%d = pto.thistogram %s, %f {byte_id = 1 : i64} : (!pto.tile<8x4xui32, valid=1x4>, !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x256xui32>
// CHECK: {{^}}'pto.thistogram' op [TileLegality] filter: valid shape 1x1 lacks the 2 x 1 elements read at column 0 (TileHistogramInputsLegal) (asl/tile/irregular-and-complex/initialization/THISTOGRAM.asl){{$}}
