"""Decoded execution of ``pto.block`` ops (PTO-SPEC 3.5; D12, D15, D16).

A block runs the way the architecture completes it:

1. its ops become isa commands and :func:`pto_dialect.isa.check_block` runs (reserved values
   and selectors -> IllegalInstruction, the a2a3 MX rule of D15 included; block structure ->
   BundleControl; the block's static value rules -> TileLegality), each before any effect;
   a zero PE mask is a strict no-op (the results are unallocated tiles);
2. for the linked block the equivalent tile-level op is rebuilt and checked against the
   linked tile types (:func:`pto_dialect.block_ops.check_linked`: operand/descriptor legality ->
   TileLegality, a destination SizeCode the result does not fit -> TileAllocation);
3. the SAME kernels as the tile level run (:class:`interpreter.ssa.pto_functions.PTOFunctions`,
   i.e. :mod:`interpreter.kernels`), with their data-dependent preflight (definedness, the
   integer zero divisor -> TileLegality) before any result exists; all destinations are
   published together as fresh values (atomic). A destination never names a source register:
   B.IOT names only its hand, resolved to an unallocated register (pto-spec
   ``asl/block/model/dispatch/destination-shape.asl``), so blocks cannot alias; aliasing exists
   only at the tile-instruction level (:mod:`interpreter.machine.tile_registers`).

Linked TLOAD/TSTORE blocks run the tile-level data movement with the block's tensor and
offset operands (the values the GMADDR pseudo-instruction would put in a0/a1). A linked CUBE
block whose B.FPATR selects scalar post-processing parameters passes its scalar operands (the
values B.IOR RegSrc0/RegSrc1 read from a0/a1, PTO-SPEC 3.3 dense order) to the kernel as
``quant_scalar`` / ``lrelu_scalar``; the kernel validates the parameter words (TileLegality)
exactly as at tile level.

B.CATR (``asl/block/attributes/B.CATR.asl``): DR in a CUBE block is BundleControl (the
checker); ``far`` runs locally with the same results (``ExecuteFarBundleTileOperation``),
``atom``/``aq``/``rl`` only order memory events of PTO-TSO, which a sequential single-core run
does not observe, and DR changes no operation in the ASL: those blocks run unchanged. A block
with ``trap`` is refused with a clear error: its post-commit trap has nowhere to go.

Register exhaustion is a static property of the program here: ``pto-assign-registers`` reports it
as ``[TileAllocation]`` (docs/blocks.md). An unlinked block (read from assembly or hex) has
no tile values to run on here and is refused with a clear error; it runs on registers on
:class:`interpreter.machine.shared_blocks.Core` (:mod:`interpreter.machine.core_local`), which
runs it without building a block: its checked tile op goes through :func:`linked_plan` (the
block's operand order over the op's row of :data:`interpreter.ssa.tile_plans.TILE_PLANS`),
as a linked block's does (:mod:`interpreter.machine.dispatch`).
"""

from __future__ import annotations

from typing import Any

from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.utils.exceptions import InterpretationError

from interpreter.ssa.runtime import TileValue
from interpreter.ssa.tile_plans import plan_of
from pto_dialect.attributes import TileType
from pto_dialect.block_ops import (
    BlockOp,
    check_dim_values,
    check_linked,
    dim_registers,
    scalar_roles,
    source_roles,
)
from pto_dialect.data_movement import TStoreOp
from pto_dialect.elementwise_ops import TeplElementwiseOp
from pto_dialect.faults import PTOFault
from pto_dialect.ops import CubeMatrixOp


def block_plan(op: BlockOp, profile: str, in_place: bool = False):
    """The block ``op`` decoded once: ``plan(*operands) -> results``.

    A block with register-base B.DIMs takes their GPR values as trailing operands: the plan
    checks the LBs they give (``check_dim_values``, TileLegality before any effect) and runs
    the block on the other operands."""
    plan = _block_plan(op, profile, in_place)
    try:
        s = op.summary()
        n = len(dim_registers(s)) if op.linked and not s.noop else 0
        tile_op = check_linked(op, s) if n else None
    except PTOFault:
        return plan  # it faults on every execution
    if not n:
        return plan

    def with_dims(*args):
        check_dim_values(s, tile_op, args[len(args) - n:])
        return plan(*args[: len(args) - n])

    return with_dims


