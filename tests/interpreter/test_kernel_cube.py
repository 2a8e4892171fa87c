"""The general CUBE kernel (PTO-SPEC 3.1, 3.3, 4; D1-D5, D11, D12) against an independent
reference: element values decoded by ml_dtypes or by hand-written bit parsers, exact
fractions.Fraction sums, Python ints for integer accumulators, rounded to FP32 by hand."""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import CUBE_FUNCTION_NAMES, KERNELS, cube_matrix, quant_param_word
from pto_dialect.faults import PTOFault
from pto_dialect.postprocess import Fpatr

MX_FNS = (4, 5, 6, 20, 21, 22)
FLT_MAX = Fraction(int(np.finfo(np.float32).max))


def round_f32(q: Fraction) -> float:
    """Correctly rounded (RNE) FP32 value of an exact fraction, inf on overflow."""
    if q == 0:
        return 0.0
    mag = abs(q)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    ulp = Fraction(2) ** (max(e, -126) - 23)
    r = round(mag / ulp) * ulp
    v = float("inf") if r > FLT_MAX else float(r)
    return -v if q < 0 else v


def hif8_value(code: int) -> Fraction | None:
    """HiF8 by reading the bit string left to right (hif8.asl); None for NaN/inf."""
    if code in (0x80, 0x6F, 0xEF):
        return None
    bits = format(code, "08b")
    sign, rest = bits[0], bits[1:]
    if rest.startswith("0000"):
        m = int(rest[4:], 2)
        v = Fraction(0) if m == 0 else Fraction(2) ** (m - 23)
    else:
        prefix, ebits = next(
            (p, e) for p, e in (("0001", 0), ("001", 1), ("01", 2), ("10", 3), ("11", 4))
            if rest.startswith(p)
        )
        tail = rest[len(prefix):]
        if ebits == 0:
            e, frac = 0, tail
        else:
            es, emag = tail[0], "1" + tail[1:ebits]
            e = int(emag, 2) * (-1 if es == "1" else 1)
            frac = tail[ebits:]
        v = (1 + Fraction(int(frac, 2), 2 ** len(frac))) * Fraction(2) ** e
    return -v if sign == "1" else v


_ML = {
    "FP16": np.float16, "BF16": ml_dtypes.bfloat16, "E4M3": ml_dtypes.float8_e4m3fn,
    "E5M2": ml_dtypes.float8_e5m2, "E3M2": ml_dtypes.float6_e3m2fn,
    "E2M3": ml_dtypes.float6_e2m3fn, "E2M1X2": ml_dtypes.float4_e2m1fn,
}


def code_value(t: str, code: int) -> Fraction | None:
    """Exact value of one raw code, independent of the kernel's tables."""
    if t in _ML:
        dt = np.dtype(_ML[t])
        raw = np.array([code], np.uint16 if dt.itemsize == 2 else np.uint8).view(dt)
        v = float(raw.astype(np.float64)[0])
        return Fraction(v) if np.isfinite(v) else None
    if t == "E1M2X2":  # PTO-SPEC 1: (exp ? 4+m : m) * 2^-2
        s, e, m = code >> 3 & 1, code >> 2 & 1, code & 3
        v = Fraction((4 + m) if e else m, 4)
        return -v if s else v
    if t == "HiF8":
        return hif8_value(code)
    if t in ("FP32", "TF32", "HF32"):
        v = float(np.array([code], np.uint32).view(np.float32)[0])
        return Fraction(v) if np.isfinite(v) else None
    raise AssertionError(t)


CODE_SPACE = {
    "FP16": (0, 1 << 16), "BF16": (0, 1 << 16), "E4M3": (0, 256), "E5M2": (0, 256),
    "E3M2": (0, 64), "E2M3": (0, 64), "E2M1X2": (0, 16), "E1M2X2": (0, 16), "HiF8": (0, 256),
}
FLOAT_PAIRS = [("FP16", "FP16"), ("BF16", "E4M3"), ("E5M2", "E2M1X2"), ("E1M2X2", "E3M2"),
               ("E2M3", "HiF8"), ("HiF8", "HiF8"), ("FP32", "FP32"), ("TF32", "HF32")]
