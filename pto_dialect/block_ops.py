"""Block IR: PTO blocks as IR, one op per block command (PTO-SPEC 3, 7; D11-D15).

``pto.block`` holds one block (``BSTART .. BSTOP``) in its single-block region; each command
is one ``pto.b.*`` op whose properties are the command's RAW integer fields, so the IR can
represent malformed blocks (a missing or duplicate B.FPATR, a B.IOT after ``last``, a second
LB write, five bindings, reserved values...). The command model, the encoding and every
structural rule live in :mod:`pto_dialect.isa`; this module only converts ops <-> commands.

Syntax::

    %d = pto.block (%a, %b) {
      pto.b.start TREM, S32
      pto.b.dim <lb = 0, reg = zero, imm = 8>
      pto.b.iot <src0 = "t#1", src1 = "t#2", last = 1, size_code = "128B", pe_mode = "1111", dst_hand = t>
      pto.b.stop
    } : (!pto.tile<...>, !pto.tile<...>) -> !pto.tile<...>

Field values print by their assembly names (:mod:`pto_dialect.isa.field_names`, built from
the isa tables): ``pto.b.start <mnemonic>, <DataType>`` for a live operation (``TREM``,
``TGEMVMX.BIAS``, ``TLOAD``; catalog names such as ``TGEMV_MX_BIAS`` are accepted on input),
layouts, DataTypes, pads, CMode/RMode, GPRs, tiles (``"t#1"``), hands, masks (``"1111"``)
and sizes (``"4KB"``) by name; a value without a name (reserved) prints as its number, and
a reserved BSTART selector as ``<family = ..., function = ..., dtype = ..., mode = ...>``.
Numbers are accepted for every field on input.

The operands of ``pto.block`` are the tiles its B.IOTs read, in stream order, then (CUBE
only) the i64 scalar post-processing parameters its B.FPATR selects, in B.IOR dense order
(``quant_scalar``, then ``lrelu_scalar``; B.IOR RegSrc k names ``a<k>``, the pseudo register
convention of :data:`SLOT_GPRS`); the results are its destinations in stream order ("linked"
block): the register names in the B.IOTs and the B.IOR are the machine view, the SSA links
keep the IR analysable and let the verifier check the tile types. A block read back from assembly or hex has neither ("unlinked"); it is verified
structurally only.

Verification (D12 order, D16 split): the commands are checked by
:func:`pto_dialect.isa.check_block` (IllegalInstruction, BundleControl, the static
TileLegality rules of the block); for a linked block the equivalent tile-level op is rebuilt
(:func:`tile_op_of`) and verified (TileLegality of types, shapes, layouts), then the block's
own facts are compared with the tile types (BSTART/B.DATR types, LB values, and each
destination SizeCode against the result's capacity -> TileAllocation when it does not fit;
the B.IOR against the B.FPATR's scalar parameters -> TileLegality).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import fields
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from pto_dialect import isa
from pto_dialect.attributes import PadValue, RoundingMode, TargetAttr, TargetProfile, TileType
from pto_dialect.compare_ops import CompareMode, TileCompareOp, TileSelectOp
from pto_dialect.convert_ops import ConvertTileOp, TCvtOp
from pto_dialect.data_movement import (
    TLoadOp,
    TStoreOp,
    constant_index,
    dense_row_stride_bytes,
    gm_pitch_bytes,
)
from pto_dialect.datatypes import DTYPE_NONE, TileDataType, mx_needs_scale
from pto_dialect.elementwise_ops import TeplElementwiseOp
from pto_dialect.families import op_of_selector
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import Layout, code_of_size, size_of_code
from pto_dialect.gm_indexed import GlobalMemoryOp, gm_block_errors, gm_op_of
from pto_dialect.isa import field_names
from pto_dialect.isa.commands import (
    GPR_NAMES,
    LAYOUTS,
    PE_MODE_MASKS,
    STOP_TYPES,
    BlockFamily,
    Command,
)
from pto_dialect.ops import (
    BinaryTileOp,
    CubeMatrixOp,
    PTOOp,
    target_profile,
)
from pto_dialect.predicate import PredicateTileType
from pto_dialect.tile_local import GeneratorTileOp, TeplTileOp
from pto_dialect.tile_move import SHARED_TMOV_UNMODELLED, LocalMoveOp

_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
"""A name printed without quotes (an MLIR bare identifier)."""

def op_class_of(s: isa.BlockSummary, base: type = PTOOp) -> type | None:
    """The tile-level op class a block's BSTART selects, if it is a ``base`` and its block form
    is sound (the one decoded-dispatch lookup, :func:`pto_dialect.families.op_of_selector`);
    None otherwise."""
    mode = s.start.mode if s.family is BlockFamily.TEPL else 0
    cls = op_of_selector(s.family, s.start.function, mode, base)
    return None if cls is None or block_unsound(cls) else cls


def block_unsound(cls: type | None) -> str:
    """Why a decoded block of ``cls`` is refused ('' when it is not): the ops whose block form
    the spec leaves contradictory or unusable (``BLOCK_UNSOUND``: TEXTRACT, TINSERT,
    TIMG2COL)."""
    return getattr(cls, "BLOCK_UNSOUND", "") if cls is not None else ""


def unsound_reason(s: isa.BlockSummary) -> str:
    """:func:`block_unsound` of the op a TEPL block's BSTART selects ('' for other blocks)."""
    if s.family is not BlockFamily.TEPL:
        return ""
    return block_unsound(op_of_selector(s.family, s.start.function, s.start.mode))


MOVE_LAYOUT_CODES: dict[Layout, tuple[int, int]] = {
    Layout.ROW_MAJOR: (0, 0),
    Layout.COL_MAJOR: (1, 6),
    Layout.ZN: (3, 17),
    Layout.NZ: (4, 27),
    Layout.CUBE_M32: (21, 24),
    Layout.CUBE_M16: (22, 25),
    Layout.CUBE_N8: (23, 26),
}
"""Tile layout -> (TLOAD, TSTORE) B.DATR Layout code: NORM, ND2DN/DN2ND, ND2ZN/ZN2ND,
ND2NZ/NZ2ND, ND2M32/M322ND, ND2M16/M162ND, ND2N8/N82ND (PTO-SPEC 3.2; pto-spec
``BSTART.TLOAD.asl`` / ``BSTART.TSTORE.asl``)."""

SLOT_GPRS: tuple[int, int, int] = (
    GPR_NAMES.index("a0"), GPR_NAMES.index("a1"), GPR_NAMES.index("a2"),
)  # fmt: skip
"""The pseudo register convention of linked blocks (docs/blocks.md): B.IOR ``RegSrc k`` names
``a<k>``, the GPR that scalar set-up code outside the block stream (a pseudo-instruction,
not encoded) loads with the block's k-th scalar. B.IOR's input slots are dense and
operation-independent (pto-spec ``asl/block/operands/B.IOR.asl``), so the k-th linked scalar
is always read through ``a<k>``."""

GM_BASE_GPR = SLOT_GPRS[0]
GM_STRIDE_GPR = SLOT_GPRS[1]
"""The GPRs a linked TLOAD/TSTORE block reads through ``B.IOR [a0, a1, zero], ->zero``: the
per-PE GM base address and the byte row stride. Their values are set by the ``GMADDR``
pseudo-instruction (docs/blocks.md), which is scalar code outside the block stream."""

SCALAR_PARAM_ROLES = ("quant_scalar", "lrelu_scalar")
"""The CUBE post-processing scalar parameters, in B.IOR dense order (PTO-SPEC 3.3: quant
first, then LReLU; pto-spec ``cube-tmatmul.asl`` / ``BundleOperationGPRInputSelector``)."""

