#!/usr/bin/env python3
"""Regenerate tests/conformance/avs_inventory.tsv from a pto-spec checkout (D17).

Usage: python scripts/avs_inventory.py PATH-TO-PTO-SPEC-CHECKOUT

Lists every AVS test (``tests/asl``) under block/execution, block/attributes, block/encoding,
block/operands, tile/** and arch/data-types with its id, path, kind and subject (the directory
that names the instruction), plus the encoding facts our table-driven conformance tests need
(command words the test decodes; TEPL selector, operation and engine of a static contract
test). Each row then names how we meet it: the pytest node id of our test (a hand-written
test marks its AVS ids with ``@avs("PTO-AVS-...")``, read from the imported test modules; a
table-driven test covers every row with the facts it checks); for an ``exists`` row the test
that only asserts the object of ours modelling a unit exists (``avs_units``: the AVS test's
whole pass condition is that the unit compiles); for a ``partial`` row the test
and the part of the pass condition it cannot check (``@avs(..., unchecked=reason)``: a
feature that is not modelled); or the reason we do not (``op not implemented yet: OP``,
``not expressible: reason``, ``not translated yet``). CI has no spec checkout: the generated
file is committed and ``tests/conformance/test_inventory.py`` checks it against the tests.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "conformance" / "avs_inventory.tsv"
SCOPES = ("block/execution", "block/attributes", "block/encoding", "block/operands", "tile",
          "arch/data-types")  # fmt: skip

sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
from conformance.inventory import PARTIAL, Claim, claims  # noqa: E402

from pto_dialect.families import TILE_OP_FAMILIES  # noqa: E402

IMPLEMENTED = {op.name.removeprefix("pto.").upper() for _, ops in TILE_OP_FAMILIES for op in ops}
IMPLEMENTED |= {"TLOAD", "TSTORE"}
"""Operations with a dialect op, from the one family registry (plus the memory ops)."""
CARRIERS = {"BSTART.SFU": None, "BSTART.VEC": None, "BSTART.TEPL": None}
"""Generic TEPL carriers: about every TEPL operation, so in scope."""
NOT_EXPRESSIBLE: dict[str, str] = {}
"""Subjects (AVS directories) whose ISA feature is not modelled, with the reason. Empty: the
compressed C.BSTART forms and B.CATR are modelled (tests/conformance/test_avs_block_control.py)."""

NOT_EXPRESSIBLE_IDS: dict[str, str] = {}
"""Single AVS ids whose pass condition needs state this model does not have."""
NOT_MODELLABLE: dict[str, str] = {}
"""Operations left unimplemented because the spec gives a program no way to use them soundly
(status ``not-implemented`` with the reason: they are not implemented operations, so they do
not count against the not-expressible target of issue 11). Empty: TIMG2COL, whose descriptor
only the harness writes, is modelled at the tile-instruction and tile levels (docs/rearrange.md)."""
NOT_MODELLED: dict[str, str] = {}
"""Inventory paths (prefixes under tests/asl) about state or operations the toolchain does not
implement (yet), with the reason (``not implemented: FEATURE``); not inexpressible: they become
tests when the feature lands. Empty: the indexed memory operations and MGATHER.CAS are
implemented (D25)."""


def subject_of(rel: str) -> str:
    parts = rel.split("/")
    return parts[-2]


def op_of(subject: str) -> str:
    name = subject.removeprefix("BSTART.").removeprefix("C.BSTART.")
    name = name.replace("MX.", "_MX_").replace(".", "_")
    if name.endswith("MX") and not name.endswith("_MX"):
        name = name[:-2] + "_MX"
    return name


def facts_of(text: str) -> dict:
    facts: dict = {}
    words = [(int(b, 2), int(w), (op == "==") != (rhs == "PTO_COMMAND_FORM_COUNT"))
             for b, w, op, rhs in re.findall(
                 r"DecodeCommandForm\('([01]+)',\s*(\d+)\)\s*(==|!=)\s*(\w+)", text)]  # fmt: skip
    if words:
        facts["words"] = words
    m = re.search(r"DecodeTileOperation\(TileDecode_(\w+), '([01]+)'\) == (\d+)", text)
    if m:
        idx = m.group(3)
        op = re.search(rf"TileOperationOfIndex\({idx}\) == TileOperation_(\w+)", text)
        eng = re.search(rf"TileEngineOfIndex\({idx}\) == TileEngine_(\w+)", text)
        facts["tile_op"] = {
            "family": m.group(1),
            "code": int(m.group(2), 2),
            "op": op.group(1) if op else None,
            "engine": eng.group(1) if eng else None,
        }
    return facts


def hand_tests() -> dict[str, Claim]:
    """AVS id -> the claim (with the pytest node id) of the conformance test that claims it
    with ``@avs`` (read from the imported modules, so computed id lists count too)."""
    out: dict[str, Claim] = {}
    for path in sorted((ROOT / "tests" / "conformance").glob("test_*.py")):
        module = importlib.import_module(f"conformance.{path.stem}")
        for avs_id, claim in claims(module).items():
            assert avs_id not in out, f"{avs_id} claimed twice ({out[avs_id].node}, {path.name})"
            out[avs_id] = claim._replace(node=f"tests/conformance/{path.name}::{claim.node}")
    return out


def status_of(avs_id: str, subject: str, facts: dict, hand: dict,
              rel: str = "") -> tuple[str, str]:  # fmt: skip
    if avs_id in hand:
        node, unchecked, exists = hand[avs_id]
        if unchecked is not None:
            return "partial", f"{node}{PARTIAL}{unchecked})"
        return ("exists" if exists else "test"), node
    for prefix, reason in NOT_MODELLED.items():
        if rel.startswith(prefix):
            return "not-implemented", reason
    if "tile_op" in facts and facts["tile_op"]["family"] == "TEPL":
        return "test", f"tests/conformance/test_avs_tables.py::test_tepl_selector[{avs_id}]"
    if avs_id in NOT_EXPRESSIBLE_IDS:
        return "not-expressible", NOT_EXPRESSIBLE_IDS[avs_id]
    if "tile_op" in facts and facts["tile_op"]["family"] in ("CUBE", "TLSU"):
        return "test", f"tests/conformance/test_avs_tables.py::test_unit_selector[{avs_id}]"
    if subject in NOT_EXPRESSIBLE:
        return "not-expressible", NOT_EXPRESSIBLE[subject]
    op = op_of(subject)
    if subject.startswith(("BSTART.", "T", "M", "G")) and subject not in CARRIERS:
        if op in NOT_MODELLABLE:
            return "not-implemented", NOT_MODELLABLE[op]
        if op not in IMPLEMENTED:
            return "not-implemented", f"op not implemented yet: {op}"
    if "words" in facts:
        return "test", f"tests/conformance/test_avs_tables.py::test_decodes[{avs_id}]"
    return "todo", "not translated yet"


def main(spec: Path) -> int:
    base = spec / "tests" / "asl"
    if not base.is_dir():
        print(f"{spec}: not a pto-spec checkout (no tests/asl)", file=sys.stderr)
        return 2
    hand = hand_tests()
    rows = []
    for scope in SCOPES:
        for f in sorted((base / scope).glob("**/*.asl")):
            text = f.read_text()
            head = text.split("// PTO-TEST:", 1)[1].split("\n", 1)[0]
            meta = json.loads(head)
            rel = str(f.relative_to(base))
            subject = subject_of(rel)
            facts = facts_of(text)
            status, detail = status_of(meta["id"], subject, facts, hand, rel)
            rows.append((meta["id"], rel, meta["kind"], subject, status, detail,
                         json.dumps(facts, sort_keys=True)))  # fmt: skip
    ids = [r[0] for r in rows]
    assert len(ids) == len(set(ids)), "duplicate AVS ids"
    lines = ["# generated by scripts/avs_inventory.py from pto-spec e599a3d3 (D17); do not edit",
             "id\tpath\tkind\tsubject\tstatus\tdetail\tfacts"]  # fmt: skip
    lines += ["\t".join(r) for r in rows]
    OUT.write_text("\n".join(lines) + "\n")
    counts: dict[str, int] = {}
    for r in rows:
        counts[r[4]] = counts.get(r[4], 0) + 1
    print(f"{len(rows)} AVS ids -> {OUT.relative_to(ROOT)}: {counts}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(Path(sys.argv[1])))
