"""Normalisation before recognition: put inputs in the shape the tables match.

* :class:`SplatOperandToFullConstant` — an elementwise ``linalg.generic`` input that is a
  splat (or 0-d) dense ``arith.constant`` read through a broadcast map (``(d0, d1) -> ()``,
  what torch-mlir emits for ``Add(x, 1.5)``) becomes the same splat at the output's full
  shape with the identity map. The value of every element is unchanged, so the program's
  meaning is too (D18); the identity-mapped generic then matches the binary table (TADD
  ...). The constant is data in global memory, loaded like any operand. This is the exact
  lowering of a constant operand until the elementwise lowering emits the tile-scalar forms
  (TADDS ..., which need no constant tensor); the dialect has them, the lowering onto them
  is not written yet.
* :class:`TensorElementwiseToGeneric` — ``arith``/``math`` on whole tensors -> the
  ``linalg.generic`` applying the op per element (upstream's
  ``convert-elementwise-to-linalg``);
* :class:`ZeroDimGenericTo1x1` — an elementwise generic with a 0-d result -> the same on
  ``1 x 1`` tensors (PTO tiles are 2-D);
* :class:`BroadcastToGeneric` — ``linalg.broadcast`` -> the generic yielding its input;
* :class:`PredicateTensorsAsBytes` — an ``i1`` tensor between generics (a mask, a label
  check) -> ``i8`` 0 / 1 (predicate tiles are neither loaded nor stored).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i8,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from pto_dialect.upstream.dense_floats import splat_to_shape


class SplatOperandToFullConstant(RewritePattern):
    """A broadcast splat-constant input of an elementwise generic -> a full-shape splat.

    Matches::

        %c = arith.constant dense<1.5> : tensor<f32>
        %r = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> ()>, #id], ...}
            ins(%x, %c : tensor<4x16xf32>, tensor<f32>) outs(%e : tensor<4x16xf32>) {...}

    Produces ``%c2 = arith.constant dense<1.5> : tensor<4x16xf32>`` as the input, mapped by
    ``#id``. Only all-parallel generics with an identity output map; only splats.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.outputs) != 1:
            return
        its = [it.data for it in op.iterator_types.data]
        if any(it is not IteratorType.PARALLEL for it in its):
            return
        maps = [m.data for m in op.indexing_maps.data]
        ident = AffineMap.identity(len(its))
        out_t = op.outputs[0].type
        if maps[-1] != ident or not isinstance(out_t, TensorType):
            return
        if any(d < 0 for d in out_t.get_shape()):
            return
        changed = False
        new_inputs = list(op.inputs)
        for i, v in enumerate(op.inputs):
            c = v.owner
            if maps[i] == ident or not isinstance(c, arith.ConstantOp):
                continue
            val = c.value
            if not isinstance(val, DenseIntOrFPElementsAttr) or not val.is_splat():
                continue
            values = val.get_values()
            if not values:
                continue
            full_t = TensorType(val.get_element_type(), out_t.get_shape())
            full = arith.ConstantOp(splat_to_shape(val, full_t), full_t)
            rewriter.insert(full, InsertPoint.before(op))
            new_inputs[i] = full.result
            maps[i] = ident
            changed = True
        if not changed:
            return
        for i, v in enumerate(new_inputs):
            if v is not op.inputs[i]:
                op.operands[i] = v
        op.indexing_maps = ArrayAttr([AffineMapAttr(m) for m in maps])
        rewriter.handle_operation_modification(op)


# ======================================================================================
# Tensor-level arith / math ops -> linalg.generic (like upstream's
# convert-elementwise-to-linalg), and 0-d elementwise generics -> 1 x 1
# ======================================================================================


def _static_tensor(t) -> bool:
    return isinstance(t, TensorType) and t.has_static_shape()


