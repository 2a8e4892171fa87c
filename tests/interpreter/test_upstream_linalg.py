"""linalg on tensors: the lowering issue's input forms against independent references.

References: GEMV products of bf16/f16 are exact in f32, so the upstream loop is a
sequential f32 sum, computed here with Python floats rounded to f32 by ``struct`` at
every step; MX elements are decoded from their bits by formula (OCP MX v1.0, D1/D5);
floor modulo uses Python's ``%`` (ints) and ``math.fmod`` plus the D7 fix-up (floats).
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
from upstream_programs import FLOOR_MOD_F, FLOOR_MOD_I32, GEMV_F32, GEMV_MATMUL, MX_GEMV

import interpreter.ssa.upstream.linalg as linalg_impl
from interpreter import RunError, run
from interpreter.ssa.runner import load_module
from tests.budget import examples


def f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


def seq_dot(a: list[float], cols: list[list[float]], init: float = 0.0) -> list[float]:
    """Sequential f32 accumulation, k increasing (exact products, one rounding per add)."""
    out = []
    for col in cols:
        acc = init
        for x, y in zip(a, col):
            acc = f32(acc + f32(x * y))
        out.append(acc)
    return out


K, N = 96, 12
TYPES = {"bf16": ml_dtypes.bfloat16, "f16": np.float16}
GEMV_MODULES = {t: load_module(GEMV_F32.format(K=K, N=N, T=t)) for t in TYPES}


@pytest.mark.parametrize("ty", sorted(TYPES))
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_gemv_matmul_vecmat_matvec_generic_agree_with_sequential_f32(ty, seed):
    rng = np.random.default_rng(seed)
    dt = TYPES[ty]
    a = (rng.standard_normal(K) * 4).astype(dt)
    b = (rng.standard_normal((K, N)) * 4).astype(dt)
    module = GEMV_MODULES[ty]
    ref = seq_dot([float(x) for x in a], [[float(b[k, n]) for k in range(K)] for n in range(N)])
    (mm,) = run(module, "matmul", a.reshape(1, K), b)
    (vm,) = run(module, "vecmat", a, b)
    (mv,) = run(module, "matvec", np.ascontiguousarray(b.T), a)
    (gen,) = run(module, "generic", a, b)
    for got in (mm.reshape(N), vm, mv, gen):
        assert got.dtype == np.float32
        assert got.tolist() == ref


def test_gemv_truncf_epilogue_bf16():
    module = load_module(GEMV_MATMUL.format(K=64, N=8, T="bf16"))
    rng = np.random.default_rng(7)
    a = rng.standard_normal((1, 64)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((64, 8)).astype(ml_dtypes.bfloat16)
    (r,) = run(module, "main", a, b)
    ref = seq_dot([float(x) for x in a[0]], [[float(b[k, n]) for k in range(64)] for n in range(8)])
    assert r.dtype == ml_dtypes.bfloat16
    assert r[0].tolist() == np.array(ref, np.float32).astype(ml_dtypes.bfloat16).tolist()


def decode_e4m3(code: int) -> float:
    sign = -1.0 if code & 0x80 else 1.0
    exp, man = (code >> 3) & 0xF, code & 7
    if exp == 0:
        return sign * man / 8 * 2.0**-6
    return sign * (1 + man / 8) * 2.0 ** (exp - 7)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.sampled_from([32, 64, 70]))
def test_mx_gemv_generic_with_floordiv_scale_maps(seed, k):
    """MX GEMV input form: E4M3 elements, E8M0 scales indexed (k floordiv 32) (D1)."""
    n, kb = 6, -(-k // 32)
    rng = np.random.default_rng(seed)
    a_codes = rng.integers(0, 256, k, dtype=np.uint8)
    b_codes = rng.integers(0, 256, (k, n), dtype=np.uint8)
    a_codes[(a_codes & 0x7F) == 0x7F] = 0x3A  # no NaN codes here
    b_codes[(b_codes & 0x7F) == 0x7F] = 0x41
    as_codes = rng.integers(120, 135, kb, dtype=np.uint8)
    bs_codes = rng.integers(120, 135, (kb, n), dtype=np.uint8)
    bias = rng.standard_normal(n).astype(np.float32)
    module = load_module(MX_GEMV.format(K=k, KB=kb, N=n))
    (r,) = run(module, "mx", a_codes, as_codes, b_codes, bs_codes, bias)
    ref = []
    for j in range(n):
        acc = float(bias[j])
        for i in range(k):
            xa = f32(decode_e4m3(int(a_codes[i])) * 2.0 ** (int(as_codes[i // 32]) - 127))
            yb = f32(decode_e4m3(int(b_codes[i, j])) * 2.0 ** (int(bs_codes[i // 32, j]) - 127))
            acc = f32(acc + f32(xa * yb))
        ref.append(acc)
    assert r.tolist() == ref


def test_mx_gemv_nan_scale_poisons_its_column():
    """E8M0 0xFF is NaN (D5): extf gives NaN and the column's sum is NaN."""
    module = load_module(MX_GEMV.format(K=32, KB=1, N=2))
    bs = np.array([[127, 0xFF]], np.uint8)
    (r,) = run(
        module,
        "mx",
        np.full(32, 0x38, np.uint8),
        np.array([127], np.uint8),
        np.full((32, 2), 0x38, np.uint8),
        bs,
        np.zeros(2, np.float32),
    )
    assert r[0] == 32.0 and math.isnan(r[1])


