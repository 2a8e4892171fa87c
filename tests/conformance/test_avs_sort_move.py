"""AVS acceptance tests (D17) of TSORT, the sorting order and TMOV / BSTART.TMOV: each test
asserts its AVS pass condition in our terms (verifier / kernel / decoded block / interpreter).

The AVS programs configure tiles with ``ConfigureTile(id, capacity, rows, cols, valid_rows,
valid_cols, type, ...)`` and call the ASL functions; here the same tiles are ``!pto.tile``
types (capacities raised to a Local TSize where the AVS uses a smaller one) and the calls are
``pto.tsort`` / ``pto.tmov`` programs, run at tile level and as decoded blocks.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs
from conformance.support import bundled, verify_error
from interpreter import NumericStatus, kernels, run
from interpreter.kernels.status import NV
from interpreter.ssa.pto_functions import move_plan
from interpreter.ssa.runner import build_context, parse_module_text
from interpreter.ssa.runtime import TileValue, tile_from_array
from pto_dialect import isa
from pto_dialect.datatypes import TileDataType
from pto_dialect.isa.commands import TMOV_FUNCTIONS
from pto_dialect.tile_move import TMovOp

T = TileDataType


def _tsort(src_t: str, dst_t: str, idx_t: str, width: int, *, desc: bool = False) -> str:
    flag = ", %w" if desc else ""
    return (f"func.func @f(%s: {src_t}{', %w: i64' if desc else ''}) -> ({dst_t}, {idx_t}) {{\n"
            f"  %d, %i = pto.tsort %s{flag} {{sort_width = {width} : i64}} : ({src_t}"
            f"{', i64' if desc else ''}) -> ({dst_t}, {idx_t})\n"
            f"  func.return %d, %i : {dst_t}, {idx_t}\n}}")  # fmt: skip


def _f32(bits) -> np.ndarray:
    return np.array(bits, np.uint32).view(np.float32)


def _run_both(text: str, *args):
    """(values bits, indices) of PE0 at tile level; the decoded block agrees bit for bit."""
    tile = run(text, "f", *args)
    blk = run(bundled(text), "f", *args)
    for a, b in zip(tile, blk):
        assert np.array_equal(a.view(np.uint8), b.view(np.uint8))
    return tile[0][0].view(np.uint32).tolist(), tile[1][0].tolist()


_T84 = ("!pto.tile<8x4xf32, valid=1x4>", "!pto.tile<8x4xf32, valid=1x4>",
        "!pto.tile<8x4xui32, valid=1x4>")  # fmt: skip


@avs("PTO-AVS-TILE-TSORT-KERNEL-001")
def test_tsort_kernel_width_three_and_trailing_group():
    # 3, 1, 2 | 0 with width 3 -> 1, 2, 3 | 0 and indices 1, 2, 0 | 0
    v, i = _run_both(_tsort(*_T84, 3), _f32([[0x40400000, 0x3F800000, 0x40000000, 0]]))
    assert v == [[0x3F800000, 0x40000000, 0x40400000, 0]]
    assert i == [[1, 2, 0, 0]]


@avs("PTO-AVS-TILE-TSORT-BUNDLE-001")
def test_tsort_block_lb0_is_the_width_and_destinations_follow_the_source():
    text = _tsort(*_T84, 3)
    blk = str(bundled(text))
    assert "pto.b.dimi <lb = 0, imm = 3>" in blk and "lb = 1" not in blk and "lb = 2" not in blk
    # the two destinations are the source's shape (8x4 FP32 values, 8x4 U32 indices)
    assert blk.count('size_code = "128B"') == 2
    (v, i) = run(blk, "f", _f32([[0x40400000, 0x3F800000, 0x40000000, 0]]))
    assert v[0].view(np.uint32).tolist() == [[0x3F800000, 0x40000000, 0x40400000, 0]]
    assert i[0].tolist() == [[1, 2, 0, 0]]


@avs("PTO-AVS-TILE-TSORT-GROUPS-001")
def test_tsort_groups_per_row_stable_local_indices():
    src_t = "!pto.tile<16x4xf32, valid=2x4>"
    idx_t = "!pto.tile<16x4xui32, valid=2x4>"
    rows = [[0x40400000, 0x3F800000, 0x40000000, 0], [0x40C00000, 0x40800000, 0x40A00000, 0x40E00000]]
    v, i = _run_both(_tsort(src_t, src_t, idx_t, 3), _f32(rows))
    assert v[0][0] == 0x3F800000 and v[0][2] == 0x40400000 and v[0][3] == 0
    assert v[1][:3] == [0x40800000, 0x40A00000, 0x40C00000]
    assert i[1] == [1, 2, 0, 0]


@avs("PTO-AVS-TILE-TSORT-SNAN-001")
def test_tsort_signalling_nan_sorts_after_numbers():
    t2 = ("!pto.tile<16x2xf32, valid=1x2>", "!pto.tile<16x2xf32, valid=1x2>",
          "!pto.tile<16x2xui32, valid=1x2>")  # fmt: skip
    v, i = _run_both(_tsort(*t2, 2), _f32([[0x7F800001, 0x3F800000]]))
    assert v == [[0x3F800000, 0x7F800001]] and i == [[1, 0]]  # payload kept, source index kept
    for text in (_tsort(*t2, 2), bundled(_tsort(*t2, 2))):  # records NV, tile and block level
        flags = NumericStatus()
        run(text, "f", _f32([[0x7F800001, 0x3F800000]]), flags=flags)
        assert flags.bits == NV


@avs("PTO-AVS-TILE-TSORT-SHAPE-001")
def test_tsort_requires_exact_logical_shapes():
    # 2x2 source, 1x4 destinations: equal element counts, different shapes
    err = verify_error(
        '%s = "test.op"() : () -> !pto.tile<16x2xf32, valid=2x2>\n'
        "%d, %i = pto.tsort %s {sort_width = 2 : i64} : (!pto.tile<16x2xf32, valid=2x2>) -> "
        "(!pto.tile<8x4xf32, valid=1x4>, !pto.tile<8x4xui32, valid=1x4>)")
    assert err is not None and "[TileLegality] result: physical shape 8x4 must be 16x2" in err


def _tsort_legal(src: str, dst: str, idx: str) -> bool:
    err = verify_error(f'%s = "test.op"() : () -> {src}\n'
                       f"%d, %i = pto.tsort %s : ({src}) -> ({dst}, {idx})")  # fmt: skip
    assert err is None or "[TileLegality]" in err, err
    return err is None


@avs("PTO-AVS-TILE-TSORT-TYPES-001")
def test_tsort_types():
    def legal(e: str, rows: int) -> bool:
        t = f"!pto.tile<{rows}x2x{e}, valid=1x2>"
        return _tsort_legal(t, t, f"!pto.tile<{rows}x2xui32, valid=1x2>")

    assert legal("f32", 16) and legal("f16", 32)
    assert not legal("bf16", 32) and not legal("ui16", 32) and not legal("ui64", 16)
    start = isa.BStart.op("TSORT", T.BF16.value)
    iots = [isa.BIot(src0=0, size_code=1, pe_mode=7, dst_hand=0),
            isa.BIot(last=1, size_code=1, pe_mode=7, dst_hand=0)]  # fmt: skip
    with pytest.raises(Exception, match="does not support BF16"):
        isa.check_block([start, *iots, isa.BStop()])


@avs("PTO-AVS-TILE-TSORT-LEGALITY-001")
def test_tsort_canonical_configuration_and_index_type():
    v = "!pto.tile<8x4xf32, valid=1x4>"
    assert _tsort_legal(v, v, "!pto.tile<8x4xui32, valid=1x4>")
    assert not _tsort_legal(v, v, "!pto.tile<8x4xf32, valid=1x4>")


@avs("PTO-AVS-TILE-SORT-ORDER-001")
def test_sort_order_signed_zeros_equal_numbers_before_nans():
    """TileSortLeftBefore through both sorting operations: +0 / -0 keep their order (equal,
    stable), 1 precedes a quiet NaN in both directions, a NaN never precedes 1."""
    f = T.FP32
    pos0, neg0, one, qnan = 0x00000000, 0x80000000, 0x3F800000, 0x7FC00000
    for desc in (0, 1):
        for pair, want in (([pos0, neg0], [pos0, neg0]), ([neg0, pos0], [neg0, pos0]),
                           ([qnan, one], [one, qnan]), ([one, qnan], [one, qnan])):  # fmt: skip
            vals, _ = kernels.KERNELS["TSORT"]([_f32([pair])], [f], f, (1, 2), params=(2, desc))
            assert vals.view(np.uint32).tolist() == [want], (desc, pair)
        merged = kernels.KERNELS["TMRGSORT"]([_f32([[one]]), _f32([[qnan]])], [f, f], f, (1, 2),
                                             params=(desc,))  # fmt: skip
        assert merged.view(np.uint32).tolist() == [[one, qnan]]
    zeros = kernels.KERNELS["TMRGSORT"]([_f32([[pos0]]), _f32([[neg0]])], [f, f], f, (1, 2),
                                        params=(0,))  # fmt: skip
    assert zeros.view(np.uint32).tolist() == [[pos0, neg0]]


# ---------------------------------------------------------------------------------------
# TMOV and BSTART.TMOV
# ---------------------------------------------------------------------------------------


@avs("PTO-AVS-TILE-TMOV-DEFINED-001")
def test_tmov_copies_payload_and_definedness():
    t = "!pto.tile<32x4xui8, valid=1x2>"
    m = parse_module_text(f'%s = "test.op"() : () -> {t}\n%d = pto.tmov %s : ({t}) -> {t}',
                          ctx=build_context())  # fmt: skip
    (op,) = [o for o in m.walk() if isinstance(o, TMovOp)]
    src = tile_from_array(op.src.type, np.array([[7, 0]], np.uint8))
    only_00 = src.defined[0].copy()
    only_00[0, 1] = False  # element (0, 1) never written: undefined
    src = TileValue(src.type, src.payloads, {p: only_00 for p in src.payloads})
    (d,) = move_plan(op)(src)
    for p in d.payloads:
        assert d.payloads[p][0, 0] == 7 and d.defined[p][0, 0] and not d.defined[p][0, 1]
        assert src.payloads[p][0, 0] == 7  # the source persists
    text = f"func.func @f(%s: {t}) -> {t} {{\n  %d = pto.tmov %s : ({t}) -> {t}\n  func.return %d : {t}\n}}"
    (blk,) = run(bundled(text), "f", np.array([[7, 9]], np.uint8))
    assert blk[0].tolist() == [[7, 9]]


def _word(base: int, fields: dict[tuple[int, int], int]) -> int:
    """An AVS instruction word: ``base`` with bit ranges (hi, lo) set."""
    for (hi, lo), v in fields.items():
        base = (base & ~(((1 << (hi - lo + 1)) - 1) << lo)) | (v << lo)
    return base


@avs("PTO-AVS-BLOCK-TMOV-ZERO-001")
def test_tmov_zero_mask_binders_are_a_strict_noop():
    start = _word(0x00911181, {(31, 27): 27})  # TMOV.L2S.INSERT, U8
    local = _word(0x00005013, {(25, 20): 63, (19, 19): 1, (18, 15): 0, (11, 9): 0})
    shared = _word(0x00001013, {(27, 20): 255, (18, 15): 1, (11, 9): 0})
    cmds = [isa.decode(w, strict=True) for w in (start, local, shared)] + [isa.BStop()]
    s = isa.check_block(cmds)  # no fault
    assert s.noop and not s.sources and not s.destinations and not s.shared
    assert s.start.function == 9 and s.start.op_name == "TMOV_L2S_INSERT"


@avs("PTO-AVS-BLOCK-TMOV-FORMS-001")
def test_tmov_five_carriers_decode_to_bstart_tmov():
    names = set()
    for fn_word in (0x00211181, 0x00911181, 0x00A11181, 0x00B11181, 0x00C11181):
        cmd = isa.decode(fn_word, strict=True)
        assert isinstance(cmd, isa.BStart) and cmd.family is isa.BlockFamily.TLSU
        assert cmd.function in TMOV_FUNCTIONS and cmd.op_name.startswith("TMOV")
        names.add(cmd.op_name)
    assert len(names) == 5
