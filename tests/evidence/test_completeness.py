"""Completeness of the op families (ADR-0034 "adding a selector requires an explicit evidence
update"; families are tables, not copies).

Every op class in ``CUBE_OPS``, ``BINARY_OPS``, ``LOCAL_OPS`` (reductions, expansions,
TTRANS, ..., TSORT), ``CONVERT_OPS`` (TCVT, TQUANT, TDEQUANT) and ``MOVE_OPS`` (TMOV, a TLSU
function) must have, keyed by its name:

* a kernel row: ``interpreter.kernels.KERNELS[<catalog name>]`` (CUBE),
  ``BINARY_ROWS[<MNEMONIC>]`` (binary) or ``LOCAL_ROWS[<MNEMONIC>]`` (tile-local);
* an encoding row: the op class names its ``BLOCK_FAMILY`` and catalog ``MNEMONIC`` and
  reads its selector (``MODE``, ``FUNCTION``) from that row of ``isa.CUBE_FUNCTIONS`` /
  ``isa.TEPL_OPS`` / ``isa.TLSU_FUNCTIONS`` (no class writes a selector of its own), and the
  decoded dispatch finds the op class back (``pto_dialect.families.op_of_selector``);
* a block-composition row in ``pto-form-blocks`` (its ``FORMERS`` table is keyed by op
  family, so a member is covered through its base class);
* a round-trip lit test (a ``CHECK-NEXT`` of its custom form), an invalid lit test (a
  diagnostic of the op) and an execution test (the evidence modules' ``EXECUTED`` sets).

A new sibling added to a family list without these rows fails here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import test_binary_evidence
import test_compare_evidence
import test_convert_evidence
import test_cube_evidence
import test_elementwise_evidence
import test_gm_indexed_evidence
import test_rearrange_evidence
import test_sort_move_evidence
import test_tile_local_evidence

from interpreter.kernels import BINARY_ROWS, KERNELS, LOCAL_ROWS, TILE_SCALAR_ROWS, UNARY_ROWS
from interpreter.kernels.status import unary_status
from interpreter.kernels.ternary import TEXPANDS_ROW, TFMA_ROW
from passes import get_all_passes
from pto_dialect import isa
from pto_dialect.block_ops import block_unsound
from pto_dialect.compare_ops import COMPARE_SELECT_OPS
from pto_dialect.convert_ops import CONVERT_OPS
from pto_dialect.dialect import PTO
from pto_dialect.elementwise_ops import ELEMENTWISE_FAMILY_OPS, UNARY_OPS
from pto_dialect.families import OP_OF_MNEMONIC, TILE_OPS, op_of_selector
from pto_dialect.gm_indexed import GM_OPS
from pto_dialect.isa.commands import CatalogField
from pto_dialect.ops import BINARY_OPS, CUBE_OPS, PTOOp
from pto_dialect.status_rules import UnaryStatus
from pto_dialect.tile_local import GENERATOR_OPS, LOCAL_OPS
from pto_dialect.tile_move import MOVE_OPS

FILECHECK = Path(__file__).resolve().parents[1] / "filecheck"
ALL_OPS = [*CUBE_OPS, *BINARY_OPS, *ELEMENTWISE_FAMILY_OPS, *LOCAL_OPS, *GENERATOR_OPS,
           *COMPARE_SELECT_OPS, *CONVERT_OPS, *MOVE_OPS, *GM_OPS]


def _decoded(cls) -> bool:
    """The decoded dispatch of the op's own selector finds the op class back."""
    return op_of_selector(cls.BLOCK_FAMILY, cls.FUNCTION, cls.MODE) is cls and not (
        block_unsound(cls)
    )


def _lit_files(flag: str) -> dict[Path, str]:
    """The lit files whose RUN lines use ``flag``."""
    out = {}
    for p in FILECHECK.rglob("*.mlir"):
        if "Output" in p.parts:
            continue
        text = p.read_text()
        if any(flag in line for line in text.splitlines() if "RUN:" in line):
            out[p] = text
    return out


