"""Edge classes of the numeric status flags against independent references (issue 27,
mutation testing of ``interpreter/kernels/status.py``).

* FP64 TFMA with cancellation: ``c`` within a few units of ``-fl(a * b)``, so the exact
  ``a * b + c`` is (close to) the product's rounding remainder, or ``c`` of the size of that
  remainder (+-1, 2, 1/2, 3 times it): the kernel's error-free
  transformations (TwoProd, TwoSum) leave nonzero remainders although the delivered value
  may be exact. Reference: the rational FP64 FMA of ``test_tfma_edges_evidence.py``
  (``TileFixedFusedMultiplyAddValue`` on Fractions).
* TCVT into every binary float destination (IEEE-like and the FP6 / FP4 formats without
  infinity or NaN), every rounding mode, Sat on and off, at the destination's edges: its
  smallest subnormal and half of it, its smallest normal, its largest finite value and the
  overflow threshold, each a few source ulps either side, zeros, infinities and NaNs.
  Reference: D20 on Fractions (written out below) and the flag rules of
  ``TileProfileConvert``: NV for a signalling NaN or a NaN into a format without NaN; OF|NX
  when a finite value rounds (unbounded exponent) beyond the largest finite value, or an
  infinity is not delivered as one; NX when the delivered value differs from the exact
  one, UF with it when the delivered value is below the smallest normal.
* Uniform tiles (every element the same value) of at least ``FAST_MIN`` elements: the fast
  flag paths give the flags of the element (the full path on one element).
"""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tfma_edges_evidence import bits, reference, tfma

from interpreter.kernels import KERNELS as K
from interpreter.kernels.status import FAST_MIN, NV, NX, OF, UF, flag_names, recording
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples
from tests.convert_reference import FORMAT as FMT

# ---- FP64 TFMA cancellation ------------------------------------------------------------------


@st.composite
def cancelling(draw):
    near = st.integers(0, 1 << 12).map(lambda i: (1 << 27) + i)  # products just past 2^54
    wide = st.integers(1 << 52, (1 << 53) - 1)  # any 53-bit significand
    ma, mb = draw(near | wide), draw(near | wide)
    ea = draw(st.integers(-560, 500))
    # integer products (a remainder of a few units: 1, 2, ...) or any exponent
    eb = draw(st.integers(27 - ea - 2, 27 - ea) | st.integers(-560, 500))
    a = math.ldexp(ma * draw(st.sampled_from([1, -1])), ea)
    b = math.ldexp(mb * draw(st.sampled_from([1, -1])), eb - 27)
    p = a * b  # RNE, as the product's head
    k = draw(st.integers(-6, 6))
    scale = math.ldexp(1.0, ea + eb - 27 + draw(st.integers(-2, 2)))
    if draw(st.booleans()) or not math.isfinite(p):
        c = -p + k * scale  # (rounded in float64: any such c is a valid addend)
    else:  # an addend of the size of the product's rounding error pe = a * b - p (exact)
        pe = float(Fraction(a) * Fraction(b) - Fraction(p))
        c = pe * draw(st.sampled_from([1, -1, 2, -2, 0.5, -0.5, 3]))
    return a, b, c


@settings(max_examples=examples(150), deadline=None)
@given(abc=cancelling())
def test_fp64_tfma_cancellation_flags(abc):
    ab, bb, cb = (bits(v) for v in abc)
    want, want_flags = reference(ab, bb, cb)
    got, got_flags = tfma([ab], [bb], [cb])
    assert (hex(got[0]), flag_names(got_flags)) == (hex(want), flag_names(want_flags)), abc


# ---- TCVT float -> binary float formats -----------------------------------------------------

SOURCES = {T.FP64: np.float64, T.FP32: np.float32, T.FP16: np.float16, T.BF16: ml_dtypes.bfloat16}
QUIET = {T.FP64: 1 << 51, T.FP32: 1 << 22, T.FP16: 1 << 9, T.BF16: 1 << 6}
MODES = ("rne", "rtz", "rtm", "rtp", "rna", "rto", "rhb")


def round_int(x: Fraction, mode: str) -> int:
    lo = math.floor(x)
    f = x - lo
    if f == 0:
        return lo
    if mode in ("rtm", "rtp", "rtz"):
        return lo + (mode == "rtp" or mode == "rtz" and x < 0)
    if mode == "rto":
        return lo if lo % 2 else lo + 1
    if f != Fraction(1, 2):
        return lo + (f > Fraction(1, 2))
    return {"rne": lo + lo % 2, "rna": lo if x < 0 else lo + 1, "rhb": lo + 1}[mode]


