"""Evidence for the unary (TEPL 0/15-23) and tile-scalar (TEPL 1/0-12) families (PTO-SPEC 5;
D9, D12, D16) against INDEPENDENT references: ``fractions.Fraction`` arithmetic rounded once
to the format (``test_binary_evidence.round_to_format``), Python ints with explicit wrapping,
``math`` for the transcendental functions, and hand-written special values from
``asl/tile/model/execution/unary.asl``.

Every type of every op's set runs through the kernel; every op runs once through the tile
interpreter and once through ``pto-form-blocks`` + decoded execution (the scalar through
B.IOR RegSrc0 = a0). The spec's AVS pass conditions for these ops are in
``tests/conformance/test_avs_elementwise.py``.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np
import pytest
from test_binary_evidence import (
    FLOAT_A,
    FLOAT_B,
    NARROW_FP32,
    _bundled,
    _int_values,
    _reference,
    round_to_format,
)

from interpreter import kernels, run
from pto_dialect.datatypes import TileDataType
from pto_dialect.elementwise_ops import FILL_OPS, TERNARY_OPS, TILE_SCALAR_OPS, UNARY_OPS
from pto_dialect.faults import PTOFault
from pto_dialect.ops import BINARY_OPS

T = TileDataType
BINARY_OF = {c.MNEMONIC: c for c in BINARY_OPS}


def _npdt(dt: TileDataType):
    return np.dtype(np.float32) if dt in NARROW_FP32 else dt.numpy_dtype()


def _raw_word(value, dt: TileDataType) -> int:
    """The GPR word whose low element-width bits encode ``value`` (written with struct / int
    arithmetic, not the kernel's numpy view)."""
    if dt.is_integer:
        return value & ((1 << 64) - 1)
    fmt = {8: "<d", 4: "<f"}.get(_npdt(dt).itemsize)
    if fmt:
        return int.from_bytes(struct.pack(fmt, value), "little")
    return int(np.array(value, _npdt(dt)).view(f"u{_npdt(dt).itemsize}"))


def _scalar_cases():
    for op in TILE_SCALAR_OPS:
        for dt in sorted(op.TYPES):
            yield pytest.param(op, dt, id=f"{op.MNEMONIC}-{dt.name}")


@pytest.mark.parametrize(("op", "dt"), list(_scalar_cases()))
def test_tile_scalar_kernel_against_reference(op, dt):
    """source <op> scalar equals the binary reference with the scalar in every position."""
    bop = BINARY_OF[op.MNEMONIC[:-1]]
    a, b = (FLOAT_A, FLOAT_B) if dt.is_float else _int_values(dt)
    s = b[1] if not dt.is_float else b[0]
    want = _reference(bop, dt, a, [s] * len(a))
    got, dfn = kernels.KERNELS[op.MNEMONIC](np.array([a], _npdt(dt)), _raw_word(s, dt), None,
                                            "null", dt)  # fmt: skip
    assert dfn.all()
    if dt.is_float:
        assert [Fraction(float(v)) for v in got[0].astype(np.float64)] == want
    else:
        assert [int(v) for v in got[0]] == want


MATH_REF = {
    "TEXP": math.exp,
    "TLOG": math.log,
    "TSQRT": math.sqrt,
    "TRSQRT": lambda x: 1 / math.sqrt(x),
    "TRECIP": lambda x: Fraction(1) / Fraction(x),
    "TABS": abs,
    "TNEG": lambda x: -x,
    "TRELU": lambda x: max(x, 0),
}
POSITIVE = [0.5, 1.0, 1.5, 2.0, 3.0, 0.25, 6.0, 0.75]
MIXED = [1.5, -2.0, 0.25, 3.0, -0.5, 6.0, 1.0, -0.75]


def _unary_cases():
    for op in UNARY_OPS:
        for dt in sorted(op.TYPES):
            yield pytest.param(op, dt, id=f"{op.MNEMONIC}-{dt.name}")


@pytest.mark.parametrize(("op", "dt"), list(_unary_cases()))
def test_unary_kernel_against_reference(op, dt):
    m = op.MNEMONIC
    if dt.is_integer:
        a, _ = _int_values(dt)
        bits, signed = dt.bits, dt.is_signed
        f = {"TNOT": lambda x: ~x, "TABS": abs, "TNEG": lambda x: -x, "TRELU": lambda x: max(x, 0)}[m]
        mod = 1 << bits
        want = [((f(x) % mod) - mod if signed and (f(x) % mod) >> (bits - 1) else f(x) % mod)
                for x in a]  # fmt: skip
        got, _ = kernels.KERNELS[m](np.array([a], _npdt(dt)), None, "null", dt)
        assert [int(v) for v in got[0]] == want
        return
    a = POSITIVE if m in ("TLOG", "TSQRT", "TRSQRT") else MIXED
    if m == "TEXP":
        a = [x / 4 for x in MIXED]
    got, _ = kernels.KERNELS[m](np.array([a], _npdt(dt)), None, "null", dt)
    want = [round_to_format(Fraction(MATH_REF[m](x)), dt) for x in a]
    have = [Fraction(float(v)) for v in got[0].astype(np.float64)]
    if dt is T.FP64 and m in ("TEXP", "TLOG", "TRSQRT"):
        # FP64 transcendental results are libm's (faithful, documented in kernels/unary.py)
        assert all(abs(h - w) <= Fraction(math.ulp(float(w))) for h, w in zip(have, want))
        return
    assert have == want, (m, dt)


def _bits(x: np.ndarray) -> list[int]:
    return [int(v) for v in x.reshape(-1).view(f"u{x.dtype.itemsize}")]


SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, -1.0, 1.0]
SFU_SPECIAL_F32 = {
    # (asl/tile/model/execution/unary.asl TileSFUUnarySpecialValue), FP32 encodings
    "TEXP": [0x3F800000, 0x3F800000, 0x7F800000, 0x00000000, 0x7FC00000, None, None],
    "TLOG": [0xFF800000, 0xFF800000, 0x7F800000, None, 0x7FC00000, 0x7FC00000, 0x00000000],
    "TRECIP": [0x7F800000, 0xFF800000, 0x00000000, 0x80000000, 0x7FC00000, 0xBF800000, 0x3F800000],
    "TSQRT": [0x00000000, 0x80000000, 0x7F800000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x3F800000],
    "TRSQRT": [0x7F800000, 0xFF800000, 0x00000000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x3F800000],
    "TRELU": [0, 0, 0x7F800000, 0, 0x7FC00000, 0, 0x3F800000],
}