ROUND_TRIP = _lit_files("--print-op-generic")
INVALID = _lit_files("--verify-diagnostics")


def test_families_are_nonempty_and_disjoint():
    assert len(CUBE_OPS) == 12 and len(BINARY_OPS) == 12 and len(LOCAL_OPS) == 43
    assert len(MOVE_OPS) == 1 and len(GM_OPS) == 7
    assert len({c.name for c in ALL_OPS}) == len(ALL_OPS)
    registered = {op.name for op in PTO.operations}
    assert all(c.name in registered for c in ALL_OPS), "an op is not in the pto dialect"


def test_the_selector_is_written_once():
    """Every tile op reads its selector from its catalog row: no op class (nor a family base)
    writes ``MODE`` / ``FUNCTION`` / ``BSTART`` itself, every TEPL catalog row has its op, and
    the derived maps cover every op once."""
    for cls in ALL_OPS:
        assert cls.BLOCK_FAMILY is not None and cls.MNEMONIC, cls.name
        assert cls.MNEMONIC in isa.CATALOG_BY_NAME[cls.BLOCK_FAMILY], cls.name
        for base in cls.__mro__:
            if base is PTOOp:
                break
            written = {k for k in ("MODE", "FUNCTION", "BSTART") if k in base.__dict__
                       and not isinstance(base.__dict__[k], CatalogField)}  # fmt: skip
            assert not written, f"{base.__name__} writes {written}: read it from the catalog"
    assert {(c.MODE, c.FUNCTION) for c in ALL_OPS if c.BLOCK_FAMILY is isa.BlockFamily.TEPL} == (
        set(isa.TEPL_OPS)
    ), "a TEPL catalog row has no op class"
    assert set(TILE_OPS) == set(ALL_OPS) and len(OP_OF_MNEMONIC) == len(ALL_OPS)


@pytest.mark.parametrize("cls", GENERATOR_OPS, ids=lambda c: c.name)
def test_generator_rows(cls):
    """TCI, TTRI: encoding row (no source), kernel row, decoded-dispatch row."""
    row = isa.TEPL_OPS.get((cls.MODE, cls.FUNCTION))
    assert row is not None and row.name == cls.MNEMONIC and row.sources == 0, cls.name
    assert cls.MNEMONIC in KERNELS, f"{cls.name}: no KERNELS entry"
    assert _decoded(cls), cls.name


@pytest.mark.parametrize("cls", CONVERT_OPS, ids=lambda c: c.name)
def test_convert_rows(cls):
    """TCVT, TQUANT, TDEQUANT: encoding row (one source), kernel row, decoded-dispatch row."""
    row = isa.TEPL_OPS.get((cls.MODE, cls.FUNCTION))
    assert row is not None and row.name == cls.MNEMONIC and row.sources == 1, cls.name
    assert cls.MNEMONIC in KERNELS, f"{cls.name}: no KERNELS entry"
    assert _decoded(cls), cls.name


@pytest.mark.parametrize("cls", LOCAL_OPS, ids=lambda c: c.name)
def test_tile_local_rows(cls):
    """Reductions, expansions, TTRANS, TPART*: encoding row (selector, mnemonic, source count),
    kernel row, decoded-dispatch row."""
    row = isa.TEPL_OPS.get((cls.MODE, cls.FUNCTION))
    assert row is not None, f"{cls.name}: no encoding row TEPL_OPS[({cls.MODE}, {cls.FUNCTION})]"
    assert row.name == cls.MNEMONIC, f"{cls.name}: mnemonic {cls.MNEMONIC} vs encoding {row.name}"
    assert row.sources == len(cls.SOURCES), f"{cls.name}: source count differs from the catalog"
    assert cls.MNEMONIC in LOCAL_ROWS, f"{cls.name}: no kernel row LOCAL_ROWS[{cls.MNEMONIC!r}]"
    assert cls.MNEMONIC in KERNELS, f"{cls.name}: no KERNELS entry"
    if cls.BLOCK_UNSOUND:  # no block form: its spec block slots are contradictory (a reason)
        assert not _decoded(cls), cls.name
        assert "asl/" in cls.BLOCK_UNSOUND, f"{cls.name}: the reason cites no spec path"
    else:
        assert _decoded(cls), cls.name


