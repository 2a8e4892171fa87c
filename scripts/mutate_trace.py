"""pytest plugin of ``scripts/mutate.py``: which test runs which line of the mutated modules.

Loaded with ``-p mutate_trace`` (``scripts/`` on ``PYTHONPATH``) and the environment variables
``MUTATE_TRACE_FILE`` (the modules' paths relative to the repository copy, separated by
``os.pathsep``) and ``MUTATE_TRACE_OUT`` (a JSON file written at the end). With
``sys.settrace`` limited to those modules' frames it records, per module, the lines each test
executes (``tests``: node id -> [seconds, lines]) and the lines executed outside any test --
the import of the module, its tables, the collection of parametrized tests (``global``): a
mutant on a global line can change every test, a mutant on a line no test executes cannot
change any. One run traces every module of a mutation run (the test files overlap).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

import pytest

_TARGETS = [t for t in os.environ.get("MUTATE_TRACE_FILE", "").split(os.pathsep) if t]
_OUT = os.environ.get("MUTATE_TRACE_OUT", "")
_global: dict[str, set[int]] = {t: set() for t in _TARGETS}
_current: dict[str, set[int]] = _global
_tests: dict[str, dict[str, list]] = {t: {} for t in _TARGETS}
_target_of: dict[str, str | None] = {}  # co_filename -> target path or None


def _make_local(target: str):
    def local(frame, event, arg):
        if event == "line":
            _current[target].add(frame.f_lineno)
        return local

    return local


_LOCALS = {t: _make_local(t) for t in _TARGETS}


def _call(frame, event, arg):
    name = frame.f_code.co_filename
    if name in _target_of:
        target = _target_of[name]
    else:
        norm = name.replace(os.sep, "/")
        target = _target_of[name] = next((t for t in _TARGETS if norm.endswith("/" + t)), None)
    if target is None:
        return None
    _current[target].add(frame.f_lineno)
    return _LOCALS[target]


def pytest_configure(config):
    if _TARGETS:
        sys.settrace(_call)
        threading.settrace(_call)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _current
    _current = {t: set() for t in _TARGETS}
    start = time.perf_counter()
    yield
    secs = time.perf_counter() - start
    for t, lines in _current.items():
        _tests[t][item.nodeid] = [secs, sorted(lines)]
    _current = _global


def pytest_unconfigure(config):
    sys.settrace(None)
    threading.settrace(None)  # type: ignore[arg-type]
    if _OUT:
        with open(_OUT, "w") as f:
            json.dump({t: {"global": sorted(_global[t]), "tests": _tests[t]} for t in _TARGETS}, f)
