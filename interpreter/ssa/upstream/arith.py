"""numpy ``arith`` semantics for the interpreter (scalars, tensors and vectorised bodies).

Every implementation works unchanged on numpy scalars, on whole tensors (``arith`` on
tensor types) and on the broadcast arrays that :mod:`interpreter.ssa.upstream.linalg` feeds a
``linalg.generic`` body, so each op is one vectorised numpy call whatever the shape.

Semantics follow the upstream ``arith`` documentation with fixed-width results:

* integer ``addi``/``subi``/``muli``/shifts wrap modulo 2^w; ``i1`` is ``np.bool_``;
  signedness comes from the op (``remsi`` vs ``remui``, ``cmpi slt`` vs ``ult``);
* division or remainder by zero, ``divsi`` overflow (INT_MIN / -1) and shifts by >= w are
  undefined behaviour / poison upstream: the interpreter raises
  :class:`UndefinedBehaviourError` instead of inventing a value. ``fptosi``/``fptoui`` of
  NaN or out-of-range values are poison too; there the interpreter gives D21's value (a
  saturating 32-bit conversion, then the low bits: :func:`fp_to_int_wrapped`), the one the
  lowering computes, so models whose importer relies on it (a u8 zero point 137.0 -> i8)
  run. ``remsi(INT_MIN, -1)`` is 0 (the exact remainder; matches D8 for TREM);
* float ops compute in the operand's precision: numpy/ml_dtypes evaluate f16, bf16 and
  f8 arithmetic in f32 and round once, which is correctly rounded for + - * / since
  f32 has >= 2p+2 bits for those formats; ``remf`` is C ``fmod`` (exact);
* ``truncf`` rounds to nearest even (numpy / ml_dtypes casts); ``cmpf`` implements the
  ordered/unordered predicates; ``maximumf``/``minimumf`` propagate NaN and order
  -0 < +0;
* ``sitofp``/``uitofp`` round the integer's value once (RNE): beyond 2^53 through a
  round-to-odd float64, so an i64 -> f32 / f16 / bf16 is not rounded twice.

NEP 50: both operands always carry the op's dtype, so numpy never promotes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import arith, builtin
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from pto_dialect.upstream import RemFOp
from pto_dialect.upstream.semantics import fp_to_int_through_width

from .dtypes import (
    UnsupportedTypeError,
    dtype_for,
    int_width,
    signed_dtype,
    unsigned_dtype,
)

__all__ = [
    "ArithFunctions",
    "UndefinedBehaviourError",
    "attr_to_value",
    "extend_float",
    "finish",
]


class UndefinedBehaviourError(InterpretationError):
    """The program executed an operation whose result is undefined / poison upstream."""


def finish(value: Any, dtype: np.dtype[Any]) -> Any:
    """Cast ``value`` to ``dtype`` (a no-op when it already is) and unwrap 0-d arrays."""
    arr = np.asarray(value)
    if arr.dtype != dtype:
        arr = arr.astype(dtype)
    return arr[()] if arr.ndim == 0 else arr


def _round_to_odd(v: int) -> float:
    """``v`` rounded to float64 toward the neighbour with an odd significand when inexact."""
    q = float(v)
    if int(q) == v or int(np.float64(q).view(np.int64)) & 1:
        return q
    return float(np.nextafter(q, np.inf if v > int(q) else -np.inf))


def _int_to_f64(v: np.ndarray, dtype: np.dtype[Any]) -> np.ndarray:
    """Integer values as float64 that round ONCE to ``dtype``: exact up to 2^53; wider values
    (i64) are rounded to odd, and rounding a 53-bit round-to-odd value to p <= 51 bits equals
    rounding the exact value (no double rounding for f32, f16, bf16)."""
    v = np.asarray(v)
    if v.dtype.itemsize < 8 or dtype == np.float64 or not np.any(np.abs(v.astype(np.float64)) > 2.0**53):
        return v.astype(np.float64)
    return np.array([_round_to_odd(int(x)) for x in v.ravel().tolist()], np.float64).reshape(v.shape)


def fp_to_int_wrapped(x: Any, width: int, unsigned: bool) -> np.ndarray:
    """``fptosi``/``fptoui`` with D21's value where upstream's is poison: the value truncated
    toward zero, converted **saturating** (NaN -> 0) to a 32-bit signed integer (64-bit for
    ``fptoui`` to i32), and its low ``width`` bits kept; to i32 (``fptosi``) and i64 the
    conversion saturates at the destination itself. In range this is the exact value; out
    of range it is what IREE's CPU backend and onnxruntime give for the values frontends
    produce (a u8 zero point 137.0 -> i8 -119). Returns int64 / uint64 (the caller wraps)."""
    t = np.trunc(np.asarray(x).astype(np.float64))
    through = fp_to_int_through_width(width, unsigned)
    if through == 0 and unsigned:  # u64: saturate at [0, 2^64 - 1]
        return _saturate(t, 0, 64, np.uint64)
    if through == 0:
        return _saturate(t, -(2 ** (width - 1)), width - 1, np.int64)
    return _saturate(t, -(2 ** (through - 1)), through - 1, np.int64)


def _saturate(t: np.ndarray, lo: int, k: int, dtype: Any) -> np.ndarray:
    """Integral float64 ``t`` clamped to ``[lo, 2^k - 1]`` (NaN -> 0) as ``dtype``."""
    nan = np.isnan(t)
    above = ~nan & (t >= 2.0**k)
    below = ~nan & (t < float(lo))
    inside = np.where(nan | above | below, 0.0, t)
    r = inside.astype(dtype)
    r = np.where(above, dtype(2**k - 1), r)
    return np.where(below, dtype(lo) if lo else dtype(0), r).astype(dtype)


def as_signed(x: Any, width: int) -> np.ndarray:
    """The two's complement value of integer storage (``i1`` true is -1)."""
    a = np.asarray(x)
    if width == 1:
        return -(a.astype(np.int8))
    return a


