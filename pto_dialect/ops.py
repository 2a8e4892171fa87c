"""Operations of the ``pto`` dialect, built on two family bases.

* :class:`CubeMatrixOp` — the CUBE matrix family (PTO-SPEC 3.1). A member declares its
  mathematical operands (``a``, optional ``a_scale``, ``b``, optional ``b_scale``, ``bias``...)
  and its CUBE ``FUNCTION`` number; the base supplies the post-processing operands and
  results selected by B.FPATR (PTO-SPEC 3.3), the properties (``rmode``, ``sat``, ``fpatr``,
  ``mask``), the custom syntax and the static legality checks (D16).
* :class:`BinaryTileOp` — the binary elementwise tile-tile family (PTO-SPEC 5). A member
  names its TEPL selector, its operand roles and its type set.

Every diagnostic has the form ``'<op>' op [<FaultKind>] <operand>: <rule> (<spec refs>)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import IntegerType, UnitAttr, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from pto_dialect.attributes import (
    FpatrAttr,
    MaskAttr,
    PadValue,
    PadValueAttr,
    RoundingMode,
    RoundingModeAttr,
    TargetAttr,
    TargetProfile,
    TileType,
    element_type,
)
from pto_dialect.datatypes import (
    MATMUL_INPUT_TYPES,
    MX_BLOCK,
    MX_INPUT_TYPES,
    TREM_TYPES,
    VEC_ARITH_TYPES,
    VEC_INT_TYPES,
    TileDataType,
    mx_needs_scale,
)
from pto_dialect.faults import FaultKind
from pto_dialect.geometry import Layout, Location, Storage
from pto_dialect.isa.commands import CUBE_FUNCTIONS, BlockFamily, CatalogField
from pto_dialect.postprocess import (
    FP32_ACC_PRE_QUANT_MODES,
    PRE_QUANT_MODES,
    Fpatr,
    QuantOp,
    pre_quant_output_type,
)
from pto_dialect.syntax import DefaultsFirst, SharedType, print_props, split_props

IL = FaultKind.ILLEGAL_INSTRUCTION
BC = FaultKind.BUNDLE_CONTROL
TL = FaultKind.TILE_LEGALITY
TA = FaultKind.TILE_ALLOCATION

TARGET_ATTR_NAME = "pto.target"


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def target_profile(op: Operation) -> TargetProfile:
    """The target profile in force for ``op``: the nearest ``pto.target`` attribute (D15)."""
    cur: Operation | None = op
    while cur is not None:
        attr = cur.attributes.get(TARGET_ATTR_NAME)
        if isinstance(attr, TargetAttr):
            return attr.data
        if attr is not None:
            raise VerifyException(
                f"'{cur.name}' op attribute {TARGET_ATTR_NAME} must be #pto.target<a5> or "
                f"#pto.target<a2a3> (D15)"
            )
        cur = cur.parent_op()
    return TargetProfile.A5


def type_name(t: Attribute) -> str:
    """Short IR spelling of a type for messages (``f8E4M3FN``, ``!pto.tile<...>``)."""
    from io import StringIO

    out = StringIO()
    Printer(stream=out).print_attribute(t)
    return out.getvalue()


class PTOOp(IRDLOperation):
    """Common base: diagnostics in the project's format, and the ISA selector of an op with a
    block form: the op names its ``BLOCK_FAMILY`` and catalog ``MNEMONIC``; ``MODE`` and
    ``FUNCTION`` are read from its row of the ISA catalog (:mod:`pto_dialect.isa.commands`)."""

    BLOCK_FAMILY: ClassVar[BlockFamily | None] = None
    MNEMONIC: ClassVar[str]
    MODE: ClassVar[int] = CatalogField("mode")  # type: ignore[assignment]
    FUNCTION: ClassVar[int] = CatalogField("function")  # type: ignore[assignment]

    def fault(self, kind: FaultKind, what: str, refs: str) -> VerifyException:
        return VerifyException(f"'{self.name}' op [{kind}] {what} ({refs})")


class TeplTileBase(PTOOp):
    """Properties every TEPL (vector / SFU) tile op has: the B.DATR PadValue of its padding
    (D9, default Null) and its PE mask (D13, default all four); both are elided from the
    custom syntax at their defaults (``ParsePropInAttrDict``: the declarative formats of the
    families print and parse the properties in the attribute dictionary)."""

    pad = prop_def(PadValueAttr, PadValueAttr(PadValue.NULL))
    mask = prop_def(MaskAttr, MaskAttr("1111"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    BLOCK_FAMILY: ClassVar[BlockFamily | None] = BlockFamily.TEPL
    PROPERTY_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "pad": PadValueAttr(PadValue.NULL),
        "mask": MaskAttr("1111"),
    }


# ======================================================================================
# CUBE matrix family
# ======================================================================================

CUBE_BIAS_FUNCTIONS = frozenset(c for c, f in CUBE_FUNCTIONS.items() if f.is_bias)
CUBE_ACC_FUNCTIONS = frozenset(c for c, f in CUBE_FUNCTIONS.items() if f.is_acc)
CUBE_MX_FUNCTIONS = frozenset(c for c, f in CUBE_FUNCTIONS.items() if f.is_mx)
CUBE_GEMV_FUNCTIONS = frozenset(c for c, f in CUBE_FUNCTIONS.items() if f.is_gemv)
"""CUBE function classification (PTO-SPEC 3.1, ``matrix-functions.asl``): the live functions
of the catalog table (:data:`pto_dialect.isa.commands.CUBE_FUNCTIONS`), not a second copy."""
CSCALE_FUNCTIONS = frozenset({2, 6})
"""CScaleEn is legal only for TMATMUL.ACC and TMATMULMX.ACC (PTO-SPEC 3.3, D11)."""


class CubeMatrixOp(PTOOp):
    """Family base of the CUBE matrix operations (PTO-SPEC 3.1, 3.3, 4).

    Members declare their mathematical operands in stream order; this base appends the
    post-processing sources (``row_max_in``, ``quant``, ``prelu`` tiles and the scalar
    ``quant_scalar`` / ``lrelu_scalar`` parameter words) and declares the destinations
    ``d``, ``row_max`` and ``group_max``.

    Syntax (operands in stream order, optional ones introduced by their role)::

        %d[, %rowmax, %groupmax] = pto.<op> %a[, a_scale %as], %b[, b_scale %bs], %bias
            [, row_max_in %r][, quant %q][, prelu %p][, quant_scalar %s][, lrelu_scalar %l]
            [{rmode = #pto.rmode<..>, sat, fpatr = #pto.fpatr<..>, mask = #pto.mask<..>}]
            : (operand types) -> result type(s)
    """

    BLOCK_FAMILY: ClassVar[BlockFamily | None] = BlockFamily.CUBE
    BSTART: ClassVar[str] = CatalogField("mnemonic")  # type: ignore[assignment]
    """BSTART mnemonic suffix, e.g. ``TGEMVMX.BIAS`` (PTO-SPEC 3.1), from the catalog row."""

    row_max_in = opt_operand_def(TileType)
    quant = opt_operand_def(TileType)
    prelu = opt_operand_def(TileType)
    quant_scalar = opt_operand_def(IntegerType)
    lrelu_scalar = opt_operand_def(IntegerType)

    d = result_def(TileType)
    row_max = opt_result_def(TileType)
    group_max = opt_result_def(TileType)

    rmode = prop_def(RoundingModeAttr, RoundingModeAttr(RoundingMode.DEFAULT))
    sat = opt_prop_def(UnitAttr)
    fpatr = prop_def(FpatrAttr, FpatrAttr.from_fields())
    mask = prop_def(MaskAttr, MaskAttr("1111"))

    irdl_options = (AttrSizedOperandSegments(as_property=True), AttrSizedResultSegments(as_property=True))

    PROPERTY_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "rmode": RoundingModeAttr(RoundingMode.DEFAULT),
        "fpatr": FpatrAttr.from_fields(),
        "mask": MaskAttr("1111"),
    }

    # -- classification ---------------------------------------------------------------
    @classmethod
    def is_mx(cls) -> bool:
        return cls.FUNCTION in CUBE_MX_FUNCTIONS

    @classmethod
    def is_gemv(cls) -> bool:
        return cls.FUNCTION in CUBE_GEMV_FUNCTIONS

    @classmethod
    def has_bias(cls) -> bool:
        return cls.FUNCTION in CUBE_BIAS_FUNCTIONS

    @classmethod
    def is_acc(cls) -> bool:
        return cls.FUNCTION in CUBE_ACC_FUNCTIONS

    # -- operand access by role -------------------------------------------------------
    @classmethod
    def operand_roles(cls) -> tuple[str, ...]:
        return tuple(name for name, _ in cls.get_irdl_definition().operands)

    def operand_by_role(self) -> dict[str, SSAValue]:
        out: dict[str, SSAValue] = {}
        for name in self.operand_roles():
            v = getattr(self, name)
            if v is not None:
                out[name] = v
        return out

    @property
    def fpatr_fields(self) -> Fpatr:
        return self.fpatr.fields

    # -- construction -------------------------------------------------------------------
    def __init__(
        self,
        operands: dict[str, SSAValue | None],
        result_types: Sequence[Attribute],
        *,
        rmode: RoundingMode = RoundingMode.DEFAULT,
        sat: bool = False,
        fpatr: Fpatr | None = None,
        mask: str = "1111",
    ):
        defs = self.get_irdl_definition()
        unknown = set(operands) - {n for n, _ in defs.operands}
        if unknown:
            raise ValueError(f"{self.name} has no operand(s) {sorted(unknown)}")
        ops = []
        for name, odef in defs.operands:
            v = operands.get(name)
            ops.append(([v] if v is not None else []) if _is_optional(odef) else v)
        res = list(result_types)
        if not 1 <= len(res) <= 3:
            raise ValueError(f"{self.name} has 1 to 3 results (d, row_max, group_max)")
        # Results after D are the auxiliary destinations B.FPATR enables, in order
        # (row_max, then group_max; PTO-SPEC 3.3). When the count matches, bind them by role,
        # so that a group_max-only op keeps its result in the group_max slot; otherwise bind
        # positionally and let the verifier name the mismatch.
        aux = (fpatr or Fpatr()).aux_destinations()
        roles = ("row_max", "group_max")
        if len(res) == 1 + len(aux):
            by_role = dict(zip(aux, res[1:]))
        else:
            by_role = dict(zip(roles, res[1:]))
        res_groups = [res[0], *([by_role[r]] if r in by_role else [] for r in roles)]
        props: dict[str, Attribute] = {
            "rmode": RoundingModeAttr(rmode),
            "fpatr": FpatrAttr.from_fields(fpatr or Fpatr()),
            "mask": MaskAttr(mask),
        }
        if sat:
            props["sat"] = UnitAttr()
        super().__init__(operands=ops, result_types=res_groups, properties=props)

    # -- syntax -----------------------------------------------------------------------
    def print(self, printer: Printer) -> None:
        defs = self.get_irdl_definition()
        printer.print_string(" ")
        first = True
        for name, odef in defs.operands:
            v = getattr(self, name)
            if v is None:
                continue
            if not first:
                printer.print_string(", ")
            first = False
            if _is_optional(odef):
                printer.print_string(f"{name} ")
            printer.print_operand(v)
        print_props(printer, self, self.PROPERTY_DEFAULTS)
        printer.print_string(" : ")
        printer.print_function_type(
            [o.type for o in self.operands], [r.type for r in self.results]
        )

    @classmethod
    def parse(cls, parser: Parser) -> CubeMatrixOp:
        defs = cls.get_irdl_definition()
        names = [n for n, _ in defs.operands]
        optional = {n for n, d in defs.operands if _is_optional(d)}
        mandatory = [n for n in names if n not in optional]
        got: dict[str, object] = {}
        start = parser.pos

        def entry():
            pos = parser.pos
            kw = parser.parse_optional_identifier()
            if kw is not None:
                if kw not in optional:
                    parser.raise_error(
                        f"'{kw}' is not an optional operand of {cls.name}; expected one of "
                        f"{sorted(optional)}",
                        pos,
                    )
                if kw in got:
                    parser.raise_error(f"operand '{kw}' given twice", pos)
                got[kw] = parser.parse_unresolved_operand()
                return
            nxt = next((n for n in mandatory if n not in got), None)
            if nxt is None:
                parser.raise_error(f"too many operands for {cls.name}", pos)
            got[nxt] = parser.parse_unresolved_operand()

        parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
        missing = [n for n in mandatory if n not in got]
        if missing:
            parser.raise_error(f"{cls.name} expects operand(s) {missing}", start)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_pos = parser.pos
        ftype = parser.parse_function_type()
        present = [n for n in names if n in got]
        ins = list(ftype.inputs.data)
        if len(ins) != len(present):
            parser.raise_error(
                f"expected {len(present)} operand types, got {len(ins)}", type_pos, parser.pos
            )
        values = {
            n: parser.resolve_operand(got[n], t)  # type: ignore[arg-type]
            for n, t in zip(present, ins)
        }
        props, others = split_props(cls, attrs)
        outs = list(ftype.outputs.data)
        if not 1 <= len(outs) <= 3:
            parser.raise_error("expected 1 to 3 result types", type_pos, parser.pos)
        op = cls.__new__(cls)
        fp = props.get("fpatr")
        CubeMatrixOp.__init__(
            op, values, outs, fpatr=fp.fields if isinstance(fp, FpatrAttr) else None
        )
        for k, v in props.items():
            op.properties[k] = v
        if "sat" not in props:
            op.properties.pop("sat", None)
        op.attributes.update(others)
        return op

    # -- static legality (D16) ----------------------------------------------------------
    def verify_(self) -> None:
        f = self.fpatr_fields
        # Decode: reserved B.FPATR values do not decode (PTO-SPEC 3.3).
        for msg in f.reserved_values():
            raise self.fault(IL, f"fpatr: {msg}", "PTO-SPEC 3.3")
        # On a2a3 the MX selectors do not decode (D15): decoding precedes the mask-0 no-op
        # (D12: "a strict no-op before any check but decoding").
        if self.is_mx() and target_profile(self) is TargetProfile.A2A3:
            raise self.fault(
                IL,
                f"CUBE function {self.FUNCTION} is an MX function, illegal on target a2a3",
                "PTO-SPEC 3.1, D12, D15",
            )
        # Mask 0 is a strict no-op before any other check (PTO-SPEC 2, D12).
        if self.mask.is_zero:
            return
        self.verify_cube()

    def verify_cube(self) -> None:
        verify_cube_operands(self)


def _is_optional(odef) -> bool:
    from xdsl.irdl.operations import OptionalDef

    return isinstance(odef, OptionalDef)


class _Tiles:
    """Typed view of a CUBE op's tile operands for the legality checks."""

    def __init__(self, op: CubeMatrixOp):
        self.op = op

    def t(self, v: SSAValue | None, role: str) -> TileType | None:
        if v is None:
            return None
        assert isinstance(v.type, TileType), "the operand definitions hold tiles"
        return v.type


@irdl_op_definition
class TGemvMxBiasOp(CubeMatrixOp):
    """``pto.tgemv_mx_bias`` — MX matrix-vector product plus bias (CUBE function 21).

    Semantics (PTO-SPEC 4, D1-D5)::

        K = a.valid_cols; N = b.valid_cols; nb = ceil(K / 32)
        for j in 0 .. N-1:
            acc[j] = sum_{k < K, increasing} (A[0,k] * sA[0, k/32]) * (B[k,j] * sB[k/32, j])
            acc[j] = acc[j] + Bias[0, j]            # FP32 accumulator class (D3)
        row_max / group_max = reductions of the raw acc (if B.FPATR enables them)
        D = post_process(acc)                        # ReLU/LReLU/PReLU, PreQuantMode, Sat
        publish D, row_max, group_max atomically     # faults leave every destination as it was

    Operands (stream order): ``a`` 1xK (CUBE_M16/M32, mat, AType), ``a_scale`` E8M0
    1xceil(K/32) row-major (present iff AType is not FP16/BF16), ``b`` KxN (CUBE_N8, mat,
    BType), ``b_scale`` E8M0 ceil(K/32)xN (iff BType is not FP16/BF16), ``bias`` FP32 1xN
    row-major, then the post-processing sources selected by ``fpatr``. Results: ``d`` 1xN in
    A's layout (FP32 or the PreQuantMode's output type), optional ``row_max`` (1x1 FP32) and
    ``group_max`` (1 x ceil(N/GroupN) FP32).

    Legality summary: AType/BType in {FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2} (D2), M = 1,
    K and N consistent, layouts per D10, local storage, one PE mask, B.FPATR rules of D11,
    PreQuantMode 0 needs rmode default and no sat, target a2a3 rejects it (D15).

    Example::

        %d = pto.tgemv_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias
            : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>,
               !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>,
               !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>

    Block form: ``BSTART.TGEMVMX.BIAS AType; [B.DATR]; B.FPATR; B.DIM; B.IOT ...; BSTOP``.
    """

    name = "pto.tgemv_mx_bias"
    MNEMONIC: ClassVar[str] = "TGEMV_MX_BIAS"

    a = operand_def(TileType)
    a_scale = opt_operand_def(TileType)
    b = operand_def(TileType)
    b_scale = opt_operand_def(TileType)
    bias = operand_def(TileType)

    traits = traits_def(Pure())



# --------------------------------------------------------------------------------------
# The other live CUBE functions (PTO-SPEC 3.1). Each member declares its mathematical
# operands in stream order; semantics, legality and syntax come from CubeMatrixOp and
# verify_cube_operands. Pseudocode shared by all: with acc of the accumulator class,
#     acc[i,j] = [C[i,j] +] sum_{k<K} A'[i,k] * B'[k,j] [+ Bias[0,j]]
# where A' = A * a_scale[i, k/32] and B' = B * b_scale[k/32, j] for the MX forms and
# A' = A, B' = B otherwise; then post-processing and atomic publication as for
# pto.tgemv_mx_bias.
# --------------------------------------------------------------------------------------


@irdl_op_definition
class TMatmulOp(CubeMatrixOp):
    """``pto.tmatmul`` — D = A @ B (CUBE function 0, ``BSTART.TMATMUL``).

    ``D[i,j] = sum_k A[i,k] * B[k,j]`` in the accumulator class of the inputs (signed -> S32,
    unsigned -> U32, float -> FP32). A MxK (cube_m16/m32, mat), B KxN (cube_n8, mat), one
    ordinary type class on both sides (PTO-SPEC 1). Example::

        %d = pto.tmatmul %a, %b : (!pto.tile<16x64xsi8, cube_m16, mat>,
            !pto.tile<64x16xsi8, cube_n8, mat>) -> !pto.tile<16x16xsi32, cube_m16, mat>
    """

    name = "pto.tmatmul"
    MNEMONIC: ClassVar[str] = "TMATMUL"
    a = operand_def(TileType)
    b = operand_def(TileType)


@irdl_op_definition
class TMatmulBiasOp(CubeMatrixOp):
    """``pto.tmatmul_bias`` — D = A @ B + Bias (function 1); Bias 1xN of the accumulator type.

    Example: ``%d = pto.tmatmul_bias %a, %b, %bias : (A, B, !pto.tile<1x32xf32, valid=1x16>) -> D``.
    """

    name = "pto.tmatmul_bias"
    MNEMONIC: ClassVar[str] = "TMATMUL_BIAS"
    a = operand_def(TileType)
    b = operand_def(TileType)
    bias = operand_def(TileType)


@irdl_op_definition
class TMatmulAccOp(CubeMatrixOp):
    """``pto.tmatmul_acc`` — D = C + A @ B (function 2); C MxN accumulator type in A's layout.

    Example: ``%d = pto.tmatmul_acc %c, %a, %b : (C, A, B) -> D``.
    """

    name = "pto.tmatmul_acc"
    MNEMONIC: ClassVar[str] = "TMATMUL_ACC"
    c = operand_def(TileType)
    a = operand_def(TileType)
    b = operand_def(TileType)


@irdl_op_definition
class TMatmulMxOp(CubeMatrixOp):
    """``pto.tmatmul_mx`` — D = (A*sA) @ (B*sB) (function 4, MX, FP32 accumulator; D1, D2).

    Example: ``%d = pto.tmatmul_mx %a, a_scale %as, %b, b_scale %bs : (A, As, B, Bs) -> D``.
    """

    name = "pto.tmatmul_mx"
    MNEMONIC: ClassVar[str] = "TMATMUL_MX"
    a = operand_def(TileType)
    a_scale = opt_operand_def(TileType)
    b = operand_def(TileType)
    b_scale = opt_operand_def(TileType)


@irdl_op_definition
class TMatmulMxBiasOp(CubeMatrixOp):
    """``pto.tmatmul_mx_bias`` — D = (A*sA) @ (B*sB) + Bias (function 5; Bias FP32 1xN, D3).

    Example: ``%d = pto.tmatmul_mx_bias %a, a_scale %as, %b, b_scale %bs, %bias : (...) -> D``.
    """

    name = "pto.tmatmul_mx_bias"
    MNEMONIC: ClassVar[str] = "TMATMUL_MX_BIAS"
    a = operand_def(TileType)
    a_scale = opt_operand_def(TileType)
    b = operand_def(TileType)
    b_scale = opt_operand_def(TileType)
    bias = operand_def(TileType)


@irdl_op_definition
class TMatmulMxAccOp(CubeMatrixOp):
    """``pto.tmatmul_mx_acc`` — D = C + (A*sA) @ (B*sB) (function 6; C FP32 MxN in A's layout).

    Example: ``%d = pto.tmatmul_mx_acc %c, %a, a_scale %as, %b, b_scale %bs : (...) -> D``.
    """

    name = "pto.tmatmul_mx_acc"
    MNEMONIC: ClassVar[str] = "TMATMUL_MX_ACC"
    c = operand_def(TileType)
    a = operand_def(TileType)
    a_scale = opt_operand_def(TileType)
    b = operand_def(TileType)
    b_scale = opt_operand_def(TileType)


@irdl_op_definition
class TGemvOp(CubeMatrixOp):
    """``pto.tgemv`` — d = a @ B for a 1xK vector (function 16; M = 1, Local only).

    Example: ``%d = pto.tgemv %a, %b : (!pto.tile<1x64xf16, cube_m16, mat>,
    !pto.tile<64x32xf16, cube_n8, mat>) -> !pto.tile<1x32xf32, cube_m16, mat>``.
    """

    name = "pto.tgemv"
    MNEMONIC: ClassVar[str] = "TGEMV"
    a = operand_def(TileType)
    b = operand_def(TileType)


@irdl_op_definition
class TGemvBiasOp(CubeMatrixOp):
    """``pto.tgemv_bias`` — d = a @ B + bias (function 17).

    Example: ``%d = pto.tgemv_bias %a, %b, %bias : (A, B, Bias) -> D``.
    """

    name = "pto.tgemv_bias"
    MNEMONIC: ClassVar[str] = "TGEMV_BIAS"
    a = operand_def(TileType)
    b = operand_def(TileType)
    bias = operand_def(TileType)


@irdl_op_definition
class TGemvAccOp(CubeMatrixOp):
    """``pto.tgemv_acc`` — d = c + a @ B (function 18; c 1xN accumulator type in a's layout).

    Example: ``%d = pto.tgemv_acc %c, %a, %b : (C, A, B) -> D``.
    """

    name = "pto.tgemv_acc"
    MNEMONIC: ClassVar[str] = "TGEMV_ACC"
    c = operand_def(TileType)
    a = operand_def(TileType)
    b = operand_def(TileType)


@irdl_op_definition
class TGemvMxOp(CubeMatrixOp):
    """``pto.tgemv_mx`` — d = (a*sA) @ (B*sB) (function 20).

    Example: ``%d = pto.tgemv_mx %a, a_scale %as, %b, b_scale %bs : (...) -> D``.
    """

    name = "pto.tgemv_mx"
    MNEMONIC: ClassVar[str] = "TGEMV_MX"
    a = operand_def(TileType)
    a_scale = opt_operand_def(TileType)
    b = operand_def(TileType)
    b_scale = opt_operand_def(TileType)


@irdl_op_definition
class TGemvMxAccOp(CubeMatrixOp):
    """``pto.tgemv_mx_acc`` — d = c + (a*sA) @ (B*sB) (function 22; c FP32 1xN in a's layout).

    The accumulate form chains K chunks of a GEMV without a round trip through memory.
    Example: ``%d = pto.tgemv_mx_acc %c, %a, a_scale %as, %b, b_scale %bs : (...) -> D``.
    """

    name = "pto.tgemv_mx_acc"
    MNEMONIC: ClassVar[str] = "TGEMV_MX_ACC"
    c = operand_def(TileType)
    a = operand_def(TileType)
    a_scale = opt_operand_def(TileType)
    b = operand_def(TileType)
    b_scale = opt_operand_def(TileType)


@dataclass
class CubeCheck:
    """What the CUBE legality rules read: the op, its operands by role, the A and B tiles,
    B.FPATR, and the facts derived from them (accumulator type, M, K, N)."""

    op: CubeMatrixOp
    tiles: _Tiles
    roles: dict[str, SSAValue]
    a: TileType
    b: TileType
    f: Fpatr

    @property
    def fail(self):
        return self.op.fault

    @property
    def acc(self) -> TileDataType:
        """The accumulator type: FP32 for MX, else the class accumulator of AType."""
        return TileDataType.FP32 if self.op.is_mx() else self.a.dtype.accumulator

    @property
    def mkn(self) -> tuple[int, int, int]:
        m, k = self.a.valid_shape
        return m, k, self.b.valid_shape[1]

    def tile(self, role: str) -> TileType | None:
        return self.tiles.t(self.roles.get(role), role)


def cube_type_pair(c: CubeCheck) -> None:
    """1. The type pair: MX (PTO-SPEC 1, D2) with the scale each side needs, or ordinary
    (PTO-SPEC 1, matrix-shape.asl): both sides in the ordinary set and in one class."""
    op, fail = c.op, c.fail
    for side, t in (("a", c.a), ("b", c.b)):
        kind = "AType" if side == "a" else "BType"
        if op.is_mx() and t.dtype not in MX_INPUT_TYPES:
            raise fail(
                TL,
                f"{side}: {kind} {type_name(t.element_type)} is not an MX input type "
                "(FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2)",
                "PTO-SPEC 1, D2",
            )
        if not op.is_mx() and t.dtype not in MATMUL_INPUT_TYPES:
            raise fail(
                TL,
                f"{side}: {kind} {type_name(t.element_type)} is not an ordinary matmul input type",
                "PTO-SPEC 1",
            )
        if op.is_mx():
            scale = c.roles.get(f"{side}_scale")
            needs = mx_needs_scale(t.dtype)
            if needs and scale is None:
                raise fail(
                    TL,
                    f"{side}_scale is required: {kind} {type_name(t.element_type)} is not FP16/BF16",
                    "PTO-SPEC 4, D2",
                )
            if not needs and scale is not None:
                raise fail(
                    TL,
                    f"{side}_scale must be absent: {kind} {type_name(t.element_type)} carries no scale",
                    "PTO-SPEC 4, D2",
                )
    a, b = c.a, c.b
    if not op.is_mx() and a.dtype.klass is not b.dtype.klass:
        raise fail(
            TL,
            f"b: BType {type_name(b.element_type)} is {b.dtype.klass.value} but AType "
            f"{type_name(a.element_type)} is {a.dtype.klass.value}; both sides must be one class",
            "PTO-SPEC 1",
        )


def cube_fpatr_fields(c: CubeCheck) -> None:
    """2a. B.FPATR consistency (PTO-SPEC 3.3), no transposes of Local primaries, CScaleEn only
    on the FP32-accumulator ACC forms (D11)."""
    op, f, fail = c.op, c.f, c.fail
    for msg in f.consistency_errors():
        raise fail(TL, f"fpatr: {msg}", "PTO-SPEC 3.3, D11")
    for field in ("trans_a", "trans_b"):
        if getattr(f, field):
            if op.is_gemv():
                raise fail(TL, f"fpatr: {field} must be 0 for TGEMV", "PTO-SPEC 3.3, D11")
            raise fail(
                TL,
                f"fpatr: {field} transposes a Shared primary, but {field[-1]} is a Local tile",
                "PTO-SPEC 3.3, 3.5",
            )
    if f.cscale_en and not (op.FUNCTION in CSCALE_FUNCTIONS and c.acc is TileDataType.FP32):
        raise fail(
            TL, "fpatr: cscale_en must be 0 (only the FP32-accumulator ACC forms allow it)", "PTO-SPEC 3.3, D11"
        )


def cube_pre_quant_mode(c: CubeCheck) -> None:
    """2b. The PreQuantMode reads the accumulator the op has; its rounding and saturation
    (PTO-SPEC 3.2, 3.3, D11)."""
    op, f, fail, acc = c.op, c.f, c.fail, c.acc
    mode = PRE_QUANT_MODES[f.pre_quant_mode]
    if acc is TileDataType.FP32 and f.pre_quant_mode not in FP32_ACC_PRE_QUANT_MODES:
        raise fail(
            TL,
            f"fpatr: pre_quant_mode {f.pre_quant_mode} ({mode.name}) reads an S32 accumulator; "
            "the FP32 accumulator allows {0, 1, 16, 23-28, 32-34, 36-38}",
            "PTO-SPEC 3.3, D11",
        )
    if acc is not TileDataType.FP32 and mode.acc not in (None, acc):
        raise fail(
            TL,
            f"fpatr: pre_quant_mode {f.pre_quant_mode} ({mode.name}) needs an "
            f"{mode.acc.name if mode.acc else ''} accumulator, the accumulator is {acc.name}",
            "PTO-SPEC 3.3",
        )
    rmode_set = op.rmode.data is not RoundingMode.DEFAULT
    sat = op.sat is not None
    # PreQuantMode 0 accepts any RMode and Sat (no effect): D11, AVS TMATMUL-EXEC-001.
    if mode.fixed_rounding and rmode_set:
        raise fail(
            TL,
            f"rmode: pre_quant_mode {f.pre_quant_mode} ({mode.name}) fixes its rounding "
            f"({mode.fixed_rounding}); rmode must be default",
            "PTO-SPEC 3.2, 3.3",
        )
    if mode.op is QuantOp.SHIFT and (rmode_set or sat):
        raise fail(TL, "rmode/sat: shift modes need rmode default and no sat", "PTO-SPEC 3.2")


def cube_postprocess_presence(c: CubeCheck) -> None:
    """3. Post-processing operands and results present exactly when B.FPATR selects them
    (PTO-SPEC 3.3)."""
    op, f, fail, roles = c.op, c.f, c.fail, c.roles
    wanted = set(f.vector_param_sources()) | set(f.scalar_params())
    for role in ("row_max_in", "quant", "prelu", "quant_scalar", "lrelu_scalar"):
        present = roles.get(role) is not None
        if role in wanted and not present:
            raise fail(TL, f"{role} is required by fpatr {_fpatr_text(f)}", "PTO-SPEC 3.3")
        if present and role not in wanted:
            raise fail(TL, f"{role} must be absent: fpatr {_fpatr_text(f)} does not use it", "PTO-SPEC 3.3")
    for role, result in (("row_max", op.row_max), ("group_max", op.group_max)):
        want = role in f.aux_destinations()
        if want and result is None:
            raise fail(TL, f"result {role} is required by fpatr {_fpatr_text(f)}", "PTO-SPEC 3.3")
        if result is not None and not want:
            raise fail(TL, f"result {role} must be absent: fpatr {_fpatr_text(f)} does not enable it", "PTO-SPEC 3.3")
    for role in ("quant_scalar", "lrelu_scalar"):
        v = roles.get(role)
        if v is not None and v.type != i64:
            raise fail(TL, f"{role} is a 64-bit parameter word (i64), got {type_name(v.type)}", "PTO-SPEC 3.3")


def _cube_tiles(c: CubeCheck) -> list[tuple[str, TileType]]:
    """Every tile operand and result of the op by role (the operand and result definitions
    make every role but the integer scalars a tile)."""
    op = c.op
    all_tiles: list[tuple[str, TileType]] = []
    for role, v in c.roles.items():
        if isinstance(v.type, TileType):  # the others are the integer scalars (their definitions)
            all_tiles.append((role, v.type))
    for role, r in (("d", op.d), ("row_max", op.row_max), ("group_max", op.group_max)):
        if r is not None:
            assert isinstance(r.type, TileType), "the result definitions hold tiles"
            all_tiles.append((role, r.type))
    return all_tiles


def cube_local_masks(c: CubeCheck) -> None:
    """4. Local storage and one PE mask for every tile (PTO-SPEC 2, D13)."""
    op, fail = c.op, c.fail
    for role, t in _cube_tiles(c):
        if t.storage_kind is not Storage.LOCAL:
            if op.is_gemv():
                raise fail(TL, f"{role}: TGEMV is Local-only, the tile is shared", "PTO-SPEC 4, D10")
            raise fail(
                TL,
                f"{role}: shared operands (B.IOS) of {op.BSTART} are not supported by this toolchain",
                "PTO-SPEC 3.4",
            )
        is_result = role in ("d", "row_max", "group_max")
        held = {i for i, ch in enumerate(t.pe_mask) if ch == "1"}
        selected = {i for i, ch in enumerate(op.mask.data) if ch == "1"}
        if is_result and t.pe_mask != op.mask.data:
            raise fail(
                TL,
                f"{role}: allocated on PEs {t.pe_mask} but the op's mask is {op.mask.data}; only "
                "the selected PEs allocate and publish",
                "PTO-SPEC 2, D13",
            )
        if not is_result and not selected <= held:
            raise fail(
                TL,
                f"{role}: held by PEs {t.pe_mask} but the op's mask {op.mask.data} selects a PE "
                "that does not hold it",
                "PTO-SPEC 2, D13",
            )


def cube_dimensions(c: CubeCheck) -> None:
    """5. Dimensions: M = 1 for TGEMV; K agrees across the primaries (PTO-SPEC 4)."""
    m, k = c.a.valid_shape
    kb = c.b.valid_shape[0]
    if c.op.is_gemv() and m != 1:
        raise c.fail(TL, f"a: TGEMV fixes M = 1, a's valid shape is {m}x{k}", "PTO-SPEC 4")
    if kb != k:
        raise c.fail(TL, f"b: valid rows {kb} must equal K = {k} (a's valid cols)", "PTO-SPEC 4")


def cube_postprocess_sources(c: CubeCheck) -> None:
    """6. Post-processing sources (PTO-SPEC 3.3): row-major, location any, defined."""
    T = TileDataType
    m, _k, n = c.mkn
    expect_aux = {
        "row_max_in": ((m, 1), T.FP32 if c.acc is T.FP32 else c.acc),
        "quant": ((1, n), T.U64),
        "prelu": ((1, n), T.U64),
    }
    for role, (shape, dt) in expect_aux.items():
        t = c.tile(role)
        if t is None:
            continue
        _expect_row_major(c.op, role, t, shape, dt, "PTO-SPEC 3.3")
        if t.location_kind is not Location.ANY:
            raise c.fail(
                TL,
                f"{role}: auxiliary matrix sources live in location any, got "
                f"{t.location_kind.value}",
                "asl/tile/model/legality/matrix-postprocess.asl TileMatrixAuxiliarySourceSchemaLegal",
            )


def cube_primaries(c: CubeCheck) -> None:
    """7a. The primaries in stream order (PTO-SPEC 4, D1, D10): distinct tiles ("A==B
    rejected", PTO-SPEC 6, tile-bound-preflight-002; other source aliases such as a_scale ==
    b_scale are snapshot reads and stay legal), CUBE layouts in mat, their E8M0 scales."""
    fail = c.fail
    m, k, n = c.mkn
    if c.roles["a"] is c.roles["b"]:
        raise fail(
            TL,
            "b: the same tile as a; the left and right primaries must be distinct tiles (A==B)",
            "PTO-SPEC 6",
        )
    scale_shapes = {"a": (m, _ceil(k, MX_BLOCK)), "b": (_ceil(k, MX_BLOCK), n)}
    for role, t in (("a", c.a), ("b", c.b)):
        layouts = (Layout.CUBE_M16, Layout.CUBE_M32) if role == "a" else (Layout.CUBE_N8,)
        if t.layout_kind not in layouts:
            raise fail(
                TL,
                f"{role}: layout {t.layout_kind.value} is illegal, expected "
                f"{' or '.join(x.value for x in layouts)}",
                "PTO-SPEC 4, D10",
            )
        # a CUBE layout is in mat by the tile type's own rule (cube_location_errors)
        sc = c.tile(f"{role}_scale")
        if sc is not None:
            _expect_row_major(c.op, f"{role}_scale", sc, scale_shapes[role], TileDataType.E8M0,
                              "PTO-SPEC 4, D1")  # fmt: skip


def cube_bias_and_accumulator(c: CubeCheck) -> None:
    """7b. The bias row (PTO-SPEC 4, D3) and the accumulator input C: the accumulator type,
    A's layout, mat, M x N (PTO-SPEC 3.1, D10)."""
    fail, acc = c.fail, c.acc
    m, _k, n = c.mkn
    bias = c.tile("bias")
    if bias is not None:
        _expect_row_major(c.op, "bias", bias, (1, n), acc, "PTO-SPEC 4, D3")
    t = c.tile("c")
    if t is None:
        return
    if t.dtype is not acc:
        raise fail(
            TL,
            f"c: element type {type_name(t.element_type)} must be the accumulator type "
            f"{type_name(element_type(acc))}",
            "PTO-SPEC 1, 3.1",
        )
    if t.layout_kind is not c.a.layout_kind:
        raise fail(
            TL,
            f"c: layout {t.layout_kind.value} must be a's layout {c.a.layout_kind.value}",
            "PTO-SPEC 3.1, D10",
        )
    # in a's CUBE layout, c is in mat by the tile type's own rule (cube_location_errors)
    if t.valid_shape != (m, n):
        raise fail(
            TL, f"c: valid shape {t.valid_shape[0]}x{t.valid_shape[1]} must be {m}x{n}", "PTO-SPEC 3.1"
        )


def cube_destinations(c: CubeCheck) -> None:
    """8. Destinations: D in A's layout, mat, M x N, FP32 or the PreQuantMode's type; the
    row/group maxima row-major in the accumulator type (PTO-SPEC 3.3, 4, D3, D10)."""
    op, f, fail, acc, a = c.op, c.f, c.fail, c.acc, c.a
    m, _k, n = c.mkn
    d = op.d.type
    assert isinstance(d, TileType)
    out_dt = pre_quant_output_type(f.pre_quant_mode, acc)
    if d.layout_kind is not a.layout_kind:
        raise fail(
            TL,
            f"d: layout {d.layout_kind.value} must be a's layout {a.layout_kind.value}",
            "PTO-SPEC 4, D10",
        )
    # in a's CUBE layout, d is in mat by the tile type's own rule (cube_location_errors)
    if d.valid_shape != (m, n):
        raise fail(TL, f"d: valid shape {d.valid_shape[0]}x{d.valid_shape[1]} must be {m}x{n}", "PTO-SPEC 4")
    if d.dtype is not out_dt:
        raise fail(
            TL,
            f"d: element type {type_name(d.element_type)} must be {type_name(element_type(out_dt))} "
            f"(pre_quant_mode {f.pre_quant_mode})",
            "PTO-SPEC 3.3, D3",
        )
    if op.row_max is not None:
        _expect_row_major(op, "row_max", op.row_max.type, (m, 1), acc, "PTO-SPEC 3.3")  # type: ignore[arg-type]
    if op.group_max is not None:
        # present only with GroupMaxEn (cube_postprocess_presence), which needs GroupNCode != 0
        # (cube_fpatr_fields, before): GroupN >= 8
        gn = _ceil(n, f.group_n)
        _expect_row_major(op, "group_max", op.group_max.type, (m, gn), acc, "PTO-SPEC 3.3")  # type: ignore[arg-type]


CUBE_RULES: tuple[Callable[[CubeCheck], None], ...] = (
    cube_type_pair,
    cube_fpatr_fields,
    cube_pre_quant_mode,
    cube_postprocess_presence,
    cube_local_masks,
    cube_dimensions,
    cube_postprocess_sources,
    cube_primaries,
    cube_bias_and_accumulator,
    cube_destinations,
)
"""The static legality of a CUBE matrix op, in the spec's preflight order (PTO-SPEC 3.5): the
first rule that fails names the fault. Written against roles, so that every member of the
family shares them; a new rule is one function and one row here."""


def verify_cube_operands(op: CubeMatrixOp) -> None:
    """Run :data:`CUBE_RULES` on ``op`` in order."""
    tiles = _Tiles(op)
    roles = op.operand_by_role()
    a = tiles.t(roles.get("a"), "a")
    b = tiles.t(roles.get("b"), "b")
    assert a is not None and b is not None
    check = CubeCheck(op, tiles, roles, a, b, op.fpatr_fields)
    for rule in CUBE_RULES:
        rule(check)


def _fpatr_text(f: Fpatr) -> str:
    return "<" + ", ".join(f"{n} = {v}" for n, v in zip(Fpatr.field_names(), f.as_tuple()) if v) + ">"


def _expect_row_major(
    op: PTOOp, role: str, t: TileType, shape: tuple[int, int], dt: TileDataType, refs: str
) -> None:
    if t.dtype is not dt:
        raise op.fault(
            TL,
            f"{role}: element type {type_name(t.element_type)} must be {type_name(element_type(dt))}",
            refs,
        )
    if t.layout_kind is not Layout.ROW_MAJOR:
        raise op.fault(TL, f"{role}: layout {t.layout_kind.value} must be row_major", refs)
    if t.valid_shape != shape:
        raise op.fault(
            TL,
            f"{role}: valid shape {t.valid_shape[0]}x{t.valid_shape[1]} must be {shape[0]}x{shape[1]}",
            refs,
        )


# ======================================================================================
# Binary elementwise family
# ======================================================================================


class BinaryTileOp(TeplTileBase):
    """Family base of the binary elementwise tile-tile operations (PTO-SPEC 5).

    Members set ``name``, the catalog ``MNEMONIC`` (the TEPL selector ``MODE``, ``FUNCTION`` is
    read from its catalog row), the operand ``ROLES`` used in diagnostics and the legal ``TYPES``. Syntax::

        %d = pto.<op> %lhs, %rhs [{pad = #pto.pad<zero>, mask = #pto.mask<1111>}] : !pto.tile<...>
    """

    MNEMONIC: ClassVar[str]
    ROLES: ClassVar[tuple[str, str]] = ("lhs", "rhs")
    TYPES: ClassVar[frozenset[TileDataType]]
    TYPES_REF: ClassVar[str] = "PTO-SPEC 5"

    lhs = operand_def(TileType)
    rhs = operand_def(TileType)
    result = result_def(TileType)

    custom_directives = (DefaultsFirst, SharedType)
    assembly_format = (
        "custom<DefaultsFirst>() $lhs `,` $rhs attr-dict "
        "`:` custom<SharedType>(type(operands), type(results))"
    )

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        result_type: Attribute | None = None,
        *,
        pad: PadValue = PadValue.NULL,
        mask: str = "1111",
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type or lhs.type],
            properties={"pad": PadValueAttr(pad), "mask": MaskAttr(mask)},
        )

    def verify_(self) -> None:
        # Mask 0 is a strict no-op with no checks (PTO-SPEC 2, D12).
        if self.mask.is_zero:
            return
        lname, rname = self.ROLES
        tiles = {lname: self.lhs.type, rname: self.rhs.type, "result": self.result.type}
        verify_same_tiles(self, tiles, self.TYPES, self.TYPES_REF)


