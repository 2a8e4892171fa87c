"""Convolution, pooling and constant padding as forms the other tables already lower.

Normalisations (each rewrites one source form into linalg/tensor ops whose lowering is
already exact; they run first in ``convert-linalg-to-pto``):

* :class:`PadToInsertSlice` — ``tensor.pad`` whose body yields a value independent of the
  indices becomes that value as a splat constant of the padded type (data in global
  memory) with the source inserted at the low offsets (``tensor.insert_slice``, data
  movement). Every element is the same, so the program's meaning is too (D18).
* :class:`ConvToTapMatmuls` — a convolution with an output-channel dimension
  (``conv_1d_*``, ``conv_2d_*``, grouped) becomes, per batch index, per group and per
  filter tap, one 2-D product ``W_tap[F, C] x X_tap[C, P]`` (or ``X_tap[P, C] x
  W_tap[C, F]`` for channel-last layouts) of strided slices, ``P`` the output pixels,
  accumulated in a chain of ``linalg.matmul`` ops whose init is the previous tap's
  result (the first tap's is the convolution's init). The matmul patterns then make each a
  ``pto.matmul`` (TMATMUL / TMATMUL.ACC, any CUBE type pair: f16/bf16 -> f32, f32, i8 ->
  i32). A filter tap in the other orientation is transposed first (``linalg.transpose``,
  TTRANS). The sum over ``(c, kh, kw)`` is then taken tap by tap, each tap's channels in
  the CUBE's order: a reassociation of the upstream sequential sum, which D18 permits for
  contractions (within the profile's contraction bound; exact for integers).
* :class:`WindowToTapChain` — a depthwise convolution or a pooling (sum, max, min) becomes,
  per filter tap, one elementwise ``linalg.generic`` over the whole output: the tap's
  strided input slice (and, depthwise, the tap's per-channel weight, broadcast), the
  running result as the accumulator, and **the op's own body** (cloned). Taps are chained in
  the upstream order (``kh`` then ``kw``), so the result is bit for bit the op's: the same
  operations on the same values in the same order. The elementwise table then lowers each
  (TMUL/TADD, TADD, TMAX + the NaN composition of ``maximumf``).

Static shapes only; anything else is kept (``passes/lowering/explain.py`` says why).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from pto_dialect.tensor_ops import cube_accumulator, cube_dtype_of, result_dtype_of
from pto_dialect.upstream import MatmulOp, WindowOperation, WindowSpec
from pto_dialect.upstream.window_ops import window_spec

__all__ = ["CONVOLUTION_PATTERNS", "ConvToTapMatmuls", "PadToInsertSlice", "WindowToTapChain",
           "window_roles"]


class _Emit:
    """Inserts ops before ``anchor`` through the rewriter; returns the first result."""

    def __init__(self, rewriter: PatternRewriter, anchor: Operation):
        self.rewriter = rewriter
        self.point = InsertPoint.before(anchor)

    def __call__(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, self.point)
        return op.results[0]

    def slice(self, v: SSAValue, offsets, sizes, strides, keep: Sequence[int]) -> SSAValue:
        """``extract_slice`` keeping the dimensions ``keep`` (the others have size 1)."""
        t = v.type
        assert isinstance(t, TensorType)
        rt = TensorType(t.element_type, [sizes[i] for i in keep])
        return self(tensor.ExtractSliceOp(v, list(offsets), list(sizes), list(strides), rt))

    def regroup(self, v: SSAValue, groups: Sequence[Sequence[int]], shape: Sequence[int],
                collapse: bool) -> SSAValue:
        t = v.type
        assert isinstance(t, TensorType)
        rt = TensorType(t.element_type, list(shape))
        if tuple(t.get_shape()) == tuple(shape):
            return v
        if collapse:
            return self(tensor.CollapseShapeOp(operands=[v], result_types=[rt],
                                               properties={"reassociation": reassoc(groups)}))
        return self(tensor.ExpandShapeOp(v, [], reassoc(groups), list(shape), rt))


def reassoc(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    """A ``collapse_shape`` / ``expand_shape`` reassociation attribute."""
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _static(t: Attribute) -> bool:
    return isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape())


# ======================================================================================
# tensor.pad with a constant
# ======================================================================================


def _pad_constant(op: tensor.PadOp) -> Attribute | None:
    """The scalar attribute a pad body yields, if it is an ``arith.constant`` (inside the
    body or outside it)."""
    y = op.region.block.last_op
    if y is None or len(y.operands) != 1:
        return None
    c = y.operands[0].owner
    if not isinstance(c, arith.ConstantOp) or not isinstance(c.value, FloatAttr | IntegerAttr):
        return None
    return c.value


class PadToInsertSlice(RewritePattern):
    """``tensor.pad`` with a constant -> a splat constant with the source inserted.

    Matches::

        %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
        ^bb0(...): tensor.yield %cst : f32
        } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>

    Produces ``%c = arith.constant dense<cst> : tensor<1x4x10x10xf32>`` and
    ``tensor.insert_slice %x into %c[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1]``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.PadOp, rewriter: PatternRewriter) -> None:
        if op.low or op.high or not _static(op.result.type) or not _static(op.source.type):
            return
        value = _pad_constant(op)
        if value is None:
            return
        rt = op.result.type
        assert isinstance(rt, TensorType)
        raw = value.value.data
        emit = _Emit(rewriter, op)
        full = emit(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(rt, [raw]), rt))
        src_shape = op.source.type.get_shape()  # type: ignore[union-attr]
        low = [int(v) for v in op.static_low.get_values()]
        ins = tensor.InsertSliceOp.from_static_parameters(op.source, full, low, list(src_shape))
        rewriter.replace(op, ins)


