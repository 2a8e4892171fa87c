"""Vectorised numpy execution of linalg structured ops on tensors.

One engine runs ``linalg.generic`` and every named op we support (``fill``, ``matmul``,
``vecmat``, ``matvec``, the convolutions and poolings (``conv_*``, ``depthwise_conv_*``,
``pooling_*``: their reductions fold in the domain order, e.g. ``c, kh, kw``), elementwise ``add``/``sub``/``mul``/``max``/``min``/``copy``,
``transpose``): a named op is its hidden body plus its indexing maps and iterator types,
exactly as upstream defines it, so ``linalg.matmul`` and the equivalent
``linalg.generic`` give bit-identical results.

How the body is evaluated (never element by element):

* **Operands are gathered** over the iteration space with the indexing maps. A map whose
  results are distinct loop dims (a projected permutation) becomes a slice + transpose +
  reshape view; any other map (``(n, k) -> (k floordiv 32, n)``, ``d0 + d1``, constants,
  ``mod``, ``ceildiv``) is evaluated over numpy open index grids and gathered with one
  fancy-indexing call. Arrays keep size-1 axes for loop dims they do not depend on, so
  ``(n, k) -> (k)`` costs K elements, not N*K.
* **Parallel-only ops**: the body runs once with whole arrays as block arguments; each
  ``arith`` op is one numpy call (see :mod:`interpreter.ssa.upstream.arith`).
* **Reductions, recognised idiom**: when every yielded value is ``OP(acc, t)`` with ``acc``
  the output's block argument used only there and ``OP`` in :data:`REDUCTION_IDIOMS`
  (``addf``, ``mulf``, ``addi``, ``muli``, ``andi``, ``ori``, ``xori``, ``maxsi``,
  ``minsi``), the body runs once per reduction chunk with ``acc`` bound to ``OP``'s
  identity (``-0.0`` for ``addf``: ``-0.0 + t == t`` exactly, signed zeros and NaN
  included), which yields every term ``t`` at once; the terms are then folded into the
  init **sequentially in iteration order** with ``ufunc.accumulate`` in the output's
  dtype. That is the upstream loop semantics (one rounding per step, no reassociation).
  Chunks bound the memory to about :data:`CHUNK_ELEMENTS` elements per operand.
* **Reductions, anything else**: the body runs once per point of the reduction
  sub-space (lexicographic order), vectorised over all parallel dims.

Outputs are fresh arrays (tensor semantics); memref operands are not supported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import ShapedType, TensorType
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
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
from xdsl.ir import BlockArgument, Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.utils.exceptions import InterpretationError

from pto_dialect.upstream import (
    WINDOW_OP_CLASSES,
    BatchMatmulOp,
    GenericOp,
    MatmulOp,
    MatvecOp,
    QuantizedMatmulOp,
    VecmatOp,
)

from .arith import finish
from .dtypes import dtype_for

__all__ = [
    "CHUNK_ELEMENTS",
    "REDUCTION_IDIOMS",
    "LinalgFunctions",
    "eval_affine_expr",
    "run_structured",
]

CHUNK_ELEMENTS = 1 << 22
"""Target number of elements of one evaluated body value in the reduction fast path."""

# op -> (numpy ufunc folding sequentially, identity as a function of the dtype)
REDUCTION_IDIOMS: dict[type[Operation], tuple[np.ufunc, Callable[[np.dtype[Any]], Any]]] = {
    arith.AddfOp: (np.add, lambda dt: np.array(-0.0).astype(dt)[()]),
    arith.MulfOp: (np.multiply, lambda dt: np.array(1.0).astype(dt)[()]),
    arith.AddiOp: (np.add, lambda dt: dt.type(0)),
    arith.MuliOp: (np.multiply, lambda dt: dt.type(1)),
    arith.AndIOp: (np.bitwise_and, lambda dt: dt.type(-1) if dt != np.bool_ else np.True_),
    arith.OrIOp: (np.bitwise_or, lambda dt: dt.type(0)),
    arith.XOrIOp: (np.bitwise_xor, lambda dt: dt.type(0)),
    arith.MaxSIOp: (np.maximum, lambda dt: np.iinfo(dt).min),
    arith.MinSIOp: (np.minimum, lambda dt: np.iinfo(dt).max),
}
# i1 add/mul are xor/and modulo 2: numpy's bool add/multiply are or/and, so i1 add/mul
# (and i1 max/min, whose signed order is true < false) take the general path.
_BOOL_UNSAFE = {arith.AddfOp, arith.AddiOp, arith.MuliOp, arith.MaxSIOp, arith.MinSIOp}


# -- affine maps over numpy index grids ----------------------------------------------


def eval_affine_expr(expr: AffineExpr, dims: Sequence[Any]) -> Any:
    """Evaluate ``expr`` with ``dims[d]`` (ints or integer arrays) for each ``d<d>``.

    Affine ``mod`` and ``floordiv`` round towards -inf, ``ceildiv`` towards +inf.
    """
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = eval_affine_expr(expr.lhs, dims)
        rhs = eval_affine_expr(expr.rhs, dims)
        match expr.kind:
            case AffineBinaryOpKind.Add:
                return lhs + rhs
            case AffineBinaryOpKind.Mul:
                return lhs * rhs
            case AffineBinaryOpKind.Mod:
                return np.mod(lhs, rhs)
            case AffineBinaryOpKind.FloorDiv:
                return np.floor_divide(lhs, rhs)
            case AffineBinaryOpKind.CeilDiv:
                return -np.floor_divide(-lhs, rhs)
    raise InterpretationError(f"affine expression {expr} (symbols) is not supported")


class _Space:
    """A box of the iteration space: ``vector`` dims vary (in that order), others fixed."""

    def __init__(
        self, vector: Sequence[int], ranges: dict[int, tuple[int, int]], fixed: dict[int, int]
    ):
        self.vector = list(vector)
        self.ranges = ranges
        self.fixed = fixed
        self.shape = tuple(ranges[d][1] - ranges[d][0] for d in self.vector)

    def grids(self, num_dims: int) -> list[Any]:
        rank = len(self.vector)
        grids: list[Any] = []
        for d in range(num_dims):
            if d in self.fixed:
                grids.append(self.fixed[d])
                continue
            lo, hi = self.ranges[d]
            shape = [1] * rank
            shape[self.vector.index(d)] = hi - lo
            grids.append(np.arange(lo, hi, dtype=np.int64).reshape(shape))
        return grids


def _is_projected_permutation(amap: AffineMap) -> bool:
    positions = [e.position for e in amap.results if isinstance(e, AffineDimExpr)]
    return len(positions) == len(amap.results) and len(set(positions)) == len(positions)


def _gather(value: Any, amap: AffineMap, space: _Space) -> Any:
    """The operand's elements over ``space``, broadcastable to ``space.shape``."""
    if not amap.results:
        return value[()] if isinstance(value, np.ndarray) else value
    arr = np.asarray(value)
    if _is_projected_permutation(amap):
        index: list[Any] = []
        kept: list[int] = []
        for e in amap.results:
            assert isinstance(e, AffineDimExpr)
            if e.position in space.fixed:
                index.append(space.fixed[e.position])
            else:
                index.append(slice(*space.ranges[e.position]))
                kept.append(e.position)
        sub = arr[tuple(index)]
        order = sorted(range(len(kept)), key=lambda i: space.vector.index(kept[i]))
        sub = sub.transpose(order)
        shape = [space.shape[i] if d in kept else 1 for i, d in enumerate(space.vector)]
        return sub.reshape(shape)
    grids = space.grids(amap.num_dims)
    idx = []
    for j, e in enumerate(amap.results):
        ix = np.asarray(eval_affine_expr(e, grids), dtype=np.int64)
        if ix.size and (ix.min() < 0 or ix.max() >= arr.shape[j]):
            raise InterpretationError(
                f"indexing map {amap} reaches index {int(ix.min())}..{int(ix.max())} of "
                f"dimension {j} of size {arr.shape[j]}"
            )
        idx.append(ix)
    return arr[tuple(idx)]


