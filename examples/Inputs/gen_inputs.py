"""Deterministic random inputs for one function of an example, as an ``.npz`` for ``pto-run``.

    python gen_inputs.py FILE.mlir SYMBOL OUT.npz [--seed N] [--specials]

Each argument gets values by element type: integers are nonzero (they may be divisors;
INT_MIN and -1 included), floats are normal-distributed (``--specials`` mixes in +-0, +-inf
and NaN), MX element types are rounded from normals, E8M0 scales are 2^-7 .. 2^7.
ml_dtypes arrays are written as unsigned bit patterns, as ``pto-run`` expects.
"""

from __future__ import annotations

import argparse

import ml_dtypes
import numpy as np
from xdsl.dialects import builtin, func
from xdsl.traits import SymbolTable

from interpreter.ssa.runner import load_module
from interpreter.ssa.upstream.dtypes import dtype_for


def values(t: builtin.TensorType, rng: np.random.Generator, specials: bool) -> np.ndarray:
    shape = tuple(t.get_shape())
    dt = dtype_for(t)
    elt = t.element_type
    if isinstance(elt, builtin.IntegerType):
        info = np.iinfo(dt)
        x = rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
        small = rng.integers(-9, 10, size=shape).astype(dt)
        x = np.where(rng.random(shape) < 0.5, small, x)
        x.flat[: min(4, x.size)] = np.array([info.min, -1, info.max, 1], dt)[: min(4, x.size)]
        return np.where(x == 0, dt.type(7), x)
    if isinstance(elt, builtin.Float8E8M0FNUType):
        return rng.integers(120, 135, size=shape).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    x = rng.standard_normal(shape) * (50.0 if specials else 2.0)
    if specials:
        pick = rng.random(shape)
        sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan])
        x = np.where(pick < 0.05, sp[rng.integers(0, len(sp), size=shape)], x)
        x = np.where((pick >= 0.05) & (pick < 0.15), np.round(x), x)
    return x.astype(dt)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("symbol")
    p.add_argument("out")
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--specials", action="store_true")
    ns = p.parse_args()
    module = load_module(ns.file)
    f = SymbolTable.lookup_symbol(module, ns.symbol)
    assert isinstance(f, func.FuncOp), f"no function @{ns.symbol}"
    rng = np.random.default_rng(ns.seed)
    arrays = {}
    for i, t in enumerate(f.function_type.inputs.data):
        assert isinstance(t, builtin.TensorType)
        a = values(t, rng, ns.specials)
        if a.dtype.type.__module__.startswith("ml_dtypes"):
            a = a.view(f"u{a.dtype.itemsize}")
        arrays[f"arg{i}"] = a
    np.savez(ns.out, **arrays)


if __name__ == "__main__":
    main()
