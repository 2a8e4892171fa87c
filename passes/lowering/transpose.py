"""Transposes -> ``pto.transpose`` (TTRANS through Local tiles; a bit copy, exact).

* :class:`TransposeToPto` — ``linalg.transpose`` with permutation ``[1, 0]`` on a static
  2-D tensor, and its ``linalg.generic`` spelling (input map ``(d0, d1) -> (d1, d0)``,
  identity output map, body ``yield %in``).
* :class:`BatchTransposeToPto` — permutation ``[0, 2, 1]`` of a 3-D tensor: one
  ``pto.transpose`` per batch on slices.

A Gemm with ``transB = 1`` (torch-mlir: ``linalg.transpose`` of the weight feeding
``linalg.matmul``) then lowers as ``pto.transpose`` + ``pto.matmul``: the CUBE B operand is
loaded from the transposed tensor in global memory. There is no transposed TLOAD and
TTRANS produces row-major tiles only (B's CUBE layout needs the ND -> N8 conversion of a
load), so the transpose is its own pass over the data, not folded into the product.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from passes.lowering.data_movement import DATA_MOVEMENT_PATTERNS
from passes.lowering.idioms import (
    arg_index,
    body_ops,
    elementwise_generic,
    generic_maps,
    yielded_value,
)
from pto_dialect.tensor_local import TransposeOp
from pto_dialect.tensor_ops import floor_mod_dtype
from pto_dialect.tile_local import TRANS_TYPES

SWAP = AffineMap.from_callable(lambda d0, d1: (d1, d0))


def transposed_source(op: Operation):
    """The 2-D tensor ``op`` transposes (named or generic form), or None."""
    if isinstance(op, linalg.TransposeOp):
        perm = tuple(op.permutation.get_values())
        return op.inputs[0] if perm == (1, 0) and len(op.inputs) == 1 else None
    if isinstance(op, linalg.GenericOp) and elementwise_generic(op, 1):
        block = op.body.block
        if body_ops(block) or arg_index(yielded_value(block), block) != 0:
            return None
        if generic_maps(op) == [SWAP, AffineMap.identity(2)]:
            return op.inputs[0]
    return None


MAX_BATCHES = 64
"""Most batches a ``[0, 2, 1]`` transpose unrolls into (one ``pto.transpose`` each)."""


class BatchTransposeToPto(RewritePattern):
    """``linalg.transpose`` with permutation ``[0, 2, 1]`` (the batched ``transB`` of
    ``Q @ K^T``) -> per batch ``tensor.extract_slice``, ``pto.transpose``,
    ``tensor.insert_slice`` (at most :data:`MAX_BATCHES` batches).

    Matches::

        %t = linalg.transpose ins(%k : tensor<2x8x16xf32>) outs(%e : tensor<2x16x8xf32>)
                              permutation = [0, 2, 1]
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, linalg.TransposeOp) or len(op.inputs) != 1 or len(op.results) != 1:
            return
        if tuple(op.permutation.get_values()) != (0, 2, 1):
            return
        src = op.inputs[0]
        t, rt = src.type, op.results[0].type
        if not isinstance(t, TensorType) or not isinstance(rt, TensorType) or not t.has_static_shape():
            return
        nb, m, n = t.get_shape()
        if nb > MAX_BATCHES or not _type_ok(t.element_type):
            return
        elt = t.element_type
        new: list[Operation] = [tensor.EmptyOp([], rt)]
        cur = new[0].results[0]
        for i in range(nb):
            sl = tensor.ExtractSliceOp(src, [i, 0, 0], [1, m, n], [1, 1, 1], TensorType(elt, [m, n]))
            tr = TransposeOp(sl.results[0], TensorType(elt, [n, m]))
            ins = tensor.InsertSliceOp.from_static_parameters(tr.result, cur, [i, 0, 0], [1, n, m])
            new += [sl, tr, ins]
            cur = ins.results[0]
        rewriter.replace(op, new, [cur])


def _type_ok(elt) -> bool:
    return floor_mod_dtype(elt, "signed", TRANS_TYPES) is not None or floor_mod_dtype(
        elt, None, TRANS_TYPES
    ) is not None


class TransposeToPto(RewritePattern):
    """A 2-D transpose -> ``pto.transpose``.

    Matches::

        %t = linalg.transpose ins(%w : tensor<16x40xf32>) outs(%e : tensor<40x16xf32>)
                              permutation = [1, 0]

    Produces ``%t = pto.transpose %w : (tensor<16x40xf32>) -> tensor<40x16xf32>``.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        src = transposed_source(op)
        if src is None or len(op.results) != 1:
            return
        t, rt = src.type, op.results[0].type
        if not isinstance(t, TensorType) or not isinstance(rt, TensorType):
            return
        if not t.has_static_shape() or t.get_num_dims() != 2 or rt.element_type != t.element_type:
            return
        if tuple(rt.get_shape()) != tuple(t.get_shape())[::-1]:
            return
        if not _type_ok(t.element_type):
            return
        rewriter.replace(op, TransposeOp(src, rt))


TRANSPOSE_PATTERNS: tuple[type[RewritePattern], ...] = (
    TransposeToPto, BatchTransposeToPto, *DATA_MOVEMENT_PATTERNS,
)  # fmt: skip
"""The 2-D and batched transposes, then any N-D permutation and ``tensor.concat``
(:mod:`passes.lowering.data_movement`)."""
