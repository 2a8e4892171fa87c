"""The vocabulary of the elementwise table (:data:`passes.lowering.elementwise.BODY_LOWERING`): the row kinds, the lowered value :class:`Val` and its classes, :class:`Refused`. The bottom of the elementwise lowering: the row modules (conversion, compare/select) and the plan build on it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, Operation, SSAValue

from pto_dialect.tensor_ops import floor_mod_dtype

if TYPE_CHECKING:  # the plan is built from these rows; annotations only
    from passes.lowering.elementwise import ElementwisePlan


FULL, SCALAR, ROW, COL = "full", "scalar", "row", "col"


I1_VALUE = ("an i1 value other than a select's condition: PTO has no i1 tensors (a predicate "
            "tile is neither loaded nor stored, so a compare lowers only inside a select)")


_NO_TENSOR = {"TF32", "HF32"}


class Refused(Exception):
    """The body cannot be lowered exactly; ``str(e)`` says why (one clause)."""


@dataclass(frozen=True)
class Binary:
    """``pto.elementwise <kind>`` for two tiles; ``pto.map <kind>s`` with a scalar operand;
    ``pto.expand row|col <kind>`` with a broadcast operand (when PTO has that form)."""

    kind: str
    sign: str | None = None  # signless integers: "signed" / "unsigned" (None: float op)
    commutes: bool = False


@dataclass(frozen=True)
class Unary:
    """``pto.map <kind>`` (TNEG, TABS, TEXP ...)."""

    kind: str
    sign: str | None = None


@dataclass(frozen=True)
class Awaits:
    """The op's PTO instruction(s) exist in the ISA, not in the dialect or the table yet."""

    needs: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class NoPto:
    """No PTO instruction computes the op exactly."""

    why: str


@dataclass(frozen=True)
class Custom:
    """Any other lowering: ``emit(plan, op, operands) -> Val`` with the operands already
    lowered (:class:`Val`; ``plan.materialise`` makes a tile of a scalar or broadcast, and
    ``plan(op)`` appends an op). The compare/select and conversion rows are this: e.g.
    ``"arith.extf": Custom(emit_cvt)`` once a tensor-level TCVT form exists."""

    emit: Callable[[ElementwisePlan, Operation, list[Val]], Val]


@dataclass(frozen=True)
class Tree:
    """A row that evaluates the op's operands itself: ``emit(plan, op) -> Val``. A select
    reads its condition (a compare, or ``andi``/``ori``/``xori`` of compares) as a
    predicate, never as an ``i1`` value (:mod:`passes.lowering.compare_select`)."""

    emit: Callable[[ElementwisePlan, Operation], Val]


@dataclass(frozen=True)
class Effect:
    """A body op with no result (``cf.assert``): ``emit(plan, op)`` emits the check and
    returns a function that orders the body's result after it."""

    emit: Callable[[ElementwisePlan, Operation], Callable[[SSAValue], SSAValue]]


Row = Binary | Unary | Awaits | NoPto | Custom | Tree | Effect


@dataclass(frozen=True)
class Val:
    """A body value as lowered: its class, its SSA value and, for ``row``/``col``, where the
    iteration shape splits into the ``P x Q`` view (``P`` = the first ``split`` dims)."""

    cls: str
    v: SSAValue
    split: int = 0


def dtype_ok(elt: Attribute, sign: str | None, types) -> bool:
    return floor_mod_dtype(elt, sign if isinstance(elt, IntegerType) else None, types) is not None


def types_of(mnemonic_types) -> frozenset:
    return frozenset(t for t in mnemonic_types if t.name not in _NO_TENSOR)
