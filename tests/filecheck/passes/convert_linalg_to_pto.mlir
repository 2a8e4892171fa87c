// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// Recognition of GEMV (PTO-SPEC 4, D1-D3) and floor modulo (PTO-SPEC 5, D6-D8).

// CHECK-LABEL: func.func @matmul_m1_f16
// CHECK:         %[[G:.*]] = pto.gemv %a, %b : (tensor<1x64xf16>, tensor<64x32xf16>) -> tensor<1x32xf32>
// CHECK-NOT:     linalg.matmul
// CHECK:         func.return %[[G]]
func.func @matmul_m1_f16(%a: tensor<1x64xf16>, %b: tensor<64x32xf16>) -> tensor<1x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf16>, tensor<64x32xf16>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %r : tensor<1x32xf32>
}

// The init is a bias tensor: it becomes the bias operand (D3).
// CHECK-LABEL: func.func @matmul_m1_bf16_bias_init
// CHECK:         pto.gemv %a, %b bias %init : (tensor<1x64xbf16>, tensor<64x32xf16>, tensor<1x32xf32>) -> tensor<1x32xf32>
func.func @matmul_m1_bf16_bias_init(%a: tensor<1x64xbf16>, %b: tensor<64x32xf16>, %init: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1x64xbf16>, tensor<64x32xf16>) outs(%init : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %r : tensor<1x32xf32>
}

// CHECK-LABEL: func.func @vecmat_bf16
// CHECK:         pto.gemv %a, %b : (tensor<100xbf16>, tensor<100x48xbf16>) -> tensor<48xf32>
func.func @vecmat_bf16(%a: tensor<100xbf16>, %b: tensor<100x48xbf16>) -> tensor<48xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<48xf32>) -> tensor<48xf32>
  %r = linalg.vecmat ins(%a, %b : tensor<100xbf16>, tensor<100x48xbf16>) outs(%z : tensor<48xf32>) -> tensor<48xf32>
  return %r : tensor<48xf32>
}

// Generic spelling, commutative operands swapped, inputs listed B first.
// CHECK-LABEL: func.func @generic_vecmat_swapped
// CHECK:         pto.gemv %a, %b : (tensor<64xf16>, tensor<64x16xf16>) -> tensor<16xf32>
func.func @generic_vecmat_swapped(%a: tensor<64xf16>, %b: tensor<64x16xf16>) -> tensor<16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"]} ins(%b, %a : tensor<64x16xf16>, tensor<64xf16>) outs(%z : tensor<16xf32>) {
  ^bb0(%y: f16, %x: f16, %acc: f32):
    %0 = arith.extf %y : f16 to f32
    %1 = arith.extf %x : f16 to f32
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.addf %2, %acc : f32
    linalg.yield %3 : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// CHECK-LABEL: func.func @mx_e5m2
// CHECK:         pto.gemv %a, %b a_scale %as b_scale %bs : (tensor<70xf8E5M2>, tensor<70x8xf8E5M2>, tensor<3xf8E8M0FNU>, tensor<3x8xf8E8M0FNU>) -> tensor<8xf32>
func.func @mx_e5m2(%a: tensor<70xf8E5M2>, %as: tensor<3xf8E8M0FNU>, %b: tensor<70x8xf8E5M2>, %bs: tensor<3x8xf8E8M0FNU>) -> tensor<8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (k floordiv 32)>, affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (k floordiv 32, n)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"]} ins(%a, %as, %b, %bs : tensor<70xf8E5M2>, tensor<3xf8E8M0FNU>, tensor<70x8xf8E5M2>, tensor<3x8xf8E8M0FNU>) outs(%z : tensor<8xf32>) {
  ^bb0(%x: f8E5M2, %xs: f8E8M0FNU, %y: f8E5M2, %ys: f8E8M0FNU, %acc: f32):
    %0 = arith.extf %x : f8E5M2 to f32
    %1 = arith.extf %xs : f8E8M0FNU to f32
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.extf %y : f8E5M2 to f32
    %4 = arith.extf %ys : f8E8M0FNU to f32
    %5 = arith.mulf %3, %4 : f32
    %6 = arith.mulf %5, %2 : f32
    %7 = arith.addf %acc, %6 : f32
    linalg.yield %7 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// Mixed: FP16 A (no scale), MXFP4 B (scaled).
