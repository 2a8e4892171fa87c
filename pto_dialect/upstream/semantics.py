"""Values the project chooses where upstream MLIR's are poison (docs/decisions.md D21).

Both the reference interpreter (:mod:`interpreter.ssa.upstream.arith`) and the lowering
(:mod:`passes.lowering.conversion`) read these, so a program computes the same before and
after lowering.
"""

from __future__ import annotations


def fp_to_int_through_width(width: int, unsigned: bool) -> int:
    """D21: ``fptosi``/``fptoui`` to an ``width``-bit integer converts the truncated value,
    saturating (NaN -> 0), to a signed integer of the returned width and keeps its low
    ``width`` bits: 32 for destinations narrower than 32 bits, 64 for ``fptoui`` to i32;
    0 means the destination itself (``fptosi`` to i32, both to i64), saturating."""
    if width == 64 or (width == 32 and not unsigned):
        return 0
    return 64 if width == 32 else 32
