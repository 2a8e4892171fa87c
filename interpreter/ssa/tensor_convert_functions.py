"""xDSL interpreter function of the tensor-level ``pto.convert``: one call of the TCVT kernel
(:func:`interpreter.kernels.convert.convert_values`) on the whole tensor, so the tensor-level
meaning is the instruction's meaning with no capacity limit."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from interpreter.kernels.convert import convert_values, storage
from interpreter.ssa.upstream.dtypes import dtype_for
from pto_dialect.tensor_convert import ConvertOp


@register_impls
class TensorConvertFunctions(InterpreterFunctions):
    """Interpreter function of ``pto.convert``."""

    def __init__(self, profile: str = "exact"):
        self.profile = profile

    @impl(ConvertOp)
    def run_convert(self, interpreter: Interpreter, op: ConvertOp, args: tuple[Any, ...]):
        src, dst = op.dtype, op.result_dtype
        x = np.asarray(args[0])
        sdt = storage(src)
        x = x if x.dtype == sdt else x.view(sdt)  # signless integers: raw carriers
        r = convert_values(x, src, dst, op.rmode.data.code, op.sat is not None)
        want = dtype_for(op.result.type.element_type)  # type: ignore[union-attr]
        return (r if r.dtype == want else r.view(want),)
