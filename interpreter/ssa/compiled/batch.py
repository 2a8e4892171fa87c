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
  :func:`interpreter.ssa.pto_functions.cube_plan` uses. No row reductions;
* a chain of ACC CUBE ops, each continuing the previous one's C (read by nothing else), runs
  lazily (:class:`_Chain`): under the ``ordered`` profile as one kernel call over the
  concatenated K ranges when they are neighbouring slices of the same B and B scale (ADR-0047:
  C, then every term in K order, is one FMA chain, so the bits are the per-op bits), else
  (and under ``exact``, which rounds once per op) op by op, in order.

Anything else -- an offset pattern that is not one contiguous slice, a slice outside its
tensor, an operand that is neither, any exception (a fault) -- abandons the batched attempt
before any effect; the loop then runs per iteration and meets the same fault at the same
op (D12). The differential tests compare both engines bitwise.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue

from interpreter import kernels
from interpreter.kernels.profiles import NumericProfile, numeric_profile
from interpreter.kernels.status import staged
from interpreter.kernels.storage import pe_indices, storage_dtype
from interpreter.ssa.pto_functions import COLUMN_ROLES, Owned, owned_copy
from interpreter.ssa.runtime import require_source
from pto_dialect.attributes import RoundingMode, TargetProfile, TileType
from pto_dialect.block_ops import (
    DERIVED_KEYS,
    BlockOp,
    check_linked,
    decoded,
    dim_registers,
    keep_linked_only,
    scalar_roles,
    source_roles,
)
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.ops import BinaryTileOp, CubeMatrixOp, target_profile

__all__ = ["BatchPlan", "batch_plan"]


class _Abandon(Exception):
    """The batched form does not apply to this execution: run per iteration."""


@dataclass
class _Cube:
    """The static facts of a batched CUBE op, resolved once when the loop is planned (the
    run asks them several times per op)."""

    roles: list[tuple[str, Attribute]]  # (role, operand type) in the op's operand order
    c_index: int | None  # the position of C among them
    c_one_use: bool  # C is read by this op only
    result_one_use: bool
    plain: bool  # no post-processing (:func:`_plain`)
    dtypes: list  # of every operand and result (chain links must agree)
    pes: list[int]

    @staticmethod
    def of(op: CubeMatrixOp, args: list[SSAValue], result: SSAValue) -> _Cube:
        by_role = op.operand_by_role()
        roles = [(r, v.type) for r, v in by_role.items()]
        names = [r for r, _ in roles]
        c_index = names.index("c") if "c" in names else None
        return _Cube(
            roles, c_index, c_index is not None and args[c_index].has_one_use(),
            result.has_one_use(), _plain(op),
            [getattr(v.type, "dtype", None) for v in (*op.operands, *op.results)],
            pe_indices(op.mask.data),
        )


@dataclass(frozen=True)
class _Facts:
    """What the batched run reads of a tile-level op, as plain data (a batch plan holds no IR:
    it is kept in the plan cache apart from the module, :mod:`.plan`)."""

    name: str  # the op name (messages)
    mnemonic: str
    function: int | None  # CUBE ops: the function code
    result_type: Attribute | None  # the result's tile type (binary and CUBE ops)
    pad: Any = None  # binary ops: the pad value
    fpatr: Any = None  # CUBE ops: Fpatr fields, rounding mode value, saturation
    rmode: Any = None
    sat: bool = False

    @staticmethod
    def of(op: Operation) -> _Facts:
        rt = op.results[0].type if isinstance(op, BinaryTileOp | CubeMatrixOp) else None
        if isinstance(op, CubeMatrixOp):
            return _Facts(op.name, op.MNEMONIC, op.FUNCTION, rt, fpatr=op.fpatr_fields,
                          rmode=op.rmode.data.value, sat=op.sat is not None)
        pad = op.pad.data.value if isinstance(op, BinaryTileOp) else None
        return _Facts(op.name, getattr(op, "MNEMONIC", op.name), None, rt, pad=pad)


