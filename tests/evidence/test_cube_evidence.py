"""ADR-0034 evidence for the live CUBE family, as it applies today (PTO-SPEC 1, 3.1, 3.5, 4, 6;
D1-D3, D10-D16).

* Decoded selector matrix (``tile-bound-totality-001``): every live function through
  ``pto-form-blocks`` (+ ``pto-assign-registers``) and decoded execution, raw-carrier vectors
  A=2, B=3, C=5, Bias=7 (MX: E4M3 with raw scale 1) -> plain 6, ACC 11, BIAS 13; the same
  values under the ``exact`` profile; function 8 and every reserved code -> IllegalInstruction.
* The 25 TileDataType codes per function (verifier: TileLegality outside the function's set,
  D2 / PTO-SPEC 1) and the 32 DataType field values at decode (reserved -> IllegalInstruction).
* Alias classes (``tile-bound-preflight-002``: A==B rejected; D==C not expressible, D is a fresh
  value) and snapshot semantics: sources are bit-identical after execution.
* Preflight roles: a failure in any operand role raises PTOFault before any result exists and
  leaves every tile unchanged (D12, D16); the static ones are verifier errors.
* a2a3 (D15): the six MX functions are IllegalInstruction in the verifier, the tile-level
  interpreter and decoded blocks (formed and hand-made).

Expected values are hand-derived (2*3 = 6, 2*3+5 = 11, 2*3+7 = 13, ...), never taken from the
kernels under test. ADR-0034's "all 25 types / 13 functions" is history (D2, PTO-SPEC 3.1).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from interpreter import RunError, run
from interpreter.ssa.runner import build_context, extra_functions, parse_module_text
from interpreter.ssa.runtime import TileValue, tile_from_array
from interpreter.ssa.upstream import upstream_functions
from passes import get_all_passes
from pto_dialect import isa
from pto_dialect.block_ops import BlockOp
from pto_dialect.datatypes import (
    DTYPE_NONE,
    MATMUL_INPUT_TYPES,
    MX_INPUT_TYPES,
    RESERVED_CODES,
    TileDataType,
    mx_needs_scale,
)
from pto_dialect.faults import PTOFault
from pto_dialect.ops import CUBE_OPS, CubeMatrixOp
from pto_dialect.postprocess import Fpatr

T = TileDataType
MX_OPS = [c for c in CUBE_OPS if c.is_mx()]
ORDINARY_OPS = [c for c in CUBE_OPS if not c.is_mx()]
B64_OR_HIF4 = frozenset({T.FP64, T.S64, T.U64, T.HIF4X2})
"""Types with no CUBE geometry: the tile type itself rejects them (PTO-SPEC 2 cube-cell)."""


# ---- building programs -----------------------------------------------------------------------


def _tile(dt: TileDataType, layout: str | None, cols: int = 1, rows: int = 1) -> str:
    if layout is None:  # row-major 1 x cols valid inside a 128-B row-major tile
        width = 1024 // dt.info.carrier_bits
        return f"!pto.tile<1x{width}x{dt.ir}, valid={rows}x{cols}>"
    return f"!pto.tile<{rows}x{cols}x{dt.ir}, {layout}, mat>"


def cube_roles(cls: type[CubeMatrixOp], dt: TileDataType) -> tuple[list[str], dict[str, str], str]:
    """1x1x1 operand types of ``cls`` with input type ``dt``: (stream order, role -> type, D)."""
    acc = T.FP32 if cls.is_mx() else dt.accumulator
    roles = {"a": _tile(dt, "cube_m16"), "b": _tile(dt, "cube_n8")}
    if cls.is_mx() and mx_needs_scale(dt):
        roles["a_scale"] = roles["b_scale"] = _tile(T.E8M0, None)
    if cls.is_acc():
        roles["c"] = _tile(acc, "cube_m16")
    if cls.has_bias():
        roles["bias"] = _tile(acc, None)
    order = [r for r in cls.operand_roles() if r in roles]
    return order, roles, _tile(acc, "cube_m16")


def cube_program(
    cls: type[CubeMatrixOp], dt: TileDataType, *, target: str = "a5", alias: dict | None = None
) -> tuple[str, list[str]]:
    """``func.func @f`` running one ``cls`` op; ``alias`` maps a role to another role's value."""
    order, roles, d = cube_roles(cls, dt)
    alias = alias or {}
    params = [r for r in order if r not in alias]
    args = ", ".join(f"%{r}: {roles[r]}" for r in params)
    opnds = ", ".join(
        (f"{r} " if r.endswith("_scale") else "") + f"%{alias.get(r, r)}" for r in order
    )
    tys = ", ".join(roles[r] for r in order)
    text = f"""builtin.module attributes {{pto.target = #pto.target<{target}>}} {{
func.func @f({args}) -> {d} {{
  %d = {cls.name} {opnds} : ({tys}) -> {d}
  func.return %d : {d}
}}
}}"""
    return text, params


