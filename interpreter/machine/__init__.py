"""The architectural machine: registers, traps, global memory, block control and the Core that
runs decoded blocks.

``arch`` (system registers, trap banks, ``ArchState``), ``block_control`` (block start/stop
state), ``global_memory``, ``tile_registers`` and ``shared_registers`` (named tile storage),
``local_tlsu`` (Local tile loads and stores), ``core_local`` and ``shared_blocks`` (the Core),
``dispatch`` (decoded blocks and tile instructions run through the tile-plan table,
:mod:`interpreter.ssa.tile_plans`, without re-entering IR). Each PTO op is one kernel of
:mod:`interpreter.kernels`.
"""
