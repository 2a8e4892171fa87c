"""Readable block IR: commands print with the assembly's mnemonics and names (PTO-SPEC 1, 3, 7).

``pto.b.start TREM, S32``; B.DATR layouts, types, pads, compare and rounding modes by name;
GPRs, tiles, hands, masks and sizes by their assembly spelling; reserved values as numbers.
Every command (legal or raw, reserved values included) round-trips exactly in the custom
and the generic form, and the numeric form stays accepted on input.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from pto_dialect import isa
from pto_dialect.block_ops import BlockOp
from pto_dialect.dialect import PTO
from pto_dialect.isa import field_names
from pto_dialect.isa.commands import CUBE_FUNCTIONS, TEPL_OPS, TLSU_FUNCTIONS, BlockFamily

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "isa"))
from isa_strategies import commands  # noqa: E402


def _ctx() -> Context:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(PTO)
    return ctx


def _text(op, generic: bool = False) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(op)
    return out.getvalue()


def _block(cmds) -> ModuleOp:
    return ModuleOp([BlockOp(list(cmds))])


def _body(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip().startswith("pto.b.")]


def test_start_prints_the_mnemonic_of_every_live_operation():
    rows = [(BlockFamily.CUBE, f.code, 0, f.mnemonic) for f in CUBE_FUNCTIONS.values()]
    rows += [(BlockFamily.TLSU, f.code, 0, f.mnemonic) for f in TLSU_FUNCTIONS.values()]
    rows += [(BlockFamily.TEPL, fn, mode, op.name) for (mode, fn), op in TEPL_OPS.items()]
    assert len(rows) == 12 + 15 + 87  # TLSU includes TSTORE.SPART (14) and the Shared TMOVs (9-12)
    for family, fn, mode, mnemonic in rows:
        m = _block([isa.BStart(family, fn, 17, mode), isa.BStop()])
        assert _body(_text(m))[0] == f"pto.b.start {mnemonic}, S32"


def test_names_in_the_fields():
    cmds = [
        isa.BStart.op("TREM", 17),
        isa.BDatr(layout=22, dtype=31, pad=3, cmode=2, rmode=1),
        isa.BDim(1, 2, 64),
        isa.BIot(0, 17, 1, 6, 7, 2),
        isa.BIor(2, 3, 0, 0),
        isa.BIos(5, 12, 1),
        isa.BStop(),
    ]
    assert _body(_text(_block(cmds))) == [
        "pto.b.start TREM, S32",
        "pto.b.datr <layout = ND2M16, dtype = DTYPE_NONE, pad = Null, cmode = LT, rmode = RNE, "
        "sat = 0, canonicalize = 0>",
        "pto.b.dim <lb = 1, reg = a0, imm = 64>",
        'pto.b.iot <src0 = "t#1", src1 = "u#2", last = 1, size_code = "4KB", '
        'pe_mode = "1111", dst_hand = m>',
        "pto.b.ior <src0 = a0, src1 = a1, src2 = zero, dst = zero>",
        'pto.b.ios <tid = 5, size_code = "256KB", pe_mode = "1000">',
        "pto.b.stop",
    ]


def test_reserved_values_stay_numbers():
    cmds = [isa.BStart(BlockFamily.TEPL, 5, 15, 0), isa.BDatr(layout=2, cmode=7),
            isa.BIor(30, 0, 0, 0), isa.BStop()]
    assert _body(_text(_block(cmds)))[:3] == [
        "pto.b.start <family = TEPL, function = 5, dtype = 15, mode = 0>",
        "pto.b.datr <layout = 2, dtype = DTYPE_NONE, pad = Zero, cmode = 7, rmode = RNONE, "
        "sat = 0, canonicalize = 0>",
        "pto.b.ior <src0 = 30, src1 = zero, src2 = zero, dst = zero>",
    ]


@settings(max_examples=60, deadline=None)
@given(cmd=commands(raw=True))
def test_every_command_round_trips_custom_and_generic(cmd):
    m = _block([cmd])
    for generic in (False, True):
        text = _text(m, generic)
        again = Parser(_ctx(), text).parse_module()
        assert _text(again, generic) == text
        assert again.body.block.first_op.commands() == [cmd]


def test_fieldless_start_round_trips():
    m = Parser(_ctx(), "pto.block {\n pto.b.start <>\n pto.b.start <mode = 1>\n}").parse_module()
    assert _body(_text(m)) == ["pto.b.start <>", "pto.b.start <mode = 1>"]


def test_numeric_and_alias_input_is_accepted():
    numeric = """pto.block {
      pto.b.start <family = TEPL, function = 4, dtype = 17, mode = 0>
      pto.b.datr <layout = 22, dtype = 31, pad = 0, cmode = 0, rmode = 0, sat = 0, canonicalize = 0>
      pto.b.iot <src0 = 0, src1 = 17, last = 1, size_code = 6, pe_mode = 7, dst_hand = 2>
      pto.b.stop
    }"""
    named = """pto.block {
      pto.b.start trem, s32
      pto.b.datr <layout = nd2m16, dtype = DTYPE_NONE, pad = zero, cmode = EQ, rmode = RNONE, sat = 0, canonicalize = 0>
      pto.b.iot <src0 = "t#1", src1 = "u#2", last = 1, size_code = "4KB", pe_mode = "1111", dst_hand = m>
      pto.b.stop
    }"""
    a, b = (Parser(_ctx(), t).parse_module() for t in (numeric, named))
    assert _text(a) == _text(b)
    cube = Parser(_ctx(), "pto.block {\n pto.b.start TGEMV_MX_BIAS, E4M3\n pto.b.stop\n}")
    assert "pto.b.start TGEMVMX.BIAS, E4M3" in _text(cube.parse_module())


@pytest.mark.parametrize("text, msg", [
    ("pto.b.start TFOO, S32", "unknown operation 'TFOO'"),
    ("pto.b.start TREM, S33", "'S33' is not a value of field 'dtype'"),
    ("pto.b.datr <layout = ND2XX>", "'ND2XX' is not a value of field 'layout' (one of NORM"),
    ('pto.b.iot <src0 = "t#17">', "'t#17' is not a value of field 'src0'"),
    ("pto.b.dim <lb = 0, reg = q9, imm = 1>", "'q9' is not a value of field 'reg'"),
])
def test_bad_names_are_parse_errors(text, msg):
    with pytest.raises(ParseError, match=msg.replace("(", r"\(")):
        Parser(_ctx(), f"pto.block {{\n {text}\n pto.b.stop\n}}").parse_module()


def test_tables_are_consistent_with_the_assembler():
    # the same spellings as the assembly printer, so IR and .pto.s read alike
    from pto_dialect.isa.asm import dtype_text, gpr_text, size_text

    for code, name in field_names.FIELD_VALUES[(isa.BDatr, "dtype")].items():
        assert dtype_text(code) == name
    for code, name in field_names.FIELD_VALUES[(isa.BIor, "src0")].items():
        assert gpr_text(code) == name
    for code, name in field_names.FIELD_VALUES[(isa.BIos, "size_code")].items():
        assert size_text(code) == name
