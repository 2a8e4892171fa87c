"""Format conversion kernels: TCVT (TEPL 0/27), TQUANT (3/10), TDEQUANT (3/11).

Semantics (``asl/tile/model/numeric/formats.asl``; D20 for what the ASL leaves to the
profile hook ``TileProfileConvert``):

* Every one of the 25 TileDataTypes is a TCVT source and destination
  (``InstructionContractDataTypeLegal_TCVT``); an E8M0 destination takes only FP16, BF16
  and FP32 sources (``HardwareTCVTTypePairSupported``).
* RMode codes are B.DATR's: 0 the operation default (RTZ float -> integer, RNE otherwise;
  ``InstructionContractDefaultRounding_TCVT``), 1 RNE, 2 RTZ, 3 RTM, 4 RTP, 5 RNA, 6 RTO,
  7 RHB (``asl/arch/data-types/rounding.asl``, ``FloatingToInteger``).
* Integer -> integer (``TileConvertIntegerValue``): the source read at its width and
  signedness, then Sat=0 keeps the low destination bits, Sat=1 clamps (a negative signed
  value into an unsigned type gives 0). S4X2 / U4X2 are one 4-bit code per carrier byte.
* Float -> E8M0: ``ReferenceFloatToE8M0`` (``asl/arch/profile/e8m0-conversion.asl``): the
  base-two exponent rounded under RMode; zero, negative, NaN -> 0xFF; +inf and a floor
  exponent outside [-127, 127] -> 0xFF, or with Sat the endpoint 0xFE / 0x00.
* Every other pair with a float side (D20): the exact source value rounded ONCE to the
  destination under RMode (IEEE 754, gradual underflow, signed zeros kept); overflow after
  rounding gives +-inf under RNE / RNA / RHB, the largest finite value under RTZ / RTO,
  and +-inf or the largest finite value toward the rounding direction under RTP / RTM
  (IEEE 754 7.4); Sat=1 clamps overflow and infinities to the largest finite value. A NaN
  result is the destination's canonical NaN. E4M3 (no infinity) gives its NaN where the
  result would be infinite; the formats with neither infinity nor NaN (E3M2, E2M3, E2M1X2,
  E1M2X2, HiF4X2) give +-max for overflow and infinities and +0 for NaN. HiF8 follows the
  ASL encoder ``ReferenceFP8Encoding`` (:func:`.postprocess.encode_hif8`). Float ->
  integer follows the reference quantizer (``TileProfileQuantize`` in
  ``asl/arch/profile/reference-quantization.asl`` with scale 1, zero point 0): NaN -> 0,
  +-inf -> the destination's max / min, a finite value rounds under RMode, then Sat=1
  clamps and Sat=0 keeps the low destination bits of the rounded integer.
* Exactness: every float source is exact in float64; integer sources of more than 53
  bits go through an exact (value, error) float64 pair (TwoSum), rounded to odd for the
  narrower formats (RO_53 then any rounding to p <= 51 bits is the direct rounding), so
  there is no double rounding anywhere. Numeric status flags: :func:`.status.convert_flags`,
  :func:`.status.quantize_flags`, :func:`.status.dequantize_flags`.
* TQUANT: ``q = round(x * multiplier + zero_point)`` computed exactly (x * multiplier is
  exact in float64; the integer part and the fraction are rounded separately), Sat=1
  clamps, Sat=0 wraps; NaN -> 0; +-inf -> max / min. TDEQUANT: ``FP32((q - zp) *
  multiplier)`` with one rounding under RMode; overflow is +-inf in every mode
  (``ReferenceFP32FiniteEncoding``). Both take the multiplier as a raw FP32 word (positive,
  finite, nonzero) and a zero point canonical in the integer type; omitted: 1.0 and 0.
  Illegal scalars are TileLegality faults before any effect.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import valid_shape_error

from . import jit, mx, status
from .elementwise import check_encodings
from .nanfix import SPAN, const_block, spans
from .padding import all_defined, pad_tile, parse_pad
from .postprocess import HIF8_MAX, encode_hif8, parse_rmode, round_to_integer

T = TileDataType
RNE, RTZ, RTM, RTP, RNA, RTO, RHB = 1, 2, 3, 4, 5, 6, 7
E8M0_SOURCES = frozenset({T.FP16, T.BF16, T.FP32})
"""``HardwareTCVTE8M0SourceTypeSupported``."""


def storage(t: TileDataType) -> np.dtype:
    """The interpreter's carrier dtype of ``t`` (as ``interpreter.ssa.runtime.storage_dtype``)."""
    npd = t.numpy_dtype()
    if npd is not None:
        return npd
    return np.dtype(np.float32) if t in (T.TF32, T.HF32) else np.dtype(np.uint8)


@dataclass(frozen=True)
class Fmt:
    """A binary float destination: fraction bits, minimum normal exponent, largest finite
    magnitude, and which specials it has."""

    mbits: int
    emin: int
    max: float
    has_inf: bool = True
    has_nan: bool = True