def verify_same_tiles(
    op: PTOOp,
    tiles: dict[str, Attribute],
    types: frozenset[TileDataType],
    types_ref: str,
    type_role: str | None = None,
) -> None:
    """Static legality shared by the elementwise TEPL families (PTO-SPEC 5, D10, D13): every
    tile is a Local row-major ``!pto.tile`` held by the op's PEs, the element type of
    ``type_role`` (default: the first role) is in ``types``, and all tiles match the first
    exactly (element type, physical and valid shape, capacity)."""
    assert all(isinstance(t, TileType) for t in tiles.values()), "the definitions hold tiles"
    names = list(tiles)
    lname = names[0]
    lt: TileType = tiles[lname]  # type: ignore[assignment]
    tt: TileType = tiles[type_role or lname]  # type: ignore[assignment]
    if tt.dtype not in types:
        allowed = ", ".join(sorted(t.name for t in types))
        raise op.fault(
            TL,
            f"{type_role or lname}: element type {type_name(tt.element_type)} is not supported "
            f"(allowed: {allowed})",
            types_ref,
        )
    mask = op.mask.data  # type: ignore[attr-defined]
    for role, t in tiles.items():
        assert isinstance(t, TileType)
        if t.layout_kind is not Layout.ROW_MAJOR:
            raise op.fault(TL, f"{role}: layout {t.layout_kind.value} must be row_major", "PTO-SPEC 5, D10")
        if t.storage_kind is not Storage.LOCAL:
            raise op.fault(TL, f"{role}: operands are Local tiles, got shared", "PTO-SPEC 5")
        if t.pe_mask != mask:
            raise op.fault(
                TL,
                f"{role}: held by PEs {t.pe_mask} but the op's mask is {mask}; "
                "all bindings share one mask",
                "PTO-SPEC 2, D13",
            )
    together = ", ".join(names[:-1]) + " and " + names[-1]
    for role in names[1:]:
        t = tiles[role]
        assert isinstance(t, TileType)
        if t == lt:
            continue
        for what, mine, ref in (
            ("element type", type_name(t.element_type), type_name(lt.element_type)),
            ("physical shape", "x".join(map(str, t.shape)), "x".join(map(str, lt.shape))),
            ("valid shape", "x".join(map(str, t.valid_shape)), "x".join(map(str, lt.valid_shape))),
            ("capacity", str(t.capacity), str(lt.capacity)),
        ):
            if mine != ref:
                raise op.fault(
                    TL,
                    f"{role}: {what} {mine} differs from {lname}'s {ref}; {together} "
                    "must match exactly",
                    "PTO-SPEC 5, D10",
                )