def _exponent(a: Fraction) -> int:
    e = a.numerator.bit_length() - a.denominator.bit_length()
    return e - 1 if Fraction(2) ** e > a else e


def ref_convert(x: float, snan: bool, dst: T, mode: str, sat: bool):
    """(delivered value: Fraction, 'nan' or +-inf as float; flags) of D20 / TileProfileConvert."""
    mbits, emin, mx, has_inf, has_nan = FMT[dst]
    if math.isnan(x):
        return ("nan" if has_nan else Fraction(0)), (NV if snan or not has_nan else 0)
    if math.isinf(x):
        if has_inf and not sat:
            return x, 0
        big = mx if not has_nan or sat else "nan"  # E4M3: NaN; the others: +-max
        return (big if big == "nan" else math.copysign(1, x) * big), OF | NX
    v = Fraction(x)
    if v == 0:
        return v, 0
    unbounded = round_int(v / Fraction(2) ** (_exponent(abs(v)) - mbits), mode)
    if abs(unbounded * Fraction(2) ** (_exponent(abs(v)) - mbits)) > mx:  # IEEE overflow
        to_inf = (not sat and (has_inf or has_nan)
                  and (mode in ("rne", "rna", "rhb") or mode == ("rtp" if v > 0 else "rtm")))
        if to_inf:
            return (math.copysign(math.inf, x) if has_inf else "nan"), OF | NX
        return (mx if v > 0 else -mx), OF | NX
    q = Fraction(2) ** (max(_exponent(abs(v)), emin) - mbits)
    r = round_int(v / q, mode) * q
    if r == v:
        return r, 0
    return r, NX | (UF if abs(r) < Fraction(2) ** emin else 0)


def decode(out: np.ndarray, dst: T):
    """The delivered value of a 1x1 result (Fraction, 'nan' or +-inf)."""
    if dst in (T.E1M2X2, T.HIF4X2):
        c = int(out.reshape(-1)[0])
        return Fraction(c & 7, 4) * (-1 if c & 8 else 1)
    f = float(out.astype(np.float64).reshape(-1)[0])
    if math.isnan(f):
        return "nan"
    return f if math.isinf(f) else Fraction(f)


def edge_values(dst: T, src: T, rng) -> list[float]:
    mbits, emin, mx, _, _ = FMT[dst]
    anchors = [2.0**emin, 2.0 ** (emin - mbits), 2.0 ** (emin - mbits - 1), float(mx),
               float(mx + Fraction(2) ** (_exponent(mx) - mbits - 1)), 1.0, 3.0 * 2.0 ** (emin - 2)]
    dt = SOURCES[src]
    u = f"u{np.dtype(dt).itemsize}"
    out = [0.0, -0.0, math.inf, -math.inf, math.nan]
    with np.errstate(over="ignore"):
        for a in anchors:  # the source values nearest the anchor, and two ulps either side
            w = int(np.array([a], dt).view(u)[0])
            near = np.array([max(w + d, 0) for d in range(-2, 3)], u).view(dt).astype(np.float64)
            out += [v for v in near for v in (v, -v) if math.isfinite(v)]
        out += list(rng.standard_normal(6) * np.exp2(rng.integers(emin - mbits - 2, 4, 6)))
    return out


