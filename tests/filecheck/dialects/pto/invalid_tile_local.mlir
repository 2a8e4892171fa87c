// Static legality of the tile-local TEPL ops (reductions, expansions, TTRANS; D16): one
// negative case per rule of pto_dialect/tile_local.py (asl/tile/model/legality/
// reduction-and-expansion.asl, layout-rearrangement.asl; PTO-SPEC 2, D10, D13).
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// Operand count: TROWSUM takes one source
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = "pto.trowsum"(%s, %s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
// CHECK: {{^}}'pto.trowsum' op [TileLegality] operands: pto.trowsum takes 1 tile source(s) (src), got 2 (asl/tile/reduce-and-expand/row-reduction/TROWSUM.asl){{$}}

// -----

// Source type outside TileVecArithmeticDataTypeSupported: E8M0
%s = "test.op"() : () -> !pto.tile<8x16xf8E8M0FNU>
%d = pto.trowsum %s : (!pto.tile<8x16xf8E8M0FNU>) -> !pto.tile<128x1xf8E8M0FNU, valid=8x1>
// CHECK: {{^}}'pto.trowsum' op [TileLegality] src: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (TileVecArithmeticDataTypeSupported, asl/tile/reduce-and-expand/row-reduction/TROWSUM.asl){{$}}

// -----

// Arg reductions: source type outside TileArgReductionSourceDataTypeSupported (FP64)
%s = "test.op"() : () -> !pto.tile<4x4xf64>
%d = pto.trowargmax %s : (!pto.tile<4x4xf64>) -> !pto.tile<32x1xui32, valid=4x1>
// CHECK: {{^}}'pto.trowargmax' op [TileLegality] src: element type f64 is not supported (allowed: BF16, FP16, FP32, S16, S32, S8, U16, U32, U8) (TileArgReductionSourceDataTypeSupported, asl/tile/reduce-and-expand/row-reduction/TROWARGMAX.asl){{$}}

// -----

// Arg reductions: the index destination is S32 or U32 (AVS TROWARGMIN-SHAPE-001: S16 rejected)
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.trowargmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<64x1xsi16, valid=4x1>
// CHECK: {{^}}'pto.trowargmin' op [TileLegality] result: index element type si16 must be si32 or ui32 (asl/tile/reduce-and-expand/row-reduction/TROWARGMIN.asl){{$}}

// -----

// Reductions: destination type = source type
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.trowmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<64x1xf16, valid=4x1>
// CHECK: {{^}}'pto.trowmax' op [TileLegality] result: element type f16 must be f32 (the source's type) (asl/tile/reduce-and-expand/row-reduction/TROWMAX.asl){{$}}

// -----

// Row reduction: destination Col is 1
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.trowsum %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<16x2xf32, valid=4x1>
// CHECK: {{^}}'pto.trowsum' op [TileLegality] result: physical Col 2 must be 1 (one column per row) (asl/tile/reduce-and-expand/row-reduction/TROWSUM.asl){{$}}

// -----

// Row reduction: destination valid shape is VR x 1
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.trowsum %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=3x1>
// CHECK: {{^}}'pto.trowsum' op [TileLegality] result: valid shape 3x1 must be 4x1 (source valid rows x 1) (asl/tile/reduce-and-expand/row-reduction/TROWSUM.asl){{$}}

// -----

// Column reduction: destination Col is the source's Col
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.tcolsum %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<4x8xf32, valid=1x5>
// CHECK: {{^}}'pto.tcolsum' op [TileLegality] result: physical Col 8 must be 16 (the source's Col) (asl/tile/reduce-and-expand/column-reduction/TCOLSUM.asl){{$}}

// -----

// Column reduction: destination valid shape is 1 x VC
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.tcolprod %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xf32, valid=1x4>
// CHECK: {{^}}'pto.tcolprod' op [TileLegality] result: valid shape 1x4 must be 1x5 (1 x source valid columns) (asl/tile/reduce-and-expand/column-reduction/TCOLPROD.asl){{$}}

// -----

// Layouts: row-major only (D10)
%s = "test.op"() : () -> !pto.tile<16x8xf32, col_major>
%d = pto.tcolmin %s : (!pto.tile<16x8xf32, col_major>) -> !pto.tile<2x16xf32, valid=1x8>
// CHECK: {{^}}'pto.tcolmin' op [TileLegality] src: layout col_major must be row_major (PTO-SPEC 2, D10, asl/tile/reduce-and-expand/column-reduction/TCOLMIN.asl){{$}}

// -----

// Storage: Local only
%s = "test.op"() : () -> !pto.tile<8x16xf32, shared>
%d = pto.trowsum %s : (!pto.tile<8x16xf32, shared>) -> !pto.tile<32x1xf32, valid=8x1>
// CHECK: {{^}}'pto.trowsum' op [TileLegality] src: operands are Local tiles, got shared (asl/tile/reduce-and-expand/row-reduction/TROWSUM.asl){{$}}

// -----

// One PE mask for every binding (D13)
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.trowsum %s {mask = #pto.mask<1100>} : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1, pe=1100>
// CHECK: {{^}}'pto.trowsum' op [TileLegality] src: held by PEs 1111 but the op's mask is 1100; all bindings share one mask (PTO-SPEC 2, D13){{$}}

// -----

// Expansion: src and result match exactly
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<32x1xf32, valid=4x1>
%d = pto.trowexpandadd %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x6>
// CHECK: {{^}}'pto.trowexpandadd' op [TileLegality] result: valid shape 4x6 must be 4x5 (src and result match exactly) (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDADD.asl){{$}}

// -----

// Expansion: the broadcast has the result's type
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<64x1xf16, valid=4x1>
%d = pto.trowexpandmul %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<64x1xf16, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.trowexpandmul' op [TileLegality] bcast: element type f16 must be f32 (the result's type) (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDMUL.asl){{$}}

// -----

// Row expansion: the broadcast is one column
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<16x2xf32, valid=4x1>
%d = pto.trowexpandsub %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<16x2xf32, valid=4x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.trowexpandsub' op [TileLegality] bcast: physical Col 2 must be 1 (a one-column broadcast) (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDSUB.asl){{$}}

// -----

// Row expansion: broadcast valid shape VR x 1
%b = "test.op"() : () -> !pto.tile<32x1xf32, valid=3x1>
%d = pto.trowexpand %b : (!pto.tile<32x1xf32, valid=3x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.trowexpand' op [TileLegality] bcast: valid shape 3x1 must be 4x1 (result valid rows x 1) (asl/tile/reduce-and-expand/row-expansion/TROWEXPAND.asl){{$}}

// -----

// Column expansion: broadcast Col is the result's Col
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<4x8xf32, valid=1x5>
%d = pto.tcolexpandmax %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<4x8xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.tcolexpandmax' op [TileLegality] bcast: physical Col 8 must be 16 (the result's Col) (asl/tile/reduce-and-expand/column-expansion/TCOLEXPANDMAX.asl){{$}}

// -----

// Column expansion: broadcast valid shape 1 x VC
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<2x16xf32, valid=2x5>
%d = pto.tcolexpanddiv %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<2x16xf32, valid=2x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.tcolexpanddiv' op [TileLegality] bcast: valid shape 2x5 must be 1x5 (1 x result valid columns) (asl/tile/reduce-and-expand/column-expansion/TCOLEXPANDDIV.asl){{$}}

// -----

// TCOLEXPAND: the result has the broadcast's type
%b = "test.op"() : () -> !pto.tile<2x16xf32, valid=1x5>
%d = pto.tcolexpand %b : (!pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xsi32, valid=4x5>
// CHECK: {{^}}'pto.tcolexpand' op [TileLegality] bcast: element type f32 must be si32 (the result's type) (asl/tile/reduce-and-expand/column-expansion/TCOLEXPAND.asl){{$}}

// -----

// EXPDIF: source types FP16, BF16, FP32 only
%s = "test.op"() : () -> !pto.tile<8x16xsi32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<32x1xsi32, valid=4x1>
%d = pto.trowexpandexpdif %s, %b : (!pto.tile<8x16xsi32, valid=4x5>, !pto.tile<32x1xsi32, valid=4x1>) -> !pto.tile<8x16xsi32, valid=4x5>
// CHECK: {{^}}'pto.trowexpandexpdif' op [TileLegality] src: element type si32 is not supported (allowed: BF16, FP16, FP32) (TileExpandExpdifTypePairLegal, asl/tile/reduce-and-expand/row-expansion/TROWEXPANDEXPDIF.asl){{$}}

// -----

// EXPDIF: (FP32, FP16) is not a legal pair
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<32x1xf32, valid=4x1>
%d = pto.trowexpandexpdif %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=4x1>) -> !pto.tile<16x16xf16, valid=4x5>
// CHECK: {{^}}'pto.trowexpandexpdif' op [TileLegality] result: type pair (FP32,FP16) is not legal (allowed: (FP32,FP32), (FP16,FP32), (FP16,FP16), (BF16,FP32), (BF16,BF16)) (TileExpandExpdifTypePairLegal, asl/tile/reduce-and-expand/row-expansion/TROWEXPANDEXPDIF.asl){{$}}

// -----

// EXPDIF: the broadcast has the source's type
%s = "test.op"() : () -> !pto.tile<8x16xf16, valid=4x5>
%b = "test.op"() : () -> !pto.tile<2x16xf32, valid=1x5>
%d = pto.tcolexpandexpdif %s, %b : (!pto.tile<8x16xf16, valid=4x5>, !pto.tile<2x16xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.tcolexpandexpdif' op [TileLegality] bcast: element type f32 must be f16 (the source's type) (asl/tile/reduce-and-expand/column-expansion/TCOLEXPANDEXPDIF.asl){{$}}

// -----

// EXPDIF: the result has the source's logical shape
%s = "test.op"() : () -> !pto.tile<8x16xf16, valid=4x5>
%b = "test.op"() : () -> !pto.tile<4x16xf16, valid=1x5>
%d = pto.tcolexpandexpdif %s, %b : (!pto.tile<8x16xf16, valid=4x5>, !pto.tile<4x16xf16, valid=1x5>) -> !pto.tile<4x16xf32, valid=4x5>
// CHECK: {{^}}'pto.tcolexpandexpdif' op [TileLegality] result: physical shape 4x16 must be 8x16 (the source's) (asl/tile/reduce-and-expand/column-expansion/TCOLEXPANDEXPDIF.asl){{$}}

// -----

// TTRANS: no PadValue (B.DATR PadValue is must-zero)
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.ttrans %s {pad = #pto.pad<zero>} : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<16x8xf32, valid=5x4>
// CHECK: {{^}}'pto.ttrans' op [TileLegality] pad: TTRANS takes no PadValue (B.DATR PadValue must be zero) (asl/tile/layout-and-rearrangement/layout/TTRANS.asl){{$}}

// -----

// TTRANS: HiF4X2 is not a TTRANS type
%s = "test.op"() : () -> !pto.tile<8x256x!pto.hif4x2>
%d = pto.ttrans %s : (!pto.tile<8x256x!pto.hif4x2>) -> !pto.tile<256x8x!pto.hif4x2>
// CHECK: {{^}}'pto.ttrans' op [TileLegality] src: element type !pto.hif4x2 is not supported (allowed: BF16, E1M2X2, E2M1X2, E2M3, E3M2, E4M3, E5M2, E8M0, FP16, FP32, FP64, HF32, HIF8, S16, S32, S4X2, S64, S8, TF32, U16, U32, U4X2, U64, U8) (TileCarrierOrMove24BaselineDataTypeSupported, asl/tile/layout-and-rearrangement/layout/TTRANS.asl){{$}}

// -----

// TTRANS: same element type
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.ttrans %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<16x8xui32, valid=5x4>
// CHECK: {{^}}'pto.ttrans' op [TileLegality] result: element type ui32 must be f32 (the source's type) (asl/tile/layout-and-rearrangement/layout/TTRANS.asl){{$}}

// -----

// TTRANS: the valid shape is transposed
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.ttrans %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<16x8xf32, valid=4x5>
// CHECK: {{^}}'pto.ttrans' op [TileLegality] result: valid shape 4x5 must be 5x4 (the source's valid shape transposed) (asl/tile/layout-and-rearrangement/layout/TTRANS.asl){{$}}

// -----

// TROWMIN: row reduction destination Col is 1
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.trowmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<16x2xf32, valid=4x1>
// CHECK: {{^}}'pto.trowmin' op [TileLegality] result: physical Col 2 must be 1 (one column per row) (asl/tile/reduce-and-expand/row-reduction/TROWMIN.asl){{$}}

// -----

// TROWPROD: row reduction destination Col is 1
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.trowprod %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<16x2xf32, valid=4x1>
// CHECK: {{^}}'pto.trowprod' op [TileLegality] result: physical Col 2 must be 1 (one column per row) (asl/tile/reduce-and-expand/row-reduction/TROWPROD.asl){{$}}

// -----

// TCOLMAX: destination type = source type
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.tcolmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<4x16xsi16, valid=1x5>
// CHECK: {{^}}'pto.tcolmax' op [TileLegality] result: element type si16 must be f32 (the source's type) (asl/tile/reduce-and-expand/column-reduction/TCOLMAX.asl){{$}}

// -----

// TCOLARGMAX: the index destination is S32 or U32
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.tcolargmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<1x16xf64, valid=1x5>
// CHECK: {{^}}'pto.tcolargmax' op [TileLegality] result: index element type f64 must be si32 or ui32 (asl/tile/reduce-and-expand/column-reduction/TCOLARGMAX.asl){{$}}

// -----

// TCOLARGMIN: the index destination is S32 or U32
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%d = pto.tcolargmin %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<1x16xf64, valid=1x5>
// CHECK: {{^}}'pto.tcolargmin' op [TileLegality] result: index element type f64 must be si32 or ui32 (asl/tile/reduce-and-expand/column-reduction/TCOLARGMIN.asl){{$}}

// -----

// TROWEXPANDDIV: broadcast valid shape VR x 1
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<32x1xf32, valid=2x1>
%d = pto.trowexpanddiv %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=2x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.trowexpanddiv' op [TileLegality] bcast: valid shape 2x1 must be 4x1 (result valid rows x 1) (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDDIV.asl){{$}}

// -----

// TROWEXPANDMAX: broadcast valid shape VR x 1
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<32x1xf32, valid=2x1>
%d = pto.trowexpandmax %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=2x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.trowexpandmax' op [TileLegality] bcast: valid shape 2x1 must be 4x1 (result valid rows x 1) (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDMAX.asl){{$}}

// -----

// TROWEXPANDMIN: broadcast valid shape VR x 1
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<32x1xf32, valid=2x1>
%d = pto.trowexpandmin %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<32x1xf32, valid=2x1>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.trowexpandmin' op [TileLegality] bcast: valid shape 2x1 must be 4x1 (result valid rows x 1) (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDMIN.asl){{$}}

// -----

// TCOLEXPANDADD: broadcast Col is the result's Col
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<4x8xf32, valid=1x5>
%d = pto.tcolexpandadd %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<4x8xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.tcolexpandadd' op [TileLegality] bcast: physical Col 8 must be 16 (the result's Col) (asl/tile/reduce-and-expand/column-expansion/TCOLEXPANDADD.asl){{$}}

// -----

// TCOLEXPANDSUB: broadcast Col is the result's Col
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<4x8xf32, valid=1x5>
%d = pto.tcolexpandsub %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<4x8xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.tcolexpandsub' op [TileLegality] bcast: physical Col 8 must be 16 (the result's Col) (asl/tile/reduce-and-expand/column-expansion/TCOLEXPANDSUB.asl){{$}}

