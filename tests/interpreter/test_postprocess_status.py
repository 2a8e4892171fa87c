"""Numeric status flags of CUBE post-processing and RowMax / GroupMax against an independent
reference: a scalar transcription of the ASL (``MatrixPostQuantBaseWithFlags`` and the
encoders of ``asl/arch/profile/matrix-quantization.asl`` / ``reference-quantization.asl``)
in exact rational arithmetic (``fractions.Fraction``) on hand-decoded bit patterns, with
its own rounding and its own FP8 value tables (from the ASL's ``ReferenceFP8FiniteValue``
formulas). The kernels decide inexactness from the delivered values instead; hypothesis
compares the two on rows mixing specials, tiny, huge and ordinary accumulators. Plus
hand-derived examples, the run-level commit through ``interpreter.run`` (both engines) and
the rollback of a faulting CUBE operation (D12).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from interpreter.kernels.cube import cube_matrix
from interpreter.kernels.postprocess import (
    apply,
    lrelu_param_word,
    parse_rmode,
    quant_param_word,
    validate,
)
from interpreter.kernels.postprocess_status import postprocess_flags, reduction_flags
from interpreter.kernels.status import NV, NX, OF, UF, recording
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from pto_dialect.postprocess import PRE_QUANT_MODES, Fpatr, ParamKind
from tests.budget import examples

# -- the reference ------------------------------------------------------------------------
RNE, RTZ, RTM, RTP, RNA, RTO, RHB = "RNE", "RTZ", "RTM", "RTP", "RNA", "RTO", "RHB"
RMODE = {0: RNE, 1: RNE, 2: RTZ, 3: RTM, 4: RTP, 5: RNA, 6: RTO, 7: RHB}
FIXED = {1: RNE, 16: RNE, 26: RNE, 32: RNE, 33: RNE, 34: RNE, 36: RNE, 37: RNE, 25: RHB, 28: RHB}


def fp32(bits: int) -> tuple[str, Fraction | None, bool]:
    """(class, value, negative) of an FP32 bit pattern, decoded by hand."""
    neg = bool(bits >> 31)
    e, f = bits >> 23 & 0xFF, bits & 0x7FFFFF
    if e == 0xFF:
        if f:
            return ("snan" if not f & 0x400000 else "qnan"), None, False
        return "inf", None, neg
    mag = Fraction(f, 2**149) if e == 0 else Fraction(0x800000 + f, 2**23) * Fraction(2) ** (e - 127)
    return ("zero" if mag == 0 else "finite"), (-mag if neg else mag), neg


def to_integer(v: Fraction, mode: str) -> int:
    """ASL ``FloatingToInteger``."""
    lower = math.floor(v)
    frac = v - lower
    if mode == RNE:
        return lower + (frac > Fraction(1, 2) or (frac == Fraction(1, 2) and lower % 2 == 1))
    if mode == RTP:
        return math.ceil(v)
    if mode == RTM:
        return lower
    if mode == RTZ:
        return math.trunc(v)
    if mode == RNA:
        return lower + (frac > Fraction(1, 2) or (frac == Fraction(1, 2) and v > 0))
    if mode == RTO:
        return lower if frac == 0 or lower % 2 else lower + 1
    return lower + (frac >= Fraction(1, 2))  # RHB


def magnitude_round(m: Fraction, mode: str, negative: bool) -> int:
    """ASL ``MatrixRoundMagnitude`` of a non-negative ``m``."""
    if negative and mode == RHB:
        lower = math.floor(m)
        return lower if m - lower <= Fraction(1, 2) else lower + 1
    if negative:
        mode = {RTP: RTM, RTM: RTP}.get(mode, mode)
    return to_integer(m, mode)


BINARY = {T.FP32: (23, -126, 127), T.FP16: (10, -14, 15), T.BF16: (7, -126, 127)}


def binary_flags(v: Fraction, t: T, mode: str) -> int:
    """``ReferenceFP32FiniteEncoding`` / ``ReferenceBinary16Encoding`` flags."""
    if v == 0:
        return 0
    mbits, emin, emax = BINARY[t]
    neg, m = v < 0, abs(v)
    e = math.floor(math.log2(m))
    while Fraction(2) ** e > m:
        e -= 1
    while Fraction(2) ** (e + 1) <= m:
        e += 1
    if e > emax:
        return OF | NX
    if e < emin:
        scaled = m / Fraction(2) ** (emin - mbits)
        return 0 if magnitude_round(scaled, mode, neg) == scaled else UF | NX
    scaled = m / Fraction(2) ** (e - mbits)
    r = magnitude_round(scaled, mode, neg)
    if r == 2 ** (mbits + 1) and e + 1 > emax:
        return OF | NX
    return 0 if r == scaled else NX


def fp8_values_of_code(t: T, code: int) -> Fraction | None:
    """The finite value of an E4M3 / HiF8 code (ASL ``ReferenceFP8FiniteValue``), None for
    the NaN / inf codes."""
    body, sign = code & 0x7F, -1 if code & 0x80 else 1
    if t is T.E4M3:
        if body == 0x7F:
            return None
        e, f = body >> 3, body & 7
        mag = Fraction(f, 2**9) if e == 0 else (1 + Fraction(f, 8)) * Fraction(2) ** (e - 7)
        return sign * mag
    if code in (0x80, 0x6F, 0xEF):
        return None
    if body <= 7:
        mag = Fraction(0) if body == 0 else Fraction(2) ** (body - 23)
    elif body <= 15:
        mag = 1 + Fraction(body - 8, 8)
    elif body <= 31:
        mag = (1 + Fraction(code & 7, 8)) * Fraction(2) ** (1 if not code & 8 else -1)
    elif body <= 63:
        a = 2 + (code >> 3 & 1)
        mag = (1 + Fraction(code & 7, 8)) * Fraction(2) ** (a if (code >> 3 & 3) < 2 else -a)
    elif body <= 95:
        a = 4 + (code >> 2 & 3)
        mag = (1 + Fraction(code & 3, 4)) * Fraction(2) ** (a if (code >> 2 & 7) < 4 else -a)
    else:
        a = 8 + (code >> 1 & 7)
        mag = (1 + Fraction(code & 1, 2)) * Fraction(2) ** (a if (code >> 1 & 15) < 8 else -a)
    return sign * mag


def fp8_values(t: T) -> set[Fraction]:
    """The finite values of E4M3 / HiF8 (NaN / inf codes excluded)."""
    return {v for c in range(256) if (v := fp8_values_of_code(t, c)) is not None}


FP8 = {T.E4M3: (fp8_values(T.E4M3), 448, Fraction(1, 64)),
       T.HIF8: (fp8_values(T.HIF8), 32768, Fraction(1, 2**15))}  # fmt: skip


def encode_flags(v: Fraction, t: T, mode: str, lo: int, hi: int) -> int:
    """``MatrixEncodeReal``'s flags (integers: ``ReferenceMatrixIntegerEncoding``)."""
    if t in FP8:
        values, top, min_normal = FP8[t]
        if abs(v) > top:
            return OF | NX
        if v in values:
            return 0
        return UF | NX if abs(v) < min_normal else NX
    if t in BINARY:
        return binary_flags(v, t, mode)
    r = to_integer(v, mode)
    return OF | NX if not lo <= r <= hi else (0 if r == v else NX)


