"""The compare/select rows lower exactly (D18): every function of
``tests/filecheck/lowering/compare_select_rows.mlir`` computes, after ``convert-linalg-to-pto``
(tensor level: ``pto.cmpsel``, ``pto.elementwise`` ...), ``pto-lower{level=tile}`` and as blocks,

* the bits the unlowered program computes (the upstream interpreter: MLIR semantics), NaN
  payloads included (a select copies the chosen element; ``maximumf``'s first NaN wins), and
* the value an independent Python-scalar reference gives (``math``, Python ints, the
  predicates written from their definitions), signed zeros and NaN included,

on inputs that pair every special value with every other (NaN, a NaN with another payload
and sign, +-0, +-inf, ties, INT_MIN/INT_MAX/-1) and on random inputs. Every function runs at
tensor and tile level; :data:`BLOCKS` (one of each PTO form) also as blocks.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from interpreter.ssa.runner import build_context, parse_module_text, run
from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass
from passes.pto_lower import PTOLowerPass

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = os.path.join(HERE, "..", "filecheck", "lowering", "compare_select_rows.mlir")
TEXT = open(ROWS).read()
FUNCS = [line.split("@")[1].split("(")[0] for line in TEXT.splitlines() if line.startswith("func.func @")]
ARITHMETIC = ("leakyrelu_",)  # NaN payloads through TMUL/TADD are not defined: NaN-ness only
RNG = np.random.default_rng(23)


def _nan(bits: int, dt):
    return np.array([bits], dtype=np.uint32 if dt == np.float32 else np.uint16).view(dt)[0]


def _float_pool(dt):
    """Eight values; the pair inputs are their 64 combinations."""
    other_nan = 0xFFC00123 if dt == np.float32 else 0xFE01  # negative, another payload
    return np.array([np.nan, _nan(other_nan, dt), 0.0, -0.0, np.inf, -np.inf, 1.0, -2.5], dtype=dt)


def _int_pool(dt):
    info = np.iinfo(dt)
    return np.array([info.min, info.max, 0, -1, 1, 7, -5, 100], dtype=dt)


_DT = {"f32": np.float32, "f16": np.float16, "i16": np.int16, "i32": np.int32, "i64": np.int64}


def _signature(name):
    start = TEXT.index(f"func.func @{name}(")
    sig = TEXT[start:].split("(", 1)[1].split(")")[0]
    return [a.split(": ")[1] for a in sig.split(", ")]


def _inputs(name, flag=True):
    """Inputs of the function (8 x 16): in the first 64 elements the first two operands take
    every combination of the pool (the others random pool values), the last 64 are random;
    a scalar f32 argument is -0.0, a scalar i1 ``flag``."""
    out = []
    for k, t in enumerate(_signature(name)):
        if not t.startswith("tensor"):
            out.append(np.bool_(flag) if t == "i1" else np.float32(-0.0))
            continue
        dims = t[7:-1].split("x")
        shape, dt = [int(d) for d in dims[:-1]], _DT[dims[-1]]
        is_float = dt in (np.float32, np.float16)
        pool = _float_pool(dt) if is_float else _int_pool(dt)
        pairs = np.repeat(pool, 8) if k == 0 else np.tile(pool, 8) if k == 1 else RNG.choice(pool, 64)
        rand = RNG.normal(0, 3, 64).round(1) if is_float else RNG.integers(-50, 50, 64)
        full = np.concatenate([pairs.astype(dt), rand.astype(dt)])
        n = math.prod(shape)
        out.append(full[:n].reshape(shape) if n < 128 else full.reshape(shape))
    return out


BLOCKS = frozenset(
    """select_ugt_f32 select_one_f32 select_ord_f32 max_select_f32 min_select_col_f32
    min_select_const_f32 relu_keeps_minus_zero_f32 leakyrelu_onnx_f32 select_cmpf_data_i32
    select_cmpi_ult_i32 select_cmpi_const_i16 max_select_i32 maximumf_f32 minimumf_f16
    maximumf_nan_const_f32 maximumf_row_f32 named_max_f32""".split()
)
"""Also run as blocks (one of each PTO form: TCMP/TCMPS, TSEL/TSELS, chained selects,
materialised operands, mixed compare and data types; blocks cost ~0.1 s a run)."""


@pytest.fixture(scope="module")
def lowered():
    def lower(level, keep=None):
        m = parse_module_text(TEXT)
        for f in list(m.ops):
            if keep is not None and f.sym_name.data not in keep:  # type: ignore[attr-defined]
                f.detach()
        p = ConvertLinalgToPtoPass() if level == "tensor" else PTOLowerPass(level=level)
        p.apply(build_context(), m)
        m.verify()
        return m

    return {"source": parse_module_text(TEXT), "tensor": lower("tensor"), "tile": lower("tile"),
            "block": lower("block", BLOCKS)}


def _bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}")


# ======================================================================================
# The independent reference: Python scalars
# ======================================================================================

nan = math.isnan


def _uno(a, b):
    return nan(a) or nan(b)


PRED = {
    "oeq": lambda a, b: a == b, "one": lambda a, b: not _uno(a, b) and a != b,
    "ogt": lambda a, b: a > b, "oge": lambda a, b: a >= b,
    "olt": lambda a, b: a < b, "ole": lambda a, b: a <= b,
    "ueq": lambda a, b: _uno(a, b) or a == b, "une": lambda a, b: _uno(a, b) or a != b,
    "ugt": lambda a, b: _uno(a, b) or a > b, "uge": lambda a, b: _uno(a, b) or a >= b,
    "ult": lambda a, b: _uno(a, b) or a < b, "ule": lambda a, b: _uno(a, b) or a <= b,
    "ord": lambda a, b: not _uno(a, b), "uno": _uno,
    "true": lambda a, b: True, "false": lambda a, b: False,
}  # fmt: skip
"""cmpf predicates from their definitions (Python float comparisons are the IEEE ordered ones)."""


def _u(v, w):
    return v % (1 << w)


IPRED = {
    "eq": lambda a, b, w: a == b, "ne": lambda a, b, w: a != b,
    "slt": lambda a, b, w: a < b, "sle": lambda a, b, w: a <= b,
    "sgt": lambda a, b, w: a > b, "sge": lambda a, b, w: a >= b,
    "ult": lambda a, b, w: _u(a, w) < _u(b, w), "ule": lambda a, b, w: _u(a, w) <= _u(b, w),
    "ugt": lambda a, b, w: _u(a, w) > _u(b, w), "uge": lambda a, b, w: _u(a, w) >= _u(b, w),
}  # fmt: skip


def _extreme(a, b, larger: bool):
    """MLIR maximumf (``larger``) / minimumf: a NaN operand (the first) wins; -0 < +0."""
    if nan(a) or nan(b):
        return a if nan(a) else b
    if a == b == 0:  # the zero whose sign bit is that of the wanted end
        want_negative = not larger
        return a if (math.copysign(1, a) < 0) == want_negative else b
    return max(a, b) if larger else min(a, b)


def _maximum(a, b):
    return _extreme(a, b, True)


def _minimum(a, b):
    return _extreme(a, b, False)


def _f32(x):
    return float(np.float32(x))  # one rounding to f32 (the reference of a single mulf)


def _reference(name):
    """name -> a function of the (broadcast) Python-scalar operands."""
    parts = name.split("_")
    if name.startswith("select_cmpi_") and parts[2] in IPRED:
        w = int(parts[3][1:])
        return lambda a, b, c: b if IPRED[parts[2]](a, b, w) else c
    if name.startswith("select_") and parts[1] in PRED and len(parts) == 3:
        return lambda a, b, c: a if PRED[parts[1]](a, b) else c
    lo, hi = -0.0, 0.0
    return {
        "max_select_f32": lambda a, b: a if a > b else b,
        "min_select_col_f32": lambda a, b: a if a < b else b,
        "max_select_row_f16": lambda a, b: a if a > b else b,
        "min_select_const_f32": lambda a: a if a < 0.25 else 0.25,
        "select_scalar_arg_f32": lambda a, s: a if a >= s else s,
        "select_const_lhs_f32": lambda a: 0.0 if 0.0 > a else a,
        "select_scalar_i1_arg_f32": lambda a, b, c: a if c else b,
        "relu_keeps_minus_zero_f32": lambda a: 0.0 if a < 0 else a,
        "select_oeq_scalar_true_f32": lambda a: -3.0 if a == 1.0 else a,
        "leakyrelu_torch_f32": lambda a: a if a > 0 else _f32(a * _f32(0.01)),
        "leakyrelu_onnx_f32": lambda a: _f32((0.0 if 0.0 > a else a) + (0.0 if 0.0 < a else a) * 0.125),
        "select_and_f32": lambda a, b, c: a if (a > b and a < c) else 0.0,
        "select_or_f32": lambda a, b, c: b if (a > b or _uno(b, c)) else c,
        "select_not_f32": lambda a, b: a if not a < b else b,
        "select_xor_f32": lambda a, b, c: a if (a < b) != PRED["uge"](b, c) else c,
        "select_of_i1_select_f32": lambda a, b, c: a if ((a < c) if a > b else (b == c)) else b,
        "select_cmpf_data_i32": lambda a, b, c, d: c if PRED["ult"](a, b) else d,
        "max_select_i32": max,
        "min_select_swapped_u16": lambda a, b: b if _u(a, 16) >= _u(b, 16) else a,
        "max_select_const_i64": lambda a: a if -5 < a else -5,
        "min_select_col_i32": lambda a, b: a if _u(a, 32) <= _u(b, 32) else b,
        "select_cmpi_const_i16": lambda a, b: b if _u(a, 16) > 7 else -1,
        "maximumf_f32": _maximum,
        "named_max_f32": _maximum,
        "named_min_f16": _minimum,
        "minimumf_f16": _minimum,
        "minimumf_const_f32": lambda a: _minimum(a, 0.5),
        "minimumf_minus_zero_f32": lambda a: _minimum(lo, a),
        "maximumf_nan_const_f32": lambda a: _maximum(a, math.nan),
        "maximumf_row_f32": _maximum,
        "maximumf_scalar_arg_f32": lambda a, s: _maximum(s, a),
    }[name]
    del hi


def _same(got: float, want: float) -> bool:
    if isinstance(want, float) and nan(want):
        return nan(got)
    return got == want and math.copysign(1, got) == math.copysign(1, want) if isinstance(want, float) else got == want


# ======================================================================================
# Tests
# ======================================================================================


def test_every_function_has_a_reference():
    assert len(FUNCS) > 50 and BLOCKS <= set(FUNCS)
    for name in FUNCS:
        assert callable(_reference(name)), name


@pytest.mark.parametrize("name", FUNCS)
def test_row_is_exact(name, lowered):
    for flag in (True, False) if "i1" in _signature(name) else (True,):
        _check(name, _inputs(name, flag), lowered)


def _check(name, inputs, lowered):
    (want,) = run(lowered["source"], name, *inputs)
    ref = _reference(name)
    full = [np.broadcast_to(x.reshape(x.shape if x.ndim != 1 else (1, -1)), want.shape).ravel().tolist()
            if np.ndim(x) else [float(x)] * want.size for x in inputs]  # fmt: skip
    expect = [ref(*args) for args in zip(*full)]
    for level in ("tensor", "tile", "block") if name in BLOCKS else ("tensor", "tile"):
        (got,) = run(lowered[level], name, *inputs)
        assert got.dtype == want.dtype and got.shape == want.shape
        g, w = _bits(got).copy(), _bits(want).copy()
        if name.startswith(ARITHMETIC):
            nans = np.isnan(want)
            assert (np.isnan(got) == nans).all(), (level, name)
            g[nans] = w[nans] = 0
        np.testing.assert_array_equal(g, w, err_msg=f"{level} {name}: not the unlowered bits")
        bad = [(args, r, e) for args, r, e in zip(zip(*full), got.ravel().tolist(), expect) if not _same(r, e)]
        assert not bad, (level, name, bad[:4])