def _module(text: str, verify: bool = True) -> ModuleOp:
    m = parse_module_text(text, ctx=build_context())
    if verify:
        m.verify()
    return m


def _bundled(m: ModuleOp) -> ModuleOp:
    """The public pipeline: pto-form-blocks, then pto-assign-registers when registered."""
    passes = get_all_passes()
    ctx = build_context()
    for name in ("pto-form-blocks", "pto-assign-registers"):
        if name in passes:
            passes[name]()().apply(ctx, m)
    m.verify()
    assert not any(isinstance(op, CubeMatrixOp) for op in m.walk()), "an op was not formed"
    return m


def _call(m: ModuleOp, *args, profile: str = "ordered"):
    """Run @f on interpreter-level values (TileValue), without re-verifying the module."""
    interp = Interpreter(m, index_bitwidth=64)
    for fns in upstream_functions():
        interp.register_implementations(fns)
    for fns in extra_functions(profile):
        interp.register_implementations(fns, override=True)
    return interp.call_op("f", args)


def _attr(text: str):
    return Parser(build_context(), text).parse_attribute()


def _snap(tv: TileValue):
    return {p: (tv.payloads[p].tobytes(), tv.defined[p].tobytes()) for p in tv.pes}


def _expected(cls: type[CubeMatrixOp]) -> int:
    return 11 if cls.is_acc() else 13 if cls.has_bias() else 6


# Raw carriers (D4 raw-carrier): FP16 / E4M3 codes 2 and 3, FP32 words 5 and 7, E8M0 code 1.
RAW = {
    "a": 2, "b": 3, "c": 5, "bias": 7, "a_scale": 1, "b_scale": 1,
}  # fmt: skip
# The same values as real numbers (exact profile): E8M0 code 127 is 2^0.
EXACT = {"a": 2.0, "b": 3.0, "c": 5.0, "bias": 7.0}


def _raw_args(cls, params):
    carrier = {"a": np.uint8 if cls.is_mx() else np.uint16, "b": np.uint8 if cls.is_mx() else np.uint16,
               "c": np.uint32, "bias": np.uint32, "a_scale": np.uint8, "b_scale": np.uint8}  # fmt: skip
    return [np.array([[RAW[r]]], carrier[r]) for r in params]


def _exact_args(cls, params):
    import ml_dtypes

    ft = ml_dtypes.float8_e4m3fn if cls.is_mx() else np.float16
    vals = {
        "a": np.array([[EXACT["a"]]], ft),
        "b": np.array([[EXACT["b"]]], ft),
        "c": np.array([[EXACT["c"]]], np.float32),
        "bias": np.array([[EXACT["bias"]]], np.float32),
        "a_scale": np.array([[127]], np.uint8),
        "b_scale": np.array([[127]], np.uint8),
    }
    return [vals[r] for r in params]


def _selector_cases():
    out = []
    for cls in CUBE_OPS:
        marks = []
        out.append(pytest.param(cls, marks=marks, id=cls.name[4:]))
    return out


# ---- decoded selector matrix (tile-bound-totality-001) ----------------------------------------


