"""The global-memory TLSU operations: MGATHER, MGATHER_MASK, MGATHER_CAS, MSCATTER,
MSCATTER_MASK, TPREFETCH and GMOV (TLSU Functions 4, 6, 8, 5, 7, 3 and 13; D25).

Global memory at the SSA level is a ranked tensor whose row-major bytes are the GM the program
sees: a byte tensor ``tensor<Nxi8>``, or a table such as ``tensor<VxDxf32>`` (an embedding
table too large for a tile: a gather reads its rows at byte displacements ``row * D * 4 + col *
4``); its byte size bounds the permitted addresses, so an access beyond it is DataPage. The
``base`` is a byte address of type ``index`` (the block's B.IOR RegSrc0). An op that writes GM
returns the updated tensor (value semantics, like ``pto.tstore``). Every op is a small subclass of
:class:`GlobalMemoryOp` and one row per concern table: the kernel
(``interpreter.kernels.indexed``), the encoding (``isa.TLSU_FUNCTIONS``), the block former
(``passes.pto_form_blocks.FORMERS``), the decoded dispatch (``pto_dialect.families.op_of_selector``).

Syntax (one form for all)::

    %d = pto.mgather %gm, %base, %idx {pad = #pto.pad<max>}
        : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>

Static legality (TileLegality, each rule a negative lit test; pto-spec catalog records and
``asl/tile/model/memory/gather-scatter.asl``, ``atomics.asl``): the GM operand is a ranked
tensor of whole-byte elements and the base an ``index``; index tiles have a signed or unsigned integer type
(D25: any width, as the ASL's ``IndexedTLSUIndexDataTypeLegal``); the transfer type is not a
packed 4-bit type (no nibble selector, ``IndexedTLSUTransferDataTypeLegal``); every source has
the destination's (or data tile's) valid shape, is Local and is held by every PE of the op's
mask; masks are ``!pto.pred`` tiles; expected / replacement / data tiles have the transfer
type; MSCATTER* and MGATHER_MASK sources share the data tile's layout; CUBE layouts are refused
(an indexed block has no CUBE conversion). A zero PE mask is a strict no-op, checked first.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerType,
    TensorType,
    TypeAttribute,
    i64,
)
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from pto_dialect.attributes import MaskAttr, PadValue, PadValueAttr, TileType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import Storage
from pto_dialect.isa.commands import PE_MODE_MASKS, BlockFamily
from pto_dialect.ops import PTOOp, type_name
from pto_dialect.predicate import PredicateTileType
from pto_dialect.syntax import OperandListSyntax
from pto_dialect.tile_local_base import shape_text

TL = FaultKind.TILE_LEGALITY
DOCS = "docs/gm-indexed.md"


def is_gm_tensor(t: Attribute) -> bool:
    """A ranked tensor of whole-byte integer or float elements: its row-major bytes are GM."""
    if not isinstance(t, TensorType):
        return False
    e = t.element_type
    bits = e.width.data if isinstance(e, IntegerType) else getattr(e, "bitwidth", 0)
    return isinstance(e, IntegerType | AnyFloat) and bits >= 8 and bits % 8 == 0


def carrier_or_packed_supported(dt) -> bool:
    """``TileCarrierOrPackedBaselineDataTypeSupported`` (asl/tile/model/legality/dtype-layout.asl):
    a carrier of at most 4 bytes, or a packed 4-bit type (GMOV, TPREFETCH; no 64-bit type)."""
    return dt.packed_x2 or dt.info.carrier_bits <= 32


CARRIER_RULE = "TileCarrierOrPackedBaselineDataTypeSupported: at most 32-bit carriers or 4-bit"


class GlobalMemoryOp(OperandListSyntax, PTOOp):
    """Base of the global-memory TLSU operations (module docstring). Subclasses declare their
    operands (in the order printed) and results, and the table constants:

    * ``FUNCTION``: the TLSU function; ``MNEMONIC``: the catalog name; ``SPEC``: the ASL path;
    * ``ROLES``: the tile operands' roles in B.IOT stream order (``index``, ``mask``,
      ``expected``, ``replacement``, ``data``);
    * ``GATHERS``: it produces a destination tile (``result``); ``WRITES_GM``: it returns the
      updated GM tensor (``gm_out``).
    """

    BLOCK_FAMILY: ClassVar[BlockFamily | None] = BlockFamily.TLSU
    MNEMONIC: ClassVar[str]
    SPEC: ClassVar[str]
    ROLES: ClassVar[tuple[str, ...]] = ()
    GATHERS: ClassVar[bool] = False
    WRITES_GM: ClassVar[bool] = False
    PROPERTY_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "pad": PadValueAttr(PadValue.NULL), "mask": MaskAttr("1111")}  # fmt: skip

    @classmethod
    def from_syntax(cls, values, result_types) -> GlobalMemoryOp:
        return cls.build(operands=values, result_types=result_types)

    # -- helpers for the rules ----------------------------------------------------------------
    @property
    def op_mask(self) -> str:
        m = self.properties.get("mask")
        return m.data if isinstance(m, MaskAttr) else "1111"

    def tile_of(self, role: str) -> SSAValue:
        return getattr(self, role)

    def _gm_rules(self) -> None:
        gm, base = self.gm, self.base
        if not is_gm_tensor(gm.type):
            raise self.fault(TL, f"gm must be a ranked tensor of whole-byte elements (its bytes "
                             f"are GM), got {type_name(gm.type)}", DOCS)  # fmt: skip
        if not isinstance(base.type, IndexType):
            raise self.fault(TL, f"base must be an index (the B.IOR base GPR), got "
                             f"{type_name(base.type)}", DOCS)  # fmt: skip
        if self.WRITES_GM and self.gm_out.type != gm.type:
            raise self.fault(TL, "the updated GM result must have the gm operand's type", DOCS)

    def _tile_rules(self, anchor: TileType, anchor_role: str) -> None:
        """Rules of every tile operand against the anchor (destination or data tile)."""
        mask = self.op_mask
        if anchor.dtype.packed_x2:
            raise self.fault(TL, f"{anchor_role}: packed 4-bit transfer type {anchor.dtype.asm} "
                             "has no nibble selector (IndexedTLSUTransferDataTypeLegal)",
                             self.SPEC)  # fmt: skip
        if anchor.layout_kind.is_cube:
            raise self.fault(TL, f"{anchor_role}: an indexed TLSU block has no CUBE layout, got "
                             f"{anchor.layout_kind.value}", self.SPEC)  # fmt: skip
        for role in (anchor_role, *self.ROLES):
            t = self.tile_of(role).type
            want = PredicateTileType if role == "mask" else TileType
            if not isinstance(t, want):
                what = "a !pto.pred predicate tile (TilePredicateValuesLegal)" if (
                    role == "mask") else "a !pto.tile"  # fmt: skip
                raise self.fault(TL, f"{role} must be {what}, got {type_name(t)}", self.SPEC)
            if isinstance(t, TileType) and t.storage_kind is not Storage.LOCAL:
                raise self.fault(TL, f"{role}: the indexed TLSU operations bind Local tiles only "
                                 "(B.IOS is illegal)", self.SPEC)  # fmt: skip
            if any(m == "1" and h == "0" for m, h in zip(mask, t.pe_mask)):
                raise self.fault(TL, f"{role}: held by PEs {t.pe_mask}, not by every PE of the "
                                 f"mask {mask}", "PTO-SPEC 2, D13")  # fmt: skip
            if t.valid_shape != anchor.valid_shape:
                raise self.fault(TL, f"{role}: valid shape {shape_text(t.valid_shape)} must be "
                                 f"{anchor_role}'s {shape_text(anchor.valid_shape)}", self.SPEC)
            if role == "index" and not t.dtype.is_integer:
                raise self.fault(TL, f"index: element type {t.dtype.asm} is not an integer type "
                                 "(IndexedTLSUIndexDataTypeLegal, D25)", self.SPEC)  # fmt: skip
            if role in ("expected", "replacement", "data") and t.dtype != anchor.dtype:
                raise self.fault(TL, f"{role}: element type {t.dtype.asm} must be the transfer "
                                 f"type {anchor.dtype.asm}", self.SPEC)  # fmt: skip
            if (role in ("index", "mask") and self.LAYOUT_MATCH and isinstance(t, TileType)
                    and t.layout_kind is not anchor.layout_kind):  # fmt: skip
                raise self.fault(TL, f"{role}: layout {t.layout_kind.value} must be "
                                 f"{anchor_role}'s {anchor.layout_kind.value}", self.SPEC)

    LAYOUT_MATCH: ClassVar[bool] = False
    """The sources share the anchor's layout (MGATHER_MASK, MSCATTER, MSCATTER_MASK)."""

    def verify_(self) -> None:
        self._gm_rules()
        if self.op_mask == "0000":  # strict no-op with no further checks (D12)
            return
        if self.GATHERS:
            t = self.result.type
            if not isinstance(t, TileType):
                raise self.fault(TL, f"result must be a !pto.tile, got {type_name(t)}", self.SPEC)
            if t.pe_mask != self.op_mask:
                raise self.fault(TL, f"result: held by PEs {t.pe_mask} but the op's mask is "
                                 f"{self.op_mask}", "PTO-SPEC 2, D13")  # fmt: skip
            self._tile_rules(t, "result")
        else:
            t = self.data.type
            if not isinstance(t, TileType):
                raise self.fault(TL, f"data must be a !pto.tile, got {type_name(t)}", self.SPEC)
            self._tile_rules(t, "data")


