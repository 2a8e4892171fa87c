"""B.FPATR post-processing of an FP32 accumulator row (PTO-SPEC 3.3, D3, D5, D11).

Vectorised over the N columns. Per element, following the ASL ``MatrixPostQuantBase``
order (``asl/tile/model/execution/matrix-postprocess.asl``):

1. PreQuantMode 0 with ReluMode 0: the FP32 accumulator is D unchanged.
2. A multiplier is chosen: the quant scale (1.0 when the mode has none); for a negative
   value (including -0 and -inf) ReLU gives 0 and scalar LReLU / vector PReLU give the
   FP19 parameter instead of the scale.
3. Specials: NaN gives NaN for a float output (+0 when Sat=1) and INT_MIN for an integer
   output (0 when Sat=1); +-inf gives +-inf (E4M3: NaN 0x7F) or with Sat=1 the largest
   finite value of the output; integers: INT_MIN, or with Sat=1 the endpoint. -inf times a
   zero multiplier is treated as 0.
4. ``value * multiplier`` is exact in float64 (FP32 x FP19). Float outputs (FP32, FP16,
   BF16, E4M3) round it once with the rounding mode (fixed RNE for modes 1, 16, 26, 32-34,
   36, 37; else B.DATR RMode, 0 = RNE); overflow gives inf (E4M3: the canonical NaN 0x7F
   for either sign) with Sat=0 and the largest finite value with Sat=1 (E4M3 overflows
   when |x| > 448 before rounding, as in the ASL encoder ``ReferenceFP8Encoding``). An
   exact zero gives +0, and an E4M3 result that rounds to zero is 0x00 whatever the sign
   (``ReferenceFP8Encoding``), except a -0 accumulator with a nonzero multiplier and zero
   offset, which stays -0 (``MatrixFloatingSignedZero``).
5. S8 outputs (modes 23, 24): round with the rounding mode and saturate to the signed
   9-bit intermediate [-256, 255], add the signed 9-bit offset, then convert: Sat=1 clamps
   to [-128, 127], Sat=0 wraps the exact integer (computed in float64 integers, so
   |acc x scale| >= 2^63 neither overflows nor wraps wrongly).

S32/U32 accumulators (non-MX integer CUBE functions) follow the same order with the value
read as a signed (unsigned) 32-bit integer and no special values; the intermediate of modes
with an offset saturates to S5/S9/S17, then the offset is added and the final conversion
clamps (Sat=1) or wraps (Sat=0) to S4X2 / S8 / S16; DEQF16 / QS322BF16 round once to FP16 /
BF16; the shift modes 12/13 take an arithmetic right shift by code+1 and saturate to S16
(``asl/arch/profile/matrix-quantization.asl``: MatrixRoundAndSaturateSigned,
MatrixShiftS32ToS16, ReferenceMatrixIntegerEncoding).

6. HiF8 outputs (modes 25 QF322HIF8_PRE, 28 VQF322HIF8_PRE) are uint8 codes (the
   interpreter's HiF8 storage). Rounding is fixed at RHB (ties toward +inf;
   ``MatrixFPATREffectiveControl`` in ``asl/arch/profile/matrix-postprocess.asl``). The
   value is encoded by :func:`encode_hif8`, which follows ``ReferenceFP8Encoding``
   (``asl/arch/profile/matrix-quantization.asl``): an exact zero is 0x00 (HiF8 has no -0,
   ``MatrixFloatingSignedZero``), |x| > 32768 overflows before rounding to 0x6F / 0xEF
   (+-inf) with Sat=0 or 0x6E / 0xEE (+-32768) with Sat=1, anything else goes to the
   nearest finite HiF8 value. Specials: NaN gives 0x80 (0x00 with Sat=1), +-inf gives
   0x6F / 0xEF (0x6E / 0xEE with Sat=1).

Numeric status flags of post-processing and of the reductions: :mod:`.postprocess_status`.

Reductions (RowMax / GroupMax, optional MaxAbs, RowMaxInit) run on the raw FP32
accumulator before post-processing (PTO-SPEC 3.3) with TMAX's rule
(``HardwareNumericMinMaxSpecial``): NaNs are skipped, an all-NaN set gives the canonical
NaN, max(+0, -0) = +0.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.postprocess import (
    PRE_QUANT_MODES,
    Fpatr,
    ParamKind,
    QuantOp,
    ReluMode,
)

from . import mx

T = TileDataType
OP = "TGEMV_MX_BIAS"

# -- rounding modes (B.DATR RMode, PTO-SPEC 3.2) -----------------------------------------
RMODES = {"default": 0, "rne": 1, "rtz": 2, "rtm": 3, "rtp": 4, "rna": 5, "rto": 6, "rhb": 7}
RMODE_NAMES = {v: k for k, v in RMODES.items()}


def parse_rmode(rmode: int | str, op: str = OP) -> int:
    """RMode code from a name (``"rne"``...) or code 0..7."""
    if isinstance(rmode, str):
        key = rmode.lower()
        if key not in RMODES:
            raise PTOFault(FaultKind.TILE_LEGALITY, f"unknown rounding mode '{rmode}'", op)
        return RMODES[key]
    if isinstance(rmode, (int, np.integer)) and 0 <= int(rmode) <= 7:
        return int(rmode)
    raise PTOFault(FaultKind.TILE_LEGALITY, f"RMode {rmode!r} is not 0..7", op)


def round_to_integer(v: np.ndarray, mode: int) -> np.ndarray:
    """Round float64 values to integers (as float64) with RMode ``mode`` (0 = RNE).

    RHB rounds ties toward +inf (the ASL ``MatrixRoundMagnitude`` rule); RTO rounds an
    inexact value to the odd neighbour.
    """
    if mode in (0, 1):
        return np.rint(v)
    if mode == 2:
        return np.trunc(v)
    if mode == 3:
        return np.floor(v)
    if mode == 4:
        return np.ceil(v)
    if mode == 5:  # ties away from zero
        m = np.floor(np.abs(v))
        m = m + (np.abs(v) - m >= 0.5)
        return np.copysign(m, v)
    f = np.floor(v)
    frac = v - f  # exact
    if mode == 6:
        return np.where((frac != 0) & (np.fmod(f, 2) == 0), f + 1, f)
    if mode == 7:
        return f + (frac >= 0.5)
    raise ValueError(mode)


@dataclass(frozen=True)
class FloatFormat:
    """Binary float output format for :func:`encode_float`."""

    dtype: np.dtype
    mbits: int
    emin: int
    max_finite: float
    has_inf: bool
    overflow_before_rounding: bool = False


FLOAT_OUT: dict[TileDataType, FloatFormat] = {
    T.FP32: FloatFormat(np.dtype(np.float32), 23, -126, float(np.finfo(np.float32).max), True),
    T.FP16: FloatFormat(np.dtype(np.float16), 10, -14, 65504.0, True),
    T.BF16: FloatFormat(
        np.dtype(ml_dtypes.bfloat16), 7, -126, float(ml_dtypes.finfo(ml_dtypes.bfloat16).max), True
    ),
    T.E4M3: FloatFormat(np.dtype(ml_dtypes.float8_e4m3fn), 3, -6, 448.0, False, True),
}


def round_to_format(v: np.ndarray, fmt: FloatFormat, mode: int) -> tuple[np.ndarray, np.ndarray]:
    """Round finite float64 ``v`` to ``fmt``'s precision with an unbounded exponent range
    above and ``fmt``'s subnormal range below. Returns (rounded float64, overflow mask).
    Zero results keep the sign of ``v`` (an exact 0 is handled by the caller)."""
    mag = np.abs(v)
    _, e = np.frexp(mag)  # mag in [2^(e-1), 2^e)
    e = np.maximum(e - 1, fmt.emin)
    q = np.ldexp(1.0, e - fmt.mbits)
    r = round_to_integer(v / q, mode) * q
    r = np.copysign(np.abs(r), v)
    over = (mag > fmt.max_finite) if fmt.overflow_before_rounding else (np.abs(r) > fmt.max_finite)
    return r, over


def encode_float(v: np.ndarray, t: TileDataType, mode: int, sat: bool) -> np.ndarray:
    """Round finite float64 values once to float type ``t`` (see the module docstring)."""
    fmt = FLOAT_OUT[t]
    with np.errstate(all="ignore"):
        r, over = round_to_format(v, fmt, mode)
    if over.any():
        if sat or fmt.has_inf:
            r = np.where(over, np.copysign(fmt.max_finite if sat else np.inf, v), r)
        else:  # E4M3 with Sat=0: the canonical NaN 0x7F for both signs (ReferenceFP8Encoding)
            r = np.where(over, np.nan, r)
    if fmt.has_inf:
        r = np.where(v == 0, 0.0, r)  # an exact zero is +0
    else:
        # E4M3 (ReferenceFP8Encoding): 0 -> 0x00, and a nonzero value rounding to zero
        # picks code 0x00 too (the candidate search meets +0 first; -0 is the same real)
        r = np.where(r == 0, 0.0, r)
    with np.errstate(all="ignore"):
        return r.astype(fmt.dtype)


# -- HiF8 encoding (asl/arch/data-types/formats/hif8.asl, matrix-quantization.asl) -------
HIF8_MAX = 32768.0
"""Largest finite HiF8 magnitude (code 0x6E: D4, exponent +15, fraction 0)."""
HIF8_NAN, HIF8_POS_INF, HIF8_NEG_INF = 0x80, 0x6F, 0xEF
HIF8_POS_MAX, HIF8_NEG_MAX = 0x6E, 0xEE


def _hif8_magnitude_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 127 finite non-negative HiF8 values in increasing order (0 and codes 0x01..0x7F
    without the +inf code 0x6F), their codes, and for each position the position of the
    next larger value with an odd code (-1 if none) for RTO. Built from :mod:`.mx`'s
    decode table; HiF8 is sign-magnitude, so a negative value is the same magnitude with
    bit 7 set, except that zero has only the code 0x00."""
    lut = mx.value_lut(T.HIF8)[:128]
    codes = np.flatnonzero(np.isfinite(lut))
    order = np.argsort(lut[codes], kind="stable")
    vals, codes = lut[codes][order], codes[order].astype(np.uint8)
    if not (np.diff(vals) > 0).all():  # pragma: no cover - a format invariant
        raise AssertionError("HiF8 magnitudes are not distinct")
    odd = np.flatnonzero(codes & 1)
    nxt = np.searchsorted(odd, np.arange(len(vals)), side="right")
    next_odd = np.where(nxt < len(odd), odd[np.minimum(nxt, len(odd) - 1)], -1)
    for a in (vals, codes, next_odd):
        a.setflags(write=False)
    return vals, codes, next_odd


