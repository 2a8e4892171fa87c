"""Bare ``pytest`` (the console script, not ``python -m pytest``) imports the repository's
packages, not the test directories of the same names (issue 27).

``python -m pytest`` puts the current directory first on ``sys.path``; the ``pytest`` script
does not, so only ``pythonpath = ["."]`` in ``pyproject.toml`` keeps ``tests/interpreter`` from
shadowing ``interpreter``. The check runs the real script in a fresh process over a probe file
in ``tests/`` (the directory that ``prepend`` import mode puts first on ``sys.path``), from
another working directory, with ``PYTHONPATH`` unset.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bare_pytest_script_imports_the_packages(tmp_path):
    script = Path(sys.executable).parent / "pytest"
    assert script.exists(), f"no pytest script beside {sys.executable}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [str(script), "-p", "no:cacheprovider", "--noconftest",
         "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"),
         str(ROOT / "tests" / "bare_pytest_probe.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "4 passed" in proc.stdout, proc.stdout
