// The pto.block verifier: one negative case per structural rule, with its fault class
// (PTO-SPEC 3.2-3.5, D11, D12, D15). The rules themselves live in pto_dialect.isa.block.
// RUN: pto-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Missing B.FPATR in a CUBE block (PTO-SPEC 3.3) -> BundleControl.
pto.block {
  pto.b.start <family = CUBE, function = 21, dtype = 4, mode = 0>
  pto.b.iot <src0 = 32, src1 = 48, last = 0, size_code = 0, pe_mode = 7>
  pto.b.iot <src0 = 0, last = 1, size_code = 1, pe_mode = 7, dst_hand = 2>
  pto.b.stop
}
// CHECK: 'pto.block' op [BundleControl] at block completion (command 3): TGEMV_MX_BIAS block has no B.FPATR (exactly one is required)

// -----

// B.FPATR in a TREM block (PTO-SPEC 3.3) -> BundleControl.
pto.block {
  pto.b.start <family = TEPL, function = 4, dtype = 17, mode = 0>
  pto.b.fpatr <pre_quant_mode = 0, relu_mode = 0, group_n_code = 0, row_max_en = 0, group_max_en = 0, row_max_init = 0, max_abs_en = 0, trans_a = 0, trans_b = 0, cscale_en = 0>
  pto.b.dimi <lb = 0, imm = 2>
  pto.b.iot <src0 = 0, src1 = 1, last = 1, size_code = 1, pe_mode = 7, dst_hand = 0>
  pto.b.stop
}
// CHECK: 'pto.block' op [BundleControl] command 1: B.FPATR in a non-CUBE block (TREM)

// -----

// A B.IOT after the one with 'last' (PTO-SPEC 3.4) -> BundleControl.
pto.block {
  pto.b.start <family = TEPL, function = 4, dtype = 17, mode = 0>
  pto.b.dimi <lb = 0, imm = 2>
  pto.b.iot <src0 = 0, src1 = 1, last = 1, size_code = 1, pe_mode = 7, dst_hand = 0>
  pto.b.iot <src0 = 2, last = 0, size_code = 0, pe_mode = 7>
  pto.b.stop
}
// CHECK: 'pto.block' op [BundleControl] command 3: B.IOT after the binding sequence was closed by 'last'

// -----

// A second write to LB0 (PTO-SPEC 3.4) -> BundleControl.
pto.block {
  pto.b.start <family = TEPL, function = 4, dtype = 17, mode = 0>
  pto.b.dimi <lb = 0, imm = 2>
  pto.b.dim <lb = 0, reg = 0, imm = 2>
  pto.b.iot <src0 = 0, src1 = 1, last = 1, size_code = 1, pe_mode = 7, dst_hand = 0>
  pto.b.stop
}
// CHECK: 'pto.block' op [BundleControl] command 2: LB0 written twice (write-once per block)

// -----

// Reserved CUBE function 8 (deleted ACCCVT) -> IllegalInstruction.
pto.block {
  pto.b.start <family = CUBE, function = 8, dtype = 4, mode = 0>
  pto.b.stop
}
// CHECK: 'pto.block' op [IllegalInstruction] command 0: CUBE function 8 (deleted ACCCVT) is reserved

// -----

// MX on the a2a3 profile (D15) -> IllegalInstruction at BSTART decode (D12).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  pto.block {
    pto.b.start <family = CUBE, function = 21, dtype = 4, mode = 0>
    pto.b.fpatr <pre_quant_mode = 0, relu_mode = 0, group_n_code = 0, row_max_en = 0, group_max_en = 0, row_max_init = 0, max_abs_en = 0, trans_a = 0, trans_b = 0, cscale_en = 0>
    pto.b.iot <src0 = 32, src1 = 48, last = 0, size_code = 0, pe_mode = 7>
    pto.b.iot <src0 = 0, last = 1, size_code = 1, pe_mode = 7, dst_hand = 2>
    pto.b.stop
  }
}
// CHECK: 'pto.block' op [IllegalInstruction] command 0: TGEMV_MX_BIAS (MX) is not available in the a2a3 profile (D15)

// -----

// Five effective B.IOT bindings (PTO-SPEC 3.4) -> TileLegality.
pto.block {
  pto.b.start <family = TEPL, function = 4, dtype = 17, mode = 0>
  pto.b.dimi <lb = 0, imm = 2>
  pto.b.iot <src0 = 0, last = 0, size_code = 0, pe_mode = 7>
  pto.b.iot <src0 = 0, last = 0, size_code = 0, pe_mode = 7>
  pto.b.iot <src0 = 0, last = 0, size_code = 0, pe_mode = 7>
  pto.b.iot <src0 = 0, last = 0, size_code = 0, pe_mode = 7>
  pto.b.iot <src0 = 0, last = 1, size_code = 0, pe_mode = 7>
  pto.b.stop
}
// CHECK: 'pto.block' op [TileLegality] command 6: more than 4 effective B.IOT bindings

// -----

// A linked TREM block whose LB0 disagrees with the tiles' ValidCol -> TileLegality.
func.func @f(%a: !pto.tile<4x8xsi32, valid=1x2>, %b: !pto.tile<4x8xsi32, valid=1x2>) -> !pto.tile<4x8xsi32, valid=1x2> {
  %r = pto.block (%a, %b) {
    pto.b.start <family = TEPL, function = 4, dtype = 17, mode = 0>
    pto.b.dimi <lb = 0, imm = 3>
    pto.b.dimi <lb = 2, imm = 8>
    pto.b.iot <src0 = 0, src1 = 1, last = 1, size_code = 1, pe_mode = 7, dst_hand = 0>
    pto.b.stop
  } : (!pto.tile<4x8xsi32, valid=1x2>, !pto.tile<4x8xsi32, valid=1x2>) -> !pto.tile<4x8xsi32, valid=1x2>
  func.return %r : !pto.tile<4x8xsi32, valid=1x2>
}
// CHECK: 'pto.block' op [TileLegality] LB0 (ValidCol) is 3, the tiles say 2

