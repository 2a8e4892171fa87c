"""Compiled CUBE kernels (issue 26): ratios against a float32 numpy matmul of the same shape,
measured in the same run (alternating rounds, best of each; the machine is shared).

* TMATMUL ``ordered`` f16 / bf16 / f32 and TMATMUL_MX E4M3 at M=128, K=N=1024 (target <= 10x).
* TGEMV_MX_BIAS E4M3 K=16384, N=4096: ``ordered`` (target <= 2x) and ``exact`` (target <= 3x
  ``ordered``).
* First-call and cache-load times: a fresh process with an empty numba cache directory
  (compilation), then a second process on that cache (loading), each timing the first call
  of every figure; the warm time is the best of the same-run rounds.

The pto-isa C++ CPU simulator, when built (``scripts/build_ptoisa_sim.sh /path/to/pto-isa``
writes ``build/ptoisa_sim/sim_bench``; ``$PTO_ISA_SIM`` names another binary), is timed on
the same shapes (its own best of 2; skipped with ``--quick`` or when absent): the TMATMUL and
TMATMUL_MX figures in one call each, the MX GEMV in 8 x 2 calls on 2048 x 2048 blocks (one
simulator call takes at most 4095 along K and N).

Wall times are the best of alternating rounds (kernel, anchor, kernel, ...). On a shared,
oversubscribed machine a call longer than a scheduler slice is rarely uninterrupted, so the
process CPU time (all threads; best of the same calls) is printed too: its ratio does not
depend on the other load. No assertions: this prints figures only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import ml_dtypes
import numpy as np

from interpreter.kernels import cube_matrix

SIM = os.environ.get("PTO_ISA_SIM", os.path.join("build", "ptoisa_sim", "sim_bench"))


def simulator_seconds() -> dict[str, float]:
    """{figure name: seconds per call} of the pto-isa simulator driver, or {} when absent."""
    if not os.path.exists(SIM):
        return {}
    res = subprocess.run([SIM], capture_output=True, text=True, check=True, timeout=1800)
    return {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
            for line in res.stdout.splitlines() if line.strip()}


def cases(quick: bool):
    """(name, kernel call, anchor call, target, reference?) per figure."""
    rng = np.random.default_rng(0)
    m, k, n = (32, 256, 256) if quick else (128, 1024, 1024)
    a32 = rng.standard_normal((m, k)).astype(np.float32)
    b32 = rng.standard_normal((k, n)).astype(np.float32)
    out = []
    for name, dt in (("f16", np.float16), ("bf16", ml_dtypes.bfloat16), ("f32", np.float32)):
        a, b = a32.astype(dt), b32.astype(dt)
        out.append((f"TMATMUL {name} M={m} K={k} N={n}",
                    lambda a=a, b=b: cube_matrix("TMATMUL", a, b), lambda: a32 @ b32, 10.0))
    e4 = ml_dtypes.float8_e4m3fn
    a, b = a32.astype(e4), b32.astype(e4)
    sa = rng.integers(120, 135, (m, k // 32)).astype(np.uint8)
    sb = rng.integers(120, 135, (k // 32, n)).astype(np.uint8)
    out.append((f"TMATMUL_MX E4M3 M={m} K={k} N={n}",
                lambda: cube_matrix("TMATMUL_MX", a, b, a_scale=sa, b_scale=sb),
                lambda: a32 @ b32, 10.0))
    kg, ng = (2048, 1024) if quick else (16384, 4096)
    av = rng.standard_normal((1, kg)).astype(np.float32)
    bv = rng.standard_normal((kg, ng)).astype(np.float32)
    ag, bg = av.astype(e4), bv.astype(e4)
    sag = rng.integers(120, 135, (1, kg // 32)).astype(np.uint8)
    sbg = rng.integers(120, 135, (kg // 32, ng)).astype(np.uint8)
    bias = rng.standard_normal((1, ng)).astype(np.float32)
    for prof in ("ordered", "exact"):
        out.append((f"TGEMV_MX_BIAS E4M3 {prof} K={kg} N={ng}",
                    lambda p=prof: cube_matrix("TGEMV_MX_BIAS", ag, bg, a_scale=sag, b_scale=sbg,
                                               bias=bias, profile=p),
                    lambda: av @ bv, 2.0 if prof == "ordered" else None))
    return out


def _first_calls(quick: bool, cache_dir: str) -> dict[str, float]:
    """First-call seconds of every figure in a fresh process using ``cache_dir``."""
    code = ("import json, sys, time; from benchmarks.bench_cube import cases; r = {}\n"
            f"for name, fn, _, _ in cases({quick}):\n"
            "    t0 = time.perf_counter(); fn(); r[name] = time.perf_counter() - t0\n"
            "print(json.dumps(r))")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PTO_KERNELS="compiled")
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def paired(anchor, kernel, rounds: int):
    """Best (wall, process CPU) seconds of the anchor and of the kernel, alternating."""
    best = {"a": [float("inf")] * 2, "k": [float("inf")] * 2}
    for _ in range(rounds):
        for key, fn in (("a", anchor), ("k", kernel)):
            for _ in range(2):
                c0, w0 = time.process_time(), time.perf_counter()
                fn()
                w, c = time.perf_counter() - w0, time.process_time() - c0
                best[key] = [min(best[key][0], w), min(best[key][1], c)]
    return best["a"], best["k"]


def run(quick: bool = False) -> None:
    os.environ["PTO_KERNELS"] = "compiled"
    with tempfile.TemporaryDirectory(prefix="pto-numba-") as cache:
        first = _first_calls(quick, cache)
        loaded = _first_calls(quick, cache)
    rounds = 2 if quick else 5
    print("Compiled CUBE kernels (issue 26): ms; ratio = kernel / float32 numpy matmul of the "
          f"same shape, wall (best of {2 * rounds}, alternating) and process CPU")
    print(f"  {'figure':42s} {'numpy':>7s} {'warm':>7s} {'ratio':>6s} {'cpu':>6s} {'target':>6s} "
          f"{'first':>7s} {'cached':>7s}")
    warm, cpu, numpy_wall = {}, {}, {}
    for name, fn, anchor, target in cases(quick):
        fn()
        (w_a, c_a), (w_k, c_k) = paired(anchor, fn, rounds)
        warm[name], cpu[name], numpy_wall[name] = w_k, c_k, w_a
        tgt = f"{target:.0f}x" if target else ""
        print(f"  {name:42s} {w_a * 1e3:7.2f} {w_k * 1e3:7.2f} {w_k / w_a:6.2f} {c_k / c_a:6.2f} "
              f"{tgt:>6s} {first[name] * 1e3:7.0f} {loaded[name] * 1e3:7.0f}")
    sim = {} if quick else simulator_seconds()
    for name, t in sim.items():
        if name in warm:
            print(f"  pto-isa C++ simulator, {name}: {t * 1e3:.0f} ms = "
                  f"{t / numpy_wall[name]:.0f}x numpy, {t / warm[name]:.0f}x ours")
    names = list(warm)
    print(f"  exact / ordered (TGEMV_MX_BIAS): wall {warm[names[-1]] / warm[names[-2]]:.2f}, "
          f"cpu {cpu[names[-1]] / cpu[names[-2]]:.2f} (target <= 3)")
    os.environ["PTO_KERNELS"] = "numpy"
    name, fn, _, _ = cases(quick)[-2]
    t0 = time.perf_counter()
    fn()
    print(f"  numpy reference kernel, {name}: {(time.perf_counter() - t0) * 1e3:.0f} ms")
    del os.environ["PTO_KERNELS"]


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
