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
"""

from __future__ import annotations

import re

from pto_dialect.upstream.dense_floats import install_dense_float_fixes

__all__ = [
    "MAX_DENSE_ELEMENTS",
    "STRING_LITERAL_REGEX",
    "apply_xdsl_fixes",
    "check_dense_sizes",
    "fix_parse_error",
]

STRING_LITERAL_REGEX = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def apply_xdsl_fixes() -> None:
    from xdsl.utils.mlir_lexer import MLIRLexer

    install_dense_float_fixes()
    MLIRLexer._unescaped_characters_regex = STRING_LITERAL_REGEX  # pyright: ignore[reportPrivateUsage]


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
