"""Tile-local kernel benchmarks: reductions and expansions against bare numpy in the same run.

* TROWSUM / TCOLSUM (FP32, S32) vs ``np.sum(x, axis)`` (target <= 1.5x). The kernel is the
  architectural increasing-index left fold, one rounding per step. ``np.sum`` along a row
  sums pairwise with SIMD (a different result for floats), so for FP32 TROWSUM the anchor
  that computes the same answer, ``np.add.accumulate(x, axis=1)[:, -1]``, is also shown:
  a sequential fold along the contiguous axis cannot be vectorised without a transpose.
  Integer sums wrap (associative), so they use ``np.sum`` itself; TCOLSUM folds whole rows
  in order, which is ``np.sum(axis=0)``'s own order.
* TROWMAX vs ``np.max(x, axis=1)``, TROWEXPANDADD vs ``x + b`` (broadcast).
* TSORT (FP32, width 32) vs a stable ``np.argsort`` of the (rows, groups, 32) view plus the
  gather of the values (the bare numpy sort without the NaN-last / signed-zero key).

Times are the best of a few repeats on the machine as shared; compare ratios.
"""

from __future__ import annotations

import numpy as np

from benchmarks.bench_kernels import best_of
from interpreter.kernels import local_tile
from pto_dialect.datatypes import TileDataType as T


def _case(label, anchor, kernel, repeat):
    t_np = best_of(anchor, repeat)
    t_k = best_of(kernel, repeat)
    print(f"  {label:34s} {t_np * 1e3:9.2f} {t_k * 1e3:9.2f} {t_k / t_np:7.2f}")
    return t_k / t_np


def run(quick: bool = False) -> dict[str, float]:
    rng = np.random.default_rng(3)
    repeat = 3 if quick else 5
    shapes = [(64, 256), (1024, 1024)] if quick else [(64, 256), (2048, 2048), (8192, 1024)]
    out: dict[str, float] = {}
    print(f"Tile-local kernels (ms, best of {repeat}); target ratio <= 1.5 for TROWSUM")
    print(f"  {'case':34s} {'numpy':>9s} {'kernel':>9s} {'ratio':>7s}")
    for r, c in shapes:
        x = rng.standard_normal((r, c)).astype(np.float32)
        xi = rng.integers(-1000, 1000, (r, c)).astype(np.int32)
        b = rng.standard_normal((r, 1)).astype(np.float32)
        out[f"TROWSUM f32 {r}x{c}"] = _case(
            f"TROWSUM f32 {r}x{c} vs np.sum", lambda: np.sum(x, axis=1),  # noqa: B023
            lambda: local_tile("TROWSUM", [x], [T.FP32], T.FP32, (r, 1)), repeat)  # noqa: B023
        out[f"TROWSUM f32 {r}x{c} seq"] = _case(
            f"TROWSUM f32 {r}x{c} vs np.add.accumulate",
            lambda: np.add.accumulate(x, axis=1)[:, -1],  # noqa: B023
            lambda: local_tile("TROWSUM", [x], [T.FP32], T.FP32, (r, 1)), repeat)  # noqa: B023
        out[f"TROWSUM s32 {r}x{c}"] = _case(
            f"TROWSUM s32 {r}x{c} vs np.sum", lambda: np.sum(xi, axis=1, dtype=np.int32),  # noqa: B023
            lambda: local_tile("TROWSUM", [xi], [T.S32], T.S32, (r, 1)), repeat)  # noqa: B023
        out[f"TCOLSUM f32 {r}x{c}"] = _case(
            f"TCOLSUM f32 {r}x{c} vs np.sum", lambda: np.sum(x, axis=0),  # noqa: B023
            lambda: local_tile("TCOLSUM", [x], [T.FP32], T.FP32, (1, c)), repeat)  # noqa: B023
        out[f"TROWMAX f32 {r}x{c}"] = _case(
            f"TROWMAX f32 {r}x{c} vs np.max", lambda: np.max(x, axis=1),  # noqa: B023
            lambda: local_tile("TROWMAX", [x], [T.FP32], T.FP32, (r, 1)), repeat)  # noqa: B023
        out[f"TROWEXPANDADD f32 {r}x{c}"] = _case(
            f"TROWEXPANDADD f32 {r}x{c} vs x + b", lambda: x + b,  # noqa: B023
            lambda: local_tile("TROWEXPANDADD", [x, b], [T.FP32] * 2, T.FP32, (r, c)), repeat)  # noqa: B023
        if c % 32 == 0:
            def anchor(x=x, r=r, c=c):
                g = x.reshape(r, c // 32, 32)
                k = np.argsort(g, axis=-1, kind="stable")
                return np.take_along_axis(g, k, axis=-1), k.astype(np.uint32)

            out[f"TSORT f32 {r}x{c}"] = _case(
                f"TSORT f32 {r}x{c} vs np.argsort", anchor,
                lambda: local_tile("TSORT", [x], [T.FP32], T.FP32, (r, c), (32, 0)),  # noqa: B023
                repeat)  # fmt: skip
    return out


if __name__ == "__main__":
    run()
