"""Format conversion family: TCVT, TQUANT, TDEQUANT (``asl/tile/model/numeric/formats.asl``).

One base, :class:`ConvertTileOp`: a tile source, optional scalars read through B.IOR, one
destination of ANOTHER element type, and the numeric controls B.DATR carries for these ops
(``rmode``: RMode 0..7, ``sat``: Sat; ``asl/arch/data-types/rounding.asl``, ADR-0047 in
the spec). A member is a row: selector, mnemonic, scalar roles, spec path and its
``verify_family`` rules. Kernels: :mod:`interpreter.kernels.convert` (D20 for the float
conversions the ASL leaves to ``TileProfileConvert``).

Syntax (all members)::

    %d = pto.<op> %src[, %multiplier, %zero_point] [{rmode = #pto.rmode<rtz>, sat,
           pad = #pto.pad<zero>, mask = #pto.mask<1111>}] : (source types) -> result type

Diagnostics: ``'<op>' op [<FaultKind>] <operand>: <rule> (<spec refs>)``.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import UnitAttr, f32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)

from pto_dialect.attributes import (
    MaskAttr,
    PadValue,
    PadValueAttr,
    RoundingMode,
    RoundingModeAttr,
    TileType,
)
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind
from pto_dialect.geometry import Layout, Location, Storage
from pto_dialect.ops import TeplTileBase, type_name
from pto_dialect.syntax import OperandListSyntax

TL = FaultKind.TILE_LEGALITY
T = TileDataType

TCVT_LAYOUT_CODES: dict[tuple[Layout, Layout], int] = {
    (Layout.ROW_MAJOR, Layout.ROW_MAJOR): 0,  # NORM
    (Layout.ROW_MAJOR, Layout.COL_MAJOR): 1,  # ND2DN
    (Layout.ROW_MAJOR, Layout.ZN): 3,  # ND2ZN
    (Layout.ROW_MAJOR, Layout.NZ): 4,  # ND2NZ
    (Layout.COL_MAJOR, Layout.ROW_MAJOR): 6,  # DN2ND
    (Layout.COL_MAJOR, Layout.ZN): 8,  # DN2ZN
    (Layout.COL_MAJOR, Layout.NZ): 9,  # DN2NZ
    (Layout.ZN, Layout.ROW_MAJOR): 17,  # ZN2ND
    (Layout.ZN, Layout.COL_MAJOR): 18,  # ZN2DN
    (Layout.ZN, Layout.NZ): 20,  # ZN2NZ
    (Layout.NZ, Layout.ROW_MAJOR): 27,  # NZ2ND
    (Layout.NZ, Layout.COL_MAJOR): 28,  # NZ2DN
    (Layout.NZ, Layout.ZN): 30,  # NZ2ZN
}
"""(source layout, destination layout) -> B.DATR Layout code of TCVT
(``TileDataLayoutSourceLayout`` / ``TileDataLayoutDestinationLayout`` in
``asl/block/model/state/control-state.asl``; AVS TCVT-LAYOUT-001). Values are stored
logically, so the transformation changes only the destination descriptor."""
LAYOUT_PAIR_OF_CODE = {code: pair for pair, code in TCVT_LAYOUT_CODES.items()}
E8M0_SOURCES = frozenset({T.FP16, T.BF16, T.FP32})
"""``HardwareTCVTE8M0SourceTypeSupported`` (``asl/arch/profile/e8m0-conversion.asl``)."""
QUANT_INT_TYPES = frozenset({T.S8, T.U8})

_FMT = "asl/tile/irregular-and-complex/format-conversion"


class ConvertTileOp(OperandListSyntax, TeplTileBase):
    """Family base of the format conversions: ``d = convert(src[, scalars])`` on the valid
    rectangle, the destination of its own element type (module docstring)."""

    MNEMONIC: ClassVar[str]
    SPEC: ClassVar[str]
    TYPES: ClassVar[frozenset[TileDataType]]
    """Source element types."""
    TYPES_REF: ClassVar[str]
    SCALAR_ROLES: ClassVar[tuple[str, ...]] = ()
    """B.IOR scalars (all or none: omitted B.IOR selects the defaults)."""
    SOURCES: ClassVar[tuple[str, ...]] = ("src",)

    source = operand_def(TileType)
    scalars = var_operand_def()
    result = result_def(TileType)
    rmode = prop_def(RoundingModeAttr, RoundingModeAttr(RoundingMode.DEFAULT))
    sat = opt_prop_def(UnitAttr)

    PROPERTY_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        **TeplTileBase.PROPERTY_DEFAULTS,
        "rmode": RoundingModeAttr(RoundingMode.DEFAULT),
    }

    def __init__(
        self,
        source: SSAValue,
        result_type: Attribute,
        scalars=(),
        *,
        rmode: RoundingMode = RoundingMode.DEFAULT,
        sat: bool = False,
        pad: PadValue = PadValue.NULL,
        mask: str = "1111",
    ):
        props: dict[str, Attribute] = {
            "pad": PadValueAttr(pad),
            "mask": MaskAttr(mask),
            "rmode": RoundingModeAttr(rmode),
        }
        if sat:
            props["sat"] = UnitAttr()
        super().__init__(
            operands=[source, list(scalars)], result_types=[result_type], properties=props
        )

    @property
    def data_type(self) -> TileDataType:
        """The BSTART DataType: the source's element type."""
        return self.source.type.dtype  # type: ignore[union-attr]

    @classmethod
    def from_syntax(cls, values, result_types):
        op = cls.__new__(cls)
        ConvertTileOp.__init__(op, values[0], result_types[0], values[1:])
        return op

    def refs(self, extra: str = "") -> str:
        return ", ".join(x for x in (extra, self.SPEC) if x)

    def verify_(self) -> None:
        if self.mask.is_zero:  # a strict no-op with no checks (PTO-SPEC 2, D12)
            return
        s, d = self.source.type, self.result.type
        for role, t in (("src", s), ("result", d)):
            if not isinstance(t, TileType):
                raise self.fault(TL, f"{role} must be a !pto.tile, got {type_name(t)}", "PTO-SPEC 2")
        assert isinstance(s, TileType) and isinstance(d, TileType)
        if s.dtype not in self.TYPES:
            allowed = ", ".join(sorted(t.name for t in self.TYPES))
            raise self.fault(TL, f"src: element type {type_name(s.element_type)} is not "
                             f"supported (allowed: {allowed})", self.refs(self.TYPES_REF))  # fmt: skip
        for role, t in (("src", s), ("result", d)):
            if t.storage_kind is not Storage.LOCAL:
                raise self.fault(TL, f"{role}: operands are Local tiles, got shared", self.refs())
            if t.pe_mask != self.mask.data:
                raise self.fault(TL, f"{role}: held by PEs {t.pe_mask} but the op's mask is "
                                 f"{self.mask.data}; all bindings share one mask",
                                 "PTO-SPEC 2, D13")  # fmt: skip
        if s.valid_shape != d.valid_shape:
            raise self.fault(TL, f"result: valid shape {d.valid_shape[0]}x{d.valid_shape[1]} "
                             f"must equal the source's {s.valid_shape[0]}x{s.valid_shape[1]}",
                             self.refs())  # fmt: skip
        n = len(self.scalars)
        if n not in (0, len(self.SCALAR_ROLES)):
            want = f"0 or {len(self.SCALAR_ROLES)}" if self.SCALAR_ROLES else "no"
            raise self.fault(TL, f"scalars: {self.MNEMONIC} takes {want} scalar operand(s) "
                             f"({', '.join(self.SCALAR_ROLES) or 'none'}), got {n}",
                             self.refs())  # fmt: skip
        self.verify_family(s, d)

    def verify_family(self, s: TileType, d: TileType) -> None:  # pragma: no cover
        raise NotImplementedError

    def _row_major_null_pad(self, s: TileType, d: TileType) -> None:
        for role, t in (("src", s), ("result", d)):
            if t.layout_kind is not Layout.ROW_MAJOR:
                raise self.fault(TL, f"{role}: layout {t.layout_kind.value} must be row_major",
                                 self.refs("PTO-SPEC 2, D10"))  # fmt: skip
        if self.pad.data is not PadValue.NULL:
            raise self.fault(TL, f"pad: {self.MNEMONIC} padding is always Null (B.DATR "
                             "PadValue must be zero)", self.refs())  # fmt: skip

    def _verify_quant_scalars(self) -> None:
        for role, v in zip(self.SCALAR_ROLES, self.scalars):
            ok = v.type == i64 or (role == "multiplier" and v.type == f32)
            if not ok:
                want = "i64 (a raw FP32 word) or f32" if role == "multiplier" else "i64"
                ref = "TileQuantizationScaleLegal" if role == "multiplier" else (
                    "TileQuantizationZeroPointLegal")
                raise self.fault(TL, f"{role}: scalar type {type_name(v.type)} must be {want}",
                                 self.refs(ref))  # fmt: skip


