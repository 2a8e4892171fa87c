// Signed int32 floor modulo (torch-mlir aten.remainder / ONNX Mod(fmod=0)) on 1000 x 777.
// pto-lower views the 777000 elements as 97125 x 8 so that 2048 x 8 x si32 tiles are full
// (64 KiB, D14): 12 TREMs on 4 PEs, the lower bound ceil(777000*4 B / (4 * 64 KiB)) = 12.
//
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | filecheck %s
// RUN: python %S/Inputs/gen_inputs.py %s floormod_i32 %t.in.npz
// RUN: pto-run %s --symbol floormod_i32 --inputs %t.in.npz --output %t.before.npz
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | pto-run - --symbol floormod_i32 --inputs %t.in.npz --output %t.after.npz
// RUN: python %S/Inputs/compare.py %t.before.npz %t.after.npz --exact
// RUN: pto-opt %s -p pto-lower | pto-run - --symbol floormod_i32 --inputs %t.in.npz --output %t.block.npz
// RUN: python %S/Inputs/compare.py %t.after.npz %t.block.npz --exact
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: pto-opt %s -p pto-lower -t pto-asm > %t.s && pto-opt %t.s -t pto-asm > %t.rt.s && grep -v '^#' %t.s > %t.nc.s && diff %t.nc.s %t.rt.s
// RUN: pto-opt %s -p pto-lower -t pto-bin > %t.hex && pto-opt %t.hex -t pto-bin | diff %t.hex -

// CHECK-LABEL: func.func @floormod_i32
// CHECK-NOT:     linalg.generic
// CHECK:         tensor.expand_shape {{.*}} output_shape [97125, 8]
// CHECK:         scf.for {{.*}} iter_args
// CHECK:           pto.tload {{.*}} {pe_stride = [512, 0]} : tensor<97125x8xi32> -> !pto.tile<512x8xsi32>
// CHECK:           pto.trem {{.*}} : !pto.tile<512x8xsi32>
// CHECK:           pto.tstore
// CHECK:         pto.trem {{.*}} : !pto.tile<256x8xsi32, valid=218x8>
// CHECK:         tensor.expand_shape {{.*}} output_shape [1000, 777]
//
// Block level (pto-lower): the first TLOAD, compute and TSTORE blocks, register-assigned.
// ASM:      # pseudo GMADDR a0, a1 <-
// ASM-NEXT: BSTART.TLOAD S32
// ASM-NEXT: C.B.DIMI 8, ->lb0
// ASM-NEXT: B.DIM zero, 512, ->lb1
// ASM-NEXT: B.IOR [a0, a1, zero], ->zero
// ASM-NEXT: B.IOT mask=1111, last, ->t<16KB>
// ASM-NEXT: BSTOP
// ASM:      BSTART.SFU TREM, S32
// ASM-NEXT: C.B.DIMI 8, ->lb0
// ASM-NEXT: B.DIM zero, 512, ->lb1
// ASM-NEXT: B.IOT t#1, t#2, mask=1111, last, ->t<16KB>
// ASM-NEXT: BSTOP
// ASM:      # pseudo GMADDR a0, a1 <-
// ASM-NEXT: BSTART.TSTORE S32
// ASM-NEXT: C.B.DIMI 8, ->lb0
// ASM-NEXT: B.DIM zero, 512, ->lb1
// ASM-NEXT: B.IOR [a0, a1, zero], ->zero
// ASM-NEXT: B.IOT t#3, mask=1111, last
// ASM-NEXT: BSTOP

func.func @floormod_i32(%a: tensor<1000x777xi32>, %b: tensor<1000x777xi32>) -> tensor<1000x777xi32> {
  %c0 = arith.constant 0 : i32
  %init = tensor.empty() : tensor<1000x777xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<1000x777xi32>, tensor<1000x777xi32>) outs(%init : tensor<1000x777xi32>) {
  ^bb0(%x: i32, %y: i32, %out: i32):
    %rem = arith.remsi %x, %y : i32
    %nz = arith.cmpi ne, %rem, %c0 : i32
    %yneg = arith.cmpi slt, %y, %c0 : i32
    %rneg = arith.cmpi slt, %rem, %c0 : i32
    %signs = arith.xori %yneg, %rneg : i1
    %fix = arith.andi %nz, %signs : i1
    %sum = arith.addi %rem, %y : i32
    %res = arith.select %fix, %sum, %rem : i32
    linalg.yield %res : i32
  } -> tensor<1000x777xi32>
  return %r : tensor<1000x777xi32>
}
