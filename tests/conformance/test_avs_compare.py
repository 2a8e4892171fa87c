"""AVS pass conditions (D17) of TCMP, TCMPS, TSEL and TSELS (the spec's
``tests/asl/tile/elementwise-tile-tile/logical/{TCMP,TSEL}/**`` and
``tests/asl/tile/tile-scalar-and-immediate/logical/{TCMPS,TSELS}/**``), asserted on our
kernels, verifier, block checker and both engines (predicate tiles: ``docs/predicates.md``).

The numeric status halves ("records NV" of TCMP-ORDER-001, "sticky status unchanged" of
TSEL-EXACT-001) are asserted with :func:`interpreter.kernels.status.recording`.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from conformance.inventory import avs
from interpreter import kernels, run
from interpreter.kernels import pack_predicate
from interpreter.kernels.status import NV, OF, NumericStatus, recording
from interpreter.ssa.runner import build_context, parse_module_text
from passes import get_all_passes
from pto_dialect import isa
from pto_dialect.compare_ops import TCmpOp, TCmpsOp, TSelOp, TSelsOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault

T = TileDataType
K = kernels.KERNELS
TL, TA = "TileLegality", "TileAllocation"


def _block(m, dt=T.U64, *, datr=None, lb=((0, 2),), groups=None, ior=None, size=1, mode=7):
    """A TCMP* / TSEL* block: ``groups`` are the B.IOT source groups (destination in the last)."""
    groups = groups or {"TCMP": [[1, 2]], "TCMPS": [[1]], "TSEL": [[1, 2], [3]],
                        "TSELS": [[1, 2]]}[m]  # fmt: skip
    cmds = [isa.BStart.op(m, dt.value)] + ([datr] if datr is not None else [])
    cmds += [isa.CBDimi(k, v) if v < 256 else isa.BDim(k, 0, v) for k, v in lb]
    for i, g in enumerate(groups):
        last = i == len(groups) - 1
        cmds.append(isa.BIot(src0=g[0], src1=g[1] if len(g) > 1 else None, last=int(last),
                             size_code=size if last else 0, pe_mode=mode,
                             dst_hand=0 if last else None))  # fmt: skip
    return cmds + ([ior] if ior is not None else []) + [isa.BStop()]


def _rejects(cmds, kind=TL):
    with pytest.raises(PTOFault) as e:
        isa.check_block(cmds)
    assert e.value.kind == kind, e.value


def _run_bundled(text: str, *args):
    """Run ``@f`` of ``text`` after pto-form-blocks + pto-assign-registers (decoded
    execution), on both engines (identical results required)."""
    ctx = build_context()
    m = parse_module_text(text, ctx=ctx)
    for name in ("pto-form-blocks", "pto-assign-registers"):
        get_all_passes()[name]()().apply(ctx, m)
    m.verify()
    return run(m, "f", *args, engine="both")


def _bits(words, dtype=np.uint32):
    return np.array([words], dtype)


# ---- TCMP ------------------------------------------------------------------------------
@avs("PTO-AVS-TILE-TCMP-DATR-001")
def test_tcmp_datr_001():
    isa.check_block(_block("TCMP", datr=isa.BDatr(dtype=0, cmode=5, pad=1)))
    for bad in (dict(sat=1), dict(canonicalize=1), dict(rmode=1), dict(layout=1), dict(dtype=1)):
        _rejects(_block("TCMP", datr=isa.BDatr(**{"dtype": 0, "pad": 3, **bad})))


@avs("PTO-AVS-TILE-TCMP-MODES-001")
def test_tcmp_modes_001():
    for code in range(6):
        isa.check_block(_block("TCMP", datr=isa.BDatr(dtype=0, cmode=code, pad=3)))
    for code in (6, 7):  # reserved field values are IllegalInstruction at decode (D12)
        _rejects(_block("TCMP", datr=isa.BDatr(dtype=0, cmode=code, pad=3)), "IllegalInstruction")
    one, two = np.array([[1]], np.int32), np.array([[2]], np.int32)
    truth = {"eq": (one, one), "ne": (one, two), "lt": (one, two), "gt": (two, one),
             "le": (one, one), "ge": (one, one)}  # fmt: skip
    for code, (mode, (a, b)) in enumerate(truth.items()):
        for cm in (mode, code):
            assert K["TCMP"](a, b, None, "null", T.S32, cmode=cm)[0][0, 0]


@avs("PTO-AVS-TILE-TCMP-TYPES-001")
def test_tcmp_types_001():
    ok = [T.FP32, T.FP64, T.TF32, T.HF32, T.FP16, T.BF16, T.E4M3, T.E5M2,
          T.S64, T.S32, T.S16, T.S8, T.U64, T.U32, T.U16, T.U8]  # fmt: skip
    assert TCmpOp.TYPES == frozenset(ok) == TCmpsOp.TYPES
    assert T.HIF8 not in TCmpOp.TYPES and T.U4X2 not in TCmpOp.TYPES


_TCMP_U64 = """
func.func @f(%a: !pto.tile<8x2xui64, valid=1x2>, %b: !pto.tile<8x2xui64, valid=1x2>)
    -> (!pto.pred<8x2, valid=1x2>, !pto.tile<8x2xui64, valid=1x2>, !pto.tile<8x2xui64, valid=1x2>) {
  %p = pto.tcmp %a, %b : (!pto.tile<8x2xui64, valid=1x2>, !pto.tile<8x2xui64, valid=1x2>) -> !pto.pred<8x2, valid=1x2>
  func.return %p, %a, %b : !pto.pred<8x2, valid=1x2>, !pto.tile<8x2xui64, valid=1x2>, !pto.tile<8x2xui64, valid=1x2>
}
"""


@avs("PTO-AVS-TILE-TCMP-BUNDLE-001")
def test_tcmp_bundle_001():
    a, b = np.array([[7, 9]], np.uint64), np.array([[7, 8]], np.uint64)
    p, a2, b2 = _run_bundled(_TCMP_U64, a, b)
    assert p.shape == (4, 1, 2) and p.dtype == np.bool_
    assert all(pack_predicate(p[k])[0] == 0b00000001 for k in range(4))
    assert (a2[:, 0, 1] == 9).all() and (b2[:, 0, 1] == 8).all()


@avs("PTO-AVS-TILE-TCMP-ORDER-001")
def test_tcmp_order_001():
    def cmp(mode, dt, x, y, carrier):
        return bool(K["TCMP"](_bits([x], carrier), _bits([y], carrier), None, "null", dt,
                              cmode=mode)[0][0, 0])  # fmt: skip

    assert cmp("lt", T.S8, 0xFF, 1, np.uint8)
    assert not cmp("lt", T.U8, 0xFF, 1, np.uint8)
    assert cmp("eq", T.FP32, 0x80000000, 0, np.uint32)
    with recording() as st:
        assert not cmp("eq", T.FP32, 0x7F800001, 0x3F800000, np.uint32)
    assert st.bits == NV  # a signalling NaN operand reports invalid
    with recording() as st:
        assert not cmp("eq", T.FP32, 0x7FC00001, 0x3F800000, np.uint32)
    assert st.bits == 0  # a quiet one does not


@avs("PTO-AVS-TILE-TCMP-PACKED-001")
def test_tcmp_packed_001():
    a = np.zeros((8, 16), np.uint8)
    b = np.zeros((8, 16), np.uint8)
    a[0, :10] = np.arange(10)
    b[0, :10] = [c if c % 2 == 0 else 0 for c in range(10)]
    bits, dfn = K["TCMP"](a, b, (1, 10), "null", T.U8, cmode="eq")
    packed = pack_predicate(bits)
    assert packed[0] == 0b01010101 and packed[1] == 0b00000001 and dfn[0, 9]


@avs("PTO-AVS-TILE-TCMP-CAPACITY-001")
def test_tcmp_capacity_001():
    _rejects(_block("TCMP", T.U8, lb=((0, 128), (1, 64), (2, 128)), size=1, mode=1), TA)
    isa.check_block(_block("TCMP", T.U8, lb=((0, 128), (1, 64), (2, 128)), size=4, mode=1))
    from pto_dialect.predicate import predicate_errors

    assert predicate_errors(64, 128, 64, 128, 128, "1000")


@avs("PTO-AVS-TILE-TCMP-SCHEMA-001")
def test_tcmp_schema_001():
    isa.check_block(_block("TCMP"))
    _rejects(_block("TCMP", ior=isa.BIor(0, 0, 0, 0)))
    _rejects(_block("TCMP", T.HIF8))
    _rejects(_block("TCMP", lb=()))


@avs("PTO-AVS-TILE-TCMP-PADDING-001")
def test_tcmp_padding_001():
    a = np.array([[1, 2, 0, 0, 0, 0, 0, 0], [0] * 8], np.int32)
    b = np.array([[2, 2, 0, 0, 0, 0, 0, 0], [0] * 8], np.int32)
    bits, dfn = K["TCMP"](a, b, (1, 2), "max", T.S32, cmode="eq")
    assert not bits[0, 0] and bits[0, 1] and bits[0, 2] and dfn[1, 7] and bits[1, 7]
    bits, dfn = K["TCMP"](a, b, (1, 2), "null", T.S32, cmode="eq")
    assert dfn[0, :2].all() and not dfn[0, 2]


# ---- TSEL ------------------------------------------------------------------------------
@avs("PTO-AVS-TILE-TSEL-DATR-001")
def test_tsel_datr_001():
    isa.check_block(_block("TSEL", T.FP32, datr=isa.BDatr(dtype=0, pad=2)))
    for bad in (dict(cmode=1), dict(rmode=1), dict(sat=1), dict(layout=1)):
        _rejects(_block("TSEL", T.FP32, datr=isa.BDatr(**{"dtype": 0, "pad": 3, **bad})))


@avs("PTO-AVS-TILE-TSEL-TYPES-001")
def test_tsel_types_001():
    ok = [T.FP32, T.TF32, T.HF32, T.FP16, T.BF16, T.E4M3, T.E5M2, T.S32, T.S16, T.S8,
          T.U32, T.U16, T.U8, T.FP64, T.S64, T.U64]  # fmt: skip
    assert TSelOp.TYPES == frozenset(ok) == TSelsOp.TYPES
    for bad in (T.HIF8, T.E3M2, T.E2M3, T.E8M0, T.S4X2, T.U4X2):
        assert bad not in TSelOp.TYPES


_P, _F = "!pto.pred<16x2, valid=1x2>", "!pto.tile<16x2xf32, valid=1x2>"
_TSEL = f"""
func.func @f(%p: {_P}, %t: {_F}, %e: {_F}) -> {_F} {{
  %d = pto.tsel %p, %t, %e : ({_P}, {_F}, {_F}) -> {_F}
  func.return %d : {_F}
}}
"""


@avs("PTO-AVS-TILE-TSEL-BUNDLE-001")
def test_tsel_bundle_001():
    isa.check_block(_block("TSEL", T.FP32))
    (d,) = _run_bundled(_TSEL, np.array([[True, False]]), _bits([10, 11]).view(np.float32),
                        _bits([20, 21]).view(np.float32))  # fmt: skip
    assert (d.view(np.uint32)[:, 0] == [10, 21]).all()


@avs("PTO-AVS-TILE-TSEL-EXACT-001")
def test_tsel_exact_001():
    with recording(NumericStatus(OF)) as st:  # sticky OF from before stays, nothing is added
        out, _ = K["TSEL"](np.array([[True]]), _bits([0x7F800123]).view(np.float32),
                           _bits([0x3F800000]).view(np.float32), None, "null", T.FP32)  # fmt: skip
    assert out.view(np.uint32)[0, 0] == 0x7F800123
    assert st.bits == OF


@avs("PTO-AVS-TILE-TSEL-MASK-ZERO-001")
def test_tsel_mask_zero_001():
    assert isa.check_block(_block("TSEL", T.FP32, lb=(), mode=0)).noop
    text = _TSEL.replace("pto.tsel %p, %t, %e :", "pto.tsel %p, %t, %e {mask = #pto.mask<0000>} :")
    text = text.replace(f"-> {_F} {{", "{").replace(f"func.return %d : {_F}", "func.return")
    ctx = build_context()
    m = parse_module_text(text.replace("%d = ", "%d = ", 1), ctx=ctx)
    m.verify()  # a mask-0 op is a strict no-op: no operand rule is checked
    assert run(m, "f", np.zeros((1, 2), bool), np.zeros((1, 2), np.float32),
               np.zeros((1, 2), np.float32), engine="both") == ()  # fmt: skip


@avs("PTO-AVS-TILE-TSEL-PACKED-001")
def test_tsel_packed_001():
    p = np.array([[c % 2 == 0 for c in range(4)]])
    out, _ = K["TSEL"](p, np.array([[10, 11, 12, 13]], np.uint8),
                       np.array([[20, 21, 22, 23]], np.uint8), None, "null", T.U8)  # fmt: skip
    assert list(out[0]) == [10, 21, 12, 23]


_NUMERIC_MASK = f"""
%m = "test.op"() : () -> {_F}
%t = "test.op"() : () -> {_F}
%d = pto.tsel %m, %t, %t : ({_F}, {_F}, {_F}) -> {_F}
"""


@avs("PTO-AVS-TILE-TSEL-MASK-001")
def test_tsel_mask_001():
    ctx = build_context()
    with pytest.raises(VerifyException, match=r"\[TileLegality\] predicate: an ordinary tile"):
        parse_module_text(_NUMERIC_MASK, ctx=ctx).verify()
    parse_module_text(_NUMERIC_MASK.replace(f"""%m = "test.op"() : () -> {_F}""",
                                            f"""%m = "test.op"() : () -> {_P}""")
                      .replace(f"%t, %t : ({_F},", f"%t, %t : ({_P},"), ctx=ctx).verify()  # fmt: skip


@avs("PTO-AVS-TILE-TSEL-SCHEMA-001")
def test_tsel_schema_001():
    isa.check_block(_block("TSEL", T.FP32))
    early = _block("TSEL", T.FP32)
    early[2] = isa.BIot(src0=1, src1=2, last=1, pe_mode=7)
    with pytest.raises(PTOFault):
        isa.check_block(early)
    _rejects(_block("TSEL", T.FP32, ior=isa.BIor(0, 0, 0, 0)))
    u32 = _F.replace("f32", "ui32")
    bad = f"""
