"""The analysis side of the linalg -> PTO lowering, one module per concern.

* :mod:`passes.lowering.rows` — the per-op table: arith/math body op -> the PTO
  instructions that compute it exactly (D18);
* :mod:`passes.lowering.fusion` — splat inputs to scalars, producer/consumer fusion of
  elementwise generics (``pto-fuse-elementwise``; run inside ``convert-linalg-to-pto``);
* :mod:`passes.lowering.elementwise` — the expression-tree lowering of any elementwise body
  through the table ``BODY_LOWERING`` (docs/elementwise-lowering.md);
* :mod:`passes.lowering.classify` — elementwise / contraction / reduction / data movement
  by indexing maps, iterators and body;
* :mod:`passes.lowering.explain` — why an op was not lowered (one sentence, naming the
  missing instruction);
* :mod:`passes.lowering.leftovers` — D19: what remains that is not PTO, data movement or
  scalar control; the block targets refuse such programs;
* :mod:`passes.lowering.report` — the lowering report (``pto-lower{report=true}``, the
  ``pto-lowering-report`` pass).
"""
