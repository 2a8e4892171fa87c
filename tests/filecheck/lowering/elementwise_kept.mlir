// Elementwise bodies the table refuses stay, and D19 says why (passes/lowering/elementwise.py).
// RUN: pto-opt %s -p pto-lower,pto-lowering-report 2>&1 >/dev/null | filecheck %s --check-prefix=WHY
// RUN: pto-opt %s -p convert-linalg-to-pto | filecheck %s
// WHY: pto lowering report: 5 op(s) not lowered to PTO
// WHY-NEXT: @sin_kept op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, f32]: elementwise: math.sin: no PTO instruction computes it; range reduction of large f32 arguments needs more precision than f32 tile arithmetic gives (no D22 composition yet)
// WHY-NEXT: @cmpf_yields_i1 op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, f32, i1]: elementwise: arith.cmpf: an i1 value other than a select's condition: PTO has no i1 tensors (a predicate tile is neither loaded nor stored, so a compare lowers only inside a select)
// WHY-NEXT: @select_on_i1_input op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: i1, f32, f32, f32]: elementwise: a select's condition is input 0, an i1 tensor: a predicate tile cannot be loaded from memory (compare the data in the body instead)
// WHY-NEXT: @select_of_predicates_yielded op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: f32, f32, i1]: elementwise: arith.select on i1: an i1 value other than a select's condition: PTO has no i1 tensors (a predicate tile is neither loaded nor stored, so a compare lowers only inside a select)
// WHY-NEXT: @cmpi_on_i1_inputs op {{[0-9]+}} (%r): 'linalg.generic' [elementwise: i1, i1, f32, f32, f32]: elementwise: a compare on i1: not a TCMP/TSEL element type (TileCompareDataTypeSupported)
// What lowers now (maximumf, select(x < 0, 0, x) keeping -0): compare_select_rows.mlir.

// CHECK-LABEL: func.func @sin_kept
// CHECK:         math.sin
func.func @sin_kept(%a0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = math.sin %x0 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
// A compare yielded as i1 (ONNX Less's bool output): PTO has no i1 tensors.
// CHECK-LABEL: func.func @cmpf_yields_i1
// CHECK:         arith.cmpf olt
func.func @cmpf_yields_i1(%a0: tensor<4x16xf32>, %a1: tensor<4x16xf32>) -> tensor<4x16xi1> {
  %e = tensor.empty() : tensor<4x16xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xi1>) {
  ^bb0(%x0: f32, %x1: f32, %o: i1):
    %y = arith.cmpf olt, %x0, %x1 : f32
    linalg.yield %y : i1
  } -> tensor<4x16xi1>
  return %r : tensor<4x16xi1>
}

// A condition read from an i1 input: a predicate tile is not loadable.
// CHECK-LABEL: func.func @select_on_i1_input
// CHECK:         arith.select
func.func @select_on_i1_input(%c: tensor<4x16xi1>, %a0: tensor<4x16xf32>, %a1: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %a0, %a1 : tensor<4x16xi1>, tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: i1, %x0: f32, %x1: f32, %o: f32):
    %y = arith.select %p, %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// A select of i1 values that is yielded: an i1 value.
// CHECK-LABEL: func.func @select_of_predicates_yielded
// CHECK:         arith.select
func.func @select_of_predicates_yielded(%a0: tensor<4x16xf32>, %a1: tensor<4x16xf32>) -> tensor<4x16xi1> {
  %e = tensor.empty() : tensor<4x16xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a0, %a1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xi1>) {
  ^bb0(%x0: f32, %x1: f32, %o: i1):
    %p = arith.cmpf olt, %x0, %x1 : f32
    %q = arith.cmpf ogt, %x0, %x1 : f32
    %y = arith.select %p, %q, %p : i1
    linalg.yield %y : i1
  } -> tensor<4x16xi1>
  return %r : tensor<4x16xi1>
}

// A compare of i1 values (bool inputs): i1 is not a TCMP element type.
// CHECK-LABEL: func.func @cmpi_on_i1_inputs
// CHECK:         arith.cmpi eq
func.func @cmpi_on_i1_inputs(%c: tensor<4x16xi1>, %d: tensor<4x16xi1>, %a0: tensor<4x16xf32>, %a1: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %d, %a0, %a1 : tensor<4x16xi1>, tensor<4x16xi1>, tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: i1, %q: i1, %x0: f32, %x1: f32, %o: f32):
    %b = arith.cmpi eq, %p, %q : i1
    %y = arith.select %b, %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
