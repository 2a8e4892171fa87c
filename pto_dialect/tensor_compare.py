"""``pto.cmpsel`` — compare then select on whole tensors (before tiling): TCMP(S) + TSEL(S).

``r[i] = (a[i] <mode> b[i]) ? t[i] : f[i]`` where ``b`` and ``f`` may be scalars (TCMPS /
TSELS: an ``i64`` raw word or a float of the element type). The predicate never leaves the
tile loop: ``pto-tile-to-capacity`` lowers one ``pto.cmpsel`` to ``tload``s, ``pto.tcmp`` or
``pto.tcmps``, ``pto.tsel`` or ``pto.tsels`` and ``pto.tstore`` per tile (there is no
tensor-level predicate: a predicate tile is not loadable from memory). This is the target of
``arith.cmpf`` / ``cmpi`` + ``arith.select`` patterns (e.g. NaN-exact max / min, D18).
Semantics: the tile ops' (``docs/predicates.md``).

Syntax::

    %r = pto.cmpsel lt %a, %b, %t, %f : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %r = pto.cmpsel gt signed %a, %s, %a, %z : (tensor<8x8xi32>, i64, tensor<8x8xi32>, i64) -> tensor<8x8xi32>

Signless integer tensors need ``signed`` / ``unsigned`` for the comparison (the selected data
is copied bit for bit, so its signedness does not matter).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, StringAttr, TensorType, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from pto_dialect.compare_ops import CompareMode, TSelOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind
from pto_dialect.ops import PTOOp, type_name
from pto_dialect.syntax import FunctionType, SignKeyword, Words
from pto_dialect.tensor_ops import floor_mod_dtype, static_shape

TL = FaultKind.TILE_LEGALITY
_REFS = "docs/predicates.md"


@irdl_op_definition
class CmpSelOp(PTOOp):
    """``pto.cmpsel`` — ``r = (a <mode> b) ? t : f`` on tensors (module docstring)."""

    name = "pto.cmpsel"

    lhs = operand_def()
    rhs = operand_def()
    on_true = operand_def(TensorType)
    on_false = operand_def()
    result = result_def(TensorType)
    mode = prop_def(StringAttr)
    signedness = opt_prop_def(StringAttr)

    traits = traits_def(Pure())

    WORD_CHOICES: ClassVar[tuple[str, ...]] = tuple(m.value for m in CompareMode)
    custom_directives = (Words, SignKeyword, FunctionType)
    assembly_format = (
        "custom<Words>($mode) custom<SignKeyword>($signedness) $lhs `,` $rhs `,` $on_true `,` "
        "$on_false attr-dict `:` custom<FunctionType>(type(operands), type(results))"
    )

    def __init__(self, mode: str, lhs: SSAValue, rhs: SSAValue, on_true: SSAValue,
                 on_false: SSAValue, signedness: str | None = None,
                 result_type: Attribute | None = None):  # fmt: skip
        props: dict[str, Attribute] = {"mode": StringAttr(mode)}
        if signedness:
            props["signedness"] = StringAttr(signedness)
        super().__init__(operands=[lhs, rhs, on_true, on_false],
                         result_types=[result_type or on_true.type], properties=props)  # fmt: skip

    @property
    def scalar_rhs(self) -> bool:
        return not isinstance(self.rhs.type, TensorType)

    @property
    def scalar_false(self) -> bool:
        return not isinstance(self.on_false.type, TensorType)

    @property
    def compare_dtype(self) -> TileDataType:
        sign = self.signedness.data if self.signedness else None
        dt = floor_mod_dtype(self.lhs.type.element_type, sign, TSelOp.TYPES)  # type: ignore[union-attr]
        assert dt is not None, "verified"
        return dt

    @property
    def data_dtype(self) -> TileDataType:
        dt = floor_mod_dtype(self.on_true.type.element_type, "signed", TSelOp.TYPES)  # type: ignore[union-attr]
        assert dt is not None, "verified"
        return dt

    def verify_(self) -> None:
        if self.mode.data not in CompareMode._value2member_map_:
            raise self.fault(TL, f"unknown comparison '{self.mode.data}'", _REFS)
        sign = self.signedness.data if self.signedness else None
        if sign is not None and sign not in ("signed", "unsigned"):
            raise self.fault(TL, f"signedness '{sign}' must be signed or unsigned", _REFS)
        shape = static_shape(self, "lhs", self.lhs.type)
        if not shape:
            raise self.fault(TL, "lhs must have rank >= 1", _REFS)
        for role, v, scalar_ok in (("rhs", self.rhs, True), ("on_true", self.on_true, False),
                                   ("on_false", self.on_false, True)):  # fmt: skip
            if isinstance(v.type, TensorType) or not scalar_ok:
                if static_shape(self, role, v.type) != shape:
                    raise self.fault(TL, f"{role}: shape {type_name(v.type)} differs from lhs's",
                                     _REFS)  # fmt: skip
        a, d = self.lhs.type, self.on_true.type
        if floor_mod_dtype(a.element_type, sign, TSelOp.TYPES) is None:  # type: ignore[union-attr]
            raise self.fault(TL, f"lhs: element type {type_name(a.element_type)}"  # type: ignore[union-attr]
                             f"{' ' + sign if sign else ''} is not supported by TCMP (the "
                             "TileCompareDataTypeSupported types; signless integers need "
                             "signed/unsigned)", _REFS)  # fmt: skip
        if floor_mod_dtype(d.element_type, "signed", TSelOp.TYPES) is None:  # type: ignore[union-attr]
            raise self.fault(TL, f"on_true: element type {type_name(d.element_type)} is not "  # type: ignore[union-attr]
                             "supported by TSEL (TileSelectDataTypeSupported)", _REFS)  # fmt: skip
        if not self.scalar_rhs and self.rhs.type != a:
            raise self.fault(TL, "rhs must have lhs's type", _REFS)
        if not self.scalar_false and self.on_false.type != d:
            raise self.fault(TL, "on_false must have on_true's type", _REFS)
        if self.result.type != d:
            raise self.fault(TL, "the result type must equal on_true's type", _REFS)
        for role, v, elt in (("rhs", self.rhs, a.element_type),  # type: ignore[union-attr]
                             ("on_false", self.on_false, d.element_type)):  # type: ignore[union-attr]
            if isinstance(v.type, TensorType):
                continue
            if v.type != i64 and not (isinstance(elt, AnyFloat) and v.type == elt):
                raise self.fault(TL, f"{role}: scalar type {type_name(v.type)} must be i64 (a "
                                 "raw word) or the element's float type", _REFS)  # fmt: skip
