"""Evidence for the tile-local TEPL families: reductions, expansions, TTRANS
(``pto_dialect/tile_local.py``; ``asl/tile/model/execution/reduction.asl``,
``expansion.asl``, ``rearrangement.asl``; D9, D12, D13, D16).

References are INDEPENDENT of the kernels: Python scalars, ``fractions.Fraction`` exact
arithmetic rounded once per step to the format (RNE, ``round_to_format`` of the binary
evidence), explicit two's-complement wrapping and ``decimal`` exp at 40 digits (the spec's AVS
pass conditions are asserted in ``tests/conformance/test_avs_tile_local.py``). Every op also
runs at tile level through the interpreter and as a decoded block (``pto-form-blocks`` +
``pto-assign-registers``).
"""

from __future__ import annotations

import decimal
import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from test_binary_evidence import FLOAT_FORMATS, round_to_format
from test_binary_evidence import _bundled as bundled

from interpreter import kernels, run
from interpreter.ssa.runner import build_context, parse_module_text
from passes import get_all_passes
from pto_dialect import isa
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.tile_local import (
    EXPAND_OPS,
    LOCAL_OPS,
    PARTIAL_OPS,
    REDUCE_OPS,
    ExpandTileOp,
    PartialTileOp,
    ReduceTileOp,
    TeplTileOp,
)
from pto_dialect.tile_rearrange import REARRANGE_OPS

T = TileDataType
NARROW = {T.TF32: 13, T.HF32: 12}
RNG = np.random.default_rng(2026)
OPS = [c for c in LOCAL_OPS if c not in REARRANGE_OPS]
"""The ops this module covers (TGATHER / TSCATTER / TFILLPAD: test_rearrange_evidence)."""
BY_NAME = {c.MNEMONIC: c for c in OPS}


# ---------------------------------------------------------------------------------------
# Independent scalar references
# ---------------------------------------------------------------------------------------


def _wrap(x: int, t: TileDataType) -> int:
    bits = t.info.carrier_bits
    x &= (1 << bits) - 1
    return x - (1 << bits) if t.is_signed and x >= 1 << (bits - 1) else x


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _step(op: str, t: TileDataType, a, b):
    """One typed binary step on Python values (Fraction for floats, int for integers)."""
    if t.is_integer:
        r = {"sum": a + b, "add": a + b, "sub": a - b, "prod": a * b, "mul": a * b,
             "max": max(a, b), "min": min(a, b)}.get(op)  # fmt: skip
        if op == "div":
            r = _trunc_div(a, b)
        return _wrap(r, t)
    if op in ("max", "min"):
        return max(a, b) if op == "max" else min(a, b)
    r = {"sum": a + b, "add": a + b, "sub": a - b, "prod": a * b, "mul": a * b,
         "div": a / b if b else None}[op]  # fmt: skip
    return round_to_format(r, t)


def _py(x, t: TileDataType):
    return int(x) if t.is_integer else Fraction(float(x))


def _ref_reduce(op: str, axis: str, x: np.ndarray, t: TileDataType) -> list:
    rows = x.tolist() if axis == "row" else x.T.tolist()
    out = []
    for line in rows:
        vals = [_py(v, t) for v in line]
        if op in ("sum", "prod"):
            acc = 0 if op == "sum" else 1
            for v in vals:
                acc = _step(op, t, Fraction(acc) if not t.is_integer else acc, v)
            out.append(acc)
        else:
            best = 0
            for i, v in enumerate(vals):
                if (v > vals[best]) if op.endswith("max") else (v < vals[best]):
                    best = i
            out.append(best if op.startswith("arg") else vals[best])
    return out


# ---------------------------------------------------------------------------------------
# Inputs and programs
# ---------------------------------------------------------------------------------------


def _storage(t: TileDataType) -> np.dtype:
    return np.dtype(np.float32) if t in NARROW else np.dtype(t.numpy_dtype())


def _values(t: TileDataType, shape, *, nonzero=False, small=False) -> np.ndarray:
    """Random values of type ``t`` (floats: finite, nonzero, |x| < 2; integers: full range
    or, with ``small``, |x| < 8)."""
    if t.is_integer:
        npdt = t.numpy_dtype()
        if small:
            v = RNG.integers(0 if t.is_unsigned else -7, 8, size=shape).astype(npdt)
        else:
            v = RNG.integers(0, 256, size=(*shape, npdt.itemsize), dtype=np.uint8)
            v = v.view(npdt).reshape(shape)
        if nonzero:
            v[v == 0] = 1
        return v
    f = RNG.uniform(-1.9, 1.9, size=shape).astype(np.float32)
    f[np.abs(f) < 0.05] = 0.75
    if t in NARROW:
        return (f.view(np.uint32) & np.uint32(~((1 << NARROW[t]) - 1) & 0xFFFFFFFF)).view(np.float32)
    return f.astype(t.numpy_dtype())


