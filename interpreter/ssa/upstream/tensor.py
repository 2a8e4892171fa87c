"""numpy ``tensor`` ops: tensors are numpy arrays, every op returns a fresh value.

``tensor.empty`` has undefined contents upstream; the interpreter gives zeros. Static and
dynamic offsets/sizes/strides are both accepted (dynamic ones come from ``index``
operands); rank-reducing ``extract_slice`` drops the unit dims its result type omits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation
from xdsl.utils.exceptions import InterpretationError

from .arith import finish
from .dtypes import dtype_for

__all__ = ["TensorFunctions", "pad_value"]


def _mixed(static: Sequence[int], dynamic: Sequence[Any]) -> list[int]:
    """Merge a static list (``DYNAMIC_INDEX`` placeholders) with dynamic operand values."""
    values = iter(dynamic)
    return [int(next(values)) if s == DYNAMIC_INDEX else int(s) for s in static]


def _slices(
    op: tensor.ExtractSliceOp | tensor.InsertSliceOp,
    args: PythonValues,
    first: int,
    shape: Sequence[int],
) -> tuple[tuple[slice, ...], list[int]]:
    n_off, n_size = len(op.offsets), len(op.sizes)
    dyn = args[first:]
    offsets = _mixed(op.static_offsets.get_values(), dyn[:n_off])
    sizes = _mixed(op.static_sizes.get_values(), dyn[n_off : n_off + n_size])
    strides = _mixed(op.static_strides.get_values(), dyn[n_off + n_size :])
    if not len(offsets) == len(sizes) == len(strides) == len(shape):
        raise InterpretationError(f"{op.name}: offsets/sizes/strides do not match rank")
    slices = []
    for dim, (o, n, s) in enumerate(zip(offsets, sizes, strides, strict=True)):
        last = o + (n - 1) * s
        if n < 0 or s <= 0 or o < 0 or (n > 0 and last >= shape[dim]):
            raise InterpretationError(
                f"{op.name}: slice offset {o} size {n} stride {s} is out of bounds of "
                f"dimension {dim} of size {shape[dim]}"
            )
        slices.append(slice(o, o + n * s, s))
    return tuple(slices), sizes


def pad_value(op: tensor.PadOp):
    """The value a ``tensor.pad`` body yields if it does not depend on the indices: defined
    outside the body, or an ``arith.constant`` in it; else None."""
    block = op.region.block
    y = block.last_op
    if y is None or len(y.operands) != 1:
        return None
    v = y.operands[0]
    if v.owner is block:  # a block argument: an index
        return None
    if isinstance(v.owner, Operation) and v.owner.parent_block() is block:
        return v if isinstance(v.owner, arith.ConstantOp) else None
    return v


@register_impls
class TensorFunctions(InterpreterFunctions):
    @impl(tensor.EmptyOp)
    def run_empty(self, interpreter: Interpreter, op: tensor.EmptyOp, args: PythonValues):
        t = op.tensor.type
        assert isinstance(t, TensorType)
        shape = _mixed(t.get_shape(), args)
        return (np.zeros(shape, dtype=dtype_for(t)),)

    @impl(tensor.ExtractSliceOp)
    def run_extract_slice(
        self, interpreter: Interpreter, op: tensor.ExtractSliceOp, args: PythonValues
    ):
        source = np.asarray(args[0])
        slices, _ = _slices(op, args, 1, source.shape)
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        sub = source[slices]
        want = result_type.get_shape()
        kept: list[int] = []
        for n in sub.shape:  # rank-reducing slices drop unit dims the result omits
            j = len(kept)
            if j < len(want) and want[j] in (n, DYNAMIC_INDEX):
                kept.append(n)
            elif n != 1:
                raise InterpretationError(
                    f"{op.name}: slice of shape {sub.shape} is not {result_type}"
                )
        if len(kept) != len(want):
            raise InterpretationError(f"{op.name}: slice of shape {sub.shape} is not {result_type}")
        sub = sub.reshape(kept)
        return (np.array(sub, copy=True),)

    @impl(tensor.InsertSliceOp)
    def run_insert_slice(
        self, interpreter: Interpreter, op: tensor.InsertSliceOp, args: PythonValues
    ):
        source, dest = np.asarray(args[0]), np.array(args[1], copy=True)
        slices, sizes = _slices(op, args, 2, dest.shape)
        dest[slices] = source.reshape(sizes)
        return (dest,)

    @impl(tensor.PadOp)
    def run_pad(self, interpreter: Interpreter, op: tensor.PadOp, args: PythonValues):
        """``tensor.pad`` whose body yields one value independent of the indices (a
        constant, or a value defined outside): that value around the source."""
        source = np.asarray(args[0])
        n_low = len(op.low)
        low = _mixed(op.static_low.get_values(), args[1 : 1 + n_low])
        high = _mixed(op.static_high.get_values(), args[1 + n_low :])
        if len(low) != source.ndim or len(high) != source.ndim:
            raise InterpretationError(f"{op.name}: low/high do not match the rank {source.ndim}")
        if any(v < 0 for v in (*low, *high)):
            raise InterpretationError(f"{op.name}: negative padding {low} / {high}")
        value = pad_value(op)
        if value is None:
            raise InterpretationError(
                f"{op.name}: the padding value depends on the indices; only a value "
                "independent of them (a constant) is supported"
            )
        if isinstance(value.owner, Operation) and value.owner.parent_block() is op.region.block:
            (fill,) = interpreter.run_op(value.owner, ())  # a constant defined in the body
        else:
            (fill,) = interpreter.get_values((value,))
        dtype = dtype_for(op.result.type)
        out = np.full(
            [lo + n + hi for lo, n, hi in zip(low, source.shape, high, strict=True)],
            finish(np.asarray(fill), dtype), dtype=dtype,
        )
        out[tuple(slice(lo, lo + n) for lo, n in zip(low, source.shape, strict=True))] = source
        return (out,)

    @impl(tensor.CastOp)
    def run_cast(self, interpreter: Interpreter, op: tensor.CastOp, args: PythonValues):
        t = op.dest.type
        if isinstance(t, TensorType):
            want = t.get_shape()
            have = np.shape(args[0])
            if len(want) != len(have) or any(
                w != DYNAMIC_INDEX and w != h for w, h in zip(want, have, strict=True)
            ):
                raise InterpretationError(f"tensor.cast: value of shape {have} is not {t}")
        return (args[0],)

    @impl(tensor.ExtractOp)
    def run_extract(self, interpreter: Interpreter, op: tensor.ExtractOp, args: PythonValues):
        source = np.asarray(args[0])
        if all(np.ndim(i) == 0 for i in args[1:]):
            index = tuple(int(i) for i in args[1:])
            if any(not 0 <= i < n for i, n in zip(index, source.shape, strict=True)):
                raise InterpretationError(
                    f"tensor.extract: index {index} out of bounds {source.shape}"
                )
            return (source[index],)
        # A gather: inside a linalg body an index is an array over the iteration space (a
        # data-dependent index, an embedding lookup); one fancy-indexing call reads them all.
        arrays = tuple(np.asarray(i, dtype=np.int64) for i in args[1:])
        for d, (ix, n) in enumerate(zip(arrays, source.shape, strict=True)):
            if ix.size and (int(ix.min()) < 0 or int(ix.max()) >= n):
                bad = int(ix.min()) if int(ix.min()) < 0 else int(ix.max())
                raise InterpretationError(
                    f"tensor.extract: index {bad} out of bounds for dimension {d} of size {n} "
                    f"(shape {source.shape})"
                )
        return (source[arrays],)

    @impl(tensor.ConcatOp)
    def run_concat(self, interpreter: Interpreter, op: tensor.ConcatOp, args: PythonValues):
        """``tensor.concat``: the inputs joined along ``dim`` (a fresh array)."""
        return (np.concatenate([np.asarray(a) for a in args], axis=op.dim.value.data),)

    @impl(tensor.InsertOp)
    def run_insert(self, interpreter: Interpreter, op: tensor.InsertOp, args: PythonValues):
        dest = np.array(args[1], copy=True)
        index = tuple(int(i) for i in args[2:])
        if any(not 0 <= i < n for i, n in zip(index, dest.shape, strict=True)):
            raise InterpretationError(f"tensor.insert: index {index} out of bounds {dest.shape}")
        dest[index] = args[0]
        return (dest,)

    @impl(tensor.FromElementsOp)
    def run_from_elements(
        self, interpreter: Interpreter, op: tensor.FromElementsOp, args: PythonValues
    ):
        t = op.result.type
        assert isinstance(t, TensorType)
        dtype = dtype_for(t)
        return (np.array(args, dtype=dtype).reshape(t.get_shape()),)

    @impl(tensor.SplatOp)
    def run_splat(self, interpreter: Interpreter, op: tensor.SplatOp, args: PythonValues):
        t = op.result.type
        assert isinstance(t, TensorType)
        shape = _mixed(t.get_shape(), args[1:])
        return (np.full(shape, args[0], dtype=dtype_for(t)),)

    @impl(tensor.DimOp)
    def run_dim(self, interpreter: Interpreter, op: tensor.DimOp, args: PythonValues):
        return (finish(np.shape(args[0])[int(args[1])], np.dtype(np.int64)),)

    def _reshape(self, interpreter: Interpreter, op: Any, args: PythonValues):
        t = op.result.type
        assert isinstance(t, TensorType)
        shape = list(t.get_shape())
        if shape.count(DYNAMIC_INDEX) > 1:
            raise InterpretationError(f"{op.name}: more than one dynamic dimension")
        shape = [-1 if d == DYNAMIC_INDEX else d for d in shape]
        # A view where numpy can (values are never mutated; interpreter.run copies a result
        # that shares memory with an argument).
        return (np.asarray(args[0]).reshape(shape),)


for _op_type in (tensor.CollapseShapeOp, tensor.ExpandShapeOp):
    setattr(TensorFunctions, f"run_{_op_type.__name__}", impl(_op_type)(TensorFunctions._reshape))
register_impls(TensorFunctions)
