"""The custom-syntax pieces the pto ops share: xDSL custom directives for their declarative
``assembly_format`` strings, and the one hand-written printer/parser pair of the operand-list
shape the declarative format cannot split (several variadic operand groups).

Directives (used as ``custom<Name>(...)`` in an op's ``assembly_format``):

* :class:`DefaultsFirst` -- prints nothing; parses nothing; seeds the parsed properties with
  the op's ``PROPERTY_DEFAULTS`` in their order, so that a parsed op holds its properties in
  the order its constructor gives them (the generic form prints them in that order).
* :class:`Words` -- a ``StringAttr`` property spelled as bare words (``pto.expand row add``:
  ``kind = "row.add"``; the op's ``WORDS`` says how many), one of the op's ``WORD_CHOICES``
  (anything else is a parse error listing them).
* :class:`SignKeyword` -- the optional ``signed`` / ``unsigned`` keyword of an op whose
  signless integers need one.
* :class:`FunctionType` -- ``(operand types) -> result type``, xDSL's ``functional-type``
  with a parse error naming the counts when the types do not match the operands written.
* :class:`SharedType` -- ``: T`` when every operand and the result have type ``T``, else the
  function type ``: (Ta, Tb) -> Tr``.
* :class:`ResultTypeFirst` -- ``: T[, scalar types]``: the op's tile operands (its
  ``TILE_ROLES``, first) have the result type ``T``; the types of the others (its scalars)
  follow it.

Everything else in those formats is xDSL's own: operands, punctuation and ``attr-dict`` (with
``ParsePropInAttrDict`` the properties ride in it and are elided at their defaults).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from pto_dialect.upstream.xdsl_fixes import consumed_end

SIGNEDNESS_WORDS = ("signed", "unsigned")


@irdl_custom_directive
class DefaultsFirst(CustomDirective):
    """Seeds the parse with ``PROPERTY_DEFAULTS`` (in order); the attribute dictionary parsed
    after it overrides values in place."""

    def parse(self, parser: Parser, state: ParsingState) -> None:
        for name, value in getattr(state.op_type, "PROPERTY_DEFAULTS", {}).items():
            state.properties.setdefault(name, value)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        pass

    def can_parse_empty(self) -> bool:
        return True


@irdl_custom_directive
class Words(CustomDirective):
    """A ``StringAttr`` property as ``WORDS`` bare words (``.`` joins them in the value), one
    of the op's ``WORD_CHOICES``."""

    attr: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        words = [parser.parse_identifier() for _ in range(getattr(state.op_type, "WORDS", 1))]
        word = ".".join(words)
        choices: Sequence[str] = state.op_type.WORD_CHOICES  # type: ignore[attr-defined]
        if word not in choices:
            expected = ", ".join(c.replace(".", " ") for c in choices)
            parser.raise_error(f"unknown {state.op_type.name} {self.attr.name} "
                               f"'{' '.join(words)}' (expected one of {expected})", pos, consumed_end(parser, pos))  # fmt: skip
        self.attr.set(state, StringAttr(word))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.attr.get(op)
        assert isinstance(attr, StringAttr)
        state.print_whitespace(printer)
        printer.print_string(attr.data.replace(".", " "))


@irdl_custom_directive
class SignKeyword(CustomDirective):
    """The optional ``signed`` / ``unsigned`` keyword, kept in a ``StringAttr`` property."""

    attr: AttributeVariable

    def can_parse_empty(self) -> bool:
        return True

    def parse(self, parser: Parser, state: ParsingState) -> None:
        for word in SIGNEDNESS_WORDS:
            if parser.parse_optional_keyword(word) is not None:
                self.attr.set(state, StringAttr(word))
                break

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.attr.get(op)
        if isinstance(attr, StringAttr):
            state.print_whitespace(printer)
            printer.print_string(attr.data)


@irdl_custom_directive
class FunctionType(CustomDirective):
    """``(operand types) -> result type(s)``; one type per operand written and per result."""

    operand_types: TypeDirective
    result_types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        ft = parser.parse_function_type()
        ins, outs = list(ft.inputs.data), list(ft.outputs.data)
        n, m = _operand_count(state), len(state.result_types)
        if len(ins) != n or len(outs) != m:
            results = "one result" if m == 1 else f"{m} results"
            parser.raise_error(
                f"{state.op_type.name} takes {n} operand type(s) and {results}", pos, consumed_end(parser, pos)
            )
        _set_types(parser, state, pos, (self.operand_types, ins), (self.result_types, outs))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_function_type(self.operand_types.get(op), self.result_types.get(op))


@irdl_custom_directive
class SharedType(FunctionType):
    """``T`` when the operands and the result all have type ``T``, else a function type."""

    operand_types: TypeDirective
    result_types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser._current_token.text == "(":
            return super().parse(parser, state)
        pos = parser.pos
        t = parser.parse_type()
        ins, outs = [t] * _operand_count(state), [t]
        _set_types(parser, state, pos, (self.operand_types, ins), (self.result_types, outs))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        ins, outs = self.operand_types.get(op), self.result_types.get(op)
        if len(outs) == 1 and all(t == outs[0] for t in ins):
            state.print_whitespace(printer)
            printer.print_attribute(outs[0])
        else:
            super().print(printer, state, op)


