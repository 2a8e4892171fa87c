// Malformed assembly and hex input give a clear error, never a traceback.
// RUN: not pto-opt %s -t pto-asm 2>&1 | filecheck %s
// RUN: echo "0x123" > %t.hex
// RUN: not pto-opt %t.hex 2>&1 | filecheck %s --check-prefix=HEX
// RUN: not pto-opt %S/../bundle/form_bundles.mlir -t pto-asm 2>&1 | filecheck %s --check-prefix=UNFORMED

BSTART.SFU TREM, S32
B.IOT t#1, q#2, mask=1111, last, ->t<128B>
BSTOP

// CHECK: pto-opt: error: {{.*}}line 8{{.*}}
// HEX: pto-opt: error: {{.*}}line 1{{.*}}expected one hex word
// UNFORMED: pto-opt: error: 'pto.tgemv_mx_bias' has no block form yet: run pto-form-bundles before -t pto-asm/-t pto-bin
