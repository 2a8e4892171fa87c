"""Reading the committed frontend corpus (``tests/corpus/generate.py`` writes it).

``CASES`` lists the manifest's entries; :func:`inputs` and :func:`expected` give the
recorded arrays with bf16 restored from its bit patterns; :func:`assert_matches` compares a
result with the recorded output by the case's ``compare`` class:

* ``exact`` — bit for bit (NaNs compare equal to NaNs; D18's elementwise rule);
* ``contraction`` — within the FP32 contraction bound: the recorded output (onnxruntime's
  blocked, vectorised sum) and MLIR's sequential sum each lie within ``(K + 2)·u·Σ|terms|``
  of the exact value, so they differ by at most twice that, plus one ulp of the result type
  for f16/bf16 outputs; checked loosely as ``rtol`` against the result's magnitude;
* ``transcendental`` — a few ulps of the result type (onnxruntime's exp/log/tanh/erf are not
  correctly rounded, nor is numpy's, so neither is bit-exact against the other).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
DATA = os.path.join(HERE, "data")


@dataclass(frozen=True)
class CorpusCase:
    name: str
    compare: str
    reference: str
    onnx_ops: tuple[str, ...]
    bf16: tuple[str, ...]

    @property
    def path(self) -> str:
        return os.path.join(PROGRAMS, f"{self.name}.mlir")

    def text(self) -> str:
        with open(self.path) as f:
            return f.read()

    def _arrays(self) -> dict[str, np.ndarray]:
        with np.load(os.path.join(DATA, f"{self.name}.npz")) as z:
            out = {k: z[k] for k in z.files}
        for k in self.bf16:
            out[k] = out[k].view(ml_dtypes.bfloat16)
        return out

    def inputs(self) -> list[np.ndarray]:
        arrays = self._arrays()
        return [arrays[f"arg{i}"] for i in range(sum(k.startswith("arg") for k in arrays))]

    def expected(self) -> np.ndarray:
        return self._arrays()["result0"]


def _load() -> list[CorpusCase]:
    with open(os.path.join(HERE, "manifest.json")) as f:
        entries = json.load(f)
    return [
        CorpusCase(e["name"], e["compare"], e["reference"], tuple(e["onnx_ops"]), tuple(e["bf16"]))
        for e in entries
    ]


CASES: list[CorpusCase] = _load()
BY_NAME: dict[str, CorpusCase] = {c.name: c for c in CASES}


def _ulp_tol(dtype: np.dtype[Any]) -> float:
    if dtype == np.float16:
        return 2.0**-10
    if dtype == ml_dtypes.bfloat16:
        return 2.0**-7
    return 2.0**-23


def assert_matches(case: CorpusCase, got: Any, want: np.ndarray | None = None, what: str = "") -> None:
    """``got`` equals the recorded output under the case's compare class."""
    want = case.expected() if want is None else want
    got = np.asarray(got)
    label = f"{case.name}{' ' + what if what else ''}"
    assert got.shape == want.shape, f"{label}: shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"{label}: dtype {got.dtype} != {want.dtype}"
    if case.compare == "exact" or want.dtype.kind in "iub":
        if want.dtype.kind == "f" or want.dtype == ml_dtypes.bfloat16:
            g, w = got.astype(np.float64), want.astype(np.float64)
            same = (g == w) & (np.signbit(g) == np.signbit(w)) | (np.isnan(g) & np.isnan(w))
            bad = np.argwhere(~same)
            assert not bad.size, f"{label}: {len(bad)} elements differ, first at {tuple(bad[0])}: {g[tuple(bad[0])]!r} != {w[tuple(bad[0])]!r}"
        else:
            np.testing.assert_array_equal(got, want, err_msg=label)
        return
    g, w = got.astype(np.float64), want.astype(np.float64)
    u = _ulp_tol(want.dtype)
    if case.compare == "contraction":
        scale = max(1.0, float(np.max(np.abs(w))))
        np.testing.assert_allclose(g, w, rtol=0, atol=256 * u * scale, err_msg=label)
    else:
        np.testing.assert_allclose(g, w, rtol=8 * u, atol=8 * u, err_msg=label)
