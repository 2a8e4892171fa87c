"""numpy-backed xDSL interpreter functions for linalg-on-tensors programs.

xDSL 0.75's own ``arith``/``linalg``/``tensor`` interpreters use ``IntegerAttr``/
``FloatAttr``/``ShapedArray`` values, have no bf16/f8 tensors, no dense tensor constants
and run ``linalg.generic`` element by element; these replace them. Run-time values are
numpy arrays (tensors) and numpy scalars (see :mod:`interpreter.ssa.upstream.dtypes`).
``math`` is :mod:`interpreter.ssa.upstream.math`, ``cf.assert`` :mod:`interpreter.ssa.upstream.cf`;
``func`` is xDSL's (copied: see :mod:`.func`); ``scf`` is xDSL's with ``for``/``index_switch``
fixed for numpy integers.
"""

from __future__ import annotations

from xdsl.interpreter import InterpreterFunctions

from .arith import ArithFunctions, UndefinedBehaviourError
from .cf import CfFunctions
from .dtypes import UnsupportedTypeError, dtype_for
from .func import FuncFunctions
from .linalg import LinalgFunctions
from .math import MathFunctions
from .scf import ScfFunctions
from .tensor import TensorFunctions
from .tm_tensor import TmTensorFunctions

__all__ = [
    "ArithFunctions",
    "CfFunctions",
    "FuncFunctions",
    "LinalgFunctions",
    "MathFunctions",
    "ScfFunctions",
    "TensorFunctions",
    "TmTensorFunctions",
    "UndefinedBehaviourError",
    "UnsupportedTypeError",
    "dtype_for",
    "upstream_functions",
]


def upstream_functions() -> list[InterpreterFunctions]:
    """One instance of every interpreter-function class a linalg-on-tensors program needs."""
    return [
        ArithFunctions(),
        CfFunctions(),
        FuncFunctions(),
        LinalgFunctions(),
        MathFunctions(),
        ScfFunctions(),
        TensorFunctions(),
        TmTensorFunctions(),
    ]
