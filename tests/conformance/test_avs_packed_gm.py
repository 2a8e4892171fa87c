"""Packed 4-bit GM (AVS ``BLOCK-TLOAD-PACKED-001``, ``BLOCK-TSTORE-PACKED-001``; D17).

A tile of a packed X2 type moves to or from a signless ``i8`` tensor of GM bytes
(docs/dialect.md "Packed 4-bit GM"): the tensor's column count is the byte row stride, element
``c`` of a row sits in byte ``c // 2``, low nibble first, and a TSTORE of an odd column count
keeps the high nibble of each row's last byte (pto-spec ``asl/tile/model/memory/
load-store.asl``, ``addressing.asl``). Every program runs at tile level and as decoded blocks
(bit-identical), on both engines; the reference is a scalar Python loop over nibbles.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance.inventory import avs
from conformance.support import base_zero, bundled, run_both_levels
from interpreter import run
from pto_dialect.datatypes import TileDataType as T

_IR = {T.U4X2: "ui4", T.S4X2: "si4", T.E2M1X2: "f4E2M1FN", T.E1M2X2: "!pto.e1m2x2",
       T.HIF4X2: "!pto.hif4x2"}  # fmt: skip


def _load(rows: int, cols: int, tile: str) -> str:
    tensor = f"tensor<{rows}x{cols}xi8>"
    return (f"func.func @f(%m: {tensor}, %i: index, %j: index) -> {tile} {{\n"
            f"  %r = pto.tload %m[%i, %j] : {tensor} -> {tile}\n  func.return %r : {tile}\n}}")


def _store(rows: int, cols: int, tile: str) -> str:
    tensor = f"tensor<{rows}x{cols}xi8>"
    return (f"func.func @f(%t: {tile}, %o: {tensor}, %i: index, %j: index) -> {tensor} {{\n"
            f"  %r = pto.tstore %t, %o[%i, %j] : {tile} -> {tensor}\n"
            f"  func.return %r : {tensor}\n}}")  # fmt: skip


def _at_zero(text: str) -> str:
    """``text`` with constant offsets [0, 0] (GM from address 0) instead of ``%i, %j``."""
    text = text.replace(", %i: index, %j: index)", ")").replace("[%i, %j]", "[%c0, %c0]")
    return text.replace(" {\n", " {\n  %c0 = arith.constant 0 : index\n", 1)


def _nibbles_of(gm: np.ndarray, i: int, j: int, vr: int, vc: int) -> list[list[int]]:
    """Scalar reference of a packed TLOAD: element (r, c) is the low (even c) or high (odd c)
    nibble of byte (i + r, j + c // 2)."""
    b = gm.astype(np.uint8).tolist()
    return [[b[i + r][j + c // 2] >> (4 * (c % 2)) & 0xF for c in range(vc)] for r in range(vr)]


def _stored(gm: np.ndarray, codes: list[list[int]], i: int, j: int) -> list[list[int]]:
    """Scalar reference of a packed TSTORE: each element replaces its nibble only."""
    b = gm.astype(np.uint8).tolist()
    for r, row in enumerate(codes):
        for c, v in enumerate(row):
            sh = 4 * (c % 2)
            byte = b[i + r][j + c // 2]
            b[i + r][j + c // 2] = byte & ~(0xF << sh) & 0xFF | (v & 0xF) << sh
    return b


def _codes(a: np.ndarray) -> list[list[int]]:
    return (np.ascontiguousarray(a).view(np.uint8) & 0xF).tolist()


@avs("PTO-AVS-BLOCK-TLOAD-PACKED-001")
def test_tload_packed_u4():
    """U4X2 2x2 at a 4-byte row stride loads bytes 0x21 and 0x43 as [1 2; 3 4] (the byte row
    stride applies before the column's nibble selection); one packed column at the dense
    one-byte pitch loads bytes 0xA1, 0xB2 as [1; 2] (each row starts at a low nibble), also
    as a block without B.IOR (GM address 0, the dense stride). The block reads its base and
    stride through B.IOR and states the 4-byte stride."""
    tile = "!pto.tile<64x4xui4, valid=2x2, pe=1000>"
    gm = np.array([[0x21, 0x99, 0x99, 0x99], [0x43, 0x99, 0x99, 0x99]], np.uint8)
    assert run_both_levels(_load(2, 4, tile), gm, 0, 0)[0].tolist() == [[1, 2], [3, 4]]
    col = "!pto.tile<128x2xui4, valid=2x1, pe=1000>"
    dense = np.array([[0xA1], [0xB2]], np.uint8)
    assert run_both_levels(_load(2, 1, col), dense, 0, 0)[0].tolist() == [[1], [2]]
    omitted = base_zero(_at_zero(_load(2, 1, col)), None)  # no B.IOR: base 0, dense 1 byte
    assert "pto.b.ior" not in omitted
    assert run(omitted, "f", dense)[0][0].tolist() == [[1], [2]]
    from passes.pto_targets import gmaddr_comment
    from pto_dialect.block_ops import BlockOp

    (blk,) = [o for o in bundled(_load(2, 4, tile)).walk() if isinstance(o, BlockOp)]
    assert "row stride 4 B" in gmaddr_comment(blk)
    s = blk.summary()
    assert (T(s.a_type), s.lb[:2], s.scalars.src0, s.scalars.src1) == (T.U4X2, (2, 2), 2, 3)


@avs("PTO-AVS-BLOCK-TSTORE-PACKED-001")
def test_tstore_packed_u4():
    """U4X2 [1 2; 3 4] at a 4-byte stride writes bytes 0x21 and 0x43 and leaves the skipped
    bytes; one packed column [5; 7] at the dense pitch writes the low nibbles of 0xA0, 0xB0
    (0xA5, 0xB7), keeping both high nibbles, also as a block without B.IOR."""
    tile = "!pto.tile<64x4xui4, valid=2x2, pe=1000>"
    gm = np.full((2, 4), 0xEE, np.uint8)
    r = run_both_levels(_store(2, 4, tile), np.uint8([[1, 2], [3, 4]]), gm, 0, 0)
    assert r.view(np.uint8).tolist() == [[0x21, 0xEE, 0xEE, 0xEE], [0x43, 0xEE, 0xEE, 0xEE]]
    assert gm.tolist() == [[0xEE] * 4] * 2  # the argument is a value (SSA)
    col = "!pto.tile<128x2xui4, valid=2x1, pe=1000>"
    r = run_both_levels(_store(2, 1, col), np.uint8([[5], [7]]), np.uint8([[0xA0], [0xB0]]), 0, 0)
    assert r.view(np.uint8).tolist() == [[0xA5], [0xB7]]
    omitted = base_zero(_at_zero(_store(2, 1, col)), None)  # no B.IOR: base 0, dense 1 byte
    r = run(omitted, "f", np.uint8([[5], [7]]), np.uint8([[0xA0], [0xB0]]))[0]
    assert r.view(np.uint8).tolist() == [[0xA5], [0xB7]]


@pytest.mark.parametrize("t", list(_IR), ids=[t.asm for t in _IR])
def test_packed_round_trip_every_type(t):
    """Every packed X2 type: random GM bytes, odd and even column counts, a byte offset and
    two PEs a byte stride apart load as the scalar nibble reference says, and storing the
    tile into other random bytes changes exactly its nibbles (both engines)."""
    rng = np.random.default_rng(t.value)
    for vr, vc in ((3, 5), (2, 4), (1, 1)):
        nb = (vc + 1) // 2
        tile = f"!pto.tile<64x8x{_IR[t]}, valid={vr}x{vc}, pe=1100>"
        text = _load(vr + 1, 2 * nb + 3, tile).replace("%m[%i, %j]", "%m[%i, %j] {pe_stride = [0, "
                                                       f"{nb + 1}]}}")  # fmt: skip
        gm = rng.integers(0, 256, (vr + 1, 2 * nb + 3), dtype=np.uint8)
        got = run_both_levels(text, gm, 1, 1)
        assert [_codes(p) for p in got] == [_nibbles_of(gm, 1, 1 + q * (nb + 1), vr, vc)
                                             for q in range(2)]  # fmt: skip
        for engine in ("compiled", "xdsl"):
            again = run(text, "f", gm, 1, 1, engine=engine)[0]
            assert [_codes(p) for p in again] == [_codes(p) for p in got]
        st = _store(vr + 1, 2 * nb + 3, tile).replace("%o[%i, %j]", "%o[%i, %j] {pe_stride = "
                                                      f"[0, {nb + 1}]}}")  # fmt: skip
        dst = rng.integers(0, 256, (vr + 1, 2 * nb + 3), dtype=np.uint8)
        out = run_both_levels(st, got, dst, 1, 1)
        want = _stored(dst, _codes(got[0]), 1, 1)
        want = _stored(np.array(want, np.uint8), _codes(got[1]), 1, 1 + nb + 1)
        assert out.view(np.uint8).tolist() == want