@irdl_custom_directive
class ResultTypeFirst(CustomDirective):
    """``T[, scalar types]``: the first ``len(TILE_ROLES)`` operands (the op's class
    attribute) have the result type ``T``; the types of the remaining operands follow."""

    operand_types: TypeDirective
    result_types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        n = _operand_count(state)
        tiles = n - (len(types) - 1)
        if tiles != len(state.op_type.TILE_ROLES):  # type: ignore[attr-defined]
            parser.raise_error(
                f"{state.op_type.name}: {n} operand(s) but {len(types)} type(s); expected the "
                f"result type, then one type per scalar operand", pos, consumed_end(parser, pos)
            )
        _set_types(parser, state, pos, (self.operand_types, [types[0]] * tiles + types[1:]),
                   (self.result_types, types[:1]))  # fmt: skip

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        (result,) = self.result_types.get(op)
        scalars = self.operand_types.get(op)[len(type(op).TILE_ROLES) :]  # type: ignore[attr-defined]
        state.print_whitespace(printer)
        printer.print_list([result, *scalars], printer.print_attribute)


def _set_types(
    parser: Parser, state: ParsingState, pos: int, *groups: tuple[TypeDirective, Sequence[Attribute]]
) -> None:
    """Set each directive's types; a count that does not fit is a parse error at ``pos``."""
    try:
        for directive, types in groups:
            directive.set(state, types)
    except VerifyException as e:
        parser.raise_error(f"{state.op_type.name}: {e}", pos, consumed_end(parser, pos))


def _operand_count(state: ParsingState) -> int:
    return sum(len(g) for g in state.operands if g is not None)


# ======================================================================================
# The operand-list shape with several variadic groups (hand-written, shared)
# ======================================================================================


def print_props(printer: Printer, op: Operation, defaults: dict[str, Attribute]) -> None:
    """`` {props, attrs}``: properties in declaration order unless at their default, then the
    discardable attributes; nothing when both are empty."""
    order = list(type(op).get_irdl_definition().properties)  # type: ignore[attr-defined]
    shown = {
        k: op.properties[k]
        for k in sorted(op.properties, key=lambda k: order.index(k) if k in order else len(order))
        if k not in ("operandSegmentSizes", "resultSegmentSizes")
        and defaults.get(k) != op.properties[k]
    }
    shown.update(op.attributes)
    if shown:
        printer.print_string(" ")
        printer.print_attr_dict(shown)


def split_props(op_cls: type[IRDLOperation], attrs: dict[str, Attribute]):
    """(properties, discardable attributes) of a parsed attribute dictionary."""
    prop_names = set(op_cls.get_irdl_definition().properties)
    props = {k: v for k, v in attrs.items() if k in prop_names}
    others = {k: v for k, v in attrs.items() if k not in prop_names}
    return props, others


class OperandListSyntax:
    """The custom syntax `` [%a, %b] [{props}] : (types) -> result(s)`` of the families whose
    properties come from two levels (the base's ``pad``/``mask`` and a member's own), or whose
    operands form several variadic groups: the properties print in declaration order, elided
    at ``PROPERTY_DEFAULTS``, and a parsed op keeps its constructor's property order.

    A family using it (listed before its IRDL base) implements :meth:`from_syntax`.
    """

    def print(self, printer: Printer) -> None:
        op: Operation = self  # type: ignore[assignment]
        print_operands_and_type(printer, op, op.operands, op.results)

    @classmethod
    def parse(cls, parser: Parser):
        op_cls: type[IRDLOperation] = cls  # type: ignore[assignment]
        values, result_types, props, others = parse_operands_and_type(
            parser, op_cls, len(op_cls.get_irdl_definition().results)
        )
        op = cls.from_syntax(values, result_types)
        op.properties.update(props)
        op.attributes.update(others)
        return op

    @classmethod
    def from_syntax(cls, values: list[SSAValue], result_types: list[Attribute]) -> Operation:
        """The op from its operands in syntax order and its result types, properties at
        their defaults (the parser sets the written ones)."""
        raise NotImplementedError


def print_operands_and_type(
    printer: Printer, op: Operation, values: Sequence[SSAValue], results: Sequence[SSAValue]
) -> None:
    """`` [%a, %b] [{props}] : (types) -> result(s)``."""
    if values:
        printer.print_string(" ")
        printer.print_list(values, printer.print_operand)
    print_props(printer, op, op.PROPERTY_DEFAULTS)  # type: ignore[attr-defined]
    printer.print_string(" : ")
    printer.print_function_type([v.type for v in values], [r.type for r in results])


def parse_operands_and_type(
    parser: Parser, op_cls: type[IRDLOperation], results: int
) -> tuple[list[SSAValue], list[Attribute], dict[str, Attribute], dict[str, Attribute]]:
    """Parse :func:`print_operands_and_type`'s syntax: (operands, result types, properties,
    discardable attributes); ``results`` is the number of result types the op has."""
    pos = parser.pos
    names = parser.parse_optional_undelimited_comma_separated_list(
        parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
    ) or []
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    ft = parser.parse_function_type()
    if len(ft.inputs.data) != len(names) or len(ft.outputs.data) != results:
        parser.raise_error(
            f"{op_cls.name} takes {len(names)} operand type(s) and {results} result type(s)",
            pos, consumed_end(parser, pos),
        )  # fmt: skip
    values = [parser.resolve_operand(n, t) for n, t in zip(names, ft.inputs.data)]
    props, others = split_props(op_cls, attrs)
    return values, list(ft.outputs.data), props, others