@irdl_op_definition
class TCvtOp(ConvertTileOp):
    """``pto.tcvt`` — convert every valid element to the destination type (TEPL 0/27).

    Semantics (``asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl``,
    ``asl/tile/model/numeric/formats.asl`` ``TCVT``; D20)::

        for (i, j) in valid rectangle:
            d[i, j] = convert(src[i, j], rmode, sat)   # integer pairs: truncate / clamp;
                                                       # float pairs: one rounding (D20)
        elements of d outside the valid rectangle <- pad (D9)

    ``rmode`` default: RTZ for float -> integer, RNE otherwise; ``#pto.rmode<rtm>`` /
    ``<rtp>`` / ``<rtz>`` / ``<rne>`` give floor / ceil / trunc / round-half-even. Every
    TileDataType is a source and a destination; an E8M0 destination takes FP16, BF16, FP32.
    Source and destination have equal physical and valid shapes; their layouts name one
    B.DATR Layout transformation (ND2DN ...); a CUBE (``location = mat``) source is
    canonicalized (Canonicalize = 1, both row-major). Example::

        %d = pto.tcvt %a {rmode = #pto.rmode<rtm>, sat}
            : (!pto.tile<8x16xf32>) -> !pto.tile<8x16xsi16>
    """

    name = "pto.tcvt"
    MNEMONIC: ClassVar[str] = "TCVT"
    SPEC: ClassVar[str] = "asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl"
    TYPES: ClassVar[frozenset[TileDataType]] = frozenset(TileDataType)
    TYPES_REF: ClassVar[str] = "InstructionContractDataTypeLegal_TCVT"

    @property
    def canonicalize(self) -> bool:
        """B.DATR Canonicalize: exactly for a private CUBE (``location = mat``) source."""
        return self.source.type.location_kind is Location.MAT  # type: ignore[union-attr]

    @property
    def layout_code(self) -> int:
        s, d = self.source.type, self.result.type
        return TCVT_LAYOUT_CODES[(s.layout_kind, d.layout_kind)]  # type: ignore[union-attr]

    def verify_family(self, s: TileType, d: TileType) -> None:
        if s.shape != d.shape:
            raise self.fault(TL, f"result: shape {d.shape[0]}x{d.shape[1]} must equal the "
                             f"source's {s.shape[0]}x{s.shape[1]} (equal Row and Col)",
                             self.refs("TileOperandsLegal_TCVT"))  # fmt: skip
        if d.dtype is T.E8M0 and s.dtype not in E8M0_SOURCES:
            raise self.fault(TL, f"src: an E8M0 destination takes FP16, BF16 or FP32 sources, "
                             f"not {s.dtype.asm}", self.refs("HardwareTCVTTypePairSupported"))  # fmt: skip
        if self.canonicalize:
            if s.layout_kind is not Layout.ROW_MAJOR or d.layout_kind is not Layout.ROW_MAJOR:
                raise self.fault(TL, "src: a private CUBE (location mat) source is "
                                 "canonicalized with Layout NORM: both tiles row_major",
                                 self.refs("TileOperandsLegal_TCVT"))  # fmt: skip
            return
        if (s.layout_kind, d.layout_kind) not in TCVT_LAYOUT_CODES:
            raise self.fault(TL, f"result: no B.DATR Layout transforms {s.layout_kind.value} "
                             f"into {d.layout_kind.value}",
                             self.refs("TileDataLayoutSourceLayout"))  # fmt: skip