@settings(max_examples=examples(30), deadline=None)
@given(dst=st.sampled_from([t for t in FMT if t is not T.FP64]), src=st.sampled_from(list(SOURCES)),
       mode=st.sampled_from(MODES), sat=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_tcvt_float_flags_at_the_destination_edges(dst, src, mode, sat, seed):
    if dst is src or (src is T.FP16 and dst in (T.FP32, T.TF32, T.HF32, T.BF16)):
        return  # nothing to round (FP16 fits those formats exactly)
    dt = SOURCES[src]
    with np.errstate(over="ignore"):
        values = np.array(edge_values(dst, src, np.random.default_rng(seed)), np.float64).astype(dt)
    snan_word = (0x7FF0000000000001 if src is T.FP64 else
                 {T.FP32: 0x7F800001, T.FP16: 0x7C01, T.BF16: 0x7F81}[src])
    width = np.dtype(dt).itemsize
    snan = np.array([snan_word], f"u{width}").view(dt)
    for x in [*values, snan[0]]:
        word = int(np.array([x]).view(f"u{width}")[0])
        is_snan = math.isnan(float(x)) and not word & QUIET[src]
        want_value, want = ref_convert(float(x), is_snan, dst, mode, sat)
        with recording() as status:
            out, _ = K["TCVT"](np.array([[x]], dt), None, "null", src, dst, rmode=mode, sat=sat)
        got_value = decode(out, dst)
        assert (got_value, flag_names(status.bits)) == (want_value, flag_names(want)), (
            float(x), src, dst, mode, sat)


# ---- uniform tiles: the fast flag paths ------------------------------------------------------
UNIFORM = [1.0, 0.0, -0.0, 2.0, 0.1, -1.0, 3.0e38, 1e-40, math.inf, -math.inf, math.nan]


@pytest.mark.parametrize("v", UNIFORM, ids=str)
def test_uniform_tiles_record_the_flags_of_their_element(v):
    """A tile of FAST_MIN copies of one value records the flags of that value alone: the
    fast paths' whole-tile tests (all ones for TLOG, all positive, all finite) included."""
    big = np.full((8, -(-FAST_MIN // 8)), v, np.float32)
    one = np.full((1, 1), v, np.float32)

    def flags(call, x):
        with recording() as st:
            with np.errstate(all="ignore"):
                call(x)
        return st.bits

    calls = {m: (lambda x, m=m: K[m](x, None)) for m in ("TLOG", "TSQRT", "TRSQRT", "TRECIP",
                                                           "TEXP")}
    for m, s in (("TADDS", 1.0), ("TMULS", 0.5), ("TDIVS", 3.0), ("TSUBS", 0.1)):
        calls[m] = lambda x, m=m, s=s: K[m](x, int(np.float32(s).view(np.uint32)), None)
    for d in (T.FP16, T.BF16, T.E4M3):
        calls[f"TCVT {d.name}"] = lambda x, d=d: K["TCVT"](x, None, "null", T.FP32, d)
    for name, call in calls.items():
        assert flags(call, big) == flags(call, one), (name, v)
    assert flags(calls["TLOG"], big) == (0 if v == 1.0 else flags(calls["TLOG"], one))
    if v == 1.0:  # log(1) = +0, sqrt(1) = 1, 1 / 1 = 1: exact, no flag
        for m in ("TLOG", "TSQRT", "TRSQRT", "TRECIP"):
            assert flags(calls[m], big) == 0, m


# ---- FP64 TFMA at the tininess boundary ---------------------------------------------------------
@settings(max_examples=examples(60), deadline=None)
@given(j=st.integers(1074, 1112), k=st.sampled_from([1, 3, 5, 7, 2**20 + 1]),
       sign=st.sampled_from([1.0, -1.0]), c_off=st.integers(-2, 2), c_sign=st.sampled_from([1, -1]))
def test_fp64_tfma_flags_at_the_smallest_normal(j, k, sign, c_off, c_sign):
    """Exact values c + a * b within a few 2^-1074 of +-2^-1022: tininess is decided after
    rounding to 53 bits with unbounded exponent (values from 2^-1022 (1 - 2^-54) up round to
    2^-1022: not tiny), the delivered value on the subnormal grid."""
    a = math.ldexp(k, -(j // 2))
    b = sign * math.ldexp(1.0, -(j - j // 2))  # a * b = +-k 2^-j exactly
    c = c_sign * (2.0**-1022 + c_off * 2.0**-1074)
    ab, bb, cb = bits(a), bits(b), bits(c)
    want, want_flags = reference(ab, bb, cb)
    got, got_flags = tfma([ab], [bb], [cb])
    assert (hex(got[0]), flag_names(got_flags)) == (hex(want), flag_names(want_flags)), (a, b, c)


@pytest.mark.parametrize("src", list(SOURCES), ids=lambda t: t.name)
def test_special_values_alone_in_a_tile(src):
    """A tile holding only infinities and / or NaN (no finite value beside them: the block
    scans see an infinity as the largest magnitude) converts them by D20 into every binary
    float destination, in every mode, with and without Sat."""
    dt = SOURCES[src]
    tiles = [[math.inf], [-math.inf], [math.inf, -math.inf], [math.nan], [math.inf, math.nan]]
    for dst in FMT:
        if dst is src or dst is T.FP64:
            continue
        for mode in MODES:
            for sat in (False, True):
                for tile in tiles:
                    x = np.array([tile], dt)
                    out, _ = K["TCVT"](x, None, "null", src, dst, rmode=mode, sat=sat)
                    for i, v in enumerate(tile):
                        want, _ = ref_convert(v, False, dst, mode, sat)
                        got = decode(out[:, i : i + 1], dst)
                        assert got == want, (src, dst, mode, sat, tile)
