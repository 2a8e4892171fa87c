"""Hand-derived edge cases of the tile-local kernels (issue 27: mutants that survived).

ExecuteTileReduction (asl/tile/model/execution/reduction.asl) folds in strictly increasing
index with one rounding per step. 1 + 2^-24 is halfway between 1 and the next FP32 value
1 + 2^-23, so RNE keeps 1: a line of 1 followed by fifteen 2^-24 sums to exactly 1 in either
direction. A summation in another order (numpy's pairwise / eight-lane reduction of a
contiguous column) adds the small terms together first and gives 1 + 7 * 2^-23.
"""

from __future__ import annotations

import numpy as np

from interpreter.kernels.tile_local import local_tile
from pto_dialect.datatypes import TileDataType as T


def test_single_column_sum_is_the_sequential_fold() -> None:
    line = np.array([1.0] + [2.0**-24] * 15, np.float32)
    col = local_tile("TCOLSUM", [line.reshape(16, 1)], [T.FP32], T.FP32, (1, 1))
    row = local_tile("TROWSUM", [line.reshape(1, 16)], [T.FP32], T.FP32, (1, 1))
    assert col.tolist() == [[1.0]] and row.tolist() == [[1.0]]
