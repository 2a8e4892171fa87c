"""TREM kernel and padding (PTO-SPEC 2, 5; D6-D9, D12).

References: Python's % on ints (floor modulo), and for floats math.fmod on exact
rationals plus the D7 sign correction, rounded by numpy's correctly rounded cast of the
exact rational (via Fraction -> float for FP32/FP64).
"""

import math
import warnings
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import KERNELS, pad_tile, trem, trem_tile
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault

INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
DEFAULT_INTS = [np.int16, np.int32, np.uint16, np.uint32]


@pytest.mark.parametrize("dt", [np.int32, np.int64])
def test_signed_floor_examples(dt):
    """PTO-SPEC 5 / tile-exec-trem-divisor-sign-001: -7 rem 3 = 2, 7 rem -3 = -2 (D8)."""
    r = trem(np.array([[-7, 7]], dt), np.array([[3, -3]], dt), wide_types=True)
    assert r.tolist() == [[2, -2]] and r.dtype == dt


@pytest.mark.parametrize("dt", [np.int8, np.int16, np.int32, np.int64])
def test_int_min_rem_minus_one_is_zero(dt):
    lo = np.iinfo(dt).min
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = trem(np.array([lo, lo, 5], dt), np.array([-1, 1, -1], dt), wide_types=True)
    assert r.tolist() == [0, 0, 0]


@settings(max_examples=100, deadline=None)
@given(dt=st.sampled_from(INT_TYPES), data=st.data())
def test_integers_against_python_mod(dt, data):
    info = np.iinfo(dt)
    shape = data.draw(st.tuples(st.integers(1, 4), st.integers(1, 5)))
    vals = st.integers(int(info.min), int(info.max))
    a = np.array(data.draw(st.lists(vals, min_size=shape[0] * shape[1],
                                    max_size=shape[0] * shape[1])), dt).reshape(shape)
    b = np.array(data.draw(st.lists(vals.filter(bool), min_size=a.size, max_size=a.size)),
                 dt).reshape(shape)
    r = trem(a, b, wide_types=True)
    ref = [[int(x) % int(y) for x, y in zip(ra, rb)] for ra, rb in zip(a.tolist(), b.tolist())]
    assert r.dtype == dt and r.tolist() == ref


def test_integer_zero_divisor_faults_before_anything_d8():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.array([[1, 2, 0], [2, 3, 0]], np.int32)
    a0, b0 = a.copy(), b.copy()
    with pytest.raises(PTOFault) as e:
        trem(a, b)
    assert e.value.kind == "TileLegality" and "(0, 2)" in str(e.value)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)
    # a zero outside the valid rectangle is padding: never read (D8)
    payload, defined = trem_tile(a, b, (2, 2), "zero")
    assert payload.tolist() == [[0, 1, 0], [1, 1, 0]] and defined.all()
    # a floating zero divisor is not a fault: NaN (D7), and no warning leaks
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = trem(np.array([1.0, 0.0], np.float32), np.array([0.0, -0.0], np.float32))
    assert np.isnan(r).all()


def test_float_hand_examples_d7():
    f = np.float32
    r = trem(np.array([-4.0, 4.0, 5.5, -5.5], f), np.array([2.0, -2.0, 2.0, 2.0], f))
    assert r.tolist() == [-0.0, 0.0, 1.5, 0.5]
    assert np.signbit(r[0]) and not np.signbit(r[1])
    # the result may round to the divisor itself
    assert trem(np.array([-1e-30], f), np.array([1.0], f)).tolist() == [1.0]
    inf = np.inf
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = trem(np.array([5.0, -5.0, 5.0, -5.0, inf, -inf, np.nan, 1.0], f),
                 np.array([inf, inf, -inf, -inf, 3.0, 3.0, 1.0, np.nan], f))
    assert r[:4].tolist() == [5.0, inf, -inf, -5.0]
    assert np.isnan(r[4:]).all()


def float_ref(x: float, y: float) -> Fraction | float:
    """Exact D7 floor modulo of two finite floats (y != 0) as a Fraction."""
    fx, fy = Fraction(x), Fraction(y)
    r = Fraction(math.fmod(x, y))  # fmod is exact
    assert r == fx - fy * int(fx / fy)  # cross-check with truncating division
    if r != 0 and (r < 0) != (fy < 0):
        r += fy
    return r


