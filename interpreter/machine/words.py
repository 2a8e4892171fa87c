"""Element values <-> the 64-bit raw words of the architectural state (GPRs, Shared registers): signed integers sign-extended, 4-bit types in the low nibble. Imports no other machine module but global memory."""

from __future__ import annotations

import numpy as np

from interpreter.kernels.storage import storage_dtype
from interpreter.machine.global_memory import element_bits
from pto_dialect.attributes import TileType
from pto_dialect.datatypes import TileDataType


def raw_words(ttype: TileType, values: np.ndarray) -> np.ndarray:
    """Typed element values -> 64-bit raw words (signed integers sign-extended)."""
    a = np.asarray(values)
    width = a.dtype.itemsize * 8
    bits = a.view(f"u{a.dtype.itemsize}").astype(np.uint64)
    if ttype.dtype.is_signed and width < 64 and element_bits(ttype.dtype) != 4:
        shift = np.uint64(64 - width)
        bits = ((bits << shift).view(np.int64) >> np.int64(64 - width)).view(np.uint64)
    return bits


def typed_values(dt: TileDataType, words: np.ndarray) -> np.ndarray:
    """64-bit raw words -> the interpreter's storage of ``dt`` (the low element bits)."""
    sd = storage_dtype(dt)
    w = np.asarray(words, np.uint64)
    if element_bits(dt) == 4:
        w = w & np.uint64(0xF)
    return w.astype(f"u{sd.itemsize}").view(sd)
