"""The TileDataType table against PTO-SPEC 1, written out by hand from the spec text.

Every expectation below is copied from PTO-SPEC 1 (codes, widths, classes, packed X2 flags,
accumulator rule, MX input set) and DECISIONS D2/D6, never recomputed from the table under test.
"""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.parser import Parser

from pto_dialect.attributes import TileType, element_type, tile_dtype_of
from pto_dialect.datatypes import (
    DTYPE_NONE,
    MX_INPUT_TYPES,
    RESERVED_CODES,
    TREM_TYPES,
    TileDataType,
    TypeClass,
    mx_needs_scale,
)
from pto_dialect.dialect import PTO

F, S, U = "float", "signed", "unsigned"

# code, asm name, bits, class, packed x2, IR spelling (PTO-SPEC 1)
SPEC_TABLE = [
    (0, "FP64", 64, F, False, "f64"),
    (1, "FP32", 32, F, False, "f32"),
    (2, "TF32", 32, F, False, "tf32"),
    (3, "HF32", 32, F, False, "!pto.hf32"),
    (4, "FP16", 16, F, False, "f16"),
    (5, "BF16", 16, F, False, "bf16"),
    (6, "HiF8", 8, F, False, "!pto.hif8"),
    (7, "E4M3", 8, F, False, "f8E4M3FN"),
    (8, "E5M2", 8, F, False, "f8E5M2"),
    (9, "E3M2", 6, F, False, "f6E3M2FN"),
    (10, "E2M3", 6, F, False, "f6E2M3FN"),
    (11, "E2M1X2", 4, F, True, "f4E2M1FN"),
    (12, "E1M2X2", 4, F, True, "!pto.e1m2x2"),
    (13, "E8M0", 8, F, False, "f8E8M0FNU"),
    (14, "HiF4X2", 4, F, True, "!pto.hif4x2"),
    (16, "S64", 64, S, False, "si64"),
    (17, "S32", 32, S, False, "si32"),
    (18, "S16", 16, S, False, "si16"),
    (19, "S8", 8, S, False, "si8"),
    (20, "S4X2", 4, S, True, "si4"),
    (24, "U64", 64, U, False, "ui64"),
    (25, "U32", 32, U, False, "ui32"),
    (26, "U16", 16, U, False, "ui16"),
    (27, "U8", 8, U, False, "ui8"),
    (28, "U4X2", 4, U, True, "ui4"),
]


def _ctx() -> Context:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(PTO)
    return ctx


def test_twenty_five_types_and_no_others():
    """PTO-SPEC 1: exactly 25 TileDataTypes."""
    assert len(TileDataType) == 25
    assert sorted(t.value for t in TileDataType) == [row[0] for row in SPEC_TABLE]


@pytest.mark.parametrize("code, asm, bits, klass, x2, ir", SPEC_TABLE, ids=[r[1] for r in SPEC_TABLE])
def test_row_matches_spec(code, asm, bits, klass, x2, ir):
    """PTO-SPEC 1: code, width, numeric class, packing and IR spelling of each type."""
    t = TileDataType.from_code(code)
    assert t.name == asm.upper() and t.asm.upper() == asm.upper()
    assert t.bits == bits
    assert t.klass is TypeClass(klass)
    assert t.packed_x2 is x2
    assert t.ir == ir
    assert TileDataType.from_asm(asm) is t
    assert TileDataType.from_ir(ir) is t


@pytest.mark.parametrize("code, asm, bits, klass, x2, ir", SPEC_TABLE, ids=[r[1] for r in SPEC_TABLE])
def test_ir_spelling_parses_to_the_type(code, asm, bits, klass, x2, ir):
    """The IR spelling parses (builtin or !pto.) and maps back to the TileDataType."""
    attr = Parser(_ctx(), ir).parse_type()
    assert tile_dtype_of(attr) is TileDataType(code)
    assert element_type(TileDataType(code)) == attr


@pytest.mark.parametrize(
    "asm, expected",
    [("FP16", "FP32"), ("S8", "S32"), ("S4X2", "S32"), ("S64", "S32"), ("U8", "U32"), ("U4X2", "U32"),
     ("U64", "U32"), ("FP64", "FP32"), ("E4M3", "FP32"), ("HiF4X2", "FP32"), ("E8M0", "FP32")],
)
def test_accumulator_type(asm, expected):
    """PTO-SPEC 1 TileMatrixAccumulatorDataType: signed -> S32, unsigned -> U32, else FP32."""
    assert TileDataType.from_asm(asm).accumulator is TileDataType.from_asm(expected)


@pytest.mark.parametrize("code", [15, 21, 22, 23, 29, 30])
def test_reserved_codes_reject(code):
    """PTO-SPEC 1: codes 15, 21-23, 29-30 are reserved."""
    assert code in RESERVED_CODES
    with pytest.raises(ValueError, match=f"DataType code {code} is reserved"):
        TileDataType.from_code(code)


def test_dtype_none_is_not_a_type():
    """PTO-SPEC 1: code 31 is DTYPE_NONE, a B.DATR sentinel, not a TileDataType."""
    assert DTYPE_NONE == 31
    with pytest.raises(ValueError, match="DTYPE_NONE"):
        TileDataType.from_code(31)


def test_code_zero_is_fp64():
    """PTO-SPEC 1: code 0 means FP64, never 'absent'."""
    assert TileDataType.from_code(0) is TileDataType.FP64


@pytest.mark.parametrize("alias, asm", [("FP8E4M3", "E4M3"), ("fp4e2m1x2", "E2M1X2"), ("FP6E2M3", "E2M3")])
def test_assembly_aliases(alias, asm):
    assert TileDataType.from_asm(alias) is TileDataType.from_asm(asm)


@pytest.mark.parametrize("bad", ["FP128", "E4M4", ""])
def test_unknown_assembly_name(bad):
    with pytest.raises(ValueError, match="unknown data type"):
        TileDataType.from_asm(bad)


@pytest.mark.parametrize("bad", ["i32", "f80", "index"])
def test_signless_and_foreign_types_are_not_tile_types(bad):
    """Integers must be signed or unsigned (si32/ui32); i32 is no TileDataType."""
    with pytest.raises(ValueError, match="not a PTO TileDataType"):
        TileDataType.from_ir(bad)
    assert tile_dtype_of(Parser(_ctx(), bad).parse_type()) is None


def test_mx_input_set_d2():
    """D2: AType/BType in {FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2}; scale iff not FP16/BF16."""
    assert {t.name for t in MX_INPUT_TYPES} == {"FP16", "BF16", "E4M3", "E5M2", "E2M1X2", "E1M2X2"}
    needs = {t.name for t in MX_INPUT_TYPES if mx_needs_scale(t)}
    assert needs == {"E4M3", "E5M2", "E2M1X2", "E1M2X2"}


def test_trem_set_d6_revised():
    """D6 (revised): TREM's set is the ASL ``TileVecArithmeticDataTypeSupported`` (asl/tile/
    model/legality/dtype-layout.asl), written out here independently."""
    assert {t.name for t in TREM_TYPES} == {
        "FP64", "FP32", "TF32", "HF32", "FP16", "BF16", "E4M3", "E5M2",
        "S64", "S32", "S16", "S8", "U64", "U32", "U16", "U8",
    }  # fmt: skip


def test_tile_type_dtype_accessor():
    t = TileType((8, 16), TileDataType.S32, valid=(3, 5))
    assert t.dtype is TileDataType.S32 and t.shape == (8, 16) and t.valid_shape == (3, 5)
