// RUN: pto-run %s --symbol vecmat | filecheck %s --check-prefix=VECMAT
// RUN: pto-run %s --symbol generic | filecheck %s --check-prefix=GENERIC
// linalg.vecmat and the equivalent linalg.generic (extf, extf, mulf, addf) agree.

func.func @vecmat() -> tensor<2xf32> {
  %x = arith.constant dense<[1.0, -2.0, 0.5]> : tensor<3xf16>
  %m = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf16>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.vecmat ins(%x, %m : tensor<3xf16>, tensor<3x2xf16>) outs(%f : tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

func.func @generic() -> tensor<2xf32> {
  %x = arith.constant dense<[1.0, -2.0, 0.5]> : tensor<3xf16>
  %m = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf16>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"]} ins(%x, %m : tensor<3xf16>, tensor<3x2xf16>) outs(%f : tensor<2xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// VECMAT: result0: tensor<2xf32> = [-2.5, -3.0]
// GENERIC: result0: tensor<2xf32> = [-2.5, -3.0]
