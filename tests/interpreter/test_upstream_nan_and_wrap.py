"""Two reference-interpreter bugs the semantic fuzzer found (issue 23).

* ``arith.maxnumf`` / ``minnumf`` with a signalling NaN: MLIR's result is the other operand
  when one is NaN ("If one of the arguments is NaN, then the result is the other argument";
  LLVM's ``maxnum`` does not distinguish signalling NaNs; D21). numpy's float32 / float64
  ``fmax`` returned a quiet NaN instead. ``arith.extf`` makes a NaN quiet and keeps its
  sign and payload (IEEE 754 convertFormat, LLVM ``APFloat::convert``, D21); numpy kept an
  f16 / bf16 signalling NaN signalling when widening to f32.
* ``addi`` / ``muli`` reductions of i8..i32 to a 0-d result: numpy widened the sequential
  fold to int64, so the sum did not wrap at the element width and could not be stored back
  (``OverflowError``). MLIR wraps every step (two's complement), checked against a Python
  integer reference reduced modulo 2^width.

Expected values are written by hand on bit patterns; both engines run every program.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import run
from tests.budget import examples

FLOATS = {  # type -> (numpy dtype, unsigned view, signalling NaN, a quiet NaN with payload)
    "f16": (np.float16, np.uint16, 0x7C01, 0xFE55),
    "bf16": (ml_dtypes.bfloat16, np.uint16, 0x7F81, 0xFFC3),
    "f32": (np.float32, np.uint32, 0x7F800001, 0xFFC00123),
    "f64": (np.float64, np.uint64, 0x7FF0000000000001, 0xFFF8000000000123),
}


def binary(op: str, t: str, n: int) -> str:
    ty = f"tensor<{n}x{t}>"
    return f"""func.func @f(%x: {ty}, %y: {ty}) -> {ty} {{
  %e = tensor.empty() : {ty}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%x, %y : {ty}, {ty}) outs(%e : {ty}) {{
  ^bb0(%a: {t}, %b: {t}, %o: {t}):
    %s = arith.{op} %a, %b : {t}
    linalg.yield %s : {t}
  }} -> {ty}
  return %r : {ty}
}}
"""


@pytest.mark.parametrize("op", ["maxnumf", "minnumf"])
@pytest.mark.parametrize("t", list(FLOATS))
def test_numf_with_a_signalling_nan_returns_the_other_operand(op: str, t: str) -> None:
    dt, ut, snan, qnan = FLOATS[t]
    others = np.array([1.5, -2.0, 0.0, -0.0, np.inf, -np.inf], dt)
    n = len(others)
    s = np.full(n, snan, ut).view(dt)
    q = np.full(n, qnan, ut).view(dt)
    prog = binary(op, t, n)
    for nan in (s, q):
        for x, y in ((nan, others), (others, nan)):
            (got,) = run(prog, "f", x, y, engine="both")
            assert np.array_equal(got.view(ut), others.view(ut)), (t, op, [hex(v) for v in got.view(ut)])
    # two NaNs: a NaN
    (got,) = run(prog, "f", s, q, engine="both")
    with np.errstate(invalid="ignore"):
        assert np.isnan(got.astype(np.float64)).all()


EXTF = [  # (source, destination, source bits, expected bits)
    ("bf16", "f32", 0x7F81, 0x7FC10000),  # signalling -> quiet, payload kept at the top
    ("bf16", "f32", 0xFFC3, 0xFFC30000),
    ("bf16", "f64", 0x7F81, 0x7FF8200000000000),
    ("f16", "f32", 0x7C01, 0x7FC02000),
    ("f16", "f32", 0xFE55, 0xFFCAA000),
    ("f16", "f64", 0x7C01, 0x7FF8040000000000),
    ("f32", "f64", 0x7F800001, 0x7FF8000020000000),
    ("bf16", "f32", 0x8001, 0x80010000),  # not a NaN: exact
    ("f16", "f32", 0xFC00, 0xFF800000),
]


@pytest.mark.parametrize(("src", "dst", "bits", "want"), EXTF)
def test_extf_quietens_nans_and_keeps_payload(src: str, dst: str, bits: int, want: int) -> None:
    sdt, sut, _, _ = FLOATS[src]
    _, dut, _, _ = FLOATS[dst]
    prog = f"""func.func @f(%x: tensor<2x{src}>) -> tensor<2x{dst}> {{
  %e = tensor.empty() : tensor<2x{dst}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%x : tensor<2x{src}>) outs(%e : tensor<2x{dst}>) {{
  ^bb0(%a: {src}, %o: {dst}):
    %s = arith.extf %a : {src} to {dst}
    linalg.yield %s : {dst}
  }} -> tensor<2x{dst}>
  return %r : tensor<2x{dst}>
}}
"""
    x = np.array([bits, bits], sut).view(sdt)
    (got,) = run(prog, "f", x, engine="both")
    assert [hex(v) for v in got.view(dut)] == [hex(want)] * 2


INTS = {"i8": np.int8, "i16": np.int16, "i32": np.int32}


def full_reduction(op: str, t: str, n: int) -> str:
    init = 0 if op == "addi" else 1
    return f"""func.func @f(%x: tensor<{n}x{t}>) -> tensor<{t}> {{
  %z = arith.constant {init} : {t}
  %e = tensor.empty() : tensor<{t}>
  %f = linalg.fill ins(%z : {t}) outs(%e : tensor<{t}>) -> tensor<{t}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}} ins(%x : tensor<{n}x{t}>) outs(%f : tensor<{t}>) {{
  ^bb0(%a: {t}, %acc: {t}):
    %s = arith.{op} %acc, %a : {t}
    linalg.yield %s : {t}
  }} -> tensor<{t}>
  return %r : tensor<{t}>
}}
"""


def wrapped(v: int, width: int) -> int:
    v %= 1 << width
    return v - (1 << width) if v >> (width - 1) else v


@settings(max_examples=examples(20), deadline=None)
@given(op=st.sampled_from(["addi", "muli"]), t=st.sampled_from(list(INTS)), data=st.data())
def test_integer_full_reduction_wraps_at_the_width(op: str, t: str, data) -> None:
    dt = INTS[t]
    info = np.iinfo(dt)
    values = data.draw(st.lists(st.integers(int(info.min), int(info.max)), min_size=2, max_size=9))
    x = np.array(values, dt)
    acc = 0 if op == "addi" else 1
    for v in values:
        acc = acc + v if op == "addi" else acc * v
    (got,) = run(full_reduction(op, t, len(values)), "f", x, engine="both")
    assert got.dtype == dt and int(got) == wrapped(acc, info.bits)


def test_issue_example_i8_sum_overflows() -> None:
    x = np.array([120, 100, -7, 99, 127, 3], np.int8)
    (got,) = run(full_reduction("addi", "i8", 6), "f", x, engine="both")
    assert int(got) == wrapped(442, 8) == -70
