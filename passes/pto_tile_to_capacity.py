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

**GEMV** (``pto.gemv``, PTO-SPEC 4). N is split across the PEs (PE q takes columns
``n + q*Nc``), K into chunks of ``Kc`` (a multiple of 32 when a side is MX-scaled, so that the
E8M0 scales of a chunk start at ``k/32``, D1). Tiles: A ``1xKc`` CUBE_M16 mat, B ``KcxNc``
CUBE_N8 mat, D ``1xNc`` in A's layout, mat; scales and bias row-major (D10). The chunks are
chained: D10 makes D come out in A's CUBE layout while Bias must be row-major, so the
partial result of chunk i is **stored** to a ``tensor<1xNxf32>`` and **loaded** back as the
row-major FP32 bias of chunk i+1 — the chain goes through memory, one FP32 rounding per
step (D3, D4). Only the last chunk applies ReLU and the F322F16/F322BF16 conversion
(B.FPATR ReluMode 1, PreQuantMode 1/16). ``(Kc, Nc)`` minimise the TGEMV count, then the
number of chain steps; a ``16384 x 4096`` MXFP8 GEMV takes the lower bound of 256 TGEMVs.

On target ``a2a3`` there are no MX CUBE functions (D15), so ``pto.gemv`` is left as it is.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
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

from pto_dialect.attributes import TargetProfile, TileType, element_type
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.datatypes import MX_BLOCK, TileDataType
from pto_dialect.geometry import (
    CELL_BYTES,
    Layout,
    Location,
    Storage,
    code_of_size,
    cube_cells,
    default_size,
    max_code,
)
from pto_dialect.ops import TGemvMxBiasOp, TRemOp
from pto_dialect.postprocess import Fpatr, ReluMode
from pto_dialect.tensor_ops import FloorModOp, GemvOp

NUM_PES = 4
"""PEs of one core (D13)."""

LOCAL_MAX_BYTES = 64 * 1024
"""The largest Local TSize (code 10, D14)."""

PRE_QUANT_FOR_OUTPUT = {TileDataType.FP32: 0, TileDataType.FP16: 1, TileDataType.BF16: 16}
"""PreQuantMode converting the FP32 accumulator to the result type (PTO-SPEC 3.3, D11)."""


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
    cols = min(elements & -elements, cap_elems)
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


def trem_lower_bound(elements: int, dtype: TileDataType, tile_bytes: int, npe: int) -> int:
    """ceil(bytes of one operand / (PEs x TSize)): no tiling can use fewer TREMs."""
    return _ceil(_ceil(elements * dtype.info.carrier_bits, 8), npe * tile_bytes)


# -- GEMV --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GemvShape:
    k: int
    n: int
    a: TileDataType
    b: TileDataType
    out: TileDataType
    a_scaled: bool
    b_scaled: bool

    @property
    def granule(self) -> int:
        """K chunks start at multiples of 32 when a scale is present (D1)."""
        return MX_BLOCK if (self.a_scaled or self.b_scaled) else 1


def gemv_tile_bytes(s: GemvShape, kc: int, nc: int, d_type: TileDataType) -> dict[str, int]:
    """Capacity each tile of one K-chunk x N-slice TGEMV needs (D10, D14)."""
    nb = _ceil(kc, MX_BLOCK)
    out = {
        "a": cube_bytes(Layout.CUBE_M16, s.a, 1, kc),
        "b": cube_bytes(Layout.CUBE_N8, s.b, kc, nc),
        "bias": row_major_size(1, _pow2_ceil(nc), TileDataType.FP32),
        "d": cube_bytes(Layout.CUBE_M16, d_type, 1, nc),
    }
    if s.a_scaled:
        out["a_scale"] = row_major_size(1, _pow2_ceil(nb), TileDataType.E8M0)
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
    """N runs (the same for every chunk)."""

    @property
    def instructions(self) -> int:
        return self.nk * instructions(self.runs)

    @property
    def k_last(self) -> int:
        return self.shape.k - (self.nk - 1) * self.kc


def gemv_lower_bound(s: GemvShape, tile_bytes: int, npe: int) -> int:
    """ceil(bytes of B / (PEs x TSize)): B must pass through the PEs' tiles at least once."""
    return _ceil(_ceil(s.k * s.n * s.b.info.carrier_bits, 8), npe * tile_bytes)