PE_STRIDE_ATTR = "pto.pe_stride"
"""Attribute of a linked TLOAD/TSTORE block: the per-PE offset step of ``pto.tload`` /
``pto.tstore`` (which the GMADDR pseudo-instruction folds into each PE's base)."""
ROW_STRIDE_ATTR = "pto.row_stride"
"""Attribute of a linked TLOAD/TSTORE block (i64, present only when not 1): the op's
``row_stride`` (tensor rows between tile rows; the B.IOR row stride is that many tensor rows)."""
UNASSIGNED_ATTR = "pto.unassigned"
"""Unit attribute of a block formed by ``pto-form-blocks`` whose register fields (B.IOT
sources and destination hands) are placeholders until ``pto-assign-registers`` runs."""

# ---------------------------------------------------------------------------------------------
# Command ops: one generic base, one subclass per isa command class (a table, not copies)
# ---------------------------------------------------------------------------------------------


class BlockCommandOp(IRDLOperation):
    """Base of the ``pto.b.*`` ops: properties = the raw fields of one isa command."""

    COMMAND: ClassVar[type[Command]]

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls.COMMAND))

    @classmethod
    def from_command(cls, cmd: Command) -> BlockCommandOp:
        op_cls = OP_OF_COMMAND[type(cmd)]
        props: dict[str, Attribute] = {}
        for name in op_cls.field_names():
            v = getattr(cmd, name)
            if v is None:
                continue
            props[name] = StringAttr(str(v)) if name == "family" else IntAttr(int(v))
        op = op_cls.__new__(op_cls)
        IRDLOperation.__init__(op, properties=props)
        return op

    def to_command(self) -> Command:
        """The isa command; a missing mandatory field or a bad family is a VerifyException."""
        kw: dict[str, object] = {}
        for f in fields(self.COMMAND):
            attr = self.properties.get(f.name)
            if attr is None:
                continue
            if f.name == "family":
                assert isinstance(attr, StringAttr)
                try:
                    kw["family"] = BlockFamily(attr.data)
                except ValueError:
                    raise VerifyException(
                        f"'{self.name}' op family must be CUBE, TEPL or TLSU, got '{attr.data}'"
                    ) from None
            else:
                assert isinstance(attr, IntAttr)
                kw[f.name] = attr.data
        try:
            return self.COMMAND(**kw)  # type: ignore[arg-type]
        except TypeError as e:
            raise VerifyException(f"'{self.name}' op is missing a field: {e}") from None

    # -- syntax: fields by name (pto_dialect.isa.field_names), numbers where unnamed ----------
    def _value_text(self, name: str, attr: Attribute) -> str | None:
        if isinstance(attr, StringAttr):
            return attr.data
        if not isinstance(attr, IntAttr):
            return None
        text = field_names.value_name(self.COMMAND, name, attr.data)
        if text is None:
            return str(attr.data)
        return text if _BARE_ID.fullmatch(text) else f'"{text}"'

    def _short_start(self) -> str | None:
        """``TREM, S32`` for a BSTART of a live operation with a named type, else None."""
        if self.COMMAND is not isa.BStart or set(self.properties) != set(self.field_names()):
            return None
        fam, fn, dt, mode = (self.properties[k] for k in ("family", "function", "dtype", "mode"))
        if not (isinstance(fam, StringAttr) and fam.data in BlockFamily.__members__):
            return None
        mn = field_names.start_mnemonic(BlockFamily(fam.data), fn.data, mode.data)  # type: ignore[union-attr]
        dname = field_names.value_name(isa.BStart, "dtype", dt.data)  # type: ignore[union-attr]
        return None if mn is None or dname is None else f"{mn}, {dname}"

    def print(self, printer: Printer) -> None:
        short = self._short_start()
        if short is not None:
            printer.print_string(" " + short)
            return
        items = []
        for name in self.field_names():
            attr = self.properties.get(name)
            text = None if attr is None else self._value_text(name, attr)
            if text is not None:
                items.append(f"{name} = {text}")
        if items or self.COMMAND is isa.BStart:  # `<>`: a BSTART with no fields at all
            printer.print_string(" <" + ", ".join(items) + ">")

    @classmethod
    def _parse_value(cls, parser: Parser, key: str) -> Attribute:
        """An integer, or a name of the field's table (bare or quoted)."""
        pos = parser.pos
        if key == "family":
            return StringAttr(parser.parse_identifier())
        text = parser.parse_optional_identifier()
        if text is None:
            text = parser.parse_optional_str_literal()
        if text is None:
            return IntAttr(parser.parse_integer(allow_boolean=False))
        v = field_names.value_of_name(cls.COMMAND, key, text)
        if v is None:
            names = field_names.names_of(cls.COMMAND, key)
            hint = f" (one of {', '.join(names)}, or a number)" if names else " (a number)"
            parser.raise_error(f"{cls.name}: '{text}' is not a value of field '{key}'{hint}", pos)
        return IntAttr(v)

    @classmethod
    def _parse_short_start(cls, parser: Parser) -> dict[str, Attribute] | None:
        pos = parser.pos
        mn = parser.parse_optional_identifier()
        if mn is None:
            return None
        sel = field_names.start_of_mnemonic(mn)
        if sel is None:
            parser.raise_error(f"pto.b.start: unknown operation '{mn}'", pos)
        parser.parse_punctuation(",")
        family, function, mode = sel
        return {
            "family": StringAttr(family.value),
            "function": IntAttr(function),
            "dtype": cls._parse_value(parser, "dtype"),
            "mode": IntAttr(mode),
        }

    @classmethod
    def parse(cls, parser: Parser) -> BlockCommandOp:
        props: dict[str, Attribute] = {}
        names = cls.field_names()

        def entry():
            pos = parser.pos
            key = parser.parse_identifier()
            if key not in names:
                parser.raise_error(f"{cls.name} has no field '{key}' (fields: {names})", pos)
            if key in props:
                parser.raise_error(f"field '{key}' given twice", pos)
            parser.parse_punctuation("=")
            props[key] = cls._parse_value(parser, key)

        if parser.parse_optional_punctuation("<") is not None:
            if parser.parse_optional_punctuation(">") is None:
                parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
                parser.parse_punctuation(">")
        elif cls.COMMAND is isa.BStart:
            props = cls._parse_short_start(parser) or props
        op = cls.__new__(cls)
        IRDLOperation.__init__(op, properties=props)
        return op

    def verify_(self) -> None:
        cmd = self.to_command()
        if isinstance(cmd, isa.BFpatr) and cmd.cscale_en == 1:
            # CScaleEn exists in the IR and the assembly only (D11): check the other fields.
            cmd = cmd.replace(cscale_en=0)
        try:
            isa.encode(cmd)  # every field must fit its bit field (PTO-SPEC 3)
        except isa.EncodeError as e:
            raise VerifyException(f"'{self.name}' op has no encoding: {e}") from None
        if not isinstance(self.parent_op(), BlockOp):
            raise VerifyException(f"'{self.name}' op must be inside a pto.block")


def _command_op(op_name: str, command: type[Command]) -> type[BlockCommandOp]:
    body: dict[str, object] = {
        "name": op_name,
        "COMMAND": command,
        "__doc__": f"``{op_name}``: the {command.mnemonic} command ({command.__doc__ or ''})",
        "__module__": __name__,
        "__annotations__": {"COMMAND": ClassVar[type[Command]]},
    }
    for f in fields(command):
        body[f.name] = opt_prop_def(StringAttr if f.name == "family" else IntAttr)
    cls = type(command.__name__ + "Op", (BlockCommandOp,), body)
    return irdl_op_definition(cls)


