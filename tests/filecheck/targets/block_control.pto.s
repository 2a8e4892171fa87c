// B.CATR and L.BSTOP in tile blocks round-trip through assembly, IR and hex (the 64-bit
// L.BSTOP is one 16-digit hex word); a compressed scalar block start (C.BSTART*) is refused
// with a clear error: pto.block holds tile blocks (docs/blocks.md, "Scalar block starts"); an
// XB word (reserved in PTO) is IllegalInstruction.
// RUN: pto-opt %s -t pto-asm | filecheck %s --match-full-lines
// RUN: pto-opt %s | pto-opt | filecheck %s --check-prefix=IR
// RUN: pto-opt %s -t pto-bin > %t.hex
// RUN: filecheck %s --check-prefix=BIN --match-full-lines < %t.hex
// RUN: pto-opt %t.hex -t pto-bin | diff - %t.hex
// RUN: pto-opt %t.hex -t pto-asm | filecheck %s --match-full-lines
// RUN: printf 'C.BSTART.STD FALL\nBSTOP\n' > %t.s
// RUN: not pto-opt %t.s 2>&1 | filecheck %s --check-prefix=SCALAR
// RUN: printf '0x3000\n0x00000001\n' > %t2.hex
// RUN: not pto-opt %t2.hex 2>&1 | filecheck %s --check-prefix=SCALARHEX
// RUN: printf '0xFFFFEF81\n' > %t3.hex
// RUN: not pto-opt %t3.hex 2>&1 | filecheck %s --check-prefix=XB

BSTART.SFU TREM, S32
B.CATR {trap, atomic, aqrl, far, dr}
C.B.DIMI 3, ->lb0
B.IOT t#2, t#3, mask=1111, last, ->t<128B>
L.BSTOP

BSTART.SFU TREM, S32
b.catr {RL}
C.B.DIMI 3, ->lb0
B.IOT t#2, t#3, mask=1111, last, ->t<128B>
BSTOP

// CHECK:      BSTART.SFU TREM, S32
// CHECK-NEXT: B.CATR {trap, atomic, aqrl, far, dr}
// CHECK-NEXT: C.B.DIMI 3, ->lb0
// CHECK-NEXT: B.IOT t#2, t#3, mask=1111, last, ->t<128B>
// CHECK-NEXT: L.BSTOP
// CHECK-EMPTY:
// CHECK-NEXT: BSTART.SFU TREM, S32
// CHECK-NEXT: B.CATR {rl}

// IR: pto.b.catr <dr = 1, trap = 1, far = 1, atom = 1, aq = 1, rl = 1>
// IR: pto.b.lstop
// IR: pto.b.catr <dr = 0, trap = 0, far = 0, atom = 0, aq = 0, rl = 1>

// BIN:      0x88419181
// BIN-NEXT: 0x040F8023
// BIN-NEXT: 0x00FC
// BIN-NEXT: 0x0818CE13
// BIN-NEXT: 0x000000010000000F

// SCALAR: pto-opt: error: {{.*}}C.BSTART.STD opens a scalar (Standard) block; pto.block holds tile blocks only
// SCALARHEX: pto-opt: error: {{.*}}C.BSTART.STD opens a scalar (Standard) block
// XB: pto-opt: error: {{.*}}'XB' [IllegalInstruction] XB is extension space reserved in PTO
