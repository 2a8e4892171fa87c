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

from conformance.inventory import PARTIAL, claims, rows

STATUSES = {"test", "partial", "not-implemented", "not-expressible", "todo"}
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
        if r.status not in ("test", "partial"):
            continue
        node, _, unchecked = r.detail.partition(PARTIAL)
        assert (r.status == "partial") == bool(unchecked), r
        mod, fn, param = _resolve(node)
        if param is None or getattr(fn, "avs_table", False):
            assert r.id in getattr(fn, "avs_ids", ()), f"{r.detail} does not claim {r.id}"
            assert param in (None, r.id), r
            want = getattr(fn, "avs_unchecked", {}).get(r.id)
            assert (want + ")" if want else "") == unchecked, (r.id, unchecked, want)
        else:
            table = {"test_decodes": mod.DECODE, "test_tepl_selector": mod.TEPL,
                     "test_unit_selector": mod.UNIT}[fn.__name__]  # fmt: skip
            assert param in {x.id for x in table}, r


def test_every_claimed_id_is_in_the_inventory():
    by_id = {r.id: r for r in rows()}
    seen: set[str] = set()
    for name in MODULES:
        mod = importlib.import_module(f"conformance.{name}")
        for avs_id, (attr, unchecked) in claims(mod).items():
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
