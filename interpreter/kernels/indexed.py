"""Kernels of the indexed global-memory operations on the byte GM (D25; docs/gm-indexed.md).

MGATHER, MGATHER_MASK, MGATHER_CAS, MSCATTER, MSCATTER_MASK and TPREFETCH of pto-spec e599a3d3
(``asl/tile/model/memory/gather-scatter.asl``, ``atomics.asl``; read, not copied), on
:class:`interpreter.machine.global_memory.GlobalMemory`. One call is one instruction of one PE:

* **Addresses** (``TileMemoryByteDisplacementAddress``, ``asl/tile/model/memory/addressing.asl``):
  ``base + displacement`` modulo 2^64, the displacement being the index element sign-extended
  (signed index types) or zero-extended (unsigned) from its width; no scaling by the transfer
  element size. :func:`byte_addresses`.
* **Preflight** (``ProbeTileMemoryAccess`` + ``RaiseDataAccessFault``): every enabled lane, in
  row-major lane order, before the first byte moves or event is recorded; the first failing
  lane decides the fault, DataAlignment (address not a multiple of the element size) before
  DataPage (outside the permitted bytes), with that lane's address. :func:`preflight` checks
  the whole batch with vectorised min / max / alignment tests and only on failure searches for
  the first failing lane (``GlobalMemory.probe``), so the hot path is three array passes.
* **Effects**: a gather loads each lane's element (raw little-endian carrier bits, no
  numeric-validity check) and records one load event per lane in lane order; a scatter stores
  each lane in lane order (duplicate addresses: the ASL's winner is implementation defined,
  ours is the last lane in row-major order) with one store event per lane; a CAS is one atomic
  read-modify-write per lane: old = memory, success = (old == expected) on the element's
  bytes, memory = replacement when it succeeds, the destination receives old; duplicate
  addresses serialize in row-major lane order (an order the ASL allows, it fixes none) and
  each lane records one atomic event (read value, write value, whether the write happened).
* Events carry the block's memory order (``CurrentBundleMemoryOrder``).

Every function takes and returns whole arrays: one vectorised pass per step, never a Python
loop over lanes (a CAS with duplicate addresses loops over the multiplicity of the most
repeated address, each round vectorised over all addresses).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from interpreter.machine.global_memory import GlobalMemory, MemoryEvent
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.memory_model import MemoryOrder

_TL = FaultKind.TILE_LEGALITY
INDEX_TYPES = frozenset({TileDataType.S32, TileDataType.U32, TileDataType.S64, TileDataType.U64})
"""IndexTile element types of the indexed TLSU blocks (the catalog's legality rows)."""


@dataclass(frozen=True)
class AtomicEvent(MemoryEvent):
    """One atomic read-modify-write (``RecordAtomicEvent``, asl/arch/memory-model/atomicity.asl):
    ``value`` is the raw value read, ``write_value`` the (normalized) replacement and
    ``performed`` whether the write happened (the compare succeeded)."""

    write_value: int = 0
    performed: bool = False


def transfer_type_legal(dt: TileDataType) -> bool:
    """``IndexedTLSUTransferDataTypeLegal``: no packed 4-bit type (no nibble selector)."""
    return not dt.packed_x2


def element_bytes(dt: TileDataType) -> int:
    """Bytes of one transfer element (``TileMemoryElementBytes``; 6-bit types: one byte)."""
    return max(1, dt.info.carrier_bits // 8)


def displacements(index_words: np.ndarray, index_type: TileDataType) -> np.ndarray:
    """``TileIndexByteDisplacement``: raw index words (any integer dtype of the index type's
    storage) -> uint64 byte displacements, sign- or zero-extended from the type's width (a
    packed 4-bit index uses its low nibble)."""
    bits = index_type.info.carrier_bits
    w = np.asarray(index_words)
    if w.dtype.kind in "iu" and w.dtype.itemsize * 8 == bits and bits >= 8:
        if bits == 64:  # no extension: the words are the displacements (no copy)
            return w.view(np.uint64)
        if index_type.is_signed:
            return w.view(f"i{w.dtype.itemsize}").astype(np.int64).view(np.uint64)
        return w.view(f"u{w.dtype.itemsize}").astype(np.uint64)
    raw = w.astype(np.int64).view(np.uint64)
    if bits < 64:
        raw = raw & np.uint64((1 << bits) - 1)
    if index_type.is_signed and bits < 64:
        shift = np.uint64(64 - bits)
        raw = ((raw << shift).view(np.int64) >> np.int64(64 - bits)).view(np.uint64)
    return raw


def byte_addresses(base: int, index_words: np.ndarray, index_type: TileDataType) -> np.ndarray:
    """``base + displacement`` modulo 2^64 for every lane (uint64, the input's shape)."""
    disp = displacements(index_words, index_type)
    b = int(base) & (2**64 - 1)
    if not b:
        return disp
    with np.errstate(over="ignore"):
        return np.uint64(b) + disp


def preflight(mem: GlobalMemory, addr: np.ndarray, nbytes: int, op: str) -> np.ndarray:
    """Probe every lane (``addr`` in lane order) before any effect: DataAlignment / DataPage
    with the first failing lane's address (``GlobalMemory.probe`` order). Returns the
    addresses as a flat uint64 array (no copy when they already are one).

    The fast path is two reductions: the maximum address against the permitted end
    (addresses are unsigned, so a wrapped negative displacement is huge) and the OR of all
    addresses against the alignment mask (any misaligned lane sets a low bit of the OR); only
    when one fails is the first failing lane searched for."""
    a = np.asarray(addr, np.uint64).reshape(-1)
    if a.size == 0:
        return a
    limit = mem.limit()
    ok = limit >= nbytes and int(a.max()) <= limit - nbytes
    if ok and nbytes > 1:
        ok = not int(np.bitwise_or.reduce(a)) & (nbytes - 1)
    if not ok:
        mem.probe(a, nbytes, op)  # raises with the first failing lane
    return a


CHUNK = 1 << 14
"""Lanes per step of the element-index computation: the index temporary stays in the cache
(one reused buffer) instead of a second full-size array."""


def _element_chunks(a: np.ndarray, nbytes: int):
    """(start, end, element indices of lanes start..end) of preflighted addresses ``a``: the
    address divided by the (power-of-two) element size, computed one cache-sized chunk at a
    time into one reused buffer."""
    shift = np.uint64(nbytes.bit_length() - 1)
    tmp = np.empty(min(a.size, CHUNK), np.uint64)
    for s in range(0, a.size, CHUNK):
        e = min(a.size, s + CHUNK)
        t = tmp[: e - s]
        np.right_shift(a[s:e], shift, out=t)
        yield s, e, t.view(np.int64)


def _words_view(mem: GlobalMemory, nbytes: int) -> np.ndarray:
    data = mem.data
    n = data.size - data.size % nbytes
    return data[:n].view(f"<u{nbytes}")


def gather(mem: GlobalMemory, addr: np.ndarray, dt: TileDataType, *, op: str = "MGATHER",
           order: MemoryOrder = MemoryOrder.RELAXED) -> np.ndarray:  # fmt: skip
    """Load one ``dt`` element per lane (raw carrier words of ``dt``'s width, unsigned) after
    the preflight of all of them; one load event per lane, in lane order, while capturing."""
    if not transfer_type_legal(dt):
        raise PTOFault(_TL, f"{op}: packed 4-bit transfer type {dt.asm} has no nibble selector "
                       "(IndexedTLSUTransferDataTypeLegal)", op=op)  # fmt: skip
    nb = element_bytes(dt)
    a = preflight(mem, addr, nb, op)
    view = _words_view(mem, nb)
    words = np.empty(a.size, view.dtype)
    for s, e, idx in _element_chunks(a, nb):
        np.take(view, idx, out=words[s:e])
    if mem.capturing:
        mem.record("load", mem.agent, a, nb, words, order)
    return words


def scatter(mem: GlobalMemory, addr: np.ndarray, dt: TileDataType, words: np.ndarray, *,
            op: str = "MSCATTER", order: MemoryOrder = MemoryOrder.RELAXED) -> None:  # fmt: skip
    """Store one ``dt`` element per lane (``words``: raw carrier bits, any unsigned or signed
    integer array; the low ``dt`` bytes are stored) after the preflight of all lanes; one
    store event per lane in lane order; a duplicate address keeps the last lane's value."""
    if not transfer_type_legal(dt):
        raise PTOFault(_TL, f"{op}: packed 4-bit transfer type {dt.asm} has no nibble selector "
                       "(IndexedTLSUTransferDataTypeLegal)", op=op)  # fmt: skip
    nb = element_bytes(dt)
    a = preflight(mem, addr, nb, op)
    w = np.asarray(words).reshape(-1)
    vals = w.view(f"u{w.dtype.itemsize}").astype(f"<u{nb}", copy=False)
    if mem.capturing:
        mem.record("store", mem.agent, a, nb, vals, order)
    view = _words_view(mem, nb)
    for s, e, idx in _element_chunks(a, nb):  # chunks in lane order: the last lane wins
        view[idx] = vals[s:e]


def compare_and_swap(mem: GlobalMemory, addr: np.ndarray, dt: TileDataType,
                     expected: np.ndarray, replacement: np.ndarray, *, op: str = "MGATHER_CAS",
                     order: MemoryOrder = MemoryOrder.RELAXED) -> np.ndarray:  # fmt: skip
    """One atomic compare-and-swap per lane in row-major lane order (module docstring);
    returns the old raw words (the destination's values). Faults before any effect."""
    if not transfer_type_legal(dt):
        raise PTOFault(_TL, f"{op}: packed 4-bit transfer type {dt.asm} has no nibble selector "
                       "(IndexedTLSUTransferDataTypeLegal)", op=op)  # fmt: skip
    nb = element_bytes(dt)
    a = preflight(mem, addr, nb, op)
    idx = (a >> np.uint64(nb.bit_length() - 1)).view(np.int64)
    code = f"<u{nb}"
    exp = np.asarray(expected).reshape(-1)
    rep = np.asarray(replacement).reshape(-1)
    exp = exp.astype(f"u{exp.dtype.itemsize}", copy=False).astype(code, copy=False)
    rep = rep.astype(f"u{rep.dtype.itemsize}", copy=False).astype(code, copy=False)
    mem_w = _words_view(mem, nb)
    n = idx.size
    old = np.empty(n, code)
    if n == 0:
        return old
    # rank of each lane among the lanes of its address (0 = first in lane order)
    perm = np.argsort(idx, kind="stable")
    s = idx[perm]
    new_group = np.r_[True, s[1:] != s[:-1]]
    start = np.maximum.accumulate(np.where(new_group, np.arange(n), 0))
    rank = np.empty(n, np.int64)
    rank[perm] = np.arange(n) - start
    for k in range(int(rank.max()) + 1):  # one vectorised round per multiplicity level
        lanes = np.flatnonzero(rank == k)
        cur = mem_w[idx[lanes]]
        old[lanes] = cur
        hit = cur == exp[lanes]
        mem_w[idx[lanes[hit]]] = rep[lanes[hit]]
    if mem.capturing:
        ok = old == exp
        mem.events += [AtomicEvent("atomic", mem.agent, int(a) * nb, nb, int(v), order, int(r),
                                   bool(h))
                       for a, v, r, h in zip(idx.tolist(), old.tolist(), rep.tolist(),
                                             ok.tolist())]  # fmt: skip
    return old


def prefetch(mem: GlobalMemory, addr: np.ndarray, dt: TileDataType, agents: np.ndarray, *,
             op: str = "TPREFETCH", order: MemoryOrder = MemoryOrder.RELAXED) -> None:
    """TPREFETCH's effect: the preflight of every access (all PEs, in PE then row-major order),
    then one TLOAD-equivalent load event per access for its agent; no data moves anywhere.
    4-bit types use their containing byte (one event per logical element)."""
    nb = element_bytes(dt)
    a = np.asarray(addr, np.uint64).reshape(-1)
    preflight(mem, a, nb, op)
    if mem.capturing and a.size:
        words = np.zeros(a.size, np.uint64)
        ai = a.astype(np.int64)
        for k in range(nb):  # bytes of the little-endian word (nb <= 8 passes)
            words |= mem.data[ai + k].astype(np.uint64) << np.uint64(8 * k)
        mem.record("load", agents, ai, nb, words, order)


def peer_copy(payloads: dict[int, np.ndarray], defined: dict[int, np.ndarray],
              peers: list[int], pes: list[int]) -> tuple[dict, dict]:
    """GMOV's effect: PE ``p`` of ``pes`` receives the fragment (payload and definedness) of
    PE ``peers[p]`` from the read-old snapshot ``payloads`` / ``defined``; no memory access."""
    return ({p: payloads[peers[p]] for p in pes}, {p: defined[peers[p]] for p in pes})


INDEXED_KERNELS = {
    "TPREFETCH": prefetch,
    "MGATHER": gather,
    "MSCATTER": scatter,
    "MGATHER_MASK": gather,
    "MSCATTER_MASK": scatter,
    "MGATHER_CAS": compare_and_swap,
    "GMOV": peer_copy,
}
"""Mnemonic -> kernel of the global-memory ops (a masked form runs its kernel on the enabled
lanes only)."""

__all__ = [
    "INDEXED_KERNELS",
    "INDEX_TYPES",
    "AtomicEvent",
    "byte_addresses",
    "compare_and_swap",
    "displacements",
    "element_bytes",
    "gather",
    "peer_copy",
    "preflight",
    "prefetch",
    "scatter",
    "transfer_type_legal",
]
