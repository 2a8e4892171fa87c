"""Reductions, broadcasts, matmul epilogues and transposes lower exactly (issue 10, D18).

Each program runs unlowered (the upstream interpreter), after ``pto-lower{level=tile}`` and
as blocks; results are compared bit for bit with each other and with an independent
reference written with Python scalars (a sequential ``np.float32`` fold, a hand-written
NaN/signed-zero maximum, integer arithmetic modulo 2^32). Refused forms keep their op and
say why (D19).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from interpreter.ssa.runner import build_context, parse_module_text, run
from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass
from passes.lowering.explain import explain
from passes.lowering.leftovers import find_leftovers
from passes.lowering.reductions import MAX_SLICES
from passes.pto_lower import PTOLowerPass

ROW = "affine_map<(d0, d1) -> (d0, d1)>"


def _lower(text: str, level: str):
    m = parse_module_text(text)
    PTOLowerPass(level=level).apply(build_context(), m)
    m.verify()
    return m


def _bits_equal(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        both_nan = np.isnan(a) & np.isnan(b)
        ua = a.view(f"u{a.dtype.itemsize}")
        ub = b.view(f"u{b.dtype.itemsize}")
        return bool(np.all(both_nan | (ua == ub)))
    return bool(np.array_equal(a, b))


def _check_all_levels(text: str, inputs, want=None, names=()):
    """Runs unlowered, tile, blocks; all bit-equal (and equal to ``want``); complete."""
    (before,) = run(text, "main", *inputs)
    tile = _lower(text, "tile")
    ir = str(tile)
    for n in names:
        assert n in ir, (n, ir)
    (got_tile,) = run(tile, "main", *inputs)
    blocks = _lower(text, "block")
    (got_blocks,) = run(blocks, "main", *inputs)
    assert not find_leftovers(blocks), [x.diagnostic() for x in find_leftovers(blocks)]
    assert _bits_equal(before, got_tile) and _bits_equal(before, got_blocks)
    if want is not None:
        assert _bits_equal(np.asarray(want, dtype=np.asarray(before).dtype).reshape(np.shape(before)), before)
    return before


def _reduce_prog(shape, out_shape, out_map, iters, body, elt, init, in_elt=None):
    in_elt = in_elt or elt
    n = len(shape)
    dims = ", ".join(f"d{i}" for i in range(n))
    t_in = f"tensor<{'x'.join(map(str, shape))}x{in_elt}>"
    t_out = f"tensor<{'x'.join(map(str, out_shape))}x{elt}>" if out_shape else f"tensor<{elt}>"
    its = ", ".join(f'"{i}"' for i in iters)
    return f"""
