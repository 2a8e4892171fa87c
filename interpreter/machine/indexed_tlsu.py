"""The global-memory TLSU operations on architectural state (D25; docs/gm-indexed.md).

:class:`IndexedTLSU` is the part of :class:`interpreter.machine.shared_blocks.Core` that runs TLSU
Functions 3 TPREFETCH, 4 MGATHER, 5 MSCATTER, 6 MGATHER.MASK, 7 MSCATTER.MASK, 8 MGATHER.CAS
and 13 GMOV, both as tile instructions by register number (the AVS tile tests' ``MGATHER(
destination, base, indices, pad)`` ..., ``asl/tile/model/memory/gather-scatter.asl``,
``atomics.asl``) and as decoded blocks (``asl/block/model/dispatch/tlsu-mgather.asl``,
``tlsu-mgather-mask.asl``, ``tlsu-mgather-cas.asl``, ``tlsu-mscatter.asl``,
``tlsu-mscatter-mask.asl``, ``tlsu-gmov.asl``, ``tlsu-prefetch.asl``; read, not copied).

Block order (each check before any effect; the zero PE mask is a strict no-op before all of
them, :func:`pto_dialect.isa.check_block`): no B.IOS, the operation's B.IOT schema, B.IOR
present (the indexed forms) with its unused fields zero, LB0 present and every present LB
nonzero, ``ValidCol <= Col``, Col a power of two, ``ValidRow x ValidCol <= 32768``
(TileLegality); the B.DATR fields the operation accepts (PadValue and Layout for the gathers,
Layout for the others; TileLegality); the sources' definedness, types, valid shapes and
layouts (TileLegality); the destination (lowest free register of its hand, capacity charged,
else TileAllocation); then the kernel (:mod:`interpreter.kernels.indexed`), whose DataAlignment /
DataPage preflight of every lane precedes every event and byte; a fault there leaves the
destination unallocated (``RollBackBundleTileDestinations``).

The ASL's Local tile is one payload and the base is the dispatching agent's GPR; ours holds one
valid rectangle per PE (D13), so each selected PE gathers / scatters with its own index (and
mask, data) rectangle, all PEs' lanes preflighted together (PE order, then row-major), from
the one base. GMOV reads each selected PE's ``peer_tid`` from its own GPR file and copies the
source fragment of that peer (``asl/tile/memory-and-data-movement/pe-movement/GMOV.asl``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from interpreter.kernels.indexed import (
    byte_addresses,
    compare_and_swap,
    element_bytes,
    gather,
    prefetch,
    scatter,
    transfer_type_legal,
)
from interpreter.kernels.padding import pad_bits, parse_pad
from interpreter.machine.shared_registers import derived_rows, logical_capacity, shape_legal
from interpreter.ssa.runtime import pe_indices, storage_dtype
from pto_dialect.attributes import TileType
from pto_dialect.block_ops import MOVE_LAYOUT_CODES
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import Layout, Location
from pto_dialect.gm_indexed import CARRIER_RULE, carrier_or_packed_supported
from pto_dialect.isa import BIot, BlockSummary
from pto_dialect.isa.commands import size_code_bytes
from pto_dialect.isa.errors import NotModelledError
from pto_dialect.memory_model import MemoryOrder, block_memory_order
from pto_dialect.predicate import PredicateTileType

if TYPE_CHECKING:
    from interpreter.machine.global_memory import GlobalMemory
    from interpreter.machine.tile_registers import TileRegisters

_TL = FaultKind.TILE_LEGALITY
_TA = FaultKind.TILE_ALLOCATION
PES = 4
MODEL_TILE_ELEMENTS = 32768
"""``PTO_MODEL_TILE_ELEMENTS`` (asl/arch/features/tile-allocation.asl)."""
INDEXED_FUNCTIONS = {3: "TPREFETCH", 4: "MGATHER", 5: "MSCATTER", 6: "MGATHER_MASK",
                     7: "MSCATTER_MASK", 8: "MGATHER_CAS", 13: "GMOV"}  # fmt: skip
"""TLSU function -> the operation :class:`IndexedTLSU` runs (the decoded-dispatch rows)."""
LAYOUT_OF_CODE = {codes[0]: layout for layout, codes in MOVE_LAYOUT_CODES.items()
                  if not layout.is_cube}  # fmt: skip
"""B.DATR Layout code of an indexed TLSU block -> the layout (non-CUBE codes only)."""
GATHERS = ("MGATHER", "MGATHER_MASK", "MGATHER_CAS")


def words_of(values: np.ndarray) -> np.ndarray:
    """Stored element values -> their raw unsigned carrier words (same itemsize)."""
    a = np.asarray(values)
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.kind != "b" else a.astype(np.uint8)


def values_of(dt: TileDataType, words: np.ndarray) -> np.ndarray:
    """Raw carrier words -> the interpreter's storage of ``dt``."""
    sd = storage_dtype(dt)
    return np.asarray(words).astype(f"u{sd.itemsize}").view(sd)


