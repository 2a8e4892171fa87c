"""Numeric status flags (NV DZ OF UF NX; ``RecordNumericStatusFlags``) against an independent
reference: exact rational arithmetic (``fractions.Fraction``) on the operands' values and the
IEEE 754 definitions of the five exceptions, written without the kernels' error-free
transformations; hand-derived examples for the transcendentals; run-level stickiness,
engine agreement and fault atomicity (D12) through :func:`interpreter.run` and ``pto-run``.

Reference rules (IEEE 754 default exception handling, tininess after rounding):
NV  an operand is a signalling NaN, or the operation is invalid (inf - inf, 0 x inf, 0 / 0,
    inf / inf, sqrt / log of a negative, x rem 0, inf rem y);
DZ  a finite nonzero divided by zero, the log / reciprocal / rsqrt of zero;
OF  finite operands, a result too large for the format (inf, or NaN for E4M3);
NX  the delivered result differs from the exact one (or overflowed);
UF  NX and the delivered result's magnitude is below the smallest normal.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import NumericStatus, run
from interpreter.kernels import KERNELS as K
from interpreter.kernels import convert as cv
from interpreter.kernels.status import DZ, NV, NX, OF, UF, flag_names, recording
from interpreter.tools import pto_run
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from tests.budget import examples

FORMATS = {  # type: (numpy carrier, smallest normal, bits of the quiet flag of a NaN)
    T.FP32: (np.float32, Fraction(1, 2**126), 1 << 22),
    T.FP16: (np.float16, Fraction(1, 2**14), 1 << 9),
    T.BF16: (np.dtype(ml_dtypes.bfloat16), Fraction(1, 2**126), 1 << 6),
    T.FP64: (np.float64, Fraction(1, 2**1022), 1 << 51),
}


def _raw(value: float, t: T) -> int:
    carrier = FORMATS[t][0]
    with np.errstate(over="ignore"):  # a float64 draw beyond the format is its infinity
        return int(np.array(value, carrier).view(f"u{np.dtype(carrier).itemsize}"))


def _is_snan(bits: int, t: T) -> bool:
    carrier, _, quiet = FORMATS[t]
    width = np.dtype(carrier).itemsize * 8
    x = float(np.array(bits, f"u{width // 8}").view(carrier))
    return math.isnan(x) and not bits & quiet


def _ref_binary(op: str, a_bits: int, b_bits: int, r: float, t: T) -> int:
    """The flags of one element, from the operands' raw words and the delivered result."""
    carrier, min_normal, _ = FORMATS[t]
    w = np.dtype(carrier).itemsize
    a, b = (float(np.array(v, f"u{w}").view(carrier)) for v in (a_bits, b_bits))
    if _is_snan(a_bits, t) or _is_snan(b_bits, t):
        return NV
    if math.isnan(a) or math.isnan(b):
        return 0
    if math.isinf(a) or math.isinf(b):
        invalid = (op == "ADD" and math.isinf(a) and math.isinf(b) and (a > 0) != (b > 0)) or (
            op == "SUB" and math.isinf(a) and math.isinf(b) and (a > 0) == (b > 0)) or (
            op == "MUL" and (a == 0 or b == 0)) or (
            op == "DIV" and math.isinf(a) and math.isinf(b))  # fmt: skip
        return NV if invalid else 0
    if op == "DIV" and b == 0:
        return NV if a == 0 else DZ
    fa, fb = Fraction(a), Fraction(b)
    exact = {"ADD": fa + fb, "SUB": fa - fb, "MUL": fa * fb, "DIV": fa / fb if b else None}[op]
    if not math.isfinite(r):
        return OF | NX
    flags = NX if Fraction(r) != exact else 0
    if flags and abs(Fraction(r)) < min_normal:
        flags |= UF
    return flags


