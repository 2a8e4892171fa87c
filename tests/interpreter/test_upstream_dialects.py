"""Upstream ops xDSL 0.75 lacks: arith.remf, linalg.vecmat/matvec, mixed-type matmul."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, get_all_dialects
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from pto_dialect.upstream import (
    WINDOW_OP_CLASSES,
    WINDOW_OPS,
    GenericOp,
    MatmulOp,
    MatvecOp,
    RemFOp,
    VecmatOp,
    register_upstream_overrides,
    upstream_dialects,
)

PROGRAM = """\
builtin.module {
  func.func @f(%a : tensor<1x8xbf16>, %b : tensor<8x4xbf16>, %c : tensor<1x4xf32>, %x : tensor<8xf16>, %m : tensor<4x8xf16>, %y : tensor<4xf32>, %s : f32) -> (tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, f32) {
    %0 = linalg.matmul ins(%a, %b : tensor<1x8xbf16>, tensor<8x4xbf16>) outs(%c : tensor<1x4xf32>) -> tensor<1x4xf32>
    %1 = linalg.vecmat ins(%x, %m : tensor<8xf16>, tensor<4x8xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
    %2 = linalg.matvec ins(%m, %x : tensor<4x8xf16>, tensor<8xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
    %3 = arith.remf %s, %s fastmath<nnan,ninf> : f32
    func.return %0, %1, %2, %3 : tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, f32
  }
}
"""


def _ctx(override: bool = True) -> Context:
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    if override:
        register_upstream_overrides(ctx)
    return ctx


def test_xdsl_lacks_the_ops_we_add():
    """Checked once: if xDSL grows these, our definitions must be revisited."""
    names = {op.name for op in Linalg.operations} | {op.name for op in arith.Arith.operations}
    assert "arith.remf" not in names
    assert "linalg.vecmat" not in names and "linalg.matvec" not in names
    for present in ("arith.remsi", "arith.remui", "arith.select", "arith.cmpf", "arith.cmpi"):
        assert present in names


def _parse(text: str):
    module = Parser(_ctx(), text).parse_module()
    module.verify()
    return module


VALID = PROGRAM.replace(
    "%1 = linalg.vecmat ins(%x, %m : tensor<8xf16>, tensor<4x8xf16>)",
    "%1 = linalg.vecmat ins(%x, %n : tensor<8xf16>, tensor<8x4xf16>)",
).replace("%s : f32)", "%s : f32, %n : tensor<8x4xf16>)")


def test_parse_print_round_trip():
    module = _parse(VALID)
    printed = str(module)
    assert (
        "linalg.vecmat ins(%x, %n : tensor<8xf16>, tensor<8x4xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>"
        in printed
    )
    assert "linalg.matvec ins(%m, %x : tensor<4x8xf16>, tensor<8xf16>)" in printed
    assert "arith.remf %s, %s fastmath<nnan,ninf> : f32" in printed
    assert str(_parse(printed)) == printed
    ops = [type(op) for op in module.walk()]
    assert MatmulOp in ops and VecmatOp in ops and MatvecOp in ops and RemFOp in ops


def test_mixed_matmul_body_casts_to_the_output_type():
    """Upstream OpDSL cast_signed: bf16 x bf16 -> f32 extends both inputs first."""
    module = _parse(VALID)
    matmul = next(op for op in module.walk() if isinstance(op, MatmulOp))
    assert isinstance(matmul, xlinalg.MatmulOp)  # still an xDSL matmul for passes
    body = [op.name for op in matmul.body.block.ops]
    assert body == ["arith.extf", "arith.extf", "arith.mulf", "arith.addf", "linalg.yield"]
    assert matmul.body.block.last_op.operands[0].owner.operands[0] is matmul.body.block.args[2]


MATMUL_ONLY = """
func.func @f(%a : tensor<1x8xbf16>, %b : tensor<8x4xbf16>, %c : tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1x8xbf16>, tensor<8x4xbf16>) outs(%c : tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}"""


def test_xdsl_matmul_rejects_mixed_types_ours_accepts():
    text = MATMUL_ONLY
    with pytest.raises(DiagnosticException):
        Parser(_ctx(override=False), text).parse_module().verify()
    _parse(text)


@pytest.mark.parametrize(
    "op_text",
    [
        "linalg.vecmat ins(%m, %x : tensor<4x8xf16>, tensor<8xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>",
        "linalg.matvec ins(%x, %m : tensor<8xf16>, tensor<4x8xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>",
        "linalg.matvec ins(%m, %m : tensor<4x8xf16>, tensor<4x8xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>",
    ],
)
def test_contraction_verifier_rejects_wrong_ranks(op_text):
    text = f"""
func.func @f(%x : tensor<8xf16>, %m : tensor<4x8xf16>, %y : tensor<4xf32>) -> tensor<4xf32> {{
  %0 = {op_text}
  func.return %0 : tensor<4xf32>
}}"""
    with pytest.raises((VerifyException, DiagnosticException, ParseError)):
        _parse(text)


def test_matvec_shape_mismatch_rejected():
    text = """
func.func @f(%m : tensor<4x8xf16>, %x : tensor<7xf16>, %y : tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.matvec ins(%m, %x : tensor<4x8xf16>, tensor<7xf16>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}"""
    with pytest.raises((VerifyException, DiagnosticException)):
        _parse(text)


def test_override_after_load_and_idempotent():
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    ctx.load_registered_dialect("linalg")
    ctx.load_registered_dialect("arith")
    assert ctx.get_op("linalg.matmul") is xlinalg.MatmulOp
    register_upstream_overrides(ctx)
    register_upstream_overrides(ctx)
    assert ctx.get_op("linalg.matmul") is MatmulOp
    assert ctx.get_op("linalg.vecmat") is VecmatOp
    assert ctx.get_op("arith.remf") is RemFOp
    generic = ctx.get_op("linalg.generic")
    assert generic is GenericOp and issubclass(generic, xlinalg.GenericOp)


def test_override_on_empty_context_and_dialect_contents():
    ctx = Context()
    register_upstream_overrides(ctx)
    assert ctx.get_op("arith.addf") is arith.AddfOp
    linalg_d, arith_d, tm_d = upstream_dialects()
    assert {op.name for op in tm_d.operations} == {"tm_tensor.sort", "tm_tensor.yield"}
    assert {op.name for op in linalg_d.operations} == {op.name for op in Linalg.operations} | {
        "linalg.vecmat",
        "linalg.matvec",
        "linalg.batch_matmul",
    } | {spec.name for spec in WINDOW_OPS}
    assert MatmulOp in list(linalg_d.operations)
    for window in WINDOW_OP_CLASSES:  # ours replace xDSL's conv_2d_* and pooling_nchw_max
        assert ctx.get_op(window.name) is window
    assert xlinalg.MatmulOp not in list(linalg_d.operations)
    assert RemFOp in list(arith_d.operations)


def test_hex_float_in_a_dense_literal_is_a_bit_pattern():
    """MLIR prints -inf / NaN elements of a float dense constant as hexadecimal bit
    patterns (a causal mask: ``dense<[[0.0, 0xFF800000], ...]>``); they are read as bits,
    as for a scalar (pto_dialect/upstream/xdsl_fixes.py)."""
    import numpy as np

    from interpreter.ssa.runner import run

    text = """func.func @main() -> tensor<4xf32> {
  %c = arith.constant dense<[0.0, 0xFF800000, 0x7F800000, 0x3F800000]> : tensor<4xf32>
  return %c : tensor<4xf32>
}"""
    (got,) = run(text, "main")
    np.testing.assert_array_equal(got, np.array([0.0, -np.inf, np.inf, 1.0], np.float32))


_SORT = """func.func @main(%v: tensor<2x5xf32>, %i: tensor<2x5xi64>) -> (tensor<2x5xf32>, tensor<2x5xi64>) {
  %s:2 = tm_tensor.sort dimension(1) outs(%v, %i : tensor<2x5xf32>, tensor<2x5xi64>) {
  ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
    %c = arith.cmpf oge, %a, %b : f32
    tm_tensor.yield %c : i1
  } -> tensor<2x5xf32>, tensor<2x5xi64>
  return %s#0, %s#1 : tensor<2x5xf32>, tensor<2x5xi64>
}"""


def test_tm_tensor_sort_is_a_stable_descending_sort_with_its_indices():
    """torch-mlir's TopK: ``oge`` puts larger first, equal values keep their order (the
    indices say which); hand-derived expectations."""
    import numpy as np
    import pytest

    from interpreter.ssa.runner import RunError, parse_module_text, run

    v = np.array([[1.0, 3.0, 2.0, 3.0, -1.0], [0.5, 0.5, 0.5, 9.0, -0.0]], np.float32)
    i = np.tile(np.arange(5, dtype=np.int64), (2, 1))
    sv, si = run(_SORT, "main", v, i)
    np.testing.assert_array_equal(sv, [[3.0, 3.0, 2.0, 1.0, -1.0], [9.0, 0.5, 0.5, 0.5, -0.0]])
    np.testing.assert_array_equal(si, [[1, 3, 2, 0, 4], [3, 0, 1, 2, 4]])
    assert "tm_tensor.sort dimension(1)" in str(parse_module_text(_SORT))
    v[0, 2] = np.nan  # oge with a NaN ties with everything: no order
    with pytest.raises(RunError, match="strict weak order"):
        run(_SORT, "main", v, i)
