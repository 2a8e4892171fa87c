"""Decoded (unlinked) Local TEPL / CUBE blocks on :class:`interpreter.machine.shared_blocks.Core`
(interpreter/machine/core_local.py; docs/blocks.md "Decoded blocks on Core").

Differential: a tile-level program is formed into linked blocks (pto-form-blocks,
pto-assign-registers) and run with :func:`interpreter.run`; the same blocks' commands then run
unlinked on a Core whose registers hold the same input tiles (and whose GPRs hold the scalars),
and the destination register must hold the linked result bit for bit."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.parser import Parser

from interpreter.kernels.postprocess import lrelu_param_word, quant_param_word
from interpreter.kernels.storage import storage_dtype
from interpreter.machine.shared_blocks import Core
from interpreter.ssa.runner import run
from passes.pto_assign_registers import PTOAssignRegistersPass
from passes.pto_form_blocks import PTOFormBlocksPass
from pto_dialect.attributes import TileType
from pto_dialect.block_ops import SLOT_GPRS, BlockOp
from pto_dialect.dialect import PTO
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.isa import BIor
from pto_dialect.isa.errors import NotModelledError
from pto_dialect.predicate import PredicateTileType


def _ctx() -> Context:
    ctx = Context()
    for d in (Builtin, Func, Arith, PTO):
        ctx.load_dialect(d)
    return ctx


def _bundled(text: str) -> ModuleOp:
    m = Parser(_ctx(), text).parse_module()
    PTOFormBlocksPass().apply(_ctx(), m)
    PTOAssignRegistersPass().apply(_ctx(), m)
    m.verify()
    return m


def _random(t, rng: np.random.Generator) -> np.ndarray:
    """Valid-rectangle values ``(P, VR, VC)`` for tile type ``t``, one per PE holding it (small,
    nonzero integers)."""
    shape = (t.pe_mask.count("1"), *t.valid_shape)
    if isinstance(t, PredicateTileType):
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    v = rng.integers(1, 9, size=shape) * rng.choice([-1, 1], size=shape)
    if not t.dtype.is_signed and not t.dtype.is_float:
        v = np.abs(v)
    return v.astype(storage_dtype(t.dtype))


def _same(x: np.ndarray, y: np.ndarray) -> bool:
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape or x.dtype != y.dtype:
        return False
    if x.dtype.kind in "fc" or x.dtype.itemsize in (1, 2, 4, 8) and x.dtype.kind != "b":
        return bool(np.array_equal(x.view(f"u{x.dtype.itemsize}"), y.view(f"u{y.dtype.itemsize}")))
    return bool(np.array_equal(x, y))


def _linked_definedness(m: ModuleOp, args, inputs, profile: str) -> list[bool]:
    """Whether each result of the linked run has every valid element defined (its TileValue
    under the xdsl interpreter; ``interpreter.run`` returns values only)."""
    from xdsl.interpreter import Interpreter
    from xdsl.interpreters.func import FuncFunctions

    from interpreter.ssa.block_functions import PTOBlockFunctions
    from interpreter.ssa.pto_functions import PTOFunctions
    from interpreter.ssa.runtime import tile_from_array

    interp = Interpreter(m)
    for fns in (FuncFunctions(), PTOFunctions(profile), PTOBlockFunctions(profile)):
        interp.register_implementations(fns)
    values = [tile_from_array(a.type, x) if isinstance(a.type, TileType | PredicateTileType)
              else x for a, x in zip(args, inputs, strict=True)]  # fmt: skip
    out = []
    for r in interp.call_op("f", tuple(values)):
        vr, vc = r.type.valid_shape
        out.append(all(bool(d[:vr, :vc].all()) for d in r.defined.values()))
    return out


def _differential(text: str, seed: int = 0, scalars=(), move_ior: bool = False,
                  profile: str = "ordered", tiles=None, check_defined: bool = True) -> Core:  # fmt: skip
    """Run ``text``'s one function @f (one block) linked and unlinked; compare the results.
    ``tiles``: the tile arguments' values (default: random small integers)."""
    rng = np.random.default_rng(seed)
    m = _bundled(text)
    (blk,) = [op for op in m.walk() if isinstance(op, BlockOp)]
    fn = blk.parent_op()
    args = list(fn.body.block.args)
    inputs = []
    given = list(tiles or ())
    for a in args:
        if isinstance(a.type, TileType | PredicateTileType):
            inputs.append(given.pop(0) if tiles else _random(a.type, rng))
        else:
            inputs.append(scalars[len([x for x in inputs if np.ndim(x) == 0])])
    linked = run(m, "f", *inputs, profile=profile)
    defined = (_linked_definedness(m, args, inputs, profile) if check_defined
               else [True] * len(linked))  # fmt: skip
    s = blk.summary()
    core = Core()
    tiles = [v for v in blk.ins if isinstance(v.type, TileType | PredicateTileType)]
    for reg, v in zip(s.sources, tiles, strict=True):
        core.local.configure(reg, v.type, inputs[args.index(v)])
    cmds = blk.commands()
    slots = list(SLOT_GPRS)
    if move_ior:  # the unlinked block may name any GPR: use t0.. instead of a0..
        slots = [5, 6, 7]
        cmds = [BIor(*(slots[SLOT_GPRS.index(r)] if r in SLOT_GPRS else r for r in c.sources),
                     c.dst) if isinstance(c, BIor) else c for c in cmds]  # fmt: skip
    for k, x in enumerate(scalars):
        core.write_gpr(0, slots[k], int(x))
    before = {i for i in range(64) if core.local.allocated(i)}
    res = core.execute(cmds, profile)
    assert res.destination is not None and res.destination not in before
    assert res.destination // 16 == s.destinations[0][0]  # the hand's lowest free register
    assert core.local.contents_defined(res.destination)
    got = [res.destination, *res.others]
    assert len(got) == len(linked) == len(s.destinations)
    for d, want, dfn in zip(got, linked, defined, strict=True):
        assert core.local.contents_defined(d) == dfn
        assert _same(core.local.read(d), want), (core.local.read(d), want)
    return core