@pytest.mark.parametrize("cls", MOVE_OPS, ids=lambda c: c.name)
def test_local_move_rows(cls):
    """TMOV: TLSU encoding row (function, mnemonic), kernel row, decoded-dispatch row."""
    f = isa.TLSU_FUNCTIONS.get(cls.FUNCTION)
    assert f is not None and f.name == cls.MNEMONIC, f"{cls.name}: no TLSU encoding row"
    assert cls.MNEMONIC in KERNELS, f"{cls.name}: no KERNELS entry"
    assert _decoded(cls), cls.name


@pytest.mark.parametrize("cls", GM_OPS, ids=lambda c: c.name)
def test_global_memory_rows(cls):
    """MGATHER*, MSCATTER*, GMOV, TPREFETCH: TLSU encoding row (function, mnemonic), kernel
    row, decoded-dispatch row, and the Core's block row (interpreter.machine.indexed_tlsu)."""
    from interpreter.machine.indexed_tlsu import INDEXED_FUNCTIONS

    f = isa.TLSU_FUNCTIONS.get(cls.FUNCTION)
    assert f is not None and f.name == cls.MNEMONIC, f"{cls.name}: no TLSU encoding row"
    assert cls.MNEMONIC in KERNELS, f"{cls.name}: no KERNELS entry"
    assert _decoded(cls), cls.name
    assert INDEXED_FUNCTIONS.get(cls.FUNCTION) == cls.MNEMONIC, f"{cls.name}: no Core block row"


@pytest.mark.parametrize("cls", CUBE_OPS, ids=lambda c: c.name)
def test_cube_rows(cls):
    f = isa.CUBE_FUNCTIONS.get(cls.FUNCTION)
    assert f is not None, f"{cls.name}: no encoding row isa.CUBE_FUNCTIONS[{cls.FUNCTION}]"
    assert f.mnemonic == cls.BSTART, f"{cls.name}: BSTART {cls.BSTART} vs encoding {f.mnemonic}"
    assert (f.is_mx, f.is_acc, f.is_bias, f.is_gemv) == (
        cls.is_mx(), cls.is_acc(), cls.has_bias(), cls.is_gemv()
    ), f"{cls.name}: classification differs between the dialect and the encoding table"
    assert f.name in KERNELS, f"{cls.name}: no kernel row KERNELS[{f.name!r}]"
    assert _decoded(cls), f"{cls.name}: no decoded-dispatch row"


@pytest.mark.parametrize("cls", BINARY_OPS, ids=lambda c: c.name)
def test_binary_rows(cls):
    row = isa.TEPL_OPS.get((cls.MODE, cls.FUNCTION))
    assert row is not None, f"{cls.name}: no encoding row TEPL_OPS[({cls.MODE}, {cls.FUNCTION})]"
    assert row.name == cls.MNEMONIC, f"{cls.name}: mnemonic {cls.MNEMONIC} vs encoding {row.name}"
    assert cls.MNEMONIC in BINARY_ROWS, f"{cls.name}: no kernel row BINARY_ROWS[{cls.MNEMONIC!r}]"
    assert BINARY_ROWS[cls.MNEMONIC].types == cls.TYPES, f"{cls.name}: type sets differ"
    assert cls.MNEMONIC in KERNELS, f"{cls.name}: no KERNELS entry"
    assert _decoded(cls), cls.name