_OP_NAMES: tuple[tuple[str, type[Command]], ...] = (
    ("pto.b.start", isa.BStart),
    ("pto.b.datr", isa.BDatr),
    ("pto.b.fpatr", isa.BFpatr),
    ("pto.b.dim", isa.BDim),
    ("pto.b.dimi", isa.CBDimi),
    ("pto.b.iot", isa.BIot),
    ("pto.b.ior", isa.BIor),
    ("pto.b.ios", isa.BIos),
    ("pto.b.stop", isa.BStop),
    ("pto.b.cstop", isa.CBStop),
    ("pto.b.lstop", isa.LBStop),
    ("pto.b.catr", isa.BCatr),
)
OP_OF_COMMAND: dict[type[Command], type[BlockCommandOp]] = {
    cmd: _command_op(name, cmd) for name, cmd in _OP_NAMES
}
"""isa command class -> ``pto.b.*`` op class."""

BStartOp = OP_OF_COMMAND[isa.BStart]
BDatrOp = OP_OF_COMMAND[isa.BDatr]
BFpatrOp = OP_OF_COMMAND[isa.BFpatr]
BDimOp = OP_OF_COMMAND[isa.BDim]
CBDimiOp = OP_OF_COMMAND[isa.CBDimi]
BIotOp = OP_OF_COMMAND[isa.BIot]
BIorOp = OP_OF_COMMAND[isa.BIor]
BIosOp = OP_OF_COMMAND[isa.BIos]
BStopOp = OP_OF_COMMAND[isa.BStop]
CBStopOp = OP_OF_COMMAND[isa.CBStop]


# ---------------------------------------------------------------------------------------------
# pto.block
# ---------------------------------------------------------------------------------------------


def _diag(e: PTOFault) -> str:
    return f"'pto.block' op [{e.kind}] {e.message}"


@irdl_op_definition
class BlockOp(IRDLOperation):
    """``pto.block``: one PTO block; see the module docstring."""

    name = "pto.block"

    ins = var_operand_def()
    outs = var_result_def()
    body = region_def("single_block")

    traits = traits_def(NoTerminator())

    def __init__(
        self,
        commands: list[Command],
        ins: list[SSAValue] | None = None,
        out_types: list[Attribute] | None = None,
    ):
        block = Block([BlockCommandOp.from_command(c) for c in commands])
        super().__init__(
            operands=[list(ins or [])],
            result_types=[list(out_types or [])],
            regions=[Region(block)],
        )

    def __getstate__(self) -> dict:
        """Pickled (the module cache) with its decoding memo but not the memo's content key
        (thousands of small tuples): an unpickled block's memo is trusted only while
        :func:`unchanged` is active; otherwise the key is computed again and, not matching,
        the block is decoded again (:func:`decoded`). After :func:`keep_linked_only` the
        summary is left out too."""
        state = {k: v for k, v in self.__dict__.items() if k not in DERIVED_KEYS}
        memo = state.get(_DECODED)
        if memo is not None:
            state[_DECODED] = [None, None if state.pop(_LINKED_ONLY, False) else memo[1],
                               memo[2]]  # fmt: skip
        return state

    # -- views ----------------------------------------------------------------------
    @property
    def linked(self) -> bool:
        return bool(self.ins) or bool(self.outs)

    def commands(self) -> list[Command]:
        """The isa commands of the block, in order (VerifyException on a foreign op)."""
        out: list[Command] = []
        for op in self.body.block.ops:
            if not isinstance(op, BlockCommandOp):
                raise VerifyException(f"'pto.block' op may hold only pto.b.* ops, got '{op.name}'")
            out.append(op.to_command())
        return out

    def summary(self, *, trem_types=None) -> isa.BlockSummary:
        """Run the isa structure checker; PTOFault propagates (interpreter use).

        The result is remembered on the op while its content is unchanged (:func:`decoded`),
        so verification, planning and execution decode a block once."""
        if trem_types is not None:
            return isa.check_block(self.commands(), profile=target_profile(self).value,
                                   trem_types=trem_types)  # fmt: skip
        memo = decoded(self)
        if memo is not None and memo[1] is not None:
            return memo[1]
        s = isa.check_block(self.commands(), profile=target_profile(self).value)
        if memo is not None:
            memo[1] = s
        return s

    # -- syntax ---------------------------------------------------------------------
    def print(self, printer: Printer) -> None:
        if self.ins:
            printer.print_string(" (")
            printer.print_list(self.ins, printer.print_operand)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)
        if self.linked:
            printer.print_string(" : ")
            printer.print_function_type([v.type for v in self.ins], [r.type for r in self.outs])

    @classmethod
    def parse(cls, parser: Parser) -> BlockOp:
        unresolved = []
        if parser.parse_optional_punctuation("(") is not None:
            if parser.parse_optional_punctuation(")") is None:
                unresolved = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, parser.parse_unresolved_operand
                )
                parser.parse_punctuation(")")
        region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        ins: list[SSAValue] = []
        outs: list[Attribute] = []
        if parser.parse_optional_punctuation(":") is not None:
            pos = parser.pos
            ft = parser.parse_function_type()
            if len(ft.inputs.data) != len(unresolved):
                parser.raise_error(
                    f"expected {len(unresolved)} operand types, got {len(ft.inputs.data)}", pos
                )
            ins = [parser.resolve_operand(u, t) for u, t in zip(unresolved, ft.inputs.data)]
            outs = list(ft.outputs.data)
        elif unresolved:
            parser.raise_error("a pto.block with operands needs a ': (...) -> ...' type")
        op = cls.__new__(cls)
        IRDLOperation.__init__(op, operands=[ins], result_types=[outs], regions=[region])
        op.attributes.update(attrs)
        return op

    # -- verification -----------------------------------------------------------------
    def verify_(self) -> None:
        try:
            s = self.summary()
        except PTOFault as e:
            raise VerifyException(_diag(e)) from None
        if not self.linked or s.noop:
            return
        try:
            check_linked(self, s)
        except PTOFault as e:
            raise VerifyException(_diag(e)) from None


# ---------------------------------------------------------------------------------------------
# Linked blocks: the equivalent tile-level op and the block/type agreement
# ---------------------------------------------------------------------------------------------


def _fail(kind: FaultKind, msg: str) -> PTOFault:
    return PTOFault(kind, msg, op="pto.block")


def _cube_class(s: isa.BlockSummary) -> type[CubeMatrixOp]:
    cls = op_class_of(s, CubeMatrixOp)
    if cls is None:
        raise _fail(FaultKind.TILE_LEGALITY, f"{s.op_name} has no tile-level op here")
    return cls


def source_roles(s: isa.BlockSummary, in_types: list[TileType] | None = None) -> list[str]:
    """Role of each Local source in stream order (PTO-SPEC 3.1 operand order, 4, 5).

    Table-driven: a CUBE block's roles are its op class's operand declaration order (the
    stream order), scales only for a side whose type needs one (D2), then the vector
    post-processing sources its B.FPATR enables; a binary TEPL block's are ``lhs, rhs``.
    """
    if op_class_of(s, BinaryTileOp) is not None:
        return ["lhs", "rhs"]
    ew = _elementwise_class(s)
    if ew is not None:
        return list(ew.TILE_ROLES)
    local = op_class_of(s, TeplTileOp)
    if local is not None:
        return list(local.SOURCES)
    conv = op_class_of(s, ConvertTileOp)
    if conv is not None:
        return list(conv.SOURCES)
    if op_class_of(s, GeneratorTileOp) is not None:
        return []
    if s.family is BlockFamily.CUBE:
        cls = _cube_class(s)
        assert s.fpatr is not None
        scaled = {
            "a_scale": mx_needs_scale(TileDataType(s.a_type)),
            "b_scale": mx_needs_scale(TileDataType(s.b_type)),
        }
        post = ("row_max_in", "quant", "prelu", *SCALAR_PARAM_ROLES)
        roles = [
            r
            for r in cls.operand_roles()
            if r not in post and (r not in scaled or (cls.is_mx() and scaled[r]))
        ]
        return roles + list(s.fpatr.vector_param_sources())
    unsound = unsound_reason(s)
    raise _fail(
        FaultKind.TILE_LEGALITY,
        f"linked blocks of {s.op_name or 'this operation'} have no tile-level op here"
        + (f": {unsound}" if unsound else ""),
    )