def _interesting(t: T):
    carrier = FORMATS[t][0]
    finfo = np.finfo(carrier)
    specials = [0.0, -0.0, 1.0, -1.0, 3.0, 0.1, float(finfo.max), float(finfo.tiny),
                float(finfo.smallest_subnormal), -float(finfo.tiny) * 1.5, math.inf, -math.inf,
                math.nan]  # fmt: skip
    width = 32 if t is T.FP32 else 64
    values = st.one_of(st.sampled_from(specials), st.integers(-40, 40).map(float),
                       st.floats(width=width, allow_nan=False))  # fmt: skip
    raw = values.map(lambda v: _raw(v, t))
    snan = st.just(0x7F800001 if t is T.FP32 else 0x7FF0000000000001 if t is T.FP64 else
                   0x7C01 if t is T.FP16 else 0x7F81)  # fmt: skip
    return st.one_of(raw, raw, raw, snan)


def _case(op: str, t: T, a_bits: int, b_bits: int) -> tuple[int, int]:
    carrier = FORMATS[t][0]
    w = np.dtype(carrier).itemsize
    src = np.array([[a_bits]], f"u{w}")
    with recording() as status:
        out, _ = K[f"T{op}S"](src, b_bits, None, "null", t)
    r = float(out.astype(np.float64)[0, 0])
    return status.bits, _ref_binary(op, a_bits, b_bits, r, t)


@pytest.mark.parametrize("t", [T.FP32, T.FP16, T.BF16, T.FP64])
@pytest.mark.parametrize("op", ["ADD", "SUB", "MUL", "DIV"])
@settings(max_examples=examples(25), deadline=None)
@given(data=st.data())
def test_tile_scalar_flags_match_the_rational_reference(op, t, data):
    """ExecuteTileScalar records TileProfileBinaryWithFlags: each element's flags equal the
    IEEE definitions evaluated with Fractions."""
    a = data.draw(_interesting(t))
    b = data.draw(_interesting(t))
    got, want = _case(op, t, a, b)
    assert got == want, (flag_names(got), flag_names(want))


@pytest.mark.parametrize(("op", "a", "b", "want"), [
    ("ADD", 1.0, 2.0**-30, NX),                # rounds away the tiny addend
    ("ADD", 3.0e38, 3.0e38, OF | NX),          # FP32 overflow
    ("ADD", 1.0, -1.0, 0),                     # exact zero
    ("SUB", math.inf, math.inf, NV),
    ("MUL", 2.0**-100, 2.0**-40, 0),           # exact subnormal: no UF without NX
    ("MUL", 2.0**-100, 2.0**-49.5, UF | NX),   # 2^-149.5 rounds: tiny and inexact
    ("MUL", 0.0, math.inf, NV),
    ("DIV", 1.0, 0.0, DZ),
    ("DIV", 0.0, 0.0, NV),
    ("DIV", 1.0, 3.0, NX),
    ("DIV", 1.0, math.inf, 0),
])  # fmt: skip
def test_tile_scalar_hand_examples(op, a, b, want):
    bits_b = _raw(np.float32(b), T.FP32) if not math.isinf(b) else _raw(b, T.FP32)
    with recording() as status:
        K[f"T{op}S"](np.float32([[a]]), bits_b, None)
    assert status.bits == want, status


@pytest.mark.parametrize(("a", "b", "want"), [
    (5.0, 3.0, 0),             # 2, exact
    (-1e-30, 1.0, NX),         # floor remainder 1 - 1e-30 rounds to 1.0
    (-4.0, 2.0, 0),            # -0.0, exact
    (1.0, 0.0, NV),            # x rem 0
    (math.inf, 2.0, NV),       # inf rem y
    (math.nan, 2.0, 0),        # a quiet NaN propagates without status
    (3.0, -math.inf, 0),       # x rem -inf with opposite signs: -inf by definition (D7)
])  # fmt: skip
def test_trems_floating_modulo_flags(a, b, want):
    """TileProfileFloatingModuloFlags of this profile (D7 floor remainder, one rounding)."""
    with recording() as status:
        K["TREMS"](np.float32([[a]]), _raw(b, T.FP32), None)
    assert status.bits == want, status


def test_integer_and_bitwise_ops_record_nothing():
    with recording() as status:
        K["TDIVS"](np.int32([[7, -8]]), 3, None)
        K["TANDS"](np.uint8([[0xFF]]), 0x0F, None)
        K["TFMA"](np.int8([[100]]), np.int8([[3]]), np.int8([[7]]), None)
    assert status.bits == 0


