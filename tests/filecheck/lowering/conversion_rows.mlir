// The conversion, rounding and guard rows of the elementwise table
// (passes/lowering/conversion.py): one function per row, its tensor-level PTO form; every
// function assembles. Numerics: tests/passes/test_conversion_lowering.py. Refusals:
// conversion_kept.mlir.
// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// RUN: pto-opt %s -p pto-lower -t pto-asm | filecheck %s --check-prefix=ASM
// ASM: BSTART
// ASM-NOT: error

// CHECK-LABEL: func.func @extf_f16_f32
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>} : tensor<4x16xf16> -> tensor<4x16xf32>
func.func @extf_f16_f32(%a0: tensor<4x16xf16>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf16>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f16, %o: f32):
    %y = arith.extf %x0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @extf_bf16_f32
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>} : tensor<4x16xbf16> -> tensor<4x16xf32>
func.func @extf_bf16_f32(%a0: tensor<4x16xbf16>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xbf16>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: bf16, %o: f32):
    %y = arith.extf %x0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @extf_f32_f64
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>} : tensor<4x16xf32> -> tensor<4x16xf64>
func.func @extf_f32_f64(%a0: tensor<4x16xf32>) -> tensor<4x16xf64> {
  %e = tensor.empty() : tensor<4x16xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf64>) {
  ^bb0(%x0: f32, %o: f64):
    %y = arith.extf %x0 : f32 to f64
    linalg.yield %y : f64
  } -> tensor<4x16xf64>
  return %r : tensor<4x16xf64>
}

// CHECK-LABEL: func.func @truncf_f32_f16
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>} : tensor<4x16xf32> -> tensor<4x16xf16>
func.func @truncf_f32_f16(%a0: tensor<4x16xf32>) -> tensor<4x16xf16> {
  %e = tensor.empty() : tensor<4x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%x0: f32, %o: f16):
    %y = arith.truncf %x0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}

// CHECK-LABEL: func.func @truncf_f32_bf16
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>} : tensor<4x16xf32> -> tensor<4x16xbf16>
func.func @truncf_f32_bf16(%a0: tensor<4x16xf32>) -> tensor<4x16xbf16> {
  %e = tensor.empty() : tensor<4x16xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xbf16>) {
  ^bb0(%x0: f32, %o: bf16):
    %y = arith.truncf %x0 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<4x16xbf16>
  return %r : tensor<4x16xbf16>
}

// CHECK-LABEL: func.func @truncf_f64_f32
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>} : tensor<4x16xf64> -> tensor<4x16xf32>
func.func @truncf_f64_f32(%a0: tensor<4x16xf64>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf64>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f64, %o: f32):
    %y = arith.truncf %x0 : f64 to f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @fptosi_f32_i32
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rtz>, sat, dst_sign = "signed"} : tensor<4x16xf32> -> tensor<4x16xi32>
func.func @fptosi_f32_i32(%a0: tensor<4x16xf32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: f32, %o: i32):
    %y = arith.fptosi %x0 : f32 to i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @fptosi_f16_i16
// D21: saturate to i32, then the low bits
// CHECK:     %[[W:.*]] = pto.convert %a0 {rmode = #pto.rmode<rtz>, sat, dst_sign = "signed"} : tensor<4x16xf16> -> tensor<4x16xi32>
// CHECK:     pto.convert %[[W]] {src_sign = "unsigned", dst_sign = "unsigned"} : tensor<4x16xi32> -> tensor<4x16xi16>
func.func @fptosi_f16_i16(%a0: tensor<4x16xf16>) -> tensor<4x16xi16> {
  %e = tensor.empty() : tensor<4x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf16>) outs(%e : tensor<4x16xi16>) {
  ^bb0(%x0: f16, %o: i16):
    %y = arith.fptosi %x0 : f16 to i16
    linalg.yield %y : i16
  } -> tensor<4x16xi16>
  return %r : tensor<4x16xi16>
}

