// Static legality of the global-memory TLSU operations (pto_dialect/gm_indexed.py; D25,
// docs/gm-indexed.md): one negative test per rule, each with its exact diagnostic.
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// MGATHER: the GM operand is a 1-D i8 tensor (GM bytes)
%gm = "test.op"() : () -> tensor<64x64xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%r0 = pto.mgather %gm, %b, %idx : (tensor<64x64xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK: {{^}}'pto.mgather' op [TileLegality] gm must be a 1-D tensor of i8 (GM bytes), got tensor<64x64xi8> (docs/gm-indexed.md){{$}}

// -----

// MGATHER: the base is an index (the B.IOR base GPR)
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> i64
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%r0 = pto.mgather %gm, %b, %idx : (tensor<4096xi8>, i64, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK: {{^}}'pto.mgather' op [TileLegality] base must be an index (the B.IOR base GPR), got i64 (docs/gm-indexed.md){{$}}

// -----

// MGATHER: no packed 4-bit transfer type (no nibble selector; AVS BLOCK-MGATHER-SCHEMA-001)
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%r0 = pto.mgather %gm, %b, %idx : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x4xui4, valid=1x2>
// CHECK: {{^}}'pto.mgather' op [TileLegality] result: packed 4-bit transfer type U4X2 has no nibble selector (IndexedTLSUTransferDataTypeLegal) (asl/tile/memory-and-data-movement/irregular/MGATHER.asl){{$}}

// -----

// MGATHER: no CUBE layout (an indexed block has no CUBE conversion)
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=2x2>
%r0 = pto.mgather %gm, %b, %idx : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=2x2>) -> !pto.tile<16x16xf16, valid=2x2, cube_m16, mat>
// CHECK: {{^}}'pto.mgather' op [TileLegality] result: an indexed TLSU block has no CUBE layout, got cube_m16 (asl/tile/memory-and-data-movement/irregular/MGATHER.asl){{$}}

// -----

// MGATHER: the index tile is an integer tile (AVS BLOCK-MGATHER-SCHEMA-001: FP32 index)
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xf32, valid=1x2>
%r0 = pto.mgather %gm, %b, %idx : (tensor<4096xi8>, index, !pto.tile<8x4xf32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK: {{^}}'pto.mgather' op [TileLegality] index: element type FP32 is not an integer type (IndexedTLSUIndexDataTypeLegal, D25) (asl/tile/memory-and-data-movement/irregular/MGATHER.asl){{$}}

// -----

// MGATHER: the index valid shape is the destination's
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=2x2>
%r0 = pto.mgather %gm, %b, %idx : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=2x2>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK: {{^}}'pto.mgather' op [TileLegality] index: valid shape 2x2 must be result's 1x2 (asl/tile/memory-and-data-movement/irregular/MGATHER.asl){{$}}

// -----

// MGATHER: every source is held by every PE of the mask (D13)
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2, pe=1000>
%r0 = pto.mgather %gm, %b, %idx : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2, pe=1000>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK: {{^}}'pto.mgather' op [TileLegality] index: held by PEs 1000, not by every PE of the mask 1111 (PTO-SPEC 2, D13){{$}}

// -----

// MGATHER: Local tiles only (B.IOS is illegal)
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2, shared>
%r0 = pto.mgather %gm, %b, %idx : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2, shared>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK: {{^}}'pto.mgather' op [TileLegality] index: the indexed TLSU operations bind Local tiles only (B.IOS is illegal) (asl/tile/memory-and-data-movement/irregular/MGATHER.asl){{$}}

// -----

// MGATHER_MASK: the mask is a !pto.pred tile (AVS BLOCK-MGATHER-MASK-PRED-001)
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%m = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%r0 = pto.mgather_mask %gm, %b, %idx, %m : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK: {{^}}'pto.mgather_mask' op [TileLegality] mask must be a !pto.pred predicate tile (TilePredicateValuesLegal), got !pto.tile<32x4xui8, valid=1x2> (asl/tile/memory-and-data-movement/irregular/MGATHER_MASK.asl){{$}}

// -----

// MGATHER_MASK: the mask's valid shape is the destination's
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%m = "test.op"() : () -> !pto.pred<1x4, valid=1x3>
%r0 = pto.mgather_mask %gm, %b, %idx, %m : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.pred<1x4, valid=1x3>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK: {{^}}'pto.mgather_mask' op [TileLegality] mask: valid shape 1x3 must be result's 1x2 (asl/tile/memory-and-data-movement/irregular/MGATHER_MASK.asl){{$}}

// -----

// MGATHER_MASK: the index tile has the destination's layout
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<4x8xsi32, valid=1x2, col_major>
%m = "test.op"() : () -> !pto.pred<1x4, valid=1x2>
%r0 = pto.mgather_mask %gm, %b, %idx, %m : (tensor<4096xi8>, index, !pto.tile<4x8xsi32, valid=1x2, col_major>, !pto.pred<1x4, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>
// CHECK: {{^}}'pto.mgather_mask' op [TileLegality] index: layout col_major must be result's row_major (asl/tile/memory-and-data-movement/irregular/MGATHER_MASK.asl){{$}}

// -----

// MGATHER_CAS: the expected tile has the transfer type
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%e = "test.op"() : () -> !pto.tile<32x2xui16, valid=1x2>
%r = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%r0, %r1 = pto.mgather_cas %gm, %b, %idx, %e, %r : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.tile<32x2xui16, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>) -> (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>)
// CHECK: {{^}}'pto.mgather_cas' op [TileLegality] expected: element type U16 must be the transfer type U8 (asl/tile/memory-and-data-movement/irregular/MGATHER_CAS.asl){{$}}

// -----

// MGATHER_CAS: the replacement tile has the transfer type
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%e = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%r = "test.op"() : () -> !pto.tile<64x2xsi8, valid=1x2>
%r0, %r1 = pto.mgather_cas %gm, %b, %idx, %e, %r : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>, !pto.tile<64x2xsi8, valid=1x2>) -> (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>)
// CHECK: {{^}}'pto.mgather_cas' op [TileLegality] replacement: element type S8 must be the transfer type U8 (asl/tile/memory-and-data-movement/irregular/MGATHER_CAS.asl){{$}}

// -----

// MGATHER_CAS: the updated GM has the GM operand's type
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%e = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%r = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%r0, %r1 = pto.mgather_cas %gm, %b, %idx, %e, %r : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>) -> (!pto.tile<64x2xui8, valid=1x2>, tensor<2048xi8>)
// CHECK: {{^}}'pto.mgather_cas' op [TileLegality] the updated GM result must have the gm operand's type (docs/gm-indexed.md){{$}}

