"""Fixes for xDSL 0.75 defects that let malformed input hang or crash our tools.

:func:`apply_xdsl_fixes` is idempotent and is called by
:func:`pto_dialect.upstream.register_upstream_overrides`, i.e. by every context our tools
build.

* **Unterminated string literal**: xDSL's lexer matches strings with
  ``"(?:[^"\\\\\\n\\v\\f]+|\\\\(...))*"`` -- a ``+`` inside a ``*``, so a ``"`` followed by
  ``n`` letters and no closing quote backtracks through 2^n splits before failing (over a
  minute at n = 40). The same language without nested repetition (one character per
  iteration) fails in linear time with the same diagnostic.
* **Hex dense float constants** (``dense<0xFF800000> : tensor<f32>`` is -inf, not
  4286578688): :mod:`pto_dialect.upstream.dense_floats`.
* **Unformatted message**: the lexer's "Expected suffix identifier after {first_char}" lacks
  its ``f`` prefix; :func:`fix_parse_error` puts the character in.
* **Type errors of a declarative format without a location**: an op parsed by its
  ``assembly_format`` checks its operand and result types against their constraints only
  after the whole op is read, with a :class:`VerifyException` that carries no position
  (``pto.reduce rowsum %x : (i64) -> ...`` printed "i64 should be of base attribute tensor"
  and nothing else; ``arith.addf %a, %b : i32`` "Unexpected attribute i32"). The fixed
  ``FormatProgram.parse`` names the operand or result whose type does not fit and raises a
  parse error at the op's own line, from its operands to the end of what it read
  (:func:`located_format_parse`). A pto op's attribute dictionary may not repeat a property
  its syntax writes otherwise (``pto.reduce rowsum %x {kind = "rowmax"}`` was accepted, the
  dictionary's ``kind`` kept as a second, ignored attribute).
"""

from __future__ import annotations

import re

from pto_dialect.upstream.dense_floats import install_dense_float_fixes

__all__ = [
    "MAX_DENSE_ELEMENTS",
    "STRING_LITERAL_REGEX",
    "apply_xdsl_fixes",
    "check_dense_sizes",
    "consumed_end",
    "fix_parse_error",
    "located_format_parse",
]

STRING_LITERAL_REGEX = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def apply_xdsl_fixes() -> None:
    from xdsl.irdl.declarative_assembly_format import FormatProgram
    from xdsl.utils.mlir_lexer import MLIRLexer

    install_dense_float_fixes()
    MLIRLexer._unescaped_characters_regex = STRING_LITERAL_REGEX  # pyright: ignore[reportPrivateUsage]

    if not getattr(FormatProgram.parse, "_pto_located", False):
        FormatProgram.parse = located_format_parse(FormatProgram.parse)  # type: ignore[method-assign]
        FormatProgram.resolve_constraint_variables = _marked_type_check(  # type: ignore[method-assign]
            FormatProgram.resolve_constraint_variables
        )


def consumed_end(parser, start):  # noqa: ANN001, ANN201 - xDSL's Parser and Position (int)
    """The end of the text ``parser`` has read since ``start``: its position before the
    whitespace and comment lines that precede the next token (``parser.pos`` is the next
    token's start, often on the next line)."""
    text = parser.lexer.input.content[start : parser.pos]
    lines = text.split("\n")
    while len(lines) > 1 and (not lines[-1].strip() or lines[-1].lstrip().startswith("//")):
        lines.pop()
    kept = "\n".join(lines).rstrip()
    return start + len(kept) if kept else start


def _misfit(op_def, state) -> str | None:  # noqa: ANN001 - xDSL's OpDef and ParsingState
    """``operand 'x'`` / ``result 'r'``: the first whose parsed types fail its own
    constraint (checked alone, in a fresh constraint context); None if each fits alone."""
    from xdsl.irdl.constraints import VerificationContext
    from xdsl.utils.exceptions import VerifyException

    groups = [("operand", op_def.operands, state.operand_types),
              ("result", op_def.results, state.result_types)]  # fmt: skip
    for role, defs, types in groups:
        for (name, d), t in zip(defs, types):
            if t is None:
                continue
            try:
                d.constr.verify((t,) if not isinstance(t, (list, tuple)) else tuple(t), VerificationContext())
            except VerifyException:
                return f"{role} '{name}'"
    return None


def _marked_type_check(check):  # noqa: ANN001, ANN202 - wraps resolve_constraint_variables
    """The format's type check; its error carries ``pto_format_types`` (the operand / result
    that does not fit, or None) for :func:`located_format_parse`."""
    from xdsl.utils.exceptions import VerifyException

    def checked(self, state, op_def):  # noqa: ANN001, ANN202
        try:
            return check(self, state, op_def)
        except VerifyException as e:
            e.pto_format_types = _misfit(op_def, state)  # type: ignore[attr-defined]
            raise

    return checked


def located_format_parse(parse):  # noqa: ANN001, ANN201 - wraps FormatProgram.parse
    """``FormatProgram.parse`` whose operand / result type errors are parse errors at the op
    (module docstring), naming the operand or result when one alone does not fit."""
    from xdsl.utils.exceptions import VerifyException

    def parse_located(self, parser, op_type):  # noqa: ANN001, ANN202
        start = parser.pos
        try:
            op = parse(self, parser, op_type)
        except VerifyException as e:
            if not hasattr(e, "pto_format_types"):  # not the format's type check
                raise
            where = e.pto_format_types  # type: ignore[attr-defined]
            what = f"{where} type" if where else "types"
            parser.raise_error(f"{op_type.name} {what}: {e}", start, consumed_end(parser, start))
        shadowed = sorted(set(op.attributes) & set(op_type.get_irdl_definition().properties))
        if shadowed and op_type.name.startswith("pto."):
            parser.raise_error(
                f"{op_type.name}: '{shadowed[0]}' is a property written in the op's own syntax, "
                "not in its attribute dictionary", start, consumed_end(parser, start),
            )  # fmt: skip
        return op

    parse_located._pto_located = True  # type: ignore[attr-defined]
    return parse_located


def fix_parse_error(e: Exception) -> Exception:
    """Repair a known-bad xDSL parse-error message in place; returns ``e``."""
    msg = getattr(e, "msg", None)
    if isinstance(msg, str) and "{first_char}" in msg:
        span = getattr(e, "span", None)
        char = span.text[:1] if span is not None else "the prefix"
        e.msg = msg.replace("{first_char}", f"'{char}'")  # type: ignore[attr-defined]
    return e


MAX_DENSE_ELEMENTS = 1 << 20
"""Input limit: a ``dense<...>`` constant may hold at most 2^20 elements. xDSL expands a
splat into every element in Python (about 15 s for 4M f8 values); larger data belongs in
function arguments (``pto-run --inputs``)."""

_DENSE = re.compile(r"dense<[^<>]*>\s*:\s*tensor<((?:\d+x)+)")


def check_dense_sizes(text: str, name: str) -> None:
    """Refuse a ``dense`` constant over :data:`MAX_DENSE_ELEMENTS` before xDSL parses it."""
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.lexer import Input, Span

    for m in _DENSE.finditer(text):
        count = 1
        for d in m.group(1).rstrip("x").split("x"):
            count *= int(d)
        if count > MAX_DENSE_ELEMENTS:
            raise ParseError(
                Span(m.start(), m.end(), Input(text, name)),
                f"a dense constant of {count} elements is over the input limit of "
                f"{MAX_DENSE_ELEMENTS}; pass large data as a function argument",
            )
