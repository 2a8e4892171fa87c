"""Evidence for the irregular tile-local rearrangements TGATHER, TSCATTER, TFILLPAD, TEXTRACT,
TINSERT (``pto_dialect/tile_rearrange.py``; ``asl/tile/model/execution/indexed-rearrangement.asl``,
``generation.asl``, ``rearrangement.asl``; D9, D12, D16).

References are INDEPENDENT of the kernels: per-element Python loops over lists of raw bit
patterns (the ASL's loop nests written out), Python integer masking for the raw padding word,
and the AVS pass conditions (tests/conformance/test_avs_rearrange.py). Every op runs at tile
level and (but TEXTRACT / TINSERT, whose block form the spec leaves contradictory) as a decoded
block (``pto-form-blocks`` + ``pto-assign-registers``), every type of its set through the
kernel row.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_binary_evidence import _bundled as bundled

from interpreter import kernels, run
from interpreter.kernels.storage import storage_dtype
from interpreter.ssa.runner import build_context, parse_module_text
from pto_dialect import isa
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.tile_rearrange import (
    INDEX_TYPES,
    REARRANGE_OPS,
    WINDOW_OPS,
    TExtractOp,
    TFillPadOp,
    THistogramOp,
    TImg2ColOp,
    TInsertOp,
    TMrgSortOp,
    TSortOp,
)

T = TileDataType
RNG = np.random.default_rng(18)


def _bits(t: TileDataType, shape) -> np.ndarray:
    """Random raw carriers of ``t`` in the interpreter's storage dtype (NaN payloads and
    TF32 low bits included: these ops move bits, never validate them)."""
    sd = storage_dtype(t)
    raw = RNG.integers(0, 256, size=(*shape, sd.itemsize), dtype=np.uint8)
    return raw.view(sd).reshape(shape)


def _raw(x: np.ndarray) -> list:
    return x.view(f"u{x.dtype.itemsize}").tolist()


def _tile(t: TileDataType, cols: int, valid, size: int = 512) -> str:
    rows = size * 8 // (cols * t.info.carrier_bits)
    return f"!pto.tile<{rows}x{cols}x{t.ir}, valid={valid[0]}x{valid[1]}>"


def _program(name: str, ins: list[str], res: str) -> str:
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(ins))
    ops = ", ".join(f"%a{i}" for i in range(len(ins)))
    return (f"func.func @f({args}) -> {res} {{\n  %r = {name} {ops} : ({', '.join(ins)}) -> "
            f"{res}\n  func.return %r : {res}\n}}")  # fmt: skip


def _both(text: str, *args):
    """Tile-level and decoded-block results (bit-identical), PE0's valid rectangle."""
    (tile,) = run(text, "f", *args)
    m = bundled(text)
    assert not any(isinstance(o, tuple(REARRANGE_OPS)) for o in m.walk()), "not formed"
    (blk,) = run(m, "f", *args)
    assert np.array_equal(tile.view(np.uint8), blk.view(np.uint8))
    return tile[0]


# ---------------------------------------------------------------------------------------
# Independent references (the ASL loop nests on Python lists)
# ---------------------------------------------------------------------------------------


def _ref_gather(src: list, index: list) -> list:
    return [[src[index[r][c]][c] for c in range(len(index[0]))] for r in range(len(index))]


def _ref_scatter(src: list, index: list, rows: int) -> list:
    out = [[0] * len(src[0]) for _ in range(rows)]
    for r, line in enumerate(src):
        for c, v in enumerate(line):
            out[index[r][c]][c] = v
    return out


def _perm_index(t: TileDataType, rows: int, cols: int, limit: int) -> np.ndarray:
    """A valid row index per column (a permutation prefix: no duplicates)."""
    cols_idx = [RNG.permutation(limit)[:rows] for _ in range(cols)]
    return np.array(cols_idx, np.int64).T.astype(t.numpy_dtype())


GATHER_TYPES = sorted(REARRANGE_OPS[0].TYPES, key=lambda t: t.value)