@pytest.mark.parametrize("m", list(SFU_SPECIAL_F32))
def test_special_values_fp32(m):
    src = np.array([SPECIAL], np.float32)
    src.view(np.uint32)[0, 4] = 0xFFC00001  # a negative NaN with payload -> canonical NaN
    got, _ = kernels.KERNELS[m](src, None, "null", T.FP32)
    for have, want in zip(_bits(got), SFU_SPECIAL_F32[m]):
        if want is not None:
            assert have == want, (m, hex(have), hex(want))


def _program(op, dt) -> str:
    rows = 1024 // (8 * dt.info.carrier_bits)
    t = f"!pto.tile<{rows}x8x{dt.ir}, valid=1x8>"
    if op in TERNARY_OPS:
        return (f"func.func @f(%a: {t}, %b: {t}, %c: {t}) -> {t} {{\n  %r = {op.name} %a, %b, %c "
                f": {t}\n  func.return %r : {t}\n}}")  # fmt: skip
    if op in FILL_OPS:
        return (f"func.func @f(%s: i64) -> {t} {{\n  %r = {op.name} %s {{pad = #pto.pad<zero>}} "
                f": {t}, i64\n  func.return %r : {t}\n}}")  # fmt: skip
    if op in TILE_SCALAR_OPS:
        return (f"func.func @f(%a: {t}, %s: i64) -> {t} {{\n  %r = {op.name} %a, %s "
                f"{{pad = #pto.pad<zero>}} : {t}, i64\n  func.return %r : {t}\n}}")  # fmt: skip
    return (f"func.func @f(%a: {t}) -> {t} {{\n  %r = {op.name} %a {{pad = #pto.pad<zero>}} : "
            f"{t}\n  func.return %r : {t}\n}}")  # fmt: skip


def _exec_case(op):
    dt = T.S32 if T.S32 in op.TYPES else T.FP32
    return op, dt


@pytest.mark.parametrize(
    "op", [*TILE_SCALAR_OPS, *UNARY_OPS, *TERNARY_OPS, *FILL_OPS], ids=lambda c: c.MNEMONIC
)
def test_execution_tile_and_decoded(op):
    """The tile interpreter and decoded execution of the formed block agree with the kernel
    reference above (one representative type per op; the scalar is linked through B.IOR)."""
    op, dt = _exec_case(op)
    text = _program(op, dt)
    if dt.is_integer:
        a = [7, -7, 100, -100, 3, 0, 1, 2]
        args = [np.array([a], np.int32)]
    else:
        a = POSITIVE
        args = [np.array([a], np.float32)]
    if op in TILE_SCALAR_OPS:
        args.append(3 if dt.is_integer else _raw_word(0.5, dt))
    if op in TERNARY_OPS:
        args += [args[0] + 1, args[0] * 2]
    if op in FILL_OPS:
        args = [7]
    (tile_out,) = run(text, "f", *args)
    (blk_out,) = run(_bundled(text), "f", *args)
    assert np.array_equal(tile_out, blk_out, equal_nan=True)
    extra = {"shape": (1, 8)} if op in FILL_OPS else {}
    ref, _ = kernels.KERNELS[op.MNEMONIC](*args, None, "null", dt, **extra)
    assert np.array_equal(tile_out[0], ref, equal_nan=True)


