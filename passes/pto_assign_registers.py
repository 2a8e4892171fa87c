"""``pto-assign-registers``: SSA tiles -> the 64 Local tile registers (PTO-SPEC 2; D12, D16).

Runs after ``pto-form-blocks`` (which leaves register fields as placeholders and marks each
block ``pto.unassigned``). Register model (docs/blocks.md):

* 64 Local registers, hands T U M N of 16 (index = hand*16 + k-1, named ``t#k``..``n#k``).
* Hand of a tile: CUBE_M16/M32 -> ``m``, CUBE_N8 -> ``n``, E8M0 (MX scales) -> ``u``,
  everything else -> ``t`` (:func:`passes.pto_form_blocks.hand_of`).
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
* Core tile capacity (pto-spec ``asl/tile/model/capacity/local.asl``, ``shared.asl``,
  ``asl/tile/model/legality/pe-mask.asl``): a live tile charges ``popcount(pe) x size`` bytes
  (its per-PE SizeCode capacity on every PE that holds it; a mask-0 block's results charge
  nothing, they are unallocated). Allocating a tile whose charge would take the charges of
  the live tiles beyond the ``tile_capacity`` system register (option ``tile_capacity``,
  default its reset value 256 KiB, ``asl/arch/profile/reset.asl``) -> ``[TileAllocation]``
  naming the op and the bytes, as the ASL raises it before any destination is allocated
  (``asl/block/model/dispatch/destination-shape.asl``). Release follows liveness, as for
  registers. :func:`assign_function` returns the accounting (:class:`Assignment`).
  ``capacity_check=false`` accounts without refusing. ``pto-tile-to-capacity`` sizes each
  tile, not the live set; ``pto-lower`` uses this accounting to pick the largest tile size
  whose program fits (docs/conformance.md "Core tile capacity").

The pass then writes the allocation into every linked ``pto.block``: each B.IOT source field
gets the register of the corresponding tile operand (stream order) and each destination the
hand of its result's register; the ``pto.unassigned`` marker is removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import PassFailedException

from passes.pto_form_blocks import hand_of
from pto_dialect import isa
from pto_dialect.attributes import TileType
from pto_dialect.block_ops import UNASSIGNED_ATTR, BlockCommandOp, BlockOp
from pto_dialect.faults import PTOFault
from pto_dialect.geometry import TILE_CAPACITY_BYTES, core_allocation_bytes
from pto_dialect.isa.commands import HANDS, tile_index
from pto_dialect.predicate import PredicateTileType

REGISTERS_PER_HAND = 16


def _is_tile(v: SSAValue) -> bool:
    return isinstance(v.type, TileType | PredicateTileType)


def core_charge(t: TileType | PredicateTileType) -> int:
    """Bytes of core tile capacity a tile of type ``t`` holds: its per-PE capacity on every PE
    of its mask (``TileCoreAllocationBytes``, asl/tile/model/legality/pe-mask.asl)."""
    return core_allocation_bytes(t.pe_mask, t.capacity)


class RegisterFile:
    """Lowest-free-index allocation per hand with release (PTO-SPEC 2), and the core tile
    capacity the live tiles hold against ``limit`` (``CoreTileCapacityInUse``)."""

    def __init__(self, limit: int | None = TILE_CAPACITY_BYTES):
        self.free = [set(range(REGISTERS_PER_HAND)) for _ in HANDS]
        self.of: dict[SSAValue, int] = {}
        self.limit = limit
        self.in_use = 0
        self.charge: dict[SSAValue, int] = {}

    def allocate(self, v: SSAValue, where: str, charged: bool = True) -> int:
        assert isinstance(v.type, TileType | PredicateTileType)
        hand = hand_of(v.type)
        need = core_charge(v.type) if charged else 0
        if self.limit is not None and self.in_use + need > self.limit:
            raise PassFailedException(
                f"[TileAllocation] {where} needs {need} B of core tile capacity "
                f"(pe={v.type.pe_mask} x {v.type.capacity} B), but {self.in_use} B of the "
                f"tile_capacity {self.limit} B are held by live tiles "
                "(asl/block/model/dispatch/destination-shape.asl CoreTileCapacityInUse, "
                "docs/blocks.md)"
            )
        if not self.free[hand]:
            raise PassFailedException(
                f"[TileAllocation] {where} needs a register in hand {HANDS[hand]}, but all "
                f"{REGISTERS_PER_HAND} are live ({REGISTERS_PER_HAND + 1} tiles of hand "
                f"{HANDS[hand]} would be live at once; PTO-SPEC 2, docs/blocks.md)"
            )
        k = min(self.free[hand])
        self.free[hand].discard(k)
        self.of[v] = tile_index(hand, k + 1)
        self.charge[v] = need
        self.in_use += need
        return self.of[v]

    def release(self, v: SSAValue) -> None:
        idx = self.of.get(v)
        if idx is not None:
            self.free[idx >> 4].add(idx & 15)
            self.in_use -= self.charge.pop(v, 0)


@dataclass
class Assignment:
    """The allocation of one function: ``registers`` (value -> Local register index) and
    ``in_use`` (op -> core tile capacity in bytes held right after the op's results are
    allocated, before the registers of values it was the last use of are released; the
    function's entry is ``None``)."""

    registers: dict[SSAValue, int]
    in_use: dict[Operation | None, int] = field(default_factory=dict)

    @property
    def peak(self) -> int:
        return max(self.in_use.values(), default=0)


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


def _charged(op: Operation) -> bool:
    """A mask-0 block is a strict no-op: its results are unallocated and hold no capacity."""
    if not isinstance(op, BlockOp):
        return True
    try:
        return not op.summary().noop
    except PTOFault:
        return True  # the block faults when it runs; charge what its types declare


def assign_function(fn: func.FuncOp, limit: int | None = TILE_CAPACITY_BYTES) -> Assignment:
    """Allocate registers over one function body, holding at most ``limit`` bytes of core
    tile capacity at once (``None``: account without a limit); returns the
    :class:`Assignment`."""
    if not fn.body.blocks:
        return Assignment({}, {None: 0})
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
    regs = RegisterFile(limit)
    in_use: dict[Operation | None, int] = {}
    for a in entry.args:
        if _is_tile(a):
            regs.allocate(a, f"argument {a.index} of '{fn.sym_name.data}'")
            dying.setdefault(last_use(a, entry), []).append(a)
    in_use[None] = regs.in_use
    for v in dying.pop(-1, []):  # unused arguments free their register at entry
        regs.release(v)
    for i, op in enumerate(order):
        results = [r for r in op.results if _is_tile(r)]
        charged = _charged(op) if results else True
        for r in results:
            regs.allocate(r, f"'{op.name}'", charged)
            b = op.parent_block()
            assert b is not None
            dying.setdefault(max(last_use(r, b), i), []).append(r)
        in_use[op] = regs.in_use
        for v in dying.pop(i, []):
            regs.release(v)
    return Assignment(regs.of, in_use)


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
        assert isinstance(cmd_op, BlockCommandOp)
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
        new = BlockCommandOp.from_command(cmd.replace(**changes))
        block.body.block.insert_op_before(new, cmd_op)
        block.body.block.erase_op(cmd_op)
    block.attributes.pop(UNASSIGNED_ATTR, None)


@dataclass(frozen=True)
class PTOAssignRegistersPass(ModulePass):
    """Liveness-based Local tile register assignment (module docstring)."""

    name = "pto-assign-registers"

    tile_capacity: int = TILE_CAPACITY_BYTES
    """The ``tile_capacity`` system register in bytes (0 .. 256 KiB; asl/tile/model/capacity/
    local.asl ``TileCapacityLimitBytes``)."""
    capacity_check: bool = True
    """False: account the capacity but do not refuse."""

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if not 0 <= self.tile_capacity <= TILE_CAPACITY_BYTES:
            raise PassFailedException(
                f"pto-assign-registers: tile_capacity must be 0 .. {TILE_CAPACITY_BYTES} bytes "
                f"(asl/tile/model/capacity/local.asl), got {self.tile_capacity}"
            )
        for fn in list(op.walk()):
            if not isinstance(fn, func.FuncOp):
                continue
            limit = self.tile_capacity if self.capacity_check else None
            write_function_registers(fn, assign_function(fn, limit).registers)


def write_function_registers(fn: func.FuncOp, of: dict[SSAValue, int]) -> None:
    """:func:`write_registers` into every linked ``pto.block`` of ``fn``."""
    for inner in fn.walk():
        if isinstance(inner, BlockOp) and inner.linked:
            write_registers(inner, of)