# ======================================================================================
# The roles of a window op's loop dimensions
# ======================================================================================


def window_roles(spec: WindowSpec) -> dict[str, list[str]]:
    """Each loop dimension's role: ``batch`` (input and output), ``group`` (all three),
    ``out_channel`` (kernel and output), ``in_channel`` (input and kernel: reduced),
    ``spatial`` (output window positions) and ``tap`` (filter positions), in domain order."""
    ins = [t.split("+")[0] for t in spec.input.split()] + [
        t.split("+")[1] for t in spec.input.split() if "+" in t
    ]
    k, o = set(spec.kernel.split()), set(spec.output.split())
    pairs = [t.split("+") for t in spec.input.split() if "+" in t]
    spatial = {p[0] for p in pairs}
    taps = {p[1] for p in pairs}
    roles: dict[str, list[str]] = {r: [] for r in
                                   ("batch", "group", "out_channel", "in_channel", "spatial", "tap")}
    for d in spec.dims:
        if d in spatial:
            roles["spatial"].append(d)
        elif d in taps:
            roles["tap"].append(d)
        elif d in ins and d in k and d in o:
            roles["group"].append(d)
        elif d in ins and d in o:
            roles["batch"].append(d)
        elif d in k and d in o:
            roles["out_channel"].append(d)
        elif d in ins and d in k:
            roles["in_channel"].append(d)
    return roles


def _sizes(op: WindowOperation) -> dict[str, int] | None:
    """Every loop dimension's size, from the kernel and output shapes."""
    spec = op.SPEC
    if not all(_static(v.type) for v in op.operands):
        return None
    sizes: dict[str, int] = {}
    for text, v in ((spec.kernel, op.inputs[1]), (spec.output, op.outputs[0])):
        for d, n in zip(text.split(), v.type.get_shape(), strict=True):  # type: ignore[union-attr]
            sizes[d] = n
    for term, n in zip(spec.input.split(), op.inputs[0].type.get_shape(), strict=True):  # type: ignore[union-attr]
        if "+" not in term:
            sizes.setdefault(term, n)
    return sizes


def _input_slice(emit: _Emit, op: WindowOperation, sizes: dict[str, int], fixed: dict[str, int],
                 keep_dims: set[str]) -> tuple[SSAValue, list[str]]:
    """The input elements one filter tap reads: fixed dims at their index, spatial dims
    strided over the output; returns the slice (rank-reduced to ``keep_dims``, in input
    order) and its dims' names (a spatial dim by its output name)."""
    spec = op.SPEC
    strides, dilations = op.stride_values, op.dilation_values
    offs, szs, sts, names = [], [], [], []
    pair = 0
    for term in spec.input.split():
        if "+" in term:
            o, k = term.split("+")
            offs.append(fixed[k] * dilations[pair])
            szs.append(sizes[o])
            sts.append(strides[pair])
            names.append(o)
            pair += 1
        else:
            offs.append(fixed.get(term, 0))
            szs.append(1 if term in fixed else sizes[term])
            sts.append(1)
            names.append(term)
    keep = [i for i, n in enumerate(names) if n in keep_dims]
    return emit.slice(op.inputs[0], offs, szs, sts, keep), [names[i] for i in keep]


