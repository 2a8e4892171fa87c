"""AVS pass conditions about a destination aliasing a source (D17): the ``*-ALIAS-001`` tests of
the elementwise families and the migrated ``TestTileElementwiseAndAliasing`` suite.

Those tests name architectural tile IDs (``InstructionContractExecute_TMUL(0, 0, 1)``): the
tile-instruction level, which :class:`interpreter.machine.tile_registers.TileRegisters` models (read
every source, then write; faults before effects). A *block* never aliases: its destination is a
hand resolved to an unallocated register (asl/block/model/dispatch/destination-shape.asl), which
``test_blocks_never_alias`` checks on the blocks our passes form and run.

Expected values are hand-derived from the AVS tests; the family-wide property compares an
aliased execution with the same instruction writing a fresh register.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from conformance.inventory import avs, avs_cases
from conformance.support import bundled, run_both_levels
from interpreter import run
from interpreter.machine.tile_registers import DISTINCT, Scalar, TileRegisters
from interpreter.ssa.runner import build_context
from pto_dialect import isa
from pto_dialect.block_ops import BlockOp
from pto_dialect.faults import PTOFault

CTX = build_context()


def ty(text: str):
    return Parser(CTX, text).parse_type()


def regs(*tiles: tuple[str, object]) -> TileRegisters:
    """Tiles 0, 1, ... configured with (type, valid-rectangle values)."""
    r = TileRegisters()
    for i, (t, v) in enumerate(tiles):
        r.configure(i, ty(t), v)
    return r


def word(r: TileRegisters, i: int, dtype=np.uint64) -> list:
    """PE0's valid rectangle of tile ``i`` as raw words (``dtype`` of the element width)."""
    return r.read(i)[0].view(dtype).ravel().tolist()


U64_1x2 = "!pto.tile<16x2xui64, valid=1x2>"
U64_1 = "!pto.tile<16x1xui64, valid=1x1>"
S8 = "!pto.tile<128x1xsi8, valid=1x1>"
U8 = "!pto.tile<128x1xui8, valid=1x1>"
F32 = "!pto.tile<32x1xf32, valid=1x1>"


def _u64(*v):
    return np.array([list(v)], np.uint64)


def _bits32(v):
    return np.array([[v]], np.uint32).view(np.float32)


# ---- the AVS alias tests: (tiles, instruction, expected raw words per tile) ---------------
ALIAS_CASES = {
    # both sources snapshotted before the destination (the left source) is written
    "PTO-AVS-TILE-TMUL-ALIAS-001": ([(U64_1x2, _u64(3, 5)), (U64_1x2, _u64(7, 11))],
                                    ("pto.tmul", 0, 0, 1), {0: [21, 55], 1: [7, 11]}),
    "PTO-AVS-TILE-TMAX-ALIAS-001": ([(U64_1, _u64(3)), (U64_1, _u64(5))],
                                    ("pto.tmax", 0, 0, 1), {0: [5], 1: [5]}),
    "PTO-AVS-TILE-TMIN-ALIAS-001": ([(U64_1, _u64(3)), (U64_1, _u64(5))],
                                    ("pto.tmin", 0, 0, 1), {0: [3], 1: [5]}),
    # 2 * 3 + 4 from the old left payload; the other two sources persist
    "PTO-AVS-TILE-TFMA-ALIAS-001": ([(U64_1, _u64(2)), (U64_1, _u64(3)), (U64_1, _u64(4))],
                                    ("pto.tfma", 0, 0, 1, 2), {0: [10], 1: [3], 2: [4]}),
    "PTO-AVS-TILE-TABS-ALIAS-001": ([(S8, np.array([[-1]], np.int8))], ("pto.tabs", 0, 0),
                                    {0: [1]}),
    "PTO-AVS-TILE-TNEG-ALIAS-001": ([(U8, np.array([[1]], np.uint8))], ("pto.tneg", 0, 0),
                                    {0: [0xFF]}),
    "PTO-AVS-TILE-TNOT-ALIAS-001": ([(U8, np.array([[0x0F]], np.uint8))], ("pto.tnot", 0, 0),
                                    {0: [0xF0]}),
    "PTO-AVS-TILE-TRELU-ALIAS-001": ([(S8, np.array([[-1]], np.int8))], ("pto.trelu", 0, 0),
                                     {0: [0]}),
    # FP32 -0: exp gives +1 (0x3F800000) from the old payload; sqrt keeps the signed zero
    "PTO-AVS-TILE-TEXP-ALIAS-001": ([(F32, _bits32(0x80000000))], ("pto.texp", 0, 0),
                                    {0: [0x3F800000]}),
    "PTO-AVS-TILE-TSQRT-ALIAS-001": ([(F32, _bits32(0x80000000))], ("pto.tsqrt", 0, 0),
                                     {0: [0x80000000]}),
}  # fmt: skip
_WIDTH = {np.dtype(np.int8): np.uint8, np.dtype(np.uint8): np.uint8,
          np.dtype(np.float32): np.uint32, np.dtype(np.uint64): np.uint64}  # fmt: skip


