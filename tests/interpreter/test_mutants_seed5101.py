"""Tests for the killable survivors of the fresh kernel mutation sample seed 5101 (issue 27).

* ``postprocess._words``: a signed-integer parameter tile holding the word 0 (a legal U64
  word: a PReLU slope of +0) is accepted; only negative words are refused.
* ``accumulate._exact_cols``: an infinite addend (bias or C) of the ``exact`` profile keeps its
  sign in the result: a finite sum plus +inf is +inf, plus -inf is -inf (IEEE 754 addition),
  on the numpy and the compiled kernels.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from interpreter.kernels import tgemv_mx_bias
from interpreter.kernels.postprocess import apply, fp19_bits, validate
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from pto_dialect.postprocess import Fpatr


def test_signed_parameter_tile_with_a_zero_word_is_accepted() -> None:
    """ReluMode 3 (a vector of PReLU slope words): an int64 tile holding the word 0 (slope
    +0) decodes like the same words as uint64 and gives slope * x below zero; a negative word
    is refused."""
    signed = np.array([[0, fp19_bits(0.5), 0]], np.int64)
    acc = np.array([[-1.0, -2.0, 3.0]], np.float32)
    got = {}
    for words in (signed, signed.astype(np.uint64)):
        p = validate(Fpatr(relu_mode=3), 3, 0, False, None, words, None, None, None,
                     acc=T.FP32)  # fmt: skip
        got[words.dtype.kind] = np.asarray(apply(acc, p), np.float32)
    assert np.array_equal(got["i"].view(np.uint32), got["u"].view(np.uint32))
    assert [float(v) for v in got["i"].reshape(-1)] == [0.0 * -1.0, 0.5 * -2.0, 3.0]
    with pytest.raises(PTOFault, match="holds negative words"):
        validate(Fpatr(relu_mode=3), 3, 0, False, None, np.array([[0, -1, 0]], np.int64),
                 None, None, None, acc=T.FP32)  # fmt: skip


@pytest.mark.parametrize("engine", ["numpy", "compiled"])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_exact_profile_infinite_bias_keeps_its_sign(monkeypatch, engine, sign) -> None:
    """TGEMV_MX_BIAS, exact profile: the columns whose bias is +-inf give +-inf (the product
    is finite), the others the finite sum, checked against Python floats."""
    monkeypatch.setenv("PTO_KERNELS", engine)
    rng = np.random.default_rng(7)
    k, n = 64, 5
    a = rng.integers(-3, 4, (1, k)).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    b = rng.integers(-3, 4, (k, n)).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    sa = np.full((1, k // 32), 127, np.uint8)
    sb = np.full((k // 32, n), 127, np.uint8)
    bias = np.array([[sign * np.inf, 0.5, sign * np.inf, -1.0, 2.0]], np.float32)
    d = np.asarray(tgemv_mx_bias(a, b, bias, a_scale=sa, b_scale=sb, profile="exact"))
    av = [float(x) for x in a.astype(np.float32)[0]]
    for j in range(n):
        s = math.fsum(av[i] * float(b[i, j].astype(np.float32)) for i in range(k))
        want = s + float(bias[0, j])  # small integers: every sum is exact
        assert float(d.reshape(-1)[j]) == want, (j, float(d.reshape(-1)[j]), want)