def _rows(t: TileDataType, cols: int, size: int) -> int:
    return size * 8 // (cols * t.info.carrier_bits)


def _tile(t: TileDataType, cols: int, valid, size: int = 512, pe: str = "") -> str:
    rows = _rows(t, cols, size)
    extra = f", pe={pe}" if pe else ""
    return f"!pto.tile<{rows}x{cols}x{t.ir}, valid={valid[0]}x{valid[1]}{extra}>"


def _types_for(cls: type[TeplTileOp], src: TileDataType) -> tuple[list[str], str]:
    """(source tile types, result tile type) for a 3x5 valid source of type ``src``."""
    full = _tile(src, 8, (3, 5))
    if issubclass(cls, ReduceTileOp):
        dt = (T.U32 if cls.AXIS == "row" else T.S32) if cls.is_arg() else src
        res = _tile(dt, 1, (3, 1), 128) if cls.AXIS == "row" else _tile(dt, 8, (1, 5), 128)
        return [full], res
    if issubclass(cls, ExpandTileOp):
        b = _tile(src, 1, (3, 1), 128) if cls.AXIS == "row" else _tile(src, 8, (1, 5), 128)
        dst = _tile(T.FP32, 8, (3, 5), 512 * 32 // src.info.carrier_bits) if (
            cls.OPERATION == "expdif" and src is not T.FP32
        ) else full  # fmt: skip
        return ([b] if cls.OPERATION == "copy" else [full, b]), dst
    if issubclass(cls, PartialTileOp):
        return [full, _tile(src, 8, (2, 3))], full
    if cls is BY_NAME["TCONCAT"]:
        return [full, _tile(src, 8, (3, 2))], _tile(src, 8, (3, 7))
    return [full], _tile(src, 8, (5, 3))


def _program(cls: type[TeplTileOp], src: TileDataType, pad: str = "zero") -> str:
    ins, res = _types_for(cls, src)
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(ins))
    ops = ", ".join(f"%a{i}" for i in range(len(ins)))
    attrs = f" {{pad = #pto.pad<{pad}>}}" if cls.HAS_PAD else ""
    return f"""func.func @f({args}) -> {res} {{
  %r = {cls.name} {ops}{attrs} : ({", ".join(ins)}) -> {res}
  func.return %r : {res}
}}"""


def _bundled(text: str):
    m = bundled(text)  # pto-form-blocks + pto-assign-registers, verified
    assert not any(isinstance(o, TeplTileOp) for o in m.walk()), "the op was not formed"
    return m


def _kernel(cls, sources, types, dst_type, dst_valid):
    return kernels.KERNELS[cls.MNEMONIC](sources, types, dst_type, dst_valid)


def _k(name, arrays, t, dst, valid):
    return _kernel(BY_NAME[name], [np.asarray(a, t.numpy_dtype()) for a in arrays],
                   [t] * len(arrays), dst, valid)  # fmt: skip


def _same(got, want, t: TileDataType) -> None:
    got = np.asarray(got).reshape(-1)
    want = list(want)
    assert len(got) == len(want)
    for g, w in zip(got.tolist(), want):
        if isinstance(w, Fraction):
            assert not math.isnan(float(g)) and Fraction(float(g)) == w, (got, want, t)
        else:
            assert int(g) == int(w), (got, want, t)


# ---------------------------------------------------------------------------------------
# Reductions: every op x every type of its set, against the scalar fold
# ---------------------------------------------------------------------------------------

REDUCE_CASES = [(c, t) for c in REDUCE_OPS for t in sorted(c.TYPES, key=lambda t: t.value)]


@pytest.mark.parametrize(
    ("cls", "t"), REDUCE_CASES, ids=[f"{c.MNEMONIC}-{t.name}" for c, t in REDUCE_CASES]
)
def test_reduction_against_sequential_fold(cls, t):
    x = _values(t, (3, 5))
    if cls.is_arg():
        x[1, 3] = x[1, 1]  # a tie: the lowest index wins
    dst = (T.U32 if cls.AXIS == "row" else T.S32) if cls.is_arg() else t
    valid = (3, 1) if cls.AXIS == "row" else (1, 5)
    got = _kernel(cls, [x.view(_storage(t))], [t], dst, valid)
    assert got.shape == valid
    _same(got, _ref_reduce(cls.REDUCTION, cls.AXIS, x, t), t)


def test_reduction_order_is_sequential_not_pairwise():
    """FP32 TROWSUM is the increasing-column left fold: 1e8 + 1 + ... + 1 - 1e8 keeps none of
    the ones (each is absorbed), while pairwise or wider summation would keep them."""
    x = np.array([[1e8] + [1.0] * 64 + [-1e8]], np.float32)
    got = _kernel(BY_NAME["TROWSUM"], [x], [T.FP32], T.FP32, (1, 1))
    assert got[0, 0] == 0.0
    col = _kernel(BY_NAME["TCOLSUM"], [x.T.copy()], [T.FP32], T.FP32, (1, 1))
    assert col[0, 0] == 0.0


