"""Shared lit set-up: start the fork server and put the tool shims first on the tests' PATH.

Both lit suites (``tests/filecheck`` and ``examples``) call ``setup_lit(config)`` from their
``lit.cfg``. The suites still run every command through a shell exactly as written; only the
tools' start-up is shared (see ``forkserver.py``). ``PTO_LIT_FORKSERVER=0`` turns it off.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
_STARTED: dict[str, str] = {}


def _start(env: dict[str, str]) -> dict[str, str] | None:
    """Start one server per lit process; return the PATH/socket environment for the tests."""
    if _STARTED:
        return _STARTED
    from forkserver import TOOLS

    tmp = Path(tempfile.mkdtemp(prefix="pto-lit-"))
    sock = tmp / "server.sock"
    bindir = tmp / "bin"
    bindir.mkdir()
    for tool in TOOLS:
        fallback = shutil.which(tool, path=env.get("PATH"))
        if tool == "python" and fallback != sys.executable:
            continue  # the tests' python is not the server's: run it as it is
        if fallback is None:
            return None
        shim = bindir / tool
        shim.write_text(
            f"#!{sys.executable} -S\n"
            f"import sys; sys.path.insert(0, {str(HERE)!r})\n"
            f"import shim; shim.main({tool!r}, {fallback!r})\n"
        )
        shim.chmod(0o755)
    server = subprocess.Popen(
        [sys.executable, str(HERE / "forkserver.py"), str(sock)],
        env=env,
        stdin=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not sock.exists():
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            shutil.rmtree(tmp, ignore_errors=True)
            return None
        time.sleep(0.02)

    def stop() -> None:
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(tmp, ignore_errors=True)

    atexit.register(stop)
    _STARTED.update(PATH=f"{bindir}{os.pathsep}{env.get('PATH', '')}", PTO_FORKSERVER=str(sock))
    return _STARTED


def setup_lit(config) -> None:
    # The numpy kernels unless the environment chooses (issue 26): as in tests/conftest.py, no
    # RUN line pays for importing numba or compiling; tests/interpreter/test_cube_jit.py checks
    # the compiled kernels against them.
    config.environment["PTO_KERNELS"] = os.environ.get("PTO_KERNELS", "numpy")
    # The tools import the code the caller chose: scripts/mutate.py runs lit in a mutated copy
    # of the repository with PYTHONPATH on it. lit does not pass PYTHONPATH on, so without this
    # a RUN line that runs a tool directly (no fork server: one that failed to import the
    # mutant) imported the installed worktree and passed (issue 27).
    if os.environ.get("PYTHONPATH"):
        config.environment["PYTHONPATH"] = os.environ["PYTHONPATH"]
    # The module and plan cache (issue 26) of the tools the RUN lines start lives in a folder of
    # this lit process, removed at exit: a suite never reads or prunes the user's cache (nor
    # another checkout's or a mutant's), and the RUN lines that repeat a program still hit it.
    cache = tempfile.mkdtemp(prefix="pto-lit-cache-")
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    config.environment["PTO_CACHE_DIR"] = cache
    env = dict(os.environ)
    env.update(config.environment)
    if os.environ.get("PTO_LIT_FORKSERVER", "1") == "0":
        return
    sys.path.insert(0, str(HERE))
    started = _start(env)
    if started is not None:
        config.environment.update(started)
        if os.environ.get("PTO_LIT_PROFILE"):
            config.environment["PTO_LIT_PROFILE"] = os.environ["PTO_LIT_PROFILE"]
