"""Block-level AVS pass conditions (tests/asl/block/**) through ``pto_dialect.isa`` (D17).

Each test asserts, in our own code and through our public API (assembly parser, decoder, block
checker), the pass condition of the AVS tests named in its ``@avs`` mark.
"""

from __future__ import annotations

import pytest

from conformance.inventory import avs
from pto_dialect.faults import PTOFault
from pto_dialect.isa import (
    BDatr,
    BFpatr,
    BIos,
    BIot,
    BlockFamily,
    BStart,
    BStop,
    check_block,
    check_program,
    decode,
    encode,
    parse_program,
)

TREM = """BSTART.SFU TREM, S32
C.B.DIMI 4, ->lb0
B.IOT t#1, t#2, mask=1111, last, ->t<128B>
BSTOP
"""
MATMUL = """BSTART.TMATMUL FP16
B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
B.IOT t#1, t#2, mask=1111, last, ->m<128B>
BSTOP
"""


def kind(text: str) -> str | None:
    try:
        check_program(parse_program(text))
    except PTOFault as e:
        return e.kind
    return None


@avs("PTO-AVS-BLOCK-B-FPATR-TRANSPOSE-RSVD-012")
def test_fpatr_bits_10_9_reserved():
    for bit in (9, 10):
        with pytest.raises(PTOFault) as e:
            decode(0x00002023 | 1 << bit)
        assert e.value.kind == "IllegalInstruction"


@avs("PTO-AVS-BLOCK-B-FPATR-DUPLICATE-001")
def test_fpatr_duplicate():
    text = MATMUL.replace("B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n",
                          "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n" * 2)  # fmt: skip
    assert kind(text) == "BundleControl"


@avs("PTO-AVS-BLOCK-B-FPATR-NONMATRIX-001")
def test_fpatr_in_non_matrix_block():
    assert kind(TREM.replace("C.B.DIMI", "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\nC.B.DIMI")) == (
        "BundleControl"
    )


@avs("PTO-AVS-BLOCK-B-FPATR-PLACE-001")
def test_fpatr_outside_block_and_after_bindings():
    assert kind("B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n") == "BundleControl"
    text = MATMUL.replace("B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n", "B.IOR [zero], ->zero\n")
    text = text.replace("BSTOP", "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\nBSTOP")
    assert kind(text) == "BundleControl"


@avs("PTO-AVS-BLOCK-B-DATR-DUPLICATE-001")
def test_datr_duplicate():
    text = TREM.replace("C.B.DIMI", "B.DATR NORM, FP64, Zero\nB.DATR NORM, FP64, Zero\nC.B.DIMI")
    assert kind(text) == "BundleControl"


@avs("PTO-AVS-BLOCK-B-DATR-PLACEMENT-001")
def test_datr_outside_block():
    assert kind("B.DATR NORM, FP64, Zero\n") == "BundleControl"


@avs("PTO-AVS-BLOCK-B-DIM-DUPLICATE-001")
def test_dim_write_once():
    assert kind(TREM.replace("C.B.DIMI 4, ->lb0", "C.B.DIMI 4, ->lb0\nB.DIM zero, 4, ->lb0")) == (
        "BundleControl"
    )


@avs("PTO-AVS-BLOCK-B-DIM-PLACEMENT-001")
def test_dim_outside_block():
    assert kind("B.DIM zero, 4, ->lb0\n") == "BundleControl"


@avs("PTO-AVS-BLOCK-B-IOR-PLACEMENT-001")
def test_ior_outside_block():
    assert kind("B.IOR [a0], ->zero\n") == "BundleControl"


@avs("PTO-AVS-BLOCK-B-IOT-PLACEMENT-001")
def test_iot_outside_block():
    assert kind("B.IOT t#1, t#2, mask=1111, last, ->t<128B>\n") == "BundleControl"
    assert kind("B.IOT t#1, t#2, mask=0000, last, ->t<128B>\n") is None  # zero mask: no-op


@avs("PTO-AVS-BLOCK-B-IOT-LAST-ORDER-001")
def test_iot_after_last():
    text = TREM.replace("->t<128B>\n", "->t<128B>\nB.IOT t#3, mask=1111\n")
    assert kind(text) == "BundleControl"


@avs("PTO-AVS-BLOCK-B-IOT-ZERO-MASK-001")
def test_iot_zero_mask_not_recorded():
    text = TREM.replace("B.IOT t#1", "B.IOT t#9, mask=0000, last\nB.IOT t#1")
    s = check_block(parse_program(text))
    assert s.sources == (0, 1) and s.terminated


