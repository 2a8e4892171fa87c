"""Differential tests: run programs before and after lowering with ``interpreter.run``.

Three stages of each program run on the same inputs: the linalg program, the tensor-level
program (after ``convert-linalg-to-pto``, run with ``interpreter.ssa.tensor_functions``) and the
tile program (after ``pto-lower``). Every stage is also checked against an independent
reference written with Python scalars (``%`` on ints, ``math.fmod`` on floats,
``math.fsum`` for sums).

TREM (D7, D8): bit-exact at every stage, NaN payloads aside (all NaNs compare equal).

GEMV (D4 ``ordered`` profile, the default): with S_j = sum_k |A'_k B'_kj| + |bias_j| (A', B'
the scaled elements, exact in float64 for these inputs) and u = 2^-24,
  * the linalg program sums sequentially in FP32 from the init: K roundings, each at most
    u * S_j: |before - exact| <= (K + 1) u S_j; the tensor-level pto.gemv is the same kind
    of K-ordered chain (ADR-0047), so the same bound holds for it;
  * the tile program chains nk K chunks through an FP32 tensor (D10): each chunk is an
    ordered chain, plus one rounding per chunk: |after - exact| <= (K + nk + 1) u S_j;
  * the difference is bounded by the sum of the two; ReLU is 1-Lipschitz, and an f16/bf16
    result adds at most one unit in the last place of that type at the result's magnitude.
Inputs keep every product and partial sum far from FP32 overflow and underflow, so the
FP32 products of the linalg program are exact.
"""

from __future__ import annotations

import math
from unittest import mock

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lowering_helpers import apply, floor_mod_program, gemv_program, parse

import interpreter.ssa.runner as runner
from interpreter import run
from interpreter.ssa.tensor_functions import TensorPTOFunctions
from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass
from passes.lowering.tile_plans import GemvShape, plan_gemv
from passes.pto_lower import PTOLowerPass
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from tests.budget import examples


def run_tensor_level(module, *arrays):
    """``interpreter.run`` with the tensor-level PTO functions registered as well."""
    original = runner.extra_functions

    def extra(profile):
        fns = original(profile)
        if not any(isinstance(f, TensorPTOFunctions) for f in fns):
            fns = [*fns, TensorPTOFunctions(profile)]
        return fns

    with mock.patch.object(runner, "extra_functions", extra):
        return run(module, "f", *arrays)


def three_stages(text, *arrays, **lower_opts):
    module = parse(text)
    before = run(module, "f", *arrays)[0]
    mid_module = apply(ConvertLinalgToPtoPass(), module)
    assert "pto." in str(mid_module)
    mid = run_tensor_level(mid_module, *arrays)[0]
    low = apply(PTOLowerPass(level="tile", **lower_opts), module)
    assert "linalg.generic" not in str(low)
    after = run(low, "f", *arrays)[0]
    # Block level (pto-lower, default level=block): decoded execution of the register-assigned
    # blocks gives exactly the tile-level result (same kernels, same data movement).
    blk = apply(PTOLowerPass(**lower_opts), module)
    printed = str(blk)
    assert "pto.block" in printed and "pto.unassigned" not in printed
    assert not any(f"pto.{n} " in printed for n in ("tload", "tstore", "trem", "tgemv_mx_bias"))
    block_after = np.asarray(run(blk, "f", *arrays)[0])
    tile_after = np.asarray(after)
    assert block_after.dtype == tile_after.dtype
    assert block_after.tobytes() == tile_after.tobytes(), "block level differs from tile level"
    return before, mid, after


# ======================================================================================
# TREM
# ======================================================================================

