"""TGEMV_MX_BIAS (CUBE function 21): a thin wrapper of :func:`.cube.cube_matrix`.

D[0,j] = sum_k (A[k] sA[k//32]) (B[k,j] sB[k//32,j]) + Bias[j] (PTO-SPEC 4, D1-D5), then
B.FPATR post-processing (PTO-SPEC 3.3, :mod:`.postprocess`). Operand conventions, the
numeric profiles (D4) and the result layout are those of :mod:`.cube`; the only
differences are the positional ``bias, a_scale, b_scale`` and that an omitted Bias means
zeros. Result: D (1, N), or ``(D, row_max (1, 1), group_max (1, ceil(N/GroupN)))`` with only
the enabled reductions.
"""

from __future__ import annotations

import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.postprocess import Fpatr

from .cube import cube_matrix
from .profiles import PROFILES

__all__ = ["PROFILES", "tgemv_mx_bias"]


def tgemv_mx_bias(
    a,
    b,
    bias=None,
    a_scale=None,
    b_scale=None,
    *,
    a_type: TileDataType | str | None = None,
    b_type: TileDataType | str | None = None,
    packed: bool = False,
    fpatr: Fpatr | None = None,
    rmode: int | str = "default",
    sat: bool = False,
    quant=None,
    prelu=None,
    quant_scalar=None,
    lrelu_scalar=None,
    row_max_in=None,
    profile: str = "ordered",
):
    """TGEMV_MX_BIAS on plain arrays (``cube_matrix(21, ...)``); faults are PTOFault."""
    if bias is None:
        n = np.shape(b)[-1] * (2 if packed and np.asarray(b).dtype == np.uint8 else 1)
        bias = np.zeros(n, np.float32)
    return cube_matrix(
        21, a, b, bias=bias, a_scale=a_scale, b_scale=b_scale, a_type=a_type, b_type=b_type,
        packed=packed, fpatr=fpatr, rmode=rmode, sat=sat, quant=quant, prelu=prelu,
        quant_scalar=quant_scalar, lrelu_scalar=lrelu_scalar, row_max_in=row_max_in,
        profile=profile,
    )
