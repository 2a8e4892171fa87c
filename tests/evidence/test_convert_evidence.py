"""Evidence for the format-conversion family (TCVT, TQUANT, TDEQUANT; D20) against an
INDEPENDENT reference: ``fractions.Fraction`` values rounded with Python integers (no numpy,
no float64 tricks), the D20 range rules written as a table, Python-int wrapping and clamping,
and the ASL's E8M0 exponent rule evaluated on Fractions. Inputs cover every code of the 8-bit
and smaller formats, the FP16 / BF16 specials and subnormals, halfway cases built on purpose,
and the int64 range. Every op also runs through the tile interpreter and as a decoded block.
The spec's AVS pass conditions are in ``tests/conformance/test_avs_convert.py``.
"""

from __future__ import annotations

import math
import os
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_binary_evidence import _bundled

from interpreter import kernels, run
from interpreter.kernels import convert as cv
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault
from tests.convert_reference import FORMAT, MODES, round_int

T = TileDataType
FULL = os.environ.get("PTO_FULL_CONVERT") == "1"
NAN, INF = "nan", "inf"




def ref_float(x, t: TileDataType, mode: str, sat: bool):
    """D20 on an exact value (Fraction, or ('nan'|'inf', sign)): a Fraction with a sign
    flag for zeros, or NAN / (INF, sign)."""
    mbits, emin, mx, has_inf, has_nan = FORMAT[t]
    if x == NAN:
        return NAN if has_nan else (Fraction(0), False)
    if x[0] == INF:  # infinity
        neg = x[1]
        if sat or not (has_inf or has_nan):
            return (-mx if neg else mx, neg)
        return (INF, neg) if has_inf else NAN
    value, neg = x
    if value == 0:
        return (Fraction(0), neg)
    a = abs(value)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    q = Fraction(2) ** (max(e, emin) - mbits)
    r = round_int(value / q, mode) * q
    if abs(r) <= mx:
        return (r, neg)
    if sat or not (has_inf or has_nan):
        return (-mx if neg else mx, neg)
    to_inf = mode in ("rne", "rna", "rhb") or (mode == "rtp" and not neg) or (mode == "rtm" and neg)
    if not to_inf:
        return (-mx if neg else mx, neg)
    return (INF, neg) if has_inf else NAN


def exact(v) -> object:
    """A float carrier value as the reference's input."""
    f = float(v)
    if math.isnan(f):
        return NAN
    if math.isinf(f):
        return (INF, f < 0)
    return (Fraction(f), math.copysign(1, f) < 0)


def got_value(a: np.ndarray, t: TileDataType) -> list:
    if t in (T.E1M2X2, T.HIF4X2):
        vals = [(-1) ** (int(c) >> 3 & 1) * Fraction(int(c) & 7, 4) for c in a]
        return [(v, bool(int(c) & 8)) for v, c in zip(vals, a)]
    out = []
    for v in a.astype(np.float64):
        e = exact(v)
        out.append(e)
    return out


def normalize(r):
    if r == NAN or (isinstance(r, tuple) and r[0] == INF):
        return r
    v, neg = r
    return (v, neg if v == 0 else v < 0)


def all_codes(t: TileDataType) -> np.ndarray:
    n = 16 if t.packed_x2 else 256
    codes = np.arange(n, dtype=np.uint8)
    if t in (T.E3M2, T.E2M3):
        codes = codes[codes < 64]
    if not FULL and n == 256:  # a third of the codes plus every special / top code
        keep = (codes % 3 == 0) | np.isin(codes, [0x7B, 0x7C, 0x7E, 0x7F, 0x80, 0x6E, 0x6F,
                                                  0xEF, 0xFB, 0xFC, 0xFE, 0xFF])
        codes = codes[keep]
    dt = cv.storage(t)
    return codes if dt == np.uint8 else codes.view(dt)


