// BF16 x BF16 -> FP32 matmul (linalg.matmul, M = 40 > 1, zero linalg.fill init: no acc) with
// K = 1500 and N = 300. One op's tiles (A, B, C, D) must fit the 256 KiB core tile capacity
// together. pto-lower tiles M by 16 (cube_m16: two 16-row tiles in an scf.for and an 8-row
// tail) and K in 4 chunks of 375 (a 16 x 375 bf16 A: 16 KiB; a 375 x 40 B: 32 KiB; C and D
// 4 KiB each, per PE), 40 columns per PE: one N group of 4 x 40 and a tail of 4 x 35. Per
// (M tile, N group) the K chain is TMATMUL then 3 TMATMUL.ACC (C = the previous D, FP32,
// PTO-SPEC 3.1): 3 x 2 x 4 = 24 instructions. (32-row M tiles would need K chunks of at most
// 204 beside their 32-row C and D: 2 x 2 x 8 = 32.)
//
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | filecheck %s
// RUN: python %S/Inputs/gen_inputs.py %s matmul_bf16 %t.in.npz
// RUN: pto-run %s --symbol matmul_bf16 --inputs %t.in.npz --output %t.before.npz
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | pto-run - --symbol matmul_bf16 --inputs %t.in.npz --output %t.after.npz
// RUN: python %S/Inputs/compare.py %t.before.npz %t.after.npz --tolerance 1e-5
// RUN: pto-opt %s -p pto-lower | pto-run - --symbol matmul_bf16 --inputs %t.in.npz --output %t.block.npz
// RUN: python %S/Inputs/compare.py %t.after.npz %t.block.npz --exact
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: pto-opt %s -p pto-lower -t pto-asm > %t.s && pto-opt %t.s -t pto-asm > %t.rt.s && grep -v '^#' %t.s > %t.nc.s && diff %t.nc.s %t.rt.s
// RUN: pto-opt %s -p pto-lower -t pto-bin > %t.hex && pto-opt %t.hex -t pto-bin | diff %t.hex -

// CHECK-LABEL: func.func @matmul_bf16
// CHECK-NOT:     linalg.
// Full M tiles (rows 0..31, 16 at a time): per N group TMATMUL on chunk 0 and TMATMUL.ACC on
// the 3 others (A's chunk, and B's with pe_stride = [0, Nc]), one tstore.
// CHECK:         scf.for
// CHECK:         pto.tload %a[%i, %c0] : tensor<40x1500xbf16> -> !pto.tile<16x375xbf16, cube_m16, mat>
// CHECK:         pto.tload %b[%c0, %c0] {pe_stride = [0, 40]} : tensor<1500x300xbf16> -> !pto.tile<375x40xbf16, cube_n8, mat>
// CHECK:         pto.tmatmul {{.*}} -> !pto.tile<16x40xf32, cube_m16, mat>
// CHECK:         pto.tload %a[%i, %c375] : tensor<40x1500xbf16> -> !pto.tile<16x375xbf16, cube_m16, mat>
// CHECK:         pto.tload %b[%c375, %c0] {pe_stride = [0, 40]}
// CHECK-COUNT-3:   pto.tmatmul_acc {{.*}} -> !pto.tile<16x40xf32, cube_m16, mat>
// CHECK:         pto.tstore {{.*}} {pe_stride = [0, 40]} : !pto.tile<16x40xf32, cube_m16, mat> -> tensor<40x300xf32>
// CHECK:         pto.tmatmul {{.*}} -> !pto.tile<16x35xf32, cube_m16, mat>
// CHECK-COUNT-3:   pto.tmatmul_acc {{.*}} -> !pto.tile<16x35xf32, cube_m16, mat>
// The M tail: 8 valid rows of the 16-row layout, starting at row 32.
// CHECK:         pto.tload %a[%c32, %c0] : tensor<40x1500xbf16> -> !pto.tile<8x375xbf16, cube_m16, mat>
// CHECK:         pto.tmatmul {{.*}} -> !pto.tile<8x40xf32, cube_m16, mat>
// CHECK-COUNT-3:   pto.tmatmul_acc {{.*}} -> !pto.tile<8x40xf32, cube_m16, mat>
// CHECK:         pto.tmatmul {{.*}} -> !pto.tile<8x35xf32, cube_m16, mat>
// CHECK-COUNT-3:   pto.tmatmul_acc {{.*}} -> !pto.tile<8x35xf32, cube_m16, mat>
// CHECK-NOT:     pto.tmatmul
//
// Block level: the first A chunk load, the first B chunk load and the K chain of the first N group.
// ASM:      BSTART.TLOAD BF16
// ASM-NEXT: B.DATR ND2M16, DTYPE_NONE, Null
// ASM-NEXT: B.DIM zero, 375, ->lb0
// ASM-NEXT: C.B.DIMI 16, ->lb1
// ASM:      B.DATR ND2N8, DTYPE_NONE, Null
// ASM-NEXT: C.B.DIMI 40, ->lb0
// ASM-NEXT: B.DIM zero, 375, ->lb1
// ASM:      BSTART.TMATMUL BF16
// ASM-NEXT: B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
// ASM-NEXT: C.B.DIMI 16, ->lb0
// ASM-NEXT: C.B.DIMI 40, ->lb1
// ASM-NEXT: B.DIM zero, 375, ->lb2
// ASM-NEXT: B.IOT m#1, n#1, mask=1111, last, ->m<4KB>
// ASM-NEXT: BSTOP
// ASM:      BSTART.TMATMUL.ACC BF16
// ASM-NEXT: B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
// ASM-NEXT: C.B.DIMI 16, ->lb0
// ASM-NEXT: C.B.DIMI 40, ->lb1
// ASM-NEXT: B.DIM zero, 375, ->lb2
// ASM-NEXT: B.IOT m#{{[0-9]+}}, m#{{[0-9]+}}, mask=1111
// ASM-NEXT: B.IOT n#1, mask=1111, last, ->m<4KB>
// ASM-NEXT: BSTOP
// ASM:      BSTART.TSTORE FP32
// ASM-NEXT: B.DATR M162ND, DTYPE_NONE, Null
//

func.func @matmul_bf16(%a: tensor<40x1500xbf16>, %b: tensor<1500x300xbf16>) -> tensor<40x300xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<40x300xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<40x300xf32>) -> tensor<40x300xf32>
  %c = linalg.matmul ins(%a, %b : tensor<40x1500xbf16>, tensor<1500x300xbf16>) outs(%acc : tensor<40x300xf32>) -> tensor<40x300xf32>
  return %c : tensor<40x300xf32>
}