@pytest.mark.parametrize("t", GATHER_TYPES, ids=lambda t: t.name)
def test_gather_scatter_every_value_type(t):
    """TGATHER / TSCATTER move raw bits for every value type of their set (with a U16 index),
    against the list-based loop nests."""
    src = _bits(t, (4, 3))
    idx = _perm_index(T.U16, 3, 3, 4)
    g = kernels.KERNELS["TGATHER"]([src, idx], [t, T.U16], t, (3, 3))
    assert _raw(g) == _ref_gather(_raw(src), idx.tolist())
    s_src = src[:3]
    s = kernels.KERNELS["TSCATTER"]([s_src, idx], [t, T.U16], t, (4, 3))
    assert _raw(s) == _ref_scatter(_raw(s_src), idx.tolist(), 4)


@pytest.mark.parametrize("it", sorted(INDEX_TYPES, key=lambda t: t.value), ids=lambda t: t.name)
def test_every_index_type_and_its_faults(it):
    """Each index type selects rows by its unsigned value; a negative signed index and an
    index >= the selected tile's valid rows fault (TileLegality) before any result."""
    src = np.arange(12, dtype=np.int32).reshape(4, 3)
    idx = _perm_index(it, 2, 3, 4)
    got = kernels.KERNELS["TGATHER"]([src, idx], [T.S32, it], T.S32, (2, 3))
    assert got.tolist() == _ref_gather(src.tolist(), idx.tolist())
    bad = idx.copy()
    bad[1, 2] = 4  # one past the source's valid rows
    for k in ("TGATHER", "TSCATTER"):
        with pytest.raises(PTOFault) as e:
            kernels.KERNELS[k]([src[:2], bad] if k == "TSCATTER" else [src, bad], [T.S32, it],
                               T.S32, (2, 3) if k == "TGATHER" else (4, 3))  # fmt: skip
        assert e.value.kind == "TileLegality" and "(1, 2)" in e.value.message
    if it.is_signed:
        neg = idx.copy()
        neg[0, 1] = -1
        with pytest.raises(PTOFault, match="negative"):
            kernels.KERNELS["TGATHER"]([src, neg], [T.S32, it], T.S32, (2, 3))


def test_scatter_duplicates_fault():
    """Two source elements selecting one destination coordinate are TileLegality."""
    src = np.array([[10], [20]], np.uint16)
    with pytest.raises(PTOFault, match="two source elements"):
        kernels.KERNELS["TSCATTER"]([src, np.array([[1], [1]], np.uint16)], [T.U16, T.U16],
                                    T.U16, (3, 1))  # fmt: skip
    # the same row in different columns is no duplicate
    got = kernels.KERNELS["TSCATTER"]([np.array([[1, 2]], np.uint16), np.array([[2, 2]], np.uint16)],
                                      [T.U16, T.U16], T.U16, (3, 2))  # fmt: skip
    assert got.tolist() == [[0, 0], [0, 0], [1, 2]]


@pytest.mark.parametrize("t", sorted(TFillPadOp.TYPES, key=lambda t: t.value), ids=lambda t: t.name)
def test_tfillpad_every_type(t):
    """TFILLPAD: the source's valid rectangle at the origin, every other PHYSICAL element the
    low element-width bits of the word (no conversion)."""
    src = _bits(t, (2, 3))
    word = 0x0123456789ABCDEF
    got = kernels.KERNELS["TFILLPAD"]([src], [t], t, (3, 4), params=(word,), dst_shape=(5, 6))
    fill = word & ((1 << t.info.carrier_bits) - 1)
    want = [[fill] * 6 for _ in range(5)]
    for r, line in enumerate(_raw(src)):
        want[r][:3] = line
    assert got.shape == (5, 6) and _raw(got) == want


# ---------------------------------------------------------------------------------------
# Tile level + decoded block (execution evidence, D9 padding and definedness)
# ---------------------------------------------------------------------------------------


