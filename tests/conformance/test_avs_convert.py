"""AVS pass conditions (D17) of TCVT, TQUANT and TDEQUANT (``tests/asl/tile/**/format-conversion``),
asserted on our kernels, verifier, block checker and decoded execution. The numeric cases are
the AVS tests' own words; D20 covers what the ASL leaves to the profile hook."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from interpreter import kernels, run
from interpreter.kernels import convert as cv
from interpreter.kernels.status import NX, recording
from interpreter.ssa.runner import build_context, parse_module_text
from passes import get_all_passes
from pto_dialect import isa
from pto_dialect.convert_ops import TCVT_LAYOUT_CODES, TCvtOp, TDequantOp, TQuantOp
from pto_dialect.datatypes import DTYPE_NONE, TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.geometry import Layout
from pto_dialect.isa import BDatr, BIor, BIot, BStart, BStop, CBDimi, check_block
from pto_dialect.isa.commands import LAYOUTS

from .inventory import avs

T = TileDataType
K = kernels.KERNELS


def _bf16(*bits: int) -> np.ndarray:
    return np.array(bits, np.uint16).view(ml_dtypes.bfloat16)


def _e8m0(x: np.ndarray, src: TileDataType, mode="rne", sat=False) -> list[int]:
    return [int(c) for c in cv.convert_values(x, src, T.E8M0, mode, sat).view(np.uint8)]


@avs("PTO-AVS-TILE-TCVT-TYPES-001")
def test_tcvt_accepts_all_25_types():
    assert TCvtOp.TYPES == frozenset(TileDataType) and len(TCvtOp.TYPES) == 25


@avs("PTO-AVS-TILE-TCVT-DEFAULTS-001")
def test_tcvt_defaults():
    # omitted B.DATR or DTYPE_NONE inherits; encoded DataType 0 is FP64
    base = [BStart.op("TCVT", T.U8.value)]
    tail = [CBDimi(0, 2), BIot(src0=1, last=1, size_code=1, pe_mode=7, dst_hand=0), BStop()]
    assert check_block(base + tail).b_type == T.U8
    assert check_block(base + [BDatr(dtype=DTYPE_NONE)] + tail).b_type == T.U8
    assert check_block(base + [BDatr(dtype=0)] + tail).b_type == T.FP64
    assert cv.resolve_rmode(0, T.FP32, T.S32) == cv.RTZ
    assert cv.resolve_rmode(0, T.FP32, T.FP16) == cv.RNE
    assert cv.resolve_rmode(0, T.S32, T.U8) == cv.RNE


@avs("PTO-AVS-TILE-TCVT-E8M0-ROUND-003")
def test_e8m0_rounding_modes():
    x = _bf16(0x3FC0)  # 1.5
    assert [_e8m0(x, T.BF16, m)[0] for m in ("rne", "rtm", "rtp", "rtz", "rna", "rto", "rhb")] == [
        128, 127, 128, 127, 128, 128, 128]
    y = _bf16(0x3F40)  # 0.75
    assert [_e8m0(y, T.BF16, m)[0] for m in ("rtm", "rtp", "rtz")] == [126, 127, 127]


@avs("PTO-AVS-TILE-TCVT-E8M0-FINITE-002")
def test_e8m0_finite_bf16():
    src = _bf16(0x3F80, 0x4000, 0x3F00, 0x3FC0)
    with recording() as st:
        out, dfn = K["TCVT"](src.reshape(1, 4), None, "null", T.BF16, T.E8M0)
    assert [int(c) for c in out.view(np.uint8)[0]] == [127, 128, 126, 128] and dfn.all()
    assert st.bits == NX  # only 1.5 is inexact
    assert [int(b) for b in src.view(np.uint16)] == [0x3F80, 0x4000, 0x3F00, 0x3FC0]  # persists


@avs("PTO-AVS-TILE-TCVT-E8M0-SPECIAL-004")
def test_e8m0_specials():
    bf = _bf16(0x0000, 0xBF80, 0x7FC0, 0x7F80)
    assert _e8m0(bf, T.BF16) == [0xFF, 0xFF, 0xFF, 0xFF]
    assert _e8m0(bf, T.BF16, sat=True) == [0xFF, 0xFF, 0xFF, 0xFE]
    f = np.array([0x00400000, 0x00200000, 0x7F000000, 0x7F7FFFFF], np.uint32).view(np.float32)
    assert _e8m0(f, T.FP32) == [0x00, 0xFF, 0xFE, 0xFF]
    assert _e8m0(f, T.FP32, sat=True) == [0x00, 0x00, 0xFE, 0xFE]


def _tile(dt: str, layout: str = "") -> str:
    return f"!pto.tile<16x8x{dt}{', ' + layout if layout else ''}>"


def _verify(text: str) -> None:
    ctx = build_context()
    parse_module_text(text, ctx=ctx).verify()


def _tcvt_text(src: str, dst: str) -> str:
    return (f'%a = "test.op"() : () -> {src}\n'
            f"%d = pto.tcvt %a : ({src}) -> {dst}\n")


@avs("PTO-AVS-TILE-TCVT-E8M0-PAIRS-005")
def test_e8m0_pairs():
    for ok in ("f16", "bf16", "f32"):
        _verify(_tcvt_text(_tile(ok), _tile("f8E8M0FNU")))
    for bad in ("f64", "f8E4M3FN", "si32", "f8E8M0FNU"):
        with pytest.raises(Exception, match="E8M0 destination"):
            _verify(_tcvt_text(_tile(bad), _tile("f8E8M0FNU")))
    with pytest.raises(PTOFault, match="HardwareTCVTTypePairSupported"):
        K["TCVT"](np.ones((1, 1)), None, "null", T.FP64, T.E8M0)
    blk = [BStart.op("TCVT", T.FP64.value), BDatr(dtype=T.E8M0.value, pad=3), CBDimi(0, 1),
           CBDimi(1, 1), CBDimi(2, 8), BIot(src0=0, last=1, size_code=1, pe_mode=1, dst_hand=1),
           BStop()]  # fmt: skip
    with pytest.raises(PTOFault, match="HardwareTCVTTypePairSupported") as e:
        check_block(blk)
    assert e.value.kind == "TileLegality"


@avs("PTO-AVS-TILE-TCVT-INTEGER-001")
def test_integer_conversions():
    assert int(cv.convert_values(np.array([0xF], np.uint8), T.S4X2, T.S8)[0]) == -1
    u16 = np.array([300], np.uint16)
    assert int(cv.convert_values(u16, T.U16, T.U8)[0]) == 44
    assert int(cv.convert_values(u16, T.U16, T.U8, 0, True)[0]) == 255
    assert int(cv.convert_values(np.array([-1], np.int64), T.S64, T.U4X2, 0, True)[0]) == 0


@avs("PTO-AVS-TILE-TCVT-LAYOUT-001")
def test_layout_transformations():
    L = Layout
    names = {0: "NORM", 1: "ND2DN", 3: "ND2ZN", 4: "ND2NZ", 6: "DN2ND", 8: "DN2ZN", 9: "DN2NZ",
             17: "ZN2ND", 18: "ZN2DN", 20: "ZN2NZ", 27: "NZ2ND", 28: "NZ2DN", 30: "NZ2ZN"}
    short = {L.ROW_MAJOR: "ND", L.COL_MAJOR: "DN", L.ZN: "ZN", L.NZ: "NZ"}
    assert set(TCVT_LAYOUT_CODES.values()) == set(names)
    for (s, d), code in TCVT_LAYOUT_CODES.items():
        assert LAYOUTS[code] == names[code]
        if code:
            assert names[code] == f"{short[s]}2{short[d]}"
        else:
            assert s is d is L.ROW_MAJOR


@avs("PTO-AVS-TILE-TCVT-DATR-001")
def test_datr_fields():
    fields = isa.TEPL_BY_NAME["TCVT"].datr_fields
    assert set("PSZDRL") <= set(fields) and "C" not in fields
    blk = [BStart.op("TCVT", T.U8.value), BDatr(cmode=1), CBDimi(0, 2),
           BIot(src0=1, last=1, size_code=1, pe_mode=7, dst_hand=0), BStop()]  # fmt: skip
    with pytest.raises(PTOFault, match="cmode"):
        check_block(blk)


@avs("PTO-AVS-TILE-TCVT-SCHEMA-001")
def test_schema():
    ok = [BStart.op("TCVT", T.U8.value), CBDimi(0, 2),
          BIot(src0=1, last=1, size_code=1, pe_mode=7, dst_hand=0), BStop()]  # fmt: skip
    check_block(ok)
    with pytest.raises(PTOFault):  # a B.IOR
        check_block(ok[:2] + [BIor(2)] + ok[2:])
    with pytest.raises(PTOFault):  # a second source
        check_block(ok[:2] + [BIot(src0=1, src1=2, last=1, size_code=1, pe_mode=7, dst_hand=0),
                              BStop()])  # fmt: skip
    with pytest.raises(PTOFault, match="LB0"):  # missing LB0
        check_block([ok[0], *ok[2:]])
    with pytest.raises(Exception, match="BSTART DataType"):  # source type differs
        _run_block_text("ui16", "ui16", bstart_dtype="U8")


def _run_block_text(src_dt: str, dst_dt: str, bstart_dtype: str, layout: str = "NORM"):
    text = f"""
