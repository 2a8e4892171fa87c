"""The conversion, rounding and guard rows lower exactly (D18, D20): every function of
``tests/filecheck/lowering/conversion_rows.mlir`` computes the same bits before lowering
(the upstream interpreter: MLIR semantics), as tensor-level PTO (``convert-linalg-to-pto``),
after ``pto-lower{level=tile}`` and as blocks,
on inputs with NaN, +-0, +-inf, subnormals, halfway cases and the boundary values; and each
row is checked against an independent reference (Python ints, ``math``, ``fractions``
and a table of every 16-bit float encoding), including the values where MLIR's result is
poison (NaN and out-of-range ``fptosi``: D21's wrapped value, documented in
``docs/elementwise-lowering.md``)."""

from __future__ import annotations

import math
import os
import struct
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from interpreter.ssa.runner import RunError, build_context, parse_module_text, run
from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass
from passes.pto_lower import PTOLowerPass
from pto_dialect.faults import PTOFault

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = os.path.join(HERE, "..", "filecheck", "lowering", "conversion_rows.mlir")
TEXT = open(ROWS).read()
FUNCS = [ln.split("@")[1].split("(")[0] for ln in TEXT.splitlines() if ln.startswith("func.func @")]
RNG = np.random.default_rng(24)
BF16 = ml_dtypes.bfloat16
DT = {"f16": np.float16, "bf16": BF16, "f32": np.float32, "f64": np.float64, "i8": np.int8,
      "i16": np.int16, "i32": np.int32, "i64": np.int64}  # fmt: skip
PREC = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}


def _floats(t: str) -> np.ndarray:
    p = PREC[t]
    big = 2.0 ** (p - 1)
    tiny = {"f16": 6e-8, "bf16": 1e-40, "f32": 1e-40, "f64": 5e-324}[t]
    top = float(np.finfo(DT[t]).max)
    special = [np.nan, 0.0, -0.0, np.inf, -np.inf, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.25,
               -0.75, tiny, -tiny, big - 0.5, -(big - 0.5), big, -big, 2 * big + 2, top, -top,
               1.0, -1.0, 3.0, -3.0]  # fmt: skip
    n = 64 - len(special) - 16
    rnd = RNG.normal(0, 8, n) * np.where(RNG.random(n) < 0.2, 1e4, 1)
    with np.errstate(over="ignore"):
        x = np.concatenate([special, rnd, np.zeros(16)]).astype(DT[t])
    width = x.dtype.itemsize * 8  # 16 random encodings: every exponent, NaNs, subnormals
    x.view(f"u{width // 8}")[-16:] = RNG.integers(0, 2**width, 16, dtype=np.uint64)
    return x.reshape(4, 16)


def _ints(t: str) -> np.ndarray:
    info = np.iinfo(DT[t])
    x = RNG.integers(info.min, info.max, 64, endpoint=True, dtype=np.int64)
    x[:6] = [info.min, info.max, 0, -1, 1, info.min + 1]
    return x.astype(DT[t]).reshape(4, 16)


def _in_range(x: np.ndarray, dst: str, unsigned: bool) -> np.ndarray:
    """``x`` with the values whose fptosi/fptoui is poison (NaN, out of range) replaced."""
    info = np.iinfo(np.dtype(f"u{DT[dst]().itemsize}") if unsigned else DT[dst])
    f = x.astype(np.float64)
    ok = np.isfinite(f) & (np.trunc(f) >= info.min) & (np.trunc(f) <= info.max)
    return np.where(ok, x, x.dtype.type(0.75)).astype(x.dtype)


def _sig(name: str) -> tuple[str, str]:
    line = next(ln for ln in TEXT.splitlines() if ln.startswith(f"func.func @{name}("))
    src = line.split("tensor<4x16x")[1].split(">")[0]
    dst = line.split("-> tensor<4x16x")[1].split(">")[0]
    return src, dst


