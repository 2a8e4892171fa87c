"""Unary elementwise tile kernels (TEPL mode 0): one generic kernel driven by a row per op.

Semantics (``asl/tile/model/execution/unary.asl``; ``asl/tile/elementwise-tile-tile/
{logical,transcendental}/T*.asl``):

* Types are the executable ASL sets (``TileUnaryDataTypeSupported``; as D6, the executable
  ASL wins over narrower contract prose): TNOT the integers (S64..U8); TABS, TNEG, TRELU
  ``TileVecArithmeticDataTypeSupported``; TEXP, TLOG, TRECIP, TSQRT, TRSQRT the floats of
  ``TileFloatingElementwiseDataTypeSupported`` (FP64 FP32 TF32 HF32 FP16 BF16 E4M3 E5M2).
* Integers (``TileIntegerUnaryValue``): ABS is signed absolute value modulo the width
  (INT_MIN stays INT_MIN), unsigned identity; NEG and NOT modulo the width; RELU clamps
  signed negatives to 0, unsigned identity.
* Floats, closed ops (``TileFloatingUnaryValue``): ABS clears and NEG flips only the sign
  bit (NaN payloads kept, no status); RELU gives +0 for every negative value and for -0,
  keeps positive values and +inf, and any NaN gives the format's canonical quiet NaN.
* Floats, SFU ops (``TileSFUUnarySpecialValue``): every NaN gives the canonical quiet NaN;
  exp(+-0) = 1, exp(+inf) = +inf, exp(-inf) = +0; log(1) = +0, log(+-0) = -inf,
  log(+inf) = +inf, log(x < 0) = NaN; recip(+-0) = +-inf, recip(+-inf) = +-0; sqrt keeps
  +-0 and +inf, sqrt(x < 0) = NaN; rsqrt(+-0) = +-inf, rsqrt(+inf) = +0, rsqrt(x < 0) = NaN.
  E4M3 has no infinity: where the result would be infinite it is the canonical NaN 0x7F
  (no saturation). Finite non-special results are profile-defined (``TileProfileUnary`` is
  ``impdef``); this interpreter's profile computes the real function in float64 and rounds
  ONCE to the format with RNE (FP32/FP16/E4M3/E5M2 by numpy/ml_dtypes casts, BF16/TF32/HF32
  by :func:`.elementwise.round_to_narrow_fp32`). For FP32 and narrower that is the correctly
  rounded result except when the float64 value (itself within one float64 ulp) lies within
  2^-29 relative of a rounding boundary; FP64 results are numpy's (faithful, < 1 ulp).
* TF32/HF32 sources must have zero low bits (``TileSourceEncodingsValid``): TileLegality.
* Numeric status flags (NV DZ OF UF NX) are recorded when requested: :mod:`.status`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pto_dialect.datatypes import TileDataType

from . import jit, status
from .elementwise import NARROW_FP32, check_encodings, op_types, round_to_narrow_fp32
from .nanfix import (
    canonical,
    canonical_word,
    const_block,
    has_nan,
    is_native,
    replace_where,
    spans,
)
from .tepl import map_valid

T = TileDataType

@dataclass(frozen=True)
class UnaryRow:
    """One unary op: integer and float numpy kernels; its type set is its op class's."""

    mnemonic: str
    int_op: Callable[[np.ndarray], np.ndarray] | None
    float_op: Callable[[np.ndarray, TileDataType], np.ndarray]

    @property
    def types(self) -> frozenset[TileDataType]:
        return op_types(self.mnemonic)

    @property
    def wide_types(self) -> frozenset[TileDataType]:
        return self.types


def _sign_bit(a: np.ndarray) -> np.ndarray:
    bits = a.dtype.itemsize * 8
    return np.array(1 << (bits - 1), np.dtype(f"u{a.dtype.itemsize}"))


def _fabs(a: np.ndarray, t: TileDataType) -> np.ndarray:
    u = np.dtype(f"u{a.dtype.itemsize}")
    return (a.view(u) & ~_sign_bit(a)).view(a.dtype)


def _fneg(a: np.ndarray, t: TileDataType) -> np.ndarray:
    u = np.dtype(f"u{a.dtype.itemsize}")
    return (a.view(u) ^ _sign_bit(a)).view(a.dtype)