// -----

// TCOLEXPANDMUL: broadcast Col is the result's Col
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<4x8xf32, valid=1x5>
%d = pto.tcolexpandmul %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<4x8xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.tcolexpandmul' op [TileLegality] bcast: physical Col 8 must be 16 (the result's Col) (asl/tile/reduce-and-expand/column-expansion/TCOLEXPANDMUL.asl){{$}}

// -----

// TCOLEXPANDMIN: broadcast Col is the result's Col
%s = "test.op"() : () -> !pto.tile<8x16xf32, valid=4x5>
%b = "test.op"() : () -> !pto.tile<4x8xf32, valid=1x5>
%d = pto.tcolexpandmin %s, %b : (!pto.tile<8x16xf32, valid=4x5>, !pto.tile<4x8xf32, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
// CHECK: {{^}}'pto.tcolexpandmin' op [TileLegality] bcast: physical Col 8 must be 16 (the result's Col) (asl/tile/reduce-and-expand/column-expansion/TCOLEXPANDMIN.asl){{$}}

// -----

// TPARTADD: type outside TilePartialDataTypeSupported (S64)
%l = "test.op"() : () -> !pto.tile<2x8xsi64>
%d = pto.tpartadd %l, %l : (!pto.tile<2x8xsi64>, !pto.tile<2x8xsi64>) -> !pto.tile<2x8xsi64>
// CHECK: {{^}}'pto.tpartadd' op [TileLegality] left: element type si64 is not supported (allowed: BF16, FP16, FP32, S16, S32, S8, U16, U32, U8) (TilePartialDataTypeSupported, asl/tile/irregular-and-complex/union/TPARTADD.asl){{$}}

// -----

// TPARTMUL: one element type on all tiles
%l = "test.op"() : () -> !pto.tile<8x16xsi16, valid=4x5>
%r = "test.op"() : () -> !pto.tile<16x16xsi8, valid=2x3>
%d = pto.tpartmul %l, %r : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<16x16xsi8, valid=2x3>) -> !pto.tile<8x16xsi16, valid=4x5>
// CHECK: {{^}}'pto.tpartmul' op [TileLegality] right: element type si8 must be si16 (left's type) (asl/tile/irregular-and-complex/union/TPARTMUL.asl){{$}}

