"""The ``ordered`` profile's rescaled-accumulator path against the Fraction reference.

The kernel runs an MX product on a rescaled accumulator (each scale block in the domain
2^-(E + cexp) of its combined scale exponent E, B decoded by integer bit operations) only
when its plan proves that no intermediate sum is subnormal or overflows in either domain
(``MxTerms.rescale_plan``, ``interpreter/kernels/accumulate.py``). These tests check that:

* the results equal the sequential Fraction reference of ADR-0047 (one RNE FP32 addition per
  term in K order, then the bias) for every MX format pair, several rows, C, tails of K that
  are not whole blocks or chunks, and inf/NaN element codes (a chunk holding them is decoded
  by table inside the same path);
* the plan is taken where it should be (so the path is really exercised) and refused one
  scale step beyond each of its bounds, where the reference still holds (other path).
"""

from contextlib import contextmanager
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_kernel_mx import fraction_decode
from test_kernel_profiles import _value, ordered_reference, terms
from test_kernel_tgemv import MX_TYPES, raw

from interpreter.kernels import accumulate, cube_matrix, mx
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples

F32 = np.float32
DEFAULT_MINIMA = accumulate._RESCALED_MIN_OUTPUTS, accumulate._RESCALED_MIN_COLUMNS
"""The kernel's own thresholds for the rescaled path (the fixture below lowers them)."""


@pytest.fixture(autouse=True, scope="module")
def _narrow_products_too():
    """The kernel takes the path from 1024 outputs and 256 columns (a speed choice; the
    results are the same either way): these small cases take it too."""
    saved = accumulate._RESCALED_MIN_OUTPUTS, accumulate._RESCALED_MIN_COLUMNS
    accumulate._RESCALED_MIN_OUTPUTS = accumulate._RESCALED_MIN_COLUMNS = 1
    yield
    accumulate._RESCALED_MIN_OUTPUTS, accumulate._RESCALED_MIN_COLUMNS = saved


@contextmanager
def recorded_plans():
    """Yields the list of every plan the kernel computes meanwhile (None: refused)."""
    seen = []
    real = accumulate.MxTerms.rescale_plan

    def spy(self, c):
        seen.append(real(self, c))
        return seen[-1]

    accumulate.MxTerms.rescale_plan = spy
    try:
        yield seen
    finally:
        accumulate.MxTerms.rescale_plan = real


@pytest.fixture
def plans():
    """Records every plan the kernel computes (None: the plan was refused)."""
    with recorded_plans() as seen:
        yield seen


def _scales(t, codes):
    return None if t in (T.FP16, T.BF16) else codes


def run_and_check(at, bt, ac, bc, sa, sb, c=None, bias=None):
    m, n = ac.shape[0], bc.shape[1]
    fn = 6 if c is not None else (5 if m > 1 else 21)  # MX ACC / MX BIAS / TGEMV_MX_BIAS
    got = cube_matrix(fn, ac, bc, c=c, bias=bias, a_scale=sa, b_scale=sb, a_type=at,
                      b_type=bt)
    want = np.array([[ordered_reference(terms(ac, at, bc, bt, sa, sb, i, j),
                                        None if c is None else _value(c[i, j]),
                                        None if bias is None else _value(bias[0, j]))
                      for j in range(n)] for i in range(m)], F32)
    np.testing.assert_array_equal(got, want)
    return got


