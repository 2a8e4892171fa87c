"""TGEMV_MX_BIAS kernel (PTO-SPEC 3.3, 4, 6; D1-D5, D11, D12).

References are independent of the kernel: element values come from a Fraction decoder
written from the bit layout (test_kernel_mx.fraction_decode), sums are exact rationals,
and FP32 rounding is done by choosing among float32 neighbours by exact distance.
"""

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_kernel_mx import LAYOUT, fraction_decode

from interpreter.kernels import lrelu_param_word, quant_param_word, tgemv_mx_bias
from interpreter.kernels.postprocess import fp19_bits
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from pto_dialect.postprocess import Fpatr

F32_MAX = Fraction(float(np.finfo(np.float32).max))
F32_HALF_ULP_TOP = Fraction(2) ** 128 - Fraction(2) ** 103  # halfway max -> 2^128


def f32_nearest_even(x):
    """Fraction -> nearest float32, ties to even (written independently of the kernel)."""
    if x == 0:
        return np.float32(0.0)
    if abs(x) >= F32_HALF_ULP_TOP:
        return np.float32(math.copysign(math.inf, x))
    c = np.float32(float(x))  # may be double-rounded: check its neighbours
    best = None
    for cand in (np.nextafter(c, np.float32(-np.inf)), c, np.nextafter(c, np.float32(np.inf))):
        if not np.isfinite(cand):
            continue
        d = abs(Fraction(float(cand)) - x)
        key = (d, int(np.array(cand).view(np.uint32)) & 1)
        if best is None or key < best[0]:
            best = (key, cand)
    return best[1]


def e8m0_value(code):
    return None if code == 0xFF else Fraction(2) ** (code - 127)


