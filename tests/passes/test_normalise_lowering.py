"""Normalisation before recognition (issue 28 item 7): tensor-level ``arith``/``math`` ops
become ``linalg.generic`` (upstream's convert-elementwise-to-linalg) and 0-d elementwise
generics run on 1 x 1 tiles; the lowered program computes what the input computes (D18).

The reference is the unlowered program run by the upstream interpreter, checked itself
against numpy on hand-picked values."""

from __future__ import annotations

import numpy as np
import pytest
from lowering_helpers import apply, parse
from xdsl.dialects.builtin import TensorType

from interpreter.ssa.runner import run
from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass
from passes.lowering.leftovers import find_leftovers
from passes.lowering.normalise import TensorElementwiseToGeneric, is_tensor_elementwise
from passes.pto_lower import PTOLowerPass

TENSOR_OPS = """
func.func @main(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = arith.addf %a, %b : tensor<4x8xf32>
  %1 = arith.mulf %0, %a : tensor<4x8xf32>
  %2 = math.exp %1 : tensor<4x8xf32>
  %3 = arith.maximumf %2, %c : tensor<4x8xf32>
  %4 = arith.negf %3 : tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}
"""

SCALAR_LOSS = """
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = arith.subf %a, %b : tensor<f32>
  %1 = arith.mulf %0, %0 : tensor<f32>
  %2 = math.sqrt %1 : tensor<f32>
  return %2 : tensor<f32>
}
"""

ZERO_D_GENERIC = """
func.func @main(%a: tensor<f32>, %s: f32) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>],
                       iterator_types = []} ins(%a : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %s : f32
    %n = math.exp %m : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
"""


def _inputs(rng):
    a = rng.uniform(-2, 2, (4, 8)).astype(np.float32)
    b = rng.uniform(-2, 2, (4, 8)).astype(np.float32)
    c = rng.uniform(0, 8, (4, 8)).astype(np.float32)
    return a, b, c


def test_tensor_ops_become_generics():
    m = apply(ConvertLinalgToPtoPass(gemv=False, matmul=False, floor_mod=False, fuse=False), parse(TENSOR_OPS))
    assert not [o for o in m.walk() if is_tensor_elementwise(o)]


def test_tensor_level_ops_run_the_same_before_and_after_lowering():
    a, b, c = _inputs(np.random.default_rng(1))
    (want,) = run(TENSOR_OPS, "main", a, b, c)
    ref = -np.maximum(np.exp(((a + b) * a).astype(np.float64)).astype(np.float32), c)
    np.testing.assert_array_equal(want, ref)  # the interpreter: numpy's values
    lowered = apply(PTOLowerPass(), parse(TENSOR_OPS))
    assert not find_leftovers(lowered)
    (got,) = run(lowered, "main", a, b, c)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("text", [SCALAR_LOSS, ZERO_D_GENERIC], ids=["tensor_ops", "generic"])
def test_zero_d_results_lower_completely_on_1x1_tiles(text):
    a, b = np.float32(1.75), np.float32(-0.5)
    args = (np.asarray(a), np.asarray(b)) if text is SCALAR_LOSS else (np.asarray(a), b)
    (want,) = run(text, "main", *args)
    lowered = apply(PTOLowerPass(), parse(text))
    assert not find_leftovers(lowered)
    assert any(o.name == "tensor.from_elements" for o in lowered.walk())
    (got,) = run(lowered, "main", *args)
    assert np.asarray(got).shape == ()
    np.testing.assert_array_equal(got, want)
    if text is SCALAR_LOSS:
        assert float(want) == 2.25


def test_a_broken_rewrite_turns_the_check_red(monkeypatch):
    """Applying a different op per element (subf for addf) changes the value: the
    before/after comparison above would see it."""
    from xdsl.dialects import arith

    original = TensorElementwiseToGeneric.match_and_rewrite

    def broken(self, op, rewriter):
        if isinstance(op, arith.AddfOp):
            rewriter.replace(op, arith.SubfOp(op.lhs, op.rhs))
            return
        original(self, op, rewriter)

    monkeypatch.setattr(TensorElementwiseToGeneric, "match_and_rewrite", broken)
    a, b, c = _inputs(np.random.default_rng(2))
    (want,) = run(TENSOR_OPS, "main", a, b, c)
    (got,) = run(apply(PTOLowerPass(), parse(TENSOR_OPS)), "main", a, b, c)
    assert not np.array_equal(got, want)


