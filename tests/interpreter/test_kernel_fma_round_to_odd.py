"""FP32 TFMA rounds a * b + c once (issue 27: the round-to-odd step's parity test).

The FP32 kernel forms a * b + c in float64 with round-to-odd, then rounds to FP32. Here
a = 8391460 * 2^-23 and b = 8385757 * 2^-47 (both FP32), c = 1: a * b = 2^-24 + 0.98 * 2^-52
(exact, checked with Fractions), so a * b + c lies just above 1 + 2^-24, the midpoint between
FP32's 1 and 1 + 2^-23, and the correctly rounded result is 1 + 2^-23. Its float64 rounding
1 + 2^-24 + 2^-52 is odd with bit 1 clear: a parity test on the wrong bit moves it back onto
the midpoint, which then rounds to the even 1.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from interpreter.kernels import KERNELS
from pto_dialect.datatypes import TileDataType as T


def test_just_above_an_fp32_midpoint_rounds_up() -> None:
    a, b = 8391460 * 2.0**-23, 8385757 * 2.0**-47
    exact = Fraction(a) * Fraction(b) + 1
    mid = 1 + Fraction(1, 2**24)
    assert mid < exact < mid + Fraction(1, 2**52)
    r, _ = KERNELS["TFMA"](*(np.array([[v]], np.float32) for v in (a, b, 1.0)), None, "null", T.FP32)
    assert r.tolist() == [[1.0 + 2.0**-23]]
