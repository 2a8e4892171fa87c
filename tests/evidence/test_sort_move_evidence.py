"""Evidence for TSORT (``pto_dialect/tile_rearrange.py``, ``asl/tile/model/execution/sorting.asl``)
and TMOV (``pto_dialect/tile_move.py``, ``asl/tile/model/memory/shared-movement.asl``).

References are INDEPENDENT of the kernels: TSORT is checked against Python's ``sorted()`` of
(value, column) pairs with an explicit key written from ``TileSortLeftBefore`` (NaN flag, then
the value with -0 read as +0; ``sorted`` is stable), per group of plain Python lists, and the
values are compared as raw bit patterns (so signed zeros and NaN payloads tell the elements
apart); TMOV against the source's own payload and definedness arrays. Both run at tile level
and as decoded blocks (``pto-form-blocks`` + ``pto-assign-registers``), faults come before any
result (D12), and the block rules of their catalog compositions are checked.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_binary_evidence import _bundled as bundled

from interpreter import kernels, run
from interpreter.kernels.storage import storage_dtype
from interpreter.ssa.pto_functions import local_plan, move_plan
from interpreter.ssa.runner import build_context, parse_module_text
from interpreter.ssa.runtime import TileValue, tile_from_array
from pto_dialect import isa
from pto_dialect.block_ops import BlockOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.tile_move import MOVE_OPS
from pto_dialect.tile_rearrange import TSortOp
from tests.budget import examples

T = TileDataType
_FMT = {np.float32: ("<f", "<I", 4), np.float16: ("<e", "<H", 2)}


def _value(bits: int, dt) -> float:
    f, u, _ = _FMT[dt]
    return struct.unpack(f, struct.pack(u, bits))[0]


def _ref_tsort(rows: list[list[int]], width: int, desc: bool, dt) -> tuple[list, list]:
    """TSORT on raw bit patterns: per row, per group of ``width`` columns, Python's stable
    ``sorted`` by (is NaN, +-value) with -0 read as +0; returns (bits, within-group indices)."""
    def key(pair):
        v = _value(pair[0], dt)
        if math.isnan(v):
            return (1, 0.0)
        v = 0.0 if v == 0 else v
        return (0, -v if desc else v)

    out_v, out_i = [], []
    for line in rows:
        vals, idx = [], []
        for g in range(0, len(line), width):
            group = sorted(((b, c - g) for c, b in enumerate(line[g : g + width], start=g)),
                           key=key)  # fmt: skip
            vals += [b for b, _ in group]
            idx += [k for _, k in group]
        out_v.append(vals)
        out_i.append(idx)
    return out_v, out_i


def _program(src_t: str, dst_t: str, idx_t: str, width: int | None, with_flag: bool) -> str:
    prop = f" {{sort_width = {width} : i64}}" if width is not None else ""
    ins = f"({src_t}{', i64' if with_flag else ''})"
    args = f"%s: {src_t}" + (", %w: i64" if with_flag else "")
    ops = "%s" + (", %w" if with_flag else "")
    return (f"func.func @f({args}) -> ({dst_t}, {idx_t}) {{\n"
            f"  %d, %i = pto.tsort {ops}{prop} : {ins} -> ({dst_t}, {idx_t})\n"
            f"  func.return %d, %i : {dst_t}, {idx_t}\n}}")  # fmt: skip


def _tiles(dt, rows: int, cols: int, vr: int, vc: int) -> tuple[str, str, str]:
    e = "f32" if dt is np.float32 else "f16"
    return (f"!pto.tile<{rows}x{cols}x{e}, valid={vr}x{vc}>",
            f"!pto.tile<{rows}x{cols}x{e}, valid={vr}x{vc}>",
            f"!pto.tile<{rows}x{cols}xui32, valid={vr}x{vc}>")  # fmt: skip


def _both(text: str, *args):
    """Tile-level and decoded-block results (bit-identical): PE0's (values, indices)."""
    tile = run(text, "f", *args)
    m = bundled_tsort(text)
    blk = run(m, "f", *args)
    for a, b in zip(tile, blk):
        assert np.array_equal(a.view(np.uint8), b.view(np.uint8))
    return tile[0][0], tile[1][0]


def bundled_tsort(text: str):
    ctx = build_context()
    m = parse_module_text(text, ctx=ctx)
    from passes import get_all_passes

    for name in ("pto-form-blocks", "pto-assign-registers"):
        get_all_passes()[name]()().apply(ctx, m)
    m.verify()
    assert not any(isinstance(o, TSortOp) for o in m.walk()) and any(
        isinstance(o, BlockOp) for o in m.walk()
    )
    return m


_SPECIAL32 = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000,
              0x7FC00000, 0xFFC00001, 0x7F800001, 0x00000001, 0x80000001, 0x40400000]  # fmt: skip
