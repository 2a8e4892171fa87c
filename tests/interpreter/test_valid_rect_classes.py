"""The valid rectangle and PadValue of every elementwise kernel family (issue 27, mutation
testing of ``interpreter/kernels/tepl.py``, ``padding.py``, ``compare.py``, ``convert.py``).

A destination is computed on its valid rectangle only and padded outside it (PTO-SPEC 2
PadValue, D9): Zero writes 0, Max / Min the bit patterns of ``TilePadValueForDataType``
(``asl/tile/model/definedness/elements.asl``), all defined; Null writes 0 bits, undefined.
The property runs every shape class -- the valid rectangle full, short of rows only, short
of columns only, short of both, one row, one column -- for the unary, tile-scalar,
tile-tile binary, TFMA, TCVT, TCMP / TCMPS, TSEL and TQUANT kernels, against Python
elementwise references on integer-valued operands (no rounding) and the pad words written
out here from the ASL table.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import KERNELS
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples

# TilePadValueForDataType, hand-copied: (Max word, Min word) per carrier dtype
PAD_WORDS = {
    np.dtype(np.float32): (0x7F7FFFFF, 0xFF7FFFFF),
    np.dtype(np.float16): (0x7BFF, 0xFBFF),
    np.dtype(np.int16): (0x7FFF, 0x8000),
    np.dtype(np.int32): (0x7FFFFFFF, 0x80000000),
    np.dtype(np.uint8): (0xFF, 0x00),
    np.dtype(np.int8): (0x7F, 0x80),
}


def pad_word(dt: np.dtype, pad: str) -> int:
    return {"zero": 0, "null": 0, "max": PAD_WORDS[dt][0], "min": PAD_WORDS[dt][1]}[pad]


def words(a: np.ndarray) -> np.ndarray:
    return a.view(np.dtype(f"u{a.dtype.itemsize}")).astype(np.int64)


def check(out, defined, want_inside, valid, pad, pad_of=None):
    """``out`` equals ``want_inside`` (exact words) in the valid rectangle and the pad word
    outside; ``defined`` is the rectangle, or everything for a pad other than Null."""
    vr, vc = valid
    rows, cols = out.shape
    assert out.shape == defined.shape
    inside = np.zeros((rows, cols), bool)
    inside[:vr, :vc] = True
    assert np.array_equal(defined, inside | (pad != "null")), (valid, pad)
    if out.dtype == np.bool_:
        assert np.array_equal(out[:vr, :vc], want_inside)
        assert (out[~inside] == (pad == "max")).all(), (valid, pad)
        return
    assert np.array_equal(words(out[:vr, :vc]), words(np.asarray(want_inside, out.dtype)))
    w = pad_of if pad_of is not None else pad_word(out.dtype, pad)
    assert (words(out)[~inside] == w).all(), (valid, pad, words(out))


DTYPES = [np.float32, np.float16, np.int16, np.int32]


@st.composite
def tiles(draw):
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 9))
    kind = draw(st.sampled_from(["full", "rows", "cols", "both", "one-row", "one-col"]))
    vr = {"full": rows, "cols": rows, "one-row": 1}.get(kind) or draw(st.integers(1, rows))
    vc = {"full": cols, "rows": cols, "one-col": 1}.get(kind) or draw(st.integers(1, cols))
    if kind == "rows" and rows > 1:
        vr = draw(st.integers(1, rows - 1))
    if kind == "cols" and cols > 1:
        vc = draw(st.integers(1, cols - 1))
    dt = np.dtype(draw(st.sampled_from(DTYPES)))
    seed = draw(st.integers(0, 2**32 - 1))
    pad = draw(st.sampled_from(["zero", "max", "min", "null"]))
    return rows, cols, (vr, vc), dt, np.random.default_rng(seed), pad


def _ints(rng, shape, dt):
    return rng.integers(-50, 50, shape).astype(dt)


@settings(max_examples=examples(60), deadline=None)
@given(t=tiles(), op=st.sampled_from(["TABS", "TNEG", "TADDS", "TMULS", "TADD", "TMAX", "TFMA"]))
def test_elementwise_kernels_pad_outside_the_valid_rectangle(t, op):
    rows, cols, valid, dt, rng, pad = t
    a, b, c = (_ints(rng, (rows, cols), dt) for _ in range(3))
    vr, vc = valid
    av, bv, cv = (x[:vr, :vc].astype(np.int64) for x in (a, b, c))
    if op in ("TABS", "TNEG"):
        out, dfn = KERNELS[op](a, valid, pad)
        want = np.abs(av) if op == "TABS" else -a[:vr, :vc]  # TNEG of +0 is -0
    elif op in ("TADDS", "TMULS"):
        out, dfn = KERNELS[op](a, 3, valid, pad)  # the raw word 3 of an integer; 3.0 of a float
        if dt.kind == "f":
            out, dfn = KERNELS[op](a, 3.0, valid, pad)
        want = av + 3 if op == "TADDS" else av * 3
    elif op in ("TADD", "TMAX"):
        out, dfn = KERNELS[op](a, b, valid, pad)
        want = av + bv if op == "TADD" else np.maximum(av, bv)
    else:
        if dt.kind != "f":
            return  # TFMA is a float op
        out, dfn = KERNELS[op](a, b, c, valid, pad)
        want = av * bv + cv
    check(out, dfn, want.astype(dt), valid, pad)


@settings(max_examples=examples(40), deadline=None)
@given(t=tiles(), cmode=st.sampled_from(["eq", "ne", "lt", "gt", "le", "ge"]))
def test_compare_and_select_pad_outside_the_valid_rectangle(t, cmode):
    rows, cols, valid, dt, rng, pad = t
    if dt.kind != "f":
        dt = np.dtype(np.float32)
    a, b = (rng.integers(-3, 3, (rows, cols)).astype(dt) for _ in range(2))
    vr, vc = valid
    rel = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "gt": np.greater,
           "le": np.less_equal, "ge": np.greater_equal}[cmode]  # fmt: skip
    tname = T.FP32 if dt == np.float32 else T.FP16
    bits, dfn = KERNELS["TCMP"](a, b, valid, pad, tname, cmode=cmode)
    check(bits, dfn, rel(a[:vr, :vc], b[:vr, :vc]), valid, pad)
    bits, dfn = KERNELS["TCMPS"](a, 1.0, valid, pad, tname, cmode=cmode)
    check(bits, dfn, rel(a[:vr, :vc], 1.0), valid, pad)
    p = rng.integers(0, 2, (rows, cols)).astype(bool)
    out, dfn = KERNELS["TSEL"](p, a, b, valid, pad, tname)
    check(out, dfn, np.where(p, a, b)[:vr, :vc], valid, pad)


@settings(max_examples=examples(40), deadline=None)
@given(t=tiles())
def test_conversions_pad_outside_the_valid_rectangle(t):
    rows, cols, valid, dt, rng, pad = t
    vr, vc = valid
    a = rng.integers(-100, 100, (rows, cols)).astype(np.float32)
    out, dfn = KERNELS["TCVT"](a, valid, pad, "FP32", "S16", rmode="rne")
    check(out, dfn, a[:vr, :vc].astype(np.int16), valid, pad)
    out, dfn = KERNELS["TCVT"](a, valid, pad, "FP32", "FP16", rmode="rtz")
    check(out, dfn, a[:vr, :vc].astype(np.float16), valid, pad)
    # TQUANT / TDEQUANT always pad with Null (undefined, 0 bits)
    out, dfn = KERNELS["TQUANT"](a, None, None, valid, "S8")
    check(out, dfn, a[:vr, :vc].astype(np.int8), valid, "null")
    q = rng.integers(-128, 128, (rows, cols)).astype(np.int8)
    out, dfn = KERNELS["TDEQUANT"](q, None, None, valid, "S8")
    check(out, dfn, q[:vr, :vc].astype(np.float32), valid, "null")


@settings(max_examples=examples(20), deadline=None)
@given(n=st.integers(1, 12), seed=st.integers(0, 2**32 - 1),
       op=st.sampled_from(["TABS", "TNEG", "TADDS", "TADD", "TMAX", "TFMA", "TCVT"]))
def test_a_one_dimensional_payload_is_one_row(n, seed, op):
    """A 1-D payload is a tile of one row (the kernel API's convention for the TEPL element
    families; TCMP / TSEL refuse it with a fault): the result has shape (1, n), computed
    element by element, whatever n (even lengths included)."""
    rng = np.random.default_rng(seed)
    a, b, c = (rng.integers(-50, 50, n).astype(np.float32) for _ in range(3))
    w = {"TABS": lambda: np.abs(a), "TNEG": lambda: -a, "TADDS": lambda: a + 3,
         "TADD": lambda: a + b, "TMAX": lambda: np.maximum(a, b), "TFMA": lambda: a * b + c,
         "TCVT": lambda: a.astype(np.int16)}[op]()  # fmt: skip
    call = {"TABS": lambda: KERNELS[op](a, None), "TNEG": lambda: KERNELS[op](a, None),
            "TADDS": lambda: KERNELS[op](a, 3.0, None), "TADD": lambda: KERNELS[op](a, b, None, "null"),
            "TMAX": lambda: KERNELS[op](a, b, None, "null"), "TFMA": lambda: KERNELS[op](a, b, c, None),
            "TCVT": lambda: KERNELS[op](a, None, "null", T.FP32, T.S16)}[op]  # fmt: skip
    out, dfn = call()
    assert out.shape == (1, n) and dfn.shape == (1, n) and dfn.all()
    assert np.array_equal(out.reshape(-1), w.astype(out.dtype))