@irdl_op_definition
class TRemOp(BinaryTileOp):
    """``pto.trem`` — elementwise floor modulo; a nonzero result has the divisor's sign.

    Semantics (PTO-SPEC 5, D6-D9)::

        for (i, j) in valid rectangle:
            signed:   r = a - trunc(a / b) * b; if r != 0 and sign(r) != sign(b): r += b
                      (INT_MIN rem -1 = 0; nothing traps)
            unsigned: r = a % b
            float:    r = fmod(a, b); if r != 0 and sign(r) != sign(b): r += b
                      (zero results keep the dividend's sign; b = +-0 gives NaN)
        integer zero anywhere in the divisor's valid rectangle -> Fault_TileLegality, no effect
        elements outside the valid rectangle <- pad (zero / max / min; null = undefined)

    Operands: ``dividend``, ``divisor`` and the result share physical shape, valid shape,
    row-major layout, element type and storage. Types (D6): S32, U32, FP32, S16, U16, FP16,
    BF16. Block form: ``BSTART.SFU TREM, DT; [B.DATR PadValue]; B.DIM LB0=ValidCol;
    [LB1=ValidRow]; [LB2=Col]; B.IOT dividend, divisor, mask, last, ->hand<TSize>; BSTOP``.

    Example::

        %r = pto.trem %a, %b {pad = #pto.pad<zero>} : !pto.tile<8x16xsi32, valid=3x5>
    """

    name = "pto.trem"
    MNEMONIC: ClassVar[str] = "TREM"
    ROLES: ClassVar[tuple[str, str]] = ("dividend", "divisor")
    TYPES: ClassVar[frozenset[TileDataType]] = TREM_TYPES
    TYPES_REF: ClassVar[str] = "PTO-SPEC 5, D6"

    @property
    def dividend(self) -> SSAValue:
        return self.lhs

    @property
    def divisor(self) -> SSAValue:
        return self.rhs