def _loop_ranges(
    op: Operation, maps: Sequence[AffineMap], shapes: Sequence[tuple[int, ...]], num_loops: int
) -> list[int]:
    ranges: list[int | None] = [None] * num_loops
    for amap, shape in zip(maps, shapes, strict=True):
        if len(amap.results) != len(shape):
            raise InterpretationError(
                f"{op.name}: operand of rank {len(shape)} with indexing map {amap}"
            )
        for e, size in zip(amap.results, shape, strict=True):
            if isinstance(e, AffineDimExpr):
                known = ranges[e.position]
                if known is None:
                    ranges[e.position] = size
                elif known != size:
                    raise InterpretationError(
                        f"{op.name}: loop d{e.position} has inconsistent sizes {known} and {size}"
                    )
    if any(r is None for r in ranges):
        raise InterpretationError(f"{op.name}: cannot infer every loop range from the maps")
    return [int(r) for r in ranges if r is not None]


# -- the engine ---------------------------------------------------------------------

_INDEX_KEY = "index_grids"


def _run_body(
    interpreter: Interpreter, op: LinalgStructuredOperation, args: Sequence[Any], space: _Space
) -> tuple[Any, ...]:
    stack: list[list[Any]] = interpreter.get_data(LinalgFunctions, _INDEX_KEY, list)
    stack.append([(g, space.shape) for g in space.grids(len(space.ranges) + len(space.fixed))])
    try:
        return tuple(interpreter.run_ssacfg_region(op.body, tuple(args), op.name))
    finally:
        stack.pop()


