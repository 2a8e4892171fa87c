"""Vectorised numpy kernels of the PTO interpreter (one kernel per op, no element loops).

Public API (every fault is a :class:`pto_dialect.faults.PTOFault`; inputs are never
modified):

``trem(dividend, divisor, *, dtype=None, valid=None, pad="null", wide_types=False)``
    TREM floor remainder on plain arrays (PTO-SPEC 5, D6-D9); returns the operands' shape
    and dtype. See :mod:`.elementwise`.
``trem_tile(dividend, divisor, valid, pad="null", dtype=None, *, wide_types=False)``
    The tile-level form: physical payloads, valid (rows, cols), PadValue ->
    ``(payload, defined)``.
``tgemv_mx_bias(a, b, bias=None, a_scale=None, b_scale=None, *, a_type=None, b_type=None,
packed=False, fpatr=None, rmode="default", sat=False, quant=None, prelu=None,
quant_scalar=None, lrelu_scalar=None, row_max_in=None, profile="ordered")``
    TGEMV_MX_BIAS with B.FPATR post-processing (PTO-SPEC 3.3, 4; D1-D5); returns the
    (1, N) D, or ``(D, row_max, group_max)`` with only the enabled reductions. Profiles
    ``"ordered"`` (default, ADR-0047), ``"exact"``, ``"raw-carrier"``, and
    ``"fp32-sequential"`` (alias of ordered). See :mod:`.tgemv`, :mod:`.accumulate`.
``cube_matrix(function, a, b, *, c=None, bias=None, a_scale=None, b_scale=None,
a_type=None, b_type=None, c_type=None, packed=False, fpatr=None, rmode="default", sat=False,
quant=None, prelu=None, quant_scalar=None, lrelu_scalar=None, row_max_in=None,
profile="ordered")``
    Every live CUBE function (codes/names in ``CUBE_FUNCTION_NAMES``): MX or ordinary
    inputs, bias, ACC, GEMV / matmul, S32/U32/FP32 accumulators, post-processing; returns
    D (M x N) or ``(D, row_max, group_max)``. See :mod:`.cube`.
``pad_tile(payload, valid, pad, dtype)``
    PadValue padding -> ``(payload, defined)`` (D9). See :mod:`.padding`.
``decode(x, type=None, *, packed=False)``, ``value_lut(type)``, ``pack_x2``,
``unpack_x2``
    Exact MX / E8M0 decoding (:mod:`.mx`).
``quant_param_word(scale, offset=0, offset_bits=0)``, ``lrelu_param_word(slope)``
    Build the 64-bit post-processing parameter words (PTO-SPEC 3.3).

``unary_tile(row, src, valid, pad="null", dtype=None)``, ``UNARY_ROWS``
    TABS TNEG TNOT TRELU TEXP TLOG TRECIP TSQRT TRSQRT (:mod:`.unary`).
``tile_scalar(mnemonic, src, scalar, valid, pad="null", dtype=None)``, ``TILE_SCALAR_ROWS``
    TADDS ... TSHRS: the binary row with a raw-word scalar (:mod:`.tile_scalar`).
``tcmp_tile``, ``tcmps_tile``, ``tsel_tile``, ``tsels_tile``, ``pack_predicate``,
``unpack_predicate``: compare and select with packed predicate tiles (:mod:`.compare`).
``tfma_tile(lhs, rhs, addend, valid, pad, dtype)``, ``texpands_tile(scalar, valid, pad,
dtype, *, shape)``: TFMA (one rounding) and TEXPANDS (:mod:`.ternary`).
``tcvt_tile(src, valid, pad, src_type, dst_type, *, rmode, sat)``, ``tquant_tile(src,
multiplier, zero_point, valid, dst_type, *, rmode, sat)``, ``tdequant_tile(src, multiplier,
zero_point, valid, src_type, *, rmode)``: TCVT / TQUANT / TDEQUANT (:mod:`.convert`, D20).

``KERNELS`` maps an op mnemonic to its tile-level kernel; ``BINARY_ROWS`` holds the
per-op rows of the generic binary elementwise kernel (TREM, TADD, TSUB, TMUL, TDIV, TMAX,
TMIN; TFMOD is deleted from the catalog, so it has no row).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from .compare import COMPARE_SELECT_KERNELS, pack_predicate, unpack_predicate
from .convert import tcvt_tile, tdequant_tile, tquant_tile
from .cube import CUBE_FUNCTION_NAMES, cube_matrix
from .elementwise import BINARY_ROWS, BinaryRow, binary_tile, trem, trem_tile
from .indexed import INDEXED_KERNELS
from .move import tmov
from .mx import decode, pack_x2, unpack_x2, value_lut
from .padding import pad_tile
from .postprocess import lrelu_param_word, quant_param_word
from .profiles import PROFILES, NumericProfile, numeric_profile
from .ternary import texpands_tile, tfma_tile
from .tgemv import tgemv_mx_bias
from .tile_local import GENERATOR_ROWS, LOCAL_ROWS, LocalRow, local_tile
from .tile_scalar import TILE_SCALAR_ROWS, tile_scalar
from .unary import UNARY_ROWS, UnaryRow, unary_tile

KERNELS: dict[str, Callable] = {
    **{name: partial(binary_tile, row) for name, row in BINARY_ROWS.items()},
    "TREM": trem_tile,
    **{name: partial(unary_tile, row) for name, row in UNARY_ROWS.items()},
    **{name: partial(tile_scalar, name) for name in TILE_SCALAR_ROWS},
    "TFMA": tfma_tile,
    "TEXPANDS": texpands_tile,
    **COMPARE_SELECT_KERNELS,
    "TCVT": tcvt_tile,
    "TQUANT": tquant_tile,
    "TDEQUANT": tdequant_tile,
    **{name: partial(cube_matrix, code) for code, name in CUBE_FUNCTION_NAMES.items()},
    "TGEMV_MX_BIAS": tgemv_mx_bias,
    **{name: partial(local_tile, name) for name in LOCAL_ROWS},
    **GENERATOR_ROWS,
    "TMOV": tmov,
    **INDEXED_KERNELS,
}
"""Op mnemonic -> kernel. Binary elementwise ops take (lhs, rhs, valid, pad, dtype); unary
ops (src, valid, pad, dtype); tile-scalar ops (src, scalar, valid, pad, dtype); CUBE
functions take cube_matrix's arguments after ``function`` (TGEMV_MX_BIAS keeps its
positional ``bias, a_scale, b_scale`` form); the tile-local ops (reductions, expansions,
TTRANS: ``LOCAL_ROWS``) take (sources, types, dst_type, dst_valid) and the generators TCI /
TTRI (``GENERATOR_ROWS``) take (params, dst_type, dst_valid), see :mod:`.tile_local`; TMOV
takes one PE's (payload, defined) and returns the destination's (:mod:`.move`); TCMP /
TCMPS / TSEL / TSELS (``COMPARE_SELECT_KERNELS``) take their tiles (the predicate as a bool
array), the scalar, then (valid, pad, dtype) and, for the comparisons, ``cmode=``, see
:mod:`.compare`."""

__all__ = [
    "BINARY_ROWS",
    "COMPARE_SELECT_KERNELS",
    "CUBE_FUNCTION_NAMES",
    "GENERATOR_ROWS",
    "KERNELS",
    "LOCAL_ROWS",
    "LocalRow",
    "PROFILES",
    "NumericProfile",
    "numeric_profile",
    "TILE_SCALAR_ROWS",
    "UNARY_ROWS",
    "UnaryRow",
    "BinaryRow",
    "binary_tile",
    "cube_matrix",
    "decode",
    "local_tile",
    "lrelu_param_word",
    "pack_predicate",
    "pack_x2",
    "pad_tile",
    "quant_param_word",
    "tcvt_tile",
    "tdequant_tile",
    "texpands_tile",
    "tfma_tile",
    "tgemv_mx_bias",
    "tile_scalar",
    "tquant_tile",
    "unary_tile",
    "trem",
    "trem_tile",
    "unpack_predicate",
    "unpack_x2",
    "value_lut",
]
