"""Tile-scalar elementwise kernels (TEPL mode 1): ``source <op> scalar`` for every valid element.

Each op is the binary row of the same ``TileBinaryOperation`` (``BINARY_ROWS``: TADDS is
TADD's row, TSHLS TSHL's...), applied with the scalar as the second operand
(``ExecuteTileScalar`` in ``asl/tile/model/execution/elementwise.asl``), so numerics,
wrapping, NaN choice and signed zeros are exactly the tile-tile op's.

The scalar (``TileRawElementValue``): a GPR word whose low element-width bits are the
element's raw encoding (an int, two's complement for negatives), or a Python float / numpy
scalar already of the element's value (converted exactly; it must be representable).
Legality before any effect (``TileOperandsLegal_ExecuteTileScalar``): the type set is
``TileBinaryDataTypeSupported`` of the row; a TF32/HF32 scalar or source element with
nonzero low bits, and an integer zero scalar for TDIVS/TREMS, are Fault_TileLegality.
"""

from __future__ import annotations

import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault

from . import status
from .elementwise import BINARY_ROWS, BinaryRow, binary_core
from .tepl import map_valid

TILE_SCALAR_ROWS: dict[str, BinaryRow] = {
    f"{m}S": BINARY_ROWS[m]
    for m in ("TADD", "TSUB", "TMUL", "TDIV", "TREM", "TAND", "TOR", "TXOR", "TSHL", "TSHR",
              "TMAX", "TMIN")
}  # fmt: skip
"""Tile-scalar op mnemonic -> the binary row it applies (TEPL mode 1, functions 0-12)."""


def scalar_element(scalar, t: TileDataType, dtype: np.dtype) -> np.ndarray:
    """The scalar as a (1, 1) array of the tile's numpy carrier ``dtype``.

    An integer is a raw GPR word: its low element-width bits are the encoding. A float is a
    value and must be exactly representable in the element type."""
    width = dtype.itemsize * 8
    if isinstance(scalar, (int, np.integer)) and not isinstance(scalar, bool):
        u = np.array(int(scalar) & ((1 << width) - 1), np.dtype(f"u{dtype.itemsize}"))
        return u.view(dtype).reshape(1, 1)
    v = float(scalar)
    e = np.array(v, np.float64).astype(dtype)
    if not (np.isnan(v) and np.isnan(e.astype(np.float64))) and e.astype(np.float64) != v:
        raise PTOFault(
            FaultKind.TILE_LEGALITY, f"scalar {v!r} is not exactly representable in {t.asm}"
        )
    return e.reshape(1, 1)


def tile_scalar(
    mnemonic: str, src, scalar, valid, pad="null", dtype=None
) -> tuple[np.ndarray, np.ndarray]:
    """Tile-level tile-scalar kernel: physical payload, scalar, valid (rows, cols), PadValue
    -> ``(payload, defined)``."""
    row = TILE_SCALAR_ROWS[mnemonic]
    named = _Named(row, mnemonic)

    def compute(views: list[np.ndarray], t: TileDataType) -> np.ndarray:
        s = scalar_element(scalar, t, views[0].dtype)
        if t.is_integer and row.int_zero_rhs_faults and not s.all():
            raise PTOFault(
                FaultKind.TILE_LEGALITY,
                "integer zero scalar divisor (TilePayloadNonzero, "
                "TileOperandsLegal_ExecuteTileScalar)",
                mnemonic,
            )
        r = binary_core(row, views[0], s, t)
        if status.active():  # ExecuteTileScalar records TileProfileBinaryWithFlags
            status.record(status.binary_flags(row.mnemonic[1:], views[0], s, r, t))
        return r

    return map_valid(named, [src], ["source"], valid, pad, dtype, compute)


class _Named:
    """A binary row seen under the tile-scalar mnemonic (for messages and type checks)."""

    def __init__(self, row: BinaryRow, mnemonic: str):
        self.mnemonic = mnemonic
        self.types = row.wide_types
        self.wide_types = row.wide_types
