"""Tests that kill the lowering-row mutants a fresh sample left alive (issue 27,
``scripts/mutate.py --only lowering``): each names the mutant it was written for.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from xdsl.dialects.builtin import TensorType, f32
from xdsl.dialects.test import TestOp as DefOp

from interpreter.ssa.runner import build_context, parse_module_text, run
from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass
from passes.lowering.data_movement import GATHER_TILE_BYTES
from passes.lowering.elementwise import gather_reason
from passes.pto_lower import PTOLowerPass
from pto_dialect.faults import PTOFault


def test_gather_reason_at_the_one_tile_bound():
    """A data-dependent gather's table of exactly one largest Local tile (64 KiB) is a
    TGATHER candidate; 4 bytes more needs MGATHER. Seed 4304: ``elementwise.py:114 cmp
    LtE->Lt`` (the reason at the bound)."""
    assert GATHER_TILE_BYTES == 65536
    for n, fits in ((GATHER_TILE_BYTES // 4, True), (GATHER_TILE_BYTES // 4 + 1, False)):
        table = DefOp(result_types=[TensorType(f32, [n])]).results[0]
        reason = gather_reason(DefOp(operands=[table]))
        assert ("TGATHER within one tile" in reason) == fits, reason
        assert f"{n * 4} B" in reason


# cmpf predicates (MLIR arith.cmpf): (holds when ordered, x ? 0 relation) -- written out here,
# independent of passes/lowering/conversion.py's _CMPF_CHECKS
_PRED = {
    "oeq": lambda v: v == 0, "ogt": lambda v: v > 0, "oge": lambda v: v >= 0,
    "olt": lambda v: v < 0, "ole": lambda v: v <= 0, "one": lambda v: v != 0 and v == v,
    "ueq": lambda v: v != v or v == 0, "ugt": lambda v: v != v or v > 0,
    "uge": lambda v: v != v or v >= 0, "ult": lambda v: v != v or v < 0,
    "ule": lambda v: v != v or v <= 0, "une": lambda v: v != v or v != 0,
}  # fmt: skip


def _assert_program(pred: str) -> str:
    t = "tensor<4x16xf32>"
    idm = "affine_map<(d0, d1) -> (d0, d1)>"
    return f"""func.func @main(%a0: {t}) -> {t} {{
  %z = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = ["parallel", "parallel"]}} ins(%a0 : {t}) outs(%e : {t}) {{
  ^bb0(%x0: f32, %o: f32):
    %p = arith.cmpf {pred}, %x0, %z : f32
    cf.assert %p, "guard"
    %y = arith.negf %x0 : f32
    linalg.yield %y : f32
  }} -> {t}
  return %r : {t}
}}
"""


@pytest.mark.parametrize("pred", sorted(_PRED))
def test_cf_assert_of_every_cmpf_predicate_both_sides(pred: str):
    """Every cmpf predicate a cf.assert guard lowers (D21: a TDIV zero-divisor fault exactly
    where the assertion fails): for -1, -0, +0, 1 and NaN against 0, the lowered program
    faults iff the predicate is false, and else computes the body. Seed 4304:
    ``conversion.py:190 const 0->1#3`` (ult's guard never failed) and its table neighbours."""
    m = parse_module_text(_assert_program(pred))
    PTOLowerPass(level="tile").apply(build_context(), m)
    m.verify()
    for v in (-1.0, -0.0, 0.0, 1.0, math.nan):
        x = np.full((4, 16), 7.0, np.float32)
        x[1, 3] = v
        if _PRED[pred](v) and _PRED[pred](7.0):
            (got,) = run(m, "main", x)
            assert np.array_equal(np.asarray(got), -x, equal_nan=True), (pred, v)
        else:
            with pytest.raises(PTOFault):
                run(m, "main", x)