def plan_gemv(s: GemvShape, tile_bytes: int, npe: int) -> GemvPlan | None:
    """The (Kc, Nc) that minimise the TGEMV count, then the chain length (PTO-SPEC 4, D14).

    For each chunk count nk, Kc = ceil(K/nk) rounded up to the granule; Nc is the largest
    slice with every tile within ``tile_bytes``; the N cover then fixes the count. With a
    scaled side the granule is 32 (D1); when even a 32-element chunk does not fit (tiny
    ``tile-bytes``), chunks of 16, 8 ... elements, which never straddle a scale block, are
    used. Returns None when nothing fits.
    """

    def fits(kc: int, nc: int, d_type: TileDataType) -> bool:
        return all(v <= tile_bytes for v in gemv_tile_bytes(s, kc, nc, d_type).values())

    def evaluate(kc: int) -> GemvPlan | None:
        nk = _ceil(s.k, kc)
        d_type = s.out if nk == 1 else TileDataType.FP32
        if not (fits(kc, 1, d_type) and fits(kc, 1, s.out)):
            return None
        lo, hi = 1, s.n
        while lo < hi:  # the largest nc that fits (fits is monotone in nc)
            mid = (lo + hi + 1) // 2
            if fits(kc, mid, d_type) and fits(kc, mid, s.out):
                lo = mid
            else:
                hi = mid - 1
        return GemvPlan(s, kc, nk, lo, tuple(cover(s.n, lo, npe)))

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


class _Emitter:
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

    def nested(self, block: Block) -> _Emitter:
        return _Emitter(InsertPoint.at_end(block), self.consts, self.const_point)

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


