"""MX / E8M0 decoding tables (PTO-SPEC 1, NUMERICS.md 1, D2, D5).

The LUTs are checked against ml_dtypes where it has the type, against a Fraction decoder
written here from the bit layout (string slicing, not the kernel's arithmetic), and
against hand-listed values.
"""

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from interpreter.kernels import decode, pack_x2, unpack_x2, value_lut
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault

# (bits, exponent bits, mantissa bits, bias, specials)
LAYOUT = {
    T.FP16: (16, 5, 10, 15, "ieee"),
    T.BF16: (16, 8, 7, 127, "ieee"),
    T.E4M3: (8, 4, 3, 7, "fn"),
    T.E5M2: (8, 5, 2, 15, "ieee"),
    T.E2M1X2: (4, 2, 1, 1, "none"),
    T.E1M2X2: (4, 1, 2, 1, "none"),
}


def fraction_decode(t, code):
    """Exact value of ``code`` from the bit string; None for NaN, +-math.inf for inf."""
    width, e, m, bias, specials = LAYOUT[t]
    s = format(code, f"0{width}b")
    sign, ef, mf = s[0], s[1 : 1 + e], s[1 + e :]
    E, M = int(ef, 2), int(mf, 2)
    if specials == "ieee" and ef == "1" * e:
        return None if M else (-math.inf if sign == "1" else math.inf)
    if specials == "fn" and ef == "1" * e and mf == "1" * m:
        return None
    if E == 0:
        v = Fraction(M, 2**m) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(M, 2**m)) * Fraction(2) ** (E - bias)
    return -v if sign == "1" else v


@pytest.mark.parametrize("t", list(LAYOUT))
def test_lut_matches_fraction_decoder(t):
    lut = value_lut(t)
    width = LAYOUT[t][0]
    for code in range(1 << width):
        ref = fraction_decode(t, code)
        got = lut[code]
        if ref is None:
            assert np.isnan(got), (t, code)
        elif isinstance(ref, float):
            assert got == ref, (t, code)
        else:
            assert Fraction(float(got)) == ref, (t, code)


@pytest.mark.parametrize(
    "t, mldt",
    [
        (T.FP16, np.float16),
        (T.BF16, ml_dtypes.bfloat16),
        (T.E4M3, ml_dtypes.float8_e4m3fn),
        (T.E5M2, ml_dtypes.float8_e5m2),
        (T.E2M1X2, ml_dtypes.float4_e2m1fn),
        (T.E8M0, ml_dtypes.float8_e8m0fnu),
    ],
)
def test_lut_matches_ml_dtypes(t, mldt):
    # ml_dtypes keeps one FP4 per byte; only codes 0..15 are FP4 encodings.
    n = {T.FP16: 65536, T.BF16: 65536, T.E2M1X2: 16}.get(t, 256)
    codes = np.arange(n, dtype=np.uint16 if n > 256 else np.uint8)
    with np.errstate(invalid="ignore"):
        ref = codes.view(mldt).astype(np.float64)
    got = value_lut(t)[codes]
    np.testing.assert_array_equal(got, ref)  # NaN positions must agree too
    # decode() of the ml_dtypes array agrees as well
    np.testing.assert_array_equal(decode(codes.view(mldt)), ref)


