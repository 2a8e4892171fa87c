"""The AVS inventory cannot drift from the tests (D17).

``avs_inventory.tsv`` is generated from a pto-spec checkout by scripts/avs_inventory.py and
committed (CI has no spec). Every row names an existing test or a reason; every AVS id a
hand-written test claims with ``@avs`` is in the inventory and points back at that test (a
``partial`` row also carries the test's ``unchecked`` reason).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from conformance.inventory import PARTIAL, claims, rows

STATUSES = {"test", "exists", "partial", "not-implemented", "not-expressible", "todo"}
MODULES = sorted(p.stem for p in Path(__file__).parent.glob("test_avs_*.py"))


def _resolve(node: str):
    m = re.fullmatch(r"tests/conformance/(test_\w+)\.py::(test_\w+)(?:\[(.+)\])?", node)
    assert m, node
    mod = importlib.import_module(f"conformance.{m.group(1)}")
    fn = getattr(mod, m.group(2), None)
    assert callable(fn), f"{node}: no such test"
    return mod, fn, m.group(3)


def test_every_row_names_a_test_or_a_reason():
    all_rows = rows()
    assert len({r.id for r in all_rows}) == len(all_rows) > 800
    for r in all_rows:
        assert r.status in STATUSES, r
        assert r.detail.strip(), r
        if r.status not in ("test", "exists", "partial"):
            continue
        node, _, unchecked = r.detail.partition(PARTIAL)
        assert (r.status == "partial") == bool(unchecked), r
        mod, fn, param = _resolve(node)
        if param is None or getattr(fn, "avs_table", False):
            assert r.id in getattr(fn, "avs_ids", ()), f"{r.detail} does not claim {r.id}"
            assert param in (None, r.id), r
            want = getattr(fn, "avs_unchecked", {}).get(r.id)
            assert (want + ")" if want else "") == unchecked, (r.id, unchecked, want)
            assert (r.status == "exists") == getattr(fn, "avs_exists", False), r
        else:
            assert r.status == "test", r
            table = {"test_decodes": mod.DECODE, "test_tepl_selector": mod.TEPL,
                     "test_unit_selector": mod.UNIT}[fn.__name__]  # fmt: skip
            assert param in {x.id for x in table}, r


def test_every_claimed_id_is_in_the_inventory():
    by_id = {r.id: r for r in rows()}
    seen: set[str] = set()
    for name in MODULES:
        mod = importlib.import_module(f"conformance.{name}")
        for avs_id, (attr, unchecked, _exists) in claims(mod).items():
            assert avs_id in by_id, f"{attr} claims unknown {avs_id}"
            assert avs_id not in seen, f"{avs_id} is claimed by two tests"
            seen.add(avs_id)
            want = f"tests/conformance/{name}.py::{attr}"
            if unchecked is not None:
                want += f"{PARTIAL}{unchecked})"
            assert by_id[avs_id].detail == want, (avs_id, by_id[avs_id].detail)


def test_not_expressible_stays_below_twenty():
    """Issue 11 target: fewer than 20 AVS tests about implemented operations we cannot express."""
    assert sum(r.status == "not-expressible" for r in rows()) < 20


def test_only_avs_units_asserts_bare_existence():
    """A test that only looks an object up (``unit_object``) is an ``avs_units`` table, which
    the inventory counts as ``exists``, never as a test of the pass condition."""
    for name in MODULES:
        text = (Path(__file__).parent / f"{name}.py").read_text()
        assert "unit_object" not in text, f"{name}: use avs_units, counted as exists"


def _counts() -> dict[str, int]:
    counts = dict.fromkeys(STATUSES, 0)
    for r in rows():
        counts[r.status] += 1
    return counts


def _number(text: str, pattern: str) -> int:
    m = re.search(pattern, text, re.S)
    assert m, pattern
    return int(m.group(1).replace(",", ""))


COUNT_PATTERNS = {
    "README.md": {
        "total": r"avs_inventory.tsv` lists the (\d+) in-scope AVS ids",
        "test": r"ids; (\d+) have a passing test that asserts",
        "exists": r"pass condition, (\d+) a passing test that only",
        "partial": r"(\d+) a passing test that leaves",
        "not-implemented": r"(\d+) are about operations not implemented",
        "not-expressible": r"(\d+) are not expressible",
        "todo": r"(\d+) are not translated",
    },
    "docs/conformance.md": {
        "total": r"Counts \((\d+) ids",
        "test": r"ids, regenerated with the inventory\): (\d+) assert",
        "exists": r"(\d+) `exists`",
        "partial": r"(\d+) `partial`",
        "not-implemented": r"(\d+) not implemented \(",
        "not-expressible": r"(\d+) not expressible;",
        "todo": r"(\d+) not translated\.",
    },
}
"""Where README's "Conformance" limit and docs/conformance.md give each count."""


@pytest.mark.parametrize("doc", COUNT_PATTERNS)
def test_docs_give_the_inventory_counts(doc):
    counts = {**_counts(), "total": len(rows())}
    text = " ".join((Path(__file__).resolve().parents[2] / doc).read_text().split())
    for status, pattern in COUNT_PATTERNS[doc].items():
        assert _number(text, pattern) == counts[status], (doc, status)
