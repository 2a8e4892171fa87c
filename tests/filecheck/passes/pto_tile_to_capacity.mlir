// RUN: pto-opt %s -p pto-tile-to-capacity | filecheck %s
// RUN: pto-opt %s -p 'pto-tile-to-capacity{tile-bytes=4096 pes=2}' | filecheck %s --check-prefix=SMALL
// RUN: pto-opt %s -p 'pto-tile-to-capacity{target=a2a3}' | filecheck %s --check-prefix=A2A3
// RUN: pto-opt %s -p 'pto-tile-to-capacity{chain=memory}' | filecheck %s --check-prefix=MEM
// RUN: not pto-opt %s -p 'pto-tile-to-capacity{tile-bytes=1000}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not pto-opt %s -p 'pto-tile-to-capacity{chain=register}' 2>&1 | filecheck %s --check-prefix=BADCHAIN
// RUN: not pto-opt %s -p 'pto-tile-to-capacity{cube-tile-bytes=100}' 2>&1 | filecheck %s --check-prefix=BADCUBE
// Tiling to capacity (D10, D13, D14).

// BAD: tile-bytes=1000 is not a Local TSize
// BADCHAIN: chain=register must be one of acc, memory
// BADCUBE: cube-tile-bytes=100 is not a Local TSize

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

// A GEMV with a bias, ReLU and a bf16 result. K = 4100, N = 64: all 64 columns in one
// 4-PE group (16 per PE). One op's tiles must fit the 256 KiB core tile capacity together
// (asl/tile/model/capacity/local.asl): A in CUBE_M16 holds 16 rows, so a K chunk of c f16
// elements takes 32c B for A and 32c B for B on each PE; c <= 512 keeps both at 16 KiB (two
// 32 KiB tiles plus C, D and the bias would pass 64 KiB per PE). Nine chunks (8 x 456 + 452).
// CHECK-LABEL: func.func @gemv
// CHECK:         %[[A2:.*]] = tensor.expand_shape %a
// CHECK:         %[[BIAS2:.*]] = tensor.expand_shape %bias
// The K chain runs through the ACC forms (PTO-SPEC 3.1): chunk 0 takes the bias
// (TGEMV.BIAS), chunks 1..8 are TGEMV.ACC with C = the previous D; only the last converts to
// bf16 and applies ReLU. One tstore, no FP32 round trip.
// CHECK:         %[[A0:.*]] = pto.tload %[[A2]][%c0, %c0] : tensor<1x4100xf16> -> !pto.tile<1x456xf16, cube_m16, mat>
// CHECK:         %[[B0:.*]] = pto.tload %b[%c0, %c0] {pe_stride = [0, 16]} : tensor<4100x64xf16> -> !pto.tile<456x16xf16, cube_n8, mat>
// CHECK:         %[[BI:.*]] = pto.tload %[[BIAS2]][%c0, %c0] {pe_stride = [0, 16]} : tensor<1x64xf32> -> !pto.tile<2x16xf32, valid=1x16>
// CHECK:         %[[D0:.*]] = pto.tgemv_bias %[[A0]], %[[B0]], %[[BI]] : {{.*}} -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK:         %[[D1:.*]] = pto.tgemv_acc %[[D0]], %{{.*}} : {{.*}} -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK-COUNT-6: pto.tgemv_acc {{.*}} -> !pto.tile<1x16xf32, cube_m16, mat>
// CHECK:         %[[D8:.*]] = pto.tgemv_acc %{{.*}} {fpatr = #pto.fpatr<pre_quant_mode = 16, relu_mode = 1>} : {{.*}} -> !pto.tile<1x16xbf16, cube_m16, mat>
// CHECK:         pto.tstore %[[D8]]
// CHECK-NOT:     pto.tstore
// CHECK:         tensor.collapse_shape {{.*}} into tensor<64xbf16>
// SMALL-LABEL: func.func @gemv
// SMALL:         pto.tgemv_bias {{.*}} {mask = #pto.mask<1100>}
// SMALL:         pto.tgemv_acc {{.*}} {mask = #pto.mask<1100>}
// D15: a2a3 has the ordinary (non-MX) forms, so an FP16 GEMV still tiles.
// A2A3-LABEL:  func.func @gemv
// A2A3:          pto.tgemv_bias
// A2A3-NOT:      _mx
// MEM-LABEL:   func.func @gemv
// MEM:           scf.for
// MEM:             pto.tgemv_mx_bias
// MEM:             pto.tstore
func.func @gemv(%a: tensor<4100xf16>, %b: tensor<4100x64xf16>, %bias: tensor<64xf32>) -> tensor<64xbf16> {
  %r = pto.gemv %a, %b bias %bias {relu} : (tensor<4100xf16>, tensor<4100x64xf16>, tensor<64xf32>) -> tensor<64xbf16>
  return %r : tensor<64xbf16>
}

// A 40 x 100 x 48 FP16 matmul accumulating into %c: M = 40 > 16, so CUBE_M32 tiles (32 + 8
// rows); chunk 0 is TMATMUL.ACC with C = the init tile, loaded in A's layout (D10).
// CHECK-LABEL: func.func @matmul
// CHECK:         pto.tload %c[{{.*}}] {pe_stride = [0, 12]} : tensor<40x48xf32> -> !pto.tile<32x12xf32, cube_m32, mat>
// CHECK:         pto.tmatmul_acc {{.*}} -> !pto.tile<32x12xf32, cube_m32, mat>
// CHECK:         pto.tmatmul_acc {{.*}} -> !pto.tile<8x12xf32, cube_m32, mat>
// A2A3-LABEL:  func.func @matmul
// A2A3:          pto.tmatmul_acc
func.func @matmul(%a: tensor<40x100xf16>, %b: tensor<100x48xf16>, %c: tensor<40x48xf32>) -> tensor<40x48xf32> {
  %r = pto.matmul %a, %b acc %c : (tensor<40x100xf16>, tensor<100x48xf16>, tensor<40x48xf32>) -> tensor<40x48xf32>
  return %r : tensor<40x48xf32>
}

// The TREM siblings share its tiling (plan_trem): one TDIV, unsigned tiles for divui.
// CHECK-LABEL: func.func @ew_div
// CHECK:         pto.tload {{.*}} : tensor<25x32xi16> -> !pto.tile<{{.*}}xui16
// CHECK:         pto.tdiv
// CHECK-NOT:     pto.tdiv
func.func @ew_div(%a: tensor<100x8xi16>, %b: tensor<100x8xi16>) -> tensor<100x8xi16> {
  %r = pto.elementwise div unsigned %a, %b : tensor<100x8xi16>
  return %r : tensor<100x8xi16>
}