def _inputs(name: str) -> list[np.ndarray]:
    src, dst = _sig(name)
    x = _floats(src) if src.startswith(("f", "bf")) else _ints(src)
    if name.startswith(("fptosi", "fptoui")):
        x = _in_range(x, dst, name.startswith("fptoui"))
    if "guarded" in name:
        x = np.where((x == 0) | np.isnan(x), np.float32(4.0), x).astype(x.dtype)
    if name.startswith("assert_ugt"):
        x = np.where(x > 0, x, np.float16(1.0)).astype(x.dtype)  # ugt holds: the assert passes
    return [x]


def _lower(level: str):
    m = parse_module_text(TEXT)
    if level == "tensor":  # the tensor-level PTO ops (pto.convert, pto.cmpsel ...), untiled
        ConvertLinalgToPtoPass().apply(build_context(), m)
    else:
        PTOLowerPass(level=level).apply(build_context(), m)
    m.verify()
    return m


@pytest.fixture(scope="module")
def lowered():
    return {"source": parse_module_text(TEXT), **{lv: _lower(lv) for lv in ("tensor", "tile", "block")}}


def _bits(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}").copy()


def _same(got: np.ndarray, want: np.ndarray, what: str) -> None:
    """Bit for bit; NaN against NaN (the payload of a NaN result is not defined upstream)."""
    assert got.dtype == want.dtype and got.shape == want.shape, what
    g, w = _bits(got), _bits(want)
    if got.dtype.kind == "f" or got.dtype == BF16:
        nan = np.isnan(want.astype(np.float64))
        assert (np.isnan(got.astype(np.float64)) == nan).all(), what
        g[nan] = w[nan] = 0
    np.testing.assert_array_equal(g, w, err_msg=what)


@pytest.mark.filterwarnings("ignore:overflow encountered")
@pytest.mark.parametrize("name", FUNCS)
def test_row_is_exact_before_and_after_lowering(name, lowered):
    inputs = _inputs(name)
    (want,) = run(lowered["source"], name, *inputs)
    for level in ("tensor", "tile", "block"):
        (got,) = run(lowered[level], name, *inputs)
        _same(np.asarray(got), np.asarray(want), f"{level} {name}")


# -- independent references -------------------------------------------------------------


def _round_half_away(q: Fraction) -> int:
    n = math.floor(abs(q) + Fraction(1, 2))
    return n if q >= 0 else -n


ROUND = {"floor": math.floor, "ceil": math.ceil, "trunc": math.trunc, "roundeven": round,
         "round": _round_half_away}  # fmt: skip


@pytest.mark.parametrize("name", [f for f in FUNCS if f.split("_")[0] in ROUND])
def test_rounding_against_fractions(name, lowered):
    """IEEE roundToIntegral from the exact value: the integer n, with x's sign when n = 0;
    x itself when it is already integral, infinite or NaN."""
    (x,) = _inputs(name)
    fn = ROUND[name.split("_")[0]]
    for level in ("tile", "block"):
        (got,) = run(lowered[level], name, x)
        for v, r in zip(x.astype(np.float64).ravel().tolist(), np.asarray(got).astype(np.float64).ravel().tolist()):
            if math.isnan(v):
                assert math.isnan(r), (level, name)
                continue
            want = v if math.isinf(v) else float(fn(Fraction(v)))
            want = math.copysign(want, v) if want == 0 else want
            assert r == want and math.copysign(1, r) == math.copysign(1, want), (level, name, v, r)


def _table16(dtype) -> tuple[list[Fraction], list[int]]:
    """Every finite non-negative value of a 16-bit float type as an exact Fraction (sorted),
    with its encoding; +inf appended as the next power of two (IEEE overflow rounding)."""
    codes = np.arange(0, 0x7C00 if dtype is np.float16 else 0x7F80, dtype=np.uint16)
    vals = [Fraction(float(v)) for v in codes.view(dtype).astype(np.float64).tolist()]
    top = vals[-1] + (vals[-1] - vals[-2])
    return vals + [top], codes.tolist() + [int(codes[-1]) + 1]


