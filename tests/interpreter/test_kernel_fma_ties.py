"""TFMA near rounding midpoints, FP64 and the FP32-range formats, and FP64 TFMA's
exact-rational lanes (issue 27, seed 4101).

FP64 TFMA emulates one rounding of ``a * b + c`` (Boldo-Melquiond: exact product
``uh + ul``, ``TwoSum(c, uh) = th + tl``, ``v = RO(tl + ul)``, result ``RN(th + v)``). The
round-to-odd step matters only when ``th + v`` would land on a midpoint of the result's grid:
random operands almost never get there, so the mutants that test the wrong parity bit or fix
an exact ``v`` survived the random properties. Here the lanes are built to sit on, or a few
units of ``2^-104`` beside, a midpoint:

``a = 1 + i 2^-52``, ``b = 1 + j 2^-52`` with ``i + j = s = (2m + 1) 2^(k-1)`` and ``ij < 2^51``,
so ``a * b = 1 + s 2^-52 + ij 2^-104`` with ``uh = 1 + s 2^-52`` and ``ul = ij 2^-104``; and
``c = C 2^(k-52)`` with ``2^52 <= C < 2^53``: ``c + uh`` is then a midpoint of ``c``'s grid
(``2^(k-52)``) and the exact value lies ``ij 2^-104`` above it (``ij = 0``: on it, the tie goes
to even). Signs and power-of-two scalings of the three operands keep the structure; some
lanes put the product below 2^-960 (each exponent moderate) and the sum above it, where
the product's low part ``ul`` would be subnormal (seed 4103: a bound on ``ea - eb`` instead
of ``ea + eb`` let such lanes into the emulation).

The second property takes the lanes the kernel hands to exact rationals (an operand exponent
beyond +-990, a product or addend beyond 2^+-960) with exactly representable results (1, 0,
small values): ``a = y 2^E``, ``b = 2^-E``, ``c = z - y`` (Sterbenz: exact).

The FP32-range formats (FP32, TF32, HF32, BF16) form ``a * b + c`` in float64 with
round-to-odd and round that once to the format. The lanes sit on a midpoint of the format's
grid plus a few float64 units: ``a`` a small odd integer, ``b`` such that ``M = a b`` has
``p + 1`` significant bits with the last one set (a midpoint of the ``p``-bit grid), and
``c`` a format value of about ``w`` float64 units of ``M`` (``w`` in [1/8, 8]), so that the
float64 sum of ``M + c`` is inexact and rounds onto, or next to, the midpoint. (FP16 and the
FP8 formats need no such lanes: their ``a * b + c`` is always exact in float64.) The reference
there is the exact rational rounded half-even by hand on the ``p``-bit grid.

The FP64 reference is ``test_tfma_edges_evidence.reference``: Fractions rounded by hand on the
float64 grid, the flags of ``TileFixedFusedMultiplyAddValue``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import KERNELS
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples
from tests.interpreter.test_tfma_edges_evidence import bits, reference, tfma

LANES = 96


def _check(lanes: list[tuple[float, float, float]]) -> None:
    a, b, c = ([bits(x[i]) for x in lanes] for i in range(3))
    got, got_flags = tfma(a, b, c)
    flags = 0
    for n, lane in enumerate(lanes):
        want, f = reference(*(bits(v) for v in lane))
        flags |= f
        assert hex(got[n]) == hex(want), lane
    assert got_flags == flags


def _near_midpoint(rng: np.random.Generator) -> tuple[float, float, float]:
    # a product below 2^-960, the sum above (each exponent moderate): ul is subnormal
    under = rng.random() < 0.3
    e_sum = -int(rng.integers(958, 1001))
    k = int(rng.integers(max(2, -956 - e_sum), 53)) if under else int(rng.integers(2, 53))
    m = int(rng.integers(0, 8)) if rng.random() < 0.7 else int(rng.integers(0, 2 ** (52 - k)))
    s = (2 * m + 1) << (k - 1)
    if s >= 1 << 52:
        s = 1 << (k - 1)
    i = int(rng.integers(0, min(s, 64) + 1))
    j = s - i
    if i * j >= 1 << 51:
        i, j = 0, s
    if rng.random() < 0.5:
        i, j = j, i
    a, b = 1 + i * 2.0**-52, 1 + j * 2.0**-52
    c = float(int(rng.integers(1 << 52, 1 << 53))) * 2.0 ** (k - 52)
    if not under and rng.random() < 0.25:  # an exact tie with ul != 0: c = t 2^-53 - ul
        i, j = (int(x) for x in rng.integers(1, 1 << 20, 2))
        a, b = 1 + i * 2.0**-52, 1 + j * 2.0**-52
        exact_c = Fraction(int(rng.choice([-5, -3, -1, 1, 3, 5])), 2**53) - Fraction(i * j, 2**104)
        if Fraction(float(exact_c)) == exact_c:
            c = float(exact_c)
    if rng.random() < 0.5:  # negate the whole sum
        a, c = -a, -c
    if rng.random() < 0.5:  # the product's sign twice: unchanged
        a, b = -a, -b
    ea = int(rng.integers(-900, 901)) if rng.random() < 0.5 else 0
    eb = int(rng.integers(-900, 901)) if rng.random() < 0.5 else 0
    if abs(ea + eb) > 950:
        eb = -ea
    if under:
        ea = e_sum // 2
        eb = e_sum - ea
    if rng.random() < 0.2:
        # a b = 1 - i^2 2^-104 (uh = 1, ul = -i^2 2^-104) against c in [2^53, 2^54): the exact
        # sum lies just below the midpoint c + 1; scaled so that ul is below the subnormals
        i = int(rng.integers(1, 1 << 10))
        a, b = 1 + i * 2.0**-52, 1 - 2 * i * 2.0**-53
        c = math.copysign(2.0 * int(rng.integers(1 << 52, 1 << 53)), c)
        if (a < 0) != (c < 0):
            a = -a
        e_sum = -int(rng.integers(940, 1013))
        ea = e_sum // 2
        eb = e_sum - ea
    return math.ldexp(a, ea), math.ldexp(b, eb), math.ldexp(c, ea + eb)


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fp64_lanes_near_a_midpoint(seed: int) -> None:
    rng = np.random.default_rng(seed)
    _check([_near_midpoint(rng) for _ in range(LANES)])


def test_fp64_midpoint_hand_examples() -> None:
    """k = 10, s = 2^9: c + uh = 1025 + 2^-43 is the midpoint between 1025 and 1025 + 2^-42.
    i = 0, j = 2^9: a tie, to the even 1025; i = 1, j = 511: 511 2^-104 above it, rounds up."""
    c = 1024.0
    tie = (1.0, 1 + 2.0**-43, c)
    above = (1 + 2.0**-52, 1 + 511 * 2.0**-52, c)
    assert tfma([bits(tie[0])], [bits(tie[1])], [bits(c)])[0] == [bits(1025.0)]
    assert tfma([bits(above[0])], [bits(above[1])], [bits(c)])[0] == [bits(1025 + 2.0**-42)]
    _check([tie, above])


def _exact_hard_lane(rng: np.random.Generator) -> tuple[float, float, float]:
    e = int(rng.integers(990, 1024)) if rng.random() < 0.5 else -int(rng.integers(990, 1023))
    y = float(rng.integers(1 << 52, 1 << 53)) * 2.0**-52 * (1 if rng.random() < 0.5 else -1)
    if rng.random() < 0.3:
        y = math.copysign(1.0, y)
    pick = rng.random()
    if pick < 0.3:
        z = 1.0
    elif pick < 0.5:
        z = 0.0
    else:  # z within a factor 2 of y: z - y exact (Sterbenz)
        z = y * float(rng.uniform(0.5, 2.0))
    if e > 0:  # a = y 2^e finite, b = 2^-e
        a, b = math.ldexp(y, e - 1), math.ldexp(2.0, -e)
    else:
        a, b = math.ldexp(y, e), math.ldexp(1.0, -e)
    if rng.random() < 0.5:
        a, b = b, a
    return a, b, z - y


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fp64_exact_results_on_the_rational_lanes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    _check([_exact_hard_lane(rng) for _ in range(LANES)])


def test_fp64_rational_lane_giving_exactly_one() -> None:
    a, b, c = 2.0**995, 2.0**-996, 0.5  # |exponent of a| >= 990: the rational lane; a * b + c = 1
    assert tfma([bits(a)], [bits(b)], [bits(c)]) == ([bits(1.0)], 0)
    assert tfma([bits(a)], [bits(-b)], [bits(0.5)]) == ([bits(0.0)], 0)  # exact zero: +0


# -- the FP32-range formats: p significant bits, FP32's exponents --------------------------------
PRECISION = {T.FP32: 24, T.HF32: 12, T.TF32: 11, T.BF16: 8}


def _rne(x: Fraction, p: int) -> Fraction:
    """x rounded to nearest even with p significant bits (x normal in the format)."""
    if x == 0:
        return x
    mag = abs(x)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    step = Fraction(2) ** (e - p + 1)
    q, r = divmod(mag, step)
    if 2 * r > step or (2 * r == step and q % 2):
        q += 1
    return q * step if x > 0 else -q * step


def _narrow_lane(rng: np.random.Generator, p: int) -> tuple[float, float, float]:
    o = int(rng.choice([3, 5, 7, 9, 11, 13, 15, 17, 21, 25]))
    lo, hi = -(-(1 << p) // o), ((1 << (p + 1)) - 1) // o
    b = int(rng.integers(lo, hi + 1)) | 1  # M = o b odd with p + 1 bits: a midpoint
    while o * b >= 1 << (p + 1):
        b -= 2
    m_exp = p + 1  # M < 2^(p+1)
    ulp64 = 2.0 ** (m_exp - 53)
    w = float(rng.uniform(0.125, 8.0)) * (1 if rng.random() < 0.5 else -1)
    c = float(Fraction(w * ulp64).limit_denominator(1 << 200))  # any bits; cut to p below
    cm, ce = math.frexp(c)
    c = math.ldexp(math.floor(cm * 2**p) / 2**p, ce)  # p significant bits
    if rng.random() < 0.1:
        c = 0.0  # an exact tie: to even
    elif rng.random() < 0.3:  # M with p + 2 bits, c = +-1: M + c is an exact tie
        o = int(rng.choice([5, 7, 9, 11, 13]))
        lo, hi = -(-(1 << (p + 1)) // o), ((1 << (p + 2)) - 1) // o
        b = int(rng.integers(lo, hi + 1)) | 1
        while o * b >= 1 << (p + 2):
            b -= 2
        c = 1.0 if (o * b) % 4 == 1 else -1.0
    ea, eb = int(rng.integers(-30, 31)), int(rng.integers(-30, 31))
    a_, b_, c_ = math.ldexp(o, ea), math.ldexp(b, eb), math.ldexp(c, ea + eb)
    if rng.random() < 0.5:
        a_, c_ = -a_, -c_
    if rng.random() < 0.5:
        a_, b_ = b_, a_
    return a_, b_, c_


@pytest.mark.parametrize("t", list(PRECISION), ids=lambda t: t.asm)
@settings(max_examples=examples(8), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fp32_range_lanes_near_a_midpoint(t, seed: int) -> None:
    p = PRECISION[t]
    rng = np.random.default_rng(seed)
    lanes = [_narrow_lane(rng, p) for _ in range(LANES)]
    dtype = np.float32 if t is not T.BF16 else T.BF16.numpy_dtype()
    a, b, c = (np.array([[x[i] for x in lanes]], dtype) for i in range(3))
    for arr, i in ((a, 0), (b, 1), (c, 2)):  # every operand is a value of the format
        assert arr.astype(np.float64).ravel().tolist() == [x[i] for x in lanes]
    got, _ = KERNELS["TFMA"](a, b, c, None, "null", t)
    want = [float(_rne(Fraction(x) * Fraction(y) + Fraction(z), p)) for x, y, z in lanes]
    assert got.astype(np.float64).ravel().tolist() == want
