"""Epilogues folded into a ``pto.matmul`` (M > 1), as they are for ``pto.gemv``.

* :class:`FoldBiasIntoMatmul` — an f32 ``addf`` of a per-column bias (``tensor<N>`` mapped
  ``(d1)``, or ``tensor<1xN>`` mapped ``(0, d1)``) to a ``pto.matmul`` result becomes its
  ``bias`` (TMATMUL(_MX)_BIAS on the first K chunk); a full ``MxN`` f32 addend becomes its
  ``acc`` (TMATMUL(_MX)_ACC). The sum is then rounded once instead of twice: within the
  contraction bound (D4, D18), as the GEMV bias fold.
* :class:`FoldReluIntoMatmul` — ReLU (:func:`is_relu_body`) of a ``pto.matmul`` result
  becomes B.FPATR ReluMode 1 on the last chunk (PTO-SPEC 3.3).
* :class:`FoldTruncfIntoMatmul` — ``truncf`` f32 -> f16/bf16 of a ``pto.matmul`` result
  without ``acc`` becomes the product's result type: PreQuantMode 1 / 16 on the last K
  chunk (F322F16 / F322BF16 round to nearest even and overflow to infinity with Sat = 0,
  exactly ``arith.truncf``; PTO-SPEC 3.3, D11). torch-mlir emits this for an f16/bf16
  ``MatMul``.
* :class:`FoldSelectReluIntoGemv` — the compare-and-select spelling of ReLU on a
  ``pto.gemv`` result (the GEMV's ``maximumf`` form is in :mod:`passes.convert_linalg_to_pto`).
* :class:`ReluToTrelu` — a ReLU that folds into no CUBE op: ``pto.map relu`` (TRELU).

ReLU (:func:`is_relu_body`): ``maximumf(x, +0.0)``; ``select(cmpf ugt x, +0.0; x; +0.0)``
(``x > 0`` or unordered: a NaN is kept); ``select(cmpf ole x, +0.0; +0.0; x)``. All three are
NaN for NaN, +0 for every negative value and for -0, x otherwise: what ReluMode 1 and TRELU
compute (NaN payloads aside, which MLIR leaves open). ``cmpf ogt`` + select (NaN -> 0) and
``maxnumf`` are not ReLU and are left.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from passes.lowering.idioms import (
    arg_index,
    bias_add_pairs,
    bias_map_ok,
    body_ops,
    elementwise_generic,
    gemv_input,
    generic_maps,
    is_positive_zero,
    predicate_name,
    refold,
    sole_producer,
    yielded_value,
)
from pto_dialect.attributes import tile_dtype_of
from pto_dialect.datatypes import TileDataType
from pto_dialect.tensor_map import MAP_KINDS, MapOp
from pto_dialect.tensor_ops import GEMV_OUTPUT_TYPES, MatmulOp, floor_mod_dtype

# ======================================================================================
# ReLU bodies
# ======================================================================================

RELU_SELECTS = {
    # predicate of cmpf(x, 0): (value selected when true, when false) as "x" / "0"
    "ugt": ("x", "0"),
    "ole": ("0", "x"),
}
"""``select(cmpf <pred> x, +0; a; b)`` spellings of ReLU (module docstring)."""
_MIRROR = {"ugt": "ult", "ole": "oge"}
"""The same compare with the operands swapped (``cmpf ult 0, x`` is ``x ugt 0``)."""


def is_relu_body(block: Block) -> bool:
    """The body of a one-input generic computes ReLU of its input (module docstring)."""
    y = yielded_value(block)
    ops = body_ops(block)
    if y is None or not ops or y.owner is not ops[-1]:
        return False

    def is_x(v: SSAValue) -> bool:
        return arg_index(v, block) == 0

    if len(ops) == 1 and isinstance(ops[0], arith.MaximumfOp):
        a, b = ops[0].lhs, ops[0].rhs
        return (is_x(a) and is_positive_zero(b)) or (is_x(b) and is_positive_zero(a))
    if len(ops) != 2 or not isinstance(ops[1], arith.SelectOp) or not isinstance(ops[0], arith.CmpfOp):
        return False
    cmp, sel = ops
    if sel.cond is not cmp.result:
        return False
    pred = predicate_name(cmp)
    if is_x(cmp.lhs) and is_positive_zero(cmp.rhs):
        want = RELU_SELECTS.get(pred)
    elif is_x(cmp.rhs) and is_positive_zero(cmp.lhs):
        want = next((RELU_SELECTS[p] for p, m in _MIRROR.items() if m == pred), None)
    else:
        return False
    if want is None:
        return False

    def role(v: SSAValue) -> str | None:
        return "x" if is_x(v) else "0" if is_positive_zero(v) else None

    return (role(sel.lhs), role(sel.rhs)) == want


def _unary_on(op: linalg.GenericOp) -> SSAValue | None:
    """The input of an elementwise one-input generic with identity maps and equal types."""
    if not elementwise_generic(op, 1):
        return None
    maps = generic_maps(op)
    if maps[0] != maps[-1] or op.inputs[0].type != op.results[0].type:
        return None
    return op.inputs[0]


# ======================================================================================
# Matmul epilogues
# ======================================================================================


def matmul_input(v: SSAValue, consumer: Operation) -> MatmulOp | None:
    """The ``pto.matmul`` defining ``v`` if ``consumer`` is its only user."""
    return sole_producer(v, consumer, MatmulOp)


def _refold_matmul(mm: MatmulOp, epilogue: Operation, rewriter: PatternRewriter, **changes) -> None:
    """Replace ``epilogue`` by a copy of ``mm`` with ``changes``."""
    args = dict(a_scale=mm.a_scale, b_scale=mm.b_scale, acc=mm.acc, bias=mm.bias, relu=mm.has_relu)
    result_type = changes.pop("result_type", mm.result.type)
    args.update(changes)
    rewriter.replace(epilogue, MatmulOp(mm.a, mm.b, result_type, **args))
    rewriter.erase(mm)


def matmul_takes_addend(mm: MatmulOp) -> bool:
    """A bias or accumulator can still enter ``mm``: an FP32 result, nothing applied yet."""
    return (
        mm.bias is None and mm.acc is None and not mm.has_relu
        and mm.acc_dtype is TileDataType.FP32 and mm.out_dtype is TileDataType.FP32
    )  # fmt: skip


class FoldBiasIntoMatmul(RewritePattern):
    """``addf`` of an f32 bias (per column) or addend (``MxN``) to a ``pto.matmul`` result.

    Matches::

        %m = pto.matmul %a, %b : (tensor<4x40xf32>, tensor<40x16xf32>) -> tensor<4x16xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                              affine_map<(d0, d1) -> (d1)>,
                                              affine_map<(d0, d1) -> (d0, d1)>], ...}
            ins(%m, %bias : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
        }

    Produces ``pto.matmul %a, %b bias %bias`` (an ``MxN`` addend: ``acc %addend``).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        pairs = bias_add_pairs(op)
        maps = generic_maps(op)
        for mi, bi in pairs:
            mv, addend = op.inputs[mi], op.inputs[bi]
            mm = matmul_input(mv, op)
            if mm is None or mv is addend or not matmul_takes_addend(mm):
                continue
            if maps[mi] != AffineMap.identity(2) or op.results[0].type != mm.result.type:
                continue
            if maps[bi] == AffineMap.identity(2) and addend.type == mm.result.type:
                _refold_matmul(mm, op, rewriter, acc=addend)
                return
            out_t = mm.result.type
            assert isinstance(out_t, TensorType)
            if bias_map_ok(addend.type, maps[bi], out_t):
                _refold_matmul(mm, op, rewriter, bias=addend)
                return