@avs("PTO-AVS-BLOCK-B-IOS-ZERO-MASK-001")
def test_ios_zero_mask_is_a_noop_everywhere():
    check_program([BIos(9, 0, 0)])  # standalone: executed, nothing recorded
    s = check_block([BStart.op("TADD", 17), BIos(9, 1, 0), BStop()])
    assert s.noop and s.shared == ()


@avs("PTO-AVS-BLOCK-B-IOS-PLACEMENT-001")
def test_ios_nonzero_outside_block():
    assert kind("B.IOS S7, mask=1111\n") == "BundleControl"


@avs("PTO-AVS-BLOCK-B-IOS-STREAM-LIMIT-001", "PTO-AVS-BLOCK-B-IOS-STREAM-001")
def test_ios_duplicate_and_fifth():
    base = [BStart.op("TMATMUL", 4), BFpatr()]
    with pytest.raises(PTOFault) as e:
        check_program([*base, BIos(1), BIos(1), BStop()])
    assert e.value.kind == "BundleControl"
    with pytest.raises(PTOFault) as e:
        check_program([*base, *(BIos(k) for k in range(5)), BStop()])
    assert e.value.kind == "BundleControl"


@avs("PTO-AVS-BLOCK-B-IOS-MASK-CONSISTENCY-001")
def test_ios_mask_differs():
    with pytest.raises(PTOFault) as e:
        check_program([BStart.op("TMATMUL", 4), BFpatr(), BIot(0, 1, 0, 0, 7, None),
                       BIos(3, 0, 5), BStop()])  # fmt: skip
    assert e.value.kind == "TileLegality"


@avs("PTO-AVS-BLOCK-TMATMUL-EXEC-001")
def test_prequant_0_with_rmode_and_sat_is_legal():
    text = MATMUL.replace("B.FPATR", "B.DATR NORM, DTYPE_NONE, Zero, RNE, SAT\nB.FPATR")
    s = check_block(parse_program(text))
    assert s.datr.rmode == 1 and s.datr.sat == 1 and not s.noop


@avs("PTO-AVS-BLOCK-TMATMUL-PRESENCE-001")
def test_matmul_needs_fpatr():
    assert kind(MATMUL.replace("B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n", "")) == "BundleControl"


@avs("PTO-AVS-BLOCK-TSTORE-FORMS-001")
def test_tstore_spart_function_14():
    w = encode(BStart(BlockFamily.TLSU, 14, 4))
    assert w == 0x00E11181 | 4 << 27
    assert decode(w).op_name == "TSTORE_SPART"
    check_block([BStart(BlockFamily.TLSU, 14, 4), BIos(7, 0, 5), BStop()])  # partial PEs
    with pytest.raises(PTOFault) as e:  # Function 1 Shared store needs all four PEs
        check_block([BStart(BlockFamily.TLSU, 1, 4), BIos(7, 0, 5), BStop()])
    assert e.value.kind == "TileLegality"
    with pytest.raises(PTOFault) as e:  # no Local form
        check_block([BStart(BlockFamily.TLSU, 14, 4), BIot(0, None, 1, 0, 7, None), BStop()])
    assert e.value.kind == "BundleControl"


@avs("PTO-AVS-BLOCK-B-DATR-OMITTED-PAD-001")
def test_omitted_datr_is_null_pad():
    s = check_block(parse_program(TREM))
    assert not s.datr_present and s.datr.pad == 3


@avs("PTO-AVS-BLOCK-B-DATR-OMITTED-TYPE-001")
def test_omitted_datr_type_inherits_bstart():
    assert check_block(parse_program(TREM)).b_type == 17
    s = check_block(parse_program(MATMUL))
    assert s.a_type == s.b_type == 4


def test_trem_datr_datatype():
    """ASL TileOperationDATRFieldsLegal for TREM: PadValue only; DataType 0 accepted, any
    nonzero DataType (DTYPE_NONE included) is TileLegality (issue 11)."""
    ok = TREM.replace("C.B.DIMI", "B.DATR NORM, FP64, Zero\nC.B.DIMI")
    assert check_block(parse_program(ok)).datr.dtype == 0
    for dt in ("DTYPE_NONE", "S32"):
        assert kind(ok.replace("FP64", dt)) == "TileLegality"
    assert BDatr(dtype=0, pad=0) == parse_program(ok)[1]


