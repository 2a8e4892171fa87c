"""The architectural state of one core beyond its tiles: system registers, access-control
rings, trap banks and trap contexts, and how a fault enters and leaves a trap.

A model of the PTO v0 reference profile (pto-spec e599a3d3; read, not copied):

* reset: ``asl/arch/profile/reset.asl`` (``ResetProfileState``, the parts this model holds);
* register access: ``asl/scalar/model/sys/registers.asl`` (``ReadSystemRegisterAddress``,
  ``WriteSystemRegisterAddress``), ``semantics.asl`` (``ReadSystemRegister``,
  ``WriteSystemRegister``, ``BeginArchitecturalInstructionAttempt``), interrupts and the timer
  ``asl/arch/system-registers/{interrupt,timer,access-control,context}.asl``;
* faults and traps: ``asl/arch/memory-model/fault-precision.asl`` (``SetFaultWithCause``,
  ``ClearFault``, ``RaiseServiceRequest``, ``RaiseInterrupt``);
* the trap context: ``asl/arch/data-types/trap-context.asl`` (the record),
  ``asl/arch/state/trap-context.asl`` (the portable save / recover) and the profile's
  overrides, which are what runs: ``SaveTrapContext`` in ``asl/arch/profile/reference-profile.asl``
  (the record plus the visible EBARG / ECSTATE context registers of the target ring) and
  ``TrapContextRecoverable`` / ``RecoverTrapContext`` in
  ``asl/arch/profile/trap-context-recovery.asl`` (recovery reads the visible registers back, so
  a handler that rewrites EBARG_TPC changes where the program resumes).

The program-control half of the state (TPC, BPC, the BARG, ra, the active block, B.CATR) is
:class:`interpreter.machine.block_control.BlockControl`, linked both ways (``ArchState().control``,
``new_block_control().arch``): a block-control fault enters its trap here, and a recovery writes
the saved block state back there. The trap context keeps what the model has of the ASL's
record (docs/trap-context.md lists the fields); the scalar-block state the model lacks (bundle
dimensions and bindings, frame and memory-copy templates, predicates) is not in it.

Tile operations do not run here: ``interpreter.run`` executes a tile program and raises
:class:`~pto_dialect.faults.PTOFault` before any effect (D12). :meth:`ArchState.run_at` is
the harness that executes such a run as the instruction at a TPC and turns its fault into the
architectural trap (``SetFault(kind, ReadTPC())``, the address every tile fault records; a GM
data-access fault records the faulting access's address instead).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from interpreter.machine.arch import registers as R
from interpreter.machine.arch import traps as T
from interpreter.machine.block_control import Barg, BlockControl
from pto_dialect import isa
from pto_dialect.faults import FaultCode, PTOFault
from pto_dialect.isa.commands import Transfer

QUEUE_DEPTH = 4
"""``PTO_TEMPORARY_QUEUE_DEPTH``: the T and U temporary queues a trap saves."""
_MASK = R.WORD_MASK


@dataclass(frozen=True)
class TrapContext:
    """One ring's saved trap context (``TrapContext`` of asl/arch/data-types/trap-context.asl),
    the fields this model holds."""

    valid: bool = False
    source_acr: int = 0
    tpc: int = 0
    bpc: int = 0
    core_state: int = 0
    bundle_active: bool = False
    bundle_body_active: bool = False
    barg: Barg = field(default_factory=Barg)
    bundle_sequential_pc: int = 0
    return_address: int = 0
    control_attributes: isa.BCatr | None = None
    """``bundle_control_attributes``; None = not present."""
    fixed_point_operation: bool = False
    """``bundle_operation`` as far as modelled (see ``BlockControl.fixed_point_operation``)."""
    t_queue: tuple[int, ...] = (0,) * QUEUE_DEPTH
    u_queue: tuple[int, ...] = (0,) * QUEUE_DEPTH


@dataclass
class TrapBank:
    """One ring's trap record (``_ACRTrap*[[ring]]``), visible as TRAPNO / TRAPARG0."""

    asynchronous: bool = False
    argument_valid: bool = False
    cause: int = 0
    number: int = 0
    argument0: int = 0


