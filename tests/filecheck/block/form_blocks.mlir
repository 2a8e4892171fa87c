// pto-form-blocks: canonical blocks with the spec's defaults elided (PTO-SPEC 4, 5; D11),
// register assignment (pto-assign-registers) by hand (docs/blocks.md), and the pto-asm / pto-bin targets.
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers | filecheck %s
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers | pto-opt | filecheck %s
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers -t pto-asm | filecheck %s --check-prefix=ASM --match-full-lines
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers -t pto-bin | filecheck %s --check-prefix=BIN --match-full-lines

func.func @k(%a: !pto.tile<1x1xf16, cube_m16, mat>, %b: !pto.tile<1x1xf16, cube_n8, mat>, %bias: !pto.tile<1x32xf32, valid=1x1>, %x: !pto.tile<4x8xsi32, valid=2x3>, %y: !pto.tile<4x8xsi32, valid=2x3>) -> (!pto.tile<1x1xf32, cube_m16, mat>, !pto.tile<4x8xsi32, valid=2x3>) {
  %d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x1xf16, cube_m16, mat>, !pto.tile<1x1xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat>
  %r = pto.trem %x, %y {pad = #pto.pad<zero>} : !pto.tile<4x8xsi32, valid=2x3>
  func.return %d, %r : !pto.tile<1x1xf32, cube_m16, mat>, !pto.tile<4x8xsi32, valid=2x3>
}

// CHECK:      %d = pto.block (%a, %b, %bias) {
// CHECK-NEXT:   pto.b.start TGEMVMX.BIAS, FP16
// CHECK-NEXT:   pto.b.fpatr <pre_quant_mode = 0, relu_mode = 0, group_n_code = 0, row_max_en = 0, group_max_en = 0, row_max_init = 0, max_abs_en = 0, trans_a = 0, trans_b = 0, cscale_en = 0>
// CHECK-NEXT:   pto.b.iot <src0 = "m#1", src1 = "n#1", last = 0, size_code = 0, pe_mode = "1111">
// CHECK-NEXT:   pto.b.iot <src0 = "t#1", last = 1, size_code = "128B", pe_mode = "1111", dst_hand = m>
// CHECK-NEXT:   pto.b.stop
// CHECK-NEXT: } : (!pto.tile<1x1xf16, cube_m16, mat>, !pto.tile<1x1xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat>
// CHECK:      %r = pto.block (%x, %y) {
// CHECK-NEXT:   pto.b.start TREM, S32
// CHECK-NEXT:   pto.b.datr <layout = NORM, dtype = FP64, pad = Zero, cmode = EQ, rmode = RNONE, sat = 0, canonicalize = 0>
// CHECK-NEXT:   pto.b.dimi <lb = 0, imm = 3>
// CHECK-NEXT:   pto.b.dimi <lb = 1, imm = 2>
// CHECK-NEXT:   pto.b.dimi <lb = 2, imm = 8>
// CHECK-NEXT:   pto.b.iot <src0 = "t#2", src1 = "t#3", last = 1, size_code = "128B", pe_mode = "1111", dst_hand = t>
// CHECK-NEXT:   pto.b.stop
// CHECK-NEXT: } : (!pto.tile<4x8xsi32, valid=2x3>, !pto.tile<4x8xsi32, valid=2x3>) -> !pto.tile<4x8xsi32, valid=2x3>
// CHECK-NOT:  pto.trem
// CHECK-NOT:  pto.tgemv_mx_bias

// ASM:      BSTART.TGEMVMX.BIAS FP16
// ASM-NEXT: B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
// ASM-NEXT: B.IOT m#1, n#1, mask=1111
// ASM-NEXT: B.IOT t#1, mask=1111, last, ->m<128B>
// ASM-NEXT: BSTOP
// ASM-EMPTY:
// ASM-NEXT: BSTART.SFU TREM, S32
// ASM-NEXT: B.DATR NORM, FP64, Zero
// ASM-NEXT: C.B.DIMI 3, ->lb0
// ASM-NEXT: C.B.DIMI 2, ->lb1
// ASM-NEXT: C.B.DIMI 8, ->lb2
// ASM-NEXT: B.IOT t#2, t#3, mask=1111, last, ->t<128B>
// ASM-NEXT: BSTOP

// BIN:      0x21531181
// BIN-NEXT: 0x00002023
// BIN-NEXT: 0xC2004E13
// BIN-NEXT: 0x0008DF13
// BIN-NEXT: 0x00000001
// BIN-NEXT: 0x88419181
// BIN-NEXT: 0x00001023
// BIN-NEXT: 0x00FC
// BIN-NEXT: 0x40BC
// BIN-NEXT: 0x823C
// BIN-NEXT: 0x0818CE13
// BIN-NEXT: 0x00000001