def as_unsigned(x: Any, width: int) -> np.ndarray:
    a = np.asarray(x)
    if width == 1:
        return a.astype(np.uint8)
    return a.view(unsigned_dtype(width))


def wrap_to_width(x: Any, width: int) -> Any:
    """Wrap an integer result to ``width`` bits, as the signed storage dtype."""
    a = np.asarray(x)
    if width == 1:
        return finish((a & 1).astype(np.bool_), np.dtype(np.bool_))
    return finish(a.astype(signed_dtype(width), copy=False), signed_dtype(width))


def _width(op: Operation) -> int:
    return int_width(op.operands[0].type)


def checked_dtype(t: Attribute) -> np.dtype[Any]:
    try:
        return dtype_for(t)
    except UnsupportedTypeError as e:
        raise InterpretationError(str(e)) from None


def _check_nonzero(divisor: np.ndarray, op: Operation) -> None:
    if not np.all(divisor != 0):
        raise UndefinedBehaviourError("division by zero (undefined behaviour)")


def attr_to_value(attr: Attribute, result_type: Attribute) -> Any:
    """The run-time value of an ``arith.constant`` attribute (scalar or dense tensor)."""
    dtype = checked_dtype(result_type)
    if isinstance(attr, builtin.IntegerAttr):
        width = int_width(result_type)
        raw = attr.value.data & ((1 << width) - 1)
        if width == 1:
            return np.bool_(raw)
        return np.array(raw, dtype=unsigned_dtype(width)).view(dtype)[()]
    if isinstance(attr, builtin.FloatAttr):
        return np.array(attr.value.data, dtype=np.float64).astype(dtype)[()]
    if isinstance(attr, builtin.DenseIntOrFPElementsAttr):
        shape = tuple(attr.get_shape())
        if isinstance(attr.get_element_type(), builtin.ComplexType):
            raise InterpretationError("complex constants are not supported")
        raw = attr.data.data
        if dtype == np.bool_:
            flat = np.frombuffer(raw, dtype=np.uint8) != 0
        else:
            flat = np.frombuffer(raw, dtype=np.uint8).view(dtype)
        count = int(np.prod(shape, dtype=np.int64))
        if flat.size == 1 and count != 1:
            return np.full(shape, flat[0], dtype=dtype)
        if flat.size != count:
            raise InterpretationError(
                f"dense constant holds {flat.size} elements for shape {shape}"
            )
        return flat.reshape(shape).copy()
    raise InterpretationError(f"arith.constant of {type(attr).__name__} is not supported")