// CHECK-LABEL: func.func @mixed_f16_fp4
// CHECK:         pto.gemv %a, %b b_scale %bs : (tensor<64xf16>, tensor<64x8xf4E2M1FN>, tensor<2x8xf8E8M0FNU>) -> tensor<8xf32>
func.func @mixed_f16_fp4(%a: tensor<64xf16>, %b: tensor<64x8xf4E2M1FN>, %bs: tensor<2x8xf8E8M0FNU>) -> tensor<8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (k floordiv 32, n)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b, %bs : tensor<64xf16>, tensor<64x8xf4E2M1FN>, tensor<2x8xf8E8M0FNU>) outs(%z : tensor<8xf32>) {
  ^bb0(%x: f16, %y: f4E2M1FN, %ys: f8E8M0FNU, %acc: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f4E2M1FN to f32
    %2 = arith.extf %ys : f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.mulf %0, %3 : f32
    %5 = arith.addf %acc, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// Epilogue: linalg.add bias, ReLU, truncf to bf16 -> one op.
// CHECK-LABEL: func.func @epilogue_add_relu_truncf
// CHECK:         %[[G:.*]] = pto.gemv %a, %b bias %bias {relu} : (tensor<1x64xf16>, tensor<64x32xf16>, tensor<1x32xf32>) -> tensor<1x32xbf16>
// CHECK-NOT:     linalg.add
// CHECK-NOT:     linalg.generic
// CHECK:         func.return %[[G]]
func.func @epilogue_add_relu_truncf(%a: tensor<1x64xf16>, %b: tensor<64x32xf16>, %bias: tensor<1x32xf32>) -> tensor<1x32xbf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf16>, tensor<64x32xf16>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  %e1 = tensor.empty() : tensor<1x32xf32>
  %s = linalg.add ins(%bias, %r : tensor<1x32xf32>, tensor<1x32xf32>) outs(%e1 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %e2 = tensor.empty() : tensor<1x32xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<1x32xf32>) outs(%e2 : tensor<1x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = arith.constant 0.000000e+00 : f32
    %x = arith.maximumf %c, %v : f32
    linalg.yield %x : f32
  } -> tensor<1x32xf32>
  %e3 = tensor.empty() : tensor<1x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<1x32xf32>) outs(%e3 : tensor<1x32xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %x = arith.truncf %v : f32 to bf16
    linalg.yield %x : bf16
  } -> tensor<1x32xbf16>
  return %t : tensor<1x32xbf16>
}

// Epilogue: broadcast bias (generic addf), truncf to f16, then ReLU on f16.
// CHECK-LABEL: func.func @epilogue_bcast_bias_truncf_relu
// CHECK:         pto.gemv %a, %b bias %bias {relu} : (tensor<1x64xf16>, tensor<64x32xf16>, tensor<32xf32>) -> tensor<1x32xf16>
// CHECK-NOT:     linalg.generic
func.func @epilogue_bcast_bias_truncf_relu(%a: tensor<1x64xf16>, %b: tensor<64x32xf16>, %bias: tensor<32xf32>) -> tensor<1x32xf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %hzero = arith.constant 0.000000e+00 : f16
  %e = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf16>, tensor<64x32xf16>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias, %r : tensor<32xf32>, tensor<1x32xf32>) outs(%e : tensor<1x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %x = arith.addf %q, %p : f32
    linalg.yield %x : f32
  } -> tensor<1x32xf32>
  %e2 = tensor.empty() : tensor<1x32xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<1x32xf32>) outs(%e2 : tensor<1x32xf16>) {
  ^bb0(%v: f32, %o: f16):
    %x = arith.truncf %v : f32 to f16
    linalg.yield %x : f16
  } -> tensor<1x32xf16>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<1x32xf16>) outs(%e2 : tensor<1x32xf16>) {
  ^bb0(%v: f16, %o: f16):
    %x = arith.maximumf %v, %hzero : f16
    linalg.yield %x : f16
  } -> tensor<1x32xf16>
  return %m : tensor<1x32xf16>
}

// Signed idiom, other spellings: sgt 0,y ; ne 0,r ; cmpi ne on i1 for xori ; swapped andi/addi.
// CHECK-LABEL: func.func @floor_mod_i16_spellings
// CHECK:         %[[R:.*]] = pto.floor_mod signed %b, %a : tensor<5x6xi16>
// CHECK:         func.return %[[R]]
func.func @floor_mod_i16_spellings(%a: tensor<5x6xi16>, %b: tensor<5x6xi16>) -> tensor<5x6xi16> {
  %init = tensor.empty() : tensor<5x6xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<5x6xi16>, tensor<5x6xi16>) outs(%init : tensor<5x6xi16>) {
  ^bb0(%y: i16, %x: i16, %o: i16):
    %c0 = arith.constant 0 : i16
    %rem = arith.remsi %x, %y : i16
    %nz = arith.cmpi ne, %c0, %rem : i16
    %yneg = arith.cmpi sgt, %c0, %y : i16
    %rneg = arith.cmpi slt, %rem, %c0 : i16
    %signs = arith.cmpi ne, %rneg, %yneg : i1
    %fix = arith.andi %signs, %nz : i1
    %sum = arith.addi %y, %rem : i16
    %res = arith.select %fix, %sum, %rem : i16
    linalg.yield %res : i16
  } -> tensor<5x6xi16>
  return %r : tensor<5x6xi16>
}