// -----

// TPARTMAX: a source fits in the result's valid shape (TilePartialCoverageLegal)
%l = "test.op"() : () -> !pto.tile<8x16xsi16, valid=4x5>
%r = "test.op"() : () -> !pto.tile<8x16xsi16, valid=2x3>
%d = pto.tpartmax %l, %r : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=2x3>) -> !pto.tile<8x16xsi16, valid=4x4>
// CHECK: {{^}}'pto.tpartmax' op [TileLegality] left: valid shape 4x5 exceeds the result's 4x4 (TilePartialCoverageLegal, asl/tile/irregular-and-complex/union/TPARTMAX.asl){{$}}

// -----

// TPARTMIN: one source spans the result's valid shape (no uncovered coordinate)
%l = "test.op"() : () -> !pto.tile<8x16xsi16, valid=4x3>
%r = "test.op"() : () -> !pto.tile<8x16xsi16, valid=2x3>
%d = pto.tpartmin %l, %r : (!pto.tile<8x16xsi16, valid=4x3>, !pto.tile<8x16xsi16, valid=2x3>) -> !pto.tile<8x16xsi16, valid=4x5>
// CHECK: {{^}}'pto.tpartmin' op [TileLegality] result: valid shape 4x5 is not covered: one source must span it (TilePartialCoverageLegal, asl/tile/irregular-and-complex/union/TPARTMIN.asl){{$}}

