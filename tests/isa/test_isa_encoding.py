"""Encoder/decoder of PTO block commands (PTO-SPEC 3; D11: B.FPATR bits 10:9 reserved).

Reference values are independent of the form table: the spec's word examples (PTO-SPEC 3.1,
3.3, 3.4), words produced by the public LinxISA assembler for the v0.58 PTO ISA
(llvm/test/MC/LinxISA/v058-pto-common-roundtrip.s and friends; re-derived by hand), and a
reference encoder below written with explicit shifts per command.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from isa_strategies import commands

from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from pto_dialect.isa import (
    FORMS,
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
    CBStart,
    CBStop,
    EncodeError,
    decode,
    decode_hex,
    decode_program,
    encode,
    encode_hex,
    encode_program,
    program_to_bytes,
    read_hex,
    split_bytes,
    width_of,
)
from pto_dialect.isa.errors import AsmSyntaxError

# -- spec examples ------------------------------------------------------------------------------


def test_spec_word_examples():
    """PTO-SPEC 3.1/3.3/3.4 example words."""
    assert encode(BStart.op("TGEMV_MX_BIAS", T.FP16)) == 0x21531181
    assert encode(BStart.op("TGEMV_MX_BIAS", T.E4M3)) == 0x39531181
    assert encode(BStart(BlockFamily.CUBE, 21, 0)) == 0x01531181
    assert encode(BStart.op("TREM", T.S32)) == 0x88419181
    assert encode(BStop()) == 0x00000001
    assert encode(CBStop()) == 0x0000 and width_of(CBStop()) == 16
    assert encode(BFpatr()) == 0x00002023
    assert decode(0x00002023) == BFpatr()
    assert decode(0x88419181) == BStart(BlockFamily.TEPL, 4, int(T.S32), 0)
    assert decode(0x0000, 16) == CBStop()


def test_dim_forms():
    """B.DIM LB0/1/2 = 0x43/0x1043/0x2043; uimm17 = {inst[11:7] -> 16:12, inst[31:20] -> 11:0}."""
    assert encode(BDim(0, 0, 0)) == 0x43
    assert encode(BDim(1, 0, 0)) == 0x1043
    assert encode(BDim(2, 0, 0)) == 0x2043
    assert encode(BDim(0, 0, 0x1F000)) == 0x43 | 0x1F << 7
    assert encode(BDim(0, 0, 0xFFF)) == 0x43 | 0xFFF << 20
    assert encode(BDim(1, 2, 64)) == 0x1043 | 2 << 15 | 64 << 20


# (assembly text in the LinxISA v0.58 assembler, word) - public assembler output
LINX_VECTORS = [
    (BStart.op("TADD", T.FP16), 0x20019181),
    (BStart.op("TEXP", T.FP16), 0x21219181),
    (BStart.op("TFMA", T.FP16), 0x21C19181),
    (BStart(BlockFamily.CUBE, 5, int(T.TF32)), 0x10531181),  # BSTART.TMATMULMX.BIAS TF32
    (BIor(0, 1, 2, 23), 0x10100B93),  # B.IOR [zero, sp, a0], ->x3
    (BIos(1, 0, 1), 0x00101213),  # B.IOS S1, mask=1000
    (BIos(255, 12, 7), 0x0FF61E13),  # B.IOS mask=1111, ->S255<256KB>
    (BIot(0, None, 1, 1, 5, 1), 0x0008DA93),  # B.IOT t#1, mask=1100, last, ->u<128B>
    (BIot(0, 17, 0, 0, 7, None), 0x44004E13),  # B.IOT t#1, u#2, mask=1111
    (BIot(None, None, 1, 7, 5, 3), 0x000BEB93),  # B.IOT mask=1100, last, ->n<8KB>
    (BIot(None, None, 1, 1, 5, 0), 0x0008EA13),  # B.IOT mask=1100, last, ->t<128B>
    (BDatr(0, 31, 0), 0x01F01023),  # B.DATR NORM, DTYPE_NONE, Zero
    (BDatr(21, 31, 1), 0x09F01AA3),  # B.DATR ND2M32, DTYPE_NONE, Max
    (BDatr(26, 31, 2), 0x11F01D23),  # B.DATR N82ND, DTYPE_NONE, Min
    (BDatr(30, 31, 3), 0x19F01F23),  # B.DATR NZ2ZN, DTYPE_NONE, Null
]


@pytest.mark.parametrize("cmd,word", LINX_VECTORS)
def test_public_assembler_words(cmd, word):
    assert encode(cmd) == word
    assert decode(word) == cmd


# -- independent reference encoder ---------------------------------------------------------------

_LOW = {BlockFamily.CUBE: 0x31181, BlockFamily.TLSU: 0x11181, BlockFamily.TEPL: 0x19181}


def ref_encode(c) -> int:
    """Explicit-shift encoder, written per command from PTO-SPEC 3 (not from forms.py)."""
    if isinstance(c, BStart):
        return c.dtype << 27 | c.mode << 25 | c.function << 20 | _LOW[c.family]
    if isinstance(c, BDatr):
        return (c.cmode << 29 | c.pad << 27 | c.sat << 26 | c.canonicalize << 25
                | c.dtype << 20 | c.rmode << 15 | c.layout << 7 | 0x1023)  # fmt: skip
    if isinstance(c, BFpatr):
        return (c.pre_quant_mode << 26 | c.relu_mode << 23 | c.group_n_code << 19
                | c.row_max_en << 18 | c.group_max_en << 17 | c.row_max_init << 16
                | c.max_abs_en << 15 | 2 << 12 | c.trans_b << 8
                | c.trans_a << 7 | 0x23)  # fmt: skip
    if isinstance(c, BDim):
        return ((c.imm & 0xFFF) << 20 | c.reg << 15 | c.lb << 12 | (c.imm >> 12) << 7
                | 0x43)  # fmt: skip
    if isinstance(c, CBDimi):
        return c.lb << 14 | c.imm << 6 | 0x3C
    if isinstance(c, BIot):
        if c.src1 is not None:
            f3 = 4
        elif c.src0 is not None:
            f3 = 5
        else:
            f3 = 6
        return ((c.src1 or 0) << 26 | (c.src0 or 0) << 20 | c.last << 19 | c.size_code << 15
                | f3 << 12 | c.pe_mode << 9 | (c.dst_hand or 0) << 7 | 0x13)  # fmt: skip
    if isinstance(c, BIor):
        return c.src2 << 27 | c.src1 << 20 | c.src0 << 15 | c.dst << 7 | 0x13
    if isinstance(c, BIos):
        return c.tid << 20 | c.size_code << 15 | 1 << 12 | c.pe_mode << 9 | 0x13
    if isinstance(c, BStop):
        return 1
    if isinstance(c, CBStop):
        return 0
    raise TypeError(c)


@settings(max_examples=400)
@given(commands(raw=True))
def test_encode_matches_reference_and_round_trips(cmd):
    """decode(encode(x)) == x for every field value of every form (reserved values too)."""
    word = encode(cmd)
    assert word == ref_encode(cmd)
    assert decode(word, width_of(cmd)) == cmd


@settings(max_examples=300)
@given(st.sampled_from(FORMS), st.integers(0, (1 << 32) - 1))
def test_decoded_words_re_encode_to_themselves(form, noise):
    """Every word that decodes re-encodes to itself (bin -> cmd -> bin identity)."""
    full = (1 << form.width) - 1
    word = (noise & full & ~form.mask) | form.match
    try:
        cmd = decode(word, form.width)
    except PTOFault as e:
        assert e.kind == "IllegalInstruction"
        assert word & form.reserved_bits
        return
    assert encode(cmd) == word


def test_unknown_words_are_illegal():
    for word in (0xFFFFFFFF, 0x00000003, 0x00004001, 0x00039181):  # 0x4001: deleted bare CALL
        with pytest.raises(PTOFault) as e:
            decode(word)
        assert e.value.kind == "IllegalInstruction"
    for word in (0x0001, 0x0006, 0x0008, 0x003D):  # no 16-bit form (bit 0 set, low nibble)
        with pytest.raises(PTOFault):
            decode(word, 16)
    assert decode(0x0002, 16) == CBStart(0, 0)  # C.BSTART DIRECT (a scalar-block start)


def test_source_only_biot_with_dst_bits_is_not_source_only():
    """Bits 8:7 of a source-only B.IOT are not a field of that form: the word decodes as the
    destination form with SizeCode 0, which check_reserved reports."""
    cmd = decode(0x44004E13 | 2 << 7)
    assert cmd == BIot(0, 17, 0, 0, 7, 2)
    with pytest.raises(PTOFault):
        decode(0x44004E13 | 2 << 7, strict=True)


@pytest.mark.parametrize(
    "cmd",
    [
        BDim(0, 32, 0),  # RegSrc does not fit 5 bits
        BDim(0, 0, 1 << 17),
        CBDimi(0, 256),
        BDatr(dtype=32),
        BFpatr(pre_quant_mode=64),
        BFpatr(cscale_en=2),
        BIot(64, None, 1, 1, 7, 0),
        BIot(0, None, 0, 0, 8, None),
        BIos(256),
        BStart(BlockFamily.CUBE, 32, 4),
        BStart(BlockFamily.CUBE, 21, 4, mode=1),  # CUBE bits 26:25 are fixed zero
        BIot(0, None, 0, 3, 7, None),  # source-only form fixes SizeCode 0
        BIot(None, 0, 1, 1, 7, 0),  # SrcTile1 without SrcTile0
        BIot(None, None, 1, 0, 7, None),  # nothing to bind
        BIot(0, None, 1, 0, 7, 0),  # ->t with SizeCode 0 is the source-only word
        BDim(1, -1, 0),
        BDim(1, 0, "3"),
    ],
)
def test_encoder_refuses(cmd):
    with pytest.raises(EncodeError):
        encode(cmd)


RESERVED = [
    BStart(BlockFamily.CUBE, 8, int(T.FP16)),  # ACCCVT deleted
    BStart(BlockFamily.CUBE, 3, int(T.FP16)),
    BStart(BlockFamily.CUBE, 19, int(T.FP16)),
    BStart(BlockFamily.CUBE, 31, int(T.FP16)),
    BStart(BlockFamily.CUBE, 21, 15),
    BStart(BlockFamily.CUBE, 21, 31),  # DTYPE_NONE is not a BSTART type
    BStart(BlockFamily.TEPL, 5, int(T.FP16), 0),  # selector hole 0x005
    BStart(BlockFamily.TEPL, 24, int(T.FP16), 0),
    BStart(BlockFamily.TEPL, 30, int(T.FP16), 3),
    BStart(BlockFamily.TLSU, 15, int(T.FP16)),
    BDatr(dtype=21),
    BDatr(dtype=29),
    BDatr(cmode=6),
    BDatr(cmode=7),
    BDatr(layout=2),
    BDatr(layout=31),
    BFpatr(pre_quant_mode=6),
    BFpatr(pre_quant_mode=40),
    BFpatr(relu_mode=4),
    BFpatr(group_n_code=10),
    BDim(0, 24, 1),
    BDim(2, 31, 1),
    CBDimi(3, 1),
    BIot(0, None, 1, 11, 7, 0),
    BIot(0, None, 1, 0, 7, 1),
    BIor(24, 0, 0, 0),
    BIor(0, 0, 0, 31),
    BIos(3, 13, 7),
]


@pytest.mark.parametrize("cmd", RESERVED)
def test_reserved_values_decode_but_fault_when_strict(cmd):
    """Reserved values decode into the command; strict decode -> IllegalInstruction (D12)."""
    word = encode(cmd)
    assert decode(word, width_of(cmd)) == cmd
    with pytest.raises(PTOFault) as e:
        decode(word, width_of(cmd), strict=True)
    assert e.value.kind == "IllegalInstruction"


def test_live_selectors_decode_strictly():
    assert decode(0x88419181, strict=True).op_name == "TREM"
    for fn in (0, 1, 2, 4, 5, 6, 16, 17, 18, 20, 21, 22):
        assert decode(encode(BStart(BlockFamily.CUBE, fn, 4)), strict=True).cube is not None


# -- streams --------------------------------------------------------------------------------------


@settings(max_examples=100)
@given(st.lists(commands(raw=True), max_size=20))
def test_program_streams_round_trip(cmds):
    words = encode_program(cmds)
    assert decode_program(words) == cmds
    assert split_bytes(program_to_bytes(words)) == words
    hex_text = encode_hex(cmds)
    assert read_hex(hex_text) == words
    assert decode_hex(hex_text) == cmds


def test_hex_format():
    text = encode_hex([BStart.op("TREM", T.S32), CBDimi(0, 16), BStop(), CBStop()])
    assert text == "0x88419181\n0x043C\n0x00000001\n0x0000\n"
    assert decode_program([0x88419181, (16, 0x043C)]) == [BStart.op("TREM", T.S32), CBDimi(0, 16)]
    assert program_to_bytes([(32, 0x88419181), (16, 0)]) == bytes.fromhex("819141880000")


def test_hex_reader_errors_carry_line_numbers():
    with pytest.raises(AsmSyntaxError) as e:
        read_hex("0x00000001\n# comment\n0x123\n")
    assert e.value.line == 3
    with pytest.raises(PTOFault) as f:
        decode_hex("0x00000001\n\n0xFFFFFFFF\n")
    assert f.value.kind == "IllegalInstruction" and "line 3" in str(f.value)


def test_truncated_byte_stream():
    with pytest.raises(ValueError):
        split_bytes(bytes.fromhex("819141"))


def test_isa_layer_is_pure_python():
    """The ISA layer must not import xDSL (nor numpy) so every layer can use it."""
    import subprocess
    import sys

    code = "import sys, pto_dialect.isa; assert 'xdsl' not in sys.modules, 'xdsl imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


# -- D11 (revised): B.FPATR bits 10:9 are reserved ---------------------------------------------


@pytest.mark.parametrize("bit", [9, 10])
def test_fpatr_reserved_bits_decode_as_illegal_instruction(bit):
    """AVS B-FPATR-TRANSPOSE-RSVD-012 / D11: a B.FPATR word with bit 9 or 10 set is not a
    command (IllegalInstruction), also with every other field zero."""
    with pytest.raises(PTOFault) as e:
        decode(0x00002023 | 1 << bit)
    assert e.value.kind == "IllegalInstruction"


def test_cscale_en_has_no_binary_encoding():
    """D11: CScaleEn = 1 exists in the IR and assembly but `encode` refuses it clearly."""
    with pytest.raises(EncodeError, match="CScaleEn=1 has no binary encoding"):
        encode(BFpatr(cscale_en=1))
    assert encode(BFpatr()) == 0x00002023


@pytest.mark.parametrize("word", [(64, 0x00000001_0000000F), (32, 0x50160002)])
def test_words_without_a_bit0_length_are_refused_in_byte_streams(word):
    """L.BSTOP and the fused BSTART.CALL cannot be split by bit 0: no byte stream for them."""
    with pytest.raises(ValueError, match="cannot be put in a byte stream"):
        program_to_bytes([word])
