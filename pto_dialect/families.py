"""The one registry of tile-op families (feeds ``docs/ops.md`` and the completeness checks).

A new family appends ``(family name, op list)`` here; every layer's table is then checked
against it (tests/evidence/test_completeness.py) and listed in the generated op table
(``python -m interpreter.tools.op_table``).
"""

from __future__ import annotations

from pto_dialect.compare_ops import COMPARE_SELECT_OPS
from pto_dialect.convert_ops import CONVERT_OPS
from pto_dialect.elementwise_ops import FILL_OPS, TERNARY_OPS, TILE_SCALAR_OPS, UNARY_OPS
from pto_dialect.gm_indexed import GM_OPS
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
