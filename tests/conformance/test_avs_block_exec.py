"""Block attribute, operand and execution AVS pass conditions (tests/asl/block/attributes,
operands, execution) through ``pto_dialect.isa`` (decoder, encoder, block checker) (D17).

The AVS tests run single command words through the ASL's command executor; ours decodes the
same words (a refused word is ``PTOFault(IllegalInstruction)``) and checks whole blocks with
``check_program`` / ``check_block`` (a refused block names the ASL fault kind).
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs
from pto_dialect.datatypes import DTYPE_NONE, TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.isa import (
    TEPL_BY_NAME,
    AsmSyntaxError,
    BDatr,
    BDim,
    BFpatr,
    BIos,
    BIot,
    BlockFamily,
    BStart,
    BStop,
    CBDimi,
    Engine,
    check_block,
    check_program,
    decode,
    encode,
    parse_program,
)
from pto_dialect.isa.block import CUBE_MOVE_LAYOUTS, LOAD_LAYOUTS, STORE_LAYOUTS
from pto_dialect.isa.commands import LAYOUTS, PAD_VALUES, PE_MODE_MASKS, RMODES

T = TileDataType


def fault(fn, *args, **kw) -> str | None:
    try:
        fn(*args, **kw)
    except PTOFault as e:
        return e.kind
    return None


def strict(word: int, width: int = 32) -> str | None:
    return fault(decode, word, width, strict=True)


# -- B.DATR -----------------------------------------------------------------------------------
@avs("PTO-AVS-BLOCK-B-DATR-CUBE-RESERVED-003", "PTO-AVS-BLOCK-B-DATR-LAYOUT-MAP-001")
def test_datr_layout_codes():
    assert len(LAYOUTS) == 19
    assert not {2, 5, 7, *range(10, 17), 19, 29, 31} & set(LAYOUTS)
    assert (LAYOUTS[0], LAYOUTS[1], LAYOUTS[3], LAYOUTS[21], LAYOUTS[28], LAYOUTS[30]) == (
        "NORM", "ND2DN", "ND2ZN", "ND2M32", "NZ2DN", "NZ2ZN")
    for code in range(32):
        cmd = BDatr(layout=code)
        if code in LAYOUTS:
            assert decode(encode(cmd)) == cmd  # round-trips
        else:
            assert fault(encode, cmd) is not None or strict(encode(cmd)) == "IllegalInstruction"


@avs("PTO-AVS-BLOCK-B-DATR-RMODE-001")
def test_datr_rounding_selection():
    assert RMODES == ("RNONE", "RNE", "RTZ", "RTM", "RTP", "RNA", "RTO", "RHB")
    for code in range(8):
        assert decode(encode(BDatr(rmode=code))).rmode == code


@avs("PTO-AVS-BLOCK-B-DATR-CUBE-LAYOUTS-002")
def test_datr_cube_conversions():
    assert CUBE_MOVE_LAYOUTS == set(range(21, 27))
    assert {21, 22, 23} <= LOAD_LAYOUTS and not {24, 25, 26} & LOAD_LAYOUTS
    assert {24, 25, 26} <= STORE_LAYOUTS and not {21, 22, 23} & STORE_LAYOUTS
    assert [LAYOUTS[c] for c in range(21, 27)] == [
        "ND2M32", "ND2M16", "ND2N8", "M322ND", "M162ND", "N82ND"]
    from pto_dialect.block_ops import MOVE_LAYOUT_CODES
    from pto_dialect.geometry import Layout

    assert MOVE_LAYOUT_CODES[Layout.CUBE_M32] == (21, 24)
    assert MOVE_LAYOUT_CODES[Layout.CUBE_M16] == (22, 25)
    assert MOVE_LAYOUT_CODES[Layout.CUBE_N8] == (23, 26)


@avs("PTO-AVS-BLOCK-B-DATR-FIELDS-001")
def test_datr_fields_latch():
    word = 0x00001023 | 5 << 29 | 2 << 27 | 1 << 26 | 1 << 25 | 24 << 20 | 7 << 15
    d = decode(word)
    assert (d.dtype, PAD_VALUES[d.pad], d.cmode, d.rmode, d.sat, d.canonicalize, d.layout) == (
        24, "Min", 5, 7, 1, 1, 0)


# -- B.DIM / C.B.DIMI -------------------------------------------------------------------------
@avs("PTO-AVS-BLOCK-B-DIM-GPR-BOUNDARY-001")
def test_dim_gpr_selectors():
    assert decode(0x43 | 23 << 15 | 7 << 20) == BDim(lb=0, reg=23, imm=7)
    assert strict(0x43 | 24 << 15 | 7 << 20) == "IllegalInstruction"


_DIM_LOAD = """func.func @f(%m: tensor<2x3xi32>, %i: index) -> !pto.tile<32x2xui32, valid=2x2, pe=1000> {
  %c0 = arith.constant 0 : index
  %r = pto.tload %m[%i, %c0] : tensor<2x3xi32> -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  func.return %r : !pto.tile<32x2xui32, valid=2x2, pe=1000>
}"""


def _register_dim_load() -> str:
    """The formed TLOAD block of ``_DIM_LOAD`` with LB0 (ValidCol) written by ``B.DIM x3, 1``
    (absolute GPR 23) instead of ``C.B.DIMI 2``: GPR 23's value is the block's trailing i64
    operand ``%g``."""
    from conformance.support import bundled

    text = str(bundled(_DIM_LOAD))
    for old, new in (("pto.b.dimi <lb = 0, imm = 2>", "pto.b.dim <lb = 0, reg = x3, imm = 1>"),
                     ("(%m, %i, %c0)", "(%m, %i, %c0, %g)"),
                     ("(tensor<2x3xi32>, index, index) ->", "(tensor<2x3xi32>, index, index, i64) ->"),
                     ("%i: index)", "%i: index, %g: i64)")):  # fmt: skip
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


@avs("PTO-AVS-BLOCK-B-DIM-LOW16-001")
def test_dim_register_base_keeps_the_low_16_bits():
    """B.DIM writes ``(GPR[RegSrc] + uimm17)[15:0]``: GPR 23 = 65535 plus 1 writes LB0 = 0
    (``isa.lb_value``, the ``SetBundleDimension`` semantics; also the zero base with uimm17
    65536). In a linked block the GPR's run-time value is a trailing i64 operand and the LB it
    gives must be the tile's: 1 + 1 = 65537 + 1 (mod 2^16) = 2 load the 2x2 tile; 65535 + 1
    gives LB0 = 0 (and -1 + 1 too), TileLegality before any effect; a block without the
    operand does not verify."""
    from interpreter import run
    from pto_dialect.isa import BIor, lb_value

    cmd = decode(0x43 | 23 << 15 | 1 << 20)
    assert cmd == BDim(lb=0, reg=23, imm=1) and lb_value(cmd, 65535) == 0
    assert lb_value(BDim(0, 0, 65536)) == 0 and lb_value(BDim(2, 0, 0x1FFFF)) == 0xFFFF
    assert lb_value(cmd, -1) == 0 and lb_value(cmd, (1 << 64) - 1) == 0
    s = check_block([BStart.op("TLOAD", TileDataType.U32.value), cmd, BDim(1, 0, 2),
                     BIor(2, 3, 0, 0), BIot(None, None, 1, 2, 4, 0), BStop()])  # fmt: skip
    assert (s.lb[0], s.lb_regs[0], s.lb[1]) == (None, 23, 2)
    text = _register_dim_load()
    gm = np.array([[1, 2, 9], [3, 4, 9]], np.int32)
    for v in (1, 65537, 1 - (1 << 16) * 5):
        (t,) = run(text, "f", gm, 0, v)
        assert t[0].tolist() == [[1, 2], [3, 4]], v
    for v in (65535, -1):
        with pytest.raises(PTOFault) as e:
            run(text, "f", gm, 0, v)
        assert e.value.kind == "TileLegality"
        assert f"LB0 (ValidCol) is 0 = (x3 = {v} + 1)[15:0] at run time, the tiles say 2" in str(e.value)
    for engine in ("compiled", "xdsl"):
        assert run(text, "f", gm, 0, 1, engine=engine)[0][0].tolist() == [[1, 2], [3, 4]]
    missing = text.replace("(%m, %i, %c0, %g)", "(%m, %i, %c0)").replace("index, i64) ->", "index) ->")
    from conformance.support import verify_error

    assert "a linked block takes the value of x3 as 1 trailing i64 operand(s)" in verify_error(missing)


@avs("PTO-AVS-BLOCK-C-B-DIMI-VALUES-001")
def test_dimi_values():
    words = [0x003C, 0x003C | 1 << 14 | 1 << 6, 0x003C | 2 << 14 | 255 << 6]
    cmds = [decode(w, 16) for w in words]
    assert cmds == [CBDimi(0, 0), CBDimi(1, 1), CBDimi(2, 255)]
    assert all(encode(c) == w for c, w in zip(cmds, words))
    text = "BSTART.SFU TREM, S32\n" + "".join(
        f"C.B.DIMI {c.imm}, ->lb{c.lb}\n" for c in cmds[1:]) + (
        "C.B.DIMI 4, ->lb0\nB.IOT t#1, t#2, mask=1111, last, ->t<1KB>\nBSTOP\n")
    s = check_block(parse_program(text))
    assert s.lb_written == (True, True, True) and s.lb[1:] == (1, 255)


@avs("PTO-AVS-BLOCK-C-B-DIMI-DUP-001")
def test_dimi_duplicate_either_order():
    start = "BSTART.SFU TREM, S32\n"
    for body in ("C.B.DIMI 7, ->lb1\nB.DIM zero, 9, ->lb1\n", "B.DIM zero, 9, ->lb1\nC.B.DIMI 7, ->lb1\n"):
        assert fault(check_program, parse_program(start + body + "BSTOP\n")) == "BundleControl"


@avs("PTO-AVS-BLOCK-C-B-DIMI-RSVD-001")
def test_dimi_reserved_form():
    assert strict(0x003C | 3 << 14 | 255 << 6, 16) == "IllegalInstruction"


# -- B.FPATR ----------------------------------------------------------------------------------
@avs("PTO-AVS-BLOCK-B-FPATR-TRANSPOSE-011")
def test_fpatr_transpose_controls():
    for controls in range(4):
        f = decode(0x00002023 | controls << 7)
        assert (f.trans_a, f.trans_b) == (controls & 1, controls >> 1)


@avs("PTO-AVS-BLOCK-B-FPATR-RSVD-001")
def test_fpatr_reserved_prequant_modes():
    for code in range(6, 12):
        assert strict(0x00002023 | code << 26) == "IllegalInstruction"


# -- BSTART -----------------------------------------------------------------------------------
@avs("PTO-AVS-BLOCK-BSTART-TEPL-RESERVED-001")
def test_tepl_selector_hole_and_reserved_types():
    for word in (0x00519181, 0x78019181, 0xF8019181):
        assert strict(word) == "IllegalInstruction"


@avs("PTO-AVS-BLOCK-BSTART-TEPL-ALIASES-001")
def test_tepl_engine_aliases():
    assert TEPL_BY_NAME["TADD"].engine is Engine.VEC
    assert TEPL_BY_NAME["TEXP"].engine is Engine.SFU
    assert parse_program("BSTART.VEC TADD, FP32\n") == [BStart.op("TADD", T.FP32.value)]
    assert parse_program("BSTART.SFU TEXP, FP32\n") == [BStart.op("TEXP", T.FP32.value)]
    for wrong in ("BSTART.SFU TADD, FP32\n", "BSTART.VEC TEXP, FP32\n"):
        with pytest.raises(AsmSyntaxError):
            parse_program(wrong)


@avs("PTO-AVS-BLOCK-TLOAD-DTYPE-001")
def test_tload_data_types():
    reserved = {15, 21, 22, 23, 29, 30, 31}
    for code in range(32):
        word = 0x00011181 | code << 27
        if code in reserved:
            assert strict(word) == "IllegalInstruction"
        else:
            assert decode(word) == BStart(BlockFamily.TLSU, 0, code)


@avs("PTO-AVS-BLOCK-TLOAD-ZERO-MASK-001")
def test_tload_zero_mask_is_noop():
    s = check_block([BStart.op("TLOAD", T.FP16.value), BDim(0, 0, 4),
                     BIot(None, None, 1, 1, 0, 0), BStop()])  # fmt: skip
    assert s.noop


def test_tmatmul_zero_m():
    """Half of AVS BLOCK-TMATMUL-DIM-001 (explicit M = 0); its K = 3 half needs the source
    descriptors, which the block checker does not see."""
    cmds = [BStart.op("TMATMUL", T.FP16.value), BFpatr(), BDim(0, 0, 0),
            BIot(1, 2, 1, 1, 7, 0), BStop()]  # fmt: skip
    assert fault(check_program, cmds) == "TileLegality"


# -- B.IOT / B.IOS ----------------------------------------------------------------------------
def _iot_word(size_code: int, pe_mode: int) -> int:
    return 0x00005013 | 1 << 19 | size_code << 15 | pe_mode << 9


def _ios_word(tid: int, size_code: int, pe_mode: int) -> int:
    return 0x00001013 | tid << 20 | size_code << 15 | pe_mode << 9


@avs("PTO-AVS-BLOCK-B-IOT-SIZECODE-010-001", "PTO-AVS-BLOCK-B-IOT-SIZECODES-002")
def test_iot_local_size_codes():
    for code in range(1, 16):
        if code <= 10:
            b = decode(_iot_word(code, 7))
            assert (b.size_code, PE_MODE_MASKS[b.pe_mode]) == (code, "1111")
        else:
            assert strict(_iot_word(code, 1)) == "IllegalInstruction"
    assert PE_MODE_MASKS[decode(_iot_word(10, 1)).pe_mode] == "1000"


@avs("PTO-AVS-BLOCK-B-IOS-SIZECODE-012-001", "PTO-AVS-BLOCK-B-IOS-SIZECODES-003")
def test_ios_shared_size_codes():
    for code in range(1, 16):
        if code <= 12:
            b = decode(_ios_word(3, code, 7))
            assert (b.size_code, PE_MODE_MASKS[b.pe_mode]) == (code, "1111")
        else:
            assert strict(_ios_word(3, code, 7)) == "IllegalInstruction"


@avs("PTO-AVS-BLOCK-B-IOT-PEMODE-004", "PTO-AVS-BLOCK-B-IOS-PEMODE-005")
def test_pe_modes():
    assert PE_MODE_MASKS == ("0000", "1000", "0100", "0010", "0001", "1100", "1110", "1111")
    for mode, mask in enumerate(PE_MODE_MASKS):
        assert PE_MODE_MASKS[decode(_iot_word(1, mode)).pe_mode] == mask
        assert PE_MODE_MASKS[decode(_ios_word(0, 0, mode)).pe_mode] == mask
    # mode 0: no binding effect
    s = check_block([BStart.op("TADD", T.FP32.value), BIot(9, None, 0, 0, 0, None),
                     BIos(5, 0, 0), BStop()])  # fmt: skip
    assert s.sources == () and s.shared == ()


@avs("PTO-AVS-BLOCK-B-IOS-ENCODING-002")
def test_ios_encoding():
    assert decode(_ios_word(0, 0, 7)) == BIos(0, 0, 7)
    assert decode(_ios_word(255, 7, 5)) == BIos(255, 7, 5)
    assert strict(_ios_word(1, 1, 1) | 1 << 19) == "IllegalInstruction"
    assert isinstance(decode(0xC03C, 16), CBDimi)  # the retired compressed word
    base = [BStart.op("TMATMUL", 4), BFpatr()]
    assert fault(check_program, [*base, BIos(0, 0, 7), BIos(0, 0, 7), BStop()]) == (
        "BundleControl")


@avs("PTO-AVS-BLOCK-TLOAD-CUBE-DTYPE-005")
def test_cube_tload_types():
    for t in (T.FP64, T.S64, T.U64, T.HIF4X2):
        cmds = [BStart.op("TLOAD", t.value), BDatr(layout=22, dtype=DTYPE_NONE, pad=0),
                BDim(0, 0, 4), BDim(1, 0, 4), BIot(None, None, 1, 1, 7, 0), BStop()]
        assert fault(check_program, cmds) == "TileLegality"


def test_ordinary_tload_pad_is_zero():
    """asl/block/model/dispatch/tile-schema.asl SelectedBundleTileDataAttributesLegal: PadValue
    belongs to the CUBE conversions; ordinary TLOAD/TSTORE need PadValue Zero (issue 11)."""
    for layout, ok in ((0, {0}), (1, {0}), (22, {0, 1, 2, 3})):
        for pad in range(4):
            dtype = DTYPE_NONE if layout == 22 else 0
            cmds = [BStart.op("TLOAD", T.FP16.value), BDatr(layout=layout, dtype=dtype, pad=pad),
                    BDim(0, 0, 4), BDim(1, 0, 4), BIot(None, None, 1, 1, 7, 0), BStop()]
            assert fault(check_program, cmds) == (None if pad in ok else "TileLegality")
    for pad in (1, 3):  # TSTORE: Null is no exception
        cmds = [BStart.op("TSTORE", T.FP16.value), BDatr(layout=0, dtype=0, pad=pad),
                BDim(0, 0, 4), BDim(1, 0, 4), BIot(0, None, 1, 0, 7, None), BStop()]
        assert fault(check_program, cmds) == "TileLegality"


@avs("PTO-AVS-BLOCK-TMATMUL-TYPES-001")
def test_tmatmul_type_pairs():
    import ml_dtypes

    from interpreter.kernels.cube import cube_matrix

    one = np.ones((1, 1))
    pairs = (((np.float16, None), (ml_dtypes.float8_e4m3fn, None), np.float32),
             ((np.int16, None), (np.int8, "S4X2"), np.int32),
             ((np.uint16, None), (np.uint8, "U4X2"), np.uint32))  # fmt: skip
    for (adt, at), (bdt, bt), acc in pairs:
        r = cube_matrix("TMATMUL", one.astype(adt), one.astype(bdt), a_type=at, b_type=bt)
        assert r.dtype == acc and r[0, 0] == 1
    for t, dt in (("FP64", np.float64), ("E8M0", np.uint8), ("HiF4X2", np.uint8),
                  ("S64", np.int64), ("S32", np.int32), ("U64", np.uint64), ("U32", np.uint32)):
        x = one.astype(dt)
        assert fault(cube_matrix, "TMATMUL", x, x, a_type=t, b_type=t) == "TileLegality"
    assert fault(cube_matrix, "TMATMUL", one.astype(np.float16), one.astype(np.int16)) == (
        "TileLegality")


@avs("PTO-AVS-BLOCK-TMATMUL-BIAS-EXEC-001")
def test_tmatmul_bias_s16_by_s8():
    from interpreter.kernels.cube import cube_matrix

    a = np.array([[1, 2], [3, 4]], np.int16)
    b = np.array([[5, 6], [7, 8]], np.int8)
    r = cube_matrix("TMATMUL_BIAS", a, b, bias=np.array([[10, 20]], np.int32))
    assert r.dtype == np.int32 and r.tolist() == [[29, 42], [53, 70]]


@avs("PTO-AVS-TILE-MATRIX-BIAS-DESC-001")
def test_bias_is_one_row():
    from interpreter.kernels.cube import cube_matrix

    a, b = np.ones((1, 2), np.float16), np.ones((2, 2), np.float16)
    assert cube_matrix("TMATMUL_BIAS", a, b, bias=np.zeros((1, 2), np.float32)).shape == (1, 2)
    assert fault(cube_matrix, "TMATMUL_BIAS", a, b, bias=np.zeros((2, 1), np.float32)) == (
        "TileLegality")


@avs("PTO-AVS-BLOCK-B-FPATR-ZMASK-001")
def test_zero_mask_bindings_leave_fpatr_legal():
    cmds = [decode(0x00031181 | 4 << 27), decode(0x00005013), decode(0x00001013),
            decode(0x00002023), BStop()]  # fmt: skip
    assert [type(c) for c in cmds[1:4]] == [BIot, BIos, BFpatr]
    s = check_block(cmds)
    assert s.sources == () and s.shared == () and s.fpatr is not None


@avs("PTO-AVS-BLOCK-B-IOS-VEC-USE-001")
def test_vec_block_has_no_shared_operand():
    cmds = [decode(0x00019181 | 24 << 27), BIos(70, 0, 7), BStop()]
    assert fault(check_program, cmds) == "TileLegality"


@avs("PTO-AVS-BLOCK-TGEMV-SHARED-001")
def test_tgemv_is_local_only():
    cmds = [decode(0x01031181 | 26 << 27), BFpatr(), BIos(50, 0, 7), BStop()]
    assert fault(check_program, cmds) == "TileLegality"


@avs("PTO-AVS-BLOCK-TGEMV-CUBE-M-003")
def test_tgemv_explicit_m_two():
    base = [decode(0x01031181 | 4 << 27), BFpatr()]
    assert fault(check_program, [*base, BIot(1, 2, 1, 1, 7, 0), BStop()]) is None
    assert fault(check_program, [*base, BDim(0, 0, 2), BIot(1, 2, 1, 1, 7, 0), BStop()]) == (
        "TileLegality")


@avs("PTO-AVS-BLOCK-B-IOT-CONSUMER-001")
def test_local_destination_capacity():
    start = decode(0x00011181 | 25 << 27)  # TLOAD U32
    dst = decode(0x00006013 | 10 << 15 | 4 << 9 | 1 << 19)  # 64 KiB, mask 0001
    fits = [start, BDim(0, 0, 1), BDim(1, 0, 1), BDim(2, 0, 1), dst, BStop()]
    assert fault(check_program, fits) is None
    over = [start, BDim(0, 0, 16385), BDim(1, 0, 1), BDim(2, 0, 16385), dst, BStop()]
    assert fault(check_program, over) == "TileAllocation"


@avs("PTO-AVS-BLOCK-TLOAD-CUBE-TSIZE-006")
def test_cube_tload_needs_whole_cells():
    start, datr = decode(0x00011181 | 4 << 27), decode(0x00001023 | DTYPE_NONE << 20 | 23 << 7)
    dims = [BDim(0, 0, 19), BDim(1, 0, 13)]  # 13 x 19 FP16 N8: six CELLs, 768 B
    small = decode(0x00006013 | 3 << 9 | 1 << 15 | 1 << 19)  # 128 B
    assert fault(check_program, [start, datr, *dims, small, BStop()]) == "TileAllocation"
    big = decode(0x00006013 | 3 << 9 | 4 << 15 | 1 << 19)  # 1 KiB
    assert fault(check_program, [start, datr, *dims, big, BStop()]) is None
