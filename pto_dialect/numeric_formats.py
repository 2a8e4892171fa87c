"""The numeric-format descriptor API of the floating and scale TileDataTypes.

What pto-spec's ``asl/arch/data-types/format-descriptor.asl`` and ``numeric-formats.asl``
define, with the per-format facts of ``asl/arch/data-types/formats/*.asl``:

* :func:`numeric_format` (``TileNumericFormatDescriptor``): one
  :class:`NumericFormatDescriptor` per TileDataType: its kind, carrier and lane layout
  (lane bits, lanes per carrier, sign bit), exponent / fraction field widths, bias, the
  carrier bits a valid encoding keeps zero, and capability flags (zero, signed zero,
  subnormals, infinity, quiet and signalling NaN). The fifteen floating and scale types have
  one; the ten integer types get :data:`UNAVAILABLE` (every field zero / false).
* :func:`finite_decomposition` (``TileNumericFiniteDecomposition``): a raw word as
  ``(available, negative, significand, exponent)`` with value
  ``(-1)^negative * significand * 2^exponent``, from integer bit fields only; infinities,
  NaNs, invalid encodings (nonzero required-zero bits) and integer types are unavailable
  (``(False, False, 0, 0)``). A packed X2 type decomposes the lane in the word's low nibble.
* :func:`signed_zero_encodings` (``HardwareNumericSignedZeroEncodings``) and
  :func:`canonical_nan` (``TileNumericCanonicalNaN``, asl/arch/features/mx-formats.asl).

``has_subnormal`` is the ASL's ``HardwareNumericTypeHasSubnormals``: whether the
subnormal input/result rules apply. It is False for the 4-bit lanes (E2M1, E1M2, HiF4) and
E8M0 even though a 4-bit lane's zero-exponent codes are fraction x 2^(1 - bias - fraction
bits), exactly like a subnormal: the ASL classifies those codes as normal numbers.

Pure Python (no numpy), like :mod:`pto_dialect.datatypes`, so every layer can use it. The
interpreter's value tables (``interpreter.kernels.mx.value_lut``) are built independently;
tests/conformance/test_avs_datatypes.py checks them against this module code by code.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pto_dialect.datatypes import TileDataType

__all__ = [
    "UNAVAILABLE",
    "NumericFormatDescriptor",
    "NumericFormatKind",
    "canonical_nan",
    "finite_decomposition",
    "numeric_format",
    "signed_zero_encodings",
]


class NumericFormatKind(Enum):
    """``NumericFormatKind`` (format-descriptor.asl), in the ASL's order."""

    UNAVAILABLE = 0
    FIXED_BINARY = 1
    """Sign, fixed-width biased exponent and fraction fields (IEEE-like, OCP MX)."""
    HIF8 = 2
    """HiF8's prefix-coded ("dot") exponent width: 0..4 exponent and 3..1 fraction bits."""
    E8M0 = 3
    """An unsigned biased power of two (MX scales)."""


@dataclass(frozen=True)
class NumericFormatDescriptor:
    """``NumericFormatDescriptor`` (format-descriptor.asl), field for field."""

    available: bool
    kind: NumericFormatKind
    carrier_bits: int
    lane_bits: int
    lanes_per_carrier: int
    sign_bits: int
    sign_bit: int
    exponent_bits_min: int
    exponent_bits_max: int
    fraction_bits_min: int
    fraction_bits_max: int
    exponent_bias_available: bool
    exponent_bias: int
    required_low_zero_bits: int
    """Low carrier bits a valid encoding keeps zero (TF32: 13, HF32: 12)."""
    required_high_zero_bits: int
    """High carrier bits a valid encoding keeps zero (the 6-bit lanes in a byte: 2)."""
    has_zero: bool
    has_signed_zero: bool
    has_subnormal: bool
    has_infinity: bool
    has_quiet_nan: bool
    has_signaling_nan: bool


