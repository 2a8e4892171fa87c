"""RowMax / GroupMax flags of whole M x N accumulators against the ASL loops (issue 27, seed 4101).

The reference transcribes ``MatrixRowMaxResult`` and ``MatrixGroupMaxResult``
(``asl/tile/model/execution/postprocess.asl``) loop by loop, in Python scalars: per row (per
group) the first element is the running value, MaxAbsEn adds an initial ``|x|`` step on it,
every further column is a step, and RowMaxInit adds a step of the input word against the
row's result. A step (``TileProfileMatrixReductionStepWithFlags``, the TMAX step) records NV
when a signalling NaN takes part. The seed-4101 mutant made a 2-D accumulator read as one
long row (every test before had one row).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels.postprocess_status import reduction_flags
from interpreter.kernels.status import NV, OF
from pto_dialect.postprocess import GROUP_N, Fpatr
from tests.budget import examples

SNANS = (0x7F800001, 0xFFA00000, 0x7FBFFFFF)
OTHERS = (0x3F800000, 0xC0000000, 0x7FC00000, 0xFFC00001, 0x7F800000, 0x00000000, 0x80000000)


def _is_snan(w: int) -> bool:
    return (w >> 23) & 0xFF == 0xFF and w & 0x7FFFFF != 0 and not (w >> 22) & 1


def _step(current, candidate) -> tuple[object, bool]:
    """One TMAX step: NV when a signalling NaN takes part; its value is no longer one."""
    nv = current == "snan" or candidate == "snan"
    return ("done" if nv else candidate), nv


def reference(words: list[list[int]], f: Fpatr, rin: list[int] | None) -> int:
    kind = [["snan" if _is_snan(w) else w for w in row] for row in words]
    nv = False
    for r, row in enumerate(kind):
        if f.row_max_en:
            value = row[0]
            if f.max_abs_en:
                value, n = _step(value, value)
                nv |= n
            for x in row[1:]:
                value, n = _step(value, x)
                nv |= n
            if f.row_max_init:
                assert rin is not None
                _, n = _step("snan" if _is_snan(rin[r]) else rin[r], value)
                nv |= n
        if f.group_max_en:
            g = GROUP_N[f.group_n_code]
            for first in range(0, len(row), g):
                value = row[first]
                if f.max_abs_en:
                    value, n = _step(value, value)
                    nv |= n
                for x in row[first + 1 : first + g]:
                    value, n = _step(value, x)
                    nv |= n
    return NV if nv else 0


@st.composite
def fpatrs(draw) -> Fpatr:
    row, code = draw(st.booleans()), draw(st.sampled_from((0, 0, 1, 1, 2, 3)))
    if not (row or code):
        row = True
    init = row and draw(st.booleans())
    return Fpatr(row_max_en=int(row), group_max_en=int(code != 0), group_n_code=code,
                 row_max_init=int(init), max_abs_en=int(draw(st.booleans())))  # fmt: skip


@settings(max_examples=examples(150), deadline=None)
@given(
    data=st.data(),
    f=fpatrs(),
    m=st.integers(1, 4),
    n=st.sampled_from((1, 2, 3, 7, 8, 9, 16, 17, 33)),
)
def test_reduction_flags_of_m_by_n_accumulators(data, f, m, n):
    # mostly one signalling NaN at a drawn position, so that where it sits decides
    words = [[data.draw(st.sampled_from(OTHERS)) for _ in range(n)] for _ in range(m)]
    for _ in range(data.draw(st.integers(0, 2))):
        words[data.draw(st.integers(0, m - 1))][data.draw(st.integers(0, n - 1))] = data.draw(
            st.sampled_from(SNANS)
        )
    rin = [data.draw(st.sampled_from(SNANS + OTHERS)) for _ in range(m)] if f.row_max_init else None
    acc = np.array(words, np.uint32).view(np.float32)
    rin_arr = None if rin is None else np.array(rin, np.uint32).view(np.float32).reshape(m, 1)
    assert reduction_flags(acc, f, rin_arr) == reference(words, f, rin)
    if m == 1:  # one row given 1-D: the same steps
        assert reduction_flags(acc.reshape(-1), f, rin_arr) == reference(words, f, rin)


def test_one_column_rows_take_no_step():
    """M x 1 with a signalling NaN: RowMax has no step in any row (no MaxAbsEn, no input);
    read as one 1 x M row it would have M - 1."""
    acc = np.array([[0x3F800000], [SNANS[0]], [0x3F800000]], np.uint32).view(np.float32)
    assert reduction_flags(acc, Fpatr(row_max_en=1), None) == 0
    assert reduction_flags(acc, Fpatr(row_max_en=1, max_abs_en=1), None) == NV
    rin = np.ones((3, 1), np.float32)
    assert reduction_flags(acc, Fpatr(row_max_en=1, row_max_init=1), rin) == NV
    assert reduction_flags(acc[:, :1].T.copy(), Fpatr(row_max_en=1), None) == NV  # 1 x 3


def test_s32_int_min_in_any_row():
    acc = np.array([[3, 4], [-(2**31), 0]], np.int32)
    assert reduction_flags(acc, Fpatr(row_max_en=1, max_abs_en=1), None) == OF
    assert reduction_flags(acc, Fpatr(group_max_en=1, group_n_code=1, max_abs_en=1), None) == OF
    assert reduction_flags(acc, Fpatr(row_max_en=1), None) == 0
