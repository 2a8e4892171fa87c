"""HiF8 output encoding (PreQuantModes 25 / 28) and TF32 / HF32 binary arithmetic against
independent scalar references written with fractions.Fraction from the format definitions
(PTO-SPEC 1, 3.3; D4, D5, D7; ``asl/arch/data-types/formats/{hif8,tf32,hf32}.asl``,
``asl/arch/profile/matrix-quantization.asl`` ReferenceFP8Encoding,
``asl/arch/profile/matrix-postprocess.asl`` MatrixFPATREffectiveControl)."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import cube_matrix, quant_param_word
from interpreter.kernels.elementwise import BINARY_ROWS, binary_tile
from interpreter.kernels.postprocess import encode_hif8, lrelu_param_word
from pto_dialect.faults import PTOFault
from pto_dialect.postprocess import Fpatr
from tests.budget import examples

# -- HiF8 reference ------------------------------------------------------------------------


def hif8_ref_value(code: int) -> Fraction | None:
    """HiF8 value by ranges of the 7-bit body (the dot field read as a number range, as in
    ReferenceFP8FiniteValue): None for NaN 0x80 and +-inf 0x6F / 0xEF."""
    if code in (0x80, 0x6F, 0xEF):
        return None
    body, neg = code & 0x7F, code >= 0x80
    two = Fraction(2)
    if body < 8:
        mag = Fraction(0) if body == 0 else two ** (body - 23)
    elif body < 16:
        mag = 1 + Fraction(body - 8, 8)
    else:
        # (first body, exponent-magnitude bits, fraction bits) of D1..D4
        start, ebits, fbits = next(
            row for row in ((96, 3, 1), (64, 2, 2), (32, 1, 3), (16, 0, 3)) if body >= row[0]
        )
        rest = body - start  # [exp sign][ebits exponent magnitude bits][fbits fraction]
        frac = rest % (1 << fbits)
        emag = (rest >> fbits) % (1 << ebits) + (1 << ebits)
        esign = -1 if (rest >> (fbits + ebits)) & 1 else 1
        mag = (1 + Fraction(frac, 1 << fbits)) * two ** (esign * emag)
    return -mag if neg else mag


FINITE = [(c, hif8_ref_value(c)) for c in range(256) if hif8_ref_value(c) is not None]
RMODES = {"rne": 1, "rtz": 2, "rtm": 3, "rtp": 4, "rna": 5, "rto": 6, "rhb": 7}


def hif8_ref_encode(x: Fraction | float, mode: str, sat: bool) -> int:
    """Candidate search over every finite code, like ReferenceFP8Encoding, in Fractions."""
    if isinstance(x, float):
        if math.isnan(x):
            return 0x00 if sat else 0x80
        if math.isinf(x):
            return (0xEE if x < 0 else 0x6E) if sat else (0xEF if x < 0 else 0x6F)
        x = Fraction(x)
    if x == 0:
        return 0
    if abs(x) > 32768:
        return (0xEE if x < 0 else 0x6E) if sat else (0xEF if x < 0 else 0x6F)
    return _hif8_ref_in_range(x, mode)


@functools.cache  # in range, the result does not depend on sat: both sat cases share it
def _hif8_ref_in_range(x: Fraction, mode: str) -> int:
    neg = x < 0
    best = None
    for code, v in FINITE:
        if mode == "rtp" and v < x or mode == "rtm" and v > x:
            continue
        if mode in ("rtz", "rto") and not (x <= v <= 0 if neg else 0 <= v <= x):
            continue
        if best is None:
            best = (code, v)
            continue
        bc, bv = best
        if mode == "rtp":
            better = v < bv
        elif mode == "rtm":
            better = v > bv
        elif mode in ("rtz", "rto"):
            better = v < bv if neg else v > bv
        else:
            dc, db = abs(v - x), abs(bv - x)
            if dc != db:
                better = dc < db
            elif mode == "rne":
                better = code % 2 == 0 and bc % 2 == 1
            elif mode == "rna":
                better = abs(v) > abs(bv)
            else:  # rhb: the larger value
                better = v > bv
        if better:
            best = (code, v)
    code, v = best
    if mode == "rto" and v != x and code % 2 == 0:
        odd = [(c, w) for c, w in FINITE if c % 2 and (w < v if neg else w > v)]
        if odd:
            code = (max if neg else min)(odd, key=lambda cw: cw[1])[0]
    return code


def _probe_points() -> list[Fraction | float]:
    """Every finite value, every midpoint, just either side of each midpoint, both signs;
    plus the overflow boundary and the specials."""
    mags = sorted({abs(v) for _, v in FINITE})
    pts: set[Fraction] = set()
    for lo, hi in zip(mags, mags[1:], strict=False):
        mid = (lo + hi) / 2
        eps = (hi - lo) / 2**20
        pts |= {lo, mid, mid - eps, mid + eps}
    pts |= {Fraction(32768), Fraction(32768) + Fraction(1, 2**20), Fraction(49152),
            Fraction(1, 2**30)}
    out: list[Fraction | float] = sorted(pts) + [-p for p in pts if p]
    return out + [math.inf, -math.inf, math.nan]


PROBES = _probe_points()


def test_hif8_reference_decoder_matches_table():
    """The range decoder here and mx's prefix decoder agree on every code (hif8.asl)."""
    from interpreter.kernels import value_lut
    from pto_dialect.datatypes import TileDataType as T

    lut = value_lut(T.HIF8)
    for c in range(256):
        ref = hif8_ref_value(c)
        if ref is None:
            assert not np.isfinite(lut[c])
        else:
            assert Fraction(float(lut[c])) == ref, hex(c)
    assert hif8_ref_value(0x6E) == 32768 and hif8_ref_value(0x01) == Fraction(1, 2**22)