def is_tensor_elementwise(op: Operation) -> bool:
    """An ``arith``/``math`` op (not a constant) on ranked static tensors of one shape: its
    value is the op applied to each element (the upstream dialects' elementwise-mappable
    trait; a select's condition may be an ``i1`` scalar, which chooses whole tensors)."""
    if not op.name.startswith(("arith.", "math.")) or isinstance(op, arith.ConstantOp):
        return False
    if len(op.results) != 1 or op.regions or not _static_tensor(op.results[0].type):
        return False
    shape = op.results[0].type.get_shape()  # type: ignore[union-attr]
    for i, v in enumerate(op.operands):
        if isinstance(op, arith.SelectOp) and i == 0 and not isinstance(v.type, TensorType):
            continue
        if not _static_tensor(v.type) or v.type.get_shape() != shape:  # type: ignore[union-attr]
            return False
    return True


class TensorElementwiseToGeneric(RewritePattern):
    """An ``arith``/``math`` op on whole tensors -> the ``linalg.generic`` that applies it
    per element (identity maps); the elementwise tables then lower it like any body.

    Matches ``%r = arith.addf %a, %b : tensor<4x16xf32>`` (and ``math.tanh %x :
    tensor<f32>``, ``arith.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>``); produces::

        %e = tensor.empty() : tensor<4x16xf32>
        %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = [...]}
            ins(%a, %b : ...) outs(%e : tensor<4x16xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
        }

    The same op on each element: the value is unchanged (D18). A scalar ``i1`` condition
    of a select is read in the body as it is (a value defined outside the generic).
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_tensor_elementwise(op):
            return
        rt = op.results[0].type
        assert isinstance(rt, TensorType)
        rank = rt.get_num_dims()
        ident = AffineMapAttr(AffineMap.identity(rank))
        tensors = [v for v in op.operands if isinstance(v.type, TensorType)]
        block = Block(arg_types=[v.type.element_type for v in tensors] + [rt.element_type])  # type: ignore[union-attr]
        args = iter(block.args)
        mapping = {v: (next(args) if isinstance(v.type, TensorType) else v) for v in op.operands}
        scalar = type(op).create(
            operands=[mapping[v] for v in op.operands], result_types=[rt.element_type],
            properties=dict(op.properties), attributes=dict(op.attributes),
        )
        block.add_ops([scalar, linalg.YieldOp(scalar.results[0])])
        empty = tensor.EmptyOp([], rt)
        gen = linalg.GenericOp(
            tensors, [empty.tensor], Region(block), ArrayAttr([ident] * (len(tensors) + 1)),
            ArrayAttr([IteratorTypeAttr.parallel()] * rank), [rt],
        )
        rewriter.replace(op, [empty, gen], [gen.results[0]])


class ZeroDimGenericTo1x1(RewritePattern):
    """An elementwise ``linalg.generic`` whose result is 0-d (a scalar loss, a quantization
    scale) -> the same body over a ``1 x 1`` iteration space: each 0-d input is read
    through the broadcast map ``(d0, d1) -> ()`` (the elementwise lowering reads such an
    input as a scalar), the output is a ``tensor<1x1xT>`` and its one element becomes the
    0-d result (``tensor.extract`` + ``tensor.from_elements``: data movement). PTO tiles
    are 2-D; a 1 x 1 tile holds the one element, so the value is unchanged (D18).

    Matches::

        %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>],
                             iterator_types = []} ins(%x : tensor<f32>) outs(%e : tensor<f32>)

    Produces the generic with maps ``[(d0, d1) -> (), (d0, d1) -> (d0, d1)]`` on
    ``outs(tensor.empty() : tensor<1x1xf32>)``, then ``tensor.extract %r1[%c0, %c0]`` and
    ``tensor.from_elements``. Only when the body does not read the output's initial value.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or len(op.outputs) != 1 or op.iterator_types.data:
            return
        rt = op.results[0].type
        if not isinstance(rt, TensorType) or rt.get_num_dims() != 0:
            return
        if op.body.block.args[-1].uses:
            return
        bcast = AffineMapAttr(AffineMap(2, 0, ()))
        maps = [bcast if isinstance(v.type, TensorType) else m
                for v, m in zip(op.inputs, op.indexing_maps.data)]  # fmt: skip
        t11 = TensorType(rt.element_type, [1, 1])
        empty = tensor.EmptyOp([], t11)
        gen = linalg.GenericOp(
            op.inputs, [empty.tensor], op.body.clone(),
            ArrayAttr([*maps, AffineMapAttr(AffineMap.identity(2))]),
            ArrayAttr([IteratorTypeAttr.parallel()] * 2), [t11],
        )
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        one = tensor.ExtractOp(gen.results[0], [zero.result, zero.result], rt.element_type)
        back = tensor.FromElementsOp(one.result, result_type=rt)
        rewriter.replace(op, [empty, gen, zero, one, back], [back.results[0]])


