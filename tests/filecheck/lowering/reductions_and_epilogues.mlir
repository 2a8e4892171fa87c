// Reductions, broadcasts, matmul epilogues and transposes at tensor level (issue 10, D18):
// what convert-linalg-to-pto makes of softmax's pieces, a transposed Gemm with bias and ReLU,
// and which reductions stay (with their reason).
// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// RUN: pto-opt %s -p 'pto-lower{level=tile report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @softmax_pieces
// CHECK:       pto.reduce rowmax %x : (tensor<4x16xf32>) -> tensor<4x1xf32>
// CHECK:       pto.map exp
// CHECK:       pto.reduce rowprod
// CHECK:       pto.elementwise mul
// CHECK:       pto.expand row expdif %x, %{{.*}} : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
// CHECK:       pto.reduce rowsum
// CHECK:       pto.expand row div
// CHECK-NOT:   linalg.generic
func.func @softmax_pieces(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %i = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%i : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x16xf32>, tensor<4x1xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.subf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %v = math.exp %p : f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<4x16xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %s : tensor<4x16xf32>, tensor<4x1xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.divf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  func.return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @gemm_transb_bias_relu
// CHECK:       %[[T:.*]] = pto.transpose %w : (tensor<16x40xf32>) -> tensor<40x16xf32>
// CHECK:       pto.matmul %a, %[[T]] bias %bias {relu} : (tensor<4x40xf32>, tensor<40x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NOT:   linalg.
func.func @gemm_transb_bias_relu(%a: tensor<4x40xf32>, %w: tensor<16x40xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<40x16xf32>
  %t = linalg.transpose ins(%w : tensor<16x40xf32>) outs(%et : tensor<40x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %t : tensor<4x40xf32>, tensor<40x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.addf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %c = arith.cmpf ugt, %p, %zero : f32
    %v = arith.select %c, %p, %zero : f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  func.return %r : tensor<4x16xf32>
}

// A float sum continued from 1.0 is not TROWSUM's fold from +0 (D18): it stays.
// CHECK-LABEL: func.func @sum_from_one
// CHECK:       linalg.generic
// REPORT: kept {{.*}}reduction (arith.addf): a float sum from init 1.0: TROWSUM/TCOLSUM fold from +0.0, and a sequential float sum continued from another value rounds differently
func.func @sum_from_one(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %i = linalg.fill ins(%one : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%i : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  func.return %s : tensor<4x1xf32>
}

// An arg-max index that is used: TROWARGMAX's index rule is not torch's `cmpf ogt` + select.
// REPORT: kept {{.*}}reduction ({{.*}}) with 2 used results: one TROW*/TCOL* computes one result; an arg-max/arg-min index is TROWARGMAX/TROWARGMIN only where its rule matches
func.func @argmax(%x: tensor<4x16xf32>) -> (tensor<4xf32>, tensor<4xi64>) {
  %c0 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %ei = tensor.empty() : tensor<4xi64>
  %i = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %ef = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%ef : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%f, %i : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %k = linalg.index 1 : index
    %kc = arith.index_cast %k : index to i64
    %m = arith.maximumf %in, %out : f32
    %c = arith.cmpf ogt, %in, %out : f32
    %s = arith.select %c, %kc, %out_0 : i64
    linalg.yield %m, %s : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<4xi64>
}