@settings(max_examples=examples(25), deadline=None)
@given(
    at=st.sampled_from(MX_TYPES),
    bt=st.sampled_from(MX_TYPES),
    m=st.sampled_from([1, 2]),
    k=st.sampled_from([1, 31, 32, 33, 128, 161, 290]),
    n=st.sampled_from([1, 3, 8, 10]),
    centre=st.integers(70, 180),
    width=st.integers(0, 30),
    specials=st.booleans(),
    with_c=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_rescaled_path_matches_fractions(at, bt, m, k, n, centre, width, specials, with_c,
                                         seed):
    rng = np.random.default_rng(seed)
    nb = -(-k // 32)
    ac = raw(at, rng, (m, k), finite=not specials)
    bc = raw(bt, rng, (k, n), finite=not specials)
    lo, hi = max(1, centre - width), min(254, centre + width)
    sa = _scales(at, rng.integers(lo, hi + 1, (m, nb)).astype(np.uint8))
    sb = _scales(bt, rng.integers(lo, hi + 1, (nb, n)).astype(np.uint8))
    c = bias = None
    if with_c:
        c = (rng.standard_normal((m, n)) * 2.0 ** rng.integers(-20, 20, (m, n))).astype(F32)
    else:
        bias = (rng.standard_normal((1, n)) * 4).astype(F32)
    with recorded_plans() as got_plan:
        run_and_check(at, bt, ac, bc, sa, sb, c, bias)
    event("rescaled" if got_plan and got_plan[0] is not None else "other path")


X2 = [T.E2M1X2, T.E1M2X2]


def _pack(codes):
    """Two 4-bit codes per byte along the last axis, low nibble first (even length)."""
    return (codes[..., 0::2] | (codes[..., 1::2] << 4)).astype(np.uint8)


@settings(max_examples=examples(20), deadline=None)
@given(
    at=st.sampled_from([t for t in MX_TYPES if t is not T.BF16]),  # (BF16: see NARROW)
    bt=st.sampled_from(X2),
    m=st.sampled_from([1, 2]),
    k=st.sampled_from([2, 32, 34, 162]),
    n=st.sampled_from([2, 6, 10]),
    with_c=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_packed_b_decodes_as_nibble_planes(at, bt, m, k, n, with_c, seed):
    """Packed X2 B (two codes per byte; A packed too when it is X2) is decoded as two
    planes, the low nibbles (even columns) and the high ones (odd columns), so the path
    computes its columns permuted: results, C and scales still land on their own columns,
    equal to the Fraction reference of the unpacked codes."""
    rng = np.random.default_rng(seed)
    nb = -(-k // 32)
    ac, bc = raw(at, rng, (m, k)), raw(bt, rng, (k, n)) & 0x0F
    if at.packed_x2:
        ac &= 0x0F
    a_in = _pack(ac) if at.packed_x2 else ac
    sa = _scales(at, rng.integers(118, 138, (m, nb)).astype(np.uint8))
    sb = rng.integers(118, 138, (nb, n)).astype(np.uint8)
    c = (rng.standard_normal((m, n)) * 8).astype(F32) if with_c else None
    bias = None if with_c else (rng.standard_normal((1, n)) * 4).astype(F32)
    fn = 6 if with_c else (5 if m > 1 else 21)
    with recorded_plans() as seen:
        got = cube_matrix(fn, a_in, _pack(bc), c=c, bias=bias, a_scale=sa, b_scale=sb,
                          a_type=at, b_type=bt, packed=True)
    assert seen and seen[0] is not None and seen[0].planes
    want = np.array([[ordered_reference(terms(ac, at, bc, bt, sa, sb, i, j),
                                        None if c is None else _value(c[i, j]),
                                        None if bias is None else _value(bias[0, j]))
                      for j in range(n)] for i in range(m)], F32)
    np.testing.assert_array_equal(got, want)


NARROW = [t for t in MX_TYPES if t is not T.BF16]
"""BF16 values span FP32's own exponent range: no static plan can bound their sums (the
other path decides per block); every other pair has one."""


@pytest.mark.parametrize("at", NARROW)
@pytest.mark.parametrize("bt", NARROW)
def test_every_pair_takes_the_rescaled_path(plans, at, bt):
    """Moderate scales: the plan holds for every MX pair but BF16 (bit-decoded B, or by
    table for the chunks holding inf/NaN codes), several rows, a K tail, and C."""
    rng = np.random.default_rng(int(at) * 16 + int(bt))
    m, k, n = 2, 150, 9
    nb = -(-k // 32)
    ac, bc = raw(at, rng, (m, k), finite=False), raw(bt, rng, (k, n), finite=False)
    sa = _scales(at, rng.integers(118, 138, (m, nb)).astype(np.uint8))
    sb = _scales(bt, rng.integers(118, 138, (nb, n)).astype(np.uint8))
    c = rng.standard_normal((m, n)).astype(F32)
    run_and_check(at, bt, ac, bc, sa, sb, c=c)
    assert plans and all(p is not None for p in plans)


def _uniform(at, bt, e, k=64, n=10, seed=3):
    """Every block's combined scale exponent E (split between the two sides)."""
    rng = np.random.default_rng(seed)
    ac, bc = raw(at, rng, (1, k)), raw(bt, rng, (k, n))
    nb = -(-k // 32)
    ea = e // 2
    sa = np.full((1, nb), 127 + ea, np.uint8)
    sb = np.full((nb, n), 127 + e - ea, np.uint8)
    return ac, bc, sa, sb


# (pair, the lowest E the plan accepts, the highest E it accepts with K = 64): the bounds
# g0 = E + lsb_a + lsb_b >= -126 and K 2^(E + top_a + top_b) <= 2^127
EDGES = [
    ((T.E4M3, T.E4M3), -108, 127 - 18 - 6),
    ((T.E2M1X2, T.E2M1X2), -124, 127 - 6 - 6),
    ((T.E5M2, T.E4M3), -101, 127 - 25 - 6),
]


@pytest.mark.parametrize(("pair", "low", "high"), EDGES)
def test_plan_bounds_are_tight_and_sound(plans, pair, low, high):
    """At each bound the plan is taken and the result still equals the reference (terms of
    2^-126, sums near 2^127); one step beyond, the plan is refused (the other path)."""
    at, bt = pair
    for e, accepted in ((low, True), (low - 1, False), (high, True), (high + 1, False)):
        plans.clear()
        ac, bc, sa, sb = _uniform(at, bt, e)
        if e == low:  # exact cancellation down to one grid step (2^-126: still normal)
            sign = 0x08 if bt.packed_x2 else 0x80
            ac[0, :2], bc[:2, 0] = ac[0, 0], [bc[0, 0], bc[0, 0] ^ sign]
        run_and_check(at, bt, ac, bc, sa, sb, bias=np.zeros((1, 10), F32))
        assert (plans[0] is not None) == accepted, (pair, e)


def test_cancellation_to_the_smallest_normal():
    """Two terms cancel exactly and leave 2^-126, the grid step at the lowest accepted
    scale: the rescaled accumulator must give exactly 2^-126 (not a rounded subnormal)."""
    one, tiny = 0x38, 0x01  # E4M3 1.0 and 2^-9
    ac = np.array([[one, one, tiny]], np.uint8)
    bc = np.array([[one], [one | 0x80], [tiny]], np.uint8)
    e = -108  # 2^-9 * 2^-9 * 2^-108 = 2^-126
    sa = np.array([[127 - 54]], np.uint8)
    sb = np.array([[127 - 54]], np.uint8)
    got = cube_matrix(21, ac, bc, bias=np.zeros((1, 1), F32), a_scale=sa, b_scale=sb,
                      a_type="E4M3", b_type="E4M3")
    assert got[0, 0] == F32(float(Fraction(2) ** (e - 18)))


FP6 = {T.E3M2: (3, 2, 3), T.E2M3: (2, 3, 1)}
"""(exponent bits, mantissa bits, bias): asl/arch/data-types/formats/e3m2.asl, e2m3.asl."""


def _fp6(t, code):
    e, m, bias = FP6[t]
    sign = -1 if code >> (e + m) else 1
    ef, mf = code >> m & ((1 << e) - 1), code & ((1 << m) - 1)
    if ef == 0:
        return sign * Fraction(mf, 1 << m) * Fraction(2) ** (1 - bias)
    return sign * (1 + Fraction(mf, 1 << m)) * Fraction(2) ** (ef - bias)


@pytest.mark.parametrize("t", [*MX_TYPES, *FP6])
def test_bit_layouts_decode_every_code(t):
    """Every code of every carrier (4-bit codes with any high nibble, 6-bit codes with any
    top bits) decoded by its bit layout equals the independent Fraction decoding times
    2^-bias_gap; exactly the inf/NaN codes reach ``special_min``."""
    lay = mx.bit_layout(t)
    wide = t in (T.FP16, T.BF16)
    codes = np.arange(1 << (16 if wide else 8), dtype=np.uint16 if wide else np.uint8)
    moved = (codes.astype(np.int64) << lay.pre) & (len(codes) - 1)  # within the carrier
    bits = moved.astype(codes.dtype).view(lay.carrier).astype(np.int32) << lay.left
    with np.errstate(invalid="ignore"):
        got = (bits.view(np.uint32) & np.uint32(lay.mask)).view(F32)
    low = {T.E2M1X2: 0x0F, T.E1M2X2: 0x0F, T.E3M2: 0x3F, T.E2M3: 0x3F}.get(t, len(codes) - 1)
    magnitude = codes & ((len(codes) >> 1) - 1)
    for code in codes:
        want = _fp6(t, int(code) & low) if t in FP6 else fraction_decode(t, int(code) & low)
        special = lay.special_min is not None and magnitude[code] >= lay.special_min
        assert special == (not isinstance(want, Fraction)), hex(code)
        if not special:
            assert Fraction(float(got[code])) * Fraction(2) ** lay.bias_gap == want, hex(code)


def test_wide_products_take_the_path_by_default(plans, monkeypatch):
    """From 1024 outputs and 256 columns the kernel's default takes the rescaled path;
    sampled columns equal the Fraction reference (bit for bit, chunk tails included:
    K = 161)."""
    monkeypatch.setattr(accumulate, "_RESCALED_MIN_OUTPUTS", DEFAULT_MINIMA[0])
    monkeypatch.setattr(accumulate, "_RESCALED_MIN_COLUMNS", DEFAULT_MINIMA[1])
    rng = np.random.default_rng(21)
    k, n = 161, 1100
    nb = -(-k // 32)
    ac, bc = (rng.integers(0, 256, shape).astype(np.uint8) for shape in ((1, k), (k, n)))
    ac[(ac & 0x7F) == 0x7F] = 1  # finite codes (no E4M3 NaN)
    bc[(bc & 0x7F) == 0x7F] = 1
    sa = rng.integers(118, 138, (1, nb)).astype(np.uint8)
    sb = rng.integers(118, 138, (nb, n)).astype(np.uint8)
    bias = (rng.standard_normal((1, n)) * 4).astype(F32)
    got = cube_matrix(21, ac, bc, bias=bias, a_scale=sa, b_scale=sb, a_type=T.E4M3,
                      b_type=T.E4M3)
    assert plans and plans[0] is not None
    for j in rng.choice(n, 12, replace=False):
        want = ordered_reference(terms(ac, T.E4M3, bc, T.E4M3, sa, sb, 0, j), None,
                                 _value(bias[0, j]))
        assert got[0, j] == want, j


@pytest.mark.parametrize("group_rows", [1, 2, 5])
def test_rows_of_a_in_groups(plans, monkeypatch, group_rows):
    """Rows of A are reduced a group at a time (as many as keep the buffers within
    ``_GROUP_BYTES``): groups of 1, of 2 with a partial last group, and all 5 rows give the
    Fraction reference, with C, a K tail and table-decoded chunks (inf/NaN codes)."""
    m, k, n = 5, 161, 10
    nblk = -(-min(accumulate._CHUNK, k) // 32)
    monkeypatch.setattr(accumulate, "_GROUP_BYTES", group_rows * nblk * 33 * n * 4)
    rng = np.random.default_rng(group_rows)
    nb = -(-k // 32)
    ac, bc = raw(T.E4M3, rng, (m, k), finite=False), raw(T.E5M2, rng, (k, n), finite=False)
    sa = rng.integers(118, 138, (m, nb)).astype(np.uint8)
    sb = rng.integers(118, 138, (nb, n)).astype(np.uint8)
    c = (rng.standard_normal((m, n)) * 8).astype(F32)
    run_and_check(T.E4M3, T.E5M2, ac, bc, sa, sb, c=c)
    assert plans and all(p is not None for p in plans)


def test_table_decoded_full_blocks_and_tail_of_one_chunk(plans):
    """One row of A, K = 193: the last chunk holds two whole blocks (rows 128-191) and a
    one-row tail, both with inf/NaN codes, so both are decoded by table in the same chunk
    (the blocks through the scratch buffer, the tail straight into its block's rows): every
    column equals the Fraction reference."""
    rng = np.random.default_rng(5)
    k, n = 193, 12
    nb = -(-k // 32)
    ac, bc = raw(T.E4M3, rng, (1, k)), raw(T.E4M3, rng, (k, n))
    bc[130, 3] = 0x7F  # NaN in the chunk's whole block
    bc[192, 7] = 0xFF  # NaN in its tail
    sa = rng.integers(118, 138, (1, nb)).astype(np.uint8)
    sb = rng.integers(118, 138, (nb, n)).astype(np.uint8)
    got = run_and_check(T.E4M3, T.E4M3, ac, bc, sa, sb,
                        bias=(rng.standard_normal((1, n)) * 4).astype(F32))
    assert plans and plans[0] is not None
    assert np.isnan(got[0, [3, 7]]).all() and np.isfinite(np.delete(got[0], [3, 7])).all()


def test_plan_bound_counts_a_large_c(plans):
    """U bounds |C| + sum |t|: C = 1e38 (below 2^127) with small terms in the domain
    2^-(E) for E = -10 would be 1e38 * 2^10 there, beyond FP32. The plan must be refused
    (a bound that subtracted |C| would accept it and give inf) and the results equal the
    reference (C plus tiny terms: C)."""
    ac, bc, sa, sb = _uniform(T.E4M3, T.E4M3, -10, k=32, n=4)
    c = np.full((1, 4), 1e38, F32)
    got = run_and_check(T.E4M3, T.E4M3, ac, bc, sa, sb, c=c)
    assert plans == [None]
    assert np.isfinite(got).all()
