"""Body and operand matchers shared by the linalg -> PTO patterns: the floor-mod idioms, elementwise bodies, the GEMV operand and bias-fold checks. The bottom of the lowering: it imports no other lowering module."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, builtin
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter

from pto_dialect.attributes import TargetAttr, TargetProfile, tile_dtype_of
from pto_dialect.datatypes import TileDataType
from pto_dialect.ops import TARGET_ATTR_NAME
from pto_dialect.tensor_ops import GemvOp
from pto_dialect.upstream import RemFOp


def constant_scalar(v: SSAValue) -> int | float | None:
    """The value of an ``arith.constant`` scalar (or a splat dense constant), else None."""
    op = v.owner
    if not isinstance(op, arith.ConstantOp):
        return None
    val = op.value
    if isinstance(val, IntegerAttr):
        return val.value.data
    if isinstance(val, FloatAttr):
        return val.value.data
    if isinstance(val, DenseIntOrFPElementsAttr) and val.is_splat():
        vals = val.get_values()
        return vals[0] if vals else None
    return None


def _is_zero(v: SSAValue) -> bool:
    c = constant_scalar(v)
    return c is not None and c == 0


def is_positive_zero(v: SSAValue) -> bool:
    """``+0`` exactly (a float ``-0.0`` is not: ``maximumf(x, -0.0)`` differs from ReLU)."""
    import math

    c = constant_scalar(v)
    return c is not None and c == 0 and math.copysign(1.0, float(c)) > 0


def arg_index(v: SSAValue, block: Block) -> int | None:
    if isinstance(v, BlockArgument) and v.block is block:
        return v.index
    return None


def owner_of(v: SSAValue, cls: type[Operation] | tuple[type[Operation], ...]):
    """``v``'s defining op if it is a ``cls``, else None."""
    return v.owner if isinstance(v, OpResult) and isinstance(v.owner, cls) else None


def static_tensor(t: Attribute) -> TensorType | None:
    if isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape()):
        return t
    return None


def _uses_only_in(v: SSAValue, op: Operation) -> bool:
    return all(u.operation is op for u in v.uses)


def body_ops(block: Block) -> list[Operation]:
    """The body's computing ops (constants and the terminator excluded)."""
    return [
        o for o in block.ops if not isinstance(o, arith.ConstantOp | linalg.YieldOp)
    ]


def yielded_value(block: Block) -> SSAValue | None:
    term = block.last_op
    if isinstance(term, linalg.YieldOp) and len(term.operands) == 1:
        return term.operands[0]
    return None


def generic_maps(op: linalg.GenericOp) -> list[AffineMap]:
    return [m.data for m in op.indexing_maps.data]


def iterator_types(op: linalg.GenericOp) -> list[IteratorType]:
    return [it.data for it in op.iterator_types.data]


def target_of(module: builtin.ModuleOp, option: str) -> TargetProfile:
    """The target profile (D15): the pass option if given, else the module's ``pto.target``."""
    if option:
        try:
            return TargetProfile(option)
        except ValueError:
            raise ValueError(
                f"unknown target '{option}' (expected one of {[t.value for t in TargetProfile]})"
            ) from None
    attr = module.attributes.get(TARGET_ATTR_NAME)
    return attr.data if isinstance(attr, TargetAttr) else TargetProfile.A5


def sole_producer(v: SSAValue, consumer: Operation, cls: type[Operation]):
    """The ``cls`` op defining ``v`` if ``consumer`` is its only user (an epilogue may fold)."""
    p = owner_of(v, cls)
    return p if p is not None and _uses_only_in(v, consumer) else None


def gemv_input(v: SSAValue, consumer: Operation) -> GemvOp | None:
    """The ``pto.gemv`` defining ``v`` if ``consumer`` is its only user."""
    return sole_producer(v, consumer, GemvOp)


def refold(g: GemvOp, epilogue: Operation, rewriter: PatternRewriter, **changes) -> None:
    """Replace ``epilogue`` by a copy of ``g`` with ``changes``, at the epilogue's place."""
    args = dict(
        a_scale=g.a_scale,
        b_scale=g.b_scale,
        bias=g.bias,
        relu=g.has_relu,
    )
    result_type = changes.pop("result_type", g.result.type)
    args.update(changes)
    new = GemvOp(g.a, g.b, result_type, **args)
    rewriter.replace(epilogue, new)
    rewriter.erase(g)


