"""Evidence for TCMP, TCMPS, TSEL, TSELS (``asl/tile/model/execution/comparison.asl``) against
an INDEPENDENT reference: every element decoded from its bit pattern with integer arithmetic
into a ``fractions.Fraction`` (or +-inf / NaN) or a Python int, compared with Python's
operators; selection checked as Python lists of bit patterns. Every type of each op's set,
all six relations, NaN (quiet and signalling), signed zeros, infinities, subnormals, integer
extremes; padding; faults before effects; execution through the tile interpreter and through
``pto-form-blocks`` + decoded execution on both engines. The AVS pass conditions are in
``tests/conformance/test_avs_compare.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from interpreter import kernels, run
from interpreter.kernels import pack_predicate, unpack_predicate
from pto_dialect.compare_ops import COMPARE_SELECT_OPS, TCmpOp, TSelOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault

T = TileDataType
K = kernels.KERNELS
# (exponent bits, fraction bits, width); TF32 / HF32 are FP32 carriers with low bits zero
FORMATS = {T.FP64: (11, 52, 64), T.FP32: (8, 23, 32), T.TF32: (8, 23, 32),
           T.HF32: (8, 23, 32), T.FP16: (5, 10, 16), T.BF16: (8, 7, 16),
           T.E5M2: (5, 2, 8), T.E4M3: (4, 3, 8)}  # fmt: skip
LOW_ZERO = {T.TF32: 13, T.HF32: 12}
NAN = "nan"


def decode(bits: int, t: TileDataType):
    """The value of a float encoding: Fraction, +-math.inf or NAN (bit arithmetic only)."""
    e_bits, f_bits, width = FORMATS[t]
    sign = -1 if bits >> (width - 1) & 1 else 1
    e = bits >> f_bits & ((1 << e_bits) - 1)
    f = bits & ((1 << f_bits) - 1)
    top = (1 << e_bits) - 1
    if t is T.E4M3:  # OCP E4M3FN: no infinity, S.1111.111 is NaN
        if e == top and f == (1 << f_bits) - 1:
            return NAN
    elif e == top:
        return NAN if f else sign * math.inf
    bias = (1 << (e_bits - 1)) - 1
    if e == 0:
        return sign * Fraction(f, 1 << f_bits) * Fraction(2) ** (1 - bias)
    return sign * (1 + Fraction(f, 1 << f_bits)) * Fraction(2) ** (e - bias)


def int_value(bits: int, t: TileDataType) -> int:
    return bits - (1 << t.bits) if t.is_signed and bits >> (t.bits - 1) else bits


REL = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "lt": lambda x, y: x < y,
       "gt": lambda x, y: x > y, "le": lambda x, y: x <= y, "ge": lambda x, y: x >= y}  # fmt: skip


def reference(mode: str, x: int, y: int, t: TileDataType) -> bool:
    if t.is_float:
        a, b = decode(x, t), decode(y, t)
        if a is NAN or b is NAN:
            return mode == "ne"
        return REL[mode](a, b)
    return REL[mode](int_value(x, t), int_value(y, t))


def patterns(t: TileDataType) -> list[int]:
    """Bit patterns with the interesting cases of ``t``."""
    if t.is_integer:
        w = t.bits
        return [0, 1, 2, (1 << w) - 1, (1 << (w - 1)) - 1, 1 << (w - 1), 5]
    e_bits, f_bits, width = FORMATS[t]
    sign = 1 << (width - 1)
    one = ((1 << (e_bits - 1)) - 1) << f_bits
    inf = ((1 << e_bits) - 1) << f_bits
    low = (1 << LOW_ZERO.get(t, 0)) - 1
    out = [0, sign, one, one | sign, one + (1 << f_bits), 1 << LOW_ZERO.get(t, 0),
           inf - (1 << f_bits) | ((1 << f_bits) - 1) & ~low]
    if t is T.E4M3:
        out += [0x7F, 0xFF, 0x7E]
    else:
        out += [inf, inf | sign, inf | 1 << (f_bits - 1), inf | (1 << LOW_ZERO.get(t, 0))]
    return out


def _carrier(t: TileDataType):
    return np.dtype(f"u{max(FORMATS.get(t, (0, 0, t.bits))[2], 8) // 8}")


@pytest.mark.parametrize("t", sorted(TCmpOp.TYPES), ids=lambda t: t.name)
def test_tcmp_every_type_and_relation(t):
    p = patterns(t)
    xs = [x for x in p for _ in p]
    ys = [y for _ in p for y in p]
    a, b = np.array([xs], _carrier(t)), np.array([ys], _carrier(t))
    for mode in REL:
        bits, dfn = K["TCMP"](a, b, None, "null", t, cmode=mode)
        assert dfn.all()
        want = [reference(mode, x, y, t) for x, y in zip(xs, ys)]
        assert list(bits[0]) == want, (t, mode)


@pytest.mark.parametrize("t", sorted(TCmpOp.TYPES), ids=lambda t: t.name)
def test_tcmps_raw_word_scalar(t):
    """The scalar is the low element-width bits of the GPR word (garbage above ignored)."""
    p = patterns(t)
    width = _carrier(t).itemsize * 8
    a = np.array([p], _carrier(t))
    for y in p[:4]:
        word = y | (0xA5A5A5A5A5A5A5A5 & ~((1 << width) - 1) & ((1 << 64) - 1))
        bits, _ = K["TCMPS"](a, word, None, "null", t, cmode="le")
        assert list(bits[0]) == [reference("le", x, y, t) for x in p]


@pytest.mark.parametrize("t", sorted(TSelOp.TYPES), ids=lambda t: t.name)
def test_tsel_tsels_exact_bits(t):
    p = patterns(t)
    n = len(p)
    sel = [(i * 7) % 3 == 0 for i in range(n)]
    other = list(reversed(p))
    out, _ = K["TSEL"](np.array([sel]), np.array([p], _carrier(t)), np.array([other], _carrier(t)),
                       None, "null", t)  # fmt: skip
    assert [int(v) for v in out.view(_carrier(t))[0]] == [x if s else y for s, x, y in zip(sel, p, other)]
    width = _carrier(t).itemsize * 8
    word = p[-1] | (0xA5A5A5A5A5A5A5A5 << width & ((1 << 64) - 1))  # garbage above the width
    out, _ = K["TSELS"](np.array([sel]), np.array([p], _carrier(t)), word, None, "null", t)
    want = [x if s else p[-1] for s, x in zip(sel, p)]
    assert [int(v) for v in out.view(_carrier(t))[0]] == want


def test_predicate_packing_round_trip():
    rng = np.random.default_rng(3)
    bits = rng.random((5, 12)) < 0.5
    packed = pack_predicate(bits)
    assert len(packed) == math.ceil(60 / 8)
    for i in range(60):  # bit i mod 8 of byte i // 8, written with integer arithmetic
        assert (int(packed[i // 8]) >> (i % 8)) & 1 == int(bits[i // 12, i % 12])
    assert (unpack_predicate(packed, (5, 12)) == bits).all()


@pytest.mark.parametrize("pad,bit,defined", [("zero", False, True), ("min", False, True),
                                             ("max", True, True), ("null", False, False)])
def test_predicate_padding(pad, bit, defined):
    a = np.zeros((2, 8), np.int16)
    bits, dfn = K["TCMP"](a, a, (1, 3), pad, T.S16, cmode="eq")
    assert bits[:1, :3].all() and dfn[:1, :3].all()
    assert (bits[1] == bit).all() and (bits[0, 3:] == bit).all()
    assert (dfn[1] == defined).all() and (dfn[0, 3:] == defined).all()


def test_faults_before_effects():
    bad = np.array([[0x3F800001]], np.uint32)
    good = np.array([[0x3F800000]], np.uint32)
    for args in ((bad, good), (good, bad)):
        with pytest.raises(PTOFault) as e:
            K["TCMP"](*args, None, "null", T.TF32)
        assert e.value.kind == "TileLegality"
    with pytest.raises(PTOFault):
        K["TCMPS"](good, 0x3F800001, None, "null", T.TF32)  # TileNumericEncodingValid
    # selection copies carriers without an encoding check
    out, _ = K["TSEL"](np.array([[True]]), bad, good, None, "null", T.TF32)
    assert out.view(np.uint32)[0, 0] == 0x3F800001
    with pytest.raises(PTOFault):  # a float scalar must be exactly representable
        K["TSELS"](np.array([[False]]), np.array([[1]], np.uint16), 0.1, None, "null", T.FP16)


_PROGRAM = """
func.func @f(%a: {t}, %b: {t}, %s: i64) -> ({t}, {t}) {{
  %p = pto.tcmp %a, %b {{cmode = #pto.cmode<{mode}>, pad = #pto.pad<max>}} : ({t}, {t}) -> {p}
  %q = pto.tcmps %a, %s {{cmode = #pto.cmode<ne>}} : ({t}, i64) -> {p}
  %d = pto.tsel %p, %a, %b : ({p}, {t}, {t}) -> {t}
  %e = pto.tsels %q, %b, %s {{pad = #pto.pad<zero>}} : ({p}, {t}, i64) -> {t}
  func.return %d, %e : {t}, {t}
}}
"""


@pytest.mark.parametrize("elt,npdt", [("f16", np.float16), ("si32", np.int32)])
@pytest.mark.parametrize("bundled", [False, True])
def test_execution_min_select(elt, npdt, bundled):
    """d = min(a, b) as TCMP LT + TSEL (NaN -> b), e = (a != s) ? b : s, tile level and
    decoded blocks, both engines."""
    from test_binary_evidence import _bundled

    rows = 16 if elt == "f16" else 8
    t, p = f"!pto.tile<{rows}x8x{elt}, valid=2x5>", f"!pto.pred<{rows}x8, valid=2x5>"
    text = _PROGRAM.format(t=t, p=p, mode="lt")
    rng = np.random.default_rng(7)
    a = rng.integers(-4, 4, (2, 5)).astype(npdt)
    b = rng.integers(-4, 4, (2, 5)).astype(npdt)
    if elt == "f16":
        a[0, 0] = np.nan
        a[1, 1], b[1, 1] = -0.0, 0.0
    module = _bundled(text) if bundled else text
    d, e = run(module, "f", a, b, 2, engine="both")
    fa, fb = a.astype(float).tolist(), b.astype(float).tolist()
    for i in range(2):
        for j in range(5):
            x, y = fa[i][j], fb[i][j]
            want = x if (not math.isnan(x) and x < y) else y
            got = float(d[0, i, j])
            assert got == want or (math.isnan(got) and math.isnan(want))
            assert float(e[0, i, j]) == (y if x != 2 else 2)
    if elt == "f16":  # -0 < +0 is false: TSEL picks b's +0 bit pattern
        assert d.view(np.uint16)[0, 1, 1] == 0x0000


EXECUTED = frozenset(op.name for op in COMPARE_SELECT_OPS)
"""Ops executed above through the tile interpreter and decoded blocks (completeness)."""