@pytest.mark.parametrize("t", [T.FP32, T.FP16, T.BF16, T.FP64])
@pytest.mark.parametrize("shape", [(1, 70), (2, 70), (70, 2), (5, 33), (70, 1)])
def test_sum_prod_fold_order_on_many_shapes(t, shape):
    """SUM / PROD of both axes equal the sequential Fraction fold on inputs whose partial sums
    round at nearly every step (magnitudes spread over 2^-10 .. 2^10), for line counts 1, 2
    and more (the kernels take different numpy paths for them)."""
    mag = np.exp2(RNG.integers(-10, 10, size=shape)) * RNG.uniform(1, 2, size=shape)
    x = (mag * RNG.choice([-1, 1], size=shape)).astype(t.numpy_dtype())
    for cls in (BY_NAME["TROWSUM"], BY_NAME["TCOLSUM"]):
        valid = (shape[0], 1) if cls.AXIS == "row" else (1, shape[1])
        got = _kernel(cls, [x], [t], t, valid)
        _same(got, _ref_reduce("sum", cls.AXIS, x, t), t)
    y = (RNG.uniform(0.9, 1.1, size=shape) * RNG.choice([-1, 1], size=shape)).astype(t.numpy_dtype())
    for cls in (BY_NAME["TROWPROD"], BY_NAME["TCOLPROD"]):
        valid = (shape[0], 1) if cls.AXIS == "row" else (1, shape[1])
        _same(_kernel(cls, [y], [t], t, valid), _ref_reduce("prod", cls.AXIS, y, t), t)


def test_reduction_fp16_rounds_every_step():
    """FP16 TROWSUM rounds to FP16 after every addition (no FP32 accumulator): 2048 + 1 = 2048
    (tie to even), so 2048 plus sixteen ones stays 2048."""
    x = np.array([[2048] + [1] * 16], np.float16)
    got = _kernel(BY_NAME["TROWSUM"], [x], [T.FP16], T.FP16, (1, 1))
    assert got[0, 0] == np.float16(2048)


def test_sum_starts_from_positive_zero_and_max_copies_the_first():
    """SUM folds from +0 (an all -0 row sums to +0); MAX/MIN start from the first element, so a
    single-column row copies it bit for bit (a NaN payload included)."""
    neg0 = np.array([[-0.0, -0.0]], np.float32)
    s = _kernel(BY_NAME["TROWSUM"], [neg0], [T.FP32], T.FP32, (1, 1))
    assert s[0, 0] == 0 and not np.signbit(s[0, 0])
    p = _kernel(BY_NAME["TROWPROD"], [neg0[:, :1]], [T.FP32], T.FP32, (1, 1))
    assert np.signbit(p[0, 0])  # 1 * -0 = -0
    payload = np.array([[0x7FC00123]], np.uint32).view(np.float32)
    m = _kernel(BY_NAME["TROWMAX"], [payload], [T.FP32], T.FP32, (1, 1))
    assert m.view(np.uint32)[0, 0] == 0x7FC00123


def test_max_min_nan_and_signed_zero():
    """TMAX/TMIN steps (HardwareNumericMinMaxSpecial): a NaN is skipped, two NaNs give the
    canonical NaN, max(+0, -0) = +0 and min = -0, whatever the order."""
    nan = np.float32(np.nan)
    x = np.array([[nan, 1.0, nan], [-0.0, 0.0, -0.0], [nan, nan, nan]], np.float32)
    mx = _kernel(BY_NAME["TROWMAX"], [x], [T.FP32], T.FP32, (3, 1))
    mn = _kernel(BY_NAME["TROWMIN"], [x], [T.FP32], T.FP32, (3, 1))
    assert mx[0, 0] == 1.0 and mn[0, 0] == 1.0
    assert mx[1, 0] == 0 and not np.signbit(mx[1, 0])
    assert mn[1, 0] == 0 and np.signbit(mn[1, 0])
    assert mx.view(np.uint32)[2, 0] == 0x7FC00000


