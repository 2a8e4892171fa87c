"""Upstream ``linalg`` convolution and pooling ops, as one family described by a table.

Every op slides a window over spatial input dimensions. Each is one row of
:data:`WINDOW_OPS`: its name, its body kind and its upstream OpDSL definition written as
loop-dimension names (``oh+kh`` is ``oh * stride + kh * dilation`` for the spatial pair's
stride and dilation; pairs are numbered in order of appearance)::

    conv   O[...] = O[...] + cast(U, I[...]) * cast(U, K[...])    (ints signed)
    sum    O[...] = O[...] + cast(U, I[...])                       (K only gives the window)
    max    O[...] = max(O[...], cast(U, I[...]))    maximumf on floats, maxsi on ints
    min    O[...] = min(O[...], cast(U, I[...]))    minimumf on floats, minsi on ints

A loop dimension the output does not index is a reduction, iterated in the domain order
(the order ``pto-run`` accumulates in). Syntax, as upstream prints it::

    %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
                                   strides = dense<2> : vector<2xi64>}
           ins(%x, %w : tensor<1x4x9x9xf16>, tensor<8x4x3x3xf16>)
           outs(%acc : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>

``strides`` / ``dilations`` may be omitted (all ones). Why not xDSL's classes: xDSL 0.75's
conv ops build their body with ``assert isinstance(out, IntegerType)`` whenever the input
and output element types differ, so an ``f16 x f16 -> f32`` convolution (what torch-mlir
emits for an f16 ``Conv``) failed to parse with a bare ``AssertionError``; its
``pooling_nchw_max`` body takes the max of the input and the *window* operand instead of
the output; and it lacks the depthwise ops, the 1-D ops and every ``pooling_*`` but one.
Upstream reference: https://mlir.llvm.org/docs/Dialects/Linalg/ (the named ops of
``core_named_ops.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntElementsAttr,
    IntegerType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def
from xdsl.utils.exceptions import VerifyException

from .ops import cast_signed, contraction_region

__all__ = ["WindowSpec", "WINDOW_OPS", "WindowOperation", "WINDOW_OP_CLASSES", "window_spec"]


@dataclass(frozen=True)
class WindowSpec:
    """One row: an upstream window op's OpDSL definition (see the module docstring)."""

    name: str
    kind: str  # conv | sum | max | min
    domain: str
    input: str
    kernel: str
    output: str

    @property
    def dims(self) -> list[str]:
        return self.domain.split()

    @property
    def spatial(self) -> int:
        return self.input.count("+")

    def maps(self, strides: Sequence[int], dilations: Sequence[int]) -> tuple[AffineMap, ...]:
        dims = {d: AffineDimExpr(i) for i, d in enumerate(self.dims)}
        pair = iter(range(self.spatial))

        def expr(term: str) -> AffineExpr:
            if "+" in term:
                o, k = term.split("+")
                i = next(pair)
                return dims[o] * strides[i] + dims[k] * dilations[i]
            return dims[term]

        n = len(self.dims)
        return tuple(
            AffineMap(n, 0, tuple(expr(t) for t in s.split()))
            for s in (self.input, self.kernel, self.output)
        )

    def reductions(self) -> list[str]:
        out = set(self.output.split())
        return [d for d in self.dims if d not in out]


WINDOW_OPS: tuple[WindowSpec, ...] = (
    WindowSpec("linalg.conv_1d_ncw_fcw", "conv", "n f ow c kw", "n c ow+kw", "f c kw", "n f ow"),
    WindowSpec("linalg.conv_1d_nwc_wcf", "conv", "n ow f kw c", "n ow+kw c", "kw c f", "n ow f"),
    WindowSpec("linalg.conv_2d_nchw_fchw", "conv", "n f oh ow c kh kw",
               "n c oh+kh ow+kw", "f c kh kw", "n f oh ow"),
    WindowSpec("linalg.conv_2d_nhwc_hwcf", "conv", "n oh ow f kh kw c",
               "n oh+kh ow+kw c", "kh kw c f", "n oh ow f"),
    WindowSpec("linalg.conv_2d_nhwc_fhwc", "conv", "n oh ow f kh kw c",
               "n oh+kh ow+kw c", "f kh kw c", "n oh ow f"),
    WindowSpec("linalg.conv_2d_ngchw_fgchw", "conv", "n g f oh ow c kh kw",
               "n g c oh+kh ow+kw", "f g c kh kw", "n g f oh ow"),
    WindowSpec("linalg.conv_2d_ngchw_gfchw", "conv", "n g f oh ow c kh kw",
               "n g c oh+kh ow+kw", "g f c kh kw", "n g f oh ow"),
    WindowSpec("linalg.depthwise_conv_1d_ncw_cw", "conv", "n ow c kw", "n c ow+kw", "c kw", "n c ow"),
    WindowSpec("linalg.depthwise_conv_1d_nwc_wc", "conv", "n ow c kw", "n ow+kw c", "kw c", "n ow c"),
    WindowSpec("linalg.depthwise_conv_2d_nchw_chw", "conv", "n oh ow c kh kw",
               "n c oh+kh ow+kw", "c kh kw", "n c oh ow"),
    WindowSpec("linalg.depthwise_conv_2d_nhwc_hwc", "conv", "n oh ow c kh kw",
               "n oh+kh ow+kw c", "kh kw c", "n oh ow c"),
    *(
        WindowSpec(f"linalg.pooling_nchw_{k}", k, "n c oh ow kh kw", "n c oh+kh ow+kw", "kh kw", "n c oh ow")
        for k in ("sum", "max")
    ),
    *(
        WindowSpec(f"linalg.pooling_nhwc_{k}", k, "n oh ow c kh kw", "n oh+kh ow+kw c", "kh kw", "n oh ow c")
        for k in ("sum", "max", "min")
    ),
    *(
        WindowSpec(f"linalg.pooling_ncw_{k}", k, "n c ow kw", "n c ow+kw", "kw", "n c ow")
        for k in ("sum", "max")
    ),
    *(
        WindowSpec(f"linalg.pooling_nwc_{k}", k, "n ow c kw", "n ow+kw c", "kw", "n ow c")
        for k in ("sum", "max", "min")
    ),
)
"""The window ops, one row each (upstream ``core_named_ops.py``)."""

