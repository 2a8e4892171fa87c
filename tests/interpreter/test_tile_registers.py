"""``interpreter.machine.tile_registers``: bad input is a clear one-line error, never a traceback from
inside xDSL; state is only changed by a completed instruction (the AVS alias tests are in
tests/conformance/test_avs_alias.py)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from interpreter import RunError
from interpreter.machine.tile_registers import Scalar, TileRegisters
from interpreter.ssa.runner import build_context

T = Parser(build_context(), "!pto.tile<16x2xui64, valid=1x2>").parse_type()


@pytest.fixture
def regs() -> TileRegisters:
    r = TileRegisters()
    r.configure(0, T, np.array([[3, 5]], np.uint64))
    return r


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda r: r.execute("pto.tmul", 0, 0), r"takes 2 operand\(s\) \(lhs, rhs\).*got 1"),
        (lambda r: r.execute("pto.tmul", (0, 0), 0, 0), r"1 destination\(s\), got 2 and 2"),
        (lambda r: r.execute("pto.nope", 0, 0), "not a tile operation"),
        (lambda r: r.execute("pto.tmul", 64, 0, 0), "not a Local tile register"),
        (lambda r: r.configure(1, T, np.zeros((1, 3), np.uint64)), "needs shape"),
        (lambda r: r.execute("pto.tmul", 0, 0, Scalar(1)), "operand 'rhs'"),
    ],
)
def test_bad_input_is_a_clear_error(regs, call, message):
    with pytest.raises(ValueError, match=message):
        call(regs)
    assert regs.read(0)[0].tolist() == [[3, 5]]


def test_bad_scalar_and_release(regs):
    with pytest.raises(RunError, match="expected a scalar"):
        regs.execute("pto.tadds", 0, 0, Scalar(1.5))
    regs.execute("pto.tadds", 0, 0, Scalar(2))
    assert regs.read(0)[0].tolist() == [[5, 7]] and regs.allocated(0)
    regs.release(0)
    assert not regs.allocated(0)


def test_capacity_fault_keeps_the_old_allocation():
    """A reconfiguration beyond tile_capacity is TileLegality and leaves the register's old
    descriptor, contents and charge (ADR-0013); the limit is 0 .. 256 KiB."""
    from pto_dialect.attributes import TileType
    from pto_dialect.datatypes import TileDataType
    from pto_dialect.faults import PTOFault

    small = TileType((32, 1), TileDataType.U64, pe="1100")  # 2 x 256 B
    big = TileType((64, 1), TileDataType.U64, pe="1100")  # 2 x 512 B
    r = TileRegisters(tile_capacity=1024)
    r.configure(5, small, [[i] for i in range(32)])
    with pytest.raises(PTOFault) as e:
        r.configure(5, TileType((64, 1), TileDataType.U64, pe="1110"), [[0]] * 64)  # 1536 B
    assert e.value.kind == "TileLegality"
    assert r.type_of(5) == small and r.read(5)[1, 31, 0] == 31 and r.capacity_in_use == 512
    r.configure(5, big, [[1]] * 64)  # 1024 B: the old 512 B charge is replaced
    assert r.capacity_in_use == 1024
    with pytest.raises(ValueError, match="tile_capacity"):
        TileRegisters(tile_capacity=256 * 1024 + 1)


def test_descriptor_text_and_illegal_reconfiguration(regs):
    """A descriptor may be given as its text; an illegal one (a CUBE shape beyond its TSize)
    is TileLegality with the register's descriptor, contents, definedness and charge kept;
    text that is no tile descriptor is a clear ValueError."""
    from pto_dialect.faults import PTOFault

    before = (regs.type_of(0), regs.read(0).tolist(), regs.capacity_in_use)
    with pytest.raises(PTOFault, match="needs 6 cells") as e:
        regs.configure(0, "!pto.tile<16x24xf16, cube_n8, mat, valid=13x19, size=128B>",
                       np.zeros((13, 19), np.float16))  # fmt: skip
    assert e.value.kind == "TileLegality"
    assert (regs.type_of(0), regs.read(0).tolist(), regs.capacity_in_use) == before
    assert regs.contents_defined(0)
    for text in ("i32", "!pto.tile<16x"):
        with pytest.raises(ValueError, match="not a tile descriptor"):
            regs.configure(0, text, np.zeros((1, 2), np.uint64))
    regs.configure(1, "!pto.tile<16x2xui64, valid=1x2>", np.array([[7, 9]], np.uint64))
    assert regs.type_of(1) == T and regs.read(1)[0].tolist() == [[7, 9]]


def test_undefined_contents_until_written(regs):
    """``defined=False``: reading the register as a source is TileLegality
    (TileSourceContentsDefined); an executed instruction or a write defines it."""
    from pto_dialect.faults import PTOFault

    regs.configure(1, T, np.zeros((1, 2), np.uint64), defined=False)
    assert not regs.contents_defined(1)
    with pytest.raises(PTOFault, match="TileSourceContentsDefined"):
        regs.execute("pto.tmov", 0, 1)
    assert regs.read(0)[0].tolist() == [[3, 5]] and regs.contents_defined(0)
    regs.execute("pto.tmov", 1, 0)
    assert regs.contents_defined(1) and regs.read(1)[0].tolist() == [[3, 5]]
    regs.configure(1, T, np.zeros((1, 2), np.uint64), defined=False)
    regs.write(1, np.array([[1, 2]], np.uint64))
    assert regs.contents_defined(1)


def test_padding_and_the_physical_tile(regs):
    """``apply_padding`` (ApplyTilePadding) fills the positions outside the valid rectangle
    and defines them unless Null; the valid elements are kept; every producer (write,
    execute, configure) leaves Null padding; predicate tiles are refused."""
    regs.apply_padding(0, "min")
    t = regs.physical(0)
    assert t.pes == [0, 1, 2, 3]
    pay, dfn = t.payloads[2], t.defined[2]
    assert pay.shape == (16, 2) and pay[0].tolist() == [3, 5] and dfn.all()
    assert (pay[1:] == 0).all()  # U64 Min: 0
    regs.apply_padding(0, 1)  # code 01: Max
    assert (regs.physical(0).payloads[0][1:] == 2**64 - 1).all()
    regs.write(0, np.array([[4, 6]], np.uint64))
    dfn = regs.physical(0).defined[0]
    assert dfn[0].all() and not dfn[1:].any()  # Null padding again
    regs.configure(1, T, np.zeros((1, 2), np.uint64), defined=False)
    regs.apply_padding(1, "zero")
    dfn = regs.physical(1).defined[3]
    assert not dfn[0].any() and dfn[1:].all()
    regs.execute("pto.tmov", 1, 0)
    dfn = regs.physical(1).defined[3]
    assert dfn[0].all() and not dfn[1:].any()
    regs.configure(2, "!pto.pred<16x8, valid=1x2>", np.array([[True, False]]))
    with pytest.raises(ValueError, match="predicate"):
        regs.apply_padding(2, "zero")
    assert regs.physical(2).payloads[0][0, :2].tolist() == [True, False]


def test_raw_carrier_results_keep_the_element_bits():
    """Raw-carrier (D4) results are 64-bit raw words; an FP32 register keeps the low 32 bits
    (the payload word 32 is the bit pattern 0x00000020), which a later ACC reads back."""
    r = TileRegisters()
    a, b, d = ("!pto.tile<1x2xf16, cube_m16, mat>", "!pto.tile<2x1xf16, cube_n8, mat>",
               "!pto.tile<1x1xf32, cube_m16, mat>")  # fmt: skip
    r.configure(0, a, np.array([[3, 5]], np.uint16).view(np.float16))
    r.configure(1, b, np.array([[2], [4]], np.uint16).view(np.float16))
    r.configure(2, d, np.zeros((1, 1), np.float32), defined=False)
    r.configure(3, d, np.zeros((1, 1), np.float32), defined=False)
    r.execute("pto.tmatmul", [2, None, None], 0, 1, *[None] * 5, profile="raw-carrier")
    assert r.read(2).dtype == np.float32 and r.read(2).view(np.uint32).ravel().tolist() == [26] * 4
    r.execute("pto.tmatmul_acc", [3, None, None], 2, 0, 1, *[None] * 5, profile="raw-carrier")
    assert r.read(3).view(np.uint32).ravel().tolist() == [52] * 4
