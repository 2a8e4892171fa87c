"""Irregular tile-local rearrangements: TGATHER, TSCATTER (row-indexed, within tiles),
TFILLPAD (copy plus scalar fill of the whole physical destination), TEXTRACT and TINSERT
(windows at run-time offsets).

Rows on the tile-local base (:mod:`pto_dialect.tile_local_base`):

* :class:`IndexedTileOp` — TGATHER / TSCATTER (TEPL 3/15, 3/16;
  ``asl/tile/model/execution/indexed-rearrangement.asl``,
  ``asl/tile/model/legality/indexed-rearrangement.asl``): a value source and a row-index
  source; every index element selects a row at its own column.
* :class:`TFillPadOp` — TFILLPAD (TEPL 3/5; ``asl/tile/model/execution/generation.asl``
  ``TFILLPAD``): one tile source and one ``i64`` parameter (the padding word, B.IOR RegSrc0).
* :class:`TMrgSortOp` — TMRGSORT (TEPL 3/13; ``asl/tile/model/execution/sorting.asl``): a
  stable merge of two sorted single-row streams, direction through B.IOR RegSrc0.
* :class:`TSortOp` — TSORT (TEPL 3/12; same unit): a stable sort of each row group of
  ``sort_width`` columns (B.DIM LB0) with a second, U32 index destination.
* :class:`THistogramOp` — THISTOGRAM (TEPL 3/8; ``complex.asl``): per-row prefix
  histogram of a selected byte, ByteId in B.DATR (the ``byte_id`` property).
* :class:`WindowTileOp` — TEXTRACT / TINSERT (TEPL 3/2, 3/3; ``rearrangement.asl``): a
  window at two ``i64`` offsets; tile level only (their block form is contradictory in the
  spec, :data:`WINDOW_BLOCK_UNSOUND`).
* :class:`TImg2ColOp` — TIMG2COL (TEPL 3/4; ``image-to-column.asl``): a window of the
  image-to-column matrix of the feature map its ``fmap`` descriptor property describes; tile
  level only (:data:`IMG2COL_BLOCK_UNSOUND`).

Index values are data: a negative (signed index type), out-of-range or (TSCATTER) duplicate
destination coordinate is Fault_TileLegality at run time, before any effect (D16, D12).
Kernels are rows of ``interpreter.kernels.LOCAL_ROWS``; block former, decoded dispatch and
interpreter are driven by ``pto_dialect.tile_local.LOCAL_OPS`` which includes these rows.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def, result_def

from pto_dialect.attributes import TileType
from pto_dialect.datatypes import SORT_TYPES, VEC_ARITH_TYPES, TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.feature_map import FeatureMapAttr, descriptor_errors
from pto_dialect.geometry import Location
from pto_dialect.isa.commands import TEPL_BY_NAME
from pto_dialect.ops import type_name
from pto_dialect.tile_local_base import TL, ParamTileOp, T, TeplTileOp, define_row, shape_text

INDEX_TYPES = frozenset({T.S16, T.U16, T.S32, T.U32, T.S64, T.U64})
"""Row-index types of TGATHER / TSCATTER (``InstructionContractIndexDataTypeLegal_TGATHER``,
``InstructionContractTypePairLegal_TSCATTER``)."""
INDEXED_VALUE_TYPES = frozenset(t for t in TileDataType if not t.packed_x2)
"""``IndexedTLSUTransferDataTypeLegal``: every non-packed (not four-bit) type, raw carriers
moved bit for bit (TF32/HF32 payloads are not validated)."""


class IndexedTileOp(TeplTileOp):
    """Family base of TGATHER / TSCATTER (TEPL mode 3): ``src`` values, ``index`` row
    selectors of type S16 U16 S32 U32 S64 U64 (read as the unsigned low element-width bits
    after the negative check of the signed types, ``TileIndexedRowValue``).

    Semantics (``asl/tile/model/execution/indexed-rearrangement.asl``)::

        TGATHER:  for (r, c) < d.valid:   d[r, c] = src[index[r, c], c]      (bit copies)
                  outside d's valid rectangle: Null padding
        TSCATTER: every physical d element <- typed zero (defined)
                  for (r, c) < src.valid: d[index[r, c], c] = src[r, c]      (bit copies)

    Static legality (``TileOperandsLegal_TGATHER`` / ``_TSCATTER``): value types of
    ``IndexedTLSUTransferDataTypeLegal``; d and src one element type; TGATHER: d's valid
    shape = index's, nonzero, src valid columns >= d's; TSCATTER: src's valid shape =
    index's, nonzero, d's valid columns = src's, d's valid rows nonzero. Run time (D16):
    an index that is negative or >= the selected tile's valid rows, or (TSCATTER) two
    source elements selecting one destination coordinate, is Fault_TileLegality before any
    effect. Block: ``BSTART.SFU <op>, ValueDataType; [B.DATR Layout]; B.DIM LB0=ValidCol;
    [LB1=ValidRow]; [LB2=Col]; B.IOT ValueSrc, IndexSrc, mask, last, ->dst<TSize>; BSTOP``
    (the LBs describe the destination; catalog composition).
    """

    SOURCES: ClassVar[tuple[str, ...]] = ("src", "index")
    TYPES: ClassVar[frozenset[TileDataType]] = INDEXED_VALUE_TYPES
    TYPES_REF: ClassVar[str] = "IndexedTLSUTransferDataTypeLegal"
    HAS_PAD: ClassVar[bool] = False
    SAME_TYPE_ROLES: ClassVar[tuple[str, ...] | None] = ("result",)
    SCATTER: ClassVar[bool]

    LB_OF_RESULT: ClassVar[bool] = True

    def verify_family(self) -> None:
        s, idx, d = self.same_element_type()
        if idx.dtype not in INDEX_TYPES:
            allowed = ", ".join(sorted(t.name for t in INDEX_TYPES))
            raise self.fault(TL, f"index: element type {type_name(idx.element_type)} is not a "
                             f"row-index type (allowed: {allowed})", self.refs())  # fmt: skip
        spread = s if self.SCATTER else d  # the tile the index tile is congruent with
        role = "src" if self.SCATTER else "result"
        # (valid shapes are positive by the tile type's own rule, PTO-SPEC 2)
        self.expect("index", "valid shape", shape_text(idx.valid_shape), shape_text(spread.valid_shape),
                    f"the {role}'s")  # fmt: skip
        if self.SCATTER:
            self.expect("result", "valid columns", d.valid_shape[1], s.valid_shape[1],
                        "the source's")  # fmt: skip
        elif s.valid_shape[1] < d.valid_shape[1]:
            raise self.fault(TL, f"src: valid columns {s.valid_shape[1]} are fewer than the "
                             f"result's {d.valid_shape[1]}", self.refs())  # fmt: skip


def _indexed(mnemonic: str, scatter: bool) -> type[IndexedTileOp]:
    sem = ("d[index[r,c], c] = src[r,c], the rest typed zero" if scatter
           else "d[r,c] = src[index[r,c], c]")  # fmt: skip
    src, idx, dst = (("!pto.tile<8x8xf16, valid=2x2>", "!pto.tile<8x8xui32, valid=2x2>",
                      "!pto.tile<8x8xf16, valid=4x2>") if scatter
                     else ("!pto.tile<8x8xf16, valid=4x2>", "!pto.tile<8x8xui32, valid=2x2>",
                           "!pto.tile<8x8xf16, valid=2x2>"))  # fmt: skip
    doc = (
        f"``pto.{mnemonic.lower()}`` — {sem} (TEPL 3/{TEPL_BY_NAME[mnemonic].function}).\n\n"
        "A row of :class:`IndexedTileOp` (semantics and legality there). Example::\n\n"
        f"    %d = pto.{mnemonic.lower()} %s, %i : ({src}, {idx}) -> {dst}\n\n"
        f"Spec: ``asl/tile/irregular-and-complex/layout/{mnemonic}.asl``."
    )
    return define_row(IndexedTileOp, __name__, mnemonic, doc, SCATTER=scatter,
                       FIXED_PAD="zero" if scatter else None,
                       SPEC=f"asl/tile/irregular-and-complex/layout/{mnemonic}.asl")  # fmt: skip


INDEXED_OPS: list[type[IndexedTileOp]] = [
    _indexed("TGATHER", False), _indexed("TSCATTER", True)
]  # fmt: skip
"""TGATHER, TSCATTER (selectors 0x06F, 0x070)."""


@irdl_op_definition
class TFillPadOp(ParamTileOp):
    """``pto.tfillpad`` — d = the source's valid rectangle, every other physical element the padding word (TEPL 3/5).

    Semantics (``asl/tile/model/execution/generation.asl`` ``TFILLPAD``)::

        v = TileRawElementValue(padding, type)         # low element-width bits, no conversion
        for (r, c) < d.shape (PHYSICAL): d[r, c] = src[r, c] if (r, c) < src.valid else v
        every physical element of d is defined

    Legality (``TileOperandsLegal_TFILLPAD``): one element type in
    ``TileFillPadDataTypeSupported`` (= TileVecArithmeticDataTypeSupported); d's physical
    and valid shapes at least src's; TF32/HF32 sources validly encoded. The padding word is
    optional: without the ``i64`` operand the block has no B.IOR and the padding is zero.
    Example::

        %d = pto.tfillpad %s, %w : (!pto.tile<32x4xui8, valid=1x2>, i64)
            -> !pto.tile<32x4xui8, valid=2x3>

    Block: ``BSTART.SFU TFILLPAD, DT; B.DIM LB0=ValidCol; [LB1=ValidRow]; [LB2=Col];
    B.IOT src, mask, last, ->dst<TSize>; [B.IOR padding-GPR, zero, zero, ->zero]; BSTOP``
    (ASSUMPTION: the LBs describe the destination with the closed-schema defaults, as for
    TCONCAT; the catalog says only ``B.DIM LB0; B.DIM (LB1/LB2 for 2D)``, and the NDF contract
    ``PTO-TFILLPAD-CONTRACT-001`` names B.IOR.RegSrc0 the padding word).
    Spec: ``asl/tile/layout-and-rearrangement/initialization/TFILLPAD.asl``.
    """

    name = "pto.tfillpad"
    MNEMONIC: ClassVar[str] = "TFILLPAD"
    PARAMS: ClassVar[tuple[str, ...]] = ("padding",)
    TYPES: ClassVar[frozenset[TileDataType]] = VEC_ARITH_TYPES
    TYPES_REF: ClassVar[str] = "TileFillPadDataTypeSupported"
    SPEC: ClassVar[str] = "asl/tile/layout-and-rearrangement/initialization/TFILLPAD.asl"
    HAS_PAD: ClassVar[bool] = False

    LB_OF_RESULT: ClassVar[bool] = True

    def verify_family(self) -> None:
        s, d = self.same_element_type()
        for what, k in (("physical rows", 0), ("physical columns", 1)):
            if d.shape[k] < s.shape[k]:
                raise self.fault(TL, f"result: {what} {d.shape[k]} are fewer than the "
                                 f"source's {s.shape[k]}", self.refs())  # fmt: skip
        for what, k in (("valid rows", 0), ("valid columns", 1)):
            if d.valid_shape[k] < s.valid_shape[k]:
                raise self.fault(TL, f"result: {what} {d.valid_shape[k]} are fewer than the "
                                 f"source's {s.valid_shape[k]}", self.refs())  # fmt: skip


WINDOW_BLOCK_UNSOUND = (
    "the block form is contradictory in the spec: asl/block/model/dispatch/tile-schema.asl "
    "(BundleTileInstructionOperands) binds the row/column offsets natural0/natural1 to B.DIM "
    "LB0/LB1, which asl/block/model/dispatch/destination-shape.asl "
    "(ResolveBundleTileDestinations) also reads as the destination's ValidCol/ValidRow, while "
    "the NDF contract names two optional private-GPR (B.IOR) offsets and B.IOR carries no "
    "natural operand (asl/block/model/dispatch/scalar-schema.asl)"
)
"""Why TEXTRACT / TINSERT have no block former or decoded dispatch (docs/rearrange.md)."""


class WindowTileOp(ParamTileOp):
    """Family base of TEXTRACT / TINSERT (TEPL 3/2, 3/3; ``asl/tile/model/execution/
    rearrangement.asl``): a rectangular window at (``row_offset``, ``column_offset``), two
    ``i64`` parameters (omitted: both zero).

    Semantics::

        TEXTRACT: for (r, c) < d.valid: d[r, c] = src[r + row_offset, c + column_offset]
                  outside d's valid rectangle: Null padding (B.DATR PadValue must be zero)
        TINSERT:  d = old (payload AND definedness, padding included), then
                  for (r, c) < src.valid: d[r + row_offset, c + column_offset] = src[r, c]

    Static legality (``TileOperandsLegal_TEXTRACT`` / ``_TINSERT``): one element type of
    ``TileCarrierOrMove24BaselineDataTypeSupported`` (every type but HiF4X2); TINSERT: d and
    old the same shape and type. Run time (D16, before any effect): each offset in
    0..65535, TEXTRACT: offset + d's valid extent <= src's valid extent; TINSERT: offset +
    src's valid extent <= d's valid extent (Fault_TileLegality). Bit copies.

    Block form: NOT modelled (:data:`WINDOW_BLOCK_UNSOUND`): ``pto-form-blocks`` refuses
    these ops with that reason and no decoded block maps to them.
    """

    PARAMS: ClassVar[tuple[str, ...]] = ("row_offset", "column_offset")
    TYPES: ClassVar[frozenset[TileDataType]] = frozenset(t for t in TileDataType if t is not T.HIF4X2)
    TYPES_REF: ClassVar[str] = "TileCarrierOrMove24BaselineDataTypeSupported"
    HAS_PAD: ClassVar[bool] = False
    BLOCK_UNSOUND: ClassVar[str] = WINDOW_BLOCK_UNSOUND

    def verify_family(self) -> None:
        *_, d = self.same_element_type()
        if self.MNEMONIC == "TINSERT":
            old = self.source("old").type
            assert isinstance(old, TileType)
            for what, get in (("physical shape", lambda t: shape_text(t.shape)),
                              ("valid shape", lambda t: shape_text(t.valid_shape))):  # fmt: skip
                self.expect("result", what, get(d), get(old), "the old destination's")


@irdl_op_definition
class TExtractOp(WindowTileOp):
    """``pto.textract`` — d[r, c] = src[r + row_offset, c + column_offset] (TEPL 3/2).

    A row of :class:`WindowTileOp` (semantics, legality, block form there). Example::

        %d = pto.textract %s, %r, %c : (!pto.tile<32x4xui8, valid=3x4>, i64, i64)
            -> !pto.tile<32x4xui8, valid=2x2>

    Spec: ``asl/tile/layout-and-rearrangement/layout/TEXTRACT.asl``.
    """

    name = "pto.textract"
    MNEMONIC: ClassVar[str] = "TEXTRACT"
    SPEC: ClassVar[str] = "asl/tile/layout-and-rearrangement/layout/TEXTRACT.asl"


@irdl_op_definition
class TInsertOp(WindowTileOp):
    """``pto.tinsert`` — d = old with src written at (row_offset, column_offset) (TEPL 3/3).

    A row of :class:`WindowTileOp` (semantics, legality, block form there). Example::

        %d = pto.tinsert %old, %s, %r, %c : (!pto.tile<32x4xui8, valid=2x3>,
            !pto.tile<128x1xui8, valid=1x1>, i64, i64) -> !pto.tile<32x4xui8, valid=2x3>

    Spec: ``asl/tile/layout-and-rearrangement/layout/TINSERT.asl``.
    """

    name = "pto.tinsert"
    MNEMONIC: ClassVar[str] = "TINSERT"
    SOURCES: ClassVar[tuple[str, ...]] = ("old", "src")
    KEEP_SOURCE: ClassVar[str | None] = "old"
    SPEC: ClassVar[str] = "asl/tile/layout-and-rearrangement/layout/TINSERT.asl"


WINDOW_OPS: list[type[WindowTileOp]] = [TExtractOp, TInsertOp]
"""TEXTRACT, TINSERT (selectors 0x062, 0x063): tile level only (block form unsound)."""

IMG2COL_TYPES = frozenset({T.FP32, T.FP16, T.BF16, T.S32, T.S16, T.S8, T.U32, T.U16, T.U8})
"""``TileImg2ColDataTypeSupported`` (the contract's DataType set; AVS STAGE4-CARRIER-TYPES)."""

IMG2COL_BLOCK_UNSOUND = (
    "a block cannot carry TIMG2COL soundly: its source's feature-map descriptor has no "
    "encoding in any block field and only the harness writes it "
    "(asl/tile/model/state/feature-map-descriptors.asl ConfigureTileFeatureMapDescriptor), while "
    "every allocation, including the one of the block that produced the source, invalidates it "
    "(asl/tile/model/state/allocation.asl), so no instruction stream gives a TIMG2COL block a valid "
    "descriptor; and its posM/posK "
    "slots contradict each other: asl/block/model/dispatch/tile-schema.asl binds natural0/natural1 "
    "to B.DIM LB0/LB1, which the catalog composition reads as the destination's ValidCol/ValidRow, "
    "while it puts posM/posK in B.IOR (D19: no silently incomplete program)"
)
"""Why TIMG2COL has no block former or decoded dispatch (docs/rearrange.md)."""


@irdl_op_definition
class TImg2ColOp(ParamTileOp):
    """``pto.timg2col`` — d = the window at (pos_m, pos_k) of the image-to-column matrix of the feature map the ``fmap`` descriptor describes (TEPL 3/4).

    ``fmap`` (:class:`pto_dialect.feature_map.FeatureMapAttr`) is the source's feature-map
    descriptor, which the ASL keeps as per-tile state (``asl/tile/model/state/
    feature-map-descriptors.asl``); here it is a verified property so the op is a pure
    function of its operands. ``pos_m`` / ``pos_k`` are ``i64`` B.IOR words of which the low
    sixteen bits count (catalog defaults; omitted: both 0).

    Semantics (``asl/tile/model/execution/image-to-column.asl`` ``TIMG2COL``)::

        OH, OW = output height / width (TileImageToColumnOutputHeight / Width)
        for (r, c) < d.valid:
            m = pos_m + r;  n, rem = divmod(m, D*OH*OW); dd, rem = divmod(rem, OH*OW)
                            oy, ox = divmod(rem, OW)
            k = pos_k + c;  g, rem = divmod(k, KH*KW*C0); ky, rem = divmod(rem, KW*C0)
                            kx, c0 = divmod(rem, C0)
            iy = oy*stride_h + ky*dilation_h - pad_top; ix = ox*stride_w + kx*dilation_w - pad_left
            d[r, c] = src.flat[((((n*D + dd)*C1 + g)*H + iy)*W + ix)*C0 + c0]   (physical
                      row-major index) if g*C0 + c0 < logical_channels and (iy, ix) inside H x W
                      else the low element-width bits of fmap.padding
        outside d's valid rectangle: Null padding

    Static legality (``TileOperandsLegal_TIMG2COL``, ``TileFeatureMapDescriptorStructurallyValid``):
    src and d one type of ``TileImg2ColDataTypeSupported``, row-major, location ``mat``, no
    PadValue; a descriptor is present, its fields in range, not transposed, NC1HWC0 with depth
    1, ``logical_channels <= C1*C0``, N*D*C1*H*W*C0 within the source's physical elements, a
    nonzero output, and d's valid shape within the N*D*OH*OW x C1*KH*KW*C0 matrix. Run time
    (D16, before any effect): the window at (pos_m, pos_k) inside that matrix, and every
    source element it actually references defined.

    Example::

        %d = pto.timg2col %s {fmap = #pto.fmap<nc1hwc0, height = 2, width = 2,
            filter_height = 2, filter_width = 2, padding = 99>}
            : (!pto.tile<32x4xf32, valid=1x4, mat>) -> !pto.tile<32x4xf32, valid=1x4, mat>

    Block form: NOT modelled (:data:`IMG2COL_BLOCK_UNSOUND`): ``pto-form-blocks`` refuses the
    op with that reason and no decoded block maps to it.
    Spec: ``asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl``.
    """

    name = "pto.timg2col"
    MNEMONIC: ClassVar[str] = "TIMG2COL"
    PARAMS: ClassVar[tuple[str, ...]] = ("pos_m", "pos_k")
    TYPES: ClassVar[frozenset[TileDataType]] = IMG2COL_TYPES
    TYPES_REF: ClassVar[str] = "TileImg2ColDataTypeSupported"
    SPEC: ClassVar[str] = "asl/tile/layout-and-rearrangement/layout/TIMG2COL.asl"
    HAS_PAD: ClassVar[bool] = False
    LB_OF_RESULT: ClassVar[bool] = True
    BLOCK_UNSOUND: ClassVar[str] = IMG2COL_BLOCK_UNSOUND
    PARTIAL_SOURCES: ClassVar[tuple[str, ...]] = ("src",)

    fmap = opt_prop_def(FeatureMapAttr)

    def referenced(self, role: str) -> tuple[int, int]:
        """None at the origin: the referenced elements depend on the run-time position, so
        the kernel checks them (``TileImageToColumnReferencedSourcesDefined``)."""
        return (0, 0)

    def static_params(self) -> tuple[int, ...]:
        assert self.fmap is not None
        return tuple(self.fmap.data)

    def verify_family(self) -> None:
        s, d = self.same_element_type()
        for role, t in (("src", s), ("result", d)):
            if t.location_kind is not Location.MAT:
                raise self.fault(TL, f"{role}: location {t.location_kind.value} must be mat (a "
                                 "Local Matrix tile)", self.refs("TileOperandsLegal_TIMG2COL"))  # fmt: skip
        if self.fmap is None:
            raise self.fault(TL, "src: no feature-map descriptor (the fmap property; "
                             "TileFeatureMapDescriptorStructurallyValid)",
                             self.refs("asl/tile/model/state/feature-map-descriptors.asl"))  # fmt: skip
        cap = s.capacity * 8 // s.dtype.info.carrier_bits
        fm = self.fmap.fields
        refs = self.refs("asl/tile/model/legality/image-to-column.asl")
        if errs := descriptor_errors(fm, s.shape[0], s.shape[1], cap):
            raise self.fault(TL, f"fmap: {errs[0]}", refs)
        (lr, lc), (vr, vc) = fm.logical_shape(), d.valid_shape
        if vr > lr or vc > lc:  # the window at posM = posK = 0 (run time: at the positions)
            raise self.fault(TL, f"result: valid shape {vr}x{vc} exceeds the {lr}x{lc} "
                             "image-to-column matrix (N*D*outH*outW x C1*filterH*filterW*C0)",
                             refs)  # fmt: skip


def smallest_physical_columns(valid_columns: int) -> int:
    """``SmallestTilePhysicalColumns``: the smallest power of two >= ``valid_columns``."""
    return 1 << max(0, valid_columns - 1).bit_length()


@irdl_op_definition
class TMrgSortOp(ParamTileOp):
    """``pto.tmrgsort`` — stable merge of two sorted one-row streams, equal keys left first (TEPL 3/13).

    Semantics (``asl/tile/model/execution/sorting.asl`` ``TMRGSORT``, order
    ``asl/tile/model/ordering/sorting.asl`` ``TileSortLeftBefore``)::

        key order: numbers by value (descending = 1: reversed), +0 and -0 equal,
                   every NaN after every number (in both directions), NaNs keep their order
        d[0, :] = merge(left[0, :], right[0, :]) taking left while left <= right (stable)
        outside d's valid rectangle: Null padding

    Static legality (``TileOperandsLegal_TMRGSORT``): FP32 or FP16
    (``TileSortDataTypeSupported``) on all three tiles; one valid row each, nonzero source
    columns, d's valid columns = left's + right's; d's physical Col = the smallest power of
    two covering them (the block's destination, ``asl/block/model/dispatch/
    destination-shape.asl`` ``SmallestTilePhysicalColumns``). Run time (D16, before any
    effect): ``descending`` exactly 0 or 1; each source sorted in that direction
    (``TileSortSequenceOrdered``); TF32-style encodings do not apply (FP32/FP16 only).
    A signalling NaN stays a sortable value and records the sticky NV numeric-status flag
    (``interpreter.kernels.status``); the merge itself is exact.

    Example::

        %d = pto.tmrgsort %l, %r, %desc : (!pto.tile<16x2xf32, valid=1x2>,
            !pto.tile<16x2xf32, valid=1x2>, i64) -> !pto.tile<8x4xf32, valid=1x4>

    Block: ``BSTART.SFU TMRGSORT, DT; B.IOT left, right, mask, last, ->dst<TSize>;
    [B.IOR descending-GPR, zero, zero, ->zero]; BSTOP`` (no B.DIM: every LB omitted; catalog
    composition).
    Spec: ``asl/tile/irregular-and-complex/sorting/TMRGSORT.asl``.
    """

    name = "pto.tmrgsort"
    MNEMONIC: ClassVar[str] = "TMRGSORT"
    SOURCES: ClassVar[tuple[str, ...]] = ("left", "right")
    PARAMS: ClassVar[tuple[str, ...]] = ("descending",)
    TYPES: ClassVar[frozenset[TileDataType]] = SORT_TYPES
    TYPES_REF: ClassVar[str] = "TileSortDataTypeSupported"
    SPEC: ClassVar[str] = "asl/tile/irregular-and-complex/sorting/TMRGSORT.asl"
    HAS_PAD: ClassVar[bool] = False
    NO_LBS: ClassVar[bool] = True

    def verify_family(self) -> None:
        left, right, d = self.same_element_type()
        for role, t in (("left", left), ("right", right), ("result", d)):
            self.expect(role, "valid rows", t.valid_shape[0], 1, "one sorted stream")
        # (nonzero valid columns: the tile type's own rule, PTO-SPEC 2)
        n = left.valid_shape[1] + right.valid_shape[1]
        self.expect("result", "valid columns", d.valid_shape[1], n, "left's plus right's")
        self.expect("result", "physical Col", d.shape[1], smallest_physical_columns(n),
                    "the smallest power of two covering them, SmallestTilePhysicalColumns")  # fmt: skip


DEFAULT_SORT_WIDTH = 32
"""TSORT's sort width when B.DIM LB0 is omitted or zero (``InstructionContractDefaultSort
Width_TSORT``)."""


@irdl_op_definition
class TSortOp(ParamTileOp):
    """``pto.tsort`` — stable sort of every row group of ``sort_width`` columns, with the original within-group U32 indices (TEPL 3/12).

    Semantics (``asl/tile/model/execution/sorting.asl`` ``TSORT``, order
    ``asl/tile/model/ordering/sorting.asl`` ``TileSortLeftBefore``)::

        w = sort_width; for each valid row r, each group g of columns [g*w, min((g+1)*w, VC)):
            (d[r, group], i[r, group]) = stable sort of (src[r, c], c - g*w) by the key
        key order: numbers by value (descending = 1: reversed), +0 and -0 equal, every NaN
                   after every number (in both directions), NaNs keep their order
        the last group may be short (it never reads padding)
        outside d's and i's valid rectangles: Null padding

    Static legality (``TileOperandsLegal_TSORT``): src FP32 or FP16
    (``TileSortDataTypeSupported``), d the same type, i U32; all row-major; src's valid
    shape nonzero (every !pto.tile's is); d and i have src's physical AND valid shape (``TileLogicalShapeMatch``);
    ``sort_width`` in 1..64. Run time (D16, before any effect): every valid source element
    defined; ``descending`` exactly 0 or 1. A signalling NaN is an ordinary sortable value;
    NOT modelled: the sticky NV numeric-status flag it sets (numeric status flags are not
    modelled in this project); the sort itself is exact.

    Example::

        %d, %i = pto.tsort %s, %desc {sort_width = 3 : i64} : (!pto.tile<8x4xf32, valid=1x4>,
            i64) -> (!pto.tile<8x4xf32, valid=1x4>, !pto.tile<8x4xui32, valid=1x4>)

    Block: ``BSTART.SFU TSORT, FP32|FP16; [B.DIM LB0 = sort_width] (omitted when 32);
    B.IOT src, mask, ->d<TSize>; B.IOT mask, last, ->i<TSize>; [B.IOR descending-GPR, zero,
    zero, ->zero]; BSTOP`` (catalog composition; no LB1/LB2, B.DATR all zero; the
    destinations take the source's shape, ``asl/block/model/dispatch/destination-shape.asl``).
    Spec: ``asl/tile/irregular-and-complex/sorting/TSORT.asl``.
    """

    name = "pto.tsort"
    MNEMONIC: ClassVar[str] = "TSORT"
    PARAMS: ClassVar[tuple[str, ...]] = ("descending",)
    RESULTS: ClassVar[tuple[str, ...]] = ("result", "indices")
    TYPES: ClassVar[frozenset[TileDataType]] = SORT_TYPES
    TYPES_REF: ClassVar[str] = "TileSortDataTypeSupported"
    SPEC: ClassVar[str] = "asl/tile/irregular-and-complex/sorting/TSORT.asl"
    HAS_PAD: ClassVar[bool] = False
    NO_LBS: ClassVar[bool] = True

    result = result_def(TileType)  # restated: results keep the order values, indices
    indices = result_def(TileType)
    sort_width = prop_def(IntegerAttr[I64], IntegerAttr(DEFAULT_SORT_WIDTH, 64))

    PROPERTY_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        **TeplTileOp.PROPERTY_DEFAULTS, "sort_width": IntegerAttr(DEFAULT_SORT_WIDTH, 64)
    }  # fmt: skip

    @property
    def width(self) -> int:
        return self.sort_width.value.data

    def static_params(self) -> tuple[int, ...]:
        return (self.width,)

    def block_lbs(self) -> list[tuple[int, int]]:
        return [] if self.width == DEFAULT_SORT_WIDTH else [(0, self.width)]

    @classmethod
    def from_block(cls, s) -> dict[str, Attribute]:
        if s.lb_regs[0] is not None:
            raise PTOFault(TL, "TSORT's sort width (LB0) read from a GPR is known only at run "
                           "time; a linked TSORT block takes it as an immediate (not modelled)",
                           op="pto.block")  # fmt: skip
        width = s.lb[0] if s.lb_written[0] and s.lb[0] else DEFAULT_SORT_WIDTH
        return {"sort_width": IntegerAttr(width, 64)}

    def verify_family(self) -> None:
        (s,) = self.source_types()
        d, i = (r.type for r in self.results)
        assert isinstance(d, TileType) and isinstance(i, TileType)
        if not 1 <= self.width <= 64:
            raise self.fault(TL, f"sort_width: {self.width} is outside 1..64", self.refs())
        self.expect("result", "element type", type_name(d.element_type), type_name(s.element_type),
                    "src's type")  # fmt: skip
        self.expect("indices", "element type", type_name(i.element_type), "ui32",
                    "U32 original indices")  # fmt: skip
        for role, t in (("result", d), ("indices", i)):
            for what, get in (("physical shape", lambda t: shape_text(t.shape)),
                              ("valid shape", lambda t: shape_text(t.valid_shape))):  # fmt: skip
                self.expect(role, what, get(t), get(s), "src's, TileLogicalShapeMatch")


