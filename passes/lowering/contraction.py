"""Contractions beyond one matrix product: batched matmul and folded batch broadcasts.

* :class:`BatchMatmulToLoop` — ``linalg.batch_matmul`` (or its ``linalg.generic`` form with
  maps ``(b, m, k)``, ``(b, k, n)``, ``(b, m, n)``) becomes, per batch, a ``pto.matmul``
  on ``tensor.extract_slice`` views, inserted into the result with
  ``tensor.insert_slice`` (data movement in global memory): the batch loop of CUBE ops. A
  ``+0.0`` fill init means no accumulator; any other init is each batch's ``acc``.
* A batch operand that is a pure broadcast of a 2-D tensor over the batch dimension (what
  torch-mlir emits for ``MatMul(3-D, 2-D)``: a copy generic with map ``(b, m, k) -> (m, k)``)
  is read directly: every batch uses the 2-D tensor, so the broadcast does no work.

Each batch is one :class:`~pto_dialect.tensor_ops.MatmulOp`, so every type pair the single
product accepts (MX, FP32, S8/S16 -> S32, D2, PTO-SPEC 1) works batched, and the tiling
(``pto-tile-to-capacity``) is the single product's.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from pto_dialect.tensor_ops import MatmulOp, cube_accumulator, cube_dtype_of, result_dtype_of

BATCH_MAPS = (
    AffineMap.from_callable(lambda b, m, n, k: (b, m, k)),
    AffineMap.from_callable(lambda b, m, n, k: (b, k, n)),
    AffineMap.from_callable(lambda b, m, n, k: (b, m, n)),
)


def _zero_fill(v: SSAValue) -> bool:
    """``v`` is a ``linalg.fill`` of a ``+0`` scalar constant (no accumulator)."""
    fill = v.owner
    if not isinstance(fill, linalg.FillOp) or len(fill.inputs) != 1:
        return False
    c = fill.inputs[0].owner
    if not isinstance(c, arith.ConstantOp):
        return False
    val = getattr(c.value, "value", None)
    data = getattr(val, "data", None)
    if data is None:
        return False
    return data == 0 and str(data)[0] != "-"


def _batch_broadcast_source(v: SSAValue) -> SSAValue | None:
    """The 2-D tensor a 3-D operand broadcasts over the batch dimension, if it is one:
    a ``linalg.generic`` with one input mapped ``(b, i, j) -> (i, j)``, an identity output
    and a body that yields the input unchanged."""
    g = v.owner
    if not isinstance(g, linalg.GenericOp) or len(g.inputs) != 1 or len(g.outputs) != 1:
        return None
    maps = [m.data for m in g.indexing_maps.data]
    if maps != [AffineMap.from_callable(lambda b, i, j: (i, j)), AffineMap.identity(3)]:
        return None
    block = g.body.block
    y = block.last_op
    if not isinstance(y, linalg.YieldOp) or len(y.operands) != 1:
        return None
    arg = y.operands[0]
    if not (isinstance(arg, BlockArgument) and arg.index == 0 and arg.block is block):
        return None
    if len(list(block.ops)) != 1:
        return None
    return g.inputs[0]


def _batch_operands(op: Operation):
    """(a, b, init, result type) of a batched contraction, or None."""
    if len(op.operands) != 3 or len(op.results) != 1:
        return None
    if op.name == "linalg.batch_matmul":
        maps = [m.data for m in op.get_indexing_maps().data]  # type: ignore[attr-defined]
    elif isinstance(op, linalg.GenericOp):
        maps = [m.data for m in op.indexing_maps.data]
        names = [o.name for o in op.body.block.ops]
        if names[-2:] not in (["arith.addf", "linalg.yield"], ["arith.addi", "linalg.yield"]):
            return None
        if not any(n in ("arith.mulf", "arith.muli") for n in names):
            return None
        # the body must be the cast/mul/add contraction: checked through the named form only
        return None
    else:
        return None
    if tuple(maps) != BATCH_MAPS:
        return None
    a, b, init = op.operands
    r = op.results[0].type
    if not all(isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape()) for t in (a.type, b.type, r)):
        return None
    return a, b, init, r


class BatchMatmulToLoop(RewritePattern):
    """``linalg.batch_matmul`` -> one ``pto.matmul`` per batch on slices (see module doc).

    Matches::

        %r = linalg.batch_matmul ins(%a, %b : tensor<BxMxKxf32>, tensor<BxKxNxf32>)
                                 outs(%init : tensor<BxMxNxf32>) -> tensor<BxMxNxf32>

    for every pair :class:`~pto_dialect.tensor_ops.MatmulOp` accepts. Produces, per batch
    ``i``: ``extract_slice`` of ``%a[i]`` and ``%b[i]`` (or the 2-D source of a batch
    broadcast), ``pto.matmul`` (``acc`` = ``%init[i]`` unless ``%init`` is a ``+0`` fill),
    ``insert_slice`` into the result.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        found = _batch_operands(op)
        if found is None:
            return
        a, b, init, r = found
        nb, m, n = r.get_shape()
        k = a.type.get_shape()[2]  # type: ignore[union-attr]
        dts = [cube_dtype_of(v.type.element_type) for v in (a, b)]  # type: ignore[union-attr]
        if None in dts:
            return
        acc_dt = cube_accumulator(dts[0], dts[1], False)  # type: ignore[arg-type]
        if acc_dt is None or result_dtype_of(r.element_type) is not acc_dt:
            return
        a2, b2 = _batch_broadcast_source(a), _batch_broadcast_source(b)
        zero_init = _zero_fill(init)
        new_ops: list[Operation] = []
        out_t = TensorType(r.element_type, [m, n])
        cur: SSAValue = tensor.EmptyOp([], r).results[0]
        new_ops.append(cur.owner)  # type: ignore[arg-type]
        def piece(v: SSAValue, i: int, rows: int, cols: int, src2: SSAValue | None) -> SSAValue:
            if src2 is not None:
                return src2
            # xDSL's from_static_parameters(reduce_rank=True) drops the unit size from the
            # static sizes too (invalid IR): spell the rank-reducing slice out.
            elt = v.type.get_element_type()  # type: ignore[union-attr]
            s = tensor.ExtractSliceOp(v, [i, 0, 0], [1, rows, cols], [1, 1, 1], TensorType(elt, [rows, cols]))
            new_ops.append(s)
            return s.results[0]

        for i in range(nb):
            ai = piece(a, i, m, k, a2)
            bi = piece(b, i, k, n, b2)
            acc = None if zero_init else piece(init, i, m, n, None)
            mm = MatmulOp(ai, bi, out_t, acc=acc)
            ins = tensor.InsertSliceOp.from_static_parameters(mm.result, cur, [i, 0, 0], [1, m, n])
            new_ops += [mm, ins]
            cur = ins.results[0]
        rewriter.replace(op, new_ops, [cur])
        for v in (a, b):  # a batch broadcast read through is dead now: it did no work
            g = v.owner
            if isinstance(g, linalg.GenericOp) and not g.results[0].uses and v in (a, b):
                if (a2 is not None and v is a) or (b2 is not None and v is b):
                    rewriter.erase(g)
