"""Batched execution of an independent tile-pipeline loop: one kernel call per body op.

A loop qualifies (statically) when it is independent (:mod:`.loops`) and its body holds only
TLOAD / TSTORE, binary elementwise and CUBE ops (tile level, or the linked ``pto.block`` form
of each) plus the scalar ops of its offsets. At run time, when every TLOAD and TSTORE of the
body covers, over all iterations i and PEs q in that order, one contiguous slice of its
tensor along a single axis (the piece (i, q) at base + (i * P + q) * extent), every tile value
of the body is held *batched*: the concatenation of its valid rectangles along that axis.
Each op then runs once on the batched values:

* TLOAD is the slice (a TLOAD at the same offsets in every iteration is the one ordinary
  tile every iteration loads); TSTORE writes the slice (after every op succeeded);
* a binary elementwise op runs its kernel on the batched operands (elementwise: each element
  sees exactly its own operands, as in the per-tile calls);
* a CUBE op runs its kernel once with its column operands (B, B scale, bias, C) batched
  along columns and its row operands (A, A scale, scalars) loop-invariant and equal on every
  PE -- the same column independence the per-op PE batching of
  :func:`interpreter.pto_functions.cube_plan` uses; K chains stay separate calls, in order,
  so the result is the per-tile result for every numeric profile. No row reductions.

Anything else -- an offset pattern that is not one contiguous slice, a slice outside its
tensor, an operand that is neither, any exception (a fault) -- abandons the batched attempt
before any effect; the loop then runs per iteration and meets the same fault at the same
op (D12). The differential tests compare both engines bitwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir import Operation, SSAValue

from interpreter import kernels
from interpreter.kernels.status import staged
from interpreter.pto_functions import _COLUMN_ROLES, Owned, owned_copy, tload_plan
from interpreter.runtime import pe_indices, require_source, storage_dtype
from pto_dialect.attributes import TargetProfile, TileType
from pto_dialect.bundle import BlockOp, check_linked, scalar_roles, source_roles
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.ops import BinaryTileOp, CubeMatrixOp, target_profile

__all__ = ["BatchPlan", "batch_plan"]


class _Abandon(Exception):
    """The batched form does not apply to this execution: run per iteration."""


@dataclass
class _Step:
    kind: str  # "load" | "store" | "binary" | "cube"
    op: Operation  # the tile-level op
    args: list[SSAValue]  # operands in the tile op's order
    result: SSAValue | None
    mover: int = -1  # index into the offsets tuple (loads and stores)
    store: int = -1  # index of the iter_arg (stores)


def _tile_op(op: Operation) -> tuple[Operation, list[SSAValue]] | None:
    """The tile-level op of ``op`` and its operands in that op's order."""
    if isinstance(op, TLoadOp | TStoreOp | BinaryTileOp | CubeMatrixOp):
        return op, list(op.operands)
    if not isinstance(op, BlockOp):
        return None
    try:
        s = op.summary()
        if s.noop or not op.linked:
            return None
        tile_op = check_linked(op, s)
    except Exception:  # noqa: BLE001 - a faulting block: not batched
        return None
    args = list(op.operands)
    if isinstance(tile_op, CubeMatrixOp):
        in_types = [v.type for v in op.ins if isinstance(v.type, TileType)]
        roles = [*source_roles(s, in_types), *scalar_roles(s)]
        args = [args[roles.index(r)] for r in tile_op.operand_by_role()]
    return tile_op, args


@dataclass
class BatchPlan:
    steps: list[_Step]
    profile: str
    movers: int


