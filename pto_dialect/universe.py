"""The xDSL plugin: publishes the ``pto`` dialect, our passes and targets to ``xdsl-opt``.

Registered through the ``xdsl.universe`` entry point. Everything is imported lazily, so that
the layering (``pto_dialect`` below ``passes`` below ``interpreter``) holds at import time.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.universe import Universe


def _pto_dialect():
    from pto_dialect.dialect import PTO

    return PTO


def _passes() -> dict[str, Callable]:
    try:
        from passes import get_all_passes
    except ImportError:  # pragma: no cover - passes is part of this distribution
        return {}
    return get_all_passes()


def _targets() -> dict[str, Callable]:
    try:
        from passes import get_all_targets
    except ImportError:  # pragma: no cover
        return {}
    return get_all_targets()


def _frontends() -> dict[str, Callable]:
    try:
        from passes import get_all_frontends
    except ImportError:  # pragma: no cover
        return {}
    return get_all_frontends()


class _LazyDict(dict):
    """A dict filled on first access, so that the plugin costs nothing until used."""

    def __init__(self, fill: Callable[[], dict]):
        super().__init__()
        self._fill = fill
        self._done = False

    def _ensure(self):
        if not self._done:
            self._done = True
            self.update(self._fill())

    def items(self):
        self._ensure()
        return super().items()

    def keys(self):
        self._ensure()
        return super().keys()

    def __iter__(self):
        self._ensure()
        return super().__iter__()

    def __contains__(self, key):
        self._ensure()
        return super().__contains__(key)

    def __getitem__(self, key):
        self._ensure()
        return super().__getitem__(key)

    def __len__(self):
        self._ensure()
        return super().__len__()


PTO_UNIVERSE = Universe(
    all_dialects={"pto": _pto_dialect},
    all_passes=_LazyDict(_passes),
    all_targets=_LazyDict(_targets),
    all_frontends=_LazyDict(_frontends),
)
