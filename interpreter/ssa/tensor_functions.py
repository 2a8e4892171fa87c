"""xDSL interpreter functions for the tensor-level PTO ops (``pto.gemv``, ``pto.matmul``,
``pto.floor_mod``, ``pto.elementwise``).

They let a program run between ``convert-linalg-to-pto`` and ``pto-tile-to-capacity``.
Each op is one call of the vectorised kernel of its PTO instruction on the whole tensor
(:func:`interpreter.kernels.tgemv_mx_bias`, :func:`interpreter.kernels.trem`), so the
tensor-level meaning is the instruction's meaning with no capacity limit: ``pto.gemv``
accumulates in FP32 (D4 ``ordered`` profile by default), ``pto.matmul`` is TMATMUL(_MX)_ACC on
the whole matrices, ``pto.floor_mod`` is TREM (D7, D8; an integer zero divisor is
``Fault_TileLegality``) and ``pto.elementwise`` the TADD ... TMIN kernel row.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from interpreter import kernels
from interpreter.kernels.profiles import numeric_profile
from pto_dialect.datatypes import TileDataType
from pto_dialect.postprocess import Fpatr, ReluMode
from pto_dialect.tensor_compare import CmpSelOp
from pto_dialect.tensor_map import MapOp
from pto_dialect.tensor_ops import ElementwiseOp, FloorModOp, GemvOp, MatmulOp

PRE_QUANT_FOR_OUTPUT = {TileDataType.FP32: 0, TileDataType.FP16: 1, TileDataType.BF16: 16}
"""PreQuantMode producing each ``pto.gemv`` result type (PTO-SPEC 3.3, D11)."""


def _row(x: Any, dt: TileDataType) -> np.ndarray:
    """A tensor as one ``1 x E`` row for a tile kernel; signless integer tensors hold signed
    numpy ints, so an integer ``dt`` gets the raw (unsigned) carriers of the type."""
    x = np.asarray(x).reshape(1, -1)
    return x.view(np.dtype(f"uint{x.dtype.itemsize * 8}")) if dt.is_integer else x


def _by_role(op: GemvOp | MatmulOp, args: tuple[Any, ...]) -> dict[str, Any]:
    """The contraction's operand values by role (``a``, ``b``, then the optional ones given)."""
    present = [r for r in op.OPTIONAL_ROLES if getattr(op, r) is not None]
    return dict(zip(["a", "b", *present], args))