_HIF8_VALS, _HIF8_CODES, _HIF8_NEXT_ODD = _hif8_magnitude_table()


def encode_hif8(v: np.ndarray, mode: int = 7, sat: bool = False) -> np.ndarray:
    """uint8 HiF8 codes of float64 values ``v`` with RMode ``mode`` (RHB = 7 by default).

    Follows ``ReferenceFP8Encoding`` (``asl/arch/profile/matrix-quantization.asl``), whose
    candidate search over all 256 codes is done here by binary search in the sorted
    magnitude table: ``lo`` <= |x| <= ``hi`` are the neighbouring finite magnitudes.

    * 0 -> 0x00; NaN -> 0x80 (0x00 with ``sat``); +-inf and |x| > 32768 (checked before
      rounding) -> 0x6F / 0xEF, or 0x6E / 0xEE with ``sat``.
    * Nearest modes pick the nearer of ``lo``/``hi``; a tie goes to the even code (RNE),
      the larger magnitude (RNA) or the larger value (RHB: ``hi`` for x > 0, ``lo`` for
      x < 0). RTZ gives ``lo``; RTP/RTM give ``hi``/``lo`` for x > 0 and the reverse for
      x < 0; RTO gives ``lo`` and, when inexact with an even code, the nearest larger
      magnitude with an odd code.
    * A result of magnitude 0 is 0x00 whatever the sign of x (HiF8 has no -0).
    """
    v = np.asarray(v, np.float64)
    nan = np.isnan(v)
    neg = v < 0
    mag = np.where(nan, 0.0, np.abs(v))
    over = mag > HIF8_MAX  # includes inf
    m = np.where(over, 0.0, mag)
    vals = _HIF8_VALS
    lo = np.searchsorted(vals, m, side="right") - 1  # vals[lo] <= m
    exact = vals[lo] == m
    hi = np.where(exact, lo, np.minimum(lo + 1, len(vals) - 1))
    if mode in (0, 1, 5, 7):
        d_lo, d_hi = m - vals[lo], vals[hi] - m  # exact: both are short dyadic numbers
        if mode in (0, 1):
            tie_hi = (_HIF8_CODES[hi] & 1) == 0
        elif mode == 5:
            tie_hi = np.ones(m.shape, bool)
        else:
            tie_hi = ~neg
        pick = np.where(d_lo < d_hi, lo, np.where(d_hi < d_lo, hi, np.where(tie_hi, hi, lo)))
    elif mode in (2, 6):
        pick = lo
        if mode == 6:
            bump = ~exact & ((_HIF8_CODES[lo] & 1) == 0) & (_HIF8_NEXT_ODD[lo] >= 0)
            pick = np.where(bump, _HIF8_NEXT_ODD[lo], lo)
    elif mode in (3, 4):
        up = neg if mode == 3 else ~neg  # RTM rounds a negative magnitude up
        pick = np.where(up, hi, lo)
    else:
        raise ValueError(mode)
    code = _HIF8_CODES[pick]
    code = np.where(neg & (code != 0), code | np.uint8(0x80), code)
    if over.any():
        big = np.where(neg, HIF8_NEG_MAX, HIF8_POS_MAX) if sat else np.where(
            neg, HIF8_NEG_INF, HIF8_POS_INF)
        code = np.where(over, big, code)
    if nan.any():
        code = np.where(nan, 0x00 if sat else HIF8_NAN, code)
    return code.astype(np.uint8)


