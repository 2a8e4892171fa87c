"""Hand-derived edge cases of the tile-local kernels (issue 27: mutants that survived).

ExecuteTileReduction (asl/tile/model/execution/reduction.asl) folds in strictly increasing
index with one rounding per step. 1 + 2^-24 is halfway between 1 and the next FP32 value
1 + 2^-23, so RNE keeps 1: a line of 1 followed by fifteen 2^-24 sums to exactly 1 in either
direction. A summation in another order (numpy's pairwise / eight-lane reduction of a
contiguous column) adds the small terms together first and gives 1 + 7 * 2^-23.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from interpreter.kernels.tile_local import local_tile
from pto_dialect.datatypes import TileDataType as T


def test_single_column_sum_is_the_sequential_fold() -> None:
    line = np.array([1.0] + [2.0**-24] * 15, np.float32)
    col = local_tile("TCOLSUM", [line.reshape(16, 1)], [T.FP32], T.FP32, (1, 1))
    row = local_tile("TROWSUM", [line.reshape(1, 16)], [T.FP32], T.FP32, (1, 1))
    assert col.tolist() == [[1.0]] and row.tolist() == [[1.0]]


def test_sort_keeps_signed_zeros_in_their_order() -> None:
    """``TileSortLeftBefore`` (asl/tile/model/ordering/sorting.asl) holds for two zeros in
    either order, so the stable sort keeps +0 and -0 where they came: ascending [+0, -0, -1,
    +0] -> [-1, +0, -0, +0] with indices [2, 0, 1, 3]; descending [-0, +0, -1, -0] -> [-0,
    +0, -0, -1] with [0, 1, 3, 2]."""
    for words, desc, want, idx in (([0.0, -0.0, -1.0, 0.0], 0, [-1.0, 0.0, -0.0, 0.0], [2, 0, 1, 3]),
                                   ([-0.0, 0.0, -1.0, -0.0], 1, [-0.0, 0.0, -0.0, -1.0], [0, 1, 3, 2])):
        src = np.array([words], np.float32)
        v, i = local_tile("TSORT", [src], [T.FP32], T.FP32, (1, 4), params=(4, desc))
        assert v.view(np.uint32).tolist() == [np.array(want, np.float32).view(np.uint32).tolist()]
        assert i.tolist() == [idx]


def test_e4m3_max_min_skip_a_nan() -> None:
    """A MAX / MIN step with one NaN operand returns the other (HardwareNumericMinMaxSpecial);
    E4M3 has no infinity, so the fold cannot use -inf / +inf in E4M3 itself as the neutral
    element: [NaN, 1, 2] -> MAX 2, MIN 1."""
    x = np.array([[np.nan, 1.0, 2.0]], ml_dtypes.float8_e4m3fn)
    assert local_tile("TROWMAX", [x], [T.E4M3], T.E4M3, (1, 1)).astype(float).tolist() == [[2.0]]
    assert local_tile("TROWMIN", [x], [T.E4M3], T.E4M3, (1, 1)).astype(float).tolist() == [[1.0]]


def test_a_zero_in_an_integer_broadcast_is_legal_except_for_div() -> None:
    """Only DIV needs a nonzero broadcast (TileBroadcastPayloadNonzero): ADD / MUL with a zero
    in the broadcast column are ordinary results."""
    src = np.array([[5, -3], [7, 2]], np.int32)
    b = np.array([[0], [4]], np.int32)
    add = local_tile("TROWEXPANDADD", [src, b], [T.S32, T.S32], T.S32, (2, 2))
    mul = local_tile("TROWEXPANDMUL", [src, b], [T.S32, T.S32], T.S32, (2, 2))
    assert add.tolist() == [[5, -3], [11, 6]] and mul.tolist() == [[0, 0], [28, 8]]


def test_textract_offset_65535_and_a_one_row_tinsert() -> None:
    """Offsets run 0..65535 (TileOperandsLegal_TEXTRACT): 65535 itself is legal; TINSERT of a
    1 x 2 source at (1, 1) writes exactly those two elements."""
    src = np.arange(65536, dtype=np.uint8).reshape(65536, 1)
    assert local_tile("TEXTRACT", [src], [T.U8], T.U8, (1, 1), params=(65535, 0)).tolist() == [[255]]
    old = np.zeros((4, 4), np.int32)
    got = local_tile("TINSERT", [old, np.array([[7, 8]], np.int32)], [T.S32, T.S32], T.S32, (4, 4),
                     params=(1, 1))  # fmt: skip
    assert got.tolist() == [[0, 0, 0, 0], [0, 7, 8, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
