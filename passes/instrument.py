"""Pass instrumentation for pipeline passes (issue 27).

``pto-lower`` runs several passes inside one xDSL pass (recognition, tiling, cleanup,
bundling, register assignment), so xDSL's pass manager sees one pass. Each sub-pass reports
to the observers here: ``observer(name, module, seconds)`` after it ran, with ``module`` the
IR it produced. ``pto-opt --time-passes`` / ``--print-ir-after-all`` register one while the
pipeline runs (:meth:`pto_dialect.tools.pto_opt.PTOOptMain.apply_passes`).

Kept apart from the passes so that a tool can register an observer without importing them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

__all__ = ["SUB_PASS_OBSERVERS", "SubPassObserver", "run_sub_pass"]

SubPassObserver = Callable[[str, Any, float], None]

SUB_PASS_OBSERVERS: list[SubPassObserver] = []
"""Called after each sub-pass with (name, the module after it, seconds it took)."""


def run_sub_pass(name: str, module: Any, body: Callable[[], object]) -> None:
    """Run ``body`` (one sub-pass on ``module``) and tell the observers."""
    if not SUB_PASS_OBSERVERS:
        body()
        return
    start = time.perf_counter()
    body()
    seconds = time.perf_counter() - start
    for observer in list(SUB_PASS_OBSERVERS):
        observer(name, module, seconds)
