"""Block AVS pass conditions translated in issue 11's last round (tests/asl/block/**): B.FPATR
post-processing values and legality tables, B.DATR, C.B.DIMI placement, the VEC/SFU engine
contracts, CUBE dimensions / Bias / TGEMV, TLOAD/TSTORE masks, B.IOT capacity and source
persistence (D17).

The B.FPATR value tests call the post-processing kernel the CUBE blocks run
(``interpreter.kernels.postprocess.validate`` + ``apply``, i.e. the ASL
``TileProfileMatrixPostProcessWithFlags``) on one accumulator element; parameter words are
built with ``quant_param_word`` (the ASL ``MatrixQuantParameter``). The expected values are
the AVS encodings, written here as raw bit patterns.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.utils.exceptions import PassFailedException

from conformance.inventory import avs
from conformance.model_support import verifies
from conformance.support import base_zero, bundled, capacity_in_use, run_both_levels, verify_error
from interpreter import NumericStatus, run
from interpreter.kernels.cube import cube_matrix
from interpreter.kernels.postprocess import (
    apply,
    lrelu_param_word,
    quant_param_word,
    reductions,
    validate,
)
from interpreter.kernels.postprocess_status import postprocess_flags
from interpreter.kernels.status import NV, NX, OF
from pto_dialect.datatypes import DTYPE_NONE
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from pto_dialect.isa import (
    TEPL_BY_NAME,
    AsmSyntaxError,
    BDatr,
    BDim,
    BFpatr,
    BIot,
    BStart,
    BStop,
    Engine,
    check_block,
    check_program,
    decode,
    parse_program,
)
from pto_dialect.isa.commands import LAYOUTS
from pto_dialect.postprocess import GROUP_N, PRE_QUANT_MODES, Fpatr, ParamKind


def fault(fn, *args, **kw) -> str | None:
    try:
        fn(*args, **kw)
    except PTOFault as e:
        return e.kind
    return None


# -- B.FPATR post-processing of one accumulator element ----------------------------------------
def q(scale: float, offset: int = 0, width: int = 0) -> int:
    """ASL ``MatrixQuantParameter(FP32ToFP19(scale), offset, width)``."""
    return quant_param_word(scale, offset, width)


def post_with_flags(mode: int, source: int, *, param: int | None = None, relu: int = 0,
                    slope: int | None = None, rmode: int = 0,
                    sat: bool = False) -> tuple[int, int]:  # fmt: skip
    """(destination encoding, NV DZ OF UF NX flags) of post-processing the accumulator
    element with bit pattern ``source`` (FP32 bits, or an S32 value for the S32 modes) under
    PreQuantMode ``mode`` / ReluMode ``relu``: the ASL ``TileProfileMatrixPostProcessWithFlags``.
    Integer encodings are signed values, float ones raw bits."""
    m = PRE_QUANT_MODES[mode]
    acc = T.S32 if m.acc is T.S32 else T.FP32
    vector, scalar = m.param is ParamKind.VECTOR, m.param is ParamKind.SCALAR
    p = validate(
        Fpatr(pre_quant_mode=mode, relu_mode=relu), 1, rmode, sat,
        np.array([param], np.uint64) if vector else None,
        np.array([slope], np.uint64) if relu == 3 else None,
        param if scalar else None, slope if relu == 2 else None, None, acc=acc,
    )  # fmt: skip
    if acc is T.S32:
        x = np.array([source & 0xFFFFFFFF], np.uint32).view(np.int32)
    else:
        x = np.array([source], np.uint32).view(np.float32)
    r = apply(x, p)
    flags = postprocess_flags(x, p, r)
    if r.dtype.kind in "iu":
        return int(r[0]), flags
    return int(r.view({1: np.uint8, 2: np.uint16, 4: np.uint32}[r.itemsize])[0]), flags


def post(mode: int, source: int, **kw) -> int:
    """The destination encoding of :func:`post_with_flags`."""
    return post_with_flags(mode, source, **kw)[0]


FP32_ONE, FP32_1_5, FP32_NAN, FP32_INF = 0x3F800000, 0x3FC00000, 0x7FC00000, 0x7F800000


@avs("PTO-AVS-BLOCK-B-FPATR-ACT-004")
def test_fpatr_activation_multiplier():
    """ReLU gives 0 for -2.0; scalar LReLU and vector PReLU with slope 0.5 replace the
    negative-path multiplier: -4.0 -> -2 in S8 (mode 24, scale 1); none records a flag."""
    assert post_with_flags(24, 0xC0000000, param=q(1.0, 0, 9), relu=1) == (0, 0)
    half = lrelu_param_word(0.5)
    assert post_with_flags(24, 0xC0800000, param=q(1.0, 0, 9), relu=2, slope=half) == (-2, 0)
    assert post_with_flags(24, 0xC0800000, param=q(1.0, 0, 9), relu=3, slope=half) == (-2, 0)


ALL_MODES = {
    # mode: (source, parameter, destination encoding) -- every assigned PreQuantMode on 1
    0: (FP32_ONE, None, FP32_ONE), 1: (FP32_ONE, None, 0x3C00), 2: (1, q(1, 0, 9), 1),
    3: (1, q(1, 0, 9), 1), 4: (1, q(1), 0x3C00), 5: (1, q(1), 0x3C00), 12: (2, 0, 1),
    13: (2, 0, 1), 16: (FP32_ONE, None, 0x3F80), 17: (1, q(1, 0, 5), 1),
    18: (1, q(1, 0, 5), 1), 19: (1, q(1, 0, 17), 1), 20: (1, q(1, 0, 17), 1),
    23: (FP32_ONE, q(1, 0, 9), 1), 24: (FP32_ONE, q(1, 0, 9), 1), 25: (FP32_ONE, q(1), 0x08),
    26: (FP32_ONE, q(1), 0x38), 27: (FP32_ONE, q(1), FP32_ONE), 28: (FP32_ONE, q(1), 0x08),
    32: (FP32_ONE, q(1), 0x3C00), 33: (FP32_ONE, q(1), 0x3C00), 34: (FP32_ONE, q(1), 0x3F80),
    35: (1, q(1), 0x3F80), 36: (FP32_ONE, q(1), 0x3F80), 37: (FP32_ONE, q(1), 0x38),
    38: (FP32_ONE, q(1), FP32_ONE), 39: (1, q(1), 0x3F80),
}  # fmt: skip


@avs("PTO-AVS-BLOCK-B-FPATR-ALL-MODES-007")
def test_fpatr_every_mode_on_unit_value():
    assert set(ALL_MODES) == set(PRE_QUANT_MODES)  # the 27 assigned modes
    for mode, (source, param, expected) in ALL_MODES.items():
        assert post_with_flags(mode, source, param=param) == (expected, 0), mode


@avs("PTO-AVS-BLOCK-B-FPATR-FORMATS-003")
def test_fpatr_float_formats():
    """1.5 in FP16 0x3E00, BF16 0x3FC0, E4M3 0x3C, HiF8 0x0C; scaled FP32 by 0.5 is 0.75;
    every one exact: no flags."""
    assert post_with_flags(1, FP32_1_5) == (0x3E00, 0)
    assert post_with_flags(16, FP32_1_5) == (0x3FC0, 0)
    assert post_with_flags(26, FP32_1_5, param=q(1)) == (0x3C, 0)
    assert post_with_flags(25, FP32_1_5, param=q(1)) == (0x0C, 0)
    assert post_with_flags(27, FP32_1_5, param=q(0.5)) == (0x3F400000, 0)


@avs("PTO-AVS-BLOCK-B-FPATR-QUANT-002")
def test_fpatr_scalar_quantization():
    """REQ8: 3 x 2 - 1 = 5; 70 x 2 = 140 wraps to -116 (Sat 0) or clamps to 127 (Sat 1);
    SHIFTS322S16 by 1: -33 -> -17, INT32_MAX -> 32767 (saturated). Wrapping and clamping
    both overflow (OF|NX 0x14); the bits a shift drops are not inexactness."""
    assert post_with_flags(3, 3, param=q(2.0, -1, 9)) == (5, 0)
    assert post_with_flags(3, 70, param=q(2.0, 0, 9)) == (-116, OF | NX)
    assert post_with_flags(3, 70, param=q(2.0, 0, 9), sat=True) == (127, OF | NX)
    assert post_with_flags(13, -33, param=0) == (-17, 0)
    assert post_with_flags(13, 0x7FFFFFFF, param=0) == (0x7FFF, OF | NX)


@avs("PTO-AVS-BLOCK-B-FPATR-ROUNDING-008")
def test_fpatr_intermediate_saturation():
    """The S9/S5/S17 intermediate saturates before the offset, then Sat 0 wraps: REQ8 300 ->
    255 + 1 = 256 -> 0; REQ4 20 -> 15 + 1 -> 0; DEQS16 70000 -> 65535 + 1 -> 0."""
    for mode, source, width in ((3, 300, 9), (17, 20, 5), (19, 70000, 17)):
        assert post_with_flags(mode, source, param=q(1.0, 1, width)) == (0, OF | NX), mode
    assert post_with_flags(13, 0x7FFFFFFF, param=0) == (0x7FFF, OF | NX)


@avs("PTO-AVS-BLOCK-B-FPATR-SPECIAL-005")
def test_fpatr_special_values():
    """NaN / +-inf into S8 without Sat: INT8_MIN and NV; with Sat NaN 0 (NV), +inf 127
    (OF|NX). Into floats a quiet NaN records nothing, a signalling one NV, a saturated
    infinity OF|NX (ASL ``MatrixPostQuantSpecialValue``)."""
    p9 = q(1.0, 0, 9)
    for special in (FP32_NAN, FP32_INF, 0xFF800000):  # S8 Sat 0: INT8_MIN
        assert post_with_flags(24, special, param=p9) == (-128, NV)
    assert post_with_flags(24, FP32_NAN, param=p9, sat=True) == (0, NV)
    assert post_with_flags(24, FP32_INF, param=p9, sat=True) == (127, OF | NX)
    assert post_with_flags(26, FP32_NAN, param=q(1)) == (0x7F, 0)  # E4M3 NaN
    assert post_with_flags(32, FP32_NAN, param=q(1), sat=True) == (0, 0)
    assert post_with_flags(32, 0x7F800001, param=q(1), sat=True) == (0, NV)  # signalling
    assert post_with_flags(32, FP32_INF, param=q(1), sat=True) == (0x7BFF, OF | NX)
    assert post_with_flags(32, FP32_NAN, param=q(1)) == (0x7E00, 0)  # canonical FP16 NaN
    assert post_with_flags(25, FP32_NAN, param=q(1)) == (0x80, 0)  # HiF8 NaN


@avs("PTO-AVS-BLOCK-B-FPATR-ZERO-AFFINE-009")
def test_fpatr_signed_zero_affine():
    for zero in (0, 0x80000000):
        assert post_with_flags(24, zero, param=q(1.0, 5, 9)) == (5, 0)
    assert post_with_flags(24, 0, param=q(1.0, -5, 9)) == (-5, 0)
    assert post_with_flags(24, 0x80000000, param=q(1.0, 0, 9)) == (0, 0)


@avs("PTO-AVS-BLOCK-B-FPATR-COMMIT-006")
def test_fpatr_commit_values():
    """QF322B8_PRE with scale 2 on a committed FP32 accumulator row [1.5, 70.0]: a decoded
    TMATMUL block reads the parameter word through B.IOR RegSrc0 and publishes [3, -116]
    (140 wraps to 0x8C), as the tile level does; the run's numeric status goes from 0 to
    OF|NX (0x14) with the commit, at both levels and in both engines."""
    a, b = "!pto.tile<1x1xf16, cube_m16, mat>", "!pto.tile<1x2xf16, cube_n8, mat>"
    d = "!pto.tile<1x2xsi8, cube_m16, mat>"
    text = (f"func.func @f(%a: {a}, %b: {b}, %q: i64) -> {d} {{\n"
            f"  %d = pto.tmatmul %a, %b, quant_scalar %q "
            f"{{fpatr = #pto.fpatr<pre_quant_mode = 24>}} : ({a}, {b}, i64) -> {d}\n"
            f"  func.return %d : {d}\n}}")  # fmt: skip
    (blk,) = [o for o in bundled(text).walk() if o.name == "pto.block"]
    s = blk.summary()
    assert s.fpatr.pre_quant_mode == 24 and s.scalars.src0 != 0 and s.scalars.src1 == 0
    ones, acc = np.ones((1, 1), np.float16), np.array([[1.5, 70.0]], np.float16)
    r = run_both_levels(text, ones, acc, q(2.0, 0, 9))
    assert r.dtype == np.int8 and (r == [[3, -116]]).all()
    for program in (text, bundled(text)):
        for engine in ("xdsl", "compiled"):
            status = NumericStatus()
            assert status.bits == 0
            run(program, "f", ones, acc, q(2.0, 0, 9), engine=engine, flags=status)
            assert status.bits == OF | NX, engine
    assert post(24, FP32_1_5, param=q(2.0, 0, 9)) == 3
    assert post(24, 0x428C0000, param=q(2.0, 0, 9)) == -116


FIXED_ROUNDING = {1, 16, 25, 26, 28, 32, 33, 34, 36, 37}
"""PreQuantModes whose rounding is fixed (ASL ``BundleFPATRModeFixedRounding``)."""


def legal(mode: int, acc: T | None = None, rmode: int = 0, sat: bool = False) -> bool:
    """``validate`` accepts PreQuantMode ``mode`` on accumulator ``acc`` (default: the
    mode's own class) with B.DATR RMode ``rmode`` / Sat ``sat``, given a legal parameter."""
    m = PRE_QUANT_MODES[mode]
    v, s = m.param is ParamKind.VECTOR, m.param is ParamKind.SCALAR
    w = q(1, 0, m.offset_bits) if m.op.value == "scale" else 0
    return fault(validate, Fpatr(pre_quant_mode=mode), 1, rmode, sat,
                 np.array([w], np.uint64) if v else None, None, w if s else None, None,
                 None, acc=acc or m.acc or T.FP32) is None  # fmt: skip


def datr_legal(mode: int, rmode: int, sat: bool) -> bool:
    """Our B.FPATR x B.DATR cross rule (ASL ``BundleFPATRDATRFieldsLegal``)."""
    return legal(mode, rmode=rmode, sat=sat)


@avs("PTO-AVS-BLOCK-B-FPATR-CONTROLS-010")
def test_fpatr_fixed_controls():
    """Fixed-rounding modes reject a nonzero RMode (Sat stays programmable); shift modes
    reject RMode and Sat; programmable modes keep both. The fixed modes round RNE (FP16
    1 + 2^-11 -> 0x3C00, E4M3 1.0625 -> 0x38) and HiF8 RHB (1.0625 -> 0x09)."""
    for mode in PRE_QUANT_MODES:
        if mode == 0:
            continue
        fixed = mode in FIXED_ROUNDING
        assert (PRE_QUANT_MODES[mode].fixed_rounding is not None) == fixed
        shift = mode in (12, 13)
        assert datr_legal(mode, 0, False)
        assert datr_legal(mode, 0, True) == (not shift)
        assert datr_legal(mode, 1, False) == (not fixed and not shift)
    assert not datr_legal(26, 5, True) and datr_legal(3, 1, False) and datr_legal(19, 5, True)
    assert post_with_flags(32, 0x3F801000, param=q(1)) == (0x3C00, NX)
    assert post_with_flags(26, 0x3F880000, param=q(1)) == (0x38, NX)
    assert post_with_flags(25, 0x3F880000, param=q(1)) == (0x09, NX)


S32_MODES = {2, 3, 4, 5, 12, 13, 17, 18, 19, 20, 35, 39}


@avs("PTO-AVS-BLOCK-B-FPATR-INPUT-TYPE-002")
def test_fpatr_accumulator_class():
    """Mode 0 takes any accumulator; every other mode exactly its class (S32 or FP32), never
    U32 (ASL ``BundleFPATRAccumulatorTypeLegal``), checked by ``validate`` before effects."""

    for mode in PRE_QUANT_MODES:
        if mode == 0:
            assert all(legal(0, acc) for acc in (T.FP32, T.S32, T.U32))
            continue
        own, other = (T.S32, T.FP32) if mode in S32_MODES else (T.FP32, T.S32)
        assert legal(mode, own) and not legal(mode, other) and not legal(mode, T.U32), mode


OUTPUT_TYPES = {
    0: T.FP32, 1: T.FP16, 2: T.S8, 3: T.S8, 4: T.FP16, 5: T.FP16, 12: T.S16, 13: T.S16,
    16: T.BF16, 17: T.S4X2, 18: T.S4X2, 19: T.S16, 20: T.S16, 23: T.S8, 24: T.S8, 25: T.HIF8,
    26: T.E4M3, 27: T.FP32, 28: T.HIF8, 32: T.FP16, 33: T.FP16, 34: T.BF16, 35: T.BF16,
    36: T.BF16, 37: T.E4M3, 38: T.FP32, 39: T.BF16,
}  # fmt: skip
VECTOR_MODES = {2, 4, 12, 18, 20, 23, 28, 33, 36, 37, 38, 39}
SCALAR_MODES = set(OUTPUT_TYPES) - VECTOR_MODES - {0, 1, 16}


@avs("PTO-AVS-BLOCK-B-FPATR-MODE-TABLE-BOUNDARY-001",
     unchecked="BundleFPATRDATRFieldsLegal(PreQuantMode 0, RMode != 0 or Sat) is FALSE, but "
               "the CUBE block path (ExecuteBundleTMATMULOperation) never evaluates it and "
               "AVS TMATMUL-EXEC-001 completes such a block: we follow the executed path")  # fmt: skip
def test_fpatr_mode_table():
    assert set(PRE_QUANT_MODES) == set(OUTPUT_TYPES) and 14 not in PRE_QUANT_MODES
    for mode, out in OUTPUT_TYPES.items():
        m = PRE_QUANT_MODES[mode]
        assert (m.out or T.FP32) is out, mode  # mode 0 keeps the (FP32) accumulator
        assert (m.param is ParamKind.VECTOR) == (mode in VECTOR_MODES), mode
        assert (m.param is ParamKind.SCALAR) == (mode in SCALAR_MODES), mode
    assert Fpatr(relu_mode=2).scalar_params() == ("lrelu_scalar",)
    assert Fpatr(relu_mode=3).vector_param_sources() == ("prelu",)
    assert Fpatr(relu_mode=1).scalar_params() == () == Fpatr().vector_param_sources()
    assert fault(decode, 0x00002023 | 4 << 23, strict=True) == "IllegalInstruction"  # ReLU 4
    assert GROUP_N == (0, 8, 16, 32, 48, 64, 80, 96, 112, 128)

    def legal(group_n_code=0, row_max_en=0, group_max_en=0, row_max_init=0, max_abs_en=0):
        return not Fpatr(group_n_code=group_n_code, row_max_en=row_max_en,
                         group_max_en=group_max_en, row_max_init=row_max_init,
                         max_abs_en=max_abs_en).consistency_errors()  # fmt: skip

    assert not legal(group_n_code=1) and not legal(row_max_init=1) and not legal(max_abs_en=1)
    assert legal() and legal(row_max_en=1, max_abs_en=1)
    assert legal(group_n_code=1, group_max_en=1, max_abs_en=1)
    assert legal(group_n_code=1, row_max_en=1, group_max_en=1, max_abs_en=1)
    assert not legal(group_max_en=1) and not legal(group_n_code=1, row_max_init=1)
    assert datr_legal(0, 0, False) and datr_legal(12, 0, False)
    assert not datr_legal(12, 0, True) and not datr_legal(12, 1, False)
    assert not datr_legal(13, 2, True) and not datr_legal(1, 6, True) and datr_legal(1, 0, False)
    assert not datr_legal(1, 7, True) and datr_legal(3, 7, True)
    # GroupMax columns: ceil(N / GroupN), a partial final group counts
    for code, n, groups in ((1, 3, 1), (1, 8, 1), (1, 9, 2), (1, 127, 16), (1, 128, 16),
                            (9, 127, 1), (9, 128, 1), (9, 129, 2)):  # fmt: skip
        fp = Fpatr(group_n_code=code, group_max_en=1)
        (gmax,) = reductions(np.ones((1, n), np.float32), fp, None)
        assert gmax.shape == (1, groups), (code, n)


@avs("PTO-AVS-BLOCK-B-FPATR-RESET-CLEAR-001")
def test_fpatr_cleared_at_block_reset():
    """A block's B.FPATR does not outlive it: the next CUBE block without one is
    BundleControl (presence cleared), and its summary starts from the all-zero fields."""
    with_fp = [BStart.op("TMATMUL", 4), BFpatr(relu_mode=1), BIot(1, 2, 1, 1, 7, 0), BStop()]
    (s,) = check_program(with_fp)
    assert s.fpatr == Fpatr(relu_mode=1)
    assert fault(check_program, [*with_fp, BStart.op("TMATMUL", 4),
                                 BIot(1, 2, 1, 1, 7, 0), BStop()]) == "BundleControl"  # fmt: skip
    s1, s2 = check_program([*with_fp, BStart.op("TMATMUL", 4), BFpatr(),
                            BIot(1, 2, 1, 1, 7, 0), BStop()])  # fmt: skip
    assert s2.fpatr == Fpatr() and all(v == 0 for v in s2.fpatr.as_tuple())


@avs("PTO-AVS-BLOCK-B-FPATR-OPERAND-ROUTING-EXECUTION-001",
     unchecked="its last step, two CUBE destinations given one raw tile ID (21): no B.IOT "
               "encodes it (DstTile is a 2-bit hand; the CUBE path gives every destination its "
               "own unallocated register, even in one hand: ResolveBundleTMATMULCubeDestination"
               "Group), and that path never evaluates BundleOperationBindingsComplete")  # fmt: skip
def test_fpatr_operand_routing():
    """LReLU alone reads RegSrc0; scalar quant + LReLU read RegSrc0 then RegSrc1 (dense);
    a Local stream keeps its sources and its three destinations (D, RowMax, GroupMax) in
    order."""
    from pto_dialect.block_ops import scalar_roles

    lrelu = check_block([BStart.op("TMATMUL", 4), BFpatr(relu_mode=2),
                         BIot(1, 2, 1, 1, 7, 0), BStop()])  # fmt: skip
    assert scalar_roles(lrelu) == ("lrelu_scalar",)
    pair = check_block([BStart.op("TMATMUL", 18), BFpatr(pre_quant_mode=3, relu_mode=2),
                        BIot(1, 2, 1, 1, 7, 0), BStop()])  # fmt: skip
    assert scalar_roles(pair) == ("quant_scalar", "lrelu_scalar")
    fp = BFpatr(0, 3, 1, 1, 1, 0, 0)  # PReLU: sources A, B, prelu; 3 destinations
    stream = [BStart.op("TMATMUL", 4), fp, BIot(0, 1, 0, 1, 7, 20), BIot(2, None, 0, 1, 7, 21),
              BIot(None, None, 1, 1, 7, 22), BStop()]  # fmt: skip
    s = check_block(stream)
    assert s.sources == (0, 1, 2) and [h for h, _ in s.destinations] == [20, 21, 22]


# -- B.DATR, C.B.DIMI ----------------------------------------------------------------------------
@avs("PTO-AVS-BLOCK-TESTBUNDLEDATAATTRIBUTES-EXECUTION-001")
def test_datr_attributes_reach_the_operation():
    """Layout codes 0, 1, 30 are assigned, 2 is not; a TCVT block's B.DATR gives the
    operation its DataType, Null pad, RTZ rounding and saturation; reserved DataType codes
    (15, 21-23, 29, 30) are IllegalInstruction at decode, before any effect."""
    assert {0, 1, 30} <= set(LAYOUTS) and 2 not in LAYOUTS
    s = check_block(parse_program("BSTART.VEC TCVT, FP32\nB.DATR NORM, U32, Null, RTZ, SAT\n"
                                  "C.B.DIMI 2, ->lb0\nB.IOT t#1, mask=1111, last, ->t<128B>\n"
                                  "BSTOP\n"))  # fmt: skip
    assert (s.b_type, s.datr.pad, s.datr.rmode, s.datr.sat) == (T.U32.value, 3, 2, 1)
    for code in (15, 21, 22, 23, 29, 30):
        assert fault(decode, 0x00001023 | code << 20, strict=True) == "IllegalInstruction"


@avs("PTO-AVS-BLOCK-C-B-DIMI-PLACE-001",
     unchecked="the block body (commands after the header) is not modelled: a block is its "
               "header, so only the standalone placement is checked")  # fmt: skip
def test_dimi_outside_block():
    assert fault(check_program, [decode(0x007C, 16)]) == "BundleControl"


# -- BSTART.VEC / BSTART.SFU engine contracts ----------------------------------------------------
NON_TEPL = ("TLOAD TSTORE TMOV TPREFETCH MGATHER MSCATTER MGATHER_MASK MSCATTER_MASK MGATHER_CAS "
            "GMOV TMATMUL TMATMUL_BIAS TMATMUL_ACC TMATMUL_MX TMATMUL_MX_BIAS TMATMUL_MX_ACC "
            "TGEMV TGEMV_BIAS TGEMV_ACC TGEMV_MX TGEMV_MX_BIAS TGEMV_MX_ACC").split()  # fmt: skip
"""Operation indices 87..108 of the catalog (TLSU then CUBE); 0..86 are the TEPL selectors."""
VEC_INDICES = {0, 1, 2, *range(5, 16), *range(21, 28), *range(30, 40)}
"""Indices BSTART.VEC accepts (AVS BSTART-VEC-ENGINE-001); BSTART.SFU accepts the other TEPL."""


@avs("PTO-AVS-BLOCK-BSTART-VEC-ENGINE-001", "PTO-AVS-BLOCK-BSTART-SFU-ENGINE-001")
def test_engine_carriers_accept_their_operations():
    ops = [*TEPL_BY_NAME, *NON_TEPL]
    assert len(ops) == 109
    for index, name in enumerate(ops):
        for carrier, engine in (("VEC", Engine.VEC), ("SFU", Engine.SFU)):
            try:
                parse_program(f"BSTART.{carrier} {name}, FP32\n")
                accepted = True
            except AsmSyntaxError:
                accepted = False
            expected = index < 87 and (index in VEC_INDICES) == (engine is Engine.VEC)
            assert accepted == expected, (carrier, index, name)
            if index < 87:
                assert (TEPL_BY_NAME[name].engine is engine) == expected


# -- CUBE blocks ---------------------------------------------------------------------------------
def _cube(op: str, a: str, b: str, d: str, bias: str | None = None) -> str:
    ins = f"%a: {a}, %b: {b}" + (f", %c: {bias}" if bias else "")
    tys = f"{a}, {b}" + (f", {bias}" if bias else "")
    ops = "%a, %b" + (", %c" if bias else "")
    return (f"func.func @f({ins}) -> {d} {{\n  %d = pto.{op} {ops} : ({tys}) -> {d}\n"
            f"  func.return %d : {d}\n}}")  # fmt: skip


@avs("PTO-AVS-BLOCK-TMATMUL-DIM-001")
def test_tmatmul_dimension_rejection():
    """A decoded TMATMUL with an explicit M = 0, or an explicit K = 3 that its 1 x 1 Local
    sources do not have (``TileMatrixInfosMatchDimensions``), is TileLegality before any
    destination exists (the verifier refuses the block; the sources are unchanged SSA
    values)."""
    text = _cube("tmatmul", "!pto.tile<1x1xf16, cube_m16, mat>",
                 "!pto.tile<1x1xf16, cube_n8, mat>", "!pto.tile<1x1xf32, cube_m16, mat>")
    linked = str(bundled(text))
    assert verify_error(linked) is None
    iot = "      pto.b.iot"
    for lb, value in ((0, 0), (2, 3)):
        dim = f"      pto.b.dimi <lb = {lb}, imm = {value}>\n"
        err = verify_error(linked.replace(iot, dim + iot, 1))
        assert err is not None and "[TileLegality]" in err, (lb, err)
    cmds = [BStart.op("TMATMUL", T.FP16.value), BFpatr(), BDim(0, 0, 0),
            BIot(1, 2, 1, 1, 7, 0), BStop()]  # fmt: skip
    assert fault(check_program, cmds) == "TileLegality"  # the unlinked block too


@avs("PTO-AVS-BLOCK-TMATMUL-BIAS-SHAPE-001")
def test_tmatmul_bias_shapes():
    """Bias must be a row-major 1 x N tile of the result type: 1 x 1, M x 1 and M x N
    shapes, an input-typed (FP16) and a CUBE-layout Bias are TileLegality before any
    destination (kernel and verifier); a 1 x N FP32 Bias adds to each row."""
    a = b = np.ones((2, 2), np.float16)
    for bias in (np.zeros((1, 1), np.float32), np.zeros((2, 1), np.float32),
                 np.zeros((2, 2), np.float32), np.zeros((1, 2), np.float16)):  # fmt: skip
        assert fault(cube_matrix, "TMATMUL_BIAS", a, b, bias=bias) == "TileLegality", bias.shape
    mat_a, mat_b = "!pto.tile<2x2xf16, cube_m16, mat>", "!pto.tile<2x2xf16, cube_n8, mat>"
    d = "!pto.tile<2x2xf32, cube_m16, mat>"
    for bias in ("!pto.tile<1x2xf32, cube_m16, mat>", "!pto.tile<32x2xf16, valid=1x2>",
                 "!pto.tile<32x1xf32, valid=2x1>", "!pto.tile<16x2xf32, valid=2x2>"):  # fmt: skip
        err = verify_error(_cube("tmatmul_bias", mat_a, mat_b, d, bias))
        assert err is not None and "[TileLegality]" in err, (bias, err)
    ok = _cube("tmatmul_bias", mat_a, mat_b, d, "!pto.tile<32x2xf32, valid=1x2>")
    r = run_both_levels(ok, a, b, np.array([[1.0, 2.0]], np.float32))
    assert r[0].tolist() == [[3, 4], [3, 4]]


@avs("PTO-AVS-BLOCK-TGEMV-CUBE-002")
def test_tgemv_k9_n10():
    """TGEMV at M = 1 of a 1 x 9 CUBE_M16 FP16 vector and a 9 x 10 (multi-CELL) CUBE_N8
    matrix of ones publishes a 1 x 10 CUBE_M16 FP32 destination of nines (decoded block
    LB1 = 10, LB2 = 9)."""
    text = _cube("tgemv", "!pto.tile<1x9xf16, cube_m16, mat>",
                 "!pto.tile<9x10xf16, cube_n8, mat>", "!pto.tile<1x10xf32, cube_m16, mat>")
    (blk,) = [o for o in bundled(text).walk() if o.name == "pto.block"]
    assert blk.summary().dims == (1, 10, 9)
    r = run_both_levels(text, np.ones((1, 9), np.float16), np.ones((9, 10), np.float16))
    assert r.dtype == np.float32 and r.shape[1:] == (1, 10) and (r == 9).all()


# -- TLOAD / TSTORE masks, B.IOT capacity and persistence ----------------------------------------
@avs("PTO-AVS-BLOCK-TLOAD-CUBE-MASK-008")
def test_cube_tload_partial_mask_and_zero_mode():
    """PEMode 101 (mask 1100) on a CUBE TLOAD is legal, loads GM word 0x1234 onto PEs 0 and 1
    only and charges two 128 B fragments of core tile capacity (256 B); PEMode 0 makes a block
    with a store conversion (M162ND on a TLOAD) a strict no-op that allocates nothing."""
    cube = BDatr(layout=22, dtype=DTYPE_NONE, pad=0)
    s = check_block([BStart.op("TLOAD", T.FP16.value), cube, BDim(0, 0, 1), BDim(1, 0, 1),
                     BIot(last=1, size_code=1, pe_mode=5, dst_hand=0), BStop()])  # fmt: skip
    assert s.mask == "1100" and not s.noop
    text = _load("tensor<1x1xf16>", "!pto.tile<1x1xf16, cube_m16, mat, pe=1100>")
    r = run_both_levels(text, _fp16_words([[0x1234]]), 0)
    assert r.shape == (2, 1, 1) and (r.view(np.uint16) == 0x1234).all()
    assert capacity_in_use(text) == [2 * 128]
    wrong = BDatr(layout=25, dtype=DTYPE_NONE, pad=0)  # a store conversion on a TLOAD
    s = check_block([BStart.op("TLOAD", T.FP16.value), wrong,
                     BIot(last=1, size_code=1, pe_mode=0, dst_hand=0), BStop()])  # fmt: skip
    assert s.noop and s.destinations == ()
    assert _zero_mode_capacity(text) == 0


def _zero_mode_capacity(text: str) -> int:
    """The core capacity held after the one block of ``text`` with its B.IOT PEMode set to 0
    (a strict no-op: its destination is not allocated)."""
    from xdsl.dialects import func

    from passes.pto_assign_registers import assign_function
    from pto_dialect.block_ops import BlockCommandOp, BlockOp
    from pto_dialect.isa import BIot as Iot

    m = bundled(text)
    (blk,) = [o for o in m.walk() if isinstance(o, BlockOp)]
    for c in list(blk.body.block.ops):
        cmd = c.to_command()
        if isinstance(cmd, Iot):
            blk.body.block.insert_op_before(BlockCommandOp.from_command(cmd.replace(pe_mode=0)), c)
            blk.body.block.erase_op(c)
    assert blk.summary().noop
    (fn,) = [o for o in m.walk() if isinstance(o, func.FuncOp)]
    return assign_function(fn).in_use[blk]


@avs("PTO-AVS-BLOCK-B-IOT-CAPACITY-003")
def test_iot_size_code_10_fills_a_pe():
    """A 128 x 128 U32 TLOAD destination (64 KiB) fits SizeCode 10 on every PE; one more
    row does not (TileAllocation). On all four PEs it commits four 64 KiB fragments and
    charges exactly the 256 KiB core tile capacity without a fault; a further 128 B tile
    live at the same time is TileAllocation."""
    def block(rows: int):
        return [BStart.op("TLOAD", T.U32.value), BDim(0, 0, 128), BDim(1, 0, rows),
                BDim(2, 0, 128), BIot(last=1, size_code=10, pe_mode=7, dst_hand=0), BStop()]

    s = check_block(block(128))
    assert s.mask == "1111" and s.destinations == ((0, 10),)
    assert fault(check_block, block(129)) == "TileAllocation"
    full = "!pto.tile<128x128xui32>"
    text = _load("tensor<128x128xi32>", full)
    gm = np.arange(128 * 128, dtype=np.int32).reshape(128, 128)
    r = run_both_levels(text, gm, 0)
    assert r.shape == (4, 128, 128) and (r == gm).all()
    assert capacity_in_use(text) == [4 * 65536]
    small = "!pto.tile<32x1xui32>"
    both = f"""func.func @f(%m: tensor<128x128xi32>, %s: tensor<32x1xi32>) -> ({full}, {small}) {{
  %c0 = arith.constant 0 : index
  %a = pto.tload %m[%c0, %c0] : tensor<128x128xi32> -> {full}
  %b = pto.tload %s[%c0, %c0] : tensor<32x1xi32> -> {small}
  func.return %a, %b : {full}, {small}
}}"""
    with pytest.raises(PassFailedException, match=r"^\[TileAllocation\].*262144 B of the "):
        bundled(both)


@avs("PTO-AVS-BLOCK-B-IOT-SOURCE-PERSIST-001")
def test_iot_sources_persist():
    """Two decoded blocks read the same Local source; the first block's completion leaves it
    allocated and unchanged (the second reads the original payload), as do the inputs."""
    tile = "!pto.tile<16x2xf32, valid=1x2>"
    text = f"""func.func @f(%a: {tile}, %b: {tile}) -> {tile} {{
  %s = pto.tadd %a, %b : {tile}
  %t = pto.tsub %s, %a : {tile}
  %u = pto.tadd %t, %a : {tile}
  func.return %u : {tile}
}}"""
    a = np.array([[1.5, -2.0]], np.float32)
    b = np.array([[4.0, 8.0]], np.float32)
    a0, b0 = a.copy(), b.copy()
    r = run_both_levels(text, a, b)
    assert r.shape == (4, 1, 2) and (r == [[5.5, 6.0]]).all()  # on every PE
    assert np.array_equal(a, a0) and np.array_equal(b, b0)



# -- decoded TLOAD / TSTORE blocks on GM tensors -------------------------------------------------
# GM is a tensor operand here: a linked TLOAD/TSTORE block reads its base and row stride as the
# tensor and its element offsets (B.IOR RegSrc0/RegSrc1 = a0/a1, docs/blocks.md), so a byte row
# stride is the tensor's row pitch times the element size.

def _move(body: str, args: str, result: str) -> str:
    return (f"func.func @f({args}) -> {result} {{\n  %c0 = arith.constant 0 : index\n{body}\n"
            f"  func.return %r : {result}\n}}")  # fmt: skip


def _load(tensor: str, tile: str, pad: str = "") -> str:
    props = f" {{pad = {pad}}}" if pad else ""
    return _move(f"  %r = pto.tload %m[%i, %c0]{props} : {tensor} -> {tile}",
                 f"%m: {tensor}, %i: index", tile)  # fmt: skip


def _store(tile: str, tensor: str) -> str:
    return _move(f"  %r = pto.tstore %t, %o[%i, %c0] : {tile} -> {tensor}",
                 f"%t: {tile}, %o: {tensor}, %i: index", tensor)  # fmt: skip


def _decoded_tile(text: str, *args):
    """The TileValue (payload and definedness of every PE) the module's one decoded block
    produces (``interpreter.ssa.block_functions.block_plan``)."""
    from interpreter.ssa.block_functions import block_plan
    from pto_dialect.block_ops import BlockOp

    (blk,) = [o for o in bundled(text).walk() if isinstance(o, BlockOp)]
    (value,) = block_plan(blk, "ordered")(*args)
    return blk, value


def _fp16_words(words) -> np.ndarray:
    return np.asarray(words, np.uint16).view(np.float16)


@avs("PTO-AVS-BLOCK-TLOAD-CUBE-002")
def test_cube_tload_m16():
    """ND2M16 of a 2 x 3 FP16 GM block (raw words 1..6) onto PE0: the decoded block is a CUBE
    TLOAD (B.DATR ND2M16, LB0 3, LB1 2) whose Matrix destination holds the raw payload, and
    PadValue Max fills (and defines) the rest of the CELL with 0x7BFF."""
    tile = "!pto.tile<16x4xf16, valid=2x3, cube_m16, mat, pe=1000>"
    text = _load("tensor<2x3xf16>", tile, pad="max")
    gm = _fp16_words(np.arange(1, 7).reshape(2, 3))
    r = run_both_levels(text, gm, 0)
    assert r.view(np.uint16).tolist() == [[[1, 2, 3], [4, 5, 6]]]  # PE0 only
    blk, value = _decoded_tile(text, gm, 0, 0)
    s = blk.summary()
    assert (s.datr.layout, s.lb[:2], s.mask) == (22, (3, 2), "1000")
    payload = value.payloads[0].view(np.uint16)
    assert payload[0, 0] == 1 and payload[1, 2] == 6 and payload[2, 0] == 0x7BFF
    assert value.defined[0][2, 0] and value.pes == [0]


def _at_origin(body: str, args: str, result: str, rows: int) -> str:
    """A function moving at [0, 0] (``_move`` with constant offsets) with ``row_stride``."""
    props = "" if rows == 1 else f" {{row_stride = {rows}}}"
    return _move(body.replace("[%i, %c0]", f"[%c0, %c0]{props}"), args.replace(", %i: index", ""),
                 result)  # fmt: skip


def _tload_at_origin(tensor: str, tile: str, rows: int = 1) -> str:
    return _at_origin(f"  %r = pto.tload %m[%i, %c0] : {tensor} -> {tile}", f"%m: {tensor}, %i: index",
                      tile, rows)  # fmt: skip


def _tstore_at_origin(tile: str, tensor: str, rows: int = 1) -> str:
    return _at_origin(f"  %r = pto.tstore %t, %o[%i, %c0] : {tile} -> {tensor}",
                      f"%t: {tile}, %o: {tensor}, %i: index", tensor, rows)  # fmt: skip


@avs("PTO-AVS-BLOCK-TLOAD-STRIDE-001")
def test_tload_row_stride():
    """U32 2 x 2 with an explicit 12-byte row stride (B.IOR [a0, a1], pitch 3) reads GM words
    0, 1, 3, 4; an omitted B.IOR (no LB2: Col = ValidCol) reads from GM address 0 at the dense
    8-byte stride (words 0..3); an encoded-zero stride (B.IOR [zero, zero], LB2 = 4) makes both
    rows read words 0, 1. The omitted / zero forms need the tensor to be GM from address 0
    (constant offsets 0), and an omitted B.IOR a dense tensor (docs/blocks.md)."""
    tile = "!pto.tile<32x2xui32, valid=2x2, pe=1000>"
    strided = np.array([[1, 2, 99], [3, 4, 99]], np.int32)
    assert run_both_levels(_load("tensor<2x3xi32>", tile), strided, 0)[0].tolist() == [[1, 2], [3, 4]]
    dense = np.array([[5, 6], [7, 8]], np.int32)
    assert run_both_levels(_load("tensor<2x2xi32>", tile), dense, 0)[0].tolist() == [[5, 6], [7, 8]]
    omitted = base_zero(_tload_at_origin("tensor<2x2xi32>", tile), None)
    assert "pto.b.ior" not in omitted
    assert run(omitted, "f", dense)[0][0].tolist() == [[5, 6], [7, 8]]
    wide = "!pto.tile<32x4xui32, valid=2x2, pe=1000>"  # Col 4: LB2 = 4
    gm = np.array([[9, 10, 0, 0]], np.int32)
    zero = _tload_at_origin("tensor<1x4xi32>", wide, rows=0)
    assert run_both_levels(zero, gm)[0].tolist() == [[9, 10], [9, 10]]  # B.IOR [a0, zero]
    assert run(base_zero(zero, "zero"), "f", gm)[0][0].tolist() == [[9, 10], [9, 10]]
    # the forms whose operands do not describe GM from address 0 at that stride
    assert "rows must be 8 B" in verify_error(
        base_zero(_tload_at_origin("tensor<2x3xi32>", tile), None))
    assert "constant offsets [0, 0]" in verify_error(base_zero(_load("tensor<2x2xi32>", tile), None))
    assert "row_stride is 1, not 0" in verify_error(
        base_zero(_tload_at_origin("tensor<2x4xi32>", wide), "zero"))


@avs("PTO-AVS-BLOCK-TLOAD-CUBE-STRIDE-007")
def test_cube_tload_row_stride():
    """ND2M16 FP16 2 x 2 with a 6-byte stride (pitch 3) puts GM word 3 at (1, 0); an omitted
    B.IOR reads from address 0 at the dense 4-byte stride (word 2, value 7, at (1, 0)); the
    encoded-zero stride (B.IOR [zero, zero]) gives rows 0 and 1 the same payload."""
    tile = "!pto.tile<2x2xf16, cube_m16, mat, pe=1000>"
    strided = _fp16_words([[1, 2, 0], [3, 4, 0]])
    r = run_both_levels(_load("tensor<2x3xf16>", tile), strided, 0)
    assert r.view(np.uint16)[0, 1, 0] == 3
    dense = _fp16_words([[5, 6], [7, 8]])
    assert run_both_levels(_load("tensor<2x2xf16>", tile), dense, 0).view(np.uint16)[0, 1, 0] == 7
    omitted = base_zero(_tload_at_origin("tensor<2x2xf16>", tile), None)
    assert run(omitted, "f", dense)[0].view(np.uint16)[0, 1, 0] == 7
    gm = _fp16_words([[9, 10]])
    for text in (_tload_at_origin("tensor<1x2xf16>", tile, rows=0),
                 base_zero(_tload_at_origin("tensor<1x2xf16>", tile, rows=0), "zero")):  # fmt: skip
        v = run(text, "f", gm)[0].view(np.uint16)[0]
        assert v[0].tolist() == v[1].tolist() == [9, 10]


def _load_faults(text: str, gm: np.ndarray, row: int) -> str | None:
    """Fault kind of running the TLOAD at GM row ``row``, at tile level and decoded."""
    kinds = {fault(run, t, "f", gm, row) for t in (text, bundled(text))}
    assert len(kinds) == 1
    return kinds.pop()


def test_tload_footprint_preflight():
    """A load whose second row lies beyond GM faults before any destination exists; the
    same load in range completes."""
    tile = "!pto.tile<32x2xui32, valid=2x2, pe=1000>"
    gm = np.arange(6, dtype=np.int32).reshape(3, 2)
    assert _load_faults(_load("tensor<3x2xi32>", tile), gm, 2) == "TileLegality"
    assert _load_faults(_load("tensor<3x2xi32>", tile), gm, 1) is None


def test_cube_tload_access_preflight():
    """A 3 x 1 ND2M16 load faults when its first or its last element lies beyond GM."""
    tile = "!pto.tile<3x1xf16, cube_m16, mat, pe=1000>"
    text = _load("tensor<4x1xf16>", tile)
    gm = _fp16_words([[1], [2], [3], [4]])
    assert _load_faults(text, gm, 4) == "TileLegality"  # first element outside
    assert _load_faults(text, gm, 2) == "TileLegality"  # last element outside
    assert _load_faults(text, gm, 1) is None


@avs("PTO-AVS-BLOCK-TSTORE-CUBE-002")
def test_cube_tstore_m16():
    """M162ND of a 2 x 3 CUBE_M16 FP16 source on PE3 writes exactly the six raw valid words
    to GM (the rest of GM keeps its bytes) and leaves the source unchanged."""
    tile = "!pto.tile<2x3xf16, cube_m16, mat, pe=0001>"
    text = _store(tile, "tensor<3x3xf16>")
    src = _fp16_words(np.arange(1, 7).reshape(2, 3))
    gm = _fp16_words(np.full((3, 3), 0xA5A5))
    src0, gm0 = src.copy(), gm.copy()
    r = run_both_levels(text, src, gm, 0)
    assert r.view(np.uint16).tolist() == [[1, 2, 3], [4, 5, 6], [0xA5A5] * 3]
    assert src.view(np.uint16).tolist() == src0.view(np.uint16).tolist()
    assert gm.view(np.uint16).tolist() == gm0.view(np.uint16).tolist()
    (blk,) = [o for o in bundled(text).walk() if o.name == "pto.block"]
    s = blk.summary()
    assert (s.datr.layout, s.lb[:2], s.mask) == (25, (3, 2), "0001")


@avs("PTO-AVS-BLOCK-TSTORE-STRIDE-001")
def test_tstore_row_stride():
    """U32 2 x 2 into GM with a 12-byte stride (pitch 3) writes words 0, 1, 3, 4 and skips
    2 and 5; an omitted B.IOR writes from address 0 at the dense stride (words 0..3); the
    encoded-zero stride (B.IOR [zero, zero], LB2 = 4) writes both rows to words 0, 1, so the
    second row's values remain (21, 22)."""
    tile = "!pto.tile<32x2xui32, valid=2x2, pe=1000>"
    src = np.array([[11, 12], [13, 14]], np.uint32)
    gm = np.zeros((2, 3), np.int32)
    r = run_both_levels(_store(tile, "tensor<2x3xi32>"), src, gm, 0)
    assert r.tolist() == [[11, 12, 0], [13, 14, 0]]
    r = run_both_levels(_store(tile, "tensor<2x2xi32>"), src + 4, np.zeros((2, 2), np.int32), 0)
    assert r.tolist() == [[15, 16], [17, 18]]
    omitted = base_zero(_tstore_at_origin(tile, "tensor<2x2xi32>"), None)
    assert run(omitted, "f", src + 4, np.zeros((2, 2), np.int32))[0].tolist() == [[15, 16], [17, 18]]
    wide = "!pto.tile<32x4xui32, valid=2x2, pe=1000>"
    rows = np.array([[19, 20], [21, 22]], np.uint32)
    zero = _tstore_at_origin(wide, "tensor<1x4xi32>", rows=0)
    assert run_both_levels(zero, rows, np.zeros((1, 4), np.int32)).tolist() == [[21, 22, 0, 0]]
    r = run(base_zero(zero, "zero"), "f", rows, np.zeros((1, 4), np.int32))[0]
    assert r.tolist() == [[21, 22, 0, 0]]


def test_cube_tstore_access_preflight():
    """A 3 x 1 M162ND store whose first or last element lies beyond GM faults before any
    element is written (GM and the source unchanged)."""
    tile = "!pto.tile<3x1xf16, cube_m16, mat, pe=0001>"
    text = _store(tile, "tensor<4x1xf16>")
    src = _fp16_words([[1], [2], [3]])
    gm = _fp16_words([[0xA5], [0xA5], [0xA5], [0xA5]])
    for row in (4, 2):
        for t in (text, bundled(text)):
            assert fault(run, t, "f", src, gm, row) == "TileLegality"
    assert gm.view(np.uint16).tolist() == [[0xA5]] * 4
    assert src.view(np.uint16).tolist() == [[1], [2], [3]]


@avs("PTO-AVS-BLOCK-TSTORE-CUBE-DESCRIPTOR-004")
def test_cube_tstore_descriptor_mismatch():
    """A decoded M162ND TSTORE whose source descriptor disagrees with the block (layout M32,
    DataType FP32, ValidCol 4 vs LB0 3, location not Matrix) is TileLegality before any GM
    write (ASL ``TileCubeDescriptorLegal`` and the TSTORE descriptor match of
    tlsu-layout-conversion.asl): the verifier refuses the linked block."""
    tile = "!pto.tile<2x3xf16, cube_m16, mat, pe=0001>"
    good = str(bundled(_store(tile, "tensor<2x3xf16>")))
    assert verify_error(good) is None
    for old, new in (("M162ND", "M322ND"), ("TSTORE, FP16", "TSTORE, FP32"),
                     ("<lb = 0, imm = 3>", "<lb = 0, imm = 4>"),
                     ("cube_m16, mat, pe", "cube_m16, vec, pe")):  # fmt: skip
        assert old in good
        # (a CUBE layout outside mat is refused as the tile type is parsed)
        assert not verifies(good.replace(old, new)), old


# -- B.IOR: scalar operands of decoded blocks ---------------------------------------------------
_SORT_T = "!pto.tile<8x4xf32, valid=1x4>"
_SORT_I = "!pto.tile<8x4xui32, valid=1x4>"
_TSORT = (f"func.func @f(%s: {_SORT_T}, %w: i64) -> ({_SORT_T}, {_SORT_I}) {{\n"
          f"  %d, %i = pto.tsort %s, %w {{sort_width = 4 : i64}} : ({_SORT_T}, i64) -> "
          f"({_SORT_T}, {_SORT_I})\n  func.return %d, %i : {_SORT_T}, {_SORT_I}\n}}")  # fmt: skip
"""TSORT reading its descending flag through B.IOR RegSrc0 (flag0), one group of four."""


def _tsort_both(flag: int):
    """PE0's (values, indices) of the TSORT AVS row 2, 1, 2, 0 at tile level and as a decoded
    block (equal)."""
    src = np.array([[2, 1, 2, 0]], np.float32)
    tile = run(_TSORT, "f", src, flag)
    blk = run(bundled(_TSORT), "f", src, flag)
    for a, b in zip(tile, blk):
        assert np.array_equal(a, b)
    return tile[0][0].tolist(), tile[1][0].tolist()


def _tadds(ior: str = "") -> list:
    return parse_program(f"BSTART.VEC TADDS, U32\nC.B.DIMI 2, ->lb0\n"
                         f"B.IOT t#1, mask=1111, last, ->t<128B>\n{ior}BSTOP\n")  # fmt: skip


@avs("PTO-AVS-BLOCK-B-IOR-DEFAULTS-EXEC-001")
def test_ior_schema_defaults():
    """GPR selectors 24..31 in any B.IOR field are IllegalInstruction; a second B.IOR is
    BundleControl; a one-scalar TADDS is complete with B.IOR omitted or all zero and
    incomplete (BundleControl) with a surplus RegSrc1/RegSrc2; TQUANT may read one GPR
    for both of its scalars. A U64 TLOAD with LB2 = 7 and no B.IOR gets base 0 and the dense
    56-byte stride; B.IOR [zero, zero] a zero stride; [a0, a1] with GPR 2 = 11, GPR 3 = 13
    gets 11 and 13 (``block_ops.gm_operands``, the ``BundleTileInstructionOperands`` address
    and scalar0; how linked blocks meet them: test_tload_row_stride)."""
    from pto_dialect.block_ops import gm_operands
    from pto_dialect.isa import BIor

    tload = [BStart.op("TLOAD", T.U64.value), BDim(0, 0, 7), BDim(1, 0, 1), BDim(2, 0, 7)]
    end = [BIot(None, None, 1, 6, 7, 0), BStop()]
    gprs = {2: 11, 3: 13}
    assert gm_operands(check_block([*tload, *end]), 7, gprs) == (0, 56)
    assert gm_operands(check_block([*tload, BIor(0, 0, 0, 0), *end]), 7, gprs) == (0, 0)
    assert gm_operands(check_block([*tload, BIor(2, 3, 0, 0), *end]), 7, gprs) == (11, 13)
    for sel in range(24, 32):
        for lo in (7, 15, 20, 27):  # RegDst, RegSrc0, RegSrc1, RegSrc2
            assert fault(decode, 0x13 | sel << lo, strict=True) == "IllegalInstruction"
    assert fault(check_program, _tadds("B.IOR [a0], ->zero\nB.IOR [a1], ->zero\n")) == (
        "BundleControl")
    assert check_block(_tadds()).scalars is None
    assert check_block(_tadds("B.IOR [zero], ->zero\n")).scalars.sources == (0, 0, 0)
    assert fault(check_block, _tadds("B.IOR [a0, a1, a2], ->zero\n")) == "BundleControl"
    quant = parse_program("BSTART.SFU TQUANT, FP32\nB.DATR NORM, S8, Zero\nC.B.DIMI 2, ->lb0\n"
                          "B.IOT t#1, mask=1111, last, ->t<128B>\nB.IOR [a5, a5], ->zero\n"
                          "BSTOP\n")  # fmt: skip
    src0, src1, _ = check_block(quant).scalars.sources
    assert src0 == src1 != 0


def _generator(op: str, tile: str) -> str:
    return (f"func.func @f(%p: i64, %q: i64) -> {tile} {{\n"
            f"  %r = pto.{op} %p, %q : (i64, i64) -> {tile}\n  func.return %r : {tile}\n}}")


TCI_U32 = "!pto.tile<32x4xui32, valid=1x4>"


@avs("PTO-AVS-BLOCK-B-IOR-ORDER-EXEC-002", "PTO-AVS-BLOCK-B-IOR-ORDERED-GPR-EXECUTION-001",
     "PTO-AVS-BLOCK-B-IOR-EXECUTION-001")  # fmt: skip
def test_ior_ordered_gpr_operands():
    """TCI reads start (RegSrc0) then the descending flag (RegSrc1); TTRI the signed diagonal
    then the orientation, with -65535 and 65535 legal and 65536 TileLegality; TMRGSORT its
    flag in RegSrc0, where 2 is TileLegality; a nonzero RegDst or surplus RegSrc is an
    incomplete binding (BundleControl)."""
    assert run_both_levels(_generator("tci", TCI_U32), 5, 1)[0].tolist() == [[5, 4, 3, 2]]
    ttri = _generator("ttri", "!pto.tile<16x8xf16, valid=2x2>")
    upper = run_both_levels(ttri, -65535, 1)
    assert upper[0].tolist() == [[1, 1], [1, 1]]  # upper, diagonal -65535: all ones
    assert run_both_levels(ttri, 65535, 0)[0].tolist() == [[1, 1], [1, 1]]
    for t in (ttri, bundled(ttri)):
        assert fault(run, t, "f", 65536, 0) == "TileLegality"
    merge = _tmrgsort()
    for t in (merge, bundled(merge)):
        assert fault(run, t, "f", *_sorted_pair(0), 2) == "TileLegality"
    start = "BSTART.SFU TMRGSORT, FP32\nB.IOT t#1, t#2, mask=1000, last, ->t<128B>\n"
    for ior in ("B.IOR [a0], ->a1\n", "B.IOR [a0, zero, a1], ->zero\n"):
        assert fault(check_block, parse_program(start + ior + "BSTOP\n")) == "BundleControl"
    assert check_block(parse_program(start + "B.IOR [a0], ->zero\nBSTOP\n")).scalars.src0 != 0
    # TSORT consumes only flag0 (RegSrc0): 1 is descending, 2 TileLegality, surplus fields
    # an incomplete binding
    assert _tsort_both(1)[1] == [[0, 2, 1, 3]]
    for t in (_TSORT, bundled(_TSORT)):
        assert fault(run, t, "f", np.zeros((1, 4), np.float32), 2) == "TileLegality"
    tsort = ("BSTART.SFU TSORT, FP32\nB.IOT t#1, mask=1000, ->t<128B>\n"
             "B.IOT mask=1000, last, ->t<128B>\n")  # fmt: skip
    for ior in ("B.IOR [a0], ->a1\n", "B.IOR [a0, a1], ->zero\n"):
        assert fault(check_block, parse_program(tsort + ior + "BSTOP\n")) == "BundleControl"


def _without_ior(block_text: str, selectors: str | None) -> str:
    """The linked TCI block of ``block_text`` with its B.IOR removed (``selectors`` None) or
    replaced by an all-``selectors`` one, linking no scalar operand."""
    ior = "      pto.b.ior <src0 = a0, src1 = a1, src2 = zero, dst = zero>\n"
    assert ior in block_text
    new = "" if selectors is None else (
        f"      pto.b.ior <src0 = {selectors}, src1 = {selectors}, src2 = zero, dst = zero>\n")
    return (block_text.replace(ior, new).replace("pto.block (%p, %q)", "pto.block ()")
            .replace(f": (i64, i64) -> {TCI_U32}\n    func.return", f": () -> {TCI_U32}\n"
                     "    func.return"))  # fmt: skip


@avs("PTO-AVS-BLOCK-B-IOR-TILE-CONSUMERS-EXEC-003")
def test_ior_tile_consumers():
    """Decoded TCI: start 5 descending gives 5 4 3 2; an omitted B.IOR and an all-zero one
    both give start 0 ascending (zero register). TTRI with a diagonal out of [-65535, 65535]
    and TCI with flag 2 are TileLegality before any destination exists; with PE mask 0000
    the block is a no-op before any GPR read; a second B.IOR is BundleControl."""
    text = _generator("tci", TCI_U32)
    assert run_both_levels(text, 5, 1)[0].tolist() == [[5, 4, 3, 2]]
    linked = str(bundled(text))
    for selectors in (None, "zero"):
        assert run(_without_ior(linked, selectors), "f", 5, 1)[0][0].tolist() == [[0, 1, 2, 3]]
    ttri = _generator("ttri", "!pto.tile<16x8xf16, valid=2x2>")
    for diagonal in (65536, -65536):
        assert fault(run, bundled(ttri), "f", diagonal, 1) == "TileLegality"
    assert fault(run, bundled(text), "f", 5, 2) == "TileLegality"
    from interpreter.ssa.block_functions import block_plan
    from pto_dialect.block_ops import BlockOp

    masked = linked.replace('pe_mode = "1111"', 'pe_mode = "0000"')
    (blk,) = [o for o in _parse(masked).walk() if isinstance(o, BlockOp)]
    (value,) = block_plan(blk, "ordered")(5, 2)
    assert not value.allocated
    twice = parse_program("BSTART.SFU TCI, U32\nC.B.DIMI 4, ->lb0\nB.IOR [a0, a1], ->zero\n"
                          "B.IOR [a2, a1], ->zero\n")  # fmt: skip
    assert fault(check_program, twice) == "BundleControl"
    # TSORT through BSTOP in both directions, stable ties (the two 2.0 keep their order)
    assert _tsort_both(0) == ([[0, 1, 2, 2]], [[3, 1, 0, 2]])
    assert _tsort_both(1) == ([[2, 2, 1, 0]], [[0, 2, 1, 3]])


def _parse(text: str):
    from interpreter.ssa.runner import build_context, parse_module_text

    return parse_module_text(text, ctx=build_context())


def _tmrgsort() -> str:
    src, dst = "!pto.tile<16x2xf32, valid=1x2, pe=1000>", "!pto.tile<8x4xf32, valid=1x4, pe=1000>"
    return (f"func.func @f(%l: {src}, %r: {src}, %d: i64) -> {dst} {{\n"
            f"  %m = pto.tmrgsort %l, %r, %d {{mask = #pto.mask<1000>}} : ({src}, {src}, i64) -> {dst}\n"
            f"  func.return %m : {dst}\n}}")  # fmt: skip


def _sorted_pair(descending: int) -> tuple[np.ndarray, np.ndarray]:
    """Left and right sources sorted in the direction, with a key in both: -0.0 on the left
    and +0.0 on the right (equal keys, distinguishable bits) and 1.0 in both."""
    left, right = [-0.0, 3.0], [0.0, 2.0]
    if descending:
        left, right = [3.0, -0.0], [2.0, 0.0]
    return np.array([[left]], np.float32), np.array([[right]], np.float32)


@avs("PTO-AVS-BLOCK-TMRGSORT-END-TO-END-EXECUTION-001")
def test_tmrgsort_decoded_both_directions():
    """A decoded TMRGSORT block (flag in B.IOR RegSrc0, mask 1000, destination 1 x 4 derived
    from the sources) merges ascending and descending FP32 streams stably: of two equal keys
    (-0.0 left, +0.0 right) the left one comes first in both directions."""
    text = _tmrgsort()
    s = [o for o in bundled(text).walk() if o.name == "pto.block"][0].summary()
    assert s.mask == "1000" and s.scalars.src0 != 0 and not any(s.lb_written)
    for descending, want in ((0, [-0.0, 0.0, 2.0, 3.0]), (1, [3.0, 2.0, -0.0, 0.0])):
        r = run_both_levels(text, *_sorted_pair(descending), descending)
        bits = r[0, 0].view(np.uint32).tolist()
        assert bits == np.array(want, np.float32).view(np.uint32).tolist(), descending
