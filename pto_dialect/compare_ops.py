"""Compare and select: TCMP, TCMPS (predicate producers) and TSEL, TSELS (predicate readers).

``asl/tile/model/execution/comparison.asl`` (``ExecuteTileCompare``,
``ExecuteTileCompareScalar``, ``ExecuteTileSelect``, ``ExecuteTileSelectScalar``), legality
``asl/tile/model/legality/operand-schema.asl``, block schemas
``asl/block/model/dispatch/comparison-schema.asl``. The predicate is a
:class:`~pto_dialect.predicate.PredicateTileType` (``!pto.pred``).

* :class:`TileCompareOp` — ``p[i, j] = source[i, j] <cmode> other[i, j]`` with the six
  B.DATR CMode relations (EQ NE LT GT LE GE, codes 0-5; 6 and 7 reserved). Signed / unsigned
  integer order; floats: any NaN makes every relation false except NE, +0 == -0.
* :class:`TileSelectOp` — ``d[i, j] = p[i, j] ? on_true[i, j] : on_false[i, j]``, an exact
  copy of the chosen carrier bits (no conversion, no NaN canonicalisation).

Type sets: ``TileCompareDataTypeSupported`` and ``TileSelectDataTypeSupported`` are both
``TileVecArithmeticDataTypeSupported`` (16 types) in the executable ASL, as the AVS tests
``TCMP-TYPES-001`` / ``TSEL-TYPES-001`` assert (D6: the executable ASL and the AVS tests win
over the catalog prose's narrower lists).

Syntax (operand types, then the result type)::

    %p = pto.tcmp %a, %b {cmode = #pto.cmode<lt>} : (!pto.tile<8x16xf32>, !pto.tile<8x16xf32>) -> !pto.pred<8x16>
    %p = pto.tcmps %a, %s {cmode = #pto.cmode<ge>} : (!pto.tile<8x16xsi32>, i64) -> !pto.pred<8x16>
    %d = pto.tsel %p, %t, %f : (!pto.pred<8x16>, !pto.tile<8x16xf32>, !pto.tile<8x16xf32>) -> !pto.tile<8x16xf32>
    %d = pto.tsels %p, %t, %s : (!pto.pred<8x16>, !pto.tile<8x16xf32>, i64) -> !pto.tile<8x16xf32>
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, operand_def, prop_def, result_def

from pto_dialect.attributes import PadValue, SimpleEnumAttr, TileType
from pto_dialect.datatypes import VEC_ARITH_TYPES, TileDataType
from pto_dialect.elementwise_ops import TeplElementwiseOp
from pto_dialect.faults import FaultKind
from pto_dialect.isa.commands import TEPL_BY_NAME
from pto_dialect.ops import type_name, verify_same_tiles
from pto_dialect.predicate import PredicateTileType
from pto_dialect.syntax import OperandListSyntax

TL = FaultKind.TILE_LEGALITY
_EW = "asl/tile/elementwise-tile-tile/logical"
_TS = "asl/tile/tile-scalar-and-immediate/logical"


class CompareMode(StrEnum):
    """B.DATR CMode codes 0-5 (``TileComparison``); codes 6 and 7 are reserved."""

    EQ = "eq"
    NE = "ne"
    LT = "lt"
    GT = "gt"
    LE = "le"
    GE = "ge"

    @property
    def code(self) -> int:
        return list(CompareMode).index(self)

    @classmethod
    def of_code(cls, code: int) -> CompareMode:
        return list(cls)[code]


@irdl_attr_definition
class CompareModeAttr(SimpleEnumAttr):
    """``#pto.cmode<lt>``: the B.DATR CMode relation of TCMP / TCMPS (default ``eq``)."""

    name = "pto.cmode"
    enum_type = CompareMode


def _same_geometry(op, what: str, pred: PredicateTileType, tile: TileType, tile_role: str):
    """``TileLogicalShapeMatch`` of a predicate and a numeric tile, and one PE mask."""
    if pred.shape != tile.shape or pred.valid_shape != tile.valid_shape:
        raise op.fault(
            TL,
            f"{what}: predicate shape {'x'.join(map(str, pred.shape))} valid "
            f"{'x'.join(map(str, pred.valid_shape))} differs from {tile_role}'s "
            f"{'x'.join(map(str, tile.shape))} valid {'x'.join(map(str, tile.valid_shape))}",
            "TileLogicalShapeMatch, asl/tile/model/legality/operand-schema.asl",
        )
    if pred.pe_mask != op.mask.data:
        raise op.fault(TL, f"{what}: held by PEs {pred.pe_mask} but the op's mask is "
                       f"{op.mask.data}; all bindings share one mask", "PTO-SPEC 2, D13")  # fmt: skip