func.func @main(%x: {t_in}) -> {t_out} {{
  %c = arith.constant {init} : {elt}
  %e = tensor.empty() : {t_out}
  %z = linalg.fill ins(%c : {elt}) outs(%e : {t_out}) -> {t_out}
  %r = linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({dims})>, affine_map<({dims}) -> ({out_map})>],
                       iterator_types = [{its}]}} ins(%x : {t_in}) outs(%z : {t_out}) {{
  ^bb0(%in: {elt}, %out: {elt}):
    %s = {body} %in, %out : {elt}
    linalg.yield %s : {elt}
  }} -> {t_out}
  func.return %r : {t_out}
}}
"""


def _seq_sum_f32(line) -> np.float32:
    acc = np.float32(0.0)
    for v in line:
        acc = np.float32(acc + np.float32(v))
    return acc


def _spread_f32(rng, shape):
    """Values of very different magnitudes: the sum depends on the order."""
    mag = 2.0 ** rng.integers(-20, 20, size=shape)
    return (rng.standard_normal(shape) * mag).astype(np.float32)


def test_row_sum_f32_is_the_sequential_fold():
    rng = np.random.default_rng(1)
    x = _spread_f32(rng, (6, 37))
    text = _reduce_prog((6, 37), (6, 1), "d0, 0", ("parallel", "reduction"), "arith.addf", "f32", "0.0")
    want = [_seq_sum_f32(row) for row in x]
    _check_all_levels(text, [x], want, names=("pto.trowsum",))


def test_column_sum_f32_dropped_dims_is_the_sequential_fold():
    rng = np.random.default_rng(2)
    x = _spread_f32(rng, (9, 12))
    text = _reduce_prog((9, 12), (12,), "d1", ("reduction", "parallel"), "arith.addf", "f32", "0.0")
    want = [_seq_sum_f32(x[:, j]) for j in range(12)]
    _check_all_levels(text, [x], want, names=("pto.tcolsum",))


def test_trailing_dims_of_a_3d_tensor_are_one_row_each():
    rng = np.random.default_rng(3)
    x = _spread_f32(rng, (2, 3, 8))
    text = _reduce_prog((2, 3, 8), (2, 3), "d0, d1", ("parallel", "parallel", "reduction"),
                        "arith.addf", "f32", "0.0")  # fmt: skip
    want = [_seq_sum_f32(x[i, j]) for i in range(2) for j in range(3)]
    _check_all_levels(text, [x], want, names=("pto.trowsum",))


def test_full_reduction_is_one_row_in_iteration_order():
    rng = np.random.default_rng(4)
    x = _spread_f32(rng, (4, 5))
    text = _reduce_prog((4, 5), (), "", ("reduction", "reduction"), "arith.addf", "f32", "0.0")
    _check_all_levels(text, [x], [_seq_sum_f32(x.reshape(-1))], names=("pto.trowsum",))


def test_middle_dims_are_one_column_fold_per_slice():
    rng = np.random.default_rng(9)
    x = _spread_f32(rng, (3, 4, 2, 5))
    text = _reduce_prog((3, 4, 2, 5), (3, 5), "d0, d3",
                        ("parallel", "reduction", "reduction", "parallel"), "arith.addf", "f32", "0.0")  # fmt: skip
    want = [_seq_sum_f32(x[i, :, :, j].reshape(-1)) for i in range(3) for j in range(5)]
    _check_all_levels(text, [x], want, names=("pto.tcolsum",))


def test_integer_column_sum_wraps():
    rng = np.random.default_rng(5)
    x = rng.integers(-(2**31), 2**31, size=(5, 7), dtype=np.int64).astype(np.int32)
    text = _reduce_prog((5, 7), (1, 7), "0, d1", ("reduction", "parallel"), "arith.addi", "i32", "0")
    want = [((sum(int(v) for v in x[:, j]) + 2**31) % 2**32) - 2**31 for j in range(7)]
    _check_all_levels(text, [x], want, names=("pto.tcolsum",))


def _ref_maximum(line) -> float:
    """MLIR maximumf fold from -inf: NaN if any NaN, else the maximum with -0 < +0."""
    vals = [float(v) for v in line]
    if any(math.isnan(v) for v in vals):
        return math.nan
    return max(vals, key=lambda v: (v, math.copysign(1.0, v)), default=-math.inf)


def test_maximumf_propagates_nan_and_orders_zeros():
    inf, nan = np.inf, np.nan
    x = np.array(
        [
            [1.0, nan, 3.0, -2.0],
            [-0.0, 0.0, -0.0, -1.0],
            [-0.0, -0.0, -5.0, -inf],
            [-inf, -inf, -inf, -inf],
            [nan, nan, nan, nan],
            [inf, nan, -inf, 2.0],
            [2.5, inf, -7.0, 0.0],
        ],
        np.float32,
    )
    text = _reduce_prog((7, 4), (7, 1), "d0, 0", ("parallel", "reduction"), "arith.maximumf",
                        "f32", "0xFF800000")  # fmt: skip
    want = [_ref_maximum(r) for r in x]
    got = _check_all_levels(text, [x], want, names=("pto.trowmax", "pto.trowprod"))
    assert math.copysign(1.0, float(np.asarray(got)[1, 0])) > 0  # max(-0, +0) = +0
    assert math.copysign(1.0, float(np.asarray(got)[2, 0])) < 0  # all -0 and negatives: -0


def test_minnumf_with_an_init_is_one_tmins_after_the_fold():
    x = np.array([[3.0, 1.5, 2.0], [0.25, 9.0, 0.75], [np.nan, 4.0, 5.0]], np.float32)
    text = _reduce_prog((3, 3), (3,), "d0", ("parallel", "reduction"), "arith.minnumf", "f32", "1.0")
    want = [min(1.0, *(v for v in map(float, r) if not math.isnan(v))) for r in x]
    _check_all_levels(text, [x], want, names=("pto.trowmin", "pto.tmins"))


def test_maxnumf_of_an_all_nan_line_is_the_init():
    """maxnumf(NaN, -inf) = -inf: the -inf init takes part (TMAXS after TROWMAX)."""
    x = np.array([[np.nan, np.nan], [1.0, np.nan], [-0.0, 0.0]], np.float32)
    text = _reduce_prog((3, 2), (3,), "d0", ("parallel", "reduction"), "arith.maxnumf", "f32",
                        "0xFF800000")  # fmt: skip
    got = _check_all_levels(text, [x], [-math.inf, 1.0, 0.0], names=("pto.trowmax", "pto.tmaxs"))
    assert not np.signbit(np.asarray(got)[2])


def test_signed_max_with_an_init_on_i16():
    x = np.array([[-5, -9, -3], [100, -200, 7]], np.int16)
    text = _reduce_prog((2, 3), (2,), "d0", ("parallel", "reduction"), "arith.maxsi", "i16", "-4")
    _check_all_levels(text, [x], [max(-4, *map(int, r)) for r in x], names=("pto.trowmax", "pto.tmaxs"))


def test_integer_sum_from_an_init_adds_it_after_the_fold():
    x = np.array([[2**31 - 1, 5, 7], [-3, -4, 9]], np.int32)
    text = _reduce_prog((2, 3), (2,), "d0", ("parallel", "reduction"), "arith.addi", "i32", "100")
    want = [((100 + sum(map(int, r)) + 2**31) % 2**32) - 2**31 for r in x]
    _check_all_levels(text, [x], want, names=("pto.trowsum", "pto.tadds"))


def test_integer_product_from_an_init_multiplies_after_the_fold():
    x = np.array([[3, -5], [7, 11], [1 << 20, 1 << 15]], np.int32)
    text = _reduce_prog((3, 2), (1, 2), "0, d1", ("reduction", "parallel"), "arith.muli", "i32", "-3")
    want = []
    for j in range(2):
        p = -3
        for i in range(3):
            p *= int(x[i, j])
        want.append(((p + 2**31) % 2**32) - 2**31)
    _check_all_levels(text, [x], want, names=("pto.tcolprod", "pto.tmuls"))


@pytest.mark.parametrize(
    "shape,out_shape,out_map,iters,body,elt,init,why",
    [
        ((4, 8), (4, 1), "d0, 0", ("parallel", "reduction"), "arith.addf", "f32", "1.0",
         "a float sum from init 1.0"),
        ((4, 8), (4, 1), "d0, 0", ("parallel", "reduction"), "arith.addf", "f32", "-0.0",
         "a float sum from init -0.0"),
        ((4, 8), (4, 1), "d0, 0", ("parallel", "reduction"), "arith.mulf", "f32", "2.0",
         "a float product from init 2.0"),
        ((2, 3, 4, 5), (3, 5), "d1, d3", ("reduction", "parallel", "reduction", "parallel"),
         "arith.addi", "i32", "0", "not contiguous"),
        ((65, 2, 3), (65, 3), "d0, d2", ("parallel", "reduction", "parallel"), "arith.addi", "i32",
         "0", "65 slices"),
        ((4, 8), (4, 1), "d0, 0", ("parallel", "reduction"), "arith.subf", "f32", "0.0",
         "is not a TROW*/TCOL* fold"),
    ],
)  # fmt: skip
def test_inexact_reductions_stay_with_a_reason(shape, out_shape, out_map, iters, body, elt, init, why):
    text = _reduce_prog(shape, out_shape, out_map, iters, body, elt, init)
    m = _lower(text, "tile")
    left = [x for x in find_leftovers(m) if x.op.name == "linalg.generic"]
    assert len(left) == 1
    assert why in explain(left[0].op), explain(left[0].op)


# -- broadcasts --------------------------------------------------------------------------


def _bcast_prog(body: str, bmap: str, bshape: str, swap: bool = False) -> str:
    ins = "%b, %x" if swap else "%x, %b"
    types = f"tensor<{bshape}xf32>, tensor<4x6xf32>" if swap else f"tensor<4x6xf32>, tensor<{bshape}xf32>"
    maps = f"affine_map<(d0, d1) -> ({bmap})>, {ROW}" if swap else f"{ROW}, affine_map<(d0, d1) -> ({bmap})>"
    return f"""
