"""The expression-tree lowering of any elementwise ``linalg.generic`` body to PTO (D18).

After normalisation (:mod:`passes.lowering.fusion`: splat inputs folded to scalars,
producer/consumer chains fused into one body) an elementwise generic is a tree of scalar
``arith``/``math`` ops over its inputs. :func:`plan_elementwise` evaluates that tree from the
yielded value down (so an idiom consumes its sub-ops: ``cmpf`` + ``select`` of a ReLU is
one TRELU, and the ``cmpf`` is never lowered alone) and emits, per body op, tensor-level
PTO ops that ``pto-tile-to-capacity`` tiles:

* ``pto.elementwise`` (TADD ... TMIN, tile-tile), ``pto.map`` (the unary TNEG/TABS/TEXP
  ...; the tile-scalar TADDS ... for a scalar or constant operand; ``expands`` = TEXPANDS
  for a scalar that must become a tile), ``pto.expand`` (TROWEXPAND*/TCOLEXPAND*: the fused
  forms ``x op b`` for a broadcast row or column operand, ``copy`` to materialise one),
  ``pto.floor_mod`` (TREM);
* every operand is a *value class*: ``full`` (a tensor of the iteration shape), ``scalar``
  (an SSA scalar: a constant, a scalar input, one element of a 0-d/1-element input read
  with ``tensor.extract``), ``row`` (an input that varies along a leading block of
  dimensions and is broadcast along the rest: a ``P x 1`` column of the ``P x Q`` view) or
  ``col`` (varies along a trailing block: a ``1 x Q`` row).

The table :data:`BODY_LOWERING` has one row per upstream op (binary, unary, custom, tree,
awaits). A row is data: the ``pto.elementwise``/``pto.map``/``pto.expand`` kinds and whether
the op commutes, or an emit function (the compare/select rows of
:mod:`passes.lowering.compare_select`: ``pto.cmpsel``). Ops whose lowering is not written yet
have an :class:`Awaits` row naming the instruction (TFMA, TCI): when it is written, its row
replaces the ``Awaits`` one. Exactness (D18) per row is in its comment; what is not exact is refused with the
reason (:func:`why_not`, used by :mod:`passes.lowering.explain`).
"""

from __future__ import annotations

import math as pymath
import struct
from collections.abc import Callable

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from passes.lowering.approximate import APPROXIMATIONS, NOT_COMPOSED, d22_kept
from passes.lowering.compare_select import ROWS as COMPARE_SELECT_ROWS
from passes.lowering.conversion import CASTS, ROUNDINGS, emit_assert, emit_cast, emit_round
from passes.lowering.elementwise_rows import (
    COL,
    FULL,
    I1_VALUE,
    ROW,
    SCALAR,
    Awaits,
    Binary,
    Custom,
    Effect,
    NoPto,
    Refused,
    Row,
    Tree,
    Unary,
    Val,
    dtype_ok,
    types_of,
)
from passes.lowering.emitter import reshape
from passes.lowering.fusion import is_elementwise_generic
from passes.lowering.idioms import (
    SIGNED_IDIOM,
    can_take_bias,
    float_idiom,
    gemv_input,
    match_floor_mod_body,
)
from passes.lowering.rows import pto_op_available
from pto_dialect.tensor_local import EXPAND_KINDS, ExpandOp
from pto_dialect.tensor_map import MAP_KINDS, MapOp
from pto_dialect.tensor_ops import (
    ELEMENTWISE_KINDS,
    ELEMENTWISE_TYPES,
    TREM_TYPES,
    ElementwiseOp,
    FloorModOp,
    floor_mod_dtype,
)

# ======================================================================================
# The table
# ======================================================================================


_S, _U = "signed", "unsigned"


GATHER_TILE_BYTES = 65536
"""The largest Local tile (TSize code 10, D14): a table up to this size fits one tile."""


