"""``pto.convert`` — TCVT on whole tensors (what lowering targets before tiling).

The tensor-level form of :class:`pto_dialect.convert_ops.TCvtOp`: ``arith.truncf`` /
``extf`` / ``fptosi`` / ``fptoui`` / ``sitofp`` / ``uitofp`` / ``extsi`` / ``extui`` /
``trunci`` and ``math.floor`` / ``ceil`` / ``trunc`` / ``roundeven`` followed by a cast map
onto it with the matching ``rmode`` (RTM, RTP, RTZ, RNE) and ``sat``. Semantics are TCVT's
(D20, ``docs/ops.md``); ``pto-tile-to-capacity`` lowers it to ``pto.tload`` / ``pto.tcvt`` /
``pto.tstore`` over the elementwise cover, and the interpreter runs the TCVT kernel on the
whole tensor.

Syntax::

    %r = pto.convert %x {rmode = #pto.rmode<rtm>, sat} : tensor<4x8xf32> -> tensor<4x8xsi16>
    %r = pto.convert %x {dst_sign = "unsigned"} : tensor<4x8xf32> -> tensor<4x8xi8>

Signless integers need ``src_sign`` / ``dst_sign`` (``signed`` or ``unsigned``: it selects
the S/U tile type). Element types: every TileDataType with a tensor element type.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerType, Signedness, StringAttr, TensorType, UnitAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from pto_dialect.attributes import RoundingMode, RoundingModeAttr
from pto_dialect.convert_ops import E8M0_SOURCES, TCvtOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind
from pto_dialect.ops import PTOOp, type_name
from pto_dialect.syntax import DefaultsFirst
from pto_dialect.tensor_ops import floor_mod_dtype, static_shape

TL = FaultKind.TILE_LEGALITY
_TENSOR_TYPES = frozenset(TileDataType) - {TileDataType.TF32, TileDataType.HF32}


def tensor_dtype(elt: Attribute, sign: str | None) -> TileDataType | None:
    """The TileDataType of a tensor element type (signless integers take ``sign``)."""
    return floor_mod_dtype(elt, sign, _TENSOR_TYPES)


@irdl_op_definition
class ConvertOp(PTOOp):
    """``pto.convert`` — ``r[i] = TCVT(x[i], rmode, sat)`` (module docstring)."""

    name = "pto.convert"

    source = operand_def(TensorType)
    result = result_def(TensorType)
    rmode = prop_def(RoundingModeAttr, RoundingModeAttr(RoundingMode.DEFAULT))
    sat = opt_prop_def(UnitAttr)
    src_sign = opt_prop_def(StringAttr)
    dst_sign = opt_prop_def(StringAttr)

    traits = traits_def(Pure())

    PROPERTY_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "rmode": RoundingModeAttr(RoundingMode.DEFAULT)
    }

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (DefaultsFirst,)
    assembly_format = (
        "custom<DefaultsFirst>() $source attr-dict `:` type($source) `->` type($result)"
    )

    def __init__(self, source: SSAValue, result_type: Attribute, *,
                 rmode: RoundingMode = RoundingMode.DEFAULT, sat: bool = False,
                 src_sign: str | None = None, dst_sign: str | None = None):  # fmt: skip
        props: dict[str, Attribute] = {"rmode": RoundingModeAttr(rmode)}
        if sat:
            props["sat"] = UnitAttr()
        if src_sign:
            props["src_sign"] = StringAttr(src_sign)
        if dst_sign:
            props["dst_sign"] = StringAttr(dst_sign)
        super().__init__(operands=[source], result_types=[result_type], properties=props)

    def _sign(self, which: str) -> str | None:
        a = getattr(self, which)
        return a.data if a is not None else None

    @property
    def dtype(self) -> TileDataType:
        dt = tensor_dtype(self.source.type.element_type, self._sign("src_sign"))  # type: ignore[union-attr]
        assert dt is not None, "verified"
        return dt

    @property
    def result_dtype(self) -> TileDataType:
        dt = tensor_dtype(self.result.type.element_type, self._sign("dst_sign"))  # type: ignore[union-attr]
        assert dt is not None, "verified"
        return dt

    def verify_(self) -> None:
        refs = f"PTO-SPEC 5, {TCvtOp.SPEC}"
        shape = static_shape(self, "source", self.source.type)
        rshape = static_shape(self, "result", self.result.type)
        if not shape or shape != rshape:
            raise self.fault(TL, f"result: shape {rshape} must equal the source's {shape} "
                             "(rank >= 1)", refs)  # fmt: skip
        found = {}
        for role, v, which in (("source", self.source, "src_sign"),
                               ("result", self.result, "dst_sign")):  # fmt: skip
            elt = v.type.element_type  # type: ignore[union-attr]
            sign = self._sign(which)
            if sign is not None and sign not in ("signed", "unsigned"):
                raise self.fault(TL, f"{which}: '{sign}' must be signed or unsigned", refs)
            if isinstance(elt, IntegerType) and elt.signedness.data is not Signedness.SIGNLESS \
                    and sign is not None:
                raise self.fault(TL, f"{which}: {type_name(elt)} already has a signedness", refs)
            dt = tensor_dtype(elt, sign)
            if dt is None:
                hint = " (signless integers need signed/unsigned)" if isinstance(
                    elt, IntegerType) else ""
                raise self.fault(TL, f"{role}: element type {type_name(elt)} has no TCVT "
                                 f"tile type{hint}", refs)  # fmt: skip
            found[role] = dt
        if found["result"] is TileDataType.E8M0 and found["source"] not in E8M0_SOURCES:
            raise self.fault(TL, f"source: an E8M0 destination takes FP16, BF16 or FP32 "
                             f"sources, not {found['source'].asm}",
                             f"HardwareTCVTTypePairSupported, {TCvtOp.SPEC}")  # fmt: skip


TENSOR_CONVERT_OPS = [ConvertOp]
