"""Block-control state: how block starts, B.CATR and block stops move the BARG and the PC.

A model of the ASL's block boundary (pto-spec e599a3d3; read, not copied):
``asl/block/model/dispatch/start.asl`` (``ExecuteDecodedBundleStart``),
``asl/block/model/lifecycle/begin.asl`` (``BeginBundleAt``), ``enter-stop.asl``
(``EnterBundleBody``, ``StopBundleAt``), ``asl/block/model/state/barg.asl`` (``BARGCommitPC``),
``asl/block/model/commit/validation.asl`` (``CompleteBundleAt``) and the B.CATR / stop cases of
``asl/block/model/dispatch/commands.asl``.

State (:class:`BlockControl`): TPC, BPC, whether a block is active and in its body, the BARG
(:class:`Barg`: BlockType, TYPE, TAKEN, BPCN), the block's sequential PC, the architectural
return address ``ra``, the latched B.CATR, the last fault and the trap context of a post-commit
trap. ``ra`` is one field: the ASL keeps ``_ReturnAddress`` and GPR 10 (ra) apart, but the
only writer of either here, a call start, writes both with the same value, and RET reads it.
:meth:`BlockControl.execute` runs one command and returns True (executed) or False
(rejected): a rejected command leaves every field but ``last_fault`` as it was, the ASL's
"before effects" rule, except the post-commit trap, which by definition follows the commit.
Faults are the ASL's fault names (``IllegalInstruction``, ``BundleControl``,
``InstructionPC``, ``BundlePostCommit``): this model reports them as state the way the ASL's
``_LastFault`` does, because two of them are not tile faults (:class:`pto_dialect.faults.
PTOFault` carries the four tile-fault classes of D12).

What it models: every scalar block start (the compressed C.BSTART DIRECT/COND, C.BSTART.STD/.FP
FALL/IND/RET, C.BSTART.SYS; the 32-bit BSTART.STD/.FP FALL/DIRECT/COND/IND/RET, BSTART.SYS,
the lifecycle BSTART DIRECT/COND; the fused BSTART.CALL / BSTART.ICALL), B.CATR placement and latching, BSTOP / C.BSTOP / L.BSTOP commit
(continuation selection, the DR rule, the post-commit trap). What it does not: the bodies of
scalar blocks (scalar instructions, SETC), the general register file (only ra), the trap
context a fault saves (only the post-commit trap's is kept), and tile blocks,
whose operation the commit would execute: a tile BSTART or a tile header command is refused
with :class:`~pto_dialect.isa.NotModelledError` (tile blocks run as ``pto.block``, checked by
:func:`pto_dialect.isa.check_block`, which applies the same B.CATR rules).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from pto_dialect import isa
from pto_dialect.faults import PTOFault
from pto_dialect.isa.commands import DR_KINDS, STOP_TYPES, BlockKind, Transfer

ILLEGAL_INSTRUCTION = "IllegalInstruction"
BUNDLE_CONTROL = "BundleControl"
INSTRUCTION_PC = "InstructionPC"
BUNDLE_POST_COMMIT = "BundlePostCommit"

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


@dataclass(frozen=True)
class TrapContext:
    """What a post-commit trap saves: the resume PC and the (already cleared) block state."""

    tpc: int
    bpc: int
    bundle_active: bool
    attributes_present: bool


class BlockControl:
    """The block-control state of one core (see the module docstring)."""

    def __init__(self, pc: int = 0, return_address: int = 0, xlen: int = 64):
        self.xlen = xlen
        self.tpc = pc
        self.bpc = 0
        self.return_address = return_address
        """Architectural ``ra`` (read by a RET transfer)."""
        self.active = False
        self.body_active = False
        self.barg = Barg()
        self.sequential_pc = 0
        self.catr: isa.BCatr | None = None
        self.last_fault: str | None = None
        self.trap: TrapContext | None = None

    # -- commands -------------------------------------------------------------------------
    def execute_word(self, word: int, width: int) -> bool:
        """Decode one instruction of ``width`` bits at TPC and execute it; an undecodable
        word or a reserved field value is IllegalInstruction before effects."""
        try:
            cmd = isa.decode(word, width, strict=True)
        except PTOFault:  # IllegalInstruction: no form, or a reserved field value
            return self._reject(ILLEGAL_INSTRUCTION)
        return self.execute(cmd)

    def execute(self, cmd: isa.Command) -> bool:
        """Execute one command at TPC; True when executed, False when rejected."""
        self.last_fault = None
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
            "executes a tile operation): they run as pto.block (interpreter.bundle_functions)"
        )

    def enter_body(self) -> bool:
        """``EnterBundleBody``: the active block leaves its header."""
        self.last_fault = None
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
            return self._reject(INSTRUCTION_PC)
        if self.catr is not None and self.catr.dr and self.barg.kind not in DR_KINDS:
            return self._reject(BUNDLE_CONTROL)
        # a scalar block has no tile operation to execute: StopBundleAt
        trap = self.catr is not None and bool(self.catr.trap)
        self.active = self.body_active = False
        self.catr = None
        self.barg = Barg()
        self.sequential_pc = 0
        self.bpc = 0
        self.tpc = next_pc
        if trap:
            self.trap = TrapContext(self.tpc, self.bpc, self.active, self.catr is not None)
            self.last_fault = BUNDLE_POST_COMMIT
            return False
        return True

    def recover_trap(self) -> bool:
        """Resume from the saved post-commit trap context (its TPC); False when none."""
        if self.trap is None:
            return False
        self.tpc = self.trap.tpc
        self.trap = None
        return True

    # -- helpers --------------------------------------------------------------------------
    def _wrap(self, value: int) -> int:
        return value & ((1 << self.xlen) - 1)

    def _reject(self, fault: str) -> bool:
        self.last_fault = fault
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
            return self._reject(INSTRUCTION_PC)
        if self.active:
            saved = copy.copy(self.__dict__)
            if not self.complete(pc):
                if self.last_fault != BUNDLE_POST_COMMIT:
                    fault = self.last_fault
                    self.__dict__.update(saved)  # the retiring block stays authoritative
                    self.last_fault = fault
                return False  # a post-commit trap: committed, the new block is not opened
        return self._begin(pc, cmd.kind, transfer, target, fallthrough, ret)  # type: ignore[attr-defined]

    def _begin(self, pc: int, kind: BlockKind, transfer: Transfer, target: int,
               sequential: int, return_target: int) -> bool:  # fmt: skip
        """``BeginBundleAt`` (a System block keeps a non-selecting canonical BARG; a call
        writes ra)."""
        self.active = True
        self.body_active = False
        self.catr = None
        if kind is BlockKind.SYS:
            self.barg = Barg(kind, Transfer.FALL, False, 0)
        else:
            self.barg = Barg(kind, transfer, transfer is not Transfer.COND, target)
        self.sequential_pc = sequential
        self.bpc = pc
        self.tpc = sequential
        if transfer in _CALLS:
            self.return_address = return_target
        return self.last_fault is None


__all__ = [
    "BUNDLE_CONTROL",
    "BUNDLE_POST_COMMIT",
    "ILLEGAL_INSTRUCTION",
    "INSTRUCTION_PC",
    "Barg",
    "BlockControl",
    "TrapContext",
]
