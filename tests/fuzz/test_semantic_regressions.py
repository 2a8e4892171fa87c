"""Regression tests of what the semantic fuzzer found (issue 23), each as its minimal program.

Every test runs the program before lowering (the reference interpreter), after
``pto-lower{level=tile}`` and after ``pto-lower`` (blocks), and compares each with an
independent expectation (Python integers, numpy on the bit patterns, hand-derived values).
Findings whose fix was another issue-23 item (hex dense constants, fusion of
``linalg.index``, gathers) or a reference-interpreter fix were strict xfails (keys of
``tests.fuzz.semantic.UNFIXED``) until those fixes merged; they now pass.
"""

from __future__ import annotations

import numpy as np
import pytest

from interpreter import run
from interpreter.ssa.runner import build_context, parse_module_text
from passes.pto_lower import PTOLowerPass


def stages(text: str, *inputs: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """(stage, result) before lowering, at the tile level and at the block level."""
    module = parse_module_text(text)
    module.verify()
    out = [("before", run(module, "f", *inputs)[0])]
    for level in ("tile", "block"):
        low = module.clone()
        PTOLowerPass(level=level).apply(build_context(), low)
        out.append((level, run(low, "f", *inputs)[0]))
    return out


def assert_bits(stage: str, got: np.ndarray, want: np.ndarray) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, stage
    w = f"u{want.dtype.itemsize}"
    assert np.array_equal(got.view(w), want.view(w)), f"{stage}: {got!r} != {want!r}"


# -- integer max/min reductions from the type's extreme ------------------------------------

INT_MAX_REDUCTION = """func.func @f(%x: tensor<3x5x{t}>) -> tensor<3x1x{t}> {{
  %init = arith.constant {init} : {t}
  %e = tensor.empty() : tensor<3x1x{t}>
  %z = linalg.fill ins(%init : {t}) outs(%e : tensor<3x1x{t}>) -> tensor<3x1x{t}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}} ins(%x : tensor<3x5x{t}>) outs(%z : tensor<3x1x{t}>) {{
  ^bb0(%in: {t}, %acc: {t}):
    %m = arith.{op} %in, %acc : {t}
    linalg.yield %m : {t}
  }} -> tensor<3x1x{t}>
  return %r : tensor<3x1x{t}>
}}
"""


@pytest.mark.parametrize("t", ["i8", "i16", "i32"])
@pytest.mark.parametrize("op", ["maxsi", "minsi"])
def test_int_max_min_reduction_from_extreme_init(t, op):
    """Found by the fuzzer (seed 1000023): ``maxsi`` from INT_MIN was lowered as TROWMAX
    followed by a TMULS by INT_MIN (the init step took the sum/prod branch, comparing the
    init modulo 2^w with the identity -2^(w-1))."""
    dt = np.dtype(t.replace("i", "int"))
    info = np.iinfo(dt)
    init = info.min if op == "maxsi" else info.max
    x = np.array([[3, -7, 100, 0, 1], [-1, -2, -3, -4, -5], [info.min, 5, info.max, 2, 2]], dtype=dt)
    fold = max if op == "maxsi" else min
    want = np.array([[fold([init, *map(int, row)])] for row in x], dtype=dt)
    for stage, got in stages(INT_MAX_REDUCTION.format(t=t, init=init, op=op), x):
        assert_bits(stage, got, want)


# -- fixed elsewhere (issue 23 items 1, 2, 6 and the reference interpreter) --------------


def test_hex_dense_constants_are_bit_patterns():
    text = """func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %m = arith.constant dense<[0xFF800000, 0x3F800000, 0x80000000, 0x7FC00000]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %m : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    %s = arith.select %c, %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
    x = np.array([-1.0, 0.5, -1.0, 2.0], dtype=np.float32)
    # x > m ? x : m with m = [-inf, 1.0, -0.0, NaN]: a NaN compares false, giving m's NaN
    want = np.array([0xBF800000, 0x3F800000, 0x80000000, 0x7FC00000], dtype=np.uint32)
    for stage, got in stages(text, x):
        assert_bits(stage, got, want.view(np.float32))


def test_fused_index_mask():
    text = """func.func @f(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e2 : tensor<4x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sge, %i, %j : index
    %v = arith.select %c, %one, %zero : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  %e4 = tensor.empty() : tensor<1x2x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mask : tensor<1x2x4x4xf32>, tensor<4x4xf32>) outs(%e4 : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %p = arith.mulf %a, %m : f32
    linalg.yield %p : f32
  } -> tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}
