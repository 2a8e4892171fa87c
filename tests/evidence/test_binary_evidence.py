"""Evidence for the binary elementwise family (TEPL mode 0: TADD TSUB TMUL TDIV TREM TAND TOR
TXOR TMAX TMIN; PTO-SPEC 5, D6-D9, D12).

Every op runs through the tile interpreter (``interpreter.run``) and, where the decoded path
supports it, through ``pto-form-blocks`` + decoded execution, against an INDEPENDENT Python
reference: ``fractions.Fraction`` exact arithmetic rounded once to the format (RNE, written
here from the format's precision and minimum exponent) for floats, Python ints with explicit
two's-complement wrapping, truncating division and ``%`` floor modulo for integers. Integer
zero divisors of TDIV / TREM fault with TileLegality before any effect (D8); float zero
divisors do not.
"""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from interpreter import run
from interpreter.ssa.runner import build_context, parse_module_text
from passes import get_all_passes
from pto_dialect import isa
from pto_dialect.block_ops import BlockOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.ops import BINARY_OPS, BinaryTileOp, TAddOp, TMaxOp

T = TileDataType
NARROW_FP32 = frozenset({T.TF32, T.HF32})
"""Float32 carriers with the low 13 (TF32) / 12 (HF32) bits zero (PTO-SPEC 1)."""

FLOAT_FORMATS: dict[TileDataType, tuple[int, int]] = {
    T.FP64: (53, -1022),
    T.FP32: (24, -126),
    T.TF32: (11, -126),
    T.HF32: (12, -126),
    T.FP16: (11, -14),
    T.BF16: (8, -126),
    T.E4M3: (4, -6),
    T.E5M2: (3, -14),
}
"""(precision p incl. the hidden bit, minimum normal exponent) per float format (PTO-SPEC 1)."""


def round_to_format(q: Fraction, dt: TileDataType) -> Fraction:
    """Round an exact rational to ``dt`` with round-to-nearest-even (subnormals included;
    the test values stay far from overflow)."""
    p, emin = FLOAT_FORMATS[dt]
    if q == 0:
        return q
    x = abs(q)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    quantum = Fraction(2) ** (max(e, emin) - p + 1)
    n = x / quantum
    fl = math.floor(n)
    rem = n - fl
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1):
        fl += 1
    return (1 if q > 0 else -1) * fl * quantum


def _floor(q: Fraction) -> int:
    return math.floor(q)


FLOAT_REF = {
    "TADD": lambda a, b: a + b,
    "TSUB": lambda a, b: a - b,
    "TMUL": lambda a, b: a * b,
    "TDIV": lambda a, b: a / b,
    "TREM": lambda a, b: a - _floor(a / b) * b,  # floor modulo (D7)
    "TMAX": max,
    "TMIN": min,
}


def _wrap(x: int, bits: int, signed: bool) -> int:
    x &= (1 << bits) - 1
    return x - (1 << bits) if signed and x >> (bits - 1) else x


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


INT_REF = {
    "TADD": lambda a, b: a + b,
    "TSUB": lambda a, b: a - b,
    "TMUL": lambda a, b: a * b,
    "TDIV": _trunc_div,  # truncates toward zero; INT_MIN / -1 wraps (ScalarDivideSigned)
    "TREM": lambda a, b: a % b,  # Python % is floor modulo; INT_MIN % -1 = 0 (D8)
    "TAND": lambda a, b: a & b,  # Python ints: two's complement of unbounded width, then
    "TOR": lambda a, b: a | b,  # wrapped to the element width (logical/T{AND,OR,XOR}.asl;
    "TXOR": lambda a, b: a ^ b,  # integers only, TileVecScalarIntegerDataTypeSupported)
    "TMAX": max,
    "TMIN": min,
    # count = unsigned low log2(W) bits of the second operand (logical/TSHL.asl, TSHR.asl);
    # Python's >> on a negative int is arithmetic, on a non-negative one logical
    "TSHL": lambda a, b, w: a << (b & (w - 1)),
    "TSHR": lambda a, b, w: a >> (b & (w - 1)),
}
SHIFTS = ("TSHL", "TSHR")

FLOAT_A = [1.5, -2.0, 0.25, 3.0, -0.5, 6.0, 1.0, -0.75]
FLOAT_B = [0.5, 4.0, -0.75, 3.0, 2.0, -1.5, 3.0, 0.25]
"""Exact in every float format above; products/sums/quotients exercise rounding (9 and 4.5 in
E5M2 are ties, 1/3 is inexact everywhere)."""


def _int_values(dt: TileDataType) -> tuple[list[int], list[int]]:
    bits = dt.bits
    if dt.is_signed:
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        return [7, -7, 7, -7, hi, lo, 0, 100], [3, 3, -3, -3, 1, -1, 5, -7]
    hi = (1 << bits) - 1
    return [7, 0, 200, hi, 1, 5, 100, 3], [3, 1, 7, 1, hi, 2, 9, 3]


