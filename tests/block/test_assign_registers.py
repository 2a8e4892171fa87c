"""pto-assign-registers and the TLOAD/TSTORE block form (PTO-SPEC 2, 3; D12, D16;
docs/blocks.md register model)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from interpreter.ssa.runner import build_context
from passes.pto_assign_registers import PTOAssignRegistersPass
from passes.pto_form_blocks import PTOFormBlocksPass
from passes.pto_targets import parse_asm, parse_hex, print_asm, print_hex
from pto_dialect import isa


def _ctx() -> Context:
    return build_context()


def _lower(text: str):
    m = Parser(_ctx(), text).parse_module()
    PTOFormBlocksPass().apply(_ctx(), m)
    PTOAssignRegistersPass().apply(_ctx(), m)
    m.verify()
    return m


T = "!pto.tile<4x8xsi32>"
LOOP = f"""
func.func @f(%x: tensor<64x8xi32>, %y: tensor<64x8xi32>) -> tensor<64x8xi32> {{
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %d = pto.tload %y[%c0, %c0] : tensor<64x8xi32> -> {T}
  %r = scf.for %i = %c0 to %c64 step %c8 iter_args(%acc = %x) -> (tensor<64x8xi32>) {{
    %a = pto.tload %x[%i, %c0] : tensor<64x8xi32> -> {T}
    %q = pto.trem %a, %d : {T}
    %s = pto.tstore %q, %acc[%i, %c0] : {T} -> tensor<64x8xi32>
    scf.yield %s : tensor<64x8xi32>
  }}
  func.return %r : tensor<64x8xi32>
}}
"""


def test_tile_defined_outside_loop_stays_live_for_the_whole_loop():
    """A tile read inside scf.for keeps its register for every iteration: the loop's loads
    never reuse t#1 (the divisor's), and results inside the body reuse freed registers."""
    asm = print_asm(_lower(LOOP))
    iots = [ln for ln in asm.splitlines() if ln.startswith("B.IOT")]
    assert iots == [
        "B.IOT mask=1111, last, ->t<128B>",  # %d -> t#1
        "B.IOT mask=1111, last, ->t<128B>",  # %a -> t#2
        "B.IOT t#2, t#1, mask=1111, last, ->t<128B>",  # %q -> t#3, %a released after
        "B.IOT t#3, mask=1111, last",  # tstore reads %q
    ]


def test_tload_tstore_blocks_follow_the_spec_composition_and_round_trip():
    """BSTART.TLOAD/TSTORE compositions (pto-spec BSTART.TLOAD.asl / BSTART.TSTORE.asl):
    LB0/LB1, B.IOR [a0, a1, zero], one destination / source B.IOT; asm and hex round-trip;
    the GMADDR line is a comment (pseudo-instruction, not encoded)."""
    m = _lower(LOOP)
    asm = print_asm(m)
    assert asm.count("# pseudo GMADDR a0, a1 <- ") == 3
    assert "BSTART.TLOAD S32\nC.B.DIMI 8, ->lb0\nC.B.DIMI 4, ->lb1\nB.IOR [a0, a1, zero]" in asm
    assert "BSTART.TSTORE S32\n" in asm
    assert print_asm(parse_asm(asm)) == "\n".join(
        ln for ln in asm.split("\n") if not ln.startswith("#")
    )
    hx = print_hex(m)
    assert print_hex(parse_hex(hx)) == hx
    words = isa.encode_program(isa.parse_program(asm))
    assert words[0][1] == (17 << 27 | 0x00011181)  # BSTART.TLOAD S32
    assert any(w == (17 << 27 | 0x00111181) for _, w in words)  # BSTART.TSTORE S32


def test_exhaustion_names_op_hand_and_count():
    """D12/D16: more than 16 live tiles of one hand -> [TileAllocation] with op and hand."""
    args = ", ".join(f"%a{i}: {T}" for i in range(16))
    rets = ", ".join([f"%a{i}" for i in range(16)] + ["%r"])
    text = (
        f"func.func @f({args}) -> ({', '.join([T] * 17)}) {{\n"
        f"  %r = pto.trem %a0, %a1 : {T}\n  func.return {rets} : {', '.join([T] * 17)}\n}}"
    )
    m = Parser(_ctx(), text).parse_module()
    PTOFormBlocksPass().apply(_ctx(), m)
    with pytest.raises(PassFailedException, match=r"\[TileAllocation\] 'pto.block' needs a "
                       r"register in hand t, but all 16 are live \(17 tiles"):  # fmt: skip
        PTOAssignRegistersPass().apply(_ctx(), m)


