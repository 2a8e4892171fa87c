// Mixed MX GEMV: an MXFP4 (E2M1, E8M0 scales) activation row times an FP16 weight matrix
// (no scale, D2), in the (m, n, k) generic spelling with M = 1, followed by ReLU
// (maximumf(x, 0)), which pto-lower folds into B.FPATR ReluMode 1. One op's tiles must fit
// the 256 KiB core tile capacity together, so B takes at most 32 KiB per PE: 32 TGEMVs = the
// lower bound ceil(4096*512*2 B / (4 * 32 KiB)).
//
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | filecheck %s
// RUN: python %S/Inputs/gen_inputs.py %s mxfp4_f16_gemv %t.in.npz
// RUN: pto-run %s --symbol mxfp4_f16_gemv --inputs %t.in.npz --output %t.before.npz
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | pto-run - --symbol mxfp4_f16_gemv --inputs %t.in.npz --output %t.after.npz
// RUN: python %S/Inputs/compare.py %t.before.npz %t.after.npz --tolerance 1e-5
// RUN: pto-opt %s -p pto-lower | pto-run - --symbol mxfp4_f16_gemv --inputs %t.in.npz --output %t.block.npz
// RUN: python %S/Inputs/compare.py %t.after.npz %t.block.npz --exact
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: pto-opt %s -p pto-lower -t pto-asm > %t.s && pto-opt %t.s -t pto-asm > %t.rt.s && grep -v '^#' %t.s > %t.nc.s && diff %t.nc.s %t.rt.s
// RUN: pto-opt %s -p pto-lower -t pto-bin > %t.hex && pto-opt %t.hex -t pto-bin | diff %t.hex -

// CHECK-LABEL: func.func @mxfp4_f16_gemv
// CHECK-NOT:     linalg.generic
// Per op, each PE holds A (1x2048 E2M1 in CUBE_M16: 16 KiB), B (2048x8 f16: 32 KiB), C, D
// and A's scale. Per N group of 4 x 8 columns the K chain is TGEMVMX then TGEMVMX.ACC, the
// last with ReLU (ReluMode 1); the two A chunks are loaded per group (held across the loop
// they would not fit beside B).
// CHECK:         scf.for
// CHECK:           pto.tload {{.*}} -> !pto.tile<1x2048xf4E2M1FN, cube_m16, mat>
// CHECK:           pto.tgemv_mx %{{.*}}, a_scale %{{.*}}, %{{.*}} : {{.*}} -> !pto.tile<1x8xf32, cube_m16, mat>
// CHECK:           pto.tload {{.*}} -> !pto.tile<1x2048xf4E2M1FN, cube_m16, mat>
// CHECK:           pto.tgemv_mx_acc {{.*}} {fpatr = #pto.fpatr<relu_mode = 1>} : {{.*}} -> !pto.tile<1x8xf32, cube_m16, mat>
// CHECK-NOT:       pto.tgemv
//
// ASM:      BSTART.TGEMVMX E2M1X2
// ASM-NEXT: B.DATR NORM, FP16, Zero
// ASM-NEXT: B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
// ASM:      BSTART.TGEMVMX.ACC E2M1X2
// ASM:      B.FPATR 0, 1, 0, 0, 0, 0, 0, 0, 0, 0
//

func.func @mxfp4_f16_gemv(%x: tensor<1x4096xf4E2M1FN>, %xs: tensor<1x128xf8E8M0FNU>, %w: tensor<4096x512xf16>) -> tensor<1x512xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<1x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x512xf32>) -> tensor<1x512xf32>
  %mv = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, k floordiv 32)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %xs, %w : tensor<1x4096xf4E2M1FN>, tensor<1x128xf8E8M0FNU>, tensor<4096x512xf16>) outs(%acc : tensor<1x512xf32>) {
  ^bb0(%a: f4E2M1FN, %as: f8E8M0FNU, %b: f16, %o: f32):
    %a32 = arith.extf %a : f4E2M1FN to f32
    %as32 = arith.extf %as : f8E8M0FNU to f32
    %av = arith.mulf %as32, %a32 : f32
    %b32 = arith.extf %b : f16 to f32
    %p = arith.mulf %av, %b32 : f32
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x512xf32>
  %e1 = tensor.empty() : tensor<1x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mv : tensor<1x512xf32>) outs(%e1 : tensor<1x512xf32>) {
  ^bb0(%v: f32, %out: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x512xf32>
  return %y : tensor<1x512xf32>
}
