"""OCP MX v1.0 quantization: float arrays -> element codes + E8M0 block scales, and back.

numpy only, so passes (``pto-quantize-mx``) and the interpreter share one algorithm
(layering: ``passes`` may import ``pto_dialect``). ``interpreter.quantize`` wraps it with
ml_dtypes views. See docs/quantization.md for the choices and how common libraries differ.

Algorithm (OCP MX v1.0 section 6.3, block size k = 32 along ``axis``; a last block shorter
than 32 is a block of its own)::

    amax   = max_i |V_i|                         # NaN if any V_i is NaN
    if amax is NaN or inf:  X = NaN (E8M0 0xFF); every P_i = the element's NaN, else 0
    else:
        e  = floor(log2(amax)) - emax_elem       # exact (frexp), amax = 0 -> e = -127
        e  = NaN (0xFF) if e > 127, -127 if e < -127
        X  = 2^e
        P_i = RNE(V_i / X), |P_i| clamped to the element's largest normal (saturation)

``V_i / X`` is exact in float64 (a power-of-two scaling of an f16/bf16/f32/f64 value
within float64's range), so each element is rounded exactly once. ``emax_elem`` is the
exponent of the element type's largest normal: E4M3 8, E5M2 15, E3M2 4, E2M3 2, E2M1 2,
E1M2 0. Zeros and values rounding to zero keep their sign (-0 -> the sign bit set).

Types (D2 plus the two FP6 types, PTO-SPEC 1): ``E4M3``, ``E5M2``, ``E2M1X2`` (= MXFP4),
``E1M2X2``, ``E3M2``, ``E2M3``. Element codes are uint8, one per element in the low bits;
``packed=True`` packs the X2 types two per byte along the LAST axis, low nibble first
(PTO-SPEC 1), as the kernels' ``packed=True`` expects.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pto_dialect.datatypes import TileDataType

BLOCK = 32
"""OCP MX block size k."""

E8M0_NAN = 0xFF
E8M0_BIAS = 127
SCALE_EMIN, SCALE_EMAX = -127, 127


@dataclass(frozen=True)
class ElementFormat:
    """Bit format of one MX element type (sign + ``ebits`` + ``mbits``)."""

    ebits: int
    mbits: int
    bias: int
    specials: str
    """``"ieee"``: all-ones exponent = inf (mantissa 0) / NaN; ``"fn"``: only S.1..1.1..1 is
    NaN (E4M3); ``"none"``: every code is finite."""

    @property
    def emin(self) -> int:
        """Exponent of the smallest normal."""
        return 1 - self.bias

    @property
    def emax(self) -> int:
        """Exponent of the largest normal (``emax_elem`` of OCP MX 6.3)."""
        top = (1 << self.ebits) - 1 - (1 if self.specials == "ieee" else 0)
        return top - self.bias

    @property
    def max_mantissa(self) -> int:
        """Largest mantissa field at exponent ``emax`` (E4M3 loses 0b111 to NaN)."""
        return (1 << self.mbits) - (2 if self.specials == "fn" else 1)

    @property
    def max_normal(self) -> float:
        return float(np.ldexp(1.0 + self.max_mantissa / (1 << self.mbits), self.emax))

    @property
    def nan_code(self) -> int | None:
        """Positive canonical NaN code (E4M3 0x7F, E5M2 the quiet 0x7E, as ml_dtypes writes
        them), or None if the type has no NaN."""
        if self.specials == "none":
            return None
        quiet = 1 << (self.mbits - 1) if self.specials == "ieee" else (1 << self.mbits) - 1
        return ((1 << self.ebits) - 1) << self.mbits | quiet

    @property
    def sign_bit(self) -> int:
        return 1 << (self.ebits + self.mbits)


T = TileDataType
ELEMENT_FORMATS: dict[TileDataType, ElementFormat] = {
    T.E4M3: ElementFormat(4, 3, 7, "fn"),
    T.E5M2: ElementFormat(5, 2, 15, "ieee"),
    T.E3M2: ElementFormat(3, 2, 3, "none"),
    T.E2M3: ElementFormat(2, 3, 1, "none"),
    T.E2M1X2: ElementFormat(2, 1, 1, "none"),
    T.E1M2X2: ElementFormat(1, 2, 1, "none"),
}
"""The MX element types we quantize to (PTO-SPEC 1; D2 lists all but E3M2/E2M3)."""
del T

FORMAT_ALIASES = {
    "mxfp8": TileDataType.E4M3,
    "mxfp8_e4m3": TileDataType.E4M3,
    "mxfp8_e5m2": TileDataType.E5M2,
    "mxfp6_e3m2": TileDataType.E3M2,
    "mxfp6_e2m3": TileDataType.E2M3,
    "mxfp4": TileDataType.E2M1X2,
    "e2m1": TileDataType.E2M1X2,
    "e1m2": TileDataType.E1M2X2,
}
"""Lower-case OCP names accepted besides the PTO type names (``E4M3``, ``E2M1X2``...)."""


def element_type(fmt: TileDataType | str) -> TileDataType:
    """The element TileDataType of a format given by PTO name, OCP alias or TileDataType."""
    if isinstance(fmt, TileDataType):
        t = fmt
    else:
        t = FORMAT_ALIASES.get(str(fmt).lower())
        if t is None:
            try:
                t = TileDataType.from_asm(str(fmt))
            except ValueError:
                t = None
    if t not in ELEMENT_FORMATS:
        names = ", ".join([x.asm for x in ELEMENT_FORMATS] + sorted(FORMAT_ALIASES))
        raise ValueError(f"'{fmt}' is not an MX element format (one of {names})")
    return t


def _as_float64(x) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype.kind != "f" and x.dtype.name != "bfloat16":
        raise ValueError(f"MX quantization takes a floating-point array, not {x.dtype}")
    return x.astype(np.float64)


def _blocked(x: np.ndarray, axis: int, block: int) -> tuple[np.ndarray, int]:
    """Move ``axis`` last and pad it (with zeros) to whole blocks: (..., nblocks, block)."""
    x = np.moveaxis(x, axis, -1)
    n = x.shape[-1]
    nb = -(-n // block)
    pad = nb * block - n
    if pad:
        x = np.concatenate([x, np.zeros(x.shape[:-1] + (pad,), x.dtype)], axis=-1)
    return x.reshape(x.shape[:-1] + (nb, block)), n


def shared_exponents(amax: np.ndarray, fmt: ElementFormat) -> np.ndarray:
    """E8M0 codes from block maxima (float64 >= 0 or NaN/inf), OCP MX 6.3."""
    finite = np.isfinite(amax)
    safe = np.where(finite & (amax > 0), amax, 1.0)
    _, ex = np.frexp(safe)  # safe = m * 2^ex, m in [0.5, 1): floor(log2) = ex - 1
    e = (ex.astype(np.int64) - 1) - fmt.emax
    e = np.where(amax > 0, e, SCALE_EMIN)  # an all-zero block: the smallest scale
    e = np.maximum(e, SCALE_EMIN)
    codes = e + E8M0_BIAS
    codes = np.where(finite & (e <= SCALE_EMAX), codes, E8M0_NAN)
    return codes.astype(np.uint8)


def round_to_element(y: np.ndarray, fmt: ElementFormat) -> np.ndarray:
    """Codes of finite float64 ``y`` rounded to nearest even, saturating at max normal."""
    mag = np.abs(y)
    _, ex = np.frexp(np.where(mag > 0, mag, 1.0))
    e = np.maximum(ex.astype(np.int64) - 1, fmt.emin)  # exponent of the quantum's binade
    quantum_exp = e - fmt.mbits
    steps = np.rint(np.ldexp(mag, -quantum_exp))  # RNE to a multiple of the quantum
    # a carry into the next binade (steps == 2^(mbits+1)) is still a valid field split
    r = np.minimum(np.ldexp(steps, quantum_exp), fmt.max_normal)
    _, rex = np.frexp(np.where(r > 0, r, 1.0))
    re = rex.astype(np.int64) - 1
    normal = (r > 0) & (re >= fmt.emin)
    exp_field = np.where(normal, re + fmt.bias, 0)
    man = np.where(
        normal,
        np.ldexp(r, -(re - fmt.mbits)) - (1 << fmt.mbits),
        np.ldexp(r, -(fmt.emin - fmt.mbits)),
    ).astype(np.int64)
    code = (exp_field << fmt.mbits) | man
    code = np.where(np.signbit(y), code | fmt.sign_bit, code)
    return code.astype(np.uint8)


def quantize(
    x, fmt: TileDataType | str, *, axis: int = -1, block: int = BLOCK, packed: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Quantize ``x`` to MX along ``axis``: returns ``(codes, scales)``, both uint8.

    ``codes`` has ``x``'s shape (last axis halved, rounded up, with ``packed=True`` for the
    X2 types); ``scales`` (E8M0 codes) has ``x``'s shape with ``axis`` replaced by
    ``ceil(n / block)``.
    """
    t = element_type(fmt)
    f = ELEMENT_FORMATS[t]
    xf = _as_float64(x)
    if xf.ndim == 0:
        raise ValueError("MX quantization needs at least one axis")
    axis = _check_axis(axis, xf.ndim)
    if block < 1:
        raise ValueError(f"block size must be positive, not {block}")
    blocks, n = _blocked(xf, axis, block)
    with np.errstate(invalid="ignore"):
        amax = np.max(np.abs(blocks), axis=-1)  # NaN propagates
    scales = shared_exponents(amax, f)
    bad = scales == E8M0_NAN
    # x / 2^e: exact for finite x; e is irrelevant (0) where the scale is NaN.
    e = np.where(bad, 0, scales.astype(np.int64) - E8M0_BIAS)
    y = np.ldexp(np.where(bad[..., None], 0.0, blocks), -e[..., None])
    codes = round_to_element(y, f)
    codes = np.where(bad[..., None], np.uint8(f.nan_code or 0), codes)
    codes = codes.reshape(codes.shape[:-2] + (-1,))[..., :n]
    codes = np.ascontiguousarray(np.moveaxis(codes, -1, axis))
    scales = np.ascontiguousarray(np.moveaxis(scales, -1, axis))
    if packed and t.packed_x2:
        codes = pack_x2(codes)
    return codes, scales


