"""Convolution and pooling ops (``pto_dialect.upstream.window_ops``), ``tensor.pad``,
``linalg.broadcast`` and ``linalg.quantized_matmul`` parse, verify and run (issue 28).

References are written independently of the op table: explicit Python loops over the
output and the window, accumulating in the upstream domain order with one rounding per
step in the accumulator's type (numpy scalars), so a wrong map, a wrong body or a wrong
accumulation order turns them red.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.utils.exceptions import VerifyException

from interpreter import RunError, run
from interpreter.ssa.runner import parse_module_text
from pto_dialect.upstream import WINDOW_OP_CLASSES, WINDOW_OPS
from tests.budget import examples


def _t(shape, ty):
    return f"tensor<{'x'.join(map(str, shape))}x{ty}>"


def _prog(op: str, shapes, tys, strides=None, dilations=None) -> str:
    attrs = []
    if dilations is not None:
        attrs.append(f"dilations = dense<{list(dilations)}> : vector<{len(dilations)}xi64>")
    if strides is not None:
        attrs.append(f"strides = dense<{list(strides)}> : vector<{len(strides)}xi64>")
    a = "{" + ", ".join(attrs) + "} " if attrs else ""
    ti, tk, to = (_t(s, t) for s, t in zip(shapes, tys, strict=True))
    return (
        f"func.func @main(%x: {ti}, %k: {tk}, %o: {to}) -> {to} {{\n"
        f"  %r = {op} {a}ins(%x, %k : {ti}, {tk}) outs(%o : {to}) -> {to}\n"
        f"  func.return %r : {to}\n}}\n"
    )


def _out(n, k, s=1, d=1):
    return (n - d * (k - 1) - 1) // s + 1


def test_every_row_parses_verifies_and_round_trips():
    assert len(WINDOW_OP_CLASSES) == len(WINDOW_OPS)
    for spec in WINDOW_OPS:
        size = {"n": 1, "c": 2, "f": 3, "g": 2, "kh": 2, "kw": 3}
        s = [2] * spec.spatial
        sizes = dict(size, oh=2, ow=2)
        ins = []
        for term in spec.input.split():
            if "+" in term:
                o, k = term.split("+")
                ins.append((sizes[o] - 1) * 2 + sizes[k])
            else:
                ins.append(sizes[term])
        shapes = [ins, [sizes[d] for d in spec.kernel.split()], [sizes[d] for d in spec.output.split()]]
        text = _prog(spec.name, shapes, ["f16", "f16", "f32"], strides=s, dilations=[1] * spec.spatial)
        m = parse_module_text(text)
        m.verify()
        again = parse_module_text(str(m))
        assert str(again) == str(m), spec.name


def _conv_nchw(x, w, acc, s, d, out_dtype):
    n_, c_, _, _ = x.shape
    f_, _, kh_, kw_ = w.shape
    out = acc.astype(out_dtype).copy()
    for n in range(n_):
        for f in range(f_):
            for oh in range(out.shape[2]):
                for ow in range(out.shape[3]):
                    a = out[n, f, oh, ow]
                    for c in range(c_):  # domain order (n, f, oh, ow, c, kh, kw)
                        for kh in range(kh_):
                            for kw in range(kw_):
                                xv = out_dtype(x[n, c, oh * s[0] + kh * d[0], ow * s[1] + kw * d[1]])
                                a = out_dtype(a + out_dtype(xv * out_dtype(w[f, c, kh, kw])))
                    out[n, f, oh, ow] = a
    return out


@pytest.mark.parametrize("ty", ["f16", "f32"])
def test_conv_nchw_fchw_f16_inputs_f32_accumulator_strides_dilations(ty):
    """The xDSL 0.75 class asserted on f16 x f16 -> f32 (a bare AssertionError); ours
    casts like upstream and accumulates sequentially in f32."""
    rng = np.random.default_rng(1)
    npt = np.float16 if ty == "f16" else np.float32
    x = rng.uniform(-2, 2, (1, 3, 9, 8)).astype(npt)
    w = rng.uniform(-2, 2, (2, 3, 3, 2)).astype(npt)
    s, d = (2, 1), (1, 2)
    oh, ow = _out(9, 3, 2, 1), _out(8, 2, 1, 2)
    acc = rng.uniform(-1, 1, (1, 2, oh, ow)).astype(np.float32)
    text = _prog("linalg.conv_2d_nchw_fchw", [x.shape, w.shape, acc.shape], [ty, ty, "f32"], s, d)
    (got,) = run(text, "main", x, w, acc)
    want = _conv_nchw(x, w, acc, s, d, np.float32)
    np.testing.assert_array_equal(got, want)


def test_conv_i8_to_i32_wraps_like_upstream():
    rng = np.random.default_rng(2)
    x = rng.integers(-128, 128, (2, 2, 5, 5)).astype(np.int8)
    w = rng.integers(-128, 128, (3, 2, 2, 2)).astype(np.int8)
    acc = np.full((2, 3, 4, 4), 2**31 - 10, np.int32)  # sums overflow: i32 wraps
    text = _prog("linalg.conv_2d_nchw_fchw", [x.shape, w.shape, acc.shape], ["i8", "i8", "i32"])
    (got,) = run(text, "main", x, w, acc)
    want = acc.astype(np.int64)
    for f in range(3):
        for c in range(2):
            for kh in range(2):
                for kw in range(2):
                    want[:, f] += x[:, c, kh:kh + 4, kw:kw + 4].astype(np.int64) * int(w[f, c, kh, kw])
    np.testing.assert_array_equal(got, ((want + 2**31) % 2**32 - 2**31).astype(np.int32))


def test_conv_nhwc_hwcf_and_grouped_agree_with_nchw():
    """Other layouts: the same numbers (integers: exact, any order) as the NCHW reference."""
    rng = np.random.default_rng(3)
    x = rng.integers(-5, 6, (1, 4, 7, 6)).astype(np.int32)  # NCHW, C = 4
    w = rng.integers(-5, 6, (6, 4, 3, 3)).astype(np.int32)  # FCHW
    acc = np.zeros((1, 6, 5, 4), np.int32)
    want = _conv_nchw(x, w, acc, (1, 1), (1, 1), np.int32)
    t = "i32"
    text = _prog("linalg.conv_2d_nhwc_hwcf", [(1, 7, 6, 4), (3, 3, 4, 6), (1, 5, 4, 6)], [t, t, t])
    (got,) = run(text, "main", x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0), acc.transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(np.asarray(got).transpose(0, 3, 1, 2), want)
    text = _prog("linalg.conv_2d_nhwc_fhwc", [(1, 7, 6, 4), (6, 3, 3, 4), (1, 5, 4, 6)], [t, t, t])
    (got,) = run(text, "main", x.transpose(0, 2, 3, 1), w.transpose(0, 2, 3, 1), acc.transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(np.asarray(got).transpose(0, 3, 1, 2), want)
    # groups = 2: two independent convolutions of 2 channels each
    wg = rng.integers(-5, 6, (3, 2, 2, 3, 3)).astype(np.int32)  # F G C KH KW
    text = _prog("linalg.conv_2d_ngchw_fgchw", [(1, 2, 2, 7, 6), wg.shape, (1, 2, 3, 5, 4)], [t, t, t])
    (got,) = run(text, "main", x.reshape(1, 2, 2, 7, 6), wg, np.zeros((1, 2, 3, 5, 4), np.int32))
    for g in range(2):
        ref = _conv_nchw(x[:, 2 * g:2 * g + 2], wg[:, g], np.zeros((1, 3, 5, 4), np.int32), (1, 1), (1, 1), np.int32)
        np.testing.assert_array_equal(np.asarray(got)[:, g], ref)


def test_depthwise_and_1d():
    rng = np.random.default_rng(4)
    x = rng.uniform(-2, 2, (1, 3, 6, 6)).astype(np.float32)
    w = rng.uniform(-2, 2, (3, 3, 3)).astype(np.float32)
    acc = np.zeros((1, 3, 2, 2), np.float32)
    text = _prog("linalg.depthwise_conv_2d_nchw_chw", [x.shape, w.shape, acc.shape], ["f32"] * 3, (2, 2))
    (got,) = run(text, "main", x, w, acc)
    want = np.zeros_like(acc)
    for c in range(3):
        for oh in range(2):
            for ow in range(2):
                a = np.float32(0)
                for kh in range(3):
                    for kw in range(3):
                        a = np.float32(a + np.float32(x[0, c, 2 * oh + kh, 2 * ow + kw] * w[c, kh, kw]))
                want[0, c, oh, ow] = a
    np.testing.assert_array_equal(got, want)
    text = _prog("linalg.depthwise_conv_2d_nhwc_hwc", [(1, 6, 6, 3), (3, 3, 3), (1, 2, 2, 3)], ["f32"] * 3, (2, 2))
    (got,) = run(text, "main", x.transpose(0, 2, 3, 1), w.transpose(1, 2, 0), acc.transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(np.asarray(got).transpose(0, 3, 1, 2), want)
    x1 = rng.integers(-9, 9, (2, 3, 7)).astype(np.int32)
    w1 = rng.integers(-9, 9, (4, 3, 2)).astype(np.int32)
    text = _prog("linalg.conv_1d_ncw_fcw", [x1.shape, w1.shape, (2, 4, 3)], ["i32"] * 3, (2,), (2,))
    (got,) = run(text, "main", x1, w1, np.zeros((2, 4, 3), np.int32))
    want1 = np.zeros((2, 4, 3), np.int64)
    for ow in range(3):
        for kw in range(2):
            want1[:, :, ow] += np.einsum("nc,fc->nf", x1[:, :, 2 * ow + 2 * kw], w1[:, :, kw])
    np.testing.assert_array_equal(got, want1)


def test_pooling_max_propagates_nan_and_orders_zeros():
    """maximumf semantics: any NaN in the window gives NaN; -0 < +0."""
    x = np.array([[[[1.0, np.nan, 2.0, 3.0], [0.0, -0.0, -0.0, -1.0],
                    [-0.0, -0.0, 5.0, 4.0], [-0.0, -0.0, 4.0, 5.0]]]], np.float32)
    init = np.full((1, 1, 2, 2), -np.inf, np.float32)
    text = (
        "func.func @main(%x: tensor<1x1x4x4xf32>, %o: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {\n"
        "  %w = tensor.empty() : tensor<2x2xf32>\n"
        "  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} "
        "ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%o : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>\n"
        "  func.return %r : tensor<1x1x2x2xf32>\n}\n"
    )
    (got,) = run(text, "main", x, init)
    got = np.asarray(got)[0, 0]
    assert np.isnan(got[0, 0]) and got[0, 1] == 3.0 and got[1, 1] == 5.0
    assert got[1, 0] == 0.0 and np.signbit(got[1, 0])  # max of four -0.0 is -0.0


def test_pooling_sum_and_min_nhwc():
    rng = np.random.default_rng(5)
    x = rng.integers(-50, 50, (1, 5, 5, 2)).astype(np.int32)
    for kind, fold, init in (("sum", np.add, 0), ("min", np.minimum, 2**31 - 1)):
        text = (
            "func.func @main(%x: tensor<1x5x5x2xi32>, %o: tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32> {\n"
            "  %w = tensor.empty() : tensor<3x3xi32>\n"
            f"  %r = linalg.pooling_nhwc_{kind} {{strides = dense<2> : vector<2xi64>}} "
            "ins(%x, %w : tensor<1x5x5x2xi32>, tensor<3x3xi32>) outs(%o : tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32>\n"
            "  func.return %r : tensor<1x2x2x2xi32>\n}\n"
        )
        (got,) = run(text, "main", x, np.full((1, 2, 2, 2), init, np.int32))
        want = np.full((1, 2, 2, 2), init, np.int64)
        for oh in range(2):
            for ow in range(2):
                for kh in range(3):
                    for kw in range(3):
                        want[0, oh, ow] = fold(want[0, oh, ow], x[0, 2 * oh + kh, 2 * ow + kw])
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "text, message",
    [
        ("strides = dense<[1, 1, 1]> : vector<3xi64>", "strides must be 2 positive integers"),
        ("dilations = dense<0> : vector<2xi64>", "dilations must be 2 positive integers"),
    ],
)
def test_bad_window_attributes_are_refused(text, message):
    prog = _prog("linalg.conv_2d_nchw_fchw", [(1, 1, 4, 4), (1, 1, 2, 2), (1, 1, 3, 3)], ["f32"] * 3)
    prog = prog.replace("linalg.conv_2d_nchw_fchw ", "linalg.conv_2d_nchw_fchw {" + text + "} ")
    with pytest.raises(VerifyException, match=message):
        parse_module_text(prog).verify()


def test_input_too_small_is_refused():
    prog = _prog("linalg.conv_2d_nchw_fchw", [(1, 1, 3, 4), (1, 1, 2, 2), (1, 1, 3, 3)], ["f32"] * 3)
    with pytest.raises(VerifyException, match="greater than or equal to 4"):
        parse_module_text(prog).verify()


PAD = """
func.func @main(%x: tensor<2x3xf16>) -> tensor<3x7xf16> {
  %cst = arith.constant -1.5 : f16
  %p = tensor.pad %x low[1, 2] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f16
  } : tensor<2x3xf16> to tensor<3x7xf16>
  func.return %p : tensor<3x7xf16>
}
"""


def test_tensor_pad_with_a_constant():
    x = np.arange(6, dtype=np.float16).reshape(2, 3)
    (got,) = run(PAD, "main", x)
    want = np.full((3, 7), -1.5, np.float16)
    want[1:, 2:5] = x
    np.testing.assert_array_equal(got, want)
    inner = PAD.replace("  %cst = arith.constant -1.5 : f16\n", "").replace(
        "    tensor.yield %cst", "    %cst = arith.constant -1.5 : f16\n    tensor.yield %cst"
    )
    (got,) = run(inner, "main", x)
    np.testing.assert_array_equal(got, want)


def test_tensor_pad_depending_on_the_index_is_refused():
    text = PAD.replace("tensor.yield %cst : f16", "%v = arith.index_cast %i : index to i32\n"
                       "    %f = arith.sitofp %v : i32 to f16\n    tensor.yield %f : f16")
    with pytest.raises(RunError, match="depends on the indices"):
        run(text, "main", np.zeros((2, 3), np.float16))


def test_linalg_broadcast():
    text = """