# --------------------------------------------------------------------------------------
# Binary elementwise siblings of TREM (TEPL mode 0). Each is a row: selector, roles and
# type set; the kernel row lives in interpreter.kernels.BINARY_ROWS. Semantics over the
# valid rectangle, then padding with the pad value as for pto.trem (D9).
# --------------------------------------------------------------------------------------


class _VecBinaryOp(BinaryTileOp):
    TYPES: ClassVar[frozenset[TileDataType]] = VEC_ARITH_TYPES
    TYPES_REF: ClassVar[str] = "PTO-SPEC 5, TileVecArithmeticDataTypeSupported"


@irdl_op_definition
class TAddOp(_VecBinaryOp):
    """``pto.tadd`` — ``r = a + b`` elementwise (TEPL 0/0). Example:
    ``%r = pto.tadd %a, %b : !pto.tile<8x16xf32>``."""

    name = "pto.tadd"
    MNEMONIC: ClassVar[str] = "TADD"


@irdl_op_definition
class TSubOp(_VecBinaryOp):
    """``pto.tsub`` — ``r = a - b`` elementwise (TEPL 0/1). Example:
    ``%r = pto.tsub %a, %b : !pto.tile<8x16xsi32>``."""

    name = "pto.tsub"
    MNEMONIC: ClassVar[str] = "TSUB"


