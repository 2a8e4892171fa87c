// Assembly and hex round trips through the block IR (PTO-SPEC 3, 7): asm -> IR -> asm and
// hex -> IR -> hex are identities; the IR printed in between re-parses.
// RUN: pto-opt %s -t pto-asm | filecheck %s --match-full-lines
// RUN: pto-opt %s | pto-opt | filecheck %s --check-prefix=IR
// RUN: pto-opt %s -t pto-bin > %t.hex
// RUN: pto-opt %t.hex -t pto-bin | diff - %t.hex
// RUN: pto-opt %t.hex -t pto-asm | filecheck %s --match-full-lines
// RUN: pto-opt %s -t pto-asm > %t.s
// RUN: pto-opt %t.s -t pto-asm | diff - %t.s
// RUN: pto-opt -f pto-asm %s -t pto-bin | filecheck %s --check-prefix=BIN --match-full-lines

BSTART.TGEMVMX.BIAS FP16
B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
B.IOT m#1, n#1, mask=1111
B.IOT t#1, mask=1111, last, ->m<128B>
BSTOP

BSTART.SFU TREM, S32
B.DATR NORM, FP64, Zero
C.B.DIMI 3, ->lb0
B.DIM a0, 70000, ->lb2
B.IOT t#2, t#3, mask=1100, last, ->t<4KB>
BSTOP

// CHECK:      BSTART.TGEMVMX.BIAS FP16
// CHECK-NEXT: B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
// CHECK-NEXT: B.IOT m#1, n#1, mask=1111
// CHECK-NEXT: B.IOT t#1, mask=1111, last, ->m<128B>
// CHECK-NEXT: BSTOP
// CHECK-EMPTY:
// CHECK-NEXT: BSTART.SFU TREM, S32
// CHECK-NEXT: B.DATR NORM, FP64, Zero
// CHECK-NEXT: C.B.DIMI 3, ->lb0
// CHECK-NEXT: B.DIM a0, 70000, ->lb2
// CHECK-NEXT: B.IOT t#2, t#3, mask=1100, last, ->t<4KB>
// CHECK-NEXT: BSTOP

// IR: pto.block {
// IR-NEXT: pto.b.start TGEMVMX.BIAS, FP16
// IR: pto.b.dim <lb = 2, reg = a0, imm = 70000>
// IR-NEXT: pto.b.iot <src0 = "t#2", src1 = "t#3", last = 1, size_code = "4KB", pe_mode = "1100", dst_hand = t>

// BIN: 0x21531181
