"""Tile-model AVS pass conditions of CUBE descriptors, matrix execution, matrix legality and
post-processing (tests/asl/tile/model/**; D17) through the ``pto`` verifier, the CUBE kernel
(``interpreter.kernels.cube_matrix``; the migrated suites use the reference profile: raw
payload words), programs run at tile level and as decoded blocks, and the block checker.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs
from conformance.model_support import (
    RAW,
    both,
    f16,
    f32,
    prog,
    verifies,
)
from conformance.support import bundled
from interpreter import kernels
from pto_dialect.attributes import MaskAttr
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault

T = TileDataType


@avs("PTO-AVS-TILE-CUBE-GENERIC-001")
def test_cube_descriptor_is_not_a_generic_operand():
    """A 16x16 FP16 cube_m16 tile in mat is a legal CUBE descriptor, but no generic (TEPL)
    operation indexes it: TADD on it is TileLegality (asl/tile/model/legality/
    descriptor-shape.asl, ``TileGenericIndexingPermitted`` is false for CUBE layouts). A
    register freshly configured with it has no defined contents, so it is no readable source
    (``TileSourceContentsDefined``): TMOV from it is TileLegality, the destination kept;
    once written, TADD on the register is still refused."""
    from interpreter.machine.tile_registers import TileRegisters
    from pto_dialect.geometry import Layout, Storage, geometry_errors

    assert geometry_errors(16, 16, T.FP16, 16, 16, Layout.CUBE_M16, Storage.LOCAL, 512) == []
    c = "!pto.tile<16x16xf16, cube_m16, mat>"
    assert verifies(f'%a = "test.op"() : () -> {c}')
    assert not verifies(f'%a = "test.op"() : () -> {c}\n%r = pto.tadd %a, %a : {c}')
    regs = TileRegisters()
    regs.configure(0, "!pto.tile<16x16xf16, cube_m16, mat, size=512B>", np.zeros((16, 16),
                   np.float16), defined=False)  # fmt: skip
    regs.configure(1, c, np.ones((16, 16), np.float16))
    assert not regs.contents_defined(0)
    with pytest.raises(PTOFault, match="TileSourceContentsDefined") as e:
        regs.execute("pto.tmov", 1, 0)
    assert e.value.kind == "TileLegality" and (regs.read(1) == 1).all()
    regs.write(0, np.ones((16, 16), np.float16))
    with pytest.raises(PTOFault) as e:
        regs.execute("pto.tadd", 1, 0, 0)
    assert e.value.kind == "TileLegality" and "cube_m16" in str(e.value)


@avs("PTO-AVS-TILE-CUBE-LOCATION-003")
def test_cube_layout_needs_matrix_location():
    """A cube_m16 descriptor in vec is refused when it is declared (nothing is allocated: the
    program does not verify); the same descriptor in mat is legal (asl/tile/model/state/
    allocation.asl, ``TileCubeDescriptorLegal``)."""
    for loc, ok in (("vec", False), ("mat", True)):
        assert verifies(f'%a = "test.op"() : () -> !pto.tile<16x16xf16, cube_m16, {loc}>') == ok


@avs("PTO-AVS-TILE-CUBE-RECONFIGURE-002")
def test_undersized_n8_descriptor_refused():
    """A 13x19 FP16 cube_n8 tile needs six CELLs (768 B): in a 128 B TSize it is refused
    (TileLegality at verification, so no program holding it runs). Reconfiguring an allocated
    register with it is refused before any effect (asl/tile/model/state/allocation.asl
    ``ConfigureCubeTileForMask`` returns FALSE): register 0, a 16x8 U8 vec tile (valid 1x1,
    element 0x5A, on one PE) keeps its descriptor, contents, definedness, physical payload and
    mask, and the capacity in use is unchanged."""
    from interpreter.machine.tile_registers import TileRegisters
    from pto_dialect.geometry import Layout, Storage, geometry_errors

    assert geometry_errors(13, 19, T.FP16, 13, 19, Layout.CUBE_N8, Storage.LOCAL, 128)
    assert geometry_errors(16, 24, T.FP16, 13, 19, Layout.CUBE_N8, Storage.LOCAL, 1024) == []
    assert not verifies('%a = "test.op"() : () -> !pto.tile<16x24xf16, cube_n8, mat, '
                         "valid=13x19, size=128B>")  # fmt: skip
    regs = TileRegisters()
    regs.configure(0, "!pto.tile<16x8xui8, vec, valid=1x1, size=128B, pe=0001>",
                   np.zeros((1, 1), np.uint8), defined=False)  # fmt: skip
    regs.write(0, np.array([[0x5A]], np.uint8))

    def state():
        t = regs.physical(0)
        return (regs.allocated(0), regs.type_of(0), regs.contents_defined(0), t.pes,
                [(p.tolist(), d.tolist()) for p, d in zip(t.payloads.values(),
                                                          t.defined.values())],
                regs.capacity_in_use)  # fmt: skip

    before = state()
    assert before[5] == 128 and before[4][0][0][0][0] == 0x5A
    with pytest.raises(PTOFault) as e:
        regs.configure(0, "!pto.tile<16x24xf16, cube_n8, mat, valid=13x19, size=128B, "
                       "pe=0001>", np.zeros((13, 19), np.float16))  # fmt: skip
    assert e.value.kind == "TileLegality"
    assert state() == before


_ROWMAX = """%a = "test.op"() : () -> !pto.tile<2x16xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<16x16xf16, cube_n8, mat>
%r = "test.op"() : () -> !pto.tile<32x1xf32, valid=VRx1>
%d, %m = pto.tmatmul %a, %b, row_max_in %r {fpatr = #pto.fpatr<row_max_en = 1, row_max_init = 1>} : (!pto.tile<2x16xf16, cube_m16, mat>, !pto.tile<16x16xf16, cube_n8, mat>, !pto.tile<32x1xf32, valid=VRx1>) -> (!pto.tile<2x16xf32, cube_m16, mat>, !pto.tile<32x1xf32, valid=2x1>)"""


@avs("PTO-AVS-TILE-MATRIX-ROWMAX-DESC-001")
def test_rowmax_in_is_m_by_1():
    """RowMaxIn of an M = 2 product is a 2x1 FP32 tile in location any; a 1x1 valid extent is
    refused (asl/tile/model/legality/matrix-postprocess.asl
    ``TileMatrixAuxiliarySourceSchemaLegal``)."""
    assert verifies(_ROWMAX.replace("VR", "2"))
    assert not verifies(_ROWMAX.replace("VR", "1"))


@avs("PTO-AVS-TILE-TESTTILEMATMUL-EXECUTION-001")
def test_matmul_family_sequence():
    """U16 [1 2;3 4] x [5 6;7 8] = U32 [19 22;43 50]; with the bias [1 2]: 20 .. 52; ACC onto
    that: 20 + 19 = 39; 3x3 operands (any positive dimensions) are legal; an M = 0 product is
    refused; TGEMV [1 2] x [2;3] = 8 (asl/tile/model/execution/cube.asl)."""
    K = kernels.cube_matrix
    a, b = np.array([[1, 2], [3, 4]], np.uint16), np.array([[5, 6], [7, 8]], np.uint16)
    d = K("TMATMUL", a, b)
    assert d.dtype == np.uint32 and d.tolist() == [[19, 22], [43, 50]]
    db = K("TMATMUL_BIAS", a, b, bias=np.array([[1, 2]], np.uint32))
    assert db[0, 0] == 20 and db[1, 1] == 52
    assert K("TMATMUL_ACC", a, b, c=db)[0, 0] == 39
    assert verifies("""%a = "test.op"() : () -> !pto.tile<3x3xui16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<3x3xui16, cube_n8, mat>
%d = pto.tmatmul %a, %b : (!pto.tile<3x3xui16, cube_m16, mat>, !pto.tile<3x3xui16, cube_n8, mat>) -> !pto.tile<3x3xui32, cube_m16, mat>""")
    with pytest.raises(PTOFault) as e:
        K("TMATMUL", np.zeros((0, 2), np.uint16), b)
    assert e.value.kind == "TileLegality"
    assert K("TGEMV", np.array([[1, 2]], np.uint16), np.array([[2], [3]], np.uint16)).tolist() \
        == [[8]]  # fmt: skip


@avs("PTO-AVS-TILE-TMATMUL-CUBE-STORAGE-003")
def test_matmul_through_cube_storage():
    """FP16 cube_m16 A [1 2 3;4 5 6] x cube_n8 B [1 2;3 4;5 6] = FP32 cube_m16 D
    [22 28;49 64], run as a program (tile level and decoded block). The operands keep their
    CUBE payload orders, which are not row-major: A's (1, 0) is payload 4 (an M16 FP16
    CELL row holds 4 columns), B's column 1 starts at payload 8 (N8 CELLs are column-major)
    (asl/tile/model/execution/cube.asl, asl/tile/model/shape/cube-cell.asl)."""
    from pto_dialect.geometry import Layout, cube_payload_index

    at, bt = "!pto.tile<2x3xf16, cube_m16, mat>", "!pto.tile<3x2xf16, cube_n8, mat>"
    dt = "!pto.tile<2x2xf32, cube_m16, mat>"
    text = prog([("a", at), ("b", bt)], f"  %d = pto.tmatmul %a, %b : ({at}, {bt}) -> {dt}",
                [("d", dt)])  # fmt: skip
    (d,) = both(text, np.float16([[1, 2, 3], [4, 5, 6]]), np.float16([[1, 2], [3, 4], [5, 6]]))
    assert d.tolist() == [[22, 28], [49, 64]]
    idx = cube_payload_index
    assert [idx(Layout.CUBE_M16, T.FP16, 2, 3, r, c) for r, c in ((0, 2), (1, 0))] == [2, 4]
    assert [idx(Layout.CUBE_N8, T.FP16, 3, 2, r, c) for r, c in ((2, 0), (0, 1))] == [2, 8]
    assert [idx(Layout.CUBE_M16, T.FP32, 2, 2, r, c) for r in (0, 1) for c in (0, 1)] == \
        [0, 1, 2, 3]  # fmt: skip


@avs("PTO-AVS-TILE-TESTMATRIXNUMERICCONTRACTLEGALITY-BOUNDARY-001")
def test_mx_numeric_contract():
    """On tile registers (reference profile: raw payload words): TMATMUL_MX of E4M3 (40) x
    E5M2 (41), K = 32, every code 1, E8M0 scale codes 1 (42, 43) writes the raw FP32 word 32
    into 44 (over its old word 2); TMATMUL_MX_ACC onto it gives 64 in 45. Reconfiguring the
    A scale 42 leaves its contents undefined: the same TMATMUL_MX is then TileLegality
    (``TileSourceContentsDefined``), as is an FP32 1x2 scale in 42; 44 keeps 32. AType FP16
    with E4M3 operands is refused too (asl/tile/model/legality/matrix-shape.asl)."""
    from interpreter.machine.tile_registers import TileRegisters

    K = kernels.cube_matrix
    a, b = np.ones((1, 32), np.uint8), np.ones((32, 1), np.uint8)
    s = np.ones((1, 1), np.uint8)
    mx = """%a = "test.op"() : () -> !pto.tile<1x32xf8E4M3FN, cube_m16, mat>
%sa = "test.op"() : () -> !pto.tile<SCALE>
%b = "test.op"() : () -> !pto.tile<32x1xf8E5M2, cube_n8, mat>
%sb = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x1>
%d = pto.tmatmul_mx %a, a_scale %sa, %b, b_scale %sb : (!pto.tile<1x32xf8E4M3FN, cube_m16, mat>, !pto.tile<SCALE>, !pto.tile<32x1xf8E5M2, cube_n8, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat>"""
    assert verifies(mx.replace("SCALE", "1x128xf8E8M0FNU, valid=1x1"))
    assert not verifies(mx.replace("SCALE", "1x32xf32, valid=1x2"))
    with pytest.raises(PTOFault) as e:
        K("TMATMUL_MX", a, b, a_scale=s, b_scale=s, a_type="FP16", b_type="E5M2", **RAW)
    assert e.value.kind == "TileLegality"

    scale = "!pto.tile<1x128xf8E8M0FNU, valid=1x1, pe=0001>"
    acc = "!pto.tile<1x1xf32, cube_m16, mat, pe=0001>"
    regs = TileRegisters()
    regs.configure(40, "!pto.tile<1x32xf8E4M3FN, cube_m16, mat, pe=0001>", a)
    regs.configure(41, "!pto.tile<32x1xf8E5M2, cube_n8, mat, pe=0001>", b)
    regs.configure(42, scale, s)
    regs.configure(43, scale, s)
    regs.configure(44, acc, np.array([[2]], np.uint32).view(np.float32))
    regs.configure(45, acc, np.zeros((1, 1), np.float32), defined=False)
    mask = {"mask": MaskAttr("0001")}

    def mx_into_44():
        regs.execute("pto.tmatmul_mx", [44, None, None], 40, 42, 41, 43, *[None] * 5,
                     properties=mask, **RAW)  # fmt: skip

    def word(i):
        return regs.read(i).view(np.uint32).ravel().tolist()

    mx_into_44()
    assert word(44) == [32]
    regs.execute("pto.tmatmul_mx_acc", [45, None, None], 44, 40, 42, 41, 43, *[None] * 5,
                 properties=mask, **RAW)  # fmt: skip
    assert word(45) == [64] and regs.contents_defined(45)
    regs.configure(42, scale, s, defined=False)
    with pytest.raises(PTOFault, match="TileSourceContentsDefined") as e:
        mx_into_44()
    assert e.value.kind == "TileLegality"
    regs.configure(42, "!pto.tile<1x32xf32, valid=1x2, pe=0001>", np.ones((1, 2), np.float32))
    with pytest.raises(PTOFault) as e:
        mx_into_44()
    assert e.value.kind == "TileLegality" and word(44) == [32]


@avs("PTO-AVS-TILE-TESTMATRIXPHYSICALACCUMULATORCLASSES-EXECUTION-001")
def test_accumulator_classes():
    """E4M3 x E4M3 accumulates in FP32 (raw 2 x 3 + bias word 1 = 7, reference profile);
    S8 x S8 gives an S32 tile and U8 x U8 a U32 tile (asl/tile/model/legality/
    matrix-shape.asl)."""
    K = kernels.cube_matrix
    d = K("TMATMUL_BIAS", np.uint8([[2]]), np.uint8([[3]]), bias=f32([[1]]), a_type="E4M3",
          b_type="E4M3", **RAW)  # fmt: skip
    assert d.tolist() == [[7]]
    assert K("TMATMUL", np.int8([[2]]), np.int8([[3]])).dtype == np.int32
    assert K("TMATMUL", np.uint8([[2]]), np.uint8([[3]])).dtype == np.uint32
    for src, acc in (("si8", "si32"), ("ui8", "ui32")):
        assert verifies(f"""%a = "test.op"() : () -> !pto.tile<1x1x{src}, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<1x1x{src}, cube_n8, mat>
%d = pto.tmatmul %a, %b : (!pto.tile<1x1x{src}, cube_m16, mat>, !pto.tile<1x1x{src}, cube_n8, mat>) -> !pto.tile<1x1x{acc}, cube_m16, mat>""")


@avs("PTO-AVS-TILE-TESTTILESELECTORCLOSUREEXTENSIONS-BOUNDARY-001")
def test_mx_bias_and_acc_selectors():
    """The MX BIAS and ACC selectors (reference profile, FP16 raw words, no scales needed):
    TMATMUL_MX_BIAS [1 2;3 4] x [5 6;7 8] + bias 2 gives 21 at (0, 0), TMATMUL_MX_ACC onto it
    40; TGEMV_MX_BIAS 2 x 3 + 5 = 11, TGEMV_MX_ACC onto it 17 (asl/tile/model/dispatch/
    top-level.asl)."""
    K = kernels.cube_matrix
    a, b = f16([[1, 2], [3, 4]]), f16([[5, 6], [7, 8]])
    d = K("TMATMUL_MX_BIAS", a, b, bias=f32([[2, 2]]), **RAW)
    assert d[0, 0] == 21 and K("TMATMUL_MX_ACC", a, b, c=d, **RAW)[0, 0] == 40
    g = K("TGEMV_MX_BIAS", f16([[2]]), f16([[3]]), bias=f32([[5]]), **RAW)
    assert g.tolist() == [[11]]
    assert K("TGEMV_MX_ACC", f16([[2]]), f16([[3]]), c=g, **RAW).tolist() == [[17]]
    _indexed_selector_extensions()


def _indexed_selector_extensions() -> None:
    """The AVS's indexed steps on registers (``Core``, D25): U64 words 11 22 33 at 1536; a Zero
    -padded MGATHER.MASK (displacements 0 8 16, predicate 1 0 1) gives 11 0 33; its
    MSCATTER.MASK to 2048 stores 11 and 33 and keeps 2056; MGATHER.CAS expecting 11 99 33 with
    replacements 111 222 333 observes 11 22 33 and leaves 111 22 333."""
    from interpreter.machine.shared_blocks import Core
    from pto_dialect.attributes import TileType
    from pto_dialect.datatypes import TileDataType as T
    from pto_dialect.predicate import PredicateTileType

    core = Core()
    u64 = TileType((8, 4), T.U64, valid=(1, 3), size=256, pe="1000")
    core.local.configure(55, u64, np.full((1, 3), 0xAA, np.uint64))
    core.local.configure(56, u64, np.array([[0, 8, 16]], np.uint64))
    core.local.configure(57, PredicateTileType((1, 4), valid=(1, 3), size=128, pe="1000"),
                         np.array([[True, False, True]]))  # fmt: skip
    core.gm[1536:1560] = np.array([11, 22, 33], "<u8").view(np.uint8)
    core.mgather_mask(55, 1536, 56, 57, "zero")
    assert core.local.read(55).ravel().tolist() == [11, 0, 33]
    core.gm[2048:2072] = 0
    core.mscatter_mask(2048, 55, 56, 57)
    assert core.gm[2048:2072].view("<u8").tolist() == [11, 0, 33]
    core.local.configure(58, u64, np.array([[11, 99, 33]], np.uint64))
    core.local.configure(59, u64, np.array([[111, 222, 333]], np.uint64))
    core.mgather_cas(55, 1536, 56, 58, 59)
    assert core.local.read(55).ravel().tolist() == [11, 22, 33]
    assert core.gm[1536:1560].view("<u8").tolist() == [111, 22, 333]


# ---- CUBE boundaries -------------------------------------------------------------------
def _cube_unit(fn) -> int:
    """The totality vectors (A = 2, B = 3, C = 5, Bias = 7, scales 1; reference profile)."""
    K = kernels.cube_matrix
    one = np.ones((1, 1), np.uint8)
    kw = dict(RAW)
    if fn.is_mx:
        kw |= {"a_type": "E4M3", "b_type": "E4M3", "a_scale": one, "b_scale": one}
        a, b = np.uint8([[2]]), np.uint8([[3]])
        acc = f32
    else:
        a, b = np.uint16([[2]]), np.uint16([[3]])
        acc = np.uint32
    if fn.is_bias:
        kw["bias"] = np.asarray(acc([[7]]))
    if fn.is_acc:
        kw["c"] = np.asarray(acc([[5]]))
    return int(K(fn.name, a, b, **kw)[0, 0])


@avs("PTO-AVS-TILE-CUBE-SELECTORS-BOUND-001")
def test_cube_selector_and_type_totality():
    """Each of the 12 assigned CUBE functions executes the totality vectors: 6 plain, 11
    with C, 13 with the bias; function 8 is IllegalInstruction; the 25 TileDataType codes are
    0..14, 16..20 and 24..28; an A source in the ImplementationDefined layout is refused
    (asl/tile/model/execution/cube.asl)."""
    from pto_dialect.isa import BlockFamily, BStart, decode, encode
    from pto_dialect.isa.commands import CUBE_FUNCTIONS

    for fn in CUBE_FUNCTIONS.values():
        want = 13 if fn.is_bias else 11 if fn.is_acc else 6
        assert _cube_unit(fn) == want, fn.name
    with pytest.raises(PTOFault) as e:
        decode(encode(BStart(BlockFamily.CUBE, 8, T.U16.value)), strict=True)
    assert e.value.kind == "IllegalInstruction"
    assert sorted(t.value for t in T) == [*range(15), *range(16, 21), *range(24, 29)]
    assert not verifies("""%a = "test.op"() : () -> !pto.tile<16x1xui16, impl_defined>
%b = "test.op"() : () -> !pto.tile<1x1xui16, cube_n8, mat>
%d = pto.tmatmul %a, %b : (!pto.tile<16x1xui16, impl_defined>, !pto.tile<1x1xui16, cube_n8, mat>) -> !pto.tile<1x1xui32, cube_m16, mat>""")


_ACC = """%c = "test.op"() : () -> CT
%a = "test.op"() : () -> !pto.tile<1x1xui16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<1x1xui16, cube_n8, mat>
%d = pto.tmatmul_acc %c, %a, %b : (CT, !pto.tile<1x1xui16, cube_m16, mat>, !pto.tile<1x1xui16, cube_n8, mat>) -> DT"""


@avs("PTO-AVS-TILE-CUBE-PREFLIGHT-BOUND-002")
def test_cube_alias_and_composite_preflight():
    """A == B (one tile as both primaries) is TileLegality; a block whose ACC destination hand
    equals C's selector is TileLegality; a C that is a 2x1 row-major tile instead of the 1x1
    cube_m16 accumulator, or an S32 destination for U16 inputs (U32 accumulator), is refused;
    on the a2a3 target every MX function is IllegalInstruction when its block is decoded,
    before its operands are inspected (asl/tile/model/execution/cube.asl)."""
    from pto_dialect import isa

    a = "!pto.tile<1x1xui16, cube_m16, mat>"
    assert not verifies(f"""%a = "test.op"() : () -> {a}
%d = pto.tmatmul %a, %a : ({a}, {a}) -> !pto.tile<1x1xui32, cube_m16, mat>""")
    ok_c, d = "!pto.tile<1x1xui32, cube_m16, mat>", "!pto.tile<1x1xui32, cube_m16, mat>"
    assert verifies(_ACC.replace("CT", ok_c).replace("DT", d))
    assert not verifies(_ACC.replace("CT", "!pto.tile<32x1xui32, mat, valid=2x1>").replace("DT", d))
    assert not verifies(_ACC.replace("CT", ok_c).replace("DT", "!pto.tile<1x1xsi32, cube_m16, mat>"))
    start = isa.BStart.op("TMATMUL_ACC", T.U16.value)
    alias = [start, isa.BFpatr(), isa.BIot(src0=2, src1=5), isa.BIot(src0=6, last=1, size_code=1,
             dst_hand=2), isa.BStop()]  # fmt: skip
    with pytest.raises(PTOFault) as e:
        isa.check_block(alias)
    assert e.value.kind == "TileLegality"
    from pto_dialect.isa.commands import CUBE_FUNCTIONS

    for fn in (f for f in CUBE_FUNCTIONS.values() if f.is_mx):
        blk = [isa.BStart.op(fn.name, T.FP16.value), isa.BDatr(dtype=T.FP16.value),
               isa.BFpatr(), isa.BIot(src0=4, src1=5, last=1, size_code=1, dst_hand=2),
               isa.BStop()]  # fmt: skip
        with pytest.raises(PTOFault) as e:
            isa.check_block(blk, profile="a2a3")
        assert e.value.kind == "IllegalInstruction", fn.name


# ---- post-processing: all-or-nothing destinations ------------------------------------------
_ROLLBACK = """BSTART.TMATMUL FP16
B.FPATR 0, 0, 1, 1, 1, 0, 0, 0, 0, 0
B.DIM zero, 1, ->lb0
B.DIM zero, 512, ->lb1
B.DIM zero, 1, ->lb2
B.IOT m#1, n#1, mask=1111, ->m<2KB>
B.IOT mask=1111, ->t<128B>
B.IOT mask=1111, last, ->t<GROUP>
BSTOP
"""


_LATE = """func.func @f(%x: X, %a: A, %b: B, %q: Q) -> (X, D, R, G) {
  %r = pto.tsqrt %x : X
  %d, %m, %g = pto.tmatmul %a, %b, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 23,
      row_max_en = 1, group_max_en = 1, group_n_code = 1>} : (A, B, Q) -> (D, R, G)
  func.return %r, %d, %m, %g : X, D, R, G
}"""
for _k, _v in (("X", "!pto.tile<1x32xf32, valid=1x8>"), ("A", "!pto.tile<1x1xf16, cube_m16, mat>"),
               ("B", "!pto.tile<1x2xf16, cube_n8, mat>"), ("Q", "!pto.tile<8x2xui64, valid=1x2>"),
               ("D", "!pto.tile<1x2xsi8, cube_m16, mat>"), ("R", "!pto.tile<32x1xf32, valid=1x1>"),
               ("G", "!pto.tile<32x1xf32, valid=1x1>")):  # fmt: skip
    _LATE = _LATE.replace(_k, _v)


@avs("PTO-AVS-TILE-POSTPROCESS-ROLLBACK-003")
def test_late_group_max_capacity_fault():
    """A 1x1 x 1x512 FP16 TMATMUL with RowMax and GroupMax (GroupN 8): D (2 KB) and RowMax
    (128 B) fit, the GroupMax output 1 x 64 FP32 (256 B) does not fit 128 B: TileAllocation
    at block completion, before any destination is allocated (the check precedes every
    effect); with 256 B the block is legal (asl/tile/model/execution/postprocess.asl, ASL
    ResolveBundleTileDestinationsWithShapeAndType)."""
    from pto_dialect.isa import check_program, parse_program

    with pytest.raises(PTOFault) as e:
        check_program(parse_program(_ROLLBACK.replace("GROUP", "128B")))
    assert e.value.kind == "TileAllocation" and "group_max" in e.value.message
    (s,) = check_program(parse_program(_ROLLBACK.replace("GROUP", "256B")))
    assert [size for _, size in s.destinations] == [5, 1, 2]
    # the flags: NV recorded before, then a RowMax + GroupMax TMATMUL whose PEs 0 and 1
    # post-process with OF|NX (140 wraps in S8) and PE 2 faults late (an illegal quant
    # word): the run keeps NV alone, in both engines, at tile level and as decoded blocks
    from interpreter import NumericStatus, run

    w = kernels.postprocess.quant_param_word(2.0, 0, 9)
    quant = np.full((4, 1, 2), w, np.uint64)
    x = np.float32([[-1, 1, 1, 1, 1, 1, 1, 1]])  # sqrt(-1): NV
    args = (x, np.ones((1, 1), np.float16), np.float16([[1.5, 70.0]]))
    good = NumericStatus()
    run(_LATE, "f", *args, quant, flags=good)
    assert good.names == ("NV", "OF", "NX")
    quant[2, 0, 1] = 1  # bits outside the FP19 scale field: TileLegality on PE 2
    for program in (_LATE, bundled(_LATE)):
        for engine in ("xdsl", "compiled"):
            status = NumericStatus()
            with pytest.raises(PTOFault):
                run(program, "f", *args, quant, engine=engine, flags=status)
            assert status.bits == 0x01, engine