func.func @main(%x: tensor<4x6xf32>, %b: tensor<{bshape}xf32>) -> tensor<4x6xf32> {{
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {{indexing_maps = [{maps}, {ROW}], iterator_types = ["parallel", "parallel"]}}
      ins({ins} : {types}) outs(%e : tensor<4x6xf32>) {{
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = {body} %p, %q : f32
    linalg.yield %s : f32
  }} -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}}
"""


@pytest.mark.parametrize(
    "body,bmap,bshape,swap,name,ref",
    [
        ("arith.subf", "d0, 0", "4x1", False, "pto.trowexpandsub", lambda x, b: x - b.reshape(4, 1)),
        ("arith.divf", "d0", "4", False, "pto.trowexpanddiv", lambda x, b: x / b.reshape(4, 1)),
        ("arith.mulf", "d1", "6", True, "pto.tcolexpandmul", lambda x, b: b.reshape(1, 6) * x),
        ("arith.addf", "0, d1", "1x6", False, "pto.tcolexpandadd", lambda x, b: x + b.reshape(1, 6)),
    ],
)  # fmt: skip
def test_broadcast_binary_is_an_expand_op(body, bmap, bshape, swap, name, ref):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((4, 6)).astype(np.float32)
    x[0, 0] = -0.0
    b = rng.standard_normal(tuple(int(d) for d in bshape.split("x"))).astype(np.float32)
    args = [x, b]
    _check_all_levels(_bcast_prog(body, bmap, bshape, swap), args, ref(x, b), names=(name,))


def test_broadcast_as_the_first_operand_of_sub_is_an_expand_then_tsub():
    """``b - x`` is not TROWEXPANDSUB (that computes ``x - b``, and ``-(x - b)`` differs on
    zeros, D18): the expression-tree lowering broadcasts ``b`` (TROWEXPAND) and subtracts."""
    text = _bcast_prog("arith.subf", "d0, 0", "4x1", swap=True)
    x = np.array([[0.0, -0.0, 1.5, -2.0, np.inf, np.nan]] * 4, dtype=np.float32)
    b = np.array([[0.0], [-0.0], [3.0], [np.inf]], dtype=np.float32)
    want = [float(np.float32(bb)) - float(xx) for bb, row in zip(b[:, 0], x) for xx in row]
    ir = str(_lower(text, "tile"))
    assert "pto.trowexpandsub" not in ir and "pto.tsub" in ir, ir
    _check_all_levels(text, [x, b], want)


def test_exp_of_a_row_difference_is_expdif():
    text = f"""