def scalar_roles(s: isa.BlockSummary) -> tuple[str, ...]:
    """Role of each scalar operand of a linked block, in B.IOR dense order (PTO-SPEC 3.3).

    A CUBE block's are the scalar post-processing parameters its B.FPATR selects
    (``Fpatr.scalar_params()``: ``quant_scalar`` for a scalar PreQuantMode, then
    ``lrelu_scalar`` for ReluMode 2); they follow the tile sources among the block's
    operands, and B.IOR ``RegSrc k`` reads the k-th through ``a<k>`` (:data:`SLOT_GPRS`).
    Other families link no post-processing scalar.
    """
    if s.family is BlockFamily.CUBE and s.fpatr is not None:
        return tuple(s.fpatr.scalar_params())
    ew = _elementwise_class(s)
    if ew is not None and ew.SCALAR_ROLES and s.scalars is not None and s.scalars.src0 != 0:
        # A tile-scalar block links its scalar when B.IOR RegSrc0 names a GPR; an omitted
        # B.IOR or RegSrc0 = zero supplies scalar zero and links nothing (catalog defaults).
        return ew.SCALAR_ROLES
    gen = op_class_of(s, GeneratorTileOp) or op_class_of(s, TeplTileOp)
    if gen is not None and s.scalars is not None and any(
        s.scalars.sources
    ):
        # TCI / TTRI / TFILLPAD read their parameters through B.IOR; without a B.IOR, or with
        # an all-zero one (every selector the zero register, ASL B.IOR field_zero_meanings),
        # they link none and read zeros
        return gen.PARAMS
    conv = op_class_of(s, ConvertTileOp)
    if conv is not None and s.scalars is not None:
        return conv.SCALAR_ROLES  # TQUANT / TDEQUANT: multiplier, zero point
    return ()


def _elementwise_class(s: isa.BlockSummary) -> type[TeplElementwiseOp] | None:
    return op_class_of(s, TeplElementwiseOp)


def row_stride_of(block: BlockOp) -> int:
    attr = block.attributes.get(ROW_STRIDE_ATTR)
    if attr is None:
        return 1
    if not isinstance(attr, IntegerAttr):
        raise _fail(FaultKind.TILE_LEGALITY, f"{ROW_STRIDE_ATTR} must be an i64 integer")
    return attr.value.data


def pe_stride_of(block: BlockOp) -> list[int]:
    attr = block.attributes.get(PE_STRIDE_ATTR)
    if attr is None:
        return [0, 0]
    if not isinstance(attr, DenseArrayBase):
        raise _fail(FaultKind.TILE_LEGALITY, f"{PE_STRIDE_ATTR} must be array<i64: s0, s1>")
    return [int(v) for v in attr.get_values()]


def dim_registers(s: isa.BlockSummary) -> tuple[int, ...]:
    """The GPRs the block's register-base B.DIMs read, distinct, in LB order. A linked block
    takes each one's run-time value as a trailing ``i64`` operand (after every other operand),
    like the B.IOR scalars (docs/blocks.md, "Register-base B.DIM")."""
    return tuple(dict.fromkeys(r for r in s.lb_regs if r is not None))


def linked_ins(block: BlockOp, s: isa.BlockSummary) -> list[SSAValue]:
    """The block's operands without the trailing B.DIM register values (:func:`dim_registers`),
    which must be ``i64`` (else TileLegality)."""
    ins = list(block.ins)
    n = len(dim_registers(s))
    if n and (len(ins) < n or any(v.type != i64 for v in ins[len(ins) - n:])):
        names = ", ".join(isa.commands.GPR_NAMES[r] for r in dim_registers(s))
        raise _fail(FaultKind.TILE_LEGALITY,
                    f"a register-base B.DIM reads its GPR at run time: a linked block takes the "
                    f"value of {names} as {n} trailing i64 operand(s)")  # fmt: skip
    return ins[: len(ins) - n]


def lb_expectations(s: isa.BlockSummary, op: PTOOp) -> tuple[tuple[str, int | None], ...]:
    """(name, the value the tile types fix) of LB0..2 for a linked block whose equivalent
    tile op is ``op`` (None: not fixed by the tiles, or the operation reads no LBs):
    CUBE (M, N, K); TLOAD/TSTORE (ValidCol, ValidRow, Col; Col is free for the CUBE
    conversions); the others (ValidCol, ValidRow, Col) of their LB geometry."""
    if isinstance(op, TLoadOp | TStoreOp | LocalMoveOp):
        t = op.result.type if isinstance(op, TLoadOp) else (
            op.tile.type if isinstance(op, TStoreOp) else op.src.type)  # fmt: skip
        assert isinstance(t, TileType)
        cube = isinstance(op, TLoadOp | TStoreOp) and t.layout_kind.is_cube
        vals: tuple[int | None, ...] = (t.valid_shape[1], t.valid_shape[0],
                                        None if cube else t.shape[1])  # fmt: skip
        return tuple(zip(("ValidCol", "ValidRow", "Col"), vals))
    if isinstance(op, TeplTileOp) and op.NO_LBS:  # TMRGSORT, TSORT: shape from the sources
        return (("LB0", None), ("LB1", None), ("LB2", None))
    if isinstance(op, CubeMatrixOp):
        a, b = op.a.type, op.b.type
        assert isinstance(a, TileType) and isinstance(b, TileType)
        return (("M", a.valid_shape[0]), ("N", b.valid_shape[1]), ("K", b.valid_shape[0]))
    if isinstance(op, TeplTileOp | GeneratorTileOp):
        g = op.lb_geometry()
    else:
        ins = [v.type for v in op.operands if isinstance(v.type, TileType | PredicateTileType)]
        g = ins[1] if isinstance(op, TileSelectOp) else (  # the predicate comes first
            ins[0] if ins and isinstance(ins[0], TileType) else op.results[0].type)
        assert isinstance(g, TileType)
    return (("ValidCol", g.valid_shape[1]), ("ValidRow", g.valid_shape[0]), ("Col", g.shape[1]))


def check_dim_values(s: isa.BlockSummary, op: PTOOp, values: Sequence[int]) -> None:
    """Run-time B.DIM: each register-base LB is ``(value + uimm17)[15:0]`` of its GPR's value
    (``values`` in :func:`dim_registers` order; :func:`isa.lb_value`) and must be what the tile
    types fix, as a static LB must: TileLegality before any effect otherwise."""
    regs = dim_registers(s)
    for k, (name, want) in enumerate(lb_expectations(s, op)):
        reg = s.lb_regs[k]
        if reg is None:
            continue
        (cmd,) = [c for c in s.commands if isinstance(c, isa.BDim) and c.lb == k]
        value = int(values[regs.index(reg)])
        got = isa.lb_value(cmd, value)
        if want is not None and got != want:
            raise _fail(FaultKind.TILE_LEGALITY,
                        f"LB{k} ({name}) is {got} = ({isa.commands.GPR_NAMES[reg]} = {value} + "
                        f"{cmd.imm})[15:0] at run time, the tiles say {want}")  # fmt: skip