// -----

// MSCATTER: the data tile is a !pto.tile
%v = "test.op"() : () -> !pto.pred<1x4, valid=1x2>
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%r0 = pto.mscatter %v, %gm, %b, %idx : (!pto.pred<1x4, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> tensor<4096xi8>
// CHECK: {{^}}'pto.mscatter' op [TileLegality] data must be a !pto.tile, got !pto.pred<1x4, valid=1x2> (asl/tile/memory-and-data-movement/irregular/MSCATTER.asl){{$}}

// -----

// MSCATTER: no packed 4-bit data (AVS BLOCK-MSCATTER-PACKED-001)
%v = "test.op"() : () -> !pto.tile<64x4xui4, valid=1x2>
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%r0 = pto.mscatter %v, %gm, %b, %idx : (!pto.tile<64x4xui4, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> tensor<4096xi8>
// CHECK: {{^}}'pto.mscatter' op [TileLegality] data: packed 4-bit transfer type U4X2 has no nibble selector (IndexedTLSUTransferDataTypeLegal) (asl/tile/memory-and-data-movement/irregular/MSCATTER.asl){{$}}

// -----

// MSCATTER: the index tile has the data tile's layout
%v = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<4x8xsi32, valid=1x2, col_major>
%r0 = pto.mscatter %v, %gm, %b, %idx : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<4x8xsi32, valid=1x2, col_major>) -> tensor<4096xi8>
// CHECK: {{^}}'pto.mscatter' op [TileLegality] index: layout col_major must be data's row_major (asl/tile/memory-and-data-movement/irregular/MSCATTER.asl){{$}}

// -----

// MSCATTER: the index valid shape is the data tile's
%v = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x1>
%r0 = pto.mscatter %v, %gm, %b, %idx : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x1>) -> tensor<4096xi8>
// CHECK: {{^}}'pto.mscatter' op [TileLegality] index: valid shape 1x1 must be data's 1x2 (asl/tile/memory-and-data-movement/irregular/MSCATTER.asl){{$}}

