"""``pto-tile-to-capacity`` for the tensor-level ``pto.convert`` (TCVT on whole tensors,
``pto_dialect/tensor_convert.py``): pto.tload / pto.tcvt / pto.tstore over the elementwise
cover of :func:`~passes.lowering.tile_plans.plan_trem`. Part of the ``pto-tile-to-capacity``
pass (its ``apply`` calls :func:`lower_convert`).

TCVT needs equal physical shapes for its source and destination (``TileOperandsLegal_TCVT``)
while each tile's Rows follow from its own TSize (D14): the cover is planned with the WIDER
element type, and every tile's Rows is a power of two at least the run's valid rows and
large enough that the narrower type's tile still has a legal TSize (>= 128 B). Each element
is converted once by the same instruction, so the lowered program is bit-identical to the
tensor-level op.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from passes.lowering.emitter import Emitter, empty_tensor, reshape
from passes.lowering.tile_plans import plan_trem
from pto_dialect.attributes import RoundingMode, TileType
from pto_dialect.convert_ops import TCvtOp
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.geometry import CELL_BYTES
from pto_dialect.tensor_convert import ConvertOp


def _pow2_ceil(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def pair_tiles(valid_rows: int, cols: int, src: TileDataType, dst: TileDataType,
               pe: str) -> tuple[TileType, TileType]:
    """Source and destination row-major tiles of equal (Rows, Col) holding ``valid_rows``."""
    narrow = min(src.info.carrier_bits, dst.info.carrier_bits)
    rows = _pow2_ceil(max(valid_rows, -(-CELL_BYTES * 8 // (cols * narrow))))
    def tile(dt: TileDataType) -> TileType:
        return TileType((rows, cols), dt, valid=(valid_rows, cols),
                        size=rows * cols * dt.info.carrier_bits // 8, pe=pe)  # fmt: skip
    return tile(src), tile(dst)


def lower_convert(op: ConvertOp, tile_bytes: int, npe: int) -> None:
    """``pto.convert`` -> tload / TCVT / tstore (module docstring)."""

    t = op.result.type
    assert isinstance(t, TensorType)
    src, dst = op.dtype, op.result_dtype
    wide = src if src.info.carrier_bits >= dst.info.carrier_bits else dst
    plan = plan_trem(math.prod(t.get_shape()), wide, tile_bytes, npe)
    consts: dict[int, SSAValue] = {}
    emit = Emitter(InsertPoint.before(op), consts, InsertPoint.before(op))
    view = (plan.rows, plan.cols)
    a = reshape(emit, op.source, view)
    acc = empty_tensor(emit, TensorType(t.element_type, list(view)))
    rmode = op.rmode.data if op.rmode.data is not None else RoundingMode.DEFAULT
    sat = op.sat is not None
    for run in plan.runs:
        ts, td = pair_tiles(run.valid, plan.cols, src, dst, run.mask)
        if ts.capacity > tile_bytes and td.capacity > tile_bytes:
            raise PassFailedException(
                f"pto-tile-to-capacity: a {src.asm} -> {dst.asm} pto.convert row of {plan.cols} "
                f"elements does not fit tile-bytes={tile_bytes}"
            )
        stride = (run.stride, 0)

        def body(e: Emitter, row: SSAValue, cur: SSAValue, ts=ts, td=td, stride=stride):
            c0 = e.index(0)
            ta = e(TLoadOp(a, [row, c0], ts, pe_stride=stride)).results[0]
            tr = e(TCvtOp(ta, td, rmode=rmode, sat=sat, mask=ts.pe_mask)).results[0]
            return e(TStoreOp(tr, cur, [row, c0], pe_stride=stride)).results[0]

        acc = emit.for_loop(run.start, run.count, run.step, acc, body)
    res = reshape(emit, acc, t.get_shape())
    Rewriter.replace_op(op, [], [res])
