"""Regenerate tests/filecheck/dialects/pto/invalid_gm_indexed.mlir: one negative lit test per
static legality rule of the global-memory ops (pto_dialect/gm_indexed.py), each CHECK line the
diagnostic the verifier prints (review the diff: a changed message is a changed rule).

Usage: .venv/bin/python scripts/gen_gm_indexed_invalid.py
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
XDSL_OPT = str(Path(sys.executable).parent / "xdsl-opt")
GM = "tensor<4096xi8>"
IDX = "!pto.tile<8x4xsi32, valid=1x2>"
D = "!pto.tile<64x2xui8, valid=1x2>"
P = "!pto.pred<1x4, valid=1x2>"


def g(name, ins, outs, extra=""):
    names = [n for n, _ in ins]
    res = ", ".join(f"%r{i}" for i in range(len(outs)))
    o = outs[0] if len(outs) == 1 else "(" + ", ".join(outs) + ")"
    lhs = (res + " = ") if outs else ""
    return (
        "\n".join(f'{n} = "test.op"() : () -> {t}' for n, t in ins)
        + "\n"
        + f"{lhs}pto.{name} {', '.join(names)}{extra} : ({', '.join(t for _, t in ins)}) -> {o if outs else '()'}"
    )


def gi(gm=GM, b="index", idx=IDX):
    return [("%gm", gm), ("%b", b), ("%idx", idx)]


cases = [
    (
        "MGATHER: the GM operand is a tensor of whole-byte elements (its bytes are GM)",
        g("mgather", gi(gm="tensor<64xi4>"), [D]),
    ),
    ("MGATHER: the base is an index (the B.IOR base GPR)", g("mgather", gi(b="i64"), [D])),
    (
        "MGATHER: no packed 4-bit transfer type (no nibble selector; AVS BLOCK-MGATHER-SCHEMA-001)",
        g("mgather", gi(), ["!pto.tile<64x4xui4, valid=1x2>"]),
    ),
    (
        "MGATHER: no CUBE layout (an indexed block has no CUBE conversion)",
        g(
            "mgather",
            gi(idx="!pto.tile<8x4xsi32, valid=2x2>"),
            ["!pto.tile<16x16xf16, valid=2x2, cube_m16, mat>"],
        ),
    ),
    (
        "MGATHER: the index tile is an integer tile (AVS BLOCK-MGATHER-SCHEMA-001: FP32 index)",
        g("mgather", gi(idx="!pto.tile<8x4xf32, valid=1x2>"), [D]),
    ),
    (
        "MGATHER: the index valid shape is the destination's",
        g("mgather", gi(idx="!pto.tile<8x4xsi32, valid=2x2>"), [D]),
    ),
    (
        "MGATHER: every source is held by every PE of the mask (D13)",
        g("mgather", gi(idx="!pto.tile<8x4xsi32, valid=1x2, pe=1000>"), [D]),
    ),
    (
        "MGATHER: Local tiles only (B.IOS is illegal)",
        g("mgather", gi(idx="!pto.tile<8x4xsi32, valid=1x2, shared>"), [D]),
    ),
    (
        "MGATHER_MASK: the mask is a !pto.pred tile (AVS BLOCK-MGATHER-MASK-PRED-001)",
        g("mgather_mask", gi() + [("%m", "!pto.tile<32x4xui8, valid=1x2>")], [D]),
    ),
    (
        "MGATHER_MASK: the mask's valid shape is the destination's",
        g("mgather_mask", gi() + [("%m", "!pto.pred<1x4, valid=1x3>")], [D]),
    ),
    (
        "MGATHER_MASK: the index tile has the destination's layout",
        g("mgather_mask", gi(idx="!pto.tile<4x8xsi32, valid=1x2, col_major>") + [("%m", P)], [D]),
    ),
    (
        "MGATHER_CAS: the expected tile has the transfer type",
        g("mgather_cas", gi() + [("%e", "!pto.tile<32x2xui16, valid=1x2>"), ("%r", D)], [D, GM]),
    ),
    (
        "MGATHER_CAS: the replacement tile has the transfer type",
        g("mgather_cas", gi() + [("%e", D), ("%r", "!pto.tile<64x2xsi8, valid=1x2>")], [D, GM]),
    ),
    (
        "MGATHER_CAS: the updated GM has the GM operand's type",
        g("mgather_cas", gi() + [("%e", D), ("%r", D)], [D, "tensor<2048xi8>"]),
    ),
    ("MSCATTER: the data tile is a !pto.tile", g("mscatter", [("%v", P)] + gi(), [GM])),
    (
        "MSCATTER: no packed 4-bit data (AVS BLOCK-MSCATTER-PACKED-001)",
        g("mscatter", [("%v", "!pto.tile<64x4xui4, valid=1x2>")] + gi(), [GM]),
    ),
    (
        "MSCATTER: the index tile has the data tile's layout",
        g("mscatter", [("%v", D)] + gi(idx="!pto.tile<4x8xsi32, valid=1x2, col_major>"), [GM]),
    ),
    (
        "MSCATTER: the index valid shape is the data tile's",
        g("mscatter", [("%v", D)] + gi(idx="!pto.tile<8x4xsi32, valid=1x1>"), [GM]),
    ),
    (
        "MSCATTER: the index tile is an integer tile (AVS BLOCK-MSCATTER-SCHEMA-001)",
        g("mscatter", [("%v", D)] + gi(idx="!pto.tile<8x4xf32, valid=1x2>"), [GM]),
    ),
    (
        "MSCATTER_MASK: the mask is a !pto.pred tile (AVS BLOCK-MSCATTER-MASK-PRED-001)",
        g("mscatter_mask", [("%v", D)] + gi() + [("%m", D)], [GM]),
    ),
    (
        "MSCATTER_MASK: the mask is held by every PE of the mask",
        g(
            "mscatter_mask",
            [("%v", D)] + gi() + [("%m", "!pto.pred<1x4, valid=1x2, pe=0001>")],
            [GM],
        ),
    ),
    (
        "TPREFETCH: the footprint is a !pto.tile type",
        g("tprefetch", gi()[:2] + [("%s", "index")], [], " {footprint = i32}"),
    ),
    (
        "TPREFETCH: the footprint is a non-CUBE tile (the TLOAD footprint)",
        g(
            "tprefetch",
            gi()[:2] + [("%s", "index")],
            [],
            " {footprint = !pto.tile<16x16xf16, valid=2x2, cube_m16, mat>}",
        ),
    ),
    (
        "TPREFETCH: the GM operand is a tensor (its bytes are GM)",
        g(
            "tprefetch",
            gi(gm="memref<4096xi8>")[:2] + [("%s", "index")],
            [],
            " {footprint = !pto.tile<64x2xui16, valid=2x2>}",
        ),
    ),
    (
        "TPREFETCH: at most 32-bit carriers or 4-bit types (AVS TILE-STAGE4-CARRIER-TYPES-001: no FP64)",
        g(
            "tprefetch",
            gi()[:2] + [("%s", "index")],
            [],
            " {footprint = !pto.tile<16x8xf64, valid=2x2>}",
        ),
    ),
    (
        "TPREFETCH: the row stride is an index (elements)",
        g(
            "tprefetch",
            gi()[:2] + [("%s", "i64")],
            [],
            " {footprint = !pto.tile<64x2xui16, valid=2x2>}",
        ),
    ),
    (
        "GMOV: at most 32-bit carriers or 4-bit types (AVS TILE-STAGE4-CARRIER-TYPES-001: no FP64)",
        g(
            "gmov",
            [("%s", "!pto.tile<16x1xf64, valid=1x1>")],
            ["!pto.tile<16x1xf64, valid=1x1>"],
            " {peers = array<i64: 0, 0, 0, 0>}",
        ),
    ),
    (
        "GMOV: four peer_tids 0..3 (AVS BLOCK-GMOV-PEER-001)",
        g(
            "gmov",
            [("%s", "!pto.tile<128x1xui8, valid=1x1>")],
            ["!pto.tile<128x1xui8, valid=1x1>"],
            " {peers = array<i64: 0, 4, 1, 2>}",
        ),
    ),
    (
        "GMOV: the source is ready on all four PEs (AVS BLOCK-GMOV-READINESS-001)",
        g(
            "gmov",
            [("%s", "!pto.tile<128x1xui8, valid=1x1, pe=1110>")],
            ["!pto.tile<128x1xui8, valid=1x1, pe=1000>"],
            " {peers = array<i64: 0, 0, 0, 0>}",
        ),
    ),
    (
        "GMOV: the destination has the source's type",
        g(
            "gmov",
            [("%s", "!pto.tile<128x1xui8, valid=1x1>")],
            ["!pto.tile<128x1xsi8, valid=1x1>"],
            " {peers = array<i64: 0, 0, 0, 0>}",
        ),
    ),
    (
        "GMOV: the destination has the source's capacity (TSize)",
        g(
            "gmov",
            [("%s", "!pto.tile<128x1xui8, valid=1x1>")],
            ["!pto.tile<256x1xui8, valid=1x1>"],
            " {peers = array<i64: 0, 0, 0, 0>}",
        ),
    ),
    (
        "GMOV: Local tiles only",
        g(
            "gmov",
            [("%s", "!pto.tile<128x1xui8, valid=1x1, shared>")],
            ["!pto.tile<128x1xui8, valid=1x1>"],
            " {peers = array<i64: 0, 0, 0, 0>}",
        ),
    ),
]
out = [
    "// Static legality of the global-memory TLSU operations (pto_dialect/gm_indexed.py; D25,",
    "// docs/gm-indexed.md): one negative test per rule, each with its exact diagnostic.",
    "// Generated by scripts/gen_gm_indexed_invalid.py.",
    "// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s",
    "",
]
for i, (title, body) in enumerate(cases):
    r = subprocess.run(
        [XDSL_OPT, "--verify-diagnostics", "--parsing-diagnostics"],
        input=body,
        capture_output=True,
        text=True,
    )
    diag = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.startswith("'pto.")]
    print(title, "=>", diag[:2], file=sys.stderr)
    d = diag[0] if diag else "???"
    if i:
        out += ["// -----", ""]
    out += ["// " + title, body, "// CHECK: {{^}}" + d.replace("{", '{{"{"}}') + "{{$}}", ""]
(ROOT / "tests/filecheck/dialects/pto/invalid_gm_indexed.mlir").write_text("\n".join(out))
