"""Interpreter functions of the global-memory TLSU ops (``pto_dialect.gm_indexed``; D25).

Each op is one plan (:func:`gm_plan`) around the kernels of :mod:`interpreter.kernels.indexed`:
the GM operand (a 1-D byte tensor) becomes a :class:`~interpreter.machine.global_memory.GlobalMemory`
whose permitted bytes are the tensor's, so an access beyond it is DataPage with the lane's
address; a misaligned one DataAlignment. Every PE of the op's mask, in PE order, contributes
its valid rectangle's lanes, row-major; the whole batch is probed before any effect. Ops that
write GM return a new tensor (the input is never modified: SSA value semantics). Reading an
undefined source element is TileLegality (``TileSourceContentsDefined``), before any access.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import InterpreterFunctions, register_impls

from interpreter.kernels.indexed import (
    byte_addresses,
    compare_and_swap,
    element_bytes,
    gather,
    peer_copy,
    prefetch,
    scatter,
)
from interpreter.kernels.padding import pad_bits, parse_pad
from interpreter.machine.global_memory import GlobalMemory
from interpreter.ssa.runtime import (
    TileValue,
    pe_indices,
    register_plans,
    source_check,
    storage_dtype,
)
from pto_dialect.attributes import TileType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.gm_indexed import (
    GM_OPS,
    GlobalMemoryOp,
    GMovOp,
    MGatherCasOp,
    MGatherMaskOp,
    TPrefetchOp,
)

_TL = FaultKind.TILE_LEGALITY


def _gm(array: Any) -> tuple[np.ndarray, GlobalMemory]:
    a = np.asarray(array)
    data = np.ascontiguousarray(a).view(np.uint8).reshape(-1)
    return a, GlobalMemory(data)


def _valid(t: TileValue, pes: list[int], role: str, op: str) -> np.ndarray:
    """The valid rectangles ``(P, VR, VC)`` of PEs ``pes``, each defined
    (``TileSourceContentsDefined``, the preflight of every tile op: :func:`source_check`)."""
    source_check(op, role, t.type, pes=pes)(t)
    return np.stack([t.valid(p) for p in pes])


def _words(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.kind != "b" else a.astype(np.uint8)


def gm_plan(op: GlobalMemoryOp):
    """``plan(*operands) -> results`` of one global-memory op (module docstring)."""
    name = op.MNEMONIC
    mask = op.op_mask
    pes = pe_indices(mask)
    if isinstance(op, TPrefetchOp):
        t = op.footprint
        assert isinstance(t, TileType)
        vr, vc = t.valid_shape
        r, c = np.divmod(np.arange(vr * vc, dtype=np.uint64), np.uint64(vc))

        def run_prefetch(gm, base, stride):
            _, mem = _gm(gm)
            index = r * np.uint64(int(stride) & (2**64 - 1)) + c
            off = index // np.uint64(2) if t.dtype.packed_x2 else (
                index * np.uint64(element_bytes(t.dtype)))  # fmt: skip
            with np.errstate(over="ignore"):
                addr = np.uint64(int(base) & (2**64 - 1)) + off
            prefetch(mem, np.tile(addr, 4), t.dtype, np.repeat(np.arange(4), addr.size), op=name)
            return ()

        return run_prefetch
    if isinstance(op, GMovOp):
        rt = op.result.type
        peers = op.peer_list

        def run_gmov(src: TileValue):
            if set(src.payloads) != {0, 1, 2, 3}:
                raise PTOFault(_TL, "GMOV: the source is not held on all four PEs (Core4 "
                               "readiness)", op=name)  # fmt: skip
            payloads, defined = peer_copy(src.payloads, src.defined, peers, pes)
            return (TileValue(rt, payloads, defined),)  # type: ignore[arg-type]

        return run_gmov
    if mask == "0000":
        outs = [r.type for r in op.results]

        def noop(*args):
            gm = args[0 if op.GATHERS else 1]
            return tuple(TileValue(t) if isinstance(t, TileType) else np.asarray(gm).copy()
                         for t in outs)  # fmt: skip

        return noop
    if op.GATHERS:
        rt = op.result.type
        assert isinstance(rt, TileType)
        dt = rt.dtype
        sd = storage_dtype(dt)
        pad = parse_pad(op.pad.data.value)
        fill = 0 if pad == "null" else pad_bits(dt, pad)
        masked = isinstance(op, MGatherMaskOp)
        cas = isinstance(op, MGatherCasOp)
        vshape = rt.valid_shape

        def run_gather(gm, base, idx: TileValue, *rest: TileValue):
            arr, mem = _gm(gm)
            it = idx.type
            index = _valid(idx, pes, "index", name)
            addr = byte_addresses(int(base), index.reshape(-1), it.dtype)
            words = np.full(addr.size, fill, f"<u{element_bytes(dt)}")
            if cas:
                e = _words(_valid(rest[0], pes, "expected", name)).reshape(-1)
                rep = _words(_valid(rest[1], pes, "replacement", name)).reshape(-1)
                new = arr.copy()
                _, mem = _gm(new)
                words[:] = compare_and_swap(mem, addr, dt, e, rep, op=name)
            elif masked:
                on = _valid(rest[0], pes, "mask", name).reshape(-1).astype(bool)
                words[on] = gather(mem, addr[on], dt, op=name)
            else:
                words[:] = gather(mem, addr, dt, op=name)
            vals = words.astype(f"u{sd.itemsize}").view(sd).reshape(len(pes), *vshape)
            tile = TileValue.from_valid(rt, dict(zip(pes, vals)), pad)
            return (tile, new) if cas else (tile,)

        return run_gather
    masked = len(op.ROLES) == 2

    def run_scatter(data: TileValue, gm, base, idx: TileValue, *rest: TileValue):
        dt = data.type.dtype
        values = _words(_valid(data, pes, "data", name)).reshape(-1)
        index = _valid(idx, pes, "index", name)
        addr = byte_addresses(int(base), index.reshape(-1), idx.type.dtype)
        if masked:
            on = _valid(rest[0], pes, "mask", name).reshape(-1).astype(bool)
            addr, values = addr[on], values[on]
        new = np.asarray(gm).copy()
        _, mem = _gm(new)
        scatter(mem, addr, dt, values, op=name)
        return (new,)

    return run_scatter


@register_impls
@register_plans([(GM_OPS, lambda self, op: gm_plan(op))])
class GlobalMemoryFunctions(InterpreterFunctions):
    """Interpreter functions of the global-memory TLSU ops."""

    def __init__(self, profile: str = "ordered"):
        self.profile = profile


__all__ = ["GlobalMemoryFunctions", "gm_plan"]