# ---- unary: Fractions for the algebraic ops, hand examples for exp / log ---------------------
def _unary(m: str, x: float, t: T = T.FP32) -> tuple[int, float]:
    carrier = FORMATS[t][0]
    with recording() as status:
        out, _ = K[m](np.array([[x]], carrier), None, "null", t)
    return status.bits, float(out.astype(np.float64)[0, 0])


@settings(max_examples=examples(40), deadline=None)
@given(x=st.one_of(st.floats(min_value=0, exclude_min=True, width=32, allow_infinity=False),
                   st.integers(1, 1000).map(float), st.sampled_from([0.25, 4.0, 2.0**-140])))
def test_algebraic_unary_flags_match_fractions(x):
    """sqrt / recip / rsqrt of a positive finite x: NX iff the delivered r is not the exact
    result (r^2 = x, r x = 1, r^2 x = 1 in rationals), UF iff also below 2^-126, OF iff inf."""
    fx = Fraction(float(np.float32(x)))
    for m, exact in (("TSQRT", lambda r: r * r == fx), ("TRECIP", lambda r: r * fx == 1),
                     ("TRSQRT", lambda r: r * r * fx == 1)):  # fmt: skip
        got, r = _unary(m, x)
        if math.isinf(r):
            assert got == OF | NX, m
            continue
        want = 0 if exact(Fraction(r)) else NX
        if want and abs(Fraction(r)) < FORMATS[T.FP32][1]:
            want |= UF
        assert got == want, (m, x, flag_names(got), flag_names(want))


@pytest.mark.parametrize(("m", "x", "t", "want"), [
    ("TEXP", 0.0, T.FP32, 0), ("TEXP", 1.0, T.FP32, NX), ("TEXP", 100.0, T.FP32, OF | NX),
    ("TEXP", -200.0, T.FP32, UF | NX), ("TEXP", -math.inf, T.FP32, 0),
    ("TEXP", 12.0, T.FP16, OF | NX),  # e^12 > 65504
    ("TLOG", 1.0, T.FP32, 0), ("TLOG", 2.0, T.FP32, NX), ("TLOG", -1.0, T.FP32, NV),
    ("TLOG", -0.0, T.FP32, DZ), ("TLOG", math.inf, T.FP32, 0), ("TLOG", -math.inf, T.FP32, NV),
    ("TRECIP", 2.0**-24, T.FP16, OF | NX),  # 2^24 > 65504
    ("TRECIP", math.inf, T.FP32, 0), ("TRECIP", 4.0, T.FP32, 0),
    ("TSQRT", -0.0, T.FP32, 0), ("TSQRT", math.inf, T.FP32, 0), ("TSQRT", 2.0, T.FP32, NX),
    ("TRSQRT", -4.0, T.FP32, NV), ("TRSQRT", 0.25, T.FP32, 0),
    ("TABS", -math.inf, T.FP32, 0), ("TRELU", -1.0, T.FP32, 0),
])  # fmt: skip
def test_unary_hand_examples(m, x, t, want):
    """exp(x) and log(x) of a rational x other than 0 / 1 are irrational (Lindemann), so
    every ordinary result is inexact; the special values follow TileSFUUnarySpecialValue."""
    got, _ = _unary(m, x, t)
    assert got == want, (m, x, flag_names(got))


def test_unary_signalling_nan_records_nv_quiet_does_not():
    snan = np.array([[0x7F800001]], np.uint32).view(np.float32)
    for m in ("TEXP", "TLOG", "TRECIP", "TSQRT", "TRSQRT", "TRELU"):
        with recording() as status:
            K[m](snan, None)
        assert status.bits == NV, m
        with recording() as status:
            K[m](np.float32([[np.nan]]), None)
        assert status.bits == 0, m
    for m in ("TABS", "TNEG"):  # sign-bit operations never signal
        with recording() as status:
            K[m](snan, None)
        assert status.bits == 0, m