// -----

// MSCATTER: the index tile is an integer tile (AVS BLOCK-MSCATTER-SCHEMA-001)
%v = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xf32, valid=1x2>
%r0 = pto.mscatter %v, %gm, %b, %idx : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xf32, valid=1x2>) -> tensor<4096xi8>
// CHECK: {{^}}'pto.mscatter' op [TileLegality] index: element type FP32 is not an integer type (IndexedTLSUIndexDataTypeLegal, D25) (asl/tile/memory-and-data-movement/irregular/MSCATTER.asl){{$}}

// -----

// MSCATTER_MASK: the mask is a !pto.pred tile (AVS BLOCK-MSCATTER-MASK-PRED-001)
%v = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%m = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%r0 = pto.mscatter_mask %v, %gm, %b, %idx, %m : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.tile<64x2xui8, valid=1x2>) -> tensor<4096xi8>
// CHECK: {{^}}'pto.mscatter_mask' op [TileLegality] mask must be a !pto.pred predicate tile (TilePredicateValuesLegal), got !pto.tile<64x2xui8, valid=1x2> (asl/tile/memory-and-data-movement/irregular/MSCATTER_MASK.asl){{$}}

// -----

// MSCATTER_MASK: the mask is held by every PE of the mask
%v = "test.op"() : () -> !pto.tile<64x2xui8, valid=1x2>
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%idx = "test.op"() : () -> !pto.tile<8x4xsi32, valid=1x2>
%m = "test.op"() : () -> !pto.pred<1x4, valid=1x2, pe=0001>
%r0 = pto.mscatter_mask %v, %gm, %b, %idx, %m : (!pto.tile<64x2xui8, valid=1x2>, tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>, !pto.pred<1x4, valid=1x2, pe=0001>) -> tensor<4096xi8>
// CHECK: {{^}}'pto.mscatter_mask' op [TileLegality] mask: held by PEs 0001, not by every PE of the mask 1111 (PTO-SPEC 2, D13){{$}}

// -----

// TPREFETCH: the footprint is a !pto.tile type
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%s = "test.op"() : () -> index
pto.tprefetch %gm, %b, %s {footprint = i32} : (tensor<4096xi8>, index, index) -> ()
// CHECK: {{^}}'pto.tprefetch' op [TileLegality] footprint must be a !pto.tile type, got i32 (asl/tile/memory-and-data-movement/regular/TPREFETCH.asl){{$}}

// -----

// TPREFETCH: the footprint is a non-CUBE tile (the TLOAD footprint)
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%s = "test.op"() : () -> index
pto.tprefetch %gm, %b, %s {footprint = !pto.tile<16x16xf16, valid=2x2, cube_m16, mat>} : (tensor<4096xi8>, index, index) -> ()
// CHECK: {{^}}'pto.tprefetch' op [TileLegality] footprint: TPREFETCH takes the TLOAD footprint of a non-CUBE tile, got cube_m16 (asl/tile/memory-and-data-movement/regular/TPREFETCH.asl){{$}}

// -----

// TPREFETCH: the GM operand is a 1-D i8 tensor
%gm = "test.op"() : () -> tensor<4096xf32>
%b = "test.op"() : () -> index
%s = "test.op"() : () -> index
pto.tprefetch %gm, %b, %s {footprint = !pto.tile<64x2xui16, valid=2x2>} : (tensor<4096xf32>, index, index) -> ()
// CHECK: {{^}}'pto.tprefetch' op [TileLegality] gm must be a 1-D tensor of i8 (GM bytes), got tensor<4096xf32> (docs/gm-indexed.md){{$}}

// -----