%p = "test.op"() : () -> {_P}
%t = "test.op"() : () -> {_F}
%e = "test.op"() : () -> {u32}
%d = pto.tsel %p, %t, %e : ({_P}, {_F}, {u32}) -> {_F}
"""
    with pytest.raises(VerifyException, match=r"\[TileLegality\] on_false: element type"):
        parse_module_text(bad, ctx=build_context()).verify()


@avs("PTO-AVS-TILE-TSEL-PADDING-001")
def test_tsel_padding_001():
    p = np.zeros((8, 2), bool)
    p[0, 0] = True
    t, f = np.full((8, 2), 7, np.float32), np.full((8, 2), 9, np.float32)
    out, dfn = K["TSEL"](p, t, f, (1, 1), "min", T.FP32)
    assert dfn[0, 1] and out.view(np.uint32)[0, 1] == 0xFF7FFFFF and out[0, 0] == 7
    _, dfn = K["TSEL"](p, t, f, (1, 1), "null", T.FP32)
    assert not dfn[0, 1]


# ---- TCMPS / TSELS ---------------------------------------------------------------------
_U64 = "!pto.tile<8x2xui64, valid=1x2>"


@avs("PTO-AVS-TILE-TCMPS-MASK-001")
def test_tcmps_mask_001():
    ok = f"""
