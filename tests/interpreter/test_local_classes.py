"""Edge classes of the tile-local / rearrangement kernels (issue 27, mutation testing of
``interpreter/kernels/rearrange.py`` and ``tile_local.py``).

* Omitted B.IOR parameters are the all-zero words: TFILLPAD pads with the zero word,
  TEXTRACT / TINSERT take offsets (0, 0), TMRGSORT merges ascending. Each row with
  parameters gives, without them, what it gives with explicit zeros, and TMRGSORT's
  default order is checked against Python's stable ``sorted`` of the concatenation.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import KERNELS
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 3), cols=st.integers(1, 6))
def test_omitted_parameters_are_the_zero_words(seed, rows, cols):
    rng = np.random.default_rng(seed)
    t = T.FP32
    src = rng.integers(-9, 9, (rows, cols)).astype(np.float32)
    shape = (rows + 1, cols + 2)
    for params in ((), None):
        got = KERNELS["TFILLPAD"]([src], [t], t, (rows, cols), params=params or (),
                                  dst_shape=shape)  # fmt: skip
        want = np.zeros(shape, np.float32)
        want[:rows, :cols] = src
        assert np.array_equal(got, want) and np.array_equal(
            got, KERNELS["TFILLPAD"]([src], [t], t, (rows, cols), params=(0,), dst_shape=shape))
    big = rng.integers(-9, 9, (rows + 2, cols + 2)).astype(np.float32)
    got = KERNELS["TEXTRACT"]([big], [t], t, (rows, cols))
    assert np.array_equal(got, big[:rows, :cols])
    got = KERNELS["TINSERT"]([big, src], [t, t], t, big.shape)
    want = big.copy()
    want[:rows, :cols] = src
    assert np.array_equal(got, want)
    left = np.sort(rng.integers(-9, 9, (1, cols))).astype(np.float32)
    right = np.sort(rng.integers(-9, 9, (1, rows + 1))).astype(np.float32)
    got = KERNELS["TMRGSORT"]([left, right], [t, t], t, (1, left.size + right.size))
    assert got.reshape(-1).tolist() == sorted(left.reshape(-1).tolist() + right.reshape(-1).tolist())
    assert np.array_equal(got, KERNELS["TMRGSORT"]([left, right], [t, t], t,
                                                   (1, left.size + right.size), params=(0,)))
