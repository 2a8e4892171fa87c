"""The one registry of tile-op families (feeds ``docs/ops.md`` and the completeness checks).

A new family appends ``(family name, op list)`` here; every layer's table is then checked
against it (tests/evidence/test_completeness.py) and listed in the generated op table
(``python -m interpreter.tools.op_table``).

Every map from a fact back to the op is derived here from the op classes, never written:
:func:`op_of_selector` (a BSTART's family, Mode and Function -> the tile-level op class, the
decoded dispatch) and :data:`OP_OF_MNEMONIC`. An op class holds its ``BLOCK_FAMILY`` and
catalog ``MNEMONIC``; its selector is its row of the ISA catalog (:class:`isa.CatalogField`).
"""

from __future__ import annotations

from pto_dialect.compare_ops import COMPARE_SELECT_OPS
from pto_dialect.convert_ops import CONVERT_OPS
from pto_dialect.elementwise_ops import FILL_OPS, TERNARY_OPS, TILE_SCALAR_OPS, UNARY_OPS
from pto_dialect.gm_indexed import GM_OPS
from pto_dialect.isa.commands import BlockFamily
from pto_dialect.ops import BINARY_OPS, CUBE_OPS
from pto_dialect.tile_local import LOCAL_FAMILIES
from pto_dialect.tile_move import MOVE_OPS

TILE_OP_FAMILIES: list[tuple[str, list]] = [
    ("CUBE matrix", CUBE_OPS),
    ("binary elementwise", BINARY_OPS),
    ("unary elementwise", UNARY_OPS),
    ("tile-scalar", TILE_SCALAR_OPS),
    ("ternary elementwise", TERNARY_OPS),
    ("fill", FILL_OPS),
    ("compare and select", COMPARE_SELECT_OPS),
    *LOCAL_FAMILIES,
    ("format conversion", CONVERT_OPS),
    ("local move (TLSU)", MOVE_OPS),
    ("global memory (TLSU)", GM_OPS),
]
"""(family, op classes) in documentation order."""

TILE_OPS: list[type] = [cls for _, ops in TILE_OP_FAMILIES for cls in ops]
"""Every tile op class, in documentation order."""

OP_OF_SELECTOR: dict[tuple[BlockFamily, int, int], type] = {
    (cls.BLOCK_FAMILY, cls.MODE, cls.FUNCTION): cls for cls in TILE_OPS
}
"""(BSTART family, Mode, Function) -> tile-level op class (Mode is 0 for CUBE and TLSU)."""
assert len(OP_OF_SELECTOR) == len(TILE_OPS), "two tile ops share a selector"

OP_OF_MNEMONIC: dict[str, type] = {cls.MNEMONIC: cls for cls in TILE_OPS}
"""Catalog name (``TEXP``, ``TGEMV_MX_BIAS``, ``MGATHER``) -> tile-level op class."""
assert len(OP_OF_MNEMONIC) == len(TILE_OPS), "two tile ops share a mnemonic"


def op_of_selector(family: BlockFamily, function: int, mode: int = 0,
                   base: type | None = None) -> type | None:  # fmt: skip
    """The tile-level op class of a BSTART selector, or None when there is none (or when it is
    not a subclass of ``base``, if given): the one decoded-dispatch lookup."""
    cls = OP_OF_SELECTOR.get((family, mode, function))
    return cls if cls is not None and (base is None or issubclass(cls, base)) else None
