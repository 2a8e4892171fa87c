// The compare/select rows (passes/lowering/compare_select.py): cmpf/cmpi + select as
// pto.cmpsel (TCMP(S) + TSEL(S)), integer max/min as TMAX/TMIN, NaN-propagating
// maximumf/minimumf; every function assembles.
// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// ASM: BSTART
// ASM-NOT: error
// Numerics: tests/passes/test_compare_select_lowering.py. What stays and why:
// elementwise_kept.mlir.

// CHECK-LABEL: func.func @select_ogt_f32
func.func @select_ogt_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf ogt, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_olt_f16
func.func @select_olt_f16(%a0: tensor<8x16xf16>, %a1: tensor<8x16xf16>, %a2: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %e = tensor.empty() : tensor<8x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>) outs(%e : tensor<8x16xf16>) {
  ^bb0(%x0: f16, %x1: f16, %x2: f16, %o: f16):
    %p = arith.cmpf olt, %x0, %x1 : f16
    %y = arith.select %p, %x0, %x2 : f16
    linalg.yield %y : f16
  } -> tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}

// CHECK-LABEL: func.func @select_oeq_f32
func.func @select_oeq_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf oeq, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_oge_f32
func.func @select_oge_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf oge, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_ole_f16
func.func @select_ole_f16(%a0: tensor<8x16xf16>, %a1: tensor<8x16xf16>, %a2: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %e = tensor.empty() : tensor<8x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>) outs(%e : tensor<8x16xf16>) {
  ^bb0(%x0: f16, %x1: f16, %x2: f16, %o: f16):
    %p = arith.cmpf ole, %x0, %x1 : f16
    %y = arith.select %p, %x0, %x2 : f16
    linalg.yield %y : f16
  } -> tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}

// CHECK-LABEL: func.func @select_une_f32
func.func @select_une_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf une, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_ugt_f32
func.func @select_ugt_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf ugt, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_uge_f32
func.func @select_uge_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf uge, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_ult_f16
func.func @select_ult_f16(%a0: tensor<8x16xf16>, %a1: tensor<8x16xf16>, %a2: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %e = tensor.empty() : tensor<8x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>) outs(%e : tensor<8x16xf16>) {
  ^bb0(%x0: f16, %x1: f16, %x2: f16, %o: f16):
    %p = arith.cmpf ult, %x0, %x1 : f16
    %y = arith.select %p, %x0, %x2 : f16
    linalg.yield %y : f16
  } -> tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}

// CHECK-LABEL: func.func @select_ule_f32
func.func @select_ule_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf ule, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_one_f32
func.func @select_one_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf one, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_ueq_f32
func.func @select_ueq_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf ueq, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_ord_f32
func.func @select_ord_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf ord, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_uno_f32
func.func @select_uno_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf uno, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_true_f32
func.func @select_true_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf true, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_false_f32
func.func @select_false_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf false, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// ONNX Max as torch-mlir emits it: not TMAX (a NaN x0 gives x1, (+0, -0) gives -0)
// CHECK-LABEL: func.func @max_select_f32
// CHECK:     pto.cmpsel gt %a0, %a1, %a0, %a1
func.func @max_select_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %p = arith.cmpf ogt, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// a broadcast operand is materialised once
// CHECK-LABEL: func.func @min_select_col_f32
// CHECK:     %[[B:.*]] = pto.expand col copy
// CHECK:     pto.cmpsel lt %a0, %[[B]], %a0, %[[B]]
func.func @min_select_col_f32(%a0: tensor<8x16xf32>, %a1: tensor<16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %p = arith.cmpf olt, %x0, %x1 : f32
    %y = arith.select %p, %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @max_select_row_f16
// CHECK:     %[[B:.*]] = pto.expand row copy
// CHECK:     pto.cmpsel gt %a0, %[[B]], %a0, %[[B]]
func.func @max_select_row_f16(%a0: tensor<8x16xf16>, %a1: tensor<8x1xf16>) -> tensor<8x16xf16> {
  %e = tensor.empty() : tensor<8x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xf16>, tensor<8x1xf16>) outs(%e : tensor<8x16xf16>) {
  ^bb0(%x0: f16, %x1: f16, %o: f16):
    %p = arith.cmpf ogt, %x0, %x1 : f16
    %y = arith.select %p, %x0, %x1 : f16
    linalg.yield %y : f16
  } -> tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}

