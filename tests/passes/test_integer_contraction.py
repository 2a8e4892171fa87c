"""i32/i64 matmuls and ``linalg.quantized_matmul`` lower exactly to S16 CUBE products
(``passes/lowering/integer_contraction.py``, issue 28 item 6, D18: bit for bit).

References are Python integers (exact), reduced modulo 2^32 / 2^64 as the result type wraps.
"""

from __future__ import annotations

import numpy as np
import pytest
from lowering_helpers import apply, parse

from interpreter import run
from passes.lowering.integer_contraction import value_range
from passes.lowering.leftovers import find_leftovers
from passes.pto_lower import PTOLowerPass


def _wrap(x: int, bits: int) -> int:
    return (x + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)


def _ref(a, b, bits, init=None):
    m, k = a.shape
    n = b.shape[1]
    out = np.zeros((m, n), dtype=np.int64 if bits == 64 else np.int32)
    for i in range(m):
        for j in range(n):
            s = int(init[i, j]) if init is not None else 0
            s += sum(int(a[i, t]) * int(b[t, j]) for t in range(k))
            out[i, j] = _wrap(s, bits)
    return out


def _lower(text, level="block"):
    m = parse(text)
    low = apply(PTOLowerPass(level=level), m)
    return m, low, find_leftovers(low)


I32_MATMUL = """
func.func @main(%a: tensor<3x5xi32>, %b: tensor<5x4xi32>, %c: tensor<3x4xi32>) -> tensor<3x4xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<3x5xi32>, tensor<5x4xi32>) outs(%c : tensor<3x4xi32>) -> tensor<3x4xi32>
  func.return %r : tensor<3x4xi32>
}
"""


def test_i32_matmul_full_range_through_16_bit_limbs():
    rng = np.random.default_rng(11)
    a = rng.integers(-(2**31), 2**31, (3, 5), dtype=np.int64).astype(np.int32)
    b = rng.integers(-(2**31), 2**31, (5, 4), dtype=np.int64).astype(np.int32)
    a[0, 0], b[0, 0] = -(2**31), 2**31 - 1  # the limb split's extremes
    c = rng.integers(-(2**31), 2**31, (3, 4), dtype=np.int64).astype(np.int32)
    _, low, left = _lower(I32_MATMUL)
    assert not left, [x.diagnostic() for x in left]
    tile = str(apply(PTOLowerPass(level="tile"), parse(I32_MATMUL)))
    assert tile.count("pto.tmatmul") == 3  # A_lo B_lo, A_hi B_lo, A_lo B_hi
    (got,) = run(low, "main", a, b, c)
    np.testing.assert_array_equal(got, _ref(a, b, 32, c))


BOUNDED = """
func.func @main(%a: tensor<4x6xi8>, %b: tensor<6x3xi8>) -> tensor<4x3xi64> {
  %za = arith.constant dense<-7> : tensor<4x6xi32>
  %e0 = tensor.empty() : tensor<4x6xi32>
  %a2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %za : tensor<4x6xi8>, tensor<4x6xi32>) outs(%e0 : tensor<4x6xi32>) {
  ^bb0(%x: i8, %z: i32, %o: i32):
    %w = arith.extsi %x : i8 to i32
    %d = arith.subi %w, %z : i32
    linalg.yield %d : i32
  } -> tensor<4x6xi32>
  %e1 = tensor.empty() : tensor<6x3xi32>
  %b2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<6x3xi8>) outs(%e1 : tensor<6x3xi32>) {
  ^bb0(%x: i8, %o: i32):
    %w = arith.extui %x : i8 to i32
    linalg.yield %w : i32
  } -> tensor<6x3xi32>
  %zero = arith.constant 0 : i64
  %e2 = tensor.empty() : tensor<4x3xi64>
  %acc = linalg.fill ins(%zero : i64) outs(%e2 : tensor<4x3xi64>) -> tensor<4x3xi64>
  %r = linalg.matmul ins(%a2, %b2 : tensor<4x6xi32>, tensor<6x3xi32>) outs(%acc : tensor<4x3xi64>) -> tensor<4x3xi64>
  func.return %r : tensor<4x3xi64>
}
"""


