"""pto-tile-to-capacity: capacity (D14), layouts (D10), PEs (D13), instruction counts.

The instruction-count lower bound is ceil(bytes of one operand / (PEs x TSize)): TREM
reads every dividend byte, TGEMV every B byte, through tiles of at most TSize per PE.
"""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lowering_helpers import apply, floor_mod_program, gemv_program, parse

from passes.lowering.tile_plans import (
    LIVE_TILES,
    GemvShape,
    b_tile_limit,
    binary_tile_bytes,
    cover,
    cube_live_bytes,
    family_tile_bytes,
    gemv_lower_bound,
    plan_gemv,
    plan_trem,
    trem_lower_bound,
)
from passes.pto_lower import PTOLowerPass
from passes.pto_tile_to_capacity import PtoTileToCapacityPass, executed_op_counts
from pto_dialect.attributes import TileType
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.geometry import TILE_CAPACITY_BYTES, Layout, Location
from pto_dialect.ops import CUBE_OPS
from tests.budget import examples

# -- cover ------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(extent=st.integers(1, 5000), max_valid=st.integers(1, 300), npe=st.integers(1, 4))
def test_d13_cover_is_exact_and_in_bounds(extent, max_valid, npe):
    """Every element of [0, extent) is covered, slices stay inside, no slice exceeds a tile."""
    runs = cover(extent, max_valid, npe)
    seen = bytearray(extent)
    for r in runs:
        assert 1 <= r.npe <= npe and 1 <= r.valid <= max_valid and r.stride <= r.valid
        for g in range(r.count):
            for q in range(r.npe):
                lo = r.start + g * r.step + q * r.stride
                assert 0 <= lo and lo + r.valid <= extent
                seen[lo : lo + r.valid] = b"\x01" * r.valid
    assert all(seen)
    assert sum(r.count for r in runs) <= math.ceil(extent / (npe * max_valid)) + 1


# -- TREM -------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    elements=st.integers(1, 3_000_000),
    dt=st.sampled_from([T.S32, T.U32, T.FP32, T.S16, T.U16, T.FP16, T.BF16]),
    tile_bytes=st.sampled_from([128, 1024, 65536]),
    npe=st.integers(1, 4),
)
def test_d14_trem_plan_meets_the_lower_bound(elements, dt, tile_bytes, npe):
    """Full tiles are exactly full (Rows = TSize*8/(Col*bits)); the count is the lower bound,
    or one more only when the whole tensor fits in one group without a uniform cover."""
    p = plan_trem(elements, dt, tile_bytes, npe)
    bound = trem_lower_bound(elements, dt, tile_bytes, npe)
    assert p.rows * p.cols == elements and p.cols & (p.cols - 1) == 0
    assert p.tile_rows * p.cols * dt.bits == tile_bytes * 8
    assert p.instructions == bound or (bound == 1 and p.instructions == 2)


EXAMPLES_TREM = [
    ((1000, 777), "i32", "signed", 48),
    ((256, 1000), "i32", "unsigned", 16),
    ((3, 500, 300), "f32", "float", 28),
]


@pytest.mark.parametrize("shape,elt,kind,expect", EXAMPLES_TREM)
def test_examples_trem_instruction_count_is_the_lower_bound(shape, elt, kind, expect):
    """pto-lower keeps the largest TSize whose live set fits the 256 KiB core capacity: a
    TREM holds three tiles on four PEs, so 16 KiB; the count is the bound for that size."""
    m = apply(PTOLowerPass(level="tile"), parse(floor_mod_program(shape, elt, kind)))
    counts = executed_op_counts(m)
    bound = math.ceil(math.prod(shape) * 4 / (4 * 16384))
    assert counts["pto.trem"] == expect == bound
    assert counts["pto.tload"] == 2 * expect and counts["pto.tstore"] == expect


# -- GEMV -------------------------------------------------------------------------------

GEMV_TYPES = {"f16": T.FP16, "bf16": T.BF16, "f8E4M3FN": T.E4M3, "f8E5M2": T.E5M2, "f4E2M1FN": T.E2M1X2}


CUBE_NAMES = frozenset(c.name for c in CUBE_OPS)


def cube_count(counts) -> int:
    return sum(v for k, v in counts.items() if k in CUBE_NAMES)


