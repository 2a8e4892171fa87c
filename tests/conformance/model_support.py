"""Helpers of the tile-model conformance modules (``test_avs_tile_model_*.py``): multi-op
programs run at tile level and as decoded blocks, verification of snippets whose tile types
may be refused as they are parsed, the TLOAD plan both engines run, raw FP words."""

from __future__ import annotations

import numpy as np
from xdsl.utils.exceptions import ParseError, VerifyException

from conformance.support import bundled, verify_error
from interpreter import run
from pto_dialect.datatypes import TileDataType

T = TileDataType



def prog(args: list[tuple[str, str]], body: str, results: list[tuple[str, str]]) -> str:
    """``func.func @f`` with the named arguments, ``body`` and the named results."""
    a = ", ".join(f"%{n}: {t}" for n, t in args)
    r = ", ".join(t for _, t in results)
    names = ", ".join(f"%{n}" for n, _ in results)
    return f"func.func @f({a}) -> ({r}) {{\n{body}\n  func.return {names} : {r}\n}}"


def both(text: str, *args, blocks: bool = True) -> list[np.ndarray]:
    """Every result of ``@f`` (PE0's valid rectangle) at tile level; the decoded blocks give
    the same bits (``blocks=False``: an op without a block form, TEXTRACT/TINSERT)."""
    tile = run(text, "f", *args)
    for x, y in zip(tile, run(bundled(text), "f", *args) if blocks else tile):
        assert x.dtype == y.dtype and np.array_equal(x.view(np.uint8), y.view(np.uint8))
    return [x[0] if x.ndim == 3 else x for x in tile]


U64 = "!pto.tile<16x2xui64, valid=2x2>"
"""The migrated suites' ``ConfigureTwoByTwo``: a 256-byte 2x2 U64 tile."""


def u64(rows) -> np.ndarray:
    return np.array(rows, np.uint64)


def verifies(text: str) -> bool:
    """Whether the snippet verifies (a tile type is checked as it is parsed); a failure must
    be a TileLegality diagnostic."""
    try:
        err = verify_error(text)
    except (VerifyException, ParseError) as e:
        err = str(e)
    assert err is None or "[TileLegality]" in err, err
    return err is None


def family_op(name: str):
    from pto_dialect.families import TILE_OP_FAMILIES

    return next(op for _, ops in TILE_OP_FAMILIES for op in ops if op.name == f"pto.{name}")


RAW = {"profile": "raw-carrier"}
"""The ASL reference profile: the migrated suites write raw payload words into float tiles
(FP16 0x0002 is 2) and read raw words back (``interpreter.kernels.cube``)."""


def f16(rows) -> np.ndarray:
    return np.array(rows, np.uint16).view(np.float16)


def f32(rows) -> np.ndarray:
    return np.array(rows, np.uint32).view(np.float32)


def tload_of(tile: str, tensor: str, pad: str = "null"):
    """(TLOAD program of ``tensor`` -> ``tile`` at [0, 0], the run-time tile it loads from a
    given array: ``interpreter.ssa.pto_functions.tload_plan``, the plan both engines run)."""
    from interpreter.ssa.pto_functions import tload_plan
    from interpreter.ssa.runner import build_context, parse_module_text
    from pto_dialect.data_movement import TLoadOp

    props = "pe_stride = [0, 0]" + (f", pad = {pad}" if pad != "null" else "")
    text = prog([("m", tensor)], f"""
  %c0 = arith.constant 0 : index
  %t = pto.tload %m[%c0, %c0] {{{props}}} : {tensor} -> {tile}""", [("t", tile)])
    m = parse_module_text(text, ctx=build_context())
    m.verify()
    op = next(o for o in m.walk() if isinstance(o, TLoadOp))
    return text, lambda arr: tload_plan(op)(arr, 0, 0)[0]
