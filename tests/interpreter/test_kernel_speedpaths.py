"""The blocked / pass-free fast paths of the elementwise and conversion kernels against
independent references (Python scalars, ``math``, ``fractions.Fraction``, a table of every
FP16 value), on tiles larger than one block (``nanfix.SPAN``) with specials planted at the
block edges:

* tile-scalar ADD / SUB / MUL / DIV skip the NaN test when the scalar's algebra creates no
  NaN (``BinaryRow.nan_with``; ``TileProfileBinaryWithFlags``, IEEE 754 7.2 invalid
  operations; ``TileNumericCanonicalNaN`` for created NaNs);
* TRELU on integer words (``TileFloatingUnaryValue``: RELU gives +0 for negatives and -0,
  the canonical NaN for NaN);
* TSQRT's unsigned-min NaN rewrite (``TileSFUUnarySpecialValue``: every NaN canonical,
  sqrt(+-0) = +-0, sqrt(x < 0) = NaN);
* FP32 -> FP16 under RTZ / RTM / RTP on carrier words (D20; IEEE 754 4.3.2, 7.4);
* TQUANT RNE block by block (``TileProfileQuantize``,
  asl/arch/profile/reference-quantization.asl);
* no UF scan for tile-scalar ADD / SUB (a tiny sum is exact) and TSQRT (never tiny).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from interpreter.kernels import KERNELS
from interpreter.kernels.convert import convert_values, tquant_tile
from interpreter.kernels.elementwise import BINARY_ROWS
from interpreter.kernels.nanfix import SPAN
from interpreter.kernels.status import NX, UF, recording
from pto_dialect.datatypes import TileDataType as T

QNAN32 = 0x7FC00000
SPECIAL32 = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF,
             0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001,
             0x7FFFFFFF, 0x7FC00005, 0x3F800000, 0xBF800000, 0x40490FDB]  # fmt: skip


def _tile(words: np.ndarray, cols: int = 256) -> np.ndarray:
    """A float32 tile of more than one block with the specials at the start, at the block
    edges and at the end."""
    rng = np.random.default_rng(7)
    n = 2 * SPAN + 3 * cols
    w = (rng.standard_normal(n) * 8).astype(np.float32).view(np.uint32)
    special = np.asarray(words, np.uint32)
    for at in (0, SPAN - len(special) // 2, 2 * SPAN - 1, n - len(special)):
        w[at : at + len(special)] = special
    return w.view(np.float32).reshape(-1, cols)


def _word(v: float) -> int:
    return int(np.array(v, np.float32).view(np.uint32))


def _py(op: str, x: float, s: float) -> float:
    """IEEE binary op on Python floats (exact inputs; float64 result, rounded by the caller)."""
    if op == "TDIVS" and s == 0:
        if math.isnan(x) or x == 0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, s)
    if op == "TADDS":
        return x + s
    if op == "TSUBS":
        return x - s
    return x * s if op == "TMULS" else x / s


@pytest.mark.parametrize("op", ["TADDS", "TSUBS", "TMULS", "TDIVS"])
@pytest.mark.parametrize("s", [1.0, -2.5, 2.0**-140, 3.0e38, 0.0, -0.0, math.inf, -math.inf])
def test_tile_scalar_nan_rule_matches_python(op, s):
    s = float(np.float32(s))  # the scalar's FP32 value
    a = _tile(SPECIAL32)
    got = KERNELS[op](a, _word(s), None)[0]
    flat, res = a.reshape(-1), got.reshape(-1).view(np.uint32)
    idx = np.unique(np.r_[np.flatnonzero(~np.isfinite(flat)), np.arange(0, flat.size, 997)])
    created = False
    for i in idx:
        x = float(flat[i])
        want = _py(op, x, s)
        if math.isnan(want):
            assert np.isnan(res[i : i + 1].view(np.float32))[0]
            if not math.isnan(x):  # created by an invalid operation: the canonical NaN
                created = True
                assert res[i] == QNAN32, (op, s, x, hex(res[i]))
        else:
            assert res[i] == _word(want), (op, s, x)  # float64 then FP32: innocuous rounding
    # the row's algebra: a scalar for which it predicts no created NaN creates none
    if not BINARY_ROWS[op[:-1]].nan_with(s):
        assert not created


def _relu_word(w: int) -> int:
    x = float(np.array(w, np.uint32).view(np.float32))
    if math.isnan(x):
        return QNAN32
    return w if x > 0 else 0


def test_relu_words_cross_blocks():
    a = _tile(SPECIAL32)
    got = KERNELS["TRELU"](a, None)[0].reshape(-1).view(np.uint32)
    words = a.reshape(-1).view(np.uint32)
    for i in np.unique(np.r_[np.arange(0, words.size, 613), np.flatnonzero(~np.isfinite(a.reshape(-1)))]):
        assert got[i] == _relu_word(int(words[i]))
    assert not np.any(got.view(np.float32) < 0)


def _sqrt_word(w: int) -> int:
    x = float(np.array(w, np.uint32).view(np.float32))
    if math.isnan(x) or x < 0:
        return QNAN32
    if x == 0:
        return w  # sqrt(+-0) = +-0
    return _word(math.sqrt(x))  # float64 sqrt then FP32: correctly rounded (53 >= 2*24+2)


@pytest.mark.parametrize("with_neg_zero", [False, True])
def test_sqrt_min_rewrite_matches_math(with_neg_zero):
    special = [w for w in SPECIAL32 if with_neg_zero or w != 0x80000000]
    a = _tile(special)
    a[a == 0] = 0.0  # the only -0 sources are the planted ones
    if not with_neg_zero:
        assert not np.any(np.signbit(a) & (a == 0))
    got = KERNELS["TSQRT"](a, None)[0].reshape(-1).view(np.uint32)
    words = a.reshape(-1).view(np.uint32)
    assert np.count_nonzero(np.isnan(got.view(np.float32))) > SPAN // 2  # a dense NaN pattern
    for i in np.unique(np.r_[np.arange(0, words.size, 509), np.flatnonzero(~(a.reshape(-1) > 0))[::7]]):
        assert got[i] == _sqrt_word(int(words[i])), hex(words[i])


def _f16_table() -> np.ndarray:
    v = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16).astype(np.float64)
    return np.unique(v[np.isfinite(v)])  # every finite FP16 value, ascending (one zero)


def _directed_ref(x: float, mode: str, table: np.ndarray) -> float:
    """IEEE 754 directed rounding of the exact value x to FP16 by search in the value table
    (FP32 and FP16 values are exact in float64), with 7.4's overflow and signed zeros."""
    if math.isnan(x):
        return math.nan
    if math.isinf(x) or x == 0:
        return x
    down = table[np.searchsorted(table, x, side="right") - 1] if x >= table[0] else -math.inf
    up = table[np.searchsorted(table, x, side="left")] if x <= table[-1] else math.inf
    toward = {"rtm": down, "rtp": up, "rtz": down if x > 0 else up}[mode]
    return math.copysign(0.0, x) if toward == 0 else toward


