"""Compare / select kernel benchmarks: ratios against bare numpy in the same run.

* TCMP FP32 (LT) vs ``a < b``; TSEL FP32 vs ``np.where(p, a, b)``; TCMP + TSEL (a NaN-exact
  min) vs ``np.where(a < b, a, b)``. ``python -m benchmarks.bench_compare`` (also in ``make bench``).

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
    a = rng.standard_normal((n // 1024, 1024)).astype(np.float32)
    b = rng.standard_normal((n // 1024, 1024)).astype(np.float32)
    p = a < b

    def tmin():
        q, _ = KERNELS["TCMP"](a, b, None, "null", None, cmode="lt")
        return KERNELS["TSEL"](q, a, b, None)

    rows = [
        ("TCMP f32 vs a < b", lambda: KERNELS["TCMP"](a, b, None, cmode="lt"), lambda: a < b),
        ("TSEL f32 vs np.where", lambda: KERNELS["TSEL"](p, a, b, None), lambda: np.where(p, a, b)),
        ("TCMP+TSEL vs where(a<b,a,b)", tmin, lambda: np.where(a < b, a, b)),
    ]  # fmt: skip
    print(f"compare/select kernels, {n / 2**20:.0f}M elements (ms, best of {repeat}); target <= 1.5")
    for name, k, base in rows:
        t_b, t_k = best_of(base, repeat), best_of(k, repeat)
        print(f"  {name:28s} {t_b * 1e3:8.1f} {t_k * 1e3:8.1f} {t_k / t_b:6.2f}")


if __name__ == "__main__":
    run()
