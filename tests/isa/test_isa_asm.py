"""Block assembly printer/parser (PTO-SPEC 7)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from isa_strategies import commands

from pto_dialect.datatypes import TileDataType as T
from pto_dialect.isa import (
    AsmSyntaxError,
    BDatr,
    BDim,
    BFpatr,
    BIor,
    BIos,
    BIot,
    BlockFamily,
    BStart,
    BStop,
    CBDimi,
    CBStop,
    decode_hex,
    encode_hex,
    parse_command,
    parse_program,
    print_command,
    print_program,
)

# canonical text -> command (PTO-SPEC 7 examples and their decoded meaning)
CANONICAL = [
    ("BSTART.TGEMVMX.BIAS FP16", BStart(BlockFamily.CUBE, 21, int(T.FP16))),
    ("BSTART.TGEMVMX.BIAS E4M3", BStart(BlockFamily.CUBE, 21, int(T.E4M3))),
    ("BSTART.SFU TREM, S32", BStart(BlockFamily.TEPL, 4, int(T.S32), 0)),
    ("BSTART.VEC TADD, FP16", BStart(BlockFamily.TEPL, 0, int(T.FP16), 0)),
    ("BSTART.TMATMUL HiF8", BStart(BlockFamily.CUBE, 0, int(T.HIF8))),
    ("BSTART.TLOAD FP32", BStart(BlockFamily.TLSU, 0, int(T.FP32))),
    ("BSTART.MGATHER.MASK U8", BStart(BlockFamily.TLSU, 6, int(T.U8))),
    ("BSTART.CUBE 8, FP16", BStart(BlockFamily.CUBE, 8, int(T.FP16))),
    ("BSTART.TEPL 0, 5, FP16", BStart(BlockFamily.TEPL, 5, int(T.FP16), 0)),
    ("BSTART.TLOAD 15", BStart(BlockFamily.TLSU, 0, 15)),
    ("B.DATR NORM, FP32, Zero", BDatr(0, int(T.FP32), 0)),
    ("B.DATR NORM, DTYPE_NONE, Null", BDatr(0, 31, 3)),
    ("B.DATR ND2M32, DTYPE_NONE, Max", BDatr(21, 31, 1)),
    ("B.DATR NORM, FP32, Zero, GT, RTZ, SAT, CANON", BDatr(0, 1, 0, 3, 2, 1, 1)),
    ("B.DATR Layout2, FP32, Zero, CMODE7", BDatr(2, 1, 0, 7)),
    ("B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0", BFpatr()),
    ("B.FPATR 26, 1, 2, 1, 1, 1, 1, 0, 0, 1", BFpatr(26, 1, 2, 1, 1, 1, 1, 0, 0, 1)),
    ("C.B.DIMI 64, ->lb2", CBDimi(2, 64)),
    ("B.DIM a0, 64, ->lb1", BDim(1, 2, 64)),
    ("B.DIM zero, 131071, ->lb0", BDim(0, 0, 131071)),
    ("B.IOT t#1, u#1, mask=1111", BIot(0, 16, 0, 0, 7, None)),
    ("B.IOT m#1, mask=1111, last, ->m<4KB>", BIot(32, None, 1, 6, 7, 2)),
    ("B.IOT mask=1111, last, ->t<128B>", BIot(None, None, 1, 1, 7, 0)),
    ("B.IOT n#16, t#2, mask=1100, ->u<64KB>", BIot(63, 1, 0, 10, 5, 1)),
    ("B.IOT t#1, mask=1000", BIot(0, None, 0, 0, 1, None)),
    ("B.IOR [a0, zero, zero], ->zero", BIor(2, 0, 0, 0)),
    ("B.IOR [zero, sp, a0], ->x3", BIor(0, 1, 2, 23)),
    ("B.IOR [r24, zero, zero], ->zero", BIor(24, 0, 0, 0)),
    ("B.IOS S1, mask=1000", BIos(1, 0, 1)),
    ("B.IOS mask=1111, ->S255<256KB>", BIos(255, 12, 7)),
    ("BSTOP", BStop()),
    ("C.BSTOP", CBStop()),
]


@pytest.mark.parametrize("text,cmd", CANONICAL)
def test_canonical_text(text, cmd):
    assert parse_command(text) == cmd
    assert print_command(cmd) == text


ALTERNATIVES = [
    ("BSTART.CUBE TGEMVMX.BIAS, FP16", "BSTART.TGEMVMX.BIAS FP16"),
    ("BSTART.CUBE TGEMV_MX_BIAS, FP16", "BSTART.TGEMVMX.BIAS FP16"),
    ("bstart.cube 21, fp16", "BSTART.TGEMVMX.BIAS FP16"),
    ("BSTART.TEPL 0, 4, S32", "BSTART.SFU TREM, S32"),
    ("BSTART.TEPL 3, 14, E2M1X2", "BSTART.SFU TTRANS, E2M1X2"),
    ("BSTART.TEPL 2, 29, U4X2", "BSTART.SFU TCOLARGMIN, U4X2"),
    ("BSTART.TMATMUL HIF8", "BSTART.TMATMUL HiF8"),
    ("BSTART.TGEMVMX FP8E4M3", "BSTART.TGEMVMX E4M3"),
    ("BSTART.TLSU TLOAD, FP32", "BSTART.TLOAD FP32"),
    ("B.DATR {NORM, FP32, Zero, None, RNE, 0, 0}", "B.DATR NORM, FP32, Zero, RNE"),
    ("B.DATR {ND2M16, DTYPE_NONE, Null, None, Default, 0, 0}", "B.DATR ND2M16, DTYPE_NONE, Null"),
    ("B.DATR NORM, FP16, byte2, RNONE, NOSAT", "B.DATR NORM, FP16, Min"),
    ("B.DATR Layout21, DTYPE_NONE, Null", "B.DATR ND2M32, DTYPE_NONE, Null"),
    ("B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0", "B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0"),
    ("C.B.DIMI 0x40, ->LB2", "C.B.DIMI 64, ->lb2"),
    ("B.IOT T#1, U#1, MASK=1111", "B.IOT t#1, u#1, mask=1111"),
    ("B.IOT mask=1111, ->T<4KiB>, last", "B.IOT mask=1111, last, ->t<4KB>"),
    ("B.IOR [a1,zero],[]", "B.IOR [a1, zero, zero], ->zero"),
    ("B.IOR [a1]", "B.IOR [a1, zero, zero], ->zero"),
    ("  BSTOP  ", "BSTOP"),
]


@pytest.mark.parametrize("text,canonical", ALTERNATIVES)
def test_accepted_input_spellings(text, canonical):
    assert print_command(parse_command(text)) == canonical


@settings(max_examples=300)
@given(commands(raw=False))
def test_print_parse_round_trip_legal(cmd):
    assert parse_command(print_command(cmd)) == cmd


@settings(max_examples=300)
@given(commands(raw=True))
def test_print_parse_round_trip_any_encodable(cmd):
    """Reserved values decoded from a binary print and parse back unchanged."""
    assert parse_command(print_command(cmd)) == cmd


@settings(max_examples=60)
@given(st.lists(commands(raw=True), max_size=15))
def test_program_identities(cmds):
    """asm -> cmds -> asm and bin -> cmds -> bin are identities on canonical text."""
    text = print_program(cmds)
    assert parse_program(text) == cmds
    assert print_program(parse_program(text)) == text
    hex_text = encode_hex(cmds)
    assert encode_hex(decode_hex(hex_text)) == hex_text


def test_program_comments_and_separators():
    text = """
    # a TREM block (PTO-SPEC 5)
    BSTART.SFU TREM, S32   // dividend % divisor
    B.DATR NORM, DTYPE_NONE, Zero
    C.B.DIMI 16, ->lb0 ; B.IOT t#1, t#2, mask=1111, last, ->t<4KB>  # t#3 is the result
    BSTOP
    """
    cmds = parse_program(text)
    assert [c.mnemonic for c in cmds] == ["BSTART", "B.DATR", "C.B.DIMI", "B.IOT", "BSTOP"]
    assert cmds[3] == BIot(0, 1, 1, 6, 7, 0)


@pytest.mark.parametrize(
    "text,line,fragment",
    [
        ("BSTOP\nB.IOT t#1, mask=0110\n", 2, "not encodable"),
        ("BSTOP\n\nFOO 1\n", 3, "unknown block command"),
        ("B.IOT t#17, mask=1111", 1, "out of range"),
        ("B.IOT t#1, u#1, m#1, mask=1111", 1, "at most 2 sources"),
        ("B.IOT t#1", 1, "needs mask"),
        ("B.IOT mask=1111, ->x<128B>", 1, "bad destination"),
        ("B.IOT mask=1111, ->t<100B>", 1, "not 128 B"),
        ("B.IOT mask=1111, ->t<128B>, ->u<128B>", 1, "at most one destination"),
        ("BSTART.VEC TREM, S32", 1, "executes on SFU"),
        ("BSTART.SFU TFMOD, S32", 1, "unknown tile operation"),
        ("BSTART.TGEMVMX.BIAS FP17", 1, "unknown data type"),
        ("BSTART.FOO FP16", 1, "unknown BSTART"),
        ("BSTART.TEPL 4, 0, FP16", 1, "does not fit"),
        ("B.DATR NORM, FP32", 1, "B.DATR takes"),
        ("B.DATR NORM, FP32, Zero, cmode8", 1, "unknown B.DATR attribute"),
        ("B.DATR NORM, FP32, Zero, RNE, RTZ", 1, "given twice"),
        ("B.DATR NORM, FP32, Bogus", 1, "unknown pad"),
        ("B.FPATR 0, 0, 0", 1, "takes 9 or 10"),
        ("B.FPATR 64, 0, 0, 0, 0, 0, 0, 0, 0, 0", 1, "does not fit"),
        ("B.DIM a0, 64, ->lb3", 1, "only ->lb0"),
        ("B.DIM q9, 64, ->lb1", 1, "unknown register"),
        ("C.B.DIMI 256, ->lb0", 1, "does not fit"),
        ("C.B.DIMI -1, ->lb0", 1, "unsigned integer"),
        ("B.IOR [a0, a1, a2, a3], ->zero", 1, "at most 3"),
        ("B.IOR [a0, zero", 1, "unclosed"),
        ("B.IOT t#1,, mask=1111", 1, "empty operand"),
        ("BSTOP 1", 1, "takes 0"),
        ("B.IOS S256, mask=1111", 1, "out of range"),
        ("C.BSTART DIRECT, 2048", 1, "outside -2048..2047"),
        ("C.BSTART JUMP, 1", 1, "expected DIRECT or COND"),
        ("C.BSTART COND, x", 1, "signed simm12"),
        ("C.BSTART.SYS IND", 1, "only the form"),
        ("C.BSTART.FP CALL", 1, "expected FALL, IND, RET"),
        ("B.CATR {trap, bogus}", 1, "unknown attribute"),
        ("B.CATR {far, far}", 1, "given twice"),
        ("L.BSTOP 1", 1, "takes 0"),
        ("BSTART.STD DIRECT", 1, "takes a signed simm17"),
        ("BSTART.FP JUMP", 1, "expected FALL, DIRECT, COND, IND, RET"),
        ("BSTART COND, 16777216", 1, "outside -16777216..16777215"),
        ("BSTART.CALL 1, 32, ->ra", 1, "does not fit"),
        ("BSTART.ICALL 1, ->a0", 1, "'->ra'"),
    ],
)
def test_syntax_errors_have_line_numbers(text, line, fragment):
    with pytest.raises(AsmSyntaxError) as e:
        parse_program(text)
    assert e.value.line == line
    assert fragment in str(e.value)
    assert isinstance(e.value, ValueError)


def test_error_column_points_at_operand():
    with pytest.raises(AsmSyntaxError) as e:
        parse_program("  B.IOT t#1, mask=0110")
    assert e.value.col == 14


@settings(max_examples=300)
@given(st.text(alphabet="BSTARTIODMFPC.#tumn0123456789,<>[]{}->=KB lbmask\n;", max_size=60))
def test_parser_never_raises_anything_else(text):
    try:
        parse_program(text)
    except AsmSyntaxError:
        pass


@pytest.mark.parametrize(
    "text",
    ["C.BSTART DIRECT, -2048", "C.BSTART COND, 2047", "C.BSTART.STD IND", "C.BSTART.FP RET",
     "C.BSTART.SYS FALL", "C.BSTART.STD BRTYPE6", "B.CATR {}", "B.CATR {trap, atomic, aq, far}",
     "L.BSTOP", "BSTART.STD DIRECT, -65536", "BSTART.FP COND, 65535", "BSTART.STD IND",
     "BSTART.FP RET", "BSTART.SYS FALL", "BSTART DIRECT, 8", "BSTART COND, -16777216",
     "BSTART.CALL -1, 3, ->ra", "BSTART.ICALL 31, ->ra", "XB 1023, 127"],
)  # fmt: skip
def test_block_control_forms_round_trip(text):
    """asm -> command -> word -> command -> asm is the identity on the new canonical forms."""
    from pto_dialect.isa import decode, encode, width_of

    cmd = parse_program(text)[0]
    assert print_command(cmd) == text
    assert decode(encode(cmd), width_of(cmd)) == cmd