HISTOGRAM_FILTER_ROWS = {(T.U16, 0): None, (T.U16, 1): 0, (T.U32, 0): 3, (T.U32, 1): 2,
                         (T.U32, 2): 1, (T.U32, 3): 0}  # fmt: skip
"""(source type, ByteId) -> filter rows read at column 0 (None: one per source row; 0: the
filter is not read), ``TileHistogramInputsLegal``."""


@irdl_op_definition
class THistogramOp(TeplTileOp):
    """``pto.thistogram`` — per source row, the inclusive 256-bin prefix histogram of the selected byte of the values passing the filter (TEPL 3/8).

    Semantics (``asl/tile/model/execution/complex.asl`` ``THISTOGRAM``)::

        b = byte_id; for each source row r:
            U16: b = 0 counts the low byte of values whose high byte = filter[r, 0];
                 b = 1 counts the high byte of every value (the filter is not read)
            U32: b < 3 counts byte b of values whose bytes 3, 2, 1 (down to b + 1) equal
                 filter[0, 0], filter[1, 0], filter[2, 0]; b = 3 counts byte 3, unfiltered
            d[r, k] = number of counted values with byte <= k  (k < 256; U32 counts)
        outside d's valid rectangle: Null padding

    Static legality (``TileOperandsLegal_THISTOGRAM``): source U16 or U32 with ``byte_id`` in
    0..1 (U16) or 0..3 (U32) (``TileHistogramSelectedByteSupported``); filter U8 with at least
    the rows it is read at (one per source row for U16 / ByteId0; 3 - ByteId for U32), and
    one column when read; d U32, valid (source valid rows) x 256, physical Col 256 (the
    block's destination, ``asl/block/model/dispatch/destination-shape.asl``); all row-major.
    Only the filter elements actually read must be defined (``TileHistogramPrefixDefined``).

    Example::

        %d = pto.thistogram %s, %f {byte_id = 1 : i64} : (!pto.tile<16x4xui16, valid=1x4>,
            !pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<1x256xui32, valid=1x256>

    Block: ``BSTART.SFU THISTOGRAM, U16|U32; B.DATR DataType=U32, PadValueOrByteId=byte_id
    (mandatory); B.IOT src, filter, mask, last, ->dst<TSize>; BSTOP`` (no B.DIM, no B.IOR).
    Spec: ``asl/tile/irregular-and-complex/initialization/THISTOGRAM.asl``.
    """

    name = "pto.thistogram"
    MNEMONIC: ClassVar[str] = "THISTOGRAM"
    SOURCES: ClassVar[tuple[str, ...]] = ("src", "filter")
    TYPES: ClassVar[frozenset[TileDataType]] = frozenset({T.U16, T.U32})
    TYPES_REF: ClassVar[str] = "TileHistogramSelectedByteSupported"
    SPEC: ClassVar[str] = "asl/tile/irregular-and-complex/initialization/THISTOGRAM.asl"
    HAS_PAD: ClassVar[bool] = False
    NO_LBS: ClassVar[bool] = True
    PARTIAL_SOURCES: ClassVar[tuple[str, ...]] = ("filter",)

    byte_id = prop_def(IntegerAttr[I64], IntegerAttr(0, 64))

    PROPERTY_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        **TeplTileOp.PROPERTY_DEFAULTS, "byte_id": IntegerAttr(0, 64)
    }  # fmt: skip

    @property
    def selected_byte(self) -> int:
        return self.byte_id.value.data

    def static_params(self) -> tuple[int, ...]:
        return (self.selected_byte,)

    def block_datr(self) -> dict[str, int] | None:
        return {"dtype": T.U32.value, "pad": self.selected_byte}

    @classmethod
    def from_datr(cls, datr) -> dict[str, Attribute]:
        return {"byte_id": IntegerAttr(datr.pad, 64)}

    def filter_rows(self) -> int:
        """Filter rows read at column 0 (0: the filter is not read)."""
        s, _f = self.source_types()
        n = HISTOGRAM_FILTER_ROWS[(s.dtype, self.selected_byte)]
        return s.valid_shape[0] if n is None else n

    def referenced(self, role: str) -> tuple[int, int]:
        n = self.filter_rows()
        return (n, 1 if n else 0)

    def verify_family(self) -> None:
        s, f = self.source_types()
        d = self.result.type
        assert isinstance(d, TileType)
        if (s.dtype, self.selected_byte) not in HISTOGRAM_FILTER_ROWS:
            raise self.fault(TL, f"byte_id: {self.selected_byte} is not a ByteId of "
                             f"{s.dtype.name} (U16: 0..1, U32: 0..3)",
                             self.refs("TileHistogramSelectedByteSupported"))  # fmt: skip
        self.expect("filter", "element type", type_name(f.element_type), "ui8", "a U8 prefix filter")
        self.expect("result", "element type", type_name(d.element_type), "ui32", "U32 counts")
        self.expect("result", "valid shape", shape_text(d.valid_shape), shape_text((s.valid_shape[0], 256)),
                    "source valid rows x 256 bins")  # fmt: skip
        self.expect("result", "physical Col", d.shape[1], 256, "the block's 256-column destination")
        rows, cols = self.referenced("filter")
        if f.valid_shape[0] < rows or f.valid_shape[1] < cols:
            raise self.fault(TL, f"filter: valid shape {shape_text(f.valid_shape)} lacks the "
                             f"{rows} x {cols} elements read at column 0 "
                             "(TileHistogramInputsLegal)", self.refs())  # fmt: skip


REARRANGE_OPS: list[type[TeplTileOp]] = [
    *INDEXED_OPS, TFillPadOp, *WINDOW_OPS, TImg2ColOp, TMrgSortOp, TSortOp, THistogramOp
]  # fmt: skip
"""Every op of this module (joins ``pto_dialect.tile_local.LOCAL_OPS``)."""
REARRANGE_FAMILIES: list[tuple[str, list[type[TeplTileOp]]]] = [
    ("indexed rearrangement", list(INDEXED_OPS)),
    ("fill padding", [TFillPadOp]),
    ("window", list(WINDOW_OPS)),
    ("image to column", [TImg2ColOp]),
    ("sorting", [TMrgSortOp, TSortOp]),
    ("histogram", [THistogramOp]),
]
"""(family, op classes) for the op-table registry, in documentation order."""
