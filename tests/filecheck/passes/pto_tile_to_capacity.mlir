// RUN: pto-opt %s -p pto-tile-to-capacity | filecheck %s
// RUN: pto-opt %s -p 'pto-tile-to-capacity{tile-bytes=4096 pes=2}' | filecheck %s --check-prefix=SMALL
// RUN: pto-opt %s -p 'pto-tile-to-capacity{target=a2a3}' | filecheck %s --check-prefix=A2A3
// RUN: not pto-opt %s -p 'pto-tile-to-capacity{tile-bytes=1000}' 2>&1 | filecheck %s --check-prefix=BAD
// Tiling to capacity (D10, D13, D14).

// BAD: tile-bytes=1000 is not a Local TSize

// 100 x 30 = 3000 = 375 x 8 elements: one TREM on 4 PEs, 96-row slices at a stride of 93
// rows (3 x 93 + 96 = 375; neighbouring slices overlap by 3 rows and store equal values).
// CHECK-LABEL: func.func @fm_small
// CHECK:         tensor.expand_shape {{.*}} output_shape [375, 8]
// CHECK:         %[[A:.*]] = pto.tload %{{.*}}[%c0, %c0] {pe_stride = [93, 0]} : tensor<375x8xi32> -> !pto.tile<128x8xsi32, valid=96x8>
// CHECK:         pto.trem
// CHECK-NOT:     pto.trem
// SMALL-LABEL: func.func @fm_small
// SMALL:         pto.tload {{.*}} {pe_stride = [128, 0]} : tensor<375x8xi32> -> !pto.tile<128x8xsi32, pe=1100>
// SMALL:         pto.trem {{.*}} {mask = #pto.mask<1100>} : !pto.tile<128x8xsi32, pe=1100>
// SMALL:         pto.tload {{.*}} {pe_stride = [59, 0]} : tensor<375x8xi32> -> !pto.tile<64x8xsi32, valid=60x8, pe=1100>
// A2A3-LABEL:  func.func @fm_small
// A2A3:          pto.trem
func.func @fm_small(%a: tensor<100x30xi32>, %b: tensor<100x30xi32>) -> tensor<100x30xi32> {
  %r = pto.floor_mod signed %a, %b : tensor<100x30xi32>
  return %r : tensor<100x30xi32>
}

// bf16, odd element count: Col 1.
// CHECK-LABEL: func.func @fm_odd_bf16
// CHECK:         pto.tload {{.*}} : tensor<999x1xbf16> -> !pto.tile<256x1xbf16, valid=252x1>
func.func @fm_odd_bf16(%a: tensor<999xbf16>, %b: tensor<999xbf16>) -> tensor<999xbf16> {
  %r = pto.floor_mod %a, %b : tensor<999xbf16>
  return %r : tensor<999xbf16>
}

// A GEMV with a bias, ReLU and a bf16 result. K = 4100: three K chunks (1367, 1367, 1366)
// with all 64 columns in one 4-PE group take 3 TGEMVs, the lower bound
// ceil(4100*64*2 B / (4 * 64 KiB)); two chunks of 2050 would leave room for 8 columns only.
// CHECK-LABEL: func.func @gemv
// CHECK:         %[[A2:.*]] = tensor.expand_shape %a
// CHECK:         %[[BIAS2:.*]] = tensor.expand_shape %bias
// CHECK:         %[[ACC:.*]] = scf.for %[[K:.*]] = %c0 to %c2734 step %c1367 iter_args(%[[CUR:.*]] = %[[BIAS2]])
// CHECK:           pto.tload %[[A2]][%c0, %[[K]]] : tensor<1x4100xf16> -> !pto.tile<1x1367xf16, cube_m16, mat>
// CHECK:           pto.tload %b[%[[K]], %c0] {pe_stride = [0, 16]} : tensor<4100x64xf16> -> !pto.tile<1367x16xf16, cube_n8, mat>
// CHECK:           pto.tload %[[CUR]][%c0, %c0] {pe_stride = [0, 16]} : tensor<1x64xf32> -> !pto.tile<2x16xf32, valid=1x16>
// CHECK:           %[[D:.*]] = pto.tgemv_mx_bias {{.*}} -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK:           pto.tstore %[[D]], %[[CUR]][%c0, %c0] {pe_stride = [0, 16]} : !pto.tile<1x16xf32, cube_m16, mat> -> tensor<1x64xf32>
// CHECK:         pto.tload %[[A2]][%c0, %c2734] : tensor<1x4100xf16> -> !pto.tile<1x1366xf16, cube_m16, mat>
// CHECK:         pto.tload %[[ACC]][%c0, %c0]
// CHECK:         pto.tgemv_mx_bias {{.*}} {fpatr = #pto.fpatr<pre_quant_mode = 16, relu_mode = 1>} {{.*}} -> !pto.tile<1x16xbf16, cube_m16, mat>
// CHECK:         tensor.collapse_shape {{.*}} into tensor<64xbf16>
// SMALL-LABEL: func.func @gemv
// SMALL:         pto.tgemv_mx_bias {{.*}} {mask = #pto.mask<1100>}
// A2A3-LABEL:  func.func @gemv
// A2A3:          pto.gemv
// A2A3-NOT:      pto.tgemv_mx_bias
func.func @gemv(%a: tensor<4100xf16>, %b: tensor<4100x64xf16>, %bias: tensor<64xf32>) -> tensor<64xbf16> {
  %r = pto.gemv %a, %b bias %bias {relu} : (tensor<4100xf16>, tensor<4100x64xf16>, tensor<64xf32>) -> tensor<64xbf16>
  return %r : tensor<64xbf16>
}