def test_argmax_bit_pattern_selection():
    """``TileReductionStepWithFlags``: the index moves when the step result equals the new
    element and differs from the accumulator as bit patterns: -0 then +0 moves to the +0 for
    ARGMAX (not for ARGMIN); a leading NaN is replaced by the first number; ties stay."""
    nan = np.float32(np.nan)
    x = np.array([[-0.0, 0.0, 0.0], [nan, 3.0, 3.0], [2.0, nan, 1.0]], np.float32)
    amax = _kernel(BY_NAME["TROWARGMAX"], [x], [T.FP32], T.U32, (3, 1))
    amin = _kernel(BY_NAME["TROWARGMIN"], [x], [T.FP32], T.U32, (3, 1))
    assert amax[:, 0].tolist() == [1, 1, 0]
    assert amin[:, 0].tolist() == [0, 1, 2]
    cmax = _kernel(BY_NAME["TCOLARGMAX"], [x.T.copy()], [T.FP32], T.S32, (1, 3))
    assert cmax[0].tolist() == [1, 1, 0]
    # all NaN: the first step makes the canonical NaN; a payload NaN first is replaced by it
    n = np.array([[0x7FC00001, 0x7FC00000, 0x7FC00000]], np.uint32).view(np.float32)
    assert _kernel(BY_NAME["TROWARGMAX"], [n], [T.FP32], T.U32, (1, 1))[0, 0] == 1
    n2 = np.array([[0x7FC00000, 0x7FC00000, 0x7FC00001]], np.uint32).view(np.float32)
    assert _kernel(BY_NAME["TROWARGMIN"], [n2], [T.FP32], T.U32, (1, 1))[0, 0] == 0


# ---------------------------------------------------------------------------------------
# Expansions: every op x every type, against the elementwise reference
# ---------------------------------------------------------------------------------------

EXPAND_CASES = [
    (c, t) for c in EXPAND_OPS for t in sorted(c.TYPES, key=lambda t: t.value)
]


def _ref_expand(cls, src, b, t: TileDataType, dst: TileDataType) -> list:
    out = []
    for r in range(3):
        for c in range(5):
            bv = b[r, 0] if cls.AXIS == "row" else b[0, c]
            if cls.OPERATION == "copy":
                out.append(_py(bv, t))
                continue
            sv = src[r, c]
            if cls.OPERATION == "expdif":
                w = T.FP32 if dst is T.FP32 else t
                d = round_to_format(_py(sv, t) - _py(bv, t), w)
                with decimal.localcontext() as ctx:
                    ctx.prec = 40
                    e = decimal.Decimal(d.numerator) / decimal.Decimal(d.denominator)
                    out.append(round_to_format(Fraction(e.exp()), dst))
                continue
            out.append(_step(cls.OPERATION, t, _py(sv, t), _py(bv, t)))
    return out


@pytest.mark.parametrize(
    ("cls", "t"), EXPAND_CASES, ids=[f"{c.MNEMONIC}-{t.name}" for c, t in EXPAND_CASES]
)
def test_expansion_against_reference(cls, t):
    src = _values(t, (3, 5), small=cls.OPERATION == "expdif")
    b = _values(t, (3, 1) if cls.AXIS == "row" else (1, 5), nonzero=True)
    st = _storage(t)
    srcs = [b.view(st)] if cls.OPERATION == "copy" else [src.view(st), b.view(st)]
    dsts = [T.FP32, t] if cls.OPERATION == "expdif" and t is not T.FP32 else [t]
    for dst in dsts:
        got = _kernel(cls, srcs, [t] * len(srcs), dst, (3, 5))
        assert got.shape == (3, 5)
        _same(got, _ref_expand(cls, src, b, t, dst), dst)


@pytest.mark.parametrize("name", ["TROWEXPANDDIV", "TCOLEXPANDDIV"])
def test_integer_zero_broadcast_divisor_faults_before_effect(name):
    """Integer DIV: a zero in the broadcast's valid rectangle is TileLegality before any
    effect (``TileBroadcastPayloadNonzero``); float zero divisors are values."""
    cls = BY_NAME[name]
    text = _program(cls, T.S32)
    src = np.ones((3, 5), np.int32)
    b = np.ones((3, 1) if cls.AXIS == "row" else (1, 5), np.int32)
    b[0, 0] = 0
    with pytest.raises(PTOFault) as e:
        run(text, "f", src, b)
    assert e.value.kind == "TileLegality" and "zero" in e.value.message
    fb = b.astype(np.float32)
    (r,) = run(_program(cls, T.FP32), "f", src.astype(np.float32), fb)
    assert np.isinf(r[0, 0, 0])


# ---------------------------------------------------------------------------------------
# Partial (union) operations
# ---------------------------------------------------------------------------------------

PARTIAL_CASES = [(c, t) for c in PARTIAL_OPS for t in sorted(c.TYPES, key=lambda t: t.value)]