@pytest.mark.parametrize("profile", ["raw-carrier", "ordered", "exact"])
@pytest.mark.parametrize("cls", _selector_cases())
def test_decoded_selector_matrix(cls, profile):
    """ADR-0034 TestCubeDecodedSelectorMatrix / PTO-SPEC 6: each live function, formed into its
    block and executed by decoded dispatch: plain 6, ACC 11, BIAS 13 on 4 PEs (D4, D13)."""
    dt = T.E4M3 if cls.is_mx() else T.FP16
    text, params = cube_program(cls, dt)
    m = _bundled(_module(text))
    (blk,) = [op for op in m.walk() if isinstance(op, BlockOp)]
    start = blk.commands()[0]
    word = isa.encode(start)
    decoded = isa.decode(word, strict=True)
    assert decoded.cube is not None and decoded.cube.code == cls.FUNCTION
    assert decoded.cube.mnemonic == cls.BSTART and decoded.dtype == dt.value
    assert word == dt.value << 27 | cls.FUNCTION << 20 | 0x31181  # PTO-SPEC 3.1
    args = _raw_args(cls, params) if profile == "raw-carrier" else _exact_args(cls, params)
    (d,) = run(m, "f", *args, profile=profile)
    assert d.shape == (4, 1, 1)
    assert d.ravel().tolist() == [float(_expected(cls))] * 4


@pytest.mark.parametrize("profile", ["raw-carrier", "ordered", "exact"])
@pytest.mark.parametrize("cls", CUBE_OPS, ids=lambda c: c.name[4:])
def test_tile_level_selector_matrix(cls, profile):
    """The same vectors through the tile-level interpreter (every function, ACC included)."""
    dt = T.E4M3 if cls.is_mx() else T.FP16
    text, params = cube_program(cls, dt)
    args = _raw_args(cls, params) if profile == "raw-carrier" else _exact_args(cls, params)
    (d,) = run(text, "f", *args, profile=profile)
    assert d.ravel().tolist() == [float(_expected(cls))] * 4


NON_LIVE_FUNCTIONS = frozenset({3, *range(7, 16), 19, *range(23, 32)})


def _hand_block(fn: int, dtype: int, n_src: int) -> list[isa.Command]:
    cmds: list[isa.Command] = [
        isa.BStart(isa.BlockFamily.CUBE, fn, dtype),
        isa.BFpatr.from_fpatr(Fpatr()),
    ]
    regs = list(range(n_src))
    for i in range(0, n_src, 2):
        pair = regs[i : i + 2]
        cmds.append(isa.BIot(src0=pair[0], src1=pair[1] if len(pair) > 1 else None, pe_mode=7))
    cmds += [isa.BIot(last=1, size_code=1, pe_mode=7, dst_hand=2), isa.BStop()]
    return cmds


def _n_sources(f: isa.CubeFunction, dt: TileDataType) -> int:
    return int(f.is_acc) + 2 + 2 * int(f.is_mx and mx_needs_scale(dt)) + int(f.is_bias)


def test_non_live_function_codes_are_exactly_the_complement():
    """PTO-SPEC 3.1: 12 live functions; 3, 7-15 (8 = deleted ACCCVT), 19, 23-31 are not."""
    assert NON_LIVE_FUNCTIONS == frozenset(range(32)) - isa.CUBE_FUNCTIONS.keys()
    assert len(NON_LIVE_FUNCTIONS) == 20 and 8 in NON_LIVE_FUNCTIONS


@pytest.mark.parametrize("fn", sorted(NON_LIVE_FUNCTIONS))
def test_reserved_function_decodes_as_illegal_instruction(fn):
    """A hand-made BSTART word with a non-live function (incl. 8, ACCCVT) is IllegalInstruction
    at decode and in check_block, before any block state (PTO-SPEC 3.1, 3.5; D12)."""
    word = T.FP16.value << 27 | fn << 20 | 0x31181
    with pytest.raises(PTOFault) as e:
        isa.decode(word, strict=True)
    assert e.value.kind == "IllegalInstruction" and f"CUBE function {fn}" in e.value.message
    cmds = _hand_block(fn, T.FP16.value, 2)
    cmds[0] = isa.decode(word)  # non-strict decode keeps the field for the block checker
    with pytest.raises(PTOFault) as e:
        isa.check_block(cmds)
    assert e.value.kind == "IllegalInstruction"