MX_PAIRS = [("FP16", "BF16"), ("E4M3", "E5M2"), ("E2M1X2", "E1M2X2"), ("BF16", "E2M1X2")]
INT_TYPES = {"S8": (-128, 127), "S16": (-32768, 32767), "S4X2": (-8, 7),
             "U8": (0, 255), "U16": (0, 65535), "U4X2": (0, 15)}
INT_PAIRS = [("S8", "S8"), ("S16", "S4X2"), ("S4X2", "S4X2"), ("U8", "U16"), ("U4X2", "U8")]


def random_codes(rng, t: str, shape) -> np.ndarray:
    """Finite codes of type t (FP32 family: modest random values with zeroed low bits)."""
    if t in ("FP32", "TF32", "HF32"):
        x = (rng.standard_normal(shape) * 4).astype(np.float32).view(np.uint32)
        return x & {"FP32": 0xFFFFFFFF, "TF32": 0xFFFFE000, "HF32": 0xFFFFF000}[t]
    lo, hi = CODE_SPACE[t]
    finite = [c for c in range(lo, hi) if code_value(t, c) is not None] if hi <= 256 else None
    if finite is not None:
        return np.array(finite, np.uint8)[rng.integers(0, len(finite), shape)]
    x = rng.standard_normal(shape) * 2.0 ** rng.integers(-12, 12, shape)
    return x.astype(_ML[t]).view(np.uint16)


def fn_shape(fn: int, m: int) -> int:
    return 1 if fn >= 16 else m


def reference(fn, avals, bvals, c, bias):
    """Exact Fraction result (M x N list of lists) of C + A@B + Bias."""
    m, k, n = len(avals), len(bvals), len(bvals[0])
    out = []
    for i in range(m):
        row = []
        for j in range(n):
            s = sum((avals[i][kk] * bvals[kk][j] for kk in range(k)), Fraction(0))
            if c is not None:
                s += c[i][j]
            if bias is not None:
                s += bias[j]
            row.append(s)
        out.append(row)
    return out


