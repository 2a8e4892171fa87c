"""Differential tests of the kernels' fast paths against their exact paths.

Each fast path (NaN test by one reduction, branch-free blocked NaN replacement, sqrt /
reciprocal in the format itself, TRELU's NaN test) must give the same words as the exact
path on planted NaN (both signs, quiet and signalling payloads), +-inf, +-0, subnormals,
format boundaries and random bit patterns."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from interpreter.kernels.elementwise import BINARY_ROWS, binary_core
from interpreter.kernels.nanfix import _BLOCK, has_nan, replace_where
from interpreter.kernels.unary import UNARY_ROWS, canonical_nan, sfu_exact
from pto_dialect.datatypes import TileDataType as T

# signalling NaN sources widen with numpy's "invalid value encountered in cast" warning
pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")

_CARRIERS = {
    T.FP64: np.dtype(np.float64),
    T.FP32: np.dtype(np.float32),
    T.FP16: np.dtype(np.float16),
    T.BF16: np.dtype(ml_dtypes.bfloat16),
}


def _planted(dt: np.dtype, n_random: int = 4096, seed: int = 0) -> np.ndarray:
    """Special words of the format (by bit pattern) followed by random words."""
    bits = dt.itemsize * 8
    u = np.dtype(f"u{dt.itemsize}")
    info = ml_dtypes.finfo(dt) if dt.itemsize == 2 and dt != np.float16 else np.finfo(dt)
    sign = 1 << (bits - 1)
    exp_all = int(np.array(np.inf, dt).view(u))  # +inf word
    quiet = (exp_all | (exp_all >> 1)) & ~sign  # canonical quiet NaN (top fraction bit)
    words = [0, sign, 1, sign | 1, exp_all - 1, sign | (exp_all - 1), exp_all, sign | exp_all,
             quiet, sign | quiet, exp_all | 1, sign | exp_all | 1, quiet | 5, int(np.array(1, dt).view(u))]  # fmt: skip
    vals = [info.tiny, -info.tiny, info.smallest_subnormal, info.max, -info.max, 1.0, -1.0, 2.0,
            0.5, -0.5, 3.0, float(info.tiny) * 2 ** 0.5, float(info.max) / 3]  # fmt: skip
    planted = np.concatenate([np.array(words, u).view(dt), np.array(vals, np.float64).astype(dt)])
    rnd = np.random.default_rng(seed).integers(0, 1 << bits, size=n_random, dtype=np.uint64)
    return np.concatenate([planted, rnd.astype(u).view(dt)])


def _words(x: np.ndarray) -> np.ndarray:
    return x.view(np.dtype(f"u{x.dtype.itemsize}"))


def _canonical_ref(r: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(r), np.array(np.nan).astype(r.dtype), r)


@pytest.mark.parametrize("t", list(_CARRIERS))
def test_canonical_nan_matches_where(t):
    x = _planted(_CARRIERS[t])
    assert np.array_equal(_words(canonical_nan(x.copy())), _words(_canonical_ref(x)))
    # not contiguous, read-only: a copy, the input untouched
    y = x[::3]
    y.flags.writeable = False
    before = _words(y).copy()
    assert np.array_equal(_words(canonical_nan(y)), _words(_canonical_ref(y)))
    assert np.array_equal(_words(y), before)


def test_replace_where_crosses_blocks():
    n = 2 * _BLOCK + 17
    x = np.arange(n, dtype=np.float32)
    mask = (np.arange(n) % 7) == 3
    got = replace_where(x.copy().reshape(1, n), mask.reshape(1, n), np.float32(-2.5))
    assert np.array_equal(got.reshape(-1), np.where(mask, np.float32(-2.5), x))


@pytest.mark.parametrize("t", list(_CARRIERS))
def test_has_nan(t):
    x = _planted(_CARRIERS[t], 0)
    finite = x[~np.isnan(x)]
    assert has_nan(x) and not has_nan(finite)
    assert has_nan(np.concatenate([finite, x[np.isnan(x)][:1]]))


def _binary_exact(row, a, b):
    """The former exact NaN rule: NaNs created from non-NaN operands become canonical."""
    with np.errstate(all="ignore"):
        if a.dtype in (np.float16, ml_dtypes.bfloat16):
            r = row.float_op(a.astype(np.float32), b.astype(np.float32)).astype(a.dtype)
        else:
            r = row.float_op(a, b)
    created = np.isnan(r) & ~np.isnan(a) & ~np.isnan(b)
    return np.where(created, np.array(np.nan).astype(r.dtype), r)


@pytest.mark.parametrize("t", list(_CARRIERS))
@pytest.mark.parametrize("op", ["TADD", "TSUB", "TMUL", "TDIV", "TREM", "TMAX", "TMIN"])
def test_binary_fast_path_matches_exact(t, op):
    x = _planted(_CARRIERS[t], 512)
    a, b = np.meshgrid(x, x[::-1][:64])  # every planted pair, both orders
    row = BINARY_ROWS[op]
    got = binary_core(row, a.copy(), b.copy(), t)
    assert np.array_equal(_words(got), _words(_binary_exact(row, a, b)))
    # tile-scalar shape: a (1, 1) second operand
    for s in x[:27]:
        sb = np.full((1, 1), s)
        got = binary_core(row, x.reshape(1, -1), sb, t)
        want = _binary_exact(row, x.reshape(1, -1), sb)  # numpy picks NaN payloads by shape
        assert np.array_equal(_words(got), _words(want))


@pytest.mark.parametrize("op", ["TSQRT", "TRECIP"])
@pytest.mark.parametrize("t", [T.FP64, T.FP32, T.FP16])
def test_direct_sfu_matches_float64_path(op, t):
    dt = _CARRIERS[t]
    x = (np.arange(1 << 16, dtype=np.uint16).view(np.float16) if t is T.FP16
         else _planted(dt, 1 << 16, seed=1))  # fmt: skip
    fast = UNARY_ROWS[op].float_op(x.copy(), t)
    assert np.array_equal(_words(fast), _words(sfu_exact(op)(x.copy(), t)))


def _relu_ref(v: float) -> float:
    if math.isnan(v):
        return math.nan
    return v if v > 0 else 0.0


@pytest.mark.parametrize("t", list(_CARRIERS))
def test_relu_fast_path_matches_scalar_reference(t):
    dt = _CARRIERS[t]
    x = _planted(dt, 2048)
    got = UNARY_ROWS["TRELU"].float_op(x, t)
    want = np.array([_relu_ref(float(v)) for v in x], np.float64).astype(dt)
    assert np.array_equal(_words(got), _words(want))
    assert np.array_equal(_words(UNARY_ROWS["TRELU"].float_op(x[np.isfinite(x)], t)),
                          _words(want[np.isfinite(x)]))  # fmt: skip


# -- conversions ---------------------------------------------------------------------------
def _f32_sources(seed: int = 2) -> np.ndarray:
    rng = np.random.default_rng(seed)
    near = (rng.standard_normal(4096) * 30000).astype(np.float32)  # FP16 overflow edge
    small = (rng.standard_normal(2048) * 2.0**-18).astype(np.float32)  # FP16 subnormals
    ints = (rng.integers(-300, 300, 2048) / 4).astype(np.float32)  # exact and tie values
    edges = np.array([65504, 65519.996, 65520, -65520, 65536, 2**-24, 2**-25, -(2**-25),
                      2**-26, -(2**-26), 3 * 2**-26, 2.0**31, -(2.0**31), 2.0**31 - 128,
                      127.5, -128.5, 255.5, 1e30, -1e30], np.float32)  # fmt: skip
    return np.concatenate([_planted(np.dtype(np.float32), 8192, seed), near, small, ints, edges])


@pytest.mark.parametrize("mode", ["rtz", "rtm", "rtp"])
@pytest.mark.parametrize("pair", [(T.FP32, T.FP16), (T.FP64, T.FP32), (T.FP64, T.FP16)])
def test_directed_cast_matches_exact_rounding(mode, pair):
    from interpreter.kernels import convert as cv

    src, dst = pair
    x = _f32_sources().astype(_CARRIERS[src])
    if src is T.FP64:
        rng = np.random.default_rng(7)
        x = np.concatenate([x, _planted(np.dtype(np.float64), 8192), rng.standard_normal(2048) * 3e38])
    code = cv.resolve_rmode(mode, src, dst)
    got = cv.convert_values(x, src, dst, mode)
    with np.errstate(all="ignore"):
        want = cv.encode_float(cv.round_float(x.astype(np.float64), dst, code, False), dst)
    assert np.array_equal(_words(got), _words(want))


@pytest.mark.parametrize("mode", ["rne", "rtz", "rtm", "rtp", "rna", "rto", "rhb"])
@pytest.mark.parametrize("dst", [T.S32, T.S16, T.S8, T.U16, T.U8])
@pytest.mark.parametrize("sat", [True, False])
@pytest.mark.parametrize("src", [T.FP32, T.FP64])
def test_float_to_int_fast_path_matches_exact(monkeypatch, mode, dst, sat, src):
    from interpreter.kernels import convert as cv

    x = _f32_sources(3).astype(_CARRIERS[src])
    lo, hi = cv._bounds(dst)
    edges = np.array([lo - 1, lo - 0.9, lo - 0.5, lo, hi, hi + 0.5, hi + 0.9, hi + 1], np.float64)
    finite = x[np.isfinite(x) & (np.abs(x) < 2.0**40)]
    inside = finite[(finite > lo - 1) & (finite < hi + 1)]
    parts = [finite, finite[np.abs(finite) < 100], x,  # in range, small, with specials
             np.concatenate([inside, edges.astype(x.dtype)]),
             np.concatenate([inside, edges[1:-1].astype(x.dtype)])]  # fmt: skip
    got = [cv.convert_values(p, src, dst, mode, sat) for p in parts]
    monkeypatch.setattr(cv, "_float_to_int_in_range", lambda *a: None)
    for p, g in zip(parts, got):
        assert np.array_equal(g, cv.convert_values(p, src, dst, mode, sat))


@pytest.mark.parametrize("dst", [T.S8, T.U8])
@pytest.mark.parametrize("sat", [True, False])
def test_quantize_rne_fast_path_matches_exact(monkeypatch, dst, sat):
    from interpreter.kernels import convert as cv

    rng = np.random.default_rng(4)
    x = np.concatenate([(rng.standard_normal(4096) * 300).astype(np.float32),
                        (rng.integers(-600, 600, 1024) / 2).astype(np.float32),
                        (rng.standard_normal(1024) * 2.0**-6).astype(np.float32),
                        np.float32([0.5 - 2**-25, -0.5, 1.5, 2.5, -0.0, 0.0])])  # fmt: skip
    lo, hi = cv._bounds(dst)
    cases = [(s, z) for s in (0.5, 1.0, 3.0, 1 / 3, 2.0**-10) for z in (0, 1, 3, -7, 127, 255)
             if lo <= z <= hi]  # fmt: skip
    got = [cv.quantize_values(x, float(np.float32(s)), z, dst, cv.RNE, sat) for s, z in cases]
    monkeypatch.setattr(cv, "_quantize_rne", lambda *a: None)
    for (s, z), g in zip(cases, got):
        assert np.array_equal(g, cv.quantize_values(x, float(np.float32(s)), z, dst, cv.RNE, sat))
