// Conversion, rounding and guard bodies the table refuses stay, and D19 says why
// (passes/lowering/conversion.py; the rows that lower: conversion_rows.mlir).
// RUN: pto-opt %s -p pto-lower,pto-lowering-report 2>&1 >/dev/null | filecheck %s --check-prefix=WHY
// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// WHY: pto lowering report: 7 op(s) not lowered to PTO
// WHY-NEXT: kept     @extf_f8_kept op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f8E4M3FN, f32]: elementwise: arith.extf: source type f8E4M3FN: no f8 row (MLIR's f8 variants' overflow and NaN rules are not matched against TCVT's E4M3/E5M2 ones)
// extui of an i1 becomes select(%c, 1, 0) (normalise.py); the i1 tensor argument stays unloadable:
// WHY-NEXT: kept     @extui_i1_kept op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: i1, i32]: elementwise: a select's condition is input 0, an i1 tensor: a predicate tile cannot be loaded from memory (compare the data in the body instead)
// WHY-NEXT: kept     @trunci_i4_kept op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: i32, i4]: elementwise: arith.trunci: i4 has no tile type (i8, i16, i32, i64)
// WHY-NEXT: kept     @bitcast_kept op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, i32]: elementwise: arith.bitcast: a bit reinterpretation: TCVT converts values and no tile instruction reinterprets a tile's element type
// WHY-NEXT: kept     @assert_i1_kept op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, i1, f32]: elementwise: cf.assert on a condition other than an arith.cmpf of the body: only compare guards are lowered (an arith.cmpi bounds check of a gather's index only with the gather: D21)
// WHY-NEXT: kept     @assert_ord_kept op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, f32]: elementwise: cf.assert on cmpf ord: not lowered (a constant or ord/uno check)
// WHY-NEXT: kept     @floor_f8_kept op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f8E5M2, f8E5M2]: elementwise: math.floor: result type f8E5M2: no f8 row (MLIR's f8 variants' overflow and NaN rules are not matched against TCVT's E4M3/E5M2 ones)

// An f8 source: MLIR's f8 variants' overflow / NaN rules are not matched against TCVT's.
// CHECK-LABEL: func.func @extf_f8_kept
// CHECK:         arith.extf
func.func @extf_f8_kept(%a0: tensor<4x16xf8E4M3FN>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf8E4M3FN>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f8E4M3FN, %o: f32):
    %y = arith.extf %x0 : f8E4M3FN to f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// An i1 (predicate) source: TCVT has no predicate operand.
// CHECK-LABEL: func.func @extui_i1_kept
// CHECK:         arith.select
func.func @extui_i1_kept(%a0: tensor<4x16xi1>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi1>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i1, %o: i32):
    %y = arith.extui %x0 : i1 to i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// A 4-bit integer has no tensor element tile type (S4X2 packs two per byte).
// CHECK-LABEL: func.func @trunci_i4_kept
// CHECK:         arith.trunci
func.func @trunci_i4_kept(%a0: tensor<4x16xi32>) -> tensor<4x16xi4> {
  %e = tensor.empty() : tensor<4x16xi4>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi32>) outs(%e : tensor<4x16xi4>) {
  ^bb0(%x0: i32, %o: i4):
    %y = arith.trunci %x0 : i32 to i4
    linalg.yield %y : i4
  } -> tensor<4x16xi4>
  return %r : tensor<4x16xi4>
}

// A bit reinterpretation: TCVT converts values; no tile instruction reinterprets a tile.
// CHECK-LABEL: func.func @bitcast_kept
// CHECK:         arith.bitcast
func.func @bitcast_kept(%a0: tensor<4x16xf32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: f32, %o: i32):
    %y = arith.bitcast %x0 : f32 to i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// An assert on a condition that is not a compare of the body.
// CHECK-LABEL: func.func @assert_i1_kept
// CHECK:         cf.assert
func.func @assert_i1_kept(%a0: tensor<4x16xf32>, %a1: tensor<4x16xi1>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf32>, tensor<4x16xi1>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %x1: i1, %o: f32):
    cf.assert %x1, "flag"
    %y = arith.negf %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// An assert on an ord / uno / constant compare: not lowered.
// CHECK-LABEL: func.func @assert_ord_kept
// CHECK:         cf.assert
func.func @assert_ord_kept(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %p = arith.cmpf ord, %x0, %x0 : f32
    cf.assert %p, "nan"
    %y = arith.negf %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// Rounding an f8 value: outside the rows' float types.
// CHECK-LABEL: func.func @floor_f8_kept
// CHECK:         math.floor
func.func @floor_f8_kept(%a0: tensor<4x16xf8E5M2>) -> tensor<4x16xf8E5M2> {
  %e = tensor.empty() : tensor<4x16xf8E5M2>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf8E5M2>) outs(%e : tensor<4x16xf8E5M2>) {
  ^bb0(%x0: f8E5M2, %o: f8E5M2):
    %y = math.floor %x0 : f8E5M2
    linalg.yield %y : f8E5M2
  } -> tensor<4x16xf8E5M2>
  return %r : tensor<4x16xf8E5M2>
}
