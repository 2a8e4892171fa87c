// The elementwise table (passes/lowering/elementwise.py): one function per row, its
// tensor-level PTO form; every function assembles.
// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// ASM: BSTART
// ASM-NOT: error
// Each function's numerics: tests/passes/test_elementwise_lowering.py. What stays and why:
// elementwise_kept.mlir.

// CHECK-LABEL: func.func @addf_f32
// CHECK:     pto.elementwise add %a0, %a1
func.func @addf_f32(%a0: tensor<4x16xf32>, %a1: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.addf %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @addi_i32
// CHECK:     pto.elementwise add signed %a0, %a1
func.func @addi_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.addi %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @subf_f16
// CHECK:     pto.elementwise sub %a0, %a1
func.func @subf_f16(%a0: tensor<4x16xf16>, %a1: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %e = tensor.empty() : tensor<4x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf16>, tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%x0: f16, %x1: f16, %o: f16):
    %y = arith.subf %x0, %x1 : f16
    linalg.yield %y : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}

// CHECK-LABEL: func.func @subi_i16
// CHECK:     pto.elementwise sub signed %a0, %a1
func.func @subi_i16(%a0: tensor<4x16xi16>, %a1: tensor<4x16xi16>) -> tensor<4x16xi16> {
  %e = tensor.empty() : tensor<4x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi16>, tensor<4x16xi16>) outs(%e : tensor<4x16xi16>) {
  ^bb0(%x0: i16, %x1: i16, %o: i16):
    %y = arith.subi %x0, %x1 : i16
    linalg.yield %y : i16
  } -> tensor<4x16xi16>
  return %r : tensor<4x16xi16>
}

// CHECK-LABEL: func.func @mulf_f32
// CHECK:     pto.elementwise mul %a0, %a1
func.func @mulf_f32(%a0: tensor<4x16xf32>, %a1: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.mulf %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @muli_i32
// CHECK:     pto.elementwise mul signed %a0, %a1
func.func @muli_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.muli %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @divf_f32
// CHECK:     pto.elementwise div %a0, %a1
func.func @divf_f32(%a0: tensor<4x16xf32>, %a1: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.divf %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @divsi_i32
// CHECK:     pto.elementwise div signed %a0, %a1
func.func @divsi_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.divsi %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @divui_i32
// CHECK:     pto.elementwise div unsigned %a0, %a1
func.func @divui_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.divui %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @andi_i32
// CHECK:     pto.elementwise and signed %a0, %a1
func.func @andi_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.andi %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @ori_i16
// CHECK:     pto.elementwise or signed %a0, %a1
func.func @ori_i16(%a0: tensor<4x16xi16>, %a1: tensor<4x16xi16>) -> tensor<4x16xi16> {
  %e = tensor.empty() : tensor<4x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi16>, tensor<4x16xi16>) outs(%e : tensor<4x16xi16>) {
  ^bb0(%x0: i16, %x1: i16, %o: i16):
    %y = arith.ori %x0, %x1 : i16
    linalg.yield %y : i16
  } -> tensor<4x16xi16>
  return %r : tensor<4x16xi16>
}

// CHECK-LABEL: func.func @xori_i32
// CHECK:     pto.elementwise xor signed %a0, %a1
func.func @xori_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.xori %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @shli_i32
// CHECK:     pto.elementwise shl signed %a0, %a1
func.func @shli_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.shli %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @shrsi_i32
// CHECK:     pto.elementwise shr signed %a0, %a1
func.func @shrsi_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.shrsi %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @shrui_i32
// CHECK:     pto.elementwise shr unsigned %a0, %a1
func.func @shrui_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.shrui %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @maxnumf_f32
// CHECK:     pto.elementwise max %a0, %a1
func.func @maxnumf_f32(%a0: tensor<4x16xf32>, %a1: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.maxnumf %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @minnumf_f16
// CHECK:     pto.elementwise min %a0, %a1
func.func @minnumf_f16(%a0: tensor<4x16xf16>, %a1: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %e = tensor.empty() : tensor<4x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf16>, tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%x0: f16, %x1: f16, %o: f16):
    %y = arith.minnumf %x0, %x1 : f16
    linalg.yield %y : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}

// CHECK-LABEL: func.func @maxsi_i32
// CHECK:     pto.elementwise max signed %a0, %a1
func.func @maxsi_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.maxsi %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @minui_i16
// CHECK:     pto.elementwise min unsigned %a0, %a1
func.func @minui_i16(%a0: tensor<4x16xi16>, %a1: tensor<4x16xi16>) -> tensor<4x16xi16> {
  %e = tensor.empty() : tensor<4x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi16>, tensor<4x16xi16>) outs(%e : tensor<4x16xi16>) {
  ^bb0(%x0: i16, %x1: i16, %o: i16):
    %y = arith.minui %x0, %x1 : i16
    linalg.yield %y : i16
  } -> tensor<4x16xi16>
  return %r : tensor<4x16xi16>
}

