"""Passes and targets over PTO IR (every pass name contains ``pto``).

``get_all_passes`` and ``get_all_targets`` are the registries the ``pto-opt`` tool and the
xDSL plugin read; each entry imports its module lazily.
"""

from __future__ import annotations

from collections.abc import Callable


def get_all_passes() -> dict[str, Callable[[], type]]:
    """Pass name -> factory returning the pass class."""
    return {}


def get_all_targets() -> dict[str, Callable[[], type]]:
    """Target name -> factory returning the xDSL ``Target`` class."""
    return {}