# ---- the 25 TileDataTypes per function ---------------------------------------------------------


@pytest.mark.parametrize("cls", CUBE_OPS, ids=lambda c: c.name[4:])
def test_every_tile_data_type_per_function_verifier(cls):
    """Each of the 25 TileDataTypes as AType = BType: legal exactly in the function's set (MX:
    D2; ordinary: PTO-SPEC 1), else [TileLegality] naming AType; b64/HiF4X2 have no CUBE
    geometry and are rejected by the tile type itself, also [TileLegality] (PTO-SPEC 2)."""
    legal_set = MX_INPUT_TYPES if cls.is_mx() else MATMUL_INPUT_TYPES
    accepted, rejected = set(), set()
    for dt in T:
        text, _ = cube_program(cls, dt)
        try:
            _module(text)
        except RunError as e:
            assert dt in B64_OR_HIF4 and "[TileLegality]" in str(e) and "no CUBE geometry" in str(e)
            rejected.add(dt)
            continue
        except VerifyException as e:
            assert "[TileLegality]" in str(e) and "a: AType" in str(e), str(e)
            rejected.add(dt)
            continue
        accepted.add(dt)
    assert len(accepted) + len(rejected) == 25
    assert accepted == legal_set


@pytest.mark.parametrize("fn", sorted(isa.CUBE_FUNCTIONS))
def test_every_datatype_code_at_decode(fn):
    """All 32 DataType field values in a live BSTART: the 25 TileDataTypes decode, the reserved
    codes 15, 21-23, 29-30 and DTYPE_NONE (31) are IllegalInstruction (PTO-SPEC 1, 3.1)."""
    for code in range(32):
        word = code << 27 | fn << 20 | 0x31181
        if code in RESERVED_CODES or code == DTYPE_NONE:
            with pytest.raises(PTOFault) as e:
                isa.decode(word, strict=True)
            assert e.value.kind == "IllegalInstruction"
        else:
            cmd = isa.decode(word, strict=True)
            assert (cmd.function, cmd.dtype) == (fn, code)
    assert RESERVED_CODES == {15, 21, 22, 23, 29, 30}


@pytest.mark.parametrize("fn", sorted(c for c, f in isa.CUBE_FUNCTIONS.items() if f.is_mx))
def test_mx_block_rejects_non_mx_atype(fn):
    """A complete hand-made MX block whose AType is outside the MX set is TileLegality at block
    completion; every MX type completes (D2, PTO-SPEC 3.5)."""
    f = isa.CUBE_FUNCTIONS[fn]
    for dt in T:
        cmds = _hand_block(fn, dt.value, _n_sources(f, dt))
        if dt in MX_INPUT_TYPES:
            assert isa.check_block(cmds).op_name == f.name
        else:
            with pytest.raises(PTOFault) as e:
                isa.check_block(cmds)
            assert e.value.kind == "TileLegality" and "MX input type" in e.value.message


def test_ordinary_block_rejects_types_outside_the_set():
    for dt in (T.S32, T.U32, T.E8M0, T.FP64):
        with pytest.raises(PTOFault):
            isa.check_block(_hand_block(0, dt.value, 2))


# ---- alias classes and snapshot semantics --------------------------------------------------------


def _tiles(m: ModuleOp, arrays):
    f = next(op for op in m.walk() if getattr(op, "sym_name", None) is not None)
    return [tile_from_array(t, a) for t, a in zip(f.function_type.inputs.data, arrays)]


