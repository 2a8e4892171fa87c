// Static legality of TIMG2COL (pto_dialect/tile_rearrange.py TImg2ColOp, pto_dialect/feature_map.py;
// asl/tile/model/legality/image-to-column.asl, asl/tile/model/state/feature-map-descriptors.asl;
// D16): one negative case per rule.
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// the type set is TileImg2ColDataTypeSupported (no FP64)
%s = "test.op"() : () -> !pto.tile<16x4xf64, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2>} : (!pto.tile<16x4xf64, valid=1x4, mat>) -> !pto.tile<16x4xf64, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] src: element type f64 is not supported (allowed: BF16, FP16, FP32, S16, S32, S8, U16, U32, U8) (TileImg2ColDataTypeSupported, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// the result has the source's element type
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<64x4xf16, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] result: element type f16 must be f32 (src's type) (asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// B.DATR contributes no field: no PadValue
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2>, pad = #pto.pad<zero>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] pad: TIMG2COL takes no PadValue (B.DATR PadValue must be zero) (asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// row-major tiles only
%s = "test.op"() : () -> !pto.tile<4x32xf32, valid=4x1, col_major, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2>} : (!pto.tile<4x32xf32, valid=4x1, col_major, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] src: layout col_major must be row_major (PTO-SPEC 2, D10, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// the source is a Matrix-location tile
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, vec>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2>} : (!pto.tile<32x4xf32, valid=1x4, vec>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] src: location vec must be mat (a Local Matrix tile) (TileOperandsLegal_TIMG2COL, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// the destination is a Matrix-location tile
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] result: location any must be mat (a Local Matrix tile) (TileOperandsLegal_TIMG2COL, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// a feature-map descriptor is required
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] src: no feature-map descriptor (the fmap property; TileFeatureMapDescriptorStructurallyValid) (asl/tile/model/state/feature-map-descriptors.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// extents, filters, strides and dilations are 1..65535
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2, stride_width = 0>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] fmap: stride_width 0 is outside 1..65535 (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// pads are 0..65535
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2, pad_top = -1>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] fmap: pad_top -1 is outside 0..65535 (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// the padding value is a 64-bit word
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2, padding = 18446744073709551616>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] fmap: padding 18446744073709551616 is outside a 64-bit word (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// transposed is a boolean
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2, transposed = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] fmap: transposed 2 is outside 0..1 (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// transposed mode is illegal
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2, transposed = 1>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] fmap: transposed mode is illegal (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// an NC1HWC0 descriptor has depth 1
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, depth = 2, height = 2, width = 2, filter_height = 2, filter_width = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] fmap: an NC1HWC0 descriptor has depth 1, got 2 (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// logical channels do not exceed C1*C0
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2, logical_channels = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] fmap: logical_channels 2 exceed channel_groups * channels_per_group = 1 (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// the descriptor spans no more than the source's elements
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<ndc1hwc0, depth = 2, height = 64, width = 2, filter_height = 2, filter_width = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] fmap: the descriptor spans 256 elements (N*D*C1*H*W*C0) but the source holds 128 (32x4) (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// the output is nonempty (the receptive field fits the padded input)
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2, dilation_height = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] fmap: the receptive field exceeds the padded input: output 0x1 (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// the destination's valid rows fit N*D*outH*outW
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=2x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] result: valid shape 2x4 exceeds the 1x4 image-to-column matrix (N*D*outH*outW x C1*filterH*filterW*C0) (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// the destination's valid columns fit C1*filterH*filterW*C0
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<16x8xf32, valid=1x5, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] result: valid shape 1x5 exceeds the 1x4 image-to-column matrix (N*D*outH*outW x C1*filterH*filterW*C0) (asl/tile/model/legality/image-to-column.asl, asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// pos_m and pos_k are i64 (GPR words)
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%m = "test.op"() : () -> i32
%d = pto.timg2col %s, %m, %m {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>, i32, i32) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: {{^}}'pto.timg2col' op [TileLegality] pos_m must be i64 (a GPR word), got i32 (asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl){{$}}

// -----

// #pto.fmap starts with its layout, NC1HWC0 or NDC1HWC0 (TileFeatureMapLayout)
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nchw, height = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: feature-map layout 'nchw' is not one of ['nc1hwc0', 'ndc1hwc0']

// -----

// #pto.fmap fields are the TileFeatureMapDescriptor's
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, kernel_h = 2>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK: unknown feature-map field 'kernel_h'; fields are ['batches', 'depth',
