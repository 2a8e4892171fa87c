"""Tensor-level PTO operations: what ``convert-linalg-to-pto`` recognises, before tiling.

These two ops carry the meaning of a whole linalg computation on (static, ranked) tensors,
with no tiles yet. ``pto-tile-to-capacity`` rewrites them into ``pto.tload`` / TREM or
TGEMV_MX_BIAS / ``pto.tstore`` programs whose tiles fit the capacity (D14). Running a
program at either stage gives the same answer (bit-exact for ``pto.floor_mod``; within the
D4 ``exact`` bound, plus one FP32 rounding per K chunk, for ``pto.gemv``).

* ``pto.gemv`` — a row vector times a matrix, MX-scaled or not, plus bias, ReLU and an
  FP32 -> FP16/BF16 output conversion (the subset of TGEMV_MX_BIAS post-processing the
  lowering folds: PTO-SPEC 3.3, 4; D1-D4).
* ``pto.matmul`` — an M x K by K x N matrix product (MX-scaled or FP16/BF16), optionally
  accumulated into an FP32 ``acc`` tensor (TMATMUL(_MX)(_ACC), PTO-SPEC 3.1; D1-D4).
* ``pto.floor_mod`` — elementwise floor modulo (TREM, PTO-SPEC 5; D6-D8).
* ``pto.elementwise`` — the binary siblings of TREM: add, sub, mul, div, and, or, xor, shl, shr,
  max, min (TADD TSUB TMUL TDIV TAND TOR TXOR TMAX TMIN, PTO-SPEC 5).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from pto_dialect.attributes import tile_dtype_of
from pto_dialect.datatypes import (
    MX_BLOCK,
    MX_INPUT_TYPES,
    TREM_TYPES,
    TileDataType,
    mx_needs_scale,
)
from pto_dialect.faults import FaultKind
from pto_dialect.ops import BINARY_OPS, PTOOp, type_name
from pto_dialect.syntax import ResultTypeFirst, SignKeyword, Words

TL = FaultKind.TILE_LEGALITY

GEMV_OUTPUT_TYPES = (TileDataType.FP32, TileDataType.FP16, TileDataType.BF16)
"""Result element types ``pto.gemv`` supports: FP32 (PreQuantMode 0), FP16 (F322F16, mode 1)
and BF16 (F322BF16, mode 16) — the FP32-accumulator conversions with no parameter (D11)."""


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def mx_dtype_of(elt: Attribute) -> TileDataType | None:
    """The MX input TileDataType an IR element type denotes (D2), or None."""
    dt = tile_dtype_of(elt)
    return dt if dt in MX_INPUT_TYPES else None


ORDINARY_CUBE_TYPES = frozenset(
    {
        TileDataType.FP32, TileDataType.FP16, TileDataType.BF16,
        TileDataType.S8, TileDataType.U8, TileDataType.S16, TileDataType.U16,
    }
)  # fmt: skip
"""Ordinary (non-MX) TGEMV/TMATMUL inputs that have a tensor element type (PTO-SPEC 1,
``matrix-shape.asl``): FP32, FP16, BF16 (FP32 accumulator) and S8/U8/S16/U16 (S32/U32
accumulator). TF32/HF32/HiF8/FP8/FP6/FP4 ordinary forms have no tensor spelling here."""


def cube_dtype_of(elt: Attribute) -> TileDataType | None:
    """The CUBE input TileDataType of a tensor element type: the MX types (D2) and the
    ordinary ones; a signless ``i8``/``i16`` is signed (upstream linalg's ``cast_signed``)."""
    if isinstance(elt, IntegerType) and elt.signedness.data is Signedness.SIGNLESS:
        elt = IntegerType(elt.width.data, Signedness.SIGNED)
    dt = tile_dtype_of(elt)
    return dt if dt in MX_INPUT_TYPES | ORDINARY_CUBE_TYPES else None


def result_dtype_of(elt: Attribute) -> TileDataType | None:
    """A contraction result's TileDataType; a signless ``i32`` is the S32 accumulator."""
    if isinstance(elt, IntegerType) and elt.signedness.data is Signedness.SIGNLESS:
        elt = IntegerType(elt.width.data, Signedness.SIGNED)
    return tile_dtype_of(elt)


def cube_accumulator(a: TileDataType, b: TileDataType, scaled: bool) -> TileDataType | None:
    """FP32 for the MX pairs (D3); the ordinary pair's ``TileMatrixAccumulatorDataType``
    when both sides are ordinary and of one class (PTO-SPEC 1); None otherwise."""
    if scaled or (a in MX_INPUT_TYPES and b in MX_INPUT_TYPES):
        return TileDataType.FP32 if a in MX_INPUT_TYPES and b in MX_INPUT_TYPES else None
    if a in ORDINARY_CUBE_TYPES and b in ORDINARY_CUBE_TYPES and a.klass is b.klass:
        if a.is_integer and a.is_signed != b.is_signed:
            return None
        return a.accumulator
    return None


def _verify_cube_types(op, a_scale, b_scale) -> TileDataType:
    """Both inputs a legal MX or ordinary CUBE type (D2, PTO-SPEC 1); returns the
    accumulator type (FP32, S32 or U32)."""
    dts = {}
    for role, val in (("a", op.a), ("b", op.b)):
        elt = val.type.element_type  # type: ignore[union-attr]
        dt = cube_dtype_of(elt)
        if dt is None:
            raise op.fault(
                TL,
                f"{role}: element type {type_name(elt)} is not a CUBE input type (MX: f16, "
                "bf16, f8E4M3FN, f8E5M2, f4E2M1FN, !pto.e1m2x2; ordinary: f32, f16, bf16, "
                "i8/si8/ui8, i16/si16/ui16)",
                "PTO-SPEC 1, D2",
            )
        dts[role] = dt
    acc = cube_accumulator(dts["a"], dts["b"], a_scale is not None or b_scale is not None)
    if acc is None:
        raise op.fault(
            TL,
            f"a {dts['a'].name} and b {dts['b'].name}: neither an MX pair (D2) nor an ordinary "
            "pair of one class",
            "PTO-SPEC 1, D2",
        )
    return acc




def floor_mod_dtype(
    elt: Attribute, signedness: str | None, types: frozenset[TileDataType] = TREM_TYPES
) -> TileDataType | None:
    """The TREM TileDataType of a tensor element type (signless ``iN`` takes ``signedness``).

    Returns None when the type is outside ``types`` (by default the D6 set).
    """
    if isinstance(elt, IntegerType) and elt.signedness.data is Signedness.SIGNLESS:
        if signedness not in ("signed", "unsigned"):
            return None
        sg = Signedness.SIGNED if signedness == "signed" else Signedness.UNSIGNED
        elt = IntegerType(elt.width.data, sg)
    dt = tile_dtype_of(elt)
    return dt if dt in types else None


def static_shape(op: PTOOp, role: str, t: Attribute) -> tuple[int, ...]:
    if not isinstance(t, TensorType):
        raise op.fault(TL, f"{role} must be a ranked tensor, got {type_name(t)}", "docs/lowering.md")
    shape = tuple(t.get_shape())
    if any(d < 0 for d in shape):
        raise op.fault(TL, f"{role}: shape must be static, got {type_name(t)}", "docs/lowering.md")
    return shape


def _vector_shape_ok(shape: tuple[int, ...], n: int) -> bool:
    """``[n]`` or ``[1, n]``."""
    return shape == (n,) or shape == (1, n)


def _print_contraction(op, printer: Printer, attrs: dict[str, Attribute]) -> None:
    """``%a, %b [role %v]... [{attrs}] : (types) -> type``: pto.gemv's and pto.matmul's syntax."""
    printer.print_string(" ")
    printer.print_operand(op.a)
    printer.print_string(", ")
    printer.print_operand(op.b)
    for role in op.OPTIONAL_ROLES:
        v = getattr(op, role)
        if v is not None:
            printer.print_string(f" {role} ")
            printer.print_operand(v)
    if attrs:
        printer.print_string(" ")
        printer.print_attr_dict(attrs)
    printer.print_string(" : ")
    printer.print_function_type([o.type for o in op.operands], [op.result.type])


def _parse_contraction(cls, parser: Parser):
    """Parse :func:`_print_contraction`'s syntax: (values by role, attributes, result type)."""
    a = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    b = parser.parse_unresolved_operand()
    opt: dict[str, object] = {}
    while True:
        pos = parser.pos
        kw = next(
            (r for r in cls.OPTIONAL_ROLES if parser.parse_optional_keyword(r) is not None),
            None,
        )
        if kw is None:
            break
        if kw in opt:
            parser.raise_error(f"operand '{kw}' given twice", pos, parser.pos)
        opt[kw] = parser.parse_unresolved_operand()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    pos = parser.pos
    ft = parser.parse_function_type()
    present = ["a", "b", *(r for r in cls.OPTIONAL_ROLES if r in opt)]
    if len(ft.inputs.data) != len(present) or len(ft.outputs.data) != 1:
        parser.raise_error(
            f"expected {len(present)} operand types and 1 result type", pos, parser.pos
        )
    unresolved = {"a": a, "b": b, **opt}
    vals = {
        r: parser.resolve_operand(unresolved[r], t)  # type: ignore[arg-type]
        for r, t in zip(present, ft.inputs.data)
    }
    return vals, attrs, ft.outputs.data[0]


class _ContractionOp(PTOOp):
    """What ``pto.gemv`` and ``pto.matmul`` share: their syntax (``%a, %b [role %v]...``,
    roles from ``OPTIONAL_ROLES``) and the facts derived from their operand types."""

    OPTIONAL_ROLES: ClassVar[tuple[str, ...]] = ()

    def print(self, printer: Printer) -> None:
        attrs = dict(self.attributes)
        if self.relu is not None:
            attrs["relu"] = UnitAttr()
        _print_contraction(self, printer, attrs)

    @classmethod
    def parse(cls, parser: Parser):
        vals, attrs, result_type = _parse_contraction(cls, parser)
        relu = attrs.pop("relu", None)
        if relu is not None and not isinstance(relu, UnitAttr):
            parser.raise_error("'relu' is a unit attribute")
        op = cls(vals["a"], vals["b"], result_type, relu=relu is not None,
                 **{r: vals.get(r) for r in cls.OPTIONAL_ROLES})
        op.attributes.update(attrs)
        return op

    @property
    def k(self) -> int:
        return self.b.type.get_shape()[0]  # type: ignore[union-attr]

    @property
    def n(self) -> int:
        return self.b.type.get_shape()[1]  # type: ignore[union-attr]

    @property
    def a_dtype(self) -> TileDataType:
        return cube_dtype_of(self.a.type.element_type)  # type: ignore[union-attr,return-value]

    @property
    def b_dtype(self) -> TileDataType:
        return cube_dtype_of(self.b.type.element_type)  # type: ignore[union-attr,return-value]

    @property
    def out_dtype(self) -> TileDataType:
        return result_dtype_of(self.result.type.element_type)  # type: ignore[union-attr,return-value]

    @property
    def acc_dtype(self) -> TileDataType:
        """The accumulator: FP32 (MX and ordinary floats, D3) or S32/U32 (integers)."""
        acc = cube_accumulator(self.a_dtype, self.b_dtype, self.a_scale is not None or self.b_scale is not None)
        assert acc is not None, "verified"
        return acc

    @property
    def has_relu(self) -> bool:
        return self.relu is not None


@irdl_op_definition
class GemvOp(_ContractionOp):
    """``pto.gemv`` — tensor-level MX matrix-vector product with bias, ReLU and conversion.

    Semantics (PTO-SPEC 4, D1-D4; the real-number meaning of TGEMV_MX_BIAS)::

        K = a.size; N = b.shape[1]; sa, sb = a_scale, b_scale (absent: 1)
        for j in 0 .. N-1:
            acc[j] = sum_{k < K} (a[k] * sa[k / 32]) * (b[k, j] * sb[k / 32, j])
                     + (bias[j] if bias else 0)             # exact, rounded once to FP32
            if relu: acc[j] = max(acc[j], 0)
            result[j] = convert(acc[j], result element type)  # FP32, or RNE to FP16 / BF16

    Operands: ``a`` ``tensor<K>`` or ``tensor<1xK>``; ``b`` ``tensor<KxN>``; element types in
    {f16, bf16, f8E4M3FN, f8E5M2, f4E2M1FN, !pto.e1m2x2} (D2), the two sides may differ; or
    an ordinary pair of one class (PTO-SPEC 1): f32/f16/bf16 (FP32 accumulator), i8/i16
    (signed) or ui8/ui16 (S32/U32 accumulator: result i32 / ui32, no bias, no relu).
    ``a_scale`` (``tensor<ceil(K/32)>`` / ``tensor<1xceil(K/32)>``) and ``b_scale``
    (``tensor<ceil(K/32)xN>``) are ``f8E8M0FNU`` and present **exactly when** their side is
    not f16/bf16 (D1, D2). ``bias`` is ``f32``, ``tensor<N>`` or ``tensor<1xN>`` (D3); absent
    means zero. The result has a's rank (``tensor<N>`` or ``tensor<1xN>``) and element type
    f32, f16 (F322F16) or bf16 (F322BF16). ``relu`` applies ReLU before the conversion, as
    B.FPATR ReluMode 1 does (PTO-SPEC 3.3).

    Example::

        %d = pto.gemv %a, %b a_scale %as b_scale %bs bias %bias {relu}
            : (tensor<4096xf8E4M3FN>, tensor<4096x1024xf8E4M3FN>, tensor<128xf8E8M0FNU>,
               tensor<128x1024xf8E8M0FNU>, tensor<1024xf32>) -> tensor<1024xf16>
    """

    name = "pto.gemv"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    a_scale = opt_operand_def(TensorType)
    b_scale = opt_operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    result = result_def(TensorType)
    relu = opt_prop_def(UnitAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    OPTIONAL_ROLES: ClassVar[tuple[str, ...]] = ("a_scale", "b_scale", "bias")

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        result_type: Attribute,
        *,
        a_scale: SSAValue | None = None,
        b_scale: SSAValue | None = None,
        bias: SSAValue | None = None,
        relu: bool = False,
    ):
        super().__init__(
            operands=[
                a,
                b,
                [a_scale] if a_scale is not None else [],
                [b_scale] if b_scale is not None else [],
                [bias] if bias is not None else [],
            ],
            result_types=[result_type],
            properties={"relu": UnitAttr()} if relu else {},
        )

    def verify_(self) -> None:
        refs = "PTO-SPEC 4, D1, D2, D3"
        a_shape = static_shape(self, "a", self.a.type)
        b_shape = static_shape(self, "b", self.b.type)
        if len(b_shape) != 2:
            raise self.fault(TL, f"b must be a KxN matrix, got {type_name(self.b.type)}", refs)
        k, n = b_shape
        if k < 1 or n < 1:
            raise self.fault(TL, f"b: K and N must be positive, got {k}x{n}", refs)
        if not (a_shape == (k,) or a_shape == (1, k)):
            raise self.fault(
                TL, f"a must be tensor<{k}> or tensor<1x{k}> (K = b's rows), got {type_name(self.a.type)}", refs
            )
        nb = _ceil(k, MX_BLOCK)
        for role, val, scale, scale_shapes in (
            ("a", self.a, self.a_scale, ((nb,), (1, nb)) if len(a_shape) == 1 else ((1, nb),)),
            ("b", self.b, self.b_scale, ((nb, n),)),
        ):
            elt = val.type.element_type  # type: ignore[union-attr]
            dt = cube_dtype_of(elt)
            if dt is None:
                raise self.fault(
                    TL,
                    f"{role}: element type {type_name(elt)} is not a CUBE input type (MX: f16, "
                    "bf16, f8E4M3FN, f8E5M2, f4E2M1FN, !pto.e1m2x2; ordinary: f32, f16, bf16, "
                    "i8/si8/ui8, i16/si16/ui16)",
                    "PTO-SPEC 1, D2",
                )
            if dt not in MX_INPUT_TYPES:
                if scale is not None:
                    raise self.fault(TL, f"{role}_scale must be absent: {dt.name} is an ordinary CUBE type", "D2")
                continue
            if mx_needs_scale(dt) and scale is None:
                raise self.fault(TL, f"{role}_scale is required: {dt.name} carries an E8M0 scale", "D2")
            if not mx_needs_scale(dt) and scale is not None:
                raise self.fault(TL, f"{role}_scale must be absent: {dt.name} carries no scale", "D2")
            if scale is not None:
                s_shape = static_shape(self, f"{role}_scale", scale.type)
                s_elt = scale.type.element_type  # type: ignore[union-attr]
                if tile_dtype_of(s_elt) is not TileDataType.E8M0:
                    raise self.fault(TL, f"{role}_scale: element type {type_name(s_elt)} must be f8E8M0FNU", "D1")
                if s_shape not in scale_shapes:
                    want = " or ".join("x".join(map(str, s)) for s in scale_shapes)
                    raise self.fault(
                        TL,
                        f"{role}_scale: shape {'x'.join(map(str, s_shape))} must be {want} "
                        f"(one scale per {MX_BLOCK} K elements)",
                        "D1",
                    )
        acc = _verify_cube_types(self, self.a_scale, self.b_scale)
        if self.bias is not None:
            if acc is not TileDataType.FP32:
                raise self.fault(TL, f"bias: only FP32-accumulator GEMVs take one (accumulator {acc.name})", "D3")
            bias_shape = static_shape(self, "bias", self.bias.type)
            bias_elt = self.bias.type.element_type  # type: ignore[union-attr]
            if tile_dtype_of(bias_elt) is not TileDataType.FP32:
                raise self.fault(TL, f"bias: element type {type_name(bias_elt)} must be f32", "D3")
            if not _vector_shape_ok(bias_shape, n):
                raise self.fault(TL, f"bias must be tensor<{n}> or tensor<1x{n}>", "PTO-SPEC 4")
        r_shape = static_shape(self, "result", self.result.type)
        want_r = (n,) if len(a_shape) == 1 else (1, n)
        if r_shape != want_r:
            raise self.fault(
                TL, f"result shape {'x'.join(map(str, r_shape))} must be {'x'.join(map(str, want_r))}", refs
            )
        r_elt = self.result.type.element_type  # type: ignore[union-attr]
        if acc is not TileDataType.FP32:
            if result_dtype_of(r_elt) is not acc or self.has_relu:
                raise self.fault(
                    TL, f"result element type {type_name(r_elt)} must be the {acc.name} accumulator (no relu)",
                    "PTO-SPEC 3.3, D11",
                )
            return
        if tile_dtype_of(r_elt) not in GEMV_OUTPUT_TYPES:
            raise self.fault(
                TL,
                f"result element type {type_name(r_elt)} must be f32, f16 or bf16 "
                "(PreQuantMode 0, 1 or 16)",
                "PTO-SPEC 3.3, D3, D11",
            )


@irdl_op_definition
class FloorModOp(PTOOp):
    """``pto.floor_mod`` — elementwise floor modulo of two tensors (TREM's meaning).

    Semantics (PTO-SPEC 5, D7, D8)::

        for every index i:
            signed:   r = a[i] - trunc(a[i] / b[i]) * b[i]; if r != 0 and sign(r) != sign(b[i]):
                      r += b[i]            (INT_MIN mod -1 = 0; a zero divisor is a fault)
            unsigned: r = a[i] % b[i]      (a zero divisor is a fault)
            float:    r = fmod(a[i], b[i]); if r != 0 and sign(r) != sign(b[i]): r += b[i]
                      (rounded once; a zero result keeps a's sign; b = +-0 gives NaN)
            result[i] = r

    Operands and result: one static ranked tensor type (rank >= 1), element type in the D6
    set — f32, f16, bf16, or 32/16-bit integers. Signless integers (``i32``, ``i16``, what
    upstream MLIR uses) need the ``signed`` or ``unsigned`` keyword; ``si``/``ui`` types may
    repeat their own signedness; floats take none.

    Example::

        %r = pto.floor_mod signed %a, %b : tensor<1000x777xi32>
    """

    name = "pto.floor_mod"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    signedness = opt_prop_def(StringAttr)

    traits = traits_def(Pure())

    TILE_ROLES: ClassVar[tuple[str, ...]] = ("lhs", "rhs")
    """The operands whose type is the result's (the syntax prints it once)."""
    custom_directives = (SignKeyword, ResultTypeFirst)
    assembly_format = (
        "custom<SignKeyword>($signedness) $lhs `,` $rhs attr-dict "
        "`:` custom<ResultTypeFirst>(type(operands), type(results))"
    )

    def __init__(self, lhs: SSAValue, rhs: SSAValue, signedness: str | None = None):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[lhs.type],
            properties={"signedness": StringAttr(signedness)} if signedness else {},
        )

    @property
    def signedness_kind(self) -> str | None:
        return self.signedness.data if self.signedness is not None else None

    @property
    def dtype(self) -> TileDataType:
        """The TREM TileDataType of the elements (signless integers resolved)."""
        dt = floor_mod_dtype(self.lhs.type.element_type, self.signedness_kind)  # type: ignore[union-attr]
        assert dt is not None, "verified"
        return dt

    def verify_(self) -> None:
        _verify_elementwise(self, TREM_TYPES, "PTO-SPEC 5, D6")


