"""``pto-tile-to-capacity``: tensor-level PTO ops -> tload / TREM or TGEMV_MX_BIAS / tstore.

Every tile the pass creates is a Local tile that fits ``tile-bytes`` (default 64 KiB, the
Local maximum; D14), in the layouts D10 requires, and is held by up to four PEs at once
(mask ``1111``, D13), each PE taking its own slice through the ``pe_stride`` of
``pto.tload`` / ``pto.tstore`` (see ``pto_dialect/data_movement.py``).

**TREM** (``pto.floor_mod``, PTO-SPEC 5). The tensor (static, contiguous) is viewed as a
2-D ``R x C`` tensor with ``tensor.collapse_shape`` / ``tensor.expand_shape``, where ``C`` is
the largest power of two dividing the element count E (capped by the tile's capacity). A
row-major tile of Col = C then has ``Rows = TSize*8 / (C*bits)`` (D14) and is *exactly* full,
so one TREM on four PEs covers ``4 * TSize`` bytes of each operand and the number of TREMs
is the lower bound ``ceil(E * bytes / (PEs * TSize))``. Full groups run in an ``scf.for``;
the tail group uses a smaller valid (and physical) shape, with the PEs' slices placed at a
uniform stride that may overlap (overlapping PEs compute and store identical values).
TSize is at most :func:`binary_tile_bytes`: the two sources and the result must fit the core
tile capacity together (16 KiB on four PEs). The other tile-local families (maps,
conversions, compare-select, reductions, expansions, transposes; one module each) are capped
likewise by :func:`family_tile_bytes`, from the number of tiles their op holds
(:data:`LIVE_TILES`).

**GEMV** (``pto.gemv``, PTO-SPEC 4). N is split across the PEs (PE q takes columns
``n + q*Nc``), K into chunks of ``Kc`` (a multiple of 32 when a side is MX-scaled, so that the
E8M0 scales of a chunk start at ``k/32``, D1). Tiles: A ``MtxKc`` CUBE_M16/M32 mat, B
``KcxNc`` CUBE_N8 mat, C/D ``MtxNc`` in A's layout, mat; scales and bias row-major (D10).
The chunks chain through the accumulate forms (``chain=acc``, :func:`lower_cube`): chunk 0
is TGEMV(_MX)(_BIAS) / TMATMUL(_MX) (or _ACC with the matmul's init as C), later chunks the
_ACC form with C = the previous D; only the last applies ReLU and the F322F16/F322BF16
conversion. ``chain=memory`` keeps the older GEMV chain through an FP32 tensor used as
the next chunk's bias. ``(Kc, Nc)`` minimise the CUBE op count, then the chain length, with
every tile within ``tile-bytes`` and one op's tiles together within the core tile capacity
(:func:`cube_live_bytes`); a ``16384 x 4096`` MXFP8 GEMV takes the lower bound of 512 (B
tiles of 32 KiB per PE, :func:`b_tile_limit`).

**Binary siblings** (``pto.elementwise``): TADD ... TMIN tile exactly like TREM.

**Reductions and expansions** (``pto.reduce``, ``pto.expand``): one instruction per PE group
over whole rows (or whole columns for the column reductions), never splitting a reduced
line (:mod:`passes.tile_local_to_capacity`).

On target ``a2a3`` there are no MX CUBE functions (D15): MX products are left as they are,
FP16/BF16 ones use the ordinary forms.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin, scf, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from passes.cmpsel_to_capacity import lower_cmpsel
from passes.convert_to_capacity import lower_convert
from passes.tile_local_to_capacity import lower_tensor_local, lower_transpose
from pto_dialect.attributes import PadValue, TargetProfile, TileType, element_type
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.datatypes import MX_BLOCK, MX_INPUT_TYPES, TileDataType
from pto_dialect.geometry import (
    CELL_BYTES,
    TILE_CAPACITY_BYTES,
    Layout,
    Location,
    Storage,
    code_of_size,
    cube_cells,
    default_size,
    max_code,
)
from pto_dialect.ops import (
    BINARY_OPS,
    BinaryTileOp,
    CubeMatrixOp,
    TGemvAccOp,
    TGemvBiasOp,
    TGemvMxAccOp,
    TGemvMxBiasOp,
    TGemvMxOp,
    TGemvOp,
    TMatmulAccOp,
    TMatmulBiasOp,
    TMatmulMxAccOp,
    TMatmulMxBiasOp,
    TMatmulMxOp,
    TMatmulOp,
    TRemOp,
)
from pto_dialect.postprocess import Fpatr, ReluMode
from pto_dialect.tensor_compare import CmpSelOp
from pto_dialect.tensor_convert import ConvertOp
from pto_dialect.tensor_local import ExpandOp, ReduceOp, TransposeOp
from pto_dialect.tensor_map import MapOp
from pto_dialect.tensor_ops import ElementwiseOp, FloorModOp, GemvOp, MatmulOp

NUM_PES = 4
"""PEs of one core (D13)."""

LOCAL_MAX_BYTES = 64 * 1024
"""The largest Local TSize (code 10, D14)."""

REGISTERS_PER_HAND = 16
"""Local tile registers per hand (PTO-SPEC 2)."""

MAX_INSTRUCTIONS_PER_OP = 1 << 16
"""Lowering limit (documented in docs/hardening.md): one tensor-level op tiles into at most
this many compute instructions. Planning and emission are linear in the instructions; a
larger op (e.g. a GEMV with K = 10^20) is refused before planning, with this limit named."""

PRE_QUANT_FOR_OUTPUT = {
    TileDataType.FP32: 0, TileDataType.FP16: 1, TileDataType.BF16: 16,
    TileDataType.S32: 0, TileDataType.U32: 0,
}  # fmt: skip
"""PreQuantMode converting the accumulator to the result type (PTO-SPEC 3.3, D11): none for
an FP32 / S32 / U32 result, F322F16 / F322BF16 for FP16 / BF16."""


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _pow2_ceil(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def pe_mask(npe: int) -> str:
    """The mask of the first ``npe`` PEs, PE0 leftmost (D13): 3 -> ``1110``."""
    return "1" * npe + "0" * (NUM_PES - npe)


# ======================================================================================
# Capacity arithmetic (pure Python; D14 through pto_dialect.geometry)
# ======================================================================================


def row_major_size(valid_rows: int, cols: int, dtype: TileDataType) -> int:
    """Smallest legal TSize of a row-major tile with Col = ``cols`` (a power of two) holding
    ``valid_rows`` rows: a power of two >= 128 B with Rows = TSize*8/(Col*bits) >= valid_rows."""
    bits = dtype.info.carrier_bits
    need_bits = valid_rows * cols * bits
    return max(CELL_BYTES, _pow2_ceil(_ceil(need_bits, 8)))


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
        for valid in range(_ceil(extent, npe), min(max_valid, extent) + 1):
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


# -- TREM --------------------------------------------------------------------------------


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
        if best.instructions <= _ceil(elements, npe * cap_elems) or cols == 1:
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
    return _ceil(_ceil(elements * dtype.info.carrier_bits, 8), npe * tile_bytes)


# -- GEMV --------------------------------------------------------------------------------


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
    nb = _ceil(kc, MX_BLOCK)
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
        return _ceil(self.shape.m, self.mt)

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
    b_pass = _ceil(_ceil(s.k * s.n * s.b.info.carrier_bits, 8),
                   npe * b_tile_limit(s, tile_bytes, npe))
    return b_pass * _ceil(s.m, M_LAYOUT_ROWS[Layout.CUBE_M32])


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
        nk = _ceil(s.k, kc)
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
    for nk in range(1, _ceil(s.k, g) + 1):
        if best is not None and nk > best.instructions:
            break
        kc = s.k if nk == 1 else _ceil(_ceil(s.k, nk), g) * g
        if _ceil(s.k, kc) != nk:
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


# ======================================================================================
# IR emission
# ======================================================================================


class Emitter:
    """Inserts ops at one point; index constants are shared and placed before the root."""

    def __init__(self, point: InsertPoint, consts: dict[int, SSAValue], const_point: InsertPoint):
        self.point = point
        self.consts = consts
        self.const_point = const_point

    def __call__(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        return op

    def index(self, v: int) -> SSAValue:
        if v not in self.consts:
            c = arith.ConstantOp(IntegerAttr(v, IndexType()))
            c.result.name_hint = f"c{v}"
            Rewriter.insert_op(c, self.const_point)
            self.consts[v] = c.result
        return self.consts[v]

    def nested(self, block: Block) -> Emitter:
        return Emitter(InsertPoint.at_end(block), self.consts, self.const_point)

    def for_loop(self, start: int, count: int, step: int, carried: SSAValue, body):
        """``scf.for %i = start to start+count*step step step iter_args(carried)``.

        ``body(emitter, i, carried) -> new carried``. A single trip is emitted inline.
        """
        if count == 1:
            return body(self, self.index(start), carried)
        block = Block(arg_types=[IndexType(), carried.type])
        block.args[0].name_hint = "i"
        inner = self.nested(block)
        out = body(inner, block.args[0], block.args[1])
        inner(scf.YieldOp(out))
        loop = scf.ForOp(
            self.index(start), self.index(start + count * step), self.index(step), [carried], block
        )
        self(loop)
        return loop.res[0]

    def add(self, base: SSAValue, offset: int) -> SSAValue:
        if offset == 0:
            return base
        return self(arith.AddiOp(base, self.index(offset))).results[0]


def reassoc(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _collapse(emit: Emitter, v: SSAValue, groups, result_type: TensorType) -> SSAValue:
    op = tensor.CollapseShapeOp(
        operands=[v], result_types=[result_type], properties={"reassociation": reassoc(groups)}
    )
    return emit(op).results[0]


def _expand(emit: Emitter, v: SSAValue, groups, result_type: TensorType) -> SSAValue:
    op = tensor.ExpandShapeOp(v, [], reassoc(groups), list(result_type.get_shape()), result_type)
    return emit(op).results[0]


def reshape(emit: Emitter, v: SSAValue, shape: Sequence[int]) -> SSAValue:
    """View a contiguous static tensor with another shape (collapse to 1-D, then expand)."""
    t = v.type
    assert isinstance(t, TensorType)
    old = tuple(t.get_shape())
    shape = tuple(shape)
    if old == shape:
        return v
    elt = t.element_type
    flat = TensorType(elt, [math.prod(old)])
    if len(old) > 1:
        v = _collapse(emit, v, [list(range(len(old)))], flat)
    if len(shape) > 1:
        v = _expand(emit, v, [list(range(len(shape)))], TensorType(elt, list(shape)))
    return v


def empty_tensor(emit: Emitter, t: TensorType) -> SSAValue:
    return emit(tensor.EmptyOp([], t)).results[0]


# -- TREM --------------------------------------------------------------------------------


BINARY_TILE_OPS: dict[str, type[BinaryTileOp]] = {c.MNEMONIC: c for c in BINARY_OPS}
"""TEPL binary instruction of each mnemonic (TREM, TADD ... TMIN)."""


def lower_floor_mod(op: FloorModOp, tile_bytes: int, npe: int) -> None:
    """``pto.floor_mod`` -> TREM (PTO-SPEC 5, D6-D8)."""
    lower_binary(op, TRemOp, op.dtype, tile_bytes, npe)


def lower_map(op: MapOp, tile_bytes: int, npe: int) -> None:
    """``pto.map`` -> tload, the unary / tile-scalar tile op, tstore over the same cover."""
    lower_binary(op, op.tile_op, op.dtype, tile_bytes, npe)


def lower_binary(
    op: FloorModOp | ElementwiseOp | MapOp,
    tile_op: type[BinaryTileOp],
    dt: TileDataType,
    tile_bytes: int,
    npe: int,
) -> None:
    """One elementwise tensor op -> tload, ``tile_op``, tstore over the plan_trem cover."""
    t = op.result.type
    assert isinstance(t, TensorType)
    plan = plan_trem(math.prod(t.get_shape()), dt, tile_bytes, npe)
    consts: dict[int, SSAValue] = {}
    emit = Emitter(InsertPoint.before(op), consts, InsertPoint.before(op))
    view = (plan.rows, plan.cols)
    mapped = isinstance(op, MapOp)
    a = reshape(emit, op.source if mapped else op.lhs, view)
    b = None if mapped else reshape(emit, op.rhs, view)
    acc = empty_tensor(emit, TensorType(t.element_type, list(view)))
    full_size = tile_bytes
    for run in plan.runs:
        if run.valid == plan.tile_rows:
            tile = TileType(
                (plan.tile_rows, plan.cols), dt, size=full_size, pe=run.mask
            )
        else:
            tile = row_major_tile((run.valid, plan.cols), dt, run.mask, col=plan.cols)
        stride = (run.stride, 0)

        def body(e: Emitter, row: SSAValue, cur: SSAValue, tile=tile, stride=stride):
            c0 = e.index(0)
            if mapped and not tile_op.TILE_ROLES:  # the fill (TEXPANDS): nothing to load
                tr = e(tile_op.build({"scalar": op.scalars[0]}, tile, PadValue.NULL,
                                     tile.pe_mask)).results[0]  # fmt: skip
                return e(TStoreOp(tr, cur, [row, c0], pe_stride=stride)).results[0]
            ta = e(TLoadOp(a, [row, c0], tile, pe_stride=stride)).results[0]
            if mapped:  # unary / tile-scalar: one source, the scalar is defined outside
                roles = dict(zip((*tile_op.TILE_ROLES, *tile_op.SCALAR_ROLES),
                                 [ta, *op.scalars]))  # fmt: skip
                tr = e(tile_op.build(roles, tile, PadValue.NULL, tile.pe_mask)).results[0]
                return e(TStoreOp(tr, cur, [row, c0], pe_stride=stride)).results[0]
            tb = e(TLoadOp(b, [row, c0], tile, pe_stride=stride)).results[0]
            tr = e(tile_op(ta, tb, tile, mask=tile.pe_mask)).results[0]
            return e(TStoreOp(tr, cur, [row, c0], pe_stride=stride)).results[0]

        acc = emit.for_loop(run.start, run.count, run.step, acc, body)
    res = reshape(emit, acc, t.get_shape())
    Rewriter.replace_op(op, [], [res])


# -- GEMV --------------------------------------------------------------------------------


def cube_shape(op: GemvOp | MatmulOp) -> GemvShape:
    m = op.m if isinstance(op, MatmulOp) else 1
    return GemvShape(
        op.k,
        op.n,
        op.a_dtype,
        op.b_dtype,
        op.out_dtype,
        op.a_scale is not None,
        op.b_scale is not None,
        m,
        op.acc_dtype,
    )


gemv_shape = cube_shape


def _as_row(emit: Emitter, v: SSAValue | None) -> SSAValue | None:
    """``tensor<X>`` -> ``tensor<1xX>`` (tload moves 2-D tensors)."""
    if v is None:
        return None
    t = v.type
    assert isinstance(t, TensorType)
    if t.get_num_dims() == 2:
        return v
    return reshape(emit, v, (1, t.get_shape()[0]))


def lower_gemv_memory(op: GemvOp, plan: GemvPlan) -> None:
    """The ``chain=memory`` GEMV: every chunk is a TGEMV_MX_BIAS whose bias is the partial
    result of the previous chunk, stored to and loaded back from an FP32 tensor."""
    s = plan.shape
    consts: dict[int, SSAValue] = {}
    emit = Emitter(InsertPoint.before(op), consts, InsertPoint.before(op))
    a = _as_row(emit, op.a)
    a_scale = _as_row(emit, op.a_scale)
    b, b_scale = op.b, op.b_scale
    f32 = element_type(TileDataType.FP32)
    acc_t = TensorType(f32, [1, s.n])
    if op.bias is not None:
        acc = _as_row(emit, op.bias)
    else:
        zero = DenseIntOrFPElementsAttr.from_list(acc_t, [0.0])
        acc = emit(arith.ConstantOp(zero)).results[0]
    assert acc is not None
    out_t = TensorType(element_type(s.out), [1, s.n])

    def chunk(e: Emitter, k: SSAValue, kb: SSAValue, kv: int, src: SSAValue, dst: SSAValue, last: bool):
        """One K chunk of ``kv`` elements at ``k``: every N run, bias from ``src``, D to ``dst``."""
        d_dt = s.out if last else TileDataType.FP32
        fpatr = Fpatr(
            pre_quant_mode=PRE_QUANT_FOR_OUTPUT[d_dt] if last else 0,
            relu_mode=ReluMode.RELU.value if (last and op.has_relu) else 0,
        )
        nbv = _ceil(kv, MX_BLOCK)
        a_tiles: dict[str, tuple[SSAValue, SSAValue | None]] = {}

        def a_for(mask: str):
            if mask not in a_tiles:
                c0 = e.index(0)
                ta = e(TLoadOp(a, [c0, k], cube_tile((1, kv), s.a, Layout.CUBE_M16, mask))).results[0]
                tas = None
                if a_scale is not None:
                    tt = row_major_tile((1, nbv), TileDataType.E8M0, mask)
                    tas = e(TLoadOp(a_scale, [c0, kb], tt)).results[0]
                a_tiles[mask] = (ta, tas)
            return a_tiles[mask]

        for run in plan.runs:
            mask, nv = run.mask, run.valid
            ta, tas = a_for(mask)
            stride = (0, run.stride)
            b_tile = cube_tile((kv, nv), s.b, Layout.CUBE_N8, mask)
            bs_tile = row_major_tile((nbv, nv), TileDataType.E8M0, mask)
            bias_tile = row_major_tile((1, nv), TileDataType.FP32, mask)
            d_tile = cube_tile((1, nv), d_dt, Layout.CUBE_M16, mask)

            def body(e2: Emitter, n: SSAValue, cur: SSAValue, ta=ta, tas=tas, stride=stride,
                     b_tile=b_tile, bs_tile=bs_tile, bias_tile=bias_tile, d_tile=d_tile, mask=mask):
                c0 = e2.index(0)
                tb = e2(TLoadOp(b, [k, n], b_tile, pe_stride=stride)).results[0]
                tbs = None
                if b_scale is not None:
                    tbs = e2(TLoadOp(b_scale, [kb, n], bs_tile, pe_stride=stride)).results[0]
                tbias = e2(TLoadOp(src, [c0, n], bias_tile, pe_stride=stride)).results[0]
                gemv = TGemvMxBiasOp(
                    {"a": ta, "a_scale": tas, "b": tb, "b_scale": tbs, "bias": tbias},
                    [d_tile],
                    fpatr=fpatr,
                    mask=mask,
                )
                d = e2(gemv).results[0]
                return e2(TStoreOp(d, cur, [c0, n], pe_stride=stride)).results[0]

            dst = e.for_loop(run.start, run.count, run.step, dst, body)
        return dst

    # Chunks 0 .. nk-2 accumulate into ``acc`` (FP32, through memory: D10), the last one
    # converts and writes the result.
    if plan.nk > 1:
        step = plan.kc

        def k_body(e: Emitter, k: SSAValue, cur: SSAValue):
            if isinstance(k.owner, arith.ConstantOp):
                kb = e.index(k.owner.value.value.data // MX_BLOCK)  # type: ignore[union-attr]
            else:
                kb = e(arith.DivUIOp(k, e.index(MX_BLOCK))).results[0]
            return chunk(e, k, kb, plan.kc, cur, cur, last=False)

        acc = emit.for_loop(0, plan.nk - 1, step, acc, k_body)
    k_last0 = (plan.nk - 1) * plan.kc
    out = empty_tensor(emit, out_t)
    out = chunk(
        emit, emit.index(k_last0), emit.index(k_last0 // MX_BLOCK), plan.k_last, acc, out, last=True
    )
    res_t = op.result.type
    assert isinstance(res_t, TensorType)
    res = reshape(emit, out, res_t.get_shape())
    Rewriter.replace_op(op, [], [res])


CUBE_FORMS: dict[tuple[bool, bool], tuple[type[CubeMatrixOp], ...]] = {
    # (gemv, mx): (first chunk, first chunk with bias, later chunks)
    (True, True): (TGemvMxOp, TGemvMxBiasOp, TGemvMxAccOp),
    (True, False): (TGemvOp, TGemvBiasOp, TGemvAccOp),
    (False, True): (TMatmulMxOp, TMatmulMxBiasOp, TMatmulMxAccOp),
    (False, False): (TMatmulOp, TMatmulBiasOp, TMatmulAccOp),
}
"""Which live CUBE function each step of a K chain uses (PTO-SPEC 3.1)."""

HOIST_MAX_CHUNKS = REGISTERS_PER_HAND - 3
"""A chunks are loaded once per M tile (outside the N loop) when at most this many: the
``m`` hand then holds nk A tiles plus C, D and an init tile; the ``u`` hand nk A scales plus
B's scale (PTO-SPEC 2: 16 registers per hand)."""