def move_op_of(block: BlockOp, s: isa.BlockSummary) -> PTOOp:
    """The detached ``pto.tload`` / ``pto.tstore`` equivalent to a linked TLSU block.

    TLOAD links ``(tensor, index, index) -> tile``; TSTORE ``(tile, tensor, index, index) ->
    tensor``; the per-PE step is the block's ``pto.pe_stride`` attribute.
    """
    in_types = [v.type for v in linked_ins(block, s)]
    out_types = [r.type for r in block.outs]
    load = s.op_name == "TLOAD"
    want = "(tensor, index, index) -> tile" if load else "(tile, tensor, index, index) -> tensor"
    tile_t = out_types[0] if load and out_types else (in_types[0] if in_types else None)
    tensor_t = in_types[0] if load else (in_types[1] if len(in_types) > 1 else None)
    offs = in_types[1:] if load else in_types[2:]
    ok = (
        isinstance(tile_t, TileType)
        and isinstance(tensor_t, TensorType)
        and len(offs) == 2
        and all(isinstance(t, IndexType) for t in offs)
        and len(out_types) == 1
        and (load or out_types[0] == tensor_t)
    )
    if not ok:
        raise _fail(FaultKind.TILE_LEGALITY, f"a linked {s.op_name} block is {want}")
    vals = Block(arg_types=in_types).args
    stride, rows = pe_stride_of(block), row_stride_of(block)
    if load:
        return TLoadOp(vals[0], vals[1:], tile_t, pe_stride=stride,  # type: ignore[arg-type]
                       pad=list(PadValue)[s.datr.pad], row_stride=rows)  # fmt: skip
    return TStoreOp(vals[0], vals[1], vals[2:], pe_stride=stride, row_stride=rows)


def local_move_op_of(block: BlockOp, s: isa.BlockSummary) -> LocalMoveOp:
    """The detached ``pto.tmov`` equivalent to a linked Local TMOV block ``(tile) -> tile``;
    a Shared TMOV form (Functions 9-12) has none (:data:`SHARED_TMOV_UNMODELLED`)."""
    cls = op_class_of(s, LocalMoveOp)
    if cls is None:
        raise _fail(FaultKind.TILE_LEGALITY, f"{s.op_name}: {SHARED_TMOV_UNMODELLED}")
    ins, outs = [v.type for v in linked_ins(block, s)], [r.type for r in block.outs]
    if len(ins) != 1 or len(outs) != 1 or not all(isinstance(t, TileType) for t in ins + outs):
        raise _fail(FaultKind.TILE_LEGALITY, "a linked TMOV block is (tile) -> tile")
    (src,) = Block(arg_types=ins).args
    return cls(src, outs[0], mask=PE_MODE_MASKS[s.pe_mode] if s.pe_mode is not None else "0000")


def tile_op_of(block: BlockOp, s: isa.BlockSummary) -> PTOOp:
    """A detached tile-level op equivalent to the linked ``block`` (for legality checks).

    Its operands are fresh values of the block's operand types (the op is never inserted).
    """
    if s.op_name in ("TLOAD", "TSTORE"):
        return move_op_of(block, s)
    if s.family is BlockFamily.TLSU and s.op_name and s.op_name.startswith("TMOV"):
        return local_move_op_of(block, s)
    gm = op_class_of(s, GlobalMemoryOp)
    if gm is not None:
        return gm_op_of(block, s, gm)  # pto_dialect.gm_indexed (MGATHER*, MSCATTER*, GMOV, TPREFETCH)
    return computed_op_of(s, [v.type for v in linked_ins(block, s)], [r.type for r in block.outs])


def computed_op_of(s: isa.BlockSummary, all_in: Sequence[Attribute],
                   out_types: Sequence[Attribute]) -> PTOOp:  # fmt: skip
    """The detached tile-level op of a TEPL / CUBE block ``s`` whose operands have the types
    ``all_in`` (its tile sources in B.IOT order, then its scalar parameters in B.IOR dense
    order; no B.DIM register values) and whose results have the types ``out_types``.

    A linked block takes these from its SSA operands (:func:`tile_op_of`); a decoded block
    run on registers from its register descriptors (``interpreter.machine.core_local``)."""
    all_in, out_types = list(all_in), list(out_types)
    tile = TileType | PredicateTileType
    n_tiles = next((i for i, t in enumerate(all_in) if not isinstance(t, tile)), len(all_in))
    in_types, scalar_types = all_in[:n_tiles], all_in[n_tiles:]
    if any(isinstance(t, tile) for t in scalar_types) or not all(
        isinstance(t, tile) for t in out_types
    ):
        raise _fail(
            FaultKind.TILE_LEGALITY,
            "pto.block operands are its tile sources then its scalar parameters, and its "
            "results are tiles",
        )
    roles = source_roles(s, in_types)  # type: ignore[arg-type]
    if len(roles) != len(in_types) or len(s.sources) != len(in_types):
        raise _fail(
            FaultKind.BUNDLE_CONTROL,
            f"{s.op_name} binds {len(s.sources)} source register(s); the block links "
            f"{len(in_types)} tile operand(s), the operation needs {len(roles)}",
        )
    if len(s.destinations) != len(out_types):
        raise _fail(
            FaultKind.BUNDLE_CONTROL,
            f"the block binds {len(s.destinations)} destination(s) but has "
            f"{len(out_types)} result(s)",
        )
    sc_roles = scalar_roles(s)
    if len(scalar_types) != len(sc_roles):
        raise _fail(
            FaultKind.TILE_LEGALITY,
            f"the block links {len(scalar_types)} scalar operand(s); {s.op_name} with this "
            f"B.FPATR consumes {len(sc_roles)} ({', '.join(sc_roles) or 'none'}; PTO-SPEC 3.3)",
        )
    vals = Block(arg_types=all_in).args
    by_role = dict(zip([*roles, *sc_roles], vals))
    mask = PE_MODE_MASKS[s.pe_mode] if s.pe_mode is not None else "0000"
    d = s.datr
    ew = _elementwise_class(s)
    if ew is not None:
        for r in ew.SCALAR_ROLES:  # an unlinked scalar is the zero register (value 0)
            if r not in by_role:
                by_role[r] = Block(arg_types=[i64]).args[0]
        if issubclass(ew, TileCompareOp):  # B.DATR CMode (reserved codes rejected by check_block)
            return ew.from_roles(by_role, out_types[0], list(PadValue)[d.pad], mask,
                            cmode=CompareMode.of_code(d.cmode))  # fmt: skip
        return ew.from_roles(by_role, out_types[0], list(PadValue)[d.pad], mask)
    local = op_class_of(s, TeplTileOp)
    gen = op_class_of(s, GeneratorTileOp)
    if gen is not None:
        gop = gen.__new__(gen)
        GeneratorTileOp.__init__(gop, [by_role[r] for r in sc_roles], out_types[0], mask=mask)
        return gop
    conv = op_class_of(s, ConvertTileOp)
    if conv is not None:
        cop_ = conv.__new__(conv)
        ConvertTileOp.__init__(cop_, by_role["src"], out_types[0],
                               [by_role[r] for r in sc_roles], rmode=list(RoundingMode)[d.rmode],
                               sat=bool(d.sat), pad=list(PadValue)[d.pad] if conv is TCvtOp
                               else PadValue.NULL, mask=mask)  # fmt: skip
        return cop_
    if local is not None:
        pad = list(PadValue)[d.pad] if local.HAS_PAD else PadValue.NULL
        lop = local.build([by_role[r] for r in (*local.SOURCES, *sc_roles)], out_types,
                          pad=pad, mask=mask)  # fmt: skip
        lop.properties.update(local.from_block(s))  # THISTOGRAM's ByteId, TSORT's LB0
        return lop
    if s.family is BlockFamily.TEPL:
        cls = op_class_of(s, BinaryTileOp)
        assert cls is not None, s.op_name
        op = cls.__new__(cls)
        BinaryTileOp.__init__(
            op, by_role["lhs"], by_role["rhs"], out_types[0], pad=list(PadValue)[d.pad],
            mask=mask,
        )
        return op
    assert s.fpatr is not None
    cls = _cube_class(s)
    cop = cls.__new__(cls)
    CubeMatrixOp.__init__(
        cop,
        by_role,  # type: ignore[arg-type]
        out_types,
        rmode=list(RoundingMode)[d.rmode],
        sat=bool(d.sat),
        fpatr=s.fpatr,
        mask=mask,
    )
    return cop


DERIVED_KEYS: set[str] = set()
"""``op.__dict__`` keys under which other modules remember facts derived from a block's
decoding (e.g. the interpreter's operand order): left out when the block is pickled."""