@settings(max_examples=examples(40), deadline=None)
@given(v=st.tuples(*[st.one_of(st.floats(width=32, allow_nan=False),
                               st.integers(-20, 20).map(float)) for _ in range(3)]))
def test_tfma_flags_match_fractions(v):
    """TFMA rounds a * b + c once: NX iff the delivered value differs from the exact one."""
    a, b, c = (np.float32(x) for x in v)
    with recording() as status:
        out, _ = K["TFMA"](np.float32([[a]]), np.float32([[b]]), np.float32([[c]]), None)
    r = float(out[0, 0])
    if not all(map(math.isfinite, (a, b, c))):
        want = NV if math.isnan(r) else 0
    elif not math.isfinite(r):
        want = OF | NX
    else:
        exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
        want = NX if Fraction(r) != exact else 0
        if want and abs(Fraction(r)) < FORMATS[T.FP32][1]:
            want |= UF
    assert status.bits == want, (v, flag_names(status.bits), flag_names(want))


def test_tile_tile_binary_records_nothing():
    """ExecuteTileBinary discards TileProfileBinaryWithFlags (asl/tile/model/execution/
    elementwise.asl): TDIV by zero or an inexact TADD leave the status unchanged."""
    with recording() as status:
        K["TDIV"](np.float32([[1.0]]), np.float32([[0.0]]), None, "null")
        K["TADD"](np.float32([[1.0]]), np.float32([[2.0**-30]]), None, "null")
    assert status.bits == 0


# ---- run level: sticky accumulation, both engines, fault atomicity (D12), pto-run ------------
TY = "!pto.tile<1x32xf32, valid=1x8>"
PROGRAM = f"""func.func @f(%a: {TY}, %s: f32) -> {TY} {{
  %r = pto.tsqrt %a : {TY}
  %q = pto.tdivs %r, %s : {TY}, f32
  func.return %q : {TY}
}}"""


@pytest.mark.parametrize("engine", ["xdsl", "compiled", "both"])
def test_run_accumulates_sticky_flags(engine):
    a = np.float32([[4, -1, 2, 1, 1, 1, 1, 1]])
    flags = NumericStatus()
    run(PROGRAM, "f", a, np.float32(1.0), engine=engine, flags=flags)
    assert flags.names == ("NV", "NX")  # sqrt(-1), sqrt(2)
    run(PROGRAM, "f", np.ones((1, 8), np.float32), np.float32(0.0), engine=engine, flags=flags)
    assert flags.bits == NV | DZ | NX  # sticky: nothing clears NV / NX; 1 / 0 adds DZ
    fresh = NumericStatus()
    run(PROGRAM, "f", np.ones((1, 8), np.float32), np.float32(1.0), engine=engine, flags=fresh)
    assert fresh.bits == 0


def test_a_faulting_operation_publishes_no_flags():
    """D12: a fault on PE 1 discards the flags PE 0 computed; the earlier op's flags stay."""
    ty = "!pto.tile<1x32xtf32, valid=1x8>"
    text = f"""func.func @g(%a: {TY}, %b: {ty}, %s: i64) -> {ty} {{
  %r = pto.tsqrt %a : {TY}
  %q = pto.tmaxs %b, %s : {ty}, i64
  func.return %q : {ty}
}}"""
    b = np.ones((4, 1, 8), np.float32)
    b[0, 0, 0] = np.array(0x7F802000, np.uint32).view(np.float32)  # TF32 sNaN (NV), PE 0
    b[1, 0, 0] = np.array(0x3F800001, np.uint32).view(np.float32)  # bad TF32 encoding
    for engine in ("xdsl", "compiled"):
        flags = NumericStatus()
        with pytest.raises(PTOFault):
            run(text, "g", np.full((1, 8), 2.0, np.float32), b, 0x35800000,  # 2^-20
                engine=engine, flags=flags)  # fmt: skip
        assert flags.bits == NX, engine  # sqrt(2) only: PE 0's NV is discarded with the op


