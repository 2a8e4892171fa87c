"""Run by ``tests/test_bare_pytest.py`` through the bare ``pytest`` script (never collected
by itself: its name does not match ``test_*.py``).

Under pytest's default ``prepend`` import mode this file's directory, ``tests/``, is first on
``sys.path``, where ``tests/interpreter`` and ``tests/passes`` are directories without an
``__init__.py``: without the repository root on ``sys.path`` (``pythonpath`` in
``pyproject.toml``) they would be imported as empty namespace packages in place of the real
ones, and ``tests.budget`` would not be found.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "name, origin",
    [
        ("interpreter", "interpreter/__init__.py"),
        ("passes", "passes/__init__.py"),
        ("pto_dialect", "pto_dialect/__init__.py"),
        ("tests.budget", "tests/budget.py"),
    ],
)
def test_package_resolves_to_the_repository(name: str, origin: str):
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, name
    assert Path(spec.origin).resolve() == ROOT / origin
