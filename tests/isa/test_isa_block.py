"""Block structure checker (PTO-SPEC 3.2-3.5, D11, D12, D15): one test per rule."""

from __future__ import annotations

import pytest

from pto_dialect.datatypes import VEC_ARITH_TYPES
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from pto_dialect.isa import BStart, check_block, check_program, parse_program

TGEMV = """
BSTART.TGEMVMX.BIAS E4M3
B.DATR NORM, E5M2, Zero
B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
C.B.DIMI 32, ->lb1
C.B.DIMI 64, ->lb2
B.IOT t#1, t#2, mask=1111
B.IOT u#1, u#2, mask=1111
B.IOT n#1, mask=1111, last, ->m<4KB>
BSTOP
"""

TREM = """
BSTART.SFU TREM, S32
B.DATR NORM, FP64, Zero
C.B.DIMI 16, ->lb0
B.IOT t#1, t#2, mask=1111, last, ->t<4KB>
C.BSTOP
"""


def block(text: str, **kw):
    return check_block(parse_program(text), **kw)


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def fault(text: str, **kw) -> PTOFault:
    with pytest.raises(PTOFault) as e:
        check_program(parse_program(text), **kw)
    return e.value


def test_tgemv_mx_bias_summary():
    s = block(TGEMV)
    assert s.op_name == "TGEMV_MX_BIAS"
    assert (s.a_type, s.b_type) == (T.E4M3, T.E5M2)
    assert s.dims == (1, 32, 64)  # LB0 omitted -> M = 1
    assert s.sources == (0, 1, 16, 17, 48)  # A, As, B, Bs, Bias in stream order
    assert s.destinations == ((2, 6),)
    assert s.mask == "1111" and s.terminated and not s.noop
    assert s.fpatr is not None and s.fpatr.as_tuple() == (0,) * 10


def test_tgemv_fp16_has_no_scales():
    text = edit(edit(TGEMV, "E4M3", "FP16"), "E5M2", "BF16")
    text = edit(edit(text, "t#1, t#2", "t#1"), "u#1, u#2", "u#1")
    assert block(text).sources == (0, 16, 48)


def test_trem_summary_defaults():
    s = block(TREM)
    assert s.op_name == "TREM" and s.dims == (16, 1, 16)
    assert s.datr.pad == 0 and s.sources == (0, 1) and s.destinations == ((0, 6),)


def test_omitted_datr_defaults_to_null_pad():
    s = block(edit(TREM, "B.DATR NORM, FP64, Zero\n", ""))
    assert not s.datr_present and s.datr.pad == 3 and s.datr.rmode == 0 and s.datr.sat == 0


def test_zero_mask_is_a_noop_before_fpatr_check():
    """D12/PTO-SPEC 3.5: all masks zero -> no-op, even without B.FPATR."""
    text = TGEMV.replace("mask=1111", "mask=0000")
    text = edit(text, "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n", "")
    assert block(text).noop
    assert block(TREM.replace("mask=1111", "mask=0000")).noop


def test_program_of_blocks_and_bstart_completion():
    blocks = check_program(parse_program(TGEMV + TREM))
    assert [b.op_name for b in blocks] == ["TGEMV_MX_BIAS", "TREM"]
    # the next BSTART completes the active block (PTO-SPEC 3)
    text = edit(TGEMV, "BSTOP", "") + TREM
    assert [b.op_name for b in check_program(parse_program(text))] == ["TGEMV_MX_BIAS", "TREM"]


# -- one negative test per rule (kind, rule) ------------------------------------------------------