class FoldReluIntoMatmul(RewritePattern):
    """ReLU (:func:`is_relu_body`) of a ``pto.matmul`` result -> ``pto.matmul {relu}``.

    Matches::

        %r = linalg.generic {indexing_maps = [#id, #id], ...} ins(%m : tensor<4x16xf32>) ... {
        ^bb0(%x: f32, %o: f32):
          %c = arith.cmpf ugt, %x, %zero : f32
          %s = arith.select %c, %x, %zero : f32
          linalg.yield %s : f32
        }

    Produces ``pto.matmul ... {relu}`` (ReluMode 1 on the last K chunk; the result may
    already be f16/bf16: ReLU commutes with the RNE conversion, which keeps signs and zeros).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        src = _unary_on(op)
        mm = matmul_input(src, op) if src is not None else None
        if mm is None or mm.has_relu or mm.acc_dtype is not TileDataType.FP32:
            return
        if not is_relu_body(op.body.block):
            return
        _refold_matmul(mm, op, rewriter, relu=True)


class FoldTruncfIntoMatmul(RewritePattern):
    """``truncf`` of an FP32 ``pto.matmul`` result (its only use) to f16/bf16.

    Matches::

        %m = pto.matmul %a, %b : (tensor<MxKxf16>, tensor<KxNxf16>) -> tensor<MxNxf32>
        %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = [...]}
            ins(%m : tensor<MxNxf32>) outs(%e : tensor<MxNxf16>) {
        ^bb0(%x: f32, %o: f16):
          %t = arith.truncf %x : f32 to f16
          linalg.yield %t : f16
        }

    Produces ``pto.matmul %a, %b : (...) -> tensor<MxNxf16>`` (bias and ReLU kept). Not
    matched: an ``acc`` operand (the ACC forms then keep the FP32 accumulator type), other
    users of ``%m``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not elementwise_generic(op, 1):
            return
        maps = generic_maps(op)
        if maps[0] != maps[-1]:
            return
        mm = matmul_input(op.inputs[0], op)
        if mm is None or mm.acc is not None:
            return
        if tile_dtype_of(mm.result.type.element_type) is not TileDataType.FP32:  # type: ignore[union-attr]
            return
        block = op.body.block
        ops = body_ops(block)
        y = yielded_value(block)
        if len(ops) != 1 or y is None or y.owner is not ops[0] or not isinstance(ops[0], arith.TruncFOp):
            return
        if ops[0].attributes or arg_index(ops[0].input, block) != 0:
            return
        out_t = op.results[0].type
        assert isinstance(out_t, TensorType)
        if tile_dtype_of(out_t.element_type) not in GEMV_OUTPUT_TYPES:
            return
        _refold_matmul(mm, op, rewriter, result_type=out_t)


