"""numpy ``math`` dialect semantics for the interpreter (scalars, tensors, generic bodies).

Every op of xDSL 0.75's ``math`` dialect is one row of a table below, bound to one shared
method per arity; each row is a vectorised numpy function, so a ``linalg.generic`` body
runs once on whole broadcast arrays.

Semantics (the upstream ``math`` documentation, lowered as LLVM intrinsics / libm):

* floats compute in float64 and round **once** to the result type (round to nearest even).
  For ``sqrt`` (and ``absf``, ``floor``, ``ceil``, ``trunc``, ``round``, ``roundeven``,
  ``copysign``, which are exact) this is the correctly rounded result: float64 carries
  more than ``2p + 2`` bits for f32, f16 and bf16, so double rounding cannot occur. The
  transcendental functions are not correctly rounded by any libm; ours is within one ulp
  of the result type plus float64's own error;
* ``round`` rounds halfway cases away from zero (C ``round``), ``roundeven`` to even;
* NaN propagates; ``sqrt``/``log`` of a negative number is NaN, ``log(0)`` is ``-inf``;
  ``rsqrt(+-0)`` is ``+-inf``; ``absf`` clears the sign bit (of NaN too), on the encoding:
  a NaN keeps its payload and a signalling NaN stays signalling;
* ``absi`` wraps (``absi(INT_MIN) = INT_MIN``); ``ctlz``/``cttz``/``ctpop`` count bits of the
  element width; ``ipowi`` wraps and is undefined for negative exponents except for bases
  1 and -1 (raised as :class:`~interpreter.ssa.upstream.arith.UndefinedBehaviourError`);
  ``fpowi`` is ``powf`` with an integer exponent.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from xdsl.dialects import math
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation

from .arith import (
    UndefinedBehaviourError,
    as_signed,
    as_unsigned,
    checked_dtype,
    finish,
    wrap_to_width,
)
from .dtypes import int_width

__all__ = ["MathFunctions", "FLOAT_UNARY", "FLOAT_BINARY"]

_erf = np.vectorize(pymath.erf, otypes=[np.float64])


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(x)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


def _abs_clear_sign(x: np.ndarray) -> np.ndarray:
    return np.copysign(x, 1.0)


FLOAT_UNARY: dict[type[Operation], Callable[[np.ndarray], np.ndarray]] = {
    math.AbsFOp: _abs_clear_sign,
    math.CeilOp: np.ceil,
    math.FloorOp: np.floor,
    math.TruncOp: np.trunc,
    math.RoundOp: _round_half_away,
    math.RoundEvenOp: np.rint,
    math.SqrtOp: np.sqrt,
    math.RsqrtOp: _rsqrt,
    math.CbrtOp: np.cbrt,
    math.ExpOp: np.exp,
    math.Exp2Op: np.exp2,
    math.ExpM1Op: np.expm1,
    math.LogOp: np.log,
    math.Log2Op: np.log2,
    math.Log10Op: np.log10,
    math.Log1pOp: np.log1p,
    math.ErfOp: _erf,
    math.TanhOp: np.tanh,
    math.SinhOp: np.sinh,
    math.CoshOp: np.cosh,
    math.SinOp: np.sin,
    math.CosOp: np.cos,
    math.TanOp: np.tan,
    math.AsinOp: np.arcsin,
    math.AcosOp: np.arccos,
    math.AtanOp: np.arctan,
    math.AsinhOp: np.arcsinh,
    math.AcoshOp: np.arccosh,
    math.AtanhOp: np.arctanh,
}
"""One row per unary float op: the float64 numpy function (rounded once afterwards)."""

FLOAT_BINARY: dict[type[Operation], Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    math.Atan2Op: np.arctan2,
    math.CopySignOp: np.copysign,
    math.PowFOp: np.power,
}


def _popcount(u: np.ndarray, width: int) -> np.ndarray:
    u = u.astype(np.uint64)
    count = np.zeros(u.shape, dtype=np.int64)
    for i in range(width):
        count += ((u >> np.uint64(i)) & np.uint64(1)).astype(np.int64)
    return count


def _ctlz(u: np.ndarray, width: int) -> np.ndarray:
    u = u.astype(np.uint64)
    count = np.full(u.shape, width, dtype=np.int64)
    for i in range(width):  # the highest set bit wins: later (higher) bits overwrite
        count = np.where((u >> np.uint64(i)) & np.uint64(1), width - 1 - i, count)
    return count


def _cttz(u: np.ndarray, width: int) -> np.ndarray:
    u = u.astype(np.uint64)
    count = np.full(u.shape, width, dtype=np.int64)
    for i in reversed(range(width)):  # the lowest set bit wins
        count = np.where((u >> np.uint64(i)) & np.uint64(1), i, count)
    return count


INT_BITS: dict[type[Operation], Callable[[np.ndarray, int], np.ndarray]] = {
    math.CtPopOp: _popcount,
    math.CountLeadingZerosOp: _ctlz,
    math.CountTrailingZerosOp: _cttz,
}


def _round_exact(x: Fraction, dtype: np.dtype[Any], zero_negative: bool) -> Any:
    """The value of ``dtype`` nearest to ``x``, ties to the even code: the float64
    approximation rounded to ``dtype`` is within one ulp, so one of it and its two
    neighbours in ``dtype`` is the answer."""
    if x == 0:
        return np.array(-0.0 if zero_negative else 0.0).astype(dtype)
    approx = np.array(float(x)).astype(dtype)
    cands = [approx, np.nextafter(approx, np.array(-np.inf, dtype)), np.nextafter(approx, np.array(np.inf, dtype))]
    cands = [c for c in cands if np.isfinite(c.astype(np.float64))] or [approx]
    bits = np.dtype(f"u{dtype.itemsize}")

    def key(c: np.ndarray) -> tuple[Fraction, int]:
        return abs(Fraction(float(c)) - x), int(np.asarray(c).view(bits)) & 1

    return min(cands, key=key)


def _clear_sign_bit(x: Any, dtype: np.dtype[Any]) -> Any:
    """``absf`` on the encoding: the sign bit cleared, every other bit kept (a NaN's payload
    and quiet bit too, as LLVM's ``fabs``)."""
    a = np.asarray(x, dtype=dtype)
    bits = np.dtype(f"u{dtype.itemsize}")
    r = (a.view(bits) & bits.type((1 << (8 * dtype.itemsize - 1)) - 1)).view(dtype)
    return r[()] if r.ndim == 0 else r


def _f64(x: Any) -> np.ndarray:
    return np.asarray(x).astype(np.float64)


class MathFunctions(InterpreterFunctions):
    """numpy implementations of the ``math`` ops (tables above, one method per arity)."""

    def _float_unary(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        if isinstance(op, math.AbsFOp):  # a bit operation: float64 would requiet NaNs
            return (_clear_sign_bit(args[0], checked_dtype(op.results[0].type)),)
        with np.errstate(all="ignore"):
            r = FLOAT_UNARY[type(op)](_f64(args[0]))
        return (finish(r, checked_dtype(op.results[0].type)),)

    def _float_binary(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        with np.errstate(all="ignore"):
            r = FLOAT_BINARY[type(op)](_f64(args[0]), _f64(args[1]))
        return (finish(r, checked_dtype(op.results[0].type)),)

    def _int_bits(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        width = int_width(op.results[0].type)
        r = INT_BITS[type(op)](as_unsigned(args[0], width), width)
        return (wrap_to_width(r, width),)

    @impl(math.FmaOp)
    def run_fma(self, interpreter: Interpreter, op: math.FmaOp, args: PythonValues):
        """``a * b + c`` rounded once: the exact value from Fractions, rounded to float64
        and then to the result type. Rounding twice is harmless here only for float64
        itself, so narrower types round the exact value to the result type directly via
        :func:`_round_exact`."""
        dtype = checked_dtype(op.results[0].type)
        a, b, c = np.broadcast_arrays(*(_f64(x) for x in args))
        with np.errstate(all="ignore"):
            naive = a * b + c
        out = naive.astype(dtype)
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        for idx in zip(*np.nonzero(finite)):
            exact = Fraction(a[idx]) * Fraction(b[idx]) + Fraction(c[idx])
            out[idx] = _round_exact(exact, dtype, bool(np.signbit(naive[idx])))
        return (finish(out, dtype),)

    @impl(math.AbsIOp)
    def run_absi(self, interpreter: Interpreter, op: math.AbsIOp, args: PythonValues):
        width = int_width(op.results[0].type)
        with np.errstate(all="ignore"):
            r = np.abs(as_signed(args[0], width).astype(np.int64))
        return (wrap_to_width(r, width),)

    @impl(math.IPowIOp)
    def run_ipowi(self, interpreter: Interpreter, op: math.IPowIOp, args: PythonValues):
        width = int_width(op.results[0].type)
        base = as_signed(args[0], width).astype(np.int64)
        exp = as_signed(args[1], width).astype(np.int64)
        if np.any((exp < 0) & (np.abs(base) != 1)):
            raise UndefinedBehaviourError("math.ipowi with a negative exponent (undefined)")
        exp_abs = np.abs(exp)
        result = np.ones(np.broadcast(base, exp).shape, dtype=np.int64)
        b = np.broadcast_to(base, result.shape).copy()
        e = np.broadcast_to(exp_abs, result.shape).copy()
        with np.errstate(all="ignore"):
            while np.any(e > 0):  # square and multiply, wrapping in int64 (then to width)
                result = np.where(e & 1, result * b, result)
                b = b * b
                e = e >> 1
        return (wrap_to_width(result, width),)

    @impl(math.FPowIOp)
    def run_fpowi(self, interpreter: Interpreter, op: math.FPowIOp, args: PythonValues):
        width = int_width(op.operands[1].type)
        with np.errstate(all="ignore"):
            r = np.power(_f64(args[0]), as_signed(args[1], width).astype(np.float64))
        return (finish(r, checked_dtype(op.results[0].type)),)


def _register(table: dict[type[Operation], Any], method: Callable[..., PythonValues]) -> None:
    for op_type in table:
        setattr(MathFunctions, f"run_{op_type.__name__}", impl(op_type)(method))


_register(FLOAT_UNARY, MathFunctions._float_unary)
_register(FLOAT_BINARY, MathFunctions._float_binary)
_register(INT_BITS, MathFunctions._int_bits)
register_impls(MathFunctions)