def test_gather_tile_and_block():
    src = _bits(T.FP16, (4, 3))
    idx = _perm_index(T.S32, 2, 3, 4)
    text = _program("pto.tgather", [_tile(T.FP16, 8, (4, 3)), _tile(T.S32, 4, (2, 3), 128)],
                    _tile(T.FP16, 8, (2, 3)))  # fmt: skip
    got = _both(text, src, idx)
    assert _raw(got) == _ref_gather(_raw(src), idx.tolist())


def test_scatter_tile_and_block_zero_fill_is_defined():
    """TSCATTER: the whole physical destination is typed zero and defined before the writes
    (no Null padding)."""
    from interpreter.ssa.pto_functions import local_plan
    from interpreter.ssa.runtime import tile_from_array

    src = np.array([[1.5, -2.0], [3.0, 4.0]], np.float32)
    idx = np.array([[2, 0], [3, 1]], np.uint64)
    text = _program("pto.tscatter", [_tile(T.FP32, 4, (2, 2), 128), _tile(T.U64, 2, (2, 2), 128)],
                    _tile(T.FP32, 4, (4, 2), 128))  # fmt: skip
    got = _both(text, src, idx)
    assert got.tolist() == _ref_scatter(src.tolist(), idx.tolist(), 4)
    op = next(o for o in parse_module_text(text, ctx=build_context()).walk()
              if isinstance(o, tuple(REARRANGE_OPS)))  # fmt: skip
    (res,) = local_plan(op)(tile_from_array(op.srcs[0].type, src),
                            tile_from_array(op.srcs[1].type, idx))  # fmt: skip
    assert res.defined[0].all() and (res.payloads[0][:, 2:] == 0).all()


def test_tfillpad_tile_and_block_with_and_without_word():
    """The padding word through B.IOR RegSrc0; without it the block has no B.IOR and fills
    zeros; every physical element is defined."""
    from interpreter.ssa.pto_functions import local_plan
    from interpreter.ssa.runtime import tile_from_array

    ins, res = [_tile(T.S16, 4, (1, 2), 128), "i64"], _tile(T.S16, 4, (2, 3), 128)
    a = np.array([[-1, 7]], np.int16)
    got = _both(_program("pto.tfillpad", ins, res), a, np.int64(-3))
    assert got.tolist() == [[-1, 7, -3], [-3, -3, -3]]
    text0 = _program("pto.tfillpad", ins[:1], res)
    assert _both(text0, a).tolist() == [[-1, 7, 0], [0, 0, 0]]
    assert "pto.b.ior" not in str(bundled(text0))
    op = next(o for o in parse_module_text(text0, ctx=build_context()).walk()
              if isinstance(o, TFillPadOp))  # fmt: skip
    (r,) = local_plan(op)(tile_from_array(op.srcs[0].type, a))
    assert r.defined[0].all() and r.payloads[0].shape == (16, 4)


def test_runtime_fault_before_effect_through_block():
    """A data-dependent fault (out-of-range index) of a decoded block is TileLegality with
    no result (D12, D16)."""
    text = _program("pto.tgather", [_tile(T.U8, 4, (2, 1), 128), _tile(T.U64, 1, (2, 1), 128)],
                    _tile(T.U8, 4, (2, 1), 128))  # fmt: skip
    src = np.array([[7], [8]], np.uint8)
    with pytest.raises(PTOFault) as e:
        run(bundled(text), "f", src, np.array([[1], [1 << 32]], np.uint64))
    assert e.value.kind == "TileLegality" and str(1 << 32) in e.value.message


