"""AVS pass conditions about the Shared tile registers S0..S255 and their blocks (D17).

The AVS tests build command words with bit fields, run them against architectural state (Local
tiles by number, S registers, per-PE GPRs, GM bytes) and read the state back. We do the same
with our decoder (:func:`pto_dialect.isa.decode` of the same words) and
:class:`interpreter.machine.shared_blocks.Core`; the unit-level ones use
:class:`interpreter.machine.shared_registers.SharedRegisters` directly. Expected values are derived by
hand from the ASL (``UndefinedSharedTileWord`` = ``id XOR element``; quarter = byte offset x 4
// TSize; PE0 is the mask's leftmost bit).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.inventory import avs, avs_units
from interpreter.machine.shared_blocks import Core, dim
from interpreter.machine.shared_registers import (
    SharedDescriptor,
    SharedRegisters,
    SharedTile,
    tile_with,
)
from pto_dialect import isa
from pto_dialect.attributes import TileType
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from pto_dialect.geometry import Layout, Location
from pto_dialect.isa import BStart, BStop
from tests.budget import examples

STOP = BStop()


def word(base: int, **fields: tuple[int, int, int]) -> int:
    """``base`` with ``fields`` = {name: (msb, lsb, value)} set, as the AVS builds its words."""
    for msb, lsb, value in fields.values():
        width = msb - lsb + 1
        base = (base & ~(((1 << width) - 1) << lsb)) | ((value & ((1 << width) - 1)) << lsb)
    return base


def tlsu(function: int, dtype: int):
    """BSTART of TLSU ``function`` with DataType ``dtype`` (0x00011181, [24:20], [31:27])."""
    return isa.decode(word(0x00011181, f=(24, 20, function), d=(31, 27, dtype)))


def ios(sid: int, size: int, mode: int):
    """B.IOS S``sid``: 0x00001013, id [27:20], SizeCode [18:15], PEMode [11:9]."""
    return isa.decode(word(0x00001013, s=(27, 20, sid), z=(18, 15, size), m=(11, 9, mode)))


def iot_src(src: int, mode: int, last: bool = True):
    return isa.decode(word(0x00005013, s=(25, 20, src), l=(19, 19, int(last)), m=(11, 9, mode)))


def iot_dst(hand: int, size: int, mode: int):
    return isa.decode(word(0x00006013, z=(18, 15, size), h=(8, 7, hand), l=(19, 19, 1),
                           m=(11, 9, mode)))  # fmt: skip


IOR_A0_A1 = isa.decode(word(0x00000013, a=(19, 15, 2), b=(24, 20, 3)))


def fault_kind(fn, *args) -> str:
    with pytest.raises(PTOFault) as e:
        fn(*args)
    return e.value.kind


# ---- BSTART.TLOAD / TSTORE with B.IOS -------------------------------------------------------
@avs("PTO-AVS-BLOCK-TLOAD-SHARED-001")
def test_tload_shared_per_pe_base_and_stride():
    """Mask 0011 (PEMode 101): quarter 0 from PE0's base 0 / stride 128, quarter 1 from PE1's
    base 0x200 / stride 160 (row 1 -> 0x2a0); the other quarters stay uninitialized."""
    core = Core()
    core.write_gpr(0, 2, 0)
    core.write_gpr(1, 2, 0x200)
    core.write_gpr(0, 3, 128)
    core.write_gpr(1, 3, 160)
    core.gm[0], core.gm[0x2A0] = 0x11, 0x22
    core.execute([tlsu(0, 25), dim(0, 32), dim(1, 2), dim(2, 32), ios(31, 3, 0b101),
                  IOR_A0_A1, STOP])  # fmt: skip
    rec = core.shared.record(31)
    assert rec.allocation == "1100" and rec.initialized == "1100"
    assert core.shared.read_word(31, 0) == 0x11
    assert core.shared.read_word(31, 32) == 0x22  # U32: element 32 is byte 128 -> quarter 1
    assert core.shared.read_word(31, 64) == 31 ^ 64  # quarter 2: undefined


@avs("PTO-AVS-BLOCK-TSTORE-UNDEF-001")
def test_tstore_unallocated_shared_source():
    """A U64 store of an unallocated S42 with no LBs: a temporary 1 x 1 descriptor of 128 B
    (the minimum capacity), the undefined word 42 ^ 0 reaches GM, S42 stays absent."""
    from interpreter.machine.descriptors import minimum_capacity

    assert minimum_capacity(1, 1, 1, T.U8) == 128
    core = Core()
    core.execute([tlsu(1, 24), ios(42, 0, 0b111), STOP])
    assert core.gm[0] == 42 and core.shared.record(42) is None


@avs("PTO-AVS-BLOCK-TSTORE-SHAPE-001")
def test_tstore_unallocated_shape_beyond_every_capacity():
    """9 rows of 32768 U64 columns fit no Shared capacity: TileLegality, GM and S99 unchanged."""
    from interpreter.machine.descriptors import minimum_capacity

    assert minimum_capacity(32768, 9, 32768, T.U8) == 0
    core = Core()
    core.gm[0] = 0x5A
    cmds = [tlsu(1, 24), dim(0, 32768), dim(1, 9), dim(2, 32768), ios(99, 0, 0b111), STOP]
    assert fault_kind(core.execute, cmds) == "TileLegality"
    assert core.gm[0] == 0x5A and core.shared.record(99) is None


@avs("PTO-AVS-BLOCK-TSTORE-MASK-001")
def test_tstore_shared_function_masks():
    """Function 1 with mask 1111 stores the undefined word of S7 (7 ^ 0); Function 1 with
    mask 1000 is TileLegality before GM changes; Function 14 (TSTORE.SPART) with 1000 completes."""
    core = Core()
    core.gm[0] = 0x55
    core.execute([tlsu(1, 24), ios(7, 0, 0b111), STOP])
    assert core.gm[0] == 7
    core = Core()
    core.gm[0] = 0x55
    assert fault_kind(core.execute, [tlsu(1, 24), ios(7, 0, 0b001), STOP]) == "TileLegality"
    assert core.gm[0] == 0x55
    core = Core()
    core.execute([tlsu(14, 24), ios(7, 0, 0b001), STOP])
    assert core.gm[0] == 7 and core.shared.record(7) is None


# ---- BSTART.TMOV Functions 9-12 -------------------------------------------------------------
@avs("PTO-AVS-BLOCK-TMOV-EXTRACT-001",
     unchecked="the destination's old bits outside the selected quarters (the AVS writes "
               "payload[32] of the unallocated register): our Local registers hold their valid "
               "rectangle only and no bits while unallocated")  # fmt: skip
def test_tmov_extract_unallocated_shared():
    """EXTRACT of an unallocated S42 with mask 1000 into hand U: register 16 is allocated, its
    element 0 (quarter 0) is the undefined word 42 ^ 0, its contents are not defined (a partial
    mask), and S42 stays absent."""
    core = Core()
    out = core.execute([tlsu(12, 27), ios(42, 0, 0b001), iot_dst(1, 1, 0b001), STOP])
    assert out.destination == 16 and core.local.allocated(16)
    assert core.local.read(16)[0, 0, 0] == 42
    assert not core.local.contents_defined(16)
    assert core.shared.record(42) is None
    # a register whose contents are not defined is not a source (TileSourceContentsDefined)
    assert fault_kind(core.local.execute, "pto.tabs", 16, 16) == "TileLegality"


def _local_u8(core: Core, index: int, value: int, mask: str = "1111") -> TileType:
    """``ConfigureTileForMask(index, 128, 128, 1, 1, 1, U8, RowMajor, Any, mask)``."""
    t = TileType((128, 1), T.U8, valid=(1, 1), size=128, pe=mask)
    core.local.configure(index, t, np.array([[value]], np.uint8))
    return t


@avs("PTO-AVS-BLOCK-TMOV-PUBLISH-001")
def test_tmov_insert_publish_broadcast():
    """INSERT fills S7 without publishing it, so BROADCAST is TileLegality with no destination
    allocated; PUBLISH publishes it; BROADCAST then copies 0x5a into register 16."""
    core = Core()
    _local_u8(core, 0, 0x5A)
    core.execute([tlsu(9, 27), iot_src(0, 0b111), ios(7, 1, 0b111), STOP])
    assert core.shared.fully_initialized(7) and not core.shared.published(7)
    assert core.shared.read_word(7, 0) == 0x5A
    broadcast = [tlsu(11, 27), ios(7, 0, 0b111), iot_dst(1, 1, 0b111), STOP]
    assert fault_kind(core.execute, broadcast) == "TileLegality"
    assert not core.local.allocated(16)
    core.execute([tlsu(10, 27), iot_src(0, 0b111), ios(7, 1, 0b111), STOP])
    assert core.shared.published(7)
    assert core.execute(broadcast).destination == 16
    assert core.local.read(16)[:, 0, 0].tolist() == [0x5A] * 4 and core.local.contents_defined(16)
    assert core.shared.published(7)


def test_tmov_l2s_rules():
    """INSERT of a partial mask updates only the selected quarters, each from its own PE's
    payload (D13); a different descriptor, an expansion of the allocation mask, a TSize
    different from the B.IOS SizeCode and a source not held by a selected PE are TileLegality
    with S unchanged; PUBLISH of a subset completes the fixed allocation; a zero mask is a
    no-op."""
    core = Core()
    t = TileType((16, 8), T.U8, valid=(16, 8), size=128)
    vals = np.arange(4 * 128, dtype=np.uint8).reshape(4, 16, 8)  # PE p: 128p .. 128p + 127
    core.local.configure(0, t, vals)
    core.execute([tlsu(9, 27), iot_src(0, 0b101), ios(3, 1, 0b101), STOP])  # mask 1100
    rec = core.shared.record(3)
    assert rec.allocation == "1100" and not rec.published
    e = np.arange(128)
    got = core.shared.read_words(3, e)
    want = np.where(e < 64, e + 128 * (e // 32), 3 ^ e)  # quarters 0, 1 from PEs 0, 1
    assert got.tolist() == want.tolist()
    before = core.shared.record(3)
    core.local.configure(2, t.with_(valid=(15, 8)), vals[:, :15])
    for cmds in ([tlsu(10, 27), iot_src(2, 0b001), ios(3, 1, 0b001), STOP],  # valid 15 x 8
                 [tlsu(9, 27), iot_src(0, 0b111), ios(3, 1, 0b111), STOP],  # expands 1100
                 [tlsu(9, 27), iot_src(0, 0b101), ios(3, 2, 0b101), STOP]):  # TSize 256 B
        assert fault_kind(core.execute, cmds) == "TileLegality"
        assert core.shared.record(3) is before
    # PUBLISH of 1000: the initialized mask (1100) already covers the allocation: published
    core.execute([tlsu(10, 27), iot_src(0, 0b001), ios(3, 1, 0b001), STOP])
    assert core.shared.published(3)
    core.local.configure(1, t.with_(pe="1000"), vals[0])
    assert fault_kind(core.execute, [tlsu(9, 27), iot_src(1, 0b111), ios(4, 1, 0b111),
                                     STOP]) == "TileLegality"  # fmt: skip
    assert core.shared.record(4) is None
    assert core.execute([tlsu(9, 27), iot_src(0, 0), ios(4, 1, 0), STOP]).noop


def test_tmov_s2l_extract_of_a_partial_register():
    """EXTRACT reads the selected quarters; BROADCAST needs allocation 1111 and mask 1111; a
    destination shape that does not fit the read schema is TileLegality before allocation."""
    core = Core()
    t = TileType((16, 8), T.U8, valid=(16, 8), size=128)
    core.local.configure(0, t, np.arange(128, dtype=np.uint8).reshape(16, 8))
    core.execute([tlsu(10, 27), iot_src(0, 0b101), ios(5, 1, 0b101), STOP])  # 1100, published
    out = core.execute([tlsu(12, 27), ios(5, 0, 0b101), iot_dst(2, 1, 0b101), STOP])
    assert out.destination == 32
    assert core.local.read(32)[0].ravel()[:64].tolist() == list(range(64))
    assert not core.local.contents_defined(32)  # mask 1100: not the whole tile
    broadcast = [tlsu(11, 27), ios(5, 0, 0b101), iot_dst(2, 1, 0b101), STOP]
    assert fault_kind(core.execute, broadcast) == "TileLegality"
    too_big = [tlsu(12, 27), dim(2, 16), ios(5, 0, 0b101), iot_dst(2, 1, 0b101), STOP]
    assert fault_kind(core.execute, too_big) == "TileLegality"
    assert not core.local.allocated(33)


@avs("PTO-AVS-BLOCK-B-IOT-SCHEMAS-001")
def test_iot_schemas_local_to_shared_and_gmov():
    """A TMOV Local-to-Shared B.IOT is source-only: one with a DstTile field (SizeCode 1) is
    TileLegality at that command; the size-0 source form binds mask 1111; a mask differing from
    the first binding's is TileLegality; a partial-mask GMOV binding is accepted."""
    for fn in (9, 10):
        cmds = [tlsu(fn, 24), iot_dst_src(0, 1, 0b101), STOP]
        with pytest.raises(PTOFault) as e:
            isa.check_program(cmds)
        assert e.value.kind == "TileLegality" and "command 1:" in str(e.value)
    s = isa.check_block([tlsu(9, 24), iot_src(0, 0b111), ios(1, 1, 0b111), STOP])
    assert s.mask == "1111" and s.destinations == () and s.sources == (0,)
    tadd = isa.BStart.op("TADD", T.U8.value)
    with pytest.raises(PTOFault) as e:
        isa.check_block([tadd, isa.BDim(0, 0, 1), iot_src(0, 0b101, last=False),
                         iot_src(1, 0b111), STOP])  # fmt: skip
    assert e.value.kind == "TileLegality" and "command 3:" in str(e.value)
    assert isa.check_block([tlsu(13, 24), iot_src(0, 0b110), STOP]).mask == "1110"


