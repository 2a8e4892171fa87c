// Static legality of TSORT (TileOperandsLegal_TSORT) and TMOV (TileOperandsLegal_TMOV =
// TileShapeAndTypeMatch): one negative test per rule, each with its exact diagnostic.
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// TSORT: FP32 or FP16 values only (TileSortDataTypeSupported; AVS TSORT-TYPES-001 rejects BF16)
%s = "test.op"() : () -> !pto.tile<16x4xbf16, valid=1x4>
%d, %i = pto.tsort %s : (!pto.tile<16x4xbf16, valid=1x4>) -> (!pto.tile<16x4xbf16, valid=1x4>, !pto.tile<16x4xui32, valid=1x4>)
// CHECK: {{^}}'pto.tsort' op [TileLegality] src: element type bf16 is not supported (allowed: FP16, FP32) (TileSortDataTypeSupported, asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// TSORT: the value destination has the source's type
%s = "test.op"() : () -> !pto.tile<8x4xf32, valid=1x4>
%d, %i = pto.tsort %s : (!pto.tile<8x4xf32, valid=1x4>) -> (!pto.tile<16x4xf16, valid=1x4>, !pto.tile<8x4xui32, valid=1x4>)
// CHECK: {{^}}'pto.tsort' op [TileLegality] result: element type f16 must be f32 (src's type) (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// TSORT: the index destination is U32 (AVS TSORT-LEGALITY-001)
%s = "test.op"() : () -> !pto.tile<8x4xf32, valid=1x4>
%d, %i = pto.tsort %s : (!pto.tile<8x4xf32, valid=1x4>) -> (!pto.tile<8x4xf32, valid=1x4>, !pto.tile<8x4xf32, valid=1x4>)
// CHECK: {{^}}'pto.tsort' op [TileLegality] indices: element type f32 must be ui32 (U32 original indices) (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// TSORT: both destinations have the source's physical shape (TileLogicalShapeMatch; AVS
// TSORT-SHAPE-001: equal element counts are not enough)
%s = "test.op"() : () -> !pto.tile<8x4xf32, valid=2x2>
%d, %i = pto.tsort %s : (!pto.tile<8x4xf32, valid=2x2>) -> (!pto.tile<4x8xf32, valid=2x2>, !pto.tile<8x4xui32, valid=2x2>)
// CHECK: {{^}}'pto.tsort' op [TileLegality] result: physical shape 4x8 must be 8x4 (src's, TileLogicalShapeMatch) (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// TSORT: ... and its valid shape
%s = "test.op"() : () -> !pto.tile<8x4xf32, valid=2x2>
%d, %i = pto.tsort %s : (!pto.tile<8x4xf32, valid=2x2>) -> (!pto.tile<8x4xf32, valid=1x4>, !pto.tile<8x4xui32, valid=2x2>)
// CHECK: {{^}}'pto.tsort' op [TileLegality] result: valid shape 1x4 must be 2x2 (src's, TileLogicalShapeMatch) (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// TSORT: the index destination too
%s = "test.op"() : () -> !pto.tile<8x4xf32, valid=2x2>
%d, %i = pto.tsort %s : (!pto.tile<8x4xf32, valid=2x2>) -> (!pto.tile<8x4xf32, valid=2x2>, !pto.tile<8x4xui32, valid=2x1>)
// CHECK: {{^}}'pto.tsort' op [TileLegality] indices: valid shape 2x1 must be 2x2 (src's, TileLogicalShapeMatch) (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// TSORT: the sort width is 1..64 (InstructionContractOperandsLegal_TSORT)
%s = "test.op"() : () -> !pto.tile<8x4xf32, valid=1x4>
%d, %i = pto.tsort %s {sort_width = 65 : i64} : (!pto.tile<8x4xf32, valid=1x4>) -> (!pto.tile<8x4xf32, valid=1x4>, !pto.tile<8x4xui32, valid=1x4>)
// CHECK: {{^}}'pto.tsort' op [TileLegality] sort_width: 65 is outside 1..64 (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// TSORT: every tile row-major
%s = "test.op"() : () -> !pto.tile<8x4xf32, valid=1x4>
%d, %i = pto.tsort %s : (!pto.tile<8x4xf32, valid=1x4>) -> (!pto.tile<8x4xf32, valid=1x4>, !pto.tile<8x4xui32, valid=1x4, col_major>)
// CHECK: {{^}}'pto.tsort' op [TileLegality] indices: layout col_major must be row_major (PTO-SPEC 2, D10, asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// TSORT: the direction flag is an i64 GPR word
%s = "test.op"() : () -> !pto.tile<8x4xf32, valid=1x4>
%f = "test.op"() : () -> i32
%d, %i = pto.tsort %s, %f : (!pto.tile<8x4xf32, valid=1x4>, i32) -> (!pto.tile<8x4xf32, valid=1x4>, !pto.tile<8x4xui32, valid=1x4>)
// CHECK: {{^}}'pto.tsort' op [TileLegality] descending must be i64 (a GPR word), got i32 (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// TSORT: two results (values, indices)
%s = "test.op"() : () -> !pto.tile<8x4xf32, valid=1x4>
%d = pto.tsort %s : (!pto.tile<8x4xf32, valid=1x4>) -> !pto.tile<8x4xf32, valid=1x4>
// CHECK: pto.tsort takes 1 operand type(s) and 2 result type(s)

