"""Tile-model AVS pass conditions (tests/asl/tile/model/**: execution, definedness, dispatch,
legality, memory, numeric, state; D17) through our public API: multi-op programs run with
``interpreter.run`` at tile level and as decoded blocks (``pto-form-bundles``), the ``pto``
verifier, the CUBE kernel, the block checker and the descriptor geometry.

The migrated ASL suites (``Test...`` functions) configure numbered tiles and run a sequence of
instructions on them; ours writes the same sequence as one SSA program whose tile values are
the configured tiles, and asserts the same element values. A later ASL step that reconfigures
a tile index is a fresh SSA value here.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.utils.exceptions import ParseError, VerifyException

from conformance.inventory import ALIAS, FLAGS, avs, avs_cases, unit_object
from conformance.support import bundled, verify_error
from interpreter import kernels, run
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault

T = TileDataType


def prog(args: list[tuple[str, str]], body: str, results: list[tuple[str, str]]) -> str:
    """``func.func @f`` with the named arguments, ``body`` and the named results."""
    a = ", ".join(f"%{n}: {t}" for n, t in args)
    r = ", ".join(t for _, t in results)
    names = ", ".join(f"%{n}" for n, _ in results)
    return f"func.func @f({a}) -> ({r}) {{\n{body}\n  func.return {names} : {r}\n}}"


def both(text: str, *args, blocks: bool = True) -> list[np.ndarray]:
    """Every result of ``@f`` (PE0's valid rectangle) at tile level; the decoded blocks give
    the same bits (``blocks=False``: an op without a block form, TEXTRACT/TINSERT)."""
    tile = run(text, "f", *args)
    for x, y in zip(tile, run(bundled(text), "f", *args) if blocks else tile):
        assert x.dtype == y.dtype and np.array_equal(x.view(np.uint8), y.view(np.uint8))
    return [x[0] if x.ndim == 3 else x for x in tile]


U64 = "!pto.tile<16x2xui64, valid=2x2>"
"""The migrated suites' ``ConfigureTwoByTwo``: a 256-byte 2x2 U64 tile."""


def u64(rows) -> np.ndarray:
    return np.array(rows, np.uint64)


# ---- execution: elementwise, expansion, generation, rearrangement, reduction -----------------
@avs("PTO-AVS-TILE-TESTTILEELEMENTWISEANDALIASING-EXECUTION-001", unchecked=ALIAS)
def test_elementwise_sequence():
    """U64 ADD [1 2;3 4] + [10 20;30 40] = [11 22;33 44]; ADD again (the ASL writes it over
    its left source: ours is a fresh value from the old payloads); unsigned DIV 10/11 and
    20/22 truncate to 0; TFMA of the sum, the right source and a TEXPANDS 5 fill:
    11*10+5 = 115, 44*40+5 = 1765 (asl/tile/model/execution/elementwise.asl)."""
    text = prog([("a", U64), ("b", U64)], f"""
  %s = pto.tadd %a, %b : {U64}
  %al = pto.tadd %a, %b : {U64}
  %q = pto.tdiv %b, %al : {U64}
  %c5 = arith.constant 5 : i64
  %f = pto.texpands %c5 : {U64}, i64
  %r = pto.tfma %al, %b, %f : {U64}""", [("s", U64), ("al", U64), ("q", U64), ("r", U64)])
    s, al, q, r = both(text, u64([[1, 2], [3, 4]]), u64([[10, 20], [30, 40]]))
    assert s[0, 0] == 11 and s[1, 1] == 44 and al[0, 1] == 22 and al[1, 1] == 44
    assert q[0].tolist() == [0, 0]
    assert r[0, 0] == 115 and r[1, 1] == 1765


@avs("PTO-AVS-TILE-TESTTILEEXPANSION-EXECUTION-001")
def test_row_expansion_add_and_div():
    """TROWEXPANDADD [1 2;3 4] with [10;20] = [11 12;23 24]; TROWEXPANDDIV with [2;4] gives
    2/2 = 1 and 4/4 = 1 in column 1 (asl/tile/model/execution/expansion.asl)."""
    col = "!pto.tile<32x1xui64, valid=2x1>"
    text = prog([("a", U64), ("b", col), ("d", col)], f"""
  %x = pto.trowexpandadd %a, %b : ({U64}, {col}) -> {U64}
  %y = pto.trowexpanddiv %a, %d : ({U64}, {col}) -> {U64}""", [("x", U64), ("y", U64)])
    x, y = both(text, u64([[1, 2], [3, 4]]), u64([[10], [20]]), u64([[2], [4]]))
    assert x.tolist() == [[11, 12], [23, 24]] and y[:, 1].tolist() == [1, 1]


@avs("PTO-AVS-TILE-STAGE4-COPY-001")
def test_expansion_copy_and_fill_keep_raw_carriers():
    """TROWEXPAND of TF32 words 0x3F800001 / 0x3F800002 (low mantissa bits set: not valid TF32
    encodings) copies them bit for bit into both columns, the type stays TF32; TEXPANDS of
    0x1FF into a U8 tile keeps the low byte 0xFF (asl/tile/model/execution/expansion.asl)."""
    src, dst = "!pto.tile<64x1xtf32, valid=2x1>", "!pto.tile<16x2xtf32, valid=2x2>"
    u8 = "!pto.tile<128x1xui8, valid=1x1>"
    text = prog([("a", src)], f"""
  %x = pto.trowexpand %a : ({src}) -> {dst}
  %c = arith.constant 511 : i64
  %f = pto.texpands %c : {u8}, i64""", [("x", dst), ("f", u8)])
    words = np.array([[0x3F800001], [0x3F800002]], np.uint32)
    x, f = both(text, words.view(np.float32))
    assert x.view(np.uint32).tolist() == [[0x3F800001] * 2, [0x3F800002] * 2]
    assert f.tolist() == [[0xFF]]


@avs("PTO-AVS-TILE-TESTTILEGENERATION-EXECUTION-001")
def test_generation_sequence():
    """TCI from 5 ascending gives 5..8; a 2x2 lower TTRI (diagonal 0) is [1 0;1 1]; TFILLPAD of
    it into a 3x3 valid region with pad word 9 keeps [1 0] in row 0 and writes 9 at (2, 2)
    (asl/tile/model/execution/generation.asl)."""
    row = "!pto.tile<16x4xui32, valid=1x4>"
    sq = "!pto.tile<32x4xui32, valid=2x2>"
    big = "!pto.tile<32x4xui32, valid=3x3>"
    text = prog([], f"""
  %c5 = arith.constant 5 : i64
  %c0 = arith.constant 0 : i64
  %c9 = arith.constant 9 : i64
  %ci = pto.tci %c5, %c0 : (i64, i64) -> {row}
  %tri = pto.ttri %c0, %c0 : (i64, i64) -> {sq}
  %fp = pto.tfillpad %tri, %c9 : ({sq}, i64) -> {big}""",
                [("ci", row), ("tri", sq), ("fp", big)])  # fmt: skip
    ci, tri, fp = both(text)
    assert ci[0, 0] == 5 and ci[0, 3] == 8
    assert tri.tolist() == [[1, 0], [1, 1]]
    assert fp[0, 0] == 1 and fp[0, 1] == 0 and fp[2, 2] == 9


U16 = "!pto.tile<64x2xui16, valid=2x2>"


@avs("PTO-AVS-TILE-TESTTILEREARRANGEMENT-EXECUTION-001")
def test_rearrangement_sequence():
    """U16 [10 20;30 40]: TEXTRACT at (1, 0) of a 1x2 window is [30 40]; TTRANS puts 30 at
    (0, 1) and 20 at (1, 0); TGATHER with the U32 row index [1 0] reads [30 20]
    (asl/tile/model/execution/rearrangement.asl)."""
    win = "!pto.tile<64x2xui16, valid=1x2>"
    idx = "!pto.tile<32x2xui32, valid=1x2>"
    text = prog([("a", U16), ("i", idx)], f"""
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %w = pto.textract %a, %c1, %c0 : ({U16}, i64, i64) -> {win}
  %t = pto.ttrans %a : ({U16}) -> {U16}
  %g = pto.tgather %a, %i : ({U16}, {idx}) -> {win}""", [("w", win), ("t", U16), ("g", win)])
    w, t, g = both(text, np.array([[10, 20], [30, 40]], np.uint16), np.array([[1, 0]], np.uint32),
                   blocks=False)  # fmt: skip
    assert w.tolist() == [[30, 40]] and t[0, 1] == 30 and t[1, 0] == 20
    assert g.tolist() == [[30, 20]]


@avs("PTO-AVS-TILE-INDEXED-MAP-001")
def test_tgather_row_index_per_column():
    """TGATHER of U16 [10 11;20 21] with the U32 index [1 0] reads source[1, 0] = 20 and
    source[0, 1] = 11: the index selects a row, the column stays (no flattening;
    asl/tile/model/execution/indexed-rearrangement.asl)."""
    idx = "!pto.tile<32x2xui32, valid=1x2>"
    win = "!pto.tile<64x2xui16, valid=1x2>"
    text = prog([("a", U16), ("i", idx)], f"  %g = pto.tgather %a, %i : ({U16}, {idx}) -> {win}",
                [("g", win)])  # fmt: skip
    (g,) = both(text, np.array([[10, 11], [20, 21]], np.uint16), np.array([[1, 0]], np.uint32))
    assert g.tolist() == [[20, 11]]


@avs("PTO-AVS-TILE-TESTTILEREDUCTION-EXECUTION-001")
def test_reduction_sequence():
    """U32 [1 2;4 3]: TROWSUM gives [3;7]; TCOLARGMAX gives [1 1] (row 1 holds both column
    maxima; asl/tile/model/execution/reduction.asl)."""
    sq = "!pto.tile<64x2xui32, valid=2x2>"
    col, row = "!pto.tile<64x1xui32, valid=2x1>", "!pto.tile<32x2xui32, valid=1x2>"
    text = prog([("a", sq)], f"""
  %s = pto.trowsum %a : ({sq}) -> {col}
  %m = pto.tcolargmax %a : ({sq}) -> {row}""", [("s", col), ("m", row)])
    s, m = both(text, np.array([[1, 2], [4, 3]], np.uint32))
    assert s.tolist() == [[3], [7]] and m.tolist() == [[1, 1]]


@avs("PTO-AVS-TILE-TESTTILECOMPLEX-EXECUTION-001",
     unchecked="its TPARTARGMAX and TSORT steps: TPARTARGMAX is not implemented, TSORT is "
               "being added separately")  # fmt: skip
def test_complex_sequence():
    """TPARTADD of U32 [2 4 6] (valid 1x3) and [1 3] (valid 1x2) = [3 7 6]; TMRGSORT of the
    FP32 runs [1 4] and [2 3] = [1 2 3 4]; THISTOGRAM of [0 1 1 3] (byte 0, an all-zero U8
    filter) counts the prefix 1, 3, 3, 4 (asl/tile/model/execution/complex.asl)."""
    full, part = "!pto.tile<64x4xui32, valid=1x3>", "!pto.tile<64x4xui32, valid=1x2>"
    run2 = "!pto.tile<64x2xf32, valid=1x2>"
    run4 = "!pto.tile<32x4xf32, valid=1x4>"
    src = "!pto.tile<64x4xui32, valid=1x4>"
    flt = "!pto.tile<256x1xui8, valid=3x1>"
    hist = "!pto.tile<1x256xui32>"
    text = prog([("a", full), ("b", part), ("l", run2), ("r", run2), ("s", src), ("f", flt)], f"""
  %p = pto.tpartadd %a, %b : ({full}, {part}) -> {full}
  %c0 = arith.constant 0 : i64
  %m = pto.tmrgsort %l, %r, %c0 : ({run2}, {run2}, i64) -> {run4}
  %h = pto.thistogram %s, %f {{byte_id = 0 : i64}} : ({src}, {flt}) -> {hist}""",
                [("p", full), ("m", run4), ("h", hist)])  # fmt: skip
    p, m, h = both(text, np.array([[2, 4, 6]], np.uint32), np.array([[1, 3]], np.uint32),
                   np.float32([[1, 4]]), np.float32([[2, 3]]),
                   np.array([[0, 1, 1, 3]], np.uint32), np.zeros((3, 1), np.uint8))  # fmt: skip
    assert p.tolist() == [[3, 7, 6]] and m.tolist() == [[1, 2, 3, 4]]
    assert h[0, :4].tolist() == [1, 3, 3, 4]


def _verifies(text: str) -> bool:
    """Whether the snippet verifies (a tile type is checked as it is parsed); a failure must
    be a TileLegality diagnostic."""
    try:
        err = verify_error(text)
    except (VerifyException, ParseError) as e:
        err = str(e)
    assert err is None or "[TileLegality]" in err, err
    return err is None


def _indexed(op: str, value: TileDataType, index: TileDataType) -> bool:
    def tile(t: TileDataType) -> str:
        return f"!pto.tile<{128 * 8 // (8 * t.info.carrier_bits)}x8x{t.ir}, valid=2x2>"

    v, i = tile(value), tile(index)
    return _verifies(f'%s = "test.op"() : () -> {v}\n%i = "test.op"() : () -> {i}\n'
                     f"%d = pto.{op} %s, %i : ({v}, {i}) -> {v}")  # fmt: skip


@avs("PTO-AVS-TILE-INDEXED-TYPES-001")
def test_indexed_value_and_index_domains():
    """Non-packed values take an index of any width (asl/tile/model/legality/
    indexed-rearrangement.asl): TGATHER FP32 and U8 values yes, E2M1X2 no; S32, U16, U64
    indices yes; TSCATTER U8 values with S16, U32, S64 indices yes, with an S8 index no."""
    assert _indexed("tgather", T.FP32, T.U32) and _indexed("tgather", T.U8, T.U32)
    assert not _indexed("tgather", T.E2M1X2, T.U32)
    assert all(_indexed("tgather", T.FP32, i) for i in (T.S32, T.U16, T.U64))
    assert all(_indexed("tscatter", T.U8, i) for i in (T.S16, T.U32, T.S64))
    assert not _indexed("tscatter", T.U8, T.S8)


@avs("PTO-AVS-TILE-STAGE4-CARRIER-001")
def test_carrier_logicals_select_and_tf32_preflight():
    """The carrier-only set (asl/tile/model/legality/dtype-layout.asl
    ``TileCarrierOnlyDataTypeSupported``: not four-bit, at most 32 bits) holds HiF8 E3M2 E2M3
    TF32 HF32 FP16 BF16 FP32 S32, not FP64 or U4X2. U32 AND and XOR act on the raw words
    (0x3F800001 & 0x00FF00F0 = 0x00800000; ^ 0xFFFFFFFF = 0xC07FFFFE); TSELS copies the
    FP32 word 0x3F800001 exactly; TRELU of a TF32 word with nonzero low bits is refused
    before any result (TileLegality)."""
    carrier = {t for t in T if t.bits != 4 and t.info.carrier_bits <= 32}
    assert {T.HIF8, T.E3M2, T.E2M3, T.TF32, T.HF32, T.FP16, T.BF16, T.FP32, T.S32} <= carrier
    assert not {T.FP64, T.U4X2} & carrier
    u, f = "!pto.tile<32x1xui32, valid=1x1>", "!pto.tile<32x1xf32, valid=1x1>"
    p = "!pto.pred<32x1, valid=1x1>"
    text = prog([("a", u), ("b", u), ("p", p), ("x", f), ("s", "f32")], f"""
  %and = pto.tand %a, %b : {u}
  %c = arith.constant 4294967295 : i64
  %xor = pto.txors %a, %c : {u}, i64
  %sel = pto.tsels %p, %x, %s : ({p}, {f}, f32) -> {f}""", [("and", u), ("xor", u), ("sel", f)])
    word = np.array([[0x3F800001]], np.uint32)
    a, x, s = both(text, word, np.array([[0x00FF00F0]], np.uint32), np.array([[True]]),
                   word.view(np.float32), np.float32(1.0))  # fmt: skip
    assert (a[0, 0], x[0, 0], s.view(np.uint32)[0, 0]) == (0x00800000, 0xC07FFFFE, 0x3F800001)
    tf = "!pto.tile<32x1xtf32, valid=1x1>"
    relu = prog([("a", tf)], f"  %r = pto.trelu %a : {tf}", [("r", tf)])
    for text in (relu, bundled(relu)):
        with pytest.raises(PTOFault) as e:
            run(text, "f", word.view(np.float32))
        assert e.value.kind == "TileLegality"


@avs("PTO-AVS-TILE-CUBE-GENERIC-001")
def test_cube_descriptor_is_not_a_generic_operand():
    """A 16x16 FP16 cube_m16 tile in mat is a legal CUBE descriptor, but no generic (TEPL)
    operation indexes it: TADD on it is TileLegality (asl/tile/model/legality/
    descriptor-shape.asl, ``TileGenericIndexingPermitted`` is false for CUBE layouts). Our
    tiles are SSA values defined by their producer, so a freshly configured tile whose
    contents are undefined has no counterpart to read."""
    from pto_dialect.geometry import Layout, Storage, geometry_errors

    assert geometry_errors(16, 16, T.FP16, 16, 16, Layout.CUBE_M16, Storage.LOCAL, 512) == []
    c = "!pto.tile<16x16xf16, cube_m16, mat>"
    assert _verifies(f'%a = "test.op"() : () -> {c}')
    assert not _verifies(f'%a = "test.op"() : () -> {c}\n%r = pto.tadd %a, %a : {c}')


@avs("PTO-AVS-TILE-CUBE-LOCATION-003")
def test_cube_layout_needs_matrix_location():
    """A cube_m16 descriptor in vec is refused when it is declared (nothing is allocated: the
    program does not verify); the same descriptor in mat is legal (asl/tile/model/state/
    allocation.asl, ``TileCubeDescriptorLegal``)."""
    for loc, ok in (("vec", False), ("mat", True)):
        assert _verifies(f'%a = "test.op"() : () -> !pto.tile<16x16xf16, cube_m16, {loc}>') == ok


@avs("PTO-AVS-TILE-CUBE-RECONFIGURE-002",
     unchecked="reconfiguring a tile register in place is not modelled (a tile type is fixed "
               "per SSA value): the refusal is checked, the preserved old state is trivial")  # fmt: skip
def test_undersized_n8_descriptor_refused():
    """A 13x19 FP16 cube_n8 tile needs six CELLs (768 B): in a 128 B TSize it is refused
    (TileLegality at verification), so no program holding it runs."""
    from pto_dialect.geometry import Layout, Storage, geometry_errors

    assert geometry_errors(13, 19, T.FP16, 13, 19, Layout.CUBE_N8, Storage.LOCAL, 128)
    assert geometry_errors(16, 24, T.FP16, 13, 19, Layout.CUBE_N8, Storage.LOCAL, 1024) == []
    assert not _verifies('%a = "test.op"() : () -> !pto.tile<16x24xf16, cube_n8, mat, '
                         "valid=13x19, size=128B>")  # fmt: skip


_ROWMAX = """%a = "test.op"() : () -> !pto.tile<2x16xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<16x16xf16, cube_n8, mat>
%r = "test.op"() : () -> !pto.tile<32x1xf32, valid=VRx1>
%d, %m = pto.tmatmul %a, %b, row_max_in %r {fpatr = #pto.fpatr<row_max_en = 1, row_max_init = 1>} : (!pto.tile<2x16xf16, cube_m16, mat>, !pto.tile<16x16xf16, cube_n8, mat>, !pto.tile<32x1xf32, valid=VRx1>) -> (!pto.tile<2x16xf32, cube_m16, mat>, !pto.tile<32x1xf32, valid=2x1>)"""


@avs("PTO-AVS-TILE-MATRIX-ROWMAX-DESC-001")
def test_rowmax_in_is_m_by_1():
    """RowMaxIn of an M = 2 product is a 2x1 FP32 tile in location any; a 1x1 valid extent is
    refused (asl/tile/model/legality/matrix-postprocess.asl
    ``TileMatrixAuxiliarySourceSchemaLegal``)."""
    assert _verifies(_ROWMAX.replace("VR", "2"))
    assert not _verifies(_ROWMAX.replace("VR", "1"))


# ---- legality: data types, capacity ------------------------------------------------------
def _family_op(name: str):
    from pto_dialect.families import TILE_OP_FAMILIES

    return next(op for _, ops in TILE_OP_FAMILIES for op in ops if op.name == f"pto.{name}")


@avs("PTO-AVS-TILE-STAGE4-CARRIER-TYPES-001",
     unchecked="its TIMG2COL, GMOV and TPREFETCH representatives: those operations are not "
               "implemented")  # fmt: skip
def test_family_type_domains():
    """Each family keeps its closed type set (asl/tile/model/legality/dtype-layout.asl): the
    integer logicals take U64/U16/S8 but no float carrier (E3M2, HF32, E2M3, TF32, FP64) or
    U4X2; TSEL/TSELS take FP64 U64 BF16 FP32 but not HiF8; TROWEXPAND U64 not HiF8,
    TCOLEXPAND U32; TEXPANDS S64 not E3M2; TFILLPAD HF32; TEXTRACT BF16; TINSERT E2M3 FP64
    U4X2; TTRANS S32; TLOAD FP32 FP64 U4X2 and TSTORE BF16 FP64 U4X2 decode."""
    from pto_dialect.isa import BlockFamily, BStart, decode, encode

    cases = {"tand": ({T.U64}, {T.E3M2, T.FP64, T.U4X2}), "tor": (set(), {T.HF32}),
             "txor": ({T.U16}, set()), "tands": (set(), {T.E2M3}), "tors": (set(), {T.TF32}),
             "txors": ({T.S8}, set()), "tsel": ({T.FP64, T.U64, T.BF16}, {T.HIF8}),
             "tsels": ({T.FP32}, set()), "trowexpand": ({T.U64}, {T.HIF8}),
             "tcolexpand": ({T.U32}, set()), "texpands": ({T.S64}, {T.E3M2}),
             "tfillpad": ({T.HF32}, set()), "textract": ({T.BF16}, set()),
             "tinsert": ({T.E2M3, T.FP64, T.U4X2}, set()), "ttrans": ({T.S32}, set())}  # fmt: skip
    for name, (yes, no) in cases.items():
        types = _family_op(name).TYPES
        assert yes <= types and not no & types, name
    for op, t in (("TLOAD", T.FP32), ("TLOAD", T.FP64), ("TLOAD", T.U4X2), ("TSTORE", T.BF16),
                  ("TSTORE", T.FP64), ("TSTORE", T.U4X2)):  # fmt: skip
        start = BStart.op(op, t.value)
        assert start.family is BlockFamily.TLSU and decode(encode(start)) == start


@avs("PTO-AVS-TILE-TESTTILECAPACITYLEGALITY-BOUNDARY-001",
     unchecked="the aggregate tile-capacity accounting against the tile_capacity system "
               "register (allocation, release) is not modelled")  # fmt: skip
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
    assert _verifies('%a = "test.op"() : () -> !pto.tile<64x1xui64, valid=1x1>')


# ---- definedness -------------------------------------------------------------------------
def _partly_defined(ttype_text: str, values, defined) -> tuple:
    """A run-time tile of ``ttype_text`` holding ``values`` with only ``defined`` elements of
    its valid rectangle defined (our SSA programs never produce one: each operation defines
    its whole valid rectangle, so the state is built directly)."""
    from xdsl.parser import Parser

    from interpreter.runner import build_context
    from interpreter.runtime import TileValue

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
    from interpreter.runtime import require_source

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


@avs("PTO-AVS-TILE-TESTDECODEDTILELEGALITYFAULTS-FAULT-001",
     unchecked="the trap number and fault address of the trap context are not modelled "
               "(a fault raises PTOFault with its kind)")  # fmt: skip
def test_legality_faults_have_no_effect():
    """TADD with a never-written (or released) source, unsigned TDIV by a tile holding a zero
    and a TMATMUL_BIAS whose bias is 2x3 instead of 1xN are all TileLegality, before any
    result exists (asl/tile/model/legality/operand-schema.asl)."""
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
    bias = """%a = "test.op"() : () -> !pto.tile<2x2xui16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<2x2xui16, cube_n8, mat>
%c = "test.op"() : () -> !pto.tile<32x4xui32, valid=2x3>
%d = pto.tmatmul_bias %a, %b, %c : (!pto.tile<2x2xui16, cube_m16, mat>, !pto.tile<2x2xui16, cube_n8, mat>, !pto.tile<32x4xui32, valid=2x3>) -> !pto.tile<2x2xui32, cube_m16, mat>"""
    assert not _verifies(bias)
    assert _verifies(bias.replace("valid=2x3", "valid=1x2"))


@avs("PTO-AVS-TILE-CUBE-PADDING-001",
     unchecked="a configured-but-unwritten tile is not modelled: the padded valid region "
               "here is loaded (defined); the tail padding and its definedness are checked")  # fmt: skip
def test_cube_tail_padding():
    """A 13x19 FP16 cube_n8 tile (storage 16x24, six CELLs, 768 B) padded with Max: the K tail
    (13, 0), the N tail (0, 19) and the last position (15, 23) hold FP16 Max 0x7BFF and are
    defined; their CUBE payload positions are distinct from the valid ones
    (asl/tile/model/definedness/elements.asl, ``ApplyTilePadding``)."""
    from xdsl.parser import Parser

    from interpreter.runner import build_context
    from interpreter.runtime import TileValue
    from pto_dialect.geometry import Layout, cube_payload_index, cube_storage_shape

    assert cube_storage_shape(Layout.CUBE_N8, T.FP16, 13, 19) == (16, 24)
    ttype = Parser(build_context(), "!pto.tile<16x24xf16, cube_n8, mat, valid=13x19>").parse_type()
    v = TileValue.from_valid(ttype, {0: np.zeros((13, 19), np.float16)}, pad="max")
    pay, dfn = v.payloads[0].view(np.uint16), v.defined[0]
    for r, c in ((13, 0), (0, 19), (15, 23)):
        assert pay[r, c] == 0x7BFF and dfn[r, c]
        assert cube_payload_index(Layout.CUBE_N8, T.FP16, 13, 19, r, c) != \
            cube_payload_index(Layout.CUBE_N8, T.FP16, 13, 19, 0, 0)  # fmt: skip


# ---- CUBE execution and matrix legality ---------------------------------------------------
RAW = {"profile": "raw-carrier"}
"""The ASL reference profile: the migrated suites write raw payload words into float tiles
(FP16 0x0002 is 2) and read raw words back (``interpreter.kernels.cube``)."""


def _f16(rows) -> np.ndarray:
    return np.array(rows, np.uint16).view(np.float16)


def _f32(rows) -> np.ndarray:
    return np.array(rows, np.uint32).view(np.float32)


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
    assert _verifies("""%a = "test.op"() : () -> !pto.tile<3x3xui16, cube_m16, mat>
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


@avs("PTO-AVS-TILE-TESTMATRIXNUMERICCONTRACTLEGALITY-BOUNDARY-001",
     unchecked="its undefined-scale step: a scale tile whose contents are undefined after a "
               "reconfiguration has no SSA counterpart")  # fmt: skip
def test_mx_numeric_contract():
    """TMATMUL_MX of E4M3 x E5M2 (K = 32, every code 1, E8M0 scale codes 1) gives the raw
    FP32 word 32, its ACC form 64 (reference profile); an FP32 1x2 scale instead of E8M0 is
    refused; so is AType FP16 with E4M3 operands (asl/tile/model/legality/matrix-shape.asl)."""
    K = kernels.cube_matrix
    a, b = np.ones((1, 32), np.uint8), np.ones((32, 1), np.uint8)
    s = np.ones((1, 1), np.uint8)
    kw = {"a_scale": s, "b_scale": s, "a_type": "E4M3", "b_type": "E5M2", **RAW}
    d = K("TMATMUL_MX", a, b, **kw)
    assert d.tolist() == [[32]] and K("TMATMUL_MX_ACC", a, b, c=d, **kw).tolist() == [[64]]
    mx = """%a = "test.op"() : () -> !pto.tile<1x32xf8E4M3FN, cube_m16, mat>
%sa = "test.op"() : () -> !pto.tile<SCALE>
%b = "test.op"() : () -> !pto.tile<32x1xf8E5M2, cube_n8, mat>
%sb = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x1>
%d = pto.tmatmul_mx %a, a_scale %sa, %b, b_scale %sb : (!pto.tile<1x32xf8E4M3FN, cube_m16, mat>, !pto.tile<SCALE>, !pto.tile<32x1xf8E5M2, cube_n8, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat>"""
    assert _verifies(mx.replace("SCALE", "1x128xf8E8M0FNU, valid=1x1"))
    assert not _verifies(mx.replace("SCALE", "1x32xf32, valid=1x2"))
    with pytest.raises(PTOFault) as e:
        K("TMATMUL_MX", a, b, a_scale=s, b_scale=s, a_type="FP16", b_type="E5M2", **RAW)
    assert e.value.kind == "TileLegality"


@avs("PTO-AVS-TILE-TESTMATRIXPHYSICALACCUMULATORCLASSES-EXECUTION-001")
def test_accumulator_classes():
    """E4M3 x E4M3 accumulates in FP32 (raw 2 x 3 + bias word 1 = 7, reference profile);
    S8 x S8 gives an S32 tile and U8 x U8 a U32 tile (asl/tile/model/legality/
    matrix-shape.asl)."""
    K = kernels.cube_matrix
    d = K("TMATMUL_BIAS", np.uint8([[2]]), np.uint8([[3]]), bias=_f32([[1]]), a_type="E4M3",
          b_type="E4M3", **RAW)  # fmt: skip
    assert d.tolist() == [[7]]
    assert K("TMATMUL", np.int8([[2]]), np.int8([[3]])).dtype == np.int32
    assert K("TMATMUL", np.uint8([[2]]), np.uint8([[3]])).dtype == np.uint32
    for src, acc in (("si8", "si32"), ("ui8", "ui32")):
        assert _verifies(f"""%a = "test.op"() : () -> !pto.tile<1x1x{src}, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<1x1x{src}, cube_n8, mat>
%d = pto.tmatmul %a, %b : (!pto.tile<1x1x{src}, cube_m16, mat>, !pto.tile<1x1x{src}, cube_n8, mat>) -> !pto.tile<1x1x{acc}, cube_m16, mat>""")


# ---- memory: TLOAD / TSTORE --------------------------------------------------------------
def _load(tile: str, tensor: str, pad: str = "null"):
    """(TLOAD program of ``tensor`` -> ``tile`` at [0, 0], the run-time tile it loads from a
    given array: ``interpreter.pto_functions.tload_plan``, the plan both engines run)."""
    from interpreter.pto_functions import tload_plan
    from interpreter.runner import build_context, parse_module_text
    from pto_dialect.data_movement import TLoadOp

    props = "pe_stride = [0, 0]" + (f", pad = {pad}" if pad != "null" else "")
    text = prog([("m", tensor)], f"""
  %c0 = arith.constant 0 : index
  %t = pto.tload %m[%c0, %c0] {{{props}}} : {tensor} -> {tile}""", [("t", tile)])
    m = parse_module_text(text, ctx=build_context())
    m.verify()
    op = next(o for o in m.walk() if isinstance(o, TLoadOp))
    return text, lambda arr: tload_plan(op)(arr, 0, 0)[0]


N8_13x19 = "!pto.tile<16x24xf16, cube_n8, mat, valid=13x19>"


@avs("PTO-AVS-TILE-TLOAD-CUBE-001")
def test_tload_into_cube_n8():
    """13x19 FP16 words row*32+col+1 at a row pitch of 21 elements (42 B) load into a cube_n8
    tile: (0, 0) = 1, (7, 7) = 232, (8, 0) = 257, (12, 18) = 403, the whole valid region
    defined; in the CUBE payload those are positions 0, 63, 64 (the second K CELL) and 340
    (asl/tile/model/memory/load-store.asl)."""
    from pto_dialect.geometry import Layout, cube_payload_index

    words = np.array([[r * 32 + c + 1 for c in range(21)] for r in range(13)], np.uint16)
    text, load = _load(N8_13x19, "tensor<13x21xf16>")
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
    _, load = _load(u4, "tensor<2x9xi4>")
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

    row = unpack_x2(np.uint8([0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE]))
    assert row.tolist() == list(range(16))
    _, load = _load("!pto.tile<2x16xui4, cube_m16, mat>", "tensor<2x16xi4>")
    t = load(np.stack([row, row]).astype(np.uint8)).payloads[0]
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
        _, load = _load("!pto.tile<8x8xf16, cube_n8, mat, valid=2x3>", "tensor<2x3xf16>", pad)
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


# ---- dispatch: every handler ----------------------------------------------------------
P2 = "!pto.pred<16x2, valid=2x2>"


@avs("PTO-AVS-TILE-TESTTILEHANDLERCLOSURE-BOUNDARY-001",
     unchecked="its TMOV step: TMOV is being added separately")  # fmt: skip
def test_every_handler_runs():
    """One step per handler on U64 A = [1 4;3 2], B = [2 3;3 4]: TNEG A (0, 0) = 2^64-1;
    TADDS 5 (0, 1) = 9; TCMP lt [T F ..]; TCMPS ge 3 [F T ..]; TSEL by it [2 4 ..]; TSELS
    with 9 [9 4 ..]; TINSERT [7 8] at row 1 of a zero tile; TSCATTER U16 [7 8] by rows
    [1 3] into a 4x2 tile; TCONCAT [7 8 | 7 8]; the CUBE handlers (reference profile):
    TMATMUL_MX FP16 raw [1 2;3 4] x [5 6;7 8] (0, 0) = 19, TGEMV_BIAS [1 2] x [2;3] + 1 = 9,
    TGEMV_ACC 9 + 8 = 17, TGEMV_MX 8 (asl/tile/model/dispatch/top-level.asl)."""
    row = "!pto.tile<16x2xui64, valid=1x2>"
    row4 = "!pto.tile<8x4xui64, valid=1x4>"
    text = prog([("a", U64), ("b", U64), ("w", row)], f"""
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %c5 = arith.constant 5 : i64
  %c9 = arith.constant 9 : i64
  %neg = pto.tneg %a : {U64}
  %adds = pto.tadds %a, %c5 : {U64}, i64
  %lt = pto.tcmp %a, %b {{cmode = #pto.cmode<lt>}} : ({U64}, {U64}) -> {P2}
  %ge = pto.tcmps %a, %c3 {{cmode = #pto.cmode<ge>}} : ({U64}, i64) -> {P2}
  %sel = pto.tsel %ge, %a, %b : ({P2}, {U64}, {U64}) -> {U64}
  %sels = pto.tsels %ge, %a, %c9 : ({P2}, {U64}, i64) -> {U64}
  %cat = pto.tconcat %w, %w : ({row}, {row}) -> {row4}""",
                [("neg", U64), ("adds", U64), ("lt", P2), ("ge", P2), ("sel", U64),
                 ("sels", U64), ("cat", row4)])  # fmt: skip
    neg, adds, lt, ge, sel, sels, cat = both(text, u64([[1, 4], [3, 2]]), u64([[2, 3], [3, 4]]),
                                             u64([[7, 8]]))  # fmt: skip
    assert neg[0, 0] == 2**64 - 1 and adds[0, 1] == 9
    assert lt[0].tolist() == [True, False] and ge[0].tolist() == [False, True]
    assert sel[0].tolist() == [2, 4] and sels[0].tolist() == [9, 4]
    assert cat[0, 0] == 7 and cat[0, 3] == 8
    (ins,) = both(prog([("w", row)], f"""
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %z = pto.texpands %c0 : {U64}, i64
  %ins = pto.tinsert %z, %w, %c1, %c0 : ({U64}, {row}, i64, i64) -> {U64}""", [("ins", U64)]),
                  u64([[7, 8]]), blocks=False)  # fmt: skip
    assert ins.tolist() == [[0, 0], [7, 8]]
    src, idx = "!pto.tile<64x2xui16, valid=1x2>", "!pto.tile<64x2xui16, valid=1x2>"
    dst = "!pto.tile<64x2xui16, valid=4x2>"
    (sc,) = both(prog([("s", src), ("i", idx)], f"  %d = pto.tscatter %s, %i : ({src}, {idx}) -> {dst}",
                      [("d", dst)]), np.uint16([[7, 8]]), np.uint16([[1, 3]]))  # fmt: skip
    assert sc[1, 0] == 7 and sc[3, 1] == 8
    K = kernels.cube_matrix
    assert K("TMATMUL_MX", _f16([[1, 2], [3, 4]]), _f16([[5, 6], [7, 8]]), **RAW)[0, 0] == 19
    a, b, bias = _f16([[1, 2]]), _f16([[2], [3]]), _f32([[1]])
    d = K("TGEMV_BIAS", a, b, bias=bias, **RAW)
    assert d.tolist() == [[9]] and K("TGEMV_ACC", a, b, c=d, **RAW).tolist() == [[17]]
    assert K("TGEMV_MX", a, b, **RAW).tolist() == [[8]]


@avs("PTO-AVS-TILE-TESTDECODEDTILEEXECUTION-EXECUTION-001")
def test_decoded_execution_per_engine():
    """Decoded blocks of each engine: TEPL TADD U64 [2 0;0 5] + [7 0;0 11] = 9 .. 16; TLSU
    TLOAD of 21..24 at a 16-byte (two U64) row stride; CUBE TMATMUL S16 [1 2;3 4] x
    [5 6;7 8] = S32 19 .. 50. CUBE function 8 (a deleted conversion) and the all-ones TEPL
    selector 3/31 are IllegalInstruction when decoded (asl/tile/model/dispatch/
    top-level.asl)."""
    from pto_dialect.isa import BlockFamily, BStart, decode, encode

    m = "tensor<2x2xi64>"
    at, bt = "!pto.tile<2x2xsi16, cube_m16, mat>", "!pto.tile<2x2xsi16, cube_n8, mat>"
    dt = "!pto.tile<2x2xsi32, cube_m16, mat>"
    text = prog([("a", U64), ("b", U64), ("m", m), ("x", at), ("y", bt)], f"""
  %c0 = arith.constant 0 : index
  %s = pto.tadd %a, %b : {U64}
  %t = pto.tload %m[%c0, %c0] {{pe_stride = [0, 0]}} : {m} -> {U64}
  %d = pto.tmatmul %x, %y : ({at}, {bt}) -> {dt}""", [("s", U64), ("t", U64), ("d", dt)])
    s, t, d = both(text, u64([[2, 0], [0, 5]]), u64([[7, 0], [0, 11]]),
                   np.array([[21, 22], [23, 24]], np.int64), np.int16([[1, 2], [3, 4]]),
                   np.int16([[5, 6], [7, 8]]))  # fmt: skip
    assert (s[0, 0], s[1, 1], t[0, 0], t[1, 1]) == (9, 16, 21, 24)
    assert d.dtype == np.int32 and (d[0, 0], d[1, 1]) == (19, 50)
    for start in (BStart(BlockFamily.CUBE, 8, T.S16.value), BStart(BlockFamily.TEPL, 31, 0, 3)):
        with pytest.raises(PTOFault) as e:
            decode(encode(start), strict=True)
        assert e.value.kind == "IllegalInstruction"


# ---- numeric formats: conversion -------------------------------------------------------
def _tcvt(src: str, dst: str, values, attrs: str = "") -> list:
    s, d = f"!pto.tile<128x2x{src}, valid=1x2>", f"!pto.tile<128x2x{dst}, valid=1x2>"
    (r,) = both(prog([("a", s)], f"  %r = pto.tcvt %a{attrs} : ({s}) -> {d}", [("r", d)]),
                values)  # fmt: skip
    return r[0].tolist()


@avs("PTO-AVS-TILE-TESTTILECONVERSION-EXECUTION-001", unchecked=FLAGS)
def test_integer_conversions_and_default_control():
    """Integer TCVT reads the source's signedness, then truncates or extends: S8 0x80 -> S16
    -128, U8 0xFF -> U16 255, S16 0x01FF -> U8 0xFF, U16 0xFFFF -> S8 -1, S64 -1 -> U8 0xFF,
    U64 257 -> U8 1 (wraps); FP32 -> U32 defaults to RTZ without saturation (2.7 -> 2), an
    explicit RNA + Sat rounds 2.5 to 3; TQUANT of [1.0 2.0] with scale 1.0 and offset 0 gives
    U8 [1 2] and TDEQUANT returns [1.0 2.0] (asl/tile/model/numeric/formats.asl)."""
    assert _tcvt("si8", "si16", np.int8([[-128, 127]])) == [-128, 127]
    assert _tcvt("ui8", "ui16", np.uint8([[255, 1]])) == [255, 1]
    assert _tcvt("si16", "ui8", np.int16([[0x1FF, 1]])) == [0xFF, 1]
    assert _tcvt("ui16", "si8", np.uint16([[0xFFFF, 1]])) == [-1, 1]
    assert _tcvt("si64", "ui8", np.int64([[-1, 1]])) == [0xFF, 1]
    assert _tcvt("ui64", "ui8", np.uint64([[257, 100]])) == [1, 100]
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
        assert _verifies(f'%a = "test.op"() : () -> {t}'), t
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


@avs("PTO-AVS-TILE-PACKED-CAPACITY-BOUNDARY-001",
     unchecked="its Shared (B.IOS) TLOAD path and the DataPage probes: Shared data movement "
               "and a page model are not modelled")  # fmt: skip
def test_local_packed_tload_at_the_largest_size_code():
    """A TLOAD of a 16384x8 U4 tile forms a block with SizeCode 10 (64 KiB) and loads all
    131072 nibbles: the element at row 4096 (logical position 32768, past any 32768-word bound) and
    the last one (131071) are defined zeros (asl/tile/model/definedness/packed-boundary.asl)."""
    from pto_dialect.geometry import Layout, linear_index

    tt, m = "!pto.tile<16384x8xui4, size=64KB>", "tensor<16384x8xi4>"
    text, load = _load(tt, m)
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
}  # fmt: skip
"""The unit of ours that models each ASL unit ("the unit compiles": it imports)."""


@avs_cases(MODEL_UNITS)
def test_model_unit(avs_id, case):
    assert unit_object(case) is not None


@avs("PTO-AVS-TILE-TESTTILESELECTORCLOSUREEXTENSIONS-BOUNDARY-001",
     unchecked="its MGATHER_MASK, MSCATTER_MASK and MGATHER_CAS steps: indexed memory "
               "operations are not implemented")  # fmt: skip
def test_mx_bias_and_acc_selectors():
    """The MX BIAS and ACC selectors (reference profile, FP16 raw words, no scales needed):
    TMATMUL_MX_BIAS [1 2;3 4] x [5 6;7 8] + bias 2 gives 21 at (0, 0), TMATMUL_MX_ACC onto it
    40; TGEMV_MX_BIAS 2 x 3 + 5 = 11, TGEMV_MX_ACC onto it 17 (asl/tile/model/dispatch/
    top-level.asl)."""
    K = kernels.cube_matrix
    a, b = _f16([[1, 2], [3, 4]]), _f16([[5, 6], [7, 8]])
    d = K("TMATMUL_MX_BIAS", a, b, bias=_f32([[2, 2]]), **RAW)
    assert d[0, 0] == 21 and K("TMATMUL_MX_ACC", a, b, c=d, **RAW)[0, 0] == 40
    g = K("TGEMV_MX_BIAS", _f16([[2]]), _f16([[3]]), bias=_f32([[5]]), **RAW)
    assert g.tolist() == [[11]]
    assert K("TGEMV_MX_ACC", _f16([[2]]), _f16([[3]]), c=g, **RAW).tolist() == [[17]]


# ---- dispatch: VEC / SFU boundaries --------------------------------------------------------
@avs("PTO-AVS-TILE-VEC-SFU-RESERVED-BOUND-002")
def test_reserved_tepl_selectors_are_refused():
    """Of the 128 TEPL selectors (Mode:Function), the 41 that name no operation are
    IllegalInstruction when decoded, before any block state exists (so nothing changes); the
    other 87 decode (asl/tile/model/dispatch/top-level.asl)."""
    from pto_dialect.isa import BlockFamily, BStart, decode, encode
    from pto_dialect.isa.commands import TEPL_OPS

    refused = 0
    for sel in range(128):
        start = BStart(BlockFamily.TEPL, sel & 31, T.U64.value, sel >> 5)
        if (sel >> 5, sel & 31) in TEPL_OPS:
            assert decode(encode(start), strict=True) == start
            continue
        with pytest.raises(PTOFault) as e:
            decode(encode(start), strict=True)
        assert e.value.kind == "IllegalInstruction"
        refused += 1
    assert refused == 41


@avs("PTO-AVS-TILE-VEC-SFU-RESULTS-BOUND-005",
     unchecked="its TSORT permutation step: TSORT is being added separately")  # fmt: skip
def test_merge_duplicates_and_tfma_result():
    """TMRGSORT keeps equal keys left first: ascending [1 2 2] + [2 3] = [1 2 2 2 3],
    descending [3 2 2] + [2 1] = [3 2 2 2 1], as tile programs and decoded blocks; U64 TFMA
    2 x 3 + 5 = 11 (asl/tile/model/dispatch/top-level.asl)."""
    left, right = "!pto.tile<32x4xf32, valid=1x3>", "!pto.tile<32x4xf32, valid=1x2>"
    out = "!pto.tile<16x8xf32, valid=1x5>"
    text = prog([("l", left), ("r", right), ("o", "i64")],
                f"  %m = pto.tmrgsort %l, %r, %o : ({left}, {right}, i64) -> {out}",
                [("m", out)])  # fmt: skip
    (up,) = both(text, np.float32([[1, 2, 2]]), np.float32([[2, 3]]), 0)
    (down,) = both(text, np.float32([[3, 2, 2]]), np.float32([[2, 1]]), 1)
    assert up.tolist() == [[1, 2, 2, 2, 3]] and down.tolist() == [[3, 2, 2, 2, 1]]
    one = "!pto.tile<16x1xui64, valid=1x1>"
    (f,) = both(prog([("a", one), ("b", one), ("c", one)],
                     f"  %r = pto.tfma %a, %b, %c : {one}", [("r", one)]),
                u64([[2]]), u64([[3]]), u64([[5]]))  # fmt: skip
    assert f.tolist() == [[11]]


@avs("PTO-AVS-TILE-VEC-SFU-INDEX-CORNERS-BOUND-004",
     unchecked="its TSORT step: TSORT is being added separately")  # fmt: skip
def test_index_corners_have_no_effect():
    """TSCATTER of U16 [11 12] by the zero index [0 0] fills row 0 and leaves row 1 typed zero;
    a row index 4 into a 2-row source (TGATHER) or destination (TSCATTER) is TileLegality
    with no result (asl/tile/model/dispatch/top-level.asl)."""
    src, dst = "!pto.tile<64x2xui16, valid=1x2>", "!pto.tile<64x2xui16, valid=2x2>"
    (d,) = both(prog([("s", src), ("i", src)], f"  %d = pto.tscatter %s, %i : ({src}, {src}) -> {dst}",
                     [("d", dst)]), np.uint16([[11, 12]]), np.uint16([[0, 0]]))  # fmt: skip
    assert d.tolist() == [[11, 12], [0, 0]]
    idx = "!pto.tile<32x2xui32, valid=1x2>"
    gather = prog([("s", dst), ("i", idx)], f"  %d = pto.tgather %s, %i : ({dst}, {idx}) -> {src}",
                  [("d", src)])  # fmt: skip
    w, i = "!pto.tile<8x2xui64, valid=1x2>", "!pto.tile<8x2xui64, valid=2x2>"
    scatter = prog([("s", w), ("i", w)], f"  %d = pto.tscatter %s, %i : ({w}, {w}) -> {i}",
                   [("d", i)])  # fmt: skip
    for text, args in ((gather, (np.uint16([[11, 12], [13, 14]]), np.uint32([[4, 0]]))),
                       (scatter, (u64([[11, 12]]), u64([[4, 0]])))):  # fmt: skip
        for t in (text, bundled(text)):
            with pytest.raises(PTOFault) as e:
                run(t, "f", *args)
            assert e.value.kind == "TileLegality"


@avs("PTO-AVS-TILE-VEC-SFU-LAYOUT-ALIAS-BOUND-003")
def test_raw_carriers_layouts_and_preserved_region():
    """Every architectural TileDataType is a regular TLSU (raw carrier) type and a TCVT type;
    a TADD source in the ImplementationDefined layout is refused (TileLegality); TINSERT of
    [11] at (1, 1) into [41 42;43 44] -- the destination's old contents are its ``old``
    operand -- keeps 41 and writes 11 (asl/tile/model/dispatch/top-level.asl)."""
    from pto_dialect.isa import BStart, decode, encode

    for t in T:
        start = BStart.op("TLOAD", t.value)
        assert decode(encode(start), strict=True) == start, t
    assert set(T) <= _family_op("tcvt").TYPES
    impl = "!pto.tile<16x1xui64, impl_defined>"
    assert not _verifies(f'%a = "test.op"() : () -> {impl}\n%r = pto.tadd %a, %a : {impl}')
    one = "!pto.tile<16x1xui64, valid=1x1>"
    (d,) = both(prog([("o", U64), ("s", one)], f"""
  %c1 = arith.constant 1 : i64
  %d = pto.tinsert %o, %s, %c1, %c1 : ({U64}, {one}, i64, i64) -> {U64}""", [("d", U64)]),
                u64([[41, 42], [43, 44]]), u64([[11]]), blocks=False)  # fmt: skip
    assert d.tolist() == [[41, 42], [43, 11]]


# ---- CUBE boundaries -------------------------------------------------------------------
def _cube_unit(fn) -> int:
    """The totality vectors (A = 2, B = 3, C = 5, Bias = 7, scales 1; reference profile)."""
    K = kernels.cube_matrix
    one = np.ones((1, 1), np.uint8)
    kw = dict(RAW)
    if fn.is_mx:
        kw |= {"a_type": "E4M3", "b_type": "E4M3", "a_scale": one, "b_scale": one}
        a, b = np.uint8([[2]]), np.uint8([[3]])
        acc = _f32
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
    assert not _verifies("""%a = "test.op"() : () -> !pto.tile<16x1xui16, impl_defined>
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
    assert not _verifies(f"""%a = "test.op"() : () -> {a}
%d = pto.tmatmul %a, %a : ({a}, {a}) -> !pto.tile<1x1xui32, cube_m16, mat>""")
    ok_c, d = "!pto.tile<1x1xui32, cube_m16, mat>", "!pto.tile<1x1xui32, cube_m16, mat>"
    assert _verifies(_ACC.replace("CT", ok_c).replace("DT", d))
    assert not _verifies(_ACC.replace("CT", "!pto.tile<32x1xui32, mat, valid=2x1>").replace("DT", d))
    assert not _verifies(_ACC.replace("CT", ok_c).replace("DT", "!pto.tile<1x1xsi32, cube_m16, mat>"))
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


# ---- TLSU selectors and four-bit memory types ------------------------------------------
_ELEMENTWISE_GM = ("GM is element-typed tensors here (one element per tensor element): "
                   "byte-level memory events and the read-modify-write of a half-written "
                   "packed byte are not modelled")  # fmt: skip


@avs("PTO-AVS-TILE-TLSU-DECODE-BOUND-004",
     unchecked="executing TMOV, TPREFETCH, MGATHER*, MSCATTER* and GMOV (not implemented); "
               + _ELEMENTWISE_GM)  # fmt: skip
def test_tlsu_selector_closure():
    """TLSU functions 0-8 and 13 decode to TLOAD, TSTORE, TMOV, TPREFETCH, MGATHER, MSCATTER,
    MGATHER_MASK, MSCATTER_MASK, MGATHER_CAS and GMOV; TLOAD and TSTORE execute: the U4
    element 2 (the low nibble of a GM byte 0xA2) loads and a 3 stores back as the low nibble
    (asl/tile/model/memory/load-store.asl)."""
    from pto_dialect.isa import BlockFamily, BStart, decode, encode
    from pto_dialect.isa.commands import TLSU_FUNCTIONS
    from pto_dialect.mx_quant import pack_x2, unpack_x2

    names = ["TLOAD", "TSTORE", "TMOV", "TPREFETCH", "MGATHER", "MSCATTER", "MGATHER_MASK",
             "MSCATTER_MASK", "MGATHER_CAS"]  # fmt: skip
    for code, name in [*enumerate(names), (13, "GMOV")]:
        assert TLSU_FUNCTIONS[code].name == name
        start = BStart(BlockFamily.TLSU, code, T.U4X2.value)
        assert decode(encode(start), strict=True) == start
    nibbles = unpack_x2(np.uint8([0xA2]))
    _, load = _load("!pto.tile<256x1xui4, valid=1x1>", "tensor<1x1xi4>")
    assert load(nibbles[:1].reshape(1, 1)).payloads[0][0, 0] == 2
    assert pack_x2(np.uint8([3, nibbles[1]])).tolist() == [0xA3]


@avs("PTO-AVS-TILE-TLSU-DIRECT-BOUND-001",
     unchecked="its TMOV, GMOV and TPREFETCH steps (not implemented); " + _ELEMENTWISE_GM)
def test_four_bit_direct_loads():
    """Every four-bit type (E2M1X2, E1M2X2, HiF4X2, S4X2, U4X2) is a TLOAD / TSTORE data type;
    packed GM bytes hold two elements low nibble first: bytes 0xBA 0xC5 load as U4 [A B 5],
    [1 2 3] stores as 0x21 and a low nibble 3; a 2x2 U4 tile at a 4-byte row stride reads
    bytes 0x21 and 0x43 as [1 2;3 4] (asl/tile/model/memory/load-store.asl)."""
    from pto_dialect.isa import BStart, decode, encode
    from pto_dialect.mx_quant import pack_x2, unpack_x2

    for t in (T.E2M1X2, T.E1M2X2, T.HIF4X2, T.S4X2, T.U4X2):
        for op in ("TLOAD", "TSTORE"):
            start = BStart.op(op, t.value)
            assert decode(encode(start), strict=True) == start
    gm = unpack_x2(np.uint8([0xBA, 0xC5]))
    _, load = _load("!pto.tile<64x4xui4, valid=1x3>", "tensor<1x3xi4>")
    assert load(gm[:3].reshape(1, 3)).payloads[0][0, :3].tolist() == [0xA, 0xB, 0x5]
    assert pack_x2(np.uint8([1, 2, 3, 0])).tolist() == [0x21, 0x03]
    rows = np.stack([unpack_x2(np.uint8([0x21, 0xEE])), unpack_x2(np.uint8([0x43, 0]))])
    _, load2 = _load("!pto.tile<64x4xui4, valid=2x2>", "tensor<2x4xi4>")
    assert load2(rows).payloads[0][:2, :2].tolist() == [[1, 2], [3, 4]]


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


@avs("PTO-AVS-TILE-POSTPROCESS-ROLLBACK-003",
     unchecked="the numeric status flags it also keeps unchanged: " + FLAGS)  # fmt: skip
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
