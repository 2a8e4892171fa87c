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
  vectorised across the outer axis. With the compiled engine (:mod:`.jit`) FP32 / FP16 /
  BF16 SUM / PROD and ARGMAX / ARGMIN run :mod:`.reduce_jit`'s loops, the same bits.
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
* Numeric status flags (when a run records them): a reduction ORs every step's
  ``TileReductionStepWithFlags`` (:func:`fold_flags`), an expansion every element's binary
  flags (EXPDIF: the SUB's and the EXP's); COPY, TTRANS and TCONCAT record nothing.
* TTRANS: a bit copy of the transposed valid rectangle; TCONCAT: the two valid rectangles
  side by side (bit copies).
* TPART ADD / MUL / MAX / MIN (``ExecuteTilePartial``): the typed binary step where both
  origin-anchored sources cover a coordinate, a bit copy where only one does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import partial_coverage_error, valid_shape_error
from pto_dialect.tile_local import EXPAND_OPS, GENERATOR_OPS, PARTIAL_OPS, REDUCE_OPS

from . import jit, rearrange, status
from .elementwise import BINARY_ROWS, LOW_ZERO_MASK, NARROW_FP32, binary_core

T = TileDataType

LocalKernel = Callable[[Sequence[np.ndarray], Sequence[TileDataType], TileDataType, tuple[int, int]], np.ndarray]


@dataclass(frozen=True)
class LocalRow:
    """One tile-local op: its kernel (see the module docstring for the call convention)."""

    mnemonic: str
    kernel: LocalKernel
    physical: bool = False
    """The kernel also takes ``dst_shape=`` and returns the whole physical destination, every
    element defined (TFILLPAD)."""
    params: bool = False
    """The kernel also takes ``params=`` (the op's B.IOR words; zeros when omitted)."""
    whole: bool = False
    """The kernel takes each source's whole physical payload (not its valid rectangle) and
    ``defined=`` their definedness masks, and checks the elements it reads (TIMG2COL)."""


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(f"u{x.dtype.itemsize}")


_REDUCE_UFUNC = {"sum": np.add, "prod": np.multiply}
_NUMPY_FLOATS = frozenset({T.FP64, T.FP32, T.FP16})
_JIT_TYPES = frozenset({T.FP32, T.FP16, T.BF16})
"""SUM / PROD folds that run compiled when :func:`.jit.compiled` (``reduce_jit.COVERED``)."""


def _check_encodings(x: np.ndarray, t: TileDataType) -> None:
    """TF32/HF32 sources: every valid element's low bits zero (TileSourceEncodingsValid)."""
    if t in NARROW_FP32 and x.size:
        mask = LOW_ZERO_MASK[t]
        bad = (x.view(np.uint32) & mask) != 0
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise PTOFault(FaultKind.TILE_LEGALITY, f"source: {t.asm} element at {idx} has "
                           f"nonzero low bits ({t.asm}EncodingValid)")  # fmt: skip


def _reduce_jit():
    from . import reduce_jit  # numba: loaded on the first compiled reduction only

    return reduce_jit


def _sum_prod(reduction: str, x: np.ndarray, t: TileDataType, ax: int) -> np.ndarray:
    """Typed SUM / PROD fold along ``ax``, increasing index (module docstring)."""
    if jit.compiled() and t in _JIT_TYPES:
        with np.errstate(all="ignore"):
            r = _reduce_jit().fold(reduction, x, t, ax)
        if r is not None:
            return r
    uf = _REDUCE_UFUNC[reduction]
    with np.errstate(all="ignore"):
        if t.is_integer:
            # Wrapping + and * are associative and commutative modulo 2^n: every order gives
            # the sequential fold's bits.
            return uf.reduce(x, axis=ax, dtype=x.dtype)
        if t in NARROW_FP32:  # FP32 carriers rounded to TF32 / HF32 after every step
            return _narrow_steps(reduction, x if ax == 1 else x.T, t)[-1]
        # IEEE types with numpy / ml_dtypes loops: one rounding per step (FP16, BF16, E4M3
        # and E5M2 compute in float32 and round back, as the TADD / TMUL rows do).
        other = x.shape[1 - ax]
        if ax == 0 and other > 1:
            # Reducing the outer axis of a C-ordered array adds whole rows in increasing
            # order (elementwise inner loops, no pairwise blocking).
            r = uf.reduce(x, axis=0)
        else:
            r = uf.accumulate(x, axis=ax)[(slice(None), -1) if ax == 1 else (-1, slice(None))]
        # The fold starts from +0 (SUM) / one (PROD); starting from the first element differs
        # only for an all -0 line, whose sum is +0: adding +0 fixes exactly that.
        return r + r.dtype.type(0) if reduction == "sum" else r


