"""Plan builders: the compiled engine's per-op table (op class -> builder).

A builder turns one op, once, into a Python callable ``step(*operand_values) -> results``
(a tuple, one value per op result) with every static part of the op -- attributes, tile
descriptors, kernel rows, block decodes -- resolved ahead of time. Ops without a row run
through the SAME implementation tables the xDSL engine uses (the ``@impl`` functions of
:func:`interpreter.ssa.runner.extra_functions` and :mod:`interpreter.ssa.upstream`), called directly
with no xDSL dispatch: so a family that registers its ``@impl`` rows (h9a/h9b style) runs on
the compiled engine without new code.

How a family adds a fast row (optional; only when its per-op cost matters): write
``<family>_plan(op, ...) -> step`` next to its interpreter functions, make the ``@impl``
function call it (one implementation for both engines), and add one line here::

    PLAN_BUILDERS.update({cls: lambda op, cx: <family>_plan(op) for cls in <FAMILY>_OPS})

``cx`` is the :class:`BuildContext`: the numeric ``profile`` and ``in_place(op)`` (True when a
store's destination value dies at this op, so an engine-owned buffer may be updated in place).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.ir import Operation

from interpreter.ssa.block_functions import block_plan, block_stores
from interpreter.ssa.compare_functions import compare_select_plan
from interpreter.ssa.pto_functions import (
    binary_plan,
    convert_plan,
    cube_plan,
    tload_plan,
    tstore_plan,
)
from pto_dialect.block_ops import BlockOp
from pto_dialect.compare_ops import COMPARE_SELECT_OPS
from pto_dialect.convert_ops import CONVERT_OPS
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.ops import BINARY_OPS, CUBE_OPS

Step = Callable[..., tuple[Any, ...]]


@dataclass
class BuildContext:
    """What a builder may ask about the program around the op."""

    profile: str
    in_place: Callable[[Operation], bool]


PLAN_BUILDERS: dict[type[Operation], Callable[[Any, BuildContext], Step]] = {
    TLoadOp: lambda op, cx: tload_plan(op),
    TStoreOp: lambda op, cx: tstore_plan(op, cx.in_place(op)),
    BlockOp: lambda op, cx: block_plan(op, cx.profile, cx.in_place(op)),
    **{cls: (lambda op, cx: binary_plan(op)) for cls in BINARY_OPS},
    **{cls: (lambda op, cx: cube_plan(op, cx.profile)) for cls in CUBE_OPS},
    **{cls: (lambda op, cx: compare_select_plan(op)) for cls in COMPARE_SELECT_OPS},
    **{cls: (lambda op, cx: convert_plan(op)) for cls in CONVERT_OPS},
}
"""Op class -> plan builder (the fast rows)."""


def store_destination(op: Operation) -> int | None:
    """The operand index of the tensor a store op writes (a new SSA tensor), or None."""
    if isinstance(op, TStoreOp):
        return 1
    if isinstance(op, BlockOp) and block_stores(op):
        return 1
    return None
