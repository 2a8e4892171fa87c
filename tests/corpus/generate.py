"""Regenerate the frontend corpus: small ONNX models -> linalg-on-tensors MLIR + data.

Run with a generation venv (never needed by CI; the outputs are committed), made once with
``python -m venv genvenv && genvenv/bin/pip install iree-base-compiler==3.13.0 onnx==1.23.2
onnxruntime==1.32.0 numpy ml_dtypes`` (the versions that made the committed data)::

    genvenv/bin/python tests/corpus/generate.py            # every case
    genvenv/bin/python tests/corpus/generate.py mlp_f32    # some cases

Per case ``NAME`` it writes:

* ``programs/NAME.mlir`` — what ``iree-import-onnx`` and then ``iree-opt
  --pass-pipeline='builtin.module(torch-onnx-to-torch-backend-pipeline,
  torch-backend-to-linalg-on-tensors-backend-pipeline)'`` emit (the function is ``@main``);
* ``data/NAME.npz`` — ``arg0, arg1, ...`` (inputs) and ``result0`` (onnxruntime's output, or
  ``onnx.reference``'s where onnxruntime has no CPU kernel, e.g. bf16). Element types npz
  cannot store (bf16) are stored as their uint16 bit patterns, u8 as the int8 of the same
  bits (the imported program's ``i8``);
* one line of ``manifest.json``: the case's ``compare`` class (``exact``: bit for bit;
  ``contraction``: within the contraction bound; ``transcendental``: a few ulps),
  the reference used and the ONNX ops.

The models are built with ``onnx.helper``; every case is one row of :data:`CASES`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.dirname(sys.executable)
PIPELINE = (
    "builtin.module(torch-onnx-to-torch-backend-pipeline,"
    "torch-backend-to-linalg-on-tensors-backend-pipeline)"
)
OPSET = 17

ONNX_TYPE = {
    "f32": TP.FLOAT, "f16": TP.FLOAT16, "bf16": TP.BFLOAT16, "i8": TP.INT8, "u8": TP.UINT8,
    "i16": TP.INT16, "i32": TP.INT32, "i64": TP.INT64, "bool": TP.BOOL,
}
NP_TYPE = {
    "f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "i8": np.int8,
    "u8": np.uint8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "bool": np.bool_,
}


@dataclass
class Case:
    """One corpus program: ONNX nodes over named inputs, with their types and shapes."""

    name: str
    nodes: list
    inputs: list[tuple[str, str, tuple[int, ...]]]
    output: tuple[str, str, tuple[int, ...]]
    compare: str = "exact"
    consts: dict[str, np.ndarray] = field(default_factory=dict)
    gen: dict[str, str] = field(default_factory=dict)  # input name -> value range kind


def _rand(rng: np.random.Generator, dtype: str, shape, kind: str) -> np.ndarray:
    np_t = NP_TYPE[dtype]
    if dtype.startswith(("i", "u")):
        info = np.iinfo(np_t)
        lo, hi = max(info.min, -100), min(info.max, 100)
        if kind == "nonzero":
            v = rng.integers(1, hi, size=shape) * rng.choice([-1, 1], size=shape)
            if info.min == 0:
                v = np.abs(v)
            return v.astype(np_t)
        if kind == "small":
            lo, hi = max(info.min, -8), min(info.max, 8)
        if kind.startswith("index:"):  # an index into a dimension of this size
            return rng.integers(0, int(kind[6:]), size=shape).astype(np_t)
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(np_t)
    if kind == "positive":
        v = rng.uniform(0.1, 4.0, size=shape)
    elif kind == "nonzero":
        v = rng.uniform(0.5, 4.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)
    else:
        v = rng.uniform(-3.0, 3.0, size=shape)
    return v.astype(np.float32).astype(np_t)


def _model(case: Case) -> onnx.ModelProto:
    ins = [helper.make_tensor_value_info(n, ONNX_TYPE[t], list(s)) for n, t, s in case.inputs]
    on, ot, os_ = case.output
    out = helper.make_tensor_value_info(on, ONNX_TYPE[ot], list(os_))
    inits = [numpy_helper.from_array(v, k) for k, v in case.consts.items()]
    g = helper.make_graph(case.nodes, "main", ins, [out], initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def _reference(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> tuple[np.ndarray, str]:
    try:
        import onnxruntime as ort

        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        return sess.run(None, feeds)[0], "onnxruntime"
    except Exception:
        from onnx.reference import ReferenceEvaluator

        return ReferenceEvaluator(model).run(None, feeds)[0], "onnx.reference"


def _import(model: onnx.ModelProto) -> str:
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "m.onnx")
        torch_mlir = os.path.join(d, "m.torch.mlir")
        out = os.path.join(d, "m.mlir")
        onnx.save(model, src)
        subprocess.run([os.path.join(BIN, "iree-import-onnx"), src, "-o", torch_mlir], check=True)
        subprocess.run(
            [os.path.join(BIN, "iree-opt"), f"--pass-pipeline={PIPELINE}", torch_mlir, "-o", out],
            check=True,
        )
        with open(out) as f:
            return f.read()


def _storable(a: np.ndarray) -> np.ndarray:
    """bf16 as its uint16 bit patterns (npz cannot store ml_dtypes types); u8 as the i8
    with the same bits (torch-mlir imports ``ui8`` as signless ``i8``, which our tools run
    as int8)."""
    if a.dtype == ml_dtypes.bfloat16:
        return a.view(np.uint16)
    if a.dtype == np.uint8:
        return a.view(np.int8)
    return np.asarray(a)


def build(case: Case, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    model = _model(case)
    feeds = {n: _rand(rng, t, s, case.gen.get(n, "any")) for n, t, s in case.inputs}
    expected, ref = _reference(model, feeds)
    text = _import(model)
    header = (
        f"// Corpus program '{case.name}' (tests/corpus/generate.py): ONNX "
        f"{', '.join(sorted({n.op_type for n in case.nodes}))} imported with iree-import-onnx +\n"
        "// torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline.\n"
    )
    with open(os.path.join(HERE, "programs", f"{case.name}.mlir"), "w") as f:
        f.write(header + text)
    arrays = {f"arg{i}": _storable(feeds[n]) for i, (n, _, _) in enumerate(case.inputs)}
    arrays["result0"] = _storable(np.asarray(expected).astype(NP_TYPE[case.output[1]]))
    np.savez_compressed(os.path.join(HERE, "data", f"{case.name}.npz"), **arrays)
    return {
        "name": case.name,
        "compare": case.compare,
        "reference": ref,
        "onnx_ops": sorted({n.op_type for n in case.nodes}),
        "bf16": [k for k, v in zip(arrays, [*feeds.values(), expected]) if np.asarray(v).dtype == ml_dtypes.bfloat16],
    }


# ------------------------------------------------------------------------------------------
# The cases
# ------------------------------------------------------------------------------------------

N = helper.make_node


def binary(op: str, t: str, shape_a, shape_b, out_shape=None, *, name=None, **attrs) -> Case:
    gen = {"b": "nonzero"} if op in ("Div", "Mod") else {}
    nm = name or f"{op.lower()}_{t}"
    return Case(
        nm,
        [N(op, ["a", "b"], ["y"], **attrs)],
        [("a", t, tuple(shape_a)), ("b", t, tuple(shape_b))],
        ("y", t, tuple(out_shape or shape_a)),
        gen=gen,
    )


def binary_const(op: str, t: str, shape, value, *, name: str) -> Case:
    c = np.full((), value, dtype=NP_TYPE[t])
    return Case(
        name,
        [N(op, ["a", "c"], ["y"])],
        [("a", t, tuple(shape))],
        ("y", t, tuple(shape)),
        consts={"c": c},
    )


def unary(op: str, t: str, shape=(4, 16), gen="any", compare="exact", **attrs) -> Case:
    return Case(
        f"{op.lower()}_{t}",
        [N(op, ["a"], ["y"], **attrs)],
        [("a", t, shape)],
        ("y", t, shape),
        compare=compare,
        gen={"a": gen},
    )


def matmul(name: str, t: str, sa, sb, so, out_t=None) -> Case:
    return Case(
        name,
        [N("MatMul", ["a", "b"], ["y"])],
        [("a", t, sa), ("b", t, sb)],
        ("y", out_t or t, so),
        compare="contraction",
    )


def _cases() -> list[Case]:
    cs: list[Case] = [
        matmul("matmul_1xk_f32", "f32", (1, 40), (40, 16), (1, 16)),
        matmul("matmul_mxk_f32", "f32", (8, 40), (40, 16), (8, 16)),
        matmul("matmul_1xk_f16", "f16", (1, 64), (64, 16), (1, 16)),
        matmul("matmul_mxk_f16", "f16", (8, 64), (64, 16), (8, 16)),
        matmul("matmul_1xk_bf16", "bf16", (1, 64), (64, 16), (1, 16)),
        matmul("matmul_mxk_bf16", "bf16", (8, 64), (64, 16), (8, 16)),
        Case(
            "matmulinteger_1xk_i8",
            [N("MatMulInteger", ["a", "b"], ["y"])],
            [("a", "i8", (1, 40)), ("b", "i8", (40, 16))],
            ("y", "i32", (1, 16)),
        ),
        Case(
            "matmulinteger_mxk_i8",
            [N("MatMulInteger", ["a", "b"], ["y"])],
            [("a", "i8", (8, 40)), ("b", "i8", (40, 16))],
            ("y", "i32", (8, 16)),
        ),
        matmul("matmul_k50_f32", "f32", (4, 50), (50, 8), (4, 8)),
        matmul("matmul_batched_f32", "f32", (2, 4, 40), (2, 40, 8), (2, 4, 8)),
        matmul("matmul_3d_f32", "f32", (2, 4, 40), (40, 8), (2, 4, 8)),
        Case(
            "gemm_bias_transb0_f32",
            [N("Gemm", ["a", "b", "c"], ["y"], transB=0)],
            [("a", "f32", (4, 40)), ("b", "f32", (40, 16)), ("c", "f32", (16,))],
            ("y", "f32", (4, 16)),
            compare="contraction",
        ),
        Case(
            "gemm_bias_transb1_f32",
            [N("Gemm", ["a", "b", "c"], ["y"], transB=1)],
            [("a", "f32", (4, 40)), ("b", "f32", (16, 40)), ("c", "f32", (16,))],
            ("y", "f32", (4, 16)),
            compare="contraction",
        ),
        Case(
            "gemm_bias_transb1_1xk_f32",
            [N("Gemm", ["a", "b", "c"], ["y"], transB=1)],
            [("a", "f32", (1, 40)), ("b", "f32", (16, 40)), ("c", "f32", (16,))],
            ("y", "f32", (1, 16)),
            compare="contraction",
        ),
        Case(
            "mlp_f32",
            [
                N("MatMul", ["x", "w"], ["h"]),
                N("Add", ["h", "bias"], ["z"]),
                N("Relu", ["z"], ["y"]),
            ],
            [("x", "f32", (4, 40)), ("w", "f32", (40, 16)), ("bias", "f32", (16,))],
            ("y", "f32", (4, 16)),
            compare="contraction",
        ),
        Case(
            "mlp_1xk_f16",
            [
                N("MatMul", ["x", "w"], ["h"]),
                N("Add", ["h", "bias"], ["z"]),
                N("Relu", ["z"], ["y"]),
            ],
            [("x", "f16", (1, 64)), ("w", "f16", (64, 16)), ("bias", "f16", (16,))],
            ("y", "f16", (1, 16)),
            compare="contraction",
        ),
    ]
    # Elementwise binary ops on every integer and float type, same shape.
    for op in ("Add", "Sub", "Mul", "Div", "Max", "Min"):
        for t in ("i16", "i32", "i64", "f16", "f32"):
            cs.append(binary(op, t, (4, 16), (4, 16)))
    for t in ("i16", "i32", "i64"):
        cs.append(binary("Mod", t, (4, 16), (4, 16), name=f"mod_fmod0_{t}", fmod=0))
        cs.append(binary("Mod", t, (4, 16), (4, 16), name=f"mod_fmod1_{t}", fmod=1))
    for t in ("f16", "f32"):
        cs.append(binary("Mod", t, (4, 16), (4, 16), name=f"mod_fmod1_{t}", fmod=1))
    # Broadcasting (a row vector, a column, a scalar tensor) and constants.
    cs += [
        binary("Add", "f32", (4, 16), (16,), name="add_bcast_row_f32"),
        binary("Sub", "i32", (4, 16), (4, 1), name="sub_bcast_col_i32"),
        binary("Mul", "f16", (4, 16), (1,), name="mul_bcast_scalar_f16"),
        binary("Max", "f32", (4, 16), (16,), name="max_bcast_row_f32"),
        binary("Div", "i64", (4, 16), (16,), name="div_bcast_row_i64"),
        binary("Mod", "i32", (4, 16), (16,), name="mod_fmod0_bcast_row_i32", fmod=0),
        binary_const("Add", "f32", (4, 16), 1.5, name="add_const_f32"),
        binary_const("Mul", "i16", (4, 16), 3, name="mul_const_i16"),
        binary_const("Min", "f32", (4, 16), 0.25, name="min_const_f32"),
        binary_const("Div", "f32", (4, 16), 4.0, name="div_const_f32"),
    ]
    # Unary ops.
    cs += [
        unary("Abs", "f32"),
        unary("Abs", "i32"),
        unary("Neg", "f32"),
        unary("Neg", "i16"),
        unary("Exp", "f32", compare="transcendental"),
        unary("Log", "f32", gen="positive", compare="transcendental"),
        unary("Sqrt", "f32", gen="positive"),
        unary("Reciprocal", "f32", gen="nonzero"),
        unary("Relu", "f32"),
        unary("Relu", "f16"),
        unary("LeakyRelu", "f32", alpha=0.125),
        unary("Floor", "f32"),
        unary("Ceil", "f32"),
        unary("Tanh", "f32", compare="transcendental"),
        unary("Erf", "f32", compare="transcendental"),
        unary("Sigmoid", "f32", compare="transcendental"),
    ]
    # Casts (torch-mlir 2025 cannot import an ONNX Cast to int16: not in the corpus).
    for src, dst in (("f32", "f16"), ("f16", "f32"), ("f32", "bf16"), ("f32", "i32"), ("i32", "f32"), ("i16", "i32")):
        cs.append(
            Case(
                f"cast_{src}_to_{dst}",
                [N("Cast", ["a"], ["y"], to=ONNX_TYPE[dst])],
                [("a", src, (4, 16))],
                ("y", dst, (4, 16)),
            )
        )
    # Reductions, softmax, layer normalisation.
    cs += [
        Case(
            "reducesum_f32",
            [N("ReduceSum", ["a", "axes"], ["y"], keepdims=1)],
            [("a", "f32", (4, 16))],
            ("y", "f32", (4, 1)),
            consts={"axes": np.array([1], np.int64)},
            compare="contraction",
        ),
        Case(
            "reducesum_i32",
            [N("ReduceSum", ["a", "axes"], ["y"], keepdims=0)],
            [("a", "i32", (4, 16))],
            ("y", "i32", (16,)),
            consts={"axes": np.array([0], np.int64)},
        ),
        Case(
            "reducemax_f32",
            [N("ReduceMax", ["a"], ["y"], axes=[1], keepdims=1)],
            [("a", "f32", (4, 16))],
            ("y", "f32", (4, 1)),
        ),
        Case(
            "softmax_f32",
            [N("Softmax", ["a"], ["y"], axis=-1)],
            [("a", "f32", (4, 16))],
            ("y", "f32", (4, 16)),
            compare="transcendental",
        ),
        Case(
            "layernorm_f32",
            [N("LayerNormalization", ["a", "g", "b"], ["y"], axis=-1, epsilon=1e-5)],
            [("a", "f32", (4, 16)), ("g", "f32", (16,)), ("b", "f32", (16,))],
            ("y", "f32", (4, 16)),
            compare="transcendental",
        ),
    ]
    cs += _model_cases_cnn_rnn_quant()
    return cs


def _w(shape, seed: int, scale: float = 0.5, t: str = "f32") -> np.ndarray:
    """A small deterministic weight tensor (model constants)."""
    v = np.random.default_rng(seed).uniform(-scale, scale, size=shape)
    return v.astype(np.float32).astype(NP_TYPE[t])


def _bn(prefix: str, c: int, seed: int, t: str = "f32") -> dict[str, np.ndarray]:
    """BatchNormalization parameters (scale, bias, mean, positive variance)."""
    r = np.random.default_rng(seed)
    return {
        f"{prefix}_s": r.uniform(0.5, 1.5, c).astype(NP_TYPE[t]),
        f"{prefix}_b": r.uniform(-0.5, 0.5, c).astype(NP_TYPE[t]),
        f"{prefix}_m": r.uniform(-0.5, 0.5, c).astype(NP_TYPE[t]),
        f"{prefix}_v": r.uniform(0.5, 2.0, c).astype(NP_TYPE[t]),
    }


def _bn_node(x: str, prefix: str, y: str):
    return N("BatchNormalization", [x, f"{prefix}_s", f"{prefix}_b", f"{prefix}_m", f"{prefix}_v"], [y],
             epsilon=1e-5)


def _model_cases_cnn_rnn_quant() -> list[Case]:
    """Whole small models (issue 28): CNNs, recurrent cells, int8 quantized linears."""
    cs: list[Case] = []
    # MNIST-like CNN: conv, BatchNorm, ReLU, max pool, global average pool, Gemm.
    cs.append(Case(
        "model_cnn_f32",
        [
            N("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
            _bn_node("c1", "bn1", "n1"),
            N("Relu", ["n1"], ["r1"]),
            N("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
            N("Conv", ["p1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], kernel_shape=[3, 3], strides=[2, 2]),
            N("Relu", ["c2"], ["r2"]),
            N("GlobalAveragePool", ["r2"], ["g"]),
            N("Flatten", ["g"], ["f"]),
            N("Gemm", ["f", "wf", "bf"], ["y"], transB=1),
        ],
        [("x", "f32", (1, 1, 8, 8))],
        ("y", "f32", (1, 10)),
        compare="contraction",
        consts={
            "w1": _w((4, 1, 3, 3), 1), "b1": _w((4,), 2), **_bn("bn1", 4, 3),
            "w2": _w((8, 4, 3, 3), 4), "b2": _w((8,), 5),
            "wf": _w((10, 8), 6), "bf": _w((10,), 7),
        },
    ))
    # Depthwise-separable convolution with BatchNorm (MobileNet block).
    cs.append(Case(
        "model_dwsep_conv_f32",
        [
            N("Conv", ["x", "wd"], ["d"], pads=[1, 1, 1, 1], kernel_shape=[3, 3], group=4),
            _bn_node("d", "bn1", "n1"),
            N("Relu", ["n1"], ["r1"]),
            N("Conv", ["r1", "wp"], ["p"], kernel_shape=[1, 1]),
            _bn_node("p", "bn2", "n2"),
            N("Relu", ["n2"], ["y"]),
        ],
        [("x", "f32", (1, 4, 6, 6))],
        ("y", "f32", (1, 8, 6, 6)),
        compare="contraction",
        consts={"wd": _w((4, 1, 3, 3), 11), "wp": _w((8, 4, 1, 1), 12), **_bn("bn1", 4, 13),
                **_bn("bn2", 8, 14)},
    ))
    # ResNet basic block in f16: conv-BN-ReLU-conv-BN, identity shortcut, ReLU.
    cs.append(Case(
        "model_resnet_block_f16",
        [
            N("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
            _bn_node("c1", "bn1", "n1"),
            N("Relu", ["n1"], ["r1"]),
            N("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
            _bn_node("c2", "bn2", "n2"),
            N("Add", ["n2", "x"], ["s"]),
            N("Relu", ["s"], ["y"]),
        ],
        [("x", "f16", (1, 4, 6, 6))],
        ("y", "f16", (1, 4, 6, 6)),
        compare="contraction",
        consts={"w1": _w((4, 4, 3, 3), 21, 0.3, "f16"), "w2": _w((4, 4, 3, 3), 22, 0.3, "f16"),
                **_bn("bn1", 4, 23, "f16"), **_bn("bn2", 4, 24, "f16")},
    ))
    # LSTM cell written out: gates = x W + h R + b; i, f, g, o; c' = f c + i g; h' = o tanh(c').
    hid = 8
    cs.append(Case(
        "model_lstm_cell_f32",
        [
            N("MatMul", ["x", "W"], ["xw"]),
            N("MatMul", ["h", "R"], ["hr"]),
            N("Add", ["xw", "hr"], ["s0"]),
            N("Add", ["s0", "B"], ["gates"]),
            N("Split", ["gates", "split"], ["gi", "gf", "gg", "go"], axis=1),
            N("Sigmoid", ["gi"], ["i"]),
            N("Sigmoid", ["gf"], ["f"]),
            N("Tanh", ["gg"], ["g"]),
            N("Sigmoid", ["go"], ["o"]),
            N("Mul", ["f", "c"], ["fc"]),
            N("Mul", ["i", "g"], ["ig"]),
            N("Add", ["fc", "ig"], ["c2"]),
            N("Tanh", ["c2"], ["tc"]),
            N("Mul", ["o", "tc"], ["y"]),
        ],
        [("x", "f32", (1, 4)), ("h", "f32", (1, hid)), ("c", "f32", (1, hid))],
        ("y", "f32", (1, hid)),
        compare="contraction",
        consts={"W": _w((4, 4 * hid), 31), "R": _w((hid, 4 * hid), 32), "B": _w((4 * hid,), 33),
                "split": np.array([hid] * 4, np.int64)},
    ))
    # The ONNX LSTM op: two time steps, batch 1; the last hidden state.
    cs.append(Case(
        "model_lstm_onnx_f32",
        [N("LSTM", ["x", "W", "R", "B"], ["", "y"], hidden_size=hid)],
        [("x", "f32", (2, 1, 4))],
        ("y", "f32", (1, 1, hid)),
        compare="contraction",
        consts={"W": _w((1, 4 * hid, 4), 34), "R": _w((1, 4 * hid, hid), 35),
                "B": _w((1, 8 * hid), 36)},
    ))
    # GRU cell written out (linear_before_reset = 1, PyTorch's form).
    cs.append(Case(
        "model_gru_cell_f32",
        [
            N("MatMul", ["x", "W"], ["xw0"]),
            N("Add", ["xw0", "Bw"], ["xw"]),
            N("MatMul", ["h", "R"], ["hr0"]),
            N("Add", ["hr0", "Br"], ["hr"]),
            N("Split", ["xw", "split"], ["xz", "xr", "xn"], axis=1),
            N("Split", ["hr", "split"], ["hz", "hrr", "hn"], axis=1),
            N("Add", ["xz", "hz"], ["z0"]),
            N("Sigmoid", ["z0"], ["z"]),
            N("Add", ["xr", "hrr"], ["r0"]),
            N("Sigmoid", ["r0"], ["r"]),
            N("Mul", ["r", "hn"], ["rhn"]),
            N("Add", ["xn", "rhn"], ["n0"]),
            N("Tanh", ["n0"], ["n"]),
            N("Sub", ["h", "n"], ["hmn"]),
            N("Mul", ["z", "hmn"], ["zh"]),
            N("Add", ["n", "zh"], ["y"]),
        ],
        [("x", "f32", (1, 4)), ("h", "f32", (1, hid))],
        ("y", "f32", (1, hid)),
        compare="contraction",
        consts={"W": _w((4, 3 * hid), 41), "R": _w((hid, 3 * hid), 42), "Bw": _w((3 * hid,), 43),
                "Br": _w((3 * hid,), 44), "split": np.array([hid] * 3, np.int64)},
    ))
    cs.append(Case(
        "model_gru_onnx_f32",
        [N("GRU", ["x", "W", "R", "B"], ["", "y"], hidden_size=hid, linear_before_reset=1)],
        [("x", "f32", (2, 1, 4))],
        ("y", "f32", (1, 1, hid)),
        compare="contraction",
        consts={"W": _w((1, 3 * hid, 4), 45), "R": _w((1, 3 * hid, hid), 46),
                "B": _w((1, 6 * hid), 47)},
    ))
    # int8 quantized linears.
    cs.append(Case(
        "model_matmulinteger_zp_i8",
        [N("MatMulInteger", ["a", "b", "azp", "bzp"], ["y"])],
        [("a", "i8", (4, 32)), ("b", "i8", (32, 16))],
        ("y", "i32", (4, 16)),
        consts={"azp": np.array(3, np.int8), "bzp": np.array(-5, np.int8)},
    ))
    cs.append(Case(
        "model_qlinearmatmul_u8",
        [N("QLinearMatMul", ["a", "as", "azp", "b", "bs", "bzp", "ys", "yzp"], ["y"])],
        [("a", "u8", (4, 32)), ("b", "u8", (32, 16))],
        ("y", "u8", (4, 16)),
        consts={"as": np.array(0.05, np.float32), "azp": np.array(120, np.uint8),
                "bs": np.array(0.02, np.float32), "bzp": np.array(130, np.uint8),
                "ys": np.array(0.5, np.float32), "yzp": np.array(128, np.uint8)},
    ))
    cs.append(Case(
        "model_dynamic_quant_linear_f32",
        [
            N("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xzp"]),
            N("MatMulInteger", ["xq", "wq", "xzp", "wzp"], ["acc"]),
            N("Cast", ["acc"], ["accf"], to=TP.FLOAT),
            N("Mul", ["xs", "ws"], ["s"]),
            N("Mul", ["accf", "s"], ["y"]),
        ],
        [("x", "f32", (4, 16))],
        ("y", "f32", (4, 8)),
        compare="contraction",
        consts={"wq": np.random.default_rng(51).integers(0, 255, (16, 8), endpoint=True).astype(np.uint8),
                "wzp": np.array(128, np.uint8), "ws": np.array(0.01, np.float32)},
    ))
    return cs


# ------------------------------------------------------------------------------------------
# Whole models (issue 28): small shapes, weights as inputs (initializers only for the
# scalars and shapes a frontend folds into the program)
# ------------------------------------------------------------------------------------------


def _c(value, dtype="f32") -> np.ndarray:
    return np.array(value, dtype=NP_TYPE[dtype])


def _gelu_erf(x: str, y: str, p: str) -> list:
    return [
        N("Div", [x, f"{p}sqrt2"], [f"{p}d"]),
        N("Erf", [f"{p}d"], [f"{p}e"]),
        N("Add", [f"{p}e", f"{p}one"], [f"{p}e1"]),
        N("Mul", [x, f"{p}e1"], [f"{p}m"]),
        N("Mul", [f"{p}m", f"{p}half"], [y]),
    ]


def _gelu_tanh(x: str, y: str, p: str) -> list:
    return [
        N("Pow", [x, f"{p}three"], [f"{p}x3"]),
        N("Mul", [f"{p}x3", f"{p}k"], [f"{p}kx3"]),
        N("Add", [x, f"{p}kx3"], [f"{p}in"]),
        N("Mul", [f"{p}in", f"{p}s2pi"], [f"{p}t0"]),
        N("Tanh", [f"{p}t0"], [f"{p}t"]),
        N("Add", [f"{p}t", f"{p}one"], [f"{p}t1"]),
        N("Mul", [x, f"{p}t1"], [f"{p}m"]),
        N("Mul", [f"{p}m", f"{p}half"], [y]),
    ]


def _mlp(name: str, act: list, consts: dict) -> Case:
    return Case(
        name,
        [N("MatMul", ["x", "w1"], ["h0"]), N("Add", ["h0", "b1"], ["h"]), *act,
         N("MatMul", ["a", "w2"], ["o0"]), N("Add", ["o0", "b2"], ["y"])],
        [("x", "f32", (4, 16)), ("w1", "f32", (16, 32)), ("b1", "f32", (32,)),
         ("w2", "f32", (32, 16)), ("b2", "f32", (16,))],
        ("y", "f32", (4, 16)),
        compare="contraction",
        consts=consts,
    )


def _rmsnorm(x: str, g: str, y: str, t: str) -> tuple[list, dict]:
    return [
        N("Pow", [x, "two"], ["x2"]),
        N("ReduceMean", ["x2"], ["ms"], axes=[-1], keepdims=1),
        N("Add", ["ms", "eps"], ["mse"]),
        N("Sqrt", ["mse"], ["rms"]),
        N("Div", [x, "rms"], ["xn"]),
        N("Mul", ["xn", g], [y]),
    ], {"two": _c(2.0, t), "eps": _c(1e-5, t)}


def _llama_mlp(t: str) -> Case:
    norm, consts = _rmsnorm("x", "g", "h", t)
    return Case(
        f"model_llama_mlp_{t}",
        [*norm,
         N("MatMul", ["h", "wg"], ["gate"]), N("MatMul", ["h", "wu"], ["up"]),
         N("Sigmoid", ["gate"], ["sg"]), N("Mul", ["gate", "sg"], ["silu"]),
         N("Mul", ["silu", "up"], ["a"]), N("MatMul", ["a", "wd"], ["down"]),
         N("Add", ["x", "down"], ["y"])],
        [("x", t, (4, 16)), ("g", t, (16,)), ("wg", t, (16, 32)), ("wu", t, (16, 32)),
         ("wd", t, (32, 16))],
        ("y", t, (4, 16)),
        compare="contraction",
        consts=consts,
    )


S, E, H, D = 8, 16, 2, 8  # tokens, model width, heads, head width


def _heads(x: str, w: str, y: str) -> list:
    """x @ w, split into heads: [1, S, E] -> [1, H, S, D]."""
    return [
        N("MatMul", [x, w], [f"{y}_p"]),
        N("Reshape", [f"{y}_p", "shape_heads"], [f"{y}_r"]),
        N("Transpose", [f"{y}_r"], [y], perm=[0, 2, 1, 3]),
    ]


def _attention(q: str, k: str, v: str, y: str, mask: list) -> list:
    """softmax(q k^T / sqrt(D) (+ mask)) v, heads merged: [1, H, S, D] -> [1, S, E]."""
    return [
        N("Transpose", [k], ["kt"], perm=[0, 1, 3, 2]),
        N("MatMul", [q, "kt"], ["s0"]),
        N("Mul", ["s0", "scale"], ["s1"]),
        *mask,
        N("Softmax", ["s"], ["p"], axis=-1),
        N("MatMul", ["p", v], ["o"]),
        N("Transpose", ["o"], ["om"], perm=[0, 2, 1, 3]),
        N("Reshape", ["om", "shape_model"], [y]),
    ]


ATTN_CONSTS = {
    "shape_heads": np.array([1, S, H, D], np.int64),
    "shape_model": np.array([1, S, E], np.int64),
    "scale": _c(1.0 / np.sqrt(D)),
}


def _layernorm(x: str, g: str, b: str, y: str) -> list:
    return [N("LayerNormalization", [x, g, b], [y], axis=-1, epsilon=1e-5)]


def _encoder_block() -> Case:
    return Case(
        "model_encoder_block_f32",
        [*_heads("x", "wq", "q"), *_heads("x", "wk", "k"), *_heads("x", "wv", "v"),
         *_attention("q", "k", "v", "att", [N("Identity", ["s1"], ["s"])]),
         N("MatMul", ["att", "wo"], ["ao"]), N("Add", ["x", "ao"], ["r1"]),
         *_layernorm("r1", "g1", "be1", "n1"),
         N("MatMul", ["n1", "w1"], ["f0"]), N("Add", ["f0", "b1"], ["f1"]),
         N("Relu", ["f1"], ["f2"]), N("MatMul", ["f2", "w2"], ["f3"]),
         N("Add", ["f3", "b2"], ["f4"]), N("Add", ["n1", "f4"], ["r2"]),
         *_layernorm("r2", "g2", "be2", "y")],
        [("x", "f32", (1, S, E)), ("wq", "f32", (E, E)), ("wk", "f32", (E, E)),
         ("wv", "f32", (E, E)), ("wo", "f32", (E, E)), ("g1", "f32", (E,)),
         ("be1", "f32", (E,)), ("w1", "f32", (E, 2 * E)), ("b1", "f32", (2 * E,)),
         ("w2", "f32", (2 * E, E)), ("b2", "f32", (E,)), ("g2", "f32", (E,)),
         ("be2", "f32", (E,))],
        ("y", "f32", (1, S, E)),
        compare="contraction",
        consts=dict(ATTN_CONSTS),
    )


def _rope(x: str, y: str) -> list:
    """Rotary embedding on [1, H, S, D]: x cos + rotate_half(x) sin."""
    return [
        N("Slice", [x, "lo0", "lo1", "axis3"], [f"{x}_1"]),
        N("Slice", [x, "hi0", "hi1", "axis3"], [f"{x}_2"]),
        N("Neg", [f"{x}_2"], [f"{x}_n2"]),
        N("Concat", [f"{x}_n2", f"{x}_1"], [f"{x}_rh"], axis=-1),
        N("Mul", [x, "cos"], [f"{x}_c"]),
        N("Mul", [f"{x}_rh", "sin"], [f"{x}_s"]),
        N("Add", [f"{x}_c", f"{x}_s"], [y]),
    ]


def _decoder_attention() -> Case:
    mask = np.triu(np.full((S, S), -np.inf, np.float32), k=1)
    consts = dict(ATTN_CONSTS)
    consts.update(
        mask=mask,
        lo0=np.array([0], np.int64), lo1=np.array([D // 2], np.int64),
        hi0=np.array([D // 2], np.int64), hi1=np.array([D], np.int64),
        axis3=np.array([3], np.int64),
    )
    return Case(
        "model_decoder_attention_rope_f32",
        [*_heads("x", "wq", "q0"), *_heads("x", "wk", "k0"), *_heads("x", "wv", "v"),
         *_rope("q0", "q"), *_rope("k0", "k"),
         *_attention("q", "k", "v", "att", [N("Add", ["s1", "mask"], ["s"])]),
         N("MatMul", ["att", "wo"], ["ao"]), N("Add", ["x", "ao"], ["y"])],
        [("x", "f32", (1, S, E)), ("wq", "f32", (E, E)), ("wk", "f32", (E, E)),
         ("wv", "f32", (E, E)), ("wo", "f32", (E, E)), ("cos", "f32", (S, D)),
         ("sin", "f32", (S, D))],
        ("y", "f32", (1, S, E)),
        compare="contraction",
        consts=consts,
    )


def _model_cases() -> list[Case]:
    gelu_consts = {"sqrt2": _c(np.sqrt(2.0)), "one": _c(1.0), "half": _c(0.5)}
    tanh_consts = {"three": _c(3.0), "k": _c(0.044715), "s2pi": _c(np.sqrt(2.0 / np.pi)),
                   "one": _c(1.0), "half": _c(0.5)}
    return [
        _mlp("model_mlp_gelu_erf_f32", _gelu_erf("h", "a", ""), gelu_consts),
        _mlp("model_mlp_gelu_tanh_f32", _gelu_tanh("h", "a", ""), tanh_consts),
        _mlp("model_mlp_silu_f32", [N("Sigmoid", ["h"], ["sg"]), N("Mul", ["h", "sg"], ["a"])], {}),
        _llama_mlp("f32"),
        _llama_mlp("f16"),
        _encoder_block(),
        _decoder_attention(),
        Case(
            "model_embedding_classifier_f32",
            [N("Gather", ["table", "ids"], ["emb"], axis=0),
             N("ReduceMean", ["emb"], ["pooled"], axes=[1], keepdims=0),
             N("Gemm", ["pooled", "w", "b"], ["y"])],
            [("ids", "i64", (1, S)), ("table", "f32", (32, E)), ("w", "f32", (E, 4)),
             ("b", "f32", (4,))],
            ("y", "f32", (1, 4)),
            compare="contraction",
            gen={"ids": "index:32"},
        ),
        Case(
            "model_topk_head_f32",
            [N("MatMul", ["x", "w"], ["logits"]),
             N("TopK", ["logits", "k"], ["y", "idx"], axis=-1)],
            [("x", "f32", (4, E)), ("w", "f32", (E, E))],
            ("y", "f32", (4, 3)),
            compare="contraction",
            consts={"k": np.array([3], np.int64)},
        ),
        Case(
            "model_softmax_xent_f32",
            [N("SoftmaxCrossEntropyLoss", ["logits", "labels"], ["y"], reduction="mean")],
            [("logits", "f32", (4, 8)), ("labels", "i64", (4,))],
            ("y", "f32", ()),
            compare="contraction",
            gen={"labels": "index:8"},
        ),
        Case(
            "model_l2_normalize_f32",
            [N("Mul", ["x", "x"], ["x2"]),
             N("ReduceSum", ["x2", "axes"], ["ss"], keepdims=1),
             N("Sqrt", ["ss"], ["n"]),
             N("Max", ["n", "eps"], ["nc"]),
             N("Div", ["x", "nc"], ["y"])],
            [("x", "f32", (4, E))],
            ("y", "f32", (4, E)),
            compare="contraction",
            consts={"axes": np.array([1], np.int64), "eps": _c(1e-12)},
        ),
    ]


CASES = _cases() + _model_cases()


def main(argv: list[str]) -> int:
    os.makedirs(os.path.join(HERE, "programs"), exist_ok=True)
    os.makedirs(os.path.join(HERE, "data"), exist_ok=True)
    manifest_path = os.path.join(HERE, "manifest.json")
    manifest = {}
    if argv and os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = {e["name"]: e for e in json.load(f)}
    wanted = set(argv)
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    for i, case in enumerate(CASES):
        if wanted and case.name not in wanted:
            continue
        print(f"[{i + 1}/{len(CASES)}] {case.name}", flush=True)
        try:
            manifest[case.name] = build(case, seed=1000 + i)
        except subprocess.CalledProcessError as e:  # the frontend cannot import it
            print(f"  skipped: {e}", flush=True)
    entries = [manifest[n] for n in names if n in manifest]
    with open(manifest_path, "w") as f:
        json.dump(entries, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
