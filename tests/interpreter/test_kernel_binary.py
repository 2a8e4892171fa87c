"""Binary elementwise siblings of TREM as rows of the generic kernel (TADD, TSUB, TMUL, TDIV,
TMAX, TMIN; asl/tile/model/execution/elementwise.asl, minmax.asl). References: Python ints
and exact fractions.Fraction rounded by hand; NaN / signed-zero rules written out."""

from __future__ import annotations

import math
import operator
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import BINARY_ROWS, KERNELS, binary_tile
from pto_dialect.faults import PTOFault

SIBLINGS = ("TADD", "TSUB", "TMUL", "TDIV", "TMAX", "TMIN")
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def run(op, a, b, **kw):
    return binary_tile(BINARY_ROWS[op], a, b, None, "null", **kw)[0]


def int_ref(op: str, a: int, b: int, bits: int, signed: bool) -> int:
    if op == "TDIV":
        q = abs(a) // abs(b)
        v = -q if (a < 0) != (b < 0) else q  # truncation toward zero
    elif op in ("TMAX", "TMIN"):
        v = max(a, b) if op == "TMAX" else min(a, b)
    else:
        v = {"TADD": operator.add, "TSUB": operator.sub, "TMUL": operator.mul}[op](a, b)
    v %= 1 << bits  # NormalizeTileInteger: wrap to the element width
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SIBLINGS), st.sampled_from(INTS), st.integers(0, 2**32 - 1))
def test_integer_rows_match_python_ints(op, dt, seed):
    """Integers wrap (TADD/TSUB/TMUL, INT_MIN / -1), TDIV truncates, TMAX/TMIN by signedness."""
    rng = np.random.default_rng(seed)
    info = np.iinfo(dt)
    edges = np.array([info.min, info.max, 0, 1, -1 if info.min else 2, info.min + 1], dtype=object)
    a = rng.integers(info.min, info.max, (3, 6), endpoint=True, dtype=dt)
    b = rng.integers(info.min, info.max, (3, 6), endpoint=True, dtype=dt)
    a[0] = np.array(edges, dtype=dt)
    b[0] = np.array(np.roll(edges, 1), dtype=dt)
    if op == "TDIV":
        b[b == 0] = 1
        a[1, 0], b[1, 0] = info.min, (-1 if info.min else 1)
    got = run(op, a, b)
    assert got.dtype == np.dtype(dt)
    for x, y, g in zip(a.ravel(), b.ravel(), got.ravel(), strict=True):
        assert int(g) == int_ref(op, int(x), int(y), info.bits, info.min < 0), (x, y)


def test_int_min_div_minus_one_wraps_and_zero_divisor_faults():
    a = np.array([[-(2**31), 7]], np.int32)
    b = np.array([[-1, 0]], np.int32)
    a0, b0 = a.copy(), b.copy()
    with pytest.raises(PTOFault, match="TileLegality"):
        run("TDIV", a, b)  # TilePayloadNonzero: before any effect, inputs unchanged
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)
    assert int(run("TDIV", a[:, :1], b[:, :1])[0, 0]) == -(2**31)
    # padding is never read: a zero outside the valid rectangle is fine
    d, _ = binary_tile(BINARY_ROWS["TDIV"], a, b, (1, 1), "zero")
    assert int(d[0, 0]) == -(2**31) and int(d[0, 1]) == 0


FLOATS = {
    np.float32: (24, -126, 2**128 - 2**104),
    np.float16: (11, -14, 65504),
    ml_dtypes.bfloat16: (8, -126, float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)),
}


def round_to(q: Fraction, p: int, emin: int, fmax: float) -> float:
    """RNE of an exact fraction to a binary format with p significand bits."""
    if q == 0:
        return 0.0
    mag = abs(q)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    ulp = Fraction(2) ** (max(e, emin) - p + 1)
    r = round(mag / ulp) * ulp
    v = math.inf if r > fmax else float(r)
    return -v if q < 0 else v


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["TADD", "TSUB", "TMUL", "TDIV"]), st.sampled_from(list(FLOATS)),
       st.integers(0, 2**32 - 1))
