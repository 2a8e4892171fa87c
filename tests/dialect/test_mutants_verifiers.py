"""Tests that kill the verifier-module mutants fresh samples left alive (issue 27,
``scripts/mutate.py --only verifiers``): each names the mutant it was written for.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import IndexType, TensorType, i8
from xdsl.dialects.test import TestOp as DefOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from interpreter.ssa.runner import RunError, build_context, run
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.dialect import PTO
from pto_dialect.tile_rearrange import HISTOGRAM_FILTER_ROWS


def _parse_one(text: str):
    module = Parser(build_context(), text).parse_module()
    return list(module.ops)[-1]


def test_tload_tstore_builder_defaults_are_the_syntax_defaults():
    """A pass builds pto.tload / pto.tstore with the builder's defaults; they must be what the
    custom syntax means when it omits the properties (``pe_stride = [0, 0]``, row stride 1,
    Null padding). Seed 4301: ``data_movement.py:334 const 0->1#2`` (the builder's pe_stride)."""
    defs = (
        '%gm = "test.op"() : () -> tensor<2x4xi8>\n%i = "test.op"() : () -> index\n'
        '%t0 = "test.op"() : () -> !pto.tile<64x4xui4, valid=2x3, pe=1000>\n'
    )
    parsed_load = _parse_one(defs + "%t = pto.tload %gm[%i, %i] : tensor<2x4xi8> -> "
                             "!pto.tile<64x4xui4, valid=2x3, pe=1000>")  # fmt: skip
    parsed_store = _parse_one(defs + "%r = pto.tstore %t0, %gm[%i, %i] : "
                              "!pto.tile<64x4xui4, valid=2x3, pe=1000> -> tensor<2x4xi8>")  # fmt: skip
    gm = DefOp(result_types=[TensorType(i8, [2, 4])]).results[0]
    i = DefOp(result_types=[IndexType()]).results[0]
    tile_type = parsed_load.result.type
    tile = DefOp(result_types=[tile_type]).results[0]
    built_load = TLoadOp(gm, [i, i], tile_type)
    built_store = TStoreOp(tile, gm, [i, i])
    assert dict(built_load.properties) == dict(parsed_load.properties)
    assert dict(built_store.properties) == dict(parsed_store.properties)
    assert built_load.pe_stride.get_values() == (0, 0)


def test_convert_dtypes_read_the_signedness_words():
    """pto.convert's source / result tile data types (the lowering and the interpreter read
    them): signless integers take ``src_sign`` / ``dst_sign``. Seed 4301:
    ``tensor_convert.py:104 cmp IsNot->Is`` (the result's assert)."""
    defs = '%x = "test.op"() : () -> tensor<4x8xf32>\n%y = "test.op"() : () -> tensor<4x8xi8>\n'
    for sign, want in (("signed", TileDataType.S16), ("unsigned", TileDataType.U16)):
        op = _parse_one(defs + f'%a = pto.convert %x {{dst_sign = "{sign}"}} : tensor<4x8xf32> -> tensor<4x8xi16>')
        assert (op.dtype, op.result_dtype) == (TileDataType.FP32, want)
        op = _parse_one(defs + f'%a = pto.convert %y {{src_sign = "{sign}"}} : tensor<4x8xi8> -> tensor<4x8xf16>')
        assert op.dtype == (TileDataType.S8 if sign == "signed" else TileDataType.U8)
        assert op.result_dtype == TileDataType.FP16


def test_pto_sort_direction_runs_both_ways():
    """pto.sort ascending / descending on the interpreter (and through pto-tile-to-capacity)
    against Python's stable ``sorted`` per row. Seed 4301: ``tensor_local.py:420 cmp Eq->NotEq``
    (the ``descending`` property no mapped test read)."""
    x = np.array([[3.0, -1.0, 2.5, 0.0, -7.0, 2.5, 1.0, 9.0]] * 2, dtype=np.float32)
    x[1] = x[1][::-1]
    for direction in ("ascending", "descending"):
        text = (
            "func.func @main(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {\n"
            f"  %s = pto.sort {direction} %x : (tensor<2x8xf32>) -> tensor<2x8xf32>\n"
            "  func.return %s : tensor<2x8xf32>\n}\n"
        )
        (got,) = run(text, "main", x)
        want = [sorted(row.tolist(), reverse=direction == "descending") for row in x]
        assert got.tolist() == want, direction


