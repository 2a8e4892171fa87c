"""Row and column broadcasts -> ``pto.expand`` (TROWEXPAND* / TCOLEXPAND*).

* :class:`BroadcastBinaryToExpand` — a 2-D elementwise ``linalg.generic`` with one full
  operand and one broadcast row vector (map ``(d0)`` / ``(d0, 0)``: one value per row) or
  column vector (``(d1)`` / ``(0, d1)``), body one op of
  :data:`~passes.convert_linalg_to_pto.ELEMENTWISE_BODIES` among add sub mul div max min:
  ``pto.expand row|col <op>`` (``d[r, c] = op(x[r, c], b[r])``). What normalisation and
  reductions leave around Softmax and LayerNormalization, and a Gemm/MatMul bias that does
  not fold into the CUBE op.
* :class:`BroadcastCopyToExpand` — a generic that only broadcasts (body ``yield %in``):
  ``pto.expand row|col copy``.
* :class:`FoldExpandCopyIntoBinary` — ``pto.elementwise`` whose operand is a single-use
  ``pto.expand copy``: the broadcast operand form (no materialised copy).
* :class:`FoldExpDifference` — ``exp`` of a single-use ``pto.expand row|col sub``:
  ``pto.expand ... expdif``.

Exactness (D18): the expand operations apply the typed TEPL binary step (the same row as
TADD ... TMIN, ``interpreter/kernels/tile_local.py``) against the broadcast element, so each
element is bit for bit the binary op's. The broadcast must be the **second** operand of a
non-commutative op (TROWEXPANDSUB is ``x - b``; ``b - x`` is not ``-(x - b)`` on zeros, so
it is left). EXPDIF is TSUB followed by the exponential evaluated in float64 and rounded
once, which is TEXP's and the interpreter's ``math.exp`` computation of the same
difference.
"""

from __future__ import annotations

from xdsl.dialects import math
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from passes.lowering.epilogues import matmul_input, matmul_takes_addend
from passes.lowering.idioms import (
    arg_index,
    bias_map_ok,
    body_ops,
    can_take_bias,
    elementwise_generic,
    gemv_input,
    generic_maps,
    match_elementwise_body,
    yielded_value,
)
from passes.lowering.reductions import RewriteBuilder
from pto_dialect.tensor_local import EXPAND_KINDS, ExpandOp
from pto_dialect.tensor_map import MapOp
from pto_dialect.tensor_ops import ElementwiseOp, floor_mod_dtype

EXPAND_BINARY = frozenset({"add", "sub", "mul", "div", "max", "min"})
"""Binary kinds that have an expand form (TROWEXPANDADD ... TROWEXPANDMIN)."""
COMMUTATIVE = frozenset({"add", "mul", "max", "min"})


def broadcast_axis(m: AffineMap, t) -> str | None:
    """``row`` when map ``m`` of a 2-D iteration reads one element per row (``(d0)`` on a
    ``tensor<M>``, ``(d0, 0)`` on ``tensor<Mx1>``), ``col`` for one per column, else None."""
    if m.num_dims != 2 or not isinstance(t, TensorType):
        return None
    res = m.results
    d0, d1, z = AffineDimExpr(0), AffineDimExpr(1), AffineConstantExpr(0)
    if res in ((d0,), (d0, z)):
        return "row"
    if res in ((d1,), (z, d1)):
        return "col"
    return None


def _cube_takes(v: SSAValue, user: Operation) -> bool:
    """``v`` is a ``pto.matmul`` / ``pto.gemv`` result that can still take a bias from
    ``user`` (its only use)."""

    mm = matmul_input(v, user)
    if mm is not None:
        return matmul_takes_addend(mm)
    g = gemv_input(v, user)
    return g is not None and can_take_bias(g)


def _line_shape(axis: str, out: TensorType) -> tuple[int, int]:
    m, n = out.get_shape()
    return (m, 1) if axis == "row" else (1, n)


