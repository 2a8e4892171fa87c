"""NaN handling shared by the float kernels: a one-reduction NaN test, a branch-free,
cache-blocked masked replacement (canonicalising NaN results: ``TileNumericCanonicalNaN``
in asl/arch/features/mx-formats.asl), and the blocking helpers of the float32 / float64
fast paths.

:func:`has_nan` (one ``np.min`` pass, no temporary) and :func:`replace_where` are the fast
half of fast-path / exact-path pairs: a kernel asks whether a NaN exists and only then
builds the exact mask and rewrites those words. Selections by a NaN stay on the carrier
words: ``np.fmax(nan, r)`` does not return the same NaN operand in its SIMD body and in its
remainder loop when ``r`` is a NaN too (numpy 2.4), and ``np.where`` / ``copyto(where=)``
branch per element (a dense random mask is ~50x slower than a pass).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np


def has_nan(r: np.ndarray) -> bool:
    """Whether a nonempty float array holds a NaN: one reduction, no temporary (``np.min``
    propagates NaN; ml_dtypes' narrow floats take the exact ``isnan`` test)."""
    if r.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            return bool(np.isnan(np.min(r)))
    return bool(np.isnan(r).any())


_BLOCK = 1 << 15
"""Elements per block of :func:`replace_where`: its temporaries stay in cache."""

SPAN = 1 << 17
"""Elements per block of the blocked float32 / float64 kernels (:func:`spans`): a block of
each operand and the result stays in the L2 cache between the passes over it."""

_NATIVE = (np.dtype(np.float32), np.dtype(np.float64))
"""Carriers with numpy's SIMD loops and same-width integer views (the blocked paths)."""


def spans(n: int, step: int = SPAN) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of the consecutive blocks of ``n`` flat elements."""
    for i in range(0, n, step):
        yield i, min(n, i + step)


@cache
def const_block(dtype: np.dtype, word: int) -> np.ndarray:
    """A read-only :data:`SPAN`-element array of ``dtype`` whose every carrier word is
    ``word`` (a contiguous operand for the SIMD loops)."""
    u = np.dtype(f"u{dtype.itemsize}")
    out = np.full(SPAN, word, u).view(dtype)
    out.setflags(write=False)
    return out


def canonical_word(dtype: np.dtype) -> int:
    """The carrier word of the canonical quiet NaN (numpy's positive NaN: FP32 0x7FC00000,
    FP64 0x7FF8000000000000)."""
    u = np.dtype(f"u{np.dtype(dtype).itemsize}")
    return int(np.array(np.nan, dtype).view(u))


def is_native(a: np.ndarray) -> bool:
    """A float32 / float64 array whose flat blocks are views (C-contiguous)."""
    return a.dtype in _NATIVE and a.flags.c_contiguous


def canonical(r: np.ndarray) -> np.ndarray:
    """Every NaN of the float array ``r`` as the canonical quiet NaN of its format (numpy's
    / ml_dtypes' positive NaN), rewriting ``r`` in place when it is writable and contiguous:
    one reduction (:func:`has_nan`) and, only when a NaN exists, :func:`replace_where`."""
    if not has_nan(r):
        return r
    return replace_where(r, None, np.array(np.nan).astype(r.dtype))


def replace_where(r: np.ndarray, mask: np.ndarray | None, value) -> np.ndarray:
    """``r`` with the elements under boolean ``mask`` (``None``: ``isnan(r)``) set to the
    scalar ``value``, in place when ``r`` is writable and contiguous, as
    ``r ^= (r ^ value) * mask`` on the carrier words, block by block: branch-free (a dense
    random mask would cost ``np.where`` a misprediction per element) and with cache-sized
    temporaries (no page faults on fresh full-size buffers)."""
    if not (r.flags.writeable and r.flags.c_contiguous):
        r = np.ascontiguousarray(r).copy()
    u = np.dtype(f"u{r.dtype.itemsize}")
    flat, w = r.reshape(-1), r.reshape(-1).view(u)
    mflat = None if mask is None else np.broadcast_to(mask, r.shape).reshape(-1)
    v = np.asarray(value, r.dtype).view(u)
    n = flat.size
    d = np.empty(min(n, _BLOCK), u)
    m = np.empty(min(n, _BLOCK), bool)
    for i in range(0, n, _BLOCK):
        j = min(n, i + _BLOCK)
        k = j - i
        mk = np.isnan(flat[i:j], out=m[:k]) if mflat is None else mflat[i:j]
        dk = np.bitwise_xor(w[i:j], v, out=d[:k])
        np.multiply(dk, mk, out=dk, casting="unsafe")
        np.bitwise_xor(w[i:j], dk, out=w[i:j])
    return r