def elementwise_generic(op: linalg.GenericOp, n_inputs: int) -> bool:
    """All-parallel, one result, the out block argument unused, ``n_inputs`` inputs."""
    if len(op.inputs) != n_inputs or len(op.outputs) != 1 or len(op.results) != 1:
        return False
    if any(it is not IteratorType.PARALLEL for it in iterator_types(op)):
        return False
    out_arg = op.body.block.args[n_inputs]
    if out_arg.uses:
        return False
    if generic_maps(op)[-1] != AffineMap.identity(len(iterator_types(op))):
        return False
    return static_tensor(op.results[0].type) is not None and op.outputs[0].type == op.results[0].type


def bias_map_ok(bias_t: Attribute, mp: AffineMap, out_t: TensorType) -> bool:
    """A bias operand that gives element ``j`` to output column ``j`` (PTO-SPEC 4)."""
    if not isinstance(bias_t, TensorType) or tile_dtype_of(bias_t.element_type) is not TileDataType.FP32:
        return False
    rank = out_t.get_num_dims()
    n = out_t.get_shape()[-1]
    bshape = tuple(bias_t.get_shape())
    if mp == AffineMap.identity(rank) and bias_t == out_t:
        return True
    last = AffineDimExpr(rank - 1)
    if rank == 2 and mp == AffineMap(2, 0, (last,)) and bshape == (n,):
        return True
    if rank == 2 and mp == AffineMap(2, 0, (AffineConstantExpr(0), last)) and bshape == (1, n):
        return True
    return False


def can_take_bias(g: GemvOp) -> bool:
    return g.bias is None and not g.has_relu and g.out_dtype is TileDataType.FP32


@dataclass(frozen=True)
class FloorModIdiom:
    """The ops of one spelling of ``r = rem(a, b); r != 0 && (b < 0) != (r < 0) ? r + b : r``."""

    rem: type[Operation]
    cmp: type[Operation]
    add: type[Operation]
    ne_preds: frozenset[str]
    """``x != 0`` predicates (also accepted with swapped operands)."""
    lt_preds: frozenset[str]
    """``x < 0`` predicates; their mirror images ``0 > x`` are derived."""


_MIRROR = {"slt": "sgt", "sgt": "slt", "olt": "ogt", "ogt": "olt", "ult": "ugt", "ugt": "ult",
           "ne": "ne", "one": "one", "une": "une"}


SIGNED_IDIOM = FloorModIdiom(
    arith.RemSIOp,
    arith.CmpiOp,
    arith.AddiOp,
    # r != 0 (``ugt r, 0`` is the same test on the bits: unsigned r > 0 iff r != 0).
    frozenset({"ne", "ugt"}),
    frozenset({"slt"}),
)


FLOAT_IDIOM_PREDICATES = (
    # r != 0: ``one`` and ``une`` differ only for NaN r, whose result is NaN either way.
    frozenset({"one", "une"}),
    # x < 0: ``olt`` and ``ult`` differ only for NaN, and a NaN b or r makes the result NaN
    # whichever branch the select takes.
    frozenset({"olt", "ult"}),
)


def predicate_name(op: Operation) -> str:
    names = arith.CMPI_COMPARISON_OPERATIONS if isinstance(op, arith.CmpiOp) else arith.CMPF_COMPARISON_OPERATIONS
    return names[op.predicate.value.data]  # type: ignore[attr-defined]


def _is_cmp_against_zero(v: SSAValue, idiom: FloorModIdiom, preds: frozenset[str], x: SSAValue) -> bool:
    """``v`` is ``cmp pred, x, 0`` or the mirrored ``cmp mirror(pred), 0, x``."""
    c = owner_of(v, idiom.cmp)
    if c is None:
        return False
    p = predicate_name(c)
    lhs, rhs = c.operands
    if lhs is x and p in preds and _is_zero(rhs):
        return True
    mirrored = {_MIRROR[q] for q in preds if q in _MIRROR}
    return rhs is x and p in mirrored and _is_zero(lhs)


def _is_sign_xor(v: SSAValue, idiom: FloorModIdiom, b: SSAValue, r: SSAValue) -> bool:
    """``(b < 0) xor (r < 0)`` as ``arith.xori`` or ``arith.cmpi ne`` on i1, any order."""
    x = owner_of(v, arith.XOrIOp)
    if x is not None:
        p, q = x.lhs, x.rhs
    else:
        c = owner_of(v, arith.CmpiOp)
        if c is None or predicate_name(c) != "ne" or c.lhs.type != IntegerType(1):
            return False
        p, q = c.lhs, c.rhs
    for bb, rr in ((p, q), (q, p)):
        if _is_cmp_against_zero(bb, idiom, idiom.lt_preds, b) and _is_cmp_against_zero(
            rr, idiom, idiom.lt_preds, r
        ):
            return True
    return False


