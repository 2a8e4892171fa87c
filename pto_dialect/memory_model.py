"""The memory-order attribute of a block (pto-spec ``asl/arch/data-types/memory-model.asl``).

The unit defines the vocabulary of the PTO-TSO memory model: ``MemoryOrder`` (the ordering a
memory event carries), memory events and their relations. Of that, this toolchain implements
the ordering attribute a tile block gives its memory events: B.CATR's ``aq`` / ``rl`` bits select
it (``CurrentBundleMemoryOrder``, asl/block/model/state/control-state.asl; an omitted B.CATR
is Relaxed), and every TLOAD / TSTORE of the block carries it
(asl/tile/model/memory/load-store.asl).

What a run observes: the interpreter executes one agent (core) sequentially, every memory
effect in program order, with GM as tensors (SSA values; a TSTORE yields the updated tensor).
For one agent, PTO-TSO's per-location axiom (``MemoryRelationAcyclic(uniproc=TRUE)``,
asl/arch/memory-model/ordering.asl: coherence, from-read, same-location program order and
reads-from are acyclic) holds exactly when each read returns the latest program-order write
of its location, which is what a sequential run gives; the orders that ``aq``/``rl`` add
(``MemoryPreservedProgramOrderBefore``) only constrain other agents' view. So a block's
results do not depend on its memory order. The event list of a run on architectural state is
recorded by ``interpreter.machine.global_memory`` (each event carries this order; docs/gm-faults.md);
coherence ranks and other agents are not.
"""

from __future__ import annotations

from enum import Enum

from pto_dialect.isa.commands import BCatr

__all__ = ["MemoryOrder", "block_memory_order"]


class MemoryOrder(Enum):
    """``MemoryOrder`` (memory-model.asl), in the ASL's order."""

    RELAXED = 0
    ACQUIRE = 1
    RELEASE = 2
    ACQUIRE_RELEASE = 3


def block_memory_order(catr: BCatr | None) -> MemoryOrder:
    """``CurrentBundleMemoryOrder``: the order of a block's memory events from its B.CATR
    (None: no B.CATR, every bit zero). ``atom``, ``far``, ``trap`` and ``dr`` do not affect it."""
    aq, rl = (catr.aq, catr.rl) if catr is not None else (0, 0)
    return (MemoryOrder.RELAXED, MemoryOrder.RELEASE, MemoryOrder.ACQUIRE,
            MemoryOrder.ACQUIRE_RELEASE)[2 * aq + rl]  # fmt: skip