UNAVAILABLE = NumericFormatDescriptor(
    False, NumericFormatKind.UNAVAILABLE, 0, 0, 0, 0, 0, 0, 0, 0, 0, False, 0, 0, 0,
    False, False, False, False, False, False,
)  # fmt: skip
"""``UnavailableNumericFormatDescriptor``: every integer type's."""


def _fixed(carrier: int, lane: int, ebits: int, fbits: int, bias: int, *, low: int = 0,
           high: int = 0, inf: bool = True, qnan: bool = True, snan: bool = True,
           sub: bool = True) -> NumericFormatDescriptor:  # fmt: skip
    """A FixedBinary format: sign bit at the lane's top, then exponent and fraction."""
    return NumericFormatDescriptor(
        True, NumericFormatKind.FIXED_BINARY, carrier, lane, 2 if lane == 4 else 1, 1,
        lane - 1, ebits, ebits, fbits, fbits, True, bias, low, high, True, True, sub, inf,
        qnan, snan,
    )  # fmt: skip


T = TileDataType
_NO_SPECIALS = {"inf": False, "qnan": False, "snan": False}
_DESCRIPTORS: dict[TileDataType, NumericFormatDescriptor] = {
    # asl/arch/data-types/formats/<format>.asl, <FORMAT>NumericFormatDescriptor
    T.FP64: _fixed(64, 64, 11, 52, 1023),
    T.FP32: _fixed(32, 32, 8, 23, 127),
    T.TF32: _fixed(32, 32, 8, 10, 127, low=13),
    T.HF32: _fixed(32, 32, 8, 11, 127, low=12),
    T.FP16: _fixed(16, 16, 5, 10, 15),
    T.BF16: _fixed(16, 16, 8, 7, 127),
    T.HIF8: NumericFormatDescriptor(
        True, NumericFormatKind.HIF8, 8, 8, 1, 1, 7, 0, 4, 1, 3, False, 0, 0, 0,
        True, False, True, True, True, False,
    ),  # fmt: skip
    T.E4M3: _fixed(8, 8, 4, 3, 7, inf=False, snan=False),  # S.1111.111 is the only NaN
    T.E5M2: _fixed(8, 8, 5, 2, 15),
    T.E3M2: _fixed(8, 6, 3, 2, 3, high=2, **_NO_SPECIALS),
    T.E2M3: _fixed(8, 6, 2, 3, 1, high=2, **_NO_SPECIALS),
    T.E2M1X2: _fixed(8, 4, 2, 1, 1, sub=False, **_NO_SPECIALS),
    T.E1M2X2: _fixed(8, 4, 1, 2, 1, sub=False, **_NO_SPECIALS),
    T.E8M0: NumericFormatDescriptor(
        True, NumericFormatKind.E8M0, 8, 8, 1, 0, 0, 8, 8, 0, 0, True, 127, 0, 0,
        False, False, False, False, True, False,
    ),  # fmt: skip
    T.HIF4X2: _fixed(8, 4, 1, 2, 1, sub=False, **_NO_SPECIALS),  # E1M2 lanes
}
del T
assert all(t.is_float for t in _DESCRIPTORS) and len(_DESCRIPTORS) == 15


def numeric_format(t: TileDataType) -> NumericFormatDescriptor:
    """``TileNumericFormatDescriptor(t)``: :data:`UNAVAILABLE` for the integer types."""
    return _DESCRIPTORS.get(t, UNAVAILABLE)