def batch_plan(body_ops: list[Operation], mover_ops: list[Operation], store_ops: list[Operation],
               scalar_ops: set[int], profile: str) -> BatchPlan | None:
    """The batched form of a loop body, or None when some op has none."""
    steps: list[_Step] = []
    for op in body_ops:
        if id(op) in scalar_ops:
            continue
        found = _tile_op(op)
        if found is None:
            return None
        tile_op, args = found
        result = op.results[0] if op.results else None
        if isinstance(tile_op, TLoadOp):
            steps.append(_Step("load", tile_op, args, result, mover_ops.index(op)))
        elif isinstance(tile_op, TStoreOp):
            if op not in store_ops:
                return None
            steps.append(_Step("store", tile_op, args, result, mover_ops.index(op),
                               store_ops.index(op)))
        elif isinstance(tile_op, BinaryTileOp):
            rt = tile_op.result.type
            masks = {tile_op.mask.data, rt.pe_mask, tile_op.lhs.type.pe_mask,  # type: ignore[union-attr]
                     tile_op.rhs.type.pe_mask}  # type: ignore[union-attr]
            if tile_op.mask.is_zero or len(masks) != 1:
                return None
            steps.append(_Step("binary", tile_op, args, result))
        elif isinstance(tile_op, CubeMatrixOp):
            f = tile_op.fpatr_fields
            if (profile == "raw-carrier"  # raw int64 words: the per-op path stores them
                    or len(tile_op.results) != 1 or f.row_max_en or f.group_max_en
                    or tile_op.mask.is_zero
                    or any(isinstance(v.type, TileType) and v.type.pe_mask != tile_op.mask.data
                           for v in (*tile_op.operands, *tile_op.results))
                    or (tile_op.is_mx() and target_profile(tile_op) is TargetProfile.A2A3)):
                return None
            steps.append(_Step("cube", tile_op, args, result))
        else:  # a decoded block of another family (TCVT, reductions, ...): the per-op path
            return None
    return BatchPlan(steps, profile, len(mover_ops))


@dataclass
class _Batched:
    axis: int
    array: np.ndarray  # the valid rectangles of every (iteration, PE), concatenated
    pieces: int  # iterations x PEs
    fresh: bool = False  # a kernel's own output (not a view of any other value)


def _union(op: TLoadOp | TStoreOp, offsets: list[tuple[Any, Any]], shape) -> tuple[int, tuple[slice, slice], int]:
    """(axis, the contiguous slice, pieces) covered by a load/store over all iterations."""
    tt = op.result.type if isinstance(op, TLoadOp) else op.tile.type
    assert isinstance(tt, TileType)
    vr, vc = tt.valid_shape
    s0, s1 = op.pe_stride.get_values()
    npe = len(pe_indices(tt.pe_mask))
    # the origin of piece (iteration i, PE q), in that order, as int64 arrays
    at = np.array(offsets, np.int64).reshape(-1, 2)
    q = np.arange(npe, dtype=np.int64)
    rows = (at[:, :1] + q * s0).reshape(-1)
    cols = (at[:, 1:] + q * s1).reshape(-1)
    r0, c0 = int(rows[0]), int(cols[0])
    n = rows.size
    step = np.arange(n, dtype=np.int64)
    if (rows == r0).all() and (cols == c0 + step * vc).all():
        axis, sl = 1, (slice(r0, r0 + vr), slice(c0, c0 + n * vc))
    elif (cols == c0).all() and (rows == r0 + step * vr).all():
        axis, sl = 0, (slice(r0, r0 + n * vr), slice(c0, c0 + vc))
    else:
        raise _Abandon
    if len(shape) != 2 or r0 < 0 or c0 < 0 or sl[0].stop > shape[0] or sl[1].stop > shape[1]:
        raise _Abandon  # a fault: the per-iteration run reports it at its op
    return axis, sl, n