def _check_axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of range for a {ndim}-d array")
    return axis % ndim


def element_values(fmt: TileDataType | str) -> np.ndarray:
    """float64 value of every element code (index = code), NaN/inf where the type has them."""
    f = ELEMENT_FORMATS[element_type(fmt)]
    code = np.arange(1 << (1 + f.ebits + f.mbits), dtype=np.int64)
    exp = (code >> f.mbits) & ((1 << f.ebits) - 1)
    man = code & ((1 << f.mbits) - 1)
    mag = np.where(
        exp == 0,
        np.ldexp(man.astype(np.float64), f.emin - f.mbits),
        np.ldexp((man + (1 << f.mbits)).astype(np.float64), exp - f.bias - f.mbits),
    )
    val = np.where(code & f.sign_bit, -mag, mag)
    top = exp == (1 << f.ebits) - 1
    if f.specials == "ieee":
        val = np.where(top & (man == 0), np.copysign(np.inf, val), val)
        val = np.where(top & (man != 0), np.nan, val)
    elif f.specials == "fn":
        val = np.where(top & (man == (1 << f.mbits) - 1), np.nan, val)
    return val


def dequantize(
    codes, scales, fmt: TileDataType | str, *, axis: int = -1, block: int = BLOCK,
    packed: bool = False, n: int | None = None,
) -> np.ndarray:
    """float64 values X * P_i of MX data (the inverse of :func:`quantize`).

    ``packed=True`` reads X2 codes two per byte along the last axis; ``n`` trims that axis
    (for an odd logical length). A NaN scale (0xFF) makes its whole block NaN.
    """
    t = element_type(fmt)
    c = np.asarray(codes, dtype=np.uint8)
    if packed and t.packed_x2:
        c = unpack_x2(c, n)
    s = np.asarray(scales, dtype=np.uint8)
    axis = _check_axis(axis, c.ndim)
    lut = element_values(t)
    p = lut[c & (2 * ELEMENT_FORMATS[t].sign_bit - 1)]
    nblk = -(-c.shape[axis] // block)
    if s.shape[axis] != nblk or s.shape[:axis] + s.shape[axis + 1:] != (
        c.shape[:axis] + c.shape[axis + 1:]
    ):
        raise ValueError(
            f"scales of shape {s.shape} do not match codes of shape {c.shape} "
            f"(axis {axis}, block {block})"
        )
    x = np.where(s == E8M0_NAN, np.nan, np.ldexp(1.0, s.astype(np.int64) - E8M0_BIAS))
    x = np.repeat(x, block, axis=axis)
    x = np.take(x, np.arange(c.shape[axis]), axis=axis)
    return p * x


def unpack_x2(packed_bytes, n: int | None = None) -> np.ndarray:
    """Split bytes into nibbles along the last axis, low nibble first (PTO-SPEC 1).

    ``n`` trims the logical last-axis length (for an odd count). Returns uint8 codes.
    """
    b = np.asarray(packed_bytes, dtype=np.uint8)
    out = np.empty(b.shape[:-1] + (2 * b.shape[-1],), np.uint8)
    out[..., 0::2] = b & 0x0F
    out[..., 1::2] = b >> 4
    return out if n is None else out[..., :n]


def pack_x2(codes) -> np.ndarray:
    """Inverse of :func:`unpack_x2`: two 4-bit codes per byte along the last axis.

    An odd last-axis length is padded with a zero nibble.
    """
    c = np.asarray(codes, dtype=np.uint8) & 0x0F
    if c.shape[-1] % 2:
        c = np.concatenate([c, np.zeros(c.shape[:-1] + (1,), np.uint8)], axis=-1)
    return (c[..., 0::2] | (c[..., 1::2] << 4)).astype(np.uint8)
