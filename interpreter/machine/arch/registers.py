"""The system-register map of the PTO v0 reference profile, as one data table.

Sources (pto-spec e599a3d3; read, not copied): the register enumeration
``asl/arch/data-types/system-registers.asl``, the base registers and their access
``asl/scalar/model/sys/registers.asl`` / ``semantics.asl`` (``IsBaseSystemRegisterAddress``,
``BaseSystemRegisterOfAddress``, ``SystemRegisterIsWritable``), the banked context family
``asl/arch/system-registers/*.asl`` and the reset values ``asl/arch/profile/reset.asl``
(``ResetProfileState``); the access classes of the context family are the ones the ASL's
generated ``SystemRegisterAccessOf`` gives (the spec's register catalog).

Addressing: a system-register address has 24 bits, bits 23:16 zero. A **base** register has
one address. A **context-family** register lives at ``ACR << 12 | low`` for each of the 16
access-control rings (one bank per ring, ``ContextRegisterIndex``); a few exist only in the
bank of one ring (the ACR1 translation registers). Context-family registers (low index
0xF00 and above) are reachable from ACR0 only (``SystemRegisterAccessPermitted``).

``behaviour`` names how a read or write acts beyond storing the word; the state model
(:mod:`interpreter.machine.arch.state`) dispatches on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pto_dialect.geometry import TILE_CAPACITY_BYTES

ACR_COUNT = 16
"""Access-control rings 0..15 (``PTO_ACR_COUNT``)."""
WORD_MASK = (1 << 64) - 1
"""PTO_XLEN = 64: every register is one 64-bit word."""
CONTEXT_LOW = 0xF00
"""Low indices from here on are the ACR-banked context family (root ring only)."""
CONTEXT_RESET_RANGE = range(0xF00, 0xFB8)
"""The low indices ``ResetProfileState`` clears in every bank."""


class Access(Enum):
    """``SystemRegisterAccess``."""

    UNKNOWN = "Unknown"
    READ_ONLY = "ReadOnly"
    WRITE_ONLY = "WriteOnly"
    READ_WRITE = "ReadWrite"


class Scope(Enum):
    BASE = "base"
    """One address, every ring may access it."""
    BANKED = "banked"
    """``ACR << 12 | low`` for every ring (the ``_ACRn`` registers)."""
    FIXED = "fixed"
    """Only in the bank of ring :attr:`SystemRegisterRow.ring`."""


@dataclass(frozen=True)
class SystemRegisterRow:
    name: str
    offset: int
    """The address of a base register, the low index (11:0) of a context register."""
    scope: Scope
    access: Access
    reset: int = 0
    behaviour: str = "stored"
    ring: int = 0
    """The one bank of a :attr:`Scope.FIXED` register."""


RO, WO, RW = Access.READ_ONLY, Access.WRITE_ONLY, Access.READ_WRITE
BASE, BANKED, FIXED = Scope.BASE, Scope.BANKED, Scope.FIXED

SYSTEM_REGISTERS: tuple[SystemRegisterRow, ...] = (
    # base registers: the SystemRegister enumeration (system-registers.asl)
    SystemRegisterRow("THREAD_PTR", 0x0000, BASE, RW),
    SystemRegisterRow("GLOBAL_PTR", 0x0001, BASE, RW),
    SystemRegisterRow("TIME", 0x0010, BASE, RO, behaviour="time"),
    SystemRegisterRow("CORE_STATE", 0x0020, BASE, RW, behaviour="core-state"),
    SystemRegisterRow("CORE_ID", 0x0021, BASE, RO),
    SystemRegisterRow("VENDOR", 0x0022, BASE, RO),
    SystemRegisterRow("VERSION", 0x0023, BASE, RO, reset=1),
    SystemRegisterRow("CORE_FEATURE", 0x0024, BASE, RO),
    SystemRegisterRow("CORE_FEATURE_ENABLE", 0x0025, BASE, RW),
    SystemRegisterRow("THREAD_ID", 0x0026, BASE, RO),
    SystemRegisterRow("TILE_CAPACITY", 0x0027, BASE, RO, reset=TILE_CAPACITY_BYTES),
    SystemRegisterRow("BLOCKNUM", 0x0050, BASE, RO),
    SystemRegisterRow("BLOCKID", 0x0051, BASE, RO),
    SystemRegisterRow("CYCLE", 0x0C00, BASE, RO, behaviour="time"),
    # trap entry and status (fault-precision.asl, access-control.asl)
    SystemRegisterRow("ECSTATE", 0xF00, BANKED, RW),
    SystemRegisterRow("EVBASE", 0xF01, BANKED, RW),
    SystemRegisterRow("TRAPNO", 0xF02, BANKED, RW, behaviour="trap-status"),
    SystemRegisterRow("TRAPARG0", 0xF03, BANKED, RW, behaviour="trap-argument"),
    SystemRegisterRow("ETEMP", 0xF05, BANKED, RW),
    SystemRegisterRow("ETEMP0", 0xF06, BANKED, RW),
    # interrupts and the timer (interrupt.asl, timer.asl)
    SystemRegisterRow("ECONFIG", 0xF07, BANKED, RW, reset=3),
    SystemRegisterRow("IPENDING", 0xF08, BANKED, RO, behaviour="pending"),
    SystemRegisterRow("TOPEI", 0xF09, BANKED, RO, behaviour="top-pending"),
    SystemRegisterRow("EOIEI", 0xF0A, BANKED, WO, behaviour="end-of-interrupt"),
    # translation configuration: storage only in PTO v0 (identity translation)
    *(SystemRegisterRow(name, low, FIXED, RW, ring=1) for name, low in (
        ("TTBR0", 0xF10), ("TTBR1", 0xF11), ("TCR", 0xF12), ("MAIR", 0xF13),
        ("IOTTBR", 0xF14), ("IOTCR", 0xF15), ("IOMAIR", 0xF16))),  # fmt: skip
    SystemRegisterRow("TIMER_TIME", 0xF20, BANKED, RO, behaviour="time"),
    SystemRegisterRow("TIMER_TIMECMP", 0xF21, BANKED, RW, behaviour="timer-compare"),
    SystemRegisterRow("XBINFO", 0xF30, BANKED, RW),
    SystemRegisterRow("ACR_PARAM", 0xF31, BANKED, RW),
    # the saved execution context (reference-profile.asl SaveTrapContext)
    SystemRegisterRow("EBARG0", 0xF40, BANKED, RW),
    SystemRegisterRow("EBARG_BPC_CUR", 0xF41, BANKED, RW),
    SystemRegisterRow("EBARG_BPC_TGT", 0xF42, BANKED, RW),
    SystemRegisterRow("EBARG_TPC", 0xF43, BANKED, RW),
    SystemRegisterRow("EBARG_LRA", 0xF44, BANKED, RW),
    *(SystemRegisterRow(f"EBARG_TQ{i}", 0xF45 + i, BANKED, RW) for i in range(4)),
    *(SystemRegisterRow(f"EBARG_UQ{i}", 0xF49 + i, BANKED, RW) for i in range(4)),
    SystemRegisterRow("EBARG_LB", 0xF4D, BANKED, RW),
    SystemRegisterRow("EBARG_LC", 0xF4E, BANKED, RW),
    SystemRegisterRow("EBARG_EXTCTX_PTR", 0xF4F, BANKED, RW),
    SystemRegisterRow("EBARG_EXTCTX_META", 0xF50, BANKED, RW),
    SystemRegisterRow("EBARG_TPLFLAGS", 0xF51, BANKED, RW),
    # debug: storage only in PTO v0 (matching disabled)
    SystemRegisterRow("DBGID", 0xF80, BANKED, RO),
    *(SystemRegisterRow(f"DB{kind}R{i}", 0xF90 + 2 * i + (kind == "V"), BANKED, RW)
      for i in range(4) for kind in "CV"),  # fmt: skip
    SystemRegisterRow("DCCR0", 0xFA0, BANKED, RW),
    SystemRegisterRow("DCVR0", 0xFA1, BANKED, RW),
    *(SystemRegisterRow(f"DW{kind}R{i}", 0xFB0 + 2 * i + (kind == "V"), BANKED, RW)
      for i in range(4) for kind in "CV"),  # fmt: skip
)
"""Every architecturally visible system register (72 definitions)."""

BY_NAME = {row.name: row for row in SYSTEM_REGISTERS}
_BASE = {row.offset: row for row in SYSTEM_REGISTERS if row.scope is BASE}
_CONTEXT = {row.offset: row for row in SYSTEM_REGISTERS if row.scope is not BASE}

# low indices the trap model reads and writes directly (PTOv0Read/WriteContextRegister)
ECSTATE, EVBASE, TRAPNO, TRAPARG0 = 0xF00, 0xF01, 0xF02, 0xF03
ECONFIG, IPENDING, TOPEI, TIMECMP = 0xF07, 0xF08, 0xF09, 0xF21
EBARG0, EBARG_BPC_CUR, EBARG_BPC_TGT, EBARG_TPC, EBARG_LRA = 0xF40, 0xF41, 0xF42, 0xF43, 0xF44
EBARG_TQ, EBARG_UQ, EBARG_LB, EBARG_LC = 0xF45, 0xF49, 0xF4D, 0xF4E


def context_address(ring: int, low: int) -> int:
    """``ContextRegisterIndex``: the address of context register ``low`` in ring's bank."""
    return ring << 12 | low


