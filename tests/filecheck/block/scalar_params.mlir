// CUBE blocks with scalar post-processing parameters (PTO-SPEC 3.3: B.IOR in dense order,
// quant first, then LReLU; LReLU-only uses RegSrc0). The scalars are linked after the tile
// sources; B.IOR RegSrc k names a<k> (the pseudo register convention, docs/blocks.md).
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers | filecheck %s
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers | pto-opt | filecheck %s
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers -t pto-asm | filecheck %s --check-prefix=ASM --match-full-lines
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers -t pto-bin | filecheck %s --check-prefix=BIN --match-full-lines
// Round trips: asm -> IR -> asm and hex -> IR -> hex / asm are identities (the pseudo MV
// comment line is scalar set-up, not part of the block stream: re-read blocks are unlinked).
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers -t pto-asm > %t.s
// RUN: pto-opt %t.s -t pto-asm > %t.again.s
// RUN: grep -v "^# pseudo" %t.s | diff - %t.again.s
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers -t pto-bin > %t.hex
// RUN: pto-opt %t.hex -t pto-bin | diff - %t.hex
// RUN: pto-opt %t.hex -t pto-asm | diff - %t.again.s
// RUN: pto-opt -f pto-asm %t.s -t pto-bin | diff - %t.hex

func.func @lrelu(%a: !pto.tile<1x64xf16, cube_m16, mat>, %b: !pto.tile<64x32xf16, cube_n8, mat>, %bias: !pto.tile<1x32xf32>, %ls: i64) -> !pto.tile<1x32xf32, cube_m16, mat> {
  %d = pto.tgemv_mx_bias %a, %b, %bias, lrelu_scalar %ls {fpatr = #pto.fpatr<relu_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>
  func.return %d : !pto.tile<1x32xf32, cube_m16, mat>
}

func.func @quant(%a: !pto.tile<1x64xf16, cube_m16, mat>, %b: !pto.tile<64x32xf16, cube_n8, mat>, %bias: !pto.tile<1x32xf32>, %qs: i64) -> !pto.tile<1x32xf16, cube_m16, mat> {
  %d = pto.tgemv_mx_bias %a, %b, %bias, quant_scalar %qs {fpatr = #pto.fpatr<pre_quant_mode = 32>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf16, cube_m16, mat>
  func.return %d : !pto.tile<1x32xf16, cube_m16, mat>
}

func.func @both(%a: !pto.tile<1x64xf16, cube_m16, mat>, %b: !pto.tile<64x32xf16, cube_n8, mat>, %bias: !pto.tile<1x32xf32>, %qs: i64, %ls: i64) -> !pto.tile<1x32xsi8, cube_m16, mat> {
  %d = pto.tgemv_mx_bias %a, %b, %bias, quant_scalar %qs, lrelu_scalar %ls {sat, fpatr = #pto.fpatr<pre_quant_mode = 24, relu_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64, i64) -> !pto.tile<1x32xsi8, cube_m16, mat>
  func.return %d : !pto.tile<1x32xsi8, cube_m16, mat>
}

// CHECK:      %d = pto.block (%a, %b, %bias, %ls) {
// CHECK:        pto.b.dimi <lb = 2, imm = 64>
// CHECK-NEXT:   pto.b.ior <src0 = a0, src1 = zero, src2 = zero, dst = zero>
// CHECK-NEXT:   pto.b.iot <src0 = "m#1", src1 = "n#1", last = 0, size_code = 0, pe_mode = "1111">
// CHECK:      } : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK:      %d = pto.block (%a, %b, %bias, %qs) {
// CHECK:        pto.b.ior <src0 = a0, src1 = zero, src2 = zero, dst = zero>
// CHECK:      %d = pto.block (%a, %b, %bias, %qs, %ls) {
// CHECK:        pto.b.ior <src0 = a0, src1 = a1, src2 = zero, dst = zero>
// CHECK:      } : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64, i64) -> !pto.tile<1x32xsi8, cube_m16, mat>
// CHECK-NOT:  pto.tgemv_mx_bias

// ASM:      # pseudo MV a0 <- %ls  (scalar parameters; not encoded, docs/blocks.md)
// ASM-NEXT: BSTART.TGEMVMX.BIAS FP16
// ASM-NEXT: B.FPATR 0, 2, 0, 0, 0, 0, 0, 0, 0, 0
// ASM-NEXT: C.B.DIMI 32, ->lb1
// ASM-NEXT: C.B.DIMI 64, ->lb2
// ASM-NEXT: B.IOR [a0, zero, zero], ->zero
// ASM-NEXT: B.IOT m#1, n#1, mask=1111
// ASM-NEXT: B.IOT t#1, mask=1111, last, ->m<2KB>
// ASM-NEXT: BSTOP
// ASM-EMPTY:
// ASM-NEXT: # pseudo MV a0 <- %qs  (scalar parameters; not encoded, docs/blocks.md)
// ASM-NEXT: BSTART.TGEMVMX.BIAS FP16
// ASM-NEXT: B.FPATR 32, 0, 0, 0, 0, 0, 0, 0, 0, 0
// ASM-NEXT: C.B.DIMI 32, ->lb1
// ASM-NEXT: C.B.DIMI 64, ->lb2
// ASM-NEXT: B.IOR [a0, zero, zero], ->zero
// ASM-NEXT: B.IOT m#1, n#1, mask=1111
// ASM-NEXT: B.IOT t#1, mask=1111, last, ->m<1KB>
// ASM-NEXT: BSTOP
// ASM-EMPTY:
// ASM-NEXT: # pseudo MV a0, a1 <- %qs, %ls  (scalar parameters; not encoded, docs/blocks.md)
// ASM-NEXT: BSTART.TGEMVMX.BIAS FP16
// ASM-NEXT: B.DATR NORM, DTYPE_NONE, Zero, SAT
// ASM-NEXT: B.FPATR 24, 2, 0, 0, 0, 0, 0, 0, 0, 0
// ASM-NEXT: C.B.DIMI 32, ->lb1
// ASM-NEXT: C.B.DIMI 64, ->lb2
// ASM-NEXT: B.IOR [a0, a1, zero], ->zero
// ASM-NEXT: B.IOT m#1, n#1, mask=1111
// ASM-NEXT: B.IOT t#1, mask=1111, last, ->m<512B>
// ASM-NEXT: BSTOP

// B.IOR = 0x13 | RegSrc0<<15 | RegSrc1<<20 (asl/block/operands/B.IOR.asl): [a0] = 0x00010013,
// [a0, a1] = 0x00310013.
// BIN:      0x21531181
// BIN-NEXT: 0x01002023
// BIN-NEXT: 0x483C
// BIN-NEXT: 0x903C
// BIN-NEXT: 0x00010013
// BIN:      0x80002023
// BIN-NEXT: 0x483C
// BIN-NEXT: 0x903C
// BIN-NEXT: 0x00010013
// BIN:      0x61002023
// BIN-NEXT: 0x483C
// BIN-NEXT: 0x903C
// BIN-NEXT: 0x00310013