// -----

// A raw field that does not fit its bit field has no encoding (a tool error, not a fault).
pto.block {
  pto.b.start <family = TEPL, function = 4, dtype = 17, mode = 0>
  pto.b.dimi <lb = 0, imm = 2>
  pto.b.iot <src0 = 99, src1 = 1, last = 1, size_code = 1, pe_mode = 7, dst_hand = 0>
  pto.b.stop
}
// CHECK: 'pto.b.iot' op has no encoding: {{.*}}

// -----

// An ordinary TLOAD with PadValue Max: PadValue belongs to the CUBE conversions
// (asl/block/model/dispatch/tile-schema.asl SelectedBundleTileDataAttributesLegal) -> TileLegality.
pto.block {
  pto.b.start <family = TLSU, function = 0, dtype = 4, mode = 0>
  pto.b.datr <layout = 0, dtype = 0, pad = 1, cmode = 0, rmode = 0, sat = 0, canonicalize = 0>
  pto.b.dimi <lb = 0, imm = 4>
  pto.b.dimi <lb = 1, imm = 4>
  pto.b.iot <last = 1, size_code = 1, pe_mode = 7, dst_hand = 0>
  pto.b.stop
}
// CHECK: 'pto.block' op [TileLegality] at block completion (command 5): an ordinary or Shared TLOAD needs B.DATR PadValue Zero (PadValue applies to the CUBE conversions only)

// -----

// A CUBE TLOAD of FP64: no CUBE CELL geometry (TileCubeDataTypeSupported) -> TileLegality.
pto.block {
  pto.b.start <family = TLSU, function = 0, dtype = 0, mode = 0>
  pto.b.datr <layout = 22, dtype = 31, pad = 0, cmode = 0, rmode = 0, sat = 0, canonicalize = 0>
  pto.b.dimi <lb = 0, imm = 4>
  pto.b.dimi <lb = 1, imm = 4>
  pto.b.iot <last = 1, size_code = 1, pe_mode = 7, dst_hand = 0>
  pto.b.stop
}
// CHECK: 'pto.block' op [TileLegality] at block completion (command 5): a CUBE TLOAD does not support FP64 (no CUBE CELL geometry for b64 types and HiF4X2)

// -----

// A GroupMax output 1 x ceil(512 / 8) FP32 (256 B) in a 128 B destination, after D and RowMax
// fit (ASL ResolveBundleTileDestinationsWithShapeAndType, AVS POSTPROCESS-ROLLBACK-003)
// -> TileAllocation before any destination is allocated.
pto.block {
  pto.b.start <family = CUBE, function = 0, dtype = 4, mode = 0>
  pto.b.fpatr <pre_quant_mode = 0, relu_mode = 0, group_n_code = 1, row_max_en = 1, group_max_en = 1, row_max_init = 0, max_abs_en = 0, trans_a = 0, trans_b = 0, cscale_en = 0>
  pto.b.dim <lb = 0, reg = 0, imm = 1>
  pto.b.dim <lb = 1, reg = 0, imm = 512>
  pto.b.dim <lb = 2, reg = 0, imm = 1>
  pto.b.iot <src0 = 32, src1 = 48, last = 0, size_code = 5, pe_mode = 7, dst_hand = 2>
  pto.b.iot <last = 0, size_code = 1, pe_mode = 7, dst_hand = 0>
  pto.b.iot <last = 1, size_code = 1, pe_mode = 7, dst_hand = 0>
  pto.b.stop
}
// CHECK: 'pto.block' op [TileAllocation] at block completion (command 8): the group_max output 1 x 64 FP32 does not fit its destination SizeCode (128 B)

// -----

// A second B.CATR (asl/block/attributes/B.CATR.asl: unique per header) -> BundleControl.
pto.block {
  pto.b.start <family = TEPL, function = 4, dtype = 17, mode = 0>
  pto.b.catr <rl = 1>
  pto.b.catr <aq = 1>
  pto.b.dimi <lb = 0, imm = 2>
  pto.b.iot <src0 = 0, src1 = 1, last = 1, size_code = 1, pe_mode = 7, dst_hand = 0>
  pto.b.stop
}
// CHECK: 'pto.block' op [BundleControl] command 2: duplicate B.CATR (at most one per block header)

// -----

// B.CATR DR=1 in a CUBE block (asl/block/model/commit/validation.asl) -> BundleControl, at
// completion and before every static TileLegality rule.
pto.block {
  pto.b.start <family = CUBE, function = 0, dtype = 4, mode = 0>
  pto.b.catr <dr = 1>
  pto.b.fpatr <pre_quant_mode = 0, relu_mode = 0, group_n_code = 0, row_max_en = 0, group_max_en = 0, row_max_init = 0, max_abs_en = 0, trans_a = 0, trans_b = 0, cscale_en = 0>
  pto.b.iot <src0 = 0, src1 = 1, last = 1, size_code = 1, pe_mode = 7, dst_hand = 2>
  pto.b.lstop
}
// CHECK: 'pto.block' op [BundleControl] at block completion (command 4): B.CATR DR=1 in a TileMatrix block (TMATMUL): dimension reduction is only for VEC, SFU and TLSU blocks
