"""Decoded dispatch: the machine model runs instructions on its kernels, not through IR (issue 24).

A block the machine executes is decoded once (:func:`pto_dialect.isa.check_block`, the
:class:`~pto_dialect.isa.BlockSummary`); a tile instruction names its op directly. From there:

1. the decode selects the instruction's tile-level op class by the dialect's own facts (each op
   class carries its ISA selector: ``MODE`` / ``FUNCTION``) and the op is built **detached**
   from the register descriptors (:func:`pto_dialect.block_ops.check_computed` for a TEPL / CUBE
   block; :func:`~interpreter.machine.tile_registers.run_tile_instruction` for a tile
   instruction). Its verifier is where the legality rules live, so the checks and the
   :class:`PTOFault` they raise are exactly those of a linked block or a tile-level op; the op
   is never inserted into a function or module;
2. its plan comes from the op's row of :data:`interpreter.ssa.tile_plans.TILE_PLANS` (one row
   per op, derived from the family lists; a block adapts only its operand order,
   :func:`interpreter.ssa.block_functions.linked_plan`), i.e. the vectorised kernels of
   :mod:`interpreter.kernels` with their preflight;
3. the register values are converted as :func:`interpreter.run` converts arguments
   (:func:`interpreter.ssa.runner.convert_argument`) and the results back to valid rectangles
   ``(P, VR, VC)``; the caller publishes them to the registers only after the plan returned.

No function, module or interpreter is built, nothing is verified or decoded a second time, and
:func:`interpreter.run` is not entered. The static part of a block (its decode, its checked op,
its plan) is a pure function of its commands and descriptors and is remembered (:func:`decode`,
:func:`checked_op`; successes only, so a faulting block faults the same way every time). Faults are unchanged: a :class:`PTOFault` (kind, op,
message) passes through before any register is written; any other execution error is the
:class:`~interpreter.ssa.runner.RunError` ``run`` would raise. The IR path this replaces is
kept only as a test oracle (``tests/interpreter/test_machine_dispatch.py`` requires identical
bits and identical faults on both).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from xdsl.dialects.builtin import i64
from xdsl.ir import Attribute
from xdsl.utils.exceptions import DiagnosticException, InterpretationError

from interpreter.ssa.block_functions import linked_plan
from interpreter.ssa.runner import RunError, convert_argument
from interpreter.ssa.runtime import TileValue, array_from_tile
from interpreter.ssa.tile_plans import Step, plan_of
from interpreter.ssa.upstream.dtypes import UnsupportedTypeError
from pto_dialect.block_ops import check_computed, check_dim_values, dim_registers
from pto_dialect.isa import BlockSummary, Command, check_block
from pto_dialect.ops import PTOOp

DECODE_CACHE = 256
"""Entries of each decode cache below (least recently used first out)."""


def decode(cmds: Sequence[Command]) -> BlockSummary:
    """:func:`pto_dialect.isa.check_block` of a block's commands, remembered like a decode
    cache: a block run again is not decoded again. Only a successful decode is kept; a
    faulting block decodes, and faults, every time (the same :class:`PTOFault`)."""
    try:
        return _decode(tuple(cmds))
    except TypeError:  # not hashable (not commands): check_block reports it
        return check_block(list(cmds))


@lru_cache(maxsize=DECODE_CACHE)
def _decode(cmds: tuple[Command, ...]) -> BlockSummary:
    return check_block(list(cmds))


@lru_cache(maxsize=DECODE_CACHE)
def checked_op(s: BlockSummary, in_types: tuple[Attribute, ...],
               out_types: tuple[Attribute, ...]) -> PTOOp:  # fmt: skip
    """:func:`pto_dialect.block_ops.check_computed`, remembered per (decode, descriptors) like
    :func:`decode` (a fault is raised again every time). The op is shared: never change it."""
    return check_computed(s, in_types, out_types)


@lru_cache(maxsize=DECODE_CACHE)
def _block_step(s: BlockSummary, tile_op: PTOOp, tile_types: tuple[Attribute, ...],
                profile: str) -> Step:  # fmt: skip
    return linked_plan(s, tile_op, list(tile_types), profile)  # type: ignore[arg-type]


def run_step(step: Step, name: str, args: Sequence[Any], types: Sequence[Attribute],
             numbers: Sequence[int] | None = None) -> list[np.ndarray]:  # fmt: skip
    """Run ``step`` (a plan of op ``name``) on register values ``args`` of the types ``types``:
    tiles as valid rectangles ``(VR, VC)`` / ``(P, VR, VC)``, scalars as Python or numpy
    scalars (a bad one: the RunError of :func:`interpreter.run` naming argument ``numbers[k]``,
    default ``k``). Returns the results as numpy arrays (tiles: ``(P, VR, VC)``), never sharing
    memory with an argument."""
    numbers = range(len(args)) if numbers is None else numbers
    values = [convert_argument(v, t, i) for v, t, i in zip(args, types, numbers, strict=True)]
    try:
        results = step(*values)
    except (InterpretationError, DiagnosticException, UnsupportedTypeError) as e:
        lines = [x for x in str(e).splitlines() if x.strip()]
        raise RunError(f"'{name}': {lines[0].strip() if lines else type(e).__name__}",
                       str(e)) from e  # fmt: skip
    inputs = [v for v in values if isinstance(v, np.ndarray)]
    out = []
    for r in results:
        a = array_from_tile(r) if isinstance(r, TileValue) else np.asarray(r)
        out.append(a.copy() if any(np.may_share_memory(a, x) for x in inputs) else a)
    return out


def run_tile_op(op: PTOOp, args: Sequence[Any], profile: str = "ordered",
                numbers: Sequence[int] | None = None) -> list[np.ndarray]:  # fmt: skip
    """A verified (detached) tile-level ``op`` run on ``args`` (one per operand) through its
    :data:`~interpreter.ssa.tile_plans.TILE_PLANS` row (``numbers``: :func:`run_step`)."""
    return run_step(_op_step(op, profile), op.name, args, [v.type for v in op.operands], numbers)


@lru_cache(maxsize=DECODE_CACHE)
def _op_step(op: PTOOp, profile: str) -> Step:
    return plan_of(op, profile)  # keyed by the op's identity: a remembered op, one plan


def run_decoded_block(s: BlockSummary, tile_op: PTOOp, tiles: Sequence[np.ndarray],
                      tile_types: Sequence[Attribute], words: Sequence[int],
                      profile: str = "ordered") -> list[np.ndarray]:  # fmt: skip
    """A decoded TEPL / CUBE block ``s`` whose checked tile op is ``tile_op``
    (:func:`pto_dialect.block_ops.check_computed`) run on its source registers' values ``tiles``
    (of ``tile_types``, B.IOT order) and the GPR words ``words``: its scalar parameters (B.IOR
    dense order), then the values of its register-base B.DIM GPRs, whose LBs are checked
    first (TileLegality before any effect, :func:`pto_dialect.block_ops.check_dim_values`)."""
    n = len(dim_registers(s))
    scalars = list(words[: len(words) - n])
    if n:
        check_dim_values(s, tile_op, words[len(words) - n:])
    step = _block_step(s, tile_op, tuple(tile_types), profile)
    return run_step(step, "pto.block", [*tiles, *scalars], [*tile_types, *[i64] * len(scalars)])


__all__ = ["DECODE_CACHE", "checked_op", "decode", "run_decoded_block", "run_step", "run_tile_op"]