def register_of(address: int) -> SystemRegisterRow | None:
    """The register at a 24-bit address, or None (``SystemRegisterAccessOf`` Unknown)."""
    if address >> 16:
        return None
    if address in _BASE:
        return _BASE[address]
    row = _CONTEXT.get(address & 0xFFF)
    if row is None or (row.scope is FIXED and address >> 12 != row.ring):
        return None
    return row


def access_of(address: int) -> Access:
    """``SystemRegisterAccessOf``."""
    row = register_of(address)
    return Access.UNKNOWN if row is None else row.access


def access_permitted(address: int, ring: int) -> bool:
    """``SystemRegisterAccessPermitted`` of the reference profile: base registers from every
    ring, the context family from ACR0 only (reads and writes alike)."""
    return (address & 0xFFF) < CONTEXT_LOW or ring == 0


def addresses_of(row: SystemRegisterRow) -> list[int]:
    """Every address of a register: one for base and fixed ones, 16 for a banked one."""
    if row.scope is BASE:
        return [row.offset]
    if row.scope is FIXED:
        return [context_address(row.ring, row.offset)]
    return [context_address(ring, row.offset) for ring in range(ACR_COUNT)]


__all__ = [
    "ACR_COUNT",
    "BY_NAME",
    "SYSTEM_REGISTERS",
    "Access",
    "Scope",
    "SystemRegisterRow",
    "access_of",
    "access_permitted",
    "addresses_of",
    "context_address",
    "register_of",
]
