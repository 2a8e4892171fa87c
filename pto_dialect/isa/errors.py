"""Errors of the block ISA layer (encoding and text formats).

Faults that the *architecture* defines (reserved encodings, block structure) are
:class:`pto_dialect.faults.PTOFault`; the two classes here are tool errors.
"""

from __future__ import annotations


class EncodeError(ValueError):
    """A command cannot be encoded: a field value does not fit its bit field, or the command
    has no encoding form (e.g. a source-only B.IOT with a nonzero SizeCode)."""


class AsmSyntaxError(ValueError):
    """Malformed assembly or hex text. ``line``/``col`` are 1-based (0 when unknown)."""

    def __init__(self, message: str, line: int = 0, col: int = 0, text: str | None = None):
        self.message = message
        self.line = line
        self.col = col
        self.text = text
        where = f"line {line}" + (f", col {col}" if col else "") if line else ""
        super().__init__(f"{where}: {message}" if where else message)


class NotModelledError(ValueError):
    """The input is architecturally meaningful but outside what this toolchain models (e.g. a
    scalar block given to the tile-block checker). Not a PTO fault."""
