"""The SSA interpreter: runs xDSL functions of PTO, linalg-like and upstream ops on numpy values.

``runner`` (``run``, ``load_module``, ``build_context``), ``runtime`` (tile values and their
storage), the per-family function tables (``pto_functions``, ``block_functions``,
``compare_functions``, ``tensor_*_functions``), ``tile_plans`` (tile-level op -> plan, one row
per op; the machine model runs its instructions through it), ``compiled`` (whole-function plans) and
``upstream`` (arith, scf, cf, func, linalg, math, tensor). Each PTO op is one kernel of
:mod:`interpreter.kernels`.
"""
