"""Types and attributes of the ``pto`` dialect.

* ``!pto.tile<...>`` — the tile type (PTO-SPEC 2, D14); syntax::

      !pto.tile<ROWSxCOLSxELT [, valid=VRxVC] [, LAYOUT] [, LOCATION] [, shared]
                [, size=CAP] [, pe=MASK]>

  Defaults (omitted when printing): valid = physical, ``row_major``, ``any``, local storage,
  the canonical capacity (exact for linear layouts, minimal for CUBE layouts) and ``pe=1111``
  (the PEs that hold a payload, D13). Example: ``!pto.tile<1x64xf16, cube_m16, mat>``.
* ``!pto.hf32``, ``!pto.hif8``, ``!pto.e1m2x2``, ``!pto.hif4x2`` — the four TileDataTypes that
  MLIR has no builtin type for (PTO-SPEC 1).
* ``#pto.rmode<rne>``, ``#pto.pad<zero>``, ``#pto.mask<1111>``, ``#pto.fpatr<...>``,
  ``#pto.target<a5>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatTF32Type,
    IntAttr,
    IntegerType,
    Signedness,
    StringAttr,
)
from xdsl.ir import Attribute, Data, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from pto_dialect.datatypes import TileDataType
from pto_dialect.geometry import (
    Layout,
    Location,
    Storage,
    default_size,
    format_size,
    geometry_errors,
    parse_size,
)
from pto_dialect.isa.commands import PE_MODE_MASKS
from pto_dialect.postprocess import FPATR_FIELD_WIDTHS, Fpatr
from pto_dialect.targets import TargetProfile

# --------------------------------------------------------------------------------------
# The four element types MLIR lacks
# --------------------------------------------------------------------------------------


@irdl_attr_definition
class HF32Type(ParametrizedAttribute, TypeAttribute):
    """HF32: a 32-bit carrier whose low 12 bits are 0 (TileDataType 3, PTO-SPEC 1)."""

    name = "pto.hf32"


@irdl_attr_definition
class HiF8Type(ParametrizedAttribute, TypeAttribute):
    """HiF8: Huawei 8-bit float (TileDataType 6, PTO-SPEC 1)."""

    name = "pto.hif8"


@irdl_attr_definition
class E1M2X2Type(ParametrizedAttribute, TypeAttribute):
    """E1M2X2: 4-bit float, two per byte; value (exp ? 4+m : m) * 2^-2 (TileDataType 12)."""

    name = "pto.e1m2x2"


@irdl_attr_definition
class HiF4X2Type(ParametrizedAttribute, TypeAttribute):
    """HiF4X2: Huawei 4-bit float, two per byte (TileDataType 14, PTO-SPEC 1)."""

    name = "pto.hif4x2"


def _element_types() -> dict[TileDataType, Attribute]:
    T = TileDataType
    return {
        T.FP64: Float64Type(),
        T.FP32: Float32Type(),
        T.TF32: FloatTF32Type(),
        T.HF32: HF32Type(),
        T.FP16: Float16Type(),
        T.BF16: BFloat16Type(),
        T.HIF8: HiF8Type(),
        T.E4M3: Float8E4M3FNType(),
        T.E5M2: Float8E5M2Type(),
        T.E3M2: Float6E3M2FNType(),
        T.E2M3: Float6E2M3FNType(),
        T.E2M1X2: Float4E2M1FNType(),
        T.E1M2X2: E1M2X2Type(),
        T.E8M0: Float8E8M0FNUType(),
        T.HIF4X2: HiF4X2Type(),
        T.S64: IntegerType(64, Signedness.SIGNED),
        T.S32: IntegerType(32, Signedness.SIGNED),
        T.S16: IntegerType(16, Signedness.SIGNED),
        T.S8: IntegerType(8, Signedness.SIGNED),
        T.S4X2: IntegerType(4, Signedness.SIGNED),
        T.U64: IntegerType(64, Signedness.UNSIGNED),
        T.U32: IntegerType(32, Signedness.UNSIGNED),
        T.U16: IntegerType(16, Signedness.UNSIGNED),
        T.U8: IntegerType(8, Signedness.UNSIGNED),
        T.U4X2: IntegerType(4, Signedness.UNSIGNED),
    }


ELEMENT_TYPES: dict[TileDataType, Attribute] = _element_types()
_TILE_DTYPE_OF: dict[Attribute, TileDataType] = {v: k for k, v in ELEMENT_TYPES.items()}


def element_type(dtype: TileDataType) -> Attribute:
    """The IR element type spelling a TileDataType (PTO-SPEC 1)."""
    return ELEMENT_TYPES[dtype]


_SEEN_DTYPE: dict[int, tuple[Attribute, TileDataType | None]] = {}
"""``tile_dtype_of`` by the attribute's identity (hashing an attribute walks its parameters;
the engine asks about the same few type objects thousands of times). Holds the attribute so
its id is not reused; bounded."""


def tile_dtype_of(attr: Attribute) -> TileDataType | None:
    """The TileDataType an IR element type denotes, or None (e.g. signless ``i32``)."""
    hit = _SEEN_DTYPE.get(id(attr))
    if hit is not None and hit[0] is attr:
        return hit[1]
    dt = _TILE_DTYPE_OF.get(attr)
    if len(_SEEN_DTYPE) >= 4096:
        _SEEN_DTYPE.clear()
    _SEEN_DTYPE[id(attr)] = (attr, dt)
    return dt


# --------------------------------------------------------------------------------------
# The tile type
# --------------------------------------------------------------------------------------


def parse_mask_digits(parser: AttrParser) -> str:
    """Parse a 4-digit PE mask such as ``1111`` or ``0011`` keeping leading zeros."""
    tok = parser._current_token
    text = tok.text
    if len(text) != 4 or any(c not in "01" for c in text):
        parser.raise_error("expected a 4-digit PE mask such as 1111 or 0011 (PE0 leftmost)")
    parser._consume_token()
    return text


def parse_size_field(parser: AttrParser) -> int:
    """The value of a ``size=`` field: a byte count with an optional unit (``128B``, ``4KB``,
    ``64KB``), the tile's and the predicate tile's TSize."""
    pos = parser.pos
    n = parser.parse_integer(allow_boolean=False, allow_negative=False)
    unit = parser.parse_optional_identifier()
    size = parse_size(f"{n}{unit or ''}")
    if size is None:
        parser.raise_error("size is written like 128B, 4KB or 64KB", pos, parser.pos)
    return size


def mask_encoding_errors(mask: str) -> list[str]:
    """A PE mask is 4 binary digits (PE0 leftmost) that the 3-bit PEMode can express:
    0000, 1000, 0100, 0010, 0001, 1100, 1110, 1111 (PTO-SPEC 2 PE_MASK, D13)."""
    if len(mask) != 4 or any(c not in "01" for c in mask):
        return [f"PE mask '{mask}' must be 4 binary digits (PTO-SPEC 2, D13)"]
    if mask not in PE_MODE_MASKS:
        return [
            f"PE mask {mask} is not encodable: the 3-bit PEMode expresses only "
            f"{', '.join(PE_MODE_MASKS)} (PTO-SPEC 2, D13)"
        ]
    return []


def pe_mask_errors(pe: str) -> list[str]:
    """The PE-mask rules of a tile type (PTO-SPEC 2, D13): encodable and not 0000."""
    errs = mask_encoding_errors(pe)
    if not errs and pe == "0000":
        return ["a tile is held by at least one PE: pe=0000 (D13)"]
    return errs


def cube_location_errors(layout: Layout, location: Location) -> list[str]:
    """A CUBE layout is legal only in location mat (Local Matrix storage):
    asl/tile/model/legality/descriptor-shape.asl ``TileCubeDescriptorLegal``."""
    if layout.is_cube and location is not Location.MAT:
        return [
            f"{layout.value} tiles live in location mat, got {location.value} "
            "(asl/tile/model/legality/descriptor-shape.asl TileCubeDescriptorLegal)"
        ]
    return []


@irdl_attr_definition
class TileType(ParametrizedAttribute, TypeAttribute):
    """A PTO tile descriptor type (PTO-SPEC 2, D10, D13, D14).

    Parameters: physical ``rows`` x ``cols``, ``element_type`` (a TileDataType spelling),
    ``valid_rows`` x ``valid_cols``, ``layout``, ``location``, ``storage``, capacity
    ``size`` (TSize in bytes, per PE) and ``pe`` (the 4-bit PE mask, PE0 leftmost, of the PEs
    that hold a payload).

    For CUBE layouts the physical shape is the logical matrix extent (M x K, K x N); the
    storage is counted in 128-byte CELLs. For the other layouts rows x cols is the allocated
    array and must fill ``size`` exactly.
    """

    name = "pto.tile"

    rows: IntAttr
    cols: IntAttr
    element_type: Attribute
    valid_rows: IntAttr
    valid_cols: IntAttr
    layout: StringAttr
    location: StringAttr
    storage: StringAttr
    size: IntAttr
    pe: StringAttr

    def __init__(
        self,
        shape: Sequence[int],
        element_type: Attribute | TileDataType,
        valid: Sequence[int] | None = None,
        layout: Layout | str = Layout.ROW_MAJOR,
        location: Location | str = Location.ANY,
        storage: Storage | str = Storage.LOCAL,
        size: int | None = None,
        pe: str = "1111",
    ):
        if isinstance(element_type, TileDataType):
            element_type = ELEMENT_TYPES[element_type]
        rows, cols = shape
        vr, vc = valid if valid is not None else (rows, cols)
        layout = Layout(layout)
        if size is None:
            dt = tile_dtype_of(element_type)
            size = (default_size(layout, dt, rows, cols) if dt is not None else None) or 128
        super().__init__(
            IntAttr(rows),
            IntAttr(cols),
            element_type,
            IntAttr(vr),
            IntAttr(vc),
            StringAttr(layout.value),
            StringAttr(Location(location).value),
            StringAttr(Storage(storage).value),
            IntAttr(size),
            StringAttr(pe),
        )

    # -- typed accessors ----------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows.data, self.cols.data)

    @property
    def valid_shape(self) -> tuple[int, int]:
        return (self.valid_rows.data, self.valid_cols.data)

    @property
    def dtype(self) -> TileDataType:
        dt = tile_dtype_of(self.element_type)
        assert dt is not None, "verified tile types have a TileDataType element"
        return dt

    @property
    def layout_kind(self) -> Layout:
        return Layout(self.layout.data)

    @property
    def location_kind(self) -> Location:
        return Location(self.location.data)

    @property
    def storage_kind(self) -> Storage:
        return Storage(self.storage.data)

    @property
    def capacity(self) -> int:
        return self.size.data

    @property
    def pe_mask(self) -> str:
        return self.pe.data

    def with_(self, **changes) -> TileType:
        """A copy with some descriptor fields replaced (shape, valid, layout, ...)."""
        args = dict(
            shape=self.shape,
            element_type=self.element_type,
            valid=self.valid_shape,
            layout=self.layout_kind,
            location=self.location_kind,
            storage=self.storage_kind,
            size=None,
            pe=self.pe_mask,
        )
        args.update(changes)
        return TileType(**args)

    # -- legality -----------------------------------------------------------------
    def legality_errors(self) -> list[str]:
        dt = tile_dtype_of(self.element_type)
        if dt is None:
            return [f"element type {self.element_type} is not a PTO TileDataType (PTO-SPEC 1)"]
        errs = []
        try:
            layout = Layout(self.layout.data)
            Location(self.location.data)
            storage = Storage(self.storage.data)
        except ValueError as e:
            return [str(e)]
        errs += pe_mask_errors(self.pe.data)
        errs += geometry_errors(
            self.rows.data,
            self.cols.data,
            dt,
            self.valid_rows.data,
            self.valid_cols.data,
            layout,
            storage,
            self.size.data,
        )
        errs += cube_location_errors(layout, Location(self.location.data))
        return errs

    def verify(self) -> None:
        errs = self.legality_errors()
        if errs:
            raise VerifyException(f"[TileLegality] invalid !pto.tile: {'; '.join(errs)}")

    # -- syntax -------------------------------------------------------------------
    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        start = parser.pos
        parser.parse_punctuation("<")
        dims = parser.parse_dimension_list()
        if len(dims) != 2:
            parser.raise_error("a tile has exactly two dimensions: ROWSxCOLSxELT")
        if min(dims) < 0:
            parser.raise_error("tile dimensions are static: '?' is not allowed", start, parser.pos)
        parser.parse_shape_delimiter()
        elt = parser.parse_type()
        if tile_dtype_of(elt) is None:
            parser.raise_error(
                f"element type {elt} is not a PTO TileDataType (PTO-SPEC 1); integers must be "
                "signed (si32) or unsigned (ui32)"
            )
        dt = tile_dtype_of(elt)
        valid = tuple(dims)
        layout, location, storage, size, pe = (
            Layout.ROW_MAJOR,
            Location.ANY,
            Storage.LOCAL,
            None,
            "1111",
        )
        seen: set[str] = set()

        def once(key: str):
            if key in seen:
                parser.raise_error(f"'{key}' given twice in !pto.tile")
            seen.add(key)

        while parser.parse_optional_punctuation(",") is not None:
            kw = parser.parse_identifier(context_msg=" in !pto.tile")
            if kw == "valid":
                once("valid")
                parser.parse_punctuation("=")
                v = parser.parse_dimension_list()
                if len(v) != 2:
                    parser.raise_error("valid shape has exactly two dimensions: VRxVC")
                if min(v) < 0:
                    parser.raise_error("valid shape is static: '?' is not allowed")
                valid = tuple(v)
            elif kw == "size":
                once("size")
                parser.parse_punctuation("=")
                size = parse_size_field(parser)
            elif kw == "pe":
                once("pe")
                parser.parse_punctuation("=")
                pe = parse_mask_digits(parser)
            elif kw in Layout._value2member_map_:
                once("layout")
                layout = Layout(kw)
            elif kw in Location._value2member_map_:
                once("location")
                location = Location(kw)
            elif kw in Storage._value2member_map_:
                once("storage")
                storage = Storage(kw)
            else:
                parser.raise_error(
                    f"unknown !pto.tile field '{kw}' (expected valid=, a layout "
                    f"{[x.value for x in Layout]}, a location {[x.value for x in Location]}, "
                    "local/shared, size= or pe=)"
                )
        end = parser._current_token.span.end  # underline up to '>', not past later comments
        parser.parse_punctuation(">")
        assert dt is not None
        if size is None:
            size = default_size(layout, dt, dims[0], dims[1]) or 128
        params = [
            IntAttr(dims[0]),
            IntAttr(dims[1]),
            elt,
            IntAttr(valid[0]),
            IntAttr(valid[1]),
            StringAttr(layout.value),
            StringAttr(location.value),
            StringAttr(storage.value),
            IntAttr(size),
            StringAttr(pe),
        ]
        errs = pe_mask_errors(pe) + geometry_errors(
            dims[0], dims[1], dt, valid[0], valid[1], layout, storage, size
        )
        errs += cube_location_errors(layout, location)
        if errs:
            parser.raise_error(
                f"[TileLegality] invalid !pto.tile: {'; '.join(errs)}", start, end
            )
        return params

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.rows.data}x{self.cols.data}x")
        printer.print_attribute(self.element_type)
        if self.valid_shape != self.shape:
            printer.print_string(f", valid={self.valid_rows.data}x{self.valid_cols.data}")
        if self.layout.data != Layout.ROW_MAJOR.value:
            printer.print_string(f", {self.layout.data}")
        if self.location.data != Location.ANY.value:
            printer.print_string(f", {self.location.data}")
        if self.storage.data != Storage.LOCAL.value:
            printer.print_string(f", {self.storage.data}")
        dt = tile_dtype_of(self.element_type)
        canonical = (
            default_size(Layout(self.layout.data), dt, self.rows.data, self.cols.data)
            if dt is not None and self.layout.data in Layout._value2member_map_
            else None
        )
        if self.size.data != canonical:
            printer.print_string(f", size={format_size(self.size.data)}")
        if self.pe.data != "1111":
            printer.print_string(f", pe={self.pe.data}")
        printer.print_string(">")


# --------------------------------------------------------------------------------------
# Enumerated attributes
# --------------------------------------------------------------------------------------


class RoundingMode(StrEnum):
    """B.DATR RMode codes 0..7 (PTO-SPEC 3.2)."""

    DEFAULT = "default"
    RNE = "rne"
    RTZ = "rtz"
    RTM = "rtm"
    RTP = "rtp"
    RNA = "rna"
    RTO = "rto"
    RHB = "rhb"

    @property
    def code(self) -> int:
        return list(RoundingMode).index(self)


class PadValue(StrEnum):
    """B.DATR PadValue codes 00 Zero, 01 Max, 10 Min, 11 Null (PTO-SPEC 2, D9)."""

    ZERO = "zero"
    MAX = "max"
    MIN = "min"
    NULL = "null"

    @property
    def code(self) -> int:
        return list(PadValue).index(self)


class SimpleEnumAttr(Data):
    """``#pto.<name><value>`` for a StrEnum value."""

    enum_type: ClassVar[type[StrEnum]]

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return parser.parse_str_enum(cls.enum_type)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


