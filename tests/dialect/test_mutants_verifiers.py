"""Tests that kill the verifier-module mutants fresh samples left alive (issue 27,
``scripts/mutate.py --only verifiers``): each names the mutant it was written for.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IndexType, TensorType, i8
from xdsl.dialects.test import TestOp as DefOp
from xdsl.parser import Parser

from interpreter.ssa.runner import build_context, run
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.datatypes import TileDataType


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
