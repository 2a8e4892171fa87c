"""Value rules of the ASL that the kernels follow, one test per rule (issue 11, D5, D17).

Each test names the ASL function and, where the spec has one, the AVS test whose pass
condition it asserts. Expected words are written from the ASL's constants, not from the
kernels.
"""

import ml_dtypes
import numpy as np
import pytest
from test_kernel_tgemv import gemv_f32

from interpreter.kernels import BINARY_ROWS, binary_tile, cube_matrix, quant_param_word
from interpreter.kernels.padding import pad_bits
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from pto_dialect.postprocess import Fpatr

F32 = np.float32


def _bits(x):
    x = np.asarray(x)
    return [int(v) for v in x.view(f"u{x.dtype.itemsize}").ravel()]


def _binary(op, a, b, dtype=None):
    r, _ = binary_tile(BINARY_ROWS[op], np.asarray(a).reshape(1, -1),
                       np.asarray(b).reshape(1, -1), None, "null", dtype)
    return r


# -- TMAX / TMIN: HardwareNumericMinMaxSpecial (asl/arch/features/mx-formats.asl) -----------
@pytest.mark.parametrize("op", ["TMAX", "TMIN"])
def test_minmax_nan_selection_avs_tile_tmax_tmin_nan_001(op):
    """PTO-AVS-TILE-TMAX-NAN-001 / PTO-AVS-TILE-TMIN-NAN-001: one NaN (quiet 0x7FC00001 or
    signalling 0x7F800001) returns the numeric operand, two NaNs the canonical 0x7FC00000."""
    one, qnan, snan = 0x3F800000, 0x7FC00001, 0x7F800001
    a = np.array([qnan, snan, one, snan, qnan], np.uint32).view(F32)
    b = np.array([one, one, snan, snan, qnan], np.uint32).view(F32)
    assert _bits(_binary(op, a, b)) == [one, one, one, 0x7FC00000, 0x7FC00000]


@pytest.mark.parametrize("dtype, snan, one, canonical", [
    (np.float16, 0x7C01, 0x3C00, 0x7E00),  # FP16CanonicalNaN
    (ml_dtypes.bfloat16, 0x7F81, 0x3F80, 0x7FC0),  # BF16CanonicalNaN
    (ml_dtypes.float8_e5m2, 0x7D, 0x3C, 0x7E),  # E5M2CanonicalNaN
])
def test_minmax_signalling_nan_narrow_types(dtype, snan, one, canonical):
    """HardwareNumericMinMaxSpecial on FP16 / BF16 / E5M2 signalling NaNs."""
    w = np.uint16 if np.dtype(dtype).itemsize == 2 else np.uint8
    a = np.array([snan, snan], w).view(dtype)
    b = np.array([one, snan], w).view(dtype)
    for op in ("TMAX", "TMIN"):
        assert _bits(_binary(op, a, b)) == [one, canonical]


# -- created NaNs: TileNumericCanonicalNaN ------------------------------------------------
@pytest.mark.parametrize("dtype, canonical", [
    (np.float32, 0x7FC00000), (np.float16, 0x7E00), (ml_dtypes.bfloat16, 0x7FC0),
    (ml_dtypes.float8_e5m2, 0x7E), (np.float64, 0x7FF8000000000000),
])
def test_created_nan_is_canonical(dtype, canonical):
    """inf - inf, 0 * inf, 0 / 0 and x rem 0 give the format's canonical NaN
    (TileNumericCanonicalNaN, asl/arch/features/mx-formats.asl; PTO-AVS-ARCH-CONCRETE-
    SPECIAL-VALUES-EXEC-002), not x86's negative default NaN."""
    inf = np.array([np.inf], dtype)
    zero = np.array([0.0], dtype)
    assert _bits(_binary("TADD", inf, -inf)) == [canonical]
    assert _bits(_binary("TMUL", zero, inf)) == [canonical]
    assert _bits(_binary("TDIV", zero, zero)) == [canonical]
    if dtype is not ml_dtypes.float8_e5m2 and dtype is not np.float64:
        assert _bits(_binary("TREM", np.array([1.0], dtype), zero)) == [canonical]