def _rne(q: Fraction, table) -> float:
    """Round the exact value ``q`` to nearest, ties to the even encoding, from the table."""
    import bisect

    vals, codes = table
    a = abs(q)
    i = bisect.bisect_left(vals, a)
    if i == len(vals):
        r = math.inf
    elif vals[i] == a:
        r = float(vals[i]) if i < len(vals) - 1 else math.inf
    else:
        lo, hi = i - 1, i
        d = (a - vals[lo]) - (vals[hi] - a)
        k = lo if d < 0 or (d == 0 and codes[lo] % 2 == 0) else hi
        r = math.inf if k == len(vals) - 1 else float(vals[k])
    return -r if q < 0 or (q == 0 and False) else r


@pytest.mark.parametrize("name, dtype", [("truncf_f32_f16", np.float16), ("truncf_f32_bf16", BF16),
                                         ("sitofp_i32_f16", np.float16), ("uitofp_i16_bf16", BF16)])  # fmt: skip
def test_narrowing_against_every_encoding(name, dtype, lowered):
    """RNE of the exact source value (a Fraction), overflow to +-inf, gradual underflow,
    signed zeros kept: against the table of all 16-bit encodings (not a numpy cast)."""
    table = _table16(np.float16 if dtype is np.float16 else BF16)
    (x,) = _inputs(name)
    src = x.astype(np.float64).ravel().tolist() if x.dtype.kind == "f" else [
        int(v) for v in (x.view(np.uint16) if name.startswith("uitofp") else x).ravel().tolist()]  # fmt: skip
    for level in ("tile", "block"):
        (got,) = run(lowered[level], name, x)
        for v, r in zip(src, np.asarray(got).astype(np.float64).ravel().tolist()):
            if isinstance(v, float) and math.isnan(v):
                assert math.isnan(r)
                continue
            want = v if isinstance(v, float) and math.isinf(v) else _rne(Fraction(v), table)
            if want == 0:
                want = math.copysign(0.0, v)
            assert r == want and math.copysign(1, r) == math.copysign(1, want), (level, name, v, r)


def test_int_to_f32_against_struct(lowered):
    """sitofp / uitofp i32 -> f32: the value rounded once (Python's exact int -> f64, then
    C's f64 -> f32 through struct: one rounding, the value has <= 32 bits)."""
    (x,) = _inputs("sitofp_i32_f32")
    for name, vals in (("sitofp_i32_f32", x.ravel().tolist()),
                       ("uitofp_i32_f32", x.view(np.uint32).ravel().tolist())):  # fmt: skip
        for level in ("tile", "block"):
            (got,) = run(lowered[level], name, x)
            want = [struct.unpack("f", struct.pack("f", float(v)))[0] for v in vals]
            assert np.asarray(got).astype(np.float64).ravel().tolist() == want, (level, name)


def test_integer_casts_against_python_ints(lowered):
    for name in ("extsi_i16_i32", "extsi_i8_i64", "extui_i16_i32", "trunci_i32_i16", "trunci_i64_i8"):
        src, dst = _sig(name)
        (x,) = _inputs(name)
        bits = int(dst[1:])
        for level in ("tile", "block"):
            (got,) = run(lowered[level], name, x)
            for v, r in zip(x.ravel().tolist(), np.asarray(got).ravel().tolist()):
                if name.startswith("extui"):
                    v %= 2 ** int(src[1:])  # the source read unsigned
                want = (v + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)  # low bits, signed view
                assert r == want, (level, name, v, r)


def _d21(v: float, bits: int, unsigned: bool) -> int:
    """D21's value of fptosi/fptoui (Python ints): the truncated value saturated (NaN -> 0)
    to i32 (i64 for fptoui to i32; the destination itself for fptosi to i32 and for i64),
    then its low ``bits`` bits (an unsigned view for fptoui)."""
    signed_dst = not unsigned
    through = bits if bits == 64 or (bits == 32 and signed_dst) else (64 if bits == 32 else 32)
    if through == bits and unsigned:
        lo, hi = 0, 2**bits - 1
    else:
        lo, hi = -(2 ** (through - 1)), 2 ** (through - 1) - 1
    n = 0 if math.isnan(v) else (hi if v > 0 else lo) if math.isinf(v) else min(hi, max(lo, math.trunc(v)))
    n %= 2**bits
    return n if unsigned else n - 2**bits if n >= 2 ** (bits - 1) else n