def _tile_type(dt: TileDataType) -> str:
    rows = 1024 // (8 * dt.info.carrier_bits)
    return f"!pto.tile<{rows}x8x{dt.ir}, valid=1x8>"


def _program(op: type[BinaryTileOp], dt: TileDataType) -> str:
    t = _tile_type(dt)
    return f"""func.func @f(%a: {t}, %b: {t}) -> {t} {{
  %r = {op.name} %a, %b {{pad = #pto.pad<zero>}} : {t}
  func.return %r : {t}
}}"""


def _bundled(text: str):
    ctx = build_context()
    m = parse_module_text(text, ctx=ctx)
    m.verify()
    passes = get_all_passes()
    for name in ("pto-form-blocks", "pto-assign-registers"):
        if name in passes:
            passes[name]()().apply(ctx, m)
    m.verify()
    assert not any(isinstance(o, BinaryTileOp) for o in m.walk()), "the op was not formed"
    return m


def _arrays(dt: TileDataType, a: list, b: list) -> tuple[np.ndarray, np.ndarray]:
    npdt = np.float32 if dt in NARROW_FP32 else dt.numpy_dtype()
    return np.array([a], npdt), np.array([b], npdt)


def _reference(op: type[BinaryTileOp], dt: TileDataType, a: list, b: list) -> list:
    if dt.is_float:
        f = FLOAT_REF[op.MNEMONIC]
        return [round_to_format(f(Fraction(x), Fraction(y)), dt) for x, y in zip(a, b)]
    f = INT_REF[op.MNEMONIC]
    if op.MNEMONIC in SHIFTS:
        return [_wrap(f(x, y, dt.bits), dt.bits, dt.is_signed) for x, y in zip(a, b)]
    return [_wrap(f(x, y), dt.bits, dt.is_signed) for x, y in zip(a, b)]


def _check(op, dt, got: np.ndarray, a: list, b: list) -> None:
    want = _reference(op, dt, a, b)
    assert got.shape == (4, 1, 8)
    for p in range(4):
        row = got[p, 0]
        if dt.is_float:
            vals = [Fraction(float(v)) for v in row.astype(np.float64)]
            assert vals == want, (op.MNEMONIC, dt.name, vals, want)
            if op.MNEMONIC == "TREM":  # D7: a zero result keeps the dividend's sign
                for v, x in zip(row.astype(np.float64), a):
                    if v == 0:
                        assert math.copysign(1.0, v) == math.copysign(1.0, x)
        else:
            assert [int(v) for v in row] == want, (op.MNEMONIC, dt.name)


def _cases():
    for op in BINARY_OPS:
        for dt in sorted(op.TYPES):
            yield pytest.param(op, dt, id=f"{op.MNEMONIC}-{dt.name}")


def _values(dt: TileDataType, op: type[BinaryTileOp]):
    if dt.is_float:
        return FLOAT_A, FLOAT_B
    a, b = _int_values(dt)
    if op.MNEMONIC not in ("TDIV", "TREM"):
        b = [*b[:6], 0, b[7]]  # a zero second operand is an ordinary value for these ops
    return a, b


@pytest.mark.parametrize("op, dt", list(_cases()))
def test_tile_level_against_reference(op, dt):
    """Each op x each type of its set (D6 for TREM; TileVecArithmeticDataTypeSupported for
    the siblings) through the tile interpreter, on 4 PEs, Zero padding (D9, D13)."""
    a, b = _values(dt, op)
    (got,) = run(_program(op, dt), "f", *_arrays(dt, a, b))
    _check(op, dt, got, a, b)


@pytest.mark.parametrize("op, dt", list(_cases()))
def test_decoded_block_against_reference(op, dt):
    """The same through pto-form-blocks and decoded execution; the BSTART word carries the
    op's TEPL selector (PTO-SPEC 3.1)."""
    m = _bundled(_program(op, dt))
    a, b = _values(dt, op)
    (got,) = run(m, "f", *_arrays(dt, a, b))
    _check(op, dt, got, a, b)
    (blk,) = [o for o in m.walk() if isinstance(o, BlockOp)]
    cmd = isa.decode(isa.encode(blk.commands()[0]), strict=True)
    assert (cmd.mode, cmd.function, cmd.dtype) == (op.MODE, op.FUNCTION, dt.value)


INT_DIVIDING = [op for op in BINARY_OPS if op.MNEMONIC in ("TDIV", "TREM")]