def _check_float(d, ref, terms):
    for i, row in enumerate(ref):
        for j, q in enumerate(row):
            got = Fraction(float(d[i, j]))
            bound = Fraction(1, 10**6) * terms[i][j] + abs(Fraction(round_f32(q)) - q) * 2
            assert abs(got - q) <= bound or float(d[i, j]) == round_f32(q), (i, j, got, q)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([0, 1, 2, 16, 17, 18]), st.sampled_from(FLOAT_PAIRS),
       st.integers(1, 16), st.integers(1, 40), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_ordinary_float_functions_match_fraction_reference(fn, pair, m, k, n, seed):
    """Non-MX float functions (PTO-SPEC 1 types, D4 exact): Fraction reference."""
    rng = np.random.default_rng(seed)
    at, bt = pair
    m = fn_shape(fn, m)
    ca, cb = random_codes(rng, at, (m, k)), random_codes(rng, bt, (k, n))
    av = [[code_value(at, int(x)) for x in r] for r in ca]
    bv = [[code_value(bt, int(x)) for x in r] for r in cb]
    kw = {}
    c = bias = None
    if CUBE_FUNCTION_NAMES[fn].endswith("ACC"):
        kw["c"] = (rng.standard_normal((m, n)) * 8).astype(np.float32)
        c = [[Fraction(float(x)) for x in r] for r in kw["c"]]
    if CUBE_FUNCTION_NAMES[fn].endswith("BIAS"):
        kw["bias"] = (rng.standard_normal((1, n)) * 8).astype(np.float32)
        bias = [Fraction(float(x)) for x in kw["bias"][0]]
    d = cube_matrix(fn, ca, cb, a_type=at, b_type=bt, **kw)
    assert d.shape == (m, n) and d.dtype == np.float32
    terms = reference(fn, [[abs(x) for x in r] for r in av], [[abs(x) for x in r] for r in bv],
                      None if c is None else [[abs(x) for x in r] for r in c],
                      None if bias is None else [abs(x) for x in bias])
    _check_float(d, reference(fn, av, bv, c, bias), terms)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(MX_FNS), st.sampled_from(MX_PAIRS), st.integers(1, 16),
       st.sampled_from([1, 5, 32, 33, 70]), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_mx_functions_match_fraction_reference(fn, pair, m, k, n, seed):
    """MX functions (D1, D2, D4): per-block E8M0 scales, Fraction reference, M up to 16."""
    rng = np.random.default_rng(seed)
    at, bt = pair
    m = fn_shape(fn, m)
    nb = -(-k // 32)
    ca, cb = random_codes(rng, at, (m, k)), random_codes(rng, bt, (k, n))
    kw = {"a_type": at, "b_type": bt}
    sa = sb = None
    if at not in ("FP16", "BF16"):
        kw["a_scale"] = sa = rng.integers(120, 135, (m, nb)).astype(np.uint8)
    if bt not in ("FP16", "BF16"):
        kw["b_scale"] = sb = rng.integers(120, 135, (nb, n)).astype(np.uint8)
    av = [[code_value(at, int(x)) * (Fraction(2) ** (int(sa[i, kk // 32]) - 127) if sa is not None
                                     else 1) for kk, x in enumerate(r)] for i, r in enumerate(ca)]
    bv = [[code_value(bt, int(x)) * (Fraction(2) ** (int(sb[kk // 32, j]) - 127) if sb is not None
                                     else 1) for j, x in enumerate(r)] for kk, r in enumerate(cb)]
    c = bias = None
    if fn in (6, 22):
        kw["c"] = (rng.standard_normal((m, n))).astype(np.float32)
        c = [[Fraction(float(x)) for x in r] for r in kw["c"]]
    if fn in (5, 21):
        kw["bias"] = (rng.standard_normal((1, n))).astype(np.float32)
        bias = [Fraction(float(x)) for x in kw["bias"][0]]
    d = cube_matrix(fn, ca, cb, **kw)
    terms = reference(fn, [[abs(x) for x in r] for r in av], [[abs(x) for x in r] for r in bv],
                      None if c is None else [[abs(x) for x in r] for r in c],
                      None if bias is None else [abs(x) for x in bias])
    _check_float(d, reference(fn, av, bv, c, bias), terms)
    seq = cube_matrix(fn, ca, cb, profile="fp32-sequential", **kw)
    assert seq.shape == (m, n)


def wrap32(v: int, signed: bool) -> int:
    v %= 1 << 32
    return v - (1 << 32) if signed and v >= 1 << 31 else v


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([0, 1, 2, 16, 17, 18]), st.sampled_from(INT_PAIRS), st.integers(1, 16),
       st.integers(1, 40), st.integers(1, 4), st.integers(0, 2**32 - 1),
       st.sampled_from(["exact", "fp32-sequential"]))
def test_integer_functions_exact_with_32_bit_wrap(fn, pair, m, k, n, seed, profile):
    """S32/U32 accumulators: exact integer sum, wrapped to 32 bits (cube.asl sums 64-bit
    words; the S32/U32 tile keeps value[31:0]); C and Bias of the accumulator type."""
    rng = np.random.default_rng(seed)
    at, bt = pair
    m = fn_shape(fn, m)
    signed = at.startswith("S")
    va = rng.integers(*INT_TYPES[at], (m, k), endpoint=True)
    vb = rng.integers(*INT_TYPES[bt], (k, n), endpoint=True)

    def carrier(v, t):
        if t.endswith("4X2"):
            return (v & 0xF).astype(np.uint8)  # one code per element, low nibble
        return v.astype({"S8": np.int8, "S16": np.int16, "U8": np.uint8, "U16": np.uint16}[t])

    acc_dt = np.int32 if signed else np.uint32
    info = np.iinfo(acc_dt)
    kw = {}
    if CUBE_FUNCTION_NAMES[fn].endswith("ACC"):
        kw["c"] = rng.integers(info.min, info.max, (m, n), endpoint=True).astype(acc_dt)
    if CUBE_FUNCTION_NAMES[fn].endswith("BIAS"):
        kw["bias"] = rng.integers(info.min, info.max, (1, n), endpoint=True).astype(acc_dt)
    d = cube_matrix(fn, carrier(va, at), carrier(vb, bt), a_type=at, b_type=bt,
                    profile=profile, **kw)
    assert d.dtype == acc_dt and d.shape == (m, n)
    for i in range(m):
        for j in range(n):
            s = sum(int(va[i, kk]) * int(vb[kk, j]) for kk in range(k))
            s += int(kw["c"][i, j]) if "c" in kw else 0
            s += int(kw["bias"][0, j]) if "bias" in kw else 0
            assert int(d[i, j]) == wrap32(s, signed)


def test_integer_overflow_wraps():
    """U16 x U16 and S16 x S16 sums past 32 bits wrap (no saturation; D12 no fault)."""
    a = np.full((1, 3), 65535, np.uint16)
    assert int(cube_matrix("TGEMV", a, a.T.copy())[0, 0]) == (3 * 65535 * 65535) % (1 << 32)
    s = np.full((1, 3), -32768, np.int16)
    assert int(cube_matrix("TMATMUL", s, s.T.copy())[0, 0]) == wrap32(3 << 30, True)
    c = np.array([[2**31 - 1]], np.int32)
    one = np.ones((1, 1), np.int8)
    assert int(cube_matrix("TGEMV_ACC", one, one, c=c)[0, 0]) == -(2**31)


@pytest.mark.parametrize("fn", sorted(CUBE_FUNCTION_NAMES))
@pytest.mark.parametrize("profile", ["raw-carrier", "exact"])
def test_totality_vectors_every_function(fn, profile):
    """ADR-0034 / PTO-SPEC 4: A=2, B=3, C=5, Bias=7 (MX: E4M3 with raw scale 1) give
    plain 6, ACC 11, BIAS 13 for all 12 live functions: raw codes under raw-carrier, values
    under exact."""
    name = CUBE_FUNCTION_NAMES[fn]
    mx_fn = fn in MX_FNS
    kw = {}
    if profile == "raw-carrier":
        dt = np.uint8 if mx_fn else np.uint16
        a, b = np.array([[2]], dt), np.array([[3]], dt)
        kw.update(a_type="E4M3" if mx_fn else "FP16", b_type="E4M3" if mx_fn else "FP16")
        cval, bval = np.array([[5]], np.uint32), np.array([[7]], np.uint32)
        scale = np.ones((1, 1), np.uint8)
    else:
        ft = ml_dtypes.float8_e4m3fn if mx_fn else np.float16
        a, b = np.array([[2]], ft), np.array([[3]], ft)
        cval, bval = np.array([[5]], np.float32), np.array([[7]], np.float32)
        scale = np.array([[127]], np.uint8)  # 2^0
    if mx_fn:
        kw.update(a_scale=scale, b_scale=scale)
    if name.endswith("ACC"):
        kw["c"] = cval
    if name.endswith("BIAS"):
        kw["bias"] = bval
    d = cube_matrix(fn, a, b, profile=profile, **kw)
    want = 11 if name.endswith("ACC") else 13 if name.endswith("BIAS") else 6
    assert d.shape == (1, 1) and float(d[0, 0]) == want
    assert KERNELS[name] is not None


def test_new_decoders_against_ml_dtypes_and_hand_examples():
    """HiF8 (hif8.asl), E3M2/E2M3 (ml_dtypes), TF32 carriers through TMATMUL."""
    hif8 = np.array([[0x08, 0x6E, 0x01, 0x7F, 0x88]], np.uint8)  # 1, 2^15, 2^-22, 1.5*2^-15, -1
    d = cube_matrix("TMATMUL", hif8.T.copy(), np.array([[0x08]], np.uint8), a_type="HiF8",
                    b_type="HiF8")
    assert list(d[:, 0]) == [1.0, 32768.0, 2.0**-22, 1.5 * 2.0**-15, -1.0]
    e3 = np.arange(64, dtype=np.uint8).reshape(64, 1)
    one = np.array([[0x0C]], np.uint8)  # E3M2 1.0 = 0.011.00
    got = cube_matrix("TMATMUL", e3, one, a_type="E3M2", b_type="E3M2")[:, 0]
    np.testing.assert_array_equal(got, e3[:, 0].view(ml_dtypes.float6_e3m2fn).astype(np.float32))
    tf = np.array([[1.5]], np.float32)
    assert cube_matrix("TGEMV", tf, tf, a_type="TF32", b_type="TF32")[0, 0] == 2.25


def s32_acc(values) -> np.ndarray:
    return np.array([values], np.int32)


def post(code, values, *, sat=False, rmode=0, relu=0, **kw):
    """Run an S32 accumulator row through PreQuantMode ``code`` (TMATMUL_ACC, A = 0)."""
    n = len(values)
    z = np.zeros((1, 1), np.int8)
    return cube_matrix("TMATMUL_ACC", z, np.zeros((1, n), np.int8), c=s32_acc(values),
                       fpatr=Fpatr(pre_quant_mode=code, relu_mode=relu), sat=sat, rmode=rmode,
                       **kw)[0]


def test_s32_prequant_modes_hand_examples():
    """S32 PreQuantModes (PTO-SPEC 3.3; matrix-quantization.asl), hand-derived."""
    q = quant_param_word(0.5, 3, 9)  # VREQ8: x*0.5 -> RNE -> S9 clamp -> +3 -> S8
    vals = [10, -7, 1000, -1000]
    assert list(post(2, vals, quant=np.full(4, q, np.uint64), sat=True)) == [8, -1, 127, -128]
    assert list(post(2, vals, quant=np.full(4, q, np.uint64))) == [8, -1, 2, 3]
    assert post(3, vals, quant_scalar=q).dtype == np.int8
    shift = 3 << 32  # SHIFTS322S16: ASR by 3+1, S16 saturation
    assert list(post(13, [1000, -1000, 2**30, -(2**31)], quant_scalar=shift)) == [
        62, -63, 32767, -32768]
    d = post(5, [3, -5, 2**30], quant_scalar=quant_param_word(0.25))  # DEQF16
    assert d.dtype == np.float16 and list(d) == [0.75, -1.25, np.inf]
    d = post(5, [2**30], quant_scalar=quant_param_word(0.25), sat=True)
    assert list(d) == [65504.0]
    q4 = quant_param_word(1.0, -2, 5)  # REQ4: S5 clamp, -2, S4X2
    assert list(post(17, [3, 20, -20, 7], quant_scalar=q4, sat=True)) == [1, 7, -8, 5]
    assert list(post(17, [3, 20, -20, 7], quant_scalar=q4)) == [1, -3, -2, 5]
    q16 = quant_param_word(2.0, 100, 17)  # DEQS16: S17 clamp, +100, S16
    assert list(post(19, [10, 40000, -40000], quant_scalar=q16, sat=True)) == [
        120, 32767, -32768]
    assert list(post(19, [10, 40000, -40000], quant_scalar=q16)) == [120, 99, 100]
    one = quant_param_word(1.0)  # QS322BF16_PRE: 257 ties to even 256; RTP gives 258
    assert float(post(35, [257], quant_scalar=one)[0]) == 256.0
    assert float(post(35, [257], quant_scalar=one, rmode="rtp")[0]) == 258.0
    assert list(post(0, [-5, 5], relu=1)) == [0, 5]  # NoQuant + ReLU on S32


def test_integer_reductions_and_u32_identity():
    """RowMax/GroupMax on S32 (MaxAbs saturates |INT_MIN|), U32 NoQuant is identity."""
    z = np.zeros((1, 1), np.int8)
    c = np.array([[-(2**31), 5, -7]], np.int32)
    d, rmax = cube_matrix("TMATMUL_ACC", z, np.zeros((1, 3), np.int8), c=c,
                          fpatr=Fpatr(row_max_en=1, max_abs_en=1))
    assert int(rmax[0, 0]) == 2**31 - 1 and rmax.dtype == np.int32
    u = np.array([[4_000_000_000]], np.uint32)
    out = cube_matrix("TGEMV_ACC", np.zeros((1, 1), np.uint8), np.zeros((1, 1), np.uint8), c=u,
                      fpatr=Fpatr(relu_mode=1))
    assert int(out[0, 0]) == 4_000_000_000


FAULTS = [
    ("TGEMV", dict(a=np.ones((2, 1), np.float16), b=np.ones((1, 1), np.float16))),
    ("TMATMUL", dict(a=np.ones((1, 1), np.float16), b=np.ones((1, 1), np.int8))),  # class
    ("TMATMUL_ACC", dict(a=np.ones((1, 1), np.float16), b=np.ones((1, 1), np.float16))),
    ("TMATMUL_ACC", dict(a=np.ones((1, 1), np.float16), b=np.ones((1, 1), np.float16),
                         c=np.ones((1, 1), np.float32), bias=np.ones((1, 1), np.float32))),
    ("TMATMUL", dict(a=np.ones((1, 1), np.float16), b=np.ones((1, 1), np.float16),
                     fpatr=Fpatr(pre_quant_mode=2), quant=np.zeros(1, np.uint64))),
    ("TMATMUL", dict(a=np.ones((1, 1), np.int8), b=np.ones((1, 1), np.int8),
                     fpatr=Fpatr(pre_quant_mode=1))),
    ("TMATMUL", dict(a=np.ones((1, 1), np.uint8), b=np.ones((1, 1), np.uint8),
                     fpatr=Fpatr(pre_quant_mode=2), quant=np.zeros(1, np.uint64))),
    ("TMATMUL", dict(a=np.ones((1, 1), np.float32), b=np.ones((1, 1), np.float32),
                     a_type="TF32", b_type="TF32")),  # low 13 bits of 1.0 are 0: legal...
    ("TMATMUL", dict(a=np.array([[0x40]], np.uint8), b=np.ones((1, 1), np.uint8),
                     a_type="E3M2", b_type="E3M2")),  # top carrier bits set
    ("TMATMUL_MX", dict(a=np.ones((1, 1), np.float16), b=np.ones((1, 1), np.float16),
                        a_type="FP16", b_type="FP16", a_scale=np.ones((1, 1), np.uint8))),
    ("TMATMUL", dict(a=np.ones((1, 1), np.float16), b=np.ones((1, 1), np.float16),
                     fpatr=Fpatr(trans_a=1))),
    ("TGEMV_BIAS", dict(a=np.ones((1, 1), np.float16), b=np.ones((1, 1), np.float16),
                        bias=np.ones((1, 1), np.float32), profile="raw-carrier",
                        fpatr=Fpatr(pre_quant_mode=1))),
]


@pytest.mark.parametrize("case", range(len(FAULTS)))
def test_faults_leave_inputs_unchanged(case):
    """Every illegal combination is a PTOFault before any effect (D12); sources persist."""
    name, kw = FAULTS[case]
    if case == 7:  # replace the legal TF32 operand by one with a low mantissa bit set
        kw = dict(kw, a=np.array([[1.0000001]], np.float32))
    before = {k: np.copy(v) for k, v in kw.items() if isinstance(v, np.ndarray)}
    with pytest.raises(PTOFault):
        cube_matrix(name, **kw)
    for k, v in before.items():
        np.testing.assert_array_equal(kw[k], v)


def test_reserved_function_codes_fault():
    for code in (3, 8, 19, 31, "ACCCVT"):
        with pytest.raises(PTOFault, match="IllegalInstruction"):
            cube_matrix(code, np.ones((1, 1), np.float16), np.ones((1, 1), np.float16))


# -- every operand rule of cube_matrix faults with its message, before any result (D12) ----
_F32 = np.ones((2, 3), np.float32)
_F32B = np.ones((3, 4), np.float32)
_E4 = np.ones((1, 32), ml_dtypes.float8_e4m3fn)
_E4B = np.ones((32, 2), ml_dtypes.float8_e4m3fn)
_S1 = np.full((1, 1), 127, np.uint8)
_S2 = np.full((1, 2), 127, np.uint8)


@pytest.mark.parametrize(
    "fn, a, b, kw, match",
    [
        ("TMATMUL", _F32, _F32B, {"profile": "fast"}, "unknown numeric profile 'fast'"),
        ("TMATMUL_XX", _F32, _F32B, {}, "unknown CUBE function 'TMATMUL_XX'"),
        (8, _F32, _F32B, {}, "CUBE function 8 is reserved (deleted ACCCVT)"),
        (3, _F32, _F32B, {}, "CUBE function 3 is reserved (PTO-SPEC 3.1)"),
        ("TMATMUL", np.ones((1, 2, 3), np.float32), _F32B, {}, "A must be 2-D"),
        ("TMATMUL", None, _F32B, {}, "A is missing"),
        ("TMATMUL", np.ones((2, 3), np.float64), _F32B, {}, "give its PTO type name"),
        ("TMATMUL", np.ones((2, 3), np.int32), _F32B, {"a_type": "S32"},
         "A type S32 is not a CUBE input type"),
        ("TMATMUL", np.ones((2, 3), np.int16), _F32B, {"a_type": "S8"},
         "a S8 operand cannot have dtype int16"),
        ("TMATMUL", np.full((1, 2), 8, np.int8), np.ones((2, 2), np.int8),
         {"a_type": "S4X2", "b_type": "S4X2"}, "S4X2 values must lie in [-8, 7]"),
        ("TMATMUL", np.full((1, 2), -9, np.int8), np.ones((2, 2), np.int8),
         {"a_type": "S4X2", "b_type": "S4X2"}, "S4X2 values must lie in [-8, 7]"),
        ("TMATMUL", np.full((1, 2), 0x40, np.uint8), np.ones((2, 2), np.uint8),
         {"a_type": "E3M2", "b_type": "E3M2"}, "top two carrier bits zero"),
        ("TMATMUL", _F32, np.ones((3, 4), np.int8), {}, "must be of the same class"),
        ("TMATMUL", np.ones((0, 3), np.float32), _F32B, {}, "M, K >= 1"),
        ("TMATMUL", _F32, np.ones((2, 4), np.float32), {}, "B must be K x N = 3 x N"),
        ("TMATMUL", _F32, np.ones((3, 0), np.float32), {}, "B must be K x N = 3 x N"),
        ("TGEMV", _F32, _F32B, {}, "TGEMV needs a 1 x K vector A, got M = 2"),
        ("TMATMUL", _F32, _F32B, {"a_scale": _S1}, "takes no E8M0 scales"),
        ("TMATMUL", _F32, _F32B, {"b_scale": _S1}, "takes no E8M0 scales"),
        ("TMATMUL_ACC", _F32, _F32B, {}, "needs the accumulator input C (2x4 FP32)"),
        ("TMATMUL", _F32, _F32B, {"c": np.zeros((2, 4), np.float32)}, "takes no accumulator"),
        ("TMATMUL", _F32, _F32B, {"c_type": "FP32"}, "takes no accumulator"),
        ("TMATMUL_BIAS", _F32, _F32B, {}, "needs a 1x4 FP32 Bias"),
        ("TMATMUL", _F32, _F32B, {"bias": np.zeros((1, 4), np.float32)}, "takes no Bias"),
        ("TMATMUL_ACC", _F32, _F32B, {"c": np.zeros((2, 4), np.float32), "c_type": "S32"},
         "C must have the accumulator type FP32"),
        ("TMATMUL_ACC", _F32, _F32B, {"c": np.zeros((2, 4))}, "C must be FP32 (float32)"),
        ("TMATMUL_ACC", _F32, _F32B, {"c": np.zeros((2, 3), np.float32)},
         "C must be 2x4, got shape (2, 3)"),
        ("TMATMUL_BIAS", _F32, _F32B, {"bias": np.zeros((2, 4), np.float32)},
         "Bias must be 1x4"),
        ("TMATMUL", _F32, _F32B, {"fpatr": (0,) * 10}, "fpatr must be a pto_dialect Fpatr"),
        ("TMATMUL", _F32, _F32B, {"fpatr": Fpatr(trans_b=1)}, "TransA/TransB must be 0"),
        ("TMATMUL_ACC", _F32, _F32B, {"c": np.zeros((2, 4), np.float32),
                                       "fpatr": Fpatr(cscale_en=1)}, "CScaleEn is not implemented"),
        ("TMATMUL", _F32, _F32B, {"fpatr": Fpatr(cscale_en=1)}, "CScaleEn is legal only"),
        ("TMATMUL", _F32, _F32B, {"fpatr": Fpatr(row_max_en=1, row_max_init=1),
                                  "row_max_in": np.zeros((3, 1), np.float32)},
         "row_max_in must be an 2x1 float32 tile"),
        ("TMATMUL", _F32, _F32B, {"fpatr": Fpatr(row_max_en=1, row_max_init=1),
                                  "row_max_in": np.zeros((2, 1), np.float64)},
         "row_max_in must be an 2x1 float32 tile"),
        ("TMATMUL", _F32, _F32B, {"fpatr": Fpatr(relu_mode=1), "profile": "raw-carrier"},
         "raw-carrier profile supports PreQuantMode 0 with ReluMode 0 only"),
        ("TMATMUL_MX", np.ones((1, 3), np.int8), _E4B, {"a_type": "S8"},
         "A type S8 is not an MX input type"),
        ("TMATMUL_MX", _E4, _E4B, {"a_scale": np.ones((1, 1), ml_dtypes.float8_e4m3fn),
                                  "b_scale": _S2}, "A scale must be E8M0, not E4M3"),
        ("TMATMUL_MX", _E4, _E4B, {"a_scale": np.full((2, 1), 127, np.uint8), "b_scale": _S2},
         "A scale must have shape 1x1 (D1), got (2, 1)"),
    ],
)
def test_cube_matrix_operand_faults(fn, a, b, kw, match):
    copies = [np.array(x, copy=True) for x in (a, b) if x is not None]
    with pytest.raises(PTOFault) as e:
        cube_matrix(fn, a, b, **kw)
    assert match in str(e.value)
    assert e.value.kind in ("TileLegality", "IllegalInstruction")
    for x, y in zip([x for x in (a, b) if x is not None], copies):
        assert np.array_equal(x.view(np.uint8), y.view(np.uint8))


def test_a_one_dimensional_operand_is_one_row():
    """A 1-D A is the 1 x K row of a GEMV (``_as_2d``): the same result as its 2-D form."""
    a, b = np.array([1.0, 2.0, 3.0], np.float32), np.arange(6, dtype=np.float32).reshape(3, 2)
    got = cube_matrix("TGEMV", a, b)
    assert got.tolist() == [[16.0, 22.0]]


def test_raw_carrier_sums_beyond_float64_exactness():
    """Raw-carrier words are summed as 64-bit integers (D4): (2^27 + 1)(2^26 + 1) =
    2^53 + 2^27 + 2^26 + 1 is odd above 2^53, where float64 cannot hold it (the float64
    matmul is used only while every partial sum stays below 2^53); the 64-bit wrap of
    0x7FFFFFFF^2 * 3 + 5 likewise, against Python integers."""
    a = np.array([[0x08000001]], np.uint32).view(np.float32)
    b = np.array([[0x04000001]], np.uint32).view(np.float32)
    assert int(cube_matrix("TMATMUL", a, b, profile="raw-carrier")[0, 0]) == (2**27 + 1) * (2**26 + 1)
    a = np.full((1, 3), 0x7FFFFFFF, np.uint32).view(np.float32)
    b = np.full((3, 1), 0x7FFFFFFF, np.uint32).view(np.float32)
    bias = np.array([[5]], np.uint32).view(np.float32)
    got = int(cube_matrix("TMATMUL_BIAS", a, b, bias=bias, profile="raw-carrier")[0, 0])
    want = (3 * 0x7FFFFFFF**2 + 5) % 2**64
    assert got == (want - 2**64 if want >= 2**63 else want)
