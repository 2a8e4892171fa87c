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

from conformance.inventory import ALIAS, FLAGS, avs
from conformance.support import bundled, run_both_levels, verify_error
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
    from pto_dialect.geometry import Layout, Storage, code_of_size, geometry_errors, is_pow2
    from pto_dialect.geometry import size_of_code

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