def _verify_elementwise(op, types: frozenset[TileDataType], refs: str) -> None:
    """Shared legality of the elementwise tensor ops: one static type, rank >= 1, the
    signedness keyword exactly where a signless integer needs one, an element type in
    ``types``."""
    shape = static_shape(op, "lhs", op.lhs.type)
    if not shape:
        raise op.fault(TL, "operands must have rank >= 1", refs)
    for role, v in (("rhs", op.rhs), ("result", op.result)):
        if v.type != op.lhs.type:
            raise op.fault(
                TL, f"{role} type {type_name(v.type)} differs from lhs {type_name(op.lhs.type)}", refs
            )
    elt = op.lhs.type.element_type
    sign = op.signedness_kind
    if sign is not None and sign not in ("signed", "unsigned"):
        raise op.fault(TL, f"signedness '{sign}' must be signed or unsigned", refs)
    if isinstance(elt, AnyFloat) and sign is not None:
        raise op.fault(TL, f"float elements take no signedness, got {sign}", refs)
    if isinstance(elt, IntegerType):
        s = elt.signedness.data
        if s is Signedness.SIGNLESS and sign is None:
            raise op.fault(TL, f"signless {type_name(elt)} needs 'signed' or 'unsigned'", refs)
        if s is not Signedness.SIGNLESS and sign is not None and (
            (s is Signedness.SIGNED) != (sign == "signed")
        ):
            raise op.fault(TL, f"{type_name(elt)} contradicts '{sign}'", refs)
    if floor_mod_dtype(elt, sign, types) is None:
        allowed = ", ".join(sorted(t.name for t in types))
        raise op.fault(TL, f"element type {type_name(elt)} is not supported (allowed: {allowed})", refs)


