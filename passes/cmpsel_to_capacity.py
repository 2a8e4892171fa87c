"""Tiling of ``pto.cmpsel`` (compare then select on tensors) for ``pto-tile-to-capacity``.

One tile loop per cover run (the ``plan_trem`` cover of the wider of the compared and the
selected element types): ``tload`` a (and b), ``pto.tcmp`` / ``pto.tcmps`` -> a ``!pto.pred``,
``tload`` t (and f), ``pto.tsel`` / ``pto.tsels``, ``tstore``. Every tile of one step shares
the physical ``Rows x Col`` and the valid shape (``TileLogicalShapeMatch``): Rows is the
larger of the two types' minimal row-major Rows, each type's TSize follows from it (D14), and
the predicate takes the smallest legal size (``docs/predicates.md``).
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import TensorType
from xdsl.rewriter import InsertPoint, Rewriter

from passes.lowering.emitter import Emitter, empty_tensor, reshape
from passes.lowering.tile_plans import plan_trem, row_major_tile
from pto_dialect.attributes import PadValue, TileType
from pto_dialect.compare_ops import CompareMode, TCmpOp, TCmpsOp, TSelOp, TSelsOp
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.predicate import PredicateTileType
from pto_dialect.tensor_compare import CmpSelOp


def _tiles(valid: int, cols: int, types: list[TileDataType], pe: str):
    """Row-major tiles of ``types`` and their predicate, all with the same physical shape."""

    rows = max(row_major_tile((valid, cols), t, pe, col=cols).shape[0] for t in types)
    tiles = [TileType((rows, cols), t, valid=(valid, cols),
                      size=rows * cols * t.info.carrier_bits // 8, pe=pe) for t in types]  # fmt: skip
    return tiles, PredicateTileType((rows, cols), valid=(valid, cols), pe=pe)


def lower_cmpsel(op: CmpSelOp, tile_bytes: int, npe: int) -> None:
    """``pto.cmpsel`` -> tload / TCMP(S) / TSEL(S) / tstore over the elementwise cover."""

    t = op.result.type
    assert isinstance(t, TensorType)
    ct, dt = op.compare_dtype, op.data_dtype
    wide = max((ct, dt), key=lambda x: x.info.carrier_bits)
    plan = plan_trem(math.prod(t.get_shape()), wide, tile_bytes, npe)
    emit = Emitter(InsertPoint.before(op), {}, InsertPoint.before(op))
    view = (plan.rows, plan.cols)
    a, tv = reshape(emit, op.lhs, view), reshape(emit, op.on_true, view)
    b = op.rhs if op.scalar_rhs else reshape(emit, op.rhs, view)
    f = op.on_false if op.scalar_false else reshape(emit, op.on_false, view)
    acc = empty_tensor(emit, TensorType(t.element_type, list(view)))
    mode = CompareMode(op.mode.data)
    for run in plan.runs:
        (ctile, dtile), ptile = _tiles(run.valid, plan.cols, [ct, dt], run.mask)
        stride = (run.stride, 0)

        def body(e, row, cur, ctile=ctile, dtile=dtile, ptile=ptile, stride=stride):
            c0 = e.index(0)

            def load(src, tile):
                return e(TLoadOp(src, [row, c0], tile, pe_stride=stride)).results[0]

            ta = load(a, ctile)
            if op.scalar_rhs:
                p = e(TCmpsOp([ta, b], ptile, cmode=mode, mask=ctile.pe_mask)).results[0]
            else:
                p = e(TCmpOp([ta, load(b, ctile)], ptile, cmode=mode, mask=ctile.pe_mask)).results[0]
            tt = load(tv, dtile)
            other = f if op.scalar_false else load(f, dtile)
            sel = TSelsOp if op.scalar_false else TSelOp
            r = e(sel([p, tt, other], dtile, pad=PadValue.NULL, mask=dtile.pe_mask)).results[0]
            return e(TStoreOp(r, cur, [row, c0], pe_stride=stride)).results[0]

        acc = emit.for_loop(run.start, run.count, run.step, acc, body)
    Rewriter.replace_op(op, [], [reshape(emit, acc, t.get_shape())])