@irdl_op_definition
class TMulOp(_VecBinaryOp):
    """``pto.tmul`` — ``r = a * b`` elementwise (TEPL 0/2). Example:
    ``%r = pto.tmul %a, %b : !pto.tile<8x16xf16>``."""

    name = "pto.tmul"
    MNEMONIC: ClassVar[str] = "TMUL"


@irdl_op_definition
class TDivOp(_VecBinaryOp):
    """``pto.tdiv`` — ``r = a / b`` elementwise (TEPL 0/3, SFU). Example:
    ``%r = pto.tdiv %a, %b : !pto.tile<8x16xf32>``."""

    name = "pto.tdiv"
    MNEMONIC: ClassVar[str] = "TDIV"
    ROLES: ClassVar[tuple[str, str]] = ("dividend", "divisor")


@irdl_op_definition
class TMaxOp(_VecBinaryOp):
    """``pto.tmax`` — ``r = max(a, b)`` elementwise (TEPL 0/11). Example:
    ``%r = pto.tmax %a, %b : !pto.tile<8x16xbf16>``."""

    name = "pto.tmax"
    MNEMONIC: ClassVar[str] = "TMAX"


@irdl_op_definition
class TMinOp(_VecBinaryOp):
    """``pto.tmin`` — ``r = min(a, b)`` elementwise (TEPL 0/12). Example:
    ``%r = pto.tmin %a, %b : !pto.tile<8x16xui16>``."""

    name = "pto.tmin"
    MNEMONIC: ClassVar[str] = "TMIN"


