"""Data movement (issue 28 item 3): N-D transposes, ``tensor.concat`` and
``linalg.broadcast`` lower (TTRANS on 2-D blocks, slices, TROWEXPAND/TCOLEXPAND copies) and
run before lowering; the values are bit copies, checked against numpy's transpose /
concatenate / broadcast (independent) on NaN payloads and signed zeros too (D18)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from lowering_helpers import apply, parse

from interpreter.ssa.runner import run
from passes.lowering.data_movement import BOUND_CHECKS, SWAPPED, NdTransposeToSlices
from passes.lowering.leftovers import find_leftovers
from passes.pto_lower import PTOLowerPass


def _t(shape, elt="f32") -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{elt}>"


def transpose_program(shape, perm, elt="f32") -> str:
    out = [shape[p] for p in perm]
    return f"""func.func @main(%x: {_t(shape, elt)}) -> {_t(out, elt)} {{
  %e = tensor.empty() : {_t(out, elt)}
  %t = linalg.transpose ins(%x : {_t(shape, elt)}) outs(%e : {_t(out, elt)}) permutation = {list(perm)}
  return %t : {_t(out, elt)}
}}
"""


def _data(shape, dtype=np.float32):
    rng = np.random.default_rng(sum(shape))
    if np.dtype(dtype).kind == "i":
        return rng.integers(-1000, 1000, shape).astype(dtype)
    x = rng.uniform(-4, 4, shape).astype(dtype)
    flat = x.reshape(-1)
    flat[:3] = [np.nan, -0.0, np.inf]
    flat.view(np.uint32)[0] = 0x7FC01234  # a NaN payload travels as bits
    return x


def _bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}")


PERMS4 = [(0, 2, 1, 3), (0, 1, 3, 2), (3, 2, 1, 0), (2, 0, 3, 1), (1, 0, 2, 3), (0, 3, 1, 2)]


@pytest.mark.parametrize("perm", [*itertools.permutations(range(3)), *PERMS4],
                         ids=lambda p: "".join(map(str, p)))  # fmt: skip
def test_any_permutation_lowers_and_copies_bits(perm):
    shape = (2, 3, 4) if len(perm) == 3 else (1, 4, 2, 8)
    text = transpose_program(shape, perm)
    x = _data(shape)
    want = np.transpose(x, perm)
    (before,) = run(text, "main", x)
    np.testing.assert_array_equal(_bits(before), _bits(want))
    lowered = apply(PTOLowerPass(), parse(text))
    assert not find_leftovers(lowered)
    (got,) = run(lowered, "main", x)
    np.testing.assert_array_equal(_bits(got), _bits(want))


def test_head_split_is_strided_copies_and_k_transpose_uses_ttrans():
    tile = apply(PTOLowerPass(level="tile"), parse(transpose_program((1, 8, 2, 8), (0, 2, 1, 3))))
    names = [o.name for o in tile.walk()]
    assert "pto.ttrans" not in names and names.count("tensor.insert_slice") == 2
    tile = apply(PTOLowerPass(level="tile"), parse(transpose_program((1, 2, 8, 4), (0, 1, 3, 2))))
    assert [o.name for o in tile.walk()].count("pto.ttrans") == 2


def test_integer_transpose_and_a_broken_block_order_turns_red(monkeypatch):
    text = transpose_program((2, 3, 4, 5), (2, 0, 3, 1), "i32")
    x = _data((2, 3, 4, 5), np.int32)
    (got,) = run(apply(PTOLowerPass(), parse(text)), "main", x)
    np.testing.assert_array_equal(got, np.transpose(x, (2, 0, 3, 1)))
    import passes.lowering.data_movement as dm

    real = dm.tensor.InsertSliceOp.from_static_parameters

    def shifted(src, dest, offsets, sizes, strides=None):  # every block one slot off
        offsets = list(offsets)
        offsets[0] = (offsets[0] + 1) % dest.type.get_shape()[0]
        return real(src, dest, offsets, sizes, strides)

    monkeypatch.setattr(dm.tensor.InsertSliceOp, "from_static_parameters", staticmethod(shifted))
    (bad,) = run(apply(PTOLowerPass(), parse(text)), "main", x)
    assert not np.array_equal(bad, np.transpose(x, (2, 0, 3, 1)))
    assert NdTransposeToSlices  # the pattern under test


CONCAT = """func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x3x1xf32>, %c: tensor<2x3x3xf32>) -> tensor<2x3x8xf32> {
  %r = tensor.concat dim(2) %a, %b, %c : (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x3xf32>) -> tensor<2x3x8xf32>
  return %r : tensor<2x3x8xf32>
}
"""


def test_concat_runs_and_lowers_to_slices():
    a, b, c = _data((2, 3, 4)), _data((2, 3, 1)) + 10, _data((2, 3, 3)) - 10
    want = np.concatenate([a, b, c], axis=2)
    (before,) = run(CONCAT, "main", a, b, c)
    np.testing.assert_array_equal(_bits(before), _bits(want))
    lowered = apply(PTOLowerPass(), parse(CONCAT))
    assert not find_leftovers(lowered)
    (got,) = run(lowered, "main", a, b, c)
    np.testing.assert_array_equal(_bits(got), _bits(want))


@pytest.mark.parametrize(("shape", "out", "dims"), [((4,), (3, 4), [0]), ((3,), (3, 4), [1]),
                                                    ((4, 5), (2, 4, 5), [0]),
                                                    ((3,), (1, 3, 2, 4), [0, 2, 3])])  # fmt: skip
def test_broadcast_runs_and_lowers(shape, out, dims):
    text = f"""func.func @main(%a: {_t(shape)}) -> {_t(out)} {{
  %e = tensor.empty() : {_t(out)}
  %b = linalg.broadcast ins(%a : {_t(shape)}) outs(%e : {_t(out)}) dimensions = {dims}
  return %b : {_t(out)}
}}
"""
    x = _data(shape)
    want = np.broadcast_to(np.expand_dims(x, tuple(dims)), out)
    (before,) = run(text, "main", x)
    np.testing.assert_array_equal(_bits(before), _bits(want))
    lowered = apply(PTOLowerPass(), parse(text))
    assert not find_leftovers(lowered)
    (got,) = run(lowered, "main", x)
    np.testing.assert_array_equal(_bits(got), _bits(want))


def gather_program(rows: int, cols: int, n: int, elt: str = "f32", ids: str = "i64") -> str:
    return f"""func.func @main(%ids: tensor<{n}x{ids}>, %table: tensor<{rows}x{cols}x{elt}>) -> tensor<{n}x{cols}x{elt}> {{
  %e = tensor.empty() : tensor<{n}x{cols}x{elt}>
  %g = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%ids : tensor<{n}x{ids}>) outs(%e : tensor<{n}x{cols}x{elt}>) {{
  ^bb0(%in: {ids}, %out: {elt}):
    %r = arith.index_cast %in : {ids} to index
    %j = linalg.index 1 : index
    %x = tensor.extract %table[%r, %j] : tensor<{rows}x{cols}x{elt}>
    linalg.yield %x : {elt}
  }} -> tensor<{n}x{cols}x{elt}>
  return %g : tensor<{n}x{cols}x{elt}>
}}
"""


@pytest.mark.parametrize(("rows", "cols", "n", "elt", "ids"), [
    (32, 16, 8, "f32", "i64"), (10, 24, 13, "f16", "i32"), (5, 8, 40, "i32", "i64"),
])  # fmt: skip
def test_embedding_gather_lowers_to_tgather_and_copies_rows(rows, cols, n, elt, ids):
    dt = {"f32": np.float32, "f16": np.float16, "i32": np.int32}[elt]
    table = _data((rows, cols), dt)
    idx = np.random.default_rng(n).integers(0, rows, n).astype({"i64": np.int64, "i32": np.int32}[ids])
    text = gather_program(rows, cols, n, elt, ids)
    want = table[idx]  # numpy fancy indexing: the independent reference
    (before,) = run(text, "main", idx, table)
    np.testing.assert_array_equal(_bits(before), _bits(want))
    lowered = apply(PTOLowerPass(), parse(text))
    assert not find_leftovers(lowered)
    assert any(o.name == "pto.block" for o in lowered.walk())
    (got,) = run(lowered, "main", idx, table)
    np.testing.assert_array_equal(_bits(got), _bits(want))
    tile = apply(PTOLowerPass(level="tile"), parse(text))
    assert any(o.name == "pto.tgather" for o in tile.walk())


def test_a_bad_index_faults_and_a_large_table_needs_mgather():
    from pto_dialect.faults import PTOFault

    text = gather_program(32, 16, 8)
    lowered = apply(PTOLowerPass(), parse(text))
    table = _data((32, 16))
    idx = np.array([0, 1, 2, 3, 32, 5, 6, 7], np.int64)  # 32: past the table
    with pytest.raises(PTOFault):
        run(lowered, "main", idx, table)
    big = gather_program(2048, 16, 8)  # 128 KiB: more than one tile
    (left,) = find_leftovers(apply(PTOLowerPass(), parse(big)))
    assert "needs MGATHER" in left.reason


def topk_program(m: int, n: int, elt: str = "f32", pred: str = "oge", use_indices: bool = False) -> str:
    ret_t = f"tensor<{m}x{n}x{elt}>" + (f", tensor<{m}x{n}xi64>" if use_indices else "")
    ret_v = "%s#0" + (", %s#1" if use_indices else "")
    return f"""func.func @main(%v: tensor<{m}x{n}x{elt}>) -> ({ret_t}) {{
  %e = tensor.empty() : tensor<{m}x{n}xi64>
  %iota = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}} outs(%e : tensor<{m}x{n}xi64>) {{
  ^bb0(%out: i64):
    %j = linalg.index 1 : index
    %c = arith.index_cast %j : index to i64
    linalg.yield %c : i64
  }} -> tensor<{m}x{n}xi64>
  %s:2 = tm_tensor.sort dimension(1) outs(%v, %iota : tensor<{m}x{n}x{elt}>, tensor<{m}x{n}xi64>) {{
  ^bb0(%a: {elt}, %b: {elt}, %ia: i64, %ib: i64):
    %c = arith.cmpf {pred}, %a, %b : {elt}
    tm_tensor.yield %c : i1
  }} -> tensor<{m}x{n}x{elt}>, tensor<{m}x{n}xi64>
  return {ret_v} : {ret_t}
}}
"""


@pytest.mark.parametrize(("m", "n", "elt", "pred"), [(4, 16, "f32", "oge"), (5, 64, "f16", "ole"),
                                                     (3, 7, "f32", "ole")])  # fmt: skip
def test_topk_sort_lowers_to_tsort(m, n, elt, pred):
    dt = np.float16 if elt == "f16" else np.float32
    rng = np.random.default_rng(n)
    x = rng.integers(-3, 4, (m, n)).astype(dt)  # many ties
    x[0, :2] = [-0.0, 0.0]  # -0 and +0 tie: they keep their order
    order = np.argsort(-x if pred == "oge" else x, axis=1, kind="stable")
    want = np.take_along_axis(x, order, axis=1)  # numpy's stable sort: the reference
    text = topk_program(m, n, elt, pred)
    (before,) = run(text, "main", x)
    np.testing.assert_array_equal(_bits(before), _bits(want))
    lowered = apply(PTOLowerPass(), parse(text))
    assert not find_leftovers(lowered)
    (got,) = run(lowered, "main", x)
    np.testing.assert_array_equal(_bits(got), _bits(want))


def test_topk_with_used_indices_stays_with_the_reason():
    m = apply(PTOLowerPass(), parse(topk_program(4, 16, use_indices=True)))
    reasons = [x.reason for x in find_leftovers(m)]
    assert any("indices unused" in r for r in reasons), reasons


_PRED_OF = {"slt": lambda x, k: x < k, "sle": lambda x, k: x <= k, "sgt": lambda x, k: x > k,
            "sge": lambda x, k: x >= k, "eq": lambda x, k: x == k, "ne": lambda x, k: x != k,
            "ult": lambda x, k: x % 2**64 < k % 2**64, "ule": lambda x, k: x % 2**64 <= k % 2**64,
            "ugt": lambda x, k: x % 2**64 > k % 2**64, "uge": lambda x, k: x % 2**64 >= k % 2**64}  # fmt: skip
"""cmpi on i64 values, as Python scalars (the independent reference of BOUND_CHECKS)."""

TORCH_GUARDS = (("slt", "cast", 8), ("sge", "arg", 0))
"""torch-mlir's guards of GatherElements (against 8 columns): index < 8, index >= 0."""


