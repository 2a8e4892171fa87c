"""Diagnostics at the source: where in the input an error is (issue 27).

xDSL 0.75 reports an undefined SSA value at the end of the file ("values used but not
defined") and a verifier error as the whole module in generic form with the op underlined.
This module keeps the positions xDSL's parser sees and puts the diagnostics there:

* :class:`SourceParser` is xDSL's :class:`~xdsl.parser.Parser` that remembers the span of
  every operation it parses (:func:`op_span`) and the first use of every value not yet
  defined; an undefined value is reported at that use::

      kernel.mlir:2:23
        %0 = arith.addf %a, %b : tensor<4x16xf32>
                            ^^
                            use of undefined value %b

* :func:`located_message` turns a verifier error into the failing op's own source line, in
  the same form (``file:line:col``, the line, a caret under the op, the message); an op
  with no source position (built by a pass) is shown by itself, printed, instead of the
  module;
* :func:`did_you_mean` is the suggestion of a misspelt name (a pass, a pass option, a
  function), by :func:`difflib.get_close_matches`; :func:`no_function_message` also lists
  the functions a module has.
"""

from __future__ import annotations

import difflib
import weakref
from array import array
from collections.abc import Iterable
from io import StringIO
from types import TracebackType
from weakref import WeakKeyDictionary

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input, Span

__all__ = [
    "SourceParser",
    "did_you_mean",
    "failing_op",
    "function_names",
    "located_message",
    "no_function_message",
    "op_location",
    "op_span",
    "op_spans",
    "set_op_spans",
    "set_span_table",
    "span_table",
]

_OP_SPANS: WeakKeyDictionary[Operation, Span] = WeakKeyDictionary()


def op_span(op: Operation) -> Span | None:
    """The span of ``op``'s first token through its name, if a :class:`SourceParser` read it."""
    span = _OP_SPANS.get(op)
    if span is None and _PENDING:
        _resolve_pending()
        span = _OP_SPANS.get(op)
    return span


_PENDING: list[tuple[weakref.ref[Operation], str, str, bytes]] = []
"""Span tables of modules loaded from a cache (:func:`set_span_table`), resolved when a span
is first asked for: (the module, its input's name and content, the table)."""


def span_table(module: Operation) -> tuple[list[tuple[Operation, Span]], tuple[str, int, bytes] | None]:
    """The spans of ``module`` and the ops in it, compactly for a stored module: those read
    from the module's own input as ``(input name, input length, table)``, the table being
    int64 triples (index of the op in ``module.walk()``, start, end) as bytes, and any others
    as ``(op, span)`` pairs. :func:`set_span_table` restores them."""
    main = None
    triples = array("q")
    others: list[tuple[Operation, Span]] = []
    for i, op in enumerate(module.walk()):
        span = _OP_SPANS.get(op)
        if span is None:
            continue
        if main is None:
            main = span.input
        if span.input is main:
            triples.extend((i, span.start, span.end))
        else:
            others.append((op, span))
    return others, None if main is None else (main.name, main.len, triples.tobytes())


def set_span_table(module: Operation, table: tuple[str, int, bytes], content: str) -> None:
    """Give the ops of ``module`` the spans of :func:`span_table`, in ``content`` (the text
    it was parsed from: ignored when its length differs), when a span is first asked for
    (a module loaded from a cache usually reports none)."""
    name, length, data = table
    if len(content) != length:
        return
    _PENDING[:] = [p for p in _PENDING if p[0]() is not None]
    _PENDING.append((weakref.ref(module), name, content, data))


def _resolve_pending() -> None:
    while _PENDING:
        ref, name, content, data = _PENDING.pop()
        module = ref()
        if module is None:
            continue
        source = Input(content, name)
        triples = array("q")
        triples.frombytes(data)
        wanted = {triples[k]: k for k in range(0, len(triples), 3)}
        for i, op in enumerate(module.walk()):
            k = wanted.get(i)
            if k is not None:
                _OP_SPANS[op] = Span(triples[k + 1], triples[k + 2], source)


def op_spans(module: Operation) -> list[tuple[Operation, Span]]:
    """The spans of ``module`` and the ops in it (those a :class:`SourceParser` read), for
    keeping them with a stored module (:func:`set_op_spans` restores them)."""
    return [(op, span) for op in module.walk() if (span := _OP_SPANS.get(op)) is not None]


def set_op_spans(spans: Iterable[tuple[Operation, Span]]) -> None:
    """Give ops the source spans :func:`op_spans` listed (a module loaded from a cache)."""
    for op, span in spans:
        _OP_SPANS[op] = span