def reference(a_codes, at, b_codes, bt, sa, sb, bias):
    """Exact D row from raw codes, rounded once; NaN/inf handled by IEEE rules on floats."""
    k, n = b_codes.shape
    out = []
    for j in range(n):
        total, special = Fraction(0), []
        for i in range(k):
            av = fraction_decode(at, int(a_codes[i]))
            bv = fraction_decode(bt, int(b_codes[i, j]))
            s = Fraction(1)
            for sc in ([] if sa is None else [sa[i // 32]]) + ([] if sb is None else [sb[i // 32, j]]):
                v = e8m0_value(int(sc))
                if v is None:
                    s = None
                    break
                s *= v
            if s is None or av is None or bv is None:
                special.append(math.nan)
            elif isinstance(av, float) or isinstance(bv, float):
                special.append(float(av) * float(bv))  # inf * x (0 -> NaN)
            else:
                total += av * bv * s
        if special:
            out.append(np.float32(sum(special)))
        else:
            out.append(f32_nearest_even(total + Fraction(float(bias[j]))))
    return np.array(out, np.float32)


def raw(t, rng, shape, finite=True):
    width = LAYOUT[t][0]
    c = rng.integers(0, 1 << width, size=shape).astype(np.uint16 if width == 16 else np.uint8)
    if finite:
        bad = np.vectorize(lambda x: not isinstance(fraction_decode(t, int(x)), Fraction))(c)
        c[bad] = 0x3C00 if width == 16 else 1  # a finite code
    return c


MX_TYPES = [T.FP16, T.BF16, T.E4M3, T.E5M2, T.E2M1X2, T.E1M2X2]


def call(ac, at, bc, bt, sa, sb, bias, **kw):
    return tgemv_mx_bias(ac, bc, bias, sa, sb, a_type=at, b_type=bt, **kw)


def scales(t, rng, shape):
    if t in (T.FP16, T.BF16):
        return None
    return rng.integers(110, 145, size=shape).astype(np.uint8)


@settings(max_examples=60, deadline=None)
@given(
    at=st.sampled_from(MX_TYPES),
    bt=st.sampled_from(MX_TYPES),
    k=st.sampled_from([1, 5, 31, 32, 33, 64, 70]),
    n=st.sampled_from([1, 2, 3, 8]),
    seed=st.integers(0, 2**32 - 1),
)
def test_exact_profile_against_fraction_reference(at, bt, k, n, seed):
    """D4 `exact`: one rounding of the exact sum, bit for bit."""
    rng = np.random.default_rng(seed)
    ac, bc = raw(at, rng, (k,)), raw(bt, rng, (k, n))
    nb = -(-k // 32)
    sa, sb = scales(at, rng, (1, nb)), scales(bt, rng, (nb, n))
    bias = rng.standard_normal(n).astype(np.float32)
    got = call(ac.reshape(1, k), at, bc, bt, sa, sb, bias.reshape(1, n), profile="exact")
    assert got.shape == (1, n) and got.dtype == np.float32
    ref = reference(ac, at, bc, bt, None if sa is None else sa[0], sb, bias)
    np.testing.assert_array_equal(got[0], ref)


def test_exact_single_rounding_when_sub_block_sums_are_exact():
    """D4 `exact` rounds once, with the blocks' scales spread over many binades."""
    rng = np.random.default_rng(7)
    k, n = 96, 16
    small = np.array([0x38, 0x40, 0x44, 0x48, 0xB8, 0xC0, 0xC4, 0xC8, 0x00], np.uint8)
    ac, bc = rng.choice(small, k), rng.choice(small, (k, n))
    sa = np.array([[127, 150, 104]], np.uint8)
    sb = rng.integers(100, 150, size=(3, n)).astype(np.uint8)
    bias = rng.standard_normal(n).astype(np.float32)
    got = call(ac, "E4M3", bc, "E4M3", sa, sb, bias, profile="exact")[0]
    ref = reference(ac, T.E4M3, bc, T.E4M3, sa[0], sb, bias)
    np.testing.assert_array_equal(got, ref)


def fp32_sequential_reference(av, bv, s, bias):
    """Python floats: k increasing, product exact in double, add in double, round to FP32."""
    k, n = len(bv), len(bv[0])
    out = []
    for j in range(n):
        acc = np.float32(0.0)
        for i in range(k):
            with np.errstate(over="ignore"):
                acc = np.float32(float(acc) + av[i] * bv[i][j] * s[i][j])
        with np.errstate(over="ignore", invalid="ignore"):
            out.append(np.float32(acc + np.float32(bias[j])))
    return np.array(out, np.float32)


@settings(max_examples=40, deadline=None)
@given(
    at=st.sampled_from(MX_TYPES),
    bt=st.sampled_from(MX_TYPES),
    k=st.sampled_from([1, 7, 32, 45]),
    n=st.sampled_from([1, 3, 5]),
    seed=st.integers(0, 2**32 - 1),
)
def test_fp32_sequential_bit_exact(at, bt, k, n, seed):
    """D4 `fp32-sequential` equals a straightforward Python-float loop bit for bit."""
    rng = np.random.default_rng(seed)
    ac, bc = raw(at, rng, (k,)), raw(bt, rng, (k, n))
    nb = -(-k // 32)
    sa, sb = scales(at, rng, (1, nb)), scales(bt, rng, (nb, n))
    bias = rng.standard_normal(n).astype(np.float32)
    got = call(ac, at, bc, bt, sa, sb, bias, profile="fp32-sequential")[0]
    av = [float(fraction_decode(at, int(c))) for c in ac]
    bv = [[float(fraction_decode(bt, int(c))) for c in row] for row in bc]
    s = [[1.0] * n for _ in range(k)]
    for i in range(k):
        for j in range(n):
            if sa is not None:
                s[i][j] *= 2.0 ** (int(sa[0, i // 32]) - 127)
            if sb is not None:
                s[i][j] *= 2.0 ** (int(sb[i // 32, j]) - 127)
    np.testing.assert_array_equal(got, fp32_sequential_reference(av, bv, s, bias))


def test_raw_carrier_spec_examples():
    """PTO-SPEC 6: FP16 raw A=2, B=3, FP32 raw Bias=5 -> 11; totality test: E4M3 with raw
    scales 1 and Bias 7 -> 13 (D4 raw-carrier, scales as raw integer multipliers)."""
    bias5 = np.array([[5]], np.uint32).view(np.float32)
    d = tgemv_mx_bias(np.array([[2]], np.uint16), np.array([[3]], np.uint16), bias5,
                      a_type="FP16", b_type="FP16", profile="raw-carrier")
    assert d.tolist() == [[11]]
    one = np.array([[1]], np.uint8)
    d = tgemv_mx_bias(np.array([[2]], np.uint8), np.array([[3]], np.uint8),
                      np.array([[7]], np.int64), one, one, a_type="E4M3", b_type="E4M3",
                      profile="raw-carrier")
    assert d.tolist() == [[13]]


def test_nan_scale_and_specials_d5():
    a = np.array([1.0, 2.0], ml_dtypes.float8_e4m3fn)
    b = np.array([[1.0, 0.0], [1.0, 1.0]], ml_dtypes.float8_e4m3fn)
    sa = np.array([[127]], np.uint8)
    sb = np.array([[127, 0xFF]], np.uint8)
    d = tgemv_mx_bias(a, b, None, sa, sb)
    assert d[0, 0] == 3.0 and np.isnan(d[0, 1])  # E8M0 0xFF -> NaN product
    d = tgemv_mx_bias(a, b, None, np.array([[0xFF]], np.uint8), np.array([[127, 127]], np.uint8))
    assert np.isnan(d).all()
    # both scales NaN: the largest combined code (the scale table's last entry, issue 27)
    d = tgemv_mx_bias(a, b, None, np.array([[0xFF]], np.uint8), np.array([[0xFF, 127]], np.uint8))
    assert np.isnan(d).all()
    # E4M3 0x7F is NaN
    b2 = np.array([[0x7F], [0x38]], np.uint8)
    d = tgemv_mx_bias(a, b2, None, sa, np.array([[127]], np.uint8), b_type="E4M3")
    assert np.isnan(d[0, 0])
    # E5M2 inf; 0 * inf = NaN
    b3 = np.array([[0x7C, 0x7C]], np.uint8)
    a3 = np.array([0.0], ml_dtypes.float8_e5m2)
    d = tgemv_mx_bias(np.array([1.0], ml_dtypes.float8_e5m2), b3, None, sa,
                      np.array([[127, 127]], np.uint8), b_type="E5M2")
    assert d[0, 0] == np.inf
    d = tgemv_mx_bias(a3, b3, None, sa, np.array([[127, 127]], np.uint8), b_type="E5M2")
    assert np.isnan(d).all()


def test_large_exact_and_threads_against_float64():
    """Sizes that take the chunked, two-thread path; compared with a float64 matmul."""
    rng = np.random.default_rng(3)
    k, n = 600, 4000
    a = rng.standard_normal(k).astype(ml_dtypes.float8_e4m3fn)
    b = rng.standard_normal((k, n)).astype(ml_dtypes.float4_e2m1fn)
    sa = rng.integers(120, 135, size=(1, 19)).astype(np.uint8)
    sb = rng.integers(120, 135, size=(19, n)).astype(np.uint8)
    d = tgemv_mx_bias(a, b, None, sa, sb)[0]
    av = a.astype(np.float64) * np.ldexp(1.0, sa[0].astype(int) - 127)[np.arange(k) // 32]
    bv = b.astype(np.float64) * np.ldexp(1.0, sb.astype(int) - 127)[np.arange(k) // 32]
    terms = np.abs(av) @ np.abs(bv)
    assert (np.abs(d - av @ bv) <= 1e-6 * terms + 2.0**-24 * np.abs(av @ bv)).all()
    # packed FP4 (two per byte) gives the same answer
    codes = b.view(np.uint8) & 0x0F
    packed = (codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8)
    d2 = tgemv_mx_bias(a, packed, None, sa, sb, b_type="E2M1X2", packed=True)[0]
    np.testing.assert_array_equal(d, d2)


# -- post-processing (PTO-SPEC 3.3) -------------------------------------------------------
def gemv_f32(values, **kw):
    """D = values: A = [1.0] (FP16), B = the 1 x N row (FP16), no bias."""
    b = np.array([values], np.float16)
    return tgemv_mx_bias(np.array([1.0], np.float16), b, None, **kw)


def test_sat_clamp_vs_inf_d5():
    """Sat=1 clamps overflow to the largest finite value; Sat=0 gives inf (D5)."""
    a = np.array([57344.0], ml_dtypes.float8_e5m2)
    b = np.array([[1.0, -1.0]], ml_dtypes.float8_e5m2)
    sa, sb = np.array([[254]], np.uint8), np.array([[127, 127]], np.uint8)  # 57344 * 2^127
    f = Fpatr(pre_quant_mode=27)  # QF322F32_PRE, scalar scale
    w = quant_param_word(1.0)
    d0 = tgemv_mx_bias(a, b, None, sa, sb, fpatr=f, quant_scalar=w)
    assert d0.tolist() == [[np.inf, -np.inf]]
    d1 = tgemv_mx_bias(a, b, None, sa, sb, fpatr=f, quant_scalar=w, sat=True)
    fmax = float(np.finfo(np.float32).max)
    assert d1.tolist() == [[fmax, -fmax]]
    for prof in ("fp32-sequential",):
        assert tgemv_mx_bias(a, b, None, sa, sb, fpatr=f, quant_scalar=w, sat=True,
                             profile=prof).tolist() == [[fmax, -fmax]]
        assert tgemv_mx_bias(a, b, None, sa, sb, fpatr=f, quant_scalar=w,
                             profile=prof).tolist() == [[np.inf, -np.inf]]
    # overflow in the conversion itself: FLT_MAX * 2
    big = np.array([[fmax, -fmax]], np.float32)
    one = np.array([1.0], np.float16)
    zb = np.zeros((1, 2), np.float16)
    w2 = quant_param_word(2.0)
    assert tgemv_mx_bias(one, zb, big, fpatr=f, quant_scalar=w2).tolist() == [[np.inf, -np.inf]]
    assert tgemv_mx_bias(one, zb, big, fpatr=f, quant_scalar=w2, sat=True).tolist() == [
        [fmax, -fmax]
    ]
    # F322F16 conversion overflow: inf vs 65504
    f16 = Fpatr(pre_quant_mode=1)
    d = gemv_f32([1.0e4], fpatr=f16)
    assert d.dtype == np.float16 and d[0, 0] == 10000
    b = np.array([[60000.0]], np.float16)
    a2 = np.array([2.0], np.float16)
    assert tgemv_mx_bias(a2, b, None, fpatr=f16)[0, 0] == np.inf
    assert tgemv_mx_bias(a2, b, None, fpatr=f16, sat=True)[0, 0] == 65504


def test_relu_lrelu_prelu_and_vector_quant():
    vals = [-2.0, -0.5, 0.0, 1.5, 3.0]
    d = gemv_f32(vals, fpatr=Fpatr(relu_mode=1))
    assert d.tolist() == [[0.0, 0.0, 0.0, 1.5, 3.0]] and not np.signbit(d).any()
    d = gemv_f32(vals, fpatr=Fpatr(relu_mode=2), lrelu_scalar=lrelu_param_word(0.25))
    assert d.tolist() == [[-0.5, -0.125, 0.0, 1.5, 3.0]]
    slopes = np.array([[lrelu_param_word(s) for s in (0.5, 0.0, 1.0, 2.0, 4.0)]], np.uint64)
    d = gemv_f32(vals, fpatr=Fpatr(relu_mode=3), prelu=slopes)
    assert d.tolist() == [[-1.0, 0.0, 0.0, 1.5, 3.0]]
    # vector quant to BF16 (mode 36): per-column scale; negative values use the LReLU slope
    q = np.array([[quant_param_word(s) for s in (1.0, 2.0, 4.0, 0.5, 0.25)]], np.uint64)
    d = gemv_f32(vals, fpatr=Fpatr(pre_quant_mode=36, relu_mode=2), quant=q,
                 lrelu_scalar=lrelu_param_word(0.5))
    assert d.dtype == ml_dtypes.bfloat16
    assert d.astype(np.float32).tolist() == [[-1.0, -0.25, 0.0, 0.75, 0.75]]


def test_s8_quant_offset_round_and_wrap():
    """Mode 24 (QF322B8_PRE): round, saturate to S9, add the 9-bit offset, then Sat/wrap."""
    vals = [2.5, -2.5, 100.0, 3.0]
    w = quant_param_word(1.0, offset=100, offset_bits=9)
    d = gemv_f32(vals, fpatr=Fpatr(pre_quant_mode=24), quant_scalar=w)
    # RNE: 2.5 -> 2, -2.5 -> -2; 100 + 100 = 200 wraps to -56; 3 + 100 = 103
    assert d.dtype == np.int8 and d.tolist() == [[102, 98, -56, 103]]
    d = gemv_f32(vals, fpatr=Fpatr(pre_quant_mode=24), quant_scalar=w, sat=True, rmode="rna")
    assert d.tolist() == [[103, 97, 127, 103]]


def test_e4m3_output_and_rounding_modes():
    w = quant_param_word(1.0)
    # 17 is a tie between E4M3 16 and 18: RNE -> 16; overflow > 448 -> NaN (Sat=0) / 448
    d = gemv_f32([17.0, 500.0, -500.0], fpatr=Fpatr(pre_quant_mode=26), quant_scalar=w)
    assert d.dtype == ml_dtypes.float8_e4m3fn
    got = d.astype(np.float32)[0]
    assert got[0] == 16 and np.isnan(got[1]) and np.isnan(got[2])
    d = gemv_f32([500.0, -500.0], fpatr=Fpatr(pre_quant_mode=26), quant_scalar=w, sat=True)
    assert d.astype(np.float32).tolist() == [[448, -448]]
    # mode 27 (FP32 out, RMode from B.DATR): 1 + 2^-24 style value via scale 2^-20 * ...
    q = quant_param_word(1.0 + 2.0**-10)
    x = 1.0 + 2.0**-10  # x*q = 1 + 2^-9 + 2^-20: exact in FP32, so every mode agrees
    for rm in ("rne", "rtz", "rtp", "rtm", "rna", "rto"):
        d = gemv_f32([x], fpatr=Fpatr(pre_quant_mode=27), quant_scalar=q, rmode=rm)
        assert d[0, 0] == np.float32(x * (1.0 + 2.0**-10))


def test_reductions_on_raw_accumulator():
    vals = [-5.0, 1.0, 3.0, -7.0, 2.0, 0.5, 4.0, -1.0, 6.0, -9.0]
    f = Fpatr(relu_mode=1, row_max_en=1, group_max_en=1, group_n_code=1)  # GroupN 8
    d, rmax, gmax = gemv_f32(vals, fpatr=f)
    assert rmax.tolist() == [[6.0]] and gmax.tolist() == [[4.0, 6.0]]
    assert d.min() == 0.0  # ReLU applies to D but not to the reductions
    f = Fpatr(row_max_en=1, row_max_init=1, max_abs_en=1)
    d, rmax = gemv_f32(vals, fpatr=f, row_max_in=np.array([[-20.0]], np.float32))
    assert rmax.tolist() == [[20.0]]


# -- faults (D2, D11, D12) ----------------------------------------------------------------
def _inputs():
    a = np.array([[1.0, 2.0]], ml_dtypes.float8_e4m3fn)
    b = np.ones((2, 3), ml_dtypes.float8_e4m3fn)
    return a, b, np.full((1, 1), 127, np.uint8), np.full((1, 3), 127, np.uint8)


@pytest.mark.parametrize(
    "mutate, match",
    [
        (lambda kw: kw.update(a_scale=None), "A scale is missing"),
        (lambda kw: kw.update(b_scale=np.full((2, 3), 127, np.uint8)), "B scale must have"),
        (lambda kw: kw.update(a=np.zeros((1, 2), np.uint8), a_type="E2M3"), "not an MX input"),
        (lambda kw: kw.update(a=np.zeros((1, 2), np.float16), a_scale=None), None),
        (lambda kw: kw.update(a=np.zeros((1, 2), np.float16)), "carries no E8M0"),
        (lambda kw: kw.update(b=np.ones((3, 3), ml_dtypes.float8_e4m3fn)), "B must be"),
        (lambda kw: kw.update(bias=np.zeros((1, 3), np.float64)), "FP32"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=2)), "S32 accumulator"),
        (lambda kw: kw.update(fpatr=Fpatr(trans_a=1)), "TransA"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=27)), "quant_scalar, which is missing"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=27), quant_scalar=0), "positive normal"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=27),
                              quant_scalar=quant_param_word(1.0) | 1), "must be 0"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=1), rmode="rtz"), "fixes its rounding"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=25), rmode="rne",
                              quant_scalar=quant_param_word(1.0)), "fixes its rounding"),
        (lambda kw: kw.update(profile="fast"), "profile"),
        (lambda kw: kw.update(fpatr=Fpatr(row_max_init=1)), "row_max_init requires"),
        (lambda kw: kw.update(fpatr=(0,) * 10), "must be a pto_dialect Fpatr"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=6)), "pre_quant_mode 6 is reserved"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=27), quant_scalar=-1),
         "not a 64-bit word"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=27), quant_scalar=1 << 64),
         "not a 64-bit word"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=38), quant=np.ones((1, 3), np.float32)),
         "must hold U64 words"),
        (lambda kw: kw.update(fpatr=Fpatr(pre_quant_mode=38), quant=np.full((1, 3), -1, np.int64)),
         "holds negative words"),
        (lambda kw: kw.update(rmode="rnx"), "unknown rounding mode 'rnx'"),
        (lambda kw: kw.update(rmode=8), "RMode 8 is not 0..7"),
    ],
)
def test_faults_leave_inputs_unchanged(mutate, match):
    a, b, sa, sb = _inputs()
    kw = dict(a=a, b=b, a_scale=sa, b_scale=sb, bias=np.zeros((1, 3), np.float32))
    mutate(kw)
    copies = {k: np.array(v, copy=True) for k, v in kw.items() if isinstance(v, np.ndarray)}
    if match is None:  # the FP16 side without a scale is legal
        tgemv_mx_bias(**kw)
        return
    with pytest.raises(PTOFault) as e:
        tgemv_mx_bias(**kw)
    assert e.value.kind in ("TileLegality", "IllegalInstruction")
    assert match in str(e.value)
    for k, v in copies.items():
        np.testing.assert_array_equal(kw[k].view(np.uint8), v.view(np.uint8))


