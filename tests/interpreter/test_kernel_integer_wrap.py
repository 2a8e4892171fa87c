"""Integer CUBE sums that wrap at S32 / U32, and the HiF8 / E4M3 value tables code by code
(issue 27, seed 4105: the final mutk1 sample).

* The S32 / U32 accumulator of an integer CUBE function is the exact integer
  ``C + sum_k A[m, k] B[k, j] (+ Bias[j])`` modulo 2^32 (``NormalizeTileInteger``); no test
  summed beyond S32's range (the surviving modulus mutant, 2^33, turned out equivalent: the
  int32 cast wraps anyway). Here S8 / S16 / U8 / U16 operands at
  their extremes with K up to 40 (sums far beyond 2^32, both signs), with C and Bias near the
  accumulator's bounds, against Python integers.
* ``mx.value_lut`` holds one value per code: exactly 256 entries for the 8-bit formats, each
  equal to the ASL value of its code (``fp8_values_of_code``, Fractions, written from
  ``ReferenceFP8FiniteValue``); a 257-entry HiF8 table survived.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import mx
from interpreter.kernels.cube import cube_matrix
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples
from tests.interpreter.test_postprocess_status import fp8_values_of_code

CARRIERS = {np.int8: (-128, 127), np.int16: (-(2**15), 2**15 - 1), np.uint8: (0, 255),
            np.uint16: (0, 2**16 - 1)}  # fmt: skip


def _wrap(x: int, signed: bool) -> int:
    x %= 1 << 32
    return x - (1 << 32) if signed and x >= 1 << 31 else x


@settings(max_examples=examples(40), deadline=None)
@given(data=st.data(), dt=st.sampled_from(list(CARRIERS)), form=st.sampled_from(["", "_ACC", "_BIAS"]),
       m=st.integers(1, 3), k=st.integers(1, 40), n=st.integers(1, 4))  # fmt: skip
def test_integer_sums_wrap_modulo_2_32(data, dt, form, m, k, n) -> None:
    lo, hi = CARRIERS[dt]
    signed = lo < 0
    edge = st.one_of(st.sampled_from([lo, hi, lo + 1, hi - 1, 0, 1]), st.integers(lo, hi))
    a = [[data.draw(edge) for _ in range(k)] for _ in range(m)]
    b = [[data.draw(edge) for _ in range(n)] for _ in range(k)]
    acc_lo, acc_hi = (-(2**31), 2**31 - 1) if signed else (0, 2**32 - 1)
    acc_dt = np.int32 if signed else np.uint32
    acc_edge = st.one_of(st.sampled_from([acc_lo, acc_hi, acc_lo + 1, acc_hi - 1, 0]),
                         st.integers(acc_lo, acc_hi))  # fmt: skip
    kw = {}
    c = bias = None
    if form == "_ACC":
        c = [[data.draw(acc_edge) for _ in range(n)] for _ in range(m)]
        kw["c"] = np.array(c, acc_dt)
    if form == "_BIAS":
        bias = [data.draw(acc_edge) for _ in range(n)]
        kw["bias"] = np.array([bias], acc_dt)
    d = cube_matrix("TMATMUL" + form, np.array(a, dt), np.array(b, dt), **kw)
    assert d.dtype == acc_dt
    for i in range(m):
        for j in range(n):
            s = sum(a[i][t] * b[t][j] for t in range(k))
            s += (c[i][j] if c is not None else 0) + (bias[j] if bias is not None else 0)
            assert int(d[i, j]) == _wrap(s, signed), (i, j)


def test_s16_sum_beyond_s32_hand_example() -> None:
    """(-32768)^2 * 3 = 3 * 2^30 wraps to -2^30 in S32; 2 * 65535^2 = 2^33 - 2^18 + 2 wraps
    to 2^32 - 2^18 + 2 in U32."""
    a = np.full((1, 3), -(2**15), np.int16)
    assert int(cube_matrix("TMATMUL", a, a.T.copy())[0, 0]) == -(2**30)
    u = np.full((1, 2), 2**16 - 1, np.uint16)
    assert int(cube_matrix("TMATMUL", u, u.T.copy())[0, 0]) == 2**32 - 2**18 + 2


def test_fp8_value_tables_code_by_code() -> None:
    for t in (T.HIF8, T.E4M3):
        lut = mx.value_lut(t)
        assert lut.shape == (256,), t
        for code in range(256):
            want = fp8_values_of_code(t, code)
            got = float(lut[code])
            if want is None:
                assert not math.isfinite(got), (t, hex(code))
            else:
                assert got == float(want), (t, hex(code))