def column_gather_program(m: int, c: int, n: int, elt: str = "f32", ids: str = "i64",
                          guards=(("slt", "cast", None), ("sge", "arg", 0))) -> str:  # fmt: skip
    """``out[i, j] = table[i, ids[i, j]]`` guarded by ``cf.assert (cmpi <pred> x, k)`` (x the
    index as ``index`` or the block argument; k None: the column count)."""
    lines = []
    for g, (pred, on, k) in enumerate(guards):
        k = c if k is None else k
        ty = "index" if on == "cast" else ids
        x = "%c" if on == "cast" else "%in"
        lines += [f"    %k{g} = arith.constant {k} : {ty}", f"    %b{g} = arith.cmpi {pred}, {x}, %k{g} : {ty}",
                  f'    cf.assert %b{g}, "guard {g}"']  # fmt: skip
    body = "\n".join(lines)
    return f"""func.func @main(%table: tensor<{m}x{c}x{elt}>, %ids: tensor<{m}x{n}x{ids}>) -> tensor<{m}x{n}x{elt}> {{
  %e = tensor.empty() : tensor<{m}x{n}x{elt}>
  %g = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%ids : tensor<{m}x{n}x{ids}>) outs(%e : tensor<{m}x{n}x{elt}>) {{
  ^bb0(%in: {ids}, %out: {elt}):
    %i = linalg.index 0 : index
    %c = arith.index_cast %in : {ids} to index
{body}
    %x = tensor.extract %table[%i, %c] : tensor<{m}x{c}x{elt}>
    linalg.yield %x : {elt}
  }} -> tensor<{m}x{n}x{elt}>
  return %g : tensor<{m}x{n}x{elt}>
}}
"""


