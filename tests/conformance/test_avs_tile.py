"""Tile-level AVS pass conditions (tests/asl/tile/**) through our public API (D17): the
kernels (``interpreter.kernels``), the verifier (``pto-opt``'s context) and ``interpreter.run``.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs
from conformance.support import verify_error
from interpreter import kernels
from pto_dialect.faults import PTOFault

TREM = kernels.BINARY_ROWS["TREM"]
TADD = kernels.BINARY_ROWS["TADD"]


@avs("PTO-AVS-TILE-TREM-DIVISOR-SIGN-001")
def test_trem_signed_floor_modulo_s64():
    got = kernels.trem(np.array([-7, 7], np.int64), np.array([3, -3], np.int64))
    assert got.tolist() == [2, -2]


@avs("PTO-AVS-TILE-TREM-ZERO-TYPES-001")
def test_trem_zero_divisor_by_type():
    with pytest.raises(PTOFault) as e:  # S64 is assigned, but an integer zero divisor faults
        kernels.trem(np.array([7], np.int64), np.array([0], np.int64))
    assert e.value.kind == "TileLegality"
    r = kernels.trem(np.array([7], np.float32), np.array([0], np.float32))  # FP32: legal
    assert np.isnan(r[0])
    with pytest.raises(PTOFault):  # HiF8 is not a TREM type
        kernels.trem(np.ones(1, np.uint8), np.ones(1, np.uint8), dtype="HIF8")


@avs("PTO-AVS-TILE-TREM-PADDING-001")
def test_trem_zero_pad_outside_valid():
    a = np.zeros((8, 2), np.int64)
    b = np.ones((8, 2), np.int64)
    a[0, 0], b[0, 0] = -7, 3
    b[0, 1] = 0  # padding is never read as a divisor
    payload, defined = kernels.trem_tile(a, b, (1, 1), "zero")
    assert payload[0, 0] == 2 and defined[0, 1] and payload[0, 1] == 0


@avs("PTO-AVS-TILE-TADD-ELEMENTS-001")
def test_tadd_elements():
    for dt in (np.int32, np.float32, np.int8):
        payload, _ = kernels.binary_tile(TADD, np.array([[1, 2]], dt), np.array([[3, 4]], dt),
                                         (1, 2), "null")  # fmt: skip
        assert payload.tolist() == [[4, 6]]


@avs("PTO-AVS-TILE-TADD-PADDING-001")
def test_tadd_padding_zero_vs_null():
    a = np.ones((1, 4), np.int32)
    p, d = kernels.binary_tile(TADD, a, a, (1, 2), "zero")
    assert d.all() and p[0, 2:].tolist() == [0, 0]
    _, d = kernels.binary_tile(TADD, a, a, (1, 2), "null")
    assert d[0, :2].all() and not d[0, 2:].any()


@avs("PTO-AVS-TILE-TADD-DATA-TYPES-001")
def test_tadd_types():
    for dt in ("FP64", "FP32", "FP16", "BF16", "S64", "S8", "U64", "U8"):
        from pto_dialect.datatypes import TileDataType

        npdt = TileDataType.from_asm(dt).numpy_dtype()
        kernels.binary_tile(TADD, np.ones(2, npdt), np.ones(2, npdt), None, "null", dt)
    with pytest.raises(PTOFault):
        kernels.binary_tile(TADD, np.ones(2, np.uint8), np.ones(2, np.uint8), None, "null",
                            "HIF8")  # fmt: skip


@avs("PTO-AVS-TILE-TADD-LAYOUT-001", "PTO-AVS-TILE-TMAX-LAYOUT-001")
def test_binary_rejects_column_major():
    for op in ("tadd", "tmax"):
        msg = verify_error(f'%a = "test.op"() : () -> !pto.tile<8x16xf32, col_major>\n'
                           f"%r = pto.{op} %a, %a : !pto.tile<8x16xf32, col_major>")  # fmt: skip
        assert msg is not None and "[TileLegality]" in msg


@avs("PTO-AVS-TILE-TMAX-FLOAT-001", "PTO-AVS-TILE-TMAX-INTEGERS-001")
def test_tmax_values():
    tmax = kernels.BINARY_ROWS["TMAX"]
    p, _ = kernels.binary_tile(tmax, np.array([-1.0], np.float32), np.array([-2.0], np.float32),
                               None, "null")  # fmt: skip
    assert p.tolist() == [[-1.0]]
    p, _ = kernels.binary_tile(tmax, np.array([1], np.int8), np.array([-1], np.int8), None, "null")
    assert p.tolist() == [[1]]
    p, _ = kernels.binary_tile(tmax, np.array([255], np.uint8), np.array([1], np.uint8), None,
                               "null")  # fmt: skip
    assert p.tolist() == [[255]]


MATMUL_MASK = """
%a = "test.op"() : () -> !pto.tile<16x16xf16, cube_m16, mat>
%b = "test.op"() : () -> !pto.tile<16x16xf16, cube_n8, mat>
%d = pto.tmatmul %a, %b {mask = #pto.mask<1100>} : (!pto.tile<16x16xf16, cube_m16, mat>, !pto.tile<16x16xf16, cube_n8, mat>) -> !pto.tile<16x16xf32, cube_m16, mat, pe=1100>
"""


@avs("PTO-AVS-BLOCK-TMATMUL-MASK-001")
def test_sources_on_more_pes_than_the_mask():
    """D13: sources held by all four PEs, op mask 1100: legal; the result lives on 1100."""
    assert verify_error(MATMUL_MASK) is None


def _run(op: str, a, b, valid=None, pad="null", dtype=None):
    return kernels.binary_tile(kernels.BINARY_ROWS[op], np.asarray(a), np.asarray(b), valid, pad,
                               dtype)  # fmt: skip


@avs("PTO-AVS-TILE-TMIN-FLOAT-001", "PTO-AVS-TILE-TMIN-INTEGERS-001")
def test_tmin_values():
    assert _run("TMIN", np.float32([-1.0]), np.float32([-2.0]))[0].tolist() == [[-2.0]]
    assert _run("TMIN", np.int8([1]), np.int8([-1]))[0].tolist() == [[-1]]
    assert _run("TMIN", np.uint8([255]), np.uint8([1]))[0].tolist() == [[1]]


@avs("PTO-AVS-TILE-TMIN-LAYOUT-001")
def test_tmin_rejects_column_major():
    msg = verify_error('%a = "test.op"() : () -> !pto.tile<8x16xf32, col_major>\n'
                       "%r = pto.tmin %a, %a : !pto.tile<8x16xf32, col_major>")  # fmt: skip
    assert msg is not None and "[TileLegality]" in msg


@avs("PTO-AVS-TILE-TSUB-ORDER-001")
def test_tsub_order():
    assert _run("TSUB", np.int32([5]), np.int32([3]))[0].tolist() == [[2]]


@avs("PTO-AVS-TILE-TDIV-SIGNED-001")
def test_tdiv_signed_truncates():
    assert _run("TDIV", np.int32([-7]), np.int32([3]))[0].tolist() == [[-2]]


@avs("PTO-AVS-TILE-TDIV-ZERO-TYPES-001")
def test_tdiv_zero_divisor():
    with pytest.raises(PTOFault) as e:
        _run("TDIV", np.uint64([7]), np.uint64([0]))
    assert e.value.kind == "TileLegality"
    _run("TDIV", np.float32([7]), np.float32([0]))


@avs("PTO-AVS-TILE-TAND-BITS-001", "PTO-AVS-TILE-TOR-BITS-001", "PTO-AVS-TILE-TXOR-BITS-001")
def test_bitwise_u8():
    a, b = np.uint8([240]), np.uint8([90])
    assert _run("TAND", a, b)[0].tolist() == [[80]]
    assert _run("TOR", a, b)[0].tolist() == [[250]]
    assert _run("TXOR", a, b)[0].tolist() == [[170]]
    assert _run("TAND", a, b)[0].dtype == np.uint8


@avs("PTO-AVS-TILE-TAND-TYPES-001", "PTO-AVS-TILE-TOR-TYPES-001", "PTO-AVS-TILE-TXOR-TYPES-001")
def test_bitwise_types():
    for op in ("TAND", "TOR", "TXOR"):
        _run(op, np.int64([3]), np.int64([5]))
        _run(op, np.uint8([3]), np.uint8([5]))
        with pytest.raises(PTOFault):
            _run(op, np.float32([3]), np.float32([5]))


@avs(
    "PTO-AVS-TILE-TSUB-TYPES-001", "PTO-AVS-TILE-TMUL-TYPES-001", "PTO-AVS-TILE-TMAX-TYPES-001",
    "PTO-AVS-TILE-TMIN-TYPES-001",
)  # fmt: skip
def test_arith_types():
    for op in ("TSUB", "TMUL", "TMAX", "TMIN"):
        _run(op, np.float32([3]), np.float32([5]))
        _run(op, np.uint8([3]), np.uint8([5]))
        with pytest.raises(PTOFault):
            _run(op, np.uint8([3]), np.uint8([5]), dtype="HIF8")


@avs(
    "PTO-AVS-TILE-TSUB-PADDING-001", "PTO-AVS-TILE-TMUL-PADDING-001",
    "PTO-AVS-TILE-TAND-PADDING-001", "PTO-AVS-TILE-TOR-PADDING-001",
    "PTO-AVS-TILE-TXOR-PADDING-001",
)  # fmt: skip
def test_zero_padding_defined_null_undefined():
    a = np.full((1, 4), 6, np.int32)
    for op in ("TSUB", "TMUL", "TAND", "TOR", "TXOR"):
        p, d = _run(op, a, a, (1, 2), "zero")
        assert d.all() and p[0, 2:].tolist() == [0, 0]
        _, d = _run(op, a, a, (1, 2), "null")
        assert not d[0, 2:].any()


@avs("PTO-AVS-TILE-TDIV-PADDING-001", "PTO-AVS-TILE-TMAX-PADDING-001",
     "PTO-AVS-TILE-TMIN-PADDING-001")  # fmt: skip
def test_max_min_padding_typed_bounds():
    u = np.full((1, 4), 6, np.uint64)
    p, d = _run("TDIV", u, u, (1, 2), "max")
    assert d.all() and p[0, 2:].tolist() == [2**64 - 1] * 2
    s = np.full((1, 4), 6, np.int32)
    p, _ = _run("TMAX", s, s, (1, 2), "max")
    assert p[0, 2:].tolist() == [2**31 - 1] * 2
    p, _ = _run("TMIN", s, s, (1, 2), "min")
    assert p[0, 2:].tolist() == [-(2**31)] * 2
    _, d = _run("TMAX", s, s, (1, 2), "null")
    assert not d[0, 2:].any()


CUBE_ONE_ELEMENT = ["TMATMUL", "TMATMUL_ACC", "TMATMUL_BIAS", "TMATMUL_MX", "TMATMUL_MX_ACC", "TMATMUL_MX_BIAS",
                    "TGEMV", "TGEMV_ACC", "TGEMV_BIAS", "TGEMV_MX", "TGEMV_MX_ACC",
                    "TGEMV_MX_BIAS"]  # fmt: skip


@avs(
    "PTO-AVS-BLOCK-TMATMUL-ACC-EXEC-001", "PTO-AVS-BLOCK-TMATMULMX-EXEC-001",
    "PTO-AVS-BLOCK-TMATMULMX-ACC-EXEC-001", "PTO-AVS-BLOCK-TMATMULMX-BIAS-EXEC-001",
    "PTO-AVS-BLOCK-TGEMV-EXEC-001", "PTO-AVS-BLOCK-TGEMV-ACC-EXEC-001",
    "PTO-AVS-BLOCK-TGEMV-BIAS-EXEC-001", "PTO-AVS-BLOCK-TGEMVMX-EXEC-001",
    "PTO-AVS-BLOCK-TGEMVMX-ACC-EXEC-001", "PTO-AVS-BLOCK-TGEMVMX-BIAS-EXEC-001",
    "PTO-AVS-BLOCK-TMATMUL-DEFAULT-001",
)  # fmt: skip
@avs(*(f"PTO-AVS-TILE-{n}-EXEC-001" for n in (
    "TMATMUL", "TMATMUL-ACC", "TMATMUL-BIAS", "TMATMUL-MX-ACC", "TMATMUL-MX-BIAS", "TGEMV-ACC",
    "TGEMV-BIAS", "TGEMV-MX", "TGEMV-MX-ACC", "TGEMV-MX-BIAS")), "PTO-AVS-TILE-TMATMUL-MX-UNSCALED-001")
def test_cube_one_element():
    """A=2, B=3 (FP16; the MX forms need no scale for FP16, D2): 6; with C=5 or Bias=5: 11
    (the block forms and the direct tile calls; the AVS elements are the 1x1 operands' values
    through the test profile's accumulate hook)."""
    a = np.array([[2.0]], np.float16)
    b = np.array([[3.0]], np.float16)
    for name in CUBE_ONE_ELEMENT:
        kw = {}
        if name.endswith("ACC"):
            kw["c"] = np.array([[5.0]], np.float32)
        if name.endswith("BIAS"):
            kw["bias"] = np.array([[5.0]], np.float32)
        d = kernels.cube_matrix(name, a, b, **kw)
        d = d[0] if isinstance(d, tuple) else d
        assert d.dtype == np.float32 and d.reshape(-1).tolist() == [11.0 if kw else 6.0], name
