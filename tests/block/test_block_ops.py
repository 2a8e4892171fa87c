"""Block IR, pto-form-blocks, pto-asm/pto-bin and decoded execution (PTO-SPEC 2-7;
D4, D8, D9, D11-D15). Expected values are hand-derived from the spec examples or Python's
``%`` on ints, never from the kernels under test."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.interpreter import Interpreter
from xdsl.interpreters.func import FuncFunctions
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from interpreter.ssa.block_functions import PTOBlockFunctions
from interpreter.ssa.pto_functions import PTOFunctions
from interpreter.ssa.runtime import array_from_tile, tile_from_array
from passes.pto_assign_registers import PTOAssignRegistersPass
from passes.pto_form_blocks import PTOFormBlocksPass
from passes.pto_targets import parse_asm, parse_hex, print_asm, print_hex
from pto_dialect import isa
from pto_dialect.block_ops import BlockOp
from pto_dialect.dialect import PTO
from pto_dialect.faults import PTOFault


def _ctx() -> Context:
    ctx = Context()
    for d in (Builtin, Func, Arith, PTO):
        ctx.load_dialect(d)
    return ctx


def _module(text: str) -> ModuleOp:
    m = Parser(_ctx(), text).parse_module()
    m.verify()
    return m


def _bundled(text: str) -> ModuleOp:
    m = _module(text)
    PTOFormBlocksPass().apply(_ctx(), m)
    PTOAssignRegistersPass().apply(_ctx(), m)
    m.verify()
    return m


def _call(m: ModuleOp, name: str, *args, profile="ordered"):
    interp = Interpreter(m)
    interp.register_implementations(FuncFunctions())
    interp.register_implementations(PTOFunctions(profile))
    interp.register_implementations(PTOBlockFunctions(profile))
    return interp.call_op(name, args)


def _inputs(m: ModuleOp, name: str):
    f = next(op for op in m.walk() if getattr(op, "sym_name", None) and op.sym_name.data == name)
    return f.function_type.inputs.data


GEMV = """
func.func @g(%a: !pto.tile<1x1xf16, cube_m16, mat>, %b: !pto.tile<1x1xf16, cube_n8, mat>,
             %bias: !pto.tile<1x32xf32, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat> {
  %d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x1xf16, cube_m16, mat>,
      !pto.tile<1x1xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x1>)
      -> !pto.tile<1x1xf32, cube_m16, mat>
  func.return %d : !pto.tile<1x1xf32, cube_m16, mat>
}
"""

TREM = """
func.func @rem(%a: !pto.tile<4x8xsi32, valid=1x2>, %b: !pto.tile<4x8xsi32, valid=1x2>)
    -> !pto.tile<4x8xsi32, valid=1x2> {
  %r = pto.trem %a, %b {pad = #pto.pad<zero>} : !pto.tile<4x8xsi32, valid=1x2>
  func.return %r : !pto.tile<4x8xsi32, valid=1x2>
}
"""

TREM_U32 = TREM.replace("si32", "ui32")


def _blocks(m: ModuleOp) -> list[BlockOp]:
    return [op for op in m.walk() if isinstance(op, BlockOp)]


# ---- pto-form-blocks: canonical forms ------------------------------------------------------


def test_form_gemv_canonical_asm_spec_example():
    """PTO-SPEC 6 block-exec-bstart-tgemvmx-bias-add: {A,B} then {Bias, ->D, last}; no B.DATR
    (BType = AType, RMode default, no Sat), no B.DIM (M = N = K = 1), one B.FPATR (D11)."""
    m = _bundled(GEMV)
    assert print_asm(m) == (
        "BSTART.TGEMVMX.BIAS FP16\n"
        "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n"
        "B.IOT m#1, n#1, mask=1111\n"
        "B.IOT t#1, mask=1111, last, ->m<128B>\n"
        "BSTOP\n"
    )
    # The BSTART word of the conformance test block-decode-...-canonical-001 (FP16 = 4).
    assert isa.encode(isa.BStart.op("TGEMV_MX_BIAS", 0)) == 0x01531181
    assert print_hex(m).splitlines()[0] == "0x21531181"


def test_form_trem_canonical_elides_defaults():
    """PTO-SPEC 5: LB0 = ValidCol always; LB1 (ValidRow = 1) and LB2 (Col = ValidCol) elided
    only when default; B.DATR only for a non-Null pad."""
    m = _bundled(TREM)
    assert print_asm(m) == (
        "BSTART.SFU TREM, S32\n"
        "B.DATR NORM, FP64, Zero\n"
        "C.B.DIMI 2, ->lb0\n"
        "C.B.DIMI 8, ->lb2\n"
        "B.IOT t#1, t#2, mask=1111, last, ->t<128B>\n"
        "BSTOP\n"
    )
    null = _bundled(TREM.replace(" {pad = #pto.pad<zero>}", ""))
    assert "B.DATR" not in print_asm(null)


def test_form_mx_scales_stream_order_and_dims():
    """Sources A, As, B, Bs, Bias packed two per B.IOT; LB1 = N, LB2 = K (PTO-SPEC 4)."""
    text = """
func.func @g(%a: !pto.tile<1x64xf8E4M3FN, cube_m16, mat>, %as: !pto.tile<1x128xf8E8M0FNU, valid=1x2>,
             %b: !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, %bs: !pto.tile<2x64xf8E8M0FNU, valid=2x32>,
             %bias: !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat> {
  %d = pto.tgemv_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
  func.return %d : !pto.tile<1x32xf32, cube_m16, mat>
}
"""
    lines = print_asm(_bundled(text)).splitlines()
    assert lines == [
        "BSTART.TGEMVMX.BIAS E4M3",
        "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0",
        "C.B.DIMI 32, ->lb1",
        "C.B.DIMI 64, ->lb2",
        "B.IOT m#1, u#1, mask=1111",
        "B.IOT n#1, u#2, mask=1111",
        lines[6],
        "BSTOP",
    ]
    assert lines[6].startswith("B.IOT t#1, mask=1111, last, ->m<")


def test_register_exhaustion_is_tile_allocation():
    """PTO-SPEC 2: 16 registers per hand; a 17th live T tile -> [TileAllocation]."""
    from xdsl.utils.exceptions import PassFailedException

    ty = "!pto.tile<4x8xsi32>"
    args = ", ".join(f"%a{i}: {ty}" for i in range(16))
    body = f"  %r = pto.trem %a0, %a1 : {ty}\n"
    rets = ", ".join([f"%a{i}" for i in range(16)] + ["%r"])
    text = (
        f"func.func @f({args}) -> ({', '.join([ty] * 17)}) {{\n{body}"
        f"  func.return {rets} : {', '.join([ty] * 17)}\n}}"
    )
    m = _module(text)
    PTOFormBlocksPass().apply(_ctx(), m)
    with pytest.raises(
        PassFailedException, match=r"\[TileAllocation\] 'pto.block' needs a register in hand t"
    ):
        PTOAssignRegistersPass().apply(_ctx(), m)


def test_register_release_after_last_use():
    """A source whose last use is a block frees its register for later destinations."""
    ty = "!pto.tile<4x8xsi32>"
    text = f"""
func.func @f(%a: {ty}, %b: {ty}) -> {ty} {{
  %r = pto.trem %a, %b : {ty}
  %s = pto.trem %r, %r : {ty}
  func.return %s : {ty}
}}"""
    asm = print_asm(_bundled(text))
    # %r is allocated while %a, %b are live (t#3); %s reads t#3 twice.
    assert "B.IOT t#1, t#2, mask=1111, last, ->t<128B>" in asm
    assert "B.IOT t#3, t#3, mask=1111, last, ->t<128B>" in asm


# ---- round trips -----------------------------------------------------------------------------


def test_asm_and_hex_round_trips():
    m = _bundled(GEMV + TREM)
    asm = print_asm(m)
    hexa = print_hex(m)
    assert print_asm(parse_asm(asm)) == asm
    assert print_hex(parse_hex(hexa)) == hexa
    assert print_asm(parse_hex(hexa)) == asm
    # IR text round trip of the linked form.
    out = io.StringIO()
    Printer(stream=out).print_op(m)
    again = _module(out.getvalue())
    assert print_asm(again) == asm


# ---- block verifier: one negative test per structural rule ---------------------------------

_TREM_OK = [
    "BSTART.SFU TREM, S32",
    "C.B.DIMI 2, ->lb0",
    "B.IOT t#1, t#2, mask=1111, last, ->t<128B>",
    "BSTOP",
]
_GEMV_OK = [
    "BSTART.TGEMVMX.BIAS FP16",
    "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0",
    "B.IOT m#1, n#1, mask=1111",
    "B.IOT t#1, mask=1111, last, ->m<128B>",
    "BSTOP",
]


def _verify_asm(lines: list[str], target: str | None = None):
    m = parse_asm("\n".join(lines))
    if target:
        from pto_dialect.attributes import TargetAttr, TargetProfile

        m.attributes["pto.target"] = TargetAttr(TargetProfile(target))
    m.verify()


@pytest.mark.parametrize(
    "lines, kind, what",
    [
        (_GEMV_OK[:1] + _GEMV_OK[2:], "BundleControl", "no B.FPATR"),
        (_GEMV_OK[:2] + _GEMV_OK[1:], "BundleControl", "duplicate B.FPATR"),
        (_TREM_OK[:1] + ["B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0"] + _TREM_OK[1:], "BundleControl",
         "B.FPATR in a non-CUBE block"),
        (_TREM_OK[:3] + ["B.IOT t#3, mask=1111"] + _TREM_OK[3:], "BundleControl", "after"),
        (_TREM_OK[:2] + ["C.B.DIMI 3, ->lb0"] + _TREM_OK[2:], "BundleControl", "LB0 written twice"),
        (_TREM_OK[:2] + ["B.IOT t#1, mask=1111"] * 4 + _TREM_OK[2:], "TileLegality",
         "more than 4 effective B.IOT"),
        (_TREM_OK[:3], "BundleControl", "missing BSTOP"),
        (["BSTART.CUBE 8, FP16"] + _GEMV_OK[1:], "IllegalInstruction", "reserved"),
        (["BSTART.TEPL 0, 5, S32"] + _TREM_OK[1:], "IllegalInstruction", "not assigned"),
        (["BSTART.SFU TREM, HiF8"] + _TREM_OK[1:], "TileLegality", "TREM does not support"),
        (_TREM_OK[:2] + ["B.IOT t#1, t#2, mask=1000, last, ->t<128B>"]
         + ["B.IOT t#3, mask=1111"] + _TREM_OK[3:], "BundleControl", "after"),
    ],
)
def test_block_verifier_faults(lines, kind, what):
    """PTO-SPEC 3.2-3.5 structural rules, reported with their fault class (D12)."""
    with pytest.raises(VerifyException, match=rf"\[{kind}\].*{what}"):
        _verify_asm(lines)


def test_a2a3_rejects_every_mx_function():
    """D15: the six MX CUBE functions fault IllegalInstruction on a2a3, before operand checks."""
    mx = [f for f in isa.CUBE_FUNCTIONS.values() if f.is_mx]
    assert len(mx) == 6
    for f in mx:
        lines = [f"BSTART.{f.mnemonic} FP16"] + _GEMV_OK[1:]
        with pytest.raises(VerifyException, match=r"\[IllegalInstruction\].*a2a3"):
            _verify_asm(lines, "a2a3")
    _verify_asm(_GEMV_OK, "a5")


def test_linked_block_type_mismatch_and_size_code():
    """Linked blocks are checked against their tile types: LB vs ValidCol (TileLegality) and a
    destination SizeCode smaller than the result capacity (TileAllocation)."""
    m = _bundled(TREM)
    blk = _blocks(m)[0]
    dim = next(op for op in blk.body.block.ops if op.name == "pto.b.dimi")
    from xdsl.dialects.builtin import IntAttr

    dim.properties["imm"] = IntAttr(3)
    with pytest.raises(VerifyException, match=r"\[TileLegality\] LB0 \(ValidCol\) is 3"):
        blk.verify()
    dim.properties["imm"] = IntAttr(2)
    blk.verify()
    big = _bundled(TREM.replace("4x8xsi32", "8x8xsi32"))
    iot = next(op for op in _blocks(big)[0].body.block.ops if op.name == "pto.b.iot")
    iot.properties["size_code"] = IntAttr(1)
    with pytest.raises(VerifyException, match=r"\[TileAllocation\]"):
        _blocks(big)[0].verify()


# ---- decoded execution ------------------------------------------------------------------------


def test_decoded_gemv_raw_carrier_spec_example():
    """block-exec-bstart-tgemvmx-bias-add: raw A=2, B=3, Bias=5 -> D = 11 (PTO-SPEC 6, D4)."""
    m = _bundled(GEMV)
    ta, tb, tbias = _inputs(m, "g")
    a = tile_from_array(ta, np.array([[2]], np.uint16))
    b = tile_from_array(tb, np.array([[3]], np.uint16))
    bias = tile_from_array(tbias, np.array([[5]], np.uint32))
    (d,) = _call(m, "g", a, b, bias, profile="raw-carrier")
    assert array_from_tile(d)[:, 0, 0].tolist() == [11] * 4


def _rem_args(m, a, b, t="int32"):
    ta, tb = _inputs(m, "rem")
    return tile_from_array(ta, np.array([a], t)), tile_from_array(tb, np.array([b], t))


def test_decoded_trem_divisor_sign_and_zero_padding():
    """tile-exec-trem-divisor-sign-001: -7 rem 3 = 2, 7 rem -3 = -2 (D8); Zero padding is
    defined and 0 (tile-state-trem-padding-001, D9)."""
    m = _bundled(TREM)
    (r,) = _call(m, "rem", *_rem_args(m, [-7, 7], [3, -3]))
    assert array_from_tile(r)[0].tolist() == [[-7 % 3, 7 % -3]] == [[2, -2]]
    p = r.payloads[0]
    dfn = r.defined[0]
    assert dfn.all() and (p.reshape(4, 8)[:, 2:] == 0).all() and (p.reshape(4, 8)[1:] == 0).all()


@pytest.mark.parametrize("text, t", [(TREM, "int32"), (TREM_U32, "uint32")])
def test_decoded_trem_integer_zero_divisor_faults(text, t):
    """D8: an integer zero in the divisor's valid rectangle -> TileLegality, no effect."""
    m = _bundled(text)
    with pytest.raises(PTOFault) as e:
        _call(m, "rem", *_rem_args(m, [5, 6], [1, 0], t))
    assert e.value.kind == "TileLegality"


def test_decoded_structure_faults_before_effect():
    """Missing B.FPATR -> BundleControl; B.FPATR in TREM -> BundleControl (PTO-SPEC 3.3),
    raised by the decoded dispatch itself (the verifier is bypassed here)."""
    m = _bundled(GEMV)
    fp = next(op for op in m.walk() if op.name == "pto.b.fpatr")
    fp.detach()
    ta, tb, tbias = _inputs(m, "g")
    args = [tile_from_array(t, np.array([[1]], d)) for t, d in
            ((ta, np.uint16), (tb, np.uint16), (tbias, np.uint32))]
    with pytest.raises(PTOFault) as e:
        _call(m, "g", *args)
    assert e.value.kind == "BundleControl" and "no B.FPATR" in e.value.message
    m2 = _bundled(TREM)
    blk = _blocks(m2)[0]
    start = blk.body.block.first_op
    from pto_dialect.block_ops import BlockCommandOp

    blk.body.block.insert_op_after(BlockCommandOp.from_command(isa.BFpatr()), start)
    with pytest.raises(PTOFault) as e:
        _call(m2, "rem", *_rem_args(m2, [1, 2], [3, 4]))
    assert e.value.kind == "BundleControl" and "non-CUBE" in e.value.message


def test_decoded_a2a3_mx_is_illegal_instruction():
    from pto_dialect.attributes import TargetAttr, TargetProfile

    m = _bundled(GEMV)
    m.attributes["pto.target"] = TargetAttr(TargetProfile.A2A3)
    ta, tb, tbias = _inputs(m, "g")
    args = [tile_from_array(t, np.array([[1]], d)) for t, d in
            ((ta, np.uint16), (tb, np.uint16), (tbias, np.uint32))]
    with pytest.raises(PTOFault) as e:
        _call(m, "g", *args)
    assert e.value.kind == "IllegalInstruction"


def test_decoded_mask_zero_is_noop():
    """PE mask 0: strict no-op, no checks (a zero divisor does not fault) (D12)."""
    m = _bundled(TREM)
    iot = next(op for op in m.walk() if op.name == "pto.b.iot")
    from xdsl.dialects.builtin import IntAttr

    iot.properties["pe_mode"] = IntAttr(0)
    (r,) = _call(m, "rem", *_rem_args(m, [5, 6], [0, 0]))
    assert not r.allocated


def test_differential_tile_level_vs_bundle():
    """The tile-level program and its pto-form-blocks form give identical results."""
    rng = np.random.default_rng(7)
    for text, name, t in ((TREM, "rem", "int32"), (TREM_U32, "rem", "uint32")):
        tile_m, bundle_m = _module(text), _bundled(text)
        for _ in range(20):
            a = rng.integers(-1000 if t == "int32" else 0, 1000, size=(1, 2)).astype(t)
            b = rng.integers(1, 50, size=(1, 2)).astype(t)
            if t == "int32":
                b *= rng.choice([-1, 1], size=(1, 2)).astype(t)
            (x,) = _call(tile_m, name, *_rem_args(tile_m, a[0], b[0], t))
            (y,) = _call(bundle_m, name, *_rem_args(bundle_m, a[0], b[0], t))
            assert np.array_equal(array_from_tile(x), array_from_tile(y))
            assert array_from_tile(y)[0].tolist() == [[int(p) % int(q) for p, q in zip(a[0], b[0])]]
    tile_m, bundle_m = _module(GEMV), _bundled(GEMV)
    ta, tb, tbias = _inputs(tile_m, "g")
    for _ in range(10):
        va, vb, vc = (float(x) for x in rng.integers(-8, 8, size=3))
        args = (tile_from_array(ta, np.array([[va]], np.float16)),
                tile_from_array(tb, np.array([[vb]], np.float16)),
                tile_from_array(tbias, np.array([[vc]], np.float32)))
        (x,) = _call(tile_m, "g", *args)
        (y,) = _call(bundle_m, "g", *args)
        assert array_from_tile(y)[0].tolist() == [[va * vb + vc]]
        assert np.array_equal(array_from_tile(x), array_from_tile(y))


def test_form_gemv_datr_only_for_btype():
    """B.DATR appears when BType != AType (BF16 x E5M2 with a B scale, M32 layout)."""
    text = """
func.func @g(%a: !pto.tile<1x64xbf16, cube_m32, mat>, %b: !pto.tile<64x32xf8E5M2, cube_n8, mat>,
             %bs: !pto.tile<2x64xf8E8M0FNU, valid=2x32>, %bias: !pto.tile<1x32xf32>)
    -> !pto.tile<1x32xf32, cube_m32, mat> {
  %d = pto.tgemv_mx_bias %a, %b, b_scale %bs, %bias : (!pto.tile<1x64xbf16, cube_m32, mat>, !pto.tile<64x32xf8E5M2, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m32, mat>
  func.return %d : !pto.tile<1x32xf32, cube_m32, mat>
}
"""
    lines = print_asm(_bundled(text)).splitlines()
    assert lines[:5] == [
        "BSTART.TGEMVMX.BIAS BF16",
        "B.DATR NORM, E5M2, Zero",
        "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0",
        "C.B.DIMI 32, ->lb1",
        "C.B.DIMI 64, ->lb2",
    ]
    # A, B | Bs, Bias + D: CUBE_M32 FP32 1x32 = 32 cells of 128 B = 4 KiB (D14).
    assert lines[5:] == [
        "B.IOT m#1, n#1, mask=1111",
        "B.IOT u#1, t#1, mask=1111, last, ->m<4KB>",
        "BSTOP",
    ]


def test_runner_dispatches_blocks():
    """interpreter.ssa.runner registers PTOBlockFunctions: a bundled module runs end to end."""
    from interpreter.ssa.runner import run

    m = _bundled(TREM)
    (r,) = run(m, "rem", np.array([[-7, 7]], np.int32), np.array([[3, -3]], np.int32))
    assert r.tolist() == [[[2, -2]]] * 4


_TREM_TYPES = {"si32": np.int32, "ui32": np.uint32, "si16": np.int16, "ui16": np.uint16,
               "f32": np.float32, "f16": np.float16}


@settings(max_examples=40, deadline=None)
@given(
    t=st.sampled_from(sorted(_TREM_TYPES)),
    vr=st.integers(1, 4),
    vc=st.integers(1, 8),
    pad=st.sampled_from(["zero", "max", "min", "null"]),
    seed=st.integers(0, 2**16),
)
def test_differential_trem_property(t, vr, vc, pad, seed):
    """Any TREM tile shape/type/pad: tile level == decoded bundle, bit for bit (D6-D9)."""
    dt = np.dtype(_TREM_TYPES[t])
    bits = dt.itemsize * 8
    cols = 8
    rows = 1024 // (cols * bits)
    ty = f"!pto.tile<{rows}x{cols}x{t}, valid={vr}x{vc}>"
    text = (
        f"func.func @rem(%a: {ty}, %b: {ty}) -> {ty} {{\n"
        f"  %r = pto.trem %a, %b {{pad = #pto.pad<{pad}>}} : {ty}\n  func.return %r : {ty}\n}}"
    )
    rng = np.random.default_rng(seed)
    if dt.kind == "f":
        a = rng.normal(0, 100, (vr, vc)).astype(dt)
        b = rng.normal(0, 10, (vr, vc)).astype(dt)
    else:
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, (vr, vc), dtype=dt, endpoint=True)
        b = rng.integers(info.min, info.max, (vr, vc), dtype=dt, endpoint=True)
        b[b == 0] = 1
    outs = []
    for m in (_module(text), _bundled(text)):
        ta, tb = _inputs(m, "rem")
        (r,) = _call(m, "rem", tile_from_array(ta, a), tile_from_array(tb, b))
        outs.append(r)
    x, y = outs
    for p in x.payloads:
        assert x.payloads[p].tobytes() == y.payloads[p].tobytes()
        assert np.array_equal(x.defined[p], y.defined[p])
    if dt.kind != "f":
        want = [[int(p) % int(q) for p, q in zip(ra, rb)] for ra, rb in zip(a, b)]
        assert array_from_tile(y)[0].tolist() == want


# ---- B.CATR in linked tile blocks (asl/block/attributes/B.CATR.asl) -------------------------


def _with_catr(text: str, catr):
    m = _bundled(text)
    blk = _blocks(m)[0]
    from pto_dialect.block_ops import BlockCommandOp

    blk.body.block.insert_op_after(BlockCommandOp.from_command(catr), blk.body.block.first_op)
    return m


@pytest.mark.parametrize("catr", [isa.BCatr(far=1), isa.BCatr(atom=1, aq=1, rl=1),
                                  isa.BCatr(dr=1), isa.BCatr()])  # fmt: skip
def test_decoded_vec_block_attributes_keep_results(catr):
    """far runs locally, aq/rl/atom order memory events a sequential run does not observe,
    DR selects no operation behaviour in the ASL: the TREM results are unchanged."""
    m = _with_catr(TREM, catr)
    m.verify()
    assert _blocks(m)[0].summary().catr == catr
    (r,) = _call(m, "rem", *_rem_args(m, [-7, 7], [3, -3]))
    assert array_from_tile(r)[0].tolist() == [[2, -2]]


def test_decoded_cube_dr_is_bundle_control_and_trap_is_refused():
    from xdsl.utils.exceptions import InterpretationError

    m = _with_catr(GEMV, isa.BCatr(dr=1))
    ta, tb, tbias = _inputs(m, "g")
    args = [tile_from_array(t, np.array([[1]], d)) for t, d in
            ((ta, np.uint16), (tb, np.uint16), (tbias, np.uint32))]  # fmt: skip
    with pytest.raises(PTOFault) as e:
        _call(m, "g", *args)
    assert e.value.kind == "BundleControl" and "DR=1" in e.value.message
    m = _with_catr(TREM, isa.BCatr(trap=1))
    with pytest.raises(InterpretationError, match="trap handler"):
        _call(m, "rem", *_rem_args(m, [1, 2], [3, 4]))
