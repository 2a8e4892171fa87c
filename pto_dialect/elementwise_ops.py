"""Elementwise TEPL families beyond the binary one: tile-scalar (mode 1) and unary (mode 0).

* :class:`TileScalarOp` — ``d = source <op> scalar`` (PTO-SPEC 5; ``ExecuteTileScalar``,
  ``asl/tile/tile-scalar-and-immediate/**``). The scalar is an SSA value: an ``i64`` raw GPR
  word (the element is its low element-width bits, ``TileRawElementValue``) or, for a
  float tile, a scalar of the tile's own float type. In the block it is read through
  ``B.IOR [a0, zero, zero], ->zero`` (RegSrc0; docs/blocks.md pseudo register convention).
* :class:`UnaryTileOp` — ``d = f(source)`` (``ExecuteTileUnary``,
  ``asl/tile/model/execution/unary.asl``).

A member is a few lines: name, ``MNEMONIC`` (its selector is its row of the ISA catalog,
``pto_dialect.isa.commands.TEPL_OPS``), ``TYPES`` (the executable ASL set). The kernel rows live in ``interpreter.kernels``
(``TILE_SCALAR_ROWS``, ``UNARY_ROWS``). Diagnostics: ``'<op>' op [<FaultKind>] <operand>:
<rule> (<refs>)``.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, result_def

from pto_dialect.attributes import MaskAttr, PadValue, PadValueAttr, TileType
from pto_dialect.datatypes import VEC_ARITH_TYPES, VEC_FLOAT_TYPES, VEC_INT_TYPES, TileDataType
from pto_dialect.faults import FaultKind
from pto_dialect.isa.commands import TEPL_BY_NAME
from pto_dialect.ops import TeplTileBase, type_name, verify_same_tiles
from pto_dialect.status_rules import (
    EXP_STATUS,
    LOG_STATUS,
    NO_STATUS,
    RECIP_STATUS,
    RSQRT_STATUS,
    SNAN_STATUS,
    SQRT_STATUS,
    UnaryStatus,
)
from pto_dialect.syntax import DefaultsFirst, ResultTypeFirst

TL = FaultKind.TILE_LEGALITY


class _TeplElementwise(TeplTileBase):
    """Common base: the ``pad``/``mask`` properties, the selector constants and the
    constructor used by the parser, the block decoder and the passes."""

    MNEMONIC: ClassVar[str]
    TYPES: ClassVar[frozenset[TileDataType]]
    TYPES_REF: ClassVar[str]
    SPEC: ClassVar[str]
    """The op's ASL path in the spec (docs table)."""
    TILE_ROLES: ClassVar[tuple[str, ...]] = ("source",)
    SCALAR_ROLES: ClassVar[tuple[str, ...]] = ()

    custom_directives = (DefaultsFirst, ResultTypeFirst)
    assembly_format = (
        "custom<DefaultsFirst>() operands attr-dict "
        "`:` custom<ResultTypeFirst>(type(operands), type(results))"
    )

    def __init__(
        self,
        operands: list[SSAValue],
        result_type: Attribute | None = None,
        *,
        pad: PadValue = PadValue.NULL,
        mask: str = "1111",
    ):
        super().__init__(
            operands=operands,
            result_types=[result_type or operands[0].type],
            properties={"pad": PadValueAttr(pad), "mask": MaskAttr(mask)},
        )

    @classmethod
    def from_roles(
        cls, by_role: dict[str, SSAValue], result_type: Attribute, pad: PadValue, mask: str
    ):
        """The op from its operands by role (the decoded-block rebuild)."""
        op = cls.__new__(cls)
        roles = (*cls.TILE_ROLES, *cls.SCALAR_ROLES)
        _TeplElementwise.__init__(op, [by_role[r] for r in roles], result_type, pad=pad, mask=mask)
        return op

    def tile_operands(self) -> list[SSAValue]:
        return list(self.operands[: len(self.TILE_ROLES)])

    def scalar_operands(self) -> list[SSAValue]:
        return list(self.operands[len(self.TILE_ROLES) :])

    def verify_(self) -> None:
        if self.mask.is_zero:  # a strict no-op with no checks (PTO-SPEC 2, D12)
            return
        tiles = dict(zip(self.TILE_ROLES, (v.type for v in self.tile_operands())))
        tiles["result"] = self.results[0].type
        verify_same_tiles(self, tiles, self.TYPES, self.TYPES_REF)
        for role, v in zip(self.SCALAR_ROLES, self.scalar_operands()):
            self._verify_scalar(role, v.type, tiles["result"])  # type: ignore[arg-type]

    def _verify_scalar(self, role: str, st: Attribute, tile: TileType) -> None:
        """A scalar is an i64 raw GPR word, or a float of exactly the tile's float type."""
        if st == i64:
            return
        if isinstance(st, AnyFloat) and tile.dtype.is_float and st == tile.element_type:
            return
        want = "i64 (a raw GPR word)"
        if tile.dtype.is_float:
            want += f" or {type_name(tile.element_type)}"
        raise self.fault(
            TL,
            f"{role}: scalar type {type_name(st)} must be {want}",
            "PTO-SPEC 5, TileRawElementValue",
        )


