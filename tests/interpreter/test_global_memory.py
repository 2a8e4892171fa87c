"""GM data-access faults, memory events and the Local TLOAD / TSTORE of ``Core``
(interpreter/machine/global_memory.py, interpreter/machine/local_tlsu.py; docs/gm-faults.md).

Expected values are derived by hand: addresses ``base + row * stride + column * bytes``, the
first failing access in order decides the fault (alignment before permission), the 4-bit
read-modify-write of one byte, little-endian words.
"""

from __future__ import annotations

import numpy as np
import pytest

from interpreter.machine.arch import ArchState
from interpreter.machine.global_memory import GlobalMemory, gm_store
from interpreter.machine.shared_blocks import Core, dim
from pto_dialect import isa
from pto_dialect.attributes import TileType
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import FaultCode, FaultKind, PTOFault
from pto_dialect.geometry import Layout
from pto_dialect.memory_model import MemoryOrder

STOP = isa.BStop()
IOR = isa.BIor(src0=2, src1=3)


def load_block(dt: T, vc: int, vr: int, col: int | None, size: int, mode: int = 1,
               layout: int | None = None, *extra) -> list:  # fmt: skip
    """BSTART.TLOAD dt; [B.DATR layout]; LBs; B.IOR a0/a1; destination B.IOT hand T."""
    cmds = [isa.BStart(isa.BlockFamily.TLSU, 0, dt.value), *extra]
    if layout is not None:
        cmds.append(isa.BDatr(layout=layout, dtype=31 if layout >= 21 else 0))
    cmds += [dim(0, vc), dim(1, vr)] + ([dim(2, col)] if col else [])
    return cmds + [IOR, isa.BIot(last=1, size_code=size, pe_mode=mode, dst_hand=0), STOP]


def store_block(dt: T, src: int, mode: int = 1) -> list:
    return [isa.BStart(isa.BlockFamily.TLSU, 1, dt.value), IOR,
            isa.BIot(src0=src, last=1, pe_mode=mode), STOP]  # fmt: skip


def fault_of(fn, *args) -> PTOFault:
    with pytest.raises(PTOFault) as e:
        fn(*args)
    return e.value


def test_fault_codes_and_address():
    """Every existing construction still works; any architectural code but None is accepted;
    a data fault carries its address."""
    f = PTOFault(FaultKind.TILE_LEGALITY, "m", "pto.tadd")
    assert (f.kind, f.code, f.address, str(f)) == ("TileLegality", FaultCode.TILE_LEGALITY, None,
                                                   "'pto.tadd' [TileLegality] m")  # fmt: skip
    g = PTOFault(FaultCode.DATA_PAGE, "m", address=4096)
    assert g.kind == "DataPage" and g.address == 4096 and "0x1000" in str(g)
    for bad in ("None", "Bogus"):
        with pytest.raises(ValueError):
            PTOFault(bad, "m")


def test_probe_takes_the_first_failing_access():
    """[4096 (outside), 1 (misaligned)] -> DataPage at 4096; [1, 4096] -> DataAlignment at 1;
    a 2-byte access at 4094 ends exactly at 4096 and is permitted."""
    mem = GlobalMemory()
    f = fault_of(mem.probe, np.array([4096, 1], np.uint64), 2, "TLOAD")
    assert (f.kind, f.address) == ("DataPage", 4096)
    f = fault_of(mem.probe, np.array([1, 4096], np.uint64), 2, "TLOAD")
    assert (f.kind, f.address) == ("DataAlignment", 1)
    assert mem.probe(np.array([4094], np.uint64), 2, "TLOAD").tolist() == [4094]


def test_application_region_of_the_lower_rings():
    """ACR2..15 may access [0, 3072) only; ACR0/1 the whole 4 KiB."""
    arch = ArchState()
    core = Core(arch=arch)
    core.local.configure(0, TileType((64, 1), T.U16, size=128, pe="1000"), np.zeros((64, 1), np.uint16))
    core.tload(0, 3070, 2)  # rows at 3070.. beyond 3072 are fine in ACR0
    arch.set_acr(2)
    f = fault_of(core.tload, 0, 3070, 2)
    assert (f.kind, f.address) == ("DataPage", 3072)
    arch.set_acr(1)
    core.tload(0, 3070, 2)


