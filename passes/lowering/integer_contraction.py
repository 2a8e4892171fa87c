"""Integer contractions wider than the CUBE's inputs, and ``linalg.quantized_matmul``.

The CUBE multiplies S8/S16 (and U8/U16) inputs into an S32 accumulator that wraps modulo
2^32 (``interpreter/kernels/cube.py``, PTO-SPEC 1). Frontends emit ``i32 x i32 -> i32`` and
``i32 x i32 -> i64`` matmuls (torch-mlir's MatMulInteger: the i8 operands minus their zero
points, extended to i32). Normalisations, each exact (D18: bit for bit for integers):

* :class:`QuantizedMatmulToMatmul` — ``quantized_matmul(A, B, za, zb)`` is by definition
  ``matmul(cast(A) - za, cast(B) - zb)``: the zero points are subtracted elementwise
  (``linalg.generic``, i32) and the product is an ordinary integer matmul, which the next
  pattern narrows.
* :class:`NarrowIntegerMatmul` — a ``linalg.matmul`` with i32/i64 operands:

  - **bounded operands**: :func:`value_range` bounds each operand through its producers
    (extensions from i8/i16, additions, subtractions and products of bounded values, splat
    constants). Operands within i16 are truncated to i16 (exact: the value is kept) and
    multiplied on the S16 CUBE path into i32. For an i32 result that is the same value
    modulo 2^32 as the i32 sum. For an i64 result, when ``K * max|a| * max|b|`` (plus the
    init's bound) stays below 2^31 no partial sum wraps, and the i32 result extended to i64
    is the exact i64 sum.
  - **16-bit limbs** (i32 result, unbounded i32 operands): ``a = a_hi * 2^16 + a_lo`` with
    ``a_lo`` the low 16 bits read as signed and ``a_hi = (a - a_lo) >> 16`` (wrapped to 16
    bits: modulo 2^32 the product is unchanged), so modulo 2^32
    ``A B = A_lo B_lo + 2^16 (A_hi B_lo + A_lo B_hi)``: three S16 products (the second
    accumulating onto the first: TMATMUL.ACC) and an elementwise shift and add.
  - **balanced 8-bit digits** (an i64 result of unbounded operands, zero init, K * 2^14
    below 2^31): ``a = sum d_k 256^k`` with digits in [-128, 128] (i16), and modulo 2^64
    ``AB = sum_s 2^(8s) sum_{i+j=s} A_i B_j``: S16 products whose S32 sums cannot wrap,
    extended, shifted and added in i64 (:func:`_exact_wide_matmul`).
  - anything else (a non-zero i64 init, a larger K) is kept, with the reason.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from pto_dialect.upstream import MatmulOp

__all__ = ["INTEGER_CONTRACTION_PATTERNS", "NarrowIntegerMatmul", "QuantizedMatmulToMatmul",
           "value_range", "wide_integer_matmul"]

Range = tuple[int, int]
I16: Range = (-(2**15), 2**15 - 1)
I32_MAX = 2**31 - 1


def _int_width(t: Attribute) -> int | None:
    elt = t.get_element_type() if isinstance(t, TensorType) else t
    return elt.width.data if isinstance(elt, IntegerType) else None


def _type_range(t: Attribute, unsigned: bool = False) -> Range | None:
    w = _int_width(t)
    if w is None:
        return None
    return (0, 2**w - 1) if unsigned else (-(2 ** (w - 1)), 2 ** (w - 1) - 1)


def _fits(r: Range | None, t: Attribute) -> Range | None:
    """``r`` if it lies in ``t``'s signed range (no wrap happened), else None."""
    tr = _type_range(t)
    if r is None or tr is None or r[0] < tr[0] or r[1] > tr[1]:
        return None
    return r