@register_impls
class TensorPTOFunctions(InterpreterFunctions):
    """Interpreter functions of ``pto.gemv`` / ``pto.floor_mod``; ``profile`` as in D4."""

    def __init__(self, profile: str = "ordered"):
        self.profile = numeric_profile(profile)

    @impl(FloorModOp)
    def run_floor_mod(self, interpreter: Interpreter, op: FloorModOp, args: tuple[Any, ...]):
        a = np.asarray(args[0])
        # The kernel works on 2-D payloads: a contiguous tensor is one 1 x E row; TREM sees
        # the bits of a signless integer as dt (D8).
        r = np.asarray(kernels.trem(_row(a, op.dtype), _row(args[1], op.dtype), dtype=op.dtype))
        return ((r.view(a.dtype) if op.dtype.is_integer else r).reshape(a.shape),)

    @impl(GemvOp)
    def run_gemv(self, interpreter: Interpreter, op: GemvOp, args: tuple[Any, ...]):
        vals = _by_role(op, args)
        a = np.asarray(vals["a"]).reshape(1, op.k)
        scale = vals.get("a_scale")
        a_scale = None if scale is None else np.asarray(scale).reshape(1, -1)
        bias = vals.get("bias")
        bias = None if bias is None else np.asarray(bias).reshape(1, op.n)
        fpatr = Fpatr(
            pre_quant_mode=PRE_QUANT_FOR_OUTPUT[op.out_dtype],
            relu_mode=ReluMode.RELU.value if op.has_relu else 0,
        )
        d = kernels.tgemv_mx_bias(
            a,
            np.asarray(vals["b"]),
            bias,
            a_scale,
            vals.get("b_scale"),
            a_type=op.a_dtype,
            b_type=op.b_dtype,
            fpatr=fpatr,
            profile=self.profile,
        )
        shape = op.result.type.get_shape()  # type: ignore[union-attr]
        return (np.asarray(d).reshape(shape),)

    @impl(ElementwiseOp)
    def run_elementwise(self, interpreter: Interpreter, op: ElementwiseOp, args: tuple[Any, ...]):
        a, dt = np.asarray(args[0]), op.dtype
        row = kernels.BINARY_ROWS[op.mnemonic]
        r, _ = kernels.binary_tile(row, _row(a, dt), _row(args[1], dt), None, "null", dt)
        return (np.asarray(r).view(a.dtype).reshape(a.shape),)

    @impl(MapOp)
    def run_map(self, interpreter: Interpreter, op: MapOp, args: tuple[Any, ...]):
        a, dt = np.asarray(args[0]), op.dtype
        a2 = _row(a, dt)
        if not op.tile_op.TILE_ROLES:  # the fill (TEXPANDS): the tensor gives the shape only
            r, _ = kernels.KERNELS[op.tile_op.MNEMONIC](*args[1:], None, "null", dt, shape=a2.shape)
            return (np.asarray(r).view(a.dtype).reshape(a.shape),)
        r, _ = kernels.KERNELS[op.tile_op.MNEMONIC](a2, *args[1:], None, "null", dt)
        return (np.asarray(r).view(a.dtype).reshape(a.shape),)

    @impl(CmpSelOp)
    def run_cmpsel(self, interpreter: Interpreter, op: CmpSelOp, args: tuple[Any, ...]):
        """TCMP(S) then TSEL(S) on the whole tensor viewed as one row (raw carriers)."""
        a, b, t, f = args
        t = np.asarray(t)
        ct, dt = op.compare_dtype, op.data_dtype
        rhs = b if op.scalar_rhs else _row(b, ct)
        p, _ = kernels.KERNELS["TCMPS" if op.scalar_rhs else "TCMP"](
            _row(a, ct), rhs, None, "null", ct, cmode=op.mode.data)
        other = f if op.scalar_false else _row(f, dt)
        r, _ = kernels.KERNELS["TSELS" if op.scalar_false else "TSEL"](
            p, _row(t, dt), other, None, "null", dt)
        return (np.asarray(r).view(t.dtype).reshape(t.shape),)

    @impl(MatmulOp)
    def run_matmul(self, interpreter: Interpreter, op: MatmulOp, args: tuple[Any, ...]):
        vals = _by_role(op, args)
        acc = vals.get("acc")
        bias = vals.get("bias")
        # TMATMUL_MX_ACC (6) / TMATMUL_MX_BIAS (5) / TMATMUL_MX (4) on the whole problem: the
        # MX forms take every pto.matmul input type (D2) and round once to FP32 (D4); the
        # epilogue (ReLU, f16/bf16 conversion) is B.FPATR's, as on the last K chunk.
        fpatr = None
        if op.acc_dtype is TileDataType.FP32:
            fpatr = Fpatr(
                pre_quant_mode=PRE_QUANT_FOR_OUTPUT[op.out_dtype],
                relu_mode=ReluMode.RELU.value if op.has_relu else 0,
            )
        d = kernels.cube_matrix(
            6 if acc is not None else 5 if bias is not None else 4,
            np.asarray(vals["a"]),
            np.asarray(vals["b"]),
            c=None if acc is None else np.asarray(acc),
            bias=None if bias is None else np.asarray(bias).reshape(1, op.n),
            fpatr=fpatr,
            a_scale=vals.get("a_scale"),
            b_scale=vals.get("b_scale"),
            a_type=op.a_dtype,
            b_type=op.b_dtype,
            c_type=TileDataType.FP32 if acc is not None else None,
            profile=self.profile,
        )
        return (np.asarray(d).reshape(op.m, op.n),)