def canonical_nan(r: np.ndarray) -> np.ndarray:
    """Every NaN of ``r`` (a float carrier array) as the format's canonical quiet NaN
    (numpy's / ml_dtypes' positive NaN is the canonical encoding of every PTO float type:
    FP32 0x7FC00000, FP16 0x7E00, BF16 0x7FC0, E4M3 0x7F, E5M2 0x7E, FP64 0x7FF8...).

    ``r`` may be rewritten in place (callers pass a fresh result): one reduction and, only
    when a NaN exists, a branch-free replacement on the carrier bits
    (:func:`.nanfix.canonical`)."""
    return canonical(r)


def _frelu(a: np.ndarray, t: TileDataType) -> np.ndarray:
    """RELU on the carrier words: read as signed integers of the carrier width, every word
    with the sign bit set (negative values, -0, -inf, negative NaNs) is negative and no
    other word is, so ``max(word, 0)`` gives +0 (all bits zero) for every negative value
    and for -0 and keeps positive values and +inf bit for bit; NaN sources (one reduction
    finds them) then give the canonical quiet NaN. float32 / float64 take the maximum
    block by block against a contiguous zero block (numpy's SIMD loop; a broadcast scalar
    operand takes a scalar loop)."""
    i = np.dtype(f"i{a.dtype.itemsize}")
    if is_native(a):
        r = np.empty(a.shape, a.dtype)
        src, words, zero = a.reshape(-1).view(i), r.reshape(-1).view(i), const_block(i, 0)
        for s, e in spans(words.size):
            np.maximum(src[s:e], zero[: e - s], out=words[s:e])
    else:
        r = np.maximum(a.view(i), np.zeros((), i)).view(a.dtype)
    if has_nan(a):  # NaN sources give the canonical quiet NaN
        r = replace_where(r, np.isnan(a), np.array(np.nan).astype(a.dtype))
    return r


def round_from_f64(v: np.ndarray, t: TileDataType, dtype: np.dtype) -> np.ndarray:
    """float64 values rounded once (RNE) to type ``t`` in its numpy carrier ``dtype``."""
    if t in NARROW_FP32:
        return round_to_narrow_fp32(v, t)
    if t is T.BF16:
        r = round_to_narrow_fp32(v, None, mbits=7)  # BF16: FP32's exponents, 7 fraction bits
        return r.astype(dtype)  # exact: the float32 has BF16's precision
    with np.errstate(over="ignore", invalid="ignore"):
        return v.astype(dtype)


_DIRECT_TYPES = frozenset({T.FP64, T.FP32, T.FP16})
"""Types whose numpy ufunc is already the once-rounded float64 result for a correctly
rounded operation (sqrt, division): IEEE sqrt / divide in the format itself (FP16 through
numpy's float32 loop) are correctly rounded, and rounding a float64 result again to a
format of p <= 24 bits is innocuous since 53 >= 2p + 2, so both give the same words."""


def _sfu(fn: Callable[[np.ndarray], np.ndarray], correctly_rounded: bool = False) -> Callable:
    """An SFU op computed in float64 and rounded once; ``correctly_rounded`` ops (sqrt,
    reciprocal) take the fast path in the format itself for :data:`_DIRECT_TYPES`
    (:func:`sfu_exact` keeps the float64 path for the differential tests)."""

    def exact(a: np.ndarray, t: TileDataType) -> np.ndarray:
        with np.errstate(all="ignore"):
            v = fn(a.astype(np.float64))
        return canonical_nan(round_from_f64(v, t, a.dtype))

    def op(a: np.ndarray, t: TileDataType) -> np.ndarray:
        if correctly_rounded and t in _DIRECT_TYPES:
            if fn is np.sqrt and is_native(a) and a.size:
                return _sqrt_native(a)
            with np.errstate(all="ignore"):
                return canonical_nan(fn(a))
        return exact(a, t)

    op.exact = exact  # type: ignore[attr-defined]
    return op


