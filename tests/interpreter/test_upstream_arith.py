"""numpy arith semantics, checked against Python integers, struct/bit-level rounding and math.

Programs apply the op to whole tensors (arith on tensor types) and, via linalg.generic,
to the vectorised body path; both must agree with references written independently.
"""

from __future__ import annotations

import math
import struct

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from interpreter import RunError, run
from interpreter.ssa.runner import load_module

N = 16
I32 = st.integers(-(2**31), 2**31 - 1)


def _binary_module(op: str, ty: str, result: str | None = None, n: int = N):
    result = result or ty
    return load_module(f"""
func.func @f(%a: tensor<{n}x{ty}>, %b: tensor<{n}x{ty}>) -> tensor<{n}x{result}> {{
  %r = {op} %a, %b : tensor<{n}x{ty}>
  func.return %r : tensor<{n}x{result}>
}}""")


def _generic_module(op: str, ty: str, result: str, n: int = N):
    """The op as the body of an elementwise linalg.generic (the vectorised body path)."""
    return load_module(f"""
#id = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<{n}x{ty}>, %b: tensor<{n}x{ty}>) -> tensor<{n}x{result}> {{
  %e = tensor.empty() : tensor<{n}x{result}>
  %r = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}}
      ins(%a, %b : tensor<{n}x{ty}>, tensor<{n}x{ty}>) outs(%e : tensor<{n}x{result}>) {{
  ^bb0(%x: {ty}, %y: {ty}, %o: {result}):
    %v = {op} %x, %y : {ty}
    linalg.yield %v : {result}
  }} -> tensor<{n}x{result}>
  func.return %r : tensor<{n}x{result}>
}}""")


def _wrap32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


def _trunc_rem(a: int, b: int) -> int:
    q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    return a - q * b


INT_CASES = {
    "arith.addi": lambda a, b: _wrap32(a + b),
    "arith.subi": lambda a, b: _wrap32(a - b),
    "arith.muli": lambda a, b: _wrap32(a * b),
    "arith.andi": lambda a, b: a & b,
    "arith.ori": lambda a, b: a | b,
    "arith.xori": lambda a, b: a ^ b,
    "arith.maxsi": max,
    "arith.minsi": min,
    "arith.maxui": lambda a, b: _wrap32(max(a % 2**32, b % 2**32)),
    "arith.minui": lambda a, b: _wrap32(min(a % 2**32, b % 2**32)),
}
INT_MODULES = {op: _binary_module(op, "i32") for op in INT_CASES}
INT_GENERIC_MODULES = {op: _generic_module(op, "i32", "i32") for op in INT_CASES}


@pytest.mark.parametrize("op", sorted(INT_CASES))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_i32_binary_ops_wrap_like_python_ints(op, data):
    a = data.draw(st.lists(I32, min_size=N, max_size=N))
    b = data.draw(st.lists(I32, min_size=N, max_size=N))
    ref = [INT_CASES[op](x, y) for x, y in zip(a, b)]
    for module in (INT_MODULES[op], INT_GENERIC_MODULES[op]):
        (r,) = run(module, "f", np.array(a, np.int32), np.array(b, np.int32))
        assert r.dtype == np.int32
        assert r.tolist() == ref


