"""``convert-linalg-to-pto``: recognise linalg computations PTO can run, as tensor-level ops.

One pattern class per input form; each docstring shows the IR it matches. Every pattern is
exact about meaning: an op that does not mean what ``pto.gemv`` / ``pto.floor_mod`` mean
(another predicate, another type, a truncating remainder, f32 x f32 inputs ...) is left as
it was. The tiling to capacity is a separate pass (``pto-tile-to-capacity``).

GEMV (PTO-SPEC 4, D1-D3): ``linalg.matmul`` with M = 1, ``linalg.vecmat``, their
``linalg.generic`` spelling, and the MX-scaled generic; then the epilogue patterns fold a
bias add, ReLU (``maximumf(x, 0)``) and an ``f32 -> f16/bf16`` truncation into the op,
which is what TGEMV_MX_BIAS's bias operand, ReluMode 1 and PreQuantMode 1/16 do
(PTO-SPEC 3.3). On target ``a2a3`` only FP16/BF16 products are recognised (D15: no MX CUBE
functions).

Floor modulo (PTO-SPEC 5, D6-D8): an all-parallel, identity-mapped ``linalg.generic`` whose
body is the floor-mod idiom (signed integers and floats) or a plain ``arith.remui``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.dialects.linalg import abstract_ops
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from passes.lowering.approximate import ExpandApproximation
from passes.lowering.contraction import BatchMatmulToLoop
from passes.lowering.convolution import CONVOLUTION_PATTERNS
from passes.lowering.elementwise import ELEMENTWISE_TREE_PATTERNS
from passes.lowering.epilogues import EPILOGUE_PATTERNS
from passes.lowering.expand import EXPAND_PATTERNS
from passes.lowering.fusion import fuse_elementwise
from passes.lowering.idioms import (
    ELEMENTWISE_BODIES,
    SIGNED_IDIOM,
    arg_index,
    bias_add_pairs,
    bias_map_ok,
    body_ops,
    can_take_bias,
    elementwise_generic,
    float_idiom,
    gemv_input,
    generic_maps,
    is_positive_zero,
    iterator_types,
    match_elementwise_body,
    match_floor_mod_body,
    owner_of,
    refold,
    static_tensor,
    target_of,
    yielded_value,
)
from passes.lowering.integer_contraction import INTEGER_CONTRACTION_PATTERNS
from passes.lowering.normalise import NORMALISE_PATTERNS, SplatOperandToFullConstant
from passes.lowering.reductions import REDUCTION_PATTERNS
from passes.lowering.transpose import TRANSPOSE_PATTERNS
from pto_dialect.attributes import TargetProfile, tile_dtype_of
from pto_dialect.datatypes import (
    MX_BLOCK,
    MX_INPUT_TYPES,
    MX_UNSCALED_TYPES,
    TileDataType,
    mx_needs_scale,
)
from pto_dialect.tensor_ops import (
    ELEMENTWISE_TYPES,
    GEMV_OUTPUT_TYPES,
    ElementwiseOp,
    FloorModOp,
    GemvOp,
    MatmulOp,
    cube_accumulator,
    cube_dtype_of,
    floor_mod_dtype,
    mx_dtype_of,
    result_dtype_of,
)

# ======================================================================================
# Small IR helpers
# ======================================================================================


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _pair(a: SSAValue, b: SSAValue, fa: Callable, fb: Callable):
    """Match a commutative pair: ``(fa(a), fb(b))`` or ``(fa(b), fb(a))``; None if neither."""
    for x, y in ((a, b), (b, a)):
        ra, rb = fa(x), fb(y)
        if ra is not None and rb is not None:
            return ra, rb
    return None


# ======================================================================================
# GEMV: contraction analysis
# ======================================================================================


@dataclass
class Contraction:
    """A recognised ``out[n] (+)= sum_k A'[k] * B'[k, n]`` with ``A' = a * a_scale``..."""

    a: SSAValue
    b: SSAValue
    a_scale: SSAValue | None
    b_scale: SSAValue | None
    init: SSAValue
    result_type: TensorType


def _init_bias(init: SSAValue) -> SSAValue | None:
    """The bias a contraction's init amounts to: None for zeros, else the init itself.

    Zeros are a ``linalg.fill`` of ``+0.0`` or a ``+0.0`` splat constant (a ``-0.0`` init is
    kept as a bias tensor: it is not the zero bias's sign, D4).
    """
    fill = owner_of(init, linalg.FillOp)
    if fill is not None and len(fill.inputs) == 1 and is_positive_zero(fill.inputs[0]):
        return None
    if is_positive_zero(init):
        return None
    return init


def _gemv_types_ok(c: Contraction) -> bool:
    """An MX pair with a scale exactly on the non-FP16/BF16 sides and D1 scale shapes (D2),
    or an ordinary pair of one class with no scales (FP32 x FP32, S8/S16 -> S32 ...,
    PTO-SPEC 1); the result the accumulator's type (FP32 or S32/U32) and the init's."""
    a_t, b_t = c.a.type, c.b.type
    assert isinstance(a_t, TensorType) and isinstance(b_t, TensorType)
    k, n = b_t.get_shape()
    nb = _ceil(k, MX_BLOCK)
    m = a_t.get_shape()[0]
    dts = [cube_dtype_of(v.type.element_type) for v in (c.a, c.b)]  # type: ignore[union-attr]
    if None in dts:
        return False
    scaled = c.a_scale is not None or c.b_scale is not None
    acc = cube_accumulator(dts[0], dts[1], scaled)  # type: ignore[arg-type]
    if acc is None:
        return False
    if acc is TileDataType.FP32 and all(d in MX_INPUT_TYPES for d in dts):
        for val, scale, scale_shapes in (
            (c.a, c.a_scale, ((nb,),) if a_t.get_num_dims() == 1 else ((m, nb),)),
            (c.b, c.b_scale, ((nb, n),)),
        ):
            dt = mx_dtype_of(val.type.element_type)  # type: ignore[union-attr]
            if dt is None or mx_needs_scale(dt) != (scale is not None):
                return False
            if scale is not None:
                st = static_tensor(scale.type)
                if st is None or tile_dtype_of(st.element_type) is not TileDataType.E8M0:
                    return False
                if tuple(st.get_shape()) not in scale_shapes:
                    return False
    elif scaled:
        return False
    r = c.result_type
    if result_dtype_of(r.element_type) is not acc:
        return False
    if c.init.type != r:
        return False
    return True


