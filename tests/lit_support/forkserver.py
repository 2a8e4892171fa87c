"""A fork server for the lit suites: the tools' Python start-up is paid once, not per RUN line.

The lit suites run about 400 tool processes (``pto-opt``, ``pto-run``, ``filecheck``). Each
spends about 0.35 s of CPU importing xDSL and registering dialects before doing any work, which
is most of the lit suite's cost. This server imports the tools once and forks a child per
command; a child is a pristine copy of the server (no state passes between commands), runs the
tool's ``main`` with the client's argv, working directory, environment and standard streams,
and reports the exit status. The client side is ``shim.py``; ``setup_lit`` in ``lit_setup.py``
starts the server and puts the shims first on the tests' ``PATH``.

Usage: ``python forkserver.py SOCKET-PATH`` (exits when its parent exits or on SIGTERM).
Set ``PTO_LIT_FORKSERVER=0`` to run the installed console scripts directly instead.
"""

from __future__ import annotations

import gc
import marshal
import os
import signal
import socket
import struct
import sys

TOOLS = {
    "pto-opt": ("pto_dialect.tools.pto_opt", "main"),
    "pto-run": ("interpreter.tools.pto_run", "main"),
    "filecheck": ("filecheck.main", "main"),
    "xdsl-opt": ("xdsl.tools.xdsl_opt", "main"),
    "python": (__name__, "run_script"),
}
"""Command name -> (module, function) of the console script it stands for (pyproject.toml);
``python SCRIPT.py ARGS`` (the examples' input generators and comparators) runs the script as
``__main__`` in the child, the way ``python`` would (the shim runs other ``python`` commands
directly)."""


def run_script() -> None:
    """``python SCRIPT.py ARGS`` in a child: the script's directory first on sys.path."""
    import runpy

    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    runpy.run_path(script, run_name="__main__")


def _recv_exact(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise ConnectionError("client closed the connection")
        data += chunk
    return data


def _profile(request: dict) -> None:
    """With PTO_LIT_PROFILE=FILE, append each command's CPU seconds (finding slow RUN lines)."""
    out = request.get("env", {}).get("PTO_LIT_PROFILE")
    if not out:
        return
    import resource

    use = resource.getrusage(resource.RUSAGE_SELF)
    with open(out, "a") as f:
        f.write(f"{use.ru_utime + use.ru_stime:.3f}\t{request['tool']} {' '.join(request['argv'])}\n")


def _fresh_streams() -> None:
    """Rebuild sys.stdin/stdout/stderr on the client's descriptors: the server's stream objects
    describe the server's own files (a seekable log, say), and tools reconfigure them."""
    sys.stdin = open(0, closefd=False)  # noqa: SIM115 - lives as long as the child
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", closefd=False, errors="backslashreplace", buffering=1)  # noqa: SIM115


def _run_child(conn: socket.socket, fds: list[int], request: dict, mains: dict) -> None:
    """In the forked child: become the requested command, run it, report its status."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        _fresh_streams()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [request["tool"], *request["argv"]]
        try:
            result = mains[request["tool"]]()
            code = result if isinstance(result, int) else (0 if result is None else 1)
        except SystemExit as stop:
            if stop.code is None:
                code = 0
            elif isinstance(stop.code, int):
                code = stop.code
            else:
                print(stop.code, file=sys.stderr)
                code = 1
    except BaseException:  # noqa: BLE001 - a child must always report and exit
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - a closed pipe is the reader's choice
                pass
        _profile(request)
        try:
            conn.sendall(struct.pack("!i", code))
        finally:
            os._exit(code & 0xFF)


LAZY_IMPORTS = (
    "passes.pto_targets",
    "xdsl.frontend.mlir",
    "email.parser",
    "encodings.cp437",
    "pto_dialect.dialect",
    "pto_dialect.ssa_checks",
    "interpreter.ssa.tensor_functions",
    "interpreter.ssa.tensor_convert_functions",
    "interpreter.ssa.tensor_local_functions",
)
"""Modules the tools import inside functions (seen with ``sys.modules`` before and after a run)."""


def _warm() -> None:
    """Import what the tools import lazily (dialects, passes, engines), without running anything:
    children inherit the loaded modules, never state left by an earlier command."""
    from xdsl.dialects import get_all_dialects

    import interpreter.ssa.compiled  # noqa: F401
    import pto_dialect.upstream  # noqa: F401
    from passes import get_all_passes

    for factory in get_all_dialects().values():
        factory()
    for factory in get_all_passes().values():
        factory()
    # What the commands import on first use: the xDSL universe (entry points, read through
    # importlib.metadata on every command), the lowering package's modules and LAZY_IMPORTS.
    import importlib
    import pkgutil

    from xdsl.universe import Universe

    import passes.lowering

    Universe.get_multiverse()
    for mod in pkgutil.iter_modules(passes.lowering.__path__, "passes.lowering."):
        importlib.import_module(mod.name)
    for name in LAZY_IMPORTS:
        importlib.import_module(name)


def _reap() -> None:
    """Collect finished children (so that their CPU time is accounted to the server)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def serve(path: str) -> None:
    import importlib

    mains = {tool: getattr(importlib.import_module(mod), fn) for tool, (mod, fn) in TOOLS.items()}
    _warm()
    # Children never collect the server's objects: a collection would walk (and copy-on-write
    # fault in) the whole imported heap in every child.
    gc.freeze()

    parent = os.getppid()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path + ".tmp")
    server.listen(64)
    os.rename(path + ".tmp", path)  # the path appears only once the server accepts
    server.settimeout(1.0)
    signal.signal(signal.SIGTERM, _stop)
    try:
        _loop(server, parent, mains)
    except _Stop:
        pass
    server.close()
    os.unlink(path)
    while True:  # wait for commands still running, so their CPU time is accounted
        try:
            os.wait()
        except ChildProcessError:
            break


class _Stop(Exception):
    pass


def _stop(signum, frame) -> None:
    raise _Stop


def _loop(server: socket.socket, parent: int, mains: dict) -> None:
    while True:
        _reap()
        try:
            conn, _ = server.accept()
        except TimeoutError:
            if os.getppid() != parent:
                return
            continue
        conn.settimeout(None)
        try:
            header, fds, _, _ = socket.recv_fds(conn, 4, 3)
            (size,) = struct.unpack("!I", header + _recv_exact(conn, 4 - len(header)))
            tool, argv, cwd, env = marshal.loads(_recv_exact(conn, size))
            request = {"tool": tool, "argv": argv, "cwd": cwd, "env": env}
            if request.get("tool") not in mains or len(fds) != 3:
                raise ValueError(f"bad request for {request.get('tool')!r}")
        except (OSError, ValueError, ConnectionError) as err:
            print(f"forkserver: {err}", file=sys.stderr)
            conn.close()
            continue
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            server.close()
            _run_child(conn, fds, request, mains)
        for fd in fds:
            os.close(fd)
        conn.close()


if __name__ == "__main__":
    serve(sys.argv[1])