def test_block_rules():
    """Block completion: TGATHER takes no B.IOR; TFILLPAD reads RegSrc0 only; B.DATR Layout
    of these ops (a conversion) is refused when linked, not ignored."""
    start = isa.BStart.op("TFILLPAD", T.U8.value)
    dst = isa.BIot(src0=0, last=1, size_code=1, pe_mode=7, dst_hand=0)
    with pytest.raises(PTOFault, match="RegSrc1 and RegSrc2 and RegDst must be zero"):
        isa.check_block([start, isa.CBDimi(0, 2), dst, isa.BIor(2, 3, 0, 0), isa.BStop()])
    s = isa.check_block([start, isa.CBDimi(0, 2), dst, isa.BIor(2, 0, 0, 0), isa.BStop()])
    assert s.dims == (2, 1, 2)
    g = isa.BStart.op("TGATHER", T.U8.value)
    both = isa.BIot(src0=0, src1=1, last=1, size_code=1, pe_mode=7, dst_hand=0)
    with pytest.raises(PTOFault) as e:
        isa.check_block([g, isa.CBDimi(0, 2), both, isa.BIor(2, 0, 0, 0), isa.BStop()])
    assert e.value.kind == "BundleControl"
    text = _program("pto.tgather", [_tile(T.U8, 4, (2, 1), 128), _tile(T.U16, 2, (2, 1), 128)],
                    _tile(T.U8, 4, (2, 1), 128))  # fmt: skip
    blk = str(bundled(text)).replace("pto.b.dimi <lb = 0", "pto.b.datr <layout = 1, dtype = 0, "
                                     "pad = 0, cmode = 0, sat = 0, canonicalize = 0, rmode = 0>\n"
                                     "      pto.b.dimi <lb = 0", 1)  # fmt: skip
    with pytest.raises(Exception, match="Layout"):
        run(blk, "f", np.array([[1], [2]], np.uint8), np.array([[1], [0]], np.uint16))


def test_static_catalog_alignment():
    """Each op's encoding row (Mode:Function, SFU engine, source / destination counts, B.DATR
    applicability: Layout only; TMRGSORT, TSORT, TIMG2COL none) is the catalog's."""
    for cls in REARRANGE_OPS:
        row = isa.TEPL_OPS[(cls.MODE, cls.FUNCTION)]
        if cls in WINDOW_OPS or cls in (TMrgSortOp, TSortOp, THistogramOp, TImg2ColOp):
            want = {TMrgSortOp: "", TSortOp: "", THistogramOp: "DP", TImg2ColOp: ""}.get(cls, "L")
            assert row.sources == len(cls.SOURCES) and row.datr_fields == want
            assert row.destinations == len(cls.RESULTS)
            continue
        assert (row.name, str(row.engine), row.datr_fields) == (cls.MNEMONIC, "SFU", "L")
        assert row.sources == len(cls.SOURCES) and row.destinations == 1


# ---------------------------------------------------------------------------------------
# TEXTRACT / TINSERT (tile level only)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("t", sorted(TExtractOp.TYPES, key=lambda t: t.value), ids=lambda t: t.name)
def test_window_every_type(t):
    """TEXTRACT / TINSERT move raw bits at every offset that fits, against list slicing."""
    src = _bits(t, (4, 5))
    raw = _raw(src)
    for r, c in ((0, 0), (1, 2), (2, 3)):
        got = kernels.KERNELS["TEXTRACT"]([src], [t], t, (2, 2), params=(r, c))
        assert _raw(got) == [line[c : c + 2] for line in raw[r : r + 2]]
        ins = _bits(t, (2, 2))
        got = kernels.KERNELS["TINSERT"]([src, ins], [t, t], t, (4, 5), params=(r, c))
        want = [list(line) for line in raw]
        for i, line in enumerate(_raw(ins)):
            want[r + i][c : c + 2] = line
        assert _raw(got) == want