func.func @main(%b: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.broadcast ins(%b : tensor<3xf32>) outs(%e : tensor<2x3x4xf32>) dimensions = [0, 2]
  func.return %r : tensor<2x3x4xf32>
}
"""
    b = np.array([1.0, -2.0, 3.5], np.float32)
    (got,) = run(text, "main", b)
    np.testing.assert_array_equal(got, np.broadcast_to(b[None, :, None], (2, 3, 4)))


def test_quantized_matmul_folds_zero_points():
    text = """
func.func @main(%a: tensor<3x5xi8>, %b: tensor<5x2xi8>, %o: tensor<3x2xi32>) -> tensor<3x2xi32> {
  %za = arith.constant -8 : i32
  %zb = arith.constant 7 : i32
  %r = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<3x5xi8>, tensor<5x2xi8>, i32, i32) outs(%o : tensor<3x2xi32>) -> tensor<3x2xi32>
  func.return %r : tensor<3x2xi32>
}
"""
    rng = np.random.default_rng(6)
    a = rng.integers(-128, 128, (3, 5)).astype(np.int8)
    b = rng.integers(-128, 128, (5, 2)).astype(np.int8)
    o = rng.integers(-100, 100, (3, 2)).astype(np.int32)
    (got,) = run(text, "main", a, b, o)
    want = [[int(o[i, j]) + sum((int(a[i, k]) + 8) * (int(b[k, j]) - 7) for k in range(5))
             for j in range(2)] for i in range(3)]
    np.testing.assert_array_equal(got, np.array(want, np.int32))


def test_quantized_matmul_on_wider_types_casts_like_upstream():
    """xDSL's body hard-codes extsi to i32; ours casts to the output type (i32 -> i64)."""
    text = """
func.func @main(%a: tensor<2x3xi32>, %b: tensor<3x2xi32>, %o: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %za = arith.constant 5 : i64
  %zb = arith.constant -3 : i64
  %r = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<2x3xi32>, tensor<3x2xi32>, i64, i64) outs(%o : tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %r : tensor<2x2xi64>
}
"""
    a = np.array([[2**31 - 1, -(2**31), 7], [1, 2, 3]], np.int32)
    b = np.array([[2**31 - 1, 1], [-5, 2**30], [0, -1]], np.int32)
    (got,) = run(text, "main", a, b, np.zeros((2, 2), np.int64))
    want = [[sum((int(a[i, k]) - 5) * (int(b[k, j]) + 3) for k in range(3)) for j in range(2)] for i in range(2)]
    want = [[(x + 2**63) % 2**64 - 2**63 for x in row] for row in want]
    np.testing.assert_array_equal(got, np.array(want, np.int64))