def decode_hif8(codes: np.ndarray) -> np.ndarray:
    """float64 values of HiF8 codes (0x80 NaN, 0x6F / 0xEF +-inf; :mod:`.mx`)."""
    return mx.value_lut(T.HIF8)[np.asarray(codes, np.uint8)]


def round_fp32_accumulator(exact: np.ndarray, sat: bool) -> np.ndarray:
    """Round float64 sums once to FP32 (RNE); overflow -> +-inf, or +-max when Sat=1 (D5)."""
    with np.errstate(over="ignore"):
        r = exact.astype(np.float32)
    if sat:
        ovf = np.isinf(r) & np.isfinite(exact)
        if ovf.any():
            r = np.where(ovf, np.copysign(np.finfo(np.float32).max, exact), r).astype(np.float32)
    return r


# -- parameter words (PTO-SPEC 3.3 BundleFPATRQuantParameterWordLegal) --------------------
def fp19_value(bits19: np.ndarray) -> np.ndarray:
    """FP19 (1 sign, 8 exponent, 10 mantissa bits: the top 19 bits of an FP32) as float64."""
    b = (np.asarray(bits19, dtype=np.uint64) & np.uint64(0x7FFFF)) << np.uint64(13)
    return b.astype(np.uint32).view(np.float32).astype(np.float64)