@pytest.mark.parametrize(("m", "c", "n", "elt", "ids", "guards"), [
    (4, 8, 1, "f32", "i64", (("slt", "cast", None), ("sge", "arg", 0))),
    (6, 16, 3, "f16", "i32", ()),
    (5, 12, 4, "i32", "i64", (("ult", "arg", None), ("sgt", "cast", -1), ("ne", "arg", -100))),
])  # fmt: skip
def test_column_gather_lowers_through_transposes_and_copies_elements(m, c, n, elt, ids, guards):
    dt = {"f32": np.float32, "f16": np.float16, "i32": np.int32}[elt]
    table = _data((m, c), dt)
    idx = np.random.default_rng(m).integers(0, c, (m, n)).astype({"i64": np.int64, "i32": np.int32}[ids])
    text = column_gather_program(m, c, n, elt, ids, guards)
    want = np.take_along_axis(table, idx.astype(np.int64), axis=1)  # the independent reference
    (before,) = run(text, "main", table, idx)
    np.testing.assert_array_equal(_bits(before), _bits(want))
    lowered = apply(PTOLowerPass(), parse(text))
    assert not find_leftovers(lowered)
    (got,) = run(lowered, "main", table, idx)
    np.testing.assert_array_equal(_bits(got), _bits(want))
    tile = apply(PTOLowerPass(level="tile"), parse(text))
    names = {o.name for o in tile.walk()}
    assert {"pto.tgather", "pto.ttrans"} <= names and "cf.assert" not in names


