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
    """:func:`.postprocess.round_to_integer` of one float64 value, branch-free (every mode's
    candidate is computed and ``mode``, the same for the whole loop, selects one): the loops
    vectorise. RTO's "f is even" is ``f / 2`` an integer (exact for every float)."""
    f = np.floor(y)
    frac = y - f
    a = abs(y)
    fa = np.floor(a)
    rna = np.copysign(fa + (1.0 if a - fa >= 0.5 else 0.0), y)
    h = f * 0.5
    rto = f + (1.0 if frac != 0.0 and np.floor(h) == h else 0.0)
    rhb = f + (1.0 if frac >= 0.5 else 0.0)
    r = np.rint(y) if mode == RNE else np.trunc(y)
    r = f if mode == RTM else r
    r = np.ceil(y) if mode == RTP else r
    r = rna if mode == RNA else r
    r = rto if mode == RTO else r
    return rhb if mode == RHB else r


@njit(**_OPTS)
def round_float32(x, out, mbits, emin, fmax, has_inf, has_nan, mode, sat):  # pragma: no cover
    """out (float32) = :func:`.convert.round_float` of the exact values x (float32 or float64;
    a destination of FP32's range or less, ``fmax`` its largest finite value): NaN is the
    canonical quiet NaN where the format has one, else +0. Returns whether a NaN was
    written. Branch-free per element (selects): the loop vectorises."""
    nan32 = np.uint32(0x7FC00000).view(np.float32)
    nan64 = np.float64(nan32)
    nearest = mode == RNE or mode == RNA or mode == RHB or mode == 0
    may_inf = not sat and (has_inf or has_nan)
    nans = 0
    for i in range(x.shape[0]):
        v = np.float64(x[i])
        a = abs(v)
        inf = a == np.inf
        neg = v < 0.0
        e = max(np.int64((v.view(np.int64) >> 52) & 0x7FF) - 1023, emin) - mbits
        q = np.int64((e + 1023) << 52).view(np.float64)  # 2^e (e < 1024: a NaN / inf v
        iq = np.int64((1023 - e) << 52).view(np.float64)  # gives junk r, replaced below)
        r = np.copysign(abs(_round_int(v * iq, mode) * q), v)
        over = inf or abs(r) > fmax
        to_inf = may_inf and (nearest or (mode == RTP and not neg) or (mode == RTM and neg)
                              or inf)
        big = (np.inf if has_inf else nan64) if to_inf else fmax
        r = (-big if neg else big) if over else r
        r = (nan64 if has_nan else 0.0) if v != v else r
        nans += r != r
        out[i] = np.float32(r)
    return nans > 0


@njit(**_OPTS)
def float_to_int(x, out, lo, hi, mode, sat):  # pragma: no cover - compiled
    """out (the unsigned view of an integer carrier of at most 32 bits; the 4-bit types,
    ``hi - lo == 15``, one code per byte) = :func:`.convert.float_to_int` of the exact float
    values x: the destination's low 32 bits of the rounded integer (``r - 2^32 floor(r /
    2^32)``, exact: an integer in [0, 2^32)), or the value clamped (Sat); branch-free."""
    nib = hi - lo == 15
    flo, fhi = np.float64(lo), np.float64(hi)
    for i in range(x.shape[0]):
        v = np.float64(x[i])
        r = _round_int(v, mode)
        c = min(max(r, flo), fhi)  # +-inf clamp to the bounds
        w = r - 4294967296.0 * np.floor(r * 2.3283064365386963e-10)
        q = np.int64(c) if sat or abs(v) == np.inf else np.int64(w if abs(r) < 1e300 else 0.0)
        q = 0 if v != v else q
        out[i] = q & 15 if nib else q


@njit(**_OPTS)
def quantize(x, out, scale, zp, lo, hi, mode, sat):  # pragma: no cover - compiled
    """out (uint8: the S8 / U8 carrier's bits) = :func:`.convert._quantize_exact` of the
    float32 values x; branch-free (beyond 2^52 ``fmod(p, 2^16)`` is ``p - 2^16 trunc(p /
    2^16)``, exact)."""
    for i in range(x.shape[0]):
        v = np.float64(x[i])
        fin = v - v == 0.0
        p = v * scale if fin else 0.0  # exact: 24 x 24 bits
        big = abs(p) >= 4503599627370496.0  # 2^52: an integer, congruent mod 2^16 or clamped
        pc = min(max(p, -1048576.0), 1048576.0) if sat else \
            p - 65536.0 * np.trunc(p * 1.52587890625e-05)
        p = pc if big else p
        f = np.floor(p)
        fr = p - f
        n = np.int64(f) + zp
        inexact = fr != 0.0
        tie = fr == 0.5
        odd = (n & 1) != 0
        at_tie = odd if mode == RNE else (n >= 0 if mode == RNA else True)
        up = fr > 0.5 or (tie and at_tie)
        up = False if mode == RTM else up
        up = inexact if mode == RTP else up
        up = (inexact and n < 0) if mode == RTZ else up
        up = (inexact and not odd) if mode == RTO else up
        qv = n + (1 if up else 0)
        qv = min(max(qv, lo), hi) if sat else qv
        qv = hi if v == np.inf else (lo if v == -np.inf else qv)
        out[i] = 0 if v != v else qv


@njit(**_OPTS)
def sqrt_canonical(x, out, canonical):  # pragma: no cover - compiled
    """out = sqrt(x) in x's format (float32 / float64), every NaN result the canonical
    quiet NaN (``canonical``, of out's dtype)."""
    for i in range(x.shape[0]):
        r = np.sqrt(x[i])
        out[i] = canonical if r != r else r