@pytest.mark.parametrize("cls", ELEMENTWISE_FAMILY_OPS, ids=lambda c: c.name)
def test_unary_and_tile_scalar_rows(cls):
    row = isa.TEPL_OPS.get((cls.MODE, cls.FUNCTION))
    assert row is not None and row.name == cls.MNEMONIC, f"{cls.name}: encoding row"
    assert row.sources == len(cls.TILE_ROLES), f"{cls.name}: catalog source count"
    assert cls.MNEMONIC in KERNELS, f"{cls.name}: kernel row"
    types = {**{m: r.wide_types for m, r in TILE_SCALAR_ROWS.items()},
             **{m: r.types for m, r in UNARY_ROWS.items()},
             "TFMA": TFMA_ROW.types, "TEXPANDS": TEXPANDS_ROW.types}  # fmt: skip
    assert types[cls.MNEMONIC] == cls.TYPES, f"{cls.name}: type sets differ"
    assert _decoded(cls), cls.name


@pytest.mark.parametrize("cls", UNARY_OPS, ids=lambda c: c.name)
def test_unary_status_rows(cls):
    """Every unary op holds its numeric-status row (which flags, which rule) as data, and the
    kernels read it from the op (never from a list of mnemonics)."""
    rule = cls.__dict__.get("STATUS")
    assert isinstance(rule, UnaryStatus), f"{cls.name}: no STATUS row"
    assert rule.rule in ("none", "snan", "ieee"), cls.name
    assert unary_status(cls.MNEMONIC) is rule
    assert UNARY_ROWS[cls.MNEMONIC].types is cls.TYPES, f"{cls.name}: the kernel row's types"


@pytest.mark.parametrize("cls", COMPARE_SELECT_OPS, ids=lambda c: c.name)
def test_compare_select_rows(cls):
    """TCMP, TCMPS, TSEL, TSELS: encoding row (selector, mnemonic, source count), kernel row,
    decoded-dispatch row."""
    row = isa.TEPL_OPS.get((cls.MODE, cls.FUNCTION))
    assert row is not None and row.name == cls.MNEMONIC, f"{cls.name}: encoding row"
    assert row.sources == len(cls.TILE_ROLES), f"{cls.name}: catalog source count"
    assert cls.MNEMONIC in KERNELS, f"{cls.name}: kernel row"
    assert _decoded(cls), cls.name


@pytest.mark.parametrize("cls", ALL_OPS, ids=lambda c: c.name)
def test_block_composition_row(cls):
    """pto-form-blocks is table-driven by family (FORMERS: op family -> former)."""
    pass_cls = get_all_passes()["pto-form-blocks"]()
    formers = getattr(sys.modules[pass_cls.__module__], "FORMERS", None)
    assert formers is not None, "pto-form-blocks exposes no FORMERS table"
    assert any(issubclass(cls, family) for family, _ in formers), (
        f"{cls.name}: no block-composition row in pto-form-blocks FORMERS"
    )


@pytest.mark.parametrize("cls", ALL_OPS, ids=lambda c: c.name)
def test_lit_round_trip_and_invalid_tests(cls):
    name = re.escape(cls.name)
    custom = re.compile(rf"// CHECK-NEXT: (.*= )?{name} ")  # TPREFETCH has no result
    generic = re.compile(rf'// GENERIC: .*"{name}"\(')
    diag = re.compile(rf"// CHECK: .*'{name}' op \[")
    assert any(custom.search(t) for t in ROUND_TRIP.values()), f"{cls.name}: no round-trip test"
    assert any(generic.search(t) for t in ROUND_TRIP.values()), f"{cls.name}: no generic check"
    assert any(diag.search(t) for t in INVALID.values()), f"{cls.name}: no invalid test"


@pytest.mark.parametrize("cls", ALL_OPS, ids=lambda c: c.name)
def test_execution_evidence(cls):
    executed = (
        test_cube_evidence.EXECUTED
        | test_binary_evidence.EXECUTED
        | test_elementwise_evidence.EXECUTED
        | test_tile_local_evidence.EXECUTED
        | test_rearrange_evidence.EXECUTED
        | test_sort_move_evidence.EXECUTED
        | test_compare_evidence.EXECUTED
        | test_convert_evidence.EXECUTED
        | test_gm_indexed_evidence.EXECUTED
    )
    assert cls.name in executed, f"{cls.name}: no execution evidence"
