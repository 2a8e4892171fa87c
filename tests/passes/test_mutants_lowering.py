"""Tests that kill the lowering-row mutants a fresh sample left alive (issue 27,
``scripts/mutate.py --only lowering``): each names the mutant it was written for.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, f32
from xdsl.dialects.test import TestOp as DefOp

from passes.lowering.data_movement import GATHER_TILE_BYTES
from passes.lowering.elementwise import gather_reason


def test_gather_reason_at_the_one_tile_bound():
    """A data-dependent gather's table of exactly one largest Local tile (64 KiB) is a
    TGATHER candidate; 4 bytes more needs MGATHER. Seed 4304: ``elementwise.py:114 cmp
    LtE->Lt`` (the reason at the bound)."""
    assert GATHER_TILE_BYTES == 65536
    for n, fits in ((GATHER_TILE_BYTES // 4, True), (GATHER_TILE_BYTES // 4 + 1, False)):
        table = DefOp(result_types=[TensorType(f32, [n])]).results[0]
        reason = gather_reason(DefOp(operands=[table]))
        assert ("TGATHER within one tile" in reason) == fits, reason
        assert f"{n * 4} B" in reason
