"""``pto-lower``: the pipeline from linalg-like programs to register-assigned PTO blocks.

1. ``convert-linalg-to-pto`` — recognise GEMV (with bias / ReLU / FP16-BF16 output) and
   floor modulo as ``pto.gemv`` / ``pto.floor_mod`` on tensors;
2. ``pto-tile-to-capacity`` — tile them into ``pto.tload`` / ``pto.tgemv_mx_bias`` /
   ``pto.trem`` / ``pto.tstore`` programs within the Local capacity (D10, D13, D14);
3. ``dce`` — drop what recognition left dead (the zero ``linalg.fill`` of a folded init,
   the ``tensor.empty`` outputs of folded epilogues);
4. ``pto-form-blocks`` — every tile op (data movement included) becomes its ``pto.block``;
5. ``pto-assign-registers`` — liveness-based Local register assignment (docs/blocks.md).

The tiler sizes each tile within ``tile-bytes``; the tiles live at once must also fit the core
tile capacity (256 KiB, ``asl/tile/model/capacity/local.asl``). Every family budgets its own
op's live tiles (the GEMV / matmul plan with ``cube_live_bytes``, the others by
``LIVE_TILES``), but tiles of several ops can be live at once, and a reduction's or a
transpose's line may need a larger tile. So the pass lowers with ``tile-bytes`` and,
while the blocks' peak exceeds the capacity, again with the next smaller TSize for the other
families (the CUBE tiles kept at ``tile-bytes``), then, if that is not enough, for every
family; the program of the first sizes that fit is kept (at both levels, so the tile-level
program is the one the blocks run), or the pass fails naming the peak.

``pto-lower{level=tile}`` stops after step 3 (the tile-level program of docs/lowering.md);
``level=block`` (the default) runs all five steps. Each step reports to
:mod:`passes.instrument` as ``pto-lower/<step>`` (a retry with smaller tiles adds
``[tile-bytes=N]``), so ``pto-opt --time-passes`` and ``--print-ir-after-all`` see the steps.

Everything PTO cannot run (other linalg ops, near misses of the idioms) is kept as it was;
``pto-lower{report=true}`` says which ops were lowered to what and why the others were kept
(and, per D22 math op, its composition and measured bound; ``approx=false`` keeps them),
and the block targets refuse a program with such leftovers (D19, ``passes.lowering``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.utils.exceptions import PassFailedException

from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass
from passes.instrument import run_sub_pass
from passes.lowering.approximate import report_lines as approximation_lines
from passes.lowering.report import LoweringTrace, print_lines
from passes.lowering.tile_plans import LIVE_TILES, LOCAL_MAX_BYTES, NUM_PES, family_tile_bytes
from passes.pto_assign_registers import assign_function, write_function_registers
from passes.pto_form_blocks import PTOFormBlocksPass
from passes.pto_tile_to_capacity import PtoTileToCapacityPass
from pto_dialect.geometry import TILE_CAPACITY_BYTES

SMALLEST_TILE_BYTES = 128
"""The smallest Local TSize (code 1, D14)."""


@dataclass(frozen=True)
class PTOLowerPass(ModulePass):
    """Recognition, tiling to capacity and cleanup in one pass.

    Options: ``level`` (``block``, the default, or ``tile``); forwarded: ``target`` (``a5`` /
    ``a2a3``, default: the module's ``pto.target`` or ``a5``), ``tile-bytes`` (default
    65536: the largest TSize tried), ``pes`` (default 4), ``chain`` (``acc``, the default: K chunks accumulate through
    the ACC forms; ``memory``: through an FP32 tensor); ``report`` (default false: print
    the lowering report to stderr, :mod:`passes.lowering.report`); ``approx`` (default true:
    the D22 compositions of :mod:`passes.lowering.approximate`; false keeps those ops).
    """

    name = "pto-lower"

    target: str = ""
    tile_bytes: int = LOCAL_MAX_BYTES
    pes: int = NUM_PES
    level: str = "block"
    chain: str = "acc"
    report: bool = False
    approx: bool = True

    LEVELS = ("tile", "block")

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if self.level not in self.LEVELS:
            raise PassFailedException(
                f"pto-lower: level must be one of {', '.join(self.LEVELS)}, got '{self.level}'"
            )
        PtoTileToCapacityPass(
            tile_bytes=self.tile_bytes, pes=self.pes, target=self.target, chain=self.chain
        ).check_options()
        approx_lines = approximation_lines(op, self.approx) if self.report else []
        for cube_bytes, tile_bytes in self._sizes():
            lowered, trace, peak = self._lower(ctx, op, tile_bytes, cube_bytes)
            if peak <= TILE_CAPACITY_BYTES:
                break
        else:
            raise PassFailedException(
                f"pto-lower: the lowered program holds {peak} B of tiles at once even "
                f"with tile-bytes={SMALLEST_TILE_BYTES}, above the core tile capacity "
                f"{TILE_CAPACITY_BYTES} B (asl/tile/model/capacity/local.asl)"
            )
        op.body.detach_block(0)
        op.body.add_block(lowered.body.detach_block(0))
        if trace is not None:
            print_lines([*trace.lines(op), *approx_lines,
                         _capacity_line(cube_bytes, tile_bytes, self.pes, peak)])

    def _sizes(self) -> list[tuple[int, int]]:
        """(CUBE tile bytes, other tile bytes) in the order tried. The tiler sizes each tile
        within tile-bytes; the tiles live at once must also fit the core tile capacity
        (asl/tile/model/capacity/local.asl). The CUBE plan budgets its live set, so the other
        families shrink first; then every family (the live set does not shrink in
        proportion: smaller chunks can keep more tiles live, so every size is tried, largest
        first)."""
        sizes = []
        t = self.tile_bytes
        while t >= SMALLEST_TILE_BYTES:
            sizes.append(t)
            t //= 2
        return [(sizes[0], t) for t in sizes] + [(t, t) for t in sizes[1:]]

    def _lower(self, ctx: Context, op: builtin.ModuleOp, tile_bytes: int,
               cube_bytes: int | None = None):
        """Lower a copy of ``op`` with ``tile_bytes`` (``cube_bytes`` for the GEMV / matmul
        tiles, default the same): (the result at ``level``, its trace, the peak core tile
        capacity its blocks hold)."""
        work = op.clone()
        trace = LoweringTrace.start(work) if self.report else None
        retry = "" if tile_bytes == self.tile_bytes == (cube_bytes or tile_bytes) else (
            f" [tile-bytes={tile_bytes}]"
        )

        def step(name: str, body) -> None:
            run_sub_pass(f"pto-lower/{name}{retry}", work, body)

        step("convert-linalg-to-pto", lambda: ConvertLinalgToPtoPass(target=self.target, approx=self.approx).apply(
            ctx, work, listener=trace.listener() if trace else None
        ))
        step("pto-tile-to-capacity", lambda: PtoTileToCapacityPass(
            tile_bytes=tile_bytes, pes=self.pes, target=self.target, chain=self.chain,
            cube_tile_bytes=cube_bytes or tile_bytes,
        ).apply(ctx, work))
        step("dce", lambda: (remove_dead_tensor_inits(work), DeadCodeElimination().apply(ctx, work)))
        tiled = work.clone() if self.level == "tile" else work
        step("pto-form-blocks", lambda: PTOFormBlocksPass().apply(ctx, work))
        assigned = []

        def assign() -> None:
            assigned.extend((fn, assign_function(fn, None)) for fn in list(work.walk())
                            if isinstance(fn, func.FuncOp))
            peak = max((a.peak for _, a in assigned), default=0)
            if self.level == "block" and peak <= TILE_CAPACITY_BYTES:
                for fn, a in assigned:  # what pto-assign-registers writes, from the same analysis
                    write_function_registers(fn, a.registers)

        step("pto-assign-registers", assign)
        peak = max((a.peak for _, a in assigned), default=0)
        return tiled, trace, peak


def _capacity_line(cube_bytes: int, tile_bytes: int, pes: int, peak: int) -> str:
    """The report's line on the tile sizes ``pto-lower`` kept and the capacity they use."""
    families = ", ".join(f"{f} {family_tile_bytes(f, tile_bytes, pes) // 1024}"
                         for f in LIVE_TILES)
    return (f"  tile sizes: GEMV/matmul up to {cube_bytes // 1024} KiB per PE, the others up "
            f"to (KiB) {families}; peak {peak} B of the {TILE_CAPACITY_BYTES} B core "
            "tile capacity")


def _effect_free(op: linalg.GenericOp) -> bool:
    """A generic on tensors whose body has no effect (no ``cf.assert``, no op without
    results but the yield)."""
    return all(isinstance(v.type, TensorType) for v in op.outputs) and all(
        o.results or isinstance(o, linalg.YieldOp) for o in op.body.block.ops
    )


def remove_dead_tensor_inits(module: builtin.ModuleOp) -> None:
    """Erase unused ``linalg.fill`` on tensors, ``tensor.empty`` and effect-free
    ``linalg.generic`` on tensors.

    On tensors both are free of side effects, but xDSL's ``dce`` keeps ``linalg.fill``
    (it has a region and no ``Pure`` trait). Walking backwards frees a fill's
    ``tensor.empty`` in the same sweep.
    """
    for o in list(module.walk(reverse=True)):
        dead = all(not r.uses for r in o.results)
        if isinstance(o, linalg.FillOp) and o.results and dead:
            Rewriter.erase_op(o)
        elif isinstance(o, linalg.GenericOp) and o.results and dead and _effect_free(o):
            Rewriter.erase_op(o)  # a dead generic on tensors (TopK's unused index iota)
        elif isinstance(o, tensor.EmptyOp) and dead:
            Rewriter.erase_op(o)
