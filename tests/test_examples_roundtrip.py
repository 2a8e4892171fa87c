"""Every example prints back exactly with pto-opt's context, and its lowered forms (tile level
and blocks) also round-trip with plain xdsl-opt's context (the `xdsl.universe` plugin only).

Plain xdsl-opt cannot read the three examples that use upstream ops xDSL 0.75 lacks
(`arith.remf`, mixed-type `linalg.matmul`): pto-opt registers those (pto_dialect.upstream).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.printer import Printer
from xdsl.universe import Universe

from interpreter.ssa.runner import build_context
from passes import get_all_passes

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.mlir"))


def _print(op) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


def _xdsl_opt_context() -> Context:
    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_round_trips(path):
    text = _print(Parser(build_context(), path.read_text(), str(path)).parse_module())
    again = _print(Parser(build_context(), text).parse_module())
    assert again == text


@pytest.mark.parametrize("level", ["tile", "block"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_lowered_example_round_trips_with_plain_xdsl_opt(path, level):
    ctx = build_context()
    module = Parser(ctx, path.read_text(), str(path)).parse_module()
    PassPipeline.parse_spec(get_all_passes(), f"pto-lower{{level={level}}}").apply(ctx, module)
    text = _print(module)
    plain = _xdsl_opt_context()
    first = _print(Parser(plain, text).parse_module())
    second = _print(Parser(_xdsl_opt_context(), first).parse_module())
    assert first == second == text
