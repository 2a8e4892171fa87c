"""Measure the D22 bound of every composition in passes/lowering/approximate.py.

    .venv/bin/python scripts/measure_math_bounds.py [--f32 N] [--check-lowered N] [NAME ...]

For each row of ``APPROXIMATIONS`` (and, for the powers, each allowed exponent) and each
result type it runs the **expanded body** (a ``linalg.generic`` over all the inputs at once,
expanded by ``ExpandApproximation``, run by the upstream interpreter) on

* f16 and bf16: every one of the 65536 bit patterns;
* f32: ``--f32`` inputs (default 1,000,000): a third random bit patterns, a third uniform
  over the function's interesting range, the rest within 2000 ulp of each range boundary
  of the composition (``boundaries``, both signs), plus the special values;

and compares with the correctly rounded value: float64 libm (``np.tanh``, ``math.erf``,
``x**n`` in float64, exact for these exponents) rounded once to the result type; float64's
own error is below 2^-52 relative, far below one f32 ulp. The error is the distance in
ulps (consecutive values of the type) between the result and the correctly rounded value;
special values (+-0, +-inf, NaN) must be exact (C99 Annex F), and are reported apart.

``--check-lowered N`` also lowers the generic with ``pto-lower{level=tile}`` and checks that
the PTO program computes the expanded body's bits on N inputs (D18: the composition's ops
are lowered exactly). The numbers go to docs/elementwise-lowering.md and the ``bound``
entries of ``APPROXIMATIONS``. Run time: about a minute.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import ml_dtypes
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker  # noqa: E402

from interpreter.ssa.runner import build_context, parse_module_text, run  # noqa: E402
from passes.lowering.approximate import APPROXIMATIONS, POW_EXPONENTS, ExpandApproximation  # noqa: E402
from passes.pto_lower import PTOLowerPass  # noqa: E402

NP = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
UINT = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16}
_erf = np.vectorize(math.erf, otypes=[np.float64])


def program(name: str, t: str, n: int, exponent: int | None) -> str:
    tt = f"tensor<{n}x{t}>"
    if exponent is None:
        body = f"%r = {name} %x : {t}"
        const = ""
    elif name == "math.fpowi":
        const = f"  %n = arith.constant {exponent} : i64\n"
        body = f"%r = math.fpowi %x, %n : {t}, i64"
    else:
        const = f"  %n = arith.constant {float(exponent)} : {t}\n"
        body = f"%r = math.powf %x, %n : {t}"
    return f"""func.func @main(%a: {tt}) -> {tt} {{
{const}  %e = tensor.empty() : {tt}
  %o = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}} ins(%a : {tt}) outs(%e : {tt}) {{
  ^bb0(%x: {t}, %out: {t}):
    {body}
    linalg.yield %r : {t}
  }} -> {tt}
  return %o : {tt}
}}
"""


def expanded(text: str):
    m = parse_module_text(text)
    PatternRewriteWalker(GreedyRewritePatternApplier([ExpandApproximation()])).rewrite_module(m)
    assert not any(o.name in APPROXIMATIONS for o in m.walk()), "not expanded"
    return m


def reference(name: str, x: np.ndarray, exponent: int | None) -> np.ndarray:
    x64 = x.astype(np.float64)
    with np.errstate(all="ignore"):
        if name == "math.tanh":
            return np.tanh(x64)
        if name == "math.erf":
            return _erf(x64)
        return np.power(x64, float(exponent))  # exact in float64 for |n| <= 5 and these types


def correctly_rounded(r: np.ndarray, t: str) -> np.ndarray:
    """float64 -> t, rounded once to nearest even (bf16 through its neighbours: ml_dtypes
    may round through f32)."""
    dt = NP[t]
    c = r.astype(dt)
    if t != "bf16":
        return c
    up = np.nextafter(c, np.array(np.inf, dt))
    dn = np.nextafter(c, np.array(-np.inf, dt))
    best = c.copy()
    err = np.abs(c.astype(np.float64) - r)
    for cand in (up, dn):
        e = np.abs(cand.astype(np.float64) - r)
        even = (cand.view(np.uint16) & 1) == 0
        take = (np.isfinite(cand.astype(np.float64)) & np.isfinite(c.astype(np.float64))
                & ((e < err) | ((e == err) & even)))
        best = np.where(take, cand, best)
        err = np.where(take, e, err)
    return best


def ordinal(v: np.ndarray, t: str) -> np.ndarray:
    bits = v.view(UINT[t]).astype(np.int64)
    sign = np.int64(1) << (8 * v.dtype.itemsize - 1)
    return np.where(bits & sign, -(bits & (sign - 1)), bits)


def ulp_distance(y: np.ndarray, want: np.ndarray, t: str) -> np.ndarray:
    y64, w64 = y.astype(np.float64), want.astype(np.float64)
    d = np.abs(ordinal(y, t) - ordinal(want, t)).astype(np.float64)
    both_nan = np.isnan(y64) & np.isnan(w64)
    d = np.where(both_nan, 0, d)
    return np.where(np.isnan(y64) != np.isnan(w64), np.inf, d)


def inputs(t: str, row, n_f32: int, rng) -> np.ndarray:
    if t != "f32":
        return np.arange(65536, dtype=np.uint16).view(NP[t])
    n3 = n_f32 // 3
    bits = rng.integers(0, 2**32, n3, dtype=np.uint64).astype(np.uint32).view(np.float32)
    hi = max(row.boundaries or (4.0,)) * 2
    uni = rng.uniform(-hi, hi, n3).astype(np.float32)
    near = []
    per = max(1, (n_f32 - 2 * n3) // max(1, 2 * len(row.boundaries) + 2))
    for b in (*row.boundaries, 1.0):
        for s in (1.0, -1.0):
            base = np.float32(s * b).view(np.int32).astype(np.int64)
            near.append((base + rng.integers(-2000, 2001, per)).astype(np.int32).view(np.float32))
    tiny = (rng.uniform(-40, 0, per) * np.log(10)).astype(np.float64)
    near.append((np.exp(tiny) * rng.choice([-1, 1], per)).astype(np.float32))
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3.4028235e38,
                        -3.4028235e38, 1.0, -1.0], np.float32)  # fmt: skip
    return np.concatenate([bits, uni, *near, special])


def measure(name: str, t: str, exponent: int | None, n_f32: int, check_lowered: int, rng) -> dict:
    row = APPROXIMATIONS[name]
    x = inputs(t, row, n_f32, rng)
    text = program(name, t, x.size, exponent)
    (y,) = run(expanded(text), "main", x)
    y = np.asarray(y)
    want = correctly_rounded(reference(name, x, exponent), t)
    d = ulp_distance(y, want, t)
    x64 = x.astype(np.float64)
    special = (x64 == 0) | np.isinf(x64) | np.isnan(x64)
    special_exact = bool(np.all(d[special] == 0) and np.all(
        np.signbit(y[special & ~np.isnan(x64)].astype(np.float64))
        == np.signbit(want[special & ~np.isnan(x64)].astype(np.float64))))  # fmt: skip
    out = {"max_ulp": float(d.max()), "n": int(x.size), "special_exact": special_exact,
           "worst_x": float(x64[int(np.argmax(d))])}  # fmt: skip
    if check_lowered:
        k = min(check_lowered, x.size)
        sub = x[np.linspace(0, x.size - 1, k).astype(np.int64)]
        low = parse_module_text(program(name, t, k, exponent))
        PTOLowerPass(level="tile").apply(build_context(), low)
        (got,) = run(low, "main", sub)
        (ref,) = run(expanded(program(name, t, k, exponent)), "main", sub)
        same = (np.asarray(got).view(UINT[t]) == np.asarray(ref).view(UINT[t])) | (
            np.isnan(np.asarray(got, np.float64)) & np.isnan(np.asarray(ref, np.float64)))
        out["lowered_same"] = bool(np.all(same))
    return out


def main(argv: list[str]) -> int:
    np.seterr(all="ignore")
    import warnings

    warnings.simplefilter("ignore", RuntimeWarning)
    ap = argparse.ArgumentParser()
    ap.add_argument("--f32", type=int, default=1_000_000)
    ap.add_argument("--check-lowered", type=int, default=4096)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(28)
    worst_row = {}
    for name in args.names or list(APPROXIMATIONS):
        full = name if name.startswith("math.") else f"math.{name}"
        for t in ("f32", "f16", "bf16"):
            exps = list(POW_EXPONENTS[t]) if full in ("math.fpowi", "math.powf") else [None]
            for n in exps:
                t0 = time.perf_counter()
                r = measure(full, t, n, args.f32, args.check_lowered, rng)
                label = f"{full}{'' if n is None else f' n={n}'} {t}"
                print(f"{label:24s} max {r['max_ulp']:g} ulp over {r['n']} inputs (worst x = "
                      f"{r['worst_x']!r}); special values exact: {r['special_exact']}; "
                      f"lowered = expanded: {r.get('lowered_same', '-')} "
                      f"({time.perf_counter() - t0:.1f} s)", flush=True)  # fmt: skip
                key = (full, t)
                worst_row[key] = max(worst_row.get(key, 0), r["max_ulp"])
    print("bounds:", {f"{k[0]} {k[1]}": v for k, v in worst_row.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
