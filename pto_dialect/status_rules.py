"""Numeric status facts of an operation, as data: which sticky flags (NV DZ OF UF NX,
``asl/arch/state/numeric-status.asl``) it can raise and by which rule.

The op class holds its row (``STATUS``); ``interpreter.kernels.status`` computes the flags of
a run from it, and ``docs/numeric-status.md`` names the rules. Pure Python, no numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

FLAG_NAMES = ("NV", "DZ", "OF", "UF", "NX")
"""The five flags in bit order (bit 0 NV ... bit 4 NX)."""


@dataclass(frozen=True)
class UnaryStatus:
    """How ``ExecuteTileUnary`` records the flags of one unary op
    (``asl/tile/model/execution/unary.asl``, ``TileSFUUnarySpecialValue``).

    ``rule``: ``"none"`` records nothing (sign-bit and integer ops), ``"snan"`` NV for a
    signalling NaN operand only (TRELU), ``"ieee"`` the IEEE vector of a rounded function.
    For ``"ieee"``: ``positive_domain`` -- a negative operand (not -0) is invalid (NV);
    ``pole_at_zero`` -- +-0 divides by zero (DZ); ``exact`` -- when an ordinary result (finite,
    nonzero operand in the domain) can be exact: ``"never"`` (irrational results),
    ``"reciprocal"`` (1/x: x a power of two), ``"square-root"`` (r*r == x),
    ``"reciprocal-square-root"`` (r a power of two with r*r*x == 1); ``one_is_exact`` -- the
    operand 1 gives an exact result (log 1 = +0); ``never_tiny`` -- no result is below the
    smallest normal (square roots), so the op never raises UF.
    """

    rule: str
    positive_domain: bool = False
    pole_at_zero: bool = False
    exact: str = "never"
    one_is_exact: bool = False
    never_tiny: bool = False

    @property
    def raises(self) -> tuple[str, ...]:
        """The flags the rule computes, in bit order (derived from the rule; a flag may be
        listed that no operand reaches, such as OF of a square root)."""
        if self.rule == "none":
            return ()
        if self.rule == "snan":
            return ("NV",)
        can = {"NV", "OF", "NX"} | ({"DZ"} if self.pole_at_zero else set())
        can |= set() if self.never_tiny else {"UF"}
        return tuple(f for f in FLAG_NAMES if f in can)


NO_STATUS = UnaryStatus("none")
SNAN_STATUS = UnaryStatus("snan")
EXP_STATUS = UnaryStatus("ieee")
LOG_STATUS = UnaryStatus("ieee", positive_domain=True, pole_at_zero=True, one_is_exact=True)
RECIP_STATUS = UnaryStatus("ieee", pole_at_zero=True, exact="reciprocal")
SQRT_STATUS = UnaryStatus("ieee", positive_domain=True, exact="square-root", never_tiny=True)
RSQRT_STATUS = UnaryStatus("ieee", positive_domain=True, pole_at_zero=True,
                           exact="reciprocal-square-root")  # fmt: skip