class GatherOp(GlobalMemoryOp):
    """The gathers: a new destination tile; ``pad`` fills its physical region outside the valid
    rectangle (and MGATHER_MASK's disabled lanes); the mask is the destination's PEs."""

    GATHERS: ClassVar[bool] = True
    pad = prop_def(PadValueAttr, PadValueAttr(PadValue.NULL))

    @property
    def op_mask(self) -> str:
        t = self.result.type
        return t.pe_mask if isinstance(t, TileType) else "1111"


@irdl_op_definition
class MGatherOp(GatherOp):
    """``pto.mgather`` — d[r, c] = GM[base + disp(idx[r, c])] for every valid lane (TLSU Function 4).

    Semantics (``asl/tile/model/memory/gather-scatter.asl`` ``MGATHER``)::

        for each selected PE p, row r, column c (row-major):
            a[p, r, c] = base + sext_or_zext(idx[p, r, c])      # bytes, no scaling, mod 2^64
        probe every a (DataAlignment, then DataPage; first failing lane) before any effect
        d[p, r, c] = the transfer-type element at a[p, r, c] (raw carrier bits)
        the rest of d's physical region = pad

    Example::

        %d = pto.mgather %gm, %base, %idx {pad = #pto.pad<max>}
            : (tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> !pto.tile<64x2xui8, valid=1x2>

    Block: ``BSTART.MGATHER DT; [B.DATR Pad]; LB0 = ValidCol; [LB1 = ValidRow]; [LB2 = Col];
    B.IOT idx, mask, last, ->d<TSize>; B.IOR base; BSTOP``.
    Spec: ``asl/tile/memory-and-data-movement/irregular/MGATHER.asl``.
    """

    name = "pto.mgather"
    MNEMONIC: ClassVar[str] = "MGATHER"
    SPEC: ClassVar[str] = "asl/tile/memory-and-data-movement/irregular/MGATHER.asl"
    ROLES: ClassVar[tuple[str, ...]] = ("index",)
    gm = operand_def()
    base = operand_def()
    index = operand_def()
    result = result_def(TileType)
    traits = traits_def(Pure())


