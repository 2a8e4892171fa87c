// Malformed assembly and hex input give a clear error, never a traceback.
// RUN: not pto-opt %s -t pto-asm 2>&1 | filecheck %s
// RUN: echo "0x123" > %t.hex
// RUN: not pto-opt %t.hex 2>&1 | filecheck %s --check-prefix=HEX
// RUN: not pto-opt %S/../block/form_blocks.mlir -t pto-asm 2>&1 | filecheck %s --check-prefix=UNFORMED
// RUN: not pto-opt %S/../block/form_blocks.mlir -p pto-form-blocks -t pto-bin 2>&1 | filecheck %s --check-prefix=UNASSIGNED

BSTART.SFU TREM, S32
B.IOT t#1, q#2, mask=1111, last, ->t<128B>
BSTOP

// CHECK: pto-opt: error: {{.*}}line 9{{.*}}
// HEX: pto-opt: error: {{.*}}line 1{{.*}}expected one hex word
// UNFORMED: pto-opt: error: 'pto.tgemv_mx_bias' has no block form yet: run pto-form-blocks and pto-assign-registers (or pto-lower) before -t pto-asm/-t pto-bin
// UNASSIGNED: pto-opt: error: a pto.block still has placeholder registers (pto.unassigned): run pto-assign-registers