def gather_reason(o: Operation) -> str:
    """Why a ``tensor.extract`` in a body (a data-dependent gather) stays."""
    t = o.operands[0].type
    if isinstance(t, TensorType) and t.has_static_shape():
        elt = t.element_type
        bits = elt.bitwidth if isinstance(elt, IntegerType | AnyFloat) else 64  # type: ignore[union-attr]
        size = pymath.prod(t.get_shape()) * bits // 8
        if size <= GATHER_TILE_BYTES:
            return (f"tensor.extract with a data-dependent index (a gather from a {size} B "
                    "table): TGATHER within one tile; its row is not written yet")
        return (f"tensor.extract with a data-dependent index: kept: needs MGATHER (the {size} B "
                f"table exceeds a {GATHER_TILE_BYTES} B tile)")
    return "tensor.extract with a data-dependent index from a dynamic tensor: needs MGATHER"


def _kept_d22(plan: ElementwisePlan, o: Operation) -> Val:
    for v in o.operands[:1]:  # report what the operand needs too
        plan.value(v)
    return plan.not_lowered(o, d22_kept(o))


BODY_LOWERING: dict[str, Row] = {
    # IEEE RNE in the element type / integers wrap, in both (PTO-SPEC 5): bit-exact.
    "arith.addf": Binary("add", commutes=True),
    "arith.addi": Binary("add", _S, commutes=True),
    "arith.subf": Binary("sub"),
    "arith.subi": Binary("sub", _S),
    "arith.mulf": Binary("mul", commutes=True),
    "arith.muli": Binary("mul", _S, commutes=True),
    # divf is IEEE division (so 1/x is TEXPANDS 1 + TDIV, not TRECIP, whose finite results
    # are profile-defined, TileProfileUnary); divsi truncates in both; an integer zero
    # divisor is UB upstream and a TDIV fault: a refinement.
    "arith.divf": Binary("div"),
    "arith.divsi": Binary("div", _S),
    "arith.divui": Binary("div", _U),
    "arith.remui": Binary("rem", _U),  # floor modulo = remainder for unsigned (TREM, D8)
    "arith.andi": Binary("and", _S, commutes=True),
    "arith.ori": Binary("or", _S, commutes=True),
    "arith.xori": Binary("xor", _S, commutes=True),
    # A shift by >= the width is poison upstream; TSHL/TSHR use its low bits: a refinement.
    "arith.shli": Binary("shl", _S),
    "arith.shrsi": Binary("shr", _S),
    "arith.shrui": Binary("shr", _U),
    # maxnumf/minnumf: one NaN gives the other operand, -0 < +0: TMAX/TMIN's rule exactly.
    "arith.maxnumf": Binary("max", commutes=True),
    "arith.minnumf": Binary("min", commutes=True),
    "arith.maxsi": Binary("max", _S, commutes=True),
    "arith.minsi": Binary("min", _S, commutes=True),
    "arith.maxui": Binary("max", _U, commutes=True),
    "arith.minui": Binary("min", _U, commutes=True),
    # maximumf/minimumf (NaN-propagating), cmpf, cmpi, select: the compare/select rows of
    # passes/lowering/compare_select.py (TCMP + TSEL, with TMAX/TMIN where exact), added
    # to this table below.
    # Sign-bit operations, NaN payloads kept, in both: bit-exact.
    "arith.negf": Unary("neg"),
    "math.absf": Unary("abs"),
    "math.absi": Unary("abs", _S),  # |INT_MIN| wraps in both
    # math.exp/log/rsqrt have no exact rounding upstream; sqrt is correctly rounded
    # upstream and TSQRT's finite results are profile-defined (this interpreter's profile
    # rounds once: correctly rounded for FP32 and narrower).
    "math.exp": Unary("exp"),
    "math.log": Unary("log"),
    "math.sqrt": Unary("sqrt"),
    "math.rsqrt": Unary("rsqrt"),
    # Conversions and rounding (passes/lowering/conversion.py: TCVT with the mode and Sat
    # that make it exact, D18/D20; floor ... round as a TCVT round trip plus selects).
    **{n: Custom(emit_cast) for n in CASTS},
    **{n: Custom(emit_round) for n in ROUNDINGS},
    "math.fma": Awaits(("TFMA",), "a fused multiply-add of three tiles"),
    "linalg.index": Awaits(("TCI",), "the iteration index"),
    # An iota (linalg.index + index_cast: torch-mlir's Trilu masks, TopK's indices) is TCI;
    # a data-dependent tensor.extract is a gather (embeddings): TGATHER within a tile,
    # MGATHER from global memory (issue 28 item 4: reasons until those rows are written).
    "arith.index_cast": Awaits(("TCI",), "an index cast: of linalg.index, the iota TCI "
                                         "generates"),
    "tensor.extract": Tree(lambda plan, o: plan.not_lowered(o, gather_reason(o))),
    "arith.remsi": NoPto("a truncating remainder: TREM is floor modulo (only the floor-mod "
                         "idiom maps to it)"),
    "arith.remf": NoPto("C fmod: TREM is floor modulo (only the floor-mod idiom maps to it)"),
    "arith.bitcast": NoPto("a bit reinterpretation: TCVT converts values and no tile "
                           "instruction reinterprets a tile's element type"),
    # D22: tanh, erf, integer powers have compositions (passes/lowering/approximate.py,
    # expanded in the body before this table is read); what reaches the table stays.
    **{n: Tree(_kept_d22) for n in (*APPROXIMATIONS, *NOT_COMPOSED)},
    "math.exp2": NoPto("no PTO instruction computes exp2"),
    "math.log2": NoPto("no PTO instruction computes log2"),
    # torch-mlir's guard (ONNX Reciprocal): the check faults where it fails (conversion.py).
    "cf.assert": Effect(emit_assert),
}
"""Body op name -> how it lowers (module docstring). Adding an instruction's lowering is one
row here: a :class:`Binary`/:class:`Unary` row for an op of the existing tensor-level forms,
a :class:`Custom` row (with its emit function) for TCMP/TSEL/TCVT."""