func.func @main(%x: tensor<3x5xf32>, %m: tensor<3x1xf32>) -> tensor<3x5xf32> {{
  %e = tensor.empty() : tensor<3x5xf32>
  %d = linalg.generic {{indexing_maps = [{ROW}, affine_map<(d0, d1) -> (d0, 0)>, {ROW}],
      iterator_types = ["parallel", "parallel"]}} ins(%x, %m : tensor<3x5xf32>, tensor<3x1xf32>)
      outs(%e : tensor<3x5xf32>) {{
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.subf %p, %q : f32
    linalg.yield %s : f32
  }} -> tensor<3x5xf32>
  %y = linalg.generic {{indexing_maps = [{ROW}, {ROW}], iterator_types = ["parallel", "parallel"]}}
      ins(%d : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {{
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  }} -> tensor<3x5xf32>
  func.return %y : tensor<3x5xf32>
}}
"""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 5)).astype(np.float32)
    m = x.max(axis=1, keepdims=True)
    want = [np.float32(math.exp(float(np.float32(a - b)))) for a, b in zip(x.reshape(-1), np.repeat(m, 5))]
    _check_all_levels(text, [x, m], want, names=("pto.trowexpandexpdif",))


# -- matmul epilogues and transposes -------------------------------------------------------


def _gemm(relu: str, trans: bool) -> str:
    w_t = "tensor<8x24xf32>" if trans else "tensor<24x8xf32>"
    wt = (
        "%we = tensor.empty() : tensor<24x8xf32>\n"
        "  %w2 = linalg.transpose ins(%w : tensor<8x24xf32>) outs(%we : tensor<24x8xf32>) permutation = [1, 0]"
        if trans else "%w2 = arith.addf %zero, %zero : f32"  # unused filler
    )  # fmt: skip
    wv = "%w2" if trans else "%w"
    return f"""
func.func @main(%a: tensor<5x24xf32>, %w: {w_t}, %bias: tensor<8xf32>) -> tensor<5x8xf32> {{
  %zero = arith.constant 0.0 : f32
  {wt}
  %e = tensor.empty() : tensor<5x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5x8xf32>) -> tensor<5x8xf32>
  %mm = linalg.matmul ins(%a, {wv} : tensor<5x24xf32>, tensor<24x8xf32>) outs(%z : tensor<5x8xf32>) -> tensor<5x8xf32>
  %s = linalg.generic {{indexing_maps = [{ROW}, affine_map<(d0, d1) -> (d1)>, {ROW}],
      iterator_types = ["parallel", "parallel"]}} ins(%mm, %bias : tensor<5x8xf32>, tensor<8xf32>)
      outs(%e : tensor<5x8xf32>) {{
  ^bb0(%p: f32, %q: f32, %o: f32):
    %t = arith.addf %p, %q : f32
    linalg.yield %t : f32
  }} -> tensor<5x8xf32>
  %r = linalg.generic {{indexing_maps = [{ROW}, {ROW}], iterator_types = ["parallel", "parallel"]}}
      ins(%s : tensor<5x8xf32>) outs(%e : tensor<5x8xf32>) {{
  ^bb0(%p: f32, %o: f32):
    {relu}
  }} -> tensor<5x8xf32>
  func.return %r : tensor<5x8xf32>
}}
"""


RELU_FORMS = {
    "maximumf": "%m = arith.maximumf %p, %zero : f32\n    linalg.yield %m : f32",
    "ugt-select": "%c = arith.cmpf ugt, %p, %zero : f32\n    %m = arith.select %c, %p, %zero : f32\n"
                  "    linalg.yield %m : f32",
    "ole-select": "%c = arith.cmpf ole, %p, %zero : f32\n    %m = arith.select %c, %zero, %p : f32\n"
                  "    linalg.yield %m : f32",
}  # fmt: skip


@pytest.mark.parametrize("form", sorted(RELU_FORMS))
@pytest.mark.parametrize("trans", [False, True])
def test_matmul_bias_relu_fold_and_transposed_weight(form, trans):
    """Small integer values: every sum is exact, so the result is bit-exact whatever the
    order; the reference is plain Python integers."""
    rng = np.random.default_rng(8)
    a = rng.integers(-4, 5, size=(5, 24)).astype(np.float32)
    w = rng.integers(-4, 5, size=(8, 24) if trans else (24, 8)).astype(np.float32)
    bias = rng.integers(-30, 30, size=8).astype(np.float32)
    wk = w.T if trans else w
    want = [
        max(0.0, float(sum(int(a[i, k]) * int(wk[k, j]) for k in range(24)) + int(bias[j])))
        for i in range(5) for j in range(8)
    ]
    names = ("pto.tmatmul_bias",) + (("pto.ttrans",) if trans else ())
    got = _check_all_levels(_gemm(RELU_FORMS[form], trans), [a, w, bias], want, names=names)
    assert not np.signbit(np.asarray(got)[np.asarray(got) == 0]).any()  # ReLU gives +0
    tile = str(_lower(_gemm(RELU_FORMS[form], trans), "tile"))
    assert "relu_mode = 1" in tile


def test_ogt_select_is_not_relu():
    """``select(x > 0, x, 0)`` maps NaN to 0: not ReluMode, not TRELU; a compare and a select
    (TCMPS + TSELS) after the matmul."""
    text = _gemm("%c = arith.cmpf ogt, %p, %zero : f32\n    %m = arith.select %c, %p, %zero : f32\n"
                 "    linalg.yield %m : f32", False)  # fmt: skip
    m = _lower(text, "tile")
    assert not find_leftovers(m)
    tile = str(m)
    assert "relu_mode = 1" not in tile and "pto.trelu" not in tile
    assert "pto.tcmps" in tile and "pto.tsels" in tile


def test_transpose_is_a_bit_copy():
    text = """
