"""Tile-model AVS pass conditions of execution and dispatch (tests/asl/tile/model/execution,
tests/asl/tile/model/dispatch; D17) through our public API: multi-op programs run with
``interpreter.run`` at tile level and as decoded blocks (``pto-form-blocks``), the ``pto``
verifier and the ISA decoder.

The migrated ASL suites (``Test...`` functions) configure numbered tiles and run a sequence of
instructions on them; ours writes the same sequence as one SSA program whose tile values are
the configured tiles, and asserts the same element values. A later ASL step that reconfigures
a tile index is a fresh SSA value here.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs
from conformance.model_support import (
    RAW,
    U64,
    both,
    f16,
    f32,
    family_op,
    prog,
    u64,
    verifies,
)
from conformance.support import bundled
from interpreter import kernels, run
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault

T = TileDataType


def _tsort(values, width: int = 32, descending: int = 0) -> tuple[list, list]:
    """TSORT of one FP32 row (tile level and decoded block): (sorted values, U32 indices)."""
    t, i = "!pto.tile<32x4xf32, valid=1x4>", "!pto.tile<32x4xui32, valid=1x4>"
    d, x = both(prog([("s", t), ("o", "i64")], f"""
  %d, %x = pto.tsort %s, %o {{sort_width = {width} : i64}} : ({t}, i64) -> ({t}, {i})""",
                     [("d", t), ("x", i)]), np.float32([values]), descending)  # fmt: skip
    return d[0].tolist(), x[0].tolist()


# ---- execution: elementwise, expansion, generation, rearrangement, reduction -----------------
def test_elementwise_sequence():
    """The SSA and decoded-block form of ``TestTileElementwiseAndAliasing`` (whose AVS id,
    a destination naming its source tile, test_avs_alias.py claims at register level): U64 ADD [1 2;3 4] + [10 20;30 40] = [11 22;33 44]; ADD again (the ASL writes it over
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
     unchecked="its ExecuteTilePartialArg step (TPARTARGMAX): a deleted name of the catalog "
               "(spec/catalog/tile-operations.json), so no instruction reaches it")
def test_complex_sequence():
    """TPARTADD of U32 [2 4 6] (valid 1x3) and [1 3] (valid 1x2) = [3 7 6]; TMRGSORT of the
    FP32 runs [1 4] and [2 3] = [1 2 3 4]; THISTOGRAM of [0 1 1 3] (byte 0, an all-zero U8
    filter) counts the prefix 1, 3, 3, 4; TSORT of [4 1 3 2] gives [1 2 3 4] with the indices
    [1 3 2 0] (asl/tile/model/execution/complex.asl)."""
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
    assert _tsort([4, 1, 3, 2]) == ([1, 2, 3, 4], [1, 3, 2, 0])  # TSORT with indices


