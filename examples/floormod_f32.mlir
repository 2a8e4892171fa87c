// Float floor modulo (torch-mlir aten.remainder on f32) on 3 x 500 x 300: D7 semantics,
// signed zeros and infinities included, so the lowering is bit-exact. 450000 elements
// viewed as 28125 x 16 (1024 x 16 x f32 tiles, 64 KiB): 7 TREMs, the lower bound
// ceil(450000*4 B / (4 * 64 KiB)) = 7.
//
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | filecheck %s
// RUN: python %S/Inputs/gen_inputs.py %s floormod_f32 %t.in.npz --specials
// RUN: pto-run %s --symbol floormod_f32 --inputs %t.in.npz --output %t.before.npz
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | pto-run - --symbol floormod_f32 --inputs %t.in.npz --output %t.after.npz
// RUN: python %S/Inputs/compare.py %t.before.npz %t.after.npz --exact
// RUN: pto-opt %s -p pto-lower | pto-run - --symbol floormod_f32 --inputs %t.in.npz --output %t.block.npz
// RUN: python %S/Inputs/compare.py %t.after.npz %t.block.npz --exact
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: pto-opt %s -p pto-lower -t pto-asm > %t.s && pto-opt %t.s -t pto-asm > %t.rt.s && grep -v '^#' %t.s > %t.nc.s && diff %t.nc.s %t.rt.s
// RUN: pto-opt %s -p pto-lower -t pto-bin > %t.hex && pto-opt %t.hex -t pto-bin | diff %t.hex -

// CHECK-LABEL: func.func @floormod_f32
// CHECK-NOT:     arith.remf
// CHECK:         tensor.collapse_shape {{.*}} : tensor<3x500x300xf32> into tensor<450000xf32>
// CHECK:         scf.for
// CHECK:           pto.trem {{.*}} : !pto.tile<256x16xf32>
// CHECK:         pto.trem
// CHECK:         tensor.expand_shape {{.*}} into tensor<3x500x300xf32>
//
// Block level (pto-lower): the first TLOAD, compute and TSTORE blocks, register-assigned.
// ASM:      # pseudo GMADDR a0, a1 <-
// ASM-NEXT: BSTART.TLOAD FP32
// ASM-NEXT: C.B.DIMI 16, ->lb0
// ASM-NEXT: B.DIM zero, 256, ->lb1
// ASM-NEXT: B.IOR [a0, a1, zero], ->zero
// ASM-NEXT: B.IOT mask=1111, last, ->t<16KB>
// ASM-NEXT: BSTOP
// ASM:      BSTART.SFU TREM, FP32
// ASM-NEXT: C.B.DIMI 16, ->lb0
// ASM-NEXT: B.DIM zero, 256, ->lb1
// ASM-NEXT: B.IOT t#1, t#2, mask=1111, last, ->t<16KB>
// ASM-NEXT: BSTOP
// ASM:      # pseudo GMADDR a0, a1 <-
// ASM-NEXT: BSTART.TSTORE FP32
// ASM-NEXT: C.B.DIMI 16, ->lb0
// ASM-NEXT: B.DIM zero, 256, ->lb1
// ASM-NEXT: B.IOR [a0, a1, zero], ->zero
// ASM-NEXT: B.IOT t#3, mask=1111, last
// ASM-NEXT: BSTOP

func.func @floormod_f32(%a: tensor<3x500x300xf32>, %b: tensor<3x500x300xf32>) -> tensor<3x500x300xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %init = tensor.empty() : tensor<3x500x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : tensor<3x500x300xf32>, tensor<3x500x300xf32>) outs(%init : tensor<3x500x300xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %rem = arith.remf %x, %y : f32
    %nz = arith.cmpf one, %rem, %zero : f32
    %yneg = arith.cmpf olt, %y, %zero : f32
    %rneg = arith.cmpf olt, %rem, %zero : f32
    %signs = arith.xori %yneg, %rneg : i1
    %fix = arith.andi %nz, %signs : i1
    %sum = arith.addf %rem, %y : f32
    %res = arith.select %fix, %sum, %rem : f32
    linalg.yield %res : f32
  } -> tensor<3x500x300xf32>
  return %r : tensor<3x500x300xf32>
}
