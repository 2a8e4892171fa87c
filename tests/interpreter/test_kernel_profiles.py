"""The CUBE numeric profiles of D4 against independent Fraction references.

* ``ordered`` (default; pto-spec ADR-0047 "Operation-fixed domains", the ASL's
  ``TileProfileMatrixScaledAccumulate`` chain in ``asl/tile/model/execution/cube.asl`` with
  one RNE-rounded FP32 FMA per term in K order, then the bias with RNE): a Python loop over
  k on exact rationals, each step rounded to FP32 by choosing among float32 neighbours
  (``f32_nearest_even``).
* ``exact``: the rational sum of every exact term plus C and the bias, rounded once.
* ``fp32-sequential`` is an alias of ``ordered``.

Inputs cover every MX format pair, extreme E8M0 scales (the wide path of the kernel),
subnormal elements, NaN scales (0xFF), inf / NaN elements, C (ACC forms) and several rows.
Signed zeros: Fractions cannot hold -0, so the comparisons treat +0 and -0 as equal; the
zero signs are checked separately.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_kernel_mx import fraction_decode
from test_kernel_tgemv import MX_TYPES, f32_nearest_even, raw

from interpreter.kernels import cube_matrix
from pto_dialect.datatypes import TileDataType as T

F32 = np.float32

EXTREME = np.array([0, 1, 2, 10, 60, 100, 127, 150, 200, 240, 250, 253, 254], np.uint8)


def _scale_value(code):
    return None if code == 0xFF else Fraction(2) ** (int(code) - 127)


def terms(ac, at, bc, bt, sa, sb, m, j):
    """Exact terms of output (m, j): Fractions, or floats (inf / NaN) by IEEE rules."""
    out = []
    for i in range(ac.shape[1]):
        av, bv = fraction_decode(at, int(ac[m, i])), fraction_decode(bt, int(bc[i, j]))
        s = Fraction(1)
        for code in ([] if sa is None else [sa[m, i // 32]]) + (
                [] if sb is None else [sb[i // 32, j]]):
            v = _scale_value(code)
            s = None if v is None or s is None else s * v
        if s is None or av is None or bv is None:
            out.append(math.nan)
        elif isinstance(av, float) or isinstance(bv, float):
            out.append(float(av) * float(bv))
        else:
            out.append(av * bv * s)
    return out


def _add_rounded(acc, t):
    """One RNE-rounded FP32 addition of an exact term (ADR-0047 FMA)."""
    if isinstance(acc, float) or isinstance(t, float):
        return float(acc) + float(t)  # IEEE specials: inf + -inf = NaN
    r = f32_nearest_even(acc + t)
    return Fraction(float(r)) if np.isfinite(r) else float(r)


def ordered_reference(ts, c, bias):
    acc = Fraction(0) if c is None else c
    for t in ts:
        acc = _add_rounded(acc, t)
    if bias is not None:
        acc = _add_rounded(acc, bias)
    return np.float32(float(acc))


def exact_reference(ts, c, bias):
    parts = ts + [x for x in (c, bias) if x is not None]
    special = [p for p in parts if isinstance(p, float)]
    if special:
        return np.float32(sum(special))
    return f32_nearest_even(sum(parts, Fraction(0)))


def _value(x):
    x = float(x)
    return Fraction(x) if math.isfinite(x) else x


def _case(at, bt, m, k, n, seed, extreme, specials):
    rng = np.random.default_rng(seed)
    ac, bc = raw(at, rng, (m, k), finite=not specials), raw(bt, rng, (k, n), finite=not specials)
    nb = -(-k // 32)

    def scales(t, shape):
        if t in (T.FP16, T.BF16):
            return None
        if extreme:
            s = rng.choice(EXTREME, shape)
        else:
            s = rng.integers(115, 140, size=shape).astype(np.uint8)
        if specials:
            s[rng.random(shape) < 0.05] = 0xFF
        return s

    return ac, bc, scales(at, (m, nb)), scales(bt, (nb, n)), rng


def check(profile, at, bt, m, k, n, seed, extreme=False, specials=False, acc=False):
    ac, bc, sa, sb, rng = _case(at, bt, m, k, n, seed, extreme, specials)
    c = None
    if acc:
        c = (rng.standard_normal((m, n)) * 2.0 ** rng.integers(-60, 60, (m, n))).astype(np.float32)
        bias = None
        fn = 6  # TMATMUL_MX_ACC
    else:
        bias = (rng.standard_normal((1, n)) * 4).astype(np.float32)
        fn = 5 if m > 1 else 21  # TMATMUL_MX_BIAS / TGEMV_MX_BIAS
    got = cube_matrix(fn, ac, bc, c=c, bias=bias, a_scale=sa, b_scale=sb, a_type=at,
                      b_type=bt, profile=profile)
    ref_fn = exact_reference if profile == "exact" else ordered_reference
    want = np.array([[ref_fn(terms(ac, at, bc, bt, sa, sb, i, j),
                             None if c is None else _value(c[i, j]),
                             None if bias is None else _value(bias[0, j]))
                      for j in range(n)] for i in range(m)], np.float32)
    np.testing.assert_array_equal(got, want)


@settings(max_examples=40, deadline=None)
@given(
    at=st.sampled_from(MX_TYPES),
    bt=st.sampled_from(MX_TYPES),
    shape=st.sampled_from([(1, 1, 1), (1, 33, 3), (2, 40, 2), (1, 70, 9), (1, 130, 10)]),
    extreme=st.booleans(),
    specials=st.booleans(),
    acc=st.booleans(),
    profile=st.sampled_from(["ordered", "exact"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_profiles_bit_exact_against_fractions(at, bt, shape, extreme, specials, acc, profile,
                                              seed):
    """D4 / ADR-0047: both profiles equal their Fraction reference bit for bit (random and
    extreme scales, subnormals, NaN scales, inf/NaN elements, C, several rows)."""
    check(profile, at, bt, *shape, seed, extreme, specials, acc)


@pytest.mark.parametrize("profile", ["ordered", "exact"])
@pytest.mark.parametrize("pair", [(T.E4M3, T.E4M3), (T.E2M1X2, T.E2M1X2), (T.BF16, T.E5M2)])
def test_wide_columns_among_fast_ones(profile, pair):
    """A wide matrix (the reduce path needs >= 8 columns) whose scales put some blocks out
    of the FP32 range: those columns take the kernel's wide path, the others the fast one."""
    check(profile, *pair, 1, 96, 24, seed=5, extreme=True)