class _CompareSelectBase(OperandListSyntax, TeplElementwiseOp):
    """Shared syntax: ``%r = pto.<op> <operands> [{props}] : (<operand types>) -> <result>``
    (:class:`~pto_dialect.syntax.OperandListSyntax`)."""

    assembly_format = None
    custom_directives = ()

    @classmethod
    def from_syntax(cls, values, result_types):
        op = cls.__new__(cls)
        TeplElementwiseOp.__init__(op, values, result_types[0])
        return op


class TileCompareOp(_CompareSelectBase):
    """Family base of TCMP / TCMPS (``ExecuteTileCompare``, ``ExecuteTileCompareScalar``).

    Semantics, for every (i, j) of the valid rectangle::

        p[i, j] = source[i, j] <cmode> other        # other: a tile element or the scalar
        integers: signed or unsigned order; floats: NaN -> only NE true, +0 == -0
        padding bits (outside valid): Zero/Min -> 0, Max -> 1, Null -> undefined

    The result is a ``!pto.pred`` with the source's physical and valid shape.
    """

    cmode = prop_def(CompareModeAttr, CompareModeAttr(CompareMode.EQ))
    TYPES: ClassVar[frozenset[TileDataType]] = VEC_ARITH_TYPES
    TYPES_REF: ClassVar[str] = "TileCompareDataTypeSupported, asl/tile/model/execution/comparison.asl"
    PROPERTY_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        **TeplElementwiseOp.PROPERTY_DEFAULTS,
        "cmode": CompareModeAttr(CompareMode.EQ),
    }

    def __init__(self, operands: list[SSAValue], result_type: Attribute, *,
                 cmode: CompareMode = CompareMode.EQ, pad: PadValue = PadValue.NULL,
                 mask: str = "1111"):  # fmt: skip
        super().__init__(operands, result_type, pad=pad, mask=mask)
        self.properties["cmode"] = CompareModeAttr(cmode)

    @classmethod
    def from_roles(cls, by_role, result_type, pad, mask, cmode: CompareMode = CompareMode.EQ):
        op = super().from_roles(by_role, result_type, pad, mask)
        op.properties["cmode"] = CompareModeAttr(cmode)
        return op

    @property
    def compare_mode(self) -> CompareMode:
        return self.cmode.data  # type: ignore[return-value]

    def verify_(self) -> None:
        if self.mask.is_zero:  # a strict no-op with no checks (PTO-SPEC 2, D12)
            return
        tiles = dict(zip(self.TILE_ROLES, (v.type for v in self.tile_operands())))
        verify_same_tiles(self, tiles, self.TYPES, self.TYPES_REF)
        src: TileType = tiles[self.TILE_ROLES[0]]  # type: ignore[assignment]
        rt = self.results[0].type
        if not isinstance(rt, PredicateTileType):
            raise self.fault(TL, f"result: the destination must be a predicate tile "
                             f"(!pto.pred), got {type_name(rt)}",
                             "TileStorage_Predicate, TileOperandsLegal_ExecuteTileCompare")  # fmt: skip
        _same_geometry(self, "result", rt, src, self.TILE_ROLES[0])
        for role, v in zip(self.SCALAR_ROLES, self.scalar_operands()):
            self._verify_scalar(role, v.type, src)


