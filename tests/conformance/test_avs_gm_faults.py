"""AVS pass conditions about GM data-access faults and memory events (D17; docs/gm-faults.md).

These AVS tests run decoded TLOAD / TSTORE blocks (or the TSTORE tile instruction) against
architectural state with a 4 KiB byte GM, capture the memory events, and check the fault the
ASL raises (``ProbeDataAccess``: DataPage beyond the permitted memory, DataAlignment for a
misaligned access, each with the faulting access's address), the trap context, and that
nothing changed. We run the same command words (decoded by :func:`pto_dialect.isa.decode`) on
:class:`interpreter.machine.shared_blocks.Core`, as the instruction attempt at a TPC of
:class:`interpreter.machine.arch.ArchState` (``run_at``). Expected addresses are derived by hand:
``base + row * stride + column * element bytes`` modulo 2^64; the first failing access in
row-major order; GM is 4096 bytes.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs
from conformance.test_avs_shared import IOR_A0_A1, STOP, ios, tlsu, word
from interpreter.machine.arch import ArchState
from interpreter.machine.shared_blocks import Core, dim
from pto_dialect import isa
from pto_dialect.attributes import TileType
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import FaultCode, PTOFault
from pto_dialect.geometry import Layout, Location

PC = 0x40
"""The TPC of the block under test (even, so the saved context is recoverable)."""
CUBE_LOAD = [isa.decode(word(0x00011181, d=(31, 27, 4))),  # BSTART.TLOAD FP16
             isa.decode(word(0x00001023, t=(24, 20, 31), l=(11, 7, 22), p=(28, 27, 3))),
             dim(0, 1), dim(1, 3),  # LB0 = ValidCol 1, LB1 = ValidRow 3
             isa.decode(word(0x00006013, m=(11, 9, 1), z=(18, 15, 1), x=(19, 19, 1))),
             IOR_A0_A1, STOP]  # fmt: skip
"""The AVS's CUBE TLOAD: ND2M16 (Layout 22, DTYPE_NONE, PadValue 3), 3 x 1 FP16, destination
hand T SizeCode 1 on PE0 (PEMode 001 -> 1000), base = GPR2, row stride = GPR3."""
CUBE_STORE = [isa.decode(word(0x00111181, d=(31, 27, 4))),  # BSTART.TSTORE FP16
              isa.decode(word(0x00001023, t=(24, 20, 31), l=(11, 7, 25))),  # M162ND
              dim(0, 1), dim(1, 3),
              isa.decode(word(0x00005013, z=(18, 15, 0), m=(11, 9, 4), x=(19, 19, 1))),
              IOR_A0_A1, STOP]  # fmt: skip
"""The AVS's CUBE TSTORE: M162ND of tile 0 on PE3 (PEMode 100 -> 0001), base GPR2, stride GPR3."""


def attempt(core: Core, arch: ArchState, cmds, base: int, stride: int):
    """Write GPR2 / GPR3 of agent 0, capture events, run the block as the attempt at PC."""
    core.write_gpr(0, 2, base)
    core.write_gpr(0, 3, stride)
    core.start_memory_event_capture(0)
    done, result = arch.run_at(PC, core.execute, cmds)
    core.stop_memory_event_capture()
    return done, result


def fresh() -> tuple[Core, ArchState]:
    arch = ArchState()
    return Core(arch=arch), arch


def assert_data_fault(arch: ArchState, code: FaultCode, address: int) -> None:
    """``_LastFault`` / ``_FaultAddress``, the trap record (number 35 / 34, argument = the
    address) and a valid saved context at the faulting block's TPC in ACR0."""
    assert arch.last_fault is code and arch.fault_address == address
    bank = arch.banks[0]
    assert (bank.number, bank.argument0, bank.argument_valid) == (
        {FaultCode.DATA_PAGE: 35, FaultCode.DATA_ALIGNMENT: 34}[code], address, True)
    ctx = arch.trap_contexts[0]
    assert ctx.valid and ctx.tpc == PC and ctx.source_acr == 0


@avs("PTO-AVS-BLOCK-TLOAD-CUBE-ACCESS-003")
def test_cube_tload_access_faults():
    """First (base 4096), middle (stride 2^63 + 2: row 1 at 0x8000000000000002, row 2 wraps to
    4) and last (4092, 4094, 4096) access outside the 4 KiB GM: DataPage at that address, no
    event, no destination allocated (capacity 0), the context saved; in range it loads."""
    for base, stride, address in ((4096, 2, 4096), (0, 0x8000000000000002, 0x8000000000000002),
                                  (4092, 2, 4096)):  # fmt: skip
        core, arch = fresh()
        assert attempt(core, arch, CUBE_LOAD, base, stride) == (False, None)
        assert_data_fault(arch, FaultCode.DATA_PAGE, address)
        assert core.memory_events == []
        assert core.shared.core_capacity_in_use == 0
        assert not any(core.local.allocated(i) for i in range(64))
    core, arch = fresh()
    core.gm[4090:4096] = np.array([7, 8, 9], "<u2").view(np.uint8)
    done, result = attempt(core, arch, CUBE_LOAD, 4090, 2)
    assert done and core.local.read(result.destination).view(np.uint16).ravel().tolist() == [
        7, 8, 9]  # fmt: skip