@dataclass
class _Step:
    kind: str  # "load" | "store" | "binary" | "cube"
    op: _Facts  # of the tile-level op
    args: list[int]  # the numbers of its operands (in the tile op's order)
    result: int | None  # the number of its result
    mover: int = -1  # index into the offsets tuple (loads and stores)
    store: int = -1  # index of the iter_arg (stores)
    geometry: tuple[int, int, int, int, int] | None = None  # loads, stores: see _geometry
    cube: _Cube | None = None
    tile: tuple | None = None  # loads: (tile type, PEs, storage dtype, padding)


_TILE_OPERANDS = "_pto_tile_operands"
"""``block.__dict__`` key: ``(summary, operands, result)`` of :func:`tile_op_operands` (not
pickled with the block)."""
DERIVED_KEYS.add(_TILE_OPERANDS)


def tile_op_operands(op: Operation) -> tuple[Operation, list[SSAValue]] | None:
    """The tile-level op of ``op`` and its operands in that op's order (for a block:
    remembered while its decoding and operands are unchanged; planning asks several times)."""
    if isinstance(op, TLoadOp | TStoreOp | BinaryTileOp | CubeMatrixOp):
        return op, list(op.operands)
    if not isinstance(op, BlockOp):
        return None
    operands = tuple(op.operands)
    memo = decoded(op)
    hit = op.__dict__.get(_TILE_OPERANDS)
    if hit is not None and memo is not None and hit[0] is memo[1] and hit[1] == operands:
        return None if hit[2] is None else (hit[2][0], list(hit[2][1]))
    found = _block_tile_op_operands(op)
    if memo is not None and memo[1] is not None:
        op.__dict__[_TILE_OPERANDS] = (memo[1], operands, found)
    return None if found is None else (found[0], list(found[1]))


def _block_tile_op_operands(op: BlockOp) -> tuple[Operation, list[SSAValue]] | None:
    try:
        s = op.summary()
        if s.noop or not op.linked or dim_registers(s):
            return None  # (run-time B.DIM values: the per-op path checks them)
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
    geometry: tuple[tuple[int, int, int, int, int], ...]  # of every mover (:func:`_geometry`)


def batch_plan(body_ops: list[Operation], mover_ops: list[Operation], store_ops: list[Operation],
               scalar_ops: set[int], profile: str, num: Callable[[SSAValue], int]) -> BatchPlan | None:
    """The batched form of a loop body, or None when some op has none. ``num`` numbers the
    SSA values (the plan's value names): the batch plan refers to values by number only."""
    steps: list[_Step] = []
    for op in body_ops:
        if id(op) in scalar_ops:
            continue
        found = tile_op_operands(op)
        if found is None:
            return None
        tile_op, args = found
        if isinstance(tile_op, TLoadOp | TStoreOp) and (tile_op.packed or tile_op.row_step != 1):
            return None  # packed 4-bit GM bytes or a row stride: the per-op path
        result = op.results[0] if op.results else None
        nums = [num(v) for v in args]
        res = num(result) if result is not None else None
        if isinstance(tile_op, TLoadOp):
            tt = tile_op.result.type
            assert isinstance(tt, TileType)
            steps.append(_Step("load", _Facts.of(tile_op), nums, res, mover_ops.index(op),
                               geometry=_geometry(tile_op),
                               tile=(tt, pe_indices(tt.pe_mask), storage_dtype(tt.dtype),
                                     tile_op.pad.data.value)))
        elif isinstance(tile_op, TStoreOp):
            if op not in store_ops:
                return None
            steps.append(_Step("store", _Facts.of(tile_op), nums, res, mover_ops.index(op),
                               store_ops.index(op), geometry=_geometry(tile_op)))
        elif isinstance(tile_op, BinaryTileOp):
            rt = tile_op.result.type
            masks = {tile_op.mask.data, rt.pe_mask, tile_op.lhs.type.pe_mask,  # type: ignore[union-attr]
                     tile_op.rhs.type.pe_mask}  # type: ignore[union-attr]
            if tile_op.mask.is_zero or len(masks) != 1:
                return None
            steps.append(_Step("binary", _Facts.of(tile_op), nums, res))
        elif isinstance(tile_op, CubeMatrixOp):
            f = tile_op.fpatr_fields
            if (profile == NumericProfile.RAW_CARRIER  # raw int64 words: the per-op path stores them
                    or len(tile_op.results) != 1 or f.row_max_en or f.group_max_en
                    or tile_op.mask.is_zero
                    or any(isinstance(v.type, TileType) and v.type.pe_mask != tile_op.mask.data
                           for v in (*tile_op.operands, *tile_op.results))
                    or (tile_op.is_mx() and target_profile(tile_op) is TargetProfile.A2A3)):
                return None
            assert result is not None
            steps.append(_Step("cube", _Facts.of(tile_op), nums, res,
                               cube=_Cube.of(tile_op, args, result)))
        else:  # a decoded block of another family (TCVT, reductions, ...): the per-op path
            return None
    for op in body_ops:  # the batched form reads their linked ops only
        if isinstance(op, BlockOp):
            keep_linked_only(op)
    geometry = [(0, 0, 0, 0, 0)] * len(mover_ops)
    for st in steps:
        if st.geometry is not None:
            geometry[st.mover] = st.geometry
    return BatchPlan(steps, profile, len(mover_ops), tuple(geometry))