def test_fp4_hand_values():
    assert list(value_lut(T.E2M1X2)[:8]) == [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    assert list(value_lut(T.E2M1X2)[8:16]) == [-0.0, -0.5, -1, -1.5, -2, -3, -4, -6]
    assert np.signbit(value_lut(T.E2M1X2)[8])


def test_e1m2_hand_values():
    # (exp ? 4+m : m) * 2^-2 (PTO-SPEC 1)
    assert list(value_lut(T.E1M2X2)[:8]) == [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75]
    assert list(value_lut(T.E1M2X2)[8:16]) == [-0.0, -0.25, -0.5, -0.75, -1, -1.25, -1.5, -1.75]


def test_special_codes_d5():
    e4m3, e5m2, e8m0 = value_lut(T.E4M3), value_lut(T.E5M2), value_lut(T.E8M0)
    assert np.isnan(e4m3[0x7F]) and np.isnan(e4m3[0xFF])
    assert e4m3[0x7E] == 448 and np.isfinite(e4m3[:0x7F]).all()
    assert e5m2[0x7C] == np.inf and e5m2[0xFC] == -np.inf and np.isnan(e5m2[0x7D])
    assert e5m2[0x7B] == 57344
    assert np.isnan(e8m0[0xFF])
    assert e8m0[127] == 1.0 and e8m0[0] == 2.0**-127 and e8m0[0xFE] == 2.0**127


def test_x2_nibbles_ignored_high_and_packed_low_first():
    codes = np.array([0x01, 0xF2, 0x37], np.uint8)  # high nibbles ignored
    assert list(decode(codes, "E2M1X2")) == [0.5, 1.0, 6.0]
    # packed: element e in nibble e % 2 of byte e // 2, low nibble first (PTO-SPEC 1)
    packed = np.array([[0x21, 0x7F]], np.uint8)
    assert list(decode(packed, "E2M1X2", packed=True)[0]) == [0.5, 1.0, -6.0, 6.0]
    assert list(decode(packed, "E1M2X2", packed=True)[0]) == [0.25, 0.5, -1.75, 1.75]
    # HiF4X2 lanes are E1M2 (asl/arch/data-types/formats/hif4x2.asl: k * 2^-2, sign bit 3)
    assert list(decode(packed, "HiF4X2", packed=True)[0]) == [0.25, 0.5, -1.75, 1.75]
    c = np.arange(14, dtype=np.uint8).reshape(2, 7)
    np.testing.assert_array_equal(unpack_x2(pack_x2(c), 7), c)


def test_decode_faults():
    with pytest.raises(PTOFault, match="TileLegality"):
        decode(np.zeros(3, np.uint8))  # raw codes need a type
    with pytest.raises(PTOFault, match="TileLegality"):
        decode(np.zeros(3, np.float32), "E4M3")
    with pytest.raises(PTOFault, match="S8"):  # integer types have no value table
        decode(np.zeros(3, np.uint8), "S8")
    with pytest.raises(PTOFault, match="TileLegality"):
        decode(np.zeros(3, ml_dtypes.float8_e5m2), "E4M3")


def test_operand_typing_faults_and_raw_code_widths():
    """Type names, dtype / name agreement and raw code carriers (TileLegality faults); FP16
    raw codes may come as uint8 (widened, same values) or uint16."""
    from interpreter.kernels import mx

    cases = [
        (lambda: mx.as_type("E9M9", "OP"), "E9M9"),
        (lambda: mx.infer_type(np.ones(2, np.float16), "BF16", "A", "OP"),
         "A has dtype float16 (a FP16 array) but type BF16 was given"),
        (lambda: mx.to_codes(np.ones(2, np.int32), T.FP16, what="B"),
         "B: FP16 raw codes must be uint16 (or uint8), not int32"),
        (lambda: mx.to_codes(np.ones(2, np.int8), T.E4M3, what="B"),
         "B: E4M3 raw codes must be uint8, not int8"),
        (lambda: decode(np.ones(2, np.uint8), "S8"), "type S8 is not an MX/E8M0 format"),
    ]
    for call, match in cases:
        with pytest.raises(PTOFault, match=match.replace("(", r"\(").replace(")", r"\)")) as e:
            call()
        assert e.value.kind == "TileLegality"
    assert mx.as_type(None) is None and mx.as_type("e4m3") is T.E4M3
    one = np.array([0x00, 0x01], np.uint8)  # raw FP16 codes 0x0000 and 0x0001 as uint8
    codes = mx.to_codes(one, T.FP16)
    assert codes.dtype == np.uint16 and codes.tolist() == [0x00, 0x01]
    assert decode(one, "FP16").tolist() == [0.0, 2.0**-24]
