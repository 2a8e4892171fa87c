"""AVS pass conditions of the tile-model memory units about the global-memory ops (D17, D25).

``asl/tile/model/memory/load-store.asl`` (the indexed and packed TLSU bounds, the fault
positions) and ``restart.asl`` (precise restart of a faulting gather / scatter): the AVS tests
call the tile instructions by register number (``MGATHER(destination, base, indices)``,
``MSCATTER(base, source, indices)``, ``TPREFETCHAllPEs``, ``TLOAD``, ``TSTORE``), which
:class:`interpreter.machine.shared_blocks.Core` provides; a faulting instruction is run as the attempt
at a TPC of :class:`interpreter.machine.arch.ArchState` to read ``_LastFault`` / ``_FaultAddress``.
Expected values are the AVS's (hand-derived: byte displacements unscaled, the first failing
lane decides the address, nothing changes before the preflight passed; 4 KiB GM).
"""

from __future__ import annotations

import numpy as np

from conformance.inventory import avs
from interpreter.machine.arch import ArchState
from interpreter.machine.shared_blocks import Core
from interpreter.ssa.runtime import storage_dtype
from pto_dialect.attributes import TileType
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import FaultCode


def configure(core: Core, i: int, dt: T, cap: int, vc: int, values=None) -> None:
    """``ConfigureTile(i, cap, 1, 16, 1, vc, dt)`` on PE0 (rows derived from the capacity)."""
    rows = cap * 8 // (16 * dt.info.carrier_bits)
    t = TileType((rows, 16), dt, valid=(1, vc), size=cap, pe="1000")
    sd = storage_dtype(dt)
    v = np.zeros((1, vc), sd) if values is None else (
        np.array(values, np.uint64).astype(f"u{sd.itemsize}").view(sd).reshape(1, vc))  # fmt: skip
    core.local.configure(i, t, v)


def fault_of(core: Core, arch: ArchState, fn, *args) -> tuple[FaultCode, int | None]:
    """Run ``fn(*args)`` as an attempt; its fault code and address (events captured for agent
    2 as the AVS does; they must stay empty)."""
    core.start_memory_event_capture(2)
    done, _ = arch.run_at(0x40, fn, *args)
    core.stop_memory_event_capture()
    assert not done and core.memory_events == []
    return arch.last_fault, arch.fault_address


def element(core: Core, i: int, col: int) -> int:
    v = core.local.read(i)[0, 0, col]
    return int(np.asarray(v).view(f"u{v.dtype.itemsize}"))


@avs("PTO-AVS-TILE-TLSU-INDEXED-BOUND-002")
def test_packed_and_indexed_selectors_and_restart():
    """U64 displacements 1 0 1 from 0x180: three one-byte load events 0x181 0x180 0x181 (agent
    1), values 0x43 0x21 0x43; a scatter of 4 5 6 at 0x190 + 0 0 1: three store events, 0x190 is
    4 or 5 and 0x191 is 6. A packed U4X2 1x5 TLOAD at 4096, 4095 and 4094 (three bytes: the
    last one, 4096, is outside) faults DataPage with no event and the tile kept; at 0x1d0
    (0x21 0x43 0x05) it loads 1 2 3 4 5, low nibble first; its TSTORE at 4094 faults with
    both bytes kept; a scatter whose third displacement (4) passes the end faults too."""
    core = Core(arch=ArchState())
    arch = core.arch
    configure(core, 3, T.U8, 128, 3)
    configure(core, 4, T.U64, 2048, 3, [1, 0, 1])
    configure(core, 5, T.U8, 128, 3, [4, 5, 6])
    core.gm[0x180], core.gm[0x181] = 0x21, 0x43
    core.start_memory_event_capture(1)
    core.mgather(3, 0x180, 4)
    ev = core.memory_events
    assert [(e.kind, e.agent, e.address, e.size) for e in ev] == [
        ("load", 1, 0x181, 1), ("load", 1, 0x180, 1), ("load", 1, 0x181, 1)]  # fmt: skip
    assert [element(core, 3, c) for c in range(3)] == [0x43, 0x21, 0x43]
    core.local.write(4, np.array([[0, 0, 1]], np.uint64))
    core.gm[0x190] = 0xA9
    core.start_memory_event_capture(1)
    core.mscatter(0x190, 5, 4)
    assert [e.kind for e in core.memory_events] == ["store"] * 3
    assert core.gm[0x190] in (4, 5) and core.gm[0x191] == 6

    configure(core, 13, T.U4X2, 128, 5, [0xD] * 5)
    for base in (4096, 4095, 4094):
        if base == 4094:
            core.gm[4094], core.gm[4095] = 0xAA, 0xBB
        assert fault_of(core, arch, core.tload, 13, base, 5) == (FaultCode.DATA_PAGE, 4096)
        assert [element(core, 13, c) for c in range(5)] == [0xD] * 5
    core.gm[0x1D0:0x1D3] = [0x21, 0x43, 0x05]
    core.tload(13, 0x1D0, 5)
    assert [element(core, 13, c) for c in range(5)] == [1, 2, 3, 4, 5]
    assert fault_of(core, arch, core.tstore, 4094, 5, 13) == (FaultCode.DATA_PAGE, 4096)
    assert core.gm[4094:4096].tolist() == [0xAA, 0xBB]
    configure(core, 14, T.U64, 2048, 3, [0, 1, 4])
    configure(core, 15, T.U8, 128, 3, [7, 8, 9])
    assert fault_of(core, arch, core.mscatter, 4094, 15, 14) == (FaultCode.DATA_PAGE, 4098)
    assert core.gm[4094:4096].tolist() == [0xAA, 0xBB]