def fp19_bits(value: float) -> int:
    """The FP19 encoding of ``value`` (which must be exact in FP19)."""
    b = int(np.array(value, np.float32).view(np.uint32))
    if b & 0x1FFF:
        raise ValueError(f"{value!r} is not representable in FP19")
    return b >> 13


def quant_param_word(scale: float, offset: int = 0, offset_bits: int = 0) -> int:
    """Build a 64-bit quant parameter word: FP19 scale in [31:13], signed offset at [37+w-1:37]."""
    word = fp19_bits(scale) << 13
    if offset_bits:
        lo, hi = -(1 << (offset_bits - 1)), (1 << (offset_bits - 1)) - 1
        if not lo <= offset <= hi:
            raise ValueError(f"offset {offset} does not fit {offset_bits} signed bits")
        word |= (offset & ((1 << offset_bits) - 1)) << 37
    elif offset:
        raise ValueError("an offset needs offset_bits")
    return word


def lrelu_param_word(slope: float) -> int:
    """Build an LReLU/PReLU parameter word: FP19 in bits [18:0]."""
    return fp19_bits(slope)


def _words(x, n: int | None, what: str, op: str = OP) -> np.ndarray:
    if isinstance(x, (int, np.integer)):
        if not 0 <= int(x) < 1 << 64:
            raise PTOFault(FaultKind.TILE_LEGALITY, f"{what} {x} is not a 64-bit word", op)
        return np.array([int(x)], dtype=np.uint64)
    a = np.asarray(x)
    if a.dtype.kind not in "ui":
        raise PTOFault(FaultKind.TILE_LEGALITY, f"{what} must hold U64 words, not {a.dtype}", op)
    if n is not None and a.shape not in ((1, n), (n,)):
        raise PTOFault(
            FaultKind.TILE_LEGALITY, f"{what} must be a 1x{n} U64 tile, got shape {a.shape}", op
        )
    if a.dtype.kind == "i" and (a < 0).any():
        raise PTOFault(FaultKind.TILE_LEGALITY, f"{what} holds negative words", op)
    return a.reshape(-1).astype(np.uint64)


