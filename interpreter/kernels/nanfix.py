"""NaN handling shared by the float kernels: a one-reduction NaN test and a branch-free,
cache-blocked masked replacement (used to canonicalise NaN results,
``TileNumericCanonicalNaN`` in asl/arch/features/mx-formats.asl).

These are the fast halves of fast-path / exact-path pairs: a kernel computes its result,
asks :func:`has_nan` (one ``np.min`` pass, no temporary), and only when a NaN exists
builds the exact mask and rewrites those words with :func:`replace_where`.
"""

from __future__ import annotations

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

