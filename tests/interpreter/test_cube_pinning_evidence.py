"""Every CUBE profile of every input type pinned bit for bit (issue 23, item 7).

The earlier CUBE tests accepted any result within an error bound of the exact sum, so turning
off the round-to-odd step of the ``ordered`` FP32 x FP32 accumulation (each FMA then rounds
twice: to float64, then to FP32) passed them all. Here every result is compared bit for bit
with an independent sequential reference written from the profile definitions (D4,
pto-spec ADR-0047; ``asl/tile/model/execution/cube.asl``) with ``fractions.Fraction``:

* ``ordered`` / ``fp32-sequential``: ``acc = C`` (ACC forms) or +0, then for k = 0, 1, ...
  ``acc = RNE_fp32(acc + a_k * b_k)`` (the exact product, one rounding per step), then
  ``RNE_fp32(acc + bias)``; an exact zero sum is +0 unless both addends are -0;
* ``exact``: ``RNE_fp32(C + sum_k a_k b_k + bias)``, one rounding, an exact zero is +0;
* integer accumulators (every profile but raw-carrier): the exact sum wrapped to 32 bits;
* ``raw-carrier``: 64-bit wrapping integer arithmetic on the raw payload codes.

Element values come from a bit-field decoder written here (sign, exponent, mantissa, bias;
the FN / no-special rules of each format, HiF8's prefix code), not from the kernel's tables.
FP32 inputs are built to hit rounding ties: ``a = 1 + 2^-k``, ``b = h (1 - 2^-k + 2^-2k)``
gives ``a b = h (1 + 2^-3k)``, a hair above half an FP32 ulp ``h`` of the accumulator; for
k >= 10 the float64 sum lands exactly on the FP32 tie, so only a single rounding (or round
to odd) gets ``C = 1`` plus that product right: 1.0000001, not 1.0.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.kernels import accumulate, cube_matrix
from tests.budget import examples

# name -> (exponent bits, mantissa bits, bias, specials): "ieee" (all-ones exponent is inf /
# NaN), "fn" (only S.1111.111 is NaN), "none" (every code finite)
FORMATS = {
    "FP32": (8, 23, 127, "ieee"), "TF32": (8, 23, 127, "ieee"), "HF32": (8, 23, 127, "ieee"),
    "FP16": (5, 10, 15, "ieee"), "BF16": (8, 7, 127, "ieee"), "E5M2": (5, 2, 15, "ieee"),
    "E4M3": (4, 3, 7, "fn"), "E3M2": (3, 2, 3, "none"), "E2M3": (2, 3, 1, "none"),
    "E2M1X2": (2, 1, 1, "none"), "E1M2X2": (1, 2, 1, "none"),
}  # fmt: skip
LOW_ZERO = {"TF32": 13, "HF32": 12}
INTS = {"S8": (8, True), "S16": (16, True), "S4X2": (4, True),
        "U8": (8, False), "U16": (16, False), "U4X2": (4, False)}  # fmt: skip
FLT_MAX = (2 - Fraction(2) ** -23) * Fraction(2) ** 127

Value = tuple[Fraction, bool]  # (value, is negative zero)


def decode(t: str, code: int) -> Value | None:
    """Exact value of a float code; None for inf / NaN."""
    if t == "HiF8":
        return decode_hif8(code)
    e_bits, m_bits, bias, specials = FORMATS[t]
    sign = code >> (e_bits + m_bits) & 1
    e = code >> m_bits & ((1 << e_bits) - 1)
    m = code & ((1 << m_bits) - 1)
    if specials == "ieee" and e == (1 << e_bits) - 1:
        return None
    if specials == "fn" and e == (1 << e_bits) - 1 and m == (1 << m_bits) - 1:
        return None
    if e == 0:
        v = Fraction(m, 1 << m_bits) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(m, 1 << m_bits)) * Fraction(2) ** (e - bias)
    return (-v if sign else v), bool(sign and v == 0)


def decode_hif8(code: int) -> Value | None:
    """HiF8 (``asl/arch/data-types/formats/hif8.asl``): after the sign, a prefix gives the
    exponent-field width D (0000: denormal, 0001: 0, 001: 1, 01: 2, 10: 3, 11: 4 bits); the
    exponent is sign-magnitude with an implicit leading one; the rest is the fraction."""
    if code in (0x80, 0x6F, 0xEF):  # NaN, +inf, -inf
        return None
    sign, body = code >> 7, format(code & 0x7F, "07b")
    if body.startswith("0000"):
        m = int(body[4:], 2)
        v = Fraction(0) if m == 0 else Fraction(2) ** (m - 23)
    else:
        prefix, width = next((p, w) for p, w in (("0001", 0), ("001", 1), ("01", 2), ("10", 3), ("11", 4))
                             if body.startswith(p))  # fmt: skip
        rest = body[len(prefix) :]
        if width == 0:
            exp, frac = 0, rest
        else:
            magnitude = int("1" + rest[1:width], 2)
            exp = -magnitude if rest[0] == "1" else magnitude
            frac = rest[width:]
        v = (1 + Fraction(int(frac, 2) if frac else 0, 1 << len(frac))) * Fraction(2) ** exp
    return (-v if sign else v), bool(sign and v == 0)


def int_value(t: str, code: int) -> int:
    width, signed = INTS[t]
    code &= (1 << width) - 1
    return code - (1 << width) if signed and code >> (width - 1) else code


def rne_f32(q: Fraction) -> float:
    """Round an exact non-zero rational to FP32, ties to even, +-inf past the range."""
    mag = abs(q)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    ulp = Fraction(2) ** (max(e, -126) - 23)
    r = round(mag / ulp) * ulp  # Fraction.__round__: half to even
    v = float("inf") if r > FLT_MAX else float(r)
    return -v if q < 0 else v


def f32_add(x: Value, y: Value) -> Value:
    """RNE_fp32(x + y) of two exact values, IEEE signed zeros."""
    s = x[0] + y[0]
    if s == 0:
        return Fraction(0), x[1] and y[1] and x[0] == 0 and y[0] == 0
    r = rne_f32(s)
    return Fraction(r), False


def f32_value(x: float) -> Value:
    return Fraction(x), bool(x == 0 and np.signbit(x))


def reference(profile, av, bv, c, bias):
    """M x N float32 results of the profile (values already decoded and scaled)."""
    m, k, n = len(av), len(bv), len(bv[0])
    out = np.zeros((m, n), np.float32)
    for i in range(m):
        for j in range(n):
            terms = [(av[i][q][0] * bv[q][j][0], (av[i][q][0] * bv[q][j][0] == 0)
                      and (np.signbit(float(av[i][q][0])) or av[i][q][1]) != (np.signbit(float(bv[q][j][0])) or bv[q][j][1]))
                     for q in range(k)]  # fmt: skip
            start = f32_value(float(c[i, j])) if c is not None else (Fraction(0), False)
            if profile == "exact":
                total = start[0] + sum((t for t, _ in terms), Fraction(0))
                total += Fraction(float(bias[0, j])) if bias is not None else 0
                out[i, j] = 0.0 if total == 0 else rne_f32(total)
                continue
            acc = start
            for t in terms:
                acc = f32_add(acc, t)
            if bias is not None:
                acc = f32_add(acc, f32_value(float(bias[0, j])))
            out[i, j] = -0.0 if acc[0] == 0 and acc[1] else float(acc[0])
    return out


def random_codes(rng, t: str, shape) -> np.ndarray:
    """Finite codes of a float type (FP32 family: moderate magnitudes, low bits cleared)."""
    if t in ("FP32", "TF32", "HF32"):
        x = (rng.standard_normal(shape) * 2.0 ** rng.integers(-8, 8, shape)).astype(np.float32)
        return x.view(np.uint32) & np.uint32((0xFFFFFFFF >> LOW_ZERO.get(t, 0)) << LOW_ZERO.get(t, 0))
    if t in ("FP16", "BF16"):
        width = 16
        codes = rng.integers(0, 1 << width, shape)
        ok = np.vectorize(lambda x: (d := decode(t, int(x))) is not None and abs(d[0]) < 2**12)(codes)
        return np.where(ok, codes, 0x3C00 if t == "FP16" else 0x3F80).astype(np.uint16)
    width = {"HiF8": 8}.get(t, 1 + sum(FORMATS[t][:2]) if t in FORMATS else 8)
    finite = [x for x in range(1 << width) if decode(t, x) is not None]
    if t == "HiF8":  # keep the products of two HiF8 values inside FP32's range
        finite = [x for x in finite if abs(decode(t, x)[0]) <= 2**15]
    return np.array(finite, np.uint8)[rng.integers(0, len(finite), shape)]


def decoded(t, codes, scale=None, axis=None):
    rows = []
    for i, row in enumerate(codes):
        out = []
        for q, x in enumerate(row):
            v, nz = decode(t, int(x))
            if scale is not None:
                s = scale[i, q // 32] if axis == "a" else scale[i // 32, q]
                v *= Fraction(2) ** (int(s) - 127)
            out.append((v, nz))
        rows.append(out)
    return rows


def operands(rng, fn: int, m, k, n):
    kw, c, bias = {}, None, None
    if fn in (2, 6, 18, 22):
        c = kw["c"] = (rng.standard_normal((m, n)) * 4).astype(np.float32)
    if fn in (1, 5, 17, 21):
        bias = kw["bias"] = (rng.standard_normal((1, n)) * 4).astype(np.float32)
    return kw, c, bias


def assert_bits(got: np.ndarray, want: np.ndarray, what) -> None:
    assert got.dtype == np.float32 and got.shape == want.shape
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), (what, got, want)


ORDINARY_FLOATS = ["FP32", "TF32", "HF32", "FP16", "BF16", "HiF8", "E4M3", "E5M2", "E3M2",
                   "E2M3", "E2M1X2", "E1M2X2"]  # fmt: skip
MX_TYPES = ["FP16", "BF16", "E4M3", "E5M2", "E2M1X2", "E1M2X2"]
PROFILES = ["ordered", "fp32-sequential", "exact"]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("i", range(len(ORDINARY_FLOATS)))
def test_ordinary_float_types_every_profile(i: int, profile: str) -> None:
    """Each ordinary float type on both sides (paired with its neighbour), TMATMUL/TGEMV in
    plain, BIAS and ACC forms, bit for bit."""
    at, bt = ORDINARY_FLOATS[i], ORDINARY_FLOATS[(i + 1) % len(ORDINARY_FLOATS)]
    rng = np.random.default_rng(100 + i)
    for fn in (0, 1, 2, 16, 17, 18):
        m, k, n = (1 if fn >= 16 else 3), int(rng.integers(1, 40)), 3
        ca, cb = random_codes(rng, at, (m, k)), random_codes(rng, bt, (k, n))
        kw, c, bias = operands(rng, fn, m, k, n)
        got = cube_matrix(fn, ca, cb, a_type=at, b_type=bt, profile=profile, **kw)
        want = reference(profile, decoded(at, ca), decoded(bt, cb), c, bias)
        assert_bits(got, want, (fn, at, bt, profile))


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("packed", [False, True])
@pytest.mark.parametrize("i", range(len(MX_TYPES)))
def test_mx_types_every_profile(i: int, packed: bool, profile: str) -> None:
    """Each MX input type on both sides with E8M0 scales per 32-block (K crosses a block),
    the 4-bit types also packed two per byte; every MX function, bit for bit."""
    at, bt = MX_TYPES[i], MX_TYPES[(i + 2) % len(MX_TYPES)]
    if packed and not (at.endswith("X2") or bt.endswith("X2")):
        pytest.skip("packing applies to the 4-bit types")
    rng = np.random.default_rng(200 + i)
    for fn in (4, 5, 6, 20, 21, 22):
        m, k, n = (1 if fn >= 20 else 2), 40, 4
        nb = -(-k // 32)
        ca, cb = random_codes(rng, at, (m, k)), random_codes(rng, bt, (k, n))
        kw, c, bias = operands(rng, fn, m, k, n)
        sa = rng.integers(118, 134, (m, nb)).astype(np.uint8) if at not in ("FP16", "BF16") else None
        sb = rng.integers(118, 134, (nb, n)).astype(np.uint8) if bt not in ("FP16", "BF16") else None
        xa, xb = ca, cb
        if packed:  # two codes per byte along the last axis, low nibble first
            xa = (ca[:, 0::2] | (ca[:, 1::2] << 4)).astype(np.uint8) if at.endswith("X2") else ca
            xb = (cb[:, 0::2] | (cb[:, 1::2] << 4)).astype(np.uint8) if bt.endswith("X2") else cb
        got = cube_matrix(fn, xa, xb, a_type=at, b_type=bt, a_scale=sa, b_scale=sb,
                          packed=packed, profile=profile, **kw)  # fmt: skip
        want = reference(profile, decoded(at, ca, sa, "a"), decoded(bt, cb, sb, "b"), c, bias)
        assert_bits(got, want, (fn, at, bt, packed, profile))


def tie_case(rng, k_shift: int, sign: int):
    """(c, a, b) FP32 with c + a*b a hair beyond (sign) an FP32 rounding tie of c."""
    c = np.float32((1 + int(rng.integers(0, 1 << 23)) * 2.0**-23) * 2.0 ** int(rng.integers(-20, 20)))
    c = np.float32(c * (1 if rng.integers(0, 2) else -1))
    e = np.frexp(np.float64(abs(c)))[1] - 1  # 2^e <= |c|
    h = 2.0 ** (e - 24)  # half an FP32 ulp of c
    g = 2.0**-k_shift
    a = np.float32(1 + g)
    b = np.float32(sign * h * (1 - g + g * g))
    assert float(a) * float(b) == sign * h * (1 + g**3)  # exact in float64, not in float32
    return c, a, b


def test_issue_example_one_plus_a_product_just_above_a_tie() -> None:
    a = np.array([[1 + 2.0**-11]], np.float32)
    b = np.array([[2.0**-24 * (1 - 2.0**-11 + 2.0**-22)]], np.float32)
    c = np.ones((1, 1), np.float32)
    for profile in PROFILES:
        for fn in ("TGEMV_ACC", "TMATMUL_ACC"):
            d = cube_matrix(fn, a, b, c=c, profile=profile)
            assert float(d[0, 0]) == 1 + 2.0**-23, (fn, profile, float(d[0, 0]))  # 1.0000001


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k_shift=st.sampled_from([10, 11]),
       sign=st.sampled_from([1, -1]), k=st.integers(1, 12), fn=st.sampled_from([2, 18, 0, 16]))
def test_fp32_ties_every_step(seed, k_shift, sign, k, fn) -> None:
    """Chains of K near-tie FMAs: each step's exact sum is just past a tie of the current
    accumulator (built from the reference's own running value), bit for bit."""
    rng = np.random.default_rng(seed)
    c0, _, _ = tie_case(rng, k_shift, sign)
    acc = (Fraction(float(c0)), False) if fn in (2, 18) else (Fraction(0), False)
    a_list, b_list = [], []
    for _ in range(k):
        base = np.float32(float(acc[0])) if acc[0] != 0 else np.float32(1.0)
        e = np.frexp(np.float64(abs(base)))[1] - 1
        g = 2.0**-k_shift
        a = np.float32(1 + g)
        b = np.float32(sign * 2.0 ** (e - 24) * (1 - g + g * g))
        a_list.append(a)
        b_list.append(b)
        acc = f32_add(acc, (Fraction(float(a)) * Fraction(float(b)), False))
    a = np.array([a_list], np.float32)
    b = np.array([b_list], np.float32).T.copy()
    kw = {"c": np.array([[c0]], np.float32)} if fn in (2, 18) else {}
    want = reference("ordered", [[f32_value(float(x)) for x in a[0]]],
                     [[f32_value(float(x))] for x in b[:, 0]], kw.get("c"), None)
    for profile in ("ordered", "fp32-sequential"):
        got = cube_matrix(fn, a, b, profile=profile, **kw)
        assert_bits(got, want, (profile, fn))
    assert float(want[0, 0]) == float(acc[0]) or acc[0] == 0


def _double_rounding_steps(acc: np.ndarray, terms: np.ndarray) -> np.ndarray:
    """The deliberately broken accumulation: each FMA rounds to float64, then to FP32."""
    acc = acc.astype(np.float64)
    for t in terms:
        acc = (acc + t).astype(np.float32).astype(np.float64)
    return acc.astype(np.float32)


def test_double_rounding_turns_the_pinning_red(monkeypatch) -> None:
    """Sensitivity: with the round-to-odd step removed the tie example gives 1.0."""
    a = np.array([[1 + 2.0**-11]], np.float32)
    b = np.array([[2.0**-24 * (1 - 2.0**-11 + 2.0**-22)]], np.float32)
    c = np.ones((1, 1), np.float32)
    monkeypatch.setattr(accumulate, "_wide_steps", _double_rounding_steps)
    assert float(cube_matrix("TGEMV_ACC", a, b, c=c)[0, 0]) == 1.0


@pytest.mark.parametrize("packed", [False, True])
@pytest.mark.parametrize("profile", ["ordered", "exact", "raw-carrier"])
def test_integer_types_every_profile(profile: str, packed: bool) -> None:
    """Every integer input type (4-bit one code per byte, or packed two per byte): the exact
    sum wrapped to 32 bits; raw-carrier: the 64-bit wrapping sum of the sign- / zero-extended
    elements."""
    rng = np.random.default_rng(7)
    names = list(INTS)
    for i, at in enumerate(names):
        bt = next(t for t in names[i + 1 :] + names if t[0] == at[0])
        for fn in (0, 1, 2, 16, 17, 18):
            m, k, n = (1 if fn >= 16 else 2), 10, 4
            ca = rng.integers(0, 1 << INTS[at][0], (m, k))
            cb = rng.integers(0, 1 << INTS[bt][0], (k, n))
            signed = INTS[at][1]
            acc_dt = np.int32 if signed else np.uint32
            info = np.iinfo(acc_dt)
            kw = {}
            if fn in (2, 18):
                kw["c"] = rng.integers(info.min, info.max, (m, n), endpoint=True).astype(acc_dt)
            if fn in (1, 17):
                kw["bias"] = rng.integers(info.min, info.max, (1, n), endpoint=True).astype(acc_dt)

            def carrier(codes, t):
                width, sgn = INTS[t]
                if width == 4 and packed:  # two per byte along the last axis, low nibble first
                    return (codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8)
                if width == 4:
                    return codes.astype(np.uint8)
                return codes.astype(f"u{width // 8}").view(f"i{width // 8}" if sgn else f"u{width // 8}")

            got = cube_matrix(fn, carrier(ca, at), carrier(cb, bt), a_type=at, b_type=bt,
                              packed=packed, profile=profile, **kw)  # fmt: skip
            for r in range(m):
                for j in range(n):
                    s = sum(int_value(at, int(ca[r, q])) * int_value(bt, int(cb[q, j])) for q in range(k))
                    s += int(kw["c"][r, j]) if "c" in kw else 0
                    s += int(kw["bias"][0, j]) if "bias" in kw else 0
                    if profile == "raw-carrier":
                        s %= 1 << 64
                        want = s - (1 << 64) if s >> 63 else s
                    else:
                        s %= 1 << 32
                        want = s - (1 << 32) if signed and s >> 31 else s
                    assert int(got[r, j]) == want, (fn, at, bt, profile)
