"""The compiled (numba) CUBE kernels against the numpy reference: identical bits (issue 26).

Every case runs ``cube_matrix`` with ``PTO_KERNELS=numpy`` and ``PTO_KERNELS=compiled`` and
requires the same result bits (and the same NaN positions): non-MX float input pairs from raw
codes (inf / NaN / subnormal codes included), MX pairs with ordinary and extreme E8M0 scales
(the float64 round-to-odd path), packed X2 B, C and Bias, GEMV and matmul shapes around the
kernels' tile sizes. Rounding ties are checked against hand-derived bits, with a
double-rounding step shown to get them wrong. Shapes stay small: the cost of this file is
numba's first compilation (about 5 CPU-s; later runs load the on-disk cache).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_kernel_tgemv import MX_TYPES, raw

from interpreter.kernels import cube_matrix, jit
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples

pytest.importorskip("numba")

F32 = np.float32
DENSE = [T.FP32, T.TF32, T.HF32, T.FP16, T.BF16, T.HIF8, T.E4M3, T.E5M2, T.E3M2, T.E2M3,
         T.E2M1X2, T.E1M2X2]
SPECIAL32 = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1.1754942e-38,
                      3.4028235e38, -3.4028235e38, 1.0, -1.0, 2.0**-24, 0.5], F32)


kernels = jit.selected
"""Run the body on one kernel engine (``numpy`` or ``compiled``)."""


def same(*args, **kw):
    with kernels("numpy"):
        want = cube_matrix(*args, **kw)
    with kernels("compiled"):
        got = cube_matrix(*args, **kw)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), (got, want)
    return got


def _fp32_codes(t, rng, shape, specials):
    x = (rng.standard_normal(shape) * 2.0 ** rng.integers(-30, 30, shape)).astype(F32)
    if specials:
        pick = rng.random(shape) < 0.2
        x[pick] = rng.choice(SPECIAL32, shape)[pick]
    low = {T.FP32: 0, T.TF32: 0x1FFF, T.HF32: 0x0FFF}[t]
    return (x.view(np.uint32) & ~np.uint32(low)).view(F32) if t is T.FP32 else \
        x.view(np.uint32) & ~np.uint32(low)


def _dense_codes(t, rng, shape, specials):
    if t in (T.FP32, T.TF32, T.HF32):
        return _fp32_codes(t, rng, shape, specials)
    if t in (T.FP16, T.BF16):
        c = rng.integers(0, 1 << 16, shape).astype(np.uint16)
        if not specials:
            c &= 0xBBFF  # exponents below the all-ones one
        return c
    c = rng.integers(0, 256, shape).astype(np.uint8)
    if t in (T.E3M2, T.E2M3):
        c &= 0x3F
    if t.packed_x2:
        c &= 0x0F
    return c


def _acc_values(rng, shape, specials):
    x = (rng.standard_normal(shape) * 4).astype(F32)
    if specials:
        pick = rng.random(shape) < 0.2
        x[pick] = rng.choice(SPECIAL32, shape)[pick]
    return x


@settings(max_examples=examples(40), deadline=None)
@given(
    t=st.sampled_from(DENSE),
    form=st.sampled_from(["TMATMUL", "TMATMUL_BIAS", "TMATMUL_ACC", "TGEMV", "TGEMV_BIAS",
                          "TGEMV_ACC"]),
    m=st.integers(1, 9),
    k=st.integers(1, 70),
    n=st.integers(1, 40),
    specials=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_dense_compiled_equals_numpy(t, form, m, k, n, specials, seed):
    rng = np.random.default_rng(seed)
    m = 1 if form.startswith("TGEMV") else m
    a, b = _dense_codes(t, rng, (m, k), specials), _dense_codes(t, rng, (k, n), specials)
    kw = {"a_type": t, "b_type": t}
    if form.endswith("_ACC"):
        kw["c"] = _acc_values(rng, (m, n), specials)
    if form.endswith("_BIAS"):
        kw["bias"] = _acc_values(rng, (1, n), specials)
    same(form, a, b, **kw)


def _mx_scales(rng, shape, extreme):
    if extreme:  # scaled elements leave FP32's range: the float64 round-to-odd path
        return rng.choice(np.array([0, 1, 2, 20, 127, 200, 253, 254, 255], np.uint8), shape)
    return rng.integers(112, 142, shape).astype(np.uint8)


def _pack(codes):
    if codes.shape[-1] % 2:
        codes = np.concatenate([codes, np.zeros_like(codes[..., :1])], axis=-1)
    return (codes[..., 0::2] | (codes[..., 1::2] << 4)).astype(np.uint8)


@settings(max_examples=examples(40), deadline=None)
@given(
    at=st.sampled_from(MX_TYPES),
    bt=st.sampled_from(MX_TYPES),
    form=st.sampled_from(["TMATMUL_MX", "TMATMUL_MX_BIAS", "TMATMUL_MX_ACC", "TGEMV_MX",
                          "TGEMV_MX_BIAS", "TGEMV_MX_ACC"]),
    m=st.integers(1, 9),
    k=st.integers(1, 100),
    n=st.integers(1, 40).map(lambda x: 2 * x),
    extreme=st.booleans(),
    specials=st.booleans(),
    packed=st.booleans(),
    profile=st.sampled_from(["ordered", "exact"]),
    seed=st.integers(0, 2**32 - 1),
)
# A 16-bit B (FP16) in the exact profile: its 65,536-value table was once read as the
# FP16-route parameters of an 8-bit code, and the compiled exact GEMV returned wrong values.
@example(at=T.E2M1X2, bt=T.FP16, form="TMATMUL_MX", m=1, k=1, n=2, extreme=False,
         specials=False, packed=False, profile="exact", seed=0)
@example(at=T.E4M3, bt=T.BF16, form="TGEMV_MX", m=1, k=40, n=6, extreme=False,
         specials=False, packed=False, profile="exact", seed=1)
def test_mx_compiled_equals_numpy(at, bt, form, m, k, n, extreme, specials, packed, profile,
                                  seed):
    """MX pairs in the ordered profile (FMA or float64 path) and the exact one (compiled
    block sums for block-exact pairs)."""
    rng = np.random.default_rng(seed)
    m = 1 if form.startswith("TGEMV") else m
    ac, bc = raw(at, rng, (m, k), finite=not specials), raw(bt, rng, (k, n), finite=not specials)
    packed = packed and at.packed_x2 and bt.packed_x2 and k % 2 == 0
    if packed:
        ac, bc = _pack(ac & 0x0F), _pack(bc & 0x0F)
    nb = -(-k // 32)
    kw = {"a_type": at, "b_type": bt, "packed": packed, "profile": profile}
    if at not in (T.FP16, T.BF16):
        kw["a_scale"] = _mx_scales(rng, (m, nb), extreme)
    if bt not in (T.FP16, T.BF16):
        kw["b_scale"] = _mx_scales(rng, (nb, n), extreme)
    if form.endswith("_ACC"):
        kw["c"] = _acc_values(rng, (m, n), specials)
    if form.endswith("_BIAS"):
        kw["bias"] = _acc_values(rng, (1, n), specials)
    same(form, ac, bc, **kw)


@pytest.mark.parametrize(("m", "k", "n"), [(1, 7, 600), (1, 33, 1), (6, 5, 97), (13, 40, 64)])
def test_tile_edges(m, k, n):
    """Shapes across the kernels' tiles: GEMV column chunks (512) and row groups (4), matmul
    row tiles (4) and column panels (32) with tails."""
    rng = np.random.default_rng(m * k * n)
    a = (rng.standard_normal((m, k)) * 3).astype(np.float16)
    b = (rng.standard_normal((k, n)) * 3).astype(np.float16)
    same("TMATMUL" if m > 1 else "TGEMV", a, b)
    e4 = raw(T.E4M3, rng, (k, n))
    sa = rng.integers(120, 135, (m, -(-k // 32))).astype(np.uint8)
    sb = rng.integers(120, 135, (-(-k // 32), n)).astype(np.uint8)
    same("TMATMUL_MX", raw(T.E4M3, rng, (m, k)), e4, a_type=T.E4M3, b_type=T.E4M3, a_scale=sa,
         b_scale=sb)


def test_rounding_tie_after_a_dropped_sticky_bit():
    """acc = 1 + 2^-23, then the exact term 2^-24 - 2^-64 (a product of two FP32 values): the
    exact sum lies just below the tie between 1 + 2^-23 and 1 + 2^-22, so RNE keeps
    1 + 2^-23. A float64 sum (which rounds to the tie) cast to FP32 gives 1 + 2^-22: a kernel
    that rounds twice fails this test."""
    a = np.array([[1 + 2.0**-23, 2.0**-24 * (1 + 2.0**-20)]], F32)
    b = np.array([[1.0], [1 - 2.0**-20]], F32)
    want = F32(1 + 2.0**-23)
    for form in ("TGEMV", "TMATMUL"):
        got = same(form, a, b)
        assert got[0, 0] == want
    twice = F32(np.float64(F32(1 + 2.0**-23)) + np.float64(a[0, 1]) * np.float64(b[1, 0]))
    assert twice == F32(1 + 2.0**-22) != want


def test_wide_path_rounding_tie():
    """The same tie through the float64 round-to-odd step (MX scales outside FP32's range on
    one side: A's scale 2^-127 on a block of FP16 elements is below FP32's subnormals)."""
    from interpreter.kernels import cube_jit

    acc = np.array([[1 + 2.0**-23]], F32)
    af64 = np.array([[2.0**-24 * (1 + 2.0**-20)]])
    dec = cube_jit.decoder(T.FP32, np.array([[1 - 2.0**-20]], F32).view(np.uint32))
    got = cube_jit.ordered_wide(af64, dec, None, acc)
    assert got[0, 0] == F32(1 + 2.0**-23)


def test_engine_selection(monkeypatch):
    monkeypatch.setenv(jit.ENV, "numpy")
    assert jit.engine() == "numpy" and not jit.compiled()
    monkeypatch.setenv(jit.ENV, "compiled")
    assert jit.compiled()
    monkeypatch.delenv(jit.ENV)
    assert jit.engine() == "compiled"  # numba is installed here
    monkeypatch.setenv(jit.ENV, "fast")
    with pytest.raises(ValueError, match="PTO_KERNELS='fast'"):
        jit.engine()


def test_startup_does_not_import_numba():
    code = ("import sys, interpreter, interpreter.kernels, pto_dialect.tools.pto_opt, "
            "interpreter.tools.pto_run; assert 'numba' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_two_thread_column_split(monkeypatch):
    """Large products split their columns across two threads; the split is at a panel
    boundary and changes no bit (forced here on small shapes)."""
    from interpreter.kernels import cube_jit

    monkeypatch.setattr(cube_jit, "_THREAD_MIN", 1)
    rng = np.random.default_rng(5)
    for m, n in ((1, 130), (5, 97)):
        a = _dense_codes(T.BF16, rng, (m, 9), True)
        b = _dense_codes(T.BF16, rng, (9, n), True)
        same("TMATMUL", a, b, a_type=T.BF16, b_type=T.BF16)


@pytest.mark.parametrize("t", [T.E4M3, T.E5M2, T.E3M2, T.E2M3, T.E2M1X2, T.E1M2X2])
def test_bit_decoder_matches_value_table(t):
    """The vector bit-field decoder (``MODE_BITS``) against the exact value table on every
    code of the format (inf / NaN / subnormal codes included), 16 lanes and the table tail."""
    from interpreter.kernels import cube_jit, mx

    width = {T.E3M2: 6, T.E2M3: 6}.get(t, 4 if t.packed_x2 else 8)
    codes = np.arange(1 << width, dtype=np.uint8)
    codes = np.concatenate([codes, codes[:5]]).reshape(1, -1)  # a tail beyond 16 lanes
    mode, codes8, lut = cube_jit.decoder(t, codes)
    assert mode == cube_jit.MODE_BITS
    out = np.empty(codes.shape[1], F32)
    cube_jit.decode_row(mode, codes8, 0, 0, lut, out)
    want = mx.value_lut(t)[codes[0]]
    assert np.array_equal(np.isnan(out), np.isnan(want))
    fin = ~np.isnan(want)
    assert np.array_equal(out[fin].view(np.uint32), want[fin].astype(F32).view(np.uint32))


def test_selected_sets_and_restores_the_engine(monkeypatch):
    """The two-engine tests compare something only if ``selected`` really switches."""
    monkeypatch.setenv(jit.ENV, "numpy")
    with jit.selected("compiled"):
        assert jit.engine() == "compiled"
    assert jit.engine() == "numpy"
    monkeypatch.delenv(jit.ENV)
    with jit.selected("numpy"):
        assert jit.engine() == "numpy"
    assert jit.ENV not in os.environ
    with pytest.raises(ValueError, match="expected one of"), jit.selected("fast"):
        pass


@pytest.mark.parametrize("t", [T.E4M3, T.E5M2, T.E3M2, T.E2M3, T.E2M1X2, T.E1M2X2])
def test_half_decoder_matches_value_table(t):
    """The FP16 route of the GEMV kernels (``half_params``): every code's FP16 pattern times
    2^gap is the code's exact value (subnormal codes on FP16 subnormals); E4M3's NaN code
    is the pattern the kernel replaces by a NaN, E5M2's inf / NaN codes are FP16's own."""
    from interpreter.kernels import cube_jit, mx

    sh, ash, mask, nanh, gap = cube_jit.half_params(t)
    width = {T.E3M2: 6, T.E2M3: 6}.get(t, 4 if t.packed_x2 else 8)
    codes = np.arange(1 << width)
    h = np.array([cube_jit.half_bits(int(c), sh, ash, mask) for c in codes], np.uint16)
    h = np.where((h & 0x7FFF) == nanh, np.uint16(0x7E00), h)
    with np.errstate(invalid="ignore"):
        got = h.view(np.float16).astype(np.float64) * 2.0**gap
    want = mx.value_lut(t)[codes]
    assert np.array_equal(np.isnan(got), np.isnan(want))
    fin = ~np.isnan(want)
    assert np.array_equal(got[fin], want[fin])
    assert np.array_equal(np.signbit(got[fin]), np.signbit(want[fin]))


@pytest.mark.parametrize(("k", "n"), [(75, 37), (40, 16), (9, 50)])
@pytest.mark.parametrize("t", [T.E4M3, T.E5M2, T.E2M1X2])
def test_gemv_specials_and_tails(t, k, n):
    """The FP16-route GEMV (ordered and exact) with inf / NaN codes, a NaN scale, rows past
    the last full pass of 8 and columns past the last 16: the reference's bits."""
    rng = np.random.default_rng(k * n)
    a, b = raw(t, rng, (1, k), finite=False), raw(t, rng, (k, n), finite=False)
    nb = -(-k // 32)
    sa = rng.integers(110, 140, (1, nb)).astype(np.uint8)
    sb = rng.integers(110, 140, (nb, n)).astype(np.uint8)
    kw = {"a_type": t, "b_type": t, "a_scale": sa, "b_scale": sb}
    for profile in ("ordered", "exact"):
        same("TGEMV_MX", a, b, profile=profile, **kw)
        fin_a, fin_b = raw(t, rng, (1, k)), raw(t, rng, (k, n))
        same("TGEMV_MX_BIAS", fin_a, fin_b, bias=_acc_values(rng, (1, n), True),
             profile=profile, **kw)
        sb2 = sb.copy()
        sb2[0, 1] = 255
        same("TGEMV_MX", fin_a, fin_b, profile=profile, **{**kw, "b_scale": sb2})


@pytest.mark.parametrize(("k", "n"), [(74, 38), (64, 48), (10, 18)])
@pytest.mark.parametrize("t", [T.E2M1X2, T.E1M2X2])
def test_packed_gemv_through_fp16(t, k, n):
    """Packed X2 B (two codes a byte, the low nibble first) through the FP16 route, ordered
    and exact: columns past the last 16, rows past the last pass of 8 and the last block."""
    rng = np.random.default_rng(k * n + 1)
    a = raw(t, rng, (1, k)) & 0x0F
    b = _pack(raw(t, rng, (k, n)) & 0x0F)
    nb = -(-k // 32)
    sa = rng.integers(110, 140, (1, nb)).astype(np.uint8)
    sb = rng.integers(110, 140, (nb, n)).astype(np.uint8)
    for form, kw in (("TGEMV_MX", {}), ("TGEMV_MX_ACC", {"c": _acc_values(rng, (1, n), True)})):
        for profile in ("ordered", "exact"):
            same(form, _pack(a), b, a_type=t, b_type=t, packed=True, a_scale=sa, b_scale=sb,
                 profile=profile, **kw)


def _tie_case(tail):
    """C = 1 plus the terms 2^-24 (block 0) and tail (block 1): A = B = 1 at k = 0 and
    k = 32, E4M3 codes, the scales giving the two products."""
    a = np.zeros((1, 64), np.uint8)
    b = np.zeros((64, 16), np.uint8)
    a[0, [0, 32]] = 0x38  # 1.0
    b[[0, 32], :] = 0x38
    sign, e = tail
    if sign < 0:
        b[32, :] = 0xB8
    sa = np.full((1, 2), 127, np.uint8)
    sb = np.array([[127 - 24] * 16, [127 + e] * 16], np.uint8)
    return a, b, sa, sb


@pytest.mark.parametrize(("tail", "want"), [((1, -60), 1 + 2.0**-23), ((-1, -60), 1.0),
                                            ((1, -80), 1 + 2.0**-23)])
def test_exact_gemv_rounding_ties(tail, want):
    """The exact GEMV path rounds C + 2^-24 + tail once: just above the tie between 1 and
    1 + 2^-23 rounds up, just below down. A float64 sum first (1 + 2^-24, the tail lost)
    then a cast to FP32 would give 1.0 in every case: a kernel rounding twice fails."""
    from interpreter.kernels import cube_jit, jit

    a, b, sa, sb = _tie_case(tail)
    c = np.ones((1, 16), F32)
    src = jit.MxCodes(a, T.E4M3, sa, b, T.E4M3, False, sb, 16)
    assert cube_jit.exact_gemv(src, c, None) is not None  # the compiled path applies
    got = same("TGEMV_MX_ACC", a, b, c=c, a_type=T.E4M3, b_type=T.E4M3, a_scale=sa,
               b_scale=sb, profile="exact")
    assert np.all(got == F32(want))


def test_exact_gemv_wide_exponent_window_falls_back():
    """Scales whose exponents span more than two exact running sums cover: the compiled
    exact GEMV declines (the reference runs), and the bits stay the reference's."""
    from interpreter.kernels import cube_jit, jit

    a, b, sa, sb = _tie_case((1, -127))
    sb[1] = 250
    src = jit.MxCodes(a, T.E4M3, sa, b, T.E4M3, False, sb, 16)
    assert cube_jit.exact_gemv(src, None, None) is None
    same("TGEMV_MX", a, b, a_type=T.E4M3, b_type=T.E4M3, a_scale=sa, b_scale=sb,
         profile="exact")


def _f32_of_fraction(fr):
    """RNE float32 of an exact rational (an independent reference: the nearer of the float32
    neighbours of its float64 approximation, ties to the even code; +0 for zero)."""
    from fractions import Fraction

    if fr == 0:
        return F32(0.0)
    c = F32(float(fr))
    cands = [c, np.nextafter(c, F32(np.inf)), np.nextafter(c, F32(-np.inf))]
    dist = [abs(Fraction(float(x)) - fr) for x in cands]
    best = min(dist)
    near = [x for x, d in zip(cands, dist, strict=True) if d == best]
    return min(near, key=lambda x: int(np.array(x).view(np.uint32)) & 1)


@settings(max_examples=examples(100), deadline=None)
@given(exps=st.lists(st.integers(-170, 100), min_size=1, max_size=5),
       mants=st.lists(st.integers(-(1 << 53) + 1, (1 << 53) - 1), min_size=5, max_size=5),
       tie=st.integers(0, 3), seed=st.integers(0, 2**32 - 1))
def test_round_exact_against_fractions(exps, mants, tie, seed):
    """The single rounding of the compiled exact GEMV (``_round_exact``: a sum of float64
    components to float32, RNE) against Fractions, on random components, exact float32
    ties, ties plus or minus a far smaller component, and cancelling pairs."""
    from fractions import Fraction

    from interpreter.kernels import cube_jit

    rng = np.random.default_rng(seed)
    parts = [float(np.ldexp(float(m), e - 52)) for m, e in zip(mants, exps, strict=False)]
    if tie:
        y = F32(np.ldexp(1.0 + rng.integers(0, 1 << 23) / 2.0**23, int(rng.integers(-140, 100))))
        mid = (float(y) + float(np.nextafter(y, F32(np.inf)))) / 2  # exact in float64
        parts = [mid, -parts[0] * 2.0**-80 if tie == 2 else 0.0, parts[0] * 2.0**-80 * (tie == 3)]
    if len(parts) > 2 and seed % 3 == 0:
        parts.append(-parts[0])  # cancellation
    arr = np.array(parts)
    got = F32(cube_jit._round_exact(arr, np.empty(arr.size + 1)))  # (numba boxes a float)
    want = _f32_of_fraction(sum((Fraction(p) for p in parts), Fraction(0)))
    assert np.array(got).view(np.uint32) == np.array(want).view(np.uint32), (parts, got, want)
