"""Independent references of the conversion tests (issue 27): the rounding modes, the float
formats written out from the spec's tables, and FloatingToInteger on exact rationals. Shared by
tests/evidence/test_convert_evidence.py and the class tests under tests/interpreter; written
apart from interpreter/kernels/convert.py (Fractions, no numpy)."""

from __future__ import annotations

import math
from fractions import Fraction

from pto_dialect.datatypes import TileDataType as T

MODES = ("rne", "rtz", "rtm", "rtp", "rna", "rto", "rhb")

# (fraction bits, minimum normal exponent, max finite, has inf, has nan) -- from the format
# tables of PTO-SPEC 1 / asl/arch/data-types/formats/*.asl, written out here again.
FORMAT = {
    T.FP64: (52, -1022, (2 - Fraction(1, 2**52)) * 2**1023, True, True),
    T.FP32: (23, -126, (2 - Fraction(1, 2**23)) * 2**127, True, True),
    T.TF32: (10, -126, (2 - Fraction(1, 2**10)) * 2**127, True, True),
    T.HF32: (11, -126, (2 - Fraction(1, 2**11)) * 2**127, True, True),
    T.FP16: (10, -14, Fraction(65504), True, True),
    T.BF16: (7, -126, (2 - Fraction(1, 2**7)) * 2**127, True, True),
    T.E4M3: (3, -6, Fraction(448), False, True),
    T.E5M2: (2, -14, Fraction(57344), True, True),
    T.E3M2: (2, -2, Fraction(28), False, False),
    T.E2M3: (3, 0, Fraction(15, 2), False, False),
    T.E2M1X2: (1, 0, Fraction(6), False, False),
    T.E1M2X2: (2, 0, Fraction(7, 4), False, False),
    T.HIF4X2: (2, 0, Fraction(7, 4), False, False),
}


def round_int(x: Fraction, mode: str) -> int:
    """FloatingToInteger (asl/scalar/model/fsu/arithmetic.asl) on an exact rational."""
    lo = math.floor(x)
    f = x - lo
    if f == 0:
        return lo
    if mode == "rtm":
        return lo
    if mode == "rtp":
        return lo + 1
    if mode == "rtz":
        return lo + 1 if x < 0 else lo
    if mode == "rto":
        return lo if lo % 2 else lo + 1
    if f != Fraction(1, 2):
        return lo + (f > Fraction(1, 2))
    return {"rne": lo + (lo % 2), "rna": lo if x < 0 else lo + 1, "rhb": lo + 1}[mode]
