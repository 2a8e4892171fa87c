"""The block-control state model (``interpreter.machine.block_control``) beyond the AVS tests: the
stop forms' continuation (BSTOP / C.BSTOP / L.BSTOP), COND not taken, InstructionPC, the
retiring block staying authoritative when its commit fails, and the refusal of tile blocks.
Expected values are derived by hand from the ASL functions named in the module docstring."""

from __future__ import annotations

import pytest

from interpreter.machine.arch import new_block_control
from interpreter.machine.block_control import (
    BUNDLE_CONTROL,
    BUNDLE_POST_COMMIT,
    INSTRUCTION_PC,
)
from pto_dialect import isa
from pto_dialect.isa import BCatr, BlockKind, CBStart, CBStartFp, CBStartStd, CBStartSys, Transfer


@pytest.mark.parametrize("stop, size", [(isa.BStop(), 4), (isa.CBStop(), 2), (isa.LBStop(), 8)])
def test_stop_commits_sequentially_or_to_bpcn(stop, size):
    # FALL: the continuation is the stop's own fallthrough (TPC + its length)
    c = new_block_control(0x100)
    assert c.execute(CBStartStd(1)) and c.tpc == 0x102
    assert c.execute(stop) and c.tpc == 0x102 + size
    assert not c.active and c.bpc == 0 and c.barg.transfer is Transfer.FALL
    # DIRECT: BARG.BPCN wins
    c = new_block_control(0x280)
    assert c.execute(CBStart(0, 0x40)) and c.barg.bpcn == 0x300
    assert c.execute(stop) and c.tpc == 0x300 and not c.active and c.barg.bpcn == 0


def test_l_bstop_word_commits_like_bstop():
    """L.BSTOP (low word 0x0000000F, high word 0x00000001) executes as one 64-bit stop
    (the pass condition of AVS L-BSTOP-EXEC-001, outside the inventory's scope)."""
    c = new_block_control(0x280)
    assert c.execute_word(0x00000011, 32)  # BSTART DIRECT to itself
    assert c.barg.bpcn == 0x280
    assert c.execute_word(0x00000001_0000000F, 64)
    assert c.tpc == 0x280 and c.bpc == 0 and not c.active
    assert c.barg.transfer is Transfer.FALL
    # the two halves alone are not L.BSTOP
    assert not new_block_control(0).execute_word(0x0000000F, 32)


def test_cond_not_taken_falls_through():
    c = new_block_control(0x200)
    assert c.execute(CBStart(1, 0x20))
    assert c.barg.bpcn == 0x240 and not c.barg.taken
    assert c.execute(isa.BStop()) and c.tpc == 0x202 + 4


def test_stop_without_block_is_bundle_control():
    c = new_block_control(0x40)
    assert not c.execute(isa.BStop()) and c.last_fault == BUNDLE_CONTROL and c.tpc == 0x40


def test_odd_targets_are_instruction_pc():
    c = new_block_control(0x100, return_address=0x521)
    assert not c.execute(CBStartFp(7)) and c.last_fault == INSTRUCTION_PC and not c.active
    c = new_block_control(0x101)
    assert not c.execute(CBStart(0, 1)) and c.last_fault == INSTRUCTION_PC


def test_failed_predecessor_commit_keeps_the_retiring_block():
    """A Standard block with DR cannot commit: the next start is rejected (BundleControl) and
    the retiring block stays active with its BARG."""
    c = new_block_control(0x100)
    assert c.execute(CBStart(0, 0x40)) and c.execute(BCatr(dr=1))
    barg = c.barg
    assert not c.execute(CBStartSys()) and c.last_fault == BUNDLE_CONTROL
    assert c.active and c.barg == barg and c.bpc == 0x100 and c.tpc == 0x102


def test_post_commit_trap_on_the_next_start():
    """The predecessor commits and traps; the new block is not opened."""
    c = new_block_control(0x100)
    assert c.execute(CBStartStd(1)) and c.execute(BCatr(trap=1))
    assert not c.execute(CBStartSys()) and c.last_fault == BUNDLE_POST_COMMIT
    assert not c.active and c.tpc == 0x102
    trap = c.arch.trap_contexts[c.arch.acr]
    assert trap.valid and trap.tpc == 0x102 and not trap.bundle_active


def test_start_replaces_the_active_block():
    c = new_block_control(0x100)
    assert c.execute(CBStartStd(1)) and c.execute(BCatr(rl=1))
    assert c.execute(CBStartFp(1))
    assert c.barg.kind is BlockKind.FP and c.bpc == 0x102 and c.catr is None


def test_tile_commands_are_not_modelled_here():
    c = new_block_control(0)
    with pytest.raises(isa.NotModelledError, match="pto.block"):
        c.execute(isa.BStart.op("TREM", 17))
    assert c.execute(CBStartStd(1))
    with pytest.raises(isa.NotModelledError):
        c.execute(isa.CBDimi(0, 4))
