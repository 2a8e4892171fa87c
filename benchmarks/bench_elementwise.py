"""Unary / tile-scalar kernel benchmarks: ratios against bare numpy in the same run.

* TEXP FP32 on a 4M-element tile vs ``np.exp`` on float32 (numpy's own float32 exp, not
  correctly rounded) and vs ``np.exp(a.astype(float64)).astype(float32)`` (the same
  once-rounded answer the kernel gives). Target <= 1.5x.
* TADDS FP32 vs ``a + s``; TRELU FP32 vs ``np.maximum(a, 0)``; TSQRT FP32 on the same
  tile (half negative: every other result a canonicalised NaN) vs ``np.sqrt``.

Times are the best of a few repeats; the machine is shared, so compare ratios. Prints only.
"""

from __future__ import annotations

import numpy as np

from benchmarks.bench_kernels import best_of
from interpreter.kernels import KERNELS


def run(quick: bool = False, n: int = 1 << 22, repeat: int = 3) -> None:
    if quick:
        n, repeat = 1 << 18, 2
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((n // 1024, 1024)) * 4).astype(np.float32)
    rows = [
        ("TEXP f32 vs np.exp(f32)", lambda: KERNELS["TEXP"](a, None), lambda: np.exp(a)),
        ("TEXP f32 vs f64 exp+round", lambda: KERNELS["TEXP"](a, None),
         lambda: np.exp(a.astype(np.float64)).astype(np.float32)),
        ("TADDS f32 vs a + s", lambda: KERNELS["TADDS"](a, 0x3F800000, None),
         lambda: a + np.float32(1)),
        ("TRELU f32 vs np.maximum", lambda: KERNELS["TRELU"](a, None),
         lambda: np.maximum(a, np.float32(0))),
        ("TSQRT f32 (half < 0) vs sqrt", lambda: KERNELS["TSQRT"](a, None), lambda: np.sqrt(a)),
    ]  # fmt: skip
    print(f"elementwise kernels, {n / 2**20:.0f}M elements (ms, best of {repeat}); target <= 1.5")
    for name, k, base in rows:
        with np.errstate(invalid="ignore"):
            t_b, t_k = best_of(base, repeat), best_of(k, repeat)
        print(f"  {name:28s} {t_b * 1e3:8.1f} {t_k * 1e3:8.1f} {t_k / t_b:6.2f}")


if __name__ == "__main__":
    run()
