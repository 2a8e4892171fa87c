// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// RUN: pto-opt %s -p convert-linalg-to-pto | not grep -F 'pto.'
// RUN: pto-opt %s > %t.plain
// RUN: pto-opt %s -p convert-linalg-to-pto > %t.converted
// RUN: diff %t.plain %t.converted
// RUN: pto-opt %s -p 'convert-linalg-to-pto{target=a2a3}' | filecheck %s --check-prefix=A2A3
// Near misses are left exactly as they were (PTO-SPEC 4, 5; D2, D6, D7, D8, D15).

// A2A3-NOT: pto.gemv

// i8 x f16 mixes the integer and float classes: neither an MX pair (D2) nor an ordinary
// pair (PTO-SPEC 1). (f32 x f32 and i8 x i8 -> i32 are ordinary pairs: they lower.)
// CHECK-LABEL: func.func @matmul_mixed_class
// CHECK:         linalg.matmul
func.func @matmul_mixed_class(%a: tensor<1x64xi8>, %b: tensor<64x32xf16>) -> tensor<1x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x64xi8>, tensor<64x32xf16>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %r : tensor<1x32xf32>
}

// An FP8 side without its E8M0 scale is not MX-legal (D2).
// CHECK-LABEL: func.func @vecmat_f8_unscaled
// CHECK:         linalg.vecmat
func.func @vecmat_f8_unscaled(%a: tensor<64xf8E4M3FN>, %b: tensor<64x8xf8E4M3FN>, %c: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.vecmat ins(%a, %b : tensor<64xf8E4M3FN>, tensor<64x8xf8E4M3FN>) outs(%c : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// A scale indexed per 16 K elements is not the MX block of 32 (D1).
// CHECK-LABEL: func.func @mx_wrong_block
// CHECK:         linalg.generic
func.func @mx_wrong_block(%a: tensor<64xf8E4M3FN>, %as: tensor<4xf8E8M0FNU>, %b: tensor<64x8xf16>, %c: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (k floordiv 16)>, affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"]} ins(%a, %as, %b : tensor<64xf8E4M3FN>, tensor<4xf8E8M0FNU>, tensor<64x8xf16>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f8E4M3FN, %xs: f8E8M0FNU, %y: f16, %acc: f32):
    %0 = arith.extf %x : f8E4M3FN to f32
    %1 = arith.extf %xs : f8E8M0FNU to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.extf %y : f16 to f32
    %4 = arith.mulf %2, %3 : f32
    %5 = arith.addf %acc, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// An extra operation in the contraction body (a square) changes the meaning.
// CHECK-LABEL: func.func @vecmat_extra_op
// CHECK:         linalg.generic
func.func @vecmat_extra_op(%a: tensor<64xf16>, %b: tensor<64x8xf16>, %c: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<64xf16>, tensor<64x8xf16>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f16 to f32
    %2 = arith.mulf %0, %0 : f32
    %3 = arith.mulf %2, %1 : f32
    %4 = arith.addf %acc, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// Truncating remainder: C's %, not floor modulo (D8).
// CHECK-LABEL: func.func @remsi_truncating
// CHECK:         arith.remsi
func.func @remsi_truncating(%a: tensor<16xi32>, %b: tensor<16xi32>) -> tensor<16xi32> {
  %init = tensor.empty() : tensor<16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<16xi32>, tensor<16xi32>) outs(%init : tensor<16xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.remsi %x, %y : i32
    linalg.yield %q : i32
  } -> tensor<16xi32>
  return %r : tensor<16xi32>
}

// Wrong predicate: sgt instead of slt tests b > 0 (a ceiling-style fix-up).
// CHECK-LABEL: func.func @floor_mod_wrong_predicate
// CHECK:         arith.remsi
func.func @floor_mod_wrong_predicate(%a: tensor<16xi32>, %b: tensor<16xi32>) -> tensor<16xi32> {
  %c0 = arith.constant 0 : i32
  %init = tensor.empty() : tensor<16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<16xi32>, tensor<16xi32>) outs(%init : tensor<16xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %rem = arith.remsi %x, %y : i32
    %nz = arith.cmpi ne, %rem, %c0 : i32
    %yneg = arith.cmpi sgt, %y, %c0 : i32
    %rneg = arith.cmpi slt, %rem, %c0 : i32
    %signs = arith.xori %yneg, %rneg : i1
    %fix = arith.andi %nz, %signs : i1
    %sum = arith.addi %rem, %y : i32
    %res = arith.select %fix, %sum, %rem : i32
    linalg.yield %res : i32
  } -> tensor<16xi32>
  return %r : tensor<16xi32>
}

// Select arms swapped: r + b when no fix-up is needed.
// CHECK-LABEL: func.func @floor_mod_swapped_select
// CHECK:         arith.remsi
func.func @floor_mod_swapped_select(%a: tensor<16xi32>, %b: tensor<16xi32>) -> tensor<16xi32> {
  %c0 = arith.constant 0 : i32
  %init = tensor.empty() : tensor<16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<16xi32>, tensor<16xi32>) outs(%init : tensor<16xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %rem = arith.remsi %x, %y : i32
    %nz = arith.cmpi ne, %rem, %c0 : i32
    %yneg = arith.cmpi slt, %y, %c0 : i32
    %rneg = arith.cmpi slt, %rem, %c0 : i32
    %signs = arith.xori %yneg, %rneg : i1
    %fix = arith.andi %nz, %signs : i1
    %sum = arith.addi %rem, %y : i32
    %res = arith.select %fix, %rem, %sum : i32
    linalg.yield %res : i32
  } -> tensor<16xi32>
  return %r : tensor<16xi32>
}

// A transposed access of the operands is not the identity-mapped elementwise op.
// CHECK-LABEL: func.func @remui_transposed
// CHECK:         arith.remui
func.func @remui_transposed(%a: tensor<4x4xi32>, %b: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %init = tensor.empty() : tensor<4x4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x4xi32>, tensor<4x4xi32>) outs(%init : tensor<4x4xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.remui %x, %y : i32
    linalg.yield %q : i32
  } -> tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}