def test_loop_carried_tile_is_refused():
    text = f"""
func.func @f(%t: {T}) -> {T} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %t) -> ({T}) {{
    %q = pto.trem %a, %a : {T}
    scf.yield %q : {T}
  }}
  func.return %r : {T}
}}"""
    m = Parser(_ctx(), text).parse_module()
    PTOFormBlocksPass().apply(_ctx(), m)
    with pytest.raises(PassFailedException, match="tile"):
        PTOAssignRegistersPass().apply(_ctx(), m)


def test_block_level_execution_matches_tile_level():
    """Decoded execution (linked TLOAD/TREM/TSTORE blocks) == tile-level run, bit for bit."""
    import numpy as np

    from interpreter import run

    x = np.arange(1, 513, dtype=np.int32).reshape(64, 8) * 7 - 1000
    y = np.arange(1, 513, dtype=np.int32).reshape(64, 8) % 13 - 6
    y[y == 0] = 5
    tile = run(Parser(_ctx(), LOOP).parse_module(), "f", x, y)[0]
    blk = run(_lower(LOOP), "f", x, y)[0]
    assert np.asarray(tile).tobytes() == np.asarray(blk).tobytes()
    want = x.copy()
    for i in range(0, 64, 8):
        want[i : i + 4] = [[a % b for a, b in zip(r, s)] for r, s in zip(x[i : i + 4], y[0:4])]
    assert np.array_equal(np.asarray(blk), want)


# -- core tile capacity (asl/tile/model/capacity/local.asl) --------------------------------------
def test_capacity_charges_every_pe_and_releases_with_liveness():
    """A tile charges popcount(pe) x size; an unused argument releases its charge at entry, a
    value its charge after its last use."""
    from xdsl.dialects import func

    from passes.pto_assign_registers import assign_function, core_charge
    from pto_dialect.attributes import TileType
    from pto_dialect.datatypes import TileDataType

    assert core_charge(TileType((128, 128), TileDataType.U32)) == 4 * 65536
    assert core_charge(TileType((32, 1), TileDataType.U32, pe="1100")) == 2 * 128
    big = "!pto.tile<128x128xui32>"
    text = f"""func.func @f(%unused: {big}, %m: tensor<128x128xi32>) -> tensor<128x128xi32> {{
  %c0 = arith.constant 0 : index
  %a = pto.tload %m[%c0, %c0] : tensor<128x128xi32> -> {big}
  %s = pto.tstore %a, %m[%c0, %c0] : {big} -> tensor<128x128xi32>
  %b = pto.tload %s[%c0, %c0] : tensor<128x128xi32> -> {big}
  %t = pto.tstore %b, %s[%c0, %c0] : {big} -> tensor<128x128xi32>
  func.return %t : tensor<128x128xi32>
}}"""
    m = _lower(text)
    (fn,) = [o for o in m.walk() if isinstance(o, func.FuncOp)]
    a = assign_function(fn)
    assert a.in_use[None] == 262144 and a.peak == 262144
    with pytest.raises(PassFailedException, match=r"^\[TileAllocation\] .* 4096 B are held"):
        assign_function(fn, 4096)


EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.mlir"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_lowered_programs_fit_the_core_tile_capacity(path):
    """pto-lower picks the largest TSize whose lowered program holds at most the core tile
    capacity at once; its registers are assigned with the capacity check on."""
    from xdsl.dialects import func

    from passes.pto_assign_registers import TILE_CAPACITY_BYTES, assign_function
    from passes.pto_lower import PTOLowerPass

    m = Parser(_ctx(), path.read_text()).parse_module()
    PTOLowerPass().apply(_ctx(), m)
    peaks = [assign_function(fn, None).peak for fn in m.walk()
             if isinstance(fn, func.FuncOp) and fn.body.blocks]
    assert peaks and max(peaks) <= TILE_CAPACITY_BYTES
