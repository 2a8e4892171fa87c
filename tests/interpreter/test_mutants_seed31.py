"""Tests that kill the seed-31 kernel mutants of ``scripts/mutate.py`` (issue 27), each
against a hand-derived value."""

import numpy as np

from interpreter.kernels import convert as cv
from interpreter.kernels import status as st
from pto_dialect.datatypes import TileDataType as T

FLT_MAX = float(np.finfo(np.float32).max)


def test_dequantize_to_exactly_fp32_max_is_finite():
    """(q - zp) * scale = 1 * FLT_MAX is FP32's largest finite value: no rounding, no
    overflow, so the result is FLT_MAX itself, not +inf (and -FLT_MAX for q - zp = -1)."""
    q = np.array([[1, -1, 0]], np.int8)
    r = cv.dequantize_values(q, FLT_MAX, 0, cv.RNE)
    assert r.dtype == np.float32
    assert r.tolist() == [[FLT_MAX, -FLT_MAX, 0.0]]
    assert st.dequantize_flags(q, FLT_MAX, 0, r) == 0


def test_fp64_fma_by_one_with_a_huge_operand_is_exact():
    """x * 1 + 0 = x exactly for x = 2^1000 (1 + 2^-52): no flag. Veltkamp's split of x
    overflows (x * (2^27 + 1) > 2^1024), so the lane must take the rational path; a product
    with the factor 1 is not exempt from it."""
    x = np.array([2.0**1000 * (1 + 2.0**-52), -(2.0**1020)])
    one = np.ones(2)
    zero = np.zeros(2)
    with np.errstate(all="ignore"):
        r = x * one + zero
    assert r.tolist() == x.tolist()
    assert st.fma_flags(x, one, zero, r, T.FP64) == 0
    # the same lanes with the huge operand second
    assert st.fma_flags(one, x, zero, r, T.FP64) == 0


def test_dense_row_stride_of_packed_four_bit_rows_rounds_up():
    """TileDenseRowStrideBytes: two 4-bit elements per byte, ceil(cols / 2) bytes a row
    (3 -> 2, 4 -> 2, 1 -> 1); other types cols * carrier bytes."""
    from pto_dialect.data_movement import dense_row_stride_bytes

    for t in (T.S4X2, T.U4X2):
        assert [dense_row_stride_bytes(c, t) for c in (1, 2, 3, 4, 7)] == [1, 1, 2, 2, 4]
    assert dense_row_stride_bytes(3, T.FP16) == 6
    assert dense_row_stride_bytes(16, T.FP32) == 64


def test_generated_elementwise_op_classes_are_named_after_their_mnemonic():
    """The table-made op classes carry the hand-written classes' names (TAbsOp for TABS,
    TAddsOp for TADDS): what tracebacks, reprs and the API docs show."""
    from pto_dialect.elementwise_ops import TILE_SCALAR_OPS, UNARY_OPS

    names = {c.name: c.__name__ for c in (*TILE_SCALAR_OPS, *UNARY_OPS)}
    assert names["pto.tabs"] == "TAbsOp" and names["pto.tnot"] == "TNotOp"
    assert names["pto.tadds"] == "TAddsOp" and names["pto.tshrs"] == "TShrsOp"
    assert all(n == "T" + c.MNEMONIC[1:].capitalize() + "Op" for c in (*TILE_SCALAR_OPS, *UNARY_OPS)
               for n in [c.__name__])


def test_fp64_fma_of_a_product_minus_its_rounding_is_exact():
    """x = 1 + 2^-52, y = 1 + 2^-51: x * y = 1 + 3 * 2^-52 + 2^-103 rounds (RNE) to
    p = 1 + 3 * 2^-52, so x * y - p = 2^-103 exactly: an exact FMA, no flag (IEEE raises NX
    only for a rounded result). The same scaled by 2^900 * 2^58 (product exponent 960,
    the bound of the rational lanes) gives 2^855, also exact; x * y + 0 = p is inexact."""
    for sx, sy in ((1.0, 1.0), (2.0**900, 2.0**58)):
        x = np.array([(1 + 2.0**-52) * sx])
        y = np.array([(1 + 2.0**-51) * sy])
        p = np.array([(1 + 3 * 2.0**-52) * sx * sy])
        assert (x * y).tolist() == p.tolist()
        exact = np.array([2.0**-103 * sx * sy])
        assert st.fma_flags(x, y, -p, exact, T.FP64) == 0
        assert st.fma_flags(y, x, -p, exact, T.FP64) == 0
        assert st.fma_flags(x, y, 0 * p, p, T.FP64) == st.NX  # x * y + 0 rounds to p


def test_max_min_of_finite_floats_raise_no_flag():
    """TMAX / TMIN of finite values (zeros of both signs included) are exact and never
    invalid: no flag; a signalling NaN operand raises NV (quiet NaNs do not)."""
    a = np.array([[1.5, -0.0, 3.0e38, -7.25]], np.float32)
    b = np.array([[2.0, 0.0, -3.0e38, -7.25]], np.float32)
    assert st.binary_flags("MAX", a, b, np.maximum(a, b), T.FP32) == 0
    assert st.binary_flags("MIN", a, b, np.minimum(a, b), T.FP32) == 0
    snan = np.array([[0x7FA00000, 0x7FC00000, 0, 0]], np.uint32).view(np.float32)
    assert st.binary_flags("MAX", snan, b, b, T.FP32) == st.NV
