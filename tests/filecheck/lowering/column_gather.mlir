// A gather along rows, out[i, j] = table[i, ids[i, j]] (ONNX GatherElements on axis 1,
// the label's logit of SoftmaxCrossEntropyLoss), becomes TTRANS + TGATHER + TTRANS
// (passes/lowering/data_movement.py ColumnGatherToPto). Its cf.assert guards on arith.cmpi
// go with it when each can fail only on an out-of-bounds index, where TGATHER faults
// (BOUND_CHECKS; D21); a guard that can fail in bounds keeps the generic.
// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// RUN: pto-opt %s -p pto-lower,pto-lowering-report 2>&1 >/dev/null | filecheck %s --check-prefix=WHY
// WHY: pto lowering report: 1 op(s) not lowered to PTO
// WHY-NEXT: kept     @guard_not_implied_kept op {{[0-9]+}} (%g): 'linalg.generic' [elementwise: i64, f32]: elementwise: cf.assert on a condition other than an arith.cmpf of the body: only compare guards are lowered (an arith.cmpi bounds check of a gather's index only with the gather: D21)
// WHY: 2 x TGATHER, {{.*}} x TTRANS

// torch-mlir's guards: index < 8 (as index) and index >= 0 (as i64).
// CHECK-LABEL: func.func @column_gather
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    %[[T:.*]] = pto.transpose %table : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[I:.*]] = pto.transpose %ids : (tensor<4x1xi64>) -> tensor<1x4xi64>
// CHECK-NEXT:    %[[G:.*]] = pto.gather %[[T]], %[[I]] : (tensor<8x4xf32>, tensor<1x4xi64>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[R:.*]] = pto.transpose %[[G]] : (tensor<1x4xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @column_gather(%table: tensor<4x8xf32>, %ids: tensor<4x1xi64>) -> tensor<4x1xf32> {
  %e = tensor.empty() : tensor<4x1xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4x1xi64>) outs(%e : tensor<4x1xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %in : i64 to index
    %k0 = arith.constant 8 : index
    %b0 = arith.cmpi slt, %c, %k0 : index
    cf.assert %b0, "guard 0"
    %k1 = arith.constant 0 : i64
    %b1 = arith.cmpi sge, %in, %k1 : i64
    cf.assert %b1, "guard 1"
    %x = tensor.extract %table[%i, %c] : tensor<4x8xf32>
    linalg.yield %x : f32
  } -> tensor<4x1xf32>
  return %g : tensor<4x1xf32>
}

// Unguarded, 3 indices per row, f16 with i32 indices.
// CHECK-LABEL: func.func @column_gather_unguarded
// CHECK:         pto.transpose %table : (tensor<6x16xf16>) -> tensor<16x6xf16>
// CHECK-NEXT:    pto.transpose %ids : (tensor<6x3xi32>) -> tensor<3x6xi32>
// CHECK-NEXT:    pto.gather
// CHECK-NEXT:    pto.transpose
// CHECK-NOT:     linalg.generic
func.func @column_gather_unguarded(%table: tensor<6x16xf16>, %ids: tensor<6x3xi32>) -> tensor<6x3xf16> {
  %e = tensor.empty() : tensor<6x3xf16>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<6x3xi32>) outs(%e : tensor<6x3xf16>) {
  ^bb0(%in: i32, %out: f16):
    %i = linalg.index 0 : index
    %c = arith.index_cast %in : i32 to index

    %x = tensor.extract %table[%i, %c] : tensor<6x16xf16>
    linalg.yield %x : f16
  } -> tensor<6x3xf16>
  return %g : tensor<6x3xf16>
}

// index < 5 of 8 columns can fail on index 6, in bounds, where TGATHER does not fault: kept.
// CHECK-LABEL: func.func @guard_not_implied_kept
// CHECK:         cf.assert
// CHECK:         tensor.extract
func.func @guard_not_implied_kept(%table: tensor<4x8xf32>, %ids: tensor<4x1xi64>) -> tensor<4x1xf32> {
  %e = tensor.empty() : tensor<4x1xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4x1xi64>) outs(%e : tensor<4x1xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %in : i64 to index
    %k0 = arith.constant 5 : index
    %b0 = arith.cmpi slt, %c, %k0 : index
    cf.assert %b0, "guard 0"
    %x = tensor.extract %table[%i, %c] : tensor<4x8xf32>
    linalg.yield %x : f32
  } -> tensor<4x1xf32>
  return %g : tensor<4x1xf32>
}

