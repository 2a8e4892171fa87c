"""AVS pass conditions (D17) about the sticky numeric status flags (``RecordNumericStatusFlags``,
``asl/arch/state/numeric-status.asl``), recorded by :mod:`interpreter.kernels.status`. The
flag checks of the unary, TFMA and MAX / MIN tests live with their value checks
(test_avs_elementwise.py, test_avs_operand_contracts.py)."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs, avs_units
from interpreter import kernels
from interpreter.kernels.status import NV, NX, OF, NumericStatus, recording
from pto_dialect.datatypes import TileDataType as T


@avs("PTO-AVS-TILE-TMRGSORT-SNAN-001")
def test_tmrgsort_merges_a_signalling_nan_after_numbers_and_records_nv():
    """FP32 left [sNaN 0x7F800001], right [1.0], ascending: the sNaN stays mergeable, follows
    the number with its payload kept, and the merge records exactly NV."""
    left = np.array([[0x7F800001]], np.uint32).view(np.float32)
    right = np.array([[1.0]], np.float32)
    with recording() as st:
        out = kernels.KERNELS["TMRGSORT"]([left, right], [T.FP32, T.FP32], T.FP32, (1, 2),
                                          params=(0,))  # fmt: skip
    assert [int(v) for v in out.view(np.uint32)[0]] == [0x3F800000, 0x7F800001]
    assert st.bits == NV
    with recording() as quiet:  # a quiet NaN is merged the same way without status
        kernels.KERNELS["TMRGSORT"]([np.float32([[np.nan]]), right], [T.FP32, T.FP32], T.FP32,
                                    (1, 2), params=(0,))  # fmt: skip
    assert quiet.bits == 0


@avs("PTO-AVS-TILE-TCVT-FLAGS-001")
def test_tcvt_ors_its_flags_into_the_sticky_status_at_publication():
    """The commit boundary ORs the conversion's flags into the sticky status (an earlier OF
    stays) and publishes the converted payload: FP32 0.1 -> FP16 is inexact (NX)."""
    with recording(NumericStatus(OF)) as st:
        out, dfn = kernels.KERNELS["TCVT"](np.float32([[0.1]]), None, "null", T.FP32, T.FP16)
    assert st.bits == OF | NX
    assert int(out.view(np.uint16)[0, 0]) == 0x2E66 and dfn.all()  # RNE(0.1) in FP16


@pytest.mark.parametrize(("bits", "want"), [
    (0x3F800000, 0), (0x3FC00000, NX), (0, NV), (0xBF800000, NV), (0x7FC00000, NV),
    (0x7F800000, OF | NX), (0x00000001, 0x18), (0x7F400000, OF | NX),
])  # fmt: skip
def test_e8m0_conversion_flags_follow_the_reference(bits, want):
    """ReferenceFloatToE8M0 (asl/arch/profile/e8m0-conversion.asl): 1.0 exact; 1.5 NX; zero,
    negative and NaN NV; +inf OF|NX; 2^-149 (floor exponent < -127) UF|NX; 1.5 x 2^127
    (floor exponent 127 with a fraction) OF|NX."""
    x = np.array([[bits]], np.uint32).view(np.float32)
    with recording() as st:
        kernels.KERNELS["TCVT"](x, None, "null", T.FP32, T.E8M0)
    assert st.bits == want


STATIC_UNITS = {
    "PTO-AVS-TILE-MODEL-NUMERIC-EXCEPTIONS-STATIC-001": "interpreter.kernels.status:NumericStatus",
}
"""The unit ``asl/tile/model/numeric/exceptions.asl`` (numeric exceptions use the fault and
numeric-classification contracts) is modelled by the status module."""


test_static_unit = avs_units(STATIC_UNITS)
