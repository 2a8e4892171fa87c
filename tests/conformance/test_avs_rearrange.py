"""AVS pass conditions of TGATHER, TSCATTER and TFILLPAD (tests/asl/tile/irregular-and-complex/
layout/**, tests/asl/tile/layout-and-rearrangement/initialization/TFILLPAD/**; D17), asserted
through our verifier, kernels and ``interpreter.run`` (tile level and decoded blocks)."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs
from interpreter import run
from interpreter.ssa.runner import build_context, parse_module_text
from passes import get_all_passes
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.tile_rearrange import INDEX_TYPES, INDEXED_OPS

T = TileDataType
TGATHER, TSCATTER = INDEXED_OPS


def _program(name: str, ins: list[str], res: str) -> str:
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(ins))
    ops = ", ".join(f"%a{i}" for i in range(len(ins)))
    return (f"func.func @f({args}) -> {res} {{\n  %r = {name} {ops} : ({', '.join(ins)}) -> "
            f"{res}\n  func.return %r : {res}\n}}")  # fmt: skip


def _decoded(text: str):
    """The program with its tile op formed into a linked, register-assigned block."""
    ctx = build_context()
    m = parse_module_text(text, ctx=ctx)
    for name in ("pto-form-blocks", "pto-assign-registers"):
        get_all_passes()[name]()().apply(ctx, m)
    m.verify()
    assert "pto.block" in str(m)
    return m


@avs("PTO-AVS-TILE-TGATHER-ROWS-001")
def test_tgather_selects_rows_per_column():
    # 3x2 U16 source src[r,c] = 10r + c, 2x2 U32 index [[2,0],[1,2]] -> [[20,1],[10,21]]
    text = _program("pto.tgather", ["!pto.tile<32x2xui16, valid=3x2>",
                                    "!pto.tile<16x2xui32, valid=2x2>"],
                    "!pto.tile<32x2xui16, valid=2x2>")  # fmt: skip
    src = np.array([[10 * r + c for c in range(2)] for r in range(3)], np.uint16)
    idx = np.array([[2, 0], [1, 2]], np.uint32)
    (d,) = run(text, "f", src, idx)
    assert d[0].tolist() == [[20, 1], [10, 21]]


@avs("PTO-AVS-TILE-TGATHER-NEGATIVE-001")
def test_tgather_negative_signed_index_faults():
    text = _program("pto.tgather", ["!pto.tile<64x1xui16, valid=2x1>",
                                    "!pto.tile<32x1xsi32, valid=1x1>"],
                    "!pto.tile<64x1xui16, valid=1x1>")  # fmt: skip
    with pytest.raises(PTOFault) as e:  # S32 0xFFFFFFFF is minus one: no result at all
        run(text, "f", np.array([[7], [8]], np.uint16), np.array([[-1]], np.int32))
    assert e.value.kind == "TileLegality" and "negative" in e.value.message


def _verifies(op, value: TileDataType, index: TileDataType) -> bool:
    def tile(t: TileDataType) -> str:  # 128 B, 8 columns, valid 2x2
        return f"!pto.tile<{128 // t.info.carrier_bits}x8x{t.ir}, valid=2x2>"

    src, idx = tile(value), tile(index)
    return _verifies_text(f"""