// CHECK-LABEL: func.func @remui_i32
// CHECK:         pto.floor_mod unsigned %a0, %a1
func.func @remui_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.remui %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @adds_const_f32
// CHECK:         pto.map adds %a0, %c : tensor<4x16xf32>, f32
func.func @adds_const_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %c = arith.constant 2.500000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = arith.addf %x0, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @muls_scalar_arg_f32
// CHECK:         pto.map muls %a0, %s
func.func @muls_scalar_arg_f32(%a0: tensor<4x16xf32>, %s: f32) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = arith.mulf %s, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @shrs_const_i16
// CHECK:         %[[C:.*]] = arith.constant 3 : i64
// CHECK:         pto.map shrs signed %a0, %[[C]] : tensor<4x16xi16>, i64
func.func @shrs_const_i16(%a0: tensor<4x16xi16>) -> tensor<4x16xi16> {
  %c = arith.constant 3 : i16
  %e = tensor.empty() : tensor<4x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi16>) outs(%e : tensor<4x16xi16>) {
  ^bb0(%x0: i16, %o: i16):
    %y = arith.shrsi %x0, %c : i16
    linalg.yield %y : i16
  } -> tensor<4x16xi16>
  return %r : tensor<4x16xi16>
}

// CHECK-LABEL: func.func @sub_from_scalar_f32
// CHECK:         %[[N:.*]] = pto.map neg %a0
// CHECK:         pto.map adds %[[N]], %c
func.func @sub_from_scalar_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %c = arith.constant 2.500000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = arith.subf %c, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @recip_f32
// CHECK:         %[[F:.*]] = pto.map expands %{{.*}}, %c
// CHECK:         pto.elementwise div %[[F]], %a0
func.func @recip_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %c = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = arith.divf %c, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @negf_f32
// CHECK:     pto.map neg %a0
func.func @negf_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = arith.negf %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @absf_f16
// CHECK:     pto.map abs %a0
func.func @absf_f16(%a0: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %e = tensor.empty() : tensor<4x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%x0: f16, %o: f16):
    %y = math.absf %x0 : f16
    linalg.yield %y : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}

// CHECK-LABEL: func.func @absi_i32
// CHECK:     pto.map abs signed %a0
func.func @absi_i32(%a0: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %o: i32):
    %y = math.absi %x0 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @exp_f32
// CHECK:     pto.map exp %a0
func.func @exp_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = math.exp %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @log_f32
// CHECK:     pto.map log %a0
func.func @log_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = math.log %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @sqrt_f16
// CHECK:     pto.map sqrt %a0
func.func @sqrt_f16(%a0: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %e = tensor.empty() : tensor<4x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%x0: f16, %o: f16):
    %y = math.sqrt %x0 : f16
    linalg.yield %y : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}

// CHECK-LABEL: func.func @rsqrt_f32
// CHECK:     pto.map rsqrt %a0
func.func @rsqrt_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = math.rsqrt %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// The select spellings of ReLU return x itself (its NaN payload, D21): compare-select, not TRELU
// CHECK-LABEL: func.func @relu_select_ugt_f32
// CHECK:         pto.cmpsel le %a0, %z
// CHECK-NOT:     pto.map relu
// CHECK-NOT:     arith.cmpf
func.func @relu_select_ugt_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %z = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %p = arith.cmpf ugt, %x0, %z : f32
    %y = arith.select %p, %x0, %z : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @relu_select_ole_f32
// CHECK:         pto.cmpsel le %a0, %z
// CHECK-NOT:     pto.map relu
func.func @relu_select_ole_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %z = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %p = arith.cmpf ole, %x0, %z : f32
    %y = arith.select %p, %z, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @relu_maximumf_f32
// CHECK:         pto.map relu %a0
func.func @relu_maximumf_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %z = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = arith.maximumf %z, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @neg_i16_round_trip
// CHECK:         pto.map neg signed %a0
func.func @neg_i16_round_trip(%a0: tensor<4x16xi16>) -> tensor<4x16xi16> {
  %e = tensor.empty() : tensor<4x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi16>) outs(%e : tensor<4x16xi16>) {
  ^bb0(%x0: i16, %o: i16):
    %f = arith.sitofp %x0 : i16 to f32
    %n = arith.negf %f : f32
    %y = arith.fptosi %n : f32 to i16
    linalg.yield %y : i16
  } -> tensor<4x16xi16>
  return %r : tensor<4x16xi16>
}

// CHECK-LABEL: func.func @bias_row_add_f32
// CHECK:         %[[B:.*]] = tensor.expand_shape %a1
// CHECK:         pto.expand col add %a0, %[[B]] : (tensor<4x16xf32>, tensor<1x16xf32>) -> tensor<4x16xf32>
func.func @bias_row_add_f32(%a0: tensor<4x16xf32>, %a1: tensor<16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.addf %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @column_sub_i32
// CHECK:         pto.expand row sub signed %a0, %a1 : (tensor<4x16xi32>, tensor<4x1xi32>) -> tensor<4x16xi32>
func.func @column_sub_i32(%a0: tensor<4x16xi32>, %a1: tensor<4x1xi32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xi32>, tensor<4x1xi32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %y = arith.subi %x0, %x1 : i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @broadcast_lhs_sub_f32
// CHECK:         %[[X:.*]] = pto.expand col copy
// CHECK:         pto.elementwise sub %[[X]], %a0
func.func @broadcast_lhs_sub_f32(%a0: tensor<4x16xf32>, %a1: tensor<16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.subf %x1, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @one_element_mul_f16
// CHECK:         %[[S:.*]] = tensor.extract %a1
// CHECK:         pto.map muls %a0, %[[S]] : tensor<4x16xf16>, f16
func.func @one_element_mul_f16(%a0: tensor<4x16xf16>, %a1: tensor<1xf16>) -> tensor<4x16xf16> {
  %e = tensor.empty() : tensor<4x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf16>, tensor<1xf16>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%x0: f16, %x1: f16, %o: f16):
    %y = arith.mulf %x0, %x1 : f16
    linalg.yield %y : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}