NP = {"i32": np.int32, "i16": np.int16, "f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


def int_reference(a: np.ndarray, b: np.ndarray, kind: str) -> np.ndarray:
    """Python's % is floor modulo; unsigned values are taken from the bits (D8)."""
    bits = a.dtype.itemsize * 8
    out = []
    for x, y in zip(a.ravel().tolist(), b.ravel().tolist()):
        if kind == "unsigned":
            x, y = x % (1 << bits), y % (1 << bits)
        r = x % y
        out.append(r)
    return np.array(out, dtype=np.int64).astype(a.dtype).reshape(a.shape)


def float_reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """D7 from math.fmod: a nonzero remainder whose sign differs from b's gets + b."""
    out = []
    for x, y in zip(a.astype(np.float64).ravel().tolist(), b.astype(np.float64).ravel().tolist()):
        if math.isnan(x) or math.isnan(y) or math.isinf(x) or y == 0:
            out.append(math.nan)
            continue
        r = x if math.isinf(y) else math.fmod(x, y)
        if r != 0 and (r < 0) != (y < 0):
            r = r + y
        out.append(r)
    return np.array(out, dtype=np.float64).astype(a.dtype).reshape(a.shape)


def same_bits(x: np.ndarray, y: np.ndarray) -> bool:
    if x.dtype.kind in "iu":
        return x.dtype == y.dtype and np.array_equal(x, y)
    bits = f"u{x.dtype.itemsize}"
    nan_x, nan_y = np.isnan(x.astype(np.float32)), np.isnan(y.astype(np.float32))
    return bool(np.array_equal(nan_x, nan_y)) and bool(
        np.array_equal(x.view(bits)[~nan_x], y.view(bits)[~nan_y])
    )


def draw_operands(rng: np.random.Generator, shape, elt, kind):
    dt = np.dtype(NP[elt])
    if elt.startswith("i"):
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dt)
        b = np.where(rng.random(shape) < 0.5, rng.integers(-9, 10, size=shape),
                     rng.integers(info.min, info.max, size=shape, endpoint=True)).astype(dt)
        b[b == 0] = -1
        a.flat[0], b.flat[0] = info.min, -1  # INT_MIN rem -1 = 0 (D8)
        return a, b
    a = rng.standard_normal(shape) * 100
    b = rng.standard_normal(shape) * 10
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 4.0, -4.0])
    pick = rng.random(shape)
    a = np.where(pick < 0.1, specials[rng.integers(0, 7, size=shape)], a)
    b = np.where(rng.random(shape) < 0.1, specials[rng.integers(0, 7, size=shape)], b)
    a = np.where((pick > 0.1) & (pick < 0.2), np.round(a), a)  # exact multiples: zero results
    return a.astype(dt), b.astype(dt)


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=st.lists(st.integers(1, 40), min_size=1, max_size=3).map(tuple),
    case=st.sampled_from(
        [("i32", "signed"), ("i16", "signed"), ("i32", "unsigned"), ("i16", "unsigned"),
         ("f32", "float"), ("f16", "float"), ("bf16", "float")]
    ),
    tile_bytes=st.sampled_from([128, 512, 65536]),
    pes=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_d7_d8_trem_lowering_is_bit_exact(shape, case, tile_bytes, pes, seed):
    elt, kind = case
    a, b = draw_operands(np.random.default_rng(seed), shape, elt, kind)
    text = floor_mod_program(shape, elt, kind)
    before, mid, after = three_stages(text, a, b, tile_bytes=tile_bytes, pes=pes)
    ref = int_reference(a, b, kind) if kind != "float" else float_reference(a, b)
    assert same_bits(before, ref)
    assert same_bits(mid, ref)
    assert same_bits(after, ref)


def test_d8_zero_divisor_faults_after_lowering():
    a = np.arange(1, 9, dtype=np.int32)
    b = np.ones(8, np.int32)
    b[5] = 0
    low = apply(PTOLowerPass(level="tile"), parse(floor_mod_program((8,), "i32", "signed")))
    with pytest.raises(PTOFault, match="zero"):
        run(low, "f", a, b)


# ======================================================================================
# GEMV
# ======================================================================================

MX = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f8E4M3FN": ml_dtypes.float8_e4m3fn,
      "f8E5M2": ml_dtypes.float8_e5m2, "f4E2M1FN": ml_dtypes.float4_e2m1fn}
TDT = {"f16": T.FP16, "bf16": T.BF16, "f8E4M3FN": T.E4M3, "f8E5M2": T.E5M2, "f4E2M1FN": T.E2M1X2,
       "f32": T.FP32}
U = 2.0**-24


