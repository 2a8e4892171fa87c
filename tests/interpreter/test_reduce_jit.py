"""The compiled (numba) SUM / PROD / ARG reductions against the numpy reference (issue 26).

Every case runs the TROW / TCOL SUM, PROD, ARGMAX and ARGMIN kernel rows with
``PTO_KERNELS=numpy`` and ``PTO_KERNELS=compiled`` and requires the same result bits and the
same recorded status flags: FP32, FP16 and BF16 tiles drawn as raw codes (NaN payloads,
signalling NaNs, infinities, -0, subnormals, the largest finite values) and as small
integers times powers of two (sums that hit rounding ties). Ties and the FP16 subnormal
rounding are also checked against hand-derived bits, including one that a fold rounding only
at the end (a widened accumulator) gets wrong, and arg indices by hand (ties, signed zeros,
NaNs). Shapes stay small: the cost of this file is
numba's first compilation (later runs load the on-disk cache). That the numpy path never
imports numba is ``test_import_graph``'s LAZY_ALLOWED entry for :mod:`.reduce_jit`.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import jit, status
from interpreter.kernels.tile_local import local_tile
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples

pytest.importorskip("numba")

DTYPES = {T.FP32: np.float32, T.FP16: np.float16, T.BF16: ml_dtypes.bfloat16}
UINT = {T.FP32: np.uint32, T.FP16: np.uint16, T.BF16: np.uint16}
SPECIALS = {
    T.FP32: [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FA00001, 0xFFC12345, 1,
             0x80000001, 0x007FFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0x33800000],
    T.FP16: [0, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7D01, 0xFE11, 1, 0x8001, 0x03FF, 0x7BFF,
             0xFBFF, 0x3C00, 0x6800, 0x3800],
    T.BF16: [0, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x7FA1, 0xFFC3, 1, 0x8001, 0x007F, 0x7F7F,
             0xFF7F, 0x3F80, 0x4380],
}
OPS = {("sum", "row"): "TROWSUM", ("sum", "col"): "TCOLSUM",
       ("prod", "row"): "TROWPROD", ("prod", "col"): "TCOLPROD",
       ("argmax", "row"): "TROWARGMAX", ("argmax", "col"): "TCOLARGMAX",
       ("argmin", "row"): "TROWARGMIN", ("argmin", "col"): "TCOLARGMIN"}


kernels = jit.selected
"""Run the body on one kernel engine (``numpy`` or ``compiled``)."""


def run(mnemonic: str, x: np.ndarray, t: T) -> tuple[np.ndarray, int]:
    valid = (x.shape[0], 1) if mnemonic.startswith("TROW") else (1, x.shape[1])
    dst = T.U32 if "ARG" in mnemonic else t
    with status.recording() as st_:
        r = local_tile(mnemonic, [x], [t], dst, valid)
    return r, st_.bits


def same(mnemonic: str, x: np.ndarray, t: T) -> np.ndarray:
    with kernels("numpy"):
        want, want_flags = run(mnemonic, x, t)
    with kernels("compiled"):
        got, got_flags = run(mnemonic, x, t)
    assert got.dtype == want.dtype and got.shape == want.shape
    u = np.uint32 if "ARG" in mnemonic else UINT[t]
    assert np.array_equal(got.view(u), want.view(u)), (mnemonic, t, x, got, want)
    assert got_flags == want_flags
    return got


def tile(t: T, seed: int, shape: tuple[int, int], mix: tuple[float, float]) -> np.ndarray:
    """Raw codes, specials and small integers times powers of two, in proportions ``mix``."""
    rng = np.random.default_rng(seed)
    u = UINT[t]
    codes = rng.integers(0, np.iinfo(u).max, shape, dtype=np.uint64, endpoint=True).astype(u)
    x = codes.view(DTYPES[t]).copy()
    small = (rng.integers(-64, 65, shape) * 2.0 ** rng.integers(-3, 8, shape)).astype(DTYPES[t])
    pick = rng.random(shape)
    x = np.where(pick < mix[0], small, x)
    spec = np.array(SPECIALS[t], u).view(DTYPES[t])[rng.integers(0, len(SPECIALS[t]), shape)]
    return np.where(pick > 1 - mix[1], spec, x)


@settings(max_examples=examples(200), deadline=None)
@given(t=st.sampled_from(list(DTYPES)), op=st.sampled_from(sorted(OPS.values())),
       seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 6), cols=st.integers(1, 9),
       mix=st.sampled_from([(1.0, 0.0), (0.8, 0.1), (0.3, 0.3), (0.0, 0.0), (0.0, 1.0)]))
def test_compiled_reductions_match_reference(t, op, seed, rows, cols, mix):
    same(op, tile(t, seed, (rows, cols), mix), t)


@pytest.mark.parametrize("axis", ["row", "col"])
@pytest.mark.parametrize(("t", "values", "reduction", "want"), [
    # 2048 + 1 = 2049 is a tie between 2048 and 2050 in FP16: even 2048, twice; a widened
    # accumulator rounded once at the end would give 2050
    (T.FP16, [2048.0, 1.0, 1.0], "sum", 2048.0),
    (T.BF16, [256.0, 1.0, 1.0], "sum", 256.0),  # the same tie in BF16
    (T.FP32, [2.0**24, 1.0, 1.0], "sum", 2.0**24),
    (T.FP16, [-0.0, -0.0], "sum", 0.0),  # the fold starts from +0
    (T.FP16, [3 * 2.0**-24, 0.5], "prod", 2.0**-23),  # subnormal tie to even: 2 * 2^-24
    (T.FP16, [2.0**-24, 0.5], "prod", 0.0),  # tie between 0 and 2^-24: +0
    (T.FP16, [256.0, 256.0], "prod", np.inf),  # 65536: beyond 65504 (65520 rounds up)
    (T.BF16, [2.0**-133, 0.5], "prod", 2.0**-134),  # a BF16 subnormal, exact
])
def test_hand_derived_bits(t, values, reduction, want, axis):
    x = np.array(values, DTYPES[t]).reshape((1, -1) if axis == "row" else (-1, 1))
    got = same(OPS[(reduction, axis)], x, t)
    w = np.array([want], DTYPES[t])
    assert got.reshape(-1).view(UINT[t])[0] == w.view(UINT[t])[0]



@pytest.mark.parametrize("t", list(DTYPES))
@pytest.mark.parametrize(("reduction", "values", "want"), [
    ("argmax", [1.0, 3.0, 3.0, 2.0], 1),  # equal values keep the lowest index
    ("argmax", [-0.0, 0.0, -0.0], 1),  # max(-0, +0) moves to the +0
    ("argmin", [0.0, -0.0, 0.0], 1),
    ("argmax", [np.nan, 1.0, np.nan], 1),  # a NaN accumulator is replaced by the number
    ("argmin", [2.0, np.nan, -np.inf, -np.inf], 2),
    ("argmax", [np.nan, np.nan], 0),  # all NaN: the fold stays the same canonical NaN
])
def test_hand_derived_arg_indices(t, reduction, values, want):
    for axis in ("row", "col"):
        x = np.array(values, DTYPES[t]).reshape((1, -1) if axis == "row" else (-1, 1))
        got = same(OPS[(reduction, axis)], x, t)
        assert got.reshape(-1)[0] == want
