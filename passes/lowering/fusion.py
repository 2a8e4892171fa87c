"""Normalise elementwise ``linalg.generic`` chains into one body before recognition.

What a frontend decomposes (torch-mlir emits one generic per ONNX node, and often several per
node: LeakyRelu is four generics, Sigmoid one) arrives here as a DAG of elementwise generics
over tensors. As upstream MLIR's elementwise fusion (``linalg-fuse-elementwise-ops``), this
module rewrites them so that an idiom arrives as one body:

* :class:`FoldSplatInputs` — an input that is a splat (or 0-d) dense ``arith.constant`` or
  a ``linalg.fill`` of a scalar, read through any map, becomes that scalar used directly in
  the body (defined before the generic): every element it supplies is that scalar, so the
  meaning is unchanged (D18), and the lowering sees a tile-scalar operand (TADDS ...);
* :class:`FuseElementwiseProducer` — a consumer input produced by another elementwise
  generic whose only users are that consumer is replaced by the producer's inputs (their
  maps composed with the consumer's map for the fused operand) and the producer's body is
  inlined in front of the consumer's;
* :class:`DedupInputs` — an input that repeats another (same value, same map) or that the
  body never reads is dropped.

Elementwise here: all iterators parallel, one output with the identity map, every input map
a projected permutation possibly with constant results (a broadcast), the output's block
argument unread. Not fused (so that the epilogue folds still see their shape): producers or
consumers with an input computed by a contraction (``linalg.matmul`` ..., a generic with a
reduction iterator; GEMV/TMATMUL bias, ReLU and conversion epilogues fold there), and a
producer whose body is the floor-modulo idiom (TREM's). Each rewrite is one pattern class.
The pass ``pto-fuse-elementwise`` runs them alone; ``convert-linalg-to-pto`` runs them
first (option ``fuse``, default true).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from passes.lowering.idioms import SIGNED_IDIOM, float_idiom, match_floor_mod_body
from pto_dialect.upstream.dense_floats import element_bits, float_attr_keeps_bits

CONTRACTION_NAMED = frozenset(
    {"linalg.matmul", "linalg.batch_matmul", "linalg.matvec", "linalg.vecmat", "linalg.dot"}
)


def _maps(op: linalg.GenericOp) -> list[AffineMap]:
    return [m.data for m in op.indexing_maps.data]


def _broadcast_map(m: AffineMap) -> bool:
    dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
    ok = all(isinstance(e, AffineDimExpr | AffineConstantExpr) for e in m.results)
    return ok and len(dims) == len(set(dims))


def is_elementwise_generic(op: Operation) -> bool:
    """All-parallel, one result with the identity output map, broadcast input maps, the
    output block argument unread, static tensor types."""
    if not isinstance(op, linalg.GenericOp) or len(op.outputs) != 1 or len(op.results) != 1:
        return False
    its = [it.data for it in op.iterator_types.data]
    if any(it is not IteratorType.PARALLEL for it in its):
        return False
    maps = _maps(op)
    if maps[-1] != AffineMap.identity(len(its)) or not all(_broadcast_map(m) for m in maps[:-1]):
        return False
    t = op.results[0].type
    if not isinstance(t, TensorType) or not t.has_static_shape():
        return False
    if len(op.body.blocks) != 1:
        return False
    block = op.body.block
    y = block.last_op
    if len(block.args) != len(op.inputs) + 1 or not isinstance(y, linalg.YieldOp) or len(y.operands) != 1:
        return False  # malformed: left to the verifier
    if len(maps) != len(op.inputs) + 1 or block.args[-1].uses:
        return False
    return all(
        not isinstance(v.type, TensorType) or v.type.has_static_shape() for v in op.inputs  # type: ignore[union-attr]
    )


def _is_contraction(op: Operation | None) -> bool:
    if op is None:
        return False
    if op.name in CONTRACTION_NAMED or op.name in ("pto.gemv", "pto.matmul"):
        return True
    if isinstance(op, LinalgStructuredOperation):
        try:
            its = [it.data for it in op.get_iterator_types().data]
        except Exception:
            return False
        return any(it is IteratorType.REDUCTION for it in its)
    return False


def _reads_contraction(op: linalg.GenericOp) -> bool:
    return any(isinstance(v.owner, Operation) and _is_contraction(v.owner) for v in op.inputs)


def _is_floor_mod(op: linalg.GenericOp) -> bool:

    block = op.body.block
    return (match_floor_mod_body(block, SIGNED_IDIOM) is not None
            or match_floor_mod_body(block, float_idiom()) is not None)  # fmt: skip


def splat_scalar(v: SSAValue) -> tuple[SSAValue | None, Operation | None]:
    """``(scalar, constant to create)`` when every element of tensor ``v`` is one scalar: a
    splat dense ``arith.constant`` (the constant op to insert is returned) or a
    ``linalg.fill`` of a scalar of the element type (its scalar, nothing to insert)."""
    owner = v.owner
    t = v.type
    if not isinstance(t, TensorType):
        return None, None
    if isinstance(owner, arith.ConstantOp):
        val = owner.value
        if not isinstance(val, DenseIntOrFPElementsAttr) or not val.is_splat():
            return None, None
        values = val.get_values()
        if not values:
            return None, None
        elt = t.element_type
        if isinstance(elt, IntegerType):
            c = arith.ConstantOp(IntegerAttr(int(values[0]), elt))
        elif isinstance(elt, AnyFloat):
            if not float_attr_keeps_bits(element_bits(val), elt):
                return None, None  # a scalar FloatAttr would quieten this NaN
            c = arith.ConstantOp(FloatAttr(float(values[0]), elt))
        else:
            return None, None
        return c.result, c
    if isinstance(owner, linalg.FillOp) and len(owner.inputs) == 1:
        s = owner.inputs[0]
        if s.type == t.element_type:
            return s, None
    return None, None


def _rebuild(
    op: linalg.GenericOp,
    inputs: list[SSAValue],
    maps: list[AffineMap],
    fill_body,
    rewriter: PatternRewriter,
) -> linalg.GenericOp:
    """A new generic with ``inputs``/``maps`` (plus the old output) whose body is written by
    ``fill_body(block)`` (the block's arguments: one per input, then the output's)."""
    out = op.outputs[0]
    block = Block(arg_types=[*(v.type.get_element_type() if isinstance(v.type, TensorType) else v.type  # type: ignore[union-attr]
                               for v in inputs), out.type.get_element_type()])  # type: ignore[union-attr]  # fmt: skip
    fill_body(block)
    new = linalg.GenericOp(
        inputs,
        [out],
        Region(block),
        ArrayAttr([AffineMapAttr(m) for m in [*maps, _maps(op)[-1]]]),
        op.iterator_types,
        [r.type for r in op.results],
    )
    rewriter.replace(op, new)
    return new


def _clone_body(src: Block, mapping: dict[SSAValue, SSAValue], into: Block) -> SSAValue:
    """Clone ``src``'s ops (its yield excluded) into ``into``; return the yielded value."""
    y = src.last_op
    assert isinstance(y, linalg.YieldOp)
    for o in src.ops:
        if o is y:
            break
        c = o.clone(value_mapper=mapping)
        into.add_op(c)
        for a, b in zip(o.results, c.results):
            mapping[a] = b
    v = y.operands[0]
    return mapping.get(v, v)


