"""AVS pass conditions of the architectural trap model (arch/data-types/system-registers,
arch/data-types/trap-context, arch/data-types/fault, tile/model/memory/restart; D17) through
``interpreter.machine.arch.ArchState`` and its linked ``interpreter.machine.block_control.BlockControl``.

Expected values are written out here from the ASL (trap numbers, reset values, access
classes), not read from the model's tables.
"""

from __future__ import annotations

import numpy as np

from conformance.inventory import avs
from conformance.model_support import U64, prog, u64
from conformance.support import bundled
from interpreter import run
from interpreter.machine.arch import ArchState, TrapContext
from interpreter.machine.arch import registers as R
from pto_dialect.faults import FaultCode
from pto_dialect.isa import BlockKind, Transfer

ONES = (1 << 64) - 1
F = FaultCode

# -- system registers ---------------------------------------------------------------------

RESET_NONZERO = {"VERSION": 1, "TILE_CAPACITY": 262144, "ECONFIG": 3}
"""``ResetProfileState``: every other visible register resets to zero."""
READ_ONLY = {"TIME", "CORE_ID", "VENDOR", "VERSION", "CORE_FEATURE", "THREAD_ID",
             "TILE_CAPACITY", "BLOCKNUM", "BLOCKID", "CYCLE", "IPENDING", "TOPEI",
             "TIMER_TIME", "DBGID"}  # fmt: skip
WRITE_ONLY = {"EOIEI"}
BASE_ADDRESSES = {"THREAD_PTR": 0x0000, "GLOBAL_PTR": 0x0001, "TIME": 0x0010,
                  "CORE_STATE": 0x0020, "CORE_ID": 0x0021, "VENDOR": 0x0022, "VERSION": 0x0023,
                  "CORE_FEATURE": 0x0024, "CORE_FEATURE_ENABLE": 0x0025, "THREAD_ID": 0x0026,
                  "TILE_CAPACITY": 0x0027, "BLOCKNUM": 0x0050, "BLOCKID": 0x0051,
                  "CYCLE": 0x0C00}  # fmt: skip
"""``BaseSystemRegisterOfAddress``."""


@avs("PTO-AVS-ARCH-SYSREG-RESET-ACCESS-001")
def test_system_register_reset_and_access():
    """``ValidateSystemRegisterResetAndAccess``: after reset, at ACR0, every address of every
    visible register (16 banks of each ``_ACRn`` register) reads its reset value without a
    fault (the write-only EOIEI is checked in its backing store); then each register's first
    address: a write-only read, a read-only write are IllegalInstruction and change nothing;
    a read-write register reads back what was written."""
    a = ArchState()
    assert a.acr == 0 and a.last_fault is F.NONE
    for row in R.SYSTEM_REGISTERS:
        want = RESET_NONZERO.get(row.name, 0)
        for address in R.addresses_of(row):
            if row.name in WRITE_ONLY:
                assert a.file.get(address, 0) == want
                continue
            assert a.read_register(address) == want, (row.name, hex(address))
            assert a.last_fault is F.NONE
    assert len(R.SYSTEM_REGISTERS) == 72
    a.reset()
    for index, row in enumerate(R.SYSTEM_REGISTERS):
        address = R.addresses_of(row)[0]
        if row.name in WRITE_ONLY:
            assert a.read_register(address) == 0 and a.last_fault is F.ILLEGAL_INSTRUCTION
            a.clear_fault()
        elif row.name in READ_ONLY:
            before = a.read_register(address)
            assert not a.write_register(address, ONES)
            assert a.last_fault is F.ILLEGAL_INSTRUCTION
            a.clear_fault()
            assert a.read_register(address) == before and a.last_fault is F.NONE
        else:
            value = 0x100 if row.name == "CORE_STATE" else 4 if row.name == "TRAPNO" \
                else 0x100 + index  # fmt: skip
            assert a.write_register(address, value) and a.last_fault is F.NONE
            assert a.read_register(address) == value and a.last_fault is F.NONE, row.name
        assert a.acr == 0
    # the access classes, and no other address is a register
    assert {r.name for r in R.SYSTEM_REGISTERS if r.access is R.Access.READ_ONLY} == READ_ONLY
    assert {r.name for r in R.SYSTEM_REGISTERS if r.access is R.Access.WRITE_ONLY} == WRITE_ONLY
    for address in (0x00FFFF, 0x100000, 0x1020, 0x0F04, 0x2F10):
        assert R.access_of(address) is R.Access.UNKNOWN
        a.reset()
        assert a.read_register(address) == 0 and a.last_fault is F.ILLEGAL_INSTRUCTION
    # a context register from a ring other than ACR0 is IllegalInstruction; base ones are not
    a.reset()
    a.set_acr(3)
    assert a.read_register(0x0023) == 1 and a.last_fault is F.NONE
    assert a.read_register(0x3F07) == 0 and a.last_fault is F.ILLEGAL_INSTRUCTION