def _expand_sign(kind: str, sign: str | None, elt) -> str | None:
    """The signedness an expand op needs: the body's, or ``signed`` for wrapping add/sub/mul
    on signless integers (either gives the same bits)."""
    if not isinstance(elt, IntegerType):
        return None
    return sign or "signed"


def _types_ok(axis: str, op: str, elt, sign: str | None) -> bool:
    return floor_mod_dtype(elt, sign, EXPAND_KINDS[(axis, op)].TYPES) is not None


class BroadcastBinaryToExpand(RewritePattern):
    """``op(x[i, j], b[i])`` (or ``b[j]``) -> ``pto.expand row|col op %x, %b``.

    Matches::

        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                              affine_map<(d0, d1) -> (d0, 0)>,
                                              affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%x, %m : tensor<4x16xf32>, tensor<4x1xf32>) outs(%e : tensor<4x16xf32>) {
        ^bb0(%in: f32, %in_1: f32, %out: f32):
          %s = arith.subf %in, %in_1 : f32
          linalg.yield %s : f32
        } -> tensor<4x16xf32>

    Produces ``pto.expand row sub %x, %m : (tensor<4x16xf32>, tensor<4x1xf32>) ->
    tensor<4x16xf32>`` (a ``tensor<M>`` / ``tensor<N>`` broadcast is reshaped to
    ``Mx1`` / ``1xN``).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not elementwise_generic(op, 2):
            return
        out_t = op.results[0].type
        assert isinstance(out_t, TensorType)
        if out_t.get_num_dims() != 2:
            return
        m = match_elementwise_body(op.body.block)
        if m is None:
            return
        kind, sign, ia, ib = m
        if kind not in EXPAND_BINARY:
            return
        maps = generic_maps(op)
        ident = AffineMap.identity(2)
        full = [i for i in (0, 1) if maps[i] == ident and op.inputs[i].type == out_t]
        if len(full) != 1:
            return
        xi = full[0]
        bi = 1 - xi
        axis = broadcast_axis(maps[bi], op.inputs[bi].type)
        if axis is None:
            return
        if kind == "add" and _cube_takes(op.inputs[xi], op) and bias_map_ok(
            op.inputs[bi].type, maps[bi], out_t
        ):
            return  # a bias of a CUBE result folds into the CUBE op (passes.lowering.epilogues)
        if (ia, ib) != (xi, bi) and kind not in COMMUTATIVE:
            return  # b - x / b / x: no expand form computes it exactly (module docstring)
        elt = out_t.element_type
        sign = _expand_sign(kind, sign, elt)
        if not _types_ok(axis, kind, elt, sign):
            return
        b = RewriteBuilder(rewriter, op)
        line = b.reshape(op.inputs[bi], _line_shape(axis, out_t))
        rewriter.replace(op, ExpandOp(f"{axis}.{kind}", [op.inputs[xi], line], out_t, sign))


class BroadcastCopyToExpand(RewritePattern):
    """``r[i, j] = b[i]`` (or ``b[j]``) -> ``pto.expand row|col copy %b``.

    Matches::

        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>,
                                              affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%b : tensor<4xf32>) outs(%e : tensor<4x16xf32>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        } -> tensor<4x16xf32>

    Produces ``pto.expand row copy %b2 : (tensor<4x1xf32>) -> tensor<4x16xf32>`` (a bit copy).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not elementwise_generic(op, 1):
            return
        out_t = op.results[0].type
        assert isinstance(out_t, TensorType)
        block = op.body.block
        if out_t.get_num_dims() != 2 or body_ops(block) or arg_index(yielded_value(block), block) != 0:
            return
        axis = broadcast_axis(generic_maps(op)[0], op.inputs[0].type)
        if axis is None or op.inputs[0].type.element_type != out_t.element_type:  # type: ignore[union-attr]
            return
        elt = out_t.element_type
        sign = "signed" if isinstance(elt, IntegerType) else None
        if not _types_ok(axis, "copy", elt, sign):
            return
        b = RewriteBuilder(rewriter, op)
        line = b.reshape(op.inputs[0], _line_shape(axis, out_t))
        rewriter.replace(op, ExpandOp(f"{axis}.copy", [line], out_t, sign))