def _dims_slice(emit: _Emit, v: SSAValue, text: str, sizes: dict[str, int],
                fixed: dict[str, int]) -> tuple[SSAValue, list[str]]:
    """A kernel/output slice with ``fixed`` dims at their index (dropped), others whole."""
    names = text.split()
    offs = [fixed.get(n, 0) for n in names]
    szs = [1 if n in fixed else sizes[n] for n in names]
    keep = [i for i, n in enumerate(names) if n not in fixed]
    if not fixed:
        return v, names
    return emit.slice(v, offs, szs, [1] * len(names), keep), [names[i] for i in keep]


def _to_2d(emit: _Emit, v: SSAValue, names: list[str], first: set[str],
           sizes: dict[str, int]) -> SSAValue:
    """Collapse ``v`` (dims ``names``, the ``first`` ones leading) to 2-D."""
    k = sum(n in first for n in names)
    shape = [math.prod(sizes[n] for n in names[:k]), math.prod(sizes[n] for n in names[k:])]
    return emit.regroup(v, _groups_of(names, first), shape, collapse=True)


def _groups_of(names: list[str], first: set[str]) -> list[list[int]]:
    k = sum(n in first for n in names)
    return [list(range(k)), list(range(k, len(names)))]


def _unit_groups(kept: list[str], full: list[str]) -> list[list[int]]:
    """Reassociation from ``kept`` (a subsequence of ``full``) to ``full``: each unit dim
    of ``full`` not in ``kept`` joins its neighbour."""
    groups: list[list[int]] = [[] for _ in kept]
    j = 0
    for i, n in enumerate(full):
        if j < len(kept) and n == kept[j]:
            groups[j].append(i)
            j += 1
        else:
            groups[j - 1 if j == len(kept) else j].append(i)
    return groups


def tap_product_types_ok(op: WindowOperation) -> bool:
    """The input and kernel element types are a CUBE pair whose accumulator is the output's
    (f16/bf16 -> f32, f32, i8 -> i32 ..., PTO-SPEC 1): the pairs ``pto.matmul`` takes."""
    dts = [cube_dtype_of(v.type.get_element_type()) for v in op.inputs]  # type: ignore[union-attr]
    if None in dts:
        return False
    acc = cube_accumulator(dts[0], dts[1], False)  # type: ignore[arg-type]
    return acc is not None and acc is result_dtype_of(op.outputs[0].type.get_element_type())  # type: ignore[union-attr]


def _order(names: list[str], first: set[str]) -> str:
    """``direct`` if ``names`` is the ``first`` dims then the others, ``transposed`` if the
    other way round, else ``none``."""
    split = [n in first for n in names]
    if split == sorted(split, reverse=True):
        return "direct"
    if split == sorted(split):
        return "transposed"
    return "none"


def _oriented(emit: _Emit, v: SSAValue, names: list[str], first: set[str], order: str,
              sizes: dict[str, int]) -> SSAValue:
    """``v`` as a 2-D tensor with the ``first`` dims as rows (transposed if need be: TTRANS)."""
    if order == "direct":
        return _to_2d(emit, v, names, first, sizes)
    two = _to_2d(emit, v, names, set(names) - first, sizes)
    t = two.type
    assert isinstance(t, TensorType)
    m, n = t.get_shape()
    init = emit(tensor.EmptyOp([], TensorType(t.element_type, [n, m])))
    return emit(linalg.TransposeOp(two, init, DenseArrayBase.from_list(i64, [1, 0])))


# ======================================================================================
# Convolution with output channels -> per-tap matmul chains
# ======================================================================================