def _make_gemv(c: Contraction, op: Operation, rewriter: PatternRewriter) -> None:
    bias = _init_bias(c.init)
    if bias is not None and result_dtype_of(c.result_type.element_type) is not TileDataType.FP32:
        # An integer accumulator takes no bias (D3): accumulate the init through the ACC
        # form of TMATMUL (M = 1) instead; a 1-D vecmat has no such spelling and stays.
        if c.a.type.get_num_dims() == 2:  # type: ignore[union-attr]
            rewriter.replace(op, MatmulOp(c.a, c.b, c.result_type, acc=bias))
        return
    gemv = GemvOp(
        c.a, c.b, c.result_type, a_scale=c.a_scale, b_scale=c.b_scale, bias=bias
    )
    rewriter.replace(op, gemv)


def _named_contraction(op: abstract_ops.NamedOperation, default_maps: Sequence[AffineMap]):
    if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.results) != 1:
        return None
    maps = [m.data for m in op.get_indexing_maps().data]
    if list(maps) != list(default_maps):
        return None  # transposed / broadcast variants (upstream ``indexing_maps``)
    a, b = op.inputs
    init = op.outputs[0]
    r = static_tensor(op.results[0].type)
    if r is None or static_tensor(a.type) is None or static_tensor(b.type) is None:
        return None
    return Contraction(a, b, None, None, init, r)


class MatmulM1ToGemv(RewritePattern):
    """``linalg.matmul`` with M = 1 on FP16/BF16 inputs and an FP32 output (PTO-SPEC 4, D2).

    Matches::

        %r = linalg.matmul ins(%a, %b : tensor<1xKxf16>, tensor<KxNxf16>)
                           outs(%init : tensor<1xNxf32>) -> tensor<1xNxf32>

    ``%init`` is a ``linalg.fill`` of ``+0.0`` (no bias) or any f32 tensor (accumulated into:
    the bias). Produces ``pto.gemv %a, %b [bias %init] : ... -> tensor<1xNxf32>``.
    Not matched: M != 1, f32 (or any non-MX) inputs, transposed ``indexing_maps``.
    """

    MAPS = (
        AffineMap.from_callable(lambda m, n, k: (m, k)),
        AffineMap.from_callable(lambda m, n, k: (k, n)),
        AffineMap.from_callable(lambda m, n, k: (m, n)),
    )

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.MatmulOp, rewriter: PatternRewriter) -> None:
        c = _named_contraction(op, self.MAPS)
        if c is None:
            return
        a_shape = c.a.type.get_shape()  # type: ignore[union-attr]
        if a_shape[0] != 1:
            return
        if not self._unscaled(c) or not _gemv_types_ok(c):
            return
        _make_gemv(c, op, rewriter)

    @staticmethod
    def _unscaled(c: Contraction) -> bool:
        """Neither side needs an E8M0 scale: FP16/BF16 (D2) or an ordinary CUBE type."""
        dts = [cube_dtype_of(v.type.element_type) for v in (c.a, c.b)]  # type: ignore[union-attr]
        return all(d is not None and (d in MX_UNSCALED_TYPES or d not in MX_INPUT_TYPES) for d in dts)


class VecmatToGemv(RewritePattern):
    """``linalg.vecmat`` on FP16/BF16 inputs and an FP32 output (PTO-SPEC 4, D2).

    Matches::

        %r = linalg.vecmat ins(%a, %b : tensor<Kxbf16>, tensor<KxNxbf16>)
                           outs(%init : tensor<Nxf32>) -> tensor<Nxf32>

    Produces ``pto.gemv %a, %b [bias %init] : ... -> tensor<Nxf32>``.
    """

    MAPS = (
        AffineMap.from_callable(lambda n, k: (k,)),
        AffineMap.from_callable(lambda n, k: (k, n)),
        AffineMap.from_callable(lambda n, k: (n,)),
    )

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "linalg.vecmat" or not isinstance(op, abstract_ops.NamedOperation):
            return
        c = _named_contraction(op, self.MAPS)
        if c is None or not MatmulM1ToGemv._unscaled(c) or not _gemv_types_ok(c):
            return
        _make_gemv(c, op, rewriter)


