"""AVS pass conditions of the global-memory TLSU operations (D17, D25; docs/gm-indexed.md).

TPREFETCH, MGATHER, MSCATTER, MGATHER.MASK, MSCATTER.MASK, MGATHER.CAS and GMOV: the block
tests build the AVS's command words, which our decoder (:func:`pto_dialect.isa.decode`) reads
and :class:`interpreter.machine.shared_blocks.Core` runs as the instruction attempt at a TPC of an
:class:`interpreter.machine.arch.ArchState`; the tile tests call the tile instructions by register
number (``Core.mgather(...)``, the ASL's ``MGATHER(destination, base, indices, pad)``).
Expected values are the AVS's own (hand-derived from the ASL: address = base + the index
sign- or zero-extended from its width, unscaled; the preflight of every lane before any event;
the pad of the physical region). ``ConfigureTile(i, 128, ...)`` is a tile of TSize 128 B on PE0
(PEMode 001 = mask 1000), rows derived from the capacity as our descriptors require.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs, avs_units
from conformance.test_avs_shared import STOP, word
from interpreter.kernels.indexed import AtomicEvent
from interpreter.machine.arch import ArchState
from interpreter.machine.shared_blocks import Core, dim
from interpreter.ssa.runtime import storage_dtype
from pto_dialect import isa
from pto_dialect.attributes import TileType
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import FaultCode, FaultKind
from pto_dialect.predicate import PredicateTileType

PC = 0x40


def start(fn: int, dt: int):
    """BSTART of TLSU ``fn`` (0x00011181 with Function [24:20], DataType [31:27])."""
    return isa.decode(word(0x00011181, f=(24, 20, fn), d=(31, 27, dt)))


def iot(base: int, src0: int = 0, src1: int | None = None, last: bool = True, size: int = 0,
        mode: int = 1, hand: int = 0):  # fmt: skip
    fields = dict(a=(25, 20, src0), l=(19, 19, int(last)), z=(18, 15, size), m=(11, 9, mode),
                  h=(8, 7, hand))  # fmt: skip
    if src1 is not None:
        fields["b"] = (31, 26, src1)
    return isa.decode(word(base, **fields))


def ior(r0: int = 2, r1: int = 0):
    return isa.decode(word(0x13, a=(19, 15, r0), b=(24, 20, r1)))


MAX_PAD = isa.decode(word(0x1023, p=(28, 27, 1)))
"""B.DATR PadValue Max (the AVS's ``...MaxPad()``)."""


def tile(core: Core, i: int, dt: T, vr: int, vc: int, values, col: int | None = None,
         pe: str = "1000") -> TileType:  # fmt: skip
    """``ConfigureTile(i, 128, _, col, vr, vc, dt)`` + its elements (valid rectangle)."""
    col = col or vc
    col = 1 << (col - 1).bit_length()
    rows = 128 * 8 // (col * dt.info.carrier_bits)
    t = TileType((rows, col), dt, valid=(vr, vc), size=128, pe=pe)
    v = np.asarray(values).reshape(vr, vc)
    sd = storage_dtype(dt)
    if v.dtype.kind in "iu":  # integer bit patterns, wrapped to the carrier
        v = v.astype(np.int64).view(np.uint64).astype(f"u{sd.itemsize}").view(sd)
    elif v.dtype != sd:
        v = v.astype(sd)
    core.local.configure(i, t, v)
    return t


def pred(core: Core, i: int, bits, cols: int = 4) -> None:
    """``ConfigurePredicateTile(i, 128, 1, cols, 1, len(bits))`` with the bits written."""
    t = PredicateTileType((1, cols), valid=(1, len(bits)), size=128, pe="1000")
    core.local.configure(i, t, np.array([bits], bool))


def fresh() -> tuple[Core, ArchState]:
    arch = ArchState()
    return Core(arch=arch), arch


def run(core: Core, arch: ArchState, cmds, base: int | None = None, capture: bool = True):
    if base is not None:
        core.write_gpr(0, 2, base)
    if capture:
        core.start_memory_event_capture(0)
    done, result = arch.run_at(PC, core.execute, cmds)
    core.stop_memory_event_capture()
    return done, result


def events(core: Core):
    return [(e.kind, e.address, e.size, e.value) for e in core.memory_events]


def capacity(core: Core) -> int:
    return core.shared.core_capacity_in_use


def gather_block(dt: int, lbs, pad: bool = False, with_ior: bool = True, mode: int = 1):
    cmds = [start(4, dt)] + ([MAX_PAD] if pad else [])
    cmds += [dim(k, v) for k, v in lbs]
    cmds.append(iot(0x5013, 0, size=1, mode=mode))
    if with_ior:
        cmds.append(ior())
    return [*cmds, STOP]


# ---- MGATHER ---------------------------------------------------------------------------------
@avs("PTO-AVS-BLOCK-MGATHER-GATHER-001")
def test_mgather_gather_defaults_and_pad():
    """U32 indices 0, 3 from base 0x100: loads 0x11, 0x44 (events at 0x100, 0x103); omitted
    LB1 / LB2 default to 1 and LB0 (valid 1x2, Col 2); every other physical element is Max."""
    core, arch = fresh()
    tile(core, 0, T.U32, 1, 2, [0, 3])
    core.gm[0x100], core.gm[0x103] = 0x11, 0x44
    done, r = run(core, arch, gather_block(27, [(0, 2)], pad=True), 0x100)
    assert done
    t = core.local.type_of(r.destination)
    assert (t.valid_shape, t.shape[1]) == ((1, 2), 2)
    assert [a for _, a, _, _ in events(core)] == [0x100, 0x103]
    phys = core.local.physical(r.destination).payloads[0]
    assert phys[0].tolist() == [0x11, 0x44] and (phys[1:] == 0xFF).all()


@avs("PTO-AVS-BLOCK-MGATHER-SIGNED-001")
def test_mgather_signed_displacements():
    """S32 -3 and -1 from base 0x103 read 0x100 and 0x102 (no transfer-type scaling)."""
    core, arch = fresh()
    tile(core, 0, T.S32, 1, 2, [-3, -1])
    core.gm[0x100], core.gm[0x102] = 7, 9
    done, r = run(core, arch, gather_block(27, [(0, 2)]), 0x103)
    assert done and core.local.read(r.destination).ravel().tolist() == [7, 9]
    assert [a for _, a, _, _ in events(core)] == [0x100, 0x102]


@avs("PTO-AVS-BLOCK-MGATHER-S4-INDEX-002")
def test_mgather_s4_index():
    """S4X2 index 0xd (= -3) from base 0x103 reads 0x5a at 0x100."""
    core, arch = fresh()
    tile(core, 0, T.S4X2, 1, 1, [-3])
    core.gm[0x100] = 0x5A
    done, r = run(core, arch, gather_block(27, [(0, 1)]), 0x103)
    assert done and core.local.read(r.destination).ravel().tolist() == [0x5A]
    assert [a for _, a, _, _ in events(core)] == [0x100]


@avs("PTO-AVS-BLOCK-MGATHER-U4-INDEX-003")
def test_mgather_u4_index():
    """U4X2 index 15 from base 0x100 reads 0x10f (zero-extended, unscaled)."""
    core, arch = fresh()
    tile(core, 0, T.U4X2, 1, 1, [15])
    core.gm[0x10F] = 0x77
    done, r = run(core, arch, gather_block(27, [(0, 1)]), 0x100)
    assert done and core.local.read(r.destination).ravel().tolist() == [0x77]
    assert [a for _, a, _, _ in events(core)] == [0x10F]


@avs("PTO-AVS-BLOCK-MGATHER-STAGE2-WIDTH-001")
def test_mgather_index_widths_and_raw_carrier():
    """U64 index 0 gathers the U64 0x1122334455667788 (one 8-byte event); U64 index 2^32 faults
    DataPage at 0x100000100 (not truncated to 32 bits); U16 index 0 gathers a U8; a TF32
    gather publishes the invalid encoding 0x3f800001 unchanged."""
    core, arch = fresh()
    tile(core, 0, T.U64, 1, 1, [0])
    core.gm[0x100:0x108] = np.array([0x1122334455667788], "<u8").view(np.uint8)
    done, r = run(core, arch, gather_block(24, [(0, 1)]), 0x100)
    assert done and core.local.type_of(r.destination).dtype is T.U64
    assert int(core.local.read(r.destination).ravel()[0]) == 0x1122334455667788
    assert events(core) == [("load", 0x100, 8, 0x1122334455667788)]
    core, arch = fresh()
    tile(core, 0, T.U64, 1, 1, [1 << 32])
    assert run(core, arch, gather_block(24, [(0, 1)]), 0x100) == (False, None)
    assert arch.last_fault is FaultCode.DATA_PAGE and arch.fault_address == 0x100000100
    assert core.memory_events == [] and capacity(core) == 128
    core, arch = fresh()
    tile(core, 0, T.U16, 1, 1, [0])
    core.gm[0x100] = 0x5A
    done, r = run(core, arch, gather_block(27, [(0, 1)]), 0x100)
    assert done and arch.last_fault is FaultCode.NONE and len(core.memory_events) == 1
    assert core.local.read(r.destination).ravel().tolist() == [0x5A]
    core, arch = fresh()
    tile(core, 0, T.U32, 1, 1, [0])
    core.gm[0x100:0x104] = np.array([0x3F800001], "<u4").view(np.uint8)
    done, r = run(core, arch, gather_block(int(T.TF32), [(0, 1)]), 0x100)
    assert done and core.local.type_of(r.destination).dtype is T.TF32
    assert core.local.read(r.destination).view(np.uint32).ravel().tolist() == [0x3F800001]


@avs("PTO-AVS-BLOCK-MGATHER-FAULT-001")
def test_mgather_second_lane_faults_first():
    """U16 lanes at 4094 and 4096: DataPage at 4096, no event, no destination (capacity
    stays the index tile's 128 B)."""
    core, arch = fresh()
    tile(core, 0, T.U32, 1, 2, [0, 2])
    assert run(core, arch, gather_block(26, [(0, 2)]), 4094) == (False, None)
    assert arch.last_fault is FaultCode.DATA_PAGE and arch.fault_address == 4096
    assert core.memory_events == [] and capacity(core) == 128
    assert not any(core.local.allocated(i) for i in range(1, 64))


@avs("PTO-AVS-BLOCK-MGATHER-SCHEMA-001")
def test_mgather_schema_faults():
    """Missing B.IOR, an FP32 IndexTile and a U4X2 transfer type: TileLegality, nothing
    allocated, no event."""
    for dt, itype, with_ior in ((27, T.U32, False), (27, T.FP32, True), (28, T.U32, True)):
        core, arch = fresh()
        tile(core, 0, itype, 1, 1, [0])
        assert run(core, arch, gather_block(dt, [(0, 1)], with_ior=with_ior), 0) == (False, None)
        assert arch.last_fault is FaultCode.TILE_LEGALITY
        assert capacity(core) == 128 and core.memory_events == []


@avs("PTO-AVS-BLOCK-MGATHER-ZERO-001", "PTO-AVS-BLOCK-MGATHER-MASK-ZERO-001",
     "PTO-AVS-BLOCK-MSCATTER-ZERO-001", "PTO-AVS-BLOCK-MSCATTER-MASK-ZERO-001",
     "PTO-AVS-BLOCK-MGATHER-CAS-ZERO-001", "PTO-AVS-BLOCK-GMOV-ZERO-001")  # fmt: skip
def test_zero_mask_is_strict_noop():
    """Mask 0000 bindings with absent sources, dimensions and B.IOR (GMOV: an invalid source
    and peer values) complete with no allocation, event, memory write or fault."""
    forms = {4: [iot(0x5013, 9, size=1, mode=0)], 6: [iot(0x4013, 9, 10, size=1, mode=0)],
             5: [iot(0x4013, 9, 10, mode=0)], 7: [iot(0x4013, 9, 10, False, mode=0),
                                                  iot(0x5013, 11, mode=0)],
             8: [iot(0x4013, 9, 10, False, mode=0), iot(0x5013, 11, size=1, mode=0)],
             13: [iot(0x5013, 63, size=1, mode=0), ior(5)]}  # fmt: skip
    for fn, binds in forms.items():
        core, arch = fresh()
        core.write_gpr(0, 5, 9)
        done, r = run(core, arch, [start(fn, 27), *binds, STOP])
        assert done and r.noop and arch.last_fault is FaultCode.NONE
        assert capacity(core) == 0 and core.memory_events == [] and not core.gm.any()


# ---- MGATHER.MASK ----------------------------------------------------------------------------
def mask_gather_block(pad: bool = True, with_ior: bool = True):
    cmds = [start(6, 27)] + ([MAX_PAD] if pad else [])
    cmds += [dim(0, 3), dim(2, 4), iot(0x4013, 0, 1, size=1)]
    return [*cmds, *([ior()] if with_ior else []), STOP]


@avs("PTO-AVS-BLOCK-MGATHER-MASK-GATHER-001")
def test_mgather_mask_gather():
    """S32 displacements -8, 0x7fff (disabled: no check), -1 from 0x108: 11 and 33 from
    0x100 / 0x107; Max in the disabled lane and the rest of the physical region; 2 events."""
    core, arch = fresh()
    tile(core, 0, T.S32, 1, 3, [-8, 0x7FFF, -1], col=4)
    pred(core, 1, [True, False, True])
    core.gm[0x100], core.gm[0x107] = 11, 33
    done, r = run(core, arch, mask_gather_block(), 0x108)
    assert done
    phys = core.local.physical(r.destination).payloads[0]
    assert phys[0].tolist() == [11, 0xFF, 33, 0xFF] and phys[1, 0] == 0xFF
    assert [a for _, a, _, _ in events(core)] == [0x100, 0x107]


@avs("PTO-AVS-BLOCK-MGATHER-MASK-FAULT-001")
def test_mgather_mask_enabled_lane_faults():
    """An invalid disabled displacement is ignored; a later enabled lane outside GM faults
    DataPage before the earlier enabled load: no event, no destination."""
    core, arch = fresh()
    tile(core, 0, T.S32, 1, 3, [0, 0x7FFFFF, 0x1000], col=4)
    pred(core, 1, [True, False, True])
    assert run(core, arch, mask_gather_block(), 0) == (False, None)
    assert arch.last_fault is FaultCode.DATA_PAGE and arch.fault_address == 0x1000
    assert core.memory_events == [] and capacity(core) == 128 + 128


@avs("PTO-AVS-BLOCK-MGATHER-MASK-PRED-001")
def test_mgather_mask_numeric_mask_rejected():
    """A defined U8 tile holding ones as the mask: TileLegality before any address check."""
    core, arch = fresh()
    tile(core, 0, T.S32, 1, 3, [0x7FFFFF] * 3, col=4)
    tile(core, 1, T.U8, 1, 3, [1, 1, 1], col=4)
    assert run(core, arch, mask_gather_block(), 0) == (False, None)
    assert arch.last_fault is FaultCode.TILE_LEGALITY and core.memory_events == []


@avs("PTO-AVS-BLOCK-MGATHER-MASK-SCHEMA-001")
def test_mgather_mask_missing_ior():
    core, arch = fresh()
    tile(core, 0, T.S32, 1, 3, [0, 1, 2], col=4)
    pred(core, 1, [True, True, True])
    assert run(core, arch, mask_gather_block(with_ior=False), 0) == (False, None)
    assert arch.last_fault is FaultCode.TILE_LEGALITY and core.memory_events == []
    assert capacity(core) == 256


@avs("PTO-AVS-BLOCK-MGATHER-MASK-PACKED-001", "PTO-AVS-BLOCK-MGATHER-CAS-PACKED-001",
     "PTO-AVS-BLOCK-MSCATTER-PACKED-001", "PTO-AVS-BLOCK-MSCATTER-MASK-PACKED-001")  # fmt: skip
def test_packed_transfer_rejected():
    """A U4X2 transfer type (no nibble selector) in a complete block: TileLegality before any
    allocation, event or memory write."""
    u4 = int(T.U4X2)
    blocks = {6: [dim(0, 1), iot(0x4013, 0, 1, size=1), ior()],
              8: [dim(0, 1), iot(0x4013, 0, 2, False), iot(0x5013, 3, size=1), ior()],
              5: [dim(0, 1), iot(0x4013, 3, 0), ior()],
              7: [dim(0, 1), iot(0x4013, 3, 0, False), iot(0x5013, 1), ior()]}  # fmt: skip
    for fn, body in blocks.items():
        core, arch = fresh()
        tile(core, 0, T.U32, 1, 1, [0])
        pred(core, 1, [True])
        tile(core, 2, T.U4X2, 1, 1, [1])
        tile(core, 3, T.U4X2, 1, 1, [2])
        held = capacity(core)
        assert run(core, arch, [start(fn, u4), *body, STOP], 0) == (False, None), fn
        assert arch.last_fault is FaultCode.TILE_LEGALITY
        assert capacity(core) == held and core.memory_events == [] and not core.gm.any()


# ---- MGATHER.CAS -----------------------------------------------------------------------------
def cas_block(pad: bool = True, with_ior: bool = True, dt: int = 27, lbs=((0, 2), (1, 2))):
    cmds = [start(8, dt)] + ([MAX_PAD] if pad else []) + [dim(k, v) for k, v in lbs]
    cmds += [iot(0x4013, 0, 1, False), iot(0x5013, 2, size=1)]
    return [*cmds, *([ior()] if with_ior else []), STOP]


@avs("PTO-AVS-BLOCK-MGATHER-CAS-EXEC-001")
def test_mgather_cas_compare_swap():
    """S16 displacements -8 -5 -3 -1 from 0x108 (0x100 0x103 0x105 0x107 holding 10 20 30 40);
    expected 10 99 30 98, replacements 100..103: lanes 0 and 2 swap. The destination holds
    the old values 10 20 30 40, Max beyond; four atomic events, two with the write."""
    core, arch = fresh()
    tile(core, 0, T.S16, 2, 2, [-8, -5, -3, -1])
    tile(core, 1, T.U8, 2, 2, [10, 99, 30, 98], col=4)
    tile(core, 2, T.U8, 2, 2, [100, 101, 102, 103], col=4)
    for a, v in ((0x100, 10), (0x103, 20), (0x105, 30), (0x107, 40)):
        core.gm[a] = v
    done, r = run(core, arch, cas_block(), 0x108)
    assert done
    phys = core.local.physical(r.destination).payloads[0]
    assert phys[:2].tolist() == [[10, 20], [30, 40]] and phys[2, 0] == 0xFF
    ev = core.memory_events
    assert len(ev) == 4 and all(isinstance(e, AtomicEvent) and e.kind == "atomic" for e in ev)
    assert sum(e.performed for e in ev) == 2
    assert [int(core.gm[a]) for a in (0x100, 0x103, 0x105, 0x107)] == [100, 20, 102, 40]


@avs("PTO-AVS-BLOCK-MGATHER-CAS-DUP-001")
def test_mgather_cas_duplicate_serializes():
    """Two lanes on 0x180 (holding 10), both expecting 10, replacements 20 and 30: exactly one
    succeeds; the outcome is one of the two serializations (ours: lane order, memory 20,
    observed 10 then 20)."""
    core, arch = fresh()
    tile(core, 0, T.U32, 1, 2, [0, 0])
    tile(core, 1, T.U8, 1, 2, [10, 10])
    tile(core, 2, T.U8, 1, 2, [20, 30])
    core.gm[0x180] = 10
    done, r = run(core, arch, cas_block(pad=False, lbs=((0, 2),)), 0x180)
    assert done
    ev = core.memory_events
    assert len(ev) == 2 and sum(e.performed for e in ev) == 1
    obs, mem = core.local.read(r.destination).ravel().tolist(), int(core.gm[0x180])
    assert (mem, obs) in ((20, [10, 20]), (30, [30, 10]))


@avs("PTO-AVS-BLOCK-MGATHER-CAS-FAULT-001")
def test_mgather_cas_second_lane_faults():
    """U16 lanes at 4094 and 4096: DataPage at 4096; the first lane's memory, the event log
    and the allocation are unchanged."""
    core, arch = fresh()
    tile(core, 0, T.U32, 1, 2, [0, 2])
    tile(core, 1, T.U16, 1, 2, [0, 0])
    tile(core, 2, T.U16, 1, 2, [7, 7])
    assert run(core, arch, cas_block(pad=False, dt=26, lbs=((0, 2),)), 4094) == (False, None)
    assert arch.last_fault is FaultCode.DATA_PAGE and arch.fault_address == 4096
    assert core.memory_events == [] and not core.gm.any() and capacity(core) == 3 * 128


@avs("PTO-AVS-BLOCK-MGATHER-CAS-SCHEMA-001")
def test_mgather_cas_missing_ior():
    core, arch = fresh()
    tile(core, 0, T.U32, 1, 1, [0])
    tile(core, 1, T.U8, 1, 1, [0])
    tile(core, 2, T.U8, 1, 1, [5])
    assert run(core, arch, cas_block(False, False, lbs=((0, 1),)), 0) == (False, None)
    assert arch.last_fault is FaultCode.TILE_LEGALITY
    assert core.memory_events == [] and not core.gm.any() and capacity(core) == 3 * 128


@avs("PTO-AVS-TILE-MGATHER-CAS-RMW-001")
def test_tile_mgather_cas_rmw():
    """The tile instruction: the matching lane stores its replacement, the other keeps memory,
    both old values reach the destination, two atomic events."""
    core = Core()
    tile(core, 0, T.U8, 1, 2, [0, 0])
    tile(core, 1, T.S32, 1, 2, [0, 1])
    tile(core, 2, T.U8, 1, 2, [5, 9])
    tile(core, 3, T.U8, 1, 2, [50, 90])
    core.gm[0x200:0x202] = [5, 6]
    core.start_memory_event_capture(0)
    core.mgather_cas(0, 0x200, 1, 2, 3)
    assert core.local.read(0).ravel().tolist() == [5, 6]
    assert core.gm[0x200:0x202].tolist() == [50, 6]
    assert [(e.kind, e.performed) for e in core.memory_events] == [("atomic", True),
                                                                     ("atomic", False)]


# ---- MSCATTER --------------------------------------------------------------------------------
def scatter_block(dt: int = 27, lbs=((0, 2), (1, 2)), with_ior: bool = True):
    cmds = [start(5, dt), *(dim(k, v) for k, v in lbs), iot(0x4013, 1, 2)]
    return [*cmds, *([ior()] if with_ior else []), STOP]


@avs("PTO-AVS-BLOCK-MSCATTER-SCATTER-001")
def test_mscatter_scatter():
    """A 2x2 U8 source (Col 2) and an S64 index tile (Col 4): four byte-displaced stores, four
    store events; both descriptors unchanged."""
    core, arch = fresh()
    tile(core, 1, T.U8, 2, 2, [1, 2, 3, 4], col=2)
    tile(core, 2, T.S64, 2, 2, [0, 3, -2, 7], col=4)
    before = (core.local.type_of(1), core.local.type_of(2))
    done, _ = run(core, arch, scatter_block(lbs=((0, 2), (1, 2), (2, 2))), 0x202)
    assert done
    assert [int(core.gm[a]) for a in (0x202, 0x205, 0x200, 0x209)] == [1, 2, 3, 4]
    assert [(k, a) for k, a, _, _ in events(core)] == [("store", 0x202), ("store", 0x205),
                                                       ("store", 0x200), ("store", 0x209)]
    assert (core.local.type_of(1), core.local.type_of(2)) == before


@avs("PTO-AVS-BLOCK-MSCATTER-STAGE2-WIDTH-001")
def test_mscatter_index_widths_and_raw_carrier():
    """U64 index 0 stores a U64 at 0x100; U64 index 2^32 faults DataPage at 0x100000100 with no
    event; S16 -1 stores at base - 1; the TF32 encoding 0x3f800001 is stored unchanged."""
    core, arch = fresh()
    tile(core, 1, T.U64, 1, 1, [0x1122334455667788])
    tile(core, 2, T.U64, 1, 1, [0])
    assert run(core, arch, scatter_block(24, ((0, 1),)), 0x100)[0]
    assert core.gm[0x100:0x108].view("<u8")[0] == 0x1122334455667788
    core, arch = fresh()
    tile(core, 1, T.U64, 1, 1, [1])
    tile(core, 2, T.U64, 1, 1, [1 << 32])
    assert run(core, arch, scatter_block(24, ((0, 1),)), 0x100) == (False, None)
    assert arch.fault_address == 0x100000100 and core.memory_events == []
    core, arch = fresh()
    tile(core, 1, T.U8, 1, 1, [0x5A])
    tile(core, 2, T.S16, 1, 1, [-1])
    assert run(core, arch, scatter_block(27, ((0, 1),)), 0x100)[0] and core.gm[0xFF] == 0x5A
    core, arch = fresh()
    tile(core, 1, T.TF32, 1, 1, np.array([0x3F800001], np.uint32).view(np.float32))
    tile(core, 2, T.U32, 1, 1, [0])
    assert run(core, arch, scatter_block(int(T.TF32), ((0, 1),)), 0x100)[0]
    assert core.gm[0x100:0x104].view("<u4")[0] == 0x3F800001


@avs("PTO-AVS-BLOCK-MSCATTER-FAULT-001")
def test_mscatter_second_lane_faults():
    core, arch = fresh()
    tile(core, 1, T.U16, 1, 2, [0x1111, 0x2222])
    tile(core, 2, T.U32, 1, 2, [0, 2])
    assert run(core, arch, scatter_block(26, ((0, 2),)), 4094) == (False, None)
    assert arch.last_fault is FaultCode.DATA_PAGE and arch.fault_address == 4096
    assert core.memory_events == [] and not core.gm.any()


@avs("PTO-AVS-BLOCK-MSCATTER-DUP-001", "PTO-AVS-BLOCK-MSCATTER-MASK-DUP-001")
def test_mscatter_duplicates():
    """Two lanes on one byte, with B.CATR atomic clear or set (MSCATTER and MSCATTER.MASK):
    either complete lane value may remain; always two store events; sources persist."""
    catr = isa.BCatr(atom=1)
    for masked in (False, True):
        for atomic in (False, True):
            core, arch = fresh()
            tile(core, 1, T.U8, 1, 2, [0xA1, 0xB2])
            tile(core, 2, T.U32, 1, 2, [4, 4])
            pred(core, 3, [True, True])
            body = ([iot(0x4013, 1, 2, False), iot(0x5013, 3)] if masked
                    else [iot(0x4013, 1, 2)])  # fmt: skip
            head = [start(7 if masked else 5, 27)]
            if atomic:
                head.append(catr)
            done, _ = run(core, arch, [*head, dim(0, 2), *body, ior(), STOP], 0x300)
            assert done and int(core.gm[0x304]) in (0xA1, 0xB2)
            assert [k for k, *_ in events(core)] == ["store", "store"]
            assert core.local.read(1).ravel().tolist() == [0xA1, 0xB2]


@avs("PTO-AVS-BLOCK-MSCATTER-SCHEMA-001")
def test_mscatter_schema_faults():
    """Missing B.IOR, a source whose type is not the BSTART type, an FP32 index tile:
    TileLegality, no event, no write."""
    cases = ((T.U8, T.U32, 27, False), (T.U16, T.U32, 27, True), (T.U8, T.FP32, 27, True))
    for dtype, itype, dt, with_ior in cases:
        core, arch = fresh()
        tile(core, 1, dtype, 1, 1, [1])
        tile(core, 2, itype, 1, 1, [0])
        assert run(core, arch, scatter_block(dt, ((0, 1),), with_ior), 0) == (False, None)
        assert arch.last_fault is FaultCode.TILE_LEGALITY
        assert core.memory_events == [] and not core.gm.any()


@avs("PTO-AVS-TILE-MSCATTER-BYTES-001")
def test_tile_mscatter_bytes():
    core = Core()
    tile(core, 0, T.U8, 1, 2, [0x11, 0x44])
    tile(core, 1, T.S32, 1, 2, [0, 3])
    core.start_memory_event_capture(0)
    core.mscatter(0x200, 0, 1)
    assert (core.gm[0x200], core.gm[0x203]) == (0x11, 0x44)
    assert [(k, a) for k, a, _, _ in events(core)] == [("store", 0x200), ("store", 0x203)]
    assert core.local.read(0).ravel().tolist() == [0x11, 0x44]
    assert core.local.read(1).ravel().tolist() == [0, 3]


# ---- MSCATTER.MASK ---------------------------------------------------------------------------
def mask_scatter_block(with_ior: bool = True, last_first: bool = False):
    binds = [iot(0x4013, 1, 2, last_first), iot(0x5013, 3, last=not last_first)]
    return [start(7, 27), dim(0, 3), dim(2, 4), *binds, *([ior()] if with_ior else []), STOP]


@avs("PTO-AVS-BLOCK-MSCATTER-MASK-SCATTER-001")
def test_mscatter_mask_scatter():
    """S32 -2, 5000 (disabled), 4 from 0x202: 0x11 at 0x200, 0x33 at 0x206, two events; the
    three sources stay allocated."""
    core, arch = fresh()
    tile(core, 1, T.U8, 1, 3, [0x11, 0x22, 0x33], col=4)
    tile(core, 2, T.S32, 1, 3, [-2, 5000, 4], col=8)
    pred(core, 3, [True, False, True])
    done, _ = run(core, arch, mask_scatter_block(), 0x202)
    assert done and len(core.memory_events) == 2
    assert (core.gm[0x200], core.gm[0x206]) == (0x11, 0x33)
    assert all(core.local.allocated(i) for i in (1, 2, 3))


@avs("PTO-AVS-BLOCK-MSCATTER-MASK-FAULT-001")
def test_mscatter_mask_enabled_lane_faults():
    core, arch = fresh()
    tile(core, 1, T.U8, 1, 3, [0x11, 0x22, 0x33], col=4)
    tile(core, 2, T.S32, 1, 3, [0, 0x7FFFFF, 0x1000], col=8)
    pred(core, 3, [True, False, True])
    assert run(core, arch, mask_scatter_block(), 0) == (False, None)
    assert arch.last_fault is FaultCode.DATA_PAGE and arch.fault_address == 0x1000
    assert core.memory_events == [] and core.gm[0] == 0


@avs("PTO-AVS-BLOCK-MSCATTER-MASK-PRED-001")
def test_mscatter_mask_numeric_mask_rejected():
    core, arch = fresh()
    tile(core, 1, T.U8, 1, 3, [1, 2, 3], col=4)
    tile(core, 2, T.S32, 1, 3, [0, 1, 2], col=8)
    tile(core, 3, T.U8, 1, 3, [1, 1, 1], col=4)
    assert run(core, arch, mask_scatter_block(), 0x100) == (False, None)
    assert arch.last_fault is FaultCode.TILE_LEGALITY
    assert core.memory_events == [] and not core.gm.any()


@avs("PTO-AVS-BLOCK-MSCATTER-MASK-SCHEMA-001")
def test_mscatter_mask_schema():
    """A non-terminating two-record stream without B.IOR: TileLegality, no event."""
    core, arch = fresh()
    tile(core, 1, T.U8, 1, 3, [1, 2, 3], col=4)
    tile(core, 2, T.S32, 1, 3, [0, 1, 2], col=8)
    pred(core, 3, [True, True, True])
    cmds = [start(7, 27), dim(0, 3), dim(2, 4), iot(0x4013, 1, 2, False),
            iot(0x5013, 3, last=False), STOP]  # fmt: skip
    assert run(core, arch, cmds, 0x100) == (False, None)
    assert core.memory_events == [] and not core.gm.any()
    assert arch.last_fault in (FaultCode.TILE_LEGALITY, FaultCode.BUNDLE_CONTROL)


@avs("PTO-AVS-TILE-MSCATTER-MASK-LANES-001")
def test_tile_mscatter_mask_lanes():
    core = Core()
    tile(core, 0, T.U8, 1, 2, [0x11, 0x22])
    tile(core, 1, T.S32, 1, 2, [0, 1])
    pred(core, 2, [True, False])
    core.gm[0x201] = 0x99
    core.start_memory_event_capture(0)
    core.mscatter_mask(0x200, 0, 1, 2)
    assert core.gm[0x200:0x202].tolist() == [0x11, 0x99] and len(core.memory_events) == 1


# ---- the tile-level gathers ------------------------------------------------------------------
@avs("PTO-AVS-TILE-MGATHER-BYTES-001")
def test_tile_mgather_bytes():
    core = Core()
    tile(core, 0, T.U8, 1, 2, [0, 0])
    tile(core, 1, T.S32, 1, 2, [0, 3])
    core.gm[0x200], core.gm[0x203] = 0x11, 0x44
    core.start_memory_event_capture(0)
    core.mgather(0, 0x200, 1, "max")
    assert len(core.memory_events) == 2
    phys = core.local.physical(0).payloads[0]
    assert phys[0].tolist() == [0x11, 0x44] and (phys[1] == 0xFF).all()


@avs("PTO-AVS-TILE-MGATHER-MASK-LANES-001")
def test_tile_mgather_mask_lanes():
    core = Core()
    tile(core, 0, T.U8, 1, 2, [7, 7])
    tile(core, 1, T.S32, 1, 2, [0, 0x7FFFFF])
    pred(core, 2, [True, False])
    core.gm[0x200] = 0x5A
    core.start_memory_event_capture(0)
    core.mgather_mask(0, 0x200, 1, 2, "zero")
    assert core.local.read(0).ravel().tolist() == [0x5A, 0] and len(core.memory_events) == 1


# ---- TPREFETCH -------------------------------------------------------------------------------
@avs("PTO-AVS-BLOCK-TPREFETCH-FOOTPRINT-001")
def test_tprefetch_footprint():
    """U16 2x2 (Col 2) from each PE's base (0x100 + 0x40 p) and stride 8 elements: sixteen
    acquire events grouped by PE, at base + 16 r + 2 c; no tile allocated."""
    core, arch = fresh()
    for p in range(4):
        core.write_gpr(p, 2, 0x100 + 0x40 * p)
        core.write_gpr(p, 3, 8)
    cmds = [start(3, 26), isa.BCatr(aq=1), dim(0, 2), dim(1, 2), dim(2, 2),
            ior(2, 3), STOP]  # fmt: skip
    done, _ = run(core, arch, cmds)
    assert done and capacity(core) == 0
    ev = core.memory_events
    assert [(e.agent, e.address, e.size) for e in ev] == [
        (p, 0x100 + 0x40 * p + 16 * r + 2 * c, 2) for p in range(4) for r in (0, 1)
        for c in (0, 1)]  # fmt: skip
    assert all(e.order.name == "ACQUIRE" for e in ev)


@avs("PTO-AVS-BLOCK-TPREFETCH-PACKED-001")
def test_tprefetch_packed():
    """U4X2 1x2: each PE's two logical elements are two one-byte events at the same byte."""
    core, arch = fresh()
    for p in range(4):
        core.write_gpr(p, 2, 0x200 + p)
    done, _ = run(core, arch, [start(3, int(T.U4X2)), dim(0, 2), ior(2, 0), STOP])
    assert done
    assert [(e.agent, e.address, e.size) for e in core.memory_events] == [
        (p, 0x200 + p, 1) for p in range(4) for _ in (0, 1)]  # fmt: skip


@avs("PTO-AVS-BLOCK-TPREFETCH-DEFAULTS-001")
def test_tprefetch_defaults():
    """Without B.IOR and LBs: one element at address 0 per PE; an explicit zero stride makes
    two rows alias (both rows at the base), not the LB2 default."""
    core, arch = fresh()
    assert run(core, arch, [start(3, 27), STOP])[0]
    assert [(e.agent, e.address) for e in core.memory_events] == [(p, 0) for p in range(4)]
    core, arch = fresh()
    for p in range(4):
        core.write_gpr(p, 2, 0x40)
    assert run(core, arch, [start(3, 27), dim(0, 1), dim(1, 2), dim(2, 4), ior(2, 0), STOP])[0]
    assert [e.address for e in core.memory_events] == [0x40] * 8


@avs("PTO-AVS-BLOCK-TPREFETCH-SCHEMA-001")
def test_tprefetch_schema():
    """Binding-free: succeeds; a B.IOT, a B.IOS or an explicit zero LB: TileLegality with no
    allocation or Shared state change."""
    from conformance.test_avs_shared import ios

    core, arch = fresh()
    assert run(core, arch, [start(3, 27), dim(0, 1), STOP])[0]
    for extra in ([iot(0x5013, 0, size=1)], [ios(3, 1, 7)], [dim(1, 0)]):
        core, arch = fresh()
        tile(core, 0, T.U8, 1, 1, [0])
        assert run(core, arch, [start(3, 27), dim(0, 1), *extra, STOP]) == (False, None)
        assert arch.last_fault in (FaultCode.TILE_LEGALITY, FaultCode.BUNDLE_CONTROL)
        assert capacity(core) == 128 and core.memory_events == []


@avs("PTO-AVS-BLOCK-TPREFETCH-FAULT-001")
def test_tprefetch_fault_and_retry():
    """PE2's base outside GM: DataPage with no event; after the GPR is repaired the same block
    gives four events."""
    core, arch = fresh()
    core.write_gpr(2, 2, 0x2000)
    cmds = [start(3, 27), dim(0, 1), ior(2, 0), STOP]
    assert run(core, arch, cmds) == (False, None)
    assert arch.last_fault is FaultCode.DATA_PAGE and arch.fault_address == 0x2000
    assert core.memory_events == []
    core.write_gpr(2, 2, 0x20)
    assert run(core, arch, cmds)[0] and len(core.memory_events) == 4


@avs("PTO-AVS-TILE-TPREFETCH-REQUESTS-001")
def test_tile_tprefetch_requests():
    core = Core()
    core.start_memory_event_capture(0)
    core.tprefetch(0x300, 2, 2, 1, 2, T.U8)
    assert [(e.agent, e.address) for e in core.memory_events] == [
        (p, 0x300 + c) for p in range(4) for c in (0, 1)]  # fmt: skip
    assert capacity(core) == 0


# ---- GMOV ------------------------------------------------------------------------------------
def gmov_block(mode: int = 7, size: int = 1, src: int = 0):
    return [start(13, 27), iot(0x5013, src, size=size, mode=mode), ior(5), STOP]


def core4_source(core: Core) -> None:
    t = TileType((128, 1), T.U8, valid=(1, 1), size=128, pe="1111")
    core.local.configure(0, t, np.array([[[10]], [[11]], [[12]], [[13]]], np.uint8))


@avs("PTO-AVS-BLOCK-GMOV-COLLECTIVE-001")
def test_gmov_collective():
    """Mask 1111, peer_tid 3 2 1 0: PE p receives PE (3 - p)'s fragment; no memory event."""
    core, arch = fresh()
    core4_source(core)
    for p in range(4):
        core.write_gpr(p, 5, 3 - p)
    done, r = run(core, arch, gmov_block())
    assert done and core.local.read(r.destination).ravel().tolist() == [13, 12, 11, 10]
    assert core.memory_events == [] and core.local.contents_defined(0)


@avs("PTO-AVS-BLOCK-GMOV-PEER-001")
def test_gmov_peer_range():
    """One PE's peer_tid 4 rejects the collective before allocation; four repeated 2s copy
    PE2's fragment everywhere."""
    core, arch = fresh()
    core4_source(core)
    for p in range(4):
        core.write_gpr(p, 5, 4 if p == 1 else 2)
    assert run(core, arch, gmov_block()) == (False, None)
    assert arch.last_fault is FaultCode.TILE_LEGALITY and capacity(core) == 4 * 128
    core.write_gpr(1, 5, 2)
    done, r = run(core, arch, gmov_block())
    assert done and core.local.read(r.destination).ravel().tolist() == [12] * 4


@avs("PTO-AVS-BLOCK-GMOV-READINESS-001")
def test_gmov_readiness():
    """A source held by three PEs rejects a one-PE request before allocation or events."""
    core, arch = fresh()
    t = TileType((128, 1), T.U8, valid=(1, 1), size=128, pe="1110")
    core.local.configure(0, t, np.array([[[1]], [[2]], [[3]]], np.uint8))
    assert run(core, arch, gmov_block(mode=1)) == (False, None)
    assert arch.last_fault is FaultCode.TILE_LEGALITY
    assert capacity(core) == 3 * 128 and core.memory_events == []


@avs("PTO-AVS-TILE-GMOV-COPY-001")
def test_tile_gmov_copy():
    core = Core()
    core4_source(core)
    t = TileType((128, 1), T.U8, valid=(1, 1), size=128, pe="1111")
    core.local.configure(1, t, np.zeros((4, 1, 1), np.uint8))
    core.start_memory_event_capture(0)
    core.gmov(1, 0, [1, 1, 0, 0])
    assert core.local.read(1).ravel().tolist() == [11, 11, 10, 10]
    assert core.local.contents_defined(0) and core.memory_events == []


# ---- the units -------------------------------------------------------------------------------
test_indexed_units = avs_units({
    "PTO-AVS-TILE-MODEL-LEGALITY-INDEXED-LAYOUT-STATIC-001": "interpreter.machine.indexed_tlsu:IndexedTLSU",
    "PTO-AVS-TILE-MODEL-MEMORY-GATHER-SCATTER-STATIC-001": "interpreter.kernels.indexed:gather",
    "PTO-AVS-TILE-MODEL-MEMORY-ATOMICS-STATIC-001":
        "interpreter.kernels.indexed:compare_and_swap",
})  # fmt: skip


def test_fault_kind_of_a_legality_fault():
    """A schema fault is a PTOFault of kind TileLegality (the one run-time exception type)."""
    from pto_dialect.faults import PTOFault

    core = Core()
    tile(core, 0, T.FP32, 1, 1, [0.0])
    with pytest.raises(PTOFault) as e:
        core.execute(gather_block(27, [(0, 1)]))
    assert e.value.kind == FaultKind.TILE_LEGALITY