INT_RANGE = {T.S4X2: (-8, 7), T.S8: (-128, 127), T.S16: (-(2**15), 2**15 - 1),
             T.S32: (-(2**31), 2**31 - 1)}  # fmt: skip


def reference(word: int, mode: int, relu: int, scale: Fraction, offset: int,
              slope: Fraction, rmode: int, sat: bool, shift: int = 0) -> int:  # fmt: skip
    """``TileProfileMatrixPostProcessWithFlags``'s flags for one accumulator word (FP32
    bits, or an S32 value for the S32 modes)."""
    m = PRE_QUANT_MODES[mode]
    out = m.out or T.FP32
    rm = FIXED.get(mode, RMODE[rmode])
    if mode == 0 and relu == 0:
        return 0
    if mode in (12, 13):
        s = word >> shift
        return OF | NX if not -(2**15) <= s < 2**15 else 0
    integer_out = out in INT_RANGE
    if m.acc is T.S32:
        cls, value, neg = "finite", Fraction(word), word < 0
    else:
        cls, value, neg = fp32(word)
    mult = scale if not neg or relu == 0 else (Fraction(0) if relu == 1 else slope)
    special = cls in ("snan", "qnan") or (cls == "inf" and not (neg and mult == 0))
    if special:
        if cls != "inf":
            return NV if integer_out or cls == "snan" else 0
        if integer_out:
            return OF | NX if sat else NV
        return OF | NX if sat or out is T.E4M3 else 0
    x = Fraction(0) if cls == "inf" else value
    act = x * mult
    width = m.offset_bits
    lo, hi = INT_RANGE.get(out, (0, 0))
    if width:
        r = to_integer(act, rm)
        a, b = -(2 ** (width - 1)), 2 ** (width - 1) - 1
        first = OF | NX if not a <= r <= b else (0 if r == act else NX)
        final = min(max(r, a), b) + offset
        return first | (OF | NX if not lo <= final <= hi else 0)
    return encode_flags(act + offset, out, rm, lo, hi)