def match_floor_mod_body(block: Block, idiom: FloorModIdiom) -> tuple[int, int] | None:
    """Match the floor-mod idiom in a generic body; returns (dividend, divisor) arg indices.

    The idiom (torch-mlir ``aten.remainder``, ONNX ``Mod(fmod=0)``), with commutative
    operands in any order and the predicate spellings of ``idiom``::

        %r = rem %a, %b ; %nz = cmp ne, %r, 0 ; %bn = cmp lt, %b, 0 ; %rn = cmp lt, %r, 0
        %x = xori %bn, %rn ; %fix = andi %nz, %x ; %s = add %r, %b
        %res = select %fix, %s, %r ; linalg.yield %res
    """
    y = yielded_value(block)
    sel = owner_of(y, arith.SelectOp) if y is not None else None
    if sel is None:
        return None
    r = sel.rhs
    rem = owner_of(r, idiom.rem)
    if rem is None:
        return None
    a, b = rem.operands
    ia, ib = arg_index(a, block), arg_index(b, block)
    if ia is None or ib is None or ia == ib or max(ia, ib) > 1:
        return None
    s = owner_of(sel.lhs, idiom.add)
    if s is None or {s.operands[0], s.operands[1]} != {r, b} or s.operands[0] is s.operands[1]:
        return None
    fix = owner_of(sel.cond, arith.AndIOp)
    if fix is None:
        return None
    ok = False
    for nz, x in ((fix.lhs, fix.rhs), (fix.rhs, fix.lhs)):
        if _is_cmp_against_zero(nz, idiom, idiom.ne_preds, r) and _is_sign_xor(x, idiom, b, r):
            ok = True
    if not ok:
        return None
    if len(body_ops(block)) != 8:
        return None  # something else happens in the body
    return ia, ib


def float_idiom() -> FloorModIdiom:
    """The float spelling: ``arith.remf`` exists only in the upstream overrides."""
    return FloorModIdiom(RemFOp, arith.CmpfOp, arith.AddfOp, *FLOAT_IDIOM_PREDICATES)


ELEMENTWISE_BODIES: dict[type[Operation], tuple[str, str | None]] = {
    arith.AddfOp: ("add", None),
    arith.AddiOp: ("add", "signed"),
    arith.SubfOp: ("sub", None),
    arith.SubiOp: ("sub", "signed"),
    arith.MulfOp: ("mul", None),
    arith.MuliOp: ("mul", "signed"),
    arith.DivfOp: ("div", None),
    arith.DivSIOp: ("div", "signed"),
    arith.DivUIOp: ("div", "unsigned"),
    arith.AndIOp: ("and", "signed"),  # bitwise: either signedness gives the same bits
    arith.OrIOp: ("or", "signed"),
    arith.XOrIOp: ("xor", "signed"),
    arith.MaxnumfOp: ("max", None),
    arith.MaxSIOp: ("max", "signed"),
    arith.MaxUIOp: ("max", "unsigned"),
    arith.MinnumfOp: ("min", None),
    arith.MinSIOp: ("min", "signed"),
    arith.MinUIOp: ("min", "unsigned"),
}


def match_elementwise_body(block: Block) -> tuple[str, str | None, int, int] | None:
    """``(kind, signedness, lhs arg, rhs arg)`` when the body is exactly one op of the table
    applied to the two input arguments and yielded."""
    y = yielded_value(block)
    ops = body_ops(block)
    if y is None or len(ops) != 1 or y.owner is not ops[0]:
        return None
    entry = ELEMENTWISE_BODIES.get(type(ops[0]))
    if entry is None:
        return None
    lhs, rhs = ops[0].operands
    ia, ib = arg_index(lhs, block), arg_index(rhs, block)
    if ia is None or ib is None or ia == ib or max(ia, ib) > 1:
        return None
    return (*entry, ia, ib)


def bias_add_pairs(op: linalg.GenericOp) -> list[tuple[int, int]]:
    """The bias-epilogue shape GEMV and matmul fold alike (PTO-SPEC 4, D3): an elementwise
    two-input generic whose body is one ``addf`` of its two inputs. Returns the (product
    input, addend input) index pairs to try, both orders; ``[]`` for any other generic. The
    caller checks that the product input is its contraction and the addend's map."""
    if not elementwise_generic(op, 2):
        return []
    block = op.body.block
    y = yielded_value(block)
    add = owner_of(y, arith.AddfOp) if y is not None else None
    if add is None or len(body_ops(block)) != 1:
        return []
    if {arg_index(add.lhs, block), arg_index(add.rhs, block)} != {0, 1}:
        return []
    return [(0, 1), (1, 0)]