// TPREFETCH: at most 32-bit carriers or 4-bit types (AVS TILE-STAGE4-CARRIER-TYPES-001: no FP64)
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%s = "test.op"() : () -> index
pto.tprefetch %gm, %b, %s {footprint = !pto.tile<16x8xf64, valid=2x2>} : (tensor<4096xi8>, index, index) -> ()
// CHECK: {{^}}'pto.tprefetch' op [TileLegality] footprint: element type FP64 is not supported (TileCarrierOrPackedBaselineDataTypeSupported: at most 32-bit carriers or 4-bit) (asl/tile/memory-and-data-movement/regular/TPREFETCH.asl){{$}}

// -----

// TPREFETCH: the row stride is an index (elements)
%gm = "test.op"() : () -> tensor<4096xi8>
%b = "test.op"() : () -> index
%s = "test.op"() : () -> i64
pto.tprefetch %gm, %b, %s {footprint = !pto.tile<64x2xui16, valid=2x2>} : (tensor<4096xi8>, index, i64) -> ()
// CHECK: {{^}}'pto.tprefetch' op [TileLegality] row_stride must be an index (elements) (docs/gm-indexed.md){{$}}

// -----

// GMOV: at most 32-bit carriers or 4-bit types (AVS TILE-STAGE4-CARRIER-TYPES-001: no FP64)
%s = "test.op"() : () -> !pto.tile<16x1xf64, valid=1x1>
%r0 = pto.gmov %s {peers = array<i64: 0, 0, 0, 0>} : (!pto.tile<16x1xf64, valid=1x1>) -> !pto.tile<16x1xf64, valid=1x1>
// CHECK: {{^}}'pto.gmov' op [TileLegality] src: element type FP64 is not supported (TileCarrierOrPackedBaselineDataTypeSupported: at most 32-bit carriers or 4-bit) (asl/tile/memory-and-data-movement/pe-movement/GMOV.asl){{$}}

// -----

// GMOV: four peer_tids 0..3 (AVS BLOCK-GMOV-PEER-001)
%s = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%r0 = pto.gmov %s {peers = array<i64: 0, 4, 1, 2>} : (!pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<128x1xui8, valid=1x1>
// CHECK: {{^}}'pto.gmov' op [TileLegality] peers must be four PE numbers 0..3 (each PE's peer_tid), got [0, 4, 1, 2] (asl/tile/memory-and-data-movement/pe-movement/GMOV.asl){{$}}

// -----

// GMOV: the source is ready on all four PEs (AVS BLOCK-GMOV-READINESS-001)
%s = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1, pe=1110>
%r0 = pto.gmov %s {peers = array<i64: 0, 0, 0, 0>} : (!pto.tile<128x1xui8, valid=1x1, pe=1110>) -> !pto.tile<128x1xui8, valid=1x1, pe=1000>
// CHECK: {{^}}'pto.gmov' op [TileLegality] src: held by PEs 1110; GMOV needs a source ready on all four PEs (BundleGMOVCore4SourceReady) (asl/tile/memory-and-data-movement/pe-movement/GMOV.asl){{$}}

// -----

// GMOV: the destination has the source's type
%s = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%r0 = pto.gmov %s {peers = array<i64: 0, 0, 0, 0>} : (!pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<128x1xsi8, valid=1x1>
// CHECK: {{^}}'pto.gmov' op [TileLegality] result: element type S8 must be src's U8 (asl/tile/memory-and-data-movement/pe-movement/GMOV.asl){{$}}

// -----

// GMOV: the destination has the source's capacity (TSize)
%s = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1>
%r0 = pto.gmov %s {peers = array<i64: 0, 0, 0, 0>} : (!pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<256x1xui8, valid=1x1>
// CHECK: {{^}}'pto.gmov' op [TileLegality] result: physical shape 256x1 must be src's 128x1 (asl/tile/memory-and-data-movement/pe-movement/GMOV.asl){{$}}

// -----

// GMOV: Local tiles only
%s = "test.op"() : () -> !pto.tile<128x1xui8, valid=1x1, shared>
%r0 = pto.gmov %s {peers = array<i64: 0, 0, 0, 0>} : (!pto.tile<128x1xui8, valid=1x1, shared>) -> !pto.tile<128x1xui8, valid=1x1>
// CHECK: {{^}}'pto.gmov' op [TileLegality] src: GMOV moves Local tiles (asl/tile/memory-and-data-movement/pe-movement/GMOV.asl){{$}}