def _scalar_range(v: SSAValue, block: Block, arg_ranges: list[Range | None], depth: int) -> Range | None:
    if isinstance(v, BlockArgument):
        return arg_ranges[v.index] if v.block is block and v.index < len(arg_ranges) else None
    o = v.owner
    if isinstance(o, arith.ConstantOp) and isinstance(o.value, IntegerAttr):
        x = o.value.value.data
        return (x, x)
    if not isinstance(o, Operation):
        return None
    if o.parent_block() is not block:  # defined outside the body: a scalar of the function
        return value_range(v, depth + 1)
    if isinstance(o, arith.ExtSIOp | arith.ExtUIOp):
        inner = _scalar_range(o.input, block, arg_ranges, depth)
        if isinstance(o, arith.ExtUIOp):
            return _type_range(o.input.type, unsigned=True) if inner is None or inner[0] < 0 else inner
        return inner if inner is not None else _type_range(o.input.type)
    if isinstance(o, arith.AddiOp | arith.SubiOp | arith.MuliOp):
        a = _scalar_range(o.lhs, block, arg_ranges, depth)
        b = _scalar_range(o.rhs, block, arg_ranges, depth)
        if a is None or b is None:
            return None
        if isinstance(o, arith.AddiOp):
            r = (a[0] + b[0], a[1] + b[1])
        elif isinstance(o, arith.SubiOp):
            r = (a[0] - b[1], a[1] - b[0])
        else:
            ps = [x * y for x in a for y in b]
            r = (min(ps), max(ps))
        return _fits(r, o.result.type)
    return None


def value_range(v: SSAValue, depth: int = 0) -> Range | None:
    """Bounds of every element of an integer tensor (or scalar) ``v``, if its producers
    show them: an elementwise ``linalg.generic`` whose body extends, adds, subtracts or
    multiplies bounded values (no wrap), a splat or dense constant, a fill; the type's
    signed range otherwise for a narrow (<= 16-bit) type; None when unknown."""
    if _int_width(v.type) is None or depth > 8:
        return None
    o = v.owner
    if isinstance(o, arith.ConstantOp):
        val = o.value
        if isinstance(val, IntegerAttr):
            x = val.value.data
            return (x, x)
        if isinstance(val, DenseIntOrFPElementsAttr):
            xs = [int(x) for x in val.get_values()]
            return (min(xs), max(xs)) if xs else None
    if isinstance(o, linalg.FillOp) and len(o.inputs) == 1:
        return value_range(o.inputs[0], depth + 1)
    if isinstance(o, linalg.GenericOp) and len(o.outputs) == 1 and len(o.results) == 1:
        if all(it.data is IteratorType.PARALLEL for it in o.iterator_types.data):
            block = o.body.block
            y = block.last_op
            if y is not None and len(y.operands) == 1:
                ranges = [value_range(x, depth + 1) for x in o.inputs]
                ranges.append(None)
                return _scalar_range(y.operands[0], block, ranges, depth)
    w = _int_width(v.type)
    if w is not None and w <= 16:
        return _type_range(v.type)
    return None


class _Emit:
    def __init__(self, rewriter: PatternRewriter, anchor: Operation):
        self.rewriter = rewriter
        self.point = InsertPoint.before(anchor)

    def __call__(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, self.point)
        return op.results[0]

    def map(self, ins: list[SSAValue], elt: Attribute, body, shape: list[int],
            maps: list[AffineMap] | None = None) -> SSAValue:
        """An elementwise generic over ``shape`` whose body ``body(args) -> (ops, value)``."""
        out_t = TensorType(elt, shape)
        rank = len(shape)
        ident = AffineMap.identity(rank)
        block = Block(arg_types=[*(x.type.get_element_type() for x in ins), elt])  # type: ignore[union-attr]
        ops, value = body(block.args)
        for o in ops:
            block.add_op(o)
        block.add_op(linalg.YieldOp(value))
        empty = self(tensor.EmptyOp([], out_t))
        maps = maps or [ident] * len(ins)
        return self(linalg.GenericOp(
            ins, [empty], Region(block), ArrayAttr([AffineMapAttr(m) for m in [*maps, ident]]),
            ArrayAttr([IteratorTypeAttr.parallel()] * rank), [out_t]))

    def fill(self, value: int, t: TensorType) -> SSAValue:
        c = self(arith.ConstantOp(IntegerAttr(value, t.element_type)))
        empty = self(tensor.EmptyOp([], t))
        return self(linalg.FillOp([c], [empty], [t]))


