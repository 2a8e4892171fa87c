"""D22: the math functions MLIR leaves unspecified, as compositions of exact body ops.

``math.tanh``, ``math.erf`` and ``math.fpowi`` / ``math.powf`` with a small constant
integral exponent promise no accuracy upstream. Inside a ``linalg.generic`` body
:class:`ExpandApproximation` replaces each by ``arith`` ops and ``math.exp`` / ``absf``
that the elementwise table lowers exactly (TADD, TMUL, TDIV, TEXP, TABS, TMIN, TCMP +
TSEL ...), so the lowered program computes exactly what the expanded body computes, and
the expanded body is within the function's measured bound of the correctly rounded value:

* special values exact (C99 Annex F): NaN propagates (NaN inputs take a branch whose ops
  give NaN; the NaN's payload is free, D21), ``f(-0) = -0`` for the odd functions,
  ``tanh(+-inf) = erf(+-inf) = +-1``, ``x^0 = 1`` (NaN included), overflow to ``+-inf``;
* f32 within 4 ulp, f16 and bf16 within 1 ulp: they compute in f32 (``extf``) and
  convert once (``truncf``);
* the bound of each row (:data:`APPROXIMATIONS`, ``bound``) is **measured**, not assumed,
  by ``scripts/measure_math_bounds.py``: every 16-bit input, and 10^6 f32 inputs (random
  bit patterns, uniform samples and every range boundary of the composition), against
  float64 libm rounded once (its error is far below one f32 ulp). The numbers are in
  docs/elementwise-lowering.md and in the lowering report (``pto-lower{report=true}``).

``pto-lower{approx=false}`` (``convert-linalg-to-pto{approx=false}``) keeps these ops,
with the reason (D22's strict mode). Polynomial coefficients are least-squares fits
(float64, Chebyshev nodes) rounded to f32; Horner evaluation in f32.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    f32,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint


class Builder:
    """Emits f32 body ops, in order, before the op being expanded."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def _e(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def c(self, v: float) -> SSAValue:
        return self._e(arith.ConstantOp(FloatAttr(v, f32)))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._e(arith.AddfOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._e(arith.SubfOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._e(arith.MulfOp(a, b))

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._e(arith.DivfOp(a, b))

    def neg(self, a: SSAValue) -> SSAValue:
        return self._e(arith.NegfOp(a))

    def abs(self, a: SSAValue) -> SSAValue:
        return self._e(math.AbsFOp(a))

    def exp(self, a: SSAValue) -> SSAValue:
        return self._e(math.ExpOp(a))

    def minnum(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._e(arith.MinnumfOp(a, b))

    def cmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._e(arith.CmpfOp(a, b, pred))

    def select(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._e(arith.SelectOp(c, a, b))

    def horner(self, coeffs: tuple[float, ...], s: SSAValue) -> SSAValue:
        """``c0 + s (c1 + s (c2 + ...))`` in f32."""
        r = self.c(coeffs[-1])
        for k in coeffs[-2::-1]:
            r = self.add(self.mul(r, s), self.c(k))
        return r

    def copysign_of(self, x: SSAValue, r: SSAValue) -> SSAValue:
        """``r`` (>= 0 or NaN) with ``x``'s sign where ``x < 0`` (TCMP + TSEL)."""
        return self.select(self.cmp("olt", x, self.c(0.0)), self.neg(r), r)


# -- tanh ------------------------------------------------------------------------------

TANH_SMALL = 0.625
"""Below it: the odd polynomial; from it: ``1 - 2 / (exp(2|x|) + 1)``."""
TANH_P = (-0.33333334, 0.13333327, -0.0539666, 0.02185136, -0.008756251, 0.003237469,
          -0.0008094442)  # fmt: skip
"""tanh(x) = x + x s P(s), s = x^2, on [0, 0.625]."""


def tanh_f32(b: Builder, x: SSAValue) -> SSAValue:
    """``|x| < 0.625``: ``x + x·(s·P(s) + 0)`` (+-0 kept, tiny x give x); otherwise
    ``sign(x)·(1 - 2/(e^{2|x|} + 1))`` (``2|x|`` exact; e = inf gives 1; NaN: NaN)."""
    a = b.abs(x)
    s = b.mul(x, x)
    # (s P(s)) + 0 turns the -0 of s = 0 into +0, so x = -0 gives -0 + -0 = -0
    small = b.add(x, b.mul(x, b.add(b.mul(s, b.horner(TANH_P, s)), b.c(0.0))))
    e = b.exp(b.add(a, a))
    big = b.sub(b.c(1.0), b.div(b.c(2.0), b.add(e, b.c(1.0))))
    return b.select(b.cmp("olt", a, b.c(TANH_SMALL)), small, b.copysign_of(x, big))


# -- erf -------------------------------------------------------------------------------

ERF_SMALL = 1.0
ERF_CLAMP = 4.0
"""erf(4) rounds to 1 in f32 (erfc(4) < 2^-25): larger |x| are evaluated at 4."""
ERF_P = (0.12837916612625122, -0.37612637877464294, 0.11283784359693527,
         -0.0268655177205801, 0.005221261642873287, -0.000848726718686521,
         0.00011288172390777618, -9.728402801556513e-06)  # fmt: skip
"""erf(x) = x + x Q(s), s = x^2, on [0, 1]."""
ERF_R = (0.9922678470611572, -1.0821399688720703, 0.8737412691116333, -0.5418151617050171,
         0.257569283246994, -0.09241911768913269, 0.02443690039217472,
         -0.004594380967319012, 0.0005791864241473377, -4.3787527829408646e-05,
         1.4981338836150826e-06)  # fmt: skip
"""erfc(a)·exp(a^2) = R(a) on [1, 4] (relative weights)."""


def erf_f32(b: Builder, x: SSAValue) -> SSAValue:
    """``|x| < 1`` or NaN (``ult``): ``x + x·Q(x^2)``; otherwise
    ``sign(x)·(1 - e^{-a^2}·R(a))`` with ``a = min(|x|, 4)`` (so +-inf give +-1)."""
    a = b.minnum(b.abs(x), b.c(ERF_CLAMP))
    s = b.mul(x, x)
    small = b.add(x, b.mul(x, b.horner(ERF_P, s)))
    big = b.sub(b.c(1.0), b.mul(b.exp(b.neg(b.mul(a, a))), b.horner(ERF_R, a)))
    return b.select(b.cmp("ult", b.abs(x), b.c(ERF_SMALL)), small, b.copysign_of(x, big))


# -- integer powers ----------------------------------------------------------------------

POW_EXPONENTS = {"f32": range(-1, 6), "bf16": range(-1, 6), "f16": range(-5, 6)}
"""Constant exponents whose product chain is within the D22 bound (measured): ``x^n`` for
``0 <= n <= 5`` rounds ``n - 1`` times (relative error below ``(n - 1)·2^-24``, so under
``n - 1`` ulp for normal results; the measured maximum is smaller); ``x^-1`` is one
division (correctly rounded). Other negative powers are ``1 / x^|n|``, whose ``x^|n|`` can
overflow or underflow where the true power does not: only f16 (computed in f32, whose
range holds every f16 power up to 5) takes them."""


def int_power_f32(b: Builder, x: SSAValue, n: int) -> SSAValue:
    """``x^n`` by repeated multiplication ``((x·x)·x)...`` (``x^0 = 1``, NaN included;
    ``x^-n = 1 / x^n``)."""
    if n == 0:
        return b.c(1.0)
    r = x
    for _ in range(abs(n) - 1):
        r = b.mul(r, x)
    return b.div(b.c(1.0), r) if n < 0 else r


def constant_exponent(op: Operation) -> int | None:
    """The integral exponent of ``fpowi`` / ``powf`` when it is a constant (defined in or
    outside the body), else None."""
    c = op.operands[1].owner
    if not isinstance(c, arith.ConstantOp):
        return None
    v = c.value
    if isinstance(v, IntegerAttr):
        return v.value.data
    if isinstance(v, FloatAttr) and float(v.value.data).is_integer() and abs(v.value.data) < 2**31:
        return int(v.value.data)
    return None


# -- the table ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Approximation:
    """One D22 row: the f32 composition, the PTO instructions it lowers to, the range
    boundaries the measurement covers, and the measured maximum error (ulp) per type."""

    build: Callable[[Builder, SSAValue, Operation], SSAValue | None]
    instructions: tuple[str, ...]
    bound: dict[str, int]
    boundaries: tuple[float, ...] = ()
    note: str = ""


APPROXIMATIONS: dict[str, Approximation] = {
    "math.tanh": Approximation(
        lambda b, x, op: tanh_f32(b, x),
        ("TABS", "TMUL", "TADD", "TMULS", "TADDS", "TEXP", "TDIV", "TCMP", "TSEL"),
        {"f32": 1, "f16": 0, "bf16": 0},
        (TANH_SMALL, 9.01),
        "odd polynomial below 0.625, 1 - 2/(e^{2|x|}+1) above",
    ),
    "math.erf": Approximation(
        lambda b, x, op: erf_f32(b, x),
        ("TABS", "TMIN", "TMUL", "TADD", "TMULS", "TADDS", "TNEG", "TEXP", "TCMP", "TSEL"),
        {"f32": 2, "f16": 1, "bf16": 0},
        (ERF_SMALL, 3.92, ERF_CLAMP),
        "odd polynomial below 1, 1 - e^{-x^2} R(x) from 1 (x clamped to 4)",
    ),
    "math.fpowi": Approximation(
        lambda b, x, op: _power(b, x, op),
        ("TMUL", "TDIV", "TEXPANDS"),
        {"f32": 3, "f16": 0, "bf16": 0},
        note="constant exponent: f32/bf16 -1..5, f16 -5..5, by repeated multiplication",
    ),
    "math.powf": Approximation(
        lambda b, x, op: _power(b, x, op),
        ("TMUL", "TDIV", "TEXPANDS"),
        {"f32": 3, "f16": 0, "bf16": 0},
        note="a constant integral exponent, as math.fpowi",
    ),
}
"""Op name -> its D22 composition and measured bound (``bound`` per result type, written
from ``scripts/measure_math_bounds.py``; a test re-measures a sample against it)."""

NOT_COMPOSED: dict[str, str] = {
    "math.sin": "range reduction of large f32 arguments needs more precision than f32 tile "
                "arithmetic gives (no D22 composition yet)",
    "math.cos": "range reduction of large f32 arguments needs more precision than f32 tile "
                "arithmetic gives (no D22 composition yet)",
    "math.log1p": "no D22 composition yet (no frontend in the corpus emits it)",
    "math.expm1": "no D22 composition yet (no frontend in the corpus emits it)",
}
"""Math ops D22 would allow that have no composition here, with the reason."""

_TYPES: dict[type, str] = {Float32Type: "f32", Float16Type: "f16", BFloat16Type: "bf16"}


def type_name(t: Attribute) -> str | None:
    return _TYPES.get(type(t))


def _power(b: Builder, x: SSAValue, op: Operation) -> SSAValue | None:
    n = constant_exponent(op)
    t = type_name(op.results[0].type)
    if n is None or t is None or n not in POW_EXPONENTS[t]:
        return None
    return int_power_f32(b, x, n)


def why_not_approximated(op: Operation) -> str | None:
    """Why a D22 row does not apply to ``op`` (None: it does)."""
    row = APPROXIMATIONS.get(op.name)
    if row is None:
        return NOT_COMPOSED.get(op.name)
    t = type_name(op.results[0].type)
    if t is None:
        return f"{op.name} on {op.results[0].type}: D22 compositions are for f32, f16, bf16"
    if op.name in ("math.fpowi", "math.powf"):
        n = constant_exponent(op)
        if n is None:
            return f"{op.name}: the exponent is not a constant integer (no D22 composition)"
        if n not in POW_EXPONENTS[t]:
            r = POW_EXPONENTS[t]
            return (f"{op.name}: exponent {n} outside {r.start}..{r.stop - 1} for {t}: the "
                    "product chain would exceed the D22 bound")  # fmt: skip
    return None


def d22_kept(op: Operation) -> str:
    """The reason a D22 op stays (no PTO instruction computes it, and its composition is
    off or does not apply)."""
    why = why_not_approximated(op) or ("pto-lower expands its D22 composition unless "
                                       "approx=false")
    return f"{op.name}: no PTO instruction computes it; {why}"


def expand(op: Operation) -> list[Operation] | None:
    """The body ops replacing ``op`` (the last one's result is its value), or None."""
    row = APPROXIMATIONS.get(op.name)
    if row is None or why_not_approximated(op) is not None:
        return None
    rt = op.results[0].type
    assert isinstance(rt, AnyFloat)
    b = Builder()
    x = op.operands[0]
    if rt != f32:
        x = b._e(arith.ExtFOp(x, f32))
    r = row.build(b, x, op)
    if r is None:
        return None
    if rt != f32:
        r = b._e(arith.TruncFOp(r, rt))
    elif not b.ops or r is x:  # x^1: the value itself
        return []
    return b.ops


class ExpandApproximation(RewritePattern):
    """A D22 math op in a ``linalg.generic`` body -> its composition (module docstring).

    Matches ``%t = math.tanh %in : f32`` inside a generic body; produces the f32 ops of
    :func:`tanh_f32` (``math.absf``, ``arith.mulf`` ..., ``math.exp``, ``arith.cmpf`` +
    ``arith.select``) whose last value replaces ``%t``; f16 / bf16 between an ``extf`` and a
    ``truncf``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name not in APPROXIMATIONS or not isinstance(op.parent_op(), linalg.GenericOp):
            return
        ops = expand(op)
        if ops is None:
            return
        if not ops:  # x^1
            rewriter.replace(op, [], [op.operands[0]])
            return
        rewriter.insert(ops, InsertPoint.before(op))
        rewriter.replace(op, [], [ops[-1].results[0]])


def report_lines(module: Operation, approx: bool = True) -> list[str]:
    """One line per D22 op of ``module``'s generic bodies: its composition and measured
    bound, or why it stays (for the lowering report)."""
    out = []
    for op in module.walk():
        if op.name not in APPROXIMATIONS and op.name not in NOT_COMPOSED:
            continue
        if not isinstance(op.parent_op(), linalg.GenericOp):
            continue
        t = type_name(op.results[0].type) or str(op.results[0].type)
        why = why_not_approximated(op)
        if why is None and not approx:
            why = "the composition is off (approx=false)"
        if why is None:
            row = APPROXIMATIONS[op.name]
            out.append(f"  approx   {op.name} ({t}): D22 composition of {', '.join(row.instructions)}; "
                       f"measured max error {row.bound[t]} ulp (bound {4 if t == 'f32' else 1})")  # fmt: skip
        else:
            out.append(f"  approx   {op.name} ({t}): not composed: {why}")
    return out