def test_alias_a_equals_b_rejected_before_effects():
    """tile-bound-preflight-002 "A==B rejected": one tile as both primaries is [TileLegality]
    in the verifier (PTO-SPEC 6), and a linked block binding one value twice faults at run
    time with TileLegality, the source unchanged (D12)."""
    text = """func.func @f(%a: !pto.tile<1x1xf16, cube_m16, mat>) -> !pto.tile<1x1xf32, cube_m16, mat> {
  %d = pto.tgemv %a, %a : (!pto.tile<1x1xf16, cube_m16, mat>, !pto.tile<1x1xf16, cube_m16, mat>) -> !pto.tile<1x1xf32, cube_m16, mat>
  func.return %d : !pto.tile<1x1xf32, cube_m16, mat>
}"""
    with pytest.raises(VerifyException, match=r"\[TileLegality\] b: the same tile as a.*A==B"):
        _module(text)
    # Decoded: form a legal GEMV, then link the same value as A and B.
    good, _ = cube_program(next(c for c in CUBE_OPS if c.name == "pto.tgemv"), T.FP16)
    m = _bundled(_module(good))
    (blk,) = [op for op in m.walk() if isinstance(op, BlockOp)]
    blk.operands = [blk.operands[0], blk.operands[0]]
    a = _tiles(m, [np.array([[2]], np.float16)])[0]
    before = _snap(a)
    with pytest.raises(PTOFault) as e:
        _call(m, a, tile_from_array(a.type, np.array([[3]], np.float16)))
    # check_linked rebuilds the op on fresh values of the linked types, so the decoded path
    # reports the layout half of the rule: one tile cannot be cube_m16 (A) and cube_n8 (B).
    assert e.value.kind == "TileLegality"
    assert e.value.message.startswith("b: layout cube_m16 is illegal, expected cube_n8")
    assert _snap(a) == before


def test_alias_d_equals_c_not_expressible_and_c_persists():
    """"D==C rejected": D is always a fresh value (SSA result, newly allocated register in the
    block), so D never aliases C; after execution C is bit-identical (snapshot, D12)."""
    cls = next(c for c in CUBE_OPS if c.name == "pto.tmatmul_acc")
    text, params = cube_program(cls, T.FP16)
    m = _module(text)
    args = _tiles(m, _exact_args(cls, params))
    before = [_snap(t) for t in args]
    (d,) = _call(m, *args)
    assert all(d is not t for t in args)
    assert [_snap(t) for t in args] == before
    assert [float(d.valid(p)[0, 0]) for p in d.pes] == [11.0] * 4


@pytest.mark.parametrize("name", ["pto.tmatmul_acc", "pto.tgemv_acc"])
def test_alias_accumulator_and_left_source(name):
    """Accumulate / GEMV alias: C and A are one FP32 tile (legal: same dtype, layout, location
    and shape). Each role reads the common pre-instruction value: D = x + x*B = 5 + 5*3 = 20,
    and x is unchanged afterwards (ADR-0034 snapshot semantics)."""
    cls = next(c for c in CUBE_OPS if c.name == name)
    text, params = cube_program(cls, T.FP32, alias={"a": "c"})
    assert params == ["c", "b"]
    m = _module(text)
    for profile, vals in (("ordered", (5.0, 3.0)), ("exact", (5.0, 3.0)), ("raw-carrier", (5, 3))):
        dtype = np.uint32 if profile == "raw-carrier" else np.float32
        c, b = _tiles(m, [np.array([[vals[0]]], dtype), np.array([[vals[1]]], dtype)])
        before = (_snap(c), _snap(b))
        (d,) = _call(m, c, b, profile=profile)
        assert [float(d.valid(p)[0, 0]) for p in d.pes] == [20.0] * 4
        assert (_snap(c), _snap(b)) == before


@pytest.mark.parametrize("name", ["pto.tmatmul_mx", "pto.tgemv_mx_bias", "pto.tmatmul_mx_acc"])
def test_alias_both_scale_roles(name):
    """Both scale roles bound to one E8M0 tile (code 128 = 2.0): each role observes it,
    D = (2*2)*(3*2) [+7 bias | +5 C] = 24 / 31 / 29; the scale is unchanged (ADR-0034)."""
    cls = next(c for c in CUBE_OPS if c.name == name)
    text, params = cube_program(cls, T.E4M3, alias={"b_scale": "a_scale"})
    m = _module(text)
    vals = {**dict(zip(["a", "b", "c", "bias"], (2.0, 3.0, 5.0, 7.0)))}
    import ml_dtypes

    arrays = []
    for r in params:
        if r in ("a", "b"):
            arrays.append(np.array([[vals[r]]], ml_dtypes.float8_e4m3fn))
        elif r == "a_scale":
            arrays.append(np.array([[128]], np.uint8))
        else:
            arrays.append(np.array([[vals[r]]], np.float32))
    args = _tiles(m, arrays)
    before = [_snap(t) for t in args]
    (d,) = _call(m, *args)
    want = 24.0 + (7.0 if cls.has_bias() else 5.0 if cls.is_acc() else 0.0)
    assert [float(d.valid(p)[0, 0]) for p in d.pes] == [want] * 4
    assert [_snap(t) for t in args] == before