def test_multi_pe_slices_ending_at_the_extent_verify():
    """Two PEs at column stride 16 from offset 32: the slices [32, 48) and [48, 64) end at
    the extent 64 (the lit case at offset 33 is one beyond). Seed 4303:
    ``data_movement.py:216 arith +->-#2`` (the PE stride term of the slice end)."""
    tile = "!pto.tile<1x32xf32, valid=1x16, pe=1100>"
    text = (
        '%gm = "test.op"() : () -> tensor<2x64xf32>\n%c0 = arith.constant 0 : index\n'
        "%c32 = arith.constant 32 : index\n"
        f"%t = pto.tload %gm[%c0, %c32] {{pe_stride = [0, 16]}} : tensor<2x64xf32> -> {tile}\n"
        f"%r = pto.tstore %t, %gm[%c0, %c32] {{pe_stride = [0, 16]}} : {tile} -> tensor<2x64xf32>\n"
    )
    Parser(build_context(), text).parse_module().verify()


def _histogram(src: str, rows: int, byte_id: int, filter_rows: int) -> str:
    f = f"!pto.tile<128x1xui8, valid={filter_rows}x1>"
    return (
        f'%s = "test.op"() : () -> {src}\n%f = "test.op"() : () -> {f}\n'
        f"%d = pto.thistogram %s, %f {{byte_id = {byte_id} : i64}} : ({src}, {f}) -> "
        f"!pto.tile<4x256xui32, valid={rows}x256>\n"
    )


# TileHistogramInputsLegal (asl/tile/model/legality/indexed-layout.asl), written out here:
# (source type, ByteId) -> filter rows read at column 0 (None: one per source valid row)
SPEC_FILTER_ROWS = {
    (TileDataType.U16, 0): None, (TileDataType.U16, 1): 0, (TileDataType.U32, 0): 3,
    (TileDataType.U32, 1): 2, (TileDataType.U32, 2): 1, (TileDataType.U32, 3): 0,
}  # fmt: skip


def test_histogram_filter_rows_table_is_the_specs():
    assert HISTOGRAM_FILTER_ROWS == SPEC_FILTER_ROWS


@pytest.mark.parametrize("key", list(SPEC_FILTER_ROWS), ids=lambda k: f"{k[0].name}-byte{k[1]}")
def test_histogram_filter_rows_both_sides(key):
    """Every row of HISTOGRAM_FILTER_ROWS (TileHistogramInputsLegal: U16 ByteId 0 one filter row
    per source row, ByteId 1 none; U32 ByteId b 3 - b rows): exactly the rows read verify, one
    fewer is refused. Seed 4303: ``tile_rearrange.py:525 const 2->3`` (U32 ByteId 1)."""
    dtype, byte_id = key
    rows = 3  # source valid rows (the U16 ByteId 0 filter needs as many)
    src = f"!pto.tile<8x8x{'ui16' if dtype is TileDataType.U16 else 'ui32'}, valid={rows}x4>"
    need = SPEC_FILTER_ROWS[key]
    need = rows if need is None else need
    Parser(build_context(), _histogram(src, rows, byte_id, max(need, 1))).parse_module().verify()
    if need > 1:
        module = Parser(build_context(), _histogram(src, rows, byte_id, need - 1)).parse_module()
        with pytest.raises(VerifyException, match=f"lacks the {need} x 1 elements read at column 0"):
            module.verify()


_TSORT_BLOCK = """func.func @f(%s: !pto.tile<8x4xf32, valid=1x4>, %w: i64, %n: i64) -> (!pto.tile<8x4xf32, valid=1x4>, !pto.tile<8x4xui32, valid=1x4>) {
  %d, %i = pto.block (%s, %w, %n) {
    pto.b.start TSORT, FP32
    LB0
    pto.b.iot <src0 = "t#1", last = 0, size_code = "128B", pe_mode = "1111", dst_hand = t>
    pto.b.iot <last = 1, size_code = "128B", pe_mode = "1111", dst_hand = t>
    pto.b.ior <src0 = a0, src1 = zero, src2 = zero, dst = zero>
    pto.b.stop
  } : (!pto.tile<8x4xf32, valid=1x4>, i64, i64) -> (!pto.tile<8x4xf32, valid=1x4>, !pto.tile<8x4xui32, valid=1x4>)
  func.return %d, %i : !pto.tile<8x4xf32, valid=1x4>, !pto.tile<8x4xui32, valid=1x4>
}
"""


