"""Tile-level interpreter functions: pto ops on TileValues (PTO-SPEC 4, 5; D8, D9, D12, D13)."""

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.interpreter import Interpreter
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.parser import Parser

from interpreter.ssa.pto_functions import PTOFunctions
from interpreter.ssa.runtime import array_from_tile, tile_from_array
from pto_dialect.dialect import PTO
from pto_dialect.faults import PTOFault


def _module(text: str) -> ModuleOp:
    ctx = Context()
    for d in (Builtin, Func, Arith, PTO):
        ctx.load_dialect(d)
    m = Parser(ctx, text).parse_module()
    m.verify()
    return m


def _call(m: ModuleOp, name: str, *args, profile="ordered"):
    interp = Interpreter(m)
    interp.register_implementations(FuncFunctions())
    interp.register_implementations(ArithFunctions())
    interp.register_implementations(PTOFunctions(profile=profile))
    return interp.call_op(name, args)


def _trem_module(t="si32", shape="8x16", valid="3x5", mask="1111"):
    ty = f"!pto.tile<{shape}x{t}, valid={valid}, pe={mask}>"
    return _module(
        f"""func.func @rem(%a: {ty}, %b: {ty}) -> {ty} {{
  %r = pto.trem %a, %b {{pad = #pto.pad<zero>, mask = #pto.mask<{mask}>}} : {ty}
  func.return %r : {ty}
}}"""
    )


def test_trem_divisor_sign_spec_example():
    """tile-exec-trem-divisor-sign: -7 rem 3 = 2, 7 rem -3 = -2 (PTO-SPEC 5, D8)."""
    m = _trem_module("si32", "8x16", "1x2")
    ty = m.body.block.first_op.function_type.inputs.data[0]
    a = tile_from_array(ty, np.array([[-7, 7]], np.int32))
    b = tile_from_array(ty, np.array([[3, -3]], np.int32))
    (r,) = _call(m, "rem", a, b)
    assert array_from_tile(r).tolist() == [[[-0 + 2, -2]]] * 4
    # Zero padding is defined and 0 (tile-state-trem-padding, D9).
    for p in r.pes:
        assert r.defined[p].all()
        assert (r.payloads[p][1:, :] == 0).all() and (r.payloads[p][0, 2:] == 0).all()


def test_trem_zero_divisor_faults_before_any_effect():
    """Integer zero in the divisor's valid rectangle -> TileLegality (D8, D12)."""
    m = _trem_module("si32", "8x16", "1x2")
    ty = m.body.block.first_op.function_type.inputs.data[0]
    a = tile_from_array(ty, np.array([[5, 6]], np.int32))
    b = tile_from_array(ty, np.array([[3, 0]], np.int32))
    before = {p: a.payloads[p].copy() for p in a.pes}
    with pytest.raises(PTOFault) as e:
        _call(m, "rem", a, b)
    assert e.value.kind == "TileLegality"
    assert all((a.payloads[p] == before[p]).all() for p in a.pes)


def test_trem_per_pe_payloads():
    """Each PE computes on its own payload (D13)."""
    m = _trem_module("si32", "8x16", "2x3", "1100")
    ty = m.body.block.first_op.function_type.inputs.data[0]
    a = tile_from_array(ty, np.arange(12, dtype=np.int32).reshape(2, 2, 3) - 5)
    b = tile_from_array(ty, np.full((2, 3), -4, np.int32))
    (r,) = _call(m, "rem", a, b)
    expect = [[[x % -4 for x in row] for row in pe] for pe in (np.arange(12).reshape(2, 2, 3) - 5).tolist()]
    assert array_from_tile(r).tolist() == expect


GEMV = """
func.func @g(%a: !pto.tile<1x1xf16, cube_m16, mat>, %b: !pto.tile<1x1xf16, cube_n8, mat>,
             %bias: !pto.tile<1x32xf32, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat> {
  %d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x1xf16, cube_m16, mat>,
      !pto.tile<1x1xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x1>)
      -> !pto.tile<1x1xf32, cube_m16, mat>
  func.return %d : !pto.tile<1x1xf32, cube_m16, mat>
}
"""


def test_tgemv_exact_and_raw_carrier_spec_example():
    """block-exec-bstart-tgemvmx-bias-add: raw A=2, B=3, Bias=5 -> 11 (PTO-SPEC 6, D4)."""
    m = _module(GEMV)
    ta, tb, tbias = m.body.block.first_op.function_type.inputs.data
    a = tile_from_array(ta, np.array([[2]], np.uint16))
    b = tile_from_array(tb, np.array([[3]], np.uint16))
    bias = tile_from_array(tbias, np.array([[5]], np.uint32))
    (d,) = _call(m, "g", a, b, bias, profile="raw-carrier")
    # D4 raw-carrier: the destination holds the raw payload word 11 (an int64 word), not
    # the float 11.0 (asl/arch/profile/reference-profile.asl TileProfileMatrixScaledAccumulate)
    words = array_from_tile(d)
    assert words.dtype == np.int64 and words[0, 0, 0] == 11
    a = tile_from_array(ta, np.array([[2.0]], np.float16))
    b = tile_from_array(tb, np.array([[3.0]], np.float16))
    bias = tile_from_array(tbias, np.array([[5.0]], np.float32))
    (d,) = _call(m, "g", a, b, bias)
    assert array_from_tile(d).tolist() == [[[11.0]]] * 4


def test_tgemv_a2a3_faults_illegal_instruction():
    """The a2a3 profile rejects MX functions as IllegalInstruction (D15) at run time too."""
    m = _module(GEMV)
    ta, tb, tbias = m.body.block.first_op.function_type.inputs.data
    from pto_dialect.attributes import TargetAttr, TargetProfile

    m.attributes["pto.target"] = TargetAttr(TargetProfile.A2A3)
    args = (
        tile_from_array(ta, np.array([[2.0]], np.float16)),
        tile_from_array(tb, np.array([[3.0]], np.float16)),
        tile_from_array(tbias, np.array([[5.0]], np.float32)),
    )
    with pytest.raises(PTOFault) as e:
        _call(m, "g", *args)
    assert e.value.kind == "IllegalInstruction"


@pytest.mark.parametrize("dtype", [np.float32, np.int8, "float8_e5m2", "bfloat16"])
def test_join_columns_views_adjacent_slices_and_copies_others(dtype):
    """PE column batching: adjacent windows of one array join as a view, others are copied;
    both give the same values, for numpy and ml_dtypes element types."""
    import ml_dtypes

    from interpreter.ssa.pto_functions import _join_columns

    dt = np.dtype(getattr(ml_dtypes, dtype)) if isinstance(dtype, str) else np.dtype(dtype)
    base = (np.arange(6 * 16) % 7).astype(np.float32).reshape(6, 16).astype(dt)
    parts = [base[1:5, 4 * i : 4 * i + 4] for i in range(4)]
    joined = _join_columns(parts)
    assert np.shares_memory(joined, base)
    assert joined.tobytes() == np.ascontiguousarray(base[1:5, :]).tobytes()
    gap = [base[1:5, 0:4], base[1:5, 8:12]]
    copied = _join_columns(gap)
    assert not np.shares_memory(copied, base)
    assert copied.tobytes() == np.concatenate(gap, axis=1).tobytes()
