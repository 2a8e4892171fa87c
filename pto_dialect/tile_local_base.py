"""Common base of the tile-local TEPL families (:class:`TeplTileOp`) and its helpers.

Split from :mod:`pto_dialect.tile_local` (one module per concern): the base carries the
operand model (tile sources in B.IOT stream order, then optional ``i64`` B.IOR parameters),
the custom syntax, the checks every member shares (operand count, Local row-major tiles, one
PE mask, the type set) and the family-specific hook :meth:`TeplTileOp.verify_family`. The
families themselves are rows in :mod:`pto_dialect.tile_local` and
:mod:`pto_dialect.tile_rearrange`.

Syntax (all members)::

    %d = pto.<op> %src[, %src2][, %param...] [{pad = #pto.pad<zero>, mask = #pto.mask<1111>}]
        : (source types[, i64...]) -> result type

Diagnostics: ``'<op>' op [<FaultKind>] <operand>: <rule> (<spec refs>)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    result_def,
    var_operand_def,
)

from pto_dialect.attributes import MaskAttr, PadValue, PadValueAttr, TileType
from pto_dialect.datatypes import VEC_ARITH_TYPES, TileDataType
from pto_dialect.faults import FaultKind
from pto_dialect.geometry import Layout, Storage
from pto_dialect.ops import TeplTileBase, type_name
from pto_dialect.syntax import OperandListSyntax

TL = FaultKind.TILE_LEGALITY
T = TileDataType

ROW_MAJOR_REF = "PTO-SPEC 2, D10"


def shape_text(s: tuple[int, int]) -> str:
    return f"{s[0]}x{s[1]}"


class TeplTileOp(OperandListSyntax, TeplTileBase):
    """Common base of the tile-local TEPL families: variadic tile sources (their count is the
    row's ``SOURCES``), one destination (TSORT: two, ``RESULTS``), B.DATR PadValue and the PE
    mask."""

    MNEMONIC: ClassVar[str]
    SOURCES: ClassVar[tuple[str, ...]] = ("src",)
    RESULTS: ClassVar[tuple[str, ...]] = ("result",)
    """Roles of the destinations in B.IOT stream order (TSORT: values, then indices)."""
    TYPES: ClassVar[frozenset[TileDataType]] = VEC_ARITH_TYPES
    TYPES_REF: ClassVar[str] = "TileVecArithmeticDataTypeSupported"
    SPEC: ClassVar[str] = ""
    """The op's ASL path (cited in diagnostics and docs)."""
    HAS_PAD: ClassVar[bool] = True
    """B.DATR PadValue is applicable (TTRANS pads with Null only)."""
    ROW_MAJOR_ONLY: ClassVar[bool] = True
    PARAMS: ClassVar[tuple[str, ...]] = ()
    """Roles of the ``i64`` B.IOR parameters (:class:`ParamTileOp` members only)."""
    KEEP_SOURCE: ClassVar[str | None] = None
    """A source whose payload and definedness the result keeps outside its valid rectangle
    (TINSERT's ``old``); None: the result is padded."""
    BLOCK_UNSOUND: ClassVar[str] = ""
    """Why the op has no block form (its spec block slots are contradictory); empty: it has
    one."""
    NO_LBS: ClassVar[bool] = False
    """The block's B.DIMs do not describe a tile (TMRGSORT, THISTOGRAM: none at all; TSORT:
    LB0 is the sort width, :meth:`block_lbs`): the destination shape derives from the
    sources."""
    PARTIAL_SOURCES: ClassVar[tuple[str, ...]] = ()
    """Sources of which only :meth:`referenced` elements must be defined (THISTOGRAM's
    filter); the others' whole valid rectangle must be (D9)."""
    FIXED_PAD: ClassVar[str | None] = None
    """The padding the ASL fixes for a member without B.DATR PadValue (``"zero"``: typed
    zero, defined; ``None``: Null)."""

    srcs = var_operand_def(TileType)
    result = result_def(TileType)

    def __init__(
        self,
        sources: Sequence[SSAValue],
        result_type: Attribute | Sequence[Attribute],
        *,
        pad: PadValue = PadValue.NULL,
        mask: str = "1111",
    ):
        """``result_type``: the destination type, or one per ``RESULTS`` role."""
        types = [result_type] if isinstance(result_type, Attribute) else list(result_type)
        super().__init__(
            operands=self._operand_groups(sources),
            result_types=types,
            properties={"pad": PadValueAttr(pad), "mask": MaskAttr(mask)},
        )

    def _operand_groups(self, operands: Sequence[SSAValue]) -> list[list[SSAValue]]:
        return [list(operands)]

    # -- per-op hooks (defaults) ------------------------------------------------------
    def static_params(self) -> tuple[int, ...]:
        """Kernel parameters fixed by the op's properties, before the B.IOR ones."""
        return ()

    def block_datr(self) -> dict[str, int] | None:
        """B.DATR fields the op's block always carries (THISTOGRAM); None: the default rule."""
        return None

    @classmethod
    def from_datr(cls, datr) -> dict[str, Attribute]:
        """Properties a decoded block's B.DATR sets beyond PadValue (THISTOGRAM's ByteId)."""
        return {}

    def block_lbs(self) -> list[tuple[int, int]]:
        """(LB, value) B.DIMs of a ``NO_LBS`` op's block (TSORT's sort width); default none."""
        return []

    @classmethod
    def from_block(cls, s) -> dict[str, Attribute]:
        """Properties a decoded block (an ``isa.BlockSummary``) sets beyond PadValue: B.DATR
        fields (:meth:`from_datr`) by default; TSORT also reads its LB0."""
        return cls.from_datr(s.datr)

    def referenced(self, role: str) -> tuple[int, int]:
        """The (rows, cols) at the origin of a ``PARTIAL_SOURCES`` source that are read."""
        raise NotImplementedError

    # -- views ------------------------------------------------------------------------
    def source(self, role: str) -> SSAValue:
        return self.srcs[self.SOURCES.index(role)]

    def source_types(self) -> list[TileType]:
        return [v.type for v in self.srcs]  # type: ignore[misc]

    @property
    def data_type(self) -> TileDataType:
        """The BSTART DataType: the first source's element type."""
        return self.srcs[0].type.dtype  # type: ignore[union-attr]

    LB_OF_RESULT: ClassVar[bool] = False
    """The block's LB0..LB2 describe the result (else the first source)."""

    def lb_geometry(self) -> TileType:
        """The tile whose (ValidCol, ValidRow, Col) the block's LB0..LB2 describe."""
        return (self.result if self.LB_OF_RESULT else self.srcs[0]).type  # type: ignore[return-value]

    @classmethod
    def build(
        cls, operands: Sequence[SSAValue], result_type: Attribute | Sequence[Attribute], *,
        pad: PadValue = PadValue.NULL, mask: str = "1111",
    ) -> TeplTileOp:
        """The op from its operands in syntax order (tile sources, then parameters): the
        parser's and the decoded-block rebuild's constructor."""
        op = cls.__new__(cls)
        TeplTileOp.__init__(op, operands, result_type, pad=pad, mask=mask)
        return op

    # -- syntax (OperandListSyntax) ----------------------------------------------------
    @classmethod
    def from_syntax(cls, values, result_types) -> TeplTileOp:
        return cls.build(values, result_types)

    # -- static legality (D16) --------------------------------------------------------
    def refs(self, extra: str = "") -> str:
        return ", ".join(x for x in (extra, self.SPEC) if x)

    def verify_(self) -> None:
        if len(self.srcs) != len(self.SOURCES):
            raise self.fault(
                TL,
                f"operands: {self.name} takes {len(self.SOURCES)} tile source(s) "
                f"({', '.join(self.SOURCES)}), got {len(self.srcs)}",
                self.refs(),
            )
        if self.mask.is_zero:  # strict no-op with no further checks (PTO-SPEC 2, D12)
            return
        tiles = {**dict(zip(self.SOURCES, (v.type for v in self.srcs))),
                 **dict(zip(self.RESULTS, (r.type for r in self.results)))}  # fmt: skip
        assert all(isinstance(t, TileType) for t in tiles.values()), "the definitions hold tiles"
        if not self.HAS_PAD and self.pad.data is not PadValue.NULL:
            raise self.fault(
                TL, f"pad: {self.MNEMONIC} takes no PadValue (B.DATR PadValue must be zero)",
                self.refs(),
            )  # fmt: skip
        first = self.SOURCES[0]
        if self.data_type not in self.TYPES:
            allowed = ", ".join(sorted(t.name for t in self.TYPES))
            raise self.fault(
                TL,
                f"{first}: element type {type_name(self.srcs[0].type.element_type)} is not "  # type: ignore[union-attr]
                f"supported (allowed: {allowed})",
                self.refs(self.TYPES_REF),
            )
        for role, t in tiles.items():
            assert isinstance(t, TileType)
            if self.ROW_MAJOR_ONLY and t.layout_kind is not Layout.ROW_MAJOR:
                raise self.fault(TL, f"{role}: layout {t.layout_kind.value} must be row_major",
                                 self.refs(ROW_MAJOR_REF))  # fmt: skip
            if t.storage_kind is not Storage.LOCAL:
                raise self.fault(TL, f"{role}: operands are Local tiles, got shared", self.refs())
            if t.pe_mask != self.mask.data:
                raise self.fault(
                    TL,
                    f"{role}: held by PEs {t.pe_mask} but the op's mask is {self.mask.data}; "
                    "all bindings share one mask",
                    "PTO-SPEC 2, D13",
                )
        self.verify_family()

    def verify_family(self) -> None:  # pragma: no cover - every family overrides it
        raise NotImplementedError

    def expect(self, role: str, what: str, have, want, rule: str) -> None:
        if have != want:
            raise self.fault(TL, f"{role}: {what} {have} must be {want} ({rule})", self.refs())

    def same_element_type(self) -> list[TileType]:
        """Every other source and the result have the first source's element type (one
        rule of TCONCAT, the TPART* family, TGATHER/TSCATTER, TFILLPAD); returns the
        source types followed by the result type."""
        first, *others = self.source_types()
        d = self.result.type
        assert isinstance(d, TileType)
        for role, t in (*zip(self.SOURCES[1:], others), ("result", d)):
            if self.SAME_TYPE_ROLES is not None and role not in self.SAME_TYPE_ROLES:
                continue
            self.expect(role, "element type", type_name(t.element_type),
                        type_name(first.element_type), f"{self.SOURCES[0]}'s type")  # fmt: skip
        return [first, *others, d]

    SAME_TYPE_ROLES: ClassVar[tuple[str, ...] | None] = None
    """Roles :meth:`same_element_type` checks (``None``: every other source and the result)."""


class ParamTileOp(TeplTileOp):
    """A tile-local op that also reads ``i64`` scalar parameters through ``B.IOR RegSrc0..``
    (``PARAMS``, in dense B.IOR order). Without parameter operands the block has no B.IOR and
    every parameter is zero (the catalog's omitted-B.IOR default)."""

    srcs = var_operand_def(TileType)
    params = var_operand_def(IntegerType)
    result = result_def(TileType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def _operand_groups(self, operands: Sequence[SSAValue]) -> list[list[SSAValue]]:
        n = len(self.SOURCES)
        return [list(operands[:n]), list(operands[n:])]

    def verify_(self) -> None:
        if len(self.params) not in (0, len(self.PARAMS)):
            raise self.fault(TL, f"operands: {self.name} takes no parameter or "
                             f"{len(self.PARAMS)} i64 ({', '.join(self.PARAMS)}), got "
                             f"{len(self.params)}", self.refs())  # fmt: skip
        for role, v in zip(self.PARAMS, self.params):
            if not (isinstance(v.type, IntegerType) and v.type.width.data == 64):
                raise self.fault(TL, f"{role} must be i64 (a GPR word), got "
                                 f"{type_name(v.type)}", self.refs())  # fmt: skip
        super().verify_()


def define_row(base: type, module: str, mnemonic: str, doc: str, **consts) -> type:
    """One family row: ``pto.<mnemonic>`` (its selector is its catalog row's) with its family
    constants."""
    body = {
        "name": f"pto.{mnemonic.lower()}",
        "__doc__": doc,
        "__module__": module,
        "__qualname__": f"{mnemonic.title()}Op",
        "MNEMONIC": mnemonic,
        **consts,
    }
    return define_op_class(body, base)


def define_op_class(body: dict, base: type) -> type:
    """An op class from a row: the uppercase keys are ClassVar constants."""
    body["__annotations__"] = {k: ClassVar for k in body if k.isupper()}
    return irdl_op_definition(type(body["__qualname__"], (base,), body))


