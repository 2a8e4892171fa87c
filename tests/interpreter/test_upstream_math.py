"""``math`` and ``cf.assert`` in the upstream interpreter, ``linalg.batch_matmul`` and the
multi-result ``linalg.generic`` syntax (issue 10: what frontends emit).

References are independent of the numpy kernels: Python's ``math`` on float64 scalars,
rounded once to the element type, and hand-derived special values (MLIR semantics).
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from interpreter.ssa.runner import RunError, run

UNARY = {
    "absf": abs, "floor": math.floor, "ceil": math.ceil, "trunc": math.trunc,
    "sqrt": math.sqrt, "exp": math.exp, "log": math.log, "tanh": math.tanh,
    "erf": math.erf, "rsqrt": lambda x: 1 / math.sqrt(x), "roundeven": round,
    "round": lambda x: math.copysign(math.floor(abs(x) + 0.5), x),
}  # fmt: skip
DTYPES = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


def _program(op: str, elt: str, n: int) -> str:
    t = f"tensor<{n}x{elt}>"
    return f"""func.func @f(%a: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%a : {t}) outs(%e : {t}) {{
  ^bb0(%x: {elt}, %o: {elt}):
    %y = math.{op} %x : {elt}
    linalg.yield %y : {elt}
  }} -> {t}
  return %r : {t}
}}
"""


@pytest.mark.parametrize("elt", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("op", sorted(UNARY))
def test_math_unary_against_python_math(op, elt):
    dt = DTYPES[elt]
    xs = [0.5, 1.0, 2.5, 3.75, 0.1, 7.0, 1.5, 2.0]
    if op not in ("sqrt", "log", "rsqrt"):
        xs += [-0.5, -2.5, -3.75, -1.5]
    a = np.array(xs, dtype=dt)
    (got,) = run(_program(op, elt, len(xs)), "f", a)
    # IEEE: an integral rounding of x keeps x's sign when it is zero (ceil(-0.5) = -0.0);
    # Python's integer-valued math.ceil/trunc/round lose it.
    ref = [float(UNARY[op](float(x))) for x in a]
    ref = [math.copysign(r, float(x)) if r == 0 and op != "absf" else r for r, x in zip(ref, a)]
    want = np.array(ref, dtype=np.float64).astype(dt)
    if op in ("exp", "log", "tanh", "erf", "rsqrt"):
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=2e-7 if elt == "f32" else 0)
    else:  # exact operations: bit for bit
        assert got.tobytes() == want.tobytes()


def test_math_special_values():
    """MLIR semantics: sqrt(-1) = NaN, log(0) = -inf, rsqrt(-0) = -inf, absf(-0) = +0,
    floor keeps -0, round(2.5) = 3 (away from zero), roundeven(2.5) = 2."""
    a = np.array([-1.0, 0.0, -0.0, -0.0, -0.0, 2.5, 2.5], np.float32)
    ops = ["sqrt", "log", "rsqrt", "absf", "floor", "round", "roundeven"]
    want = [math.nan, -math.inf, -math.inf, 0.0, -0.0, 3.0, 2.0]
    for x, op, w in zip(a, ops, want):
        (got,) = run(_program(op, "f32", 1), "f", np.array([x], np.float32))
        g = float(got[0])
        assert (math.isnan(g) and math.isnan(w)) or (g == w and math.copysign(1, g) == math.copysign(1, w)), op


def test_cf_assert_in_a_body_stops_the_run():
    text = """func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %nz = arith.cmpf one, %x, %z : f32
    cf.assert %nz, "zero element"
    %y = arith.divf %one, %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
    (got,) = run(text, "f", np.array([1, 2, 4, -8], np.float32))
    assert got.tolist() == [1.0, 0.5, 0.25, -0.125]
    with pytest.raises(RunError, match="zero element"):
        run(text, "f", np.array([1, 0, 4, -8], np.float32))


def test_batch_matmul_parses_and_runs_against_python_sums():
    text = """func.func @f(%a: tensor<2x3x5xi32>, %b: tensor<2x5x4xi32>, %c: tensor<2x3x4xi32>) -> tensor<2x3x4xi32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x5xi32>, tensor<2x5x4xi32>) outs(%c : tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
  return %r : tensor<2x3x4xi32>
}
"""
    rng = np.random.default_rng(3)
    a, b, c = (rng.integers(-9, 9, s).astype(np.int32) for s in ((2, 3, 5), (2, 5, 4), (2, 3, 4)))
    (got,) = run(text, "f", a, b, c)
    for bi in range(2):
        for i in range(3):
            for j in range(4):
                assert got[bi, i, j] == int(c[bi, i, j]) + sum(int(a[bi, i, k]) * int(b[bi, k, j]) for k in range(5))


def test_multi_result_generic_with_parenthesised_types_and_keepdims_reduction():
    """``-> (t1, t2)`` parses; a ``(d0, d1) -> (d0, 0)`` output map reduces into 4x1."""
    text = """func.func @f(%a: tensor<4x3xf32>) -> (tensor<4x1xf32>, tensor<4xf32>) {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x3xf32>) outs(%f1, %f2 : tensor<4x1xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %s: f32, %t: f32):
    %s2 = arith.addf %s, %x : f32
    %t2 = arith.addf %t, %x : f32
    linalg.yield %s2, %t2 : f32, f32
  } -> (tensor<4x1xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4x1xf32>, tensor<4xf32>
}
"""
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    s, t = run(text, "f", a)
    assert s.shape == (4, 1) and s[:, 0].tolist() == [3.0, 12.0, 21.0, 30.0] == t.tolist()