def _reassoc(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _collapse(emit: _Emitter, v: SSAValue, groups, result_type: TensorType) -> SSAValue:
    op = tensor.CollapseShapeOp(
        operands=[v], result_types=[result_type], properties={"reassociation": _reassoc(groups)}
    )
    return emit(op).results[0]


def _expand(emit: _Emitter, v: SSAValue, groups, result_type: TensorType) -> SSAValue:
    op = tensor.ExpandShapeOp(v, [], _reassoc(groups), list(result_type.get_shape()), result_type)
    return emit(op).results[0]


def reshape(emit: _Emitter, v: SSAValue, shape: Sequence[int]) -> SSAValue:
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


def _empty(emit: _Emitter, t: TensorType) -> SSAValue:
    return emit(tensor.EmptyOp([], t)).results[0]


# -- TREM --------------------------------------------------------------------------------


def lower_floor_mod(op: FloorModOp, tile_bytes: int, npe: int) -> None:
    t = op.result.type
    assert isinstance(t, TensorType)
    dt = op.dtype
    plan = plan_trem(math.prod(t.get_shape()), dt, tile_bytes, npe)
    consts: dict[int, SSAValue] = {}
    emit = _Emitter(InsertPoint.before(op), consts, InsertPoint.before(op))
    view = (plan.rows, plan.cols)
    a = reshape(emit, op.lhs, view)
    b = reshape(emit, op.rhs, view)
    acc = _empty(emit, TensorType(t.element_type, list(view)))
    full_size = tile_bytes
    for run in plan.runs:
        if run.valid == plan.tile_rows:
            tile = TileType(
                (plan.tile_rows, plan.cols), dt, size=full_size, pe=run.mask
            )
        else:
            tile = row_major_tile((run.valid, plan.cols), dt, run.mask, col=plan.cols)
        stride = (run.stride, 0)

        def body(e: _Emitter, row: SSAValue, cur: SSAValue, tile=tile, stride=stride):
            c0 = e.index(0)
            ta = e(TLoadOp(a, [row, c0], tile, pe_stride=stride)).results[0]
            tb = e(TLoadOp(b, [row, c0], tile, pe_stride=stride)).results[0]
            tr = e(TRemOp(ta, tb, tile, mask=tile.pe_mask)).results[0]
            return e(TStoreOp(tr, cur, [row, c0], pe_stride=stride)).results[0]

        acc = emit.for_loop(run.start, run.count, run.step, acc, body)
    res = reshape(emit, acc, t.get_shape())
    Rewriter.replace_op(op, [], [res])


# -- GEMV --------------------------------------------------------------------------------


def gemv_shape(op: GemvOp) -> GemvShape:
    return GemvShape(
        op.k,
        op.n,
        op.a_dtype,
        op.b_dtype,
        op.out_dtype,
        op.a_scale is not None,
        op.b_scale is not None,
    )


def _as_row(emit: _Emitter, v: SSAValue | None) -> SSAValue | None:
    """``tensor<X>`` -> ``tensor<1xX>`` (tload moves 2-D tensors)."""
    if v is None:
        return None
    t = v.type
    assert isinstance(t, TensorType)
    if t.get_num_dims() == 2:
        return v
    return reshape(emit, v, (1, t.get_shape()[0]))


def lower_gemv(op: GemvOp, plan: GemvPlan) -> None:
    s = plan.shape
    consts: dict[int, SSAValue] = {}
    emit = _Emitter(InsertPoint.before(op), consts, InsertPoint.before(op))
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

    def chunk(e: _Emitter, k: SSAValue, kb: SSAValue, kv: int, src: SSAValue, dst: SSAValue, last: bool):
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

            def body(e2: _Emitter, n: SSAValue, cur: SSAValue, ta=ta, tas=tas, stride=stride,
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

        def k_body(e: _Emitter, k: SSAValue, cur: SSAValue):
            if isinstance(k.owner, arith.ConstantOp):
                kb = e.index(k.owner.value.value.data // MX_BLOCK)  # type: ignore[union-attr]
            else:
                kb = e(arith.DivUIOp(k, e.index(MX_BLOCK))).results[0]
            return chunk(e, k, kb, plan.kc, cur, cur, last=False)

        acc = emit.for_loop(0, plan.nk - 1, step, acc, k_body)
    k_last0 = (plan.nk - 1) * plan.kc
    out = _empty(emit, out_t)
    out = chunk(
        emit, emit.index(k_last0), emit.index(k_last0 // MX_BLOCK), plan.k_last, acc, out, last=True
    )
    res_t = op.result.type
    assert isinstance(res_t, TensorType)
    res = reshape(emit, out, res_t.get_shape())
    Rewriter.replace_op(op, [], [res])


# ======================================================================================
# Counting (tests, docs, benchmarks)
# ======================================================================================


def _trip_count(loop: scf.ForOp) -> int | None:
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
            trips = _trip_count(op)
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


@dataclass(frozen=True)
class PtoTileToCapacityPass(ModulePass):
    """Tile ``pto.gemv`` / ``pto.floor_mod`` into tload / TGEMV_MX_BIAS / TREM / tstore.

    Options:
      * ``tile-bytes`` — the largest TSize a tile may take, per PE (a Local TSize: a power
        of two from 128 to 65536; default 65536, D14).
      * ``pes`` — how many PEs to use, 1..4 (default 4; masks use the first ``pes`` PEs).
      * ``target`` — ``a5`` or ``a2a3``; empty (default) reads the module's ``pto.target``.
        On ``a2a3`` ``pto.gemv`` is left as it is (no MX CUBE functions, D15).
    """

    name = "pto-tile-to-capacity"

    tile_bytes: int = LOCAL_MAX_BYTES
    pes: int = NUM_PES
    target: str = ""

    def check_options(self) -> None:
        code = code_of_size(self.tile_bytes)
        if code is None or code > max_code(Storage.LOCAL):
            raise PassFailedException(
                f"{self.name}: tile-bytes={self.tile_bytes} is not a Local TSize "
                "(128 B * 2^k up to 65536 B; D14)"
            )
        if not 1 <= self.pes <= NUM_PES:
            raise PassFailedException(f"{self.name}: pes={self.pes} must be 1..{NUM_PES} (D13)")

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        from passes.convert_linalg_to_pto import target_of

        self.check_options()
        try:
            target = target_of(op, self.target)
        except ValueError as e:
            raise PassFailedException(f"{self.name}: {e}") from None
        for o in list(op.walk()):
            if isinstance(o, FloorModOp):
                lower_floor_mod(o, self.tile_bytes, self.pes)
            elif isinstance(o, GemvOp) and target is TargetProfile.A5:
                s = gemv_shape(o)
                plan = plan_gemv(s, self.tile_bytes, self.pes)
                if plan is None:
                    raise PassFailedException(
                        f"{self.name}: no tiling of the {s.k}x{s.n} GEMV fits "
                        f"tile-bytes={self.tile_bytes} (D14)"
                    )
                lower_gemv(o, plan)


__all__ = [
    "PtoTileToCapacityPass",
    "plan_trem",
    "plan_gemv",
    "trem_lower_bound",
    "gemv_lower_bound",
    "cover",
    "executed_op_counts",
    "default_size",
]
