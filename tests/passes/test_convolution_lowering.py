"""Convolution, pooling and constant padding lower to PTO (issue 28, D18).

Each program is lowered completely (``pto-lower``, block level: no leftovers) and run:

* convolutions over channels (per-tap TMATMUL chains) against an independent float64
  reference within the contraction bound ``(K + 2) u sum|terms|`` (D18; exact for i8 -> i32);
* depthwise convolutions, poolings and padding bit for bit against the unlowered run
  (the same operations in the same order: see ``passes/lowering/convolution.py``).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from lowering_helpers import apply, parse

from interpreter import run
from passes.lowering.leftovers import find_leftovers
from passes.pto_lower import PTOLowerPass


def _t(shape, ty):
    return f"tensor<{'x'.join(map(str, shape))}x{ty}>"


def _conv_prog(op, xs, ws, os_, ty, acc_ty, strides=(1, 1), dil=(1, 1), pad=None, init="fill"):
    n = len(strides)
    attrs = (f"{{dilations = dense<{list(dil)}> : vector<{n}xi64>, "
             f"strides = dense<{list(strides)}> : vector<{n}xi64>}}")
    tx, tw, to = _t(xs, ty), _t(ws, ty), _t(os_, acc_ty)
    zero = "0.0" if acc_ty.startswith(("f", "b")) else "0"
    lines = [f"func.func @main(%x0: {tx}, %w: {tw}, %b: {to}) -> {to} {{"]
    x = "%x0"
    if pad is not None:
        lo, hi, padded = pad
        pz = "0.0" if ty.startswith(("f", "b")) else "0"
        lines += [f"  %pv = arith.constant {pz} : {ty}",
                  f"  %x = tensor.pad %x0 low{list(lo)} high{list(hi)} {{",
                  f"  ^bb0({', '.join(f'%i{i}: index' for i in range(len(lo)))}):",
                  f"    tensor.yield %pv : {ty}",
                  f"  }} : {tx} to {_t(padded, ty)}"]
        tx, x = _t(padded, ty), "%x"
    if init == "fill":
        lines += [f"  %z = arith.constant {zero} : {acc_ty}", f"  %e = tensor.empty() : {to}",
                  f"  %acc = linalg.fill ins(%z : {acc_ty}) outs(%e : {to}) -> {to}"]
        acc = "%acc"
    else:
        acc = "%b"
    lines += [f"  %r = {op} {attrs} ins({x}, %w : {tx}, {tw}) outs({acc} : {to}) -> {to}",
              f"  func.return %r : {to}", "}"]
    return "\n".join(lines) + "\n"


def _lower(text):
    m = parse(text)
    low = apply(PTOLowerPass(), m)
    left = find_leftovers(low)
    assert not left, [x.diagnostic() for x in left]
    return m, low


def _np(ty):
    return {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "i8": np.int8,
            "i32": np.int32}[ty]


def _ref_nchw(x, w, b, s, d):
    """float64 sum and sum of |terms| of an NCHW/FCHW convolution (independent loops)."""
    n_, c_, _, _ = x.shape
    f_, _, kh_, kw_ = w.shape
    out = np.zeros(b.shape, np.float64) + b
    mag = np.abs(out.copy())
    for kh in range(kh_):
        for kw in range(kw_):
            xs = x[:, :, kh * d[0]::s[0], kw * d[1]::s[1]][:, :, :b.shape[2], :b.shape[3]].astype(np.float64)
            t = np.einsum("nchw,fc->nfhw", xs, w[:, :, kh, kw].astype(np.float64))
            out += t
            mag += np.einsum("nchw,fc->nfhw", np.abs(xs), np.abs(w[:, :, kh, kw].astype(np.float64)))
    return out, mag, c_ * kh_ * kw_


CONVS = [
    # op, x shape, w shape, out shape, in type, acc type, strides, dilations, layout
    ("linalg.conv_2d_nchw_fchw", (1, 3, 9, 8), (4, 3, 3, 2), (1, 4, 4, 3), "f16", "f32", (2, 2), (1, 2), "nchw"),
    ("linalg.conv_2d_nchw_fchw", (2, 2, 4, 4), (3, 2, 2, 2), (2, 3, 3, 3), "f32", "f32", (1, 1), (1, 1), "nchw"),
    ("linalg.conv_2d_nhwc_hwcf", (1, 6, 6, 2), (2, 2, 2, 4), (1, 5, 5, 4), "bf16", "f32", (1, 1), (1, 1), "nhwc_hwcf"),
    ("linalg.conv_2d_nhwc_fhwc", (1, 6, 6, 2), (4, 2, 2, 2), (1, 3, 3, 4), "f32", "f32", (2, 2), (1, 1), "nhwc_fhwc"),
]


@pytest.mark.parametrize("case", CONVS, ids=[f"{c[0][7:]}-{c[4]}-{i}" for i, c in enumerate(CONVS)])
def test_float_convolution_within_the_contraction_bound(case):
    op, xs, ws, os_, ty, acc_ty, s, d, layout = case
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, xs).astype(_np(ty))
    w = rng.uniform(-2, 2, ws).astype(_np(ty))
    b = rng.uniform(-1, 1, os_).astype(np.float32)
    _, low = _lower(_conv_prog(op, xs, ws, os_, ty, acc_ty, s, d, init="arg"))
    (got,) = run(low, "main", x, w, b)
    got = np.asarray(got, np.float64)
    # back to NCHW / FCHW for the reference
    if layout == "nhwc_hwcf":
        x, w, b, got = x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), b.transpose(0, 3, 1, 2), got.transpose(0, 3, 1, 2)
    elif layout == "nhwc_fhwc":
        x, w, b, got = x.transpose(0, 3, 1, 2), w.transpose(0, 3, 1, 2), b.transpose(0, 3, 1, 2), got.transpose(0, 3, 1, 2)
    want, mag, k = _ref_nchw(x.astype(np.float64), w.astype(np.float64), b, s, d)
    bound = (k + 2) * 2.0**-24 * mag
    assert np.all(np.abs(got - want) <= bound)


def test_conv_i8_to_i32_exact_with_padding_and_groups():
    rng = np.random.default_rng(8)
    x = rng.integers(-128, 128, (1, 4, 4, 4)).astype(np.int8)
    w = rng.integers(-128, 128, (3, 2, 2, 2, 2)).astype(np.int8)  # F G C KH KW, groups = 2
    text = _conv_prog("linalg.conv_2d_ngchw_fgchw", (1, 2, 2, 4, 4), w.shape, (1, 2, 3, 5, 5), "i8", "i32",
                      pad=((0, 0, 0, 1, 1), (0, 0, 0, 1, 1), (1, 2, 2, 6, 6)))
    m, low = _lower(text)
    args = (x.reshape(1, 2, 2, 4, 4), w, np.zeros((1, 2, 3, 5, 5), np.int32))
    (got,) = run(low, "main", *args)
    xp = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    want = np.zeros((1, 2, 3, 5, 5), np.int64)
    for g in range(2):
        for kh in range(2):
            for kw in range(2):
                want[0, g] += np.einsum("chw,fc->fhw", xp[0, 2 * g:2 * g + 2, kh:kh + 5, kw:kw + 5], w[:, g, :, kh, kw])
    np.testing.assert_array_equal(got, want)
    (before,) = run(m, "main", *args)
    np.testing.assert_array_equal(got, before)


def test_conv_1d_ncw_f32():
    rng = np.random.default_rng(9)
    x = rng.uniform(-2, 2, (2, 3, 9)).astype(np.float32)
    w = rng.uniform(-2, 2, (4, 3, 3)).astype(np.float32)
    b = np.zeros((2, 4, 4), np.float32)
    _, low = _lower(_conv_prog("linalg.conv_1d_ncw_fcw", x.shape, w.shape, b.shape, "f32", "f32", (2,), (1,), init="arg"))
    (got,) = run(low, "main", x, w, b)
    want, mag, k = _ref_nchw(x[:, :, None], w[:, :, None], b[:, :, None], (1, 2), (1, 1))
    assert np.all(np.abs(np.asarray(got, np.float64) - want[:, :, 0]) <= (k + 2) * 2.0**-24 * mag[:, :, 0])


WINDOWED = [
    ("linalg.depthwise_conv_2d_nchw_chw", (1, 3, 7, 7), (3, 3, 3), (1, 3, 3, 3), "f32", (2, 2)),
    ("linalg.depthwise_conv_2d_nhwc_hwc", (1, 6, 6, 3), (2, 2, 3), (1, 5, 5, 3), "f32", (1, 1)),
    ("linalg.depthwise_conv_2d_nchw_chw", (1, 2, 5, 5), (2, 3, 3), (1, 2, 3, 3), "f16", (1, 1)),
    ("linalg.pooling_nchw_max", (1, 3, 6, 6), (2, 2), (1, 3, 3, 3), "f32", (2, 2)),
    ("linalg.pooling_nchw_sum", (2, 3, 2, 2), (2, 2), (2, 3, 1, 1), "f32", (1, 1)),
    ("linalg.pooling_nhwc_min", (1, 5, 5, 2), (3, 3), (1, 2, 2, 2), "i32", (2, 2)),
    ("linalg.pooling_nhwc_max", (1, 4, 4, 2), (2, 2), (1, 3, 3, 2), "f16", (1, 1)),
]


@pytest.mark.parametrize("case", WINDOWED, ids=[f"{c[0][7:]}-{c[4]}" for c in WINDOWED])
def test_depthwise_and_pooling_bit_exact(case):
    op, xs, ws, os_, ty, s = case
    rng = np.random.default_rng(10)
    npt = _np(ty)
    if ty.startswith("i"):
        x = rng.integers(-1000, 1000, xs).astype(npt)
    else:
        x = rng.uniform(-3, 3, xs).astype(npt)
        x.flat[::7] = np.array(-0.0, npt)
        if "max" in op or "min" in op:
            x.flat[5] = np.nan  # maximumf/minimumf propagate it: one window turns NaN
    w = rng.uniform(-2, 2, ws).astype(npt) if "conv" in op else np.zeros(ws, npt)
    acc_ty = ty
    b = rng.uniform(-1, 1, os_).astype(npt) if not ty.startswith("i") else rng.integers(-5, 5, os_).astype(npt)
    text = _conv_prog(op, xs, ws, os_, ty, acc_ty, s, (1, 1), init="arg")
    m, low = _lower(text)
    (before,) = run(m, "main", x, w, b)
    (got,) = run(low, "main", x, w, b)
    before, got = np.asarray(before), np.asarray(got)
    assert got.dtype == before.dtype
    np.testing.assert_array_equal(got.view(np.uint8), before.view(np.uint8))  # bits, NaN too
    if "max" in op and ty == "f32":
        assert np.isnan(got).sum() == 1


def test_pad_is_a_constant_with_the_source_inserted():
    text = """