// CHECK-LABEL: func.func @fptosi_f32_i8
// D21: saturate to i32, then the low bits
// CHECK:     %[[W:.*]] = pto.convert %a0 {rmode = #pto.rmode<rtz>, sat, dst_sign = "signed"} : tensor<4x16xf32> -> tensor<4x16xi32>
// CHECK:     pto.convert %[[W]] {src_sign = "unsigned", dst_sign = "unsigned"} : tensor<4x16xi32> -> tensor<4x16xi8>
func.func @fptosi_f32_i8(%a0: tensor<4x16xf32>) -> tensor<4x16xi8> {
  %e = tensor.empty() : tensor<4x16xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xi8>) {
  ^bb0(%x0: f32, %o: i8):
    %y = arith.fptosi %x0 : f32 to i8
    linalg.yield %y : i8
  } -> tensor<4x16xi8>
  return %r : tensor<4x16xi8>
}

// CHECK-LABEL: func.func @fptoui_f32_i32
// D21: saturate to i64, then the low bits
// CHECK:     %[[W:.*]] = pto.convert %a0 {rmode = #pto.rmode<rtz>, sat, dst_sign = "signed"} : tensor<4x16xf32> -> tensor<4x16xi64>
// CHECK:     pto.convert %[[W]] {src_sign = "unsigned", dst_sign = "unsigned"} : tensor<4x16xi64> -> tensor<4x16xi32>
func.func @fptoui_f32_i32(%a0: tensor<4x16xf32>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: f32, %o: i32):
    %y = arith.fptoui %x0 : f32 to i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @sitofp_i32_f32
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>, src_sign = "signed"} : tensor<4x16xi32> -> tensor<4x16xf32>
func.func @sitofp_i32_f32(%a0: tensor<4x16xi32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: i32, %o: f32):
    %y = arith.sitofp %x0 : i32 to f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @sitofp_i32_f16
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>, src_sign = "signed"} : tensor<4x16xi32> -> tensor<4x16xf16>
func.func @sitofp_i32_f16(%a0: tensor<4x16xi32>) -> tensor<4x16xf16> {
  %e = tensor.empty() : tensor<4x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi32>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%x0: i32, %o: f16):
    %y = arith.sitofp %x0 : i32 to f16
    linalg.yield %y : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}

// CHECK-LABEL: func.func @sitofp_i64_f64
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>, src_sign = "signed"} : tensor<4x16xi64> -> tensor<4x16xf64>
func.func @sitofp_i64_f64(%a0: tensor<4x16xi64>) -> tensor<4x16xf64> {
  %e = tensor.empty() : tensor<4x16xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi64>) outs(%e : tensor<4x16xf64>) {
  ^bb0(%x0: i64, %o: f64):
    %y = arith.sitofp %x0 : i64 to f64
    linalg.yield %y : f64
  } -> tensor<4x16xf64>
  return %r : tensor<4x16xf64>
}

// CHECK-LABEL: func.func @sitofp_i64_f32
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>, src_sign = "signed"} : tensor<4x16xi64> -> tensor<4x16xf32>
func.func @sitofp_i64_f32(%a0: tensor<4x16xi64>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi64>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: i64, %o: f32):
    %y = arith.sitofp %x0 : i64 to f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @uitofp_i64_f32
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>, src_sign = "unsigned"} : tensor<4x16xi64> -> tensor<4x16xf32>
func.func @uitofp_i64_f32(%a0: tensor<4x16xi64>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi64>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: i64, %o: f32):
    %y = arith.uitofp %x0 : i64 to f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @uitofp_i32_f32
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>, src_sign = "unsigned"} : tensor<4x16xi32> -> tensor<4x16xf32>
func.func @uitofp_i32_f32(%a0: tensor<4x16xi32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: i32, %o: f32):
    %y = arith.uitofp %x0 : i32 to f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @uitofp_i16_bf16
// CHECK:     pto.convert %a0 {rmode = #pto.rmode<rne>, src_sign = "unsigned"} : tensor<4x16xi16> -> tensor<4x16xbf16>
func.func @uitofp_i16_bf16(%a0: tensor<4x16xi16>) -> tensor<4x16xbf16> {
  %e = tensor.empty() : tensor<4x16xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi16>) outs(%e : tensor<4x16xbf16>) {
  ^bb0(%x0: i16, %o: bf16):
    %y = arith.uitofp %x0 : i16 to bf16
    linalg.yield %y : bf16
  } -> tensor<4x16xbf16>
  return %r : tensor<4x16xbf16>
}

