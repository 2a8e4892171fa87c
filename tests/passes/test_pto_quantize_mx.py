"""pto-quantize-mx: the rewritten program runs as the quantized model (OCP MX v1.0, D1, D2).

The quantized, lowered program is compared with numpy evaluating the contraction with the
dequantized weights, whose codes/scales come from the quantizer API (tested bit for bit
against its Fraction reference in tests/interpreter/test_mx_quantize.py).
"""

import numpy as np
import pytest
from lowering_helpers import apply, parse
from xdsl.dialects import arith

from interpreter import run
from interpreter.quantize import dequantize_mx, quantize_mx
from passes.pto_lower import PTOLowerPass
from passes.pto_quantize_mx import PtoQuantizeMxPass
from pto_dialect import mx_quant


def dense(w: np.ndarray) -> str:
    rows = ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in w)
    return f"dense<[{rows}]>"


def matmul_program(w: np.ndarray, m: int) -> str:
    k, n = w.shape
    return f"""func.func @f(%a: tensor<{m}x{k}xf16>) -> tensor<{m}x{n}xf32> {{
  %w = arith.constant {dense(w)} : tensor<{k}x{n}xf16>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%a, %w : tensor<{m}x{k}xf16>, tensor<{k}x{n}xf16>) outs(%z : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}"""


@pytest.mark.parametrize("fmt", ["mxfp8", "mxfp8_e5m2", "mxfp4"])
@pytest.mark.parametrize("m, k, n", [(1, 70, 5), (3, 64, 4)])
def test_quantized_program_is_the_quantized_model(fmt, m, k, n):
    rng = np.random.default_rng(k + n)
    w = rng.standard_normal((k, n)).astype(np.float16).astype(np.float64)
    a = rng.standard_normal((m, k)).astype(np.float16)
    module = apply(PtoQuantizeMxPass(format=fmt), parse(matmul_program(w, m)))
    consts = [op for op in module.walk() if isinstance(op, arith.ConstantOp)]
    assert not any(op.name == "linalg.matmul" for op in module.walk())
    codes, scales = mx_quant.quantize(w, fmt, axis=0)
    got = {bytes(op.value.data.data) for op in consts if hasattr(op.value, "data")}
    assert codes.tobytes() in got and scales.tobytes() in got
    wq = dequantize_mx(*quantize_mx(w, fmt, axis=0), axis=0)
    want = a.astype(np.float64) @ wq
    (before,) = run(module, "f", a)
    (after,) = run(apply(PTOLowerPass(), module), "f", a)
    np.testing.assert_allclose(before, want, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(after, want, rtol=1e-6, atol=1e-6)


def test_option_errors():
    with pytest.raises(ValueError, match="not an MX element format"):
        PtoQuantizeMxPass(format="fp9").element()
    with pytest.raises(ValueError, match="cannot be a constant GEMV weight"):
        PtoQuantizeMxPass(format="E3M2").element()
