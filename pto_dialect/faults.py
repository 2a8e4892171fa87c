"""PTO fault classes (PTO-SPEC 3.5, D12).

One exception type, :class:`PTOFault`, carries the fault kind for every run-time fault
(interpreter, block decoder, assembler input). Static verifier diagnostics use the same
kind names in brackets, e.g. ``[TileLegality]``.
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