@dataclass
class _Batched:
    axis: int
    array: np.ndarray  # the valid rectangles of every (iteration, PE), concatenated
    pieces: int  # iterations x PEs
    fresh: bool = False  # a kernel's own output (not a view of any other value)
    origin: tuple | None = None  # a load's (source, slice): neighbouring loads merge


@dataclass
class _Link:
    """One CUBE op of an accumulation chain, its operands but C already read."""

    op: _Facts
    info: _Cube
    tiles: dict[str, Any]
    scalars: dict[str, int]
    pieces: int


@dataclass
class _Chain:
    """ACC CUBE ops each accumulating into the previous one's result (read by nothing else),
    run when their value is read (:func:`_run_chain`); ``last`` is the SSA value the chain
    stands for."""

    c: _Batched
    links: list[_Link]
    last: int  # the number of the value the chain stands for


def _geometry(op: TLoadOp | TStoreOp) -> tuple[int, int, int, int, int]:
    """(valid rows, valid cols, PE stride rows, PE stride cols, PEs) of a load or store."""
    tt = op.result.type if isinstance(op, TLoadOp) else op.tile.type
    assert isinstance(tt, TileType)
    vr, vc = tt.valid_shape
    s0, s1 = op.pe_stride.get_values()
    return vr, vc, s0, s1, len(pe_indices(tt.pe_mask))


def _covers(geometry: np.ndarray, table: np.ndarray) -> list[tuple[int, int, int, int] | None]:
    """Per mover, ``(axis, row, col, pieces)`` of the one contiguous slice its loads or
    stores cover over all iterations (from row, col along ``axis``), or None when they do not;
    ``geometry`` holds each mover's :func:`_geometry`, ``table`` the (iterations, movers, 2)
    offsets. Piece (iteration i, PE q), in that order, is piece k = i * npe + q; its origin
    is the iteration's offsets + q * PE stride. Contiguous along the columns: every origin on
    row r0, piece k at column c0 + k * vc, i.e. the PE stride is (0, vc) (or one PE) and
    iteration i starts at c0 + i * npe * vc (along the rows likewise). All movers at once."""
    vr, vc, s0, s1, npe = geometry.T
    r, c = table[:, :, 0], table[:, :, 1]
    r0, c0 = r[0], c[0]
    step = np.arange(len(table), dtype=np.int64)[:, None] * npe
    one = npe == 1
    cols = (one | ((s0 == 0) & (s1 == vc))) & (r == r0).all(0) & (c == c0 + step * vc).all(0)
    rows = (one | ((s1 == 0) & (s0 == vr))) & (c == c0).all(0) & (r == r0 + step * vr).all(0)
    axis = np.where(npe == 0, -1, np.where(cols, 1, np.where(rows, 0, -1))).tolist()
    pieces = (len(table) * npe).tolist()
    return [None if a < 0 else (a, r, c, n)
            for a, r, c, n in zip(axis, r0.tolist(), c0.tolist(), pieces)]


