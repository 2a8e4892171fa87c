// Unsigned 32-bit remainder (arith.remui) on 256 x 1000: TREM with U32 tiles (D8).
// 256000 elements = 125 rows of 2048 (Col 2048, Rows 8 fill 64 KiB): 4 TREMs on 4 PEs,
// the lower bound ceil(256000*4 B / (4 * 64 KiB)) = 4.
//
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | filecheck %s
// RUN: python %S/Inputs/gen_inputs.py %s remui_u32 %t.in.npz
// RUN: pto-run %s --symbol remui_u32 --inputs %t.in.npz --output %t.before.npz
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | pto-run - --symbol remui_u32 --inputs %t.in.npz --output %t.after.npz
// RUN: python %S/Inputs/compare.py %t.before.npz %t.after.npz --exact
// RUN: pto-opt %s -p pto-lower | pto-run - --symbol remui_u32 --inputs %t.in.npz --output %t.block.npz
// RUN: python %S/Inputs/compare.py %t.after.npz %t.block.npz --exact
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: pto-opt %s -p pto-lower -t pto-asm > %t.s && pto-opt %t.s -t pto-asm > %t.rt.s && grep -v '^#' %t.s > %t.nc.s && diff %t.nc.s %t.rt.s
// RUN: pto-opt %s -p pto-lower -t pto-bin > %t.hex && pto-opt %t.hex -t pto-bin | diff %t.hex -

// CHECK-LABEL: func.func @remui_u32
// CHECK-NOT:     arith.remui
// CHECK:         scf.for
// CHECK:           pto.trem {{.*}} : !pto.tile<2x2048xui32>
// CHECK:         pto.trem {{.*}} : !pto.tile<2x2048xui32>
// CHECK-NOT:     pto.trem
//
// Block level (pto-lower): the first TLOAD, compute and TSTORE blocks, register-assigned.
// ASM:      # pseudo GMADDR a0, a1 <-
// ASM-NEXT: BSTART.TLOAD U32
// ASM-NEXT: B.DIM zero, 2048, ->lb0
// ASM-NEXT: C.B.DIMI 2, ->lb1
// ASM-NEXT: B.IOR [a0, a1, zero], ->zero
// ASM-NEXT: B.IOT mask=1111, last, ->t<16KB>
// ASM-NEXT: BSTOP
// ASM:      BSTART.SFU TREM, U32
// ASM-NEXT: B.DIM zero, 2048, ->lb0
// ASM-NEXT: C.B.DIMI 2, ->lb1
// ASM-NEXT: B.IOT t#1, t#2, mask=1111, last, ->t<16KB>
// ASM-NEXT: BSTOP
// ASM:      # pseudo GMADDR a0, a1 <-
// ASM-NEXT: BSTART.TSTORE U32
// ASM-NEXT: B.DIM zero, 2048, ->lb0
// ASM-NEXT: C.B.DIMI 2, ->lb1
// ASM-NEXT: B.IOR [a0, a1, zero], ->zero
// ASM-NEXT: B.IOT t#3, mask=1111, last
// ASM-NEXT: BSTOP

func.func @remui_u32(%a: tensor<256x1000xi32>, %b: tensor<256x1000xi32>) -> tensor<256x1000xi32> {
  %init = tensor.empty() : tensor<256x1000xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<256x1000xi32>, tensor<256x1000xi32>) outs(%init : tensor<256x1000xi32>) {
  ^bb0(%x: i32, %y: i32, %out: i32):
    %rem = arith.remui %x, %y : i32
    linalg.yield %rem : i32
  } -> tensor<256x1000xi32>
  return %r : tensor<256x1000xi32>
}
