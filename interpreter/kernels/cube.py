"""The general CUBE kernel: the 12 live functions of PTO-SPEC 3.1 in one vectorised kernel.

Public entry point::

    cube_matrix(function, a, b, *, c=None, bias=None, a_scale=None, b_scale=None,
                a_type=None, b_type=None, c_type=None, packed=False, fpatr=None,
                rmode="default", sat=False, quant=None, prelu=None, quant_scalar=None,
                lrelu_scalar=None, row_max_in=None, profile="ordered") -> ndarray | tuple

``function`` is a CUBE function code or catalog name (``CUBE_FUNCTION_NAMES``): 0 TMATMUL,
1 _BIAS, 2 _ACC, 4 TMATMUL_MX, 5 _MX_BIAS, 6 _MX_ACC, 16 TGEMV, 17 _BIAS, 18 _ACC,
20 TGEMV_MX, 21 _MX_BIAS, 22 _MX_ACC. The code selects (``matrix-functions.asl``
classification, ``asl/tile/model/execution/cube.asl``):

* MX or not. MX (D1, D2): A, B in {FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2}, an E8M0 scale
  per side exactly when its type is not FP16/BF16 (A scale M x ceil(K/32), B scale
  ceil(K/32) x N), FP32 accumulator. Ordinary (PTO-SPEC 1, ``matrix-shape.asl``): floats
  FP32, TF32, HF32, FP16, BF16, HiF8, E4M3, E5M2, E3M2, E2M3, E2M1X2, E1M2X2; signed S16, S8,
  S4X2; unsigned U16, U8, U4X2; both sides of one class; the accumulator is FP32 / S32 / U32
  by class (``TileOrdinaryMatrixAccumulatorType``).
* bias (1, 5, 17, 21): ``D = A@B + Bias``, Bias 1 x N of the accumulator type
  (``MatrixBiasResult`` after the product, ``TMATMUL_BIAS`` in cube.asl).
* ACC (2, 6, 18, 22): ``D = C + A@B`` with C (M x N, accumulator type) as the initial sum of
  the k loop (``MatrixProductResultFromTiles(..., accumulate=TRUE)``). ACC forms take no
  bias: cube.asl's TMATMUL_ACC / TGEMV_ACC / *_MX_ACC never call MatrixBiasResult.
* GEMV (16..22): A must be 1 x K; TMATMUL forms take any M >= 1.

Operands are never modified. Arrays: ml_dtypes / numpy arrays of the type (float32 for
FP32, float16, bfloat16, float8_*, float6_e3m2fn / float6_e2m3fn, float4_e2m1fn, int8,
int16), or raw codes plus ``a_type`` / ``b_type``: unsigned carriers of the type's width
(uint32 for FP32/TF32/HF32, uint16, uint8). Unsigned arrays without a type name are U8 /
U16. TF32 / HF32 are float32 carriers whose low 13 / 12 bits must be 0 and E3M2 / E2M3
codes must have their top two carrier bits 0 (``required_low_zero_bits`` /
``required_high_zero_bits`` in ``asl/arch/data-types/formats/*.asl``): other codes are a
TileLegality fault. The 4-bit types (E2M1X2, E1M2X2, S4X2, U4X2) take uint8 codes, one per
element in the low nibble, or with ``packed=True`` two per byte along the last axis, low
nibble first (:mod:`.mx`); S4X2 also takes int8 values in [-8, 7].

Numeric profiles (D4), for every function:

* ``"ordered"`` (default; ``"fp32-sequential"`` is an alias): pto-spec ADR-0047 -- k in
  increasing order, one RNE-rounded FMA into the FP32 accumulator per exact term, starting
  at C (ACC) or +0, then ``RNE(acc + Bias)``. ``"exact"``: C + the exact sum of the exact
  terms + Bias, rounded ONCE to FP32 (RNE; an exact zero is +0). Both: overflow is +-inf and
  Sat/RMode act only in post-processing (D11); the exact semantics, special values and the
  fast algorithms are in :mod:`.accumulate`. Integers (S32/U32 accumulators, every
  profile but raw-carrier): the exact sum (float64 BLAS is exact here: |a*b| <= 2^32 and
  K <= 65535 keep every partial sum below 2^53) plus C and bias, then wrapped to 32 bits --
  the ASL sums in 64-bit words and the S32/U32 tile and every post-processing step read
  ``value[31:0]`` (``MatrixPostQuantBaseWithFlags``); Sat never applies to the
  accumulation.
* ``"raw-carrier"``: the ASL reference profile (``asl/arch/profile/reference-profile.asl``
  TileProfileMatrixAccumulate / ScaledAccumulate / MatrixBias): 64-bit wrapping integer
  arithmetic on payload words, ``acc = C + sum_k (A*sA)(B*sB) (+ Bias)``. Float codes are
  unsigned raw codes (FP16 0x0002 is 2, E8M0 code 1 is 1, an FP32 C / bias is its bit
  pattern), integer elements are their sign- or zero-extended values, a missing scale is 1.
  Result: the raw payload words, as int64 (the two's-complement view of the ASL's 64-bit
  Word; the interpreter stores them unconverted, so a tile holds the integer word 11, not
  the float 11.0); only the identity post-processing is allowed. The totality
  vectors A=2, B=3, C=5, Bias=7 give 6 (plain), 11 (ACC), 13 (BIAS) for every function.

Post-processing (PTO-SPEC 3.3, :mod:`.postprocess`): the PreQuantMode must match the
accumulator (FP32 modes for FP32, S32 modes for S32, only 0 for U32); TransA / TransB must
be 0 (every operand here is Local); CScaleEn is only meaningful for TMATMUL_ACC /
TMATMUL_MX_ACC (ADR-0101 per PTO-SPEC 3.3) and its semantics are not in the v0.58 ASL, so it
faults as not implemented there and as illegal elsewhere. Result: D (M x N) of the output
type, or ``(D, row_max (M x 1), group_max (M x ceil(N/GroupN)))`` with only the enabled
reductions, computed on the raw accumulator; all of it before anything is returned (D12).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from pto_dialect.datatypes import MX_BLOCK, MX_INPUT_TYPES, TileDataType, mx_needs_scale
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.isa.commands import CUBE_DELETED, CUBE_FUNCTIONS, CubeFunction
from pto_dialect.postprocess import Fpatr

from . import jit, mx, status
from . import postprocess as pp
from . import postprocess_status as pp_status
from .profiles import PROFILES, NumericProfile

T = TileDataType
CUBE_FUNCTION_NAMES: dict[int, str] = {c: f.name for c, f in CUBE_FUNCTIONS.items()}
"""The 12 live CUBE function codes -> catalog names (PTO-SPEC 3.1)."""
_BY_NAME = {f.name: f for f in CUBE_FUNCTIONS.values()}

ORDINARY_TYPES = frozenset(
    {T.FP32, T.TF32, T.HF32, T.FP16, T.BF16, T.HIF8, T.E4M3, T.E5M2, T.E3M2, T.E2M3,
     T.E2M1X2, T.E1M2X2, T.S16, T.S8, T.S4X2, T.U16, T.U8, T.U4X2}
)
"""Non-MX CUBE input types (PTO-SPEC 1, ``asl/tile/model/legality/matrix-shape.asl``)."""

_NUMPY: dict[np.dtype, TileDataType] = {
    np.dtype(np.float32): T.FP32,
    np.dtype(np.float16): T.FP16,
    np.dtype(ml_dtypes.bfloat16): T.BF16,
    np.dtype(ml_dtypes.float8_e4m3fn): T.E4M3,
    np.dtype(ml_dtypes.float8_e5m2): T.E5M2,
    np.dtype(ml_dtypes.float6_e3m2fn): T.E3M2,
    np.dtype(ml_dtypes.float6_e2m3fn): T.E2M3,
    np.dtype(ml_dtypes.float4_e2m1fn): T.E2M1X2,
    np.dtype(np.int16): T.S16,
    np.dtype(np.int8): T.S8,
    np.dtype(np.uint16): T.U16,
    np.dtype(np.uint8): T.U8,
}
_LOW_ZERO = {T.TF32: 0x1FFF, T.HF32: 0x0FFF}
_ACC_DTYPE = {T.FP32: np.dtype(np.float32), T.S32: np.dtype(np.int32), T.U32: np.dtype(np.uint32)}



class _Ctx:
    """The function being executed (fault messages carry its name)."""

    def __init__(self, f: CubeFunction):
        self.f = f
        self.op = f.name

    def fault(self, msg: str, kind: FaultKind = FaultKind.TILE_LEGALITY) -> PTOFault:
        return PTOFault(kind, msg, self.op)


def cube_function(function: int | str) -> CubeFunction:
    """The live CUBE function for a code or catalog name; reserved/deleted codes fault."""
    if isinstance(function, str):
        f = _BY_NAME.get(function.upper().replace(".", "_"))
        if f is None:
            raise PTOFault(FaultKind.ILLEGAL_INSTRUCTION, f"unknown CUBE function '{function}'")
        return f
    if isinstance(function, (int, np.integer)) and int(function) in CUBE_FUNCTIONS:
        return CUBE_FUNCTIONS[int(function)]
    what = f" (deleted {CUBE_DELETED[function]})" if function in CUBE_DELETED else ""
    raise PTOFault(
        FaultKind.ILLEGAL_INSTRUCTION, f"CUBE function {function!r} is reserved{what} (PTO-SPEC 3.1)"
    )


# -- operands -----------------------------------------------------------------------------
def _as_2d(x: np.ndarray, what: str, cx: _Ctx) -> np.ndarray:
    if x.ndim == 1:
        return x.reshape(1, -1)
    if x.ndim != 2:
        raise cx.fault(f"{what} must be 2-D, got shape {x.shape}")
    return x


def _ordinary(x, t, what: str, packed: bool, cx: _Ctx):
    """(type, codes) of a non-MX operand: int64 values (integers), uint32 bit patterns
    (FP32 / TF32 / HF32) or value-table indices (other floats; :func:`.jit.float_values`).
    The raw-carrier words are the codes as int64."""
    if x is None:
        raise cx.fault(f"{what} is missing")
    x = np.asarray(x)
    t = mx.as_type(t, cx.op)
    carried = _NUMPY.get(x.dtype)
    if t is None:
        if carried is None:
            raise cx.fault(f"{what} has dtype {x.dtype}: give its PTO type name")
        t = carried
    if t not in ORDINARY_TYPES:
        raise cx.fault(f"{what} type {t.asm} is not a CUBE input type (PTO-SPEC 1)")
    carrier = max(t.info.carrier_bits, 8) // 8
    ok = carried is t or (x.dtype.kind == "u" and x.dtype.itemsize == carrier)
    ok |= (t is T.S4X2 and x.dtype == np.int8) or (t in _LOW_ZERO and x.dtype == np.float32)
    if not ok:
        raise cx.fault(f"{what}: a {t.asm} operand cannot have dtype {x.dtype}")
    x = _as_2d(x, what, cx)
    if t.is_integer:
        if t.packed_x2:
            if x.dtype == np.int8:
                if ((x < -8) | (x > 7)).any():
                    raise cx.fault(f"{what}: S4X2 values must lie in [-8, 7]")
                v = x.astype(np.int64)
            else:
                c = mx.unpack_x2(x) if packed else x & 0x0F
                v = c.astype(np.int64)
                if t is T.S4X2:
                    v = np.where(v >= 8, v - 16, v)
        else:
            dt = np.dtype(f"{'i' if t.is_signed else 'u'}{carrier}")
            v = x.view(dt).astype(np.int64)
        return t, v
    if t in (T.FP32, T.TF32, T.HF32):
        codes = x.view(np.uint32)
        if t in _LOW_ZERO and (codes & _LOW_ZERO[t]).any():
            raise cx.fault(f"{what}: {t.asm} carriers must have their low bits zero (PTO-SPEC 1)")
        return t, codes
    codes = mx.to_codes(x, t, packed=packed, what=what, op=cx.op)
    if t in mx.HIGH_ZERO_BITS and (codes & mx.HIGH_ZERO_BITS[t]).any():
        raise cx.fault(f"{what}: {t.asm} codes must have their top two carrier bits zero")
    if t.packed_x2:
        codes = codes & 0x0F
    return t, codes


def _mx_operand(x, t, what: str, cx: _Ctx):
    if x is None:
        raise cx.fault(f"{what} is missing")
    x = np.asarray(x)
    t = mx.infer_type(x, t, what, cx.op)
    if t not in MX_INPUT_TYPES:
        raise cx.fault(
            f"{what} type {t.asm} is not an MX input type "
            "(FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2; D2)"
        )
    return x, t


def _scale(x, needed: bool, shape: tuple[int, int], what: str, side_type, cx: _Ctx):
    if not needed:
        if x is not None:
            raise cx.fault(f"{what} given but {side_type.asm} carries no E8M0 scale (D2)")
        return None
    if x is None:
        raise cx.fault(f"{what} is missing: {side_type.asm} needs an E8M0 scale (D2)")
    x = np.asarray(x)
    t = mx.infer_type(x, T.E8M0 if x.dtype == np.uint8 else None, what, cx.op)
    if t is not T.E8M0:
        raise cx.fault(f"{what} must be E8M0, not {t.asm}")
    ok = x.shape == shape or (shape[0] == 1 and x.shape == (shape[1],))
    if not ok:
        raise cx.fault(f"{what} must have shape {shape[0]}x{shape[1]} (D1), got {x.shape}")
    return mx.to_codes(x, T.E8M0, what=what, op=cx.op).reshape(shape)


def _acc_operand(x, acc: TileDataType, shape, what: str, raw: bool, given, cx: _Ctx):
    """C or Bias in the accumulator type (raw carriers: same-width unsigned with c_type)."""
    x = np.asarray(x)
    want = _ACC_DTYPE[acc]
    if given is not None and mx.as_type(given, cx.op) is not acc:
        raise cx.fault(f"{what} must have the accumulator type {acc.asm}, not {given}")
    if raw and x.dtype.kind in "ui":
        pass  # raw-carrier words as given (any integer carrier, as in the ASL reference)
    elif x.dtype != want:
        if not (x.dtype.kind == "u" and x.dtype.itemsize == 4 and given is not None):
            raise cx.fault(f"{what} must be {acc.asm} ({want.name}), not {x.dtype}")
        x = x.view(want)
    if x.shape != shape and not (shape[0] == 1 and x.shape == (shape[1],)):
        raise cx.fault(f"{what} must be {shape[0]}x{shape[1]}, got shape {x.shape}")
    return x.reshape(shape)


def _check_fpatr(fpatr: Fpatr, cx: _Ctx) -> Fpatr:
    fpatr = Fpatr() if fpatr is None else fpatr
    if not isinstance(fpatr, Fpatr):
        raise cx.fault("fpatr must be a pto_dialect Fpatr")
    errs = []
    if fpatr.trans_a or fpatr.trans_b:
        errs.append("TransA/TransB must be 0: every operand is a Local tile")
    if fpatr.cscale_en and cx.f.name in ("TMATMUL_ACC", "TMATMUL_MX_ACC"):
        errs.append("CScaleEn is not implemented (its semantics are not in the v0.58 ASL)")
    elif fpatr.cscale_en:
        errs.append("CScaleEn is legal only for TMATMUL_ACC and TMATMUL_MX_ACC")
    if errs:
        raise cx.fault("B.FPATR: " + "; ".join(errs))
    return fpatr


# -- the kernel ---------------------------------------------------------------------------
def cube_matrix(
    function: int | str,
    a,
    b,
    *,
    c=None,
    bias=None,
    a_scale=None,
    b_scale=None,
    a_type: TileDataType | str | None = None,
    b_type: TileDataType | str | None = None,
    c_type: TileDataType | str | None = None,
    packed: bool = False,
    fpatr: Fpatr | None = None,
    rmode: int | str = "default",
    sat: bool = False,
    quant=None,
    prelu=None,
    quant_scalar=None,
    lrelu_scalar=None,
    row_max_in=None,
    profile: str = "ordered",
):
    """One live CUBE function on plain arrays; see the module docstring. Faults are PTOFault
    and every check runs before any arithmetic (D12)."""
    f = cube_function(function)
    cx = _Ctx(f)
    if profile not in PROFILES:
        raise cx.fault(f"unknown numeric profile '{profile}' (one of {', '.join(PROFILES)})")
    raw = profile == NumericProfile.RAW_CARRIER
    if f.is_mx:
        a, at = _mx_operand(a, a_type, "A", cx)
        b, bt = _mx_operand(b, b_type, "B", cx)
        ca = _as_2d(mx.to_codes(a, at, packed=packed, what="A", op=cx.op), "A", cx)
        b_packed = packed and bt.packed_x2 and b.dtype == np.uint8
        cb = b if b_packed else mx.to_codes(b, bt, packed=packed, what="B", op=cx.op)
        m, k = ca.shape
        n = cb.shape[1] * (2 if b_packed else 1) if cb.ndim == 2 else 0
        acc_t = T.FP32
    else:
        at, ca = _ordinary(a, a_type, "A", packed, cx)
        bt, cb = _ordinary(b, b_type, "B", packed, cx)
        if at.klass is not bt.klass:
            raise cx.fault(f"A ({at.asm}) and B ({bt.asm}) must be of the same class (PTO-SPEC 1)")
        m, k = ca.shape
        n = cb.shape[1] if cb.shape[0] == k else 0
        acc_t = at.accumulator
    if k == 0 or m == 0:
        raise cx.fault(f"A must be M x K with M, K >= 1, got shape {np.shape(a)}")
    if (cb.ndim != 2 or cb.shape[0] != k or n == 0):
        raise cx.fault(f"B must be K x N = {k} x N with N >= 1, got shape {np.shape(b)}")
    if f.is_gemv and m != 1:
        raise cx.fault(f"{f.name} needs a 1 x K vector A, got M = {m}")
    sa = sb = None
    if f.is_mx:
        nb = -(-k // MX_BLOCK)
        sa = _scale(a_scale, mx_needs_scale(at), (m, nb), "A scale", at, cx)
        sb = _scale(b_scale, mx_needs_scale(bt), (nb, n), "B scale", bt, cx)
    elif a_scale is not None or b_scale is not None:
        raise cx.fault(f"{f.name} takes no E8M0 scales (not an MX function)")
    if f.is_acc:
        if c is None:
            raise cx.fault(f"{f.name} needs the accumulator input C ({m}x{n} {acc_t.asm})")
        c = _acc_operand(c, acc_t, (m, n), "C", raw, c_type, cx)
    elif c is not None or c_type is not None:
        raise cx.fault(f"{f.name} takes no accumulator input C (only the ACC forms do)")
    if f.is_bias:
        if bias is None:
            raise cx.fault(f"{f.name} needs a 1x{n} {acc_t.asm} Bias")
        bias = _acc_operand(bias, acc_t, (1, n), "Bias", raw, None, cx)
    elif bias is not None:
        raise cx.fault(f"{f.name} takes no Bias (ACC forms and plain forms have none)")
    fpatr = _check_fpatr(fpatr, cx)
    rm = pp.parse_rmode(rmode, cx.op)
    params = pp.validate(fpatr, n, rm, sat, quant, prelu, quant_scalar, lrelu_scalar,
                         row_max_in, acc=acc_t, op=cx.op)
    if fpatr.row_max_en and fpatr.row_max_init:
        rin = np.asarray(row_max_in)
        want = np.dtype(np.int64) if raw else _ACC_DTYPE[acc_t]
        if rin.size != m or rin.dtype != want:
            raise cx.fault(f"row_max_in must be an {m}x1 {want.name} tile")
    if raw and not params.identity:
        raise cx.fault("the raw-carrier profile supports PreQuantMode 0 with ReluMode 0 only")

    # -- compute (no faults below) ------------------------------------------------------
    if raw:
        ar = ca.astype(np.int64)
        br = mx.unpack_x2(cb, n) if f.is_mx and b_packed else cb.astype(np.int64)
        acc = _raw_carrier(ar, sa, br, sb, c, bias, k)
        d = acc
    else:
        if acc_t is not T.FP32:
            acc = _integer(ca, cb, c, bias, acc_t)
        else:
            src = (jit.MxCodes(ca, at, sa, cb, bt, b_packed, sb, n) if f.is_mx
                   else jit.DenseCodes(at, ca, bt, cb))
            acc = jit.accumulate(profile, src, c, bias)  # compiled or numpy (jit.ENV)
            acc[np.isnan(acc)] = np.nan  # FP32CanonicalNaN 0x7FC00000, not x86's 0xFFC00000
        d = pp.apply(acc, params)
    aux = pp.reductions(acc, fpatr, row_max_in)
    if status.active():  # CommitMatrixResult: post-processing and RowMax / GroupMax flags
        status.record(pp_status.postprocess_flags(acc, params, d)
                      | pp_status.reduction_flags(acc, fpatr, row_max_in))  # fmt: skip
    return (d, *aux) if aux else d


# -- profiles -----------------------------------------------------------------------------
def _integer(av, bv, c, bias, acc_t):
    """Exact integer sum wrapped to 32 bits. float64 BLAS is exact: |a*b| <= 2^32 and
    K <= 65535 (16-bit LB2) keep every partial sum below 2^49."""
    y = (av.astype(np.float64) @ bv.astype(np.float64)).astype(np.int64)
    if c is not None:
        y += c.astype(np.int64)
    if bias is not None:
        y += bias.astype(np.int64)
    if acc_t is T.U32:
        return (y & 0xFFFFFFFF).astype(np.uint32)
    return ((y + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32)


_RAW_CHUNK = 256  # K rows widened to int64 per step (a K x N int64 copy of B is 8 B/element)


def _raw_carrier(ar, sa, br, sb, c, bias, k):
    """64-bit wrapping sum of raw payload words (numpy integer matmul wraps), in K chunks.
    ``br`` holds raw codes / values of any integer dtype (K x N)."""
    if sa is not None:
        ar = ar * sa.astype(np.int64)[:, np.arange(k) // MX_BLOCK]
    # float64 BLAS is exact (and no word wraps) when every partial sum stays below 2^53
    bmax = int(np.abs(br).max(initial=0)) * (1 if sb is None else int(sb.max(initial=1)))
    wide = int(np.abs(ar).max(initial=0)) * bmax * k < 1 << 53
    dt = np.float64 if wide else np.int64
    acc = np.zeros((ar.shape[0], br.shape[1]), dt)
    a_dt = ar.astype(dt)
    sb_dt = None if sb is None else sb.astype(dt)
    for k0 in range(0, k, _RAW_CHUNK):
        k1 = min(k, k0 + _RAW_CHUNK)
        bk = br[k0:k1].astype(dt)
        if sb_dt is not None:
            bk *= sb_dt[np.arange(k0, k1) // MX_BLOCK]
        acc += a_dt[:, k0:k1] @ bk
    acc = acc.astype(np.int64)
    for x in (c, bias):
        if x is not None:
            w = x.view(np.uint32) if x.dtype == np.float32 else x
            acc = acc + w.astype(np.int64)
    return acc
