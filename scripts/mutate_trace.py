"""pytest plugin of ``scripts/mutate.py``: which test runs which line of one module (issue 27).

Loaded with ``-p mutate_trace`` (``scripts/`` on ``PYTHONPATH``) and the environment variables
``MUTATE_TRACE_FILE`` (the module's path relative to the repository copy) and
``MUTATE_TRACE_OUT`` (a JSON file written at the end). It records, with ``sys.settrace`` limited
to that module's frames, the lines each test executes (``tests``: node id -> [seconds, lines])
and the lines executed outside any test -- the import of the module, its tables, the collection
of parametrized tests (``global``): a mutant on a global line can change every test, a mutant
on a line no test executes cannot change any.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

import pytest

_TARGET = os.environ.get("MUTATE_TRACE_FILE", "")
_OUT = os.environ.get("MUTATE_TRACE_OUT", "")
_global_lines: set[int] = set()
_current: set[int] = _global_lines
_tests: dict[str, list] = {}
_is_target: dict[str, bool] = {}


def _local(frame, event, arg):
    if event == "line":
        _current.add(frame.f_lineno)
    return _local


def _call(frame, event, arg):
    name = frame.f_code.co_filename
    hit = _is_target.get(name)
    if hit is None:
        hit = _is_target[name] = bool(_TARGET) and name.replace(os.sep, "/").endswith("/" + _TARGET)
    if not hit:
        return None
    _current.add(frame.f_lineno)
    return _local


def pytest_configure(config):
    if _TARGET:
        sys.settrace(_call)
        threading.settrace(_call)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _current
    _current = set()
    start = time.perf_counter()
    yield
    _tests[item.nodeid] = [time.perf_counter() - start, sorted(_current)]
    _current = _global_lines


def pytest_unconfigure(config):
    sys.settrace(None)
    threading.settrace(None)  # type: ignore[arg-type]
    if _OUT:
        with open(_OUT, "w") as f:
            json.dump({"global": sorted(_global_lines), "tests": _tests}, f)