@irdl_op_definition
class MGatherMaskOp(GatherOp):
    """``pto.mgather_mask`` — MGATHER of the lanes whose predicate bit is one; a disabled lane makes no access and holds pad (TLSU Function 6).

    Semantics (``MGATHER_MASK``): as ``pto.mgather`` for ``mask[p, r, c] = 1``; a zero bit
    generates no address, check or event, and the lane holds the pad value (Null: zero).

    Example::

        %d = pto.mgather_mask %gm, %base, %idx, %m : (tensor<4096xi8>, index,
            !pto.tile<8x4xsi32, valid=1x3>, !pto.pred<1x4, valid=1x3>) -> !pto.tile<32x4xui8, valid=1x3>

    Block: ``B.IOT idx, mask, last, ->d<TSize>``; otherwise as MGATHER.
    Spec: ``asl/tile/memory-and-data-movement/irregular/MGATHER_MASK.asl``.
    """

    name = "pto.mgather_mask"
    MNEMONIC: ClassVar[str] = "MGATHER_MASK"
    SPEC: ClassVar[str] = "asl/tile/memory-and-data-movement/irregular/MGATHER_MASK.asl"
    ROLES: ClassVar[tuple[str, ...]] = ("index", "mask")
    LAYOUT_MATCH: ClassVar[bool] = True
    gm = operand_def()
    base = operand_def()
    index = operand_def()
    mask = operand_def()
    result = result_def(TileType)
    traits = traits_def(Pure())