def nearest_even(x: Fraction, dt):
    """Fraction -> nearest value of float dtype ``dt``, ties to an even code: a first guess
    from float(x) (correctly rounded to float64, then cast), then its code neighbours are
    compared by exact distance."""
    u = f"u{np.dtype(dt).itemsize}"
    with np.errstate(all="ignore"):
        guess = int(np.array(float(x)).astype(dt).view(u))
    best = None
    for code in (guess - 1, guess, guess + 1):
        if not 0 <= code < 1 << (8 * np.dtype(dt).itemsize):
            continue
        cand = np.array(code, u).view(dt)
        with np.errstate(all="ignore"):
            v = float(cand.astype(np.float64))
        if not math.isfinite(v):
            continue
        key = (abs(Fraction(v) - x), code & 1)
        if best is None or key < best[0]:
            best = (key, cand)
    return best[1]


FLOATS = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64,
          ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]


@settings(max_examples=80, deadline=None)
@given(dt=st.sampled_from(FLOATS), seed=st.integers(0, 2**32 - 1))
def test_floats_correctly_rounded_against_exact_rationals(dt, seed):
    """D7: the correctly rounded floor modulo of the exact inputs (FP16/BF16/FP8 too)."""
    rng = np.random.default_rng(seed)
    bits = np.dtype(dt).itemsize * 8
    codes = rng.integers(0, 1 << bits, size=(2, 64), dtype=np.uint64).astype(f"u{bits // 8}")
    a, b = codes.view(dt)
    with np.errstate(invalid="ignore"):
        ok = np.isfinite(a.astype(np.float64)) & np.isfinite(b.astype(np.float64)) & (
            b.astype(np.float64) != 0)
    a, b = a[ok], b[ok]
    r = trem(a, b, wide_types=True)
    assert r.dtype == np.dtype(dt)
    for x, y, got in zip(a.astype(np.float64), b.astype(np.float64), r):
        exact = float_ref(float(x), float(y))
        want = nearest_even(exact, dt)
        if exact == 0:
            assert float(got) == 0 and np.signbit(got) == np.signbit(x)
        else:
            assert np.array(got).view(f"u{bits // 8}") == np.array(want).view(f"u{bits // 8}")


def test_fp16_quotients_up_to_2_40():
    """FP16 (and FP8) TREM runs on float64 floor quotients (``_blocked_floor_mod``): the
    largest dividends over every subnormal and the smallest normal divisors (quotients up
    to 2^40, where the float64 division is furthest from exact), and dividends one code
    around multiples of a divisor, give the correctly rounded floor modulo of the exact
    inputs, signed zeros included."""
    subnormal = np.arange(1, 0x400, dtype=np.uint16)
    divisors = np.concatenate([subnormal, subnormal | 0x8000, np.arange(0x400, 0x800, 7),
                               np.arange(0x3C00, 0x3C40)]).astype(np.uint16).view(np.float16)
    for dividend in (65504.0, -65504.0, 65472.0, 1000.5, -3.0):
        a = np.full(divisors.shape, dividend, np.float16)
        check_exact(a, divisors)
    b = np.array([3.0, -3.0, 0.1, 7.0e-5], np.float16)
    q = np.array([21845, -21845, 655040, 936], np.float64)
    near = (q * b.astype(np.float64)).astype(np.float16)
    codes = near.view(np.uint16)
    for step in (-1, 0, 1):
        a = (codes.astype(np.int32) + step).astype(np.uint16).view(np.float16)
        check_exact(a, b)


def test_fp32_quotients_at_the_window_edges():
    """FP32 quotients |a / b| in [2^-26, 2^28) run on float64 floor quotients, the others
    through np.mod: dividends around both edges of the window and around multiples of the
    divisor (quotients up to 2^28 +- 1), subnormals included, give the correctly rounded
    floor modulo of the exact inputs."""
    rng = np.random.default_rng(7)
    b = (rng.standard_normal(64) * 2.0 ** rng.integers(-140, 100, 64)).astype(np.float32)
    b = b[b != 0]
    rows = []
    for e in (-28, -27, -26, -25, 26, 27, 28, 29):
        m = rng.uniform(1, 2, b.shape) * rng.choice([-1.0, 1.0], b.shape)
        rows.append((b.astype(np.float64) * m * 2.0**e).astype(np.float32))
    q = rng.integers(-(2**28), 2**28, b.shape).astype(np.float64)
    near = (q * b.astype(np.float64)).astype(np.float32)
    rows += [near, np.nextafter(near, np.float32(np.inf)), np.nextafter(near, np.float32(-np.inf))]
    for a in rows:
        check_exact(a, b)