// -----

// TPARTADD: no PadValue (Null padding)
%l = "test.op"() : () -> !pto.tile<8x16xsi16, valid=4x5>
%d = pto.tpartadd %l, %l {pad = #pto.pad<zero>} : (!pto.tile<8x16xsi16, valid=4x5>, !pto.tile<8x16xsi16, valid=4x5>) -> !pto.tile<8x16xsi16, valid=4x5>
// CHECK: {{^}}'pto.tpartadd' op [TileLegality] pad: TPARTADD takes no PadValue (B.DATR PadValue must be zero) (asl/tile/irregular-and-complex/union/TPARTADD.asl){{$}}

// -----

// TCONCAT: equal valid rows
%l = "test.op"() : () -> !pto.tile<64x2xui8, valid=2x2>
%r = "test.op"() : () -> !pto.tile<128x1xui8, valid=3x1>
%d = pto.tconcat %l, %r : (!pto.tile<64x2xui8, valid=2x2>, !pto.tile<128x1xui8, valid=3x1>) -> !pto.tile<32x4xui8, valid=2x3>
// CHECK: {{^}}'pto.tconcat' op [TileLegality] right: valid rows 3 must be 2 (the left source's) (asl/tile/layout-and-rearrangement/layout/TCONCAT.asl){{$}}

// -----

// TCONCAT: result valid columns = left's + right's
%l = "test.op"() : () -> !pto.tile<64x2xui8, valid=2x2>
%r = "test.op"() : () -> !pto.tile<128x1xui8, valid=2x1>
%d = pto.tconcat %l, %r : (!pto.tile<64x2xui8, valid=2x2>, !pto.tile<128x1xui8, valid=2x1>) -> !pto.tile<32x4xui8, valid=2x4>
// CHECK: {{^}}'pto.tconcat' op [TileLegality] result: valid columns 4 must be 3 (left's plus right's) (asl/tile/layout-and-rearrangement/layout/TCONCAT.asl){{$}}

// -----

// TCI: types S32 S16 U32 U16 (TileTCIDataTypeSupported); AVS TCI-SHAPE-001 rejects U8
%d = pto.tci : () -> !pto.tile<128x1xui8, valid=1x1>
// CHECK: {{^}}'pto.tci' op [TileLegality] result: element type ui8 is not supported (allowed: S16, S32, U16, U32) (TileTCIDataTypeSupported, asl/tile/irregular-and-complex/initialization/TCI.asl){{$}}

// -----

// TCI: one valid row (AVS TCI-SHAPE-001 rejects two valid rows)
%d = pto.tci : () -> !pto.tile<8x8xui16, valid=2x8>
// CHECK: {{^}}'pto.tci' op [TileLegality] result: valid rows 2 must be 1 (TCI generates one row) (asl/tile/irregular-and-complex/initialization/TCI.asl){{$}}

// -----

// TTRI: types FP32 FP16 S32 S16 U32 U16 (AVS TTRI-SHAPE-001 rejects U8)
%d = pto.ttri : () -> !pto.tile<16x8xui8, valid=4x4>
// CHECK: {{^}}'pto.ttri' op [TileLegality] result: element type ui8 is not supported (allowed: FP16, FP32, S16, S32, U16, U32) (TileTTRIDataTypeSupported, asl/tile/irregular-and-complex/initialization/TTRI.asl){{$}}

// -----

// TTRI: row-major only (AVS TTRI-SHAPE-001 rejects column-major)
%d = pto.ttri : () -> !pto.tile<8x16xf16, col_major>
// CHECK: {{^}}'pto.ttri' op [TileLegality] result: layout col_major must be row_major (PTO-SPEC 2, D10, asl/tile/irregular-and-complex/initialization/TTRI.asl){{$}}

// -----

// TTRI: no parameter or exactly two (B.IOR RegSrc0, RegSrc1)
%a = "test.op"() : () -> i64
%b = "test.op"() : () -> i64
%d = pto.ttri %a : (i64) -> !pto.tile<8x16xf16, valid=4x4>
// CHECK: {{^}}'pto.ttri' op [TileLegality] operands: pto.ttri takes no operand or two i64 parameters (diagonal, orientation), got 1 (asl/tile/irregular-and-complex/initialization/TTRI.asl){{$}}

// -----

// TCI: parameters are i64 GPR values
%a = "test.op"() : () -> i32
%b = "test.op"() : () -> i32
%d = pto.tci %a, %b : (i32, i32) -> !pto.tile<8x8xsi32, valid=1x8>
// CHECK: {{^}}'pto.tci' op [TileLegality] start must be i64 (a GPR read by B.IOR), got i32 (asl/tile/irregular-and-complex/initialization/TCI.asl){{$}}

// -----

// TCI / TTRI: the destination is a Local tile
%d = pto.tci : () -> !pto.tile<8x8xui16, valid=1x8, shared>
// CHECK: {{^}}'pto.tci' op [TileLegality] result: operands are Local tiles, got shared (asl/tile/irregular-and-complex/initialization/TCI.asl){{$}}

// -----

// TCI / TTRI: the destination is held by exactly the op's PEs (D13)
%d = pto.ttri {mask = #pto.mask<1100>} : () -> !pto.tile<8x8xf32, valid=4x4>
// CHECK: {{^}}'pto.ttri' op [TileLegality] result: held by PEs 1111 but the op's mask is 1100; all bindings share one mask (PTO-SPEC 2, D13){{$}}
