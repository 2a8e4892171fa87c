// FP16 GEMV (linalg.matmul, M = 1) with a broadcast bias add and a truncf to f16: pto-lower
// folds the bias into TGEMV_MX_BIAS's Bias operand and the truncf into PreQuantMode 1
// (F322F16). The K chain runs through TGEMV.ACC (PTO-SPEC 3.1). One op's tiles must fit the
// 256 KiB core tile capacity together, so B takes at most 32 KiB per PE: 64 TGEMVs = the
// lower bound ceil(4096*1024*2 B / (4 * 32 KiB)).
//
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | filecheck %s
// RUN: python %S/Inputs/gen_inputs.py %s gemv_f16_bias_truncf %t.in.npz
// RUN: pto-run %s --symbol gemv_f16_bias_truncf --inputs %t.in.npz --output %t.before.npz
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | pto-run - --symbol gemv_f16_bias_truncf --inputs %t.in.npz --output %t.after.npz
// RUN: python %S/Inputs/compare.py %t.before.npz %t.after.npz --tolerance 1e-3
// RUN: pto-opt %s -p pto-lower | pto-run - --symbol gemv_f16_bias_truncf --inputs %t.in.npz --output %t.block.npz
// RUN: python %S/Inputs/compare.py %t.after.npz %t.block.npz --exact
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: pto-opt %s -p pto-lower -t pto-asm > %t.s && pto-opt %t.s -t pto-asm > %t.rt.s && grep -v '^#' %t.s > %t.nc.s && diff %t.nc.s %t.rt.s
// RUN: pto-opt %s -p pto-lower -t pto-bin > %t.hex && pto-opt %t.hex -t pto-bin | diff %t.hex -

// CHECK-LABEL: func.func @gemv_f16_bias_truncf
// CHECK-NOT:     linalg.
// Per op, each PE holds A (1x512 f16 in CUBE_M16: 16 KiB), B (512x32: 32 KiB), C, D and the
// bias: per N group of 4 x 32 columns the 8 K chunks chain TGEMV.BIAS then TGEMV.ACC
// (C = the previous D, FP32); the last converts to f16 (PreQuantMode 1): one tstore.
// CHECK:         scf.for
// CHECK:           pto.tload {{.*}} -> !pto.tile<1x512xf16, cube_m16, mat>
// CHECK:           pto.tload {{.*}} {pe_stride = [0, 32]} : tensor<4096x1024xf16> -> !pto.tile<512x32xf16, cube_n8, mat>
// CHECK:           pto.tgemv_bias {{.*}} -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-COUNT-6:   pto.tgemv_acc {{.*}} -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK:           pto.tgemv_acc {{.*}} {fpatr = #pto.fpatr<pre_quant_mode = 1>} {{.*}} -> !pto.tile<1x32xf16, cube_m16, mat>
// CHECK:           pto.tstore {{.*}} -> tensor<1x1024xf16>
// CHECK-NOT:     pto.tstore
//
// ASM:      BSTART.TGEMV.BIAS FP16
// ASM-NEXT: B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
// ASM:      BSTART.TGEMV.ACC FP16
// ASM-NEXT: B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
// ASM:      B.FPATR 1, 0, 0, 0, 0, 0, 0, 0, 0, 0
// ASM-NEXT: C.B.DIMI 32, ->lb1
// ASM-NEXT: B.DIM zero, 512, ->lb2
// ASM-NEXT: B.IOT m#{{[0-9]+}}, m#{{[0-9]+}}, mask=1111
//

func.func @gemv_f16_bias_truncf(%x: tensor<1x4096xf16>, %w: tensor<4096x1024xf16>, %bias: tensor<1024xf32>) -> tensor<1x1024xf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<1x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<1x4096xf16>, tensor<4096x1024xf16>) outs(%acc : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %e1 = tensor.empty() : tensor<1x1024xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<1x1024xf32>, tensor<1024xf32>) outs(%e1 : tensor<1x1024xf32>) {
  ^bb0(%m: f32, %b: f32, %out: f32):
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x1024xf32>
  %e2 = tensor.empty() : tensor<1x1024xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%biased : tensor<1x1024xf32>) outs(%e2 : tensor<1x1024xf16>) {
  ^bb0(%v: f32, %out: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x1024xf16>
  return %y : tensor<1x1024xf16>
}