FORMATS: dict[TileDataType, Fmt] = {
    T.FP64: Fmt(52, -1022, float(np.finfo(np.float64).max)),
    T.FP32: Fmt(23, -126, float(np.finfo(np.float32).max)),
    T.TF32: Fmt(10, -126, (2 - 2.0**-10) * 2.0**127),
    T.HF32: Fmt(11, -126, (2 - 2.0**-11) * 2.0**127),
    T.FP16: Fmt(10, -14, 65504.0),
    T.BF16: Fmt(7, -126, (2 - 2.0**-7) * 2.0**127),
    T.E4M3: Fmt(3, -6, 448.0, has_inf=False),
    T.E5M2: Fmt(2, -14, 57344.0),
    T.E3M2: Fmt(2, -2, 28.0, False, False),
    T.E2M3: Fmt(3, 0, 7.5, False, False),
    T.E2M1X2: Fmt(1, 0, 6.0, False, False),
    T.E1M2X2: Fmt(2, 0, 1.75, False, False),
    T.HIF4X2: Fmt(2, 0, 1.75, False, False),
}
"""Destination formats rounded by :func:`round_float` (HiF8 and E8M0 have own encoders)."""

_NIBBLE_MAGS = np.arange(8) / 4.0
"""E1M2 / HiF4 magnitudes of codes 0..7 (sign in bit 3; ``hif4x2.asl``, PTO-SPEC 1)."""


def _fault(msg: str, op: str) -> PTOFault:
    return PTOFault(FaultKind.TILE_LEGALITY, msg, op)


# -- exact source values -----------------------------------------------------------------
def source_values(x: np.ndarray, t: TileDataType, op: str = "TCVT") -> np.ndarray:
    """Exact values of a carrier array: float64 for floats, int64 / uint64 for integers.
    Invalid encodings (TF32/HF32 low bits, E3M2/E2M3 high bits) fault (TileLegality)."""
    if t.is_integer:
        if t is T.S4X2:
            c = (x.astype(np.uint8) & 0xF).astype(np.int64)
            return np.where(c >= 8, c - 16, c)
        if t is T.U4X2:
            return (x.astype(np.uint8) & 0xF).astype(np.uint64)
        return x.astype(np.uint64 if t is T.U64 else np.int64, copy=False)
    check_encodings(t, ((x, "source"),), op)
    if t in mx.HIGH_ZERO_BITS:
        bad = (x.view(np.uint8) & mx.HIGH_ZERO_BITS[t]) != 0
        if bad.any():
            raise _fault(f"source: {t.asm} element with nonzero high carrier bits", op)
    if t in (T.HIF8, T.E1M2X2, T.HIF4X2):
        return mx.value_lut(t)[x.view(np.uint8)]
    with np.errstate(invalid="ignore"):  # a signalling NaN is a value (it converts to NaN)
        return x.astype(np.float64)


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = a + b
    z = s - a
    return s, (a - (s - z)) + (b - z)


def int_pair(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An int64 / uint64 array as an exact float64 pair (s, e): s = RNE(v), e = v - s."""
    if v.dtype.itemsize < 8 or not v.size:
        return v.astype(np.float64), np.zeros(v.shape)
    hi = (v >> np.array(32, v.dtype)).astype(np.float64) * 2.0**32
    lo = (v & np.array(0xFFFFFFFF, v.dtype)).astype(np.float64)
    return _two_sum(hi, lo)


def _step(s: np.ndarray, toward: np.ndarray) -> np.ndarray:
    return np.nextafter(s, np.where(toward > 0, np.inf, -np.inf))


def round_pair_f64(s: np.ndarray, e: np.ndarray, mode: int) -> np.ndarray:
    """Round the exact value s + e (s = RNE(s + e)) to float64 under RMode ``mode``."""
    inexact = e != 0
    if not inexact.any() or mode == RNE:
        return s
    odd = (s.view(np.uint64) & np.uint64(1)) != 0
    if mode == RTO:
        return np.where(inexact & ~odd, _step(s, e), s)
    if mode == RTZ:
        return np.where(inexact & (np.sign(e) != np.sign(s)), _step(s, e), s)
    if mode == RTM:
        return np.where(e < 0, _step(s, e), s)
    if mode == RTP:
        return np.where(e > 0, _step(s, e), s)
    # RNA / RHB differ from RNE only on exact ties: |e| is half the gap toward e
    gap = np.abs(_step(s, e) - s)
    tie = inexact & (np.abs(e) * 2 == gap)
    if mode == RNA:
        move = tie & (np.sign(e) == np.sign(s))
    else:  # RHB: the greater candidate
        move = tie & (e > 0)
    return np.where(move, _step(s, e), s)


def int_to_f64_odd(v: np.ndarray) -> np.ndarray:
    """Integers rounded to float64 with round-to-odd (exact below 2^53)."""
    return round_pair_f64(*int_pair(v), RTO)


# -- float destinations ----------------------------------------------------------------
def round_to_fmt(v: np.ndarray, fmt: Fmt, mode: int) -> np.ndarray:
    """Finite float64 ``v`` rounded to ``fmt``'s precision (unbounded exponent above, the
    subnormal step below) under RMode ``mode``; zeros keep their sign."""
    _, e = np.frexp(v)
    e = np.maximum(e.astype(np.int64) - 1, fmt.emin)
    q = np.ldexp(1.0, (e - fmt.mbits).astype(np.int32))
    r = round_to_integer(v / q, mode) * q
    return np.copysign(np.abs(r), v)


def round_float(v: np.ndarray, t: TileDataType, mode: int, sat: bool) -> np.ndarray:
    """float64 ``v`` (exact, or rounded to odd at 53 bits) rounded ONCE to float type ``t``
    with the D20 range rules; returns float64 values of ``t`` (NaN where ``t``'s NaN)."""
    fmt = FORMATS[t]
    with np.errstate(all="ignore"):
        nan, inf = np.isnan(v), np.isinf(v)
        special = nan | inf
        fin = np.where(special, 0.0, v)
        r = round_to_fmt(fin, fmt, mode) if t is not T.FP64 else fin
        over = (np.abs(r) > fmt.max) | inf
        if over.any():
            neg = np.signbit(v)
            if sat or not fmt.has_inf and not fmt.has_nan:
                to_inf = np.zeros(v.shape, bool)
            elif mode in (RNE, RNA, RHB, 0):
                to_inf = np.ones(v.shape, bool)
            elif mode == RTP:
                to_inf = ~neg
            elif mode == RTM:
                to_inf = neg
            else:
                to_inf = np.zeros(v.shape, bool)
            if not sat and (fmt.has_inf or fmt.has_nan):
                to_inf = to_inf | inf
            big = np.where(to_inf, np.inf if fmt.has_inf else np.nan, fmt.max)
            r = np.where(over, np.copysign(big, v), r)
        if nan.any():
            r = np.where(nan, np.nan if fmt.has_nan else 0.0, r)
    return r


def encode_float(r: np.ndarray, t: TileDataType) -> np.ndarray:
    """Values already rounded to ``t`` -> its carrier (every NaN the canonical NaN)."""
    if t in (T.E1M2X2, T.HIF4X2):
        code = np.searchsorted(_NIBBLE_MAGS, np.abs(r)).astype(np.uint8)
        return np.where(np.signbit(r), code | np.uint8(8), code).astype(np.uint8)
    dt = storage(t)
    with np.errstate(all="ignore"):
        out = r.astype(dt)
    return _canonical_nan(out) if FORMATS[t].has_nan else out


def _canonical_nan(out: np.ndarray) -> np.ndarray:
    nan = np.isnan(out)
    if nan.any():
        out = np.where(nan, np.array(np.nan).astype(out.dtype), out)
    return out


def to_e8m0(v: np.ndarray, mode: int, sat: bool) -> np.ndarray:
    """``ReferenceFloatToE8M0``: uint8 codes of exact positive float64 values."""
    with np.errstate(all="ignore"):
        pos = (v > 0) & np.isfinite(v)
        m, e = np.frexp(np.where(pos, v, 1.0))
        floor_e = e.astype(np.int64) - 1
        exact = m == 0.5
        frac = m * 2.0  # [1, 2): floor_e's significand
        ceil_e = floor_e + 1
        if mode == RTM:
            ex = floor_e
        elif mode == RTP:
            ex = ceil_e
        elif mode == RTZ:
            ex = np.where(floor_e < 0, ceil_e, floor_e)
        elif mode == RTO:
            ex = np.where(floor_e % 2 != 0, floor_e, ceil_e)
        else:  # nearest: frac^2 < 2 (exact for <= 26-bit significands; never a tie)
            ex = np.where(frac * frac < 2.0, floor_e, ceil_e)
        ex = np.where(exact, floor_e, ex)
        code = (np.clip(ex, -127, 127) + 127).astype(np.uint8)
        low = pos & (floor_e < -127)
        high = (pos & (floor_e == 127) & ~exact) | (v == np.inf)
    code = np.where(pos, code, np.uint8(0xFF))
    code = np.where(low, np.uint8(0 if sat else 0xFF), code)
    code = np.where(high, np.uint8(0xFE if sat else 0xFF), code)
    return code.astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)


