"""Exact decoding of the MX input formats and E8M0 scales (PTO-SPEC 1, NUMERICS.md 1, D2, D5).

Every table here is built from the bit format (sign, exponent bias, mantissa width), not
from ml_dtypes; the tests compare them with ml_dtypes where ml_dtypes has the type.

* ``value_lut(t)`` -- float64 value of every code of type ``t`` (256 entries for the 8-bit
  and 4-bit types, 65536 for FP16/BF16). Special values follow OCP MX v1.0 (D5):
  E4M3 ``S.1111.111`` is NaN (no inf); E5M2 has IEEE inf/NaN; E2M1 and E1M2 have none;
  E8M0 is ``2^(code-127)`` with ``0xFF`` = NaN.
* ``to_codes(x, t, packed=False)`` -- the raw codes of an operand, one code per logical
  element (uint8, or uint16 for FP16/BF16).
* ``decode(x, t, packed=False)`` -- float64 values of an operand.

How operands are given (the kernel API uses these rules for every MX input):

* an ml_dtypes / numpy array of the matching type: ``float16``, ``bfloat16``,
  ``float8_e4m3fn``, ``float8_e5m2``, ``float4_e2m1fn`` (ml_dtypes keeps one FP4 value per
  byte), ``float8_e8m0fnu``; the type name may be omitted;
* raw codes plus a PTO type name (``"E4M3"``, ``"E1M2X2"``...) or :class:`TileDataType`:
  ``uint8`` codes for the 8-bit and 4-bit types, ``uint8`` or ``uint16`` for FP16/BF16
  (the 16-bit patterns). For the packed X2 types (E2M1X2, E1M2X2) a uint8 array holds
  **one code per element in the low nibble** (the high nibble is ignored; note
  that ml_dtypes does not ignore it); with ``packed=True`` each byte holds **two** elements along the last axis, logical
  element ``e`` of a row in nibble ``e % 2`` of byte ``e // 2``, low nibble first (PTO-SPEC 1),
  so the logical last-axis length is twice the byte count. ``packed`` only affects uint8
  operands of the X2 types (use one code per element for an
  odd length). :func:`pack_x2` produces that layout.
"""

from __future__ import annotations

from typing import NamedTuple

import ml_dtypes
import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.mx_quant import pack_x2 as pack_x2  # re-exported by kernels
from pto_dialect.mx_quant import unpack_x2

T = TileDataType

# (exponent bits, mantissa bits, bias, specials) per element format, from PTO-SPEC 1 and
# the OCP MX v1.0 definitions. specials: "ieee" = all-ones exponent is inf (m=0) / NaN;
# "fn" = only S.1111.111 is NaN (E4M3); "none" = every code is finite.
_FORMATS: dict[TileDataType, tuple[int, int, int, str]] = {
    T.FP16: (5, 10, 15, "ieee"),
    T.BF16: (8, 7, 127, "ieee"),
    T.E4M3: (4, 3, 7, "fn"),
    T.E5M2: (5, 2, 15, "ieee"),
    T.E2M1X2: (2, 1, 1, "none"),
    T.E1M2X2: (1, 2, 1, "none"),
    T.HIF4X2: (1, 2, 1, "none"),  # asl/arch/data-types/formats/hif4x2.asl: E1M2 lanes, bias 1
    T.E3M2: (3, 2, 3, "none"),  # asl/arch/data-types/formats/e3m2.asl: bias 3, no inf/NaN
    T.E2M3: (2, 3, 1, "none"),  # asl/arch/data-types/formats/e2m3.asl: bias 1, no inf/NaN
}

_ML_DTYPES: dict[np.dtype, TileDataType] = {
    np.dtype(np.float16): T.FP16,
    np.dtype(ml_dtypes.bfloat16): T.BF16,
    np.dtype(ml_dtypes.float8_e4m3fn): T.E4M3,
    np.dtype(ml_dtypes.float8_e5m2): T.E5M2,
    np.dtype(ml_dtypes.float4_e2m1fn): T.E2M1X2,
    np.dtype(ml_dtypes.float8_e8m0fnu): T.E8M0,
    np.dtype(ml_dtypes.float6_e3m2fn): T.E3M2,
    np.dtype(ml_dtypes.float6_e2m3fn): T.E2M3,
}
"""numpy/ml_dtypes element dtype -> the PTO type it carries."""