BODY_LOWERING.update(COMPARE_SELECT_ROWS)

EXPAND_OPS = frozenset(op for (_axis, op) in EXPAND_KINDS if op not in ("copy", "expdif"))
"""The binary kinds with a fused row/column broadcast form (TROWEXPANDADD ...)."""


# ======================================================================================
# Values and the plan
# ======================================================================================


def _elt(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType) else t  # type: ignore[return-value]


def _is_zero_const(v: SSAValue, positive: bool) -> bool:
    c = v.owner
    if not isinstance(c, arith.ConstantOp):
        return False
    val = c.value
    if isinstance(val, FloatAttr):
        x = val.value.data
        return x == 0.0 and (not positive or pymath.copysign(1.0, x) > 0)
    if isinstance(val, IntegerAttr):
        return val.value.data == 0
    return False


def _const_key(v: SSAValue) -> tuple | None:
    """Equal constants share one materialisation (keyed by their bits: +0 and -0 differ)."""
    c = v.owner
    if not isinstance(c, arith.ConstantOp):
        return None
    val = c.value
    if isinstance(val, FloatAttr):
        return (val.type, struct.pack("<d", val.value.data))
    if isinstance(val, IntegerAttr):
        return (val.type, val.value.data)
    return None


class ElementwisePlan:
    """Builds the PTO ops of one generic, detached, in a list (:func:`plan_elementwise`)."""

    def __init__(self, op: linalg.GenericOp | linalg.FillOp):
        self.op = op
        t = op.results[0].type
        assert isinstance(t, TensorType)
        self.shape = tuple(t.get_shape())
        if isinstance(op, linalg.GenericOp):
            self.block: Block = op.body.block
            self.maps = [m.data for m in op.indexing_maps.data]
        self.ops: list[Operation] = []
        self.memo: dict[SSAValue, Val] = {}
        self.missing: list[str] = []  # ops with no row yet: every one is reported
        self.consts: dict[int, SSAValue] = {}
        self.full: dict[tuple, Val] = {}  # materialised scalars / broadcasts, made once

    # -- emission helpers ---------------------------------------------------------------
    def __call__(self, o: Operation) -> Operation:
        self.ops.append(o)
        return o

    def index(self, v: int) -> SSAValue:
        if v not in self.consts:
            self.consts[v] = self(arith.ConstantOp(IntegerAttr(v, IndexType()))).results[0]
        return self.consts[v]

    def reshape(self, v: SSAValue, shape) -> SSAValue:

        return reshape(self, v, shape)  # type: ignore[arg-type]

    def full_type(self, elt: Attribute) -> TensorType:
        return TensorType(elt, list(self.shape))

    def view(self, split: int) -> tuple[int, int]:
        return pymath.prod(self.shape[:split]), pymath.prod(self.shape[split:])

    def empty(self, elt: Attribute) -> SSAValue:
        return self(tensor.EmptyOp([], self.full_type(elt))).results[0]

    # -- value classes ------------------------------------------------------------------
    def input_val(self, i: int) -> Val:
        v = self.op.inputs[i]
        m: AffineMap = self.maps[i]
        n = len(self.shape)
        if not isinstance(v.type, TensorType):
            return Val(SCALAR, v)
        if m == AffineMap.identity(n):
            return Val(FULL, v)
        sh = v.type.get_shape()
        dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
        consts = [(k, e.value) for k, e in enumerate(m.results) if isinstance(e, AffineConstantExpr)]
        if any(sh[k] != 1 or c != 0 for k, c in consts):
            raise Refused(f"input {i} ({m}) reads one slice of its operand, not all of it")
        if not dims:  # every element is the one element: a scalar
            elt = v.type.element_type
            idx = [self.index(0) for _ in sh]
            return Val(SCALAR, self(tensor.ExtractOp(v, idx, elt)).results[0])
        s = dims[0]
        # unit dimensions of the iteration are free: they join either block
        free = [k in dims or self.shape[k] == 1 for k in range(n)]
        if dims == sorted(dims) and all(free[: dims[-1] + 1]):
            split, cls = dims[-1] + 1, ROW
        elif dims == sorted(dims) and all(free[dims[0]:]):
            split, cls = dims[0], COL
        else:
            raise Refused(f"broadcast input {i} ({m}) varies along neither a leading nor a "
                          "trailing block of dimensions (needs a transpose first)")  # fmt: skip
        del s
        p, q = self.view(split)
        if (cls == ROW and q == 1) or (cls == COL and p == 1):  # no dimension is broadcast
            return Val(FULL, self.reshape(v, self.shape))
        return Val(cls, self.reshape(v, (p, 1) if cls == ROW else (1, q)), split)

    def scalar_operand(self, s: SSAValue, elt: Attribute) -> SSAValue:
        """The scalar as ``pto.map`` takes it: the element's float type, or an i64 word."""
        if isinstance(elt, AnyFloat):
            return s
        if not isinstance(s.type, IntegerType):
            raise Refused(f"scalar operand of type {s.type} is not an integer of the element type")
        if s.type == i64:
            return s
        c = s.owner
        if isinstance(c, arith.ConstantOp) and isinstance(c.value, IntegerAttr):
            return self(arith.ConstantOp(IntegerAttr(c.value.value.data, i64))).results[0]
        return self(arith.ExtSIOp(s, i64)).results[0]  # the low bits are the element

    def materialise(self, x: Val, elt: Attribute, sign: str | None) -> Val:
        """``x`` as a ``full`` tensor: TEXPANDS for a scalar, an expand copy for a row or
        column (exact: data movement)."""
        if x.cls == FULL:
            return x
        key = (x.cls, _const_key(x.v) or x.v, x.split, elt)
        if key in self.full:
            return self.full[key]
        sign = (sign or _S) if isinstance(elt, IntegerType) else None
        if x.cls == SCALAR:
            self.check_map("expands", elt, sign)
            s = self.scalar_operand(x.v, elt)
            r = Val(FULL, self(MapOp("expands", self.empty(elt), [s], sign)).results[0])
        else:
            self.check_expand(x.cls, "copy", elt, sign)
            p, q = self.view(x.split)
            e = self(ExpandOp(f"{x.cls}.copy", [x.v], TensorType(elt, [p, q]), sign)).results[0]
            r = Val(FULL, self.reshape(e, self.shape))
        self.full[key] = r
        return r

    # -- type checks (the tensor ops verify the same sets) --------------------------------
    def check_map(self, kind: str, elt: Attribute, sign: str | None) -> None:
        cls = MAP_KINDS[kind]
        if not dtype_ok(elt, sign, types_of(cls.TYPES)):
            raise Refused(f"{cls.MNEMONIC} does not take {elt}{' ' + sign if sign and isinstance(elt, IntegerType) else ''}")

    def check_expand(self, axis: str, kind: str, elt: Attribute, sign: str | None) -> None:
        cls = EXPAND_KINDS[(axis, kind)]
        if not dtype_ok(elt, sign, types_of(cls.TYPES)):
            raise Refused(f"{cls.MNEMONIC} does not take {elt}")

    def check_binary(self, kind: str, elt: Attribute, sign: str | None) -> None:
        types = TREM_TYPES if kind == "rem" else ELEMENTWISE_TYPES[kind]
        if not dtype_ok(elt, sign, types):
            m = "TREM" if kind == "rem" else ELEMENTWISE_KINDS[kind]
            raise Refused(f"{m} does not take {elt}")

    # -- evaluation ---------------------------------------------------------------------
    def value(self, v: SSAValue) -> Val:
        if v in self.memo:
            return self.memo[v]
        if isinstance(v, BlockArgument) and v.block is self.block:
            if v.index == len(self.block.args) - 1:
                raise Refused("the body reads the output's initial value")
            r = self.input_val(v.index)
        elif not (isinstance(v.owner, Operation) and v.owner.parent_block() is self.block):
            r = Val(SCALAR, v)  # defined outside the generic: a scalar
        elif isinstance(v.owner, arith.ConstantOp):
            r = Val(SCALAR, self(v.owner.clone()).results[0])
        else:
            r = self.emit_op(v.owner)  # type: ignore[arg-type]
        self.memo[v] = r
        return r

    def emit_op(self, o: Operation) -> Val:
        for idiom in IDIOMS:
            got = idiom(self, o)
            if got is not None:
                return got
        row = BODY_LOWERING.get(o.name)
        if row is None:
            return self.not_lowered(o, f"{o.name} has no row in the elementwise table")
        if isinstance(row, NoPto):
            return self.not_lowered(o, f"{o.name}: {row.why}")
        if isinstance(row, Awaits):
            return self.awaits(o, row)
        if isinstance(row, Tree):
            return row.emit(self, o)
        elt = o.results[0].type
        if isinstance(elt, IntegerType) and elt.width.data == 1:
            return self.not_lowered(o, f"{o.name} on i1: {I1_VALUE}")
        if isinstance(row, Custom):
            return row.emit(self, o, [self.value(v) for v in o.operands])
        if isinstance(row, Unary):
            x = self.materialise(self.value(o.operands[0]), elt, row.sign)
            sign = row.sign or (_S if isinstance(elt, IntegerType) else None)
            self.check_map(row.kind, elt, sign)
            return Val(FULL, self(MapOp(row.kind, x.v, (), sign)).results[0])
        return self.binary(o, row, self.value(o.operands[0]), self.value(o.operands[1]))

    def not_lowered(self, o: Operation, why: str) -> Val:
        """Record why ``o`` is not lowered and go on with a stand-in (so that every such op
        of the body is reported, not only the first); the plan is refused at the end."""
        if why not in self.missing:
            self.missing.append(why)
        t = o.results[0].type if o.results else None
        if t is None or not isinstance(t, IntegerType | AnyFloat):
            raise Refused("; ".join(self.missing))
        return Val(FULL, self(tensor.EmptyOp([], self.full_type(t))).results[0])

    def awaits(self, o: Operation, row: Awaits) -> Val:
        for v in o.operands:  # report what the operands need too (a select's compare)
            self.value(v)
        missing = [m for m in row.needs if not pto_op_available(m)]
        note = f" ({row.note})" if row.note else ""
        if missing:
            return self.not_lowered(o, f"{o.name}{note} needs {', '.join(row.needs)}: not in the "
                                    "pto dialect yet; its lowering awaits that row")  # fmt: skip
        return self.not_lowered(o, f"{o.name}{note} needs {', '.join(row.needs)}: in the pto "
                                "dialect; its row in the elementwise table is not written yet")  # fmt: skip

    def binary(self, o: Operation, row: Binary, x: Val, y: Val) -> Val:
        elt = o.results[0].type
        sign = row.sign if isinstance(elt, IntegerType) else None
        if x.cls == SCALAR and y.cls == SCALAR and o.name.startswith("arith."):
            c = o.clone(value_mapper={o.operands[0]: x.v, o.operands[1]: y.v})
            return Val(SCALAR, self(c).results[0])  # scalar arithmetic: scalar control
        if x.cls != FULL and y.cls == FULL and row.commutes:
            x, y = y, x
        if x.cls == SCALAR and y.cls == FULL and row.kind == "sub":
            # s - y = (-y) + s exactly (IEEE subtraction is addition of the negation;
            # integers wrap in both)
            self.check_map("neg", elt, sign)
            neg = Val(FULL, self(MapOp("neg", y.v, (), sign)).results[0])
            return self.binary(o, Binary("add", row.sign, True), neg, x)
        if x.cls != FULL:
            x = self.materialise(x, elt, sign)
        if y.cls == FULL:
            if row.kind == "rem":
                self.check_binary("rem", elt, sign)
                return Val(FULL, self(FloorModOp(x.v, y.v, sign)).results[0])
            self.check_binary(row.kind, elt, sign)
            return Val(FULL, self(ElementwiseOp(row.kind, x.v, y.v, sign)).results[0])
        if y.cls == SCALAR:
            self.check_map(row.kind + "s", elt, sign)
            s = self.scalar_operand(y.v, elt)
            return Val(FULL, self(MapOp(row.kind + "s", x.v, [s], sign)).results[0])
        if row.kind in EXPAND_OPS:  # a row / column broadcast: the fused expand form
            self.check_expand(y.cls, row.kind, elt, sign)
            p, q = self.view(y.split)
            x2 = self.reshape(x.v, (p, q))
            e = self(ExpandOp(f"{y.cls}.{row.kind}", [x2, y.v], TensorType(elt, [p, q]), sign))
            return Val(FULL, self.reshape(e.results[0], self.shape))
        return self.binary(o, row, x, self.materialise(y, elt, sign))

    def result(self) -> SSAValue:
        y = self.block.last_op
        assert isinstance(y, linalg.YieldOp)
        out_t = self.op.results[0].type
        assert isinstance(out_t, TensorType)
        elt = out_t.element_type
        sign = _S if isinstance(elt, IntegerType) else None
        checks = []
        for o in self.block.ops:  # effects the yielded tree does not reach (cf.assert)
            if o is not y and not o.results:
                row = BODY_LOWERING.get(o.name)
                if isinstance(row, Effect):
                    checks.append(row.emit(self, o))  # emitted before the result's ops
                    continue
                why = row.why if isinstance(row, NoPto) else "an op with an effect"
                raise Refused(f"{o.name}: {why}")
        r = self.materialise(self.value(y.operands[0]), elt, sign)
        for after_check in checks:
            r = Val(FULL, after_check(r.v))
        if r.v.type != out_t:
            raise Refused(f"the body yields {r.v.type}, not {out_t}")
        return r.v

    def discard(self) -> None:
        for o in reversed(self.ops):
            o.erase()
        self.ops = []