def test_d21_reference_examples():
    """The importer's u8 zero point 137.0 -> i8 is -119 (IREE's CPU backend, onnxruntime)."""
    assert _d21(137.0, 8, False) == -119
    assert _d21(-1.0, 8, True) == 255
    assert _d21(3e9, 32, False) == 2**31 - 1 and _d21(float("nan"), 16, False) == 0
    assert _d21(5e9, 32, True) == 5_000_000_000 % 2**32


@pytest.mark.parametrize("name", ["fptosi_f32_i32", "fptosi_f16_i16", "fptosi_f32_i8", "fptoui_f32_i32"])
def test_float_to_int_out_of_range_wraps_as_d21_says(name, lowered):
    """In range: truncation toward zero (math.trunc). NaN and out of range are poison
    upstream; D21 chooses a saturating conversion to i32 (i64 for fptoui to i32), then the
    low bits, in the interpreter and in the lowering (TCVT Sat=1 + TCVT Sat=0)."""
    src, dst = _sig(name)
    unsigned = name.startswith("fptoui")
    bits = int(dst[1:])
    x = _floats(src)
    for level in ("source", "tile", "block"):
        (got,) = run(lowered[level], name, x)
        g = np.asarray(got)
        g = g.view(f"u{g.dtype.itemsize}") if unsigned else g
        for v, r in zip(x.astype(np.float64).ravel().tolist(), g.ravel().tolist()):
            assert r == _d21(v, bits, unsigned), (level, name, v, r)


def test_guarded_reciprocal_faults_exactly_where_the_assertion_fails(lowered):
    """``cf.assert (x one 0)``: upstream stops on a zero or NaN element; the lowered program
    stops with a TDIV zero-divisor fault; otherwise 1/x rounded once (Fraction reference)."""
    (x,) = _inputs("reciprocal_guarded_f32")
    for level in ("tile", "block"):
        (got,) = run(lowered[level], "reciprocal_guarded_f32", x)
        for v, r in zip(x.astype(np.float64).ravel().tolist(), np.asarray(got).astype(np.float64).ravel().tolist()):
            want = math.copysign(0.0, v) if math.isinf(v) else struct.unpack("f", struct.pack("f", float(Fraction(1) / Fraction(v))))[0] if abs(1 / v) < 3.5e38 else math.copysign(math.inf, v)
            assert r == want and math.copysign(1, r) == math.copysign(1, want), (level, v, r)
    for bad, level in ((-0.0, "tile"), (np.nan, "block")):
        y = x.copy()
        y[2, 5] = bad
        with pytest.raises(RunError, match="cf.assert failed"):
            run(lowered["source"], "reciprocal_guarded_f32", y)
        with pytest.raises(PTOFault):
            run(lowered[level], "reciprocal_guarded_f32", y)
    # ugt is unordered: a NaN passes, zero and negatives fault
    z = np.array(_inputs("assert_ugt_f16")[0])
    z[0, 0] = np.nan
    run(lowered["block"], "assert_ugt_f16", z)
    z[1, 1] = -0.0
    with pytest.raises(PTOFault):
        run(lowered["block"], "assert_ugt_f16", z)


def _missing_body_rows(module) -> list[str]:
    """The body ops of ``module``'s linalg.generic ops that have no live lowering row (no row,
    or an Awaits / NoPto row) in BODY_LOWERING."""
    from passes.lowering.elementwise import BODY_LOWERING
    from passes.lowering.elementwise_rows import Awaits, NoPto

    missing = set()
    for op in module.walk():
        parent = op.parent_op()
        if parent is None or parent.name != "linalg.generic" or op.name == "linalg.yield":
            continue
        row = BODY_LOWERING.get(op.name)
        if row is None or isinstance(row, (Awaits, NoPto)):
            missing.add(f"{op.name} ({type(row).__name__ if row else 'no row'})")
    return sorted(missing)


