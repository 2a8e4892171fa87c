// pto.map (unary / tile-scalar elementwise on tensors): round trip, and pto-tile-to-capacity
// lowers each kind to its tile op (the kind table row), the scalar linked unchanged.
// RUN: pto-opt %s | pto-opt | filecheck %s
// RUN: pto-opt %s --print-op-generic | pto-opt | filecheck %s
// RUN: pto-opt %s -p pto-tile-to-capacity | filecheck %s --check-prefix=TILE
// CHECK: %r = pto.map adds signed %a, %s : tensor<100xi32>, i64
// CHECK-NEXT: %e = pto.map exp %b : tensor<7x9xf16>
// CHECK-NEXT: %m = pto.map muls %e, %f : tensor<7x9xf16>, f16
// CHECK-NEXT: %q = pto.elementwise shl signed %r, %r : tensor<100xi32>
// TILE: pto.tadds %{{.*}}, %s : !pto.tile<{{.*}}xsi32{{.*}}>, i64
// TILE: pto.texp %{{.*}} : !pto.tile<{{.*}}xf16{{.*}}>
// TILE: pto.tmuls %{{.*}}, %f : !pto.tile<{{.*}}xf16{{.*}}>, f16
// TILE: pto.tshl
func.func @f(%a: tensor<100xi32>, %s: i64, %b: tensor<7x9xf16>, %f: f16) -> (tensor<100xi32>, tensor<7x9xf16>) {
  %r = pto.map adds signed %a, %s : tensor<100xi32>, i64
  %e = pto.map exp %b : tensor<7x9xf16>
  %m = pto.map muls %e, %f : tensor<7x9xf16>, f16
  %q = pto.elementwise shl signed %r, %r : tensor<100xi32>
  func.return %q, %m : tensor<100xi32>, tensor<7x9xf16>
}