@pytest.mark.parametrize(("k", "params", "msg"), [
    ("TEXTRACT", (3, 0), "row_offset: 3 + 2 exceeds the source's 4 valid rows"),
    ("TEXTRACT", (0, 4), "column_offset: 4 + 2 exceeds the source's 5 valid columns"),
    ("TEXTRACT", (-1, 0), "row_offset: -1 is outside 0..65535"),
    ("TINSERT", (0, 1 << 16), "column_offset: 65536 is outside 0..65535"),
    ("TINSERT", (3, 0), "row_offset: 3 + 2 exceeds the destination's 4 valid rows"),
])  # fmt: skip
def test_window_offsets_fault(k, params, msg):
    src = np.zeros((4, 5), np.int32)
    srcs = [src] if k == "TEXTRACT" else [src, np.zeros((2, 2), np.int32)]
    with pytest.raises(PTOFault) as e:
        kernels.KERNELS[k](srcs, [T.S32] * len(srcs), T.S32, (2, 2) if k == "TEXTRACT" else (4, 5),
                           params=params)  # fmt: skip
    assert e.value.kind == "TileLegality" and msg in e.value.message


def test_window_tile_level_padding_and_definedness():
    """TEXTRACT pads with Null; TINSERT keeps the old destination's payload AND definedness
    outside the valid rectangle (its Null padding stays undefined); omitted offsets are 0."""
    from interpreter.ssa.pto_functions import local_plan
    from interpreter.ssa.runtime import TileValue, tile_from_array

    text = _program("pto.textract", [_tile(T.U8, 4, (3, 4), 128), "i64", "i64"],
                    _tile(T.U8, 4, (2, 2), 128))  # fmt: skip
    src = np.arange(12, dtype=np.uint8).reshape(3, 4)
    (d,) = run(text, "f", src, np.int64(1), np.int64(1))
    assert d[0].tolist() == [[5, 6], [9, 10]]
    old_t = "!pto.tile<32x4xui8, valid=2x3>"
    text = _program("pto.tinsert", [old_t, "!pto.tile<128x1xui8, valid=1x1>"], old_t)
    op = next(o for o in parse_module_text(text, ctx=build_context()).walk()
              if isinstance(o, TInsertOp))  # fmt: skip
    phys = np.full((32, 4), 7, np.uint8)
    dfn = np.zeros((32, 4), bool)
    dfn[:2, :3] = True
    dfn[5, 3] = True  # one defined padding element survives
    old = TileValue(op.srcs[0].type, {p: phys for p in range(4)}, {p: dfn for p in range(4)})
    (r,) = local_plan(op)(old, tile_from_array(op.srcs[1].type, np.array([[9]], np.uint8)))
    assert r.payloads[0][0, 0] == 9 and r.payloads[0][1, 2] == 7 and r.payloads[0][20, 3] == 7
    assert r.defined[0][5, 3] and not r.defined[0][6, 3] and r.defined[0][:2, :3].all()


def test_window_block_form_is_refused_with_the_reason():
    """No block former and no decoded dispatch for TEXTRACT / TINSERT (docs/rearrange.md):
    pto-form-blocks refuses them naming the contradictory spec units."""
    from xdsl.utils.exceptions import PassFailedException

    text = _program("pto.textract", [_tile(T.U8, 4, (3, 4), 128)], _tile(T.U8, 4, (2, 2), 128))
    with pytest.raises(PassFailedException, match="tile-schema.asl"):
        bundled(text)
    from pto_dialect.block_ops import block_unsound

    assert all(block_unsound(c) for c in WINDOW_OPS)


# ---------------------------------------------------------------------------------------
# TMRGSORT
# ---------------------------------------------------------------------------------------


def _left_before(a: float, b: float, desc: bool) -> bool:
    """``TileSortLeftBefore`` on Python floats, written out."""
    if math.isnan(a):
        return math.isnan(b)
    if math.isnan(b) or a == b:  # a == b covers +0 / -0
        return True
    return a > b if desc else a < b


def _sorted_stream(n: int, desc: bool, dt) -> np.ndarray:
    """A sorted stream with repeats, signed zeros, infinities and trailing NaNs."""
    pool = [-np.inf, -2.5, -1.0, -0.0, 0.0, 0.0, 1.0, 1.0, 3.0, np.inf]
    vals = sorted(RNG.choice(pool, n - 1).tolist(), reverse=desc)
    return np.array([[*vals, np.nan]], dt)


