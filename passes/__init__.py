"""Passes and targets over PTO IR (every pass name contains ``pto``).

``get_all_passes``, ``get_all_targets`` and ``get_all_frontends`` are the registries the
``pto-opt`` tool and the xDSL plugin read: name -> factory returning the class. The names are
listed here so that a tool can register them without importing a pass module; the classes
come from two static tables (:data:`passes.registry.PASSES`, :data:`passes.pto_targets.TARGETS`
and ``FRONTENDS``), each imported on the first factory call (the tool boundary).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

PASS_NAMES = (
    "convert-linalg-to-pto",
    "pto-tile-to-capacity",
    "pto-lower",
    "pto-form-blocks",
    "pto-assign-registers",
    "pto-lowering-report",
    "pto-quantize-mx",
    "pto-fuse-elementwise",
)
"""The pass names, in ``--help`` order; equal to the keys of :data:`passes.registry.PASSES`
(tests/test_import_graph.py checks)."""
TARGET_NAMES = ("pto-asm", "pto-bin")
FRONTEND_KEYS = ("pto-asm", "pto-bin", "s", "hex")


def _pass_class(name: str) -> type:
    # the tool boundary: every pass module loads on the first pass a pipeline names
    from passes.registry import PASSES

    return PASSES[name]


def _target_tables() -> tuple[dict[str, type], dict[str, type]]:
    # the tool boundary: the assembly / hex targets and frontends load when first named
    from passes.pto_targets import FRONTENDS, TARGETS

    return TARGETS, FRONTENDS


def _target_class(name: str) -> type:
    return _target_tables()[0][name]


def _frontend_class(key: str) -> type:
    return _target_tables()[1][key]


def get_all_passes() -> dict[str, Callable[[], type]]:
    """Pass name -> factory returning the pass class."""
    return {name: partial(_pass_class, name) for name in PASS_NAMES}


def get_all_targets() -> dict[str, Callable[[], type]]:
    """Target name -> factory returning the xDSL ``Target`` class."""
    return {name: partial(_target_class, name) for name in TARGET_NAMES}


def get_all_frontends() -> dict[str, Callable[[], type]]:
    """Frontend key (``-f`` name or input file extension) -> factory of the ``Frontend``."""
    return {key: partial(_frontend_class, key) for key in FRONTEND_KEYS}