// TCMPS + TSELS
// CHECK-LABEL: func.func @min_select_const_f32
// CHECK:     %[[C:.*]] = arith.constant 2.5
// CHECK:     pto.cmpsel lt %a0, %[[C]], %a0, %[[C]] : (tensor<8x16xf32>, f32, tensor<8x16xf32>, f32)
func.func @min_select_const_f32(%a0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %c = arith.constant 2.500000e-01 : f32
    %p = arith.cmpf olt, %x0, %c : f32
    %y = arith.select %p, %x0, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_scalar_arg_f32
// CHECK:     pto.cmpsel ge %a0, %s, %a0, %s
func.func @select_scalar_arg_f32(%a0: tensor<8x16xf32>, %s: f32) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %p = arith.cmpf oge, %x0, %s : f32
    %y = arith.select %p, %x0, %s : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// a scalar i1 condition: k = c ? 1 : 0 in scalar control, then (TEXPANDS k) != 0
// CHECK-LABEL: func.func @select_scalar_i1_arg_f32
// CHECK:     %[[K:.*]] = arith.select %s
// CHECK:     %[[T:.*]] = pto.map expands signed
// CHECK:     pto.cmpsel ne signed %[[T]], %{{.*}}, %a0, %a1
func.func @select_scalar_i1_arg_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %s: i1) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.select %s, %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// 0 > x is x < 0; the scalar true value is materialised
// CHECK-LABEL: func.func @select_const_lhs_f32
// CHECK:     %[[Z:.*]] = pto.map expands
// CHECK:     pto.cmpsel lt %a0, %{{.*}}, %[[Z]], %a0
func.func @select_const_lhs_f32(%a0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %c = arith.constant 0.000000e+00 : f32
    %p = arith.cmpf ogt, %c, %x0 : f32
    %y = arith.select %p, %c, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// select(x < 0, 0, x) keeps -0 and NaN (TRELU gives +0 and a canonical NaN)
// CHECK-LABEL: func.func @relu_keeps_minus_zero_f32
// CHECK:     %[[Z:.*]] = pto.map expands
// CHECK:     pto.cmpsel lt %a0, %{{.*}}, %[[Z]], %a0
// CHECK-NOT: pto.map relu
func.func @relu_keeps_minus_zero_f32(%a0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %z = arith.constant 0.000000e+00 : f32
    %p = arith.cmpf olt, %x0, %z : f32
    %y = arith.select %p, %z, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// eq ? s : x is ne ? x : s (TSELS, no materialised scalar)
// CHECK-LABEL: func.func @select_oeq_scalar_true_f32
// CHECK-NOT: pto.map expands
// CHECK:     pto.cmpsel ne %a0, %{{.*}}, %a0, %{{.*}} : (tensor<8x16xf32>, f32, tensor<8x16xf32>, f32)
func.func @select_oeq_scalar_true_f32(%a0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %c = arith.constant 1.000000e+00 : f32
    %d = arith.constant -3.000000e+00 : f32
    %p = arith.cmpf oeq, %x0, %c : f32
    %y = arith.select %p, %d, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// x > 0 ? x : alpha * x
// CHECK-LABEL: func.func @leakyrelu_torch_f32
// CHECK:     %[[M:.*]] = pto.map muls %a0
// CHECK:     pto.cmpsel gt %a0, %{{.*}}, %a0, %[[M]]
func.func @leakyrelu_torch_f32(%a0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %z = arith.constant 0.000000e+00 : f32
    %a = arith.constant 1.000000e-02 : f32
    %m = arith.mulf %x0, %a : f32
    %p = arith.cmpf ogt, %x0, %z : f32
    %y = arith.select %p, %x0, %m : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// ONNX LeakyRelu after fusion: max(x, 0) + alpha * min(x, 0), one materialised zero
// CHECK-LABEL: func.func @leakyrelu_onnx_f32
// CHECK:     %[[Z:.*]] = pto.map expands
// CHECK:     %[[H:.*]] = pto.cmpsel lt %a0, %{{.*}}, %[[Z]], %a0
// CHECK:     %[[L:.*]] = pto.cmpsel gt %a0, %{{.*}}, %[[Z]], %a0
// CHECK-NOT: pto.map expands
// CHECK:     %[[M:.*]] = pto.map muls %[[L]]
// CHECK:     pto.elementwise add %[[H]], %[[M]]
func.func @leakyrelu_onnx_f32(%a0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %z = arith.constant 0.000000e+00 : f32
    %a = arith.constant 1.250000e-01 : f32
    %p = arith.cmpf ogt, %z, %x0 : f32
    %hi = arith.select %p, %z, %x0 : f32
    %q = arith.cmpf olt, %z, %x0 : f32
    %lo = arith.select %q, %z, %x0 : f32
    %m = arith.mulf %lo, %a : f32
    %y = arith.addf %hi, %m : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// x1 < x0 < x2 ? x0 : 0
// CHECK-LABEL: func.func @select_and_f32
// CHECK:     %[[I:.*]] = pto.cmpsel lt %a0, %a2, %a0, %{{.*}}
// CHECK:     pto.cmpsel gt %a0, %a1, %[[I]], %{{.*}}
func.func @select_and_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %z = arith.constant 0.000000e+00 : f32
    %p = arith.cmpf ogt, %x0, %x1 : f32
    %q = arith.cmpf olt, %x0, %x2 : f32
    %c = arith.andi %p, %q : i1
    %y = arith.select %c, %x0, %z : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_or_f32
// CHECK:     pto.cmpsel
func.func @select_or_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf ogt, %x0, %x1 : f32
    %q = arith.cmpf uno, %x1, %x2 : f32
    %c = arith.ori %p, %q : i1
    %y = arith.select %c, %x1, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// not (x0 < x1): the branches swap
// CHECK-LABEL: func.func @select_not_f32
// CHECK:     pto.cmpsel lt %a0, %a1, %a1, %a0
func.func @select_not_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %t = arith.constant true
    %p = arith.cmpf olt, %x0, %x1 : f32
    %c = arith.xori %p, %t : i1
    %y = arith.select %c, %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @select_of_i1_select_f32
// CHECK:     pto.cmpsel
func.func @select_of_i1_select_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf ogt, %x0, %x1 : f32
    %q = arith.cmpf olt, %x0, %x2 : f32
    %r = arith.cmpf oeq, %x1, %x2 : f32
    %c = arith.select %p, %q, %r : i1
    %y = arith.select %c, %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// an f32 compare selecting i32 data
// CHECK-LABEL: func.func @select_cmpf_data_i32
// CHECK:     pto.cmpsel ge %a0, %a1, %a3, %a2 : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
func.func @select_cmpf_data_i32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xi32>, %a3: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %e = tensor.empty() : tensor<8x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2, %a3 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xi32>, tensor<8x16xi32>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: i32, %x3: i32, %o: i32):
    %p = arith.cmpf ult, %x0, %x1 : f32
    %y = arith.select %p, %x2, %x3 : i32
    linalg.yield %y : i32
  } -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// CHECK-LABEL: func.func @select_cmpi_eq_i32
// CHECK:     pto.cmpsel eq signed %a0, %a1, %a1, %a2
func.func @select_cmpi_eq_i32(%a0: tensor<8x16xi32>, %a1: tensor<8x16xi32>, %a2: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %e = tensor.empty() : tensor<8x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %x2: i32, %o: i32):
    %p = arith.cmpi eq, %x0, %x1 : i32
    %y = arith.select %p, %x1, %x2 : i32
    linalg.yield %y : i32
  } -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// CHECK-LABEL: func.func @select_cmpi_ne_i16
// CHECK:     pto.cmpsel ne signed %a0, %a1, %a1, %a2
func.func @select_cmpi_ne_i16(%a0: tensor<8x16xi16>, %a1: tensor<8x16xi16>, %a2: tensor<8x16xi16>) -> tensor<8x16xi16> {
  %e = tensor.empty() : tensor<8x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xi16>, tensor<8x16xi16>, tensor<8x16xi16>) outs(%e : tensor<8x16xi16>) {
  ^bb0(%x0: i16, %x1: i16, %x2: i16, %o: i16):
    %p = arith.cmpi ne, %x0, %x1 : i16
    %y = arith.select %p, %x1, %x2 : i16
    linalg.yield %y : i16
  } -> tensor<8x16xi16>
  return %r : tensor<8x16xi16>
}

// CHECK-LABEL: func.func @select_cmpi_slt_i32
// CHECK:     pto.cmpsel lt signed %a0, %a1, %a1, %a2
func.func @select_cmpi_slt_i32(%a0: tensor<8x16xi32>, %a1: tensor<8x16xi32>, %a2: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %e = tensor.empty() : tensor<8x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %x2: i32, %o: i32):
    %p = arith.cmpi slt, %x0, %x1 : i32
    %y = arith.select %p, %x1, %x2 : i32
    linalg.yield %y : i32
  } -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// CHECK-LABEL: func.func @select_cmpi_sle_i64
