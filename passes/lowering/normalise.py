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
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DenseIntOrFPElementsAttr, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir.affine import AffineMap
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