@irdl_op_definition
class MGatherCasOp(GatherOp):
    """``pto.mgather_cas`` — per lane one atomic compare-and-swap: d = old GM value; GM = replacement where old == expected (TLSU Function 8).

    Semantics (``asl/tile/model/memory/atomics.asl`` ``MGATHER_CAS``)::

        probe every lane (read and write) before the first atomic
        for each lane, in row-major order (duplicates serialize; D25):
            old = GM[a]; if old == expected (the element's bytes): GM[a] = replacement
            d[lane] = old
        the rest of d's physical region = pad; gm_out = the updated GM

    Example::

        %d, %gm2 = pto.mgather_cas %gm, %base, %idx, %e, %r : (tensor<4096xi8>, index,
            !pto.tile<8x4xui32, valid=1x2>, !pto.tile<32x4xui8, valid=1x2>,
            !pto.tile<32x4xui8, valid=1x2>) -> (!pto.tile<32x4xui8, valid=1x2>, tensor<4096xi8>)

    Block: ``B.IOT idx, expected, mask; B.IOT replacement, mask, last, ->d<TSize>``.
    Spec: ``asl/tile/memory-and-data-movement/irregular/MGATHER_CAS.asl``.
    """

    name = "pto.mgather_cas"
    MNEMONIC: ClassVar[str] = "MGATHER_CAS"
    SPEC: ClassVar[str] = "asl/tile/memory-and-data-movement/irregular/MGATHER_CAS.asl"
    ROLES: ClassVar[tuple[str, ...]] = ("index", "expected", "replacement")
    WRITES_GM: ClassVar[bool] = True
    gm = operand_def()
    base = operand_def()
    index = operand_def()
    expected = operand_def()
    replacement = operand_def()
    result = result_def(TileType)
    gm_out = result_def(TensorType)


class ScatterOp(GlobalMemoryOp):
    """The scatters: ``data`` to GM at the displaced addresses; returns the updated GM."""

    WRITES_GM: ClassVar[bool] = True
    LAYOUT_MATCH: ClassVar[bool] = True
    mask_prop = opt_prop_def(MaskAttr, prop_name="mask")
    traits = traits_def(Pure())

    @property
    def op_mask(self) -> str:
        m = self.properties.get("mask")
        if isinstance(m, MaskAttr):
            return m.data
        t = self.data.type
        return t.pe_mask if isinstance(t, TileType) else "1111"


@irdl_op_definition
class MScatterOp(ScatterOp):
    """``pto.mscatter`` — GM[base + disp(idx[r, c])] = data[r, c] for every valid lane (TLSU Function 5).

    Semantics (``MSCATTER``): every lane probed (DataAlignment, DataPage) before the first
    store; stores in row-major lane order, PE by PE (a duplicate address keeps the last lane's
    value, D25); the sources persist. ``mask`` (default: the data tile's PEs) selects the PEs.

    Example::

        %gm2 = pto.mscatter %v, %gm, %base, %idx : (!pto.tile<64x2xui8, valid=1x2>,
            tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x2>) -> tensor<4096xi8>

    Block: ``BSTART.MSCATTER DT; LB0..2; B.IOT data, idx, mask, last; B.IOR base; BSTOP``.
    Spec: ``asl/tile/memory-and-data-movement/irregular/MSCATTER.asl``.
    """

    name = "pto.mscatter"
    MNEMONIC: ClassVar[str] = "MSCATTER"
    SPEC: ClassVar[str] = "asl/tile/memory-and-data-movement/irregular/MSCATTER.asl"
    ROLES: ClassVar[tuple[str, ...]] = ("index",)
    data = operand_def()
    gm = operand_def()
    base = operand_def()
    index = operand_def()
    gm_out = result_def(TensorType)