def _union(cover: tuple[int, int, int, int] | None, geometry: tuple[int, int, int, int, int],
           shape) -> tuple[int, tuple[slice, slice], int]:
    """(axis, the contiguous slice, pieces) covered by a load/store of ``geometry``
    (:func:`_geometry`) over all iterations (``cover``: :func:`_covers`)."""
    if cover is None:
        raise _Abandon
    axis, r0, c0, n = cover
    vr, vc = geometry[0], geometry[1]
    if axis == 1:
        sl = (slice(r0, r0 + vr), slice(c0, c0 + n * vc))
    else:
        sl = (slice(r0, r0 + n * vr), slice(c0, c0 + vc))
    if len(shape) != 2 or r0 < 0 or c0 < 0 or sl[0].stop > shape[0] or sl[1].stop > shape[1]:
        raise _Abandon  # a fault: the per-iteration run reports it at its op
    return axis, sl, n


def run_batched(plan: BatchPlan, env: dict[int, Any], offs: list[tuple], inits) -> tuple[Any, ...]:
    """Execute the batched body; ``env`` maps loop-invariant SSA values (by number) to values,
    ``offs`` gives every iteration's offsets (a ``(row, col)`` pair per mover).
    Raises :class:`_Abandon` (or any fault) before any effect when not applicable."""
    vals: dict[int, Any] = {}

    def get(key: int) -> Any:
        if key in vals:
            value = vals[key]
            if isinstance(value, _Chain):  # read: run the pending accumulation chain
                value = vals[key] = _run_chain(value, plan.profile)
            return value
        if key in env:
            return env[key]
        raise _Abandon  # a value of the body that is not batched (e.g. the iv)

    try:  # every iteration's (row, col) offsets of every mover, at once
        flat = itertools.chain.from_iterable(itertools.chain.from_iterable(offs))
        table = np.fromiter(flat, np.int64, len(offs) * plan.movers * 2)
        table = table.reshape(len(offs), plan.movers, 2)
    except (ValueError, TypeError, OverflowError):
        raise _Abandon from None
    invariant = (table == table[0]).all(axis=(0, 2)).tolist()  # per mover
    covers = _covers(np.array(plan.geometry, np.int64).reshape(-1, 5), table)
    writes = []
    for st in plan.steps:
        op = st.op
        if st.kind == "load":
            src = np.asarray(get(st.args[0]))
            at = table[:, st.mover]
            if invariant[st.mover]:  # loop-invariant: one tile, as every iteration
                vals[st.result] = _invariant_load(st, src, int(at[0, 0]), int(at[0, 1]))
                continue
            axis, sl, n = _union(covers[st.mover], st.geometry, src.shape)
            dtype = st.tile[2]  # type: ignore[index]
            vals[st.result] = _Batched(axis, _load_slice(src, sl, dtype), n,
                                           origin=(src, sl))
        elif st.kind == "store":
            tile = get(st.args[0])
            if not isinstance(tile, _Batched):
                raise _Abandon
            dst = inits[st.store]
            axis, sl, n = _union(covers[st.mover], st.geometry, np.shape(dst))
            if axis != tile.axis or n != tile.pieces:
                raise _Abandon
            writes.append((st.store, sl, tile))
            vals[st.result] = None
        elif st.kind == "binary":
            lhs, rhs = get(st.args[0]), get(st.args[1])
            if not (isinstance(lhs, _Batched) and isinstance(rhs, _Batched)) or (
                lhs.axis != rhs.axis or lhs.array.shape != rhs.array.shape
            ):
                raise _Abandon
            rt = op.result_type
            row = kernels.BINARY_ROWS[op.mnemonic]
            # valid=None: the whole batched rectangle, so no padding and all defined (D9).
            payload, _ = kernels.binary_tile(row, lhs.array, rhs.array, None,
                                             op.pad, rt.dtype)  # type: ignore[union-attr]
            vals[st.result] = _Batched(lhs.axis, payload, lhs.pieces, fresh=True)
        else:
            info = st.cube
            assert st.result is not None and info is not None
            c_arg = st.args[info.c_index] if info.c_index is not None else None
            pending = vals.get(c_arg) if c_arg is not None else None
            if (isinstance(pending, _Chain) and pending.last == c_arg and info.c_one_use
                    and pending.links[-1].info.plain):
                # C is the chain's value and only this op reads it: one more link
                pending.links.append(
                    _Link(op, info, *_cube_operands(op, info, st.args, get, skip="c")))
                pending.last = st.result
                del vals[c_arg]  # read by nothing else: the chain lives under one key
                vals[st.result] = pending
            elif (c_arg is not None and _sequential(plan.profile)
                  and info.result_one_use):  # may start a chain (ordered sums only)
                c = get(c_arg)
                if not isinstance(c, _Batched):
                    raise _Abandon
                vals[st.result] = _Chain(
                    c, [_Link(op, info, *_cube_operands(op, info, st.args, get, skip="c"))],
                    st.result)
            else:
                tiles, scalars, pieces = _cube_operands(op, info, st.args, get)
                vals[st.result] = _cube_call(op, tiles, scalars, pieces, plan.profile, info)
    for key, value in list(vals.items()):  # a chain nothing read still runs (its faults)
        if isinstance(value, _Chain):
            vals[key] = _run_chain(value, plan.profile)
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


