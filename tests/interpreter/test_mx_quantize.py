"""MX quantization (OCP MX v1.0 section 6.3; D2; docs/quantization.md) bit for bit against an
independent per-element reference written here with Python scalars and Fractions.

The reference decodes every code of a type from its bit string, picks the nearest finite
value by exact Fraction distance (ties to the even code), and finds the shared exponent
by integer bit lengths; the implementation under test uses numpy frexp/rint/ldexp on whole
arrays. Hypothesis draws shapes, axes, block remainders, tie values and specials.
"""

import bisect
import functools
import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import decode
from interpreter.quantize import dequantize_mx, quantize_mx
from pto_dialect import mx_quant

# name: (width, exponent bits, bias, specials) -- OCP MX v1.0 / PTO-SPEC 1 element formats
LAYOUTS = {
    "E4M3": (8, 4, 7, "fn"),
    "E5M2": (8, 5, 15, "ieee"),
    "E3M2": (6, 3, 3, "none"),
    "E2M3": (6, 2, 1, "none"),
    "E2M1X2": (4, 2, 1, "none"),
    "E1M2X2": (4, 1, 1, "none"),
}


NAN_CODES = {"E4M3": 0x7F, "E5M2": 0x7E}
"""The element NaN a NaN-scaled block carries (the quiet NaN ml_dtypes writes)."""


def ref_decode(name, code):
    """Fraction value of a code from its bit string; 'nan' / 'inf' for specials."""
    width, e, bias, specials = LAYOUTS[name]
    bits = format(code, f"0{width}b")
    sign, ef, mf = bits[0], bits[1 : 1 + e], bits[1 + e :]
    if specials == "ieee" and set(ef) == {"1"}:
        return "nan" if "1" in mf else "inf"
    if specials == "fn" and set(ef + mf) == {"1"}:
        return "nan"
    scale = Fraction(2) ** ((int(ef, 2) or 1) - bias)
    frac = Fraction(int(mf, 2), 2 ** len(mf)) + (1 if int(ef, 2) else 0)
    return -(scale * frac) if sign == "1" else scale * frac


@functools.cache
def ref_positive_table(name):
    """[(value, code)] of the non-negative finite codes, ascending."""
    width = LAYOUTS[name][0]
    half = 1 << (width - 1)
    rows = [(ref_decode(name, c), c) for c in range(half)]
    return sorted((v, c) for v, c in rows if isinstance(v, Fraction))


def test_reference_tables_match_the_standard():
    assert [float(v) for v, _ in ref_positive_table("E2M1X2")] == [0, .5, 1, 1.5, 2, 3, 4, 6]
    assert [float(v) for v, _ in ref_positive_table("E1M2X2")] == [
        0, .25, .5, .75, 1, 1.25, 1.5, 1.75]
    assert max(ref_positive_table("E4M3"))[0] == 448
    assert max(ref_positive_table("E5M2"))[0] == 57344
    assert max(ref_positive_table("E3M2"))[0] == 28
    assert max(ref_positive_table("E2M3"))[0] == Fraction(15, 2)
    for name, dt in (("E4M3", ml_dtypes.float8_e4m3fn), ("E5M2", ml_dtypes.float8_e5m2)):
        assert np.array([np.nan]).astype(dt).view(np.uint8)[0] == NAN_CODES[name]
        assert ref_decode(name, NAN_CODES[name]) == "nan"


def floor_log2(q: Fraction) -> int:
    e = q.numerator.bit_length() - q.denominator.bit_length()
    return e if Fraction(2) ** e <= q else e - 1


def ref_round(name, table, y: Fraction, negative: bool) -> int:
    """Nearest finite code to y (ties to the even code), then the sign bit."""
    mag = abs(y)
    i = bisect.bisect_left(table, (mag, -1))  # the two neighbours of mag in the table
    near = table[max(i - 1, 0) : i + 1]
    best = min(near, key=lambda vc: (abs(vc[0] - mag), vc[1] & 1))
    sign_bit = 1 << (LAYOUTS[name][0] - 1)
    return best[1] | (sign_bit if negative else 0)