@pytest.mark.parametrize(
    ("cls", "t"), PARTIAL_CASES, ids=[f"{c.MNEMONIC}-{t.name}" for c, t in PARTIAL_CASES]
)
def test_partial_against_reference(cls, t):
    """Union semantics (``ExecuteTilePartial``): the typed step where both origin-anchored
    sources cover a coordinate, a copy where one does; either source may be the large one."""
    big, small = _values(t, (3, 5)), _values(t, (2, 3))
    for left, right in ((big, small), (small, big)):
        got = _kernel(cls, [left, right], [t, t], t, (3, 5))
        want = []
        for r in range(3):
            for c in range(5):
                lv = r < left.shape[0] and c < left.shape[1]
                rv = r < right.shape[0] and c < right.shape[1]
                if lv and rv:
                    want.append(_step(cls.OPERATION, t, _py(left[r, c], t), _py(right[r, c], t)))
                else:
                    want.append(_py((left if lv else right)[r, c], t))
        _same(got, want, t)


# ---------------------------------------------------------------------------------------
# Tile level + decoded block level, every op (execution evidence)
# ---------------------------------------------------------------------------------------


def _inputs(cls, t: TileDataType):
    n_src = len(cls.SOURCES)
    if issubclass(cls, ExpandTileOp):
        b = _values(t, (3, 1) if cls.AXIS == "row" else (1, 5), nonzero=True)
        return [b] if n_src == 1 else [_values(t, (3, 5), small=True), b]
    if issubclass(cls, PartialTileOp):
        return [_values(t, (3, 5)), _values(t, (2, 3))]
    if cls is BY_NAME["TCONCAT"]:
        return [_values(t, (3, 5)), _values(t, (3, 2))]
    return [_values(t, (3, 5))]


@pytest.mark.parametrize("cls", OPS, ids=lambda c: c.MNEMONIC)
def test_tile_and_decoded_execution_agree(cls):
    t = T.FP16 if cls is BY_NAME["TTRANS"] else (T.S16 if cls.MNEMONIC.endswith("PROD") else T.FP32)
    if getattr(cls, "OPERATION", "") == "expdif":
        t = T.BF16
    text = _program(cls, t)
    args = _inputs(cls, t)
    (tile,) = run(text, "f", *args)
    (blk,) = run(_bundled(text), "f", *args)
    assert tile.dtype == blk.dtype and np.array_equal(tile.view(np.uint8), blk.view(np.uint8))


def _tile_op(text: str) -> TeplTileOp:
    m = parse_module_text(text, ctx=build_context())
    return next(o for o in m.walk() if isinstance(o, TeplTileOp))


@pytest.mark.parametrize(("pad", "bits", "defined"), [("max", 0x7F7FFFFF, True),
                                                      ("zero", 0, True), ("null", 0, False)])  # fmt: skip
def test_padding_and_definedness_of_results(pad, bits, defined):
    """D9: the destination's elements outside its valid rectangle hold the PadValue (Max:
    the largest finite FP32) and are defined; Null padding is undefined."""
    from interpreter.ssa.pto_functions import local_plan
    from interpreter.ssa.runtime import tile_from_array

    op = _tile_op(_program(BY_NAME["TROWMAX"], T.FP32, pad=pad))
    src = tile_from_array(op.srcs[0].type, _values(T.FP32, (3, 5)))
    (res,) = local_plan(op)(src)
    for p in range(4):
        assert res.payloads[p].shape == (32, 1)
        assert (res.payloads[p][3:].view(np.uint32) == bits).all()
        assert res.defined[p][:3].all() and bool(res.defined[p][3:].all()) is defined


def test_tconcat_copies_bits():
    """TCONCAT copies bits (FP16 NaN payloads included), also through the decoded block (its
    AVS test is in tests/conformance/test_avs_tile_local.py)."""
    x = np.array([[0x7E01, 0x3C00]], np.uint16).view(np.float16)
    got = _k("TCONCAT", [x, x[:, :1]], T.FP16, T.FP16, (1, 3))
    assert got.view(np.uint16).tolist() == [[0x7E01, 0x3C00, 0x7E01]]
    text = _program(BY_NAME["TCONCAT"], T.U8)
    a, b = _values(T.U8, (3, 5)), _values(T.U8, (3, 2))
    (r,) = run(_bundled(text), "f", a, b)
    assert np.array_equal(r[0], np.concatenate([a, b], axis=1))


def test_static_catalog_alignment():
    """The ``tile-static-*-contract-001`` AVS tests of every reduction / expansion and
    TTRANS: the selector decodes to the op (TEPL Mode:Function), its engine is SFU, and the
    op's B.DATR applicability is the catalog's (pad only; EXPDIF DataType + pad; TTRANS
    Layout only)."""
    for cls in OPS:
        row = isa.TEPL_OPS[(cls.MODE, cls.FUNCTION)]
        assert row.name == cls.MNEMONIC and str(row.engine) == "SFU"
        want = {"TTRANS": "L", "TCONCAT": "L"}.get(cls.MNEMONIC, "DP" if cls.MNEMONIC.endswith("EXPDIF") else "P")
    if issubclass(cls, PartialTileOp):
        want = ""
        assert row.datr_fields == want
        assert row.sources == len(cls.SOURCES) and row.destinations == 1