class FoldSplatInputs(RewritePattern):
    """A splat-constant or filled input of an elementwise generic -> a scalar in the body.

    Matches::

        %c = arith.constant dense<1.5> : tensor<f32>
        %r = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> ()>, #id], ...}
            ins(%x, %c : tensor<4x16xf32>, tensor<f32>) outs(%e : tensor<4x16xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %s = arith.addf %a, %b : f32 ...

    Produces ``%cst = arith.constant 1.5 : f32`` before the generic, the input dropped and
    ``%b`` replaced by ``%cst`` in the body (a ``linalg.fill``'s scalar likewise).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not is_elementwise_generic(op) or _reads_contraction(op) or _is_floor_mod(op):
            return  # (the floor-mod idiom names its two operands: TREM takes tiles)
        found = [(i, *splat_scalar(v)) for i, v in enumerate(op.inputs)]
        found = [(i, s, c) for i, s, c in found if s is not None]
        if not found:
            return
        scalars: dict[int, SSAValue] = {}
        for i, s, c in found:
            if c is not None:
                rewriter.insert(c, InsertPoint.before(op))
            scalars[i] = s  # type: ignore[assignment]
        keep = [i for i in range(len(op.inputs)) if i not in scalars]
        maps = _maps(op)
        old = op.body.block

        def body(block: Block) -> None:
            mapping: dict[SSAValue, SSAValue] = {}
            for i, a in enumerate(old.args[:-1]):
                mapping[a] = scalars[i] if i in scalars else block.args[keep.index(i)]
            mapping[old.args[-1]] = block.args[-1]
            for o in old.ops:
                c = o.clone(value_mapper=mapping)
                block.add_op(c)
                for a, b in zip(o.results, c.results):
                    mapping[a] = b

        _rebuild(op, [op.inputs[i] for i in keep], [maps[i] for i in keep], body, rewriter)


def index_remap(p: linalg.GenericOp, mc: AffineMap) -> dict[int, int] | str:
    """How the producer's ``linalg.index`` dims read in the consumer, or why not fusable.

    The producer's iteration point is its result's index (identity output map), which the
    consumer reads at ``mc(d)``: producer dim ``i`` is ``mc.results[i]``. A producer
    ``linalg.index i`` becomes ``linalg.index j`` of the consumer when that result is the
    plain dim ``dj`` (permuted and broadcast consumers alike); a constant result (the
    producer read at a fixed index) or any other expression keeps the two generics apart.
    """
    remap: dict[int, int] = {}
    for o in p.body.walk():
        if not isinstance(o, linalg.IndexOp):
            continue
        i = o.dim.value.data
        expr = mc.results[i] if i < len(mc.results) else None
        if not isinstance(expr, AffineDimExpr):
            return (
                f"the producer reads linalg.index {i}, which the consumer's map {mc} does "
                "not give as a loop dimension"
            )
        remap[i] = expr.position
    return remap


class FuseElementwiseProducer(RewritePattern):
    """Inline an elementwise producer generic into its only consumer (module docstring).

    Matches::

        %p = linalg.generic {maps [#mp0, #id], ...} ins(%x : ...) outs(...) { f(%a) }
        %r = linalg.generic {maps [#mc, #m1, #id], ...} ins(%p, %y : ...) outs(...) { g(%b, %c) }

    where every use of ``%p`` is an input of ``%r``. Produces one generic ``ins(%y, %x)``,
    maps ``[#m1, #mp0 . #mc]``, body ``g(f(%a), %c)``; a ``linalg.index i`` of ``f`` becomes
    the consumer's dim that ``#mc`` gives for result ``i`` (:func:`index_remap`; not fused
    when that is not a plain dim).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not is_elementwise_generic(op) or _reads_contraction(op):
            return
        for v in op.inputs:
            p = v.owner
            if not isinstance(p, linalg.GenericOp) or p is op or not is_elementwise_generic(p):
                continue
            if _reads_contraction(p) or _is_floor_mod(p):
                continue
            if any(u.operation is not op for u in v.uses):
                continue
            self._fuse(op, p, v, rewriter)
            return

    @staticmethod
    def _fuse(op: linalg.GenericOp, p: linalg.GenericOp, v: SSAValue, rewriter) -> None:
        maps = _maps(op)
        fused_pos = [i for i, x in enumerate(op.inputs) if x is v]
        keep = [i for i in range(len(op.inputs)) if i not in fused_pos]
        mc = maps[fused_pos[0]]
        if any(maps[i] != mc for i in fused_pos):
            return  # the same producer read through two maps: leave it
        remap = index_remap(p, mc)
        if isinstance(remap, str):
            return  # kept unfused: see index_remap's reason
        pmaps = _maps(p)
        new_inputs = [op.inputs[i] for i in keep] + list(p.inputs)
        new_maps = [maps[i] for i in keep] + [m.compose(mc) for m in pmaps[:-1]]
        old, pold = op.body.block, p.body.block

        def body(block: Block) -> None:
            pmap: dict[SSAValue, SSAValue] = {
                a: block.args[len(keep) + j] for j, a in enumerate(pold.args[:-1])
            }
            pv = _clone_body(pold, pmap, block)
            for o in block.walk():
                if isinstance(o, linalg.IndexOp):
                    o.dim = IntegerAttr(remap[o.dim.value.data], i64)
            mapping: dict[SSAValue, SSAValue] = {old.args[-1]: block.args[-1]}
            for i, a in enumerate(old.args[:-1]):
                mapping[a] = pv if i in fused_pos else block.args[keep.index(i)]
            for o in old.ops:
                c = o.clone(value_mapper=mapping)
                block.add_op(c)
                for a, b in zip(o.results, c.results):
                    mapping[a] = b

        new = _rebuild(op, new_inputs, new_maps, body, rewriter)
        # ``p`` has no user left: "replacing" it tells listeners (the lowering report) that
        # its computation now lives in the fused op.
        rewriter.replace(p, [], [new.results[0]])


class DedupInputs(RewritePattern):
    """Drop an input that repeats an earlier one (same value, same map) or that the body
    never reads.

    Matches ``ins(%x, %x)`` with equal maps (what fusing ``relu(x) + x`` produces) and
    produces ``ins(%x)`` with both block arguments replaced by the one left.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not is_elementwise_generic(op):
            return
        maps = _maps(op)
        old = op.body.block
        first: dict[tuple[SSAValue, AffineMap], int] = {}
        alias: dict[int, int] = {}
        for i, v in enumerate(op.inputs):
            key = (v, maps[i])
            if key in first:
                alias[i] = first[key]
            elif not old.args[i].uses:
                alias[i] = -1
            else:
                first[key] = i
        if not alias:
            return
        keep = [i for i in range(len(op.inputs)) if i not in alias]

        def body(block: Block) -> None:
            mapping: dict[SSAValue, SSAValue] = {old.args[-1]: block.args[-1]}
            for i, a in enumerate(old.args[:-1]):
                j = alias.get(i, i)
                if j >= 0:
                    mapping[a] = block.args[keep.index(j)]
            for o in old.ops:
                c = o.clone(value_mapper=mapping)
                block.add_op(c)
                for a, b in zip(o.results, c.results):
                    mapping[a] = b

        _rebuild(op, [op.inputs[i] for i in keep], [maps[i] for i in keep], body, rewriter)


FUSION_PATTERNS: tuple[type[RewritePattern], ...] = (FoldSplatInputs, FuseElementwiseProducer, DedupInputs)


def fuse_elementwise(module: builtin.ModuleOp, listener: PatternRewriterListener | None = None) -> None:
    """Run :data:`FUSION_PATTERNS` to a fixpoint on ``module``."""
    walker = PatternRewriteWalker(
        GreedyRewritePatternApplier([p() for p in FUSION_PATTERNS], dce_enabled=False)
    )
    if listener is not None:
        walker.listener = listener
    walker.rewrite_module(module)
    _drop_dead_constants(module)


def _drop_dead_constants(module: builtin.ModuleOp) -> None:
    """Splat tensor constants and fills whose only readers were folded are dead now."""
    for o in list(module.walk(reverse=True)):
        if isinstance(o, arith.ConstantOp | linalg.FillOp) and isinstance(o.results[0].type, TensorType):
            if not o.results[0].uses:
                Rewriter.erase_op(o)


@dataclass(frozen=True)
class PTOFuseElementwisePass(ModulePass):
    """``pto-fuse-elementwise``: fold splat inputs, fuse elementwise producer/consumer
    generics, drop repeated inputs (module docstring). Run first by
    ``convert-linalg-to-pto``; alone, it shows what the lowering sees."""

    name = "pto-fuse-elementwise"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        fuse_elementwise(op)


__all__ = [
    "DedupInputs",
    "FoldSplatInputs",
    "FuseElementwiseProducer",
    "FUSION_PATTERNS",
    "PTOFuseElementwisePass",
    "fuse_elementwise",
    "index_remap",
    "is_elementwise_generic",
    "splat_scalar",
]