# ======================================================================================
# Idioms (checked before the rows, on the op that roots them)
# ======================================================================================


def relu_idiom(plan: ElementwisePlan, o: Operation) -> Val | None:
    """``maximumf(x, +0)``: exactly TRELU -- positives kept, every negative and -0 give +0, a
    NaN gives a NaN whose payload MLIR leaves free (TRELU's canonical quiet NaN, D21). The
    ``select(cmpf ugt x, 0; x, +0)`` spellings are not this idiom: select returns x itself,
    payload included, so they go through the compare-select rows (TCMP + TSEL keep the bits).
    Integers: ``maxsi(x, 0)`` is TMAXS already."""
    elt = o.results[0].type
    if not isinstance(elt, AnyFloat):
        return None
    x = None
    if isinstance(o, arith.MaximumfOp):
        for a, b in ((o.lhs, o.rhs), (o.rhs, o.lhs)):
            if _is_zero_const(b, positive=True):
                x = a
    if x is None:
        return None
    v = plan.materialise(plan.value(x), elt, None)
    plan.check_map("relu", elt, None)
    return Val(FULL, plan(MapOp("relu", v.v)).results[0])


_SIGNIFICAND_BITS = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}


def int_round_trip_idiom(plan: ElementwisePlan, o: Operation) -> Val | None:
    """``fptosi(negf|absf(sitofp x))`` with a float type that holds every value of x's
    integer type exactly: the integer TNEG / TABS (``-INT_MIN`` and ``|INT_MIN|`` are out of
    range for fptosi, poison upstream, and wrap in TNEG/TABS: a refinement). torch-mlir
    emits this for ONNX Neg on integers."""
    if not isinstance(o, arith.FPToSIOp):
        return None
    mid = o.input.owner
    if not isinstance(mid, Operation) or mid.name not in ("arith.negf", "math.absf"):
        return None
    src = mid.operands[0].owner  # type: ignore[union-attr]
    if not isinstance(src, arith.SIToFPOp):
        return None
    x = src.input
    it, ft = x.type, src.result.type
    if it != o.result.type or not isinstance(it, IntegerType) or not isinstance(ft, AnyFloat):
        return None
    if _SIGNIFICAND_BITS.get(str(ft), 0) < it.width.data:
        return None  # the float does not hold every integer exactly
    kind = "neg" if mid.name == "arith.negf" else "abs"
    v = plan.materialise(plan.value(x), it, _S)
    plan.check_map(kind, it, _S)
    return Val(FULL, plan(MapOp(kind, v.v, (), _S)).results[0])


