"""Numeric status flags: the sticky NV DZ OF UF NX vector of a run (``RecordNumericStatusFlags``).

The ISA keeps five sticky flags in CORE_STATE[36:32] (``asl/arch/state/numeric-status.asl``,
``PTO-NUMERIC-STATUS-STICKY-001``): bit 0 NV (invalid), bit 1 DZ (divide by zero), bit 2 OF
(overflow), bit 3 UF (underflow), bit 4 NX (inexact). A successful operation ORs the flags
it produced into them; nothing but a reset clears them. The operations that record (the
ASL callers of ``RecordNumericStatusFlags`` / ``ScalarFPRecordFlags``) and what this
interpreter records for them:

* unary (``ExecuteTileUnary``, ``asl/tile/model/execution/unary.asl``), by each op class's
  ``STATUS`` row (:class:`pto_dialect.status_rules.UnaryStatus`): TABS / TNEG never;
  TRELU NV for a signalling NaN; TEXP TLOG TRECIP TSQRT TRSQRT the IEEE vector of the
  special values (``TileSFUUnarySpecialValue``: sNaN NV, log/recip/rsqrt of zero DZ, log /
  sqrt / rsqrt of a negative NV) and, for ordinary operands, OF / UF / NX of the rounded
  result (:func:`unary_flags`);
* tile-scalar (``ExecuteTileScalar``, ``elementwise.asl``): the OR of
  ``TileProfileBinaryWithFlags`` over the valid elements (:func:`binary_flags`): IEEE NV DZ
  OF UF NX for ADD SUB MUL DIV, NV for a signalling NaN operand of MAX / MIN, the floating
  modulo flags of REM (``TileProfileFloatingModuloFlags``, profile-defined: NV for a
  signalling NaN, a zero divisor or an infinite dividend; NX / UF when the sign adjustment
  of the floor remainder rounds); integers never;
* TFMA (``fused-multiply-add.asl``): IEEE NV OF UF NX of the one-rounding result;
* TMRGSORT (``sorting.asl``): NV when a source holds a signalling NaN;
* tile-tile binary ops (``ExecuteTileBinary``) record NOTHING: the ASL discards the flags
  of ``TileProfileBinaryWithFlags`` there (``TileProfileBinary``); :func:`binary_flags`
  still gives their value-level flags (the AVS ``TMAX-NAN`` pass condition).

* TCMP / TCMPS: NV for a signalling NaN (``TileProfileFloatingCompare``); TPART*: the
  tile-scalar rows' flags on the overlap (``complex.asl``); TCVT / TQUANT / TDEQUANT:
  :func:`convert_flags`, :func:`e8m0_flags`, :func:`quantize_flags`,
  :func:`dequantize_flags`.

TSORT: NV for a signalling NaN (``sorting.asl``).

TCVT into HiF8 / FP6 / FP4: :func:`_coded_flags`. Reductions and expansions:
:func:`.tile_local.fold_flags` and the binary / unary flags of each element. CUBE
post-processing and RowMax / GroupMax (``CommitMatrixResult``):
:mod:`.postprocess_status`.

Conventions. Underflow is tininess after rounding (the rounded result's magnitude is below
the format's smallest normal, zero included) together with inexactness. Inexactness is
decided exactly with error-free transformations in float64 (TwoSum; Dekker's product on
factors normalised to [0.5, 1), :func:`product_is`): exact for every format and operation,
except FP64 TFMA within a factor 2^27 of float64's overflow or underflow. An E4M3 result that overflows is NaN (no infinity): it counts as OF.

Recording is lazy: kernels call :func:`active` and compute flags only when a
:class:`NumericStatus` is recording (``interpreter.run(..., flags=...)``,
``pto-run --print-flags``, or ``with recording() as st:``), so a run that does not ask pays
one context-variable lookup per kernel call. Each flag is one ``numpy`` mask reduction over
the whole tile, never a per-element loop. An operation's flags are staged (:func:`staged`)
and published only when the whole operation (every PE) succeeded: a fault leaves the flags
as they were before the faulting operation (D12).
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator

import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.families import OP_OF_MNEMONIC
from pto_dialect.status_rules import UnaryStatus

T = TileDataType

NV, DZ, OF, UF, NX = 1, 2, 4, 8, 16
"""The five flag bits of ``CORE_STATE[36:32]`` (``Zeros{5} + 1`` is NV, ``+ 0x14`` OF|NX)."""
FLAG_NAMES = ("NV", "DZ", "OF", "UF", "NX")


def flag_names(bits: int) -> tuple[str, ...]:
    """The names of the set flags, NV first: ``flag_names(0x14) == ("OF", "NX")``."""
    return tuple(n for i, n in enumerate(FLAG_NAMES) if bits >> i & 1)


class NumericStatus:
    """A sticky numeric status vector: operations OR their flags in, only :meth:`clear`
    clears. ``bits`` is the 5-bit value; ``names`` the set flags."""

    __slots__ = ("_lock", "bits")

    def __init__(self, bits: int = 0):
        self.bits = int(bits) & 0x1F
        self._lock = threading.Lock()

    def record(self, flags: int) -> None:
        if flags:
            with self._lock:  # the compiled engine may run loop iterations in two threads
                self.bits |= flags

    def clear(self) -> None:
        self.bits = 0

    @property
    def names(self) -> tuple[str, ...]:
        return flag_names(self.bits)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NumericStatus):
            return self.bits == other.bits
        if isinstance(other, int):
            return self.bits == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.bits)

    def __repr__(self) -> str:
        return f"NumericStatus({'|'.join(self.names) or 'none'})"


_CURRENT: contextvars.ContextVar[NumericStatus | None] = contextvars.ContextVar(
    "pto_numeric_status", default=None
)


def active() -> bool:
    """True when flags are being recorded (kernels compute them only then)."""
    return _CURRENT.get() is not None


def record(flags: int) -> None:
    """OR ``flags`` into the recording status (no-op when nothing records)."""
    st = _CURRENT.get()
    if st is not None:
        st.record(flags)


@contextlib.contextmanager
def recording(status: NumericStatus | None = None) -> Iterator[NumericStatus]:
    """Record every kernel's flags into ``status`` (a new one by default) inside the block."""
    st = NumericStatus() if status is None else status
    token = _CURRENT.set(st)
    try:
        yield st
    finally:
        _CURRENT.reset(token)