func.func @f(%a: !pto.tile<16x8x{src_dt}, valid=1x2>) -> !pto.tile<16x8x{dst_dt}, valid=1x2> {{
  %d = pto.block (%a) {{
    pto.b.start TCVT, {bstart_dtype}
    pto.b.dimi <lb = 0, imm = 2>
    pto.b.iot <src0 = "t#1", last = 1, size_code = "256B", pe_mode = "1111", dst_hand = t>
    pto.b.stop
  }} : (!pto.tile<16x8x{src_dt}, valid=1x2>) -> !pto.tile<16x8x{dst_dt}, valid=1x2>
  func.return %d : !pto.tile<16x8x{dst_dt}, valid=1x2>
}}"""
    return run(text, "f", np.array([[3, 4]], np.uint16))


def _formed(text: str):
    ctx = build_context()
    m = parse_module_text(text, ctx=ctx)
    m.verify()
    for name in ("pto-form-blocks", "pto-assign-registers"):
        get_all_passes()[name]()().apply(ctx, m)
    m.verify()
    return m


@avs("PTO-AVS-TILE-TCVT-BUNDLE-001")
def test_bundle_u8_nd_to_u16_dn():
    text = """
func.func @f(%a: !pto.tile<16x8xui8, valid=1x2>) -> !pto.tile<16x8xui16, valid=1x2, col_major> {
  %d = pto.tcvt %a : (!pto.tile<16x8xui8, valid=1x2>) -> !pto.tile<16x8xui16, valid=1x2, col_major>
  func.return %d : !pto.tile<16x8xui16, valid=1x2, col_major>
}"""
    m = _formed(text)
    assert "layout = ND2DN, dtype = U16" in str(m)
    src = np.array([[7, 9]], np.uint8)
    (out,) = run(m, "f", src)
    assert out.dtype == np.uint16 and [int(v) for v in out[0, 0]] == [7, 9]
    assert [int(v) for v in src[0]] == [7, 9]


@avs("PTO-AVS-TILE-TCVT-ALIAS-001")
def test_alias_and_zero_padding():
    src = np.zeros((16, 8), np.uint8)
    src[0, :2] = (7, 9)
    out, dfn = K["TCVT"](src, (1, 2), "zero", T.U8, T.U8)
    assert [int(v) for v in out[0, :2]] == [7, 9] and dfn.all()
    assert int(out[0, 2]) == 0 and int(out[15, 7]) == 0
    assert [int(v) for v in src[0, :2]] == [7, 9]  # the source snapshot is untouched


@avs("PTO-AVS-TILE-TCVT-CANONICAL-001")
def test_canonicalize_exactly_for_cube_sources():
    mat = _tile("f32", "mat")
    _verify(_tcvt_text(mat, _tile("f16")))  # private CUBE source: canonicalized, NORM
    with pytest.raises(Exception, match="canonicalized"):
        _verify(_tcvt_text(mat, _tile("f16", "col_major")))  # a transformed layout rejects
    text = """
