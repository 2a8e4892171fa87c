"""Kernels of the tile-local TEPL families: reductions, expansions, transpose.

One row per op in :data:`LOCAL_ROWS`; every row is called as
``row.kernel(sources, types, dst_type, dst_valid)`` where ``sources`` are the sources' valid
rectangles (numpy arrays of the interpreter's storage dtype, in B.IOT stream order) and the
result is the destination's valid rectangle. Padding (D9) is written by the caller.

Numerics follow the ASL exactly and reuse the binary family's element operations
(:func:`.elementwise.binary_core`, i.e. the TADD / TMUL / TMAX / TMIN / TSUB / TDIV rows), so
a reduction step or an expansion element is bit-identical to the corresponding TEPL binary
operation (integer width, RNE, NaN choice, signed zeros, TF32/HF32 encodings):

* Reductions (``asl/tile/model/execution/reduction.asl`` ``ExecuteTileReduction``): a typed
  left fold in strictly increasing inner index; SUM starts from +0 (so an all -0 row sums to
  +0), PROD from one, MAX / MIN from the first element (a single-column row copies it
  bit for bit, a NaN payload included). No widening, no reassociation. SUM / PROD of the
  IEEE and integer types use ``ufunc.accumulate`` (a sequential scan, one rounding per step:
  the same arithmetic as the TADD / TMUL rows); the others fold one inner index at a time,
  vectorised across the outer axis.
* Arg reductions: the MAX / MIN fold; the index moves to ``i`` exactly when the step's result
  equals element ``i`` and differs from the accumulator, both as bit patterns
  (``TileReductionStepWithFlags``): equal values keep the lowest index, max(-0, +0) moves to
  the +0, a NaN accumulator is replaced by the next number.
* Expansions (``asl/tile/model/execution/expansion.asl``): COPY is a bit copy of the
  broadcast; ADD SUB MUL DIV MAX MIN are the typed binary operations against the broadcast
  row / column (integer DIV: a zero in the broadcast's valid rectangle is Fault_TileLegality
  before any effect, ``TileBroadcastPayloadNonzero``); EXPDIF is ``exp(src - b)``: the
  subtraction is TSUB of the type (FP16/BF16 -> FP32 pairs widen both operands exactly first),
  the exponential is evaluated in float64 and rounded once to the destination (RNE); NaN
  results are the canonical quiet NaN, exp(-inf) = +0, exp(+inf) = +inf. ASSUMPTION: float64
  ``exp`` is within 1 ulp of float64, so the result is the correctly rounded one except when
  the exact value lies within ~2^-29 (relative) of a rounding boundary of the destination.
* TTRANS: a bit copy of the transposed valid rectangle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault

from .elementwise import BINARY_ROWS, NARROW_FP32, binary_core

T = TileDataType

LocalKernel = Callable[[Sequence[np.ndarray], Sequence[TileDataType], TileDataType, tuple[int, int]], np.ndarray]


@dataclass(frozen=True)
class LocalRow:
    """One tile-local op: its kernel (see the module docstring for the call convention)."""

    mnemonic: str
    kernel: LocalKernel


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(f"u{x.dtype.itemsize}")


_STEP = {"sum": "TADD", "prod": "TMUL", "max": "TMAX", "min": "TMIN", "argmax": "TMAX", "argmin": "TMIN"}
_ACCUMULATE = {"sum": np.add, "prod": np.multiply}


def _fold(reduction: str, x: np.ndarray, t: TileDataType) -> np.ndarray:
    """Fold every row of ``x`` (outer x inner) along the inner axis; returns shape (outer,)."""
    step = BINARY_ROWS[_STEP[reduction]]
    if reduction in ("sum", "prod"):
        init = np.zeros if reduction == "sum" else np.ones
        acc = binary_core(step, init(x.shape[0], x.dtype), np.ascontiguousarray(x[:, 0]), t)
        if x.shape[1] == 1:
            return acc
        if t not in NARROW_FP32:
            with np.errstate(all="ignore"):
                rest = np.concatenate([acc[:, None], x[:, 1:]], axis=1)
                return _ACCUMULATE[reduction].accumulate(rest, axis=1, dtype=rest.dtype)[:, -1]
        for i in range(1, x.shape[1]):
            acc = binary_core(step, acc, np.ascontiguousarray(x[:, i]), t)
        return acc
    acc = np.ascontiguousarray(x[:, 0])
    if t in NARROW_FP32:
        binary_core(step, acc, acc, t)  # the first element's encoding (TileSourceEncodingsValid)
    if reduction in ("max", "min"):
        for i in range(1, x.shape[1]):
            acc = binary_core(step, acc, np.ascontiguousarray(x[:, i]), t)
        return acc
    idx = np.zeros(x.shape[0], np.uint32)
    for i in range(1, x.shape[1]):
        v = np.ascontiguousarray(x[:, i])
        r = binary_core(step, acc, v, t)
        sel = (_bits(r) == _bits(v)) & (_bits(r) != _bits(acc))
        idx[sel] = i
        acc = r
    return idx


def _reduce_kernel(reduction: str, axis: str) -> LocalKernel:
    def kernel(sources, types, dst_type, dst_valid):
        (x,) = sources
        (t,) = types
        inner_major = x if axis == "row" else x.T
        out = _fold(reduction, inner_major, t)
        if reduction.startswith("arg"):
            out = out.astype(dst_type.numpy_dtype())
        return out.reshape(dst_valid)

    return kernel


def _canonical_nan(r: np.ndarray) -> np.ndarray:
    nan = np.isnan(r)
    if nan.any():
        r = r.copy()
        r[nan] = np.nan  # numpy's NaN is the canonical quiet NaN of every PTO float
    return r


def _exp_rounded(x: np.ndarray, dst: np.dtype) -> np.ndarray:
    """exp of a float array, evaluated in float64 and rounded once to ``dst`` (module doc)."""
    with np.errstate(all="ignore"):
        e = np.exp(x.astype(np.float64))
        if dst == np.dtype(np.float64) or dst == np.dtype(np.float32) or dst == np.dtype(np.float16):
            r = e.astype(dst)
        else:  # BF16: round float64 -> bfloat16 directly (RNE on the float64 pattern)
            b = e.view(np.uint64)
            half = np.uint64((1 << 44) - 1)
            rb = ((b + half + ((b >> np.uint64(45)) & np.uint64(1))) >> np.uint64(45) << np.uint64(45))
            r = np.where(np.isfinite(e), rb.view(np.float64), e).astype(np.float32).astype(dst)
    return _canonical_nan(r)


_EXPAND_STEP = {"add": "TADD", "sub": "TSUB", "mul": "TMUL", "div": "TDIV", "max": "TMAX", "min": "TMIN"}


def _expand_kernel(operation: str, axis: str) -> LocalKernel:
    def kernel(sources, types, dst_type, dst_valid):
        b = sources[-1]
        b = b[:, :1] if axis == "row" else b[:1, :]
        bb = np.ascontiguousarray(np.broadcast_to(b, dst_valid))
        if operation == "copy":
            return bb
        src, t = sources[0], types[0]
        if operation == "div" and t.is_integer and not b.all():
            idx = tuple(int(i) for i in np.argwhere(b == 0)[0])
            raise PTOFault(
                FaultKind.TILE_LEGALITY,
                f"integer zero in the broadcast divisor at valid element {idx} "
                "(TileBroadcastPayloadNonzero)",
            )
        if operation != "expdif":
            return binary_core(BINARY_ROWS[_EXPAND_STEP[operation]], src, bb, t)
        if dst_type is not t:  # FP16/BF16 -> FP32: exact widening, then FP32 SUB and EXP
            src, bb, t = src.astype(np.float32), bb.astype(np.float32), T.FP32
        diff = binary_core(BINARY_ROWS["TSUB"], src, bb, t)
        return _exp_rounded(diff, diff.dtype)

    return kernel


def _ttrans(sources, types, dst_type, dst_valid):
    return np.ascontiguousarray(sources[0].T)


def _rows() -> dict[str, LocalRow]:
    from pto_dialect.tile_local import EXPAND_OPS, REDUCE_OPS

    rows = [LocalRow(c.MNEMONIC, _reduce_kernel(c.REDUCTION, c.AXIS)) for c in REDUCE_OPS]
    rows += [LocalRow(c.MNEMONIC, _expand_kernel(c.OPERATION, c.AXIS)) for c in EXPAND_OPS]
    rows.append(LocalRow("TTRANS", _ttrans))
    return {r.mnemonic: r for r in rows}


LOCAL_ROWS: dict[str, LocalRow] = _rows()
"""Tile-local op mnemonic -> its kernel row."""


def local_tile(mnemonic: str, sources, types, dst_type, dst_valid) -> np.ndarray:
    """Run the kernel row ``mnemonic`` (the call convention of the module docstring)."""
    try:
        return LOCAL_ROWS[mnemonic].kernel(sources, types, dst_type, tuple(dst_valid))
    except PTOFault as e:
        raise PTOFault(e.kind, e.message, mnemonic) from None