def _hif8(word: int) -> tuple[bool, bool, int, int]:
    """HiF8FiniteDecomposition (formats/hif8.asl): the dot field in bits 6:3 selects D0..D4
    (0..4 exponent bits, sign-magnitude with an implicit leading 1) or the denormals."""
    neg = bool(word >> 7)
    if word in (0x80, 0x6F, 0xEF):  # NaN, +-inf
        return False, False, 0, 0
    low = word & 0x7F
    if low >> 3 == 0:  # denormal: 2^(m - 23); m = 0 is the only zero (positive)
        return (True, False, 0, 0) if low == 0 else (True, neg, 1, (low & 7) - 23)
    if low >> 3 == 1:  # D0
        return True, neg, 8 | (low & 7), -3
    if low >> 4 == 1:  # D1: one bit, the exponent's sign, magnitude 1
        return True, neg, 8 | (low & 7), (-1 if low >> 3 & 1 else 1) - 3
    esign = -1 if low >> 4 & 1 else 1
    if low >> 5 == 1:  # D2: magnitude 2..3
        return True, neg, 8 | (low & 7), esign * (2 + (low >> 3 & 1)) - 3
    if low >> 5 == 2:  # D3: magnitude 4..7, two fraction bits
        return True, neg, 4 | (low & 3), esign * (4 + (low >> 2 & 3)) - 2
    return True, neg, 2 | (low & 1), esign * (8 + (low >> 1 & 7)) - 1  # D4: 8..15, one bit


def finite_decomposition(t: TileDataType, word: int) -> tuple[bool, bool, int, int]:
    """``TileNumericFiniteDecomposition(t, word)``: (available, negative, significand,
    exponent), value ``(-1)^negative * significand * 2^exponent``."""
    d = numeric_format(t)
    none = (False, False, 0, 0)
    if d.kind is NumericFormatKind.UNAVAILABLE:
        return none
    if d.kind is NumericFormatKind.HIF8:
        return _hif8(word & 0xFF)
    if d.kind is NumericFormatKind.E8M0:
        code = word & 0xFF
        return none if code == 0xFF else (True, False, 1, code - d.exponent_bias)
    if d.lanes_per_carrier == 2:
        word &= (1 << d.lane_bits) - 1  # the lane in the low nibble
    else:
        word &= (1 << d.carrier_bits) - 1
        if word >> d.lane_bits or word & ((1 << d.required_low_zero_bits) - 1):
            return none  # required-zero carrier bits
    fb, eb = d.fraction_bits_min, d.exponent_bits_min
    frac = word >> d.required_low_zero_bits & ((1 << fb) - 1)
    exp = word >> (d.required_low_zero_bits + fb) & ((1 << eb) - 1)
    neg = bool(word >> d.sign_bit & 1)
    top = exp == (1 << eb) - 1
    if d.has_infinity and top:  # IEEE: all-ones exponent is infinity or NaN
        return none
    if not d.has_infinity and d.has_quiet_nan and top and frac == (1 << fb) - 1:
        return none  # E4M3: S.1111.111 is NaN
    if exp == 0:
        return (True, neg, 0, 0) if frac == 0 else (True, neg, frac, 1 - d.exponent_bias - fb)
    return True, neg, (1 << fb) | frac, exp - d.exponent_bias - fb


def signed_zero_encodings(t: TileDataType) -> tuple[int, int] | None:
    """``HardwareNumericSignedZeroEncodings(t)``: (+0, -0) words, or None without -0."""
    d = numeric_format(t)
    if not d.has_signed_zero:
        return None
    return 0, 1 << d.sign_bit


_CANONICAL_NAN = {
    TileDataType.FP64: 0x7FF8000000000000, TileDataType.FP32: 0x7FC00000,
    TileDataType.TF32: 0x7FC00000, TileDataType.HF32: 0x7FC00000, TileDataType.FP16: 0x7E00,
    TileDataType.BF16: 0x7FC0, TileDataType.HIF8: 0x80, TileDataType.E4M3: 0x7F,
    TileDataType.E5M2: 0x7E, TileDataType.E8M0: 0xFF,
}  # fmt: skip


def canonical_nan(t: TileDataType) -> int | None:
    """``TileNumericCanonicalNaN(t)``: the format's canonical quiet NaN word, or None when
    the format has no NaN."""
    return _CANONICAL_NAN.get(t)