func.func @f(%a: !pto.tile<16x8xf32, mat>) -> !pto.tile<16x8xf16> {
  %d = pto.tcvt %a : (!pto.tile<16x8xf32, mat>) -> !pto.tile<16x8xf16>
  func.return %d : !pto.tile<16x8xf16>
}"""
    m = _formed(text)
    assert "canonicalize = 1" in str(m)
    ordinary = str(m).replace("!pto.tile<16x8xf32, mat>", "!pto.tile<16x8xf32>")
    with pytest.raises(Exception, match="Canonicalize"):  # an ordinary source with Canonicalize
        run(ordinary, "f", np.ones((16, 8), np.float32))
    missing = str(m).replace("canonicalize = 1", "canonicalize = 0")
    with pytest.raises(Exception, match="Canonicalize"):  # a CUBE source without it
        run(missing, "f", np.ones((16, 8), np.float32))


# -- TQUANT / TDEQUANT ------------------------------------------------------------------
ONE = 0x3F800000


@avs("PTO-AVS-TILE-TQUANT-AFFINE-001", "PTO-AVS-TILE-TQUANT-BUNDLE-001")
def test_tquant_affine_and_bundle():
    out, _ = K["TQUANT"](np.array([[1.0, 2.0]], np.float32), ONE, 0, None, T.S8)
    assert [int(v) for v in out[0]] == [1, 2]
    text = """
