"""Every pto op's docstring example parses and verifies (docs stay true; issue 27).

An ``Example::`` block, or an inline ``Example: ``%r = pto.x ...``.`` whose types are written
out (not placeholders such as ``A`` or ``(...)``), is parsed op by op; the values it uses
without defining are given by ``test.op`` definitions of the types it uses them with; each op
must verify. Mutation testing found three that did not (two TROWARGMAX / TROWARGMIN result
tiles and the TIMG2COL tiles below the 128-byte TSize) and a generated example that no test
read (``pto_dialect/tile_local.py``: the row / column result types).
"""

from __future__ import annotations

import inspect
import re
import textwrap

import pytest
from xdsl.dialects.test import TestOp as DefOp
from xdsl.ir import Block
from xdsl.parser import Parser
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.utils.mlir_lexer import MLIRTokenKind

from interpreter.ssa.runner import build_context
from pto_dialect.dialect import PTO
from pto_dialect.isa.commands import TEPL_BY_NAME

_BLOCK = re.compile(r"Example::\n\n((?:[ \t]+.*\n?|\n)+)")
_INLINE = re.compile(r"Example:\s*``(%[^`]*)``", re.S)
_PLACEHOLDER = re.compile(r"\(\.\.\.\)|[(:,>]\s*[A-Z][A-Za-z]?\s*[,)]|-> [A-Z][a-z]?\b")


def _example(op) -> str | None:
    doc = inspect.cleandoc(op.__doc__ or "")
    m = _BLOCK.search(doc)
    if m:
        return textwrap.dedent(m.group(1)).strip()
    m = _INLINE.search(doc)
    if m and not _PLACEHOLDER.search(m.group(1)):
        return " ".join(m.group(1).split())
    return None


EXAMPLES = {op.name: ex for op in PTO.operations if (ex := _example(op)) is not None}


def test_the_examples_are_found():
    assert len(EXAMPLES) >= 90, len(EXAMPLES)
    for name in ("pto.tadd", "pto.tadds", "pto.trowargmax", "pto.tcolsum", "pto.timg2col", "pto.tgemv"):
        assert name in EXAMPLES


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_docstring_example_verifies(name: str):
    parser = Parser(build_context(), EXAMPLES[name], f"{name} docstring")
    ops = []
    while parser._current_token.kind != MLIRTokenKind.EOF:  # noqa: SLF001 - xDSL has no public eof test
        ops.append(parser.parse_operation())
    assert any(op.name == name for op in ops)
    block = Block()
    for op in ops:
        for operand in op.operands:
            if isinstance(operand, ForwardDeclaredValue):
                definition = DefOp(result_types=[operand.type])
                block.add_op(definition)
                operand.replace_all_uses_with(definition.results[0])
    for op in ops:
        block.add_op(op)
    for op in ops:
        op.verify()


def _block_lines() -> dict[str, tuple[str, str]]:
    out = {}
    for op in PTO.operations:
        m = re.search(r"Block: ``(BSTART[^`]*)``", inspect.cleandoc(op.__doc__ or ""))
        if m and getattr(op, "MNEMONIC", None) in TEPL_BY_NAME:
            out[op.name] = (op.MNEMONIC, m.group(1))
    return out


BLOCK_LINES = _block_lines()


def test_the_block_lines_are_found():
    assert len(BLOCK_LINES) >= 40
    assert {"pto.trowexpandexpdif", "pto.trowsum", "pto.thistogram"} <= set(BLOCK_LINES)


@pytest.mark.parametrize("name", sorted(BLOCK_LINES))
def test_docstring_block_line_has_the_catalogs_datr_fields(name: str):
    """A docstring's ``Block:`` line names B.DATR's DataType / PadValue exactly where the
    catalog (``pto_dialect/isa/commands.py``, its ``datr_fields``) accepts them."""
    mnemonic, line = BLOCK_LINES[name]
    assert line.startswith("BSTART.") and mnemonic in line.split(";")[0]
    datr = re.search(r"B\.DATR([^;\]]*)", line)
    fields = TEPL_BY_NAME[mnemonic].datr_fields
    written = datr.group(1) if datr else ""
    assert ("DataType" in written, "PadValue" in written) == ("D" in fields, "P" in fields), line
