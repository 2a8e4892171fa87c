"""FP64 TFMA edges: one rounding of the exact a * b + c, infinities and signed zeros included
(issue 23, item 5).

Before the fix: ``TFMA(1e300, 1e300, -inf)`` gave NaN and NV (the product was rounded to +inf
first; exact: -inf, no flag) and ``TFMA(-1e-300, 1e-300, 0.0)`` gave +0 without UF/NX (the
product was rounded to -0 and added to +0; exact: -1e-600, which rounds to -0, UF and NX).

The reference is written independently from ``TileFixedFusedMultiplyAddValue``
(``asl/tile/model/execution/fused-multiply-add.asl``): a signalling NaN, 0 * inf or an
infinite product against the opposite infinity is the invalid result (canonical NaN, NV
only); a quiet NaN propagates (canonical NaN, no flag); otherwise the exact value with
``fractions.Fraction``, rounded to nearest even on the float64 grid (subnormals at 2^-1074),
with OF on overflow, NX when inexact and UF when inexact and tiny after rounding (the value
rounded to 53 bits with unbounded exponent is below 2^-1022,
``NumericTininessDetection_AfterRounding``, ``asl/arch/features/mx-formats.asl``); an exact
zero is -0 only when the product and the addend are both negative zeros. No numpy arithmetic.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import KERNELS
from interpreter.kernels.status import DZ, NV, NX, OF, UF, recording
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples

CANONICAL_NAN = 0x7FF8000000000000
MIN_NORMAL = Fraction(2) ** -1022
SUBNORMAL_STEP = Fraction(2) ** -1074
MAX_FINITE = (2 - Fraction(2) ** -52) * Fraction(2) ** 1023


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def from_bits(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def is_snan(b: int) -> bool:
    return (b >> 52) & 0x7FF == 0x7FF and b & ((1 << 52) - 1) != 0 and not (b >> 51) & 1


def neg(b: int) -> bool:
    return bool(b >> 63)


def _round_half_even(x: Fraction, step: Fraction) -> Fraction:
    q, r = divmod(x, step)  # x = q * step + r, 0 <= r < step
    if 2 * r > step or (2 * r == step and q % 2):
        q += 1
    return q * step


def _step(x: Fraction, unbounded: bool) -> Fraction:
    """The float64 grid step at |x| (53-bit significand; at least 2^-1074 unless unbounded)."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1  # now 2^e <= x < 2^(e+1)
    step = Fraction(2) ** (e - 52)
    return step if unbounded else max(step, SUBNORMAL_STEP)


def reference(ab: int, bb: int, cb: int) -> tuple[int, int]:
    """(result bits, flags) of FP64 TFMA on bit patterns."""
    a, b, c = from_bits(ab), from_bits(bb), from_bits(cb)
    if is_snan(ab) or is_snan(bb) or is_snan(cb):
        return CANONICAL_NAN, NV
    zero_inf = (a == 0 and math.isinf(b)) or (math.isinf(a) and b == 0)
    prod_inf = math.isinf(a) or math.isinf(b)
    prod_neg = neg(ab) != neg(bb)
    if zero_inf or (prod_inf and math.isinf(c) and prod_neg != neg(cb)):
        return CANONICAL_NAN, NV
    if math.isnan(a) or math.isnan(b) or math.isnan(c):
        return CANONICAL_NAN, 0
    if prod_inf:
        return bits(-math.inf if prod_neg else math.inf), 0
    if math.isinf(c):
        return cb, 0
    x = Fraction(a) * Fraction(b) + Fraction(c)
    if x == 0:
        both_negative_zeros = (a == 0 or b == 0) and prod_neg and c == 0 and neg(cb)
        return bits(-0.0 if both_negative_zeros else 0.0), 0
    mag = abs(x)
    r = _round_half_even(mag, _step(mag, unbounded=False))
    sign = -1 if x < 0 else 1
    if r > MAX_FINITE:
        return bits(sign * math.inf), OF | NX
    flags = 0
    if r != mag:
        flags |= NX
        if _round_half_even(mag, _step(mag, unbounded=True)) < MIN_NORMAL:
            flags |= UF
    value = float(r) if r else 0.0
    return bits(math.copysign(value, sign)), flags


