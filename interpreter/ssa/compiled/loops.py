"""``scf.for`` in the compiled engine: in order, or independent iterations on two threads.

A loop is *independent* (decided statically by :meth:`.plan._Emitter.loop_info`) when every
iter_arg is an exclusive tensor written by exactly one store of the body whose result is
yielded at the same position, the body has no other effects (no calls, no xDSL region ops),
and each store's offsets are a slice of scalar ops of the body. At run time the offsets of
every iteration are computed first; when the stores' rectangles (per PE: the tile's valid
rectangle at offset + q * pe_stride) lie inside their tensors and no two iterations' overlap,
the iterations commute exactly: they run on two threads (contiguous halves, each in order)
writing into one engine-owned buffer per iter_arg (numpy releases the GIL in its kernels).
Anything else -- an offset that cannot be computed, a rectangle outside the tensor (a fault),
an overlap, fewer than two iterations -- runs the loop in order.

Faults: each thread stops at its first exception; the exception of the lowest iteration
index is raised, which is the fault sequential execution meets first (iterations before it
ran without fault in both orders), at the same op. Buffers written by other iterations are
engine-owned and discarded with the raise, so the fault leaves no effect (D12).
"""

from __future__ import annotations

import contextvars
import os
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir import Operation

from interpreter.kernels.storage import pe_indices
from interpreter.ssa.pto_functions import Owned, owned_copy
from pto_dialect.attributes import TileType
from pto_dialect.block_ops import BlockOp, check_linked
from pto_dialect.data_movement import TStoreOp, gm_row_span, gm_valid_shape

from .batch import BatchPlan, run_batched

__all__ = ["BATCH", "STATS", "THREADS", "LoopInfo", "StoreGeometry", "run_loop"]

THREADS = max(1, min(2, int(os.environ.get("PTO_THREADS", os.cpu_count() or 1))))
"""Worker threads for independent loops (``PTO_THREADS=1`` runs every loop in order)."""

BATCH = os.environ.get("PTO_BATCH", "1") != "0"
"""Batched loops (:mod:`.batch`); ``PTO_BATCH=0`` runs them per iteration."""

_POOL: ThreadPoolExecutor | None = None

STATS: Counter[str] = Counter()
"""How loops ran: ``batched``, ``threads``, ``inorder`` (for tests and benchmarks)."""


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max(1, THREADS - 1), thread_name_prefix="pto-loop")
    return _POOL


@dataclass(frozen=True)
class StoreGeometry:
    """The rectangles one store writes: valid shape, PE count and PE stride."""

    rows: int
    cols: int
    pes: int
    stride: tuple[int, int]

    @staticmethod
    def of(op: Operation) -> StoreGeometry | None:

        if isinstance(op, BlockOp):
            op = check_linked(op, op.summary())
        if not isinstance(op, TStoreOp):
            return None
        tt = op.tile.type
        assert isinstance(tt, TileType)
        vr, vc = gm_valid_shape(tt, op.packed)  # packed 4-bit GM: the bytes written
        vr = gm_row_span(vr, op.row_step)  # a row stride: the rows spanned (a cover)
        s0, s1 = op.pe_stride.get_values()
        return StoreGeometry(vr, vc, len(pe_indices(tt.pe_mask)), (s0, s1))

    def disjoint_in_bounds(self, offsets: list[tuple[Any, Any]], shape: tuple[int, ...]) -> bool:
        """Every rectangle inside ``shape`` and no two iterations' rectangles overlapping."""
        vr, vc = self.rows, self.cols
        if len(shape) != 2:
            return False
        if vr == 0 or vc == 0:
            return True
        cells: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        for it, (i0, j0) in enumerate(offsets):
            i0, j0 = int(i0), int(j0)
            for q in range(self.pes):
                r, c = i0 + q * self.stride[0], j0 + q * self.stride[1]
                if r < 0 or c < 0 or r + vr > shape[0] or c + vc > shape[1]:
                    return False
                cr, cc = r // vr, c // vc
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        for r2, c2, it2 in cells.get((cr + dr, cc + dc), ()):
                            if it2 != it and abs(r2 - r) < vr and abs(c2 - c) < vc:
                                return False
                cells.setdefault((cr, cc), []).append((r, c, it))
        return True


@dataclass(frozen=True)
class LoopInfo:
    """An independent loop: its stores (one per iter_arg, first in the offsets tuple), its
    batched form if any, and the ids of the loop-invariant values that form reads."""

    stores: list[StoreGeometry]
    batch: BatchPlan | None = None
    outer: list[int] | None = None


def run_loop(lb, ub, step, inits: tuple[Any, ...], body, info: LoopInfo | None, offsets, env):
    """Run ``body(i, *carried) -> carried`` for i in range(lb, ub, step); see the module.
    ``offsets(i)`` gives iteration i's store (then load) offsets, ``env()`` the values of
    the loop-invariant operands of the batched form (:mod:`.batch`)."""
    iterations = range(int(lb), int(ub), int(step))
    if info is not None and len(iterations) >= 2:
        try:
            offs = [offsets(i) for i in iterations]
        except Exception:  # noqa: BLE001 - the in-order run meets (and reports) it
            offs = None
        if offs is not None and info.batch is not None and BATCH:
            try:
                done = run_batched(info.batch, dict(zip(info.outer or (), env())), offs, inits)
                STATS["batched"] += 1
                return done
            except Exception:  # noqa: BLE001 - not applicable, or a fault: run per iteration
                pass
        if offs is not None and THREADS > 1:
            done = _parallel(iterations, inits, body, info, offs)
            if done is not None:
                STATS["threads"] += 1
                return done
    STATS["inorder"] += 1
    carried = inits
    for i in iterations:
        carried = body(i, *carried)
    return carried


def _parallel(iterations: range, inits, body, info: LoopInfo, offs) -> tuple[Any, ...] | None:
    for k, geometry in enumerate(info.stores):
        if not geometry.disjoint_in_bounds([o[k] for o in offs], np.shape(inits[k])):
            return None
    buffers = []
    for x in inits:
        if type(x) is Owned and x.flags.owndata:
            buffers.append(x)
        else:
            buffers.append(owned_copy(np.asarray(x)))
    order = list(iterations)
    half = (len(order) + 1) // 2

    def work(part: list[int]):
        for i in part:
            try:
                body(i, *buffers)
            except BaseException as e:  # noqa: BLE001 - re-raised below, lowest iteration first
                return (i, e)
        return None

    # the worker runs in this thread's context: numeric status flags reach the same run
    future = _pool().submit(contextvars.copy_context().run, work, order[half:])
    first = work(order[:half])
    failures = [r for r in (first, future.result()) if r is not None]
    if failures:
        raise min(failures, key=lambda f: f[0])[1]
    return tuple(buffers)