// CHECK:     pto.cmpsel le signed %a0, %a1, %a1, %a2
func.func @select_cmpi_sle_i64(%a0: tensor<8x16xi64>, %a1: tensor<8x16xi64>, %a2: tensor<8x16xi64>) -> tensor<8x16xi64> {
  %e = tensor.empty() : tensor<8x16xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xi64>, tensor<8x16xi64>, tensor<8x16xi64>) outs(%e : tensor<8x16xi64>) {
  ^bb0(%x0: i64, %x1: i64, %x2: i64, %o: i64):
    %p = arith.cmpi sle, %x0, %x1 : i64
    %y = arith.select %p, %x1, %x2 : i64
    linalg.yield %y : i64
  } -> tensor<8x16xi64>
  return %r : tensor<8x16xi64>
}

// CHECK-LABEL: func.func @select_cmpi_sgt_i16
// CHECK:     pto.cmpsel gt signed %a0, %a1, %a1, %a2
func.func @select_cmpi_sgt_i16(%a0: tensor<8x16xi16>, %a1: tensor<8x16xi16>, %a2: tensor<8x16xi16>) -> tensor<8x16xi16> {
  %e = tensor.empty() : tensor<8x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xi16>, tensor<8x16xi16>, tensor<8x16xi16>) outs(%e : tensor<8x16xi16>) {
  ^bb0(%x0: i16, %x1: i16, %x2: i16, %o: i16):
    %p = arith.cmpi sgt, %x0, %x1 : i16
    %y = arith.select %p, %x1, %x2 : i16
    linalg.yield %y : i16
  } -> tensor<8x16xi16>
  return %r : tensor<8x16xi16>
}

