"""Plan builders: the compiled engine's per-op table (op class -> builder).

A builder turns one op, once, into a Python callable ``step(*operand_values) -> results``
(a tuple, one value per op result) with every static part of the op -- attributes, tile
descriptors, kernel rows, block decodes -- resolved ahead of time. Ops without a row run
through the SAME implementation tables the xDSL engine uses (the ``@impl`` functions of
:func:`interpreter.ssa.runner.extra_functions` and :mod:`interpreter.ssa.upstream`), called directly
with no xDSL dispatch: so a family that registers its ``@impl`` rows (h9a/h9b style) runs on
the compiled engine without new code.

The tile-level ops all have their row: the tile-plan table
(:data:`interpreter.ssa.tile_plans.TILE_PLANS`, one row per op, derived from the family lists)
is this table's too, and the machine model's. A new tile family adds one line to
:data:`interpreter.ssa.tile_plans.FAMILY_PLANS` (its ``<family>_plan(op, ...) -> step``, which
its ``@impl`` function calls as well: one implementation for both engines).

``cx`` is the :class:`BuildContext`: the numeric ``profile`` and ``in_place(op)`` (True when a
store's destination value dies at this op, so an engine-owned buffer may be updated in place).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.ir import Operation

from interpreter.ssa.block_functions import block_plan, block_stores
from interpreter.ssa.tile_plans import TILE_PLANS, Step
from pto_dialect.block_ops import BlockOp
from pto_dialect.data_movement import TStoreOp


@dataclass
class BuildContext:
    """What a builder may ask about the program around the op."""

    profile: str
    in_place: Callable[[Operation], bool]


PLAN_BUILDERS: dict[type[Operation], Callable[[Any, BuildContext], Step]] = {
    BlockOp: lambda op, cx: block_plan(op, cx.profile, cx.in_place(op)),
    **{cls: (lambda op, cx, build=build: build(op, cx.profile, cx.in_place(op)))
       for cls, build in TILE_PLANS.items()},
}
"""Op class -> plan builder (the fast rows): ``pto.block`` and every row of the tile-plan table
(:data:`interpreter.ssa.tile_plans.TILE_PLANS`, one per tile-level op, which the machine model
runs its instructions through as well)."""


def store_destination(op: Operation) -> int | None:
    """The operand index of the tensor a store op writes (a new SSA tensor), or None."""
    if isinstance(op, TStoreOp):
        return 1
    if isinstance(op, BlockOp) and block_stores(op):
        return 1
    return None
