"""AVS pass conditions (D17) about operand contracts of the elementwise, generator, matrix
and memory operations (``tests/asl/tile/**``): definedness, layouts, shapes, closed binding
schemas, destination capacity, source encodings, NaN/zero selection, matrix index rules and
direct TLOAD/TSTORE, through the verifier, the block checker, the kernels and
``interpreter.run``.

The alias tests (a destination naming a source tile) are in ``test_avs_alias.py``: they name
architectural tile IDs, which ``interpreter.machine.tile_registers`` models."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs
from conformance.support import verify_error
from interpreter import NumericStatus, kernels, run
from interpreter.kernels.status import NV, recording
from pto_dialect import isa
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault

T = TileDataType
K = kernels.KERNELS
UNARY = ["TABS", "TNEG", "TNOT", "TRELU"]


def fault_kind(fn, *args, **kw) -> str | None:
    try:
        fn(*args, **kw)
    except PTOFault as e:
        return e.kind
    return None


def block(op: str, dt: TileDataType, *body: isa.Command) -> list[isa.Command]:
    return [isa.BStart.op(op, dt.value), *body, isa.BStop()]


def dst(size_code: int = 1, src0: int | None = None, pe_mode: int = 7) -> isa.BIot:
    """A terminating B.IOT with a destination (hand T)."""
    return isa.BIot(src0=src0, last=1, size_code=size_code, pe_mode=pe_mode, dst_hand=0)


# ---- definedness ------------------------------------------------------------------------
UNWRITTEN = {  # op: (operand list with %u the never-written tile, result type)
    "TADD": ("%a, %u", "{t}"), "TMAX": ("%a, %u", "{t}"), "TMIN": ("%a, %u", "{t}"),
    "TFMA": ("%a, %a, %u", "{t}"), "TABS": ("%u", "{t}"), "TNEG": ("%u", "{t}"),
    "TNOT": ("%u", "{t}"), "TRELU": ("%u", "{t}"),
}  # fmt: skip


def _unwritten_program(op: str) -> str:
    """``%u`` is the result of a zero-mask operation: a strict no-op, so the tile is never
    written (allocated nowhere, contents undefined)."""
    t = "!pto.tile<8x16xsi32>"
    srcs, _ = UNWRITTEN[op]
    n = srcs.count("%")
    types = ", ".join([t] * n)
    return f"""func.func @f(%a: {t}) -> {t} {{
  %u = "pto.tabs"(%a) <{{mask = #pto.mask<0000>}}> : ({t}) -> {t}
  %r = "pto.{op.lower()}"({srcs}) : ({types}) -> {t}
  func.return %r : {t}
}}"""


@avs("PTO-AVS-TILE-TADD-DEFINEDNESS-001", "PTO-AVS-TILE-TMAX-DEFINED-001",
     "PTO-AVS-TILE-TMIN-DEFINED-001", "PTO-AVS-TILE-TFMA-DEFINED-001",
     *(f"PTO-AVS-TILE-{m}-DEFINED-001" for m in UNARY))  # fmt: skip
@pytest.mark.parametrize("op", list(UNWRITTEN))
def test_undefined_source_is_rejected(op):
    """A source that was never written (its right / addend / only operand) makes operand
    legality false: TileLegality before any result exists (ASL operand-schema.asl)."""
    with pytest.raises(PTOFault) as e:
        run(_unwritten_program(op), "f", np.ones((8, 16), np.int32))
    assert e.value.kind == "TileLegality" and e.value.op == f"pto.{op.lower()}"


# ---- layout and shape (static operand legality) -----------------------------------------
@avs(*(f"PTO-AVS-TILE-{m}-LAYOUT-001" for m in UNARY))
@pytest.mark.parametrize("op", UNARY)
def test_unary_rejects_column_major(op):
    t = "!pto.tile<16x8xsi8, col_major>"
    msg = verify_error(f'%a = "test.op"() : () -> {t}\n%r = "pto.{op.lower()}"(%a) : ({t}) -> {t}')
    assert msg is not None and "[TileLegality]" in msg


@avs(*(f"PTO-AVS-TILE-{m}-SHAPE-001" for m in UNARY))
@pytest.mark.parametrize("op", UNARY)
def test_unary_destination_shape_must_match(op):
    """A destination with a different physical column count (32x4 for a 16x8 source, both
    128 B) is illegal; the matching 16x8 one verifies."""
    src = "!pto.tile<16x8xsi8>"
    for res, ok in ((src, True), ("!pto.tile<32x4xsi8>", False)):
        msg = verify_error(f'%a = "test.op"() : () -> {src}\n'
                           f'%r = "pto.{op.lower()}"(%a) : ({src}) -> {res}')  # fmt: skip
        assert (msg is None) == ok, msg
        assert ok or "[TileLegality]" in msg


@avs("PTO-AVS-TILE-TFMA-OPERANDS-001")
def test_tfma_operands_match_row_major():
    """Four matching row-major descriptors are legal; a column-major addend is not."""
    t, c = "!pto.tile<1x16xui64>", "!pto.tile<1x16xui64, col_major>"
    head = f'%a = "test.op"() : () -> {t}\n%c = "test.op"() : () -> {c}\n'
    assert verify_error(head + f'%r = "pto.tfma"(%a, %a, %a) : ({t}, {t}, {t}) -> {t}') is None
    msg = verify_error(head + f'%r = "pto.tfma"(%a, %a, %c) : ({t}, {t}, {c}) -> {t}')
    assert msg is not None and "[TileLegality]" in msg


@avs("PTO-AVS-TILE-TCI-SHAPE-001", "PTO-AVS-TILE-TTRI-SHAPE-001")
def test_generator_descriptors():
    """TCI: a one-row U16 destination is legal, two valid rows, U8 and column-major are not;
    TTRI: FP16 row-major is legal, U8 and column-major are not."""
    cases = [
        ("tci", "!pto.tile<16x4xui16, valid=1x2>", True),
        ("tci", "!pto.tile<16x4xui16, valid=2x2>", False),
        ("tci", "!pto.tile<32x4xui8, valid=1x2>", False),
        ("tci", "!pto.tile<16x4xui16, valid=1x2, col_major>", False),
        ("ttri", "!pto.tile<8x16xf16, valid=2x3>", True),
        ("ttri", "!pto.tile<8x16xui8, valid=2x3>", False),
        ("ttri", "!pto.tile<8x16xf16, valid=2x3, col_major>", False),
    ]
    for op, res, ok in cases:
        msg = verify_error(f"%r = pto.{op} : () -> {res}")
        assert (msg is None) == ok, (op, res, msg)
        assert ok or "[TileLegality]" in msg


# ---- block schemas and destination capacity ---------------------------------------------
@avs(*(f"PTO-AVS-TILE-{m}-SCHEMA-001" for m in UNARY))
@pytest.mark.parametrize("op", UNARY)
def test_unary_split_binding_is_tile_legality(op):
    """One terminating Local B.IOT binds source and destination; splitting them over two
    B.IOTs is TileLegality at completion, before any effect (ASL
    SelectedBundleClosedUnarySchemaLegal)."""
    lb0 = isa.CBDimi(0, 1)
    assert isa.check_block(block(op, T.U64, lb0, dst(src0=1)))
    split = block(op, T.U64, lb0, isa.BIot(src0=1), dst())
    assert fault_kind(isa.check_block, split) == "TileLegality"


@avs(*(f"PTO-AVS-TILE-{m}-CAPACITY-001" for m in UNARY), "PTO-AVS-TILE-TFMA-CAPACITY-001")
@pytest.mark.parametrize("op", [*UNARY, "TFMA"])
def test_destination_capacity(op):
    """A destination shape larger than its SizeCode is TileAllocation before allocation or
    source access: U64 1 x 32 (LB0 17, LB2 32) needs 256 B of a 128 B SizeCode 1; TFMA
    U64 2 x 128 needs 2 KiB. The same shape in SizeCode 2 (256 B) fits."""
    if op == "TFMA":
        dims = [isa.CBDimi(0, 128), isa.CBDimi(1, 2), isa.CBDimi(2, 128)]
        def bind(sc):
            return [isa.BIot(src0=1, src1=2), dst(sc, src0=3)]
        fits = 5
    else:
        dims = [isa.CBDimi(0, 17), isa.CBDimi(2, 32)]
        def bind(sc):
            return [dst(sc, src0=1)]
        fits = 2
    assert fault_kind(isa.check_block, block(op, T.U64, *dims, *bind(1))) == "TileAllocation"
    assert isa.check_block(block(op, T.U64, *dims, *bind(fits))).dims[1] in (1, 2)


@avs("PTO-AVS-TILE-TFMA-DATR-001")
def test_tfma_datr_pad_only():
    """TFMA accepts the PadValue member of B.DATR only: CMode, Sat, Canonicalize, DataType,
    RMode and Layout are TileLegality."""
    assert isa.TEPL_BY_NAME["TFMA"].datr_fields == "P"
    body = [isa.CBDimi(0, 1), isa.BIot(src0=1, src1=2), dst(src0=3)]
    assert isa.check_block(block("TFMA", T.FP32, isa.BDatr(dtype=0, pad=1), *body))
    for field in ("cmode", "sat", "canonicalize", "dtype", "rmode", "layout"):
        datr = isa.BDatr(**{"dtype": 0, "pad": 1, field: 1})
        assert fault_kind(isa.check_block, block("TFMA", T.FP32, datr, *body)) == "TileLegality"


@avs("PTO-AVS-TILE-TFMA-MASK-ZERO-001")
def test_tfma_zero_mask_is_a_strict_noop():
    """A zero-mask TFMA binding completes with no dimensions, schema or allocation checks,
    and at tile level leaves its result unallocated and records no numeric status (its
    signalling-NaN operands would record NV if anything were computed)."""
    assert isa.check_block(block("TFMA", T.FP32, isa.BIot(src0=1, src1=2, pe_mode=0))).noop
    t = "!pto.tile<4x8xf32, valid=1x8>"
    text = (f'func.func @f(%a: {t}) -> {t} {{\n  %r = "pto.tfma"(%a, %a, %a) <{{mask = '
            f"#pto.mask<0000>}}> : ({t}, {t}, {t}) -> {t}\n  func.return %r : {t}\n}}")  # fmt: skip
    flags = NumericStatus()
    snan = np.full((1, 8), 0x7F800001, np.uint32).view(np.float32)
    with pytest.raises(PTOFault, match="not allocated"):
        run(text, "f", snan, flags=flags)
    assert flags.bits == 0


@avs("PTO-AVS-TILE-TMATMUL-ACC-INDEX-002", "PTO-AVS-TILE-TMATMUL-MX-ACC-INDEX-002")
@pytest.mark.parametrize("fn", ["TMATMUL_ACC", "TMATMUL_MX_ACC"])
def test_accumulator_and_destination_are_distinct(fn):
    """PTO-CUBE-ACCUMULATOR-OUTPUT-001: C and D must be distinct. Our tile IR is SSA, so D is
    always a new value; at block level (ASL BundleMatrixAccumulatorDestinationIndicesDistinct)
    C's selector equal to the destination hand is TileLegality before any effect."""
    start = isa.BStart.op(fn, T.FP16.value)

    def blk(c: int):
        return [start, isa.BFpatr(), isa.BIot(src0=c, src1=5), isa.BIot(src0=6, last=1,
                size_code=2, dst_hand=2)]  # fmt: skip

    assert isa.check_block([*blk(1), isa.BStop()])
    with pytest.raises(PTOFault) as e:
        isa.check_block([*blk(2), isa.BStop()])
    assert e.value.kind == "TileLegality" and "distinct" in e.value.message


# ---- source encodings, NaN and signed-zero selection ------------------------------------
TF32_BAD = np.array([[0x3F800001]], np.uint32).view(np.float32)


@avs("PTO-AVS-TILE-TMAX-ENCODING-001", "PTO-AVS-TILE-TMIN-ENCODING-001",
     "PTO-AVS-TILE-TFMA-ENCODING-001")  # fmt: skip
def test_tf32_discarded_fraction_bits_reject():
    """A TF32 source with nonzero discarded fraction bits is TileLegality before any
    result (ASL TileSourceEncodingsValid)."""
    one = np.ones((1, 1), np.float32)
    for op in ("TMAX", "TMIN"):
        kind = fault_kind(kernels.binary_tile, kernels.BINARY_ROWS[op], TF32_BAD, one, None,
                          "null", "TF32")  # fmt: skip
        assert kind == "TileLegality", op
    assert fault_kind(K["TFMA"], one, one, TF32_BAD, None, "null", T.TF32) == "TileLegality"


def _bits(op: str, a: int, b: int) -> int:
    x, y = (np.array([[v]], np.uint32).view(np.float32) for v in (a, b))
    out, _ = kernels.binary_tile(kernels.BINARY_ROWS[op], x, y, None, "null")
    return int(out.view(np.uint32)[0, 0])


ONE, QNAN, QNAN1, SNAN, PZ, NZ = 0x3F800000, 0x7FC00000, 0x7FC00001, 0x7F800001, 0, 0x80000000


def _invalid(op: str, a: int, b: int) -> bool:
    """The value-level invalid flag of FP32 ``a op b`` (``TileFloatingMinMaxValue``), read as
    the tile-scalar form records it (``ExecuteTileScalar`` ORs the element flags in)."""
    x = np.array([[a]], np.uint32).view(np.float32)
    with recording() as st:
        K[op + "S"](x, b, None)
    assert st.bits in (0, NV)
    return st.bits == NV


@avs("PTO-AVS-TILE-TMAX-NAN-001", "PTO-AVS-TILE-TMIN-NAN-001")
@pytest.mark.parametrize("op", ["TMAX", "TMIN"])
def test_nan_selection(op):
    """One NaN returns the numeric operand (either order, signalling too); two NaNs return the
    canonical quiet NaN 0x7FC00000; only a signalling NaN reports invalid (NV). The tile-tile
    form records nothing (``ExecuteTileBinary`` discards the element flags)."""
    for nan in (QNAN1, SNAN):
        assert _bits(op, nan, ONE) == ONE and _bits(op, ONE, nan) == ONE
    assert _bits(op, QNAN1, QNAN1) == QNAN
    assert not _invalid(op, QNAN1, ONE) and not _invalid(op, QNAN1, QNAN1)
    assert _invalid(op, SNAN, ONE) and _invalid(op, ONE, SNAN)
    with recording() as st:
        _bits(op, SNAN, ONE)
    assert st.bits == 0


@avs("PTO-AVS-TILE-TMAX-ZERO-001", "PTO-AVS-TILE-TMIN-ZERO-001")
def test_signed_zero_ties():
    """MAX of mixed zeros is +0 and of two -0 is -0; MIN of mixed zeros is -0 and of two +0
    is +0, in either operand order."""
    for a, b in ((PZ, NZ), (NZ, PZ)):
        assert _bits("TMAX", a, b) == PZ and _bits("TMIN", a, b) == NZ
    assert _bits("TMAX", NZ, NZ) == NZ and _bits("TMIN", PZ, PZ) == PZ


@avs("PTO-AVS-TILE-TFMA-PROFILE-INVALID-001")
@pytest.mark.parametrize("abc", [(SNAN, ONE, PZ), (PZ, 0x7F800000, ONE)])
def test_tfma_invalid_is_a_quiet_nan(abc):
    """sNaN x 1 + 0 and 0 x inf + 1 are invalid: the profile returns a quiet NaN (payload
    not normative) and records exactly NV."""
    x, y, z = (np.array([[v]], np.uint32).view(np.float32) for v in abc)
    with recording() as st:
        out, _ = K["TFMA"](x, y, z, None)
    bits = int(out.view(np.uint32)[0, 0])
    assert np.isnan(out[0, 0]) and bits & 0x00400000
    assert st.bits == NV


# ---- matrix -----------------------------------------------------------------------------
@avs("PTO-AVS-TILE-TGEMV-ROW-001")
def test_tgemv_row():
    """A 1x2 U16 vector times a 2x2 U16 matrix gives one U32 row: [2, 3] x [[5, 7], [11, 13]]
    = [43, 53]."""
    d = kernels.cube_matrix("TGEMV", np.array([[2, 3]], np.uint16),
                            np.array([[5, 7], [11, 13]], np.uint16))  # fmt: skip
    d = d[0] if isinstance(d, tuple) else d
    assert d.dtype == np.uint32 and d.tolist() == [[43, 53]]


# ---- direct TLOAD / TSTORE --------------------------------------------------------------
TILE_U64 = "!pto.tile<16x2xui64, valid=2x2>"
MEM = "tensor<2x4xi64>"


@avs("PTO-AVS-TILE-TLOAD-DIRECT-001", "PTO-AVS-TILE-TSTORE-DIRECT-001")
def test_direct_load_and_store_with_row_stride():
    """TLOAD reads the 2x2 valid rectangle at the base and one row stride (four U64 elements
    of a row pitch 4) into a defined tile; TSTORE writes them back at the strided positions,
    leaving the rest of memory and the source tile unchanged."""
    text = f"""func.func @f(%m: {MEM}, %o: {MEM}) -> ({TILE_U64}, {MEM}) {{
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = pto.tload %m[%c0, %c0] {{pe_stride = [0, 0]}} : {MEM} -> {TILE_U64}
  %s = pto.tstore %t, %o[%c0, %c2] {{pe_stride = [0, 0]}} : {TILE_U64} -> {MEM}
  func.return %t, %s : {TILE_U64}, {MEM}
}}"""
    mem = np.array([[1, 2, 8, 8], [3, 4, 8, 8]], np.int64)
    out = np.full((2, 4), 9, np.int64)
    tile_, stored = run(text, "f", mem, out)
    assert tile_[0].tolist() == [[1, 2], [3, 4]]
    assert stored.tolist() == [[9, 9, 1, 2], [9, 9, 3, 4]]
    assert out.tolist() == [[9] * 4] * 2 and mem[0].tolist() == [1, 2, 8, 8]


def test_tstore_footprint_preflight():
    """A store whose second element falls outside memory (a run-time column offset) faults
    before the first element is written: the memory and the source tile are unchanged; the
    same store in range writes both elements."""
    t = "!pto.tile<16x2xui64, valid=1x2>"
    m = "tensor<1x4xi64>"
    text = f"""func.func @f(%m: {m}, %o: {m}, %j: index) -> ({m}, {t}) {{
  %c0 = arith.constant 0 : index
  %t = pto.tload %m[%c0, %c0] {{pe_stride = [0, 0]}} : {m} -> {t}
  %s = pto.tstore %t, %o[%c0, %j] {{pe_stride = [0, 0]}} : {t} -> {m}
  func.return %s, %t : {m}, {t}
}}"""
    mem = np.array([[21, 22, 0, 0]], np.int64)
    out = np.full((1, 4), 9, np.int64)
    with pytest.raises(PTOFault) as e:
        run(text, "f", mem, out, 3)
    assert e.value.kind == "TileLegality" and e.value.op == "pto.tstore"
    assert out.tolist() == [[9, 9, 9, 9]] and mem.tolist() == [[21, 22, 0, 0]]
    stored, src = run(text, "f", mem, out, 2)
    assert stored.tolist() == [[9, 9, 21, 22]] and src[0].tolist() == [[21, 22]]


# ---- MX operand types and scales ---------------------------------------------------------
def _mx_block(fn: str, a: TileDataType, b: TileDataType, count: int) -> list[isa.Command]:
    """An MX block (AType ``a``, B.DATR BType ``b``) binding ``count`` Local sources."""
    srcs = list(range(4, 4 + count))
    iots = [isa.BIot(src0=srcs[j], src1=srcs[j + 1] if j + 1 < count else None)
            for j in range(0, count - 1, 2)]  # fmt: skip
    last = isa.BIot(src0=srcs[-1] if count % 2 else None, last=1, size_code=2, dst_hand=2)
    return [isa.BStart.op(fn, a.value), isa.BDatr(dtype=b.value), isa.BFpatr(), *iots, last,
            isa.BStop()]  # fmt: skip


@avs("PTO-AVS-TILE-TMATMUL-MX-TYPES-001")
def test_mx_input_types_and_source_counts():
    """FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2 are MX inputs (only the FP8/FP4 ones need an
    E8M0 scale), HiF4X2 is not; mixed pairs are legal; the Local source count is 2 + one per
    scaled side (+ C for the ACC form): FP16 x BF16 2, E4M3 x BF16 3, FP16 x E1M2X2 3,
    ACC E4M3 x E1M2X2 5, checked on the block's binding stream."""
    from pto_dialect.datatypes import MX_INPUT_TYPES, mx_needs_scale

    scaled = {T.E4M3, T.E5M2, T.E2M1X2, T.E1M2X2}
    assert {T.FP16, T.BF16} | scaled <= MX_INPUT_TYPES and T.HIF4X2 not in MX_INPUT_TYPES
    assert all(mx_needs_scale(t) == (t in scaled) for t in (T.FP16, T.BF16, *scaled))
    for fn, a, b, n in (("TMATMUL_MX", T.FP16, T.BF16, 2), ("TMATMUL_MX", T.E4M3, T.BF16, 3),
                        ("TMATMUL_MX", T.FP16, T.E1M2X2, 3),
                        ("TMATMUL_MX_ACC", T.E4M3, T.E1M2X2, 5)):  # fmt: skip
        assert isa.check_block(_mx_block(fn, a, b, n)), (fn, a, b)
        assert fault_kind(isa.check_block, _mx_block(fn, a, b, n + 1)) == "TileLegality"
    pair = isa.BStart.op("TMATMUL_MX", T.HIF4X2.value)
    assert fault_kind(isa.check_block, [pair, isa.BDatr(dtype=T.E2M1X2.value), isa.BFpatr(),
                                        isa.BIot(src0=4, src1=5, last=1, size_code=2,
                                                 dst_hand=2), isa.BStop()]) is not None  # fmt: skip


@avs("PTO-AVS-TILE-TMATMUL-MX-SCALE-001")
def test_mx_optional_scales():
    """FP16 operands take no scales (a left scale is illegal); E4M3 operands take both (an
    absent left scale is illegal)."""
    f16 = np.zeros((1, 2), np.float16), np.zeros((2, 2), np.float16)
    kernels.cube_matrix("TMATMUL_MX", *f16)
    sa, sb = np.full((1, 1), 127, np.uint8), np.full((1, 2), 127, np.uint8)
    assert fault_kind(kernels.cube_matrix, "TMATMUL_MX", *f16, a_scale=sa) == "TileLegality"
    e4 = np.zeros((1, 2), np.uint8), np.zeros((2, 2), np.uint8)
    kw = {"a_type": "E4M3", "b_type": "E4M3"}
    kernels.cube_matrix("TMATMUL_MX", *e4, a_scale=sa, b_scale=sb, **kw)
    assert fault_kind(kernels.cube_matrix, "TMATMUL_MX", *e4, b_scale=sb, **kw) == "TileLegality"
