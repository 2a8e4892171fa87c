"""The machine model's IR path before issue 24, kept ONLY as a test oracle and benchmark baseline.

Before issue 24 a decoded block on :class:`~interpreter.machine.shared_blocks.Core` was re-linked
into a ``pto.block`` of its register types (its B.IOR renamed to the ``a<k>`` convention),
checked with :func:`pto_dialect.block_ops.check_linked` and run as the one op of a function with
:func:`interpreter.run` (which verified and decoded it again); a tile instruction on
:class:`~interpreter.machine.tile_registers.TileRegisters` was run as the one op of a function
likewise. :func:`ir_path` puts that path back in place of the direct dispatch
(:mod:`interpreter.machine.dispatch`) for the differential test
(``tests/interpreter/test_machine_dispatch.py``) and the overhead figure of
``benchmarks/bench_interpreter.py``.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

import numpy as np
import pytest
from xdsl.dialects import builtin, func
from xdsl.dialects.builtin import i64
from xdsl.ir import Block, Region

from interpreter.machine import core_local, tile_registers
from interpreter.ssa.runner import run
from pto_dialect.block_ops import SLOT_GPRS, BlockOp, check_linked, scalar_roles
from pto_dialect.isa import BIor


def _run_in_function(body: Block, instr, args, profile: str) -> list[np.ndarray]:
    results = list(instr.results)
    body.add_ops([instr, func.ReturnOp(*results)])
    fn = func.FuncOp("f", ([a.type for a in body.args], [r.type for r in results]), Region(body))
    return list(run(builtin.ModuleOp([fn]), "f", *args, profile=profile))


def _linked_commands(cmds, n_scalars: int):
    names = dict(zip(("src0", "src1", "src2")[:n_scalars], SLOT_GPRS))
    return [replace(c, **names) if isinstance(c, BIor) else c for c in cmds]


def _old_check(_s, in_types, out_types):
    return in_types, out_types  # the old path checked the linked block (below)


def _old_block(s, typed, tiles, tile_types, words, profile="ordered"):
    _in_types, outs = typed
    body = Block(arg_types=[*tile_types, *[i64] * len(words)])
    block = BlockOp(_linked_commands(list(s.commands), len(scalar_roles(s))), list(body.args),
                    list(outs))  # fmt: skip
    check_linked(block, block.summary())
    return _run_in_function(body, block, [*tiles, *words], profile)


def _old_tile_op(instr, args, profile="ordered", numbers=None):
    owners = {v.block for v in instr.operands}
    old = owners.pop() if owners else Block()
    body = Block(arg_types=[a.type for a in old.args])  # a copy: the machine shares its op
    instr = instr.clone(value_mapper=dict(zip(old.args, body.args)))
    values = [None] * len(body.args)
    for x, k in zip(args, numbers if numbers is not None else range(len(args))):
        values[k] = x
    return _run_in_function(body, instr, values, profile)


@contextlib.contextmanager
def ir_path():
    """The machine as it was before issue 24 (wrap in a function, :func:`interpreter.run`)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(core_local, "checked_op", _old_check)
        mp.setattr(core_local, "run_decoded_block", _old_block)
        mp.setattr(tile_registers, "run_tile_op", _old_tile_op)
        yield
