"""Compiled (numba) kernels of the CUBE ``ordered`` accumulation; bits identical to the numpy
reference in :mod:`.accumulate` (docs/compiled-kernels.md).

The ``ordered`` profile fixes, per output element (m, n), the chain

    acc = C[m, n] or +0;  for k = 0, 1, ..., K-1:  acc = RNE_fp32(acc + t[m, k, n])

with ``t`` the exact product of the two (scaled) elements. Chains of different (m, n) never
interact, so any loop order that keeps k ascending within each chain gives the same bits.

* When both factors of every term are FP32 values (``t = x[m, k] * y[k, n]`` with x, y
  float32: every non-MX input type, and MX operands whose scaled elements stay in FP32's
  range, checked statically from the scale exponents and the formats' value ranges), one
  step is exactly one IEEE fused multiply-add in FP32, ``acc = fma(x, y, acc)`` (the product
  is exact inside the FMA; overflow is +-inf, 0 * inf is NaN). The kernel is a register-tiled
  matrix product: B is decoded (and scaled) once into panels of ``NR`` columns, and a micro
  kernel keeps an ``MR x NR`` block of accumulators in vector registers while k runs over
  the whole of K in order. It is written as LLVM IR (:func:`_micro`) because numba's loop
  vectoriser only vectorises innermost loops, and the k loop must stay innermost and
  sequential. For M = 1 (GEMV) a fused kernel decodes B row by row and updates the N
  accumulators with FMAs, four rows at a time (one chained expression per column).
* Otherwise (MX scales so extreme that a scaled element leaves FP32's range), the step
  forms the exact term in float64 and rounds ``acc + t`` once to FP32: TwoSum gives the
  error of the float64 sum, round-to-odd folds it into the last bit, and the cast to FP32 is
  then one correct RNE rounding (53 >= 24 + 2 bits), exactly as ``accumulate._wide_steps``.

B decoding: ``MODE_LUT`` (codes index a float32 value table: every 8-bit and 16-bit code,
the 4-bit types one code per byte), ``MODE_NIBBLE`` (packed X2 bytes, low nibble first),
``MODE_F32`` (FP32 / TF32 / HF32 bit patterns), ``MODE_BF16`` (a BF16 code is the top half
of its FP32 pattern). Decoded values are exact (every CUBE element format is a subset of
FP32).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

MX_BLOCK = 32
NR = 32  # columns per B panel (two 16-lane vectors)
VW = 16  # vector lanes of the micro kernel (split by LLVM where the target is narrower)
MODE_LUT, MODE_NIBBLE, MODE_F32, MODE_BF16 = 0, 1, 2, 3

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


_MICRO8, _MICRO4, _MICRO2, _MICRO1 = (_micro(r) for r in (8, 4, 2, 1))


# -- decoding ------------------------------------------------------------------------------
@njit(**_OPTS)
def _decode_row(mode, codes, k, lut, out):
    """out[0:n] = the values of row k of B (float32, exact)."""
    n = out.shape[0]
    row = codes[k]
    if mode == MODE_LUT:
        for j in range(n):
            out[j] = lut[row[j]]
    elif mode == MODE_NIBBLE:
        for j in range(n // 2):
            byte = row[j]
            out[2 * j] = lut[byte & 15]
            out[2 * j + 1] = lut[byte >> 4]
        if n % 2:
            out[n - 1] = lut[row[n // 2] & 15]
    elif mode == MODE_F32:
        for j in range(n):
            out[j] = _u32_as_f32(np.uint32(row[j]))
    else:
        for j in range(n):
            out[j] = _u32_as_f32(np.uint32(row[j]) << np.uint32(16))


@njit(**_OPTS)
def _scaled_row(mode, codes, k, lut, scaled, sbs, out):
    _decode_row(mode, codes, k, lut, out)
    if scaled:
        s = sbs[k // MX_BLOCK]
        for j in range(out.shape[0]):
            out[j] *= s[j]


@njit(**_OPTS)
def pack_b(mode, codes, lut, scaled, sbs, n):
    """(ceil(n / NR), K, NR) float32 panels of B's (scaled) values, zero-padded. ``sbs``
    (nb, n) float32 block scales when ``scaled`` (each product exact: checked by the
    caller)."""
    kk = codes.shape[0]
    npn = (n + NR - 1) // NR
    panels = np.empty((npn, kk, NR), np.float32)
    row = np.zeros(npn * NR, np.float32)
    for k in range(kk):
        _scaled_row(mode, codes, k, lut, scaled, sbs, row[:n])
        for p in range(npn):
            dst = panels[p, k]
            for j in range(NR):
                dst[j] = row[p * NR + j]
    return panels


# -- FP32 FMA kernels ------------------------------------------------------------------------
@njit(**_OPTS)
def matmul_fma(af, panels, c):
    """c (M, n) float32 = the ordered FMA chains of af (M, K) float32 times the panels,
    starting from c; returns a new array."""
    m_all, kk = af.shape
    n = c.shape[1]
    npn = panels.shape[0]
    ldc = npn * NR
    cw = np.zeros((m_all, ldc), np.float32)
    cw[:, :n] = c
    a = np.ascontiguousarray(af)
    ca, aa = cw.ctypes.data, a.ctypes.data
    for p in range(npn):
        pb = panels[p].ctypes.data
        m = 0
        while m + 8 <= m_all:
            _MICRO8(ca + 4 * (m * ldc + p * NR), ldc, aa + 4 * m * kk, kk, pb, NR, kk)
            m += 8
        if m + 4 <= m_all:
            _MICRO4(ca + 4 * (m * ldc + p * NR), ldc, aa + 4 * m * kk, kk, pb, NR, kk)
            m += 4
        if m + 2 <= m_all:
            _MICRO2(ca + 4 * (m * ldc + p * NR), ldc, aa + 4 * m * kk, kk, pb, NR, kk)
            m += 2
        if m < m_all:
            _MICRO1(ca + 4 * (m * ldc + p * NR), ldc, aa + 4 * m * kk, kk, pb, NR, kk)
    return np.ascontiguousarray(cw[:, :n])


@njit(**_OPTS)
def gemv_fma(af, mode, codes, lut, scaled, sbs, c):
    """One row: c (n,) float32 = the ordered FMA chains of af (K,) times B decoded row by
    row, starting from c; returns a new array. Four rows per pass over c, chained in order."""
    kk = af.shape[0]
    n = c.shape[0]
    acc = c.copy()
    r0 = np.empty(n, np.float32)
    r1 = np.empty(n, np.float32)
    r2 = np.empty(n, np.float32)
    r3 = np.empty(n, np.float32)
    k = 0
    while k + 4 <= kk:
        _scaled_row(mode, codes, k, lut, scaled, sbs, r0)
        _scaled_row(mode, codes, k + 1, lut, scaled, sbs, r1)
        _scaled_row(mode, codes, k + 2, lut, scaled, sbs, r2)
        _scaled_row(mode, codes, k + 3, lut, scaled, sbs, r3)
        a0, a1, a2, a3 = af[k], af[k + 1], af[k + 2], af[k + 3]
        for j in range(n):
            acc[j] = fma32(a3, r3[j], fma32(a2, r2[j], fma32(a1, r1[j], fma32(a0, r0[j], acc[j]))))
        k += 4
    while k < kk:
        _scaled_row(mode, codes, k, lut, scaled, sbs, r0)
        a0 = af[k]
        for j in range(n):
            acc[j] = fma32(a0, r0[j], acc[j])
        k += 1
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
def ordered_wide(af64, mode, codes, lut, scaled, sbs64, c):
    """c (M, n) float32: the ordered chains with terms af64[m, k] * (B[k, j] * sbs64[block, j])
    formed exactly in float64 and one rounding per step; returns a new array."""
    m_all, kk = af64.shape
    n = c.shape[1]
    acc = c.copy()
    row = np.empty(n, np.float32)
    row64 = np.empty(n, np.float64)
    for k in range(kk):
        _decode_row(mode, codes, k, lut, row)
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
    return acc


# -- drivers ---------------------------------------------------------------------------------
_F32 = np.dtype(np.float32)
_FP32_FAMILY = ("FP32", "TF32", "HF32")


def _b_mode(t, codes: np.ndarray, packed: bool, lut64: np.ndarray):
    """(mode, codes, float32 lut) decoding B of element type t."""
    if packed:
        return MODE_NIBBLE, codes, lut64.astype(np.float32)
    if t.name in _FP32_FAMILY:
        return MODE_F32, codes.view(np.uint32), np.zeros(1, np.float32)
    if t.name == "BF16":
        return MODE_BF16, codes.view(np.uint16), np.zeros(1, np.float32)
    return MODE_LUT, codes, lut64.astype(np.float32)


def _fma_product(af, mode, codes, lut, sbs, acc):
    """The FP32 FMA chains: fused row kernel for one row of A, else decoded panels."""
    scaled = sbs is not None
    sbs = np.ones((1, 1), np.float32) if sbs is None else sbs
    if af.shape[0] == 1:
        return gemv_fma(af[0], mode, codes, lut, scaled, sbs, acc[0]).reshape(1, -1)
    return matmul_fma(af, pack_b(mode, codes, lut, scaled, sbs, acc.shape[1]), acc)


def dense_ordered(at, ca: np.ndarray, bt, cb: np.ndarray, lut_a, lut_b, acc: np.ndarray):
    """The ordered chains of a non-MX product from codes (``ca`` (M, K), ``cb`` (K, N):
    uint32 FP32-family patterns, else indices into the float64 value tables ``lut_a`` /
    ``lut_b``), starting from ``acc`` (M, N) float32."""
    if at.name in _FP32_FAMILY:
        af = np.ascontiguousarray(ca.astype(np.uint32, copy=False).view(np.float32))
    else:
        af = lut_a.astype(np.float32)[ca]
    mode, codes, lut = _b_mode(bt, np.ascontiguousarray(cb), False, lut_b)
    return _fma_product(af, mode, codes, lut, None, acc)


def _side_fits(e: np.ndarray, nan: np.ndarray, lsb: int, top: int) -> bool:
    """Every element x of a side (|x| < 2^top, a multiple of 2^lsb) scaled by 2^e is an FP32
    value (NaN scales aside)."""
    ok = nan | ((e + lsb >= -149) & (e + top <= 128))
    return bool(ok.all())


def mx_ordered(src, acc: np.ndarray):
    """The ordered chains of an MX product (an :class:`.accumulate.MxTerms`), from acc."""
    m, k, n = src.shape
    (lsa, ta), (lsb, tb) = src.ranges
    idx = np.arange(k) // MX_BLOCK
    ea, na = src.ea[idx].T, src.na[idx].T  # (M, K) per element
    lut64 = src.lut64
    mode, codes, lut = _b_mode(src.bt, np.ascontiguousarray(src.cb), src.b_packed, lut64)
    scaled = bool(src.eb.any() or src.nbs.any())
    if _side_fits(ea, na, lsa, ta) and _side_fits(src.eb, src.nbs, lsb, tb):
        af = (src.a64 * np.ldexp(1.0, ea)).astype(np.float32)  # exact (checked)
        af[na] = np.nan
        sbs = None
        if scaled:
            sbs = np.ldexp(np.float32(1.0), src.eb).astype(np.float32)
            sbs[src.nbs] = np.nan
        return _fma_product(af, mode, codes, lut, sbs, acc)
    with np.errstate(invalid="ignore", over="ignore"):
        af64 = src.a64 * np.ldexp(1.0, ea)
    af64[na] = np.nan
    sbs64 = np.ldexp(1.0, src.eb)
    sbs64[src.nbs] = np.nan
    if mode in (MODE_F32, MODE_BF16):  # (no MX type decodes this way but BF16)
        lut = np.zeros(1, np.float32)
    return ordered_wide(np.ascontiguousarray(af64), mode, codes, lut, True, sbs64, acc)