def _single_use_expand(v: SSAValue, user: Operation, operation: str) -> ExpandOp | None:
    o = v.owner
    if not isinstance(o, ExpandOp) or o.tile_op.OPERATION != operation:
        return None
    if any(u.operation is not user for u in v.uses) or len(list(v.uses)) != 1:
        return None
    return o


class FoldExpandCopyIntoBinary(RewritePattern):
    """``pto.elementwise op %x, %c`` with ``%c = pto.expand row|col copy %b`` (only use) ->
    ``pto.expand row|col op %x, %b`` (the copy is the broadcast operand; for commutative
    ops the copy may be either operand).

    Matches::

        %c = pto.expand row copy %b : (tensor<4x1xf32>) -> tensor<4x16xf32>
        %r = pto.elementwise sub %x, %c : tensor<4x16xf32>

    Produces ``%r = pto.expand row sub %x, %b``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ElementwiseOp, rewriter: PatternRewriter) -> None:
        kind = op.kind.data
        if kind not in EXPAND_BINARY:
            return
        t = op.result.type
        if not isinstance(t, TensorType) or t.get_num_dims() != 2:
            return
        pairs = [(op.lhs, op.rhs)] + ([(op.rhs, op.lhs)] if kind in COMMUTATIVE else [])
        for x, c in pairs:
            copy = _single_use_expand(c, op, "copy")
            if copy is None or x is c:
                continue
            axis = copy.tile_op.AXIS
            sign = op.signedness_kind
            if not _types_ok(axis, kind, t.element_type, sign):
                continue
            new = ExpandOp(f"{axis}.{kind}", [x, copy.ins[0]], t, sign)
            rewriter.replace(op, new)
            rewriter.erase(copy)
            return


def _exp_source(op: Operation) -> SSAValue | None:
    """The input of an ``exp`` on a whole tensor: a one-op ``math.exp`` generic with
    identity maps, or ``pto.map exp``."""
    if isinstance(op, MapOp):
        return op.source if op.kind.data == "exp" else None
    if not isinstance(op, linalg.GenericOp) or not elementwise_generic(op, 1):
        return None
    maps = generic_maps(op)
    if maps[0] != maps[1] or op.inputs[0].type != op.results[0].type:
        return None
    block = op.body.block
    ops = body_ops(block)
    y = yielded_value(block)
    if len(ops) != 1 or not isinstance(ops[0], math.ExpOp) or y is not ops[0].results[0]:
        return None
    if arg_index(ops[0].operands[0], block) != 0:
        return None
    return op.inputs[0]


class FoldExpDifference(RewritePattern):
    """``exp`` of a single-use ``pto.expand row|col sub`` -> ``pto.expand ... expdif``.

    Matches (Softmax's ``exp(x - max)``)::

        %d = pto.expand row sub %x, %m : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
        %e = linalg.generic {indexing_maps = [#id, #id], ...} ins(%d : tensor<4x16xf32>) ... {
        ^bb0(%in: f32, %out: f32):
          %y = math.exp %in : f32
          linalg.yield %y : f32
        } -> tensor<4x16xf32>

    (or ``pto.map exp %d``). Produces ``%e = pto.expand row expdif %x, %m``.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        src = _exp_source(op)
        if src is None:
            return
        sub = _single_use_expand(src, op, "sub")
        if sub is None:
            return
        t = op.results[0].type
        assert isinstance(t, TensorType)
        if t.element_type != sub.result.type.element_type:  # type: ignore[union-attr]
            return
        axis = sub.tile_op.AXIS
        if not _types_ok(axis, "expdif", t.element_type, None):
            return
        new = ExpandOp(f"{axis}.expdif", list(sub.ins), t)
        rewriter.replace(op, new)
        rewriter.erase(sub)


EXPAND_PATTERNS: tuple[type[RewritePattern], ...] = (
    BroadcastBinaryToExpand,
    BroadcastCopyToExpand,
    FoldExpandCopyIntoBinary,
    FoldExpDifference,
)