def ref_quantize_block(name, values):
    """(scale code, [element codes]) of one block of Python floats."""
    table = ref_positive_table(name)
    if any(math.isnan(v) or math.isinf(v) for v in values):
        return 0xFF, [NAN_CODES.get(name, 0) for _ in values]
    amax = max(abs(Fraction(v)) for v in values)
    emax_elem = floor_log2(table[-1][0])
    e = -127 if amax == 0 else max(floor_log2(amax) - emax_elem, -127)
    if e > 127:
        return 0xFF, [0 for _ in values]
    x = Fraction(2) ** e
    return e + 127, [ref_round(name, table, Fraction(v) / x, math.copysign(1, v) < 0)
                     for v in values]


def ref_quantize(name, arr: np.ndarray, axis: int):
    a = np.moveaxis(arr.astype(np.float64), axis, -1)
    n = a.shape[-1]
    nb = -(-n // 32)
    codes = np.zeros(a.shape, np.uint8)
    scales = np.zeros(a.shape[:-1] + (nb,), np.uint8)
    for idx in np.ndindex(a.shape[:-1]):
        row = [float(v) for v in a[idx]]
        for b in range(nb):
            s, cs = ref_quantize_block(name, row[32 * b : 32 * b + 32])
            scales[idx + (b,)] = s
            codes[idx][32 * b : 32 * b + len(cs)] = cs
    return np.moveaxis(codes, -1, axis), np.moveaxis(scales, -1, axis)


# ---------------------------------------------------------------------------- strategies

def tie_values():
    """Values on and between element grid points at random scales (exact ties)."""
    return st.builds(
        lambda k, m, e, s: s * math.ldexp(k, e - m),
        st.integers(0, 64), st.integers(0, 4), st.integers(-20, 20), st.sampled_from([1, -1]),
    )


SPECIALS = st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0, 1e-45, 3.4e38])
VALUES = st.one_of(
    st.floats(width=32, allow_nan=False, allow_infinity=False), tie_values(), SPECIALS,
)


@st.composite
def arrays(draw, with_specials=True):
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 70 if i == 0 else 4)) for i in range(ndim))
    shape = shape[1:] + shape[:1] if draw(st.booleans()) else shape
    vals = VALUES if with_specials else st.one_of(
        st.floats(width=32, allow_nan=False, allow_infinity=False), tie_values())
    flat = draw(st.lists(vals, min_size=math.prod(shape), max_size=math.prod(shape)))
    arr = np.array(flat, np.float32).reshape(shape)
    axis = draw(st.integers(-ndim, ndim - 1))
    return arr, axis


@pytest.mark.parametrize("name", list(LAYOUTS))
@settings(max_examples=20, deadline=None)
@given(data=arrays())
def test_quantize_matches_reference(name, data):
    arr, axis = data
    codes, scales = mx_quant.quantize(arr, name, axis=axis)
    ref_codes, ref_scales = ref_quantize(name, arr, axis)
    np.testing.assert_array_equal(scales, ref_scales)
    np.testing.assert_array_equal(codes, ref_codes)


@pytest.mark.parametrize("name", list(LAYOUTS))
@settings(max_examples=10, deadline=None)
@given(data=arrays(with_specials=False))
def test_dequantize_matches_reference(name, data):
    arr, axis = data
    codes, scales = mx_quant.quantize(arr, name, axis=axis)
    got = mx_quant.dequantize(codes, scales, name, axis=axis)
    c = np.moveaxis(codes, axis, -1)
    s = np.moveaxis(scales, axis, -1)
    g = np.moveaxis(got, axis, -1)
    for idx in np.ndindex(c.shape):
        scale = s[idx[:-1] + (idx[-1] // 32,)]
        p = ref_decode(name, int(c[idx]))
        assert scale != 0xFF and isinstance(p, Fraction)
        assert Fraction(float(g[idx])) == p * Fraction(2) ** (int(scale) - 127)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float64])
