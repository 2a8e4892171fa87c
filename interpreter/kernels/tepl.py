"""Shared driver of the elementwise TEPL kernels: checks, the valid rectangle, padding.

``map_valid(row, sources, valid, pad, dtype, compute)`` resolves the element type from the
first source (or ``dtype``), checks that every source is a same-shape 2-D payload of the
tile's numpy carrier, computes ``compute(views, t)`` on the valid rectangle only, and pads
the rest with PadValue ``pad`` (D9). Every check runs before anything is computed (D12).
A row is any object with ``mnemonic``, ``types`` and ``wide_types`` (the unary and
tile-scalar rows; the binary family has its own driver, :func:`.elementwise.binary_tile`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import valid_shape_error

from .elementwise import as_tile_dtype, resolve_type
from .padding import all_defined, pad_tile, parse_pad


def map_valid(
    row,
    sources: Sequence,
    names: Sequence[str],
    valid: tuple[int, int] | None,
    pad: str | int,
    dtype,
    compute: Callable[[list[np.ndarray], TileDataType], np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    arrs = [np.asarray(x) for x in sources]
    t, npdt = resolve_type(row, arrs[0], dtype, False)
    arrs = [as_tile_dtype(x, npdt, n, row) for x, n in zip(arrs, names)]
    if any(x.shape != arrs[0].shape for x in arrs):
        raise PTOFault(
            FaultKind.TILE_LEGALITY,
            f"operand shapes differ: {', '.join(str(x.shape) for x in arrs)}",
            row.mnemonic,
        )
    arrs = [x.reshape(1, -1) if x.ndim == 1 else x for x in arrs]
    if arrs[0].ndim != 2:
        raise PTOFault(
            FaultKind.TILE_LEGALITY, f"tile payloads are 2-D, got {arrs[0].shape}", row.mnemonic
        )
    pad = parse_pad(pad)
    rows, cols = arrs[0].shape
    vr, vc = (rows, cols) if valid is None else valid
    if why := valid_shape_error((vr, vc), (rows, cols)):
        raise PTOFault(
            FaultKind.TILE_LEGALITY,
            why,
            row.mnemonic,
        )
    full = vr == rows and vc == cols
    views = arrs if full else [x[:vr, :vc] for x in arrs]
    res = compute(views, t)
    if full:
        return res, all_defined(res.shape)
    out = np.empty((rows, cols), npdt)
    out[:vr, :vc] = res
    return pad_tile(out, (vr, vc), pad, t)