def _fmod1_reference(a: float, b: float, t) -> float:
    """torch-mlir's Mod fmod=1 decomposition, step by step in scalar ``t`` arithmetic (each
    op rounded once by the hardware): ``a - sign(a/b) * floor(|a/b|) * b``."""
    a, b = t(a), t(b)
    with np.errstate(all="ignore"):
        d = a / b
        s = t(1.0) if d > 0 else t(-1.0) if d < 0 else t(0.0)  # NaN and +-0: +0
        ad = t(abs(float(d)))
        fl = ad if not math.isfinite(float(ad)) else t(math.floor(float(ad)))
        return float(a - (s * fl) * b)


@pytest.mark.parametrize("elt, t", [("f32", np.float32), ("f16", np.float16)])
def test_mod_fmod1_is_exact_op_by_op(elt, t):
    """Mod fmod=1 lowers op by op (TDIV, compare + select, TABS, the floor rows, TMUL, TSUB):
    bit for bit with the unlowered program and a scalar re-computation of the decomposition,
    on every pair of special operands (NaN, +-0, +-inf, subnormal, huge, halfway). A missing
    lowering row is a failure, not a skip."""
    text = open(os.path.join(HERE, "..", "corpus", "programs", f"mod_fmod1_{elt}.mlir")).read()
    missing = _missing_body_rows(parse_module_text(text))
    assert not missing, f"Mod fmod=1 needs a lowering row for: {', '.join(missing)}"
    vals = [np.nan, 0.0, -0.0, np.inf, -np.inf, 1.0, -2.5, 7.0, 0.3, 1e-40 if elt == "f32" else 6e-8,
            3e38 if elt == "f32" else 6e4, -5.5]  # fmt: skip
    pairs = [(a, b) for a in vals for b in vals][:64]
    a = np.array([p[0] for p in pairs] + [1.0] * (64 - len(pairs)), dtype=t).reshape(4, 16)
    b = np.array([p[1] for p in pairs] + [3.0] * (64 - len(pairs)), dtype=t).reshape(4, 16)
    (want,) = run(text, "main", a, b)
    for level in ("tile", "block"):
        m = parse_module_text(text)
        PTOLowerPass(level=level).apply(build_context(), m)
        (got,) = run(m, "main", a, b)
        _same(np.asarray(got), np.asarray(want), f"{level} {elt}")
    for x, y, r in zip(a.ravel().tolist(), b.ravel().tolist(), np.asarray(want).astype(np.float64).ravel().tolist()):
        w = _fmod1_reference(x, y, t)
        assert (math.isnan(w) and math.isnan(r)) or (r == w and math.copysign(1, r) == math.copysign(1, w)), (x, y, r, w)


def _int_to_f32_exact(v: int) -> float:
    """RNE of an integer to 24 significant bits, in integer arithmetic."""
    m = abs(v)
    shift = m.bit_length() - 24
    if shift > 0:
        q, r = divmod(m, 1 << shift)
        half = 1 << (shift - 1)
        q += r > half or (r == half and q % 2 == 1)
        m = q << shift
    return float(m if v >= 0 else -m)


def test_i64_to_f32_rounds_once(lowered):
    """i64 -> f32 beyond 2^53: one rounding of the exact value (also the reference
    interpreter's, which rounds to odd in float64 first), e.g. 2^60 + 2^36 + 1 rounds up
    where a float64 detour would round to 2^60."""
    x = _ints("i64")
    x[0, :4] = [2**60 + 2**36 + 1, -(2**60 + 2**36 + 1), 2**60 + 2**36, 2**60 + 3 * 2**36]
    for name, vals in (("sitofp_i64_f32", x.ravel().tolist()),
                       ("uitofp_i64_f32", x.view(np.uint64).ravel().tolist())):  # fmt: skip
        want = [_int_to_f32_exact(int(v)) for v in vals]
        for level in ("source", "tensor", "block"):
            (got,) = run(lowered[level], name, x)
            assert np.asarray(got).astype(np.float64).ravel().tolist() == want, (level, name)
