"""Compiled (numba) elementwise numeric kernels whose numpy form is far from a plain cast
(issue 26): TCVT's rounding of float values to a float format or an integer under every
RMode, TQUANT, and TSQRT's canonical NaNs. Bits identical to the numpy reference
(:mod:`.convert`, :mod:`.unary`), which stays and which ``tests/interpreter/
test_numeric_jit.py`` compares them with; selected by :mod:`.jit` and imported (with numba)
on the first compiled call only.

Each kernel is one pass over the elements computing the reference's formula for one
element, so the numpy reference's temporaries (a dozen float64 arrays for a directed
rounding) are gone; every arithmetic step is exact or the reference's own rounding:

* :func:`round_float32` is :func:`.convert.round_float` (the value rounded once to a binary
  format under RMode, then the D20 range rules): the quantum ``q = 2^(max(e, emin) - mbits)``
  from the float64 exponent field (exact, a normal float64), ``v / q`` as a product by the
  power of two ``1 / q`` (exact), the integer rounding of :func:`.postprocess.round_to_integer`
  for the mode, times ``q`` (exact: the result is a value of the format).
* :func:`float_to_int` is :func:`.convert.float_to_int` for destinations of at most 32 bits:
  NaN -> 0, +-inf -> the bounds, the rounded value clamped (Sat) or taken modulo 2^64 and
  then to the destination's low bits (``fmod`` by 2^64 is exact).
* :func:`quantize` is :func:`.convert._quantize_exact` (``x * multiplier`` exact in float64,
  the floor and the fraction rounded separately).
* :func:`sqrt_canonical` is IEEE ``sqrt`` in the format itself (correctly rounded; numba
  compiles it to the machine's square root) with every NaN result the canonical one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_OPTS = dict(cache=True, nogil=True, boundscheck=False)
RNE, RTZ, RTM, RTP, RNA, RTO, RHB = 1, 2, 3, 4, 5, 6, 7  # B.DATR codes (convert.py)


@njit(inline="always")
def _round_int(y, mode):  # pragma: no cover - compiled
    """:func:`.postprocess.round_to_integer` of one float64 value."""
    if mode == RNE:
        return np.rint(y)
    if mode == RTZ:
        return np.trunc(y)
    if mode == RTM:
        return np.floor(y)
    if mode == RTP:
        return np.ceil(y)
    if mode == RNA:
        a = abs(y)
        m = np.floor(a)
        m = m + (1.0 if a - m >= 0.5 else 0.0)
        return np.copysign(m, y)
    f = np.floor(y)
    frac = y - f
    if mode == RTO:
        return f + 1.0 if frac != 0.0 and np.fmod(f, 2.0) == 0.0 else f
    return f + (1.0 if frac >= 0.5 else 0.0)  # RHB


@njit(**_OPTS)
def round_float32(x, out, mbits, emin, fmax, has_inf, has_nan, mode, sat):  # pragma: no cover
    """out (float32) = :func:`.convert.round_float` of the exact values x (float32 or float64;
    a destination of FP32's range or less, ``fmax`` its largest finite value): NaN is the
    canonical quiet NaN where the format has one, else +0. Returns whether a NaN was
    written."""
    wrote_nan = False
    nan_bits = np.uint32(0x7FC00000)
    for i in range(x.shape[0]):
        v = np.float64(x[i])
        if v != v:
            if has_nan:
                out[i] = nan_bits.view(np.float32)
                wrote_nan = True
            else:
                out[i] = np.float32(0.0)
            continue
        a = abs(v)
        inf = a == np.inf
        r = 0.0
        if not inf:
            e = np.int64((v.view(np.int64) >> 52) & 0x7FF) - 1023
            e = max(e, emin) - mbits
            q = np.int64(e + 1023 << 52).view(np.float64)
            iq = np.int64(1023 - e << 52).view(np.float64)
            r = _round_int(v * iq, mode) * q
            r = np.copysign(abs(r), v)
        if inf or abs(r) > fmax:
            neg = v < 0.0
            if sat or not has_inf and not has_nan:
                to_inf = False
            elif mode == RNE or mode == RNA or mode == RHB or mode == 0:
                to_inf = True
            elif mode == RTP:
                to_inf = not neg
            elif mode == RTM:
                to_inf = neg
            else:
                to_inf = False
            if not sat and (has_inf or has_nan):
                to_inf = to_inf or inf
            if to_inf and not has_inf:
                out[i] = nan_bits.view(np.float32)
                wrote_nan = True
                continue
            big = np.inf if to_inf else fmax
            r = -big if neg else big
        out[i] = np.float32(r)
    return wrote_nan


@njit(**_OPTS)
def float_to_int(x, out, lo, hi, mode, sat):  # pragma: no cover - compiled
    """out (the unsigned view of an integer carrier of at most 32 bits; the 4-bit types,
    ``hi - lo == 15``, one code per byte) = :func:`.convert.float_to_int` of the exact float
    values x: the destination's low bits of the int64 result."""
    nib = hi - lo == 15
    for i in range(x.shape[0]):
        v = np.float64(x[i])
        if v != v:
            q = np.int64(0)
        elif v == np.inf:
            q = np.int64(hi)
        elif v == -np.inf:
            q = np.int64(lo)
        else:
            r = _round_int(v, mode)
            if sat:
                q = np.int64(min(max(r, np.float64(lo)), np.float64(hi)))
            else:
                m = np.fmod(r, 18446744073709551616.0)  # exact: r mod 2^64, r's sign
                if m >= 9223372036854775808.0:
                    m -= 18446744073709551616.0
                elif m < -9223372036854775808.0:
                    m += 18446744073709551616.0
                q = np.int64(m)
        out[i] = q & 15 if nib else q


@njit(**_OPTS)
def quantize(x, out, scale, zp, lo, hi, mode, sat):  # pragma: no cover - compiled
    """out (uint8: the S8 / U8 carrier's bits) = :func:`.convert._quantize_exact` of the
    float32 values x."""
    for i in range(x.shape[0]):
        v = np.float64(x[i])
        if v != v:
            q = np.int64(0)
        elif v == np.inf:
            q = np.int64(hi)
        elif v == -np.inf:
            q = np.int64(lo)
        else:
            p = v * scale  # exact: 24 x 24 bits
            if abs(p) >= 4503599627370496.0:  # 2^52: an integer; congruent mod 2^16 or clamped
                p = min(max(p, -1048576.0), 1048576.0) if sat else np.fmod(p, 65536.0)
            f = np.floor(p)
            fr = p - f
            n = np.int64(f) + zp
            inexact = fr != 0.0
            if mode == RTM:
                up = False
            elif mode == RTP:
                up = inexact
            elif mode == RTZ:
                up = inexact and n < 0
            elif mode == RTO:
                up = inexact and (n & 1) == 0
            else:
                tie = fr == 0.5
                if mode == RNE:
                    at_tie = (n & 1) != 0
                elif mode == RNA:
                    at_tie = n >= 0
                else:
                    at_tie = True
                up = fr > 0.5 or (tie and at_tie)
            q = n + (1 if up else 0)
            if sat:
                q = min(max(q, lo), hi)
        out[i] = q


@njit(**_OPTS)
def sqrt_canonical(x, out, canonical):  # pragma: no cover - compiled
    """out = sqrt(x) in x's format (float32 / float64), every NaN result the canonical
    quiet NaN (``canonical``, of out's dtype)."""
    for i in range(x.shape[0]):
        r = np.sqrt(x[i])
        out[i] = canonical if r != r else r
