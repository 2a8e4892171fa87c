"""Data movement between tensors and tiles: ``pto.tload`` and ``pto.tstore``.

These mirror the ISA's TLOAD / TSTORE, which are outside the two operations the project started from (TGEMV_MX_BIAS, TREM). Their precise
semantics here (PTO-SPEC 2 tile model, D9 padding, D13 PEs):

``%t = pto.tload %src[%i, %j] {pe_stride = [s0, s1], pad = #pto.pad<zero>} : tensor<RxCxE> -> T``
    For each PE ``p`` in T's PE mask (PE0 first, ``q`` = its rank among the selected PEs),
    copy the slice ``src[i + q*s0 : i + q*s0 + VR, j + q*s1 : j + q*s1 + VC]`` into the valid
    rectangle of PE ``p``'s payload, then write every element outside the valid rectangle
    with the pad value (``null`` leaves it undefined). The tile's layout only changes how the
    payload is stored (ND -> CUBE_M16/M32/N8 conversions), never the logical values.
    A CUBE-layout tile (the ND <-> CUBE_M16/M32/N8 conversions) must be in location ``mat``
    (``TileCubeDescriptorLegal``, asl/tile/model/legality/descriptor-shape.asl).
    A slice out of the tensor's bounds is ``Fault_TileLegality`` before any effect; with
    constant offsets (``arith.constant``) the verifier already rejects it.

``%r = pto.tstore %t, %dst[%i, %j] {pe_stride = [s0, s1]} : T, tensor<RxCxE> -> tensor<RxCxE>``
    The inverse: the valid rectangle of each selected PE's payload is written into a copy of
    ``dst`` at ``(i + q*s0, j + q*s1)``; ``%r`` is the updated tensor. Reading an undefined
    element is ``Fault_TileLegality``.

``row_stride = k`` (both ops; default 1, printed only otherwise): row ``r`` of a PE's
rectangle is tensor row ``i + q*s0 + k*r``, i.e. the block's B.IOR byte row stride is ``k``
tensor rows (pto-spec ``asl/tile/model/memory/load-store.asl``). ``k = 0`` is the ISA's
encoded-zero stride: every row reads (TLOAD) or writes (TSTORE, rows in order, so the last
row's values remain) tensor row ``i + q*s0`` (AVS ``BLOCK-TLOAD-STRIDE-001``,
``BLOCK-TSTORE-STRIDE-001``). A rectangle of ``VR`` rows spans ``(VR - 1)*k + 1`` tensor rows.

Element types: the tensor's element type is the tile's, except that a signless ``iN`` tensor
moves to or from an ``siN`` or ``uiN`` tile (the lowering decides the signedness).

**Packed 4-bit GM.** A tile of a packed X2 type (E2M1X2, E1M2X2, HiF4X2, S4X2, U4X2) also
moves to or from a signless ``i8`` tensor that holds GM bytes as the ISA lays them out
(pto-spec ``asl/tile/model/memory/load-store.asl``, ``addressing.asl``; AVS
``BLOCK-TLOAD-PACKED-001``, ``BLOCK-TSTORE-PACKED-001``): a tensor row is one GM row whose
byte pitch is the tensor's column count (the block's B.IOR row stride), and element ``c`` of a
tile row lives in byte ``j + c // 2`` of that row, the **low nibble first** (even ``c`` in
bits 3:0, odd ``c`` in bits 7:4). Offsets and the column ``pe_stride`` count bytes; a valid
row of ``VC`` elements covers ``ceil(VC / 2)`` bytes, so every row starts at a low nibble.
A TSTORE with odd ``VC`` writes only the low nibble of a row's last byte: its high nibble
keeps the destination's bits (a read-modify-write of that byte)::

    %t = pto.tload %gm[%c0, %c0] : tensor<2x4xi8> -> !pto.tile<64x2xui4, valid=2x2>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from pto_dialect.attributes import PadValue, PadValueAttr, TileType
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind
from pto_dialect.ops import PTOOp, type_name

TL = FaultKind.TILE_LEGALITY


def element_types_compatible(tensor_elt: Attribute, tile_elt: Attribute) -> bool:
    """Same element type, or a signless ``iN`` tensor with an ``siN``/``uiN`` tile."""
    if tensor_elt == tile_elt:
        return True
    return (
        isinstance(tensor_elt, IntegerType)
        and isinstance(tile_elt, IntegerType)
        and tensor_elt.signedness.data is Signedness.SIGNLESS
        and tensor_elt.width == tile_elt.width
    )


def is_packed_gm(tensor_elt: Attribute, tile_t: Attribute) -> bool:
    """A packed X2 tile moved to or from a signless ``i8`` byte tensor (packed 4-bit GM)."""
    return (
        isinstance(tile_t, TileType)
        and tile_t.dtype.packed_x2
        and isinstance(tensor_elt, IntegerType)
        and tensor_elt.width.data == 8
        and tensor_elt.signedness.data is Signedness.SIGNLESS
    )


def gm_valid_shape(tile_t: TileType, packed: bool) -> tuple[int, int]:
    """The GM rectangle of one PE's valid region in tensor elements: ``ValidRow x ValidCol``,
    or ``ValidRow x ceil(ValidCol / 2)`` bytes for packed 4-bit GM."""
    vr, vc = tile_t.valid_shape
    return (vr, (vc + 1) // 2) if packed else (vr, vc)


def dense_row_stride_bytes(cols: int, t: TileDataType) -> int:
    """``TileDenseRowStrideBytes`` (asl/tile/model/memory/stride.asl): the byte row stride
    of ``cols`` densely stored elements; the 4-bit types pack two per byte (``ceil(cols/2)``)."""
    if t.packed_x2:
        return (cols + 1) // 2
    return cols * t.info.carrier_bits // 8


def gm_pitch_bytes(tensor_t: TensorType, tile_t: TileType) -> int:
    """The byte row pitch of a GM tensor as TLOAD/TSTORE of ``tile_t`` see it: a packed
    4-bit GM tensor's column count; else its row of elements densely stored."""
    cols = tensor_t.get_shape()[1]
    return cols if is_packed_gm(tensor_t.element_type, tile_t) else dense_row_stride_bytes(
        cols, tile_t.dtype)  # fmt: skip


