"""``pto.cmpsel`` (tensor-level compare + select) against a Python reference, at tensor level,
after ``pto-tile-to-capacity`` (TCMP(S) + TSEL(S) tile loops) and after block formation, on
both engines (docs/predicates.md)."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from interpreter import run
from interpreter.ssa.runner import build_context, parse_module_text
from passes import get_all_passes

PROGRAM = """
func.func @f(%a: tensor<{n}x{ea}>, %b: tensor<{n}x{ea}>, %t: tensor<{n}x{ed}>, %f: tensor<{n}x{ed}>, %s: i64, %z: i64)
    -> (tensor<{n}x{ed}>, tensor<{n}x{ed}>) {{
  %r = pto.cmpsel {mode} {sign}%a, %b, %t, %f : (tensor<{n}x{ea}>, tensor<{n}x{ea}>, tensor<{n}x{ed}>, tensor<{n}x{ed}>) -> tensor<{n}x{ed}>
  %q = pto.cmpsel ne {sign}%a, %s, %t, %z : (tensor<{n}x{ea}>, i64, tensor<{n}x{ed}>, i64) -> tensor<{n}x{ed}>
  func.return %r, %q : tensor<{n}x{ed}>, tensor<{n}x{ed}>
}}
"""
WORD_OF_TWO = {"f32": struct.unpack("<I", struct.pack("<f", 2.0))[0], "f16": 0x4000,
               "f64": struct.unpack("<Q", struct.pack("<d", 2.0))[0], "i8": 2, "i32": 2}
"""The GPR word whose low element-width bits encode 2 (written with struct, not numpy)."""
REL = {"lt": lambda x, y: x < y, "ge": lambda x, y: x >= y, "eq": lambda x, y: x == y}


def _lowered(text: str, passes: tuple[str, ...]):
    ctx = build_context()
    m = parse_module_text(text, ctx=ctx)
    for name in passes:
        get_all_passes()[name]()().apply(ctx, m)
    m.verify()
    return m


@pytest.mark.parametrize("ea,ed,mode,n", [("f32", "f32", "lt", 1000), ("f16", "i32", "ge", 96),
                                          ("i8", "f64", "eq", 40)])
def test_cmpsel_levels_agree_with_python(ea, ed, mode, n):
    rng = np.random.default_rng(5)
    npa = {"f32": np.float32, "f16": np.float16, "i8": np.int8}[ea]
    npd = {"f32": np.float32, "i32": np.int32, "f64": np.float64}[ed]
    a = rng.integers(-3, 4, n).astype(npa)
    b = rng.integers(-3, 4, n).astype(npa)
    if ea != "i8":
        a[0], b[1], a[2], b[2] = np.nan, np.nan, -0.0, 0.0
    t = rng.integers(-50, 50, n).astype(npd)
    f = rng.integers(-50, 50, n).astype(npd)
    text = PROGRAM.format(n=n, ea=ea, ed=ed, mode=mode, sign="signed " if ea == "i8" else "")
    fa, fb = a.astype(float).tolist(), b.astype(float).tolist()
    want_r = [ti if (not math.isnan(x) and not math.isnan(y) and REL[mode](x, y)) else fi
              for x, y, ti, fi in zip(fa, fb, t.tolist(), f.tolist())]  # fmt: skip
    want_q = [ti if (math.isnan(x) or x != 2) else 2 for x, ti in zip(fa, t.tolist())]
    for passes in ((), ("pto-tile-to-capacity",),
                   ("pto-tile-to-capacity", "pto-form-blocks", "pto-assign-registers")):  # fmt: skip
        r, q = run(_lowered(text, passes), "f", a, b, t, f, WORD_OF_TWO[ea], WORD_OF_TWO[ed],
                   engine="both")  # fmt: skip
        assert r.tolist() == want_r, passes
        assert q.tolist() == want_q, passes