@avs("PTO-AVS-ARCH-DATA-TYPES-SYSTEM-REGISTERS-STATIC-001")
def test_system_registers_unit():
    """The unit's types: the 14 base registers (``SystemRegister``) at their addresses, the
    four writable ones (``SystemRegisterIsWritable``), the access enumeration; a CORE_STATE
    write selects the current ring, TIME and CYCLE are the architectural time, which every
    instruction attempt advances by one."""
    base = {r.name: r for r in R.SYSTEM_REGISTERS if r.scope is R.Scope.BASE}
    assert {n: r.offset for n, r in base.items()} == BASE_ADDRESSES
    assert {n for n, r in base.items() if r.access is R.Access.READ_WRITE} == {
        "THREAD_PTR", "GLOBAL_PTR", "CORE_STATE", "CORE_FEATURE_ENABLE"}  # fmt: skip
    assert [a.value for a in R.Access] == ["Unknown", "ReadOnly", "WriteOnly", "ReadWrite"]
    a = ArchState()
    assert a.write_register(0x0020, 0x105) and a.acr == 5
    assert a.read_register(0x0020) == 0x105
    a.set_acr(0)
    assert a.read_register(0x0020) == 0x100
    a.begin_attempt()
    a.begin_attempt()
    assert a.read_register(0x0010) == a.read_register(0x0C00) == 2
    assert a.read_register(0x0F20) == 2  # TIMER_TIME aliases the time


@avs("PTO-AVS-ARCH-TESTVISIBLETRAPCONTEXTREGISTERS-FAULT-001")
def test_visible_trap_context_registers():
    """``TestVisibleTrapContextRegisters``: ACR0 reaches every bank's context registers; ACR1
    writing one is IllegalInstruction (trapping to ACR1 itself); reset clears them. A trap
    save clears EBARG_LB/LC and keeps the extended-context words; recovery consumes none of
    the five (they read back whatever was written after the save)."""
    a = ArchState()
    a.clear_fault()
    for address, value in ((0x0F40, 0x40), (0x1F45, 0x145), (0xFF51, 0xF51)):
        assert a.write_register(address, value)
    assert a.last_fault is F.NONE
    assert a.read_register(0x0F40) == 0x40 and a.read_register(0x1F45) == 0x145
    assert a.read_register(0xFF51) == 0xF51 and a.read_register(0x1F40) == 0
    a.set_acr(1)
    a.clear_fault()
    assert not a.write_register(0x1F40, ONES)
    assert a.last_fault is F.ILLEGAL_INSTRUCTION and a.acr == 1
    a.reset()
    assert all(a.file.get(x, 0) == 0 for x in (0x0F40, 0x1F45, 0xFF51))

    a.set_acr(0)
    for low in range(0xF4D, 0xF52):
        assert a.write_register(0x1000 | low, low - 0xF00)
    a.control.tpc, a.control.bpc = 0x200, 0x100
    a.save_trap_context(1, 2)
    assert [a.read_register(0x1000 | low) for low in range(0xF4D, 0xF52)] == [0, 0, 0x4F, 0x50,
                                                                              0x51]  # fmt: skip
    for low in range(0xF4D, 0xF52):
        assert a.write_register(0x1000 | low, 0x100 + low - 0xF00)
    assert a.recover_trap_context(1) and a.acr == 2
    assert a.control.tpc == 0x200 and a.control.bpc == 0x100
    a.set_acr(0)
    assert [a.read_register(0x1000 | low) for low in range(0xF4D, 0xF52)] == [
        0x14D, 0x14E, 0x14F, 0x150, 0x151]  # fmt: skip