# -- tables ---------------------------------------------------------------------------

_FLOAT_BINARY: dict[type[Operation], Callable[[Any, Any], Any]] = {
    arith.AddfOp: np.add,
    arith.SubfOp: np.subtract,
    arith.MulfOp: np.multiply,
    arith.DivfOp: np.divide,
    RemFOp: np.fmod,
}


def _max_zero_fix(a: np.ndarray, b: np.ndarray, r: np.ndarray, want_negative: bool) -> Any:
    """Order -0 < +0 where both operands are zeros (numpy's maximum/minimum may not)."""
    both_zero = (a == 0) & (b == 0)
    if not np.any(both_zero):
        return r
    sa = np.signbit(a)
    pick_a = sa if want_negative else ~sa
    return np.where(both_zero, np.where(pick_a, a, b), r)


def _maximumf(a: np.ndarray, b: np.ndarray) -> Any:
    return _max_zero_fix(a, b, np.maximum(a, b), want_negative=False)


def _minimumf(a: np.ndarray, b: np.ndarray) -> Any:
    return _max_zero_fix(a, b, np.minimum(a, b), want_negative=True)


def _other_if_nan(a: np.ndarray, b: np.ndarray, r: Any) -> Any:
    """MLIR ``maxnumf`` / ``minnumf``: "if one of the arguments is NaN, then the result is the
    other argument", a signalling NaN included (LLVM's ``maxnum`` does not distinguish
    signalling NaNs; D21). numpy's float32/float64 ``fmax`` quietens a signalling NaN
    instead of returning the other operand."""
    na, nb = np.isnan(a), np.isnan(b)
    if not (np.any(na) or np.any(nb)):
        return r
    return np.where(na & ~nb, b, np.where(nb & ~na, a, r))


def _maxnumf(a: np.ndarray, b: np.ndarray) -> Any:
    return _max_zero_fix(a, b, _other_if_nan(a, b, np.fmax(a, b)), want_negative=False)


def _minnumf(a: np.ndarray, b: np.ndarray) -> Any:
    return _max_zero_fix(a, b, _other_if_nan(a, b, np.fmin(a, b)), want_negative=True)


# IEEE interchange formats whose NaNs have a quiet bit: (numpy view, mantissa bits)
_IEEE_NAN_LAYOUT = {
    np.dtype(np.float16): (np.uint16, 10),
    np.dtype(np.float32): (np.uint32, 23),
    np.dtype(np.float64): (np.uint64, 52),
}


def extend_float(x: Any, dst: np.dtype[Any]) -> Any:
    """``arith.extf``: the exact value in the wider type; a NaN keeps its sign and payload
    (moved to the top of the wider mantissa) and is made quiet, as IEEE 754 convertFormat
    and LLVM's ``APFloat::convert`` (MLIR's arith.extf folder) do (D21). numpy alone keeps an
    f16 or bf16 signalling NaN signalling when widening to f32."""
    a = np.asarray(x)
    out = a.astype(dst)
    src_layout = _IEEE_NAN_LAYOUT.get(a.dtype)
    if a.dtype.name == "bfloat16":
        src_layout = (np.uint16, 7)
    dst_layout = _IEEE_NAN_LAYOUT.get(np.dtype(dst))
    if src_layout is None or dst_layout is None:
        return out
    nan = np.isnan(a)
    if not np.any(nan):
        return out
    (su, sm), (du, dm) = src_layout, dst_layout
    sbits = a.view(su).astype(np.uint64)
    src_width, dst_width = np.dtype(su).itemsize * 8, np.dtype(du).itemsize * 8
    sign = (sbits >> np.uint64(src_width - 1)) & np.uint64(1)
    payload = (sbits & np.uint64((1 << sm) - 1)) << np.uint64(dm - sm)
    exp_all = np.uint64(((1 << (dst_width - 1 - dm)) - 1) << dm)
    bits = (sign << np.uint64(dst_width - 1)) | exp_all | payload | np.uint64(1 << (dm - 1))
    quiet = bits.astype(du).view(dst)
    return np.where(nan, quiet, out)