# ======================================================================================
# ReLU elsewhere
# ======================================================================================


class FoldSelectReluIntoGemv(RewritePattern):
    """The compare-and-select ReLU (:func:`is_relu_body`) of a ``pto.gemv`` result ->
    ``pto.gemv {relu}`` (ReluMode 1), as the ``maximumf`` form folds."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        src = _unary_on(op)
        g = gemv_input(src, op) if src is not None else None
        if g is None or g.has_relu or g.acc_dtype is not TileDataType.FP32:
            return
        if not is_relu_body(op.body.block):
            return
        refold(g, op, rewriter, relu=True)


class ReluToTrelu(RewritePattern):
    """A ReLU generic no CUBE op takes -> ``pto.map relu`` (TRELU: negatives and -0 give
    +0, NaN stays NaN; ``interpreter/kernels/unary.py``).

    Matches the bodies of :func:`is_relu_body` on a float tensor whose producer is not a
    ``pto.gemv`` / ``pto.matmul`` that can take it. Produces ``%r = pto.map relu %x``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        src = _unary_on(op)
        if src is None or not is_relu_body(op.body.block):
            return
        if not isinstance(body_ops(op.body.block)[-1], arith.MaximumfOp):
            # select spellings return x itself, NaN payload included (D21); TRELU's NaN is
            # canonical, so only maximumf (whose NaN is free) becomes TRELU; the selects stay
            # for the compare-select rows (TCMP + TSEL keep the bits)
            return
        t = src.type
        assert isinstance(t, TensorType)
        if floor_mod_dtype(t.element_type, None, MAP_KINDS["relu"].TYPES) is None:
            return
        mm, g = matmul_input(src, op), gemv_input(src, op)
        if (mm is not None and not mm.has_relu and mm.acc_dtype is TileDataType.FP32) or (
            g is not None and not g.has_relu and g.acc_dtype is TileDataType.FP32
        ):
            return  # folds into the CUBE op instead (ReluMode 1)
        rewriter.replace(op, MapOp("relu", src))


EPILOGUE_PATTERNS: tuple[type[RewritePattern], ...] = (
    FoldBiasIntoMatmul,
    FoldReluIntoMatmul,
    FoldTruncfIntoMatmul,
    FoldSelectReluIntoGemv,
    ReluToTrelu,
)