def test_pto_run_prints_flags(tmp_path, capsys):
    path = tmp_path / "k.mlir"
    path.write_text(PROGRAM)
    inp = tmp_path / "in.npz"
    np.savez(inp, arg0=np.float32([[4, -1, 2, 1, 1, 1, 1, 1]]), arg1=np.float32(0.0))
    assert pto_run.main([str(path), "--symbol", "f", "--inputs", str(inp), "--print-flags",
                         "--output", str(tmp_path / "o.npz")]) == 0  # fmt: skip
    assert capsys.readouterr().out == "flags: NV DZ NX (0x13)\n"


def test_raw_ieee_bits_of_the_reference():
    """The reference's sNaN test agrees with the IEEE encoding (quiet bit = fraction MSB)."""
    assert _is_snan(struct.unpack("<I", struct.pack("<f", math.nan))[0], T.FP32) is False
    assert _is_snan(0x7F800001, T.FP32) and not _is_snan(0x7FC00001, T.FP32)


# ---- TCVT: the reference quantizer for float -> integer, IEEE for the rest -----------------
MAXES = {T.FP16: Fraction(65504), T.BF16: Fraction(int(float(ml_dtypes.finfo(ml_dtypes.bfloat16)
         .max))), T.E4M3: Fraction(448)}  # fmt: skip
MIN_NORMALS = {T.FP16: Fraction(1, 2**14), T.BF16: Fraction(1, 2**126), T.E4M3: Fraction(1, 64)}


def _tcvt(x, src: T, dst: T, **kw) -> tuple[int, np.ndarray]:
    with recording() as status:
        out, _ = K["TCVT"](x, None, "null", src, dst, **kw)
    return status.bits, out


@pytest.mark.parametrize("dst", [T.FP16, T.BF16, T.E4M3])
@settings(max_examples=examples(30), deadline=None)
@given(x=st.one_of(st.floats(width=32, allow_nan=False), st.integers(-300, 300).map(float),
                   st.sampled_from([65504.0, 65520.0, 448.0, 464.0, 2.0**-24, 2.0**-25])))
def test_tcvt_float_flags_match_fractions(dst, x):
    """FP32 -> FP16 / BF16 / E4M3 (RNE): OF|NX beyond the range, NX when the delivered value
    is not the source's, UF also when it is below the smallest normal."""
    got, out = _tcvt(np.float32([[x]]), T.FP32, dst)
    r = float(out.astype(np.float64)[0, 0])
    if math.isinf(x):
        want = 0 if dst is not T.E4M3 else OF | NX
    elif not math.isfinite(r):
        want = OF | NX
    else:
        want = NX if Fraction(r) != Fraction(float(x)) else 0
        if want and abs(Fraction(r)) < MIN_NORMALS[dst]:
            want |= UF
    assert got == want, (x, r, flag_names(got), flag_names(want))


@settings(max_examples=examples(40), deadline=None)
@given(n=st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-70000, 70000)))
def test_tcvt_integer_to_float_flags(n):
    for dst in (T.FP32, T.FP16):
        got, out = _tcvt(np.array([[n]], np.int64), T.S64, dst)
        r = float(out.astype(np.float64)[0, 0])
        want = OF | NX if math.isinf(r) else (NX if Fraction(r) != n else 0)
        assert got == want, (n, dst, r)


@pytest.mark.parametrize(("x", "want"), [
    (2.0, 0), (2.5, NX), (-0.5, NX), (math.nan, NV), (math.inf, OF | NX), (-math.inf, OF | NX),
    (1e10, 0),  # out of range but integral: the reference quantizer adds nothing (wraps)
])  # fmt: skip
def test_tcvt_float_to_integer_follows_the_reference_quantizer(x, want):
    assert _tcvt(np.float32([[x]]), T.FP32, T.S32)[0] == want


def test_tcvt_signalling_nan_and_integer_pairs():
    snan = np.array([[0x7F800001]], np.uint32).view(np.float32)
    assert _tcvt(snan, T.FP32, T.FP16)[0] == NV
    assert _tcvt(np.float32([[np.nan]]), T.FP32, T.FP16)[0] == 0
    assert _tcvt(np.int32([[300, -5]]), T.S32, T.U8)[0] == 0  # TileConvertIntegerValue
    assert _tcvt(np.float32([[500.0]]), T.FP32, T.E4M3, sat=True)[0] == OF | NX