def _sqrt_native(a: np.ndarray) -> np.ndarray:
    """TSQRT of a C-contiguous float32 / float64 array in the format itself, every NaN the
    canonical quiet NaN, block by block (:func:`.nanfix.spans`) without a NaN mask.

    IEEE 754 squareRoot (5.4.1) gives +0 or a positive value for every operand >= +0, -0
    for -0 and a NaN otherwise, and every NaN it delivers is quiet (6.2). As unsigned
    carrier words its results are thus at most +inf's (0x7F800000), the -0 word
    (0x80000000), or NaN words with the exponent and the quiet bit set, of either sign: at
    least the canonical quiet NaN's word (0x7FC00000). In a block without a -0 source
    (-0's word is the least signed-integer word: one reduction of the block, still in
    cache) ``min(word, canonical)`` is the result with every NaN canonical and every other
    word unchanged; a block with a -0 source takes the masked rewrite (:func:`canonical_nan`),
    a block without a NaN result (one ``np.min``) nothing."""
    r = np.empty(a.shape, a.dtype)
    if jit.compiled():  # one compiled pass (numeric_jit): the same bits
        jit.numeric().sqrt_canonical(a.reshape(-1), r.reshape(-1), a.dtype.type(np.nan))
        return r
    i, u = np.dtype(f"i{a.dtype.itemsize}"), np.dtype(f"u{a.dtype.itemsize}")
    src, flat = a.reshape(-1), r.reshape(-1)
    ints, words, q = src.view(i), flat.view(u), const_block(u, canonical_word(a.dtype))
    neg_zero = np.iinfo(i).min
    with np.errstate(all="ignore"):
        for s, e in spans(flat.size):
            np.sqrt(src[s:e], out=flat[s:e])
            if not has_nan(flat[s:e]):  # the common NaN-free block: one reduction
                continue
            if np.min(ints[s:e]) == neg_zero:
                canonical_nan(flat[s:e])  # in place: a writable contiguous block
            else:
                np.minimum(words[s:e], q[: e - s], out=words[s:e])
    return r


def sfu_exact(mnemonic: str) -> Callable[[np.ndarray, TileDataType], np.ndarray]:
    """The float64-then-round path of an SFU row, without any fast path (for tests)."""
    return UNARY_ROWS[mnemonic].float_op.exact  # type: ignore[attr-defined]


def _recip(x):
    return np.divide(np.ones((), x.dtype), x)  # in x's own format (1.0 would promote FP16)


def _rsqrt(x):
    return 1.0 / np.sqrt(x)


def _int_relu(a: np.ndarray) -> np.ndarray:
    return np.maximum(a, np.zeros((), a.dtype)) if a.dtype.kind == "i" else a.copy()


def _int_abs(a: np.ndarray) -> np.ndarray:
    return np.abs(a) if a.dtype.kind == "i" else a.copy()  # INT_MIN wraps to itself


UNARY_ROWS: dict[str, UnaryRow] = {
    r.mnemonic: r
    for r in (
        UnaryRow("TABS", _int_abs, _fabs),
        UnaryRow("TNEG", np.negative, _fneg),
        UnaryRow("TNOT", np.invert, _fneg),  # integers only: float_op never reached
        UnaryRow("TRELU", _int_relu, _frelu),
        UnaryRow("TEXP", None, _sfu(np.exp)),
        UnaryRow("TLOG", None, _sfu(np.log)),
        UnaryRow("TRECIP", None, _sfu(_recip, True)),
        UnaryRow("TSQRT", None, _sfu(np.sqrt, True)),
        UnaryRow("TRSQRT", None, _sfu(_rsqrt)),
    )
}
"""Unary elementwise ops (TEPL mode 0, functions 15-23)."""


def unary_core(row: UnaryRow, a: np.ndarray, t: TileDataType) -> np.ndarray:
    """The elementwise result on an already-checked array of t's numpy carrier."""
    if t.is_integer:
        assert row.int_op is not None
        return row.int_op(a)
    check_encodings(t, ((a, "source"),), row.mnemonic)
    r = row.float_op(a, t)
    if status.active():  # ExecuteTileUnary records the OR of the element flags
        status.record(status.unary_flags(row.mnemonic, a, r, t))
    return r


def unary_tile(row: UnaryRow, src, valid, pad="null", dtype=None) -> tuple[np.ndarray, np.ndarray]:
    """Tile-level unary kernel: physical payload, valid (rows, cols), PadValue ->
    ``(payload, defined)``. Only the valid rectangle is read."""
    return map_valid(row, [src], ["source"], valid, pad, dtype,
                     lambda v, t: unary_core(row, v[0], t))  # fmt: skip