%a = "test.op"() : () -> {_U64}
%s = "test.op"() : () -> i64
%p = pto.tcmps %a, %s : ({_U64}, i64) -> !pto.pred<8x2, valid=1x2>
"""
    parse_module_text(ok, ctx=build_context()).verify()
    bad = ok.replace("-> !pto.pred<8x2, valid=1x2>", f"-> {_U64}")
    with pytest.raises(VerifyException, match=r"\[TileLegality\] result: the destination must be a predicate"):
        parse_module_text(bad, ctx=build_context()).verify()


_TCMPS_U8 = """
func.func @f(%a: !pto.tile<8x16xui8, valid=1x2>, %s: i64) -> (!pto.pred<8x16, valid=1x2>, !pto.tile<8x16xui8, valid=1x2>) {
  %p = pto.tcmps %a, %s : (!pto.tile<8x16xui8, valid=1x2>, i64) -> !pto.pred<8x16, valid=1x2>
  func.return %p, %a : !pto.pred<8x16, valid=1x2>, !pto.tile<8x16xui8, valid=1x2>
}
"""


@avs("PTO-AVS-TILE-TCMPS-BUNDLE-001")
def test_tcmps_bundle_001():
    isa.check_block(_block("TCMPS", T.U8, ior=isa.BIor(12)))
    p, a = _run_bundled(_TCMPS_U8, np.array([[2, 3]], np.uint8), 2)
    assert pack_predicate(p[0])[0] == 0b00000001 and (a[:, 0, 1] == 3).all()


@avs("PTO-AVS-TILE-TCMPS-PACKED-001")
def test_tcmps_packed_001():
    a = np.zeros((8, 16), np.uint8)
    a[0, :10] = np.arange(10)
    bits, dfn = K["TCMPS"](a, 5, (1, 10), "null", T.U8, cmode="ge")
    packed = pack_predicate(bits)
    assert packed[0] == 0b11100000 and packed[1] == 0b00000011 and dfn[0, 9]


@avs("PTO-AVS-TILE-TSELS-MASK-001")
def test_tsels_mask_001():
    assert T.E3M2 not in TSelsOp.TYPES and T.U64 in TSelsOp.TYPES and T.U4X2 not in TSelsOp.TYPES
    ok = f"""