def iot_dst_src(src: int, size: int, mode: int):
    """A B.IOT with a source and a destination field (hand 0): 0x00005013 with SizeCode."""
    return isa.decode(word(0x00005013, s=(25, 20, src), l=(19, 19, 1), z=(18, 15, size),
                           m=(11, 9, mode)))  # fmt: skip


# ---- capacity ---------------------------------------------------------------------------------
CAPACITY_CASES = [  # (SizeCode, PEMode, commits, allocation mask)
    (11, 0b001, True, "1000"), (11, 0b101, True, "1100"), (11, 0b110, False, None),
    (11, 0b111, False, None), (12, 0b001, True, "1000"), (12, 0b101, False, None),
]  # fmt: skip


@avs("PTO-AVS-BLOCK-B-IOS-CAPACITY-003")
def test_shared_tload_capacity_boundaries():
    """128 KiB on one or two PEs and 256 KiB on one PE commit; 3 x 128 KiB, 4 x 128 KiB and
    2 x 256 KiB exceed the 256 KiB core capacity: TileLegality, no descriptor."""
    for sid, (code, mode, ok, alloc) in enumerate(CAPACITY_CASES, start=1):
        core = Core()
        cmds = [tlsu(0, 16), dim(0, 1), dim(1, 1), dim(2, 1), ios(sid, code, mode), STOP]
        if ok:
            core.execute(cmds)
            assert core.shared.record(sid).allocation == alloc
            assert core.shared.core_capacity_in_use == alloc.count("1") * (128 << (code - 1))
        else:
            assert fault_kind(core.execute, cmds) == "TileLegality"
            assert core.shared.record(sid) is None