@irdl_op_definition
class MScatterMaskOp(ScatterOp):
    """``pto.mscatter_mask`` — MSCATTER of the lanes whose predicate bit is one (TLSU Function 7).

    Semantics (``MSCATTER_MASK``): a zero bit makes no address, check, store or event.

    Example::

        %gm2 = pto.mscatter_mask %v, %gm, %base, %idx, %m : (!pto.tile<32x4xui8, valid=1x3>,
            tensor<4096xi8>, index, !pto.tile<8x4xsi32, valid=1x3>, !pto.pred<1x4, valid=1x3>)
            -> tensor<4096xi8>

    Block: ``B.IOT data, idx, mask; B.IOT pmask, mask, last``; otherwise as MSCATTER.
    Spec: ``asl/tile/memory-and-data-movement/irregular/MSCATTER_MASK.asl``.
    """

    name = "pto.mscatter_mask"
    MNEMONIC: ClassVar[str] = "MSCATTER_MASK"
    SPEC: ClassVar[str] = "asl/tile/memory-and-data-movement/irregular/MSCATTER_MASK.asl"
    ROLES: ClassVar[tuple[str, ...]] = ("index", "mask")
    data = operand_def()
    gm = operand_def()
    base = operand_def()
    index = operand_def()
    mask = operand_def()
    gm_out = result_def(TensorType)


@irdl_op_definition
class TPrefetchOp(GlobalMemoryOp):
    """``pto.tprefetch`` — probe and request the TLOAD footprint of ``footprint`` at base + r * row_stride elements (TLSU Function 3).

    Semantics (``asl/tile/model/memory/gather-scatter.asl`` ``TPREFETCHCore``)::

        for every PE p of 0..3 (implicit participation 1111), row r < VR, column c < VC:
            a = base + (r * row_stride + c) * element bytes   (4-bit: // 2)
        probe every a of every PE before the first request; no tile or GM byte changes

    ``footprint`` is a tile type giving the element type, ValidRow x ValidCol and Col; the
    row stride is in elements (an ``index`` operand).

    Example::

        pto.tprefetch %gm, %base, %stride {footprint = !pto.tile<64x2xui16, valid=2x2>}
            : (tensor<4096xi8>, index, index) -> ()

    Block: ``BSTART.TPREFETCH DT; LB0 = ValidCol; LB1 = ValidRow; LB2 = Col; B.IOR base,
    row_stride; BSTOP`` (no B.IOT).
    Spec: ``asl/tile/memory-and-data-movement/regular/TPREFETCH.asl``.
    """

    name = "pto.tprefetch"
    MNEMONIC: ClassVar[str] = "TPREFETCH"
    SPEC: ClassVar[str] = "asl/tile/memory-and-data-movement/regular/TPREFETCH.asl"
    gm = operand_def()
    base = operand_def()
    row_stride = operand_def()
    footprint = prop_def(TypeAttribute)

    def verify_(self) -> None:
        self._gm_rules()
        if not isinstance(self.row_stride.type, IndexType):
            raise self.fault(TL, "row_stride must be an index (elements)", DOCS)
        t = self.footprint
        if not isinstance(t, TileType):
            raise self.fault(TL, f"footprint must be a !pto.tile type, got {type_name(t)}",
                             self.SPEC)  # fmt: skip
        if t.layout_kind.is_cube:
            raise self.fault(TL, f"footprint: TPREFETCH takes the TLOAD footprint of a non-CUBE "
                             f"tile, got {t.layout_kind.value}", self.SPEC)  # fmt: skip
        if not carrier_or_packed_supported(t.dtype):
            raise self.fault(TL, f"footprint: element type {t.dtype.asm} is not supported "
                             f"({CARRIER_RULE})", self.SPEC)  # fmt: skip