def gm_row_span(rows: int, row_stride: int) -> int:
    """Tensor rows a rectangle of ``rows`` rows at ``row_stride`` spans."""
    return (rows - 1) * row_stride + 1 if rows else 0


def constant_index(value: SSAValue) -> int | None:
    """The value of ``value`` when an ``arith.constant`` of an integer defines it."""
    owner = value.owner
    if getattr(owner, "name", None) != "arith.constant":
        return None
    attr = getattr(owner, "value", None)
    data = getattr(attr, "value", None)
    return data.data if isinstance(getattr(data, "data", None), int) else None


class TileMoveOp(PTOOp):
    """Common parts of the data-movement ops: 2-D offsets and a per-PE stride."""

    TENSOR_ROLE: ClassVar[str]
    SYNTAX_VALUES: ClassVar[tuple[str, ...]]
    """The operands written before the offsets, in order."""

    @property
    def gm_and_tile_types(self) -> tuple[Attribute, Attribute]:
        """(the GM tensor's type, the tile's type)."""
        if isinstance(self, TLoadOp):
            return self.source.type, self.result.type
        assert isinstance(self, TStoreOp)
        return self.dest.type, self.tile.type

    @property
    def row_step(self) -> int:
        """The ``row_stride`` property (tensor rows between tile rows; 1 when absent)."""
        attr = self.properties.get("row_stride")
        return 1 if attr is None else attr.value.data  # type: ignore[union-attr]

    @property
    def packed(self) -> bool:
        """The GM tensor holds packed 4-bit bytes (see the module docstring)."""
        gm, tile = self.gm_and_tile_types
        return isinstance(gm, TensorType) and is_packed_gm(gm.element_type, tile)

    def _verify_move(self, tensor_t: Attribute, tile_t: Attribute, offsets: Sequence[SSAValue]):
        # The operand definitions already hold a TensorType, a TileType and index offsets.
        assert isinstance(tensor_t, TensorType) and isinstance(tile_t, TileType)
        if tensor_t.get_num_dims() != 2:
            raise self.fault(TL, f"{self.TENSOR_ROLE} must be a 2-D ranked tensor, got {type_name(tensor_t)}", "docs/dialect.md")
        if len(offsets) != 2:
            raise self.fault(TL, "takes exactly two index offsets", "docs/dialect.md")
        packed = is_packed_gm(tensor_t.element_type, tile_t)
        if not packed and not element_types_compatible(tensor_t.element_type, tile_t.element_type):
            hint = " (a packed 4-bit tile also moves to or from an i8 byte tensor)" if (
                tile_t.dtype.packed_x2) else ""  # fmt: skip
            raise self.fault(
                TL,
                f"element types differ: {self.TENSOR_ROLE} {type_name(tensor_t.element_type)} vs tile "
                f"{type_name(tile_t.element_type)}{hint}",
                "docs/dialect.md",
            )
        # A CUBE tile outside location mat (TileCubeDescriptorLegal, AVS
        # BLOCK-TSTORE-CUBE-DESCRIPTOR-004) is refused by the tile type itself.
        stride = self.pe_stride.get_values()
        if len(stride) != 2 or any(s < 0 for s in stride):
            raise self.fault(TL, "pe_stride holds two non-negative integers", "docs/dialect.md")
        if self.row_step < 0:
            raise self.fault(TL, f"row_stride {self.row_step} is negative (tensor rows between "
                             "tile rows: 0 or more)", "docs/dialect.md")  # fmt: skip
        shape = tensor_t.get_shape()
        vr, vc = gm_valid_shape(tile_t, packed)
        vr = gm_row_span(vr, self.row_step)
        npe = tile_t.pe_mask.count("1")
        for d, (ext, v, s) in enumerate(zip(shape, (vr, vc), stride)):
            if ext >= 0 and v + (npe - 1) * s > ext:
                raise self.fault(
                    TL,
                    f"dimension {d}: {npe} PE slice(s) of {v} with stride {s} exceed the "
                    f"{self.TENSOR_ROLE}'s extent {ext}",
                    "docs/dialect.md",
                )

        self._verify_constant_offsets(shape, (vr, vc), stride, npe, offsets)

    def _verify_constant_offsets(self, shape, valid, stride, npe, offsets) -> None:
        """Static bounds: constant offsets place every PE slice inside the tensor."""
        for d, (ext, v, s, o) in enumerate(zip(shape, valid, stride, offsets)):
            start = constant_index(o)
            if start is None:
                continue
            end = start + (npe - 1) * s + v
            if start < 0 or (ext >= 0 and end > ext):
                raise self.fault(
                    TL,
                    f"offset {d} = {start}: the PE slice(s) [{start}, {end}) lie outside the "
                    f"{self.TENSOR_ROLE}'s extent {ext}",
                    "docs/dialect.md",
                )

    # -- syntax: ``%v[, %w][%i, %j] [{pe_stride = [a, b], row_stride = n, pad = p}] : T -> R``
    # (``SYNTAX_VALUES`` are the operands before the offsets; ``T`` is the first one's type,
    # ``R`` the result's, which is also the type of the later ones: tstore's dest)
    def print(self, printer: Printer) -> None:
        values = [getattr(self, r) for r in self.SYNTAX_VALUES]
        printer.print_string(" ")
        printer.print_list(values, printer.print_operand)
        printer.print_string("[")
        printer.print_list(self.offsets, printer.print_operand)  # type: ignore[attr-defined]
        printer.print_string("]")
        stride = self.pe_stride.get_values()  # type: ignore[attr-defined]
        items = []
        if any(stride):
            items.append(f"pe_stride = [{stride[0]}, {stride[1]}]")
        if self.row_step != 1:
            items.append(f"row_stride = {self.row_step}")
        pad = self.properties.get("pad")
        if isinstance(pad, PadValueAttr) and pad.data is not PadValue.NULL:
            items.append(f"pad = {pad.data.value}")
        if items:
            printer.print_string(" {" + ", ".join(items) + "}")
        printer.print_string(" : ")
        printer.print_attribute(values[0].type)
        printer.print_string(" -> ")
        printer.print_attribute(self.results[0].type)

    @classmethod
    def parse(cls, parser: Parser) -> TileMoveOp:
        names = [parser.parse_unresolved_operand()]
        for _ in cls.SYNTAX_VALUES[1:]:
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        offs = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        has_pad = "pad" in cls.get_irdl_definition().properties
        props: dict[str, Attribute] = {"pe_stride": DenseArrayBase.from_list(i64, [0, 0])}
        if has_pad:
            props["pad"] = PadValueAttr(PadValue.NULL)

        def one():
            pos = parser.pos
            kw = parser.parse_identifier()
            parser.parse_punctuation("=")
            if kw == "pe_stride":
                stride = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
                )
                props["pe_stride"] = DenseArrayBase.from_list(i64, stride)
            elif kw == "pad" and has_pad:
                props["pad"] = PadValueAttr(parser.parse_str_enum(PadValue))
            elif kw == "pad":
                parser.raise_error(f"{cls.name} has no pad property", pos, parser.pos)
            elif kw == "row_stride":
                props.update(cls._row_prop(parser.parse_integer(allow_boolean=False)))
            else:
                parser.raise_error(f"unknown property '{kw}' (pe_stride, row_stride, pad)", pos)

        if parser.parse_optional_punctuation("{") is not None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, one)
            parser.parse_punctuation("}")
        parser.parse_punctuation(":")
        first = parser.parse_type()
        parser.parse_punctuation("->")
        result = parser.parse_type()
        types = [first] + [result] * (len(names) - 1)
        values = [parser.resolve_operand(n, t) for n, t in zip(names, types)]
        index = IndexType()
        return cls.build(
            operands=[*values, [parser.resolve_operand(o, index) for o in offs]],
            result_types=[result],
            properties=props,
        )

    @staticmethod
    def _row_prop(row_stride: int) -> dict[str, Attribute]:
        """The optional ``row_stride`` property: stored only when it is not 1."""
        return {} if row_stride == 1 else {"row_stride": IntegerAttr(row_stride, i64)}


