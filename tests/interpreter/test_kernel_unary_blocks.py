"""TRELU / TSQRT / TABS over more than one block (issue 27, seed 4103).

The float32 / float64 kernels run block by block (``nanfix.SPAN`` = 2^17 elements; NaN
rewrites in ``nanfix._BLOCK`` = 2^15 blocks). Every tile before had fewer elements than one
block, so a block slice off by its start (``zero[: e + s]`` for ``zero[: e - s]``) survived.
Here the tiles have one, two and three blocks plus a remainder (and an exact multiple),
with NaNs of both signs and payloads, -0 (or not: TSQRT rewrites the NaNs of a block without
a -0 source by a minimum on the words), -inf and negative values placed in every block and at
the block edges; the reference is the element rule on the carrier words: RELU keeps a word
without the sign bit and gives +0 otherwise, SQRT is the IEEE square root (float32 through
float64, exactly rounded), ABS clears the sign bit; every NaN result is the canonical quiet
NaN except ABS, which keeps the payload.
"""

from __future__ import annotations

import numpy as np
import pytest

from interpreter.kernels import jit
from interpreter.kernels.nanfix import SPAN
from interpreter.kernels.unary import UNARY_ROWS, unary_core
from pto_dialect.datatypes import TileDataType as T

SIZES = [SPAN + 37, 2 * SPAN, 2 * SPAN + 1, 3 * SPAN - 5]
TYPES = [(np.float32, T.FP32, np.uint32), (np.float64, T.FP64, np.uint64)]


def _source(n: int, dtype, u, seed: int, neg_zero: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(n) * 10).astype(dtype)
    sign = u(1) << u(np.dtype(u).itemsize * 8 - 1)
    inf = np.array(np.inf, dtype).view(u)
    specials = [
        inf | u(1),
        inf | u(5) | sign,
        np.array(np.nan, dtype).view(u) | sign,
        sign,
        inf | sign,
        inf,
    ]
    if not neg_zero:  # blocks without a -0 source take the other NaN rewrite of TSQRT
        specials[3] = np.array(-1.5, dtype).view(u)
    # at every block edge (both sides) and at random places in every block
    edges = [i for b in range(0, n, SPAN) for i in (b - 1, b, b + 1) if 0 <= i < n]
    places = edges + list(rng.integers(0, n, 64))
    w = a.view(u)
    for j, i in enumerate(places):
        w[i] = specials[j % len(specials)]
    return a


def _canonical(x: np.ndarray, dtype, u) -> np.ndarray:
    w = x.view(u).copy()
    w[np.isnan(x)] = np.array(np.nan, dtype).view(u)
    return w


@pytest.mark.parametrize("neg_zero", [True, False], ids=["with-0", "without-0"])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize(("dtype", "t", "u"), TYPES, ids=["f32", "f64"])
def test_relu_sqrt_abs_over_several_blocks(n, dtype, t, u, neg_zero) -> None:
    a = _source(n, dtype, u, n, neg_zero)
    w = a.view(u)
    sign = u(1) << u(w.itemsize * 8 - 1)
    # RELU: words with the sign bit give +0, NaN sources the canonical NaN
    want = np.where((w & sign) != 0, u(0), w)
    want[np.isnan(a)] = np.array(np.nan, dtype).view(u)
    got = unary_core(UNARY_ROWS["TRELU"], a.copy(), t)
    assert np.array_equal(got.view(u), want)
    # SQRT: the IEEE square root, every NaN canonical
    with np.errstate(invalid="ignore"):
        ref = np.sqrt(a.astype(np.float64)).astype(dtype)
    got = unary_core(UNARY_ROWS["TSQRT"], a.copy(), t)
    assert np.array_equal(got.view(u), _canonical(ref, dtype, u))
    # ABS: the sign bit cleared, payloads kept
    got = unary_core(UNARY_ROWS["TABS"], a.copy(), t)
    assert np.array_equal(got.view(u), w & ~sign)


@pytest.mark.parametrize("engine", ["numpy", "compiled"])
def test_fp16_every_word_on_both_engines(engine) -> None:
    """Every FP16 word through TSQRT / TRELU / TABS on both kernel engines: FP16 is no
    float32 / float64 carrier, so it never takes the blocked (or compiled) float32 / float64
    paths (seed 4103: a negated carrier test sent FP16 into the compiled square root, which
    has no float16 loop). SQRT's reference: the float64 root rounded once to FP16 (exact:
    53 >= 2 * 11 + 2), every NaN the canonical 0x7E00."""
    w = np.arange(1 << 16, dtype=np.uint16)
    a = w.view(np.float16)
    sign = np.uint16(0x8000)
    with np.errstate(invalid="ignore"):
        root = np.sqrt(a.astype(np.float64)).astype(np.float16).view(np.uint16)
    root = np.where(np.isnan(root.view(np.float16)), np.uint16(0x7E00), root)
    relu = np.where((w & sign) != 0, np.uint16(0), w)
    relu = np.where(np.isnan(a), np.uint16(0x7E00), relu)
    with jit.selected(engine):
        assert np.array_equal(
            unary_core(UNARY_ROWS["TSQRT"], a.copy(), T.FP16).view(np.uint16), root
        )
        assert np.array_equal(
            unary_core(UNARY_ROWS["TRELU"], a.copy(), T.FP16).view(np.uint16), relu
        )
        assert np.array_equal(
            unary_core(UNARY_ROWS["TABS"], a.copy(), T.FP16).view(np.uint16), w & ~sign
        )