@avs("PTO-AVS-ARCH-DATA-TYPES-TRAP-CONTEXT-STATIC-001")
def test_trap_context_unit():
    """The trap-context record as this model holds it: reset leaves one invalid, zero context
    per ring; a save fills it and the visible EBARG0 control word (source ring in bits 3:0,
    bit 4 valid, 5 block active, 6 body active, 10:7 kind, 13:11 transfer, 14 taken:
    a Floating COND taken block from ACR3 in its body = 3 | 1<<4 | 1<<5 | 1<<6 | 1<<7 |
    2<<11 | 1<<14 = 0x50F3); recovery clears bit 4 and the record's valid flag."""
    a = ArchState()
    assert a.trap_contexts == [TrapContext()] * 16
    assert not any(t.valid or t.tpc or t.bpc or t.bundle_active for t in a.trap_contexts)
    c = a.control
    c.tpc, c.bpc, c.active, c.body_active = 0x88, 0x80, True, True
    c.barg.kind, c.barg.transfer, c.barg.taken, c.barg.bpcn = BlockKind.FP, Transfer.COND, \
        True, 0x120  # fmt: skip
    a.set_acr(3)
    a.save_trap_context(1, 3)
    saved = a.trap_contexts[1]
    assert saved.valid and saved.source_acr == 3 and saved.tpc == 0x88 and saved.bpc == 0x80
    assert saved.bundle_active and saved.bundle_body_active and saved.barg.bpcn == 0x120
    assert a.context_register(1, 0xF40) == 0x50F3
    assert a.context_register(1, 0xF00) & 0x1F == 0x13  # ECSTATE: source ring, body active
    assert (a.context_register(1, 0xF41), a.context_register(1, 0xF42),
            a.context_register(1, 0xF43)) == (0x80, 0x120, 0x88)  # fmt: skip
    c.reset()
    assert a.recover_trap_context(1)
    assert c.active and c.body_active and c.barg.kind is BlockKind.FP
    assert c.barg.transfer is Transfer.COND and c.barg.taken and c.barg.bpcn == 0x120
    assert a.context_register(1, 0xF40) == 0x50E3 and not a.trap_contexts[1].valid
    assert not a.recover_trap_context(1)  # consumed


# -- the trap envelope ----------------------------------------------------------------------

SYNCHRONOUS = {F.EXECUTION_STATE_CHECK: 0, F.ILLEGAL_INSTRUCTION: 4, F.BUNDLE_CONTROL: 5,
               F.BUNDLE_POST_COMMIT: 5, F.TILE_LEGALITY: 5, F.TILE_ALLOCATION: 5,
               F.SERVICE_REQUEST: 6, F.INSTRUCTION_PC: 32, F.INSTRUCTION_PAGE: 33,
               F.DATA_ALIGNMENT: 34, F.DATA_PAGE: 35, F.HARDWARE_BREAKPOINT: 49,
               F.SOFTWARE_BREAKPOINT: 50, F.HARDWARE_WATCHPOINT: 51, F.ASSERT: 52}  # fmt: skip
"""The trap number of each fault (the envelope test's TRAP-WITNESS cases)."""