# -- integer destinations ----------------------------------------------------------------
def _bounds(t: TileDataType) -> tuple[int, int]:
    bits = 4 if t in (T.S4X2, T.U4X2) else t.bits
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if t.is_signed else (0, (1 << bits) - 1)


def _int_carrier(u: np.ndarray, t: TileDataType) -> np.ndarray:
    """uint64 words (two's complement) -> the carrier of integer type ``t`` (low bits)."""
    if t in (T.S4X2, T.U4X2):
        return (u & np.uint64(0xF)).astype(np.uint8)
    return u.astype(storage(t))


def _wrap_f64(r: np.ndarray) -> np.ndarray:
    """Integer-valued finite float64 -> r mod 2^64 as uint64, exactly."""
    m = np.fmod(r, 2.0**64)
    hi = np.trunc(m / 2.0**32)
    lo = m - hi * 2.0**32
    return (hi.astype(np.int64).astype(np.uint64) << np.uint64(32)) + lo.astype(
        np.int64
    ).astype(np.uint64)


def float_to_int(v: np.ndarray, t: TileDataType, mode: int, sat: bool) -> np.ndarray:
    """Exact float values -> integer type ``t`` (D20; the reference quantizer's rules)."""
    lo, hi = _bounds(t)
    with np.errstate(all="ignore"):
        if hi < 2**31 and v.dtype.kind == "f" and v.dtype.itemsize >= 4 and v.size:
            fast = _float_to_int_in_range(v, t, mode, sat, lo, hi)
            if fast is not None:
                return fast
            # up to 32-bit destinations: the rounded value is exact in the source float, and
            # clamping (Sat) or wrapping (through int64, |r| < 2^63) needs no 64-bit care
            r = round_to_integer(v, mode).astype(np.float64, copy=False)
            big = ~(np.abs(r) < 2.0**62)  # NaN, +-inf and huge values
            if sat:
                q = np.clip(np.where(np.isnan(r), 0.0, r), lo, hi).astype(np.int64)
            elif big.any():
                q = _wrap_f64(np.where(np.isfinite(r), r, 0.0)).view(np.int64)
            else:
                q = r.astype(np.int64)
            if big.any():
                q = np.where(v == np.inf, hi, np.where(v == -np.inf, lo, q))
                q = np.where(np.isnan(v), 0, q)
            return _int_carrier(q.view(np.uint64), t)
        nan = np.isnan(v)
        fin = np.where(np.isfinite(v), v, 0.0)
        r = round_to_integer(fin, mode)
        if sat:
            r = np.clip(r, float(lo), float(hi + 1))  # lo and hi + 1 are exact in float64
        u = _wrap_f64(r)
        if sat:
            u = np.where(r >= float(hi + 1), np.uint64(hi), u)
        top = np.uint64(hi & (2**64 - 1))
        bottom = np.uint64(lo & (2**64 - 1))
        u = np.where(v == np.inf, top, np.where(v == -np.inf, bottom, u))
        u = np.where(nan, np.uint64(0), u)
    return _int_carrier(u, t)