def test_nibble_read_modify_write_events():
    """Three 4-bit stores to byte 8 (0xFF): low 5, high A, low 1 write 0xF5, 0xA5, 0xA1; the
    events carry those bytes and GM keeps the last."""
    mem = GlobalMemory(16)
    mem.data[8] = 0xFF
    mem.start_capture(2)
    gm_store(mem, np.array([8, 8, 8], np.uint64), np.array([0, 1, 2]), T.U4X2,
             np.array([5, 0xA, 1], np.uint64), order=MemoryOrder.RELEASE)  # fmt: skip
    assert [(e.kind, e.agent, e.address, e.size, e.value, e.order) for e in mem.events] == [
        ("store", 2, 8, 1, v, MemoryOrder.RELEASE) for v in (0xF5, 0xA5, 0xA1)]  # fmt: skip
    assert mem.data[8] == 0xA1


def test_local_tload_layouts_and_sign():
    """S16 2 x 3 (Col 4) from base 16, stride 10: words at 16, 18, 20 and 26, 28, 30 (signed);
    ND2DN gives the same logical values in a column-major tile; an ND2ZN U8 16 x 32 tile reads
    GM rows of 32 bytes."""
    core = Core()
    core.gm[16:32] = np.arange(-8, 8, dtype=np.int16)[:8].view(np.uint8)
    core.write_gpr(0, 2, 16)
    core.write_gpr(0, 3, 10)
    want = [[-8, -7, -6], [-3, -2, -1]]
    r = core.execute(load_block(T.S16, 3, 2, 4, 1))
    assert core.local.read(r.destination)[0].tolist() == want
    r = core.execute(load_block(T.S16, 3, 2, 4, 1, 1, 1))
    t = core.local.type_of(r.destination)
    assert t.layout_kind is Layout.COL_MAJOR and core.local.read(r.destination)[0].tolist() == want
    core.gm[:512] = np.arange(512) % 251
    core.write_gpr(0, 2, 0)
    core.write_gpr(0, 3, 32)
    r = core.execute(load_block(T.U8, 32, 16, 32, 3, 1, 3))
    assert core.local.type_of(r.destination).layout_kind is Layout.ZN
    assert core.local.read(r.destination)[0].tolist() == (np.arange(512) % 251).reshape(16, 32).tolist()


def test_local_four_bit_store_keeps_the_other_nibble():
    """U4 1 x 3 (codes 1, 2, 3) to byte 40 (0xFF, 0xFF): 0x21, then low nibble 3 under the
    kept high nibble: 0xF3. Loading it back gives 1, 2, 3."""
    core = Core()
    core.gm[40:42] = 0xFF
    t = TileType((16, 16), T.U4X2, valid=(1, 3), size=128, pe="1000")
    core.local.configure(1, t, np.array([[1, 2, 3]], np.uint8))
    core.tstore(40, 8, 1)
    assert core.gm[40:42].tolist() == [0x21, 0xF3]
    core.tload(1, 40, 8)
    assert core.local.read(1)[0].tolist() == [[1, 2, 3]]


def test_local_tstore_of_a_multi_pe_tile():
    """A U32 1 x 2 tile on PEs 0 and 1 (payloads 1 2 and 3 4) stored with mask 1100: both PEs
    store, in PE order, to the one footprint: GM keeps PE1's words, four store events; with the
    B.CATR aq bit the events are Acquire."""
    core = Core()
    t = TileType((32, 2), T.U32, valid=(1, 2), size=256, pe="1100")
    core.local.configure(4, t, np.array([[[1, 2]], [[3, 4]]], np.uint32))
    core.write_gpr(0, 2, 64)
    core.start_memory_event_capture(0)
    cmds = store_block(T.U32, 4, 5)
    core.execute([cmds[0], isa.BCatr(aq=1), *cmds[1:]])
    assert core.gm[64:72].view("<u4").tolist() == [3, 4]
    assert [(e.address, e.value, e.order) for e in core.memory_events] == [
        (64, 1, MemoryOrder.ACQUIRE), (68, 2, MemoryOrder.ACQUIRE),
        (64, 3, MemoryOrder.ACQUIRE), (68, 4, MemoryOrder.ACQUIRE)]  # fmt: skip


