"""The architectural trap model (``interpreter.machine.arch``) beyond the AVS tests: trap-status
packing, interrupts and the timer, recoverability, the trap vector, and faults of the
block-control model entering their trap. Expected values are derived by hand from the ASL
functions named in ``interpreter/machine/arch/state.py``."""

from __future__ import annotations

import pytest

from interpreter.machine.arch import ArchState, new_block_control
from interpreter.machine.block_control import BlockControl
from pto_dialect import isa
from pto_dialect.faults import FaultCode
from pto_dialect.isa import BCatr, BStartStd, CBStart, CBStartStd

F = FaultCode


def test_trap_status_packs_into_trapno():
    a = ArchState()
    a.set_acr(15)
    a.control.tpc = 0x3000
    assert a.raise_interrupt(63, 0x55)
    a.set_acr(0)
    # bit 63 asynchronous, bit 62 argument valid, cause 0x55 at bit 24, trap 44 (0x2C)
    assert a.read_register(0x1F02) == 0xC000_0000_5500_002C
    assert a.read_register(0x1F03) == 63
    assert a.write_register(0x1F02, 1 << 62 | 0xABC << 24 | 0x7F)
    b = a.banks[1]
    assert (b.asynchronous, b.argument_valid, b.cause, b.number) == (False, True, 0xABC, 0x3F)


def test_interrupt_pending_top_and_end_of_interrupt():
    a = ArchState()
    a.set_acr(15)
    assert a.raise_interrupt(40, 0) and a.raise_interrupt(9, 0)  # the second from ACR1
    a.set_acr(0)
    assert a.read_register(0x1F08) == 1 << 40 | 1 << 9 and a.read_register(0x1F09) == 9
    assert a.write_register(0x1F0A, 9)
    assert a.read_register(0x1F08) == 1 << 40 and a.read_register(0x1F09) == 40
    assert not a.banks[1].asynchronous and not a.banks[1].argument_valid
    assert a.write_register(0x1F0A, 1 << 6)  # not an interrupt id: only the status clears
    assert a.read_register(0x1F08) == 1 << 40


def test_disabled_interrupt_is_only_pending():
    a = ArchState()
    assert a.write_register(0x0F07, 0)  # ECONFIG of ACR0: nothing enabled
    a.control.tpc = 0x100
    assert not a.raise_interrupt(5, 1)
    assert a.read_register(0x0F08) == 1 << 5 and a.banks[0].number == 0
    assert not a.trap_contexts[0].valid and a.control.tpc == 0x100


def test_timer_compare_sets_the_timer_interrupt():
    a = ArchState()
    assert a.write_register(0x0F21, 3) and a.read_register(0x0F08) == 0  # time 0 < 3
    for _ in range(3):
        a.begin_attempt()
    assert a.read_register(0x0F08) == 1 << 1  # ACR0's timer is interrupt 1
    assert a.write_register(0x1F21, 2) and a.read_register(0x1F08) == 1 << 3  # ACR1's is 3
    assert a.write_register(0x0F21, 0) and a.read_register(0x0F08) == 0  # 0 disarms


def test_recoverability_rules():
    def trapped() -> ArchState:
        a = ArchState()
        a.control.tpc = 0x40
        a.set_fault(F.ILLEGAL_INSTRUCTION, 0x40)
        return a

    a = trapped()
    assert a.write_register(0x0F43, 0x42)  # the handler picks another resume TPC
    assert a.recover_trap_context(0) and a.control.tpc == 0x42
    a = trapped()
    assert a.write_register(0x0F43, 0x43)  # odd
    assert not a.recover_trap_context(0) and a.trap_contexts[0].valid
    a = trapped()
    assert a.write_register(0x0F40, a.read_register(0x0F40) | 1 << 15)  # reserved bit
    assert not a.recover_trap_context(0)
    a = trapped()
    assert a.write_register(0x0F00, 1)  # ECSTATE names another ring than EBARG0
    assert not a.recover_trap_context(0)
    a = trapped()
    assert a.write_register(0x0F40, a.read_register(0x0F40) | 8 << 7)  # frame template
    with pytest.raises(isa.NotModelledError, match="frame"):
        a.recover_trap_context(0)
    assert not ArchState().recover_trap_context(0)  # nothing saved


