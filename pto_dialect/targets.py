"""The target profiles (D15), defined once and parsed once at the boundary (the ``target``
pass options, the ``pto.target`` attribute, the block checker's ``profile``): ``a5`` (the
default) and ``a2a3`` (no MX CUBE functions). A bottom module: it imports nothing of the
project, so that the attributes and the ISA layer can both use it."""

from __future__ import annotations

from xdsl.utils.str_enum import StrEnum


class TargetProfile(StrEnum):
    """Target profiles (D15): ``a5`` (default) and ``a2a3`` (no MX CUBE functions)."""

    A5 = "a5"
    A2A3 = "a2a3"


__all__ = ["TargetProfile"]
