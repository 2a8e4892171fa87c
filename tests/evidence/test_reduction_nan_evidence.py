"""MAX / MIN / ARGMAX / ARGMIN reductions with NaNs (quiet and signalling), infinities and
signed zeros, against an independent scalar transcription of the ASL on bit patterns.

The reference is ``ExecuteTileReduction`` -> ``TileReductionStepWithFlags`` ->
``TileProfileBinaryWithFlags`` -> ``TileFloatingMinMaxValue`` ->
``HardwareNumericFloatingMinMax`` (``asl/tile/model/execution/reduction.asl``,
``minmax.asl``, ``asl/arch/features/minmax-profile.asl``) and ``HardwareNumericMinMaxSpecial``
(``asl/arch/features/mx-formats.asl``), written on integers: the value classes of the format
files (``asl/arch/data-types/formats/*.asl``), the special rules (one NaN -> the other
operand, two NaNs -> the canonical NaN, NV when either operand is a signalling NaN; two
zeros: MAX +0 unless both are -0, MIN -0 if either is), otherwise the unsigned order key
(sign-magnitude flipped) with ties keeping the left operand (the accumulator). The fold starts
from the first element (no step for a line of one), and the index moves when the step result
equals the element and differs from the accumulator, as bit patterns. No numpy float
arithmetic is used by the reference.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import BINARY_ROWS, binary_tile
from interpreter.kernels.status import NV, recording
from interpreter.kernels.tile_local import local_tile
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples

# (exponent bits, fraction bits, canonical NaN); E4M3 has one NaN per sign (S.1111.111), quiet
FORMATS = {
    T.FP64: (11, 52, 0x7FF8000000000000),
    T.FP32: (8, 23, 0x7FC00000),
    T.FP16: (5, 10, 0x7E00),
    T.BF16: (8, 7, 0x7FC0),
    T.E5M2: (5, 2, 0x7E),
    T.E4M3: (4, 3, 0x7F),
}
ARG_TYPES = (T.FP32, T.FP16, T.BF16)  # TileArgReductionSourceDataTypeSupported's floats


def _width(t: T) -> int:
    eb, fb, _ = FORMATS[t]
    return 1 + eb + fb


def value_class(bits: int, t: T) -> str:
    """``qnan``, ``snan``, ``+0``, ``-0`` or ``num`` (the ClassifyXXX functions)."""
    eb, fb, _ = FORMATS[t]
    e, f = bits >> fb & ((1 << eb) - 1), bits & ((1 << fb) - 1)
    sign = bits >> (eb + fb) & 1
    if t is T.E4M3:
        if e == (1 << eb) - 1 and f == (1 << fb) - 1:
            return "qnan"
    elif e == (1 << eb) - 1 and f:
        return "qnan" if f >> (fb - 1) & 1 else "snan"
    if e == 0 and f == 0:
        return "-0" if sign else "+0"
    return "num"


def order_key(bits: int, t: T) -> int:
    """HardwareNumericFloatingOrderKey: negative -> NOT(value), else value XOR sign bit."""
    w = _width(t)
    return (~bits & ((1 << w) - 1)) if bits >> (w - 1) & 1 else bits ^ (1 << (w - 1))


def minmax_step(maximum: bool, t: T, left: int, right: int) -> tuple[int, bool]:
    """(result bits, invalid) of HardwareNumericFloatingMinMax(maximum, t, left, right)."""
    lc, rc = value_class(left, t), value_class(right, t)
    invalid = "snan" in (lc, rc)
    ln, rn = lc.endswith("nan"), rc.endswith("nan")
    if ln and rn:
        return FORMATS[t][2], invalid
    if ln:
        return right, invalid
    if rn:
        return left, invalid
    if lc in ("+0", "-0") and rc in ("+0", "-0"):
        if maximum:
            return (left if lc == rc == "-0" else 0), False
        return (left if lc == "-0" else right if rc == "-0" else 0), False
    lk, rk = order_key(left, t), order_key(right, t)
    if maximum:
        return (left if lk >= rk else right), False
    return (left if lk <= rk else right), False


def reduce_line(op: str, t: T, line: list[int]) -> tuple[int, int]:
    """ExecuteTileReduction of one line: (result bits or index, flags)."""
    maximum = op.endswith("max")
    acc, index, flags = line[0], 0, 0
    for i, v in enumerate(line[1:], start=1):
        r, invalid = minmax_step(maximum, t, acc, v)
        if r == v and r != acc:
            index = i
        acc = r
        flags |= NV if invalid else 0
    return (index if op.startswith("arg") else acc), flags


# ---------------------------------------------------------------------------------------


def _carrier(t: T) -> np.dtype:
    return np.dtype(t.numpy_dtype())


def _array(bits: list[list[int]], t: T) -> np.ndarray:
    return np.array(bits, f"u{_carrier(t).itemsize}").view(_carrier(t))


def _run(mnemonic: str, x: np.ndarray, t: T) -> tuple[np.ndarray, int]:
    row = mnemonic.startswith("TROW")
    arg = "ARG" in mnemonic
    dst = T.U32 if arg else t
    valid = (x.shape[0], 1) if row else (1, x.shape[1])
    with recording() as status:
        out = local_tile(mnemonic, [x], [t], dst, valid)
    out = out.reshape(-1)
    got = out.astype(np.int64) if arg else out.view(f"u{out.dtype.itemsize}").astype(np.uint64)
    return got, status.bits


def _check(mnemonic: str, bits: list[list[int]], t: T) -> None:
    op = mnemonic[4:].lower()
    lines = bits if mnemonic.startswith("TROW") else [list(c) for c in zip(*bits)]
    want = [reduce_line(op, t, line) for line in lines]
    got, flags = _run(mnemonic, _array(bits, t), t)
    assert [int(g) for g in got] == [w for w, _ in want], (mnemonic, t, [hex(b) for r in bits for b in r])
    wf = 0
    for _, f in want:
        wf |= f
    assert flags == wf, (mnemonic, t)


def _specials(t: T) -> list[int]:
    """NaNs (quiet, signalling, payloads, both signs), infinities, zeros, extremes, ones."""
    eb, fb, canon = FORMATS[t]
    w = _width(t)
    sign = 1 << (w - 1)
    inf = ((1 << eb) - 1) << fb
    one = ((1 << (eb - 1)) - 1) << fb
    out = [0, sign, one, one | sign, one + 1, (one + (1 << fb)), 1, 1 | sign, canon, canon | sign,
           0x7E if t is T.E4M3 else inf - 1]  # the largest finite
    if t is T.E4M3:
        out += [0x7F, 0xFF]
    else:
        out += [inf, inf | sign, inf | 1, inf | sign | 1, inf | (1 << (fb - 1)) | 1,
                canon | 1, inf | ((1 << (fb - 1)) - 1)]  # fmt: skip
    return out


def _words(t: T):
    return st.one_of(st.sampled_from(_specials(t)), st.sampled_from(_specials(t)),
                     st.integers(0, (1 << _width(t)) - 1))  # fmt: skip


# --- the issue's examples, by hand -----------------------------------------------------

SNAN = 0x7F800001
F32 = {2.0: 0x40000000, 1.0: 0x3F800000, -np.inf: 0xFF800000}


@pytest.mark.parametrize(("mnemonic", "row", "want", "flags"), [
    ("TROWMAX", [F32[2.0], SNAN, F32[1.0]], F32[2.0], NV),
    ("TROWMAX", [SNAN, F32[-np.inf]], F32[-np.inf], NV),
    ("TROWMIN", [SNAN, F32[2.0], F32[1.0]], F32[1.0], NV),
    ("TROWARGMAX", [F32[2.0], SNAN, F32[1.0]], 0, NV),
    ("TROWARGMIN", [F32[2.0], SNAN, F32[1.0]], 2, NV),
    ("TROWARGMAX", [SNAN, F32[-np.inf]], 1, NV),
    ("TROWMAX", [SNAN, SNAN], 0x7FC00000, NV),  # two NaNs: the canonical NaN
    ("TROWMAX", [SNAN], SNAN, 0),  # one element: no step, a bit copy
], ids=str)  # fmt: skip
def test_issue_examples_fp32(mnemonic, row, want, flags):
    got, f = _run(mnemonic, _array([row], T.FP32), T.FP32)
    assert int(got[0]) == want and f == flags
    col, fc = _run(mnemonic.replace("TROW", "TCOL"), _array([[v] for v in row], T.FP32), T.FP32)
    assert int(col[0]) == want and fc == flags


@pytest.mark.parametrize("t", [T.FP64, T.BF16], ids=lambda t: t.name)
def test_signalling_nan_is_skipped_fp64_bf16(t):
    eb, fb, _ = FORMATS[t]
    snan = (((1 << eb) - 1) << fb) | 1
    two = 1 << (_width(t) - 2)  # 2.0: exponent bias + 1
    one = ((1 << (eb - 1)) - 1) << fb
    got, f = _run("TROWMAX", _array([[two, snan, one]], t), t)
    assert int(got[0]) == two and f == NV
    got, f = _run("TCOLMIN", _array([[snan], [two], [one]], t), t)
    assert int(got[0]) == one and f == NV


# --- every type, both axes, hypothesis over special-heavy tiles ------------------------

CASES = [(m, t) for t in FORMATS for m in ("MAX", "MIN")] + [
    (m, t) for t in ARG_TYPES for m in ("ARGMAX", "ARGMIN")]


@pytest.mark.parametrize(("op", "t"), CASES, ids=[f"{o}-{t.name}" for o, t in CASES])
@settings(max_examples=examples(25), deadline=None)
@given(data=st.data())
def test_reductions_match_the_asl_step(op, t, data):
    rows = data.draw(st.integers(1, 3))
    cols = data.draw(st.integers(1, 6))
    flat = data.draw(st.lists(_words(t), min_size=rows * cols, max_size=rows * cols))
    bits = [flat[r * cols:(r + 1) * cols] for r in range(rows)]
    _check(f"TROW{op}", bits, t)
    _check(f"TCOL{op}", bits, t)


@pytest.mark.parametrize("op", ["MAX", "MIN"])
@pytest.mark.parametrize("t", list(FORMATS), ids=lambda t: t.name)
def test_reductions_agree_with_the_binary_row(op, t):
    """A MAX / MIN reduction equals the TMAX / TMIN binary row folded along the line (every
    pair of specials, in both orders, then a third element)."""
    sp = _specials(t)
    pairs = [[a, b, c] for a in sp for b in sp for c in sp[:4]]
    x = _array(pairs, t)
    row = BINARY_ROWS[f"T{op}"]
    acc = x[:, :1]
    for i in range(1, 3):
        acc, _ = binary_tile(row, acc, x[:, i:i + 1].copy(), (len(pairs), 1), "null", t)
    got, _ = _run(f"TROW{op}", x, t)
    assert got.tolist() == acc.reshape(-1).view(f"u{acc.dtype.itemsize}").astype(np.uint64).tolist()