def wide_values(t: TileDataType) -> np.ndarray:
    """FP16 / BF16: every code; FP32 / FP64: boundary and halfway values."""
    if t in (T.FP16, T.BF16):  # specials, subnormals, the top binade and a spread sample
        codes = np.r_[0:12, 0x3C00:0x3C06, 0x7BFC:0x7C02, 0x7E00, 0x8000:0x8004, 0xFC00,
                      0x0400:0x0404, 0x7F7C:0x7F82, 0x3F80:0x3F84, 0:65536:1021]
        return np.unique(codes).astype(np.uint16).view(cv.storage(t))
    base = [0.0, -0.0, 1.0, 1.5, 2.5, -2.5, 65504.0, 65519.99, 65520.0, 1e-8, 2**-24, 2**-25,
            3 * 2**-26, -(2**-25), 448.0, 464.0, 480.0, 1e30, -1e30, math.inf, -math.inf,
            math.nan, 3.4e38, 1.0000001, 2**-149, 2**-126, 7.5, 28.0, 29.0, 0.3]
    rng = np.random.default_rng(7)
    n = 300 if FULL else 60
    extra = rng.standard_normal(n) * 10.0 ** rng.integers(-12, 12, n)
    dt = np.float32 if t is T.FP32 else np.float64
    vals = np.array(base + list(extra), dt)
    if t is T.FP64:  # FP64-only halfway / sticky cases for FP32 and narrower
        vals = np.concatenate([vals, np.array([1 + 2**-24, 1 + 2**-24 + 2**-52, 1 - 2**-25,
                                               2.0**-150, 2.0**-1074, 1e300, -1e300])])
    return vals


SOURCES = [T.E4M3, T.E5M2, T.E3M2, T.E2M3, T.E2M1X2, T.E1M2X2, T.HIF4X2, T.HIF8, T.FP16, T.BF16,
           T.FP32, T.FP64]
DESTS = [T.FP64, T.FP32, T.TF32, T.HF32, T.FP16, T.BF16, T.E4M3, T.E5M2, T.E3M2, T.E2M3,
         T.E2M1X2, T.E1M2X2, T.HIF4X2]


def _source(t: TileDataType) -> np.ndarray:
    return wide_values(t) if t in (T.FP16, T.BF16, T.FP32, T.FP64) else all_codes(t)


def _source_exact(x: np.ndarray, t: TileDataType) -> list:
    if t in (T.HIF8, T.E1M2X2, T.HIF4X2):
        lut = kernels.value_lut(T.E1M2X2 if t is T.HIF4X2 else t)
        out = []
        for c in x:
            v = lut[int(c)]
            neg = bool(int(c) & (0x80 if t is T.HIF8 else 8))
            out.append(NAN if math.isnan(v) else (INF, v < 0) if math.isinf(v)
                       else (Fraction(float(v)), neg))  # fmt: skip
        return out
    return [exact(v) for v in x]


@pytest.mark.parametrize("src", SOURCES, ids=lambda t: t.name)
def test_float_to_float_every_mode_against_fractions(src):
    """Every float source x float destination x RMode x Sat: bit-exact against D20."""
    x = _source(src)
    ex = _source_exact(x, src)
    for k, dst in enumerate(DESTS):
        # every mode x Sat with PTO_FULL_CONVERT=1; by default RNE (both Sat) and one other
        # mode per pair, rotating so that every mode meets every source and destination
        combos = [(m, s) for m in MODES for s in (False, True)] if FULL else [
            ("rne", False), ("rne", True), (MODES[1 + (k + SOURCES.index(src)) % 6], False)]
        for mode, sat in combos:
            if True:
                got = got_value(cv.convert_values(x, src, dst, mode, sat), dst)
                want = [normalize(ref_float(e, dst, mode, sat)) for e in ex]
                bad = [(i, e, g, w) for i, (e, g, w) in enumerate(zip(ex, got, want)) if g != w]
                assert not bad, (src, dst, mode, sat, bad[:3])


def _int_reference_to_float(v: int, dst: TileDataType, mode: str):
    return normalize(ref_float((Fraction(v), v < 0), dst, mode, False))


INT64 = [0, 1, -1, 2**53 + 1, 2**53 + 3, -(2**53) - 1, 2**63 - 1, -(2**63), 2**62 + 2**10 + 1,
         12345678901234567, 2**24 + 1, 2**11 + 1, 65520, -65521, 300]


@pytest.mark.parametrize("mode", MODES)
def test_int_to_float_every_mode(mode):
    """Integers wider than the significand round once (no double rounding through f64)."""
    x = np.array(INT64, np.int64)
    for dst in (T.FP64, T.FP32, T.FP16, T.BF16, T.E4M3, T.TF32):
        got = got_value(cv.convert_values(x, T.S64, dst, mode), dst)
        assert got == [_int_reference_to_float(v, dst, mode) for v in INT64], dst
    u = np.array([2**64 - 1, 2**63 + 2**11 + 1, 7], np.uint64)
    got = got_value(cv.convert_values(u, T.U64, T.FP64, mode), T.FP64)
    assert got == [_int_reference_to_float(int(v), T.FP64, mode) for v in u]