@pytest.mark.parametrize("sat", [False, True])
def test_hif8_rhb_exhaustive_over_values_and_midpoints(sat):
    """RHB (modes 25/28): every code value, midpoint and near-midpoint, both signs."""
    xs = np.array([float(p) for p in PROBES])
    got = encode_hif8(xs, 7, sat)
    want = [hif8_ref_encode(p, "rhb", sat) for p in PROBES]
    bad = [(p, hex(g), hex(w)) for p, g, w in zip(PROBES, got, want, strict=True) if g != w]
    assert not bad, bad[:5]


def test_hif8_rhb_hand_examples():
    """Ties go toward +inf; no -0; overflow is decided before rounding (> 32768)."""
    x = [1.0625, -1.0625, 2.0**-23, -(2.0**-23), 0.75 * 2**-15, 32768.0, 32768.5, -0.0]
    assert [hex(c) for c in encode_hif8(np.array(x))] == [
        "0x9", "0x88", "0x1", "0x0", "0x7e", "0x6e", "0x6f", "0x0"]
    assert list(encode_hif8(np.array([40000.0, -np.inf, np.nan]), sat=True)) == [0x6E, 0xEE, 0]


@pytest.mark.parametrize("mode", sorted(RMODES))
def test_hif8_every_rounding_mode_on_probes(mode):
    """The other RMode rounding of encode_hif8 (ReferenceFP8Encoding), on every 3rd probe."""
    pts = PROBES[::3]
    got = encode_hif8(np.array([float(p) for p in pts]), RMODES[mode], False)
    for p, g in zip(pts, got, strict=True):
        assert g == hif8_ref_encode(p, mode, False), (mode, p)


@settings(max_examples=150, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True, width=64), st.booleans())
def test_hif8_rhb_random_floats(x, sat):
    assert encode_hif8(np.array([x]), 7, sat)[0] == hif8_ref_encode(x, "rhb", sat)


def _fp32_acc(values) -> np.ndarray:
    return np.array([values], np.float32)


def hif8_post(code, values, *, sat=False, relu=0, **kw):
    """An FP32 accumulator row through PreQuantMode ``code`` (TMATMUL_ACC with A = 0)."""
    n = len(values)
    z = np.zeros((1, 1), np.float32)
    return cube_matrix("TMATMUL_ACC", z, np.zeros((1, n), np.float32), c=_fp32_acc(values),
                       fpatr=Fpatr(pre_quant_mode=code, relu_mode=relu), sat=sat, **kw)[0]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(width=32, allow_nan=True), min_size=1, max_size=6),
    st.sampled_from([1.0, 0.5, 3.0, 2.0**-10, 1.375 * 2**5]),
    st.booleans(),
)
def test_mode25_scalar_scale_against_reference(vals, scale, sat):
    """QF322HIF8_PRE: D = HiF8_RHB(acc * scale) as uint8 codes (PTO-SPEC 3.3)."""
    d = hif8_post(25, vals, sat=sat, quant_scalar=quant_param_word(scale))
    assert d.dtype == np.uint8
    acc = _fp32_acc(vals)[0]
    for x, got in zip(acc.tolist(), d, strict=True):
        ref = x if not math.isfinite(x) else Fraction(x) * Fraction(scale)
        assert got == hif8_ref_encode(ref, "rhb", sat), (x, scale, sat)