# ---------------------------------------------------------------------------------------
# Block-level legality (D12 order)
# ---------------------------------------------------------------------------------------


def _block(*cmds):
    return [isa.BStart.op("TROWSUM", T.FP32.value), *cmds, isa.BStop()]


_IOT = isa.BIot(src0=0, last=1, size_code=1, pe_mode=7, dst_hand=0)


@pytest.mark.parametrize(
    ("cmds", "kind", "msg"),
    [
        (_block(_IOT), "TileLegality", "needs LB0"),
        (_block(isa.CBDimi(0, 5), isa.CBDimi(1, 0), _IOT), "TileLegality", "explicit LB1"),
        (_block(isa.CBDimi(0, 5), isa.BIor(2, 0, 0, 0), _IOT), "BundleControl", "B.IOR"),
        (_block(isa.BDatr(rmode=1), isa.CBDimi(0, 5), _IOT), "TileLegality", "rmode"),
        (_block(isa.CBDimi(0, 5), isa.BIot(src0=0, src1=1, last=1, size_code=1, pe_mode=7,
                                            dst_hand=0)), "BundleControl", "binds 1 source"),  # fmt: skip
        (_block(isa.CBDimi(0, 5), isa.BIot(src0=0, last=0, size_code=1, pe_mode=7, dst_hand=0)),
         "BundleControl", "last"),  # fmt: skip
    ],
)
def test_block_structure_faults(cmds, kind, msg):
    """The reduction schema at block completion: LB0 required, explicit LBs nonzero, no
    B.IOR, only PadValue in B.DATR, one source and one destination, ``last``."""
    with pytest.raises(PTOFault) as e:
        isa.check_block(cmds)
    assert e.value.kind == kind and msg in e.value.message


def test_block_zero_mask_is_a_noop():
    s = isa.check_block(_block(isa.CBDimi(0, 5), isa.BIot(src0=0, last=1, size_code=1,
                                                             pe_mode=0, dst_hand=0)))  # fmt: skip
    assert s.noop


def test_undefined_source_faults_before_effect():
    """A source with an undefined element in its valid rectangle is TileLegality (D9,
    ``TileSourceContentsDefined``) before any result."""
    from interpreter.ssa.pto_functions import local_plan
    from interpreter.ssa.runtime import TileValue
    from pto_dialect.attributes import TileType

    src_t = TileType((8, 16), T.FP32, (4, 5))
    x = np.zeros((8, 16), np.float32)
    dfn = np.zeros((8, 16), bool)
    dfn[:4, :4] = True  # column 4 of the valid rectangle is undefined
    v = TileValue(src_t, {p: x for p in range(4)}, {p: dfn for p in range(4)})
    tile_op = _tile_op(
        _program(BY_NAME["TROWSUM"], T.FP32)
        .replace(_types_for(BY_NAME["TROWSUM"], T.FP32)[0][0], "!pto.tile<8x16xf32, valid=4x5>")
        .replace("valid=3x1>", "valid=4x1>")
    )
    with pytest.raises(PTOFault) as e:
        local_plan(tile_op)(v)
    assert e.value.kind == "TileLegality" and "undefined" in e.value.message


def test_tf32_source_encoding_is_checked():
    """TF32 sources with nonzero low bits are TileLegality (TileSourceEncodingsValid), also
    for the first element of a MAX fold that is never combined with another."""
    bad = np.array([[1.0]], np.float32).view(np.uint32) | np.uint32(1)
    with pytest.raises(PTOFault):
        _kernel(BY_NAME["TROWMAX"], [bad.view(np.float32)], [T.TF32], T.TF32, (1, 1))
    with pytest.raises(PTOFault):
        _kernel(BY_NAME["TCOLSUM"], [bad.view(np.float32)], [T.TF32], T.TF32, (1, 1))


EXECUTED = frozenset(c.name for c in OPS)
"""Every tile-local op runs at tile level and as a decoded block above."""

assert FLOAT_FORMATS and ml_dtypes  # the shared reference tables are in use


# ---------------------------------------------------------------------------------------
# Tensor-level forms (pto.reduce / pto.expand): the instruction on the whole tensor
# ---------------------------------------------------------------------------------------