def test_trap_vector_and_rings():
    a = ArchState()
    assert a.write_register(0x1F01, 0x7000)
    a.set_acr(5)
    a.control.tpc = 0x200
    a.set_fault(F.DATA_PAGE, 0x1234)
    assert a.acr == 1 and a.control.tpc == 0x7000 and a.fault_address == 0x1234
    assert a.read_register(0x0020) & 0xF == 1  # CORE_STATE follows the ring
    # ClearFault clears the current ring's record only
    a.set_acr(0)
    a.clear_fault()
    assert a.banks[1].number == 35 and a.last_fault is F.NONE
    # ACR0 traps into itself
    a = ArchState()
    a.set_fault(F.ASSERT, 0x10)
    assert a.acr == 0 and a.banks[0].number == 52 and a.trap_contexts[0].source_acr == 0


def test_service_request_permissions():
    a = ArchState()
    a.control.tpc = 0x20
    assert not a.raise_service_request(0)  # ACR0 may not request
    assert a.last_fault is F.ILLEGAL_INSTRUCTION and a.banks[0].number == 4
    a = ArchState()
    a.set_acr(1)
    assert not a.raise_service_request(1) and a.acr == 1  # ACR1 may request 0 or 2 only
    a.set_acr(1)
    assert a.raise_service_request(2) and a.acr == 0 and a.banks[0].cause == 2


def test_block_control_faults_enter_their_trap():
    c = new_block_control(0x100)
    c.arch.set_acr(7)
    assert not c.execute(isa.BStop())  # no active block
    assert c.last_fault == F.BUNDLE_CONTROL and c.arch.acr == 1
    saved = c.arch.trap_contexts[1]
    assert saved.source_acr == 7 and saved.tpc == 0x100 and c.arch.banks[1].number == 5
    assert c.arch.recover_trap_context(1) and c.arch.acr == 7 and c.tpc == 0x100
    # an odd target: the fault address is the target, which (EVBASE 0) is the trap entry
    c = new_block_control(0x101)
    assert not c.execute(CBStart(0, 1)) and c.last_fault == F.INSTRUCTION_PC
    assert c.arch.fault_address == 0x103 == c.tpc and c.arch.banks[0].number == 32
    assert c.arch.trap_contexts[0].tpc == 0x101 and not c.active
    assert not c.arch.recover_trap_context(0)  # an odd TPC is not a restart point


def test_commit_of_a_saved_block_after_recovery():
    """A B.CATR DR Standard block cannot commit: its BundleControl trap saves the active
    block with its B.CATR; recovery reinstates both, so the same commit fails the same way."""
    c = new_block_control(0x200)
    assert c.execute(BStartStd(2, 0x40)) and c.execute(BCatr(dr=1))
    assert not c.complete(0x208) and c.last_fault == F.BUNDLE_CONTROL
    c.reset(0x9000)
    assert c.arch.recover_trap_context(0)
    assert c.active and c.catr == BCatr(dr=1) and c.bpc == 0x200 and c.barg.bpcn == 0x280
    assert c.sequential_pc == 0x204 and c.tpc == 0x204
    assert not c.complete(0x208) and c.last_fault == F.BUNDLE_CONTROL


def test_attempts_keep_the_trap_record():
    c = new_block_control(0x100)
    assert not c.execute(isa.BStop())
    assert c.execute(CBStartStd(1)) and c.last_fault is None
    assert c.arch.banks[0].number == 5 and c.arch.trap_contexts[0].valid
    assert c.arch.cycle == 2


def test_a_given_arch_state_is_relinked():
    a = ArchState()
    a.set_acr(4)
    c = BlockControl(0x300, arch=a)
    assert a.control is c and c.arch is a and a.acr == 4
    assert not c.execute(isa.BStop()) and a.trap_contexts[1].tpc == 0x300