@contextlib.contextmanager
def staged() -> Iterator[None]:
    """One operation's publication group: flags recorded inside reach the run's status only
    if the block completes; an exception (a fault) discards them (D12)."""
    outer = _CURRENT.get()
    if outer is None:
        yield
        return
    inner = NumericStatus()
    token = _CURRENT.set(inner)
    try:
        yield
    finally:
        _CURRENT.reset(token)
    outer.record(inner.bits)  # not reached when the block raised


# ---- vectorised flag computation -------------------------------------------------------

_MIN_NORMAL = {
    T.FP64: 2.0**-1022, T.FP32: 2.0**-126, T.TF32: 2.0**-126, T.HF32: 2.0**-126,
    T.BF16: 2.0**-126, T.FP16: 2.0**-14, T.E5M2: 2.0**-14, T.E4M3: 2.0**-6,
}  # fmt: skip
"""Smallest positive normal of each floating element type (tininess threshold)."""

CODED_DESTINATIONS = {T.HIF8: 2.0**-15, T.E3M2: 2.0**-2, T.E2M3: 1.0, T.E2M1X2: 1.0,
                      T.E1M2X2: 1.0, T.HIF4X2: 1.0}  # fmt: skip
"""TCVT destinations whose results :func:`convert_flags` receives as decoded float64 values
(HiF8 and the FP6 / FP4 formats), with their smallest normal magnitude. HiF8 follows the
ASL encoder ``ReferenceFP8Encoding`` (tininess before rounding, below 2^-15); E3M2, E2M3,
E2M1X2, E1M2X2 and HiF4X2 have neither infinity nor NaN (D20: overflow and infinities give
+-max, NaN gives +0)."""

_QUIET_BIT = {T.FP64: 1 << 51, T.FP32: 1 << 22, T.TF32: 1 << 22, T.HF32: 1 << 22,
              T.BF16: 1 << 6, T.FP16: 1 << 9, T.E5M2: 1 << 1}  # fmt: skip