def test_local_and_shared_share_the_core_capacity():
    """A Local tile charges against the Shared allocation and the other way round."""
    core = Core()
    core.execute([tlsu(0, 16), dim(0, 1), dim(1, 1), dim(2, 1), ios(1, 12, 0b001), STOP])
    big = TileType((128, 128), T.U32, size=64 * 1024, pe="1000")
    with pytest.raises(PTOFault):
        core.local.configure(0, big, np.zeros((128, 128), np.uint32))
    assert not core.local.allocated(0)
    core = Core()
    core.local.configure(0, big, np.zeros((128, 128), np.uint32))  # 64 KiB
    cmds = [tlsu(0, 16), dim(0, 1), dim(1, 1), dim(2, 1), ios(1, 12, 0b001), STOP]
    assert fault_kind(core.execute, cmds) == "TileLegality"
    core.local.release(0)
    core.execute(cmds)


@avs("PTO-AVS-BLOCK-B-IOS-CONSUMER-001")
def test_shared_tload_largest_size_code():
    """SizeCode 12 on PE3 (PEMode 100 -> 0001) publishes a 256 KiB descriptor; Col 32769 (not a
    power of two) faults TileLegality before any descriptor."""
    core = Core()
    core.execute([tlsu(0, 24), dim(0, 1), dim(1, 1), dim(2, 1), ios(91, 12, 0b100), STOP])
    rec = core.shared.record(91)
    assert rec.desc.capacity == 262144 and rec.allocation == "0001"
    core = Core()
    cmds = [tlsu(0, 24), dim(0, 32769), dim(1, 1), dim(2, 32769), ios(92, 12, 0b100), STOP]
    assert fault_kind(core.execute, cmds) == "TileLegality"
    assert core.shared.record(92) is None


def test_packed_capacity_local_and_shared():
    """Local: the 64 KiB U4 tile (the Local test). Shared: SizeCode 12, PE3, 32768 x 16 U4 with
    base and stride 0 from PE3's GPRs: 256 KiB, rows 32768; element 0 (quarter 0) is undefined,
    393216 (row 24576) and 524287 (the last) are defined zeros. A base of 4094 runs out of the
    4 KiB GM: a fault before the descriptor is published."""
    from conformance.test_avs_tile_model_state import (
        test_local_packed_tload_at_the_largest_size_code as local_path,
    )

    local_path()
    core = Core()
    cmds = [tlsu(0, 28), IOR_A0_A1, dim(0, 16), dim(1, 32768), dim(2, 16), ios(99, 12, 0b100),
            STOP]  # fmt: skip
    core.execute(cmds)
    rec = core.shared.record(99)
    assert (rec.allocation, rec.initialized) == ("0001", "0001")
    assert (rec.desc.capacity, rec.desc.rows, rec.desc.columns) == (262144, 32768, 16)
    assert rec.desc.linear(np.array([24576, 32767]), np.array([0, 15])).tolist() == [
        393216, 524287]  # fmt: skip
    assert not rec.tile.defined[0] and core.shared.read_word(99, 0) == 99
    assert rec.tile.defined[[393216, 524287]].all()
    assert core.shared.read_words(99, [393216, 524287]).tolist() == [0, 0]
    core = Core()
    core.write_gpr(3, 2, 4094)
    cmds[-2] = ios(100, 12, 0b100)
    with pytest.raises(PTOFault):
        core.execute(cmds)
    assert core.shared.record(100) is None


