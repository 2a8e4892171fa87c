"""Hand-derived edge cases of the binary elementwise kernels (issue 27: mutants that survived).

TF32 / HF32 (asl/arch/data-types/formats/tf32.asl, hf32.asl): FP32's exponent range with 10 /
11 fraction bits, so below 2^-126 the grid step is 2^-136 / 2^-137. Halving a normal value
just above 2^-126 lands exactly halfway between two subnormal grid points, and RNE picks the
even one; a rounding that treated [2^-127, 2^-126) as normal (step 2^-137 / 2^-138) would
keep the half step.
"""

from __future__ import annotations

import numpy as np
import pytest

from interpreter.kernels.elementwise import BINARY_ROWS, binary_tile, trem
from interpreter.kernels.tile_scalar import tile_scalar


@pytest.mark.parametrize(("t", "k"), [("TF32", 136), ("HF32", 137)])
def test_narrow_fp32_subnormal_ties_round_to_even(t: str, k: int) -> None:
    step = 2.0**-k  # the subnormal grid step (also the step just above 2^-126)
    a = np.array([[2.0**-126 + step, 2.0**-126 + 3 * step, 2.0**-125]], np.float32)
    two = np.full_like(a, 2.0)
    r, _ = binary_tile(BINARY_ROWS["TDIV"], a, two, None, "null", t)
    # 2^-127 + step/2: between 2^-127 (an even multiple of step) and 2^-127 + step -> 2^-127
    # 2^-127 + 3 step/2: between 2^-127 + step (odd) and 2^-127 + 2 step (even) -> the latter
    # 2^-126: exact
    assert r.astype(np.float64).tolist() == [[2.0**-127, 2.0**-127 + 2 * step, 2.0**-126]]


@pytest.mark.parametrize(("t", "f"), [("TF32", 10), ("HF32", 11)])
def test_narrow_fp32_tie_with_an_odd_last_bit_rounds_up(t: str, f: int) -> None:
    """1 + 2^-f + 2^-(f+1) is halfway between 1 + 2^-f (odd last bit) and 1 + 2^-(f-1)
    (even): RNE goes up."""
    a = np.array([[1.0]], np.float32)
    b = np.array([[2.0**-f + 2.0 ** -(f + 1)]], np.float32)
    r, _ = binary_tile(BINARY_ROWS["TADD"], a, b, None, "null", t)
    assert r.astype(np.float64).tolist() == [[1.0 + 2.0 ** -(f - 1)]]


def test_trem_quotient_outside_the_window_in_a_later_block() -> None:
    """An FP32 quotient beyond 2^28 takes the exact np.mod path wherever it lies, also past
    the first 2^15-element block: 2^100 rem 3 = 1 (4^50 = 1 mod 3); the rest 1 rem 3 = 1."""
    a = np.ones((1, 40000), np.float32)
    a[0, 35000] = 2.0**100
    r = trem(a, np.full_like(a, 3.0))
    assert (r == 1.0).all()


def test_tmuls_by_zero_of_an_infinity_is_the_canonical_nan() -> None:
    """inf * 0 is an invalid operation: FP32's canonical quiet NaN 0x7FC00000 (not x86's
    0xFFC00000); 1 * 0 = +0."""
    r, _ = tile_scalar("TMULS", np.array([[np.inf, 1.0]], np.float32), 0.0, None)
    assert r.view(np.uint32).tolist() == [[0x7FC00000, 0]]
