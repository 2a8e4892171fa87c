"""Binary elementwise tile kernels, one generic function driven by a per-op row.

A :class:`BinaryRow` names the numpy operation for integers and for floats, the default
and opt-in (wide) type sets, and whether an integer zero in the second operand's valid
rectangle is a fault. TREM is the first row; a sibling such as TFMOD is one more row.

Public API::

    trem(dividend, divisor, *, dtype=None, valid=None, pad="null", wide_types=False)
        -> ndarray                      # operands' shape and dtype
    trem_tile(dividend, divisor, valid, pad, dtype, *, wide_types=False)
        -> (payload, defined)           # physical arrays, for the tile interpreter

TREM semantics (PTO-SPEC 5, D6-D9):

* Types (D6 revised): ASL's TileVecArithmeticDataTypeSupported: FP64, FP32, TF32, HF32,
  FP16, BF16, E4M3, E5M2, S64, S32, S16, S8, U64, U32, U16, U8 (TF32/HF32 as below).
  ``wide_types`` is kept for compatibility and has no effect any more.
* Integers (D8): signed floor modulo (the result has the divisor's sign), INT_MIN rem -1
  = 0, unsigned ordinary remainder; an integer zero anywhere in the divisor's valid
  rectangle is a TileLegality fault raised before any computation; padding is never read.
* Floats (D7): ``np.mod`` (fmod, then + divisor when a nonzero remainder's sign differs,
  rounded once), then zero results take the dividend's sign: -4.0 rem 2.0 = -0.0,
  4.0 rem -2.0 = +0.0. A +-0 divisor gives NaN (no fault, no warning); x rem +-inf = x when
  the signs agree and +-inf when they differ; inf rem y = NaN. FP16, BF16, E4M3 and E5M2
  are computed in float32 and rounded once back: correctly rounded because float32 has at
  least 2p+2 bits for each (NUMERICS.md 4). FP16, E4M3 and E5M2 skip libm's scalar fmod:
  their quotients stay below 2^40, so a float64 floor quotient with one correction step
  gives the same remainder exactly; FP32 (and BF16) quotients within [2^-26, 2^28)
  likewise (:func:`_blocked_floor_mod`), the others through ``np.mod``.
* Operands stay in the tile dtype (NumPy 2 NEP 50 promotion traps). Inputs are never
  modified.
* Padding (D9) with PadValue ``pad`` outside the valid rectangle (:mod:`.padding`).

The siblings (rows of ``BINARY_ROWS``; ``binary_tile(BINARY_ROWS["TADD"], ...)``) follow
``asl/tile/model/execution/elementwise.asl`` (TileProfileBinaryWithFlags,
TileIntegerBinaryValue, TileIntegerDivRemValue) and ``asl/tile/elementwise-tile-tile/
arithmetic/T{ADD,SUB,MUL,MAX,MIN}.asl``, ``transcendental/TDIV.asl``:

* Types: every one accepts ``TileVecArithmeticDataTypeSupported`` (FP64, FP32, TF32, HF32,
  FP16, BF16, E4M3, E5M2, S64, S32, S16, S8, U64, U32, U16, U8) via
  ``TileBinaryDataTypeSupported``.
* Integers: TADD/TSUB/TMUL wrap to the element width (``NormalizeTileInteger``); TMAX/TMIN
  order by signedness; TDIV truncates toward zero (``ScalarDivideSigned``), INT_MIN / -1
  wraps to INT_MIN, unsigned divides; an integer zero in the divisor's valid rectangle is
  a TileLegality fault before any effect (``TilePayloadNonzero`` in operand-schema.asl).
* Floats: IEEE with the default control's RNE (``DefaultNumericExecutionControl``,
  asl/arch/data-types/rounding.asl); FP16/BF16/E4M3/E5M2 are computed in float32 and rounded
  once (correct for + - * / since float32 has >= 2p+2 bits); a float zero divisor gives
  +-inf or NaN; E4M3 overflow is NaN (no inf); a NaN created by an invalid operation is
  the format's canonical quiet NaN (``TileNumericCanonicalNaN``), never x86's negative
  default NaN. TMAX/TMIN: ``HardwareNumericMinMaxSpecial`` (one NaN, quiet or signalling
  -> the other operand, both -> canonical NaN, max(+0,-0) = +0, min = -0).
  Numeric status flags: the tile-tile ops record none (``ExecuteTileBinary`` discards them);
  the tile-scalar forms record them (:mod:`.status`).
* TF32 / HF32 (``asl/arch/data-types/formats/tf32.asl``, ``hf32.asl``): float32 carriers
  (``interpreter/ssa/runtime.py`` storage_dtype) whose low 13 / 12 bits must be 0
  (``TF32EncodingValid`` / ``HF32EncodingValid``). Only TMAX / TMIN check the encodings, as
  ``TileOperandsLegal_ExecuteTileBinary`` (``asl/tile/model/legality/operand-schema.asl``)
  does for MAX / MIN: a source element in the valid rectangle with a low bit set is a
  TileLegality fault before any effect (``TileSourceEncodingsValid``); the other ops take
  the carrier's value as it is and round the result to the format. The formats are IEEE-like: 8-bit
  exponent (bias 127, FP32's range), 10 / 11 fraction bits, subnormals (fraction x 2^-136 /
  2^-137), signed zeros, inf, NaN (canonical 0x7FC00000). The ASL reference profile leaves
  the arithmetic open (``ScalarFPBinaryProfile`` in ``asl/arch/profile/reference-profile.asl``
  works on raw words); as for FP16/BF16 this interpreter computes the IEEE result with the
  default control's RNE (``DefaultNumericExecutionControl``): the exact inputs are combined
  in float64 (correctly rounded, and float64 has >= 2p+2 bits for p = 11 / 12, so the second
  rounding is innocuous), then rounded once to the format with RNE
  (:func:`round_to_narrow_fp32`): overflow gives +-inf, an underflow keeps the sign, and
  every NaN result is the canonical 0x7FC00000. The result stays a float32 carrier with its
  low bits zero. TREM on TF32/HF32 follows D7 the same way; TMAX/TMIN select an operand.
* TAND / TOR / TXOR (``logical/T{AND,OR,XOR}.asl``): element-width bitwise AND / OR / XOR;
  signedness does not change the bits (``TileIntegerBinaryValue``). Types: only
  ``TileVecScalarIntegerDataTypeSupported`` (S64 S32 S16 S8 U64 U32 U16 U8,
  ``asl/tile/model/legality/dtype-layout.asl``); floats and packed types are TileLegality.
* TFMOD is not a row: ``spec/catalog/tile-operations.json`` lists TFMOD and TFMODS in
  ``deleted_names`` (also ``asl/tile/model/dispatch/top-level.asl``), its former selector
  0x018 (Mode 0, Function 24) is in the reserved TEPL range 0x018-0x019, and
  ``spec/evidence/pto-isa-0583-encoding-totality.json`` expects it to reject.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.families import OP_OF_MNEMONIC
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import valid_shape_error

from .nanfix import has_nan, replace_where
from .padding import all_defined, pad_tile, parse_pad

T = TileDataType

_FROM_NUMPY: dict[np.dtype, TileDataType] = {
    np.dtype(np.float64): T.FP64,
    np.dtype(np.float32): T.FP32,
    np.dtype(np.float16): T.FP16,
    np.dtype(ml_dtypes.bfloat16): T.BF16,
    np.dtype(ml_dtypes.float8_e4m3fn): T.E4M3,
    np.dtype(ml_dtypes.float8_e5m2): T.E5M2,
    np.dtype(np.int64): T.S64,
    np.dtype(np.int32): T.S32,
    np.dtype(np.int16): T.S16,
    np.dtype(np.int8): T.S8,
    np.dtype(np.uint64): T.U64,
    np.dtype(np.uint32): T.U32,
    np.dtype(np.uint16): T.U16,
    np.dtype(np.uint8): T.U8,
}

_COMPUTE_IN_F32 = frozenset({T.FP16, T.BF16, T.E4M3, T.E5M2})
NARROW_FP32: dict[TileDataType, int] = {T.TF32: 10, T.HF32: 11}
"""TF32 / HF32 as FP32 subsets (tf32.asl / hf32.asl): their fraction bits; FP32's exponent
range, so the largest finite value is (2 - 2^-f) * 2^127."""
LOW_ZERO_MASK = {T.TF32: np.uint32(0x1FFF), T.HF32: np.uint32(0x0FFF)}
"""``required_low_zero_bits`` of TF32 (13) and HF32 (12) as carrier masks."""


def round_to_narrow_fp32(v: np.ndarray, t: TileDataType | None, mbits: int | None = None) -> np.ndarray:
    """Round float64 ``v`` once to TF32 / HF32 with RNE: float32 carriers, low bits zero.

    Finite values go to the nearest value with 10 / 11 fraction bits in FP32's exponent
    range (subnormal step 2^-136 / 2^-137), ties to even; a result beyond the largest
    finite value (|v| >= max + half an ulp) is +-inf; zeros keep their sign; NaN becomes
    the canonical 0x7FC00000 (``TF32CanonicalNaN`` / ``HF32CanonicalNaN``)."""
    f = NARROW_FP32[t] if mbits is None else mbits  # mbits=7: BF16 (same exponents)
    v = np.asarray(v, np.float64)
    s = np.uint64(52 - f)  # float64 fraction bits dropped
    bits = v.view(np.uint64)
    # RNE on the float64 pattern: add half an ulp minus 1, plus the kept lsb, then clear the
    # dropped bits; a carry moves into the exponent, and >= 2^128 becomes inf in float32
    half = np.uint64((1 << (52 - f - 1)) - 1)
    r = ((bits + half + ((bits >> s) & np.uint64(1))) >> s << s).view(np.float64)
    tiny = np.abs(v) < 2.0**-126
    if tiny.any():
        # below FP32's normal range the step is 2^(-126-f): one RNE rounding by adding and
        # removing a magic constant whose float64 ulp is that step
        magic = np.copysign(2.0 ** (52 - 126 - f), v)
        r = np.where(tiny, np.copysign((v + magic) - magic, v), r)
    with np.errstate(over="ignore"):
        out = r.astype(np.float32)
    return np.where(np.isnan(v), np.float32(np.nan), out)


def _float_floor_mod(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """D7 floor modulo on one float dtype: np.mod, then zero results get a's sign."""
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.mod(a, b)
    np.copysign(r, a, out=r, where=r == 0)
    return r