# -- the kernel on one row ----------------------------------------------------------------
def kernel_inputs(words, mode, relu, scale, offset, slope, rmode, sat, shift=0):
    """The accumulator row of ``words`` and its validated parameters (``validate``)."""
    m = PRE_QUANT_MODES[mode]
    n = len(words)
    if m.op.value == "shift":
        w = (shift - 1) << 32
    else:
        w = quant_param_word(float(scale), offset, m.offset_bits) if m.param is not ParamKind.NONE else None
    vec, sca = m.param is ParamKind.VECTOR, m.param is ParamKind.SCALAR
    slope_w = int(np.array(float(slope), np.float32).view(np.uint32)) >> 13
    p = validate(Fpatr(pre_quant_mode=mode, relu_mode=relu), n, rmode, sat,
                 np.full(n, w, np.uint64) if vec else None,
                 np.full(n, slope_w, np.uint64) if relu == 3 else None,
                 w if sca else None, slope_w if relu == 2 else None, None,
                 acc=m.acc or T.FP32)  # fmt: skip
    if m.acc is T.S32:
        acc = np.array(words, np.int64).astype(np.int32)
    else:
        acc = np.array(words, np.uint32).view(np.float32)
    return acc, p


def kernel_flags(words, mode, relu, scale, offset, slope, rmode, sat, shift=0) -> int:
    acc, p = kernel_inputs(words, mode, relu, scale, offset, slope, rmode, sat, shift)
    return postprocess_flags(acc, p, apply(acc, p))


INTERESTING = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x00000001,
               0x80000001, 0x007FFFFF, 0x00800000, 0x3F800000, 0xBF800000, 0x3FC00000,
               0x43E00000, 0x43E10000, 0x47000000, 0x47800000, 0x477FF000, 0x477FF001,
               0x7F7FFFFF, 0xFF7FFFFF, 0x38000000, 0x33800000, 0x3C800000, 0xBC7FFFFF,
               0x437F8000, 0x43800000, 0xC3808000]  # fmt: skip
"""Specials, FP32 subnormals, and values at the FP16 / E4M3 / HiF8 / S8 / S9 boundaries."""

fp32_words = st.one_of(st.sampled_from(INTERESTING), st.integers(0, 2**32 - 1),
                       st.floats(-600, 600, width=32).map(
                           lambda f: int(np.array(f, np.float32).view(np.uint32))))  # fmt: skip
s32_words = st.one_of(st.integers(-(2**31), 2**31 - 1), st.integers(-300, 300),
                      st.sampled_from([-(2**31), 2**31 - 1, 65535, 65536, -65537, 127, 128]))
fp19 = st.builds(lambda e, f: (1 + Fraction(f, 1024)) * Fraction(2) ** (e - 127),
                 st.one_of(st.integers(1, 254), st.integers(110, 140)), st.integers(0, 1023))


@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_postprocess_flags_match_the_rational_reference(data):
    mode = data.draw(st.sampled_from(sorted(PRE_QUANT_MODES)))
    m = PRE_QUANT_MODES[mode]
    relu = data.draw(st.integers(0, 3)) if mode not in (12, 13) else 0
    words = data.draw(st.lists(s32_words if m.acc is T.S32 else fp32_words, min_size=1, max_size=6))
    scale = data.draw(fp19) if m.param is not ParamKind.NONE else Fraction(1)
    width = m.offset_bits
    offset = data.draw(st.integers(-(2 ** (width - 1)), 2 ** (width - 1) - 1)) if width else 0
    slope = data.draw(st.one_of(st.just(Fraction(0)), fp19))
    fixed = mode in FIXED or mode in (12, 13)
    rmode = 0 if fixed else data.draw(st.integers(0, 7))
    sat = False if mode in (12, 13) else data.draw(st.booleans())
    shift = data.draw(st.integers(1, 16)) if mode in (12, 13) else 0
    try:
        got = kernel_flags(words, mode, relu, scale, offset, slope, rmode, sat, shift)
    except PTOFault:
        assume(False)
    want = 0
    for w in words:
        want |= reference(w, mode, relu, scale, offset, slope, rmode, sat, shift)
    assert got == want, (mode, relu, [hex(w) for w in words], scale, offset, slope, rmode, sat)


ONE = Fraction(1)


