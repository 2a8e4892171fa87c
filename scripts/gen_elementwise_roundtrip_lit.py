"""Regenerate tests/filecheck/dialects/pto/ops_elementwise.mlir (run from the repo root; the
float-scalar tmuls case at the end of that file is kept by hand)."""
import subprocess
import sys

sys.path.insert(0, '.')
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.elementwise_ops import FILL_OPS, TERNARY_OPS, TILE_SCALAR_OPS, UNARY_OPS
from pto_dialect.ops import TShlOp, TShrOp


def rep_type(cls):
    if T.FP32 not in cls.TYPES:
        return "si32"
    return "f32"
lines = []
body = []
defs = {}
for i, cls in enumerate([*TILE_SCALAR_OPS, *UNARY_OPS, *TERNARY_OPS, *FILL_OPS, TShlOp, TShrOp]):
    et = rep_type(cls)
    if cls in UNARY_OPS and cls.MNEMONIC in ("TABS", "TNEG"):
        et = "f16"
    if cls.MNEMONIC in ("TMAXS",):
        et = "ui8"
    if cls.MNEMONIC in ("TSHRS", "TSHR"):
        et = "si16"
    rows = 2048 // (16 * {"f32":32,"si32":32,"f16":16,"ui8":8,"si16":16}[et])
    t = f"!pto.tile<{rows}x16x{et}, valid=3x10>"
    if t not in defs:
        defs[t] = f"%t{len(defs)}"
        body.append(f'{defs[t]} = "test.op"() : () -> {t}')
    a = defs[t]
    attrs = ' {pad = #pto.pad<zero>}' if i % 2 == 0 else ''
    if cls in TERNARY_OPS:
        body.append(f"%r{i} = {cls.name} {a}, {a}, {a}{attrs} : {t}")
    elif cls in FILL_OPS:
        body.append(f"%r{i} = {cls.name} %s{attrs} : {t}, i64")
    elif cls in TILE_SCALAR_OPS:
        body.append(f"%r{i} = {cls.name} {a}, %s{attrs} : {t}, i64")
    elif cls in UNARY_OPS:
        body.append(f"%r{i} = {cls.name} {a}{attrs} : {t}")
    else:
        body.append(f"%r{i} = {cls.name} {a}, {a}{attrs} : {t}")
src = "\n".join(['builtin.module {', '%s = "test.op"() : () -> i64', *body, '}'])
out = subprocess.run(['.venv/bin/pto-opt'], input=src, capture_output=True, text=True)
assert out.returncode == 0, out.stderr
gen = subprocess.run(['.venv/bin/pto-opt', '--print-op-generic'], input=src, capture_output=True, text=True).stdout
custom = out.stdout.splitlines()
generic = gen.splitlines()
res = ["// Round trip of the unary (TEPL mode 0, functions 15-23), tile-scalar (mode 1, functions",
       "// 0-12), TFMA and TEXPANDS ops and the TSHL/TSHR binary rows, custom and generic (PTO-SPEC 5).",
       "// RUN: xdsl-opt %s | xdsl-opt | filecheck %s",
       "// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s",
       "// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC",
       "// RUN: pto-opt %s | pto-opt | filecheck %s",
       "// CHECK: builtin.module {"]
res.append("builtin.module {")
srcl = src.splitlines()[1:-1]
for sl, cl, gl in zip(srcl, custom[1:-1], generic[1:-1]):
    res.append(sl)
    res.append("// CHECK-NEXT: " + cl.strip() + "{{$}}")
    if "pto." in gl:
        res.append("// GENERIC: " + gl.strip())
res.append("}")
res.append("// CHECK-NEXT: }")
open('tests/filecheck/dialects/pto/ops_elementwise.mlir','w').write("\n".join(res)+"\n")
