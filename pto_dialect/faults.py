"""PTO fault classes (PTO-SPEC 3.5, D12) and the architectural fault codes.

One exception type, :class:`PTOFault`, carries the fault kind for every run-time fault
(interpreter, block decoder, assembler input). Static verifier diagnostics use the same
kind names in brackets, e.g. ``[TileLegality]``.

:class:`FaultCode` is the architecture's complete fault enumeration (``FaultCode`` of
``asl/arch/data-types/fault.asl``): the four tile-fault classes plus the scalar, memory, debug
and block-boundary faults. The trap each code raises and the trap context it saves are
modelled by ``interpreter.machine.arch`` (docs/trap-context.md).
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


DATA_FAULTS = frozenset({FaultCode.DATA_ALIGNMENT, FaultCode.DATA_PAGE})
"""The data-access faults a GM access raises (``ProbeDataAccess``, asl/scalar/model/agu/
memory.asl); they carry the faulting access's address (docs/gm-faults.md)."""


class PTOFault(Exception):
    """A PTO run-time fault. ``kind`` is the fault code's name (e.g. ``"TileLegality"``).

    Every fault is raised before any effect (D12): no destination, auxiliary output or
    interpreter state has changed when this propagates.

    ``kind`` is one of the four :class:`FaultKind` classes wherever the SSA-level interpreter,
    the block checker or the assembler raise it; the architectural-state models
    (``interpreter.machine.shared_blocks.Core``, ``interpreter.machine.shared_registers``) also raise the
    other architectural codes where the ASL does (DataPage, DataAlignment: any
    :class:`FaultCode` but None). ``address`` is the fault address of a data-access fault (the
    faulting access's GM byte address, ``RaiseDataAccessFault``), None otherwise (the trap
    then records the instruction's TPC).
    """

    def __init__(self, kind: FaultKind | FaultCode | str, message: str, op: str | None = None,
                 *, address: int | None = None):  # fmt: skip
        code = FaultCode(str(kind))
        if code is FaultCode.NONE:
            raise ValueError("PTOFault needs a fault code other than None")
        self.kind = str(code)
        self.op = op
        self.message = message
        self.address = address
        where = f"'{op}' " if op else ""
        at = f" (fault address {address:#x})" if address is not None else ""
        super().__init__(f"{where}[{self.kind}] {message}{at}")

    @property
    def code(self) -> FaultCode:
        """The architectural fault code (``FaultCode``) of :attr:`kind`."""
        return FaultCode(self.kind)
