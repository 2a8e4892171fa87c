"""One table: tile-level op class -> the plan that runs it on its kernels (issue 24).

A plan builder takes one op, once, and returns ``step(*operands) -> results`` with every static
part of the op (descriptors, kernel rows, PEs, properties) resolved; ``step`` takes and returns
run-time values (:class:`~interpreter.ssa.runtime.TileValue` tiles, numpy scalars and tensors)
and calls the vectorised kernels of :mod:`interpreter.kernels`, with their complete preflight
before any result exists (D12). The rows are derived from the dialect's family lists: one
family, one builder (:data:`FAMILY_PLANS`), one row per op (:data:`TILE_PLANS`).

Users: a linked ``pto.block`` (:func:`interpreter.ssa.block_functions.linked_plan`) and the
machine model, which runs decoded blocks and tile instructions on registers through this table
without building a function or entering :func:`interpreter.run`
(:mod:`interpreter.machine.dispatch`). ``tests/interpreter/test_machine_dispatch.py`` fails when
an op of :data:`pto_dialect.families.TILE_OP_FAMILIES` or an op a block selector decodes to has
no row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from interpreter.ssa.compare_functions import compare_select_plan
from interpreter.ssa.gm_functions import gm_plan
from interpreter.ssa.pto_functions import (
    binary_plan,
    convert_plan,
    cube_plan,
    elementwise_plan,
    generator_plan,
    local_plan,
    move_plan,
    tload_plan,
    tstore_plan,
)
from pto_dialect.compare_ops import COMPARE_SELECT_OPS
from pto_dialect.convert_ops import CONVERT_OPS
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.elementwise_ops import ELEMENTWISE_FAMILY_OPS
from pto_dialect.gm_indexed import GM_OPS
from pto_dialect.ops import BINARY_OPS, CUBE_OPS
from pto_dialect.tile_local import GENERATOR_OPS, LOCAL_OPS
from pto_dialect.tile_move import MOVE_OPS

Step = Callable[..., tuple[Any, ...]]
PlanBuilder = Callable[[Any, str, bool], Step]
"""``builder(op, profile, in_place) -> step``: ``profile`` the numeric profile (D4, CUBE);
``in_place`` True lets a TSTORE update an engine-owned destination buffer."""

FAMILY_PLANS: tuple[tuple[str, Sequence[type], PlanBuilder], ...] = (
    ("CUBE matrix", CUBE_OPS, lambda op, profile, _in_place: cube_plan(op, profile)),
    ("binary elementwise", BINARY_OPS, lambda op, _profile, _in_place: binary_plan(op)),
    ("unary, tile-scalar, ternary, fill", ELEMENTWISE_FAMILY_OPS,
     lambda op, _profile, _in_place: elementwise_plan(op)),
    ("compare and select", COMPARE_SELECT_OPS,
     lambda op, _profile, _in_place: compare_select_plan(op)),
    ("tile-local", LOCAL_OPS, lambda op, _profile, _in_place: local_plan(op)),
    ("generators", GENERATOR_OPS, lambda op, _profile, _in_place: generator_plan(op)),
    ("format conversion", CONVERT_OPS, lambda op, _profile, _in_place: convert_plan(op)),
    ("local move (TLSU)", MOVE_OPS, lambda op, _profile, _in_place: move_plan(op)),
    ("global memory (TLSU)", GM_OPS, lambda op, _profile, _in_place: gm_plan(op)),
    ("TLOAD", (TLoadOp,), lambda op, _profile, _in_place: tload_plan(op)),
    ("TSTORE", (TStoreOp,), lambda op, _profile, in_place: tstore_plan(op, in_place)),
)  # fmt: skip
"""(family, op classes, plan builder): the families' kernels, one builder each."""

TILE_PLANS: dict[type, PlanBuilder] = {
    cls: builder for _family, ops, builder in FAMILY_PLANS for cls in ops
}
"""Op class -> plan builder: one row per tile-level op (derived from :data:`FAMILY_PLANS`)."""


def plan_of(op: Any, profile: str = "ordered", in_place: bool = False) -> Step:
    """The plan of tile-level ``op`` (a verified, possibly detached op); KeyError names an op
    without a row."""
    builder = TILE_PLANS.get(type(op))
    if builder is None:
        raise KeyError(f"'{op.name}' has no row in interpreter.ssa.tile_plans.TILE_PLANS")
    return builder(op, profile, in_place)


__all__ = ["FAMILY_PLANS", "TILE_PLANS", "PlanBuilder", "Step", "plan_of"]