def index_type_legal(dt: TileDataType) -> bool:
    """``IndexedTLSUIndexDataTypeLegal``: any signed or unsigned integer type (D25)."""
    return dt.is_integer


def _fault(kind: FaultKind, msg: str, op: str, unit: str) -> PTOFault:
    return PTOFault(kind, f"at block completion: {msg} (asl/block/model/dispatch/{unit}.asl)",
                    op=op)  # fmt: skip


class IndexedTLSU:
    """TPREFETCH, MGATHER*, MSCATTER*, GMOV of :class:`~interpreter.machine.shared_blocks.Core`."""

    local: TileRegisters
    memory: GlobalMemory

    def read_gpr(self, pe: int, reg: int) -> int:  # implemented by Core
        raise NotImplementedError

    def _resolve_destination(self, hand: int, mask: str, cap: int, name: str) -> int:
        raise NotImplementedError

    # -- the tile instructions (asl/tile/model/memory/gather-scatter.asl, atomics.asl) ---------
    def mgather(self, destination: int, base: int, indices: int, pad: str | int = "null",
                order: MemoryOrder = MemoryOrder.RELAXED) -> None:  # fmt: skip
        """``MGATHER``: allocated ``destination``'s valid region from ``base`` + the byte
        displacements of tile ``indices``; the rest of its physical region gets ``pad``."""
        dst = self._data_tile(destination, "MGATHER")
        self._gather_into(destination, dst, base, indices, None, None, None, pad, order,
                          "MGATHER")  # fmt: skip

    def mgather_mask(self, destination: int, base: int, indices: int, mask: int,
                     pad: str | int = "null", order: MemoryOrder = MemoryOrder.RELAXED) -> None:
        """``MGATHER_MASK``: as :meth:`mgather` for the lanes whose predicate bit is one; a
        disabled lane generates no address, check or event and holds ``pad``."""
        dst = self._data_tile(destination, "MGATHER_MASK")
        self._gather_into(destination, dst, base, indices, mask, None, None, pad, order,
                          "MGATHER_MASK")  # fmt: skip

    def mgather_cas(self, destination: int, base: int, indices: int, expected: int,
                    replacement: int, pad: str | int = "null",
                    order: MemoryOrder = MemoryOrder.RELAXED) -> None:  # fmt: skip
        """``MGATHER_CAS``: one atomic compare-and-swap per lane; ``destination`` receives
        the values observed."""
        dst = self._data_tile(destination, "MGATHER_CAS")
        self._gather_into(destination, dst, base, indices, None, expected, replacement, pad,
                          order, "MGATHER_CAS")  # fmt: skip

    def mscatter(self, base: int, source: int, indices: int,
                 order: MemoryOrder = MemoryOrder.RELAXED) -> None:  # fmt: skip
        """``MSCATTER``: every valid element of ``source`` to ``base`` + its displacement."""
        self._scatter(base, source, indices, None, None, order, "MSCATTER")

    def mscatter_mask(self, base: int, source: int, indices: int, mask: int,
                      order: MemoryOrder = MemoryOrder.RELAXED) -> None:  # fmt: skip
        """``MSCATTER_MASK``: :meth:`mscatter` of the lanes whose predicate bit is one."""
        self._scatter(base, source, indices, mask, None, order, "MSCATTER_MASK")

    def tprefetch(self, bases, row_strides, valid_columns: int, valid_rows: int, columns: int,
                  dt: TileDataType, order: MemoryOrder = MemoryOrder.RELAXED) -> None:
        """``TPREFETCHCore``: each PE's TLOAD footprint (``bases`` / ``row_strides`` one per PE
        or one for all; the stride in elements) probed for all four PEs before the first
        event, then one load event per element, PE by PE; no tile changes."""
        bases = list(bases) if np.ndim(bases) else [bases] * PES
        strides = list(row_strides) if np.ndim(row_strides) else [row_strides] * PES
        if not (1 <= valid_columns <= columns and columns & (columns - 1) == 0
                and valid_rows >= 1 and valid_rows * valid_columns <= MODEL_TILE_ELEMENTS):
            raise PTOFault(_TL, f"TPREFETCH: {valid_rows} x {valid_columns} in Col {columns} "
                           "(ValidCol <= Col, Col a power of two, at most 32768 elements)",
                           op="TPREFETCH")  # fmt: skip
        r, c = np.divmod(np.arange(valid_rows * valid_columns, dtype=np.uint64),
                         np.uint64(valid_columns))  # fmt: skip
        addr = []
        for p in range(PES):
            index = r * np.uint64(int(strides[p]) & (2**64 - 1)) + c
            off = index // np.uint64(2) if dt.packed_x2 else index * np.uint64(element_bytes(dt))
            with np.errstate(over="ignore"):
                addr.append(np.uint64(int(bases[p]) & (2**64 - 1)) + off)
        agents = np.repeat(np.arange(PES), r.size)
        prefetch(self.memory, np.concatenate(addr), dt, agents, order=order)

    def gmov(self, destination: int, source: int, peers, mask: str | None = None) -> None:
        """``GMOV``: each selected PE ``p`` (``mask``, default the destination's PEs) receives
        the source fragment of PE ``peers[p]`` (its private ``peer_tid``, 0..3), payload and
        definedness; the source must be held, defined, by all four PEs (Core4 readiness)."""
        src_t = self._data_tile(source, "GMOV")
        dst_t = self._data_tile(destination, "GMOV")
        peers = [int(x) for x in (peers if np.ndim(peers) else [peers] * PES)]
        if not carrier_or_packed_supported(src_t.dtype):
            raise PTOFault(_TL, f"GMOV: {src_t.dtype.name} is not supported ({CARRIER_RULE})",
                           op="GMOV")  # fmt: skip
        self._gmov_check(src_t, source, peers, "GMOV", "tlsu-gmov")
        mask = mask or dst_t.pe_mask
        payload = self.local.read(source)  # (4, VR, VC): the read-old snapshot
        self.local.write(destination, payload[[peers[p] for p in pe_indices(mask)]])

    # -- the blocks -----------------------------------------------------------------------------
    def _indexed_block(self, s: BlockSummary) -> tuple[str, int | None]:
        """One TLSU block of Functions 3-8 or 13 (already through ``check_block``, not a
        no-op); returns (operation, the register it allocated or None)."""
        fn = s.start.function
        name = INDEXED_FUNCTIONS[fn]
        if s.shared:
            raise _fault(_TL, f"{name} binds no Shared register: B.IOS is illegal", name,
                         "tlsu-" + name.lower().replace("_", "-"))  # fmt: skip
        if any(r is not None for r in s.lb_regs):
            raise NotModelledError(f"{name}: B.DIM from a GPR; Core's blocks take immediate LBs")
        order = block_memory_order(s.catr)
        if fn == 3:
            self._tprefetch_block(s, order)
            return name, None
        if fn == 13:
            return name, self._gmov_block(s)
        return name, self._memory_block(s, name, order)

    def _memory_block(self, s: BlockSummary, name: str, order: MemoryOrder) -> int | None:
        unit = "tlsu-" + name.lower().replace("_", "-")
        iots = [c for c in s.commands if isinstance(c, BIot) and c.pe_mode]
        schema = {
            "MGATHER": [(True, 1, True)],
            "MGATHER_MASK": [(True, 2, True)],
            "MSCATTER": [(False, 2, True)],
            "MSCATTER_MASK": [(False, 2, False), (False, 1, True)],
            "MGATHER_CAS": [(False, 2, False), (True, 1, True)],
        }[name]
        got = [(c.has_destination, len(c.sources), bool(c.last)) for c in iots]
        if got != schema or any(not c.has_destination and c.size_code for c in iots):
            raise _fault(_TL, f"{name} binds {_schema_text(schema)}; the block has "
                         f"{_schema_text(got)}", name, unit)  # fmt: skip
        ior = s.scalars
        if ior is None:
            raise _fault(_TL, f"{name} needs B.IOR (RegSrc0 = the base GPR)", name, unit)
        if ior.src1 or ior.src2 or ior.dst:
            raise _fault(_TL, f"{name} reads B.IOR RegSrc0 only: its other fields must be zero "
                         "(BundleOperationGPRBindingValuesLegal)", name, unit)  # fmt: skip
        vc, vr, col = self._indexed_dims(s, name, unit)
        layout = self._indexed_datr(s, name, unit)
        dt = self._block_type(s, name, unit)
        mask = s.mask
        srcs = list(s.sources)
        if name == "MGATHER":
            index, pmask, data, exp, rep = srcs[0], None, None, None, None
        elif name == "MGATHER_MASK":
            index, pmask, data, exp, rep = srcs[0], srcs[1], None, None, None
        elif name == "MGATHER_CAS":
            index, exp, rep, pmask, data = srcs[0], srcs[1], srcs[2], None, None
        elif name == "MSCATTER":
            data, index, pmask, exp, rep = srcs[0], srcs[1], None, None, None
        else:
            data, index, pmask, exp, rep = srcs[0], srcs[1], srcs[2], None, None
        errs: list[str] = []
        for role, reg in (("IndexTile", index), ("MaskTile", pmask), ("DataTile", data),
                          ("ExpectedTile", exp), ("ReplacementTile", rep)):  # fmt: skip
            if reg is not None:
                errs += self._source_errors(role, reg, mask, (vr, vc), dt, layout, name, col)
        if errs:
            raise _fault(_TL, "; ".join(errs), name, unit)
        if not transfer_type_legal(dt):
            raise _fault(_TL, f"{name}: packed 4-bit transfer type {dt.asm} is reserved for the "
                         "indexed TLSU (no nibble selector; IndexedTLSUTransferDataTypeLegal)",
                         name, unit)  # fmt: skip
        base = self.read_gpr(self.memory.agent, ior.src0)
        if name.startswith("MSCATTER"):
            self._scatter(base, data, index, pmask, mask, order, name)
            return None
        (hand, size), = s.destinations
        cap = size_code_bytes(size)
        rows = derived_rows(cap, col, dt)
        if not shape_legal(cap, col, vr, vc, dt) or rows * col > logical_capacity(cap, dt):
            raise _fault(_TA, f"{name}: {vr} x {vc} (Col {col}) {dt.name} does not fit SizeCode "
                         f"{size} ({cap} B): TileDescriptorShapeLegal", name,
                         "destination-shape")  # fmt: skip
        ttype = TileType((rows, col), dt, valid=(vr, vc), layout=layout, location=Location.ANY,
                         size=cap, pe=mask)  # fmt: skip
        dst = self._resolve_destination(hand, mask, cap, name)
        value = self._gathered(ttype, base, index, pmask, exp, rep, order, name, s.datr.pad)
        self.local.configure(dst, ttype, value)  # only after every lane succeeded
        self.local.apply_padding(dst, s.datr.pad)
        return dst

    def _tprefetch_block(self, s: BlockSummary, order: MemoryOrder) -> None:
        name, unit = "TPREFETCH", "tlsu-prefetch"
        code = s.start.dtype
        if code not in TileDataType._value2member_map_:
            raise _fault(_TL, f"TPREFETCH: DataType {code} is not a concrete tile type", name, unit)
        dt = TileDataType(code)
        if not carrier_or_packed_supported(dt):
            raise _fault(_TL, f"TPREFETCH: {dt.name} is not supported ({CARRIER_RULE})", name,
                         unit)  # fmt: skip
        if s.sources or s.destinations or [c for c in s.commands if isinstance(c, BIot)]:
            raise _fault(_TL, "TPREFETCH accepts no B.IOT or B.IOS binding", name, unit)
        ior = s.scalars
        if ior is not None and (ior.src2 or ior.dst):
            raise _fault(_TL, "TPREFETCH reads B.IOR RegSrc0 / RegSrc1 only", name, unit)
        for k in range(3):
            if s.lb_written[k] and not s.lb[k]:
                raise _fault(_TL, f"LB{k} is 0 (TPREFETCH dimensions are nonzero)", name, unit)
        vc = s.lb[0] if s.lb_written[0] else 1
        vr = s.lb[1] if s.lb_written[1] else 1
        col = s.lb[2] if s.lb_written[2] else vc
        if not (vc <= col and col & (col - 1) == 0 and vr * vc <= MODEL_TILE_ELEMENTS):
            raise _fault(_TL, f"TPREFETCH: {vr} x {vc} in Col {col} (ValidCol <= Col, Col a power "
                         "of two, at most 32768 elements)", name, unit)  # fmt: skip
        self._indexed_datr(s, name, unit, pad=False)
        if ior is None:
            bases, strides = [0] * PES, [col] * PES
        else:
            bases = [self.read_gpr(p, ior.src0) for p in range(PES)]
            strides = [self.read_gpr(p, ior.src1) for p in range(PES)]
        self.tprefetch(bases, strides, vc, vr, col, dt, order)

    def _gmov_block(self, s: BlockSummary) -> int:
        name, unit = "GMOV", "tlsu-gmov"
        iots = [c for c in s.commands if isinstance(c, BIot) and c.pe_mode]
        if (len(iots) != 1 or not iots[0].has_destination or len(iots[0].sources) != 1
                or not iots[0].last):  # fmt: skip
            raise _fault(_TL, "GMOV binds one terminating B.IOT with one source and one "
                         "destination", name, unit)  # fmt: skip
        ior = s.scalars
        if ior is not None and (ior.src1 or ior.src2 or ior.dst):
            raise _fault(_TL, "GMOV reads B.IOR RegSrc0 (peer_tid) only", name, unit)
        layout = self._indexed_datr(s, name, unit, pad=False)
        dt = self._block_type(s, name, unit)
        src = s.sources[0]
        (hand, size), = s.destinations
        if not self.local.allocated(src):
            raise _fault(_TL, f"source tile {src} is not allocated", name, unit)
        st = self.local.type_of(src)
        errs = []
        if not isinstance(st, TileType):
            errs.append(f"source tile {src} is a predicate tile")
        else:
            if size_code_bytes(size) != st.capacity:
                errs.append(f"destination TSize {size_code_bytes(size)} B is not the source's "
                            f"capacity {st.capacity} B")  # fmt: skip
            if st.dtype != dt:
                errs.append(f"source type {st.dtype.name} is not the BSTART DataType {dt.name}")
            if not carrier_or_packed_supported(dt):
                errs.append(f"{dt.name} is not supported ({CARRIER_RULE})")
            if st.layout_kind is not layout:
                errs.append(f"source layout {st.layout_kind.value} is not {layout.value}")
        if any(s.lb_written):
            errs.append("GMOV takes no B.DIM")
        if errs:
            raise _fault(_TL, "; ".join(errs), name, unit)
        assert isinstance(st, TileType)
        peers = [self.read_gpr(p, ior.src0) if ior is not None else 0 for p in range(PES)]
        self._gmov_check(st, src, peers, name, unit)
        dst = self._resolve_destination(hand, s.mask, st.capacity, name)
        ttype = TileType(st.shape, dt, valid=st.valid_shape, layout=st.layout_kind,
                         location=st.location_kind, size=st.capacity, pe=s.mask)  # fmt: skip
        payload = self.local.read(src)
        self.local.configure(dst, ttype, payload[[peers[p] for p in pe_indices(s.mask)]])
        return dst

    # -- helpers --------------------------------------------------------------------------------
    def _gmov_check(self, st: TileType, src: int, peers: list[int], name: str, unit: str) -> None:
        if st.pe_mask != "1111" or not self.local.contents_defined(src):
            raise _fault(_TL, f"source tile {src} is not Core4-ready: held by PEs {st.pe_mask}, "
                         "contents must be defined on all four (BundleGMOVCore4SourceReady)",
                         name, unit)  # fmt: skip
        bad = [(p, v) for p, v in enumerate(peers) if not 0 <= v < PES]
        if bad:
            raise _fault(_TL, f"peer_tid {bad[0][1]} of PE{bad[0][0]} is outside 0..3", name, unit)

    def _gathered(self, ttype: TileType, base: int, index: int, pmask: int | None,
                  exp: int | None, rep: int | None, order: MemoryOrder, name: str,
                  pad: str | int = "null") -> np.ndarray:  # fmt: skip
        """The destination's valid rectangles ``(P, VR, VC)``: the gathered (or observed) values
        of the enabled lanes; a disabled lane holds the pad value (Null: zero bits), as the
        ASL pads the whole physical region before it loads the enabled lanes."""
        dt = ttype.dtype
        pes = pe_indices(ttype.pe_mask)
        it = self.local.type_of(index)
        idx = self._per_pe(index, pes)
        addr = byte_addresses(base, idx.reshape(-1), it.dtype)
        on = None if pmask is None else self._per_pe(pmask, pes).reshape(-1).astype(bool)
        p = parse_pad(pad)
        fill = 0 if p == "null" else pad_bits(dt, p)
        words = np.full(addr.size, fill, f"<u{element_bytes(dt)}")
        if exp is not None and rep is not None:
            e = words_of(self._per_pe(exp, pes)).reshape(-1)
            r = words_of(self._per_pe(rep, pes)).reshape(-1)
            words[:] = compare_and_swap(self.memory, addr, dt, e, r, op=name, order=order)
        elif on is None:
            words[:] = gather(self.memory, addr, dt, op=name, order=order)
        else:
            words[on] = gather(self.memory, addr[on], dt, op=name, order=order)
        return values_of(dt, words).reshape(len(pes), *ttype.valid_shape)

    def _gather_into(self, destination, dst: TileType, base, indices, mask, exp, rep, pad,
                     order, name) -> None:  # fmt: skip
        """The tile-instruction gathers: operand checks, then the kernel, then the write."""
        shape = dst.valid_shape
        errs = []
        for role, reg in (("IndexTile", indices), ("MaskTile", mask), ("ExpectedTile", exp),
                          ("ReplacementTile", rep)):  # fmt: skip
            if reg is not None:
                errs += self._source_errors(role, reg, dst.pe_mask, shape, dst.dtype,
                                            dst.layout_kind if mask is not None else None, name)
        if not transfer_type_legal(dst.dtype):
            errs.append(f"packed 4-bit transfer type {dst.dtype.asm} (no nibble selector)")
        if errs:
            raise PTOFault(_TL, f"{name}: " + "; ".join(errs), op=name)
        value = self._gathered(dst, base, indices, mask, exp, rep, order, name, pad)
        self.local.write(destination, value)
        self.local.apply_padding(destination, pad)

    def _scatter(self, base, source, indices, mask, pe_mask, order, name) -> None:
        st = self._data_tile(source, name)
        pe_mask = pe_mask or st.pe_mask
        errs = self._source_errors("DataTile", source, pe_mask, st.valid_shape, st.dtype,
                                   st.layout_kind, name)  # fmt: skip
        for role, reg in (("IndexTile", indices), ("MaskTile", mask)):
            if reg is not None:
                errs += self._source_errors(role, reg, pe_mask, st.valid_shape, st.dtype,
                                            st.layout_kind, name)  # fmt: skip
        if not transfer_type_legal(st.dtype):
            errs.append(f"packed 4-bit transfer type {st.dtype.asm} (no nibble selector)")
        if errs:
            raise PTOFault(_TL, f"{name}: " + "; ".join(errs), op=name)
        pes = pe_indices(pe_mask)
        addr = byte_addresses(base, self._per_pe(indices, pes).reshape(-1),
                              self.local.type_of(indices).dtype)  # fmt: skip
        words = words_of(self._per_pe(source, pes)).reshape(-1)
        if mask is not None:
            on = self._per_pe(mask, pes).reshape(-1).astype(bool)
            addr, words = addr[on], words[on]
        scatter(self.memory, addr, st.dtype, words, op=name, order=order)

    def _per_pe(self, reg: int, pes: list[int]) -> np.ndarray:
        """Register ``reg``'s valid rectangles of PEs ``pes`` (each must hold it)."""
        held = pe_indices(self.local.type_of(reg).pe_mask)
        return self.local.read(reg)[[held.index(p) for p in pes]]

    def _source_errors(self, role: str, reg: int, mask: str, shape: tuple[int, int],
                       dt: TileDataType, layout: Layout | None, name: str,
                       col: int | None = None) -> list[str]:  # fmt: skip
        """TileLegality reasons of one source register (empty when legal)."""
        if not self.local.allocated(reg):
            return [f"{role} {reg} is not allocated"]
        t = self.local.type_of(reg)
        errs = []
        if not self.local.contents_defined(reg):
            errs.append(f"{role} {reg} has no defined contents (TileSourceContentsDefined)")
        if any(m == "1" and h == "0" for m, h in zip(mask, t.pe_mask)):
            errs.append(f"{role} {reg} is held by PEs {t.pe_mask}, not every PE of mask {mask}")
        if t.valid_shape != shape:
            errs.append(f"{role} {reg} valid shape {t.valid_shape[0]}x{t.valid_shape[1]} is not "
                        f"{shape[0]}x{shape[1]}")  # fmt: skip
        if role == "MaskTile":
            if not isinstance(t, PredicateTileType):
                errs.append(f"MaskTile {reg} is not a predicate tile (TilePredicateValuesLegal)")
            return errs
        assert isinstance(t, TileType) or role == "MaskTile"
        if not isinstance(t, TileType):
            return [*errs, f"{role} {reg} is a predicate tile"]
        if role == "IndexTile" and not index_type_legal(t.dtype):
            errs.append(f"IndexTile {reg} type {t.dtype.name} is not an integer type "
                        "(IndexedTLSUIndexDataTypeLegal)")  # fmt: skip
        if role in ("DataTile", "ExpectedTile", "ReplacementTile") and t.dtype != dt:
            errs.append(f"{role} {reg} type {t.dtype.name} is not the transfer type {dt.name}")
        if role == "DataTile" and col is not None and t.shape[1] != col:
            errs.append(f"DataTile {reg} Col {t.shape[1]} is not LB2 {col}")
        if layout is not None and role in ("IndexTile", "DataTile") and (
                name.startswith("MSCATTER") or name == "MGATHER_MASK") and (
                t.layout_kind is not layout):  # fmt: skip
            errs.append(f"{role} {reg} layout {t.layout_kind.value} is not {layout.value}")
        return errs

    def _data_tile(self, index: int, op: str) -> TileType:
        if not self.local.allocated(index):
            raise PTOFault(_TL, f"tile {index} is not allocated (TileDescriptorLegal)", op=op)
        t = self.local.type_of(index)
        if not isinstance(t, TileType):
            raise PTOFault(_TL, f"tile {index} is a predicate tile, not a data tile", op=op)
        return t

    @staticmethod
    def _indexed_dims(s: BlockSummary, name: str, unit: str) -> tuple[int, int, int]:
        """``BundleMGATHERDimensionsLegal``: (ValidCol, ValidRow, Col) with the defaults."""
        if not s.lb_written[0]:
            raise _fault(_TL, f"{name} needs LB0 (ValidCol)", name, unit)
        for k in range(3):
            if s.lb_written[k] and not s.lb[k]:
                raise _fault(_TL, f"LB{k} is 0 ({name} dimensions are nonzero)", name, unit)
        vc = s.lb[0]
        vr = s.lb[1] if s.lb_written[1] else 1
        col = s.lb[2] if s.lb_written[2] else vc
        assert vc is not None and vr is not None and col is not None
        if not (vc <= col and col & (col - 1) == 0 and vr * vc <= MODEL_TILE_ELEMENTS):
            raise _fault(_TL, f"{name}: {vr} x {vc} in Col {col} (ValidCol <= Col, Col a power of "
                         "two, at most 32768 elements)", name, unit)  # fmt: skip
        return vc, vr, col

    @staticmethod
    def _indexed_datr(s: BlockSummary, name: str, unit: str, pad: bool | None = None) -> Layout:
        """``SelectedBundleTileDataAttributesLegal``: Layout (a non-CUBE code) and, for the
        gathers, PadValue; every other explicit field zero."""
        if not s.datr_present:
            return Layout.ROW_MAJOR
        d = s.datr
        pad_ok = name in GATHERS if pad is None else pad
        bad = [n for n in ("cmode", "sat", "canonicalize", "rmode", "dtype") if getattr(d, n)]
        if d.pad and not pad_ok:
            bad.append("pad")
        if bad or d.layout not in LAYOUT_OF_CODE:
            raise _fault(_TL, f"{name}: B.DATR fields {bad} / Layout {d.layout} are not "
                         "applicable (TileOperationDATRFieldsLegal)", name, unit)  # fmt: skip
        return LAYOUT_OF_CODE[d.layout]

    @staticmethod
    def _block_type(s: BlockSummary, name: str, unit: str) -> TileDataType:
        code = s.start.dtype
        if code not in TileDataType._value2member_map_:
            raise _fault(_TL, f"{name}: DataType {code} is not a concrete tile type", name, unit)
        return TileDataType(code)


def _schema_text(schema) -> str:
    parts = [f"B.IOT({'dst, ' if d else ''}{n} source(s){', last' if last else ''})"
             for d, n, last in schema]  # fmt: skip
    return " + ".join(parts) or "no B.IOT"


__all__ = ["INDEXED_FUNCTIONS", "IndexedTLSU", "values_of", "words_of"]
