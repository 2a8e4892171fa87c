"""CUBE post-processing tables: B.FPATR fields, PreQuantMode, ReluMode, GroupN (PTO-SPEC 3.3).

Pure Python, shared by the verifier, the block encoder and the interpreter kernels.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum

from pto_dialect.datatypes import TileDataType

T = TileDataType


class ParamKind(Enum):
    NONE = "none"
    VECTOR = "vector"  # per-column 1xN U64 parameter tile
    SCALAR = "scalar"  # 64-bit scalar parameter word through B.IOR


class QuantOp(Enum):
    """What a PreQuantMode does to the accumulator value before conversion."""

    CONVERT = "convert"  # plain conversion (NoQuant, F322F16, F322BF16)
    SCALE = "scale"  # multiply by an FP19 scale (+ optional offset), then convert
    SHIFT = "shift"  # arithmetic right shift (S32 modes only)


@dataclass(frozen=True)
class PreQuantMode:
    code: int
    name: str
    acc: TileDataType | None
    """Accumulator class the mode reads: FP32 or S32 (None = any: NoQuant)."""
    out: TileDataType | None
    """Output dtype (None = the accumulator type unchanged)."""
    param: ParamKind
    op: QuantOp
    offset_bits: int = 0
    fixed_rounding: str | None = None
    """'rne' or 'rhb' when the mode fixes its rounding (PTO-SPEC 3.3)."""


_S, _V, _N = ParamKind.SCALAR, ParamKind.VECTOR, ParamKind.NONE
_C, _Q, _SH = QuantOp.CONVERT, QuantOp.SCALE, QuantOp.SHIFT

PRE_QUANT_MODES: dict[int, PreQuantMode] = {
    m.code: m
    for m in [
        PreQuantMode(0, "NoQuant", None, None, _N, _C),
        PreQuantMode(1, "F322F16", T.FP32, T.FP16, _N, _C, fixed_rounding="rne"),
        PreQuantMode(16, "F322BF16", T.FP32, T.BF16, _N, _C, fixed_rounding="rne"),
        # S32-accumulator modes
        PreQuantMode(2, "VREQ8", T.S32, T.S8, _V, _Q, 9),
        PreQuantMode(3, "REQ8", T.S32, T.S8, _S, _Q, 9),
        PreQuantMode(4, "VDEQF16", T.S32, T.FP16, _V, _Q),
        PreQuantMode(5, "DEQF16", T.S32, T.FP16, _S, _Q),
        PreQuantMode(12, "VSHIFTS322S16", T.S32, T.S16, _V, _SH),
        PreQuantMode(13, "SHIFTS322S16", T.S32, T.S16, _S, _SH),
        PreQuantMode(17, "REQ4", T.S32, T.S4X2, _S, _Q, 5),
        PreQuantMode(18, "VREQ4", T.S32, T.S4X2, _V, _Q, 5),
        PreQuantMode(19, "DEQS16", T.S32, T.S16, _S, _Q, 17),
        PreQuantMode(20, "VDEQS16", T.S32, T.S16, _V, _Q, 17),
        PreQuantMode(35, "QS322BF16_PRE", T.S32, T.BF16, _S, _Q),
        PreQuantMode(39, "VQS322BF16_PRE", T.S32, T.BF16, _V, _Q),
        # FP32-accumulator modes
        PreQuantMode(23, "VQF322B8_PRE", T.FP32, T.S8, _V, _Q, 9),
        PreQuantMode(24, "QF322B8_PRE", T.FP32, T.S8, _S, _Q, 9),
        PreQuantMode(25, "QF322HIF8_PRE", T.FP32, T.HIF8, _S, _Q, fixed_rounding="rhb"),
        PreQuantMode(26, "QF322FP8_PRE", T.FP32, T.E4M3, _S, _Q, fixed_rounding="rne"),
        PreQuantMode(27, "QF322F32_PRE", T.FP32, T.FP32, _S, _Q),
        PreQuantMode(28, "VQF322HIF8_PRE", T.FP32, T.HIF8, _V, _Q, fixed_rounding="rhb"),
        PreQuantMode(32, "QF322F16_PRE", T.FP32, T.FP16, _S, _Q, fixed_rounding="rne"),
        PreQuantMode(33, "VQF322F16_PRE", T.FP32, T.FP16, _V, _Q, fixed_rounding="rne"),
        PreQuantMode(34, "QF322BF16_PRE", T.FP32, T.BF16, _S, _Q, fixed_rounding="rne"),
        PreQuantMode(36, "VQF322BF16_PRE", T.FP32, T.BF16, _V, _Q, fixed_rounding="rne"),
        PreQuantMode(37, "VQF322FP8_PRE", T.FP32, T.E4M3, _V, _Q, fixed_rounding="rne"),
        PreQuantMode(38, "VQF322F32_PRE", T.FP32, T.FP32, _V, _Q),
    ]
}
"""Every legal PreQuantMode code (ADR-0085 decision 179); other codes are reserved."""

FP32_ACC_PRE_QUANT_MODES = frozenset(
    c for c, m in PRE_QUANT_MODES.items() if m.acc in (None, T.FP32)
)
"""Modes legal with an FP32 accumulator: {0, 1, 16, 23-28, 32-34, 36-38} (D11)."""

del T


def pre_quant_output_type(code: int, acc: TileDataType) -> TileDataType:
    """The D element type produced by PreQuantMode ``code`` from accumulator ``acc``."""
    mode = PRE_QUANT_MODES[code]
    return acc if mode.out is None else mode.out


class ReluMode(Enum):
    NONE = 0
    RELU = 1
    SCALAR_LRELU = 2  # scalar LReLU / PReLU parameter through B.IOR
    VECTOR_PRELU = 3  # per-column 1xN U64 parameter tile


GROUP_N = (0, 8, 16, 32, 48, 64, 80, 96, 112, 128)
"""GroupNCode 0..9 -> GroupN (PTO-SPEC 3.3); 10..15 are reserved."""


@dataclass(frozen=True)
class Fpatr:
    """The ten B.FPATR fields in assembly order (D11). All default 0 (the "None" form)."""

    pre_quant_mode: int = 0
    relu_mode: int = 0
    group_n_code: int = 0
    row_max_en: int = 0
    group_max_en: int = 0
    row_max_init: int = 0
    max_abs_en: int = 0
    trans_a: int = 0
    trans_b: int = 0
    cscale_en: int = 0

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def as_tuple(self) -> tuple[int, ...]:
        return tuple(getattr(self, n) for n in self.field_names())

    # -- derived facts -------------------------------------------------------
    @property
    def group_n(self) -> int:
        return GROUP_N[self.group_n_code]

    @property
    def pre_quant(self) -> PreQuantMode:
        return PRE_QUANT_MODES[self.pre_quant_mode]

    def reserved_values(self) -> list[str]:
        """Fields holding values that do not decode (Fault_IllegalInstruction, PTO-SPEC 3.3)."""
        bad = []
        if self.pre_quant_mode not in PRE_QUANT_MODES:
            bad.append(f"pre_quant_mode {self.pre_quant_mode} is reserved")
        if self.relu_mode > 3:
            bad.append(f"relu_mode {self.relu_mode} is reserved")
        if self.group_n_code >= len(GROUP_N):
            bad.append(f"group_n_code {self.group_n_code} is reserved")
        return bad

    def consistency_errors(self) -> list[str]:
        """``BundleFPATRFieldsLegal`` violations (Fault_TileLegality, PTO-SPEC 3.3)."""
        errs = []
        if self.row_max_init and not self.row_max_en:
            errs.append("row_max_init requires row_max_en")
        if bool(self.group_max_en) != (self.group_n_code != 0):
            errs.append("group_max_en must be set exactly when group_n_code != 0")
        if self.max_abs_en and not (self.row_max_en or self.group_max_en):
            errs.append("max_abs_en requires row_max_en or group_max_en")
        return errs

    def vector_param_sources(self) -> tuple[str, ...]:
        """Auxiliary Local tile sources in stream order (PTO-SPEC 3.3)."""
        srcs = []
        if self.row_max_en and self.row_max_init:
            srcs.append("row_max_in")
        if self.pre_quant_mode in PRE_QUANT_MODES and self.pre_quant.param is ParamKind.VECTOR:
            srcs.append("quant")
        if self.relu_mode == ReluMode.VECTOR_PRELU.value:
            srcs.append("prelu")
        return tuple(srcs)

    def scalar_params(self) -> tuple[str, ...]:
        """Scalar B.IOR parameters in dense order: quant first, then LReLU."""
        ps = []
        if self.pre_quant_mode in PRE_QUANT_MODES and self.pre_quant.param is ParamKind.SCALAR:
            ps.append("quant_scalar")
        if self.relu_mode == ReluMode.SCALAR_LRELU.value:
            ps.append("lrelu_scalar")
        return tuple(ps)

    def aux_destinations(self) -> tuple[str, ...]:
        outs = []
        if self.row_max_en:
            outs.append("row_max")
        if self.group_max_en:
            outs.append("group_max")
        return tuple(outs)


FPATR_FIELD_WIDTHS: dict[str, int] = {
    "pre_quant_mode": 6,
    "relu_mode": 3,
    "group_n_code": 4,
    "row_max_en": 1,
    "group_max_en": 1,
    "row_max_init": 1,
    "max_abs_en": 1,
    "trans_a": 1,
    "trans_b": 1,
    "cscale_en": 1,
}
"""Encodable width of each B.FPATR field (PTO-SPEC 3.3; CScaleEn's 1 bit per D11)."""