class _VecBitwiseOp(BinaryTileOp):
    """Element-width bitwise ops on integers only; signedness does not change the bits
    (``asl/tile/elementwise-tile-tile/logical/T{AND,OR,XOR}.asl``,
    ``TileBinaryDataTypeSupported`` in ``asl/tile/model/legality/dtype-layout.asl``)."""

    TYPES: ClassVar[frozenset[TileDataType]] = VEC_INT_TYPES
    TYPES_REF: ClassVar[str] = "PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported"


@irdl_op_definition
class TAndOp(_VecBitwiseOp):
    """``pto.tand`` — ``r = a & b`` elementwise (TEPL 0/6). Example:
    ``%r = pto.tand %a, %b : !pto.tile<8x16xsi32>``."""

    name = "pto.tand"
    MNEMONIC: ClassVar[str] = "TAND"


@irdl_op_definition
class TOrOp(_VecBitwiseOp):
    """``pto.tor`` — ``r = a | b`` elementwise (TEPL 0/7). Example:
    ``%r = pto.tor %a, %b : !pto.tile<8x16xui16>``."""

    name = "pto.tor"
    MNEMONIC: ClassVar[str] = "TOR"


@irdl_op_definition
class TXorOp(_VecBitwiseOp):
    """``pto.txor`` — ``r = a ^ b`` elementwise (TEPL 0/8). Example:
    ``%r = pto.txor %a, %b : !pto.tile<16x8xsi8>``."""

    name = "pto.txor"
    MNEMONIC: ClassVar[str] = "TXOR"