@avs("PTO-AVS-BLOCK-TLOAD-PREFLIGHT-001")
def test_tload_preflight_second_element():
    """U32 1 x 2 (Col 2) on mask 1111 from 4092: the second element (4096) is outside GM:
    DataPage before any load event or destination; from 4088 both elements load."""
    cmds = [tlsu(0, 25), dim(0, 2), dim(1, 1), dim(2, 2),
            isa.decode(word(0x00006013, z=(18, 15, 1), m=(11, 9, 7), x=(19, 19, 1))),
            IOR_A0_A1, STOP]  # fmt: skip
    core, arch = fresh()
    core.gm[4092:4096] = [0xAA, 0, 0, 0]  # Store(4092, 4, 0xaa)
    assert attempt(core, arch, cmds, 4092, 2) == (False, None)
    assert_data_fault(arch, FaultCode.DATA_PAGE, 4096)
    assert core.memory_events == [] and core.shared.core_capacity_in_use == 0
    assert not core.local.allocated(0)
    done, result = attempt(core, arch, cmds, 4088, 2)
    assert done and core.local.read(result.destination)[:, 0].tolist() == [[0, 0xAA]] * 4
    assert [(e.kind, e.address, e.size, e.value) for e in core.memory_events] == [
        ("load", 4088, 4, 0), ("load", 4092, 4, 0xAA)]  # fmt: skip
    assert core.shared.core_capacity_in_use == 4 * 128


def _cube_source(core: Core) -> None:
    """``ConfigureCubeTileForMask(0, 128, 3, 1, FP16, CUBE_M16, Matrix, '0001')``, rows 1 2 3."""
    t = TileType((3, 1), T.FP16, layout=Layout.CUBE_M16, location=Location.MAT, size=128,
                 pe="0001")  # fmt: skip
    core.local.configure(0, t, np.array([[1], [2], [3]], np.uint16).view(np.float16))


@avs("PTO-AVS-BLOCK-TSTORE-CUBE-ACCESS-003")
def test_cube_tstore_access_faults():
    """The M162ND store of the 3 x 1 source faults DataPage at the first (4096), middle
    (0x8000000000000002) and last (4096, after 4092 and 4094) access: no event, the witness
    byte (0 or 4092) keeps 0xA5, the source keeps its descriptor and values; in range it
    stores 1 2 3."""
    for base, stride, address, witness in ((4096, 2, 4096, 0),
                                           (0, 0x8000000000000002, 0x8000000000000002, 0),
                                           (4092, 2, 4096, 4092)):  # fmt: skip
        core, arch = fresh()
        _cube_source(core)
        before = (core.local.type_of(0), core.local.read(0))
        core.gm[witness] = 0xA5
        assert attempt(core, arch, CUBE_STORE, base, stride) == (False, None)
        assert_data_fault(arch, FaultCode.DATA_PAGE, address)
        assert core.memory_events == []
        assert core.gm[witness] == 0xA5 and np.count_nonzero(core.gm) == 1
        assert core.local.type_of(0) == before[0] and core.local.contents_defined(0)
        assert np.array_equal(core.local.read(0), before[1])
    core, arch = fresh()
    _cube_source(core)
    assert attempt(core, arch, CUBE_STORE, 100, 4)[0]
    assert core.gm[100:112].view("<u2").tolist() == [1, 0, 2, 0, 3, 0]
    assert [(e.kind, e.address, e.value) for e in core.memory_events] == [
        ("store", 100, 1), ("store", 104, 2), ("store", 108, 3)]  # fmt: skip


@avs("PTO-AVS-TILE-TSTORE-PRECISE-001")
def test_tstore_precise():
    """``TSTORE(4088, 1, 5)`` of a U64 1 x 2 tile (``ConfigureTile``: PE3): the second element
    (4096) is outside GM: DataPage at 4096 with no event; the word at 4088 keeps 9 and the tile
    keeps 21, 22. A zero-mask TSTORE block has no effect."""
    core = Core()
    t = TileType((8, 2), T.U64, valid=(1, 2), size=128, pe="0001")  # rows derived: 8
    core.local.configure(5, t, np.array([[21, 22]], np.uint64))
    core.gm[4088:4096] = np.array([9], "<u8").view(np.uint8)
    core.start_memory_event_capture(0)
    with pytest.raises(PTOFault) as e:
        core.tstore(4088, 1, 5)
    assert e.value.kind == "DataPage" and e.value.address == 4096
    assert core.memory_events == []
    assert core.gm[4088:4096].view("<u8").tolist() == [9]
    assert core.local.read(5).tolist() == [[[21, 22]]]
    zero = [tlsu(1, 27), isa.decode(word(0x00005013, s=(25, 20, 5), m=(11, 9, 0), x=(19, 19, 1))),
            STOP]  # fmt: skip
    assert core.execute(zero).noop and core.memory_events == []
    assert core.gm[4088:4096].view("<u8").tolist() == [9]


