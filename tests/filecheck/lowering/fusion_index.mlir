// Fusion remaps linalg.index through the consumer's map (issue 23): the Trilu mask's
// linalg.index 0/1 become the consumer dims 2/3 its map (d0, d1, d2, d3) -> (d2, d3) gives;
// a producer read at a constant index (map result 0) is kept unfused.
// RUN: pto-opt %s -p pto-fuse-elementwise | filecheck %s
// RUN: python -c "import numpy as np; np.savez('%t.npz', arg0=np.arange(1, 33, dtype=np.float32).reshape(1, 2, 4, 4), arg1=np.ones((4, 6), np.float32))"
// RUN: pto-opt %s -p pto-lower | pto-run - --inputs %t.npz --engine both | filecheck %s --check-prefix=OUT

func.func @main(%x: tensor<1x2x4x4xf32>, %y: tensor<4x6xf32>) -> (tensor<1x2x4x4xf32>, tensor<4x6xf32>) {
  %e2 = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e2 : tensor<4x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %le = arith.cmpi ule, %j, %i : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %v = arith.select %le, %one, %zero : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mask : tensor<1x2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x4xf32>
  %ep = tensor.empty() : tensor<4x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ep : tensor<4x1xf32>) {
  ^bb0(%po: f32):
    %pi = linalg.index 0 : index
    %pj = linalg.index 1 : index
    %pk = arith.addi %pi, %pj : index
    %pc = arith.index_cast %pk : index to i32
    %pf = arith.sitofp %pc : i32 to f32
    linalg.yield %pf : f32
  } -> tensor<4x1xf32>
  %ey = tensor.empty() : tensor<4x6xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %p : tensor<4x6xf32>, tensor<4x1xf32>) outs(%ey : tensor<4x6xf32>) {
  ^bb0(%ya: f32, %pa: f32, %yo: f32):
    %ys = arith.addf %ya, %pa : f32
    linalg.yield %ys : f32
  } -> tensor<4x6xf32>
  return %r, %q : tensor<1x2x4x4xf32>, tensor<4x6xf32>
}

// CHECK:      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK:        %i = linalg.index 2 : index
// CHECK-NEXT:   %j = linalg.index 3 : index
// CHECK:      %p = linalg.generic
// CHECK:        %pi = linalg.index 0 : index
// CHECK-NEXT:   %pj = linalg.index 1 : index
// CHECK:      %q = linalg.generic {{.*}}affine_map<(d0, d1) -> (d0, 0)>

// OUT:      result0: tensor<1x2x4x4xf32> = {{\[\[\[\[}}1.0, 0.0, 0.0, 0.0],
// OUT-NEXT:    [5.0, 6.0, 0.0, 0.0],
// OUT-NEXT:    [9.0, 10.0, 11.0, 0.0],
// OUT-NEXT:    [13.0, 14.0, 15.0, 16.0]],
// OUT:         {{\[\[}}17.0, 0.0, 0.0, 0.0],
// OUT:      result1: tensor<4x6xf32> = {{\[\[}}1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
// OUT-NEXT:  [2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
