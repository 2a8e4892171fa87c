"""Architectural state beyond the tiles: the system-register file, the access-control rings,
the trap banks and trap contexts, fault entry and precise restart (docs/trap-context.md).

* :mod:`.registers` - the system-register map (a data table) and its access rules.
* :mod:`.traps` - the trap envelope: fault code -> trap number, targets, status packing.
* :mod:`.state` - :class:`ArchState`: reset, register access, SetFault, service requests,
  interrupts, SaveTrapContext / RecoverTrapContext, and :meth:`ArchState.run_at`.
"""

from interpreter.machine.arch.state import ArchState, TrapBank, TrapContext, new_block_control

__all__ = ["ArchState", "TrapBank", "TrapContext", "new_block_control"]