_SPECIAL16 = [0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x7C01, 0x0001,
              0x8001, 0x4200]  # fmt: skip


@settings(max_examples=examples(25), deadline=None)
@given(
    dt=st.sampled_from([np.float32, np.float16]),
    shape=st.tuples(st.integers(1, 3), st.integers(1, 12)),
    width=st.integers(1, 64),
    desc=st.booleans(),
    data=st.data(),
)
def test_tsort_kernel_against_sorted(dt, shape, width, desc, data):
    """Every group sorted stably (NaNs last in both directions, +0 / -0 equal, sNaN an
    ordinary value), indices within the group, bit for bit, for both types."""
    special = _SPECIAL32 if dt is np.float32 else _SPECIAL16
    bits = 32 if dt is np.float32 else 16
    elem = st.one_of(st.sampled_from(special), st.integers(0, (1 << bits) - 1))
    rows = [[data.draw(elem) for _ in range(shape[1])] for _ in range(shape[0])]
    src = np.array(rows, f"u{bits // 8}").view(dt)
    t = T.FP32 if dt is np.float32 else T.FP16
    got_v, got_i = kernels.KERNELS["TSORT"]([src], [t], t, shape, params=(width, int(desc)))
    want_v, want_i = _ref_tsort(rows, width, desc, dt)
    assert got_v.view(f"u{bits // 8}").tolist() == want_v
    assert got_i.dtype == np.uint32 and got_i.tolist() == want_i


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_tsort_tile_and_block_agree_and_pad_null(dt):
    """Tile level == decoded block for both types, with and without the direction operand and
    with the default width 32 (no B.DIM) and width 3 (B.DIM LB0 = 3); both destinations are
    Null-padded outside the valid rectangle and every valid element is defined."""
    src_t, dst_t, idx_t = _tiles(dt, 8 if dt is np.float32 else 16, 4, 2, 3)
    src = np.array([[3, -0.0, 1], [np.nan, 2, 0.0]], dt)
    for width, flag in ((None, None), (2, 1), (3, 0)):
        text = _program(src_t, dst_t, idx_t, width, flag is not None)
        args = (src,) if flag is None else (src, np.int64(flag))
        v, i = _both(text, *args)
        rows = [[int(x) for x in r] for r in src.view(f"u{np.dtype(dt).itemsize}")]
        want_v, want_i = _ref_tsort(rows, width or 32, bool(flag), dt)
        assert v.view(f"u{np.dtype(dt).itemsize}").tolist() == want_v and i.tolist() == want_i
    m = parse_module_text(_program(src_t, dst_t, idx_t, 3, False), ctx=build_context())
    (op,) = [o for o in m.walk() if isinstance(o, TSortOp)]
    d, ix = local_plan(op)(tile_from_array(op.srcs[0].type, src))
    for out in (d, ix):
        dfn = out.defined[0]
        assert dfn[:2, :3].all() and not dfn[2:, :].any() and not dfn[:, 3:].any()


def test_tsort_faults_before_any_result():
    """An undefined valid source element, or a direction other than 0 / 1, is TileLegality
    before any destination exists (tile level and decoded block)."""
    src_t, dst_t, idx_t = _tiles(np.float32, 8, 4, 1, 4)
    text = _program(src_t, dst_t, idx_t, 3, True)
    src = np.array([[1, 2, 3, 4]], np.float32)
    for prog in (text, bundled_tsort(text)):
        with pytest.raises(PTOFault, match="exactly 0 or 1, got 2") as e:
            run(prog, "f", src, np.int64(2))
        assert e.value.kind == "TileLegality"
    m = parse_module_text(text, ctx=build_context())
    (op,) = [o for o in m.walk() if isinstance(o, TSortOp)]
    good = tile_from_array(op.srcs[0].type, src)
    hole = good.defined[0].copy()
    hole[0, 2] = False
    bad = TileValue(good.type, good.payloads, {p: hole for p in good.payloads})
    with pytest.raises(PTOFault, match="undefined elements") as e:
        local_plan(op)(bad, np.int64(0))
    assert e.value.kind == "TileLegality"


def _rejects(cases) -> None:
    """Each (commands, fault kind, message) block is rejected with that fault."""
    for cmds, kind, msg in cases:
        with pytest.raises(PTOFault, match=msg) as e:
            isa.check_block(cmds)
        assert e.value.kind == kind