// -----

// TMOV: Local tiles only (the Shared forms are not modelled)
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2, shared>
%d = pto.tmov %s : (!pto.tile<32x4xui8, valid=1x2, shared>) -> !pto.tile<32x4xui8, valid=1x2, shared>
// CHECK: {{^}}'pto.tmov' op [TileLegality] src: Local TMOV moves Local tiles, got shared; the Shared TMOV forms (BSTART.TMOV Functions 9 INSERT, 10 PUBLISH, 11 BROADCAST, 12 EXTRACT) read or write Shared registers Sx, their allocation mask, initialized quarters and publication flag (asl/tile/model/state/shared-registers.asl), which SSA tiles and linked blocks cannot name; they run on architectural state (interpreter.machine.shared_blocks.Core) (asl/tile/layout-and-rearrangement/layout/TMOV.asl){{$}}

// -----

// TMOV: one PE mask for both bindings
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2, pe=1100>
%d = pto.tmov %s : (!pto.tile<32x4xui8, valid=1x2, pe=1100>) -> !pto.tile<32x4xui8, valid=1x2, pe=1100>
// CHECK: {{^}}'pto.tmov' op [TileLegality] src: held by PEs 1100 but the op's mask is 1111; all bindings share one mask (PTO-SPEC 2, D13){{$}}

// -----

// TMOV: the destination has the source's element type (TileShapeAndTypeMatch)
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%d = pto.tmov %s : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xsi8, valid=1x2>
// CHECK: {{^}}'pto.tmov' op [TileLegality] result: element type si8 must be ui8 (src's, TileShapeAndTypeMatch) (asl/tile/layout-and-rearrangement/layout/TMOV.asl){{$}}

// -----

// TMOV: ... its physical shape
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%d = pto.tmov %s : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<16x8xui8, valid=1x2>
// CHECK: {{^}}'pto.tmov' op [TileLegality] result: physical shape 16x8 must be 32x4 (src's, TileShapeAndTypeMatch) (asl/tile/layout-and-rearrangement/layout/TMOV.asl){{$}}

// -----

// TMOV: ... its valid shape
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%d = pto.tmov %s : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=2x2>
// CHECK: {{^}}'pto.tmov' op [TileLegality] result: valid shape 2x2 must be 1x2 (src's, TileShapeAndTypeMatch) (asl/tile/layout-and-rearrangement/layout/TMOV.asl){{$}}

// -----

// TMOV: ... and its layout
%s = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%d = pto.tmov %s : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=1x2, col_major>
// CHECK: {{^}}'pto.tmov' op [TileLegality] result: layout col_major must be row_major (src's, TileShapeAndTypeMatch) (asl/tile/layout-and-rearrangement/layout/TMOV.asl){{$}}
