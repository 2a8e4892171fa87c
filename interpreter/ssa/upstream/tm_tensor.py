"""numpy ``tm_tensor.sort`` (torch-mlir's TopK / sort): a stable sort by a comparator region.

The comparator runs once, vectorised, on every ordered pair of a line (``before[..., i, j]
= cmp(x_i, x_j)``); element ``i`` goes to position ``#{j : j strictly before i} + #{j < i :
i and j tie}`` (a stable sort: ties keep their order, as torch-mlir's bubble-sort lowering,
which swaps neighbours only where the comparator is false). A comparator that is not a
strict weak order on the data (e.g. ``oge`` with a NaN, which ties with everything) gives no
consistent order: the interpreter refuses it rather than pick one.
"""

from __future__ import annotations

import numpy as np
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
from xdsl.utils.exceptions import InterpretationError

from pto_dialect.upstream.tm_tensor import SortOp, TmYieldOp

__all__ = ["TmTensorFunctions"]


@register_impls
class TmTensorFunctions(InterpreterFunctions):
    @impl_terminator(TmYieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: TmYieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(SortOp)
    def run_sort(self, interpreter: Interpreter, op: SortOp, args: PythonValues):
        d = op.dimension.value.data
        lines = [np.moveaxis(np.asarray(a), d, -1) for a in args]
        n = lines[0].shape[-1]
        full = (*lines[0].shape, n)
        pairs = []
        for a in lines:
            pairs += [np.broadcast_to(a[..., :, None], full), np.broadcast_to(a[..., None, :], full)]
        (c,) = interpreter.run_ssacfg_region(op.region, tuple(pairs), op.name)
        c = np.broadcast_to(np.asarray(c, dtype=np.bool_), full)
        ct = np.swapaxes(c, -1, -2)
        strict = c & ~ct  # strict[..., j, i]: j strictly before i
        tie = ~(strict | np.swapaxes(strict, -1, -2))
        earlier = np.tril(np.ones((n, n), dtype=np.bool_), -1)  # [i, j]: j < i
        rank = strict.sum(axis=-2) + (tie & earlier).sum(axis=-1)
        if not np.array_equal(np.sort(rank, axis=-1), np.broadcast_to(np.arange(n), rank.shape)):
            raise InterpretationError("tm_tensor.sort: the comparator is not a strict weak "
                                      "order on these values (a NaN?): no defined order")  # fmt: skip
        out = []
        for a in lines:
            r = np.empty_like(a)
            np.put_along_axis(r, rank, a, axis=-1)
            out.append(np.moveaxis(r, -1, d))
        return tuple(out)