def _term(v: SSAValue, block: Block) -> tuple[int, int | None] | None:
    """One side of the product: ``extf(elem)`` or ``mulf(extf(elem), extf(scale))``.

    Returns (element block-arg index, scale block-arg index or None).
    """

    def ext_arg(x: SSAValue) -> int | None:
        e = owner_of(x, arith.ExtFOp)
        if e is None or not isinstance(e.result.type, builtin.Float32Type):
            return None
        return arg_index(e.input, block)

    idx = ext_arg(v)
    if idx is not None:
        return (idx, None)
    mul = owner_of(v, arith.MulfOp)
    if mul is None:
        return None

    def is_scale(x: SSAValue) -> int | None:
        i = ext_arg(x)
        if i is None or not isinstance(block.args[i].type, builtin.Float8E8M0FNUType):
            return None
        return i

    def is_elem(x: SSAValue) -> int | None:
        i = ext_arg(x)
        if i is None or isinstance(block.args[i].type, builtin.Float8E8M0FNUType):
            return None
        return i

    pair = _pair(mul.lhs, mul.rhs, is_elem, is_scale)
    return pair  # (elem, scale) or None


def analyze_generic_gemv(op: linalg.GenericOp, allow_m: bool = False) -> Contraction | None:
    """Recognise a vecmat-shaped ``linalg.generic`` (optionally MX-scaled).

    Domains: ``(n, k)`` with maps A ``(k)``, B ``(k, n)``, out ``(n)``; or ``(m, n, k)`` with
    M = 1 and maps A ``(m, k)``, B ``(k, n)``, out ``(m, n)``. Scales, when present, are
    indexed with ``k floordiv 32`` (D1): ``(k floordiv 32)`` / ``(m, k floordiv 32)`` and
    ``(k floordiv 32, n)``. Body: ``yield addf(acc, mulf(termA, termB))`` with each term
    ``extf(x)`` or ``mulf(extf(x), extf(scale))`` (operands of commutative ops in any order),
    and nothing else.
    """
    if len(op.outputs) != 1 or len(op.results) != 1 or not 2 <= len(op.inputs) <= 4:
        return None
    its = iterator_types(op)
    red = [i for i, it in enumerate(its) if it is IteratorType.REDUCTION]
    par = [i for i, it in enumerate(its) if it is IteratorType.PARALLEL]
    if len(red) != 1 or len(par) not in (1, 2) or len(its) != len(red) + len(par):
        return None
    maps = generic_maps(op)
    rank = len(its)
    out_map = maps[-1]
    if out_map.num_symbols or not all(isinstance(e, AffineDimExpr) for e in out_map.results):
        return None
    out_dims = [e.position for e in out_map.results]  # type: ignore[union-attr]
    if sorted(out_dims) != sorted(par):
        return None
    k = red[0]
    r = static_tensor(op.results[0].type)
    if r is None or op.outputs[0].type != r:
        return None
    d = AffineDimExpr
    if len(par) == 1:
        n = out_dims[0]
        lead: tuple = ()
    else:
        m, n = out_dims
        if (r.get_shape()[0] != 1) != allow_m:
            return None  # M = 1 is a GEMV, M > 1 (with allow_m) a matmul
        lead = (d(m),)
    kd = d(k)
    expect = {
        "a": AffineMap(rank, 0, (*lead, kd)),
        "a_scale": AffineMap(rank, 0, (*lead, kd // MX_BLOCK)),
        "b": AffineMap(rank, 0, (kd, d(n))),
        "b_scale": AffineMap(rank, 0, (kd // MX_BLOCK, d(n))),
    }
    roles: dict[int, str] = {}
    for i, mp in enumerate(maps[:-1]):
        role = next((rl for rl, em in expect.items() if em == mp), None)
        if role is None or role in roles.values():
            return None
        roles[i] = role

    block = op.body.block
    y = yielded_value(block)
    if y is None:
        return None
    add = owner_of(y, arith.AddfOp)
    if add is None:
        return None
    acc_idx = len(op.inputs)

    def is_acc(x: SSAValue):
        return True if arg_index(x, block) == acc_idx else None

    def is_mul(x: SSAValue):
        return owner_of(x, arith.MulfOp)

    pair = _pair(add.lhs, add.rhs, is_acc, is_mul)
    if pair is None:
        return None
    mul = pair[1]
    terms = (_term(mul.lhs, block), _term(mul.rhs, block))
    if terms[0] is None or terms[1] is None:
        return None
    found: dict[str, int] = {}
    for elem, scale in terms:
        side = roles.get(elem)
        if side not in ("a", "b"):
            return None
        if scale is not None and roles.get(scale) != f"{side}_scale":
            return None
        if side in found:
            return None
        found[side] = elem
        if scale is not None:
            found[f"{side}_scale"] = scale
    if set(found) != set(roles.values()):
        return None  # an input the body does not use as its role
    # Nothing else in the body: extf per input, the scale muls, the product, the add.
    n_ops = len(roles) + sum(1 for _, s in terms if s is not None) + 2
    if len(body_ops(block)) != n_ops:
        return None
    val = {role: op.inputs[i] for i, role in roles.items()}
    for role in ("a", "b"):
        if static_tensor(val[role].type) is None:
            return None
    a_t = val["a"].type
    b_t = val["b"].type
    assert isinstance(a_t, TensorType) and isinstance(b_t, TensorType)
    if a_t.get_num_dims() != len(lead) + 1 or b_t.get_num_dims() != 2:
        return None
    c = Contraction(
        val["a"], val["b"], val.get("a_scale"), val.get("b_scale"), op.outputs[0], r
    )
    if a_t.get_shape()[-1] != b_t.get_shape()[0] or r.get_shape()[-1] != b_t.get_shape()[1]:
        return None
    return c if _gemv_types_ok(c) else None


class GenericGemvToGemv(RewritePattern):
    """The ``linalg.generic`` spelling of an FP16/BF16 vecmat (PTO-SPEC 4, D2).

    Matches::

        %r = linalg.generic {indexing_maps = [affine_map<(n, k) -> (k)>,
                                              affine_map<(n, k) -> (k, n)>,
                                              affine_map<(n, k) -> (n)>],
                             iterator_types = ["parallel", "reduction"]}
            ins(%a, %b : tensor<Kxf16>, tensor<KxNxf16>) outs(%init : tensor<Nxf32>) {
        ^bb0(%x: f16, %y: f16, %acc: f32):
          %0 = arith.extf %x : f16 to f32
          %1 = arith.extf %y : f16 to f32
          %2 = arith.mulf %0, %1 : f32
          %3 = arith.addf %acc, %2 : f32
          linalg.yield %3 : f32
        } -> tensor<Nxf32>

    (also the ``(m, n, k)`` domain with M = 1). Produces ``pto.gemv``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        c = analyze_generic_gemv(op)
        if c is None or c.a_scale is not None or c.b_scale is not None:
            return
        _make_gemv(c, op, rewriter)


class GenericMxGemvToGemv(RewritePattern):
    """An MX-scaled vecmat ``linalg.generic`` (PTO-SPEC 4, D1, D2), mixed sides included.

    Matches (either side may instead be FP16/BF16 with a bare ``extf`` and no scale)::

        %r = linalg.generic {indexing_maps = [affine_map<(n, k) -> (k)>,
                                              affine_map<(n, k) -> (k floordiv 32)>,
                                              affine_map<(n, k) -> (k, n)>,
                                              affine_map<(n, k) -> (k floordiv 32, n)>,
                                              affine_map<(n, k) -> (n)>],
                             iterator_types = ["parallel", "reduction"]}
            ins(%a, %as, %b, %bs : tensor<Kxf8E4M3FN>, tensor<ceil(K/32)xf8E8M0FNU>,
                                   tensor<KxNxf8E4M3FN>, tensor<ceil(K/32)xNxf8E8M0FNU>)
            outs(%init : tensor<Nxf32>) {
        ^bb0(%x: f8E4M3FN, %xs: f8E8M0FNU, %y: f8E4M3FN, %ys: f8E8M0FNU, %acc: f32):
          %0 = arith.extf %x : f8E4M3FN to f32
          %1 = arith.extf %xs : f8E8M0FNU to f32
          %2 = arith.mulf %0, %1 : f32
          %3 = arith.extf %y : f8E4M3FN to f32
          %4 = arith.extf %ys : f8E8M0FNU to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.mulf %2, %5 : f32
          %7 = arith.addf %acc, %6 : f32
          linalg.yield %7 : f32
        } -> tensor<Nxf32>

    Element types f8E4M3FN, f8E5M2, f4E2M1FN (and !pto.e1m2x2) need their scale, FP16/BF16
    sides have none (D2). Produces ``pto.gemv %a, %b a_scale %as b_scale %bs ...``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        c = analyze_generic_gemv(op)
        if c is None or (c.a_scale is None and c.b_scale is None):
            return
        _make_gemv(c, op, rewriter)


# ======================================================================================
# GEMV epilogues
# ======================================================================================


class FoldLinalgAddBiasIntoGemv(RewritePattern):
    """A ``linalg.add`` of an f32 bias to a bias-free ``pto.gemv`` result (PTO-SPEC 4, D3).

    Matches::

        %g = pto.gemv %a, %b : (...) -> tensor<1xNxf32>
        %r = linalg.add ins(%g, %bias : tensor<1xNxf32>, tensor<1xNxf32>)
                        outs(%e : tensor<1xNxf32>) -> tensor<1xNxf32>

    (operands in either order). Produces ``pto.gemv %a, %b bias %bias``: the sum is then
    rounded once instead of twice (within the D4 bound).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.AddOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 2 or len(op.results) != 1:
            return
        for gv, bias in ((op.inputs[0], op.inputs[1]), (op.inputs[1], op.inputs[0])):
            g = gemv_input(gv, op)
            if g is None or not can_take_bias(g) or gv is bias:
                continue
            if bias.type != g.result.type or op.results[0].type != g.result.type:
                continue
            refold(g, op, rewriter, bias=bias)
            return


class FoldGenericBiasAddIntoGemv(RewritePattern):
    """An elementwise ``linalg.generic`` ``addf`` of an f32 bias (same shape or broadcast).

    Matches::

        %g = pto.gemv %a, %b : (...) -> tensor<1xNxf32>
        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                              affine_map<(d0, d1) -> (d1)>,
                                              affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%g, %bias : tensor<1xNxf32>, tensor<Nxf32>) outs(%e : tensor<1xNxf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
        } -> tensor<1xNxf32>

    Produces ``pto.gemv %a, %b bias %bias`` (PTO-SPEC 4, D3).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        pairs = bias_add_pairs(op)
        maps = generic_maps(op)
        rank = len(maps[-1].results)
        for gi, bi in pairs:
            gv, bias = op.inputs[gi], op.inputs[bi]
            g = gemv_input(gv, op)
            if g is None or gv is bias or not can_take_bias(g):
                continue
            if maps[gi] != AffineMap.identity(rank) or op.results[0].type != g.result.type:
                continue
            if not bias_map_ok(bias.type, maps[bi], g.result.type):  # type: ignore[arg-type]
                continue
            refold(g, op, rewriter, bias=bias)
            return


def _unary_generic_on_gemv(op: linalg.GenericOp) -> tuple[GemvOp, Operation] | None:
    """An elementwise one-input generic on a ``pto.gemv`` result: (gemv, the body's op)."""
    if not elementwise_generic(op, 1):
        return None
    maps = generic_maps(op)
    if maps[0] != maps[-1]:
        return None
    g = gemv_input(op.inputs[0], op)
    block = op.body.block
    ops = body_ops(block)
    y = yielded_value(block)
    if g is None or y is None or len(ops) != 1 or y.owner is not ops[0]:
        return None
    return g, ops[0]


class FoldReluIntoGemv(RewritePattern):
    """ReLU as ``maximumf(x, +0.0)`` on a ``pto.gemv`` result (B.FPATR ReluMode 1, PTO-SPEC 3.3).

    Matches (the constant may be defined inside or outside the body, operands in any
    order; the result may be f32 or already truncated to f16/bf16, because truncation is
    monotonic and keeps zero, so ReLU commutes with it)::

        %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"...]}
            ins(%g : tensor<1xNxf32>) outs(%e : tensor<1xNxf32>) {
        ^bb0(%x: f32, %o: f32):
          %m = arith.maximumf %x, %zero : f32
          linalg.yield %m : f32
        } -> tensor<1xNxf32>

    Not matched: ``maxnumf`` (differs on NaN) and a ``-0.0`` constant.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        m = _unary_generic_on_gemv(op)
        if m is None:
            return
        g, body_op = m
        if not isinstance(body_op, arith.MaximumfOp) or g.has_relu:
            return
        block = op.body.block

        def is_x(v: SSAValue):
            return True if arg_index(v, block) == 0 else None

        def is_zero(v: SSAValue):
            return True if is_positive_zero(v) else None

        if _pair(body_op.lhs, body_op.rhs, is_x, is_zero) is None:
            return
        if op.results[0].type != g.result.type:
            return
        refold(g, op, rewriter, relu=True)


class FoldTruncfIntoGemv(RewritePattern):
    """``truncf`` of an FP32 ``pto.gemv`` result to f16/bf16 (PreQuantMode 1/16, PTO-SPEC 3.3).

    Matches::

        %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"...]}
            ins(%g : tensor<1xNxf32>) outs(%e : tensor<1xNxf16>) {
        ^bb0(%x: f32, %o: f16):
          %t = arith.truncf %x : f32 to f16
          linalg.yield %t : f16
        } -> tensor<1xNxf16>

    Both round to nearest even (F322F16 / F322BF16 fix RNE) and overflow to infinity (Sat=0).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        m = _unary_generic_on_gemv(op)
        if m is None:
            return
        g, body_op = m
        if not isinstance(body_op, arith.TruncFOp) or g.out_dtype is not TileDataType.FP32:
            return
        if body_op.attributes or arg_index(body_op.input, op.body.block) != 0:
            return
        out_t = op.results[0].type
        assert isinstance(out_t, TensorType)
        if tile_dtype_of(out_t.element_type) not in GEMV_OUTPUT_TYPES:
            return
        refold(g, op, rewriter, result_type=out_t)


# ======================================================================================
# Floor modulo
# ======================================================================================


def _identity_binary_generic(op: linalg.GenericOp) -> bool:
    """Two inputs, one output, all parallel, identity maps, one static tensor type."""
    if not elementwise_generic(op, 2):
        return False
    rank = len(iterator_types(op))
    if rank == 0 or any(m != AffineMap.identity(rank) for m in generic_maps(op)):
        return False
    t = op.results[0].type
    return all(v.type == t for v in (*op.inputs, *op.outputs))


def _replace_with_floor_mod(
    op: linalg.GenericOp, rewriter: PatternRewriter, ia: int, ib: int, sign: str | None
) -> None:
    elt = op.results[0].type.element_type  # type: ignore[union-attr]
    if floor_mod_dtype(elt, sign) is None:
        return  # outside the D6 type set (f64, i8, i64 ...): left alone
    rewriter.replace(op, FloorModOp(op.inputs[ia], op.inputs[ib], sign))


class SignedFloorModToPto(RewritePattern):
    """The signed-integer floor-modulo idiom (torch-mlir ``aten.remainder``, ONNX Mod).

    Matches (identity maps, all parallel, i32 or i16)::

        %r = linalg.generic {...} ins(%a, %b : tensor<...xi32>, tensor<...xi32>) outs(%e ...) {
        ^bb0(%x: i32, %y: i32, %o: i32):
          %r0 = arith.remsi %x, %y : i32
          %nz = arith.cmpi ne, %r0, %c0 : i32
          %bn = arith.cmpi slt, %y, %c0 : i32
          %rn = arith.cmpi slt, %r0, %c0 : i32
          %xx = arith.xori %bn, %rn : i1
          %fix = arith.andi %nz, %xx : i1
          %s = arith.addi %r0, %y : i32
          %res = arith.select %fix, %s, %r0 : i32
          linalg.yield %res : i32
        }

    Accepted spellings: commutative operands swapped (``andi``, ``xori``, ``addi``);
    ``sgt 0, x`` for ``slt x, 0``; ``ne 0, r`` or ``ugt r, 0`` for ``ne r, 0``;
    ``cmpi ne`` on i1 for ``xori``. Produces ``pto.floor_mod signed`` (D8: floor modulo,
    the divisor's sign). Not matched: a bare ``remsi`` (truncating), other predicates.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not _identity_binary_generic(op):
            return
        elt = op.results[0].type.element_type  # type: ignore[union-attr]
        if not isinstance(elt, IntegerType) or elt.signedness.data is not Signedness.SIGNLESS:
            return
        m = match_floor_mod_body(op.body.block, SIGNED_IDIOM)
        if m is not None:
            _replace_with_floor_mod(op, rewriter, *m, "signed")


class UnsignedRemToPto(RewritePattern):
    """Unsigned remainder: an elementwise ``arith.remui`` (floor modulo of unsigned, D8).

    Matches (identity maps, all parallel, i32 or i16)::

        %r = linalg.generic {...} ins(%a, %b : tensor<...xi32>, tensor<...xi32>) outs(%e ...) {
        ^bb0(%x: i32, %y: i32, %o: i32):
          %q = arith.remui %x, %y : i32
          linalg.yield %q : i32
        }

    Produces ``pto.floor_mod unsigned``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not _identity_binary_generic(op):
            return
        block = op.body.block
        y = yielded_value(block)
        rem = owner_of(y, arith.RemUIOp) if y is not None else None
        if rem is None or len(body_ops(block)) != 1:
            return
        ia, ib = arg_index(rem.lhs, block), arg_index(rem.rhs, block)
        if ia is None or ib is None or ia == ib or max(ia, ib) > 1:
            return
        _replace_with_floor_mod(op, rewriter, ia, ib, "unsigned")


class FloatFloorModToPto(RewritePattern):
    """The float floor-modulo idiom: ``remf`` plus the sign fix-up (D7).

    Matches (identity maps, all parallel, f32, f16 or bf16)::

        ^bb0(%x: f32, %y: f32, %o: f32):
          %r0 = arith.remf %x, %y : f32
          %nz = arith.cmpf one, %r0, %cst0 : f32
          %bn = arith.cmpf olt, %y, %cst0 : f32
          %rn = arith.cmpf olt, %r0, %cst0 : f32
          %xx = arith.xori %bn, %rn : i1
          %fix = arith.andi %nz, %xx : i1
          %s = arith.addf %r0, %y : f32
          %res = arith.select %fix, %s, %r0 : f32
          linalg.yield %res : f32

    Accepted spellings: commutative operands swapped; ``ogt 0, x`` for ``olt x, 0``;
    ``une`` for ``one`` and ``ult`` for ``olt`` (they differ only on NaN, which yields NaN
    either way); either sign of the zero constant. This is exactly D7's correctly rounded
    floor modulo, signed zeros included. Produces ``pto.floor_mod``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not _identity_binary_generic(op):
            return
        elt = op.results[0].type.element_type  # type: ignore[union-attr]
        if not isinstance(elt, AnyFloat):
            return
        m = match_floor_mod_body(op.body.block, float_idiom())
        if m is not None:
            _replace_with_floor_mod(op, rewriter, *m, None)


# ======================================================================================
# Matmul (M > 1)
# ======================================================================================


def _make_matmul(c: Contraction, op: Operation, rewriter: PatternRewriter) -> None:
    """``pto.matmul``: a ``+0.0`` init is no accumulator, anything else is ``acc``."""
    acc = _init_bias(c.init)
    rewriter.replace(
        op, MatmulOp(c.a, c.b, c.result_type, a_scale=c.a_scale, b_scale=c.b_scale, acc=acc)
    )


class MatmulToPto(RewritePattern):
    """``linalg.matmul`` with M > 1 on FP16/BF16 inputs and an FP32 output (PTO-SPEC 3.1, D2).

    Matches::

        %r = linalg.matmul ins(%a, %b : tensor<MxKxf16>, tensor<KxNxf16>)
                           outs(%init : tensor<MxNxf32>) -> tensor<MxNxf32>

    ``%init`` a ``linalg.fill`` of ``+0.0`` (nothing to accumulate) or any f32 tensor (``acc``).
    Produces ``pto.matmul %a, %b [acc %init]``, tiled to TMATMUL / TMATMUL.ACC. Not matched:
    M = 1 (that is a GEMV), f32 x f32 or integer inputs, transposed ``indexing_maps``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.MatmulOp, rewriter: PatternRewriter) -> None:
        c = _named_contraction(op, MatmulM1ToGemv.MAPS)
        if c is None or c.a.type.get_shape()[0] == 1:  # type: ignore[union-attr]
            return
        if not MatmulM1ToGemv._unscaled(c) or not _gemv_types_ok(c):
            return
        _make_matmul(c, op, rewriter)


class GenericMatmulToPto(RewritePattern):
    """The ``(m, n, k)`` ``linalg.generic`` matmul with M > 1, MX-scaled or FP16/BF16.

    Matches the body of :class:`GenericMxGemvToGemv` with maps A ``(m, k)``, A scale
    ``(m, k floordiv 32)``, B ``(k, n)``, B scale ``(k floordiv 32, n)``, out ``(m, n)``::

        %r = linalg.generic {indexing_maps = [#mk, #mk_scale, #kn, #kn_scale, #mn],
                             iterator_types = ["parallel", "parallel", "reduction"]}
            ins(%a, %as, %b, %bs : tensor<MxKxf8E4M3FN>, tensor<Mxceil(K/32)xf8E8M0FNU>,
                                   tensor<KxNxf8E4M3FN>, tensor<ceil(K/32)xNxf8E8M0FNU>)
            outs(%init : tensor<MxNxf32>) { ... addf(acc, mulf(mulf(extf a, extf as), ...)) }

    Produces ``pto.matmul`` (TMATMUL(_MX) / TMATMUL(_MX).ACC after tiling; D1, D2).
    """

    allow_mx: bool = True

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        c = analyze_generic_gemv(op, allow_m=True)
        if c is None or (not self.allow_mx and (c.a_scale or c.b_scale) is not None):
            return
        _make_matmul(c, op, rewriter)


class GenericUnscaledMatmulToPto(GenericMatmulToPto):
    """:class:`GenericMatmulToPto` restricted to FP16/BF16 (no MX function: target a2a3)."""

    allow_mx = False


# ======================================================================================
# Binary elementwise siblings (TADD TSUB TMUL TDIV TMAX TMIN)
# ======================================================================================

"""The one-op bodies each TEPL sibling computes exactly (PTO-SPEC 5).

* add/sub/mul: integers wrap in both (``nsw``/``nuw`` flags make overflow poison upstream,
  which any value refines); floats round to nearest even in both.
* div: ``divf`` is IEEE division in both; ``divsi`` truncates toward zero in both, and
  ``divui`` is unsigned division. A zero divisor and ``INT_MIN / -1`` are undefined
  upstream; TDIV faults on an integer zero divisor (TilePayloadNonzero) and wraps
  INT_MIN / -1 to INT_MIN: a refinement of undefined behaviour.
* and/or/xor: bitwise in both (TAND/TOR/TXOR take S/U 8-64 only, so ``i1`` stays).
* max/min: ``maxnumf``/``minnumf`` return the other operand for one NaN, as TMAX/TMIN do
  (``HardwareNumericMinMaxSpecial``); both order -0 < +0. ``maximumf``/``minimumf``
  propagate NaN, so they are **not** in the table (nor ``linalg.max``/``linalg.min`` on
  floats, whose bodies they are): :mod:`passes.lowering.compare_select` composes them
  (TMAX + TCMP/TSEL).
"""


def _replace_with_elementwise(op: Operation, rewriter: PatternRewriter, inputs) -> None:
    m = match_elementwise_body(op.regions[0].block)
    if m is None:
        return
    kind, sign, ia, ib = m
    elt = op.results[0].type.element_type  # type: ignore[union-attr]
    if isinstance(elt, IntegerType) != (sign is not None):
        return
    if floor_mod_dtype(elt, sign, ELEMENTWISE_TYPES[kind]) is None:
        return  # outside the op's type set (i1, f80 ...): left alone
    for v in inputs:
        g = gemv_input(v, op)
        if kind == "add" and g is not None and can_take_bias(g):
            return  # a bias add on a GEMV result folds into the GEMV instead
    rewriter.replace(op, ElementwiseOp(kind, inputs[ia], inputs[ib], sign))


class ElementwiseGenericToPto(RewritePattern):
    """An all-parallel, identity-mapped two-input ``linalg.generic`` whose body is one op of
    :data:`ELEMENTWISE_BODIES` (PTO-SPEC 5).

    Matches::

        %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"...]}
            ins(%a, %b : tensor<...xf32>, tensor<...xf32>) outs(%e : tensor<...xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %s = arith.subf %x, %y : f32
          linalg.yield %s : f32
        }

    Produces ``pto.elementwise sub %a, %b`` (TSUB after tiling); signless integers take the
    op's signedness (``divui`` -> unsigned, ``addi`` -> signed). Not matched: ``maximumf`` /
    ``minimumf`` (NaN semantics differ: the expression tree composes them), broadcasts, a body with more than one op (those
    go to :mod:`passes.lowering.elementwise`).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if _identity_binary_generic(op):
            _replace_with_elementwise(op, rewriter, list(op.inputs))


class ElementwiseNamedToPto(RewritePattern):
    """``linalg.add`` / ``sub`` / ``mul`` / ``max`` / ``min`` on one static tensor type.

    Matches e.g. ``%r = linalg.sub ins(%a, %b : tensor<8x8xi32>, tensor<8x8xi32>)
    outs(%e : tensor<8x8xi32>) -> tensor<8x8xi32>``. The named op's body decides, through
    :data:`ELEMENTWISE_BODIES`: ``linalg.max``/``min`` lower here on integers (``maxsi``/
    ``minsi``); on floats (``maximumf``/``minimumf`` propagate NaN) they go through the
    expression tree (``NamedElementwiseToTree``: TMAX + TCMP/TSEL).
    """

    NAMED = (linalg.AddOp, linalg.SubOp, linalg.MulOp, linalg.MaxOp, linalg.MinOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.NAMED) or len(op.inputs) != 2 or len(op.outputs) != 1:
            return
        if len(op.results) != 1:
            return
        t = static_tensor(op.results[0].type)
        if t is None or t.get_num_dims() == 0:
            return
        if any(v.type != t for v in (*op.inputs, *op.outputs)):
            return
        maps = [m.data for m in op.get_indexing_maps().data]
        if any(m != AffineMap.identity(t.get_num_dims()) for m in maps):
            return
        _replace_with_elementwise(op, rewriter, list(op.inputs))


# ======================================================================================
# The pass
# ======================================================================================

GEMV_PATTERNS: tuple[type[RewritePattern], ...] = (
    MatmulM1ToGemv,
    VecmatToGemv,
    GenericGemvToGemv,
    GenericMxGemvToGemv,
    FoldLinalgAddBiasIntoGemv,
    FoldGenericBiasAddIntoGemv,
    FoldReluIntoGemv,
    FoldTruncfIntoGemv,
)
MATMUL_PATTERNS: tuple[type[RewritePattern], ...] = (MatmulToPto, GenericMatmulToPto)
FLOOR_MOD_PATTERNS: tuple[type[RewritePattern], ...] = (
    SignedFloorModToPto,
    UnsignedRemToPto,
    FloatFloorModToPto,
)
ELEMENTWISE_PATTERNS: tuple[type[RewritePattern], ...] = (
    ElementwiseGenericToPto,
    ElementwiseNamedToPto,
)
UNSCALED_PATTERNS: tuple[type[RewritePattern], ...] = (
    MatmulM1ToGemv,
    VecmatToGemv,
    GenericGemvToGemv,
    FoldLinalgAddBiasIntoGemv,
    FoldGenericBiasAddIntoGemv,
    FoldReluIntoGemv,
    FoldTruncfIntoGemv,
    MatmulToPto,
    GenericUnscaledMatmulToPto,
)
"""What target a2a3 recognises: the FP16/BF16 products, which the ordinary (non-MX)
TGEMV / TMATMUL forms run (D15 removes only the MX functions)."""


def _lowering_patterns() -> list[type[RewritePattern]]:
    """The patterns of :mod:`passes.lowering` modules: convolution / pooling / padding
    normalisations (into matmul chains and elementwise generics), batched matmul, matmul epilogues and
    ReLU, then reductions, row/column broadcasts and transposes (after the epilogue folds:
    a bias that folds into a CUBE op is not a broadcast add)."""

    return [*CONVOLUTION_PATTERNS, *INTEGER_CONTRACTION_PATTERNS, BatchMatmulToLoop, *EPILOGUE_PATTERNS,
            *REDUCTION_PATTERNS, *EXPAND_PATTERNS,
            *TRANSPOSE_PATTERNS]  # fmt: skip


@dataclass(frozen=True)
class ConvertLinalgToPtoPass(ModulePass):
    """Recognise GEMV, matmul, floor-modulo and elementwise linalg programs as ``pto.gemv``,
    ``pto.matmul``, ``pto.floor_mod`` and ``pto.elementwise``.

    Options:
      * ``target`` — ``a5`` or ``a2a3``; empty (default) reads the module's ``pto.target``
        attribute, else ``a5``. On ``a2a3`` only FP16/BF16 products are recognised (D15).
      * ``gemv`` / ``matmul`` / ``floor_mod`` / ``elementwise`` — enable each family (all
        default true).
      * ``fuse`` — first fold splat inputs and fuse elementwise producer/consumer generics
        (:mod:`passes.lowering.fusion`; default true).
      * ``approx`` — expand tanh, erf and small integer powers in generic bodies into their
        D22 compositions (:mod:`passes.lowering.approximate`; default true; false keeps
        them, with the reason).
    """

    name = "convert-linalg-to-pto"

    target: str = ""
    gemv: bool = True
    matmul: bool = True
    floor_mod: bool = True
    elementwise: bool = True
    fuse: bool = True
    approx: bool = True

    def patterns(self, module: builtin.ModuleOp) -> list[RewritePattern]:
        """Every pattern, in the order tried (:meth:`phases` splits them)."""
        return [p for phase in self.phases(module) for p in phase]

    def phases(self, module: builtin.ModuleOp) -> list[list[RewritePattern]]:
        """Two walks: contractions, their epilogue folds and the idioms; then (after the
        elementwise fusion, which must not merge an epilogue before it folds) the
        elementwise patterns."""
        pats: list[type[RewritePattern]] = []
        a5 = target_of(module, self.target) is TargetProfile.A5
        if self.gemv:
            pats += GEMV_PATTERNS if a5 else [p for p in UNSCALED_PATTERNS if p in GEMV_PATTERNS]
        if self.matmul:
            pats += MATMUL_PATTERNS if a5 else [p for p in UNSCALED_PATTERNS if p not in GEMV_PATTERNS]
            pats += _lowering_patterns()
        if self.floor_mod:
            pats += FLOOR_MOD_PATTERNS
        second: list[type[RewritePattern]] = []
        if self.elementwise:
            # After the GEMV epilogue folds: a bias add on a GEMV result is the GEMV's bias.
            # Then the expression-tree lowering of any other elementwise body (last: idioms
            # and epilogue folds win).

            second += [] if self.fuse else [SplatOperandToFullConstant]
            second += [*ELEMENTWISE_PATTERNS, *ELEMENTWISE_TREE_PATTERNS]
        return [[p() for p in pats], [p() for p in second]]

    def apply(
        self, ctx: Context, op: builtin.ModuleOp, listener: PatternRewriterListener | None = None
    ) -> None:
        """Rewrite ``op``; ``listener`` (optional) sees every replacement (the lowering
        report, :mod:`passes.lowering.report`)."""
        first, second = self.phases(op)
        if self.elementwise:  # tensor-level arith/math -> generics, 0-d -> 1 x 1 first
            norm = [*NORMALISE_PATTERNS, *([ExpandApproximation] if self.approx else [])]
            self._walk(op, [p() for p in norm], listener)
        self._walk(op, first, listener)
        if self.fuse and self.elementwise:

            fuse_elementwise(op, listener)
        self._walk(op, second, listener)

    @staticmethod
    def _walk(op: builtin.ModuleOp, pats: list[RewritePattern], listener) -> None:
        if pats:
            walker = PatternRewriteWalker(GreedyRewritePatternApplier(pats, dce_enabled=False))
            if listener is not None:
                walker.listener = listener
            walker.rewrite_module(op)


__all__ = [
    "ConvertLinalgToPtoPass",
    "Contraction",
    "analyze_generic_gemv",
    "match_floor_mod_body",
    "match_elementwise_body",
    "ELEMENTWISE_BODIES",
    *(p.__name__ for p in GEMV_PATTERNS + MATMUL_PATTERNS + FLOOR_MOD_PATTERNS),
    *(p.__name__ for p in ELEMENTWISE_PATTERNS),
    "GenericUnscaledMatmulToPto",
]
