"""D22: tanh, erf and small integer powers as compositions of exactly lowered body ops
(issue 28 item 5, passes/lowering/approximate.py).

* special values are exact (C99 Annex F): +-0, +-inf, NaN;
* a sample of inputs is within the row's measured bound (``APPROXIMATIONS[...].bound``)
  of the correctly rounded value (float64 libm rounded once: an independent reference);
  the exhaustive / 10^6-input measurement is ``scripts/measure_math_bounds.py``;
* the lowered PTO program computes the expanded body's bits (D18);
* ``approx=false`` keeps the ops, with the reason; the report names the bound.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from lowering_helpers import apply, parse
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

import passes.lowering.approximate as approximate
from interpreter.ssa.runner import run
from passes.lowering.approximate import APPROXIMATIONS, ExpandApproximation, report_lines
from passes.lowering.leftovers import find_leftovers
from passes.pto_lower import PTOLowerPass

NP = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
BITS = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16}


def program(name: str, t: str, n: int, exponent: int | None = None, exp_type: str = "i64") -> str:
    tt = f"tensor<{n}x{t}>"
    const, body = "", f"%r = {name} %x : {t}"
    if name == "math.fpowi":
        const = f"  %n = arith.constant {exponent} : {exp_type}\n"
        body = f"%r = math.fpowi %x, %n : {t}, {exp_type}"
    elif name == "math.powf":
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
    m = parse(text)
    PatternRewriteWalker(GreedyRewritePatternApplier([ExpandApproximation()])).rewrite_module(m)
    return m


def reference(name: str, x: np.ndarray, n: int | None) -> np.ndarray:
    x64 = x.astype(np.float64)
    with np.errstate(all="ignore"):
        if name == "math.tanh":
            return np.tanh(x64)
        if name == "math.erf":
            return np.array([math.erf(v) for v in x64])
        return np.power(x64, float(n))


def ulps(y: np.ndarray, r64: np.ndarray, t: str) -> np.ndarray:
    """Distance in ulps of ``t`` from ``y`` to ``r64`` rounded once (f32, f16: numpy's
    float64 -> t rounding; bf16 via f32 is a double rounding: only for the sample's
    finite values, where the 1 ulp slack of this check covers it)."""
    want = r64.astype(NP[t])

    def ordinal(v):
        b = v.view(BITS[t]).astype(np.int64)
        s = np.int64(1) << (8 * v.dtype.itemsize - 1)
        return np.where(b & s, -(b & (s - 1)), b)

    return np.abs(ordinal(np.asarray(y, NP[t])) - ordinal(want))


SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], np.float64)
WANT_SPECIAL = {
    "math.tanh": [0.0, -0.0, 1.0, -1.0, np.nan],
    "math.erf": [0.0, -0.0, 1.0, -1.0, np.nan],
}


def _same(a, b) -> bool:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return bool(np.all(((a == b) & (np.signbit(a) == np.signbit(b))) | (np.isnan(a) & np.isnan(b))))


@pytest.mark.parametrize("t", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("name", ["math.tanh", "math.erf"])
def test_special_values_exact(name, t):
    x = SPECIAL.astype(NP[t])
    (y,) = run(expanded(program(name, t, x.size)), "main", x)
    assert _same(y, WANT_SPECIAL[name])


@pytest.mark.parametrize(("n", "x", "want"), [
    (0, np.nan, 1.0), (0, np.inf, 1.0), (3, -0.0, -0.0), (2, -0.0, 0.0), (3, -np.inf, -np.inf),
    (2, -np.inf, np.inf), (-1, -0.0, -np.inf), (-1, np.inf, 0.0), (5, np.nan, np.nan),
    (4, 1e30, np.inf),
])  # fmt: skip
def test_integer_power_special_values(n, x, want):
    for name in ("math.fpowi", "math.powf"):
        (y,) = run(expanded(program(name, "f32", 1, n)), "main", np.array([x], np.float32))
        assert _same(y, [want]), (name, n, x, y)


def _sample(t: str, rng) -> np.ndarray:
    if t == "f32":
        bits = rng.integers(0, 2**32, 2048, dtype=np.uint64).astype(np.uint32).view(np.float32)
        return np.concatenate([bits, rng.uniform(-6, 6, 2048).astype(np.float32)])
    return rng.integers(0, 2**16, 4096, dtype=np.uint64).astype(np.uint16).view(NP[t])


CASES = [("math.tanh", None), ("math.erf", None), ("math.fpowi", 3), ("math.fpowi", 5),
         ("math.powf", 2), ("math.fpowi", -1)]  # fmt: skip


@pytest.mark.parametrize("t", ["f32", "f16", "bf16"])
@pytest.mark.parametrize(("name", "n"), CASES)
def test_sampled_error_within_the_measured_bound(name, n, t):
    x = _sample(t, np.random.default_rng(hash((name, n, t)) % 2**32))
    x = x[np.isfinite(x.astype(np.float64))]
    (y,) = run(expanded(program(name, t, x.size, n)), "main", x)
    r = reference(name, x, n)
    d = ulps(np.asarray(y), r, t)
    fin = np.isfinite(r)
    limit = APPROXIMATIONS[name].bound[t] + (1 if t == "bf16" else 0)
    assert d[fin].max() <= limit, (x[fin][np.argmax(d[fin])], d[fin].max())
    assert APPROXIMATIONS[name].bound[t] <= (4 if t == "f32" else 1)  # D22


@pytest.mark.parametrize(("name", "n", "t"), [("math.tanh", None, "f32"), ("math.erf", None, "bf16"),
                                              ("math.fpowi", 3, "f16")])  # fmt: skip
def test_lowered_program_computes_the_expanded_body(name, n, t):
    x = _sample(t, np.random.default_rng(7))[:512]
    text = program(name, t, x.size, n)
    lowered = apply(PTOLowerPass(level="block"), parse(text))
    assert not find_leftovers(lowered)
    (got,) = run(lowered, "main", x)
    (want,) = run(expanded(text), "main", x)
    assert _same(got, want)


def test_a_broken_coefficient_turns_the_bound_check_red(monkeypatch):
    p = list(approximate.TANH_P)
    p[1] *= 1.001
    monkeypatch.setattr(approximate, "TANH_P", tuple(p))
    x = np.linspace(0.1, 0.6, 512).astype(np.float32)
    (y,) = run(expanded(program("math.tanh", "f32", x.size)), "main", x)
    assert ulps(np.asarray(y), np.tanh(x.astype(np.float64)), "f32").max() > APPROXIMATIONS["math.tanh"].bound["f32"]


def test_approx_false_keeps_them_with_the_reason():
    text = program("math.tanh", "f32", 16)
    m = apply(PTOLowerPass(approx=False), parse(text))
    (left,) = find_leftovers(m)
    assert "pto-lower expands its D22 composition unless approx=false" in left.reason
    assert "measured max error 1 ulp" in "\n".join(report_lines(parse(text)))


@pytest.mark.parametrize(("n", "t", "why"), [
    (7, "f32", "exponent 7 outside -1..5 for f32"),
    (-2, "f32", "exponent -2 outside -1..5 for f32"),
])  # fmt: skip
def test_powers_beyond_the_bound_stay_with_the_reason(n, t, why):
    m = apply(PTOLowerPass(), parse(program("math.fpowi", t, 16, n)))
    (left,) = find_leftovers(m)
    assert why in left.reason