NEGATIVE = [
    # IllegalInstruction: reserved encodings / selectors
    ("IllegalInstruction", TGEMV, "BSTART.TGEMVMX.BIAS E4M3", "BSTART.CUBE 8, FP16"),
    ("IllegalInstruction", TREM, "BSTART.SFU TREM, S32", "BSTART.TEPL 0, 5, S32"),
    ("IllegalInstruction", TREM, "BSTART.SFU TREM, S32", "BSTART.SFU TREM, 21"),
    ("IllegalInstruction", TREM, "B.DATR NORM, FP64, Zero", "B.DATR Layout2, S32, Zero"),
    ("IllegalInstruction", TREM, "B.DATR NORM, FP64, Zero", "B.DATR NORM, S32, Zero, CMODE6"),
    ("IllegalInstruction", TGEMV, "B.FPATR 0, 0, 0, 0,", "B.FPATR 6, 0, 0, 0,"),
    ("IllegalInstruction", TGEMV, "B.FPATR 0, 0, 0, 0,", "B.FPATR 0, 0, 10, 0,"),
    ("IllegalInstruction", TREM, "C.B.DIMI 16, ->lb0", "B.DIM r24, 16, ->lb0"),
    ("IllegalInstruction", TREM, "C.B.DIMI 16, ->lb0", "C.B.DIMI 16, ->lb3"),
    ("IllegalInstruction", TREM, "->t<4KB>", "->t<128KB>"),
    ("IllegalInstruction", TREM, "->t<4KB>", "->t<SZ0>"),
    ("IllegalInstruction", TREM, "mask=1111, last, ->t<4KB>", "mask=1111, last, size=4KB"),
    # BundleControl: block structure
    ("BundleControl", TGEMV, "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n", ""),
    ("BundleControl", TGEMV, "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n",
     "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\nB.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n"),
    ("BundleControl", TREM, "C.B.DIMI 16, ->lb0\n",
     "C.B.DIMI 16, ->lb0\nB.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n"),
    ("BundleControl", TGEMV, "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\nC.B.DIMI 32, ->lb1\n"
     "C.B.DIMI 64, ->lb2\nB.IOT t#1, t#2, mask=1111\n",
     "C.B.DIMI 32, ->lb1\nC.B.DIMI 64, ->lb2\nB.IOT t#1, t#2, mask=1111\n"
     "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n"),
    ("BundleControl", TREM, "B.DATR NORM, FP64, Zero\n",
     "B.DATR NORM, FP64, Zero\nB.DATR NORM, FP64, Zero\n"),
    ("BundleControl", TREM, "C.B.DIMI 16, ->lb0\n", "C.B.DIMI 16, ->lb0\nB.DIM zero, 8, ->lb0\n"),
    ("BundleControl", TGEMV, "B.IOT n#1, mask=1111, last, ->m<4KB>\n",
     "B.IOT n#1, mask=1111, last\nB.IOT mask=1111, ->m<4KB>\n"),
    ("BundleControl", TREM, "B.IOT t#1, t#2, mask=1111, last, ->t<4KB>",
     "B.IOT t#1, t#2, mask=1111, last\nB.IOT mask=1111, ->t<4KB>"),
    ("BundleControl", TREM, "C.BSTOP\n", ""),
    ("BundleControl", TREM, "C.BSTOP\n", "C.BSTOP\nBSTOP\n"),
    ("BundleControl", TREM, "C.BSTOP\n", "C.BSTOP\nC.B.DIMI 1, ->lb0\n"),
    ("BundleControl", TREM, "C.B.DIMI 16, ->lb0\n",
     "C.B.DIMI 16, ->lb0\nB.IOR [zero, zero, zero], ->zero\nB.IOR [zero, zero, zero], ->zero\n"),
    ("BundleControl", TREM, "C.B.DIMI 16, ->lb0\n",
     "C.B.DIMI 16, ->lb0\nB.IOR [a0, zero, zero], ->zero\n"),
    ("BundleControl", TREM, "B.IOT t#1, t#2, mask=1111, last, ->t<4KB>",
     "B.IOT t#1, mask=1111, last, ->t<4KB>"),
    ("BundleControl", TREM, "mask=1111, last, ->t<4KB>", "mask=1111, ->t<4KB>"),
    # TileLegality: static schema rules
    ("TileLegality", TREM, "C.B.DIMI 16, ->lb0\n",
     "C.B.DIMI 16, ->lb0\nB.IOS S1, mask=1111\n"),
    ("TileLegality", TREM, "B.DATR NORM, FP64, Zero", "B.DATR NORM, FP64, Zero, SAT"),
    ("TileLegality", TREM, "B.DATR NORM, FP64, Zero", "B.DATR ND2M16, DTYPE_NONE, Zero"),
    ("TileLegality", TREM, "B.DATR NORM, FP64, Zero", "B.DATR NORM, FP32, Zero"),
    ("TileLegality", TREM, "C.B.DIMI 16, ->lb0\n", ""),
    ("TileLegality", TREM, "C.B.DIMI 16, ->lb0", "C.B.DIMI 0, ->lb0"),
    ("TileLegality", TREM, "BSTART.SFU TREM, S32", "BSTART.SFU TREM, HiF8"),
    # ASL TileOperationDATRFieldsLegal: TREM's B.DATR carries PadValue only; DTYPE_NONE (31)
    # is a nonzero DataType
    ("TileLegality", TREM, "B.DATR NORM, FP64, Zero", "B.DATR NORM, DTYPE_NONE, Zero"),
    ("TileLegality", TREM, "B.IOT t#1, t#2, mask=1111, last, ->t<4KB>",
     "B.IOT t#1, mask=1111\nB.IOT t#2, mask=1100, last, ->t<4KB>"),
    ("TileLegality", TGEMV, "B.IOT n#1, mask=1111, last, ->m<4KB>\n",
     "B.IOT n#1, mask=1111\nB.IOT t#3, mask=1111\nB.IOT mask=1111, last, ->m<4KB>\n"),
    ("TileLegality", TGEMV, "B.DATR NORM, E5M2, Zero", "B.DATR NORM, E2M3, Zero"),
    ("TileLegality", TGEMV, "BSTART.TGEMVMX.BIAS E4M3", "BSTART.TGEMVMX.BIAS S8"),
    ("TileLegality", TGEMV, "B.DATR NORM, E5M2, Zero", "B.DATR NORM, E5M2, Null"),
    ("TileLegality", TGEMV, "B.FPATR 0, 0, 0, 0,", "B.FPATR 3, 0, 0, 0,"),
    ("TileLegality", TGEMV, "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0", "B.FPATR 0, 0, 0, 0, 0, 0, 0, 1, 0, 0"),
    ("TileLegality", TGEMV, "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0", "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 1"),
    ("TileLegality", TGEMV, "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0", "B.FPATR 0, 0, 0, 0, 0, 1, 0, 0, 0, 0"),
    ("TileLegality", TGEMV, "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0", "B.FPATR 0, 0, 0, 1, 0, 0, 0, 0, 0, 0"),
    ("TileLegality", TGEMV, "C.B.DIMI 32, ->lb1", "C.B.DIMI 2, ->lb0\nC.B.DIMI 32, ->lb1"),
    ("TileLegality", TGEMV, "C.B.DIMI 32, ->lb1", "C.B.DIMI 0, ->lb1"),
    ("TileLegality", TGEMV, "C.B.DIMI 32, ->lb1\n", "C.B.DIMI 32, ->lb1\nB.IOS S3, mask=1111\n"),
    ("TileLegality", TGEMV, "C.B.DIMI 32, ->lb1\n",
     "C.B.DIMI 32, ->lb1\nB.IOR [a0, zero, zero], ->zero\n"),
]  # fmt: skip


