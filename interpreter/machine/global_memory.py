"""Byte-addressed GM on architectural state: data-access faults and memory events.

The model of pto-spec e599a3d3 (read, not copied; docs/gm-faults.md):

* **Address space** (``asl/arch/memory-model/address-space.asl``, ``asl/arch/features/
  tile-allocation.asl``): one bounded, little-endian byte array, ``PTO_MODEL_MEMORY_BYTES``
  long (4096 by default). Translation is the identity (``TranslateDataAddress``).
* **Permission** (the reference profile's ``DataAccessPermitted``, ``asl/arch/profile/
  reference-profile.asl``): an access of ``n`` bytes at ``a`` is permitted when
  ``a + n <= PTO_MODEL_MEMORY_BYTES``; ACR2..ACR15 are further limited to the 3072-byte
  application region (``a + n <= 3072``). There are no pages or page tables: "unmapped" is
  simply "not permitted".
* **Probe** (``ProbeDataAccess``, ``asl/scalar/model/agu/memory.asl``): an address that is not
  a multiple of its access size is **DataAlignment**; else an access that is not permitted is
  **DataPage**; ``RaiseDataAccessFault`` records the fault with the access's own address as
  the fault address (``SetFault(probe.fault, address)``).
* **Preflight** (``TLOAD`` / ``TSTORE`` of ``asl/tile/model/memory/load-store.asl``,
  ``TLOADShared`` / ``TSTOREShared`` of ``shared-movement.asl``): every access of the
  instruction is probed, in element order, before the first byte moves; the first failing
  access decides the fault code and the address. :func:`probe` does this vectorised: the
  first access (in the given order) that is misaligned or not permitted, and for that access
  alignment before permission.
* **Memory events** (``asl/arch/memory-model/memory-events.asl``, ``atomicity.asl``): while
  capture is on (``StartMemoryEventCapture(agent)`` ... ``StopMemoryEventCapture``), every
  load and store of a tile access appends one event (kind, agent, translated address, size,
  value, memory order) in program order; a load records the raw unsigned bytes it read, a
  store the value it wrote (a 4-bit store: the whole byte after its read-modify-write). The
  candidate-execution relations of the PTO-TSO checker (read-from, coherence ranks) are not
  recorded.

Accesses are whole arrays (one probe, one gather or scatter per instruction), never a Python
loop over elements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultCode, PTOFault
from pto_dialect.memory_model import MemoryOrder

MODEL_MEMORY_BYTES = 4096
"""``PTO_MODEL_MEMORY_BYTES`` (the ASL's configurable default)."""
APPLICATION_REGION_BYTES = 3072
"""The reference profile's bounded application region of ACR2..ACR15."""
_WRAP = (1 << 64) - 1


@dataclass(frozen=True)
class MemoryEvent:
    """One captured access (``MemoryEvent`` of asl/arch/data-types/memory-model.asl, the
    fields a single agent's run gives): ``kind`` is ``"load"`` or ``"store"``."""

    kind: str
    agent: int
    address: int
    size: int
    value: int
    order: MemoryOrder = MemoryOrder.RELAXED


class GlobalMemory:
    """The model's GM: :attr:`data` (``uint8``, the byte array itself, shared with whoever
    handed it in), the permission rule and the event capture."""

    def __init__(self, data: np.ndarray | int = MODEL_MEMORY_BYTES,
                 acr: Callable[[], int] | None = None) -> None:  # fmt: skip
        self.data = np.zeros(data, np.uint8) if isinstance(data, int) else data
        if self.data.dtype != np.uint8 or self.data.ndim != 1:
            raise ValueError(f"GM is a 1-D uint8 byte array, got {self.data.dtype} "
                             f"{self.data.shape}")  # fmt: skip
        self._acr = acr
        self.capturing = False
        self.agent = 0
        """``_CurrentMemoryAgent``: the PE whose GPRs a Local block reads, and the agent of
        the events of a Local access."""
        self.events: list[MemoryEvent] = []

    @classmethod
    def of(cls, gm: GlobalMemory | np.ndarray) -> GlobalMemory:
        """``gm`` itself, or a GM view of a byte array (ring 0, no capture)."""
        return gm if isinstance(gm, GlobalMemory) else cls(gm)

    # -- permission and probe ------------------------------------------------------------------
    @property
    def acr(self) -> int:
        return self._acr() if self._acr is not None else 0

    def limit(self) -> int:
        """The end of the permitted region for the current ring (``DataAccessPermitted``)."""
        end = self.data.size
        return min(end, APPLICATION_REGION_BYTES) if self.acr >= 2 else end

    def probe(self, addr: np.ndarray, nbytes: int, op: str) -> np.ndarray:
        """``ProbeDataAccess`` of every access (``nbytes`` each, in the given order) before any
        effect: the first failing one raises DataAlignment (misaligned) or DataPage (not
        permitted) with its address. Returns the addresses as ``int64`` indices."""
        a = np.asarray(addr, np.uint64)
        if a.size == 0:
            return np.zeros(0, np.int64)
        misaligned = a % np.uint64(nbytes) != 0
        limit = self.limit()
        outside = (a > np.uint64(limit - nbytes)) if limit >= nbytes else np.ones(a.size, bool)
        bad = misaligned | outside
        if bad.any():
            i = int(bad.argmax())
            where = int(a[i])
            if misaligned[i]:
                raise PTOFault(FaultCode.DATA_ALIGNMENT, f"{op}: a {nbytes}-byte access at GM "
                               f"address {where:#x} is not aligned to its size (ProbeDataAccess, "
                               "asl/scalar/model/agu/memory.asl)", op, address=where)  # fmt: skip
            ring = f" for ACR{self.acr}" if self.acr >= 2 else ""
            raise PTOFault(FaultCode.DATA_PAGE, f"{op}: a {nbytes}-byte access at GM address "
                           f"{where:#x} is outside the {limit} permitted bytes{ring} "
                           "(DataAccessPermitted, asl/arch/profile/reference-profile.asl)",
                           op, address=where)  # fmt: skip
        return a.astype(np.int64)

    # -- memory events -------------------------------------------------------------------------
    def start_capture(self, agent: int = 0) -> None:
        """``StartMemoryEventCapture``: an empty event list, capture on, ``agent`` current."""
        self.events = []
        self.agent = agent
        self.capturing = True

    def stop_capture(self) -> None:
        """``StopMemoryEventCapture`` (the events stay readable)."""
        self.capturing = False

    def record(self, kind: str, agents: np.ndarray | int, addr: np.ndarray, size: int,
               values: np.ndarray, order: MemoryOrder) -> None:  # fmt: skip
        """Append one event per access, in order (only while capturing)."""
        if not self.capturing:
            return
        ag = np.broadcast_to(np.asarray(agents, np.int64), np.shape(addr))
        self.events += [MemoryEvent(kind, int(g), int(a), size, int(v), order)
                        for g, a, v in zip(ag.tolist(), np.asarray(addr).tolist(),
                                           np.asarray(values, np.uint64).tolist())]  # fmt: skip


# ---- tile accesses (asl/tile/model/memory/addressing.asl, stride.asl, load-store.asl) --------
def element_bits(dt: TileDataType) -> int:
    """``TileElementBits``: 4, 8 (6-bit types use their byte), 16, 32 or 64."""
    return dt.info.carrier_bits


def memory_bytes(dt: TileDataType) -> int:
    """``TileMemoryElementBytes``: 4-bit elements use byte-sized containing accesses."""
    return max(1, element_bits(dt) // 8)


def dense_row_stride(columns: int, dt: TileDataType) -> int:
    """``TileDenseRowStrideBytes``: ``ceil(columns * bits / 8)``."""
    return -(-columns * element_bits(dt) // 8)


def gm_addresses(bases: Sequence[int], strides: Sequence[int], pes: np.ndarray, rows: np.ndarray,
                 cols: np.ndarray, dt: TileDataType) -> np.ndarray:  # fmt: skip
    """``TileMemoryStridedByteAddress`` per element: ``base[pe] + row * stride[pe] + column *
    element bytes`` (4-bit: ``column // 2``), modulo 2^64 (``Word`` arithmetic, uint64)."""
    b = np.array([int(x) & _WRAP for x in bases], np.uint64)[pes]
    s = np.array([int(x) & _WRAP for x in strides], np.uint64)[pes]
    col = cols // 2 if element_bits(dt) == 4 else cols * memory_bytes(dt)
    with np.errstate(over="ignore"):
        return b + rows.astype(np.uint64) * s + col.astype(np.uint64)


def gm_load(gm: GlobalMemory | np.ndarray, addr: np.ndarray, cols: np.ndarray, dt: TileDataType,
            *, agents: np.ndarray | int | None = None,
            order: MemoryOrder = MemoryOrder.RELAXED) -> np.ndarray:  # fmt: skip
    """``LoadTileMemoryElement`` for every address (little-endian; signed types sign-extended;
    4-bit: the nibble by column parity) after the preflight of all of them; one load event
    per access (agent ``agents``, default the current agent) while capturing."""
    mem = GlobalMemory.of(gm)
    nb = memory_bytes(dt)
    a = mem.probe(addr, nb, "TLOAD")
    raw = mem.data[a[:, None] + np.arange(nb)]
    padded = np.zeros((a.size, 8), np.uint8)
    padded[:, :nb] = raw
    words = padded.view("<u8").reshape(-1)
    mem.record("load", mem.agent if agents is None else agents, a, nb, words, order)
    if element_bits(dt) == 4:
        return np.where(cols % 2 == 1, words >> np.uint64(4), words) & np.uint64(0xF)
    if dt.is_signed and nb < 8:
        shift = np.uint64(64 - 8 * nb)
        words = ((words << shift).view(np.int64) >> np.int64(64 - 8 * nb)).view(np.uint64)
    return words


def gm_store(gm: GlobalMemory | np.ndarray, addr: np.ndarray, cols: np.ndarray, dt: TileDataType,
             words: np.ndarray, *, agents: np.ndarray | int | None = None,
             order: MemoryOrder = MemoryOrder.RELAXED) -> None:  # fmt: skip
    """``StoreTileMemoryElement`` for every address in order (a later store to the same byte
    wins; 4-bit: a read-modify-write of one nibble), after the preflight of all of them; one
    store event per access while capturing."""
    mem = GlobalMemory.of(gm)
    nb = memory_bytes(dt)
    a = mem.probe(addr, nb, "TSTORE")
    w = np.asarray(words, np.uint64)
    who = mem.agent if agents is None else agents
    if element_bits(dt) == 4:
        stored = _nibble_stores(mem.data, a, cols % 2 == 1, (w & np.uint64(0xF)).astype(np.uint8))
        mem.record("store", who, a, 1, stored, order)
        pos, val = _last_per_address(a, stored)
        mem.data[pos] = val
        return
    mask = np.uint64(_WRAP if nb == 8 else (1 << 8 * nb) - 1)
    mem.record("store", who, a, nb, w & mask, order)
    data = w.astype("<u8").view(np.uint8).reshape(-1, 8)[:, :nb]
    pos, val = _last_per_address((a[:, None] + np.arange(nb)).reshape(-1), data.reshape(-1))
    mem.data[pos] = val


def _nibble_stores(data: np.ndarray, a: np.ndarray, high: np.ndarray,
                   nibble: np.ndarray) -> np.ndarray:  # fmt: skip
    """The byte each 4-bit store of an ordered sequence writes (its read-modify-write sees
    every earlier store to the same byte): per byte, the low nibble of the last earlier-or-
    same low store (else the old byte's), likewise the high one. Vectorised with a stable
    sort by address and running maxima of store positions."""
    n = a.size
    if n == 0:
        return np.zeros(0, np.uint8)
    perm = np.argsort(a, kind="stable")
    sa, sh, sn = a[perm], high[perm], nibble[perm]
    pos = np.arange(n)
    start = np.maximum.accumulate(np.where(np.r_[True, sa[1:] != sa[:-1]], pos, 0))
    last_lo = np.maximum.accumulate(np.where(~sh, pos, -1))
    last_hi = np.maximum.accumulate(np.where(sh, pos, -1))
    old = data[sa]
    lo = np.where(last_lo >= start, sn[np.maximum(last_lo, 0)], old & 0xF)
    hi = np.where(last_hi >= start, sn[np.maximum(last_hi, 0)], old >> 4)
    out = np.empty(n, np.uint8)
    out[perm] = (hi.astype(np.uint8) << 4) | lo.astype(np.uint8)
    return out


def _last_per_address(pos: np.ndarray, val: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The last value written to each address of an ordered write sequence."""
    if pos.size == 0:
        return pos, val
    uniq, first_from_end = np.unique(pos[::-1], return_index=True)
    return uniq, val[::-1][first_from_end]


__all__ = [
    "APPLICATION_REGION_BYTES",
    "MODEL_MEMORY_BYTES",
    "GlobalMemory",
    "MemoryEvent",
    "dense_row_stride",
    "element_bits",
    "gm_addresses",
    "gm_load",
    "gm_store",
    "memory_bytes",
]