def _tiles(module):
    for op in module.walk():
        for r in op.results:
            if isinstance(r.type, TileType):
                yield op, r.type


@settings(max_examples=examples(20), deadline=None)
@given(
    k=st.integers(1, 3000),
    n=st.integers(1, 600),
    a=st.sampled_from(sorted(GEMV_TYPES)),
    b=st.sampled_from(sorted(GEMV_TYPES)),
    tile_bytes=st.sampled_from([2048, 8192, 65536]),
    pes=st.integers(1, 4),
    out=st.sampled_from(["f32", "f16", "bf16"]),
)
def test_d10_d14_gemv_tiles_fit_and_verify(k, n, a, b, tile_bytes, pes, out):
    """Every tile fits tile-bytes, A/D are cube_m16 mat, B cube_n8 mat, the rest row-major;
    the lowered module verifies (all TGEMV legality checks) and meets the counted plan."""
    from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass

    # the tiler alone: pto-lower would pick a smaller size when the live set does not fit
    text = gemv_program(k, n, a, b, bias=True, relu=True, out_elt=out)
    m = apply(ConvertLinalgToPtoPass(), parse(text))
    m = apply(PtoTileToCapacityPass(tile_bytes=tile_bytes, pes=pes), m)
    for op, t in _tiles(m):
        assert t.capacity <= tile_bytes
        assert t.pe_mask.count("1") <= pes
        if op.name in CUBE_NAMES:
            assert t.layout_kind is Layout.CUBE_M16 and t.location_kind is Location.MAT
    s = GemvShape(k, n, GEMV_TYPES[a], GEMV_TYPES[b], T.from_ir(out),
                  a not in ("f16", "bf16"), b not in ("f16", "bf16"))
    plan = plan_gemv(s, tile_bytes, pes)
    counts = executed_op_counts(m)
    assert cube_count(counts) == plan.instructions >= gemv_lower_bound(s, tile_bytes, pes)
    # The K chain runs through the ACC forms: one of them per chunk after the first.
    assert sum(counts[n] for n in ("pto.tgemv_acc", "pto.tgemv_mx_acc")) == (
        (plan.nk - 1) * plan.instructions // plan.nk
    )
    assert "linalg.generic" not in str(m)