def test_tensor_forms_match_the_scalar_references():
    """``pto.reduce`` / ``pto.expand`` (what lowering targets for ReduceSum, softmax, norms,
    bias broadcasts) compute the tile instruction on the whole tensor: checked against the
    independent references, with signless integers taking the declared signedness."""
    from pto_dialect.tensor_local import EXPAND_KINDS, REDUCE_KINDS

    assert len(REDUCE_KINDS) == len(REDUCE_OPS) and len(EXPAND_KINDS) == len(EXPAND_OPS)
    text = """func.func @f(%x: tensor<5x7xf32>, %b: tensor<5x1xf32>, %i: tensor<5x7xi16>)
        -> (tensor<5x1xf32>, tensor<1x7xi32>, tensor<5x7xf32>, tensor<5x1xi16>) {
  %s = pto.reduce rowsum %x : (tensor<5x7xf32>) -> tensor<5x1xf32>
  %a = pto.reduce colargmin %x : (tensor<5x7xf32>) -> tensor<1x7xi32>
  %y = pto.expand row mul %x, %b : (tensor<5x7xf32>, tensor<5x1xf32>) -> tensor<5x7xf32>
  %m = pto.reduce rowmax unsigned %i : (tensor<5x7xi16>) -> tensor<5x1xi16>
  func.return %s, %a, %y, %m : tensor<5x1xf32>, tensor<1x7xi32>, tensor<5x7xf32>, tensor<5x1xi16>
}"""
    x = _values(T.FP32, (5, 7))
    b = _values(T.FP32, (5, 1), nonzero=True)
    i = _values(T.S16, (5, 7))
    s, a, y, m = run(text, "f", x, b, i)
    _same(s, _ref_reduce("sum", "row", x, T.FP32), T.FP32)
    assert a.dtype == np.int32
    _same(a, _ref_reduce("argmin", "col", x, T.FP32), T.S32)
    _same(y, [round_to_format(Fraction(float(x[r, c])) * Fraction(float(b[r, 0])), T.FP32)
              for r in range(5) for c in range(7)], T.FP32)  # fmt: skip
    _same(m.view(np.uint16), _ref_reduce("max", "row", i.view(np.uint16), T.U16), T.U16)


def _tensor_program(kind: str, m: int, n: int) -> tuple[str, list]:
    word, *rest = kind.split()
    if word == "reduce":
        (k,) = rest
        rt = f"tensor<{m}x1x{'i32' if 'arg' in k else 'f32'}>" if k.startswith("row") else (
            f"tensor<1x{n}x{'i32' if 'arg' in k else 'f32'}>")  # fmt: skip
        return (f"func.func @f(%x: tensor<{m}x{n}xf32>) -> {rt} {{\n"
                f"  %r = pto.reduce {k} %x : (tensor<{m}x{n}xf32>) -> {rt}\n"
                f"  func.return %r : {rt}\n}}", [_values(T.FP32, (m, n))])  # fmt: skip
    axis, o = rest
    bt = f"tensor<{m}x1xf32>" if axis == "row" else f"tensor<1x{n}xf32>"
    b = _values(T.FP32, (m, 1) if axis == "row" else (1, n), nonzero=True)
    xt = f"tensor<{m}x{n}xf32>"
    if o == "copy":
        return (f"func.func @f(%b: {bt}) -> {xt} {{\n  %r = pto.expand {axis} copy %b : ({bt}) -> "
                f"{xt}\n  func.return %r : {xt}\n}}", [b])  # fmt: skip
    return (f"func.func @f(%x: {xt}, %b: {bt}) -> {xt} {{\n  %r = pto.expand {axis} {o} %x, %b : "
            f"({xt}, {bt}) -> {xt}\n  func.return %r : {xt}\n}}", [_values(T.FP32, (m, n)), b])  # fmt: skip


@pytest.mark.parametrize("kind", ["reduce rowsum", "reduce colsum", "reduce rowargmax",
                                  "reduce colmin", "expand row add", "expand col sub",
                                  "expand row copy", "expand col copy"])  # fmt: skip
def test_tiled_tensor_forms_are_bit_exact(kind):
    """``pto-tile-to-capacity`` (tile-bytes 4096): the tiled program (PE groups of whole rows,
    whole columns for column reductions) computes the tensor-level op bit for bit; a reduced
    line wider than one tile is refused, never split (D18)."""
    from xdsl.utils.exceptions import PassFailedException

    for m, n in ((300, 40), (70, 1), (9, 700)):
        text, args = _tensor_program(kind, m, n)
        want = run(text, "f", *args)
        ctx = build_context()
        mod = parse_module_text(text, ctx=ctx)
        try:
            get_all_passes()["pto-tile-to-capacity"]()(tile_bytes=2048).apply(ctx, mod)
        except PassFailedException as e:
            assert (m, n) == (9, 700) and "does not fit one tile" in str(e)
            assert kind != "reduce colsum" and kind != "reduce colmin"
            continue
        mod.verify()
        assert not any(o.name in ("pto.reduce", "pto.expand") for o in mod.walk())
        got = run(mod, "f", *args)
        assert all(np.array_equal(a, g) for a, g in zip(want, got)), (kind, m, n)


