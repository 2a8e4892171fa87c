"""Client side of the lit fork server (``forkserver.py``): one tiny process per tool command.

``lit_setup.py`` writes one executable shim per tool (``pto-opt``, ``pto-run``, ``filecheck``,
``xdsl-opt``, ``python``) that runs this file with ``python -S``. It passes argv, working
directory, environment and the three standard streams (as file descriptors) to the server and
exits with the command's status. Without a server (``PTO_FORKSERVER`` unset or not answering),
and for ``python`` anything but ``python SCRIPT.py ...``, it runs the real command.

It imports only built-in modules (``_socket``, ``marshal``): about 650 commands start one each,
and ``json``/``socket`` would double a shim's start-up.
"""

import _socket
import marshal
import os
import sys


def main(tool: str, fallback: str) -> None:
    path = os.environ.get("PTO_FORKSERVER", "")
    args = sys.argv[1:]
    if tool == "python" and not (args and args[0].endswith(".py")):
        os.execv(fallback, [fallback, *args])
    try:
        conn = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        conn.connect(path)
    except OSError:
        os.execv(fallback, [fallback, *args])
    payload = marshal.dumps((tool, args, os.getcwd(), dict(os.environ)))
    fds = b"".join(fd.to_bytes(4, sys.byteorder) for fd in (0, 1, 2))
    conn.sendmsg(
        [len(payload).to_bytes(4, "big")], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)]
    )
    conn.sendall(payload)
    reply = b""
    while len(reply) < 4:
        chunk = conn.recv(4 - len(reply))
        if not chunk:
            print(f"{tool}: the lit fork server lost the command (crashed child)", file=sys.stderr)
            sys.exit(1)
        reply += chunk
    sys.exit(int.from_bytes(reply, "big", signed=True) & 0xFF)
