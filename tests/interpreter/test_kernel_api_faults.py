"""The kernel API's argument checks and boundary cases, one hand-written case each (issue 27).

``scripts/mutate.py`` found these paths unreached by any test: deleting the check (or moving
its bound by one) left every test green. Each case states the decision independently: the
ranges as the spec or the docstring gives them (CMode codes 0-5, PadValue codes 0-3, TTRI's
diagonal -65535..65535, ``asl/tile/model/execution/generation.asl``), and bad arguments
(wrong dtype, shape, rank, a non-PTO dtype) as a PTOFault [TileLegality] naming the problem,
never a numpy error or a silent result.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from interpreter.kernels import KERNELS, local_tile, texpands_tile
from interpreter.kernels.compare import (
    pack_predicate,
    tcmp_tile,
    tsel_tile,
    tsels_tile,
    unpack_predicate,
)
from interpreter.kernels.elementwise import BINARY_ROWS, binary_tile
from interpreter.kernels.padding import pad_bits, pad_tile, parse_pad
from interpreter.kernels.status import NX, recording
from interpreter.kernels.tile_local import GENERATOR_ROWS
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault

X = np.arange(8, dtype=np.float32).reshape(2, 4)
P = np.ones((2, 4), bool)

BAD_CALLS = {
    # TCMP / TSEL (interpreter/kernels/compare.py)
    "cmode 6": (lambda: tcmp_tile(X, X, cmode=6), "CMode 6 is reserved"),
    "cmode -1": (lambda: tcmp_tile(X, X, cmode=-1), "CMode -1 is reserved"),
    "cmode name": (lambda: tcmp_tile(X, X, cmode="lt_or_eq"), "unknown comparison 'lt_or_eq'"),
    "tcmp dtype": (lambda: tcmp_tile(X.astype(np.float64), X), "lhs has dtype float64, expected float32"),
    "tcmp carrier": (lambda: tcmp_tile(X.astype(np.float16), X.astype(np.float16), dtype=T.BF16), "lhs has dtype float16, expected bfloat16 for BF16"),
    "tcmp rank": (lambda: tcmp_tile(X.reshape(-1), X.reshape(-1)), "lhs: tile payloads are 2-D, got (8,)"),
    "tcmp shapes": (lambda: tcmp_tile(X, X[:, :2]), "operand shapes differ: (2, 4), (2, 2)"),
    "tsel predicate dtype": (lambda: tsel_tile(P.astype(np.uint8), X, X), "predicate must be a bool array of shape (2, 4)"),
    "tsel predicate shape": (lambda: tsel_tile(P[:, :2], X, X), "predicate must be a bool array of shape (2, 4)"),
    "tsel shapes": (lambda: tsel_tile(P, X, X[:, :2]), "operand shapes differ: (2, 4), (2, 2)"),
    # the binary driver (elementwise.py) and the unary / ternary one (tepl.py)
    "tadd non-PTO dtype": (lambda: binary_tile(BINARY_ROWS["TADD"], X.astype(np.complex64), X.astype(np.complex64), None, "null"),
                           "operand dtype complex64 is not a PTO tile type"),
    "tadd shapes": (lambda: binary_tile(BINARY_ROWS["TADD"], X, X[:, :2], None, "null"), "operand shapes differ: (2, 4) vs (2, 2)"),
    "tadd rank": (lambda: binary_tile(BINARY_ROWS["TADD"], X.reshape(2, 2, 2), X.reshape(2, 2, 2), None, "null"),
                  "tile payloads are 2-D, got shape (2, 2, 2)"),
    "tfma shapes": (lambda: KERNELS["TFMA"](X, X, X[:, :2], None, "null", T.FP32), "operand shapes differ: (2, 4), (2, 4), (2, 2)"),
    "tfma rank": (lambda: KERNELS["TFMA"](*[X.reshape(2, 2, 2)] * 3, None, "null", T.FP32), "tile payloads are 2-D, got (2, 2, 2)"),
    # TEXPANDS (ternary.py)
    "texpands no shape": (lambda: texpands_tile(1.0, None, "null", T.FP32), "TEXPANDS needs the destination type and shape"),
    "texpands no type": (lambda: texpands_tile(1.0, None, "null", None, shape=(2, 4)), "TEXPANDS needs the destination type and shape"),
    "texpands type": (lambda: texpands_tile(1, None, "null", T.E8M0, shape=(2, 4)), "TEXPANDS does not accept E8M0"),
    # padding.py
    "pad code 4": (lambda: parse_pad(4), "unknown PadValue 4"),
    "pad code -1": (lambda: parse_pad(-1), "unknown PadValue -1"),
    "pad rank": (lambda: pad_tile(X.reshape(-1), (1, 4), "zero", T.FP32), "a tile payload is 2-D, got (8,)"),
    "pad valid rows": (lambda: pad_tile(X, (3, 4), "zero", T.FP32), "valid shape 3x4 must be nonempty and within 2x4"),
    "pad valid cols": (lambda: pad_tile(X, (2, 5), "zero", T.FP32), "valid shape 2x5 must be nonempty and within 2x4"),
    "pad no valid rows": (lambda: pad_tile(X, (0, 4), "zero", T.FP32), "valid shape 0x4 must be nonempty and within 2x4"),
    "pad no valid cols": (lambda: pad_tile(X, (2, 0), "null", T.FP32), "valid shape 2x0 must be nonempty and within 2x4"),
    # tile_local.py: a result valid shape outside the rules; TTRI's diagonal range
    "trowsum empty result": (lambda: local_tile("TROWSUM", [X], [T.FP32], T.FP32, (0, 1)), "result"),
    "ttri diagonal 65536": (lambda: GENERATOR_ROWS["TTRI"]((65536, 0), T.FP32, (2, 4)), "diagonal 65536 is outside -65535..65535"),
    "ttri diagonal -65536": (lambda: GENERATOR_ROWS["TTRI"]((-65536, 1), T.FP32, (2, 4)), "diagonal -65536 is outside -65535..65535"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(BAD_CALLS))
def test_bad_kernel_arguments_are_tile_legality_faults(name: str) -> None:
    call, message = BAD_CALLS[name]
    with pytest.raises(PTOFault) as e:
        call()
    assert "[TileLegality]" in str(e.value)
    assert message in str(e.value)


def test_the_range_ends_are_accepted() -> None:
    """The last legal value of each range above works (a bound moved inward would fault)."""
    a, b = np.array([[1.0, 2.0]], np.float32), np.array([[2.0, 2.0]], np.float32)
    assert tcmp_tile(a, b, cmode=0)[0].tolist() == [[False, True]]  # EQ
    assert tcmp_tile(a, b, cmode=5)[0].tolist() == [[False, True]]  # GE
    assert parse_pad(0) == "zero" and parse_pad(3) == "null"
    # TTRI, 2 x 3: lower with diagonal 65535 is all ones; upper with -65535 too
    assert GENERATOR_ROWS["TTRI"]((65535, 0), T.S32, (2, 3)).tolist() == [[1, 1, 1], [1, 1, 1]]
    assert GENERATOR_ROWS["TTRI"]((-65535, 1), T.S32, (2, 3)).tolist() == [[1, 1, 1], [1, 1, 1]]


def test_tsels_picks_the_scalar_where_the_predicate_is_false() -> None:
    p = np.array([[True, False], [False, True]])
    out, defined = tsels_tile(p, np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), 9.0)
    assert out.tolist() == [[1.0, 9.0], [9.0, 4.0]] and defined.all()


@pytest.mark.parametrize(("t", "ones"), [(T.HIF8, 0xFF), (T.E8M0, 0xFF), (T.S4X2, 0xF), (T.U4X2, 0xF), (T.E2M1X2, 0xF)])
def test_pad_words_of_the_other_types(t: T, ones: int) -> None:
    """``TilePadValueForDataType``'s ``otherwise`` words truncated to the 8- or 4-bit
    carrier (asl/tile/model/definedness/elements.asl): Max = Ones{64} -> all ones, Min =
    0x8000000000000000 -> 0, Zero and Null 0."""
    assert [pad_bits(t, p) for p in ("max", "min", "zero", "null")] == [ones, 0, 0, 0]


def test_integer_reductions_record_no_flags() -> None:
    """Integer SUM wraps silently (no IEEE flags); a TF32 SUM step that rounds is NX only:
    1 + 2^-11 is halfway between 1 and 1 + 2^-10 on TF32's 10-bit grid -> 1 (even)."""
    with recording() as status:
        out = local_tile("TROWSUM", [np.array([[2**31 - 1, 1]], np.int32)], [T.S32], T.S32, (1, 1))
    assert out.tolist() == [[-(2**31)]] and status.bits == 0
    tf32 = np.array([[1.0, 2.0**-11]], np.float32)
    with recording() as status:
        out = local_tile("TROWSUM", [tf32], [T.TF32], T.TF32, (1, 1))
    assert out.tolist() == [[1.0]] and status.bits == NX