class TileScalarOp(_TeplElementwise):
    """Family base of the tile-scalar operations (TEPL mode 1, ``ExecuteTileScalar``).

    Semantics, for every (i, j) of the valid rectangle::

        s = low element-width bits of the scalar word (TileRawElementValue)
        d[i, j] = source[i, j] <op> s     # exactly the tile-tile op's row (TADD for TADDS...)
        elements outside the valid rectangle <- pad (D9)

    Syntax::

        %d = pto.tadds %src, %s [{pad = #pto.pad<zero>, mask = #pto.mask<1111>}]
               : !pto.tile<...>, i64
    """

    TILE_ROLES: ClassVar[tuple[str, ...]] = ("source",)
    SCALAR_ROLES: ClassVar[tuple[str, ...]] = ("scalar",)
    TYPES: ClassVar[frozenset[TileDataType]] = VEC_ARITH_TYPES
    TYPES_REF: ClassVar[str] = "PTO-SPEC 5, TileBinaryDataTypeSupported"

    source = operand_def(TileType)
    scalar = operand_def()
    result = result_def(TileType)


class UnaryTileOp(_TeplElementwise):
    """Family base of the unary operations (TEPL mode 0, ``ExecuteTileUnary``).

    Semantics: ``d[i, j] = f(source[i, j])`` on the valid rectangle, padding outside (D9).
    Syntax: ``%d = pto.texp %src [{pad = ..., mask = ...}] : !pto.tile<...>``. A member's
    ``STATUS`` row says which numeric status flags it raises and by which rule
    (:class:`pto_dialect.status_rules.UnaryStatus`).
    """

    STATUS: ClassVar[UnaryStatus]

    TILE_ROLES: ClassVar[tuple[str, ...]] = ("source",)

    source = operand_def(TileType)
    result = result_def(TileType)


_CLASSVARS = {k: ClassVar for k in ("MNEMONIC", "TYPES", "TYPES_REF", "SPEC")}


def _scalar_op(name: str, mnemonic: str, types, doc: str, path: str):
    function = TEPL_BY_NAME[mnemonic].function
    cls = type(
        f"{mnemonic[0]}{mnemonic[1:].capitalize()}Op",
        (TileScalarOp,),
        {
            "__doc__": f"``{name}`` — {doc} (TEPL 1/{function}, ``{path}``). Example: "
            f"``%d = {name} %a, %s : !pto.tile<8x16xsi32>, i64``.",
            "name": name,
            "MNEMONIC": mnemonic,
            "TYPES": types,
            "SPEC": path,
            "__annotations__": _CLASSVARS,
        },
    )
    return irdl_op_definition(cls)


