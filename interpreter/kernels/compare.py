"""Compare and select kernels: TCMP, TCMPS (predicate results) and TSEL, TSELS.

``asl/tile/model/execution/comparison.asl``; one vectorised numpy expression per op.

Predicate payloads are held unpacked: a ``bool`` array of the physical ``rows x cols`` shape,
element ``(r, c)`` being logical predicate ``i = r * cols + c``. :func:`pack_predicate` gives
the architectural packed bytes (bit ``i mod 8`` of byte ``floor(i / 8)``, low indices in low
bits, ``TileInfoWithPredicateBit``) and :func:`unpack_predicate` reads them back.

* Comparison (``TileCompareElement``): integers by signed or unsigned value; floats
  (``TileProfileFloatingCompare``): a NaN operand (quiet or signalling) makes EQ LT GT LE GE
  false and NE true, +0 and -0 compare equal, otherwise the numeric order: exactly IEEE
  comparison (numpy compares FP16 / FP32 / FP64 natively, the ml_dtypes
  formats after an exact widening to float32). TF32 / HF32 sources (and the TCMPS scalar,
  ``TileNumericEncodingValid``) with nonzero low bits are Fault_TileLegality before any
  effect. Floating status (the signalling-NaN invalid flag) is not modelled.
* Predicate padding (``PredicateTileWithPadding``): Zero and Min write 0 bits, Max 1 bits, all
  defined; Null leaves the padding undefined.
* Selection: the chosen carrier bits are copied exactly (compared and copied as unsigned
  words, so NaN payloads and signalling NaNs survive); no encoding check
  (``TileOperandsLegal_ExecuteTileSelect`` requires none); numeric PadValue padding (D9).
* Scalars (``TileRawElementValue``): an integer is a raw GPR word whose low element-width bits
  are the encoding; a float must be exactly representable (as in the tile-scalar family).

Kernel signatures (physical payloads in, ``(payload, defined)`` out)::

    tcmp_tile(lhs, rhs, valid, pad, dtype, *, cmode="eq")
    tcmps_tile(src, scalar, valid, pad, dtype, *, cmode="eq")
    tsel_tile(predicate, on_true, on_false, valid, pad, dtype)
    tsels_tile(predicate, on_true, scalar, valid, pad, dtype)
"""

from __future__ import annotations

import numpy as np

from interpreter.kernels.storage import storage_dtype
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import valid_shape_error

from . import status
from .elementwise import check_encodings
from .padding import all_defined, pad_tile, parse_pad
from .tile_scalar import scalar_element

RELATIONS = {
    "eq": np.equal,
    "ne": np.not_equal,
    "lt": np.less,
    "gt": np.greater,
    "le": np.less_equal,
    "ge": np.greater_equal,
}
"""B.DATR CMode (codes 0-5 in this order) -> numpy relation."""
CMODES = tuple(RELATIONS)


def _fault(msg: str, op: str) -> PTOFault:
    return PTOFault(FaultKind.TILE_LEGALITY, msg, op)


def _cmode(cmode) -> str:
    if isinstance(cmode, (int, np.integer)):
        if not 0 <= int(cmode) <= 5:
            raise _fault(f"CMode {int(cmode)} is reserved (codes 0-5 are EQ NE LT GT LE GE)", "TCMP")
        return CMODES[int(cmode)]
    mode = str(getattr(cmode, "value", cmode)).lower()
    if mode not in RELATIONS:
        raise _fault(f"unknown comparison {cmode!r} ({', '.join(CMODES)})", "TCMP")
    return mode


def _valid(shape: tuple[int, int], valid, op: str) -> tuple[int, int]:
    rows, cols = shape
    vr, vc = (rows, cols) if valid is None else valid
    if why := valid_shape_error((vr, vc), (rows, cols)):
        raise _fault(why, op)
    return vr, vc


def _numeric(x, t: TileDataType, what: str, op: str) -> np.ndarray:

    a = np.asarray(x)
    want = storage_dtype(t)
    if a.dtype != want:
        if a.dtype.itemsize == want.itemsize and a.dtype.kind in "ui":
            a = a.view(want)  # raw carriers
        else:
            raise _fault(f"{what} has dtype {a.dtype}, expected {want} for {t.asm}", op)
    if a.ndim != 2:
        raise _fault(f"{what}: tile payloads are 2-D, got {a.shape}", op)
    return a


def compare_values(cmode, left: np.ndarray, right: np.ndarray, t: TileDataType) -> np.ndarray:
    """``TileCompareElement`` on arrays of the tile's carrier (right may broadcast)."""
    rel = RELATIONS[_cmode(cmode)]
    if t.is_float and left.dtype.kind != "f":
        # BF16 / E4M3 / E5M2 (ml_dtypes): widen exactly to float32 first
        with np.errstate(invalid="ignore"):  # signalling NaNs widen quietly (no status model)
            return rel(left.astype(np.float32), np.asarray(right).astype(np.float32))
    return rel(left, right)  # FP16 / FP32 (TF32, HF32 carriers) / FP64 and integers: native