def test_created_nan_e4m3_and_cube_accumulator():
    """E4M3 0/0 -> 0x7F (E4M3CanonicalNaN); a CUBE FMA 0 * inf (E5M2 inf element) ->
    FP32CanonicalNaN 0x7FC00000."""
    z = np.array([0.0], ml_dtypes.float8_e4m3fn)
    assert _bits(_binary("TDIV", z, z, )) == [0x7F]
    a = np.array([[0x00]], np.uint8)  # E5M2 +0
    b = np.array([[0x7C]], np.uint8)  # E5M2 +inf
    s = np.array([[127]], np.uint8)
    for profile in ("ordered", "exact"):
        d = cube_matrix(20, a, b, a_scale=s, b_scale=s, a_type="E5M2", b_type="E5M2",
                        profile=profile)
        assert _bits(d) == [0x7FC00000]


# -- TF32 / HF32 encodings: TileOperandsLegal_ExecuteTileBinary ----------------------------
@pytest.mark.parametrize("t, low", [("TF32", 0x1000), ("HF32", 0x0800)])
def test_tf32_hf32_encodings_checked_only_by_max_min(t, low):
    """asl/tile/model/legality/operand-schema.asl checks TileSourceEncodingsValid for
    floating MAX / MIN only: TADD on a carrier with low bits set computes (rounding the
    result to the format), TMAX faults."""
    a = np.array([0x3F800000 | low], np.uint32).view(F32)
    b = np.array([0x3F800000], np.uint32).view(F32)
    r = _binary("TADD", a, b, t)
    assert (np.asarray(r).view(np.uint32) & (0x1FFF if t == "TF32" else 0x0FFF) == 0).all()
    assert r[0, 0] == 2.0  # (1 + tiny) + 1 rounds to 2 in TF32 / HF32
    with pytest.raises(PTOFault, match="low bits"):
        _binary("TMAX", a, b, t)


def acc_row(vals, **kw):
    """TGEMV_ACC whose accumulator is exactly ``vals`` (C = vals plus a -0 product)."""
    n = len(vals)
    return cube_matrix(18, np.array([[1.0]], np.float16), np.full((1, n), -0.0, np.float16),
                       c=np.array([vals], F32), **kw)


# -- RowMax / GroupMax: TileProfileMatrixReductionStepWithFlags -> TMAX rule ---------------
def test_rowmax_groupmax_skip_nan_like_tmax():
    """The B.FPATR reductions use TMAX's HardwareNumericMinMaxSpecial
    (asl/arch/profile/matrix-postprocess.asl TileProfileMatrixReductionStepWithFlags):
    a NaN column is skipped, an all-NaN group gives 0x7FC00000, RowMaxIn NaN is skipped,
    max(-0, +0) = +0 and an all -0 group gives -0."""
    nan16 = np.nan
    vals = ([1.0, nan16, 3.0, -2.0, nan16, -7.0, nan16, 0.5] + [nan16] * 8
            + [-0.0, 0.0, -0.0, -0.0, -1.0, nan16, -0.0, -3.0] + [-0.0, nan16] * 4)
    f = Fpatr(row_max_en=1, group_max_en=1, group_n_code=1)  # GroupN 8
    d, rmax, gmax = acc_row(vals, fpatr=f)
    assert gmax.shape == (1, 4)
    groups = [vals[i:i + 8] for i in range(0, 32, 8)]
    assert rmax.tolist() == [[3.0]]
    for g, got in zip(groups, gmax[0]):
        num = [v for v in g if v == v]
        if not num:
            assert _bits(np.array([got], F32)) == [0x7FC00000]
        elif max(num) == 0:
            assert got == 0 and np.signbit(got) == all(np.signbit(v) for v in num if v == 0)
        else:
            assert got == max(num)
    f = Fpatr(row_max_en=1, row_max_init=1)
    nan_in = np.array([[np.nan]], F32)
    _, rmax = acc_row([nan16, -5.0], fpatr=f, row_max_in=nan_in)
    assert rmax.tolist() == [[-5.0]]
    _, rmax = acc_row([nan16], fpatr=f, row_max_in=nan_in)
    assert _bits(rmax) == [0x7FC00000]


