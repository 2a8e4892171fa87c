"""Predicate tiles: ``!pto.pred`` (the ASL's ``TileStorage_Predicate`` descriptor kind).

TCMP / TCMPS write, and TSEL / TSELS read, a *predicate tile*: one bit per logical element,
``ceil(Row*Col/8)`` payload bytes, logical index ``i = row * Col + column`` in bit ``i mod 8``
of byte ``floor(i / 8)`` (``asl/tile/model/definedness/elements.asl``
``TilePredicateLogicalIndex`` / ``TileInfoWithPredicateBit``). It is a separate storage kind,
not a numeric tile: an ordinary tile is not a legal mask and a predicate is not a numeric
source (``TileOperandsLegal_ExecuteTileSelect``, AVS ``TSEL-MASK-001``), so it is a separate
type here and no numeric op's verifier accepts it.

Syntax::

    !pto.pred<ROWSxCOLS[, valid=VRxVC][, size=128B][, pe=1111]>

Legality (``TileDescriptorConfigured`` for ``TileStorage_Predicate``,
``asl/tile/model/legality/descriptor-shape.asl``; ``ConfigurePredicateTileForMask``,
``asl/tile/model/state/allocation.asl``): rows, cols > 0; valid within the physical shape;
capacity a Local TSize (D14); ``ceil(rows*cols/8) <= capacity``
(``PredicateTileStorageBytes``) and ``rows*cols <= capacity`` (the descriptor's DataType is
U8, and ``TileLogicalElementCapacity(capacity, U8)`` bounds ``rows*cols``). The descriptor is
always row-major, location Any, DataType U8 (``ConfigurePredicateTileForMask``). The default
``size`` is the smallest legal one.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from pto_dialect.attributes import parse_mask_digits, parse_size_field, pe_mask_errors
from pto_dialect.datatypes import TileDataType
from pto_dialect.geometry import (
    LOCAL_MAX_CODE,
    Layout,
    Location,
    Storage,
    code_of_size,
    format_size,
    size_of_code,
)


def predicate_bytes(rows: int, cols: int) -> int:
    """``PredicateTileStorageBytes``: packed payload bytes of a rows x cols predicate."""
    return (rows * cols + 7) // 8


def default_predicate_size(rows: int, cols: int) -> int:
    """The smallest Local TSize holding a rows x cols predicate (128 B if none fits)."""
    for code in range(1, LOCAL_MAX_CODE + 1):
        if rows * cols <= size_of_code(code):
            return size_of_code(code)
    return size_of_code(1)


def predicate_errors(rows: int, cols: int, vr: int, vc: int, size: int, pe: str) -> list[str]:
    """Every descriptor rule a predicate tile breaks (empty: legal)."""
    errs = list(pe_mask_errors(pe))
    if rows <= 0 or cols <= 0:
        return errs + [f"physical shape {rows}x{cols} must be positive (TileDescriptorConfigured)"]
    if vr <= 0 or vc <= 0:
        errs.append(f"valid shape {vr}x{vc} must be positive (PTO-SPEC 2)")
    if vr > rows or vc > cols:
        errs.append(f"valid shape {vr}x{vc} exceeds physical shape {rows}x{cols} (PTO-SPEC 2)")
    code = code_of_size(size)
    if code is None or code > LOCAL_MAX_CODE:
        errs.append(f"capacity {size} B is not a local TSize (128 B * 2^(code-1), code "
                    f"1..{LOCAL_MAX_CODE}; PTO-SPEC 2, D14)")  # fmt: skip
        return errs
    if predicate_bytes(rows, cols) > size:
        errs.append(f"{rows}x{cols} predicate bits need {predicate_bytes(rows, cols)} B, more "
                    f"than the capacity {size} B (PredicateTileStorageBytes)")  # fmt: skip
    elif rows * cols > size:
        errs.append(f"{rows}x{cols} = {rows * cols} elements exceed the capacity's U8 element "
                    f"count {size} (TileDescriptorConfigured, TileLogicalElementCapacity)")  # fmt: skip
    return errs


@irdl_attr_definition
class PredicateTileType(ParametrizedAttribute, TypeAttribute):
    """A packed predicate tile descriptor (module docstring): physical ``rows`` x ``cols``,
    valid ``valid_rows`` x ``valid_cols``, capacity ``size`` (TSize bytes per PE) and PE mask
    ``pe``."""

    name = "pto.pred"

    rows: IntAttr
    cols: IntAttr
    valid_rows: IntAttr
    valid_cols: IntAttr
    size: IntAttr
    pe: StringAttr

    def __init__(self, shape, valid=None, size: int | None = None, pe: str = "1111"):
        rows, cols = shape
        vr, vc = valid if valid is not None else (rows, cols)
        if size is None:
            size = default_predicate_size(rows, cols)
        super().__init__(IntAttr(rows), IntAttr(cols), IntAttr(vr), IntAttr(vc), IntAttr(size),
                         StringAttr(pe))  # fmt: skip

    # The accessors the tile machinery reads (same names as TileType's).
    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows.data, self.cols.data)

    @property
    def valid_shape(self) -> tuple[int, int]:
        return (self.valid_rows.data, self.valid_cols.data)

    @property
    def capacity(self) -> int:
        return self.size.data

    @property
    def pe_mask(self) -> str:
        return self.pe.data

    @property
    def dtype(self) -> TileDataType:
        """The descriptor DataType of predicate storage (U8, ``ConfigurePredicateTileForMask``)."""
        return TileDataType.U8

    @property
    def layout_kind(self) -> Layout:
        return Layout.ROW_MAJOR

    @property
    def location_kind(self) -> Location:
        return Location.ANY

    @property
    def storage_kind(self) -> Storage:
        return Storage.LOCAL

    def legality_errors(self) -> list[str]:
        return predicate_errors(*self.shape, *self.valid_shape, self.capacity, self.pe_mask)

    def verify(self) -> None:
        errs = self.legality_errors()
        if errs:
            raise VerifyException(f"[TileLegality] invalid !pto.pred: {'; '.join(errs)}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        start = parser.pos
        parser.parse_punctuation("<")
        dims = parser.parse_dimension_list()
        if len(dims) != 2 or min(dims) < 0:
            parser.raise_error("a predicate tile has two static dimensions: ROWSxCOLS")
        valid, size, pe = tuple(dims), None, "1111"
        seen: set[str] = set()
        while parser.parse_optional_punctuation(",") is not None:
            kw = parser.parse_identifier(context_msg=" in !pto.pred")
            if kw in seen or kw not in ("valid", "size", "pe"):
                parser.raise_error(f"unexpected or repeated !pto.pred field '{kw}' (valid=, "
                                   "size=, pe=)")  # fmt: skip
            seen.add(kw)
            parser.parse_punctuation("=")
            if kw == "valid":
                v = parser.parse_dimension_list()
                if len(v) != 2 or min(v) < 0:
                    parser.raise_error("valid shape is two static dimensions: VRxVC")
                valid = tuple(v)
            elif kw == "size":
                size = parse_size_field(parser)
            else:
                pe = parse_mask_digits(parser)
        end = parser._current_token.span.end
        parser.parse_punctuation(">")
        if size is None:
            size = default_predicate_size(dims[0], dims[1])
        errs = predicate_errors(dims[0], dims[1], valid[0], valid[1], size, pe)
        if errs:
            parser.raise_error(f"[TileLegality] invalid !pto.pred: {'; '.join(errs)}", start, end)
        return [IntAttr(dims[0]), IntAttr(dims[1]), IntAttr(valid[0]), IntAttr(valid[1]),
                IntAttr(size), StringAttr(pe)]  # fmt: skip

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.rows.data}x{self.cols.data}")
        if self.valid_shape != self.shape:
            printer.print_string(f", valid={self.valid_rows.data}x{self.valid_cols.data}")
        if self.size.data != default_predicate_size(*self.shape):
            printer.print_string(f", size={format_size(self.size.data)}")
        if self.pe.data != "1111":
            printer.print_string(f", pe={self.pe.data}")
        printer.print_string(">")