def predicate_padding(bits: np.ndarray, valid: tuple[int, int], pad) -> tuple[np.ndarray, np.ndarray]:
    """``PredicateTileWithPadding``: bits outside ``valid`` <- 0 (Zero, Min), 1 (Max), or
    undefined (Null) -> ``(bits, defined)``."""
    pad = parse_pad(pad)
    vr, vc = valid
    out = bits.copy()
    defined = np.ones(bits.shape, bool)
    fill = pad == "max"
    out[vr:, :] = fill
    out[:vr, vc:] = fill
    if pad == "null":
        defined[vr:, :] = False
        defined[:vr, vc:] = False
    return out, defined


def _compare_tile(left, right_of, valid, pad, t, cmode, op):
    vr, vc = _valid(left.shape, valid, op)
    lv = left[:vr, :vc]
    right = right_of(vr, vc)
    check_encodings(t, ((lv, "source"), (right, "other")), op)
    if status.active() and t.is_float:  # TileProfileFloatingCompare: a signalling NaN is NV
        status.record(status.signalling_nan_flags([lv, np.asarray(right)], t))
    if (vr, vc) == left.shape:  # no padding: every bit is a comparison
        return compare_values(cmode, lv, right, t), all_defined(left.shape)
    bits = np.zeros(left.shape, bool)
    bits[:vr, :vc] = compare_values(cmode, lv, right, t)
    return predicate_padding(bits, (vr, vc), pad)


def tcmp_tile(lhs, rhs, valid=None, pad="null", dtype=None, *, cmode="eq"):
    """TCMP: ``lhs <cmode> rhs`` on the valid rectangle -> ``(predicate bits, defined)``."""
    t = TileDataType.FP32 if dtype is None else TileDataType(dtype)
    left, right = _numeric(lhs, t, "lhs", "TCMP"), _numeric(rhs, t, "rhs", "TCMP")
    if left.shape != right.shape:
        raise _fault(f"operand shapes differ: {left.shape}, {right.shape}", "TCMP")
    return _compare_tile(left, lambda vr, vc: right[:vr, :vc], valid, pad, t, cmode, "TCMP")


def tcmps_tile(src, scalar, valid=None, pad="null", dtype=None, *, cmode="eq"):
    """TCMPS: ``src <cmode> scalar`` (the raw element of the scalar word) -> ``(bits, defined)``."""
    t = TileDataType.FP32 if dtype is None else TileDataType(dtype)
    left = _numeric(src, t, "source", "TCMPS")
    s = scalar_element(scalar, t, left.dtype)
    return _compare_tile(left, lambda vr, vc: s, valid, pad, t, cmode, "TCMPS")


def _select(predicate, on_true, other_of, valid, pad, t, op):
    tv = _numeric(on_true, t, "on_true", op)
    p = np.asarray(predicate)
    if p.dtype != np.bool_ or p.shape != tv.shape:
        raise _fault(f"predicate must be a bool array of shape {tv.shape}, got {p.dtype} "
                     f"{p.shape}", op)  # fmt: skip
    vr, vc = _valid(tv.shape, valid, op)
    u = f"u{tv.dtype.itemsize}"
    chosen = np.where(p[:vr, :vc], tv[:vr, :vc].view(u), other_of(vr, vc, tv.dtype).view(u))
    if (vr, vc) == tv.shape:
        return chosen.view(tv.dtype), all_defined(tv.shape)
    out = np.zeros(tv.shape, tv.dtype)
    out[:vr, :vc] = chosen.view(tv.dtype)
    return pad_tile(out, (vr, vc), pad, t)


def tsel_tile(predicate, on_true, on_false, valid=None, pad="null", dtype=None):
    """TSEL: ``predicate ? on_true : on_false`` (exact encodings) -> ``(payload, defined)``."""
    t = TileDataType.FP32 if dtype is None else TileDataType(dtype)
    fv = _numeric(on_false, t, "on_false", "TSEL")
    if fv.shape != np.shape(on_true):
        raise _fault(f"operand shapes differ: {np.shape(on_true)}, {fv.shape}", "TSEL")
    return _select(predicate, on_true, lambda vr, vc, _d: fv[:vr, :vc], valid, pad, t, "TSEL")


def tsels_tile(predicate, on_true, scalar, valid=None, pad="null", dtype=None):
    """TSELS: ``predicate ? on_true : scalar`` (exact encodings) -> ``(payload, defined)``."""
    t = TileDataType.FP32 if dtype is None else TileDataType(dtype)
    return _select(predicate, on_true, lambda vr, vc, d: scalar_element(scalar, t, d), valid,
                   pad, t, "TSELS")  # fmt: skip


def pack_predicate(bits: np.ndarray) -> np.ndarray:
    """The packed predicate bytes of a ``rows x cols`` bit array: logical index
    ``i = r * cols + c`` in bit ``i mod 8`` of byte ``i // 8`` (``ceil(rows*cols/8)`` bytes)."""
    return np.packbits(np.asarray(bits, bool).reshape(-1), bitorder="little")


def unpack_predicate(data: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Inverse of :func:`pack_predicate`: the ``shape`` bit array of packed bytes ``data``."""
    n = shape[0] * shape[1]
    bits = np.unpackbits(np.asarray(data, np.uint8), bitorder="little")[:n]
    return bits.astype(bool).reshape(shape)


COMPARE_SELECT_KERNELS = {
    "TCMP": tcmp_tile,
    "TCMPS": tcmps_tile,
    "TSEL": tsel_tile,
    "TSELS": tsels_tile,
}
"""Mnemonic -> kernel of the compare-and-select family."""