@pytest.mark.parametrize("kind,base,old,new", NEGATIVE)
def test_structural_rule(kind, base, old, new):
    assert fault(edit(base, old, new)).kind == kind


def test_stray_command_before_bstart():
    assert fault("B.DATR NORM, FP32, Zero\n" + TREM).kind == "BundleControl"
    assert fault("BSTOP\n").kind == "BundleControl"


def test_fifth_biot_is_tile_legality():
    """ASL AddBundleTileBinding: no free binding slot -> TileLegality."""
    text = edit(TREM, "B.IOT t#1, t#2, mask=1111, last, ->t<4KB>",
                "B.IOT t#1, mask=1111\n" * 4 + "B.IOT t#2, mask=1111, last, ->t<4KB>")  # fmt: skip
    assert fault(text).kind == "TileLegality"


def test_zero_mask_biot_is_not_counted():
    text = edit(TREM, "B.IOT t#1", "B.IOT t#9, mask=0000, last\nB.IOT t#1")
    assert block(text).sources == (0, 1)


def test_first_offending_command_wins():
    """Stream order: a duplicate B.DATR (BundleControl) before a reserved B.DIM (Illegal)."""
    text = edit(TREM, "C.B.DIMI 16, ->lb0",
                "B.DATR NORM, FP64, Zero\nB.DIM r25, 1, ->lb0")  # fmt: skip
    assert fault(text).kind == "BundleControl"