def test_mode28_vector_scale_relu_and_specials():
    """VQF322HIF8_PRE: per-column scales; ReLU, LReLU; -0, NaN, +-inf (Sat 0/1)."""
    vals = [1.0625, -1.0625, 3.0, -0.0, np.nan, np.inf, -np.inf, 70000.0]
    scales = [1.0, 1.0, 0.5, 2.0, 1.0, 1.0, 1.0, 0.25]
    q = np.array([quant_param_word(s) for s in scales], np.uint64)
    d = hif8_post(28, vals, quant=q)
    assert [hex(c) for c in d] == [
        "0x9", "0x88", "0xc", "0x0", "0x80", "0x6f", "0xef", "0x6c"]  # 17500 -> 2^14
    d = hif8_post(28, vals, quant=q, sat=True)
    assert [hex(c) for c in d] == [
        "0x9", "0x88", "0xc", "0x0", "0x0", "0x6e", "0xee", "0x6c"]
    d = hif8_post(28, vals, quant=q, relu=1)  # ReLU: negatives (and -inf) -> 0
    assert [hex(c) for c in d] == [
        "0x9", "0x0", "0xc", "0x0", "0x80", "0x6f", "0x0", "0x6c"]
    d = hif8_post(28, [-4.0, -np.inf], quant=q[:2], relu=2,
                  lrelu_scalar=lrelu_param_word(0.25))
    assert [hex(c) for c in d] == ["0x88", "0xef"]  # -4 * 0.25 = -1


def test_mode25_fixes_rhb():
    with pytest.raises(PTOFault, match="fixes its rounding"):
        hif8_post(25, [1.0], quant_scalar=quant_param_word(1.0), rmode="rne")


# -- TF32 / HF32 ---------------------------------------------------------------------------
FBITS = {"TF32": 10, "HF32": 11}
LOW = {"TF32": 13, "HF32": 12}


def round_narrow(q: Fraction, f: int) -> float:
    """RNE of an exact nonzero fraction to f fraction bits, FP32 exponent range, inf on
    overflow (the IEEE rule: the unbounded-exponent result beyond the largest finite)."""
    mag = abs(q)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    ulp = Fraction(2) ** (max(e, -126) - f)
    n = mag / ulp
    r = math.floor(n)
    if n - r > Fraction(1, 2) or (n - r == Fraction(1, 2) and r % 2):
        r += 1
    v = r * ulp
    out = math.inf if v > (2 - Fraction(1, 2**f)) * Fraction(2) ** 127 else float(v)
    return -out if q < 0 else out


def narrow_ref(op: str, a: float, b: float, f: int) -> float:
    """Scalar reference: IEEE specials through float64, finite results exact then rounded."""
    if op in ("TMAX", "TMIN"):
        if math.isnan(a) and math.isnan(b):
            return math.nan
        if math.isnan(a) or math.isnan(b):
            return b if math.isnan(a) else a
        if a == b == 0:
            neg = (math.copysign(1, a) < 0) + (math.copysign(1, b) < 0)
            return -0.0 if (neg == 2 if op == "TMAX" else neg >= 1) else 0.0
        return max(a, b) if op == "TMAX" else min(a, b)
    fin = math.isfinite(a) and math.isfinite(b)
    if not fin or (op in ("TDIV", "TREM") and b == 0):
        with np.errstate(all="ignore"):
            x, y = np.float64(a), np.float64(b)
            if op == "TREM":
                if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0:
                    return math.nan
                # finite a, infinite b: a when the signs agree, else b (D7)
                return a if (a == 0 or (a > 0) == (b > 0)) else b
            return float({"TADD": x + y, "TSUB": x - y, "TMUL": x * y, "TDIV": x / y}[op])
    qa, qb = Fraction(a), Fraction(b)
    if op == "TREM":
        r = qa - qb * math.floor(qa / qb)
        if r == 0:
            return math.copysign(0.0, a)
        return round_narrow(r, f)
    q = {"TADD": qa + qb, "TSUB": qa - qb, "TMUL": qa * qb, "TDIV": qa / qb if b else 0}[op]
    if q == 0:
        if op == "TMUL" or op == "TDIV":
            return math.copysign(0.0, math.copysign(1, a) * math.copysign(1, b))
        sb = -b if op == "TSUB" else b
        both_neg = math.copysign(1, a) < 0 and math.copysign(1, sb) < 0
        return -0.0 if both_neg else 0.0
    return round_narrow(q, f)


def narrow_values(t: str):
    """TF32/HF32 carriers: any 32-bit pattern with the low bits cleared, biased toward
    specials, tiny and huge exponents."""
    shift = LOW[t]
    body = st.integers(0, (1 << (32 - shift)) - 1).map(lambda x: x << shift)
    edge_exp = st.sampled_from([0, 1, 2, 100, 127, 128, 253, 254, 255])
    crafted = st.tuples(st.integers(0, 1), edge_exp, st.integers(0, (1 << FBITS[t]) - 1)).map(
        lambda s: (s[0] << 31) | (s[1] << 23) | (s[2] << shift))
    return st.one_of(body, crafted)


