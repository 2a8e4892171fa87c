"""``pto.map`` — a unary, tile-scalar or fill elementwise op on whole tensors (before tiling).

The kind table :data:`MAP_KINDS` has one row per tile op of the unary and tile-scalar
families (``exp`` -> ``pto.texp``, ``adds`` -> ``pto.tadds`` ...): the kind is the mnemonic
without its leading ``T``, lower case. ``pto-tile-to-capacity`` lowers ``pto.map`` to
``pto.tload`` / the tile op / ``pto.tstore`` over the same cover as ``pto.elementwise``;
the interpreter runs the same kernel on the whole tensor. Semantics are the tile op's
(``docs/ops.md``).

Syntax::

    %r = pto.map exp %a : tensor<64x128xf32>
    %r = pto.map adds signed %a, %s : tensor<100xi32>, i64      // scalar: raw i64 word
    %r = pto.map muls %a, %f : tensor<8x8xf16>, f16             // or the element's float

    %r = pto.map expands %e, %s : tensor<4x16xf32>, f32           // fill: %e gives the shape

Signless integers need ``signed`` / ``unsigned`` (it selects the S/U tile type). The fill
kind ``expands`` (TEXPANDS) reads no element of its tensor operand: the operand only gives
the result's type (as ``linalg.fill``'s ``outs``).
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
    var_operand_def,
)
from xdsl.traits import Pure

from pto_dialect.datatypes import TileDataType
from pto_dialect.elementwise_ops import FILL_OPS, TILE_SCALAR_OPS, UNARY_OPS, TeplElementwiseOp
from pto_dialect.faults import FaultKind
from pto_dialect.ops import PTOOp, type_name
from pto_dialect.syntax import ResultTypeFirst, SignKeyword, Words
from pto_dialect.tensor_ops import floor_mod_dtype, static_shape

TL = FaultKind.TILE_LEGALITY

MAP_KINDS: dict[str, type[TeplElementwiseOp]] = {
    c.MNEMONIC[1:].lower(): c for c in (*UNARY_OPS, *TILE_SCALAR_OPS, *FILL_OPS)
}
"""``pto.map`` kind -> tile op class (one row per op; TF32/HF32 have no tensor type).
``expands`` (TEXPANDS) is the fill: its tensor operand gives only the shape."""


@irdl_op_definition
class MapOp(PTOOp):
    """``pto.map`` — ``r[i] = f(a[i])``, ``r[i] = a[i] <op> s`` or ``r[i] = s`` (module
    docstring)."""

    name = "pto.map"

    source = operand_def(TensorType)
    scalars = var_operand_def()
    result = result_def(TensorType)
    kind = prop_def(StringAttr)
    signedness = opt_prop_def(StringAttr)

    WORD_CHOICES: ClassVar[tuple[str, ...]] = tuple(MAP_KINDS)
    TILE_ROLES: ClassVar[tuple[str, ...]] = ("source",)
    """The operand whose type is the result's (the syntax prints it once)."""
    custom_directives = (Words, SignKeyword, ResultTypeFirst)
    assembly_format = (
        "custom<Words>($kind) custom<SignKeyword>($signedness) operands attr-dict "
        "`:` custom<ResultTypeFirst>(type(operands), type(results))"
    )

    traits = traits_def(Pure())

    def __init__(self, kind: str, source: SSAValue, scalars=(), signedness: str | None = None):
        props: dict[str, Attribute] = {"kind": StringAttr(kind)}
        if signedness:
            props["signedness"] = StringAttr(signedness)
        super().__init__(
            operands=[source, list(scalars)], result_types=[source.type], properties=props
        )

    @property
    def tile_op(self) -> type[TeplElementwiseOp]:
        return MAP_KINDS[self.kind.data]

    @property
    def dtype(self) -> TileDataType:
        dt = floor_mod_dtype(
            self.source.type.element_type,  # type: ignore[union-attr]
            self.signedness.data if self.signedness else None,
            self.tile_op.TYPES,
        )
        assert dt is not None, "verified"
        return dt

    def verify_(self) -> None:
        refs = "PTO-SPEC 5, docs/ops.md"
        if self.kind.data not in MAP_KINDS:
            raise self.fault(TL, f"unknown pto.map kind '{self.kind.data}'", refs)
        cls = self.tile_op
        shape = static_shape(self, "source", self.source.type)
        if not shape:
            raise self.fault(TL, "source must have rank >= 1", refs)
        if self.result.type != self.source.type:
            raise self.fault(TL, "result type must equal the source type", refs)
        elt = self.source.type.element_type  # type: ignore[union-attr]
        sign = self.signedness.data if self.signedness else None
        if sign is not None and sign not in ("signed", "unsigned"):
            raise self.fault(TL, f"signedness '{sign}' must be signed or unsigned", refs)
        if floor_mod_dtype(elt, sign, cls.TYPES) is None:
            allowed = ", ".join(sorted(t.name for t in cls.TYPES))
            raise self.fault(
                TL,
                f"element type {type_name(elt)}{' ' + sign if sign else ''} is not supported by "
                f"{cls.MNEMONIC} (allowed: {allowed}; signless integers need signed/unsigned)",
                refs,
            )
        if len(self.scalars) != len(cls.SCALAR_ROLES):
            raise self.fault(
                TL, f"{self.kind.data} takes {len(cls.SCALAR_ROLES)} scalar operand(s), got "
                f"{len(self.scalars)}", refs,
            )  # fmt: skip
        for s in self.scalars:
            if s.type != i64 and not (isinstance(elt, AnyFloat) and s.type == elt):
                raise self.fault(
                    TL, f"scalar type {type_name(s.type)} must be i64 (a raw word) or the "
                    "element's float type", refs,
                )  # fmt: skip