_FLOAT_MINMAX: dict[type[Operation], Callable[[np.ndarray, np.ndarray], Any]] = {
    arith.MaximumfOp: _maximumf,
    arith.MinimumfOp: _minimumf,
    arith.MaxnumfOp: _maxnumf,
    arith.MinnumfOp: _minnumf,
}

# Integer ops: (view of the operands, numpy function); results wrap to the width.
_SIGNED_VIEW, _UNSIGNED_VIEW, _RAW_VIEW = "s", "u", "raw"

_INT_BINARY: dict[type[Operation], tuple[str, Callable[[Any, Any], Any]]] = {
    arith.AddiOp: (_SIGNED_VIEW, np.add),
    arith.SubiOp: (_SIGNED_VIEW, np.subtract),
    arith.MuliOp: (_SIGNED_VIEW, np.multiply),
    arith.AndIOp: (_RAW_VIEW, np.bitwise_and),
    arith.OrIOp: (_RAW_VIEW, np.bitwise_or),
    arith.XOrIOp: (_RAW_VIEW, np.bitwise_xor),
    arith.MaxSIOp: (_SIGNED_VIEW, np.maximum),
    arith.MinSIOp: (_SIGNED_VIEW, np.minimum),
    arith.MaxUIOp: (_UNSIGNED_VIEW, np.maximum),
    arith.MinUIOp: (_UNSIGNED_VIEW, np.minimum),
}


def _trunc_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a - np.fmod(a, b)) // b


def _ceil_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.floor_divide(a, b) + (np.mod(a, b) != 0)


# Division family: (view, function, signed-overflow check); all check for zero divisors.
_INT_DIVISION: dict[type[Operation], tuple[str, Callable[[Any, Any], Any], bool]] = {
    arith.DivSIOp: (_SIGNED_VIEW, _trunc_div, True),
    arith.DivUIOp: (_UNSIGNED_VIEW, np.floor_divide, False),
    arith.RemSIOp: (_SIGNED_VIEW, np.fmod, False),
    arith.RemUIOp: (_UNSIGNED_VIEW, np.fmod, False),
    arith.FloorDivSIOp: (_SIGNED_VIEW, np.floor_divide, True),
    arith.CeilDivSIOp: (_SIGNED_VIEW, _ceil_div, True),
    arith.CeilDivUIOp: (_UNSIGNED_VIEW, _ceil_div, False),
}

_CMPI: dict[str, tuple[str, Callable[[Any, Any], Any]]] = {
    "eq": (_RAW_VIEW, np.equal),
    "ne": (_RAW_VIEW, np.not_equal),
    "slt": (_SIGNED_VIEW, np.less),
    "sle": (_SIGNED_VIEW, np.less_equal),
    "sgt": (_SIGNED_VIEW, np.greater),
    "sge": (_SIGNED_VIEW, np.greater_equal),
    "ult": (_UNSIGNED_VIEW, np.less),
    "ule": (_UNSIGNED_VIEW, np.less_equal),
    "ugt": (_UNSIGNED_VIEW, np.greater),
    "uge": (_UNSIGNED_VIEW, np.greater_equal),
}


def _unordered(a: Any, b: Any) -> Any:
    return np.isnan(a) | np.isnan(b)


# cmpf: (ordered comparison or None, unordered-or): "u*" = comparison OR either NaN.
_CMPF: dict[str, Callable[[Any, Any], Any]] = {
    "false": lambda a, b: np.zeros(np.broadcast(a, b).shape, dtype=np.bool_),
    "oeq": np.equal,
    "ogt": np.greater,
    "oge": np.greater_equal,
    "olt": np.less,
    "ole": np.less_equal,
    "one": lambda a, b: np.not_equal(a, b) & ~_unordered(a, b),
    "ord": lambda a, b: ~_unordered(a, b),
    "ueq": lambda a, b: np.equal(a, b) | _unordered(a, b),
    "ugt": lambda a, b: np.greater(a, b) | _unordered(a, b),
    "uge": lambda a, b: np.greater_equal(a, b) | _unordered(a, b),
    "ult": lambda a, b: np.less(a, b) | _unordered(a, b),
    "ule": lambda a, b: np.less_equal(a, b) | _unordered(a, b),
    "une": np.not_equal,
    "uno": _unordered,
    "true": lambda a, b: np.ones(np.broadcast(a, b).shape, dtype=np.bool_),
}