T = "!pto.tile<4x16xf32, valid=3x10>"
S32 = "!pto.tile<4x16xsi32, valid=3x10>"
FULL, PART = "!pto.tile<64x4xui32, valid=1x3>", "!pto.tile<64x4xui32, valid=1x2>"

CASES = {
    "binary-tadd": f"""func.func @f(%a: {T}, %b: {T}) -> {T} {{
  %r = pto.tadd %a, %b : {T}
  func.return %r : {T} }}""",
    "binary-trem": f"""func.func @f(%a: {S32}, %b: {S32}) -> {S32} {{
  %r = pto.trem %a, %b {{pad = #pto.pad<zero>}} : {S32}
  func.return %r : {S32} }}""",
    "unary-tabs": """func.func @f(%a: !pto.tile<8x16xf16, valid=3x10>) -> !pto.tile<8x16xf16, valid=3x10> {
  %r = pto.tabs %a {pad = #pto.pad<zero>} : !pto.tile<8x16xf16, valid=3x10>
  func.return %r : !pto.tile<8x16xf16, valid=3x10> }""",
    "unary-texp": f"""func.func @f(%a: {T}) -> {T} {{
  %r = pto.texp %a : {T}
  func.return %r : {T} }}""",
    "convert-tcvt": f"""func.func @f(%a: {T}) -> !pto.tile<4x16xf16, valid=3x10> {{
  %r = pto.tcvt %a : ({T}) -> !pto.tile<4x16xf16, valid=3x10>
  func.return %r : !pto.tile<4x16xf16, valid=3x10> }}""",
    "convert-tcvt-nd2dn": f"""func.func @f(%a: {T}) -> !pto.tile<4x16xf16, valid=3x10, col_major> {{
  %r = pto.tcvt %a : ({T}) -> !pto.tile<4x16xf16, valid=3x10, col_major>
  func.return %r : !pto.tile<4x16xf16, valid=3x10, col_major> }}""",
    "convert-tcvt-nd2nz": """func.func @f(%a: !pto.tile<16x16xf32, valid=9x10>) -> !pto.tile<16x16xf16, valid=9x10, nz> {
  %r = pto.tcvt %a : (!pto.tile<16x16xf32, valid=9x10>) -> !pto.tile<16x16xf16, valid=9x10, nz>
  func.return %r : !pto.tile<16x16xf16, valid=9x10, nz> }""",
    "convert-tcvt-canonicalize": """func.func @f(%a: !pto.tile<16x16xf32, mat>) -> !pto.tile<16x16xf16> {
  %r = pto.tcvt %a : (!pto.tile<16x16xf32, mat>) -> !pto.tile<16x16xf16>
  func.return %r : !pto.tile<16x16xf16> }""",
    "expand-trowexpandexpdif": """func.func @f(%a: !pto.tile<8x16xf16, valid=3x10>, %b: !pto.tile<64x1xf16, valid=3x1>) -> !pto.tile<8x16xf32, valid=3x10> {
  %r = pto.trowexpandexpdif %a, %b : (!pto.tile<8x16xf16, valid=3x10>, !pto.tile<64x1xf16, valid=3x1>) -> !pto.tile<8x16xf32, valid=3x10>
  func.return %r : !pto.tile<8x16xf32, valid=3x10> }""",
    "reduce-tcolsum-s32": f"""func.func @f(%a: {S32}) -> !pto.tile<2x16xsi32, valid=1x10> {{
  %r = pto.tcolsum %a : ({S32}) -> !pto.tile<2x16xsi32, valid=1x10>
  func.return %r : !pto.tile<2x16xsi32, valid=1x10> }}""",
    "cube-tmatmul-acc": """func.func @f(%c: !pto.tile<16x16xf32, cube_m16, mat>, %a: !pto.tile<16x16xf16, cube_m16, mat>, %b: !pto.tile<16x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat> {
  %r = pto.tmatmul_acc %c, %a, %b : (!pto.tile<16x16xf32, cube_m16, mat>, !pto.tile<16x16xf16, cube_m16, mat>, !pto.tile<16x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
  func.return %r : !pto.tile<16x16xf32, cube_m16, mat> }""",
    "cube-tmatmul-mx": """func.func @f(%a: !pto.tile<16x64xf16, cube_m16, mat>, %b: !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat> {
  %r = pto.tmatmul_mx %a, %b : (!pto.tile<16x64xf16, cube_m16, mat>, !pto.tile<64x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
  func.return %r : !pto.tile<16x16xf32, cube_m16, mat> }""",
    "rearrange-tpartmax": f"""func.func @f(%a: {FULL}, %b: {PART}) -> {FULL} {{
  %r = pto.tpartmax %a, %b : ({FULL}, {PART}) -> {FULL}
  func.return %r : {FULL} }}""",
    "generator-tci": """func.func @f() -> !pto.tile<8x8xui16, valid=1x8> {
  %r = pto.tci : () -> !pto.tile<8x8xui16, valid=1x8>
  func.return %r : !pto.tile<8x8xui16, valid=1x8> }""",
    "compare-tcmp": f"""func.func @f(%a: {T}, %b: {T}) -> !pto.pred<4x16, valid=3x10, size=128B> {{
  %r = pto.tcmp %a, %b : ({T}, {T}) -> !pto.pred<4x16, valid=3x10, size=128B>
  func.return %r : !pto.pred<4x16, valid=3x10, size=128B> }}""",
    "select-tsel": f"""func.func @f(%p: !pto.pred<4x16, valid=3x10, size=128B>, %a: {T}, %b: {T}) -> {T} {{
  %r = pto.tsel %p, %a, %b : (!pto.pred<4x16, valid=3x10, size=128B>, {T}, {T}) -> {T}
  func.return %r : {T} }}""",
    "cube-tmatmul": """func.func @f(%a: !pto.tile<16x32xf16, cube_m16, mat>, %b: !pto.tile<32x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat> {
  %r = pto.tmatmul %a, %b : (!pto.tile<16x32xf16, cube_m16, mat>, !pto.tile<32x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat>
  func.return %r : !pto.tile<16x16xf32, cube_m16, mat> }""",
    "cube-tgemv-mx-bias": """func.func @f(%a: !pto.tile<1x1xf16, cube_m16, mat>, %b: !pto.tile<1x1xf16, cube_n8, mat>,
             %bias: !pto.tile<1x32xf32, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat> {
  %d = pto.tgemv_mx_bias %a, %b, %bias : (!pto.tile<1x1xf16, cube_m16, mat>,
      !pto.tile<1x1xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x1>)
      -> !pto.tile<1x1xf32, cube_m16, mat>
  func.return %d : !pto.tile<1x1xf32, cube_m16, mat> }""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_differential_linked_vs_core(name):
    _differential(CASES[name], seed=len(name))


SCALAR_CASES = {
    "tile-scalar-tadds": (f"""func.func @f(%a: {S32}, %s: i64) -> {S32} {{
  %r = pto.tadds %a, %s {{pad = #pto.pad<zero>}} : {S32}, i64
  func.return %r : {S32} }}""", (-7,)),
    "tile-scalar-trems": (f"""func.func @f(%a: {S32}, %s: i64) -> {S32} {{
  %r = pto.trems %a, %s : {S32}, i64
  func.return %r : {S32} }}""", (3,)),
    "convert-tquant": (f"""func.func @f(%a: {T}, %s: i64, %z: i64) -> !pto.tile<8x16xui8, valid=3x10> {{
  %r = pto.tquant %a, %s, %z {{rmode = #pto.rmode<rna>, sat}} : ({T}, i64, i64) -> !pto.tile<8x16xui8, valid=3x10>
  func.return %r : !pto.tile<8x16xui8, valid=3x10> }}""", (0x3F000000, 3)),
    "compare-tcmps": (f"""func.func @f(%a: {S32}, %s: i64) -> !pto.pred<4x16, valid=3x10, size=128B> {{
  %r = pto.tcmps %a, %s {{cmode = #pto.cmode<ge>}} : ({S32}, i64) -> !pto.pred<4x16, valid=3x10, size=128B>
  func.return %r : !pto.pred<4x16, valid=3x10, size=128B> }}""", (3,)),
    "select-tsels": (f"""func.func @f(%p: !pto.pred<4x16, valid=3x10, size=128B>, %a: {S32}, %s: i64) -> {S32} {{
  %r = pto.tsels %p, %a, %s : (!pto.pred<4x16, valid=3x10, size=128B>, {S32}, i64) -> {S32}
  func.return %r : {S32} }}""", (9,)),
    "convert-tdequant": ("""func.func @f(%q: !pto.tile<8x16xsi8, valid=3x10>, %m: i64, %z: i64) -> !pto.tile<8x16xf32, valid=3x10> {
  %r = pto.tdequant %q, %m, %z : (!pto.tile<8x16xsi8, valid=3x10>, i64, i64) -> !pto.tile<8x16xf32, valid=3x10>
  func.return %r : !pto.tile<8x16xf32, valid=3x10> }""", (0x3F000000, 2)),
    "generator-tci-params": ("""func.func @f(%s: i64, %d: i64) -> !pto.tile<8x8xui16, valid=1x8> {
  %r = pto.tci %s, %d : (i64, i64) -> !pto.tile<8x8xui16, valid=1x8>
  func.return %r : !pto.tile<8x8xui16, valid=1x8> }""", (65530, 1)),
    "generator-ttri": ("""func.func @f(%s: i64, %d: i64) -> !pto.tile<8x16xf16, valid=4x6> {
  %r = pto.ttri %s, %d : (i64, i64) -> !pto.tile<8x16xf16, valid=4x6>
  func.return %r : !pto.tile<8x16xf16, valid=4x6> }""", (-1, 1)),
    "cube-tgemv-lrelu": ("""func.func @f(%a: !pto.tile<1x64xf16, cube_m16, mat>, %b: !pto.tile<64x32xf16, cube_n8, mat>, %bias: !pto.tile<1x32xf32>, %ls: i64) -> !pto.tile<1x32xf32, cube_m16, mat> {
  %d = pto.tgemv_mx_bias %a, %b, %bias, lrelu_scalar %ls {fpatr = #pto.fpatr<relu_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>
  func.return %d : !pto.tile<1x32xf32, cube_m16, mat>
}""", (lrelu_param_word(0.25),)),
    "cube-tgemv-quant": ("""func.func @f(%a: !pto.tile<1x64xf16, cube_m16, mat>, %b: !pto.tile<64x32xf16, cube_n8, mat>, %bias: !pto.tile<1x32xf32>, %qs: i64) -> !pto.tile<1x32xf16, cube_m16, mat> {
  %d = pto.tgemv_mx_bias %a, %b, %bias, quant_scalar %qs {fpatr = #pto.fpatr<pre_quant_mode = 32>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf16, cube_m16, mat>
  func.return %d : !pto.tile<1x32xf16, cube_m16, mat>
}""", (quant_param_word(0.5, 0, 0),)),
    "cube-tgemv-both": ("""func.func @f(%a: !pto.tile<1x64xf16, cube_m16, mat>, %b: !pto.tile<64x32xf16, cube_n8, mat>, %bias: !pto.tile<1x32xf32>, %qs: i64, %ls: i64) -> !pto.tile<1x32xsi8, cube_m16, mat> {
  %d = pto.tgemv_mx_bias %a, %b, %bias, quant_scalar %qs, lrelu_scalar %ls {sat, fpatr = #pto.fpatr<pre_quant_mode = 24, relu_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64, i64) -> !pto.tile<1x32xsi8, cube_m16, mat>
  func.return %d : !pto.tile<1x32xsi8, cube_m16, mat>
}""", (quant_param_word(0.25, 3, 9), lrelu_param_word(0.5))),
}


@pytest.mark.parametrize("name", sorted(SCALAR_CASES))
@pytest.mark.parametrize("move_ior", [False, True])
def test_differential_scalars_from_gprs(name, move_ior):
    """The scalars come from the GPRs the B.IOR names (a0.. as linked, or t0.. unlinked)."""
    text, scalars = SCALAR_CASES[name]
    _differential(text, seed=3, scalars=scalars, move_ior=move_ior)


# ---- faults: before any effect -----------------------------------------------------------------


def _block(name: str):
    m = _bundled(CASES[name])
    (blk,) = [op for op in m.walk() if isinstance(op, BlockOp)]
    return blk


def _state(core: Core):
    return {i: (core.local.type_of(i), core.local.read(i).tobytes(), core.local.contents_defined(i))
            for i in range(64) if core.local.allocated(i)}  # fmt: skip


def _loaded(blk, core: Core | None = None, value: int = 2) -> Core:
    core = core or Core()
    tiles = [v for v in blk.ins if isinstance(v.type, TileType | PredicateTileType)]
    for reg, v in zip(blk.summary().sources, tiles, strict=True):
        vr, vc = v.type.valid_shape
        core.local.configure(reg, v.type, np.full((vr, vc), value, storage_dtype(v.type.dtype)))
    return core


def _faults(core: Core, cmds, kind: FaultKind, text: str) -> None:
    before = _state(core)
    with pytest.raises(PTOFault) as e:
        core.execute(cmds)
    assert e.value.kind in (kind, kind.value) and text in str(e.value), str(e.value)
    assert _state(core).keys() == before.keys()
    for i, (t, v, d) in before.items():
        assert _state(core)[i][0] == t and _state(core)[i][1] == v and _state(core)[i][2] == d


def test_unallocated_or_undefined_source_is_tile_legality():
    blk = _block("binary-tadd")
    s = blk.summary()
    core = _loaded(blk)
    core.local.release(s.sources[1])
    _faults(core, blk.commands(), FaultKind.TILE_LEGALITY, f"source tile {s.sources[1]} is not "
            "allocated")  # fmt: skip
    core.local.configure(s.sources[1], blk.ins[1].type, np.zeros((3, 10), np.float32),
                         defined=False)  # fmt: skip
    _faults(core, blk.commands(), FaultKind.TILE_LEGALITY, "TileSourceContentsDefined")
    hand = s.destinations[0][0]  # destinations resolve first: a full hand is TileAllocation
    for i in range(hand * 16, hand * 16 + 16):
        if not core.local.allocated(i):
            core.local.configure(i, "!pto.tile<1x32xf32, size=128B, pe=0001>",
                                 np.zeros((1, 32), np.float32))  # fmt: skip
    _faults(core, blk.commands(), FaultKind.TILE_ALLOCATION, "no free register in hand")


def test_no_free_register_in_the_hand_is_tile_allocation():
    blk = _block("binary-tadd")
    hand = blk.summary().destinations[0][0]
    core = _loaded(blk)
    for i in range(hand * 16, hand * 16 + 16):
        if not core.local.allocated(i):
            core.local.configure(i, "!pto.tile<1x32xf32, size=128B, pe=0001>", np.zeros((1, 32), np.float32))
    _faults(core, blk.commands(), FaultKind.TILE_ALLOCATION, "no free register in hand")


def test_capacity_is_charged_before_allocation():
    blk = _block("binary-tadd")
    need = 2 * 4 * 256  # two sources of 256 B on four PEs
    core = _loaded(blk, Core(tile_capacity=need + 512))
    _faults(core, blk.commands(), FaultKind.TILE_ALLOCATION, "core tile capacity")
    core = _loaded(blk, Core(tile_capacity=need + 1024))
    assert core.execute(blk.commands()).destination is not None


def test_size_code_too_small_is_tile_allocation():
    from dataclasses import replace

    from pto_dialect.isa import BIot

    blk = _block("binary-tadd")
    cmds = [replace(c, size_code=1) if isinstance(c, BIot) and c.size_code else c
            for c in blk.commands()]  # fmt: skip
    _faults(_loaded(blk), cmds, FaultKind.TILE_ALLOCATION, "SizeCode")


def test_data_dependent_fault_leaves_registers_unchanged():
    blk = _block("binary-trem")
    core = _loaded(blk, value=0)  # integer zero divisor
    _faults(core, blk.commands(), FaultKind.TILE_LEGALITY, "")


def test_uncovered_local_block_is_not_modelled():
    from dataclasses import replace

    from pto_dialect.isa import BStart
    from pto_dialect.tile_local import TTransOp

    blk = _block("unary-texp")
    cmds = [replace(c, mode=TTransOp.MODE, function=TTransOp.FUNCTION)
            if isinstance(c, BStart) else c for c in blk.commands()]  # fmt: skip
    with pytest.raises(NotModelledError, match="TTRANS on Core"):
        _loaded(blk).execute(cmds)
    from pto_dialect.block_ops import block_unsound
    from pto_dialect.families import TILE_OPS

    unsound = next(c for c in TILE_OPS if block_unsound(c))
    mode, fn, why = unsound.MODE, unsound.FUNCTION, block_unsound(unsound)
    cmds = [replace(c, mode=mode, function=fn) if isinstance(c, BStart) else c
            for c in blk.commands()]  # fmt: skip
    core = _loaded(blk)
    before = _state(core)
    with pytest.raises(NotModelledError, match=re.escape(why[:20])):
        core.execute(cmds)
    assert _state(core).keys() == before.keys()


def test_register_base_dim_reads_the_dispatching_agents_gpr():
    """B.DIM LB1 = (GPR + imm)[15:0] at run time: the destination shape follows the GPR."""
    from pto_dialect.isa import BDim, CBDimi

    blk = _block("binary-tadd")
    cmds = [BDim(1, 5, 0xFFFF) if isinstance(c, BDim | CBDimi) and c.lb == 1 else c
            for c in blk.commands()]  # fmt: skip
    core = _loaded(blk)
    core.write_gpr(0, 5, 4)  # (4 + 0xFFFF)[15:0] = 3 = ValidRow
    d = core.execute(cmds).destination
    assert core.local.type_of(d).valid_shape == (3, 10)
    assert core.local.read(d).tolist() == [[[4.0] * 10] * 3] * 4
    core.write_gpr(0, 5, 3)  # ValidRow 2: not the sources' geometry
    _faults(core, cmds, FaultKind.TILE_LEGALITY, "valid shape 2x10")


ROW64, ROW64X4 = "!pto.tile<16x2xui64, valid=1x2>", "!pto.tile<8x4xui64, valid=1x4>"
U16, WIN = "!pto.tile<64x2xui16, valid=2x2>", "!pto.tile<64x2xui16, valid=1x2>"
IDX = "!pto.tile<32x2xui32, valid=1x2>"
SQ, BIG = "!pto.tile<32x4xui32, valid=2x2>", "!pto.tile<32x4xui32, valid=3x3>"
RUN2, RUN4 = "!pto.tile<64x2xf32, valid=1x2>", "!pto.tile<32x4xf32, valid=1x4>"
SRC4, FLT = "!pto.tile<64x4xui32, valid=1x4>", "!pto.tile<256x1xui8, valid=3x1>"
HIST = "!pto.tile<1x256xui32>"
SCAT = "!pto.tile<64x2xui16, valid=4x2>"
SORT, SIDX = "!pto.tile<32x4xf32, valid=1x4>", "!pto.tile<32x4xui32, valid=1x4>"


def _fn(args: str, body: str, result: str) -> str:
    return f"func.func @f({args}) -> {result} {{\n  {body}\n  func.return %r : {result} }}"


REARRANGE = {
    "rearrange-tconcat": (_fn(f"%a: {ROW64}", f"%r = pto.tconcat %a, %a : ({ROW64}, {ROW64}) -> "
                              f"{ROW64X4}", ROW64X4), None, ()),
    "rearrange-tpartadd": (_fn(f"%a: {FULL}, %b: {PART}", f"%r = pto.tpartadd %a, %b : ({FULL}, "
                               f"{PART}) -> {FULL}", FULL), None, ()),
    "rearrange-tgather": (_fn(f"%a: {U16}, %i: {IDX}", f"%r = pto.tgather %a, %i : ({U16}, {IDX}) "
                              f"-> {WIN}", WIN),
                          [np.array([[10, 11], [20, 21]], np.uint16), np.array([[1, 0]], np.uint32)],
                          ()),
    "rearrange-tfillpad": (_fn(f"%a: {SQ}, %c: i64", f"%r = pto.tfillpad %a, %c : ({SQ}, i64) -> "
                               f"{BIG}", BIG), None, (9,)),
    "mrgsort-tmrgsort": (_fn(f"%l: {RUN2}, %q: {RUN2}, %c: i64", f"%r = pto.tmrgsort %l, %q, %c : "
                             f"({RUN2}, {RUN2}, i64) -> {RUN4}", RUN4),
                         [np.float32([[1, 4]]), np.float32([[2, 3]])], (0,)),
    "histogram-thistogram": (_fn(f"%s: {SRC4}, %g: {FLT}", f"%r = pto.thistogram %s, %g {{byte_id "
                                 f"= 0 : i64}} : ({SRC4}, {FLT}) -> {HIST}", HIST),
                             [np.array([[0, 1, 1, 3]], np.uint32), np.zeros((3, 1), np.uint8)], ()),
    "rearrange-tscatter": (_fn(f"%s: {WIN}, %i: {WIN}", f"%r = pto.tscatter %s, %i : ({WIN}, {WIN}) "
                               f"-> {SCAT}", SCAT), [np.uint16([[7, 8]]), np.uint16([[1, 3]])], ()),
    "sort-tsort": (f"""func.func @f(%s: {SORT}, %o: i64) -> ({SORT}, {SIDX}) {{
  %r, %i = pto.tsort %s, %o {{sort_width = 4 : i64}} : ({SORT}, i64) -> ({SORT}, {SIDX})
  func.return %r, %i : {SORT}, {SIDX} }}""", None, (0,)),
}


@pytest.mark.parametrize("name", sorted(REARRANGE))
def test_differential_rearrange(name):
    text, tiles, scalars = REARRANGE[name]
    _differential(text, seed=5, scalars=scalars, tiles=tiles)


# ---- every TEPL / CUBE block of lowered examples ------------------------------------------------

EXAMPLES = ["remui_u32", "floormod_f32", "mxfp4_f16_gemv", "elementwise_i16_f16"]


def _example_blocks(name: str) -> list[BlockOp]:
    """The distinct Local TEPL / CUBE blocks of example ``name`` lowered by pto-lower (without
    register-base B.DIMs, whose values are loop state), each detached into its own function."""
    from pathlib import Path

    from xdsl.dialects import func
    from xdsl.ir import Block, Region

    from interpreter.ssa.runner import build_context, load_module
    from passes.pto_lower import PTOLowerPass
    from pto_dialect.block_ops import dim_registers
    from pto_dialect.isa import BlockFamily

    ctx = build_context()
    root = Path(__file__).resolve().parents[2]
    module = load_module(root / "examples" / f"{name}.mlir", ctx)
    PTOLowerPass().apply(ctx, module)
    seen, out = set(), []
    for blk in module.walk():
        if not isinstance(blk, BlockOp) or not blk.linked:
            continue
        s = blk.summary()
        if s.noop or s.family not in (BlockFamily.TEPL, BlockFamily.CUBE) or dim_registers(s):
            continue
        key = (tuple(blk.commands()), tuple(str(v.type) for v in blk.ins))
        if key in seen:
            continue
        seen.add(key)
        body = Block(arg_types=[v.type for v in blk.ins])
        copy = BlockOp(blk.commands(), list(body.args), [r.type for r in blk.outs])
        copy.attributes.update(blk.attributes)
        body.add_ops([copy, func.ReturnOp(*copy.results)])
        fn = func.FuncOp("f", ([v.type for v in blk.ins], [r.type for r in blk.outs]), Region(body))
        out.append(ModuleOp([fn]))
    return out


@pytest.mark.parametrize("name", EXAMPLES)
def test_lowered_example_blocks_run_identically_on_core(name):
    """Each block of a lowered example, unlinked on Core, gives the linked block's results (or
    the same fault kind, e.g. a zero divisor among the random inputs)."""
    modules = _example_blocks(name)
    assert modules
    rng = np.random.default_rng(11)
    for m in modules:
        (blk,) = [op for op in m.walk() if isinstance(op, BlockOp)]
        args = list(blk.ins)
        inputs = [_random(a.type, rng) if isinstance(a.type, TileType | PredicateTileType)
                  else int(rng.integers(0, 4)) for a in args]  # fmt: skip
        try:
            linked, fault = run(m, "f", *inputs), None
        except PTOFault as e:
            linked, fault = None, e.kind
        s = blk.summary()
        core = Core()
        tiles = [(v, x) for v, x in zip(args, inputs) if isinstance(v.type, TileType |
                                                                    PredicateTileType)]  # fmt: skip
        for reg, (v, x) in zip(s.sources, tiles, strict=True):
            core.local.configure(reg, v.type, x)
        for k, x in enumerate(x for v, x in zip(args, inputs) if not isinstance(
                v.type, TileType | PredicateTileType)):  # fmt: skip
            core.write_gpr(0, SLOT_GPRS[k], x)
        if fault is not None:
            with pytest.raises(PTOFault) as e:
                core.execute(blk.commands())
            assert e.value.kind == fault
            continue
        res = core.execute(blk.commands())
        for d, want in zip([res.destination, *res.others], linked, strict=True):
            assert _same(core.local.read(d), want), (s.op_name, core.local.read(d), want)


def test_two_destinations_take_distinct_registers_of_the_hand():
    """TSORT's values and indices both name hand T: the two lowest free registers; with one
    free register left in the hand the block is TileAllocation with nothing allocated."""
    m = _bundled(REARRANGE["sort-tsort"][0])
    (blk,) = [op for op in m.walk() if isinstance(op, BlockOp)]
    s = blk.summary()
    assert [h for h, _ in s.destinations] == [0, 0]
    core = _loaded(blk)
    core.write_gpr(0, SLOT_GPRS[0], 0)
    res = core.execute(blk.commands())
    assert (res.destination, res.others) == (1, (2,))
    assert core.local.type_of(2).dtype.name == "U32"
    core = _loaded(blk)
    for i in range(1, 15):
        core.local.configure(i, "!pto.tile<1x32xf32, size=128B, pe=0001>",
                             np.zeros((1, 32), np.float32))  # fmt: skip
    _faults(core, blk.commands(), FaultKind.TILE_ALLOCATION, "no free register in hand T")


# ---- table-driven: every op of the binary and elementwise tables ---------------------------------


def table_case(cls) -> tuple[str, tuple[int, ...]]:
    """A one-op program of ``cls`` on a 3 x 10 FP32 tile (S32 when FP32 is not its type)."""
    from pto_dialect.datatypes import TileDataType

    t = T if TileDataType.FP32 in cls.TYPES else S32
    tiles = getattr(cls, "TILE_ROLES", ("lhs", "rhs"))
    n_scalar = len(getattr(cls, "SCALAR_ROLES", ()))
    names = [f"%t{i}" for i in range(len(tiles))] + [f"%s{i}" for i in range(n_scalar)]
    args = ", ".join([f"{n}: {t}" for n in names[: len(tiles)]] + [f"{n}: i64" for n in
                                                                   names[len(tiles):]])  # fmt: skip
    types = ", ".join([t] + ["i64"] * n_scalar)
    text = _fn(args, f"%r = {cls.name} {', '.join(names)} : {types}", t)
    word = 0x40400000 if t == T else 3  # 3.0f / 3
    return text, (word,) * n_scalar


def table_ops():
    from pto_dialect.elementwise_ops import ELEMENTWISE_FAMILY_OPS
    from pto_dialect.ops import BINARY_OPS

    return sorted({c.name: c for c in (*BINARY_OPS, *ELEMENTWISE_FAMILY_OPS)}.items())


@pytest.mark.parametrize("name,cls", table_ops(), ids=[n for n, _ in table_ops()])
def test_every_binary_and_elementwise_op(name, cls):
    text, scalars = table_case(cls)
    _differential(text, seed=13, scalars=scalars, check_defined=False)


def _reduce_expand_ops():
    from pto_dialect.tile_local import EXPAND_OPS, REDUCE_OPS

    return sorted((c.name, c) for c in (*REDUCE_OPS, *EXPAND_OPS))


@pytest.mark.parametrize("name,cls", _reduce_expand_ops(), ids=[n for n, _ in _reduce_expand_ops()])
def test_every_reduction_and_expansion(name, cls):
    """Row / column reductions (arg forms: U32 indices) and expansions on a 3 x 10 FP32 tile."""
    from pto_dialect.tile_local import ReduceTileOp

    et = "ui32" if issubclass(cls, ReduceTileOp) and cls.is_arg() else "f32"
    vec = (f"!pto.tile<32x1x{et}, valid=3x1>" if cls.AXIS == "row"
           else f"!pto.tile<2x16x{et}, valid=1x10>")  # fmt: skip
    if issubclass(cls, ReduceTileOp):
        text = _fn(f"%a: {T}", f"%r = {name} %a : ({T}) -> {vec}", vec)
    elif cls.SOURCES == ("bcast",):  # the plain broadcast: the vector only
        text = _fn(f"%b: {vec}", f"%r = {name} %b : ({vec}) -> {T}", T)
    else:
        text = _fn(f"%a: {T}, %b: {vec}", f"%r = {name} %a, %b : ({T}, {vec}) -> {T}", T)
    _differential(text, seed=17, check_defined=False)


def test_pe_mask_subset():
    """A block for PEs 1100 on tiles held by PEs 1100: the destination is held by those PEs and
    each PE's result comes from its own payload (linked vs unlinked, per PE)."""
    t = "!pto.tile<4x16xf32, valid=3x10, pe=1100>"
    _differential(_fn(f"%a: {t}, %b: {t}", f"%r = pto.tmul %a, %b {{mask = #pto.mask<1100>}} : {t}",
                      t), seed=19)  # fmt: skip


def test_fault_enters_the_trap_model_as_an_attempt():
    """Run as an instruction attempt (``ArchState.run_at``), a TileAllocation becomes the trap
    at the block's TPC with a recoverable context and every register unchanged; after a
    register is released the same attempt completes."""
    from interpreter.machine.arch import ArchState
    from pto_dialect.faults import FaultCode

    blk = _block("binary-tadd")
    hand = blk.summary().destinations[0][0]
    arch = ArchState()
    core = _loaded(blk, Core(arch=arch))
    for i in range(hand * 16, hand * 16 + 16):
        if not core.local.allocated(i):
            core.local.configure(i, "!pto.tile<1x32xf32, size=128B, pe=0001>",
                                 np.zeros((1, 32), np.float32))  # fmt: skip
    before = _state(core)
    assert arch.run_at(0x100, core.execute, blk.commands()) == (False, None)
    assert arch.last_fault is FaultCode.TILE_ALLOCATION and arch.trap_contexts[0].tpc == 0x100
    assert _state(core).keys() == before.keys()
    core.local.release(hand * 16 + 15)
    done, res = arch.run_at(0x100, core.execute, blk.commands())
    assert done and res.destination == hand * 16 + 15


A2, B16, D2 = ("!pto.tile<2x16xf16, cube_m16, mat>", "!pto.tile<16x16xf16, cube_n8, mat>",
               "!pto.tile<2x16xf32, cube_m16, mat>")  # fmt: skip
ROWMAX, GROUPMAX = "!pto.tile<32x1xf32, valid=2x1>", "!pto.tile<16x2xf32, valid=2x2>"
CUBE_AUX = {
    "row-max": ("row_max_en = 1", [ROWMAX], ""),
    "row-max-init": ("row_max_en = 1, row_max_init = 1", [ROWMAX], ", row_max_in %r"),
    "group-max": ("group_n_code = 1, group_max_en = 1", [GROUPMAX], ""),
    "both": ("group_n_code = 1, row_max_en = 1, group_max_en = 1", [ROWMAX, GROUPMAX], ""),
}


@pytest.mark.parametrize("name", sorted(CUBE_AUX))
def test_cube_rowmax_groupmax_destinations(name):
    """TMATMUL with B.FPATR RowMax / GroupMax: the auxiliary destinations (M x 1 and
    M x ceil(N / GroupN), accumulator type) resolve after D and match the linked block."""
    fpatr, aux, extra = CUBE_AUX[name]
    outs = ", ".join([D2, *aux])
    names = ", ".join(["%d", *(f"%x{i}" for i in range(len(aux)))])
    ins = f"%a: {A2}, %b: {B16}" + (f", %r: {ROWMAX}" if extra else "")
    in_types = f"{A2}, {B16}" + (f", {ROWMAX}" if extra else "")
    text = f"""func.func @f({ins}) -> ({outs}) {{
  {names} = pto.tmatmul %a, %b{extra} {{fpatr = #pto.fpatr<{fpatr}>}} : ({in_types}) -> ({outs})
  func.return {names} : {outs} }}"""
    _differential(text, seed=23)