def test_integer_zero_scalar_faults_before_effect():
    """TDIVS / TREMS: an integer zero scalar is TileLegality (TilePayloadNonzero); float
    +-0 is a legal divisor (AVS TDIVS-ZERO-001)."""
    for m in ("TDIVS", "TREMS"):
        with pytest.raises(PTOFault) as e:
            kernels.KERNELS[m](np.array([[1, 2]], np.uint32), 0, None, "null", T.U32)
        assert e.value.kind == "TileLegality"
    got, _ = kernels.KERNELS["TDIVS"](np.array([[1.0, -2.0]], np.float32), 0x80000000, None)
    assert list(got[0]) == [-math.inf, math.inf]


FMA_TYPES = sorted(TERNARY_OPS[0].TYPES)


@pytest.mark.parametrize("dt", FMA_TYPES, ids=lambda t: t.name)
def test_tfma_kernel_against_reference(dt):
    """TFMA: exact a * b + c rounded ONCE (Fraction), integers modulo the width."""
    if dt.is_integer:
        a, b = _int_values(dt)
        c = list(reversed(a))
        mod = 1 << dt.bits
        want = [(x * y + z) % mod for x, y, z in zip(a, b, c)]
        want = [w - mod if dt.is_signed and w >> (dt.bits - 1) else w for w in want]
        got, _ = kernels.tfma_tile(*(np.array([v], _npdt(dt)) for v in (a, b, c)), None,
                                   "null", dt)  # fmt: skip
        assert [int(v) for v in got[0]] == want
        return
    a, b = FLOAT_A, FLOAT_B
    c = [0.25, -6.0, 0.5, -9.0, 1.0, 9.0, -3.0, 0.75]
    arrs = [np.array([v], _npdt(dt)) for v in (a, b, c)]
    got, _ = kernels.tfma_tile(*arrs, None, "null", dt)
    a, b, c = ([float(x) for x in v[0].astype(np.float64)] for v in arrs)  # stored values
    want = [round_to_format(Fraction(x) * Fraction(y) + Fraction(z), dt) for x, y, z in zip(a, b, c)]
    assert [Fraction(float(v)) for v in got[0].astype(np.float64)] == want


def test_tfma_single_rounding_fp32():
    """(1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly: a rounded product would give 0."""
    a = np.array([[1 + 2**-23]], np.float32)
    b = np.array([[1 - 2**-23]], np.float32)
    got, _ = kernels.tfma_tile(a, b, np.array([[-1.0]], np.float32), None)
    assert float(got[0, 0]) == -(2.0**-46)
    # round-to-odd matters: a tie in FP16 after an inexact float64 sum
    x = np.array([[1.0]], np.float16)
    y = np.array([[2.0**-11]], np.float16)  # 1 + 2^-11 + tiny is above the FP16 tie
    z = np.array([[2.0**-24]], np.float16)
    got, _ = kernels.tfma_tile(x, y, z, None)
    want = round_to_format(Fraction(1) * Fraction(2**-11) + Fraction(2**-24), T.FP16)
    assert Fraction(float(got[0, 0])) == want


def test_texpands_fills_raw_low_bits():
    """TEXPANDS copies the scalar's low element-width bits (AVS TEXPANDS-BUNDLE-001)."""
    out, dfn = kernels.texpands_tile(0x1234_56AB, (1, 2), "null", T.U8, shape=(2, 64))
    assert list(out[0, :2]) == [0xAB, 0xAB] and dfn[0, :2].all() and not dfn[1].any()


EXECUTED = frozenset(op.name for op in (*TILE_SCALAR_OPS, *UNARY_OPS, *TERNARY_OPS, *FILL_OPS))
"""Ops with execution evidence here (the completeness test reads this)."""


def test_tensor_map_lowers_and_agrees():
    """``pto.map`` (the tensor-level kind table) gives the same answer on tensors, after
    ``pto-tile-to-capacity`` and after block formation (decoded execution)."""
    from pathlib import Path

    from interpreter.ssa.runner import build_context, parse_module_text
    from passes import get_all_passes

    text = (Path(__file__).parents[1] / "filecheck/passes/pto_map.mlir").read_text()
    a = np.arange(100, dtype=np.int32) - 50
    b = np.arange(63, dtype=np.float16).reshape(7, 9) / 16
    args = (a, -3, b, np.float16(0.5))
    want = run(text, "f", *args)
    assert np.array_equal(want[1], (np.exp(b.astype(np.float64)).astype(np.float16) * 0.5))
    ctx = build_context()
    m = parse_module_text(text, ctx=ctx)
    for name in ("pto-tile-to-capacity", "pto-form-blocks", "pto-assign-registers"):
        get_all_passes()[name]()().apply(ctx, m)
        got = run(m, "f", *args)
        assert all(np.array_equal(x, y) for x, y in zip(got, want)), name