def tfma(ab: list[int], bb: list[int], cb: list[int]) -> tuple[list[int], int]:
    arr = [np.array([v], np.uint64).view(np.float64).reshape(1, -1) for v in (ab, bb, cb)]
    with recording() as st:
        got, _ = KERNELS["TFMA"](*arr, None, "null", T.FP64)
    return [int(v) for v in got.view(np.uint64).ravel()], st.bits



# i = j = 50_000_000: a * b = 2^-1022 (1 + i e)(1 + j e), e = 2^-52, and c = -(i + j + 1) 2^-1074
# put the exact sum just above 2^-1022 - 2^-1075: tiny after rounding at 53 bits (UF), yet
# rounded on the subnormal grid it is 2^-1022 (the razor edge of tininess after rounding).
_I = 50_000_000
EDGE_A = 1 + _I * 2.0**-52
EDGE_B = 2.0**-1022 * (1 + _I * 2.0**-52)
EDGE_C = -(2 * _I + 1) * 2.0**-1074

ISSUE_CASES = [
    (1e300, 1e300, -math.inf),  # exact -inf, no NV (was NaN + NV)
    (-1e-300, 1e-300, 0.0),  # exact -1e-600 -> -0, UF NX (was +0, no flag)
    (1e300, 1e300, 0.0),  # overflow: +inf, OF NX
    (-1e300, 1e300, -0.0),  # -inf, OF NX
    (1e-300, 1e-300, -0.0),  # +0 with UF NX
    (-0.0, 5.0, -0.0),  # -0: both negative zeros
    (-0.0, 5.0, 0.0),  # +0
    (1e-200, 1e-200, 1e-310),  # the product is lost below the subnormal: NX UF
    (math.inf, 0.0, math.nan),  # 0 * inf: NV even with a quiet NaN addend (ASL)
    (math.inf, -2.0, math.inf),  # opposite infinities: NaN, NV
    (EDGE_A, EDGE_B, EDGE_C),
]


@pytest.mark.parametrize(("a", "b", "c"), ISSUE_CASES)
def test_fp64_edges(a: float, b: float, c: float) -> None:
    want, want_flags = reference(bits(a), bits(b), bits(c))
    got, got_flags = tfma([bits(a)], [bits(b)], [bits(c)])
    assert (hex(got[0]), got_flags) == (hex(want), want_flags), (a, b, c)


def test_issue_values_exactly() -> None:
    got, flags = tfma([bits(1e300)], [bits(1e300)], [bits(-math.inf)])
    assert from_bits(got[0]) == -math.inf and not flags & NV
    got, flags = tfma([bits(-1e-300)], [bits(1e-300)], [bits(0.0)])
    assert got[0] == bits(-0.0) and flags & UF and flags & NX


SPECIALS = [bits(v) for v in (0.0, -0.0, math.inf, -math.inf, 1.0, -1.0, 1e300, -1e300, 1e-300,
                              -1e-300, 2.0**-1074, -(2.0**-1074), 2.0**-1022, 1.7976931348623157e308,
                              1 + 2**-52, 1 - 2**-53)] + [0x7FF8000000000001, 0x7FF0000000000001,
                                                          0xFFF4000000000000]  # fmt: skip

f64_bits = st.one_of(st.sampled_from(SPECIALS), st.integers(0, 2**64 - 1),
                     st.floats(allow_nan=False, width=64).map(bits))  # fmt: skip


@settings(max_examples=examples(300), deadline=None)
@given(a=f64_bits, b=f64_bits, c=f64_bits)
def test_fp64_against_the_rational_reference(a: int, b: int, c: int) -> None:
    want, want_flags = reference(a, b, c)
    got, got_flags = tfma([a], [b], [c])
    assert (hex(got[0]), got_flags) == (hex(want), want_flags)


@settings(max_examples=examples(20), deadline=None)
@given(lanes=st.lists(st.tuples(f64_bits, f64_bits, f64_bits), min_size=2, max_size=24))
def test_fp64_lanes_are_independent(lanes) -> None:
    a, b, c = (list(x) for x in zip(*lanes))
    got, got_flags = tfma(a, b, c)
    want = [reference(*lane) for lane in lanes]
    assert [hex(g) for g in got] == [hex(w) for w, _ in want]
    flags = 0
    for _, f in want:
        flags |= f
    assert got_flags == flags and not got_flags & DZ
