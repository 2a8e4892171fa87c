"""xDSL interpreter functions of the tensor-level reductions and expansions (``pto.reduce``,
``pto.expand``): one call of the tile instruction's kernel row
(:data:`interpreter.kernels.LOCAL_ROWS`) on the whole tensor, so the tensor-level meaning is
the instruction's meaning with no capacity limit."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from interpreter import kernels
from interpreter.kernels.storage import storage_dtype
from pto_dialect.datatypes import TileDataType
from pto_dialect.tensor_local import ExpandOp, GatherOp, ReduceOp, SortOp, TransposeOp


def _as_tile(x: Any, dt: TileDataType) -> np.ndarray:
    """A tensor value as the tile type's storage (signless integers are raw carriers)."""
    a = np.asarray(x)
    sdt = storage_dtype(dt)
    return a if a.dtype == sdt else a.view(sdt)


@register_impls
class TensorLocalFunctions(InterpreterFunctions):
    """Interpreter functions of ``pto.reduce``, ``pto.expand``, ``pto.transpose`` and
    ``pto.gather``."""

    def __init__(self, profile: str = "exact"):
        self.profile = profile

    @impl(ReduceOp)
    def run_reduce(self, interpreter: Interpreter, op: ReduceOp, args: tuple[Any, ...]):
        dt, out_dt = op.dtype, op.index_dtype
        x = np.asarray(args[0])
        shape = tuple(op.result.type.get_shape())  # type: ignore[union-attr]
        r = kernels.local_tile(op.tile_op.MNEMONIC, [_as_tile(x, dt)], [dt], out_dt, shape)
        want = x.dtype if not op.tile_op.is_arg() else np.dtype(np.int32)
        if op.tile_op.is_arg() and out_dt is TileDataType.U32:
            want = np.dtype(np.uint32)
        return (np.asarray(r).view(want) if r.dtype.itemsize == want.itemsize else r.astype(want),)

    @impl(ExpandOp)
    def run_expand(self, interpreter: Interpreter, op: ExpandOp, args: tuple[Any, ...]):
        dt, out_dt = op.dtype, op.result_dtype
        ins = [_as_tile(a, dt) for a in args]
        shape = tuple(op.result.type.get_shape())  # type: ignore[union-attr]
        r = kernels.local_tile(op.tile_op.MNEMONIC, ins, [dt] * len(ins), out_dt, shape)
        want = np.asarray(args[-1]).dtype if out_dt is dt else storage_dtype(out_dt)
        return (np.asarray(r).view(want),)

    @impl(TransposeOp)
    def run_transpose(self, interpreter: Interpreter, op: TransposeOp, args: tuple[Any, ...]):
        x = np.asarray(args[0])
        rows = (x.shape[0], x.shape[1])
        r = kernels.local_tile("TTRANS", [_as_tile(x, op.dtype)], [op.dtype], op.dtype, rows[::-1])
        return (np.asarray(r).view(x.dtype).reshape(rows[::-1]),)

    @impl(GatherOp)
    def run_gather(self, interpreter: Interpreter, op: GatherOp, args: tuple[Any, ...]):
        """TGATHER on the whole tensors (the table one tile): ``r[i, j] = t[idx[i, j], j]``;
        a bad index is TGATHER's TileLegality fault."""
        t, idx = np.asarray(args[0]), np.asarray(args[1])
        r = kernels.local_tile("TGATHER", [_as_tile(t, op.dtype), _as_tile(idx, op.index_dtype)],
                               [op.dtype, op.index_dtype], op.dtype, idx.shape)  # fmt: skip
        return (np.asarray(r).view(t.dtype).reshape(idx.shape),)

    @impl(SortOp)
    def run_sort(self, interpreter: Interpreter, op: SortOp, args: tuple[Any, ...]):
        """TSORT of every row (sort width = the row length); the sorted values."""
        x = np.asarray(args[0])
        values, _ = kernels.local_tile("TSORT", [_as_tile(x, op.dtype)], [op.dtype], op.dtype,
                                       x.shape, params=(x.shape[1], int(op.descending)))  # fmt: skip
        return (np.asarray(values).view(x.dtype).reshape(x.shape),)