def test_float_rows_correctly_rounded(op, dt, seed):
    """IEEE RNE (DefaultNumericExecutionControl): exact Fraction result rounded once."""
    rng = np.random.default_rng(seed)
    p, emin, fmax = FLOATS[dt]
    a = (rng.standard_normal(16) * 2.0 ** rng.integers(-12, 12, 16)).astype(dt)
    b = (rng.standard_normal(16) * 2.0 ** rng.integers(-12, 12, 16)).astype(dt)
    got = run(op, a.reshape(1, -1), b.reshape(1, -1))[0]
    f = {"TADD": operator.add, "TSUB": operator.sub, "TMUL": operator.mul,
         "TDIV": operator.truediv}[op]
    for x, y, g in zip(a, b, got, strict=True):
        q = f(Fraction(float(x)), Fraction(float(y)))
        assert float(g) == round_to(q, p, emin, fmax), (x, y, g)


def test_float_specials():
    """x/+-0 = +-inf, 0/0 = NaN (no fault); -0 + -0 = -0, x - x = +0; E4M3 overflow NaN."""
    a = np.array([[1.0, -1.0, 0.0, -0.0, 3.0]], np.float32)
    b = np.array([[0.0, 0.0, 0.0, -0.0, 3.0]], np.float32)
    d = run("TDIV", a, b)[0]
    assert d[0] == np.inf and d[1] == -np.inf and np.isnan(d[2]) and np.isnan(d[3])
    s = run("TADD", a[:, 3:4], b[:, 3:4])[0, 0]
    assert s == 0 and np.signbit(s)
    z = run("TSUB", a[:, 4:5], b[:, 4:5])[0, 0]
    assert z == 0 and not np.signbit(z)
    e = np.array([[448.0]], ml_dtypes.float8_e4m3fn)
    assert np.isnan(run("TADD", e, e)[0, 0].astype(np.float32))


def minmax_ref(op: str, x: float, y: float):
    """HardwareNumericMinMaxSpecial written out: NaN rules, then zeros, then order."""
    if math.isnan(x) and math.isnan(y):
        return "nan"
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    if x == 0 and y == 0:
        sx, sy = math.copysign(1, x) < 0, math.copysign(1, y) < 0
        neg = (sx and sy) if op == "TMAX" else (sx or sy)
        return -0.0 if neg else 0.0
    return max(x, y) if op == "TMAX" else min(x, y)


@pytest.mark.parametrize("op", ["TMAX", "TMIN"])
@pytest.mark.parametrize("dt", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64,
                                ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2])
def test_float_minmax_nan_and_signed_zero(op, dt):
    vals = [0.0, -0.0, np.nan, 1.0, -2.0, np.inf if dt != ml_dtypes.float8_e4m3fn else 448.0]
    a = np.array([x for x in vals for _ in vals], dt).reshape(1, -1)
    b = np.array([y for _ in vals for y in vals], dt).reshape(1, -1)
    got = run(op, a, b)[0]
    canon = {np.dtype(np.float32): 0x7FC00000, np.dtype(np.float16): 0x7E00,
             np.dtype(ml_dtypes.bfloat16): 0x7FC0, np.dtype(np.float64): 0x7FF8000000000000,
             np.dtype(ml_dtypes.float8_e4m3fn): 0x7F, np.dtype(ml_dtypes.float8_e5m2): 0x7E}
    bits = got.view(f"u{got.dtype.itemsize}")
    for i, (x, y) in enumerate(zip(a[0], b[0], strict=True)):
        want = minmax_ref(op, float(x), float(y))
        if want == "nan":
            assert int(bits[i]) == canon[got.dtype], (x, y)  # canonical quiet NaN
        else:
            g = float(got[i])
            assert g == want and math.copysign(1, g) == math.copysign(1, want), (x, y, g)


def test_rows_registered_types_and_tfmod_absent():
    """Every sibling accepts TileVecArithmeticDataTypeSupported; TFMOD is deleted."""
    for op in SIBLINGS:
        assert op in KERNELS and op in BINARY_ROWS
    assert "TFMOD" not in BINARY_ROWS and "TFMOD" not in KERNELS
    for bad in (np.zeros((1, 2), np.uint8),):
        with pytest.raises(PTOFault, match="TileLegality"):
            run("TADD", bad, bad, dtype="HiF8")
    x = np.ones((1, 2), np.float32)
    d, defined = KERNELS["TMUL"](x, x, (1, 1), "null")
    assert d[0, 0] == 1.0 and defined.tolist() == [[True, False]]