def _positive_normal(bits19: np.ndarray) -> np.ndarray:
    exp = (bits19 >> np.uint64(10)) & np.uint64(0xFF)
    return ((bits19 >> np.uint64(18)) == 0) & (exp != 0) & (exp != 0xFF)


def decode_quant_words(words: np.ndarray, offset_bits: int, what: str, op: str = OP):
    """(scale float64, offset int64) per word; faults on illegal words (PTO-SPEC 3.3)."""
    allowed = np.uint64(0xFFFFE000)
    if offset_bits:
        allowed |= np.uint64(((1 << offset_bits) - 1) << 37)
    if (words & ~allowed).any():
        raise PTOFault(
            FaultKind.TILE_LEGALITY,
            f"{what}: bits outside the FP19 scale [31:13] and the {offset_bits}-bit offset "
            "field must be 0",
            op,
        )
    bits19 = (words >> np.uint64(13)) & np.uint64(0x7FFFF)
    if not _positive_normal(bits19).all():
        raise PTOFault(FaultKind.TILE_LEGALITY, f"{what}: the FP19 scale must be positive normal", op)
    offset = np.zeros(words.shape, np.int64)
    if offset_bits:
        raw = ((words >> np.uint64(37)) & np.uint64((1 << offset_bits) - 1)).astype(np.int64)
        offset = np.where(raw >= 1 << (offset_bits - 1), raw - (1 << offset_bits), raw)
    return fp19_value(bits19), offset


def decode_relu_words(words: np.ndarray, what: str, op: str = OP) -> np.ndarray:
    """LReLU/PReLU slopes: FP19 in [18:0], +0 or positive normal, higher bits 0."""
    if (words >> np.uint64(19)).any():
        raise PTOFault(FaultKind.TILE_LEGALITY, f"{what}: bits above [18:0] must be 0", op)
    if not ((words == 0) | _positive_normal(words)).all():
        raise PTOFault(
            FaultKind.TILE_LEGALITY, f"{what}: the FP19 slope must be +0 or positive normal", op
        )
    return fp19_value(words)


@dataclass(frozen=True)
class PostParams:
    """Validated post-processing parameters, broadcast over N columns."""

    out_type: TileDataType
    mode: int  # effective rounding mode code
    sat: bool
    scale: np.ndarray | float
    offset: np.ndarray | int
    offset_bits: int
    relu: int
    slope: np.ndarray | float
    identity: bool
    shift: np.ndarray | int = 0
    """ASR amount 1..16 of the shift modes 12/13 (0 = not a shift mode)."""


def decode_shift_words(words: np.ndarray, what: str, op: str = OP) -> np.ndarray:
    """Shift amounts (code + 1) from bits [35:32]; every other bit must be 0 (PTO-SPEC 3.3)."""
    if (words & ~np.uint64(0xF << 32)).any():
        raise PTOFault(
            FaultKind.TILE_LEGALITY, f"{what}: only the shift code bits [35:32] may be set", op
        )
    return ((words >> np.uint64(32)) & np.uint64(0xF)).astype(np.int64) + 1


