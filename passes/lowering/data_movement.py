"""Data movement (issue 28 item 3): N-D transposes and concatenation as slices and TTRANS.

* :class:`NdTransposeToSlices` — ``linalg.transpose`` with any permutation of a static
  tensor of rank >= 3 (attention's head split and merge ``[0, 2, 1, 3]``, ``K^T`` as
  ``[0, 1, 3, 2]``): the output's last two dimensions come from two input dimensions; each
  such 2-D block is a strided ``tensor.extract_slice`` of the input (a TLOAD with a row
  stride), transposed by ``pto.transpose`` (TTRANS) when the two dimensions are swapped,
  and ``tensor.insert_slice``'d into the output (TSTORE at an offset). One block per index
  of the other dimensions (at most :data:`MAX_BLOCKS`). A bit copy: exact (D18).
* :class:`ConcatToInsertSlices` — ``tensor.concat`` (RoPE's ``rotate_half``): each input
  ``tensor.insert_slice``'d at its offset along the concatenated dimension of a
  ``tensor.empty`` (TSTORE at an offset). Exact.
* :class:`RowGatherToPto` — an embedding lookup (``tensor.extract`` with a data-dependent
  row index in a generic) -> ``pto.gather`` (TGATHER within one tile); a table larger than
  a tile stays (needs MGATHER). Bit copies: exact.
* :class:`ColumnGatherToPto` — a gather along rows (``tensor.extract`` with a
  data-dependent column index, guarded or not by ``cf.assert`` bounds checks) -> TTRANS,
  ``pto.gather``, TTRANS; the guards are subsumed by TGATHER's bounds fault (D21).
* :class:`TopKSortToPto` — ``tm_tensor.sort`` (TopK) of rows of at most 64 f32/f16 values
  whose indices are unused -> ``pto.sort`` (TSORT).

The 2-D ``[1, 0]`` and 3-D ``[0, 2, 1]`` transposes keep their patterns
(:mod:`passes.lowering.transpose`).
"""

from __future__ import annotations

import itertools
import math

from xdsl.dialects import arith, cf, tensor
from xdsl.dialects.builtin import AnyFloat, ArrayAttr, IntegerAttr, IntegerType, TensorType, i64
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from pto_dialect.tensor_local import ExpandOp, GatherOp, SortOp, TransposeOp
from pto_dialect.tensor_ops import floor_mod_dtype
from pto_dialect.tile_local import TRANS_TYPES
from pto_dialect.tile_rearrange import INDEXED_VALUE_TYPES
from pto_dialect.upstream.tm_tensor import SortOp as TmSortOp
from pto_dialect.upstream.tm_tensor import TmYieldOp

MAX_BLOCKS = 256
"""Most 2-D blocks one transpose unrolls into."""


def _trans_type_ok(elt) -> bool:
    return any(floor_mod_dtype(elt, s, TRANS_TYPES) is not None for s in ("signed", None))


def transpose_blocks(perm: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, bool] | None:
    """(number of 2-D blocks, whether each is transposed) of a rank >= 3 permutation, or
    None when it is not one this lowering takes."""
    n = len(perm)
    if n < 3 or sorted(perm) != list(range(n)) or perm in ((0, 2, 1),):
        return None
    rest = [shape[perm[k]] for k in range(n - 2)]
    return math.prod(rest), perm[n - 2] > perm[n - 1]