@pytest.mark.parametrize("profile", ["ordered", "exact"])
@pytest.mark.parametrize(("at", "bt"), [(T.BF16, T.E2M1X2), (T.E2M1X2, T.BF16)])
@pytest.mark.parametrize("m", [1, 2])
def test_huge_elements_scaled_down(profile, at, bt, m):
    """A BF16 element near 2^127 times an FP4 6.0 exceeds FP32, but with the FP4 side's
    scale 2^-15 the term is an FP32 value: the term is the exact product, so the result
    is finite (a kernel that multiplied the elements before the scale gave inf)."""
    rng = np.random.default_rng(m)
    k, n = 31, 3
    big = np.full((m, k) if at is T.BF16 else (k, n), 0x7F00, np.uint16)  # 2^127
    big[..., 1::2] = 0xFF00  # -2^127
    six = np.full((k, n) if at is T.BF16 else (m, k), 0x07, np.uint8)  # FP4 6.0
    ac, bc = (big, six) if at is T.BF16 else (six, big)
    scale = np.full((1, n) if at is T.BF16 else (m, 1), 127 - 15, np.uint8)
    sa, sb = (None, scale) if at is T.BF16 else (scale, None)
    bias = (rng.standard_normal((1, n)) * 4).astype(np.float32)
    got = cube_matrix(5 if m > 1 else 21, ac, bc, bias=bias, a_scale=sa, b_scale=sb,
                      a_type=at, b_type=bt, profile=profile)
    ref_fn = exact_reference if profile == "exact" else ordered_reference
    want = np.array([[ref_fn(terms(ac, at, bc, bt, sa, sb, i, j), None, _value(bias[0, j]))
                      for j in range(n)] for i in range(m)], np.float32)
    assert np.isfinite(want).all()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("profile", ["ordered", "exact"])
