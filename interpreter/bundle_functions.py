"""Decoded execution of ``pto.block`` bundles (PTO-SPEC 3.5; D12, D15, D16).

A block runs the way the architecture completes it:

1. its ops become isa commands and :func:`pto_dialect.isa.check_block` runs (reserved values
   and selectors -> IllegalInstruction, the a2a3 MX rule of D15 included; block structure ->
   BundleControl; the block's static value rules -> TileLegality), each before any effect;
   a zero PE mask is a strict no-op (the results are unallocated tiles);
2. for the linked block the equivalent tile-level op is rebuilt and checked against the
   linked tile types (:func:`pto_dialect.bundle.check_linked`: operand/descriptor legality ->
   TileLegality, a destination SizeCode the result does not fit -> TileAllocation);
3. the SAME kernels as the tile level run (:class:`interpreter.pto_functions.PTOFunctions`,
   i.e. :mod:`interpreter.kernels`), with their data-dependent preflight (definedness, the
   integer zero divisor -> TileLegality) before any result exists; all destinations are
   published together as fresh values (atomic).

Linked TLOAD/TSTORE blocks run the tile-level data movement with the block's tensor and
offset operands (the values the GMADDR pseudo-instruction would put in a0/a1). A linked CUBE
block whose B.FPATR selects scalar post-processing parameters passes its scalar operands (the
values B.IOR RegSrc0/RegSrc1 read from a0/a1, PTO-SPEC 3.3 dense order) to the kernel as
``quant_scalar`` / ``lrelu_scalar``; the kernel validates the parameter words (TileLegality)
exactly as at tile level.

Register exhaustion is a static property of the program here: ``pto-assign-registers`` reports it
as ``[TileAllocation]`` (docs/blocks.md). An unlinked block (read from assembly or hex) has
no tile values to run on and is refused with a clear error.
"""

from __future__ import annotations

from typing import Any

from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.utils.exceptions import InterpretationError

from interpreter.pto_functions import PTOFunctions
from interpreter.runtime import TileValue
from pto_dialect.attributes import TileType
from pto_dialect.bundle import BlockOp, check_linked, scalar_roles, source_roles
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.ops import BinaryTileOp, CubeMatrixOp
from pto_dialect.tile_local import GeneratorTileOp, TeplTileOp


@register_impls
class PTOBundleFunctions(InterpreterFunctions):
    """Interpreter functions for ``pto.block``; ``profile`` selects the GEMV numerics (D4)."""

    def __init__(self, profile: str = "exact"):
        self.tile = PTOFunctions(profile)
        self._decoded: dict[int, tuple[BlockOp, Any, Any]] = {}

    def _decode(self, op: BlockOp):
        """The block's static decode and legality (pure functions of the IR), cached per op
        like a decode cache: a block in a loop is decoded once. Faults are never cached, so
        a faulting block faults on every execution."""
        hit = self._decoded.get(id(op))
        if hit is not None and hit[0] is op:
            return hit[1], hit[2]
        s = op.summary()  # PTOFault: IllegalInstruction / BundleControl / TileLegality
        tile_op = None
        if not s.noop and op.linked:
            tile_op = check_linked(op, s)
        self._decoded[id(op)] = (op, s, tile_op)
        return s, tile_op

    @impl(BlockOp)
    def run_block(self, interpreter: Interpreter, op: BlockOp, args: tuple[Any, ...]):
        s, tile_op = self._decode(op)
        if s.noop:
            return tuple(TileValue(r.type) for r in op.outs)  # type: ignore[arg-type]
        if not op.linked:
            raise InterpretationError(
                "an unlinked pto.block (read from assembly or hex) names registers only; run "
                "the tile-level program or its pto-form-bundles form instead"
            )
        if isinstance(tile_op, TLoadOp):
            return self.tile.run_tload(interpreter, tile_op, args).values
        if isinstance(tile_op, TStoreOp):
            return self.tile.run_tstore(interpreter, tile_op, args).values
        if isinstance(tile_op, BinaryTileOp):
            return self.tile._run_binary(tile_op, args)
        if isinstance(tile_op, TeplTileOp):
            return self.tile._run_local(tile_op, args)
        if isinstance(tile_op, GeneratorTileOp):
            return self.tile._run_generator(tile_op, args)
        assert isinstance(tile_op, CubeMatrixOp)
        # Operands: tile sources in stream order, then the scalar post-processing parameters
        # in B.IOR dense order (what a0, a1 hold under the pseudo convention, docs/blocks.md).
        in_types: list[TileType] = [v.type for v in op.ins if isinstance(v.type, TileType)]
        roles = [*source_roles(s, in_types), *scalar_roles(s)]
        by_role = dict(zip(roles, args))
        ordered = tuple(by_role[r] for r in tile_op.operand_by_role())
        return self.tile._run_cube(tile_op, ordered)
