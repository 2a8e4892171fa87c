"""Compiled (numba) kernels of the CUBE ``ordered`` accumulation, and the scaled block sums of
the ``exact`` one; bits identical to the numpy reference in :mod:`.accumulate`
(docs/compiled-kernels.md; selected by :mod:`.jit`).

The ``ordered`` profile fixes, per output element (m, n), the chain

    acc = C[m, n] or +0;  for k = 0, 1, ..., K-1:  acc = RNE_fp32(acc + t[m, k, n])

with ``t`` the exact product of the two (scaled) elements. Chains of different (m, n) never
interact, so any loop order that keeps k ascending within each chain gives the same bits.

* When both factors of every term are FP32 values (``t = x[m, k] * y[k, n]`` with x, y
  float32: every non-MX input type, and MX operands whose scaled elements stay in FP32's
  range, checked from the scale codes and the formats' value ranges), one step is exactly
  one IEEE fused multiply-add in FP32, ``acc = fma(x, y, acc)`` (the product is exact inside
  the FMA; overflow is +-inf, 0 * inf is NaN). Matrices: B is decoded (and scaled) once into
  panels of ``NR`` columns, and a micro kernel keeps an ``MR x NR`` block of accumulators in
  vector registers while k runs over the whole of K in order. It is written as LLVM IR
  (:func:`_micro`) because numba's loop vectoriser only vectorises innermost loops, and the
  k loop must stay innermost and sequential. One row (GEMV): 8-bit codes become FP16
  patterns converted exactly to FP32 (:func:`_half_rows`: no decode scratch, 8 rows per pass
  over accumulators held in vector registers); other codes are decoded four rows by
  ``_GEMV_W`` columns at a time and each accumulator takes the four terms as one chain of
  FMAs.
* Otherwise (MX scales so extreme that a scaled element leaves FP32's range), the step
  forms the exact term in float64 and rounds ``acc + t`` once to FP32: TwoSum gives the
  error of the float64 sum, round-to-odd folds it into the last bit, and the cast to FP32 is
  then one correct RNE rounding (53 >= 24 + 2 bits), as ``accumulate._wide_steps`` does.

B reaches the kernels as the bytes of its codes (one compiled specialisation for every
type): ``MODE_BITS`` (8-bit sign/exponent/mantissa codes, and 4-bit / 6-bit ones one per
byte: bit fields decoded 16 at a time by :func:`_bits16`), ``MODE_LUT`` (HiF8 codes index a
float32 value table),
``MODE_NIBBLE`` (packed X2 bytes, low nibble first), ``MODE_LUT16`` (16-bit codes),
``MODE_BF16`` (a BF16 code is the top half of its FP32 pattern), ``MODE_F32`` (FP32 / TF32 /
HF32 patterns). Decoded values are exact: every CUBE element format is a subset of FP32.
Kernels allocate nothing (their Python drivers do): numba compiles array expressions slowly.
The ``exact`` MX GEMV (:func:`exact_gemv`) sums its exact block sums exactly as two float64
running sums per column and rounds once (:func:`_round_exact`).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from . import accumulate as acc_mod
from . import mx

MX_BLOCK = 32
NR = 32  # columns per B panel (two 16-lane vectors)
VW = 16  # vector lanes of the micro kernel (split by LLVM where the target is narrower)
MODE_LUT, MODE_NIBBLE, MODE_LUT16, MODE_BF16, MODE_F32, MODE_BITS = 0, 1, 2, 3, 4, 5

_OPTS = dict(cache=True, nogil=True, boundscheck=False)


# -- LLVM intrinsics -----------------------------------------------------------------------
@intrinsic
def fma32(typingctx, a, b, c):
    """One IEEE FMA in float32 (``llvm.fma.f32``): RNE(a * b + c), the product exact."""
    sig = types.float32(types.float32, types.float32, types.float32)

    def codegen(context, builder, signature, args):
        f32 = ir.FloatType()
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(f32, [f32] * 3), "llvm.fma.f32")
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def _u32_as_f32(typingctx, x):
    sig = types.float32(types.uint32)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.FloatType())

    return sig, codegen


@intrinsic
def _f64_as_i64(typingctx, x):
    sig = types.int64(types.float64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return sig, codegen


@intrinsic
def _i64_as_f64(typingctx, x):
    sig = types.float64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return sig, codegen


def _micro(mr: int):
    """An intrinsic ``micro(c, ldc, a, lda, b, ldb, kk)`` over raw addresses (float32
    elements; strides in elements): for k in 0..kk-1 in order,
    ``C[i, 0:NR] = fma(A[i, k], B[k, 0:NR], C[i, 0:NR])`` for the ``mr`` rows i, with C held
    in vector registers for the whole k loop."""
    nv = NR // VW

    @intrinsic
    def micro(typingctx, c_addr, ldc, a_addr, lda, b_addr, ldb, kk):
        sig = types.void(*([types.intp] * 7))

        def codegen(context, builder, signature, args):
            c_addr, ldc, a_addr, lda, b_addr, ldb, kk = args
            f32, i64, i32 = ir.FloatType(), ir.IntType(64), ir.IntType(32)
            vty = ir.VectorType(f32, VW)
            fma = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(vty, [vty] * 3), f"llvm.fma.v{VW}f32")
            cp, ap, bp = (builder.inttoptr(x, f32.as_pointer()) for x in (c_addr, a_addr, b_addr))

            def vptr(base, off):
                return builder.bitcast(builder.gep(base, [off]), vty.as_pointer())

            def coff(i, v):
                return builder.add(builder.mul(ldc, ir.Constant(i64, i)), ir.Constant(i64, v * VW))

            accs = {}
            for i in range(mr):
                for v in range(nv):
                    slot = cgutils.alloca_once(builder, vty)
                    builder.store(builder.load(vptr(cp, coff(i, v)), align=4), slot)
                    accs[i, v] = slot
            undef = ir.Constant(vty, ir.Undefined)
            splat = ir.Constant(ir.VectorType(i32, VW), [0] * VW)
            with cgutils.for_range(builder, kk) as loop:
                k = loop.index
                boff = builder.mul(k, ldb)
                bvs = [builder.load(vptr(bp, builder.add(boff, ir.Constant(i64, v * VW))), align=4)
                       for v in range(nv)]
                for i in range(mr):
                    av = builder.load(builder.gep(ap, [builder.add(builder.mul(lda, ir.Constant(i64, i)), k)]))
                    av = builder.shuffle_vector(
                        builder.insert_element(undef, av, ir.Constant(i32, 0)), undef, splat)
                    for v in range(nv):
                        builder.store(builder.call(fma, [av, bvs[v], builder.load(accs[i, v])]),
                                      accs[i, v])
            for i in range(mr):
                for v in range(nv):
                    builder.store(builder.load(accs[i, v]), vptr(cp, coff(i, v)), align=4)
            return context.get_dummy_value()

        return sig, codegen

    return micro


_MICRO4, _MICRO1 = _micro(4), _micro(1)


@intrinsic
def _bits16(typingctx, codes_addr, out_addr, pre, left, maskmag, gap, smin):
    """Sixteen 8-bit sign/exponent/mantissa codes -> float32 (:class:`.mx.BitLayout`), in
    32-bit vector lanes: the code (shifted left by ``pre`` within its byte) has its exponent
    and mantissa fields moved to FP32's (``<< left``, ``& maskmag``); a nonzero exponent field
    is rebased by adding ``gap << 23``; a zero one (zero or subnormal) is the integer field
    times 2^(gap - 149), a normal FP32 constant (no multiply ever sees a subnormal operand:
    those take a slow microcode assist on x86); codes whose magnitude reaches ``smin`` are
    +-inf (zero mantissa) or NaN. Exact for every finite code."""
    sig = types.void(types.intp, types.intp, types.int64, types.int64, types.int64, types.int64,
                     types.int64)

    def codegen(context, builder, signature, args):
        ca, oa, pre, left, maskmag, gap, smin = args
        f32, i8, i32 = ir.FloatType(), ir.IntType(8), ir.IntType(32)
        v8, v32, vf = ir.VectorType(i8, 16), ir.VectorType(i32, 16), ir.VectorType(f32, 16)
        undef = ir.Constant(v32, ir.Undefined)
        zeros = ir.Constant(v32, [0] * 16)

        def splat(x):
            return builder.shuffle_vector(builder.insert_element(undef, builder.trunc(x, i32),
                                                                 ir.Constant(i32, 0)), undef, zeros)

        def const(x):
            return ir.Constant(v32, [x] * 16)

        c = builder.zext(builder.load(builder.inttoptr(ca, v8.as_pointer()), align=1), v32)
        x = builder.and_(builder.shl(c, splat(pre)), const(0xFF))
        sign = builder.shl(builder.and_(x, const(0x80)), const(24))
        mag = builder.and_(x, const(0x7F))
        field = builder.and_(builder.shl(mag, splat(left)), splat(maskmag))
        normal = builder.add(field, builder.shl(splat(gap), const(23)))
        scale_bits = builder.shl(builder.add(builder.trunc(gap, i32), ir.Constant(i32, 127 - 149)),
                                 ir.Constant(i32, 23))
        scale = builder.bitcast(scale_bits, f32)
        uscale = builder.shuffle_vector(
            builder.insert_element(ir.Constant(vf, ir.Undefined), scale, ir.Constant(i32, 0)),
            ir.Constant(vf, ir.Undefined), zeros)
        sub = builder.bitcast(builder.fmul(builder.uitofp(field, vf), uscale), v32)
        is_norm = builder.icmp_unsigned("!=", builder.and_(field, const(0x7F800000)), zeros)
        val = builder.or_(builder.select(is_norm, normal, sub), sign)
        mant0 = builder.icmp_unsigned("==", builder.and_(field, const(0x7FFFFF)), zeros)
        spec = builder.select(mant0, builder.or_(sign, const(0x7F800000)), const(0x7FC00000))
        out = builder.select(builder.icmp_unsigned(">=", mag, splat(smin)), spec, val)
        builder.store(builder.bitcast(out, vf), builder.inttoptr(oa, vf.as_pointer()), align=4)
        return context.get_dummy_value()

    return sig, codegen


def _splat(builder, x, vty):
    zeros = ir.Constant(ir.VectorType(ir.IntType(32), vty.count), [0] * vty.count)
    undef = ir.Constant(vty, ir.Undefined)
    return builder.shuffle_vector(
        builder.insert_element(undef, x, ir.Constant(ir.IntType(32), 0)), undef, zeros)


def _half_splats(builder, params):
    """The four :func:`half_params` (sh, ash, mask, nanh) as 16-bit vectors."""
    v16 = ir.VectorType(ir.IntType(16), VW)
    return [_splat(builder, builder.trunc(x, ir.IntType(16)), v16) for x in params]


def _half_codes(builder, ptr, hp, packed=False):
    """``VW`` codes at the i8 pointer ``ptr`` -> their FP16 values (``<VW x half>``) as
    :func:`_half_rows` describes; ``hp`` from :func:`_half_splats`. ``packed``: ``VW / 2``
    bytes of two 4-bit codes each, the low nibble first."""
    shv, ashv, maskv, nanv = hp
    v16 = ir.VectorType(ir.IntType(16), VW)
    if packed:
        half = VW // 2
        v8 = ir.VectorType(ir.IntType(8), half)
        b = builder.zext(builder.load(builder.bitcast(ptr, v8.as_pointer()), align=1),
                         ir.VectorType(ir.IntType(16), half))
        lo = builder.and_(b, ir.Constant(b.type, [15] * half))
        hi = builder.lshr(b, ir.Constant(b.type, [4] * half))
        wide = builder.shuffle_vector(lo, hi, ir.Constant(
            ir.VectorType(ir.IntType(32), VW), [j // 2 + (j % 2) * half for j in range(VW)]))
    else:
        v8 = ir.VectorType(ir.IntType(8), VW)
        wide = builder.zext(builder.load(builder.bitcast(ptr, v8.as_pointer()), align=1), v16)
    h = builder.and_(builder.ashr(builder.shl(wide, shv), ashv), maskv)
    nan = builder.icmp_unsigned("==", builder.and_(h, ir.Constant(v16, [0x7FFF] * VW)), nanv)
    h = builder.select(nan, ir.Constant(v16, [0x7E00] * VW), h)
    return builder.bitcast(h, ir.VectorType(ir.HalfType(), VW))


def _half_rows(nr: int, packed: bool = False):
    """An intrinsic ``rows(acc, codes, ldb, a, s, nvec, sh, ash, mask, nanh)`` over raw
    addresses: for the ``16 * nvec`` columns j and the ``nr`` rows r of B in order,
    ``acc[j] = fma(a[r], FP16(code[r, j]) * s[j], acc[j])`` with each 16-column block of
    accumulators held in a vector register over the ``nr`` rows (one load and store per
    ``nr`` terms). An 8-bit sign / exponent / mantissa code (:func:`half_params`) becomes the
    FP16 pattern with the same sign, exponent field and mantissa: widened to 16 bits and
    shifted left by ``sh`` (its sign to bit 15, the code's unused high bits dropped), shifted
    right arithmetically by ``ash`` (its exponent field ends at FP16's exponent LSB, bit 10)
    and masked by ``mask`` (the sign copies cleared). Its FP16 value is the code's value
    times 2^(bias - 15) for every finite code, subnormal codes on FP16 subnormals; the
    conversion to FP32 (``vcvtph2ps``) is exact, and ``s`` carries the factor
    2^(15 - bias) with the block scale. A magnitude pattern equal to ``nanh`` (E4M3's NaN
    code) becomes FP16's quiet NaN; E5M2's inf / NaN codes are FP16's own."""

    @intrinsic
    def rows(typingctx, acc_a, codes_a, ldb, a_a, s_a, nvec, sh, ash, mask, nanh):
        sig = types.void(*([types.intp] * 10))

        def codegen(context, builder, signature, args):
            acc_a, codes_a, ldb, a_a, s_a, nvec, sh, ash, mask, nanh = args
            f32, i64 = ir.FloatType(), ir.IntType(64)
            vf = ir.VectorType(f32, VW)
            fma = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(vf, [vf] * 3), f"llvm.fma.v{VW}f32")
            accp, sp, ap = (builder.inttoptr(x, f32.as_pointer()) for x in (acc_a, s_a, a_a))
            cp = builder.inttoptr(codes_a, ir.IntType(8).as_pointer())
            hp = _half_splats(builder, (sh, ash, mask, nanh))
            avs = [_splat(builder, builder.load(builder.gep(ap, [ir.Constant(i64, r)])), vf)
                   for r in range(nr)]
            offs = [builder.mul(ldb, ir.Constant(i64, r)) for r in range(nr)]
            with cgutils.for_range(builder, nvec) as loop:
                col = builder.mul(loop.index, ir.Constant(i64, VW))
                accq = builder.bitcast(builder.gep(accp, [col]), vf.as_pointer())
                accv = builder.load(accq, align=4)
                sv = builder.load(builder.bitcast(builder.gep(sp, [col]), vf.as_pointer()),
                                  align=4)
                bcol = builder.lshr(col, ir.Constant(i64, 1)) if packed else col
                for r in range(nr):
                    cq = builder.gep(cp, [builder.add(offs[r], bcol)])
                    v = builder.fpext(_half_codes(builder, cq, hp, packed), vf)
                    accv = builder.call(fma, [avs[r], builder.fmul(v, sv), accv])
                builder.store(accv, accq, align=4)
            return context.get_dummy_value()

        return sig, codegen

    return rows


HALF_ROWS = 8  # rows of B per pass over the accumulators
_HALF_N, _HALF_1 = _half_rows(HALF_ROWS), _half_rows(1)
_HALF_NP, _HALF_1P = _half_rows(HALF_ROWS, True), _half_rows(1, True)


# -- decoding ------------------------------------------------------------------------------
@njit(**_OPTS)
def decode_row(mode, codes, k, j0, lut, out):
    """out[0:w] = the values of B[k, j0:j0+w] (float32, exact) from the bytes of row k
    (little-endian codes; j0 even for packed rows). 8-bit codes: by bit fields, 16 lanes at a
    time (1.5x faster than a table load per element), else by table. Rows are sliced first:
    indices from 0 need no negative-index wrap-around, which would keep LLVM from
    vectorising."""
    w = out.shape[0]
    if mode == MODE_BITS:  # 16 at a time by :func:`_bits16`, parameters after the table
        row = codes[k, j0 : j0 + w]
        pre, left = np.int64(lut[256]), np.int64(lut[257])
        nbits, mshift = np.int64(lut[258]), np.int64(lut[259])
        gap, smin = np.int64(lut[260]), np.int64(lut[261])
        maskmag = ((np.int64(1) << nbits) - 1) << mshift
        ra, oa = row.ctypes.data, out.ctypes.data
        w16 = w - w % 16
        for j in range(0, w16, 16):
            _bits16(ra + j, oa + 4 * j, pre, left, maskmag, gap, smin)
        for j in range(w16, w):
            out[j] = lut[row[j]]
    elif mode == MODE_LUT:
        row = codes[k, j0 : j0 + w]
        for j in range(w):
            out[j] = lut[row[j]]
    elif mode == MODE_NIBBLE:
        row = codes[k, j0 // 2 : (j0 + w + 1) // 2]
        for j in range(w // 2):
            byte = row[j]
            out[2 * j] = lut[byte & 15]
            out[2 * j + 1] = lut[byte >> 4]
        if w % 2:
            out[w - 1] = lut[row[w // 2] & 15]
    elif mode == MODE_LUT16:
        row = codes[k, 2 * j0 : 2 * (j0 + w)]
        for j in range(w):
            out[j] = lut[np.int32(row[2 * j]) | (np.int32(row[2 * j + 1]) << 8)]
    elif mode == MODE_BF16:
        row = codes[k, 2 * j0 : 2 * (j0 + w)]
        for j in range(w):
            out[j] = _u32_as_f32((np.uint32(row[2 * j]) << 16) | (np.uint32(row[2 * j + 1]) << 24))
    else:
        row = codes[k, 4 * j0 : 4 * (j0 + w)]
        for j in range(w):
            out[j] = _u32_as_f32(np.uint32(row[4 * j]) | (np.uint32(row[4 * j + 1]) << 8)
                                 | (np.uint32(row[4 * j + 2]) << 16)
                                 | (np.uint32(row[4 * j + 3]) << 24))


@njit(**_OPTS)
def _scaled_row(mode, codes, k, j0, lut, scaled, sbs, out):
    decode_row(mode, codes, k, j0, lut, out)
    if scaled:
        s = sbs[k // MX_BLOCK, j0 : j0 + out.shape[0]]
        for j in range(out.shape[0]):
            out[j] *= s[j]


@njit(**_OPTS)
def _pack_rows(mode, codes, lut, scaled, sbs, j0, w, row, panels):
    kk, npn = codes.shape[0], panels.shape[0]
    for k in range(kk):
        _scaled_row(mode, codes, k, j0, lut, scaled, sbs, row[:w])
        for p in range(npn):
            for j in range(NR):
                panels[p, k, j] = row[p * NR + j]


def pack_b(dec, sbs: np.ndarray | None, j0: int, j1: int) -> np.ndarray:
    """(ceil((j1 - j0) / NR), K, NR) float32 panels of B's (scaled) values in columns
    j0:j1 (j0 even), zero-padded. ``dec`` = (mode, codes, lut) (:func:`decoder`); ``sbs``
    (nb, N) float32 block scales or None (each scaled value exact: checked by the caller)."""
    mode, codes, lut = dec
    npn = -(-(j1 - j0) // NR)
    panels = np.empty((npn, codes.shape[0], NR), np.float32)
    row = np.zeros(npn * NR, np.float32)
    scaled = sbs is not None
    sbs = np.ones((1, 1), np.float32) if sbs is None else sbs
    _pack_rows(mode, codes, lut, scaled, sbs, j0, j1 - j0, row, panels)
    return panels


# -- FP32 FMA kernels ------------------------------------------------------------------------
@njit(**_OPTS)
def matmul_panels(af, panels, cw):
    """cw (M, npn * NR) float32, in place: the ordered FMA chains of af (M, K) float32 times
    the panels (npn, K, NR), starting from cw. All C-contiguous (checked by the caller)."""
    m_all, kk = af.shape
    ldc = cw.shape[1]
    ca, aa, pb0 = cw.ctypes.data, af.ctypes.data, panels.ctypes.data
    for p in range(panels.shape[0]):
        pb = pb0 + 4 * p * kk * NR
        m = 0
        while m + 4 <= m_all:
            _MICRO4(ca + 4 * (m * ldc + p * NR), ldc, aa + 4 * m * kk, kk, pb, NR, kk)
            m += 4
        while m < m_all:
            _MICRO1(ca + 4 * (m * ldc + p * NR), ldc, aa + 4 * m * kk, kk, pb, NR, kk)
            m += 1


def matmul_fma(af: np.ndarray, panels: np.ndarray, c: np.ndarray) -> np.ndarray:
    """(M, n) float32: the ordered FMA chains of af (M, K) times the panels of B (n columns),
    from c (M, n)."""
    n = c.shape[1]
    cw = np.zeros((c.shape[0], panels.shape[0] * NR), np.float32)
    cw[:, :n] = c
    af = np.ascontiguousarray(af, np.float32)
    assert panels.flags.c_contiguous and panels.shape[1:] == (af.shape[1], NR)
    matmul_panels(af, panels, cw)
    return np.ascontiguousarray(cw[:, :n])


_GEMV_W = 512  # columns per chunk: four decoded rows and the accumulators stay in L1


@njit(**_OPTS)
def _gemv_rows(af, mode, codes, lut, scaled, sbs, c0, acc, r):
    kk, n = af.shape[0], acc.shape[0]
    r0, r1, r2, r3 = r[0], r[1], r[2], r[3]
    k = 0
    while k + 4 <= kk:  # (k % 4 == 0: the four rows share one scale block)
        a0, a1, a2, a3 = af[k], af[k + 1], af[k + 2], af[k + 3]
        for j0 in range(0, n, _GEMV_W):
            w = min(_GEMV_W, n - j0)
            for i in range(4):
                decode_row(mode, codes, k + i, c0 + j0, lut, r[i, :w])
            cc = acc[j0 : j0 + w]
            if scaled:  # B * scale is exact (checked by the caller)
                s = sbs[k // MX_BLOCK, c0 + j0 : c0 + j0 + w]
                for j in range(w):
                    sj = s[j]
                    cc[j] = fma32(a3, r3[j] * sj, fma32(a2, r2[j] * sj, fma32(
                        a1, r1[j] * sj, fma32(a0, r0[j] * sj, cc[j]))))
            else:
                for j in range(w):
                    cc[j] = fma32(a3, r3[j], fma32(a2, r2[j], fma32(a1, r1[j], fma32(
                        a0, r0[j], cc[j]))))
        k += 4
    while k < kk:
        a0 = af[k]
        for j0 in range(0, n, _GEMV_W):
            w = min(_GEMV_W, n - j0)
            _scaled_row(mode, codes, k, c0 + j0, lut, scaled, sbs, r0[:w])
            cc = acc[j0 : j0 + w]
            for j in range(w):
                cc[j] = fma32(a0, r0[j], cc[j])
        k += 1


def gemv_fma(af: np.ndarray, dec, sbs: np.ndarray | None, c: np.ndarray, c0: int = 0
             ) -> np.ndarray:
    """One row: (n,) float32, the ordered FMA chains of af (K,) times B's columns c0:c0+n
    (c0 even), starting from c (n,). B is decoded four rows by ``_GEMV_W`` columns at a time,
    and each accumulator takes the four terms as one chain of FMAs, in k order."""
    mode, codes, lut = dec
    acc = np.array(c, np.float32)
    r = np.empty((4, _GEMV_W), np.float32)
    scaled = sbs is not None
    sbs = np.ones((1, 1), np.float32) if sbs is None else sbs
    _gemv_rows(np.ascontiguousarray(af, np.float32), mode, codes, lut, scaled, sbs, c0, acc, r)
    return acc


def half_params(t) -> tuple[int, int, int, int, int] | None:
    """(sh, ash, mask, nanh, gap) of :func:`_half_rows` for the element type ``t`` (an
    8-bit sign / exponent / mantissa code, or a narrower one in a byte, whose fields fit
    FP16's: at most 5 exponent and 10 mantissa bits), its FP16 value times 2^gap being the
    code's; None for other types."""
    lay = mx.bit_layout(t)
    if lay is None or lay.carrier.itemsize != 1:
        return None
    bits = 8 - lay.pre
    mbits = 23 - lay.left - lay.pre
    ebits = bits - 1 - mbits
    bias = 127 - lay.bias_gap
    if ebits > 5 or mbits > 10:
        return None
    sh, ash = 8 + lay.pre, 5 - ebits
    mask = 0x8000 | (0x7FFF >> ash)
    nanh = 0xFFFF  # no 16-bit magnitude equals it
    if lay.special_min is not None:
        top = (1 << (bits - 1)) - 1
        if ebits == 5:  # IEEE specials: the all-ones exponent is FP16's own
            pass
        elif lay.special_min == top:  # one NaN magnitude (E4M3), no infinity
            nanh = half_bits(top, sh, ash, mask) & 0x7FFF
        else:
            return None
    return sh, ash, mask, nanh, 15 - bias


def half_bits(code: int, sh: int, ash: int, mask: int) -> int:
    """The FP16 pattern :func:`_half_rows` makes of one code (for tests and ``nanh``)."""
    y = (code << sh) & 0xFFFF
    y -= (y & 0x8000) << 1  # as a signed 16-bit value
    return (y >> ash) & mask


@njit(**_OPTS)
def _folded_scales(codes, gap, out):
    """out = E8M0 values of codes times 2^gap (float32, exact); False when a finite one
    would exceed FP32's range."""
    ok = True
    f = np.float32(2.0) ** gap
    for i in range(codes.shape[0]):
        c = np.int32(codes[i])
        out[i] = _E8M0_VALUES[c] * f
        ok &= (c == 255) | (c + gap <= 254)
    return ok


def half_scales(sb: np.ndarray | None, n: int, gap: int) -> np.ndarray | None:
    """The ``s`` rows of :func:`_half_rows`: B's E8M0 block scales (nb, N) times 2^gap as
    float32 (one row of 2^gap when B has none), or None when one leaves FP32's range."""
    if sb is None:
        return np.full((1, n), np.float32(2.0**gap))
    out = np.empty(sb.shape, np.float32)
    ok = _folded_scales(np.ascontiguousarray(sb).reshape(-1), gap, out.reshape(-1))
    return out if ok else None


@njit(**_OPTS)
def _gemv_half(af, codes, packed, c0, nvec, sv, sstep, acc, sh, ash, mask, nanh):
    """acc (16 * nvec,) float32, in place: the ordered FMA chains of af (K,) times B's
    columns c0:c0 + 16 * nvec (codes (K, N) bytes, or packed X2 bytes (K, N / 2) with c0
    even; C-contiguous), with B's values times their block scale from :func:`_half_rows`
    and the folded scales sv (rows of N, block b at row ``b * sstep``)."""
    kk = af.shape[0]
    ldb = codes.shape[1]
    cb = codes.ctypes.data + (c0 // 2 if packed else c0)
    aa, accp = af.ctypes.data, acc.ctypes.data
    s0 = sv.ctypes.data + 4 * c0
    for b0 in range(0, kk, MX_BLOCK):
        b1 = min(kk, b0 + MX_BLOCK)
        sp = s0 + 4 * (b0 // MX_BLOCK) * sstep * sv.shape[1]
        k = b0
        while k + HALF_ROWS <= b1:
            if packed:
                _HALF_NP(accp, cb + k * ldb, ldb, aa + 4 * k, sp, nvec, sh, ash, mask, nanh)
            else:
                _HALF_N(accp, cb + k * ldb, ldb, aa + 4 * k, sp, nvec, sh, ash, mask, nanh)
            k += HALF_ROWS
        while k < b1:
            if packed:
                _HALF_1P(accp, cb + k * ldb, ldb, aa + 4 * k, sp, nvec, sh, ash, mask, nanh)
            else:
                _HALF_1(accp, cb + k * ldb, ldb, aa + 4 * k, sp, nvec, sh, ash, mask, nanh)
            k += 1


def gemv_half(af: np.ndarray, dec, sbs: np.ndarray | None, half, c: np.ndarray, c0: int = 0
              ) -> np.ndarray:
    """:func:`gemv_fma` for 8-bit codes (or packed X2 bytes) through :func:`_half_rows`
    (``half`` = (``sv`` from
    :func:`half_scales`, the :func:`half_params`)); the tail of fewer than 16 columns
    by :func:`gemv_fma`."""
    _, codes, _ = dec
    sv, (sh, ash, mask, nanh, _) = half
    acc = np.array(c, np.float32)
    n16 = acc.shape[0] // VW * VW
    af = np.ascontiguousarray(af, np.float32)
    if n16:
        _gemv_half(af, codes, dec[0] == MODE_NIBBLE, c0, n16 // VW, sv, int(sv.shape[0] > 1),
                   acc, sh, ash, mask, nanh)
    if n16 < acc.shape[0]:
        acc[n16:] = gemv_fma(af, dec, sbs, acc[n16:], c0 + n16)
    return acc


# -- the wide step ---------------------------------------------------------------------------
@njit(**_OPTS)
def _wide_step(acc, t):
    """RNE_fp32(acc + t) for float32 acc and an exact float64 term t (TwoSum, round to odd,
    one cast); branch-free."""
    a = np.float64(acc)
    s = a + t
    bb = s - a
    e = (a - (s - bb)) + (t - bb)
    bits = _f64_as_i64(s)
    fix = (e != 0.0) & (e - e == 0.0) & ((bits & 1) == 0)
    step = np.int64(1) if (e > 0.0) == (s > 0.0) else np.int64(-1)
    return np.float32(_i64_as_f64(bits + step) if fix else s)


@njit(**_OPTS)
def _wide_rows(af64, mode, codes, lut, scaled, sbs64, acc, row, row64):
    m_all, kk = af64.shape
    n = acc.shape[1]
    for k in range(kk):
        decode_row(mode, codes, k, 0, lut, row)
        if scaled:
            s = sbs64[k // MX_BLOCK]
            for j in range(n):
                row64[j] = np.float64(row[j]) * s[j]
        else:
            for j in range(n):
                row64[j] = np.float64(row[j])
        for m in range(m_all):
            av = af64[m, k]
            cr = acc[m]
            for j in range(n):
                cr[j] = _wide_step(cr[j], av * row64[j])


def ordered_wide(af64: np.ndarray, dec, sbs64: np.ndarray | None, c: np.ndarray) -> np.ndarray:
    """(M, n) float32: the ordered chains with terms ``af64[m, k] * (B[k, j] *
    sbs64[block, j])`` formed exactly in float64 and one rounding per step, from c."""
    mode, codes, lut = dec
    acc = np.array(c, np.float32)
    n = acc.shape[1]
    scaled = sbs64 is not None
    sbs64 = np.ones((1, 1)) if sbs64 is None else sbs64
    _wide_rows(np.ascontiguousarray(af64), mode, codes, lut, scaled, sbs64, acc,
               np.empty(n, np.float32), np.empty(n))
    return acc


# -- drivers ---------------------------------------------------------------------------------
_FP32_FAMILY = ("FP32", "TF32", "HF32")
_E8M0_VALUES = np.append(np.ldexp(1.0, np.arange(255) - 127), np.nan).astype(np.float32)
"""E8M0 code -> float32 scale: 2^-127 .. 2^127 (exact), 0xFF is NaN."""


def decoder(t, codes: np.ndarray, packed: bool = False):
    """The ``dec`` tuple (mode, codes, lut) decoding B of element type t: codes as
    :func:`.mx.to_codes` gives them (or packed X2 bytes, or FP32-family uint32 words), passed
    on as their bytes (K, N * width; one compiled specialisation for every type)."""
    codes = np.ascontiguousarray(codes)
    codes8 = codes.view(np.uint8).reshape(codes.shape[0], -1)
    if not np.little_endian:  # pragma: no cover - the byte order of the decoders
        raise NotImplementedError("compiled CUBE kernels assume a little-endian host")
    if t.name in _FP32_FAMILY:
        return (MODE_F32, codes8, np.zeros(1, np.float32))
    if t.name == "BF16":
        return (MODE_BF16, codes8, np.zeros(1, np.float32))
    lut = mx.value_lut(t).astype(np.float32)
    lay = mx.bit_layout(t)
    if packed and half_params(t) is not None:  # lut[262:268]: half_params_by_lut
        return (MODE_NIBBLE, codes8,
                np.concatenate([lut, np.zeros(6, np.float32), [1, *half_params(t)]]))
    if packed or codes.itemsize == 2 or lay is None or lay.carrier.itemsize != 1:
        return (MODE_NIBBLE if packed else MODE_LUT16 if codes.itemsize == 2 else MODE_LUT,
                codes8, lut)
    # exponent + mantissa bits (7 - pre) and the shift of their field (23 - mantissa bits)
    smin = 256 if lay.special_min is None else lay.special_min
    params = [lay.pre, lay.left, 7 - lay.pre, lay.left + lay.pre, lay.bias_gap, smin]
    half = half_params(t)
    params += [0] * 6 if half is None else [1, *half]  # lut[262:268]: half_params_by_lut
    return (MODE_BITS, codes8, np.append(lut, np.array(params, np.float32)))


def half_params_by_lut(dec) -> tuple[int, int, int, int, int] | None:
    """The :func:`half_params` that :func:`decoder` stored after the table of a MODE_BITS
    or MODE_NIBBLE ``dec`` tuple; None for other modes (a MODE_LUT16 table of 16-bit B is
    65,536 values, not parameters)."""
    mode, _, lut = dec
    if mode not in (MODE_BITS, MODE_NIBBLE) or lut.shape[0] < 268 or lut[262] == 0:
        return None
    sh, ash, mask, nanh, gap = (int(x) for x in lut[263:268])
    return sh, ash, mask, nanh, gap


_THREAD_MIN = 1 << 21  # M * K * N from which the columns are split across two threads
_POOL: ThreadPoolExecutor | None = None


def _columns(af, dec, sbs, acc, j0, j1, half=None):
    if af.shape[0] == 1:
        if half is not None:
            return gemv_half(af[0], dec, sbs, half, acc[0, j0:j1], j0).reshape(1, -1)
        return gemv_fma(af[0], dec, sbs, acc[0, j0:j1], j0).reshape(1, -1)
    return matmul_fma(af, pack_b(dec, sbs, j0, j1), acc[:, j0:j1])


def _half(af, dec, sb, n):
    """The arguments of :func:`gemv_half` for one row of A and 8-bit codes, else None."""
    params = half_params_by_lut(dec) if af.shape[0] == 1 else None
    if params is None:
        return None
    sv = half_scales(sb, n, params[4])
    return None if sv is None else (sv, params)


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(2, thread_name_prefix="pto-cube-jit")
    return _POOL


def _in_two(fn, work: int, n: int) -> None:
    """fn(0, n), or fn(0, h) and fn(h, n) on two threads (the kernels release the GIL) for
    ``work`` (M * K * N) from :data:`_THREAD_MIN`; h a multiple of NR (even)."""
    if work < _THREAD_MIN or n < 2 * NR or (os.cpu_count() or 1) < 2:
        fn(0, n)
        return
    h = (n // 2 + NR - 1) // NR * NR
    for f in [_pool().submit(fn, c0, c1) for c0, c1 in ((0, h), (h, n))]:
        f.result()


def _fma_product(af, dec, sbs, acc, sb=None):
    """The FP32 FMA chains: the fused row kernel for one row of A (:func:`gemv_half` for
    8-bit codes; ``sb``: B's E8M0 scale codes, ``sbs``: their float32 values, or None to
    derive them from ``sb`` where needed), else decoded panels; in two threads (the
    kernels release the GIL), one per half of the columns, for large products. Columns are
    independent chains, so the split never changes a bit."""
    (m, k), n = af.shape, acc.shape[1]
    half = _half(af, dec, sb, n)
    if sbs is None and sb is not None and (half is None or n % VW):
        # B's float32 scale values: the FP16 route reads the codes (half_scales) and needs
        # them only for a tail of fewer than VW columns (the split point is a multiple of NR)
        sbs = _E8M0_VALUES[sb]
    out = np.empty(acc.shape, np.float32)

    def cols(j0, j1):  # (the split is at a panel boundary)
        out[:, j0:j1] = _columns(af, dec, sbs, acc, j0, j1, half)

    _in_two(cols, m * k * n, n)
    return out


def dense_ordered(at, ca: np.ndarray, bt, cb: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """The ordered chains of a non-MX product with an FP32 accumulator from codes (``ca``
    (M, K), ``cb`` (K, N); :func:`.jit.float_values`), starting from ``acc`` (M, N)."""
    if at.name in _FP32_FAMILY:
        af = np.ascontiguousarray(ca.astype(np.uint32, copy=False).view(np.float32))
    else:
        af = mx.value_lut(at).astype(np.float32)[ca]
    return _fma_product(af, decoder(bt, cb), None, acc)


@njit(**_OPTS)
def _scale_fits_one(c, lsb, top):
    """Whether every x (a multiple of 2^lsb, |x| < 2^top) times E8M0 code c's scale is an FP32
    value (a NaN scale, 0xFF, aside)."""
    e = c - 127
    return (c == 255) | ((e + lsb >= -149) & (e + top <= 128))


@njit(**_OPTS)
def _scale_values(codes, lsb, top, out):
    fits = True
    for i in range(codes.shape[0]):
        c = np.int32(codes[i])
        out[i] = _E8M0_VALUES[c]
        fits &= _scale_fits_one(c, lsb, top)
    return fits


@njit(**_OPTS)
def _scale_fits(codes, lsb, top):
    fits = True
    for i in range(codes.shape[0]):
        fits &= _scale_fits_one(np.int32(codes[i]), lsb, top)
    return fits


def _side_scales(codes: np.ndarray, lsb: int, top: int) -> tuple[np.ndarray, bool]:
    """float32 E8M0 scale values of codes, and whether every element x of the side (a
    multiple of 2^lsb, |x| < 2^top) times its scale is an FP32 value (NaN scales aside)."""
    out = np.empty(codes.shape, np.float32)
    fits = _scale_values(np.ascontiguousarray(codes).reshape(-1), lsb, top, out.reshape(-1))
    return out, bool(fits)


def mx_ordered(src, acc: np.ndarray) -> np.ndarray:
    """The ordered chains of an MX product (a :class:`.jit.MxCodes`), starting from acc."""
    m, k, n = src.shape
    (lsa, ta), (lsb, tb) = src.ranges()
    a = mx.value_lut(src.at)[src.ca]  # (M, K) float64, exact
    dec = decoder(src.bt, src.cb, src.b_packed)
    sa = np.zeros((m, 1), np.uint8) + 127 if src.sa is None else src.sa
    va, fits_a = _side_scales(sa, lsa, ta)
    fits_b = src.sb is None or bool(_scale_fits(np.ascontiguousarray(src.sb).reshape(-1), lsb, tb))
    va = va[:, np.arange(k) // MX_BLOCK] if src.sa is not None else va
    if fits_a and fits_b:
        with np.errstate(invalid="ignore"):
            af = (a * va).astype(np.float32)  # exact: checked
        return _fma_product(af, dec, None, acc, src.sb)  # B's scale values when needed
    sbs = None if src.sb is None else _side_scales(src.sb, lsb, tb)[0]
    with np.errstate(invalid="ignore", over="ignore"):
        af64 = np.ascontiguousarray(a * va.astype(np.float64))
    return ordered_wide(af64, dec, None if sbs is None else sbs.astype(np.float64), acc)


# -- the exact profile: compiled block sums --------------------------------------------------
@njit(**_OPTS)
def _block_sum_rows(a64, mode, codes, lut, va, vb, row, s, out):
    """out[b, m, n] = (sum over the k of block b of a64[m, k] * B[k, n]) * va[b, m] * vb[b, n],
    every step exact in float64 (the caller checks that 32-term block sums of the format
    pair are exact); inf / NaN terms or scales give a non-finite block sum."""
    m_all, kk = a64.shape
    n = out.shape[2]
    for b in range(out.shape[0]):
        s[:, :] = 0.0
        for k in range(b * MX_BLOCK, min(kk, (b + 1) * MX_BLOCK)):
            decode_row(mode, codes, k, 0, lut, row)
            for m in range(m_all):
                av = a64[m, k]
                sr = s[m]
                for j in range(n):
                    sr[j] += av * np.float64(row[j])
        for m in range(m_all):
            f = va[b, m]
            ob, sr, vr = out[b, m], s[m], vb[b]
            for j in range(n):
                ob[j] = sr[j] * f * vr[j]


def _block_sums(packed: bool):
    """An intrinsic ``sums(out, codes, ldb, a, nrows, sb, ebias, nvec, sh, ash, mask, nanh)``:
    one 32-row scale block of a row of A times B's columns, 16 at a time:
    ``out[j] = (sum over the nrows rows r of a[r] * FP16(code[r, j])) * 2^(sb[j] + ebias -
    1023)`` in float64 (a: float64 values; sb: E8M0 codes as bytes), the codes made FP16 as
    in :func:`_half_rows` (``packed``: two a byte, :func:`_half_codes`). Every step is exact
    for the block-exact format pairs (the sum of 32 products fits 53 bits; the factor is a
    power of two far inside float64's range)."""

    @intrinsic
    def sums(typingctx, out_a, codes_a, ldb, a_a, nrows, sb_a, ebias, nvec, sh, ash, mask,
             nanh):
        sig = types.void(*([types.intp] * 12))

        def codegen(context, builder, signature, args):
            out_a, codes_a, ldb, a_a, nrows, sb_a, ebias, nvec, sh, ash, mask, nanh = args
            f64, i8, i64 = ir.DoubleType(), ir.IntType(8), ir.IntType(64)
            v8, v64, vd = ir.VectorType(i8, VW), ir.VectorType(i64, VW), ir.VectorType(f64, VW)
            fma = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(vd, [vd] * 3), f"llvm.fma.v{VW}f64")
            outp, ap = (builder.inttoptr(x, f64.as_pointer()) for x in (out_a, a_a))
            cp, sbp = (builder.inttoptr(x, i8.as_pointer()) for x in (codes_a, sb_a))
            hp = _half_splats(builder, (sh, ash, mask, nanh))
            biasv = _splat(builder, ebias, v64)
            acc = cgutils.alloca_once(builder, vd)
            with cgutils.for_range(builder, nvec) as loop:
                col = builder.mul(loop.index, ir.Constant(i64, VW))
                bcol = builder.lshr(col, ir.Constant(i64, 1)) if packed else col
                builder.store(ir.Constant(vd, [0.0] * VW), acc)
                with cgutils.for_range(builder, nrows) as rows:
                    r = rows.index
                    cq = builder.gep(cp, [builder.add(builder.mul(ldb, r), bcol)])
                    v = builder.fpext(_half_codes(builder, cq, hp, packed), vd)
                    av = _splat(builder, builder.load(builder.gep(ap, [r])), vd)
                    builder.store(builder.call(fma, [av, v, builder.load(acc)]), acc)
                sq = builder.bitcast(builder.gep(sbp, [col]), v8.as_pointer())
                e = builder.zext(builder.load(sq, align=1), v64)
                f = builder.bitcast(builder.shl(builder.add(e, biasv),
                                                ir.Constant(v64, [52] * VW)), vd)
                builder.store(builder.fmul(builder.load(acc), f),
                              builder.bitcast(builder.gep(outp, [col]), vd.as_pointer()),
                              align=8)
            return context.get_dummy_value()

        return sig, codegen

    return sums


_BLOCK_SUMS, _BLOCK_SUMS_P = _block_sums(False), _block_sums(True)


@njit(**_OPTS)
def _exact_gemv_cols(a64, sa, codes, packed, sb, lut, c0, c1, gap, sigma, x, hi, lo):
    """hi, lo (c1 - c0,) float64, exact: ``hi + lo`` is the exact sum over k of the terms
    ``(a64[k] 2^(sa - 127)) (B[k, j] 2^(sb - 127))`` of columns c0:c1. Per block b the
    exact block sum x_b (:func:`_block_sums`, scalar for the last < 16 columns) is split
    against the column's power of two ``sigma`` (above twice the sum of |x_b|):
    ``q = (sigma + x_b) - sigma`` lies on the grid 2^-53 sigma and x_b - q below it, so
    both running sums are exact (checked by the caller, :func:`exact_gemv`)."""
    kk, ldb = a64.shape[0], codes.shape[1]
    n = c1 - c0
    n16 = n // VW * VW
    sh, ash, mask, nanh = (np.int64(lut[263]), np.int64(lut[264]), np.int64(lut[265]),
                           np.int64(lut[266]))
    hi[:] = 0.0
    lo[:] = 0.0
    for b in range(sb.shape[0]):
        k0 = b * MX_BLOCK
        k1 = min(kk, k0 + MX_BLOCK)
        ebias = np.int64(sa[b]) - 254 + gap + 1023
        cb = codes.ctypes.data + k0 * ldb + (c0 // 2 if packed else c0)
        sp = sb.ctypes.data + b * sb.shape[1] + c0
        if n16 and packed:
            _BLOCK_SUMS_P(x.ctypes.data, cb, ldb, a64.ctypes.data + 8 * k0, k1 - k0, sp, ebias,
                          n16 // VW, sh, ash, mask, nanh)
        elif n16:
            _BLOCK_SUMS(x.ctypes.data, cb, ldb, a64.ctypes.data + 8 * k0, k1 - k0, sp, ebias,
                        n16 // VW, sh, ash, mask, nanh)
        for j in range(n16, n):
            t = 0.0
            for k in range(k0, k1):
                c = codes[k, (c0 + j) // 2] >> (4 * ((c0 + j) & 1)) & 15 if packed else \
                    codes[k, c0 + j]
                t += a64[k] * np.float64(lut[c])
            x[j] = t * _i64_as_f64((np.int64(sb[b, c0 + j]) + ebias - gap) << 52)
        for j in range(n):
            sg = sigma[c0 + j]
            q = (sg + x[j]) - sg
            hi[j] += q
            lo[j] += x[j] - q


@njit(**_OPTS)
def _grow(p, n, x):
    """Shewchuk's grow-expansion: p[0:n] nonoverlapping terms in increasing magnitude whose
    sum is exact, plus x -> the new count (the sum is exactly the old sum plus x)."""
    i = 0
    for jj in range(n):
        y = p[jj]
        if abs(x) < abs(y):
            x, y = y, x
        s = x + y
        e = y - (s - x)
        if e != 0.0:
            p[i] = e
            i += 1
        x = s
    p[i] = x
    return i + 1


@njit(**_OPTS)
def _round_exact(parts, p):
    """RNE float32 of the exact sum of the finite float64 ``parts`` (+0 for an exact zero),
    using ``p`` (len(parts) + 1 float64) for the nonoverlapping expansion of the sum:
    round to nearest float64 and the sign of the remainder give the sum rounded to odd at
    53 bits, whose cast to float32 is the single RNE rounding (53 >= 24 + 2)."""
    n = 0
    for x in parts:
        n = _grow(p, n, x)
    top = n
    while top > 0 and p[top - 1] == 0.0:
        top -= 1
    if top == 0:
        return np.float32(0.0)
    # the sum rounded to nearest float64, as Python's math.fsum
    m = n - 1
    s = p[m]
    e = 0.0
    while m > 0:
        m -= 1
        x, y = s, p[m]
        s = x + y
        e = y - (s - x)
        if e != 0.0:
            break
    if m > 0 and ((e < 0.0 and p[m - 1] < 0.0) or (e > 0.0 and p[m - 1] > 0.0)):
        y = e * 2.0
        x = s + y
        if y == x - s:
            s = x
    # the sign of the remainder (sum - s): the top term of the expansion of sum - s
    i = _grow(p, n, -s) - 1
    r = 0.0
    for jj in range(i, -1, -1):
        if p[jj] != 0.0:
            r = p[jj]
            break
    bits = _f64_as_i64(s)
    if r != 0.0 and (bits & 1) == 0:  # round to odd: one step toward the remainder
        if s == 0.0:  # (only for a sum below half the smallest subnormal: rounds to 0)
            return np.float32(5e-324 if r > 0.0 else -5e-324)
        bits += 1 if (r > 0.0) == (s > 0.0) else -1
    return np.float32(_i64_as_f64(bits))


@njit(**_OPTS)
def _finish_exact(hi, lo, extra, out):
    """out[j] = RNE float32 of hi[j] + lo[j] + the finite extras[:, j]; a column with
    non-finite extras gets their float64 sum (the reference's rule)."""
    ne = extra.shape[0]
    parts = np.empty(2 + ne)
    p = np.empty(3 + ne)
    for j in range(out.shape[0]):
        parts[0], parts[1] = hi[j], lo[j]
        special = 0.0
        for i in range(ne):
            v = extra[i, j]
            if v - v == 0.0:
                parts[2 + i] = v
            else:
                parts[2 + i] = 0.0
                special += v
        out[j] = np.float32(special) if special != 0.0 or special != special else \
            _round_exact(parts, p)


@njit(**_OPTS)
def _exponent_window(sa, sb, sigma, lsab, top, limit, lo_e, hi_e):
    """sigma[j] = 2^(top + max_b E[b, j] + 1) with E = sa[b] + sb[b, j] - 254 (``top``:
    log2 of a bound of the sum of |block sum| at E = 0); False when a column's window of
    E is too wide for two exact running sums (``lsab``: log2 of the grid at E = 0, ``limit``
    the bits the two sums cover) or a scale is NaN (code 255). lo_e, hi_e: int64 scratch."""
    nb, n = sb.shape
    lo_e[:] = 1 << 20
    hi_e[:] = -(1 << 20)
    nan = False
    for b in range(nb):
        a = np.int64(sa[b]) - 254
        nan |= sa[b] == 255
        row = sb[b]
        for j in range(n):
            c = np.int64(row[j])
            nan |= c == 255
            lo_e[j] = min(lo_e[j], c + a)
            hi_e[j] = max(hi_e[j], c + a)
    ok = not nan
    for j in range(n):
        ok &= top + hi_e[j] + 1 - (lsab + lo_e[j]) <= limit
        sigma[j] = _i64_as_f64((top + hi_e[j] + 1 + 1023) << 52)
    return ok


def exact_gemv(src, c: np.ndarray | None, bias: np.ndarray | None) -> np.ndarray | None:
    """The ``exact`` profile of an MX GEMV (a :class:`.jit.MxCodes` with M = 1) whose
    32-term block sums are exact in float64 and whose B codes decode through FP16
    (:func:`half_params`): (1, N) float32, or None when this path does not apply (then the
    reference runs). Per column, the exact scaled block sums are summed exactly as two
    float64 running sums (:func:`_exact_gemv_cols`; the exponent window of the column's
    scales must leave them exact, :func:`_exponent_window`), and those, C and Bias are
    rounded once (:func:`_round_exact`)."""
    m, k, n = src.shape
    if m != 1 or k == 0:
        return None
    (lsa, ta), (lsb, tb) = src.ranges()
    if (ta - lsa) + (tb - lsb) + 5 > 53:
        return None
    dec = decoder(src.bt, src.cb, src.b_packed)
    half = half_params_by_lut(dec)
    if half is None:
        return None
    nb = -(-k // MX_BLOCK)
    sa = np.full(nb, 127, np.uint8) if src.sa is None else np.ascontiguousarray(src.sa[0], np.uint8)
    sb = np.full((nb, n), 127, np.uint8) if src.sb is None else np.ascontiguousarray(src.sb, np.uint8)
    lnb = max(0, (nb - 1).bit_length())
    top = lnb + ta + tb + 5  # sum of |x_b| < 2^(top + E_max)
    sigma = np.empty(n)
    # hi needs nothing more; lo = sum of (x_b - q) is exact when nb 2^(top + E_max + 1 - 53)
    # stays below 2^(lsa + lsb + E_min + 53)
    if not _exponent_window(sa, sb, sigma, lsa + lsb, top, 106 - lnb - 1, np.empty(n, np.int64),
                            np.empty(n, np.int64)):
        return None
    a64 = np.ascontiguousarray(mx.value_lut(src.at)[src.ca[0]])
    if not np.isfinite(a64).all():
        return None
    gap = half[4]
    lut = dec[2]
    hi, lo = np.empty(n), np.empty(n)

    def cols(c0, c1):
        _exact_gemv_cols(a64, sa, dec[1], src.b_packed, sb, lut, c0, c1, gap, sigma,
                         np.empty(c1 - c0),
                         hi[c0:c1], lo[c0:c1])

    _in_two(cols, k * n, n)
    if not (np.isfinite(hi).all() and np.isfinite(lo).all()):
        return None  # inf / NaN codes: the reference's rules
    extras = [np.asarray(v, np.float64).reshape(1, n) for v in (c, bias) if v is not None]
    extra = np.concatenate(extras) if extras else np.zeros((0, n))
    out = np.empty(n, np.float32)
    _finish_exact(hi, lo, extra, out)
    return out.reshape(1, n)


class BlockSumTerms(acc_mod.MxTerms):
    """:class:`.accumulate.MxTerms` whose exact scaled block sums (``block_sums64``, what the
    ``exact`` profile reads for block-exact format pairs) are computed once by a compiled
    kernel instead of a float64 matmul per chunk; the same values, exactly."""

    def __init__(self, *args):
        super().__init__(*args)
        if not self.block_exact:
            return
        m, k, n = self.shape
        dec = decoder(self.bt, self.cb, self.b_packed)
        va = np.where(self.na, np.nan, np.ldexp(1.0, self.ea))  # (nb, M)
        vb = np.where(self.nbs, np.nan, np.ldexp(1.0, self.eb))  # (nb, N)
        self._sums = np.empty((va.shape[0], m, n))
        _block_sum_rows(np.ascontiguousarray(self.a64), dec[0], dec[1], dec[2],
                        np.ascontiguousarray(va), np.ascontiguousarray(vb),
                        np.empty(n, np.float32), np.empty((m, n)), self._sums)

    def block_sums64(self, k0, k1, c0, c1):
        return self._sums[k0 // MX_BLOCK : -(-k1 // MX_BLOCK), :, c0:c1]
