"""Type errors of every op with a declarative ``assembly_format`` point at that op (issue 27).

For each such pto op, its first example in the lit files (a split chunk that parses) has its
type list corrupted in two ways -- one operand type too many, and a type that fits no
constraint (``i1`` for a tile / tensor) -- and the parse error must be on the op's own line,
on that line only (not the end of the input, not the next op, not without a location), and
name the op. pto_dialect/syntax.py (the count checks) and pto_dialect/upstream/xdsl_fixes.py
(the constraint checks xDSL makes after reading the whole op).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from xdsl.utils.exceptions import ParseError

from interpreter.ssa.runner import build_context
from pto_dialect.dialect import PTO
from pto_dialect.upstream.source_diagnostics import SourceParser

ROOT = Path(__file__).resolve().parents[2]
LIT = ROOT / "tests" / "filecheck"
DECLARATIVE = sorted(op.name for op in PTO.operations if getattr(op, "assembly_format", None))
_DEF = re.compile(r"\s*%[\w:#]+(?:, %[\w:#]+)* = (pto\.\w+)\b")
_TYPE = re.compile(r"(?:!pto\.tile|tensor)<[^<>]*>")


@functools.cache
def _examples() -> dict[str, tuple[str, str, int]]:
    """op name -> (file, chunk text, line index in the chunk) of its first parsing example;
    the round-trip files first."""
    ctx = build_context()
    files = sorted(LIT.glob("dialects/pto/ops*.mlir")) + sorted(
        f for f in LIT.rglob("*.mlir") if not f.name.startswith("ops")
    )
    found: dict[str, tuple[str, str, int]] = {}
    for f in files:
        for chunk in f.read_text().split("// -----"):
            mine = {}
            for i, line in enumerate(chunk.split("\n")):
                m = _DEF.match(line)
                if m and m.group(1) in DECLARATIVE and m.group(1) not in found:
                    mine.setdefault(m.group(1), i)
            if not mine:
                continue
            try:
                SourceParser(ctx, chunk, f.name).parse_module()
            except Exception:  # noqa: BLE001 - a chunk that is a negative test
                continue
            found.update({name: (f.name, chunk, i) for name, i in mine.items()})
        if len(found) == len(DECLARATIVE):
            break
    return found


def _corrupt(line: str, how: str) -> str:
    k = line.rfind(" : ")
    head, types = line[: k + 3], line[k + 3 :]
    if how == "extra":  # one operand type too many
        if types.startswith("()"):
            return head + "(i64)" + types[2:]
        if types.startswith("("):
            return head + "(i64, " + types[1:]
        return head + types + ", i64"
    # misfit: the result (function form), else the first type (the result / shared type)
    if "->" in types:
        i = types.rindex("->")
        return head + types[:i] + _TYPE.sub("i1", types[i:])
    return head + _TYPE.sub("i1", types, count=1)


def test_every_declarative_op_has_an_example():
    assert len(DECLARATIVE) > 40
    assert set(_examples()) == set(DECLARATIVE)


@pytest.mark.parametrize("how", ["extra", "misfit"])
@pytest.mark.parametrize("name", DECLARATIVE)
def test_type_error_at_the_ops_line(name: str, how: str):
    fname, chunk, i = _examples()[name]
    lines = chunk.split("\n")
    bad = _corrupt(lines[i], how)
    assert bad != lines[i]
    lines[i] = bad
    with pytest.raises(ParseError) as info:
        SourceParser(build_context(), "\n".join(lines), fname).parse_module()
    e = info.value
    assert e.span.get_location().line == i + 1, str(e)
    assert "\n" not in e.span.text, str(e)  # the op's own line only
    if how == "misfit" or types_form(bad) == "function":
        assert name in e.msg, str(e)


def types_form(line: str) -> str:
    return "function" if line[line.rfind(" : ") + 3 :].startswith("(") else "list"
