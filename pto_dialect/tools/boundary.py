"""The tool boundary of ``pto-opt`` and ``pto-run``: every failure becomes one diagnostic.

A command-line tool of this project never shows a Python traceback, never hangs on
malformed input and never exits 0 after an error. :func:`guarded` runs a tool's body and
turns whatever escapes into text on stderr and an exit status:

* a diagnostic the toolchain raised on purpose (a parse error with its location, a
  verifier error naming the op, a :class:`ToolError`) is printed as it is: status 1;
* an exception raised *inside xDSL while it read the input* is a malformed-input
  diagnostic at the parser's position (:func:`parser_location` finds it);
* ``RecursionError`` / ``MemoryError`` name the limit the input exceeds: status 1;
* a closed stdout (``pto-opt x | head -1``) ends the tool quietly: status 1, no message;
* Ctrl-C: ``interrupted``, status 130;
* anything else is a bug of the toolchain, said in one line with how to report it;
  ``--debug`` re-raises so that Python prints the traceback.

Messages are scrubbed of Python object reprs (``<OpResult ...>``), which mean nothing to a
user (:func:`user_text`).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from types import TracebackType

from pto_dialect.upstream.xdsl_fixes import fix_parse_error

__all__ = [
    "REPORT_HINT",
    "first_line",
    "frames",
    "ToolError",
    "guarded",
    "parser_location",
    "user_text",
]

REPORT_HINT = (
    "this is a bug in pto-xdsl; please report it with the command line and the input "
    "(rerun with --debug for the traceback)"
)

# Recursion depth our tools allow: deep enough for any real nesting, shallow enough to
# stay well inside the C stack of the main thread.
RECURSION_LIMIT = 4000


class ToolError(Exception):
    """A user-facing error of a tool: ``str(err)`` is the whole message (one or more lines)."""


_REPR = re.compile(
    r"<(?:[\w.]+\.)?(\w+)(?:\[[^\]<>\n]*\])?(?: object)?(?: at 0x[0-9a-fA-F]+| [^<>\n]*)?>"
)
_CLASS = re.compile(r"<class '([\w.]+)'>")
_KNOWN_REPRS = {
    "OpResult": "an SSA value",
    "BlockArgument": "a block argument",
    "ModuleOp": "the module",
    "Block": "a block",
    "Region": "a region",
}


def user_text(text: str) -> str:
    """``text`` without Python object reprs (``<OpResult ...>`` -> ``an SSA value``)."""

    def repl(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in _KNOWN_REPRS:
            return _KNOWN_REPRS[name]
        if name.endswith("Op") or name.endswith("Operation"):
            return "an operation"
        if m.group(0).startswith("<") and (" at 0x" in m.group(0) or "object" in m.group(0)):
            return "an internal object"
        return m.group(0)

    text = _CLASS.sub(lambda m: m.group(1).rsplit(".", 1)[-1], text)
    return _REPR.sub(repl, text)


def frames(tb: TracebackType | None):
    while tb is not None:
        yield tb.tb_frame
        tb = tb.tb_next


def parser_location(exc: BaseException) -> str | None:
    """``file:line:col`` of the innermost xDSL parser/lexer active when ``exc`` was raised."""
    from xdsl.utils.lexer import Span

    found: str | None = None
    for frame in frames(exc.__traceback__):
        obj = frame.f_locals.get("self")
        if obj is None:
            continue
        span = None
        token = getattr(obj, "_current_token", None)
        if token is not None and isinstance(getattr(token, "span", None), Span):
            span = token.span
        elif isinstance(getattr(obj, "input", None), object) and hasattr(obj, "pos"):
            try:
                span = Span(obj.pos, obj.pos, obj.input)  # a lexer
            except Exception:  # noqa: BLE001 - not a lexer after all
                span = None
        if isinstance(span, Span):
            try:
                found = str(span.get_location())
            except Exception:  # noqa: BLE001 - a span we cannot place
                pass
    return found


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return user_text(line) or type(exc).__name__


def _quiet_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the final flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def guarded(
    tool: str,
    body: Callable[[], int | None],
    *,
    debug: bool = False,
    describe: Callable[[BaseException], str | None] | None = None,
) -> int:
    """Run ``body``; return its status, or print one diagnostic and return 1 (130 on Ctrl-C).

    ``describe(exc)`` may turn an exception into the tool's own message (or ``None`` to
    use the defaults below). With ``debug`` an unexpected error is re-raised.
    """
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
    try:
        return body() or 0
    except SystemExit:
        raise
    except KeyboardInterrupt:
        print(f"{tool}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 1
    except Exception as e:  # noqa: BLE001 - this is the boundary
        message = describe(e) if describe is not None else None
        if message is None:
            message = _default_message(tool, e)
            if message is None:
                if debug:
                    raise
                message = f"{tool}: internal error: {type(e).__name__}: {first_line(e)}; {REPORT_HINT}"
        try:
            print(user_text(message), file=sys.stderr)
        except BrokenPipeError:  # pragma: no cover - stderr closed too
            pass
        return 1
    finally:
        sys.setrecursionlimit(old_limit)


def _default_message(tool: str, e: BaseException) -> str | None:
    """The message of an error every tool treats alike, or ``None`` (an internal error)."""
    from xdsl.utils.exceptions import DiagnosticException, ParseError

    if isinstance(e, ToolError):
        return f"{tool}: error: {e}"
    if isinstance(e, ParseError):

        return str(fix_parse_error(e)).rstrip("\n")
    if isinstance(e, DiagnosticException):
        notes = [str(n) for n in getattr(e, "__notes__", ())]
        return "\n".join([str(e).rstrip("\n"), *notes]).rstrip("\n")
    if isinstance(e, RecursionError):
        return (
            f"{tool}: error: recursion too deep: the input nests, or the program calls "
            f"itself, beyond the tool's limit (about {RECURSION_LIMIT} levels)"
        )
    if isinstance(e, MemoryError):
        return f"{tool}: error: out of memory (the input asks for more memory than is available)"
    if isinstance(e, IsADirectoryError):
        return f"{tool}: error: '{e.filename}' is a directory, not a file"
    if isinstance(e, UnicodeDecodeError):
        return f"{tool}: error: the input is not UTF-8 text (byte {e.start}: {e.reason})"
    if isinstance(e, OSError):
        where = f"'{e.filename}': " if e.filename else ""
        return f"{tool}: error: {where}{e.strerror or first_line(e)}"
    return None
