"""torch-mlir's ``tm_tensor.sort`` (what ONNX TopK imports to), registered as upstream ops.

``tm_tensor.sort dimension(d) outs(%v, %i : tensor<MxNxf32>, tensor<MxNxi64>) { ^bb0(%a:
f32, %b: f32, %ia: i64, %ib: i64): %c = arith.cmpf oge, %a, %b : f32; tm_tensor.yield %c :
i1 } -> tensor<MxNxf32>, tensor<MxNxi64>`` sorts every line along ``d`` of the first
operand with the comparator region (``true``: the first argument goes before the second),
permuting the other operands alike; equal elements keep their order (a stable sort, as
torch-mlir's lowering, a bubble sort that swaps only where the comparator is false).
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, TensorType, i64
from xdsl.ir import Dialect, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class TmYieldOp(IRDLOperation):
    """``tm_tensor.yield %c : i1`` — the comparator's answer."""

    name = "tm_tensor.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator())
    assembly_format = "attr-dict ($values^ `:` type($values))?"


@irdl_op_definition
class SortOp(IRDLOperation):
    """``tm_tensor.sort dimension(d) outs(...) {comparator} -> types`` (module docstring).

    Semantics: for each line along ``d``, the stable order of the first operand's elements
    under the comparator; every operand is permuted by that order."""

    name = "tm_tensor.sort"
    dimension = prop_def(IntegerAttr[I64])
    outputs = var_operand_def(TensorType)
    res = var_result_def(TensorType)
    region = region_def("single_block")

    assembly_format = (
        "`dimension` `(` $dimension `)` `outs` `(` $outputs `:` type($outputs) `)` $region "
        "`->` type($res) attr-dict"
    )

    def __init__(self, dimension: int, outputs: list[SSAValue], region: Region):
        super().__init__(operands=[outputs], result_types=[[v.type for v in outputs]],
                         properties={"dimension": IntegerAttr(dimension, i64)}, regions=[region])  # fmt: skip

    def verify_(self) -> None:
        if not self.outputs:
            raise VerifyException("'tm_tensor.sort' op needs at least one operand")
        shape = self.outputs[0].type.get_shape()  # type: ignore[union-attr]
        if any(v.type.get_shape() != shape for v in self.outputs):  # type: ignore[union-attr]
            raise VerifyException("'tm_tensor.sort' op operands must have one shape")
        if not 0 <= self.dimension.value.data < len(shape):
            raise VerifyException(f"'tm_tensor.sort' op dimension {self.dimension.value.data} "
                                  f"is out of range for rank {len(shape)}")  # fmt: skip
        if [r.type for r in self.res] != [v.type for v in self.outputs]:
            raise VerifyException("'tm_tensor.sort' op results must have the operands' types")
        if len(self.region.block.args) != 2 * len(self.outputs):
            raise VerifyException("'tm_tensor.sort' op comparator takes two arguments per operand")


TmTensor = Dialect("tm_tensor", [SortOp, TmYieldOp], [])
