"""``pto-quantize-mx``: quantize constant GEMV / matmul weights to OCP MX (docs/quantization.md).

A contraction whose weight (B, K x N) operand is an ``arith.constant`` -- the way ONNX
initializers arrive after import -- is rewritten into the MX-scaled ``linalg.generic`` that
``convert-linalg-to-pto`` lowers to the MX CUBE functions (TGEMV_MX / TMATMUL_MX, PTO-SPEC 4,
D1, D2): the weight becomes two constants, element codes ``tensor<KxNx f8E4M3FN>`` (or E5M2,
E2M1) and E8M0 scales ``tensor<ceil(K/32)xN x f8E8M0FNU>``, one scale per 32 K elements of
each column (:mod:`pto_dialect.mx_quant`, the algorithm of OCP MX v1.0 section 6.3).

Options: ``format`` -- ``mxfp8`` (= ``E4M3``, default), ``mxfp8_e5m2`` (= ``E5M2``),
``mxfp4`` (= ``E2M1X2``); ``side`` -- ``weights`` (the only side: activations are not
constants, and D2 lets the A side stay FP16/BF16 without a scale).

The activation side must be FP16/BF16 and the result f32 (D2, the CUBE accumulator); other
contractions are left as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float8E8M0FNUType,
    TensorType,
)
from xdsl.dialects.linalg import abstract_ops
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint

from pto_dialect import mx_quant
from pto_dialect.attributes import tile_dtype_of
from pto_dialect.datatypes import MX_BLOCK, MX_UNSCALED_TYPES, TileDataType

QUANTIZABLE = {
    TileDataType.E4M3: builtin.Float8E4M3FNType,
    TileDataType.E5M2: builtin.Float8E5M2Type,
    TileDataType.E2M1X2: builtin.Float4E2M1FNType,
}
"""MX element types with an MLIR builtin type for the code constant (D2's E1M2X2 is a
``!pto.`` type, which dense constants cannot hold; E3M2/E2M3 are not GEMV inputs in D2)."""

SOURCE_TYPES = (TileDataType.FP16, TileDataType.BF16, TileDataType.FP32, TileDataType.FP64)


def _weights(v: SSAValue) -> np.ndarray | None:
    """float64 values of a 2-d float ``arith.constant`` tensor, else None."""
    op = v.owner
    if not isinstance(op, arith.ConstantOp) or not isinstance(
        op.value, DenseIntOrFPElementsAttr
    ):
        return None
    t = op.value.get_type()
    if not isinstance(t, TensorType) or t.get_num_dims() != 2:
        return None
    dt = tile_dtype_of(t.get_element_type())
    if dt not in SOURCE_TYPES:
        return None
    raw = np.frombuffer(op.value.data.data, dtype=np.uint8).view(dt.numpy_dtype())
    shape = tuple(t.get_shape())
    if raw.size == 1:  # a splat
        raw = np.full(shape, raw[0])
    if raw.size != int(np.prod(shape)):
        return None
    return raw.reshape(shape).astype(np.float64)


def _mx_constants(
    w: np.ndarray, t: TileDataType, rewriter: PatternRewriter, before: Operation
) -> tuple[SSAValue, SSAValue]:
    """Insert the code and E8M0 scale constants of ``w`` (K x N, blocks along K)."""
    codes, scales = mx_quant.quantize(w, t, axis=0)
    code_t = TensorType(QUANTIZABLE[t](), codes.shape)
    scale_t = TensorType(Float8E8M0FNUType(), scales.shape)
    c_op = arith.ConstantOp(DenseIntOrFPElementsAttr(code_t, BytesAttr(codes.tobytes())))
    s_op = arith.ConstantOp(DenseIntOrFPElementsAttr(scale_t, BytesAttr(scales.tobytes())))
    rewriter.insert([c_op, s_op], InsertPoint.before(before))
    return c_op.result, s_op.result


def _mx_generic(
    a: SSAValue, codes: SSAValue, scales: SSAValue, init: SSAValue, result: Attribute,
    vec: bool,
) -> linalg.GenericOp:
    """The MX-scaled contraction ``out += extf(a) * (extf(codes) * extf(scale))``.

    ``vec``: the ``(n, k)`` vecmat domain; else ``(m, n, k)``.
    """
    if vec:
        maps = [
            AffineMap.from_callable(lambda n, k: (k,)),
            AffineMap.from_callable(lambda n, k: (k, n)),
            AffineMap.from_callable(lambda n, k: (k // MX_BLOCK, n)),
            AffineMap.from_callable(lambda n, k: (n,)),
        ]
        iters = [IteratorType.PARALLEL, IteratorType.REDUCTION]
    else:
        maps = [
            AffineMap.from_callable(lambda m, n, k: (m, k)),
            AffineMap.from_callable(lambda m, n, k: (k, n)),
            AffineMap.from_callable(lambda m, n, k: (k // MX_BLOCK, n)),
            AffineMap.from_callable(lambda m, n, k: (m, n)),
        ]
        iters = [IteratorType.PARALLEL] * 2 + [IteratorType.REDUCTION]
    elem = lambda v: v.type.get_element_type()  # noqa: E731
    f32 = builtin.f32
    block = Block(arg_types=[elem(a), elem(codes), elem(scales), f32])
    x, c, s, acc = block.args
    ops = [
        ax := arith.ExtFOp(x, f32),
        cx := arith.ExtFOp(c, f32),
        sx := arith.ExtFOp(s, f32),
        bv := arith.MulfOp(cx.result, sx.result),
        p := arith.MulfOp(ax.result, bv.result),
        r := arith.AddfOp(acc, p.result),
        linalg.YieldOp(r.result),
    ]
    block.add_ops(ops)
    return linalg.GenericOp(
        [a, codes, scales],
        [init],
        builtin.Region(block),
        builtin.ArrayAttr([builtin.AffineMapAttr(m) for m in maps]),
        builtin.ArrayAttr([IteratorTypeAttr(i) for i in iters]),
        [result],
    )


@dataclass
class QuantizeNamedContraction(RewritePattern):
    """``linalg.matmul`` / ``linalg.vecmat`` with a constant weight (default maps).

    Matches::

        %w = arith.constant dense<...> : tensor<KxNxf16>
        %r = linalg.matmul ins(%a, %w : tensor<MxKxf16>, tensor<KxNxf16>)
                           outs(%init : tensor<MxNxf32>) -> tensor<MxNxf32>

    (and ``linalg.vecmat`` on ``tensor<Kxf16>``). Produces the MX generic with
    ``ins(%a, %codes, %scales)``, maps ``(m, k)``, ``(k, n)``, ``(k floordiv 32, n)``,
    ``(m, n)`` and body ``addf(acc, mulf(extf(a), mulf(extf(code), extf(scale))))``.
    """

    elem: TileDataType

    NAMES = {"linalg.matmul": False, "linalg.vecmat": True}
    MAPS = {
        False: [AffineMap.from_callable(lambda m, n, k: (m, k)),
                AffineMap.from_callable(lambda m, n, k: (k, n)),
                AffineMap.from_callable(lambda m, n, k: (m, n))],
        True: [AffineMap.from_callable(lambda n, k: (k,)),
               AffineMap.from_callable(lambda n, k: (k, n)),
               AffineMap.from_callable(lambda n, k: (n,))],
    }

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        vec = self.NAMES.get(op.name)
        if vec is None or not isinstance(op, abstract_ops.NamedOperation):
            return
        if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.results) != 1:
            return
        if [m.data for m in op.get_indexing_maps().data] != self.MAPS[vec]:
            return
        a, b = op.inputs
        result = op.results[0].type
        if not isinstance(a.type, TensorType) or not isinstance(result, TensorType):
            return
        if tile_dtype_of(a.type.get_element_type()) not in MX_UNSCALED_TYPES:
            return  # D2: the unscaled side is FP16/BF16
        if tile_dtype_of(result.get_element_type()) is not TileDataType.FP32:
            return
        w = _weights(b)
        if w is None:
            return
        codes, scales = _mx_constants(w, self.elem, rewriter, op)
        rewriter.replace(op, _mx_generic(a, codes, scales, op.outputs[0], result, vec))


@dataclass(frozen=True)
class PtoQuantizeMxPass(ModulePass):
    """Quantize constant contraction weights to MX (module docstring).

    Options: ``format`` (``mxfp8`` | ``mxfp8_e5m2`` | ``mxfp4`` or a PTO type name
    ``E4M3`` | ``E5M2`` | ``E2M1X2``), ``side`` (``weights``).
    """

    name = "pto-quantize-mx"

    format: str = "mxfp8"
    side: str = "weights"

    def element(self) -> TileDataType:
        try:
            t = mx_quant.element_type(self.format)
        except ValueError as e:
            raise ValueError(f"pto-quantize-mx: {e}") from None
        if t not in QUANTIZABLE:
            raise ValueError(
                f"pto-quantize-mx: format '{self.format}' ({t.asm}) cannot be a constant GEMV "
                f"weight: expected one of mxfp8, mxfp8_e5m2, mxfp4 (E4M3, E5M2, E2M1X2; D2)"
            )
        return t

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if self.side != "weights":
            raise ValueError(
                f"pto-quantize-mx: side '{self.side}' is not supported: only 'weights' "
                "(constant B operands) can be quantized ahead of time"
            )
        t = self.element()
        PatternRewriteWalker(
            GreedyRewritePatternApplier([QuantizeNamedContraction(t)], dce_enabled=True)
        ).rewrite_module(op)