@pytest.mark.parametrize(("body", "kind"), [("arith.addf", "add"), ("arith.subf", "sub"),
                                            ("arith.mulf", "mul"), ("arith.divf", "div")])  # fmt: skip
def test_row_broadcast_binary_is_the_fused_expand(body: str, kind: str):
    """``x*x <op> b[r]`` (a body of two ops, the elementwise table's path) with b broadcast
    along the row (map (d0, 0)) is one fused TROWEXPAND<op> (``pto.expand row <op>``), not a
    materialised copy and a TEPL binary, and computes numpy's float32 result. Seed 4304: ``elementwise.py:202 cmp NotIn->In``
    (EXPAND_OPS, the kinds that take the fused form)."""
    t, bt = "tensor<4x16xf32>", "tensor<4x1xf32>"
    text = f"""func.func @main(%x: {t}, %b: {bt}) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%x, %b : {t}, {bt}) outs(%e : {t}) {{
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    %y = {body} %s, %c : f32
    linalg.yield %y : f32
  }} -> {t}
  return %r : {t}
}}
"""
    m = parse_module_text(text)
    ConvertLinalgToPtoPass().apply(build_context(), m)
    ir = str(m)
    assert f"pto.expand row {kind}" in ir, ir
    assert ir.count(f"pto.elementwise {kind} ") == (kind == "mul"), ir  # x*x alone
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 16)).astype(np.float32)
    b = (rng.standard_normal((4, 1)) + 3).astype(np.float32)
    (got,) = run(m, "main", x, b)
    xx = x * x
    want = {"add": xx + b, "sub": xx - b, "mul": xx * b, "div": xx / b}[kind]
    assert np.array_equal(np.asarray(got), want)


def test_integer_scalar_argument_operand_is_sign_extended():
    """``x + s`` with ``s`` an i32 function argument (not a constant) captured by the body:
    the scalar becomes the i64 word of pto.map (arith.extsi), and the sum wraps like
    numpy's int32. Seed 4304: ``elementwise.py:326 const 0->1`` (no test reached the
    non-constant integer scalar)."""
    t = "tensor<4x16xi32>"
    idm = "affine_map<(d0, d1) -> (d0, d1)>"
    text = f"""func.func @main(%x: {t}, %s: i32) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = ["parallel", "parallel"]}} ins(%x : {t}) outs(%e : {t}) {{
  ^bb0(%a: i32, %o: i32):
    %y = arith.addi %a, %s : i32
    linalg.yield %y : i32
  }} -> {t}
  return %r : {t}
}}
"""
    m = parse_module_text(text)
    ConvertLinalgToPtoPass().apply(build_context(), m)
    assert "linalg.generic" not in str(m) and "arith.extsi" in str(m), str(m)
    x = np.arange(64, dtype=np.int32).reshape(4, 16) * 33_554_432  # up to 2^31 - 2^25
    for s in (-7, 2**31 - 1):
        (got,) = run(m, "main", x, s)
        assert np.array_equal(np.asarray(got), x + np.int32(s)), s


def test_reduce_max_with_an_unused_index_result_lowers():
    """torch-mlir's ReduceMax: a two-result generic (max, arg-max index) whose index is
    unused drops that result and lowers to TROWMAX (DropDeadGenericResults), computing the
    row maxima. Seed 4304: ``reductions.py:135 cmp Eq->NotEq`` (no test reached it)."""
    text = """func.func @main(%x: tensor<4x16xf32>) -> tensor<4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0 : i64
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi64>
  %idx = linalg.fill ins(%z : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%init, %idx : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %i = linalg.index 1 : index
    %ic = arith.index_cast %i : index to i64
    %c = arith.cmpf ogt, %in, %out : f32
    %s = arith.select %c, %ic, %out_0 : i64
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m, %s : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0 : tensor<4xf32>
}
"""
    m = parse_module_text(text)
    ConvertLinalgToPtoPass().apply(build_context(), m)
    ir = str(m)
    assert "linalg.generic" not in ir and "pto.reduce rowmax" in ir, ir
    x = np.random.default_rng(3).standard_normal((4, 16)).astype(np.float32)
    (got,) = run(m, "main", x)
    assert np.array_equal(np.asarray(got), x.max(axis=1))


