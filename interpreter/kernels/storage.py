"""How the interpreter stores tile elements: the numpy dtype of each TileDataType, the shared read-only all-True definedness masks, the PEs a mask selects. The bottom of the interpreter: kernels, the SSA interpreter and the machine all use it."""

from __future__ import annotations

from functools import cache

import numpy as np

from pto_dialect.datatypes import TileDataType

SHARED_DEFINED: set[int] = set()
"""ids of the shared all-True masks (never freed: :func:`all_defined` caches them forever)."""


@cache
def all_defined(shape: tuple[int, int]) -> np.ndarray:
    """A shared read-only all-True definedness mask."""
    out = np.ones(shape, dtype=bool)
    out.setflags(write=False)
    SHARED_DEFINED.add(id(out))
    return out


@cache
def storage_dtype(dt: TileDataType) -> np.dtype:
    """The numpy dtype the interpreter stores one logical element of ``dt`` in."""
    npd = dt.numpy_dtype()
    if npd is not None:
        return npd
    if dt in (TileDataType.TF32, TileDataType.HF32):
        return np.dtype(np.float32)
    return np.dtype(np.uint8)


def pe_indices(mask: str) -> list[int]:
    """PE numbers selected by a 4-digit mask, PE0 leftmost (D13)."""
    return [i for i, c in enumerate(mask) if c == "1"]