def test_packed_predicate_bytes_by_hand() -> None:
    """Predicate bit ``i = r * cols + c`` is bit ``i mod 8`` of byte ``i // 8``: a 3 x 3
    tile with bits 0, 2, 3 and 8 set packs to bytes 1 + 4 + 8 = 13 and 1."""
    bits = np.array([[1, 0, 1], [1, 0, 0], [0, 0, 1]], bool)
    assert pack_predicate(bits).tolist() == [13, 1]
    assert unpack_predicate(np.array([13, 1], np.uint8), (3, 3)).tolist() == bits.tolist()


def test_fp64_comparison_is_not_narrowed() -> None:
    """FP64 compares in FP64: 1 < 1 + 2^-40 (both are 1.0 in FP32)."""
    x = np.array([[1.0, 1.0 + 2.0**-40]])
    y = np.array([[1.0 + 2.0**-40, 1.0 + 2.0**-40]])
    assert tcmp_tile(x, y, dtype=T.FP64, cmode="lt")[0].tolist() == [[True, False]]
    assert tcmp_tile(x, y, dtype=T.FP64, cmode="eq")[0].tolist() == [[False, True]]


def test_raw_carriers_are_taken_as_the_tile_type() -> None:
    """Unsigned words of the element width are the tile's raw encodings (BF16 0x3F80 = 1)."""
    words = np.array([[0x3F80, 0x4000]], np.uint16)  # BF16 1.0, 2.0
    ones = np.array([[1.0, 1.0]], ml_dtypes.bfloat16)
    assert tcmp_tile(words, ones, dtype=T.BF16, cmode="eq")[0].tolist() == [[True, False]]