def check_exact(a: np.ndarray, b: np.ndarray) -> None:
    r = trem(a, b)
    u = f"u{a.dtype.itemsize}"
    for x, y, got in zip(a.astype(np.float64), b.astype(np.float64), r):
        if not (math.isfinite(x) and math.isfinite(y) and y != 0):
            continue
        exact = float_ref(float(x), float(y))
        if exact == 0:
            assert float(got) == 0 and np.signbit(got) == np.signbit(x), (x, y)
        else:
            assert (np.array(got).view(u)
                    == np.array(nearest_even(exact, a.dtype)).view(u)), (x, y)


def test_types_d6_revised():
    """D6 (revised): the ASL set by default (S64 and TF32 included); HiF8 is not in it."""
    assert trem(np.array([-7], np.int64), np.array([3], np.int64)).tolist() == [2]
    tf = np.array([-4.0, 4.0, 5.5], np.float32)  # TF32 TREM follows D7 (floor, signed zero)
    r = trem(tf, np.array([2.0, -2.0, 2.0], np.float32), dtype="TF32")
    assert r.view(np.uint32).tolist() == [0x80000000, 0, 0x3FC00000]
    with pytest.raises(PTOFault, match="HiF8"):
        trem(np.ones(2, np.uint8), np.ones(2, np.uint8), dtype="HIF8", wide_types=True)
    with pytest.raises(PTOFault, match="dtype"):
        trem(np.ones(2, np.int32), np.ones(2, np.int16))
    # uint16 raw carriers of BF16
    a = np.array([3.0, -3.0], ml_dtypes.bfloat16)
    b = np.array([2.0, 2.0], ml_dtypes.bfloat16)
    r = trem(a.view(np.uint16), b.view(np.uint16), dtype="BF16")
    assert r.astype(np.float32).tolist() == [1.0, 1.0]
    assert KERNELS["TREM"] is trem_tile


@pytest.mark.parametrize(
    "t, dt, mx_bits, mn_bits",
    [
        (T.FP32, np.float32, 0x7F7FFFFF, 0xFF7FFFFF),
        (T.FP16, np.float16, 0x7BFF, 0xFBFF),
        (T.BF16, ml_dtypes.bfloat16, 0x7F7F, 0xFF7F),
        (T.E4M3, ml_dtypes.float8_e4m3fn, 0x7E, 0xFE),
        (T.E5M2, ml_dtypes.float8_e5m2, 0x7B, 0xFB),
        (T.S32, np.int32, 0x7FFFFFFF, 0x80000000),
        (T.U16, np.uint16, 0xFFFF, 0),
        (T.FP64, np.float64, 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF),
    ],
)
def test_pad_values_d9(t, dt, mx_bits, mn_bits):
    phys = np.zeros((3, 4), dt)
    u = f"u{np.dtype(dt).itemsize}"
    for pad, bits in (("max", mx_bits), ("min", mn_bits), ("zero", 0)):
        p, d = pad_tile(phys, (2, 3), pad, t)
        assert d.all()
        assert int(p[2, 0].view(u)) == bits and int(p[0, 3].view(u)) == bits
        assert int(p[1, 2].view(u)) == 0
    p, d = pad_tile(phys, (2, 3), "null", t)
    assert d.sum() == 6 and d[:2, :3].all() and int(p.view(u).max()) == 0


@settings(max_examples=60, deadline=None)
@given(
    dt=st.sampled_from([np.int32, np.uint16, np.float32, np.float16]),
    rows=st.integers(1, 5), cols=st.integers(1, 6), data=st.data(),
    pad=st.sampled_from(["zero", "max", "min", "null", 0, 3]),
)
def test_tile_form_valid_rectangle_and_padding(dt, rows, cols, data, pad):
    """Only the valid rectangle is computed; the rest is PadValue (D9); inputs unchanged."""
    vr, vc = data.draw(st.integers(1, rows)), data.draw(st.integers(1, cols))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    a = rng.integers(-50, 50, size=(rows, cols)).astype(dt)
    b = rng.integers(-9, 10, size=(rows, cols)).astype(dt)
    b[b == 0] = 3
    if np.dtype(dt).kind == "u":
        a, b = a % 50, b % 9 + 1
    b[vr:, :] = 0  # zeros in the padding are never read
    b[:, vc:] = 0
    a0, b0 = a.copy(), b.copy()
    p, d = trem_tile(a, b, (vr, vc), pad)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)
    ref = [[int(x) % int(y) for x, y in zip(ra, rb)]
           for ra, rb in zip(a[:vr, :vc].tolist(), b[:vr, :vc].tolist())]
    assert p[:vr, :vc].astype(np.int64).tolist() == ref
    name = {0: "zero", 3: "null"}.get(pad, pad)
    assert d[:vr, :vc].all() and d.all() == (name != "null" or (vr, vc) == (rows, cols))