@dataclass
class _Loaded:
    """The tile a loop-invariant load gives, as the valid rectangle of each PE (what a CUBE
    op reads of its row operands): a fresh load is allocated, of the load's tile type (the
    one its readers expect, an SSA value has one type) and defined over its valid rectangle,
    so a reader needs none of :func:`interpreter.ssa.runtime.require_source`'s checks, and
    the padding :meth:`TileValue.from_valid` would add is never read."""

    valid: dict[int, np.ndarray]


def _invariant_load(st: _Step, src: np.ndarray, i0: int, j0: int) -> _Loaded:
    """The tile a load at the same offsets in every iteration loads (the slices of
    :func:`interpreter.ssa.pto_functions.tload_plan`, whose bounds fault becomes an abandoned
    batch: the per-iteration run reports it)."""
    vr, vc, s0, s1, _ = st.geometry  # type: ignore[misc]
    _tt, pes, dtype, _pad = st.tile  # type: ignore[misc]
    if src.ndim != 2:
        raise _Abandon
    rows, cols = src.shape
    valid = {}
    for q, p in enumerate(pes):
        r, c = i0 + q * s0, j0 + q * s1
        if r < 0 or c < 0 or r + vr > rows or c + vc > cols:
            raise _Abandon
        if q and s0 == 0 and s1 == 0:  # every PE loads the same rectangle: the same array
            valid[p] = valid[pes[0]]
            continue
        valid[p] = _load_slice(src, (slice(r, r + vr), slice(c, c + vc)), dtype)
    return _Loaded(valid)


def _load_slice(src: np.ndarray, sl: tuple[slice, slice], dtype: np.dtype) -> np.ndarray:
    """A load's batched slice in the tile's storage dtype (a view when the widths agree)."""
    part = src[sl]
    return part.view(dtype) if part.dtype.itemsize == dtype.itemsize else part.astype(dtype)


def _sequential(profile: str) -> bool:
    """ADR-0047's chained FMAs: an ACC op continuing its C is the same chain as one op over
    both K ranges (``exact`` rounds once per op instead)."""
    return numeric_profile(profile).sequential


def _plain(op: CubeMatrixOp) -> bool:
    """No post-processing: the op's result is its FP32 accumulator, as the next op reads it."""
    return (not any(op.fpatr_fields.as_tuple()) and op.sat is None
            and op.rmode.data is RoundingMode.DEFAULT)


def _cube_operands(op: _Facts, info: _Cube, args: list[int], get,
                   skip: str | None = None):
    """(tiles by role, scalars by role, pieces) of a CUBE op's batched execution; the role
    ``skip`` is not read."""
    tiles: dict[str, Any] = {}
    scalars: dict[str, int] = {}
    pieces = None
    pes = info.pes
    for (role, t), arg in zip(info.roles, args):
        if role == skip:
            continue
        value = get(arg)
        if not isinstance(t, TileType):
            if isinstance(value, _Batched):
                raise _Abandon
            scalars[role] = int(value)
        elif isinstance(value, _Batched):
            if role not in COLUMN_ROLES or value.axis != 1:
                raise _Abandon
            if pieces not in (None, value.pieces):
                raise _Abandon
            pieces = value.pieces
            tiles[role] = value
        else:
            if role in COLUMN_ROLES:
                raise _Abandon  # a loop-invariant column operand: not batched
            if isinstance(value, _Loaded):
                rects = value.valid
            else:
                tile = require_source(op.name, role, value, t)
                rects = {p: tile.valid(p) for p in pes}
            first = rects[pes[0]]
            for p in pes[1:]:
                other = rects[p]
                if other is not first and (other.shape != first.shape or other.tobytes() != first.tobytes()):
                    raise _Abandon
            tiles[role] = first
    if pieces is None or "b" not in tiles:
        raise _Abandon
    return tiles, scalars, pieces


