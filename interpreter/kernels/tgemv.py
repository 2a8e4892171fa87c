"""TGEMV_MX_BIAS kernel: D[0,j] = sum_k (A[k] sA[k//32]) (B[k,j] sB[k//32,j]) + Bias[j]
(PTO-SPEC 4, D1-D5), then B.FPATR post-processing (PTO-SPEC 3.3, :mod:`.postprocess`).

Public entry point::

    tgemv_mx_bias(a, b, bias=None, a_scale=None, b_scale=None, *, a_type=None,
                  b_type=None, packed=False, fpatr=None, rmode="default", sat=False,
                  quant=None, prelu=None, quant_scalar=None, lrelu_scalar=None,
                  row_max_in=None, profile="exact") -> ndarray | tuple

Operands (nothing is ever written into them):

* ``a``: 1xK or K; ``b``: KxN. ml_dtypes arrays, or raw codes plus ``a_type``/``b_type``
  (``"FP16"``, ``"BF16"``, ``"E4M3"``, ``"E5M2"``, ``"E2M1X2"``, ``"E1M2X2"`` or a
  TileDataType; D2). Raw code conventions, including ``packed=True`` for two X2 elements
  per byte along the last axis, are in :mod:`.mx`.
* ``a_scale``: 1 x ceil(K/32) E8M0; ``b_scale``: ceil(K/32) x N E8M0 (D1). Given exactly
  when the side's type is not FP16/BF16 (D2). ``float8_e8m0fnu`` arrays or uint8 codes.
* ``bias``: 1xN or N float32 (D3); None means zeros.
* ``fpatr``: a :class:`pto_dialect.postprocess.Fpatr` (None = all-zero form); ``rmode``
  (B.DATR RMode name or 0..7) and ``sat`` (B.DATR Sat); ``quant`` / ``prelu`` 1xN U64
  parameter tiles, ``quant_scalar`` / ``lrelu_scalar`` 64-bit B.IOR words, and
  ``row_max_in`` a 1x1 float32 tile, each given exactly when B.FPATR selects it.

Result: D, a (1, N) array of the PreQuantMode's output dtype (float32 unless a mode
converts: float16, bfloat16, float8_e4m3fn, int8). When RowMaxEn / GroupMaxEn are set the
result is the tuple ``(D, row_max, group_max)`` holding only the enabled outputs, in that
order: row_max is (1, 1) float32, group_max is (1, ceil(N/GroupN)) float32. Everything is
computed before anything is returned (atomic publication, D12).

Numeric profiles (D4):

* ``"exact"`` (default): every element and scale decoded exactly. Products of decoded
  elements are exact in float32 for every type pair without BF16 (at most 11x11
  significant bits, exponents within float32's range) and are summed by BLAS over
  sub-blocks of 8 K elements in float32: recursive summation of 8 exact terms has error
  <= 7 * 2^-24 * sum|terms| (4.2e-7). Pairs with a BF16 side use float64 sub-blocks of 32
  (error <= 31 * 2^-53 * sum|terms|). Sub-block sums are then scaled by sA*sB (exact
  powers of two) and summed with the bias in float64 (error <= K * 2^-53 * sum|terms|),
  and rounded ONCE to FP32 with RNE. Total error before that single rounding is at most
  about 4.2e-7 * sum|terms| (+ K * 1.1e-16), within D4's 1e-6 bound. An exact zero
  result is +0. Overflow gives +-inf (Sat=0) or +-FLT_MAX (Sat=1) (D5).
* ``"fp32-sequential"``: k in increasing order; an FP32 accumulator per column; each
  product formed exactly in double, added to the accumulator in double and rounded to
  FP32; the FP32 bias added last in FP32 (the C++ simulator's order, but with OCP special
  values). A Python loop over K with vector operations over N.
* ``"raw-carrier"``: the ASL reference profile (PTO-SPEC 4, 6): integer arithmetic on raw
  codes, ``acc = sum_k (A*sA) * (B*sB) + Bias`` where every operand is its raw code as an
  unsigned integer (FP16 ``0x0002`` is 2, E8M0 code 1 is 1, the FP32 bias' bit pattern as
  an integer -- or integer bias carriers as given), wrapping at 64 bits. A missing scale
  counts as 1, so raw scales of 1 reproduce the totality test (2*3+7 = 13) and the FP16
  add test gives 2*3+5 = 11. The result is an int64 (1, N) array of raw words. Only the
  all-zero PreQuantMode/ReluMode is allowed; reductions compare the words as signed
  integers.

Special values (D5): E8M0 0xFF is NaN and makes every product it scales NaN; E4M3
S.1111.111 is NaN; E5M2 and FP16/BF16 inf/NaN follow IEEE.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from pto_dialect.datatypes import MX_BLOCK, MX_INPUT_TYPES, TileDataType, mx_needs_scale
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.postprocess import Fpatr

from . import mx
from . import postprocess as pp

T = TileDataType
OP = "TGEMV_MX_BIAS"
PROFILES = ("exact", "fp32-sequential", "raw-carrier")

_CHUNK = 256  # K rows decoded per step (8 scale blocks)
_SUB32 = 8  # sub-block length of the float32 BLAS path (error bound above)
_SUB64 = 32
_THREAD_MIN = 1 << 21  # K*N above which the N columns are split across two threads
_POOL: ThreadPoolExecutor | None = None


def _fault(msg: str) -> PTOFault:
    return PTOFault(FaultKind.TILE_LEGALITY, msg, OP)


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(2, thread_name_prefix="pto-tgemv")
    return _POOL


# -- lookup tables for the chunked decoder ------------------------------------------------
_PAIR_LUTS: dict[tuple[TileDataType, bool], np.ndarray] = {}


def _pair_lut(t: TileDataType, packed: bool) -> np.ndarray:
    """float32 value pairs viewed as float64: index a uint16 holding two 8-bit codes
    (little-endian: element 2i in the low byte), or one packed X2 byte (low nibble first)."""
    key = (t, packed)
    if key not in _PAIR_LUTS:
        lut = mx.value_lut(t).astype(np.float32)
        n = 256 if packed else 65536
        i = np.arange(n)
        pairs = np.empty((n, 2), np.float32)
        if packed:
            pairs[:, 0], pairs[:, 1] = lut[i & 0x0F], lut[i >> 4]
        else:
            pairs[:, 0], pairs[:, 1] = lut[i & 0xFF], lut[i >> 8]
        _PAIR_LUTS[key] = pairs.view(np.float64).reshape(n)
    return _PAIR_LUTS[key]


def _little_endian() -> bool:
    return np.little_endian


# -- operand checks -----------------------------------------------------------------------
def _operand(x, t, what: str, packed: bool):
    if x is None:
        raise _fault(f"{what} is missing")
    x = np.asarray(x)
    t = mx.infer_type(x, t, what, OP)
    if t not in MX_INPUT_TYPES:
        raise _fault(
            f"{what} type {t.asm} is not an MX input type "
            "(FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2; D2)"
        )
    return x, t


def _scale(x, needed: bool, shape: tuple[int, int], what: str, side_type: TileDataType):
    if not needed:
        if x is not None:
            raise _fault(f"{what} given but {side_type.asm} carries no E8M0 scale (D2)")
        return None
    if x is None:
        raise _fault(f"{what} is missing: {side_type.asm} needs an E8M0 scale (D2)")
    x = np.asarray(x)
    t = mx.infer_type(x, T.E8M0 if x.dtype == np.uint8 else None, what, OP)
    if t is not T.E8M0:
        raise _fault(f"{what} must be E8M0, not {t.asm}")
    ok = x.shape == shape or (shape[0] == 1 and x.shape == (shape[1],))
    if not ok:
        raise _fault(f"{what} must have shape {shape[0]}x{shape[1]} (D1), got {x.shape}")
    return mx.to_codes(x, T.E8M0, what=what, op=OP).reshape(shape)


def tgemv_mx_bias(
    a,
    b,
    bias=None,
    a_scale=None,
    b_scale=None,
    *,
    a_type: TileDataType | str | None = None,
    b_type: TileDataType | str | None = None,
    packed: bool = False,
    fpatr: Fpatr | None = None,
    rmode: int | str = "default",
    sat: bool = False,
    quant=None,
    prelu=None,
    quant_scalar=None,
    lrelu_scalar=None,
    row_max_in=None,
    profile: str = "exact",
):
    """TGEMV_MX_BIAS on plain arrays; see the module docstring. Faults are PTOFault."""
    if profile not in PROFILES:
        raise _fault(f"unknown numeric profile '{profile}' (one of {', '.join(PROFILES)})")
    a, at = _operand(a, a_type, "A", packed)
    b, bt = _operand(b, b_type, "B", packed)
    ca = mx.to_codes(a, at, packed=packed, what="A", op=OP)
    if ca.ndim == 2 and ca.shape[0] == 1:
        ca = ca[0]
    if ca.ndim != 1 or ca.shape[0] == 0:
        raise _fault(f"A must be a 1xK vector with K >= 1, got shape {a.shape}")
    k = ca.shape[0]
    b_packed = packed and bt.packed_x2 and b.dtype == np.uint8
    cb = b if b_packed else mx.to_codes(b, bt, packed=packed, what="B", op=OP)
    n = cb.shape[1] * (2 if b_packed else 1) if cb.ndim == 2 else 0
    if cb.ndim != 2 or cb.shape[0] != k or n == 0:
        raise _fault(f"B must be K x N = {k} x N with N >= 1, got shape {b.shape}")
    nb = -(-k // MX_BLOCK)
    sa = _scale(a_scale, mx_needs_scale(at), (1, nb), "A scale", at)
    sb = _scale(b_scale, mx_needs_scale(bt), (nb, n), "B scale", bt)
    if bias is None:
        bias = np.zeros(n, np.float32)
    bias = np.asarray(bias)
    if bias.shape not in ((1, n), (n,)):
        raise _fault(f"Bias must be 1x{n}, got shape {bias.shape}")
    bias = bias.reshape(n)
    if profile == "raw-carrier":
        if bias.dtype.kind not in "uif" or bias.dtype.kind == "f" and bias.dtype != np.float32:
            raise _fault(f"raw-carrier Bias must be FP32 or integer carriers, not {bias.dtype}")
    elif bias.dtype != np.float32:
        raise _fault(f"Bias must be FP32 (D3), not {bias.dtype}")
    fpatr = Fpatr() if fpatr is None else fpatr
    rm = pp.parse_rmode(rmode)
    params = pp.validate(fpatr, n, rm, sat, quant, prelu, quant_scalar, lrelu_scalar, row_max_in)
    if fpatr.row_max_en and fpatr.row_max_init:
        rin = np.asarray(row_max_in)
        want = np.int64 if profile == "raw-carrier" else np.float32
        if rin.size != 1 or rin.dtype != want:
            raise _fault(f"row_max_in must be a 1x1 {np.dtype(want).name} tile")

    if profile == "raw-carrier":
        if not params.identity:
            raise _fault("the raw-carrier profile supports PreQuantMode 0 with ReluMode 0 only")
        acc = _raw_carrier(ca, sa, cb, b_packed, sb, bias, k, n)
        d = acc
    else:
        if profile == "exact":
            y = _exact(ca, at, sa, cb, bt, b_packed, sb, k, n)
            y += bias.astype(np.float64)
            y += 0.0  # an exact zero sum is +0
            acc = pp.round_fp32_accumulator(y, params.sat)
        else:
            acc = _fp32_sequential(ca, at, sa, cb, bt, b_packed, sb, bias, k, n, params.sat)
        d = pp.apply(acc, params)
    aux = pp.reductions(acc, fpatr, row_max_in)
    d = d.reshape(1, n)
    return (d, *aux) if aux else d


# -- profiles -----------------------------------------------------------------------------
def _scale_values(sa, sb, k_blocks, n):
    """float64 combined block scale sA[b] * sB[b, n] (exact powers of two or NaN), or None."""
    s = None
    if sa is not None:
        s = np.broadcast_to(mx.value_lut(T.E8M0)[sa[0]][:, None], (k_blocks, n))
    if sb is not None:
        vb = mx.value_lut(T.E8M0)[sb]
        s = vb if s is None else s * vb
    return s


def _exact(ca, at, sa, cb, bt, b_packed, sb, k, n):
    nb = -(-k // MX_BLOCK)
    scale = _scale_values(sa, sb, nb, n)
    wide = T.BF16 in (at, bt)
    dt = np.float64 if wide else np.float32
    sub = _SUB64 if wide else _SUB32
    a_vals = mx.value_lut(at)[ca].astype(dt)
    if k * n >= _THREAD_MIN and n >= 64:
        h = (n // 2) & ~1
        futs = [
            _pool().submit(_exact_cols, a_vals, cb, bt, b_packed, scale, k, c0, c1, dt, sub)
            for c0, c1 in ((0, h), (h, n))
        ]
        return np.concatenate([f.result() for f in futs])
    return _exact_cols(a_vals, cb, bt, b_packed, scale, k, 0, n, dt, sub)


def _exact_cols(a_vals, cb, bt, b_packed, scale, k, c0, c1, dt, sub):
    """Columns [c0, c1) of the exact profile's float64 sum (before bias)."""
    n = c1 - c0
    codes = cb[:, c0 // 2 : c1 // 2] if b_packed else cb[:, c0:c1]
    pair = (
        dt == np.float32
        and bt not in (T.FP16, T.BF16)
        and _little_endian()
        and (b_packed or (n % 2 == 0 and codes.strides[1] == 1))
    )
    lut = mx.value_lut(bt).astype(dt)
    buf = np.empty((_CHUNK, n), dt)
    y = np.zeros(n, np.float64)
    a_pad = np.zeros(-(-k // _CHUNK) * _CHUNK, dt)
    a_pad[:k] = a_vals
    per_block = MX_BLOCK // sub
    with np.errstate(invalid="ignore", over="ignore"):  # inf/NaN follow IEEE (D5)
        _exact_loop(codes, pair, bt, b_packed, lut, buf, a_pad, scale, y, k, n, c0, c1, sub,
                    per_block)
    return y


def _exact_loop(codes, pair, bt, b_packed, lut, buf, a_pad, scale, y, k, n, c0, c1, sub,
                per_block):
    for k0 in range(0, k, _CHUNK):
        rows = min(_CHUNK, k - k0)
        rows_p = -(-rows // MX_BLOCK) * MX_BLOCK
        chunk = codes[k0 : k0 + rows]
        if pair:
            np.take(_pair_lut(bt, b_packed), chunk.view(np.uint16) if not b_packed else chunk,
                    out=buf[:rows].view(np.float64), mode="wrap")
        else:
            np.take(lut, chunk, out=buf[:rows], mode="wrap")
        if rows_p != rows:
            buf[rows:rows_p] = 0
        nsub = rows_p // sub
        a3 = a_pad[k0 : k0 + rows_p].reshape(nsub, 1, sub)
        p = np.matmul(a3, buf[:rows_p].reshape(nsub, sub, n))
        blk = p.reshape(rows_p // MX_BLOCK, per_block, n).sum(axis=1, dtype=np.float64)
        if scale is not None:
            b0 = k0 // MX_BLOCK
            blk *= scale[b0 : b0 + rows_p // MX_BLOCK, c0:c1]
        y += blk.sum(axis=0)


def _fp32_sequential(ca, at, sa, cb, bt, b_packed, sb, bias, k, n, sat):
    e8 = mx.value_lut(T.E8M0)
    a_vals = mx.value_lut(at)[ca]
    if sa is not None:
        a_vals = a_vals * e8[sa[0]][np.arange(k) // MX_BLOCK]
    sbv = e8[sb] if sb is not None else None
    lut = mx.value_lut(bt)
    acc = np.zeros(n, np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        for k0 in range(0, k, _CHUNK):
            chunk = cb[k0 : k0 + _CHUNK]
            vals = lut[mx.unpack_x2(chunk, n) if b_packed else chunk]
            for i in range(vals.shape[0]):
                kk = k0 + i
                row = vals[i] * sbv[kk // MX_BLOCK] if sbv is not None else vals[i]
                s = acc.astype(np.float64) + a_vals[kk] * row
                acc = pp.round_fp32_accumulator(s, sat) if sat else s.astype(np.float32)
        out = acc + bias
    if sat:
        big = np.isinf(out) & np.isfinite(acc) & np.isfinite(bias)
        out[big] = np.copysign(np.finfo(np.float32).max, out[big])
    return out


def _raw_carrier(ca, sa, cb, b_packed, sb, bias, k, n):
    av = ca.astype(np.int64)
    if sa is not None:
        av = av * sa[0].astype(np.int64)[np.arange(k) // MX_BLOCK]
    acc = np.zeros(n, np.int64)
    for k0 in range(0, k, _CHUNK):
        chunk = cb[k0 : k0 + _CHUNK]
        bv = (mx.unpack_x2(chunk, n) if b_packed else chunk).astype(np.int64)
        if sb is not None:
            rows = np.arange(k0, k0 + bv.shape[0]) // MX_BLOCK
            bv = bv * sb[rows].astype(np.int64)
        acc += av[k0 : k0 + bv.shape[0]] @ bv
    raw_bias = bias.view(np.uint32) if bias.dtype == np.float32 else bias
    return acc + raw_bias.astype(np.int64)