def _bounds(t: TileDataType) -> tuple[int, int]:
    bits = 4 if t in (T.S4X2, T.U4X2) else t.bits
    return (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if t.is_signed else (0, 2**bits - 1)


def _as_int(a: np.ndarray, t: TileDataType) -> list[int]:
    if t is T.S4X2:
        return [int(c) - 16 if int(c) >= 8 else int(c) for c in a]
    return [int(c) for c in a]


INT_TYPES = [T.S64, T.S32, T.S16, T.S8, T.S4X2, T.U64, T.U32, T.U16, T.U8, T.U4X2]


@pytest.mark.parametrize("mode", MODES)
def test_float_to_int_against_python_ints(mode):
    """NaN -> 0, +-inf -> max / min, round under RMode, then clamp (Sat) or wrap (D20)."""
    x = wide_values(T.FP64)
    for dst in INT_TYPES:
        lo, hi = _bounds(dst)
        bits = 4 if dst in (T.S4X2, T.U4X2) else dst.bits
        for sat in (False, True):
            want = []
            for v in x:
                f = float(v)
                if math.isnan(f):
                    want.append(0)
                elif math.isinf(f):
                    want.append(hi if f > 0 else lo)
                else:
                    r = round_int(Fraction(f), mode)
                    if sat:
                        want.append(min(max(r, lo), hi))
                    else:
                        w = r % 2**bits
                        want.append(w - 2**bits if dst.is_signed and w > hi else w)
            got = _as_int(cv.convert_values(x, T.FP64, dst, mode, sat), dst)
            assert got == want, (dst, sat)


def test_int_to_int_every_pair():
    """TileConvertIntegerValue: widen by signedness, narrow to the low bits, or clamp."""
    vals = [0, 1, -1, 7, -8, 127, -128, 255, 300, -300, 2**31, -(2**31) - 5, 2**63 - 1, -(2**63)]
    for src in INT_TYPES:
        lo, hi = _bounds(src)
        sv = sorted({min(max(v, lo), hi) for v in vals})
        if src in (T.S4X2, T.U4X2):
            arr = np.array([v & 0xF for v in sv], np.uint8)
        else:
            arr = np.array(sv, cv.storage(src))
        for dst in INT_TYPES:
            dlo, dhi = _bounds(dst)
            bits = 4 if dst in (T.S4X2, T.U4X2) else dst.bits
            for sat in (False, True):
                got = _as_int(cv.convert_values(arr, src, dst, 0, sat), dst)
                if sat:
                    want = [min(max(v, dlo), dhi) for v in sv]
                else:
                    want = [(v % 2**bits) - (2**bits if dst.is_signed and v % 2**bits > dhi else 0)
                            for v in sv]  # fmt: skip
                assert got == want, (src, dst, sat)


def ref_e8m0(x: Fraction | None, mode: str, sat: bool) -> int:
    """ReferenceFloatToE8M0 on Fractions (None: NaN; 'inf': +inf)."""
    if x is None or (x != "inf" and x <= 0):
        return 0xFF
    if x == "inf":
        return 0xFE if sat else 0xFF
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    power = x == Fraction(2) ** e
    if e < -127:
        return 0 if sat else 0xFF
    if e == 127 and not power:
        return 0xFE if sat else 0xFF
    if power:
        return e + 127
    up = {"rtm": False, "rtp": True, "rtz": e < 0, "rto": e % 2 == 0}.get(mode)
    if up is None:  # nearest: compare with 2^(e + 1/2): (x / 2^e)^2 vs 2
        up = (x / Fraction(2) ** e) ** 2 > 2
    return e + up + 127


@pytest.mark.parametrize("src", [T.FP16, T.BF16, T.FP32], ids=lambda t: t.name)
def test_e8m0_against_reference(src):
    x = wide_values(src) if src is not T.FP32 else np.concatenate(
        [wide_values(T.FP32), np.array([2**-127, 2**-128, 2.0**127, 1.5 * 2**126], np.float32)])
    for mode in MODES:
        for sat in (False, True):
            got = [int(c) for c in cv.convert_values(x, src, T.E8M0, mode, sat).view(np.uint8)]
            want = []
            for v in x.astype(np.float64):
                f = float(v)
                want.append(ref_e8m0(None if math.isnan(f) else "inf" if f == math.inf else
                                     Fraction(-1) if f == -math.inf else Fraction(f), mode, sat))
            assert got == want, (mode, sat)


@settings(max_examples=60, deadline=None)
@given(st.floats(width=32, allow_nan=True, allow_infinity=True), st.sampled_from(MODES),
       st.booleans())
def test_fp32_to_fp16_hypothesis(v, mode, sat):
    x = np.array([v], np.float32)
    (got,) = got_value(cv.convert_values(x, T.FP32, T.FP16, mode, sat), T.FP16)
    assert got == normalize(ref_float(exact(x[0]), T.FP16, mode, sat))


# -- TQUANT / TDEQUANT ------------------------------------------------------------------
def _word(f: float) -> int:
    return int(np.array(f, np.float32).view(np.uint32))


@pytest.mark.parametrize("mode", MODES)
def test_tquant_against_fractions(mode):
    x = np.array([0.0, -0.0, 0.5, 1.5, -2.5, 3.75, 1000.0, -1000.0, 1e30, -1e-30, math.nan,
                  math.inf, -math.inf, 2.0**-149, 127.4], np.float32)
    for scale in (1.0, 0.3, 2.0**-20):
        for t, zp in ((T.S8, -3), (T.U8, 128)):
            lo, hi = _bounds(t)
            for sat in (False, True):
                want = []
                for v in x:
                    f = float(v)
                    if math.isnan(f):
                        want.append(0)
                        continue
                    if math.isinf(f):
                        want.append(hi if f > 0 else lo)
                        continue
                    r = round_int(Fraction(f) * Fraction(float(np.float32(scale))) + zp, mode)
                    if sat:
                        want.append(min(max(r, lo), hi))
                    else:
                        w = r % 256
                        want.append(w - 256 if t is T.S8 and w > 127 else w)
                got, dfn = kernels.KERNELS["TQUANT"](x.reshape(1, -1), _word(scale), zp, None, t,
                                                     rmode=mode, sat=sat)  # fmt: skip
                assert dfn.all() and [int(g) for g in got[0]] == want, (scale, t, sat)


def ref_dequant(v: Fraction, mode: str):
    """ReferenceFP32FiniteEncoding: 0 -> +0; |v| >= 2^128 -> +-inf in every mode; else
    one rounding to FP32 (a carry past the largest finite value is inf)."""
    if v == 0:
        return (Fraction(0), False)
    if abs(v) >= 2**128:
        return (INF, v < 0)
    return normalize(ref_float((v, v < 0), T.FP32, mode, False))


@pytest.mark.parametrize("mode", MODES)
def test_tdequant_against_fractions(mode):
    q = np.arange(-128, 128, dtype=np.int8)
    for scale in (1.0, 0.1, 3.0e38, 2.0**-140):
        s = Fraction(float(np.float32(scale)))
        got, _ = kernels.KERNELS["TDEQUANT"](q.reshape(1, -1), _word(scale), 5, None, T.S8,
                                             rmode=mode)  # fmt: skip
        want = [ref_dequant((int(v) - 5) * s, mode) for v in q]
        assert [exact(g) for g in got[0]] == want, scale


def test_quant_scalars_fault_before_effect():
    x = np.ones((1, 4), np.float32)
    for bad in (0, _word(-1.0), _word(math.inf), _word(math.nan), 1 << 40):
        with pytest.raises(PTOFault, match="TileQuantizationScaleLegal"):
            kernels.KERNELS["TQUANT"](x, bad, 0, None, T.S8)
    with pytest.raises(PTOFault, match="TileQuantizationZeroPointLegal"):
        kernels.KERNELS["TQUANT"](x, None, 200, None, T.S8)
    with pytest.raises(PTOFault, match="TileQuantizationZeroPointLegal"):
        kernels.KERNELS["TDEQUANT"](np.zeros((1, 4), np.uint8), None, -1, None, T.U8)


# -- execution through both engines and as decoded blocks ---------------------------------
PROGRAM = """
func.func @f(%a: !pto.tile<8x16xf32, valid=8x10>, %m: i64, %z: i64)
    -> (!pto.tile<8x16xsi16, valid=8x10>, !pto.tile<8x16xsi8, valid=8x10>,
        !pto.tile<8x16xf32, valid=8x10>) {
  %d = pto.tcvt %a {rmode = #pto.rmode<rtm>, sat, pad = #pto.pad<zero>}
      : (!pto.tile<8x16xf32, valid=8x10>) -> !pto.tile<8x16xsi16, valid=8x10>
  %q = pto.tquant %a, %m, %z {rmode = #pto.rmode<rna>, sat}
      : (!pto.tile<8x16xf32, valid=8x10>, i64, i64) -> !pto.tile<8x16xsi8, valid=8x10>
  %x = pto.tdequant %q, %m, %z : (!pto.tile<8x16xsi8, valid=8x10>, i64, i64)
      -> !pto.tile<8x16xf32, valid=8x10>
  func.return %d, %q, %x : !pto.tile<8x16xsi16, valid=8x10>, !pto.tile<8x16xsi8, valid=8x10>,
      !pto.tile<8x16xf32, valid=8x10>
}
"""
EXECUTED = {"pto.tcvt", "pto.tquant", "pto.tdequant"}


def test_tile_and_decoded_execution_agree():
    a = ((np.arange(80, dtype=np.float32).reshape(8, 10) - 40) * np.float32(1.37))
    m, z = _word(0.5), -3
    tile = run(PROGRAM, "f", a, m, z)
    decoded = run(_bundled(PROGRAM), "f", a, m, z)
    assert [int(v) for v in tile[0][0, 0, :3]] == [math.floor(float(v)) for v in a[0, :3]]
    want_q = [round_int(Fraction(float(v)) / 2 - 3, "rna") for v in a[1]]
    assert [int(v) for v in tile[1][0, 1]] == [min(max(w, -128), 127) for w in want_q]
    assert [float(v) for v in tile[2][0, 1]] == [(w + 3) / 2 for w in want_q]
    for t, d in zip(tile, decoded):
        assert t.dtype == d.dtype and np.array_equal(t.view(np.uint8), d.view(np.uint8))


def test_bad_multiplier_faults_at_the_op_with_no_result():
    with pytest.raises(Exception, match="TileQuantizationScaleLegal"):
        run(PROGRAM, "f", np.ones((8, 10), np.float32), 0, 0)


def test_fast_paths_equal_the_generic_path():
    """The RNE casts used for speed (convert._FAST) equal the generic exact rounding."""
    for src, dst in sorted(cv._FAST):
        x = _source(src)
        fast = cv.convert_values(x, src, dst, "rne")
        slow = cv.encode_float(cv.round_float(cv.source_values(x, src), dst, cv.RNE, False), dst)
        assert np.array_equal(fast.view(np.uint8), slow.view(np.uint8)), (src, dst)


def test_e8m0_bf16_storage_round_trip():
    """E8M0 results are ml_dtypes float8_e8m0fnu carriers (the interpreter's storage)."""
    r = cv.convert_values(np.array([1.0, 4.0], ml_dtypes.bfloat16), T.BF16, T.E8M0)
    assert r.dtype == np.dtype(ml_dtypes.float8_e8m0fnu) and list(r.astype(float)) == [1.0, 4.0]


# -- FP64 TFMA (one rounding of a 106-bit product) ---------------------------------------
def _fma_reference(a: float, b: float, c: float) -> float:
    """RNE(a * b + c) with integers: scale to a common exponent, round the integer sum at
    the float64 grid by hand (ties to even), subnormals at 2^-1074."""
    if a * b == 0 or c == 0 or not all(map(math.isfinite, (a, b, c))):
        return a * b + c
    x = Fraction(a) * Fraction(b) + Fraction(c)
    if x == 0:
        return 0.0
    n, d = abs(x.numerator), x.denominator
    e = n.bit_length() - d.bit_length()
    if (n << max(0, -e)) < (d << max(0, e)):
        e -= 1
    q = max(e, -1022) - 52  # the grid step is 2^q
    num, den = (n, d << q) if q >= 0 else (n << -q, d)
    m, rem = divmod(num, den)
    if 2 * rem > den or (2 * rem == den and m % 2):
        m += 1
    try:
        v = math.ldexp(m, q)  # m <= 2^53: exact unless it overflows
    except OverflowError:
        v = math.inf
    return v if x > 0 else -v


def test_tfma_fp64_single_rounding():
    """Halfway and near-halfway products, cancellation, huge and tiny exponents (the rare
    exact-rational lanes included): bit-exact against the integer reference."""
    from interpreter.kernels.ternary import fma_f64

    rng = np.random.default_rng(11)
    n = 600
    a = (1 + rng.integers(0, 2**52, n) * 2.0**-52) * np.ldexp(1.0, rng.integers(-40, 40, n))
    b = (1 + rng.integers(0, 2**52, n) * 2.0**-52) * np.ldexp(1.0, rng.integers(-40, 40, n))
    tiny = rng.choice([0.0, 1.0, -1.0], n) * np.ldexp(1.0, rng.integers(-140, -60, n))
    c = -(a * b) * rng.choice([1.0, 0.5, 1 - 2**-30], n) + tiny
    wild = [rng.standard_normal(200) * np.ldexp(1.0, rng.integers(-700, 700, 200)) for _ in "abc"]
    edge = np.array([[1 + 2**-52, 1 - 2**-53, -1.0], [2.0**-537, 2.0**-537, 2.0**-1074],
                     [1e300, 1e10, -1e308], [3.0, 2.0**-1074, -(2.0**-1073)],
                     [-0.0, 5.0, -0.0], [math.inf, 0.0, 1.0]]).T  # fmt: skip
    for x, y, z in ((a, b, c), tuple(wild), tuple(edge)):
        got = fma_f64(x, y, z)
        for g, u, v, w in zip(got, x, y, z):
            want = _fma_reference(float(u), float(v), float(w))
            assert (math.isnan(g) and math.isnan(want)) or (
                g == want and math.copysign(1, g) == math.copysign(1, want)), (u, v, w)
    got, _ = kernels.tfma_tile(np.array([[1 + 2**-52]]), np.array([[1 - 2**-52]]),
                               np.array([[-1.0]]), None)  # fmt: skip
    assert float(got[0, 0]) == -(2.0**-104)


# -- tensor-level pto.convert: whole-tensor TCVT == the lowered tile program ---------------
TENSOR_PROGRAM = """
func.func @f(%x: tensor<40x24xf32>) -> (tensor<40x24xi16>, tensor<40x24xf16>, tensor<40x24xi8>,
                                        tensor<40x24xf64>) {
  %a = pto.convert %x {rmode = #pto.rmode<rtm>, sat, dst_sign = "signed"}
      : tensor<40x24xf32> -> tensor<40x24xi16>
  %b = pto.convert %x : tensor<40x24xf32> -> tensor<40x24xf16>
  %c = pto.convert %a {src_sign = "signed", dst_sign = "unsigned"}
      : tensor<40x24xi16> -> tensor<40x24xi8>
  %d = pto.convert %b : tensor<40x24xf16> -> tensor<40x24xf64>
  func.return %a, %b, %c, %d : tensor<40x24xi16>, tensor<40x24xf16>, tensor<40x24xi8>,
      tensor<40x24xf64>
}
"""


def test_tensor_convert_lowers_bit_exactly():
    from interpreter.ssa.runner import build_context, parse_module_text
    from passes import get_all_passes

    x = (np.random.default_rng(0).standard_normal((40, 24)) * 300).astype(np.float32)
    want = run(TENSOR_PROGRAM, "f", x)
    assert [int(v) for v in want[0][0, :4]] == [math.floor(float(v)) for v in x[0, :4]]
    assert [int(v) for v in want[2][0, :4]] == [math.floor(float(v)) % 256 - (
        256 if math.floor(float(v)) % 256 > 127 else 0) for v in x[0, :4]]  # fmt: skip
    for tile_bytes in (65536, 256):  # 256 B tiles: loops of decoded blocks (compiled engine)
        ctx = build_context()
        m = parse_module_text(TENSOR_PROGRAM, ctx=ctx)
        passes = get_all_passes()
        passes["pto-tile-to-capacity"]()(tile_bytes=tile_bytes).apply(ctx, m)
        for name in ("pto-form-blocks", "pto-assign-registers"):
            passes[name]()().apply(ctx, m)
        m.verify()
        assert "pto.convert" not in str(m) and str(m).count("pto.b.start TCVT") >= 4
        for a, b in zip(want, run(m, "f", x)):
            assert a.dtype == b.dtype and np.array_equal(a.view(np.uint8), b.view(np.uint8))


@settings(max_examples=40, deadline=None)
@given(st.integers(-(2**63), 2**63 - 1), st.sampled_from(MODES),
       st.sampled_from([T.FP64, T.FP32, T.BF16, T.E5M2]))
def test_int64_to_float_hypothesis(v, mode, dst):
    got = got_value(cv.convert_values(np.array([v], np.int64), T.S64, dst, mode), dst)
    assert got == [_int_reference_to_float(v, dst, mode)]


@settings(max_examples=40, deadline=None)
@given(st.floats(width=32, allow_nan=False, allow_infinity=False),
       st.floats(min_value=2.0**-60, max_value=2.0**60, width=32), st.integers(-128, 127),
       st.sampled_from(MODES), st.booleans())
def test_tquant_hypothesis(x, scale, zp, mode, sat):
    got, _ = kernels.KERNELS["TQUANT"](np.array([[x]], np.float32), _word(scale), zp, None,
                                       T.S8, rmode=mode, sat=sat)  # fmt: skip
    r = round_int(Fraction(x) * Fraction(scale) + zp, mode)
    want = min(max(r, -128), 127) if sat else (r + 128) % 256 - 128
    assert int(got[0, 0]) == want


def test_default_rounding_overflows_like_rne():
    """RMode 0 (default) is RNE for TCVT: FP32 -> FP16 beyond the largest finite value goes
    to infinity from the halfway point 65520 (between 65504 and 2^16) on; RTZ saturates.
    Hand-derived; kills the mutant that drops mode 0 from the to-infinity modes (issue 27)."""
    x = np.array([[1e6, -1e6, 70000.0, 65519.0, 65520.0, 1.0, -0.0, 3.0]], np.float32)
    inf = math.inf
    want = [inf, -inf, inf, 65504.0, inf, 1.0, -0.0, 3.0]
    for rmode in (0, 1):  # default, RNE
        got, _ = cv.tcvt_tile(x, None, "null", TileDataType.FP32, TileDataType.FP16, rmode=rmode)
        assert got.astype(np.float64).tolist()[0] == want
    got, _ = cv.tcvt_tile(x, None, "null", TileDataType.FP32, TileDataType.FP16, rmode=2)  # RTZ
    assert got.astype(np.float64).tolist()[0] == [65504.0, -65504.0, 65504.0, 65504.0, 65504.0, 1.0, -0.0, 3.0]


def test_payloads_are_two_dimensional():
    """A 3-D payload is a TileLegality fault, not a numpy error (issue 27 mutation survivor)."""
    with pytest.raises(PTOFault, match=r"\[TileLegality\] tile payloads are 2-D, got \(1, 2, 4\)"):
        cv.tcvt_tile(np.zeros((1, 2, 4), np.float32), None, "null", TileDataType.FP32, TileDataType.FP16)


def _int_want(f: float, dst: TileDataType, mode: str, sat: bool) -> int:
    """D20 float -> integer on one Python float: NaN 0, +-inf max / min, else round under
    the mode, then clamp (Sat) or wrap modulo 2^bits."""
    lo, hi = _bounds(dst)
    bits = 4 if dst in (T.S4X2, T.U4X2) else dst.bits
    if math.isnan(f):
        return 0
    if math.isinf(f):
        return hi if f > 0 else lo
    r = round_int(Fraction(f), mode)
    if sat:
        return min(max(r, lo), hi)
    w = r % 2**bits
    return w - 2**bits if dst.is_signed and w > hi else w


@pytest.mark.parametrize("src", [T.FP32, T.FP64], ids=lambda t: t.name)
def test_float_to_int_at_the_destination_bounds(src):
    """Values at and around each destination's bounds (lo - 1, lo - 1/2, lo, hi, hi + 1/2,
    hi + 1, as the source format holds them) in every mode, Sat and not, one type at a
    time and mixed with a NaN (the exact path): the truncating fast path's open interval
    (lo - 1, hi + 1), the in-range check and the Sat clamp are decided exactly there."""
    dt = np.float32 if src is T.FP32 else np.float64
    for dst in INT_TYPES:
        lo, hi = _bounds(dst)
        vals = sorted({float(dt(b + d)) for b in (lo, hi) for d in (-1.5, -1, -0.5, 0, 0.5, 1, 1.5)})
        for mode in MODES:
            for sat in (False, True):
                for x in [np.array([v], dt) for v in vals] + [np.array(vals + [math.nan], dt)]:
                    got = _as_int(cv.convert_values(x, src, dst, mode, sat), dst)
                    want = [_int_want(float(v), dst, mode, sat) for v in x]
                    assert got == want, (src, dst, mode, sat, x)


def _quant_want(f: float, scale: float, zp: int, t: TileDataType, mode: str, sat: bool) -> int:
    lo, hi = _bounds(t)
    if math.isnan(f):
        return 0
    if math.isinf(f):
        return hi if f > 0 else lo
    r = round_int(Fraction(f) * Fraction(float(np.float32(scale))) + zp, mode)
    if sat:
        return min(max(r, lo), hi)
    w = r % 256
    return w - 256 if t is T.S8 and w > 127 else w


@pytest.mark.parametrize("mode", ["rne", "rtp"])
def test_tquant_of_a_strided_valid_region_and_no_zero_point(mode):
    """A valid region narrower than the tile is a strided view (RNE's whole-array path, not
    the contiguous span loop); no zero point operand is zero point 0; a word above 2^63 is
    a two's complement zero point (2^64 - 3 is -3)."""
    finite = np.array([[0.5, 1.5, -2.5, 127.4, 300.0, -0.5, 2.5, 7.0],
                       [-1.5, 3.5, 1e3, 5.5, -300.0, 0.25, 64.5, 9.0]], np.float32)
    special = finite.copy()
    special[1, 2:4] = 1e30, math.nan  # the exact path for the whole strided view
    for x, (zp_word, zp) in ((finite, (None, 0)), (special, (None, 0)), (special, (2**64 - 3, -3))):
        for sat in (False, True):
            got, dfn = kernels.KERNELS["TQUANT"](x, _word(0.5), zp_word, (2, 6), T.S8,
                                                 rmode=mode, sat=sat)  # fmt: skip
            want = [[_quant_want(float(v), 0.5, zp, T.S8, mode, sat) for v in row[:6]]
                    for row in x]
            assert [[int(g) for g in row[:6]] for row in got] == want, (zp, sat)
            assert dfn[:, :6].all() and not dfn[:, 6:].any()


def test_conversion_inputs_fault_with_their_rule():
    """Bad payloads and type pairs fault (TileLegality) naming the rule, before any result."""
    cases = [
        (lambda: cv.convert_values(np.array([0x40], np.uint8), T.E3M2, T.FP32),
         "E3M2 element with nonzero high carrier bits"),
        (lambda: cv.convert_values(np.array([1], np.int8), T.S8, T.E8M0),
         "E8M0 destination takes FP16, BF16 or FP32 sources, not S8"),
        (lambda: cv.tcvt_tile(np.zeros((2, 2)), None, src_type=T.FP32, dst_type=T.FP16),
         "FP32 payload must have dtype float32, got float64"),
        (lambda: cv.tquant_tile(np.zeros((2, 2), np.float32), dst_type=T.S16),
         "TQUANT destinations are S8 or U8, not S16"),
        (lambda: cv.tquant_tile(np.zeros((2, 2)), dst_type=T.S8),
         "FP32 payload must be float32, got float64"),
        (lambda: cv.tdequant_tile(np.zeros((2, 2), np.int16), src_type=T.S16),
         "TDEQUANT sources are S8 or U8, not S16"),
        (lambda: cv.tdequant_tile(np.zeros((2, 2), np.uint8), src_type=T.S8),
         "S8 payload must be int8, got uint8"),
    ]
    for call, match in cases:
        with pytest.raises(PTOFault, match=match) as e:
            call()
        assert e.value.kind == "TileLegality", match


def test_a_one_dimensional_payload_is_one_row():
    got, dfn = cv.tcvt_tile(np.array([1.5, -2.5, 3.0], np.float32), None, src_type=T.FP32,
                            dst_type=T.S16, rmode="rna")
    assert got.shape == (1, 3) and got.tolist() == [[2, -3, 3]] and dfn.all()


@pytest.mark.parametrize("mode", ["rtz", "rtm", "rtp"])
@pytest.mark.parametrize(("src", "dst"), [(T.FP64, T.FP32), (T.FP64, T.FP16), (T.FP32, T.FP16)],
                         ids=lambda t: t.name)
def test_directed_narrowing_against_fractions(src, dst, mode):
    """The directed roundings derived from the RNE cast (FP64 -> FP32 / FP16, and the
    carrier-word FP32 -> FP16 path) in every direction, Sat off, against D20 on exact
    values: both neighbours, signed zeros, overflow to the largest finite value or infinity."""
    x = _source(src)
    ex = _source_exact(x, src)
    got = got_value(cv.convert_values(x, src, dst, mode, False), dst)
    want = [normalize(ref_float(e, dst, mode, False)) for e in ex]
    bad = [(e, g, w) for e, g, w in zip(ex, got, want) if g != w]
    assert not bad, bad[:3]
