"""Fixes for xDSL 0.75 defects that let malformed input hang or crash our tools.

:func:`apply_xdsl_fixes` is idempotent and is called by
:func:`pto_dialect.upstream.register_upstream_overrides`, i.e. by every context our tools
build.

* **Unterminated string literal**: xDSL's lexer matches strings with
  ``"(?:[^"\\\\\\n\\v\\f]+|\\\\(...))*"`` -- a ``+`` inside a ``*``, so a ``"`` followed by
  ``n`` letters and no closing quote backtracks through 2^n splits before failing (over a
  minute at n = 40). The same language without nested repetition (one character per
  iteration) fails in linear time with the same diagnostic.
* **Unformatted message**: the lexer's "Expected suffix identifier after {first_char}" lacks
  its ``f`` prefix; :func:`fix_parse_error` puts the character in.
* **Hexadecimal floats in a dense literal**: MLIR reads ``0xFF800000`` in a float tensor
  literal (``dense<[0.0, 0xFF800000]> : tensor<2xf32>``, how MLIR prints -inf and NaN) as the
  element's bit pattern, as it does for a scalar float attribute; xDSL 0.75 converts the
  integer's value (4286578688.0) for tensor literals. The fix reads the bits.
"""

from __future__ import annotations

import re

__all__ = [
    "MAX_DENSE_ELEMENTS",
    "STRING_LITERAL_REGEX",
    "apply_xdsl_fixes",
    "check_dense_sizes",
    "fix_parse_error",
]

STRING_LITERAL_REGEX = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def apply_xdsl_fixes() -> None:
    from xdsl.parser.attribute_parser import AttrParser
    from xdsl.utils.mlir_lexer import MLIRLexer

    MLIRLexer._unescaped_characters_regex = STRING_LITERAL_REGEX  # pyright: ignore[reportPrivateUsage]
    element = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
    if not getattr(element.to_type, "hex_float_fix", False):
        element.to_type = _hex_float_to_type(element.to_type)


def _hex_float_to_type(original):
    """``to_type`` of a dense literal element, reading a hexadecimal literal of a float
    element type as its bit pattern (MLIR's rule)."""
    from xdsl.dialects.builtin import AnyFloat

    def to_type(self, parser, type):
        v = self.value
        if (isinstance(type, AnyFloat) and isinstance(v, int) and not isinstance(v, bool)
                and self.span.text[:2] in ("0x", "0X")):
            if v.bit_length() > type.bitwidth:
                parser.raise_error("Hexadecimal float constant out of range for type",
                                   at_position=self.span)
            return next(type.iter_unpack(v.to_bytes(type.compile_time_size, "little")))
        return original(self, parser, type)

    to_type.hex_float_fix = True  # type: ignore[attr-defined]
    return to_type


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