I32 = st.integers(-(2**31), 2**31 - 1)
R, C = 4, 8
MOD_I32 = load_module(FLOOR_MOD_I32.format(R=R, C=C))


@settings(max_examples=60, deadline=None)
@given(
    a=hnp.arrays(np.int32, (R, C), elements=st.sampled_from([-(2**31), 2**31 - 1, 0, 7, -7]) | I32),
    b=hnp.arrays(np.int32, (R, C), elements=st.sampled_from([-1, 1, 3, -3]) | I32.filter(bool)),
)
def test_torch_mlir_signed_floor_mod_idiom_is_python_mod(a, b):
    (r,) = run(MOD_I32, "floor_mod", a, b)
    assert r.tolist() == [[int(x) % int(y) for x, y in zip(ra, rb)] for ra, rb in zip(a, b)]


@settings(max_examples=40, deadline=None)
@given(
    a=hnp.arrays(np.int32, (R, C), elements=I32),
    b=hnp.arrays(np.int32, (R, C), elements=I32.filter(bool)),
)
def test_remui_is_unsigned_remainder(a, b):
    (r,) = run(MOD_I32, "rem_u", a, b)
    ref = [
        [((int(x) % 2**32) % (int(y) % 2**32) + 2**31) % 2**32 - 2**31 for x, y in zip(ra, rb)]
        for ra, rb in zip(a, b)
    ]
    assert r.tolist() == ref


def floor_mod_d7(x: float, y: float, rnd) -> float:
    """D7: fmod, then + divisor only when the remainder is nonzero with the other sign."""
    r = math.fmod(x, y)
    if r != 0 and (r < 0) != (y < 0):
        r = rnd(r + y)
    return r


FLOAT_T = {"f32": (np.float32, f32, 32), "f16": (np.float16, lambda v: float(np.float16(v)), 16)}


@pytest.mark.parametrize("ty", sorted(FLOAT_T))
@settings(max_examples=examples(30), deadline=None)
@given(data=st.data())
def test_float_floor_mod_idiom_matches_d7(ty, data):
    dt, rnd, width = FLOAT_T[ty]
    special = {
        16: [0x0000, 0x8000, 0x4400, 0xC400, 0x4000, 0xC000],
        32: [0x0, 0x80000000, 0x40800000, 0xC0800000, 0x40000000, 0xC0000000],
    }[width]
    bits = st.integers(0, 2**width - 1) | st.sampled_from(special)  # +-0, +-4, +-2

    def draw(nonzero: bool) -> np.ndarray:
        raw = data.draw(st.lists(bits, min_size=R * C, max_size=R * C))
        v = np.array(raw, f"u{width // 8}").view(dt).reshape(R, C).copy()
        v[~np.isfinite(v)] = 3.0
        if nonzero:
            v[v == 0] = -1.5
        return v

    a, b = draw(False), draw(True)
    module = load_module(FLOOR_MOD_F.format(R=R, C=C, T=ty))
    (r,) = run(module, "floor_mod_f", a, b)
    ref = np.array(
        [[floor_mod_d7(float(x), float(y), rnd) for x, y in zip(ra, rb)] for ra, rb in zip(a, b)],
        dtype=dt,
    )
    assert r.view(f"u{r.itemsize}").tolist() == ref.view(f"u{ref.itemsize}").tolist()