def test_ordinary_fp32_matmul(profile):
    """Non-MX TMATMUL_BIAS on FP32: 48-bit products are never FP32 values (wide path)."""
    rng = np.random.default_rng(2)
    m, k, n = 2, 37, 9
    a = (rng.standard_normal((m, k)) * 2.0 ** rng.integers(-30, 30, (m, k))).astype(np.float32)
    b = (rng.standard_normal((k, n)) * 2.0 ** rng.integers(-30, 30, (k, n))).astype(np.float32)
    bias = rng.standard_normal((1, n)).astype(np.float32)
    got = cube_matrix(1, a, b, bias=bias, profile=profile)
    ref_fn = exact_reference if profile == "exact" else ordered_reference
    want = [[ref_fn([Fraction(float(a[i, x])) * Fraction(float(b[x, j])) for x in range(k)],
                    None, Fraction(float(bias[0, j]))) for j in range(n)] for i in range(m)]
    np.testing.assert_array_equal(got, np.array(want, np.float32))


def test_exact_differs_from_ordered_and_is_correctly_rounded():
    """1 + 2^-24 + 2^-24: ordered rounds 1 + 2^-24 to 1 twice (ties to even) -> 1;
    exact rounds 1 + 2^-23 once -> 1 + 2^-23 (FP16 operands, no scales)."""
    a = np.array([[1.0, 2.0**-12, 2.0**-12]], np.float16)
    b = np.array([[1.0], [2.0**-12], [2.0**-12]], np.float16)
    assert cube_matrix(16, a, b)[0, 0] == 1.0  # TGEMV, default profile
    assert cube_matrix(16, a, b, profile="exact")[0, 0] == np.float32(1 + 2.0**-23)


def test_signed_zeros():
    """IEEE zero signs of the FMA chain: -0 C plus -0 products stays -0 (ordered); a tiny
    negative term rounds to -0; an exact zero sum is +0 in the exact profile."""
    a = np.array([[-0.0, 0.0]], np.float16)
    b = np.array([[1.0], [-1.0]], np.float16)
    c = np.array([[-0.0]], np.float32)
    assert np.signbit(cube_matrix(18, a, b, c=c)[0, 0])  # TGEMV_ACC: -0 + -0 + -0
    assert not np.signbit(cube_matrix(18, a, b, c=c, profile="exact")[0, 0])
    # the same on a wide row (the kernel's np.add.reduce path, which must start from -0)
    wide = cube_matrix(18, a, np.repeat(b, 16, axis=1), c=np.full((1, 16), -0.0, F32))
    assert np.signbit(wide).all()
    tiny = np.array([[0x01]], np.uint8)  # E4M3 2^-9, times scales 2^-127 each: 2^-263
    d = cube_matrix(20, tiny | 0x80, tiny, a_scale=np.array([[0]], np.uint8),
                    b_scale=np.array([[0]], np.uint8), a_type="E4M3", b_type="E4M3")
    assert d[0, 0] == 0 and np.signbit(d[0, 0])


def test_fp32_sequential_is_an_alias():
    ac, bc, sa, sb, _ = _case(T.E4M3, T.E5M2, 1, 100, 16, 3, True, True)
    kw = dict(a_scale=sa, b_scale=sb, a_type="E4M3", b_type="E5M2")
    np.testing.assert_array_equal(cube_matrix(20, ac, bc, **kw),
                                  cube_matrix(20, ac, bc, profile="fp32-sequential", **kw))


@pytest.mark.parametrize("pair", [(T.E4M3, T.E4M3), (T.E2M1X2, T.E2M1X2), (T.E5M2, T.E1M2X2)])
def test_tgemv_scales_at_the_fp32_range_edges(pair):
    """TGEMV (M=1): every block's combined scale the same, swept across the lowest and
    highest values for which all terms are FP32 values (products with subnormal factors
    a * 2^E, the kernel's all-safe fast path) and just beyond (its wide path)."""
    at, bt = pair
    rng = np.random.default_rng(11)
    k, n = 64, 12
    ac, bc = raw(at, rng, (1, k)), raw(bt, rng, (k, n))

    def pack(x):
        return ((x[:, 0::2] & 0x0F) | (x[:, 1::2] << 4)).astype(np.uint8)

    # the edges of these pairs: 2^-127 * 2^(sb-127) at sb = 107 / 123, 2^127 * 2^(sb-127)
    # at sb = 110 / 122
    for sa_code, sb_codes in ((0, (106, 107, 108, 122, 123, 124)),
                              (254, (109, 110, 111, 121, 122, 123))):
        for sb_code in sb_codes:
            sa = np.full((1, 2), sa_code, np.uint8)
            sb = np.full((2, n), sb_code, np.uint8)
            bias = (rng.standard_normal((1, n)) * 4).astype(np.float32)
            got = cube_matrix(21, ac, bc, bias=bias, a_scale=sa, b_scale=sb, a_type=at,
                              b_type=bt)
            want = [ordered_reference(terms(ac, at, bc, bt, sa, sb, 0, j), None,
                                      _value(bias[0, j])) for j in range(n)]
            np.testing.assert_array_equal(got, np.array([want], np.float32),
                                          err_msg=f"scales {sa_code}, {sb_code}")
            if at.packed_x2 and bt.packed_x2:  # X2 bytes: four elements per table lookup
                got = cube_matrix(21, pack(ac), pack(bc), bias=bias, a_scale=sa,
                                  b_scale=sb, a_type=at, b_type=bt, packed=True)
                np.testing.assert_array_equal(got, np.array([want], np.float32))