class NdTransposeToSlices(RewritePattern):
    """An N-D ``linalg.transpose`` (N >= 3) -> per 2-D block ``extract_slice`` (+
    ``pto.transpose``) + ``insert_slice`` (module docstring).

    Matches::

        %t = linalg.transpose ins(%x : tensor<1x8x2x8xf32>) outs(%e : tensor<1x2x8x8xf32>)
                              permutation = [0, 2, 1, 3]

    Produces, for h = 0, 1: ``%b = tensor.extract_slice %x[0, 0, h, 0] [1, 8, 1, 8] [1, 1, 1,
    1] : ... to tensor<8x8xf32>`` and ``tensor.insert_slice %b into %acc[0, h, 0, 0] [1, 1, 8,
    8]``; for ``[0, 1, 3, 2]`` each block goes through ``pto.transpose``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, linalg.TransposeOp) or len(op.inputs) != 1 or len(op.results) != 1:
            return
        src = op.inputs[0]
        t, rt = src.type, op.results[0].type
        if not isinstance(t, TensorType) or not isinstance(rt, TensorType) or not t.has_static_shape():
            return
        perm = tuple(op.permutation.get_values())
        shape = tuple(t.get_shape())
        blocks = transpose_blocks(perm, shape)
        if blocks is None or blocks[0] > MAX_BLOCKS:
            return
        count, swapped = blocks
        elt = t.element_type
        if swapped and not _trans_type_ok(elt):
            return
        n = len(perm)
        a, b = perm[n - 2], perm[n - 1]  # input dims of the output's last two
        bt = TensorType(elt, [shape[min(a, b)], shape[max(a, b)]])
        new: list[Operation] = [tensor.EmptyOp([], rt)]
        cur = new[0].results[0]
        out_shape = tuple(rt.get_shape())
        for idx in itertools.product(*(range(out_shape[k]) for k in range(n - 2))):
            in_off = [0] * n
            in_size = [1] * n
            for k, i in enumerate(idx):
                in_off[perm[k]] = i
            in_size[a], in_size[b] = shape[a], shape[b]
            sl = tensor.ExtractSliceOp(src, in_off, in_size, [1] * n, bt)
            new.append(sl)
            blk = sl.results[0]
            if swapped:
                tr = TransposeOp(blk, TensorType(elt, [shape[a], shape[b]]))
                new.append(tr)
                blk = tr.result
            out_off = [*idx, 0, 0]
            out_size = [1] * (n - 2) + [shape[a], shape[b]]
            ins = tensor.InsertSliceOp.from_static_parameters(blk, cur, out_off, out_size)
            new.append(ins)
            cur = ins.results[0]
        del count
        rewriter.replace(op, new, [cur])


class ConcatToInsertSlices(RewritePattern):
    """``tensor.concat`` of static tensors -> ``insert_slice`` of each input at its offset.

    Matches ``%c = tensor.concat dim(3) %a, %b : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>)
    -> tensor<1x2x8x8xf32>``; produces ``tensor.empty`` and two ``tensor.insert_slice`` (at
    offsets 0 and 4 of dimension 3)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tensor.ConcatOp):
            return
        rt = op.result.type
        if not isinstance(rt, TensorType) or not rt.has_static_shape():
            return
        if not all(isinstance(v.type, TensorType) and v.type.has_static_shape() for v in op.inputs):
            return
        d = op.dim.value.data
        new: list[Operation] = [tensor.EmptyOp([], rt)]
        cur = new[0].results[0]
        off = 0
        for v in op.inputs:
            sh = list(v.type.get_shape())  # type: ignore[union-attr]
            offsets = [0] * len(sh)
            offsets[d] = off
            ins = tensor.InsertSliceOp.from_static_parameters(v, cur, offsets, sh)
            new.append(ins)
            cur = ins.results[0]
            off += sh[d]
        rewriter.replace(op, new, [cur])


GATHER_TILE_BYTES = 65536
"""The largest Local tile (TSize code 10, D14): a table must fit one to be gathered from
by TGATHER; a larger one needs MGATHER from global memory."""


def _row_gather(op: linalg.GenericOp):
    """``(table, ids)`` of ``out[i, j] = table[index_cast(ids[i]), j]`` (2-D output, ids a
    1-D input read by ``(d0, d1) -> (d0)``), else None."""
    if len(op.inputs) != 1 or len(op.outputs) != 1 or len(op.results) != 1:
        return None
    rt = op.results[0].type
    if not isinstance(rt, TensorType) or not rt.has_static_shape() or rt.get_num_dims() != 2:
        return None
    maps = [m.data for m in op.indexing_maps.data]
    if maps[0] != AffineMap(2, 0, (AffineExpr.dimension(0),)) or maps[1] != AffineMap.identity(2):
        return None
    if any(it.data is not IteratorType.PARALLEL for it in op.iterator_types.data):
        return None
    block = op.body.block
    ops = list(block.ops)
    if len(ops) != 4 or not isinstance(ops[-1], linalg.YieldOp):
        return None
    cast, index, extract, y = ops
    if not (isinstance(cast, arith.IndexCastOp) and cast.input is block.args[0]
            and isinstance(index, linalg.IndexOp) and index.dim.value.data == 1
            and isinstance(extract, tensor.ExtractOp) and y.operands[0] is extract.result
            and list(extract.indices) == [cast.result, index.result]):  # fmt: skip
        return None
    table = extract.tensor
    if table.owner is not None and isinstance(table.owner, Operation) and table.owner.parent_block() is block:
        return None
    return table, op.inputs[0]


