"""The xDSL plugin: publishes the ``pto`` dialect, our passes and targets to ``xdsl-opt``.

Registered through the ``xdsl.universe`` entry point, which ``xdsl-opt`` loads at every
start. Importing :mod:`passes` reads only its name lists (``passes/__init__.py`` imports no
pass module); the dialect and each pass or target load when a context or pipeline first
needs them.
"""

from __future__ import annotations

from xdsl.universe import Universe

from passes import get_all_frontends, get_all_passes, get_all_targets


def _pto_dialect():
    # the tool boundary: a dialect factory, called when a context first needs the pto dialect;
    # xdsl-opt gets the parser fixes our own tools apply (pto_dialect/upstream/xdsl_fixes.py)
    from pto_dialect.dialect import PTO, apply_xdsl_fixes

    apply_xdsl_fixes()
    return PTO


PTO_UNIVERSE = Universe(
    all_dialects={"pto": _pto_dialect},
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
    all_frontends=get_all_frontends(),
)
