"""Compiled SUM / PROD reductions (issue 26) against ``np.sum(x, axis)`` of the same shape.

For each of TROWSUM / TCOLSUM (FP32, FP16, BF16), TROWPROD, TROWARGMAX (FP32) and TCOLARGMIN
(FP16) at 1024x4096 (quick:
256x1024): the kernel with ``PTO_KERNELS=compiled`` and ``PTO_KERNELS=numpy``, and the ratio
of each to a float32 ``np.sum(x32, axis)`` in the same run (a pairwise SIMD sum: a different
and cheaper computation, the speed bound to compare against). The first compiled call
(import of numba, compilation or a load from the on-disk cache) is printed on its own.
"""

from __future__ import annotations

import os
import time

import ml_dtypes
import numpy as np

from benchmarks.bench_kernels import paired_best
from interpreter.kernels import jit, local_tile
from pto_dialect.datatypes import TileDataType as T

CASES = [("TROWSUM", T.FP32, np.float32), ("TCOLSUM", T.FP32, np.float32),
         ("TROWSUM", T.FP16, np.float16), ("TROWSUM", T.BF16, ml_dtypes.bfloat16),
         ("TCOLSUM", T.BF16, ml_dtypes.bfloat16), ("TROWPROD", T.FP32, np.float32),
         ("TROWARGMAX", T.FP32, np.float32), ("TCOLARGMIN", T.FP16, np.float16)]


def _call(op, x, t):
    valid = (x.shape[0], 1) if op.startswith("TROW") else (1, x.shape[1])
    return local_tile(op, [x], [t], T.U32 if "ARG" in op else t, valid)


def _timed(engine, fn, anchor, rounds):
    old = os.environ.get(jit.ENV)
    os.environ[jit.ENV] = engine
    try:
        return paired_best(anchor, fn, rounds)
    finally:
        if old is None:
            del os.environ[jit.ENV]
        else:
            os.environ[jit.ENV] = old


def run(quick: bool = False) -> dict[str, float]:
    out: dict[str, float] = {}
    if not jit.available():
        print("Compiled reductions: numba is not installed, skipped")
        return out
    r, c = (256, 1024) if quick else (1024, 4096)
    rounds = 2 if quick else 3
    rng = np.random.default_rng(5)
    x32 = rng.standard_normal((r, c)).astype(np.float32)
    os.environ.setdefault(jit.ENV, "")
    t0 = time.perf_counter()
    _timed("compiled", lambda: _call("TROWSUM", x32[:4, :4], T.FP32), lambda: None, 1)
    first = time.perf_counter() - t0
    print(f"Compiled reductions {r}x{c} (ms, best; ratio vs f32 np.sum(axis) of the same shape); "
          f"first compiled call {first * 1e3:.0f} ms")
    print(f"  {'case':22s} {'np.sum':>8s} {'compiled':>9s} {'ratio':>6s} {'numpy':>9s} {'ratio':>6s}")
    for op, t, dt in CASES:
        x = x32.astype(dt)
        if op.endswith("PROD"):  # factors near one: the product stays finite
            x = (1 + x32 * np.float32(1e-3)).astype(dt)
        ax = 1 if op.startswith("TROW") else 0
        anchor = lambda: np.sum(x32, axis=ax)  # noqa: E731, B023
        fn = lambda: _call(op, x, t)  # noqa: E731, B023
        ta, tc = _timed("compiled", fn, anchor, rounds)
        tb, tn = _timed("numpy", fn, anchor, rounds)
        a = min(ta, tb)
        label = f"{op} {t.asm}"
        out[label] = tc / a
        print(f"  {label:22s} {a * 1e3:8.2f} {tc * 1e3:9.2f} {tc / a:6.1f} {tn * 1e3:9.2f} {tn / a:6.1f}")
    return out


if __name__ == "__main__":
    run()