@pytest.mark.parametrize(("word", "mode", "kw", "want"), [
    (0x3F801000, 32, {}, NX),  # 1 + 2^-11 into FP16 RNE: a tie to even
    (0x477FF000, 32, {}, OF | NX),  # 65520: the tie goes to the even 65536, overflow
    (0x477FE000, 32, {}, 0),  # 65504 exact
    (0x38000000, 32, {}, 0),  # 2^-15: an exact FP16 subnormal
    (0x33000001, 32, {}, UF | NX),  # just above 2^-25: rounds up to the smallest subnormal
    (0x387FC001, 32, {}, UF | NX),  # rounds up to the smallest normal: tininess before
    (0x43E10000, 26, {}, OF | NX),  # 450 > 448 in E4M3 (before rounding)
    (0x43E00000, 26, {}, 0),  # 448
    (0x3A800000, 26, {}, UF | NX),  # 2^-10 into E4M3: rounds to 0
    (0x47000000, 25, {}, 0),  # 32768 is HiF8's maximum
    (0x47000100, 25, {}, OF | NX),  # beyond it
    (0xBF000BB0, 32, {"relu": 2, "slope": Fraction(3, 4)}, NX),  # pipeline-002: 0xB601
    (0x7F800000, 27, {}, 0),  # +inf into FP32: no flags
    (0x7F800000, 27, {"sat": True}, OF | NX),
    (0xFF800000, 24, {"relu": 1}, 0),  # -inf x ReLU's 0 is 0
    (0x7F800001, 27, {}, NV),  # signalling NaN
    (0x7FC00000, 27, {}, 0),  # quiet NaN
    (0x7FC00000, 24, {"sat": True}, NV),  # NaN into S8: NV even saturated
    (0x3F000000, 24, {}, NX),  # 0.5 into S8: inexact
    # the S9 intermediate's bounds -256 and 255 are in range, one beyond saturates (OF); the
    # offset brings the result back into S8 (mutation survivors, issue 27)
    (0xC3800000, 24, {"offset": 200}, 0),  # -256 + 200
    (0xC3808000, 24, {"offset": 200}, OF | NX),  # -257 -> -256, + 200
    (0x437F0000, 24, {"offset": -200}, 0),  # 255 - 200
    (0x43800000, 24, {"offset": -200}, OF | NX),  # 256 -> 255, - 200
], ids=str)  # fmt: skip
def test_hand_derived_examples(word, mode, kw, want):
    args = dict(relu=0, scale=ONE, offset=0, slope=Fraction(0), rmode=0, sat=False) | kw
    assert reference(word, mode, **args) == want
    assert kernel_flags([word], mode, **args) == want


# -- RowMax / GroupMax ------------------------------------------------------------------------
SNAN, QNAN, ONE_F = 0x7F800001, 0x7FC00000, 0x3F800000


def _f32(*words) -> np.ndarray:
    return np.array([words], np.uint32).view(np.float32)


@pytest.mark.parametrize(("row", "fields", "want"), [
    ((SNAN,), {"row_max_en": 1}, 0),  # one element: no step
    ((SNAN,), {"row_max_en": 1, "max_abs_en": 1}, NV),  # MaxAbsEn's initial |x| step
    ((SNAN, 0x3F800000), {"row_max_en": 1}, NV),
    ((QNAN, 0x3F800000), {"row_max_en": 1, "max_abs_en": 1}, 0),
    ((ONE_F,) * 8 + (SNAN,), {"group_max_en": 1, "group_n_code": 1}, 0),  # groups 8, 1
    ((ONE_F,) * 3 + (SNAN,) + (ONE_F,) * 5, {"group_max_en": 1, "group_n_code": 1}, NV),
    ((ONE_F,) * 8 + (SNAN,), {"group_max_en": 1, "group_n_code": 1, "max_abs_en": 1}, NV),
    ((ONE_F,) * 8 + (SNAN,), {"group_max_en": 1, "group_n_code": 1, "row_max_en": 1}, NV),
], ids=str)  # fmt: skip
def test_reduction_flags(row, fields, want):
    f = Fpatr(**fields)
    if f.group_max_en:
        assert f.group_n == 8
    assert reduction_flags(_f32(*row), f, None) == want


def test_reduction_flags_of_s32_and_the_row_max_input():
    f = Fpatr(row_max_en=1, max_abs_en=1)
    assert reduction_flags(np.array([[-(2**31), 3]], np.int32), f, None) == OF
    assert reduction_flags(np.array([[-(2**31), 3]], np.int32), Fpatr(row_max_en=1), None) == 0
    fi = Fpatr(row_max_en=1, row_max_init=1)
    assert reduction_flags(_f32(0x3F800000), fi, _f32(SNAN).reshape(1, 1)) == NV
    assert reduction_flags(_f32(SNAN), fi, _f32(0x3F800000).reshape(1, 1)) == NV
    fa = Fpatr(row_max_en=1, row_max_init=1, max_abs_en=1)
    rin = np.array([[-(2**31)]], np.int32)
    assert reduction_flags(np.array([[3]], np.int32), fa, rin) == OF
    assert reduction_flags(np.array([[3]], np.uint32), Fpatr(row_max_en=1, max_abs_en=1),
                           None) == 0  # fmt: skip