# -- E4M3 output: ReferenceFP8Encoding (asl/arch/profile/matrix-quantization.asl) ----------
@pytest.mark.parametrize("mode", [26, 37])
def test_e4m3_output_zero_and_overflow_codes(mode):
    """PreQuantModes 26 / 37 (PTO-AVS-ARCH-MATRIX-QUANT-001 family): a negative value that
    rounds to zero is 0x00; |x| > 448 with Sat=0 is 0x7F for either sign (Sat=1: 0x7E /
    0xFE); a -0 accumulator stays 0x80 (MatrixFloatingSignedZero)."""
    vals = [-2.0**-12, 500.0, -500.0, 2.0**-12]
    f = Fpatr(pre_quant_mode=mode)
    w = quant_param_word(1.0)
    kw = ({"quant_scalar": w} if mode == 26
          else {"quant": np.full((1, len(vals)), w, np.uint64)})
    d = gemv_f32(vals, fpatr=f, **kw)
    assert _bits(d) == [0x00, 0x7F, 0x7F, 0x00]
    d = gemv_f32(vals, fpatr=f, sat=True, **kw)
    assert _bits(d)[1:3] == [0x7E, 0xFE]
    # a -0 accumulator (TGEMV_ACC: C = -0 plus a -0 product) keeps its sign: 0x80
    kw1 = {k: (v[:, :1] if k == "quant" else v) for k, v in kw.items()}
    d = cube_matrix(18, np.array([[1.0]], np.float16), np.array([[-0.0]], np.float16),
                    c=np.array([[-0.0]], F32), fpatr=f, **kw1)
    assert _bits(d) == [0x80]


# -- S8 output: ReferenceMatrixIntegerEncoding / MatrixQuantizedAffine ---------------------
def test_s8_output_beyond_int64():
    """PreQuantMode 24 (QF322B8_PRE): 1e19 x 1.0 saturates the S9 intermediate to 255 /
    -256 (MatrixRoundAndSaturateSigned); Sat=1 clamps to 127 / -128, Sat=0 wraps 255 -> -1
    and -256 -> 0 (NormalizeTileInteger). No int64 overflow for |acc x scale| >= 2^63."""
    a = np.array([[1e19]], F32)
    b = np.array([[1.0, -1.0]], F32)
    w = quant_param_word(1.0, offset=0, offset_bits=9)
    f = Fpatr(pre_quant_mode=24)
    assert cube_matrix(16, a, b, fpatr=f, quant_scalar=w, sat=True).tolist() == [[127, -128]]
    assert cube_matrix(16, a, b, fpatr=f, quant_scalar=w).tolist() == [[-1, 0]]


# -- PadValue: TilePadValueForDataType (asl/tile/model/definedness/elements.asl) -----------
@pytest.mark.parametrize("t, mx, mn", [
    (T.FP16, 0x7BFF, 0xFBFF),  # PTO-AVS-TILE-CUBE-PADDING-001 (FP16 Max)
    (T.E4M3, 0x7E, 0xFE), (T.E5M2, 0x7B, 0xFB), (T.S8, 0x7F, 0x80), (T.U8, 0xFF, 0x00),
    (T.HIF8, 0xFF, 0x00), (T.E3M2, 0xFF, 0x00), (T.E2M3, 0xFF, 0x00), (T.E8M0, 0xFF, 0x00),
    (T.E2M1X2, 0xF, 0x0), (T.E1M2X2, 0xF, 0x0), (T.S4X2, 0xF, 0x0), (T.U4X2, 0xF, 0x0),
])
def test_pad_values_follow_tile_pad_value_for_data_type(t, mx, mn):
    """Max / Min pad words; types without a row take Max = Ones{64} and Min =
    0x8000000000000000, truncated to the carrier (all ones / all zeros)."""
    assert (pad_bits(t, "max"), pad_bits(t, "min")) == (mx, mn)
