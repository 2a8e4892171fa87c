"""Kernel engine selection: the numpy reference or compiled (numba) kernels (issue 26).

``PTO_KERNELS=numpy|compiled`` (read at every call) chooses how the kernels whose semantics
are sequential run; the default is ``compiled`` when numba is installed, else ``numpy``.
Both compute identical bits (``tests/interpreter/test_cube_jit.py`` runs both). The
compiled kernels live in :mod:`.cube_jit`; this module imports it (and with it numba) only
on the first compiled call, so importing the interpreter or starting ``pto-opt`` never loads
numba. Compiled code is cached on disk by numba (``cache=True``: ``__pycache__`` beside the
source, or ``NUMBA_CACHE_DIR``), so only the first call on a machine pays for compilation.
docs/compiled-kernels.md has the figures.

Covered (compiled): the ``ordered`` FP32 accumulation of every CUBE input pair with an FP32
accumulator, MX (scaled, packed X2) and non-MX; the whole ``exact`` MX GEMV for block-exact
pairs with 8-bit B codes (:func:`.cube_jit.exact_gemv`), and the scaled block sums that the
``exact`` profile reads for the other block-exact MX products. Everything else runs the
numpy reference: the other ``exact`` cases, ``raw-carrier``, and integer accumulators (whose
exact float64 BLAS form is already at the speed of a float matmul). Other kernel families
select their compiled form with :func:`compiled` the same way (:mod:`.reduce_jit`;
:mod:`.numeric_jit` through :func:`numeric`).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from pto_dialect.datatypes import TileDataType

from . import accumulate as acc_mod
from . import mx
from .profiles import NumericProfile

T = TileDataType
ENV = "PTO_KERNELS"
ENGINES = ("numpy", "compiled")
_FP32_FAMILY = (T.FP32, T.TF32, T.HF32)
_AVAILABLE: bool | None = None


def available() -> bool:
    """numba is installed and imports (checked once, at the first kernel call that asks: an
    installed but broken numba, for example one built for another numpy, means numpy)."""
    global _AVAILABLE
    if _AVAILABLE is None:
        _AVAILABLE = importlib.util.find_spec("numba") is not None
        if _AVAILABLE:
            try:
                importlib.import_module("numba")
            except Exception:  # noqa: BLE001 - any failure to load means no compiled kernels
                _AVAILABLE = False
    return _AVAILABLE


def engine() -> str:
    """The kernel engine in effect: ``$PTO_KERNELS`` if set, else ``compiled`` when numba is
    installed. An unknown value, or ``compiled`` without numba, is a ValueError."""
    name = os.environ.get(ENV, "").strip().lower()
    if not name:
        return "compiled" if available() else "numpy"
    if name not in ENGINES:
        raise ValueError(f"{ENV}={name!r}: expected one of {', '.join(ENGINES)}")
    if name == "compiled" and not available():
        raise ValueError(f"{ENV}=compiled but numba is not installed")
    return name


def compiled() -> bool:
    return engine() == "compiled"


@contextmanager
def selected(name: str) -> Iterator[None]:
    """Run the body with ``$PTO_KERNELS`` set to ``name`` (``numpy`` or ``compiled``), then
    restore what was there (unset included)."""
    if name not in ENGINES:
        raise ValueError(f"{ENV}={name!r}: expected one of {', '.join(ENGINES)}")
    old = os.environ.get(ENV)
    os.environ[ENV] = name
    try:
        yield
    finally:
        if old is None:
            del os.environ[ENV]
        else:
            os.environ[ENV] = old


def numeric():
    """:mod:`.numeric_jit`, the compiled TCVT / TQUANT / TSQRT kernels (numba: imported on
    the first compiled call only)."""
    from . import numeric_jit

    return numeric_jit


def float_values(t: TileDataType, codes: np.ndarray) -> np.ndarray:
    """Exact float64 values of float codes: FP32-family bit patterns (uint32) or indices into
    the type's value table."""
    if t in _FP32_FAMILY:
        return codes.astype(np.uint32, copy=False).view(np.float32).astype(np.float64)
    return mx.value_lut(t)[codes]


class DenseCodes(NamedTuple):
    """A non-MX product with an FP32 accumulator, as codes: A (M, K), B (K, N)."""

    at: TileDataType
    ca: np.ndarray
    bt: TileDataType
    cb: np.ndarray

    @property
    def shape(self) -> tuple[int, int, int]:
        return (self.ca.shape[0], self.ca.shape[1], self.cb.shape[1])

    def terms(self) -> acc_mod.DenseTerms:
        return acc_mod.DenseTerms(float_values(self.at, self.ca), float_values(self.bt, self.cb))


def value_range(t: TileDataType) -> tuple[int, int]:
    """(lsb, top) of an element format: every finite value is a multiple of 2^lsb and its
    magnitude is below 2^top."""
    lut = mx.value_lut(t)
    fin = np.abs(lut[np.isfinite(lut)])
    nz = fin[fin > 0]
    return int(np.floor(np.log2(nz.min()))), int(np.floor(np.log2(nz.max()))) + 1


class MxCodes(NamedTuple):
    """An MX product as codes (the arguments of :class:`.accumulate.MxTerms`): A codes (M, K),
    B codes (K, N) or packed X2 bytes (K, N/2), E8M0 scale codes (M, nb) / (nb, N) or None."""

    ca: np.ndarray
    at: TileDataType
    sa: np.ndarray | None
    cb: np.ndarray
    bt: TileDataType
    b_packed: bool
    sb: np.ndarray | None
    n: int

    @property
    def shape(self) -> tuple[int, int, int]:
        return (self.ca.shape[0], self.ca.shape[1], self.n)

    def ranges(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return value_range(self.at), value_range(self.bt)

    def terms(self) -> acc_mod.MxTerms:
        return acc_mod.MxTerms(*self)


def _cube_jit():
    from . import cube_jit  # numba: loaded on the first compiled call only

    return cube_jit


def _compiled_ordered(src, c):
    cube_jit = _cube_jit()
    m, _, n = src.shape
    acc = np.zeros((m, n), np.float32) if c is None else np.array(c, np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        if isinstance(src, DenseCodes):
            return cube_jit.dense_ordered(src.at, src.ca, src.bt, src.cb, acc)
        return cube_jit.mx_ordered(src, acc)


def accumulate(profile: str, src, c: np.ndarray | None, bias: np.ndarray | None) -> np.ndarray:
    """The FP32 accumulation of a CUBE product (``ordered``, ``fp32-sequential`` or ``exact``;
    :mod:`.accumulate`) for ``src`` a :class:`DenseCodes` or :class:`MxCodes`: (M, N)
    float32, compiled where covered."""
    if profile != NumericProfile.EXACT and compiled():
        acc = _compiled_ordered(src, c)
        if bias is None:
            return acc
        with np.errstate(invalid="ignore", over="ignore"):
            return acc + bias.astype(np.float32)
    if profile == NumericProfile.EXACT and compiled() and isinstance(src, MxCodes):
        cube_jit = _cube_jit()
        with np.errstate(invalid="ignore", over="ignore"):
            fast = cube_jit.exact_gemv(src, c, bias)
        if fast is not None:
            return fast
        src = cube_jit.BlockSumTerms(*src)
    else:
        src = src.terms()
    run = acc_mod.exact if profile == NumericProfile.EXACT else acc_mod.ordered
    return run(src, c, bias)