def gemv_inputs(rng, k, n, a_elt, b_elt, bias):
    nb = -(-k // 32)
    arrays = []
    a = (rng.standard_normal(k) * 2).astype(MX[a_elt])
    arrays.append(a)
    av = a.astype(np.float64)
    if a_elt not in ("f16", "bf16"):
        s = rng.integers(122, 133, size=nb).astype(np.uint8)
        arrays.append(s.view(ml_dtypes.float8_e8m0fnu))
        av = av * np.exp2(np.repeat(s.astype(np.float64) - 127, 32)[:k])
    b = (rng.standard_normal((k, n)) * 2).astype(MX[b_elt])
    arrays.append(b)
    bv = b.astype(np.float64)
    if b_elt not in ("f16", "bf16"):
        s = rng.integers(122, 133, size=(nb, n)).astype(np.uint8)
        arrays.append(s.view(ml_dtypes.float8_e8m0fnu))
        bv = bv * np.exp2(np.repeat(s.astype(np.float64) - 127, 32, axis=0)[:k])
    bias_v = np.zeros(n)
    if bias:
        bb = (rng.standard_normal(n) * 4).astype(np.float32)
        arrays.append(bb)
        bias_v = bb.astype(np.float64)
    terms = av[:, None] * bv  # exact: few significant bits, moderate exponents
    exact = np.array([math.fsum([*terms[:, j].tolist(), bias_v[j]]) for j in range(n)])
    s_abs = np.abs(terms).sum(axis=0) + np.abs(bias_v)
    return arrays, exact, s_abs


def ulp(x: np.ndarray, elt: str) -> np.ndarray:
    if elt == "f32":
        return np.zeros_like(x)
    d = np.dtype(MX[elt])
    mag = np.abs(x).astype(d)
    return np.abs(np.spacing(mag.astype(np.float32)).astype(np.float64)) * (
        2.0 ** (24 - (11 if elt == "f16" else 8))
    ) + float(ml_dtypes.finfo(d).smallest_subnormal)


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    k=st.integers(1, 400),
    n=st.integers(1, 40),
    a_elt=st.sampled_from(sorted(MX)),
    b_elt=st.sampled_from(sorted(MX)),
    bias=st.booleans(),
    relu=st.booleans(),
    out=st.sampled_from(["f32", "f16", "bf16"]),
    tile_bytes=st.sampled_from([512, 2048, 65536]),
    pes=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_d4_gemv_lowering_within_the_exact_bound(k, n, a_elt, b_elt, bias, relu, out, tile_bytes, pes, seed):
    rng = np.random.default_rng(seed)
    arrays, exact, s_abs = gemv_inputs(rng, k, n, a_elt, b_elt, bias)
    text = gemv_program(k, n, a_elt, b_elt, bias=bias, relu=relu, out_elt=out)
    shape = GemvShape(k, n, TDT[a_elt], TDT[b_elt], TDT[out],
                      a_elt not in ("f16", "bf16"), b_elt not in ("f16", "bf16"))
    plan = plan_gemv(shape, tile_bytes, pes)
    assert plan is not None
    before, mid, after = three_stages(text, *arrays, tile_bytes=tile_bytes, pes=pes)
    ref = np.maximum(exact, 0.0) if relu else exact
    f64 = [x.astype(np.float64) for x in (before, mid, after)]
    out_ulp = [ulp(x, out) for x in f64]
    # D4 `ordered` (the default): every stage is a K-ordered chain of FP32 roundings, one
    # per term (k) plus one per partial-sum / bias addition of the lowered chain (nk + 1)
    for got, steps, last in ((f64[0], k + 1, out_ulp[0]), (f64[1], k + 1, out_ulp[1]),
                             (f64[2], k + plan.nk + 1, out_ulp[2])):
        assert np.all(np.abs(got - ref) <= steps * U * s_abs + last + 1e-300), (steps, got, ref)
    diff_bound = (2 * k + plan.nk + 2) * U * s_abs + np.maximum(out_ulp[0], out_ulp[2])
    assert np.all(np.abs(f64[0] - f64[2]) <= diff_bound)
