"""Hex dense float constants survive every pass (issue 23, item 1).

Each program runs before lowering, after ``pto-lower{level=tile}`` and after ``pto-lower``, the
lowered module printed and parsed again (the printer writes NaN/inf as hex bit patterns), on
both engines; the results are compared bit for bit with a numpy reference built from the
bit patterns themselves.
"""

from __future__ import annotations

import numpy as np
import pytest
from lowering_helpers import apply, parse

from interpreter import run
from interpreter.ssa.runner import parse_module_text
from passes.pto_lower import PTOLowerPass

MASK_BITS = [
    [0x00000000, 0xFF800000, 0xFF800000, 0xFF800000],
    [0x00000000, 0x00000000, 0xFF800000, 0xFF800000],
    [0x00000000, 0x00000000, 0x80000000, 0x7FC00123],
    [0x00000001, 0x00000000, 0x00000000, 0x00000000],
]
MASK_TEXT = "[" + ", ".join(
    "[" + ", ".join(f"0x{b:08X}" for b in row) + "]" for row in MASK_BITS
) + "]"

ATTENTION_MASK = f"""func.func @f(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {{
  %m = arith.constant dense<{MASK_TEXT}> : tensor<4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%x, %m : tensor<1x2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }} -> tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}}
"""


def select_program(elt: str, const: str, shape: str = "4x8") -> str:
    t = f"tensor<{shape}x{elt}>"
    return f"""func.func @f(%x: {t}) -> {t} {{
  %c = arith.constant {const} : {t}
  %z = arith.constant 0.0 : {elt}
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%x, %c : {t}, {t}) outs(%e : {t}) {{
  ^bb0(%a: {elt}, %b: {elt}, %o: {elt}):
    %p = arith.cmpf ogt, %a, %z : {elt}
    %s = arith.select %p, %a, %b : {elt}
    linalg.yield %s : {elt}
  }} -> {t}
  return %r : {t}
}}
"""


def bits(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}")


def all_stages(text: str, *args: np.ndarray) -> list[np.ndarray]:
    module = parse(text)
    outs = [run(module, "f", *args, engine="both")[0]]
    for level in ("tile", "block"):
        low = apply(PTOLowerPass(level=level), module)
        again = parse_module_text(str(low))  # printed and re-read
        outs.append(run(again, "f", *args, engine="both")[0])
    return outs


def test_attention_mask_hex_list() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 2, 4, 4)).astype(np.float32)
    mask = np.array(MASK_BITS, dtype=np.uint32).view(np.float32)
    want = x + mask[None, None]
    for got in all_stages(ATTENTION_MASK, x):
        # NaN payloads of an addf with a NaN operand: numpy keeps the operand's (quiet) payload.
        assert np.array_equal(bits(got), bits(want))


@pytest.mark.parametrize(
    ("elt", "splat_bits"),
    [
        ("f32", 0x7FC00123),  # quiet NaN with a payload
        ("f32", 0x7F800001),  # signalling NaN: select passes it through unchanged
        ("f32", 0x80000000),  # -0
        ("f32", 0xFF800000),  # -inf
        ("f16", 0x7C01),  # f16 signalling NaN
        ("f16", 0xFE55),  # f16 negative NaN with a payload
        ("bf16", 0xFF81),  # bf16 NaN with a payload
    ],
)
def test_select_keeps_splat_bits(elt: str, splat_bits: int) -> None:
    width = 32 if elt == "f32" else 16
    x = np.linspace(-2, 2, 32).reshape(4, 8)
    if elt == "bf16":
        import ml_dtypes

        x = x.astype(ml_dtypes.bfloat16)
    else:
        x = x.astype(np.float32 if elt == "f32" else np.float16)
    const = f"dense<0x{splat_bits:0{width // 4}X}>"
    want = bits(x).copy()
    want[~(x.astype(np.float32) > 0)] = splat_bits
    for got in all_stages(select_program(elt, const), x):
        assert np.array_equal(bits(got), want), [hex(v) for v in bits(got).ravel()]


def test_plus_and_minus_zero_list_is_not_a_splat() -> None:
    # dense<[0.0, -0.0, ...]> compared by value looked like a splat of +0.
    row = ", ".join(["0.0", "-0.0"] * 4)
    const = "dense<[" + ", ".join([f"[{row}]"] * 4) + "]>"
    x = -np.ones((4, 8), np.float32)
    want = np.tile(np.array([0, 0x80000000] * 4, np.uint32), (4, 1))
    for got in all_stages(select_program("f32", const), x):
        assert np.array_equal(bits(got), want)
