"""Compiled (numba) SUM / PROD / ARGMAX / ARGMIN folds of the tile-local reductions (issue 26).

The numpy reference is :func:`.tile_local._sum_prod`: a left fold in increasing inner index,
one rounding per step, FP16 and BF16 steps computed in FP32 and rounded back to the type
(round to nearest even), SUM finishing with ``+ 0`` (an all -0 line sums to +0). The loop
here is the same recurrence, vectorised across the lines (each line's order unchanged), so
the bits are the reference's: the FP32 step is the machine's float32 add / multiply (no fast
math, no flush to zero), the FP16 / BF16 rounding is done on the FP32 bit pattern. A NaN
payload depends on which operand the machine returns, so when any result is a NaN the caller
takes the reference's result instead (:func:`fold`). ARGMAX / ARGMIN (:func:`arg_fold`)
follow :func:`.tile_local._argminmax` step by step on the storage bit patterns. numba is
imported by this module only, which :mod:`.tile_local` imports on the first compiled call
(:mod:`.jit`).
"""

from __future__ import annotations

import numba
import numpy as np

from pto_dialect.datatypes import TileDataType

T = TileDataType

_ROUNDING = {T.FP32: 0, T.FP16: 1, T.BF16: 2}
COVERED = frozenset(_ROUNDING)
"""Types whose SUM / PROD / ARGMAX / ARGMIN folds run compiled."""

_HALF = np.float32(0.5)
_BLOCK = 16


@numba.njit(cache=True, nogil=True)
def _round(acc, bits, mode):  # pragma: no cover - compiled
    """Round every FP32 accumulator to FP16 (mode 1) or BF16 (mode 2), RNE, in place."""
    for i in range(acc.shape[0]):
        b = np.int64(bits[i])
        a = b & 0x7FFFFFFF
        if a >= 0x7F800000:  # inf or NaN: unchanged (a NaN result goes to the reference)
            continue
        if mode == 2:
            bits[i] = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000
        elif a >= 0x477FF000:  # at least 65520: rounds to infinity
            bits[i] = (b & 0x80000000) | 0x7F800000
        elif a >= 0x38800000:  # FP16 normal: keep 10 fraction bits
            bits[i] = (b + 0xFFF + ((b >> 13) & 1)) & 0xFFFFE000
        else:  # FP16 subnormal: a multiple of 2^-24, by one FP32 addition in [0.5, 1)
            r = (abs(acc[i]) + _HALF) - _HALF
            acc[i] = -r if b & 0x80000000 else r


@numba.njit(cache=True, nogil=True)
def _fold_columns(x, prod, mode):  # pragma: no cover - compiled
    """Fold each column of the C-ordered float32 ``x`` (n, m) down its rows, from row 0."""
    acc = x[0].copy()
    bits = acc.view(np.uint32)
    for j in range(1, x.shape[0]):
        row = x[j]
        if prod:
            for i in range(acc.shape[0]):
                acc[i] = acc[i] * row[i]
        else:
            for i in range(acc.shape[0]):
                acc[i] = acc[i] + row[i]
        if mode:
            _round(acc, bits, mode)
    if not prod:  # the fold starts from +0: only an all -0 line differs, fixed by + 0
        for i in range(acc.shape[0]):
            acc[i] = acc[i] + np.float32(0.0)
    return acc


@numba.njit(cache=True, nogil=True)
def _fold_rows(x, prod, mode):  # pragma: no cover - compiled
    """Fold each row of the C-ordered float32 ``x`` (m, n) along its columns, from column 0,
    ``_BLOCK`` rows side by side (each row's chain stays in order)."""
    m, n = x.shape
    out = np.empty(m, np.float32)
    acc = np.empty(_BLOCK, np.float32)
    bits = acc.view(np.uint32)
    for i0 in range(0, m, _BLOCK):
        h = min(_BLOCK, m - i0)
        a, b = acc[:h], bits[:h]
        for k in range(h):
            a[k] = x[i0 + k, 0]
        for j in range(1, n):
            if prod:
                for k in range(h):
                    a[k] = a[k] * x[i0 + k, j]
            else:
                for k in range(h):
                    a[k] = a[k] + x[i0 + k, j]
            if mode:
                _round(a, b, mode)
        for k in range(h):
            out[i0 + k] = a[k] if prod else a[k] + np.float32(0.0)
    return out


def fold(reduction: str, x: np.ndarray, t: TileDataType, ax: int) -> np.ndarray | None:
    """The SUM / PROD fold of ``x`` (a :data:`COVERED` type) along ``ax``, in ``x``'s dtype,
    or None when a result is a NaN (the caller then runs the reference)."""
    run = _fold_columns if ax == 0 else _fold_rows
    r = run(np.ascontiguousarray(x, np.float32), reduction == "prod", _ROUNDING[t])
    if np.isnan(r).any():
        return None
    return r.astype(x.dtype)


@numba.njit(cache=True, nogil=True)
def _arg_rows(v, b, is_max, nan_bits, inf_bits, zero_sign):  # pragma: no cover - compiled
    """ARGMAX / ARGMIN of each row: values ``v`` (float32) and their storage bits ``b``
    (uint32), the reference's fold (:func:`.tile_local._argminmax`) one element at a time."""
    m, n = v.shape
    out = np.zeros(m, np.uint32)
    for r in range(m):
        best = -np.inf if is_max else np.inf
        best_bits = inf_bits
        number = False
        signed_zero = False  # MAX: a +0 seen; MIN: a -0 seen
        prev = b[r, 0]
        idx = 0
        for i in range(n):
            x = v[r, i]
            if x != x:
                pass
            else:
                number = True
                if (x > best) if is_max else (x < best):
                    best, best_bits = x, b[r, i]
                if x == 0 and (((b[r, i] & zero_sign) == 0) == is_max):
                    signed_zero = True
            if i == 0:
                continue
            if not number:
                p = nan_bits
            elif best == 0:
                p = zero_sign if signed_zero != is_max else np.uint32(0)
            else:
                p = best_bits
            if p == b[r, i] and p != prev:
                idx = i
            prev = p
        out[r] = idx
    return out


def arg_fold(reduction: str, x: np.ndarray, t: TileDataType, ax: int) -> np.ndarray:
    """ARGMAX / ARGMIN of ``x`` (a :data:`COVERED` type) along ``ax``: uint32 indices."""
    xs = np.ascontiguousarray(x if ax == 1 else x.T)
    u = np.dtype(f"u{xs.dtype.itemsize}")
    is_max = reduction.endswith("max")
    special = np.array([np.nan, -np.inf if is_max else np.inf, -0.0], xs.dtype).view(u)
    return _arg_rows(xs.astype(np.float32), xs.view(u).astype(np.uint32), is_max,
                     np.uint32(special[0]), np.uint32(special[1]), np.uint32(special[2]))