ELEMENTWISE_KINDS: dict[str, str] = {
    "add": "TADD",
    "sub": "TSUB",
    "mul": "TMUL",
    "div": "TDIV",
    "and": "TAND",
    "or": "TOR",
    "xor": "TXOR",
    "shl": "TSHL",
    "shr": "TSHR",
    "max": "TMAX",
    "min": "TMIN",
}
"""``pto.elementwise`` kinds and the TEPL instruction each one is (PTO-SPEC 5)."""

ELEMENTWISE_TYPES: dict[str, frozenset[TileDataType]] = {
    kind: next(c.TYPES for c in BINARY_OPS if c.MNEMONIC == m)
    - {TileDataType.TF32, TileDataType.HF32}
    for kind, m in ELEMENTWISE_KINDS.items()
}
"""Element types of each kind: its tile op's set (TileVecArithmeticDataTypeSupported; the
integers only for and/or/xor) without TF32 and HF32, which have no tensor element type."""


@irdl_op_definition
class ElementwiseOp(PTOOp):
    """``pto.elementwise`` — a binary elementwise op of the TREM family on whole tensors.

    Semantics (PTO-SPEC 5; ``interpreter/kernels/elementwise.py`` rows), for every index i::

        add / sub / mul: r = a[i] op b[i]   (integers wrap to the width; floats IEEE, RNE)
        and / or / xor: bitwise on the element width; integers only
        shl / shr: shift by the low log2(W) bits of b (shr arithmetic when signed); integers
        div:  floats IEEE (x/0 = +-inf or NaN); integers truncate toward zero, signed
              INT_MIN / -1 = INT_MIN, an integer zero divisor is Fault_TileLegality
        max / min: integers by signedness; floats: one NaN -> the other operand, two NaNs
              -> NaN, max(+0, -0) = +0 and min(+0, -0) = -0 (IEEE maxNum / minNum)

    Operands and result: one static ranked tensor type (rank >= 1), element type in
    TileVecArithmeticDataTypeSupported. Signless integers need ``signed`` or ``unsigned``
    (it selects the S/U tile type: it matters for div, max and min).

    Example::

        %r = pto.elementwise max unsigned %a, %b : tensor<100x7xi16>
    """

    name = "pto.elementwise"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    kind = prop_def(StringAttr)
    signedness = opt_prop_def(StringAttr)

    traits = traits_def(Pure())

    WORD_CHOICES: ClassVar[tuple[str, ...]] = tuple(ELEMENTWISE_KINDS)
    TILE_ROLES: ClassVar[tuple[str, ...]] = ("lhs", "rhs")
    """The operands whose type is the result's (the syntax prints it once)."""
    custom_directives = (Words, SignKeyword, ResultTypeFirst)
    assembly_format = (
        "custom<Words>($kind) custom<SignKeyword>($signedness) $lhs `,` $rhs attr-dict "
        "`:` custom<ResultTypeFirst>(type(operands), type(results))"
    )

    def __init__(self, kind: str, lhs: SSAValue, rhs: SSAValue, signedness: str | None = None):
        props: dict[str, Attribute] = {"kind": StringAttr(kind)}
        if signedness:
            props["signedness"] = StringAttr(signedness)
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type], properties=props)

    @property
    def signedness_kind(self) -> str | None:
        return self.signedness.data if self.signedness is not None else None

    @property
    def mnemonic(self) -> str:
        """The TEPL instruction: ``TADD`` ... ``TMIN``."""
        return ELEMENTWISE_KINDS[self.kind.data]

    @property
    def dtype(self) -> TileDataType:
        dt = floor_mod_dtype(
            self.lhs.type.element_type,  # type: ignore[union-attr]
            self.signedness_kind,
            ELEMENTWISE_TYPES[self.kind.data],
        )
        assert dt is not None, "verified"
        return dt

    def verify_(self) -> None:
        refs = "PTO-SPEC 5"
        if self.kind.data not in ELEMENTWISE_KINDS:
            raise self.fault(
                TL, f"unknown elementwise kind '{self.kind.data}' ({', '.join(ELEMENTWISE_KINDS)})", refs
            )
        _verify_elementwise(self, ELEMENTWISE_TYPES[self.kind.data], refs)