IDIOMS: tuple[Callable[[ElementwisePlan, Operation], Val | None], ...] = (relu_idiom, int_round_trip_idiom)
"""Idioms tried on each body op before its row (in order)."""


def _floor_mod_body(op: linalg.GenericOp) -> tuple[int, int, str | None] | None:

    block = op.body.block
    m = match_floor_mod_body(block, SIGNED_IDIOM)
    if m is not None:
        return (*m, _S)
    m = match_floor_mod_body(block, float_idiom())
    return None if m is None else (*m, None)


# ======================================================================================
# Entry points
# ======================================================================================


def plan_elementwise(op: linalg.GenericOp) -> tuple[list[Operation], SSAValue]:
    """The detached PTO ops computing ``op`` and the value replacing its result; raises
    :class:`Refused` (nothing left behind) when the body has no exact lowering."""
    if not is_elementwise_generic(op):
        raise Refused("not an elementwise generic with static shapes")
    if not op.results[0].type.get_shape():  # type: ignore[union-attr]
        raise Refused("a 0-d result (PTO tiles are 2-D)")
    plan = ElementwisePlan(op)
    try:
        fm = _floor_mod_body(op)
        if fm is not None:  # the floor-modulo idiom (TREM) with broadcast operands
            ia, ib, sign = fm
            elt = op.results[0].type.element_type  # type: ignore[union-attr]
            if floor_mod_dtype(elt, sign) is None:
                raise Refused(f"the floor-modulo idiom on {elt}: outside pto.floor_mod's "
                              "element types (TREM, D6)")  # fmt: skip
            a = plan.materialise(plan.input_val(ia), elt, sign)
            b = plan.materialise(plan.input_val(ib), elt, sign)
            r = plan(FloorModOp(a.v, b.v, sign)).results[0]
        else:
            r = plan.result()
        if plan.missing:
            raise Refused("; ".join(plan.missing))
    except Refused:
        plan.discard()
        raise
    return plan.ops, r