class BroadcastToGeneric(RewritePattern):
    """``linalg.broadcast`` -> the ``linalg.generic`` that yields its input element (input
    map: the output's dimensions without ``dimensions``); the elementwise lowering then
    copies a row or column broadcast (TROWEXPAND / TCOLEXPAND copy forms), data movement.

    Matches ``%b = linalg.broadcast ins(%a : tensor<4xf32>) outs(%e : tensor<3x4xf32>)
    dimensions = [0]``; produces the generic with maps ``[(d0, d1) -> (d1), (d0, d1) -> (d0,
    d1)]`` and body ``linalg.yield %in``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, linalg.BroadcastOp) or len(op.results) != 1:
            return
        rt = op.results[0].type
        if not _static_tensor(rt) or not _static_tensor(op.input.type):
            return
        assert isinstance(rt, TensorType)
        rank = rt.get_num_dims()
        dropped = set(op.dimensions.get_values())
        kept = [d for d in range(rank) if d not in dropped]
        in_map = AffineMap(rank, 0, tuple(AffineExpr.dimension(d) for d in kept))
        block = Block(arg_types=[op.input.type.element_type, rt.element_type])  # type: ignore[union-attr]
        block.add_op(linalg.YieldOp(block.args[0]))
        gen = linalg.GenericOp(
            [op.input], [op.init], Region(block),
            ArrayAttr([AffineMapAttr(in_map), AffineMapAttr(AffineMap.identity(rank))]),
            ArrayAttr([IteratorTypeAttr.parallel()] * rank), [rt],
        )
        rewriter.replace(op, [gen], [gen.results[0]])


def _i1_tensor(v: SSAValue) -> bool:
    t = v.type
    return (isinstance(t, TensorType) and t.has_static_shape()
            and isinstance(t.element_type, IntegerType) and t.element_type.width.data == 1)  # fmt: skip


class PredicateTensorsAsBytes(RewritePattern):
    """An ``i1`` tensor made by a ``linalg.generic`` or an ``arith.constant`` and read only
    as ``linalg.generic`` inputs -> an ``i8`` tensor of 0 / 1 (a predicate tile is neither
    loaded nor stored, a byte tile is): the producer yields ``select(%c, 1, 0)`` (TCMP +
    TSEL), each consumer reads ``cmpi ne %b, 0``, so every consumer sees the same truth
    values (D18).

    Matches (a causal mask, torch-mlir's ``Where``; a label check used twice)::

        %m = arith.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
        %r = linalg.generic ... ins(%m, %x, %y : tensor<2x2xi1>, ...) {
        ^bb0(%c: i1, %a: f32, %b: f32, %o: f32):
          %s = arith.select %c, %a, %b : f32 ...

    Produces ``%m = arith.constant dense<[[1, 0], [1, 1]]> : tensor<2x2xi8>`` and in the body
    ``%c = arith.cmpi ne, %cb, %c0_i8 : i8`` before the select. A generic producer whose body
    reads its output, or an ``i1`` tensor returned or read by anything else, stays."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or not _i1_tensor(op.results[0]):
            return
        res = op.results[0]
        uses = list(res.uses)
        if not uses or not all(isinstance(u.operation, linalg.GenericOp)
                               and u.index < len(u.operation.inputs) for u in uses):  # fmt: skip
            return
        t = res.type
        assert isinstance(t, TensorType)
        t8 = TensorType(i8, t.get_shape())
        new_ops: list[Operation] = []
        if isinstance(op, arith.ConstantOp):
            val = op.value
            if not isinstance(val, DenseIntOrFPElementsAttr):
                return
            bits = [1 if v else 0 for v in val.get_values()]
            if val.is_splat() and len(bits) == 1:
                bits = bits * math.prod(t.get_shape())
            new_ops.append(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t8, bits), t8))
        elif isinstance(op, linalg.GenericOp):
            if len(op.outputs) != 1 or op.body.block.args[-1].uses:
                return
            region = op.body.clone()
            block = region.block
            old_out = block.args[-1]
            block.insert_arg(i8, len(block.args))
            block.erase_arg(old_out)
            y = block.last_op
            assert isinstance(y, linalg.YieldOp)
            one = arith.ConstantOp(IntegerAttr(1, i8))
            zero = arith.ConstantOp(IntegerAttr(0, i8))
            sel = arith.SelectOp(y.operands[0], one.result, zero.result)
            block.insert_ops_before([one, zero, sel], y)
            y.operands[0] = sel.result
            empty = tensor.EmptyOp([], t8)
            gen = linalg.GenericOp(op.inputs, [empty.tensor], region, op.indexing_maps,
                                   op.iterator_types, [t8])  # fmt: skip
            new_ops += [empty, gen]
        else:
            return
        for u in uses:
            consumer = u.operation
            assert isinstance(consumer, linalg.GenericOp)
            block = consumer.body.block
            old_arg = block.args[u.index]
            new_arg = block.insert_arg(i8, u.index)
            zero = arith.ConstantOp(IntegerAttr(0, i8))
            cmp = arith.CmpiOp(new_arg, zero.result, "ne")
            block.insert_ops_before([zero, cmp], block.first_op)  # type: ignore[arg-type]
            old_arg.replace_all_uses_with(cmp.result)
            block.erase_arg(old_arg)
            rewriter.handle_operation_modification(consumer)
        rewriter.replace(op, new_ops, [new_ops[-1].results[0]])


