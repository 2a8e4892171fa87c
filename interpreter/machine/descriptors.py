"""Tile descriptor geometry of the register files (asl/tile/model/state): SizeCode bytes, the rows a capacity and column count derive, the logical element capacity and whether a shape is legal. Shared by the Local and Shared register files and the TLSU; imports no other machine module."""

from __future__ import annotations

from interpreter.machine.global_memory import (  # gm_load / gm_store re-exported
    element_bits,
)
from pto_dialect.datatypes import TileDataType


def size_code_bytes(code: int) -> int:
    """``TileSizeCodeBytes`` (SizeCode 1..12)."""
    return 128 << (code - 1)


def derived_rows(capacity: int, columns: int, dt: TileDataType) -> int:
    """``DerivedTileRows``: rows from TSize, a power-of-two Col and the type; 0 when none."""
    if capacity <= 0 or columns <= 0 or columns & (columns - 1) or columns > 65535:
        return 0
    row_bits = columns * element_bits(dt)
    if (capacity * 8) % row_bits:
        return 0
    rows = capacity * 8 // row_bits
    return rows if 0 < rows <= 65535 else 0


def logical_capacity(capacity: int, dt: TileDataType) -> int:
    """``TileLogicalElementCapacity``."""
    return capacity * 8 // element_bits(dt)


def shape_legal(capacity: int, columns: int, valid_rows: int, valid_columns: int,
                dt: TileDataType) -> bool:  # fmt: skip
    """``TileDescriptorShapeLegal``."""
    rows = derived_rows(capacity, columns, dt)
    return (rows != 0 and valid_rows <= rows and valid_columns <= columns
            and valid_rows * valid_columns <= logical_capacity(capacity, dt))  # fmt: skip


def minimum_capacity(columns: int, valid_rows: int, valid_columns: int, dt: TileDataType) -> int:
    """``MinimumTileCapacityBytesForShape``: the smallest SizeCode 1..12 capacity whose derived
    descriptor holds the shape; 0 when none does."""
    for code in range(1, 13):
        if shape_legal(size_code_bytes(code), columns, valid_rows, valid_columns, dt):
            return size_code_bytes(code)
    return 0
