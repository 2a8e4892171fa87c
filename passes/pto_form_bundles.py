"""``pto-form-bundles``: tile-level ops -> their PTO blocks (PTO-SPEC 2, 3, 4, 5; D11-D14).

Each ``pto.trem`` / ``pto.tgemv_mx_bias`` becomes one linked ``pto.block`` (see
:mod:`pto_dialect.bundle`) in the CANONICAL form, with the spec's defaults elided:

* TREM (PTO-SPEC 5): ``BSTART.SFU TREM, DT``; ``B.DATR`` only when the PadValue is not Null
  (an omitted B.DATR means Null, D9); LB0 = ValidCol always, LB1 = ValidRow only when it is
  not 1, LB2 = Col only when it is not ValidCol; one ``B.IOT dividend, divisor, mask, last,
  ->hand<TSize>``.
* TGEMV_MX_BIAS (PTO-SPEC 4): ``BSTART.TGEMVMX.BIAS AType``; ``B.DATR`` only when BType !=
  AType, RMode is not the default (code 0 = RNE for CUBE) or Sat is set; exactly one
  ``B.FPATR``; ``B.DIM`` only for a dimension that is not 1 (LB0 = M = 1 is never written);
  sources in the order A, [As], B, [Bs], Bias, then the post-processing sources, packed two
  per B.IOT; the destinations (D, then RowMaxOut, GroupMaxOut) go one per B.IOT on the last
  B.IOTs, the last one with ``last``.
* LB values use ``C.B.DIMI`` when they fit its 8-bit immediate, else ``B.DIM zero, imm``.
* Each destination's SizeCode is the code of its result type's capacity (TSize), which the
  tile type already keeps minimal for its geometry (D14).

Register model (PTO-SPEC 2; docs/blocks.md): every tile SSA value of a straight-line function
body gets a Local register. Hands are chosen by layout: CUBE_M16/M32 -> ``m``, CUBE_N8 ->
``n``, row-major E8M0 scales -> ``u``, everything else -> ``t``. Function arguments are
allocated at entry, each op's results when it executes; the allocator takes the lowest free
index of the hand (what the hardware allocator does for a destination), and a register is
released after the last use of its value (a result that is never used is released at once).
Sixteen registers per hand: exhaustion is a ``[TileAllocation]`` diagnostic.

Not converted (left in place, they keep their registers): ``pto.tload`` / ``pto.tstore`` -
data movement between tensors and tiles has no operand encoding in this block subset (TLSU
BSTARTs exist, their tensor/address operands do not: docs/blocks.md). Scalar post-processing
parameters (B.IOR GPRs) are refused with a clear error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from pto_dialect import isa
from pto_dialect.attributes import Layout, PadValue, RoundingMode, TileType
from pto_dialect.bundle import BlockOp
from pto_dialect.datatypes import DTYPE_NONE, TileDataType
from pto_dialect.geometry import code_of_size
from pto_dialect.isa.commands import HANDS, MASK_PE_MODES, tile_index
from pto_dialect.ops import CubeMatrixOp, TGemvMxBiasOp, TRemOp

REGISTERS_PER_HAND = 16


def hand_of(t: TileType) -> int:
    """The hand a tile of type ``t`` is allocated in (module docstring)."""
    if t.layout_kind in (Layout.CUBE_M16, Layout.CUBE_M32):
        return HANDS.index("m")
    if t.layout_kind is Layout.CUBE_N8:
        return HANDS.index("n")
    if t.dtype is TileDataType.E8M0:
        return HANDS.index("u")
    return HANDS.index("t")


class RegisterFile:
    """Lowest-free-index allocation per hand with release (PTO-SPEC 2)."""

    def __init__(self):
        self.free = [set(range(REGISTERS_PER_HAND)) for _ in HANDS]
        self.of: dict[SSAValue, int] = {}

    def allocate(self, v: SSAValue, where: str) -> int:
        assert isinstance(v.type, TileType)
        hand = hand_of(v.type)
        if not self.free[hand]:
            raise PassFailedException(
                f"[TileAllocation] no free register in hand {HANDS[hand]} at {where}: "
                f"{REGISTERS_PER_HAND} tiles of that hand are live (PTO-SPEC 2)"
            )
        k = min(self.free[hand])
        self.free[hand].discard(k)
        self.of[v] = tile_index(hand, k + 1)
        return self.of[v]

    def release(self, v: SSAValue) -> None:
        idx = self.of.get(v)
        if idx is not None:
            self.free[idx >> 4].add(idx & 15)


def _is_tile(v: SSAValue) -> bool:
    return isinstance(v.type, TileType)


def _lb(lb: int, value: int) -> isa.Command:
    return isa.CBDimi(lb, value) if 0 <= value < 256 else isa.BDim(lb, 0, value)


def _pe_mode(op: Operation, mask: str) -> int:
    if mask not in MASK_PE_MODES:
        raise PassFailedException(
            f"'{op.name}': PE mask {mask} has no PEMode encoding (encodable: "
            f"{', '.join(MASK_PE_MODES)})"
        )
    return MASK_PE_MODES[mask]


def _size_code(op: Operation, t: TileType) -> int:
    code = code_of_size(t.capacity)
    if code is None or not 1 <= code <= 10:
        raise PassFailedException(
            f"'{op.name}': result capacity {t.capacity} B has no Local SizeCode (D14)"
        )
    return code


@dataclass
class _Form:
    commands: list[isa.Command]
    sources: list[SSAValue]


def trem_block(op: TRemOp, regs: RegisterFile) -> _Form:
    """Canonical TREM block (PTO-SPEC 5)."""
    t = op.lhs.type
    rt = op.result.type
    assert isinstance(t, TileType) and isinstance(rt, TileType)
    cmds: list[isa.Command] = [isa.BStart.op("TREM", t.dtype.value)]
    pad = op.pad.data
    if pad is not PadValue.NULL:
        cmds.append(isa.BDatr(pad=pad.code))
    vr, vc = t.valid_shape
    cmds.append(_lb(0, vc))
    if vr != 1:
        cmds.append(_lb(1, vr))
    if t.shape[1] != vc:
        cmds.append(_lb(2, t.shape[1]))
    cmds.append(
        isa.BIot(
            src0=regs.of[op.lhs],
            src1=regs.of[op.rhs],
            last=1,
            size_code=_size_code(op, rt),
            pe_mode=_pe_mode(op, op.mask.data),
            dst_hand=hand_of(rt),
        )
    )
    cmds.append(isa.BStop())
    return _Form(cmds, [op.lhs, op.rhs])


def cube_block(op: CubeMatrixOp, regs: RegisterFile) -> _Form:
    """Canonical CUBE block (PTO-SPEC 4 block composition)."""
    f = op.fpatr_fields
    if f.scalar_params():
        raise PassFailedException(
            f"'{op.name}': scalar post-processing parameters ({', '.join(f.scalar_params())}) "
            "need B.IOR GPR assignment, which pto-form-bundles does not do"
        )
    roles = op.operand_by_role()
    a, b = op.a.type, op.b.type  # type: ignore[attr-defined]
    assert isinstance(a, TileType) and isinstance(b, TileType)
    cmds: list[isa.Command] = [isa.BStart.op(op.name.removeprefix("pto.").upper(), a.dtype.value)]
    rmode = op.rmode.data
    sat = op.sat is not None
    if b.dtype is not a.dtype or rmode is not RoundingMode.DEFAULT or sat:
        b_code = b.dtype.value if b.dtype is not a.dtype else DTYPE_NONE
        cmds.append(isa.BDatr(dtype=b_code, rmode=rmode.code, sat=int(sat)))
    cmds.append(isa.BFpatr.from_fpatr(f))
    k, n = b.valid_shape
    m = a.valid_shape[0]
    for lb, v in ((0, m), (1, n), (2, k)):
        if v != 1:
            cmds.append(_lb(lb, v))
    order = ["a", "a_scale", "b", "b_scale", "bias", *f.vector_param_sources()]
    srcs = [roles[r] for r in order if r in roles]
    dsts = [r for r in op.results]
    mode = _pe_mode(op, op.mask.data)
    groups = [srcs[i : i + 2] for i in range(0, len(srcs), 2)]
    while len(groups) < len(dsts):
        groups.append([])
    first_dst = len(groups) - len(dsts)
    for i, g in enumerate(groups):
        d = dsts[i - first_dst] if i >= first_dst else None
        dt = d.type if d is not None else None
        cmds.append(
            isa.BIot(
                src0=regs.of[g[0]] if g else None,
                src1=regs.of[g[1]] if len(g) > 1 else None,
                last=int(i == len(groups) - 1),
                size_code=_size_code(op, dt) if isinstance(dt, TileType) else 0,
                pe_mode=mode,
                dst_hand=hand_of(dt) if isinstance(dt, TileType) else None,
            )
        )
    cmds.append(isa.BStop())
    return _Form(cmds, srcs)


FORMERS = {TRemOp: trem_block, TGemvMxBiasOp: cube_block}
"""Tile-level op class -> its block former (a table, one row per op)."""


def form_block(block: Block) -> None:
    """Assign registers over one straight-line block and rewrite its tile ops."""
    ops = list(block.ops)
    position = {op: i for i, op in enumerate(ops)}
    last_use: dict[SSAValue, int] = {}
    values = [a for a in block.args if _is_tile(a)]
    for op in ops:
        values.extend(r for r in op.results if _is_tile(r))
    for v in values:
        users = []
        for use in v.uses:
            top = use.operation
            while top.parent_block() is not block:
                parent = top.parent_op()
                if parent is None:
                    break
                top = parent
            users.append(position.get(top, len(ops)))
        last_use[v] = max(users, default=-1)
    regs = RegisterFile()
    for a in block.args:
        if _is_tile(a):
            regs.allocate(a, "function entry")
    dying: dict[int, list[SSAValue]] = {}
    for v, i in last_use.items():
        dying.setdefault(i, []).append(v)
    for v in dying.pop(-1, []):  # unused arguments free their register at entry
        regs.release(v)
    for i, op in enumerate(ops):
        results = [r for r in op.results if _is_tile(r)]
        for r in results:
            regs.allocate(r, f"'{op.name}'")
        former = FORMERS.get(type(op))
        if former is not None:
            form = former(op, regs)  # type: ignore[operator]
            new = BlockOp(form.commands, form.sources, [r.type for r in op.results])
            new.attributes.update(
                {k: v for k, v in op.attributes.items() if k.startswith("pto.")}
            )
            block.insert_op_before(new, op)
            for old, nr in zip(op.results, new.outs):
                old.replace_all_uses_with(nr)
                regs.of[nr] = regs.of[old]
            block.erase_op(op)
        for v in dying.get(i, []):
            regs.release(v)
        for r in results:
            if last_use.get(r, -1) < i:
                regs.release(r)


@dataclass(frozen=True)
class PTOFormBundlesPass(ModulePass):
    """Rewrite tile-level PTO ops into canonical ``pto.block`` bundles (module docstring)."""

    name = "pto-form-bundles"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        blocks: list[Block] = []
        for inner in op.walk():
            if type(inner) in FORMERS:
                b = inner.parent_block()
                assert b is not None
                owner = b.parent_op()
                if owner is not None and owner.name not in ("func.func", "builtin.module"):
                    raise PassFailedException(
                        f"'{inner.name}' inside '{owner.name}': pto-form-bundles handles "
                        "straight-line function bodies only"
                    )
                if b not in blocks:
                    blocks.append(b)
        for b in blocks:
            form_block(b)