def _indexed(op: str, value: TileDataType, index: TileDataType) -> bool:
    def tile(t: TileDataType) -> str:
        return f"!pto.tile<{128 * 8 // (8 * t.info.carrier_bits)}x8x{t.ir}, valid=2x2>"

    v, i = tile(value), tile(index)
    return verifies(f'%s = "test.op"() : () -> {v}\n%i = "test.op"() : () -> {i}\n'
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


# ---- dispatch: every handler ----------------------------------------------------------
P2 = "!pto.pred<16x2, valid=2x2>"


@avs("PTO-AVS-TILE-TESTTILEHANDLERCLOSURE-BOUNDARY-001")
def test_every_handler_runs():
    """One step per handler on U64 A = [1 4;3 2], B = [2 3;3 4]: TNEG A (0, 0) = 2^64-1;
    TADDS 5 (0, 1) = 9; TCMP lt [T F ..]; TCMPS ge 3 [F T ..]; TSEL by it [2 4 ..]; TSELS
    with 9 [9 4 ..]; TINSERT [7 8] at row 1 of a zero tile; TSCATTER U16 [7 8] by rows
    [1 3] into a 4x2 tile; TCONCAT [7 8 | 7 8]; TMOV; the CUBE handlers (reference profile):
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
    (mov,) = both(prog([("a", U64)], f"  %m = pto.tmov %a : ({U64}) -> {U64}", [("m", U64)]),
                  ins)  # TMOV copies the inserted tile: (1, 1) = 8
    assert mov[1, 1] == 8
    src, idx = "!pto.tile<64x2xui16, valid=1x2>", "!pto.tile<64x2xui16, valid=1x2>"
    dst = "!pto.tile<64x2xui16, valid=4x2>"
    (sc,) = both(prog([("s", src), ("i", idx)], f"  %d = pto.tscatter %s, %i : ({src}, {idx}) -> {dst}",
                      [("d", dst)]), np.uint16([[7, 8]]), np.uint16([[1, 3]]))  # fmt: skip
    assert sc[1, 0] == 7 and sc[3, 1] == 8
    K = kernels.cube_matrix
    assert K("TMATMUL_MX", f16([[1, 2], [3, 4]]), f16([[5, 6], [7, 8]]), **RAW)[0, 0] == 19
    a, b, bias = f16([[1, 2]]), f16([[2], [3]]), f32([[1]])
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


@avs("PTO-AVS-TILE-VEC-SFU-RESULTS-BOUND-005")
def test_merge_duplicates_and_tfma_result():
    """TMRGSORT keeps equal keys left first: ascending [1 2 2] + [2 3] = [1 2 2 2 3],
    descending [3 2 2] + [2 1] = [3 2 2 2 1], as tile programs and decoded blocks; U64 TFMA
    2 x 3 + 5 = 11; TSORT [4 1 3 2] -> [1 2 3 4], indices [1 3 2 0]
    (asl/tile/model/dispatch/top-level.asl)."""
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
    assert _tsort([4, 1, 3, 2]) == ([1, 2, 3, 4], [1, 3, 2, 0])


@avs("PTO-AVS-TILE-VEC-SFU-INDEX-CORNERS-BOUND-004")
def test_index_corners_have_no_effect():
    """TSCATTER of U16 [11 12] by the zero index [0 0] fills row 0 and leaves row 1 typed zero;
    a row index 4 into a 2-row source (TGATHER) or destination (TSCATTER) is TileLegality
    with no result; TSORT of [4 1 3 2] in descending groups of 2 leaves it as it is
    (asl/tile/model/dispatch/top-level.asl)."""
    src, dst = "!pto.tile<64x2xui16, valid=1x2>", "!pto.tile<64x2xui16, valid=2x2>"
    (d,) = both(prog([("s", src), ("i", src)], f"  %d = pto.tscatter %s, %i : ({src}, {src}) -> {dst}",
                     [("d", dst)]), np.uint16([[11, 12]]), np.uint16([[0, 0]]))  # fmt: skip
    assert d.tolist() == [[11, 12], [0, 0]]
    # TSORT in groups of 2, descending: [4 1 | 3 2] is already in order
    assert _tsort([4, 1, 3, 2], width=2, descending=1) == ([4, 1, 3, 2], [0, 1, 0, 1])
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
    operand; at register level the destination names that source tile -- keeps 41 and
    writes 11 (asl/tile/model/dispatch/top-level.asl)."""
    from pto_dialect.isa import BStart, decode, encode

    for t in T:
        start = BStart.op("TLOAD", t.value)
        assert decode(encode(start), strict=True) == start, t
    assert set(T) <= family_op("tcvt").TYPES
    impl = "!pto.tile<16x1xui64, impl_defined>"
    assert not verifies(f'%a = "test.op"() : () -> {impl}\n%r = pto.tadd %a, %a : {impl}')
    one = "!pto.tile<16x1xui64, valid=1x1>"
    (d,) = both(prog([("o", U64), ("s", one)], f"""
  %c1 = arith.constant 1 : i64
  %d = pto.tinsert %o, %s, %c1, %c1 : ({U64}, {one}, i64, i64) -> {U64}""", [("d", U64)]),
                u64([[41, 42], [43, 44]]), u64([[11]]), blocks=False)  # fmt: skip
    assert d.tolist() == [[41, 42], [43, 11]]
    # the ASL step itself: destination0 = source0 = tile 0 (interpreter.machine.tile_registers)
    from xdsl.parser import Parser

    from interpreter.machine.tile_registers import Scalar, TileRegisters
    from interpreter.ssa.runner import build_context

    regs = TileRegisters()
    for i, (t, v) in enumerate([(U64, [[41, 42], [43, 44]]), (one, [[11]])]):
        regs.configure(i, Parser(build_context(), t).parse_type(), u64(v))
    regs.execute("pto.tinsert", 0, [0, 1], [Scalar(1), Scalar(1)])
    assert regs.read(0)[0].tolist() == [[41, 42], [43, 11]] and regs.read(1)[0].tolist() == [[11]]
