"""TFMA and TEXPANDS kernels (``asl/tile/elementwise-tile-tile/arithmetic/TFMA.asl``,
``asl/tile/tile-scalar-and-immediate/initialization/TEXPANDS.asl``).

TFMA ``d = a * b + c``: integers modulo the element width; floats ONE rounding of the exact
``a * b + c`` (no rounded product) with RNE, the canonical NaN for NaN results (0 * inf and
inf - inf are NaN). For every float type narrower than FP64 the product is exact in float64
(2p <= 53) and the sum is formed with round-to-odd in float64 (TwoSum error term, then one
ulp toward it when inexact and the result is even), which makes the final RNE rounding to
the format correct (53 >= p + 2). FP64 TFMA needs a 106-bit product: it is refused with a
"not implemented" TileLegality fault rather than computed with a double rounding.

TEXPANDS ``d[i, j] = scalar`` on the valid rectangle: the scalar word's low element-width
bits, no conversion (a float scalar must be exactly representable), padding outside (D9).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pto_dialect.datatypes import VEC_ARITH_TYPES, TileDataType
from pto_dialect.faults import FaultKind, PTOFault

from .elementwise import check_encodings
from .padding import pad_tile, parse_pad
from .tepl import map_valid
from .tile_scalar import scalar_element
from .unary import canonical_nan, round_from_f64

T = TileDataType


@dataclass(frozen=True)
class _Row:
    mnemonic: str
    types: frozenset[TileDataType] = VEC_ARITH_TYPES

    @property
    def wide_types(self) -> frozenset[TileDataType]:
        return self.types


TFMA_ROW = _Row("TFMA")
TEXPANDS_ROW = _Row("TEXPANDS")


def fma_round_to_odd(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``a * b + c`` in float64 with round-to-odd, for inputs whose product is exact in
    float64 (each has at most 26 significant bits)."""
    p = a * b  # exact
    s = p + c
    z = s - p
    e = (p - (s - z)) + (c - z)  # TwoSum: s + e == p + c exactly (finite case)
    inexact = (e != 0) & np.isfinite(s)
    if inexact.any():
        even = (s.view(np.uint64) & np.uint64(1)) == 0
        fix = inexact & even
        s = np.where(fix, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)
    return s


def _fma_core(v: list[np.ndarray], t: TileDataType) -> np.ndarray:
    a, b, c = v
    if t.is_integer:
        return a * b + c  # numpy integer arithmetic wraps at the element width
    if t is T.FP64:
        raise PTOFault(
            FaultKind.TILE_LEGALITY,
            "TFMA on FP64 is not implemented (a correctly rounded 106-bit fused product is "
            "not modelled)",
            "TFMA",
        )
    check_encodings(t, ((a, "lhs"), (b, "rhs"), (c, "addend")), "TFMA")
    with np.errstate(all="ignore"):
        s = fma_round_to_odd(a.astype(np.float64), b.astype(np.float64), c.astype(np.float64))
        return canonical_nan(round_from_f64(s, t, a.dtype))


def tfma_tile(lhs, rhs, addend, valid, pad="null", dtype=None):
    """Tile-level TFMA: three same-shape payloads -> ``(payload, defined)``."""
    return map_valid(TFMA_ROW, [lhs, rhs, addend], ["lhs", "rhs", "addend"], valid, pad, dtype,
                     _fma_core)  # fmt: skip


def texpands_tile(scalar, valid, pad="null", dtype=None, *, shape=None):
    """Tile-level TEXPANDS: ``shape`` (rows, cols) physical, the scalar on ``valid``."""
    if dtype is None or shape is None:
        raise PTOFault(FaultKind.TILE_LEGALITY, "TEXPANDS needs the destination type and shape")
    t = dtype if isinstance(dtype, TileDataType) else TileDataType.from_asm(str(dtype))
    if t not in TEXPANDS_ROW.types:
        raise PTOFault(FaultKind.TILE_LEGALITY, f"TEXPANDS does not accept {t.asm}", "TEXPANDS")
    npdt = np.dtype(np.float32) if t in (T.TF32, T.HF32) else t.numpy_dtype()
    s = scalar_element(scalar, t, npdt)
    check_encodings(t, ((s, "scalar"),), "TEXPANDS")
    rows, cols = shape
    vr, vc = (rows, cols) if valid is None else valid
    out = np.empty((rows, cols), npdt)
    out[:vr, :vc] = s
    if (vr, vc) == (rows, cols):
        return out, np.ones(out.shape, bool)
    return pad_tile(out, (vr, vc), parse_pad(pad), t)