def test_linked_tsort_block_takes_its_sort_width_as_an_immediate():
    """A TSORT block's LB0 (the sort width) from a GPR is known only at run time: refused
    with a TileLegality reason; as an immediate the block runs. Seed 4305:
    ``tile_rearrange.py:502 raise deleted`` (TSort.from_block)."""
    src = np.array([[2, 1, 2, 0]], np.float32)
    good = (_TSORT_BLOCK.replace("LB0", "pto.b.dimi <lb = 0, imm = 4>").replace(", %n: i64", "")
            .replace(", %n)", ")").replace("i64, i64) ->", "i64) ->"))  # fmt: skip
    values, indices = run(good, "f", src, 0)
    assert values[0].tolist() == [[0, 1, 2, 2]] and indices[0].tolist() == [[3, 1, 0, 2]]
    bad = _TSORT_BLOCK.replace("LB0", "pto.b.dim <lb = 0, reg = a1, imm = 0>")
    with pytest.raises(RunError, match="TSORT's sort width \\(LB0\\) read from a GPR is known only at run time"):
        run(bad, "f", src, 0, 4)


def test_signless_tensor_moves_to_a_signed_tile_of_its_width():
    """i32 <-> si32 / ui32 tiles verify (the lit case i16 -> si32 does not). Seed 4305:
    ``data_movement.py:90 cmp Eq->NotEq`` (the width comparison)."""
    for tile in ("!pto.tile<8x16xsi32, valid=4x16>", "!pto.tile<8x16xui32, valid=4x16>"):
        text = (
            '%gm = "test.op"() : () -> tensor<8x16xi32>\n%i = "test.op"() : () -> index\n'
            f"%t = pto.tload %gm[%i, %i] : tensor<8x16xi32> -> {tile}\n"
            f"%r = pto.tstore %t, %gm[%i, %i] : {tile} -> tensor<8x16xi32>\n"
        )
        Parser(build_context(), text).parse_module().verify()


def test_elementwise_builders_default_to_the_tile_operands_type():
    """Built without a result type, a TEPL elementwise op's result has its first (tile)
    operand's type, also when a scalar operand follows. Seed 4305:
    ``elementwise_ops.py:73 const 0->1`` (``operands[0].type``)."""
    text = '%a = "test.op"() : () -> !pto.tile<8x16xsi32>\n%s = "test.op"() : () -> i64\n'
    module = Parser(build_context(), text).parse_module()
    a, s = (op.results[0] for op in module.ops)
    by_name = {op.name: op for op in PTO.operations}
    for name, operands in (("pto.tadds", [a, s]), ("pto.tshls", [a, s]), ("pto.tabs", [a])):
        op = by_name[name](operands)
        assert op.result.type == a.type, name
        op.verify()


def test_tconcat_rows_follow_the_left_sources_valid_rows():
    """TCONCAT's right source and result have the left source's valid rows, whatever its
    columns: a 2x1 left verifies with a 2x1 right (result 2x2), a 1x1 right does not. Seed
    4307: ``tile_local.py:396 const 0->1#2`` (every example had a square left source)."""
    def text(right: str, result: str) -> str:
        left = "!pto.tile<64x2xui8, valid=2x1>"
        return (f'%l = "test.op"() : () -> {left}\n%r = "test.op"() : () -> {right}\n'
                f"%d = pto.tconcat %l, %r : ({left}, {right}) -> {result}\n")

    Parser(build_context(), text("!pto.tile<64x2xui8, valid=2x1>", "!pto.tile<64x2xui8, valid=2x2>")).parse_module().verify()
    bad = Parser(build_context(), text("!pto.tile<64x2xui8, valid=1x1>", "!pto.tile<64x2xui8, valid=2x2>")).parse_module()
    with pytest.raises(VerifyException, match="right: valid rows 1"):
        bad.verify()


def test_gather_dtypes_read_the_element_types():
    """pto.gather's table / index tile data types (the lowering and the interpreter read
    them). Seed 4307: ``tensor_local.py:352 cmp IsNot->Is`` (the index's assert)."""
    op = _parse_one(
        '%tab = "test.op"() : () -> tensor<6x8xf32>\n%idx = "test.op"() : () -> tensor<4x8xi64>\n'
        "%g = pto.gather %tab, %idx : (tensor<6x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>\n"
    )
    assert (op.dtype, op.index_dtype) == (TileDataType.FP32, TileDataType.S64)
