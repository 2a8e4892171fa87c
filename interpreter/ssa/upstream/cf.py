"""``cf.assert`` with numpy values.

torch-mlir guards some bodies with it (ONNX ``Reciprocal``: ``cf.assert (x != 0),
"unimplemented: tensor with zero element"``). Inside a vectorised ``linalg.generic`` body
the condition is a whole boolean array: the assertion holds when every element is true;
otherwise the run stops with the op's message (upstream aborts the program).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import cf
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.utils.exceptions import InterpretationError

__all__ = ["AssertionFailedError", "CfFunctions"]


class AssertionFailedError(InterpretationError):
    """A ``cf.assert`` condition was false (for some element of a vectorised body)."""


@register_impls
class CfFunctions(InterpreterFunctions):
    @impl(cf.AssertOp)
    def run_assert(self, interpreter: Interpreter, op: cf.AssertOp, args: PythonValues):
        if not np.all(np.asarray(args[0])):
            raise AssertionFailedError(f"cf.assert failed: {op.msg.data}")
        return ()
