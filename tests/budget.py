"""Hypothesis example budgets for the heaviest properties (docs/testing.md).

``examples(n)`` is ``n`` in ``make test``; ``PTO_HYPOTHESIS_SCALE=S`` multiplies every budget
that goes through it, for a deeper run of the same properties (for example
``PTO_HYPOTHESIS_SCALE=4 make pytest`` before a release). Budgets stay deterministic under the
``ci`` profile (derandomized): the same examples on every run of the same code.
"""

from __future__ import annotations

import os

SCALE = float(os.environ.get("PTO_HYPOTHESIS_SCALE", "1"))


def examples(n: int) -> int:
    """The example budget of a property whose make-test budget is ``n``."""
    return max(1, round(n * SCALE))
