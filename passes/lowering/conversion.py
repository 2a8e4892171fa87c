"""Conversion, rounding and guard rows of the elementwise table (TCVT, TCMP/TSEL; D18, D20).

The ``Custom`` rows of :data:`passes.lowering.elementwise.BODY_LOWERING` for

* the ``arith`` casts: ``extf truncf fptosi fptoui sitofp uitofp extsi extui trunci`` are
  one ``pto.convert`` (TCVT) each, with the rounding mode and Sat of :data:`CASTS`;
* ``math.floor ceil trunc roundeven round``: TCVT to an integer with the directed mode
  and back, plus two selects (:func:`emit_round`);
* the effect row ``cf.assert`` (torch-mlir's guard of ONNX Reciprocal): the check as an
  integer TDIV whose divisor is 0 exactly where the assertion fails (:func:`emit_assert`).

Why each is exact (bit for bit, D18) is in the docstrings; what is refused says why
(:class:`~passes.lowering.elementwise_rows.Refused`). ``docs/elementwise-lowering.md`` has the
table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, Signedness, i64
from xdsl.ir import Attribute, Operation, SSAValue

from passes.lowering.elementwise_rows import FULL, SCALAR, Refused, Val
from pto_dialect.attributes import RoundingMode
from pto_dialect.tensor_compare import CmpSelOp
from pto_dialect.tensor_convert import ConvertOp
from pto_dialect.tensor_map import MapOp
from pto_dialect.tensor_ops import ElementwiseOp
from pto_dialect.upstream.semantics import fp_to_int_through_width

_S, _U = "signed", "unsigned"
R = RoundingMode

FLOAT_PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}
"""Significand bits p of the float types the rows take (the IEEE binary formats and bf16;
the f8 types are refused: their overflow / NaN rules are not matched against TCVT's)."""

INT_WIDTHS = (8, 16, 32, 64)
SAME_WIDTH_INT = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
"""The integer of a float's width: the round trip's (it holds every ``|n| <= 2^(p-1)``) and
the guard's 0/1 tile (same-width tiles share one cover)."""


@dataclass(frozen=True)
class Cast:
    """One ``arith`` cast as ``pto.convert``: signedness of each integer side (None: a
    float side), the RMode and Sat."""

    src: str | None
    dst: str | None
    rmode: RoundingMode
    sat: bool
    why: str


CASTS: dict[str, Cast] = {
    # Widening is exact: any mode gives the value; a NaN becomes TCVT's canonical NaN (LLVM's
    # NaN rules let the result NaN be the preferred one).
    "arith.extf": Cast(None, None, R.RNE, False, "exact"),
    # IEEE roundTiesToEven, overflow to +-inf, gradual underflow: D20's RNE with Sat=0.
    "arith.truncf": Cast(None, None, R.RNE, False, "RNE, overflow +-inf"),
    # Truncation toward zero; NaN and out-of-range values are poison upstream: D21's value
    # (a saturating conversion to i32 / i64, then the low bits: two TCVTs, emit_cast).
    "arith.fptosi": Cast(None, _S, R.RTZ, True, "RTZ; poison upstream -> D21 (wrapped)"),
    "arith.fptoui": Cast(None, _U, R.RTZ, True, "RTZ; poison upstream -> D21 (wrapped)"),
    # The integer's value rounded once to nearest even (TCVT rounds exactly once, D20).
    "arith.sitofp": Cast(_S, None, R.RNE, False, "RNE of the exact value"),
    "arith.uitofp": Cast(_U, None, R.RNE, False, "RNE of the exact value"),
    # TileConvertIntegerValue: the value read at its signedness, Sat=0 keeps the low bits.
    "arith.extsi": Cast(_S, _S, R.DEFAULT, False, "value kept"),
    "arith.extui": Cast(_U, _U, R.DEFAULT, False, "value kept"),
    "arith.trunci": Cast(_U, _U, R.DEFAULT, False, "low bits kept"),
}
"""Upstream cast -> its TCVT (module docstring)."""

ROUNDINGS: dict[str, RoundingMode] = {
    "math.floor": R.RTM,
    "math.ceil": R.RTP,
    "math.trunc": R.RTZ,
    "math.roundeven": R.RNE,
    "math.round": R.RNA,  # halfway cases away from zero (C round)
}
"""Upstream rounding to an integral value -> the TCVT mode that computes it."""


def _refused(msg: str) -> Exception:

    return Refused(msg)


def _val(cls: str, v: SSAValue):

    return Val(cls, v)


def _side(t: Attribute, sign: str | None, name: str, role: str) -> None:
    """Refuse an element type the row does not take (``role``: source / result)."""
    if sign is None:
        if str(t).startswith("f8"):
            raise _refused(f"{name}: {role} type {t}: no f8 row (MLIR's f8 variants' overflow "
                           "and NaN rules are not matched against TCVT's E4M3/E5M2 ones)")  # fmt: skip
        if str(t) not in FLOAT_PRECISION:
            raise _refused(f"{name}: {role} type {t} is not f16, bf16, f32 or f64")
        return
    if not isinstance(t, IntegerType) or t.signedness.data is not Signedness.SIGNLESS:
        raise _refused(f"{name}: {role} type {t} is not a signless integer")
    if t.width.data == 1:
        raise _refused(f"{name} of i1 (a predicate): TCVT has no predicate source or "
                       "destination")  # fmt: skip
    if t.width.data not in INT_WIDTHS:
        raise _refused(f"{name}: i{t.width.data} has no tile type (i8, i16, i32, i64)")


def emit_cast(plan, o: Operation, xs: list) -> object:
    """An ``arith`` cast: one ``pto.convert`` (:data:`CASTS`); on a scalar operand the cast
    stays scalar arithmetic (scalar control)."""

    c = CASTS[o.name]
    src, dst = o.operands[0].type, o.results[0].type
    if "roundingmode" in o.attributes or "roundingmode" in o.properties:
        raise _refused(f"{o.name} with a rounding-mode attribute: only the default is lowered")
    _side(src, c.src, o.name, "source")
    _side(dst, c.dst, o.name, "result")
    x = xs[0]
    if x.cls == SCALAR:
        return _val(SCALAR, plan(o.clone(value_mapper={o.operands[0]: x.v})).results[0])
    x = plan.materialise(x, src, c.src)
    if o.name in ("arith.fptosi", "arith.fptoui"):
        through = fp_to_int_through_width(dst.width.data, c.dst == _U)  # type: ignore[union-attr]
        if through:  # D21: saturate to i32 / i64 (Sat=1), then keep the low bits (Sat=0)
            wide = IntegerType(through)
            w = ConvertOp(x.v, plan.full_type(wide), rmode=R.RTZ, sat=True, dst_sign=_S)
            low = ConvertOp(plan(w).results[0], plan.full_type(dst), rmode=R.DEFAULT, sat=False,
                            src_sign=_U, dst_sign=_U)  # fmt: skip
            return _val(FULL, plan(low).results[0])
    cvt = ConvertOp(x.v, plan.full_type(dst), rmode=c.rmode, sat=c.sat, src_sign=c.src,
                    dst_sign=c.dst)  # fmt: skip
    return _val(FULL, plan(cvt).results[0])


def _fconst(plan, value: float, t: Attribute) -> SSAValue:
    return plan(arith.ConstantOp(FloatAttr(value, t))).results[0]  # type: ignore[arg-type]


def emit_round(plan, o: Operation, xs: list) -> object:
    """``math.floor`` / ``ceil`` / ``trunc`` / ``roundeven`` / ``round`` of a float type
    with p significand bits, ``T = 2^(p-1)``, ``iN`` the integer of its width::

        i  = TCVT x -> iN   (the mode of ROUNDINGS, Sat)    r  = TCVT i -> float (exact)
        z  = TMULS x, +0.0  (x's signed zero)               r2 = (r == 0) ? z : r
        y  = (|x| < T) ? r2 : x                             (TABS, TCMPS, TSEL)

    Exact for every input: for ``|x| < T`` rounding x to an integer n under the mode is
    what the op computes, ``|n| <= T`` fits iN and is representable in the float, so the
    round trip returns n; IEEE's roundToIntegral keeps x's sign, which only a zero n loses
    (``floor(-0) = -0``, ``ceil(-0.5) = -0``, ``trunc(-0.3) = -0``): then the result is
    ``x * +0``, the zero with x's sign (x is finite there). Every ``|x| >= T`` is already
    integral and +-inf stays: the result is x. A NaN fails the ordered compare: x, a NaN
    (the result's NaN payload is not defined upstream)."""

    t = o.results[0].type
    _side(t, None, o.name, "result")
    p = FLOAT_PRECISION[str(t)]
    it = IntegerType(SAME_WIDTH_INT[str(t)])
    x = plan.materialise(xs[0], t, None)
    full = plan.full_type(t)
    a = plan(MapOp("abs", x.v)).results[0]
    i = plan(ConvertOp(x.v, plan.full_type(it), rmode=ROUNDINGS[o.name], sat=True,
                       dst_sign=_S)).results[0]  # fmt: skip
    r = plan(ConvertOp(i, full, rmode=R.RNE, src_sign=_S)).results[0]
    zero = _fconst(plan, 0.0, t)
    z = plan(MapOp("muls", x.v, [zero])).results[0]
    r2 = plan(CmpSelOp("eq", r, zero, z, r)).results[0]
    y = plan(CmpSelOp("lt", a, _fconst(plan, 2.0 ** (p - 1), t), r2, x.v)).results[0]
    return _val(FULL, y)


# ======================================================================================
# cf.assert: the check as an integer zero divisor (a TileLegality fault, PTO-SPEC 5)
# ======================================================================================

# cmpf predicate -> (TCMP mode, whether the check passes where the mode holds, where it does
# not), or a pair of such for the predicates that need two compares (one: lt or gt; ueq: neither).
_CMPF_CHECKS: dict[str, tuple[tuple[str, bool, bool], ...]] = {
    "oeq": (("eq", True, False),), "ogt": (("gt", True, False),), "oge": (("ge", True, False),),
    "olt": (("lt", True, False),), "ole": (("le", True, False),), "une": (("ne", True, False),),
    "ugt": (("le", False, True),), "uge": (("lt", False, True),), "ult": (("ge", False, True),),
    "ule": (("gt", False, True),), "one": (("lt", True, True), ("gt", True, False)),
    "ueq": (("lt", False, False), ("gt", False, True)),
}


def emit_assert(plan, o: Operation) -> Callable[[SSAValue], SSAValue]:
    """``cf.assert (cmpf <pred> a, b)``: upstream aborts the run when the condition is false
    for some element. Lowered: ``ok = cond ? 1 : 0`` (TCMP(S) + TSEL(S) into the integer of
    a's width, :data:`_CMPF_CHECKS`: TCMP's EQ/LT/GT/LE/GE are false on a NaN and NE true,
    as the ordered / unordered predicates), then ``q = 1 / ok`` (integer TDIV: a zero
    divisor is a TileLegality fault before any effect), so the run stops exactly where the
    assertion fails and before the body's result is stored. The returned function orders
    the result after the check (``(q == 1) ? y : y``, a raw TSEL copy of y)."""

    cond = o.operands[0].owner
    if not isinstance(cond, arith.CmpfOp) or cond.parent_block() is not plan.block:
        raise _refused("cf.assert on a condition other than an arith.cmpf of the body: "
                       "only compare guards are lowered (an arith.cmpi bounds check of a "
                       "gather's index only with the gather: D21)")  # fmt: skip
    pred = arith.CMPF_COMPARISON_OPERATIONS[cond.predicate.value.data]
    if pred not in _CMPF_CHECKS:
        raise _refused(f"cf.assert on cmpf {pred}: not lowered (a constant or ord/uno check)")
    ft = cond.lhs.type
    _side(ft, None, "cf.assert's cmpf", "operand")
    a, b = plan.value(cond.lhs), plan.value(cond.rhs)
    if a.cls != FULL and b.cls == FULL:
        raise _refused("cf.assert on cmpf with a scalar or broadcast left operand")
    a = plan.materialise(a, ft, None)
    if b.cls != SCALAR:
        b = plan.materialise(b, ft, None)
    it = IntegerType(SAME_WIDTH_INT[str(ft)])
    one = plan(arith.ConstantOp(IntegerAttr(1, i64))).results[0]
    zero = plan(arith.ConstantOp(IntegerAttr(0, i64))).results[0]
    word = {True: one, False: zero}
    ones = plan(MapOp("expands", plan.empty(it), [one], _S)).results[0]
    ok: SSAValue | None = None
    for mode, t_val, f_val in reversed(_CMPF_CHECKS[pred]):
        on_true = ones if t_val else plan(MapOp("expands", plan.empty(it), [zero], _S)).results[0]
        on_false = ok if ok is not None else word[f_val]
        ok = plan(CmpSelOp(mode, a.v, b.v, on_true, on_false)).results[0]
    assert ok is not None
    q = plan(ElementwiseOp("div", ones, ok, _S)).results[0]

    def after_check(y: SSAValue) -> SSAValue:
        return plan(CmpSelOp("eq", q, one, y, y, _S)).results[0]

    return after_check


__all__ = ["CASTS", "ROUNDINGS", "emit_assert", "emit_cast", "emit_round"]