@irdl_op_definition
class MatmulOp(_ContractionOp):
    """``pto.matmul`` — tensor-level matrix product, MX-scaled or not, optionally accumulated.

    Semantics (PTO-SPEC 3.1, 4; D1-D4; the real-number meaning of TMATMUL(_MX)(_ACC))::

        for i < M, j < N:
            result[i, j] = (acc[i, j] if acc else 0) + (bias[j] if bias else 0)
                           + sum_{k < K} (a[i,k] * sa[i, k/32]) * (b[k,j] * sb[k/32, j])
                           # exact, rounded once to FP32 (D4 exact profile);
                           # integers: exact, wrapped to the S32 / U32 accumulator
            if relu: result[i, j] = max(result[i, j], 0)          # ReluMode 1
            result[i, j] = convert(result[i, j], result element type)  # f16/bf16: RNE

    Operands: ``a`` ``tensor<MxK>``, ``b`` ``tensor<KxN>``, element types as for
    ``pto.gemv``: an MX pair (D2) or an ordinary pair of one class (f32/f16/bf16, or
    i8/i16 signed, ui8/ui16 unsigned: PTO-SPEC 1); ``a_scale`` ``tensor<Mxceil(K/32)>`` and
    ``b_scale`` ``tensor<ceil(K/32)xN>`` (``f8E8M0FNU``) exactly on the scaled MX sides (D1);
    ``acc`` ``tensor<MxN>`` of the accumulator type (f32, or i32 for integers); ``bias``
    ``tensor<N>`` / ``tensor<1xN>`` f32, one value per column (TMATMUL(_MX)_BIAS on the
    first K chunk; FP32 accumulator only, not with ``acc``). ``relu`` applies ReLU before
    the conversion (B.FPATR ReluMode 1 on the last chunk; FP32 accumulator only). Result
    ``tensor<MxN>``: f32 (f16/bf16 through PreQuantMode 1/16 when there is no ``acc``), or
    i32 for integers (D3, D11).

    Example::

        %d = pto.matmul %a, %b acc %c
            : (tensor<64x256xf16>, tensor<256x80xf16>, tensor<64x80xf32>) -> tensor<64x80xf32>
    """

    name = "pto.matmul"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    a_scale = opt_operand_def(TensorType)
    b_scale = opt_operand_def(TensorType)
    acc = opt_operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    result = result_def(TensorType)
    relu = opt_prop_def(UnitAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    OPTIONAL_ROLES: ClassVar[tuple[str, ...]] = ("a_scale", "b_scale", "acc", "bias")

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        result_type: Attribute,
        *,
        a_scale: SSAValue | None = None,
        b_scale: SSAValue | None = None,
        acc: SSAValue | None = None,
        bias: SSAValue | None = None,
        relu: bool = False,
    ):
        super().__init__(
            operands=[a, b, *([v] if v is not None else [] for v in (a_scale, b_scale, acc, bias))],
            result_types=[result_type],
            properties={"relu": UnitAttr()} if relu else {},
        )

    @property
    def m(self) -> int:
        return self.a.type.get_shape()[0]  # type: ignore[union-attr]

    def verify_(self) -> None:
        refs = "PTO-SPEC 3.1, 4, D1, D2, D3"
        a_shape = static_shape(self, "a", self.a.type)
        b_shape = static_shape(self, "b", self.b.type)
        if len(a_shape) != 2 or len(b_shape) != 2:
            raise self.fault(TL, "a and b must be MxK and KxN matrices", refs)
        (m, ka), (k, n) = a_shape, b_shape
        if min(m, k, n) < 1 or ka != k:
            raise self.fault(TL, f"a is {m}x{ka} and b {k}x{n}: K must agree and be positive", refs)
        nb = _ceil(k, MX_BLOCK)
        for role, val, scale, want in (
            ("a", self.a, self.a_scale, (m, nb)),
            ("b", self.b, self.b_scale, (nb, n)),
        ):
            elt = val.type.element_type  # type: ignore[union-attr]
            dt = cube_dtype_of(elt)
            if dt is None:
                raise self.fault(TL, f"{role}: element type {type_name(elt)} is not a CUBE input type", "PTO-SPEC 1, D2")
            if dt not in MX_INPUT_TYPES:
                if scale is not None:
                    raise self.fault(TL, f"{role}_scale must be absent: {dt.name} is an ordinary CUBE type", "D2")
                continue
            if mx_needs_scale(dt) != (scale is not None):
                need = "required" if mx_needs_scale(dt) else "absent"
                raise self.fault(TL, f"{role}_scale must be {need} for {dt.name}", "D2")
            if scale is not None:
                s_shape = static_shape(self, f"{role}_scale", scale.type)
                if tile_dtype_of(scale.type.element_type) is not TileDataType.E8M0:  # type: ignore[union-attr]
                    raise self.fault(TL, f"{role}_scale: element type must be f8E8M0FNU", "D1")
                if s_shape != want:
                    raise self.fault(TL, f"{role}_scale: shape must be {want[0]}x{want[1]}", "D1")
        acc = _verify_cube_types(self, self.a_scale, self.b_scale)
        acc_elt = "f32" if acc is TileDataType.FP32 else "i32"
        if self.acc is not None:
            shape = static_shape(self, "acc", self.acc.type)
            if shape != (m, n) or result_dtype_of(self.acc.type.element_type) is not acc:  # type: ignore[union-attr]
                raise self.fault(TL, f"acc must be tensor<{m}x{n}x{acc_elt}>", "D3")
        if self.bias is not None:
            if acc is not TileDataType.FP32 or self.acc is not None:
                raise self.fault(TL, "bias: only an FP32-accumulator product without acc takes one "
                                 "(TMATMUL(_MX)_BIAS is the first K chunk)", "PTO-SPEC 3.1, D3")  # fmt: skip
            bias_elt = self.bias.type.element_type  # type: ignore[union-attr]
            if tile_dtype_of(bias_elt) is not TileDataType.FP32:
                raise self.fault(TL, f"bias: element type {type_name(bias_elt)} must be f32", "D3")
            if not _vector_shape_ok(static_shape(self, "bias", self.bias.type), n):
                raise self.fault(TL, f"bias must be tensor<{n}> or tensor<1x{n}>", "PTO-SPEC 3.1")
        if self.has_relu and acc is not TileDataType.FP32:
            raise self.fault(TL, f"relu: only an FP32 accumulator has ReluMode (accumulator {acc.name})",
                             "PTO-SPEC 3.3")  # fmt: skip
        shape = static_shape(self, "result", self.result.type)
        r_dt = result_dtype_of(self.result.type.element_type)  # type: ignore[union-attr]
        outs = GEMV_OUTPUT_TYPES if acc is TileDataType.FP32 else (acc,)
        if shape != (m, n) or r_dt not in outs or (self.acc is not None and r_dt is not acc):
            want = "f32, f16 or bf16 (f32 with acc)" if acc is TileDataType.FP32 else acc_elt
            raise self.fault(TL, f"result must be tensor<{m}x{n}x...> of {want}", "D3, D11")


TENSOR_OPS = [GemvOp, MatmulOp, FloorModOp, ElementwiseOp]