@irdl_op_definition
class TShlOp(_VecBitwiseOp):
    """``pto.tshl`` — ``r = a << (b & (W - 1))`` on the element width W, low W bits kept
    (TEPL 0/9, ``asl/tile/elementwise-tile-tile/logical/TSHL.asl``). Example:
    ``%r = pto.tshl %a, %b : !pto.tile<8x16xui32>``."""

    name = "pto.tshl"
    MNEMONIC: ClassVar[str] = "TSHL"
    ROLES: ClassVar[tuple[str, str]] = ("lhs", "count")


@irdl_op_definition
class TShrOp(_VecBitwiseOp):
    """``pto.tshr`` — ``r = a >> (b & (W - 1))``: arithmetic for signed, logical for unsigned
    element types (TEPL 0/10, ``asl/tile/elementwise-tile-tile/logical/TSHR.asl``). Example:
    ``%r = pto.tshr %a, %b : !pto.tile<8x16xsi16>``."""

    name = "pto.tshr"
    MNEMONIC: ClassVar[str] = "TSHR"
    ROLES: ClassVar[tuple[str, str]] = ("lhs", "count")


BINARY_OPS: list[type[BinaryTileOp]] = [
    TAddOp, TSubOp, TMulOp, TDivOp, TRemOp, TAndOp, TOrOp, TXorOp, TShlOp, TShrOp, TMaxOp,
    TMinOp
]  # fmt: skip
"""The binary elementwise family (TEPL mode 0)."""


CUBE_OPS: list[type[CubeMatrixOp]] = [
    TMatmulOp,
    TMatmulBiasOp,
    TMatmulAccOp,
    TMatmulMxOp,
    TMatmulMxBiasOp,
    TMatmulMxAccOp,
    TGemvOp,
    TGemvBiasOp,
    TGemvAccOp,
    TGemvMxOp,
    TGemvMxBiasOp,
    TGemvMxAccOp,
]
"""The 12 live CUBE functions (PTO-SPEC 3.1), in function order."""

PTO_OPS: list[type[IRDLOperation]] = [*CUBE_OPS, *BINARY_OPS]