# ---- the fast path of large tiles computes what the full path computes ------------------
def _planted(rng, kind: str, n: int = 4096) -> np.ndarray:
    base = {"int": rng.integers(-50, 50, n).astype(np.float64),
            "normal": rng.standard_normal(n) * 4,
            "tiny": rng.integers(1, 50, n) * 2.0**-140,
            "pos": rng.integers(1, 20, n).astype(np.float64) ** 2}[kind]  # fmt: skip
    at = int(rng.integers(0, n))
    base[at] = rng.choice([2.0**-30, 3.0, 1e-40, 1e38, 0.1, 7.0])
    return base.reshape(8, -1)


@pytest.mark.parametrize("seed", range(6))
def test_fast_path_agrees_with_the_full_path(seed, monkeypatch):
    """Tiles above FAST_MIN scan in chunks and stop early; forcing the full path on the same
    tiles gives the same flags (integer tiles are mostly exact, so the scans run through)."""
    from interpreter.kernels import status

    rng = np.random.default_rng(seed)
    calls = []
    for kind in ("int", "normal", "tiny", "pos"):
        v = _planted(rng, kind)
        for t in (T.FP32, T.FP16, T.BF16):
            with np.errstate(over="ignore"):  # 1e38 is inf in FP16: the full path's case
                x = v.astype(FORMATS[t][0])
            for m, s in (("TADDS", 1.0), ("TSUBS", 0.5), ("TMULS", 2.0**-20), ("TDIVS", 3.0)):
                calls.append((m, lambda m=m, s=s, x=x, t=t: K[m](x, _raw(s, t), None, "null", t)))
            for m in ("TSQRT", "TRECIP", "TRSQRT", "TEXP", "TLOG"):
                calls.append((m, lambda m=m, x=x, t=t: K[m](np.abs(x), None, "null", t)))
        f32 = v.astype(np.float32)
        for d in (T.FP16, T.BF16, T.E4M3):
            calls.append((f"TCVT {d}", lambda f32=f32, d=d: K["TCVT"](f32, None, "null", T.FP32, d)))
    fast = []
    for _, call in calls:
        with recording() as st:
            call()
        fast.append(st.bits)
    monkeypatch.setattr(status, "FAST_MIN", 10**9)
    for (name, call), want in zip(calls, fast):
        with recording() as st:
            call()
        assert st.bits == want, (name, flag_names(want), flag_names(st.bits))


@pytest.mark.parametrize(("x", "scale", "want"), [
    (2.0, 1.0, 0), (2.5, 1.0, NX), (0.5, 2.0, 0), (np.nan, 1.0, NV), (np.inf, 1.0, OF | NX),
    (1000.0, 1.0, 0),  # saturates / wraps: the reference quantizer adds nothing
])  # fmt: skip
def test_tquant_flags_follow_the_reference_quantizer(x, scale, want):
    with recording() as status:
        K["TQUANT"](np.float32([[x]]), _raw(scale, T.FP32), None, None, "S8")
    assert status.bits == want


@pytest.mark.parametrize(("q", "scale", "want"), [
    (3, 0.5, 0),                       # 1.5 exact
    (3, 0.1, NX),                      # 3 x FP32(0.1) needs more than 24 bits
    (100, 2.0**127, OF | NX),          # 100 x 2^127 > FP32 max
    (3, 2.0**-149, 0),                 # 3 x 2^-149: an exact subnormal, no UF without NX
    (-7, 2.0**-149, 0),
    (0, 0.1, 0),
])  # fmt: skip
def test_tdequant_flags_follow_the_reference_encoder(q, scale, want):
    """ReferenceFP32FiniteEncoding: the exact (q - zp) x scale rounded once to FP32. (UF
    cannot happen: a nonzero (q - zp) x scale is a multiple of the subnormal step when it is
    below 2^-126.)"""
    with recording() as status:
        K["TDEQUANT"](np.int8([[q]]), _raw(scale, T.FP32), None, None, "S8")
    assert status.bits == want