// CHECK-LABEL: func.func @extsi_i16_i32
// CHECK:     pto.convert %a0 {src_sign = "signed", dst_sign = "signed"} : tensor<4x16xi16> -> tensor<4x16xi32>
func.func @extsi_i16_i32(%a0: tensor<4x16xi16>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi16>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i16, %o: i32):
    %y = arith.extsi %x0 : i16 to i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @extsi_i8_i64
// CHECK:     pto.convert %a0 {src_sign = "signed", dst_sign = "signed"} : tensor<4x16xi8> -> tensor<4x16xi64>
func.func @extsi_i8_i64(%a0: tensor<4x16xi8>) -> tensor<4x16xi64> {
  %e = tensor.empty() : tensor<4x16xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi8>) outs(%e : tensor<4x16xi64>) {
  ^bb0(%x0: i8, %o: i64):
    %y = arith.extsi %x0 : i8 to i64
    linalg.yield %y : i64
  } -> tensor<4x16xi64>
  return %r : tensor<4x16xi64>
}

// CHECK-LABEL: func.func @extui_i16_i32
// CHECK:     pto.convert %a0 {src_sign = "unsigned", dst_sign = "unsigned"} : tensor<4x16xi16> -> tensor<4x16xi32>
func.func @extui_i16_i32(%a0: tensor<4x16xi16>) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi16>) outs(%e : tensor<4x16xi32>) {
  ^bb0(%x0: i16, %o: i32):
    %y = arith.extui %x0 : i16 to i32
    linalg.yield %y : i32
  } -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// CHECK-LABEL: func.func @trunci_i32_i16
// CHECK:     pto.convert %a0 {src_sign = "unsigned", dst_sign = "unsigned"} : tensor<4x16xi32> -> tensor<4x16xi16>
func.func @trunci_i32_i16(%a0: tensor<4x16xi32>) -> tensor<4x16xi16> {
  %e = tensor.empty() : tensor<4x16xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi32>) outs(%e : tensor<4x16xi16>) {
  ^bb0(%x0: i32, %o: i16):
    %y = arith.trunci %x0 : i32 to i16
    linalg.yield %y : i16
  } -> tensor<4x16xi16>
  return %r : tensor<4x16xi16>
}

// CHECK-LABEL: func.func @trunci_i64_i8
// CHECK:     pto.convert %a0 {src_sign = "unsigned", dst_sign = "unsigned"} : tensor<4x16xi64> -> tensor<4x16xi8>
func.func @trunci_i64_i8(%a0: tensor<4x16xi64>) -> tensor<4x16xi8> {
  %e = tensor.empty() : tensor<4x16xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xi64>) outs(%e : tensor<4x16xi8>) {
  ^bb0(%x0: i64, %o: i8):
    %y = arith.trunci %x0 : i64 to i8
    linalg.yield %y : i8
  } -> tensor<4x16xi8>
  return %r : tensor<4x16xi8>
}