# -- the commit: kernel, run, rollback ------------------------------------------------------
def test_cube_kernel_records_postprocess_and_reduction_flags():
    a, b = np.ones((1, 1), np.float16), np.array([[1.5, 70.0]], np.float16)
    with recording() as st_:
        cube_matrix(0, a, b, fpatr=Fpatr(pre_quant_mode=24),
                    quant_scalar=quant_param_word(2.0, 0, 9))  # fmt: skip
    assert st_.bits == OF | NX  # 140 wraps in S8
    with recording() as st_:
        cube_matrix(0, a, np.array([[1.5, 2.0]], np.float16), fpatr=Fpatr(pre_quant_mode=1))
    assert st_.bits == 0
    with recording() as st_:  # PreQuantMode 0 / ReluMode 0 is the identity: nothing
        cube_matrix(0, a, np.array([[6e4, 6e4]], np.float16))
    assert st_.bits == 0


# -- TCVT into HiF8 and the FP6 / FP4 formats ------------------------------------------------
def _minifloat(ebits: int, mbits: int, bias: int) -> set[Fraction]:
    """Every value of a sign / ebits / mbits format without specials."""
    out = set()
    for e in range(2**ebits):
        for f in range(2**mbits):
            mag = (Fraction(f, 2**mbits) * Fraction(2) ** (1 - bias) if e == 0
                   else (1 + Fraction(f, 2**mbits)) * Fraction(2) ** (e - bias))  # fmt: skip
            out |= {mag, -mag}
    return out


CODED = {  # type: (values, largest finite, smallest normal)
    T.E3M2: (_minifloat(3, 2, 3), 28, Fraction(1, 4)),
    T.E2M3: (_minifloat(2, 3, 1), Fraction(15, 2), ONE),
    T.E2M1X2: (_minifloat(2, 1, 1), 6, ONE),
    T.E1M2X2: ({Fraction(s * c, 4) for c in range(8) for s in (1, -1)}, Fraction(7, 4), ONE),
    T.HIF4X2: ({Fraction(s * c, 4) for c in range(8) for s in (1, -1)}, Fraction(7, 4), ONE),
}


def _rne(v: Fraction, values: set[Fraction], top: Fraction) -> Fraction:
    """Round to nearest, ties to the candidate with the even last code step: the nearest
    value of ``values`` extended by one step beyond ``top`` (so overflow is visible)."""
    grid = sorted(values)
    step = grid[-1] - grid[-2]
    grid = [-(top + step), *grid, top + step]
    if abs(v) >= top + step:
        return grid[-1] if v > 0 else grid[0]
    lo = max(g for g in grid if g <= v)
    hi = min(g for g in grid if g >= v)
    if v - lo != hi - v:
        return lo if v - lo < hi - v else hi
    return lo if grid.index(lo) % 2 == 0 else hi  # the even position of a symmetric grid


def tcvt_reference(bits: int, dst: T) -> int:
    cls, v, neg = fp32(bits)
    if cls in ("snan", "qnan"):
        return NV if cls == "snan" or dst is not T.HIF8 else 0
    if cls == "inf":
        return 0 if dst is T.HIF8 else OF | NX
    if dst is T.HIF8:
        values, top, min_normal = FP8[T.HIF8]
        if abs(v) > top:
            return OF | NX
        return 0 if v in values else (UF | NX if abs(v) < min_normal else NX)
    values, top, min_normal = CODED[dst]
    r = _rne(v, values, top)
    if abs(r) > top:
        return OF | NX
    return 0 if r == v else (UF | NX if abs(r) < min_normal else NX)


@pytest.mark.parametrize("dst", [T.HIF8, *CODED])
@settings(max_examples=examples(25), deadline=None)
@given(words=st.lists(st.one_of(st.sampled_from(INTERESTING), fp32_words,
                                st.floats(-40, 40, width=32).map(
                                    lambda f: int(np.array(f, np.float32).view(np.uint32)))),
                      min_size=1, max_size=4))  # fmt: skip
def test_tcvt_coded_destination_flags_match_the_rational_reference(dst, words):
    from interpreter.kernels import KERNELS

    a = np.array([words], np.uint32).view(np.float32)
    with recording() as status:
        KERNELS["TCVT"](a, None, "null", T.FP32, dst)
    want = 0
    for w in words:
        want |= tcvt_reference(w, dst)
    assert status.bits == want, [hex(w) for w in words]


@pytest.mark.parametrize(("src", "values", "dst", "want"), [
    (T.S8, [1, 3, -6], T.E2M1X2, 0),
    (T.S8, [5], T.E2M1X2, NX),
    (T.S8, [100], T.E2M1X2, OF | NX),
    (T.S32, [40000], T.HIF8, OF | NX),
    (T.S32, [32768, -3], T.HIF8, 0),
    (T.S16, [29], T.E3M2, NX),  # rounds to 28: inexact, not beyond the maximum
    (T.S16, [30], T.E3M2, OF | NX),  # the tie between 28 and 32 goes to 32 (even): overflow
    (T.S16, [-31], T.E3M2, OF | NX),
], ids=str)  # fmt: skip
def test_tcvt_integer_into_coded_destinations(src, values, dst, want):
    from interpreter.kernels import KERNELS

    a = np.array([values], src.numpy_dtype())
    with recording() as status:
        KERNELS["TCVT"](a, None, "null", src, dst)
    assert status.bits == want


