"""Edge classes of the tile-local / rearrangement kernels (issue 27, mutation testing of
``interpreter/kernels/rearrange.py`` and ``tile_local.py``).

* Omitted B.IOR parameters are the all-zero words: TFILLPAD pads with the zero word,
  TEXTRACT / TINSERT take offsets (0, 0), TMRGSORT merges ascending. Each row with
  parameters gives, without them, what it gives with explicit zeros, and TMRGSORT's
  default order is checked against Python's stable ``sorted`` of the concatenation.
* TCI / TTRI against Python ints for every legal type (start wrapping at the width), and
  the kernel API's legality: other types, empty valid shapes, TCI with more than one row.
* THISTOGRAM with filters wider and taller than what it reads (column 0 only).
* Integer expansion DIV by a zero broadcast: the fault names TileBroadcastPayloadNonzero.
* TSCATTER's index faults name the first offending element (row-major).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import KERNELS
from pto_dialect.datatypes import TileDataType as T
from tests.budget import examples


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 3), cols=st.integers(1, 6))
def test_omitted_parameters_are_the_zero_words(seed, rows, cols):
    rng = np.random.default_rng(seed)
    t = T.FP32
    src = rng.integers(-9, 9, (rows, cols)).astype(np.float32)
    shape = (rows + 1, cols + 2)
    for params in ((), None):
        got = KERNELS["TFILLPAD"]([src], [t], t, (rows, cols), params=params or (),
                                  dst_shape=shape)  # fmt: skip
        want = np.zeros(shape, np.float32)
        want[:rows, :cols] = src
        assert np.array_equal(got, want) and np.array_equal(
            got, KERNELS["TFILLPAD"]([src], [t], t, (rows, cols), params=(0,), dst_shape=shape))
    big = rng.integers(-9, 9, (rows + 2, cols + 2)).astype(np.float32)
    got = KERNELS["TEXTRACT"]([big], [t], t, (rows, cols))
    assert np.array_equal(got, big[:rows, :cols])
    got = KERNELS["TINSERT"]([big, src], [t, t], t, big.shape)
    want = big.copy()
    want[:rows, :cols] = src
    assert np.array_equal(got, want)
    left = np.sort(rng.integers(-9, 9, (1, cols))).astype(np.float32)
    right = np.sort(rng.integers(-9, 9, (1, rows + 1))).astype(np.float32)
    got = KERNELS["TMRGSORT"]([left, right], [t, t], t, (1, left.size + right.size))
    assert got.reshape(-1).tolist() == sorted(left.reshape(-1).tolist() + right.reshape(-1).tolist())
    assert np.array_equal(got, KERNELS["TMRGSORT"]([left, right], [t, t], t,
                                                   (1, left.size + right.size), params=(0,)))


# ---- generators: TCI / TTRI ------------------------------------------------------------------
TCI_TYPES = {T.S32: (32, True), T.S16: (16, True), T.U32: (32, False), T.U16: (16, False)}
TTRI_TYPES = {T.FP32, T.FP16, T.S32, T.S16, T.U32, T.U16}


@settings(max_examples=examples(40), deadline=None)
@given(t=st.sampled_from(list(TCI_TYPES)), start=st.integers(-(2**64), 2**64 + 5)
       | st.integers(-70000, 70000), desc=st.integers(0, 1), n=st.integers(1, 40))
def test_tci_wraps_at_the_element_width(t, start, desc, n):
    """``start +- k`` modulo the element width, bits of ``start`` above it ignored
    (``asl/tile/irregular-and-complex/initialization/TCI.asl``); Python ints as reference."""
    width, signed = TCI_TYPES[t]
    got = KERNELS["TCI"]((start, desc), t, (1, n))
    want = []
    for k in range(n):
        w = (start + (-k if desc else k)) % (1 << width)
        want.append(w - (1 << width) if signed and w >> (width - 1) else w)
    assert got.shape == (1, n) and got.reshape(-1).tolist() == want


@settings(max_examples=examples(20), deadline=None)
@given(t=st.sampled_from(sorted(TTRI_TYPES, key=lambda t: t.value)), diag=st.integers(-6, 6),
       upper=st.integers(0, 1), rows=st.integers(1, 5), cols=st.integers(1, 5))
def test_ttri_against_python(t, diag, upper, rows, cols):
    got = KERNELS["TTRI"]((diag, upper), t, (rows, cols))
    want = [[int(c >= r + diag if upper else c <= r + diag) for c in range(cols)] for r in range(rows)]
    assert got.tolist() == want and got.dtype == t.numpy_dtype()


def test_generators_refuse_what_the_verifier_refuses():
    """Every element type outside TileTCIDataTypeSupported / TileTTRIDataTypeSupported, an
    empty valid rectangle, and a TCI with more than one valid row are TileLegality faults of
    the kernel API (before: S64 / U64 raised OverflowError, two TCI rows a ValueError, and
    other types were computed)."""
    from pto_dialect.faults import FaultKind, PTOFault

    for m, legal, valid in (("TCI", set(TCI_TYPES), (1, 3)), ("TTRI", TTRI_TYPES, (2, 3))):
        for t in T:
            if t in legal:
                continue
            try:
                KERNELS[m]((5, 0), t, valid)
            except PTOFault as e:
                assert e.kind == FaultKind.TILE_LEGALITY and t.asm in str(e), (m, t)
            else:
                raise AssertionError(f"{m} {t.asm}: no fault")
    for m, t, valid in (("TCI", T.S32, (2, 3)), ("TCI", T.U16, (1, 0)), ("TTRI", T.FP32, (0, 2))):
        try:
            KERNELS[m]((0, 0), t, valid)
        except PTOFault as e:
            assert e.kind == FaultKind.TILE_LEGALITY, (m, valid)
        else:
            raise AssertionError(f"{m} {valid}: no fault")


# ---- THISTOGRAM: filters wider and taller than what is read -----------------------------------
def _histogram_ref(src: list, filt: list, t: T, b: int) -> list:
    """``THISTOGRAM`` (``asl/tile/model/execution/complex.asl``) on Python ints: the filter is
    read at column 0 only (row r for U16 / ByteId 0; rows 0..2 for U32's bytes 3, 2, 1)."""
    out = []
    for r, line in enumerate(src):
        counts = [0] * 256
        for v in line:
            byte = [(v >> (8 * k)) & 0xFF for k in range(4)]
            if t is T.U16 and b == 0:
                ok = byte[1] == filt[r][0]
            elif t is T.U32:
                ok = all(byte[k] == filt[3 - k][0] for k in range(b + 1, 4))
            else:
                ok = True
            counts[byte[b]] += ok
        out.append([sum(counts[: k + 1]) for k in range(256)])
    return out


@settings(max_examples=examples(25), deadline=None)
@given(tb=st.sampled_from([(T.U16, 0), (T.U16, 1), (T.U32, 0), (T.U32, 1), (T.U32, 2), (T.U32, 3)]),
       rows=st.integers(1, 4), cols=st.integers(1, 6), fcols=st.integers(1, 4),
       seed=st.integers(0, 2**32 - 1))
def test_thistogram_reads_column_zero_of_any_filter(tb, rows, cols, fcols, seed):
    t, b = tb
    rng = np.random.default_rng(seed)
    nbytes = 2 if t is T.U16 else 4
    raw = rng.integers(0, 3, (rows, cols, nbytes)).astype(np.uint8)  # bytes 0..2: many matches
    vals = raw.view(np.uint16 if t is T.U16 else np.uint32).reshape(rows, cols)
    filt = rng.integers(0, 3, (max(rows, 3) + 1, fcols)).astype(np.uint8)  # more than read
    got = KERNELS["THISTOGRAM"]([vals, filt], [t, T.U8], T.U32, (rows, 256), params=(b,))
    assert got.tolist() == _histogram_ref(vals.tolist(), filt.tolist(), t, b)


@settings(max_examples=examples(20), deadline=None)
@given(name=st.sampled_from(["TROWEXPANDDIV", "TCOLEXPANDDIV"]),
       t=st.sampled_from([T.S32, T.S16, T.U32, T.U16]), rows=st.integers(1, 4),
       cols=st.integers(1, 5), seed=st.integers(0, 2**32 - 1))
def test_integer_expansion_division_by_a_zero_broadcast_faults_with_its_rule(name, t, rows, cols,
                                                                             seed):
    """A zero anywhere in the broadcast column (TROWEXPANDDIV) or row (TCOLEXPANDDIV) of an
    integer expansion DIV is a TileLegality fault of the expansion naming
    ``TileBroadcastPayloadNonzero`` (``asl/tile/model/execution/expansion.asl``); a nonzero
    broadcast divides element by element (truncating, as TDIV)."""
    from pto_dialect.faults import FaultKind, PTOFault

    rng = np.random.default_rng(seed)
    dt = t.numpy_dtype()
    src = rng.integers(0, 100, (rows, cols)).astype(dt)
    shape = (rows, 1) if name == "TROWEXPANDDIV" else (1, cols)
    b = rng.integers(1, 9, shape).astype(dt)
    got = KERNELS[name]([src, b], [t, t], t, (rows, cols))
    assert got.tolist() == [[int(src[r, c]) // int(b.reshape(-1)[r if name == "TROWEXPANDDIV" else c])
                             for c in range(cols)] for r in range(rows)]  # fmt: skip
    b.reshape(-1)[rng.integers(0, b.size)] = 0
    try:
        KERNELS[name]([src, b], [t, t], t, (rows, cols))
    except PTOFault as e:
        assert e.kind == FaultKind.TILE_LEGALITY and "TileBroadcastPayloadNonzero" in str(e)
        assert name in str(e)
    else:
        raise AssertionError(f"{name}: no fault for a zero broadcast divisor")


# ---- TSCATTER / TGATHER index faults name the offending element ------------------------------
@settings(max_examples=examples(25), deadline=None)
@given(rows=st.integers(1, 5), cols=st.integers(1, 5), dst_rows=st.integers(1, 6),
       seed=st.integers(0, 2**32 - 1), t=st.sampled_from([T.U16, T.S16, T.U32, T.S32]))
def test_scatter_index_faults_name_the_first_offending_element(rows, cols, dst_rows, seed, t):
    """TSCATTER ``d[index[r, c], c] = src[r, c]``: two sources selecting one destination
    element fault naming the lowest such destination element (row-major), a negative or
    too-large index naming its first element (row-major) -- Python loops as reference."""
    from pto_dialect.faults import PTOFault

    rng = np.random.default_rng(seed)
    src = rng.integers(0, 100, (rows, cols)).astype(np.int32)
    index = rng.integers(0, dst_rows, (rows, cols)).astype(t.numpy_dtype())
    hits: dict[tuple[int, int], int] = {}
    for r in range(rows):
        for c in range(cols):
            key = (int(index[r, c]), c)
            hits[key] = hits.get(key, 0) + 1
    dups = sorted(k for k, n in hits.items() if n > 1)
    try:
        got = KERNELS["TSCATTER"]([src, index], [T.S32, t], T.S32, (dst_rows, cols))
    except PTOFault as e:
        assert dups and f"destination element {dups[0]}" in str(e), (str(e), dups)
    else:
        assert not dups
        want = np.zeros((dst_rows, cols), np.int32)
        for r in range(rows):
            for c in range(cols):
                want[index[r, c], c] = src[r, c]
        assert np.array_equal(got, want)
    bad = index.copy()
    at = (int(rng.integers(0, rows)), int(rng.integers(0, cols)))
    bad[at] = dst_rows + int(rng.integers(0, 3))
    first = next((r, c) for r in range(rows) for c in range(cols) if bad[r, c] >= dst_rows)
    try:
        KERNELS["TSCATTER"]([src, bad], [T.S32, t], T.S32, (dst_rows, cols))
    except PTOFault as e:
        assert f"element at {first}" in str(e), (str(e), first)
    else:
        raise AssertionError("no fault for an index beyond the destination")