def test_alias_bias_and_row_max_in():
    """Bias / extra-source alias: one FP32 1x1 tile v = -10 is both the bias and RowMaxIn.
    D = 2*3 + v = -4; RowMax = max(raw accumulator, RowMaxIn) = max(-4, -10) = -4
    (PTO-SPEC 3.3: reductions run on the raw accumulator, RowMaxIn folded in last)."""
    t16a, t16b = _tile(T.FP16, "cube_m16"), _tile(T.FP16, "cube_n8")
    v, d = _tile(T.FP32, None), _tile(T.FP32, "cube_m16")
    text = f"""func.func @f(%a: {t16a}, %b: {t16b}, %v: {v}) -> ({d}, {v}) {{
  %d, %rm = pto.tgemv_bias %a, %b, %v, row_max_in %v {{fpatr = #pto.fpatr<row_max_en = 1, row_max_init = 1>}} : ({t16a}, {t16b}, {v}, {v}) -> ({d}, {v})
  func.return %d, %rm : {d}, {v}
}}"""
    m = _module(text)
    args = _tiles(m, [np.array([[2]], np.float16), np.array([[3]], np.float16),
                      np.array([[-10]], np.float32)])  # fmt: skip
    before = [_snap(t) for t in args]
    d_out, rm = _call(m, *args)
    assert float(d_out.valid(0)[0, 0]) == -4.0 and float(rm.valid(0)[0, 0]) == -4.0
    assert [_snap(t) for t in args] == before


# ---- preflight roles ------------------------------------------------------------------------------


def _undefined(tv: TileValue) -> TileValue:
    return dataclasses.replace(tv, defined={p: np.zeros_like(d) for p, d in tv.defined.items()})


PREFLIGHT_OPS = {
    "pto.tmatmul_mx_bias": ["a", "a_scale", "b", "b_scale", "bias"],
    "pto.tmatmul_mx_acc": ["c", "a", "a_scale", "b", "b_scale"],
    "pto.tgemv_acc": ["c", "a", "b"],
}


def _preflight_cases():
    for name, roles in PREFLIGHT_OPS.items():
        for role in roles:
            yield pytest.param(name, role, id=f"{name[4:]}-{role}")


@pytest.mark.parametrize("name, role", list(_preflight_cases()))
@pytest.mark.parametrize("failure", ["undefined", "descriptor"])
def test_runtime_preflight_role_failure_has_no_effect(name, role, failure):
    """ADR-0034 composite preflight: an undefined valid element (definedness; for C the
    accumulator precondition) or a descriptor that is not the IR type (layout / shape) in
    any role -> PTOFault(TileLegality) naming the role, raised before any result exists;
    every tile unchanged (D9, D12, D16)."""
    cls = next(c for c in CUBE_OPS if c.name == name)
    text, params = cube_program(cls, T.E4M3 if cls.is_mx() else T.FP16)
    m = _module(text)
    args = _tiles(m, _exact_args(cls, params))
    i = params.index(role)
    if failure == "undefined":
        args[i] = _undefined(args[i])
    else:  # same values and element type, another layout (cube <-> row-major)
        cube = args[i].type.layout_kind.is_cube
        bad_t = _attr(_tile(args[i].type.dtype, None if cube else "cube_m16"))
        args[i] = tile_from_array(bad_t, np.asarray(args[i].valid(0)))
    before = [_snap(t) for t in args]
    with pytest.raises(PTOFault) as e:
        _call(m, *args)
    assert e.value.kind == "TileLegality" and e.value.message.startswith(f"{role}:")
    assert [_snap(t) for t in args] == before