@avs("PTO-AVS-TILE-TLSU-FAULTS-BOUND-003")
def test_fault_positions():
    """First, middle and last access outside GM: a packed 1x5 TSTORE (bytes from 4096, 4095,
    4094) and a U8 TPREFETCH of all PEs (1 byte from 4096, 3 from 4095 and 4094) fault DataPage
    with no event; a U8 gather and scatter of three lanes whose displacement 6400 sits in lane
    0, 1 or 2 fault DataPage at 0x380 + 6400 with no event and no byte changed."""
    core = Core(arch=ArchState())
    arch = core.arch
    configure(core, 26, T.U4X2, 128, 5, [1, 2, 3, 4, 5])
    for start in (4096, 4095, 4094):
        assert fault_of(core, arch, core.tstore, start, 5, 26)[0] is FaultCode.DATA_PAGE
        count = 1 if start == 4096 else 3
        got = fault_of(core, arch, core.tprefetch, start, count, count, 1,
                       1 if count == 1 else 4, T.U8)  # fmt: skip
        assert got == (FaultCode.DATA_PAGE, 4096)
    configure(core, 27, T.U8, 128, 3, [9, 9, 9])
    configure(core, 28, T.U64, 2048, 3)
    for position in range(3):
        core.local.write(28, np.array([[6400 if k == position else 2 * k for k in range(3)]],
                                      np.uint64))  # fmt: skip
        core.gm[0x380:0x383] = [0x21, 0x43, 0x65]
        want = (FaultCode.DATA_PAGE, 0x380 + 6400)
        assert fault_of(core, arch, core.mgather, 27, 0x380, 28) == want
        assert [element(core, 27, c) for c in range(3)] == [9, 9, 9]
        assert fault_of(core, arch, core.mscatter, 0x380, 27, 28) == want
        assert core.gm[0x380:0x383].tolist() == [0x21, 0x43, 0x65]


@avs("PTO-AVS-TILE-TESTTILEMEMORYCOMPLETIONANDRESTART-EXECUTION-001")
def test_gather_scatter_precise_restart():
    """A U64 gather from 1024 with displacements whose first, middle or last lane is 3072
    (address 4096) is rejected with DataPage at 4096 and the destination keeps its 0x5a fill;
    after the index is repaired the same instruction completes (0x11 0x22 0x33). A scatter
    from 1536 with a middle displacement 2560 (4096) is rejected with the three GM words kept;
    repaired, it stores 1 2 3."""
    core = Core(arch=ArchState())
    arch = core.arch
    for w, a in ((0x11, 1024), (0x22, 1032), (0x33, 1040)):
        core.gm[a:a + 8] = np.array([w], "<u8").view(np.uint8)
    t = TileType((8, 4), T.U64, valid=(1, 3), size=256, pe="1000")
    core.local.configure(14, t, np.full((1, 3), 0x5A, np.uint64))
    for idx in ([3072, 8, 16], [0, 3072, 16], [0, 8, 3072]):
        core.local.configure(15, t, np.array([idx], np.uint64))
        assert fault_of(core, arch, core.mgather, 14, 1024, 15) == (FaultCode.DATA_PAGE, 4096)
        assert core.local.read(14).ravel().tolist() == [0x5A] * 3
    core.local.configure(15, t, np.array([[0, 8, 16]], np.uint64))
    assert arch.run_at(0x40, core.mgather, 14, 1024, 15)[0]
    assert core.local.read(14).ravel().tolist() == [0x11, 0x22, 0x33]

    core.local.configure(16, t, np.array([[1, 2, 3]], np.uint64))
    core.local.configure(17, t, np.array([[0, 2560, 16]], np.uint64))
    for w, a in ((0xAA, 1536), (0xBB, 1544), (0xCC, 1552)):
        core.gm[a:a + 8] = np.array([w], "<u8").view(np.uint8)
    assert fault_of(core, arch, core.mscatter, 1536, 16, 17) == (FaultCode.DATA_PAGE, 4096)
    assert core.gm[1536:1560].view("<u8").tolist() == [0xAA, 0xBB, 0xCC]
    core.local.configure(17, t, np.array([[0, 8, 16]], np.uint64))
    assert arch.run_at(0x40, core.mscatter, 1536, 16, 17)[0]
    assert core.gm[1536:1560].view("<u8").tolist() == [1, 2, 3]
