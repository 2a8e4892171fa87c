"""The 25 architectural TileDataTypes of PTO (PTO-SPEC 1).

This module is pure Python (no xDSL, no numpy at import time) so that every layer
(dialect, passes, interpreter, ISA encoder) shares exactly one table.

Each row gives the 5-bit ``DataType`` code, the storage width in bits, the numeric
class, whether two logical elements share one byte (packed ``X2``), the
assembly name, and the IR spelling: the MLIR builtin type where one exists, or a
``!pto.`` type for the four formats MLIR lacks (HF32, HiF8, E1M2X2, HiF4X2).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum


class TypeClass(Enum):
    FLOAT = "float"
    SIGNED = "signed"
    UNSIGNED = "unsigned"


@dataclass(frozen=True)
class DataTypeInfo:
    code: int
    asm: str
    """Assembly spelling (PTO-SPEC 7), e.g. ``FP16``, ``E4M3``, ``S32``."""
    bits: int
    """Logical element width in bits (4 for the packed X2 types)."""
    klass: TypeClass
    packed_x2: bool
    ir: str
    """IR spelling: an MLIR builtin type name or a ``!pto.`` type."""
    numpy: str | None
    """numpy / ml_dtypes dtype name for one logical element, or None."""
    carrier_bits: int
    """Bits of storage one element occupies in a row-major tile payload."""


class TileDataType(IntEnum):
    """PTO TileDataType codes (PTO-SPEC 1). Codes 15, 21-23, 29-30 are reserved."""

    FP64 = 0
    FP32 = 1
    TF32 = 2
    HF32 = 3
    FP16 = 4
    BF16 = 5
    HIF8 = 6
    E4M3 = 7
    E5M2 = 8
    E3M2 = 9
    E2M3 = 10
    E2M1X2 = 11
    E1M2X2 = 12
    E8M0 = 13
    HIF4X2 = 14
    S64 = 16
    S32 = 17
    S16 = 18
    S8 = 19
    S4X2 = 20
    U64 = 24
    U32 = 25
    U16 = 26
    U8 = 27
    U4X2 = 28

    # -- table lookups -------------------------------------------------------
    @property
    def info(self) -> DataTypeInfo:
        return _INFO[self]

    @property
    def bits(self) -> int:
        return _INFO[self].bits

    @property
    def klass(self) -> TypeClass:
        return _INFO[self].klass

    @property
    def is_float(self) -> bool:
        return _INFO[self].klass is TypeClass.FLOAT

    @property
    def is_signed(self) -> bool:
        return _INFO[self].klass is TypeClass.SIGNED

    @property
    def is_unsigned(self) -> bool:
        return _INFO[self].klass is TypeClass.UNSIGNED

    @property
    def is_integer(self) -> bool:
        return not self.is_float

    @property
    def packed_x2(self) -> bool:
        return _INFO[self].packed_x2

    @property
    def asm(self) -> str:
        return _INFO[self].asm

    @property
    def ir(self) -> str:
        return _INFO[self].ir

    @property
    def accumulator(self) -> TileDataType:
        """``TileMatrixAccumulatorDataType``: signed -> S32, unsigned -> U32, else FP32."""
        if self.is_signed:
            return TileDataType.S32
        if self.is_unsigned:
            return TileDataType.U32
        return TileDataType.FP32

    def numpy_dtype(self):
        """The numpy / ml_dtypes dtype of one logical element, or None if none exists."""
        name = _INFO[self].numpy
        if name is None:
            return None
        import numpy as np

        if hasattr(np, name):
            return np.dtype(getattr(np, name))
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, name))

    @classmethod
    def from_code(cls, code: int) -> TileDataType:
        """Decode a 5-bit DataType field; raises ValueError for reserved codes / 31."""
        try:
            return cls(code)
        except ValueError:
            raise ValueError(
                f"DataType code {code} is reserved (PTO-SPEC 1)"
                if code != DTYPE_NONE
                else "DataType code 31 is DTYPE_NONE, not a TileDataType (PTO-SPEC 1)"
            ) from None

    @classmethod
    def from_asm(cls, name: str) -> TileDataType:
        try:
            return _BY_ASM[name.upper()]
        except KeyError:
            raise ValueError(f"unknown data type '{name}'") from None

    @classmethod
    def from_ir(cls, name: str) -> TileDataType:
        try:
            return _BY_IR[name]
        except KeyError:
            raise ValueError(f"type '{name}' is not a PTO TileDataType") from None


DTYPE_NONE = 31
"""B.DATR sentinel: inherit the BSTART type (PTO-SPEC 1). Not a TileDataType."""

RESERVED_CODES = frozenset({15, 21, 22, 23, 29, 30})

_F, _S, _U = TypeClass.FLOAT, TypeClass.SIGNED, TypeClass.UNSIGNED
T = TileDataType
_ROWS: list[tuple[TileDataType, str, int, TypeClass, bool, str, str | None, int]] = [
    # type      asm       bits class  x2     IR spelling       numpy             carrier
    (T.FP64, "FP64", 64, _F, False, "f64", "float64", 64),
    (T.FP32, "FP32", 32, _F, False, "f32", "float32", 32),
    (T.TF32, "TF32", 32, _F, False, "tf32", None, 32),
    (T.HF32, "HF32", 32, _F, False, "!pto.hf32", None, 32),
    (T.FP16, "FP16", 16, _F, False, "f16", "float16", 16),
    (T.BF16, "BF16", 16, _F, False, "bf16", "bfloat16", 16),
    (T.HIF8, "HiF8", 8, _F, False, "!pto.hif8", None, 8),
    (T.E4M3, "E4M3", 8, _F, False, "f8E4M3FN", "float8_e4m3fn", 8),
    (T.E5M2, "E5M2", 8, _F, False, "f8E5M2", "float8_e5m2", 8),
    (T.E3M2, "E3M2", 6, _F, False, "f6E3M2FN", "float6_e3m2fn", 8),
    (T.E2M3, "E2M3", 6, _F, False, "f6E2M3FN", "float6_e2m3fn", 8),
    (T.E2M1X2, "E2M1X2", 4, _F, True, "f4E2M1FN", "float4_e2m1fn", 4),
    (T.E1M2X2, "E1M2X2", 4, _F, True, "!pto.e1m2x2", None, 4),
    (T.E8M0, "E8M0", 8, _F, False, "f8E8M0FNU", "float8_e8m0fnu", 8),
    (T.HIF4X2, "HiF4X2", 4, _F, True, "!pto.hif4x2", None, 4),
    (T.S64, "S64", 64, _S, False, "si64", "int64", 64),
    (T.S32, "S32", 32, _S, False, "si32", "int32", 32),
    (T.S16, "S16", 16, _S, False, "si16", "int16", 16),
    (T.S8, "S8", 8, _S, False, "si8", "int8", 8),
    (T.S4X2, "S4X2", 4, _S, True, "si4", None, 4),
    (T.U64, "U64", 64, _U, False, "ui64", "uint64", 64),
    (T.U32, "U32", 32, _U, False, "ui32", "uint32", 32),
    (T.U16, "U16", 16, _U, False, "ui16", "uint16", 16),
    (T.U8, "U8", 8, _U, False, "ui8", "uint8", 8),
    (T.U4X2, "U4X2", 4, _U, True, "ui4", None, 4),
]
del T

_INFO: dict[TileDataType, DataTypeInfo] = {
    t: DataTypeInfo(t.value, asm, bits, k, x2, ir, npn, carrier)
    for (t, asm, bits, k, x2, ir, npn, carrier) in _ROWS
}
assert len(_INFO) == 25 and set(_INFO) == set(TileDataType)

_BY_ASM: dict[str, TileDataType] = {i.asm.upper(): t for t, i in _INFO.items()}
# Accepted aliases on input (LinxISA-style spellings).
_BY_ASM.update(
    {
        "FP8E4M3": TileDataType.E4M3,
        "FP8E5M2": TileDataType.E5M2,
        "FP6E3M2": TileDataType.E3M2,
        "FP6E2M3": TileDataType.E2M3,
        "FP4E2M1X2": TileDataType.E2M1X2,
        "FP4E1M2X2": TileDataType.E1M2X2,
    }
)
_BY_IR: dict[str, TileDataType] = {i.ir: t for t, i in _INFO.items()}

MX_INPUT_TYPES = frozenset(
    {
        TileDataType.FP16,
        TileDataType.BF16,
        TileDataType.E4M3,
        TileDataType.E5M2,
        TileDataType.E2M1X2,
        TileDataType.E1M2X2,
    }
)
"""Legal AType/BType for the MX CUBE functions (PTO-SPEC 1, D2)."""

_T = TileDataType
MATMUL_INPUT_TYPES = frozenset(
    {
        _T.FP32, _T.TF32, _T.HF32, _T.FP16, _T.BF16, _T.HIF8, _T.E4M3, _T.E5M2, _T.E3M2,
        _T.E2M3, _T.E2M1X2, _T.E1M2X2, _T.S16, _T.S8, _T.S4X2, _T.U16, _T.U8, _T.U4X2,
    }
)  # fmt: skip
"""Ordinary (non-MX) matmul inputs (PTO-SPEC 1, ``matrix-shape.asl``); both sides one class."""

MX_UNSCALED_TYPES = frozenset({TileDataType.FP16, TileDataType.BF16})
"""MX input types that carry no E8M0 scale (D2)."""

MX_BLOCK = 32
"""K elements covered by one E8M0 scale (PTO-SPEC 1, D1)."""


def mx_needs_scale(t: TileDataType) -> bool:
    """A side carries an E8M0 scale exactly when its type is not FP16/BF16 (D2)."""
    return t not in MX_UNSCALED_TYPES


SORT_TYPES = frozenset({TileDataType.FP32, TileDataType.FP16})
"""``TileSortDataTypeSupported``: the value types of TSORT and TMRGSORT, for the op verifier
and the block check alike (BF16 is rejected, AVS TSORT-TYPES-001, although the TSORT block
summary names it)."""


VEC_ARITH_TYPES = frozenset(
    {
        TileDataType.FP64,
        TileDataType.FP32,
        TileDataType.TF32,
        TileDataType.HF32,
        TileDataType.FP16,
        TileDataType.BF16,
        TileDataType.E4M3,
        TileDataType.E5M2,
        TileDataType.S64,
        TileDataType.S32,
        TileDataType.S16,
        TileDataType.S8,
        TileDataType.U64,
        TileDataType.U32,
        TileDataType.U16,
        TileDataType.U8,
    }
)
"""ASL ``TileVecArithmeticDataTypeSupported`` (``asl/tile/model/legality/dtype-layout.asl``):
the 16 types of the closed binary schema (TADD TSUB TMUL TDIV TREM TMAX TMIN)."""

TREM_TYPES = VEC_ARITH_TYPES
"""TREM's type set (D6 revised): the ASL executable set ``TileVecArithmeticDataTypeSupported``,
which ``SelectedBundleClosedBinarySchemaLegal`` checks for TREM (AVS
``tile-bound-trem-zero-types-001``: S64 assigned, HiF8 not)."""

TREM_PROSE_TYPES = frozenset(
    {
        TileDataType.S32,
        TileDataType.U32,
        TileDataType.FP32,
        TileDataType.S16,
        TileDataType.U16,
        TileDataType.FP16,
        TileDataType.BF16,
    }
)
"""The seven types of the TREM contract prose (history; D6 revised: the ASL set wins)."""

VEC_INT_TYPES = frozenset(t for t in VEC_ARITH_TYPES if t.is_integer)
"""ASL ``TileVecScalarIntegerDataTypeSupported`` (``asl/tile/model/legality/dtype-layout.asl``):
S64 S32 S16 S8 U64 U32 U16 U8, the set of the bitwise TAND/TOR/TXOR
(``TileBinaryDataTypeSupported``)."""

VEC_FLOAT_TYPES = frozenset(t for t in VEC_ARITH_TYPES if t.is_float)
"""ASL ``TileFloatingElementwiseDataTypeSupported``: FP64 FP32 TF32 HF32 FP16 BF16 E4M3 E5M2,
the set of the SFU unary operations TEXP TLOG TRECIP TSQRT TRSQRT
(``asl/tile/model/execution/unary.asl`` ``TileUnaryDataTypeSupported``)."""
