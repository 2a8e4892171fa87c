// Two binary siblings of TREM in one function (gen_inputs.py / pto-run take one symbol per
// file): a wrapping i16 add (arith.addi, TADD S16; integers wrap in both) and an f16
// arith.maxnumf (TMAX FP16: one NaN gives the other operand, -0 < +0, as maxnumf does), on
// 600 x 257 with NaN, +-0 and +-inf inputs (--specials), so the comparison is bit-exact.
// 154200 elements = 19275 x 8 (8 = the largest power of two dividing 154200): a full group
// of 4 x 4096 x 8 tiles (16-bit, 64 KiB) and a tail of 2891 rows as 4 slices of 725 valid
// rows at stride 722 in 1024 x 8 tiles (16 KiB). 2 TADDs + 2 TMAXs, each op at its lower
// bound ceil(154200*2 B / (4 * 64 KiB)) = 2.
//
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | filecheck %s
// RUN: python %S/Inputs/gen_inputs.py %s elementwise_i16_f16 %t.in.npz --specials
// RUN: pto-run %s --symbol elementwise_i16_f16 --inputs %t.in.npz --output %t.before.npz
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | pto-run - --symbol elementwise_i16_f16 --inputs %t.in.npz --output %t.after.npz
// RUN: python %S/Inputs/compare.py %t.before.npz %t.after.npz --exact
// RUN: pto-opt %s -p pto-lower | pto-run - --symbol elementwise_i16_f16 --inputs %t.in.npz --output %t.block.npz
// RUN: python %S/Inputs/compare.py %t.after.npz %t.block.npz --exact
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: pto-opt %s -p pto-lower -t pto-asm > %t.s && pto-opt %t.s -t pto-asm > %t.rt.s && grep -v '^#' %t.s > %t.nc.s && diff %t.nc.s %t.rt.s
// RUN: pto-opt %s -p pto-lower -t pto-bin > %t.hex && pto-opt %t.hex -t pto-bin | diff %t.hex -

// CHECK-LABEL: func.func @elementwise_i16_f16
// CHECK-NOT:     linalg.generic
// CHECK:         tensor.expand_shape {{.*}} output_shape [19275, 8] : tensor<154200xi16> into tensor<19275x8xi16>
// CHECK:         pto.tload {{.*}} {pe_stride = [1024, 0]} : tensor<19275x8xi16> -> !pto.tile<1024x8xsi16>
// CHECK:         pto.tadd {{.*}} : !pto.tile<1024x8xsi16>
// CHECK:         pto.tload {{.*}} {pe_stride = [722, 0]} : tensor<19275x8xi16> -> !pto.tile<1024x8xsi16, valid=725x8>
// CHECK:         pto.tadd {{.*}} : !pto.tile<1024x8xsi16, valid=725x8>
// CHECK:         tensor.expand_shape {{.*}} output_shape [600, 257] : tensor<154200xi16> into tensor<600x257xi16>
// CHECK:         pto.tmax {{.*}} : !pto.tile<1024x8xf16>
// CHECK:         pto.tmax {{.*}} : !pto.tile<1024x8xf16, valid=725x8>
// CHECK:         tensor.expand_shape {{.*}} output_shape [600, 257] : tensor<154200xf16> into tensor<600x257xf16>
// CHECK-NOT:     pto.tadd
// CHECK-NOT:     pto.tmax
//
// Block level (pto-lower): the first TADD, the tail TADD, and the first TMAX blocks.
// ASM:      BSTART.VEC TADD, S16
// ASM-NEXT: C.B.DIMI 8, ->lb0
// ASM-NEXT: B.DIM zero, 1024, ->lb1
// ASM-NEXT: B.IOT t#1, t#2, mask=1111, last, ->t<16KB>
// ASM-NEXT: BSTOP
// ASM:      BSTART.VEC TADD, S16
// ASM-NEXT: C.B.DIMI 8, ->lb0
// ASM-NEXT: B.DIM zero, 725, ->lb1
// ASM-NEXT: B.IOT t#1, t#2, mask=1111, last, ->t<16KB>
// ASM-NEXT: BSTOP
// ASM:      BSTART.VEC TMAX, FP16
// ASM-NEXT: C.B.DIMI 8, ->lb0
// ASM-NEXT: B.DIM zero, 1024, ->lb1
// ASM-NEXT: B.IOT t#1, t#2, mask=1111, last, ->t<16KB>
// ASM-NEXT: BSTOP

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise_i16_f16(%a: tensor<600x257xi16>, %b: tensor<600x257xi16>, %x: tensor<600x257xf16>, %y: tensor<600x257xf16>) -> (tensor<600x257xi16>, tensor<600x257xf16>) {
  %e0 = tensor.empty() : tensor<600x257xi16>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<600x257xi16>, tensor<600x257xi16>) outs(%e0 : tensor<600x257xi16>) {
  ^bb0(%p: i16, %q: i16, %o: i16):
    %s = arith.addi %p, %q : i16
    linalg.yield %s : i16
  } -> tensor<600x257xi16>
  %e1 = tensor.empty() : tensor<600x257xf16>
  %max = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<600x257xf16>, tensor<600x257xf16>) outs(%e1 : tensor<600x257xf16>) {
  ^bb0(%u: f16, %v: f16, %o: f16):
    %m = arith.maxnumf %u, %v : f16
    linalg.yield %m : f16
  } -> tensor<600x257xf16>
  return %sum, %max : tensor<600x257xi16>, tensor<600x257xf16>
}