def _float_to_int_in_range(v: np.ndarray, t: TileDataType, mode: int, sat: bool, lo: int,
                           hi: int) -> np.ndarray | None:
    """Fast path of :func:`float_to_int` for FP32 / FP64 sources and destinations of at
    most 32 bits: when every rounded value is finite and fits the destination (or Sat
    clamps it with bounds exact in the source format), the rounded floats convert
    directly; ``None`` sends NaN, infinities and out-of-range values to the exact path."""
    if t in (T.S4X2, T.U4X2):
        return None
    if mode == RTZ:  # the C cast truncates: exact for sources in (lo - 1, hi + 1)
        if lo - 1 < float(np.min(v)) and float(np.max(v)) < hi + 1:  # False for NaN
            return v.astype(storage(t))
    r = round_to_integer(v, mode)
    rmin, rmax = float(np.min(r)), float(np.max(r))  # NaN propagates
    if not (np.isfinite(rmin) and np.isfinite(rmax)):
        return None
    if lo <= rmin and rmax <= hi:
        return r.astype(storage(t))
    if sat and (hi < 2**24 or v.dtype.itemsize == 8):  # lo and hi exact in the source float
        return np.clip(r, lo, hi, out=r).astype(storage(t))
    return None


def int_to_int(v: np.ndarray, t: TileDataType, sat: bool) -> np.ndarray:
    """``TileConvertIntegerValue`` on int64 / uint64 source values."""
    if sat:
        lo, hi = _bounds(t)
        if v.dtype == np.uint64:
            v = np.minimum(v, np.uint64(hi)) if hi >= 0 else v
        else:
            v = np.clip(v, max(lo, -(2**63)), min(hi, 2**63 - 1))
    return _int_carrier(v.astype(np.uint64), t)


# -- TCVT -----------------------------------------------------------------------------------
def resolve_rmode(rmode, src: TileDataType, dst: TileDataType, op: str = "TCVT") -> int:
    """B.DATR RMode code with 0 resolved (``InstructionContractDefaultRounding_TCVT``)."""
    mode = parse_rmode(rmode, op)
    if mode == 0:
        return RTZ if src.is_float and dst.is_integer else RNE
    return mode


_FAST = {
    (T.FP32, T.FP16), (T.FP64, T.FP32), (T.FP64, T.FP16), (T.FP32, T.BF16),
    (T.FP16, T.FP32), (T.BF16, T.FP32), (T.FP16, T.FP64), (T.BF16, T.FP64), (T.FP32, T.FP64),
    (T.FP16, T.BF16), (T.BF16, T.FP16),
}  # fmt: skip
"""RNE pairs whose numpy / ml_dtypes cast is the correctly rounded conversion (checked
against the Fraction reference in tests/interpreter/test_kernel_convert.py)."""


_DIRECTED = {(T.FP32, T.FP16), (T.FP64, T.FP32), (T.FP64, T.FP16)}
"""Pairs whose RTZ / RTM / RTP conversion is derived from numpy's RNE cast
(:func:`_directed_from_rne`; differential tests against :func:`round_float`)."""


def _directed_from_rne(x: np.ndarray, dt: np.dtype, mode: int) -> np.ndarray:
    """A directed rounding from the correctly rounded RNE cast ``y``: ``y`` is one of the
    two neighbours of ``x`` in the destination (or ``x`` itself), so where ``y`` lies on the
    wrong side of ``x`` the answer is ``y``'s neighbour toward the direction (RTM: down,
    RTP: up, RTZ: toward zero). That also gives IEEE 754 7.4's overflow (an infinite
    ``y`` steps back to the largest finite value when the direction is toward zero) and
    gradual underflow with signed zeros (a negative value rounding to -0 steps to the
    negative smallest subnormal under RTM); a NaN compares false and stays (canonical)."""
    with np.errstate(all="ignore"):
        y = x.astype(dt)
        back = y.astype(x.dtype)  # exact: the destination is narrower
        if mode == RTM:
            wrong = back > x
        elif mode == RTP:
            wrong = back < x
        else:
            wrong = np.abs(back) > np.abs(x)
        # the neighbour is one encoding away: magnitude down (RTZ; RTM on positives, RTP
        # on negatives) is word - 1, magnitude up is word + 1 (from -0 to the negative
        # smallest subnormal, from +inf down to the largest finite value), modulo the width
        u = np.dtype(f"u{dt.itemsize}")
        w = y.view(u)
        if mode == RTZ:
            w -= wrong
        else:
            d = w >> u.type(dt.itemsize * 8 - 1)  # s: 1 on negatives
            d <<= u.type(1)
            if mode == RTM:
                d -= u.type(1)  # 2s - 1
            else:
                np.subtract(u.type(1), d, out=d)  # RTP: 1 - 2s
            np.multiply(d, wrong, out=d, casting="unsafe")
            w += d
        if np.isnan(np.min(x)):
            y = _canonical_nan(y)
    return y