%p = "test.op"() : () -> {_P}
%t = "test.op"() : () -> {_F}
%s = "test.op"() : () -> i64
%d = pto.tsels %p, %t, %s : ({_P}, {_F}, i64) -> {_F}
"""
    parse_module_text(ok, ctx=build_context()).verify()
    bad = ok.replace(f"() -> {_P}", f"() -> {_F}").replace(f"({_P},", f"({_F},")
    with pytest.raises(VerifyException, match=r"\[TileLegality\] predicate: an ordinary tile"):
        parse_module_text(bad, ctx=build_context()).verify()


_TSELS = f"""
func.func @f(%p: {_P}, %t: {_F}, %s: i64) -> {_F} {{
  %d = pto.tsels %p, %t, %s : ({_P}, {_F}, i64) -> {_F}
  func.return %d : {_F}
}}
"""


@avs("PTO-AVS-TILE-TSELS-BUNDLE-001")
def test_tsels_bundle_001():
    (d,) = _run_bundled(_TSELS, np.array([[False, True]]), _bits([10, 11]).view(np.float32), 99)
    assert (d.view(np.uint32)[:, 0] == [99, 11]).all()


@avs("PTO-AVS-TILE-TSELS-PACKED-001")
def test_tsels_packed_001():
    t = _bits([0x7FF8000000000001 & 0xFFFFFFFF, 11]).view(np.float32)
    out, _ = K["TSELS"](np.array([[False, True]]), t, 99, None, "null", T.FP32)
    assert list(out.view(np.uint32)[0]) == [99, 11]