@irdl_op_definition
class TQuantOp(ConvertTileOp):
    """``pto.tquant`` — affine-quantize FP32 to S8 / U8 (TEPL 3/10).

    Semantics (``asl/tile/irregular-and-complex/format-conversion/TQUANT.asl``,
    ``TileProfileQuantize`` of ``asl/arch/profile/reference-quantization.asl``)::

        for (i, j) in valid rectangle:
            q = round_rmode(x * multiplier + zero_point)     # exact, one rounding
            d[i, j] = sat ? clamp(q) : q mod 2^8   # NaN -> 0, +-inf -> max / min
        padding: Null

    ``multiplier`` (a raw FP32 word as i64, or f32; positive, finite, nonzero) and
    ``zero_point`` (i64, canonical in the destination type) come through B.IOR; without
    them 1.0 and 0. Example::

        %q = pto.tquant %x, %m, %z {rmode = #pto.rmode<rne>, sat}
            : (!pto.tile<8x16xf32>, i64, i64) -> !pto.tile<8x16xsi8>
    """

    name = "pto.tquant"
    MNEMONIC: ClassVar[str] = "TQUANT"
    SPEC: ClassVar[str] = f"{_FMT}/TQUANT.asl"
    TYPES: ClassVar[frozenset[TileDataType]] = frozenset({T.FP32})
    TYPES_REF: ClassVar[str] = "InstructionContractDataTypesLegal_TQUANT"
    SCALAR_ROLES: ClassVar[tuple[str, ...]] = ("multiplier", "zero_point")

    def verify_family(self, s: TileType, d: TileType) -> None:
        if d.dtype not in QUANT_INT_TYPES:
            raise self.fault(TL, f"result: element type {type_name(d.element_type)} must be "
                             "si8 or ui8", self.refs(self.TYPES_REF))  # fmt: skip
        self._row_major_null_pad(s, d)
        self._verify_quant_scalars()


