"""Kernel benchmarks: ratios against bare numpy anchors measured in the same run.

* TREM on 16M elements per D6 dtype vs bare ``np.mod`` on the same arrays (target <= 1.3x).
* TGEMV_MX_BIAS E4M3 x E4M3 and FP4 x FP4, K=16384, N=4096, in each D4 profile (``ordered``,
  the default, target <= 6x; ``exact``; ``raw-carrier``) vs a float32 ``a @ B`` on
  pre-decoded data.

Times are the best of a few repeats; the machine is shared, so compare ratios.
No assertions: this prints figures only.
"""

from __future__ import annotations

import time

import ml_dtypes
import numpy as np

from interpreter.kernels import cube_matrix, tgemv_mx_bias, trem


def best_of(fn, repeat: int = 3) -> float:
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return min(ts)


def paired_best(anchor, kernel, rounds: int, per_round: int = 2) -> tuple[float, float]:
    """(best anchor time, best kernel time) over ``rounds`` alternating rounds of
    ``per_round`` calls each: both sides sample the same stretches of time, so a shared
    machine's slow spells inflate neither side alone (the host's noise lasts seconds)."""
    t_a = t_k = float("inf")
    for _ in range(rounds):
        t_a = min(t_a, best_of(anchor, per_round))
        t_k = min(t_k, best_of(kernel, per_round))
    return t_a, t_k


def _trem_operands(dt, n, rng):
    if np.dtype(dt).kind in "iu":
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
        b = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
        b[b == 0] = 1
        return a, b
    a = (rng.standard_normal(n, np.float32) * 1000).astype(dt)
    b = (rng.standard_normal(n, np.float32) * 10).astype(dt)
    return a, b


def bench_trem(n: int, repeat: int) -> None:
    rng = np.random.default_rng(0)
    print(f"TREM, {n / 2**20:.0f}M elements (ms, best of {repeat}); target ratio <= 1.3")
    print(f"  {'dtype':10s} {'np.mod':>9s} {'trem':>9s} {'ratio':>7s}")
    for dt in (np.int32, np.uint32, np.float32, np.int16, np.uint16, np.float16,
               ml_dtypes.bfloat16):
        a, b = _trem_operands(dt, n, rng)
        with np.errstate(all="ignore"):
            t_np = best_of(lambda: np.mod(a, b), repeat)  # noqa: B023
        t_k = best_of(lambda: trem(a, b), repeat)  # noqa: B023
        print(f"  {np.dtype(dt).name:10s} {t_np * 1e3:9.1f} {t_k * 1e3:9.1f} {t_k / t_np:7.2f}")


PROFILE_TARGETS = {"ordered": 6.0, "exact": None, "raw-carrier": None}
"""Profiles timed by :func:`bench_tgemv`, with the ratio target (issue 11: ordered <= 6x)."""


def bench_tgemv(k: int, n: int, repeat: int) -> dict[tuple[str, str], float]:
    """Every D4 profile vs a float32 ``a @ B`` anchor (pre-decoded data), same run.

    Returns {(case, profile): ratio}. The anchor and each profile are timed in alternating
    rounds (:func:`paired_best`; ``ordered``: 2 x repeat rounds), so a noisy machine shifts
    both sides alike."""
    rng = np.random.default_rng(1)
    nb = -(-k // 32)
    sa = rng.integers(120, 135, size=(1, nb)).astype(np.uint8)
    sb = rng.integers(120, 135, size=(nb, n)).astype(np.uint8)
    bias = rng.standard_normal((1, n)).astype(np.float32)
    print(f"TGEMV_MX_BIAS, K={k} N={n} (ms, best of {4 * repeat} samples in alternating rounds "
          "with the anchor); target ordered <= 6x anchor at K=16384, N=4096")
    cases = {
        "E4M3xE4M3": (ml_dtypes.float8_e4m3fn, None),
        "FP4xFP4 (1/byte)": (ml_dtypes.float4_e2m1fn, None),
        "FP4xFP4 (packed)": (ml_dtypes.float4_e2m1fn, "packed"),
    }
    ratios = {}
    for name, (dt, mode) in cases.items():
        a = rng.standard_normal((1, k)).astype(dt)
        b = rng.standard_normal((k, n)).astype(dt)
        af, bf = a.astype(np.float32), b.astype(np.float32)
        if mode == "packed":
            codes = b.view(np.uint8) & 0x0F
            bp = (codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8)
            args, kw = (a, bp, bias, sa, sb), {"b_type": "E2M1X2", "packed": True}
        else:
            args, kw = (a, b, bias, sa, sb), {}
        line = [f"  {name:18s}"]
        for profile, target in PROFILE_TARGETS.items():
            pargs = args
            if profile == "raw-carrier":  # raw words: an integer bias (D4)
                pargs = (*args[:2], bias.view(np.uint32).astype(np.int64), *args[3:])
            # the target profile: 2 x repeat rounds of two anchor and two kernel samples
            rounds = 2 * repeat if profile == "ordered" else max(1, repeat // 2)
            t_anchor, t_k = paired_best(
                lambda: af @ bf,  # noqa: B023
                lambda: tgemv_mx_bias(*pargs, profile=profile, **kw),  # noqa: B023
                rounds)
            ratios[(name, profile)] = t_k / t_anchor
            mark = ""  # the target is set at K=16384, N=4096 (issue 11), not for quick sizes
            if target is not None and (k, n) == (16384, 4096):
                mark = " ok" if t_k / t_anchor <= target else " SLOW"
            line.append(f"{profile} {t_k * 1e3:7.1f} ({t_k / t_anchor:5.2f}x{mark}, anchor "
                        f"{t_anchor * 1e3:.1f})")
        print(" ".join(line))
    return ratios


def bench_cube(m: int, k: int, n: int, repeat: int) -> None:
    """cube_matrix over M rows: MX E4M3 (TMATMUL_MX_BIAS) and S8 (TMATMUL, S32 accumulator)."""
    rng = np.random.default_rng(2)
    nb = -(-k // 32)
    a = rng.standard_normal((m, k)).astype(ml_dtypes.float8_e4m3fn)
    b = rng.standard_normal((k, n)).astype(ml_dtypes.float8_e4m3fn)
    sa = rng.integers(120, 135, size=(m, nb)).astype(np.uint8)
    sb = rng.integers(120, 135, size=(nb, n)).astype(np.uint8)
    bias = np.zeros((1, n), np.float32)
    af, bf = a.astype(np.float32), b.astype(np.float32)
    t_anchor = best_of(lambda: af @ bf, repeat)
    t_mx = best_of(lambda: cube_matrix(5, a, b, bias=bias, a_scale=sa, b_scale=sb), repeat)
    ai = rng.integers(-128, 128, (m, k)).astype(np.int8)
    bi = rng.integers(-128, 128, (k, n)).astype(np.int8)
    t_int = best_of(lambda: cube_matrix(0, ai, bi), repeat)
    print(f"cube_matrix M={m} K={k} N={n} (ms, best of {repeat}): anchor f32 matmul "
          f"{t_anchor * 1e3:.1f}, TMATMUL_MX_BIAS E4M3 {t_mx * 1e3:.1f} "
          f"(ratio {t_mx / t_anchor:.2f}), TMATMUL S8 {t_int * 1e3:.1f}")


def run(quick: bool = False) -> None:
    if quick:
        bench_trem(1 << 20, 3)
        bench_tgemv(2048, 1024, 3)
        bench_cube(16, 2048, 1024, 3)
    else:
        bench_trem(1 << 24, 3)
        bench_tgemv(16384, 4096, 5)
        bench_cube(32, 8192, 2048, 3)