MASKS = """
func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %m = arith.constant dense<[[true, false, true], [false, true, true]]> : tensor<2x3xi1>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %x : tensor<2x3xi1>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%c: i1, %a: f32, %o: f32):
    %s = arith.select %c, %a, %ninf : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %eb = tensor.empty() : tensor<2x3xi1>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<2x3xf32>) outs(%eb : tensor<2x3xi1>) {
  ^bb0(%a: f32, %o: i1):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %a, %z : f32
    linalg.yield %c : i1
  } -> tensor<2x3xi1>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %r : tensor<2x3xi1>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%c: i1, %a: f32, %o: f32):
    %s = arith.select %c, %a, %ninf : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %q2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %y : tensor<2x3xi1>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%c: i1, %a: f32, %o: f32):
    %s = arith.select %c, %ninf, %a : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %q, %q2 : tensor<2x3xf32>, tensor<2x3xf32>
}
"""


def test_predicate_tensors_between_generics_travel_as_bytes():
    """A constant mask (torch-mlir's Where) and a compare read by two generics: i1 tensors
    become i8 0/1 and every consumer sees the same truth values; the program lowers
    completely and computes what it computed (hand-derived reference)."""
    x = np.array([[1.0, 2.0, -3.0], [4.0, np.nan, -0.0]], np.float32)
    y = np.array([[0.5, -1.0, 2.0], [np.nan, 3.0, -0.0]], np.float32)
    mask = np.array([[True, False, True], [False, True, True]])
    r = np.where(mask, x, -np.inf).astype(np.float32)
    want_q = np.where(y > 0, r, -np.inf).astype(np.float32)
    want_q2 = np.where(y > 0, -np.inf, y).astype(np.float32)
    before = run(MASKS, "main", x, y)
    lowered = apply(PTOLowerPass(), parse(MASKS))
    assert not find_leftovers(lowered)
    assert not any(isinstance(v.type, TensorType) and str(v.type.element_type) == "i1"
                   for o in lowered.walk() for v in o.results)  # fmt: skip
    after = run(lowered, "main", x, y)
    for got in (before, after):
        np.testing.assert_array_equal(got[0], want_q)
        np.testing.assert_array_equal(got[1], want_q2)


COUNT = """
func.func @main(%labels: tensor<6xi64>, %x: tensor<6xf32>) -> (tensor<i64>, tensor<f32>) {
  %ignore = arith.constant -100 : i64
  %c0 = arith.constant 0 : i64
  %z = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<6xi1>
  %ok = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%labels : tensor<6xi64>) outs(%eb : tensor<6xi1>) {
  ^bb0(%in: i64, %o: i1):
    %c = arith.cmpi ne, %in, %ignore : i64
    linalg.yield %c : i1
  } -> tensor<6xi1>
  %e = tensor.empty() : tensor<i64>
  %f = linalg.fill ins(%c0 : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%ok : tensor<6xi1>) outs(%f : tensor<i64>) {
  ^bb0(%in: i1, %out: i64):
    %w = arith.extui %in : i1 to i64
    %s = arith.addi %w, %out : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %ef = tensor.empty() : tensor<f32>
  %ff = linalg.fill ins(%z : f32) outs(%ef : tensor<f32>) -> tensor<f32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<6xf32>) outs(%ff : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    %s = arith.addf %m, %out : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %n, %sq : tensor<i64>, tensor<f32>
}
"""


def test_counts_and_sums_of_squares_split_their_prologue():
    """A count of the labels that are not ignored (extui of an i1 mask + addi) and a sum of
    squares: the per-element prologue becomes an elementwise generic, the fold a plain
    TROWSUM; both lower completely and compute the sequential fold's bits (Python
    reference: a left fold in float32)."""
    labels = np.array([3, -100, 0, 7, -100, 1], np.int64)
    x = np.array([0.1, -2.5, 3.0, 1e-3, -0.0, 7.25], np.float32)
    acc = np.float32(0.0)
    for v in x:
        acc = np.float32(acc + np.float32(v * v))
    before = run(COUNT, "main", labels, x)
    lowered = apply(PTOLowerPass(), parse(COUNT))
    assert not find_leftovers(lowered)
    after = run(lowered, "main", labels, x)
    for n, sq in (before, after):
        assert int(n) == 4
        assert np.float32(sq).tobytes() == acc.tobytes()
