"""Reductions: ``linalg.generic`` with reduction iterators -> ``pto.reduce`` (TROW*/TCOL*).

* :class:`DropDeadGenericResults` (normalisation) — a multi-result generic whose extra
  results are unused loses them and the body ops only they needed. torch-mlir's
  ``ReduceMax`` / ``Softmax`` compute an arg-max index next to the maximum and drop it.
* :class:`ReductionGenericToPto` — one input, one output, the input map the identity, the
  output map the kept dimensions (dropped, or ``0`` for keepdims), the body one op of
  :data:`REDUCE_BODIES` applied to the element and the accumulator, the init a fill (or
  splat) of a constant. The reduced dimensions must be contiguous: all the trailing ones
  (row kinds) or all the leading ones (column kinds), when the input is viewed as a 2-D
  ``rows x cols`` tensor (data movement) whose lines the TROW*/TCOL* instruction folds in
  the input's iteration order; or between kept ones, when each leading index's slice is
  one column fold (at most :data:`MAX_SLICES` slices).

Exactness (D18). A ``linalg`` reduction is a sequential fold in iteration order from the
init. TROW*/TCOL* (``asl/tile/model/execution/reduction.asl``) fold each line in increasing
index, SUM from +0, PROD from one, MAX/MIN from the first element, one typed step at a time
(no widening, no reassociation), and ``pto-tile-to-capacity`` never splits a line
(``passes/tile_local_to_capacity.py``). Hence, per body op:

* integer ``addi`` / ``muli`` / ``max*i`` / ``min*i``: wrapping arithmetic and integer order
  are associative and commutative: exact from the identity init (0, 1, the type's extreme);
  an init that is not the identity is one TADDS/TMULS/TMAXS/TMINS after the fold;
* float ``addf`` / ``mulf``: the same steps in the same order (IEEE addition and
  multiplication commute bit for bit); only from ``+0.0`` / ``1.0``: a fold continued from
  another init rounds differently, and ``-0.0`` differs on an all ``-0`` line;
* ``maxnumf`` / ``minnumf``: TMAX/TMIN are maxnum/minnum (one NaN -> the other operand,
  -0 < +0), associative and commutative, so the fold is the set's maximum; the init is one
  TMAXS/TMINS after it, always (an all-NaN line gives the init upstream, NaN in TROWMAX);
* ``maximumf`` / ``minimumf`` propagate NaN, TMAX/TMIN do not: the lowering adds the exact
  NaN propagation ``r * rowprod(exp(-|x|) * 0 + 1)`` (the product is 1 for a NaN-free line,
  NaN otherwise; ``r * 1 = r`` bit for bit, signed zeros and infinities included).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from passes.lowering.emitter import reassoc
from passes.lowering.idioms import arg_index, body_ops, constant_scalar, yielded_value
from pto_dialect.tensor_local import REDUCE_KINDS, ReduceOp
from pto_dialect.tensor_map import MapOp
from pto_dialect.tensor_ops import ElementwiseOp, floor_mod_dtype


@dataclass(frozen=True)
class ReduceBody:
    """What one reduction body op is in PTO terms."""

    reduction: str  # sum / prod / max / min
    signedness: str | None  # integer ops: the S/U tile type; floats: None
    nan_propagating: bool = False  # maximumf / minimumf


REDUCE_BODIES: dict[type[Operation], ReduceBody] = {
    arith.AddfOp: ReduceBody("sum", None),
    arith.AddiOp: ReduceBody("sum", "signed"),
    arith.MulfOp: ReduceBody("prod", None),
    arith.MuliOp: ReduceBody("prod", "signed"),
    arith.MaxnumfOp: ReduceBody("max", None),
    arith.MinnumfOp: ReduceBody("min", None),
    arith.MaxSIOp: ReduceBody("max", "signed"),
    arith.MinSIOp: ReduceBody("min", "signed"),
    arith.MaxUIOp: ReduceBody("max", "unsigned"),
    arith.MinUIOp: ReduceBody("min", "unsigned"),
    arith.MaximumfOp: ReduceBody("max", None, nan_propagating=True),
    arith.MinimumfOp: ReduceBody("min", None, nan_propagating=True),
}
"""Reduction body op -> the TROW*/TCOL* fold that computes it (module docstring)."""


# ======================================================================================
# Normalisation: dead results of a multi-result generic
# ======================================================================================


def _erase_dead_body_ops(block: Block) -> None:
    """Erase side-effect-free body ops whose results are unused (walking backwards)."""
    changed = True
    while changed:
        changed = False
        for o in reversed(list(block.ops)):
            if isinstance(o, linalg.YieldOp) or not o.results:
                continue
            if not o.name.startswith(("arith.", "math.", "linalg.index")):
                continue
            if all(not r.uses for r in o.results):
                o.detach()
                o.erase()
                changed = True


class DropDeadGenericResults(RewritePattern):
    """A ``linalg.generic`` result nobody uses is removed with its output and body ops.

    Matches (torch-mlir's ``ReduceMax``: the arg-max index ``%r#1`` is unused)::

        %r:2 = linalg.generic {indexing_maps = [#x, #o, #o], ...}
            ins(%x : ...) outs(%init, %idx : tensor<4xf32>, tensor<4xi64>) {
        ^bb0(%in: f32, %out: f32, %out_0: i64):
          %i = linalg.index 1 : index  ...  %s = arith.select %c, %ic, %out_0 : i64
          %m = arith.maximumf %in, %out : f32
          linalg.yield %m, %s : f32, i64
        }

    Produces the one-result generic ``outs(%init)`` yielding ``%m``. The remaining result's
    values are unchanged (every output is computed independently of the others' values
    unless the body reads them: a result whose block argument is still read is kept).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        n_out = len(op.outputs)
        if n_out < 2 or len(op.results) != n_out:
            return
        dead = [i for i, r in enumerate(op.results) if not r.uses]
        if not dead or len(dead) == n_out:
            return
        region = op.body.clone()
        block = region.block
        y = block.last_op
        if not isinstance(y, linalg.YieldOp):
            return
        keep = [i for i in range(n_out) if i not in dead]
        new_yield = linalg.YieldOp(*[y.operands[i] for i in keep])
        block.insert_op_before(new_yield, y)
        y.detach()
        y.erase()
        _erase_dead_body_ops(block)
        n_in = len(op.inputs)
        if any(block.args[n_in + i].uses for i in dead):
            return  # the kept results read a dropped output: not independent
        for i in reversed(dead):
            block.erase_arg(block.args[n_in + i])
        maps = list(op.indexing_maps.data)
        new_maps = maps[:n_in] + [maps[n_in + i] for i in keep]
        new = linalg.GenericOp(
            list(op.inputs),
            [op.outputs[i] for i in keep],
            region,
            ArrayAttr(new_maps),
            op.iterator_types,
            [op.results[i].type for i in keep],
        )
        rewriter.replace(op, [new], [new.results[keep.index(i)] if i in keep else None
                                     for i in range(n_out)])  # fmt: skip


# ======================================================================================
# Recognition
# ======================================================================================


@dataclass
class Reduction:
    """A recognised reduction generic (see :func:`match_reduction`)."""

    body: ReduceBody
    axis: str  # row: the reduced dims are the trailing ones; col: the leading ones;
    # slicesB: between B leading kept slices and trailing kept dims (a column fold per slice)
    rows: int
    cols: int
    init: int | float


def _init_constant(v: SSAValue) -> int | float | None:
    """The constant a reduction's init holds everywhere: a ``linalg.fill`` of a scalar
    constant or a splat ``arith.constant``; None otherwise."""
    o = v.owner
    if isinstance(o, linalg.FillOp) and len(o.inputs) == 1:
        return constant_scalar(o.inputs[0])
    return constant_scalar(v)


def reduction_layout(op: linalg.GenericOp) -> tuple[str, int, int] | str:
    """``(axis, rows, cols)`` of a one-input one-output reduction generic, or why not."""
    maps = [m.data for m in op.indexing_maps.data]
    its = [it.data for it in op.iterator_types.data]
    n = len(its)
    x_t = op.inputs[0].type
    if not isinstance(x_t, TensorType) or not x_t.has_static_shape() or x_t.get_num_dims() != n:
        return "the input is not a static tensor of the iteration rank"
    if maps[0] != AffineMap.identity(n):
        return f"the input map {maps[0]} is not the identity"
    red = [i for i, it in enumerate(its) if it is IteratorType.REDUCTION]
    par = [i for i in range(n) if i not in red]
    out = maps[1].results
    dropped = tuple(AffineDimExpr(i) for i in par)
    keep = tuple(AffineConstantExpr(0) if i in red else AffineDimExpr(i) for i in range(n))
    if out not in (dropped, keep):
        return f"the output map {maps[1]} is not the kept dimensions in order"
    shape = x_t.get_shape()
    size = math.prod(shape[i] for i in red)
    other = math.prod(shape[i] for i in par)
    if red == list(range(n - len(red), n)):
        return "row", other, size
    if red == list(range(len(red))):
        return "col", size, other
    if red == list(range(red[0], red[-1] + 1)):
        batches = math.prod(shape[: red[0]])
        if batches > MAX_SLICES:
            return (f"the reduced dimensions lie between kept ones: {batches} slices (one TCOL* "
                    f"each) exceed the lowering's limit of {MAX_SLICES}")  # fmt: skip
        return f"slices{batches}", size, math.prod(shape[red[-1] + 1 :])
    return "the reduced dimensions are not contiguous (no TROW*/TCOL* line order)"


MAX_SLICES = 64
"""Most ``(leading kept, reduced, trailing kept)`` slices a reduction unrolls into."""


def match_reduction(op: Operation) -> Reduction | str | None:
    """A :class:`Reduction`, or a sentence saying why this reduction does not lower (None:
    not a one-input one-output reduction generic at all)."""
    if not isinstance(op, linalg.GenericOp) or len(op.inputs) != 1 or len(op.outputs) != 1:
        return None
    its = [it.data for it in op.iterator_types.data]
    if IteratorType.REDUCTION not in its or len(op.results) != 1:
        return None
    block = op.body.block
    y = yielded_value(block)
    ops = body_ops(block)
    if y is None or len(ops) != 1 or y.owner is not ops[0]:
        names = " + ".join(o.name for o in ops) or "no op"
        return f"the body ({names}) is not one combining op"
    body = REDUCE_BODIES.get(type(ops[0]))
    if body is None:
        return f"the body op {ops[0].name} is not a TROW*/TCOL* fold (sum, prod, max, min)"
    args = sorted(-1 if (i := arg_index(v, block)) is None else i for v in ops[0].operands)
    if args != [0, 1]:
        return "the body does not combine the element with the accumulator"
    elt = op.results[0].type.element_type  # type: ignore[union-attr]
    if isinstance(elt, IntegerType) != (body.signedness is not None):
        return f"{ops[0].name} on {elt}: not an op of that element type"
    layout = reduction_layout(op)
    if isinstance(layout, str):
        return layout
    axis, rows, cols = layout
    kind = f"{'col' if axis.startswith('slices') else axis}{body.reduction}"
    if floor_mod_dtype(elt, body.signedness, REDUCE_KINDS[kind].TYPES) is None:
        return f"element type {elt} is outside T{kind.upper()}'s types"
    init = _init_constant(op.outputs[0])
    if init is None:
        return "the init is not a constant fill (a fold continued from data is not one instruction)"
    why = _init_reason(body, init, elt)
    if why:
        return why
    return Reduction(body, axis, rows, cols, init)


def _identity(body: ReduceBody, elt: Attribute) -> int | float:
    if body.reduction == "sum":
        return 0
    if body.reduction == "prod":
        return 1
    if isinstance(elt, IntegerType):
        w = elt.width.data
        lo, hi = (0, 2**w - 1) if body.signedness == "unsigned" else (-(2 ** (w - 1)), 2 ** (w - 1) - 1)
        return lo if body.reduction == "max" else hi
    return -math.inf if body.reduction == "max" else math.inf


def _is_identity(r: Reduction, elt: Attribute) -> bool:
    """The init is the fold's identity; an integer init as its w-bit word (a signless
    ``arith.constant -1 : i16`` is the unsigned identity 65535 of ``minui``)."""
    ident = _identity(r.body, elt)
    if isinstance(elt, IntegerType):
        return int(r.init) % 2**elt.width.data == int(ident) % 2**elt.width.data
    return r.init == ident


def _init_reason(body: ReduceBody, init: int | float, elt: Attribute) -> str | None:
    """Why a fold from ``init`` is not exactly the instruction's fold (+ TMAXS/TMINS)."""
    if isinstance(elt, IntegerType):
        return None  # wrapping arithmetic and integer order: any init is one step after the fold
    if body.reduction == "sum" and (init != 0 or math.copysign(1.0, init) < 0):
        return (f"a float sum from init {init!r}: TROWSUM/TCOLSUM fold from +0.0, and a "
                "sequential float sum continued from another value rounds differently")
    if body.reduction == "prod" and init != 1:
        return f"a float product from init {init!r}: TROWPROD/TCOLPROD fold from 1.0"
    if isinstance(init, float) and math.isnan(init):
        return "a max/min from a NaN init"
    return None


# ======================================================================================
# Lowering
# ======================================================================================


class RewriteBuilder:
    """Inserts ops before ``anchor`` through the pattern rewriter."""

    def __init__(self, rewriter: PatternRewriter, anchor: Operation):
        self.rewriter = rewriter
        self.point = InsertPoint.before(anchor)

    def __call__(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, self.point)
        return op.results[0]

    def reshape(self, v: SSAValue, shape: tuple[int, ...]) -> SSAValue:
        """View a contiguous static tensor with another shape (collapse, then expand)."""

        t = v.type
        assert isinstance(t, TensorType)
        old = tuple(t.get_shape())
        if old == shape:
            return v
        src = v
        while isinstance(src.owner, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            src = src.owner.operands[0]
            if tuple(src.type.get_shape()) == shape:  # type: ignore[union-attr]
                return src  # a view of a tensor of that shape already: read it
        elt = t.element_type
        if len(old) != 1:
            groups = [list(range(len(old)))] if old else []
            v = self(tensor.CollapseShapeOp(operands=[v], result_types=[TensorType(elt, [math.prod(old)])],
                                            properties={"reassociation": reassoc(groups)}))  # fmt: skip
        if len(shape) == 0:
            return self(tensor.CollapseShapeOp(operands=[v], result_types=[TensorType(elt, [])],
                                               properties={"reassociation": reassoc([])}))  # fmt: skip
        if len(shape) > 1:
            t2 = TensorType(elt, list(shape))
            v = self(tensor.ExpandShapeOp(v, [], reassoc([list(range(len(shape)))]), list(shape), t2))
        return v

    def scalar(self, value: int | float, elt: Attribute) -> SSAValue:
        """A ``pto.map`` scalar: the element's float type, or an i64 raw word."""
        if isinstance(elt, AnyFloat):
            return self(arith.ConstantOp(FloatAttr(float(value), elt)))
        assert isinstance(elt, IntegerType)
        w = elt.width.data
        word = int(value) % 2**w
        return self(arith.ConstantOp(IntegerAttr(word - 2**64 if word >= 2**63 else word, i64)))

    def map(self, kind: str, v: SSAValue, *scalars: SSAValue, sign: str | None = None) -> SSAValue:
        return self(MapOp(kind, v, scalars, sign))


def nan_indicator_product(b: RewriteBuilder, x: SSAValue, axis: str) -> SSAValue:
    """Per line of ``x`` (2-D float): 1.0 when the line has no NaN, else NaN.

    ``exp(-|x|)`` is in [0, 1] for every non-NaN x (``exp(-inf) = +0``) and NaN for NaN;
    times 0 it is +0 or NaN, plus 1 it is 1 or NaN; the line's product is 1 or NaN.
    """
    t = x.type
    assert isinstance(t, TensorType)
    elt = t.element_type
    e = b.map("exp", b.map("neg", b.map("abs", x)))
    one = b.map("adds", b.map("muls", e, b.scalar(0.0, elt)), b.scalar(1.0, elt))
    m, n = t.get_shape()
    rt = TensorType(elt, [m, 1] if axis == "row" else [1, n])
    return b(_reduce_op(f"{axis}prod", one, rt, None))


def _reduce_op(kind: str, x: SSAValue, rt: TensorType, sign: str | None) -> Operation:

    return ReduceOp(kind, [x], rt, sign)


def _fold_2d(b: RewriteBuilder, x: SSAValue, r: Reduction, axis: str) -> SSAValue:
    """The reduction of the 2-D tensor ``x`` along ``axis`` with the init and NaN fix-ups."""
    t = x.type
    assert isinstance(t, TensorType)
    elt = t.element_type
    rows, cols = t.get_shape()
    sign = r.body.signedness
    rt = TensorType(elt, [rows, 1] if axis == "row" else [1, cols])
    res = b(_reduce_op(f"{axis}{r.body.reduction}", x, rt, sign))
    # maxnum/minnum: the init takes part even when it is -inf / +inf: an all-NaN line folds
    # to the init upstream but to NaN in TROWMAX/TROWMIN (two NaNs give NaN)
    nan_skipping = isinstance(elt, AnyFloat) and not r.body.nan_propagating
    if r.body.reduction in ("max", "min") and (nan_skipping or not _is_identity(r, elt)):
        res = b.map(f"{r.body.reduction}s", res, b.scalar(r.init, elt), sign=sign)
    elif (r.body.reduction in ("sum", "prod") and isinstance(elt, IntegerType)
          and int(r.init) % 2**elt.width.data != _identity(r.body, elt)):
        # (max/min are the branch above: an INT_MIN/INT_MAX init is their identity, and
        # the identity compared modulo 2^w here would have sent it to TMULS)
        kind = "adds" if r.body.reduction == "sum" else "muls"
        res = b.map(kind, res, b.scalar(r.init, elt), sign=sign)  # wrapping: any order
    if r.body.nan_propagating:
        p = nan_indicator_product(b, x, axis)
        res = b(ElementwiseOp("mul", res, p, None))
    return res


def lower_reduction(op: linalg.GenericOp, r: Reduction, rewriter: PatternRewriter) -> None:
    """Replace the generic by the ``pto.reduce`` program of :class:`Reduction` ``r``: one
    2-D fold, or (reduced dimensions between kept ones) one column fold per leading index
    on ``tensor.extract_slice`` views, inserted with ``tensor.insert_slice``."""
    b = RewriteBuilder(rewriter, op)
    elt = op.results[0].type.element_type  # type: ignore[union-attr]
    if r.axis.startswith("slices"):
        nb = int(r.axis.removeprefix("slices"))
        x3 = b.reshape(op.inputs[0], (nb, r.rows, r.cols))
        cur = b(tensor.EmptyOp([], TensorType(elt, [nb, r.cols])))
        for i in range(nb):
            # spelled out: xDSL's reduce_rank drops the unit size from the static sizes too
            sl = b(tensor.ExtractSliceOp(x3, [i, 0, 0], [1, r.rows, r.cols], [1, 1, 1],
                                         TensorType(elt, [r.rows, r.cols])))  # fmt: skip
            part = _fold_2d(b, sl, r, "col")
            cur = b(tensor.InsertSliceOp.from_static_parameters(part, cur, [i, 0], [1, r.cols]))
        res = cur
    else:
        res = _fold_2d(b, b.reshape(op.inputs[0], (r.rows, r.cols)), r, r.axis)
    out_t = op.results[0].type
    assert isinstance(out_t, TensorType)
    res = b.reshape(res, tuple(out_t.get_shape()))
    rewriter.replace(op, [], [res])


class ReductionGenericToPto(RewritePattern):
    """A reduction ``linalg.generic`` -> ``pto.reduce`` (TROW*/TCOL*), exactly (module doc).

    Matches::

        %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x1xf32>) -> tensor<4x1xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                              affine_map<(d0, d1) -> (d0, 0)>],
                             iterator_types = ["parallel", "reduction"]}
            ins(%x : tensor<4x16xf32>) outs(%z : tensor<4x1xf32>) {
        ^bb0(%in: f32, %out: f32):
          %s = arith.addf %in, %out : f32
          linalg.yield %s : f32
        } -> tensor<4x1xf32>

    Produces ``%r = pto.reduce rowsum %x : (tensor<4x16xf32>) -> tensor<4x1xf32>`` (column
    kinds for leading reduced dimensions, reshapes around it for other ranks, TMAXS/TMINS
    for a max/min init, the NaN propagation of ``maximumf``/``minimumf``).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        r = match_reduction(op)
        if isinstance(r, Reduction):
            lower_reduction(op, r, rewriter)


REDUCTION_PATTERNS: tuple[type[RewritePattern], ...] = (DropDeadGenericResults, ReductionGenericToPto)