def _cube_call(op: _Facts, tiles: dict[str, Any], scalars: dict[str, int], pieces: int,
               profile: str, info: _Cube) -> _Batched:
    arrays = {r: t.array if isinstance(t, _Batched) else t for r, t in tiles.items()}
    types: dict[str, Any] = dict(info.roles)
    c_t = types.get("c")
    rt = op.result_type
    assert isinstance(rt, TileType)
    with staged():  # an abandoned batch records nothing: the per-PE path records instead
        res = kernels.cube_matrix(
            op.function, arrays["a"], arrays["b"], c=arrays.get("c"), bias=arrays.get("bias"),
            a_scale=arrays.get("a_scale"), b_scale=arrays.get("b_scale"),
            a_type=types["a"].dtype, b_type=types["b"].dtype,  # type: ignore[union-attr]
            c_type=c_t.dtype if isinstance(c_t, TileType) else None,
            fpatr=op.fpatr, rmode=op.rmode, sat=op.sat,
            quant=arrays.get("quant"), prelu=arrays.get("prelu"),
            quant_scalar=scalars.get("quant_scalar"),
            lrelu_scalar=scalars.get("lrelu_scalar"), profile=profile,
        )
        if isinstance(res, tuple):
            raise _Abandon
        d = np.asarray(res).astype(storage_dtype(rt.dtype), copy=False)
        if d.shape[0] != rt.valid_shape[0]:
            raise _Abandon
    return _Batched(1, d, pieces, fresh=True)


def _rows_merged(parts: list[Any]) -> np.ndarray | None:
    """The batched loads ``parts`` as one, when they are consecutive row ranges of one
    source over the same columns (a view of the source), else None."""
    if not all(isinstance(p, _Batched) and p.origin is not None for p in parts):
        return None
    src, (r, cols) = parts[0].origin
    stop = r.stop
    for p in parts[1:]:
        s2, (r2, c2) = p.origin
        if s2 is not src or c2 != cols or r2.start != stop:
            return None
        stop = r2.stop
    return _load_slice(src, (slice(r.start, stop), cols), parts[0].array.dtype)


def _run_chain(chain: _Chain, profile: str) -> _Batched:
    """The chain's value: one kernel call over the concatenated K ranges when they are
    neighbouring slices of the same B (and B scale) with whole scale blocks and loop-invariant
    A rows, the same function and types, and every link but the last plain (ADR-0047: C
    then every term of every link in K order is one FMA chain); else op by op."""
    links = chain.links
    first = links[0]
    same = all(lk.op.function == first.op.function and lk.pieces == first.pieces
               and set(lk.tiles) == set(first.tiles) and not lk.scalars
               and lk.info.dtypes == first.info.dtypes for lk in links)
    merged = None
    if len(links) > 1 and same and set(first.tiles) <= {"a", "a_scale", "b", "b_scale"}:
        ks = [lk.tiles["b"].array.shape[0] for lk in links]  # K of each link (B's rows)
        if all(k % 32 == 0 for k in ks[:-1]):  # whole scale blocks (and whole A bytes)
            b = _rows_merged([lk.tiles["b"] for lk in links])
            bs = (None if "b_scale" not in first.tiles
                  else _rows_merged([lk.tiles["b_scale"] for lk in links]))
            if b is not None and ("b_scale" not in first.tiles or bs is not None):
                tiles: dict[str, Any] = {"a": np.concatenate([lk.tiles["a"] for lk in links], 1),
                                         "b": b, "c": chain.c}
                if "a_scale" in first.tiles:
                    tiles["a_scale"] = np.concatenate([lk.tiles["a_scale"] for lk in links], 1)
                if bs is not None:
                    tiles["b_scale"] = bs
                merged = tiles
    if merged is not None:
        return _cube_call(links[-1].op, merged, {}, first.pieces, profile, links[-1].info)
    c = chain.c
    for lk in links:
        c = _cube_call(lk.op, {**lk.tiles, "c": c}, lk.scalars, lk.pieces, profile, lk.info)
    return c