@pytest.mark.parametrize("role", PREFLIGHT_OPS["pto.tmatmul_mx_bias"])
def test_decoded_preflight_role_failure_has_no_effect(role):
    """The same preflight at block level: the decoded TMATMULMX.BIAS block faults with
    TileLegality for an undefined source in each role, sources unchanged (D12)."""
    cls = next(c for c in CUBE_OPS if c.name == "pto.tmatmul_mx_bias")
    text, params = cube_program(cls, T.E4M3)
    m = _bundled(_module(text))
    args = _tiles(m, _exact_args(cls, params))
    args[params.index(role)] = _undefined(args[params.index(role)])
    before = [_snap(t) for t in args]
    with pytest.raises(PTOFault) as e:
        _call(m, *args)
    assert e.value.kind == "TileLegality" and role in e.value.message
    assert [_snap(t) for t in args] == before


def test_decoded_destination_size_code_failure():
    """Destination role at block level: a SizeCode that differs from D's capacity is
    TileLegality, one too small TileAllocation (D12, D14), before any effect."""
    from xdsl.dialects.builtin import IntAttr

    cls = next(c for c in CUBE_OPS if c.name == "pto.tgemv_mx_bias")
    text, params = cube_program(cls, T.E4M3)
    m = _bundled(_module(text))
    iot = [op for op in m.walk() if op.name == "pto.b.iot"][-1]
    iot.properties["size_code"] = IntAttr(2)
    args = _tiles(m, _exact_args(cls, params))
    before = [_snap(t) for t in args]
    with pytest.raises(PTOFault) as e:
        _call(m, *args)
    assert e.value.kind == "TileLegality" and "SizeCode" in e.value.message
    assert [_snap(t) for t in args] == before


STATIC_ROLE_FAILURES = [
    # (op, role, replacement type, message fragment)
    ("pto.tmatmul_mx_bias", "a", "!pto.tile<1x128xf8E4M3FN, valid=1x1>", "a: layout row_major"),
    ("pto.tmatmul_mx_bias", "b", "!pto.tile<1x1xf8E4M3FN, cube_m16, mat>", "b: layout cube_m16"),
    ("pto.tmatmul_mx_bias", "a_scale", "!pto.tile<1x128xf8E4M3FN, valid=1x1>",
     "a_scale: element type f8E4M3FN"),
    ("pto.tmatmul_mx_bias", "b_scale", "!pto.tile<1x128xf8E8M0FNU, valid=1x2>",
     "b_scale: valid shape 1x2"),
    ("pto.tmatmul_mx_bias", "bias", "!pto.tile<1x64xf16, valid=1x1>", "bias: element type f16"),
    ("pto.tmatmul_mx_acc", "c", "!pto.tile<1x1xf32, cube_m32, mat>", "c: layout cube_m32"),
    ("pto.tmatmul_mx_acc", "c", "!pto.tile<2x1xf32, cube_m16, mat>", "c: valid shape 2x1"),
]  # fmt: skip


@pytest.mark.parametrize("name, role, bad, fragment", STATIC_ROLE_FAILURES)
def test_static_role_failures_rejected_by_verifier(name, role, bad, fragment):
    """D16: what the IR types determine (layout, shape, dtype per role) is a verifier
    [TileLegality] naming the role (PTO-SPEC 4, D1, D3, D10)."""
    cls = next(c for c in CUBE_OPS if c.name == name)
    text, _ = cube_program(cls, T.E4M3)
    _, roles, _ = cube_roles(cls, T.E4M3)
    head, body = text.split("{\n", 1)[0], text.split("{\n", 1)[1]
    good = roles[role]
    # Replace the role's type in the signature and in the op's type list (same position).
    sig, rest = body.split(") ->", 1)
    sig = sig.replace(f"%{role}: {good}", f"%{role}: {bad}")
    order = [r for r in cls.operand_roles() if r in roles]
    tys = ", ".join(bad if r == role else roles[r] for r in order)
    old = ", ".join(roles[r] for r in order)
    with pytest.raises(VerifyException, match=r"\[TileLegality\] " + fragment):
        _module(head + "{\n" + sig + ") ->" + rest.replace(f"({old})", f"({tys})"))


