"""Tile-model AVS pass conditions (tests/asl/tile/model/**) through our public API (D17).

CUBE geometry through ``pto_dialect.geometry``, matrix functions through the ISA tables,
post-processing parameter words through the CUBE kernel's decoders. The static-invariant tests
("the complete model and this unit's static invariant compile") are met by the module of ours
that models the unit importing and exposing the named table, class or function.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs, avs_units
from interpreter.kernels.postprocess import decode_quant_words, decode_relu_words
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.geometry import (
    CELL_BYTES,
    Layout,
    Storage,
    code_of_size,
    cube_cell_shape,
    cube_cells,
    cube_payload_index,
    cube_storage_shape,
    geometry_errors,
)
from pto_dialect.isa.commands import CUBE_FUNCTIONS

T = TileDataType
N8, M16, M32 = Layout.CUBE_N8, Layout.CUBE_M16, Layout.CUBE_M32


@avs("PTO-AVS-TILE-CUBE-CELL-WIDTH-001")
def test_cube_cell_shapes():
    want = {N8: ((4, 8), (8, 8), (16, 8), (32, 8)), M32: ((32, 1), (32, 2), (32, 4), (32, 8)),
            M16: ((16, 2), (16, 4), (16, 8), (16, 16))}  # fmt: skip
    for layout, shapes in want.items():
        for t, shape in zip((T.FP32, T.FP16, T.E4M3, T.E2M1X2), shapes):
            assert cube_cell_shape(layout, t) == shape
            assert shape[0] * shape[1] * t.bits == CELL_BYTES * 8
    assert cube_cell_shape(M16, T.U4X2) is not None
    for t in (T.HIF4X2, T.FP64, T.S64, T.U64):
        assert cube_cell_shape(M16, t) is None


@avs("PTO-AVS-TILE-CUBE-CELL-TAIL-004")
def test_cube_storage_rounds_to_cells():
    assert cube_storage_shape(N8, T.FP16, 13, 19) == (16, 24)
    assert cube_storage_shape(M16, T.FP32, 3, 5) == (16, 6)
    assert cube_storage_shape(M32, T.FP16, 13, 19) == (32, 20)
    assert cube_cells(N8, T.FP16, 13, 19) * CELL_BYTES == 768
    assert cube_cells(M16, T.FP32, 3, 5) * CELL_BYTES == 384


@avs("PTO-AVS-TILE-CUBE-CELL-CAPACITY-005")
def test_cube_capacity():
    def errs(size, rows, cols, t, layout):
        return geometry_errors(rows, cols, t, rows, cols, layout, Storage.LOCAL, size)

    assert cube_cells(N8, T.FP16, 13, 19) * CELL_BYTES == 768  # exact need
    assert errs(1024, 13, 19, T.FP16, N8) == []
    assert errs(512, 13, 19, T.FP16, N8)  # short of 768 B
    assert errs(128, 0, 8, T.FP16, N8) and errs(128, 8, 0, T.FP16, N8)
    assert errs(128, 17, 1, T.FP32, M16) and errs(128, 33, 1, T.FP32, M32)
    assert errs(128, 16, 16, T.HIF4X2, M16) and errs(128, 16, 1, T.FP64, M16)


@avs("PTO-AVS-TILE-CUBE-CELL-M16-B4-002")
def test_m16_four_bit_cell_column_order():
    got = [cube_payload_index(M16, T.E2M1X2, 1, 16, 0, c) for c in range(16)]
    assert got == [0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15]


@avs("PTO-AVS-TILE-CUBE-CELL-ORDER-003")
def test_n8_cell_order():
    """13 x 19 FP16 in CUBE_N8: 2 CELLs along K, 3 along N, K-fastest; inside a CELL
    column-major (k then n), so (8, 0) and (0, 8) land in different CELLs."""
    assert cube_cells(N8, T.FP16, 13, 19) == 6
    idx = {(r, c): cube_payload_index(N8, T.FP16, 13, 19, r, c)
           for r, c in ((0, 0), (8, 0), (0, 8), (12, 18))}  # fmt: skip
    assert idx == {(0, 0): 0, (8, 0): 64, (0, 8): 128, (12, 18): 340}
    every = {cube_payload_index(N8, T.FP16, 13, 19, r, c) for r in range(16) for c in range(24)}
    assert every == set(range(16 * 24))  # a bijection onto the six CELLs


@avs("PTO-AVS-TILE-CUBE-ALLOCATE-001")
def test_cube_allocation_geometry():
    """A 13 x 19 FP16 N8 tile: storage 16 x 24, six CELLs (2 along K, 3 along N), 768 B,
    which a 1 KB Local TSize holds (our tiles exist from their defining op on: there is no
    allocated-but-undefined state to observe)."""
    assert cube_storage_shape(N8, T.FP16, 13, 19) == (16, 24)
    assert cube_cells(N8, T.FP16, 13, 19) * CELL_BYTES == 768
    assert code_of_size(1024) is not None
    assert geometry_errors(13, 19, T.FP16, 13, 19, N8, Storage.LOCAL, 1024) == []


@avs("PTO-AVS-TILE-MATRIX-FN-BOUND-001")
def test_matrix_functions_assigned():
    assigned = set(CUBE_FUNCTIONS)
    assert {0, 6, 16, 22} <= assigned and not {3, 19, 23} & assigned
    assert len(assigned) == 12
    gemv = {c for c, f in CUBE_FUNCTIONS.items() if f.name.startswith("TGEMV")}
    assert {16, 22} <= gemv and 19 not in gemv


def _legal(fn, *args) -> bool:
    try:
        fn(*args)
    except PTOFault:
        return False
    return True


def _quant(words):
    return _legal(decode_quant_words, np.array(words, np.uint64), 9, "Quant")


def _relu(words):
    return _legal(decode_relu_words, np.array(words, np.uint64), "PReLU")


def _qword(fp19: int, offset: int) -> int:
    return fp19 << 13 | (offset & 0x1FF) << 37


@avs("PTO-AVS-TILE-MATRIX-VQUANT-DESC-001")
def test_vector_quant_words():
    w = _qword(0x400, 1)
    assert _quant([w, w])
    assert not _quant([w + 1, w])  # a reserved low bit


@avs("PTO-AVS-TILE-MATRIX-VPRELU-DESC-001")
def test_vector_prelu_words():
    assert _relu([0x1FC00, 0])
    assert not _relu([0x80000, 0])  # above the 19-bit carrier


@avs("PTO-AVS-TILE-MATRIX-PARAMS-002")
def test_parameter_words_normal_only():
    assert _quant([_qword(0x400, 0)] * 2)
    assert not _quant([_qword(0x400, 0), _qword(1, 0)])  # subnormal scale
    assert _relu([0x400, 0])
    assert not _relu([0x400, 1])  # subnormal slope
    assert not _relu([0x400, 0x80000])


# The static-invariant tests: the unit of ours that models each ASL unit.
STATIC_UNITS = {
    "PTO-AVS-TILE-MODEL-CAPACITY-LOCAL-STATIC-001": "pto_dialect.geometry:LOCAL_MAX_CODE",
    "PTO-AVS-TILE-MODEL-CAPACITY-SHARED-STATIC-001": "pto_dialect.geometry:SHARED_MAX_CODE",
    "PTO-AVS-TILE-MODEL-DEFINEDNESS-ELEMENTS-STATIC-001": "interpreter.ssa.runtime:all_defined",
    "PTO-AVS-TILE-MODEL-DEFINEDNESS-PACKED-BOUNDARY-STATIC-001": "pto_dialect.mx_quant:unpack_x2",
    "PTO-AVS-TILE-MODEL-DISPATCH-ELEMENTWISE-TILE-TILE-STATIC-001": "pto_dialect.isa.commands:TEPL_OPS",
    "PTO-AVS-TILE-MODEL-DISPATCH-IRREGULAR-AND-COMPLEX-STATIC-001": "pto_dialect.isa.commands:TEPL_OPS",
    "PTO-AVS-TILE-MODEL-DISPATCH-LAYOUT-AND-REARRANGEMENT-STATIC-001": "pto_dialect.isa.commands:TEPL_OPS",
    "PTO-AVS-TILE-MODEL-DISPATCH-MATRIX-AND-MATRIX-VECTOR-STATIC-001": "pto_dialect.isa.commands:CUBE_FUNCTIONS",
    "PTO-AVS-TILE-MODEL-DISPATCH-MEMORY-AND-DATA-MOVEMENT-STATIC-001": "pto_dialect.isa.commands:TLSU_FUNCTIONS",
    "PTO-AVS-TILE-MODEL-DISPATCH-REDUCE-AND-EXPAND-STATIC-001": "pto_dialect.isa.commands:TEPL_OPS",
    "PTO-AVS-TILE-MODEL-DISPATCH-TILE-SCALAR-AND-IMMEDIATE-STATIC-001": "pto_dialect.isa.commands:TEPL_OPS",
    "PTO-AVS-TILE-MODEL-DISPATCH-TOP-LEVEL-STATIC-001": "pto_dialect.families:TILE_OP_FAMILIES",
    "PTO-AVS-TILE-MODEL-EXECUTION-COMPLEX-STATIC-001": "interpreter.kernels.tile_local:LOCAL_ROWS",
    "PTO-AVS-TILE-MODEL-EXECUTION-CUBE-STATIC-001": "interpreter.kernels.cube:PROFILES",
    "PTO-AVS-TILE-MODEL-EXECUTION-ELEMENTWISE-STATIC-001": "interpreter.kernels.elementwise:binary_core",
    "PTO-AVS-TILE-MODEL-EXECUTION-EXPANSION-STATIC-001": "interpreter.kernels.tile_local:LOCAL_ROWS",
    "PTO-AVS-TILE-MODEL-EXECUTION-FUSED-MULTIPLY-ADD-STATIC-001": "interpreter.kernels.ternary:tfma_tile",
    "PTO-AVS-TILE-MODEL-EXECUTION-GENERATION-STATIC-001": "interpreter.kernels.tile_local:GENERATOR_ROWS",
    "PTO-AVS-TILE-MODEL-EXECUTION-MINMAX-STATIC-001": "interpreter.kernels.elementwise:binary_core",
    "PTO-AVS-TILE-MODEL-EXECUTION-POSTPROCESS-STATIC-001": "interpreter.kernels.postprocess:validate",
    "PTO-AVS-TILE-MODEL-EXECUTION-REARRANGEMENT-STATIC-001": "interpreter.kernels.tile_local:LOCAL_ROWS",
    "PTO-AVS-TILE-MODEL-EXECUTION-REDUCTION-STATIC-001": "interpreter.kernels.tile_local:LOCAL_ROWS",
    "PTO-AVS-TILE-MODEL-EXECUTION-UNARY-STATIC-001": "interpreter.kernels.unary:canonical_nan",
    "PTO-AVS-TILE-MODEL-LEGALITY-ALLOCATION-CAPACITY-STATIC-001": "pto_dialect.geometry:geometry_errors",
    "PTO-AVS-TILE-MODEL-LEGALITY-DESCRIPTOR-SHAPE-STATIC-001": "pto_dialect.geometry:geometry_errors",
    "PTO-AVS-TILE-MODEL-LEGALITY-DTYPE-LAYOUT-STATIC-001": "pto_dialect.geometry:Layout",
    "PTO-AVS-TILE-MODEL-LEGALITY-LAYOUT-REARRANGEMENT-STATIC-001": "pto_dialect.tile_local:TTransOp",
    "PTO-AVS-TILE-MODEL-LEGALITY-MATRIX-CUBE-PRIMARY-STATIC-001": "pto_dialect.ops:CubeMatrixOp",
    "PTO-AVS-TILE-MODEL-LEGALITY-MATRIX-FUNCTIONS-STATIC-001": "pto_dialect.isa.commands:CUBE_FUNCTIONS",
    "PTO-AVS-TILE-MODEL-LEGALITY-MATRIX-INFO-DESCRIPTOR-STATIC-001": "pto_dialect.ops:CubeMatrixOp",
    "PTO-AVS-TILE-MODEL-LEGALITY-MATRIX-OPERANDS-STATIC-001": "pto_dialect.ops:CubeMatrixOp",
    "PTO-AVS-TILE-MODEL-LEGALITY-MATRIX-POSTPROCESS-STATIC-001": "interpreter.kernels.postprocess:validate",
    "PTO-AVS-TILE-MODEL-LEGALITY-MATRIX-SHAPE-STATIC-001": "pto_dialect.ops:CubeMatrixOp",
    "PTO-AVS-TILE-MODEL-LEGALITY-MEMORY-SCHEMA-STATIC-001": "pto_dialect.isa.block:check_block",
    "PTO-AVS-TILE-MODEL-LEGALITY-OPERAND-SCHEMA-STATIC-001": "pto_dialect.isa.block:check_block",
    "PTO-AVS-TILE-MODEL-LEGALITY-PE-MASK-STATIC-001": "pto_dialect.attributes:mask_encoding_errors",
    "PTO-AVS-TILE-MODEL-LEGALITY-REDUCTION-AND-EXPANSION-STATIC-001": "pto_dialect.tile_local:ReduceTileOp",
    "PTO-AVS-TILE-MODEL-MEMORY-ADDRESSING-STATIC-001": "pto_dialect.data_movement:TLoadOp",
    "PTO-AVS-TILE-MODEL-MEMORY-LOAD-STORE-STATIC-001": "interpreter.ssa.pto_functions:tload_plan",
    "PTO-AVS-TILE-MODEL-MEMORY-STRIDE-STATIC-001": "pto_dialect.data_movement:TLoadOp",
    "PTO-AVS-TILE-MODEL-NUMERIC-FORMATS-STATIC-001": "interpreter.kernels.mx:value_lut",
    "PTO-AVS-TILE-MODEL-NUMERIC-ROUNDING-STATIC-001": "pto_dialect.attributes:RoundingMode",
    "PTO-AVS-TILE-MODEL-SHAPE-CUBE-CELL-STATIC-001": "pto_dialect.geometry:cube_cell_shape",
    "PTO-AVS-TILE-MODEL-SHAPE-ROWS-COLUMNS-STATIC-001": "pto_dialect.geometry:default_size",
    "PTO-AVS-TILE-MODEL-SHAPE-VALID-REGION-STATIC-001": "pto_dialect.attributes:TileType",
    "PTO-AVS-TILE-MODEL-STATE-ALLOCATION-STATIC-001": "interpreter.ssa.runtime:TileValue",
    "PTO-AVS-TILE-MODEL-STATE-DESCRIPTORS-STATIC-001": "pto_dialect.attributes:TileType",
    "PTO-AVS-TILE-MODEL-STATE-LOCAL-REGISTERS-STATIC-001": "interpreter.ssa.runtime:TileValue",
    "PTO-AVS-TILE-MODEL-STATE-TYPES-STATIC-001": "pto_dialect.datatypes:TileDataType",
}


test_static_unit = avs_units(STATIC_UNITS)


@pytest.mark.parametrize("layout", [N8, M16, M32])
def test_cube_cells_are_128_bytes(layout):
    for t in (T.FP32, T.FP16, T.E4M3, T.U4X2):
        r, c = cube_cell_shape(layout, t)
        assert r * c * t.bits == 1024


def _post(a, b, **fields):
    from interpreter.kernels.cube import cube_matrix
    from pto_dialect.postprocess import Fpatr

    row_max_in = fields.pop("row_max_in", None)
    return cube_matrix("TMATMUL", np.array(a), np.array(b), fpatr=Fpatr(**fields),
                       row_max_in=row_max_in)  # fmt: skip


@avs("PTO-AVS-TILE-POST-MAXABS-SINGLE-002")
def test_maxabs_of_a_negative_s32():
    d, row, group = _post(np.int8([[-3]]), np.int8([[1]]), group_n_code=1, row_max_en=1,
                          group_max_en=1, max_abs_en=1)  # fmt: skip
    assert (d.tolist(), row.tolist(), group.tolist()) == ([[-3]], [[3]], [[3]])


@avs("PTO-AVS-TILE-POSTPROCESS-GROUP-LARGE-004")
def test_group_wider_than_the_row():
    d, group = _post(np.uint8([[1]]), np.uint8([[2, 5, 4]]), group_n_code=1, group_max_en=1)
    assert d.dtype == np.uint32 and d.tolist() == [[2, 5, 4]] and group.tolist() == [[5]]


@avs("PTO-AVS-TILE-MODEL-EXECUTION-POSTPROCESS-AUX-EXECUTION-001")
def test_rowmax_in_and_partial_groups():
    d, row, group = _post(np.uint8([[1]]), np.arange(1, 10, dtype=np.uint8)[None],
                          group_n_code=1, row_max_en=1, group_max_en=1, row_max_init=1,
                          row_max_in=np.uint32([[10]]))  # fmt: skip
    assert d[0, 8] == 9 and row.tolist() == [[10]] and group.tolist() == [[8, 9]]


@avs("PTO-AVS-TILE-VEC-SFU-SELECTOR-BOUND-001")
def test_tepl_selector_closure():
    """Every 7-bit TEPL selector (Mode:Function) either decodes (BSTART.TEPL) to a VEC or SFU
    operation or is refused; exactly 87 decode."""
    from pto_dialect.isa import BStart, decode
    from pto_dialect.isa.commands import TEPL_OPS, Engine

    assigned = 0
    for sel in range(128):
        word = 0x00019181 | 1 << 27 | (sel >> 5) << 25 | (sel & 31) << 20  # FP32
        try:
            cmd = decode(word, strict=True)
        except PTOFault as e:
            assert e.kind == "IllegalInstruction"
            continue
        assert isinstance(cmd, BStart)
        assert TEPL_OPS[(sel >> 5, sel & 31)].engine in (Engine.VEC, Engine.SFU)
        assigned += 1
    assert assigned == 87


_MATMUL = """func.func @f(%a: !pto.tile<1x16xf16, cube_m16, LOC>, %b: !pto.tile<16x16xf16, cube_n8, mat>)
    -> !pto.tile<1x16xf32, cube_m16, mat> {
  %d = pto.tmatmul %a, %b : (!pto.tile<1x16xf16, cube_m16, LOC>,
      !pto.tile<16x16xf16, cube_n8, mat>) -> !pto.tile<1x16xf32, cube_m16, mat>
  func.return %d : !pto.tile<1x16xf32, cube_m16, mat>
}"""


@avs("PTO-AVS-TILE-MATRIX-SOURCE-DESC-001")
def test_matrix_source_in_matrix_location():
    from xdsl.utils.exceptions import ParseError, VerifyException

    from conformance.test_avs_tile import verify_error

    assert verify_error(_MATMUL.replace("LOC", "mat")) is None
    # A CUBE-layout tile outside mat is not a legal descriptor (TileCubeDescriptorLegal): the
    # type itself is refused as it is parsed.
    with pytest.raises((ParseError, VerifyException)) as e:
        verify_error(_MATMUL.replace("LOC", "any"))
    assert "[TileLegality]" in str(e.value)
