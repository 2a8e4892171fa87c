"""PTO fault classes (PTO-SPEC 3.5, D12) and the architectural fault codes.

One exception type, :class:`PTOFault`, carries the fault kind for every run-time fault
(interpreter, block decoder, assembler input). Static verifier diagnostics use the same
kind names in brackets, e.g. ``[TileLegality]``.

:class:`FaultCode` is the architecture's complete fault enumeration (``FaultCode`` of
``asl/arch/data-types/fault.asl``): the four tile-fault classes plus the scalar, memory, debug
and block-boundary faults. The trap each code raises and the trap context it saves are
modelled by ``interpreter.arch`` (docs/trap-context.md).
"""

from __future__ import annotations

from enum import Enum


class FaultKind(str, Enum):
    """The four PTO fault classes, in their check order (D12)."""

    ILLEGAL_INSTRUCTION = "IllegalInstruction"
    BUNDLE_CONTROL = "BundleControl"
    TILE_LEGALITY = "TileLegality"
    TILE_ALLOCATION = "TileAllocation"

    def __str__(self) -> str:
        return self.value


class FaultCode(str, Enum):
    """The architectural fault codes, in the ASL's order (``asl/arch/data-types/fault.asl``).

    The four :class:`FaultKind` classes are members with the same names, so a
    ``PTOFault.kind`` converts with ``FaultCode(fault.kind)``."""

    NONE = "None"
    EXECUTION_STATE_CHECK = "ExecutionStateCheck"
    ILLEGAL_INSTRUCTION = "IllegalInstruction"
    INSTRUCTION_PC = "InstructionPC"
    INSTRUCTION_PAGE = "InstructionPage"
    DATA_ALIGNMENT = "DataAlignment"
    DATA_PAGE = "DataPage"
    SOFTWARE_BREAKPOINT = "SoftwareBreakpoint"
    HARDWARE_BREAKPOINT = "HardwareBreakpoint"
    HARDWARE_WATCHPOINT = "HardwareWatchpoint"
    ASSERT = "Assert"
    TILE_LEGALITY = "TileLegality"
    TILE_ALLOCATION = "TileAllocation"
    BUNDLE_CONTROL = "BundleControl"
    BUNDLE_POST_COMMIT = "BundlePostCommit"
    SERVICE_REQUEST = "ServiceRequest"

    def __str__(self) -> str:
        return self.value


class PTOFault(Exception):
    """A PTO run-time fault. ``kind`` is the fault class name (e.g. ``"TileLegality"``).

    Every fault is raised before any effect (D12): no destination, auxiliary output or
    interpreter state has changed when this propagates.
    """

    def __init__(self, kind: FaultKind | str, message: str, op: str | None = None):
        self.kind = str(FaultKind(kind))
        self.op = op
        self.message = message
        where = f"'{op}' " if op else ""
        super().__init__(f"{where}[{self.kind}] {message}")
