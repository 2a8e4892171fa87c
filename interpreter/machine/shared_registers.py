"""The Shared tile registers S0..S255 and their data movement (PTO-SPEC 2; D13, D14).

Sources (pto-spec e599a3d3): ``asl/tile/model/state/shared-registers.asl`` (the record, its
atomic update, undefined reads, materialisation, read schemas), ``asl/tile/model/capacity/
shared.asl`` (``SharedTileCapacityInUse``, ``CoreTileCapacityInUse``) and ``asl/tile/model/
memory/shared-movement.asl`` (``SharedTileElementRegion``, ``TLOADShared``, ``TSTOREShared``).

A Shared register outlives blocks. Its record (:class:`SharedRecord`) holds one tile descriptor
(:class:`SharedDescriptor`), the **allocation mask** fixed by the first nonzero write, the
**initialized mask** (one bit per fixed-offset quarter), the **published** flag and one payload:
the raw word of every physical element (``rows x columns``, in the layout's linear order). The
payload is split by byte offset into four quarters; quarter ``q`` belongs to PE ``q``
(:func:`element_quarters`; masks are written PE0 leftmost, as everywhere in this project).

* A read of an element whose register has no descriptor, or whose quarter is not initialized,
  returns the ASL's deterministic undefined word ``shared_id XOR element``
  (``UndefinedSharedTileWord``) and changes nothing.
* :meth:`SharedRegisters.update` is ``AtomicUpdateSharedTileWithPublication``: the first
  nonzero update installs the descriptor (capacity checked: Local tiles plus Shared tiles plus
  the new charge within ``tile_capacity``); a later one must name a subset of the allocation
  mask and an identical descriptor (``SharedTileDescriptorsCompatible``), else it returns False
  and changes nothing; a zero mask is a true no-op.
* Capacity: a valid record charges ``popcount(allocation) x capacity`` (ADR-0013), counted with
  the Local tiles of the attached :class:`~interpreter.machine.tile_registers.TileRegisters`
  (:attr:`SharedRegisters.core_capacity_in_use`); the Local file counts the Shared charge when
  it allocates.

Words are 64-bit raw element encodings (signed integers sign-extended, as the ASL's loads
produce them; 4-bit elements one nibble). Elements outside a descriptor's valid rectangle are
never read by a Shared consumer (each checks its rectangle against the valid one), so the model
stores zeros there. GM is a byte array (``numpy.uint8``) or an
:class:`~interpreter.machine.global_memory.GlobalMemory`; a GM access outside the permitted region is
the ASL's DataPage fault, one not aligned to its element size DataAlignment, each with the
first faulting access's address and before any effect (docs/gm-faults.md); while event
capture is on, each access records a memory event of its PE.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from interpreter.machine.descriptors import (
    derived_rows,
    logical_capacity,
    minimum_capacity,
    shape_legal,
    size_code_bytes,
)
from interpreter.machine.global_memory import (  # gm_load / gm_store re-exported
    GlobalMemory,
    element_bits,
    gm_addresses,
    gm_load,
    gm_store,
)
from interpreter.machine.tile_registers import TileRegisters
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import Layout, core_allocation_bytes, fractal_inner_elements
from pto_dialect.memory_model import MemoryOrder

if TYPE_CHECKING:
    from interpreter.machine.tile_registers import TileRegisters

SHARED_REGISTERS = 256
"""``PTO_SHARED_TILE_COUNT``: S0..S255."""
SHARED_MAX_BYTES = 256 * 1024
"""``PTO_SHARED_TILE_MAX_ALLOCATION_BYTES`` (SizeCode 12)."""
FULL = "1111"
NONE = "0000"
_TL = FaultKind.TILE_LEGALITY


@dataclass(frozen=True)
class SharedDescriptor:
    """The descriptor fields a Shared tile carries (location is always Any; no CUBE fields)."""

    capacity: int
    rows: int
    columns: int
    valid_rows: int
    valid_columns: int
    dtype: TileDataType
    layout: Layout = Layout.ROW_MAJOR

    @property
    def elements(self) -> int:
        return self.rows * self.columns

    def generic_indexing(self) -> bool:
        """``TileGenericIndexingPermitted``: a linear layout whose fractals tile the shape."""
        if self.layout in (Layout.ROW_MAJOR, Layout.COL_MAJOR):
            return True
        if self.layout not in (Layout.ZN, Layout.NZ):
            return False
        return self.rows % 16 == 0 and self.columns % fractal_inner_elements(self.dtype) == 0

    def shape_compatible(self, limit: int) -> bool:
        """The descriptor part of ``SharedTileUpdateCompatible`` / ``SharedTileDescriptorLegal``:
        not CUBE, a Shared capacity, rows derived exactly, valid within, generic indexing."""
        cap = self.capacity
        return (not self.layout.is_cube and shared_capacity_legal(cap, limit)
                and derived_rows(cap, self.columns, self.dtype) == self.rows
                and self.valid_rows <= self.rows and self.valid_columns <= self.columns
                and self.elements <= logical_capacity(cap, self.dtype)
                and self.generic_indexing())  # fmt: skip

    def linear(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """``TileLogicalLinearIndex`` of (row, column) arrays (the linear layouts, vectorised
        like :func:`pto_dialect.geometry.linear_index`)."""
        r, c = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
        if self.layout is Layout.ROW_MAJOR:
            return r * self.columns + c
        if self.layout is Layout.COL_MAJOR:
            return c * self.rows + r
        inner = fractal_inner_elements(self.dtype)
        block = 16 * inner
        br, bc, ir, ic = r // 16, c // inner, r % 16, c % inner
        if self.layout is Layout.ZN:
            return (br * (self.columns // inner) + bc) * block + ic * 16 + ir
        return (bc * (self.rows // 16) + br) * block + ir * inner + ic

    def valid_elements(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Row, column and linear index of every valid element, row-major order."""
        r, c = np.divmod(np.arange(self.valid_rows * self.valid_columns), self.valid_columns)
        return r, c, self.linear(r, c)


