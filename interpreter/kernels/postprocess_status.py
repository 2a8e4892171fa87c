"""Numeric status flags of CUBE post-processing (B.FPATR) and of its RowMax / GroupMax.

``CommitMatrixResult`` (``asl/tile/model/execution/postprocess.asl``) records, in one
``RecordNumericStatusFlags`` with the published D and auxiliary outputs, the OR of

* every element's ``TileProfileMatrixPostProcessWithFlags``
  (``asl/arch/profile/matrix-postprocess.asl``, :func:`postprocess_flags`), and
* every ``TileProfileMatrixReductionStepWithFlags`` step of RowMax / GroupMax
  (:func:`reduction_flags`).

Per element (``MatrixPostQuantBaseWithFlags``; NV 0x01, OF|NX 0x14, UF|NX 0x18, NX 0x10):

* PreQuantMode 0 with ReluMode 0 (and a U32 accumulator, never negative): none;
* shift modes 12 / 13 (``MatrixShiftS32ToS16``): OF|NX when the ASR result leaves S16;
  the bits shifted out are not inexactness;
* an FP32 NaN / infinity (``MatrixPostQuantSpecialValue``; not a -inf whose selected
  multiplier is 0, which post-processes as 0): into an integer, NaN NV, infinity OF|NX
  with Sat and NV without; into a float, a signalling NaN NV (a quiet one nothing), an
  infinity OF|NX with Sat, without Sat OF|NX into E4M3 (its NaN) and nothing otherwise;
* activation (``MatrixActivationWithFlags``) is exact and records nothing;
* an integer destination (``ReferenceMatrixIntegerEncoding``; modes with an S5 / S9 / S17
  intermediate first ``MatrixRoundAndSaturateSigned``): a rounded value outside the
  intermediate or the destination range OF|NX (Sat or not: wrapping overflows too), else
  NX when the value is not an integer;
* a float destination (``ReferenceFP32FiniteEncoding``, ``ReferenceBinary16Encoding``,
  ``ReferenceFP8Encoding``): overflow OF|NX (FP32 / FP16 / BF16: the value rounded with an
  unbounded exponent beyond the largest finite; E4M3 / HiF8: ``|x| > 448 / 32768`` before
  rounding), else NX when the delivered value is not the exact one, with UF when the exact
  value is below the format's smallest normal (tininess BEFORE rounding, as every one of
  these encoders: a value that rounds up to the smallest normal is UF|NX);
  a -0 accumulator that stays -0 is exact.

RowMax / GroupMax steps are TMAX steps (``TileReductionStepWithFlags`` MAX): NV when a
signalling NaN takes part in a step. The first element of a row or group is not a step by
itself, so a one-element set records nothing unless MaxAbsEn (its initial ``|x|`` step) or
RowMaxInit (a step with the input) adds one. MaxAbsEn of S32 INT_MIN saturates to INT_MAX
with OF alone (``MatrixReductionAbsoluteWithFlags``); U32 and the raw-carrier profile's
integer words record nothing.

Everything is vectorised over the whole accumulator (one mask per flag, ORed); the flags
are computed only while a run records them (:func:`.status.active`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.postprocess import Fpatr

from . import postprocess as pp
from .status import NV, OF, fold, signalling_nan

T = TileDataType

MIN_NORMAL_OUT = {T.FP32: 2.0**-126, T.FP16: 2.0**-14, T.BF16: 2.0**-126, T.E4M3: 2.0**-6,
                  T.HIF8: 2.0**-15}  # fmt: skip
"""The ``minimum_normal`` of each float post-processing destination's encoder."""
FP8_MAX = {T.E4M3: 448.0, T.HIF8: pp.HIF8_MAX}
"""FP8 destinations overflow when ``|x|`` exceeds these before rounding (ReferenceFP8Encoding)."""


def _special_flags(nan, snan, inf, p: pp.PostParams) -> int:
    """``MatrixPostQuantSpecialValue``'s flags over the special elements."""
    if not (nan.any() or inf.any()):
        return 0
    if p.out_type in pp.INT_OUT:
        nv = nan | (inf & (not p.sat))
        return fold(nv, None, inf if p.sat else None, None, inf if p.sat else None)
    of = inf if (p.sat or p.out_type is T.E4M3) else None
    return fold(snan, None, of, None, of)


