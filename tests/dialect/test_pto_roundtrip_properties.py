"""Property tests: random tile types and random op instances either verify and round-trip
through text exactly (custom and generic form), or are rejected with a VerifyException /
ParseError — never any other exception (D16: verification is total).

The op properties pin the verdict: an oracle written in this file from the spec's rules
(PTO-SPEC 1-5, D2, D10, D11, D12, D13), not from the verifier's tables, says whether each
random instance is legal, and the verifier must agree.
"""

from __future__ import annotations

from io import StringIO

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects import test as test_dialect
from xdsl.dialects.builtin import Builtin, ModuleOp, i32, i64
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from pto_dialect.attributes import RoundingMode, TileType
from pto_dialect.datatypes import MX_BLOCK, TileDataType
from pto_dialect.dialect import PTO
from pto_dialect.geometry import Layout, Location, Storage, format_size
from pto_dialect.ops import TGemvMxBiasOp, TRemOp
from pto_dialect.postprocess import (
    FPATR_FIELD_WIDTHS,
    PRE_QUANT_MODES,
    Fpatr,
    pre_quant_output_type,
)
from tests.budget import examples

T = TileDataType
SETTINGS = settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def _ctx() -> Context:
    ctx = Context()
    for d in (Builtin, test_dialect.Test, PTO):
        ctx.load_dialect(d)
    return ctx


CTX = _ctx()


def _print(op_or_attr: Operation | Attribute, generic: bool = False) -> str:
    out = StringIO()
    p = Printer(stream=out, print_generic_format=generic)
    if isinstance(op_or_attr, Operation):
        p.print_op(op_or_attr)
    else:
        p.print_attribute(op_or_attr)
    return out.getvalue()


# ---------------------------------------------------------------------------------------
# Tile types
# ---------------------------------------------------------------------------------------

dims = st.one_of(st.integers(1, 40), st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128, 256]))
sizes = st.one_of(
    st.none(),
    st.sampled_from([64, 128, 192, 256, 512, 1024, 2048, 3072, 4096, 65536, 131072, 262144, 524288]),
)
masks = st.sampled_from(["1111", "1111", "1100", "1110", "1000", "0001", "0011", "0101", "0000"])


@st.composite
def tile_params(draw):
    rows, cols = draw(dims), draw(dims)
    valid = draw(st.one_of(st.none(), st.tuples(st.integers(0, rows + 2), st.integers(0, cols + 2))))
    return dict(
        shape=(rows, cols),
        element_type=draw(st.sampled_from(list(TileDataType))),
        valid=valid,
        layout=draw(st.sampled_from(list(Layout))),
        location=draw(st.sampled_from(list(Location))),
        storage=draw(st.sampled_from(list(Storage))),
        size=draw(sizes),
        pe=draw(masks),
    )


def _tile_text(p: dict) -> str:
    dt: TileDataType = p["element_type"]
    parts = [f"{p['shape'][0]}x{p['shape'][1]}x{dt.ir}"]
    if p["valid"] is not None:
        parts.append(f"valid={p['valid'][0]}x{p['valid'][1]}")
    parts += [p["layout"].value, p["location"].value, p["storage"].value]
    if p["size"] is not None:
        parts.append(f"size={format_size(p['size'])}")
    parts.append(f"pe={p['pe']}")
    return f"!pto.tile<{', '.join(parts)}>"


@SETTINGS
@given(tile_params())
def test_tile_type_text_and_api_agree_and_round_trip(p):
    """The parser and the Python constructor accept exactly the same descriptors (D14); an
    accepted tile prints canonically and reparses to the same attribute."""
    try:
        parsed = Parser(CTX, _tile_text(p)).parse_attribute()
    except ParseError:
        parsed = None
    try:
        built = TileType(**p)
    except VerifyException:
        built = None
    assert (parsed is None) == (built is None)
    event("accepted" if built is not None else "rejected")
    if built is None:
        return
    assert parsed == built
    text = _print(built)
    again = Parser(CTX, text).parse_attribute()
    assert again == built
    assert _print(again) == text


# ---------------------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------------------


