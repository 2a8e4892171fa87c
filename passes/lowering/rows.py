"""The per-op lowering table: which PTO instruction computes each arith/math body op.

One :class:`Row` per upstream scalar op that can appear in a ``linalg.generic`` body (or
on whole tensors). A row names the PTO instruction(s) that compute the op **exactly**
under MLIR semantics (D18), the tile-scalar form used when one operand is a scalar or a
splat constant, and a note on exactness. The elementwise lowering and the explanations of
what stays (D19, the lowering report) both read this table, so a new PTO op (issue 9's
unary, tile-scalar, compare/select and conversion families) plugs in as: its op class in
the ``pto`` dialect (:func:`pto_op_available` then finds it) and the lowering rule of its
family.

``needs`` lists the tile-level mnemonics the row composes (all of them must exist in the
dialect for the row to be usable); ``scalar`` the tile-scalar form (TADDS ...). A row
whose ``needs`` is empty has no exact PTO composition at all (``why`` says why).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pto_dialect.dialect import PTO


@dataclass(frozen=True)
class Row:
    needs: tuple[str, ...]
    scalar: str | None = None
    why: str = ""


def _r(*needs: str, scalar: str | None = None, why: str = "") -> Row:
    return Row(tuple(needs), scalar, why)


BODY_ROWS: dict[str, Row] = {
    # Binary arithmetic: the TEPL binary family (PTO-SPEC 5) and its tile-scalar forms.
    "arith.addf": _r("TADD", scalar="TADDS"),
    "arith.addi": _r("TADD", scalar="TADDS"),
    "arith.subf": _r("TSUB", scalar="TSUBS"),
    "arith.subi": _r("TSUB", scalar="TSUBS"),
    "arith.mulf": _r("TMUL", scalar="TMULS"),
    "arith.muli": _r("TMUL", scalar="TMULS"),
    "arith.divf": _r("TDIV", scalar="TDIVS"),
    "arith.divsi": _r("TDIV", scalar="TDIVS"),
    "arith.divui": _r("TDIV", scalar="TDIVS"),
    "arith.andi": _r("TAND", scalar="TANDS"),
    "arith.ori": _r("TOR", scalar="TORS"),
    "arith.xori": _r("TXOR", scalar="TXORS"),
    "arith.shli": _r("TSHL", scalar="TSHLS"),
    "arith.shrsi": _r("TSHR", scalar="TSHRS"),
    "arith.shrui": _r("TSHR", scalar="TSHRS"),
    "arith.maxnumf": _r("TMAX", scalar="TMAXS"),
    "arith.minnumf": _r("TMIN", scalar="TMINS"),
    "arith.maxsi": _r("TMAX", scalar="TMAXS"),
    "arith.minsi": _r("TMIN", scalar="TMINS"),
    "arith.maxui": _r("TMAX", scalar="TMAXS"),
    "arith.minui": _r("TMIN", scalar="TMINS"),
    # maximumf/minimumf propagate NaN, TMAX/TMIN return the other operand (D18): the exact
    # composition is TMAX/TMIN and two NaN selects (passes/lowering/compare_select.py).
    "arith.maximumf": _r("TMAX", "TCMP", "TSEL", why="NaN rule differs from TMAX: TMAX + TCMP + TSEL"),
    "arith.minimumf": _r("TMIN", "TCMP", "TSEL", why="NaN rule differs from TMIN: TMIN + TCMP + TSEL"),
    "arith.remsi": _r(why="truncating remainder: only the floor-modulo idiom maps to TREM"),
    "arith.remui": _r("TREM"),
    "arith.remf": _r(why="C fmod: only the floor-modulo idiom (remf + fix-up) maps to TREM"),
    "arith.cmpf": _r("TCMP", scalar="TCMPS"),
    "arith.cmpi": _r("TCMP", scalar="TCMPS"),
    "arith.select": _r("TSEL", scalar="TSELS"),
    "arith.negf": _r("TNEG"),
    # Conversions: TCVT with the matching rounding mode.
    "arith.extf": _r("TCVT"),
    "arith.truncf": _r("TCVT"),
    "arith.sitofp": _r("TCVT"),
    "arith.uitofp": _r("TCVT"),
    "arith.fptosi": _r("TCVT"),
    "arith.fptoui": _r("TCVT"),
    "arith.extsi": _r("TCVT"),
    "arith.extui": _r("TCVT"),
    "arith.trunci": _r("TCVT"),
    "arith.bitcast": _r(why="a bit reinterpretation: no tile instruction"),
    # math: the TEPL unary family.
    "math.absf": _r("TABS"),
    "math.absi": _r("TABS"),
    "math.exp": _r("TEXP"),
    "math.log": _r("TLOG"),
    "math.sqrt": _r("TSQRT"),
    "math.rsqrt": _r("TRSQRT"),
    # Rounding to an integral value: TCVT to an integer with the directed mode and back,
    # plus TABS/TMULS/TCMPS/TSELS for the zero sign and the already-integral, inf, NaN inputs.
    **{f"math.{n}": _r("TCVT", "TABS", "TMULS", "TCMPS", "TSEL",
                       why=f"TCVT with the {m} rounding mode, round trip and selects")
       for n, m in (("floor", "RTM"), ("ceil", "RTP"), ("trunc", "RTZ"), ("roundeven", "RNE"),
                    ("round", "RNA"))},
    "math.fma": _r("TFMA"),
    # D22: no PTO instruction; compositions with a measured bound (approximate.py).
    "math.tanh": _r(why="no PTO instruction computes tanh: a D22 composition when approx=true"),
    "math.erf": _r(why="no PTO instruction computes erf: a D22 composition when approx=true"),
    "math.powf": _r(why="no PTO instruction computes pow: a D22 composition for small "
                        "constant integral exponents"),
    "math.fpowi": _r(why="no PTO instruction computes pow: a D22 composition for small "
                         "constant exponents"),
    # A compare guard: the check as an integer TDIV whose divisor is 0 where it fails (a
    # TileLegality fault, PTO-SPEC 5), ordered before the body's result.
    "cf.assert": _r("TCMPS", "TSEL", "TEXPANDS", "TDIV",
                    why="a run-time check: only a cmpf guard becomes a TDIV zero-divisor fault"),
}
"""Body op name -> the PTO instructions that compute it exactly (D18)."""


@cache
def available_mnemonics() -> frozenset[str]:
    """The tile-level instructions the ``pto`` dialect defines (``pto.tadd`` -> ``TADD``)."""

    return frozenset(op.name.removeprefix("pto.").upper() for op in PTO.operations)


def pto_op_available(mnemonic: str) -> bool:
    return mnemonic in available_mnemonics()


def missing_for(op_name: str) -> tuple[str, ...] | None:
    """The instructions a body op still needs that the dialect lacks; ``()`` when all are
    there; ``None`` when no exact PTO composition exists (or the op has no row)."""
    row = BODY_ROWS.get(op_name)
    if row is None or not row.needs:
        return None
    return tuple(m for m in row.needs if not pto_op_available(m))
