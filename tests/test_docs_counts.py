"""The counts README.md and docs/ state, checked against the code (issue 24): the number of tile
ops and families, of pytest processes ``make test`` runs and of lit files. A count that drifts
turns this red; fix the prose (docs/ops.md is generated and checked by
``tests/evidence/test_op_table.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from pto_dialect.families import TILE_OP_FAMILIES

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()
TESTING = (REPO / "docs" / "testing.md").read_text()
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}

LIT_SUFFIXES = (".mlir", ".pto.s", ".test")  # tests/filecheck/lit.cfg, examples/lit.cfg
LIT_ROOTS = ("tests/filecheck", "examples")


def _number(text: str) -> int:
    return WORDS[text] if text in WORDS else int(text.replace(",", ""))


def lit_files() -> int:
    """The files lit discovers: the configured suffixes, outside Inputs/ and Output/."""
    count = 0
    for root in LIT_ROOTS:
        for p in (REPO / root).rglob("*"):
            parts = p.relative_to(REPO).parts
            if p.is_file() and p.name.endswith(LIT_SUFFIXES) and not {"Inputs", "Output"} & set(parts):
                count += 1
    return count


def pytest_processes() -> int:
    """The ``pytest-*`` jobs of the Makefile's ``test`` target."""
    makefile = (REPO / "Makefile").read_text()
    rule = re.search(r"^test:.*?\n((?:\t.*\n)+)", makefile, re.M)
    assert rule, "Makefile has no test target"
    return len(set(re.findall(r"\bpytest-[a-z]+\b", rule.group(1))))


def test_readme_op_and_family_counts():
    m = re.search(r"and (\d+) tile operations of the spec\s+catalog in (\d+) families", README)
    assert m, "README no longer states the op and family counts"
    ops = sum(len(members) for _name, members in TILE_OP_FAMILIES)
    assert (int(m.group(1)), int(m.group(2))) == (ops, len(TILE_OP_FAMILIES))


def test_readme_pytest_processes():
    m = re.search(r"`make test` runs ruff, then (\w+) pytest processes", README)
    assert m, "README no longer states how many pytest processes make test runs"
    assert _number(m.group(1)) == pytest_processes()


def test_testing_doc_pytest_processes():
    m = re.search(r"With (\w+) pytest processes", TESTING)
    assert m and _number(m.group(1)) == pytest_processes()


def test_lit_file_counts():
    n = lit_files()
    m = re.search(r"lit's two workers \(([\d,]+) files", README)
    assert m and _number(m.group(1)) == n, "README's lit file count"
    m = re.search(r"`lit -v tests/filecheck examples` \(([\d,]+) files", TESTING)
    assert m and _number(m.group(1)) == n, "docs/testing.md's lit file count"


def test_frontend_doc_corpus_count():
    """docs/frontend.md's "N of M completely": the corpus lit files that say they lower
    completely, of all corpus programs."""
    tests = sorted((REPO / "tests" / "filecheck" / "corpus").glob("*.test"))
    complete = sum("It lowers completely" in p.read_text() for p in tests)
    m = re.search(r"## What lowers today: (\d+) of (\d+) completely", (REPO / "docs" / "frontend.md").read_text())
    assert m and (int(m.group(1)), int(m.group(2))) == (complete, len(tests))