def _build_lut(ebits: int, mbits: int, bias: int, specials: str) -> np.ndarray:
    """Value of every code of a sign/exponent/mantissa format, vectorised over codes."""
    ncodes = 1 << (1 + ebits + mbits)
    code = np.arange(ncodes, dtype=np.int64)
    sign = np.where(code >> (ebits + mbits) & 1, -1.0, 1.0)
    exp = (code >> mbits) & ((1 << ebits) - 1)
    man = (code & ((1 << mbits) - 1)).astype(np.float64)
    # subnormal: m * 2^(1-bias-mbits); normal: (2^mbits + m) * 2^(exp-bias-mbits)
    mag = np.where(
        exp == 0,
        np.ldexp(man, 1 - bias - mbits),
        np.ldexp(man + (1 << mbits), (exp - bias - mbits).astype(np.int32)),
    )
    lut = sign * mag
    emax = (1 << ebits) - 1
    if specials == "ieee":
        top = exp == emax
        lut[top & (man == 0)] = sign[top & (man == 0)] * np.inf
        lut[top & (man != 0)] = np.nan
    elif specials == "fn":
        lut[(exp == emax) & (man == (1 << mbits) - 1)] = np.nan
    return lut


def _build_hif8() -> np.ndarray:
    """HiF8 (``asl/arch/data-types/formats/hif8.asl``): 1 sign bit, then a prefix-coded "dot"
    field in bits [6:3] that sets how many exponent bits follow (0..4) and leaves 3, 3, 3, 2
    or 1 fraction bits; the exponent field is sign-magnitude (its top bit is the sign) with
    an implicit leading 1 in the magnitude. Denormals (bits [6:3] = 0) are 2^(m-23).
    0x80 is the only NaN, 0x6F / 0xEF are +-inf, 0x00 is the only zero (no -0)."""
    lut = np.empty(256)
    for code in range(256):  # built once at import: 256 entries
        neg, low = code >> 7, code & 0x7F
        if low >> 3 == 0:
            mag = 0.0 if low == 0 else 2.0 ** ((low & 7) - 23)
        else:
            if low >> 3 == 1:  # D0
                e, f, fb = 0, low & 7, 3
            elif low >> 4 == 1:  # D1: one exponent bit (its sign), magnitude 1
                e, f, fb = (-1 if low >> 3 & 1 else 1), low & 7, 3
            elif low >> 5 == 1:  # D2: sign + 1 magnitude bit, magnitude 2..3
                e, f, fb = (2 + (low >> 3 & 1)) * (-1 if low >> 4 & 1 else 1), low & 7, 3
            elif low >> 5 == 2:  # D3: sign + 2 magnitude bits, magnitude 4..7
                e, f, fb = (4 + (low >> 2 & 3)) * (-1 if low >> 4 & 1 else 1), low & 3, 2
            else:  # D4: sign + 3 magnitude bits, magnitude 8..15
                e, f, fb = (8 + (low >> 1 & 7)) * (-1 if low >> 4 & 1 else 1), low & 1, 1
            mag = (1 + f / (1 << fb)) * 2.0**e
        lut[code] = -mag if neg else mag
    lut[0x80] = np.nan
    lut[0x6F], lut[0xEF] = np.inf, -np.inf
    lut[0x00] = 0.0
    return lut


def _build_e8m0() -> np.ndarray:
    code = np.arange(256)
    lut = np.ldexp(1.0, code - 127)
    lut[0xFF] = np.nan
    return lut


_LUTS: dict[TileDataType, np.ndarray] = {t: _build_lut(*f) for t, f in _FORMATS.items()}
_LUTS[T.E8M0] = _build_e8m0()
_LUTS[T.HIF8] = _build_hif8()
for _t in (T.E2M1X2, T.E1M2X2, T.HIF4X2):
    # 4-bit formats indexed by a whole byte: the high nibble is ignored.
    _LUTS[_t] = np.tile(_LUTS[_t], 16)
for _t in (T.E3M2, T.E2M3):
    # 6-bit formats in an 8-bit carrier; the ASL requires the top 2 bits to be 0
    # (``required_high_zero_bits = 2``): the CUBE kernel faults on them (HIGH_ZERO_BITS).
    _LUTS[_t] = np.tile(_LUTS[_t], 4)
for _lut in _LUTS.values():
    _lut.setflags(write=False)
del _t, _lut

DECODABLE_TYPES = frozenset(_LUTS)
"""Types this module decodes by table: the six MX input types of D2, E8M0, HiF8, E3M2, E2M3
and HiF4X2 (a TCVT source)."""

HIGH_ZERO_BITS = {T.E3M2: 0xC0, T.E2M3: 0xC0}
"""Carrier bits that must be 0 in a valid encoding (``required_high_zero_bits``)."""


