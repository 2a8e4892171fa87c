"""The trap envelope of the PTO v0 reference profile, as data tables.

Sources (pto-spec e599a3d3; read, not copied): ``asl/arch/memory-model/fault-precision.asl``
(``SetFaultWithCause``: the fault-code -> trap-number case, ``RaiseServiceRequest``,
``RaiseInterrupt``, ``PackTrapStatus`` / ``UnpackTrapStatus``),
``asl/arch/system-registers/access-control.asl`` (``TrapTargetForFault``,
``ServiceRequestPermitted``, ``ServiceRequestTarget``) and
``asl/block/model/schema/profile-encoding.asl`` (the EBARG0 control word's block-kind and
transfer codes, ``PTOv0EBARGControlLegal``).
"""

from __future__ import annotations

from dataclasses import dataclass

from pto_dialect.faults import FaultCode
from pto_dialect.isa.commands import BlockKind, Transfer


@dataclass(frozen=True)
class TrapClass:
    """One trap number: what raises it, what its argument holds and where recovery resumes."""

    name: str
    number: int
    faults: tuple[FaultCode, ...]
    argument: str
    restart: str = "saved-source-context"
    """``saved-source-context``: recovery resumes the faulting instruction (the saved TPC);
    ``next-instruction``: a service request resumes after its 4-byte instruction."""


F = FaultCode
TRAP_CLASSES: tuple[TrapClass, ...] = (
    TrapClass("EXEC_STATE_CHECK", 0, (F.EXECUTION_STATE_CHECK,), "source-tpc"),
    TrapClass("ILLEGAL_INST", 4, (F.ILLEGAL_INSTRUCTION,), "fault-address"),
    TrapClass("BUNDLE_TRAP", 5, (F.BUNDLE_CONTROL, F.BUNDLE_POST_COMMIT, F.TILE_LEGALITY,
                                 F.TILE_ALLOCATION), "fault-address"),  # fmt: skip
    TrapClass("SCALL", 6, (F.SERVICE_REQUEST,), "source-tpc", "next-instruction"),
    TrapClass("INST_PC_FAULT", 32, (F.INSTRUCTION_PC,), "invalid-target"),
    TrapClass("INST_PAGE_FAULT", 33, (F.INSTRUCTION_PAGE,), "fault-address"),
    TrapClass("DATA_ALIGN_FAULT", 34, (F.DATA_ALIGNMENT,), "fault-address"),
    TrapClass("DATA_PAGE_FAULT", 35, (F.DATA_PAGE,), "fault-address"),
    TrapClass("INTERRUPT", 44, (), "interrupt-id"),
    TrapClass("HW_BREAKPOINT", 49, (F.HARDWARE_BREAKPOINT,), "instruction-address"),
    TrapClass("SW_BREAKPOINT", 50, (F.SOFTWARE_BREAKPOINT,), "instruction-address"),
    TrapClass("HW_WATCHPOINT", 51, (F.HARDWARE_WATCHPOINT,), "data-address"),
    TrapClass("ASSERT_FAIL", 52, (F.ASSERT,), "instruction-address"),
)
"""The 13 trap numbers of PTO v0 (interrupts: :data:`INTERRUPT_TRAP`)."""

TRAP_BY_NAME = {t.name: t for t in TRAP_CLASSES}
TRAP_NUMBER: dict[FaultCode, int] = {F.NONE: 0} | {f: t.number for t in TRAP_CLASSES
                                                    for f in t.faults}  # fmt: skip
"""``SetFaultWithCause``'s case: the trap number a fault code records (Fault_None: 0)."""
INTERRUPT_TRAP = TRAP_BY_NAME["INTERRUPT"].number
SERVICE_REQUEST_TRAP = TRAP_BY_NAME["SCALL"].number
SERVICE_REQUEST_LENGTH = 4
"""A service request resumes after its 4-byte instruction (``RaiseServiceRequest``)."""