def _view(x: Any, width: int, view: str) -> np.ndarray:
    if view == _SIGNED_VIEW:
        return as_signed(x, width)
    if view == _UNSIGNED_VIEW:
        return as_unsigned(x, width)
    return np.asarray(x)


class ArithFunctions(InterpreterFunctions):
    """numpy implementations of the ``arith`` ops (our ``arith.remf`` included).

    The op families (float binary, min/max, integer binary, division, shifts, float to
    int) are tables above; their entries are bound to one shared method each below.
    """

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues):
        return (attr_to_value(op.value, op.result.type),)

    # -- floats ---------------------------------------------------------------------
    def _float_binary(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        dtype = checked_dtype(op.results[0].type)
        a, b = np.asarray(args[0]), np.asarray(args[1])
        with np.errstate(all="ignore"):
            if type(op) in _FLOAT_MINMAX:
                r = _FLOAT_MINMAX[type(op)](a, b)
            else:
                r = _FLOAT_BINARY[type(op)](a, b)
        return (finish(r, dtype),)

    @impl(arith.NegfOp)
    def run_negf(self, interpreter: Interpreter, op: arith.NegfOp, args: PythonValues):
        return (finish(np.negative(np.asarray(args[0])), checked_dtype(op.result.type)),)

    @impl(arith.CmpfOp)
    def run_cmpf(self, interpreter: Interpreter, op: arith.CmpfOp, args: PythonValues):
        name = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
        a, b = np.asarray(args[0]), np.asarray(args[1])
        with np.errstate(all="ignore"):
            r = _CMPF[name](a, b)
        return (finish(r, np.dtype(np.bool_)),)

    @impl(arith.ExtFOp)
    def run_extf(self, interpreter: Interpreter, op: arith.ExtFOp, args: PythonValues):
        dst = checked_dtype(op.result.type)
        with np.errstate(all="ignore"):
            return (finish(extend_float(args[0], dst), dst),)

    @impl(arith.TruncFOp)
    def run_truncf(self, interpreter: Interpreter, op: arith.TruncFOp, args: PythonValues):
        with np.errstate(all="ignore"):
            return (finish(np.asarray(args[0]), checked_dtype(op.result.type)),)

    # -- integers -------------------------------------------------------------------
    def _int_binary(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        width = _width(op)
        view, fn = _INT_BINARY[type(op)]
        with np.errstate(all="ignore"):
            r = fn(_view(args[0], width, view), _view(args[1], width, view))
        return (wrap_to_width(r, width),)

    def _int_division(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        width = _width(op)
        view, fn, overflow_check = _INT_DIVISION[type(op)]
        a, b = _view(args[0], width, view), _view(args[1], width, view)
        _check_nonzero(b, op)
        if overflow_check and width > 1:
            int_min = np.iinfo(signed_dtype(width)).min
            if np.any((a == int_min) & (b == -1)):
                raise UndefinedBehaviourError("signed overflow (INT_MIN / -1, undefined behaviour)")
        if width == 1:  # i1: widen so -1 / -1 and friends are plain integer maths
            a, b = a.astype(np.int8), b.astype(np.int8)
        with np.errstate(all="ignore"):
            r = fn(a, b)
        return (wrap_to_width(r, width),)

    def _shift(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        width = _width(op)
        amount = as_unsigned(args[1], width)
        if np.any(amount >= width):
            raise UndefinedBehaviourError(f"shift amount >= {width} (poison)")
        if isinstance(op, arith.ShRSIOp):
            value = as_signed(args[0], width)
            r = np.right_shift(value, amount.astype(value.dtype))
        elif isinstance(op, arith.ShRUIOp):
            r = np.right_shift(as_unsigned(args[0], width), amount)
        else:
            r = np.left_shift(as_unsigned(args[0], width), amount)
        return (wrap_to_width(r, width),)

    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter: Interpreter, op: arith.CmpiOp, args: PythonValues):
        width = _width(op)
        view, fn = _CMPI[arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]]
        r = fn(_view(args[0], width, view), _view(args[1], width, view))
        return (finish(r, np.dtype(np.bool_)),)

    @impl(arith.SelectOp)
    def run_select(self, interpreter: Interpreter, op: arith.SelectOp, args: PythonValues):
        cond, lhs, rhs = args
        if np.ndim(cond) == 0:
            return (lhs if bool(cond) else rhs,)
        return (finish(np.where(cond, lhs, rhs), checked_dtype(op.result.type)),)

    @impl(arith.ExtSIOp)
    def run_extsi(self, interpreter: Interpreter, op: arith.ExtSIOp, args: PythonValues):
        r = as_signed(args[0], _width(op))
        return (wrap_to_width(r.astype(np.int64), int_width(op.result.type)),)

    @impl(arith.ExtUIOp)
    def run_extui(self, interpreter: Interpreter, op: arith.ExtUIOp, args: PythonValues):
        r = as_unsigned(args[0], _width(op))
        return (wrap_to_width(r.astype(np.uint64), int_width(op.result.type)),)

    @impl(arith.TruncIOp)
    def run_trunci(self, interpreter: Interpreter, op: arith.TruncIOp, args: PythonValues):
        r = as_unsigned(args[0], _width(op))
        return (wrap_to_width(r, int_width(op.result.type)),)

    @impl(arith.IndexCastOp)
    def run_index_cast(self, interpreter: Interpreter, op: arith.IndexCastOp, args: PythonValues):
        r = as_signed(args[0], _width(op)).astype(np.int64)
        return (wrap_to_width(r, int_width(op.result.type)),)

    @impl(arith.SIToFPOp)
    def run_sitofp(self, interpreter: Interpreter, op: arith.SIToFPOp, args: PythonValues):
        dtype = checked_dtype(op.result.type)
        return (finish(_int_to_f64(as_signed(args[0], _width(op)), dtype), dtype),)

    @impl(arith.UIToFPOp)
    def run_uitofp(self, interpreter: Interpreter, op: arith.UIToFPOp, args: PythonValues):
        dtype = checked_dtype(op.result.type)
        return (finish(_int_to_f64(as_unsigned(args[0], _width(op)), dtype), dtype),)

    def _fp_to_int(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        width = int_width(op.results[0].type)
        unsigned = isinstance(op, arith.FPToUIOp)
        return (wrap_to_width(fp_to_int_wrapped(args[0], width, unsigned), width),)

    @impl(arith.BitcastOp)
    def run_bitcast(self, interpreter: Interpreter, op: arith.BitcastOp, args: PythonValues):
        dtype = checked_dtype(op.result.type)
        src = np.asarray(args[0])
        if dtype == np.bool_ or src.dtype == np.bool_:
            return (finish(src.astype(dtype), dtype),)
        return (finish(np.ascontiguousarray(src).view(dtype), dtype),)


def _register_table(
    table: dict[type[Operation], Any], method: Callable[..., PythonValues], prefix: str
) -> None:
    for op_type in table:
        fn = impl(op_type)(method)
        setattr(ArithFunctions, f"{prefix}_{op_type.__name__}", fn)


_register_table(_FLOAT_BINARY, ArithFunctions._float_binary, "run")
_register_table(_FLOAT_MINMAX, ArithFunctions._float_binary, "run")
_register_table(_INT_BINARY, ArithFunctions._int_binary, "run")
_register_table(_INT_DIVISION, ArithFunctions._int_division, "run")
_register_table(
    {arith.ShLIOp: None, arith.ShRSIOp: None, arith.ShRUIOp: None},
    ArithFunctions._shift,
    "run",
)
_register_table({arith.FPToSIOp: None, arith.FPToUIOp: None}, ArithFunctions._fp_to_int, "run")
register_impls(ArithFunctions)
