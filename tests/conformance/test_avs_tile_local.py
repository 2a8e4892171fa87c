"""AVS pass conditions (D17) of the tile-local families: row/column reductions and
expansions, TPART*, TTRANS, TCONCAT, TCI/TTRI (``tests/asl/tile/reduce-and-expand/**``,
``union/**``, ``layout/**``, ``initialization/**``), through ``interpreter.kernels`` and
``interpreter.run`` at tile level and as decoded blocks (``pto-form-blocks``)."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs
from conformance.support import bundled, run_both_levels
from interpreter import kernels, run
from interpreter.ssa.runner import RunError
from pto_dialect import isa
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.tile_local import LOCAL_OPS, PARTIAL_OPS

T = TileDataType
BY_NAME = {c.MNEMONIC: c for c in LOCAL_OPS}


def k(name: str, arrays, t: TileDataType, dst: TileDataType, valid):
    """One tile-local kernel on same-typed sources given as nested lists."""
    srcs = [np.asarray(a, t.numpy_dtype()) for a in arrays]
    return kernels.KERNELS[name](srcs, [t] * len(srcs), dst, valid)


def tile(t: TileDataType, cols: int, valid, size: int = 512) -> str:
    rows = size * 8 // (cols * t.info.carrier_bits)
    return f"!pto.tile<{rows}x{cols}x{t.ir}, valid={valid[0]}x{valid[1]}>"


def program(op: str, ins: list[str], res: str, pad: bool = True) -> str:
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(ins))
    ops = ", ".join(f"%a{i}" for i in range(len(ins)))
    attrs = " {pad = #pto.pad<zero>}" if pad else ""
    return (f"func.func @f({args}) -> {res} {{\n  %r = pto.{op} {ops}{attrs} : "
            f"({', '.join(ins)}) -> {res}\n  func.return %r : {res}\n}}")  # fmt: skip


# ---- union (TPART*) ---------------------------------------------------------------------
@avs("PTO-AVS-TILE-TPARTADD-OVERLAP-001", "PTO-AVS-TILE-TPARTMAX-U8-001",
     "PTO-AVS-TILE-TPARTMIN-S8-001", "PTO-AVS-TILE-TPARTMUL-WRAP-001",
     "PTO-AVS-TILE-TPARTMUL-DTYPE-001")  # fmt: skip
def test_tpart_values():
    """S16 [1,2,7] + [3,4]: the overlap is added, the left-only tail copied; U8 250 beats 5
    (unsigned); S8 -1 is below +1; U8 16 * 16 wraps to 0 with the tail 9 copied; S8 and U8
    (and S16/U16) are legal for every partial op."""
    assert k("TPARTADD", [[[1, 2, 7]], [[3, 4]]], T.S16, T.S16, (1, 3)).tolist() == [[4, 6, 7]]
    assert k("TPARTMAX", [[[250]], [[5]]], T.U8, T.U8, (1, 1))[0, 0] == 250
    assert k("TPARTMIN", [[[-1]], [[1]]], T.S8, T.S8, (1, 1))[0, 0] == -1
    assert k("TPARTMUL", [[[16, 9]], [[16]]], T.U8, T.U8, (1, 2)).tolist() == [[0, 9]]
    assert all({T.S8, T.U8, T.S16, T.U16} <= c.TYPES for c in PARTIAL_OPS)


@avs("PTO-AVS-TILE-TPARTADD-BUNDLE-001")
def test_tpartadd_decoded_block():
    """The decoded TPARTADD block adds the S16 overlap and copies the source-only tail."""
    full, part = tile(T.S16, 8, (3, 5)), tile(T.S16, 8, (2, 3))
    text = program("tpartadd", [full, part], full, pad=False)
    r = run_both_levels(text, np.array([[1, 2, 7, 0, 0]] * 3, np.int16),
                        np.array([[3, 4, 0]] * 2, np.int16))  # fmt: skip
    assert r[0, 0, :3].tolist() == [4, 6, 7] and r[0, 2, :3].tolist() == [1, 2, 7]


# ---- layout -----------------------------------------------------------------------------
@avs("PTO-AVS-TILE-TTRANS-RECT-001")
def test_ttrans_rect():
    """Every source coordinate of a 3x5 S16 tile is at the swapped destination coordinate."""
    x = np.arange(15, dtype=np.int16).reshape(3, 5)
    d = run_both_levels(program("ttrans", [tile(T.S16, 8, (3, 5))], tile(T.S16, 8, (5, 3)),
                                pad=False), x)  # fmt: skip
    assert all(d[0, c, r] == x[r, c] for r in range(3) for c in range(5))


@avs("PTO-AVS-TILE-TCONCAT-COLUMNS-001")
def test_tconcat_columns():
    """Each row is the complete left row followed by the complete right row."""
    got = k("TCONCAT", [[[1, 2], [3, 4]], [[5], [6]]], T.U8, T.U8, (2, 3))
    assert got.tolist() == [[1, 2, 5], [3, 4, 6]]
    ins = [tile(T.U8, 8, (2, 2)), tile(T.U8, 8, (2, 1))]
    r = run_both_levels(program("tconcat", ins, tile(T.U8, 8, (2, 3)), pad=False),
                        np.array([[1, 2], [3, 4]], np.uint8), np.array([[5], [6]], np.uint8))  # fmt: skip
    assert r[0].tolist() == [[1, 2, 5], [3, 4, 6]]


# ---- reductions -------------------------------------------------------------------------
@avs("PTO-AVS-TILE-TROWSUM-U8-WRAP-001", "PTO-AVS-TILE-TROWMAX-U16-001",
     "PTO-AVS-TILE-TROWMIN-S8-001", "PTO-AVS-TILE-TROWPROD-ONE-001",
     "PTO-AVS-TILE-TROWARGMAX-TIE-001", "PTO-AVS-TILE-TROWARGMIN-TIE-001")  # fmt: skip
def test_row_reductions():
    """U8 250 + 10 wraps to 4; U16 all-ones beats 1; S8 -1 is below +1; PROD starts from the
    typed one (a one-element FP16 row keeps its encoding; U8 20 * 20 wraps to 144); the first
    of equal maxima / minima gives index 1 (U32; ARGMIN also S32)."""
    assert k("TROWSUM", [[[250, 10]]], T.U8, T.U8, (1, 1))[0, 0] == 4
    assert k("TROWMAX", [[[0xFFFF, 1]]], T.U16, T.U16, (1, 1))[0, 0] == 0xFFFF
    assert k("TROWMIN", [[[-1, 1]]], T.S8, T.S8, (1, 1))[0, 0] == -1
    h = np.float16(3.5)
    assert k("TROWPROD", [[[h]]], T.FP16, T.FP16, (1, 1)).view(np.uint16)[0, 0] == h.view(np.uint16)
    assert k("TROWPROD", [[[20, 20]]], T.U8, T.U8, (1, 1))[0, 0] == 144
    am = k("TROWARGMAX", [[[1, 9, 9]]], T.U8, T.U32, (1, 1))
    assert am.dtype == np.uint32 and am[0, 0] == 1
    for dst in (T.U32, T.S32):
        got = k("TROWARGMIN", [[[4, 2, 2]]], T.U8, dst, (1, 1))
        assert got.dtype == dst.numpy_dtype() and got[0, 0] == 1


@avs("PTO-AVS-TILE-TROWMAX-U16-DECODED-001")
def test_trowmax_u16_decoded():
    """The decoded U16 TROWMAX block publishes the larger unsigned value (9 of [4, 9])."""
    x = np.zeros((3, 5), np.uint16)
    x[0, :2] = [4, 0xFFF9]
    text = program("trowmax", [tile(T.U16, 8, (3, 5))], tile(T.U16, 1, (3, 1), 128))
    r = run_both_levels(text, x)
    assert r.dtype == np.uint16 and r[0, 0, 0] == 0xFFF9


def _argmin(dst: str) -> str:
    return program("trowargmin", ["!pto.tile<32x4xui8, valid=2x3>"],
                   f"!pto.tile<32x1x{dst}, valid=2x1>", pad=False)  # fmt: skip


@avs("PTO-AVS-TILE-TROWARGMIN-INDEX-DTYPE-DECODED-001", "PTO-AVS-TILE-TROWARGMIN-SHAPE-001")
def test_trowargmin_index_types():
    """S32 and U32 one-column index destinations are legal (the decoded block publishes index
    1 for rows [4,2,2] and [7,3,6]); an S16 destination is TileLegality before any result,
    statically (verifier) and in the decoded block."""
    x = np.array([[4, 2, 2], [7, 3, 6]], np.uint8)
    for dst in ("si32", "ui32"):
        assert run_both_levels(_argmin(dst), x)[0, :, 0].tolist() == [1, 1]
    with pytest.raises(RunError, match=r"\[TileLegality\]"):
        run(_argmin("si16"), "f", x)
    text = str(bundled(_argmin("si32"))).replace(
        "!pto.tile<32x1xsi32, valid=2x1>", "!pto.tile<64x1xsi16, valid=2x1>"
    )  # the same linked block (same TSize) with an S16 destination
    with pytest.raises(RunError, match=r"\[TileLegality\] .*si16 must be si32 or ui32"):
        run(text, "f", x)


@avs("PTO-AVS-TILE-TCOLSUM-COLUMNS-001", "PTO-AVS-TILE-TCOLPROD-COLUMNS-001",
     "PTO-AVS-TILE-TCOLMAX-U16-001", "PTO-AVS-TILE-TCOLMIN-S8-001",
     "PTO-AVS-TILE-TCOLARGMAX-TIE-001", "PTO-AVS-TILE-TCOLARGMIN-TIE-001")  # fmt: skip
def test_column_reductions():
    """Columns reduce independently: sums 4, 6; products 8, 15; U16 all-ones wins per column;
    S8 minima -1, -2; the first winning row as U32 (ARGMAX rows 1, 0; ARGMIN rows 0, 1)."""
    assert k("TCOLSUM", [[[1, 2], [3, 4]]], T.U8, T.U8, (1, 2)).tolist() == [[4, 6]]
    assert k("TCOLPROD", [[[2, 3], [4, 5]]], T.U8, T.U8, (1, 2)).tolist() == [[8, 15]]
    m = 0xFFFF
    assert k("TCOLMAX", [[[m, 1], [2, m]]], T.U16, T.U16, (1, 2)).tolist() == [[m, m]]
    assert k("TCOLMIN", [[[-1, 5], [1, -2]]], T.S8, T.S8, (1, 2)).tolist() == [[-1, -2]]
    am = k("TCOLARGMAX", [[[2, 7], [9, 7], [9, 3]]], T.U8, T.U32, (1, 2))
    assert am.dtype == np.uint32 and am.tolist() == [[1, 0]]
    assert k("TCOLARGMIN", [[[2, 7], [2, 3], [4, 3]]], T.U8, T.U32, (1, 2)).tolist() == [[0, 1]]


# ---- expansions -------------------------------------------------------------------------
TYPED = {  # operation: (type, source element, broadcast element, result)
    "COPY": (T.U8, None, 7, 7),
    "ADD": (T.U8, 250, 10, 4),
    "SUB": (T.S8, 2, -3, 5),
    "MUL": (T.U16, 400, 200, 14464),
    "DIV": (T.S8, -8, 2, -4),
    "MAX": (T.U64, 1 << 63, 1, 1 << 63),
    "MIN": (T.S8, -1, 1, -1),
}
SUFFIX = {"COPY": "COPY", "ADD": "TYPED", "SUB": "TYPED", "MUL": "TYPED", "DIV": "SIGNED",
          "MAX": "UNSIGNED", "MIN": "SIGNED"}  # fmt: skip


def _expand_id(axis: str, op: str) -> str:
    name = "" if op == "COPY" else op
    return f"PTO-AVS-TILE-{axis}EXPAND{name}-{SUFFIX[op]}-001"


@avs(*(_expand_id(a, op) for a in ("TROW", "TCOL") for op in TYPED))
@pytest.mark.parametrize("op", list(TYPED))
@pytest.mark.parametrize("axis", ["TROW", "TCOL"])
def test_typed_expansions(axis, op):
    """The selected element (1, 2) of a 2x3 result is the typed operation's result (U8 wrap,
    S8 order and truncation, U16 wrap, unsigned U64 MAX) and every source persists."""
    t, src, b, want = TYPED[op]
    name = f"{axis}EXPAND" + ("" if op == "COPY" else op)
    npdt = t.numpy_dtype()
    bb = np.full((2, 1) if axis == "TROW" else (1, 3), b, npdt)
    srcs = [bb] if src is None else [np.full((2, 3), src, npdt), bb]
    before = [x.copy() for x in srcs]
    got = kernels.KERNELS[name](srcs, [t] * len(srcs), t, (2, 3))
    assert int(got[1, 2]) == want
    assert all(np.array_equal(x, y) for x, y in zip(srcs, before))


@avs("PTO-AVS-TILE-TROWEXPANDEXPDIF-COMPOSE-001", "PTO-AVS-TILE-TCOLEXPANDEXPDIF-COMPOSE-001")
@pytest.mark.parametrize("axis", ["TROW", "TCOL"])
def test_expdif_compose(axis):
    """FP32 EXPDIF composes SUB then EXP: exp(2 - 1) is e rounded to FP32 (0x402DF854)."""
    b = np.ones((2, 1) if axis == "TROW" else (1, 3), np.float32)
    got = kernels.KERNELS[f"{axis}EXPANDEXPDIF"]([np.full((2, 3), 2.0, np.float32), b],
                                                 [T.FP32] * 2, T.FP32, (2, 3))  # fmt: skip
    assert got.view(np.uint32)[1, 2] == 0x402DF854


def _expdif_program(axis: str, src: TileDataType, dst: TileDataType, pad: str) -> str:
    s = tile(src, 8, (2, 3), 256)
    d = tile(dst, 8, (2, 3), 256 * dst.info.carrier_bits // src.info.carrier_bits)
    b = tile(src, 1, (2, 1), 128) if axis == "TROW" else tile(src, 8, (1, 3), 128)
    op = f"pto.{axis.lower()}expandexpdif"
    return f"""func.func @f(%s: {s}, %b: {b}) -> {d} {{
  %r = {op} %s, %b {{pad = #pto.pad<{pad}>}} : ({s}, {b}) -> {d}
  func.return %r : {d}
}}"""


EXPDIF_PAIRS = [(T.FP16, T.FP16), (T.BF16, T.BF16), (T.FP32, T.FP32), (T.FP16, T.FP32),
                (T.BF16, T.FP32)]  # fmt: skip
WIDENED = {  # (source, broadcast) bits -> FP32 result of the widened operands, FP16-precision one
    (T.FP16, T.FP32): (0x2000, 0x0001, 0x3F810100, 0x3F810101),
    (T.BF16, T.FP32): (0x3F80, 0x3B00, 0x402DA16E, 0x402DF854),
}


@avs("PTO-AVS-TILE-EXPDIF-STAGE3-DECODED-001")
def test_expdif_stage3_decoded():
    """All five legal pairs run through both decoded selectors (0x04B, 0x05B); a widening
    destination is named by B.DATR DataType and a same-type one inherits (DTYPE_NONE) with its
    PadValue; mixed results are FP32 SUB/EXP of the exactly widened operands (differing from
    source-precision subtraction); an illegal pair (FP32 -> FP64: B.DATR DataType 0 is FP64)
    is TileLegality before any result."""
    from pto_dialect.block_ops import BlockOp

    for axis in ("TROW", "TCOL"):
        for src, dst in EXPDIF_PAIRS:
            m = bundled(_expdif_program(axis, src, dst, "max" if src is T.BF16 else "zero"))
            block = next(o for o in m.walk() if isinstance(o, BlockOp))
            start, datr = block.commands()[:2]
            assert (start.mode, start.function) == (2, 11 if axis == "TROW" else 27)
            assert isinstance(datr, isa.BDatr) and datr.dtype == (dst.value if dst is not src else 31)
            bshape = (2, 1) if axis == "TROW" else (1, 3)
            if (src, dst) in WIDENED:
                sv, bv, want, narrow = WIDENED[(src, dst)]
                args = (np.full((2, 3), sv, np.uint16).view(src.numpy_dtype()),
                        np.full(bshape, bv, np.uint16).view(src.numpy_dtype()))  # fmt: skip
            else:
                args = (np.full((2, 3), 2.0, src.numpy_dtype()), np.ones(bshape, src.numpy_dtype()))
            (r,) = run(m, "f", *args)
            assert r.dtype == dst.numpy_dtype()
            if (src, dst) in WIDENED:
                assert r.view(np.uint32)[0, 1, 2] == want != narrow
    text = str(bundled(_expdif_program("TROW", T.FP32, T.FP32, "zero")))
    assert "pto.b.datr <layout = NORM, dtype = DTYPE_NONE," in text
    text = text.replace("dtype = DTYPE_NONE,", "dtype = 0,")  # numeric field form: FP64
    text = text.replace("-> !pto.tile<8x8xf32, valid=2x3>", "-> !pto.tile<4x8xf64, valid=2x3>")
    text = text.replace("return %r : !pto.tile<8x8xf32", "return %r : !pto.tile<4x8xf64")
    with pytest.raises(RunError, match=r"\[TileLegality\] .*\(FP32,FP64\) is not legal"):
        run(text, "f", np.ones((2, 3), np.float32), np.ones((2, 1), np.float32))


# ---- generators (TCI, TTRI) -------------------------------------------------------------
def _gen(name: str, res: str, params: bool = True) -> str:
    args = "%p0: i64, %p1: i64" if params else ""
    ops = " %p0, %p1 : (i64, i64)" if params else " : ()"
    return (f"func.func @f({args}) -> {res} {{\n  %r = pto.{name}{ops} -> {res}\n"
            f"  func.return %r : {res}\n}}")  # fmt: skip


U16 = "!pto.tile<16x4xui16, valid=1x2>"
F16 = "!pto.tile<8x16xf16, valid=2x3>"


@avs("PTO-AVS-TILE-TCI-BUNDLE-001", "PTO-AVS-TILE-TCI-WRAP-001", "PTO-AVS-TILE-TCI-DIRECTION-001")
def test_tci():
    """A decoded U16 TCI without B.IOR gives 0, 1; start all-ones: ascending wraps 65535 -> 0,
    descending gives 65535, 65534; direction 2 is TileLegality before any result."""
    assert run_both_levels(_gen("tci", U16, params=False))[0].tolist() == [[0, 1]]
    assert run_both_levels(_gen("tci", U16), np.int64(-1), np.int64(0))[0].tolist() == [[0xFFFF, 0]]
    got = run_both_levels(_gen("tci", U16), np.int64(-1), np.int64(1))
    assert got[0].tolist() == [[0xFFFF, 0xFFFE]]
    with pytest.raises(PTOFault) as e:
        run(bundled(_gen("tci", U16)), "f", np.int64(0), np.int64(2))
    assert e.value.kind == "TileLegality" and "direction" in e.value.message


@avs("PTO-AVS-TILE-TTRI-TYPED-001", "PTO-AVS-TILE-TTRI-BUNDLE-001", "PTO-AVS-TILE-TTRI-EDGE-001",
     "PTO-AVS-TILE-TTRI-ORIENT-001")  # fmt: skip
def test_ttri():
    """The default lower FP16 triangle: 0x3C00 on and below the diagonal, +0 above (also as a
    decoded block); diagonal -65535: lower all zero, upper all one; orientation 2 faults."""
    got = run_both_levels(_gen("ttri", F16, params=False))[0]
    assert got.view(np.uint16).tolist() == [[0x3C00, 0, 0], [0x3C00, 0x3C00, 0]]
    lo = run_both_levels(_gen("ttri", F16), np.int64(-65535), np.int64(0))[0]
    up = run_both_levels(_gen("ttri", F16), np.int64(-65535), np.int64(1))[0]
    assert (lo.view(np.uint16) == 0).all() and (up.view(np.uint16) == 0x3C00).all()
    with pytest.raises(PTOFault) as e:
        run(_gen("ttri", F16), "f", np.int64(0), np.int64(2))
    assert e.value.kind == "TileLegality" and "orientation" in e.value.message