_LINKED_ONLY = "_pto_linked_only"
"""``op.__dict__`` flag of :func:`keep_linked_only`."""


def keep_linked_only(block: BlockOp) -> None:
    """When ``block`` is pickled, keep only the linked op of its decoding memo, not its
    summary: the interpreter's batched loops use the linked op alone, so a program loaded
    from the module cache need not unpickle a summary it does not read (asked for, the
    summary is decoded again and the memo's linked op stays the same object)."""
    block.__dict__[_LINKED_ONLY] = True


_DECODED = "_pto_decoded"
"""``op.__dict__`` key of a block's decoding memo: ``[content key, summary, linked op]``."""


def _content_key(block: BlockOp) -> tuple:
    """Everything a block's summary and linked op depend on: its target profile, attributes,
    operand and result types, and its command ops with their properties (compared by
    identity first, so an unchanged block is recognised in microseconds)."""
    return (
        target_profile(block),
        tuple(block.attributes.items()),
        tuple(v.type for v in block.operands),
        tuple(r.type for r in block.results),
        tuple((o, tuple(o.properties.items())) for o in block.body.block.ops),
    )


_UNCHANGED: ContextVar[bool] = ContextVar("pto_blocks_unchanged", default=False)


@contextmanager
def unchanged() -> Iterator[None]:
    """While active, a block's decoding memo is used without comparing its content key: the
    caller promises that no block changes meanwhile (the interpreter while it plans a verified
    module, which must not be mutated after its first run)."""
    token = _UNCHANGED.set(True)
    try:
        yield
    finally:
        _UNCHANGED.reset(token)


def decoded(block: BlockOp) -> list | None:
    """The decoding memo of ``block``: ``[key, summary or None, linked op or None]``, reset
    when the block's content changed since it was filled (a pass rewrote it), None when the
    content cannot be keyed (the uncached path then reports the problem).

    Verification, the interpreter's plans and its execution ask for a block's summary and
    linked op several times; decoding once keeps loading a block program fast (issue 26). The
    memo lives in the op's ``__dict__``, so it is pickled with the module
    (:mod:`interpreter.ssa.module_cache`) and dropped by ``clone``. Only successful results are
    kept: a fault is recomputed, and raised, every time."""
    memo = block.__dict__.get(_DECODED)
    if memo is not None and _UNCHANGED.get():
        return memo
    try:
        key = _content_key(block)
    except Exception:  # noqa: BLE001 - a malformed block: decode without the memo
        return None
    if memo is None or memo[0] != key:
        memo = block.__dict__[_DECODED] = [key, None, None]
    return memo


def check_linked(block: BlockOp, s: isa.BlockSummary) -> PTOOp:
    """TileLegality/TileAllocation of a linked block against its tile types (D12 order).

    Returns the equivalent tile-level op (remembered with the block's summary,
    :func:`decoded`; callers must not change it). Raises :class:`PTOFault`.
    """
    memo = decoded(block)
    if memo is not None and memo[1] is s and memo[2] is not None:
        return memo[2]
    op = _check_linked(block, s)
    if memo is not None and memo[1] is s:
        memo[2] = op
    return op


def _check_linked(block: BlockOp, s: isa.BlockSummary) -> PTOOp:
    op = tile_op_of(block, s)
    _verify_tile_op(op, block_target_attr(block) if target_profile(block) is not TargetProfile.A5
                    else None)  # fmt: skip
    if isinstance(op, TLoadOp | TStoreOp):
        _check_move(block, s, op)
        return op
    if isinstance(op, LocalMoveOp):
        _check_local_move(s, op)
        return op
    if isinstance(op, GlobalMemoryOp):
        if errs := gm_block_errors(s, op):
            raise _fail(FaultKind.TILE_LEGALITY, "; ".join(errs))
        return op
    _check_scalar_binding(s)
    _check_computed(s, op, [v.type for v in block.ins], [r.type for r in block.outs])
    return op


def check_computed(s: isa.BlockSummary, in_types: Sequence[Attribute],
                   out_types: Sequence[Attribute]) -> PTOOp:  # fmt: skip
    """:func:`check_linked` of a TEPL / CUBE block bound to tiles of the types ``in_types``
    (tile sources, then scalar parameters; no B.DIM values) and ``out_types``, on the a5
    profile: the same detached op (:func:`computed_op_of`), verifier and block/type checks in
    the same order, the same :class:`PTOFault`. The scalar binding (B.IOR RegSrc k = ``a<k>``,
    a linked block's naming convention) is not checked: a block run on registers reads its
    scalars from the GPRs its B.IOR names."""
    op = computed_op_of(s, in_types, out_types)
    _verify_tile_op(op, None)
    _check_computed(s, op, in_types, out_types)
    return op


def _verify_tile_op(op: PTOOp, target: Attribute | None) -> None:
    """The tile op's verifier (its legality rules) under ``target`` (None: a5): a diagnostic
    becomes the :class:`PTOFault` of the fault kind it names (default TileLegality)."""
    if target is not None:
        op.attributes["pto.target"] = target
    try:
        op.verify_()
    except VerifyException as e:
        msg = str(e)
        kind = FaultKind.TILE_LEGALITY
        for k in FaultKind:
            if f"[{k}]" in msg:
                kind = k
        raise _fail(kind, msg.split("] ", 1)[-1]) from None


def _check_computed(s: isa.BlockSummary, op: PTOOp, in_types: Sequence[Attribute],
                    out_types: Sequence[Attribute]) -> None:  # fmt: skip
    """The block/type agreement of a TEPL / CUBE block whose tile op ``op`` verified."""
    tl = FaultKind.TILE_LEGALITY
    ins: list[TileType] = list(in_types)  # type: ignore[arg-type]
    outs: list[TileType] = list(out_types)  # type: ignore[arg-type]
    # The encoded DataType is AType: the `a` operand for CUBE (C comes first in ACC forms),
    # the first source for the binary family (PTO-SPEC 3.1).
    first = (
        op.a.type if isinstance(op, CubeMatrixOp)
        else ins[1] if isinstance(op, TileSelectOp)  # the predicate's DataType is not encoded
        else op.result.type if isinstance(op, GeneratorTileOp)
        else ins[0] if ins and isinstance(ins[0], TileType) else outs[0]
    )  # fmt: skip
    assert isinstance(first, TileType)
    if first.dtype.value != s.a_type:
        raise _fail(
            tl,
            f"BSTART DataType {TileDataType(s.a_type).name} differs from the AType source's "
            f"{first.dtype.name}",
        )
    if isinstance(op, TeplTileOp):
        _check_local(s, op)
    if isinstance(op, ConvertTileOp):
        _check_convert(s, op)
    if isinstance(op, CubeMatrixOp):
        b = op.b.type
        assert isinstance(b, TileType)
        if b.dtype.value != s.b_type:
            raise _fail(tl, f"BType {TileDataType(s.b_type).name} differs from b's {b.dtype.name}")
    for k, (have, (n, w)) in enumerate(zip(s.dims, lb_expectations(s, op))):
        if w is None or s.lb_regs[k] is not None:
            continue  # a GPR-sourced LB is checked at run time (check_dim_values)
        if have != w:
            raise _fail(tl, f"LB{k} ({n}) is {have}, the tiles say {w}")
    for i, ((_hand, code), t) in enumerate(zip(s.destinations, outs)):
        if size_of_code(code) < t.capacity:
            raise _fail(
                FaultKind.TILE_ALLOCATION,
                f"destination {i} SizeCode {code} ({size_of_code(code)} B) is smaller than "
                f"the result tile's capacity {t.capacity} B",
            )
        if code_of_size(t.capacity) != code:
            raise _fail(
                tl,
                f"destination {i} SizeCode {code} ({size_of_code(code)} B) differs from the "
                f"result tile's capacity {t.capacity} B",
            )


