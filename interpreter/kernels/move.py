"""Kernel of the Local tile-to-tile move TMOV (``asl/tile/model/memory/shared-movement.asl``
``TMOV``): the whole physical payload and its per-element definedness, unchanged.

Tile payloads are immutable (SSA values), so the copy shares the source's arrays: the move
is O(1) whatever the tile size; no element is read, so nothing can fault.
"""

from __future__ import annotations

import numpy as np


def tmov(payload: np.ndarray, defined: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TMOV of one PE: ``(payload, defined)`` of the destination (the source's, shared)."""
    return payload, defined