def validate(
    fpatr: Fpatr, n: int, rmode: int, sat: bool, quant, prelu, quant_scalar, lrelu_scalar,
    row_max_in, *, acc: TileDataType = T.FP32, op: str = OP,
) -> PostParams:
    """Check B.FPATR's PreQuantMode/ReluMode and their parameters against the accumulator
    type ``acc`` (FP32, S32 or U32; ``BundleFPATRAccumulatorTypeLegal`` in
    ``asl/block/attributes/B.FPATR.asl``) and the RMode/Sat cross-rules (D11, PTO-SPEC 3.2,
    3.3); fault if illegal. The Fpatr type and the Trans/CScaleEn rules belong to the
    caller (``cube._check_fpatr``)."""
    bad = fpatr.reserved_values()
    if bad:
        raise PTOFault(FaultKind.ILLEGAL_INSTRUCTION, "B.FPATR: " + "; ".join(bad), op)
    errs = fpatr.consistency_errors()
    code = fpatr.pre_quant_mode
    m = PRE_QUANT_MODES[code]
    if m.acc is not None and m.acc is not acc:
        errs.append(
            f"PreQuantMode {code} ({m.name}) needs an {m.acc.asm} accumulator; "
            f"this operation accumulates in {acc.asm}"
        )
    if errs:
        raise PTOFault(FaultKind.TILE_LEGALITY, "B.FPATR: " + "; ".join(errs), op)
    shift_mode = m.op is QuantOp.SHIFT
    if shift_mode and (rmode or sat):  # PreQuantMode 0 accepts any (D11, TMATMUL-EXEC-001)
        raise PTOFault(
            FaultKind.TILE_LEGALITY, f"PreQuantMode {code} requires RMode = 0 and Sat = 0", op
        )
    if m.fixed_rounding and rmode:
        raise PTOFault(
            FaultKind.TILE_LEGALITY, f"PreQuantMode {code} fixes its rounding: RMode must be 0", op
        )
    out = acc if m.out is None else m.out
    eff = {"rne": 1, "rhb": 7}.get(m.fixed_rounding or "", rmode)

    # the parameter operands selected by B.FPATR, and no others
    wants_v = m.param is ParamKind.VECTOR
    wants_s = m.param is ParamKind.SCALAR
    relu = fpatr.relu_mode
    for name, given, wanted in (
        ("quant", quant, wants_v),
        ("quant_scalar", quant_scalar, wants_s),
        ("prelu", prelu, relu == ReluMode.VECTOR_PRELU.value),
        ("lrelu_scalar", lrelu_scalar, relu == ReluMode.SCALAR_LRELU.value),
        ("row_max_in", row_max_in, bool(fpatr.row_max_en and fpatr.row_max_init)),
    ):
        if wanted and given is None:
            raise PTOFault(FaultKind.TILE_LEGALITY, f"B.FPATR selects {name}, which is missing", op)
        if not wanted and given is not None:
            raise PTOFault(
                FaultKind.TILE_LEGALITY, f"{name} is given but B.FPATR does not select it", op
            )
    scale: np.ndarray | float = 1.0
    offset: np.ndarray | int = 0
    shift: np.ndarray | int = 0
    if wants_v or wants_s:
        words = _words(quant if wants_v else quant_scalar, n if wants_v else None, "quant", op)
        if shift_mode:
            sh = decode_shift_words(words, "shift parameter", op)
            shift = sh if wants_v else int(sh[0])
        else:
            s, o = decode_quant_words(words, m.offset_bits, "quant parameter", op)
            scale, offset = (s, o) if wants_v else (float(s[0]), int(o[0]))
    slope: np.ndarray | float = 0.0
    if relu == ReluMode.VECTOR_PRELU.value:
        slope = decode_relu_words(_words(prelu, n, "prelu", op), "prelu parameter", op)
    elif relu == ReluMode.SCALAR_LRELU.value:
        slope = float(
            decode_relu_words(_words(lrelu_scalar, None, "lrelu_scalar", op), "lrelu", op)[0]
        )
    identity = code == 0 and (relu == 0 or acc is T.U32)  # a U32 value is never negative
    return PostParams(
        out, eff, bool(sat), scale, offset, m.offset_bits, relu, slope, identity, shift
    )