@irdl_attr_definition
class RoundingModeAttr(SimpleEnumAttr):
    """``#pto.rmode<rne>``: B.DATR RMode (PTO-SPEC 3.2). ``default`` is code 0."""

    name = "pto.rmode"
    enum_type = RoundingMode


@irdl_attr_definition
class PadValueAttr(SimpleEnumAttr):
    """``#pto.pad<zero>``: B.DATR PadValue (PTO-SPEC 2, D9). Omitted B.DATR means null."""

    name = "pto.pad"
    enum_type = PadValue


@irdl_attr_definition
class TargetAttr(SimpleEnumAttr):
    """``#pto.target<a2a3>``: module-level target profile, attribute ``pto.target`` (D15)."""

    name = "pto.target"
    enum_type = TargetProfile


@irdl_attr_definition
class MaskAttr(Data[str]):
    """``#pto.mask<1111>``: a 4-bit PE mask, PE0 leftmost as in assembly (PTO-SPEC 2, D13)."""

    name = "pto.mask"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        with parser.in_angle_brackets():
            pos = parser.pos
            mask = parse_mask_digits(parser)
            for err in mask_encoding_errors(mask):
                parser.raise_error(err, pos, parser.pos)
            return mask

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    def verify(self) -> None:
        for err in mask_encoding_errors(self.data):
            raise VerifyException(err)

    @property
    def is_zero(self) -> bool:
        return self.data == "0000"


