"""Hypothesis profiles; both interpreter engines.

CI (``CI=true``, as ``.ci/run`` is run) uses the ``ci`` profile: derandomized, so a green run on
main stays green on the same code; a property failure found there is reproducible from its seed.
Elsewhere the ``dev`` profile explores new examples on every run. ``HYPOTHESIS_PROFILE=<name>``
selects a profile explicitly.

Every ``interpreter.run`` / ``pto-run`` in the tests runs on the compiled AND the xDSL
engine and requires identical outcomes (``PTO_ENGINE=both``, issue 12), unless the
environment already sets ``PTO_ENGINE``.

Kernels run on the numpy reference (``PTO_KERNELS=numpy``, issue 26) unless the environment
sets ``PTO_KERNELS``: the suite checks the reference, ``tests/interpreter/test_cube_jit.py``
checks the compiled kernels against it on small shapes, and no other test pays for numba's
compilation.

The module cache (``PTO_MODULE_CACHE=0``, issue 26) is off unless the environment sets it.
"""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, Phase, settings

os.environ.setdefault("PTO_ENGINE", "both")
os.environ.setdefault("PTO_KERNELS", "numpy")
# The disk cache of loaded modules (issue 26) is off: the suite parses what it runs, and
# writes nothing under the user's cache directory; tests/interpreter/test_module_cache.py
# turns it on in a temporary folder.
os.environ.setdefault("PTO_MODULE_CACHE", "0")

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None)
# scripts/mutate.py: reproducible, and a failing example fails at once (no shrinking: -x stops
# at the first failure, and shrinking it could take minutes of the mutant's timeout)
settings.register_profile(
    "mutate", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)  # fmt: skip
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev")
)


# --- Per-test CPU profile (docs/testing.md): ``pytest --cpu-durations=N`` lists the N tests
# with the most CPU seconds (setup + call + teardown, this process only) and the collection
# cost. CPU seconds, unlike --durations' wall seconds, do not depend on what else the machine runs.

_CPU: dict[str, float] = {}
_CPU_COLLECT: list[float] = []


def pytest_addoption(parser):
    parser.addoption(
        "--cpu-durations",
        type=int,
        default=None,
        metavar="N",
        help="show the N tests with the most CPU seconds (0 for all)",
    )


def pytest_collection(session):
    _CPU_COLLECT.append(time.process_time())


def pytest_collection_finish(session):
    if _CPU_COLLECT:
        _CPU_COLLECT.append(time.process_time() - _CPU_COLLECT.pop())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    start = time.process_time()
    yield
    _CPU[item.nodeid] = _CPU.get(item.nodeid, 0.0) + time.process_time() - start


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    n = config.getoption("--cpu-durations")
    if n is None:
        return
    tr = terminalreporter
    rows = sorted(_CPU.items(), key=lambda kv: -kv[1])
    total = sum(_CPU.values())
    tr.write_sep("=", f"CPU seconds per test (top {n or len(rows)} of {len(rows)})")
    for nodeid, sec in rows[: n or None]:
        tr.write_line(f"{sec:8.3f}  {nodeid}")
    by_file: dict[str, float] = {}
    for nodeid, sec in rows:
        by_file[nodeid.split("::")[0]] = by_file.get(nodeid.split("::")[0], 0.0) + sec
    tr.write_sep("-", "CPU seconds per file")
    for path, sec in sorted(by_file.items(), key=lambda kv: -kv[1]):
        tr.write_line(f"{sec:8.3f}  {path}")
    collect = _CPU_COLLECT[0] if _CPU_COLLECT else 0.0
    tr.write_line(f"tests {total:.1f} CPU-s, collection {collect:.1f} CPU-s")