def _pow2_at_least(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def _row_major(valid: tuple[int, int], dt: TileDataType, pe: str) -> TileType:
    """A row-major tile holding ``valid`` (physical Col and Rows powers of two, >= 128 B)."""
    cols = _pow2_at_least(max(valid[1], 1))
    bits = dt.info.carrier_bits
    rows = max(_pow2_at_least(max(valid[0], 1)), _pow2_at_least(-(-1024 // (cols * bits))))
    return TileType((rows, cols), dt, valid=valid, pe=pe)


def _module(values: dict[str, Attribute], build) -> tuple[ModuleOp, Operation]:
    defs = {name: test_dialect.TestOp(result_types=[t]) for name, t in values.items()}
    for name, d in defs.items():
        d.results[0].name_hint = name
    op = build({n: d.results[0] for n, d in defs.items()})
    return ModuleOp([*defs.values(), op]), op


def _check_module(module: ModuleOp) -> str | None:
    """Verify; either way the text round-trips exactly. Only VerifyException may escape.
    Returns None when the module verifies, else the first line of the diagnostic."""
    custom = _print(module)
    generic = _print(module, generic=True)
    for text, is_generic in ((custom, False), (generic, True)):
        reparsed = Parser(CTX, text).parse_module()
        assert _print(reparsed, generic=is_generic) == text
        assert _print(reparsed) == custom
    try:
        module.verify()
    except VerifyException as e:
        event("rejected")
        event(str(e).splitlines()[0].split("] ")[1][:60])
        # The reparsed module is rejected with the same diagnostic.
        try:
            Parser(CTX, custom).parse_module().verify()
        except VerifyException as e2:
            assert str(e2).splitlines()[0] == str(e).splitlines()[0]
        else:
            raise AssertionError("reparsed module verifies but the original does not") from e
        return str(e).splitlines()[0]
    event("verified")
    Parser(CTX, custom).parse_module().verify()
    Parser(CTX, generic).parse_module().verify()
    return None


def _assert_verdict(diag: str | None, expected: list[str], decode: bool) -> None:
    """The verifier's verdict is the oracle's: legal iff ``expected`` lists no violated rule;
    a reserved B.FPATR value is an IllegalInstruction (it does not decode), the rest TileLegality."""
    if not expected:
        assert diag is None, f"oracle: legal; verifier: {diag}"
        return
    assert diag is not None, f"oracle: illegal ({'; '.join(expected)}); the verifier accepts it"
    kind = "[IllegalInstruction]" if decode else "[TileLegality]"
    assert kind in diag, f"expected a {kind} fault for {expected}, got {diag}"


MX_POOL = [T.FP16, T.BF16, T.E4M3, T.E5M2, T.E2M1X2, T.E1M2X2] * 3 + [T.FP32, T.S8, T.E3M2]
FP32_MODES = [c for c, m in PRE_QUANT_MODES.items() if m.acc in (None, T.FP32)]
QUANT_MODES = [0] * 10 + FP32_MODES * 2 + sorted(PRE_QUANT_MODES) + [6, 63]


@st.composite
def fpatrs(draw):
    mode = draw(st.sampled_from(QUANT_MODES))
    gcode = draw(st.sampled_from([0] * 8 + [1, 2, 9] * 2 + [10]))
    flag = lambda p: draw(st.sampled_from([0] * p + [1]))  # noqa: E731
    row_max_en = flag(2)
    group_max_en = int(gcode != 0)
    f = Fpatr(
        pre_quant_mode=mode,
        relu_mode=draw(st.sampled_from([0] * 8 + [1, 2, 3] * 2 + [4])),
        group_n_code=gcode,
        row_max_en=row_max_en,
        group_max_en=group_max_en if not flag(30) else 1 - group_max_en,
        row_max_init=flag(2) if row_max_en else flag(30),
        max_abs_en=flag(3) if row_max_en or group_max_en else flag(30),
        trans_a=flag(30),
        trans_b=flag(30),
        cscale_en=flag(30),
    )
    for name, v in zip(Fpatr.field_names(), f.as_tuple()):
        assert v < 1 << FPATR_FIELD_WIDTHS[name]
    return f


@st.composite
def tgemv_cases(draw):
    flip = lambda: draw(st.sampled_from([False] * 39 + [True]))  # noqa: E731  (rare perturbation)
    at, bt = draw(st.sampled_from(MX_POOL)), draw(st.sampled_from(MX_POOL))
    k, n = draw(st.sampled_from([1, 20, 32, 33, 64])), draw(st.sampled_from([1, 8, 32]))
    m = 2 if flip() else 1
    mask = draw(st.sampled_from(["1111", "1111", "1100", "0000"]))
    pe = "1111" if mask == "0000" else mask
    alayout = draw(st.sampled_from([Layout.CUBE_M16, Layout.CUBE_M32])) if not flip() else Layout.CUBE_N8
    loc = Location.MAT  # a CUBE-layout tile elsewhere is not a legal type (TileCubeDescriptorLegal)
    f = draw(fpatrs())
    vals: dict[str, Attribute] = {}
    vals["a"] = TileType((m, k), at, layout=alayout, location=loc, pe=pe)
    if (at not in (T.FP16, T.BF16)) != flip():
        vals["as"] = _row_major((m, -(-k // MX_BLOCK) + (1 if flip() else 0)), T.E8M0, pe)
    vals["b"] = TileType((k if not flip() else k + 1, n), bt, layout=Layout.CUBE_N8, location=Location.MAT,
                         pe=pe if not flip() else "1000")
    if (bt not in (T.FP16, T.BF16)) != flip():
        vals["bs"] = _row_major((-(-k // MX_BLOCK), n), T.E8M0 if not flip() else T.U8, pe)
    vals["bias"] = _row_major((1, n), T.FP32 if not flip() else T.FP16, pe)
    wanted = set(f.vector_param_sources()) | set(f.scalar_params()) if f.pre_quant_mode in PRE_QUANT_MODES else set()
    ops = {"a": "a", "a_scale": "as", "b": "b", "b_scale": "bs", "bias": "bias"}
    for role, t in (("row_max_in", _row_major((m, 1), T.FP32, pe)), ("quant", _row_major((1, n), T.U64, pe)),
                    ("prelu", _row_major((1, n), T.U64, pe)), ("quant_scalar", i64 if not flip() else i32),
                    ("lrelu_scalar", i64)):
        if (role in wanted) != flip():
            vals[role] = t
            ops[role] = role
    out = T.FP32
    if f.pre_quant_mode in PRE_QUANT_MODES:
        out = pre_quant_output_type(f.pre_quant_mode, T.FP32)
    if out in (T.FP64, T.HIF4X2) or flip():
        out = draw(st.sampled_from([T.FP16, T.FP32, T.S8, T.BF16]))
    dlayout = alayout if alayout is not Layout.CUBE_N8 else Layout.CUBE_M16
    results: list[Attribute] = [TileType((m, n), out, layout=dlayout, location=Location.MAT, pe=pe)]
    aux = list(f.aux_destinations())
    if flip():
        aux = aux[:-1] if aux else ["row_max"]
    gn = f.group_n if f.group_n_code < 10 and f.group_n else 8
    for r in aux:
        results.append(_row_major((m, 1) if r == "row_max" else (m, -(-n // gn)), T.FP32, pe))
    rmode = draw(st.sampled_from([RoundingMode.DEFAULT] * 16 + list(RoundingMode)))
    sat = draw(st.sampled_from([False] * 8 + [True]))
    return vals, ops, results, dict(rmode=rmode, sat=sat, fpatr=f, mask=mask)


@SETTINGS
@given(tgemv_cases())
def test_tgemv_mx_bias_verdict_is_the_oracles_and_round_trips(case):
    vals, ops, results, props = case
    module, _ = _module(
        vals,
        lambda v: TGemvMxBiasOp({role: v[name] for role, name in ops.items() if name in v}, results, **props),
    )
    _assert_verdict(_check_module(module), *_tgemv_oracle(vals, ops, results, props))


# The spec's rules for TGEMV_MX_BIAS, restated here as literals (PTO-SPEC 1, 3.3, 4; D2, D10,
# D11, D12, D13) so that the oracle shares no table with the verifier.
_MX_TYPES = {T.FP16, T.BF16, T.E4M3, T.E5M2, T.E2M1X2, T.E1M2X2}
_UNSCALED = {T.FP16, T.BF16}
_DEFINED_PRE_QUANT = {0, 1, 2, 3, 4, 5, 12, 13, 16, 17, 18, 19, 20, *range(23, 29), *range(32, 40)}
_FP32_ACC_OUT = {  # PreQuantMode -> D element type, FP32-accumulator modes only (D11)
    0: T.FP32, 1: T.FP16, 16: T.BF16, 23: T.S8, 24: T.S8, 25: T.HIF8, 26: T.E4M3, 27: T.FP32,
    28: T.HIF8, 32: T.FP16, 33: T.FP16, 34: T.BF16, 36: T.BF16, 37: T.E4M3, 38: T.FP32,
}  # fmt: skip
_VECTOR_QUANT = {23, 28, 33, 36, 37, 38}  # the V... modes read a 1xN U64 tile
_SCALAR_QUANT = {24, 25, 26, 27, 32, 34}  # the Q... modes read a 64-bit parameter word
_FIXED_ROUNDING = {1, 16, 25, 26, 28, 32, 33, 34, 36, 37}
_GROUP_N = {1: 8, 2: 16, 3: 32, 4: 48, 5: 64, 6: 80, 7: 96, 8: 112, 9: 128}


def _tgemv_oracle(vals, ops, results, props) -> tuple[list[str], bool]:
    """The rules a TGEMV_MX_BIAS instance violates, from its operand and result types alone;
    and whether the first is a decoding failure (which mask 0 does not suppress, D12)."""
    f: Fpatr = props["fpatr"]
    mask: str = props["mask"]
    mode = f.pre_quant_mode
    decode = [
        msg
        for msg, bad in (
            ("reserved pre_quant_mode", mode not in _DEFINED_PRE_QUANT),
            ("reserved relu_mode", f.relu_mode > 3),
            ("reserved group_n_code", f.group_n_code > 9),
        )
        if bad
    ]
    if decode:
        return decode, True
    if mask == "0000":
        return [], False
    v = {role: vals[name] for role, name in ops.items() if name in vals}
    a, b = v["a"], v["b"]
    m, k = a.valid_shape
    n = b.valid_shape[1]
    nb = -(-k // 32)
    rules: list[tuple[str, bool]] = []
    for side, t in (("a", a), ("b", b)):
        rules.append((f"{side}: not an MX input type", t.dtype not in _MX_TYPES))
        rules.append((f"{side}_scale iff not FP16/BF16", (f"{side}_scale" in v) == (t.dtype in _UNSCALED)))
    rules += [
        ("row_max_init without row_max_en", f.row_max_init and not f.row_max_en),
        ("group_max_en iff group_n_code != 0", bool(f.group_max_en) != (f.group_n_code != 0)),
        ("max_abs_en without a max", f.max_abs_en and not (f.row_max_en or f.group_max_en)),
        ("trans_a/trans_b/cscale_en set", f.trans_a or f.trans_b or f.cscale_en),
        ("not an FP32-accumulator mode", mode not in _FP32_ACC_OUT),
        ("rmode set with a fixed-rounding mode",
         mode in _FIXED_ROUNDING and props["rmode"] is not RoundingMode.DEFAULT),
    ]  # fmt: skip
    want = {"a", "b", "bias"} | {f"{s}_scale" for s, t in (("a", a), ("b", b)) if t.dtype not in _UNSCALED}
    want |= {"row_max_in"} if f.row_max_en and f.row_max_init else set()
    want |= {"quant"} if mode in _VECTOR_QUANT else {"quant_scalar"} if mode in _SCALAR_QUANT else set()
    want |= {"prelu"} if f.relu_mode == 3 else {"lrelu_scalar"} if f.relu_mode == 2 else set()
    rules.append(("operands not those B.FPATR selects", set(v) != want))
    aux_want = (["row_max"] if f.row_max_en else []) + (["group_max"] if f.group_max_en else [])
    rules.append(("results not those B.FPATR enables", len(results) != 1 + len(aux_want)))
    for role in ("quant_scalar", "lrelu_scalar"):
        rules.append((f"{role} not i64", role in v and v[role] != i64))
    tiles = {r: t for r, t in v.items() if isinstance(t, TileType)}
    d = results[0]
    for t in tiles.values():
        rules.append(("source not held by the selected PEs", any(c == "1" and h == "0" for c, h in zip(mask, t.pe_mask))))
    for t in results:
        rules.append(("result not on exactly the selected PEs", t.pe_mask != mask))
    row_major = lambda t, dt, shape: (  # noqa: E731
        t.dtype is dt and t.layout_kind is Layout.ROW_MAJOR and t.valid_shape == shape
    )
    rules += [
        ("M != 1", m != 1),
        ("b rows != K", b.valid_shape[0] != k),
        ("a layout", a.layout_kind not in (Layout.CUBE_M16, Layout.CUBE_M32)),
        ("b layout", b.layout_kind is not Layout.CUBE_N8),
        ("a_scale shape/type", "a_scale" in v and not row_major(v["a_scale"], T.E8M0, (m, nb))),
        ("b_scale shape/type", "b_scale" in v and not row_major(v["b_scale"], T.E8M0, (nb, n))),
        ("bias", not row_major(v["bias"], T.FP32, (1, n))),
        ("row_max_in", "row_max_in" in v and not row_major(v["row_max_in"], T.FP32, (m, 1))),
        ("quant", "quant" in v and not row_major(v["quant"], T.U64, (1, n))),
        ("prelu", "prelu" in v and not row_major(v["prelu"], T.U64, (1, n))),
        ("d layout != a layout", d.layout_kind is not a.layout_kind),
        ("d shape", d.valid_shape != (m, n)),
        ("d type", d.dtype is not _FP32_ACC_OUT.get(mode, d.dtype)),
    ]
    if len(results) == 1 + len(aux_want):
        for role, t in zip(aux_want, results[1:]):
            cols = 1 if role == "row_max" else -(-n // _GROUP_N.get(f.group_n_code, n or 1))
            rules.append((role, not row_major(t, T.FP32, (m, cols))))
    return [msg for msg, bad in rules if bad], False


TREM_POOL = list(TileDataType)


@st.composite
def trem_cases(draw):
    dt = draw(st.sampled_from(TREM_POOL))
    cols = draw(st.sampled_from([8, 16, 32]))
    valid = (draw(st.integers(1, 4)), draw(st.integers(1, cols)))
    mask = draw(st.sampled_from(["1111", "1111", "1110", "0000"]))
    pe = "1111" if mask == "0000" else mask
    base = _row_major(valid, dt, pe)
    flip = lambda: draw(st.sampled_from([False] * 7 + [True]))  # noqa: E731
    changes = [
        lambda t: t.with_(element_type=draw(st.sampled_from(TREM_POOL))),
        lambda t: t.with_(valid=(t.valid_shape[0], max(1, t.valid_shape[1] - 1))),
        lambda t: t.with_(storage=Storage.SHARED),
        lambda t: t.with_(pe="1000"),
        lambda t: t.with_(location=Location.VEC),
    ]
    types = []
    for _ in range(3):
        t = base
        if flip():
            try:
                t = draw(st.sampled_from(changes))(t)
            except VerifyException:  # the changed descriptor is itself illegal (D14)
                event("illegal tile type")
        types.append(t)
    pad = draw(st.sampled_from(["zero", "max", "min", "null"]))
    return types, pad, mask


@SETTINGS
@given(trem_cases())
def test_trem_verdict_is_the_oracles_and_round_trips(case):
    from pto_dialect.attributes import PadValue

    (ta, tb, tr), pad, mask = case
    module, _ = _module({"x": ta, "y": tb}, lambda v: TRemOp(v["x"], v["y"], tr, pad=PadValue(pad), mask=mask))
    _assert_verdict(_check_module(module), _trem_oracle(ta, tb, tr, mask), decode=False)


# TileVecArithmeticDataTypeSupported (asl/tile/model/legality/dtype-layout.asl; D6 revised).
_TREM_TYPES = {T.FP64, T.FP32, T.TF32, T.HF32, T.FP16, T.BF16, T.E4M3, T.E5M2,
               T.S64, T.S32, T.S16, T.S8, T.U64, T.U32, T.U16, T.U8}  # fmt: skip


def _trem_oracle(ta: TileType, tb: TileType, tr: TileType, mask: str) -> list[str]:
    """The rules a TREM instance violates (PTO-SPEC 5, D6, D10, D12, D13): mask 0 is a no-op;
    else three Local row-major tiles on the op's PEs, one type of the set, identical
    physical shape, valid shape, type and capacity."""
    if mask == "0000":
        return []
    key = lambda t: (t.element_type, t.shape, t.valid_shape, t.capacity)  # noqa: E731
    rules = [("element type not in TREM's set", ta.dtype not in _TREM_TYPES)]
    for t in (ta, tb, tr):
        rules += [
            ("not row-major", t.layout_kind is not Layout.ROW_MAJOR),
            ("shared storage", t.storage_kind is not Storage.LOCAL),
            ("PE mask differs from the op's", t.pe_mask != mask),
            ("tiles differ", key(t) != key(ta)),
        ]
    return [msg for msg, bad in rules if bad]