_F16_MIN_OVERFLOW = 0x47800000
"""FP32 magnitude word of 2^16: from here on the FP16 truncation exceeds the largest finite
FP16 value (0x7BFF, 65504)."""


def _directed_f32_to_f16(x: np.ndarray, mode: int) -> np.ndarray:
    """FP32 -> FP16 under RTZ / RTM / RTP on the carrier words, block by block
    (:func:`.nanfix.spans`), without numpy's float16 cast.

    For a finite FP32 magnitude word ``m`` (exponent field ``E``) the magnitude truncated
    toward zero to FP16 is, as an FP16 word ``T``: in FP16's normal range (``E >= 113``,
    2^-14 and above) the top 10 fraction bits under the rebiased exponent,
    ``(m >> 13) - (112 << 10)``, inexact when the 13 dropped bits are not all zero; below
    it, the FP16 subnormal ``floor(|x| * 2^24)`` (``|x| * 2^24`` is exact in FP32 and,
    clamped at 1024, at most 1024: the two readings meet at the smallest normal, 0x400,
    and the larger one is the right one in both ranges), inexact when that product is not
    an integer. From 2^16 on, ``T`` is the largest finite word 0x7BFF, inexact. The
    result is ``T`` (RTZ) or ``T + 1`` when inexact and the direction is away from zero
    (RTM on negatives, RTP on positives): the next magnitude up, 0x7C00 (infinity) past
    0x7BFF (IEEE 754 7.4's overflow under directed rounding) and 0x400 past 0x3FF; the
    sign is the source's (signed zeros and underflow to -0 or the negative smallest
    subnormal included). Infinities convert exactly; a NaN gives the canonical 0x7E00.
    Checked against :func:`_directed_from_rne` on every FP32 word."""
    src = np.ascontiguousarray(x).reshape(-1).view(np.uint32)
    out = np.empty(x.shape, np.float16)
    dst = out.reshape(-1).view(np.uint16)
    n = src.size
    blk = min(n, SPAN)
    mag, low = np.empty(blk, np.uint32), np.empty(blk, np.uint32)
    trunc, sub = np.empty(blk, np.int32), np.empty(blk, np.int32)
    scaled, floor = np.empty(blk, np.float32), np.empty(blk, np.float32)
    inexact, flag = np.empty(blk, bool), np.empty(blk, bool)
    cap = const_block(np.dtype(np.float32), 0x44800000)  # 1024.0
    top = const_block(np.dtype(np.int32), 0x7BFF)
    for s, e in spans(n):
        k = e - s
        w, m, lo, t, f, fl = src[s:e], mag[:k], low[:k], trunc[:k], scaled[:k], floor[:k]
        ix, fg, sb = inexact[:k], flag[:k], sub[:k]
        np.bitwise_and(w, np.uint32(0x7FFFFFFF), out=m)
        np.right_shift(m, np.uint32(13), out=t.view(np.uint32))
        np.subtract(t, np.int32(112 << 10), out=t)  # the normal-range reading
        with np.errstate(all="ignore"):
            np.multiply(m.view(np.float32), np.float32(2.0**24), out=f)
            np.fmin(f, cap[:k], out=f)  # NaN (a NaN source, fixed below) -> 1024
        np.floor(f, out=fl)
        np.copyto(sb, fl, casting="unsafe")  # exact: integers in [0, 1024]
        np.maximum(t, sb, out=t)
        np.bitwise_and(m, np.uint32(0x1FFF), out=lo)
        np.not_equal(lo, np.uint32(0), out=ix)
        np.not_equal(fl, f, out=fg)
        np.logical_or(ix, fg, out=ix)
        np.greater_equal(m, np.uint32(_F16_MIN_OVERFLOW), out=fg)
        np.logical_or(ix, fg, out=ix)
        np.minimum(t, top[:k], out=t)
        if mode != RTZ:  # away from zero: RTM on negatives, RTP on positives
            np.right_shift(w, np.uint32(31), out=lo)  # the sign bit
            if mode == RTP:
                np.bitwise_xor(lo, np.uint32(1), out=lo)
            np.bitwise_and(lo, ix, out=lo, casting="unsafe")
            np.add(t, lo.view(np.int32), out=t)
        np.right_shift(w, np.uint32(16), out=lo)
        np.bitwise_and(lo, np.uint32(0x8000), out=lo)
        np.bitwise_or(t, lo.view(np.int32), out=t)
        if int(m.max()) >= 0x7F800000:  # infinities convert exactly, NaN is canonical
            t[:] = np.where(m == 0x7F800000, lo.view(np.int32) | 0x7C00, t)
            t[:] = np.where(m > 0x7F800000, 0x7E00, t)
        np.copyto(dst[s:e], t, casting="unsafe")  # the low 16 bits
    return out