@irdl_attr_definition
class FpatrAttr(Data[tuple[int, ...]]):
    """``#pto.fpatr<...>``: the ten B.FPATR fields (PTO-SPEC 3.3, D11), all default 0.

    Only nonzero fields are written, by name, e.g.
    ``#pto.fpatr<pre_quant_mode = 1, relu_mode = 1>``; ``#pto.fpatr<>`` is the None form.
    Values must fit their bit field; reserved values are rejected by the op verifier
    (IllegalInstruction) so that the diagnostic names the op.
    """

    name = "pto.fpatr"

    @staticmethod
    def from_fields(f: Fpatr | None = None, **fields: int) -> FpatrAttr:
        f = f if f is not None else Fpatr(**fields)
        return FpatrAttr(f.as_tuple())

    @property
    def fields(self) -> Fpatr:
        return Fpatr(*self.data)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[int, ...]:
        names = Fpatr.field_names()
        values = dict.fromkeys(names, 0)

        def one():
            pos = parser.pos
            key = parser.parse_identifier()
            if key not in values:
                parser.raise_error(f"unknown B.FPATR field '{key}'; fields are {list(names)}", pos)
            parser.parse_punctuation("=")
            values[key] = parser.parse_integer(allow_boolean=False, allow_negative=False)
            if values[key] >= 1 << FPATR_FIELD_WIDTHS[key]:
                parser.raise_error(
                    f"B.FPATR {key} = {values[key]} does not fit its "
                    f"{FPATR_FIELD_WIDTHS[key]}-bit field (PTO-SPEC 3.3)",
                    pos,
                    parser.pos,
                )

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, one)
        return tuple(values[n] for n in names)

    def print_parameter(self, printer: Printer) -> None:
        items = [f"{n} = {v}" for n, v in zip(Fpatr.field_names(), self.data) if v]
        printer.print_string(f"<{', '.join(items)}>")

    def verify(self) -> None:
        names = Fpatr.field_names()
        if len(self.data) != len(names):
            raise VerifyException(f"#pto.fpatr has {len(names)} fields (D11)")
        for n, v in zip(names, self.data):
            if not 0 <= v < 1 << FPATR_FIELD_WIDTHS[n]:
                raise VerifyException(
                    f"B.FPATR {n} = {v} does not fit its {FPATR_FIELD_WIDTHS[n]}-bit field"
                )


PTO_TYPES_AND_ATTRS = [
    TileType,
    HF32Type,
    HiF8Type,
    E1M2X2Type,
    HiF4X2Type,
    RoundingModeAttr,
    PadValueAttr,
    TargetAttr,
    MaskAttr,
    FpatrAttr,
]