def test_term_below_the_fp32_grid_is_not_rounded_early():
    """The lowest term bit at 2^-150, one below FP32's grid (E = -132, E4M3 elements 2^-9,
    2^-8 and 3 x 2^-9): terms 2^-149 and 1.5 x 2^-149 are added exactly and rounded once,
    2.5 x 2^-149 -> 2^-148 (ties to even), in both profiles. Rounding the second term to
    FP32 first (as if it were on the grid) would give 3 x 2^-149 (issue 27 mutation
    survivor at the safety bound -149)."""
    a = np.array([2.0**-9, 2.0**-9], ml_dtypes.float8_e4m3fn)
    b = np.array([[2.0**-8], [3 * 2.0**-9]], ml_dtypes.float8_e4m3fn)
    scale = np.array([[127 - 66]], np.uint8)  # 2^-66 on each side: E = -132
    for profile in ("ordered", "exact"):
        d = tgemv_mx_bias(a, b, None, scale, scale, profile=profile)
        assert float(d[0, 0]) == 2.0**-148, profile


def test_parameter_word_builders_refuse_what_they_cannot_encode():
    """FP19 is the top 19 bits of an FP32 (1.5 = 0x3FC00000 -> 0x1FE00); a value with lower
    bits set, an offset outside its signed field or an offset without a field is refused."""
    assert fp19_bits(1.5) == 0x3FC00000 >> 13
    with pytest.raises(ValueError, match="not representable in FP19"):
        fp19_bits(1.0 + 2.0**-11)
    assert quant_param_word(1.0, -8, 4) >> 37 == 0b1000
    assert quant_param_word(1.0, 7, 4) >> 37 == 0b0111
    for offset in (8, -9):
        with pytest.raises(ValueError, match="does not fit 4 signed bits"):
            quant_param_word(1.0, offset, 4)
    with pytest.raises(ValueError, match="an offset needs offset_bits"):
        quant_param_word(1.0, 1)