@irdl_op_definition
class TLoadOp(TileMoveOp):
    """``pto.tload`` — move a tensor slice into a tile (one slice per PE), with padding.

    Example::

        %t = pto.tload %src[%c0, %c64] {pe_stride = [0, 16], pad = zero}
            : tensor<1x4096xf32> -> !pto.tile<1x32xf32, valid=1x16>

    See the module docstring for the exact semantics.
    """

    name = "pto.tload"
    TENSOR_ROLE: ClassVar[str] = "source"
    SYNTAX_VALUES: ClassVar[tuple[str, ...]] = ("source",)

    source = operand_def(TensorType)
    offsets = var_operand_def(IndexType)
    result = result_def(TileType)
    pe_stride = prop_def(DenseArrayBase.constr(i64))
    row_stride = opt_prop_def(IntegerAttr)
    pad = prop_def(PadValueAttr, PadValueAttr(PadValue.NULL))

    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        offsets: Sequence[SSAValue],
        result_type: TileType,
        *,
        pe_stride: Sequence[int] = (0, 0),
        pad: PadValue = PadValue.NULL,
        row_stride: int = 1,
    ):
        super().__init__(
            operands=[source, list(offsets)],
            result_types=[result_type],
            properties={
                "pe_stride": DenseArrayBase.from_list(i64, list(pe_stride)),
                "pad": PadValueAttr(pad),
                **self._row_prop(row_stride),
            },
        )

    def verify_(self) -> None:
        self._verify_move(self.source.type, self.result.type, self.offsets)


