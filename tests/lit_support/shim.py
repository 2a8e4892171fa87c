"""Client side of the lit fork server (``forkserver.py``): one tiny process per tool command.

``lit_setup.py`` writes one executable shim per tool (``pto-opt``, ``pto-run``, ``filecheck``)
that runs this file with ``python -S``. It passes argv, working directory, environment and the
three standard streams (as file descriptors) to the server and exits with the command's status.
Without a server (``PTO_FORKSERVER`` unset or not answering) it runs the installed console script.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys


def main(tool: str, fallback: str) -> None:
    path = os.environ.get("PTO_FORKSERVER", "")
    args = sys.argv[1:]
    try:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(path)
    except OSError:
        os.execv(fallback, [fallback, *args])
    request = {"tool": tool, "argv": args, "cwd": os.getcwd(), "env": dict(os.environ)}
    payload = json.dumps(request).encode()
    socket.send_fds(conn, [struct.pack("!I", len(payload))], [0, 1, 2])
    conn.sendall(payload)
    reply = b""
    while len(reply) < 4:
        chunk = conn.recv(4 - len(reply))
        if not chunk:
            print(f"{tool}: the lit fork server lost the command (crashed child)", file=sys.stderr)
            sys.exit(1)
        reply += chunk
    sys.exit(struct.unpack("!i", reply)[0] & 0xFF)