"""
    x = (np.arange(32, dtype=np.float32) + 1).reshape(1, 2, 4, 4)
    want = x * np.tril(np.ones((4, 4), dtype=np.float32))
    for stage, got in stages(text, x):
        assert_bits(stage, got, want)


def test_gather_in_generic_body():
    text = """func.func @f(%table: tensor<5x3xf32>, %ids: tensor<4xi64>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<4xi64>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<5x3xf32>
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
"""
    table = np.arange(15, dtype=np.float32).reshape(5, 3)
    ids = np.array([4, 0, 2, 2], dtype=np.int64)
    for stage, got in stages(text, table, ids):
        assert_bits(stage, got, table[ids])


def test_maxnumf_signalling_nan_gives_the_other_operand():
    """Found by the fuzzer (seed 2000152, a minnumf reduction): MLIR's maxnumf/minnumf
    return the other operand when one is a NaN; TMAX/TMIN (the lowering) do too."""
    text = """func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.maxnumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
    snan = 0x7F800001
    x = np.array([snan, 0x3F800000, snan, 0xFF800000], dtype=np.uint32).view(np.float32)
    y = np.array([0xC0000000, snan, 0xFF800000, snan], dtype=np.uint32).view(np.float32)
    want = np.array([0xC0000000, 0x3F800000, 0xFF800000, 0xFF800000], dtype=np.uint32)
    for stage, got in stages(text, x, y):
        assert_bits(stage, got, want.view(np.float32))


@pytest.mark.parametrize("op", ["addi", "muli"])
def test_full_integer_reduction_wraps(op):
    """Found by the fuzzer (seeds 1000013, 2000181): OverflowError from the interpreter."""
    text = f"""func.func @f(%x: tensor<6xi32>) -> tensor<i32> {{
  %c = arith.constant {0 if op == "addi" else 1} : i32
  %e = tensor.empty() : tensor<i32>
  %z = linalg.fill ins(%c : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}} ins(%x : tensor<6xi32>) outs(%z : tensor<i32>) {{
  ^bb0(%in: i32, %acc: i32):
    %s = arith.{op} %in, %acc : i32
    linalg.yield %s : i32
  }} -> tensor<i32>
  return %r : tensor<i32>
}}
"""
    x = np.array([2**31 - 1, 2**30, 7, -3, 2**31 - 1, 12345], dtype=np.int32)
    acc = 0 if op == "addi" else 1
    for v in x.tolist():
        acc = acc + v if op == "addi" else acc * v
    wrapped = (acc + 2**31) % 2**32 - 2**31
    for stage, got in stages(text, x):
        assert_bits(stage, got, np.array(wrapped, dtype=np.int32))


# -- math.absf keeps every bit but the sign (the reference interpreter) --------------------

ABSF = """func.func @f(%x: tensor<5x{t}>) -> tensor<5x{t}> {{
  %e = tensor.empty() : tensor<5x{t}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%x : tensor<5x{t}>) outs(%e : tensor<5x{t}>) {{
  ^bb0(%a: {t}, %o: {t}):
    %m = math.absf %a : {t}
    linalg.yield %m : {t}
  }} -> tensor<5x{t}>
  return %r : tensor<5x{t}>
}}
"""


@pytest.mark.parametrize(("t", "bits"), [
    ("bf16", [0x7FC3, 0xFFC3, 0x7F81, 0x8000, 0xBF80]),
    ("f16", [0x7E12, 0xFC01, 0x8000, 0xBC00, 0x8001]),
    ("f32", [0x7F800001, 0xFFC01234, 0x80000000, 0xBF800000, 0x80000001]),
])
def test_absf_keeps_nan_payloads(t, bits):
    """Found by the fuzzer (seed 5000373, bf16): the interpreter computed absf in float64,
    which made every bf16 NaN the canonical 0x7FC0 and a signalling f32 NaN quiet; TABS (the
    lowering) and LLVM's fabs clear the sign bit only."""
    import ml_dtypes

    dt = {"bf16": ml_dtypes.bfloat16, "f16": np.float16, "f32": np.float32}[t]
    u = np.dtype(f"u{np.dtype(dt).itemsize}")
    x = np.array(bits, dtype=u).view(dt)
    want = (x.view(u) & u.type((1 << (8 * u.itemsize - 1)) - 1)).view(dt)
    for stage, got in stages(ABSF.format(t=t), x):
        assert_bits(stage, got, want)
