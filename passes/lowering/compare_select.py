"""The compare/select rows of the elementwise table: ``cmpf``/``cmpi`` + ``select`` and the
NaN-propagating float ``maximumf``/``minimumf`` as ``pto.cmpsel`` (TCMP(S) + TSEL(S)), D18.

A body's ``i1`` values never become tensors (a predicate tile is neither loaded nor stored):
``arith.select`` evaluates its condition as a *predicate tree* and emits one ``pto.cmpsel``
per compare in it (:func:`select`):

* a compare ``cmpf``/``cmpi`` is a leaf: ``sel(a P b, t, f)``;
* ``xori c, d`` is ``sel(c, sel(d, f, t), sel(d, t, f))`` (with ``d`` true: the negation
  ``sel(c, f, t)``); ``andi c, d`` is ``sel(c, sel(d, t, f),
  f)``; ``ori c, d`` is ``sel(c, t, sel(d, t, f))``; an ``i1`` ``select c, d, e`` is
  ``sel(c, sel(d, t, f), sel(e, t, f))``; an ``i1`` constant picks ``t`` or ``f``.

Every rewrite above is an identity of booleans and the selected values are SSA values
computed once, so the composition selects exactly the element MLIR selects.

**The compare modes** (TCMP's six relations, ``docs/predicates.md``): a float relation is
false when either operand is a NaN except NE, which is true; +0 == -0. That is exactly the
ordered predicates ``oeq ogt oge olt ole`` and ``une``. An unordered predicate is the
negation of an ordered one (``ugt`` = not ``ole`` for every input, NaN included), so it is
the ordered mode with the two branches swapped. ``one`` = ``olt`` or ``ogt``; ``ueq`` = not
``one``; ``ord`` = ``a == a`` and ``b == b``; ``uno`` = ``a != a`` or ``b != b`` (NE of a
value with itself is true exactly for a NaN). ``cmpi`` maps to the same relations with the
signed or unsigned order. TSEL copies the chosen element's bits (NaN payloads and signed
zeros kept), which is what ``arith.select`` does.

**Operand forms**: a scalar or constant right operand is TCMPS, a scalar false value TSELS;
a scalar left operand mirrors the relation (``0 > x`` is ``x < 0``; mirroring keeps NaN
behaviour); a scalar true value swaps with a tensor false value under EQ/NE (their
negations are each other) and is materialised (TEXPANDS, once per plan) otherwise; row and
column broadcasts are materialised (TROWEXPAND/TCOLEXPAND copies: data movement).

**Integer max/min**: ``select(cmpi sgt a, b; a, b)`` (and the other orders, signed or
unsigned, either branch order) is TMAX/TMIN (TMAXS, TROWEXPANDMAX ... for scalar and
broadcast operands): integers have one encoding per value, so the element a tie selects
does not matter. The float forms are not TMAX: ``select(a > b; a, b)`` returns ``b`` when
``a`` is a NaN and ``-0`` for ``(+0, -0)``; TMAX returns ``a`` and ``+0``. They stay
``pto.cmpsel``.

**maximumf / minimumf** (NaN if either operand is one, ``-0 < +0``)::

    r = cmpsel ne a, a ? a : (cmpsel ne b, b ? b : TMAX(a, b))

A NaN ``a`` gives ``a``, else a NaN ``b`` gives ``b`` (both NaN: ``a``, as the interpreter's
``np.maximum``); with neither a NaN TMAX's ``HardwareNumericMinMaxSpecial`` rule is
maximumf's: ``(+0, -0)`` -> +0, ``(-0, -0)`` -> -0 (TMIN: -0 if either is -0), otherwise the
larger. A constant ``b`` that is not a NaN drops the middle select (TMAXS); a NaN constant
``b`` makes the result ``a``'s NaN or ``b`` (TSELS). ``maximumf(x, +0)`` is TRELU (an idiom of
:mod:`passes.lowering.elementwise`). ``maxnumf``/``minnumf`` are TMAX/TMIN rows there (one
NaN gives the other operand in both).

A condition defined outside the body (a scalar ``i1``) becomes ``k = c ? 1 : 0`` in scalar
control and ``(TEXPANDS k) != 0`` selects. Refused (with the reason): an ``i1`` value used other
than as a condition (yielded, extended, compared), a condition read from an ``i1`` input
tensor (a predicate tile is not loadable), and element types TCMP/TSEL do not take.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, IntegerType, i32
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from passes.lowering.elementwise_rows import (
    FULL,
    I1_VALUE,
    SCALAR,
    Binary,
    Custom,
    Refused,
    Tree,
    Val,
    dtype_ok,
    types_of,
)
from pto_dialect.compare_ops import TSelOp
from pto_dialect.tensor_compare import CmpSelOp
from pto_dialect.tensor_ops import ELEMENTWISE_TYPES

if TYPE_CHECKING:  # the plan applies these rows; annotations only
    from passes.lowering.elementwise import ElementwisePlan

_S, _U = "signed", "unsigned"

CMPF_MODES: dict[str, tuple[str, bool]] = {
    "oeq": ("eq", False), "ogt": ("gt", False), "oge": ("ge", False),
    "olt": ("lt", False), "ole": ("le", False), "une": ("ne", False),
    # u<rel> = not o<negated rel>: the ordered mode, branches swapped
    "ugt": ("le", True), "uge": ("lt", True), "ult": ("ge", True), "ule": ("gt", True),
}  # fmt: skip
"""cmpf predicate -> (TCMP mode, branches swapped); ``one ueq ord uno true false`` are
compositions (:func:`_float_compare`)."""

CMPI_MODES: dict[str, tuple[str, str]] = {
    "eq": ("eq", _S), "ne": ("ne", _S),
    "slt": ("lt", _S), "sle": ("le", _S), "sgt": ("gt", _S), "sge": ("ge", _S),
    "ult": ("lt", _U), "ule": ("le", _U), "ugt": ("gt", _U), "uge": ("ge", _U),
}  # fmt: skip
"""cmpi predicate -> (TCMP mode, integer order)."""

MIRROR = {"eq": "eq", "ne": "ne", "lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}
"""``a R b`` = ``b MIRROR[R] a`` (for NaN operands too: both sides are false, or NE true)."""

_SCALAR_CMPF = {"eq": "oeq", "ne": "une", "lt": "olt", "gt": "ogt", "le": "ole", "ge": "oge"}
_SCALAR_CMPI = {v: k for k, v in CMPI_MODES.items()}


def _type_ok(elt: Attribute, sign: str | None, what: str) -> None:
    if not dtype_ok(elt, sign, types_of(TSelOp.TYPES)):
        raise Refused(f"{what} on {elt}: not a TCMP/TSEL element type "
                      "(TileCompareDataTypeSupported)")  # fmt: skip


def _float_const(x: Val) -> float | None:
    """The value of a float constant operand (None when ``x`` is not one)."""
    c = x.v.owner
    if x.cls == SCALAR and isinstance(c, arith.ConstantOp) and isinstance(c.value, FloatAttr):
        return c.value.value.data
    return None


# ======================================================================================
# One compare + select
# ======================================================================================


def cmpsel(plan: ElementwisePlan, mode: str, sign: str | None, a: Val, b: Val, t: Val, f: Val,
           elt: Attribute) -> Val:  # fmt: skip
    """``(a mode b) ? t : f`` with the operands in any class (module docstring)."""
    if t.v is f.v:
        return t
    cmp_elt = a.v.type if a.cls == SCALAR else a.v.type.element_type  # type: ignore[union-attr]
    if a.cls == SCALAR and b.cls == SCALAR and t.cls == SCALAR and f.cls == SCALAR:
        return _scalar_select(plan, mode, sign, a, b, t, f)
    if a.cls != FULL and b.cls == FULL:
        a, b, mode = b, a, MIRROR[mode]
    a = plan.materialise(a, cmp_elt, sign)
    if b.cls not in (FULL, SCALAR):
        b = plan.materialise(b, cmp_elt, sign)
    if t.cls != FULL and f.cls == FULL and mode in ("eq", "ne"):
        t, f, mode = f, t, "ne" if mode == "eq" else "eq"
    t = plan.materialise(t, elt, _S)
    if f.cls not in (FULL, SCALAR):
        f = plan.materialise(f, elt, _S)
    int_sign = sign if isinstance(cmp_elt, IntegerType) else None
    _type_ok(cmp_elt, int_sign, "a compare")
    _type_ok(elt, _S, "a select")
    rhs = plan.scalar_operand(b.v, cmp_elt) if b.cls == SCALAR else b.v
    other = plan.scalar_operand(f.v, elt) if f.cls == SCALAR else f.v
    op = CmpSelOp(mode, a.v, rhs, t.v, other, int_sign, plan.full_type(elt))
    return Val(FULL, plan(op).results[0])


def _scalar_select(plan: ElementwisePlan, mode, sign, a: Val, b: Val, t: Val, f: Val) -> Val:
    """Everything scalar: scalar control (``arith.cmpf``/``cmpi`` + ``select`` on scalars)."""
    if isinstance(a.v.type, AnyFloat):
        c = plan(arith.CmpfOp(a.v, b.v, _SCALAR_CMPF[mode])).results[0]
    else:
        c = plan(arith.CmpiOp(a.v, b.v, _SCALAR_CMPI[(mode, sign)])).results[0]
    return Val(SCALAR, plan(arith.SelectOp(c, t.v, f.v)).results[0])


def _float_compare(plan: ElementwisePlan, pred: str, a: Val, b: Val, t: Val, f: Val, elt) -> Val:
    """``select(cmpf pred a, b; t, f)`` for every cmpf predicate (module docstring)."""
    if pred in CMPF_MODES:
        mode, swap = CMPF_MODES[pred]
        return cmpsel(plan, mode, None, a, b, *((f, t) if swap else (t, f)), elt)
    if pred in ("true", "false"):
        return t if pred == "true" else f
    if pred in ("one", "ueq"):  # one = olt or ogt; ueq = not one
        if pred == "ueq":
            t, f = f, t
        return cmpsel(plan, "lt", None, a, b, t, cmpsel(plan, "gt", None, a, b, t, f, elt), elt)
    # ord = (a == a) and (b == b): sel(a == a, sel(b == b, t, f), f); uno = not ord. A
    # constant operand's part is known.
    if pred == "uno":
        t, f = f, t
    r = t
    for x in [a] if a.v is b.v else [b, a]:
        c = _float_const(x)
        if c is None:
            r = cmpsel(plan, "eq", None, x, x, r, f, elt)
        elif math.isnan(c):
            return f
    return r


def _integer_minmax(plan: ElementwisePlan, o: arith.SelectOp, cmp: arith.CmpiOp) -> Val | None:
    """``select(cmpi <order> a, b; a, b)`` or ``(...; b, a)`` = TMAX/TMIN, None otherwise."""
    pred = arith.CMPI_COMPARISON_OPERATIONS[cmp.predicate.value.data]
    mode, sign = CMPI_MODES[pred]
    if mode in ("eq", "ne") or {o.lhs, o.rhs} != {cmp.lhs, cmp.rhs} or cmp.lhs is cmp.rhs:
        return None
    larger_first = mode in ("gt", "ge")
    kind = "max" if larger_first == (o.lhs is cmp.lhs) else "min"
    elt = o.result.type
    if not dtype_ok(elt, sign, ELEMENTWISE_TYPES[kind]):
        return None
    x, y = plan.value(cmp.lhs), plan.value(cmp.rhs)
    if x.cls == SCALAR and y.cls == SCALAR:
        return None  # scalar control (the general path)
    return plan.binary(o, Binary(kind, sign, commutes=True), x, y)


# ======================================================================================
# The predicate tree
# ======================================================================================


def select(plan: ElementwisePlan, cond: SSAValue, t: Val, f: Val, elt: Attribute) -> Val:
    """``cond ? t : f`` with ``cond`` an ``i1`` predicate tree (module docstring)."""
    c = cond.owner
    if isinstance(cond, BlockArgument) and cond.block is plan.block:
        raise Refused(f"a select's condition is input {cond.index}, an i1 tensor: a predicate "
                      "tile cannot be loaded from memory (compare the data in the body "
                      "instead)")  # fmt: skip
    if not (isinstance(c, Operation) and c.parent_block() is plan.block):
        if isinstance(c, arith.ConstantOp) and isinstance(c.value, IntegerAttr):
            return t if c.value.value.data else f
        if t.cls == SCALAR and f.cls == SCALAR:
            return Val(SCALAR, plan(arith.SelectOp(cond, t.v, f.v)).results[0])
        # a scalar condition: k = cond ? 1 : 0 (scalar control), then (k != 0) ? t : f
        one, zero = (plan(arith.ConstantOp(IntegerAttr(v, i32))).results[0] for v in (1, 0))
        k = Val(SCALAR, plan(arith.SelectOp(cond, one, zero)).results[0])
        return cmpsel(plan, "ne", _S, k, Val(SCALAR, zero), t, f, elt)
    if isinstance(c, arith.ConstantOp) and isinstance(c.value, IntegerAttr):
        return t if c.value.value.data else f
    if isinstance(c, arith.CmpfOp):
        pred = arith.CMPF_COMPARISON_OPERATIONS[c.predicate.value.data]
        return _float_compare(plan, pred, plan.value(c.lhs), plan.value(c.rhs), t, f, elt)
    if isinstance(c, arith.CmpiOp):
        mode, sign = CMPI_MODES[arith.CMPI_COMPARISON_OPERATIONS[c.predicate.value.data]]
        return cmpsel(plan, mode, sign, plan.value(c.lhs), plan.value(c.rhs), t, f, elt)
    if isinstance(c, arith.XOrIOp):  # c xor d: c ? (d ? f : t) : (d ? t : f)
        return select(plan, c.lhs, select(plan, c.rhs, f, t, elt), select(plan, c.rhs, t, f, elt),
                      elt)  # fmt: skip
    if isinstance(c, arith.AndIOp):
        return select(plan, c.lhs, select(plan, c.rhs, t, f, elt), f, elt)
    if isinstance(c, arith.OrIOp):
        return select(plan, c.lhs, t, select(plan, c.rhs, t, f, elt), elt)
    if isinstance(c, arith.SelectOp):
        return select(plan, c.cond, select(plan, c.lhs, t, f, elt),
                      select(plan, c.rhs, t, f, elt), elt)  # fmt: skip
    raise Refused(f"a select's condition is {c.name}, not a compare or a logical combination "
                  "of compares")  # fmt: skip


# ======================================================================================
# The rows
# ======================================================================================


def emit_select(plan: ElementwisePlan, o: Operation) -> Val:
    """``arith.select``: integer max/min (TMAX/TMIN), else the predicate tree."""
    assert isinstance(o, arith.SelectOp)
    elt = o.result.type
    if isinstance(elt, IntegerType) and elt.width.data == 1:
        return plan.not_lowered(o, f"{o.name} on i1: {I1_VALUE}")
    if isinstance(o.cond.owner, arith.CmpiOp) and o.cond.owner.parent_block() is plan.block:
        r = _integer_minmax(plan, o, o.cond.owner)
        if r is not None:
            return r
    return select(plan, o.cond, plan.value(o.lhs), plan.value(o.rhs), elt)


def emit_compare_value(plan: ElementwisePlan, o: Operation) -> Val:
    """A compare whose ``i1`` result is used as a value (not only as conditions)."""
    return plan.not_lowered(o, f"{o.name}: {I1_VALUE}")


def _nan_propagating(kind: str):
    """``maximumf``/``minimumf`` (module docstring): TMAX/TMIN plus NaN selects."""

    def emit(plan: ElementwisePlan, o: Operation, ops: list[Val]) -> Val:
        a, b = ops
        elt = o.results[0].type
        if a.cls == SCALAR and b.cls == SCALAR:
            c = o.clone(value_mapper={o.operands[0]: a.v, o.operands[1]: b.v})
            return Val(SCALAR, plan(c).results[0])
        ca = _float_const(a)
        if ca is not None and math.isnan(ca):  # the first NaN wins: a everywhere
            return plan.materialise(a, elt, None)
        if ca is not None:  # not a NaN: the operands commute (ties have one encoding)
            a, b = b, a
        a = plan.materialise(a, elt, None)
        cb = _float_const(b)
        if cb is not None and math.isnan(cb):
            return cmpsel(plan, "ne", None, a, a, a, b, elt)
        if cb is None:
            b = plan.materialise(b, elt, None)
        m = plan.binary(o, Binary(kind, None, commutes=True), a, b)
        if cb is None:
            m = cmpsel(plan, "ne", None, b, b, b, m, elt)
        return cmpsel(plan, "ne", None, a, a, a, m, elt)

    return emit


ROWS = {
    "arith.select": Tree(emit_select),
    "arith.cmpf": Tree(emit_compare_value),
    "arith.cmpi": Tree(emit_compare_value),
    "arith.maximumf": Custom(_nan_propagating("max")),
    "arith.minimumf": Custom(_nan_propagating("min")),
}
"""The compare/select rows of :data:`passes.lowering.elementwise.BODY_LOWERING`."""
