// Elementwise fusion (passes/lowering/fusion.py): splat inputs become scalars, a producer
// generic used only by its consumer is inlined into it, repeated inputs are dropped.
// RUN: pto-opt %s -p pto-fuse-elementwise | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#scalar = affine_map<(d0, d1) -> ()>

// LeakyRelu as torch-mlir emits it (four generics, a 0-d constant read twice) -> one body.
// CHECK-LABEL: func.func @leaky
// CHECK-COUNT-1: linalg.generic
// CHECK-SAME:      ins(%x : tensor<4x16xf32>)
// CHECK:           arith.cmpf olt
// CHECK:           arith.select
// CHECK:           arith.mulf
// CHECK:           arith.cmpf ogt
// CHECK:           arith.select
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
func.func @leaky(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %c0 = arith.constant dense<0.000000e+00> : tensor<f32>
  %a = arith.constant 1.250000e-01 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %1 = linalg.generic {indexing_maps = [#scalar, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c0, %x : tensor<f32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%z: f32, %v: f32, %o: f32):
    %p = arith.cmpf ogt, %z, %v : f32
    %s = arith.select %p, %z, %v : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %2 = linalg.generic {indexing_maps = [#scalar, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c0, %x : tensor<f32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%z: f32, %v: f32, %o: f32):
    %p = arith.cmpf olt, %z, %v : f32
    %s = arith.select %p, %z, %v : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  %4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%1, %3 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %s = arith.addf %u, %v : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// A broadcast producer: its input map is composed with the consumer's map for it.
// CHECK-LABEL: func.func @bias_then_exp
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:           arith.addf
// CHECK-NEXT:      math.exp
// CHECK-NOT:     linalg.generic
func.func @bias_then_exp(%x: tensor<4x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %s = arith.addf %u, %v : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = math.exp %u : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// A producer with a second user is not fused (it would be computed twice).
// CHECK-LABEL: func.func @shared
// CHECK-COUNT-2: linalg.generic
func.func @shared(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = arith.negf %u : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%1 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = math.exp %u : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// The epilogue of a contraction is not fused (the GEMV/TMATMUL folds need it alone).
// CHECK-LABEL: func.func @epilogue
// CHECK:         linalg.matmul
// CHECK-COUNT-2: linalg.generic
func.func @epilogue(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %i: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%i : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = arith.negf %u : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = math.exp %u : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// A filled input and a repeated input: the fill's scalar is used, the repeat dropped.
// CHECK-LABEL: func.func @fill_and_repeat
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]
// CHECK-SAME:      ins(%x : tensor<8xi32>)
// CHECK:           arith.muli
// CHECK:           arith.addi {{.*}}, %c
func.func @fill_and_repeat(%x: tensor<8xi32>, %c: i32) -> tensor<8xi32> {
  %e = tensor.empty() : tensor<8xi32>
  %f = linalg.fill ins(%c : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %x, %f : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>) outs(%e : tensor<8xi32>) {
  ^bb0(%u: i32, %v: i32, %w: i32, %o: i32):
    %s = arith.muli %u, %v : i32
    %t = arith.addi %s, %w : i32
    linalg.yield %t : i32
  } -> tensor<8xi32>
  return %1 : tensor<8xi32>
}