@avs("PTO-AVS-TILE-PACKED-CAPACITY-BOUNDARY-001")
def test_packed_capacity_boundary():
    """Decoded U4 TLOADs with zero base and zero stride: the Local SizeCode 10 destination
    (16384 x 8 on PE0, 64 KiB) and the Shared SizeCode 12 S99 on PE3 (32768 x 16, 256 KiB)
    commit; logical indices 32768 / 131071 (Local) and 393216 / 524287 (Shared) are defined
    zeros, Shared element 0 (quarter 0) is undefined (99 XOR 0). With base 4094 and stride 0
    the fifth column (4094 + 4 // 2 = 4096) leaves GM: DataPage at 4096 before either
    destination is published."""
    local = [tlsu(0, 28), IOR_A0_A1, dim(0, 8), dim(1, 16384), dim(2, 8),
             isa.decode(word(0x00006013, z=(18, 15, 10), m=(11, 9, 1), x=(19, 19, 1))),
             STOP]  # fmt: skip
    core, arch = fresh()
    done, result = attempt(core, arch, local, 0, 0)
    d = result.destination
    t = core.local.type_of(d)
    assert done and (t.capacity, t.shape, t.valid_shape) == (65536, (16384, 8), (16384, 8))
    assert core.local.contents_defined(d)
    flat = core.local.read(d)[0].reshape(-1)  # row-major: logical index = row * 8 + column
    assert flat.size == 131072 and flat[[32768, 131071]].tolist() == [0, 0]
    shared = [tlsu(0, 28), IOR_A0_A1, dim(0, 16), dim(1, 32768), dim(2, 16), ios(99, 12, 0b100),
              STOP]  # fmt: skip
    core = Core()
    core.execute(shared)  # PE3's GPRs are zero: base 0, stride 0
    rec = core.shared.record(99)
    assert (rec.allocation, rec.initialized, rec.desc.capacity, rec.desc.rows) == (
        "0001", "0001", 262144, 32768)
    assert rec.desc.linear(np.array([24576, 32767]), np.array([0, 15])).tolist() == [
        393216, 524287]  # fmt: skip
    assert core.shared.read_words(99, [0, 393216, 524287]).tolist() == [99, 0, 0]
    core, arch = fresh()
    assert attempt(core, arch, local, 4094, 0) == (False, None)
    assert_data_fault(arch, FaultCode.DATA_PAGE, 4096)
    assert core.shared.core_capacity_in_use == 0
    core, arch = fresh()
    core.write_gpr(3, 2, 4094)
    shared[-2] = ios(100, 12, 0b100)
    assert arch.run_at(PC, core.execute, shared) == (False, None)
    assert_data_fault(arch, FaultCode.DATA_PAGE, 4096)
    assert core.shared.record(100) is None


@avs("PTO-AVS-BLOCK-TLOAD-CUBE-RETRY-004")
def test_cube_tload_retry():
    """Base 1 is misaligned for FP16: DataAlignment at 1 with no event and no destination (the
    register file is empty: the binding's destination is unallocated); the handler sets GPR2 to
    0, recovers the context (TPC back at the block) and the complete reissue of the block emits
    one load event per valid element (3) and publishes one 128 B descriptor in the hand's first
    register with rows 1 and 3 (payload (0, 0) = 1, (2, 0) = 3)."""
    core, arch = fresh()
    core.gm[0:6] = np.array([1, 2, 3], "<u2").view(np.uint8)
    assert attempt(core, arch, CUBE_LOAD, 1, 2) == (False, None)
    assert_data_fault(arch, FaultCode.DATA_ALIGNMENT, 1)
    assert core.memory_events == [] and core.shared.core_capacity_in_use == 0
    assert not any(core.local.allocated(i) for i in range(64))
    core.write_gpr(0, 2, 0)
    assert arch.recover_trap_context(0) and arch.control.tpc == PC
    arch.clear_fault()
    core.start_memory_event_capture(0)
    done, result = arch.run_at(arch.control.tpc, core.execute, CUBE_LOAD)
    assert done and arch.last_fault is FaultCode.NONE
    assert core.shared.core_capacity_in_use == 128 and result.destination == 0
    assert [(e.kind, e.address, e.size, e.value) for e in core.memory_events] == [
        ("load", 0, 2, 1), ("load", 2, 2, 2), ("load", 4, 2, 3)]  # fmt: skip
    t = core.local.type_of(0)
    assert (t.layout_kind, t.location.data, t.valid_shape, t.capacity) == (
        Layout.CUBE_M16, "mat", (3, 1), 128)
    v = core.local.read(0)[0].view(np.uint16)
    assert (v[0, 0], v[2, 0]) == (1, 3)
