"""FP32 accumulation of the CUBE family: the ``ordered`` and ``exact`` numeric profiles (D4).

A floating CUBE function computes, for every output element (m, j),

    D[m, j] = C[m, j] (ACC forms, else +0)  (+)  t[m, 0, j]  (+)  ...  (+)  t[m, K-1, j]
              then (+) Bias[j] (bias forms)

where each term ``t[m, k, j] = (A[m, k] * sA[m, k // 32]) * (B[k, j] * sB[k // 32, j])`` is the
EXACT product of the decoded elements and their E8M0 scales (a missing scale is 1; an E8M0
0xFF scale is NaN; inf and NaN elements follow IEEE: 0 * inf = NaN). The two profiles differ
only in how the sum is rounded:

``ordered`` (the default; ``fp32-sequential`` is an alias) -- pto-spec ADR-0047 "Operation-fixed
    domains": visit k in increasing order and perform ONE fused multiply-add into the FP32
    accumulator per term, rounded to FP32 with RNE: ``acc = RNE_fp32(acc + t[m, k, j])``;
    overflow gives +-inf (IEEE), a NaN term or operand gives NaN. Then
    ``D = RNE_fp32(acc + Bias[j])`` (a plain FP32 addition). The accumulator starts at C, or at
    +0, so an all-zero sum is +0 unless C is -0. Sat and RMode do not act on the accumulator
    (D11: they only act in B.FPATR post-processing). Every element is an independent chain
    over k; chains of different (m, j) never interact, so a compiled executor may batch or
    reorder them freely, but must keep each chain's k order and its per-term rounding.
``exact`` -- the real-number value of ``C + sum_k t[m, k, j] + Bias[j]`` (no intermediate
    rounding of any kind) rounded ONCE to FP32 with RNE; overflow +-inf; an exact zero sum is
    +0. Non-finite terms/operands: the IEEE sum of the infinities (NaN if any NaN or +inf
    meets -inf), whatever the finite rest is.

How they are computed fast (NUMERICS.md 5):

* ordered: an FMA with an FP32-representable term is exactly a float32 addition, and
  ``np.add.reduce`` over axis 0 of a C-contiguous float32 array adds its rows strictly in
  order. So each chunk of ``_CHUNK`` rows of K is decoded into a float32 buffer whose row 0
  is the running accumulator, and reduced. A term is FP32-representable when it is
  finite-and-in-range: products of two MX/FP16/BF16/FP8/FP6/FP4 elements have at most 22
  significant bits, so only the exponent range matters. For MX operands this is decided
  statically per (scale block, column) from the combined scale exponent and the two formats'
  value ranges (:meth:`MxTerms.safe`); elsewhere the float64 terms (always exact) are
  compared with their float32 casts. Columns of a chunk that fail both checks take the wide
  path: per k, the float64 sum ``acc + t`` with its TwoSum error is rounded to odd and then
  cast to float32, which is one correct RNE rounding (53 >= 24 + 2 bits).
  Decoding B is a table lookup of two codes (or four packed X2 nibbles) per index; for one
  row of A the terms are then ``B[k, j] * (a[k] * 2^E[block, j])`` with ONE multiply: where
  a block is safe, ``a * 2^E`` is itself an FP32 value (E + lsb_a >= -149 because
  lsb_b <= 0; E + top_a <= 128 - top_b), so the product is the exact term.
* ordered, rescaled accumulator (MX products whose scale exponents stay in a window, the
  usual case; :meth:`MxTerms.rescale_plan`, :func:`_rescaled_cols`): block b accumulates
  in the domain 2^-(E_b + cexp), where its terms are ``a[k] * B[k, j] * 2^-cexp`` (one
  factor per row, no per-element scale), and the accumulator is multiplied by
  2^(E_(b-1) - E_b) between blocks. Scaling by a power of two commutes with RNE rounding
  when no exact sum is subnormal or overflows in either domain; every term and C lie on
  the grid 2^g0, so a nonzero exact sum is at least 2^g0 in magnitude, and the plan's
  bounds (its docstring) exclude both. B's codes are decoded by integer bit operations
  (:class:`.mx.BitLayout`: three int32 passes, after one byte pass for narrow codes), by
  table in chunks holding inf/NaN codes. Packed X2 bytes are decoded as two planes (low
  nibbles moved up: the even columns; the bytes as they are for the high nibbles: the odd
  ones), so this path computes its columns permuted (:meth:`Rescaled.in_order`) and puts them back at the end. The
  rescaling factors are FP32 bit patterns built from the exponent differences, a group of
  blocks at a time (:func:`_ratio_bits`).
* exact: per chunk, the float64 terms (or, for format pairs whose 32-term block sums are
  exact in float64, the block sums from a float64 matmul times the exact block scales) are
  split by Rump-style extraction against powers of two into pieces whose sums are exact in
  float64 (:func:`_extract`). The few exact components per element are then rounded once:
  by a float64 sum when an error interval proves the float32 result, else with Python
  Fractions (:func:`_round_components`).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from pto_dialect.datatypes import MX_BLOCK, TileDataType

from . import mx

T = TileDataType
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)

_CHUNK = 128  # K rows per step (4 scale blocks): the float32 buffer stays in the L2 cache
_RESCALED_MIN_OUTPUTS = 1024  # M * N from which the rescaled ordered path is faster,
_RESCALED_MIN_COLUMNS = 256  # when N reaches this too (its calls are per block and N wide)
_THREAD_MIN = 1 << 21  # M*K*N above which the N columns are split across two threads
_PRECOMPUTE_MAX = 1 << 23  # blocks*M*N up to which MX scales and safety are tabled per block
_POOL: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(2, thread_name_prefix="pto-cube")
    return _POOL


def _range(lut: np.ndarray) -> tuple[int, int]:
    """(lsb, top) of a value table: every finite value is a multiple of 2^lsb and below 2^top."""
    fin = np.abs(lut[np.isfinite(lut)])
    nz = fin[fin > 0]
    lsb = int(np.floor(np.log2(nz.min())))
    top = int(np.floor(np.log2(nz.max()))) + 1
    return lsb, top


# -- term sources ----------------------------------------------------------------------------

def _row_factors(a, s):
    """(rows, M, n) float32 ``a[k, m] * s[k // 32 - first block, m, j]``; a (rows, M) starts
    a block, s (nblk, M, n)."""
    rows, (_, m, n) = a.shape[0], s.shape
    f = np.empty((rows, m, n), np.float32)
    full = rows // MX_BLOCK
    if full:
        np.multiply(a[: full * MX_BLOCK].reshape(full, MX_BLOCK, m, 1), s[:full, None],
                    out=f[: full * MX_BLOCK].reshape(full, MX_BLOCK, m, n))
    if rows % MX_BLOCK:
        np.multiply(a[full * MX_BLOCK :, :, None], s[full], out=f[full * MX_BLOCK :])
    return f


class DenseTerms:
    """Terms of a non-MX product from exact float64 values a (M, K) and b (K, N)."""

    block_exact = False

    def __init__(self, a: np.ndarray, b: np.ndarray):
        self.a, self.b = a, b
        self.shape = (a.shape[0], a.shape[1], b.shape[1])

    def safe(self, k0, k1, c0, c1):
        return False  # no static knowledge: the float64 terms are checked instead

    def fill32(self, out, k0, k1, c0, c1):  # pragma: no cover - safe() is never true
        raise NotImplementedError

    def terms64(self, k0, k1, cols):
        """(rows, M, len(cols)) exact float64 terms."""
        with np.errstate(invalid="ignore", over="ignore"):
            return self.a[:, k0:k1].T[:, :, None] * self.b[k0:k1, cols][:, None, :]


_E_MIN, _E_MAX = -256, 256  # bounds every combined E8M0 scale exponent (-254..256)
_E_RANGE = np.arange(_E_MIN, _E_MAX + 1, dtype=np.int32)
_S32_BY_E = np.ldexp(np.ones((), F32), np.clip(_E_RANGE, -149, 127))
"""The FP32 scale 2^E of every combined exponent E (as :meth:`MxTerms._scales` computes it)."""
_S32_BY_E.setflags(write=False)

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


_QUAD_LUTS: dict[TileDataType, np.ndarray] = {}


def _quad_lut(t: TileDataType) -> np.ndarray:
    """float32 value quadruples viewed as complex128 (16 bytes): index a uint16 holding two
    packed X2 bytes, i.e. four 4-bit codes (little-endian, low nibble first)."""
    if t not in _QUAD_LUTS:
        lut = mx.value_lut(t).astype(np.float32)
        i = np.arange(65536)
        quads = np.stack([lut[(i >> (4 * q)) & 0x0F] for q in range(4)], axis=1)
        _QUAD_LUTS[t] = np.ascontiguousarray(quads).view(np.complex128).reshape(65536)
    return _QUAD_LUTS[t]


class Rescaled(NamedTuple):
    """A plan of the rescaled ordered path (:meth:`MxTerms.rescale_plan`)."""

    layout: mx.BitLayout | None  # B decoded by bit operations, or None: by table
    cexp: int  # block b accumulates in the domain scaled by 2^-(E_b + cexp)
    f_bits: np.ndarray | None  # (M, K) float32 a 2^(bias_gap - cexp), for bit-decoded B
    f_lut: np.ndarray  # (M, K) float32 a 2^-cexp, for table-decoded B
    planes: bool  # packed X2 B decoded as two nibble planes: even columns, then odd ones

    def in_order(self, x: np.ndarray, c0: int, c1: int) -> np.ndarray:
        """Columns c0:c1 (c0 even) of x in the order the path computes them."""
        if not self.planes:
            return x[..., c0:c1]
        return np.concatenate([x[..., c0:c1:2], x[..., c0 + 1 : c1 : 2]], axis=-1)

    def natural(self, x: np.ndarray) -> np.ndarray:
        """The inverse of :meth:`in_order`."""
        if not self.planes:
            return x
        out, half = np.empty_like(x), -(-x.shape[-1] // 2)
        out[..., 0::2], out[..., 1::2] = x[..., :half], x[..., half:]
        return out


class MxTerms:
    """Terms of an MX product from raw codes: A codes (M, K), B codes (K, N) or packed X2
    bytes (K, N/2), E8M0 scale codes sA (M, nb) / sB (nb, N) or None."""

    def __init__(self, ca, at, sa, cb, bt, b_packed, sb, n):
        m, k = ca.shape
        self.shape = (m, k, n)
        self.at, self.bt, self.cb, self.b_packed = at, bt, cb, b_packed
        la, lb = mx.value_lut(at), mx.value_lut(bt)
        self.a64 = la[ca]  # (M, K) exact
        self.a32 = self.a64.astype(np.float32)  # exact: every MX element fits FP32
        self.lut32, self.lut64 = lb.astype(np.float32), lb
        nb = -(-k // MX_BLOCK)
        # scale exponents (missing scale: 0) and NaN flags (E8M0 0xFF) per side
        self.ea = np.zeros((nb, m), np.int32) if sa is None else sa.T.astype(np.int32) - 127
        self.eb = np.zeros((nb, n), np.int32) if sb is None else sb.astype(np.int32) - 127
        self.na = np.zeros((nb, m), bool) if sa is None else sa.T == 0xFF
        self.nbs = np.zeros((nb, n), bool) if sb is None else sb == 0xFF
        (lsa, ta), (lsb, tb) = self.ranges = _range(la), _range(lb)
        # every term of a block is an FP32 value (or inf / NaN) for every element pair iff
        # E + lsb_a + lsb_b >= -149 and E + top_a + top_b <= 128 (see the module docstring)
        self.e_lo, self.e_hi = -149 - lsa - lsb, 128 - ta - tb
        # 32-term block sums of element products are exact in float64 when the product's
        # span of bits plus log2(32) fits 53 bits
        self.block_exact = (ta - lsa) + (tb - lsb) + 5 <= 53
        # precomputed per block when small enough (the GEMV case): scales and safety
        self._pre = None
        if nb * m * n <= _PRECOMPUTE_MAX:
            self._precompute(k, n)
        self.pair = bt not in (T.FP16, T.BF16) and np.little_endian

    def _precompute(self, k, n):
        """Per (block, row, column): FP32 scale and safety, looked up by the combined scale
        exponent E = eA + eB (in [-254, 256]) in tables built with the same functions
        (:meth:`_scales`, :meth:`_safe`) over every E, so the
        values are identical to computing them per element. The extremes of E per block come
        from the per-side exponents, so an all-safe product (the usual case) builds no
        per-element array at all: its scales are looked up per chunk (:meth:`_s32`)."""
        nan_a, nan_b = bool(self.na.any()), bool(self.nbs.any())
        lo = self.ea.min(axis=1) + self.eb.min(axis=1)
        hi = self.ea.max(axis=1) + self.eb.max(axis=1)
        self.all_safe = not (nan_a or nan_b) and bool(
            (lo >= self.e_lo).all() and (hi <= self.e_hi).all())
        if self.all_safe:
            self._pre = (None, None)
            return
        # intp indices written in place: take() would copy int32 indices to intp per call
        idx = np.empty((self.ea.shape[0], self.shape[0], n), np.intp)
        np.add(self.ea[:, :, None], self.eb[:, None, :], out=idx)
        idx -= _E_MIN
        s = _S32_BY_E.take(idx)
        safe = self._safe(_E_RANGE, np.zeros(_E_RANGE.shape, bool)).take(idx)
        if nan_a or nan_b:
            nan = self.na[:, :, None] | self.nbs[:, None, :]
            s[nan] = np.nan
            safe |= nan
        self._pre = (s, safe)

    def rescale_plan(self, c: np.ndarray | None) -> Rescaled | None:
        """The plan of :func:`_rescaled_cols` when its conditions hold for every output
        element, else None (see "Rescaled accumulator" in the module docstring).

        With E ranging over [lo, hi] per output element (bounds from the per-side scale
        exponents), g0 the exponent of a grid every term and C value lies on, U a bound of
        |C| + sum |t| and 2^-(E + cexp) the scaled domain of a block: every exact
        intermediate sum x is 0 or has 2^-126 <= |x|, |x 2^-(E+cexp)| <= 2^127 when
        g0 >= -126, g0 - hi - cexp >= -126, U <= 2^127 and U 2^-(lo+cexp) <= 2^127; the last
        implies hi - lo <= 125 (U >= 2^(hi+ta+tb), ta, tb >= 1): normal rescaling factors."""
        if self.na.any() or self.nbs.any():
            return None
        (lsa, ta), (lsb, tb) = self.ranges
        lay = mx.bit_layout(self.bt)
        if self.b_packed and lay is not None and lay.special_min is not None:
            lay = None  # (no packed type has inf/NaN codes; the planes need no table)
        gap = 0 if lay is None else lay.bias_gap
        cexp = max(0, ta + gap - 127)  # the factor a 2^(gap - cexp) stays below 2^127
        if min(lsa, lsa + gap, lsa + lsb) - cexp < -149 or ta + tb - cexp > 127:
            return None
        k = self.shape[1]
        lo = self.ea.min(axis=0)[:, None].astype(np.int64) + self.eb.min(axis=0)[None, :]
        hi = self.ea.max(axis=0)[:, None].astype(np.int64) + self.eb.max(axis=0)[None, :]
        g0 = lo + (lsa + lsb)
        bound = k * np.ldexp(1.0, hi + ta + tb)
        if c is not None:
            cf = c.astype(F64)
            fin = np.isfinite(cf)
            nz = fin & (cf != 0)
            _, e = np.frexp(np.where(nz, cf, 1.0))  # |C| < 2^e: C is a multiple of 2^(e-24)
            g0 = np.minimum(g0, np.where(nz, np.maximum(e - 24, -149), g0))
            bound = bound + np.where(fin, np.abs(cf), 0.0)
        ok = ((g0 >= -126) & (g0 - hi - cexp >= -126) & (bound <= 2.0**127)
              & (np.ldexp(bound, -(lo + cexp)) <= 2.0**127))
        if not ok.all():
            return None
        a = self.a32.astype(F64)
        f_lut = np.ldexp(a, -cexp).astype(F32)  # exact: lsa - cexp >= -149, ta <= 127
        f_bits = None if lay is None else np.ldexp(a, gap - cexp).astype(F32)
        return Rescaled(lay, cexp, f_bits, f_lut, self.b_packed and lay is not None)

    def decode_scaled(self, dst, k0, k1, c0, c1, plan, spare, bytes8):
        """B rows k0:k1 (nblk * rows of them, block-major), columns in the order of
        ``plan.in_order``, decoded for the rescaled path: returns ``(decoded, f)`` with
        decoded (nblk, rows, n) float32 and ``decoded[., r, j] * f[m, k0 + .]`` the scaled
        term a[m, k] B[k, j] 2^-cexp. By the bit layout into ``dst``, or, where the chunk
        holds inf/NaN codes (or there is no layout), by table into ``dst`` when it is
        contiguous, else into ``spare``. ``bytes8``: uint8, at least (k1-k0) * (c1-c0)
        elements, for narrow codes (a fresh array per chunk would cost its page faults
        every time). Callers hold ``np.errstate``."""
        nblk, rows, n = dst.shape
        lay = plan.layout
        codes = self._codes(k0, k1, c0, c1)
        if lay is not None and lay.special_min is not None:
            # inf/NaN codes are the top magnitudes: a positive one is a large signed code, a
            # negative one a large unsigned code (two max reductions, no temporary)
            if (int(codes.view(lay.carrier).max()) >= lay.special_min
                    or int(codes.max()) >= (1 << (8 * codes.itemsize - 1)) + lay.special_min):
                lay = None  # inf/NaN codes in this chunk: the table decodes them
        if lay is None:
            out = dst if dst.flags.c_contiguous else spare[: dst.size].reshape(dst.shape)
            self.decode32(out.reshape(nblk * rows, n), k0, k1, c0, c1)  # (take: contiguous)
            return out, plan.f_lut
        # (8-bit shifts are multiplies: numpy's uint8 left_shift loop is not vectorised)
        bits = dst.view(np.int32)
        if plan.planes:  # low nibbles (the even columns) moved up by 4; the high ones are
            # up already, their byte's low nibble lands below the mask
            half = -(-n // 2)
            lo = np.multiply(codes, np.uint8(16),
                             out=bytes8[: (k1 - k0) * half].reshape(k1 - k0, half))
            np.copyto(bits[..., :half], lo.view(lay.carrier).reshape(nblk, rows, half))
            np.copyto(bits[..., half:],
                      codes[:, : n // 2].view(lay.carrier).reshape(nblk, rows, n // 2))
        else:
            if lay.pre:  # the sign of a narrow code to the byte's top bit
                codes = np.multiply(codes, np.uint8(1 << lay.pre),
                                    out=bytes8[: (k1 - k0) * n].reshape(k1 - k0, n))
            np.copyto(bits, codes.view(lay.carrier).reshape(nblk, rows, n))
        np.left_shift(bits, lay.left, out=bits)
        np.bitwise_and(bits.view(np.uint32), np.uint32(lay.mask), out=bits.view(np.uint32))
        return dst, plan.f_bits

    def _codes(self, k0, k1, c0, c1):
        if self.b_packed:
            return self.cb[k0:k1, c0 // 2 : -(-c1 // 2)]
        return self.cb[k0:k1, c0:c1]

    def decode32(self, out, k0, k1, c0, c1):
        """Decode B rows k0:k1, columns c0:c1 (c0 even) into the float32 array ``out``."""
        codes = self._codes(k0, k1, c0, c1)
        if (self.b_packed and np.little_endian and c0 % 4 == 0 and (c1 - c0) % 4 == 0
                and codes.strides[1] == 1):  # four elements per lookup
            np.take(_quad_lut(self.bt), codes.view(np.uint16), out=out.view(np.complex128),
                    mode="wrap")
        elif self.pair and (c1 - c0) % 2 == 0 and (self.b_packed or codes.strides[1] == 1):
            src = codes if self.b_packed else codes.view(np.uint16)
            np.take(_pair_lut(self.bt, self.b_packed), src, out=out.view(np.float64), mode="wrap")
        elif self.b_packed:
            np.take(self.lut32, mx.unpack_x2(codes)[:, : c1 - c0], out=out)
        else:
            np.take(self.lut32, codes, out=out, mode="wrap")

    def _exp(self, k0, k1, c0, c1):
        """Combined scale exponents E (nblk, M, n) of rows k0:k1 and their NaN flags."""
        b0, b1 = k0 // MX_BLOCK, -(-k1 // MX_BLOCK)
        e = self.ea[b0:b1, :, None] + self.eb[b0:b1, None, c0:c1]
        nan = self.na[b0:b1, :, None] | self.nbs[b0:b1, None, c0:c1]
        return e, nan

    def _scales(self, k0, k1, c0, c1, dtype):
        e, nan = self._exp(k0, k1, c0, c1)
        lo, hi = (-149, 127) if dtype == F32 else (-1022, 1023)
        s = np.ldexp(np.ones((), dtype), np.clip(e, lo, hi))
        s[nan] = np.nan
        return s

    def _safe(self, e, nan):
        return nan | ((e >= self.e_lo) & (e <= self.e_hi))

    def safe(self, k0, k1, c0, c1):
        """(c1-c0,) bool: every term of rows k0:k1 in that column (every row of A) is
        exactly an FP32 value (or inf/NaN); True when that holds for every term of the product."""
        if self._pre is not None:
            if self.all_safe:
                return True
            return self._pre[1][k0 // MX_BLOCK : -(-k1 // MX_BLOCK), :, c0:c1].all(axis=(0, 1))
        return self._safe(*self._exp(k0, k1, c0, c1)).all(axis=(0, 1))

    def _s32(self, k0, k1, c0, c1):
        """(nblk, M, n) FP32 block scales of rows k0:k1, columns c0:c1."""
        b0, b1 = k0 // MX_BLOCK, -(-k1 // MX_BLOCK)
        if self._pre is None:
            return self._scales(k0, k1, c0, c1, F32)
        if self._pre[0] is not None:
            return self._pre[0][b0:b1, :, c0:c1]
        # all safe: every E is in range and no scale is NaN; the same table lookup
        idx = np.empty((b1 - b0, self.shape[0], c1 - c0), np.intp)
        np.add(self.ea[b0:b1, :, None], self.eb[b0:b1, None, c0:c1], out=idx)
        idx -= _E_MIN
        return _S32_BY_E.take(idx)

    @staticmethod
    def _scale_rows(x, s):
        """x (rows, ...) *= the block scale s (nblk, ...) of each row (in place); row 0 of x
        is the first row of a block."""
        rows = x.shape[0]
        full = rows // MX_BLOCK
        if full:
            v = x[: full * MX_BLOCK].reshape(full, MX_BLOCK, *x.shape[1:])
            v *= s[:full, None]
        if rows % MX_BLOCK:
            x[full * MX_BLOCK :] *= s[full]

    def fill32(self, out, k0, k1, c0, c1):
        """out (rows, M, n) float32 = the terms (exact where :meth:`safe`). Callers hold
        ``np.errstate`` (over/invalid/under ignored)."""
        # one multiply by the factor a[m, k] * s[block, m, j]: exact where the term is safe
        # (then 2^E a is an FP32 value, see the module docstring; a * B first could leave
        # FP32's range before the scale brings it back); other columns are replaced by the
        # caller
        factors = _row_factors(self.a32[:, k0:k1].T, self._s32(k0, k1, c0, c1))
        if self.shape[0] == 1:  # 2-D views: cheaper broadcasting
            o2 = out[:, 0, :]
            self.decode32(o2, k0, k1, c0, c1)
            o2 *= factors[:, 0, :]
            return
        tmp = np.empty((k1 - k0, c1 - c0), np.float32)
        self.decode32(tmp, k0, k1, c0, c1)
        np.multiply(tmp[:, None, :], factors, out=out)

    def b64(self, k0, k1, cols):
        codes = self.cb[k0:k1]
        if self.b_packed:
            codes = mx.unpack_x2(codes)
        return self.lut64[codes[:, cols]]

    def terms64(self, k0, k1, cols):
        """(rows, M, len(cols)) exact float64 terms (scaled elements multiplied)."""
        b = self.b64(k0, k1, cols)[:, None, :]
        a = self.a64[:, k0:k1].T[:, :, None]
        b0, b1 = k0 // MX_BLOCK, -(-k1 // MX_BLOCK)
        s = np.ldexp(1.0, self.ea[b0:b1, :, None] + self.eb[b0:b1, None, cols])
        s[self.na[b0:b1, :, None] | self.nbs[b0:b1, None, cols]] = np.nan
        with np.errstate(invalid="ignore", over="ignore"):
            out = a * b
            self._scale_rows(out, s)
        return out

    def block_sums64(self, k0, k1, c0, c1):
        """(nblk, M, n) exact float64 scaled block sums (only when ``block_exact``); k0 is a
        multiple of 32."""
        m = self.shape[0]
        rows = k1 - k0
        nblk = -(-rows // MX_BLOCK)
        rp = nblk * MX_BLOCK
        buf = np.zeros((rp, c1 - c0), np.float32)
        self.decode32(buf[:rows], k0, k1, c0, c1)
        a = np.zeros((m, rp))
        a[:, :rows] = self.a64[:, k0:k1]
        a3 = a.reshape(m, nblk, MX_BLOCK).transpose(1, 0, 2)
        with np.errstate(invalid="ignore", over="ignore"):
            p = np.matmul(a3, buf.reshape(nblk, MX_BLOCK, c1 - c0).astype(np.float64))
            p *= self._scales(k0, k1, c0, c1, F64)
        return p


# -- the ordered profile ---------------------------------------------------------------------
def _wide_steps(acc: np.ndarray, terms: np.ndarray) -> np.ndarray:
    """acc (M, n) float32; terms (rows, M, n) exact float64: per row one correctly rounded
    FP32 FMA, ``acc = RNE_fp32(acc + t)``, via TwoSum + round-to-odd in float64."""
    acc = acc.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        for t in terms:
            s = acc + t
            bb = s - acc
            e = (acc - (s - bb)) + (t - bb)
            fix = np.isfinite(e) & (e != 0) & ((s.view(np.uint64) & np.uint64(1)) == 0)
            if fix.any():
                away = (e > 0) == (s > 0)
                bits = s.view(np.int64) + np.where(away, 1, -1)
                s = np.where(fix, bits.view(np.float64), s)
            acc = s.astype(np.float32).astype(np.float64)
    return acc.astype(np.float32)


def _add_rows(rows: np.ndarray, out: np.ndarray) -> None:
    """out = rows[0] + rows[1] + ... in row order, one float32 rounding per addition.

    ``np.add.reduce`` over axis 0 of a C-contiguous 2-D array with at least two columns
    iterates the rows in order (the inner loop runs over the columns); with a single column
    numpy sums pairwise, so narrow outputs take an explicit loop. ``initial=-0.0`` (the
    exact additive identity): without it numpy starts from +0, and -0 + -0 would give +0."""
    if rows.shape[1] >= 8:
        np.add.reduce(rows, axis=0, out=out, initial=-0.0)
        return
    out[...] = rows[0]
    for r in rows[1:]:
        np.add(out, r, out=out)


def _ordered_cols(src, c, c0: int, c1: int) -> np.ndarray:
    m, k, _ = src.shape
    n = c1 - c0
    acc = np.zeros((m, n), np.float32) if c is None else c[:, c0:c1].astype(np.float32)
    buf = np.empty((min(_CHUNK, k) + 1, m, n), np.float32)
    flat = acc.reshape(-1)
    with np.errstate(invalid="ignore", over="ignore"):
        for k0 in range(0, k, _CHUNK):
            k1 = min(k, k0 + _CHUNK)
            rows = k1 - k0
            safe = src.safe(k0, k1, c0, c1)
            b = buf[: rows + 1]
            colsafe = None if safe is False else safe  # True, or per column
            if colsafe is True or (colsafe is not None and colsafe.all()):
                b[0] = acc
                src.fill32(b[1:], k0, k1, c0, c1)
                _add_rows(b.reshape(rows + 1, -1), flat)
                continue
            uns = np.arange(n) if colsafe is None else np.flatnonzero(~colsafe)
            t64 = src.terms64(k0, k1, uns + c0)
            t32 = t64.astype(np.float32)
            ok = ((t32 == t64) | np.isnan(t64)).all(axis=(0, 1))
            wide = uns[~ok]
            old = acc[:, wide].copy()
            b[0] = acc
            if colsafe is not None:
                src.fill32(b[1:], k0, k1, c0, c1)
            b[1:, :, uns[ok]] = t32[:, :, ok]
            if wide.size:
                b[1:, :, wide] = 0
            _add_rows(b.reshape(rows + 1, -1), flat)
            if wide.size:
                acc[:, wide] = _wide_steps(old, t64[:, :, ~ok])
    return acc


_RATIO_WORDS = 1 << 18
"""Rescaling factors computed per group of blocks (at most about this many, at least a chunk)."""


def _ratio_bits(ea: np.ndarray, eb: np.ndarray, b0: int, b1: int) -> np.ndarray:
    """(b1-b0, M, n) float32 2^(E_(b-1) - E_b) for blocks b0 <= b < b1 (1 for block 0), from
    the per-side scale exponents ea (nb, M), eb (nb, n): written as FP32 bits, exact because
    the plan keeps every difference within [-126, 126]. Three passes, no temporaries of
    the output's size (slices of eb, not an indexed copy)."""
    bits = np.empty((b1 - b0, ea.shape[1], eb.shape[1]), np.int32)
    first = max(b0, 1)  # block 0 is its own predecessor
    if b0 == 0:
        bits[0] = 127 << 23
    if b1 > first:
        rest = bits[first - b0 :]
        np.subtract(eb[first - 1 : b1 - 1, None, :], eb[first:b1, None, :], out=rest)
        rest += (ea[first - 1 : b1 - 1] - ea[first:b1] + 127)[:, :, None]
        rest <<= 23
    return bits.view(F32)


_GROUP_BYTES = 1 << 19
"""Working buffer of the rescaled path per chunk: about half the L2 cache of one core."""


def _rescaled_cols(src, c, plan: Rescaled, c0: int, c1: int) -> np.ndarray:
    """The ordered profile on a rescaled accumulator (module docstring), columns c0:c1.

    Per scale block, rows of A are taken a group at a time: a (33, g, n) buffer holds the
    group's accumulators in the block's domain in row 0 and the block's terms below,
    reduced in order. g is as large as keeps a chunk's buffers within ``_GROUP_BYTES``
    (one row of A when B is wide: M buffers per block would leave the L2 cache). With one
    row of A, B is decoded straight into the buffers and multiplied there by the row
    factors; with more, B is decoded once per chunk and multiplied into the buffers row by
    row."""
    m, k, _ = src.shape
    n = c1 - c0
    ea, eb = src.ea, plan.in_order(src.eb, c0, c1)  # (nb, M), (nb, n)
    nblk = -(-min(_CHUNK, k) // MX_BLOCK)
    group = nblk * max(1, _RATIO_WORDS // (nblk * m * n))  # blocks per ratio group
    g = max(1, min(m, _GROUP_BYTES // (nblk * (MX_BLOCK + 1) * n * 4)))  # rows of A
    buf = np.empty((nblk, MX_BLOCK + 1, g, n), F32)
    scratch = np.empty(min(_CHUNK, k) * n, F32)  # B decoded for M > 1, or by table
    bytes8 = np.empty(min(_CHUNK, k) * n, np.uint8)  # narrow codes moved up
    acc = np.zeros((m, n), F32)
    if c is not None:  # C in the first block's domain (exact: module docstring)
        e0 = ea[0][:, None].astype(np.int64) + eb[0][None, :]
        acc = np.ldexp(plan.in_order(c, c0, c1).astype(F64), -(e0 + plan.cexp)).astype(F32)
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        # no longer than a row: numpy buffers a broadcast per-row factor otherwise (2.5x
        # slower); the errstate context restores the thread's setting
        np.setbufsize(max(16, min(8192, n) & ~15))
        for k0 in range(0, k, _CHUNK):
            k1 = min(k, k0 + _CHUNK)
            full, rem = divmod(k1 - k0, MX_BLOCK)
            parts = []  # (first block, end block, rows per block, B decoded, factors, row)
            for i0, i1, rows in ((0, full, MX_BLOCK), (full, full + 1, rem)):
                if i1 == i0 or rows == 0:
                    continue
                ka, kb = k0 + i0 * MX_BLOCK, k0 + i0 * MX_BLOCK + (i1 - i0) * rows
                if m == 1:
                    dst = buf[i0:i1, 1 : rows + 1, 0]
                else:
                    dst = scratch[(ka - k0) * n : (kb - k0) * n].reshape(i1 - i0, rows, n)
                parts.append((i0, i1, rows, *src.decode_scaled(dst, ka, kb, c0, c1, plan,
                                                              scratch, bytes8), ka))
            b0 = k0 // MX_BLOCK
            if b0 % group == 0:
                g0 = b0
                ratio = _ratio_bits(ea, eb, g0, min(g0 + group, ea.shape[0]))
            for m0 in range(0, m, g):
                m1 = min(m, m0 + g)
                out = acc[m0:m1].reshape(-1)
                for i0, i1, rows, dec, f, ka in parts:
                    for r in range(m0, m1):  # the terms: one factor per row of B
                        np.multiply(dec, f[r, ka : ka + (i1 - i0) * rows].reshape(-1, rows, 1),
                                    out=buf[i0:i1, 1 : rows + 1, r - m0])
                    for i in range(i0, i1):
                        w = buf[i, : rows + 1, : m1 - m0]
                        np.multiply(acc[m0:m1], ratio[b0 - g0 + i, m0:m1], out=w[0])  # domain
                        _add_rows(w.reshape(rows + 1, -1), out)
    e = ea[-1][:, None].astype(np.int64) + eb[-1][None, :]  # the last block's domain
    return plan.natural(np.ldexp(acc.astype(F64), e + plan.cexp).astype(F32))  # exact


def _runnable_others() -> int | None:
    """Tasks runnable right now besides this thread (``/proc/loadavg`` field 4), or None."""
    try:
        with open("/proc/loadavg") as f:
            return int(f.read().split()[3].split("/")[0]) - 1
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        return None


def _cores_free() -> bool:
    """Two threads pay off only when the machine has a spare core (on an oversubscribed
    machine the per-block GIL hand-offs make them slower). Decided from the tasks runnable
    right now (three samples), not the one-minute load average, which stays high for a
    minute after a finished job and would disable the threads spuriously. Results never
    depend on this: columns are independent chains."""
    cpus = os.cpu_count() or 1
    samples = [_runnable_others() for _ in range(3)]
    if None in samples:  # pragma: no cover - no /proc: fall back to the load average
        try:
            return os.getloadavg()[0] < cpus - 0.5
        except OSError:
            return True
    return max(samples) <= cpus - 2


def _split_columns(fn, src, *args) -> np.ndarray:
    m, k, n = src.shape
    if m * k * n >= _THREAD_MIN and n >= 64 and _cores_free():
        h = (n // 2) & ~1
        futs = [_pool().submit(fn, src, *args, c0, c1) for c0, c1 in ((0, h), (h, n))]
        return np.concatenate([fu.result() for fu in futs], axis=1)
    return fn(src, *args, 0, n)


def ordered(src, c: np.ndarray | None, bias: np.ndarray | None) -> np.ndarray:
    """The ``ordered`` profile (module docstring): (M, N) float32."""
    m, _, n = src.shape
    # the rescaled path pays its calls per 32-row block; narrow products (the per-PE tiles
    # of a lowered program) are cheaper per chunk of 128 rows
    wide = m * n >= _RESCALED_MIN_OUTPUTS and n >= _RESCALED_MIN_COLUMNS
    plan = src.rescale_plan(c) if wide and isinstance(src, MxTerms) else None
    if plan is None:
        acc = _split_columns(_ordered_cols, src, c)
    else:  # one thread: two measured no faster (docs/numerics-profiles.md)
        acc = _rescaled_cols(src, c, plan, 0, src.shape[2])
    if bias is None:
        return acc
    with np.errstate(invalid="ignore", over="ignore"):
        return acc + bias.astype(np.float32)


# -- the exact profile -----------------------------------------------------------------------
def _extract(x: np.ndarray) -> list[np.ndarray]:
    """Exact float64 components whose sum is ``x.sum(axis=0)`` exactly (x finite, float64).

    Per level: sigma = a power of two >= (rows + 2) * max|x| per element position;
    ``q = (sigma + x) - sigma`` is x on the grid 2^-53 sigma (error-free), so the q's and
    all their partial sums are exact in float64; the remainders x - q (exact, below the
    grid) go to the next level, until they are all zero."""
    out = []
    rows = x.shape[0]
    grow = float(2 ** int(np.ceil(np.log2(rows + 2))))
    with np.errstate(over="ignore", under="ignore"):
        while True:
            mx_ = np.abs(x).max(axis=0)
            if not mx_.any():
                return out
            _, e = np.frexp(mx_ * grow)  # mx * grow < 2^e
            sigma = np.where(mx_ > 0, np.ldexp(1.0, e), 0.0)
            q = (sigma + x) - sigma
            x = x - q
            out.append(q.sum(axis=0))


def _fraction_f32(fr: Fraction) -> np.float32:
    """RNE float32 of an exact rational: round to odd in float64, then cast."""
    f = float(fr)
    if Fraction(f) != fr and (np.float64(f).view(np.uint64) & np.uint64(1)) == 0:
        f = float(np.nextafter(f, np.inf if Fraction(f) < fr else -np.inf))
    with np.errstate(over="ignore"):
        return np.float32(f)


def _round_components(comps: np.ndarray) -> np.ndarray:
    """Round the exact sum over axis 0 of finite float64 components once to float32."""
    if comps.shape[0] == 0:
        return np.zeros(comps.shape[1:], np.float32)
    approx = comps.sum(axis=0)
    bound = 2.0 * comps.shape[0] * 2.0**-53 * np.abs(comps).sum(axis=0) + 2.0**-1070
    with np.errstate(over="ignore"):
        lo, hi = (approx - bound).astype(np.float32), (approx + bound).astype(np.float32)
        out = approx.astype(np.float32)
    nonzero = comps.any(axis=0)
    out[~nonzero] = 0.0  # an exact zero is +0
    # the float64 sum decides the result unless the interval straddles a rounding boundary
    # (or the result is a zero whose sign the interval does not fix)
    hard = np.flatnonzero(((lo != hi) | ((out == 0) & nonzero)).reshape(-1))
    if hard.size:
        flat = comps.reshape(comps.shape[0], -1)
        res = out.reshape(-1)
        for i in hard:
            res[i] = _fraction_f32(sum((Fraction(float(v)) for v in flat[:, i]), Fraction(0)))
    return out


def _exact_cols(src, extras, c0: int, c1: int) -> np.ndarray:
    m, k, _ = src.shape
    n = c1 - c0
    comps: list[np.ndarray] = []
    special = np.zeros((m, n))
    chunk = 256 if src.block_exact else _CHUNK
    with np.errstate(invalid="ignore", over="ignore"):
        for x in extras:
            x = x[:, c0:c1].astype(np.float64)
            fin = np.isfinite(x)
            special += np.where(fin, 0.0, x)
            comps.append(np.where(fin, x, 0.0))
        for k0 in range(0, k, chunk):
            k1 = min(k, k0 + chunk)
            if src.block_exact:
                p = src.block_sums64(k0, k1, c0, c1)
                if np.isfinite(p).all():
                    comps += _extract(p)
                    continue
            t = src.terms64(k0, k1, np.arange(c0, c1))
            fin = np.isfinite(t)
            if not fin.all():
                special += np.where(fin, 0.0, t).sum(axis=0)
                t = np.where(fin, t, 0.0)
            comps += _extract(t)
            if len(comps) > 64:
                comps = _extract(np.stack(comps))  # exact: fold into a few components
        stacked = np.stack(comps) if comps else np.zeros((0, m, n))
        # re-extract the per-chunk components (exact) so few are left for the rounding
        if len(comps) > 4:
            folded = _extract(stacked)
            stacked = np.stack(folded) if folded else np.zeros((0, m, n))
        res = _round_components(stacked)
        nonfinite = special != 0
        return np.where(nonfinite, special.astype(np.float32), res)


def exact(src, c: np.ndarray | None, bias: np.ndarray | None) -> np.ndarray:
    """The ``exact`` profile (module docstring): (M, N) float32."""
    m, _, n = src.shape
    extras = [x for x in (c, None if bias is None else np.broadcast_to(bias, (m, n)))
              if x is not None]
    return _split_columns(_exact_cols, src, extras)