// CHECK-LABEL: func.func @select_cmpi_sge_i32
// CHECK:     pto.cmpsel ge signed %a0, %a1, %a1, %a2
func.func @select_cmpi_sge_i32(%a0: tensor<8x16xi32>, %a1: tensor<8x16xi32>, %a2: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %e = tensor.empty() : tensor<8x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %x2: i32, %o: i32):
    %p = arith.cmpi sge, %x0, %x1 : i32
    %y = arith.select %p, %x1, %x2 : i32
    linalg.yield %y : i32
  } -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// CHECK-LABEL: func.func @select_cmpi_ult_i32
// CHECK:     pto.cmpsel lt unsigned %a0, %a1, %a1, %a2
func.func @select_cmpi_ult_i32(%a0: tensor<8x16xi32>, %a1: tensor<8x16xi32>, %a2: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %e = tensor.empty() : tensor<8x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %x2: i32, %o: i32):
    %p = arith.cmpi ult, %x0, %x1 : i32
    %y = arith.select %p, %x1, %x2 : i32
    linalg.yield %y : i32
  } -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// CHECK-LABEL: func.func @select_cmpi_ule_i16
// CHECK:     pto.cmpsel le unsigned %a0, %a1, %a1, %a2
func.func @select_cmpi_ule_i16(%a0: tensor<8x16xi16>, %a1: tensor<8x16xi16>, %a2: tensor<8x16xi16>) -> tensor<8x16xi16> {
  %e = tensor.empty() : tensor<8x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xi16>, tensor<8x16xi16>, tensor<8x16xi16>) outs(%e : tensor<8x16xi16>) {
  ^bb0(%x0: i16, %x1: i16, %x2: i16, %o: i16):
    %p = arith.cmpi ule, %x0, %x1 : i16
    %y = arith.select %p, %x1, %x2 : i16
    linalg.yield %y : i16
  } -> tensor<8x16xi16>
  return %r : tensor<8x16xi16>
}

// CHECK-LABEL: func.func @select_cmpi_ugt_i64
// CHECK:     pto.cmpsel gt unsigned %a0, %a1, %a1, %a2
func.func @select_cmpi_ugt_i64(%a0: tensor<8x16xi64>, %a1: tensor<8x16xi64>, %a2: tensor<8x16xi64>) -> tensor<8x16xi64> {
  %e = tensor.empty() : tensor<8x16xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xi64>, tensor<8x16xi64>, tensor<8x16xi64>) outs(%e : tensor<8x16xi64>) {
  ^bb0(%x0: i64, %x1: i64, %x2: i64, %o: i64):
    %p = arith.cmpi ugt, %x0, %x1 : i64
    %y = arith.select %p, %x1, %x2 : i64
    linalg.yield %y : i64
  } -> tensor<8x16xi64>
  return %r : tensor<8x16xi64>
}

