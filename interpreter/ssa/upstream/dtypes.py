"""MLIR element types <-> numpy / ml_dtypes dtypes for the upstream interpreter.

Values at run time (see :mod:`interpreter.ssa.upstream`):

* a ranked tensor is a C-contiguous ``np.ndarray`` whose dtype is :func:`dtype_for` of its
  element type;
* a scalar is a numpy scalar of that dtype (``np.float32``, ``ml_dtypes.bfloat16``,
  ``np.int32``...), ``i1`` is ``np.bool_`` and ``index`` is ``np.int64``.

Signless integers are stored as two's complement in the **signed** numpy type of their
width; ops that read them as unsigned (``remui``, ``cmpi ult``, ``uitofp``...) view the
bits as the unsigned type. Widths other than 1, 8, 16, 32 and 64 are not supported.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects import builtin
from xdsl.ir import Attribute

__all__ = [
    "UnsupportedTypeError",
    "dtype_for",
    "element_type",
    "int_width",
    "is_float_type",
    "is_int_type",
    "signed_dtype",
    "unsigned_dtype",
    "ML_DTYPES_FLOAT_NAMES",
]

_FLOAT_DTYPES: dict[str, np.dtype[Any]] = {
    "f16": np.dtype(np.float16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E4M3": np.dtype(ml_dtypes.float8_e4m3),
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn),
    "f8E5M2FNUZ": np.dtype(ml_dtypes.float8_e5m2fnuz),
    "f8E4M3FNUZ": np.dtype(ml_dtypes.float8_e4m3fnuz),
    "f8E4M3B11FNUZ": np.dtype(ml_dtypes.float8_e4m3b11fnuz),
    "f8E3M4": np.dtype(ml_dtypes.float8_e3m4),
    "f8E8M0FNU": np.dtype(ml_dtypes.float8_e8m0fnu),
    "f6E2M3FN": np.dtype(ml_dtypes.float6_e2m3fn),
    "f6E3M2FN": np.dtype(ml_dtypes.float6_e3m2fn),
    "f4E2M1FN": np.dtype(ml_dtypes.float4_e2m1fn),
}

ML_DTYPES_FLOAT_NAMES = frozenset(
    name for name, dt in _FLOAT_DTYPES.items() if dt.type.__module__.startswith("ml_dtypes")
)
"""MLIR float type names whose numpy dtype comes from ml_dtypes (no native numpy type)."""

_SIGNED = {
    8: np.dtype(np.int8),
    16: np.dtype(np.int16),
    32: np.dtype(np.int32),
    64: np.dtype(np.int64),
}
_UNSIGNED = {
    8: np.dtype(np.uint8),
    16: np.dtype(np.uint16),
    32: np.dtype(np.uint32),
    64: np.dtype(np.uint64),
}

INDEX_WIDTH = 64
"""The interpreter's ``index`` width (values are ``np.int64``)."""


class UnsupportedTypeError(TypeError):
    """An MLIR type the numpy interpreter cannot represent."""


def element_type(t: Attribute) -> Attribute:
    """The element type of a shaped type, or the type itself."""
    return t.get_element_type() if isinstance(t, builtin.ShapedType) else t


def is_float_type(t: Attribute) -> bool:
    return isinstance(element_type(t), builtin.AnyFloat)


def is_int_type(t: Attribute) -> bool:
    return isinstance(element_type(t), builtin.IntegerType | builtin.IndexType)


def int_width(t: Attribute) -> int:
    """Bit width of an integer / index (element) type."""
    e = element_type(t)
    if isinstance(e, builtin.IndexType):
        return INDEX_WIDTH
    if isinstance(e, builtin.IntegerType):
        return e.width.data
    raise UnsupportedTypeError(f"{t} is not an integer type")


def signed_dtype(width: int) -> np.dtype[Any]:
    if width == 1:
        return np.dtype(np.bool_)
    try:
        return _SIGNED[width]
    except KeyError:
        raise UnsupportedTypeError(f"integer width {width} is not supported") from None


def unsigned_dtype(width: int) -> np.dtype[Any]:
    if width == 1:
        return np.dtype(np.bool_)
    try:
        return _UNSIGNED[width]
    except KeyError:
        raise UnsupportedTypeError(f"integer width {width} is not supported") from None


def dtype_for(t: Attribute) -> np.dtype[Any]:
    """The numpy dtype holding values of ``t`` (or of its elements, for a shaped type)."""
    e = element_type(t)
    if isinstance(e, builtin.IndexType):
        return np.dtype(np.int64)
    if isinstance(e, builtin.IntegerType):
        return signed_dtype(e.width.data)
    if isinstance(e, builtin.AnyFloat):
        name = e.name
        if name in _FLOAT_DTYPES:
            return _FLOAT_DTYPES[name]
    raise UnsupportedTypeError(f"type {e} has no numpy representation in the interpreter")