def convert_values(x: np.ndarray, src: TileDataType, dst: TileDataType, rmode=0,
                   sat: bool = False) -> np.ndarray:
    """TCVT on a carrier array of ``src``: the carrier array of ``dst`` (module docstring)."""
    mode = resolve_rmode(rmode, src, dst)
    if dst is T.E8M0 and src not in E8M0_SOURCES:
        raise _fault(f"an E8M0 destination takes FP16, BF16 or FP32 sources, not {src.asm} "
                     "(HardwareTCVTTypePairSupported)", "TCVT")  # fmt: skip
    if mode == RNE and not sat and (src, dst) in _FAST:
        with np.errstate(all="ignore"):
            out = x.astype(storage(dst))
            # a NaN result comes only from a NaN source: one reduction (min propagates NaN,
            # no temporary) decides whether the canonical-NaN pass is needed at all
            probe = x if x.dtype.kind == "f" else out
            if x.size and np.isnan(np.min(probe)):
                out = _canonical_nan(out)
            return out
    if not sat and (src, dst) in _DIRECTED and mode in (RTZ, RTM, RTP):
        if (src, dst) == (T.FP32, T.FP16) and x.size:
            return _directed_f32_to_f16(x, mode)
        return _directed_from_rne(x, storage(dst), mode)
    if jit.compiled() and src.is_float and (dst in _JIT_INT or dst in _JIT_FLOAT):
        return _compiled_convert(x, src, dst, mode, sat)
    if dst.is_integer and src in (T.FP32, T.FP64):  # float32 / float64 values are exact as
        return float_to_int(x, dst, mode, sat)  # they are (no float64 copy; nothing to check)
    v = source_values(x, src)
    if src.is_integer and dst.is_integer:
        return int_to_int(v, dst, sat)
    if dst.is_integer:
        return float_to_int(v, dst, mode, sat)
    if src.is_integer:
        if dst is T.FP64:
            return round_float(round_pair_f64(*int_pair(v), mode), dst, mode, sat)
        v = int_to_f64_odd(v)
    if dst is T.E8M0:
        return to_e8m0(v, mode, sat)
    if dst is T.HIF8:
        return encode_hif8(v, mode, sat)
    return encode_float(round_float(v, dst, mode, sat), dst)


_JIT_FLOAT = frozenset(FORMATS) - {T.FP64}
_JIT_INT = frozenset({T.S32, T.U32, T.S16, T.U16, T.S8, T.U8, T.S4X2, T.U4X2})
"""Destinations of float sources that :mod:`.numeric_jit` converts when compiled."""


def _compiled_convert(x: np.ndarray, src: TileDataType, dst: TileDataType, mode: int,
                      sat: bool) -> np.ndarray:
    """:func:`convert_values` of a float source by :mod:`.numeric_jit` (the same bits): one
    compiled pass rounding the exact values, then the destination's carrier."""
    numeric_jit = jit.numeric()
    if src in (T.FP32, T.FP64):  # exact as they are, nothing to check
        vals = np.ascontiguousarray(x).reshape(-1)
    else:
        vals = np.ascontiguousarray(source_values(x, src)).reshape(-1)
    if dst in _JIT_INT:
        lo, hi = _bounds(dst)
        out = np.empty(x.shape, storage(dst))
        flat = out.reshape(-1).view(np.dtype(f"u{out.itemsize}"))
        numeric_jit.float_to_int(vals, flat, lo, hi, mode, sat)
        return out
    fmt = FORMATS[dst]
    r = np.empty(x.shape, np.float32)
    nan = numeric_jit.round_float32(vals, r.reshape(-1), fmt.mbits, fmt.emin, fmt.max,
                                    fmt.has_inf, fmt.has_nan, mode, sat)
    if storage(dst) == np.float32:  # FP32, TF32, HF32: the values are the carrier
        return r
    if dst in (T.E1M2X2, T.HIF4X2):
        return encode_float(r, dst)
    if dst is T.BF16 and np.little_endian:  # a BF16 value is the top half of its FP32 word
        return np.ascontiguousarray(r.view(np.uint16)[..., 1::2]).view(storage(dst))
    with np.errstate(all="ignore"):
        out = r.astype(storage(dst))  # exact: values of the format
    return _canonical_nan(out) if nan else out


def _valid_region(src, valid, op: str) -> tuple[np.ndarray, tuple[int, int], tuple[int, int]]:
    a = np.asarray(src)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim != 2:
        raise _fault(f"tile payloads are 2-D, got {a.shape}", op)
    rows, cols = a.shape
    vr, vc = (rows, cols) if valid is None else valid
    if why := valid_shape_error((vr, vc), (rows, cols)):
        raise _fault(why, op)
    return a[:vr, :vc], (rows, cols), (vr, vc)


def _as_type(t) -> TileDataType:
    return t if isinstance(t, TileDataType) else TileDataType.from_asm(str(t))


def _publish(res: np.ndarray, t: TileDataType, shape, valid, pad: str):
    if valid == shape:
        return res, all_defined(shape)
    out = np.zeros(shape, storage(t))
    out[: valid[0], : valid[1]] = res
    return pad_tile(out, valid, parse_pad(pad), t)


def tcvt_tile(src, valid, pad="null", src_type=None, dst_type=None, *, rmode=0, sat=False):
    """Tile-level TCVT: the source payload (its carrier dtype), valid (rows, cols), the
    destination's PadValue -> the destination ``(payload, defined)``; only the valid
    rectangle is read (D9), every check before any computation (D12)."""
    s, d = _as_type(src_type), _as_type(dst_type)
    a, shape, vshape = _valid_region(src, valid, "TCVT")
    if a.dtype != storage(s):
        raise _fault(f"source: {s.asm} payload must have dtype {storage(s)}, got {a.dtype}", "TCVT")
    res = convert_values(a, s, d, rmode, sat)
    if status.active():  # TCVT ORs TileProfileConvert's element flags (formats.asl)
        status.record(_tcvt_flags(a, s, d, res, rmode))
    return _publish(res, d, shape, vshape, pad)


