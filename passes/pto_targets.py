"""Targets ``pto-asm`` / ``pto-bin`` and the matching frontends (PTO-SPEC 3, 7).

* ``-t pto-asm``: the canonical block assembly of every ``pto.block`` in program order
  (:func:`pto_dialect.isa.print_program`), one block per stanza, stanzas separated by a blank
  line. Tile-level ops left in the module (``pto.tload``/``pto.tstore``, which have no block
  form here, see docs/blocks.md) are written as ``#`` comments, so the text stays
  assemblable; an unconverted compute op (``pto.trem``...) is an error: run
  ``pto-form-bundles`` first.
* ``-t pto-bin``: the encoded words (:func:`pto_dialect.isa.encode_program`), one per line,
  ``0x%08X`` (or ``0x%04X`` for a 16-bit command).
* Frontends: ``.s`` (e.g. ``kernel.pto.s``; also ``-f pto-asm``) and ``.hex`` (also
  ``-f pto-bin``) read the text back into a module of unlinked ``pto.block`` ops
  (:func:`pto_dialect.bundle.module_of_commands`). ``asm -> IR -> asm`` and
  ``hex -> IR -> hex`` are identities on canonical text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.frontend import Frontend
from xdsl.utils.target import Target

from pto_dialect import isa
from pto_dialect.bundle import BlockOp, BundleCommandOp, module_of_commands
from pto_dialect.faults import PTOFault

_PASS_THROUGH = ("pto.tload", "pto.tstore")


def _blocks(module: ModuleOp) -> list[Operation]:
    """``pto.block`` ops and pass-through tile ops, in program order; rejects the rest."""
    out: list[Operation] = []
    for op in module.walk():
        if isinstance(op, BlockOp) or op.name in _PASS_THROUGH:
            out.append(op)
        elif op.name.startswith("pto.") and not isinstance(op, BundleCommandOp):
            raise ValueError(
                f"'{op.name}' has no block form yet: run pto-form-bundles before -t pto-asm/-t "
                "pto-bin"
            )
    return out


def _comment(op: Operation) -> str:
    return f"# {op.name} (data movement outside the block stream, see docs/blocks.md)"


def print_asm(module: ModuleOp) -> str:
    stanzas = []
    for op in _blocks(module):
        if isinstance(op, BlockOp):
            stanzas.append(isa.print_program(op.commands()))
        else:
            stanzas.append(_comment(op) + "\n")
    return "\n".join(stanzas)


def print_hex(module: ModuleOp) -> str:
    cmds: list[isa.Command] = []
    for op in _blocks(module):
        if isinstance(op, BlockOp):
            cmds.extend(op.commands())
    return isa.write_hex(isa.encode_program(cmds))


@dataclass(frozen=True)
class PTOAsmTarget(Target):
    """``-t pto-asm``: canonical block assembly."""

    name = "pto-asm"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(print_asm(module))


@dataclass(frozen=True)
class PTOBinTarget(Target):
    """``-t pto-bin``: hex words, one per line."""

    name = "pto-bin"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(print_hex(module))


def _text(input: IO[bytes], input_name: str) -> str:
    try:
        return input.read().decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{input_name}: not UTF-8 text ({e})") from None


def parse_asm(text: str, input_name: str = "<input>") -> ModuleOp:
    try:
        return module_of_commands(isa.parse_program(text))
    except isa.AsmSyntaxError as e:
        raise ValueError(f"{input_name}: {e}") from None


def parse_hex(text: str, input_name: str = "<input>") -> ModuleOp:
    try:
        return module_of_commands(isa.decode_hex(text))
    except (isa.AsmSyntaxError, PTOFault) as e:
        raise ValueError(f"{input_name}: {e}") from None


@dataclass(frozen=True)
class PTOAsmFrontend(Frontend):
    """``-f pto-asm``: block assembly -> unlinked ``pto.block`` ops."""

    name: ClassVar[str] = "pto-asm"

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        return parse_asm(_text(input, input_name), input_name)


@dataclass(frozen=True)
class PTOBinFrontend(Frontend):
    """``-f pto-bin``: hex words -> unlinked ``pto.block`` ops."""

    name: ClassVar[str] = "pto-bin"

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        return parse_hex(_text(input, input_name), input_name)


@dataclass(frozen=True)
class _AsmByExtension(PTOAsmFrontend):
    name: ClassVar[str] = "s"


@dataclass(frozen=True)
class _HexByExtension(PTOBinFrontend):
    name: ClassVar[str] = "hex"


FRONTENDS: dict[str, type[Frontend]] = {
    "pto-asm": PTOAsmFrontend,
    "pto-bin": PTOBinFrontend,
    "s": _AsmByExtension,
    "hex": _HexByExtension,
}
"""Frontend key (``-f`` name or file extension) -> class, as xDSL's CommandLineTool wants."""
