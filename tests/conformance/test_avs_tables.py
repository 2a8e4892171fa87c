"""Table-driven conformance with the spec's AVS static and decode tests (D17).

Each row of ``avs_inventory.tsv`` whose facts name command words or a TEPL selector is checked
here through our public ISA API (``pto_dialect.isa``): the words the AVS test decodes must
decode (or be refused with IllegalInstruction) exactly as it asserts, a BSTART word must select
the operation the test's directory names, and a TEPL selector (or a CUBE / TLSU function code)
must map to the same operation and engine in our selector tables.
"""

from __future__ import annotations

import pytest

from conformance.inventory import rows
from pto_dialect.faults import PTOFault
from pto_dialect.isa import CUBE_FUNCTIONS, TLSU_FUNCTIONS, BStart, decode
from pto_dialect.isa.commands import TEPL_OPS

ROWS = rows()
DECODE = [r for r in ROWS if r.detail.endswith(f"test_decodes[{r.id}]")]
TEPL = [r for r in ROWS if r.detail.endswith(f"test_tepl_selector[{r.id}]")]
UNIT = [r for r in ROWS if r.detail.endswith(f"test_unit_selector[{r.id}]")]


def _mnemonic(cmd) -> str:
    if isinstance(cmd, BStart):
        return "BSTART." + (cmd.op_name or "?").replace("_", ".")
    return cmd.mnemonic


@pytest.mark.parametrize("row", DECODE, ids=[r.id for r in DECODE])
def test_decodes(row):
    for word, width, decodes in row.facts["words"]:
        if not decodes:
            with pytest.raises(PTOFault) as e:
                decode(word, width, strict=True)
            assert e.value.kind == "IllegalInstruction"
            continue
        cmd = decode(word, width)
        if isinstance(cmd, BStart) and row.subject.startswith("BSTART."):
            want = row.subject.removeprefix("BSTART.").replace(".", "").replace("_", "")
            name = (cmd.op_name or "").replace("_", "")
            if want not in ("SFU", "VEC", "TEPL"):
                assert name == want, (hex(word), cmd)


@pytest.mark.parametrize("row", TEPL, ids=[r.id for r in TEPL])
def test_tepl_selector(row):
    f = row.facts["tile_op"]
    op = TEPL_OPS[(f["code"] >> 5, f["code"] & 31)]
    assert op.name == f["op"]
    if f["engine"] is not None:
        assert op.engine.value == f["engine"]


@pytest.mark.parametrize("row", UNIT, ids=[r.id for r in UNIT])
def test_unit_selector(row):
    """CUBE / TLSU static contract tests: the function code names the operation, whose
    engine is its unit."""
    f = row.facts["tile_op"]
    table = CUBE_FUNCTIONS if f["family"] == "CUBE" else TLSU_FUNCTIONS
    assert table[f["code"]].name == f["op"]
    assert f["engine"] in (None, f["family"])