def test_other_input_types(dtype):
    arr = (np.arange(-40, 40) / 7).astype(dtype).reshape(2, 40)
    codes, scales = mx_quant.quantize(arr, "E4M3", axis=1)
    ref_codes, ref_scales = ref_quantize("E4M3", arr.astype(np.float64), 1)
    np.testing.assert_array_equal(codes, ref_codes)
    np.testing.assert_array_equal(scales, ref_scales)


def test_hand_derived_block():
    # amax 3.0 -> floor(log2 3) = 1; E2M1 emax 2 -> X = 2^-1 (code 126); 3.0/X = 6 (max);
    # 0.3/X = 0.6 -> 0.5; 0.75/X = 1.5; -2.4/X = -4.8 -> -4 (nearer than -6).
    codes, scales = mx_quant.quantize(np.array([3.0, 0.3, 0.75, -2.4]), "mxfp4")
    assert scales.tolist() == [126]
    assert codes.tolist() == [0b0111, 0b0001, 0b0011, 0b1110]
    # E4M3: amax 500 -> floor(log2) 8, emax 8 -> X = 1; 500 saturates to 448, 464 ties
    # to 448 (even mantissa), float64 huge -> scale NaN; all zero -> 2^-127.
    codes, scales = mx_quant.quantize(np.array([500.0, 464.0, 1.0]), "E4M3")
    assert scales.tolist() == [127] and codes.tolist() == [0x7E, 0x7E, 0x38]
    _, s = mx_quant.quantize(np.array([1e300]), "E4M3")
    assert s.tolist() == [0xFF]
    _, s = mx_quant.quantize(np.zeros(3), "E5M2")
    assert s.tolist() == [0]


def test_nan_block_is_nan_after_dequantize():
    x = np.ones(40, np.float32)
    x[3] = np.nan
    for name in LAYOUTS:
        codes, scales = mx_quant.quantize(x, name)
        assert scales.tolist() == [0xFF, 127 - mx_quant.ELEMENT_FORMATS[
            mx_quant.element_type(name)].emax]
        back = mx_quant.dequantize(codes, scales, name)
        assert np.isnan(back[:32]).all() and (back[32:] == 1).all()


@pytest.mark.parametrize("name", ["E2M1X2", "E1M2X2"])
def test_packed_round_trip_and_kernel_decode(name):
    x = np.random.default_rng(3).standard_normal((5, 67))
    codes, scales = mx_quant.quantize(x, name)
    packed, _ = mx_quant.quantize(x, name, packed=True)
    assert packed.shape == (5, 34)
    np.testing.assert_array_equal(mx_quant.unpack_x2(packed, 67), codes)
    np.testing.assert_array_equal(
        mx_quant.dequantize(packed, scales, name, packed=True, n=67),
        mx_quant.dequantize(codes, scales, name))
    # the kernels' decoder reads the same codes
    np.testing.assert_array_equal(decode(packed, name, packed=True)[:, :67],
                                  mx_quant.element_values(name)[codes])


def test_interpreter_api_ml_dtypes():
    x = np.random.default_rng(4).standard_normal((64, 3)).astype(np.float32)
    codes, scales = quantize_mx(x, "mxfp8", axis=0)
    assert codes.dtype == ml_dtypes.float8_e4m3fn and scales.dtype == ml_dtypes.float8_e8m0fnu
    assert scales.shape == (2, 3)
    back = dequantize_mx(codes, scales, axis=0)
    ref = codes.astype(np.float64) * np.repeat(scales.astype(np.float64), 32, axis=0)
    np.testing.assert_array_equal(back, ref)
    assert np.abs(back - x).max() <= np.abs(x).max() / 8


@pytest.mark.parametrize("bad, msg", [
    (dict(x=np.ones(4), fmt="FP16"), "not an MX element format"),
    (dict(x=np.ones(4, np.int32), fmt="E4M3"), "floating-point"),
    (dict(x=np.ones(4), fmt="E4M3", axis=1), "out of range"),
    (dict(x=np.float32(1), fmt="E4M3"), "at least one axis"),
])
def test_errors(bad, msg):
    with pytest.raises(ValueError, match=msg):
        mx_quant.quantize(bad.pop("x"), bad.pop("fmt"), **bad)
