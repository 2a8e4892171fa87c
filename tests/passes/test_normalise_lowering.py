"""Normalisation before recognition (issue 28 item 7): tensor-level ``arith``/``math`` ops
become ``linalg.generic`` (upstream's convert-elementwise-to-linalg) and 0-d elementwise
generics run on 1 x 1 tiles; the lowered program computes what the input computes (D18).

The reference is the unlowered program run by the upstream interpreter, checked itself
against numpy on hand-picked values."""

from __future__ import annotations

import numpy as np
import pytest
from lowering_helpers import apply, parse

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
