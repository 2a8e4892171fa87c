"""Compare the results of two ``pto-run --output`` files.

    python compare.py BEFORE.npz AFTER.npz --exact           # bit for bit, NaN = any NaN
    python compare.py BEFORE.npz AFTER.npz --tolerance T     # |a - b| <= T * max|a|

``--exact`` compares bit patterns, except that a NaN matches any NaN: upstream MLIR arith
leaves NaN payloads unspecified (the interpreter's linalg stage gives the host's default NaN,
0xFFC00000 on x86), while PTO results carry the format's canonical NaN (0x7FC00000).

Prints ``OK <n> results`` or the worst mismatch, and exits 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("before")
    p.add_argument("after")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--exact", action="store_true")
    g.add_argument("--tolerance", type=float)
    ns = p.parse_args()
    a, b = np.load(ns.before), np.load(ns.after)
    if sorted(a.files) != sorted(b.files):
        sys.exit(f"MISMATCH result names {a.files} vs {b.files}")
    for k in a.files:
        x, y = a[k], b[k]
        if x.shape != y.shape or x.dtype != y.dtype:
            sys.exit(f"MISMATCH {k}: {x.shape} {x.dtype} vs {y.shape} {y.dtype}")
        if ns.exact:
            bits = f"u{x.dtype.itemsize}"
            differ = x.view(bits) != y.view(bits)
            if x.dtype.kind == "f":
                differ &= ~(np.isnan(x) & np.isnan(y))
            bad = np.flatnonzero(differ)
            if bad.size:
                i = bad[0]
                sys.exit(f"MISMATCH {k}: {bad.size} elements differ, first at {i}: "
                         f"{x.flat[i]!r} vs {y.flat[i]!r}")
        else:
            xf, yf = x.astype(np.float64), y.astype(np.float64)
            scale = np.max(np.abs(xf)) if xf.size else 0.0
            err = np.abs(xf - yf)
            if not np.all(err <= ns.tolerance * scale):
                i = int(np.argmax(err))
                sys.exit(f"MISMATCH {k}: |diff| {err.flat[i]} > {ns.tolerance} * {scale} at {i}")
    print(f"OK {len(a.files)} results")


if __name__ == "__main__":
    main()