def test_bounded_operands_give_the_exact_i64_sum_on_one_s16_product():
    rng = np.random.default_rng(12)
    a = rng.integers(-128, 128, (4, 6)).astype(np.int8)
    b = rng.integers(-128, 128, (6, 3)).astype(np.int8)
    a[0, :] = -128  # -128 - (-7) = -121; extui(-128) = 128
    b[:, 0] = -128
    m, low, left = _lower(BOUNDED)
    assert not left, [x.diagnostic() for x in left]
    assert str(apply(PTOLowerPass(level="tile"), m)).count("pto.tmatmul") == 1
    (got,) = run(low, "main", a, b)
    want = _ref(a.astype(np.int64) + 7, b.view(np.uint8).astype(np.int64), 64)
    np.testing.assert_array_equal(got, want)
    (before,) = run(m, "main", a, b)
    np.testing.assert_array_equal(got, before)


def test_value_ranges_of_the_producers():
    module = parse(BOUNDED)
    gens = [o for o in module.walk() if o.name == "linalg.generic"]
    assert value_range(gens[0].results[0]) == (-128 + 7, 127 + 7)
    assert value_range(gens[1].results[0]) == (0, 255)


def test_an_i64_sum_of_unbounded_operands_through_balanced_digits():
    """extsi from i16 plus 7: beyond i16, so no single S16 product; the i64 result comes
    exactly from 8-bit digit products (S32 sums that cannot wrap), shifted and added."""
    text = BOUNDED.replace("xi8>", "xi16>").replace(": i8", ": i16").replace("%x: i8", "%x: i16")
    m, low, left = _lower(text, "tile")  # the tile-level program is what the blocks run
    assert not left, [x.diagnostic() for x in left]
    a = np.full((4, 6), -(2**15), np.int16)
    a[1] = 2**15 - 1
    b = np.full((6, 3), -1, np.int16)  # extui: 65535
    (got,) = run(low, "main", a, b)
    want = _ref(a.astype(np.int64) + 7, b.view(np.uint16).astype(np.int64), 64)
    np.testing.assert_array_equal(got, want)


WIDE = """
func.func @main(%a: tensor<3x5xTA>, %b: tensor<5x2xTB>) -> tensor<3x2xi64> {
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<3x2xi64>
  %acc = linalg.fill ins(%zero : i64) outs(%e : tensor<3x2xi64>) -> tensor<3x2xi64>
  %r = linalg.matmul ins(%a, %b : tensor<3x5xTA>, tensor<5x2xTB>) outs(%acc : tensor<3x2xi64>) -> tensor<3x2xi64>
  func.return %r : tensor<3x2xi64>
}
"""


@pytest.mark.parametrize("ta, tb", [("i32", "i32"), ("i64", "i64")])
def test_full_range_matmul_into_i64_is_exact(ta, tb):
    rng = np.random.default_rng(15)
    info = {"i32": np.int32, "i64": np.int64}
    lo = {"i32": -(2**31), "i64": -(2**63)}
    a = rng.integers(lo[ta], -lo[ta] - 1, (3, 5), dtype=np.int64, endpoint=True).astype(info[ta])
    b = rng.integers(lo[tb], -lo[tb] - 1, (5, 2), dtype=np.int64, endpoint=True).astype(info[tb])
    a[0, 0], b[0, 0] = lo[ta], -lo[tb] - 1
    _, low, left = _lower(WIDE.replace("TA", ta).replace("TB", tb), "tile")
    assert not left, [x.diagnostic() for x in left]
    (got,) = run(low, "main", a, b)
    np.testing.assert_array_equal(got, _ref(a, b, 64))


@pytest.mark.parametrize("za, zb", [(-8, 2), (127, -128)])
def test_quantized_matmul_folds_zero_points_exactly(za, zb):
    text = f"""
func.func @main(%a: tensor<4x32xi8>, %b: tensor<32x5xi8>, %c: tensor<4x5xi32>) -> tensor<4x5xi32> {{
  %za = arith.constant {za} : i32
  %zb = arith.constant {zb} : i32
  %r = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<4x32xi8>, tensor<32x5xi8>, i32, i32) outs(%c : tensor<4x5xi32>) -> tensor<4x5xi32>
  func.return %r : tensor<4x5xi32>
}}
"""
    rng = np.random.default_rng(13)
    a = rng.integers(-128, 128, (4, 32)).astype(np.int8)
    b = rng.integers(-128, 128, (32, 5)).astype(np.int8)
    c = rng.integers(-1000, 1000, (4, 5)).astype(np.int32)
    _, low, left = _lower(text)
    assert not left, [x.diagnostic() for x in left]
    (got,) = run(low, "main", a, b, c)
    np.testing.assert_array_equal(got, _ref(a.astype(np.int64) - za, b.astype(np.int64) - zb, 32, c))
