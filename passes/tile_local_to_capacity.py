"""``pto-tile-to-capacity`` for the tensor-level reductions and expansions (``pto.reduce``,
``pto.expand``; ``pto_dialect/tensor_local.py``): tload / TROW*/TCOL* / tstore programs whose
tiles fit the capacity (D14). Part of the ``pto-tile-to-capacity`` pass (its ``apply``
calls :func:`lower_tensor_local`).

Exactness (D18): every reduction is one instruction over the whole reduced line, so the
fold order is the instruction's (increasing index, from the first element): a line is never
split, because continuing a floating fold from a partial result is not a TROW*/TCOL*
operation. Hence

* row kinds (``rowsum`` ..., ``row`` expansions, and ``col`` expansions, whose broadcast
  row is loaded by every PE): the N columns of a row go in one tile (Col = the next power of
  two of N); rows are split into PE groups with :func:`~passes.lowering.tile_plans.cover`;
* column reductions: the M rows of a column go in one tile; columns are split into PE
  groups of at most the widest power-of-two Col whose tile still holds M rows.

A line that does not fit one tile of ``tile-bytes`` is refused with a diagnostic (nothing is
lowered approximately).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, TensorType, i64
from xdsl.ir import SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from passes.lowering.emitter import Emitter, empty_tensor
from passes.lowering.tile_plans import cover
from pto_dialect.attributes import TileType
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.tensor_local import ExpandOp, GatherOp, ReduceOp, SortOp, TransposeOp
from pto_dialect.tile_local import TeplTileOp, TTransOp
from pto_dialect.tile_rearrange import INDEXED_OPS, TSortOp

TGatherOp = INDEXED_OPS[0]


def _pow2_ceil(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def _tile(valid: tuple[int, int], col: int, dt: TileDataType, mask: str, min_rows: int) -> TileType:
    """A row-major Local tile of Col ``col`` with at least ``min_rows`` rows (D14)."""
    bits = dt.info.carrier_bits
    size = 128
    while size * 8 // (col * bits) < max(min_rows, 1):
        size *= 2
    rows = size * 8 // (col * bits)
    return TileType((rows, col), dt, valid=valid, size=size, pe=mask)


def _fail(op, why: str) -> PassFailedException:
    kind = op.kind.data.replace(".", " ")
    return PassFailedException(f"pto-tile-to-capacity: '{op.name}' {kind}: {why} (D14, D18)")


def _line_budget(budget: int, tile_bytes: int, line_bytes: int) -> int:
    """``budget`` (the family's TSize cap, whose op fits the core tile capacity) when one
    line of ``line_bytes`` fits a tile of it, else ``tile_bytes``: a line is never split, so
    a longer one takes a larger tile (``pto-lower`` then accounts the capacity)."""
    return budget if line_bytes <= budget else tile_bytes


def lower_tensor_local(op: ReduceOp | ExpandOp, budget: int, npe: int,
                       tile_bytes: int | None = None) -> None:
    """Replace one ``pto.reduce`` / ``pto.expand`` by its tiled tile-level program. Tiles
    take at most ``budget`` bytes, or ``tile_bytes`` (default: the same) where one line
    needs more."""

    cls = op.tile_op
    dt = op.dtype
    out_dt = op.index_dtype if isinstance(op, ReduceOp) else op.result_dtype
    rt = op.result.type
    assert isinstance(rt, TensorType)
    x_t = op.ins[0].type
    assert isinstance(x_t, TensorType)
    m, n = x_t.get_shape() if isinstance(op, ReduceOp) else rt.get_shape()
    wide = max(dt.info.carrier_bits, out_dt.info.carrier_bits)
    col_axis = isinstance(op, ReduceOp) and cls.AXIS == "col"
    line = (m if col_axis else _pow2_ceil(n)) * wide // 8
    tile_bytes = _line_budget(budget, tile_bytes or budget, line)
    emit = Emitter(InsertPoint.before(op), {}, InsertPoint.before(op))
    acc = empty_tensor(emit, TensorType(rt.element_type, list(rt.get_shape())))
    if col_axis:
        # widest power-of-two Col whose tile of tile-bytes holds all M rows
        c = 1
        while c * 2 <= _pow2_ceil(n) and tile_bytes * 8 // (c * 2 * wide) >= m:
            c *= 2
        if tile_bytes * 8 // (c * wide) < m:
            raise _fail(op, f"a column of {m} rows does not fit one tile of {tile_bytes} B")
        runs, extent_of = cover(n, c, npe), "cols"
    else:
        c = _pow2_ceil(n)
        r_max = tile_bytes * 8 // (c * wide)
        if r_max < 1:
            raise _fail(op, f"a row of {n} elements does not fit one tile of {tile_bytes} B")
        runs, extent_of = cover(m, min(r_max, m), npe), "rows"
    for run in runs:
        mask = run.mask
        if extent_of == "cols":
            vr, vc, stride = m, run.valid, (0, run.stride)
        else:
            vr, vc, stride = run.valid, n, (run.stride, 0)
        src_t = _tile((vr, vc), c, dt, mask, vr)
        if isinstance(op, ReduceOp):
            res_t = (_tile((vr, 1), 1, out_dt, mask, vr) if cls.AXIS == "row"
                     else _tile((1, vc), c, out_dt, mask, 1))  # fmt: skip
            srcs_t = [src_t]
        else:
            res_t = _tile((vr, vc), c, out_dt, mask, src_t.shape[0])
            b_t = (_tile((vr, 1), 1, dt, mask, vr) if cls.AXIS == "row"
                   else _tile((1, vc), c, dt, mask, 1))  # fmt: skip
            srcs_t = [b_t] if cls.OPERATION == "copy" else [src_t, b_t]

        def body(e, pos: SSAValue, cur: SSAValue, srcs_t=srcs_t, res_t=res_t, stride=stride):
            c0 = e.index(0)
            at = [c0, pos] if extent_of == "cols" else [pos, c0]
            tiles = []
            for v, t in zip(op.ins, srcs_t):
                # a column expansion's broadcast row is the same for every group and PE
                shared = isinstance(op, ExpandOp) and cls.AXIS == "col" and v is op.ins[-1]
                load = TLoadOp(v, [c0, c0] if shared else at, t,
                               pe_stride=(0, 0) if shared else stride)  # fmt: skip
                tiles.append(e(load).results[0])
            tile_op = cls.__new__(cls)
            TeplTileOp.__init__(tile_op, tiles, res_t, mask=res_t.pe_mask)
            r = e(tile_op).results[0]
            return e(TStoreOp(r, cur, at, pe_stride=stride)).results[0]

        acc = emit.for_loop(run.start, run.count, run.step, acc, body)
    Rewriter.replace_op(op, [], [acc])


def lower_transpose(op: TransposeOp, budget: int, npe: int,
                    tile_bytes: int | None = None) -> None:
    """``pto.transpose`` of an ``MxN`` tensor: groups of ``vr`` rows (all N columns) are
    loaded, transposed by TTRANS into ``N x vr`` tiles and stored at column ``r0`` of the
    ``NxM`` result; PE groups by :func:`~passes.lowering.tile_plans.cover` (a bit copy:
    exact whatever the grouping). Tiles take at most ``budget`` bytes, or ``tile_bytes``
    where a row or a column of the result needs more."""

    dt = op.dtype
    x_t, rt = op.source.type, op.result.type
    assert isinstance(x_t, TensorType) and isinstance(rt, TensorType)
    m, n = x_t.get_shape()
    bits = dt.info.carrier_bits
    tile_bytes = _line_budget(budget, tile_bytes or budget, _pow2_ceil(n) * bits // 8)
    c_src = _pow2_ceil(n)
    r_src = tile_bytes * 8 // (c_src * bits)  # rows of a source tile
    c_dst = 1  # widest power-of-two Col whose tile still holds N rows
    while c_dst * 2 <= _pow2_ceil(m) and tile_bytes * 8 // (c_dst * 2 * bits) >= n:
        c_dst *= 2
    if r_src < 1 or tile_bytes * 8 // (c_dst * bits) < n:
        raise PassFailedException(f"pto-tile-to-capacity: '{op.name}': a {m}x{n} transpose needs a "
                                  f"row of {n} elements in one tile of {tile_bytes} B (D14)")  # fmt: skip
    emit = Emitter(InsertPoint.before(op), {}, InsertPoint.before(op))
    acc = empty_tensor(emit, TensorType(rt.element_type, list(rt.get_shape())))
    for run in cover(m, min(r_src, c_dst, m), npe):
        mask, vr = run.mask, run.valid
        src_t = _tile((vr, n), c_src, dt, mask, vr)
        dst_t = _tile((n, vr), _pow2_ceil(vr), dt, mask, n)

        def body(e, pos: SSAValue, cur: SSAValue, src_t=src_t, dst_t=dst_t, stride=run.stride):
            c0 = e.index(0)
            t = e(TLoadOp(op.source, [pos, c0], src_t, pe_stride=(stride, 0))).results[0]
            tr = TTransOp.__new__(TTransOp)
            TeplTileOp.__init__(tr, [t], dst_t, mask=dst_t.pe_mask)
            d = e(tr).results[0]
            return e(TStoreOp(d, cur, [c0, pos], pe_stride=(0, stride))).results[0]

        acc = emit.for_loop(run.start, run.count, run.step, acc, body)
    Rewriter.replace_op(op, [], [acc])


def lower_gather(op: GatherOp, budget: int, npe: int, tile_bytes: int) -> None:
    """``pto.gather`` of an ``MxN`` index from an ``RxC`` table: the whole table is loaded
    into one tile on each PE of a row group (``pe_stride`` 0: every PE reads the same rows),
    groups of ``vr`` index rows are loaded, ``pto.tgather`` picks the table rows, and the
    ``vr x N`` results are stored at row ``r0`` (PE groups by
    :func:`~passes.lowering.tile_plans.cover`; bit copies: exact whatever the grouping).
    A table that does not fit one tile of ``tile_bytes`` is refused: it needs MGATHER."""
    dt, it = op.dtype, op.index_dtype
    t_t, i_t = op.table.type, op.index.type
    assert isinstance(t_t, TensorType) and isinstance(i_t, TensorType)
    r_tab, c_tab = t_t.get_shape()
    m, n = i_t.get_shape()
    bits = max(dt.info.carrier_bits, it.info.carrier_bits)
    col_tab = _pow2_ceil(c_tab)
    if r_tab * col_tab * dt.info.carrier_bits // 8 > tile_bytes:
        raise PassFailedException(f"pto-tile-to-capacity: '{op.name}': a {r_tab}x{c_tab} table "
                                  f"does not fit one tile of {tile_bytes} B: it needs MGATHER")  # fmt: skip
    col = _pow2_ceil(n)
    tb = _line_budget(budget, tile_bytes, col * bits // 8)
    rows = max(1, tb * 8 // (col * bits))
    emit = Emitter(InsertPoint.before(op), {}, InsertPoint.before(op))
    acc = empty_tensor(emit, TensorType(op.result.type.element_type, [m, n]))  # type: ignore[union-attr]
    for run in cover(m, min(rows, m), npe):
        mask, vr = run.mask, run.valid
        tab_t = _tile((r_tab, c_tab), col_tab, dt, mask, r_tab)
        idx_t = _tile((vr, n), col, it, mask, vr)
        dst_t = _tile((vr, n), col, dt, mask, vr)

        def body(e, pos: SSAValue, cur: SSAValue, tab_t=tab_t, idx_t=idx_t, dst_t=dst_t,
                 stride=run.stride):  # fmt: skip
            c0 = e.index(0)
            tab = e(TLoadOp(op.table, [c0, c0], tab_t, pe_stride=(0, 0))).results[0]
            ix = e(TLoadOp(op.index, [pos, c0], idx_t, pe_stride=(stride, 0))).results[0]
            g = TGatherOp.__new__(TGatherOp)
            TeplTileOp.__init__(g, [tab, ix], dst_t, mask=dst_t.pe_mask)
            d = e(g).results[0]
            return e(TStoreOp(d, cur, [pos, c0], pe_stride=(stride, 0))).results[0]

        acc = emit.for_loop(run.start, run.count, run.step, acc, body)
    Rewriter.replace_op(op, [], [acc])


def lower_sort(op: SortOp, budget: int, npe: int, tile_bytes: int) -> None:
    """``pto.sort`` of an ``MxN`` tensor: groups of ``vr`` rows are loaded, ``pto.tsort``
    (sort width N, the direction as its i64 B.IOR parameter) sorts each row, and the values
    are stored back (the U32 index destination is not stored); PE groups by
    :func:`~passes.lowering.tile_plans.cover` (rows are independent: exact whatever the
    grouping)."""
    dt = op.dtype
    t = op.source.type
    assert isinstance(t, TensorType)
    m, n = t.get_shape()
    bits = dt.info.carrier_bits
    col = _pow2_ceil(n)
    tb = _line_budget(budget, tile_bytes, col * 32 // 8)  # the U32 indices: as wide as FP32
    rows = max(1, tb * 8 // (col * max(bits, 32)))
    emit = Emitter(InsertPoint.before(op), {}, InsertPoint.before(op))
    acc = empty_tensor(emit, TensorType(t.element_type, [m, n]))
    desc = emit(arith.ConstantOp(IntegerAttr(int(op.descending), i64))).results[0]
    for run in cover(m, min(rows, m), npe):
        mask, vr = run.mask, run.valid
        src_t = _tile((vr, n), col, dt, mask, vr)
        idx_t = _tile((vr, n), col, TileDataType.U32, mask, src_t.shape[0])

        def body(e, pos: SSAValue, cur: SSAValue, src_t=src_t, idx_t=idx_t, stride=run.stride):
            c0 = e.index(0)
            x = e(TLoadOp(op.source, [pos, c0], src_t, pe_stride=(stride, 0))).results[0]
            srt = TSortOp.__new__(TSortOp)
            TeplTileOp.__init__(srt, [x, desc], [src_t, idx_t], mask=src_t.pe_mask)
            srt.properties["sort_width"] = IntegerAttr(n, 64)
            v = e(srt).results[0]
            return e(TStoreOp(v, cur, [pos, c0], pe_stride=(stride, 0))).results[0]

        acc = emit.for_loop(run.start, run.count, run.step, acc, body)
    Rewriter.replace_op(op, [], [acc])


__all__ = ["lower_gather", "lower_sort", "lower_tensor_local", "lower_transpose"]
