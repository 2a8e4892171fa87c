"""AVS pass conditions of TIMG2COL and the feature-map descriptor state (D17):
``tests/asl/tile/layout-and-rearrangement/layout/TIMG2COL``, ``tile/model/execution/image-to-column``,
``tile/model/legality/image-to-column``, ``tile/model/state/feature-map-descriptors``.

The AVS tests configure tiles and a descriptor by tile ID (``ConfigureTile``,
``ConfigureTileFeatureMapDescriptor``) and call the contract functions: the tile-instruction
level, modelled by :class:`interpreter.machine.tile_registers.TileRegisters` (its
``configure_feature_map`` is the harness function; TIMG2COL reads the source register's
descriptor). The same values are checked at the SSA tile level, where the descriptor is the
op's ``fmap`` property. Expected values are the AVS tests' (hand-checked against the ASL).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from conformance.inventory import avs, avs_units
from interpreter import run
from interpreter.machine.tile_registers import Scalar, TileRegisters
from interpreter.ssa.runner import build_context
from pto_dialect.faults import PTOFault
from pto_dialect.feature_map import FeatureMap, FeatureMapAttr

CTX = build_context()


def ty(text: str):
    return Parser(CTX, text).parse_type()


def _tile(ir: str, cols: int, bits: int) -> str:
    """A 128-byte Matrix tile (the AVS tests' ``ConfigureTile(i, 128, 1, cols, 1, cols, ...)``):
    one valid row of ``cols``; the physical rows follow from the 128-byte TSize."""
    return f"!pto.tile<{1024 // (cols * bits)}x{cols}x{ir}, valid=1x{cols}, mat>"


def _execute(r: TileRegisters, dst: int, src: int, pos_m: int = 0, pos_k: int = 0) -> None:
    """``TIMG2COL(dst, src, posM, posK)`` at the tile-instruction level."""
    r.execute("pto.timg2col", dst, [src], [Scalar(pos_m), Scalar(pos_k)])


@avs("PTO-AVS-TILE-TIMG2COL-MAP-001")
def test_map_nc1hwc0_window_to_left_matrix_order():
    """A 2x2 FP32 image, one channel, a 2x2 filter: the destination row is the patch in
    filter-row / filter-column order, 11 12 13 14; the source keeps its contents."""
    r = TileRegisters()
    t = _tile("f32", 4, 32)
    src = np.array([[11, 12, 13, 14]], np.float32)
    r.configure(40, ty(t), src)
    r.configure(41, ty(t), np.zeros((1, 4), np.float32))
    r.configure_feature_map(40, FeatureMap(height=2, width=2, filter_height=2, filter_width=2,
                                           padding=99))  # fmt: skip
    _execute(r, 41, 40)
    assert r.read(41)[0].tolist() == [[11, 12, 13, 14]]
    assert r.read(40)[0].tolist() == [[11, 12, 13, 14]] and r.feature_map(40) is not None
    fmap = FeatureMapAttr.of(r.feature_map(40))  # the same at the SSA tile level
    text = (f"func.func @f(%s: {t}) -> {t} {{\n  %d = pto.timg2col %s {{fmap = {fmap}}} : ({t}) "
            f"-> {t}\n  func.return %d : {t}\n}}")  # fmt: skip
    (d,) = run(text, "f", src)
    assert d[0].tolist() == [[11, 12, 13, 14]]


@avs("PTO-AVS-TILE-TIMG2COL-PAD-001")
def test_unassigned_packed_channel_gets_the_typed_padding():
    """S16, C0 = 2 packed channels of which one is logical: channel 0 is copied (21), channel
    1 receives the descriptor's padding value (77), whatever the source holds there."""
    r = TileRegisters()
    t = _tile("si16", 2, 16)
    r.configure(42, ty(t), np.array([[21, -5]], np.int16))
    r.configure(43, ty(t), np.zeros((1, 2), np.int16))
    r.configure_feature_map(42, FeatureMap(channels_per_group=2, logical_channels=1, padding=77))
    _execute(r, 43, 42)
    assert r.read(43)[0].tolist() == [[21, 77]]


@avs("PTO-AVS-TILE-IMG2COL-OFFSET-001")
def test_pos_k_applies_before_the_column_decomposition():
    """U8, two packed channels: a one-column destination at posK = 1 receives channel 1 (32)."""
    r = TileRegisters()
    r.configure(4, ty(_tile("ui8", 2, 8)), np.array([[31, 32]], np.uint8))
    r.configure(5, ty(_tile("ui8", 1, 8)), np.zeros((1, 1), np.uint8))
    r.configure_feature_map(4, FeatureMap(channels_per_group=2, logical_channels=2))
    _execute(r, 5, 4, 0, 1)
    assert r.read(5)[0].tolist() == [[32]]


@avs("PTO-AVS-TILE-IMG2COL-RANGE-001")
def test_window_beyond_the_logical_matrix_is_illegal():
    """A 1x1 image and filter: the 1x1 matrix. The window at the origin is legal; the
    equal-width window at posK = 1 is TileLegality, before any effect."""
    r = TileRegisters()
    t = ty(_tile("ui8", 1, 8))
    r.configure(2, t, np.array([[5]], np.uint8))
    r.configure(3, t, np.array([[9]], np.uint8))
    r.configure_feature_map(2, FeatureMap())
    with pytest.raises(PTOFault) as e:
        _execute(r, 3, 2, 0, 1)
    assert e.value.kind == "TileLegality" and "pos_k: 1 + 1 exceeds the 1x1" in e.value.message
    assert r.read(3)[0].tolist() == [[9]]  # no effect
    _execute(r, 3, 2)
    assert r.read(3)[0].tolist() == [[5]]


@avs("PTO-AVS-TILE-FEATURE-MAP-STATE-001")
def test_descriptor_is_tile_state_until_reallocation():
    """The configured descriptor is readable until the tile is configured again (or released);
    then TIMG2COL from it faults TileLegality (no valid descriptor)."""
    r = TileRegisters()
    t = ty(_tile("ui8", 1, 8))
    r.configure(1, t, np.array([[1]], np.uint8))
    r.configure(0, t, np.array([[0]], np.uint8))
    assert r.feature_map(1) is None
    r.configure_feature_map(1, FeatureMap())
    assert r.feature_map(1) == FeatureMap()
    _execute(r, 0, 1)  # a TIMG2COL neither changes nor consumes it
    assert r.feature_map(1) == FeatureMap()
    r.configure(1, t, np.array([[1]], np.uint8))
    assert r.feature_map(1) is None
    with pytest.raises(PTOFault, match="src: no feature-map descriptor") as e:
        _execute(r, 0, 1)
    assert e.value.kind == "TileLegality"
    r.configure_feature_map(1, FeatureMap())
    r.release(1)
    assert r.feature_map(1) is None
    with pytest.raises(PTOFault, match="not allocated"):
        r.configure_feature_map(1, FeatureMap())  # ConfigureTileFeatureMapDescriptor: allocated
    r.configure(1, t, np.array([[1]], np.uint8))
    with pytest.raises(ValueError, match="not an fmap property"):
        r.execute("pto.timg2col", 0, [1], [], properties={"fmap": FeatureMapAttr.of(FeatureMap())})
    with pytest.raises(ValueError, match="stride_height 0 is outside 1..65535"):
        r.configure_feature_map(1, FeatureMap(stride_height=0))  # the record's field ranges


STATIC_UNITS = {
    "PTO-AVS-TILE-MODEL-EXECUTION-IMAGE-TO-COLUMN-STATIC-001": "interpreter.kernels.rearrange:timg2col",
    "PTO-AVS-TILE-MODEL-LEGALITY-IMAGE-TO-COLUMN-STATIC-001": "pto_dialect.feature_map:descriptor_errors",
    "PTO-AVS-TILE-MODEL-STATE-FEATURE-MAP-DESCRIPTORS-STATIC-001": "pto_dialect.feature_map:FeatureMap",
}
"""The units of ours that model each image-to-column ASL unit."""


test_static_unit = avs_units(STATIC_UNITS)
