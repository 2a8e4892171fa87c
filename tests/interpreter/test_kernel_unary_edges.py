"""Hand-derived TSQRT words (issue 27: the native float32 / float64 path's two NaN branches).

IEEE 754 squareRoot: sqrt(-0) = -0, sqrt(negative) is an invalid operation whose NaN is the
format's canonical quiet NaN (TileNumericCanonicalNaN: FP32 0x7FC00000, FP64
0x7FF8000000000000), sqrt(4) = 2, sqrt(+0) = +0. A block with a -0 source and a NaN result
and a block with a NaN result but no -0 take different branches of the kernel.
"""

from __future__ import annotations

import numpy as np
import pytest

from interpreter.kernels.unary import UNARY_ROWS, unary_tile

CASES = [
    (np.float32, [-0.0, -1.0, 4.0], [0x80000000, 0x7FC00000, 0x40000000]),
    (np.float32, [-1.0, 4.0, 0.0], [0x7FC00000, 0x40000000, 0]),
    (np.float64, [-0.0, -1.0, 4.0], [1 << 63, 0x7FF8000000000000, 0x4000000000000000]),
    (np.float64, [-1.0, 4.0, 0.0], [0x7FF8000000000000, 0x4000000000000000, 0]),
]


@pytest.mark.parametrize(("dtype", "values", "words"), CASES)
def test_sqrt_words(dtype, values, words) -> None:
    r, _ = unary_tile(UNARY_ROWS["TSQRT"], np.array([values], dtype), None)
    u = np.uint32 if dtype is np.float32 else np.uint64
    assert r.view(u).tolist() == [words]