@pytest.mark.parametrize("profile", ["ordered", "exact"])
def test_two_threads_give_the_same_bits(monkeypatch, profile):
    """Large products split their columns over two threads when a core is free: the result
    is the same bit for bit either way (columns are independent chains)."""
    from interpreter.kernels import accumulate

    rng = np.random.default_rng(4)
    k, n = 1024, 2048  # M*K*N at the threading threshold
    ac, bc = (rng.integers(0, 256, shape).astype(np.uint8) for shape in ((1, k), (k, n)))
    sa = rng.integers(100, 160, (1, k // 32)).astype(np.uint8)
    sb = rng.integers(100, 160, (k // 32, n)).astype(np.uint8)
    sb[3, 5] = 0xFF  # a NaN scale: the per-element safety path
    kw = dict(bias=np.zeros((1, n), np.float32), a_scale=sa, b_scale=sb, a_type="E4M3",
              b_type="E4M3", profile=profile)
    got = {}
    for free in (False, True):
        monkeypatch.setattr(accumulate, "_cores_free", lambda free=free: free)
        got[free] = cube_matrix(21, ac, bc, **kw)
    np.testing.assert_array_equal(got[False].view(np.uint32), got[True].view(np.uint32))


@pytest.mark.parametrize("profile", ["ordered", "exact"])
@pytest.mark.parametrize("pair", [(T.E4M3, T.E5M2), (T.E2M1X2, T.E4M3)])
def test_scales_per_chunk_when_not_tabled(monkeypatch, profile, pair):
    """Products above ``_PRECOMPUTE_MAX`` blocks * M * N compute their scales and safety
    per chunk instead of by a per-block table: the same Fraction reference holds (extreme
    scales, NaN scales and inf / NaN elements), here with the table turned off."""
    from interpreter.kernels import accumulate

    monkeypatch.setattr(accumulate, "_PRECOMPUTE_MAX", -1)
    check(profile, *pair, 2, 70, 3, seed=7, extreme=True, specials=True)
    check(profile, *pair, 1, 40, 4, seed=8, extreme=True, acc=True)


@pytest.mark.parametrize("n", [2, 6, 10])
def test_packed_b_two_codes_per_lookup(n):
    """Packed X2 B with N not a multiple of 4 (no four-code lookup): one byte, two codes
    (low nibble first), per table lookup for the columns whose terms are FP32 values; column
    1's tiny scale makes its terms subnormal (the exact per-term path). Equal to the
    Fraction reference of the unpacked codes."""
    rng = np.random.default_rng(n)
    k = 40
    at, bt = T.E4M3, T.E2M1X2
    ac, bc = raw(at, rng, (1, k)), raw(bt, rng, (k, n)) & 0x0F
    sa = rng.integers(120, 134, (1, 2)).astype(np.uint8)
    sb = rng.integers(120, 134, (2, n)).astype(np.uint8)
    sb[:, 1] = 1
    bias = (rng.standard_normal((1, n)) * 4).astype(F32)
    packed = (bc[:, 0::2] | (bc[:, 1::2] << 4)).astype(np.uint8)
    got = cube_matrix(21, ac, packed, bias=bias, a_scale=sa, b_scale=sb, a_type=at, b_type=bt,
                      packed=True)
    want = [ordered_reference(terms(ac, at, bc, bt, sa, sb, 0, j), None, _value(bias[0, j]))
            for j in range(n)]
    np.testing.assert_array_equal(got, np.array([want], F32))
