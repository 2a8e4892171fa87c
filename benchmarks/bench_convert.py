"""Conversion kernel benchmarks: TCVT / TQUANT against bare numpy in the same run.

* TCVT FP32 -> FP16 (RNE) vs ``x.astype(np.float16)`` (target <= 1.5x): the kernel is that
  cast plus the canonical-NaN check (D20).
* TCVT FP32 -> BF16 (RNE) vs ``x.astype(ml_dtypes.bfloat16)``; FP32 -> S32 (RTZ, Sat) vs
  ``np.clip(x, ...).astype(np.int32)``; FP32 -> FP16 with RTM (the exact generic path,
  every mode) for information.
* TQUANT FP32 -> S8 (RNE, Sat) vs ``np.clip(np.rint(x * s + z), -128, 127).astype(np.int8)``
  (the naive one-line quantizer: not exact, see interpreter/kernels/convert.py).

Times are the best of a few repeats on the machine as shared; compare ratios.

Compiled kernels (issue 26, ``interpreter/kernels/numeric_jit.py``): the kernels whose numpy
form was far from a plain cast, each on the numpy reference (``PTO_KERNELS=numpy``) and
compiled, as ratios against the trivially vectorised numpy of the same shape (``astype``,
``np.sqrt``, the one-line quantizer): directed / RNA / RTO / RHB TCVT float -> float and
float -> integer, TQUANT in every mode and with NaNs, TSQRT with NaNs and -0. Process CPU
times (best of the repeats), which the other load on a shared machine does not inflate.
"""

from __future__ import annotations

import time

import ml_dtypes
import numpy as np

from benchmarks.bench_kernels import best_of
from interpreter.kernels import jit
from interpreter.kernels.convert import convert_values, quantize_values, tquant_tile
from interpreter.kernels.unary import UNARY_ROWS, unary_core
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


def _cpu_best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        c0 = time.process_time()
        fn()
        best = min(best, time.process_time() - c0)
    return best


def compiled_cases(x: np.ndarray) -> list[tuple[str, object, object]]:
    """(label, trivially vectorised numpy, kernel) of the compiled kernels' figures."""
    x16, xb = x.astype(np.float16), x.astype(ml_dtypes.bfloat16)
    xn = x.copy()
    xn.reshape(-1)[::97] = np.nan
    xn.reshape(-1)[::101] = -0.0
    quant = lambda: np.clip(np.rint(x * np.float32(0.5) + 3), -128, 127).astype(np.int8)  # noqa: E731
    out = []
    for dst, base in ((T.FP16, lambda: x.astype(np.float16)),
                      (T.BF16, lambda: x.astype(ml_dtypes.bfloat16)),
                      (T.E4M3, lambda: x.astype(ml_dtypes.float8_e4m3fn))):
        for mode in ("rna", "rto", "rtz") if dst is not T.FP16 else ("rna", "rto"):
            out.append((f"TCVT f32->{dst.asm} {mode.upper()}", base,
                        lambda d=dst, m=mode: convert_values(x, T.FP32, d, m)))
    out.append(("TCVT f16->E4M3 RNE", lambda: x16.astype(ml_dtypes.float8_e4m3fn),
                lambda: convert_values(x16, T.FP16, T.E4M3)))
    for mode, sat in (("rna", True), ("rto", False)):
        out.append((f"TCVT f32->s32 {mode.upper()}{' sat' if sat else ''}",
                    lambda: x.astype(np.int32),
                    lambda m=mode, s=sat: convert_values(x, T.FP32, T.S32, m, s)))
    out.append(("TCVT f32->s8 RNE (wrap)", lambda: x.astype(np.int8),
                lambda: convert_values(x, T.FP32, T.S8, "rne")))
    out.append(("TCVT f32 (NaN, -0)->s32 RTZ sat", lambda: xn.astype(np.int32),
                lambda: convert_values(xn, T.FP32, T.S32, "rtz", True)))
    out.append(("TCVT bf16->s32 RNE", lambda: xb.astype(np.int32),
                lambda: convert_values(xb, T.BF16, T.S32, "rne")))
    for mode, name in ((2, "RTZ"), (5, "RNA"), (6, "RTO")):
        out.append((f"TQUANT f32->s8 {name} sat", quant,
                    lambda m=mode: quantize_values(x, 0.5, 3, T.S8, m, True)))
    out.append(("TQUANT f32 (NaN)->s8 RNE sat", quant,
                lambda: quantize_values(xn, 0.5, 3, T.S8, 1, True)))
    row = UNARY_ROWS["TSQRT"]
    out.append(("TSQRT f32 (NaN, -0, negatives)", lambda: np.sqrt(xn),
                lambda: unary_core(row, xn, T.FP32)))
    return out


def run_compiled(quick: bool = False) -> dict[str, tuple[float, float]]:
    """{label: (numpy reference ratio, compiled ratio)} against the plain numpy baseline."""
    rng = np.random.default_rng(5)
    n = 256 if quick else 1024
    repeat = 3 if quick else 5
    x = (rng.standard_normal((n, n)) * 100).astype(np.float32)
    res = {}
    print(f"Compiled conversion kernels (issue 26), {n}x{n}: CPU ms (best of {repeat}); ratio to "
          "the plain numpy baseline, numpy reference -> compiled")
    print(f"  {'case':34s} {'baseline':>8s} {'numpy':>8s} {'compiled':>8s} {'ratios':>15s}")
    with np.errstate(all="ignore"):
        for label, base, kernel in compiled_cases(x):
            t_b = _cpu_best(base, repeat)
            with jit.selected("numpy"):
                t_n = _cpu_best(kernel, repeat)
            with jit.selected("compiled"):
                kernel()  # (compile or load from the cache)
                t_c = _cpu_best(kernel, repeat)
            res[label] = (t_n / t_b, t_c / t_b)
            print(f"  {label:34s} {t_b * 1e3:8.2f} {t_n * 1e3:8.2f} {t_c * 1e3:8.2f} "
                  f"{t_n / t_b:6.1f}x -> {t_c / t_b:4.1f}x")
    return res


if __name__ == "__main__":
    import sys

    run(quick="--quick" in sys.argv)
    run_compiled(quick="--quick" in sys.argv)