def _tcvt_flags(a: np.ndarray, s: TileDataType, d: TileDataType, res: np.ndarray, rmode) -> int:
    """:func:`.status.convert_flags` with the exact source values and the IEEE overflow mask
    (the rounding with unbounded exponent beyond the destination's largest finite value)
    computed only where the flag computation needs them."""

    def values():
        with np.errstate(invalid="ignore"):  # a signalling NaN source is a value here
            v = source_values(a, s)
        return int_pair(v) if s.is_integer else v

    def over(u: np.ndarray) -> np.ndarray | None:
        if d is T.HIF8:  # ReferenceFP8Encoding: |x| > 32768 before rounding
            with np.errstate(invalid="ignore"):
                return np.isfinite(u) & (np.abs(u) > HIF8_MAX)
        if d not in FORMATS or d is T.FP64:
            return None
        fmt = FORMATS[d]
        with np.errstate(all="ignore"):
            fin = np.isfinite(u)
            big = fin & (np.abs(u) > fmt.max)
            if not big.any():
                return big
            return big & (np.abs(round_to_fmt(np.where(fin, u, 0.0), fmt,
                                              resolve_rmode(rmode, s, d))) > fmt.max)

    fmt = FORMATS.get(d)
    if d in status.CODED_DESTINATIONS:  # codes / narrow carriers: the flags see their values
        return status.convert_flags(a, s, d, values, source_values(res, d), over,
                                    None if fmt is None else fmt.max)  # fmt: skip
    return status.convert_flags(a, s, d, values, res, over, None if fmt is None else fmt.max)


# -- TQUANT / TDEQUANT -------------------------------------------------------------------
def multiplier_value(word, op: str) -> float:
    """A raw FP32 multiplier word (None: 1.0): positive, finite, nonzero
    (``TileQuantizationScaleLegal``), else TileLegality."""
    if word is None:
        return 1.0
    if isinstance(word, (float, np.floating)):
        word = int(np.array(word, np.float32).view(np.uint32))
    w = int(word) & (2**64 - 1)
    f = float(np.array(w & 0xFFFFFFFF, np.uint32).view(np.float32))
    if w >> 31 or not np.isfinite(f) or f == 0:
        raise _fault(f"multiplier word {w:#x} is not a positive finite nonzero FP32 "
                     "(TileQuantizationScaleLegal)", op)  # fmt: skip
    return f


def zero_point_value(word, t: TileDataType, op: str) -> int:
    """The zero point (None: 0), canonical in S8 / U8 (``TileQuantizationZeroPointLegal``)."""
    if word is None:
        return 0
    w = int(word)
    lo, hi = _bounds(t)
    if w > 2**63 - 1:  # an unsigned 64-bit word: read as two's complement
        w -= 2**64
    if not lo <= w <= hi:
        raise _fault(f"zero point {int(word)} is not a canonical {t.asm} value "
                     "(TileQuantizationZeroPointLegal)", op)  # fmt: skip
    return w


def quantize_values(x: np.ndarray, scale: float, zp: int, t: TileDataType, mode: int,
                    sat: bool) -> np.ndarray:
    """``TileProfileQuantize`` on float32 values (exact; module docstring). Under RNE a
    C-contiguous tile is quantized block by block (:func:`.nanfix.spans`: the float64
    temporaries stay in cache), each block by :func:`_quantize_rne` or, when that declines
    (a NaN, an infinity or ``|x * scale| >= 2^31`` in the block), by the exact path."""
    lo, hi = _bounds(t)
    if jit.compiled() and x.size:
        return _compiled_quantize(x, scale, zp, t, mode, sat)
    if mode == RNE and x.size:
        if not x.flags.c_contiguous:
            fast = _quantize_rne(x, scale, zp, t, lo, hi, sat)
            return _quantize_exact(x, scale, zp, t, mode, sat) if fast is None else fast
        out = np.empty(x.shape, storage(t))
        src, dst = x.reshape(-1), out.reshape(-1)
        buf = np.empty(min(src.size, SPAN))
        for s, e in spans(src.size):
            if _quantize_rne(src[s:e], scale, zp, t, lo, hi, sat, dst[s:e], buf[: e - s]) is None:
                dst[s:e] = _quantize_exact(src[s:e], scale, zp, t, mode, sat)
        return out
    return _quantize_exact(x, scale, zp, t, mode, sat)


def _compiled_quantize(x: np.ndarray, scale: float, zp: int, t: TileDataType, mode: int,
                       sat: bool) -> np.ndarray:
    """:func:`_quantize_exact` by :func:`.numeric_jit.quantize` (the same bits)."""
    lo, hi = _bounds(t)
    out = np.empty(x.shape, storage(t))
    jit.numeric().quantize(np.ascontiguousarray(x).reshape(-1), out.reshape(-1).view(np.uint8),
                         scale, zp, lo, hi, mode, sat)
    return out


def _quantize_exact(x: np.ndarray, scale: float, zp: int, t: TileDataType, mode: int,
                    sat: bool) -> np.ndarray:
    """:func:`quantize_values` in every mode, for every float32 value."""
    lo, hi = _bounds(t)
    with np.errstate(all="ignore"):
        v = x.astype(np.float64)
        p = np.where(np.isfinite(v), v * scale, 0.0)  # exact: 24 x 24 bits
        # beyond 2^52 p is an integer: keep it congruent mod 2^16 (or clamp for Sat)
        big = np.abs(p) >= 2.0**52
        p = np.where(big, np.clip(p, -(2.0**20), 2.0**20) if sat else np.fmod(p, 2.0**16), p)
        f = np.floor(p)
        fr = p - f  # exact, [0, 1)
        n = f.astype(np.int64) + zp
        inexact = fr != 0
        if mode == RTM:
            up = np.zeros(p.shape, bool)
        elif mode == RTP:
            up = inexact
        elif mode == RTZ:
            up = inexact & (n < 0)
        elif mode == RTO:
            up = inexact & (n % 2 == 0)
        else:
            tie = fr == 0.5
            at_tie = {RNE: n % 2 != 0, RNA: n >= 0, RHB: np.ones(p.shape, bool)}[mode]
            up = (fr > 0.5) | (tie & at_tie)
        q = n + up
        if sat:
            q = np.clip(q, lo, hi)
        q = np.where(v == np.inf, hi, np.where(v == -np.inf, lo, q))
        q = np.where(np.isnan(v), 0, q)
    return q.astype(storage(t))