class RowGatherToPto(RewritePattern):
    """An embedding lookup ``out[i, j] = table[ids[i], j]`` (a ``tensor.extract`` with a
    data-dependent row index in a ``linalg.generic``) -> ``pto.gather`` (TGATHER within one
    tile) with the ids broadcast along the row (``pto.expand row.copy``: TROWEXPAND).

    Matches (torch-mlir's ONNX Gather on axis 0)::

        %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, #id], ...}
            ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xf32>) {
        ^bb0(%in: i64, %out: f32):
          %r = arith.index_cast %in : i64 to index
          %j = linalg.index 1 : index
          %x = tensor.extract %table[%r, %j] : tensor<32x16xf32>
          linalg.yield %x : f32
        }

    Only when the table fits one tile (:data:`GATHER_TILE_BYTES`) and its columns are at
    least the output's; otherwise the generic stays (the reason: needs MGATHER). An index
    that is negative or not below the table's rows faults (TGATHER, TileLegality) where
    upstream's ``tensor.extract`` is undefined: a refinement."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, linalg.GenericOp):
            return
        got = _row_gather(op)
        if got is None:
            return
        table, ids = got
        tt, it, rt = table.type, ids.type, op.results[0].type
        if not (isinstance(tt, TensorType) and tt.has_static_shape() and tt.get_num_dims() == 2):
            return
        assert isinstance(it, TensorType) and isinstance(rt, TensorType)
        elt, ielt = tt.element_type, it.element_type
        if not isinstance(ielt, IntegerType) or ielt.width.data not in (16, 32, 64):
            return
        m, n = rt.get_shape()
        bits = elt.bitwidth if isinstance(elt, IntegerType | AnyFloat) else 0  # type: ignore[union-attr]
        col = 1 << max(0, (tt.get_shape()[1] - 1).bit_length())
        if not bits or tt.get_shape()[0] * col * bits // 8 > GATHER_TILE_BYTES or tt.get_shape()[1] < n:
            return
        if GatherOp._dt(elt, INDEXED_VALUE_TYPES) is None:
            return
        col_ids = tensor.ExpandShapeOp(ids, [], ArrayAttr([ArrayAttr([IntegerAttr(0, i64), IntegerAttr(1, i64)])]),
                                       [m, 1], TensorType(ielt, [m, 1]))  # fmt: skip
        full = ExpandOp("row.copy", [col_ids.results[0]], TensorType(ielt, [m, n]), "signed")
        g = GatherOp(table, full.result, rt)
        rewriter.replace(op, [col_ids, full, g], [g.result])


# cmpi predicate of ``x <pred> k`` (x the gathered index, k a constant) -> whether the
# asserted set {x | x <pred> k} contains every in-bounds index 0 <= x < c; then the
# assertion can fail only on an out-of-bounds index, where TGATHER faults (a table row).
BOUND_CHECKS = {
    "slt": lambda k, c: k >= c, "sle": lambda k, c: k >= c - 1,
    "ult": lambda k, c: k >= c, "ule": lambda k, c: k >= c - 1,
    "sgt": lambda k, c: k <= -1, "sge": lambda k, c: k <= 0,
    "uge": lambda k, c: k == 0, "ne": lambda k, c: not 0 <= k < c,
}
SWAPPED = {"slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle", "ult": "ugt", "ule": "uge",
           "ugt": "ult", "uge": "ule", "eq": "eq", "ne": "ne"}  # fmt: skip
"""``k <pred> x`` is ``x <SWAPPED[pred]> k``."""


def _const_int(v) -> int | None:
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def implied_by_bounds(cond, index_values, c: int) -> bool:
    """Whether ``cf.assert cond`` can fail only where an index in ``index_values`` (the
    same value: a block argument and its ``index_cast``) lies outside ``[0, c)``:
    ``cond`` an ``arith.cmpi`` of the index and a constant with a :data:`BOUND_CHECKS` row
    that holds."""
    if not isinstance(cond, arith.CmpiOp):
        return False
    pred = arith.CMPI_COMPARISON_OPERATIONS[cond.predicate.value.data]
    if cond.lhs in index_values and (k := _const_int(cond.rhs)) is not None:
        pass
    elif cond.rhs in index_values and (k := _const_int(cond.lhs)) is not None:
        pred = SWAPPED[pred]
    else:
        return False
    check = BOUND_CHECKS.get(pred)
    return check is not None and check(k, c)


def _column_gather(op: linalg.GenericOp):
    """``(table, ids)`` of ``out[i, j] = table[i, index_cast(ids[i, j])]`` (2-D output and
    ids, both read by the identity map), the body optionally guarded by ``cf.assert`` on
    bounds checks of the index (:func:`implied_by_bounds`), else None."""
    if len(op.inputs) != 1 or len(op.outputs) != 1 or len(op.results) != 1:
        return None
    rt = op.results[0].type
    if not isinstance(rt, TensorType) or not rt.has_static_shape() or rt.get_num_dims() != 2:
        return None
    if any(m.data != AffineMap.identity(2) for m in op.indexing_maps.data):
        return None
    if any(it.data is not IteratorType.PARALLEL for it in op.iterator_types.data):
        return None
    block = op.body.block
    ops = list(block.ops)
    y = ops[-1]
    if len(ops) < 4 or not isinstance(y, linalg.YieldOp) or len(y.operands) != 1:
        return None
    extract = y.operands[0].owner
    if not isinstance(extract, tensor.ExtractOp) or extract.parent_block() is not block:
        return None
    if len(extract.indices) != 2:
        return None
    row, col = (i.owner for i in extract.indices)
    if not (isinstance(row, linalg.IndexOp) and row.dim.value.data == 0 and row.parent_block() is block):
        return None
    if not (isinstance(col, arith.IndexCastOp) and col.input is block.args[0] and col.parent_block() is block):
        return None
    table = extract.tensor
    tt = table.type
    if not (isinstance(tt, TensorType) and tt.has_static_shape() and tt.get_num_dims() == 2):
        return None
    if isinstance(table.owner, Operation) and table.owner.parent_block() is block:
        return None
    index_values = (block.args[0], col.result)
    guards = [o for o in ops if isinstance(o, cf.AssertOp)]
    for g in guards:
        cond = g.arg.owner
        if not (isinstance(cond, arith.CmpiOp) and cond.parent_block() is block
                and implied_by_bounds(cond, index_values, tt.get_shape()[1])):  # fmt: skip
            return None
    allowed = {row, col, extract, y, *guards, *(g.arg.owner for g in guards)}
    if any(o not in allowed and not isinstance(o, arith.ConstantOp) for o in ops):
        return None
    if any(len(list(r.uses)) != 1 for o in guards for r in o.arg.owner.results):
        return None
    return table, op.inputs[0]


class ColumnGatherToPto(RewritePattern):
    """A gather along rows ``out[i, j] = table[i, ids[i, j]]`` (a ``tensor.extract`` with a
    data-dependent column index: ONNX GatherElements on axis 1, the label's logit of
    SoftmaxCrossEntropyLoss) -> TGATHER on the transposes: ``out^T[j, i] =
    table^T[ids^T[j, i], i]``, i.e. ``pto.transpose`` (TTRANS) of the table and of the ids,
    ``pto.gather``, ``pto.transpose`` of the result. Bit copies: exact (D18).

    Matches (torch-mlir's form)::

        %g = linalg.generic {indexing_maps = [#id, #id], ...}
            ins(%ids : tensor<4x1xi64>) outs(%e : tensor<4x1xf32>) {
        ^bb0(%in: i64, %out: f32):
          %i = linalg.index 0 : index
          %c = arith.index_cast %in : i64 to index
          %lt = arith.cmpi slt, %c, %c8 : index
          cf.assert %lt, "index must be smaller than dim size"
          %ge = arith.cmpi sge, %in, %c0_i64 : i64
          cf.assert %ge, "index must be larger or equal to 0"
          %x = tensor.extract %table[%i, %c] : tensor<4x8xf32>
          linalg.yield %x : f32
        }

    The guards: each ``cf.assert`` must be a bounds check of the index whose asserted set
    holds every in-bounds index (:data:`BOUND_CHECKS`), so it can fail only where the index
    is outside ``[0, columns)``; there TGATHER faults (TileLegality, before any effect):
    the lowered program stops wherever the input's assertion fails; where the index is out
    of bounds and no guard fails, upstream's ``tensor.extract`` is undefined and the fault
    a refinement (D21 "Guards subsumed by a gather's bounds"). Other guards keep the
    generic. Only when the transposed table fits one tile (:data:`GATHER_TILE_BYTES`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, linalg.GenericOp):
            return
        got = _column_gather(op)
        if got is None:
            return
        table, ids = got
        tt, it, rt = table.type, ids.type, op.results[0].type
        assert isinstance(tt, TensorType) and isinstance(it, TensorType) and isinstance(rt, TensorType)
        elt, ielt = tt.element_type, it.element_type
        if not isinstance(ielt, IntegerType) or ielt.width.data not in (16, 32, 64):
            return
        m, n = rt.get_shape()
        r, c = tt.get_shape()
        bits = elt.bitwidth if isinstance(elt, IntegerType | AnyFloat) else 0  # type: ignore[union-attr]
        col = 1 << max(0, (r - 1).bit_length())
        if not bits or c * col * bits // 8 > GATHER_TILE_BYTES or r < m:
            return
        if GatherOp._dt(elt, INDEXED_VALUE_TYPES) is None or elt != rt.element_type:
            return
        t_table = TransposeOp(table, TensorType(elt, [c, r]))
        t_ids = TransposeOp(ids, TensorType(ielt, [n, m]))
        g = GatherOp(t_table.result, t_ids.result, TensorType(elt, [n, m]))
        back = TransposeOp(g.result, rt)
        rewriter.replace(op, [t_table, t_ids, g, back], [back.result])


SORT_ORDER = {"oge": "descending", "ole": "ascending"}
"""Comparators whose stable sort (torch-mlir's bubble sort swaps neighbours only where the
comparator is false, so ties keep their order) is TSORT's in that direction."""


def sort_direction(op: TmSortOp) -> str | None:
    """TSORT's direction for a ``tm_tensor.sort`` comparing its first operand with ``oge`` /
    ``ole`` (``cmpf %a, %b`` of the first pair of block arguments), else None."""
    ops = list(op.region.block.ops)
    args = op.region.block.args
    if len(ops) != 2 or not isinstance(ops[0], arith.CmpfOp) or not isinstance(ops[1], TmYieldOp):
        return None
    c = ops[0]
    pred = arith.CMPF_COMPARISON_OPERATIONS[c.predicate.value.data]
    if c.lhs is not args[0] or c.rhs is not args[1] or list(ops[1].values) != [c.result]:
        return None
    return SORT_ORDER.get(pred)


class TopKSortToPto(RewritePattern):
    """``tm_tensor.sort`` along the last dimension of a 2-D f32/f16 tensor (torch-mlir's
    TopK), rows of at most 64, whose other results (the indices) are unused -> ``pto.sort``
    (TSORT) of the values.

    Matches::

        %s:2 = tm_tensor.sort dimension(1) outs(%v, %iota : tensor<4x16xf32>, tensor<4x16xi64>) {
        ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
          %c = arith.cmpf oge, %a, %b : f32
          tm_tensor.yield %c : i1
        } -> tensor<4x16xf32>, tensor<4x16xi64>

    with ``%s#1`` unused; produces ``%s = pto.sort descending %v``. Stable in both (ties,
    -0 and +0 included, keep their order); a NaN has no place in the comparator's order
    (the interpreter refuses it) and TSORT puts it last: a refinement. A sort whose indices
    are used stays (TSORT's U32 within-row indices would need the iota matched and a TCVT:
    not written)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, TmSortOp) or not op.outputs:
            return
        v = op.outputs[0]
        t = v.type
        if not isinstance(t, TensorType) or not t.has_static_shape() or t.get_num_dims() != 2:
            return
        if op.dimension.value.data != 1 or not 1 <= t.get_shape()[1] <= SortOp.MAX_WIDTH:
            return
        if str(t.element_type) not in ("f32", "f16") or any(r.uses for r in op.res[1:]):
            return
        direction = sort_direction(op)
        if direction is None:
            return
        srt = SortOp(direction, v, t)
        rewriter.replace(op, [srt], [srt.result, *op.outputs[1:]])


DATA_MOVEMENT_PATTERNS: tuple[type[RewritePattern], ...] = (
    NdTransposeToSlices, ConcatToInsertSlices, RowGatherToPto, ColumnGatherToPto, TopKSortToPto,
)  # fmt: skip
