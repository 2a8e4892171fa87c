"""The compiled (numba) TCVT / TQUANT / TSQRT kernels against the numpy reference: identical
bits (issue 26, ``interpreter/kernels/numeric_jit.py``).

Every case runs the kernel with ``PTO_KERNELS=numpy`` and ``PTO_KERNELS=compiled`` on the same
values: random magnitudes over the whole range, the special values (NaN payloads, +-0,
+-inf, subnormals, the largest finite values and their neighbours) and rounding ties of the
destination (values exactly halfway between two of its neighbours, and one source ulp
either side), for every rounding mode and Sat. Hand-derived results pin the ties on the
compiled engine. Small arrays: the cost is numba's first compilation (on-disk cache after).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import KERNELS as K
from interpreter.kernels import jit
from interpreter.kernels.convert import FORMATS, convert_values, quantize_values
from interpreter.kernels.unary import UNARY_ROWS, unary_core
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples

pytest.importorskip("numba")

SOURCES = {T.FP32: np.float32, T.FP64: np.float64, T.FP16: np.float16,
           T.BF16: ml_dtypes.bfloat16, T.E4M3: ml_dtypes.float8_e4m3fn}
FLOATS = [T.FP32, T.TF32, T.HF32, T.FP16, T.BF16, T.E4M3, T.E5M2, T.E3M2, T.E2M3, T.E2M1X2,
          T.E1M2X2, T.HIF4X2]
INTS = [T.S32, T.U32, T.S16, T.U16, T.S8, T.U8, T.S4X2, T.U4X2]
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, 1e-45, -1e-45, 2.0**-149, 2.0**-126, 65504.0,
                    65520.0, 448.0, 464.0, 480.0, 57344.0, 3.4028235e38, 0.5, 1.5, -2.5,
                    2.0**31, -(2.0**31), 2.0**32, 2.0**63, 2.0**64, 127.5, -128.5, 255.5, 7.5,
                    -8.5, 15.5, 1e300, -1e300])


def both(fn):
    with jit.selected("numpy"):
        want = fn()
    with jit.selected("compiled"):
        got = fn()
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), (got, want)
    return got


def _nan_payloads(rng, n):
    return (np.uint32(0x7F800001) + rng.integers(0, 1 << 22, n).astype(np.uint32)
            | (rng.integers(0, 2, n).astype(np.uint32) << 31)).view(np.float32)


def _ties(dst, rng, n):
    """float64 values halfway between neighbours of ``dst`` (binary formats), random scale."""
    if dst not in FORMATS:  # integers: k + 1/2
        return rng.integers(-300, 300, n) + 0.5
    fmt = FORMATS[dst]
    e = rng.integers(fmt.emin - 2, fmt.emin + 12, n)
    k = rng.integers(0, 1 << (fmt.mbits + 1), n)
    return np.ldexp(k + 0.5, (e - fmt.mbits).astype(np.int32)) * rng.choice([-1.0, 1.0], n)


def values(src, dst, rng, n=64):
    v = rng.standard_normal(n) * np.exp2(rng.integers(-150, 140, n))
    v = np.concatenate([v, SPECIAL, _ties(dst, rng, n)])
    with np.errstate(all="ignore"):
        x = v.astype(SOURCES[src])
        up = np.nextafter(x.astype(np.float64), np.inf).astype(SOURCES[src])
        x = np.concatenate([x, up, _nan_payloads(rng, 4).astype(SOURCES[src])])
    if src is T.E4M3:
        x[np.isnan(x.astype(np.float32))] = 0  # (one NaN code; ml_dtypes makes it from any NaN)
    x = rng.permutation(x)
    return x.reshape(2, -1) if x.size % 2 == 0 else x.reshape(1, -1)


@settings(max_examples=examples(60), deadline=None)
@given(src=st.sampled_from(list(SOURCES)), dst=st.sampled_from(FLOATS + INTS),
       mode=st.integers(1, 7), sat=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_tcvt_compiled_equals_numpy(src, dst, mode, sat, seed):
    x = values(src, dst, np.random.default_rng(seed))
    with np.errstate(all="ignore"):
        both(lambda: convert_values(x, src, dst, mode, sat))


@settings(max_examples=examples(40), deadline=None)
@given(dst=st.sampled_from([T.S8, T.U8]), mode=st.integers(1, 7), sat=st.booleans(),
       scale=st.sampled_from([1.0, 0.5, 3.0, 0.1, 1e-30, 1e30, 2.0**20]),
       zp=st.integers(-8, 8), seed=st.integers(0, 2**32 - 1))
def test_tquant_compiled_equals_numpy(dst, mode, sat, scale, zp, seed):
    rng = np.random.default_rng(seed)
    zp = abs(zp) if dst is T.U8 else zp
    x = values(T.FP32, T.S8, rng).reshape(-1)
    x = np.concatenate([x, (_ties(T.S8, rng, 32) / np.float32(scale)).astype(np.float32)])
    scale = float(np.float32(scale))
    both(lambda: quantize_values(x.reshape(2, -1), scale, zp, dst, mode, sat))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tsqrt_compiled_equals_numpy(dtype):
    rng = np.random.default_rng(3)
    t = T.FP32 if dtype is np.float32 else T.FP64
    with np.errstate(invalid="ignore"):
        x = np.concatenate([values(T.FP32, T.FP32, rng).reshape(-1).astype(dtype),
                            np.abs(rng.standard_normal(50)).astype(dtype)])
    with np.errstate(all="ignore"):
        r = both(lambda: unary_core(UNARY_ROWS["TSQRT"], x, t))
    nan = np.isnan(r)
    assert nan.any() and np.all(r[nan].view(f"u{r.itemsize}") == np.array(np.nan, dtype).view(
        f"u{r.itemsize}"))


@pytest.mark.parametrize(("x", "src", "dst", "mode", "want"), [
    (1 + 2.0**-8, T.FP32, T.BF16, "rne", 1.0),  # a tie: to even
    (1 + 2.0**-8, T.FP32, T.BF16, "rna", 1 + 2.0**-7),  # away from zero
    (-(1 + 2.0**-8), T.FP32, T.BF16, "rhb", -1.0),  # toward +inf
    (1 + 2.0**-9, T.FP32, T.BF16, "rto", 1 + 2.0**-7),  # inexact: to the odd neighbour
    (1 + 2.0**-8 + 2.0**-20, T.FP32, T.BF16, "rtz", 1.0),
    (2.5, T.FP32, T.S32, "rne", 2), (2.5, T.FP32, T.S32, "rna", 3),
    (-2.5, T.FP32, T.S32, "rna", -3), (2.25, T.FP32, T.S32, "rto", 3),
    (464.0, T.FP32, T.E4M3, "rne", 448.0), (465.0, T.FP32, T.E4M3, "rne", np.nan),
])
def test_compiled_rounding_hand_derived(x, src, dst, mode, want):
    """Hand-derived roundings on the compiled engine (465 > 464, halfway between 448 and the
    would-be 480, rounds past the largest finite E4M3 value: its NaN)."""
    a = np.array([[x]], SOURCES[src])
    with jit.selected("compiled"):
        got = convert_values(a, src, dst, mode)
    got = got.astype(np.float64)[0, 0]
    assert np.isnan(got) if np.isnan(want) else got == want


@pytest.mark.parametrize(("mode", "want"), [(1, [2, -2, 3]), (5, [3, -3, 3]), (2, [2, -2, 2]),
                                            (6, [3, -3, 3]), (7, [3, -2, 3])])
def test_compiled_tquant_ties(mode, want):
    """TQUANT of 2.5, -2.5 and 2.75 (x * 0.5 + zp with zp = 1): RNE to even, RNA away from
    zero, RTZ toward zero, RTO to the odd neighbour, RHB toward +inf."""
    x = np.array([[3.0, -7.0, 3.5]], np.float32)  # * 0.5 + 1: 2.5, -2.5, 2.75
    with jit.selected("compiled"):
        got = quantize_values(x, 0.5, 1, T.S8, mode, True)
    assert got.tolist() == [want]


# ---- both kernel engines, every destination --------------------------------------------------
@settings(max_examples=examples(15), deadline=None)
@given(src=st.sampled_from([T.FP32, T.FP64, T.FP16, T.BF16]), mode=st.integers(0, 7),
       sat=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_every_destination_converts_alike_on_both_engines(src, mode, sat, seed):
    """TCVT from a float into each of the 25 types gives the same bits with the compiled
    kernels (``PTO_KERNELS=compiled``: the destinations :mod:`.numeric_jit` covers) as with the
    numpy reference (the others fall back to it): the engine dispatch sends no destination
    to a compiled loop that does not cover it."""
    rng = np.random.default_rng(seed)
    dt = {T.FP32: np.float32, T.FP64: np.float64, T.FP16: np.float16, T.BF16: ml_dtypes.bfloat16}
    with np.errstate(all="ignore"):
        v = rng.standard_normal(24) * np.exp2(rng.integers(-30, 30, 24))
        x = np.concatenate([v, [0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan, 300.0]])
        x = x.astype(dt[src]).reshape(2, -1)
    for dst in T:
        if dst is T.E8M0 and src is T.FP64:
            continue  # not a TCVT pair (HardwareTCVTTypePairSupported)
        with jit.selected("numpy"):
            want = K["TCVT"](x, None, "null", src, dst, rmode=mode, sat=sat)[0]
        with jit.selected("compiled"):
            got = K["TCVT"](x, None, "null", src, dst, rmode=mode, sat=sat)[0]
        assert got.dtype == want.dtype and np.array_equal(got.view(np.uint8), want.view(np.uint8)), dst
