"""Tile padding outside the valid rectangle (PTO-SPEC 2 PadValue, D9).

``pad_tile(payload, valid, pad, dtype)`` returns ``(payload, defined)``: a new array equal
to ``payload`` inside the valid ``(vr, vc)`` rectangle and holding the PadValue outside it,
and a boolean mask of defined elements:

* ``"zero"``: 0, defined;
* ``"max"`` / ``"min"``: the bit pattern of ``TilePadValueForDataType``
  (``asl/tile/model/definedness/elements.asl``): the largest / most negative finite value
  of FP64, FP32, TF32 (0x7F7FE000), HF32 (0x7F7FF000), FP16 (0x7BFF), BF16 (0x7F7F), E4M3
  (0x7E), E5M2 (0x7B); all-ones / 0 for U8, U16, U32, U64; INT_MAX / INT_MIN for S8, S16,
  S32, S64. Every other type (HiF8, E3M2, E2M3, E8M0, the X2 types, S4X2, U4X2) takes the
  ASL's ``otherwise`` words: Max is all ones (Ones{64}: the carrier's bits all set), Min is
  the word 0x8000000000000000, whose carrier bits are all zero (U4X2 Min is 0 as well),
  defined;
* ``"null"`` (also the meaning of an omitted B.DATR): 0 bits, **undefined**.
"""

from __future__ import annotations

import numpy as np

from interpreter.kernels.storage import all_defined as shared_all_defined
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import valid_shape_error

T = TileDataType
PAD_VALUES = ("zero", "max", "min", "null")
"""The PadValue names in the order of their 2-bit codes (00 Zero, 01 Max, 10 Min, 11 Null)."""

_FLOAT_MAX_BITS = {
    T.FP64: 0x7FEFFFFFFFFFFFFF,
    T.FP32: 0x7F7FFFFF,
    T.TF32: 0x7F7FE000,
    T.HF32: 0x7F7FF000,
    T.FP16: 0x7BFF,
    T.BF16: 0x7F7F,
    T.E4M3: 0x7E,
    T.E5M2: 0x7B,
}


_INTEGERS = frozenset({T.U8, T.U16, T.U32, T.U64, T.S8, T.S16, T.S32, T.S64})
"""Integer types with their own TilePadValueForDataType rows (S4X2 / U4X2 have none)."""


def parse_pad(pad: str | int) -> str:
    """A PadValue name from a name or its 2-bit code (00 Zero, 01 Max, 10 Min, 11 Null)."""
    if isinstance(pad, str) and pad.lower() in PAD_VALUES:
        return pad.lower()
    if isinstance(pad, (int, np.integer)) and 0 <= int(pad) <= 3:
        return PAD_VALUES[int(pad)]
    raise PTOFault(FaultKind.TILE_LEGALITY, f"unknown PadValue {pad!r} (zero, max, min, null)")


def pad_bits(t: TileDataType, pad: str) -> int:
    """The bit pattern PadValue ``pad`` writes for type ``t`` (PTO-SPEC 2)."""
    pad = parse_pad(pad)
    carrier = t.info.carrier_bits
    ones = (1 << carrier) - 1
    if pad in ("zero", "null"):
        return 0
    if t in _FLOAT_MAX_BITS:
        mx = _FLOAT_MAX_BITS[t]
        return mx if pad == "max" else mx | 1 << (carrier - 1)
    if t in _INTEGERS and t.is_unsigned:
        return ones if pad == "max" else 0
    if t in _INTEGERS:
        return (ones >> 1) if pad == "max" else 1 << (carrier - 1)
    # TilePadValueForDataType "otherwise": Max = Ones{64}, Min = 0x8000000000000000, both
    # truncated to the carrier; these types' carriers have 4 or 8 bits, so Min is 0
    return ones if pad == "max" else 0


def pad_scalar(t: TileDataType, pad: str, dtype: np.dtype) -> np.ndarray:
    """PadValue ``pad`` as a 0-d array of numpy ``dtype`` (the carrier of ``t``)."""
    bits = pad_bits(t, pad)
    u = np.array(bits, dtype=np.dtype(f"u{np.dtype(dtype).itemsize}"))
    return u.view(dtype)


def all_defined(shape) -> np.ndarray:
    """The shared read-only all-True definedness mask of a tile with no padding to write
    (a full valid rectangle): no per-call allocation or fill."""

    return shared_all_defined(tuple(shape))


def pad_tile(
    payload: np.ndarray, valid: tuple[int, int], pad: str | int, t: TileDataType
) -> tuple[np.ndarray, np.ndarray]:
    """(payload with padding written outside ``valid``, defined mask); see the module doc."""
    pad = parse_pad(pad)
    payload = np.asarray(payload)
    if payload.ndim != 2:
        raise PTOFault(FaultKind.TILE_LEGALITY, f"a tile payload is 2-D, got {payload.shape}")
    vr, vc = valid
    rows, cols = payload.shape
    if why := valid_shape_error((vr, vc), (rows, cols)):  # nonempty, within (PTO-SPEC 2, D14)
        raise PTOFault(FaultKind.TILE_LEGALITY, why)
    out = payload.copy()
    defined = np.zeros((rows, cols), dtype=bool)
    defined[:vr, :vc] = True
    value = pad_scalar(t, pad, out.dtype)
    out[vr:, :] = value
    out[:vr, vc:] = value
    if pad != "null":
        defined[:] = True
    return out, defined