_FLOAT_BODY = {"max": arith.MaximumfOp, "min": arith.MinimumfOp}
_INT_BODY = {"max": arith.MaxSIOp, "min": arith.MinSIOp}


def _window_region(kind: str, arg_types: Sequence[Attribute]) -> Region:
    if kind == "conv" or len(arg_types) != 3:
        return contraction_region(arg_types)
    out_type = arg_types[-1]
    is_float = isinstance(out_type, AnyFloat)

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        value = cast_signed(args[0], out_type)
        if kind == "sum":
            result = (arith.AddfOp if is_float else arith.AddiOp)(args[2], value)
        else:
            result = (_FLOAT_BODY if is_float else _INT_BODY)[kind](args[2], value)
        xlinalg.YieldOp(result)

    return body


class WindowOperation(NamedOperation):
    """Base of the convolution and pooling ops: the row :attr:`SPEC` defines the op."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    SPEC: ClassVar[WindowSpec]

    strides = opt_prop_def(DenseIntElementsAttr)
    dilations = opt_prop_def(DenseIntElementsAttr)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        *,
        strides: DenseIntElementsAttr | None = None,
        dilations: DenseIntElementsAttr | None = None,
    ):
        if res is None:
            res = [o.type for o in outputs if isinstance(o.type, TensorType)]
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=res,
            attributes=attributes,
            properties={"strides": strides, "dilations": dilations},
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        if len(inputs) != 2 or len(outputs) != 1:
            # Malformed op: an empty body; verify_ names the expected operands.
            return Region(Block([xlinalg.YieldOp()], arg_types=cls.body_arg_types((*inputs, *outputs))))
        return _window_region(cls.SPEC.kind, cls.body_arg_types((*inputs, *outputs)))

    def window_values(self, attr: DenseIntElementsAttr | None) -> tuple[int, ...]:
        n = self.SPEC.spatial
        if attr is None:
            return (1,) * n
        return tuple(int(v) for v in attr.get_values())

    @property
    def stride_values(self) -> tuple[int, ...]:
        return self.window_values(self.strides)

    @property
    def dilation_values(self) -> tuple[int, ...]:
        return self.window_values(self.dilations)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        s, d = self.stride_values, self.dilation_values
        n = self.SPEC.spatial
        if len(s) != n or len(d) != n:  # verify_ reports it; keep the maps well formed
            s, d = (1,) * n, (1,) * n
        return self.SPEC.maps(s, d)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        red = set(self.SPEC.reductions())
        return ArrayAttr(
            IteratorTypeAttr.reduction() if d in red else IteratorTypeAttr.parallel()
            for d in self.SPEC.dims
        )

    def verify_(self) -> None:
        spec = self.SPEC
        if len(self.inputs) != 2 or len(self.outputs) != 1:
            raise VerifyException(f"'{self.name}' expects 2 inputs and 1 output")
        for what, attr in (("strides", self.strides), ("dilations", self.dilations)):
            vals = self.window_values(attr)
            if len(vals) != spec.spatial or any(v < 1 for v in vals):
                raise VerifyException(
                    f"'{self.name}' {what} must be {spec.spatial} positive integers, got {list(vals)}"
                )
        ranks = [len(s.split()) for s in (spec.input, spec.kernel, spec.output)]
        for value, rank in zip((*self.inputs, *self.outputs), ranks, strict=True):
            t = value.type
            if not isinstance(t, ShapedType) or len(t.get_shape()) != rank:
                raise VerifyException(
                    f"'{self.name}' expects operand ranks {tuple(ranks)}, got {t}"
                )
            element = t.get_element_type()
            if not isinstance(element, AnyFloat | IntegerType):
                raise VerifyException(
                    f"'{self.name}' operand element type {element} is neither integer nor float"
                )
        super().verify_()


def _make_class(spec: WindowSpec) -> type[Operation]:
    camel = "".join(p.capitalize() for p in spec.name.removeprefix("linalg.").split("_")) + "Op"
    doc = (
        f"``{spec.name}``: {spec.kind} over the window, ``O[{spec.output}]`` from "
        f"``I[{spec.input}]`` and ``K[{spec.kernel}]``, domain ``({spec.domain})`` (see "
        "the module docstring for the body and the ``+`` notation)."
    )
    cls = type(camel, (WindowOperation,), {
        "name": spec.name, "SPEC": spec, "__doc__": doc, "__module__": __name__,
        "__annotations__": {"SPEC": ClassVar[WindowSpec]},
    })
    return irdl_op_definition(cls)


WINDOW_OP_CLASSES: tuple[type[Operation], ...] = tuple(_make_class(s) for s in WINDOW_OPS)
"""One op class per row of :data:`WINDOW_OPS`, in the same order."""


def window_spec(op: Operation) -> WindowSpec | None:
    """The row of a window op, None for any other op."""
    return op.SPEC if isinstance(op, WindowOperation) else None
