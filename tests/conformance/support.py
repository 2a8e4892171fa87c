"""Shared helpers of the conformance tests: verify a snippet, form blocks, run both levels."""

from __future__ import annotations

import numpy as np
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from interpreter import run
from interpreter.ssa.runner import build_context, parse_module_text
from passes import get_all_passes
from pto_dialect.block_ops import BlockOp


def verify_error(text: str) -> str | None:
    """The verifier's message for an MLIR snippet, or None when it verifies."""
    module = Parser(build_context(), text).parse_module()
    try:
        module.verify()
    except VerifyException as e:
        return str(e)
    return None


def bundled(text: str, **assign_options):
    """``text`` after ``pto-form-blocks`` and ``pto-assign-registers`` (every tile op is a
    decoded block; ``assign_options`` e.g. ``tile_capacity=768``), verified."""
    ctx = build_context()
    m = parse_module_text(text, ctx=ctx)
    m.verify()
    passes = get_all_passes()
    passes["pto-form-blocks"]()().apply(ctx, m)
    passes["pto-assign-registers"]()(**assign_options).apply(ctx, m)
    m.verify()
    assert any(isinstance(o, BlockOp) for o in m.walk()), "no block was formed"
    return m


def run_both_levels(text: str, *args, symbol: str = "f") -> np.ndarray:
    """Run ``@symbol`` at tile level and as decoded blocks; the two agree bit for bit. Returns
    the first result of the tile level."""
    (tile,) = run(text, symbol, *args)
    (blk,) = run(bundled(text), symbol, *args)
    assert tile.dtype == blk.dtype and np.array_equal(tile.view(np.uint8), blk.view(np.uint8))
    return tile


def capacity_in_use(text: str, tile_capacity: int = 256 * 1024) -> list[int]:
    """Core tile capacity (bytes, ``CoreTileCapacityInUse``) the live tiles of ``@f`` hold
    right after each decoded block of its block program allocates its destinations, in
    program order (``passes.pto_assign_registers.assign_function``); the register assignment
    itself fails ``[TileAllocation]`` beyond ``tile_capacity``."""
    from xdsl.dialects import func

    from passes.pto_assign_registers import assign_function

    m = bundled(text, tile_capacity=tile_capacity)
    (fn,) = [o for o in m.walk() if isinstance(o, func.FuncOp)]
    used = assign_function(fn, tile_capacity).in_use
    return [n for op, n in used.items() if isinstance(op, BlockOp)]


_IOR_LINE = "pto.b.ior <src0 = a0, src1 = {}, src2 = zero, dst = zero>"


def base_zero(text: str, ior: str | None) -> str:
    """The formed blocks of ``text`` (one TLOAD/TSTORE at constant offsets 0) with that block's
    B.IOR replaced: None omits it (GM base 0, the dense row stride), ``"zero"`` is
    ``B.IOR [zero, zero]`` (base 0, the encoded-zero stride; docs/blocks.md)."""
    formed = str(bundled(text))
    k0 = _IOR_LINE.format("zero") in formed
    old = _IOR_LINE.format("zero" if k0 else "a1")
    assert formed.count(old) == 1
    new = "" if ior is None else "pto.b.ior <src0 = zero, src1 = zero, src2 = zero, dst = zero>"
    return formed.replace(old, new)