@irdl_op_definition
class TDequantOp(ConvertTileOp):
    """``pto.tdequant`` — affine-dequantize S8 / U8 to FP32 (TEPL 3/11).

    Semantics (``asl/tile/irregular-and-complex/format-conversion/TDEQUANT.asl``,
    ``TileProfileDequantize`` of ``asl/arch/profile/reference-quantization.asl``)::

        for (i, j) in valid rectangle:
            d[i, j] = round_rmode_fp32((q - zero_point) * multiplier)   # one rounding
        padding: Null; overflow is +-inf in every mode

    Scalars as ``pto.tquant`` (the zero point canonical in the source type); no ``sat``.
    Example::

        %x = pto.tdequant %q, %m, %z : (!pto.tile<8x16xui8>, i64, i64) -> !pto.tile<8x16xf32>
    """

    name = "pto.tdequant"
    MNEMONIC: ClassVar[str] = "TDEQUANT"
    SPEC: ClassVar[str] = f"{_FMT}/TDEQUANT.asl"
    TYPES: ClassVar[frozenset[TileDataType]] = QUANT_INT_TYPES
    TYPES_REF: ClassVar[str] = "InstructionContractDataTypesLegal_TDEQUANT"
    SCALAR_ROLES: ClassVar[tuple[str, ...]] = ("multiplier", "zero_point")

    def verify_family(self, s: TileType, d: TileType) -> None:
        if d.dtype is not T.FP32:
            raise self.fault(TL, f"result: element type {type_name(d.element_type)} must be "
                             "f32", self.refs(self.TYPES_REF))  # fmt: skip
        if self.sat is not None:
            raise self.fault(TL, "sat: TDEQUANT takes no Sat (B.DATR Sat must be zero)",
                             self.refs())  # fmt: skip
        self._row_major_null_pad(s, d)
        self._verify_quant_scalars()


CONVERT_OPS: list[type[ConvertTileOp]] = [TCvtOp, TQuantOp, TDequantOp]
"""The format-conversion family."""