@avs_cases(ALIAS_CASES)
def test_alias(avs_id, case):
    """The instruction with its destination naming its (first) source: every element comes
    from the complete old payload and every other source persists."""
    tiles, (op, dst, *srcs), want = case
    r = regs(*tiles)
    r.execute(op, dst, *srcs)
    for i, words in want.items():
        assert word(r, i, _WIDTH[tiles[i][1].dtype]) == words, (avs_id, i)


@avs("PTO-AVS-TILE-TESTTILEELEMENTWISEANDALIASING-EXECUTION-001")
def test_elementwise_and_aliasing_suite():
    """The migrated suite on four 2x2 U64 tiles: ADD 2 = 0 + 1 gives [11 .. 44]; ADD 0 = 0 + 1
    (the destination is the left source) gives [11 22; 33 44] from the old payloads; unsigned
    DIV 2 = 1 / 0 is 10/11 = 20/22 = 0; tiles 2 and 3 filled with 3 and 5 (TEXPANDS);
    TFMA 2 = 0 * 1 + 3 gives 11*10+5 = 115 and 44*40+5 = 1765."""
    two = "!pto.tile<16x2xui64, valid=2x2>"
    r = regs((two, np.array([[1, 2], [3, 4]], np.uint64)),
             (two, np.array([[10, 20], [30, 40]], np.uint64)),
             (two, np.zeros((2, 2), np.uint64)))  # fmt: skip
    r.execute("pto.tadd", 2, 0, 1)
    assert word(r, 2)[0] == 11 and word(r, 2)[3] == 44
    r.execute("pto.tadd", 0, 0, 1)
    assert word(r, 0) == [11, 22, 33, 44] and word(r, 1) == [10, 20, 30, 40]
    r.execute("pto.tdiv", 2, 1, 0)
    assert word(r, 2)[:2] == [0, 0]
    r.execute("pto.texpands", 2, Scalar(3))
    r.configure(3, ty(two), np.zeros((2, 2), np.uint64))
    r.execute("pto.texpands", 3, Scalar(5))
    r.execute("pto.tfma", 2, 0, 1, 3)
    assert word(r, 2)[0] == 115 and word(r, 2)[3] == 1765


# ---- the property over every family where an alias is legal --------------------------------
I32 = "!pto.tile<8x4xui32, valid=2x3>"
FL = "!pto.tile<8x4xf32, valid=2x3>"
SQ = "!pto.tile<8x4xf32, valid=3x3>"
COL = "!pto.tile<32x1xui32, valid=2x1>"
PRED = "!pto.pred<8x4, valid=2x3>"
S = object()  # a scalar operand
INT_OPS = ["tadd", "tsub", "tmul", "tdiv", "trem", "tand", "tor", "txor", "tshl", "tshr",
           "tmax", "tmin"]  # fmt: skip
FAMILIES = {
    **{f"pto.{o}": ([I32, I32], I32) for o in INT_OPS},
    **{f"pto.{o}": ([I32], I32) for o in ("tabs", "tnot", "tneg", "trelu")},
    **{f"pto.{o}": ([FL], FL) for o in ("texp", "tlog", "trecip", "tsqrt", "trsqrt")},
    **{f"pto.{o}s": ([I32, S], I32) for o in INT_OPS},
    "pto.tfma": ([FL, FL, FL], FL),
    "pto.tsel": ([PRED, I32, I32], I32),
    "pto.tsels": ([PRED, I32, S], I32),
    **{f"pto.t{a}expand{o}": ([[I32, COL if a == "row" else "!pto.tile<8x4xui32, valid=1x3>"]],
                              I32) for a in ("row", "col") for o in ("add", "sub", "mul", "max",
                                                                     "min")},
    **{f"pto.tpart{o}": ([[I32, I32]], I32) for o in ("add", "mul", "max", "min")},
    "pto.ttrans": ([[SQ]], SQ),
    "pto.tcvt": ([FL, []], FL),
    "pto.tmov": ([I32], I32),
    "pto.tinsert": ([[I32, "!pto.tile<32x1xui32, valid=1x1>"], [Scalar(1), Scalar(2)]], I32),
    "pto.textract": ([[I32], [Scalar(0), Scalar(0)]], I32),
    "pto.tfillpad": ([[I32], [S]], I32),
    "pto.tgather": ([[I32, (I32, [[1, 0, 1], [0, 1, 0]])]], I32),
    "pto.tscatter": ([[I32, (I32, [[1, 0, 1], [0, 1, 0]])]], I32),
}  # fmt: skip
"""op: (operand definitions: a tile type (or (type, fixed values)), S for a random scalar (or a
fixed Scalar), a list for a variadic one; the
destination type). One op per row, every family whose contract allows ``dst == src``."""


