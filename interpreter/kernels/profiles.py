"""The numeric profiles of the interpreter (D4): one enum, parsed once at the boundary.

``ordered`` (default, pto-spec ADR-0047: K-ordered FP32 accumulation; ``fp32-sequential`` is
its alias), ``exact`` (the exact sum rounded once) and ``raw-carrier`` (the ASL reference
profile: raw 64-bit carriers). A :class:`NumericProfile` is a ``str``, so callers may pass the
plain names; :func:`numeric_profile` turns a name into the enum or says which names exist.
"""

from __future__ import annotations

from xdsl.utils.str_enum import StrEnum


class NumericProfile(StrEnum):
    ORDERED = "ordered"
    EXACT = "exact"
    RAW_CARRIER = "raw-carrier"
    FP32_SEQUENTIAL = "fp32-sequential"

    @property
    def sequential(self) -> bool:
        """ADR-0047's chained FMAs (``ordered`` and its alias)."""
        return self in (NumericProfile.ORDERED, NumericProfile.FP32_SEQUENTIAL)


PROFILES: tuple[str, ...] = tuple(p.value for p in NumericProfile)
"""The profile names, in the order the tools list them."""


def numeric_profile(name: str) -> NumericProfile:
    """``name`` as a :class:`NumericProfile`; ``ValueError`` naming the choices otherwise."""
    try:
        return NumericProfile(name)
    except ValueError:
        raise ValueError(f"unknown numeric profile '{name}' (choose from {', '.join(PROFILES)})") from None


__all__ = ["PROFILES", "NumericProfile", "numeric_profile"]
