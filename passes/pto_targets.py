"""Targets ``pto-asm`` / ``pto-bin`` and the matching frontends (PTO-SPEC 3, 7).

* ``-t pto-asm``: the canonical block assembly of every ``pto.block`` in program order
  (:func:`pto_dialect.isa.print_program`), one block per stanza, stanzas separated by a blank
  line. A TLOAD/TSTORE block is preceded by its ``# pseudo GMADDR`` comment line, a CUBE
  block with scalar post-processing parameters by its ``# pseudo MV`` line (what its B.IOR
  GPRs hold, docs/blocks.md). A tile-level op left in the module, or a block whose
  registers are still unassigned (``pto.unassigned``), is an error: run ``pto-lower`` (or
  ``pto-form-blocks`` then ``pto-assign-registers``) first. Computation that is not PTO
  (a ``linalg`` op, ``math`` or ``arith`` on tensors ...) is refused first, with one line
  per op: its location and why it was not lowered (D19, :mod:`passes.lowering.leftovers`);
  a program never lowered is refused the same way.
* ``-t pto-bin``: the encoded words (:func:`pto_dialect.isa.encode_program`), one per line,
  ``0x%08X`` (or ``0x%04X`` for a 16-bit command).
* Frontends: ``.s`` (e.g. ``kernel.pto.s``; also ``-f pto-asm``) and ``.hex`` (also
  ``-f pto-bin``) read the text back into a module of unlinked ``pto.block`` ops
  (:func:`pto_dialect.block_ops.module_of_commands`). ``asm -> IR -> asm`` and
  ``hex -> IR -> hex`` are identities on canonical text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType
from xdsl.ir import BlockArgument, SSAValue
from xdsl.utils.frontend import Frontend
from xdsl.utils.target import Target

from passes.lowering.leftovers import check_fully_lowered
from pto_dialect import isa
from pto_dialect.attributes import TileType
from pto_dialect.block_ops import (
    SLOT_GPRS,
    UNASSIGNED_ATTR,
    BlockCommandOp,
    BlockOp,
    dim_registers,
    linked_ins,
    module_of_commands,
    pe_stride_of,
    row_stride_of,
)
from pto_dialect.data_movement import gm_pitch_bytes
from pto_dialect.faults import PTOFault
from pto_dialect.isa.commands import GPR_NAMES
from pto_dialect.predicate import PredicateTileType


def _blocks(module: ModuleOp) -> list[BlockOp]:
    """``pto.block`` ops in program order; rejects tile ops and unassigned blocks."""
    out: list[BlockOp] = []
    for op in module.walk():
        if isinstance(op, BlockOp):
            if UNASSIGNED_ATTR in op.attributes:
                raise ValueError(
                    "a pto.block still has placeholder registers (pto.unassigned): run "
                    "pto-assign-registers (or pto-lower) before -t pto-asm/-t pto-bin"
                )
            out.append(op)
        elif op.name.startswith("pto.") and not isinstance(op, BlockCommandOp):
            raise ValueError(
                f"'{op.name}' has no block form yet: run pto-form-blocks and "
                "pto-assign-registers (or pto-lower) before -t pto-asm/-t pto-bin"
            )
    return out


def _value_text(v: SSAValue) -> str:
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return str(owner.value.value.data)
    if v.name_hint:
        return f"%{v.name_hint}"
    if isinstance(v, BlockArgument):
        return f"%arg{v.index}"
    return f"<{v.type}>"


def gmaddr_comment(block: BlockOp) -> str | None:
    """The GMADDR pseudo-instruction line of a linked TLOAD/TSTORE block (docs/blocks.md).

    It states what the block's ``B.IOR [a0, a1, zero]`` registers hold: per PE ``q`` (rank
    among the selected PEs), ``a0`` = the GM address of ``tensor[i + q*s0, j + q*s1]`` and
    ``a1`` = the tensor's byte row stride. It is scalar set-up outside the block stream: a
    comment in the assembly, absent from the binary.
    """
    cmds = block.commands()
    start = cmds[0] if cmds else None
    if not block.linked or not isinstance(start, isa.BStart):
        return None
    if start.op_name not in ("TLOAD", "TSTORE"):
        return None
    ins = list(block.ins)
    tensor, offs = (ins[0], ins[1:3]) if start.op_name == "TLOAD" else (ins[1], ins[2:4])
    t = tensor.type
    assert isinstance(t, TensorType)
    s0, s1 = pe_stride_of(block)
    tile_t = block.outs[0].type if start.op_name == "TLOAD" else ins[0].type
    assert isinstance(tile_t, TileType)
    row = row_stride_of(block) * gm_pitch_bytes(t, tile_t)
    i, j = (_value_text(o) for o in offs)
    regs = "a0, a1" if row else "a0"  # row stride 0: B.IOR RegSrc1 zero
    return (
        f"# pseudo GMADDR {regs} <- {_value_text(tensor)}[{i} + q*{s0}, {j} + q*{s1}], "
        f"row stride {row} B  (per PE q; not encoded, docs/blocks.md)"
    )


def scalars_comment(block: BlockOp) -> str | None:
    """The pseudo-instruction line of a linked CUBE block with scalar post-processing
    parameters (docs/blocks.md): ``a<k>`` holds the k-th linked scalar (B.IOR RegSrc k,
    PTO-SPEC 3.3 dense order). Scalar set-up outside the block stream: a comment, not encoded.
    """
    cmds = block.commands()
    start = cmds[0] if cmds else None
    if not block.linked or not isinstance(start, isa.BStart) or start.family is not isa.BlockFamily.CUBE:
        return None
    ins = linked_ins(block, block.summary())
    scalars = [v for v in ins if not isinstance(v.type, TileType | PredicateTileType)]
    if not scalars:
        return None
    regs = ", ".join(GPR_NAMES[g] for g in SLOT_GPRS[: len(scalars)])
    vals = ", ".join(_value_text(v) for v in scalars)
    return f"# pseudo MV {regs} <- {vals}  (scalar parameters; not encoded, docs/blocks.md)"


def dims_comment(block: BlockOp) -> str | None:
    """The pseudo-instruction line of a linked block whose B.DIMs read GPRs: each register
    holds its trailing i64 operand (docs/blocks.md, "Register-base B.DIM"). Not encoded."""
    if not block.linked:
        return None
    regs = dim_registers(block.summary())
    if not regs:
        return None
    vals = ", ".join(_value_text(v) for v in list(block.ins)[len(block.ins) - len(regs):])
    names = ", ".join(GPR_NAMES[g] for g in regs)
    return f"# pseudo MV {names} <- {vals}  (B.DIM bases; not encoded, docs/blocks.md)"


def print_asm(module: ModuleOp) -> str:
    check_fully_lowered(module, "pto-asm")
    stanzas = []
    for op in _blocks(module):
        pseudo = [c for c in (gmaddr_comment(op), scalars_comment(op), dims_comment(op)) if c]
        stanzas.append("\n".join([*pseudo, isa.print_program(op.commands())]))
    return "\n".join(stanzas)


def print_hex(module: ModuleOp) -> str:
    check_fully_lowered(module, "pto-bin")
    cmds: list[isa.Command] = []
    for op in _blocks(module):
        cmds.extend(op.commands())
    try:
        return isa.write_hex(isa.encode_program(cmds))
    except isa.EncodeError as e:
        raise ValueError(f"-t pto-bin: {e}") from None


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
    except (isa.AsmSyntaxError, isa.NotModelledError, PTOFault) as e:
        raise ValueError(f"{input_name}: {e}") from None


def parse_hex(text: str, input_name: str = "<input>") -> ModuleOp:
    try:
        return module_of_commands(isa.decode_hex(text))
    except (isa.AsmSyntaxError, isa.NotModelledError, PTOFault) as e:
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


TARGETS: dict[str, type[Target]] = {t.name: t for t in (PTOAsmTarget, PTOBinTarget)}
"""Target name (``-t``) -> class."""
FRONTENDS: dict[str, type[Frontend]] = {
    "pto-asm": PTOAsmFrontend,
    "pto-bin": PTOBinFrontend,
    "s": _AsmByExtension,
    "hex": _HexByExtension,
}
"""Frontend key (``-f`` name or file extension) -> class, as xDSL's CommandLineTool wants."""