# ---------------------------------------------------------------------------------------
# Generators: TCI, TTRI (parameters through B.IOR)
# ---------------------------------------------------------------------------------------


def _gen_program(name: str, res: str, params: bool = True) -> str:
    args = "%p0: i64, %p1: i64" if params else ""
    ops = " %p0, %p1 : (i64, i64)" if params else " : ()"
    return (f"func.func @f({args}) -> {res} {{\n  %r = pto.{name}{ops} -> {res}\n"
            f"  func.return %r : {res}\n}}")  # fmt: skip


def _both(text: str, *args):
    (tile,) = run(text, "f", *args)
    (blk,) = run(_bundled_gen(text), "f", *args)
    assert np.array_equal(tile.view(np.uint8), blk.view(np.uint8))
    return tile[0]


def _bundled_gen(text: str):
    from pto_dialect.tile_local import GeneratorTileOp

    m = bundled(text)
    assert not any(isinstance(o, GeneratorTileOp) for o in m.walk())
    return m


def test_tci_against_modular_arithmetic():
    """TCI against Python modular arithmetic for every TCI type (its AVS tests are in
    tests/conformance/test_avs_tile_local.py), and the decoded block agrees."""
    res = "!pto.tile<16x4xui16, valid=1x2>"
    assert _both(_gen_program("tci", res), np.int64(70000), np.int64(1)).tolist() == [[4464, 4463]]
    for t in (T.S32, T.S16, T.U32, T.U16):
        bits = t.info.carrier_bits
        for start, d in ((123456789, 0), (-5, 1), (2**40 + 7, 1)):
            got = kernels.KERNELS["TCI"]((start, d), t, (1, 6))
            want = [_wrap(start + (-k if d else k), t) for k in range(6)]
            assert got.astype(np.int64).tolist() == [want], (t, start, d, bits)


def test_ttri_against_reference():
    """TTRI against a Python triangle for every TTRI type (its AVS tests are in
    tests/conformance/test_avs_tile_local.py), and the decoded block agrees."""
    res = "!pto.tile<8x16xf16, valid=2x3>"
    got = _both(_gen_program("ttri", res), np.int64(1), np.int64(1))
    assert got.view(np.uint16).tolist() == [[0, 0x3C00, 0x3C00], [0, 0, 0x3C00]]
    for t in (T.FP32, T.FP16, T.S32, T.S16, T.U32, T.U16):
        for diag, up in ((0, 0), (2, 0), (-1, 1), (3, 1)):
            got = kernels.KERNELS["TTRI"]((diag, up), t, (4, 5))
            want = [[1 if (c >= r + diag if up else c <= r + diag) else 0 for c in range(5)]
                    for r in range(4)]  # fmt: skip
            assert got.dtype == t.numpy_dtype() and got.tolist() == want


def test_generator_padding_is_null():
    """TCI / TTRI pad with Null: the destination's elements outside the valid rectangle are
    undefined (the AVS tests' ``defined_elements[padding] == '0'``)."""
    from interpreter.ssa.pto_functions import generator_plan
    from pto_dialect.tile_local import GeneratorTileOp

    m = parse_module_text(_gen_program("ttri", "!pto.tile<8x16xf16, valid=2x3>", params=False),
                          ctx=build_context())  # fmt: skip
    op = next(o for o in m.walk() if isinstance(o, GeneratorTileOp))
    (res,) = generator_plan(op)()
    assert res.defined[0][:2, :3].all() and not res.defined[0][2:].any()
    assert not res.defined[0][:, 3:].any()


EXECUTED = EXECUTED | {"pto.tci", "pto.ttri"}


def test_generator_block_rules():
    """TCI / TTRI blocks: LB0 required, B.IOR RegSrc2 / RegDst must be zero (BundleControl),
    no source binding (BundleControl), and a linked block whose B.IOR is absent links no
    parameter while one with B.IOR links exactly two."""
    dst = isa.BIot(last=1, size_code=1, pe_mode=7, dst_hand=0)
    start = isa.BStart.op("TCI", T.U16.value)
    with pytest.raises(PTOFault, match="needs LB0"):
        isa.check_block([start, dst, isa.BStop()])
    with pytest.raises(PTOFault, match="RegSrc2 and RegDst"):
        isa.check_block([start, isa.CBDimi(0, 2), isa.BIor(2, 3, 4, 0), dst, isa.BStop()])
    with pytest.raises(PTOFault) as e:
        isa.check_block([start, isa.CBDimi(0, 2), isa.BIot(src0=0, last=1, size_code=1,
                                                             pe_mode=7, dst_hand=0), isa.BStop()])  # fmt: skip
    assert e.value.kind == "BundleControl"
    s = isa.check_block([start, isa.CBDimi(0, 2), isa.BIor(2, 3, 0, 0), dst, isa.BStop()])
    assert s.dims == (2, 1, 2)