def test_closed_binary_schema_split_binding():
    """ASL SelectedBundleClosedBinarySchemaLegal: destination and both sources in one
    terminating B.IOT; a split binding is TileLegality (issue 11)."""
    split = TREM.replace("B.IOT t#1, t#2, mask=1111, last, ->t<128B>",
                         "B.IOT t#1, mask=1111\nB.IOT t#2, mask=1111, last, ->t<128B>")  # fmt: skip
    assert kind(split) == "TileLegality"


RESERVED_FPATR = [
    (26, range(14, 16)), (26, range(21, 23)), (26, range(29, 32)), (26, range(40, 48)),
    (26, range(48, 56)), (26, range(56, 64)), (23, range(4, 8)), (19, range(10, 16)),
]  # fmt: skip
"""(field's low bit, reserved codes): PreQuantMode 31:26, ReluMode 25:23, GroupNCode 22:19."""


@avs(
    "PTO-AVS-BLOCK-B-FPATR-PQ14-15-001", "PTO-AVS-BLOCK-B-FPATR-PQ21-22-001",
    "PTO-AVS-BLOCK-B-FPATR-PQ29-31-001", "PTO-AVS-BLOCK-B-FPATR-PQ40-47-001",
    "PTO-AVS-BLOCK-B-FPATR-PQ48-55-001", "PTO-AVS-BLOCK-B-FPATR-PQ56-63-001",
    "PTO-AVS-BLOCK-B-FPATR-RELU-RSVD-001", "PTO-AVS-BLOCK-B-FPATR-GROUP-RSVD-001",
)  # fmt: skip
def test_fpatr_reserved_codes():
    for lo, codes in RESERVED_FPATR:
        for code in codes:
            with pytest.raises(PTOFault) as e:
                decode(0x00002023 | code << lo, strict=True)
            assert e.value.kind == "IllegalInstruction", (lo, code)


def _binary(op: str, body: str) -> str:
    return f"BSTART.VEC {op}, S32\n{body}BSTOP\n".replace("VEC TDIV", "SFU TDIV")


@avs("PTO-AVS-TILE-TADD-MISSING-LB0-001", "PTO-AVS-TILE-TMAX-LB0-001", "PTO-AVS-TILE-TMIN-LB0-001")
def test_binary_needs_lb0():
    for op in ("TADD", "TMAX", "TMIN"):
        assert kind(_binary(op, "B.IOT t#1, t#2, mask=1111, last, ->t<128B>\n")) == "TileLegality"


@avs("PTO-AVS-TILE-TMAX-SCHEMA-001", "PTO-AVS-TILE-TMIN-SCHEMA-001")
def test_binary_split_schema():
    body = "C.B.DIMI 2, ->lb0\nB.IOT t#1, mask=1111\nB.IOT t#2, mask=1111, last, ->t<128B>\n"
    for op in ("TMAX", "TMIN"):
        assert kind(_binary(op, body)) == "TileLegality"


@avs("PTO-AVS-TILE-TMAX-MASK-ZERO-001", "PTO-AVS-TILE-TMIN-MASK-ZERO-001")
def test_binary_zero_mask_before_dimensions():
    for op in ("TMAX", "TMIN"):
        s = check_block(parse_program(_binary(op, "B.IOT t#1, t#2, mask=0000, last, ->t<128B>\n")))
        assert s.noop


@avs(
    "PTO-AVS-TILE-TADD-DIM-DEFAULTS-001", "PTO-AVS-TILE-TMAX-DEFAULTS-001",
    "PTO-AVS-TILE-TMIN-DEFAULTS-001", "PTO-AVS-TILE-TDIV-DIM-DEFAULTS-001",
)  # fmt: skip
def test_binary_dimension_defaults():
    """Omitted LB1 is ValidRow 1; omitted LB2 copies LB0 (physical Col = ValidCol)."""
    for op in ("TADD", "TMAX", "TMIN", "TDIV"):
        body = "C.B.DIMI 2, ->lb0\nB.IOT t#1, t#2, mask=1111, last, ->t<128B>\n"
        assert check_block(parse_program(_binary(op, body))).dims == (2, 1, 2)


def test_destination_not_fitting_its_size_code_is_tile_allocation():
    """Issue 11 / ASL destination resolution: 17 valid of 32 physical U64 columns need 256 B;
    a 128 B destination is TileAllocation (the pattern of AVS tile-fault-*-capacity-001)."""
    text = ("BSTART.VEC TADD, U64\nC.B.DIMI 17, ->lb0\nC.B.DIMI 32, ->lb2\n"
            "B.IOT t#1, t#2, mask=1111, last, ->t<128B>\nBSTOP\n")  # fmt: skip
    assert kind(text) == "TileAllocation"
    assert kind(text.replace("<128B>", "<256B>")) is None