class ConvToTapMatmuls(RewritePattern):
    """A convolution with an output-channel dimension -> ``linalg.matmul`` per filter tap.

    Matches (any ``conv_*`` row of ``WINDOW_OPS`` with a kernel-and-output dimension)::

        %r = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>}
               ins(%x, %w : tensor<1x4x9x9xf16>, tensor<8x4x3x3xf16>)
               outs(%acc : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>

    Produces, per batch index and group, ``%acc2 = collapse(%acc[b, g]) : [8, 16]`` and per
    tap ``(kh, kw)``: ``%w_t = %w[:, :, kh, kw] : [8, 4]``, ``%x_t = collapse(%x[b, :, kh::2,
    kw::2]) : [4, 16]``, ``%acc2 = linalg.matmul ins(%w_t, %x_t) outs(%acc2)``; then the
    result expanded and inserted at ``[b, g]`` (see the module docstring).
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        spec = window_spec(op)
        if spec is None or spec.kind != "conv":
            return
        assert isinstance(op, WindowOperation)
        roles = window_roles(spec)
        sizes = _sizes(op)
        if len(roles["out_channel"]) != 1 or not roles["in_channel"] or sizes is None:
            return  # depthwise: WindowToTapChain
        if not tap_product_types_ok(op):
            return
        f = roles["out_channel"][0]
        cs = set(roles["in_channel"])
        spatial, taps = set(roles["spatial"]), roles["tap"]
        outer = roles["batch"] + roles["group"]
        out_names = spec.output.split()
        out_t = op.outputs[0].type
        assert isinstance(out_t, TensorType)
        # The output's channel before its pixels: out2d[F, P] = W[F, C] x X[C, P];
        # else out2d[P, F] = X[P, C] x W[C, F].
        f_first = out_names.index(f) < min(out_names.index(s) for s in spatial)
        acc_names = [n for n in out_names if n not in outer]
        w_names = [n for n in spec.kernel.split() if n not in outer and n not in taps]
        x_names = [t.split("+")[0] for t in spec.input.split()]
        x_names = [n for n in x_names if n in cs or n in spatial]
        acc_first, w_first, x_first = ({f}, {f}, cs) if f_first else (spatial, cs, spatial)
        if _order(acc_names, acc_first) != "direct":
            return
        w_order, x_order = _order(w_names, w_first), _order(x_names, x_first)
        if "none" in (w_order, x_order):
            return
        emit = _Emit(rewriter, op)
        result: SSAValue | None = None
        if math.prod(sizes[d] for d in outer) > 1:
            result = emit(tensor.EmptyOp([], out_t))
        for point in itertools.product(*(range(sizes[d]) for d in outer)):
            fixed = dict(zip(outer, point, strict=True))
            acc_slice, _ = _dims_slice(emit, op.outputs[0], spec.output, sizes, fixed)
            acc = _to_2d(emit, acc_slice, acc_names, acc_first, sizes)
            for tap in itertools.product(*(range(sizes[k]) for k in taps)):
                tfix = dict(fixed, **dict(zip(taps, tap, strict=True)))
                kfix = {d: v for d, v in tfix.items() if d in spec.kernel.split()}
                w, _ = _dims_slice(emit, op.inputs[1], spec.kernel, sizes, kfix)
                x, _ = _input_slice(emit, op, sizes, tfix, cs | spatial)
                w2 = _oriented(emit, w, w_names, w_first, w_order, sizes)
                x2 = _oriented(emit, x, x_names, x_first, x_order, sizes)
                a, b = (w2, x2) if f_first else (x2, w2)
                acc = emit(MatmulOp([a, b], [acc]))
            piece = emit.regroup(acc, _groups_of(acc_names, acc_first),
                                 [sizes[n] for n in acc_names], collapse=False)
            if result is None:
                result = emit.regroup(piece, _unit_groups(acc_names, out_names),
                                      list(out_t.get_shape()), collapse=False)
            else:
                offs = [fixed.get(n, 0) for n in out_names]
                szs = [1 if n in fixed else sizes[n] for n in out_names]
                result = emit(tensor.InsertSliceOp.from_static_parameters(piece, result, offs, szs))
        assert result is not None
        rewriter.replace(op, [], [result])


# ======================================================================================
# Depthwise convolution and pooling -> per-tap elementwise chains
# ======================================================================================


def _tap_generic(op: WindowOperation, x: SSAValue, w: SSAValue | None, w_map: AffineMap | None,
                 acc: SSAValue) -> tuple[tensor.EmptyOp, linalg.GenericOp]:
    """``acc' = body(x, w, acc)`` elementwise over the output, the body cloned from ``op``."""
    out_t = acc.type
    assert isinstance(out_t, TensorType)
    rank = len(out_t.get_shape())
    ident = AffineMap.identity(rank)
    src = op.body.block
    ins = [x] + ([w] if w is not None else []) + [acc]
    maps = [ident] + ([w_map] if w_map is not None else []) + [ident, ident]
    arg_types = [v.type.get_element_type() for v in ins] + [out_t.element_type]  # type: ignore[union-attr]
    block = Block(arg_types=arg_types)
    mapping = {src.args[0]: block.args[0], src.args[2]: block.args[len(ins) - 1]}
    if w is not None:
        mapping[src.args[1]] = block.args[1]
    for o in src.ops:
        block.add_op(o.clone(value_mapper=mapping))
    empty = tensor.EmptyOp([], out_t)
    return empty, linalg.GenericOp(
        ins, [empty.tensor], Region(block), ArrayAttr([AffineMapAttr(m) for m in maps]),
        ArrayAttr([IteratorTypeAttr.parallel()] * rank), [out_t],
    )


