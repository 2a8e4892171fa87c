"""Building tiled IR: :class:`Emitter` (an insertion point with constants and scf loops), tensor reshapes and empty tensors, and :func:`trip_count` reading a loop back. Shared by the capacity tilers of every family."""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from passes.lowering.tile_plans import (  # MOVED
    ceil_div,
)


class Emitter:
    """Inserts ops at one point; index constants are shared and placed before the root."""

    def __init__(self, point: InsertPoint, consts: dict[int, SSAValue], const_point: InsertPoint):
        self.point = point
        self.consts = consts
        self.const_point = const_point

    def __call__(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        return op

    def index(self, v: int) -> SSAValue:
        if v not in self.consts:
            c = arith.ConstantOp(IntegerAttr(v, IndexType()))
            c.result.name_hint = f"c{v}"
            Rewriter.insert_op(c, self.const_point)
            self.consts[v] = c.result
        return self.consts[v]

    def nested(self, block: Block) -> Emitter:
        return Emitter(InsertPoint.at_end(block), self.consts, self.const_point)

    def for_loop(self, start: int, count: int, step: int, carried: SSAValue, body):
        """``scf.for %i = start to start+count*step step step iter_args(carried)``.

        ``body(emitter, i, carried) -> new carried``. A single trip is emitted inline.
        """
        if count == 1:
            return body(self, self.index(start), carried)
        block = Block(arg_types=[IndexType(), carried.type])
        block.args[0].name_hint = "i"
        inner = self.nested(block)
        out = body(inner, block.args[0], block.args[1])
        inner(scf.YieldOp(out))
        loop = scf.ForOp(
            self.index(start), self.index(start + count * step), self.index(step), [carried], block
        )
        self(loop)
        return loop.res[0]

    def add(self, base: SSAValue, offset: int) -> SSAValue:
        if offset == 0:
            return base
        return self(arith.AddiOp(base, self.index(offset))).results[0]


def reassoc(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _collapse(emit: Emitter, v: SSAValue, groups, result_type: TensorType) -> SSAValue:
    op = tensor.CollapseShapeOp(
        operands=[v], result_types=[result_type], properties={"reassociation": reassoc(groups)}
    )
    return emit(op).results[0]


def _expand(emit: Emitter, v: SSAValue, groups, result_type: TensorType) -> SSAValue:
    op = tensor.ExpandShapeOp(v, [], reassoc(groups), list(result_type.get_shape()), result_type)
    return emit(op).results[0]


def reshape(emit: Emitter, v: SSAValue, shape: Sequence[int]) -> SSAValue:
    """View a contiguous static tensor with another shape (collapse to 1-D, then expand)."""
    t = v.type
    assert isinstance(t, TensorType)
    old = tuple(t.get_shape())
    shape = tuple(shape)
    if old == shape:
        return v
    elt = t.element_type
    flat = TensorType(elt, [math.prod(old)])
    if len(old) > 1:
        v = _collapse(emit, v, [list(range(len(old)))], flat)
    if len(shape) > 1:
        v = _expand(emit, v, [list(range(len(shape)))], TensorType(elt, list(shape)))
    return v


def empty_tensor(emit: Emitter, t: TensorType) -> SSAValue:
    return emit(tensor.EmptyOp([], t)).results[0]


def trip_count(loop: scf.ForOp) -> int | None:
    vals = []
    for v in (loop.lb, loop.ub, loop.step):
        o = v.owner
        if not isinstance(o, arith.ConstantOp) or not isinstance(o.value, IntegerAttr):
            return None
        vals.append(o.value.value.data)
    lb, ub, st = vals
    return max(0, ceil_div(ub - lb, st))
