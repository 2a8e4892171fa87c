"""``scf`` with numpy values.

xDSL's ``scf.for`` and ``scf.index_switch`` expect ``IntegerAttr`` run-time values; ours are
numpy integers. ``scf.if``/``while``/``yield``/``condition`` follow xDSL's implementations.
They are written here rather than imported: importing anything from ``xdsl.interpreters``
loads every xDSL interpreter (RISC-V included), most of a tool's start-up time.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import scf
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)

from .arith import finish
from .dtypes import dtype_for

__all__ = ["ScfFunctions"]


@register_impls
class ScfFunctions(InterpreterFunctions):
    @impl(scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: scf.IfOp, args: PythonValues):
        (cond,) = args
        region = op.true_region if cond else op.false_region
        return interpreter.run_ssacfg_region(region, ())

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

    @impl_terminator(scf.YieldOp)
    def run_yield(
        self, _interpreter: Interpreter, op: scf.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl_terminator(scf.ConditionOp)
    def run_condition(
        self, _interpreter: Interpreter, op: scf.ConditionOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(scf.WhileOp)
    def run_while(self, interpreter: Interpreter, op: scf.WhileOp, args: PythonValues) -> PythonValues:
        loop_args = args
        while True:
            # The before region ends in scf.condition: args[0] is the i1 condition, the rest
            # go to the after region (condition holds) or are the op's results (otherwise).
            condition, *forwarded = interpreter.run_ssacfg_region(
                op.before_region, loop_args, "while.before_region"
            )
            if not condition:
                return tuple(forwarded)
            loop_args = interpreter.run_ssacfg_region(
                op.after_region, tuple(forwarded), "while.after_region"
            )

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