def _unary_op(name: str, mnemonic: str, types, ref: str, status: UnaryStatus, doc: str,
              path: str):
    function = TEPL_BY_NAME[mnemonic].function
    cls = type(
        f"{mnemonic[0]}{mnemonic[1:].capitalize()}Op",
        (UnaryTileOp,),
        {
            "__doc__": f"``{name}`` — {doc} (TEPL 0/{function}, ``{path}``). Example: "
            f"``%d = {name} %a : !pto.tile<8x16x{'f32' if TileDataType.FP32 in types else 'si32'}>``.",
            "name": name,
            "MNEMONIC": mnemonic,
            "TYPES": types,
            "TYPES_REF": f"PTO-SPEC 5, {ref}",
            "STATUS": status,
            "SPEC": path,
            "__annotations__": {**_CLASSVARS, "STATUS": ClassVar},
        },
    )
    return irdl_op_definition(cls)


_TS = "asl/tile/tile-scalar-and-immediate"
_A = VEC_ARITH_TYPES
_I = VEC_INT_TYPES
TILE_SCALAR_OPS: list[type[TileScalarOp]] = [
    _scalar_op("pto.tadds", "TADDS", _A, "d = a + s (integers wrap; floats RNE)", f"{_TS}/arithmetic/TADDS.asl"),
    _scalar_op("pto.tsubs", "TSUBS", _A, "d = a - s (tile minus scalar)", f"{_TS}/arithmetic/TSUBS.asl"),
    _scalar_op("pto.tmuls", "TMULS", _A, "d = a * s", f"{_TS}/arithmetic/TMULS.asl"),
    _scalar_op("pto.tdivs", "TDIVS", _A, "d = a / s (integer zero scalar faults)", f"{_TS}/arithmetic/TDIVS.asl"),
    _scalar_op("pto.trems", "TREMS", _A, "d = a floor-mod s (D7, D8)", f"{_TS}/arithmetic/TREMS.asl"),
    _scalar_op("pto.tands", "TANDS", _I, "d = a & s", f"{_TS}/logical/TANDS.asl"),
    _scalar_op("pto.tors", "TORS", _I, "d = a | s", f"{_TS}/logical/TORS.asl"),
    _scalar_op("pto.txors", "TXORS", _I, "d = a ^ s", f"{_TS}/logical/TXORS.asl"),
    _scalar_op("pto.tshls", "TSHLS", _I, "d = a << (s & (W-1))", f"{_TS}/logical/TSHLS.asl"),
    _scalar_op("pto.tshrs", "TSHRS", _I, "d = a >> (s & (W-1)), arithmetic if signed", f"{_TS}/logical/TSHRS.asl"),
    _scalar_op("pto.tmaxs", "TMAXS", _A, "d = max(a, s) (TMAX NaN / signed-zero rules)", f"{_TS}/arithmetic/TMAXS.asl"),
    _scalar_op("pto.tmins", "TMINS", _A, "d = min(a, s) (TMIN NaN / signed-zero rules)", f"{_TS}/arithmetic/TMINS.asl"),
]  # fmt: skip
"""The tile-scalar family (TEPL mode 1, functions 0-12)."""

_EW = "asl/tile/elementwise-tile-tile"
_VA = "TileVecArithmeticDataTypeSupported"
_FE = "TileFloatingElementwiseDataTypeSupported"
UNARY_OPS: list[type[UnaryTileOp]] = [
    _unary_op("pto.tabs", "TABS", _A, _VA, NO_STATUS, "d = |a| (float: sign bit cleared; INT_MIN wraps)", f"{_EW}/logical/TABS.asl"),
    _unary_op("pto.tnot", "TNOT", _I, "TileVecScalarIntegerDataTypeSupported", NO_STATUS, "d = ~a", f"{_EW}/logical/TNOT.asl"),
    _unary_op("pto.tneg", "TNEG", _A, _VA, NO_STATUS, "d = -a (float: sign bit flipped; integers wrap)", f"{_EW}/logical/TNEG.asl"),
    _unary_op("pto.texp", "TEXP", VEC_FLOAT_TYPES, _FE, EXP_STATUS, "d = e^a", f"{_EW}/transcendental/TEXP.asl"),
    _unary_op("pto.tlog", "TLOG", VEC_FLOAT_TYPES, _FE, LOG_STATUS, "d = ln a", f"{_EW}/transcendental/TLOG.asl"),
    _unary_op("pto.trecip", "TRECIP", VEC_FLOAT_TYPES, _FE, RECIP_STATUS, "d = 1 / a", f"{_EW}/transcendental/TRECIP.asl"),
    _unary_op("pto.tsqrt", "TSQRT", VEC_FLOAT_TYPES, _FE, SQRT_STATUS, "d = sqrt(a)", f"{_EW}/transcendental/TSQRT.asl"),
    _unary_op("pto.trsqrt", "TRSQRT", VEC_FLOAT_TYPES, _FE, RSQRT_STATUS, "d = 1 / sqrt(a)", f"{_EW}/transcendental/TRSQRT.asl"),
    _unary_op("pto.trelu", "TRELU", _A, _VA, SNAN_STATUS, "d = max(a, 0) (-0 -> +0, NaN -> canonical NaN)", f"{_EW}/logical/TRELU.asl"),
]  # fmt: skip
"""The unary family (TEPL mode 0, functions 15-23)."""