def test_tpart_flags_come_from_the_overlap_only():
    """ExecutePartial: TileProfilePartialValueWithFlags where both sources are valid; a
    coordinate covered by one source is copied without status."""
    left = np.float32([[1.0, 1.0, 2.0**-30]])  # the third column is left's alone
    right = np.float32([[2.0, 0.5]])
    with recording() as status:
        out = K["TPARTADD"]([left, right], [T.FP32, T.FP32], T.FP32, (1, 3))
    assert status.bits == 0 and out.tolist() == [[3.0, 1.5, 2.0**-30]]
    with recording() as status:
        K["TPARTADD"]([np.float32([[1.0]]), np.float32([[2.0**-30]])], [T.FP32] * 2, T.FP32, (1, 1))
    assert status.bits == NX
    snan = np.array([[0x7F800001]], np.uint32).view(np.float32)
    with recording() as status:
        K["TPARTMAX"]([snan, np.float32([[1.0]])], [T.FP32] * 2, T.FP32, (1, 1))
    assert status.bits == NV


@pytest.mark.parametrize(("a", "b", "c", "want"), [
    (math.inf, 2.0, 1.0, 0),  # an infinite product is exact: no flag
    (2.0, math.inf, 1.0, 0),
    (-math.inf, 2.0, -1.0, 0),
    (math.inf, 0.0, 1.0, NV),  # inf x 0
    (0.0, -math.inf, 1.0, NV),
    (math.inf, 2.0, -math.inf, NV),  # inf - inf
], ids=str)  # fmt: skip
def test_tfma_infinite_operands(a, b, c, want):
    """Hand-derived: only 0 x inf and an infinite product against the opposite infinity are
    invalid (TileFixedFusedMultiplyAddValue); issue 27 mutation survivor."""
    with recording() as status:
        K["TFMA"](np.float32([[a]]), np.float32([[b]]), np.float32([[c]]), None)
    assert status.bits == want


@pytest.mark.parametrize(("values", "dst", "want"), [
    ([3, -7, 1 << 24, 0], T.FP32, 0),  # exactly representable: no flag
    ([(1 << 24) + 1], T.FP32, NX),  # 2^24 + 1 needs 25 bits
    ([3, 2049], T.FP16, NX),  # 2049 needs 12 bits
], ids=str)  # fmt: skip
def test_tcvt_integer_source_flags(values, dst, want):
    """Hand-derived: an S32 -> float TCVT is inexact exactly when the integer needs more
    significant bits than the destination has (issue 27 mutation survivor)."""
    with recording() as status:
        cv.tcvt_tile(np.array([values], np.int32), None, "null", T.S32, dst)
    assert status.bits == want


@pytest.mark.parametrize(
    ("x", "want"),
    [
        (32768.0, 0),  # HiF8's largest finite value: exact
        (32769.0, OF | NX),  # |x| > 32768 before rounding (ReferenceFP8Encoding)
        (-32772.0, OF | NX),
        (1.0, 0),
        (1.1, NX),
        (2.0**-22, 0),  # the smallest HiF8 denormal (m = 1): exact
        (2.0**-23, UF | NX),  # halfway to 0: inexact and tiny
        (2.0**-24, UF | NX),  # below 2^-15 and inexact: tiny before rounding
    ],
)
def test_tcvt_fp32_into_hif8_flags(x, want):
    """TCVT FP32 -> HiF8 (RMode RHB) flags per element (``TileProfileConvert`` with the
    FP8 encoder's rules), hand-derived from the HiF8 value set (max 32768, denormals
    2^(m-23))."""
    with recording() as status:
        cv.tcvt_tile(np.array([[x]], np.float32), None, src_type=T.FP32, dst_type=T.HIF8,
                     rmode="rhb")
    assert status.bits == want, flag_names(status.bits)