def _reduction_idiom(op: LinalgStructuredOperation, out_dtypes: Sequence[np.dtype[Any]]):
    """Per output: (ufunc, identity) if it is the ``OP(acc, t)`` idiom, else None."""
    block = op.body.block
    yield_op = block.last_op
    if yield_op is None:
        return None
    n_in = len(op.inputs)
    idioms = []
    for i, (value, dtype) in enumerate(zip(yield_op.operands, out_dtypes, strict=True)):
        acc = block.args[n_in + i]
        owner = value.owner
        if isinstance(owner, BlockArgument) or not isinstance(owner, Operation):
            return None
        entry = REDUCTION_IDIOMS.get(type(owner))
        if entry is None or (dtype == np.bool_ and type(owner) in _BOOL_UNSAFE):
            return None
        if acc not in owner.operands or len(list(acc.uses)) != 1:
            return None
        if len(list(value.uses)) != 1:
            return None
        ufunc, identity = entry
        idioms.append((ufunc, identity(dtype)))
    return idioms


def run_structured(
    interpreter: Interpreter, op: LinalgStructuredOperation, args: PythonValues
) -> PythonValues:
    """Execute a linalg structured op on tensors (see the module docstring)."""
    if not all(isinstance(r.type, TensorType) for r in op.results) or any(
        isinstance(v.type, ShapedType) and not isinstance(v.type, TensorType) for v in op.operands
    ):
        raise InterpretationError(f"{op.name}: only tensor operands are supported")
    n_in = len(op.inputs)
    maps = [m.data for m in op.get_indexing_maps().data]
    iterators = [it.data for it in op.get_iterator_types().data]
    num_loops = len(iterators)
    shapes = [
        np.shape(v) if isinstance(o.type, ShapedType) else ()
        for v, o in zip(args, op.operands, strict=True)
    ]
    sizes = _loop_ranges(op, maps, shapes, num_loops)
    out_dtypes = [dtype_for(r.type) for r in op.results]
    outs = [np.array(v, dtype=dt, copy=True) for v, dt in zip(args[n_in:], out_dtypes, strict=True)]
    out_maps = maps[n_in:]
    if 0 in sizes:
        return tuple(outs)

    parallel = [d for d, it in enumerate(iterators) if it == IteratorType.PARALLEL]
    reduction = [d for d, it in enumerate(iterators) if it == IteratorType.REDUCTION]
    full = {d: (0, sizes[d]) for d in range(num_loops)}

    if not reduction:
        space = _Space(range(num_loops), full, {})
        gathered = [_gather(v, m, space) for v, m in zip(args, maps, strict=True)]
        values = _run_body(interpreter, op, gathered, space)
        return tuple(
            _scatter(out, m, np.broadcast_to(finish(v, out.dtype), space.shape), space)
            for out, m, v in zip(outs, out_maps, values, strict=True)
        )

    # Outputs indexed with a constant 0 on a unit dimension (a keep-dims reduction,
    # ``(d0, d1) -> (d0, 0)``): reduce into the view without those dimensions.
    shapes_back = [o.shape for o in outs]
    out_maps, outs = zip(*(_drop_unit_constants(m, o) for m, o in zip(out_maps, outs, strict=True)))
    out_maps, outs = list(out_maps), list(outs)
    for m in out_maps:
        if not _is_projected_permutation(m) or any(
            isinstance(e, AffineDimExpr) and e.position in reduction for e in m.results
        ):
            raise InterpretationError(
                f"{op.name}: output indexing map {m} must be a projected permutation of "
                "parallel loops"
            )
    par_ranges = {d: full[d] for d in parallel}
    par_space = _Space(parallel, par_ranges, {})
    accs = [
        np.array(np.broadcast_to(_gather(o, m, par_space), par_space.shape), copy=True)
        for o, m in zip(outs, out_maps, strict=True)
    ]

    idioms = _reduction_idiom(op, out_dtypes)
    if idioms is not None:
        accs = _fold_idiom(interpreter, op, args, maps, sizes, parallel, reduction, accs, idioms)
    else:
        red_shape = tuple(sizes[d] for d in reduction)
        for point in np.ndindex(*red_shape):
            space = _Space(parallel, par_ranges, dict(zip(reduction, point, strict=True)))
            gathered = [_gather(v, m, space) for v, m in zip(args[:n_in], maps[:n_in], strict=True)]
            values = _run_body(interpreter, op, [*gathered, *accs], space)
            accs = [
                np.array(np.broadcast_to(finish(v, dt), space.shape), copy=True)
                for v, dt in zip(values, out_dtypes, strict=True)
            ]
    return tuple(
        _scatter(out, m, acc, par_space).reshape(shape)
        for out, m, acc, shape in zip(outs, out_maps, accs, shapes_back, strict=True)
    )