// CHECK-LABEL: func.func @floor_f32
// CHECK:         %[[A:.*]] = pto.map abs %a0
// CHECK:    %[[I:.*]] = pto.convert %a0 {rmode = #pto.rmode<rtm>, sat, dst_sign = "signed"} : tensor<4x16xf32> -> tensor<4x16xi32>
// CHECK:    %[[R:.*]] = pto.convert %[[I]] {rmode = #pto.rmode<rne>, src_sign = "signed"}
// CHECK:    %[[Z:.*]] = pto.map muls %a0
// CHECK:    %[[R2:.*]] = pto.cmpsel eq %[[R]], %{{.*}}, %[[Z]], %[[R]]
// CHECK:    pto.cmpsel lt %[[A]], %{{.*}}, %[[R2]], %a0
func.func @floor_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = math.floor %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @ceil_f32
// CHECK:         %[[A:.*]] = pto.map abs %a0
// CHECK:    %[[I:.*]] = pto.convert %a0 {rmode = #pto.rmode<rtp>, sat, dst_sign = "signed"} : tensor<4x16xf32> -> tensor<4x16xi32>
// CHECK:    %[[R:.*]] = pto.convert %[[I]] {rmode = #pto.rmode<rne>, src_sign = "signed"}
// CHECK:    %[[Z:.*]] = pto.map muls %a0
// CHECK:    %[[R2:.*]] = pto.cmpsel eq %[[R]], %{{.*}}, %[[Z]], %[[R]]
// CHECK:    pto.cmpsel lt %[[A]], %{{.*}}, %[[R2]], %a0
func.func @ceil_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = math.ceil %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @trunc_f32
// CHECK:         %[[A:.*]] = pto.map abs %a0
// CHECK:    %[[I:.*]] = pto.convert %a0 {rmode = #pto.rmode<rtz>, sat, dst_sign = "signed"} : tensor<4x16xf32> -> tensor<4x16xi32>
// CHECK:    %[[R:.*]] = pto.convert %[[I]] {rmode = #pto.rmode<rne>, src_sign = "signed"}
// CHECK:    %[[Z:.*]] = pto.map muls %a0
// CHECK:    %[[R2:.*]] = pto.cmpsel eq %[[R]], %{{.*}}, %[[Z]], %[[R]]
// CHECK:    pto.cmpsel lt %[[A]], %{{.*}}, %[[R2]], %a0
func.func @trunc_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = math.trunc %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @roundeven_f32
// CHECK:         %[[A:.*]] = pto.map abs %a0
// CHECK:    %[[I:.*]] = pto.convert %a0 {rmode = #pto.rmode<rne>, sat, dst_sign = "signed"} : tensor<4x16xf32> -> tensor<4x16xi32>
// CHECK:    %[[R:.*]] = pto.convert %[[I]] {rmode = #pto.rmode<rne>, src_sign = "signed"}
// CHECK:    %[[Z:.*]] = pto.map muls %a0
// CHECK:    %[[R2:.*]] = pto.cmpsel eq %[[R]], %{{.*}}, %[[Z]], %[[R]]
// CHECK:    pto.cmpsel lt %[[A]], %{{.*}}, %[[R2]], %a0
func.func @roundeven_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = math.roundeven %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @round_f32
// CHECK:         %[[A:.*]] = pto.map abs %a0
// CHECK:    %[[I:.*]] = pto.convert %a0 {rmode = #pto.rmode<rna>, sat, dst_sign = "signed"} : tensor<4x16xf32> -> tensor<4x16xi32>
// CHECK:    %[[R:.*]] = pto.convert %[[I]] {rmode = #pto.rmode<rne>, src_sign = "signed"}
// CHECK:    %[[Z:.*]] = pto.map muls %a0
// CHECK:    %[[R2:.*]] = pto.cmpsel eq %[[R]], %{{.*}}, %[[Z]], %[[R]]
// CHECK:    pto.cmpsel lt %[[A]], %{{.*}}, %[[R2]], %a0
func.func @round_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = math.round %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @floor_f16
// CHECK:         %[[A:.*]] = pto.map abs %a0
// CHECK:    %[[I:.*]] = pto.convert %a0 {rmode = #pto.rmode<rtm>, sat, dst_sign = "signed"} : tensor<4x16xf16> -> tensor<4x16xi16>
// CHECK:    %[[R:.*]] = pto.convert %[[I]] {rmode = #pto.rmode<rne>, src_sign = "signed"}
// CHECK:    %[[Z:.*]] = pto.map muls %a0
// CHECK:    %[[R2:.*]] = pto.cmpsel eq %[[R]], %{{.*}}, %[[Z]], %[[R]]
// CHECK:    pto.cmpsel lt %[[A]], %{{.*}}, %[[R2]], %a0
func.func @floor_f16(%a0: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %e = tensor.empty() : tensor<4x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%x0: f16, %o: f16):
    %y = math.floor %x0 : f16
    linalg.yield %y : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}