def lower_cube(op: GemvOp | MatmulOp, plan: GemvPlan) -> None:
    """A GEMV or matmul as a K chain through the accumulate forms (PTO-SPEC 3.1, D3, D10).

    Loops: M tiles (``scf.for``) > N runs (``scf.for`` per run) > the K chain, unrolled, so
    no tile crosses a loop boundary. Chunk 0 is TGEMV(_MX)(_BIAS) / TMATMUL(_MX)(_BIAS) — a
    matmul init that is not zero enters as chunk 0's C through TMATMUL(_MX)_ACC — and every
    later chunk is the _ACC form with C = the previous D (FP32, A's layout). Only the last
    chunk converts (PreQuantMode 1/16) and applies ReLU. When the plan hoists them
    (:attr:`GemvPlan.hoist`), the A chunks (and their scales) are loaded once per M tile and
    PE mask, outside the N loop.
    """
    s = plan.shape
    gemv = isinstance(op, GemvOp)
    consts: dict[int, SSAValue] = {}
    emit = Emitter(InsertPoint.before(op), consts, InsertPoint.before(op))
    a = _as_row(emit, op.a)
    a_scale = _as_row(emit, op.a_scale)
    b, b_scale = op.b, op.b_scale
    bias = _as_row(emit, op.bias)
    init = None if gemv else op.acc
    relu = op.has_relu
    first_plain, first_bias, acc_form = CUBE_FORMS[(gemv, s.mx)]
    layout, mt = plan.layout, plan.mt
    res_elt = op.result.type.element_type  # type: ignore[union-attr]
    out_t = TensorType(res_elt, [s.m, s.n])  # signless i32 stays signless (tstore allows it)
    fp32 = TileDataType.FP32
    acc_dt = s.acc
    chunks = [(c * plan.kc, plan.kc if c < plan.nk - 1 else plan.k_last) for c in range(plan.nk)]
    hoist = plan.hoist

    def a_chunk(e: Emitter, m: SSAValue, mv: int, c: int, mask: str):
        k0, kv = chunks[c]
        ta = e(TLoadOp(a, [m, e.index(k0)], cube_tile((mv, kv), s.a, layout, mask))).results[0]
        tas = None
        if a_scale is not None:
            tt = row_major_tile((mv, _ceil(kv, MX_BLOCK)), TileDataType.E8M0, mask)
            tas = e(TLoadOp(a_scale, [m, e.index(k0 // MX_BLOCK)], tt)).results[0]
        return ta, tas

    def m_body(e: Emitter, m: SSAValue, cur: SSAValue, mv: int):
        for run in plan.runs:
            mask, nv = run.mask, run.valid
            stride = (0, run.stride)
            a_tiles = [a_chunk(e, m, mv, c, mask) for c in range(plan.nk)] if hoist else None

            def n_body(e2: Emitter, n: SSAValue, acc_t: SSAValue, mask=mask, nv=nv,
                       stride=stride, a_tiles=a_tiles):
                prev = None
                for c, (k0, kv) in enumerate(chunks):
                    last = c == plan.nk - 1
                    ta, tas = a_tiles[c] if a_tiles is not None else a_chunk(e2, m, mv, c, mask)
                    nbv = _ceil(kv, MX_BLOCK)
                    b_tile = cube_tile((kv, nv), s.b, Layout.CUBE_N8, mask)
                    tb = e2(TLoadOp(b, [e2.index(k0), n], b_tile, pe_stride=stride)).results[0]
                    tbs = None
                    if b_scale is not None:
                        bs_tile = row_major_tile((nbv, nv), TileDataType.E8M0, mask)
                        kb = e2.index(k0 // MX_BLOCK)
                        tbs = e2(TLoadOp(b_scale, [kb, n], bs_tile, pe_stride=stride)).results[0]
                    roles: dict[str, SSAValue | None] = {"a": ta, "b": tb}
                    if s.mx:
                        roles.update(a_scale=tas, b_scale=tbs)
                    if prev is not None:
                        form = acc_form
                        roles["c"] = prev
                    elif bias is not None:
                        form = first_bias
                        bt = row_major_tile((1, nv), fp32, mask)
                        roles["bias"] = e2(
                            TLoadOp(bias, [e2.index(0), n], bt, pe_stride=stride)
                        ).results[0]
                    elif init is not None:
                        form = acc_form
                        ct = cube_tile((mv, nv), acc_dt, layout, mask)
                        roles["c"] = e2(TLoadOp(init, [m, n], ct, pe_stride=stride)).results[0]
                    else:
                        form = first_plain
                    d_dt = s.out if last else acc_dt
                    fpatr = Fpatr(
                        pre_quant_mode=PRE_QUANT_FOR_OUTPUT[d_dt] if last else 0,
                        relu_mode=ReluMode.RELU.value if (last and relu) else 0,
                    )
                    d_tile = cube_tile((mv, nv), d_dt, layout, mask)
                    prev = e2(form(roles, [d_tile], fpatr=fpatr, mask=mask)).results[0]
                assert prev is not None
                return e2(TStoreOp(prev, acc_t, [m, n], pe_stride=stride)).results[0]

            cur = e.for_loop(run.start, run.count, run.step, cur, n_body)
        return cur

    out = empty_tensor(emit, out_t)
    full, tail = divmod(s.m, mt)
    if full:
        out = emit.for_loop(0, full, mt, out, lambda e, m, cur: m_body(e, m, cur, mt))
    if tail:
        out = m_body(emit, emit.index(full * mt), out, tail)
    res_t = op.result.type
    assert isinstance(res_t, TensorType)
    res = reshape(emit, out, res_t.get_shape())
    Rewriter.replace_op(op, [], [res])


# ======================================================================================
# Counting (tests, docs, benchmarks)
# ======================================================================================


def trip_count(loop: scf.ForOp) -> int | None:
    vals = []
    for v in (loop.lb, loop.ub, loop.step):
        o = v.owner
        if not isinstance(o, arith.ConstantOp) or not isinstance(o.value, IntegerAttr):
            return None
        vals.append(o.value.value.data)
    lb, ub, st = vals
    return max(0, _ceil(ub - lb, st))


def executed_op_counts(root: Operation) -> Counter[str]:
    """How many times each op runs (static ``scf.for`` trip counts multiplied out)."""
    counts: Counter[str] = Counter()

    def walk(op: Operation, mult: int):
        counts[op.name] += mult
        inner = mult
        if isinstance(op, scf.ForOp):
            trips = trip_count(op)
            if trips is None:
                raise ValueError("scf.for with non-constant bounds: cannot count statically")
            inner = mult * trips
        for region in op.regions:
            for block in region.blocks:
                for o in block.ops:
                    walk(o, inner)

    walk(root, 1)
    return counts


# ======================================================================================
# The pass
# ======================================================================================


CHAINS = ("acc", "memory")


@dataclass(frozen=True)
class PtoTileToCapacityPass(ModulePass):
    """Tile the tensor-level PTO ops into tload / CUBE or TEPL instructions / tstore.

    ``pto.gemv`` and ``pto.matmul`` -> the TGEMV / TMATMUL family (K chain through the ACC
    forms), ``pto.floor_mod`` -> TREM, ``pto.elementwise`` -> TADD ... TMIN.

    Options:
      * ``tile-bytes`` — the largest TSize a tile may take, per PE (a Local TSize: a power
        of two from 128 to 65536; default 65536, D14).
      * ``pes`` — how many PEs to use, 1..4 (default 4; masks use the first ``pes`` PEs).
      * ``target`` — ``a5`` or ``a2a3``; empty (default) reads the module's ``pto.target``.
        On ``a2a3`` only the FP16/BF16 (non-MX) products are tiled; MX ones stay (D15).
      * ``chain`` — ``acc`` (default): K chunks chain through the _ACC forms; ``memory``:
        GEMV chunks chain through an FP32 tensor and TGEMV_MX_BIAS (matmul always uses acc).
      * ``cube-tile-bytes`` — the largest TSize of the GEMV / matmul tiles (default 0: the
        same as ``tile-bytes``). Their plan budgets its own live set, so ``pto-lower`` keeps
        it at the maximum while it shrinks the other families' tiles.
    """

    name = "pto-tile-to-capacity"

    tile_bytes: int = LOCAL_MAX_BYTES
    pes: int = NUM_PES
    target: str = ""
    chain: str = "acc"
    cube_tile_bytes: int = 0

    @property
    def cube_bytes(self) -> int:
        """The largest TSize of a GEMV / matmul tile."""
        return self.cube_tile_bytes or self.tile_bytes

    def check_options(self) -> None:
        for opt, v in (("tile-bytes", self.tile_bytes), ("cube-tile-bytes", self.cube_bytes)):
            code = code_of_size(v)
            if code is None or code > max_code(Storage.LOCAL):
                raise PassFailedException(
                    f"{self.name}: {opt}={v} is not a Local TSize "
                    "(128 B * 2^k up to 65536 B; D14)"
                )
        if not 1 <= self.pes <= NUM_PES:
            raise PassFailedException(f"{self.name}: pes={self.pes} must be 1..{NUM_PES} (D13)")
        if self.chain not in CHAINS:
            raise PassFailedException(
                f"{self.name}: chain={self.chain} must be one of {', '.join(CHAINS)}"
            )

    def budget(self, family: str) -> int:
        """The TSize cap of ``family``'s tiles (:func:`family_tile_bytes`)."""
        return family_tile_bytes(family, self.tile_bytes, self.pes)

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        from passes.convert_linalg_to_pto import target_of

        self.check_options()
        try:
            target = target_of(op, self.target)
        except ValueError as e:
            raise PassFailedException(f"{self.name}: {e}") from None
        for o in list(op.walk()):
            if isinstance(o, FloorModOp | ElementwiseOp | GemvOp | MatmulOp) and _lower_empty(
                o, self.name
            ):
                continue
            binary_bytes = binary_tile_bytes(self.tile_bytes, self.pes)
            if isinstance(o, FloorModOp | ElementwiseOp):
                t = o.result.type
                assert isinstance(t, TensorType)
                dt = o.dtype
                _check_size(
                    self.name,
                    f"the {'x'.join(map(str, t.get_shape()))} {o.name}",
                    trem_lower_bound(math.prod(t.get_shape()), dt, binary_bytes, self.pes),
                )
            if isinstance(o, FloorModOp):
                lower_floor_mod(o, binary_bytes, self.pes)
            elif isinstance(o, MapOp):
                lower_map(o, self.budget("map"), self.pes)
            elif isinstance(o, ElementwiseOp):
                lower_binary(o, BINARY_TILE_OPS[o.mnemonic], o.dtype, binary_bytes, self.pes)
            elif isinstance(o, CmpSelOp):
                lower_cmpsel(o, self.budget("cmpsel"), self.pes)
            elif isinstance(o, ReduceOp | ExpandOp):
                family = "reduce" if isinstance(o, ReduceOp) else "expand"
                lower_tensor_local(o, self.budget(family), self.pes, self.tile_bytes)
            elif isinstance(o, ConvertOp) and not _lower_empty(o, self.name):
                lower_convert(o, self.budget("convert"), self.pes)
            elif isinstance(o, TransposeOp):
                lower_transpose(o, self.budget("transpose"), self.pes, self.tile_bytes)
            elif isinstance(o, GemvOp | MatmulOp):
                s = cube_shape(o)
                if s.mx and target is not TargetProfile.A5:
                    continue  # no MX CUBE function on a2a3 (D15)
                what = f"the {s.m}x{s.k}x{s.n} product"
                _check_size(self.name, what, gemv_lower_bound(s, self.cube_bytes, self.pes))
                plan = plan_gemv(s, self.cube_bytes, self.pes)
                if plan is not None:
                    _check_size(self.name, what, plan.instructions)
                if plan is None:
                    raise PassFailedException(
                        f"{self.name}: no tiling of the {s.m}x{s.k}x{s.n} product fits "
                        f"tile-bytes={self.cube_bytes} (D14)"
                    )
                mx_pair = s.a in MX_INPUT_TYPES and s.b in MX_INPUT_TYPES
                if isinstance(o, GemvOp) and self.chain == "memory" and target is TargetProfile.A5 and mx_pair:
                    lower_gemv_memory(o, plan)
                else:
                    lower_cube(o, plan)


def _check_size(pass_name: str, what: str, count: int) -> None:
    if count > MAX_INSTRUCTIONS_PER_OP:
        raise PassFailedException(
            f"{pass_name}: {what} needs at least {count} compute instructions, more than the "
            f"lowering limit of {MAX_INSTRUCTIONS_PER_OP} per op (split it at the source)"
        )


def _lower_empty(o: FloorModOp | ElementwiseOp | GemvOp | MatmulOp, pass_name: str) -> bool:
    """Zero-sized work: an op whose result has no element lowers to nothing (its result is
    an empty tensor); an empty contraction (K = 0) is refused. True when ``o`` was handled."""
    t = o.result.type
    assert isinstance(t, TensorType)
    shapes = [t.get_shape()] + [
        v.type.get_shape() for v in o.operands if isinstance(v.type, TensorType)
    ]
    if all(d > 0 for shape in shapes for d in shape):
        return False
    if any(d == 0 for d in t.get_shape()):
        empty = tensor.EmptyOp((), t)
        Rewriter.replace_op(o, empty)
        return True
    raise PassFailedException(
        f"{pass_name}: '{o.name}' has an operand with a zero-sized dimension "
        "(an empty contraction, K = 0), which has no PTO instruction; remove it at the source"
    )


__all__ = [
    "PtoTileToCapacityPass",
    "CUBE_FORMS",
    "lower_binary",
    "lower_cube",
    "plan_trem",
    "plan_gemv",
    "trem_lower_bound",
    "gemv_lower_bound",
    "b_tile_limit",
    "LIVE_TILES",
    "binary_tile_bytes",
    "family_tile_bytes",
    "cube_live_bytes",
    "cover",
    "executed_op_counts",
    "default_size",
]