def _values(t: str, rng: np.random.Generator) -> np.ndarray:
    tt = ty(t)
    vr, vc = tt.valid_shape
    if t.startswith("!pto.pred"):
        return rng.integers(0, 2, (vr, vc)).astype(bool)
    if "xf32" in t:
        return rng.uniform(0.5, 4.0, (vr, vc)).astype(np.float32)
    return rng.integers(1, 20, (vr, vc)).astype(np.uint32)


def setup_family(op: str, seed: int):
    """Registers 0.. hold the sources (distinct IDs), 40 a spare destination; returns the
    registers and the operands with their register numbers."""
    defs, dst_t = FAMILIES[op]
    rng = np.random.default_rng(seed)
    r, n, operands = TileRegisters(), 0, []
    for d in defs:
        items = []
        for x in d if isinstance(d, list) else [d]:
            if isinstance(x, Scalar):
                items.append(x)
            elif x is S:
                items.append(Scalar(int(rng.integers(1, 8))))
            elif isinstance(x, tuple):  # fixed values (row indices)
                r.configure(n, ty(x[0]), np.array(x[1], np.uint32))
                items.append(n)
                n += 1
            else:
                r.configure(n, ty(x), _values(x, rng))
                items.append(n)
                n += 1
        operands.append(items if isinstance(d, list) else items[0])
    r.configure(40, ty(dst_t), _values(dst_t, rng))
    return r, operands, dst_t


def _sources(operands) -> list[int]:
    return [x for o in operands for x in (o if isinstance(o, list) else [o]) if isinstance(x, int)]


@pytest.mark.parametrize("op", list(FAMILIES))
def test_every_legal_alias_reads_the_old_payload(op):
    """For each source whose descriptor is the destination's: the instruction writing that
    source's tile gives exactly what it gives writing a fresh tile, and every other tile is
    unchanged (all sources are read before the write)."""
    r, operands, dst_t = setup_family(op, 11)
    srcs = _sources(operands)
    before = {i: r.read(i) for i in srcs}
    r.execute(op, 40, *operands)
    want = r.read(40)
    aliased = [i for i in srcs if r.type_of(i) == ty(dst_t)]
    assert aliased, op
    for j in aliased:
        r2, _, _ = setup_family(op, 11)
        r2.execute(op, j, *operands)
        assert np.array_equal(r2.read(j).view(np.uint8), want.view(np.uint8)), (op, j)
        for i in srcs:
            if i != j:
                assert np.array_equal(r2.read(i), before[i]), (op, j, i)


@pytest.mark.parametrize("op", ["pto.tadd", "pto.tmul", "pto.tfma", "pto.tmax"])
def test_one_tile_as_every_operand(op):
    """``t0 = op(t0, t0[, t0])``: one snapshot feeds every source (x + x, x * x, x * x + x)."""
    n = 3 if op == "pto.tfma" else 2
    x = np.array([[3, 5, 7], [2, 4, 6]], np.uint32)
    r = regs((I32, x))
    r.execute(op, 0, *[0] * n)
    want = {"pto.tadd": x + x, "pto.tmul": x * x, "pto.tfma": x * x + x, "pto.tmax": x}[op]
    assert r.read(0)[0].tolist() == want.tolist()


# ---- where an alias is illegal, and faults before effects ----------------------------------
REFUSED = {
    "pto.trowsum": ([[COL]], COL),
    "pto.tcolmax": ([["!pto.tile<8x4xui32, valid=1x3>"]], "!pto.tile<8x4xui32, valid=1x3>"),
}


@pytest.mark.parametrize("op", list(REFUSED))
def test_reduction_alias_is_tile_legality(op):
    """A reduction whose destination names its source (an N x 1 row sum, a 1 x N column max:
    the descriptors match) is TileLegality before any effect
    (TileOperandsLegal_ExecuteTileReduction); a fresh destination is legal."""
    defs, dst_t = REFUSED[op]
    r = regs((defs[0][0], np.array([[3], [4]], np.uint32) if op == "pto.trowsum"
              else np.array([[3, 4, 5]], np.uint32)))  # fmt: skip
    before = r.read(0)
    with pytest.raises(PTOFault) as e:
        r.execute(op, 0, [0])
    assert e.value.kind == "TileLegality" and "aliases source 0" in str(e.value)
    assert np.array_equal(r.read(0), before)
    r.configure(1, ty(dst_t), before[0])
    r.execute(op, 1, [0])
    assert r.read(1)[0].ravel().tolist() == ([3, 4] if op == "pto.trowsum" else [3, 4, 5])