@irdl_op_definition
class GMovOp(GlobalMemoryOp):
    """``pto.gmov`` — d on PE p = src's fragment of PE peers[p], within a Core4 collective (TLSU Function 13).

    Semantics (``asl/tile/memory-and-data-movement/pe-movement/GMOV.asl``)::

        require src held, defined, by all four PEs (Core4 readiness)
        for each PE p of the mask: d[p] = src[peers[p]] (payload and definedness, bit for bit)
        no memory access; src persists

    Example::

        %d = pto.gmov %s {peers = array<i64: 3, 2, 1, 0>}
            : (!pto.tile<128x1xui8, valid=1x1>) -> !pto.tile<128x1xui8, valid=1x1>

    Block: ``BSTART.GMOV DT; [B.DATR Layout]; B.IOT src, mask, last, ->d<TSize>; B.IOR
    peer_tid; BSTOP`` (each PE's own GPR holds its peer_tid).
    Spec: ``asl/tile/memory-and-data-movement/pe-movement/GMOV.asl``.
    """

    name = "pto.gmov"
    MNEMONIC: ClassVar[str] = "GMOV"
    SPEC: ClassVar[str] = "asl/tile/memory-and-data-movement/pe-movement/GMOV.asl"
    src = operand_def(TileType)
    result = result_def(TileType)
    peers = prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(Pure())

    @property
    def peer_list(self) -> list[int]:
        return [int(v) for v in self.peers.get_values()]

    @property
    def op_mask(self) -> str:
        t = self.result.type
        return t.pe_mask if isinstance(t, TileType) else "1111"

    def verify_(self) -> None:
        s, d = self.src.type, self.result.type
        for role, t in (("src", s), ("result", d)):
            if not isinstance(t, TileType):
                raise self.fault(TL, f"{role} must be a !pto.tile, got {type_name(t)}", self.SPEC)
        assert isinstance(s, TileType) and isinstance(d, TileType)
        peers = self.peer_list
        if len(peers) != 4 or any(not 0 <= p <= 3 for p in peers):
            raise self.fault(TL, f"peers must be four PE numbers 0..3 (each PE's peer_tid), got "
                             f"{peers}", self.SPEC)  # fmt: skip
        if not carrier_or_packed_supported(s.dtype):
            raise self.fault(TL, f"src: element type {s.dtype.asm} is not supported "
                             f"({CARRIER_RULE})", self.SPEC)  # fmt: skip
        if s.pe_mask != "1111":
            raise self.fault(TL, f"src: held by PEs {s.pe_mask}; GMOV needs a source ready on "
                             "all four PEs (BundleGMOVCore4SourceReady)", self.SPEC)  # fmt: skip
        for role, t in (("src", s), ("result", d)):
            if t.storage_kind is not Storage.LOCAL:
                raise self.fault(TL, f"{role}: GMOV moves Local tiles", self.SPEC)
        for what, get in (("element type", lambda t: t.dtype.asm),
                          ("physical shape", lambda t: shape_text(t.shape)),
                          ("valid shape", lambda t: shape_text(t.valid_shape)),
                          ("layout", lambda t: t.layout_kind.value),
                          ("capacity", lambda t: str(t.capacity))):  # fmt: skip
            if get(d) != get(s):
                raise self.fault(TL, f"result: {what} {get(d)} must be src's {get(s)}", self.SPEC)


PEERS_ATTR = "pto.peers"
"""Block attribute of a linked GMOV block: the four peer_tids (its B.IOR GPR's per-PE values)."""
FOOTPRINT_ATTR = "pto.footprint"
"""Block attribute of a linked TPREFETCH block: the footprint tile type."""

GM_OPS: list[type[GlobalMemoryOp]] = [TPrefetchOp, MGatherOp, MScatterOp, MGatherMaskOp,
                                      MScatterMaskOp, MGatherCasOp, GMovOp]  # fmt: skip
"""The global-memory TLSU operations (joins the op registry ``pto_dialect.families``)."""


