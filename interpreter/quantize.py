"""MX quantization for interpreter users: numpy in, ml_dtypes arrays out (OCP MX v1.0).

The algorithm lives in :mod:`pto_dialect.mx_quant` (shared with the ``pto-quantize-mx``
pass); this module only converts between its uint8 codes and the array types the kernels
and ``run`` accept (docs/quantization.md).

``quantize_mx(x, fmt, *, axis=-1, packed=False) -> (codes, scales)``
    ``fmt``: ``"E4M3"``/``"mxfp8"``, ``"E5M2"``, ``"E2M1X2"``/``"mxfp4"``, ``"E1M2X2"``,
    ``"E3M2"``, ``"E2M3"``. ``codes`` is an ml_dtypes array of the element type
    (``float8_e4m3fn``, ``float8_e5m2``, ``float4_e2m1fn``, ``float6_*``), or uint8 codes
    where ml_dtypes lacks the type (E1M2X2) or with ``packed=True`` (two X2 codes a byte
    along the last axis); ``scales`` is ``float8_e8m0fnu`` with ``axis`` of length
    ``ceil(n / 32)``.
``dequantize_mx(codes, scales, fmt=None, *, axis=-1, packed=False, n=None) -> float64``
    The inverse; ``fmt`` may be omitted for ml_dtypes codes.

For a GEMV ``y = a @ B`` quantize ``a`` (1, K) along ``axis=-1`` and ``B`` (K, N) along
``axis=0``: the scales then have the shapes ``kernels.tgemv_mx_bias`` takes.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from pto_dialect import mx_quant
from pto_dialect.datatypes import TileDataType

_CODE_DTYPES = {
    TileDataType.E4M3: ml_dtypes.float8_e4m3fn,
    TileDataType.E5M2: ml_dtypes.float8_e5m2,
    TileDataType.E2M1X2: ml_dtypes.float4_e2m1fn,
    TileDataType.E3M2: ml_dtypes.float6_e3m2fn,
    TileDataType.E2M3: ml_dtypes.float6_e2m3fn,
}
_BY_DTYPE = {np.dtype(d): t for t, d in _CODE_DTYPES.items()}


def quantize_mx(x, fmt, *, axis: int = -1, packed: bool = False):
    """``(codes, scales)`` of ``x`` in MX format ``fmt`` along ``axis`` (block 32)."""
    t = mx_quant.element_type(fmt)
    codes, scales = mx_quant.quantize(x, t, axis=axis, packed=packed)
    dtype = _CODE_DTYPES.get(t)
    if dtype is not None and not (packed and t.packed_x2):
        codes = codes.view(dtype)
    return codes, scales.view(ml_dtypes.float8_e8m0fnu)


def dequantize_mx(codes, scales, fmt=None, *, axis: int = -1, packed: bool = False,
                  n: int | None = None) -> np.ndarray:
    """float64 values of MX data; ``fmt`` defaults to the ml_dtypes type of ``codes``."""
    codes = np.asarray(codes)
    if fmt is None:
        fmt = _BY_DTYPE.get(codes.dtype)
        if fmt is None:
            raise ValueError(f"codes of dtype {codes.dtype}: give the MX format name")
    if codes.dtype != np.uint8:
        codes = codes.view(np.uint8)
    scales = np.asarray(scales)
    if scales.dtype != np.uint8:
        scales = scales.view(np.uint8)
    return mx_quant.dequantize(codes, scales, fmt, axis=axis, packed=packed, n=n)


__all__ = ["dequantize_mx", "quantize_mx"]