def _narrow_steps(reduction: str, xs: np.ndarray, t: TileDataType) -> list[np.ndarray]:
    """The TF32 / HF32 SUM / PROD fold of each row of ``xs`` from +0 / one: the accumulator
    after each inner index (TADD / TMUL steps, vectorised across the rows)."""
    step = BINARY_ROWS["TADD" if reduction == "sum" else "TMUL"]
    acc = (np.zeros if reduction == "sum" else np.ones)(xs.shape[0], xs.dtype)
    out = []
    for i in range(xs.shape[1]):
        acc = binary_core(step, acc, np.ascontiguousarray(xs[:, i]), t)
        out.append(acc)
    return out


def fold_flags(reduction: str, x: np.ndarray, t: TileDataType, ax: int) -> int:
    """``ExecuteTileReduction``'s flags: the OR of every ``TileReductionStepWithFlags``.
    SUM / PROD step from +0 / one through every element (IEEE ADD / MUL flags of each step
    on the partial results); MAX / MIN / ARG* start from the first element, so a line of one
    element takes no step, otherwise a signalling NaN anywhere is NV."""
    if not t.is_float:
        return 0
    xs = x if ax == 1 else x.T
    if reduction not in ("sum", "prod"):
        return status.signalling_nan_flags([xs], t) if xs.shape[1] > 1 else 0
    with np.errstate(all="ignore"):
        if t in NARROW_FP32:
            partial = np.stack(_narrow_steps(reduction, xs, t), axis=1)
        else:
            partial = _REDUCE_UFUNC[reduction].accumulate(xs, axis=1)
        prev = np.empty_like(partial)
        prev[:, 0] = 0 if reduction == "sum" else 1
        prev[:, 1:] = partial[:, :-1]
    return status.binary_flags("ADD" if reduction == "sum" else "MUL", prev, xs, partial, t)


def _as_float(x: np.ndarray, t: TileDataType) -> np.ndarray:
    """Values of a float tile as a numpy float array (exact: float32 holds BF16/FP8)."""
    return x if t in _NUMPY_FLOATS or t in NARROW_FP32 else x.astype(np.float32)