def _drop_unit_constants(amap: AffineMap, out: np.ndarray) -> tuple[AffineMap, np.ndarray]:
    """``amap`` without its constant-0 results on size-1 dimensions, and ``out`` viewed
    without those dimensions; unchanged when there are none (or other constants)."""
    keep = [
        i for i, e in enumerate(amap.results)
        if not (isinstance(e, AffineConstantExpr) and e.value == 0 and out.shape[i] == 1)
    ]
    if len(keep) == len(amap.results):
        return amap, out
    new_map = AffineMap(amap.num_dims, amap.num_symbols, tuple(amap.results[i] for i in keep))
    return new_map, out.reshape(tuple(out.shape[i] for i in keep))


def _fold_idiom(
    interpreter: Interpreter,
    op: LinalgStructuredOperation,
    args: PythonValues,
    maps: Sequence[AffineMap],
    sizes: Sequence[int],
    parallel: list[int],
    reduction: list[int],
    accs: list[np.ndarray],
    idioms: list[tuple[np.ufunc, Any]],
) -> list[np.ndarray]:
    """Evaluate all terms of a chunk at once, then fold them into ``accs`` in order."""
    n_in = len(op.inputs)
    outer, inner = reduction[0], reduction[1:]
    par_count = int(np.prod([sizes[d] for d in parallel], dtype=np.int64))
    inner_count = int(np.prod([sizes[d] for d in inner], dtype=np.int64))
    step = max(1, CHUNK_ELEMENTS // max(1, par_count * inner_count))
    vector = [*parallel, *reduction]
    for lo in range(0, sizes[outer], step):
        hi = min(sizes[outer], lo + step)
        ranges = {d: (0, sizes[d]) for d in vector}
        ranges[outer] = (lo, hi)
        space = _Space(vector, ranges, {})
        gathered = [_gather(v, m, space) for v, m in zip(args[:n_in], maps[:n_in], strict=True)]
        identities = [identity for _, identity in idioms]
        values = _run_body(interpreter, op, [*gathered, *identities], space)
        new_accs = []
        for acc, value, (ufunc, _) in zip(accs, values, idioms, strict=True):
            terms = np.broadcast_to(finish(value, acc.dtype), space.shape)
            flat = np.array(
                terms.reshape((*acc.shape, -1)).transpose(len(acc.shape), *range(len(acc.shape))),
                copy=True,
            )
            with np.errstate(over="ignore"):
                flat[0] = ufunc(acc, flat[0])
                # dtype: numpy would widen i8..i32 add/mul to int64, whose sum then no longer
                # wraps at the element width as MLIR's addi/muli do (and cannot be stored back).
                new_accs.append(ufunc.accumulate(flat, axis=0, dtype=flat.dtype)[-1]
                                if len(flat) > 1 else flat[0])  # fmt: skip
        accs = new_accs
    return accs


def _scatter(out: np.ndarray, amap: AffineMap, values: np.ndarray, space: _Space) -> np.ndarray:
    """Write ``values`` (over ``space``) into ``out`` through ``amap`` (last write wins)."""
    if not amap.results:
        out[()] = values.reshape(-1)[-1] if values.size else out[()]
        return out
    if _is_projected_permutation(amap):
        positions = [e.position for e in amap.results if isinstance(e, AffineDimExpr)]
        # loops the output does not depend on: the last iteration's value is the result
        take = tuple(slice(None) if d in positions else -1 for d in space.vector)
        kept = [d for d in space.vector if d in positions]
        sub = values[take]
        sub = sub.transpose([kept.index(p) for p in positions])
        out[...] = sub
        return out
    grids = space.grids(amap.num_dims)
    idx = tuple(
        np.broadcast_to(np.asarray(eval_affine_expr(e, grids), dtype=np.int64), space.shape)
        for e in amap.results
    )
    out[idx] = values
    return out


@register_impls
class LinalgFunctions(InterpreterFunctions):
    """numpy implementations of linalg structured ops on tensors, ``yield`` and ``index``."""

    @impl_terminator(xlinalg.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: xlinalg.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(xlinalg.IndexOp)
    def run_index(self, interpreter: Interpreter, op: xlinalg.IndexOp, args: PythonValues):
        stack: list[list[Any]] = interpreter.get_data(LinalgFunctions, _INDEX_KEY, list)
        if not stack:
            raise InterpretationError("linalg.index outside a structured op body")
        grid, _ = stack[-1][op.dim.value.data]
        return (finish(grid, np.dtype(np.int64)),)

    @impl(xlinalg.BroadcastOp)
    def run_broadcast(self, interpreter: Interpreter, op: xlinalg.BroadcastOp, args: PythonValues):
        """``linalg.broadcast``: the input with the ``dimensions`` of the init added."""
        src, init = np.asarray(args[0]), np.asarray(args[1])
        dims = sorted(int(d) for d in op.dimensions.get_values())
        kept = [s for i, s in enumerate(init.shape) if i not in dims]
        if list(src.shape) != kept:
            raise InterpretationError(
                f"{op.name}: input shape {src.shape} is not the init shape {init.shape} "
                f"without dimensions {dims}"
            )
        view = np.expand_dims(src, tuple(dims)) if dims else src
        out = np.array(np.broadcast_to(view, init.shape), dtype=init.dtype, copy=True)
        return (out,) if op.results else ()

    def _structured(
        self, interpreter: Interpreter, op: LinalgStructuredOperation, args: PythonValues
    ) -> PythonValues:
        return run_structured(interpreter, op, args)


_STRUCTURED_OPS: tuple[type[Operation], ...] = (
    xlinalg.GenericOp,
    GenericOp,
    xlinalg.FillOp,
    MatmulOp,
    VecmatOp,
    MatvecOp,
    BatchMatmulOp,
    xlinalg.AddOp,
    xlinalg.SubOp,
    xlinalg.MulOp,
    xlinalg.MaxOp,
    xlinalg.MinOp,
    xlinalg.CopyOp,
    xlinalg.TransposeOp,
    QuantizedMatmulOp,
    *WINDOW_OP_CLASSES,
)
for _op_type in _STRUCTURED_OPS:
    setattr(  # module in the name: our GenericOp and xDSL's share a class name
        LinalgFunctions,
        f"run_{_op_type.__module__.replace('.', '_')}_{_op_type.__name__}",
        impl(_op_type)(LinalgFunctions._structured),
    )
register_impls(LinalgFunctions)