def why_not(op: Operation) -> str | None:
    """Why the elementwise lowering refuses ``op`` (None: it would lower it)."""
    if not isinstance(op, linalg.GenericOp):
        return None
    try:
        ops, _ = plan_elementwise(op)
    except Refused as e:
        return str(e)
    for o in reversed(ops):
        o.erase()
    return None


def _feeds_gemv_bias(op: linalg.GenericOp) -> bool:
    """A bias add on a GEMV result folds into the GEMV (its patterns run first)."""

    return any((g := gemv_input(v, op)) is not None and can_take_bias(g) for v in op.inputs)


class ElementwiseTreeToPto(RewritePattern):
    """Any elementwise ``linalg.generic`` whose body :func:`plan_elementwise` lowers.

    Matches e.g. (Sigmoid as torch-mlir emits it)::

        %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = [...]}
            ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
        ^bb0(%in: f32, %out: f32):
          %0 = arith.negf %in : f32
          %1 = math.exp %0 : f32
          %2 = arith.addf %1, %cst : f32
          %3 = arith.divf %cst, %2 : f32
          linalg.yield %3 : f32
        }

    Produces ``pto.map neg``, ``pto.map exp``, ``pto.map adds`` (the constant), ``pto.map
    expands`` (1.0) and ``pto.elementwise div``. Runs after the idiom and epilogue patterns.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not is_elementwise_generic(op) or _feeds_gemv_bias(op):
            return
        try:
            ops, r = plan_elementwise(op)
        except Refused:
            return
        rewriter.insert(ops, InsertPoint.before(op))
        rewriter.replace(op, [], [r])


class FillToExpands(RewritePattern):
    """``linalg.fill`` of a static tensor that no linalg op reads (a returned constant
    tensor, a fill read by PTO ops): ``pto.map expands`` (TEXPANDS, the scalar's bits).

    Matches ``%f = linalg.fill ins(%c : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>``;
    a fill that initialises a contraction or reduction is left to those patterns."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, linalg.FillOp) or len(op.inputs) != 1 or len(op.results) != 1:
            return
        t = op.results[0].type
        if not isinstance(t, TensorType) or not t.has_static_shape() or not t.get_shape():
            return
        if any(u.operation.name.startswith("linalg.") for u in op.results[0].uses):
            return
        s = op.inputs[0]
        if s.type != t.element_type:
            return
        plan = ElementwisePlan(op)
        try:
            r = plan.materialise(Val(SCALAR, s), t.element_type, None)
        except Refused:
            plan.discard()
            return
        rewriter.insert(plan.ops, InsertPoint.before(op))
        rewriter.replace(op, [], [r.v])


class NamedElementwiseToTree(RewritePattern):
    """A named elementwise op the one-op patterns leave (``linalg.max``/``min`` on floats:
    their bodies are ``maximumf``/``minimumf``), lowered through its generic form.

    Matches ``%m = linalg.max ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e :
    tensor<8xf32>) -> tensor<8xf32>``; produces what :class:`ElementwiseTreeToPto` produces
    for the ``linalg.generic`` with the same maps and body (here TMAX and two compare/selects).
    """

    NAMED = (linalg.AddOp, linalg.SubOp, linalg.MulOp, linalg.MaxOp, linalg.MinOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.NAMED) or len(op.outputs) != 1 or len(op.results) != 1:
            return
        g = linalg.GenericOp(op.inputs, op.outputs, op.body.clone(), op.get_indexing_maps(),
                             op.get_iterator_types(), [op.results[0].type])  # fmt: skip
        try:
            ops, r = plan_elementwise(g)
        except Refused:
            return
        finally:
            g.erase()
        rewriter.insert(ops, InsertPoint.before(op))
        rewriter.replace(op, [], [r])


ELEMENTWISE_TREE_PATTERNS: tuple[type[RewritePattern], ...] = (
    ElementwiseTreeToPto,
    NamedElementwiseToTree,
    FillToExpands,
)

__all__ = [
    "BODY_LOWERING",
    "ELEMENTWISE_TREE_PATTERNS",
    "ElementwiseTreeToPto",
    "FillToExpands",
    "IDIOMS",
    "NamedElementwiseToTree",
    "Refused",
    "plan_elementwise",
    "why_not",
]