# ---- a2a3 (D15) ------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", MX_OPS, ids=lambda c: c.name[4:])
def test_a2a3_rejects_mx_everywhere(cls):
    """D15: on a2a3 every MX function is IllegalInstruction in the verifier, in the tile-level
    interpreter (even under mask 0: decoding precedes the no-op, D12), in a formed decoded
    block and in a hand-made block, before any operand check or effect."""
    a5, params = cube_program(cls, T.E4M3)
    a2a3 = a5.replace("#pto.target<a5>", "#pto.target<a2a3>")
    with pytest.raises(VerifyException, match=rf"\[IllegalInstruction\] CUBE function {cls.FUNCTION} "):
        _module(a2a3)
    target = _attr("#pto.target<a2a3>")
    for mask in ("1111", "0000"):
        m = _module(a5.replace(": (", f" {{mask = #pto.mask<{mask}>}} : (", 1))
        args = _tiles(m, _exact_args(cls, params))
        m.attributes["pto.target"] = target
        with pytest.raises(PTOFault) as e:
            _call(m, *args)
        assert e.value.kind == "IllegalInstruction"
    if not cls.is_acc():
        m = _bundled(_module(a5))
        m.attributes["pto.target"] = target
        with pytest.raises(PTOFault) as e:
            _call(m, *_tiles(m, _exact_args(cls, params)))
        assert e.value.kind == "IllegalInstruction"
    f = isa.CUBE_FUNCTIONS[cls.FUNCTION]
    cmds = _hand_block(cls.FUNCTION, T.E4M3.value, _n_sources(f, T.E4M3))
    assert isa.check_block(cmds, profile="a5").op_name == f.name
    with pytest.raises(PTOFault) as e:
        isa.check_block(cmds, profile="a2a3")
    assert e.value.kind == "IllegalInstruction"


@pytest.mark.parametrize("cls", ORDINARY_OPS, ids=lambda c: c.name[4:])
def test_a2a3_runs_ordinary_functions(cls):
    """Control for D15: the six non-MX functions verify and execute on a2a3 (6 / 11 / 13)."""
    text, params = cube_program(cls, T.FP16, target="a2a3")
    (d,) = run(text, "f", *_exact_args(cls, params))
    assert d.ravel().tolist() == [float(_expected(cls))] * 4
    f = isa.CUBE_FUNCTIONS[cls.FUNCTION]
    assert isa.check_block(_hand_block(cls.FUNCTION, T.FP16.value, _n_sources(f, T.FP16)),
                           profile="a2a3").op_name == f.name  # fmt: skip


EXECUTED = frozenset(c.name for c in CUBE_OPS)
"""Ops executed by this module's selector matrices (read by test_completeness)."""


_MM2 = """func.func @f(%a: !pto.tile<2x2xf16, cube_m16, mat>, %b: !pto.tile<2x2xf16, cube_n8, mat>) -> !pto.tile<2x2xf32, cube_m16, mat> {
  %d = pto.tmatmul %a, %b : (!pto.tile<2x2xf16, cube_m16, mat>, !pto.tile<2x2xf16, cube_n8, mat>) -> !pto.tile<2x2xf32, cube_m16, mat>
  func.return %d : !pto.tile<2x2xf32, cube_m16, mat>
}"""
_MM2_ARGS = (np.array([[1, 2], [3, 4]], np.float16), np.array([[5, 6], [7, 8]], np.float16))
_MM2_WANT = [[19.0, 22.0], [43.0, 50.0]]  # by hand: [1*5+2*7, 1*6+2*8], [3*5+4*7, 3*6+4*8]


def test_tile_level_tmatmul_m_greater_than_one():
    """TMATMUL takes any M >= 1 (PTO-SPEC 3.1, 4): a 2x2 @ 2x2 product."""
    (d,) = run(_MM2, "f", *_MM2_ARGS)
    assert d[0].tolist() == _MM2_WANT


def test_decoded_tmatmul_m_greater_than_one():
    (d,) = run(_bundled(_module(_MM2)), "f", *_MM2_ARGS)
    assert d[0].tolist() == _MM2_WANT