def shared_capacity_legal(capacity: int, limit: int) -> bool:
    """``SharedTileCapacityIsLegal`` (128 B multiples up to 256 KiB and ``tile_capacity``)."""
    return 128 <= capacity <= min(SHARED_MAX_BYTES, limit) and capacity % 128 == 0


def element_quarters(desc: SharedDescriptor, elements: np.ndarray | None = None) -> np.ndarray:
    """``SharedTileElementRegion``: the quarter (= the PE) of each element, by byte offset."""
    e = np.arange(desc.elements) if elements is None else np.asarray(elements, np.int64)
    return (e * element_bits(desc.dtype) // 8) * 4 // desc.capacity


def selected(mask: str, quarters: np.ndarray) -> np.ndarray:
    """Elements whose quarter's PE the mask selects (mask text PE0 leftmost)."""
    bits = np.array([c == "1" for c in mask])
    return bits[quarters]


def undefined_words(shared_id: int, elements: np.ndarray) -> np.ndarray:
    """``UndefinedSharedTileWord``: ``ZeroExtend(shared_id) XOR element`` (not a portable value)."""
    return np.uint64(shared_id) ^ np.asarray(elements, np.uint64)


def _or(a: str, b: str) -> str:
    return "".join("1" if "1" in (x, y) else "0" for x, y in zip(a, b))


def _subset(a: str, b: str) -> bool:
    return all(y == "1" for x, y in zip(a, b) if x == "1")


@dataclass(frozen=True)
class SharedTile:
    """A tile value offered to or read from a Shared register (the ASL's ``TileInfo``): its
    descriptor, the raw word of every physical element and which elements are defined."""

    desc: SharedDescriptor
    words: np.ndarray
    defined: np.ndarray

    @classmethod
    def empty(cls, desc: SharedDescriptor) -> SharedTile:
        return cls(desc, np.zeros(desc.elements, np.uint64), np.zeros(desc.elements, bool))

    @property
    def contents_defined(self) -> bool:
        return bool(self.defined[self.desc.valid_elements()[2]].all())


@dataclass(frozen=True)
class SharedRecord:
    """One valid Shared register (an invalid one is simply absent)."""

    tile: SharedTile
    allocation: str
    initialized: str
    published: bool
    contents_defined: bool

    @property
    def desc(self) -> SharedDescriptor:
        return self.tile.desc


class SharedRegisters:
    """S0..S255 (``_SharedTiles``) beside a Local register file whose capacity they share."""

    def __init__(self, local: TileRegisters | None = None) -> None:
        if local is None:

            local = TileRegisters()
        self.local = local
        local.shared = self  # the Local file charges the Shared tiles when it allocates
        self._records: dict[int, SharedRecord] = {}

    # -- state queries ----------------------------------------------------------------------
    @property
    def tile_capacity(self) -> int:
        return self.local.tile_capacity

    def record(self, shared_id: int) -> SharedRecord | None:
        """The valid record of S``shared_id``, or None (no descriptor)."""
        return self._records.get(self._check(shared_id))

    @property
    def capacity_in_use(self) -> int:
        """``SharedTileCapacityInUse``."""
        return sum(core_allocation_bytes(r.allocation, r.desc.capacity)
                   for r in self._records.values())  # fmt: skip

    @property
    def core_capacity_in_use(self) -> int:
        """``CoreTileCapacityInUse``: Local plus Shared charges."""
        return self.local.capacity_in_use + self.capacity_in_use

    def descriptor_legal(self, shared_id: int) -> bool:
        """``SharedTileDescriptorLegal``."""
        r = self.record(shared_id)
        return (r is not None and r.allocation != NONE and _subset(r.initialized, r.allocation)
                and r.desc.shape_compatible(self.tile_capacity))  # fmt: skip

    def fully_initialized(self, shared_id: int) -> bool:
        """``SharedTileFullyInitialized``."""
        r = self.record(shared_id)
        return r is not None and r.initialized == r.allocation and r.contents_defined

    def published(self, shared_id: int) -> bool:
        """``SharedTilePublished``."""
        r = self.record(shared_id)
        return self.fully_initialized(shared_id) and r is not None and r.published

    def cooperative_ready(self, shared_id: int) -> bool:
        """``SharedTileCooperativeMatrixReady``: legal, on all four PEs, initialized, published."""
        r = self.record(shared_id)
        return (self.descriptor_legal(shared_id) and r is not None and r.allocation == FULL
                and r.initialized == FULL and r.published and r.contents_defined)  # fmt: skip

    def read_words(self, shared_id: int, elements: np.ndarray | Sequence[int]) -> np.ndarray:
        """``ReadSharedTileWord`` for each element (read-only; never faults or allocates)."""
        e = np.asarray(elements, np.int64)
        undefined = undefined_words(shared_id, e)
        r = self.record(shared_id)
        if r is None:
            return undefined
        if e.size and (e.min() < 0 or e.max() >= r.desc.elements):
            raise ValueError(f"S{shared_id} has {r.desc.elements} elements; element "
                             f"{int(e.max()) if e.max() >= 0 else int(e.min())} is outside it")  # fmt: skip
        init = selected(r.initialized, element_quarters(r.desc, e))
        return np.where(init, r.tile.words[e], undefined)

    def read_word(self, shared_id: int, element: int) -> int:
        return int(self.read_words(shared_id, [element])[0])

    def materialize(self, shared_id: int, mask: str) -> SharedTile:
        """``MaterializeSharedTile``: a read-only snapshot; quarters the mask selects carry the
        register's words (undefined words where uninitialized); the others keep the stored ones."""
        r = self.record(shared_id)
        assert r is not None and self.descriptor_legal(shared_id)
        sel = selected(mask, element_quarters(r.desc))
        e = np.arange(r.desc.elements)
        words = np.where(sel, self.read_words(shared_id, e), r.tile.words)
        return SharedTile(r.desc, words, sel.copy())

    # -- update ---------------------------------------------------------------------------------
    def update_compatible(self, shared_id: int, tile: SharedTile, mask: str) -> bool:
        """``SharedTileUpdateCompatible``."""
        if mask == NONE:
            return True
        if not tile.desc.shape_compatible(self.tile_capacity):
            return False
        old = self.record(shared_id)
        if old is not None:
            return _subset(mask, old.allocation) and old.desc == tile.desc
        need = core_allocation_bytes(mask, tile.desc.capacity)
        return self.core_capacity_in_use + need <= self.tile_capacity

    def prospective_fully_initialized(self, shared_id: int, tile: SharedTile, mask: str) -> bool:
        """``SharedTileProspectiveFullyInitialized`` (the PUBLISH precondition)."""
        if mask == NONE or not self.update_compatible(shared_id, tile, mask):
            return False
        old = self.record(shared_id)
        return old is None or _or(old.initialized, mask) == old.allocation

    def update(self, shared_id: int, tile: SharedTile, mask: str, publish: bool = True) -> bool:
        """``AtomicUpdateSharedTileWithPublication``: one record assignment; False (and no
        change) when the update is not compatible. ``AtomicUpdateSharedTile`` is
        ``publish=True``."""
        self._check(shared_id)
        if mask == NONE:
            return True
        if not self.update_compatible(shared_id, tile, mask):
            return False
        old = self.record(shared_id)
        if old is None:
            self._records[shared_id] = SharedRecord(
                SharedTile(tile.desc, tile.words.astype(np.uint64, copy=True),
                           tile.defined.copy()), mask, mask, publish, True)  # fmt: skip
            return True
        take = selected(mask, element_quarters(tile.desc)) & tile.defined
        words = np.where(take, tile.words, old.tile.words)
        initialized = _or(old.initialized, mask)
        full = initialized == old.allocation
        self._records[shared_id] = SharedRecord(
            SharedTile(old.desc, words, old.tile.defined | take), old.allocation, initialized,
            old.published or (publish and full), full)  # fmt: skip
        return True

    def install(self, shared_id: int, tile: SharedTile, mask: str) -> None:
        """``InstallSharedTile`` (the AVS harness): an update that must succeed."""
        if not self.update(shared_id, tile, mask):
            raise ValueError(f"S{shared_id}: the tile is not update-compatible (capacity, "
                             "descriptor or mask)")  # fmt: skip

    # -- read schemas ---------------------------------------------------------------------------
    def read_schema_legal_at_capacity(self, shared_id: int, valid_rows: int, valid_columns: int,
                                      columns: int, dt: TileDataType, layout: Layout,
                                      capacity: int) -> bool:  # fmt: skip
        """``SharedTileReadSchemaLegalAtCapacity``."""
        if layout.is_cube:
            return False
        r = self.record(shared_id)
        if r is not None:
            d = r.desc
            return (self.descriptor_legal(shared_id) and d.capacity == capacity
                    and d.columns == columns and valid_rows <= d.valid_rows
                    and valid_columns <= d.valid_columns and d.dtype == dt
                    and d.layout == layout)  # fmt: skip
        rows = derived_rows(capacity, columns, dt)
        return (shared_capacity_legal(capacity, self.tile_capacity)
                and shape_legal(capacity, columns, valid_rows, valid_columns, dt)
                and rows * columns <= logical_capacity(capacity, dt))  # fmt: skip

    def read_capacity(self, shared_id: int, valid_rows: int, valid_columns: int, columns: int,
                      dt: TileDataType) -> int:  # fmt: skip
        """The capacity a read schema uses: the descriptor's, or the smallest that holds it."""
        r = self.record(shared_id)
        if r is not None:
            return r.desc.capacity
        return minimum_capacity(columns, valid_rows, valid_columns, dt)

    def read_schema_legal(self, shared_id: int, valid_rows: int, valid_columns: int,
                          columns: int, dt: TileDataType, layout: Layout) -> bool:  # fmt: skip
        """``SharedTileReadSchemaLegal``."""
        cap = self.read_capacity(shared_id, valid_rows, valid_columns, columns, dt)
        return cap != 0 and self.read_schema_legal_at_capacity(
            shared_id, valid_rows, valid_columns, columns, dt, layout, cap)

    @staticmethod
    def read_descriptor(valid_rows: int, valid_columns: int, columns: int, dt: TileDataType,
                        layout: Layout, capacity: int) -> SharedDescriptor:  # fmt: skip
        """``MaterializeSharedTileForReadSchema[AtCapacity]``: the temporary read-only
        descriptor (rows derived); the words come from :meth:`read_words`."""
        return SharedDescriptor(capacity, derived_rows(capacity, columns, dt), columns,
                                valid_rows, valid_columns, dt, layout)  # fmt: skip

    # -- data movement (asl/tile/model/memory/shared-movement.asl) -----------------------------
    def tload(self, shared_id: int, gm: GlobalMemory | np.ndarray, bases: Sequence[int],
              strides: Sequence[int], size_code: int, rows: int, columns: int,
              valid_rows: int, valid_columns: int, dt: TileDataType, layout: Layout, mask: str,
              order: MemoryOrder = MemoryOrder.RELAXED) -> None:  # fmt: skip
        """``TLOADShared``: validate the descriptor and the update, preflight every selected
        GM access, then load the selected quarters' valid elements from their PE's base and
        byte row stride and update the register atomically. Faults before any effect."""
        if mask == NONE:
            return
        cap = size_code_bytes(size_code)
        derived = derived_rows(cap, columns, dt)
        if rows < valid_rows or rows > derived or derived * columns > logical_capacity(cap, dt) \
                or not shape_legal(cap, columns, valid_rows, valid_columns, dt):  # fmt: skip
            raise PTOFault(_TL, f"S{shared_id}: {valid_rows} x {valid_columns} (Col {columns}) "
                           f"{dt.name} does not fit SizeCode {size_code} ({cap} B): "
                           "TileDescriptorShapeLegal (asl/tile/model/memory/shared-movement.asl "
                           "TLOADShared)", op="TLOAD")  # fmt: skip
        desc = SharedDescriptor(cap, derived, columns, valid_rows, valid_columns, dt, layout)
        tile = SharedTile.empty(desc)
        if not self.update_compatible(shared_id, tile, mask):
            raise PTOFault(_TL, self._incompatible(shared_id, desc, mask), op="TLOAD")
        r, c, e = desc.valid_elements()
        q = element_quarters(desc, e)
        take = selected(mask, q)
        r, c, e, q = r[take], c[take], e[take], q[take]
        addr = gm_addresses(bases, strides, q, r, c, dt)
        words = gm_load(gm, addr, c, dt, agents=q, order=order)  # preflight, then read
        tile.words[e] = words
        tile.defined[e] = True
        updated = self.update(shared_id, tile, mask)
        assert updated

    def tstore(self, gm: GlobalMemory | np.ndarray, bases: Sequence[int], strides: Sequence[int],
               shared_id: int, desc: SharedDescriptor, mask: str,
               order: MemoryOrder = MemoryOrder.RELAXED) -> None:  # fmt: skip
        """``TSTOREShared``: every selected valid element of ``desc`` (the register's or a
        temporary read descriptor), read with :meth:`read_words`, to its PE's GM address.
        The whole footprint is preflighted before the first byte is written."""
        if mask == NONE:
            return
        r, c, e = desc.valid_elements()
        q = element_quarters(desc, e)
        take = selected(mask, q)
        r, c, e, q = r[take], c[take], e[take], q[take]
        addr = gm_addresses(bases, strides, q, r, c, dt := desc.dtype)
        gm_store(gm, addr, c, dt, self.read_words(shared_id, e), agents=q, order=order)

    # -- helpers --------------------------------------------------------------------------------
    def _incompatible(self, shared_id: int, desc: SharedDescriptor, mask: str) -> str:
        old = self.record(shared_id)
        if not desc.shape_compatible(self.tile_capacity):
            why = f"the descriptor {desc} is not a legal Shared descriptor"
        elif old is not None and not _subset(mask, old.allocation):
            why = f"mask={mask} is not within the allocation mask {old.allocation}"
        elif old is not None:
            why = f"the descriptor differs from the register's {old.desc}"
        else:
            need = core_allocation_bytes(mask, desc.capacity)
            why = (f"{need} B more core tile capacity with {self.core_capacity_in_use} B in use "
                   f"exceeds tile_capacity {self.tile_capacity} B")  # fmt: skip
        return (f"S{shared_id}: {why} (SharedTileUpdateCompatible, asl/tile/model/state/"
                "shared-registers.asl)")  # fmt: skip

    @staticmethod
    def _check(shared_id: int) -> int:
        if not isinstance(shared_id, int | np.integer) or not 0 <= shared_id < SHARED_REGISTERS:
            raise ValueError(f"S{shared_id!r} is not a Shared register (S0..S255)")
        return int(shared_id)


def tile_with(tile: SharedTile, **changes) -> SharedTile:
    """A copy of ``tile`` with descriptor fields replaced (e.g. ``columns=63``)."""
    return SharedTile(replace(tile.desc, **changes), tile.words.copy(), tile.defined.copy())