def test_a2a3_profile_rejects_mx_at_decode():
    """D15 + D12: on a2a3 the MX selectors do not decode, so IllegalInstruction comes before
    the missing-B.FPATR BundleControl and before the mask-0 no-op (decoding precedes both)."""
    assert fault(TGEMV, profile="a2a3").kind == "IllegalInstruction"
    no_fpatr = edit(TGEMV, "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\n", "")
    assert fault(no_fpatr, profile="a2a3").kind == "IllegalInstruction"
    assert fault(no_fpatr, profile="a5").kind == "BundleControl"
    masked = TGEMV.replace("mask=1111", "mask=0000")
    assert masked != TGEMV
    assert fault(masked, profile="a2a3").kind == "IllegalInstruction"


def test_cscale_allowed_for_fp32_acc_form():
    text = """
    BSTART.TMATMUL.ACC FP32
    B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
    B.IOT n#1, mask=1111
    B.IOT t#1, u#1, mask=1111
    B.IOT mask=1111, last, ->m<128B>
    BSTOP
    """
    assert block(text).fpatr.cscale_en == 1


def test_postprocess_streams_change_counts():
    """RowMaxEn adds a destination; vector quant adds a source; scalar quant uses B.IOR."""
    text = edit(TGEMV, "B.FPATR 0, 0, 0, 0,", "B.FPATR 0, 0, 0, 1,")
    assert fault(text).kind == "TileLegality"
    text = edit(text, "->m<4KB>\n", "->m<4KB>\nB.IOT mask=1111, last, ->t<128B>\n")
    assert fault(text).kind == "BundleControl"  # 'last' twice: second B.IOT after close
    text = edit(TGEMV, "B.FPATR 0, 0, 0, 0,", "B.FPATR 0, 0, 0, 1,")
    text = edit(text, "B.IOT n#1, mask=1111, last, ->m<4KB>",
                "B.IOT n#1, mask=1111, ->m<4KB>\nB.IOT mask=1111, last, ->t<128B>")  # fmt: skip
    s = block(text)
    assert s.destinations == ((2, 6), (0, 1))
    scalar = edit(TGEMV, "B.FPATR 0, 0, 0, 0,", "B.FPATR 27, 0, 0, 0,")
    scalar = edit(scalar, "C.B.DIMI 32, ->lb1\n", "C.B.DIMI 32, ->lb1\nB.IOR [a0], ->zero\n")
    assert block(scalar).scalars is not None


def test_trem_asl_type_set_d6_revised():
    """D6 revised: S64 is in TREM's set (AVS tile-bound-trem-zero-types-001)."""
    text = edit(TREM, "TREM, S32", "TREM, S64")
    assert block(text).a_type == T.S64
    assert block(text, trem_types=VEC_ARITH_TYPES).a_type == T.S64


def test_trem_datr_datatype_zero_is_accepted():
    """ASL TileOperationDATRFieldsLegal: encoded DataType 0 is the zero meaning for TREM and
    leaves the operation type at the BSTART DataType."""
    s = block(TREM)
    assert s.datr.dtype == 0 and s.b_type == T.S32


def test_check_block_is_for_one_block():
    with pytest.raises(PTOFault, match="second BSTART"):  # a fault, not API advice (issue 13)
        check_block(parse_program(TREM + TREM))
    with pytest.raises(TypeError):
        check_program([BStart.op("TREM", T.S32), "BSTOP"])  # type: ignore[list-item]


def test_pre_quant_mode_0_accepts_rmode_and_sat():
    """D11 revised, AVS TMATMUL-EXEC-001: PreQuantMode 0 with RMode 1 and Sat 1 is legal."""
    text = edit(TGEMV, "B.DATR NORM, E5M2, Zero", "B.DATR NORM, E5M2, Zero, RNE, SAT")
    assert block(text).datr.sat == 1


def test_block_profiles_are_the_target_profiles():
    """The pure-Python ISA layer spells the target profiles; they are TargetProfile's values."""
    from pto_dialect.isa.block import PROFILES
    from pto_dialect.targets import TargetProfile

    assert PROFILES == tuple(p.value for p in TargetProfile)