def trap_target(source: int) -> int:
    """``TrapTargetForFault`` (and ``TrapTargetForInterrupt``): ACR0 traps to itself, every
    other ring to ACR1."""
    return 0 if source == 0 else 1


def service_request_permitted(source: int, request: int) -> bool:
    """``ServiceRequestPermitted``: ACR1 may request 0 or 2, ACR2..15 any of 0..2, ACR0 none."""
    if source == 1:
        return request in (0, 2)
    return source >= 2 and request <= 2


def service_request_target(request: int) -> int:
    """``ServiceRequestTarget``: request 1 enters ACR1, the others ACR0."""
    return 1 if request == 1 else 0


def pack_trap_status(asynchronous: bool, argument_valid: bool, cause: int, number: int) -> int:
    """``PackTrapStatus``: bit 63 asynchronous, bit 62 argument valid, bits 47:24 the cause,
    bits 5:0 the trap number."""
    return asynchronous << 63 | argument_valid << 62 | (cause & 0xFFFFFF) << 24 | number & 0x3F


def unpack_trap_status(value: int) -> tuple[bool, bool, int, int]:
    """``UnpackTrapStatus`` (the inverse of :func:`pack_trap_status`)."""
    return bool(value >> 63 & 1), bool(value >> 62 & 1), value >> 24 & 0xFFFFFF, value & 0x3F


# -- the EBARG0 control word (reference-profile SaveTrapContext / RecoverTrapContext) -------

KIND_CODE: dict[BlockKind, int] = {
    BlockKind.STD: 0, BlockKind.FP: 1, BlockKind.SYS: 2, BlockKind.TILE_ELEMENT: 5,
    BlockKind.TILE_MEMORY: 6, BlockKind.TILE_MATRIX: 7}  # fmt: skip
"""``PTOv0BundleKindCode`` (code 8, FrameTemplate, has no block kind in this model)."""
FRAME_TEMPLATE_CODE = 8
TRANSFER_CODE: dict[Transfer, int] = {
    Transfer.FALL: 0, Transfer.DIRECT: 1, Transfer.COND: 2, Transfer.CALL: 3,
    Transfer.RET: 4, Transfer.IND: 5, Transfer.ICALL: 6}  # fmt: skip
"""``PTOv0BundleTransferCode``."""
KIND_OF = {code: kind for kind, code in KIND_CODE.items()}
TRANSFER_OF = {code: transfer for transfer, code in TRANSFER_CODE.items()}


def ebarg_control(source: int, active: bool, body: bool, kind: BlockKind, transfer: Transfer,
                  taken: bool) -> int:  # fmt: skip
    """The EBARG0 word a trap saves: bits 3:0 the source ACR, bit 4 "context valid", bit 5
    block active, bit 6 body active, bits 10:7 the block kind, 13:11 the transfer, 14 taken."""
    return (source | 1 << 4 | active << 5 | body << 6 | KIND_CODE[kind] << 7
            | TRANSFER_CODE[transfer] << 11 | taken << 14)  # fmt: skip


def ebarg_control_legal(control: int) -> bool:
    """``PTOv0EBARGControlLegal``: bits 63:15 zero, a defined kind code (0..2, 5..8) and
    transfer code (0..6), and body active only inside an active block."""
    kind = control >> 7 & 0xF
    return (control >> 15 == 0 and (kind <= 2 or 5 <= kind <= 8)
            and (control >> 11 & 7) <= 6 and (not control >> 6 & 1 or bool(control >> 5 & 1)))


__all__ = [
    "INTERRUPT_TRAP",
    "SERVICE_REQUEST_TRAP",
    "TRAP_BY_NAME",
    "TRAP_CLASSES",
    "TRAP_NUMBER",
    "TrapClass",
    "ebarg_control",
    "ebarg_control_legal",
    "pack_trap_status",
    "service_request_permitted",
    "service_request_target",
    "trap_target",
    "unpack_trap_status",
]
