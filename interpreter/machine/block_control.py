"""Block-control state: how block starts, B.CATR and block stops move the BARG and the PC.

A model of the ASL's block boundary (pto-spec e599a3d3; read, not copied):
``asl/block/model/dispatch/start.asl`` (``ExecuteDecodedBundleStart``),
``asl/block/model/lifecycle/begin.asl`` (``BeginBundleAt``), ``enter-stop.asl``
(``EnterBundleBody``, ``StopBundleAt``), ``asl/block/model/state/barg.asl`` (``BARGCommitPC``),
``asl/block/model/commit/validation.asl`` (``CompleteBundleAt``) and the B.CATR / stop cases of
``asl/block/model/dispatch/commands.asl``.

State (:class:`BlockControl`): TPC, BPC, whether a block is active and in its body, the BARG
(:class:`Barg`: BlockType, TYPE, TAKEN, BPCN), the block's sequential PC, the architectural
return address ``ra`` and the latched B.CATR. ``ra`` is one field: the ASL keeps
``_ReturnAddress`` and GPR 10 (ra) apart, but the only writer of either here, a call start,
writes both with the same value, and RET reads it. :meth:`BlockControl.execute` runs one
command and returns True (executed) or False (rejected): a rejected command leaves the block
state as it was, the ASL's "before effects" rule, except the post-commit trap, which by
definition follows the commit.

Faults: every rejection is the ASL's ``SetFault(code, address)`` on the linked architectural
state :attr:`BlockControl.arch` (:class:`interpreter.machine.arch.ArchState`): the fault code
(``last_fault``) and address, the trap number in the target ring's trap bank, the trap context
saved in that ring (the block state at the fault, and the visible EBARG registers), the ring
switch and the trap entry TPC (EVBASE, or the fault address itself when EVBASE is 0, which is
the reset state). ``arch.recover_trap_context(ring)`` resumes from it. Two of these faults are
not tile faults (:class:`pto_dialect.faults.PTOFault` carries the four tile-fault classes of
D12), so they are state here, as the ASL's ``_LastFault`` is.

What it models: every scalar block start (the compressed C.BSTART DIRECT/COND, C.BSTART.STD/.FP
FALL/IND/RET, C.BSTART.SYS; the 32-bit BSTART.STD/.FP FALL/DIRECT/COND/IND/RET, BSTART.SYS,
the lifecycle BSTART DIRECT/COND; the fused BSTART.CALL / BSTART.ICALL), B.CATR placement and
latching, BSTOP / C.BSTOP / L.BSTOP commit (continuation selection, the DR rule, the retiring
FixedPoint operation, the post-commit trap), and the trap context of every fault. What it does
not: the bodies of scalar blocks (scalar instructions, SETC), the general register file (only
ra), and tile blocks, whose operation the commit would execute: a tile BSTART or a tile header
command is refused with :class:`~pto_dialect.isa.NotModelledError` (tile blocks run as
``pto.block``, checked by :func:`pto_dialect.isa.check_block`, which applies the same B.CATR
rules; ``ArchState.run_at`` gives a tile run's fault its trap).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pto_dialect import isa
from pto_dialect.faults import FaultCode, PTOFault
from pto_dialect.isa.commands import DR_KINDS, STOP_TYPES, BlockKind, Transfer

if TYPE_CHECKING:
    from interpreter.machine.arch import ArchState

ILLEGAL_INSTRUCTION = FaultCode.ILLEGAL_INSTRUCTION
BUNDLE_CONTROL = FaultCode.BUNDLE_CONTROL
INSTRUCTION_PC = FaultCode.INSTRUCTION_PC
BUNDLE_POST_COMMIT = FaultCode.BUNDLE_POST_COMMIT

_SELECTS_BPCN = (Transfer.DIRECT, Transfer.CALL, Transfer.IND, Transfer.ICALL, Transfer.RET)
_READS_BPCN = (Transfer.IND, Transfer.ICALL)
_CALLS = (Transfer.CALL, Transfer.ICALL)


@dataclass
class Barg:
    """The block argument register: the sole continuation authority (``barg.asl``)."""

    kind: BlockKind = BlockKind.STD
    transfer: Transfer = Transfer.FALL
    taken: bool = False
    bpcn: int = 0

    def commit_pc(self, continuation: int) -> int:
        """``BARGCommitPC``: BPCN for a selecting transfer (COND only when taken)."""
        selects = self.transfer in _SELECTS_BPCN or (self.transfer is Transfer.COND and self.taken)
        return self.bpcn if selects else continuation


class BlockControl:
    """The block-control state of one core (see the module docstring)."""

    def __init__(self, pc: int = 0, return_address: int = 0, xlen: int = 64,
                 arch: ArchState | None = None):  # fmt: skip
        self.xlen = xlen
        self.reset(pc, return_address)
        self.arch = arch
        """The linked architectural state: rings, trap banks, trap contexts, registers (a
        given ``arch`` is relinked to this block control; without one, the ``ArchState`` this
        is given to links itself: :func:`interpreter.machine.arch.new_block_control` makes both)."""
        if arch is not None:
            arch.control = self

    def reset(self, pc: int = 0, return_address: int = 0) -> None:
        """The block-control part of ``ResetProfileState`` (``ResetBundleControlState``, the PC,
        BPC and ra), with TPC ``pc`` and ra ``return_address``."""
        self.tpc = pc
        self.bpc = 0
        self.return_address = return_address
        """Architectural ``ra`` (read by a RET transfer)."""
        self.active = False
        self.body_active = False
        self.barg = Barg()
        self.sequential_pc = 0
        self.catr: isa.BCatr | None = None
        self.fixed_point_operation = False
        """The ASL's ``_BundleOperation.operation_class == FixedPoint``: PTO v0 has no FIXP
        selector, so no instruction installs it (``BundleOperationDescriptorLegal``,
        asl/block/model/dispatch/descriptor-legality.asl); a harness may set it, and the commit
        of such a block is IllegalInstruction (``CompleteBundleAt``)."""

    @property
    def last_fault(self) -> FaultCode | None:
        """The fault of the last command (``_LastFault``), None when it succeeded."""
        fault = self.arch.last_fault
        return None if fault is FaultCode.NONE else fault

    # -- commands -------------------------------------------------------------------------
    def execute_word(self, word: int, width: int) -> bool:
        """``ExecuteCommandInstruction``: decode one instruction of ``width`` bits at TPC and
        execute it; an undecodable word or a reserved field value is IllegalInstruction
        before effects."""
        self.arch.begin_attempt()
        try:
            cmd = isa.decode(word, width, strict=True)
        except PTOFault:  # IllegalInstruction: no form, or a reserved field value
            return self._reject(ILLEGAL_INSTRUCTION)
        return self._execute(cmd)

    def execute(self, cmd: isa.Command) -> bool:
        """Execute one command at TPC; True when executed, False when rejected."""
        self.arch.begin_attempt()
        return self._execute(cmd)

    def _execute(self, cmd: isa.Command) -> bool:
        if isa.reserved_values(cmd):
            return self._reject(ILLEGAL_INSTRUCTION)
        if isinstance(cmd, isa.SCALAR_START_TYPES):
            return self._start(cmd)
        if isinstance(cmd, isa.BCatr):
            if not self.active or self.body_active or self.catr is not None:
                return self._reject(BUNDLE_CONTROL)
            self.catr = cmd
            return True
        if isinstance(cmd, STOP_TYPES):
            return self.complete(self._wrap(self.tpc + isa.width_of(cmd) // 8))
        raise isa.NotModelledError(
            f"{cmd.mnemonic}: tile blocks are not run by the block-control model (their commit "
            "executes a tile operation): they run as pto.block (interpreter.ssa.block_functions)"
        )

    def enter_body(self) -> bool:
        """``EnterBundleBody``: the active block leaves its header."""
        if not self.active:
            return self._reject(BUNDLE_CONTROL)
        self.body_active = True
        return True

    def complete(self, continuation: int) -> bool:
        """``CompleteBundleAt``: commit the active block to ``continuation`` (or its BPCN)."""
        if not self.active:
            return self._reject(BUNDLE_CONTROL)
        next_pc = self.barg.commit_pc(continuation)
        if continuation & 1 or next_pc & 1:
            return self._reject(INSTRUCTION_PC, next_pc)
        if self.catr is not None and self.catr.dr and self.barg.kind not in DR_KINDS:
            return self._reject(BUNDLE_CONTROL)
        if self.fixed_point_operation:
            return self._reject(ILLEGAL_INSTRUCTION)
        # a scalar block has no tile operation to execute: StopBundleAt
        trap = self.catr is not None and bool(self.catr.trap)
        self.active = self.body_active = False
        self.catr = None
        self.fixed_point_operation = False
        self.barg = Barg()
        self.sequential_pc = 0
        self.bpc = 0
        self.tpc = next_pc
        if trap:  # SetFault snapshots the committed, cleared state: recovery resumes next_pc
            return self._reject(BUNDLE_POST_COMMIT, next_pc)
        return True

    # -- helpers --------------------------------------------------------------------------
    def _wrap(self, value: int) -> int:
        return value & ((1 << self.xlen) - 1)

    def _reject(self, fault: FaultCode, address: int | None = None) -> bool:
        """``SetFault(fault, address)`` (default: ReadTPC()); the command is rejected."""
        self.arch.set_fault(fault, self.tpc if address is None else address)
        return False

    def _start(self, cmd: isa.Command) -> bool:
        """``ExecuteDecodedBundleStart`` for a 16-bit scalar start."""
        pc = self.tpc
        transfer = cmd.transfer  # type: ignore[attr-defined]
        length = isa.width_of(cmd) // 8
        fallthrough = self._wrap(pc + length)
        if transfer in _READS_BPCN and not (
            self.active and self.barg.kind in (BlockKind.STD, BlockKind.FP)
        ):
            return self._reject(BUNDLE_CONTROL)
        if transfer is Transfer.RET:
            target = self.return_address
        elif transfer in _READS_BPCN:
            target = self.barg.bpcn
        elif transfer in (Transfer.DIRECT, Transfer.COND, Transfer.CALL):
            target = self._wrap(pc + cmd.displacement)  # type: ignore[attr-defined]
        else:
            target = fallthrough
        # the fused calls' independent return target: P + (length - 2) + (uimm5 << 1)
        uimm5 = getattr(cmd, "uimm5", None)
        ret = fallthrough if uimm5 is None else self._wrap(pc + length - 2 + (uimm5 << 1))
        if target & 1:
            return self._reject(INSTRUCTION_PC, target)
        if self.active and not self.complete(pc):
            # a failed commit rejected before effects (the retiring block stays
            # authoritative); a post-commit trap committed it: the new block is not opened
            return False
        return self._begin(pc, cmd.kind, transfer, target, fallthrough, ret)  # type: ignore[attr-defined]

    def _begin(self, pc: int, kind: BlockKind, transfer: Transfer, target: int,
               sequential: int, return_target: int) -> bool:  # fmt: skip
        """``BeginBundleAt`` (a System block keeps a non-selecting canonical BARG; a call
        writes ra)."""
        self.active = True
        self.body_active = False
        self.catr = None
        self.fixed_point_operation = False
        if kind is BlockKind.SYS:
            self.barg = Barg(kind, Transfer.FALL, False, 0)
        else:
            self.barg = Barg(kind, transfer, transfer is not Transfer.COND, target)
        self.sequential_pc = sequential
        self.bpc = pc
        self.tpc = sequential
        if transfer in _CALLS:
            self.return_address = return_target
        return True


@dataclass(frozen=True)
class BlockResult:
    """What a block did: its operation and the Local register it allocated (if any; a
    second destination, TSORT's indices, in ``others``)."""

    op: str | None
    destination: int | None = None
    noop: bool = False
    others: tuple[int, ...] = ()


__all__ = [
    "BUNDLE_CONTROL",
    "BUNDLE_POST_COMMIT",
    "ILLEGAL_INSTRUCTION",
    "INSTRUCTION_PC",
    "Barg",
    "BlockControl",
    "BlockResult",
]
