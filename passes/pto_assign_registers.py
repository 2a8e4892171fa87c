"""``pto-assign-registers``: SSA tiles -> the 64 Local tile registers (PTO-SPEC 2; D12, D16).

Runs after ``pto-form-bundles`` (which leaves register fields as placeholders and marks each
block ``pto.unassigned``). Register model (docs/blocks.md):

* 64 Local registers, hands T U M N of 16 (index = hand*16 + k-1, named ``t#k``..``n#k``).
* Hand of a tile: CUBE_M16/M32 -> ``m``, CUBE_N8 -> ``n``, E8M0 (MX scales) -> ``u``,
  everything else -> ``t`` (:func:`passes.pto_form_bundles.hand_of`).
* Program order is the pre-order walk of each function (ops nested in ``scf.for`` bodies
  included, each body once). Function arguments are allocated at entry; an op's tile results
  when it executes, while its sources are still held (sources persist, D is a fresh
  allocation), each taking the **lowest free index of its hand** - the choice the hardware
  allocator makes for a destination (pto-spec ``asl/block/model/dispatch/cube-destination.asl``).
* A register is released after the last use of its value; a result never used is released
  at once. A use inside a region op (an ``scf.for`` body) that does not contain the value's
  definition keeps the value live until the end of that whole op (every iteration reads it).
* Tiles never cross region boundaries otherwise: a tile block argument of a nested region,
  or a tile yielded or passed to a region op, is refused with a clear error.
* More live tiles in a hand than 16 -> ``[TileAllocation]`` naming the op, the hand and the
  number live (D12: TileAllocation; static here, D16).

The pass then writes the allocation into every linked ``pto.block``: each B.IOT source field
gets the register of the corresponding tile operand (stream order) and each destination the
hand of its result's register; the ``pto.unassigned`` marker is removed.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import PassFailedException

from passes.pto_form_bundles import hand_of
from pto_dialect import isa
from pto_dialect.attributes import TileType
from pto_dialect.bundle import UNASSIGNED_ATTR, BlockOp, BundleCommandOp
from pto_dialect.isa.commands import HANDS, tile_index
from pto_dialect.predicate import PredicateTileType

REGISTERS_PER_HAND = 16


def _is_tile(v: SSAValue) -> bool:
    return isinstance(v.type, TileType | PredicateTileType)


class RegisterFile:
    """Lowest-free-index allocation per hand with release (PTO-SPEC 2)."""

    def __init__(self):
        self.free = [set(range(REGISTERS_PER_HAND)) for _ in HANDS]
        self.of: dict[SSAValue, int] = {}

    def allocate(self, v: SSAValue, where: str) -> int:
        assert isinstance(v.type, TileType | PredicateTileType)
        hand = hand_of(v.type)
        if not self.free[hand]:
            raise PassFailedException(
                f"[TileAllocation] {where} needs a register in hand {HANDS[hand]}, but all "
                f"{REGISTERS_PER_HAND} are live ({REGISTERS_PER_HAND + 1} tiles of hand "
                f"{HANDS[hand]} would be live at once; PTO-SPEC 2, docs/blocks.md)"
            )
        k = min(self.free[hand])
        self.free[hand].discard(k)
        self.of[v] = tile_index(hand, k + 1)
        return self.of[v]

    def release(self, v: SSAValue) -> None:
        idx = self.of.get(v)
        if idx is not None:
            self.free[idx >> 4].add(idx & 15)


def _linearize(body: Block) -> tuple[list[Operation], dict[Operation, int], dict[Operation, int]]:
    order: list[Operation] = []
    pos: dict[Operation, int] = {}
    end: dict[Operation, int] = {}

    def visit(op: Operation) -> None:
        pos[op] = len(order)
        order.append(op)
        for region in op.regions:
            for b in region.blocks:
                for inner in b.ops:
                    visit(inner)
        end[op] = len(order) - 1

    for op in body.ops:
        visit(op)
    return order, pos, end


def _check_boundaries(order: list[Operation]) -> None:
    for op in order:
        if isinstance(op, BlockOp):
            continue
        for region in op.regions:
            for b in region.blocks:
                for a in b.args:
                    if _is_tile(a):
                        raise PassFailedException(
                            f"'{op.name}': a tile region argument (loop-carried tile) is not "
                            "supported; tiles may only be read inside a region they were not "
                            "defined in"
                        )
        if op.regions and any(_is_tile(o) for o in op.operands):
            raise PassFailedException(
                f"'{op.name}': passing a tile into a region op is not supported"
            )
        parent = op.parent_op()
        if (
            op.has_trait(IsTerminator)
            and parent is not None
            and not isinstance(parent, func.FuncOp)
            and any(_is_tile(o) for o in op.operands)
        ):
            raise PassFailedException(
                f"'{op.name}': a tile cannot leave its region (yielded by '{parent.name}')"
            )


def assign_function(fn: func.FuncOp) -> dict[SSAValue, int]:
    """Allocate registers over one function body; returns value -> register index."""
    if not fn.body.blocks:
        return {}
    if len(fn.body.blocks) != 1:
        raise PassFailedException(
            f"'{fn.sym_name.data}': pto-assign-registers handles single-block function bodies"
        )
    entry = fn.body.blocks[0]
    order, pos, end = _linearize(entry)
    _check_boundaries(order)

    def last_use(v: SSAValue, def_block: Block) -> int:
        last = -1
        for use in v.uses:
            top = use.operation
            while top.parent_block() is not def_block:
                parent = top.parent_op()
                if parent is None:
                    break
                top = parent
            last = max(last, end[top] if top is not use.operation else pos[top])
        return last

    dying: dict[int, list[SSAValue]] = {}
    regs = RegisterFile()
    for a in entry.args:
        if _is_tile(a):
            regs.allocate(a, f"argument {a.index} of '{fn.sym_name.data}'")
            dying.setdefault(last_use(a, entry), []).append(a)
    for v in dying.pop(-1, []):  # unused arguments free their register at entry
        regs.release(v)
    for i, op in enumerate(order):
        results = [r for r in op.results if _is_tile(r)]
        for r in results:
            regs.allocate(r, f"'{op.name}'")
            b = op.parent_block()
            assert b is not None
            dying.setdefault(max(last_use(r, b), i), []).append(r)
        for v in dying.pop(i, []):
            regs.release(v)
    return regs.of


def _register_of(of: dict[SSAValue, int], v: SSAValue, role: str) -> int:
    reg = of.get(v)
    if reg is None:
        raise PassFailedException(
            f"pto-assign-registers: a pto.block {role} tile is not defined in the function "
            "body that uses it (a tile from outside the function has no register)"
        )
    return reg


def write_registers(block: BlockOp, of: dict[SSAValue, int]) -> None:
    """Fill the B.IOT register fields of a linked block from the allocation."""
    srcs = [v for v in block.ins if _is_tile(v)]
    dsts = [r for r in block.outs if _is_tile(r)]
    si = iter(srcs)
    di = iter(dsts)
    for cmd_op in list(block.body.block.ops):
        assert isinstance(cmd_op, BundleCommandOp)
        cmd = cmd_op.to_command()
        if not isinstance(cmd, isa.BIot) or cmd.pe_mode == 0:
            continue
        changes: dict[str, int | None] = {}
        for name in ("src0", "src1"):
            if getattr(cmd, name) is not None:
                v = next(si, None)
                if v is None:
                    raise PassFailedException("pto.block binds more sources than it links")
                changes[name] = _register_of(of, v, "source")
        if cmd.dst_hand is not None:
            r = next(di, None)
            if r is None:
                raise PassFailedException("pto.block binds more destinations than it has results")
            changes["dst_hand"] = _register_of(of, r, "destination") >> 4
        new = BundleCommandOp.from_command(cmd.replace(**changes))
        block.body.block.insert_op_before(new, cmd_op)
        block.body.block.erase_op(cmd_op)
    block.attributes.pop(UNASSIGNED_ATTR, None)


@dataclass(frozen=True)
class PTOAssignRegistersPass(ModulePass):
    """Liveness-based Local tile register assignment (module docstring)."""

    name = "pto-assign-registers"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for fn in list(op.walk()):
            if not isinstance(fn, func.FuncOp):
                continue
            of = assign_function(fn)
            for inner in fn.walk():
                if isinstance(inner, BlockOp) and inner.linked:
                    write_registers(inner, of)
