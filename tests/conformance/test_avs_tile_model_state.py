"""Tile-model AVS pass conditions of legality, definedness, memory and numeric formats
(tests/asl/tile/model/legality, definedness, memory, numeric; D17) through the descriptor
geometry (``pto_dialect.geometry``), the ``pto`` verifier, the run-time tile model
(``interpreter.ssa.runtime``), TLOAD / TSTORE programs and the ISA decoder.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs, avs_units
from conformance.model_support import (
    U64,
    both,
    family_op,
    prog,
    tload_of,
    u64,
    verifies,
)
from conformance.support import bundled
from interpreter import run
from interpreter.kernels.status import recording
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault

T = TileDataType


@avs("PTO-AVS-TILE-STAGE4-CARRIER-TYPES-001")
def test_family_type_domains():
    """Each family keeps its closed type set (asl/tile/model/legality/dtype-layout.asl): the
    integer logicals take U64/U16/S8 but no float carrier (E3M2, HF32, E2M3, TF32, FP64) or
    U4X2; TSEL/TSELS take FP64 U64 BF16 FP32 but not HiF8; TROWEXPAND U64 not HiF8,
    TCOLEXPAND U32; TEXPANDS S64 not E3M2; TFILLPAD HF32; TEXTRACT BF16; TINSERT E2M3 FP64
    U4X2; TTRANS S32; TIMG2COL U8 not E3M2 FP64 U4X2; TLOAD FP32 FP64 U4X2 and TSTORE BF16 FP64 U4X2 decode."""
    from pto_dialect.isa import BlockFamily, BStart, decode, encode

    cases = {"tand": ({T.U64}, {T.E3M2, T.FP64, T.U4X2}), "tor": (set(), {T.HF32}),
             "txor": ({T.U16}, set()), "tands": (set(), {T.E2M3}), "tors": (set(), {T.TF32}),
             "txors": ({T.S8}, set()), "tsel": ({T.FP64, T.U64, T.BF16}, {T.HIF8}),
             "tsels": ({T.FP32}, set()), "trowexpand": ({T.U64}, {T.HIF8}),
             "tcolexpand": ({T.U32}, set()), "texpands": ({T.S64}, {T.E3M2}),
             "tfillpad": ({T.HF32}, set()), "textract": ({T.BF16}, set()),
             "timg2col": ({T.U8}, {T.E3M2, T.FP64, T.U4X2}),
             "tinsert": ({T.E2M3, T.FP64, T.U4X2}, set()), "ttrans": ({T.S32}, set())}  # fmt: skip
    for name, (yes, no) in cases.items():
        types = family_op(name).TYPES
        assert yes <= types and not no & types, name
    for op, t in (("TLOAD", T.FP32), ("TLOAD", T.FP64), ("TLOAD", T.U4X2), ("TSTORE", T.BF16),
                  ("TSTORE", T.FP64), ("TSTORE", T.U4X2)):  # fmt: skip
        start = BStart.op(op, t.value)
        assert start.family is BlockFamily.TLSU and decode(encode(start)) == start
    from pto_dialect.gm_indexed import carrier_or_packed_supported

    # GMOV and TPREFETCH: TileCarrierOrPackedBaselineDataTypeSupported (TF32, FP32 yes; FP64 no),
    # the rule of the pto.gmov / pto.tprefetch verifiers (tests/filecheck/dialects/pto/
    # invalid_gm_indexed.mlir)
    assert carrier_or_packed_supported(T.TF32) and carrier_or_packed_supported(T.FP32)
    assert not carrier_or_packed_supported(T.FP64)


@avs("PTO-AVS-TILE-TESTTILECAPACITYLEGALITY-BOUNDARY-001")
def test_capacity_and_shape_rules():
    """TSize is 128 B * 2^(code-1) for codes 1..7 (128 B .. 8 KB); 0 and 255 B are no TSize,
    256 B is; power-of-two checks; a row-major tile's Rows are TSize*8/(Col*bits) (128 B of
    U64: 16 rows at Col 1 .. 1 at Col 16, none at Col 32; U4X2 256 rows per 128 B; 8 KB
    U4X2 16384 rows); a shape other than the derived one does not fit (15 or Col 3 of U64 in
    128 B); capacity covers the whole allocated shape, not the valid region: 64x1 U64 (valid
    1x1) needs 512 B (asl/tile/model/legality/allocation-capacity.asl)."""
    from pto_dialect.geometry import (
        Layout,
        Storage,
        code_of_size,
        geometry_errors,
        is_pow2,
        size_of_code,
    )

    assert [is_pow2(n) for n in (1, 2, 4, 8, 16, 0, 3, 6, 12)] == [True] * 5 + [False] * 4
    assert [size_of_code(c) for c in range(1, 8)] == [128 << i for i in range(7)]
    assert code_of_size(0) is None and code_of_size(255) is None and code_of_size(256) == 2

    def fits(size, rows, cols, t, vr=None):
        return geometry_errors(rows, cols, t, vr or rows, 1 if vr else cols, Layout.ROW_MAJOR,
                               Storage.LOCAL, size) == []  # fmt: skip

    for cols, rows in ((1, 16), (2, 8), (4, 4), (8, 2), (16, 1)):
        assert fits(128, rows, cols, T.U64) and not fits(128, rows + 1, cols, T.U64)
    assert not any(fits(128, r, 32, T.U64) for r in range(0, 3))
    assert fits(128, 256, 1, T.U4X2) and fits(8192, 16384, 1, T.U4X2)
    assert all(fits(128 << i, 16 << i, 1, T.U64) for i in range(7))
    assert not fits(128, 15, 1, T.U64) and not fits(128, 16, 3, T.U64)
    assert not fits(256, 33, 1, T.U64) and fits(256, 32, 1, T.U64)
    assert not fits(256, 64, 1, T.U64, vr=1) and fits(512, 64, 1, T.U64, vr=1)
    assert verifies('%a = "test.op"() : () -> !pto.tile<64x1xui64, valid=1x1>')
    _register_capacity()
    _aggregate_capacity()


def _register_capacity():
    """The tile-instruction register file with tile_capacity = 768 B and one-PE tiles: a
    512 B tile (64x1 U64, valid 1x1) configures and releases; tiles 20 (256 B) and 21 (256 B),
    then 20 reconfigured to 512 B (its old charge replaced) hold exactly 768 B; tile 22
    (256 B) more is refused with nothing changed; releasing 20 leaves 256 B."""
    from interpreter.machine.tile_registers import TileRegisters
    from pto_dialect.attributes import TileType

    big = TileType((64, 1), TileDataType.U64, valid=(1, 1), pe="1000")
    small = TileType((32, 1), TileDataType.U64, valid=(1, 1), pe="1000")
    assert (big.capacity, small.capacity) == (512, 256)
    r = TileRegisters(tile_capacity=768)
    r.configure(19, big, [[7]])
    assert r.type_of(19).capacity == 512 and r.type_of(19).shape == (64, 1)
    assert r.type_of(19).valid_shape == (1, 1)
    r.release(19)
    r.configure(20, small, [[1]])
    r.configure(21, small, [[2]])
    r.configure(20, big, [[3]])
    assert r.capacity_in_use == 768
    with pytest.raises(PTOFault) as e:
        r.configure(22, small, [[4]])
    assert e.value.kind == "TileLegality"
    assert not r.allocated(22) and r.capacity_in_use == 768
    assert r.type_of(20).capacity == 512 and r.type_of(21).capacity == 256
    assert r.read(20).tolist() == [[[3]]]
    r.release(20)
    assert r.capacity_in_use == 256


def _aggregate_capacity():
    """With tile_capacity = 768 B, one-PE tiles of 512 B (64x1 U64, valid 1x1) and 256 B
    (32x1 U64) hold exactly 768 B; a further 256 B tile while both are live is TileAllocation
    and nothing is assigned; once the 512 B tile's last use is past, its capacity is released
    and the 256 B tile fits (256 + 256 B in use)."""
    from xdsl.utils.exceptions import PassFailedException

    from conformance.support import capacity_in_use

    big, small = "!pto.tile<64x1xui64, valid=1x1, pe=1000>", "!pto.tile<32x1xui64, pe=1000>"

    def program(third_after_store: bool) -> str:
        load_c = f"  %c = pto.tload %y[%c0, %c0] : tensor<32x1xi64> -> {small}\n"
        store = f"  %s = pto.tstore %a, %o[%c0, %c0] : {big} -> tensor<64x1xi64>\n"
        body = (store + load_c) if third_after_store else (load_c + store)
        return (f"func.func @f(%x: tensor<64x1xi64>, %y: tensor<32x1xi64>, "
                f"%o: tensor<64x1xi64>) -> (tensor<64x1xi64>, {small}, {small}) {{\n"
                f"  %c0 = arith.constant 0 : index\n"
                f"  %a = pto.tload %x[%c0, %c0] : tensor<64x1xi64> -> {big}\n"
                f"  %b = pto.tload %y[%c0, %c0] : tensor<32x1xi64> -> {small}\n{body}"
                f"  func.return %s, %b, %c : tensor<64x1xi64>, {small}, {small}\n}}")  # fmt: skip

    assert capacity_in_use(program(True), tile_capacity=768) == [512, 768, 768, 512]
    with pytest.raises(PassFailedException, match=r"^\[TileAllocation\] .* needs 256 B .* 768 B"):
        capacity_in_use(program(False), tile_capacity=768)
    assert capacity_in_use(program(False), tile_capacity=1024) == [512, 768, 1024, 1024]


# ---- definedness -------------------------------------------------------------------------
def _partly_defined(ttype_text: str, values, defined) -> tuple:
    """A run-time tile of ``ttype_text`` holding ``values`` with only ``defined`` elements of
    its valid rectangle defined (our SSA programs never produce one: each operation defines
    its whole valid rectangle, so the state is built directly)."""
    from xdsl.parser import Parser

    from interpreter.ssa.runner import build_context
    from interpreter.ssa.runtime import TileValue

    ttype = Parser(build_context(), ttype_text).parse_type()
    full = TileValue.from_valid(ttype, {p: np.asarray(values) for p in (0, 1, 2, 3)})
    mask = np.asarray(defined, bool)
    return ttype, TileValue(ttype, full.payloads, {p: mask for p in full.payloads})


@avs("PTO-AVS-TILE-TESTTILEELEMENTDEFINEDNESS-EXECUTION-001")
def test_element_definedness_gates_every_source():
    """A 2x2 U64 tile with only (0, 0) written is not a legal source: TADD and TROWSUM refuse
    it (TileLegality, no result); once all four elements are written the same TADD gives
    1+10 = 11 .. 4+10 = 14; a result tile's whole valid rectangle is defined
    (asl/tile/model/definedness/elements.asl)."""
    from interpreter.ssa.runtime import require_source

    ttype, part = _partly_defined(U64, [[1, 2], [3, 4]], [[1, 0], [0, 0]])
    for op in ("pto.tadd", "pto.trowsum"):
        with pytest.raises(PTOFault) as e:
            require_source(op, "src", part, ttype)
        assert e.value.kind == "TileLegality" and "undefined" in e.value.message
    _, whole = _partly_defined(U64, [[1, 2], [3, 4]], [[1, 1], [1, 1]])
    assert require_source("pto.tadd", "src", whole, ttype) is whole
    (r,) = both(prog([("a", U64)], f"""
  %c10 = arith.constant 10 : i64
  %t = pto.texpands %c10 : {U64}, i64
  %r = pto.tadd %a, %t : {U64}""", [("r", U64)]), u64([[1, 2], [3, 4]]))
    assert r.tolist() == [[11, 12], [13, 14]]


def _unwritten(op_line: str, t: str) -> str:
    """``%u`` is the result of a zero-mask operation: never written (allocated nowhere)."""
    return prog([("a", t)], f"""
  %u = "pto.tabs"(%a) <{{mask = #pto.mask<0000>}}> : ({t}) -> {t}
  {op_line}""", [("r", t)])


@avs("PTO-AVS-TILE-TESTDECODEDTILELEGALITYFAULTS-FAULT-001")
def test_legality_faults_have_no_effect():
    """TADD with a never-written (or released) source, unsigned TDIV by a tile holding a zero
    and a TMATMUL_BIAS whose bias is 2x3 instead of 1xN are all TileLegality, before any
    result exists (asl/tile/model/legality/operand-schema.asl). Run as the instruction at
    TPC 0x280 (``ArchState.run_at``), the division fault records trap 5 (BUNDLE_TRAP) with
    fault address 0x280 in the current ring (``SetFault(Fault_TileLegality, ReadTPC())``)."""
    from interpreter.machine.arch import ArchState

    for text in (_unwritten(f"%r = pto.tadd %a, %u : {U64}", U64),
                 bundled(_unwritten(f"%r = pto.tadd %a, %u : {U64}", U64))):  # fmt: skip
        with pytest.raises(PTOFault) as e:
            run(text, "f", u64([[8, 8], [8, 8]]))
        assert e.value.kind == "TileLegality"
    div = prog([("a", U64), ("b", U64)], f"  %r = pto.tdiv %a, %b : {U64}", [("r", U64)])
    for text in (div, bundled(div)):
        with pytest.raises(PTOFault) as e:
            run(text, "f", u64([[8, 8], [8, 8]]), u64([[2, 0], [2, 2]]))
        assert e.value.kind == "TileLegality"
        arch = ArchState()
        ok, result = arch.run_at(0x280, run, text, "f", u64([[8, 8], [8, 8]]),
                                 u64([[2, 0], [2, 2]]))  # fmt: skip
        assert not ok and result is None and arch.last_fault == "TileLegality"
        assert arch.fault_address == 0x280 and arch.banks[arch.acr].number == 5
    bias = """%a = "test.op"() : () -> !pto.tile<2x2xui16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<2x2xui16, cube_n8, mat>
%c = "test.op"() : () -> !pto.tile<32x4xui32, valid=2x3>
%d = pto.tmatmul_bias %a, %b, %c : (!pto.tile<2x2xui16, cube_m16, mat>, !pto.tile<2x2xui16, cube_n8, mat>, !pto.tile<32x4xui32, valid=2x3>) -> !pto.tile<2x2xui32, cube_m16, mat>"""
    assert not verifies(bias)
    assert verifies(bias.replace("valid=2x3", "valid=1x2"))


@avs("PTO-AVS-TILE-CUBE-PADDING-001")
def test_cube_tail_padding():
    """A configured, unwritten 13x19 FP16 cube_n8 register (storage 16x24, six CELLs, 768 B;
    the ASL's 768 B capacity is no TSize, ours is the 1 KiB one that holds it) padded with
    Max: the K tail (13, 0), the N tail (0, 19) and the last position (15, 23) hold FP16 Max
    0x7BFF and are defined, the valid element (0, 0) stays undefined, no valid element is
    defined and the contents are not; the tail positions are CUBE payload positions of their
    own (asl/tile/model/definedness/elements.asl, ``ApplyTilePadding``)."""
    from interpreter.machine.tile_registers import TileRegisters
    from pto_dialect.geometry import Layout, cube_payload_index, cube_storage_shape

    assert cube_storage_shape(Layout.CUBE_N8, T.FP16, 13, 19) == (16, 24)
    regs = TileRegisters()
    regs.configure(0, "!pto.tile<16x24xf16, cube_n8, mat, valid=13x19, pe=0001>",
                   np.zeros((13, 19), np.float16), defined=False)  # fmt: skip
    regs.apply_padding(0, "max")
    tile = regs.physical(0)
    (pe,) = tile.pes
    pay, dfn = tile.payloads[pe].view(np.uint16), tile.defined[pe]
    fp16_max = (0b11110 << 10) | 0x3FF  # largest finite FP16: exponent 30, mantissa all ones
    tails = ((13, 0), (0, 19), (15, 23))
    assert not dfn[0, 0]
    assert [int(pay[p]) for p in tails] == [fp16_max] * 3 and all(dfn[p] for p in tails)
    assert int(dfn[:13, :19].sum()) == 0 and not regs.contents_defined(0)
    valid = cube_payload_index(Layout.CUBE_N8, T.FP16, 13, 19, 0, 0)
    assert valid not in {cube_payload_index(Layout.CUBE_N8, T.FP16, 13, 19, *p) for p in tails}


N8_13x19 = "!pto.tile<16x24xf16, cube_n8, mat, valid=13x19>"


@avs("PTO-AVS-TILE-TLOAD-CUBE-001")
def test_tload_into_cube_n8():
    """13x19 FP16 words row*32+col+1 at a row pitch of 21 elements (42 B) load into a cube_n8
    tile: (0, 0) = 1, (7, 7) = 232, (8, 0) = 257, (12, 18) = 403, the whole valid region
    defined; in the CUBE payload those are positions 0, 63, 64 (the second K CELL) and 340
    (asl/tile/model/memory/load-store.asl)."""
    from pto_dialect.geometry import Layout, cube_payload_index

    words = np.array([[r * 32 + c + 1 for c in range(21)] for r in range(13)], np.uint16)
    text, load = tload_of(N8_13x19, "tensor<13x21xf16>")
    (t,) = both(text, words.view(np.float16))
    t = t.view(np.uint16)
    pts = ((0, 0), (7, 7), (8, 0), (12, 18))
    assert [t[p] for p in pts] == [1, 232, 257, 403]
    assert load(words.view(np.float16)).defined[0][:13, :19].all()
    assert [cube_payload_index(Layout.CUBE_N8, T.FP16, 13, 19, *p) for p in pts] == \
        [0, 63, 64, 340]  # fmt: skip


@avs("PTO-AVS-TILE-TSTORE-CUBE-002")
def test_tstore_from_cube_n8():
    """TSTORE of that cube_n8 tile into GM prefilled with 0x5A5A at a 21-element pitch writes
    the 13x19 valid words (1, 232, 403 at their strided places) and nothing else: the row
    gap (columns 19-20) and the row after the tile keep 0x5A5A; the tile stays defined
    (asl/tile/model/memory/load-store.asl)."""
    m = "tensor<14x21xf16>"
    text = prog([("m", m), ("o", m)], f"""
  %c0 = arith.constant 0 : index
  %t = pto.tload %m[%c0, %c0] {{pe_stride = [0, 0]}} : {m} -> {N8_13x19}
  %s = pto.tstore %t, %o[%c0, %c0] {{pe_stride = [0, 0]}} : {N8_13x19} -> {m}""",
                [("s", m), ("t", N8_13x19)])  # fmt: skip
    words = np.array([[r * 32 + c + 1 for c in range(21)] for r in range(14)], np.uint16)
    fill = np.full((14, 21), 0x5A5A, np.uint16)
    s, t = both(text, words.view(np.float16), fill.view(np.float16))
    s = s.view(np.uint16)
    assert (s[0, 0], s[7, 7], s[12, 18]) == (1, 232, 403)
    assert (s[:13, 19:] == 0x5A5A).all() and (s[13] == 0x5A5A).all()
    assert (s[:13, :19] == words[:13, :19]).all() and t.shape == (13, 19)


@avs("PTO-AVS-TILE-TLOAD-CUBE-WIDTHS-003")
def test_tload_cube_keeps_raw_words_of_every_width():
    """TLOAD into CUBE storage copies raw words of every width: FP32 0x89ABCDEF (cube_m32),
    FP16 0xBEEF at (1, 4) (cube_m16), E4M3 0x7E at (1, 8) (cube_n8), U4 nibbles 0xA, 0xB at
    (0, 0), (0, 1) (cube_n8; a GM byte 0xBA holds them low nibble first: ``unpack_x2``)
    (asl/tile/model/memory/load-store.asl)."""
    from pto_dialect.mx_quant import unpack_x2

    cases = (("!pto.tile<2x2xf32, cube_m32, mat>", "tensor<2x2xf32>", np.uint32, (0, 0),
              0x89ABCDEF, np.float32),
             ("!pto.tile<2x5xf16, cube_m16, mat>", "tensor<2x5xf16>", np.uint16, (1, 4), 0xBEEF,
              np.float16),
             ("!pto.tile<2x9xf8E4M3FN, cube_n8, mat>", "tensor<2x9xf8E4M3FN>", np.uint8, (1, 8),
              0x7E, None))  # fmt: skip
    for tile, tensor, raw, at, word, view in cases:
        words = np.zeros((2, int(tensor.split("x")[1])), raw)
        words[at] = word
        arg = words.view(view) if view else words
        (t,) = both(prog([("m", tensor)], f"""
  %c0 = arith.constant 0 : index
  %t = pto.tload %m[%c0, %c0] {{pe_stride = [0, 0]}} : {tensor} -> {tile}""", [("t", tile)]),
                    arg)  # fmt: skip
        assert t.view(raw)[at] == word, tile
    assert unpack_x2(np.uint8([0xBA])).tolist() == [0xA, 0xB]
    u4 = "!pto.tile<2x9xui4, cube_n8, mat>"
    _, load = tload_of(u4, "tensor<2x9xi4>")
    nib = np.zeros((2, 9), np.uint8)
    nib[0, :2] = unpack_x2(np.uint8([0xBA]))
    got = load(nib).payloads[0]
    assert (got[0, 0], got[0, 1]) == (0xA, 0xB)


@avs("PTO-AVS-TILE-TLOAD-CUBE-M16-B4-005")
def test_tload_m16_four_bit_cell_interleave():
    """Logical nibbles 0..15 of a 2x16 U4 cube_m16 row (GM bytes 0x10 0x32 .. 0xFE, low nibble
    first) load in order; the CUBE payload puts logical columns 4..7 at positions 8..11 and
    8..11 at 4..7 (payload 4 holds 8, 7 holds 11, 8 holds 4, 11 holds 7)."""
    from pto_dialect.geometry import Layout, cube_payload_index
    from pto_dialect.mx_quant import unpack_x2

    gm = np.uint8([0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE])
    assert unpack_x2(gm).tolist() == list(range(16))
    load, _ = _packed_move("!pto.tile<2x16xui4, cube_m16, mat>", 8, rows=2)
    assert load([gm, gm]) == [list(range(16))] * 2  # from packed GM bytes
    _, load = tload_of("!pto.tile<2x16xui4, cube_m16, mat>", "tensor<2x16xi4>")
    t = load(np.stack([unpack_x2(gm)] * 2)).payloads[0]
    assert t[0].tolist() == list(range(16))
    payload = {cube_payload_index(Layout.CUBE_M16, T.U4X2, 2, 16, 0, c): int(t[0, c])
               for c in range(16)}  # fmt: skip
    assert [payload[i] for i in (0, 3, 4, 7, 8, 11, 12, 15)] == [0, 3, 8, 11, 4, 7, 12, 15]


@avs("PTO-AVS-TILE-TLOAD-CUBE-PAD-004")
def test_tload_cube_pad_values():
    """A 2x3 FP16 cube_n8 load (storage 8x8) pads the row tail (2, 0) and the column tail
    (0, 3) with Zero 0x0000, Max 0x7BFF, Min 0xFBFF (defined) or Null (undefined); the six
    valid words stay defined (asl/tile/model/memory/load-store.asl)."""
    words = np.arange(1, 7, dtype=np.uint16).reshape(2, 3).view(np.float16)
    for pad, want in (("zero", 0), ("max", 0x7BFF), ("min", 0xFBFF), ("null", None)):
        _, load = tload_of("!pto.tile<8x8xf16, cube_n8, mat, valid=2x3>", "tensor<2x3xf16>", pad)
        t = load(words)
        pay, dfn = t.payloads[0].view(np.uint16), t.defined[0]
        assert dfn[:2, :3].all() and (pay[:2, :3] == words.view(np.uint16)).all()
        for at in ((2, 0), (0, 3)):
            assert dfn[at] == (want is not None) and (want is None or pay[at] == want), pad


@avs("PTO-AVS-TILE-TLSU-BYTE-ROW-STRIDE-EXECUTION-005")
def test_row_stride_load_and_store():
    """A 64-byte row stride: the FP32 second row is read 16 elements (64 B) after the first
    and stored there; a 32-byte stride for FP16 (16 elements) likewise
    (asl/tile/model/memory/load-store.asl)."""
    for elt, pitch, tile in (("f32", 16, "!pto.tile<16x2xf32, valid=2x2>"),
                             ("f16", 16, "!pto.tile<32x2xf16, valid=2x2>")):  # fmt: skip
        m = f"tensor<2x{pitch}x{elt}>"
        text = prog([("m", m), ("o", m)], f"""
  %c0 = arith.constant 0 : index
  %t = pto.tload %m[%c0, %c0] {{pe_stride = [0, 0]}} : {m} -> {tile}
  %s = pto.tstore %t, %o[%c0, %c0] {{pe_stride = [0, 0]}} : {tile} -> {m}""",
                    [("t", tile), ("s", m)])  # fmt: skip
        dt = np.float32 if elt == "f32" else np.float16
        mem = np.zeros((2, pitch), dt)
        mem[0, :2], mem[1, :2] = (1, 2), (3, 4)
        t, s = both(text, mem, np.zeros((2, pitch), dt))
        assert t.tolist() == [[1, 2], [3, 4]]
        assert s[1, :2].tolist() == [3, 4] and not s[:, 2:].any()


@avs("PTO-AVS-TILE-MEM-SNAPSHOT-001")
def test_raw_memory_element_decoding():
    """One GM byte 0xAB read as U8 is 171, as S8 it is sign-extended (-85); as U4X2 its low
    nibble is element 0 (0xB) and its high nibble element 1 (0xA)
    (asl/tile/model/memory/load-store.asl ``DecodeTileMemoryElementRaw``)."""
    from pto_dialect.mx_quant import unpack_x2

    m = "tensor<1x1xi8>"
    u8, s8 = "!pto.tile<128x1xui8, valid=1x1>", "!pto.tile<128x1xsi8, valid=1x1>"
    text = prog([("m", m)], f"""
  %c0 = arith.constant 0 : index
  %u = pto.tload %m[%c0, %c0] {{pe_stride = [0, 0]}} : {m} -> {u8}
  %s = pto.tload %m[%c0, %c0] {{pe_stride = [0, 0]}} : {m} -> {s8}""", [("u", u8), ("s", s8)])
    u, s = both(text, np.array([[0xAB]], np.uint8).view(np.int8))
    assert (int(u[0, 0]), int(s[0, 0])) == (0xAB, -85)
    assert unpack_x2(np.uint8([0xAB])).tolist() == [0xB, 0xA]


# ---- numeric formats: conversion -------------------------------------------------------
def _tcvt(src: str, dst: str, values, attrs: str = "") -> list:
    s, d = f"!pto.tile<128x2x{src}, valid=1x2>", f"!pto.tile<128x2x{dst}, valid=1x2>"
    (r,) = both(prog([("a", s)], f"  %r = pto.tcvt %a{attrs} : ({s}) -> {d}", [("r", d)]),
                values)  # fmt: skip
    return r[0].tolist()


@avs("PTO-AVS-TILE-TESTTILECONVERSION-EXECUTION-001")
def test_integer_conversions_and_default_control():
    """Integer TCVT reads the source's signedness, then truncates or extends: S8 0x80 -> S16
    -128, U8 0xFF -> U16 255, S16 0x01FF -> U8 0xFF, U16 0xFFFF -> S8 -1, S64 -1 -> U8 0xFF,
    U64 257 -> U8 1 (wraps); FP32 -> U32 defaults to RTZ without saturation (2.7 -> 2), an
    explicit RNA + Sat rounds 2.5 to 3; TQUANT of [1.0 2.0] with scale 1.0 and offset 0 gives
    U8 [1 2] and TDEQUANT returns [1.0 2.0] (asl/tile/model/numeric/formats.asl). The
    integer conversions record no numeric status flag (``TileConvertValue``: Zeros{5})."""
    with recording() as status:
        assert _tcvt("si8", "si16", np.int8([[-128, 127]])) == [-128, 127]
        assert _tcvt("ui8", "ui16", np.uint8([[255, 1]])) == [255, 1]
        assert _tcvt("si16", "ui8", np.int16([[0x1FF, 1]])) == [0xFF, 1]
        assert _tcvt("ui16", "si8", np.uint16([[0xFFFF, 1]])) == [-1, 1]
        assert _tcvt("si64", "ui8", np.int64([[-1, 1]])) == [0xFF, 1]
        assert _tcvt("ui64", "ui8", np.uint64([[257, 100]])) == [1, 100]
    assert status.bits == 0
    assert _tcvt("f32", "ui32", np.float32([[2.7, 2.5]])) == [2, 2]
    assert _tcvt("f32", "ui32", np.float32([[-1.0, 2.5]]), " {rmode = #pto.rmode<rna>, sat}") \
        == [0, 3]  # fmt: skip
    f, u = "!pto.tile<16x2xf32, valid=1x2>", "!pto.tile<64x2xui8, valid=1x2>"
    q, d = both(prog([("a", f), ("s", "i64"), ("o", "i64")], f"""
  %q = pto.tquant %a, %s, %o : ({f}, i64, i64) -> {u}
  %d = pto.tdequant %q, %s, %o : ({u}, i64, i64) -> {f}""", [("q", u), ("d", f)]),
                np.float32([[1, 2]]), 0x3F800000, 0)  # fmt: skip
    assert q.tolist() == [[1, 2]] and d.view(np.uint32).tolist() == [[0x3F800000, 0x40000000]]


@avs("PTO-AVS-TILE-TCVT-FRACTAL-001")
def test_fractal_layout_indexing():
    """ZN and NZ tiles are 16-row x 32-byte fractals: a 32x64 U8 ZN tile places (1, 0) at 1,
    (0, 1) at 16, (0, 32) at 512 and (16, 0) at 1024; the NZ one (0, 1) at 1, (1, 0) at 32,
    (16, 0) at 512 and (0, 32) at 1024; a U4X2 fractal row holds 64 nibbles, so (0, 63) of a
    16x64 ZN U4X2 tile is 1008; both descriptors are legal tile types
    (asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl,
    asl/tile/model/definedness/elements.asl ``TileLinearIndex``)."""
    from pto_dialect.geometry import Layout, fractal_inner_elements, linear_index

    def at(layout, t, rows, cols, *pts):
        return [linear_index(layout, t, rows, cols, r, c) for r, c in pts]

    pts = ((0, 0), (1, 0), (0, 1), (0, 32), (16, 0))
    assert at(Layout.ZN, T.U8, 32, 64, *pts) == [0, 1, 16, 512, 1024]
    assert at(Layout.NZ, T.U8, 32, 64, *pts) == [0, 32, 1, 1024, 512]
    assert fractal_inner_elements(T.U4X2) == 64
    assert at(Layout.ZN, T.U4X2, 16, 64, (0, 63)) == [1008]
    for t in ("!pto.tile<32x64xui8, zn>", "!pto.tile<32x64xui8, nz>", "!pto.tile<16x64xui4, zn>"):
        assert verifies(f'%a = "test.op"() : () -> {t}'), t
    every = {linear_index(Layout.NZ, T.U8, 32, 64, r, c) for r in range(32) for c in range(64)}
    assert every == set(range(32 * 64))


# ---- packed / wide carriers at the capacity boundary --------------------------------------
@avs("PTO-AVS-TILE-CARRIER-WIDTHS-002")
def test_every_width_at_the_shared_maximum():
    """A 256 KiB Shared tile of U4 (16 columns), S8 (8), S16 (4), S32 (2) or S64 (1) holds
    524288 .. 32768 elements in its derived rows; its last element's row-major position is
    capacity - 1, and a value written there (0xF, 0xA5, 0xA55A, 0xA55AA55A,
    0xA55AA55AA55AA55A, raw element width) reads back exactly
    (asl/tile/model/definedness/packed-boundary.asl)."""
    from pto_dialect.geometry import Layout, Storage, geometry_errors, linear_index

    for cols, t, cap, word in ((16, T.U4X2, 524288, 0xF), (8, T.S8, 262144, 0xA5),
                               (4, T.S16, 131072, 0xA55A), (2, T.S32, 65536, 0xA55AA55A),
                               (1, T.S64, 32768, 0xA55AA55AA55AA55A)):  # fmt: skip
        rows = 262144 * 8 // (cols * t.info.carrier_bits)
        assert rows * cols == cap
        assert geometry_errors(rows, cols, t, rows, cols, Layout.ROW_MAJOR, Storage.SHARED,
                               262144) == []  # fmt: skip
        assert linear_index(Layout.ROW_MAJOR, t, rows, cols, rows - 1, cols - 1) == cap - 1
        tt = f"!pto.tile<{rows}x{cols}x{t.ir}, shared, size=256KB>"
        raw = np.dtype(f"u{max(1, t.info.carrier_bits // 8)}")
        arr = np.zeros((rows, cols), raw)
        arr[-1, -1] = word
        (got,) = run(prog([("a", tt)], "", [("a", tt)]), "f", arr.view(t.numpy_dtype() or raw))
        assert int(got[0, -1, -1].view(raw)) == word, t


def test_local_packed_tload_at_the_largest_size_code():
    """A TLOAD of a 16384x8 U4 tile forms a block with SizeCode 10 (64 KiB) and loads all
    131072 nibbles: the element at row 4096 (logical position 32768, past any 32768-word bound) and
    the last one (131071) are defined zeros (asl/tile/model/definedness/packed-boundary.asl).
    AVS PACKED-CAPACITY-BOUNDARY-001 on the byte GM of Core: test_avs_gm_faults.py."""
    from pto_dialect.geometry import Layout, linear_index

    tt, m = "!pto.tile<16384x8xui4, size=64KB>", "tensor<16384x8xi4>"
    text, load = tload_of(tt, m)
    assert 'size_code = "64KB"' in str(bundled(text))  # B.IOT SizeCode 10
    t = load(np.zeros((16384, 8), np.uint8))  # (``run`` takes no i4 tensor argument)
    assert t.payloads[0].shape == (16384, 8) and all(d.all() for d in t.defined.values())
    assert t.payloads[0][4096, 0] == 0 and t.payloads[0][16383, 7] == 0
    assert linear_index(Layout.ROW_MAJOR, T.U4X2, 16384, 8, 4096, 0) == 32768
    assert linear_index(Layout.ROW_MAJOR, T.U4X2, 16384, 8, 16383, 7) == 131071


# ---- static-invariant units --------------------------------------------------------------
MODEL_UNITS = {
    "PTO-AVS-TILE-MODEL-EXECUTION-COMPARISON-STATIC-001": "interpreter.kernels.compare:RELATIONS",
    "PTO-AVS-TILE-MODEL-EXECUTION-INDEXED-REARRANGEMENT-STATIC-001":
        "interpreter.kernels.rearrange:tgather",
    "PTO-AVS-TILE-MODEL-LEGALITY-INDEXED-REARRANGEMENT-STATIC-001":
        "pto_dialect.tile_rearrange:INDEXED_OPS",
    "PTO-AVS-TILE-MODEL-EXECUTION-SORTING-STATIC-001": "interpreter.kernels.rearrange:tsort",
    "PTO-AVS-TILE-MODEL-LEGALITY-SORTING-STATIC-001": "pto_dialect.tile_rearrange:TSortOp",
    "PTO-AVS-TILE-MODEL-ORDERING-SORTING-STATIC-001": "interpreter.kernels.rearrange:tmrgsort",
}  # fmt: skip
"""The unit of ours that models each ASL unit ("the unit compiles": it imports)."""


test_model_unit = avs_units(MODEL_UNITS)


# ---- TLSU selectors and four-bit memory types ------------------------------------------
def _packed_move(tile: str, gm_cols: int, rows: int = 1):
    """(load(gm) -> PE0's codes, store(codes, gm) -> GM bytes) of packed 4-bit GM programs
    (``tensor<rows x gm_cols x i8>`` at [0, 0]; docs/dialect.md "Packed 4-bit GM"), each run
    at tile level and as decoded blocks."""
    tensor = f"tensor<{rows}x{gm_cols}xi8>"
    ld = prog([("m", tensor)], f"""
  %c0 = arith.constant 0 : index
  %t = pto.tload %m[%c0, %c0] : {tensor} -> {tile}""", [("t", tile)])
    st = prog([("t", tile), ("m", tensor)], f"""
  %c0 = arith.constant 0 : index
  %r = pto.tstore %t, %m[%c0, %c0] : {tile} -> {tensor}""", [("r", tensor)])
    return (lambda gm: both(ld, np.uint8(gm))[0].tolist(),
            lambda codes, gm: both(st, np.uint8(codes), np.uint8(gm))[0].view(np.uint8).tolist())


@avs("PTO-AVS-TILE-TLSU-DECODE-BOUND-004")
def test_tlsu_selector_closure():
    """TLSU functions 0-8 and 13 decode to TLOAD, TSTORE, TMOV, TPREFETCH, MGATHER, MSCATTER,
    MGATHER_MASK, MSCATTER_MASK, MGATHER_CAS and GMOV; TLOAD and TSTORE execute on packed GM:
    the U4 element 2 (the low nibble of a GM byte 0xA2) loads and a 3 stores back into the low
    nibble, the high one kept (0xA3; asl/tile/model/memory/load-store.asl). The same three
    selectors run as tile instructions on registers (``Core``): TLOAD into 20 reads 2 from
    0x300, TSTORE of 21 (element 3) leaves 0xA3 there, TMOV 20 <- 21 gives 3."""
    from interpreter.machine.shared_blocks import Core
    from pto_dialect.attributes import MaskAttr, TileType
    from pto_dialect.isa import BlockFamily, BStart, decode, encode
    from pto_dialect.isa.commands import TLSU_FUNCTIONS

    names = ["TLOAD", "TSTORE", "TMOV", "TPREFETCH", "MGATHER", "MSCATTER", "MGATHER_MASK",
             "MSCATTER_MASK", "MGATHER_CAS"]  # fmt: skip
    for code, name in [*enumerate(names), (13, "GMOV")]:
        assert TLSU_FUNCTIONS[code].name == name
        start = BStart(BlockFamily.TLSU, code, T.U4X2.value)
        assert decode(encode(start), strict=True) == start
    load, store = _packed_move("!pto.tile<256x1xui4, valid=1x1, pe=1000>", 1)
    assert load([[0xA2]]) == [[2]]
    assert store([[3]], [[0xA2]]) == [[0xA3]]

    core = Core()
    packed = TileType((16, 16), T.U4X2, valid=(1, 1), size=128, pe="0001")
    core.local.configure(20, packed, np.zeros((1, 1), np.uint8), defined=False)
    core.local.configure(21, packed, np.array([[3]], np.uint8))
    core.gm[0x300] = 0xA2
    run_selector = {  # the decoded selector's operation, on the AVS operands
        "TLOAD": lambda: core.tload(20, 0x300, 1),
        "TSTORE": lambda: core.tstore(0x300, 1, 21),
        "TMOV": lambda: core.local.execute("pto.tmov", 20, 21,
                                           properties={"mask": MaskAttr("0001")}),
    }  # fmt: skip
    seen = []
    for code in (0, 1, 2):
        run_selector[TLSU_FUNCTIONS[code].name]()
        seen.append((core.local.read(20).ravel().tolist(), int(core.gm[0x300])))
    assert seen == [([2], 0xA2), ([2], 0xA3), ([3], 0xA3)] and core.local.contents_defined(20)
    _indexed_selectors(core)


def _indexed_selectors(core) -> None:
    """The other TLSU selectors of the AVS on the same registers (interpreter.machine.indexed_tlsu,
    D25): TPREFETCH (U8 1x1 from 0x300) completes; with U8 tiles 20 / 21 (21 holding 3) and
    the U64 index 22 (0): MGATHER reads 3 from 0x300, MSCATTER writes 3 there, MGATHER.MASK
    (predicate 23 = 1) reads 3, MSCATTER.MASK writes 3, MGATHER.CAS (expected 24 = 3,
    replacement 25 = 4) observes 3 and leaves 4, GMOV with peer_tid 2 copies 3."""
    from pto_dialect.attributes import TileType
    from pto_dialect.predicate import PredicateTileType

    u8 = TileType((128, 1), T.U8, valid=(1, 1), size=128, pe="0001")
    core.local.release(20)
    core.local.release(21)
    core.local.configure(20, u8, np.zeros((1, 1), np.uint8))
    core.local.configure(21, u8, np.array([[3]], np.uint8))
    core.local.configure(22, TileType((128, 1), T.U64, valid=(1, 1), size=1024, pe="0001"),
                         np.zeros((1, 1), np.uint64))  # fmt: skip
    core.local.configure(23, PredicateTileType((1, 16), valid=(1, 1), size=128, pe="0001"),
                         np.ones((1, 1), bool))  # fmt: skip
    core.local.configure(24, u8, np.array([[3]], np.uint8))
    core.local.configure(25, u8, np.array([[4]], np.uint8))
    core.gm[0x300] = 3
    core.tprefetch(0x300, 1, 1, 1, 1, T.U8)
    core.mgather(20, 0x300, 22)
    assert core.local.read(20).ravel().tolist() == [3]
    core.mscatter(0x300, 21, 22)
    core.mgather_mask(20, 0x300, 22, 23)
    assert core.local.read(20).ravel().tolist() == [3]
    core.mscatter_mask(0x300, 21, 22, 23)
    core.mgather_cas(20, 0x300, 22, 24, 25)
    assert core.local.read(20).ravel().tolist() == [3] and core.gm[0x300] == 4
    src = TileType((128, 1), T.U8, valid=(1, 1), size=128, pe="1111")
    core.local.configure(21, src, np.full((4, 1, 1), 3, np.uint8))
    core.gmov(20, 21, 2)
    assert core.local.read(20).ravel().tolist() == [3]


@avs("PTO-AVS-TILE-TLSU-DIRECT-BOUND-001")
def test_four_bit_direct_loads():
    """Every four-bit type (E2M1X2, E1M2X2, HiF4X2, S4X2, U4X2) is a TLOAD / TSTORE data type;
    packed GM bytes hold two elements low nibble first: bytes 0xBA 0xC5 load as U4 [A B 5],
    [1 2 3] stores into 0x90 0xE0 as 0x21 0xE3 (the last byte's high nibble kept); a 2x2 U4
    tile at a 4-byte row stride reads bytes 0x21 and 0x43 as [1 2;3 4], and [5 6;7 8] stores
    as 0x65 and 0x87 (asl/tile/model/memory/load-store.asl)."""
    from pto_dialect.isa import BStart, decode, encode

    for t in (T.E2M1X2, T.E1M2X2, T.HIF4X2, T.S4X2, T.U4X2):
        for op in ("TLOAD", "TSTORE"):
            start = BStart.op(op, t.value)
            assert decode(encode(start), strict=True) == start
    load, store = _packed_move("!pto.tile<64x4xui4, valid=1x3, pe=1000>", 2)
    assert load([[0xBA, 0xC5]]) == [[0xA, 0xB, 0x5]]
    assert store([[1, 2, 3]], [[0x90, 0xE0]]) == [[0x21, 0xE3]]
    load2, store2 = _packed_move("!pto.tile<64x4xui4, valid=2x2, pe=1000>", 4, rows=2)
    assert load2([[0x21, 0xEE, 0, 0], [0x43, 0, 0, 0]]) == [[1, 2], [3, 4]]
    assert store2([[5, 6], [7, 8]], np.zeros((2, 4))) == [[0x65, 0, 0, 0], [0x87, 0, 0, 0]]
    _four_bit_events()
    _four_bit_registers()
    _four_bit_gmov_and_prefetch()


def _four_bit_gmov_and_prefetch() -> None:
    """GMOV of the U4 1 x 3 tile [1 2 3] with peer_tid 1 copies it; TPREFETCH of all PEs (U8
    1 x 2 from 0x120, stride 2) gives 8 one-byte load events, the second at 0x121; no
    four-bit type is an indexed transfer type (IndexedTLSUTransferDataTypeLegal): a U4 gather
    destination is TileLegality (interpreter.machine.indexed_tlsu, D25)."""
    from interpreter.kernels.indexed import transfer_type_legal
    from interpreter.machine.shared_blocks import Core
    from pto_dialect.attributes import TileType
    from pto_dialect.faults import FaultKind

    core = Core()
    u4 = TileType((16, 16), T.U4X2, valid=(1, 3), size=128, pe="1111")
    core.local.configure(1, u4, np.array([[1, 2, 3]], np.uint8))
    core.local.configure(0, u4, np.zeros((1, 3), np.uint8), defined=False)
    core.gmov(0, 1, 1)
    assert core.local.read(0)[0].ravel().tolist() == [1, 2, 3]
    core.start_memory_event_capture(0)
    core.tprefetch(0x120, 2, 2, 1, 2, T.U8)
    ev = core.memory_events
    assert len(ev) == 8 and (ev[0].kind, ev[0].size, ev[1].address) == ("load", 1, 0x121)
    core.local.configure(2, TileType((8, 16), T.U64, valid=(1, 3), size=1024, pe="1111"),
                         np.zeros((1, 3), np.uint64))  # fmt: skip
    for t in (T.E2M1X2, T.E1M2X2, T.HIF4X2, T.S4X2, T.U4X2):
        assert not transfer_type_legal(t)
        core.local.configure(3, TileType((16, 16), t, valid=(1, 3), size=128, pe="1111"),
                             np.zeros((1, 3), np.uint8))  # fmt: skip
        with pytest.raises(PTOFault) as e:
            core.mgather(3, 0, 2)
        assert e.value.kind == FaultKind.TILE_LEGALITY


def _four_bit_registers() -> None:
    """On registers (``Core``): TMOV of the U4 1 x 3 tile [1 2 3] copies it; each four-bit
    type loads GM byte 0xAF as [F A] and stores elements [i+1, i+5] as the byte
    (i+5) * 16 + i + 1 (asl/tile/model/memory/load-store.asl)."""
    from interpreter.machine.shared_blocks import Core
    from pto_dialect.attributes import MaskAttr, TileType

    core = Core()
    u4 = TileType((16, 16), T.U4X2, valid=(1, 3), size=128, pe="0001")
    core.local.configure(1, u4, np.array([[1, 2, 3]], np.uint8))
    core.local.configure(2, u4, np.zeros((1, 3), np.uint8), defined=False)
    core.local.execute("pto.tmov", 2, 1, properties={"mask": MaskAttr("0001")})
    assert core.local.read(2).ravel().tolist() == [1, 2, 3] and core.local.contents_defined(2)
    for i, t in enumerate((T.E2M1X2, T.E1M2X2, T.HIF4X2, T.S4X2, T.U4X2)):
        tile, address = 33 + i, 0x340 + i
        ttype = TileType((16, 16), t, valid=(1, 2), size=128, pe="0001")
        core.local.configure(tile, ttype, np.zeros((1, 2), np.uint8), defined=False)
        core.gm[address] = 0xAF
        core.tload(tile, address, 2)
        assert (core.local.read(tile).view(np.uint8) & 0xF).ravel().tolist() == [0xF, 0xA]
        core.local.write(tile, np.array([[i + 1, i + 5]], np.uint8))
        core.tstore(address, 2, tile)
        assert int(core.gm[address]) == (i + 5) * 16 + i + 1


def _four_bit_events() -> None:
    """The same U4 1 x 3 TLOAD / TSTORE as tile instructions on a byte GM with event capture
    (``interpreter.machine.shared_blocks.Core``, docs/gm-faults.md): three one-byte load events at
    0x100, 0x100, 0x101 reading 0xBA, 0xBA, 0xC5; three store events writing 0x91 (low nibble
    1 into 0x90), 0x21 (then high nibble 2) and 0xE3 at 0x111."""
    from interpreter.machine.shared_blocks import Core
    from pto_dialect.attributes import TileType

    core = Core()
    t = TileType((16, 16), T.U4X2, valid=(1, 3), size=128, pe="0001")  # ConfigureTile: PE3
    core.local.configure(0, t, np.zeros((1, 3), np.uint8), defined=False)
    core.gm[0x100:0x102] = [0xBA, 0xC5]
    core.start_memory_event_capture(0)
    core.tload(0, 0x100, 3)
    assert [(e.kind, e.address, e.size, e.value) for e in core.memory_events] == [
        ("load", 0x100, 1, 0xBA), ("load", 0x100, 1, 0xBA), ("load", 0x101, 1, 0xC5)]
    assert core.local.read(0).tolist() == [[[0xA, 0xB, 0x5]]]
    core.local.configure(1, t, np.array([[1, 2, 3]], np.uint8))
    core.gm[0x110:0x112] = [0x90, 0xE0]
    core.start_memory_event_capture(0)
    core.tstore(0x110, 3, 1)
    assert [(e.kind, e.address, e.value) for e in core.memory_events] == [
        ("store", 0x110, 0x91), ("store", 0x110, 0x21), ("store", 0x111, 0xE3)]
    assert core.gm[0x110:0x112].tolist() == [0x21, 0xE3]
