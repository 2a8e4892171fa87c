"""The kernel API checks operand legality like the verifier does (issue 23, item 4).

``local_tile`` takes plain arrays, so the rules the dialect checks on tile types must be
checked on the arrays: before the fix ``local_tile('TPARTADD', ...)`` returned uninitialised
memory for a destination element neither source covers, TROWSUM of 0 valid rows an empty
array and TROWMAX of 0 valid columns numpy's ValueError. Now each is a PTOFault
[TileLegality]. The expected decision is written independently here, as the ASL states it
(``TilePartialCoverageLegal`` loops over every destination coordinate,
``asl/tile/model/legality/allocation-capacity.asl``; ``TileOperandsLegal_ExecuteTileReduction``
refuses ``valid_rows == 0`` or ``valid_columns == 0``,
``asl/tile/model/legality/reduction-and-expansion.asl``). Every kernel entry point with a
valid shape shares one check (``pto_dialect.geometry.valid_shape_error``).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import KERNELS, local_tile, tcvt_tile, texpands_tile
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import PTOFault
from tests.budget import examples

PARTIAL = ["TPARTADD", "TPARTMUL", "TPARTMAX", "TPARTMIN"]
REDUCTIONS = [f"T{axis}{op}" for axis in ("ROW", "COL")
              for op in ("SUM", "PROD", "MAX", "MIN", "ARGMAX", "ARGMIN")]  # fmt: skip


def asl_partial_coverage_legal(left, right, dest) -> bool:
    """``TilePartialCoverageLegal`` as the ASL writes it: sizes, then every coordinate."""
    (lr, lc), (rr, rc), (dr, dc) = left, right, dest
    if lr > dr or lc > dc or rr > dr or rc > dc:
        return False
    for row in range(dr):
        for col in range(dc):
            if not (row < lr and col < lc) and not (row < rr and col < rc):
                return False
    return True


shape = st.tuples(st.integers(1, 4), st.integers(1, 4))


@settings(max_examples=examples(80), deadline=None)
@given(op=st.sampled_from(PARTIAL), left=shape, right=shape, dest=shape)
def test_partial_coverage_matches_the_asl(op, left, right, dest) -> None:
    a = np.arange(1, 1 + left[0] * left[1], dtype=np.float32).reshape(left)
    b = -np.arange(1, 1 + right[0] * right[1], dtype=np.float32).reshape(right)
    if asl_partial_coverage_legal(left, right, dest):
        out = local_tile(op, [a, b], [T.FP32, T.FP32], T.FP32, dest)
        assert out.shape == dest
        # every element comes from a source: a bit copy or the typed step of the two
        only_left = np.zeros(dest, bool)
        only_left[: left[0], : left[1]] = True
        only_left[: right[0], : right[1]] = False
        padded = np.zeros(dest, np.float32)
        padded[: left[0], : left[1]] = a
        assert np.array_equal(out[only_left], padded[only_left])
    else:
        with pytest.raises(PTOFault) as e:
            local_tile(op, [a, b], [T.FP32, T.FP32], T.FP32, dest)
        assert "[TileLegality]" in str(e.value)


def test_issue_partial_example() -> None:
    a = np.ones((2, 3), np.int16)
    b = np.ones((3, 2), np.int16)
    for op in PARTIAL:
        with pytest.raises(PTOFault, match=r"TilePartialCoverageLegal") as e:
            local_tile(op, [a, b], [T.S16, T.S16], T.S16, (3, 3))
        assert "[TileLegality]" in str(e.value)


@pytest.mark.parametrize("op", REDUCTIONS)
@pytest.mark.parametrize("valid", [(0, 4), (3, 0), (0, 0)])
def test_reduction_of_an_empty_source_is_a_fault(op: str, valid: tuple[int, int]) -> None:
    x = np.ones(valid, np.float32)
    dst = T.S32 if "ARG" in op else T.FP32
    dst_valid = (valid[0], 1) if op.startswith("TROW") else (1, valid[1])
    with pytest.raises(PTOFault) as e:
        local_tile(op, [x], [T.FP32], dst, dst_valid)
    assert "[TileLegality]" in str(e.value)
    assert "must be nonempty" in str(e.value)


def _entry_points(valid):
    x = np.ones((2, 4), np.float32)
    return {
        "TADD": lambda: KERNELS["TADD"](x, x, valid, "null", T.FP32),
        "TABS": lambda: KERNELS["TABS"](x, valid, "null", T.FP32),
        "TADDS": lambda: KERNELS["TADDS"](x, 1.0, valid, "null", T.FP32),
        "TFMA": lambda: KERNELS["TFMA"](x, x, x, valid, "null", T.FP32),
        "TEXPANDS": lambda: texpands_tile(1.0, valid, "null", T.FP32, shape=(2, 4)),
        "TCMP": lambda: KERNELS["TCMP"](x, x, valid, "null", T.FP32),
        "TCVT": lambda: tcvt_tile(x, valid, "null", T.FP32, T.FP16),
    }


@pytest.mark.parametrize("valid", [(0, 4), (2, 0), (3, 4), (2, 5)])
@pytest.mark.parametrize("name", list(_entry_points((1, 1))))
def test_every_entry_point_refuses_an_illegal_valid_shape(name: str, valid) -> None:
    with pytest.raises(PTOFault) as e:
        _entry_points(valid)[name]()
    assert "[TileLegality]" in str(e.value)
    assert "must be nonempty and within 2x4" in str(e.value)