def test_tsort_block_rules():
    """TSORT's block (catalog composition, ``SelectedBundleClosedSortingSchemaLegal``): one
    source, two destinations, LB0 <= 64 and no LB1 / LB2, FP32 / FP16 only, B.IOR RegSrc0
    only, B.DATR all zero; a zero mask is a strict no-op."""
    start = isa.BStart.op("TSORT", T.FP32.value)
    src = isa.BIot(src0=0, last=0, size_code=1, pe_mode=7, dst_hand=0)
    idx = isa.BIot(last=1, size_code=1, pe_mode=7, dst_hand=0)
    s = isa.check_block([start, isa.CBDimi(0, 64), src, idx, isa.BIor(2, 0, 0, 0), isa.BStop()])
    assert len(s.destinations) == 2 and s.lb[0] == 64
    cases = [
        ([start, isa.CBDimi(0, 65), src, idx, isa.BStop()], "TileLegality", "above 64"),
        ([start, isa.CBDimi(1, 2), src, idx, isa.BStop()], "TileLegality", "no LB1/LB2"),
        ([start, isa.BIot(src0=0, last=1, size_code=1, pe_mode=7, dst_hand=0), isa.BStop()],
         "BundleControl", "2 destination"),
        ([isa.BStart.op("TSORT", T.BF16.value), src, idx, isa.BStop()], "TileLegality",
         "does not support BF16"),
        ([start, src, idx, isa.BIor(2, 3, 0, 0), isa.BStop()], "BundleControl",
         "RegSrc1 and RegSrc2 and RegDst must be zero"),
        ([start, isa.BDatr(pad=1, dtype=0), src, idx, isa.BStop()], "TileLegality",
         "not applicable to TSORT"),
    ]  # fmt: skip
    _rejects(cases)
    zero = isa.BIot(src0=0, last=1, size_code=1, pe_mode=0, dst_hand=0)
    assert isa.check_block([start, zero, isa.BStop()]).noop
    row = isa.TEPL_BY_NAME["TSORT"]
    assert (row.mode, row.function, row.sources, row.destinations, row.datr_fields) == (
        3, 12, 1, 2, ""
    )


def test_tsort_linked_block_checks():
    """A linked block's LB0 is the op's sort width (omitted or zero: 32) and the index
    destination's SizeCode must fit its U32 tile (TileAllocation)."""
    src_t, dst_t, idx_t = _tiles(np.float16, 16, 4, 1, 4)
    m = bundled_tsort(_program(src_t, dst_t, idx_t, 3, False))
    text = str(m)
    assert "pto.b.dimi <lb = 0, imm = 3>" in text
    # the U32 index tile (16 x 4 x 4 B = 256 B) in a 128 B destination
    small = text.replace('<last = 1, size_code = "256B"', '<last = 1, size_code = "128B"', 1)
    assert small != text
    with pytest.raises(Exception, match="TileAllocation"):
        parse_module_text(small, ctx=build_context()).verify()
    m32 = str(bundled_tsort(_program(src_t, dst_t, idx_t, None, False)))
    assert "pto.b.dim" not in m32
    (v, i) = run(m32, "f", np.array([[4, 3, 2, 1]], np.float16))
    assert v[0].tolist() == [[1, 2, 3, 4]] and i[0].tolist() == [[3, 2, 1, 0]]


# ---------------------------------------------------------------------------------------
# TMOV
# ---------------------------------------------------------------------------------------

_TMOV = """func.func @f(%s: {t}) -> {t} {{
  %d = pto.tmov %s{mask} : ({t}) -> {t}
  func.return %d : {t}
}}"""


@pytest.mark.parametrize("t", [T.U8, T.FP32, T.BF16, T.S64, T.HIF8, T.E8M0, T.FP64])
def test_tmov_copies_payload_and_definedness(t):
    """Every physical element (padding included) and its definedness, bit for bit, for
    several types; an undefined source element stays undefined (no fault); the source is
    unchanged; tile level and decoded block agree."""
    e = t.ir
    ty = f"!pto.tile<{128 * 8 // (4 * t.info.carrier_bits)}x4x{e}, valid=2x3>"
    text = _TMOV.format(t=ty, mask="")
    m = parse_module_text(text, ctx=build_context())
    (op,) = [o for o in m.walk() if isinstance(o, tuple(MOVE_OPS))]
    rng = np.random.default_rng(25)
    tt = op.src.type
    valid = rng.integers(0, 200, size=(2, 3)).astype(storage_dtype(tt.dtype))
    src = tile_from_array(tt, valid)
    hole = src.defined[0].copy()
    hole[1, 2] = False
    src = TileValue(tt, src.payloads, {p: hole for p in src.payloads})
    before = {p: a.copy() for p, a in src.payloads.items()}
    (d,) = move_plan(op)(src)
    for p in src.payloads:
        assert np.array_equal(d.payloads[p].view(np.uint8), src.payloads[p].view(np.uint8))
        assert np.array_equal(d.defined[p], hole)
        assert np.array_equal(src.payloads[p].view(np.uint8), before[p].view(np.uint8))
    (tile,) = run(text, "f", valid)
    (blk,) = run(bundled(text), "f", valid)
    assert np.array_equal(tile.view(np.uint8), blk.view(np.uint8))