"""The quiet bit (fraction MSB) of the IEEE-like formats; E4M3's NaNs are all quiet."""


def fold(*masks: np.ndarray) -> int:
    """Flags (NV, DZ, OF, UF, NX order) from boolean masks: bit i set when mask i has a True."""
    return sum(1 << i for i, m in enumerate(masks) if m is not None and bool(np.any(m)))


def signalling_nan(x: np.ndarray, t: TileDataType) -> np.ndarray:
    """Mask of signalling NaNs of a float carrier array (NaN with the quiet bit clear)."""
    q = _QUIET_BIT.get(t)
    if q is None:
        return np.zeros(x.shape, bool)
    u = x.view(np.dtype(f"u{x.dtype.itemsize}"))
    return np.isnan(x) & ((u & np.array(q, u.dtype)) == 0)


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = a * 134217729.0  # Veltkamp: 2^27 + 1
    hi = c - (c - a)
    return hi, a - hi


def two_sum(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Knuth's TwoSum in float64: s + e == x + y exactly."""
    s = x + y
    bb = s - x
    return s, (x - (s - bb)) + (y - bb)


def two_prod(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's product in float64: p + e == x * y exactly (away from over/underflow)."""
    p = x * y
    xh, xl = _split(x)
    yh, yl = _split(y)
    return p, ((xh * yh - p) + xh * yl + xl * yh) + xl * yl


def product_is(x: np.ndarray, y: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Mask of ``x * y == target`` exactly (finite float64 arrays). The factors are
    normalised to [0.5, 1) first, so Dekker's product neither overflows nor underflows."""
    xm, ex = np.frexp(x)
    ym, ey = np.frexp(y)
    tm, et = np.frexp(target)
    p, e = two_prod(xm, ym)
    scaled = np.ldexp(tm, np.clip(et - ex - ey, -4, 4))  # exact: the shift is -1, 0 or +1
    nonzero = (e == 0) & (p == scaled) & (np.abs(et - ex - ey) <= 1) & (target != 0)
    return np.where((x == 0) | (y == 0), target == 0, nonzero)


def _tiny(r: np.ndarray, t: TileDataType) -> np.ndarray:
    return np.abs(r) < _MIN_NORMAL[t]


def _f64(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float64)


def _pow2(x: np.ndarray) -> np.ndarray:
    return np.abs(np.frexp(x)[0]) == 0.5


# ---- fast paths: large all-finite tiles (the common case) -----------------------------------
FAST_MIN = 2048
"""Tiles of at least this many elements try the fast path first: flags are ORed over the
tile, so the NX test stops at the first inexact chunk (a 512-element sample, then 64K
chunks), UF is tested on the tiny results only, and NV DZ OF are excluded by a few
reductions (min / max of the operands and the result). Anything unusual (a NaN or an
infinity among operands or results, a zero divisor) takes the full path."""
_CHUNK = 1 << 16


_EXP_MASK = {T.FP16: 0x7C00, T.BF16: 0x7F80, T.E5M2: 0x7C, T.E4M3: 0x78}
"""Exponent fields of the carriers numpy reduces slowly (software float16 / ml_dtypes)."""


def _exponents(x: np.ndarray, t: TileDataType) -> np.ndarray:
    u = x.view(np.dtype(f"u{x.dtype.itemsize}"))
    return u & np.array(_EXP_MASK[t], u.dtype)


def _all_finite(t: TileDataType, *arrays: np.ndarray) -> bool:
    """No NaN and no infinity: min / max propagate NaN (float32 / float64), else the
    exponent field (E4M3: only S.1111.111 is NaN, it has no infinity)."""
    for x in arrays:
        if not x.size:
            continue
        if t not in _EXP_MASK or x.dtype.kind == "f" and x.dtype.itemsize >= 4:
            if not (np.isfinite(x.min()) and np.isfinite(x.max())):
                return False
        elif t is T.E4M3:
            if ((x.view(np.uint8) & np.uint8(0x7F)) == 0x7F).any():
                return False
        elif _exponents(x, t).max() == _EXP_MASK[t]:
            return False
    return True


def _chunks(n: int):
    """A 512-element sample, then 64K-element chunks: scans stop at the first witness."""
    k = min(n, 512)
    yield slice(0, k)
    for i in range(k, n, _CHUNK):
        yield slice(i, min(i + _CHUNK, n))


def _tiny_mask(r: np.ndarray, t: TileDataType, sel) -> np.ndarray:
    """Results at flat positions ``sel`` below the smallest normal (zeros included): a zero
    exponent field for the software-float carriers, ``|r| < min normal`` otherwise."""
    x = r.reshape(-1)[sel]
    if t in _EXP_MASK and x.dtype.itemsize < 4:
        return _exponents(x, t) == 0
    return np.abs(x) < _MIN_NORMAL[t]


def _fast(inexact, r: np.ndarray, t: TileDataType, tiny_exact: bool = False) -> int:
    """UF / NX of an all-finite, non-overflowing tile from its ``inexact(sel)`` test (a mask
    over the flat positions ``sel``): flags are ORed over the tile, so each scan stops at its
    first witness, and UF is looked for among the tiny results only. ``tiny_exact``: the
    operation's algebra proves every tiny result exact (no UF), so there is no UF scan."""
    n = r.size
    for sel in () if tiny_exact else _chunks(n):
        tiny = _tiny_mask(r, t, sel)
        if tiny.any():
            pos = np.arange(sel.start, sel.stop)[tiny]
            if inexact(pos).any():
                return UF | NX
    return NX if any(inexact(sel).any() for sel in _chunks(n)) else 0


def _pick(x: np.ndarray, sel) -> np.ndarray:
    """float64 values of the flat positions ``sel`` (a broadcast (1, 1) scalar as it is)."""
    return _f64(x.reshape(-1) if x.size == 1 else x.reshape(-1)[sel])


def _positive(x: np.ndarray, t: TileDataType) -> bool:
    """Every element > 0 (sign bit clear and not zero), for finite carriers narrower than
    float32 (:func:`_positive_finite` decides float32 / float64 by two reductions)."""
    u = x.view(np.dtype(f"u{x.dtype.itemsize}"))
    return bool(u.max() < (1 << (8 * x.dtype.itemsize - 1)) and u.min() > 0)


def _positive_finite(x: np.ndarray, t: TileDataType) -> bool:
    """:func:`_all_finite` and :func:`_positive` together: float32 / float64 by two
    reductions (the minimum > 0 excludes NaN, -inf and every value <= 0; the maximum below
    +inf excludes +inf), the others by both tests."""
    if x.dtype.kind == "f" and x.dtype.itemsize >= 4:
        return not x.size or bool(x.min() > 0 and x.max() < np.inf)
    return _all_finite(t, x) and _positive(x, t)


def _binary_inexact(op: str, x, y, z) -> np.ndarray:
    """Mask of z != x op y exactly (finite float64 operands and results, y != 0 for DIV)."""
    if op in ("ADD", "SUB"):
        s, e = two_sum(x, y if op == "ADD" else -y)
        return ~((z == s) & (e == 0))
    if op == "MUL":
        return ~product_is(x, y, z)
    return ~(product_is(z, y, x) & ((z != 0) | (x == 0)))


def _binary_fast(op: str, a, b, r, t: TileDataType) -> int | None:
    if r.size < FAST_MIN or op not in ("ADD", "SUB", "MUL", "DIV"):
        return None
    # a finite result and a finite second operand imply a finite first operand (inf and
    # NaN propagate through + - * /; only x / inf is finite, and b is checked)
    if not _all_finite(t, b, r) or (op == "DIV" and not np.all(b)):
        return None

    def inexact(sel):
        return _binary_inexact(op, _pick(a, sel), _pick(b, sel), _pick(r, sel))

    # a tiny sum or difference is exact: both operands are integer multiples of the format's
    # smallest subnormal, so is their exact sum, and every such multiple below the smallest
    # normal is representable (gradual underflow); rounding is monotone and the smallest
    # normal representable, so a tiny rounded result comes from a tiny exact one: no UF
    return _fast(inexact, r, t, tiny_exact=op in ("ADD", "SUB"))


def binary_flags(op: str, a: np.ndarray, b: np.ndarray, r: np.ndarray, t: TileDataType) -> int:
    """``TileProfileBinaryWithFlags`` ORed over the elements of ``r = a op b`` (carriers of
    ``t``; ``op`` one of ADD SUB MUL DIV MAX MIN REM AND ...)."""
    if not t.is_float:
        return 0
    with np.errstate(all="ignore"):
        if op in ("MAX", "MIN"):
            if _all_finite(t, a, b):
                return 0
            return fold(signalling_nan(a, t) | signalling_nan(b, t))
        fast = _binary_fast(op, a, b, r, t)
        if fast is not None:
            return fast
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        snan = signalling_nan(a, t) | signalling_nan(b, t)
        x, y, z = _f64(a), _f64(b), _f64(r)
        nan_in = nan_a | nan_b
        fin = np.isfinite(x) & np.isfinite(y)
        if op == "REM":
            nv = snan | (~nan_in & ((y == 0) | np.isinf(x)))
            f = np.fmod(x, y)  # exact
            adjust = fin & (y != 0) & (f != 0) & (np.signbit(f) != np.signbit(y))
            s, e = two_sum(f, y)
            nx = adjust & ~((z == s) & (e == 0))
            return fold(nv, None, None, nx & _tiny(z, t), nx)
        dz = None
        if op == "DIV":
            zero_div = fin & (y == 0)
            nv = snan | (np.isnan(z) & ~nan_in & ~fin) | (zero_div & (x == 0))
            dz = zero_div & (x != 0)
            ordinary = fin & (y != 0)
        else:
            nv = snan | (np.isnan(z) & ~nan_in & ~fin)
            ordinary = fin
        of = ordinary & ~np.isfinite(z)
        ok = ordinary & np.isfinite(z)
        if op not in ("ADD", "SUB", "MUL", "DIV"):
            return 0
        inexact = _binary_inexact(op, x, y, z)
        if op == "DIV":
            inexact &= ~np.isinf(y)  # x / inf = 0 exactly
        nx = of | (ok & inexact)
        return fold(nv, dz, of, nx & _tiny(z, t), nx)


def unary_status(mnemonic: str) -> UnaryStatus:
    """The status row of the unary op ``mnemonic``: its op class holds it (``STATUS``)."""
    return OP_OF_MNEMONIC[mnemonic].STATUS


def _unary_inexact(rule: UnaryStatus, x, z) -> np.ndarray:
    """Mask of z != op(x) exactly, for ordinary operands (finite, nonzero, in the domain)."""
    if rule.exact == "never":  # transcendental: every ordinary result is irrational
        return np.ones(x.shape, bool)
    if rule.exact == "reciprocal":
        return ~(_pow2(x) & (z == 1.0 / x))
    if rule.exact == "square-root":
        return ~product_is(z, z, x)
    assert rule.exact == "reciprocal-square-root", rule
    return ~(_pow2(z) & (z * z * x == 1.0))  # exact only when r is a power of two


def _unary_fast(rule: UnaryStatus, a, r, t: TileDataType) -> int | None:
    if r.size < FAST_MIN:
        return None
    if rule.positive_domain:  # positive finite operands: finite results
        if not _positive_finite(a, t):
            return None
    elif not (_all_finite(t, a, r) and np.all(a)):
        return None
    if rule.one_is_exact:
        ones = a == 1  # log(1) = +0 exactly; every other result is irrational
        if ones.any():
            return None if not ones.all() else 0

    def inexact(sel):
        return _unary_inexact(rule, _pick(a, sel), _pick(r, sel))

    # the square root of a positive value of any PTO float format is at least the square
    # root of its smallest subnormal (FP64 2^-537, FP32 2^-74.5, TF32/HF32/BF16 >= 2^-68.5,
    # FP16 2^-12, E5M2 2^-8, E4M3 2^-4.5), above its smallest normal (2^-1022 ... 2^-6):
    # never tiny, so no UF
    return _fast(inexact, r, t, tiny_exact=rule.never_tiny)


def unary_flags(mnemonic: str, a: np.ndarray, r: np.ndarray, t: TileDataType) -> int:
    """``ExecuteTileUnary``'s flags for ``r = op(a)`` (carriers of float type ``t``), by the
    op's status row (:func:`unary_status`)."""
    rule = unary_status(mnemonic)
    if not t.is_float or rule.rule == "none":
        return 0
    if rule.rule == "snan":
        return 0 if _all_finite(t, a) else fold(signalling_nan(a, t))
    with np.errstate(all="ignore"):
        fast = _unary_fast(rule, a, r, t)
        if fast is not None:
            return fast
        snan = signalling_nan(a, t)
        x, z = _f64(a), _f64(r)
        fin = np.isfinite(x)
        zero = x == 0
        neg = x < 0  # -inf included, NaN not
        nv, dz = snan, None
        if rule.positive_domain:
            nv = snan | (neg & ~zero)
        if rule.pole_at_zero:
            dz = zero
        ordinary = fin & ~zero
        if rule.positive_domain:
            ordinary &= x > 0
        if rule.one_is_exact:
            ordinary &= x != 1
        of = ordinary & ~np.isfinite(z)
        ok = ordinary & np.isfinite(z)
        nx = of | (ok & _unary_inexact(rule, x, z))
        return fold(nv, dz, of, nx & _tiny(z, t), nx)


def _fma_fp64_extreme(x, y, w, z, finite, exact, tiny, unsure):
    """``(exact, tiny)`` with the rare FP64 lanes decided by rationals: those whose product
    or addend has an extreme exponent (TwoProd / TwoSum are not exact there), and results of
    magnitude 2^-1022 (tininess is after rounding to 53 bits with unbounded exponent,
    ``NumericTininessDetection_AfterRounding``: the exact value below 2^-1022 (1 - 2^-54) is
    tiny even when the subnormal grid rounds it up to 2^-1022), and the ``unsure`` lanes: an
    exact value ``s + u + v`` (TwoSum's head and two remainders) that the result ``z`` may
    equal although ``z != s`` (``x * y - fl(x * y)``, an exact FMA, is one)."""
    _, ex = np.frexp(x)
    _, ey = np.frexp(y)
    _, ew = np.frexp(w)
    extreme = finite & (x != 0) & (y != 0) & (
        (np.abs(ex + ey) >= 960) | (np.abs(ex) >= 990) | (np.abs(ey) >= 990) | (np.abs(ew) >= 960)
    )
    edge = finite & (np.abs(z) == 2.0**-1022)
    lanes = extreme | edge | (finite & unsure)
    if not lanes.any():
        return exact, tiny
    from fractions import Fraction

    exact, tiny = np.array(exact, copy=True), np.array(tiny, copy=True)
    threshold = Fraction(2) ** -1022 * (1 - Fraction(2) ** -54)
    for i in zip(*np.nonzero(lanes)):
        value = Fraction(float(x[i])) * Fraction(float(y[i])) + Fraction(float(w[i]))
        exact[i] = value == Fraction(float(z[i]))
        tiny[i] = abs(value) < threshold if edge[i] else tiny[i]
    return exact, tiny


def fma_flags(a: np.ndarray, b: np.ndarray, c: np.ndarray, r: np.ndarray, t: TileDataType) -> int:
    """TFMA's flags for ``r = a * b + c`` rounded once (``TileFixedFusedMultiplyAddValue``)."""
    if not t.is_float:
        return 0
    with np.errstate(all="ignore"):
        snan = signalling_nan(a, t) | signalling_nan(b, t) | signalling_nan(c, t)
        x, y, w, z = _f64(a), _f64(b), _f64(c), _f64(r)
        fin = np.isfinite(x) & np.isfinite(y) & np.isfinite(w)
        # The invalid cases of TileFixedFusedMultiplyAddValue: a signalling NaN, 0 * inf, an
        # infinite product against the opposite infinity (NV even when c is a quiet NaN).
        zero_inf = ((x == 0) & np.isinf(y)) | (np.isinf(x) & (y == 0))
        prod_inf = np.isinf(x) | np.isinf(y)
        opposite = prod_inf & np.isinf(w) & ((np.signbit(x) ^ np.signbit(y)) != np.signbit(w))
        nv = snan | zero_inf | opposite
        of = fin & ~np.isfinite(z)
        p, pe = two_prod(x, y)
        s, e1 = two_sum(p, w)
        u, v = two_sum(e1, pe)
        exact = ((z == s) & (u == 0) & (v == 0)) | (x == 0) | (y == 0)  # a zero product: exact
        tiny = _tiny(z, t)
        if t is TileDataType.FP64:  # Dekker's product may over/underflow: exact rationals
            unsure = (z != s) & ((u != 0) | (v != 0))  # z == s + u + v is possible
            exact, tiny = _fma_fp64_extreme(x, y, w, z, fin & np.isfinite(z), exact, tiny, unsure)
        nx = of | (fin & np.isfinite(z) & ~exact)
        return fold(nv, None, of, nx & tiny, nx)


def signalling_nan_flags(sources: list[np.ndarray], t: TileDataType) -> int:
    """NV when a source holds a signalling NaN: TMRGSORT / TSORT (``sorting.asl``), TCMP /
    TCMPS (``TileProfileFloatingCompare``, ``comparison.asl``)."""
    if not t.is_float:
        return 0
    return NV if any(signalling_nan(s, t).any() for s in sources) else 0


def convert_flags(
    x: np.ndarray,
    src: TileDataType,
    dst: TileDataType,
    values,
    out: np.ndarray,
    over,
    dst_max: float | None,
) -> int:
    """TCVT's flags (``TileProfileConvert``; ``TCVT`` ORs them over the valid elements).

    ``x`` is the source carrier array, ``values()`` its exact values (float64 for a float
    source, an exact (s, e) float64 pair for an integer one), ``out`` the destination carrier
    array, ``over(u)`` the mask of finite values ``u`` whose rounding with unbounded exponent
    exceeds the destination's largest finite value ``dst_max`` (IEEE overflow; None for
    FP64). Float -> integer follows the reference quantizer (``TileProfileQuantize``,
    ``asl/arch/profile/reference-quantization.asl``): NaN NV, +-inf OF|NX, a non-integral
    value NX (saturation and wrapping add nothing). Float / integer -> float: IEEE NV for a
    signalling NaN, OF|NX when a finite value overflows (inf, E4M3's NaN, or the maximum
    under Sat or a directed rounding), UF|NX / NX when the delivered value is not the exact
    one; an infinity into a format without one (E4M3) is OF|NX like the quantizer's.
    Integer -> integer records nothing (``TileConvertIntegerValue``). E8M0 destinations
    follow ``ReferenceFloatToE8M0`` (:func:`e8m0_flags`); HiF8 and FP6 / FP4 destinations
    :func:`_coded_flags` (``out`` their decoded values, ``CODED_DESTINATIONS``).
    """
    if src.is_integer and dst.is_integer:
        return 0
    with np.errstate(all="ignore"):
        if dst.is_integer:
            v = values()
            fin = np.isfinite(v)
            inf = np.isinf(v)
            return fold(np.isnan(v), None, inf, None, inf | (fin & (v != np.trunc(v))))
        if dst is T.E8M0:
            return e8m0_flags(values())
        if dst in CODED_DESTINATIONS:
            return _coded_flags(x, src, dst, values, out, over)
        if src.is_float and out.size >= FAST_MIN and dst_max is not None:
            fast = _convert_fast(x, src, dst, out, dst_max)
            if fast is not None:
                return fast
        r = _f64(out)
        if src.is_integer:
            s, e = values()
            of = over(s)
            of = np.zeros(r.shape, bool) if of is None else of
            exact = (r == s) & (e == 0)
            return fold(None, None, of, None, of | ~exact)
        v = values()
        nv = signalling_nan(x, src) if src in _QUIET_BIT else None
        fin = np.isfinite(v)
        of = over(v)
        of = np.zeros(r.shape, bool) if of is None else of
        of = of | (np.isinf(v) & ~np.isinf(r))  # +-inf into E4M3 / saturated to the maximum
        nx = of | (fin & np.isfinite(r) & (r != v))
        return fold(nv, None, of, nx & ~of & _tiny(r, dst), nx)


def _coded_flags(x: np.ndarray, src: TileDataType, dst: TileDataType, values, r: np.ndarray,
                 over) -> int:  # fmt: skip
    """:func:`convert_flags` into HiF8 / FP6 / FP4: ``r`` holds the delivered values. As for
    the IEEE formats, plus: a NaN into a format without NaN (delivered +0) NV; HiF8's UF is
    its encoder's tininess before rounding (``|x| < 2^-15`` and inexact)."""
    if src.is_integer:
        s, e = values()
        of = over(s)
        return fold(None, None, of, None, of | ~((r == s) & (e == 0)))
    v = values()
    nv = signalling_nan(x, src) if src in _QUIET_BIT else np.zeros(v.shape, bool)
    if dst is not T.HIF8:
        nv = nv | np.isnan(v)
    fin = np.isfinite(v)
    of = over(v) | (np.isinf(v) & ~np.isinf(r))  # +-inf saturated, or into a format without
    nx = of | (fin & (r != v))
    tiny = np.abs(v if dst is T.HIF8 else r) < CODED_DESTINATIONS[dst]
    return fold(nv, None, of, nx & ~of & tiny, nx)


def e8m0_flags(v: np.ndarray) -> int:
    """``ReferenceFloatToE8M0``'s flags (``asl/arch/profile/e8m0-conversion.asl``) of exact
    source values: NaN, zero or negative NV; +inf OF|NX; a floor exponent below -127 UF|NX;
    127 with a fraction OF|NX; otherwise NX unless the value is a power of two."""
    with np.errstate(all="ignore"):
        nv = np.isnan(v) | (v <= 0)
        inf = v == np.inf
        fin = np.isfinite(v) & (v > 0)
        m, e = np.frexp(np.where(fin, v, 1.0))
        power = m == 0.5
        uf = fin & (e - 1 < -127)
        of = inf | (fin & (e - 1 == 127) & ~power)
        nx = of | uf | (fin & ~power)
        return fold(nv, None, of, uf, nx)


def _convert_fast(x, src: TileDataType, dst: TileDataType, out, dst_max: float) -> int | None:
    """A finite source within the destination's range gives finite results: no NV, no OF."""
    if x.dtype != np.float32 and x.dtype != np.float64:
        return None
    lo, hi = x.min(), x.max()  # NaN propagates; within +-max, no result overflows
    if not (np.isfinite(lo) and np.isfinite(hi) and -dst_max <= lo and hi <= dst_max):
        return None

    def inexact(sel):
        return _pick(out, sel) != _pick(x, sel)

    return _fast(inexact, out, dst)


def quantize_flags(x: np.ndarray, scale: float) -> int:
    """``TileProfileQuantize`` (``asl/arch/profile/reference-quantization.asl``) over an FP32
    tile: NaN NV; +-inf OF|NX; NX when ``x * scale + zero_point`` is not an integer (the
    zero point is one, so when ``x * scale``, exact in float64, is not); saturation and
    wrapping add nothing."""
    with np.errstate(all="ignore"):
        v = _f64(x)
        p = v * scale
        fin = np.isfinite(v)
        inf = np.isinf(v)
        return fold(np.isnan(v), None, inf, None, inf | (fin & (p != np.floor(p))))


def dequantize_flags(q: np.ndarray, scale: float, zp: int, r: np.ndarray) -> int:
    """``TileProfileDequantize`` (``ReferenceFP32FiniteEncoding``): the exact value
    ``(q - zp) * scale`` (exact in float64) rounded once to FP32 ``r``: overflow OF|NX; a
    nonzero exact value below 2^-126 (tininess before rounding, as the reference) that is
    not delivered exactly UF|NX (a nonzero one rounded to zero too); otherwise NX if
    inexact."""
    with np.errstate(all="ignore"):
        d = (q.astype(np.int64) - zp).astype(np.float64) * scale
        z = _f64(r)
        of = ~np.isfinite(z)
        inexact = np.isfinite(z) & (z != d)
        uf = inexact & (np.abs(d) < _MIN_NORMAL[T.FP32])
        return fold(None, None, of, uf, of | inexact)