@avs("PTO-AVS-ARCH-TESTCOMPLETETRAPENVELOPE-FAULT-001")
def test_complete_trap_envelope():
    """``TestCompleteTrapEnvelope``: every fault from ACR15 traps into ACR1 with its number, a
    valid synchronous argument (the fault address) and a zero cause, saving ACR15's TPC, and
    recovers to it; a service request (type 1) from ACR2 enters ACR1 at EVBASE with trap 6,
    cause 1, resuming after the request; an interrupt is the asynchronous trap 44."""
    assert set(SYNCHRONOUS) == set(F) - {F.NONE}
    for code, number in SYNCHRONOUS.items():
        a = ArchState()
        a.set_acr(15)
        a.control.tpc = 0x1000
        a.set_fault(code, 0x2000)
        bank, saved = a.banks[1], a.trap_contexts[1]
        assert a.acr == 1 and bank.number == number, code
        assert bank.argument_valid and not bank.asynchronous and bank.cause == 0
        assert bank.argument0 == 0x2000 and a.control.tpc == 0x2000  # EVBASE 0: the address
        assert saved.valid and saved.source_acr == 15 and saved.tpc == 0x1000
        assert a.recover_trap_context(a.acr) and a.acr == 15 and a.control.tpc == 0x1000
        assert not a.trap_contexts[1].valid

    a = ArchState()
    assert a.write_register(0x1F01, 0x900)  # EVBASE of ACR1
    a.set_acr(2)
    a.control.tpc = 0x400
    assert a.raise_service_request(1)
    assert a.last_fault is F.SERVICE_REQUEST and a.fault_address == 0x400 and a.acr == 1
    bank = a.banks[1]
    assert (bank.number, bank.argument0, bank.cause) == (6, 0x400, 1)
    assert not bank.asynchronous and bank.argument_valid
    assert a.trap_contexts[1].source_acr == 2 and a.trap_contexts[1].tpc == 0x404
    assert a.context_register(1, 0xF43) == 0x404 and a.control.tpc == 0x900
    assert a.recover_trap_context(a.acr) and a.acr == 2 and a.control.tpc == 0x404
    assert not a.trap_contexts[1].valid

    a = ArchState()
    a.set_acr(15)
    a.control.tpc = 0x3000
    assert a.raise_interrupt(63, 0x55) and a.acr == 1
    bank = a.banks[1]
    assert (bank.number, bank.argument0, bank.cause) == (44, 63, 0x55)
    assert bank.asynchronous and bank.argument_valid
    assert a.trap_contexts[1].source_acr == 15 and a.trap_contexts[1].tpc == 0x3000
    assert a.recover_trap_context(a.acr) and a.acr == 15 and a.control.tpc == 0x3000


# -- precise restart --------------------------------------------------------------------------

DIV = prog([("a", U64), ("b", U64)], f"  %r = pto.tdiv %a, %b : {U64}", [("r", U64)])


@avs("PTO-AVS-TILE-MODEL-MEMORY-RESTART-STATIC-001")
def test_restart_contract():
    """The unit's contract: restart is owned by the operations (a fault before any effect)
    and the architecture's fault model (the saved context resumes the faulting instruction,
    a service request the next one). A tile block that faults at TPC 0x640 leaves no
    result; its trap context resumes 0x640, and the corrected block then completes there."""
    a = ArchState()
    text = bundled(DIV)
    ok, result = a.run_at(0x640, run, text, "f", u64([[8, 8], [8, 8]]), u64([[2, 0], [2, 2]]))
    assert not ok and result is None and a.last_fault is F.TILE_LEGALITY
    assert a.banks[0].number == 5 and a.trap_contexts[0].tpc == 0x640
    a.control.tpc = 0x8000  # the handler
    assert a.recover_trap_context(0) and a.control.tpc == 0x640
    ok, (r,) = a.run_at(a.control.tpc, run, text, "f", u64([[8, 8], [8, 8]]),
                        u64([[2, 4], [2, 2]]))  # fmt: skip
    assert ok and a.last_fault is F.NONE
    np.testing.assert_array_equal(r.reshape(-1, 2, 2)[0], [[4, 2], [4, 4]])
    # a service request resumes after itself
    a = ArchState()
    a.set_acr(2)
    a.control.tpc = 0x700
    assert a.raise_service_request(0) and a.acr == 0
    assert a.recover_trap_context(0) and a.control.tpc == 0x704