@irdl_op_definition
class TFmaOp(_TeplElementwise):
    """``pto.tfma`` — d = lhs * rhs + addend with one rounding (TEPL 0/28).

    Semantics (``asl/tile/elementwise-tile-tile/arithmetic/TFMA.asl``)::

        for (i, j) in valid rectangle:
            integers: d = (a * b + c) mod 2^W
            floats:   d = round_RNE(a * b + c)   # exact product, ONE rounding; NaN canonical
        elements outside the valid rectangle <- pad (D9)

    Types: ``TileFusedMultiplyAddDataTypeSupported`` (= TileVecArithmeticDataTypeSupported;
    FP64 by an exact fused emulation, ``interpreter/kernels/ternary.py``). Example::

        %d = pto.tfma %a, %b, %c : !pto.tile<8x16xf32>
    """

    name = "pto.tfma"
    MNEMONIC: ClassVar[str] = "TFMA"
    TYPES: ClassVar[frozenset[TileDataType]] = VEC_ARITH_TYPES
    TYPES_REF: ClassVar[str] = "PTO-SPEC 5, TileFusedMultiplyAddDataTypeSupported"
    SPEC: ClassVar[str] = f"{_EW}/arithmetic/TFMA.asl"
    TILE_ROLES: ClassVar[tuple[str, ...]] = ("lhs", "rhs", "addend")

    lhs = operand_def(TileType)
    rhs = operand_def(TileType)
    addend = operand_def(TileType)
    result = result_def(TileType)


@irdl_op_definition
class TExpandsOp(_TeplElementwise):
    """``pto.texpands`` — d = scalar broadcast over the valid rectangle (TEPL 1/27).

    Semantics (``asl/tile/tile-scalar-and-immediate/initialization/TEXPANDS.asl``)::

        s = low element-width bits of the scalar word (no conversion)
        d[i, j] = s on the valid rectangle; pad outside (D9)

    The block has no tile source (``B.IOT ->dst`` only) and reads the scalar through
    ``B.IOR [a0]``; an omitted B.IOR fills zeros. Example::

        %d = pto.texpands %s : !pto.tile<8x16xf32>, i64
    """

    name = "pto.texpands"
    MNEMONIC: ClassVar[str] = "TEXPANDS"
    TYPES: ClassVar[frozenset[TileDataType]] = VEC_ARITH_TYPES
    TYPES_REF: ClassVar[str] = "PTO-SPEC 5, TEXPANDS.asl"
    SPEC: ClassVar[str] = f"{_TS}/initialization/TEXPANDS.asl"
    TILE_ROLES: ClassVar[tuple[str, ...]] = ()
    SCALAR_ROLES: ClassVar[tuple[str, ...]] = ("scalar",)

    scalar = operand_def()
    result = result_def(TileType)


TERNARY_OPS: list[type[_TeplElementwise]] = [TFmaOp]
"""Three-source elementwise ops."""
FILL_OPS: list[type[_TeplElementwise]] = [TExpandsOp]
"""Tile initialisation from a scalar."""

ELEMENTWISE_FAMILY_OPS: list[type[_TeplElementwise]] = [
    *TILE_SCALAR_OPS, *UNARY_OPS, *TERNARY_OPS, *FILL_OPS
]  # fmt: skip

TeplElementwiseOp = _TeplElementwise
