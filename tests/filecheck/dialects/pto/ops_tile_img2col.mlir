// Round trip of TIMG2COL (pto_dialect/tile_rearrange.py TImg2ColOp) and its feature-map
// descriptor #pto.fmap (pto_dialect/feature_map.py) in custom and generic syntax: default
// fields and the default mask are elided, pos_m/pos_k optional.
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s
// CHECK: builtin.module {
%s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK-NEXT: %s = "test.op"() : () -> !pto.tile<32x4xf32, valid=1x4, mat>
%w = "test.op"() : () -> i64
// CHECK-NEXT: %w = "test.op"() : () -> i64
%timg2col = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, batches = 1, height = 2, width = 2, filter_height = 2, filter_width = 2, padding = 99>, mask = #pto.mask<1111>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// CHECK-NEXT: %timg2col = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2, padding = 99>} : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
// GENERIC: %timg2col = "pto.timg2col"(%s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 0>, fmap = #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2, padding = 99>}> : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>
%u = "test.op"() : () -> !pto.tile<64x64xui8, valid=64x64, mat, pe=1100>
// CHECK-NEXT: %u = "test.op"() : () -> !pto.tile<64x64xui8, mat, pe=1100>
%timg2colpos = pto.timg2col %u, %w, %w {fmap = #pto.fmap<ndc1hwc0, batches = 2, depth = 2, channel_groups = 2, height = 5, width = 4, channels_per_group = 8, filter_height = 3, filter_width = 2, stride_height = 2, stride_width = 1, dilation_height = 1, dilation_width = 2, pad_left = 1, pad_right = 0, pad_top = 1, pad_bottom = 2, logical_channels = 13, padding = -1, transposed = 0>, mask = #pto.mask<1100>} : (!pto.tile<64x64xui8, valid=64x64, mat, pe=1100>, i64, i64) -> !pto.tile<32x16xui8, valid=3x16, mat, pe=1100>
// CHECK-NEXT: %timg2colpos = pto.timg2col %u, %w, %w {fmap = #pto.fmap<ndc1hwc0, batches = 2, depth = 2, channel_groups = 2, height = 5, width = 4, channels_per_group = 8, filter_height = 3, filter_width = 2, stride_height = 2, dilation_width = 2, pad_left = 1, pad_top = 1, pad_bottom = 2, logical_channels = 13, padding = -1>, mask = #pto.mask<1100>} : (!pto.tile<64x64xui8, mat, pe=1100>, i64, i64) -> !pto.tile<32x16xui8, valid=3x16, mat, pe=1100>
// GENERIC: %timg2colpos = "pto.timg2col"(%u, %w, %w) <{pad = #pto.pad<null>, mask = #pto.mask<1100>, operandSegmentSizes = array<i32: 1, 2>, fmap = #pto.fmap<ndc1hwc0, batches = 2, depth = 2, channel_groups = 2, height = 5, width = 4, channels_per_group = 8, filter_height = 3, filter_width = 2, stride_height = 2, dilation_width = 2, pad_left = 1, pad_top = 1, pad_bottom = 2, logical_channels = 13, padding = -1>}> : (!pto.tile<64x64xui8, mat, pe=1100>, i64, i64) -> !pto.tile<32x16xui8, valid=3x16, mat, pe=1100>
// CHECK-NEXT: }
