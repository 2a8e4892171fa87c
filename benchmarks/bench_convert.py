"""Conversion kernel benchmarks: TCVT / TQUANT against bare numpy in the same run.

* TCVT FP32 -> FP16 (RNE) vs ``x.astype(np.float16)`` (target <= 1.5x): the kernel is that
  cast plus the canonical-NaN check (D20).
* TCVT FP32 -> BF16 (RNE) vs ``x.astype(ml_dtypes.bfloat16)``; FP32 -> S32 (RTZ, Sat) vs
  ``np.clip(x, ...).astype(np.int32)``; FP32 -> FP16 with RTM (the exact generic path,
  every mode) for information.
* TQUANT FP32 -> S8 (RNE, Sat) vs ``np.clip(np.rint(x * s + z), -128, 127).astype(np.int8)``
  (the naive one-line quantizer: not exact, see interpreter/kernels/convert.py).

Times are the best of a few repeats on the machine as shared; compare ratios.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from benchmarks.bench_kernels import best_of
from interpreter.kernels.convert import convert_values, tquant_tile
from pto_dialect.datatypes import TileDataType as T


def _case(label, anchor, kernel, repeat):
    t_np = best_of(anchor, repeat)
    t_k = best_of(kernel, repeat)
    print(f"  {label:40s} {t_np * 1e3:9.2f} {t_k * 1e3:9.2f} {t_k / t_np:7.2f}")
    return t_k / t_np


def run(quick: bool = False) -> dict[str, float]:
    rng = np.random.default_rng(5)
    repeat = 3 if quick else 7
    shapes = [(256, 256), (1024, 1024)] if quick else [(256, 256), (2048, 2048), (4096, 4096)]
    out: dict[str, float] = {}
    print(f"Conversion kernels (ms, best of {repeat}); target ratio <= 1.5 for TCVT f32->f16")
    print(f"  {'case':40s} {'numpy':>9s} {'kernel':>9s} {'ratio':>7s}")
    for r, c in shapes:
        x = (rng.standard_normal((r, c)) * 100).astype(np.float32)
        out[f"TCVT f32->f16 {r}x{c}"] = _case(
            f"TCVT f32->f16 {r}x{c} vs astype", lambda: x.astype(np.float16),  # noqa: B023
            lambda: convert_values(x, T.FP32, T.FP16), repeat)  # noqa: B023
        out[f"TCVT f32->bf16 {r}x{c}"] = _case(
            f"TCVT f32->bf16 {r}x{c} vs astype",
            lambda: x.astype(ml_dtypes.bfloat16),  # noqa: B023
            lambda: convert_values(x, T.FP32, T.BF16), repeat)  # noqa: B023
        if r > 2048:
            continue
        out[f"TCVT f32->s32 sat {r}x{c}"] = _case(
            f"TCVT f32->s32 RTZ sat {r}x{c} vs clip", lambda: np.clip(  # noqa: B023
                x, -(2.0**31), 2.0**31 - 128).astype(np.int32),  # noqa: B023
            lambda: convert_values(x, T.FP32, T.S32, "rtz", True), repeat)  # noqa: B023
        out[f"TCVT f32->f16 rtm {r}x{c}"] = _case(
            f"TCVT f32->f16 RTM {r}x{c} vs astype", lambda: x.astype(np.float16),  # noqa: B023
            lambda: convert_values(x, T.FP32, T.FP16, "rtm"), repeat)  # noqa: B023
        out[f"TQUANT f32->s8 {r}x{c}"] = _case(
            f"TQUANT f32->s8 {r}x{c} vs rint+clip", lambda: np.clip(  # noqa: B023
                np.rint(x * np.float32(0.5) + 3), -128, 127).astype(np.int8),  # noqa: B023
            lambda: tquant_tile(x, 0x3F000000, 3, None, T.S8, rmode="rne", sat=True), repeat)  # noqa: B023
    return out


if __name__ == "__main__":
    run()
