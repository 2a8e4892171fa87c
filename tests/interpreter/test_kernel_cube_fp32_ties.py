"""FP32 x FP32 CUBE terms next to an FP32 rounding midpoint, ``ordered`` profile (issue 27,
seed 4102); and the typing of the accumulator input C.

An FP32 x FP32 product has up to 48 significant bits, so it is no FP32 value and takes the
ordered profile's wide path: ``acc = RNE_fp32(acc + t)`` via the float64 sum, its TwoSum
error and round-to-odd. Round-to-odd decides only when the float64 sum lands on, or one
float64 unit beside, an FP32 midpoint; random operands never do, and the mutants that test
the wrong parity bit or step two units survived. Here every lane is TMATMUL_ACC with
``C = acc0 = +-2^k`` or ``+-2^k (1 + 2^-23)`` (an even and an odd FP32 neighbour) and one
term ``t = (2^23 + u)(2^23 - v) 2^(k - 70)`` with ``u - v = d`` small: relative to the
midpoint ``acc0 + 2^(k-24)`` the term sits ``W 2^(k-70)`` above it, ``W = d 2^23 - u v``, and
``W`` is steered through ``(-2^19, 2^19)`` (the float64 unit of acc0 is ``2^18`` of those, so
the exact sum falls on every side of the float64 grid points around the midpoint), or
anywhere up to ``2^23``. Signs are flipped per lane.

The reference is the profile's definition in Fractions: ``RNE_fp32(C + t)`` rounded by hand.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels.cube import cube_matrix
from pto_dialect.faults import PTOFault
from tests.budget import examples

LANES = 48


def rne32(x: Fraction) -> Fraction:
    """x rounded to nearest even on FP32's grid (normal range: the lanes stay there)."""
    if x == 0:
        return x
    mag = abs(x)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    assert -126 <= e <= 127
    step = Fraction(2) ** (e - 23)
    q, r = divmod(mag, step)
    if 2 * r > step or (2 * r == step and q % 2):
        q += 1
    return q * step if x > 0 else -q * step


def _lane(rng: np.random.Generator) -> tuple[float, float, float]:
    """(C, a, b): C an FP32 value, a * b the 48-bit term."""
    d = int(rng.integers(1, 4))
    w = float(rng.uniform(-(2**19), 2**19)) if rng.random() < 0.8 else float(rng.uniform(0, 2**23))
    # u (u - d) = d 2^23 - W
    u = round((d + math.sqrt(d * d + 4 * (d * 2**23 - w))) / 2)
    v = u - d
    k = int(rng.integers(-40, 41))
    c = math.ldexp(1.0 + (2.0**-23 if rng.random() < 0.5 else 0.0), k)
    ea = int(rng.integers(-20, 21))
    a, b = math.ldexp(2**23 + u, ea), math.ldexp(2**23 - v, k - 70 - ea)
    if rng.random() < 0.5:
        c, a = -c, -a
    if rng.random() < 0.2:  # the term against the accumulator: far from a midpoint
        a = -a
    return c, a, b


@settings(max_examples=examples(12), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fp32_terms_next_to_a_midpoint(seed: int) -> None:
    rng = np.random.default_rng(seed)
    lanes = [_lane(rng) for _ in range(LANES)]
    # lane i is output (i, i) of an M x N = LANES x LANES product with K = 1; the other
    # outputs are more lanes with the same kind of operands
    a = np.array([[x[1]] for x in lanes], np.float32)
    b = np.array([[x[2] for x in lanes]], np.float32)
    c = np.array([[x[0]] * LANES for x in lanes], np.float32)
    assert a.astype(float).ravel().tolist() == [x[1] for x in lanes]
    assert b.astype(float).ravel().tolist() == [x[2] for x in lanes]
    d = cube_matrix("TMATMUL_ACC", a, b, c=c)
    for i in range(LANES):
        for j in range(LANES):
            want = rne32(Fraction(lanes[i][0]) + Fraction(lanes[i][1]) * Fraction(lanes[j][2]))
            assert Fraction(float(d[i, j])) == want, (i, j, lanes[i], lanes[j])


def test_fp32_term_hand_example():
    """C = 1, a = 2^23 + 2874, b = (2^23 - 2873) 2^-70: a b = 2^-24 + 131606 2^-70, just
    below 1 + 2^-24 + 2^-52 (one float64 unit above the midpoint between 1 and 1 + 2^-23):
    the float64 sum rounds up onto that odd unit; the correct result is 1 + 2^-23."""
    a = np.array([[2.0**23 + 2874]], np.float32)
    b = np.array([[(2.0**23 - 2873) * 2.0**-70]], np.float32)
    c = np.ones((1, 1), np.float32)
    t = Fraction(int(a[0, 0])) * Fraction(float(b[0, 0]))
    assert (
        1 + Fraction(1, 2**24) + Fraction(1, 2**53)
        < 1 + t
        < 1 + Fraction(1, 2**24) + Fraction(1, 2**52)
    )
    assert float(cube_matrix("TMATMUL_ACC", a, b, c=c)[0, 0]) == 1 + 2.0**-23


# -- C's type: the accumulator's (FP32 / S32), as float32 / int32 or as same-width words -----
def test_c_type_names_the_accumulator_type():
    a, b = np.ones((1, 2), np.float32), np.ones((2, 1), np.float32)
    c = np.array([[0.5]], np.float32)
    assert cube_matrix("TMATMUL_ACC", a, b, c=c, c_type="FP32")[0, 0] == 2.5
    words = c.view(np.uint32)  # raw FP32 words with the type named
    assert cube_matrix("TMATMUL_ACC", a, b, c=words, c_type="FP32")[0, 0] == 2.5
    with pytest.raises(PTOFault, match="must be FP32"):  # words only with the type named
        cube_matrix("TMATMUL_ACC", a, b, c=words)
    for wrong in ("S32", "FP16"):
        with pytest.raises(PTOFault, match="accumulator type"):
            cube_matrix("TMATMUL_ACC", a, b, c=c, c_type=wrong)
    ai, bi = np.ones((1, 2), np.int8), np.ones((2, 1), np.int8)
    ci = np.array([[-7]], np.int32)
    assert cube_matrix("TMATMUL_ACC", ai, bi, c=ci, c_type="S32")[0, 0] == -5
    with pytest.raises(PTOFault, match="accumulator type"):
        cube_matrix("TMATMUL_ACC", ai, bi, c=ci, c_type="FP32")
    with pytest.raises(PTOFault):
        cube_matrix("TMATMUL", a, b, c_type="FP32")  # no C at all