def _broadcast_map(out_names: list[str], varying: set[str], sizes: dict[str, int]) -> AffineMap:
    """The map of an input of the output's rank that varies along ``varying`` only (unit
    elsewhere): the varying dims and the unit dims next to them as one leading (or
    trailing) block of loop dims, constant 0 elsewhere."""
    pos = [i for i, n in enumerate(out_names) if n in varying]
    free = [n in varying or sizes[n] == 1 for n in out_names]
    if all(free[: max(pos) + 1]):
        used = set(range(max(pos) + 1))
    elif all(free[min(pos):]):
        used = set(range(min(pos), len(out_names)))
    else:
        used = set(pos)
    return AffineMap(len(out_names), 0, tuple(
        AffineDimExpr(i) if i in used else AffineConstantExpr(0) for i in range(len(out_names))))


class WindowToTapChain(RewritePattern):
    """A depthwise convolution or a pooling -> one elementwise generic per filter tap.

    Matches ``linalg.depthwise_conv_*`` and ``linalg.pooling_*`` rows of ``WINDOW_OPS``::

        %r = linalg.pooling_nchw_max {strides = dense<2> : vector<2xi64>}
               ins(%x, %win : tensor<1x4x8x8xf32>, tensor<2x2xf32>)
               outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>

    Produces, per tap ``(kh, kw)`` in order: ``%x_t = %x[0, 0, kh, kw][1, 4, 4, 4][1, 1,
    2, 2]`` and ``%acc = linalg.generic ins(%x_t, %acc)`` with the op's body (depthwise:
    also ``%w[:, kh, kw]`` broadcast along the channel dimension).
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        spec = window_spec(op)
        if spec is None:
            return
        assert isinstance(op, WindowOperation)
        roles = window_roles(spec)
        if spec.kind == "conv" and (roles["out_channel"] or roles["in_channel"]):
            return  # a contraction over channels: ConvToTapMatmuls
        sizes = _sizes(op)
        if sizes is None:
            return
        out_names = spec.output.split()
        in_names = [t.split("+")[0] for t in spec.input.split()]
        if in_names != out_names:
            return
        emit = _Emit(rewriter, op)
        acc = op.outputs[0]
        taps = roles["tap"]
        for tap in itertools.product(*(range(sizes[k]) for k in taps)):
            tfix = dict(zip(taps, tap, strict=True))
            x, _ = _input_slice(emit, op, sizes, tfix, set(out_names))
            w = w_map = None
            if spec.kind == "conv":
                w, w_names = _dims_slice(emit, op.inputs[1], spec.kernel, sizes, tfix)
                # As the output's rank, unit dims where it is broadcast (the form the
                # elementwise table reads: ``(d0, d1, 0, 0)`` like a BatchNorm scale).
                shape = [sizes[n] if n in w_names else 1 for n in out_names]
                w = emit.regroup(w, _unit_groups(w_names, out_names), shape, collapse=False)
                w_map = _broadcast_map(out_names, set(w_names), sizes)
            empty, g = _tap_generic(op, x, w, w_map, acc)
            emit(empty)
            acc = emit(g)
        rewriter.replace(op, [], [acc])


def _pooling_groups(pix: list[int], shape: list[int]) -> tuple[list[list[int]], list[str]]:
    """Collapse groups of a pooling input: the dims before the pixels, the pixels, the dims
    after them; a group of size 1 other than the pixels joins its neighbour."""
    lead = list(range(pix[0]))
    trail = list(range(pix[-1] + 1, len(shape)))
    groups: list[list[int]] = []
    kinds: list[str] = []
    if lead and math.prod(shape[i] for i in lead) != 1:
        groups.append(lead)
        kinds.append("lead")
        lead = []
    groups.append(lead + pix)
    kinds.append("pix")
    if trail and math.prod(shape[i] for i in trail) != 1:
        groups.append(trail)
        kinds.append("trail")
    else:
        groups[-1] += trail
    return groups, kinds


class GlobalPoolingToReduction(RewritePattern):
    """A pooling whose window is the whole spatial extent -> one ``linalg.generic``
    reduction over the collapsed pixels, with the op's body.

    Matches (output pixels all 1, window = input pixels, init a ``linalg.fill``)::

        %r = linalg.pooling_nchw_sum ins(%x, %win : tensor<1x8x7x7xf32>, tensor<7x7xf32>)
               outs(%z : tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>

    Produces ``collapse(%x) : [8, 49]`` reduced along its pixels into a fill of the same
    value (``[8]``), expanded back: the reduction table's TROWSUM / TROWMAX (+ the NaN
    composition of ``maximumf``) / TCOLSUM (channel-last). The fold visits the pixels in the
    upstream order (``kh`` then ``kw``) from the same init, so the result is the op's.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        spec = window_spec(op)
        if spec is None or spec.kind == "conv":
            return
        assert isinstance(op, WindowOperation)
        sizes = _sizes(op)
        roles = window_roles(spec)
        fill = op.outputs[0].owner
        if sizes is None or not isinstance(fill, linalg.FillOp) or len(fill.inputs) != 1:
            return
        if any(sizes[o] != 1 for o in roles["spatial"]) or any(d != 1 for d in op.dilation_values):
            return
        in_t = op.inputs[0].type
        assert isinstance(in_t, TensorType)
        in_names = [t.split("+")[0] for t in spec.input.split()]
        pix = [i for i, n in enumerate(in_names) if n in roles["spatial"]]
        if [in_t.get_shape()[i] for i in pix] != [sizes[k] for k in roles["tap"]]:
            return  # the window does not cover the input exactly
        if pix != list(range(pix[0], pix[-1] + 1)):
            return
        shape = list(in_t.get_shape())
        groups, kinds = _pooling_groups(pix, shape)
        if len(groups) < 2:
            return  # everything reduced: a 0-d result
        red_pos = kinds.index("pix")
        keep = [math.prod(shape[i] for i in g) for g in groups]
        emit = _Emit(rewriter, op)
        x = emit.regroup(op.inputs[0], groups, keep, collapse=True)
        out_shape = [n for i, n in enumerate(keep) if i != red_pos]
        out_t = op.outputs[0].type
        assert isinstance(out_t, TensorType)
        rt = TensorType(out_t.element_type, out_shape)
        empty = emit(tensor.EmptyOp([], rt))
        init = emit(linalg.FillOp([fill.inputs[0]], [empty], [rt]))
        rank = len(groups)
        in_map = AffineMap.identity(rank)
        out_map = AffineMap(rank, 0, tuple(AffineDimExpr(i) for i in range(rank) if i != red_pos))
        src = op.body.block
        block = Block(arg_types=[in_t.element_type, out_t.element_type])
        mapping = {src.args[0]: block.args[0], src.args[2]: block.args[1]}
        for o in src.ops:
            block.add_op(o.clone(value_mapper=mapping))
        its = [IteratorTypeAttr.reduction() if i == red_pos else IteratorTypeAttr.parallel()
               for i in range(rank)]
        red = emit(linalg.GenericOp([x], [init], Region(block),
                                    ArrayAttr([AffineMapAttr(in_map), AffineMapAttr(out_map)]),
                                    ArrayAttr(its), [rt]))
        # back to the output's shape: the pixel dims (all 1) join a neighbouring group
        groups_out = [list(g) for i, g in enumerate(groups) if i != red_pos]
        if red_pos > 0:
            groups_out[red_pos - 1] += groups[red_pos]
        else:
            groups_out[0] = groups[red_pos] + groups_out[0]
        result = emit.regroup(red, groups_out, list(out_t.get_shape()), collapse=False)
        rewriter.replace(op, [], [result])


CONVOLUTION_PATTERNS: list[type[RewritePattern]] = [
    PadToInsertSlice, ConvToTapMatmuls, GlobalPoolingToReduction, WindowToTapChain,
]
"""The normalisations of this module, in the order tried."""