@pytest.mark.parametrize("dt", [np.float32, np.float16])
@pytest.mark.parametrize("desc", [False, True])
def test_tmrgsort_against_the_merge_loop(dt, desc):
    """Stable merge, left first on equal keys (+0 / -0 equal), NaNs last in both directions,
    bit for bit (signed zeros tell the sources apart)."""
    t = T.FP32 if dt is np.float32 else T.FP16
    for _ in range(4):
        left, right = _sorted_stream(5, desc, dt), _sorted_stream(4, desc, dt)
        got = kernels.KERNELS["TMRGSORT"]([left, right], [t, t], t, (1, 9), params=(int(desc),))
        # the reference merges (value, origin) pairs and compares the chosen origins' bits
        tagged_l = [(float(v), ("l", k)) for k, v in enumerate(left[0])]
        tagged_r = [(float(v), ("r", k)) for k, v in enumerate(right[0])]
        order = _ref_merge_tagged(tagged_l, tagged_r, desc)
        want = [(left if o == "l" else right)[0, k] for o, k in order]
        assert _raw(got) == _raw(np.array([want], dt))


def _ref_merge_tagged(left: list, right: list, desc: bool) -> list:
    out, i, j = [], 0, 0
    while i < len(left) or j < len(right):
        if j >= len(right) or (i < len(left) and _left_before(left[i][0], right[j][0], desc)):
            out.append(left[i][1])
            i += 1
        else:
            out.append(right[j][1])
            j += 1
    return out


def test_tmrgsort_faults_and_block():
    """An unsorted stream or a direction other than 0 / 1 is TileLegality before any result;
    a TMRGSORT block has no B.DIM (an LB is TileLegality at block completion); tile level and
    decoded block agree."""
    f = np.float32
    with pytest.raises(PTOFault, match="left: not sorted ascending"):
        kernels.KERNELS["TMRGSORT"]([np.array([[2, 1]], f), np.array([[1]], f)], [T.FP32] * 2,
                                    T.FP32, (1, 3), params=(0,))  # fmt: skip
    with pytest.raises(PTOFault, match="exactly 0 or 1, got 2"):
        kernels.KERNELS["TMRGSORT"]([np.array([[1]], f), np.array([[1]], f)], [T.FP32] * 2,
                                    T.FP32, (1, 2), params=(2,))  # fmt: skip
    start = isa.BStart.op("TMRGSORT", T.FP32.value)
    iot = isa.BIot(src0=0, src1=1, last=1, size_code=1, pe_mode=7, dst_hand=0)
    with pytest.raises(PTOFault, match="takes no B.DIM"):
        isa.check_block([start, isa.CBDimi(0, 4), iot, isa.BStop()])
    isa.check_block([start, iot, isa.BIor(2, 0, 0, 0), isa.BStop()])
    ins = [_tile(T.FP16, 2, (1, 2), 128), _tile(T.FP16, 2, (1, 2), 128), "i64"]
    text = _program("pto.tmrgsort", ins, "!pto.tile<16x4xf16, valid=1x4>")
    got = _both(text, np.array([[3, 1]], np.float16), np.array([[2, -0.0]], np.float16),
                np.int64(1))  # fmt: skip
    assert got.tolist() == [[3, 2, 1, -0.0]]
    assert TMrgSortOp.NO_LBS


# ---------------------------------------------------------------------------------------
# THISTOGRAM
# ---------------------------------------------------------------------------------------


def _ref_histogram(src: list, filt: list, t: TileDataType, b: int) -> list:
    """The ASL loop nest of THISTOGRAM on Python ints."""
    out = []
    for r, line in enumerate(src):
        counts = [0] * 256
        for v in line:
            byte = [(v >> (8 * k)) & 0xFF for k in range(4)]
            if t is T.U16 and b == 0:
                ok = byte[1] == filt[r][0]
            elif t is T.U32:
                ok = all(byte[k] == filt[3 - k][0] for k in (3, 2, 1) if b < k)
            else:
                ok = True
            if ok:
                counts[byte[b]] += 1
        out.append([sum(counts[: k + 1]) for k in range(256)])
    return out