// CHECK-LABEL: func.func @select_cmpi_uge_i32
// CHECK:     pto.cmpsel ge unsigned %a0, %a1, %a1, %a2
func.func @select_cmpi_uge_i32(%a0: tensor<8x16xi32>, %a1: tensor<8x16xi32>, %a2: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %e = tensor.empty() : tensor<8x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %x2: i32, %o: i32):
    %p = arith.cmpi uge, %x0, %x1 : i32
    %y = arith.select %p, %x1, %x2 : i32
    linalg.yield %y : i32
  } -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// integer max as cmpi + select: TMAX (one encoding per value)
// CHECK-LABEL: func.func @max_select_i32
// CHECK:     pto.elementwise max signed %a0, %a1
// CHECK-NOT: pto.cmpsel
func.func @max_select_i32(%a0: tensor<8x16xi32>, %a1: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %e = tensor.empty() : tensor<8x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xi32>, tensor<8x16xi32>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %p = arith.cmpi sgt, %x0, %x1 : i32
    %y = arith.select %p, %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// CHECK-LABEL: func.func @min_select_swapped_u16
// CHECK:     pto.elementwise min unsigned %a0, %a1
func.func @min_select_swapped_u16(%a0: tensor<8x16xi16>, %a1: tensor<8x16xi16>) -> tensor<8x16xi16> {
  %e = tensor.empty() : tensor<8x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xi16>, tensor<8x16xi16>) outs(%e : tensor<8x16xi16>) {
  ^bb0(%x0: i16, %x1: i16, %o: i16):
    %p = arith.cmpi uge, %x0, %x1 : i16
    %y = arith.select %p, %x1, %x0 : i16
    linalg.yield %y : i16
  } -> tensor<8x16xi16>
  return %r : tensor<8x16xi16>
}

// CHECK-LABEL: func.func @max_select_const_i64
// CHECK:     pto.map maxs signed %a0
func.func @max_select_const_i64(%a0: tensor<8x16xi64>) -> tensor<8x16xi64> {
  %e = tensor.empty() : tensor<8x16xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xi64>) outs(%e : tensor<8x16xi64>) {
  ^bb0(%x0: i64, %o: i64):
    %c = arith.constant -5 : i64
    %p = arith.cmpi slt, %c, %x0 : i64
    %y = arith.select %p, %x0, %c : i64
    linalg.yield %y : i64
  } -> tensor<8x16xi64>
  return %r : tensor<8x16xi64>
}

// CHECK-LABEL: func.func @min_select_col_i32
// CHECK:     pto.expand col min unsigned
func.func @min_select_col_i32(%a0: tensor<8x16xi32>, %a1: tensor<16xi32>) -> tensor<8x16xi32> {
  %e = tensor.empty() : tensor<8x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xi32>, tensor<16xi32>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %p = arith.cmpi ule, %x0, %x1 : i32
    %y = arith.select %p, %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// TCMPS + TSELS with raw i64 words
// CHECK-LABEL: func.func @select_cmpi_const_i16
// CHECK:     pto.cmpsel gt unsigned %a0, %{{.*}}, %a1, %{{.*}} : (tensor<8x16xi16>, i64, tensor<8x16xi16>, i64)
func.func @select_cmpi_const_i16(%a0: tensor<8x16xi16>, %a1: tensor<8x16xi16>) -> tensor<8x16xi16> {
  %e = tensor.empty() : tensor<8x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xi16>, tensor<8x16xi16>) outs(%e : tensor<8x16xi16>) {
  ^bb0(%x0: i16, %x1: i16, %o: i16):
    %c = arith.constant 7 : i16
    %d = arith.constant -1 : i16
    %p = arith.cmpi ugt, %x0, %c : i16
    %y = arith.select %p, %x1, %d : i16
    linalg.yield %y : i16
  } -> tensor<8x16xi16>
  return %r : tensor<8x16xi16>
}