@pytest.mark.parametrize("mode", ["rtz", "rtm", "rtp"])
def test_f32_to_f16_directed_matches_value_table(mode):
    table = _f16_table()
    rng = np.random.default_rng(11)
    edges = np.array([65504, 65505, 65519.996, 65520, 65536, 1e30, 2.0**-14, 2.0**-24, 2.0**-25,
                      3 * 2.0**-26, 2.0**-30, 1.0 + 2.0**-11, 1.0 + 3 * 2.0**-12], np.float32)  # fmt: skip
    words = np.r_[
        np.asarray(SPECIAL32, np.uint32),
        np.arange(0, 1 << 32, 65521, dtype=np.uint64).astype(np.uint32),  # every binade
        rng.integers(0x33000000, 0x38800000, 4000, dtype=np.uint32),  # FP16 subnormal range
        edges.view(np.uint32), (-edges).view(np.uint32),
    ]
    x = np.resize(words, SPAN + 4099).view(np.float32).reshape(1, -1)
    got = convert_values(x, T.FP32, T.FP16, mode).reshape(-1)
    for xi, gi in zip(x.reshape(-1)[: words.size], got[: words.size]):
        want = _directed_ref(float(xi), mode, table)
        if math.isnan(want):
            assert gi.view(np.uint16) == 0x7E00
        else:
            assert gi.view(np.uint16) == np.array(want, np.float16).view(np.uint16), (xi, mode)


