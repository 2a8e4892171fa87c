"""Quantize an ONNX-imported f16 MLP layer to MX, lower it to PTO, run it, tabulate the error.

``make demo`` runs this after the flagship GEMV. For each format the weights of
``examples/mlp_f16.mlir`` (ONNX initializers, arriving as ``arith.constant``) are quantized
by ``pto-quantize-mx{format=...}``, the program is lowered with ``pto-lower`` (the GEMVs
become TGEMV_MX blocks: FP16 activations x MX weights with E8M0 scales, D2) and run by the
interpreter on one random input. The table compares the output y with the float program's
(the same MLIR, unquantized, run as linalg):

* ``weight bytes``: storage of W1 and W2 (codes + one E8M0 scale per 32 weights);
* ``weight err``: RMS of (dequantized - original) weights over RMS of the weights -- what the
  quantizer alone loses;
* ``y max|err|`` and ``y rel err`` (||y - y_float|| / ||y_float||): what reaches the output;
* ``vs numpy``: max |y - y_ref| where y_ref is numpy's evaluation of the layer with the
  dequantized weights (``interpreter.quantize.dequantize_mx``) -- near 0 means the PTO
  program computes exactly the quantized model, so the whole error is the quantization's.

``--check`` exits 1 unless every figure is within the bounds below (the lit test uses it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.passes import PassPipeline

from interpreter import run
from interpreter.quantize import dequantize_mx, quantize_mx
from interpreter.ssa.runner import build_context, load_module
from interpreter.ssa.upstream.arith import attr_to_value
from passes import get_all_passes

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE / "mlp_f16.mlir"
SYMBOL = "mlp"

FORMATS = [  # (row label, pass format or None, bytes per weight, bound on y rel err)
    ("f16", None, 2.0, 2e-3),
    ("MXFP8 E4M3", "mxfp8", 1 + 1 / 32, 0.08),
    ("MXFP8 E5M2", "mxfp8_e5m2", 1 + 1 / 32, 0.15),
    ("MXFP4 E2M1", "mxfp4", 0.5 + 1 / 32, 0.35),
]
VS_NUMPY_BOUND = 2**-8
"""|y - y_ref| bound relative to max|y|: f16 rounding of the intermediate h and of y."""


def weights(module) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The 2-d (weights) and 1-d (biases) float constants of the module, in order."""
    mats, vecs = [], []
    for op in module.walk():
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseIntOrFPElementsAttr):
            t = op.result.type
            if isinstance(t, TensorType) and t.get_num_dims() in (1, 2):
                v = attr_to_value(op.value, t).astype(np.float64)
                (mats if v.ndim == 2 else vecs).append(v)
    return mats, vecs


def layer(x: np.ndarray, w1, b1, w2, b2) -> np.ndarray:
    """The ONNX layer in numpy with the imported program's roundings (f32 sums, f16 values)."""
    f16 = lambda v: v.astype(np.float32).astype(np.float16).astype(np.float64)  # noqa: E731
    h = f16(np.maximum(f16(f16(x @ w1) + b1), 0))
    return f16(f16(h @ w2) + b2)


def lowered(fmt: str | None, ctx):
    module = load_module(EXAMPLE, ctx)
    spec = ("" if fmt is None else f"pto-quantize-mx{{format={fmt}}},") + "pto-lower"
    PassPipeline.parse_spec(get_all_passes(), spec).apply(ctx, module)
    return module


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a figure is out of bounds")
    args = ap.parse_args()
    ctx = build_context()
    source = load_module(EXAMPLE, ctx)
    (w1, w2), (b1, b2) = weights(source)
    x = np.random.default_rng(7).standard_normal((1, w1.shape[0])).astype(np.float16)
    (y_float,) = run(source, SYMBOL, x)
    y_float = y_float.astype(np.float64)

    print(f"{EXAMPLE.name}: y = relu(x @ W1 + b1) @ W2 + b2, x 1x{w1.shape[0]} f16, "
          f"W1 {w1.shape[0]}x{w1.shape[1]}, W2 {w2.shape[0]}x{w2.shape[1]}")
    print("float result: the same program unquantized, run as linalg by the interpreter\n")
    head = (f"{'format':<12} {'weight bytes':>12} {'weight err':>10} {'y max|err|':>10} "
            f"{'y rel err':>9} {'vs numpy':>9}")
    print(head)
    print("-" * len(head))
    ok = True
    n_weights = w1.size + w2.size
    for label, fmt, bytes_per, bound in FORMATS:
        (y,) = run(lowered(fmt, ctx), SYMBOL, x)
        y = y.astype(np.float64)
        if fmt is None:
            dq = [w1, w2]
        else:
            dq = [dequantize_mx(*quantize_mx(w, fmt, axis=0), axis=0) for w in (w1, w2)]
        w_err = np.sqrt(sum(((d - w) ** 2).sum() for d, w in zip(dq, (w1, w2)))
                        / sum((w**2).sum() for w in (w1, w2)))
        rel = np.linalg.norm(y - y_float) / np.linalg.norm(y_float)
        vs_ref = np.abs(y - layer(x.astype(np.float64), dq[0], b1, dq[1], b2)).max()
        print(f"{label:<12} {int(n_weights * bytes_per):>12} {w_err:>10.2e} "
              f"{np.abs(y - y_float).max():>10.2e} {rel:>9.2e} {vs_ref:>9.1e}")
        ok &= rel <= bound and vs_ref <= VS_NUMPY_BOUND * np.abs(y).max()
    print("\nweight err: the quantizer's own loss; y rel err: what reaches the output; "
          "vs numpy: the lowered\nPTO program against numpy with the dequantized weights "
          "(only f16 roundings differ).")
    print("OK" if ok else "OUT OF BOUNDS")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