# ---- the Shared register model ---------------------------------------------------------------
def _u64_tile() -> SharedTile:
    """``ConfigureTile(0, 512, 1, 64, 1, 64, U64, ...)`` with words 1..64, all defined."""
    desc = SharedDescriptor(512, 1, 64, 1, 64, T.U64)
    return SharedTile(desc, np.arange(1, 65, dtype=np.uint64), np.ones(64, bool))


@avs("PTO-AVS-TILE-TESTSHAREDREGISTERATOMICUPDATES-ATOMICITY-001")
def test_shared_register_atomic_updates():
    sh = SharedRegisters()
    tile = _u64_tile()
    assert sh.update(255, tile, "0000") and sh.record(255) is None
    assert sh.update(255, tile, "1010")  # quarters 0 and 2: elements 0..15 and 32..47
    rec = sh.record(255)
    assert rec.initialized == "1010" and rec.tile.words[0] == 1 and rec.tile.words[32] == 33
    repl = SharedTile(tile.desc, tile.words.copy(), tile.defined.copy())
    repl.words[[0, 16, 32, 48]] = [0xAA, 0xBB, 0xCC, 0xDD]
    assert sh.update(255, repl, "1010")
    assert sh.record(255).tile.words[[0, 32]].tolist() == [0xAA, 0xCC]
    m = sh.materialize(255, "1111")
    assert m.words[0] == 0xAA and m.words[16] == 255 ^ 16
    bad = tile_with(repl, columns=63, valid_columns=63)
    assert not sh.update(255, bad, "0001")
    assert sh.record(255).desc.columns == 64 and sh.record(255).tile.words[0] == 0xAA
    gm = np.zeros(4096, np.uint8)
    with pytest.raises(PTOFault) as e:
        sh.tload(255, gm, [0] * 4, [63] * 4, 3, 1, 63, 1, 63, T.U64, Layout.ROW_MAJOR, "0001")
    assert e.value.kind == "TileLegality" and not gm.any()
    assert sh.record(255).desc.columns == 64 and sh.record(255).tile.words[0] == 0xAA
    assert not sh.update(255, bad, "1111")
    assert sh.record(255).allocation == "1010"
    assert sh.update(253, repl, "1111")
    assert (sh.record(253).desc.columns, sh.record(253).allocation,
            sh.record(253).initialized) == (64, "1111", "1111")  # fmt: skip
    assert sh.read_word(0, 0) == 0 and sh.record(0) is None  # undefined: 0 ^ 0, no allocation
    partial = SharedTile(tile.desc, tile.words.copy(), np.zeros(64, bool))
    assert sh.update(254, partial, "1010")
    assert sh.record(254).allocation == sh.record(254).initialized == "1010"
    assert sh.fully_initialized(254)
    assert not sh.update(254, partial, "0101")
    assert sh.record(254).initialized == "1010" and sh.fully_initialized(254)


@avs("PTO-AVS-TILE-CUBE-SHARED-REJECT-001")
def test_shared_rejects_cube_layouts():
    """A CUBE M16 tile is not update-compatible and an M16 read schema is illegal; nothing is
    allocated."""
    core = Core()
    cube = TileType((16, 16), T.FP16, layout=Layout.CUBE_M16, location=Location.MAT, size=512)
    core.local.configure(0, cube, np.zeros((16, 16), np.float16))
    assert not core.shared.update_compatible(0, core.shared_tile_of_local(0), "0001")
    assert not core.shared.read_schema_legal_at_capacity(0, 16, 16, 16, T.FP16, Layout.CUBE_M16,
                                                          512)  # fmt: skip
    assert core.shared.record(0) is None and core.shared.capacity_in_use == 0


STATIC = {
    "PTO-AVS-TILE-MODEL-STATE-SHARED-REGISTERS-STATIC-001":
        "interpreter.machine.shared_registers:SharedRegisters",
    "PTO-AVS-TILE-MODEL-MEMORY-SHARED-MOVEMENT-STATIC-001": "interpreter.machine.shared_blocks:Core",
}  # fmt: skip


test_static_shared_units = avs_units(STATIC)


# ---- hand-derived unit checks -----------------------------------------------------------------
def test_quarters_gm_and_undefined_words():
    """Quarters by byte offset (U32 in 512 B: 32 elements per quarter; U4 in 128 B: 64); GM
    loads little-endian with signed types sign-extended; 4-bit stores are read-modify-write of
    a nibble; a misaligned or out-of-GM access faults before any byte changes."""
    from interpreter.machine.shared_registers import element_quarters, gm_load, gm_store

    d = SharedDescriptor(512, 4, 32, 4, 32, T.U32)
    assert element_quarters(d)[[0, 31, 32, 127]].tolist() == [0, 0, 1, 3]
    d4 = SharedDescriptor(128, 16, 16, 16, 16, T.U4X2)
    assert element_quarters(d4)[[63, 64, 255]].tolist() == [0, 1, 3]
    gm = np.zeros(16, np.uint8)
    gm[:4] = [0xFE, 0xFF, 0x34, 0x12]
    a = np.array([0, 2], np.uint64)
    assert gm_load(gm, a, np.array([0, 1]), T.S16).tolist() == [2**64 - 2, 0x1234]
    assert gm_load(gm, np.array([2, 2], np.uint64), np.array([0, 1]), T.U4X2).tolist() == [4, 3]
    gm_store(gm, np.array([8, 8], np.uint64), np.array([0, 1]), T.U4X2, np.array([5, 0xA]))
    assert gm[8] == 0xA5
    for addr, dt in (([1], T.U16), ([15], T.U16), ([16], T.U8)):
        with pytest.raises(PTOFault):
            gm_store(gm, np.array(addr, np.uint64), np.array([0]), dt, np.array([1]))
    assert gm[8] == 0xA5 and gm[15] == 0