def _nan_neutral(xf: np.ndarray, is_max: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """``xf`` with every NaN (quiet or signalling) replaced by -inf (MAX) / +inf (MIN), and
    the NaN mask (None when there is none). A MAX / MIN step with one NaN operand returns the
    other operand (``HardwareNumericMinMaxSpecial``), so a NaN never takes over the fold: the
    neutral infinity gives the same result unless every element so far is a NaN, which the
    callers set to the canonical NaN. (``np.fmax`` / ``np.fmin`` return a quieted NaN for a
    signalling NaN operand instead of the other one.)"""
    nan = np.isnan(xf)
    if not nan.any():
        return xf, None
    return np.where(nan, xf.dtype.type(-np.inf if is_max else np.inf), xf), nan


def _minmax(reduction: str, x: np.ndarray, t: TileDataType, ax: int) -> np.ndarray:
    """MAX / MIN fold (TMAX / TMIN steps; they commute, so any order is the fold)."""
    is_max = reduction.endswith("max")
    if x.shape[ax] == 1:  # no step: the first element, bit for bit
        return np.take(x, 0, axis=ax).copy()
    if t.is_integer:
        return (np.max if is_max else np.min)(x, axis=ax)
    xf, nan = _nan_neutral(_as_float(x, t), is_max)
    r = (np.max if is_max else np.min)(xf, axis=ax)
    if nan is not None:  # an all-NaN line: its steps give the canonical NaN
        r[nan.all(axis=ax)] = np.nan
    zero = r == 0
    if zero.any():  # max(+0, -0) = +0, min(+0, -0) = -0, whatever the order
        z = xf == 0
        want_neg = (z & np.signbit(xf)).any(axis=ax) if not is_max else ~(z & ~np.signbit(xf)).any(axis=ax)
        r = np.where(zero, np.where(want_neg, -0.0, 0.0).astype(r.dtype), r)
    return r.astype(x.dtype)


def _argminmax(reduction: str, x: np.ndarray, t: TileDataType, ax: int) -> np.ndarray:
    """ARGMAX / ARGMIN: the index moves where the running fold's value equals the element
    and differs from the previous fold value, as bit patterns (module docstring)."""
    if jit.compiled() and t in _JIT_TYPES:
        return _reduce_jit().arg_fold(reduction, x, t, ax)
    is_max = reduction.endswith("max")
    if t.is_integer:  # bit equality is value equality: the first occurrence of the extreme
        return (np.argmax if is_max else np.argmin)(x, axis=ax).astype(np.uint32)
    xs = x if ax == 1 else x.T
    xf, nan = _nan_neutral(_as_float(xs, t), is_max)
    p = (np.maximum if is_max else np.minimum).accumulate(xf, axis=1)
    if nan is not None:  # an all-NaN prefix: the canonical NaN (the first element is set below)
        p[np.logical_and.accumulate(nan, axis=1)] = np.nan
    z = xf == 0
    seen = np.logical_or.accumulate(z & (~np.signbit(xf) if is_max else np.signbit(xf)), axis=1)
    want_neg = ~seen if is_max else seen
    p = np.where(p == 0, np.where(want_neg, -0.0, 0.0).astype(p.dtype), p)
    p = p.astype(xs.dtype)
    p[:, 0] = xs[:, 0]  # the fold starts from the first element, bit for bit
    pb, vb = _bits(p), _bits(np.ascontiguousarray(xs))
    sel = np.zeros(p.shape, bool)
    sel[:, 1:] = (pb[:, 1:] == vb[:, 1:]) & (pb[:, 1:] != pb[:, :-1])
    last = p.shape[1] - 1 - np.argmax(sel[:, ::-1], axis=1)
    return np.where(sel.any(axis=1), last, 0).astype(np.uint32)


def _fold(reduction: str, x: np.ndarray, t: TileDataType, ax: int) -> np.ndarray:
    """Reduce ``x`` along ``ax`` (1: each row, 0: each column); shape of the other axis."""
    _check_encodings(x, t)
    if reduction in ("sum", "prod"):
        return _sum_prod(reduction, x, t, ax)
    if reduction in ("max", "min"):
        return _minmax(reduction, x, t, ax)
    return _argminmax(reduction, x, t, ax)


def _reduce_kernel(reduction: str, axis: str) -> LocalKernel:
    def kernel(sources, types, dst_type, dst_valid):
        (x,) = sources
        (t,) = types
        out = _fold(reduction, x, t, 1 if axis == "row" else 0)
        if status.active():  # ExecuteTileReduction records the OR of its steps' flags
            status.record(fold_flags(reduction, x, t, 1 if axis == "row" else 0))
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
        if operation == "copy":
            return np.ascontiguousarray(np.broadcast_to(b, dst_valid))
        # The binary rows broadcast the one-column / one-row operand themselves (numpy
        # broadcasting), so the broadcast tile is never materialised.
        bb = b
        src, t = sources[0], types[0]
        if operation == "div" and t.is_integer and not b.all():
            idx = tuple(int(i) for i in np.argwhere(b == 0)[0])
            raise PTOFault(
                FaultKind.TILE_LEGALITY,
                f"integer zero in the broadcast divisor at valid element {idx} "
                "(TileBroadcastPayloadNonzero)",
            )
        if operation != "expdif":
            r = binary_core(BINARY_ROWS[_EXPAND_STEP[operation]], src, bb, t)
            if status.active():  # ExecuteTileExpand: TileProfileBinaryWithFlags per element
                status.record(status.binary_flags(operation.upper(), src,
                                                  np.broadcast_to(bb, src.shape), r, t))  # fmt: skip
            return r
        if dst_type is not t:  # FP16/BF16 -> FP32: exact widening, then FP32 SUB and EXP
            src, bb, t = src.astype(np.float32), bb.astype(np.float32), T.FP32
            if status.active():  # ExactWidenFP16ToFP32 makes every NaN quiet: no NV
                src, bb = _canonical_nan(src), _canonical_nan(bb)
        diff = binary_core(BINARY_ROWS["TSUB"], src, bb, t)
        r = _exp_rounded(diff, diff.dtype)
        if status.active():  # the SUB's flags and EXP's (TileSFUUnarySpecialValue / profile)
            status.record(status.binary_flags("SUB", src, np.broadcast_to(bb, src.shape), diff, t)
                          | status.unary_flags("TEXP", diff, r, t))  # fmt: skip
        return r

    return kernel


_PARTIAL_STEP = {"add": "TADD", "mul": "TMUL", "max": "TMAX", "min": "TMIN"}


def _partial_kernel(operation: str) -> LocalKernel:
    def kernel(sources, types, dst_type, dst_valid):
        left, right = sources
        t = types[0]
        _check_encodings(left, t)
        _check_encodings(right, t)
        out = np.empty(dst_valid, left.dtype)
        # copies first, then the overlap (covered by both) gets the typed operation
        out[: right.shape[0], : right.shape[1]] = right
        out[: left.shape[0], : left.shape[1]] = left
        r, c = min(left.shape[0], right.shape[0]), min(left.shape[1], right.shape[1])
        step = binary_core(BINARY_ROWS[_PARTIAL_STEP[operation]], left[:r, :c], right[:r, :c], t)
        if status.active():  # TileProfilePartialValueWithFlags on the overlap only
            status.record(status.binary_flags(operation.upper(), left[:r, :c], right[:r, :c],
                                              step, t))  # fmt: skip
        out[:r, :c] = step
        return out

    return kernel


def _ttrans(sources, types, dst_type, dst_valid):
    return np.ascontiguousarray(sources[0].T)


def _rows() -> dict[str, LocalRow]:

    rows = [LocalRow(c.MNEMONIC, _reduce_kernel(c.REDUCTION, c.AXIS)) for c in REDUCE_OPS]
    rows += [LocalRow(c.MNEMONIC, _expand_kernel(c.OPERATION, c.AXIS)) for c in EXPAND_OPS]
    rows.append(LocalRow("TTRANS", _ttrans))
    rows.append(LocalRow("TCONCAT", lambda srcs, types, dst, valid: np.concatenate(srcs, axis=1)))
    rows += [LocalRow(c.MNEMONIC, _partial_kernel(c.OPERATION)) for c in PARTIAL_OPS]
    rows += [LocalRow("TGATHER", rearrange.tgather), LocalRow("TSCATTER", rearrange.tscatter),
             LocalRow("TFILLPAD", rearrange.tfillpad, physical=True, params=True),
             LocalRow("TEXTRACT", rearrange.textract, params=True),
             LocalRow("TINSERT", rearrange.tinsert, params=True),
             LocalRow("TIMG2COL", rearrange.timg2col, params=True, whole=True),
             LocalRow("TMRGSORT", rearrange.tmrgsort, params=True),
             LocalRow("TSORT", rearrange.tsort, params=True),
             LocalRow("THISTOGRAM", rearrange.thistogram, params=True)]  # fmt: skip
    return {r.mnemonic: r for r in rows}


LOCAL_ROWS: dict[str, LocalRow] = _rows()
"""Tile-local op mnemonic -> its kernel row."""


_PARTIAL = frozenset({"TPARTADD", "TPARTMUL", "TPARTMAX", "TPARTMIN"})


def _check_legal(mnemonic: str, sources, dst_valid: tuple[int, ...]) -> None:
    """The operand rules the dialect's verifier checks on types, for the kernel API's plain
    arrays: nonempty valid rectangles (``valid_shape_error``; ExecuteTileReduction refuses
    a source with 0 valid rows or columns) and TPART coverage (``partial_coverage_error``)."""
    for i, x in enumerate(sources):
        shape = np.shape(x)
        if len(shape) == 2 and (why := valid_shape_error(shape, role=f"source {i}")):
            raise PTOFault(FaultKind.TILE_LEGALITY, f"{why} (PTO-SPEC 2, D14)", mnemonic)
    if why := valid_shape_error(dst_valid, role="result"):
        raise PTOFault(FaultKind.TILE_LEGALITY, f"{why} (PTO-SPEC 2, D14)", mnemonic)
    if mnemonic in _PARTIAL:
        left, right = (np.shape(x) for x in sources)
        if why := partial_coverage_error(left, right, dst_valid):
            raise PTOFault(FaultKind.TILE_LEGALITY, f"{why} (TilePartialCoverageLegal, "
                           "asl/tile/model/legality/allocation-capacity.asl)", mnemonic)  # fmt: skip


def local_tile(mnemonic: str, sources, types, dst_type, dst_valid, params=(), dst_shape=None,
               defined=None) -> np.ndarray | tuple[np.ndarray, ...]:
    """Run the kernel row ``mnemonic`` (the call convention of the module docstring; a
    row also takes ``params``, ``dst_shape`` and / or ``defined``, :class:`LocalRow`). A
    two-destination op (TSORT) returns one valid rectangle per destination."""
    row = LOCAL_ROWS[mnemonic]
    _check_legal(mnemonic, sources, tuple(dst_valid))
    extra: dict = {}
    if row.whole:
        extra["defined"] = defined
    if row.params:
        extra["params"] = tuple(params)
    if row.physical:
        extra["dst_shape"] = tuple(dst_shape or dst_valid)
    try:
        return row.kernel(sources, types, dst_type, tuple(dst_valid), **extra)
    except PTOFault as e:
        raise PTOFault(e.kind, e.message, mnemonic) from None


# ---------------------------------------------------------------------------------------
# Generators: TCI, TTRI (``asl/tile/model/execution/generation.asl``)
# ---------------------------------------------------------------------------------------


def _flag(v: int, what: str, mnemonic: str) -> bool:
    if v not in (0, 1):
        raise PTOFault(FaultKind.TILE_LEGALITY, f"{what} must be exactly 0 or 1, got {v}", mnemonic)
    return bool(v)


_GENERATOR_TYPES = {op.MNEMONIC: (op.TYPES, op.TYPES_REF) for op in GENERATOR_OPS}


def _check_generator(mnemonic: str, dst_type: TileDataType, dst_valid: tuple[int, int]) -> None:
    """The rules the dialect's verifier checks on the result type, for the kernel API: the
    element type (``TileTCIDataTypeSupported`` / ``TileTTRIDataTypeSupported``), a nonempty
    valid rectangle, and TCI's one valid row (``TileOperandsLegal_TCI``)."""
    types, ref = _GENERATOR_TYPES[mnemonic]
    if dst_type not in types:
        raise PTOFault(FaultKind.TILE_LEGALITY, f"result: {mnemonic} does not accept "
                       f"{dst_type.asm} ({ref})", mnemonic)  # fmt: skip
    if why := valid_shape_error(tuple(dst_valid), role="result"):
        raise PTOFault(FaultKind.TILE_LEGALITY, f"{why} (PTO-SPEC 2, D14)", mnemonic)
    if mnemonic == "TCI" and dst_valid[0] != 1:
        raise PTOFault(FaultKind.TILE_LEGALITY, f"result: valid rows {dst_valid[0]} must be 1 "
                       "(TCI generates one row, TileOperandsLegal_TCI)", mnemonic)  # fmt: skip


def tci(params: tuple[int, int], dst_type: TileDataType, dst_valid: tuple[int, int]) -> np.ndarray:
    """TCI: ``start +/- k`` for k < ValidCol, wrapping at the element width (the start's bits
    above the width are ignored); direction 0 ascending, 1 descending, else a fault."""
    _check_generator("TCI", dst_type, dst_valid)
    start, direction = params
    desc = _flag(direction, "direction", "TCI")
    bits = dst_type.info.carrier_bits
    k = np.arange(dst_valid[1], dtype=np.int64)
    raw = (np.int64(start & ((1 << bits) - 1)) + (-k if desc else k)) & ((1 << bits) - 1)
    return raw.astype(f"u{bits // 8}").view(dst_type.numpy_dtype()).reshape(dst_valid)


def ttri(params: tuple[int, int], dst_type: TileDataType, dst_valid: tuple[int, int]) -> np.ndarray:
    """TTRI: typed one where ``c <= r + diagonal`` (orientation 0, lower) or ``c >= r +
    diagonal`` (1, upper), else +0; the diagonal is a signed integer in -65535..65535."""
    _check_generator("TTRI", dst_type, dst_valid)
    diagonal, orientation = params
    upper = _flag(orientation, "orientation", "TTRI")
    if not -65535 <= diagonal <= 65535:
        raise PTOFault(FaultKind.TILE_LEGALITY, f"diagonal {diagonal} is outside -65535..65535",
                       "TTRI")  # fmt: skip
    r = np.arange(dst_valid[0])[:, None]
    c = np.arange(dst_valid[1])[None, :]
    sel = c >= r + diagonal if upper else c <= r + diagonal
    return sel.astype(dst_type.numpy_dtype())


GENERATOR_ROWS: dict[str, Callable] = {"TCI": tci, "TTRI": ttri}
"""Generator mnemonic -> kernel ``(params, dst_type, dst_valid) -> valid rectangle``."""