class TileSelectOp(_CompareSelectBase):
    """Family base of TSEL / TSELS (``ExecuteTileSelect``, ``ExecuteTileSelectScalar``).

    Semantics, for every (i, j) of the valid rectangle::

        d[i, j] = predicate[i, j] ? on_true[i, j] : other   # other: a tile element or the scalar
        an exact copy of the chosen encoding (no conversion, NaN payloads kept)
        elements outside the valid rectangle <- pad (D9)

    ``predicate`` must be a ``!pto.pred`` with the data tiles' geometry; an ordinary numeric tile is
    not a legal mask.
    """

    TYPES: ClassVar[frozenset[TileDataType]] = VEC_ARITH_TYPES
    TYPES_REF: ClassVar[str] = "TileSelectDataTypeSupported, asl/tile/model/execution/comparison.asl"

    def verify_(self) -> None:
        if self.mask.is_zero:  # a strict no-op with no checks (PTO-SPEC 2, D12)
            return
        ops = self.tile_operands()
        pred = ops[0].type
        tiles = dict(zip(self.TILE_ROLES[1:], (v.type for v in ops[1:])))
        tiles["result"] = self.results[0].type
        verify_same_tiles(self, tiles, self.TYPES, self.TYPES_REF)
        if not isinstance(pred, PredicateTileType):
            raise self.fault(TL, f"predicate: an ordinary tile is not a legal mask; it must be a "
                             f"predicate tile (!pto.pred), got {type_name(pred)}",
                             "TilePredicateValuesLegal, TileOperandsLegal_ExecuteTileSelect")  # fmt: skip
        true_t: TileType = tiles["on_true"]  # type: ignore[assignment]
        _same_geometry(self, "predicate", pred, true_t, "on_true")
        for role, v in zip(self.SCALAR_ROLES, self.scalar_operands()):
            self._verify_scalar(role, v.type, true_t)


def _op(base, name: str, mnemonic: str, tiles: tuple, scalars: tuple, doc: str,
        path: str, example: str):  # fmt: skip
    row = TEPL_BY_NAME[mnemonic]
    fields: dict = {
        "__doc__": f"``{name}`` — {doc} (TEPL {row.mode}/{row.function}, "
        f"``{path}``). Example: ``{example}``.",
        "name": name,
        "MNEMONIC": mnemonic,
        "SPEC": path,
        "TILE_ROLES": tiles,
        "SCALAR_ROLES": scalars,
        "__annotations__": {k: ClassVar for k in ("MNEMONIC", "SPEC", "TILE_ROLES",
                                                  "SCALAR_ROLES")},
    }  # fmt: skip
    # The predicate operand and the TCMP* result are unconstrained here: verify_ names the
    # storage-kind rule in the project's diagnostic format.
    for role in tiles:
        fields[role] = operand_def() if role == "predicate" else operand_def(TileType)
    for role in scalars:
        fields[role] = operand_def()
    fields["result"] = result_def() if base is TileCompareOp else result_def(TileType)
    return irdl_op_definition(type(f"{mnemonic[0]}{mnemonic[1:].capitalize()}Op", (base,), fields))


_T = "!pto.tile<8x16xf32>"
TCmpOp = _op(TileCompareOp, "pto.tcmp", "TCMP", ("lhs", "rhs"), (),
             "p = lhs <cmode> rhs, one predicate bit per element", f"{_EW}/TCMP.asl",
             f"%p = pto.tcmp %a, %b {{cmode = #pto.cmode<lt>}} : ({_T}, {_T}) -> !pto.pred<8x16>")
TCmpsOp = _op(TileCompareOp, "pto.tcmps", "TCMPS", ("source",), ("scalar",),
              "p = source <cmode> scalar, one predicate bit per element", f"{_TS}/TCMPS.asl",
              f"%p = pto.tcmps %a, %s : ({_T}, i64) -> !pto.pred<8x16>")
TSelOp = _op(TileSelectOp, "pto.tsel", "TSEL", ("predicate", "on_true", "on_false"), (),
             "d = predicate ? on_true : on_false (exact encodings)", f"{_EW}/TSEL.asl",
             f"%d = pto.tsel %p, %t, %f : (!pto.pred<8x16>, {_T}, {_T}) -> {_T}")
TSelsOp = _op(TileSelectOp, "pto.tsels", "TSELS", ("predicate", "on_true"), ("scalar",),
              "d = predicate ? on_true : scalar (exact encodings)", f"{_TS}/TSELS.asl",
              f"%d = pto.tsels %p, %t, %s : (!pto.pred<8x16>, {_T}, i64) -> {_T}")  # fmt: skip

COMPARE_SELECT_OPS: list[type[_CompareSelectBase]] = [TCmpOp, TCmpsOp, TSelOp, TSelsOp]
"""The compare-and-select family (TEPL 0/13, 1/13, 0/26, 1/26)."""
CompareSelectOp = _CompareSelectBase