@pytest.mark.parametrize("op", INT_DIVIDING, ids=lambda o: o.MNEMONIC)
def test_integer_zero_divisor_faults_before_effect(op):
    """D8 / TilePayloadNonzero: an integer zero anywhere in the divisor's valid rectangle is
    TileLegality, raised before any result exists, for every integer type of the op."""
    for dt in sorted(t for t in op.TYPES if t.is_integer):
        a, b = _arrays(dt, [5] * 8, [1, 2, 3, 0, 1, 2, 3, 4])
        a0, b0 = a.copy(), b.copy()
        with pytest.raises(PTOFault) as e:
            run(_program(op, dt), "f", a, b)
        assert e.value.kind == "TileLegality" and "zero" in e.value.message
        assert (a == a0).all() and (b == b0).all()


def test_float_zero_divisor_is_a_value():
    """TDIV: x/+-0 is +-inf, 0/0 NaN (IEEE); TREM: a +-0 divisor gives NaN (D7). No fault."""
    tdiv = next(o for o in BINARY_OPS if o.MNEMONIC == "TDIV")
    trem = next(o for o in BINARY_OPS if o.MNEMONIC == "TREM")
    a, b = _arrays(T.FP32, [1.0, -1.0, 0.0, 2.0, 1, 1, 1, 1], [0.0, 0.0, 0.0, -0.0, 1, 1, 1, 1])
    (d,) = run(_program(tdiv, T.FP32), "f", a, b)
    assert d[0, 0, :4].tolist()[:2] == [math.inf, -math.inf] and math.isnan(d[0, 0, 2])
    assert d[0, 0, 3] == -math.inf
    (r,) = run(_program(trem, T.FP32), "f", a, b)
    assert np.isnan(r[0, 0, :4]).all() and r[0, 0, 4:].tolist() == [0.0] * 4


def test_minmax_signed_zero_and_nan():
    """TMAX/TMIN (HardwareNumericMinMaxSpecial): max(+0,-0) = +0, min = -0; one NaN -> the
    other operand."""
    tmax = next(o for o in BINARY_OPS if o.MNEMONIC == "TMAX")
    tmin = next(o for o in BINARY_OPS if o.MNEMONIC == "TMIN")
    a, b = _arrays(T.FP16, [0.0, -0.0, math.nan, 2.0, 1, 1, 1, 1], [-0.0, 0.0, 3.0, math.nan, 1, 1, 1, 1])
    (mx,) = run(_program(tmax, T.FP16), "f", a, b)
    (mn,) = run(_program(tmin, T.FP16), "f", a, b)
    assert [math.copysign(1.0, float(v)) for v in mx[0, 0, :2]] == [1.0, 1.0]
    assert [math.copysign(1.0, float(v)) for v in mn[0, 0, :2]] == [-1.0, -1.0]
    assert mx[0, 0, 2:4].tolist() == [3.0, 2.0] and mn[0, 0, 2:4].tolist() == [3.0, 2.0]


@pytest.mark.parametrize("dt, want", [(T.TF32, 1.0), (T.HF32, 1.0 + 2.0**-11)], ids=["TF32", "HF32"])
def test_tf32_hf32_round_to_their_mantissa(dt, want):
    """TF32 keeps 10 fraction bits, HF32 11 (PTO-SPEC 1): 1 + 2^-11 rounds to 1 (tie to even)
    in TF32 and is exact in HF32. An input with nonzero low bits is TileLegality for TMAX
    (TileOperandsLegal_ExecuteTileBinary checks encodings for MAX / MIN only); TADD takes the
    carrier's value and rounds the result."""
    a = np.array([[1.0] * 8], np.float32)
    b = np.array([[2.0**-11] * 8], np.float32)
    (got,) = run(_program(TAddOp, dt), "f", a, b)
    assert got.astype(np.float64).tolist() == [[[want] * 8]] * 4
    bad = np.array([[1.0 + 2.0**-20] * 8], np.float32)
    (got,) = run(_program(TAddOp, dt), "f", bad, b)
    assert (got.view(np.uint32) & (0x1FFF if dt is T.TF32 else 0x0FFF) == 0).all()
    with pytest.raises(PTOFault) as e:
        run(_program(TMaxOp, dt), "f", bad, b)
    assert e.value.kind == "TileLegality"


def test_rounding_reference_self_check():
    """The reference rounder against hand-derived values: E5M2 9 -> 8 and 4.5 -> 4 (ties to
    even), FP16 1/3 -> 0x3555 (0.333251953125), E4M3 smallest subnormal 2^-9."""
    assert round_to_format(Fraction(9), T.E5M2) == 8
    assert round_to_format(Fraction(9, 2), T.E5M2) == 4
    assert round_to_format(Fraction(1, 3), T.FP16) == Fraction(1365, 4096)
    assert round_to_format(Fraction(3, 2**11), T.E4M3) == Fraction(1, 2**9)
    assert float(np.float16(1 / 3)) == float(Fraction(1365, 4096))
    assert float(ml_dtypes.float8_e5m2(9.0)) == 8.0


EXECUTED = frozenset(op.name for op in BINARY_OPS)
"""Ops executed by this module's reference tests (read by test_completeness)."""
