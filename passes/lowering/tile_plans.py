"""How tensor-level PTO ops are cut into tiles that fit: PE groups (:func:`cover`), the TREM plan (:func:`plan_trem`), the GEMV/matmul chunking (:func:`plan_gemv`) and the tile budgets each family holds (:data:`LIVE_TILES`). Pure arithmetic on shapes; the bottom of the capacity tilers."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pto_dialect.attributes import TileType
from pto_dialect.datatypes import MX_BLOCK, TileDataType
from pto_dialect.geometry import (
    CELL_BYTES,
    TILE_CAPACITY_BYTES,
    Layout,
    Location,
    cube_cells,
)

NUM_PES = 4
"""PEs of one core (D13)."""


LOCAL_MAX_BYTES = 64 * 1024
"""The largest Local TSize (code 10, D14)."""


REGISTERS_PER_HAND = 16
"""Local tile registers per hand (PTO-SPEC 2)."""


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _pow2_ceil(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def pe_mask(npe: int) -> str:
    """The mask of the first ``npe`` PEs, PE0 leftmost (D13): 3 -> ``1110``."""
    return "1" * npe + "0" * (NUM_PES - npe)


def row_major_size(valid_rows: int, cols: int, dtype: TileDataType) -> int:
    """Smallest legal TSize of a row-major tile with Col = ``cols`` (a power of two) holding
    ``valid_rows`` rows: a power of two >= 128 B with Rows = TSize*8/(Col*bits) >= valid_rows."""
    bits = dtype.info.carrier_bits
    need_bits = valid_rows * cols * bits
    return max(CELL_BYTES, _pow2_ceil(ceil_div(need_bits, 8)))


def row_major_tile(
    valid: tuple[int, int], dtype: TileDataType, pe: str, *, col: int | None = None
) -> TileType:
    """A minimal row-major Local tile with the given valid shape (D14 geometry).

    Col is ``col`` or the next power of two of the valid columns; Rows follows from TSize.
    """
    vr, vc = valid
    c = col if col is not None else _pow2_ceil(vc)
    size = row_major_size(vr, c, dtype)
    rows = size * 8 // (c * dtype.info.carrier_bits)
    return TileType((rows, c), dtype, valid=(vr, vc), size=size, pe=pe)


def cube_tile(
    shape: tuple[int, int], dtype: TileDataType, layout: Layout, pe: str
) -> TileType:
    """A CUBE tile (physical = logical extent) of minimal capacity, in ``mat`` (D10)."""
    return TileType(shape, dtype, layout=layout, location=Location.MAT, pe=pe)


@functools.lru_cache(maxsize=1 << 16)
def cube_bytes(layout: Layout, dtype: TileDataType, rows: int, cols: int) -> int:
    cells = cube_cells(layout, dtype, rows, cols)
    assert cells is not None, f"{dtype.name} has CUBE geometry"
    return cells * CELL_BYTES


@dataclass(frozen=True)
class Run:
    """``count`` groups at ``start + i*step``; each group is ``npe`` PE slices of ``valid``
    elements at ``stride`` apart (stride < valid means the slices overlap)."""

    start: int
    count: int
    step: int
    npe: int
    valid: int
    stride: int

    @property
    def mask(self) -> str:
        return pe_mask(self.npe)

    @property
    def extent(self) -> int:
        return (self.npe - 1) * self.stride + self.valid


def _single_group(extent: int, max_valid: int, npe_max: int) -> tuple[int, int, int] | None:
    """One group covering ``[0, extent)`` exactly: (npe, valid, stride), or None.

    Slices ``[q*stride, q*stride + valid)`` for q < npe, no gaps (stride <= valid), the last
    ending at ``extent``. Prefers more PEs (smaller slices), then the smallest valid.
    """
    for npe in range(min(npe_max, extent), 0, -1):
        if npe == 1:
            return (1, extent, 0) if extent <= max_valid else None
        for valid in range(ceil_div(extent, npe), min(max_valid, extent) + 1):
            if (extent - valid) % (npe - 1) == 0:
                stride = (extent - valid) // (npe - 1)
                if 1 <= stride <= valid:
                    return (npe, valid, stride)
    return None


def cover(extent: int, max_valid: int, npe: int) -> list[Run]:
    """Runs of PE groups covering ``[0, extent)``: full groups of ``npe`` slices of
    ``max_valid`` elements, then one tail group: a uniform-stride cover of the rest, or a
    full group shifted back to end at ``extent``. Only when the rest is the whole extent
    and has no uniform-stride cover does the tail take two groups."""
    assert extent >= 1 and max_valid >= 1 and npe >= 1
    runs: list[Run] = []
    step = npe * max_valid
    n_full = extent // step
    if n_full:
        runs.append(Run(0, n_full, step, npe, max_valid, max_valid))
    pos = n_full * step
    rest = extent - pos
    if rest:
        g = _single_group(rest, max_valid, npe)
        if g is not None:
            runs.append(Run(pos, 1, 0, *g))
        elif n_full:
            # A full group ending at ``extent``; it overlaps the previous group, which
            # computes (and stores) the same values there.
            runs.append(Run(extent - step, 1, 0, npe, max_valid, max_valid))
        else:
            # rest < npe*max_valid: npe-1 full slices, then the remainder.
            k = rest // max_valid
            runs.append(Run(pos, 1, 0, k, max_valid, max_valid))
            tail = rest - k * max_valid
            if tail:
                runs.append(Run(pos + k * max_valid, 1, 0, 1, tail, 0))
    return runs


def instructions(runs: Sequence[Run]) -> int:
    return sum(r.count for r in runs)


@dataclass(frozen=True)
class TremPlan:
    """How a floor-mod over E elements is tiled: the ``rows x cols`` view and the row runs."""

    elements: int
    rows: int
    cols: int
    tile_rows: int
    """Rows of a full tile: TSize*8/(cols*bits) (D14)."""
    runs: tuple[Run, ...]

    @property
    def instructions(self) -> int:
        return instructions(self.runs)


def plan_trem(elements: int, dtype: TileDataType, tile_bytes: int, npe: int) -> TremPlan:
    """Tile a contiguous E-element floor-mod (PTO-SPEC 5, D14): Col = the largest power of
    two dividing E (at most one tile's elements), so full tiles are exactly full."""
    cap_elems = tile_bytes * 8 // dtype.info.carrier_bits
    # LB0 (the column count) is 16 bits (PTO-SPEC 3.4): at most 2^15 columns, a power of two.
    cols = min(elements & -elements, cap_elems, 1 << 15)
    best: TremPlan | None = None
    while True:
        rows = elements // cols
        tile_rows = cap_elems // cols
        plan = TremPlan(elements, rows, cols, tile_rows, tuple(cover(rows, tile_rows, npe)))
        if best is None or plan.instructions < best.instructions:
            best = plan
        # A narrower view gives the tail group other slice sizes (rarely needed).
        if best.instructions <= ceil_div(elements, npe * cap_elems) or cols == 1:
            return best
        cols //= 2


def _largest_tsize(tile_bytes: int, live: Callable[[int], int]) -> int:
    """The largest TSize t <= ``tile_bytes`` whose op holds ``live(t)`` bytes at most the core
    tile capacity (asl/tile/model/capacity/local.asl), or the smallest TSize."""
    t = tile_bytes
    while t > CELL_BYTES and live(t) > TILE_CAPACITY_BYTES:
        t //= 2
    return t


LIVE_TILES: dict[str, int] = {
    "binary": 3,  # TREM, TADD ...: two sources and the result
    "map": 2,  # unary and tile-scalar ops: the source and the result (TEXPANDS: the result)
    "convert": 2,  # TCVT: the source and the result, each at most the wider type's tile
    "cmpsel": 4,  # TSEL(S): the predicate (smaller than a data tile) and three data tiles
    "reduce": 2,  # TROW*/TCOL* reductions: the source and the (smaller) result
    "expand": 3,  # TROWEXPAND*/TCOLEXPAND*: the source, the broadcast operand, the result
    "transpose": 2,  # TTRANS: the source and the result
}
"""Per tiled family: how many tiles of at most one TSize an op of that family holds at once
(an upper bound). :func:`family_tile_bytes` sizes the family's tiles so that one op fits the
core tile capacity on its PEs; the GEMV / matmul plan budgets its op with
:func:`cube_live_bytes` instead (its tiles differ in size)."""


def family_tile_bytes(family: str, tile_bytes: int, npe: int) -> int:
    """The largest TSize (at most ``tile_bytes``) of a ``family`` op's tiles: its
    ``LIVE_TILES[family]`` tiles, live together on ``npe`` PEs, must fit the core tile
    capacity: on four PEs 16 KiB for three or four tiles, 32 KiB for two."""
    return _largest_tsize(tile_bytes, lambda t: LIVE_TILES[family] * npe * t)


def binary_tile_bytes(tile_bytes: int, npe: int) -> int:
    """The largest TSize (at most ``tile_bytes``) of a TREM / binary op's tiles: its two
    sources and its result, one size, are live together on ``npe`` PEs and must fit the core
    tile capacity: 16 KiB on four PEs."""
    return family_tile_bytes("binary", tile_bytes, npe)


def trem_lower_bound(elements: int, dtype: TileDataType, tile_bytes: int, npe: int) -> int:
    """ceil(bytes of one operand / (PEs x TSize)): no tiling can use fewer TREMs."""
    return ceil_div(ceil_div(elements * dtype.info.carrier_bits, 8), npe * tile_bytes)


@dataclass(frozen=True)
class GemvShape:
    """The facts of a GEMV (``m == 1``) or matmul the tiling depends on (PTO-SPEC 3.1, 4)."""

    k: int
    n: int
    a: TileDataType
    b: TileDataType
    out: TileDataType
    a_scaled: bool
    b_scaled: bool
    m: int = 1
    """Rows of A (1 for GEMV: the TGEMV forms, M = 1)."""
    acc: TileDataType = TileDataType.FP32
    """The accumulator (C and the chain's D): FP32, or S32/U32 for integer inputs (D3)."""

    @property
    def granule(self) -> int:
        """K chunks start at multiples of 32 when a scale is present (D1)."""
        return MX_BLOCK if (self.a_scaled or self.b_scaled) else 1

    @property
    def is_gemv(self) -> bool:
        return self.m == 1

    @property
    def mx(self) -> bool:
        """MX forms when a side carries a scale; FP16/BF16 on both sides use the ordinary
        forms (TGEMV / TMATMUL, FP32 accumulator: PTO-SPEC 1, D3), legal on a2a3 too (D15)."""
        return self.a_scaled or self.b_scaled


CubeShape = GemvShape
"""The same record names a matmul (``m > 1``)."""


M_LAYOUT_ROWS = {Layout.CUBE_M16: 16, Layout.CUBE_M32: 32}
"""Rows an A / C / D tile of each M layout holds (PTO-SPEC 2 CUBE cells)."""


def gemv_tile_bytes(
    s: GemvShape, kc: int, nc: int, d_type: TileDataType, layout: Layout = Layout.CUBE_M16
) -> dict[str, int]:
    """Capacity each tile of one K-chunk x N-slice CUBE op needs (D10, D14): A, C and D
    in ``layout`` with up to ``M_LAYOUT_ROWS[layout]`` rows, B in CUBE_N8."""
    nb = ceil_div(kc, MX_BLOCK)
    mt = min(s.m, M_LAYOUT_ROWS[layout])
    out = {
        "a": cube_bytes(layout, s.a, mt, kc),
        "b": cube_bytes(Layout.CUBE_N8, s.b, kc, nc),
        "bias": row_major_size(1, _pow2_ceil(nc), TileDataType.FP32),
        "d": cube_bytes(layout, d_type, mt, nc),
    }
    if s.a_scaled:
        out["a_scale"] = row_major_size(mt, _pow2_ceil(nb), TileDataType.E8M0)
    if s.b_scaled:
        out["b_scale"] = row_major_size(nb, _pow2_ceil(nc), TileDataType.E8M0)
    return out


@dataclass(frozen=True)
class GemvPlan:
    shape: GemvShape
    kc: int
    """K chunk (the last chunk holds the rest)."""
    nk: int
    """Number of K chunks (chain steps)."""
    nc: int
    """Columns per PE slice of a full group."""
    runs: tuple[Run, ...]
    """N runs (the same for every chunk and M tile)."""
    layout: Layout = Layout.CUBE_M16
    """Layout of A, C and D (D10)."""
    hoist: bool = False
    """Load the A chunks (and their scales) once per M tile and PE mask, outside the N loop
    (:func:`lower_cube`): only when they fit the registers of a hand and, with the op's other
    tiles, the core tile capacity."""

    @property
    def mt(self) -> int:
        """Rows per M tile."""
        return min(self.shape.m, M_LAYOUT_ROWS[self.layout])

    @property
    def m_tiles(self) -> int:
        return ceil_div(self.shape.m, self.mt)

    @property
    def instructions(self) -> int:
        return self.m_tiles * self.nk * instructions(self.runs)

    @property
    def k_last(self) -> int:
        return self.shape.k - (self.nk - 1) * self.kc


def b_tile_limit(s: GemvShape, tile_bytes: int, npe: int) -> int:
    """The largest TSize (at most ``tile_bytes``) a B tile can take: one op holds B and at
    least A, D, C or the bias, and the scales (a 128 B cell each at the least) on each of its
    ``npe`` PEs within the core tile capacity (asl/tile/model/capacity/local.asl). On four
    PEs a 64 KiB B tile would fill the 256 KiB alone: 32 KiB."""
    others = 3 + int(s.a_scaled) + int(s.b_scaled)
    return _largest_tsize(tile_bytes, lambda t: npe * (t + others * CELL_BYTES))


def gemv_lower_bound(s: GemvShape, tile_bytes: int, npe: int) -> int:
    """ceil(bytes of B / (PEs x the largest B tile, :func:`b_tile_limit`)) times the M tiles
    of 32 rows (the largest M layout): B must pass through the PEs' tiles once per M tile."""
    b_pass = ceil_div(ceil_div(s.k * s.n * s.b.info.carrier_bits, 8),
                   npe * b_tile_limit(s, tile_bytes, npe))
    return b_pass * ceil_div(s.m, M_LAYOUT_ROWS[Layout.CUBE_M32])


@functools.lru_cache(maxsize=1024)  # programs repeat their layer shapes; plans are frozen
def plan_gemv(s: GemvShape, tile_bytes: int, npe: int) -> GemvPlan | None:
    """The (layout, Kc, Nc) that minimise the CUBE op count, then the chain length (PTO-SPEC 4,
    D14). A GEMV uses CUBE_M16; a matmul tries CUBE_M16 (16-row M tiles) and CUBE_M32.

    For each chunk count nk, Kc = ceil(K/nk) rounded up to the granule; Nc is the largest
    slice with every tile within ``tile_bytes``; the N cover then fixes the count. With a
    scaled side the granule is 32 (D1); when even a 32-element chunk does not fit (tiny
    ``tile-bytes``), chunks of 16, 8 ... elements, which never straddle a scale block, are
    used. Returns None when nothing fits.
    """
    layouts = (Layout.CUBE_M16,) if s.is_gemv else (Layout.CUBE_M16, Layout.CUBE_M32)
    best: GemvPlan | None = None
    for layout in layouts:
        plan = _plan_layout(s, tile_bytes, npe, layout)
        if plan is not None and (
            best is None or (plan.instructions, plan.nk) < (best.instructions, best.nk)
        ):
            best = plan
    return best


def cube_live_bytes(s: GemvShape, kc: int, nc: int, d_type: TileDataType, chained: bool,
                    npe: int, layout: Layout = Layout.CUBE_M16, a_chunks: int = 1) -> int:
    """Core tile capacity the tiles of one K-chunk x N-slice CUBE op hold at once on ``npe``
    PEs (``TileCoreAllocationBytes``, asl/tile/model/capacity/local.asl): A, B, their scales,
    D and, of a chained op or a matmul (whose init may enter as chunk 0's C), its C (the
    previous D, D != C) -- else the bias; ``a_chunks`` A
    chunks and A scales when they are hoisted out of the N loop. Each tile charges its TSize
    (the power of two its bytes round up to) on every PE."""
    return _live_bytes(s, gemv_tile_bytes(s, kc, nc, d_type, layout), nc, chained, npe,
                       layout, a_chunks)


def _live_bytes(s: GemvShape, sizes: dict[str, int], nc: int, chained: bool, npe: int,
                layout: Layout, a_chunks: int = 1) -> int:
    """:func:`cube_live_bytes` from the op's :func:`gemv_tile_bytes`."""
    chained = chained or not s.is_gemv
    c = cube_bytes(layout, s.acc, min(s.m, M_LAYOUT_ROWS[layout]), nc) if chained else 0
    total = 0
    for k, v in sizes.items():
        t = max(CELL_BYTES, _pow2_ceil(max(v, c) if k == "bias" else v))
        total += t * (a_chunks if k in ("a", "a_scale") else 1)
    return npe * total


def _plan_layout(s: GemvShape, tile_bytes: int, npe: int, layout: Layout) -> GemvPlan | None:
    """The best plan whose every tile fits ``tile_bytes`` and whose op's live tiles fit the
    core tile capacity (:func:`cube_live_bytes`), or, when no such plan exists, the best plan
    by the per-tile bound alone (``pto-lower`` then retries with smaller tiles)."""
    return _plan_fitting(s, tile_bytes, npe, layout, budget=True) or _plan_fitting(
        s, tile_bytes, npe, layout, budget=False)


def _plan_fitting(s: GemvShape, tile_bytes: int, npe: int, layout: Layout,
                  budget: bool) -> GemvPlan | None:
    def fits(kc: int, nc: int, d_type: TileDataType) -> bool:
        sizes = gemv_tile_bytes(s, kc, nc, d_type, layout)
        if any(v > tile_bytes for v in sizes.values()):
            return False
        return not budget or _live_bytes(
            s, sizes, nc, kc < s.k, npe, layout) <= TILE_CAPACITY_BYTES

    def fits_both(kc: int, nc: int, d_type: TileDataType) -> bool:
        return fits(kc, nc, d_type) and (d_type == s.out or fits(kc, nc, s.out))

    def evaluate(kc: int) -> GemvPlan | None:
        # C and the chain's D are FP32 (D3); a single-chunk GEMV only has the final D. A
        # matmul may take an FP32 C (its init) even then.
        nk = ceil_div(s.k, kc)
        d_type = s.out if (nk == 1 and s.is_gemv) else s.acc
        if not fits_both(kc, 1, d_type):
            return None
        lo, hi = 1, s.n
        while lo < hi:  # the largest nc that fits (fits is monotone in nc)
            mid = (lo + hi + 1) // 2
            if fits_both(kc, mid, d_type):
                lo = mid
            else:
                hi = mid - 1
        hoist = nk <= HOIST_MAX_CHUNKS and (not budget or cube_live_bytes(
            s, kc, lo, d_type, kc < s.k, npe, layout, a_chunks=nk) <= TILE_CAPACITY_BYTES)
        return GemvPlan(s, kc, nk, lo, tuple(cover(s.n, lo, npe)), layout, hoist)

    best: GemvPlan | None = None
    g = s.granule
    for nk in range(1, ceil_div(s.k, g) + 1):
        if best is not None and nk > best.instructions:
            break
        kc = s.k if nk == 1 else ceil_div(ceil_div(s.k, nk), g) * g
        if ceil_div(s.k, kc) != nk:
            continue
        plan = evaluate(kc)
        if plan is not None and (
            best is None or (plan.instructions, plan.nk) < (best.instructions, best.nk)
        ):
            best = plan
    if best is None and g == MX_BLOCK:
        # Tiny capacities: chunks of a power of two below 32 stay inside one scale block.
        for kc in (16, 8, 4, 2, 1):
            best = evaluate(kc) if kc < s.k else None
            if best is not None:
                break
    return best


HOIST_MAX_CHUNKS = REGISTERS_PER_HAND - 3
"""A chunks are loaded once per M tile (outside the N loop) when at most this many: the
``m`` hand then holds nk A tiles plus C, D and an init tile; the ``u`` hand nk A scales plus
B's scale (PTO-SPEC 2: 16 registers per hand)."""