%s = "test.op"() : () -> {src}
%i = "test.op"() : () -> {idx}
%d = {op.name} %s, %i : ({src}, {idx}) -> {src}""")


def _verifies_text(text: str) -> bool:
    """Whether the snippet verifies; a failure must be a TileLegality diagnostic."""
    try:
        parse_module_text(text, ctx=build_context()).verify()
    except Exception as e:  # the runner reports verifier failures as RunError
        assert "[TileLegality]" in str(e), e
        return False
    return True


@avs("PTO-AVS-TILE-TGATHER-TYPES-001")
def test_tgather_value_and_index_domains():
    for v in (T.FP32, T.FP16, T.BF16, T.S8, T.U64, T.S32, T.U16):
        assert _verifies(TGATHER, v, T.U32), v
    for v in (T.E2M1X2, T.U4X2):
        assert not _verifies(TGATHER, v, T.U32), v
    for i in (T.S16, T.U16, T.S32, T.U32, T.S64, T.U64):
        assert _verifies(TGATHER, T.FP32, i), i
    for i in (T.S8, T.E2M1X2):
        assert not _verifies(TGATHER, T.FP32, i), i
    assert {T.S16, T.U16, T.S32, T.U32, T.S64, T.U64} == INDEX_TYPES


@avs("PTO-AVS-TILE-TSCATTER-TYPES-001")
def test_tscatter_type_pairs():
    for v, i in ((T.FP32, T.S32), (T.U8, T.U64), (T.BF16, T.U16), (T.U8, T.S16), (T.FP16, T.U32),
                 (T.FP64, T.S32), (T.S64, T.S64)):  # fmt: skip
        assert _verifies(TSCATTER, v, i), (v, i)
    assert not _verifies(TSCATTER, T.E2M1X2, T.S32)
    assert not _verifies(TSCATTER, T.U8, T.S8)


_G_TYPES = {T.U8: "ui8", T.TF32: "tf32", T.U64: "ui64"}


def _stage2(op: str, value: TileDataType, index: TileDataType, first: int, second: int, data):
    """The AVS stage-2 bundle: LB0 = 1, LB1 = 2, LB2 = 1 (a 2x1 destination of Col 1), one
    B.IOT value, index, mask 1111, last (the pto-form-blocks canonical block of the op)."""
    rows = 1024 // value.info.carrier_bits
    vt = f"!pto.tile<{rows}x1x{_G_TYPES[value]}, valid=2x1>"
    it = f"!pto.tile<{1024 // index.info.carrier_bits}x1x{index.ir}, valid=2x1>"
    m = _decoded(_program(op, [vt, it], vt))
    assert "lb = 0, imm = 1" in str(m) and "lb = 1, imm = 2" in str(m)
    idx = np.array([[first], [second]], np.uint64).astype(index.numpy_dtype())
    (d,) = run(m, "f", np.asarray(data).reshape(2, 1), idx)
    return d[0, :, 0]


@avs("PTO-AVS-TILE-TGATHER-STAGE2-DECODED-001")
def test_tgather_decoded_index_widths_raw_carriers():
    u8 = _stage2("pto.tgather", T.U8, T.U64, 1, 0, np.array([0x11, 0x22], np.uint8))
    assert u8.tolist() == [0x22, 0x11]
    tf = np.array([0x3F800001, 0x3F800002], np.uint32).view(np.float32)  # invalid TF32 bits
    got = _stage2("pto.tgather", T.TF32, T.S16, 1, 0, tf)
    assert got.view(np.uint32).tolist() == [0x3F800002, 0x3F800001]
    with pytest.raises(PTOFault) as e:  # a U64 row index above 32 bits is out of range
        _stage2("pto.tgather", T.U8, T.U64, 0x0000000100000001, 0, np.array([0x31, 0x42], np.uint8))
    assert e.value.kind == "TileLegality"


@avs("PTO-AVS-TILE-TSCATTER-STAGE2-DECODED-001")
def test_tscatter_decoded_index_widths_raw_carriers():
    v = np.array([0x1122334455667788, 0x8877665544332211], np.uint64)
    got = _stage2("pto.tscatter", T.U64, T.S16, 1, 0, v)
    assert got.tolist() == [0x8877665544332211, 0x1122334455667788]
    tf = np.array([0x3F800001, 0x3F800002], np.uint32).view(np.float32)
    got = _stage2("pto.tscatter", T.TF32, T.U64, 1, 0, tf)
    assert got.view(np.uint32).tolist() == [0x3F800002, 0x3F800001]


@avs("PTO-AVS-TILE-TSCATTER-ROWS-001")
def test_tscatter_rows_and_zero_fill():
    text = _program("pto.tscatter", ["!pto.tile<32x2xui16, valid=2x2>",
                                     "!pto.tile<32x2xui16, valid=2x2>"],
                    "!pto.tile<32x2xui16, valid=4x2>")  # fmt: skip
    src = np.array([[10, 11], [20, 21]], np.uint16)
    idx = np.array([[2, 0], [3, 1]], np.uint16)
    for m in (text, _decoded(text)):
        (d,) = run(m, "f", src, idx)
        assert d[0].tolist() == [[0, 11], [0, 21], [10, 0], [20, 0]]


@avs("PTO-AVS-TILE-TSCATTER-DUP-001")
def test_tscatter_duplicate_faults():
    text = _program("pto.tscatter", ["!pto.tile<64x1xui16, valid=2x1>",
                                     "!pto.tile<64x1xui16, valid=2x1>"],
                    "!pto.tile<64x1xui16, valid=3x1>")  # fmt: skip
    with pytest.raises(PTOFault) as e:
        run(text, "f", np.array([[10], [20]], np.uint16), np.array([[1], [1]], np.uint16))
    assert e.value.kind == "TileLegality" and "two source elements" in e.value.message


@avs("PTO-AVS-TILE-TFILLPAD-SCALAR-001")
def test_tfillpad_low_width_scalar_fills_physical_tile():
    from interpreter.ssa.pto_functions import local_plan
    from interpreter.ssa.runtime import tile_from_array
    from pto_dialect.tile_rearrange import TFillPadOp

    text = _program("pto.tfillpad", ["!pto.tile<32x4xui8, valid=1x2>", "i64"],
                    "!pto.tile<32x4xui8, valid=2x3>")  # fmt: skip
    src = np.array([[1, 2]], np.uint8)
    for m in (text, _decoded(text)):
        (d,) = run(m, "f", src, np.int64(0x1AA))
        assert d[0, 0, 0] == 1 and d[0, 0, 2] == 0xAA and d[0, 1, 1] == 0xAA
    op = next(o for o in parse_module_text(text, ctx=build_context()).walk()
              if isinstance(o, TFillPadOp))  # fmt: skip
    (r,) = local_plan(op)(tile_from_array(op.srcs[0].type, src), 0x1AA)
    assert r.defined[0][31, 3] and r.payloads[0][31, 3] == 0xAA  # physical element defined


@avs("PTO-AVS-TILE-TEXTRACT-WINDOW-001")
def test_textract_window_at_offsets():
    # 3x4 U8 source src[r,c] = 4r + c, a 2x2 window at (1, 1): d[0,0] = 5, d[1,1] = 10
    text = _program("pto.textract", ["!pto.tile<32x4xui8, valid=3x4>", "i64", "i64"],
                    "!pto.tile<32x4xui8, valid=2x2>")  # fmt: skip
    src = np.array([[4 * r + c for c in range(4)] for r in range(3)], np.uint8)
    (d,) = run(text, "f", src, np.int64(1), np.int64(1))
    assert d[0, 0, 0] == 5 and d[0, 1, 1] == 10


@avs("PTO-AVS-TILE-TINSERT-OLD-001")
def test_tinsert_replaces_one_window():
    text = _program("pto.tinsert", ["!pto.tile<32x4xui8, valid=2x3>",
                                    "!pto.tile<128x1xui8, valid=1x1>", "i64", "i64"],
                    "!pto.tile<32x4xui8, valid=2x3>")  # fmt: skip
    (d,) = run(text, "f", np.ones((2, 3), np.uint8), np.array([[9]], np.uint8), np.int64(1),
               np.int64(1))  # fmt: skip
    assert d[0, 0, 0] == 1 and d[0, 1, 1] == 9 and d[0, 1, 2] == 1


def _merge(left, right, desc: int | None = None, *, decoded: bool = False):
    ins = ["!pto.tile<16x2xf32, valid=1x2>", "!pto.tile<16x2xf32, valid=1x2>"]
    args = [np.array([left], np.uint32).view(np.float32), np.array([right], np.uint32).view(np.float32)]
    if desc is not None:
        ins.append("i64")
        args.append(np.int64(desc))
    text = _program("pto.tmrgsort", ins, "!pto.tile<8x4xf32, valid=1x4>")
    (d,) = run(_decoded(text) if decoded else text, "f", *args)
    return d[0, 0].view(np.uint32).tolist()


@avs("PTO-AVS-TILE-TMRGSORT-KERNEL-001", "PTO-AVS-TILE-TMRGSORT-BUNDLE-001")
def test_tmrgsort_merges_two_ascending_streams():
    # 1, 3 | 2, 4 -> 1, 2, 3, 4; the decoded block has no B.DIM and a 1x4 destination
    want = [0x3F800000, 0x40000000, 0x40400000, 0x40800000]
    assert _merge([0x3F800000, 0x40400000], [0x40000000, 0x40800000]) == want
    assert _merge([0x3F800000, 0x40400000], [0x40000000, 0x40800000], decoded=True) == want
    text = _program("pto.tmrgsort", ["!pto.tile<16x2xf32, valid=1x2>"] * 2,
                    "!pto.tile<8x4xf32, valid=1x4>")  # fmt: skip
    assert "pto.b.dim" not in str(_decoded(text))


@avs("PTO-AVS-TILE-TMRGSORT-STABLE-001")
def test_tmrgsort_signed_zeros_equal_left_first():
    got = _merge([0x00000000, 0x3F800000], [0x80000000, 0x40000000])
    assert got == [0x00000000, 0x80000000, 0x3F800000, 0x40000000]


@avs("PTO-AVS-TILE-TMRGSORT-ORDER-001", "PTO-AVS-TILE-TMRGSORT-LEGALITY-001")
def test_tmrgsort_rejects_an_unsorted_source():
    assert _merge([0x3F800000, 0x40400000], [0x40000000, 0x40800000], 0)  # legal
    for left in ([0x40000000, 0x3F800000], [0x40A00000, 0x40400000]):  # descending left
        with pytest.raises(PTOFault) as e:
            _merge(left, [0x40400000, 0x40800000], 0)
        assert e.value.kind == "TileLegality" and "not sorted ascending" in e.value.message


@avs("PTO-AVS-TILE-TMRGSORT-TYPES-001")
def test_tmrgsort_types():
    def ok(t: str, rows: int) -> bool:
        src = f"!pto.tile<{rows}x2x{t}, valid=1x1>"
        dst = f"!pto.tile<{rows}x2x{t}, valid=1x2>"
        return _verifies_text(f'%s = "test.op"() : () -> {src}\n'
                              f"%d = pto.tmrgsort %s, %s : ({src}, {src}) -> {dst}")

    assert ok("f32", 16) and ok("f16", 32)
    assert not ok("bf16", 32) and not ok("ui16", 32) and not ok("ui64", 8)


def _histogram(src: np.ndarray, filt: np.ndarray, byte_id: int, *, decoded: bool = False):
    from pto_dialect.datatypes import TileDataType as DT

    t = DT.U16 if src.dtype == np.uint16 else DT.U32
    vr, vc = src.shape
    src_t = f"!pto.tile<{1024 // (vc * t.info.carrier_bits) or 1}x{vc}x{t.ir}, valid={vr}x{vc}>"
    flt_t = f"!pto.tile<128x1xui8, valid={filt.shape[0]}x1>"
    dst_t = f"!pto.tile<{vr}x256xui32>"
    text = _program("pto.thistogram", [src_t, flt_t], dst_t).replace(
        " : (", f" {{byte_id = {byte_id} : i64}} : (", 1)  # fmt: skip
    (d,) = run(_decoded(text) if decoded else text, "f", src, filt)
    return d[0]


@avs("PTO-AVS-TILE-THISTOGRAM-PREFIX-001")
def test_thistogram_unfiltered_u16_high_bytes_and_null_padding():
    from interpreter.ssa.pto_functions import local_plan
    from interpreter.ssa.runtime import tile_from_array
    from pto_dialect.tile_rearrange import THistogramOp

    src = np.array([[0x0100, 0x0200, 0x0201, 0xFF00]], np.uint16)
    d = _histogram(src, np.zeros((1, 1), np.uint8), 1)
    assert [d[0, k] for k in (0, 1, 2, 254, 255)] == [0, 1, 3, 3, 4]
    # a destination with a padding row: the padding is Null (undefined)
    text = _program("pto.thistogram", ["!pto.tile<16x4xui16, valid=1x4>",
                                       "!pto.tile<128x1xui8, valid=1x1>"],
                    "!pto.tile<2x256xui32, valid=1x256>").replace(" : (", " {byte_id = 1 : i64} : (", 1)  # fmt: skip
    op = next(o for o in parse_module_text(text, ctx=build_context()).walk()
              if isinstance(o, THistogramOp))  # fmt: skip
    (r,) = local_plan(op)(tile_from_array(op.srcs[0].type, src),
                          tile_from_array(op.srcs[1].type, np.zeros((1, 1), np.uint8)))  # fmt: skip
    assert not r.defined[0][1, 0] and r.defined[0][0].all()


@avs("PTO-AVS-TILE-THISTOGRAM-U16-FILTER-001")
def test_thistogram_u16_row_filters():
    src = np.array([[0xAA01, 0xBB02], [0xBB03, 0xAA04]], np.uint16)
    d = _histogram(src, np.array([[0xAA], [0xBB]], np.uint8), 0)
    assert (d[0, 0], d[0, 1], d[0, 255]) == (0, 1, 1)
    assert (d[1, 2], d[1, 3], d[1, 255]) == (0, 1, 1)


@avs("PTO-AVS-TILE-THISTOGRAM-U32-PREFIX-001")
def test_thistogram_u32_three_byte_prefix():
    src = np.array([[0xAABBCC01, 0xAABBCC02, 0xAABBDD01, 0x11223301]], np.uint32)
    d = _histogram(src, np.array([[0xAA], [0xBB], [0xCC]], np.uint8), 0)
    assert (d[0, 0], d[0, 1], d[0, 2], d[0, 255]) == (0, 1, 2, 2)


@avs("PTO-AVS-TILE-THISTOGRAM-BUNDLE-001")
def test_thistogram_bundle_fixed_output_shape():
    src = np.array([[0x0100, 0x0200]], np.uint16)
    d = _histogram(src, np.zeros((1, 1), np.uint8), 1, decoded=True)
    assert d.shape == (1, 256) and d[0, 1] == 1 and d[0, 2] == 2


@avs("PTO-AVS-TILE-THISTOGRAM-SCHEMA-001")
def test_thistogram_schema():
    def ok(dst: str, filt: str = "ui8", byte_id: int = 0) -> bool:
        text = (f'%s = "test.op"() : () -> !pto.tile<16x4xui16, valid=1x4>\n'
                f'%f = "test.op"() : () -> !pto.tile<128x1x{filt}, valid=1x1>\n'
                f"%d = pto.thistogram %s, %f {{byte_id = {byte_id} : i64}} : "
                f"(!pto.tile<16x4xui16, valid=1x4>, !pto.tile<128x1x{filt}, valid=1x1>) -> {dst}")  # fmt: skip
        return _verifies_text(text)

    assert ok("!pto.tile<1x256xui32>") and ok("!pto.tile<1x256xui32>", byte_id=1)
    assert not ok("!pto.tile<1x256xui32>", byte_id=2)
    assert not ok("!pto.tile<1x512xui32, valid=1x257>")
    assert not ok("!pto.tile<1x256xui32>", filt="si8")


# Also meets PTO-AVS-BLOCK-THISTOGRAM-SCHEMA-001 (tests/asl/block/model: outside the D17 inventory
# scopes, so not claimed).
def test_thistogram_block_schema_needs_datr():
    from pto_dialect import isa

    start = isa.BStart.op("THISTOGRAM", T.U16.value)
    iot = isa.BIot(src0=0, src1=1, last=1, size_code=4, pe_mode=7, dst_hand=0)
    s = isa.check_block([start, isa.BDatr(dtype=T.U32.value, pad=0), iot, isa.BStop()])
    assert not s.noop and len(s.sources) == 2
    with pytest.raises(PTOFault) as e:
        isa.check_block([start, iot, isa.BStop()])
    assert e.value.kind == "TileLegality"
