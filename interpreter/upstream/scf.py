"""``scf`` with numpy values: xDSL's implementations, except the two that read attributes.

xDSL's ``scf.for`` and ``scf.index_switch`` expect ``IntegerAttr`` run-time values; ours
are numpy integers. ``scf.if``/``while``/``yield``/``condition`` are reused unchanged.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import scf
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls
from xdsl.interpreters.scf import ScfFunctions as XdslScfFunctions

from .arith import finish
from .dtypes import dtype_for

__all__ = ["ScfFunctions"]


@register_impls
class ScfFunctions(XdslScfFunctions):
    @impl(scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: scf.ForOp, args: PythonValues) -> PythonValues:
        lb, ub, step, *loop_args = args
        dtype = dtype_for(op.lb.type)
        values = tuple(loop_args)
        for i in range(int(lb), int(ub), int(step)):
            values = interpreter.run_ssacfg_region(
                op.body, (finish(np.int64(i), dtype), *values), "for_loop"
            )
        return values

    @impl(scf.IndexSwitchOp)
    def run_index_switch(
        self, interpreter: Interpreter, op: scf.IndexSwitchOp, args: PythonValues
    ) -> PythonValues:
        cases = op.cases.get_values()
        index = int(args[0])
        if index in cases:
            case = cases.index(index)
            return interpreter.run_ssacfg_region(op.case_regions[case], (), f"case {case}")
        return interpreter.run_ssacfg_region(op.default_region, (), "case default")
