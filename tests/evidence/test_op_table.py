"""docs/ops.md is generated from the family tables (interpreter.op_table) and must not drift;
every priority-1 op of this registry is implemented at every layer."""

from __future__ import annotations

from pathlib import Path

from interpreter.op_table import render

DOC = Path(__file__).resolve().parents[2] / "docs" / "ops.md"


def test_ops_md_is_current():
    assert DOC.read_text() == render(), (
        "docs/ops.md is stale: run `python -m interpreter.op_table > docs/ops.md`"
    )


def test_every_listed_op_has_every_layer():
    rows = [line for line in render().splitlines() if line.startswith("| `pto.")]
    assert rows
    for line in rows:
        assert line.rstrip(" |").endswith("dialect, encoding, block, kernel, decoded"), line