func.func @main(%x: tensor<7x19xi16>) -> tensor<19x7xi16> {
  %e = tensor.empty() : tensor<19x7xi16>
  %t = linalg.transpose ins(%x : tensor<7x19xi16>) outs(%e : tensor<19x7xi16>) permutation = [1, 0]
  func.return %t : tensor<19x7xi16>
}
"""
    x = np.arange(7 * 19, dtype=np.int16).reshape(7, 19) * np.int16(-3)
    want = [int(x[i, j]) for j in range(19) for i in range(7)]
    _check_all_levels(text, [x], want, names=("pto.ttrans",))


def test_batched_transpose_feeds_a_batched_matmul():
    """``Q @ K^T`` per batch: ``[0, 2, 1]`` transposes per batch, then the batch loop of
    matmuls; small integers make every sum exact (reference: Python integers)."""
    text = """
func.func @main(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>) -> tensor<2x3x5xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<2x8x5xf32>
  %kt = linalg.transpose ins(%k : tensor<2x5x8xf32>) outs(%et : tensor<2x8x5xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<2x3x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %r = linalg.batch_matmul ins(%q, %kt : tensor<2x3x8xf32>, tensor<2x8x5xf32>) outs(%z : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  func.return %r : tensor<2x3x5xf32>
}
"""
    rng = np.random.default_rng(10)
    q = rng.integers(-3, 4, size=(2, 3, 8)).astype(np.float32)
    k = rng.integers(-3, 4, size=(2, 5, 8)).astype(np.float32)
    want = [sum(int(q[b, i, c]) * int(k[b, j, c]) for c in range(8))
            for b in range(2) for i in range(3) for j in range(5)]  # fmt: skip
    _check_all_levels(text, [q, k], want, names=("pto.ttrans", "pto.tmatmul"))


@pytest.mark.parametrize(("body", "init", "lo", "hi"), [
    ("arith.maxsi", "-32768", -(2**15), 2**15 - 1), ("arith.minsi", "32767", -(2**15), 2**15 - 1),
    ("arith.maxui", "0", 0, 2**16 - 1), ("arith.minui", "-1", 0, 2**16 - 1),
    ("arith.minui", "65535", 0, 2**16 - 1),
])  # fmt: skip
def test_integer_max_min_from_their_identity_take_no_scalar_step(body, init, lo, hi):
    """An init that is the fold's identity (INT_MIN / INT_MAX, 0 / UINT_MAX as its 16-bit
    word: a signless -1 is minui's identity) adds no TMAXS / TMINS; the values at the type's
    ends are exact. Mutation seed 4304: ``reductions.py:276`` (the identities' constants);
    before, minui from -1 took a redundant TMINS."""
    unsigned = body.endswith("ui")
    vals = [[lo, hi, 7], [hi, lo, lo], [5, 5, hi]]
    x = np.array(vals, np.uint16 if unsigned else np.int16).view(np.int16)
    text = _reduce_prog((3, 3), (3,), "d0", ("parallel", "reduction"), body, "i16", init)
    fold = max if body.startswith("arith.max") else min
    want = np.array([fold(r) for r in vals], np.uint16 if unsigned else np.int16).view(np.int16)
    _check_all_levels(text, [x], want)
    ir = str(_lower(text, "tile"))
    assert "pto.tmaxs" not in ir and "pto.tmins" not in ir, ir


def test_signed_max_from_a_negative_i64_init():
    """A negative i64 init is the scalar word -5 (the i64 two's complement of 2^64 - 5).
    Mutation seed 4304: ``reductions.py:344`` (the i64 word of RewriteBuilder.scalar)."""
    x = np.array([[-9, -7, -6], [3, -100, 2**62]], np.int64)
    text = _reduce_prog((2, 3), (2,), "d0", ("parallel", "reduction"), "arith.maxsi", "i64", "-5")
    _check_all_levels(text, [x], [-5, 2**62], names=("pto.trowmax", "pto.tmaxs"))


@pytest.mark.parametrize("batches", [MAX_SLICES, MAX_SLICES + 1])
def test_middle_dims_slices_at_the_limit(batches):
    """A reduction of middle dimensions unrolls into one TCOL* per leading slice: exactly
    MAX_SLICES slices lower (and sum as the sequential fold), one more stays with the reason.
    Mutation seed 4304: ``reductions.py:219 cmp Gt->GtE``."""
    text = _reduce_prog((batches, 3, 2), (batches, 2), "d0, d2",
                        ("parallel", "reduction", "parallel"), "arith.addf", "f32", "0.0")  # fmt: skip
    m = parse_module_text(text)
    ConvertLinalgToPtoPass().apply(build_context(), m)
    ir = str(m)
    if batches <= MAX_SLICES:
        assert "linalg.generic" not in ir and "pto.reduce colsum" in ir
        x = np.arange(batches * 6, dtype=np.float32).reshape(batches, 3, 2)
        (got,) = run(m, "main", x)
        assert np.array_equal(np.asarray(got), x.sum(axis=1))
    else:
        assert "linalg.generic" in ir and "pto.reduce" not in ir
