"""Shared helpers of the conformance tests: verify a snippet, form blocks, run both levels."""

from __future__ import annotations

import numpy as np
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from interpreter import run
from interpreter.runner import build_context, parse_module_text
from passes import get_all_passes
from pto_dialect.bundle import BlockOp


def verify_error(text: str) -> str | None:
    """The verifier's message for an MLIR snippet, or None when it verifies."""
    module = Parser(build_context(), text).parse_module()
    try:
        module.verify()
    except VerifyException as e:
        return str(e)
    return None


def bundled(text: str):
    """``text`` after ``pto-form-bundles`` and ``pto-assign-registers`` (every tile op is a
    decoded block), verified."""
    ctx = build_context()
    m = parse_module_text(text, ctx=ctx)
    m.verify()
    passes = get_all_passes()
    for name in ("pto-form-bundles", "pto-assign-registers"):
        passes[name]()().apply(ctx, m)
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