def test_local_block_rules():
    """A destination that does not fit its SizeCode is TileAllocation; a TSTORE whose source
    type or layout differs from the block is TileLegality; a faulting TLOAD allocates nothing."""
    core = Core()
    assert fault_of(core.execute, load_block(T.U32, 64, 1, 64, 1)).kind == "TileAllocation"
    core.local.configure(2, TileType((32, 2), T.U32, valid=(1, 2), size=256, pe="1000"),
                         np.zeros((1, 2), np.uint32))  # fmt: skip
    assert fault_of(core.execute, store_block(T.S32, 2)).kind == "TileLegality"
    dn = store_block(T.U32, 2)
    dn.insert(1, isa.BDatr(layout=6))  # DN2ND: a column-major source
    assert fault_of(core.execute, dn).kind == "TileLegality"
    core.write_gpr(0, 2, 4095)
    f = fault_of(core.execute, load_block(T.U8, 2, 1, 2, 1))
    assert (f.kind, f.address) == ("DataPage", 4096)
    assert [i for i in range(64) if core.local.allocated(i)] == [2]


def test_shared_faults_and_events_per_pe():
    """A Shared U16 TLOAD on PE1 (mask 0100, quarter 1 = rows 16..31) from PE1's base: 4095 puts
    row 16 at 4127, DataAlignment there (alignment before permission);
    4064 with stride 2 runs out at row 16 (4096, DataPage); in range its events are PE1's."""
    core = Core()
    cmds = [isa.BStart(isa.BlockFamily.TLSU, 0, T.U16.value), dim(0, 1), dim(1, 64), dim(2, 1),
            IOR, isa.BIos(7, size_code=1, pe_mode=2), STOP]  # fmt: skip
    core.write_gpr(1, 3, 2)
    core.write_gpr(1, 2, 4095)
    f = fault_of(core.execute, cmds)
    assert (f.kind, f.address) == ("DataAlignment", 4127)
    core.write_gpr(1, 2, 4064)  # quarter 1 = rows 16..31: 4064 + 31 * 2 = 4126
    f = fault_of(core.execute, cmds)
    assert (f.kind, f.address) == ("DataPage", 4096)
    assert core.shared.record(7) is None
    core.write_gpr(1, 2, 0)
    core.start_memory_event_capture(0)
    core.execute(cmds)
    assert {e.agent for e in core.memory_events} == {1} and len(core.memory_events) == 16
    assert [e.address for e in core.memory_events[:2]] == [32, 34]


def test_packed_tstore_fault_positions():
    """The TSTORE loop of AVS TLSU-FAULTS-BOUND-003 (the row stays not-implemented: its other
    loops are TPREFETCH, MGATHER and MSCATTER): a U4 1 x 5 tile stored at 4096, 4095 and 4094
    (columns at base + column // 2) first leaves GM at the first, third and fifth column,
    address 4096 each time, with no event and GM unchanged."""
    core = Core()
    t = TileType((16, 16), T.U4X2, valid=(1, 5), size=128, pe="0001")
    core.local.configure(26, t, np.arange(1, 6, dtype=np.uint8).reshape(1, 5))
    for base in (4096, 4095, 4094):
        core.start_memory_event_capture(0)
        f = fault_of(core.tstore, base, 5, 26)
        assert (f.kind, f.address) == ("DataPage", 4096)
        assert core.memory_events == [] and not core.gm.any()