def op_location(op: Operation) -> str | None:
    """``file:line:col`` of ``op`` in the input, or ``None``."""
    span = op_span(op)
    return None if span is None else str(span.get_location())


def _name_span(start: Span, op: Operation) -> Span:
    """From the op's first token (a result name or the op name) to the end of the op name on
    that line; the first token alone when the name is spelled otherwise (``module``)."""
    text = start.input.content
    line_end = text.find("\n", start.start)
    line_end = len(text) if line_end < 0 else line_end
    for spelling in (f'"{op.name}"', op.name, op.name.split(".", 1)[-1]):
        at = text.find(spelling, start.start, line_end)
        if at >= 0:
            return Span(start.start, at + len(spelling), start.input)
    return start


class SourceParser(Parser):
    """xDSL's parser, remembering where each op and each forward-referenced value is."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.first_uses: dict[str, Span] = {}

    def resolve_operand(self, operand: UnresolvedOperand, type):  # noqa: A002 - xDSL's name
        name = operand.operand_name
        if name not in self.ssa_values and name not in self.first_uses:
            self.first_uses[name] = operand.span
        return super().resolve_operand(operand, type)

    def _register_ssa_definition(self, name, values, span):  # noqa: ANN001 - xDSL's signature
        self.first_uses.pop(name, None)
        return super()._register_ssa_definition(name, values, span)

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        op = super().parse_operation()
        _OP_SPANS[op] = _name_span(start, op)
        return op

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as e:
            undefined = [n for n in self.forward_ssa_references if n in self.first_uses]
            if not undefined or not e.msg.startswith("values used but not defined"):
                raise
            undefined.sort(key=lambda n: self.first_uses[n].start)
            first, rest = undefined[0], undefined[1:]
            msg = f"use of undefined value %{first}"
            if rest:
                msg += f" (also undefined: {', '.join('%' + n for n in rest)})"
            raise ParseError(self.first_uses[first], msg) from None


def _frames(tb: TracebackType | None):
    while tb is not None:
        yield tb.tb_frame
        tb = tb.tb_next


def failing_op(exc: BaseException) -> Operation | None:
    """The op a verifier error is about: the op xDSL's ``emit_error`` was called on, else the
    innermost frame's ``self`` / ``op`` / ``user`` that is an operation (not the module)."""
    found = None
    for frame in _frames(exc.__traceback__):
        if frame.f_code.co_name == "emit_error":
            me = frame.f_locals.get("self")
            if isinstance(me, Operation):
                return me
        for name in ("self", "op", "user"):
            value = frame.f_locals.get(name)
            if isinstance(value, Operation) and not isinstance(value, ModuleOp):
                found = value
                break
    return found


def _op_text(op: Operation) -> str:
    """``op`` printed alone (regions elided), on one line."""
    out = StringIO()
    Printer(stream=out).print_op(op.clone_without_regions() if op.regions else op)
    return out.getvalue().strip().splitlines()[0]


def located_message(exc: BaseException, tool: str) -> str | None:
    """A verifier error at its op: the op's source line (``file:line:col``, the line, a caret,
    the message) or, for an op with no source position, ``tool: error: message`` and the op
    printed by itself. ``None`` when no op is found."""
    op = failing_op(exc)
    if op is None:
        return None
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    span = op_span(op)
    if span is not None:
        return span.print_with_context(msg).rstrip("\n")
    try:
        text = _op_text(op)
    except Exception:  # noqa: BLE001 - a malformed op may not print; the message stands alone
        return f"{tool}: error: {msg}"
    return f"{tool}: error: {msg}\n  in: {text}"


def did_you_mean(word: str, choices: Iterable[str], prefix: str = "") -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices``, or ``""``."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{prefix}{close[0]}'?)" if close else ""


def function_names(module: Operation) -> list[str]:
    """The ``sym_name`` of every ``func.func`` directly in ``module``, in order."""
    names = []
    for region in module.regions:
        for block in region.blocks:
            for op in block.ops:
                sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
                if op.name == "func.func" and sym is not None:
                    names.append(sym.data)  # type: ignore[attr-defined]
    return names


def no_function_message(module: Operation, symbol: str) -> str:
    """``no function named @x in the module``, with a suggestion and the functions there are."""
    names = function_names(module)
    there = (
        f"; its functions: {', '.join('@' + n for n in names)}" if names else "; it has no function"
    )
    return f"no function named @{symbol} in the module{did_you_mean(symbol, names, '@')}{there}"