_BOUNDED_QUOTIENT = frozenset({T.FP16, T.E4M3, T.E5M2})
"""Float types whose finite values have at most 11 significant bits and a quotient range
below 2^40 (FP16: 65504 / 2^-24): for them every quotient takes :func:`_blocked_floor_mod`."""

_MOD_BLOCK = 1 << 15
"""Elements per block of :func:`_blocked_floor_mod`: its float64 temporaries stay in cache."""

_FP32_RATIO_WINDOW = (2.0**-26, 2.0**28)
"""FP32 quotients |a / b| in this window (or a = 0) take :func:`_blocked_floor_mod`."""


def _blocked_floor_mod(a: np.ndarray, b: np.ndarray, windowed: bool) -> np.ndarray:
    """:func:`_float_floor_mod` of float32 arrays, bit for bit, without libm's scalar fmod:
    per block in float64, ``q = floor(a / b)`` is the floor quotient or one off,
    ``r = a - q b`` is exact, and one step corrects q (r takes the divisor's sign and
    |r| < |b|); r is then the exact floor remainder, rounded once to float32 as
    ``np.mod``'s ``fmod + b`` is.

    Exactness: q b is exact when q (below 2^28, or 2^40 for 11-bit values) times the
    divisor's significand fits 53 bits; a and q b lie on the grid of the finer of their
    units and |r| < 2 |b|, which spans fewer than 2^53 units when the computed |a / b| is
    at least 2^-26 (then a's exponent is at least b's minus 27, so a's unit is at least
    2^-51 |b|) or when both are ``_BOUNDED_QUOTIENT`` values (2^-24 grid, |b| below 2^16);
    the division's error (below 2^-12 at these quotients) moves q by at most one. ``windowed``: FP32 values, whose quotients outside ``_FP32_RATIO_WINDOW`` (and
    a != 0) go through :func:`_float_floor_mod` itself; without it (11-bit values) all do.
    Non-finite operands and zero divisors always do."""
    a, b = np.broadcast_arrays(a, b)
    fa, fb = a.reshape(-1), b.reshape(-1)  # (a copy where an operand is broadcast)
    out = np.empty(fa.shape, np.float32)
    n = fa.size
    blk = min(n, _MOD_BLOCK)
    x, y, q, t = (np.empty(blk) for _ in range(4))
    wrong, keep = np.empty(blk, bool), np.empty(blk, bool)
    slow = []  # (windowed) indices outside the window
    lo, hi = _FP32_RATIO_WINDOW
    with np.errstate(all="ignore"):
        for i in range(0, n, blk):
            j = min(n, i + blk)
            w = j - i
            xa, yb, qq, tt, bad, ok = x[:w], y[:w], q[:w], t[:w], wrong[:w], keep[:w]
            np.copyto(xa, fa[i:j])
            np.copyto(yb, fb[i:j])
            np.divide(xa, yb, out=qq)
            if windowed:
                np.abs(qq, out=tt)
                np.less(tt, hi, out=ok)
                np.greater_equal(tt, lo, out=bad)
                np.logical_or(bad, xa == 0, out=bad)
                np.logical_and(ok, bad, out=ok)
                if not ok.all():
                    slow.append(np.flatnonzero(~ok) + i)
            np.floor(qq, out=qq)
            np.multiply(qq, yb, out=qq)
            np.subtract(xa, qq, out=xa)  # r, exact
            # q one too large: r nonzero with the sign opposite to b's
            np.multiply(xa, yb, out=tt)
            np.less(tt, 0, out=bad)
            np.add(xa, yb, out=xa, where=bad)
            # q one too small: |r| >= |b| (r has b's sign)
            np.abs(xa, out=tt)
            np.greater_equal(tt, np.abs(yb), out=bad)
            np.subtract(xa, yb, out=xa, where=bad)
            np.copyto(out[i:j], xa)  # one rounding to float32
    np.copysign(out, fa, out=out, where=out == 0)
    special = ~(np.isfinite(fa) & np.isfinite(fb)) | (fb == 0)
    if slow:
        special[np.concatenate(slow)] = True
    if special.any():
        out[special] = _float_floor_mod(fa[special], fb[special])
    return out.reshape(a.shape)


