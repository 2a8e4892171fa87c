"""Numeric status flags of the tile-local reductions and expansions (``ExecuteTileReduction``,
``ExecuteTileExpand``: the OR of every step's / element's ``TileProfileBinaryWithFlags``)
against an independent reference: a sequential fold in exact rational arithmetic
(``fractions.Fraction``) with its own round-to-nearest-even into FP32 / FP16 and the IEEE
exception definitions (tininess after rounding), on hand-decoded bit patterns; plus
hand-derived MAX / MIN and EXPDIF cases.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels.status import DZ, NV, NX, OF, UF, recording
from interpreter.kernels.tile_local import local_tile
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples

FMT = {  # (carrier, unsigned view, exponent bits, fraction bits)
    T.FP32: (np.float32, np.uint32, 8, 23),
    T.FP16: (np.float16, np.uint16, 5, 10),
}


def decode(bits: int, t: T):
    """A float (NaN / inf) or an exact Fraction, and whether it is a signalling NaN."""
    _, _, eb, fb = FMT[t]
    bias = (1 << (eb - 1)) - 1
    neg = bits >> (eb + fb) & 1
    e, f = bits >> fb & ((1 << eb) - 1), bits & ((1 << fb) - 1)
    if e == (1 << eb) - 1:
        if f:
            return math.nan, not f >> (fb - 1)
        return (-math.inf if neg else math.inf), False
    mag = Fraction(f, 1 << fb) * Fraction(2) ** (1 - bias) if e == 0 else \
        (1 + Fraction(f, 1 << fb)) * Fraction(2) ** (e - bias)  # fmt: skip
    return (-mag if neg else mag), False


def rne(v: Fraction, t: T):
    """``v`` rounded to nearest-even in ``t`` (+-inf beyond its range)."""
    _, _, eb, fb = FMT[t]
    bias = (1 << (eb - 1)) - 1
    if v == 0:
        return v
    m = abs(v)
    e = max(math.floor(math.log2(m)), 1 - bias)
    while Fraction(2) ** e > m and e > 1 - bias:
        e -= 1
    while Fraction(2) ** (e + 1) <= m:
        e += 1
    q = Fraction(2) ** (e - fb)
    n = m / q
    lo = math.floor(n)
    r = lo + (n - lo > Fraction(1, 2) or (n - lo == Fraction(1, 2) and lo % 2 == 1))
    out = r * q
    if out > (2 - Fraction(1, 1 << fb)) * Fraction(2) ** bias:
        return -math.inf if v < 0 else math.inf
    return -out if v < 0 else out


def step(op: str, a, b, t: T):
    """(result, flags) of one IEEE ADD / MUL / SUB / DIV step on decoded values."""
    fa, fb = isinstance(a, float), isinstance(b, float)
    if fa or fb:  # a special operand: float arithmetic gives the value; NV for invalid
        x, y = float(a), float(b)
        with np.errstate(all="ignore"):
            r = float({"ADD": np.add, "MUL": np.multiply, "SUB": np.subtract,
                       "DIV": np.divide}[op](np.float64(x), np.float64(y)))  # fmt: skip
        invalid = math.isnan(r) and not (math.isnan(x) or math.isnan(y))
        dz = op == "DIV" and y == 0 and not math.isnan(x) and x != 0 and not math.isinf(x)
        return r, (NV if invalid else 0) | (DZ if dz else 0)
    if op == "DIV" and b == 0:
        return (math.nan, NV) if a == 0 else (math.inf, DZ)  # the value is not used again
    exact = {"ADD": a + b, "SUB": a - b, "MUL": a * b, "DIV": a / b if b else None}[op]
    r = rne(exact, t)
    if isinstance(r, float):
        return r, OF | NX
    if r == exact:
        return r, 0
    _, _, eb, _ = FMT[t]
    tiny = abs(r) < Fraction(2) ** (2 - (1 << (eb - 1)))
    return r, NX | (UF if tiny else 0)


def fold_reference(op: str, line: list[int], t: T, init) -> int:
    acc, flags = init, 0
    for bits in line:
        v, snan = decode(bits, t)
        flags |= NV if snan else 0
        acc, f = step(op, acc, v, t)
        flags |= f
    return flags


def words(t: T):
    carrier, view, _, fb = FMT[t]
    top = (1 << (8 * np.dtype(view).itemsize)) - 1
    finite = st.floats(-1e4, 1e4, width=32 if t is T.FP32 else 16).map(
        lambda f: int(np.array(f, carrier).view(view)))
    specials = [int(np.array(x, carrier).view(view)) for x in (np.inf, -np.inf, np.nan)]
    snan = (int(np.array(np.inf, carrier).view(view)) | 1)
    big = int(np.array(np.finfo(carrier).max, carrier).view(view))
    return st.one_of(finite, finite, st.integers(0, top), st.sampled_from([*specials, snan, big, 1, 1 << fb]))


def _kernel_flags(mnemonic: str, x: np.ndarray, t: T, dst_valid) -> int:
    with recording() as status:
        local_tile(mnemonic, [x], [t], t, dst_valid)
    return status.bits


@pytest.mark.parametrize("t", [T.FP32, T.FP16])
@pytest.mark.parametrize("reduction", ["SUM", "PROD"])
@settings(max_examples=examples(20), deadline=None)
@given(data=st.data())
def test_sum_prod_flags_match_the_sequential_rational_fold(t, reduction, data):
    rows = data.draw(st.integers(1, 3))
    cols = data.draw(st.integers(1, 5))
    bits = data.draw(st.lists(words(t), min_size=rows * cols, max_size=rows * cols))
    carrier, view, _, _ = FMT[t]
    x = np.array(bits, view).reshape(rows, cols).view(carrier)
    op, init = ("ADD", Fraction(0)) if reduction == "SUM" else ("MUL", Fraction(1))
    grid = [bits[r * cols:(r + 1) * cols] for r in range(rows)]
    want_rows = 0
    for line in grid:
        want_rows |= fold_reference(op, line, t, init)
    want_cols = 0
    for c in range(cols):
        want_cols |= fold_reference(op, [grid[r][c] for r in range(rows)], t, init)
    assert _kernel_flags(f"TROW{reduction}", x, t, (rows, 1)) == want_rows
    assert _kernel_flags(f"TCOL{reduction}", x, t, (1, cols)) == want_cols


SNAN32 = np.array([0x7F800001], np.uint32).view(np.float32)[0]


@pytest.mark.parametrize(("mnemonic", "x", "want"), [
    ("TROWMAX", [[SNAN32]], 0),  # one element: no step
    ("TROWMAX", [[SNAN32, 1.0]], NV),
    ("TROWARGMIN", [[1.0, SNAN32]], NV),
    ("TCOLMIN", [[SNAN32, 1.0]], 0),  # columns of one element
    ("TCOLMIN", [[SNAN32], [1.0]], NV),
    ("TROWMAX", [[np.nan, 1.0]], 0),  # a quiet NaN records nothing
    ("TROWSUM", [[1.0, 2.0**-30]], NX),
    ("TROWSUM", [[3.0e38, 3.0e38]], OF | NX),
    ("TROWSUM", [[np.inf, -np.inf]], NV),
    ("TROWPROD", [[2.0**-100, 2.0**-100]], UF | NX),
    ("TROWPROD", [[0.0, np.inf]], NV),
    ("TROWPROD", [[3.0e38, 1.0]], 0),  # the first step is one x 3e38: exact (issue 27)
    ("TROWSUM", [[-0.0, 1.5]], 0),
], ids=str)  # fmt: skip
def test_reduction_hand_examples(mnemonic, x, want):
    a = np.array(x, np.float32)
    valid = (a.shape[0], 1) if mnemonic.startswith("TROW") else (1, a.shape[1])
    assert _kernel_flags(mnemonic, a, T.FP32, valid) == want


def _expand(mnemonic: str, x, b, t: T = T.FP32, dst: T | None = None) -> int:
    with recording() as status:
        local_tile(mnemonic, [x, b], [t, t], dst or t, x.shape)
    return status.bits


@settings(max_examples=examples(20), deadline=None)
@given(data=st.data(), op=st.sampled_from(["ADD", "SUB", "MUL", "DIV"]))
def test_expansion_flags_match_the_rational_reference(data, op):
    t = T.FP32
    bits = data.draw(st.lists(words(t), min_size=6, max_size=6))
    bcol = data.draw(st.lists(words(t), min_size=2, max_size=2))
    x = np.array(bits, np.uint32).reshape(2, 3).view(np.float32)
    b = np.array(bcol, np.uint32).reshape(2, 1).view(np.float32)
    want = 0
    for r in range(2):
        for c in range(3):
            u, s1 = decode(bits[r * 3 + c], t)
            v, s2 = decode(bcol[r], t)
            want |= (NV if s1 or s2 else 0) | step(op, u, v, t)[1]
    assert _expand(f"TROWEXPAND{op}", x, b) == want


def test_expansion_hand_examples():
    one = np.ones((2, 2), np.float32)
    col = np.float32([[1.0], [3.0]])
    assert _expand("TROWEXPANDDIV", one, col) == NX  # 1 / 3
    assert _expand("TROWEXPANDDIV", one, np.float32([[0.0], [1.0]])) == DZ
    assert _expand("TROWEXPAND", one, col) == 0  # COPY
    assert _expand("TROWEXPANDMAX", one, np.float32([[SNAN32], [1.0]])) == NV
    assert _expand("TCOLEXPANDADD", one, np.float32([[1.0, 2.0**-30]])) == NX
    # EXPDIF: exp(x - b); exp(0) = 1 is exact, exp(1) is not; inf - inf is NV
    assert _expand("TROWEXPANDEXPDIF", one, np.float32([[1.0], [1.0]])) == 0
    assert _expand("TROWEXPANDEXPDIF", one * 2, np.float32([[1.0], [1.0]])) == NX
    inf = np.full((2, 2), np.inf, np.float32)
    assert _expand("TROWEXPANDEXPDIF", inf, np.float32([[np.inf], [0.0]])) & NV
    # FP16 -> FP32 EXPDIF widens exactly and canonicalises a NaN: a signalling one is not NV
    h = np.array([[0x7C01, 0x4000]], np.uint16).view(np.float16)  # [sNaN, 2.0]
    assert _expand("TROWEXPANDEXPDIF", h, np.float16([[1.0]]), T.FP16, T.FP32) == NX
    assert _expand("TROWEXPANDEXPDIF", h, np.float16([[1.0]]), T.FP16) == NV | NX
