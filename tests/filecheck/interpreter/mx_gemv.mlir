// RUN: pto-run %s --symbol mx | filecheck %s
// MX GEMV as linalg.generic: f8E4M3FN elements, f8E8M0FNU scales indexed
// (n,k)->(k floordiv 32) and (n,k)->(k floordiv 32, n) (D1). K = 64: two scale blocks.
// a = 1.0 everywhere, scale_a = [1, 2]; b = 0.5 everywhere, scale_b = [[1, 4], [2, 0.5]]
// y[0] = 32*1*0.5*1 + 32*2*0.5*2 + bias 1 = 16 + 64 + 1 = 81
// y[1] = 32*1*0.5*4 + 32*2*0.5*0.5 + bias 0 = 64 + 16 = 80

func.func @mx() -> tensor<2xf32> {
  %a = arith.constant dense<1.0> : tensor<64xf8E4M3FN>
  %as = arith.constant dense<[1.0, 2.0]> : tensor<2xf8E8M0FNU>
  %b = arith.constant dense<0.5> : tensor<64x2xf8E4M3FN>
  %bs = arith.constant dense<[[1.0, 4.0], [2.0, 0.5]]> : tensor<2x2xf8E8M0FNU>
  %bias = arith.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (k floordiv 32)>, affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (k floordiv 32, n)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"]} ins(%a, %as, %b, %bs : tensor<64xf8E4M3FN>, tensor<2xf8E8M0FNU>, tensor<64x2xf8E4M3FN>, tensor<2x2xf8E8M0FNU>) outs(%bias : tensor<2xf32>) {
  ^bb0(%x: f8E4M3FN, %sx: f8E8M0FNU, %y: f8E4M3FN, %sy: f8E8M0FNU, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %sxf = arith.extf %sx : f8E8M0FNU to f32
    %xs = arith.mulf %xf, %sxf : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %syf = arith.extf %sy : f8E8M0FNU to f32
    %ys = arith.mulf %yf, %syf : f32
    %p = arith.mulf %xs, %ys : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// CHECK: result0: tensor<2xf32> = [81.0, 80.0]