def test_float_floor_mod_signed_zeros_d7():
    module = load_module(FLOOR_MOD_F.format(R=1, C=4, T="f32"))
    a = np.array([[-4.0, 4.0, 5.0, -5.0]], np.float32)
    b = np.array([[2.0, -2.0, -3.0, 3.0]], np.float32)
    (r,) = run(module, "floor_mod_f", a, b)
    assert [math.copysign(1, v) for v in r[0, :2]] == [-1, 1]  # zeros keep the dividend's sign
    assert r[0, 2:].tolist() == [-1.0, 1.0]


GENERAL = load_module("""
#red = affine_map<(i, k) -> (i, k)>
#out = affine_map<(i, k) -> (i)>
func.func @rowmax(%x: tensor<5x7xf32>, %init: tensor<5xf32>) -> tensor<5xf32> {
  %r = linalg.generic {indexing_maps = [#red, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x7xf32>) outs(%init : tensor<5xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %acc, %v : f32
    linalg.yield %m : f32
  } -> tensor<5xf32>
  func.return %r : tensor<5xf32>
}
func.func @iota(%init: tensor<3x4xi64>) -> tensor<3x4xi64> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<3x4xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %t = arith.muli %i, %c10 : index
    %s = arith.addi %t, %j : index
    %v = arith.index_cast %s : index to i64
    linalg.yield %v : i64
  } -> tensor<3x4xi64>
  func.return %r : tensor<3x4xi64>
}
func.func @gather(%x: tensor<8xf32>, %init: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> ((i * 2 + j + 3) mod 8)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8xf32>) outs(%init : tensor<4x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<4x2xf32>
  func.return %r : tensor<4x2xf32>
}
func.func @slices(%x: tensor<4x6xf32>) -> (tensor<6xf32>, tensor<4x6xf32>) {
  %s = tensor.extract_slice %x[1, 0] [1, 6] [1, 1] : tensor<4x6xf32> to tensor<6xf32>
  %t = tensor.extract_slice %x[0, 1] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  %u = tensor.insert_slice %t into %x[2, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
  func.return %s, %u : tensor<6xf32>, tensor<4x6xf32>
}
""")


def test_non_idiomatic_reduction_runs_per_reduction_point():
    x = np.arange(35, dtype=np.float32).reshape(5, 7)[:, ::-1].copy()
    x[2, 3] = np.nan
    init = np.full(5, -np.inf, np.float32)
    (r,) = run(GENERAL, "rowmax", x, init)
    assert r[[0, 1, 3, 4]].tolist() == [6.0, 13.0, 27.0, 34.0] and math.isnan(r[2])


def test_linalg_index_and_modular_gather():
    (r,) = run(GENERAL, "iota", np.zeros((3, 4), np.int64))
    assert r.tolist() == [[10 * i + j for j in range(4)] for i in range(3)]
    x = np.arange(8, dtype=np.float32)
    (g,) = run(GENERAL, "gather", x, np.zeros((4, 2), np.float32))
    assert g.tolist() == [[float((i * 2 + j + 3) % 8) for j in range(2)] for i in range(4)]


def test_extract_and_insert_slice():
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    s, u = run(GENERAL, "slices", x)
    assert s.tolist() == x[1].tolist()
    ref = x.copy()
    ref[2:4, 0:3] = x[0:4:2, 1:7:2]
    assert u.tolist() == ref.tolist()
    assert x.tolist() == np.arange(24, dtype=np.float32).reshape(4, 6).tolist()  # inputs intact


def test_chunked_reduction_gives_the_same_bits(monkeypatch):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(K).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((K, N)).astype(ml_dtypes.bfloat16)
    (whole,) = run(GEMV_MODULES["bf16"], "generic", a, b)
    monkeypatch.setattr(linalg_impl, "CHUNK_ELEMENTS", 5)
    (chunked,) = run(GEMV_MODULES["bf16"], "generic", a, b)
    assert whole.tobytes() == chunked.tobytes()


def test_bad_shapes_are_reported():
    with pytest.raises(RunError, match="argument 1"):
        run(
            GEMV_MODULES["f16"], "vecmat", np.zeros(K, np.float16), np.zeros((K, N + 1), np.float16)
        )