func.func @f(%a: !pto.tile<16x2xf32, valid=1x2>) -> !pto.tile<64x2xsi8, valid=1x2> {
  %d = pto.tquant %a : (!pto.tile<16x2xf32, valid=1x2>) -> !pto.tile<64x2xsi8, valid=1x2>
  func.return %d : !pto.tile<64x2xsi8, valid=1x2>
}"""
    m = _formed(text)
    assert "pto.b.start TQUANT, FP32" in str(m) and "dtype = S8" in str(m)
    src = np.array([[1.0, 2.0]], np.float32)
    (d,) = run(m, "f", src)
    assert d.dtype == np.int8 and [int(v) for v in d[0, 0]] == [1, 2]
    assert float(src[0, 0]) == 1.0


@avs("PTO-AVS-TILE-TQUANT-SAT-001")
def test_tquant_sat_and_wrap():
    x = np.array([[200.0]], np.float32)  # 0x43480000
    sat, _ = K["TQUANT"](x, ONE, 0, None, T.S8, sat=True)
    wrap, _ = K["TQUANT"](x, ONE, 0, None, T.S8)
    assert int(sat[0, 0]) == 127 and int(wrap[0, 0]) == -56  # Ones - 55


@avs("PTO-AVS-TILE-TQUANT-TYPES-001", "PTO-AVS-TILE-TDEQUANT-TYPES-001")
def test_quant_types():
    assert TQuantOp.TYPES == {T.FP32} and TDequantOp.TYPES == {T.S8, T.U8}
    q = '%a = "test.op"() : () -> {s}\n%d = pto.tquant %a : ({s}) -> {d}\n'
    _verify(q.format(s="!pto.tile<1x32xf32>", d="!pto.tile<1x128xsi8, valid=1x32>"))
    for s, d in (("!pto.tile<1x16xui64>", "!pto.tile<1x128xsi8, valid=1x16>"),
                 ("!pto.tile<1x32xf32>", "!pto.tile<1x64xui16, valid=1x32>")):
        with pytest.raises(Exception, match="TQUANT"):
            _verify(q.format(s=s, d=d))
    dq = '%a = "test.op"() : () -> {s}\n%d = pto.tdequant %a : ({s}) -> {d}\n'
    _verify(dq.format(s="!pto.tile<1x128xsi8>", d="!pto.tile<1x128xf32>"))
    with pytest.raises(Exception, match="TDEQUANT"):
        _verify(dq.format(s="!pto.tile<1x32xf32>", d="!pto.tile<1x32xf32>"))
    with pytest.raises(PTOFault, match="TileQuantizationScaleLegal"):
        K["TDEQUANT"](np.ones((1, 1), np.int8), 0, 0, None, T.S8)
    with pytest.raises(Exception, match="Sat"):
        _verify(dq.format(s="!pto.tile<1x128xsi8>", d="!pto.tile<1x128xf32>").replace(
            "pto.tdequant %a", "pto.tdequant %a {sat}"))


def _quant_block(*extra, mask: int = 7) -> list:
    return [BStart.op("TQUANT", T.FP32.value), BDatr(dtype=T.S8.value, pad=0), CBDimi(0, 1),
            *extra, BIot(src0=1, last=1, size_code=1, pe_mode=mask, dst_hand=0), BStop()]


@avs("PTO-AVS-TILE-TQUANT-DEFAULTS-001", "PTO-AVS-TILE-TQUANT-ZERO-SCALE-001")
def test_tquant_defaults_and_zero_scale():
    assert cv.multiplier_value(None, "TQUANT") == 1.0 and cv.zero_point_value(None, T.S8, "") == 0
    check_block(_quant_block())
    with pytest.raises(PTOFault, match="multiplier 0") as e:
        check_block(_quant_block(BIor(0, 0, 0, 0)))
    assert e.value.kind == "TileLegality"
    with pytest.raises(PTOFault, match="TileQuantizationScaleLegal"):
        K["TQUANT"](np.ones((1, 1), np.float32), 0, 0, None, T.S8)


@avs("PTO-AVS-TILE-TQUANT-MASK-ZERO-001")
def test_tquant_mask_zero_is_a_noop():
    s = check_block([BStart.op("TQUANT", T.FP32.value),
                     BIot(src0=63, last=1, size_code=1, pe_mode=0, dst_hand=0), BStop()])  # fmt: skip
    assert s.noop


@avs("PTO-AVS-TILE-TQUANT-PADDING-001")
def test_tquant_null_padding():
    out, dfn = K["TQUANT"](np.array([[1.0, 0.0]], np.float32), ONE, 0, (1, 1), T.U8)
    assert bool(dfn[0, 0]) and not bool(dfn[0, 1]) and int(out[0, 0]) == 1


@avs("PTO-AVS-TILE-TDEQUANT-AFFINE-001", "PTO-AVS-TILE-TDEQUANT-BUNDLE-001")
def test_tdequant_affine_and_bundle():
    out, _ = K["TDEQUANT"](np.array([[1, 2]], np.int8), ONE, 0, None, T.S8)
    assert [int(v) for v in out.view(np.uint32)[0]] == [0x3F800000, 0x40000000]
    half = int(np.array(0.5, np.float32).view(np.uint32))
    out, _ = K["TDEQUANT"](np.array([[5, -3]], np.int8), half, 1, None, T.S8)
    assert [float(v) for v in out[0]] == [2.0, -2.0]  # zero point subtracted first
    text = """
func.func @f(%a: !pto.tile<1x128xsi8, valid=1x2>) -> !pto.tile<1x32xf32, valid=1x2> {
  %d = pto.tdequant %a : (!pto.tile<1x128xsi8, valid=1x2>) -> !pto.tile<1x32xf32, valid=1x2>
  func.return %d : !pto.tile<1x32xf32, valid=1x2>
}"""
    m = _formed(text)
    assert "pto.b.start TDEQUANT, S8" in str(m) and "dtype = FP32" in str(m)
    (d,) = run(m, "f", np.array([[3, -4]], np.int8))
    assert [float(v) for v in d[0, 0]] == [3.0, -4.0]


@avs("PTO-AVS-TILE-TCVT-CAPACITY-001")
def test_packed_x2_full_logical_region():
    from interpreter.ssa.runtime import TileValue
    from pto_dialect.attributes import TileType

    t = TileType((128, 128), TileDataType.U4X2)
    assert t.capacity == 8192
    v = TileValue.from_valid(t, {0: np.zeros((128, 128), np.uint8)}, "null")
    assert int(v.defined[0].sum()) == 16384 and bool(v.defined[0][127, 127])
