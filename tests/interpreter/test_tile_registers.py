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