@pytest.mark.parametrize("bad", [8, -1, 100])
def test_column_gather_faults_where_the_guards_fail(bad):
    from pto_dialect.faults import PTOFault

    text = column_gather_program(4, 8, 1)
    table = _data((4, 8))
    idx = np.array([[0], [7], [bad], [3]], np.int64)
    with pytest.raises(Exception, match="guard"):  # the input's assertion fires
        run(text, "main", table, idx)
    lowered = apply(PTOLowerPass(), parse(text))
    with pytest.raises(PTOFault):  # and the lowered program faults (TGATHER's bounds)
        run(lowered, "main", table, idx)


def test_a_guard_not_implied_by_the_bounds_keeps_the_gather():
    # index < 5 of 8 columns can fail on index 6, in bounds, where TGATHER would not fault
    for guards in ((("slt", "cast", 5),), (("sge", "arg", 1),), (("eq", "arg", 0),)):
        (left,) = find_leftovers(apply(PTOLowerPass(), parse(column_gather_program(4, 8, 1, guards=guards))))
        assert left.op.name == "linalg.generic"


@pytest.mark.parametrize("pred", sorted(BOUND_CHECKS))
def test_bound_check_rows_against_brute_force(pred):
    # a row says "the asserted set holds every in-bounds index": check it on every k near c
    # (sound for every k; exact for k >= 0, where the width of an unsigned compare is moot)
    for c in (1, 2, 8):
        for k in range(-3, c + 3):
            holds = all(_PRED_OF[pred](x, k) for x in range(c))
            assert holds or not BOUND_CHECKS[pred](k, c), (pred, k, c)
            assert k < 0 or BOUND_CHECKS[pred](k, c) == holds, (pred, k, c)
    for pred, swapped in SWAPPED.items():  # k <pred> x is x <swapped> k
        assert all(_PRED_OF[pred](k, x) == _PRED_OF[swapped](x, k) for k in range(-3, 4) for x in range(-3, 4))
