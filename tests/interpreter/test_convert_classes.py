"""Edge classes of TCVT / TQUANT / TDEQUANT against an independent reference (issue 27,
mutation testing of ``interpreter/kernels/convert.py``).

The reference is Python: ``fractions.Fraction`` values rounded with Python integers under
the B.DATR rounding modes (``asl/arch/data-types/rounding.asl``), Python-int clamping and
wrapping. Each property sweeps a whole class, not one point:

* TQUANT ``round(x * multiplier + zero_point)`` at exact ties (``x * multiplier`` = k + 1/2)
  and a quarter either side, for every zero point of the destination (odd and even: the
  RNE fast path splits an odd zero point), every mode, Sat on and off, on a C-contiguous
  tile (the blocked fast path) and on a strided valid region.
* Float -> integer TCVT into every integer type at every magnitude (the 64-bit wrap near
  2^64 included), Sat on and off, every mode.
* Integer -> float TCVT at the destination's ties, beyond 2^53 too (D20 on Python ints).
* TDEQUANT of every S8 / U8 code at FP32's ends (subnormal multipliers up to 2^127), values,
  +0 and flags.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_status_classes import FMT, ref_convert

from interpreter.kernels import KERNELS
from interpreter.kernels.convert import tquant_tile
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples
from tests.convert_reference import MODES, round_int

BOUNDS = {T.S8: (-128, 127), T.U8: (0, 255)}


def quant_ref(x: float, scale: float, zp: int, t: T, mode: str, sat: bool) -> int:
    lo, hi = BOUNDS[t]
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return hi if x > 0 else lo
    q = round_int(Fraction(x) * Fraction(scale) + zp, mode)
    if sat:
        return min(max(q, lo), hi)
    return (q - lo) % 256 + lo  # the low 8 bits, read in the type


def _word(f: float) -> int:
    return int(np.array(f, np.float32).view(np.uint32))


@settings(max_examples=examples(40), deadline=None)
@given(t=st.sampled_from([T.S8, T.U8]), data=st.data(), mode=st.sampled_from(MODES),
       sat=st.booleans(), j=st.integers(-6, 12), strided=st.booleans())
def test_tquant_ties_for_every_zero_point(t, data, mode, sat, j, strided):
    lo, hi = BOUNDS[t]
    zp = data.draw(st.integers(lo, hi), "zp")
    scale = 2.0**-j  # x * scale = k + 1/2 (+- 1/4) exactly
    # q = x * scale + zp near 0, near both bounds of the type, and beyond them
    q = np.unique(np.r_[np.arange(-12, 12), np.arange(lo - 4, lo + 4), np.arange(hi - 4, hi + 4)])
    k = (q - zp).astype(np.float64)
    p = np.concatenate([k + 0.5, k + 0.25, k + 0.75, k, [0.5, -0.5, 1.5, -1.5]])
    x = (p / scale).astype(np.float32)
    assert np.array_equal(x.astype(np.float64) * scale, p)  # the ties are exact
    cols = 16
    n = -(-x.size // cols) * cols
    a = np.zeros(n, np.float32)
    a[: x.size] = x
    a = a.reshape(-1, cols)
    if strided:  # a valid region narrower than the tile: a non-contiguous view
        a = np.concatenate([a, np.full((a.shape[0], 3), 7.5, np.float32)], axis=1)
        valid = (a.shape[0], cols)
    else:
        valid = None
    got, _ = tquant_tile(a, _word(scale), zp, valid, t, rmode=mode, sat=sat)
    vr, vc = valid or a.shape
    for (r, c), v in np.ndenumerate(a[:vr, :vc]):
        want = quant_ref(float(v), scale, zp, t, mode, sat)
        assert int(got[r, c]) == want, (float(v), scale, zp, mode, sat)


# ---- float -> integer TCVT: every destination, every magnitude --------------------------------
INT_BOUNDS = {
    T.S64: (-(2**63), 2**63 - 1), T.U64: (0, 2**64 - 1), T.S32: (-(2**31), 2**31 - 1),
    T.U32: (0, 2**32 - 1), T.S16: (-(2**15), 2**15 - 1), T.U16: (0, 2**16 - 1),
    T.S8: (-128, 127), T.U8: (0, 255),
}  # fmt: skip


def int_ref(x: float, t: T, mode: str, sat: bool) -> int:
    """The reference quantizer with scale 1 (D20): NaN 0, +-inf max / min, else the rounded
    integer clamped (Sat) or wrapped to the width (its low bits, read in the type)."""
    lo, hi = INT_BOUNDS[t]
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return hi if x > 0 else lo
    q = round_int(Fraction(x), mode)
    if sat:
        return min(max(q, lo), hi)
    return (q - lo) % (hi - lo + 1) + lo


@settings(max_examples=examples(40), deadline=None)
@given(src=st.sampled_from([T.FP32, T.FP64]), dst=st.sampled_from(list(INT_BOUNDS)),
       mode=st.sampled_from(MODES), sat=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_float_to_integer_wraps_and_clamps_at_every_magnitude(src, dst, mode, sat, seed):
    """Values from 2^-2 to beyond 2^64 (the whole FP32 range; FP64 up to 2^200), both signs,
    halves and integers near 2^53, 2^63 and 2^64, infinities and NaN, against Python ints."""
    rng = np.random.default_rng(seed)
    dt = np.float32 if src is T.FP32 else np.float64
    e = rng.integers(-2, 128 if src is T.FP32 else 200, 48)
    v = rng.random(48) * np.exp2(e) * rng.choice([-1.0, 1.0], 48)
    prec = 24 if src is T.FP32 else 53  # a few source ulps around the powers of two that
    edges = [2.0**k + d * 2.0 ** (k - prec)  # bound the destinations and the float64 steps
             for k in (7, 8, 15, 16, 31, 32, 52, 53, 62, 63, 64, 65, 80) for d in range(-3, 4)]
    if src is T.FP64:  # integers just below 2^64 (and 2^64 plus them): the top of the wrap
        edges += list(2.0**64 - rng.integers(1, 2**40, 6) * 2.0**11)
        edges += list(2.0**70 + rng.integers(1, 2**40, 6) * 2.0**17)
    v = np.concatenate([v, edges, [-x for x in edges], [0.5, -0.5, 2.5, -1.5, 0.0, -0.0, np.inf,
                                                          -np.inf, np.nan]])  # fmt: skip
    x = v.astype(dt)
    got = KERNELS["TCVT"](x.reshape(1, -1), None, "null", src, dst, rmode=mode, sat=sat)[0]
    for g, xi in zip(got.reshape(-1), x):
        assert int(g) == int_ref(float(xi), dst, mode, sat), (float(xi), src, dst, mode, sat)


# ---- integer -> float TCVT at the destination's ties ------------------------------------------
@settings(max_examples=examples(40), deadline=None)
@given(src=st.sampled_from([T.S64, T.U64, T.S32, T.U32]),
       dst=st.sampled_from([T.FP64, T.FP32, T.FP16, T.BF16, T.E4M3, T.E5M2]),
       mode=st.sampled_from(MODES), sat=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_integer_to_float_ties_in_every_mode(src, dst, mode, sat, seed):
    """Integers exactly halfway between two neighbours of the destination, one either side,
    and the powers of two around them, for significands just past the destination's
    precision and beyond 2^53 (where the kernel's exact float64 pair carries the error),
    against D20 on Python ints (``test_status_classes.ref_convert``)."""
    rng = np.random.default_rng(seed)
    lo, hi = INT_BOUNDS[src]
    mbits = FMT[dst][0]
    top = hi.bit_length()
    ks = rng.integers(mbits + 1, top, 12) if top > mbits + 1 else []  # else every value exact
    vals = [lo + int(rng.random() * (hi - lo)) for _ in range(8)]
    for k in map(int, ks):  # values around 2^k, whose grid step in dst is 2^(k - mbits)
        step = 1 << (k - mbits)
        base = int(rng.integers(1 << mbits, 1 << (mbits + 1))) * step  # a value of dst
        for v in (base + step // 2, base + step // 2 - 1, base + step // 2 + 1, base + step,
                  base + 1, base - 1, 1 << k):
            vals += [v, -v]
    vals = [v for v in vals if lo <= v <= hi] + [lo, hi, 0]
    x = np.array(vals, dtype=src.numpy_dtype())
    got, _ = KERNELS["TCVT"](x.reshape(1, -1), None, "null", src, dst, rmode=mode, sat=sat)
    for v, g in zip(vals, got.reshape(-1).astype(np.float64)):
        want, _ = ref_convert(v, False, dst, mode, sat)
        g = "nan" if math.isnan(g) else (g if math.isinf(g) else Fraction(float(g)))
        assert g == want, (v, src, dst, mode, sat, g, want)


# ---- TDEQUANT: every code, scales at FP32's ends -------------------------------------------------
def dequant_ref(q: int, zp: int, scale: float, mode: str):
    """``TileProfileDequantize`` / ``ReferenceFP32FiniteEncoding``: the exact (q - zp) x scale
    rounded once to FP32 (subnormal grid 2^-149); beyond the largest finite value +-inf in
    every mode (OF|NX); an exact zero is +0. Returns (value, flags)."""
    from interpreter.kernels.status import NX, OF, UF

    v = (q - zp) * Fraction(scale)
    if v == 0:
        return Fraction(0), 0
    a = abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    e -= Fraction(2) ** e > a
    step = Fraction(2) ** (max(e, -126) - 23)
    r = round_int(v / step, mode) * step
    if abs(r) > (2 - Fraction(1, 2**23)) * 2**127:
        return math.copysign(math.inf, v), OF | NX
    return r, 0 if r == v else NX | (UF if a < Fraction(2) ** -126 else 0)


@settings(max_examples=examples(20), deadline=None)
@given(t=st.sampled_from([T.S8, T.U8]), data=st.data(), mode=st.sampled_from(MODES),
       m=st.sampled_from([1 << 23, (1 << 24) - 1, 3 << 22]) | st.integers(1 << 23, (1 << 24) - 1))
def test_tdequant_every_code_at_the_ends_of_fp32(t, data, mode, m):
    """Every code of S8 / U8 with a random zero point, a multiplier of a 24-bit significand
    (1, all ones, 1.5 or random) at exponents from the smallest subnormal to FP32's top."""
    from interpreter.kernels.status import recording

    lo, hi = BOUNDS[t]
    zp = data.draw(st.integers(lo, hi), "zp")
    codes = np.arange(lo, hi + 1).astype(np.int8 if t is T.S8 else np.uint8).reshape(1, -1)
    for e in (-149, -140, -133, -126, -125, -3, 0, 20, 119, 120, 121, 126, 127):
        scale = float(np.float32(math.ldexp(m, e - 23)))  # a 24-bit significand at 2^e
        if scale == 0:
            continue
        got, _ = KERNELS["TDEQUANT"](codes, _word(scale), zp, None, t, rmode=mode)
        for q, g in zip(codes.reshape(-1).tolist(), got.reshape(-1).astype(np.float64)):
            want, _ = dequant_ref(q, zp, scale, mode)
            assert (g if math.isinf(g) else Fraction(float(g))) == want, (q, zp, scale, mode)
            if g == 0:  # an exact zero is +0
                assert math.copysign(1, float(got.reshape(-1)[q - lo])) == 1.0
        for q in data.draw(st.lists(st.integers(lo, hi), min_size=2, max_size=4), "flag codes"):
            with recording() as status:
                KERNELS["TDEQUANT"](np.array([[q]], codes.dtype), _word(scale), zp, None, t,
                                    rmode=mode)  # fmt: skip
            assert status.bits == dequant_ref(q, zp, scale, mode)[1], (q, zp, scale, mode)



def test_signalling_nan_sources_convert_quietly_everywhere():
    """A signalling NaN is a value: TCVT from every float carrier into every destination, in
    every mode, with Sat on and off, emits no numpy warning (under ``-W error`` a BF16 or FP32
    source into a narrow format raised RuntimeWarning from the float64 widening) and records
    NV (``TileProfileConvert``)."""
    import warnings

    import ml_dtypes

    from interpreter.kernels.status import NV, recording

    sources = ((T.BF16, 0x7F81, ml_dtypes.bfloat16), (T.FP16, 0x7C01, np.float16),
               (T.FP32, 0x7F800001, np.float32), (T.FP64, 0x7FF0000000000001, np.float64))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for src, word, dt in sources:
            x = np.array([[word]], f"u{np.dtype(dt).itemsize}").view(dt)
            for dst in T:
                if dst is src or (dst is T.E8M0 and src is T.FP64):
                    continue
                for sat in (False, True):
                    for mode in (0, 2, 5):
                        with recording() as status:
                            KERNELS["TCVT"](x, None, "null", src, dst, rmode=mode, sat=sat)
                        assert status.bits & NV, (src, dst)
