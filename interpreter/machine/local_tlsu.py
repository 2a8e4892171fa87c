"""Local TLOAD / TSTORE on architectural state: byte GM, GPR operands, precise GM faults.

:class:`LocalTLSU` is the part of :class:`interpreter.machine.shared_blocks.Core` that runs the
ordinary Local memory blocks and their tile instructions against the core's byte-addressed
GM (:class:`interpreter.machine.global_memory.GlobalMemory`). Sources (pto-spec e599a3d3):

* the tile instructions ``TLOAD(destination, base, row_stride)`` / ``TSTORE(base, row_stride,
  source)`` of ``asl/tile/model/memory/load-store.asl``: every valid element at
  ``base + row * row_stride + column * element bytes`` (4-bit: ``column // 2``, the nibble by
  column parity); the whole footprint is probed in row-major order before the first byte
  moves (DataAlignment / DataPage with the first failing access's address); a load makes the
  valid region defined. :meth:`LocalTLSU.tload` / :meth:`LocalTLSU.tstore`.
* the ordinary Local blocks (``asl/block/model/dispatch/tile-execution.asl``,
  ``destination-shape.asl``) and the CUBE conversions ND2M32/ND2M16/ND2N8, M322ND/M162ND/N82ND
  (``tlsu-layout-conversion.asl`` ``ExecuteBundleCubeTransportOperation``). B.IOR RegSrc0 /
  RegSrc1 are read from the GPRs of the **dispatching agent** (``ReadScalarRegisterOperand``:
  ``ReadGPR`` of ``_CurrentMemoryAgent``, PE0 after reset; the Shared forms read each PE's own
  file, ``asl/scalar/model/types/operands.asl``); without B.IOR base 0 and the dense stride of
  Col (CUBE: of LB0). A TLOAD block derives its destination descriptor (rows from TSize, Col
  and the type; the B.DATR layout; location Any, or Matrix with the CUBE layout), resolves the
  lowest free register of the hand with its capacity charge (else TileAllocation), loads, and
  only then publishes the register: a faulting load leaves no register allocated (the ASL's
  ``RollBackBundleTileDestinations``).

The ASL's Local tile is one payload; ours holds one valid rectangle per PE (D13). A TLOAD
publishes the loaded rectangle on every selected PE (one load event per element). A TSTORE
stores the payload of each selected PE, in PE order, to the one footprint (the architecture
orders no conflicting PE accesses; with equal payloads the bytes are the ASL's, with one store
event per PE and element). Values are kept logically, so a CUBE conversion changes only the
descriptor, and the CUBE tail padding (PadValue) is outside the register's valid rectangle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from interpreter.kernels.storage import pe_indices
from interpreter.machine.descriptors import derived_rows, logical_capacity, shape_legal
from interpreter.machine.global_memory import dense_row_stride, gm_addresses, gm_load, gm_store
from interpreter.machine.words import raw_words, typed_values
from pto_dialect.attributes import TileType
from pto_dialect.block_ops import MOVE_LAYOUT_CODES
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import Location
from pto_dialect.isa import BlockSummary
from pto_dialect.isa.block import CUBE_MOVE_LAYOUTS
from pto_dialect.isa.commands import size_code_bytes
from pto_dialect.isa.errors import NotModelledError
from pto_dialect.memory_model import MemoryOrder, block_memory_order

if TYPE_CHECKING:
    from interpreter.machine.global_memory import GlobalMemory
    from interpreter.machine.shared_registers import SharedRegisters
    from interpreter.machine.tile_registers import TileRegisters

_TL = FaultKind.TILE_LEGALITY
_TA = FaultKind.TILE_ALLOCATION
LOAD_LAYOUT_OF_CODE = {codes[0]: layout for layout, codes in MOVE_LAYOUT_CODES.items()}
"""B.DATR Layout code of a Local TLOAD -> the destination layout (NORM, ND2DN, ND2ZN, ND2NZ,
ND2M32, ND2M16, ND2N8)."""
STORE_LAYOUT_OF_CODE = {codes[1]: layout for layout, codes in MOVE_LAYOUT_CODES.items()}
"""B.DATR Layout code of a Local TSTORE -> the source layout it stores."""


class LocalTLSU:
    """Local TLOAD / TSTORE of :class:`~interpreter.machine.shared_blocks.Core` (module docstring)."""

    local: TileRegisters
    shared: SharedRegisters
    memory: GlobalMemory

    def read_gpr(self, pe: int, reg: int) -> int:  # implemented by Core
        raise NotImplementedError

    def _resolve_destination(self, hand: int, mask: str, cap: int, name: str) -> int:
        raise NotImplementedError

    # -- the tile instructions (asl/tile/model/memory/load-store.asl) ---------------------------
    def tload(self, destination: int, base: int, row_stride: int,
              order: MemoryOrder = MemoryOrder.RELAXED) -> None:  # fmt: skip
        """``TLOAD``: the valid rectangle of allocated tile ``destination`` from GM; faults
        (DataAlignment / DataPage) before any effect; the register's contents become defined."""
        ttype = self._tile(destination, "TLOAD")
        self.local.write(destination, self._load(ttype, base, row_stride, order))

    def tstore(self, base: int, row_stride: int, source: int,
               order: MemoryOrder = MemoryOrder.RELAXED) -> None:  # fmt: skip
        """``TSTORE``: the valid rectangle of tile ``source`` (allocated, contents defined) to
        GM, every PE that holds it in PE order; faults before any GM byte changes."""
        ttype = self._tile(source, "TSTORE")
        if not self.local.contents_defined(source):
            raise PTOFault(_TL, f"source tile {source} has no defined contents "
                           "(TileSourceContentsDefined)", op="TSTORE")  # fmt: skip
        self._store(ttype, self.local.read(source), ttype.pe_mask, base, row_stride, order)

    # -- the blocks -----------------------------------------------------------------------------
    def _local_tlsu(self, s: BlockSummary, dt: TileDataType) -> int | None:
        """One ordinary or CUBE-conversion Local TLOAD / TSTORE block (already through
        :func:`pto_dialect.isa.check_block`); returns the register a TLOAD allocated."""
        name = s.op_name or "TLSU"
        code = s.datr.layout if s.datr_present else 0
        cube = code in CUBE_MOVE_LAYOUTS
        if s.fpatr is not None:
            raise _fault(_TL, f"{name} takes no B.FPATR", name, cube)
        lb = [self._lb(s, k) for k in range(3)]
        order = block_memory_order(s.catr)
        if s.start.function == 0:
            return self._tload_block(s, dt, name, code, cube, lb, order)
        self._tstore_block(s, dt, name, code, cube, lb, order)
        return None

    def _tload_block(self, s, dt, name, code, cube, lb, order) -> int:
        vc = lb[0] or 1
        vr = lb[1] or 1
        col = lb[2] or vc
        hand, size = s.destinations[0]
        cap, mask = size_code_bytes(size), s.mask
        layout = LOAD_LAYOUT_OF_CODE[code]
        if cube:
            ttype = TileType((vr, vc), dt, layout=layout, location=Location.MAT, size=cap,
                             pe=mask)  # fmt: skip
            if ttype.legality_errors():
                raise _fault(_TA, f"a {vr} x {vc} {dt.name} {layout.value} tile does not fit "
                             f"SizeCode {size} ({cap} B): TileCubeDescriptorShapeLegal", name,
                             cube)  # fmt: skip
        else:

            rows = derived_rows(cap, col, dt)
            if not shape_legal(cap, col, vr, vc, dt) or rows * col > logical_capacity(cap, dt):
                raise _fault(_TA, f"{vr} x {vc} (Col {col}) {dt.name} does not fit SizeCode "
                             f"{size} ({cap} B): TileDescriptorShapeLegal", name, cube)  # fmt: skip
            ttype = TileType((rows, col), dt, valid=(vr, vc), layout=layout,
                             location=Location.ANY, size=cap, pe=mask)  # fmt: skip
            errs = ttype.legality_errors()
            if errs:
                raise _fault(_TL, f"the destination descriptor is illegal: {'; '.join(errs)}",
                             name, cube)  # fmt: skip
        dst = self._resolve_destination(hand, mask, cap, name)
        base, stride = self._block_gm_operands(s, vc if cube else col, dt)
        value = self._load(ttype, base, stride, order)  # faults here leave dst unallocated
        self.local.configure(dst, ttype, value)
        return dst

    def _tstore_block(self, s, dt, name, code, cube, lb, order) -> None:
        src = s.sources[0]
        ttype = self._tile(src, name)
        vr, vc = ttype.valid_shape
        want = (vc, vr, None if cube else ttype.shape[1])
        errs = []
        if not self.local.contents_defined(src):
            errs.append("its contents are not defined (TileSourceContentsDefined)")
        if ttype.dtype != dt:
            errs.append(f"its type {ttype.dtype.name} is not the BSTART DataType {dt.name}")
        if ttype.layout_kind is not STORE_LAYOUT_OF_CODE[code]:
            errs.append(f"its layout {ttype.layout_kind.value} is not what B.DATR Layout {code} "
                        "stores")  # fmt: skip
        if any(m == "1" and h == "0" for m, h in zip(s.mask, ttype.pe_mask)):
            errs.append(f"a selected PE (mask {s.mask}) does not hold it ({ttype.pe_mask})")
        for k, (have, w) in enumerate(zip(lb, want)):
            if have is not None and w is not None and have != w:
                errs.append(f"LB{k} = {have}, the tile says {w}")
        if errs:
            raise _fault(_TL, f"source tile {src}: " + "; ".join(errs), name, cube)
        base, stride = self._block_gm_operands(s, vc if cube else ttype.shape[1], dt)
        self._store(ttype, self.local.read(src), s.mask, base, stride, order)

    # -- helpers --------------------------------------------------------------------------------
    def _block_gm_operands(self, s: BlockSummary, columns: int, dt: TileDataType) -> tuple[int, int]:
        """B.IOR RegSrc0 / RegSrc1 of the dispatching agent's GPRs, or base 0 and the dense
        stride of ``columns`` without B.IOR."""
        ior = s.scalars
        if ior is None:
            return 0, dense_row_stride(columns, dt)
        agent = self.memory.agent
        return self.read_gpr(agent, ior.src0), self.read_gpr(agent, ior.src1)

    def _load(self, ttype: TileType, base: int, stride: int, order: MemoryOrder) -> np.ndarray:
        """The valid rectangle of ``ttype`` read from GM (row-major, one access per element)."""

        vr, vc = ttype.valid_shape
        r, c = np.divmod(np.arange(vr * vc), vc)
        addr = gm_addresses([base], [stride], np.zeros(r.size, np.int64), r, c, ttype.dtype)
        words = gm_load(self.memory, addr, c, ttype.dtype, order=order)
        return typed_values(ttype.dtype, words).reshape(vr, vc)

    def _store(self, ttype: TileType, payload: np.ndarray, mask: str, base: int, stride: int,
               order: MemoryOrder) -> None:  # fmt: skip
        """Each selected PE's valid rectangle (``payload`` is ``(P, VR, VC)`` in the order of
        the tile's PEs) to the one footprint, PE order, after one preflight of all accesses."""

        held = pe_indices(ttype.pe_mask)
        pes = [held.index(p) for p in pe_indices(mask) if p in held]
        vr, vc = ttype.valid_shape
        r, c = np.divmod(np.arange(vr * vc), vc)
        addr = gm_addresses([base], [stride], np.zeros(r.size, np.int64), r, c, ttype.dtype)
        n = len(pes)
        words = raw_words(ttype, payload[pes].reshape(-1))
        gm_store(self.memory, np.tile(addr, n), np.tile(c, n), ttype.dtype, words, order=order)

    def _tile(self, index: int, op: str) -> TileType:
        if not self.local.allocated(index):
            raise PTOFault(_TL, f"tile {index} is not allocated (TileDescriptorLegal)", op=op)
        ttype = self.local.type_of(index)
        if not isinstance(ttype, TileType):
            raise PTOFault(_TL, f"tile {index} is a predicate tile: TLOAD/TSTORE move data "
                           "tiles (TileRegularTLSUDataTypeSupported)", op=op)  # fmt: skip
        return ttype

    @staticmethod
    def _lb(s: BlockSummary, k: int) -> int | None:
        """LB``k``'s immediate, None when unwritten (register-form B.DIM: not modelled)."""
        if s.lb_regs[k] is not None:
            raise NotModelledError(f"B.DIM LB{k} from a GPR: Core's blocks take immediate LBs")
        return s.lb[k] if s.lb_written[k] else None


def _fault(kind: FaultKind, msg: str, op: str, cube: bool) -> PTOFault:
    unit = "tlsu-layout-conversion" if cube else "tile-execution"
    return PTOFault(kind, f"at block completion: {msg} (asl/block/model/dispatch/{unit}.asl)",
                    op=op)  # fmt: skip


__all__ = ["LOAD_LAYOUT_OF_CODE", "STORE_LAYOUT_OF_CODE", "LocalTLSU"]