@settings(max_examples=examples(25), deadline=None)
@given(
    n=st.integers(1, 2), c=st.integers(1, 3), f=st.integers(1, 3),
    kh=st.integers(1, 3), kw=st.integers(1, 3), oh=st.integers(1, 3), ow=st.integers(1, 3),
    sh=st.integers(1, 3), sw=st.integers(1, 3), dh=st.integers(1, 2), dw=st.integers(1, 2),
    layout=st.sampled_from(["nchw_fchw", "nhwc_hwcf", "nhwc_fhwc"]), seed=st.integers(0, 2**16),
)
def test_convolution_layouts_strides_dilations_match_einsum(n, c, f, kh, kw, oh, ow, sh, sw, dh, dw, layout, seed):
    """Any shape, stride and dilation: the interpreter's convolution is the gather-and-sum
    written with numpy slicing and einsum (integers: exact in any order)."""
    h, w = (oh - 1) * sh + (kh - 1) * dh + 1, (ow - 1) * sw + (kw - 1) * dw + 1
    rng = np.random.default_rng(seed)
    x = rng.integers(-50, 50, (n, c, h, w)).astype(np.int32)
    k = rng.integers(-50, 50, (f, c, kh, kw)).astype(np.int32)
    want = np.zeros((n, f, oh, ow), np.int64)
    for i in range(kh):
        for j in range(kw):
            xs = x[:, :, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw]
            want += np.einsum("nchw,fc->nfhw", xs.astype(np.int64), k[:, :, i, j].astype(np.int64))
    xin, kin, perm = x, k, (0, 1, 2, 3)
    if layout != "nchw_fchw":
        xin = x.transpose(0, 2, 3, 1)
        kin = k.transpose(2, 3, 1, 0) if layout == "nhwc_hwcf" else k.transpose(0, 2, 3, 1)
        perm = (0, 3, 1, 2)
    out_shape = (n, f, oh, ow) if layout == "nchw_fchw" else (n, oh, ow, f)
    text = _prog(f"linalg.conv_2d_{layout}", [xin.shape, kin.shape, out_shape], ["i32"] * 3,
                 (sh, sw), (dh, dw))
    (got,) = run(text, "main", np.ascontiguousarray(xin), np.ascontiguousarray(kin), np.zeros(out_shape, np.int32))
    np.testing.assert_array_equal(np.asarray(got).transpose(perm), want)