class ArchState:
    """The architectural state of one core (see the module docstring), reset on creation."""

    def __init__(self, control: BlockControl | None = None):
        self.control = control if control is not None else BlockControl(arch=self)
        self.control.arch = self
        self.reset()

    # -- reset and the current ring -----------------------------------------------------
    def reset(self) -> None:
        """``ResetProfileState`` for the state modelled here and in :attr:`control`."""
        self.control.reset()
        self.base = {row.name: row.reset for row in R.SYSTEM_REGISTERS if row.scope is R.BASE}
        self.file: dict[int, int] = {}
        """The context-register file by 16-bit address (absent = 0)."""
        for ring in range(R.ACR_COUNT):
            self.file[R.context_address(ring, R.ECONFIG)] = R.BY_NAME["ECONFIG"].reset
        self.banks = [TrapBank() for _ in range(R.ACR_COUNT)]
        self.trap_contexts = [TrapContext() for _ in range(R.ACR_COUNT)]
        self.t_queue = [0] * QUEUE_DEPTH
        self.u_queue = [0] * QUEUE_DEPTH
        """The temporary queues: no modelled instruction pushes or reads them; a trap saves
        them into EBARG_TQ*/UQ* and a recovery loads them back."""
        self.acr = 0
        self.clear_fault()

    def set_acr(self, ring: int) -> None:
        """``SetCurrentACR``: the ring and CORE_STATE bits 3:0."""
        self.acr = ring
        self.base["CORE_STATE"] = self.base["CORE_STATE"] & ~0xF | ring

    @property
    def cycle(self) -> int:
        return self.base["CYCLE"]

    def begin_attempt(self) -> None:
        """``BeginArchitecturalInstructionAttempt``: a fresh result (the trap banks stay) and
        one time unit."""
        self.last_fault = FaultCode.NONE
        self.fault_address = 0
        self.base["CYCLE"] = (self.base["CYCLE"] + 1) & _MASK

    # -- context registers (PTOv0Read/WriteContextRegister: raw, no access rule) ----------
    def context_register(self, ring: int, low: int) -> int:
        return self.file.get(R.context_address(ring, low), 0)

    def set_context_register(self, ring: int, low: int, value: int) -> None:
        self.file[R.context_address(ring, low)] = value & _MASK

    # -- system-register access ---------------------------------------------------------
    def read_register(self, address: int) -> int:
        """``ReadSystemRegisterAddress``: the value, or 0 after an IllegalInstruction trap
        (ring not permitted, unknown or write-only register)."""
        row = R.register_of(address)
        if (not R.access_permitted(address, self.acr) or row is None
                or row.access in (R.Access.UNKNOWN, R.Access.WRITE_ONLY)):  # fmt: skip
            self.set_fault(FaultCode.ILLEGAL_INSTRUCTION, self.control.tpc)
            return 0
        if row.behaviour == "time":
            return self.base["CYCLE"]
        if row.scope is R.BASE:
            return self.base[row.name]
        ring = address >> 12
        if row.behaviour == "trap-status":
            b = self.banks[ring]
            return T.pack_trap_status(b.asynchronous, b.argument_valid, b.cause, b.number)
        if row.behaviour == "trap-argument":
            return self.banks[ring].argument0
        if row.behaviour in ("pending", "top-pending"):
            self._refresh_timer(ring)
        return self.file.get(address, 0)

    def write_register(self, address: int, value: int) -> bool:
        """``WriteSystemRegisterAddress``: False after an IllegalInstruction trap (ring not
        permitted, unknown or read-only register)."""
        value &= _MASK
        row = R.register_of(address)
        if (not R.access_permitted(address, self.acr) or row is None
                or row.access in (R.Access.UNKNOWN, R.Access.READ_ONLY)):  # fmt: skip
            self.set_fault(FaultCode.ILLEGAL_INSTRUCTION, self.control.tpc)
            return False
        if row.scope is R.BASE:
            self.base[row.name] = value
            if row.behaviour == "core-state":
                self.acr = value & 0xF
            return True
        ring = address >> 12
        if row.behaviour == "trap-status":
            b = self.banks[ring]
            b.asynchronous, b.argument_valid, b.cause, b.number = T.unpack_trap_status(value)
        elif row.behaviour == "trap-argument":
            self.banks[ring].argument0 = value
        elif row.behaviour == "end-of-interrupt":
            self._end_of_interrupt(ring, value)
        else:
            self.file[address] = value
            if row.behaviour == "timer-compare":
                self._refresh_timer(ring)
        return True

    # -- interrupts and the timer -------------------------------------------------------
    def _set_pending(self, ring: int, interrupt_id: int, pending: bool) -> None:
        address = R.context_address(ring, R.IPENDING)
        word = self.file.get(address, 0) & ~(1 << interrupt_id) | pending << interrupt_id
        self.file[address] = word
        top = (word & -word).bit_length() - 1 if word else 0  # the lowest pending id
        self.file[R.context_address(ring, R.TOPEI)] = top

    def _interrupt_enabled(self, ring: int, interrupt_id: int) -> bool:
        config = self.context_register(ring, R.ECONFIG)
        return bool(config >> (1 if interrupt_id == _timer_id(ring) else 0) & 1)

    def _refresh_timer(self, ring: int) -> None:
        compare = self.context_register(ring, R.TIMECMP)
        self._set_pending(ring, _timer_id(ring), compare != 0 and self.cycle >= compare)

    def _end_of_interrupt(self, ring: int, value: int) -> None:
        if value >> 6 == 0:
            self._set_pending(ring, value, False)
        self.banks[ring].asynchronous = self.banks[ring].argument_valid = False

    # -- faults and traps ---------------------------------------------------------------
    def set_fault(self, code: FaultCode | str, address: int, cause: int = 0) -> None:
        """``SetFaultWithCause``: save the context in the target ring, record the trap there,
        enter the ring at its vector (EVBASE, or the fault address when EVBASE is 0)."""
        code = FaultCode(code)
        source = self.acr
        ring = source if code is FaultCode.NONE else T.trap_target(source)
        if code is not FaultCode.NONE:
            self.save_trap_context(ring, source)
        self.last_fault, self.fault_address = code, address & _MASK
        self.banks[ring] = TrapBank(False, code is not FaultCode.NONE, cause, T.TRAP_NUMBER[code],
                                    address & _MASK)  # fmt: skip
        if code is not FaultCode.NONE:
            self.set_acr(ring)
            self.control.tpc = self._vector_entry(ring, address)

    def clear_fault(self) -> None:
        """``ClearFault``: no fault, and the current ring's trap record cleared."""
        self.last_fault, self.fault_address = FaultCode.NONE, 0
        self.banks[self.acr] = TrapBank()

    def raise_service_request(self, request: int) -> bool:
        """``RaiseServiceRequest``: trap 6 into ACR0/1 resuming after the 4-byte request;
        a request the ring may not make is IllegalInstruction."""
        source, tpc = self.acr, self.control.tpc
        if not T.service_request_permitted(source, request):
            self.set_fault(FaultCode.ILLEGAL_INSTRUCTION, tpc)
            return False
        resume = (tpc + T.SERVICE_REQUEST_LENGTH) & _MASK
        ring = T.service_request_target(request)
        self.save_trap_context(ring, source)
        self.trap_contexts[ring] = replace(self.trap_contexts[ring], tpc=resume)
        self.set_context_register(ring, R.EBARG_TPC, resume)
        self.last_fault, self.fault_address = FaultCode.SERVICE_REQUEST, tpc
        self.banks[ring] = TrapBank(False, True, request, T.SERVICE_REQUEST_TRAP, tpc)
        self.set_acr(ring)
        self.control.tpc = self._vector_entry(ring, tpc)
        return True

    def raise_interrupt(self, interrupt_id: int, cause: int) -> bool:
        """``RaiseInterrupt``: mark it pending in the target ring; when enabled (ECONFIG) take
        the asynchronous trap 44. True when the trap was taken."""
        source = self.acr
        ring = T.trap_target(source)
        self._set_pending(ring, interrupt_id, True)
        if not self._interrupt_enabled(ring, interrupt_id):
            return False
        self.save_trap_context(ring, source)
        self.last_fault, self.fault_address = FaultCode.NONE, 0
        self.banks[ring] = TrapBank(True, True, cause, T.INTERRUPT_TRAP, interrupt_id)
        self.set_acr(ring)
        self.control.tpc = self._vector_entry(ring, self.control.tpc)
        return True

    def _vector_entry(self, ring: int, fault_address: int) -> int:
        """``TrapVectorEntry``."""
        return self.context_register(ring, R.EVBASE) or fault_address & _MASK

    # -- the trap context ---------------------------------------------------------------
    def save_trap_context(self, target: int, source: int) -> None:
        """The reference profile's ``SaveTrapContext``: the record, then ECSTATE, EBARG0 (the
        control word), EBARG_BPC_CUR/TGT, EBARG_TPC, EBARG_LRA and the queues of the target
        ring; EBARG_LB/LC are cleared, the extended-context words keep their values."""
        c = self.control
        self.trap_contexts[target] = TrapContext(
            True, source, c.tpc, c.bpc, self.base["CORE_STATE"], c.active, c.body_active,
            replace(c.barg), c.sequential_pc, c.return_address, c.catr, c.fixed_point_operation,
            tuple(self.t_queue), tuple(self.u_queue))  # fmt: skip
        ecstate = self.base["CORE_STATE"] & ~0x1F | source | c.body_active << 4
        self.set_context_register(target, R.ECSTATE, ecstate)
        control = T.ebarg_control(source, c.active, c.body_active, c.barg.kind,
                                  c.barg.transfer, c.barg.taken)  # fmt: skip
        self.set_context_register(target, R.EBARG0, control)
        self.set_context_register(target, R.EBARG_BPC_CUR, c.bpc)
        self.set_context_register(target, R.EBARG_BPC_TGT, c.barg.bpcn)
        self.set_context_register(target, R.EBARG_TPC, c.tpc)
        self.set_context_register(target, R.EBARG_LRA, c.return_address)
        for i in range(QUEUE_DEPTH):
            self.set_context_register(target, R.EBARG_TQ + i, self.t_queue[i])
            self.set_context_register(target, R.EBARG_UQ + i, self.u_queue[i])
        self.set_context_register(target, R.EBARG_LB, 0)
        self.set_context_register(target, R.EBARG_LC, 0)

    def trap_context_recoverable(self, target: int) -> bool:
        """The profile's ``TrapContextRecoverable``: a valid context whose EBARG0 says so (bit
        4, a legal control word naming the ring ECSTATE names) and even BPC and TPC."""
        control = self.context_register(target, R.EBARG0)
        ecstate = self.context_register(target, R.ECSTATE)
        return (self.trap_contexts[target].valid and bool(control >> 4 & 1)
                and T.ebarg_control_legal(control) and control & 0xF == ecstate & 0xF
                and not self.context_register(target, R.EBARG_BPC_CUR) & 1
                and not self.context_register(target, R.EBARG_TPC) & 1)  # fmt: skip

    def recover_trap_context(self, target: int) -> bool:
        """The profile's ``RecoverTrapContext``: restore the block state from the visible
        context registers and the record, return to the ring ECSTATE names, mark the context
        consumed. False (nothing changes) when it is not recoverable."""
        if not self.trap_context_recoverable(target):
            return False
        control = self.context_register(target, R.EBARG0)
        kind_code = control >> 7 & 0xF
        if kind_code == T.FRAME_TEMPLATE_CODE:
            raise isa.NotModelledError("EBARG0 names a frame-template block (kind 8): frame "
                                       "templates are not modelled")  # fmt: skip
        ecstate = self.context_register(target, R.ECSTATE)
        saved = self.trap_contexts[target]
        c = self.control
        c.tpc = self.context_register(target, R.EBARG_TPC)
        c.bpc = self.context_register(target, R.EBARG_BPC_CUR)
        self.base["CORE_STATE"] = ecstate
        c.active, c.body_active = bool(control >> 5 & 1), bool(control >> 6 & 1)
        c.barg = Barg(T.KIND_OF.get(kind_code, Barg().kind),
                      T.TRANSFER_OF.get(control >> 11 & 7, Transfer.FALL),
                      bool(control >> 14 & 1), self.context_register(target, R.EBARG_BPC_TGT))  # fmt: skip
        c.return_address = self.context_register(target, R.EBARG_LRA)
        c.sequential_pc = saved.bundle_sequential_pc
        c.catr = saved.control_attributes
        c.fixed_point_operation = saved.fixed_point_operation
        self.t_queue = [self.context_register(target, R.EBARG_TQ + i) for i in range(QUEUE_DEPTH)]
        self.u_queue = [self.context_register(target, R.EBARG_UQ + i) for i in range(QUEUE_DEPTH)]
        self.acr = ecstate & 0xF
        self.set_context_register(target, R.EBARG0, control & ~(1 << 4))
        self.trap_contexts[target] = replace(saved, valid=False)
        return True

    # -- the harness for tile programs --------------------------------------------------
    def run_at(self, pc: int, action: Callable[..., Any], *args: Any,
               **kwargs: Any) -> tuple[bool, Any]:  # fmt: skip
        """Execute ``action(*args, **kwargs)`` (e.g. an ``interpreter.run`` of a tile block)
        as the instruction attempt at TPC ``pc``. Its :class:`PTOFault` becomes the trap
        ``SetFault(kind, pc)`` (a data-access fault, DataPage / DataAlignment, records its own
        ``address``: ``RaiseDataAccessFault``); returns ``(True, result)`` or
        ``(False, None)``. The action's own fault guarantee (before any effect, D12) is what
        makes the saved context a precise restart point: recovering it resumes at ``pc``."""
        self.control.tpc = pc & _MASK
        self.begin_attempt()
        try:
            return True, action(*args, **kwargs)
        except PTOFault as fault:
            self.set_fault(fault.code, pc if fault.address is None else fault.address)
            return False, None


def _timer_id(ring: int) -> int:
    """``TimerInterruptId``."""
    return 1 if ring == 0 else 3


def new_block_control(pc: int = 0, return_address: int = 0, xlen: int = 64) -> BlockControl:
    """A block control at TPC ``pc`` with ra ``return_address``, linked to a fresh, reset
    architectural state (``.arch``)."""
    control = ArchState(BlockControl(xlen=xlen)).control
    control.reset(pc, return_address)
    return control


__all__ = ["QUEUE_DEPTH", "ArchState", "TrapBank", "TrapContext", "new_block_control"]