def _quantize_rne(x: np.ndarray, scale: float, zp: int, t: TileDataType, lo: int, hi: int,
                  sat: bool, out: np.ndarray | None = None,
                  buf: np.ndarray | None = None) -> np.ndarray | None:
    """Fast path of :func:`quantize_values` under RNE for finite sources with
    ``|x * scale| < 2^31`` (``None`` otherwise: the exact path); the result goes to ``out``
    (a new array by default), the float64 values to ``buf`` (x's size; by default new).

    ``p = x * scale`` is exact in float64 (at most 48 significant bits). An even zero
    point commutes with RNE: RNE(p + zp) = RNE(p) + zp. An odd one is split as
    ``RNE(p + 1) + (zp - 1)``: ``p + 1`` is exact when ``|p| >= 2^-5`` (its bits span at
    most 48 + 5 places), and for smaller ``|p|`` it stays within (0.96, 1.04), which
    rounds to 1 either way, as RNE(p + zp) = zp does."""
    with np.errstate(all="ignore"):
        m = max(abs(float(np.min(x))), abs(float(np.max(x))))  # NaN / inf: not finite
    if not np.isfinite(m) or m * scale >= 2.0**31:
        return None
    p = np.empty(x.shape) if buf is None else buf.reshape(x.shape)
    np.copyto(p, x)  # exact: float32 -> float64
    p *= scale
    odd = zp & 1
    if odd:
        p += 1.0
    np.rint(p, out=p)
    p += zp - odd  # exact: integers below 2^32
    if out is None:
        out = np.empty(x.shape, storage(t))
    if sat:  # clamp in float64 (exact integers), then an in-range cast
        np.copyto(out, np.clip(p, lo, hi, out=p), casting="unsafe")
    else:  # Sat=0 keeps the low bits of the int64 value
        np.copyto(out, p.astype(np.int64), casting="unsafe")
    return out


def dequantize_values(x: np.ndarray, scale: float, zp: int, mode: int) -> np.ndarray:
    """``TileProfileDequantize``: FP32((q - zp) * scale), one rounding; overflow +-inf."""
    d = (x.astype(np.int64) - zp).astype(np.float64) * scale  # exact: 9 x 24 bits
    fmt = FORMATS[T.FP32]
    with np.errstate(all="ignore"):
        r = round_to_fmt(d, fmt, mode)
        r = np.where(np.abs(r) > fmt.max, np.copysign(np.inf, d), r)
        r = np.where(d == 0, 0.0, r)  # an exact zero is +0
        return r.astype(np.float32)


def tquant_tile(src, multiplier=None, zero_point=None, valid=None, dst_type="S8", *,
                rmode=0, sat=False):
    """Tile-level TQUANT: FP32 payload -> the S8 / U8 ``(payload, defined)`` (Null pad)."""
    t = _as_type(dst_type)
    if t not in (T.S8, T.U8):
        raise _fault(f"TQUANT destinations are S8 or U8, not {t.asm}", "TQUANT")
    a, shape, vshape = _valid_region(src, valid, "TQUANT")
    if a.dtype != np.float32:
        raise _fault(f"source: FP32 payload must be float32, got {a.dtype}", "TQUANT")
    scale = multiplier_value(multiplier, "TQUANT")
    zp = zero_point_value(zero_point, t, "TQUANT")
    mode = RNE if parse_rmode(rmode, "TQUANT") == 0 else parse_rmode(rmode, "TQUANT")
    res = quantize_values(a, scale, zp, t, mode, sat)
    if status.active():  # TileProfileQuantize's flags, ORed over the tile
        status.record(status.quantize_flags(a, scale))
    return _publish(res, t, shape, vshape, "null")


def tdequant_tile(src, multiplier=None, zero_point=None, valid=None, src_type="S8", *,
                  rmode=0):
    """Tile-level TDEQUANT: S8 / U8 payload -> the FP32 ``(payload, defined)`` (Null pad)."""
    t = _as_type(src_type)
    if t not in (T.S8, T.U8):
        raise _fault(f"TDEQUANT sources are S8 or U8, not {t.asm}", "TDEQUANT")
    a, shape, vshape = _valid_region(src, valid, "TDEQUANT")
    if a.dtype != storage(t):
        raise _fault(f"source: {t.asm} payload must be {storage(t)}, got {a.dtype}", "TDEQUANT")
    scale = multiplier_value(multiplier, "TDEQUANT")
    zp = zero_point_value(zero_point, t, "TDEQUANT")
    mode = RNE if parse_rmode(rmode, "TDEQUANT") == 0 else parse_rmode(rmode, "TDEQUANT")
    res = dequantize_values(a, scale, zp, mode)
    if status.active():  # TileProfileDequantize's flags (ReferenceFP32FiniteEncoding)
        status.record(status.dequantize_flags(a, scale, zp, res))
    return _publish(res, T.FP32, shape, vshape, "null")
