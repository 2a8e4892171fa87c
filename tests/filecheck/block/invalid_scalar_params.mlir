// The B.IOR of a CUBE block against its B.FPATR's scalar post-processing parameters
// (PTO-SPEC 3.3 dense order; 3.5: binding completeness is TileLegality in the CUBE path,
// pto-spec cube-tmatmul.asl BundleMatrixDynamicBindingsComplete, scalar-schema.asl).
// RUN: pto-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Missing B.IOR: the linked block's fpatr selects a scalar LReLU parameter -> TileLegality.
func.func @missing(%a: !pto.tile<1x64xf16, cube_m16, mat>, %b: !pto.tile<64x32xf16, cube_n8, mat>, %bias: !pto.tile<1x32xf32>, %ls: i64) -> !pto.tile<1x32xf32, cube_m16, mat> {
  %d = pto.block (%a, %b, %bias, %ls) {
    pto.b.start <family = CUBE, function = 21, dtype = 4, mode = 0>
    pto.b.fpatr <pre_quant_mode = 0, relu_mode = 2, group_n_code = 0, row_max_en = 0, group_max_en = 0, row_max_init = 0, max_abs_en = 0, trans_a = 0, trans_b = 0, cscale_en = 0>
    pto.b.dimi <lb = 1, imm = 32>
    pto.b.dimi <lb = 2, imm = 64>
    pto.b.iot <src0 = 32, src1 = 48, last = 0, size_code = 0, pe_mode = 7>
    pto.b.iot <src0 = 0, last = 1, size_code = 5, pe_mode = 7, dst_hand = 2>
    pto.b.stop
  } : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>
  func.return %d : !pto.tile<1x32xf32, cube_m16, mat>
}
// CHECK: 'pto.block' op [TileLegality] B.FPATR selects 1 scalar parameter(s) but the block has no B.IOR: expected B.IOR [a0 (lrelu_scalar)] (PTO-SPEC 3.3, dense order)

// -----

// Surplus B.IOR field: LReLU alone consumes RegSrc0 only -> TileLegality (unlinked block).
pto.block {
  pto.b.start <family = CUBE, function = 21, dtype = 4, mode = 0>
  pto.b.fpatr <pre_quant_mode = 0, relu_mode = 2, group_n_code = 0, row_max_en = 0, group_max_en = 0, row_max_init = 0, max_abs_en = 0, trans_a = 0, trans_b = 0, cscale_en = 0>
  pto.b.ior <src0 = 2, src1 = 3, src2 = 0, dst = 0>
  pto.b.iot <src0 = 32, src1 = 48, last = 0, size_code = 0, pe_mode = 7>
  pto.b.iot <src0 = 0, last = 1, size_code = 1, pe_mode = 7, dst_hand = 2>
  pto.b.stop
}
// CHECK: 'pto.block' op [TileLegality] at block completion (command 5): B.IOR has nonzero fields beyond the 1 consumed scalar(s)

// -----

// Surplus B.IOR: no scalar parameter at all, yet RegSrc0 is set -> TileLegality.
pto.block {
  pto.b.start <family = CUBE, function = 21, dtype = 4, mode = 0>
  pto.b.fpatr <pre_quant_mode = 0, relu_mode = 0, group_n_code = 0, row_max_en = 0, group_max_en = 0, row_max_init = 0, max_abs_en = 0, trans_a = 0, trans_b = 0, cscale_en = 0>
  pto.b.ior <src0 = 2, src1 = 0, src2 = 0, dst = 0>
  pto.b.iot <src0 = 32, src1 = 48, last = 0, size_code = 0, pe_mode = 7>
  pto.b.iot <src0 = 0, last = 1, size_code = 1, pe_mode = 7, dst_hand = 2>
  pto.b.stop
}
// CHECK: 'pto.block' op [TileLegality] at block completion (command 5): B.IOR has nonzero fields beyond the 0 consumed scalar(s)

// -----

// Quant and LReLU in swapped slots (dense order is quant first) -> TileLegality.
func.func @swapped(%a: !pto.tile<1x64xf16, cube_m16, mat>, %b: !pto.tile<64x32xf16, cube_n8, mat>, %bias: !pto.tile<1x32xf32>, %qs: i64, %ls: i64) -> !pto.tile<1x32xsi8, cube_m16, mat> {
  %d = pto.block (%a, %b, %bias, %qs, %ls) {
    pto.b.start <family = CUBE, function = 21, dtype = 4, mode = 0>
    pto.b.datr <layout = 0, dtype = 31, pad = 0, cmode = 0, rmode = 0, sat = 1, canonicalize = 0>
    pto.b.fpatr <pre_quant_mode = 24, relu_mode = 2, group_n_code = 0, row_max_en = 0, group_max_en = 0, row_max_init = 0, max_abs_en = 0, trans_a = 0, trans_b = 0, cscale_en = 0>
    pto.b.dimi <lb = 1, imm = 32>
    pto.b.dimi <lb = 2, imm = 64>
    pto.b.ior <src0 = 3, src1 = 2, src2 = 0, dst = 0>
    pto.b.iot <src0 = 32, src1 = 48, last = 0, size_code = 0, pe_mode = 7>
    pto.b.iot <src0 = 0, last = 1, size_code = 3, pe_mode = 7, dst_hand = 2>
    pto.b.stop
  } : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64, i64) -> !pto.tile<1x32xsi8, cube_m16, mat>
  func.return %d : !pto.tile<1x32xsi8, cube_m16, mat>
}
// CHECK: 'pto.block' op [TileLegality] B.IOR [a1, a0, zero] does not read the linked scalar parameter(s): expected [a0 (quant_scalar), a1 (lrelu_scalar)] (RegSrc k = a<k>, docs/blocks.md; PTO-SPEC 3.3, dense order)