def _integer_flags(act: np.ndarray, p: pp.PostParams) -> int:
    """``MatrixQuantizedAffine`` / ``ReferenceMatrixIntegerEncoding`` of exact values."""
    lo, hi, _ = pp.INT_OUT[p.out_type]
    val = pp.round_to_integer(act, p.mode)
    nx = val != act
    if p.offset_bits:  # the S5 / S9 / S17 intermediate, then the offset and the destination
        half = 1 << (p.offset_bits - 1)
        of = (val < -half) | (val > half - 1)
        val = np.clip(val, -half, half - 1) + np.asarray(p.offset, np.float64)
        of = of | (val < lo) | (val > hi)
    else:
        of = (val < lo) | (val > hi)
    return fold(None, None, of, None, of | nx)


def _float_flags(act: np.ndarray, out: np.ndarray, p: pp.PostParams) -> int:
    """The destination encoder's flags of exact values ``act`` delivered as ``out``."""
    t = p.out_type
    v = act + np.asarray(p.offset, np.float64)  # the offset is 0 for float destinations
    if t in FP8_MAX:
        over = np.abs(v) > FP8_MAX[t]
    else:
        over = pp.round_to_format(v, pp.FLOAT_OUT[t], p.mode)[1]
    got = pp.decode_hif8(out) if t is T.HIF8 else out.astype(np.float64)
    inexact = ~over & (got != v)
    return fold(None, None, over, inexact & (np.abs(v) < MIN_NORMAL_OUT[t]), over | inexact)


def postprocess_flags(acc: np.ndarray, p: pp.PostParams, out: np.ndarray) -> int:
    """The OR of ``TileProfileMatrixPostProcessWithFlags`` over the accumulator ``acc``
    (the array :func:`.postprocess.apply` post-processed into ``out``)."""
    if p.identity:
        return 0
    with np.errstate(all="ignore"):
        if acc.dtype.kind in "iu" and np.any(p.shift):
            sh = np.asarray(acc, np.int64) >> np.asarray(p.shift, np.int64)
            of = (sh < -(1 << 15)) | (sh > (1 << 15) - 1)
            return fold(None, None, of, None, of)
        x, nan, _, inf, mult, killed = pp.classify(acc, p)  # killed: -inf x 0 is 0
        special_inf = inf & ~killed
        snan = signalling_nan(acc, T.FP32) if acc.dtype == np.float32 else None
        flags = _special_flags(nan, snan, special_inf, p)
        ordinary = ~(nan | special_inf)
        act = np.where(ordinary & ~killed, x, 0.0) * mult  # exact: FP32 / S32 x FP19
        if p.out_type in pp.INT_OUT:
            part = _integer_flags(act[ordinary], _select(p, ordinary))
        else:
            part = _float_flags(act[ordinary], np.asarray(out)[ordinary], _select(p, ordinary))
        return flags | part


def _select(p: pp.PostParams, keep: np.ndarray) -> pp.PostParams:
    """``p`` with a per-column offset restricted to the elements ``keep`` selects."""
    if np.ndim(p.offset) == 0:
        return p
    return dataclasses.replace(p, offset=np.broadcast_to(np.asarray(p.offset), keep.shape)[keep])


def reduction_flags(acc: np.ndarray, fpatr: Fpatr, row_max_in) -> int:
    """The OR of the RowMax / GroupMax ``TileProfileMatrixReductionStepWithFlags`` steps
    over the raw accumulator ``acc`` (M x N, or one row) as :func:`.postprocess.reductions`
    reduces it."""
    if not (fpatr.row_max_en or fpatr.group_max_en):
        return 0
    v = acc.reshape(1, -1) if acc.ndim == 1 else acc
    m, n = v.shape
    rows = fpatr.row_max_en
    init = rows and fpatr.row_max_init
    rin = np.asarray(row_max_in).reshape(m) if init else None
    if v.dtype == np.int32:  # S32: only |INT_MIN| (MaxAbsEn) overflows
        if not fpatr.max_abs_en:
            return 0
        int_min = np.int32(-(1 << 31))
        hit = (v == int_min).any() or (rin is not None and (rin == int_min).any())
        return OF if hit else 0
    if v.dtype != np.float32:  # U32, raw-carrier words: integer maxima record nothing
        return 0
    snan = signalling_nan(v, T.FP32)
    if not snan.any() and (rin is None or not signalling_nan(rin, T.FP32).any()):
        return 0
    stepped = np.zeros(v.shape, bool)
    if rows and (fpatr.max_abs_en or n > 1 or init):
        stepped[:] = True  # every element of the row takes part in a step
    if fpatr.group_max_en:
        g = fpatr.group_n
        sizes = np.minimum(g, n - np.arange(0, n, g))  # valid columns of each group
        alone = np.repeat(sizes == 1, sizes)  # a one-column group has no step
        stepped |= ~alone[None, :] | bool(fpatr.max_abs_en)
    nv = (snan & stepped).any() or (rin is not None and signalling_nan(rin, T.FP32).any())
    return NV if nv else 0

