"""CUBE blocks with scalar post-processing parameters through B.IOR (PTO-SPEC 3.3-3.5; D11,
D12, D16; docs/blocks.md "scalar parameters").

``quant_scalar`` / ``lrelu_scalar`` are linked to the block after its tile sources and read
through ``B.IOR`` in dense order (quant first, then LReLU; LReLU alone uses RegSrc0), RegSrc k
naming ``a<k>`` (the pseudo register convention). Expected values come from exact Fraction
arithmetic and Python's ``round`` (half to even) on the spec's post-processing rule ("choose a
multiplier per element - the scale, or for a negative value the LReLU parameter - multiply,
add the offset, convert once"), never from the kernels under test.
"""

from __future__ import annotations

import functools
from fractions import Fraction

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
from xdsl.utils.exceptions import VerifyException

from interpreter.kernels.postprocess import lrelu_param_word, quant_param_word
from interpreter.ssa.block_functions import PTOBlockFunctions
from interpreter.ssa.pto_functions import PTOFunctions
from interpreter.ssa.runtime import array_from_tile, tile_from_array
from passes.pto_assign_registers import PTOAssignRegistersPass
from passes.pto_form_blocks import PTOFormBlocksPass
from passes.pto_targets import parse_asm, parse_hex, print_asm, print_hex
from pto_dialect import isa
from pto_dialect.block_ops import SLOT_GPRS, BlockCommandOp, BlockOp
from pto_dialect.dialect import PTO
from pto_dialect.faults import PTOFault

K, N = 64, 32
A_T = f"!pto.tile<1x{K}xf16, cube_m16, mat>"
B_T = f"!pto.tile<{K}x{N}xf16, cube_n8, mat>"
BIAS_T = f"!pto.tile<1x{N}xf32>"

# name -> (fpatr fields, scalar roles in dense order, result element type, sat)
CASES = {
    "lrelu": ("relu_mode = 2", ("lrelu_scalar",), "f32", False),
    "quant_f16": ("pre_quant_mode = 32", ("quant_scalar",), "f16", False),
    "quant_s8_lrelu": ("pre_quant_mode = 24, relu_mode = 2", ("quant_scalar", "lrelu_scalar"),
                       "si8", True),
}  # fmt: skip


def _ctx() -> Context:
    ctx = Context()
    for d in (Builtin, Func, Arith, PTO):
        ctx.load_dialect(d)
    return ctx


def _text(case: str) -> str:
    fp, roles, out, sat = CASES[case]
    d_t = f"!pto.tile<1x{N}x{out}, cube_m16, mat>"
    args = "".join(f", %{r}: i64" for r in roles)
    ops = "".join(f", {r} %{r}" for r in roles)
    tys = "".join(", i64" for _ in roles)
    attrs = ("sat, " if sat else "") + f"fpatr = #pto.fpatr<{fp}>"
    return f"""
func.func @g(%a: {A_T}, %b: {B_T}, %bias: {BIAS_T}{args}) -> {d_t} {{
  %d = pto.tgemv_mx_bias %a, %b, %bias{ops} {{{attrs}}} : ({A_T}, {B_T}, {BIAS_T}{tys}) -> {d_t}
  func.return %d : {d_t}
}}
"""


def _module(case: str, bundled: bool) -> ModuleOp:
    m = Parser(_ctx(), _text(case)).parse_module()
    if bundled:
        PTOFormBlocksPass().apply(_ctx(), m)
        PTOAssignRegistersPass().apply(_ctx(), m)
    m.verify()
    return m


@functools.cache
def _cached(case: str, bundled: bool) -> ModuleOp:
    return _module(case, bundled)


def _block(m: ModuleOp) -> BlockOp:
    return next(op for op in m.walk() if isinstance(op, BlockOp))


def _call(m: ModuleOp, *args):
    interp = Interpreter(m)
    interp.register_implementations(FuncFunctions())
    interp.register_implementations(PTOFunctions("ordered"))
    interp.register_implementations(PTOBlockFunctions("ordered"))
    return interp.call_op("g", args)


def _tiles(m: ModuleOp, a, b, bias):
    f = next(op for op in m.walk() if getattr(op, "sym_name", None))
    ta, tb, tbias = f.function_type.inputs.data[:3]
    return (
        tile_from_array(ta, a.astype(np.float16)),
        tile_from_array(tb, b.astype(np.float16)),
        tile_from_array(tbias, bias.astype(np.float32)),
    )


