"""Data-type AVS pass conditions (tests/asl/arch/data-types/**) through our value decoders (D17).

The formats' finite decompositions are checked as values: a raw word the spec decomposes into
(negative, significand, exponent) must decode, through the tables our kernels compute with
(``interpreter.kernels.mx.value_lut``, numpy carriers for FP32/FP64/TF32/HF32), to exactly
``(-1)^negative * significand * 2^exponent`` (Fractions, sign of zero included); a word the
spec calls unavailable must decode to a non-finite value or be refused as an invalid encoding.
The static-invariant tests ("the unit compiles") are met by the module of ours that models the
unit importing and exposing the named table or function.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from conformance.inventory import avs, avs_cases, avs_units
from interpreter.kernels import mx
from interpreter.kernels.elementwise import check_encodings
from interpreter.kernels.postprocess import (
    decode_quant_words,
    decode_relu_words,
    encode_hif8,
    fp19_bits,
    fp19_value,
)
from interpreter.kernels.unary import canonical_nan
from pto_dialect import numeric_formats as nf
from pto_dialect.datatypes import DTYPE_NONE, TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.numeric_formats import (
    UNAVAILABLE,
    NumericFormatKind,
    finite_decomposition,
    numeric_format,
    signed_zero_encodings,
)

T = TileDataType
_NUMPY32 = {T.FP32: np.uint32, T.TF32: np.uint32, T.HF32: np.uint32}


def value_of(t: TileDataType, raw: int) -> float | None:
    """The value our kernels give the raw word ``raw`` of type ``t`` (None: invalid encoding)."""
    if t is T.FP64:
        return float(np.array([raw], np.uint64).view(np.float64)[0])
    if t in _NUMPY32:
        word = np.array([raw], np.uint32)
        try:
            check_encodings(t, ((word.view(np.float32), "x"),), "TMAX")
        except PTOFault:
            return None
        return float(word.view(np.float32)[0])
    if raw & mx.HIGH_ZERO_BITS.get(t, 0):
        return None  # required_high_zero_bits
    return float(mx.value_lut(t)[raw])


def _exact(neg: bool, sig: int, exp: int) -> tuple[Fraction, bool]:
    return (-1 if neg else 1) * Fraction(sig) * Fraction(2) ** exp, neg


# (type, carrier bits, lane bits, [(raw, negative, significand, exponent)], [unavailable raw],
#  [(raw, class)], canonical NaN or None) -- facts of the AVS decomposition tests.
FORMATS = {
    "PTO-AVS-ARCH-BF16-DECOMP-001": (T.BF16, 16, 16, [
        (0, 0, 0, 0), (0x8000, 1, 0, 0), (1, 0, 1, -133), (0x7F, 0, 0x7F, -133),
        (0x80, 0, 0x80, -133), (0x7F7F, 0, 0xFF, 120)], [0x7F80, 0x7FC0],
        [(0x7F80, "+inf"), (0xFF80, "-inf"), (0x7FC0, "nan"), (0x7F81, "nan")], 0x7FC0),
    "PTO-AVS-ARCH-E1M2X2-DECOMP-001": (T.E1M2X2, 8, 4, [
        (k, k >= 8, k & 7, -2 if k & 7 else 0) for k in range(16)], [],
        [(0, "+0"), (8, "-0"), (1, "+"), (9, "-")], None),
    "PTO-AVS-ARCH-E2M1X2-DECOMP-001": (T.E2M1X2, 8, 4, [
        (k, k >= 8, *((0, 0), (1, -1), (2, -1), (3, -1), (2, 0), (3, 0), (2, 1), (3, 1))[k & 7])
        for k in range(16)], [], [(0, "+0"), (8, "-0"), (1, "+"), (9, "-")], None),
    "PTO-AVS-ARCH-E2M3-DECOMP-001": (T.E2M3, 8, 6, [
        (1, 0, 1, -3), (7, 0, 7, -3), (8, 0, 8, -3), (0x1F, 0, 15, -1), (0x20, 1, 0, 0)],
        [0x80], [(0x1F, "+"), (0x20, "-0")], None),
    "PTO-AVS-ARCH-E3M2-DECOMP-001": (T.E3M2, 8, 6, [
        (1, 0, 1, -4), (3, 0, 3, -4), (4, 0, 4, -4), (0x1F, 0, 7, 2), (0x20, 1, 0, 0)],
        [0x40], [(0x1F, "+"), (0x20, "-0")], None),
    "PTO-AVS-ARCH-E4M3-DECOMP-001": (T.E4M3, 8, 8, [
        (1, 0, 1, -9), (7, 0, 7, -9), (8, 0, 8, -9), (0x7E, 0, 14, 5), (0x80, 1, 0, 0)],
        [0x7F, 0xFF], [(0x78, "+"), (0x7F, "nan"), (0xFF, "nan")], 0x7F),
    "PTO-AVS-ARCH-E5M2-DECOMP-001": (T.E5M2, 8, 8, [
        (1, 0, 1, -16), (3, 0, 3, -16), (4, 0, 4, -16), (0x7B, 0, 7, 13)],
        [0x7C, 0xFC, 0x7E, 0x7D],
        [(0x7C, "+inf"), (0xFC, "-inf"), (0x7E, "nan"), (0x7D, "nan")], 0x7E),
    "PTO-AVS-ARCH-E8M0-DECOMP-001": (T.E8M0, 8, 8, [
        (0, 0, 1, -127), (1, 0, 1, -126), (0x7F, 0, 1, 0), (0x80, 0, 1, 1), (0xFE, 0, 1, 127)],
        [0xFF], [(0, "+"), (0xFF, "nan")], 0xFF),
    "PTO-AVS-ARCH-FP16-DECOMP-001": (T.FP16, 16, 16, [
        (0, 0, 0, 0), (0x8000, 1, 0, 0), (1, 0, 1, -24), (0x3FF, 0, 0x3FF, -24),
        (0x400, 0, 0x400, -24), (0x7BFF, 0, 0x7FF, 5)], [0x7C00, 0x7E00],
        [(0x7C00, "+inf"), (0xFC00, "-inf"), (0x7E00, "nan"), (0x7C01, "nan")], 0x7E00),
    "PTO-AVS-ARCH-FP32-DECOMP-001": (T.FP32, 32, 32, [
        (0, 0, 0, 0), (0x80000000, 1, 0, 0), (1, 0, 1, -149), (0x7FFFFF, 0, 0x7FFFFF, -149),
        (0x800000, 0, 0x800000, -149), (0x7F7FFFFF, 0, 0xFFFFFF, 104),
        (0xBF800000, 1, 0x800000, -23)], [0x7F800000, 0x7FC00000],
        [(0x7F800000, "+inf"), (0xFF800000, "-inf"), (0x7FC00000, "nan"),
         (0x7F800001, "nan")], 0x7FC00000),
    "PTO-AVS-ARCH-FP64-DECOMP-001": (T.FP64, 64, 64, [
        (0, 0, 0, 0), (1 << 63, 1, 0, 0), (1, 0, 1, -1074),
        ((1 << 52) - 1, 0, (1 << 52) - 1, -1074), (1 << 52, 0, 1 << 52, -1074),
        (0x7FEFFFFFFFFFFFFF, 0, (1 << 53) - 1, 971), (0xBFF0000000000000, 1, 1 << 52, -52)],
        [0x7FF0000000000000, 0x7FF8000000000000],
        [(0x7FF0000000000000, "+inf"), (0xFFF0000000000000, "-inf"),
         (0x7FF8000000000000, "nan"), (0x7FF0000000000001, "nan")], 0x7FF8000000000000),
    "PTO-AVS-ARCH-HF32-DECOMP-001": (T.HF32, 32, 32, [
        (0, 0, 0, 0), (0x80000000, 1, 0, 0), (0x1000, 0, 1, -137), (0x7FF000, 0, 0x7FF, -137),
        (0x800000, 0, 0x800, -137), (0x7F7FF000, 0, 0xFFF, 116)], [1, 0x7F800000, 0x7FC00000],
        [(0x7F800000, "+inf"), (0xFF800000, "-inf"), (0x7FC00000, "nan"),
         (0x7F801000, "nan")], 0x7FC00000),
    # HiF4X2FiniteDecomposition: E1M2 lanes, sign bit 3; every nonzero magnitude k is k * 2^-2
    "PTO-AVS-ARCH-HIF4X2-DECOMP-001": (T.HIF4X2, 8, 4, [
        (0, 0, 0, 0), (8, 1, 0, 0), *[(k, 0, k, -2) for k in range(1, 8)],
        *[(8 + k, 1, k, -2) for k in range(1, 8)]], [],
        [(0, "+0"), (8, "-0"), (1, "+"), (9, "-")], None),
    "PTO-AVS-ARCH-HIF8-DECOMP-001": (T.HIF8, 8, 8, [
        (0, 0, 0, 0), (1, 0, 1, -22), (7, 0, 1, -16), (0x81, 1, 1, -22), (0x08, 0, 8, -3),
        (0x0F, 0, 15, -3), (0x10, 0, 8, -2), (0x18, 0, 8, -4), (0x20, 0, 8, -1),
        (0x28, 0, 8, 0), (0x30, 0, 8, -5), (0x38, 0, 8, -6), (0x40, 0, 4, 2), (0x4C, 0, 4, 5),
        (0x50, 0, 4, -6), (0x5C, 0, 4, -9), (0x60, 0, 2, 7), (0x6E, 0, 2, 14), (0x70, 0, 2, -9),
        (0x7E, 0, 2, -16)], [0x80, 0x6F, 0xEF],
        [(0x80, "nan"), (0x6F, "+inf"), (0xEF, "-inf")], 0x80),
    "PTO-AVS-ARCH-TF32-DECOMP-001": (T.TF32, 32, 32, [
        (0, 0, 0, 0), (0x80000000, 1, 0, 0), (0x2000, 0, 1, -136), (0x7FE000, 0, 0x3FF, -136),
        (0x800000, 0, 0x400, -136), (0x7F7FE000, 0, 0x7FF, 117)], [1, 0x7F800000, 0x7FC00000],
        [(0x7F800000, "+inf"), (0xFF800000, "-inf"), (0x7FC00000, "nan"),
         (0x7F802000, "nan")], 0x7FC00000),
}


def _class(v: float) -> str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "+inf" if v > 0 else "-inf"
    if v == 0:
        return "-0" if math.copysign(1, v) < 0 else "+0"
    return "+" if v > 0 else "-"


def _canonical_nan_word(t: TileDataType) -> int:
    if t is T.HIF8:
        return int(encode_hif8(np.array([np.nan]))[0])
    if t is T.E8M0:
        return int(np.flatnonzero(np.isnan(mx.value_lut(t)))[0])
    carrier = {T.TF32: np.float32, T.HF32: np.float32}.get(t) or t.numpy_dtype()
    r = canonical_nan(np.array([-np.nan, 1.0]).astype(carrier))
    return int(r[:1].view(f"u{r.dtype.itemsize}")[0])


@avs_cases(FORMATS)
def test_format_decomposition(avs_id, case):
    t, carrier, lane, finite, unavailable, classes, nan = case
    info = t.info
    assert info.bits == lane
    assert info.carrier_bits * (2 if info.packed_x2 else 1) == carrier
    for raw, neg, sig, exp in finite:
        v = value_of(t, raw)
        assert v is not None and math.isfinite(v), (hex(raw), v)
        assert (Fraction(v), math.copysign(1, v) < 0) == _exact(neg, sig, exp), hex(raw)
    for raw in unavailable:
        v = value_of(t, raw)
        assert v is None or not math.isfinite(v), (hex(raw), v)
    for raw, cls in classes:
        assert _class(value_of(t, raw)) == cls, hex(raw)
    if nan is not None:
        assert _canonical_nan_word(t) == nan
    # the same facts through the descriptor API (TileNumericFiniteDecomposition)
    d = numeric_format(t)
    assert (d.carrier_bits, d.lane_bits) == (carrier, lane)
    assert d == _descriptor_facts(t)
    for raw, neg, sig, exp in finite:
        assert finite_decomposition(t, raw) == (True, bool(neg), sig, exp), hex(raw)
    for raw in unavailable:
        assert finite_decomposition(t, raw) == (False, False, 0, 0), hex(raw)
    assert nf.canonical_nan(t) == nan


# The descriptor facts the format AVS tests assert (asl/arch/data-types/formats/*.asl):
# kind, carrier, lane, lanes per carrier, sign bit, exponent bits, fraction bits, bias (None:
# not available), required low / high zero bits, and the capabilities as letters: z zero,
# s signed zero, d subnormal, i infinity, q quiet NaN, n signalling NaN.
_FB, _HIF8, _E8M0 = (NumericFormatKind.FIXED_BINARY, NumericFormatKind.HIF8,
                     NumericFormatKind.E8M0)  # fmt: skip
_FACTS = {
    T.FP64: (_FB, 64, 64, 1, 63, (11, 11), (52, 52), 1023, 0, 0, "zsdiqn"),
    T.FP32: (_FB, 32, 32, 1, 31, (8, 8), (23, 23), 127, 0, 0, "zsdiqn"),
    T.TF32: (_FB, 32, 32, 1, 31, (8, 8), (10, 10), 127, 13, 0, "zsdiqn"),
    T.HF32: (_FB, 32, 32, 1, 31, (8, 8), (11, 11), 127, 12, 0, "zsdiqn"),
    T.FP16: (_FB, 16, 16, 1, 15, (5, 5), (10, 10), 15, 0, 0, "zsdiqn"),
    T.BF16: (_FB, 16, 16, 1, 15, (8, 8), (7, 7), 127, 0, 0, "zsdiqn"),
    T.HIF8: (_HIF8, 8, 8, 1, 7, (0, 4), (1, 3), None, 0, 0, "zdiq"),
    T.E4M3: (_FB, 8, 8, 1, 7, (4, 4), (3, 3), 7, 0, 0, "zsdq"),
    T.E5M2: (_FB, 8, 8, 1, 7, (5, 5), (2, 2), 15, 0, 0, "zsdiqn"),
    T.E3M2: (_FB, 8, 6, 1, 5, (3, 3), (2, 2), 3, 0, 2, "zsd"),
    T.E2M3: (_FB, 8, 6, 1, 5, (2, 2), (3, 3), 1, 0, 2, "zsd"),
    T.E2M1X2: (_FB, 8, 4, 2, 3, (2, 2), (1, 1), 1, 0, 0, "zs"),
    T.E1M2X2: (_FB, 8, 4, 2, 3, (1, 1), (2, 2), 1, 0, 0, "zs"),
    T.E8M0: (_E8M0, 8, 8, 1, None, (8, 8), (0, 0), 127, 0, 0, "q"),
    T.HIF4X2: (_FB, 8, 4, 2, 3, (1, 1), (2, 2), 1, 0, 0, "zs"),
}


def _descriptor_facts(t: TileDataType):
    """The expected descriptor of ``t``, built from ``_FACTS`` (a different spelling of the
    ASL facts than pto_dialect.numeric_formats' table)."""
    from pto_dialect.numeric_formats import NumericFormatDescriptor

    kind, carrier, lane, lanes, sign, (e0, e1), (f0, f1), bias, low, high, caps = _FACTS[t]
    return NumericFormatDescriptor(
        True, kind, carrier, lane, lanes, int(sign is not None), sign or 0, e0, e1, f0, f1,
        bias is not None, bias or 0, low, high, *(c in caps for c in "zsdiqn"))


@avs("PTO-AVS-ARCH-TILEDATATYPE-RESERVED-001")
def test_tile_data_type_codes():
    reserved = {15, 21, 22, 23, 29, 30, 31}
    for code in range(32):
        if code in reserved:
            with pytest.raises(ValueError):
                TileDataType.from_code(code)
        else:
            assert TileDataType.from_code(code).value == code
    assert DTYPE_NONE == 31
    assert (T.FP64.value, T.HIF4X2.value, T.S4X2.value, T.U4X2.value) == (0, 14, 20, 28)


@avs("PTO-AVS-ARCH-FORMAT-DESCRIPTOR-EMPTY-001")
def test_integer_types_have_no_numeric_format():
    """The empty (unavailable) descriptor is every integer type's: none has a value table,
    while the fifteen floating formats our kernels compute with all have one."""
    floats = [t for t in T if t.is_float]
    assert len(floats) == 15 and len([t for t in T if t.is_integer]) == 10
    for t in floats:
        assert math.isfinite(value_of(t, 0))
    for t in T:
        if t.is_integer:
            assert t not in mx.DECODABLE_TYPES
    # UnavailableNumericFormatDescriptor: every width and capability zero / false
    assert UNAVAILABLE.kind is NumericFormatKind.UNAVAILABLE
    assert not any(v for k, v in vars(UNAVAILABLE).items() if k != "kind")


_HAS_SUBNORMALS = {T.FP64, T.FP32, T.TF32, T.HF32, T.FP16, T.BF16, T.HIF8, T.E4M3, T.E5M2,
                   T.E3M2, T.E2M3}  # fmt: skip
"""asl/arch/features/mx-formats.asl ``HardwareNumericTypeHasSubnormals``."""


def _table_words(t: TileDataType) -> list[int]:
    """Every code of an 8/16-bit carrier (4-bit lanes: the 16 lane codes, then the same with
    a nonzero high nibble); a spread of 32/64-bit words (zeros, subnormal and normal
    boundaries, specials, invalid low bits, random words)."""
    d = numeric_format(t)
    if d.carrier_bits <= 16:
        return list(range(1 << d.carrier_bits))
    rng = np.random.default_rng(7)
    w = d.carrier_bits
    e, f, low = d.exponent_bits_min, d.fraction_bits_min, d.required_low_zero_bits
    fixed = [0, 1 << (w - 1), 1 << low, 1, ((1 << f) - 1) << low, 1 << (f + low),
             ((1 << (e + f)) - 1 - (1 << f)) << low, ((1 << e) - 1) << (f + low),
             (((1 << e) - 1) << (f + low)) | 1 << low, (((1 << e) - 1) << (f + low)) | 1 << (f - 1 + low)]
    rand = rng.integers(0, 1 << 63, 400, dtype=np.uint64) >> np.uint64(64 - w) if w < 64 else \
        rng.integers(0, 1 << 63, 400, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    return fixed + [int(x) & ((1 << w) - 1) for x in rand]


@avs("PTO-AVS-ARCH-NUMERIC-FORMATS-DOMAIN-001")
def test_numeric_format_domain():
    """The fifteen floating and scale types have a descriptor, the ten integer types the
    unavailable one (S32's decomposition of 1 is unavailable), and each capability flag agrees
    with the numeric profile: has_subnormal with HardwareNumericTypeHasSubnormals, has_signed_zero
    with the signed-zero encodings, has_quiet_nan with the canonical NaN. Beyond the AVS test,
    the descriptor API is checked against the value tables our kernels compute with (built
    independently, interpreter.kernels.mx): every code's decomposition is its decoded value
    exactly (sign of zero included) and unavailable exactly when the value is not finite or the
    encoding is refused, and every flag matches what the table holds."""
    floats = [t for t in T if t.is_float]
    assert len(floats) == 15
    for t in T:
        d = numeric_format(t)
        if t.is_integer:
            assert d == UNAVAILABLE and not d.available and d.carrier_bits == 0
            assert finite_decomposition(t, 1) == (False, False, 0, 0)
        else:
            assert d.available and d.kind is not NumericFormatKind.UNAVAILABLE
        assert d.has_subnormal == (t in _HAS_SUBNORMALS), t
        assert d.has_signed_zero == (signed_zero_encodings(t) is not None), t
        assert d.has_quiet_nan == (nf.canonical_nan(t) is not None), t
    for t in floats:
        d = numeric_format(t)
        info = t.info
        assert (d.lane_bits, d.lanes_per_carrier == 2) == (info.bits, info.packed_x2)
        assert d.carrier_bits == info.carrier_bits * d.lanes_per_carrier
        if t in mx._FORMATS:  # the kernels' (exponent bits, mantissa bits, bias)
            assert mx._FORMATS[t][:3] == (d.exponent_bits_min, d.fraction_bits_min,
                                          d.exponent_bias)  # fmt: skip
        assert mx.HIGH_ZERO_BITS.get(t, 0) == (0xFF >> (8 - d.required_high_zero_bits)) << (
            8 - d.required_high_zero_bits) & 0xFF
        values = []
        for w in _table_words(t):
            v = value_of(t, w)
            ok, neg, sig, exp = finite_decomposition(t, w)
            finite = v is not None and math.isfinite(v)
            assert ok == finite, (t, hex(w), v)
            if ok:
                assert v == (-1) ** neg * math.ldexp(sig, exp), (t, hex(w))
                assert (math.copysign(1, v) < 0) == neg, (t, hex(w))
            values.append(v)
        v = np.array([np.nan if x is None else x for x in values])
        valid = np.array([x is not None for x in values])
        assert d.has_zero == bool((v == 0).any()), t
        assert d.has_infinity == bool(np.isinf(v).any()), t
        assert d.has_quiet_nan == bool((np.isnan(v) & valid).any()), t
        zeros = signed_zero_encodings(t)
        if zeros is not None:
            assert [math.copysign(1, value_of(t, z)) for z in zeros] == [1.0, -1.0]
        if d.has_quiet_nan:
            assert _canonical_nan_word(t) == nf.canonical_nan(t)
        if d.carrier_bits <= 16:  # a signalling NaN: a positive NaN besides the canonical one
            nans = {w for w, x in enumerate(values) if x is not None and math.isnan(x)
                    and not w >> d.sign_bit & 1}  # fmt: skip
            assert d.has_signaling_nan == (len(nans) > 1), t
        else:  # IEEE: quiet bit clear, fraction nonzero
            snan = ((1 << d.exponent_bits_min) - 1) << (d.fraction_bits_min + d.required_low_zero_bits) \
                | 1 << d.required_low_zero_bits
            assert d.has_signaling_nan and math.isnan(value_of(t, snan))
        if d.has_subnormal:  # the smallest positive code is not normalised (gradual underflow)
            ok, _, sig, _ = finite_decomposition(t, 1 << d.required_low_zero_bits)
            assert ok and sig == 1 and value_of(t, 1 << d.required_low_zero_bits) > 0


@avs("PTO-AVS-ARCH-FP19-ENC-001")
def test_fp19_encoding():
    assert fp19_bits(1.0) == 0b0011111110000000000
    assert fp19_bits(0.5) == 0b0011111100000000000
    assert fp19_value(np.array([fp19_bits(1.0), fp19_bits(0.5)])).tolist() == [1.0, 0.5]
    assert np.isposinf(fp19_value(np.array([0b0111111110000000000])))[0]
    assert np.isnan(fp19_value(np.array([0b0111111111000000000])))[0]
    decode_quant_words(np.array([fp19_bits(1.0) << 13], np.uint64), 0, "q")
    for bad in (0, 0b1011111110000000000):
        with pytest.raises(PTOFault):
            decode_quant_words(np.array([bad << 13], np.uint64), 0, "q")


@avs("PTO-AVS-ARCH-FP19-PARAMETER-DOMAIN-002")
def test_fp19_scale_and_activation_domains():
    words = {"+0": 0, "min_sub": 1, "min_norm": 0x400, "max_norm": 0x3FBFF, "-0": 0x40000,
             "-min_norm": 0x40400, "+inf": 0x3FC00, "qnan": 0x3FE00, "snan": 0x3FC01}  # fmt: skip

    def legal(fn, w):
        try:
            fn(w)
        except PTOFault:
            return False
        return True

    scale = {k for k, w in words.items()
             if legal(lambda x: decode_quant_words(np.array([x << 13], np.uint64), 0, "q"), w)}
    act = {k for k, w in words.items()
           if legal(lambda x: decode_relu_words(np.array([x], np.uint64), "s"), w)}
    assert scale == {"min_norm", "max_norm"}
    assert act == {"+0", "min_norm", "max_norm"}


# The static-invariant tests: "the complete model and this unit's static invariant compile".
# Ours: the module that models the unit imports and exposes the named object.
STATIC_UNITS = {
    "PTO-AVS-ARCH-DATA-TYPES-FAULT-STATIC-001": "pto_dialect.faults:PTOFault",
    "PTO-AVS-ARCH-DATA-TYPES-FLOATING-POINT-STATIC-001": "interpreter.kernels.unary:canonical_nan",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-DESCRIPTOR-STATIC-001": "pto_dialect.numeric_formats:NumericFormatDescriptor",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-BF16-STATIC-001": "interpreter.kernels.mx:value_lut",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-E1M2X2-STATIC-001": "interpreter.kernels.mx:value_lut",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-E2M1X2-STATIC-001": "interpreter.kernels.mx:value_lut",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-E2M3-STATIC-001": "interpreter.kernels.mx:value_lut",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-E3M2-STATIC-001": "interpreter.kernels.mx:value_lut",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-E4M3-STATIC-001": "interpreter.kernels.mx:value_lut",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-E5M2-STATIC-001": "interpreter.kernels.mx:value_lut",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-E8M0-STATIC-001": "interpreter.kernels.mx:value_lut",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-FP16-STATIC-001": "interpreter.kernels.mx:value_lut",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-FP32-STATIC-001": "pto_dialect.datatypes:TileDataType",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-FP64-STATIC-001": "pto_dialect.datatypes:TileDataType",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-HF32-STATIC-001": "interpreter.kernels.elementwise:check_encodings",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-HIF4X2-STATIC-001": "pto_dialect.attributes:HiF4X2Type",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-HIF8-STATIC-001": "interpreter.kernels.postprocess:encode_hif8",
    "PTO-AVS-ARCH-DATA-TYPES-FORMAT-TF32-STATIC-001": "interpreter.kernels.elementwise:check_encodings",
    "PTO-AVS-ARCH-DATA-TYPES-FP19-STATIC-001": "interpreter.kernels.postprocess:fp19_value",
    "PTO-AVS-ARCH-DATA-TYPES-INTEGER-STATIC-001": "pto_dialect.datatypes:TypeClass",
    "PTO-AVS-ARCH-DATA-TYPES-MEMORY-OPERATIONS-STATIC-001": "pto_dialect.data_movement:TLoadOp",
    # PTO-AVS-ARCH-DATA-TYPES-MEMORY-MODEL-STATIC-001: test_memory_order_of_a_block below
    "PTO-AVS-ARCH-DATA-TYPES-NUMERIC-CLASSIFICATION-STATIC-001": "interpreter.kernels.elementwise:binary_core",
    "PTO-AVS-ARCH-DATA-TYPES-NUMERIC-FORMATS-STATIC-001": "pto_dialect.numeric_formats:numeric_format",
    "PTO-AVS-ARCH-DATA-TYPES-PACKED-STATIC-001": "pto_dialect.mx_quant:unpack_x2",
    "PTO-AVS-ARCH-DATA-TYPES-ROUNDING-STATIC-001": "pto_dialect.attributes:RoundingMode",
    "PTO-AVS-ARCH-DATA-TYPES-TILE-DATA-TYPES-STATIC-001": "pto_dialect.datatypes:TileDataType",
}


test_static_unit = avs_units(STATIC_UNITS)


_GM_ROUND_TRIP = """func.func @f(%gm: tensor<4x2xi32>) -> (tensor<4x2xi32>, !pto.tile<32x2xui32, valid=2x2, pe=1000>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = pto.tload %gm[%c0, %c0] : tensor<4x2xi32> -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  %g2 = pto.tstore %t, %gm[%c1, %c0] : !pto.tile<32x2xui32, valid=2x2, pe=1000> -> tensor<4x2xi32>
  %u = pto.tload %g2[%c2, %c0] : tensor<4x2xi32> -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  func.return %g2, %u : tensor<4x2xi32>, !pto.tile<32x2xui32, valid=2x2, pe=1000>
}"""
"""A load, a store over the rows it read and one more, and a load of a row the store wrote."""


@avs("PTO-AVS-ARCH-DATA-TYPES-MEMORY-MODEL-STATIC-001")
def test_memory_order_of_a_block():
    """The unit's ``MemoryOrder`` is the ordering attribute our blocks carry: B.CATR aq/rl select
    it as ``CurrentBundleMemoryOrder`` does (none: Relaxed; atom/far/dr/trap do not), and a
    one-agent sequential run is PTO-TSO's per-location (uniproc) execution, so every order gives
    the results of program order: the store writes GM rows 1-2 with rows 0-1 and the next load
    reads the stored row 2 and the untouched row 3 (pto_dialect/memory_model.py)."""
    from conformance.support import bundled
    from interpreter import run
    from pto_dialect.block_ops import BlockCommandOp, BlockOp
    from pto_dialect.isa import BCatr
    from pto_dialect.memory_model import MemoryOrder, block_memory_order

    assert [m.name for m in MemoryOrder] == ["RELAXED", "ACQUIRE", "RELEASE", "ACQUIRE_RELEASE"]
    assert block_memory_order(None) is MemoryOrder.RELAXED
    assert block_memory_order(BCatr(atom=1, far=1, dr=1, trap=1)) is MemoryOrder.RELAXED
    assert block_memory_order(BCatr(aq=1)) is MemoryOrder.ACQUIRE
    assert block_memory_order(BCatr(rl=1)) is MemoryOrder.RELEASE
    assert block_memory_order(BCatr(aq=1, rl=1, atom=1)) is MemoryOrder.ACQUIRE_RELEASE
    gm = np.array([[1, 2], [3, 4], [5, 6], [7, 8]], np.int32)
    want = [[[1, 2], [1, 2], [3, 4], [7, 8]], [[3, 4], [7, 8]]]
    g2, u = run(_GM_ROUND_TRIP, "f", gm)
    assert [g2.tolist(), u[0].tolist()] == want
    for aq, rl in ((0, 0), (1, 0), (0, 1), (1, 1)):
        m = bundled(_GM_ROUND_TRIP)
        blocks = [o for o in m.walk() if isinstance(o, BlockOp)]
        assert len(blocks) == 3
        for b in blocks:
            b.body.block.insert_op_after(BlockCommandOp.from_command(BCatr(aq=aq, rl=rl)),
                                         b.body.block.first_op)  # fmt: skip
        m.verify()
        assert {block_memory_order(b.summary().catr) for b in blocks} == {
            block_memory_order(BCatr(aq=aq, rl=rl))}
        g2b, ub = run(m, "f", gm)
        assert [g2b.tolist(), ub[0].tolist()] == want
