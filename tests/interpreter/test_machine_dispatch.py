"""The machine's decoded dispatch (``interpreter/machine/dispatch.py``, issue 24).

* Completeness: every tile-level op, and every op a decoded TEPL / CUBE selector names, has a
  row in :data:`interpreter.ssa.tile_plans.TILE_PLANS` (deleting a row turns it red).
* Differential against the IR path the machine used before issue 24, kept ONLY as a test
  oracle (``tests/interpreter/ir_oracle.py``): a decoded block was re-linked into a
  ``pto.block`` of the register types (B.IOR renamed to ``a<k>``), checked with
  ``check_linked`` and run as the one op of a function with :func:`interpreter.run`; a tile
  instruction was run as the one op of a function likewise. Decoded blocks of every family (every binary / elementwise table op, the
  reductions, expansions, rearrangements, conversions, generators, compare / select, CUBE) and
  tile instructions of every family whose contract allows ``dst == src`` run on both paths
  from the same register state: identical register bits, descriptors and definedness, or the
  identical fault (kind, op, message) with every register unchanged.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

import numpy as np
import pytest
from conformance.support import bundled
from conformance.test_avs_alias import ALIAS_CASES, FAMILIES, setup_family

from interpreter.kernels.storage import storage_dtype
from interpreter.machine.shared_blocks import Core
from interpreter.machine.tile_registers import TileRegisters
from interpreter.ssa import tile_plans
from pto_dialect.attributes import TileType
from pto_dialect.block_ops import SLOT_GPRS, BlockOp
from pto_dialect.families import TILE_OP_FAMILIES
from pto_dialect.faults import PTOFault
from pto_dialect.isa import BDim, BIor, BIot, CBDimi
from pto_dialect.isa.commands import CUBE_FUNCTIONS, TEPL_OPS
from pto_dialect.predicate import PredicateTileType
from tests.interpreter.ir_oracle import ir_path
from tests.interpreter.test_core_blocks import CASES, REARRANGE, SCALAR_CASES, table_case, table_ops

# ---- completeness --------------------------------------------------------------------------------


def missing_rows(table: dict) -> list[str]:
    """Ops without a plan row: every op of the tile families, and the op every assigned TEPL
    selector and CUBE function decodes to (the op classes' own MODE / FUNCTION facts)."""
    ops = [op for _, family in TILE_OP_FAMILIES for op in family]
    missing = [op.name for op in ops if op not in table]
    tepl = {(getattr(op, "MODE", None), getattr(op, "FUNCTION", None)): op for op in ops
            if getattr(op, "MODE", None) is not None}  # fmt: skip
    for key, row in TEPL_OPS.items():
        op = tepl.get(key)
        if op is None or op not in table:
            missing.append(f"TEPL {row.name} {key}")
    cube = {op.FUNCTION: op for _, family in TILE_OP_FAMILIES[:1] for op in family}
    for code, fn in CUBE_FUNCTIONS.items():
        if cube.get(code) not in table:
            missing.append(f"CUBE {fn.name} ({code})")
    return missing


def test_every_decoded_op_has_a_dispatch_row():
    assert missing_rows(tile_plans.TILE_PLANS) == []
    rows = [cls for _, ops, _ in tile_plans.FAMILY_PLANS for cls in ops]
    assert len(rows) == len(set(rows)), "an op is in two families of FAMILY_PLANS"


def test_a_deleted_row_is_reported():
    """The completeness check is not vacuous: a table without TADD's or TMATMUL's row fails."""
    table = dict(tile_plans.TILE_PLANS)
    gone = [cls for cls in table if cls.name in ("pto.tadd", "pto.tmatmul")]
    for cls in gone:
        del table[cls]
    missing = missing_rows(table)
    assert {"pto.tadd", "pto.tmatmul"} <= set(missing)
    assert any(m.startswith("TEPL TADD") for m in missing)
    assert any(m.startswith("CUBE TMATMUL") for m in missing)


def _outcome(fn):
    try:
        fn()
        return None
    except PTOFault as e:
        return ("PTOFault", e.kind, e.op, e.message)
    except ValueError as e:  # RunError included
        return (type(e).__name__, str(e))


def _regs(r: TileRegisters) -> dict:
    return {i: (r.type_of(i), r.read(i).dtype, r.read(i).tobytes(), r.contents_defined(i))
            for i in range(64) if r.allocated(i)}  # fmt: skip


# ---- decoded blocks ------------------------------------------------------------------------------

BLOCKS = {
    **{n: (t, ()) for n, t in CASES.items()},
    **SCALAR_CASES,
    **{n: (t, s) for n, (t, _tiles, s) in REARRANGE.items()},
    **{n: table_case(cls) for n, cls in table_ops()},
}


def _core(blk, inputs, scalars) -> Core:
    core = Core()
    tiles = [v for v in blk.ins if isinstance(v.type, TileType | PredicateTileType)]
    for reg, v, x in zip(blk.summary().sources, tiles, inputs, strict=True):
        core.local.configure(reg, v.type, x)
    for k, x in enumerate(scalars):
        core.write_gpr(0, SLOT_GPRS[k], int(x))
    return core


def _inputs(blk, rng, zero: bool = False) -> list[np.ndarray]:
    out = []
    for v in blk.ins:
        t = v.type
        if not isinstance(t, TileType | PredicateTileType):
            continue
        shape = (t.pe_mask.count("1"), *t.valid_shape)
        if isinstance(t, PredicateTileType):
            out.append(rng.integers(0, 2, size=shape).astype(np.bool_))
            continue
        x = np.zeros(shape) if zero else rng.integers(1, 9, size=shape) * rng.choice([-1, 1], shape)
        if not t.dtype.is_signed and not t.dtype.is_float:
            x = np.abs(x)
        out.append(x.astype(storage_dtype(t.dtype)))
    return out


def _variants(blk, cmds):
    """(name, commands, inputs zero?, GPR overrides): the block as formed, a zero divisor /
    zero operands (data-dependent faults), a destination SizeCode one too small
    (TileAllocation), a register-base LB1 whose GPR gives the wrong ValidRow (TileLegality at
    run time) and a missing B.IOR (a scalar-reading block: TileLegality)."""
    yield "as formed", cmds, False, {}
    yield "zero sources", cmds, True, {}
    yield "small SizeCode", [replace(c, size_code=c.size_code - 1) if isinstance(c, BIot)
                             and c.size_code and c.size_code > 1 else c for c in cmds], False, {}  # fmt: skip
    if any(isinstance(c, BDim | CBDimi) and c.lb == 1 for c in cmds):
        dim = [BDim(1, 5, 0) if isinstance(c, BDim | CBDimi) and c.lb == 1 else c for c in cmds]
        yield "register LB1 right", dim, False, {5: blk.summary().dims[1]}
        yield "register LB1 wrong", dim, False, {5: (blk.summary().dims[1] or 1) + 1}
    if any(isinstance(c, BIor) for c in cmds):
        yield "no B.IOR", [c for c in cmds if not isinstance(c, BIor)], False, {}


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_decoded_blocks_direct_vs_ir_path(name):
    text, scalars = BLOCKS[name]
    (blk,) = [op for op in bundled(text).walk() if isinstance(op, BlockOp)]
    cmds = blk.commands()
    rng = np.random.default_rng(len(name))
    for variant, vcmds, zero, gprs in _variants(blk, cmds):
        inputs = _inputs(blk, rng, zero)
        cores = []
        outcomes = []
        for path in (contextlib.nullcontext, ir_path):
            core = _core(blk, inputs, scalars)
            for g, v in gprs.items():
                core.write_gpr(0, g, v)
            with path():
                outcomes.append(_outcome(lambda c=core, k=vcmds: c.execute(k)))
            cores.append(core)
        assert outcomes[0] == outcomes[1], (variant, outcomes)
        assert _regs(cores[0].local) == _regs(cores[1].local), variant


def test_the_variants_reach_faults_and_results():
    """The differential compares both outcomes: some variants complete, some fault."""
    kinds = set()
    for name in ("binary-trem", "tile-scalar-tadds", "cube-tmatmul"):
        text, scalars = BLOCKS[name]
        (blk,) = [op for op in bundled(text).walk() if isinstance(op, BlockOp)]
        for _variant, vcmds, zero, gprs in _variants(blk, blk.commands()):
            core = _core(blk, _inputs(blk, np.random.default_rng(0), zero), scalars)
            for g, v in gprs.items():
                core.write_gpr(0, g, v)
            got = _outcome(lambda c=core, k=vcmds: c.execute(k))
            kinds.add(None if got is None else str(got[1]))
    assert None in kinds and {"TileLegality", "TileAllocation"} <= kinds, kinds


# ---- tile instructions ---------------------------------------------------------------------------


@pytest.mark.parametrize("op", sorted(FAMILIES))
def test_tile_instructions_direct_vs_ir_path(op):
    """Each family's instruction to a fresh register and onto its first source (aliased), on
    the direct and the IR path: identical registers or identical faults."""
    for dst_of in (lambda ops: 40, lambda ops: ops[0] if isinstance(ops[0], int) else ops[0][0]):
        states, outcomes = [], []
        for path in (contextlib.nullcontext, ir_path):
            r, operands, _ = setup_family(op, 7)
            with path():
                outcomes.append(_outcome(lambda r=r, o=operands, d=dst_of: r.execute(op, d(o), *o)))
            states.append(_regs(r))
        assert outcomes[0] == outcomes[1], outcomes
        assert states[0] == states[1]


@pytest.mark.parametrize("avs_id", sorted(ALIAS_CASES))
def test_avs_alias_cases_direct_vs_ir_path(avs_id):
    from conformance.test_avs_alias import regs

    tiles, (op, dst, *srcs), _want = ALIAS_CASES[avs_id]
    states, outcomes = [], []
    for path in (contextlib.nullcontext, ir_path):
        r = regs(*tiles)
        with path():
            outcomes.append(_outcome(lambda r=r: r.execute(op, dst, *srcs)))
        states.append(_regs(r))
    assert outcomes[0] == outcomes[1] and states[0] == states[1]


def test_tile_instruction_edge_cases_are_identical():
    """Sources named in reverse register order or twice, a zero integer divisor
    (data-dependent TileLegality), a bad scalar (RunError) and a mask-0 no-op (its result is
    no register value): identical registers and outcomes on both paths."""
    from interpreter.machine.tile_registers import Scalar
    from pto_dialect.attributes import MaskAttr

    def setup():
        r = TileRegisters()
        t = "!pto.tile<8x4xui32, valid=2x3>"
        r.configure(0, t, np.arange(6, dtype=np.uint32).reshape(2, 3))
        r.configure(1, t, np.array([[0, 7, 9], [1, 0, 5]], np.uint32))
        r.configure(2, t, np.full((2, 3), 40, np.uint32))
        return r

    calls = {  # call -> faults?
        lambda r: r.execute("pto.tsub", 0, 2, 1): False,
        lambda r: r.execute("pto.tfma", 1, 2, 0, 1): False,
        lambda r: r.execute("pto.tmul", 0, 2, 2): False,
        lambda r: r.execute("pto.tdiv", 0, 0, 1): True,
        lambda r: r.execute("pto.trem", 1, 2, 1): True,
        lambda r: r.execute("pto.tadds", 0, 0, Scalar(1.5)): True,
        lambda r: r.execute("pto.tadd", 0, 0, 1, properties={"mask": MaskAttr("0000")}): True,
    }
    for call, faults in calls.items():
        got = []
        for path in (contextlib.nullcontext, ir_path):
            r = setup()
            with path():
                got.append((_outcome(lambda r=r, c=call: c(r)), _regs(r)))
        assert got[0] == got[1], got[0][0]
        assert (got[0][0] is not None) == faults, got[0][0]


def test_decode_cache_keeps_faults_and_follows_descriptors():
    """The remembered static part never hides a fault or a descriptor change: a faulting block
    faults identically again, and the same commands on sources of another valid shape derive
    another destination (the cache keys on the descriptors)."""
    text, _ = BLOCKS["binary-tadd"]
    (blk,) = [op for op in bundled(text).walk() if isinstance(op, BlockOp)]
    cmds, s = blk.commands(), blk.summary()
    small = [replace(c, size_code=1) if isinstance(c, BIot) and c.size_code else c for c in cmds]
    core = _core(blk, _inputs(blk, np.random.default_rng(1)), ())
    faults = [_outcome(lambda: core.execute(small)) for _ in range(2)]
    assert faults[0] == faults[1] and faults[0][1] == "TileAllocation"
    first = core.execute(cmds).destination
    assert core.local.type_of(first).valid_shape == (3, 10)
    other = "!pto.tile<4x16xf32, valid=2x10>"
    for reg in s.sources:
        core.local.configure(reg, other, np.ones((2, 10), np.float32))
    dim = [BDim(1, 5, 0) if isinstance(c, BDim | CBDimi) and c.lb == 1 else c for c in cmds]
    core.write_gpr(0, 5, 2)
    d = core.execute(dim).destination
    assert core.local.type_of(d).valid_shape == (2, 10)
    assert core.local.read(d).tolist() == [[[2.0] * 10] * 2] * 4