def test_tstore_of_an_allocated_register_and_reduced_rectangle():
    """TSTORE.SPART of a register loaded with TLOAD writes back the selected quarter's valid
    elements to PE-private bases; a read rectangle larger than the descriptor's is TileLegality."""
    core = Core(gm_bytes=1024)
    core.gm[:128] = np.arange(128, dtype=np.uint8)
    core.execute([tlsu(0, 27), dim(0, 8), dim(1, 16), dim(2, 8), ios(2, 1, 0b111), STOP])
    for pe in range(4):
        core.write_gpr(pe, 2, 512 + 128 * pe)
        core.write_gpr(pe, 3, 8)
    core.execute([tlsu(14, 27), ios(2, 0, 0b010), IOR_A0_A1, STOP])  # PE1: rows 4..7
    assert core.gm[512 + 128 + 32: 512 + 128 + 64].tolist() == list(range(32, 64))
    assert not core.gm[512:512 + 128 + 32].any() and not core.gm[512 + 128 + 64:].any()
    big = [tlsu(1, 27), dim(1, 17), ios(2, 0, 0b111), STOP]
    assert fault_kind(core.execute, big) == "TileLegality"


def test_shared_block_schema_faults():
    """Two B.IOS, an unread B.IOR field, a non-NORM B.DATR field and a missing LB are refused
    with the ASL's fault kinds, before any effect."""
    core = Core()
    two = [tlsu(0, 27), dim(0, 1), dim(1, 1), dim(2, 1), ios(1, 1, 7), ios(2, 1, 7), STOP]
    assert fault_kind(core.execute, two) == "TileLegality"
    ior = [tlsu(0, 27), dim(0, 1), dim(1, 1), dim(2, 1), ios(1, 1, 7),
           isa.BIor(src0=2, src1=3, src2=4), STOP]  # fmt: skip
    assert fault_kind(core.execute, ior) == "BundleControl"
    datr = [tlsu(0, 27), isa.BDatr(layout=0, dtype=0, rmode=1), dim(0, 1), dim(1, 1), dim(2, 1),
            ios(1, 1, 7), STOP]  # fmt: skip
    assert fault_kind(core.execute, datr) == "TileLegality"
    assert fault_kind(core.execute, [tlsu(0, 27), dim(0, 1), ios(1, 1, 7), STOP]) == (
        "TileLegality")
    assert all(core.shared.record(i) is None for i in (1, 2)) and not core.gm.any()


def test_bstart_helper():
    assert tlsu(12, 27) == BStart(isa.BlockFamily.TLSU, 12, 27)


# ---- CUBE with Shared operands -----------------------------------------------------------------
def _cube_start(function_word: int, dtype: int):
    return isa.decode(word(function_word, d=(31, 27, dtype)))


FPATR0 = isa.BFpatr()
DATR_U8 = isa.BDatr(layout=0, dtype=T.U8.value)


def _matmul_core(with_bias: bool) -> Core:
    """A: tile 1, a 1 x 1 U16 CUBE_M16 tile holding 6; S9/S10: tile 2's 1 x 1 U8 value 7 on
    all four PEs; bias: tile 3, a 1 x 1 U32 row holding 5."""
    core = Core()
    a = TileType((1, 1), T.U16, layout=Layout.CUBE_M16, location=Location.MAT, size=128)
    core.local.configure(1, a, np.array([[6]], np.uint16))
    b = TileType((128, 1), T.U8, valid=(1, 1), location=Location.MAT, size=128)
    core.local.configure(2, b, np.array([[7]], np.uint8))
    core.shared.install(10 if with_bias else 9, core.shared_tile_of_local(2), "1111")
    if with_bias:
        bias = TileType((4, 8), T.U32, valid=(1, 1), location=Location.MAT, size=128)
        core.local.configure(3, bias, np.array([[5]], np.uint32))
    return core


@avs("PTO-AVS-BLOCK-TMATMUL-SHARED-001")
def test_tmatmul_local_a_shared_b():
    """U16 A (6) x published Shared U8 B (7) -> a new Local U32 destination holding 42."""
    core = _matmul_core(False)
    out = core.execute([_cube_start(0x00031181, 26), FPATR0, DATR_U8, ios(9, 0, 0b111),
                        isa.BIot(src0=1, last=1, size_code=1, pe_mode=7, dst_hand=0), STOP])
    d = out.destination
    assert core.local.type_of(d).dtype == T.U32
    assert core.local.read(d)[:, 0, 0].tolist() == [42] * 4
    assert core.shared.published(9)  # a Shared source read is read-only


@avs("PTO-AVS-BLOCK-TMATMUL-BIAS-SHARED-001")
def test_tmatmul_bias_keeps_bias_local():
    """Local A (6) and bias (5) with Shared B (7): 6 * 7 + 5 = 47."""
    core = _matmul_core(True)
    out = core.execute([_cube_start(0x00131181, 26), FPATR0, DATR_U8, ios(10, 0, 0b111),
                        isa.BIot(src0=1, pe_mode=7),
                        isa.BIot(src0=3, last=1, size_code=1, pe_mode=7, dst_hand=0), STOP])
    assert core.local.read(out.destination)[:, 0, 0].tolist() == [47] * 4