@pytest.mark.parametrize(("t", "b"), [(T.U16, 0), (T.U16, 1), (T.U32, 0), (T.U32, 1), (T.U32, 2),
                                      (T.U32, 3)])  # fmt: skip
def test_thistogram_every_type_and_byte(t, b):
    """Random values whose high bytes often match the filter, against the loop nest."""
    filt = RNG.integers(0, 4, size=(3, 1)).astype(np.uint8)
    src = RNG.integers(0, 4, size=(3, 40, 4)).astype(np.uint8)  # bytes drawn from 0..3
    if t is T.U16:
        src = src[..., :2]
    vals = src.view(t.numpy_dtype()).reshape(3, 40)
    got = kernels.KERNELS["THISTOGRAM"]([vals, filt], [t, T.U8], T.U32, (3, 256), params=(b,))
    assert got.dtype == np.uint32
    assert got.tolist() == _ref_histogram(vals.tolist(), filt.tolist(), t, b)


def test_thistogram_tile_block_and_filter_definedness():
    """Tile level and decoded block agree; only the filter elements read must be defined
    (U16 ByteId1 reads none); the block carries a mandatory B.DATR (U32, ByteId) and no
    B.DIM, and a block without it is TileLegality."""
    from interpreter.ssa.pto_functions import local_plan
    from interpreter.ssa.runtime import TileValue, tile_from_array

    ins = ["!pto.tile<16x4xui16, valid=2x4>", "!pto.tile<64x2xui8, valid=2x1>"]
    src = np.array([[0xAA01, 0xBB02, 0xAA03, 0x0104], [0xBB05, 0xBB06, 0xAA07, 0xBB07]], np.uint16)
    filt = np.array([[0xAA], [0xBB]], np.uint8)
    for b in (0, 1):
        text = _program("pto.thistogram", ins, "!pto.tile<2x256xui32>").replace(
            " : (", f" {{byte_id = {b} : i64}} : (", 1)  # fmt: skip
        got = _both(text, src, filt)
        assert got.tolist() == _ref_histogram(src.tolist(), filt.tolist(), T.U16, b)
        blk = str(bundled(text))
        assert "dtype = U32" in blk and "pto.b.dim" not in blk
    op = next(o for o in parse_module_text(text, ctx=build_context()).walk()
              if isinstance(o, THistogramOp))  # fmt: skip
    undefined = TileValue(op.srcs[1].type, {p: np.zeros((64, 2), np.uint8) for p in range(4)},
                          {p: np.zeros((64, 2), bool) for p in range(4)})  # fmt: skip
    (r,) = local_plan(op)(tile_from_array(op.srcs[0].type, src), undefined)
    assert r.defined[0].all()  # ByteId1: the filter is not read
    op0 = THistogramOp.build(list(op.operands), op.result.type)  # ByteId0 reads filter[r, 0]
    with pytest.raises(PTOFault, match="filter: PE0 reads undefined"):
        local_plan(op0)(tile_from_array(op.srcs[0].type, src), undefined)
    start = isa.BStart.op("THISTOGRAM", T.U16.value)
    iot = isa.BIot(src0=0, src1=1, last=1, size_code=4, pe_mode=7, dst_hand=0)
    with pytest.raises(PTOFault, match="needs B.DATR"):
        isa.check_block([start, iot, isa.BStop()])
    isa.check_block([start, isa.BDatr(dtype=T.U32.value, pad=1), iot, isa.BStop()])


EXECUTED = frozenset(c.name for c in REARRANGE_OPS)
"""Every op of this module runs at tile level and (but the BLOCK_UNSOUND ones) as a decoded
block above; TIMG2COL in tests/evidence/test_img2col_evidence.py."""