INT_OUT: dict[TileDataType, tuple[int, int, np.dtype]] = {
    T.S4X2: (-8, 7, np.dtype(np.int8)),  # one signed 4-bit value per int8 element
    T.S8: (-128, 127, np.dtype(np.int8)),
    T.S16: (-(1 << 15), (1 << 15) - 1, np.dtype(np.int16)),
    T.S32: (-(1 << 31), (1 << 31) - 1, np.dtype(np.int32)),
    T.U32: (0, (1 << 32) - 1, np.dtype(np.uint32)),
}
"""Integer D types: (min, max, numpy dtype). Sat=0 wraps into the range (NormalizeTileInteger)."""


def classify(acc: np.ndarray, p: PostParams):
    """``(x, nan, neg, inf, mult, killed)`` of an accumulator array: its float64 values, the
    NaN / negative (``MatrixValueClassNegative``: -0 and -inf included) / infinite masks, the
    selected multiplier (``MatrixSelectedMultiplier``) and the -inf elements whose multiplier
    is 0 (they post-process as 0, not as a special value)."""
    with np.errstate(invalid="ignore"):  # a signalling NaN accumulator converts quietly
        x = acc.astype(np.float64)
    nan = np.isnan(x)
    neg = np.signbit(x) & ~nan
    if p.relu == 0:
        mult = np.broadcast_to(np.asarray(p.scale, np.float64), x.shape)
    else:
        neg_mult = 0.0 if p.relu == ReluMode.RELU.value else p.slope
        mult = np.where(neg, neg_mult, p.scale)
    inf = np.isinf(x)
    return x, nan, neg, inf, mult, inf & neg & (mult == 0)


def apply(acc: np.ndarray, p: PostParams) -> np.ndarray:
    """Post-process an accumulator array (FP32, or S32/U32 values in int32/uint32/int64)
    into the output dtype, elementwise with parameters broadcast over the last axis
    (``MatrixPostQuantBaseWithFlags``, ``asl/arch/profile/matrix-postprocess.asl``)."""
    if p.identity:
        return acc.copy()
    if acc.dtype.kind in "iu" and np.any(p.shift):
        # shift modes 12/13: ASR of the S32 value, then S16 saturation (Sat is 0); the ASL
        # returns before ReLU (MatrixShiftS32ToS16 in matrix-quantization.asl)
        sh = np.asarray(acc, np.int64) >> np.asarray(p.shift, np.int64)
        return np.clip(sh, -(1 << 15), (1 << 15) - 1).astype(np.int16)
    x, nan, neg, inf, mult, killed_ninf = classify(acc, p)
    special = nan | (inf & ~killed_ninf)
    xs = np.where(special | killed_ninf, 0.0, x)
    act = xs * mult  # exact: FP32 (or S32) x FP19 fits in float64
    if p.out_type in INT_OUT:
        lo, hi, dt = INT_OUT[p.out_type]
        # float64 integers throughout (exact: |act| may exceed 2^63, e.g. 1e19, which an
        # int64 cannot hold); ReferenceMatrixIntegerEncoding / MatrixQuantizedAffine
        val = round_to_integer(act, p.mode)
        if p.offset_bits:
            half = 1 << (p.offset_bits - 1)
            val = np.clip(val, -half, half - 1)  # the S5/S9/S17 intermediate saturates
        val = val + np.asarray(p.offset, np.float64)  # exact: the offset is 0 or small
        if p.sat:
            val = np.clip(val, lo, hi)
        else:  # NormalizeTileInteger: the exact integer modulo 2^width (np.mod is exact)
            span = float(hi - lo + 1)
            val = np.mod(val, span)
            if lo < 0:
                val = np.where(val > hi, val - span, val)
        val = val.astype(np.int64)
        if special.any():
            pos_inf = inf & ~neg
            if p.sat:
                sp = np.where(nan, 0, np.where(pos_inf, hi, lo))
            else:
                sp = np.full(x.shape, lo)
            val = np.where(special, sp, val)
        return val.astype(dt)
    if p.out_type is T.HIF8:
        # NaN / +-inf sources (MatrixPostQuantSpecialValue) behave as encode_hif8 does for
        # them; a -0 source gives 0x00 (no -0); the offset width is 0 for modes 25 / 28
        act = np.where(special, x, act)
        return encode_hif8(act + np.asarray(p.offset, np.float64), p.mode, p.sat)
    # float output: the offset width is 0 for every float-output mode
    out = encode_float(act + np.asarray(p.offset, np.float64), p.out_type, p.mode, p.sat)
    negzero = (x == 0) & neg & (mult != 0) & (np.asarray(p.offset) == 0)
    if negzero.any():
        out = np.where(negzero, np.array(-0.0, out.dtype), out)
    if special.any():
        fmt = FLOAT_OUT[p.out_type]
        if p.sat:
            sp = np.where(nan, 0.0, np.copysign(fmt.max_finite, x))
        else:
            sp = np.where(nan, np.nan, x if fmt.has_inf else np.nan)
        with np.errstate(over="ignore"):  # the ordinary elements' x is discarded below
            out = np.where(special, sp.astype(out.dtype), out)
    return out.astype(FLOAT_OUT[p.out_type].dtype)


