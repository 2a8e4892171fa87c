"""Upstream MLIR operations that xDSL 0.75 lacks or models too narrowly.

* ``arith.remf`` -- floating remainder (C ``fmod``: the result has the dividend's sign),
  same syntax as ``arith.addf``: ``%r = arith.remf %a, %b [fastmath<...>] : f32``.
  torch-mlir's float floor-modulo idiom (``remf`` + ``cmpf``/``select`` fix-up, D7) uses it.
* ``linalg.matmul`` -- xDSL's class builds its hidden body as ``mulf(a, b); addf(.., acc)``
  with no casts, so ``bf16 x bf16 -> f32`` (what torch-mlir emits for GEMV, PTO-SPEC 4)
  fails verification. Upstream casts every input to the output element type first
  (OpDSL ``TypeFn.cast_signed``). :class:`MatmulOp` subclasses xDSL's op (same name, same
  syntax, ``isinstance`` checks keep working) and builds the upstream body.
* ``linalg.vecmat`` / ``linalg.matvec`` -- named structured ops with the upstream OpDSL
  definitions::

      vecmat: x[n] += cast(U, y[m]) * cast(U, A[m, n])    domain (n, m)
      matvec: x[m] += cast(U, A[m, n]) * cast(U, y[n])    domain (m, n)

  printed like every named op: ``linalg.vecmat ins(%y, %A : ...) outs(%x : ...) -> type``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    AnyTensorType,
    ArrayAttr,
    IntegerType,
    ShapedType,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.parser import Parser
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

__all__ = ["RemFOp", "MatmulOp", "BatchMatmulOp", "GenericOp", "QuantizedMatmulOp", "VecmatOp",
           "MatvecOp", "cast_signed", "contraction_region"]


@irdl_op_definition
class RemFOp(arith.FloatingPointLikeBinaryOperation):
    """``arith.remf``: floating-point remainder, the sign of the dividend (LLVM ``frem``).

    See https://mlir.llvm.org/docs/Dialects/ArithOps/#arithremf-arithremfop.
    """

    name = "arith.remf"

    traits = traits_def(Pure())


def cast_signed(value: SSAValue, to_type: Attribute) -> SSAValue:
    """OpDSL ``TypeFn.cast_signed``: convert a scalar to ``to_type``, ints as signed.

    Must be called inside a ``Builder.implicit_region`` body (the ops are inserted there).
    """
    from_type = value.type
    if from_type == to_type:
        return value
    from_float = isinstance(from_type, AnyFloat)
    to_float = isinstance(to_type, AnyFloat)
    if from_float and to_float:
        assert isinstance(from_type, AnyFloat) and isinstance(to_type, AnyFloat)
        if from_type.bitwidth < to_type.bitwidth:
            return arith.ExtFOp(value, to_type).result
        return arith.TruncFOp(value, to_type).result
    if not from_float and to_float:
        return arith.SIToFPOp(value, to_type).result
    if from_float and not to_float:
        return arith.FPToSIOp(value, to_type).result
    assert isinstance(from_type, IntegerType) and isinstance(to_type, IntegerType)
    if from_type.width.data < to_type.width.data:
        return arith.ExtSIOp(value, to_type).result
    return arith.TruncIOp(value, to_type).result


def _check_castable(op: NamedOperation) -> None:
    """Every operand element type must be an int or float (upstream's ``cast_signed``)."""
    for value in (*op.inputs, *op.outputs):
        t = value.type
        element = t.get_element_type() if isinstance(t, ShapedType) else t
        if not isinstance(element, AnyFloat | IntegerType):
            raise VerifyException(
                f"'{op.name}' operand element type {element} is neither integer nor float"
            )


def contraction_region(arg_types: Sequence[Attribute]) -> Region:
    """The upstream contraction body ``yield add(out, mul(cast(U, in0), cast(U, in1)))``."""
    if len(arg_types) != 3:
        # Malformed op (wrong operand count, e.g. ``linalg.matmul outs(%c)``): an empty
        # body; the op's verifier then names the expected operands.
        return Region(Block([xlinalg.YieldOp()], arg_types=arg_types))
    out_type = arg_types[-1]
    add, mul = (
        (arith.AddfOp, arith.MulfOp)
        if isinstance(out_type, AnyFloat)
        else (arith.AddiOp, arith.MuliOp)
    )

    @Builder.implicit_region(arg_types)
    def hidden_region(args: tuple[BlockArgument, ...]) -> None:
        lhs = cast_signed(args[0], out_type)
        rhs = cast_signed(args[1], out_type)
        product = mul(lhs, rhs)
        xlinalg.YieldOp(add(args[2], product))

    return hidden_region


class _ContractionBase(NamedOperation):
    """A named contraction ``out += cast(U, in0) * cast(U, in1)`` (upstream OpDSL)."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]]
    RANKS: ClassVar[tuple[int, int, int]]

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if res is None:
            result_types = tuple(
                cast(AnyTensorType, output_type)
                for output in outputs
                if isinstance(output_type := output.type, TensorType)
            )
        else:
            result_types = res
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=result_types,
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return contraction_region(cls.body_arg_types((*inputs, *outputs)))

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return self.DEFAULT_MAPS

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        num_parallel = self.DEFAULT_MAPS[-1].num_dims - 1
        return ArrayAttr(
            [*(IteratorTypeAttr.parallel() for _ in range(num_parallel)), IteratorTypeAttr.reduction()]
        )

    def verify_(self) -> None:
        if len(self.inputs) != 2 or len(self.outputs) != 1:
            raise VerifyException(f"'{self.name}' expects 2 inputs and 1 output")
        for value, rank in zip((*self.inputs, *self.outputs), self.RANKS, strict=True):
            shape = value.type.get_shape() if hasattr(value.type, "get_shape") else ()
            if len(shape) != rank:
                raise VerifyException(
                    f"'{self.name}' expects operand types of ranks {self.RANKS}, got {value.type}"
                )
        _check_castable(self)
        super().verify_()


@irdl_op_definition
class VecmatOp(_ContractionBase):
    """``linalg.vecmat``: ``x[n] += y[m] * A[m, n]`` (inputs cast to the output type).

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgvecmat-linalgvecmatop.
    """

    name = "linalg.vecmat"
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda n, m: (m,)),
        AffineMap.from_callable(lambda n, m: (m, n)),
        AffineMap.from_callable(lambda n, m: (n,)),
    )
    RANKS: ClassVar[tuple[int, int, int]] = (1, 2, 1)


@irdl_op_definition
class MatvecOp(_ContractionBase):
    """``linalg.matvec``: ``x[m] += A[m, n] * y[n]`` (inputs cast to the output type).

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgmatvec-linalgmatvecop.
    """

    name = "linalg.matvec"
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda m, n: (m, n)),
        AffineMap.from_callable(lambda m, n: (n,)),
        AffineMap.from_callable(lambda m, n: (m,)),
    )
    RANKS: ClassVar[tuple[int, int, int]] = (2, 1, 1)


@irdl_op_definition
class BatchMatmulOp(_ContractionBase):
    """``linalg.batch_matmul``: ``C[b, m, n] += A[b, m, k] * B[b, k, n]`` (inputs cast to
    the output type), domain ``(b, m, n, k)``; torch-mlir emits it for a 3-D ``MatMul``.

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbatch_matmul-linalgbatchmatmulop.
    """

    name = "linalg.batch_matmul"
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda b, m, n, k: (b, m, k)),
        AffineMap.from_callable(lambda b, m, n, k: (b, k, n)),
        AffineMap.from_callable(lambda b, m, n, k: (b, m, n)),
    )
    RANKS: ClassVar[tuple[int, int, int]] = (3, 3, 3)


class MatmulOp(xlinalg.MatmulOp):
    """``linalg.matmul`` accepting mixed element types (``bf16 x bf16 -> f32``).

    The hidden body casts both inputs to the output element type before the
    multiply-accumulate, as upstream's OpDSL definition does. A plain subclass of
    xDSL's op: it inherits the IRDL definition, syntax and ``isinstance`` identity
    (xDSL cannot re-run ``irdl_op_definition`` on a derived op); only the body
    builder and the verifier differ.
    """

    name = "linalg.matmul"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return contraction_region(cls.body_arg_types((*inputs, *outputs)))

    def verify_(self) -> None:
        if len(self.inputs) != 2 or len(self.outputs) != 1:
            raise VerifyException("'linalg.matmul' expects 2 inputs and 1 output")
        _check_castable(self)
        super().verify_()



class QuantizedMatmulOp(xlinalg.QuantizedMatmulOp):
    """``linalg.quantized_matmul`` with upstream's body for any integer types:
    ``C[m, n] += (cast(U, A[m, k]) - cast(U, za)) * (cast(U, B[k, n]) - cast(U, zb))``.

    xDSL's class hard-codes ``extsi`` to i32 (invalid for i32 inputs, wrong for an i64
    output); this subclass casts like upstream's OpDSL ``cast_signed`` to the output type.
    """

    name = "linalg.quantized_matmul"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        if len(arg_types) != 5 or not all(isinstance(t, IntegerType) for t in arg_types):
            return Region(Block([xlinalg.YieldOp()], arg_types=arg_types))
        out_type = arg_types[-1]

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            a = arith.SubiOp(cast_signed(args[0], out_type), cast_signed(args[2], out_type))
            b = arith.SubiOp(cast_signed(args[1], out_type), cast_signed(args[3], out_type))
            xlinalg.YieldOp(arith.AddiOp(args[4], arith.MuliOp(a, b)))

        return hidden_region

    def verify_(self) -> None:
        if len(self.inputs) != 4 or len(self.outputs) != 1:
            raise VerifyException("'linalg.quantized_matmul' expects 4 inputs and 1 output")
        for value in (*self.inputs, *self.outputs):
            t = value.type
            element = t.get_element_type() if isinstance(t, ShapedType) else t
            if not isinstance(element, IntegerType):
                raise VerifyException(
                    f"'linalg.quantized_matmul' operand element type {element} is not an integer"
                )
        super().verify_()


class GenericOp(xlinalg.GenericOp):
    """``linalg.generic`` that also parses a parenthesised result type list.

    Upstream MLIR prints a multi-result generic as ``} -> (tensor<4xf32>, tensor<4xi64>)``
    (torch-mlir's ``ReduceMax`` / ``Softmax`` emit one: the max and its index); xDSL 0.75's
    parser reads only the bare list ``-> tensor<4xf32>, tensor<4xi64>`` (what it prints).
    This subclass accepts both; everything else is xDSL's op (same name, syntax otherwise,
    ``isinstance`` identity).
    """

    name = "linalg.generic"

    @classmethod
    def parse(cls, parser: Parser) -> GenericOp:
        pos = parser.pos
        attrs = parser.parse_optional_attr_dict()
        maps = attrs.pop("indexing_maps", None)
        its = attrs.pop("iterator_types", None)
        if not isinstance(maps, ArrayAttr) or not isinstance(its, ArrayAttr):
            parser.raise_error(
                "Expected indexing_maps and iterator_types for linalg.generic", pos, parser.pos
            )
        iterator_types: list[IteratorTypeAttr] = []
        for it in its.data:
            if isinstance(it, IteratorTypeAttr):
                iterator_types.append(it)
            elif isinstance(it, StringAttr) and it.data in {t.value for t in IteratorType}:
                iterator_types.append(IteratorTypeAttr(IteratorType(it.data)))
            else:
                parser.raise_error(f"Unknown iterator type {it}", pos, parser.pos)
        doc = attrs.pop("doc", None)
        library_call = attrs.pop("library_call", None)
        ins = _parse_operand_group(parser, "ins")
        outs = _parse_operand_group(parser, "outs")
        extra: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punctuation("=")
            extra = parser.expect(parser.parse_optional_attr_dict, "expect extra attributes")
        body = parser.parse_region()
        res_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            if parser.parse_optional_punctuation("(") is not None:
                res_types = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, parser.parse_type
                )
                parser.parse_punctuation(")")
            else:
                res_types = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, parser.parse_type
                )
        op = cls(
            ins, outs, body, ArrayAttr(maps.data), ArrayAttr(iterator_types), res_types,
            doc if isinstance(doc, StringAttr) else None,
            library_call if isinstance(library_call, StringAttr) else None,
        )
        op.attributes |= attrs | extra
        return op


def _parse_operand_group(parser: Parser, keyword: str) -> Sequence[SSAValue]:
    """``ins(%a, %b : t1, t2)`` / ``outs(...)``, or nothing."""
    pos = parser.pos
    if not parser.parse_optional_characters(keyword):
        return ()
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"{keyword}: {len(names)} operands but {len(types)} types", pos, parser.pos)
    return parser.resolve_operands(names, types, pos)