def _bits(x: float) -> int:
    return int(np.array(x, np.float32).view(np.uint32))


@pytest.mark.parametrize("t", ["TF32", "HF32"])
@pytest.mark.parametrize("op", ["TADD", "TSUB", "TMUL", "TDIV", "TREM", "TMAX", "TMIN"])
def test_narrow_fp32_binary_against_fraction_reference(op, t):
    """Every binary row on TF32/HF32: one RNE rounding to the format (bit-exact; a NaN
    result is the canonical 0x7FC00000 and every result keeps its low bits zero)."""

    @settings(max_examples=examples(60), deadline=None)
    @given(st.lists(st.tuples(narrow_values(t), narrow_values(t)), min_size=1, max_size=8))
    def check(pairs):
        a = np.array([p[0] for p in pairs], np.uint32)
        b = np.array([p[1] for p in pairs], np.uint32)
        # float zero divisors are values (inf / NaN), not faults
        res, defined = binary_tile(BINARY_ROWS[op], a, b, None, "null", t, wide_types=True)
        assert res.dtype == np.float32 and defined.all()
        got = res.view(np.uint32).ravel()
        assert not (got & ((1 << LOW[t]) - 1)).any()
        fa, fb = a.view(np.float32).tolist(), b.view(np.float32).tolist()
        for x, y, g in zip(fa, fb, got.tolist(), strict=True):
            want = narrow_ref(op, x, y, FBITS[t])
            if math.isnan(want):
                assert g == 0x7FC00000, (op, x, y, hex(g))
            else:
                assert g == _bits(want), (op, x, y, hex(g), want)

    check()


def test_narrow_fp32_hand_examples():
    """TF32 1 + 2^-11 ties to even (1.0); HF32 keeps it; overflow to inf at max+half ulp."""
    one = np.array([1.0], np.float32)
    r, _ = binary_tile(BINARY_ROWS["TADD"], one, np.array([2.0**-11], np.float32), None,
                       "null", "TF32")
    assert r[0, 0] == 1.0
    r, _ = binary_tile(BINARY_ROWS["TADD"], one, np.array([2.0**-11], np.float32), None,
                       "null", "HF32")
    assert r[0, 0] == 1 + 2.0**-11
    big = np.array([(2 - 2.0**-10) * 2.0**127], np.float32)  # TF32 max finite
    half_ulp = np.array([2.0**116], np.float32)
    r, _ = binary_tile(BINARY_ROWS["TADD"], big, half_ulp, None, "null", "TF32")
    assert np.isposinf(r[0, 0])
    r, _ = binary_tile(BINARY_ROWS["TMUL"], np.array([2.0**-70], np.float32),
                       np.array([-(2.0**-70)], np.float32), None, "null", "TF32")
    assert r[0, 0] == 0 and np.signbit(r[0, 0])  # underflow keeps the sign
    r, _ = binary_tile(BINARY_ROWS["TMUL"], np.array([2.0**-70], np.float32),
                       np.array([1.5 * 2.0**-66], np.float32), None, "null", "TF32")
    assert r[0, 0] == 2.0**-135  # 1.5 subnormal steps of 2^-136 tie to even: 2 steps
    r, _ = binary_tile(BINARY_ROWS["TMUL"], np.array([2.0**-70], np.float32),
                       np.array([1.5 * 2.0**-66], np.float32), None, "null", "HF32")
    assert r[0, 0] == 1.5 * 2.0**-136  # HF32's subnormal step is 2^-137: exact


def test_narrow_fp32_invalid_encoding_faults():
    """A TF32 source element with a low mantissa bit set (TF32EncodingValid) faults in TMAX /
    TMIN (operand-schema.asl checks encodings for MAX / MIN only); the padding outside the
    valid rectangle is never read."""
    a = np.ones((2, 2), np.float32)
    b = a.copy()
    b.view(np.uint32)[1, 1] |= 1
    with pytest.raises(PTOFault, match="low bits"):
        binary_tile(BINARY_ROWS["TMAX"], a, b, None, "null", "TF32")
    r, _ = binary_tile(BINARY_ROWS["TMAX"], a, b, (1, 2), "zero", "TF32")
    assert r[0].tolist() == [1.0, 1.0]
    b.view(np.uint32)[1, 1] = 0x3F800800  # bit 11: legal HF32? no (low 12 bits), TF32 no
    with pytest.raises(PTOFault, match="HF32EncodingValid"):
        binary_tile(BINARY_ROWS["TMAX"], a, b, None, "null", "HF32")