@pytest.mark.parametrize(
    "k,n,a,b,out,expect,bound",
    [
        (4096, 1024, T.FP16, T.FP16, T.FP16, 64, 64),  # gemv_f16_bias_truncf
        (5000, 1000, T.E4M3, T.E4M3, T.FP32, 40, 39),  # mxfp8_gemv
        (4096, 512, T.E2M1X2, T.FP16, T.FP32, 32, 32),  # mxfp4_f16_gemv
        (16384, 4096, T.E4M3, T.E4M3, T.FP32, 512, 512),
    ],
)
def test_examples_gemv_instruction_count_vs_lower_bound(k, n, a, b, out, expect, bound):
    """On four PEs a B tile takes at most 32 KiB beside the op's other tiles (a 64 KiB one
    would fill the 256 KiB core capacity alone), so the bound is ceil(bytes of B / 128 KiB);
    the plan meets it (mxfp8: the N tail costs one more) and its live set fits."""
    s = GemvShape(k, n, a, b, out, a not in (T.FP16, T.BF16), b not in (T.FP16, T.BF16))
    plan = plan_gemv(s, 65536, 4)
    assert b_tile_limit(s, 65536, 4) == 32768
    assert plan.instructions == expect
    assert gemv_lower_bound(s, 65536, 4) == bound == -(-k * n * s.b.info.carrier_bits // 8
                                                      // (4 * 32768))
    a_chunks = plan.nk if plan.hoist else 1
    assert cube_live_bytes(s, plan.kc, plan.nc, s.acc, plan.nk > 1, 4, plan.layout,
                           a_chunks) <= 256 * 1024


def test_live_set_budget_by_hand():
    """mxfp8_gemv's plan, counted by hand: Kc 1024 (nk 5), Nc 32 per PE. Per PE: A 1x1024
    E4M3 in CUBE_M16 (16 rows: 16 KiB), B 1024x32 (32 KiB), C and D 1x32 FP32 in CUBE_M16
    (16 x 32 x 4 = 2 KiB each), A scale 128 B (one cell), B scale 32x32 E8M0 (1 KiB):
    53.125 KiB; on 4 PEs 212.5 KiB = 217600 B <= 256 KiB. Hoisting the 5 A chunks would
    add 4 x (16 KiB + 128 B) per PE: over the capacity, so they are loaded per N group."""
    s = GemvShape(5000, 1000, T.E4M3, T.E4M3, T.FP32, True, True)
    plan = plan_gemv(s, 65536, 4)
    assert (plan.kc, plan.nk, plan.nc, plan.hoist) == (1024, 5, 32, False)
    per_pe = 16384 + 32768 + 2048 + 2048 + 128 + 1024
    assert cube_live_bytes(s, 1024, 32, T.FP32, True, 4) == 4 * per_pe == 217600
    assert cube_live_bytes(s, 1024, 32, T.FP32, True, 4, a_chunks=5) > 256 * 1024


def _budgeted_gemv(k: int, n: int, a: str, b: str, bias: bool):
    """(plan at 64 KiB, its live-set estimate, the peak pto-assign-registers finds in the
    lowered blocks) of a GEMV program."""
    from xdsl.dialects import func

    from passes.pto_assign_registers import assign_function

    s = GemvShape(k, n, GEMV_TYPES[a], GEMV_TYPES[b], T.FP32,
                  a not in ("f16", "bf16"), b not in ("f16", "bf16"))
    plan = plan_gemv(s, 65536, 4)
    live = cube_live_bytes(s, plan.kc, plan.nc, s.acc, plan.nk > 1, 4, plan.layout,
                           plan.nk if plan.hoist else 1)
    blocks = apply(PTOLowerPass(), parse(gemv_program(k, n, a, b, bias=bias)))
    peak = max(assign_function(fn, None).peak for fn in blocks.walk()
               if isinstance(fn, func.FuncOp))
    return plan, live, peak


@pytest.mark.parametrize("k,n,a,b", [
    (5000, 1000, "f8E4M3FN", "f8E4M3FN"), (4100, 64, "f16", "f16"), (777, 3000, "bf16", "bf16"),
    (8192, 96, "f4E2M1FN", "f16"), (64, 5000, "f8E5M2", "f8E4M3FN"), (40000, 8, "f16", "f16"),
])
def test_pto_lower_keeps_the_budgeted_gemv_plan(k, n, a, b):
    """The plan's own live set fits the core tile capacity, so pto-lower needs no smaller
    tile size: it emits the 64 KiB plan's CUBE count, and the registers it assigns peak
    exactly at the plan's estimate (:func:`cube_live_bytes`) or below."""
    plan, live, peak = _budgeted_gemv(k, n, a, b, bias=True)
    assert peak <= live <= 256 * 1024
    tiled = apply(PTOLowerPass(level="tile"), parse(gemv_program(k, n, a, b, bias=True)))
    assert cube_count(executed_op_counts(tiled)) == plan.instructions


@settings(max_examples=examples(8), deadline=None)
@given(
    k=st.one_of(st.integers(1, 300), st.integers(300, 12000)),
    n=st.one_of(st.integers(1, 64), st.integers(64, 3000)),
    pair=st.sampled_from([("f16", "f16"), ("bf16", "bf16"), ("f8E4M3FN", "f8E4M3FN"),
                          ("f4E2M1FN", "f16"), ("f8E5M2", "f8E4M3FN")]),
    bias=st.booleans(),
)
def test_the_live_set_estimate_bounds_the_assigned_peak(k, n, pair, bias):
    """Property: for any GEMV, the plan's estimate of one op's live tiles fits the core
    capacity and bounds the peak that pto-assign-registers finds in the lowered blocks (the
    whole program fits at the first size: no retry shrinks it)."""
    a, b = pair
    k += k % 2 if a.startswith("f4") else 0
    _, live, peak = _budgeted_gemv(k, n, a, b, bias)
    assert peak <= live <= 256 * 1024


@pytest.mark.parametrize("pes,tsize", [(4, 16384), (2, 32768), (1, 65536)])
def test_trem_tiles_fit_the_capacity_with_their_operands(pes, tsize):
    """A TREM holds two sources and its result, one size, on its PEs: the tiler alone caps
    them at the largest TSize with 3 x PEs x TSize <= 256 KiB, and the blocks fit."""
    from xdsl.dialects import func

    from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass
    from passes.pto_assign_registers import assign_function
    from passes.pto_form_blocks import PTOFormBlocksPass

    assert binary_tile_bytes(65536, pes) == tsize
    m = apply(ConvertLinalgToPtoPass(), parse(floor_mod_program((1000, 777), "i32", "signed")))
    m = apply(PtoTileToCapacityPass(pes=pes), m)
    assert max(t.capacity for _, t in _tiles(m)) == tsize
    assert executed_op_counts(m)["pto.trem"] == trem_lower_bound(777000, T.S32, tsize, pes)
    m = apply(PTOFormBlocksPass(), m)
    peak = max(assign_function(fn, None).peak for fn in m.walk() if isinstance(fn, func.FuncOp))
    assert peak == 3 * pes * tsize


def test_a_floor_mod_beside_a_gemv_does_not_shrink_the_gemv():
    """pto-lower shrinks the other families' tiles before the CUBE ones (their plan budgets
    its own live set): a TREM on 1000 x 777 i32 needs 16 KiB tiles (three 64 KiB tiles on
    four PEs overflow 256 KiB), while the MXFP8 GEMV in the same module keeps its 40 TGEMVs
    (with one tile size for both it took 79)."""
    gemv = gemv_program(5000, 1000, "f8E4M3FN", "f8E4M3FN", bias=True)
    fm = floor_mod_program((1000, 777), "i32", "signed").replace("@f(", "@fm(")
    m = apply(PTOLowerPass(level="tile"), parse(gemv + fm))
    counts = executed_op_counts(m)
    s = GemvShape(5000, 1000, T.E4M3, T.E4M3, T.FP32, True, True)
    assert cube_count(counts) == plan_gemv(s, 65536, 4).instructions == 40
    assert counts["pto.trem"] == trem_lower_bound(1000 * 777, T.S32, 16384, 4) == 48


def test_big_mxfp8_gemv_ir_is_small_and_compiles_fast():
    """16384 x 4096 MXFP8: 512 TGEMVs (the bound for the 32 KiB B tiles whose op's live set
    fits the core tile capacity) from a few KB of IR, fast."""
    text = gemv_program(16384, 4096, "f8E4M3FN", "f8E4M3FN")
    module = parse(text)
    t0 = time.perf_counter()
    out = apply(PTOLowerPass(level="tile"), module)
    elapsed = time.perf_counter() - t0
    printed = str(out)
    assert len(printed.encode()) < 16_000, len(printed)
    assert elapsed < 5.0, elapsed
    counts = executed_op_counts(out)
    assert cube_count(counts) == 16384 * 4096 // (4 * 32768)
    # 16 K chunks of 1024 (B 1024x32 f8 per PE = 32 KiB) chained through TGEMVMX (no bias
    # in this program) and 15 TGEMVMX.ACC per N group of 128 columns; one store per group;
    # A, its scale, B and B's scale loaded per op (A held across the loop would not fit).
    assert counts["pto.tgemv_mx"] == 32 and counts["pto.tgemv_mx_acc"] == 480
    assert counts["pto.tstore"] == 32
    assert counts["pto.tload"] == 4 * 512


def test_d15_a2a3_tiles_fp16_gemv_with_the_ordinary_forms_and_leaves_mx():
    """D15: a2a3 has no MX CUBE function, but TGEMV / TGEMV.ACC (FP16 x FP16) are legal."""
    from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass

    m = apply(ConvertLinalgToPtoPass(), parse(gemv_program(3000, 16, "f16", "f16")))
    out = str(apply(PtoTileToCapacityPass(target="a2a3"), m))
    assert "pto.gemv" not in out and "pto.tgemv_acc" in out and "_mx" not in out
    m = apply(ConvertLinalgToPtoPass(), parse(gemv_program(64, 16, "f8E4M3FN", "f16")))
    out = str(apply(PtoTileToCapacityPass(target="a2a3"), m))
    assert "pto.gemv" in out and "pto.tgemv" not in out


@pytest.mark.parametrize("opts", [dict(tile_bytes=1000), dict(tile_bytes=131072), dict(pes=0), dict(pes=5)])
def test_bad_options_are_clear_errors(opts):
    from xdsl.utils.exceptions import PassFailedException

    with pytest.raises(PassFailedException, match="tile-bytes|pes"):
        apply(PTOLowerPass(level="tile", **opts), parse(floor_mod_program((4,), "i32", "signed")))


_FAMILY_PROGRAMS = {
    # family: (the op on big tensors, its argument types); every tile of the op at most the
    # family's budget, and the op alone fits the core tile capacity on four PEs
    "map": ("%r = pto.map neg %a : tensor<512x512xf32>", ["tensor<512x512xf32>"]),
    "convert": ("%r = pto.convert %a : tensor<512x512xf32> -> tensor<512x512xf16>",
                ["tensor<512x512xf32>"]),
    "cmpsel": ("%r = pto.cmpsel lt %a, %b, %a, %b : (tensor<262144xf32>, tensor<262144xf32>, "
               "tensor<262144xf32>, tensor<262144xf32>) -> tensor<262144xf32>",
               ["tensor<262144xf32>", "tensor<262144xf32>"]),
    "reduce": ("%r = pto.reduce rowsum %a : (tensor<512x512xf32>) -> tensor<512x1xf32>",
               ["tensor<512x512xf32>"]),
    "expand": ("%r = pto.expand row div %a, %b : (tensor<512x512xf32>, tensor<512x1xf32>) "
               "-> tensor<512x512xf32>", ["tensor<512x512xf32>", "tensor<512x1xf32>"]),
    "transpose": ("%r = pto.transpose %a : (tensor<512x512xf32>) -> tensor<512x512xf32>",
                  ["tensor<512x512xf32>"]),
}


@pytest.mark.parametrize("pes,budgets", [
    (4, {"binary": 16384, "map": 32768, "convert": 32768, "cmpsel": 16384, "reduce": 32768,
         "expand": 16384, "transpose": 32768}),
    (2, {"binary": 32768, "map": 65536, "convert": 65536, "cmpsel": 32768, "reduce": 65536,
         "expand": 32768, "transpose": 65536}),
    (1, dict.fromkeys(("binary", "map", "convert", "cmpsel", "reduce", "expand",
                       "transpose"), 65536)),
])
def test_family_budgets_by_hand(pes, budgets):
    """LIVE_TILES x PEs x TSize <= 256 KiB, the largest TSize up to 64 KiB: three or four
    tiles on four PEs take 16 KiB, two take 32 KiB."""
    assert {f: family_tile_bytes(f, 65536, pes) for f in LIVE_TILES} == budgets


@pytest.mark.parametrize("family", sorted(_FAMILY_PROGRAMS))
def test_each_family_op_fits_the_capacity_by_itself(family):
    """The tiler alone (no pto-lower retry) keeps one op of every family within the core
    tile capacity on four PEs: its tiles take at most the family's budget, and the blocks'
    peak (pto-assign-registers) stays within 256 KiB. With 64 KiB tiles for these families
    (before their budgets), the same ops peaked at 262,656 B (reduce) to 851,968 B
    (cmpsel) and needed pto-lower's retry."""
    from xdsl.dialects import func

    from passes.pto_assign_registers import assign_function
    from passes.pto_form_blocks import PTOFormBlocksPass

    body, args = _FAMILY_PROGRAMS[family]
    result = body.rsplit("-> ", 1)[-1] if "->" in body else body.rsplit(": ", 1)[-1]
    params = ", ".join(f"%{n}: {t}" for n, t in zip("ab", args))
    text = (f"func.func @f({params}) -> {result} {{\n  {body}\n"
            f"  func.return %r : {result}\n}}\n")
    m = apply(PtoTileToCapacityPass(), parse(text))
    sizes = [t.capacity for _, t in _tiles(m) if isinstance(t, TileType)]
    assert sizes and max(sizes) == family_tile_bytes(family, 65536, 4)
    m = apply(PTOFormBlocksPass(), m)
    peak = max(assign_function(fn, None).peak for fn in m.walk() if isinstance(fn, func.FuncOp))
    assert 0 < peak <= TILE_CAPACITY_BYTES
