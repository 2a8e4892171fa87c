"""Edge classes of the binary elementwise kernels (issue 27, mutation testing of
``interpreter/kernels/elementwise.py``).

* TREM of small dividends (0, -0, +-1, +-2, +-1/2, +-3 and random ones) by divisors of every
  magnitude and sign: the quotient from far below 2^-26 to far above 2^28 (the edges of the
  FP32 float64-quotient window) and the opposite-sign case whose floor remainder is
  ``a + b``, rounded once. Reference: D7 on Fractions (``test_kernel_trem.float_ref``,
  ``nearest_even``), a zero result with the dividend's sign.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_kernel_trem import float_ref, nearest_even

from interpreter.kernels import trem
from tests.budget import examples

SMALL = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0]
EXP_RANGE = {np.float32: (-149, 127), np.float16: (-24, 15), ml_dtypes.bfloat16: (-133, 127)}


@settings(max_examples=examples(30), deadline=None)
@given(dt=st.sampled_from(list(EXP_RANGE)), seed=st.integers(0, 2**32 - 1))
def test_trem_small_dividends_by_divisors_of_every_magnitude(dt, seed):
    rng = np.random.default_rng(seed)
    lo, hi = EXP_RANGE[dt]
    n = 96
    with np.errstate(over="ignore"):
        b = (rng.uniform(1, 2, n) * np.exp2(rng.integers(lo, hi, n)) * rng.choice([-1, 1], n))
        b = b.astype(dt)
        a = np.array(SMALL * (n // len(SMALL)) + list(rng.standard_normal(n % len(SMALL))), dt)
    a, b = a[: b.size], b[: a.size]
    keep = np.isfinite(b.astype(np.float64)) & (b.astype(np.float64) != 0)
    a, b = a[keep], b[keep]
    r = trem(a, b)
    u = f"u{np.dtype(dt).itemsize}"
    for x, y, got in zip(a.astype(np.float64), b.astype(np.float64), r):
        exact = float_ref(float(x), float(y))
        if exact == 0:
            assert float(got) == 0 and math.copysign(1, float(got)) == math.copysign(1, x), (x, y)
        else:
            want = nearest_even(exact, dt)
            assert np.array(got).view(u) == np.array(want).view(u), (x, y, got, want)