def test_floor_mod_idiom_with_a_row_broadcast_divisor():
    """The signed floor-modulo idiom (remsi + sign fix) whose divisor is broadcast along the
    row (map (d0, 0)) becomes pto.floor_mod of the materialised operands (TREM) and gives
    Python's ``%`` (the sign of the divisor). Seed 4304: ``elementwise.py:584 const 0->1``
    (no test reached the broadcast form)."""
    t, bt, idm = "tensor<4x16xi32>", "tensor<4x1xi32>", "affine_map<(d0, d1) -> (d0, d1)>"
    text = f"""func.func @main(%a: {t}, %b: {bt}) -> {t} {{
  %z = arith.constant 0 : i32
  %e = tensor.empty() : {t}
  %o = linalg.generic {{indexing_maps = [{idm}, affine_map<(d0, d1) -> (d0, 0)>, {idm}], iterator_types = ["parallel", "parallel"]}} ins(%a, %b : {t}, {bt}) outs(%e : {t}) {{
  ^bb0(%x: i32, %y: i32, %out: i32):
    %r = arith.remsi %x, %y : i32
    %nz = arith.cmpi ne, %r, %z : i32
    %bn = arith.cmpi slt, %y, %z : i32
    %rn = arith.cmpi slt, %r, %z : i32
    %s = arith.xori %bn, %rn : i1
    %fix = arith.andi %nz, %s : i1
    %sum = arith.addi %r, %y : i32
    %res = arith.select %fix, %sum, %r : i32
    linalg.yield %res : i32
  }} -> {t}
  return %o : {t}
}}
"""
    m = parse_module_text(text)
    ConvertLinalgToPtoPass().apply(build_context(), m)
    assert "linalg.generic" not in str(m) and "pto.floor_mod" in str(m), str(m)
    a = np.arange(-32, 32, dtype=np.int32).reshape(4, 16) * 7
    b = np.array([[5], [-5], [3], [-64]], np.int32)
    (got,) = run(m, "main", a, b)
    want = [[int(a[i, j]) % int(b[i, 0]) for j in range(16)] for i in range(4)]
    assert np.asarray(got).tolist() == want


def test_select_of_two_scalars_on_an_outside_condition_is_scalar_control():
    """``x + (c ? s : u)`` with c, s, u function arguments: the select of two scalars on a
    condition from outside the body is one scalar arith.select (no tile compare), and the
    sums are numpy's for both conditions. Seed 4304: ``compare_select.py:223 cmp Eq->NotEq``."""
    t, idm = "tensor<4x16xf32>", "affine_map<(d0, d1) -> (d0, d1)>"
    text = f"""func.func @main(%x: {t}, %c: i1, %s: f32, %u: f32) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = ["parallel", "parallel"]}} ins(%x : {t}) outs(%e : {t}) {{
  ^bb0(%a: f32, %o: f32):
    %v = arith.select %c, %s, %u : f32
    %y = arith.addf %a, %v : f32
    linalg.yield %y : f32
  }} -> {t}
  return %r : {t}
}}
"""
    m = parse_module_text(text)
    ConvertLinalgToPtoPass().apply(build_context(), m)
    ir = str(m)
    assert "linalg.generic" not in ir and "pto.cmpsel" not in ir, ir
    assert "arith.select %c, %s, %u : f32" in ir, ir
    x = np.random.default_rng(5).standard_normal((4, 16)).astype(np.float32)
    for c in (0, 1):
        (got,) = run(m, "main", x, c, np.float32(2.5), np.float32(-0.75))
        assert np.array_equal(np.asarray(got), x + np.float32(2.5 if c else -0.75)), c