// CHECK-LABEL: func.func @remui_i32
// CHECK:         pto.floor_mod unsigned %a, %b : tensor<17xi32>
func.func @remui_i32(%a: tensor<17xi32>, %b: tensor<17xi32>) -> tensor<17xi32> {
  %init = tensor.empty() : tensor<17xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<17xi32>, tensor<17xi32>) outs(%init : tensor<17xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.remui %x, %y : i32
    linalg.yield %q : i32
  } -> tensor<17xi32>
  return %r : tensor<17xi32>
}

// Float idiom on f16 with une / ult / ogt-mirrored spellings and a -0.0 constant.
// CHECK-LABEL: func.func @floor_mod_f16_spellings
// CHECK:         pto.floor_mod %a, %b : tensor<4x4xf16>
func.func @floor_mod_f16_spellings(%a: tensor<4x4xf16>, %b: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %z = arith.constant -0.000000e+00 : f16
  %init = tensor.empty() : tensor<4x4xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x4xf16>, tensor<4x4xf16>) outs(%init : tensor<4x4xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %rem = arith.remf %x, %y : f16
    %nz = arith.cmpf une, %rem, %z : f16
    %yneg = arith.cmpf ogt, %z, %y : f16
    %rneg = arith.cmpf ult, %rem, %z : f16
    %signs = arith.xori %rneg, %yneg : i1
    %fix = arith.andi %nz, %signs : i1
    %sum = arith.addf %rem, %y : f16
    %res = arith.select %fix, %sum, %rem : f16
    linalg.yield %res : f16
  } -> tensor<4x4xf16>
  return %r : tensor<4x4xf16>
}

// The TREM siblings (PTO-SPEC 5): one-op bodies and the named ops.
// CHECK-LABEL: func.func @ew_sub_f32
// CHECK:         pto.elementwise sub %b, %a : tensor<4x8xf32>
func.func @ew_sub_f32(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.subf %y, %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @ew_named
// CHECK:         pto.elementwise max signed %a, %b : tensor<16xi32>
// CHECK:         pto.elementwise mul signed
func.func @ew_named(%a: tensor<16xi32>, %b: tensor<16xi32>) -> (tensor<16xi32>, tensor<16xi32>) {
  %e = tensor.empty() : tensor<16xi32>
  %r = linalg.max ins(%a, %b : tensor<16xi32>, tensor<16xi32>) outs(%e : tensor<16xi32>) -> tensor<16xi32>
  %m = linalg.mul ins(%a, %b : tensor<16xi32>, tensor<16xi32>) outs(%e : tensor<16xi32>) -> tensor<16xi32>
  return %r, %m : tensor<16xi32>, tensor<16xi32>
}

// maxnumf returns the other operand for one NaN, as TMAX does; divui is unsigned TDIV.
// CHECK-LABEL: func.func @ew_maxnumf_divui
// CHECK:         pto.elementwise max %a, %b : tensor<8xbf16>
// CHECK:         pto.elementwise div unsigned %c, %d : tensor<8xi16>
func.func @ew_maxnumf_divui(%a: tensor<8xbf16>, %b: tensor<8xbf16>, %c: tensor<8xi16>, %d: tensor<8xi16>) -> (tensor<8xbf16>, tensor<8xi16>) {
  %e = tensor.empty() : tensor<8xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<8xbf16>, tensor<8xbf16>) outs(%e : tensor<8xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %s = arith.maxnumf %x, %y : bf16
    linalg.yield %s : bf16
  } -> tensor<8xbf16>
  %ei = tensor.empty() : tensor<8xi16>
  %q = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%c, %d : tensor<8xi16>, tensor<8xi16>) outs(%ei : tensor<8xi16>) {
  ^bb0(%x: i16, %y: i16, %o: i16):
    %s = arith.divui %x, %y : i16
    linalg.yield %s : i16
  } -> tensor<8xi16>
  return %r, %q : tensor<8xbf16>, tensor<8xi16>
}

// linalg.matmul with M > 1 (PTO-SPEC 3.1): a zero init is no accumulator.
// CHECK-LABEL: func.func @matmul_m4
// CHECK:         pto.matmul %a, %b : (tensor<4x64xbf16>, tensor<64x32xbf16>) -> tensor<4x32xf32>
func.func @matmul_m4(%a: tensor<4x64xbf16>, %b: tensor<64x32xbf16>) -> tensor<4x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// M = 2 is a matmul, not a GEMV: pto.matmul, the init accumulated (TMATMUL.ACC).
// CHECK-LABEL: func.func @matmul_m2
// CHECK:         pto.matmul %a, %b acc %c : (tensor<2x64xf16>, tensor<64x32xf16>, tensor<2x32xf32>) -> tensor<2x32xf32>
func.func @matmul_m2(%a: tensor<2x64xf16>, %b: tensor<64x32xf16>, %c: tensor<2x32xf32>) -> tensor<2x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2x64xf16>, tensor<64x32xf16>) outs(%c : tensor<2x32xf32>) -> tensor<2x32xf32>
  return %r : tensor<2x32xf32>
}