def test_s4_destination_wraps_at_both_ends():
    """REQ4 (mode 17) into S4 without Sat: the S5 intermediate saturates to -16..15, then
    the value wraps modulo 16 into -8..7 (NormalizeTileInteger). Hand-derived: 7 and -8 are
    the ends and stay; 8 -> -8, -9 -> 7, 15 -> -1 (issue 27 mutation survivor: 7 must not
    wrap)."""
    w = quant_param_word(1.0, offset=0, offset_bits=5)
    p = validate(Fpatr(pre_quant_mode=17), 6, 0, False, None, None, w, None, None, acc=T.S32)
    acc = np.array([[7, 8, -8, -9, 15, 6]], np.int32)
    assert apply(acc, p).tolist() == [[7, -8, -8, 7, -1, 6]]


@pytest.mark.parametrize("bit", [19, 20, 63])
def test_relu_word_bits_above_the_fp19_slope_fault(bit):
    """An LReLU word holds its FP19 slope in [18:0]; any higher bit is a TileLegality fault
    (issue 27 mutation survivor: bit 19 must be checked too)."""
    word = lrelu_param_word(0.5) | (1 << bit)
    with pytest.raises(PTOFault, match=r"lrelu: bits above \[18:0\] must be 0"):
        validate(Fpatr(relu_mode=2), 4, 0, False, None, None, None, word, None)


def test_rounding_mode_names_are_the_rmode_codes():
    """B.DATR RMode codes 0..7 (PTO-SPEC 3.2), written out here (issue 27 mutation survivor)."""
    names = ["default", "rne", "rtz", "rtm", "rtp", "rna", "rto", "rhb"]
    assert [parse_rmode(n) for n in names] == list(range(8))
    assert [parse_rmode(c) for c in range(8)] == list(range(8))


def test_fp32_quant_rounds_once():
    """QF322F32_PRE (mode 27): acc x scale rounded once to FP32. 16760849 x 2^-24 times
    (1 + 2^-10) is 1 + 1.0166 x 2^-24 exactly, just above the halfway point between 1 and
    1 + 2^-23, so RNE gives 1 + 2^-23; rounding to 24 bits first and then to FP32 would tie
    to 1 (issue 27 mutation survivor: the FP32 format's mantissa width). Hand-derived with
    integers: 16760849 x 1025 = 2^34 + 1041."""
    assert 16760849 * 1025 == 2**34 + 1041
    acc = np.array([[16760849 * 2.0**-24]], np.float32)
    p = validate(Fpatr(pre_quant_mode=27), 1, 0, False, None, None,
                 quant_param_word(1 + 2.0**-10), None, None)  # fmt: skip
    assert float(apply(acc, p)[0, 0]) == 1 + 2.0**-23


def test_validate_parameter_rules_of_the_integer_modes():
    """B.FPATR parameter rules of the S32 modes (PTO-SPEC 3.3): a vector parameter of the
    wrong length, shift words with bits outside [35:32], a shift mode with RMode or Sat, a
    parameter B.FPATR does not select; an unknown RMode of the HiF8 encoder is an error."""
    from interpreter.kernels import postprocess as pp
    from pto_dialect.datatypes import TileDataType as T

    def call(fpatr, rmode=0, sat=False, quant=None, quant_scalar=None):
        return pp.validate(fpatr, 3, rmode, sat, quant, None, quant_scalar, None, None,
                           acc=T.S32, op="TMATMUL")

    cases = [
        (lambda: call(Fpatr(pre_quant_mode=12), quant=np.zeros((1, 5), np.uint64)),
         "quant must be a 1x3 U64 tile, got shape (1, 5)"),
        (lambda: call(Fpatr(pre_quant_mode=13), quant_scalar=1 << 36),
         "only the shift code bits [35:32] may be set"),
        (lambda: call(Fpatr(pre_quant_mode=13), rmode=1, quant_scalar=0),
         "PreQuantMode 13 requires RMode = 0 and Sat = 0"),
        (lambda: call(Fpatr(pre_quant_mode=13), sat=True, quant_scalar=0),
         "PreQuantMode 13 requires RMode = 0 and Sat = 0"),
        (lambda: call(Fpatr(), quant=np.zeros((1, 3), np.uint64)),
         "quant is given but B.FPATR does not select it"),
    ]
    for fn, match in cases:
        with pytest.raises(PTOFault) as e:
            fn()
        assert match in str(e.value) and e.value.kind == "TileLegality", match
    assert call(Fpatr(pre_quant_mode=13), quant_scalar=3 << 32).shift == 4  # code + 1
    with pytest.raises(ValueError):
        pp.encode_hif8(np.array([1.0]), mode=8)