def _max_reduce(v: np.ndarray, axis: int) -> np.ndarray:
    """Max over ``axis`` with TMAX's NaN rule (``TileProfileMatrixReductionStepWithFlags`` ->
    ``TileReductionStepWithFlags`` MAX -> ``HardwareNumericMinMaxSpecial``): a NaN operand
    yields the other operand, so NaNs are skipped and only an all-NaN set gives the
    canonical NaN; max(+0, -0) = +0, so a zero maximum is -0 only when no +0 takes part.
    Integers: the plain maximum."""
    if v.dtype.kind != "f":
        return np.maximum.reduce(v, axis=axis)
    nan = np.isnan(v)
    r = np.maximum.reduce(np.where(nan, -np.inf, v), axis=axis)  # never touches a NaN
    r = np.where(nan.all(axis=axis), np.nan, r)  # np.nan is the canonical quiet NaN
    plus_zero = ((v == 0) & ~np.signbit(v)).any(axis=axis)
    return np.where(r == 0, np.where(plus_zero, 0.0, -0.0), r).astype(v.dtype)


def _abs(acc: np.ndarray) -> np.ndarray:
    """|x| for MaxAbsEn: unsigned unchanged, |S32 INT_MIN| saturates to INT_MAX
    (``MatrixReductionAbsoluteWithFlags``)."""
    if acc.dtype.kind == "u":
        return acc
    if acc.dtype == np.int32:
        return np.minimum(np.abs(acc.astype(np.int64)), (1 << 31) - 1).astype(np.int32)
    return np.abs(acc)


def reductions(acc: np.ndarray, fpatr: Fpatr, row_max_in) -> list[np.ndarray]:
    """RowMax (M x 1) and GroupMax (M x ceil(N/GroupN)) of the raw accumulator (M x N, or
    one row as a 1-D array): FP32, S32/U32, or int64 raw words in the raw-carrier profile."""
    outs: list[np.ndarray] = []
    v2 = acc.reshape(1, -1) if acc.ndim == 1 else acc
    v = _abs(v2) if fpatr.max_abs_en else v2
    m = v.shape[0]
    if fpatr.row_max_en:
        r = _max_reduce(v, 1)
        if fpatr.row_max_init:
            rin = np.asarray(row_max_in).reshape(m)
            if fpatr.max_abs_en:
                rin = _abs(rin)
            r = _max_reduce(np.stack([np.asarray(rin, v.dtype), r]), 0)
        outs.append(np.asarray(r, acc.dtype).reshape(m, 1))
    if fpatr.group_max_en:
        g = fpatr.group_n
        n = v.shape[1]
        ng = -(-n // g)
        low = np.nan if v.dtype.kind == "f" else np.iinfo(v.dtype).min  # NaN is skipped
        padded = np.full((m, ng * g), low, v.dtype)
        padded[:, :n] = v
        outs.append(_max_reduce(padded.reshape(m, ng, g), 2).reshape(m, ng))
    return outs