def test_tmov_block_rules_and_layouts():
    """BSTART.TMOV: one terminating B.IOT with one source and one destination (BundleControl
    otherwise), no B.IOS / nonzero B.IOR, B.DATR Layout only and a destination layout; the
    DataType may be DTYPE_NONE (inherit); a column-major tile moves through B.DATR ND2DN; a
    CUBE-layout tile has no TMOV block; a zero mask is a no-op."""
    start = isa.BStart.op("TMOV", T.U8.value)
    iot = isa.BIot(src0=0, last=1, size_code=1, pe_mode=7, dst_hand=0)
    isa.check_block([start, iot, isa.BStop()])
    isa.check_block([isa.BStart(isa.BlockFamily.TLSU, 2, 31), iot, isa.BStop()])  # DTYPE_NONE
    cases = [
        ([start, isa.BIot(src0=0, last=1), isa.BStop()], "BundleControl", "exactly one source"),
        ([start, iot, isa.BIos(7, 1, 7), isa.BStop()], "TileLegality", "B.IOS is illegal"),
        ([start, iot, isa.BIor(2, 0, 0, 0), isa.BStop()], "BundleControl", "no scalar"),
        ([start, isa.BDatr(pad=1, dtype=0), iot, isa.BStop()], "TileLegality", "Layout only"),
        ([start, isa.BDatr(layout=21, dtype=0, pad=0), iot, isa.BStop()], "TileLegality",
         "no destination layout"),
        ([start, isa.CBDimi(1, 0), iot, isa.BStop()], "TileLegality", "LB1 is 0"),
        ([isa.BStart(isa.BlockFamily.TEPL, 0, 31), iot, isa.BStop()], "IllegalInstruction",
         "DTYPE_NONE"),
    ]  # fmt: skip
    _rejects(cases)
    assert isa.check_block([start, isa.BIot(src0=0, last=1, pe_mode=0), isa.BStop()]).noop
    col = "!pto.tile<16x8xui8, valid=4x8, col_major>"
    text = _TMOV.format(t=col, mask="")
    blk = str(bundled(text))
    assert "pto.b.datr <layout = ND2DN" in blk
    x = np.arange(32, dtype=np.uint8).reshape(4, 8)  # the valid rectangle
    assert np.array_equal(run(blk, "f", x)[0][0], x)
    bad = blk.replace("layout = ND2DN", "layout = NORM")
    with pytest.raises(Exception, match="does not select the tiles' layout col_major"):
        parse_module_text(bad, ctx=build_context()).verify()
    cube = "!pto.tile<16x32xf16, valid=16x32, cube_m16, mat>"
    with pytest.raises(Exception, match="no TMOV block"):
        bundled(_TMOV.format(t=cube, mask=""))
    # PEs: a partial mask moves the selected PEs only
    two = "!pto.tile<32x4xui8, valid=1x2, pe=1100>"
    (d,) = run(_TMOV.format(t=two, mask=" {mask = #pto.mask<1100>}"), "f",
               np.array([[[1, 2]], [[3, 4]]], np.uint8))  # fmt: skip
    assert d.tolist() == [[[1, 2]], [[3, 4]]]


def test_shared_tmov_forms_decode_but_do_not_execute():
    """Functions 9-12 decode to BSTART.TMOV forms; their B.IOT / B.IOS schemas are checked,
    a zero mask is a no-op, and a linked Shared TMOV block is refused with the reason."""
    for fn in (2, 9, 10, 11, 12):
        word = 0x00011181 | fn << 20
        assert isa.decode(word) == isa.BStart(isa.BlockFamily.TLSU, fn, 0)
    ins = isa.BStart(isa.BlockFamily.TLSU, 9, T.U8.value)
    isa.check_block([ins, isa.BIot(src0=0, last=1, pe_mode=7), isa.BIos(7, 1, 7), isa.BStop()])
    with pytest.raises(PTOFault, match="one source-only B.IOT and one destination B.IOS"):
        isa.check_block([ins, isa.BIot(src0=0, last=1, pe_mode=7), isa.BIos(7, 0, 7),
                         isa.BStop()])  # fmt: skip
    ext = isa.BStart(isa.BlockFamily.TLSU, 12, T.U8.value)
    isa.check_block([ext, isa.BIos(42, 0, 4), isa.BIot(last=1, size_code=1, pe_mode=4,
                                                       dst_hand=0), isa.BStop()])  # fmt: skip


EXECUTED = frozenset({TSortOp.name, *(c.name for c in MOVE_OPS)})
"""Ops whose execution this module checks (tests/evidence/test_completeness.py)."""