class ExtendPredicateToSelect(RewritePattern):
    """In a ``linalg.generic`` body, ``arith.extui`` / ``extsi`` of an ``i1`` -> ``select(%c,
    1, 0)`` / ``select(%c, -1, 0)``: the same integer (TCMP + TSEL lower it; TCVT has no
    predicate source).

    Matches ``%n = arith.extui %c : i1 to i64`` (torch-mlir counts the labels that are not
    ignored so); produces ``%n = arith.select %c, %c1_i64, %c0_i64 : i64``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, arith.ExtUIOp | arith.ExtSIOp) or not isinstance(op.parent_op(), linalg.GenericOp):
            return
        src, dst = op.input.type, op.result.type
        if not (isinstance(src, IntegerType) and src.width.data == 1 and isinstance(dst, IntegerType)):
            return
        one = arith.ConstantOp(IntegerAttr(1 if isinstance(op, arith.ExtUIOp) else -1, dst))
        zero = arith.ConstantOp(IntegerAttr(0, dst))
        sel = arith.SelectOp(op.input, one.result, zero.result)
        rewriter.replace(op, [one, zero, sel], [sel.result])


REDUCE_COMBINERS = (arith.AddfOp, arith.AddiOp, arith.MulfOp, arith.MuliOp, arith.MaxnumfOp,
                    arith.MinnumfOp, arith.MaxSIOp, arith.MinSIOp, arith.MaxUIOp, arith.MinUIOp,
                    arith.MaximumfOp, arith.MinimumfOp)  # fmt: skip
"""The combining ops of the reduction table (passes/lowering/reductions.py)."""


class SplitReductionPrologue(RewritePattern):
    """A one-input reduction whose body computes ``combine(f(in), acc)`` with ``f`` a chain
    of ops on the input element -> an elementwise generic computing ``f`` over the whole
    iteration space, then the reduction ``combine(in, acc)`` of its result (identity map).
    The fold sees the same values in the same order: exact (D18).

    Matches (torch-mlir counting the labels that are not ignored)::

        %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                             iterator_types = ["reduction"]} ins(%ok : tensor<4xi8>) outs(%z : tensor<i64>) {
        ^bb0(%in: i8, %out: i64):
          %c = arith.cmpi ne, %in, %c0_i8 : i8
          %e = arith.select %c, %c1_i64, %c0_i64 : i64
          %s = arith.addi %e, %out : i64
          linalg.yield %s : i64
        }

    Produces ``%f = linalg.generic {maps [(d0) -> (d0), (d0) -> (d0)], ["parallel"]} ins(%ok)
    {cmpi, select}`` and ``%n = linalg.generic {...} ins(%f : tensor<4xi64>) {addi}``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 1 or len(op.outputs) != 1 or len(op.results) != 1:
            return
        its = [it.data for it in op.iterator_types.data]
        if IteratorType.REDUCTION not in its:
            return
        block = op.body.block
        y = block.last_op
        if not isinstance(y, linalg.YieldOp) or len(y.operands) != 1:
            return
        comb = y.operands[0].owner
        if not isinstance(comb, REDUCE_COMBINERS) or comb.parent_block() is not block:
            return
        acc, arg = block.args[1], block.args[0]
        if acc not in comb.operands:
            return
        t = comb.operands[1] if comb.operands[0] is acc else comb.operands[0]
        if t is arg or t is acc or not isinstance(t.owner, Operation):
            return
        pre = [o for o in block.ops if o is not comb and o is not y]
        if any(acc in o.operands or isinstance(o, linalg.IndexOp) or o.regions for o in pre):
            return
        if any(u.operation is not comb for u in t.uses):
            return
        m_in = op.indexing_maps.data[0].data
        x_t = op.inputs[0].type
        if not isinstance(x_t, TensorType) or not x_t.has_static_shape():
            return
        if m_in != AffineMap.identity(len(its)):
            return  # the iteration space is the input's shape
        n = len(its)
        ft = TensorType(t.type, x_t.get_shape())
        pre_block = Block(arg_types=[arg.type, t.type])
        mapping: dict[SSAValue, SSAValue] = {arg: pre_block.args[0]}
        for o in pre:
            c = o.clone(value_mapper=mapping)
            pre_block.add_op(c)
            for a, b in zip(o.results, c.results):
                mapping[a] = b
        pre_block.add_op(linalg.YieldOp(mapping[t]))
        ident = AffineMapAttr(AffineMap.identity(n))
        empty = tensor.EmptyOp([], ft)
        f = linalg.GenericOp([op.inputs[0]], [empty.tensor], Region(pre_block), ArrayAttr([ident, ident]),
                             ArrayAttr([IteratorTypeAttr.parallel()] * n), [ft])  # fmt: skip
        red_block = Block(arg_types=[t.type, acc.type])
        ops = [red_block.args[0] if v is t else red_block.args[1] for v in comb.operands]
        c2 = type(comb).create(operands=ops, result_types=[r.type for r in comb.results],
                               properties=dict(comb.properties), attributes=dict(comb.attributes))  # fmt: skip
        red_block.add_ops([c2, linalg.YieldOp(c2.results[0])])
        red = linalg.GenericOp([f.results[0]], list(op.outputs), Region(red_block), op.indexing_maps,
                               op.iterator_types, [op.results[0].type])  # fmt: skip
        rewriter.replace(op, [empty, f, red], [red.results[0]])


NORMALISE_PATTERNS: tuple[type[RewritePattern], ...] = (
    TensorElementwiseToGeneric, ZeroDimGenericTo1x1, BroadcastToGeneric, PredicateTensorsAsBytes,
    ExtendPredicateToSelect, SplitReductionPrologue,
)  # fmt: skip
"""Run first, before recognition (``convert-linalg-to-pto``)."""