func.func @main(%x: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %c = arith.constant -7.5 : f32
  %p = tensor.pad %x low[1, 2] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<2x3xf32> to tensor<4x6xf32>
  func.return %p : tensor<4x6xf32>
}
"""
    _, low = _lower(text)
    assert "tensor.pad" not in str(low)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (got,) = run(low, "main", x)
    want = np.full((4, 6), -7.5, np.float32)
    want[1:3, 2:5] = x
    np.testing.assert_array_equal(got, want)


GLOBAL = [
    ("linalg.pooling_nchw_sum", (2, 3, 4, 5), (4, 5), (2, 3, 1, 1), "f32"),
    ("linalg.pooling_nchw_max", (1, 3, 3, 3), (3, 3), (1, 3, 1, 1), "f32"),
    ("linalg.pooling_nhwc_sum", (1, 3, 4, 5), (3, 4), (1, 1, 1, 5), "f32"),
]


@pytest.mark.parametrize("case", GLOBAL, ids=[f"{c[0][7:]}-{c[4]}" for c in GLOBAL])
def test_global_pooling_is_one_reduction_bit_exact(case):
    op, xs, ws, os_, ty = case
    rng = np.random.default_rng(14)
    x = rng.uniform(-3, 3, xs).astype(np.float32)
    x.flat[3] = -0.0
    if "max" in op:
        x.flat[4] = np.nan
    m, low = _lower(_conv_prog(op, xs, ws, os_, ty, ty))
    tile = str(apply(PTOLowerPass(level="tile"), m))
    assert "pto.trow" in tile or "pto.tcol" in tile  # one TROW*/TCOL* fold, not taps
    args = (x, np.zeros(ws, np.float32), np.zeros(os_, np.float32))
    (before,) = run(m, "main", *args)
    (got,) = run(low, "main", *args)
    np.testing.assert_array_equal(np.asarray(got).view(np.uint32), np.asarray(before).view(np.uint32))


def test_channel_broadcast_over_unit_batch_lowers():
    """``(d0, d1, d2, d3) -> (d1)`` on a 1xCxHxW output (torch-mlir's conv bias broadcast,
    BatchNorm): the unit batch dim joins the leading block, a row expansion."""
    text = """
func.func @main(%x: tensor<1x3x2x4xf32>, %b: tensor<3xf32>) -> tensor<1x3x2x4xf32> {
  %e = tensor.empty() : tensor<1x3x2x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b : tensor<1x3x2x4xf32>, tensor<3xf32>) outs(%e : tensor<1x3x2x4xf32>) {
  ^bb0(%in: f32, %c: f32, %o: f32):
    %s = arith.addf %in, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x3x2x4xf32>
  func.return %r : tensor<1x3x2x4xf32>
}
"""
    m, low = _lower(text)
    rng = np.random.default_rng(16)
    x = rng.uniform(-2, 2, (1, 3, 2, 4)).astype(np.float32)
    b = rng.uniform(-2, 2, 3).astype(np.float32)
    (got,) = run(low, "main", x, b)
    np.testing.assert_array_equal(got, x + b[None, :, None, None])