def test_distinct_rules_cover_the_asl_no_alias_contracts():
    """The contracts that compare a destination with a source (reductions, ACC matrix forms,
    TMRGSORT, TSORT, THISTOGRAM) are exactly the table's rows."""
    from pto_dialect.families import TILE_OP_FAMILIES

    names = {op.name for _, ops in TILE_OP_FAMILIES for op in ops}
    acc = {n for n in names if n.endswith("_acc")}
    red = {n for n in names if n.startswith(("pto.trow", "pto.tcol")) and "expand" not in n}
    assert set(DISTINCT) == acc | red | {"pto.tmrgsort", "pto.tsort", "pto.thistogram"}
    assert len(acc) == 4 and len(red) == 12


def test_faults_leave_every_tile_unchanged():
    """An unallocated source or destination, two destinations naming one tile (TSORT's
    values and indices), a destination whose descriptor the result does not have (a U32
    tile for a predicate), and a run-time fault (integer division by zero) are each
    TileLegality before any write."""
    x = np.array([[1, 2, 3], [4, 5, 6]], np.uint32)
    r = regs((I32, x), (I32, np.zeros((2, 3), np.uint32)), (PRED, np.ones((2, 3), bool)))
    snap = {i: r.read(i) for i in range(3)}
    cases = [lambda: r.execute("pto.tadd", 0, 0, 9), lambda: r.execute("pto.tadd", 9, 0, 1),
             lambda: r.execute("pto.tcmp", 1, 0, 1), lambda: r.execute("pto.tdiv", 0, 0, 1),
             lambda: r.execute("pto.tsort", (0, 0), [0], [Scalar(0)])]  # fmt: skip
    for c in cases:
        with pytest.raises(PTOFault) as e:
            c()
        assert e.value.kind == "TileLegality", e.value
        for i in range(3):
            assert np.array_equal(r.read(i), snap[i])


def test_acc_destination_naming_c_is_tile_legality():
    """D == C for an ACC matrix form is TileLegality (TileOperandsLegal_TMATMUL_ACC:
    ``destination != accumulator``); D fresh is legal and adds C."""
    c_t = "!pto.tile<1x1xui32, cube_m16, mat>"
    a_t = "!pto.tile<1x1xui16, cube_m16, mat>"
    b_t = "!pto.tile<1x1xui16, cube_n8, mat>"
    r = regs((c_t, np.array([[5]], np.uint32)), (a_t, np.array([[2]], np.uint16)),
             (b_t, np.array([[3]], np.uint16)), (c_t, np.array([[0]], np.uint32)))  # fmt: skip
    with pytest.raises(PTOFault) as e:
        r.execute("pto.tmatmul_acc", (0, None, None), 0, 1, 2, None, None, None, None, None)
    assert e.value.kind == "TileLegality" and "aliases source 0" in str(e.value)
    assert r.read(0)[0].tolist() == [[5]]
    r.execute("pto.tmatmul_acc", (3, None, None), 0, 1, 2, None, None, None, None, None)
    assert r.read(3)[0].tolist() == [[11]]


# ---- blocks: a destination is always a fresh register ----------------------------------------
CHAIN = {"tadd": 2, "tmul": 2, "tmax": 2, "tfma": 3, "tabs": 1, "tneg": 1, "trelu": 1}


@pytest.mark.parametrize("op", list(CHAIN))
def test_blocks_never_alias(op):
    """``x = op(x, ..)`` three times, formed into blocks and register-assigned: each block's
    destination hand resolves to a register that none of its sources holds (the next block
    reads the result from a register other than the one this block read), and the decoded
    blocks compute what the tile level computes."""
    t = "!pto.tile<8x4xsi32, valid=2x3>"
    n = CHAIN[op]
    body, prev = [], "%a"
    for k in range(3):
        body.append(f"  %x{k} = pto.{op} {', '.join([prev] * n)} : {t}")
        prev = f"%x{k}"
    text = f"func.func @f(%a: {t}) -> {t} {{\n" + "\n".join(body) + f"\n  func.return {prev} : {t}\n}}"
    m = bundled(text)
    blocks = [b for b in m.walk() if isinstance(b, BlockOp)]
    reads = []
    for b in blocks:
        iots = [c for c in b.commands() if isinstance(c, isa.BIot)]
        srcs = {s for c in iots for s in (c.src0, c.src1) if s is not None}
        assert len(srcs) == 1, srcs  # every source is the one previous value
        reads.append(srcs.pop())
    assert all(x != y for x, y in zip(reads, reads[1:])), reads
    x = np.array([[3, -5, 7], [-2, 4, -6]], np.int32)
    got = run_both_levels(text, x)
    (tile,) = run(text, "f", x)
    assert np.array_equal(got, tile)