def test_large_tiles_find_a_single_witness_anywhere():
    """Tiles of at least FAST_MIN elements are scanned a 512-element sample first, then in
    chunks, stopping at the first witness: one inexact (NX) or tiny inexact (UF|NX) product
    at the first, the 512th, a middle or the last position is found; none, no flags. Hand
    values: (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 is not an FP32 value; so is its 2^-140
    multiple, below 2^-126."""
    from interpreter.kernels.status import FAST_MIN, binary_flags

    n = 2 * FAST_MIN
    e = np.float32(1 + 2.0**-23)
    for pos in (0, 1, 511, 512, 700, n - 1):
        for scale, want in ((1.0, NX), (2.0**-70, UF | NX)):
            a = np.ones(n, np.float32)
            b = np.full(n, 2.0, np.float32)
            a[pos], b[pos] = e * np.float32(scale), e * np.float32(scale)
            assert binary_flags("MUL", a, b, a * b, T.FP32) == want, (pos, scale)
        a, b = np.ones(n, np.float32), np.ones(n, np.float32)
        b[pos] = 2.0**-30  # 1 + 2^-30 rounds to 1
        assert binary_flags("ADD", a, b, a + b, T.FP32) == NX, pos
    a = np.ones(n, np.float32)
    assert binary_flags("MUL", a, a, a * a, T.FP32) == 0


_TILES = {
    "integers": lambda rng: rng.integers(-1000, 1000, 2048),
    "wide": lambda rng: rng.standard_normal(2048) * 2.0 ** rng.integers(-140, 120, 2048),
    "subnormal": lambda rng: rng.integers(-(1 << 23), 1 << 23, 2048) * 2.0**-149,
    "positive": lambda rng: np.abs(rng.standard_normal(2048)) + 0.5,
    "powers": lambda rng: 2.0 ** rng.integers(-20, 20, 2048),
}


def _tiles():
    """2048-element FP32 tiles (the fast paths' minimum): exact-friendly and inexact ones,
    each also with one 0.1 (inexact almost everywhere), a zero, an infinity or a NaN at a
    random position (the fast paths must decline those they cannot decide)."""
    for seed in range(2):
        for name, make in _TILES.items():
            rng = np.random.default_rng(seed)
            a = np.asarray(make(rng), np.float32)
            yield name, a.reshape(8, 256)
            for odd in (0.1, 0.0, -np.inf, np.nan):
                b = a.copy()
                b[rng.integers(0, b.size)] = np.float32(odd)
                yield f"{name}+{odd}", b.reshape(8, 256)


def test_fast_flag_paths_equal_the_full_paths(monkeypatch):
    """Tiles of at least FAST_MIN elements take the fast flag paths (tile-scalar
    arithmetic, the algebraic unary ops, TCVT): each gives the flags of the full path,
    which the Fraction references above check element by element."""
    from interpreter.kernels import status

    def both(fn, *args, **kw):
        with recording() as fast:
            fn(*args, **kw)
        with monkeypatch.context() as m:
            m.setattr(status, "FAST_MIN", 1 << 40)
            with recording() as full:
                fn(*args, **kw)
        return fast.bits, full.bits

    for name, a in _tiles():
        for op in ("TADDS", "TSUBS", "TMULS", "TDIVS"):
            for s in (3.0, 0.1, 2.0**-100, 2.0**100, 1.0):
                got, want = both(K[op], a, int(np.float32(s).view(np.uint32)), None)
                assert got == want, (name, op, s, flag_names(got), flag_names(want))
        for op in ("TSQRT", "TRSQRT", "TRECIP", "TLOG", "TEXP"):
            with np.errstate(over="ignore"):  # beyond FP16: its infinity
                narrow = (a.astype(np.float16), a.astype(ml_dtypes.bfloat16))
            for x in (a, *narrow):
                got, want = both(K[op], x, None)
                assert got == want, (name, op, x.dtype, flag_names(got), flag_names(want))
        for src, dst, x in ((T.FP32, T.FP16, a), (T.FP32, T.BF16, a), (T.FP32, T.E4M3, a),
                            (T.FP64, T.FP32, a.astype(np.float64) / 3)):
            got, want = both(cv.tcvt_tile, x, None, src_type=src, dst_type=dst)
            assert got == want, (name, dst, flag_names(got), flag_names(want))