# ---- linked blocks (pto_dialect.block_ops: the decoded-dispatch row) ----------------------------
def gm_op_of(block, s, cls: type[GlobalMemoryOp]) -> GlobalMemoryOp:
    """The detached ``cls`` op equivalent to a linked global-memory block (``block``: a
    ``pto.block``; ``s``: its :class:`~pto_dialect.isa.BlockSummary`; ``cls``: the op class its
    BSTART selects, ``pto_dialect.block_ops.op_class_of``). Operands are fresh values
    of the block's operand types: MGATHER* ``(gm, base, index[, mask | expected, replacement])``,
    MSCATTER* ``(data, gm, base, index[, mask])``, TPREFETCH ``(gm, base, row_stride)``, GMOV
    ``(src)``. Raises :class:`PTOFault` (TileLegality) when the block's operands do not fit."""
    ins, outs = [v.type for v in block.ins], [r.type for r in block.outs]
    defn = cls.get_irdl_definition()
    if len(ins) != len(defn.operands) or len(outs) != len(defn.results):
        names = ", ".join(n for n, _ in defn.operands)
        raise PTOFault(TL, f"a linked {cls.MNEMONIC} block takes ({names}) and gives "
                       f"{len(defn.results)} result(s); it has {len(ins)} operand(s) and "
                       f"{len(outs)} result(s)", op="pto.block")  # fmt: skip
    props: dict[str, Attribute] = {}
    mask = PE_MODE_MASKS[s.pe_mode] if s.pe_mode is not None else "0000"
    if issubclass(cls, GatherOp):
        props["pad"] = PadValueAttr(list(PadValue)[s.datr.pad])
    elif issubclass(cls, ScatterOp):
        props["mask"] = MaskAttr(mask)
    elif cls is GMovOp:
        peers = block.attributes.get(PEERS_ATTR)
        if not isinstance(peers, DenseArrayBase):
            raise PTOFault(TL, f"a linked GMOV block carries its peer_tids as {PEERS_ATTR} = "
                           "array<i64: p0, p1, p2, p3>", op="pto.block")  # fmt: skip
        props["peers"] = peers
    else:
        fp = block.attributes.get(FOOTPRINT_ATTR)
        if not isinstance(fp, TileType):
            raise PTOFault(TL, f"a linked TPREFETCH block carries its footprint as "
                           f"{FOOTPRINT_ATTR} = !pto.tile<...>", op="pto.block")  # fmt: skip
        props["footprint"] = fp
    vals = Block(arg_types=ins).args
    return cls.build(operands=list(vals), result_types=outs, properties=props)


def gm_block_errors(s, op: GlobalMemoryOp) -> list[str]:
    """What a linked block ``s`` says that its equivalent ``op`` contradicts: the BSTART
    DataType, the LBs with the operation's defaults, the PE mask (checked after the op's own
    verifier)."""
    errs = []
    if isinstance(op, TPrefetchOp):
        t = op.footprint
        assert isinstance(t, TileType)
        dflt = (1, 1, None)
        want = (t.valid_shape[1], t.valid_shape[0], t.shape[1])
    else:
        t = op.result.type if isinstance(op, GatherOp | GMovOp) else op.data.type
        assert isinstance(t, TileType)
        mask = PE_MODE_MASKS[s.pe_mode] if s.pe_mode is not None else "0000"
        if mask != op.op_mask:
            errs.append(f"the block's mask {mask} is not the tiles' {op.op_mask}")
        dflt = (None, 1, None)
        want = (None, None, None) if isinstance(op, GMovOp) else (
            t.valid_shape[1], t.valid_shape[0], t.shape[1])  # fmt: skip
        if isinstance(op, GMovOp) and any(s.lb_written):
            errs.append("GMOV takes no B.DIM")
    if s.start.dtype != t.dtype.value:
        errs.append(f"BSTART DataType {s.start.dtype} is not the tiles' {t.dtype.name}")
    vc = s.lb[0] if s.lb_written[0] else dflt[0]
    have = (vc, s.lb[1] if s.lb_written[1] else dflt[1], s.lb[2] if s.lb_written[2] else vc)
    for k, (h, w) in enumerate(zip(have, want)):
        if w is not None and h != w:
            errs.append(f"LB{k} is {h}, the tiles say {w}")
    if not isinstance(op, TPrefetchOp | GMovOp) and s.scalars is None:
        errs.append(f"{op.MNEMONIC} needs B.IOR (RegSrc0 = the base GPR)")
    return errs