DIV_CASES = {
    "arith.remsi": lambda a, b: _trunc_rem(a, b),
    "arith.remui": lambda a, b: _wrap32((a % 2**32) % (b % 2**32)),
    "arith.divui": lambda a, b: _wrap32((a % 2**32) // (b % 2**32)),
    "arith.divsi": lambda a, b: (a - _trunc_rem(a, b)) // b,
    "arith.floordivsi": lambda a, b: a // b,
    "arith.ceildivsi": lambda a, b: -((-a) // b),
}
DIV_MODULES = {op: _binary_module(op, "i32") for op in DIV_CASES}
NONZERO = I32.filter(lambda x: x != 0)


@pytest.mark.parametrize("op", sorted(DIV_CASES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_i32_division_family(op, data):
    a = data.draw(
        st.lists(st.sampled_from([-(2**31), 2**31 - 1, 0, -7, 7]) | I32, min_size=N, max_size=N)
    )
    b = data.draw(
        st.lists(
            st.sampled_from([1, 2, 3, -3, 2**31 - 1, -(2**31)]) | NONZERO, min_size=N, max_size=N
        )
    )
    if op in ("arith.divsi", "arith.floordivsi", "arith.ceildivsi"):
        b = [y if not (x == -(2**31) and y == -1) else 1 for x, y in zip(a, b)]
    (r,) = run(DIV_MODULES[op], "f", np.array(a, np.int32), np.array(b, np.int32))
    assert r.tolist() == [DIV_CASES[op](x, y) for x, y in zip(a, b)]


def test_remsi_int_min_by_minus_one_is_zero():
    """Not UB in our interpreter: the exact remainder, as TREM gives (D8)."""
    (r,) = run(
        DIV_MODULES["arith.remsi"], "f", np.full(N, -(2**31), np.int32), np.full(N, -1, np.int32)
    )
    assert not r.any()


@pytest.mark.parametrize("op", ["arith.remsi", "arith.remui", "arith.divsi", "arith.divui"])
def test_division_by_zero_is_reported_not_invented(op):
    b = np.ones(N, np.int32)
    b[3] = 0
    with pytest.raises(RunError, match="division by zero"):
        run(DIV_MODULES[op], "f", np.ones(N, np.int32), b)


def test_divsi_overflow_is_reported():
    with pytest.raises(RunError, match="overflow"):
        run(
            DIV_MODULES["arith.divsi"],
            "f",
            np.full(N, -(2**31), np.int32),
            np.full(N, -1, np.int32),
        )


CMPI_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPI_MODULES = {p: _generic_module(f"arith.cmpi {p},", "i32", "i1") for p in CMPI_PREDICATES}


def _cmpi_ref(p: str, a: int, b: int) -> bool:
    if p[0] == "u":
        a, b = a % 2**32, b % 2**32
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[
        p if p in ("eq", "ne") else p[1:]
    ]


@pytest.mark.parametrize("pred", CMPI_PREDICATES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_cmpi_all_predicates(pred, data):
    small = st.integers(-3, 3)
    a = data.draw(st.lists(small | I32, min_size=N, max_size=N))
    b = data.draw(st.lists(small | I32, min_size=N, max_size=N))
    (r,) = run(CMPI_MODULES[pred], "f", np.array(a, np.int32), np.array(b, np.int32))
    assert r.dtype == np.bool_
    assert r.tolist() == [_cmpi_ref(pred, x, y) for x, y in zip(a, b)]


CMPF_PREDICATES = [
    "false",
    "oeq",
    "ogt",
    "oge",
    "olt",
    "ole",
    "one",
    "ord",
    "ueq",
    "ugt",
    "uge",
    "ult",
    "ule",
    "une",
    "uno",
    "true",
]
CMPF_MODULES = {p: _generic_module(f"arith.cmpf {p},", "f32", "i1", n=9) for p in CMPF_PREDICATES}


@pytest.mark.parametrize("pred", CMPF_PREDICATES)
def test_cmpf_ordered_and_unordered_predicates(pred):
    vals = [1.0, 2.0, math.nan]
    pairs = [(x, y) for x in vals for y in vals]
    a = np.array([p[0] for p in pairs], np.float32)
    b = np.array([p[1] for p in pairs], np.float32)
    (r,) = run(CMPF_MODULES[pred], "f", a, b)

    def ref(x, y):
        unordered = math.isnan(x) or math.isnan(y)
        if pred in ("false", "true"):
            return pred == "true"
        if pred == "ord":
            return not unordered
        if pred == "uno":
            return unordered
        rel = {"eq": x == y, "gt": x > y, "ge": x >= y, "lt": x < y, "le": x <= y, "ne": x != y}[
            pred[1:]
        ]
        return (rel and not unordered) if pred[0] == "o" else (rel or unordered)

    assert r.tolist() == [ref(x, y) for x, y in pairs]


def _bf16_rne_bits(x: float) -> int:
    """Round an f32 value to bf16 by hand (RNE on the top 16 bits), independent of ml_dtypes."""
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    if math.isnan(x):
        return (bits >> 16) | 0x40
    lower = bits & 0xFFFF
    upper = bits >> 16
    if lower > 0x8000 or (lower == 0x8000 and upper & 1):
        upper += 1
    return upper


TRUNC_BF16 = load_module("""
func.func @f(%a: tensor<64xf32>) -> tensor<64xbf16> {
  %r = arith.truncf %a : tensor<64xf32> to tensor<64xbf16>
  func.return %r : tensor<64xbf16>
}""")
TRUNC_F16 = load_module("""
func.func @f(%a: tensor<64xf32>) -> tensor<64xf16> {
  %r = arith.truncf %a : tensor<64xf32> to tensor<64xf16>
  func.return %r : tensor<64xf16>
}""")
F32 = hnp.arrays(np.float32, 64, elements=st.floats(width=32, allow_nan=False))


@settings(max_examples=60, deadline=None)
@given(a=F32)
def test_truncf_to_bf16_is_round_to_nearest_even(a):
    (r,) = run(TRUNC_BF16, "f", a)
    assert r.dtype == ml_dtypes.bfloat16
    assert r.view(np.uint16).tolist() == [_bf16_rne_bits(float(x)) for x in a]


@settings(max_examples=60, deadline=None)
@given(a=hnp.arrays(np.float32, 64, elements=st.floats(-70000, 70000, width=32)))
def test_truncf_to_f16_is_round_to_nearest_even(a):
    (r,) = run(TRUNC_F16, "f", a)

    def ref(x):
        try:
            return struct.unpack("<H", struct.pack("<e", float(x)))[0]
        except OverflowError:  # beyond f16: RNE overflows to inf
            return 0x7C00 | (0x8000 if x < 0 else 0)

    assert r.view(np.uint16).tolist() == [ref(x) for x in a]


ADD_BF16 = _binary_module("arith.addf", "bf16")


@settings(max_examples=40, deadline=None)
@given(a=F32, b=F32)
def test_addf_bf16_rounds_once_in_bf16(a, b):
    """bf16 + bf16 is the exact sum rounded once to bf16 (not accumulated in f32)."""
    a16 = a[:N].astype(ml_dtypes.bfloat16)
    b16 = b[:N].astype(ml_dtypes.bfloat16)
    (r,) = run(ADD_BF16, "f", a16, b16)
    exact = [float(x) + float(y) for x, y in zip(a16, b16)]  # exact in double
    ref = []
    for s in exact:
        f32 = struct.unpack("<f", struct.pack("<f", s))[0] if abs(s) < 3.4e38 else s
        ref.append(_bf16_rne_bits(f32) if math.isfinite(f32) else None)
    got = r.view(np.uint16).tolist()
    assert [g for g, x in zip(got, ref) if x is not None] == [x for x in ref if x is not None]


MINMAX = {p: _binary_module(f"arith.{p}", "f32", n=6) for p in ("maximumf", "minimumf")}


def test_maximumf_minimumf_signed_zero_and_nan():
    a = np.array([-0.0, 0.0, math.nan, 1.0, -0.0, 2.0], np.float32)
    b = np.array([0.0, -0.0, 1.0, math.nan, -0.0, -3.0], np.float32)
    (mx,) = run(MINMAX["maximumf"], "f", a, b)
    (mn,) = run(MINMAX["minimumf"], "f", a, b)
    assert [math.copysign(1, x) for x in mx[[0, 1, 4]]] == [1, 1, -1]
    assert [math.copysign(1, x) for x in mn[[0, 1, 4]]] == [-1, -1, -1]
    assert np.isnan(mx[2]) and np.isnan(mx[3]) and np.isnan(mn[2]) and np.isnan(mn[3])
    assert mx[5] == 2.0 and mn[5] == -3.0


def test_scalar_ops_keep_their_dtype_and_casts():
    module = load_module("""
func.func @f(%x: i8, %y: f16) -> (i8, i32, i32, f16, bf16, f32, i1, i16) {
  %c = arith.constant 100 : i8
  %s = arith.addi %x, %c : i8
  %e = arith.extsi %s : i8 to i32
  %u = arith.extui %s : i8 to i32
  %h = arith.negf %y : f16
  %cb = arith.constant dense<[1.5, -2.25]> : tensor<2xbf16>
  %i0 = arith.constant 1 : index
  %b = tensor.extract %cb[%i0] : tensor<2xbf16>
  %w = arith.sitofp %e : i32 to f32
  %t = arith.trunci %e : i32 to i1
  %sh = arith.constant 3 : i16
  %m = arith.constant -16 : i16
  %q = arith.shrsi %m, %sh : i16
  func.return %s, %e, %u, %h, %b, %w, %t, %q : i8, i32, i32, f16, bf16, f32, i1, i16
}""")
    s, e, u, h, b, w, t, q = run(module, "f", np.int8(100), np.float16(1.5))
    assert s.dtype == np.int8 and int(s) == -56  # 200 wraps
    assert int(e) == -56 and int(u) == 200
    assert h.dtype == np.float16 and float(h) == -1.5
    assert b.dtype == ml_dtypes.bfloat16 and float(b) == -2.25
    assert w.dtype == np.float32 and float(w) == -56.0
    assert t.dtype == np.bool_ and not bool(t)
    assert int(q) == -2


def test_dense_constants_all_widths():
    module = load_module("""
func.func @f() -> (tensor<2x2xi16>, tensor<3xi1>, tensor<2xf8E4M3FN>, tensor<2xf8E8M0FNU>, tensor<4xf4E2M1FN>, tensor<2xi64>, tensor<2xf64>) {
  %a = arith.constant dense<[[1, -2], [3, 32767]]> : tensor<2x2xi16>
  %b = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %c = arith.constant dense<[448.0, -0.5]> : tensor<2xf8E4M3FN>
  %d = arith.constant dense<[1.0, 0.25]> : tensor<2xf8E8M0FNU>
  %e = arith.constant dense<6.0> : tensor<4xf4E2M1FN>
  %f = arith.constant dense<-9223372036854775808> : tensor<2xi64>
  %g = arith.constant dense<[0.1, -1.0e300]> : tensor<2xf64>
  func.return %a, %b, %c, %d, %e, %f, %g : tensor<2x2xi16>, tensor<3xi1>, tensor<2xf8E4M3FN>, tensor<2xf8E8M0FNU>, tensor<4xf4E2M1FN>, tensor<2xi64>, tensor<2xf64>
}""")
    a, b, c, d, e, f, g = run(module, "f")
    assert a.tolist() == [[1, -2], [3, 32767]] and a.dtype == np.int16
    assert b.tolist() == [True, False, True]
    assert c.view(np.uint8).tolist() == [0x7E, 0xB0]  # 448 = S.1111.110, -0.5 = 1.0110.000
    assert d.view(np.uint8).tolist() == [127, 125]
    assert e.astype(np.float32).tolist() == [6.0] * 4
    assert f.tolist() == [-(2**63)] * 2
    assert g.tolist() == [0.1, -1.0e300]
