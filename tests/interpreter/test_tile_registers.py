"""``interpreter.tile_registers``: bad input is a clear one-line error, never a traceback from
inside xDSL; state is only changed by a completed instruction (the AVS alias tests are in
tests/conformance/test_avs_alias.py)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from interpreter import RunError
from interpreter.runner import build_context
from interpreter.tile_registers import Scalar, TileRegisters

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
