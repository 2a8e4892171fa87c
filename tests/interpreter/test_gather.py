"""Gathers: ``tensor.extract`` with a data-dependent index inside a linalg body (issue 23, 6).

An embedding lookup reads ``table[ids[i, j], k]``; inside a ``linalg.generic`` the body runs
once over the whole iteration space, so the indices are arrays and the extract is one numpy
fancy-indexing call. Before the fix: ``internal error: TypeError: only 0-dimensional arrays``
on both engines. Checked against numpy indexing written independently, on both engines,
before and after ``pto-lower`` (which keeps the gather); an index out of range is a one-line
error naming the dimension, not a traceback.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import run
from interpreter.ssa.runner import RunError, build_context, parse_module_text
from passes.pto_lower import PTOLowerPass
from tests.budget import examples

EMBEDDING = """func.func @f(%ids: tensor<2x3x{it}>, %table: tensor<{v}x4x{et}>) -> tensor<2x3x4x{et}> {{
  %e = tensor.empty() : tensor<2x3x4x{et}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%ids : tensor<2x3x{it}>) outs(%e : tensor<2x3x4x{et}>) {{
  ^bb0(%id: {it}, %o: {et}):
    %i = arith.index_cast %id : {it} to index
    %j = linalg.index 2 : index
    %v = tensor.extract %table[%i, %j] : tensor<{v}x4x{et}>
    linalg.yield %v : {et}
  }} -> tensor<2x3x4x{et}>
  return %r : tensor<2x3x4x{et}>
}}
"""

# A gather inside a reduction (the per-point path): out[i] = sum_k table[ids[i, k]] in order.
GATHER_SUM = """func.func @f(%ids: tensor<3x5xi32>, %table: tensor<8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%ids : tensor<3x5xi32>) outs(%f : tensor<3xf32>) {
  ^bb0(%id: i32, %acc: f32):
    %i = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%i] : tensor<8xf32>
    %c = arith.constant 2.0 : f32
    %w = arith.mulf %v, %c : f32
    %s = arith.addf %acc, %w : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
"""

# An index computed from linalg.index (a reversal) and a scalar extract outside any body.
REVERSE = """func.func @f(%t: tensor<6xi8>) -> (tensor<6xi8>, i8) {
  %e = tensor.empty() : tensor<6xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<6xi8>) {
  ^bb0(%o: i8):
    %j = linalg.index 0 : index
    %n = arith.constant 5 : index
    %k = arith.subi %n, %j : index
    %v = tensor.extract %t[%k] : tensor<6xi8>
    linalg.yield %v : i8
  } -> tensor<6xi8>
  %c2 = arith.constant 2 : index
  %s = tensor.extract %t[%c2] : tensor<6xi8>
  return %r, %s : tensor<6xi8>, i8
}
"""


def _lowered(text: str):
    module = parse_module_text(text)
    PTOLowerPass(level="tile").apply(build_context(), module)
    module.verify()
    return module


@pytest.mark.parametrize(("it", "et"), [("i64", "f32"), ("i32", "f16"), ("i16", "i8")])
def test_embedding_lookup(it: str, et: str) -> None:
    rng = np.random.default_rng(3)
    v = 10
    ids = rng.integers(0, v, (2, 3)).astype(f"int{it[1:]}")
    table = (rng.standard_normal((v, 4)) * 20).astype({"f32": np.float32, "f16": np.float16, "i8": np.int8}[et])
    want = table[ids.astype(np.int64)]
    text = EMBEDDING.format(it=it, et=et, v=v)
    for engine in ("xdsl", "compiled", "both"):
        (got,) = run(text, "f", ids, table, engine=engine)
        assert got.dtype == want.dtype and np.array_equal(got, want)
    (got,) = run(_lowered(text), "f", ids, table, engine="both")
    assert np.array_equal(got, want)


@settings(max_examples=examples(15), deadline=None)
@given(ids=st.lists(st.integers(0, 7), min_size=15, max_size=15))
def test_gather_inside_reduction(ids: list[int]) -> None:
    a = np.array(ids, np.int32).reshape(3, 5)
    table = np.array([0.1, -2.5, 3.25, 1e-3, 7.0, -0.0, 1e6, 0.3], np.float32)
    want = np.zeros(3, np.float32)
    for k in range(5):  # sequential order, one f32 rounding per step
        want = (want + table[a[:, k]] * np.float32(2.0)).astype(np.float32)
    for engine in ("xdsl", "compiled"):
        (got,) = run(GATHER_SUM, "f", a, table, engine=engine)
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_index_from_linalg_index_and_scalar_extract() -> None:
    t = np.array([1, -2, 3, -4, 5, -128], np.int8)
    rev, s = run(REVERSE, "f", t, engine="both")
    assert list(rev) == list(t[::-1]) and int(s) == 3


@pytest.mark.parametrize("bad", [10, -1])
def test_out_of_range_index_is_a_clear_error(bad: int) -> None:
    ids = np.array([[1, 2, 3], [9, 0, bad]], np.int64)
    table = np.zeros((10, 4), np.float32)
    for engine in ("xdsl", "compiled"):
        with pytest.raises(RunError, match=rf"tensor.extract: index {bad} out of bounds for dimension 0 of size 10"):
            run(EMBEDDING.format(it="i64", et="f32", v=10), "f", ids, table, engine=engine)