// NaN-propagating: TMAX, then a NaN x1, then a NaN x0 (the first NaN wins)
// CHECK-LABEL: func.func @maximumf_f32
// CHECK:     %[[M:.*]] = pto.elementwise max %a0, %a1
// CHECK:     %[[B:.*]] = pto.cmpsel ne %a1, %a1, %a1, %[[M]]
// CHECK:     pto.cmpsel ne %a0, %a0, %a0, %[[B]]
func.func @maximumf_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.maximumf %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @minimumf_f16
// CHECK:     %[[M:.*]] = pto.elementwise min %a0, %a1
// CHECK:     %[[B:.*]] = pto.cmpsel ne %a1, %a1, %a1, %[[M]]
// CHECK:     pto.cmpsel ne %a0, %a0, %a0, %[[B]]
func.func @minimumf_f16(%a0: tensor<8x16xf16>, %a1: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %e = tensor.empty() : tensor<8x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xf16>, tensor<8x16xf16>) outs(%e : tensor<8x16xf16>) {
  ^bb0(%x0: f16, %x1: f16, %o: f16):
    %y = arith.minimumf %x0, %x1 : f16
    linalg.yield %y : f16
  } -> tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}

// a constant that is not a NaN: TMINS and one select
// CHECK-LABEL: func.func @minimumf_const_f32
// CHECK:     %[[M:.*]] = pto.map mins %a0
// CHECK:     pto.cmpsel ne %a0, %a0, %a0, %[[M]]
func.func @minimumf_const_f32(%a0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %c = arith.constant 5.000000e-01 : f32
    %y = arith.minimumf %x0, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// the constant first: the operands commute
// CHECK-LABEL: func.func @minimumf_minus_zero_f32
// CHECK:     %[[M:.*]] = pto.map mins %a0
// CHECK:     pto.cmpsel ne %a0, %a0, %a0, %[[M]]
func.func @minimumf_minus_zero_f32(%a0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %c = arith.constant -0.000000e+00 : f32
    %y = arith.minimumf %c, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// a NaN constant: x0's NaN or the constant
// CHECK-LABEL: func.func @maximumf_nan_const_f32
// CHECK-NOT: pto.map maxs
// CHECK:     pto.cmpsel ne %a0, %a0, %a0, %{{.*}} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, f32)
func.func @maximumf_nan_const_f32(%a0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %c = arith.constant 0x7FC00000 : f32
    %y = arith.maximumf %x0, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @maximumf_row_f32
// CHECK:     %[[B:.*]] = pto.expand row copy
// CHECK:     %[[M:.*]] = pto.elementwise max %a0, %[[B]]
// CHECK:     pto.cmpsel ne %[[B]], %[[B]], %[[B]], %[[M]]
func.func @maximumf_row_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<8x16xf32>, tensor<8x1xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.maximumf %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @maximumf_scalar_arg_f32
// CHECK:     %[[S:.*]] = pto.map expands
// CHECK:     pto.elementwise max %[[S]], %a0
func.func @maximumf_scalar_arg_f32(%a0: tensor<8x16xf32>, %s: f32) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = arith.maximumf %s, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// linalg.max / linalg.min on floats (bodies maximumf / minimumf): through the generic form.
// CHECK-LABEL: func.func @named_max_f32
// CHECK:     %[[M:.*]] = pto.elementwise max %a0, %a1
// CHECK:     %[[B:.*]] = pto.cmpsel ne %a1, %a1, %a1, %[[M]]
// CHECK:     pto.cmpsel ne %a0, %a0, %a0, %[[B]]
// CHECK-NOT: linalg.max
func.func @named_max_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.max ins(%a0, %a1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @named_min_f16
// CHECK:     pto.elementwise min %a0, %a1
// CHECK-NOT: linalg.min
func.func @named_min_f16(%a0: tensor<8x16xf16>, %a1: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %e = tensor.empty() : tensor<8x16xf16>
  %r = linalg.min ins(%a0, %a1 : tensor<8x16xf16>, tensor<8x16xf16>) outs(%e : tensor<8x16xf16>) -> tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}

// The xor of two compares: c ? (d ? f : t) : (d ? t : f).
// CHECK-LABEL: func.func @select_xor_f32
// CHECK-COUNT-3: pto.cmpsel
func.func @select_xor_f32(%a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1, %a2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %p = arith.cmpf olt, %x0, %x1 : f32
    %q = arith.cmpf uge, %x1, %x2 : f32
    %c = arith.xori %p, %q : i1
    %y = arith.select %c, %x0, %x2 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
