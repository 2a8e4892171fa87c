"""Epilogues folded into a ``pto.matmul`` (M > 1), as they are for ``pto.gemv``.

* :class:`FoldTruncfIntoMatmul` — ``truncf`` f32 -> f16/bf16 of a zero-init ``pto.matmul``
  result becomes the product's result type: PreQuantMode 1 / 16 on the last K chunk
  (F322F16 / F322BF16 round to nearest even and overflow to infinity with Sat = 0, exactly
  ``arith.truncf``; PTO-SPEC 3.3, D11). torch-mlir emits this for an f16/bf16 ``MatMul``.

The GEMV epilogues (bias, ReLU, truncf) are in :mod:`passes.convert_linalg_to_pto`.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from passes.convert_linalg_to_pto import (
    _arg_index,
    _body_ops,
    _elementwise_generic,
    _maps,
    _yielded,
)
from pto_dialect.attributes import tile_dtype_of
from pto_dialect.datatypes import TileDataType
from pto_dialect.tensor_ops import GEMV_OUTPUT_TYPES, MatmulOp


class FoldTruncfIntoMatmul(RewritePattern):
    """``truncf`` of an FP32 ``pto.matmul`` result (its only use) to f16/bf16.

    Matches::

        %m = pto.matmul %a, %b : (tensor<MxKxf16>, tensor<KxNxf16>) -> tensor<MxNxf32>
        %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = [...]}
            ins(%m : tensor<MxNxf32>) outs(%e : tensor<MxNxf16>) {
        ^bb0(%x: f32, %o: f16):
          %t = arith.truncf %x : f32 to f16
          linalg.yield %t : f16
        }

    Produces ``pto.matmul %a, %b : (...) -> tensor<MxNxf16>``. Not matched: an ``acc``
    operand (the ACC forms then keep the FP32 accumulator type), other users of ``%m``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not _elementwise_generic(op, 1):
            return
        maps = _maps(op)
        if maps[0] != maps[-1]:
            return
        mm = op.inputs[0].owner
        if not isinstance(mm, MatmulOp) or mm.acc is not None:
            return
        if any(u.operation is not op for u in mm.result.uses):
            return
        if tile_dtype_of(mm.result.type.element_type) is not TileDataType.FP32:  # type: ignore[union-attr]
            return
        block = op.body.block
        ops = _body_ops(block)
        y = _yielded(block)
        if len(ops) != 1 or y is None or y.owner is not ops[0] or not isinstance(ops[0], arith.TruncFOp):
            return
        if ops[0].attributes or _arg_index(ops[0].input, block) != 0:
            return
        out_t = op.results[0].type
        assert isinstance(out_t, TensorType)
        if tile_dtype_of(out_t.element_type) not in GEMV_OUTPUT_TYPES:
            return
        new = MatmulOp(mm.a, mm.b, out_t, a_scale=mm.a_scale, b_scale=mm.b_scale)
        rewriter.replace(op, new)
        rewriter.erase(mm)
