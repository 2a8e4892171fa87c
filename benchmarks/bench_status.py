"""Numeric status flag overhead: each kernel with flags recorded against the same kernel
without (the flag-free path every run takes unless it asks for flags), and the flag-free
kernel against bare numpy, in the same run.

* TADDS FP32 (tile-scalar: IEEE NV DZ OF UF NX with an exact TwoSum inexactness test),
  TCVT FP32 -> FP16 (RNE fast path: NV OF UF NX), TSQRT FP32 (NV DZ and an exact
  Dekker-product inexactness test), 1M elements.
* CUBE post-processing: TMATMUL FP16 256 x 16 @ 16 x 4096 (1M outputs) into S8 (mode 24,
  scale 1/64, offset 3, Sat) and into FP16 (mode 1) with RowMax + GroupMax; numpy is the
  float32 product ``a @ b`` alone.
* ``off / numpy``: the cost of the lazy hook when nothing records (target ~1.0x of before:
  one context-variable lookup per kernel call). ``on / off``: what asking for flags costs.

Times are the best of a few repeats; the machine is shared, so compare ratios. Prints only.
"""

from __future__ import annotations

import numpy as np

from benchmarks.bench_kernels import best_of
from interpreter.kernels import KERNELS
from interpreter.kernels.cube import cube_matrix
from interpreter.kernels.postprocess import quant_param_word
from interpreter.kernels.status import recording
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.postprocess import Fpatr


def _on(kernel):
    def call():
        with recording():
            kernel()

    return call


def run(quick: bool = False, repeat: int = 15) -> dict[str, float]:
    n = 1 << (18 if quick else 20)
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((n // 1024, 1024)) * 4).astype(np.float32)
    pos = np.abs(a) + np.float32(0.5)
    rows = [
        ("TADDS f32", lambda: KERNELS["TADDS"](a, 0x3F800000, None), lambda: a + np.float32(1)),
        ("TCVT f32->f16", lambda: KERNELS["TCVT"](a, None, "null", T.FP32, T.FP16),
         lambda: a.astype(np.float16)),
        ("TSQRT f32", lambda: KERNELS["TSQRT"](pos, None), lambda: np.sqrt(pos)),
    ]  # fmt: skip
    ma, mb = n // 4096, 4096
    ca = (rng.standard_normal((ma, 16)) * 4).astype(np.float16)
    cb = rng.standard_normal((16, mb)).astype(np.float16)
    fa, fb = ca.astype(np.float32), cb.astype(np.float32)
    word = quant_param_word(1 / 64, 3, 9)
    s8 = Fpatr(pre_quant_mode=24)
    f16 = Fpatr(pre_quant_mode=1, row_max_en=1, group_max_en=1, group_n_code=2)
    rows += [
        ("CUBE ->s8 quant", lambda: cube_matrix(0, ca, cb, fpatr=s8, quant_scalar=word, sat=True),
         lambda: fa @ fb),
        ("CUBE ->f16 +max", lambda: cube_matrix(0, ca, cb, fpatr=f16), lambda: fa @ fb),
    ]  # fmt: skip
    out: dict[str, float] = {}
    print(f"numeric status flags, {n / 2**20:g}M elements (ms, best of {repeat})")
    print(f"  {'kernel':16s} {'numpy':>8s} {'off':>8s} {'on':>8s} {'off/np':>7s} {'on/off':>7s}")
    for name, k, base in rows:
        t_b, t_off, t_on = best_of(base, repeat), best_of(k, repeat), best_of(_on(k), repeat)
        out[name] = t_on / t_off
        print(f"  {name:16s} {t_b * 1e3:8.2f} {t_off * 1e3:8.2f} {t_on * 1e3:8.2f} "
              f"{t_off / t_b:7.2f} {t_on / t_off:7.2f}")  # fmt: skip
    return out


if __name__ == "__main__":
    run()
