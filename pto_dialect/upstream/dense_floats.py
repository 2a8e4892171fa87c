"""Dense float constants as bit patterns: ``dense<0xFF800000> : tensor<f32>`` is -inf.

MLIR reads a hexadecimal integer token inside a ``dense<...>`` literal of a float element
type as the element's **bit pattern** (``0xFF800000`` is f32 -inf, ``0xFC00`` f16 -inf,
``0x7F800001`` an f32 signalling NaN); torch-mlir writes attention masks that way. xDSL 0.75
reads it as the integer 4286578688 and rounds that to the float type, and its printer
compares elements by value (so ``dense<[0.0, -0.0]>`` printed as the splat ``0.0`` and a NaN
splat as a list) and prints NaN and infinity from a Python float (losing signalling bits and
f16/bf16 NaN payloads). This module replaces, for float element types only:

* the tensor-literal case of ``AttrParser.parse_dense_int_or_fp_elements_attr``: every hex
  element is stored as its bit pattern (scalar splat, lists and nested lists; every float
  type: f16, bf16, f32, f64, the f8/f6/f4 types); decimal elements round as before;
  a leading minus or a pattern wider than the type is an error, as in MLIR;
* ``DenseIntOrFPElementsAttr.print_without_type``: a splat is decided by bits; NaN and
  infinity print as the hex bit pattern of the stored element, finite values as decimals
  that read back to the same bits;
* ``DenseIntOrFPElementsAttr.is_splat``: decided by bits, for every element type (so passes
  that turn a splat into a scalar never merge -0 with +0 nor miss a NaN splat).

:func:`install_dense_float_fixes` is idempotent; :func:`pto_dialect.upstream.xdsl_fixes.
apply_xdsl_fixes` calls it, i.e. every context our tools build.

Limitation (docs/hardening.md): a *scalar* ``arith.constant`` is an xDSL ``FloatAttr``, which
holds a Python float, so an f32 signalling NaN or an f16/bf16 NaN payload in scalar form is
quietened; :func:`float_attr_keeps_bits` tells passes when a splat must not be turned into
such a scalar.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr

__all__ = [
    "element_bits",
    "float_attr_keeps_bits",
    "install_dense_float_fixes",
    "is_splat_by_bits",
    "splat_to_shape",
]

_ORIGINAL: dict[str, Any] = {}


def is_splat_by_bits(attr: DenseIntOrFPElementsAttr) -> bool:
    """Every element has the same bytes as the first (an empty constant is not a splat)."""
    data = attr.data.data
    size = attr.get_element_type().compile_time_size
    if len(data) < size:
        return False
    return data == data[:size] * (len(data) // size)


def element_bits(attr: DenseIntOrFPElementsAttr, index: int = 0) -> int:
    """The stored bit pattern of element ``index`` (little-endian storage)."""
    size = attr.get_element_type().compile_time_size
    return int.from_bytes(attr.data.data[index * size : (index + 1) * size], "little")


def splat_to_shape(attr: DenseIntOrFPElementsAttr, new_type: Any) -> DenseIntOrFPElementsAttr:
    """A constant of ``new_type`` whose every element has the bits of ``attr``'s first."""
    from xdsl.dialects.builtin import BytesAttr

    size = attr.get_element_type().compile_time_size
    count = math.prod(new_type.get_shape())
    return DenseIntOrFPElementsAttr(new_type, BytesAttr(attr.data.data[:size] * count))


def float_attr_keeps_bits(bits: int, elt: AnyFloat) -> bool:
    """Whether the float element with these bits survives as a scalar ``FloatAttr``
    (a Python float, re-encoded by the type): false for an f32 signalling NaN or an
    f16/bf16/f8 NaN payload other than the default one."""
    size = elt.compile_time_size
    raw = bits.to_bytes(size, "little")
    (value,) = elt.unpack(raw, 1)
    if not math.isnan(value):
        return True
    return elt.pack([value]) == raw


def _is_hex(element: Any) -> bool:
    text = element.span.text
    return text.lstrip("-")[:2] in ("0x", "0X")


