"""Decoded Shared (B.IOS) blocks on architectural state: :class:`Core` (PTO-SPEC 3; D12, D13).

The AVS tests of the Shared forms run command streams against architectural state: Local
tiles by register number, Shared registers S0..S255, per-PE GPRs and GM bytes. Our SSA blocks
cannot name an S register, so this is their level: :class:`Core` holds a Local register file
(:class:`~interpreter.machine.tile_registers.TileRegisters`), the Shared registers
(:class:`~interpreter.machine.shared_registers.SharedRegisters`, charged against the same
``tile_capacity``), four PEs' GPR files and a byte-addressed GM, and :meth:`Core.execute` runs
one block of decoded commands. GM accesses fault as the ASL's ``ProbeDataAccess`` (DataPage /
DataAlignment with the faulting address) and record memory events while capture is on
(:mod:`interpreter.machine.global_memory`); the ordinary Local TLOAD / TSTORE blocks and the CUBE
conversions run here too (:mod:`interpreter.machine.local_tlsu`, docs/gm-faults.md), the
global-memory blocks TPREFETCH, MGATHER*, MSCATTER* and GMOV
(:mod:`interpreter.machine.indexed_tlsu`, docs/gm-indexed.md), and so do the
unlinked Local TEPL and CUBE blocks, by register number (:mod:`interpreter.machine.core_local`,
docs/blocks.md "Decoded blocks on Core").

Order (pto-spec ``asl/block/model/dispatch/shared-tlsu.asl`` ``ExecuteBundleSharedTLSUOperation``
after the block checker's command and completion rules, :func:`pto_dialect.isa.check_block`):
a block whose bindings all have mask 0 is a strict no-op; exactly one effective B.IOS
(else TileLegality); a concrete transfer type; B.IOR fields the operation does not read
(BundleControl); B.DATR fields (TileLegality); then the function's schema, descriptor and
capacity rules and the GM preflight, every one before any effect. Functions:

* 0 TLOAD into S``n`` (destination B.IOS, SizeCode 1..12, no B.IOT, LB0/LB1/LB2 =
  ValidCol/ValidRow/Col all explicit): ``TLOADShared``; each selected PE reads its own base
  and byte row stride from B.IOR RegSrc0 / RegSrc1 of its GPR file (omitted B.IOR: base 0,
  dense stride).
* 1 TSTORE (mask 1111) and 14 TSTORE.SPART (any nonzero mask) from S``n`` (source B.IOS):
  ``TSTOREShared`` with the register's descriptor, or a temporary read-only one of the
  smallest capacity that holds the shape when S``n`` has none (its words are undefined words;
  nothing is allocated). LBs default to the descriptor's (else 1, 1, ValidCol).
* 9 TMOV.L2S.INSERT / 10 TMOV.L2S.PUBLISH: one source-only B.IOT (a Local register holding the
  tile on every selected PE, contents defined, TSize = the B.IOS SizeCode) and one destination
  B.IOS: an atomic update of the selected quarters, quarter ``q`` from PE ``q``'s payload
  (D13); PUBLISH needs the prospective initialized mask to cover the allocation mask.
* 11 TMOV.S2L.BROADCAST (mask 1111, allocation 1111, published) / 12 TMOV.S2L.EXTRACT (any
  subset; an unallocated or uninitialized S``n`` gives undefined words): one source B.IOS and
  one destination-only B.IOT: a new Local register of the hand (the lowest free one, capacity
  charged, else TileAllocation) receives the selected quarters on every PE of the mask; its
  contents are defined only for mask 1111.

CUBE blocks with B.IOS sources (TMATMUL, TMATMULMX and their .BIAS / .ACC forms): the right
group (B and its E8M0 scale) or both groups read from cooperative-ready Shared registers,
transposed by TransB / TransA; the result comes from the same verifier and kernel as every other
level (``tile_registers.run_tile_instruction``). B.FPATR post-processing on Shared operands is
refused (:class:`~pto_dialect.isa.errors.NotModelledError`).

Local registers hold their valid rectangle only, so an EXTRACT's destination bits outside the
selected quarters are not kept (they are undefined; the ASL keeps the register's old bits).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from interpreter.machine.block_control import BlockResult
from interpreter.machine.core_local import LocalBlocks
from interpreter.machine.descriptors import size_code_bytes
from interpreter.machine.dispatch import decode
from interpreter.machine.global_memory import GlobalMemory, MemoryEvent, dense_row_stride
from interpreter.machine.indexed_tlsu import INDEXED_FUNCTIONS, IndexedTLSU
from interpreter.machine.local_tlsu import LocalTLSU
from interpreter.machine.shared_registers import (
    FULL,
    NONE,
    SharedDescriptor,
    SharedRegisters,
    SharedTile,
    element_quarters,
    selected,
)
from interpreter.machine.tile_registers import (
    OPS,
    TileRegisters,
    register_storage,
    run_tile_instruction,
)
from interpreter.machine.words import raw_words, typed_values
from pto_dialect.attributes import MaskAttr, TileType
from pto_dialect.convert_ops import LAYOUT_PAIR_OF_CODE
from pto_dialect.datatypes import DTYPE_NONE, TileDataType, mx_needs_scale
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import (
    TILE_CAPACITY_BYTES,
    Layout,
    Location,
    core_allocation_bytes,
    default_size,
)
from pto_dialect.isa import BDim, BlockFamily, BlockSummary, Command
from pto_dialect.isa.block import LOAD_LAYOUTS, STORE_LAYOUTS, TMOV_LAYOUTS
from pto_dialect.isa.commands import PE_MODE_MASKS
from pto_dialect.isa.errors import NotModelledError
from pto_dialect.memory_model import block_memory_order

_TL = FaultKind.TILE_LEGALITY
_BC = FaultKind.BUNDLE_CONTROL
_TA = FaultKind.TILE_ALLOCATION
PES = 4
GPRS = 32
SHARED_FUNCTIONS = frozenset({0, 1, 9, 10, 11, 12, 14})
"""TLSU functions with a Shared form (``BundleSharedTLSUSelected``)."""


class Core(LocalTLSU, IndexedTLSU, LocalBlocks):
    """Architectural state for decoded command streams: :attr:`local` (64 Local tile
    registers), :attr:`shared` (S0..S255), :attr:`gpr` (four PEs x 32 GPRs, uint64; register 0
    reads zero) and :attr:`gm` (GM bytes, ``gm_bytes`` long; the ASL's model memory is 4 KiB)
    with its permission rule and event capture, :attr:`memory`
    (:class:`~interpreter.machine.global_memory.GlobalMemory`, docs/gm-faults.md).

    ``arch`` (an :class:`interpreter.machine.arch.ArchState`, optional) supplies the current ring for
    the permission rule (ACR2..15: the 3072-byte application region); run a block as an
    instruction attempt with ``arch.run_at(pc, core.execute, cmds)`` to get its trap."""

    def __init__(self, tile_capacity: int = TILE_CAPACITY_BYTES, gm_bytes: int = 4096,
                 arch=None) -> None:  # fmt: skip
        self.local = TileRegisters(tile_capacity)
        self.shared = SharedRegisters(self.local)
        self.gpr = np.zeros((PES, GPRS), np.uint64)
        self.gm = np.zeros(gm_bytes, np.uint8)
        self.arch = arch
        self.memory = GlobalMemory(self.gm, acr=lambda: self.arch.acr if self.arch else 0)

    def write_gpr(self, pe: int, reg: int, value: int) -> None:
        """``WritePEGPR``: PE ``pe``'s register ``reg`` (0 stays zero)."""
        if reg:
            self.gpr[pe, reg] = np.uint64(int(value) & ((1 << 64) - 1))

    def read_gpr(self, pe: int, reg: int) -> int:
        return 0 if reg == 0 else int(self.gpr[pe, reg])

    # -- memory events (asl/arch/memory-model/memory-events.asl) --------------------------------
    def start_memory_event_capture(self, agent: int = 0) -> None:
        """``StartMemoryEventCapture(agent)``: an empty event list, capture on, ``agent`` the
        current agent (whose GPRs a Local block reads)."""
        self.memory.start_capture(agent)

    def stop_memory_event_capture(self) -> None:
        self.memory.stop_capture()

    @property
    def memory_events(self) -> list[MemoryEvent]:
        """The captured events, in order (``_MemoryEvents[0 .. _MemoryEventCount - 1]``)."""
        return list(self.memory.events)

    # -- one block ------------------------------------------------------------------------------
    def execute(self, cmds: Sequence[Command], profile: str = "ordered") -> BlockResult:
        """Check and run one block ``BSTART ... BSTOP``; faults before any effect. ``profile``
        is the CUBE numeric profile (D4; ``raw-carrier`` is the ASL reference profile)."""
        s = decode(cmds)  # check_block, remembered (a decode cache)
        if s.noop:
            return BlockResult(s.op_name, noop=True)
        fn = s.start.function
        if s.family is BlockFamily.TLSU and (s.shared or fn in (9, 10, 11, 12, 14)):
            return self._shared_tlsu(s)
        if s.family is BlockFamily.TLSU and fn in (0, 1):
            name = s.op_name or "TLSU"
            return BlockResult(name, self._local_tlsu(s, self._transfer_type(s, name)))
        if s.family is BlockFamily.TLSU and fn in INDEXED_FUNCTIONS:  # interpreter.machine.indexed_tlsu
            return BlockResult(*self._indexed_block(s))
        if s.family is BlockFamily.CUBE and s.shared:
            return self._shared_cube(s, profile)
        if s.family in (BlockFamily.TEPL, BlockFamily.CUBE):
            return self._local_block(s, list(cmds), profile)
        raise NotModelledError(f"{s.op_name}: Core runs the Shared (B.IOS) TLSU and CUBE blocks, "
                               "the Local TLOAD / TSTORE blocks, the global-memory blocks "
                               "(TLSU 3-8, 13) and the Local TEPL / CUBE blocks "
                               "of interpreter.machine.core_local.FAMILIES; other Local blocks run as "
                               "linked pto.block ops (interpreter.run)")  # fmt: skip

    def _shared_tlsu(self, s: BlockSummary) -> BlockResult:
        name, fn = s.op_name or "TLSU", s.start.function
        if len(s.shared) != 1:
            raise _fault(_TL, f"{name} binds exactly one effective B.IOS, the block has "
                         f"{len(s.shared)}", name)  # fmt: skip
        ios = s.shared[0]
        sid, size, mask = ios.tid, ios.size_code, PE_MODE_MASKS[ios.pe_mode]
        dt = self._transfer_type(s, name)
        ior = s.scalars
        reads = 2 if fn in (0, 1, 14) else 0
        if ior is not None and (any(ior.sources[reads:]) or ior.dst):
            raise _fault(_BC, f"{name} reads {reads} B.IOR field(s): the others must be zero "
                         "(BundleOperationScalarBindingSchemaLegal)", name)  # fmt: skip
        layout = self._layout(s, fn, name)
        if fn not in SHARED_FUNCTIONS:
            raise _fault(_TL, f"{name} has no Shared form (B.IOS)", name)
        if fn == 0:
            self._tload(s, sid, size, mask, dt, layout)
            return BlockResult(name)
        if fn in (1, 14):
            self._tstore(s, sid, size, mask, dt, layout, fn)
            return BlockResult(name)
        if fn in (9, 10):
            self._insert(s, sid, size, mask, fn == 10)
            return BlockResult(name)
        return BlockResult(name, self._extract(s, sid, size, mask, dt, layout, fn))

    # -- the functions --------------------------------------------------------------------------
    def _gm_operands(self, s: BlockSummary, columns: int, dt: TileDataType):
        """Per-PE base and byte row stride: B.IOR RegSrc0 / RegSrc1 of each PE's GPRs, or base
        0 and the dense stride ``ceil(columns * bits / 8)`` without B.IOR."""
        ior = s.scalars
        if ior is None:
            return [0] * PES, [dense_row_stride(columns, dt)] * PES
        return ([self.read_gpr(p, ior.src0) for p in range(PES)],
                [self.read_gpr(p, ior.src1) for p in range(PES)])  # fmt: skip

    def _tload(self, s, sid, size, mask, dt, layout) -> None:
        if size == 0 or not 1 <= size <= 12 or s.destinations or s.sources:
            raise _fault(_TL, "a Shared TLOAD binds one destination B.IOS (SizeCode 1..12) "
                         "and no B.IOT", "TLOAD")  # fmt: skip
        vc, vr, col = (_lb(s, k) for k in range(3))
        if not (1 <= vc <= 65535 and 1 <= vr <= 65535 and 1 <= col <= 65535 and vc <= col):
            raise _fault(_TL, f"a Shared TLOAD needs explicit LB0 = ValidCol, LB1 = ValidRow, "
                         f"LB2 = Col in 1..65535 with ValidCol <= Col (got {vc}, {vr}, {col})",
                         "TLOAD")  # fmt: skip
        bases, strides = self._gm_operands(s, col, dt)
        self.shared.tload(sid, self.memory, bases, strides, size, vr, col, vr, vc, dt, layout,
                          mask, block_memory_order(s.catr))  # fmt: skip

    def _tstore(self, s, sid, size, mask, dt, layout, fn) -> None:
        if (fn == 1 and mask != FULL) or size != 0 or s.sources or s.destinations:
            raise _fault(_TL, "a Shared TSTORE binds one source B.IOS and no B.IOT; Function 1 "
                         "needs mask=1111 (SharedStorePEMaskLegal)", s.op_name)  # fmt: skip
        rec = self.shared.record(sid)
        vc = _lb(s, 0) if s.lb_written[0] else (rec.desc.valid_columns if rec else 1)
        vr = _lb(s, 1) if s.lb_written[1] else (rec.desc.valid_rows if rec else 1)
        col = _lb(s, 2) if s.lb_written[2] else (rec.desc.columns if rec else vc)
        if (vc < 1 or vr < 1 or col < 1 or vc > col
                or not self.shared.read_schema_legal(sid, vr, vc, col, dt, layout)):  # fmt: skip
            raise _fault(_TL, f"S{sid}: a {vr} x {vc} (Col {col}) {dt.name} {layout.value} read "
                         "does not fit its descriptor, or no Shared capacity holds it "
                         "(SharedTileReadSchemaLegal)", s.op_name)  # fmt: skip
        cap = self.shared.read_capacity(sid, vr, vc, col, dt)
        desc = self.shared.read_descriptor(vr, vc, col, dt, layout, cap)
        bases, strides = self._gm_operands(s, col, dt)
        self.shared.tstore(self.memory, bases, strides, sid, desc, mask,
                           block_memory_order(s.catr))  # fmt: skip

    def _insert(self, s, sid, size, mask, publish) -> None:
        name = "TMOV.L2S.PUBLISH" if publish else "TMOV.L2S.INSERT"
        if not 1 <= size <= 12:
            raise _fault(_TL, f"{name} needs a destination B.IOS with SizeCode 1..12", name)
        src = s.sources[0]
        if not self.local.allocated(src) or not self.local.contents_defined(src):
            raise _fault(_TL, f"{name}: source tile {src} is not allocated with defined "
                         "contents (TileSourceContentsDefined)", name)  # fmt: skip
        ttype = self.local.type_of(src)
        if not isinstance(ttype, TileType) or ttype.capacity != size_code_bytes(size):
            raise _fault(_TL, f"{name}: source tile {src}'s TSize differs from the B.IOS SizeCode "
                         f"{size} ({size_code_bytes(size)} B)", name)  # fmt: skip
        missing = [q for q in range(PES) if mask[q] == "1" and ttype.pe_mask[q] == "0"]
        if missing:
            raise _fault(_TL, f"{name}: source tile {src} is not held by selected PE(s) "
                         f"{missing} (D13)", name)  # fmt: skip
        tile = self.shared_tile_of_local(src)
        if publish and not self.shared.prospective_fully_initialized(sid, tile, mask):
            raise _fault(_TL, f"{name}: S{sid} would not be fully initialized "
                         "(SharedTileProspectiveFullyInitialized)", name)  # fmt: skip
        if not self.shared.update(sid, tile, mask, publish):
            raise _fault(_TL, self.shared._incompatible(sid, tile.desc, mask), name)

    def _extract(self, s, sid, size, mask, dt, layout, fn) -> int:
        name = "TMOV.S2L.BROADCAST" if fn == 11 else "TMOV.S2L.EXTRACT"
        hand, dsize = s.destinations[0]
        rec = self.shared.record(sid)
        legal = self.shared.descriptor_legal(sid)
        vr = _lb(s, 1) if 1 <= _lb(s, 1) <= 65535 else (rec.desc.valid_rows if legal else 1)
        vc = _lb(s, 0) if 1 <= _lb(s, 0) <= 65535 else (rec.desc.valid_columns if legal else 1)
        col = _lb(s, 2) if 1 <= _lb(s, 2) <= 65535 else (rec.desc.columns if legal else vc)
        cap = size_code_bytes(dsize)
        ok = (1 <= dsize <= 10 and size == 0 and vc <= col
              and self.shared.read_schema_legal_at_capacity(sid, vr, vc, col, dt, layout, cap))
        if ok and fn == 11:
            ok = mask == FULL and rec is not None and rec.allocation == FULL \
                and self.shared.published(sid)  # fmt: skip
        if not ok:
            raise _fault(_TL, f"{name}: S{sid} cannot be read as {vr} x {vc} (Col {col}) "
                         f"{dt.name} at {cap} B" + (" or is not a published four-quarter "
                         "value with mask=1111" if fn == 11 else "") +
                         " (BundleSharedTMOVDestinationSchemaLegal)", name)  # fmt: skip
        desc = self.shared.read_descriptor(vr, vc, col, dt, layout, cap)
        dst = self._resolve_destination(hand, mask, cap, name)
        r, c, e = desc.valid_elements()
        sel = selected(mask, element_quarters(desc, e))
        words = np.where(sel, self.shared.read_words(sid, e), np.uint64(0))
        ttype = TileType((desc.rows, col), dt, valid=(vr, vc), layout=layout,
                         location=Location.ANY, size=cap, pe=mask)  # fmt: skip
        errs = ttype.legality_errors()
        if errs:
            raise _fault(_TL, f"{name}: the destination descriptor is illegal here: "
                         f"{'; '.join(errs)}", name)  # fmt: skip
        value = typed_values(dt, words).reshape(vr, vc)
        self.local.configure(dst, ttype, value, defined=mask == FULL)
        return dst

    # -- CUBE with Shared operands (asl/block/model/dispatch/cube-tmatmul.asl) ------------------
    def _shared_cube(self, s: BlockSummary, profile: str) -> BlockResult:
        """``ExecuteBundleTMATMULOperation`` with B.IOS sources: the right group (B and its MX
        scale) or both groups are read from cooperative-ready Shared registers
        (``BundleMatrixSharedSchemasLegal``), the primaries transposed as TransB / TransA say
        (``MaterializeBundleSharedMatrixPrimary``); then the same verifier and kernel as every
        other level compute the result into a new Local register."""
        fn = s.start.cube
        assert fn is not None and s.fpatr is not None  # check_block: decoded, B.FPATR present
        name, fp = fn.name, s.fpatr
        if fp.pre_quant_mode or fp.relu_mode or fp.row_max_en or fp.group_max_en:
            raise NotModelledError(f"{name} with Shared operands: B.FPATR post-processing is "
                                   "not modelled on Shared operands")  # fmt: skip
        left_t, right_t = TileDataType(s.a_type), TileDataType(s.b_type)
        m, n, k = (_lb(s, i) if s.lb_written[i] else 1 for i in range(3))
        blocks = -(-k // 32)
        left_scale = fn.is_mx and mx_needs_scale(left_t)
        right_scale = fn.is_mx and mx_needs_scale(right_t)
        right_group, left_group = 1 + int(right_scale), 1 + int(left_scale)
        count = len(s.shared)
        left_shared = count == left_group + right_group
        n_local = int(fn.is_acc) + (0 if left_shared else left_group) + int(fn.is_bias)
        errs = []
        if count not in (right_group, left_group + right_group):
            errs.append(f"{right_group} (B group) or {left_group + right_group} (both groups) "
                        f"Shared sources, not {count} (TileMatrixSharedSourceCountLegal)")  # fmt: skip
        elif len(s.sources) != n_local or len(s.destinations) != 1 or not s.terminated:
            errs.append(f"{n_local} Local source(s) and one destination in a terminated B.IOT "
                        "stream (BundleMatrixDynamicBindingsComplete)")  # fmt: skip
        if s.scalars is not None and (any(s.scalars.sources) or s.scalars.dst):
            errs.append("no B.IOR field (no scalar parameter without post-processing)")
        if not all(x > 0 and x & (x - 1) == 0 for x in (m, n, k)):
            errs.append(f"M, N, K = {m}, {n}, {k} powers of two (BundleTMATMULDimensionsLegal)")
        if fp.trans_a and not left_shared:
            errs.append("TransA only with a Shared A")
        if errs:
            raise _cube_fault(_TL, f"{name} with Shared operands needs " + "; ".join(errs), name)
        mask = PE_MODE_MASKS[s.pe_mode]  # type: ignore[index]
        # (role, logical rows, cols, type, transposed) of each Shared source in binding order
        roles: list[tuple[str, int, int, TileDataType, bool]] = []
        if left_shared:
            roles.append(("a", m, k, left_t, bool(fp.trans_a)))
            roles += [("a_scale", m, blocks, TileDataType.E8M0, False)] if left_scale else []
        roles.append(("b", k, n, right_t, bool(fp.trans_b)))
        roles += [("b_scale", blocks, n, TileDataType.E8M0, False)] if right_scale else []
        for b, (role, rows, cols, dt, trans) in zip(s.shared, roles):
            sr, sc = (cols, rows) if trans else (rows, cols)
            if b.size_code or not self.shared.cooperative_ready(b.tid) or \
                    not self.shared.read_schema_legal(b.tid, sr, sc, sc, dt, Layout.ROW_MAJOR):
                raise _cube_fault(_TL, f"{name}: {role} = S{b.tid} must be a source B.IOS of a "
                                  "published four-quarter value readable as a row-major "
                                  f"{sr} x {sc} {dt.name} (BundleMatrixSharedSourceSchemaLegal)",
                                  name)  # fmt: skip
        local = list(s.sources)
        operands: dict[str, int | None] = {}
        for role, present in (("c", fn.is_acc), ("a", not left_shared),
                              ("a_scale", not left_shared and left_scale), ("bias", fn.is_bias)):
            operands[role] = local.pop(0) if present else None  # fmt: skip
        for i in operands.values():
            if i is not None and not (self.local.allocated(i) and self.local.contents_defined(i)):
                raise _cube_fault(_TL, f"{name}: source tile {i} is not allocated with defined "
                                  "contents (TileSourceContentsDefined)", name)  # fmt: skip
        a, c = operands["a"], operands["c"]
        if a is not None:
            at = self.local.type_of(a)
            if not isinstance(at, TileType) or at.valid_shape != (m, k) or at.dtype != left_t:
                raise _cube_fault(_TL, f"{name}: A (tile {a}) must be {m} x {k} {left_t.name} "
                                  "(TileMatrixLocalPrimaryInfoLegal)", name)  # fmt: skip
            layout = at.layout_kind
        elif c is not None:
            layout = self.local.type_of(c).layout_kind  # type: ignore[union-attr]
        else:
            layout = Layout.CUBE_M16 if m <= 16 else Layout.CUBE_M32
        if fn.is_acc and c == s.destinations[0][0]:
            raise _cube_fault(_TL, f"{name}: C's selector equals the destination hand "
                              "(BundleMatrixAccumulatorDestinationIndicesDistinct)", name)  # fmt: skip
        if not (layout is Layout.CUBE_M16 and m <= 16 or layout is Layout.CUBE_M32 and m <= 32):
            raise _cube_fault(_TL, f"{name}: M = {m} has no CUBE M layout here "
                              "(TileMatrixMLayoutLegal)", name)  # fmt: skip
        hand, dsize = s.destinations[0]
        cap = size_code_bytes(dsize)
        result_t = TileDataType.FP32 if fn.is_mx else left_t.accumulator
        d_type = TileType((m, n), result_t, layout=layout, location=Location.MAT, size=cap,
                          pe=mask)  # fmt: skip
        if d_type.legality_errors():
            raise _cube_fault(_TA, f"{name}: the {m} x {n} {result_t.name} destination does not "
                              f"fit SizeCode {dsize} (ResolveBundleTMATMULDestination)", name)  # fmt: skip
        dst = self._resolve_destination(hand, mask, cap, name)
        types: dict[int, TileType] = {}
        values: dict[int, np.ndarray] = {}
        for i in operands.values():
            if i is not None:
                types[i], values[i] = self.local.type_of(i), self.local.read(i)  # type: ignore
        for key, b, (role, rows, cols, dt, trans) in zip(range(-1, -5, -1), s.shared, roles):
            types[key], values[key] = self._matrix_operand(b.tid, role, rows, cols, dt, trans,
                                                           mask)  # fmt: skip
            operands[role] = key
        op = "pto." + name.lower()
        out = run_tile_instruction(op, [operands.get(r) for r in OPS[op].operand_roles()],
                                   [d_type, None, None], types, values,
                                   {"mask": MaskAttr(mask)}, profile)  # fmt: skip
        self.local.configure(dst, d_type, register_storage(d_type, out[0]))
        return BlockResult(name, dst)

    def _matrix_operand(self, sid: int, role: str, rows: int, cols: int, dt: TileDataType,
                        trans: bool, mask: str) -> tuple[TileType, np.ndarray]:  # fmt: skip
        """``MaterializeBundleSharedMatrixPrimary`` / ``...Source``: the logical ``rows x cols``
        matrix read from S``sid`` (element (r, c) at stored (c, r) when transposed), typed as
        the kernel takes that operand (A: CUBE_M16/M32, B: CUBE_N8, location mat; a scale:
        row-major E8M0). Values are logical, so the layout is only the calling convention."""
        rec = self.shared.record(sid)
        assert rec is not None
        r, c = np.divmod(np.arange(rows * cols), cols)
        sr, sc = (c, r) if trans else (r, c)
        words = self.shared.read_words(sid, rec.desc.linear(sr, sc))
        if role.endswith("scale"):
            size: int | None = rec.desc.capacity
            t = TileType((rec.desc.rows, cols), dt, valid=(rows, cols), location=Location.ANY,
                         size=size, pe=mask)  # fmt: skip
        else:
            layout = (Layout.CUBE_N8 if role == "b" else
                      Layout.CUBE_M16 if rows <= 16 else Layout.CUBE_M32)  # fmt: skip
            size = default_size(layout, dt, rows, cols)
            t = TileType((rows, cols), dt, layout=layout, location=Location.MAT, size=size,
                         pe=mask)  # fmt: skip
        if size is None or t.legality_errors():
            raise NotModelledError(f"S{sid} as a {rows} x {cols} {dt.name} CUBE operand beyond a "
                                   "Local tile (64 KiB per PE)")  # fmt: skip
        return t, typed_values(dt, words).reshape(rows, cols)

    # -- helpers --------------------------------------------------------------------------------
    def _resolve_destination(self, hand: int, mask: str, cap: int, name: str) -> int:
        """One destination of :meth:`_resolve_destinations`."""
        return self._resolve_destinations([hand], [cap], mask, name)[0]

    def _resolve_destinations(self, hands: Sequence[int], caps: Sequence[int], mask: str,
                              name: str | None) -> list[int]:  # fmt: skip
        """``ResolveBundleTileDestinations``: each hand's lowest unallocated register not taken
        by an earlier destination of the block, the group's charge within ``tile_capacity``
        (``CoreTileCapacityInUse``), else TileAllocation; nothing is allocated here."""
        taken: list[int] = []
        for hand in hands:
            free = [i for i in range(hand * 16, hand * 16 + 16)
                    if not self.local.allocated(i) and i not in taken]  # fmt: skip
            if not free:
                raise _fault(_TA, f"{name}: no free register in hand {'TUMN'[hand]} "
                             "(ResolveBundleTileDestinations)", name, "destination-shape")  # fmt: skip
            taken.append(free[0])
        need = sum(core_allocation_bytes(mask, cap) for cap in caps)
        if self.shared.core_capacity_in_use + need > self.local.tile_capacity:
            raise _fault(_TA, f"{name}: {need} B of core tile capacity beyond tile_capacity "
                         f"{self.local.tile_capacity} B ({self.shared.core_capacity_in_use} B in "
                         "use; ResolveBundleTileDestinations)", name, "destination-shape")  # fmt: skip
        return taken

    def shared_tile_of_local(self, index: int) -> SharedTile:
        """``SharedTileFromLocal``: the Local tile as a Shared candidate (location Any);
        quarter ``q``'s elements from PE ``q``'s payload (PEs that do not hold it: none)."""
        ttype = self.local.type_of(index)
        if not isinstance(ttype, TileType):
            raise ValueError(f"tile {index} is a predicate tile: not a Shared tile value")
        vr, vc = ttype.valid_shape
        desc = SharedDescriptor(ttype.capacity, *ttype.shape, vr, vc, ttype.dtype,
                                ttype.layout_kind)  # fmt: skip
        tile = SharedTile.empty(desc)
        if ttype.layout_kind.is_cube:
            return tile  # refused by the update (no CUBE layout in a Shared register)
        held = [q for q in range(PES) if ttype.pe_mask[q] == "1"]
        payload = self.local.read(index)  # (P, VR, VC), in the order of ``held``
        r, c, e = desc.valid_elements()
        q = element_quarters(desc, e)
        per_pe = np.stack([raw_words(ttype, payload[i].reshape(-1)) for i in range(len(held))])
        slot = np.array([held.index(x) if x in held else 0 for x in range(PES)])[q]
        tile.words[e] = per_pe[slot, np.arange(e.size)]
        tile.defined[e] = True
        return tile

    def _transfer_type(self, s: BlockSummary, name: str) -> TileDataType:
        """The BSTART DataType; a TMOV's DTYPE_NONE inherits the bound source's type."""
        code = s.start.dtype
        if code == DTYPE_NONE and s.start.function in (9, 10, 11, 12):
            if s.start.function in (9, 10) and s.sources and self.local.allocated(s.sources[0]):
                t = self.local.type_of(s.sources[0])
                if isinstance(t, TileType):
                    return t.dtype
            rec = self.shared.record(s.shared[0].tid)
            if s.start.function in (11, 12) and rec is not None:
                return rec.desc.dtype
            raise _fault(_TL, f"{name} with DTYPE_NONE: the source has no concrete type to "
                         "inherit", name)  # fmt: skip
        if code not in TileDataType._value2member_map_:
            raise _fault(_TL, f"{name}: DataType {code} is not a concrete tile type "
                         "(TileRegularTLSUDataTypeSupported)", name)  # fmt: skip
        return TileDataType(code)

    @staticmethod
    def _layout(s: BlockSummary, fn: int, name: str) -> Layout:
        """B.DATR (``SelectedBundleTileDataAttributesLegal``): Layout only, a non-CUBE code of
        the operation; every other explicit field zero."""
        if not s.datr_present:
            return Layout.ROW_MAJOR
        d = s.datr
        legal = LOAD_LAYOUTS if fn == 0 else STORE_LAYOUTS if fn in (1, 14) else TMOV_LAYOUTS
        bad = [n for n in ("pad", "cmode", "sat", "canonicalize", "rmode", "dtype") if getattr(d, n)]
        if bad or d.layout not in legal or d.layout not in LAYOUT_PAIR_OF_CODE:
            raise _fault(_TL, f"{name}: B.DATR accepts a non-CUBE Layout of the operation only "
                         f"(fields {bad}, Layout {d.layout}; TileOperationDATRFieldsLegal)",
                         name)  # fmt: skip
        return LAYOUT_PAIR_OF_CODE[d.layout][1]


def _lb(s: BlockSummary, k: int) -> int:
    """LB``k`` of the block: its immediate, 0 when unwritten (register-form B.DIM refused)."""
    if s.lb_regs[k] is not None:
        raise NotModelledError(f"B.DIM LB{k} from a GPR: the Shared blocks take immediate LBs")
    return s.lb[k] or 0


def _fault(kind: FaultKind, msg: str, op: str | None, unit: str = "shared-tlsu") -> PTOFault:
    return PTOFault(kind, f"at block completion: {msg} (asl/block/model/dispatch/{unit}.asl)",
                    op=op)  # fmt: skip


def _cube_fault(kind: FaultKind, msg: str, op: str | None) -> PTOFault:
    return _fault(kind, msg, op, "cube-tmatmul")


def dim(lb: int, value: int) -> BDim:
    """``SetBundleDimension``: B.DIM LB``lb`` = ``value`` (zero register + immediate)."""
    return BDim(lb, 0, value)


__all__ = ["BlockResult", "Core", "NONE", "dim", "raw_words", "typed_values"]
