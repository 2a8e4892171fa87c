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

from interpreter.ssa.runner import build_context, run
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.datatypes import TileDataType
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
