// A TLOAD/TSTORE CUBE conversion (ND <-> CUBE_M16/M32/N8) needs a Matrix-location tile: the ASL
// checks TileCubeDescriptorLegal (asl/tile/model/legality/descriptor-shape.asl) before any GM
// access (AVS BLOCK-TSTORE-CUBE-DESCRIPTOR-004). One diagnostic per case.
// RUN: pto-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @tload_cube_vec(%a: tensor<2x3xf16>) -> !pto.tile<2x3xf16, cube_m16, vec> {
  %c0 = arith.constant 0 : index
  %t = pto.tload %a[%c0, %c0] : tensor<2x3xf16> -> !pto.tile<2x3xf16, cube_m16, vec>
  func.return %t : !pto.tile<2x3xf16, cube_m16, vec>
}
// CHECK: 'pto.tload' op [TileLegality] a cube_m16 tile moves by a CUBE conversion, which needs location mat, not vec (asl/tile/model/legality/descriptor-shape.asl TileCubeDescriptorLegal)

// -----

func.func @tstore_cube_any(%t: !pto.tile<2x3xf16, cube_n8>, %d: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %c0 = arith.constant 0 : index
  %r = pto.tstore %t, %d[%c0, %c0] : !pto.tile<2x3xf16, cube_n8> -> tensor<2x3xf16>
  func.return %r : tensor<2x3xf16>
}
// CHECK: 'pto.tstore' op [TileLegality] a cube_n8 tile moves by a CUBE conversion, which needs location mat, not any (asl/tile/model/legality/descriptor-shape.asl TileCubeDescriptorLegal)