# ---- pto-form-blocks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "case, ior",
    [
        ("lrelu", "B.IOR [a0, zero, zero], ->zero"),
        ("quant_f16", "B.IOR [a0, zero, zero], ->zero"),
        ("quant_s8_lrelu", "B.IOR [a0, a1, zero], ->zero"),
    ],
)
def test_form_emits_ior_in_dense_order(case, ior):
    """PTO-SPEC 3.3: scalar parameters through B.IOR in dense order (quant first, then LReLU;
    LReLU-only uses RegSrc0). The B.IOR follows B.FPATR and the LBs, precedes the B.IOTs, and
    the scalars are linked after the tile sources in the same order."""
    m = _module(case, bundled=True)
    blk = _block(m)
    roles = CASES[case][1]
    assert [v.name_hint for v in blk.ins] == ["a", "b", "bias", *roles]
    lines = print_asm(m).splitlines()
    assert lines[0] == f"# pseudo MV {', '.join(f'a{k}' for k in range(len(roles)))} <- " + (
        ", ".join(f"%{r}" for r in roles)
    ) + "  (scalar parameters; not encoded, docs/blocks.md)"
    assert lines[1] == "BSTART.TGEMVMX.BIAS FP16"
    i = lines.index(ior)
    assert lines[i - 1] == f"C.B.DIMI {K}, ->lb2" and lines[i + 1].startswith("B.IOT ")
    cmd = next(c for c in blk.commands() if isinstance(c, isa.BIor))
    assert cmd.sources[: len(roles)] == SLOT_GPRS[: len(roles)]


def test_ior_word_encoding_hand_derived():
    """B.IOR = 0x00000013 | RegDst<<7 | RegSrc0<<15 | RegSrc1<<20 | RegSrc2<<27
    (``asl/block/operands/B.IOR.asl``); a0 = 2, a1 = 3."""
    words = print_hex(_module("quant_s8_lrelu", bundled=True)).splitlines()
    assert f"0x{0x13 | 2 << 15 | 3 << 20:08X}" == "0x00310013" in words
    words = print_hex(_module("lrelu", bundled=True)).splitlines()
    assert "0x00010013" in words


@pytest.mark.parametrize("case", sorted(CASES))
def test_asm_and_hex_round_trip(case):
    """-t pto-asm / -t pto-bin of a scalar-parameter block re-read give the same text (the
    pseudo MV line is a comment: re-read blocks are unlinked, docs/blocks.md)."""
    m = _module(case, bundled=True)
    asm = print_asm(m)
    canon = "\n".join(ln for ln in asm.splitlines() if not ln.startswith("#")) + "\n"
    hexa = print_hex(m)
    again = parse_asm(asm)
    again.verify()
    assert print_asm(again) == canon
    assert print_hex(parse_hex(hexa)) == hexa
    assert print_asm(parse_hex(hexa)) == canon


# ---- decoded execution vs tile level vs an exact reference --------------------------------


def _rne(x: Fraction) -> int:
    return round(x)  # Fraction.__round__ rounds half to even


def _reference(case: str, a, b, bias, scale: Fraction, slope: Fraction, offset: int):
    acc = [
        sum(Fraction(int(a[0, k])) * int(b[k, j]) for k in range(K)) + int(bias[0, j])
        for j in range(N)
    ]
    if case == "lrelu":
        return [[float(x if x >= 0 else x * slope) for x in acc]]
    if case == "quant_f16":
        return [[float(np.float16(float(x * scale))) for x in acc]]
    out = []
    for x in acc:  # mode 24: round (RNE), saturate to S9, add the offset, then Sat to S8
        v = max(-256, min(255, _rne(x * (scale if x >= 0 else slope)))) + offset
        out.append(max(-128, min(127, v)))
    return [out]