def _quant_ref(x: float, scale: float, zp: int, lo: int, hi: int, sat: bool) -> int:
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return hi if x > 0 else lo
    q = round(Fraction(x) * Fraction(scale) + zp)  # Python rounds halves to even (RNE)
    if sat:
        return min(max(q, lo), hi)
    return (q - lo) % (hi - lo + 1) + lo  # the low 8 bits, read in the type


@pytest.mark.parametrize("sat", [True, False])
@pytest.mark.parametrize("dst,zp", [(T.S8, 3), (T.S8, -128), (T.U8, 255), (T.U8, 0)])
def test_tquant_blocks_match_fraction_reference(dst, zp, sat):
    a = _tile(SPECIAL32) * np.float32(40)  # specials, halves and out-of-range values
    a[5, :16] = np.float32([0.5, 1.5, 2.5, -0.5, -1.5, 3e9, -3e9, 1e-30, 127.5, 126.5, -128.5,
                            255.5, 7.25, -7.75, 2.0**24, -(2.0**24)])  # fmt: skip
    scale = 0.5
    got = tquant_tile(a, _word(scale), zp, None, dst, rmode="rne", sat=sat)[0].reshape(-1)
    lo, hi = (-128, 127) if dst is T.S8 else (0, 255)
    flat = a.reshape(-1)
    for i in np.unique(np.r_[np.arange(0, flat.size, 811), np.arange(5 * 256, 5 * 256 + 16),
                             np.flatnonzero(~np.isfinite(flat))]):  # fmt: skip
        assert int(got[i]) == _quant_ref(float(flat[i]), scale, zp, lo, hi, sat), flat[i]


def _flags(kernel, *args) -> int:
    with recording() as st:
        kernel(*args)
    return st.bits


@pytest.mark.parametrize("op", ["TADDS", "TSUBS"])
def test_tiny_sums_are_exact_no_uf(op):
    """A sum of two FP32 values below the smallest normal is exact, so never UF; products
    of such values do underflow (the reference: Fractions)."""
    rng = np.random.default_rng(3)
    a = (rng.integers(-(1 << 23), 1 << 23, 4096) * 2.0**-149).astype(np.float32).reshape(16, -1)
    s = 5 * 2.0**-149
    got = KERNELS[op](a, _word(s), None)[0]
    for x, r in zip(a.reshape(-1)[:512], got.reshape(-1)[:512]):
        exact = Fraction(float(x)) + (Fraction(s) if op == "TADDS" else -Fraction(s))
        assert Fraction(float(r)) == exact
    assert _flags(KERNELS[op], a, _word(s), None) == 0
    assert _flags(KERNELS["TMULS"], a, _word(0.5), None) == UF | NX  # odd multiples halve


def test_sqrt_flags_no_uf():
    """sqrt of the smallest FP32 subnormal is 2^-74.5, far above 2^-126: NX, never UF."""
    a = np.full((16, 256), np.float32(2.0**-149))
    a[0, :3] = np.float32([4.0, 2.0**-148, 3.0e38])
    assert _flags(KERNELS["TSQRT"], a, None) == NX
    assert _flags(KERNELS["TSQRT"], np.full((16, 256), np.float32(4.0)), None) == 0