def _check_local(s: isa.BlockSummary, op: TeplTileOp) -> None:
    """B.DATR of a linked tile-local block against its tile types: DataType names the
    destination type (DTYPE_NONE or omitted: the source type; EXPDIF ``B.DATR DataType``),
    and the B.DATR Layout conversions (TTRANS, TCONCAT, TGATHER, TSCATTER, TFILLPAD) are not
    modelled (refused, not ignored)."""
    tl = FaultKind.TILE_LEGALITY
    rt = op.result.type
    assert isinstance(rt, TileType)
    if "D" in (s.start.tepl.datr_fields if s.start.tepl else ""):
        want = s.b_type  # B.DATR DataType when concrete, else the BSTART type
        if rt.dtype.value != want:
            raise _fail(tl, f"B.DATR DataType {TileDataType(want).name} differs from the result's "
                        f"{rt.dtype.name}")  # fmt: skip
    if "L" in (s.start.tepl.datr_fields if s.start.tepl else "") and s.datr.layout != 0:
        raise _fail(tl, f"{op.MNEMONIC} with B.DATR Layout "
                    f"{LAYOUTS.get(s.datr.layout, s.datr.layout)} is not modelled (only the "
                    "plain row-major form)")  # fmt: skip


def _check_convert(s: isa.BlockSummary, op: ConvertTileOp) -> None:
    """B.DATR of a linked TCVT / TQUANT / TDEQUANT block against its tile types: DataType
    names the destination type (omitted or DTYPE_NONE: the source type); for TCVT the Layout
    is the transformation between the two descriptors and Canonicalize is set exactly for a
    private CUBE source (``TileOperandsLegal_TCVT``)."""
    tl = FaultKind.TILE_LEGALITY
    rt = op.result.type
    assert isinstance(rt, TileType)
    if rt.dtype.value != s.b_type:
        raise _fail(tl, f"B.DATR DataType {TileDataType(s.b_type).name} differs from the result's "
                    f"{rt.dtype.name}")  # fmt: skip
    if isinstance(op, TCvtOp):
        if bool(s.datr.canonicalize) != op.canonicalize:
            raise _fail(tl, "B.DATR Canonicalize must be set exactly for a private CUBE "
                        "(location mat) source (TileOperandsLegal_TCVT)")  # fmt: skip
        want = 0 if op.canonicalize else op.layout_code
        if s.datr.layout != want:
            raise _fail(tl, f"B.DATR Layout {LAYOUTS.get(s.datr.layout, s.datr.layout)} does not "
                        f"transform the source's layout into the result's ({LAYOUTS[want]})")  # fmt: skip


def _check_scalar_binding(s: isa.BlockSummary) -> None:
    """The B.IOR of a linked block against its B.FPATR's scalar parameters (PTO-SPEC 3.3).

    The k-th parameter of ``Fpatr.scalar_params()`` (dense order: quant, then LReLU; an
    LReLU-only block uses RegSrc0) is read through RegSrc k, which a linked block names
    ``a<k>`` (:data:`SLOT_GPRS`, docs/blocks.md). A missing B.IOR, or a selector other than
    the convention's, is TileLegality: binding-stream completeness is a TileLegality rule of
    the CUBE path (pto-spec ``cube-tmatmul.asl`` ``BundleMatrixDynamicBindingsComplete``,
    PTO-SPEC 3.5). Surplus nonzero B.IOR fields are rejected earlier, by
    :func:`pto_dialect.isa.check_block` (TileLegality, ``BundleOperationScalarBindingSchema
    Legal``).
    """
    roles = scalar_roles(s)
    if not roles:
        return
    want = SLOT_GPRS[: len(roles)]
    spelled = ", ".join(f"{GPR_NAMES[g]} ({r})" for g, r in zip(want, roles))
    ior = s.scalars
    if ior is None:
        raise _fail(
            FaultKind.TILE_LEGALITY,
            f"B.FPATR selects {len(roles)} scalar parameter(s) but the block has no B.IOR: "
            f"expected B.IOR [{spelled}] (PTO-SPEC 3.3, dense order)",
        )
    if ior.sources[: len(roles)] != want:
        have = ", ".join(GPR_NAMES[g] if g < len(GPR_NAMES) else str(g) for g in ior.sources)
        raise _fail(
            FaultKind.TILE_LEGALITY,
            f"B.IOR [{have}] does not read the linked scalar parameter(s): expected "
            f"[{spelled}] (RegSrc k = a<k>, docs/blocks.md; PTO-SPEC 3.3, dense order)",
        )


TMOV_DESTINATION_LAYOUTS: dict[int, Layout] = {
    0: Layout.ROW_MAJOR, 6: Layout.ROW_MAJOR, 17: Layout.ROW_MAJOR, 27: Layout.ROW_MAJOR,
    1: Layout.COL_MAJOR, 18: Layout.COL_MAJOR, 28: Layout.COL_MAJOR,
    3: Layout.ZN, 8: Layout.ZN, 30: Layout.ZN,
    4: Layout.NZ, 9: Layout.NZ, 20: Layout.NZ,
}
"""B.DATR Layout code -> the destination layout it selects (``TileDataLayoutDestination
Layout``, ``asl/block/model/state/control-state.asl``); the CUBE codes have none."""


def _check_local_move(s: isa.BlockSummary, op: LocalMoveOp) -> None:
    """A linked Local TMOV block against its tiles: BSTART DataType the tiles' (or DTYPE_NONE,
    inherited from the source), B.DATR Layout selecting the tiles' layout, explicit LBs equal
    to the source's ValidCol / ValidRow / Col (omitted ones inherit them), the destination
    SizeCode the result's capacity (TileAllocation when smaller)."""
    tl = FaultKind.TILE_LEGALITY
    t = op.src.type
    assert isinstance(t, TileType)
    if s.a_type != DTYPE_NONE and s.a_type != t.dtype.value:
        raise _fail(tl, f"BSTART DataType {TileDataType(s.a_type).name} differs from the tiles' "
                    f"{t.dtype.name}")  # fmt: skip
    layout = TMOV_DESTINATION_LAYOUTS.get(s.datr.layout)
    if layout is not t.layout_kind:
        raise _fail(tl, f"B.DATR Layout {LAYOUTS.get(s.datr.layout, s.datr.layout)} does not "
                    f"select the tiles' layout {t.layout_kind.value}")  # fmt: skip
    for k, (n, w) in enumerate(lb_expectations(s, op)):
        if s.lb_written[k] and s.lb_regs[k] is None and s.lb[k] != w:
            raise _fail(tl, f"LB{k} ({n}) is {s.lb[k]}, the source says {w}")
    ((_hand, code),) = s.destinations
    rt = op.result.type
    assert isinstance(rt, TileType)
    if code_of_size(rt.capacity) != code:
        kind = FaultKind.TILE_ALLOCATION if size_of_code(code) < rt.capacity else tl
        raise _fail(kind, f"destination SizeCode {code} ({size_of_code(code)} B) differs from "
                    f"the result tile's capacity {rt.capacity} B")  # fmt: skip