def _float_bytes(parser: Any, elements: Sequence[Any], elt: AnyFloat) -> bytes:
    size = elt.compile_time_size
    width = elt.bitwidth
    out = bytearray()
    for e in elements:
        if _is_hex(e):
            if e.is_negative or e.span.text.startswith("-"):
                parser.raise_error(
                    "hexadecimal float literal should not have a leading minus",
                    at_position=e.span,
                )
            bits = int(e.value)
            if bits >= 1 << width:
                parser.raise_error(
                    f"hexadecimal float constant out of range for type {elt.name}",
                    at_position=e.span,
                )
            out += bits.to_bytes(size, "little")
        else:
            out += elt.pack([e.to_float(parser)])
    return bytes(out)


def _parse_dense(self: Any, type: Any) -> DenseIntOrFPElementsAttr:
    from xdsl.dialects.builtin import BytesAttr
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    original = _ORIGINAL["parse"]
    start = self.pos
    self.parse_punctuation("<", " in dense attribute")
    if self._current_token.kind in (MLIRTokenKind.STRING_LIT, MLIRTokenKind.GREATER):
        # Empty and "0x..." byte-string contents: xDSL already keeps the bytes.
        self._resume_from(start)
        return original(self, type)
    elements, shape = self._parse_tensor_literal()
    self.parse_punctuation(">", " in dense attribute")
    if type is None:
        self.parse_punctuation(":", " in dense attribute")
        type = self._parse_dense_literal_type()
    elt = type.element_type
    type_shape = list(type.get_shape())
    count = math.prod(type_shape)
    if shape and type_shape != shape:
        self.raise_error(
            f"Shape mismatch in dense literal. Expected {type_shape} "
            f"shape from the type, but got {shape} shape."
        )
    if isinstance(elt, AnyFloat):
        data = _float_bytes(self, elements, elt)
        if not shape:
            data *= count
        return DenseIntOrFPElementsAttr(type, BytesAttr(data))
    values = [e.to_type(self, elt) for e in elements]
    if not shape:
        values *= count
    return DenseIntOrFPElementsAttr.from_list(type, values)


def _print_float_element(attr: DenseIntOrFPElementsAttr, index: int, printer: Any) -> None:
    elt = attr.get_element_type()
    size = elt.compile_time_size
    raw = attr.data.data[index * size : (index + 1) * size]
    (value,) = elt.unpack(raw, 1)
    if math.isfinite(value):
        printer.print_float(value, elt)
    else:
        printer.print_string(f"0x{int.from_bytes(raw, 'little'):0{2 * size}X}")


def _print_float_list(
    attr: DenseIntOrFPElementsAttr, start: int, shape: Sequence[int], printer: Any
) -> None:
    printer.print_string("[")
    if len(shape) > 1:
        k = math.prod(shape[1:])
        printer.print_list(
            range(shape[0]),
            lambda i: _print_float_list(attr, start + i * k, shape[1:], printer),
        )
    else:
        printer.print_list(
            range(shape[0]), lambda i: _print_float_element(attr, start + i, printer)
        )
    printer.print_string("]")


def _print_without_type(self: DenseIntOrFPElementsAttr, printer: Any) -> None:
    if not isinstance(self.get_element_type(), AnyFloat):
        _ORIGINAL["print"](self, printer)
        return
    printer.print_string("dense")
    length = len(self)
    shape = self.get_shape() if self.shape_is_complete else (length,)
    with printer.in_angle_brackets():
        if length == 0:
            pass
        elif is_splat_by_bits(self):
            _print_float_element(self, 0, printer)
        elif length > 100:
            printer.print_string(f'"0x{self.data.data.hex().upper()}"')
        else:
            _print_float_list(self, 0, shape, printer)


def install_dense_float_fixes() -> None:
    """Install the bit-pattern parser, printer and splat test (idempotent)."""
    from xdsl.parser.attribute_parser import AttrParser

    if _ORIGINAL:
        return
    _ORIGINAL["parse"] = AttrParser.parse_dense_int_or_fp_elements_attr
    _ORIGINAL["print"] = DenseIntOrFPElementsAttr.print_without_type
    AttrParser.parse_dense_int_or_fp_elements_attr = _parse_dense  # type: ignore[method-assign]
    DenseIntOrFPElementsAttr.print_without_type = _print_without_type  # type: ignore[method-assign]
    DenseIntOrFPElementsAttr.is_splat = is_splat_by_bits  # type: ignore[method-assign]