S32_EDGES = [0, 1, -1, 7, 8, -8, -9, 15, 16, -16, -17, 127, 128, -128, -129, 255, 256, -256,
             -257, 32767, 32768, -32768, -32769, 65535, 65536, -65536, -65537, 2**31 - 1,
             -(2**31)]  # fmt: skip
"""The S4 / S5 / S8 / S9 / S16 / S17 / S32 bounds and one beyond each."""
SCALES = [ONE, Fraction(1, 2), Fraction(3, 4), Fraction(2) ** -10, Fraction(3)]


def sweep_cases():
    """Every PreQuantMode x ReluMode on its boundary words, one word per case; RMode, Sat, the
    scale, the offset (its field's minimum, 0, maximum), the slope and the shift rotate
    deterministically over the cases."""
    i = 0
    for mode in sorted(PRE_QUANT_MODES):
        m = PRE_QUANT_MODES[mode]
        width = m.offset_bits
        offsets = [0] if not width else [-(2 ** (width - 1)), 0, 2 ** (width - 1) - 1]
        for relu in range(4) if mode not in (12, 13) else [0]:
            for word in S32_EDGES if m.acc is T.S32 else INTERESTING:
                i += 1
                fixed = mode in FIXED or mode in (12, 13)
                yield (word, mode, relu,
                       SCALES[i % len(SCALES)] if m.param is not ParamKind.NONE else ONE,
                       offsets[i % len(offsets)], [Fraction(0), Fraction(1, 4), Fraction(3)][i % 3],
                       0 if fixed else i % 8, False if mode in (12, 13) else bool(i // 8 % 2),
                       1 + i % 16 if mode in (12, 13) else 0)  # fmt: skip


def test_postprocess_flags_sweep_word_by_word():
    """Every case of :func:`sweep_cases`, one word per call (an OR over several words would
    hide a wrong flag under another word's): the kernel's flags equal the rational
    reference."""
    for word, *rest in sweep_cases():
        got = kernel_flags([word], *rest)
        assert got == reference(word, *rest), (hex(word), rest)


# -- the post-processed VALUES against the ASL encoders, written out in Fractions ----------
def _fp8_code_values(t: T) -> dict[int, Fraction]:
    """code -> value of the finite E4M3 / HiF8 codes (``ReferenceFP8FiniteValue``), in code
    order (the candidate search's order)."""
    out = {}
    for code in range(256):
        one = fp8_values_of_code(t, code)
        if one is not None:
            out[code] = one
    return out


FP8_CODES = {t: _fp8_code_values(t) for t in (T.E4M3, T.HIF8)}
MAX_FINITE = {T.FP32: (2 - Fraction(1, 2**23)) * 2**127, T.FP16: Fraction(65504),
              T.BF16: (2 - Fraction(1, 2**7)) * 2**127}  # fmt: skip


def _encode_fp8(v: Fraction, t: T, mode: str, sat: bool) -> int:
    """``ReferenceFP8Encoding`` (the modes of E4M3 / HiF8 outputs are RNE / RHB)."""
    if v == 0:
        return 0
    if abs(v) > FP8[t][1]:
        if sat:
            return (0xFE if v < 0 else 0x7E) if t is T.E4M3 else (0xEE if v < 0 else 0x6E)
        return 0x7F if t is T.E4M3 else (0xEF if v < 0 else 0x6F)
    best = None
    for code, c in FP8_CODES[t].items():
        if best is None:
            best = (code, c)
            continue
        dc, db = abs(c - v), abs(best[1] - v)
        if dc < db or dc == db and (code % 2 == 0 and best[0] % 2 if mode == RNE else c > best[1]):
            best = (code, c)
    return best[0]


def _encode_binary(v: Fraction, t: T, mode: str, sat: bool) -> float:
    """``ReferenceFP32FiniteEncoding`` / ``ReferenceBinary16Encoding`` as a float value."""
    if v == 0:
        return 0.0
    mbits, emin, emax = BINARY[t]
    neg = v < 0
    e = math.floor(math.log2(abs(v)))
    while Fraction(2) ** e > abs(v):
        e -= 1
    while Fraction(2) ** (e + 1) <= abs(v):
        e += 1
    big = -float(MAX_FINITE[t]) if neg else float(MAX_FINITE[t])
    over = big if sat else math.copysign(math.inf, big)
    if e > emax:
        return over
    q = Fraction(2) ** (max(e, emin) - mbits)
    r = to_integer(v / q, mode) * q
    if abs(r) > MAX_FINITE[t]:
        return over
    return -0.0 if r == 0 and neg else float(r)


def reference_value(word: int, mode: int, relu: int, scale: Fraction, offset: int,
                    slope: Fraction, rmode: int, sat: bool, shift: int = 0):  # fmt: skip
    """``MatrixPostQuantBaseWithFlags``'s D element: an int (integer outputs), a HiF8 / E4M3
    code, or a float (FP32 / FP16 / BF16; NaN as math.nan)."""
    m = PRE_QUANT_MODES[mode]
    out = m.out or T.FP32
    rm = FIXED.get(mode, RMODE[rmode])
    if mode in (12, 13):
        return min(max(word >> shift, -(2**15)), 2**15 - 1)
    if m.acc is T.S32:
        cls, value, neg = "finite", Fraction(word), word < 0
    else:
        cls, value, neg = fp32(word)
    mult = scale if not neg or relu == 0 else (Fraction(0) if relu == 1 else slope)
    lo, hi = INT_RANGE.get(out, (0, 0))
    if cls in ("snan", "qnan") or (cls == "inf" and not (neg and mult == 0)):
        if out in INT_RANGE:
            return (0 if sat else lo) if cls != "inf" else (hi if sat and not neg else lo)
        if out in FP8:
            if cls != "inf":
                return 0x00 if sat else (0x7F if out is T.E4M3 else 0x80)
            v = Fraction(-(10**9) if neg else 10**9)  # beyond the maximum: the overflow codes
            return _encode_fp8(v, out, rm, sat)
        if cls != "inf":
            return 0.0 if sat else math.nan
        return (-1 if neg else 1) * (float(MAX_FINITE[out]) if sat else math.inf)
    act = (Fraction(0) if cls == "inf" else value) * mult
    if cls == "zero" and neg and mult != 0 and offset == 0 and out not in INT_RANGE:
        return 0x80 if out is T.E4M3 else 0x00 if out is T.HIF8 else -0.0
    width = m.offset_bits
    if out in INT_RANGE:
        if width:
            r = min(max(to_integer(act, rm), -(2 ** (width - 1))), 2 ** (width - 1) - 1) + offset
        else:
            r = to_integer(act + offset, rm)
        if sat:
            return min(max(r, lo), hi)
        span = hi - lo + 1
        return (r - lo) % span + lo
    if out in FP8:
        return _encode_fp8(act + offset, out, rm, sat)
    return _encode_binary(act + offset, out, rm, sat)


def _kernel_value(words, mode, relu, scale, offset, slope, rmode, sat, shift=0):
    m = PRE_QUANT_MODES[mode]
    acc, p = kernel_inputs(words, mode, relu, scale, offset, slope, rmode, sat, shift)
    d = apply(acc, p)
    out = m.out or T.FP32
    if out in INT_RANGE or out is T.HIF8 or mode in (12, 13):
        return [int(x) for x in np.asarray(d).astype(np.int64)]
    if out is T.E4M3:
        return [int(x) for x in np.asarray(d).view(np.uint8)]
    return [float(x) for x in d]


def _same(got, want) -> bool:
    if isinstance(want, float):
        if math.isnan(want):
            return math.isnan(got)
        return got == want and math.copysign(1, got) == math.copysign(1, want)
    return got == want


def test_postprocess_values_sweep_word_by_word():
    """The D element of every case of :func:`sweep_cases` (but the identity, mode 0 with
    ReluMode 0) equals the ASL encoders written out in Fractions: the S5 / S9 / S17
    intermediate and the offset, Sat clamping or wrapping, the FP32 / FP16 / BF16 / E4M3 /
    HiF8 roundings, -0 and the special values."""
    for word, mode, relu, *rest in sweep_cases():
        if mode == 0 and relu == 0:
            continue
        (got,) = _kernel_value([word], mode, relu, *rest)
        want = reference_value(word, mode, relu, *rest)
        assert _same(got, want), (hex(word), mode, relu, rest, got, want)


@pytest.mark.parametrize(("word", "shift", "value", "flags"), [
    (-65536, 1, -32768, 0), (-65537, 1, -32768, OF | NX), (65534, 1, 32767, 0),
    (65536, 1, 32767, OF | NX), (2**31 - 1, 16, 32767, 0), (-(2**31), 16, -32768, 0),
    (2**31 - 1, 15, 32767, OF | NX), (-(2**31), 15, -32768, OF | NX), (-3, 1, -2, 0),
])  # fmt: skip
def test_shift_modes_at_the_s16_bounds(word, shift, value, flags):
    """``MatrixShiftS32ToS16`` (modes 12 / 13): ASR by the shift (floor: -3 >> 1 = -2), then
    S16 saturation with OF|NX exactly when the shifted value leaves [-32768, 32767]; the
    bits shifted out are not inexactness. Hand-derived values."""
    for mode in (12, 13):
        args = ([word], mode, 0, ONE, 0, Fraction(0), 0, False, shift)
        assert _kernel_value(*args) == [value]
        assert kernel_flags(*args) == flags