def _check_move(block: BlockOp, s: isa.BlockSummary, op: TLoadOp | TStoreOp) -> None:
    """A linked TLOAD/TSTORE block against its tile type (docs/blocks.md, Data movement)."""
    tl = FaultKind.TILE_LEGALITY
    load = isinstance(op, TLoadOp)
    t = op.result.type if load else op.tile.type
    assert isinstance(t, TileType)
    name = s.op_name
    if t.dtype.value != s.a_type:
        raise _fail(
            tl, f"BSTART DataType {TileDataType(s.a_type).name} differs from the tile's "
            f"{t.dtype.name}",
        )
    codes = MOVE_LAYOUT_CODES.get(t.layout_kind)
    if codes is None:
        raise _fail(tl, f"{name} has no conversion for layout {t.layout_kind.value}")
    want_layout = codes[0 if load else 1]
    if s.datr.layout != want_layout:
        raise _fail(
            tl, f"B.DATR Layout {LAYOUTS.get(s.datr.layout, s.datr.layout)} does not "
            f"produce the tile's layout {t.layout_kind.value} "
            f"(expected {LAYOUTS[want_layout]})",
        )
    cube = t.layout_kind.is_cube
    if load and op.pad.data is not PadValue.NULL and (not cube or s.datr.pad != op.pad.data.code):
        # Only the CUBE conversions pad (asl/tile/model/memory/load-store.asl TLOAD); an
        # ordinary TLOAD leaves padding undefined (asl/block/model/dispatch/tile-schema.asl).
        raise _fail(tl, f"the tile op pads with {op.pad.data.value}; "
                    + (f"the block's PadValue is {s.datr.pad}" if cube else
                       "an ordinary TLOAD block leaves padding undefined"))  # fmt: skip
    vr, vc = t.valid_shape
    defaults = (1, 1, vc) if load else (vc, vr, t.shape[1])
    for k, ((names, w), dflt) in enumerate(zip(lb_expectations(s, op), defaults)):
        if s.lb_regs[k] is not None or w is None:
            continue
        have = s.lb[k] if s.lb_written[k] else dflt
        if have != w:
            raise _fail(tl, f"LB{k} ({names}) is {have}, the tile says {w}")
    _check_gm_address(block, s, op, t)
    if load:
        (_hand, code), = s.destinations
        if code_of_size(t.capacity) != code:
            kind = FaultKind.TILE_ALLOCATION if size_of_code(code) < t.capacity else tl
            raise _fail(
                kind, f"destination SizeCode {code} ({size_of_code(code)} B) differs from the "
                f"tile's capacity {t.capacity} B",
            )
    if PE_MODE_MASKS[s.pe_mode or 0] != t.pe_mask:
        raise _fail(tl, f"the block's mask {s.mask} differs from the tile's PEs {t.pe_mask}")


def _check_gm_address(block: BlockOp, s: isa.BlockSummary, op: TLoadOp | TStoreOp,
                      t: TileType) -> None:  # fmt: skip
    """Where a linked TLOAD/TSTORE block's GM base and byte row stride come from (pto-spec
    asl/block/model/dispatch/tile-schema.asl; asl/tile/model/memory/stride.asl):

    * B.IOR RegSrc0 ``a0``: the GMADDR pseudo-instruction's base, ``tensor[i + q*s0, j + q*s1]``;
      ``zero``: base 0, so the tensor is GM from address 0: constant offsets 0, ``pe_stride``
      [0, 0];
    * RegSrc1 ``a1``: the GMADDR stride, ``row_stride`` tensor rows (0 B for ``row_stride`` 0);
      ``zero``: the encoded-zero stride, so ``row_stride`` 0 (rows alias; pto-form-blocks
      emits this form for ``row_stride`` 0);
    * no B.IOR: base 0 and the dense stride ``TileDenseRowStrideBytes(Col)``: as for base 0,
      and ``row_stride`` 1 over a tensor whose rows are exactly Col elements (packed 4-bit GM:
      ``ceil(Col / 2)`` bytes).

    Anything else is TileLegality."""
    tl, name = FaultKind.TILE_LEGALITY, s.op_name
    zero, ior = 0, s.scalars
    regs = (GM_BASE_GPR, GM_STRIDE_GPR)
    if ior is not None and (ior.src0 not in (regs[0], zero) or ior.src1 not in (regs[1], zero)):
        raise _fail(tl, f"a linked {name} block reads its GM base and row stride through "
                    f"B.IOR [a0 or zero, a1 or zero, zero], ->zero (the GMADDR pseudo-"
                    f"instruction's registers)")  # fmt: skip
    k = op.row_step
    if ior is not None and ior.src1 == zero and k != 0:
        raise _fail(tl, f"B.IOR RegSrc1 zero is the encoded-zero row stride (rows alias one GM "
                    f"row): the tile op's row_stride is {k}, not 0")  # fmt: skip
    if ior is not None and ior.src0 != zero:
        return
    what = "an omitted B.IOR" if ior is None else "B.IOR RegSrc0 zero"
    offs = list(linked_ins(block, s))[1:3] if isinstance(op, TLoadOp) else list(
        linked_ins(block, s))[2:4]  # fmt: skip
    if [constant_index(o) for o in offs] != [0, 0] or any(pe_stride_of(block)):
        raise _fail(tl, f"{what} reads GM from address 0: the linked tensor must be GM from "
                    f"its first element (constant offsets [0, 0], pe_stride [0, 0])")  # fmt: skip
    if ior is None:
        tensor_t = op.source.type if isinstance(op, TLoadOp) else op.dest.type
        assert isinstance(tensor_t, TensorType)
        col = t.valid_shape[1] if t.layout_kind.is_cube else t.shape[1]
        _, dense = gm_operands(s, col, {})
        if k != 1 or gm_pitch_bytes(tensor_t, t) != dense:
            raise _fail(tl, f"an omitted B.IOR reads rows at the dense stride of Col = {col} "
                        f"elements ({dense} B): the tensor's rows must be {dense} B and "
                        f"row_stride 1")  # fmt: skip


def gm_operands(s: isa.BlockSummary, col: int, gprs: Mapping[int, int]) -> tuple[int, int]:
    """(GM base address, byte row stride) a TLOAD/TSTORE block hands its operation, given the
    values of the GPRs its B.IOR names (``BundleTileInstructionOperands``,
    asl/block/model/dispatch/tile-schema.asl): RegSrc0 / RegSrc1 read their registers (the zero
    register reads 0: an encoded zero is a real zero stride); without B.IOR the base is 0 and
    the stride ``TileDenseRowStrideBytes(col)`` of the block's DataType, ``col`` the physical
    column count of the Local tile (LB2, or ValidCol). In a linked block ``a0`` / ``a1`` hold
    what the GMADDR pseudo-instruction computes from the tensor (docs/blocks.md)."""
    ior = s.scalars
    if ior is None:
        return 0, dense_row_stride_bytes(col, TileDataType(s.a_type))
    return tuple(0 if r == 0 else int(gprs[r]) for r in (ior.src0, ior.src1))  # type: ignore[return-value]


def block_target_attr(block: Operation) -> Attribute:

    return TargetAttr(target_profile(block))


BLOCK_OPS = [BlockOp, *OP_OF_COMMAND.values()]
"""The block ops (``pto.block``, ``pto.b.*``) registered in the ``pto`` dialect."""


def module_of_commands(cmds: list[Command]):
    """A ``builtin.module`` with one unlinked ``pto.block`` per block of ``cmds`` (split at
    each BSTART; commands before the first BSTART form a block of their own, which the
    verifier then rejects as BundleControl)."""
    from xdsl.dialects.builtin import ModuleOp

    groups: list[list[Command]] = []
    for i, c in enumerate(cmds):
        if type(c) not in OP_OF_COMMAND and not isinstance(c, isa.SCALAR_START_TYPES):
            isa.check_reserved(c)  # XB: IllegalInstruction (reserved in PTO)
        if isinstance(c, isa.SCALAR_START_TYPES):
            raise isa.NotModelledError(
                f"command {i}: {c.mnemonic} opens a scalar ({c.kind}) block; pto.block holds "
                "tile blocks only (docs/blocks.md, 'Scalar block starts')"
            )
        if isinstance(c, isa.BStart) or not groups or isinstance(groups[-1][-1], STOP_TYPES):
            groups.append([])
        groups[-1].append(c)
    return ModuleOp([BlockOp(g) for g in groups])


def commands_of_module(module: Operation) -> list[Command]:
    """Every command of every ``pto.block`` in ``module``, in program order."""
    out: list[Command] = []
    for op in module.walk():
        if isinstance(op, BlockOp):
            out.extend(op.commands())
    return out