// CHECK-LABEL: func.func @ceil_bf16
// CHECK:         %[[A:.*]] = pto.map abs %a0
// CHECK:    %[[I:.*]] = pto.convert %a0 {rmode = #pto.rmode<rtp>, sat, dst_sign = "signed"} : tensor<4x16xbf16> -> tensor<4x16xi16>
// CHECK:    %[[R:.*]] = pto.convert %[[I]] {rmode = #pto.rmode<rne>, src_sign = "signed"}
// CHECK:    %[[Z:.*]] = pto.map muls %a0
// CHECK:    %[[R2:.*]] = pto.cmpsel eq %[[R]], %{{.*}}, %[[Z]], %[[R]]
// CHECK:    pto.cmpsel lt %[[A]], %{{.*}}, %[[R2]], %a0
func.func @ceil_bf16(%a0: tensor<4x16xbf16>) -> tensor<4x16xbf16> {
  %e = tensor.empty() : tensor<4x16xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xbf16>) outs(%e : tensor<4x16xbf16>) {
  ^bb0(%x0: bf16, %o: bf16):
    %y = math.ceil %x0 : bf16
    linalg.yield %y : bf16
  } -> tensor<4x16xbf16>
  return %r : tensor<4x16xbf16>
}

// CHECK-LABEL: func.func @round_f64
// CHECK:         %[[A:.*]] = pto.map abs %a0
// CHECK:    %[[I:.*]] = pto.convert %a0 {rmode = #pto.rmode<rna>, sat, dst_sign = "signed"} : tensor<4x16xf64> -> tensor<4x16xi64>
// CHECK:    %[[R:.*]] = pto.convert %[[I]] {rmode = #pto.rmode<rne>, src_sign = "signed"}
// CHECK:    %[[Z:.*]] = pto.map muls %a0
// CHECK:    %[[R2:.*]] = pto.cmpsel eq %[[R]], %{{.*}}, %[[Z]], %[[R]]
// CHECK:    pto.cmpsel lt %[[A]], %{{.*}}, %[[R2]], %a0
func.func @round_f64(%a0: tensor<4x16xf64>) -> tensor<4x16xf64> {
  %e = tensor.empty() : tensor<4x16xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf64>) outs(%e : tensor<4x16xf64>) {
  ^bb0(%x0: f64, %o: f64):
    %y = math.round %x0 : f64
    linalg.yield %y : f64
  } -> tensor<4x16xf64>
  return %r : tensor<4x16xf64>
}

// CHECK-LABEL: func.func @sitofp_scalar_add_f32
// CHECK:         %[[S:.*]] = arith.sitofp %c3 : i32 to f32
// CHECK:    pto.map adds %a0, %[[S]]
func.func @sitofp_scalar_add_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %c3 = arith.constant 3 : i32
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %s = arith.sitofp %c3 : i32 to f32
    %y = arith.addf %x0, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @reciprocal_guarded_f32
// CHECK:         %[[ONES:.*]] = pto.map expands signed
// CHECK:    %[[GT:.*]] = pto.cmpsel gt %a0, %z, %[[ONES]], %{{.*}} : (tensor<4x16xf32>, f32, tensor<4x16xi32>, i64) -> tensor<4x16xi32>
// CHECK:    %[[OK:.*]] = pto.cmpsel lt %a0, %z, %[[ONES]], %[[GT]]
// CHECK:    %[[Q:.*]] = pto.elementwise div signed %[[ONES]], %[[OK]] : tensor<4x16xi32>
// CHECK:    %[[D:.*]] = pto.elementwise div %{{.*}}, %a0 : tensor<4x16xf32>
// CHECK:    pto.cmpsel eq signed %[[Q]], %{{.*}}, %[[D]], %[[D]]
func.func @reciprocal_guarded_f32(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %z = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %p = arith.cmpf one, %x0, %z : f32
    cf.assert %p, "zero element"
    %y = arith.divf %one, %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @assert_ugt_f16
// CHECK:         %[[OK:.*]] = pto.cmpsel le %a0, %z, %{{.*}}, %{{.*}} : (tensor<4x16xf16>, f16, tensor<4x16xi16>, i64) -> tensor<4x16xi16>
// CHECK:    pto.elementwise div signed %{{.*}}, %[[OK]] : tensor<4x16xi16>
func.func @assert_ugt_f16(%a0: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %z = arith.constant 0.000000e+00 : f16
  %e = tensor.empty() : tensor<4x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%x0: f16, %o: f16):
    %p = arith.cmpf ugt, %x0, %z : f16
    cf.assert %p, "not positive"
    %y = arith.negf %x0 : f16
    linalg.yield %y : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}