def run_batched(plan: BatchPlan, env: dict[int, Any], offs: list[tuple], inits) -> tuple[Any, ...]:
    """Execute the batched body; ``env`` maps loop-invariant SSA values (by id) to values.
    Raises :class:`_Abandon` (or any fault) before any effect when not applicable."""
    vals: dict[int, Any] = {}

    def get(v: SSAValue) -> Any:
        key = id(v)
        if key in vals:
            return vals[key]
        if key in env:
            return env[key]
        raise _Abandon  # a value of the body that is not batched (e.g. the iv)

    writes = []
    for st in plan.steps:
        op = st.op
        if st.kind == "load":
            assert isinstance(op, TLoadOp)
            src = np.asarray(get(st.args[0]))
            at = [o[st.mover] for o in offs]
            if all(o == at[0] for o in at[1:]):  # loop-invariant: one tile, as every iteration
                vals[id(st.result)] = tload_plan(op)(src, *at[0])[0]
                continue
            axis, sl, n = _union(op, at, src.shape)
            tt = op.result.type
            dtype = storage_dtype(tt.dtype)  # type: ignore[union-attr]
            part = src[sl]
            arr = part.view(dtype) if part.dtype.itemsize == dtype.itemsize else part.astype(dtype)
            vals[id(st.result)] = _Batched(axis, arr, n)
        elif st.kind == "store":
            assert isinstance(op, TStoreOp)
            tile = get(st.args[0])
            if not isinstance(tile, _Batched):
                raise _Abandon
            dst = inits[st.store]
            axis, sl, n = _union(op, [o[st.mover] for o in offs], np.shape(dst))
            if axis != tile.axis or n != tile.pieces:
                raise _Abandon
            writes.append((st.store, sl, tile))
            vals[id(st.result)] = None
        elif st.kind == "binary":
            assert isinstance(op, BinaryTileOp)
            lhs, rhs = get(st.args[0]), get(st.args[1])
            if not (isinstance(lhs, _Batched) and isinstance(rhs, _Batched)) or (
                lhs.axis != rhs.axis or lhs.array.shape != rhs.array.shape
            ):
                raise _Abandon
            rt = op.result.type
            row = kernels.BINARY_ROWS[op.MNEMONIC]
            # valid=None: the whole batched rectangle, so no padding and all defined (D9).
            payload, _ = kernels.binary_tile(row, lhs.array, rhs.array, None,
                                             op.pad.data.value, rt.dtype)  # type: ignore[union-attr]
            vals[id(st.result)] = _Batched(lhs.axis, payload, lhs.pieces, fresh=True)
        else:
            vals[id(st.result)] = _cube(op, st.args, get, plan.profile)  # type: ignore[arg-type]
    buffers: list[Any] = []
    for k, x in enumerate(inits):  # every op succeeded: publish
        (sl, tile), = [(sl, t) for j, sl, t in writes if j == k]
        arr = tile.array
        x = np.asarray(x)
        if arr.dtype.itemsize == x.dtype.itemsize:
            arr = arr.view(x.dtype)
        if tile.fresh and arr.shape == x.shape and arr.dtype == x.dtype:
            buffers.append(arr)  # the stores cover the tensor: the kernel output is the result
            continue
        out = x if type(x) is Owned and x.flags.owndata else owned_copy(x)
        out[sl] = arr
        buffers.append(out)
    return tuple(buffers)


def _cube(op: CubeMatrixOp, args: list[SSAValue], get, profile: str) -> _Batched:
    tiles: dict[str, np.ndarray] = {}
    scalars: dict[str, int] = {}
    pieces = None
    roles = op.operand_by_role()
    pes = pe_indices(op.mask.data)
    for (role, v), arg in zip(roles.items(), args):
        value = get(arg)
        if not isinstance(v.type, TileType):
            if isinstance(value, _Batched):
                raise _Abandon
            scalars[role] = int(value)
        elif isinstance(value, _Batched):
            if role not in _COLUMN_ROLES or value.axis != 1:
                raise _Abandon
            if pieces not in (None, value.pieces):
                raise _Abandon
            pieces = value.pieces
            tiles[role] = value.array
        else:
            if role in _COLUMN_ROLES:
                raise _Abandon  # a loop-invariant column operand: not batched
            tile = require_source(op.name, role, value, v.type)  # type: ignore[arg-type]
            first = tile.valid(pes[0])
            for p in pes[1:]:
                other = tile.valid(p)
                if other is not first and (other.shape != first.shape or other.tobytes() != first.tobytes()):
                    raise _Abandon
            tiles[role] = first
    if pieces is None or "b" not in tiles:
        raise _Abandon
    types = {r: v.type for r, v in roles.items()}
    c_t = types.get("c")
    rt = op.results[0].type
    assert isinstance(rt, TileType)
    with staged():  # an abandoned batch records nothing: the per-PE path records instead
        res = kernels.cube_matrix(
            op.FUNCTION, tiles["a"], tiles["b"], c=tiles.get("c"), bias=tiles.get("bias"),
            a_scale=tiles.get("a_scale"), b_scale=tiles.get("b_scale"),
            a_type=types["a"].dtype, b_type=types["b"].dtype,  # type: ignore[union-attr]
            c_type=c_t.dtype if isinstance(c_t, TileType) else None,
            fpatr=op.fpatr_fields, rmode=op.rmode.data.value, sat=op.sat is not None,
            quant=tiles.get("quant"), prelu=tiles.get("prelu"),
            quant_scalar=scalars.get("quant_scalar"),
            lrelu_scalar=scalars.get("lrelu_scalar"), profile=profile,
        )
        if isinstance(res, tuple):
            raise _Abandon
        d = np.asarray(res).astype(storage_dtype(rt.dtype), copy=False)
        if d.shape[0] != rt.valid_shape[0]:
            raise _Abandon
    return _Batched(1, d, pieces, fresh=True)
