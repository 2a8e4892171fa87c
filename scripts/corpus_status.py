"""Per-program status of the frontend corpus: runs as imported, lowering time, what is left.

    .venv/bin/python scripts/corpus_status.py [NAME_PREFIX ...]

For each corpus program (``tests/corpus``): whether the imported program runs on its
recorded inputs and matches the recorded output, the wall time of ``pto-lower`` (block
level), whether the lowered blocks match, the wall times of both runs (as imported and as
blocks, through ``interpreter.run``), and the leftover ops (D19) with their reasons.
The issue-28 whole models are the ``model_*`` programs; their table in
docs/lowering.md is written from this output.
"""

from __future__ import annotations

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests", "corpus")]

from corpus import CASES, assert_matches  # noqa: E402

from interpreter.ssa.runner import build_context, parse_module_text, run  # noqa: E402
from passes.lowering.leftovers import find_leftovers  # noqa: E402
from passes.pto_lower import PTOLowerPass  # noqa: E402


def _check(case, got, what: str) -> str:
    try:
        assert_matches(case, got, what=what)
        return "ok"
    except AssertionError as e:
        return f"MISMATCH ({str(e).splitlines()[0][:100]})"


def main(argv: list[str]) -> int:
    prefixes = tuple(argv) or ("model_",)
    for case in CASES:
        if not case.name.startswith(prefixes):
            continue
        inputs = case.inputs()
        t_run = time.perf_counter()
        try:
            (before,) = run(case.text(), "main", *inputs)
            ran = _check(case, before, "(as imported)")
        except Exception as e:  # noqa: BLE001 - a status report
            ran = f"FAILS: {type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''}"
        t_run = time.perf_counter() - t_run
        t0 = time.perf_counter()
        try:
            module = parse_module_text(case.text())
            PTOLowerPass().apply(build_context(), module)
        except Exception as e:  # noqa: BLE001
            print(f"{case.name}: run {ran}; pto-lower FAILS: {type(e).__name__}: {e}")
            continue
        dt = time.perf_counter() - t0
        left = find_leftovers(module)
        t_blocks = time.perf_counter()
        try:
            (got,) = run(module, "main", *inputs)
            after = _check(case, got, "(blocks)")
        except Exception as e:  # noqa: BLE001
            after = f"FAILS: {type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''}"
        t_blocks = time.perf_counter() - t_blocks
        status = "complete" if not left else f"{len(left)} left"
        print(f"{case.name}: run {ran} ({t_run:.2f} s); lower {dt:.2f} s, {status}; "
              f"blocks {after} ({t_blocks:.2f} s)")
        for x in left:
            print(f"    {x.diagnostic()[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
