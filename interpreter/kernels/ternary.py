"""TFMA and TEXPANDS kernels (``asl/tile/elementwise-tile-tile/arithmetic/TFMA.asl``,
``asl/tile/tile-scalar-and-immediate/initialization/TEXPANDS.asl``).

TFMA ``d = a * b + c``: integers modulo the element width; floats ONE rounding of the exact
``a * b + c`` (no rounded product) with RNE, the canonical NaN for NaN results (0 * inf and
inf - inf are NaN). For every float type narrower than FP64 the product is exact in float64
(2p <= 53) and the sum is formed with round-to-odd in float64 (TwoSum error term, then one
ulp toward it when inexact and the result is even), which makes the final RNE rounding to
the format correct (53 >= p + 2). FP64 TFMA (a 106-bit product) uses the Boldo-Melquiond
round-to-odd emulation (:func:`fma_f64`), exact rationals for the few extreme-exponent lanes.

TEXPANDS ``d[i, j] = scalar`` on the valid rectangle: the scalar word's low element-width
bits, no conversion (a float scalar must be exactly representable), padding outside (D9).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import valid_shape_error

from . import status
from .elementwise import check_encodings, op_types
from .padding import pad_tile, parse_pad
from .tepl import map_valid
from .tile_scalar import scalar_element
from .unary import canonical_nan, round_from_f64

T = TileDataType


@dataclass(frozen=True)
class _Row:
    mnemonic: str

    @property
    def types(self) -> frozenset[TileDataType]:
        return op_types(self.mnemonic)

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


_SPLIT = 134217729.0  # 2^27 + 1 (Veltkamp)


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    t = _SPLIT * a
    hi = t - (t - a)
    return hi, a - hi


def _round_to_odd_sum(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """RO(x + y) in float64: the RNE sum, moved one ulp toward the error when inexact and
    even."""
    s = x + y
    z = s - x
    e = (x - (s - z)) + (y - z)
    fix = (e != 0) & ((s.view(np.uint64) & np.uint64(1)) == 0)
    if fix.any():
        s = s.copy()
        s[fix] = np.nextafter(s[fix], np.where(e[fix] > 0, np.inf, -np.inf))
    return s


def _fma_exact(a: float, b: float, c: float) -> float:
    """One lane of RNE(a * b + c) by exact rational arithmetic (finite inputs): the rare
    lanes outside the range where the vectorised algorithm is proved."""
    from fractions import Fraction

    x = Fraction(a) * Fraction(b) + Fraction(c)
    if x == 0:  # exact zero: +0 unless both terms are negative zeros (IEEE 754 6.3)
        neg = math.copysign(1, a) * math.copysign(1, b) < 0 and math.copysign(1, c) < 0
        return -0.0 if neg else 0.0
    try:
        return float(x)  # int / int true division: correctly rounded (RNE, subnormals)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def fma_f64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """RNE(a * b + c) in float64 with ONE rounding.

    Boldo-Melquiond emulation with round-to-odd ("Emulation of FMA and correctly rounded
    sums: proved algorithms using rounding to odd", IEEE TC 57(4), 2008): (uh, ul) = exact
    product (Veltkamp split, Dekker product), (th, tl) = TwoSum(c, uh), v = RO(tl + ul),
    result = RN(th + v). It holds while no step overflows or underflows; lanes with a zero
    or non-finite operand are exact in plain arithmetic (see the code: ``a * b + c``, or
    ``a * b`` when c is a zero, or ``c`` when it is an infinity), and the few lanes
    with extreme exponents (product or sum beyond 2^+-960, a tiny result) are computed
    exactly with rationals."""
    with np.errstate(all="ignore"):
        p = a * b
        # Exact without the emulation: a zero or non-finite factor (a * b is then exact or
        # NaN: p + c rounds once); finite non-zero factors with c = +-0 (the exact product is
        # non-zero, so the result is RN(a * b) = p, its sign kept when it underflows to zero:
        # -1e-300 * 1e-300 + 0 = -0) or with c = +-inf (the exact sum is c, even when p
        # overflows: 1e300 * 1e300 - inf = -inf).
        special_ab = (a == 0) | (b == 0) | ~np.isfinite(a) | ~np.isfinite(b)
        c_rules = ~special_ab & ((c == 0) | np.isinf(c))
        plain = special_ab | c_rules | np.isnan(c)
        plain_value = np.where(c_rules, np.where(c == 0, p, c), p + c)
        _, ea = np.frexp(a)
        _, eb = np.frexp(b)
        _, ec = np.frexp(c)
        safe = ~plain & (np.abs(ea) < 990) & (np.abs(eb) < 990) & (np.abs(ea + eb) < 960) & (
            np.abs(ec) < 960)
        ah, al = _split(np.where(safe, a, 1.0))
        bh, bl = _split(np.where(safe, b, 1.0))
        uh = np.where(safe, p, 1.0)
        ul = ((ah * bh - uh) + ah * bl + al * bh) + al * bl
        cs = np.where(safe, c, 0.0)
        th = cs + uh
        z = th - cs
        tl = (cs - (th - z)) + (uh - z)
        r = th + _round_to_odd_sum(tl, ul)
        r = np.where(plain, plain_value, r)
        hard = ~plain & (~safe | ~np.isfinite(r) | (np.abs(r) < 2.0**-960))
        if hard.any():
            idx = np.flatnonzero(hard)
            flat = r.reshape(-1).copy()
            for i, x, y, w in zip(idx, a.reshape(-1)[idx], b.reshape(-1)[idx], c.reshape(-1)[idx]):
                flat[i] = _fma_exact(float(x), float(y), float(w))
            r = flat.reshape(r.shape)
    return r


def _fma_core(v: list[np.ndarray], t: TileDataType) -> np.ndarray:
    r = _fma_value(v, t)
    if status.active():  # TileFixedFusedMultiplyAddValue's flags, ORed over the tile
        status.record(status.fma_flags(*v, r, t))
    return r


def _fma_value(v: list[np.ndarray], t: TileDataType) -> np.ndarray:
    a, b, c = v
    if t.is_integer:
        return a * b + c  # numpy integer arithmetic wraps at the element width
    if t is T.FP64:
        return canonical_nan(fma_f64(a, b, c))
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
    if why := valid_shape_error((vr, vc), (rows, cols)):
        raise PTOFault(FaultKind.TILE_LEGALITY, why, "TEXPANDS")
    out = np.empty((rows, cols), npdt)
    out[:vr, :vc] = s
    if (vr, vc) == (rows, cols):
        return out, np.ones(out.shape, bool)
    return pad_tile(out, (vr, vc), parse_pad(pad), t)
