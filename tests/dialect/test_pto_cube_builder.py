"""The Python builder of the CUBE matrix ops (``CubeMatrixOp.__init__``, issue 27).

D plus at most the two auxiliary destinations B.FPATR enables (row_max, then group_max;
PTO-SPEC 3.3): one to three result types, anything else is a ValueError; when the count
matches the enabled destinations, each result is bound by its role (a group_max-only op
keeps its result in the group_max slot), otherwise positionally.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import test as test_dialect

from pto_dialect.ops import TMatmulOp
from pto_dialect.postprocess import Fpatr

A, B, D, R, G = (test_dialect.TestType(n) for n in "abdrg")


def _build(results, fpatr: Fpatr | None = None) -> TMatmulOp:
    a, b = (test_dialect.TestOp(result_types=[t]).results[0] for t in (A, B))
    return TMatmulOp({"a": a, "b": b}, results, fpatr=fpatr)


@pytest.mark.parametrize("n", [0, 4])
def test_result_count_outside_one_to_three_is_refused(n: int) -> None:
    with pytest.raises(ValueError, match="pto.tmatmul has 1 to 3 results"):
        _build([D, R, G, D][:n])


def test_results_are_bound_by_the_enabled_roles() -> None:
    op = _build([D, R, G], Fpatr(row_max_en=1, group_max_en=1))
    assert (op.d.type, op.row_max.type, op.group_max.type) == (D, R, G)
    op = _build([D, G], Fpatr(group_max_en=1))
    assert op.row_max is None and op.group_max.type == G
    op = _build([D, R], Fpatr(row_max_en=1))
    assert op.row_max.type == R and op.group_max is None
    # no destination enabled: the second result goes positionally to row_max (the verifier
    # names the mismatch)
    op = _build([D, G])
    assert op.row_max.type == G and op.group_max is None
    with pytest.raises(ValueError, match=r"has no operand\(s\) \['x'\]"):
        TMatmulOp({"x": _build([D]).d}, [D])
