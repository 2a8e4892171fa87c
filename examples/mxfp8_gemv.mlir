// MXFP8 (E4M3 x E4M3, E8M0 scales per 32 K elements, D1) GEMV accumulating into a bias,
// with K = 5000 (not a multiple of 32 nor of the K chunk) and N = 1000. pto-lower picks
// Kc = 1024 (a multiple of 32, so each chunk's scales start at k/32) and 32 columns per PE:
// 4 full chunks and a last one of 904 (its last scale block is partial), each over 7 full
// N groups of 4 x 32 columns and a tail of 4 x 26: 40 TGEMVs. One op's tiles must fit the
// 256 KiB core tile capacity together, so a B tile takes at most 32 KiB per PE (64 KiB on 4
// PEs would fill it alone): the lower bound is ceil(5000*1000 B / (4 * 32 KiB)) = 39.
//
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | filecheck %s
// RUN: python %S/Inputs/gen_inputs.py %s mxfp8_gemv %t.in.npz
// RUN: pto-run %s --symbol mxfp8_gemv --inputs %t.in.npz --output %t.before.npz
// RUN: pto-opt %s -p 'pto-lower{level=tile}' | pto-run - --symbol mxfp8_gemv --inputs %t.in.npz --output %t.after.npz
// RUN: python %S/Inputs/compare.py %t.before.npz %t.after.npz --tolerance 1e-5
// RUN: pto-opt %s -p pto-lower | pto-run - --symbol mxfp8_gemv --inputs %t.in.npz --output %t.block.npz
// RUN: python %S/Inputs/compare.py %t.after.npz %t.block.npz --exact
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: pto-opt %s -p pto-lower -t pto-asm > %t.s && pto-opt %t.s -t pto-asm > %t.rt.s && grep -v '^#' %t.s > %t.nc.s && diff %t.nc.s %t.rt.s
// RUN: pto-opt %s -p pto-lower -t pto-bin > %t.hex && pto-opt %t.hex -t pto-bin | diff %t.hex -

// CHECK-LABEL: func.func @mxfp8_gemv
// CHECK-NOT:     linalg.generic
// Per op, each PE holds A (1 x 1024 in CUBE_M16: 16 KiB), B (1024 x 32: 32 KiB), C and D
// (2 KiB each) and the scales: 212.5 KiB on 4 PEs. The full N groups run in an scf.for: a
// K chain of TGEMVMX.BIAS then 4 TGEMVMX.ACC (C = the previous D), then one tstore per group.
// CHECK:         scf.for
// CHECK:         pto.tload %{{.*}}[%c0, %c0] : tensor<1x5000xf8E4M3FN> -> !pto.tile<1x1024xf8E4M3FN, cube_m16, mat>
// CHECK:         pto.tload %w[%c0, %i] {pe_stride = [0, 32]} : tensor<5000x1000xf8E4M3FN> -> !pto.tile<1024x32xf8E4M3FN, cube_n8, mat>
// CHECK:         pto.tgemv_mx_bias %{{.*}}, a_scale %{{.*}}, %{{.*}}, b_scale %{{.*}}, %{{.*}} : {{.*}} -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-COUNT-3:   pto.tgemv_mx_acc {{.*}} !pto.tile<1024x32xf8E4M3FN, cube_n8, mat>
// CHECK:         pto.tgemv_mx_acc {{.*}} !pto.tile<904x32xf8E4M3FN, cube_n8, mat>
// CHECK:         pto.tstore
// CHECK:         scf.yield
// The tail group: 4 PEs x 26 columns.
// CHECK:         pto.tgemv_mx_bias {{.*}} -> !pto.tile<1x26xf32, cube_m16, mat>
// CHECK-COUNT-4:   pto.tgemv_mx_acc {{.*}} -> !pto.tile<1x26xf32, cube_m16, mat>
// CHECK:         pto.tstore
// CHECK-NOT:     pto.tgemv
//
// ASM:      BSTART.TGEMVMX.BIAS E4M3
// ASM-NEXT: B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
// ASM:      BSTART.TGEMVMX.ACC E4M3
//

#vec = affine_map<(n, k) -> (k)>
#vec_scale = affine_map<(n, k) -> (k floordiv 32)>
#mat = affine_map<(n, k) -> (k, n)>
#mat_scale = affine_map<(n, k) -> (k floordiv 32, n)>
#out = affine_map<(n, k) -> (n)>
func.func @mxfp8_gemv(%x: tensor<5000xf8E4M3FN>, %xs: tensor<157xf8E8M0FNU>, %w: tensor<5000x1000xf8E4M3FN>, %ws: tensor<157x1000xf8E8M0FNU>, %bias: tensor<1000xf32>) -> tensor<1000xf32> {
  %y = linalg.generic {indexing_maps = [#vec, #vec_scale, #mat, #mat_scale, #out], iterator_types = ["parallel", "reduction"]} ins(%x, %xs, %w, %ws : tensor<5000xf8E4M3FN>, tensor<157xf8E8M0FNU>, tensor<5000x1000xf8E4M3FN>, tensor<157x1000xf8E8M0FNU>) outs(%bias : tensor<1000xf32>) {
  ^bb0(%a: f8E4M3FN, %as: f8E8M0FNU, %b: f8E4M3FN, %bs: f8E8M0FNU, %acc: f32):
    %a32 = arith.extf %a : f8E4M3FN to f32
    %as32 = arith.extf %as : f8E8M0FNU to f32
    %av = arith.mulf %a32, %as32 : f32
    %b32 = arith.extf %b : f8E4M3FN to f32
    %bs32 = arith.extf %bs : f8E8M0FNU to f32
    %bv = arith.mulf %b32, %bs32 : f32
    %p = arith.mulf %av, %bv : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1000xf32>
  return %y : tensor<1000xf32>
}
