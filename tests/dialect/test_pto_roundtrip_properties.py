"""Property tests: random tile types and random op instances either verify and round-trip
through text exactly (custom and generic form), or are rejected with a VerifyException /
ParseError — never any other exception (D16: verification is total).
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


def _check_module(module: ModuleOp) -> None:
    """Verify; either way the text round-trips exactly. Only VerifyException may escape."""
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
        return
    event("verified")
    Parser(CTX, custom).parse_module().verify()
    Parser(CTX, generic).parse_module().verify()


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
def test_tgemv_mx_bias_verifies_or_faults_and_round_trips(case):
    vals, ops, results, props = case
    module, _ = _module(
        vals,
        lambda v: TGemvMxBiasOp({role: v[name] for role, name in ops.items() if name in v}, results, **props),
    )
    _check_module(module)


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
def test_trem_verifies_or_faults_and_round_trips(case):
    from pto_dialect.attributes import PadValue

    (ta, tb, tr), pad, mask = case
    module, _ = _module({"x": ta, "y": tb}, lambda v: TRemOp(v["x"], v["y"], tr, pad=PadValue(pad), mask=mask))
    _check_module(module)