def _install_u(core: Core, sid: int, index: int, dt: T, values, mask: str = "1111") -> None:
    """``ConfigureTile(index, 128, .., valid = values' shape, dt, RowMajor, Matrix)`` holding
    ``values``, installed in S``sid`` on ``mask``."""
    v = np.array(values, dt.numpy_dtype())
    cols = 2 if v.shape[1] == 2 else 1
    t = TileType((1024 // (cols * dt.bits), cols), dt, valid=v.shape, location=Location.MAT,
                 size=128)  # fmt: skip
    core.local.configure(index, t, v)
    core.shared.install(sid, core.shared_tile_of_local(index), mask)


def _shared_pair(trans_a: int = 0, trans_b: int = 0, dims: int | None = None, dtype=26):
    lbs = [] if dims is None else [dim(0, dims), dim(1, dims), dim(2, dims)]
    return [_cube_start(0x00031181, dtype), isa.BFpatr(trans_a=trans_a, trans_b=trans_b), *lbs,
            ios(40, 0, 0b111), ios(41, 0, 0b111),
            isa.BIot(last=1, size_code=1, pe_mode=7, dst_hand=0), STOP]  # fmt: skip


def test_tmatmul_shared_pair():
    """AVS BLOCK-TMATMUL-SHARED-PAIR-001 (block/model/dispatch): A (U16 4) and B (U8 5) both
    Shared -> a U32 destination holding 20."""
    core = Core()
    _install_u(core, 40, 10, T.U16, [[4]])
    _install_u(core, 41, 11, T.U8, [[5]])
    cmds = _shared_pair()
    cmds.insert(2, DATR_U8)
    d = core.execute(cmds).destination
    assert core.local.type_of(d).dtype == T.U32 and core.local.read(d)[0, 0, 0] == 20


@pytest.mark.parametrize(("trans_a", "trans_b"), [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_tmatmul_shared_transpose(trans_a, trans_b):
    """AVS BLOCK-TMATMUL-SHARED-TRANSPOSE-011: [[1 2] [3 4]] x [[5 6] [7 8]] = [[19 22]
    [43 50]], each operand stored transposed when its Trans bit is set; the destination is
    CUBE_M16."""
    core = Core()
    a, b = np.array([[1, 2], [3, 4]]), np.array([[5, 6], [7, 8]])
    _install_u(core, 40, 10, T.U16, a.T if trans_a else a)
    _install_u(core, 41, 11, T.U16, b.T if trans_b else b)
    d = core.execute(_shared_pair(trans_a, trans_b, dims=2)).destination
    assert core.local.type_of(d).layout_kind is Layout.CUBE_M16
    assert core.local.read(d)[0].tolist() == [[19, 22], [43, 50]]


def test_tmatmul_shared_faults_before_effects():
    """AVS BLOCK-TMATMUL-SHARED-READINESS-012 / UNDEF-020: a Shared A allocated on 0011 only
    (not cooperative-ready) and an unallocated Shared B are TileLegality: no destination, the
    registers unchanged; TransA with a Local A and M, N, K not powers of two likewise."""
    core = Core()
    _install_u(core, 42, 10, T.U16, [[1, 2], [3, 4]], mask="0011")
    _install_u(core, 43, 11, T.U16, [[1, 2], [3, 4]])
    cmds = _shared_pair(dims=2)
    cmds[3 + 2: 3 + 4] = [ios(42, 0, 0b111), ios(43, 0, 0b111)]
    before = core.shared.record(42)
    assert fault_kind(core.execute, cmds) == "TileLegality"
    assert core.shared.record(42) is before and not core.local.allocated(0)
    core = Core()
    a = TileType((1, 1), T.FP16, layout=Layout.CUBE_M16, location=Location.MAT, size=128)
    core.local.configure(0, a, np.array([[2]], np.float16))
    undef = [_cube_start(0x00031181, 4), isa.BFpatr(), ios(77, 0, 0b111),
             isa.BIot(src0=0, last=1, size_code=1, pe_mode=7, dst_hand=0), STOP]  # fmt: skip
    assert fault_kind(core.execute, undef) == "TileLegality"
    assert core.shared.record(77) is None and not core.local.allocated(1)
    _install_u(core, 77, 5, T.FP16, [[3]])
    undef[1] = isa.BFpatr(trans_a=1)
    assert fault_kind(core.execute, undef) == "TileLegality"
    undef[1:2] = [isa.BFpatr(), dim(0, 3)]
    assert fault_kind(core.execute, undef) == "TileLegality"
    undef[2:3] = []
    d = core.execute(undef).destination  # 2 * 3 = 6 in FP32
    assert core.local.read(d)[0, 0, 0] == 6.0 and core.local.type_of(d).dtype == T.FP32


def test_shared_tload_four_pe_bases():
    """AVS BLOCK-SHARED-TLSU-PER-PE-GM-EXECUTION-001 (block/model/dispatch): a 2 x 32 U64 load
    into 512 B on all PEs: quarter q (16 elements) comes from PE q's base and stride
    (0x0/256, 0x200/320, 0x400/384, 0x600/448)."""
    core = Core()
    for pe, (base, stride) in enumerate([(0, 256), (0x200, 320), (0x400, 384), (0x600, 448)]):
        core.write_gpr(pe, 2, base)
        core.write_gpr(pe, 3, stride)
    for addr, v in ((0, 0x11), (0x280, 0x22), (0x580, 0x33), (0x840, 0x44)):
        core.gm[addr] = v
    core.execute([tlsu(0, 24), dim(0, 32), dim(1, 2), dim(2, 32), ios(31, 3, 0b111), IOR_A0_A1,
                  STOP])  # fmt: skip
    assert core.shared.read_words(31, [0, 16, 32, 48]).tolist() == [0x11, 0x22, 0x33, 0x44]


def test_shared_tstore_byte_strides():
    """AVS BLOCK-SHARED-TLSU-BYTE-STRIDE-007: a 2 x 2 U64 register (1 2 / 3 4) stores with the
    dense 16 B pitch of its two columns without B.IOR, and with base 0x100 / stride 24 from the
    GPRs with TSTORE.SPART on PE0 (all four elements are in quarter 0)."""
    core = Core()
    t = TileType((8, 2), T.U64, valid=(2, 2), size=128)
    core.local.configure(0, t, np.array([[1, 2], [3, 4]], np.uint64))
    core.shared.install(7, core.shared_tile_of_local(0), "1111")

    def at(base: int, stride: int) -> list[int]:
        return [int(core.gm[a:a + 8].view("<u8")[0])
                for a in (base, base + 8, base + stride, base + stride + 8)]  # fmt: skip

    core.execute([tlsu(1, 24), ios(7, 0, 0b111), STOP])
    assert at(0, 16) == [1, 2, 3, 4]
    for pe in range(4):
        core.write_gpr(pe, 2, 0x100)
        core.write_gpr(pe, 3, 24)
    core.execute([tlsu(14, 24), ios(7, 0, 0b001), IOR_A0_A1, STOP])
    assert at(0x100, 24) == [1, 2, 3, 4]
    core.gm[:32] = 0
    core.execute([tlsu(14, 24), ios(7, 0, 0b001), STOP])
    assert at(0, 16) == [1, 2, 3, 4]


def test_tmatmul_acc_with_shared_b():
    """TMATMUL.ACC with a Local C (10) and A (6), Shared B (7): 10 + 42 = 52; C equal to the
    destination hand is TileLegality; B.FPATR post-processing on Shared operands is refused as
    not modelled (a clear error, no result)."""
    from pto_dialect.isa.errors import NotModelledError

    core = _matmul_core(False)
    c = TileType((1, 1), T.U32, layout=Layout.CUBE_M16, location=Location.MAT, size=128)
    core.local.configure(20, c, np.array([[10]], np.uint32))
    acc = isa.BStart(isa.BlockFamily.CUBE, 2, T.U16.value)
    cmds = [acc, FPATR0, DATR_U8, ios(9, 0, 0b111), isa.BIot(src0=20, src1=1, pe_mode=7),
            isa.BIot(last=1, size_code=1, pe_mode=7, dst_hand=2), STOP]  # fmt: skip
    d = core.execute(cmds).destination
    assert d == 32 and core.local.read(d)[:, 0, 0].tolist() == [52] * 4
    cmds[-2] = isa.BIot(last=1, size_code=1, pe_mode=7, dst_hand=1)  # C = t#20 -> selector 20
    cmds[4] = isa.BIot(src0=1, src1=1, pe_mode=7)  # C's selector 1 == hand 1
    assert fault_kind(core.execute, cmds) == "TileLegality"
    relu = [isa.BStart(isa.BlockFamily.CUBE, 0, T.U16.value), isa.BFpatr(relu_mode=1),
            DATR_U8, ios(9, 0, 0b111), isa.BIot(src0=1, last=1, size_code=1, pe_mode=7,
                                                dst_hand=0), STOP]  # fmt: skip
    with pytest.raises(NotModelledError):
        core.execute(relu)


def _u64_local(core: Core, index: int, values, mask: str = "1111") -> None:
    v = np.array(values, np.uint64)
    t = TileType((128 // (8 * v.shape[1]), v.shape[1]), T.U64, valid=v.shape, size=128, pe=mask)
    core.local.configure(index, t, v)


def test_shared_tlsu_dispatch_facts():
    """The spec's block/model/dispatch/shared-tlsu tests (not in our inventory), as facts:
    a zero-mask B.IOS TLOAD is a no-op even with a B.IOR; a B.IOR field in a TMOV is
    BundleControl before any effect; an all-zero B.IOR is an omitted one; PUBLISH, BROADCAST and
    EXTRACT of a 128 B U64 register round-trip its value; Function 1 on a register allocated on
    1000 faults and TSTORE.SPART stores it; an INSERT of a different descriptor is refused."""
    core = Core()
    core.write_gpr(0, 2, 4096)
    assert core.execute([tlsu(0, 24), dim(0, 1), dim(1, 1), dim(2, 1), ios(255, 1, 0),
                         isa.BIor(src0=0, src1=2), STOP]).noop  # fmt: skip
    assert core.shared.record(255) is None
    _u64_local(core, 0, [[11]])
    bad = [tlsu(10, 24), ios(18, 1, 0b111), iot_src(0, 0b111), isa.BIor(src1=2), STOP]
    assert fault_kind(core.execute, bad) == "BundleControl"
    assert core.shared.record(18) is None and core.local.allocated(0)
    core.execute([tlsu(10, 24), ios(19, 1, 0b111), iot_src(0, 0b111), isa.BIor(), STOP])
    assert core.shared.fully_initialized(19) and core.shared.published(19)
    for fn, hand in ((11, 1), (12, 2)):
        d = core.execute([tlsu(fn, 24), ios(19, 0, 0b111), iot_dst(hand, 1, 0b111), STOP])
        assert core.local.type_of(d.destination).capacity == 128
        assert core.local.read(d.destination)[0, 0, 0] == 11
    core = Core()
    _u64_local(core, 0, [[0x5A] + [0] * 15])
    core.shared.install(9, core.shared_tile_of_local(0), "1000")
    assert fault_kind(core.execute, [tlsu(1, 24), ios(9, 0, 0b001), STOP]) == "TileLegality"
    assert core.gm[0] == 0
    core.execute([tlsu(14, 24), ios(9, 0, 0b001), STOP])
    assert core.gm[0] == 0x5A
    # INSERT on 1000, then a 1 x 2 source on 0100: a different descriptor (and mask)
    core = Core()
    _u64_local(core, 0, [[7]])
    core.execute([tlsu(9, 24), ios(23, 1, 0b001), iot_src(0, 0b001), STOP])
    assert (core.shared.record(23).allocation, core.shared.fully_initialized(23)) == ("1000", True)
    d = core.execute([tlsu(12, 24), ios(23, 0, 0b101), iot_dst(0, 1, 0b101), STOP]).destination
    assert core.local.read(d)[:, 0, 0].tolist() == [7, 7]  # element 0 is in quarter 0
    core.execute([tlsu(14, 24), ios(23, 0, 0b101), STOP])
    _u64_local(core, 1, [[9, 10]])
    mismatch = [tlsu(9, 24), ios(23, 1, 0b010), iot_src(1, 0b010), STOP]
    assert fault_kind(core.execute, mismatch) == "TileLegality"
    assert core.shared.record(23).desc.columns == 1


# ---- property: TLOAD / TSTORE.SPART against a scalar reference ------------------------------
_TYPES = {T.U8: "<u1", T.S16: "<i2", T.U32: "<u4", T.S32: "<i4", T.U64: "<u8"}


@settings(max_examples=examples(25), deadline=None)
@given(dt=st.sampled_from(sorted(_TYPES, key=lambda t: t.value)), log_cols=st.integers(0, 4),
       code=st.integers(1, 3), mode=st.integers(1, 7), data=st.data())  # fmt: skip
def test_shared_tload_tstore_against_a_scalar_reference(dt, log_cols, code, mode, data):
    """Every selected element of a Shared TLOAD is the little-endian element at its PE's
    ``base + row * stride + column * bytes`` (signed types sign-extended), every unselected one
    the undefined word; TSTORE.SPART of the register to other bases writes exactly the selected
    elements' bytes back. The reference walks the elements one by one in Python."""
    cols, cap, nb = 1 << log_cols, 128 << (code - 1), dt.bits // 8
    rows = cap * 8 // (cols * dt.bits)
    vr = data.draw(st.integers(1, rows))
    mask = isa.commands.PE_MODE_MASKS[mode]
    core = Core(gm_bytes=8192)
    core.gm[:4096] = np.frombuffer(np.random.default_rng(vr * 31 + cols).bytes(4096), np.uint8)
    bases = [data.draw(st.integers(0, 64)) * nb for _ in range(4)]
    strides = [cols * nb + data.draw(st.integers(0, 8)) * nb for _ in range(4)]
    for pe in range(4):
        core.write_gpr(pe, 2, bases[pe])
        core.write_gpr(pe, 3, strides[pe])
    core.execute([tlsu(0, dt.value), dim(0, cols), dim(1, vr), dim(2, cols), ios(5, code, mode),
                  IOR_A0_A1, STOP])  # fmt: skip
    got = core.shared.read_words(5, np.arange(rows * cols)).tolist()
    gm = bytes(core.gm)
    for e in range(rows * cols):
        r, c = divmod(e, cols)
        q = e * nb * 4 // cap
        if mask[q] == "1" and r < vr:
            a = bases[q] + r * strides[q] + c * nb
            want = int(np.frombuffer(gm[a:a + nb], _TYPES[dt])[0]) & (2**64 - 1)
        elif mask[q] == "1":
            want = 0  # outside the valid rectangle (never read by a consumer)
        else:
            want = 5 ^ e
        assert got[e] == want, (e, r, c, q)
    for pe in range(4):
        core.write_gpr(pe, 2, 4096 + bases[pe])
    core.execute([tlsu(14, dt.value), ios(5, 0, mode), IOR_A0_A1, STOP])
    out = bytes(core.gm)
    written = set()
    for e in range(vr * cols):
        r, c = divmod(e, cols)
        q = e * nb * 4 // cap
        if mask[q] == "1":
            a = 4096 + bases[q] + r * strides[q] + c * nb
            src = bases[q] + r * strides[q] + c * nb
            assert out[a:a + nb] == gm[src:src + nb]
            written.update(range(a, a + nb))
    assert all(out[i] == 0 for i in range(4096, 8192) if i not in written)


def _e8m0_1(core: Core, index: int) -> None:
    core.local.configure(index, TileType((128, 1), T.E8M0, valid=(1, 1), location=Location.MAT,
                                         size=128), np.array([[1]], np.uint8))  # fmt: skip


def _mx_cmds(n_shared: int, local_iot) -> list:
    return [_cube_start(0x00431181, T.E4M3.value), isa.BDatr(dtype=T.E5M2.value), FPATR0,
            dim(2, 32), *(ios(44 + i, 0, 0b111) for i in range(n_shared)), local_iot, STOP]  # fmt: skip


@pytest.mark.parametrize("both", [False, True])
def test_tmatmul_mx_with_shared_groups(both):
    """AVS BLOCK-TMATMUL-MX-SHARED-RIGHT-001 / -BOTH-001 (block/model/dispatch): E4M3 A (codes
    2) x E5M2 B (codes 3) over K = 32 with E8M0 scales 1, the B group (B, its scale) or both
    groups Shared: one FP32 destination holding 192 in the ASL's reference profile
    (raw-carrier: 32 x 2 x 3); the ``ordered`` profile computes the real values (they underflow
    to +0)."""
    core = Core()
    a_codes = np.full((1, 32), 2, np.uint8)
    a_local = TileType((1, 32), T.E4M3, layout=Layout.CUBE_M16, location=Location.MAT, size=512)
    b = TileType((512, 1), T.E5M2, valid=(32, 1), location=Location.MAT, size=512)
    core.local.configure(10, b, np.full((32, 1), 3, np.uint8))
    _e8m0_1(core, 11)
    if both:
        a_row = TileType((16, 32), T.E4M3, valid=(1, 32), location=Location.MAT, size=512)
        core.local.configure(12, a_row, a_codes)
        _e8m0_1(core, 13)
        for sid, idx in ((44, 12), (45, 13), (46, 10), (47, 11)):
            core.shared.install(sid, core.shared_tile_of_local(idx), "1111")
        cmds = _mx_cmds(4, isa.BIot(last=1, size_code=1, pe_mode=7, dst_hand=0))
    else:
        core.local.configure(0, a_local, a_codes)
        _e8m0_1(core, 1)
        for sid, idx in ((44, 10), (45, 11)):
            core.shared.install(sid, core.shared_tile_of_local(idx), "1111")
        cmds = _mx_cmds(2, isa.BIot(src0=0, src1=1, last=1, size_code=1, pe_mode=7, dst_hand=0))
    d = core.execute(cmds, profile="raw-carrier").destination
    assert core.local.type_of(d).dtype == T.FP32
    assert core.local.read(d)[0, 0, 0].view(np.uint32) == 192  # the payload word
    core.local.release(d)
    d = core.execute(cmds).destination  # ordered: 32 x 2^-8 x 3 * 2^-16 x 2^-252 -> +0 in FP32
    assert core.local.read(d)[0, 0, 0].view(np.uint32) == 0


def test_tmatmul_mx_shared_group_incomplete():
    """AVS BLOCK-TMATMUL-MX-SHARED-GROUP-001: an E5M2 B needs its scale: one Shared source and
    no Local binding is TileLegality with no destination."""
    core = Core()
    cmds = [_cube_start(0x00431181, T.E4M3.value), isa.BDatr(dtype=T.E5M2.value), FPATR0,
            ios(60, 0, 0b111), STOP]  # fmt: skip
    assert fault_kind(core.execute, cmds) == "TileLegality"
    assert core.local.capacity_in_use == 0