def _block_plan(op: BlockOp, profile: str, in_place: bool):
    """:func:`block_plan` without the run-time B.DIM values.

    A block whose decode faults is not cached: its plan decodes again on every execution and
    faults there, at the same op, before any effect (D12). ``in_place`` is passed to a
    TSTORE block's tile plan (:func:`interpreter.ssa.pto_functions.tstore_plan`)."""
    try:
        s = op.summary()  # PTOFault: IllegalInstruction / BundleControl / TileLegality
        tile_op = None if s.noop or not op.linked else check_linked(op, s)
    except PTOFault:
        def faulting(*_args):
            op.summary()
            check_linked(op, op.summary())
            raise AssertionError("unreachable: the decode faulted before")  # pragma: no cover

        return faulting
    if s.noop:
        def noop(*_args):
            return tuple(TileValue(r.type) for r in op.outs)  # type: ignore[arg-type]

        return noop
    if s.catr is not None and s.catr.trap:
        def post_commit_trap(*_args):
            raise InterpretationError(
                "B.CATR trap requests a synchronous trap after the block commits "
                "(Fault_BundlePostCommit); interpreter.run has no trap handler to deliver it "
                "to (the trap model, interpreter.machine.arch, is harness state), so the block is not "
                "run (docs/blocks.md, 'B.CATR'; docs/trap-context.md)"
            )

        return post_commit_trap
    if not op.linked:
        def unlinked(*_args):
            raise InterpretationError(
                "an unlinked pto.block (read from assembly or hex) names registers only; run "
                "the tile-level program or its pto-form-blocks form instead"
            )

        return unlinked
    return linked_plan(s, tile_op, [v.type for v in op.ins if isinstance(v.type, TileType)],
                       profile, in_place)  # fmt: skip


def linked_plan(s, tile_op, in_types: list[TileType], profile: str, in_place: bool = False):
    """The plan of a block ``s`` whose equivalent tile-level op is ``tile_op`` (checked), taking
    the block's operands in block order: its tile sources (of types ``in_types``) in B.IOT
    order, then its scalar parameters in B.IOR dense order (what a0, a1 hold under the pseudo
    convention, docs/blocks.md); a TLOAD / TSTORE / GM block its linked operands. The kernels
    come from the op's row of :data:`interpreter.ssa.tile_plans.TILE_PLANS`; a block adapts
    only the operand order: an omitted B.IOR or RegSrc0 = zero supplies scalar zero to a
    tile-scalar op (the catalog defaults), and a CUBE block's sources are put in the op's role
    order. The machine model runs decoded blocks through this function too
    (:mod:`interpreter.machine.core_local`)."""
    plan = plan_of(tile_op, profile, in_place)
    if isinstance(tile_op, TeplElementwiseOp):
        n, k = len(tile_op.TILE_ROLES), len(tile_op.SCALAR_ROLES)

        def run_elementwise(*args):
            linked = args[n:]
            return plan(*args[:n], *linked, *(0,) * (k - len(linked)))

        return run_elementwise
    if not isinstance(tile_op, CubeMatrixOp):
        return plan
    roles = [*source_roles(s, in_types), *scalar_roles(s)]
    order = [roles.index(r) for r in tile_op.operand_by_role()]

    def run_cube(*args):
        return plan(*(args[i] for i in order))

    return run_cube


def block_stores(op: BlockOp) -> bool:
    """True when ``op`` is a linked TSTORE block (its operand 1 is the destination tensor)."""
    try:
        s = op.summary()
        return not s.noop and op.linked and isinstance(check_linked(op, s), TStoreOp)
    except PTOFault:
        return False


@register_impls
class PTOBlockFunctions(InterpreterFunctions):
    """Interpreter functions for ``pto.block``; ``profile`` selects the GEMV numerics (D4)."""

    def __init__(self, profile: str = "ordered"):
        self.profile = profile
        self._plans: dict[int, tuple[BlockOp, Any]] = {}

    @impl(BlockOp)
    def run_block(self, interpreter: Interpreter, op: BlockOp, args: tuple[Any, ...]):
        # The block's static decode and legality are pure functions of the IR, cached per op
        # like a decode cache: a block in a loop is decoded once (a faulting block's plan
        # decodes, and faults, on every execution).
        hit = self._plans.get(id(op))
        if hit is None or hit[0] is not op:
            hit = (op, block_plan(op, self.profile))
            self._plans[id(op)] = hit
        return hit[1](*args)