def _zero_fill(v: SSAValue) -> bool:
    fill = v.owner
    if not isinstance(fill, linalg.FillOp) or len(fill.inputs) != 1:
        return False
    c = fill.inputs[0].owner
    return isinstance(c, arith.ConstantOp) and isinstance(c.value, IntegerAttr) and c.value.value.data == 0


def _static_int_tensor(v: SSAValue) -> TensorType | None:
    t = v.type
    if isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape()) and _int_width(t):
        return t
    return None


def _matmul_operands(op: Operation):
    if not isinstance(op, linalg.MatmulOp) or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    maps = [m.data for m in op.get_indexing_maps().data]
    if maps != list(op.get_default_indexing_maps()):
        return None
    a, b = op.inputs
    init = op.outputs[0]
    ts = [_static_int_tensor(x) for x in (a, b, init)]
    if None in ts or len(op.results) != 1:
        return None
    return a, b, init


def _trunc(emit: _Emit, v: SSAValue, width: int) -> SSAValue:
    t = v.type
    assert isinstance(t, TensorType)
    elt = IntegerType(width)
    return emit.map([v], elt, lambda args: ([o := arith.TruncIOp(args[0], elt)], o.result),
                    list(t.get_shape()))


def _limbs(emit: _Emit, v: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(lo, hi) i16 limbs of an i32 tensor: ``v = hi * 2^16 + lo`` modulo 2^32."""
    t = v.type
    assert isinstance(t, TensorType)
    shape = list(t.get_shape())
    i16, i32 = IntegerType(16), IntegerType(32)
    lo = _trunc(emit, v, 16)

    def hi_body(args):
        ext = arith.ExtSIOp(args[1], i32)
        diff = arith.SubiOp(args[0], ext)
        sixteen = arith.ConstantOp(IntegerAttr(16, i32))
        shifted = arith.ShRSIOp(diff, sixteen)
        narrow = arith.TruncIOp(shifted, i16)
        return [ext, diff, sixteen, shifted, narrow], narrow.result

    hi = emit.map([v, lo], i16, hi_body, shape)
    return lo, hi


DIGIT = 8
"""Bits per balanced digit of the exact wide path: digits in [-128, 128] as i16 (S16 CUBE
inputs), products below 2^14 in magnitude."""


def _digits(emit: _Emit, v: SSAValue, count: int, work: IntegerType) -> list[SSAValue]:
    """Balanced base-256 digits ``d_0 .. d_{count-1}`` (i16) of ``v`` computed in ``work``
    (i64): ``v = sum d_k 256^k`` exactly for i32 sources (modulo 2^64 for i64 ones), every
    digit in [-128, 127] but the last, in [-128, 128]."""
    t = v.type
    assert isinstance(t, TensorType)
    shape = list(t.get_shape())
    i8, i16 = IntegerType(8), IntegerType(16)
    cur = v
    if _int_width(t) != work.width.data:
        cur = emit.map([v], work, lambda args: ([o := arith.ExtSIOp(args[0], work)], o.result), shape)
    digits: list[SSAValue] = []
    for k in range(count):
        if k == count - 1:
            digits.append(_trunc(emit, cur, 16))
            break

        def low(args):
            b = arith.TruncIOp(args[0], i8)
            d = arith.ExtSIOp(b, i16)
            return [b, d], d.result

        d = emit.map([cur], i16, low, shape)
        digits.append(d)

        def rest(args):
            ext = arith.ExtSIOp(args[1], work)
            diff = arith.SubiOp(args[0], ext)
            eight = arith.ConstantOp(IntegerAttr(DIGIT, work))
            sh = arith.ShRSIOp(diff, eight)
            return [ext, diff, eight, sh], sh.result

        cur = emit.map([cur, d], work, rest, shape)
    return digits


def _exact_wide_matmul(emit: _Emit, a: SSAValue, b: SSAValue, out_t: TensorType) -> SSAValue | None:
    """``A x B`` with an i64 result from balanced digits: modulo 2^64,
    ``AB = sum_s 2^(8s) sum_{i+j=s} A_i B_j`` over ``8s < 64``; each digit product is an
    S16 TMATMUL whose S32 sum cannot wrap (``K * 2^14 * pairs < 2^31``), the pairs of one
    ``s`` chained through TMATMUL.ACC when that bound allows, then extended, shifted and
    added in i64."""
    k = a.type.get_shape()[1]  # type: ignore[union-attr]
    work = IntegerType(64)
    la = 4 if _int_width(a.type) == 32 else 8
    lb = 4 if _int_width(b.type) == 32 else 8
    if k * 128 * 128 >= 2**31:
        return None
    da, db = _digits(emit, a, la, work), _digits(emit, b, lb, work)
    shape = list(out_t.get_shape())
    i32_t = TensorType(IntegerType(32), shape)
    sums: list[tuple[int, SSAValue]] = []
    for sft in range(8):
        pairs = [(i, sft - i) for i in range(la) if 0 <= sft - i < lb]
        if not pairs:
            continue
        acc: SSAValue | None = None
        for n, (i, j) in enumerate(pairs):
            if acc is not None and k * 128 * 128 * (n + 1) >= 2**31:
                sums.append((sft, acc))
                acc = None
            acc = emit(MatmulOp([da[i], db[j]], [acc if acc is not None else emit.fill(0, i32_t)]))
        assert acc is not None
        sums.append((sft, acc))

    def combine(args):
        ops: list[Operation] = []
        total = None
        for (sft, _), x in zip(sums, args, strict=False):
            ext = arith.ExtSIOp(x, work)
            ops.append(ext)
            term = ext.result
            if sft:
                c = arith.ConstantOp(IntegerAttr(DIGIT * sft, work))
                sh = arith.ShLIOp(term, c)
                ops += [c, sh]
                term = sh.result
            if total is None:
                total = term
            else:
                add = arith.AddiOp(total, term)
                ops.append(add)
                total = add.result
        assert total is not None
        return ops, total

    return emit.map([x for _, x in sums], work, combine, shape)


class NarrowIntegerMatmul(RewritePattern):
    """An i32/i64 ``linalg.matmul`` -> S16 CUBE products (see the module docstring).

    Matches::

        %r = linalg.matmul ins(%a, %b : tensor<4x32xi32>, tensor<32x16xi32>)
                           outs(%z : tensor<4x16xi64>) -> tensor<4x16xi64>

    with ``%a``, ``%b`` bounded within i16 (e.g. ``extsi(i8) - zero point``): produces
    ``trunci`` to i16 of each, ``linalg.matmul`` (i16 x i16 -> i32) and ``extsi`` to i64.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        found = _matmul_operands(op)
        if found is None:
            return
        a, b, init = found
        wa, wb, wo = (_int_width(x.type) for x in (a, b, init))
        if wo not in (32, 64) or max(wa or 0, wb or 0) <= 16:
            return  # S8/S16 inputs are the ordinary CUBE pairs
        ra, rb = value_range(a), value_range(b)
        k = a.type.get_shape()[1]  # type: ignore[union-attr]
        out_t = op.results[0].type
        assert isinstance(out_t, TensorType)
        i32_t = TensorType(IntegerType(32), out_t.get_shape())
        bounded = all(r is not None and r[0] >= I16[0] and r[1] <= I16[1] for r in (ra, rb))
        emit = _Emit(rewriter, op)
        if bounded and wo == 32:
            a16, b16 = _narrow(emit, a), _narrow(emit, b)
            rewriter.replace(op, [], [emit(MatmulOp([a16, b16], [init]))])
            return
        if bounded and wo == 64 and _zero_fill(init):
            assert ra is not None and rb is not None
            peak = k * max(abs(x) for x in ra) * max(abs(x) for x in rb)
            if peak <= I32_MAX:
                a16, b16 = _narrow(emit, a), _narrow(emit, b)
                p = emit(MatmulOp([a16, b16], [emit.fill(0, i32_t)]))
                wide = emit.map([p], out_t.element_type,
                                lambda args: ([o := arith.ExtSIOp(args[0], out_t.element_type)], o.result),
                                list(out_t.get_shape()))
                rewriter.replace(op, [], [wide])
                return
        if wo == 64 and _zero_fill(init) and a.type.get_shape()[1] * 128 * 128 < 2**31:  # type: ignore[union-attr]
            wide = _exact_wide_matmul(emit, a, b, out_t)
            if wide is not None:
                rewriter.replace(op, [], [wide])
            return
        if wo == 32 and wa == 32 and wb == 32:
            a_lo, a_hi = _limbs(emit, a)
            b_lo, b_hi = _limbs(emit, b)
            p0 = emit(MatmulOp([a_lo, b_lo], [init]))
            p1 = emit(MatmulOp([a_hi, b_lo], [emit.fill(0, i32_t)]))
            p1 = emit(MatmulOp([a_lo, b_hi], [p1]))

            def combine(args):
                sixteen = arith.ConstantOp(IntegerAttr(16, IntegerType(32)))
                sh = arith.ShLIOp(args[1], sixteen)
                s = arith.AddiOp(args[0], sh)
                return [sixteen, sh, s], s.result

            rewriter.replace(op, [], [emit.map([p0, p1], IntegerType(32), combine,
                                               list(out_t.get_shape()))])


def wide_integer_matmul(op: Operation) -> bool:
    """A ``linalg.matmul`` with an i64 result and an operand wider than 16 bits (what
    :class:`NarrowIntegerMatmul` lowers only when the operands are bounded)."""
    found = _matmul_operands(op)
    if found is None:
        return False
    a, b, init = found
    return _int_width(init.type) == 64 and max(_int_width(a.type) or 0, _int_width(b.type) or 0) > 16


def _narrow(emit: _Emit, v: SSAValue) -> SSAValue:
    """``v`` (bounded within i16) as i16; reads the i16 source of an ``extsi`` directly."""
    if _int_width(v.type) == 16:
        return v
    return _trunc(emit, v, 16)


class QuantizedMatmulToMatmul(RewritePattern):
    """``linalg.quantized_matmul`` -> zero points subtracted, then ``linalg.matmul``.

    Matches::

        %r = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<4x32xi8>,
                 tensor<32x16xi8>, i32, i32) outs(%acc : tensor<4x16xi32>) -> tensor<4x16xi32>

    Produces ``%a2 = extsi(%a) - %za`` and ``%b2 = extsi(%b) - %zb`` (i32 generics) and
    ``linalg.matmul ins(%a2, %b2) outs(%acc)``: the op's definition, term by term.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, linalg.QuantizedMatmulOp) or len(op.inputs) != 4 or len(op.outputs) != 1:
            return
        a, b, za, zb = op.inputs
        init = op.outputs[0]
        if None in (_static_int_tensor(a), _static_int_tensor(b), _static_int_tensor(init)):
            return
        elt = init.type.get_element_type()  # type: ignore[union-attr]
        if not isinstance(elt, IntegerType) or za.type != elt or zb.type != elt:
            return
        emit = _Emit(rewriter, op)

        def minus(x: SSAValue, z: SSAValue) -> SSAValue:
            t = x.type
            assert isinstance(t, TensorType)

            def body(args):
                ops: list[Operation] = []
                v = args[0]
                if v.type != elt:
                    ext = arith.ExtSIOp(v, elt)
                    ops.append(ext)
                    v = ext.result
                d = arith.SubiOp(v, z)
                return [*ops, d], d.result

            return emit.map([x], elt, body, list(t.get_shape()))

        a2, b2 = minus(a, za), minus(b, zb)
        rewriter.replace(op, [], [emit(MatmulOp([a2, b2], [init]))])


INTEGER_CONTRACTION_PATTERNS: list[type[RewritePattern]] = [
    QuantizedMatmulToMatmul, NarrowIntegerMatmul,
]
"""The normalisations of this module, in the order tried."""
