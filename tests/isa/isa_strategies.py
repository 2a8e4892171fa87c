"""Hypothesis strategies for PTO block commands (shared by the tests/isa tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from pto_dialect.datatypes import TileDataType
from pto_dialect.isa.commands import (
    CUBE_FUNCTIONS,
    TEPL_OPS,
    TLSU_FUNCTIONS,
    BDatr,
    BDim,
    BFpatr,
    BIor,
    BIos,
    BIot,
    BlockFamily,
    BStart,
    BStop,
    CBDimi,
    CBStop,
)


def bits(n: int) -> st.SearchStrategy[int]:
    return st.integers(0, (1 << n) - 1)


DTYPES = st.sampled_from([int(t) for t in TileDataType])


def bstart(raw: bool) -> st.SearchStrategy[BStart]:
    if raw:
        return st.one_of(
            st.builds(BStart, st.just(BlockFamily.CUBE), bits(5), bits(5)),
            st.builds(BStart, st.just(BlockFamily.TLSU), bits(5), bits(5)),
            st.builds(BStart, st.just(BlockFamily.TEPL), bits(5), bits(5), bits(2)),
        )
    return st.one_of(
        st.builds(BStart, st.just(BlockFamily.CUBE), st.sampled_from(sorted(CUBE_FUNCTIONS)),
                  DTYPES),
        st.builds(BStart, st.just(BlockFamily.TLSU), st.sampled_from(sorted(TLSU_FUNCTIONS)),
                  DTYPES),
        st.sampled_from(sorted(TEPL_OPS)).flatmap(
            lambda mf: st.builds(BStart, st.just(BlockFamily.TEPL), st.just(mf[1]), DTYPES,
                                 st.just(mf[0]))
        ),
    )  # fmt: skip


def biot(raw: bool) -> st.SearchStrategy[BIot]:
    src = bits(6)
    size = bits(4) if raw else st.integers(1, 10)

    def build(shape, s0, s1, last, sz, pe, hand):
        n_src, has_dst = shape
        if has_dst and sz == 0 and hand == 0:
            hand = 1  # the only ambiguous raw combination (source-only word); see forms.py
        return BIot(
            s0 if n_src >= 1 else None,
            s1 if n_src == 2 else None,
            last,
            sz if has_dst else 0,
            pe,
            hand if has_dst else None,
        )

    shapes = st.sampled_from([(2, True), (2, False), (1, True), (1, False), (0, True)])
    return st.builds(build, shapes, src, src, bits(1), size, bits(3), bits(2))


def commands(raw: bool = False):
    """Every command kind. ``raw=True`` draws any value that fits each bit field (incl.
    reserved values); ``raw=False`` only legal values."""
    gpr = bits(5) if raw else st.integers(0, 23)
    if raw:
        datr = st.builds(BDatr, bits(5), bits(5), bits(2), bits(3), bits(3), bits(1), bits(1))
        fpatr = st.builds(BFpatr, bits(6), bits(3), bits(4), *[bits(1)] * 6)  # CScaleEn 0: D11
    else:
        from pto_dialect.datatypes import DTYPE_NONE
        from pto_dialect.isa.commands import LAYOUTS
        from pto_dialect.postprocess import PRE_QUANT_MODES

        datr = st.builds(BDatr, st.sampled_from(sorted(LAYOUTS)),
                         st.one_of(DTYPES, st.just(DTYPE_NONE)), bits(2),
                         st.integers(0, 5), bits(3), bits(1), bits(1))  # fmt: skip
        fpatr = st.builds(BFpatr, st.sampled_from(sorted(PRE_QUANT_MODES)), st.integers(0, 3),
                          st.integers(0, 9), *[bits(1)] * 6)  # fmt: skip
    return st.one_of(
        bstart(raw),
        datr,
        fpatr,
        st.builds(BDim, st.integers(0, 2), gpr, bits(17)),
        st.builds(CBDimi, bits(2) if raw else st.integers(0, 2), bits(8)),
        biot(raw),
        st.builds(BIor, gpr, gpr, gpr, gpr),
        st.builds(BIos, bits(8), bits(4) if raw else st.integers(0, 12), bits(3)),
        st.just(BStop()),
        st.just(CBStop()),
    )