def _trem_float(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """D7 floor modulo: FP32 (and BF16, FP8, FP16 computed in FP32) by
    :func:`_blocked_floor_mod`, FP64 by :func:`_float_floor_mod`."""
    if a.dtype == np.float32 and b.dtype == np.float32:
        return _blocked_floor_mod(a, b, windowed=True)
    return _float_floor_mod(a, b)


def _bounded_trem_float(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:func:`_trem_float` of FP32 arrays holding ``_BOUNDED_QUOTIENT`` values."""
    return _blocked_floor_mod(a, b, windowed=False)


def _int_floor_mod(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """D8: np.mod is floor modulo for signed ints (INT_MIN % -1 = 0), remainder for unsigned."""
    return np.mod(a, b)


@dataclass(frozen=True)
class BinaryRow:
    """One binary elementwise op: its numpy kernels and legality facts."""

    mnemonic: str
    int_op: Callable[[np.ndarray, np.ndarray], np.ndarray]
    float_op: Callable[[np.ndarray, np.ndarray], np.ndarray]
    types: frozenset[TileDataType]
    wide_types: frozenset[TileDataType]
    int_zero_rhs_faults: bool
    rhs_name: str = "divisor"
    checks_encodings: bool = False
    """Floating source encodings are checked (TF32/HF32 low bits): only MAX and MIN
    (``TileOperandsLegal_ExecuteTileBinary`` in asl/tile/model/legality/operand-schema.asl)."""
    bounded_float_op: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    """``float_op`` (same bits) for float32 arrays of ``_BOUNDED_QUOTIENT`` values, or None."""
    nan_with: Callable[[float], bool] = lambda s: True  # noqa: E731
    """Whether a non-NaN first operand can give an invalid operation's NaN with the scalar
    second operand ``s`` (its value): False lets a tile-scalar op skip the NaN test."""


def _int_trunc_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Signed: quotient truncated toward zero, INT_MIN / -1 wraps to INT_MIN (ASL
    ScalarDivideSigned on sign-extended words, stored back at the element width).
    Unsigned: floor division. Zero divisors were rejected before (TilePayloadNonzero)."""
    with np.errstate(over="ignore", divide="ignore"):
        q = np.floor_divide(a, b)
    if a.dtype.kind == "i":
        q += ((a - q * b) != 0) & ((a < 0) != (b < 0))  # floor -> trunc; wraps like the ASL
    return q


def _float_minmax(pick: Callable, neg_zero_wins: bool) -> Callable:
    """TMAX/TMIN on floats (``HardwareNumericMinMaxSpecial``, asl/arch/features/mx-formats.asl):
    one NaN (quiet or signalling) -> the other operand, unchanged; two NaNs -> the
    canonical quiet NaN; +0/-0 -> +0 (max) / -0 (min); otherwise the larger / smaller
    operand. Selection only: NaN operands never go through numpy arithmetic (``np.fmax``
    returns a quieted signalling NaN instead of the other operand)."""

    def op(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        an, bn = np.isnan(a), np.isnan(b)
        r = np.where(an, b, np.where(bn, a, pick(np.where(an | bn, 0, a), np.where(an | bn, 0, b))))
        r[an & bn] = np.nan  # np.nan casts to the canonical quiet NaN of every PTO float
        zeros = (a == 0) & (b == 0)
        sign = (np.signbit(a) | np.signbit(b)) if neg_zero_wins else np.signbit(a) & np.signbit(b)
        return np.where(zeros, np.where(sign, -0.0, 0.0).astype(r.dtype), r)

    return op


def _shift(left: bool) -> Callable:
    """TSHL / TSHR (``logical/TSHL.asl``, ``TSHR.asl``): the count is the unsigned low
    log2(W) bits of the second operand; left shifts keep the low W bits, right shifts are
    arithmetic for signed and logical for unsigned element types."""

    def op(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        u = np.dtype(f"u{a.dtype.itemsize}")
        count = b.view(u) & u.type(a.dtype.itemsize * 8 - 1)
        if left:
            return np.left_shift(a.view(u), count).view(a.dtype)
        return np.right_shift(a, count.astype(a.dtype))

    return op


def op_types(mnemonic: str) -> frozenset[TileDataType]:
    """The element types of the op ``mnemonic``: its op class holds them (``TYPES``); kernel
    rows read them, never repeat them."""
    return OP_OF_MNEMONIC[mnemonic].TYPES


def _row(name, int_op, float_op, faults=False, rhs="second operand", encodings=False,
         nan_with=lambda s: True):
    """A binary sibling of TREM, typed by its op class (``TileVecArithmeticDataTypeSupported``,
    the integers for the bitwise ops)."""
    types = op_types(name)
    return BinaryRow(name, int_op, float_op, types, types, faults, rhs, encodings,
                     nan_with=nan_with)


# The IEEE invalid operations of + - * / (IEEE 754 7.2) with a scalar second operand s and a
# non-NaN first operand x: x + s and x - s only for an infinite s (inf - inf); x * s and
# x / s only for a zero or infinite s (0 * inf, inf * 0, 0 / 0, inf / inf). A NaN s creates
# nothing (its NaN is propagated, not created). MAX / MIN select an operand: never.
def _inf_nan(s: float) -> bool:
    return math.isinf(s)


def _zero_inf_nan(s: float) -> bool:
    return s == 0 or math.isinf(s)


TREM_ROW = BinaryRow("TREM", _int_floor_mod, _trem_float, op_types("TREM"), op_types("TREMS"), True,
                     bounded_float_op=_bounded_trem_float)

BINARY_ROWS: dict[str, BinaryRow] = {
    r.mnemonic: r
    for r in (
        TREM_ROW,
        # integers wrap (NormalizeTileInteger); floats RNE
        _row("TADD", np.add, np.add, nan_with=_inf_nan),
        _row("TSUB", np.subtract, np.subtract, nan_with=_inf_nan),
        _row("TMUL", np.multiply, np.multiply, nan_with=_zero_inf_nan),
        _row("TDIV", _int_trunc_div, np.divide, True, "divisor",  # float x/0 = IEEE inf/NaN
             nan_with=_zero_inf_nan),
        _row("TAND", np.bitwise_and, np.bitwise_and),  # integers only: float_op is never
        _row("TOR", np.bitwise_or, np.bitwise_or),  # reached
        _row("TXOR", np.bitwise_xor, np.bitwise_xor),
        _row("TSHL", _shift(True), _shift(True)),
        _row("TSHR", _shift(False), _shift(False)),
        _row("TMAX", np.maximum, _float_minmax(np.maximum, False), encodings=True,
             nan_with=lambda s: False),
        _row("TMIN", np.minimum, _float_minmax(np.minimum, True), encodings=True,
             nan_with=lambda s: False),
    )
}
"""Binary elementwise ops. TFMOD is not a row: the catalog deletes it (see the module doc)."""


def _fault(msg: str, row: BinaryRow) -> PTOFault:
    return PTOFault(FaultKind.TILE_LEGALITY, msg, row.mnemonic)


def resolve_type(row: BinaryRow, a: np.ndarray, dtype, wide: bool) -> tuple[TileDataType, np.dtype]:
    if dtype is None:
        t = _FROM_NUMPY.get(a.dtype)
        if t is None:
            raise _fault(f"operand dtype {a.dtype} is not a PTO tile type", row)
    elif isinstance(dtype, TileDataType):
        t = dtype
    else:
        try:
            t = TileDataType.from_asm(str(dtype))
        except ValueError as e:
            raise _fault(str(e), row) from None
    allowed = row.wide_types if wide else row.types
    if t not in allowed:
        extra = (
            "" if wide or t not in row.wide_types else " (it is in the wide profile: wide_types=True)"
        )
        raise _fault(f"{row.mnemonic} does not accept {t.asm} (D6){extra}", row)
    npdt = np.dtype(np.float32) if t in NARROW_FP32 else t.numpy_dtype()
    return t, npdt


def as_tile_dtype(x: np.ndarray, npdt: np.dtype, what: str, row: BinaryRow) -> np.ndarray:
    if x.dtype == npdt:
        return x
    if x.dtype.kind == "u" and x.dtype.itemsize == npdt.itemsize:
        return x.view(npdt)  # raw carriers
    raise _fault(f"{what} has dtype {x.dtype}, expected {npdt} (or raw carriers)", row)


def check_encodings(t: TileDataType, named: tuple, op: str) -> None:
    """TF32 / HF32 sources: every element's low 13 / 12 carrier bits must be zero
    (``TileSourceEncodingsValid``); otherwise Fault_TileLegality before any effect."""
    if t not in NARROW_FP32:
        return
    mask = LOW_ZERO_MASK[t]
    for x, what in named:
        bad = (np.asarray(x).view(np.uint32) & mask) != 0
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise PTOFault(
                FaultKind.TILE_LEGALITY,
                f"{what}: {t.asm} element at {idx} has nonzero low bits "
                f"(required_low_zero_bits = {int(mask).bit_length()}, {t.asm}EncodingValid)",
                op,
            )


def binary_core(
    row: BinaryRow, a: np.ndarray, b: np.ndarray, t: TileDataType
) -> np.ndarray:
    """The elementwise result on already-checked same-shape arrays of t's numpy dtype."""
    if t.is_integer:
        if row.int_zero_rhs_faults and not b.all():
            idx = tuple(int(i) for i in np.argwhere(b == 0)[0])
            raise _fault(
                f"integer zero {row.rhs_name} at valid element {idx} (D8, TilePayloadNonzero)",
                row,
            )
        return row.int_op(a, b)
    if row.checks_encodings:  # only MAX/MIN check encodings (TileOperandsLegal_ExecuteTileBinary)
        check_encodings(t, ((a, "first operand"), (b, row.rhs_name)), row.mnemonic)
    with np.errstate(all="ignore"):  # IEEE inf/NaN results are values, not faults
        if t in NARROW_FP32:
            r = row.float_op(a.astype(np.float64), b.astype(np.float64))
            return round_to_narrow_fp32(r, t)
        if t in _COMPUTE_IN_F32:  # computed and NaN-tested in FP32 (numpy's 16- and 8-bit
            # float loops are scalar), then rounded once to t (NaN stays NaN, nothing
            # finite becomes NaN)
            wide_a, wide_b = a.astype(np.float32), b.astype(np.float32)
            op = row.float_op
            if row.bounded_float_op is not None and t in _BOUNDED_QUOTIENT:
                op = row.bounded_float_op
            wide_r = op(wide_a, wide_b)
            r = wide_r.astype(a.dtype)
        else:
            wide_a, wide_b, r = a, b, row.float_op(a, b)
            wide_r = r
    # a NaN created by an invalid operation (inf - inf, 0 * inf, 0 / 0, x rem 0) is the
    # format's canonical quiet NaN (TileNumericCanonicalNaN, asl/arch/features/
    # mx-formats.asl: FP32 0x7FC00000, FP16 0x7E00, BF16 0x7FC0, E4M3 0x7F, E5M2 0x7E),
    # not the machine's default NaN (0xFFC00000 on x86)
    # fast paths: a scalar second operand with which the op's algebra creates no NaN (no
    # pass at all: row.nan_with), or no NaN in the result (one reduction), so none was created
    if wide_b.size == 1 and not row.nan_with(float(wide_b.reshape(-1)[0])):
        return r
    if not has_nan(wide_r):
        return r
    created = np.isnan(wide_r) & ~np.isnan(wide_a) & ~np.isnan(wide_b)
    if created.any():  # np.nan casts to each format's canonical NaN
        r = replace_where(r, created, np.array(np.nan).astype(r.dtype))
    return r


def binary_tile(
    row: BinaryRow,
    lhs,
    rhs,
    valid: tuple[int, int] | None,
    pad: str | int,
    dtype=None,
    *,
    wide_types: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Generic tile-level binary kernel: (payload, defined) of the destination.

    ``lhs``/``rhs`` are the physical 2-D (rows x cols) payloads (1-D is taken as one row);
    only their ``valid`` rectangle is read. Every check (type, shape, integer zero) runs
    before anything is computed (D12).
    """
    a, b = np.asarray(lhs), np.asarray(rhs)
    t, npdt = resolve_type(row, a, dtype, wide_types)
    a = as_tile_dtype(a, npdt, "first operand", row)
    b = as_tile_dtype(b, npdt, row.rhs_name, row)
    if a.shape != b.shape:
        raise _fault(f"operand shapes differ: {a.shape} vs {b.shape}", row)
    if a.ndim == 1:
        a, b = a.reshape(1, -1), b.reshape(1, -1)
    if a.ndim != 2:
        raise _fault(f"tile payloads are 2-D, got shape {a.shape}", row)
    pad = parse_pad(pad)
    rows, cols = a.shape
    vr, vc = (rows, cols) if valid is None else valid
    if why := valid_shape_error((vr, vc), (rows, cols)):
        raise _fault(why, row)
    full = vr == rows and vc == cols
    av, bv = (a, b) if full else (a[:vr, :vc], b[:vr, :vc])
    res = binary_core(row, av, bv, t)
    if full:
        return res, all_defined(res.shape)
    out = np.empty_like(a)
    out[:vr, :vc] = res
    return pad_tile(out, (vr, vc), pad, t)


def trem_tile(dividend, divisor, valid, pad="null", dtype=None, *, wide_types=False):
    """TREM at tile level: physical payloads + valid shape + PadValue -> (payload, defined)."""
    return binary_tile(TREM_ROW, dividend, divisor, valid, pad, dtype, wide_types=wide_types)


def trem(dividend, divisor, *, dtype=None, valid=None, pad="null", wide_types=False):
    """TREM on plain arrays: the floor remainder, in the operands' shape and dtype.

    ``dtype`` (a TileDataType or name) defaults to the one the arrays' dtype carries;
    unsigned-integer arrays of the same width are taken as raw carriers of ``dtype``.
    With ``valid=(vr, vc)`` only that rectangle is computed and the rest holds ``pad``.
    """
    a = np.asarray(dividend)
    res, _ = trem_tile(dividend, divisor, valid, pad, dtype, wide_types=wide_types)
    return res.reshape(a.shape) if a.ndim < 2 else res
