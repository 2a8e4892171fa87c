// RUN: pto-run %s --symbol main | filecheck %s
// GEMV as linalg.matmul 1xK x KxN -> 1xN f32 with a zero fill and a truncf epilogue.
// Products of bf16 are exact in f32: 1*0.5 + 2*0.25 + 3*(-1) + 4*2 = 6, etc.

func.func @main() -> (tensor<1x3xf32>, tensor<1x3xbf16>) {
  %a = arith.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xbf16>
  %b = arith.constant dense<[[0.5, 1.0, 0.0], [0.25, 1.0, 0.0], [-1.0, 1.0, 0.0], [2.0, 1.0, 0.0078125]]> : tensor<4x3xbf16>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x4xbf16>, tensor<4x3xbf16>) outs(%f : tensor<1x3xf32>) -> tensor<1x3xf32>
  %e2 = tensor.empty() : tensor<1x3xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<1x3xf32>) outs(%e2 : tensor<1x3xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %x = arith.truncf %in : f32 to bf16
    linalg.yield %x : bf16
  } -> tensor<1x3xbf16>
  func.return %r, %t : tensor<1x3xf32>, tensor<1x3xbf16>
}

// CHECK: result0: tensor<1x3xf32> = {{\[\[}}6.0, 10.0, 0.03125]]
// CHECK-NEXT: result1: tensor<1x3xbf16> = {{\[\[}}6.0, 10.0, 0.03125]]