class BitLayout(NamedTuple):
    """How a sign/exponent/mantissa code becomes FP32 bits with integer operations only.

    The code is shifted left by ``pre`` within its ``carrier`` (8-bit codes narrower than
    the carrier: their sign to the carrier's top bit, the unused high bits dropped), widened
    to int32 with sign extension, shifted left by ``left`` so that its exponent field ends at
    FP32's exponent LSB (bit 23), and masked by ``mask`` to the sign (bit 31, from the
    extension) and the exponent and mantissa fields: FP32(bits) = value * 2^-bias_gap for
    every finite code, subnormal codes included (they land on FP32 subnormals with the same
    significand). A code whose magnitude bits (all but the carrier's top bit) reach
    ``special_min`` is inf/NaN and decodes wrongly: look it up instead. 4-bit codes ignore
    the carrier's high nibble, 6-bit codes its two top bits."""

    carrier: np.dtype  # int8 / int16: signed, so that widening sign-extends
    pre: int  # 8 - code bits for narrow codes in a byte, else 0
    left: int
    mask: int  # as an unsigned 32-bit pattern
    bias_gap: int
    special_min: int | None


def bit_layout(t: TileDataType) -> BitLayout | None:
    """The :class:`BitLayout` of an element format (None for HiF8, E8M0). Packed X2 bytes
    hold two codes of the X2 type's layout: the low nibble moves to the top by ``pre``, the
    high one is there already (mask the low nibble off instead)."""
    if t not in _FORMATS:
        return None
    ebits, mbits, bias, specials = _FORMATS[t]
    width = 16 if t in (T.FP16, T.BF16) else 8
    bits = 1 + ebits + mbits
    special_min = None
    if specials == "ieee":  # all-ones exponent
        special_min = ((1 << ebits) - 1) << mbits
    elif specials == "fn":  # only S.1...1.1...1
        special_min = (1 << (bits - 1)) - 1
    mask = (1 << 31) | (((1 << (ebits + mbits)) - 1) << (23 - mbits))
    carrier = np.dtype(np.int16 if width == 16 else np.int8)
    pre = width - bits
    return BitLayout(carrier, pre, 23 - mbits - pre, mask, 127 - bias, special_min)


def value_lut(t: TileDataType) -> np.ndarray:
    """Read-only float64 value table indexed by code (by whole byte for 4-bit types)."""
    return _LUTS[t]


def as_type(t: TileDataType | str | None, op: str | None = None) -> TileDataType | None:
    """Accept a TileDataType, an assembly name (``"E4M3"``) or None."""
    if t is None or isinstance(t, TileDataType):
        return t
    try:
        return TileDataType.from_asm(str(t))
    except ValueError as e:
        raise PTOFault(FaultKind.TILE_LEGALITY, str(e), op) from None


def infer_type(
    x: np.ndarray, t: TileDataType | str | None, what: str, op: str | None = None
) -> TileDataType:
    """The PTO type of operand ``x``: from its ml_dtypes dtype, or the explicit name."""
    t = as_type(t, op)
    carried = _ML_DTYPES.get(x.dtype)
    if carried is not None:
        if t is not None and t is not carried:
            raise PTOFault(
                FaultKind.TILE_LEGALITY,
                f"{what} has dtype {x.dtype} (a {carried.asm} array) but type {t.asm} was given",
                op,
            )
        return carried
    if t is None:
        raise PTOFault(
            FaultKind.TILE_LEGALITY,
            f"{what} has dtype {x.dtype}: give its PTO type name for raw codes",
            op,
        )
    return t


def to_codes(
    x: np.ndarray, t: TileDataType, *, packed: bool = False, what: str = "operand",
    op: str | None = None,
) -> np.ndarray:
    """Raw codes of ``x`` (one per logical element): uint16 for FP16/BF16, else uint8.

    Returns a view where possible; never modifies ``x``.
    """
    x = np.asarray(x)
    wide = t in (T.FP16, T.BF16)
    if x.dtype in _ML_DTYPES:
        codes = x.view(np.uint16 if wide else np.uint8)
        return codes
    if wide:
        if x.dtype not in (np.dtype(np.uint16), np.dtype(np.uint8)):
            raise PTOFault(
                FaultKind.TILE_LEGALITY,
                f"{what}: {t.asm} raw codes must be uint16 (or uint8), not {x.dtype}",
                op,
            )
        return x.astype(np.uint16, copy=False)
    if x.dtype != np.uint8:
        raise PTOFault(
            FaultKind.TILE_LEGALITY, f"{what}: {t.asm} raw codes must be uint8, not {x.dtype}", op
        )
    if packed and t.packed_x2:
        return unpack_x2(x)
    return x


def decode(
    x: np.ndarray, t: TileDataType | str | None = None, *, packed: bool = False,
    op: str | None = None,
) -> np.ndarray:
    """Exact float64 values of an MX operand or E8M0 scale (see the module docstring)."""
    x = np.asarray(x)
    t = infer_type(x, t, "operand", op)
    if t not in _LUTS:
        raise PTOFault(FaultKind.TILE_LEGALITY, f"type {t.asm} is not an MX/E8M0 format", op)
    return _LUTS[t][to_codes(x, t, packed=packed, op=op)]
