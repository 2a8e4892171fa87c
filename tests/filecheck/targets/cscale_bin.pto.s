// D11 (revised): CScaleEn exists in the IR and the assembly; B.FPATR bits 10:9 are reserved in
// pto-spec v0.58, so -t pto-bin refuses CScaleEn = 1 with one clear line, and a hex word with
// bit 9 set does not decode (IllegalInstruction, AVS B-FPATR-TRANSPOSE-RSVD-012).
// RUN: pto-opt %s -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: not pto-opt %s -t pto-bin 2>&1 | filecheck %s --check-prefix=BIN
// RUN: echo "0x00002223" > %t.hex
// RUN: not pto-opt %t.hex 2>&1 | filecheck %s --check-prefix=HEX

BSTART.TMATMUL.ACC FP16
B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
B.IOT t#1, t#2, mask=1111
B.IOT t#3, mask=1111, last, ->m<2KB>
BSTOP

// ASM: B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
// BIN: pto-opt: error: -t pto-bin: B.FPATR CScaleEn=1 has no binary encoding: pto-spec v0.58 reserves B.FPATR bits 10:9 (D11); use the assembly target, or CScaleEn=0
// HEX: pto-opt: error: {{.*}}line 1: 0x00002223 is not a PTO block command (32-bit)
