"""Tile-local TEPL operations beyond the binary family: reductions, expansions, transpose.

Three family bases on one common base (families are tables, not copies):

* :class:`ReduceTileOp` — TROW/TCOL SUM MAX MIN PROD ARGMAX ARGMIN (TEPL mode 2;
  ``asl/tile/model/execution/reduction.asl``, ``legality/reduction-and-expansion.asl``).
* :class:`ExpandTileOp` — TROWEXPAND*/TCOLEXPAND*: COPY ADD SUB MUL DIV MAX MIN EXPDIF
  (TEPL mode 2; ``asl/tile/model/execution/expansion.asl``).
* :class:`TTransOp` — TTRANS (TEPL 3/14; ``asl/tile/model/execution/rearrangement.asl``).
* :class:`TConcatOp` — TCONCAT (TEPL 3/0; ``rearrangement.asl``).
* :class:`PartialTileOp` — TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN (TEPL 3/17-20;
  ``asl/tile/model/execution/complex.asl`` ``ExecuteTilePartial``).
* :class:`GeneratorTileOp` (its own base: no tile source, two i64 B.IOR parameters) — TCI,
  TTRI (TEPL 3/6, 3/7; ``asl/tile/model/execution/generation.asl``).

A member is a row: its ``MNEMONIC`` (its selector is its ISA catalog row), operand ``SOURCES``
(roles in B.IOT stream order), its type set and the family parameters (``REDUCTION`` /
``OPERATION`` and ``AXIS``). Kernels are rows of ``interpreter.kernels.LOCAL_ROWS``; the
block former, decoded dispatch and interpreter are driven by :data:`LOCAL_OPS`.

The common base :class:`TeplTileOp` (syntax, shared checks) is in
:mod:`pto_dialect.tile_local_base`; the indexed rearrangements and TFILLPAD are rows of
:mod:`pto_dialect.tile_rearrange`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure

from pto_dialect.attributes import MaskAttr, TileType
from pto_dialect.datatypes import VEC_ARITH_TYPES, TileDataType
from pto_dialect.geometry import Layout, Storage, partial_coverage_error
from pto_dialect.isa.commands import TEPL_BY_NAME, BlockFamily
from pto_dialect.ops import PTOOp, type_name
from pto_dialect.syntax import FunctionType
from pto_dialect.tile_local_base import (
    ROW_MAJOR_REF,
    TL,
    T,
    TeplTileOp,
    define_op_class,
    define_row,
    shape_text,
)
from pto_dialect.tile_rearrange import REARRANGE_FAMILIES, REARRANGE_OPS

ARG_REDUCE_TYPES = frozenset({T.S32, T.U32, T.FP32, T.S16, T.U16, T.FP16, T.BF16, T.S8, T.U8})
"""ASL ``TileArgReductionSourceDataTypeSupported`` (= ``TileA9DataTypeSupported``,
``asl/tile/model/legality/dtype-layout.asl``): source types of TROW/TCOL ARGMAX/ARGMIN."""
ARG_INDEX_TYPES = frozenset({T.S32, T.U32})
"""Index destination types of the arg reductions."""
EXPDIF_PAIRS = frozenset(
    {(T.FP16, T.FP16), (T.BF16, T.BF16), (T.FP32, T.FP32), (T.FP16, T.FP32), (T.BF16, T.FP32)}
)
"""(SrcDataType, DstDataType) of TROWEXPANDEXPDIF / TCOLEXPANDEXPDIF
(``TileExpandExpdifTypePairLegal``)."""
TRANS_TYPES = frozenset(t for t in TileDataType if t is not T.HIF4X2)
"""``TileCarrierOrMove24BaselineDataTypeSupported`` (every type but HiF4X2)."""



# ======================================================================================
# Reductions
# ======================================================================================


class ReduceTileOp(TeplTileOp):
    """Family base of the row / column reductions (TEPL mode 2, ``ExecuteTileReduction``).

    Semantics (``asl/tile/model/execution/reduction.asl``), row axis (column axis swaps
    rows and columns)::

        for r in 0 .. src.valid_rows-1:
            SUM / PROD:   acc = 0 / 1;  for c in 0 .. VC-1:  acc = TADD / TMUL(acc, src[r,c])
            MAX / MIN:    acc = src[r,0]; for c in 1 .. VC-1: acc = TMAX / TMIN(acc, src[r,c])
            ARGMAX / MIN: as MAX / MIN; idx = c whenever the step's result equals src[r,c]
                          and differs from acc (bit patterns): ties keep the lowest index
            d[r,0] = acc (or idx)           # typed, no widening, no reassociation
        elements of d outside its valid rectangle <- pad (D9)

    Legality (``TileOperandsLegal_ExecuteTileReduction``): source type in
    TileVecArithmeticDataTypeSupported (arg reductions: TileArgReductionSourceDataTypeSupported),
    destination type = source type (arg reductions: S32 or U32); both row-major Local; row
    axis: destination Col = 1, valid VR x 1 with VR = source valid rows; column axis:
    destination Col = source Col, valid 1 x VC.
    """

    REDUCTION: ClassVar[str]
    """``sum``, ``prod``, ``max``, ``min``, ``argmax`` or ``argmin``."""
    AXIS: ClassVar[str]
    """``row`` (reduce each row) or ``col`` (reduce each column)."""

    @classmethod
    def is_arg(cls) -> bool:
        return cls.REDUCTION in ("argmax", "argmin")

    def verify_family(self) -> None:
        (s,) = self.source_types()
        d = self.result.type
        assert isinstance(d, TileType)
        if self.is_arg():
            if d.dtype not in ARG_INDEX_TYPES:
                raise self.fault(
                    TL, f"result: index element type {type_name(d.element_type)} must be si32 or ui32",
                    self.refs(),
                )  # fmt: skip
        else:
            self.expect("result", "element type", type_name(d.element_type),
                        type_name(s.element_type), "the source's type")  # fmt: skip
        vr, vc = s.valid_shape
        if self.AXIS == "row":
            self.expect("result", "physical Col", d.shape[1], 1, "one column per row")
            self.expect("result", "valid shape", shape_text(d.valid_shape), shape_text((vr, 1)),
                        "source valid rows x 1")  # fmt: skip
        else:
            self.expect("result", "physical Col", d.shape[1], s.shape[1], "the source's Col")
            self.expect("result", "valid shape", shape_text(d.valid_shape), shape_text((1, vc)),
                        "1 x source valid columns")  # fmt: skip


def _reduce(mnemonic: str, reduction: str, axis: str) -> type[ReduceTileOp]:
    """One reduction row: a small subclass of :class:`ReduceTileOp`."""
    group = "row-reduction" if axis == "row" else "column-reduction"
    arg = reduction.startswith("arg")
    verb = {"sum": "sum", "prod": "product", "max": "maximum", "min": "minimum",
            "argmax": "index of the first maximum", "argmin": "index of the first minimum"}[reduction]  # fmt: skip
    rtype = "!pto.tile<32x1xui32, valid=4x1>" if arg else "!pto.tile<32x1xf32, valid=4x1>"
    if axis == "col":
        rtype = "!pto.tile<2x16xui32, valid=1x5>" if arg else "!pto.tile<2x16xf32, valid=1x5>"
    doc = (
        f"``pto.{mnemonic.lower()}`` — the {verb} of each valid {axis} "
        f"(TEPL 2/{TEPL_BY_NAME[mnemonic].function}).\n\n"
        f"A row of :class:`ReduceTileOp` (semantics and legality there). Example::\n\n"
        f"    %d = pto.{mnemonic.lower()} %s {{pad = #pto.pad<zero>}}\n"
        f"        : (!pto.tile<8x16xf32, valid=4x5>) -> {rtype}\n\n"
        f"Block: ``BSTART.SFU {mnemonic}, DT; [B.DATR PadValue]; B.DIM LB0=ValidCol; "
        f"[LB1=ValidRow]; [LB2=Col]; B.IOT src, mask, last, ->dst<TSize>; BSTOP``.\n"
        f"Spec: ``asl/tile/reduce-and-expand/{group}/{mnemonic}.asl``."
    )
    body = {
        "name": f"pto.{mnemonic.lower()}",
        "__doc__": doc,
        "__module__": __name__,
        "__qualname__": f"{mnemonic.title().replace('_', '')}Op",
        "MNEMONIC": mnemonic,
        "REDUCTION": reduction,
        "AXIS": axis,
        "TYPES": ARG_REDUCE_TYPES if arg else VEC_ARITH_TYPES,
        "TYPES_REF": "TileArgReductionSourceDataTypeSupported" if arg else "TileVecArithmeticDataTypeSupported",
        "SPEC": f"asl/tile/reduce-and-expand/{group}/{mnemonic}.asl",
    }
    return define_op_class(body, ReduceTileOp)


REDUCE_OPS: list[type[ReduceTileOp]] = [
    _reduce(m, r, a)
    for m, r, a in (
        ("TROWSUM", "sum", "row"),
        ("TROWMAX", "max", "row"),
        ("TROWMIN", "min", "row"),
        ("TROWPROD", "prod", "row"),
        ("TROWARGMAX", "argmax", "row"),
        ("TROWARGMIN", "argmin", "row"),
        ("TCOLSUM", "sum", "col"),
        ("TCOLMAX", "max", "col"),
        ("TCOLMIN", "min", "col"),
        ("TCOLPROD", "prod", "col"),
        ("TCOLARGMAX", "argmax", "col"),
        ("TCOLARGMIN", "argmin", "col"),
    )
]
"""The twelve reductions (catalog selectors 0x040-0x043, 0x04C-0x04D, 0x050-0x053,
0x05C-0x05D)."""


# ======================================================================================
# Expansions
# ======================================================================================


class ExpandTileOp(TeplTileOp):
    """Family base of the row / column expansions (TEPL mode 2, ``ExecuteTileExpand``).

    Semantics (``asl/tile/model/execution/expansion.asl``), row axis (column axis: the
    broadcast is one row, ``b[0,c]``)::

        for (r, c) in the destination's valid rectangle:
            COPY:    d[r,c] = b[r,0]                          (bit copy)
            op:      d[r,c] = T<op>(src[r,c], b[r,0])         (ADD SUB MUL DIV MAX MIN: the
                                                               typed TEPL binary operation)
            EXPDIF:  d[r,c] = exp(src[r,c] - b[r,0])          (FP16/BF16 -> FP32 pairs widen
                                                               both exactly, then FP32 SUB, EXP)
        integer DIV: a zero anywhere in the broadcast's valid rectangle is Fault_TileLegality
        elements outside the valid rectangle <- pad (D9)

    Legality (``TileOperandsLegal_ExecuteTileExpand``): every tile row-major Local; COPY: one
    source (the broadcast), result type = its type; the others: ``src`` and result identical
    (shape, valid shape, type; EXPDIF: logical shape, and the (src, dst) type pair in
    :data:`EXPDIF_PAIRS`), the broadcast of the source type; row axis: broadcast Col = 1 and
    valid VR x 1; column axis: broadcast Col = the result's Col and valid 1 x VC.
    """

    OPERATION: ClassVar[str]
    """``copy``, ``add``, ``sub``, ``mul``, ``div``, ``max``, ``min`` or ``expdif``."""
    AXIS: ClassVar[str]

    LB_OF_RESULT: ClassVar[bool] = True

    def verify_family(self) -> None:
        d = self.result.type
        b = self.source("bcast").type
        assert isinstance(d, TileType) and isinstance(b, TileType)
        if self.OPERATION == "expdif":
            s = self.source("src").type
            assert isinstance(s, TileType)
            if (s.dtype, d.dtype) not in EXPDIF_PAIRS:
                pairs = ", ".join(f"({a.name},{z.name})" for a, z in sorted(EXPDIF_PAIRS))
                raise self.fault(
                    TL,
                    f"result: type pair ({s.dtype.name},{d.dtype.name}) is not legal (allowed: {pairs})",
                    self.refs("TileExpandExpdifTypePairLegal"),
                )
            self.expect("bcast", "element type", type_name(b.element_type),
                        type_name(s.element_type), "the source's type")  # fmt: skip
            for what, get in (("physical shape", lambda t: shape_text(t.shape)),
                              ("valid shape", lambda t: shape_text(t.valid_shape))):  # fmt: skip
                self.expect("result", what, get(d), get(s), "the source's")
        else:
            if self.OPERATION != "copy":
                s = self.source("src").type
                assert isinstance(s, TileType)
                for what, get in (
                    ("element type", lambda t: type_name(t.element_type)),
                    ("physical shape", lambda t: shape_text(t.shape)),
                    ("valid shape", lambda t: shape_text(t.valid_shape)),
                    ("capacity", lambda t: t.capacity),
                ):
                    self.expect("result", what, get(d), get(s), "src and result match exactly")
            self.expect("bcast", "element type", type_name(b.element_type),
                        type_name(d.element_type), "the result's type")  # fmt: skip
        vr, vc = d.valid_shape
        if self.AXIS == "row":
            self.expect("bcast", "physical Col", b.shape[1], 1, "a one-column broadcast")
            self.expect("bcast", "valid shape", shape_text(b.valid_shape), shape_text((vr, 1)),
                        "result valid rows x 1")  # fmt: skip
        else:
            self.expect("bcast", "physical Col", b.shape[1], d.shape[1], "the result's Col")
            self.expect("bcast", "valid shape", shape_text(b.valid_shape), shape_text((1, vc)),
                        "1 x result valid columns")  # fmt: skip


def _expand(axis: str, operation: str) -> type[ExpandTileOp]:
    base = "TROWEXPAND" if axis == "row" else "TCOLEXPAND"
    mnemonic = base + ("" if operation == "copy" else operation.upper())
    group = "row-expansion" if axis == "row" else "column-expansion"
    copy = operation == "copy"
    bshape = "!pto.tile<32x1xf32, valid=4x1>" if axis == "row" else "!pto.tile<2x16xf32, valid=1x5>"
    sem = (
        "d[r,c] = b[r,0] (bit copy)" if copy and axis == "row"
        else "d[r,c] = b[0,c] (bit copy)" if copy
        else f"d[r,c] = {operation}(src[r,c], b[{'r,0' if axis == 'row' else '0,c'}])"
    )  # fmt: skip
    doc = (
        f"``pto.{mnemonic.lower()}`` — {sem} (TEPL 2/{TEPL_BY_NAME[mnemonic].function}).\n\n"
        f"A row of :class:`ExpandTileOp` (semantics and legality there). Example::\n\n"
        + (
            f"    %d = pto.{mnemonic.lower()} %b : ({bshape}) -> !pto.tile<8x16xf32, valid=4x5>\n\n"
            if copy
            else f"    %d = pto.{mnemonic.lower()} %s, %b\n"
            f"        : (!pto.tile<8x16xf32, valid=4x5>, {bshape}) -> !pto.tile<8x16xf32, valid=4x5>\n\n"
        )
        + f"Block: ``BSTART.SFU {mnemonic}, DT; [B.DATR {'DataType, ' if operation == 'expdif' else ''}"
        f"PadValue]; B.DIM LB0=ValidCol; [LB1=ValidRow]; [LB2=Col]; B.IOT "
        f"{'' if copy else 'SrcTile, '}BroadcastTile, mask, last, ->dst<TSize>; BSTOP``.\n"
        f"Spec: ``asl/tile/reduce-and-expand/{group}/{mnemonic}.asl``."
    )
    body = {
        "name": f"pto.{mnemonic.lower()}",
        "__doc__": doc,
        "__module__": __name__,
        "__qualname__": f"{mnemonic.title()}Op",
        "MNEMONIC": mnemonic,
        "OPERATION": operation,
        "AXIS": axis,
        "SOURCES": ("bcast",) if copy else ("src", "bcast"),
        "TYPES": frozenset({T.FP16, T.BF16, T.FP32}) if operation == "expdif" else VEC_ARITH_TYPES,
        "TYPES_REF": "TileExpandExpdifTypePairLegal" if operation == "expdif" else "TileVecArithmeticDataTypeSupported",
        "SPEC": f"asl/tile/reduce-and-expand/{group}/{mnemonic}.asl",
    }
    return define_op_class(body, ExpandTileOp)


EXPAND_OPERATIONS = ("copy", "add", "sub", "mul", "div", "max", "min", "expdif")
EXPAND_OPS: list[type[ExpandTileOp]] = [
    _expand(axis, operation) for axis in ("row", "col") for operation in EXPAND_OPERATIONS
]
"""The sixteen expansions (catalog selectors 0x044-0x04B and 0x054-0x05B)."""


# ======================================================================================
# Transpose
# ======================================================================================


@irdl_op_definition
class TTransOp(TeplTileOp):
    """``pto.ttrans`` — ``d[c, r] = src[r, c]`` over the source's valid rectangle (TEPL 3/14).

    Semantics (``asl/tile/model/execution/rearrangement.asl`` ``TTRANS``)::

        for (r, c) in src's valid rectangle: d[c, r] = src[r, c]     (bit copy)
        elements of d outside its valid rectangle: Null padding (undefined; no PadValue)

    Legality (``TileOperandsLegal_TTRANS``): the same element type on both sides, any type
    but HiF4X2; d's valid shape is src's transposed; both Local, row-major (this model;
    the layout conversions of B.DATR Layout are not modelled); one PE mask.

    Example::

        %d = pto.ttrans %s : (!pto.tile<8x16xf32, valid=3x5>) -> !pto.tile<16x8xf32, valid=5x3>

    Block: ``BSTART.SFU TTRANS, DT; B.DIM LB0=ValidCol; [LB1=ValidRow]; [LB2=Col];
    B.IOT src, mask, last, ->dst<TSize>; BSTOP`` (LBs describe the source).
    Spec: ``asl/tile/layout-and-rearrangement/layout/TTRANS.asl``.
    """

    name = "pto.ttrans"
    MNEMONIC: ClassVar[str] = "TTRANS"
    TYPES: ClassVar[frozenset[TileDataType]] = TRANS_TYPES
    TYPES_REF: ClassVar[str] = "TileCarrierOrMove24BaselineDataTypeSupported"
    SPEC: ClassVar[str] = "asl/tile/layout-and-rearrangement/layout/TTRANS.asl"
    HAS_PAD: ClassVar[bool] = False

    def verify_family(self) -> None:
        (s,) = self.source_types()
        d = self.result.type
        assert isinstance(d, TileType)
        self.expect("result", "element type", type_name(d.element_type),
                    type_name(s.element_type), "the source's type")  # fmt: skip
        vr, vc = s.valid_shape
        self.expect("result", "valid shape", shape_text(d.valid_shape), shape_text((vc, vr)),
                    "the source's valid shape transposed")  # fmt: skip


@irdl_op_definition
class TConcatOp(TeplTileOp):
    """``pto.tconcat`` — ``d = [left | right]`` along columns (TEPL 3/0).

    Semantics (``asl/tile/model/execution/rearrangement.asl`` ``TCONCAT``)::

        for r < VR:  d[r, c] = left[r, c]                       for c < left.VC
                     d[r, c] = right[r, c - left.VC]            for c >= left.VC  (bit copies)
        elements of d outside its valid rectangle: Null padding (undefined; no PadValue)

    Legality (``TileOperandsLegal_TCONCAT``): one element type (any but HiF4X2), equal valid
    rows on both sources and the result, result valid columns = left's + right's; Local,
    row-major (this model; B.DATR Layout conversions are not modelled), one PE mask.

    Example::

        %d = pto.tconcat %l, %r : (!pto.tile<64x2xui8, valid=2x2>,
            !pto.tile<128x1xui8, valid=2x1>) -> !pto.tile<32x4xui8, valid=2x3>

    Block: ``BSTART.SFU TCONCAT, DT; B.DIM LB0=ValidCol; [LB1=ValidRow]; [LB2=Col]; B.IOT
    left, right, mask, last, ->dst<TSize>; BSTOP`` (assumption: the LBs describe the
    destination; the catalog says only ``B.DIM LB0; B.DIM (LB1/LB2 for 2D)``).
    Spec: ``asl/tile/layout-and-rearrangement/layout/TCONCAT.asl``.
    """

    name = "pto.tconcat"
    MNEMONIC: ClassVar[str] = "TCONCAT"
    SOURCES: ClassVar[tuple[str, ...]] = ("left", "right")
    TYPES: ClassVar[frozenset[TileDataType]] = TRANS_TYPES
    TYPES_REF: ClassVar[str] = "TileCarrierOrMove24BaselineDataTypeSupported"
    SPEC: ClassVar[str] = "asl/tile/layout-and-rearrangement/layout/TCONCAT.asl"
    HAS_PAD: ClassVar[bool] = False

    LB_OF_RESULT: ClassVar[bool] = True

    def verify_family(self) -> None:
        left, right, d = self.same_element_type()
        for role, t in (("right", right), ("result", d)):
            self.expect(role, "valid rows", t.valid_shape[0], left.valid_shape[0],
                        "the left source's")  # fmt: skip
        self.expect("result", "valid columns", d.valid_shape[1],
                    left.valid_shape[1] + right.valid_shape[1], "left's plus right's")  # fmt: skip


# ======================================================================================
# Partial (union) operations
# ======================================================================================

PARTIAL_TYPES = frozenset({T.FP32, T.FP16, T.BF16, T.S32, T.S16, T.S8, T.U32, T.U16, T.U8})
"""ASL ``TilePartialDataTypeSupported``."""


class PartialTileOp(TeplTileOp):
    """Family base of TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN (TEPL mode 3,
    ``ExecuteTilePartial`` in ``asl/tile/model/execution/complex.asl``).

    Semantics: both source rectangles are anchored at the origin; over the destination's valid
    rectangle::

        covered by both:     d[r,c] = T<op>(left[r,c], right[r,c])   (typed binary step)
        covered by one only: d[r,c] = that source's element (bit copy)
        outside the valid rectangle: Null padding (undefined; no PadValue)

    Legality (``TileOperandsLegal_ExecuteTilePartial``, ``TilePartialCoverageLegal``): one
    type in ``TilePartialDataTypeSupported`` (FP32 FP16 BF16 S32 S16 S8 U32 U16 U8) on all
    three tiles, all row-major; each source's valid shape fits in the destination's, and
    every destination coordinate is covered (one source covers the whole valid rectangle).
    """

    OPERATION: ClassVar[str]
    SOURCES: ClassVar[tuple[str, ...]] = ("left", "right")
    TYPES: ClassVar[frozenset[TileDataType]] = PARTIAL_TYPES
    TYPES_REF: ClassVar[str] = "TilePartialDataTypeSupported"
    HAS_PAD: ClassVar[bool] = False

    LB_OF_RESULT: ClassVar[bool] = True

    def verify_family(self) -> None:
        left, right, d = self.same_element_type()
        why = partial_coverage_error(left.valid_shape, right.valid_shape, d.valid_shape)
        if why is not None:
            raise self.fault(TL, why, self.refs("TilePartialCoverageLegal"))


def _partial(operation: str) -> type[PartialTileOp]:
    mnemonic = f"TPART{operation.upper()}"
    doc = (
        f"``pto.{mnemonic.lower()}`` — union {operation}: T{operation.upper()} where both "
        f"sources cover a coordinate, a bit copy where one does "
        f"(TEPL 3/{TEPL_BY_NAME[mnemonic].function}).\n\n"
        "A row of :class:`PartialTileOp` (semantics and legality there). Example::\n\n"
        f"    %d = pto.{mnemonic.lower()} %l, %r : (!pto.tile<8x16xsi16, valid=4x5>,\n"
        "        !pto.tile<8x16xsi16, valid=2x3>) -> !pto.tile<8x16xsi16, valid=4x5>\n\n"
        f"Block: ``BSTART.SFU {mnemonic}, DT; B.DIM LB0=ValidCol; [LB1=ValidRow]; [LB2=Col]; "
        "B.IOT left, right, mask, last, ->dst<TSize>; BSTOP`` (LBs describe the destination).\n"
        f"Spec: ``asl/tile/irregular-and-complex/union/{mnemonic}.asl``."
    )
    return define_row(PartialTileOp, __name__, mnemonic, doc, OPERATION=operation,
                       SPEC=f"asl/tile/irregular-and-complex/union/{mnemonic}.asl")  # fmt: skip


PARTIAL_OPS: list[type[PartialTileOp]] = [
    _partial("add"), _partial("mul"), _partial("max"), _partial("min")
]  # fmt: skip
"""TPARTADD, TPARTMUL, TPARTMAX, TPARTMIN (selectors 0x071-0x074)."""


LOCAL_OPS: list[type[TeplTileOp]] = [
    *REDUCE_OPS, *EXPAND_OPS, TTransOp, TConcatOp, *PARTIAL_OPS, *REARRANGE_OPS
]  # fmt: skip
"""Every tile-local TEPL op (this module's and :mod:`pto_dialect.tile_rearrange`'s): dialect
registration and the per-concern tables."""

LOCAL_FAMILIES: list[tuple[str, list[type[TeplTileOp]]]] = [
    ("reduction", list(REDUCE_OPS)),
    ("expansion", list(EXPAND_OPS)),
    ("rearrangement", [TTransOp, TConcatOp]),
    ("partial (union)", list(PARTIAL_OPS)),
    *REARRANGE_FAMILIES,
]
"""(family, op classes) of this module in documentation order, for the op-table registry
(``pto_dialect.families.TILE_OP_FAMILIES``): every class has ``name``, ``MNEMONIC``,
``MODE``/``FUNCTION`` (from its catalog row), ``TYPES``, ``SPEC`` and a docstring whose first line is its semantics;
its decoded dispatch is ``pto_dialect.families.op_of_selector``."""


# ======================================================================================
# Generators (no tile source; parameters through B.IOR)
# ======================================================================================


class GeneratorTileOp(PTOOp):
    """Family base of TCI and TTRI (TEPL 3/6, 3/7; ``asl/tile/model/execution/generation.asl``).

    No tile source: the destination is generated from two scalar parameters that the block
    reads through ``B.IOR [RegSrc0, RegSrc1]`` (``PARAMS``). Without operands the block has no
    B.IOR and the parameters take their defaults (0, 0). Parameter values are data: a flag
    other than 0 / 1 (or a TTRI diagonal outside -65535..65535) is Fault_TileLegality at run
    time, before any effect (D16). Padding is always Null.

    Syntax::

        %d = pto.<op> [%p0, %p1] [{mask = #pto.mask<1111>}] : (i64, i64) -> !pto.tile<...>
    """

    BLOCK_FAMILY: ClassVar[BlockFamily | None] = BlockFamily.TEPL
    MNEMONIC: ClassVar[str]
    PARAMS: ClassVar[tuple[str, str]]
    TYPES: ClassVar[frozenset[TileDataType]]
    TYPES_REF: ClassVar[str]
    SPEC: ClassVar[str]
    SOURCES: ClassVar[tuple[str, ...]] = ()

    params = var_operand_def(IntegerType)
    result = result_def(TileType)
    mask = prop_def(MaskAttr, MaskAttr("1111"))

    traits = traits_def(Pure())

    PROPERTY_DEFAULTS: ClassVar[dict[str, Attribute]] = {"mask": MaskAttr("1111")}

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (FunctionType,)
    assembly_format = "$params attr-dict `:` custom<FunctionType>(type(operands), type(results))"

    def __init__(self, params: Sequence[SSAValue], result_type: Attribute, *, mask: str = "1111"):
        super().__init__(
            operands=[list(params)], result_types=[result_type],
            properties={"mask": MaskAttr(mask)},
        )  # fmt: skip

    @property
    def data_type(self) -> TileDataType:
        return self.result.type.dtype  # type: ignore[union-attr]

    def lb_geometry(self) -> TileType:
        return self.result.type  # type: ignore[return-value]

    def verify_(self) -> None:
        refs = self.SPEC
        if len(self.params) not in (0, 2):
            raise self.fault(TL, f"operands: {self.name} takes no operand or two i64 "
                             f"parameters ({', '.join(self.PARAMS)}), got {len(self.params)}", refs)  # fmt: skip
        for role, v in zip(self.PARAMS, self.params):
            if not (isinstance(v.type, IntegerType) and v.type.width.data == 64):
                raise self.fault(TL, f"{role} must be i64 (a GPR read by B.IOR), got "
                                 f"{type_name(v.type)}", refs)  # fmt: skip
        if self.mask.is_zero:
            return
        d = self.result.type
        assert isinstance(d, TileType), "the result definition holds a tile"
        if d.dtype not in self.TYPES:
            allowed = ", ".join(sorted(t.name for t in self.TYPES))
            raise self.fault(TL, f"result: element type {type_name(d.element_type)} is not "
                             f"supported (allowed: {allowed})", f"{self.TYPES_REF}, {refs}")  # fmt: skip
        if d.layout_kind is not Layout.ROW_MAJOR:
            raise self.fault(TL, f"result: layout {d.layout_kind.value} must be row_major",
                             f"{ROW_MAJOR_REF}, {refs}")  # fmt: skip
        if d.storage_kind is not Storage.LOCAL:
            raise self.fault(TL, "result: operands are Local tiles, got shared", refs)
        if d.pe_mask != self.mask.data:
            raise self.fault(TL, f"result: held by PEs {d.pe_mask} but the op's mask is "
                             f"{self.mask.data}; all bindings share one mask", "PTO-SPEC 2, D13")  # fmt: skip
        if self.MNEMONIC == "TCI" and d.valid_shape[0] != 1:
            raise self.fault(TL, f"result: valid rows {d.valid_shape[0]} must be 1 (TCI "
                             "generates one row)", refs)  # fmt: skip


@irdl_op_definition
class TCIOp(GeneratorTileOp):
    """``pto.tci`` — d[0, k] = start + k (ascending) or start - k (descending), wrapping at
    the element width (TEPL 3/6).

    Parameters (``B.IOR RegSrc0, RegSrc1``): ``start`` (raw; bits above the element width are
    ignored) and ``direction`` (exactly 0 ascending or 1 descending). Types S32 S16 U32 U16
    (``TileTCIDataTypeSupported``); one valid row. Example::

        %d = pto.tci %start, %dir : (i64, i64) -> !pto.tile<64x1xui16, valid=1x1>

    Block: ``BSTART.SFU TCI, DT; B.DIM LB0=ValidCol; [LB2=Col]; [B.IOR start, direction];
    B.IOT mask, last, ->dst<TSize>; BSTOP``.
    Spec: ``asl/tile/irregular-and-complex/initialization/TCI.asl``.
    """

    name = "pto.tci"
    MNEMONIC: ClassVar[str] = "TCI"
    PARAMS: ClassVar[tuple[str, str]] = ("start", "direction")
    TYPES: ClassVar[frozenset[TileDataType]] = frozenset({T.S32, T.S16, T.U32, T.U16})
    TYPES_REF: ClassVar[str] = "TileTCIDataTypeSupported"
    SPEC: ClassVar[str] = "asl/tile/irregular-and-complex/initialization/TCI.asl"


@irdl_op_definition
class TTriOp(GeneratorTileOp):
    """``pto.ttri`` — a triangle of typed ones: d[r, c] = 1 when c <= r + diagonal (lower) or
    c >= r + diagonal (upper), else 0 (TEPL 3/7).

    Parameters (``B.IOR RegSrc0, RegSrc1``): ``diagonal`` (signed, -65535..65535) and
    ``orientation`` (exactly 0 lower or 1 upper). Types FP32 FP16 S32 S16 U32 U16
    (``TileTTRIDataTypeSupported``; FP ones are 1.0). Example::

        %d = pto.ttri %diag, %upper : (i64, i64) -> !pto.tile<8x16xf16, valid=4x4>

    Block: ``BSTART.SFU TTRI, DT; B.DIM LB0=ValidCol; [LB1=ValidRow]; [LB2=Col]; [B.IOR
    diagonal, orientation]; B.IOT mask, last, ->dst<TSize>; BSTOP``.
    Spec: ``asl/tile/irregular-and-complex/initialization/TTRI.asl``.
    """

    name = "pto.ttri"
    MNEMONIC: ClassVar[str] = "TTRI"
    PARAMS: ClassVar[tuple[str, str]] = ("diagonal", "orientation")
    TYPES: ClassVar[frozenset[TileDataType]] = frozenset({T.FP32, T.FP16, T.S32, T.S16, T.U32, T.U16})
    TYPES_REF: ClassVar[str] = "TileTTRIDataTypeSupported"
    SPEC: ClassVar[str] = "asl/tile/irregular-and-complex/initialization/TTRI.asl"


GENERATOR_OPS: list[type[GeneratorTileOp]] = [TCIOp, TTriOp]
LOCAL_FAMILIES.append(("generator", list(GENERATOR_OPS)))