@irdl_op_definition
class TStoreOp(TileMoveOp):
    """``pto.tstore`` — write each selected PE's valid rectangle into a copy of a tensor.

    Example::

        %r = pto.tstore %t, %dst[%c0, %c64] {pe_stride = [0, 16]}
            : !pto.tile<1x32xf32, valid=1x16> -> tensor<1x4096xf32>
    """

    name = "pto.tstore"
    TENSOR_ROLE: ClassVar[str] = "destination"
    SYNTAX_VALUES: ClassVar[tuple[str, ...]] = ("tile", "dest")

    tile = operand_def(TileType)
    dest = operand_def(TensorType)
    offsets = var_operand_def(IndexType)
    result = result_def(TensorType)
    pe_stride = prop_def(DenseArrayBase.constr(i64))
    row_stride = opt_prop_def(IntegerAttr)

    traits = traits_def(Pure())

    def __init__(
        self,
        tile: SSAValue,
        dest: SSAValue,
        offsets: Sequence[SSAValue],
        *,
        pe_stride: Sequence[int] = (0, 0),
        row_stride: int = 1,
    ):
        super().__init__(
            operands=[tile, dest, list(offsets)],
            result_types=[dest.type],
            properties={"pe_stride": DenseArrayBase.from_list(i64, list(pe_stride)),
                        **self._row_prop(row_stride)},  # fmt: skip
        )

    def verify_(self) -> None:
        if self.result.type != self.dest.type:
            raise self.fault(TL, "result type must be the destination tensor's type", "docs/dialect.md")
        self._verify_move(self.dest.type, self.tile.type, self.offsets)


DATA_MOVEMENT_OPS = [TLoadOp, TStoreOp]
