"""AVS pass conditions (D17) of the unary and tile-scalar families and TSHL/TSHR, asserted on
our kernels, verifier and block checker. Each test claims its AVS ids (the spec's
``tests/asl/tile/**``) with ``@avs``; where a pass condition also names the numeric status
flags recorded (``RecordNumericStatusFlags``: NV, DZ, none), the test records them
(:func:`interpreter.kernels.status.recording`) and asserts the exact 5-bit value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conformance.inventory import avs
from interpreter import kernels
from interpreter.kernels.status import DZ, NV, recording
from pto_dialect import isa
from pto_dialect.datatypes import VEC_ARITH_TYPES, TileDataType
from pto_dialect.elementwise_ops import (
    FILL_OPS,
    TERNARY_OPS,
    TILE_SCALAR_OPS,
    UNARY_OPS,
)
from pto_dialect.families import op_of_selector
from pto_dialect.faults import PTOFault
from pto_dialect.ops import TShlOp, TShrOp

T = TileDataType
K = kernels.KERNELS
BY = {c.MNEMONIC: c for c in (*TILE_SCALAR_OPS, *UNARY_OPS, *TERNARY_OPS, *FILL_OPS, TShlOp,
                               TShrOp)}  # fmt: skip


def _u8(m, values, *scalar, dt=T.U8, npdt=np.uint8):
    out, _ = K[m](np.array([values], npdt), *scalar, None, "null", dt)
    return [int(v) for v in out[0]]


# ---- execution pass conditions (values) ------------------------------------------------
EXEC = {
    "PTO-AVS-TILE-TADDS-BUNDLE-001": lambda: _u8("TADDS", [7, 9], 5, dt=T.U64, npdt=np.uint64) == [12, 14],
    "PTO-AVS-TILE-TSUBS-ORDER-001": lambda: _u8("TSUBS", [3, 9], 5) == [254, 4],
    "PTO-AVS-TILE-TMULS-WIDTH-001": lambda: _u8("TMULS", [7, 86], 3) == [21, 2],
    "PTO-AVS-TILE-TDIVS-ORDER-001": lambda: _u8("TDIVS", [9, 255], 2) == [4, 127],
    "PTO-AVS-TILE-TMAXS-UNSIGNED-001": lambda: _u8("TMAXS", [2, 250], 9) == [9, 250],
    "PTO-AVS-TILE-TMINS-UNSIGNED-001": lambda: _u8("TMINS", [2, 250], 9) == [2, 9],
    "PTO-AVS-TILE-TREMS-SIGNED-001": lambda: _u8("TREMS", [-5, 5], 3, dt=T.S8, npdt=np.int8) == [1, 2],
    "PTO-AVS-TILE-TANDS-BITS-001": lambda: _u8("TANDS", [0xA5, 0x3C], 15) == [0x05, 0x0C],
    "PTO-AVS-TILE-TORS-BITS-001": lambda: _u8("TORS", [0xA5, 0x30], 15) == [0xAF, 0x3F],
    "PTO-AVS-TILE-TXORS-BITS-001": lambda: _u8("TXORS", [0xA5, 0x30], 15) == [0xAA, 0x3F],
    "PTO-AVS-TILE-TSHLS-MASK-001": lambda: _u8("TSHLS", [1, 0x81], 9) == [2, 2],
    "PTO-AVS-TILE-TSHRS-SIGNED-001": lambda: _u8("TSHRS", [-128], 9, dt=T.S8, npdt=np.int8) == [-64],
    "PTO-AVS-TILE-TSHL-MASK-001": lambda: [int(v) for v in K["TSHL"](np.array([[1]], np.uint8), np.array([[10]], np.uint8), None, "null", T.U8)[0][0]] == [4],
    "PTO-AVS-TILE-TSHR-SIGNED-001": lambda: (
        int(K["TSHR"](np.array([[-128]], np.int8), np.array([[1]], np.int8), None, "null", T.S8)[0][0, 0]) & 0xFF == 0xC0
        and int(K["TSHR"](np.array([[0x80]], np.uint8), np.array([[1]], np.uint8), None, "null", T.U8)[0][0, 0]) == 0x40),
    "PTO-AVS-TILE-TRELU-FLOAT-001": lambda: K["TRELU"](np.array([[-math.inf]], np.float32), None)[0].view(np.uint32)[0, 0] == 0,
    "PTO-AVS-TILE-TRELU-SIGNED-001": lambda: _u8("TRELU", [-1], dt=T.S8, npdt=np.int8) == [0],
    "PTO-AVS-TILE-TRELU-NAN-001": lambda: K["TRELU"](np.array([[0x7F800001]], np.uint32).view(np.float32), None, "null", T.FP32)[0].view(np.uint32)[0, 0] == 0x7FC00000,
    "PTO-AVS-TILE-TABS-FLOAT-001": lambda: K["TABS"](np.array([[0xFF800001]], np.uint32).view(np.float32), None)[0].view(np.uint32)[0, 0] == 0x7F800001,
    "PTO-AVS-TILE-TABS-WIDTH-001": lambda: _u8("TABS", [-1], dt=T.S8, npdt=np.int8) == [1],
    "PTO-AVS-TILE-TABS-BF16-DECODED-001": lambda: K["TABS"](np.array([[0xBF80]], np.uint16), None, "null", T.BF16)[0].view(np.uint16)[0, 0] == 0x3F80,
    "PTO-AVS-TILE-TNEG-FLOAT-001": lambda: K["TNEG"](np.array([[0xFF800001]], np.uint32).view(np.float32), None)[0].view(np.uint32)[0, 0] == 0x7F800001,
    "PTO-AVS-TILE-TNEG-WIDTH-001": lambda: _u8("TNEG", [1]) == [0xFF],
    "PTO-AVS-TILE-TNOT-WIDTH-001": lambda: _u8("TNOT", [0x0F]) == [0xF0],
    "PTO-AVS-TILE-TEXP-ZERO-001": lambda: K["TEXP"](np.array([[-0.0]], np.float32), None)[0].view(np.uint32)[0, 0] == 0x3F800000,
    "PTO-AVS-TILE-TLOG-E4M3ZERO-001": lambda: K["TLOG"](np.array([[0]], np.uint8), None, "null", T.E4M3)[0].view(np.uint8)[0, 0] == 0x7F,
    "PTO-AVS-TILE-TLOG-ZERO-001": lambda: K["TLOG"](np.array([[0.0]], np.float32), None)[0].view(np.uint32)[0, 0] == 0xFF800000,
    "PTO-AVS-TILE-TSQRT-NEGATIVE-001": lambda: K["TSQRT"](np.array([[-1.0]], np.float32), None)[0].view(np.uint32)[0, 0] == 0x7FC00000,
    "PTO-AVS-TILE-TRSQRT-E4M3ZERO-001": lambda: list(K["TRSQRT"](np.array([[0x00, 0x80]], np.uint8), None, "null", T.E4M3)[0].view(np.uint8)[0]) == [0x7F, 0x7F],
    "PTO-AVS-TILE-TRSQRT-INFINITY-001": lambda: K["TRSQRT"](np.array([[math.inf]], np.float32), None)[0].view(np.uint32)[0, 0] == 0,
    "PTO-AVS-TILE-TRECIP-E4M3ZERO-001": lambda: list(K["TRECIP"](np.array([[0x00, 0x80]], np.uint8), None, "null", T.E4M3)[0].view(np.uint8)[0]) == [0x7F, 0x7F],
    "PTO-AVS-TILE-TFMA-WIDTH-001": lambda: (
        int(K["TFMA"](*(np.array([[v]], np.int8) for v in (100, 3, 7)), None, "null", T.S8)[0][0, 0]) == 307 - 256
        and int(K["TFMA"](*(np.array([[v]], np.uint8) for v in (200, 2, 7)), None, "null", T.U8)[0][0, 0]) == 407 % 256),
    "PTO-AVS-TILE-TFMA-INVALID-001": lambda: all(_fma_nv(*c) for c in ((0x7F800001, 0x3F800000, 0), (0, 0x7F800000, 0), (0x7F800000, 0x3F800000, 0xFF800000))),
    "PTO-AVS-TILE-TEXPANDS-BUNDLE-001": lambda: list(K["TEXPANDS"](0xFFFF_FF05, (1, 2), "null", T.U8, shape=(1, 128))[0][0, :2]) == [5, 5],
    "PTO-AVS-TILE-TRECIP-SIGNEDZERO-001": lambda: K["TRECIP"](np.array([[-0.0]], np.float32), None)[0].view(np.uint32)[0, 0] == 0xFF800000,
}  # fmt: skip


def _fma_nv(a: int, b: int, c: int) -> bool:
    """One FP32 TFMA element a * b + c gives a quiet NaN and records exactly NV."""
    x, y, z = (np.array([[v]], np.uint32).view(np.float32) for v in (a, b, c))
    with recording() as st:
        out = int(K["TFMA"](x, y, z, None)[0].view(np.uint32)[0, 0])
    return st.bits == NV and out & 0x7FC00000 == 0x7FC00000


WITH_FLAGS = {
    **{f"PTO-AVS-TILE-{n}-001": 0 for n in (
        "TRELU-FLOAT", "TABS-FLOAT", "TNEG-FLOAT", "TEXP-ZERO", "TRSQRT-INFINITY", "TFMA-WIDTH")},
    **{f"PTO-AVS-TILE-{n}-001": DZ for n in (
        "TLOG-ZERO", "TLOG-E4M3ZERO", "TRSQRT-E4M3ZERO", "TRECIP-E4M3ZERO", "TRECIP-SIGNEDZERO")},
    **{f"PTO-AVS-TILE-{n}-001": NV for n in ("TRELU-NAN", "TSQRT-NEGATIVE")},
}  # fmt: skip
"""EXEC ids whose pass condition also states the numeric status flags recorded (0: none);
TFMA-INVALID checks NV per case in :func:`_fma_nv`."""


@avs(*EXEC)
@pytest.mark.parametrize("avs_id", list(EXEC))
def test_avs_execution(avs_id):
    with recording() as st:
        assert EXEC[avs_id]()
    if avs_id in WITH_FLAGS:
        assert st.bits == WITH_FLAGS[avs_id], st


# ---- type-set boundaries -------------------------------------------------------------
TYPES = {
    "PTO-AVS-TILE-TADDS-TYPES-001": ("TADDS", [T.FP32, T.U8], [T.HIF8]),
    "PTO-AVS-TILE-TSUBS-TYPES-001": ("TSUBS", [T.FP32, T.U8], [T.HIF8, T.U4X2]),
    "PTO-AVS-TILE-TMULS-TYPES-001": ("TMULS", [T.FP32, T.S16, T.U8], [T.HIF8, T.U4X2]),
    "PTO-AVS-TILE-TMAXS-TYPES-001": ("TMAXS", [T.FP32, T.U8], [T.HIF8, T.U4X2]),
    "PTO-AVS-TILE-TMINS-TYPES-001": ("TMINS", [T.FP32, T.U8], [T.HIF8, T.U4X2]),
    "PTO-AVS-TILE-TREMS-TYPES-001": ("TREMS", [T.FP32, T.U16, T.U8], [T.HIF8, T.U4X2]),
    "PTO-AVS-TILE-TANDS-TYPES-001": ("TANDS", [T.S8, T.U8, T.S32], [T.FP32, T.U4X2]),
    "PTO-AVS-TILE-TORS-TYPES-001": ("TORS", [T.S8, T.U8, T.S32], [T.FP32, T.U4X2]),
    "PTO-AVS-TILE-TXORS-TYPES-001": ("TXORS", [T.S8, T.U8, T.S32], [T.FP32, T.U4X2]),
    "PTO-AVS-TILE-TSHLS-TYPES-001": ("TSHLS", [T.S8, T.U8, T.S32], [T.FP32, T.U4X2]),
    "PTO-AVS-TILE-TSHRS-TYPES-001": ("TSHRS", [T.S8, T.U8, T.S32, T.U64], [T.FP32, T.U4X2]),
    "PTO-AVS-TILE-TRELU-TYPES-001": ("TRELU", [T.FP32, T.FP16, T.BF16, T.S32, T.S16, T.FP64],
                                     [T.E8M0, T.S4X2]),
    "PTO-AVS-TILE-TABS-TYPES-001": ("TABS", [T.FP32, T.FP16, T.BF16, T.FP64, T.S32, T.U8],
                                    [T.HIF8, T.U4X2]),
    "PTO-AVS-TILE-TNEG-TYPES-001": ("TNEG", [T.FP32, T.FP16, T.BF16, T.S32, T.S16, T.S8, T.U32,
                                             T.FP64], [T.HIF8, T.S4X2]),
    "PTO-AVS-TILE-TNOT-TYPES-001": ("TNOT", [T.S32, T.S16, T.S8, T.U32, T.U16, T.U8, T.S64,
                                             T.U64], [T.FP32, T.U4X2]),
    "PTO-AVS-TILE-TEXP-TYPES-001": ("TEXP", [T.FP64, T.FP32, T.FP16, T.BF16, T.E4M3, T.E5M2],
                                    [T.S32, T.E8M0, T.E2M3, T.E2M1X2]),
    "PTO-AVS-TILE-TSQRT-TYPES-001": ("TSQRT", [T.FP32, T.FP16, T.BF16, T.FP64, T.E4M3, T.E5M2],
                                     [T.U64, T.E8M0, T.E3M2, T.U4X2]),
    "PTO-AVS-TILE-TRECIP-ZERO-001": ("TRECIP", [T.FP32], [T.U64]),
    "PTO-AVS-TILE-TFMA-TYPES-001": ("TFMA", sorted(VEC_ARITH_TYPES, key=lambda t: t.value),
                                    [T.HIF8, T.U4X2]),
    "PTO-AVS-TILE-TEXPANDS-TYPES-001": ("TEXPANDS", [T.FP32, T.U8], [T.HIF8, T.U4X2]),
    "PTO-AVS-TILE-TSHL-TYPES-001": ("TSHL", [T.S16, T.U32], [T.FP16, T.U4X2]),
    "PTO-AVS-TILE-TSHR-TYPES-001": ("TSHR", [T.S32, T.U32, T.S8, T.U8, T.U64], [T.BF16, T.S4X2]),
}
"""Each types AVS test's accepted and rejected representatives (TFMA: the sixteen of
``TileVecArithmeticDataTypeSupported``)."""


@avs(*TYPES)
@pytest.mark.parametrize("avs_id", list(TYPES))
def test_avs_types(avs_id):
    m, ok, bad = TYPES[avs_id]
    assert all(t in BY[m].TYPES for t in ok) and not any(t in BY[m].TYPES for t in bad)
    if m == "TRECIP":  # an FP32 zero source passes the complete operand legality
        K["TRECIP"](np.zeros((1, 1), np.float32), None)


@avs("PTO-AVS-TILE-TDIVS-ZERO-001")
def test_avs_tdivs_zero_001():
    """PTO-AVS-TILE-TDIVS-ZERO-001: U32 zero rejects; FP32 +0 and -0 are legal divisors."""
    with pytest.raises(PTOFault):
        K["TDIVS"](np.array([[1, 2]], np.uint32), 0, None, "null", T.U32)
    for word in (0, 0x80000000):
        K["TDIVS"](np.array([[1.0, 2.0]], np.float32), word, None)


# ---- block-level pass conditions (decoded legality, padding, defaults) ------------------
UNARY_BLOCK = ["TRELU", "TABS", "TNEG", "TNOT"]


def _block(m, dt, *, datr=None, lb0=True, mask=7, size_code=1, ior=None):
    cmds = [isa.BStart.op(m, dt.value)]
    if datr is not None:
        cmds.append(datr)
    if lb0:
        cmds.append(isa.CBDimi(0, 2))
    cmds.append(isa.BIot(src0=1, last=1, size_code=size_code, pe_mode=mask, dst_hand=0))
    if ior is not None:
        cmds.append(ior)
    cmds.append(isa.BStop())
    return cmds


@avs(*(f"PTO-AVS-TILE-{m}-{k}-001" for m in UNARY_BLOCK
       for k in ("DATR", "LB0", "MASK-ZERO", "DEFAULTS")))  # fmt: skip
@pytest.mark.parametrize("m", UNARY_BLOCK)
def test_avs_datr_lb0_mask_zero_defaults_001(m):
    """PTO-AVS-TILE-{TRELU,TABS,TNEG,TNOT}-DATR-001 (Pad applicable, CMode / Sat reject),
    -LB0-001 (omitted LB0 is TileLegality), -MASK-ZERO-001 (mask 0 completes before any
    check), -DEFAULTS-001 (ValidRow 1, Col = LB0)."""
    dt = T.S32
    isa.check_block(_block(m, dt, datr=isa.BDatr(dtype=0, pad=1)))
    for bad in (isa.BDatr(dtype=0, cmode=1, pad=3), isa.BDatr(dtype=0, sat=1, pad=3)):
        with pytest.raises(PTOFault) as e:
            isa.check_block(_block(m, dt, datr=bad))
        assert e.value.kind == "TileLegality"
    with pytest.raises(PTOFault) as e:
        isa.check_block(_block(m, dt, lb0=False))
    assert e.value.kind == "TileLegality"
    assert isa.check_block(_block(m, dt, lb0=False, mask=0)).noop
    assert isa.check_block(_block(m, dt)).dims == (2, 1, 2)


PADDED = ["TRELU", "TABS", "TNEG", "TNOT", "TEXP", "TSQRT"]


@avs(*(f"PTO-AVS-TILE-{m}-PADDING-001" for m in PADDED))
@pytest.mark.parametrize("m", PADDED)
def test_avs_padding_001(m):
    """PTO-AVS-TILE-*-PADDING-001: explicit Max defines physical padding (largest finite),
    omitted PadValue (Null) leaves it undefined."""
    dt = T.S32 if m in ("TNOT",) else T.FP32
    src = np.ones((2, 8), dt.numpy_dtype())
    out, dfn = K[m](src, (1, 2), "max", dt)
    assert dfn.all() and out.view(np.uint32)[1, 0] == (0x7FFFFFFF if dt is T.S32 else 0x7F7FFFFF)
    _, dfn = K[m](src, (1, 2), "null", dt)
    assert dfn[0, :2].all() and not dfn[1].any() and not dfn[0, 2:].any()


@avs("PTO-AVS-TILE-TEXPANDS-PADDING-001", "PTO-AVS-TILE-TFMA-PADDING-001")
def test_avs_texpands_tfma_padding_001():
    """PTO-AVS-TILE-TEXPANDS-PADDING-001 (Zero defines padding, Null leaves it undefined) and
    PTO-AVS-TILE-TFMA-PADDING-001 (explicit Max defines the element outside the valid
    rectangle)."""
    _, dfn = K["TEXPANDS"](1, (1, 2), "zero", T.S32, shape=(2, 4))
    assert dfn.all()
    _, dfn = K["TEXPANDS"](1, (1, 2), "null", T.S32, shape=(2, 4))
    assert not dfn[1].any()
    ones = np.ones((2, 4), np.float32)
    out, dfn = K["TFMA"](ones, ones, ones, (1, 1), "max", T.FP32)
    assert dfn.all() and out[0, 0] == 2 and out.view(np.uint32)[1, 1] == 0x7F7FFFFF


@avs("PTO-AVS-TILE-TFMA-SCHEMA-001", "PTO-AVS-TILE-TFMA-LB0-001")
def test_avs_tfma_schema_lb0_001():
    """PTO-AVS-TILE-TFMA-SCHEMA-001 (two-binding tuple passes, an added B.IOR rejects) and
    PTO-AVS-TILE-TFMA-LB0-001 (absent LB0 rejects)."""
    def blk(lb0=True, ior=None):
        c = [isa.BStart.op("TFMA", T.FP32.value)]
        if lb0:
            c.append(isa.CBDimi(0, 2))
        c += [isa.BIot(src0=1, src1=2), isa.BIot(src0=3, last=1, size_code=1, dst_hand=0)]
        return c + ([ior] if ior else []) + [isa.BStop()]

    isa.check_block(blk())
    for bad in (blk(ior=isa.BIor(12)), blk(lb0=False)):
        with pytest.raises(PTOFault):
            isa.check_block(bad)


@avs("PTO-AVS-TILE-TADDS-PADDING-001")
def test_avs_tadds_padding_001():
    """PTO-AVS-TILE-TADDS-PADDING-001: Zero defines padding as zero, Null leaves it undefined."""
    out, dfn = K["TADDS"](np.ones((2, 4), np.int32), 1, (1, 2), "zero", T.S32)
    assert dfn.all() and not out[1].any() and out[0, 0] == 2
    _, dfn = K["TADDS"](np.ones((2, 4), np.int32), 1, (1, 2), "null", T.S32)
    assert not dfn[1].any()


@avs("PTO-AVS-TILE-TSHL-PADDING-001", "PTO-AVS-TILE-TSHR-PADDING-001")
@pytest.mark.parametrize("m", ["TSHL", "TSHR"])
def test_avs_shift_padding_001(m):
    """PTO-AVS-TILE-TSHL-PADDING-001 (zero padding), PTO-AVS-TILE-TSHR-PADDING-001 (U8 Max
    padding 255) publish with the shifted valid element."""
    pad = "zero" if m == "TSHL" else "max"
    out, dfn = K[m](np.full((2, 4), 8, np.uint8), np.ones((2, 4), np.uint8), (1, 1), pad, T.U8)
    assert dfn.all() and out[0, 0] == (16 if m == "TSHL" else 4)
    assert (out[1] == (0 if m == "TSHL" else 255)).all()


@avs(*(f"PTO-AVS-TILE-{m}-ENCODING-001" for m in ("TRELU", "TABS", "TNEG")))
@pytest.mark.parametrize("m", ["TRELU", "TABS", "TNEG"])
def test_avs_encoding_001(m):
    """PTO-AVS-TILE-{TRELU,TABS,TNEG}-ENCODING-001: a TF32 source with discarded fraction
    bits is TileLegality before effects."""
    with pytest.raises(PTOFault) as e:
        K[m](np.array([[0x3F800001]], np.uint32).view(np.float32), None, "null", T.TF32)
    assert e.value.kind == "TileLegality"


def test_avs_tile_scalar_bundle_schema():
    """Tile-scalar block schema (TADDS.asl legality): only B.IOR RegSrc0 may be nonzero; an
    omitted B.IOR is legal (scalar zero); the selector decodes to the op (mode 1). A surplus
    field fails ``BundleOperationBindingsComplete`` (``BundleOperationScalarBindingSchemaLegal``),
    which asl/block/model/dispatch/tile-execution.asl raises as BundleControl."""
    isa.check_block(_block("TADDS", T.U64))
    isa.check_block(_block("TADDS", T.U64, ior=isa.BIor(12)))
    with pytest.raises(PTOFault) as e:
        isa.check_block(_block("TADDS", T.U64, ior=isa.BIor(12, 13)))
    assert e.value.kind == "BundleControl"
    assert op_of_selector(isa.BlockFamily.TEPL, 0, 1).MNEMONIC == "TADDS"