@settings(max_examples=60, deadline=None)
@given(
    case=st.sampled_from(sorted(CASES)),
    seed=st.integers(0, 2**16),
    scale_exp=st.integers(-4, 1),
    slope=st.sampled_from([Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(3, 8)]),
    offset=st.integers(-256, 255),
)
def test_decoded_matches_tile_level_and_reference(case, seed, scale_exp, slope, offset):
    """Tile level == decoded block, bit for bit; both == the exact reference (PTO-SPEC 3.3
    post-processing, D4 exact profile; inputs are small integers so every step is exact
    except the one final conversion)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, (1, K))
    b = rng.integers(-4, 5, (K, N))
    bias = rng.integers(-50, 51, (1, N))
    scale = Fraction(2) ** scale_exp
    offs = offset if case == "quant_s8_lrelu" else 0
    words = {
        "quant_scalar": quant_param_word(float(scale), offs, 9 if offs else 0),
        "lrelu_scalar": lrelu_param_word(float(slope)),
    }
    roles = CASES[case][1]
    outs = []
    for bundled in (False, True):
        m = _cached(case, bundled)
        (d,) = _call(m, *_tiles(m, a, b, bias), *(words[r] for r in roles))
        outs.append(d)
    x, y = outs
    assert x.payloads.keys() == y.payloads.keys()
    for p in x.payloads:
        assert x.payloads[p].tobytes() == y.payloads[p].tobytes()
    got = array_from_tile(y)
    want = _reference(case, a, b, bias, scale, slope, offs)
    for pe in range(got.shape[0]):
        assert got[pe].astype(np.float64).tolist() == want


def test_decoded_bad_quant_word_faults_like_tile_level():
    """A zero quant scale is not positive normal (``BundleFPATRQuantParameterWordLegal``):
    TileLegality at both levels, before any result (D12, D16)."""
    a, b, bias = np.ones((1, K)), np.ones((K, N)), np.zeros((1, N))
    for bundled in (False, True):
        m = _cached("quant_f16", bundled)
        with pytest.raises(PTOFault) as e:
            _call(m, *_tiles(m, a, b, bias), 0)
        assert e.value.kind == "TileLegality"


# ---- negative block tests: B.IOR missing / wrong / surplus for the B.FPATR ---------------


def _drop_ior(m: ModuleOp) -> BlockOp:
    blk = _block(m)
    ior = next(op for op in blk.body.block.ops if op.name == "pto.b.ior")
    blk.body.block.erase_op(ior)
    return blk


@pytest.mark.parametrize("case", sorted(CASES))
def test_missing_ior_is_tile_legality(case):
    """A linked block whose B.FPATR selects scalar parameters but has no B.IOR: the binding
    stream is incomplete -> TileLegality (PTO-SPEC 3.5, ``BundleMatrixDynamicBindingsComplete``
    in ``cube-tmatmul.asl``); verifier and decoded execution agree (D16)."""
    m = _module(case, bundled=True)
    blk = _drop_ior(m)
    with pytest.raises(VerifyException, match=r"\[TileLegality\] .*has no B\.IOR"):
        blk.verify()
    a, b, bias = np.ones((1, K)), np.ones((K, N)), np.zeros((1, N))
    words = {"quant_scalar": quant_param_word(1.0), "lrelu_scalar": lrelu_param_word(0.5)}
    with pytest.raises(PTOFault) as e:
        _call(m, *_tiles(m, a, b, bias), *(words[r] for r in CASES[case][1]))
    assert e.value.kind == "TileLegality" and "no B.IOR" in e.value.message


def test_ior_registers_must_follow_the_convention():
    """Swapped selectors read the parameters in the wrong dense order -> TileLegality."""
    m = _module("quant_s8_lrelu", bundled=True)
    blk = _block(m)
    ior = next(op for op in blk.body.block.ops if op.name == "pto.b.ior")
    swapped = BlockCommandOp.from_command(isa.BIor(SLOT_GPRS[1], SLOT_GPRS[0]))
    blk.body.block.insert_op_before(swapped, ior)
    blk.body.block.erase_op(ior)
    with pytest.raises(VerifyException, match=r"\[TileLegality\] B\.IOR \[a1, a0, zero\]"):
        blk.verify()


def test_linked_scalar_count_must_match_fpatr():
    """A linked block with fewer scalar operands than its B.FPATR consumes -> TileLegality."""
    m = _module("quant_s8_lrelu", bundled=True)
    blk = _block(m)
    blk.operands = list(blk.operands)[:-1]
    with pytest.raises(VerifyException, match=r"\[TileLegality\] the block links 1 scalar"):
        blk.verify()


_GEMV = [
    "BSTART.TGEMVMX.BIAS FP16",
    "B.FPATR 0, 2, 0, 0, 0, 0, 0, 0, 0, 0",
    "B.IOR [a0], ->zero",
    "B.IOT m#1, n#1, mask=1111",
    "B.IOT t#1, mask=1111, last, ->m<128B>",
    "BSTOP",
]


@pytest.mark.parametrize(
    "fpatr, ior",
    [
        ("B.FPATR 0, 2, 0, 0, 0, 0, 0, 0, 0, 0", "B.IOR [a0, a1], ->zero"),  # LReLU only
        ("B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0", "B.IOR [a0], ->zero"),  # no scalar at all
        ("B.FPATR 0, 2, 0, 0, 0, 0, 0, 0, 0, 0", "B.IOR [a0], ->a1"),  # RegDst
    ],
)
def test_surplus_ior_fields_are_tile_legality(fpatr, ior):
    """Nonzero B.IOR fields beyond the B.FPATR's scalar parameters -> TileLegality (pto-spec
    ``BundleOperationScalarBindingSchemaLegal``, inside the CUBE binding completeness check)."""
    lines = [_GEMV[0], fpatr, ior, *_GEMV[3:]]
    with pytest.raises(VerifyException, match=r"\[TileLegality\].*B\.IOR has nonzero fields"):
        parse_asm("\n".join(lines)).verify()
    parse_asm("\n".join(_GEMV)).verify()  # the exact binding is structurally fine
