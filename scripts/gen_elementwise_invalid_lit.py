"""Regenerate tests/filecheck/dialects/pto/invalid_elementwise.mlir (run from the repo root)."""
import sys

sys.path.insert(0,'.')
import subprocess

from pto_dialect.datatypes import TileDataType as T
from pto_dialect.elementwise_ops import FILL_OPS, TERNARY_OPS, TILE_SCALAR_OPS, UNARY_OPS
from pto_dialect.ops import TShlOp, TShrOp

cases=[]
def tile(et, rows=4, extra=""):
    return f"!pto.tile<{rows}x16x{et}{extra}>"
BITS={"f32":32,"si32":32,"f16":16,"f8E8M0FNU":8,"ui8":8,"si16":16}
def t_of(et, extra=""):
    return tile(et, 2048//(16*BITS[et]), extra)
def use(cls, t, st="i64", t2=None):
    t2 = t2 or t
    if cls in TERNARY_OPS:
        return [f'%a = "test.op"() : () -> {t}', f'%d = "{cls.name}"(%a, %a, %a) : ({t}, {t}, {t}) -> {t2}']
    if cls in FILL_OPS:
        return [f'%s = "test.op"() : () -> {st}', f'%d = "{cls.name}"(%s) : ({st}) -> {t2}']
    if cls in TILE_SCALAR_OPS:
        return [f'%a = "test.op"() : () -> {t}', f'%s = "test.op"() : () -> {st}', f'%d = "{cls.name}"(%a, %s) : ({t}, {st}) -> {t2}']
    if cls in UNARY_OPS:
        return [f'%a = "test.op"() : () -> {t}', f'%d = "{cls.name}"(%a) : ({t}) -> {t2}']
    return [f'%a = "test.op"() : () -> {t}', f'%d = "{cls.name}"(%a, %a) : ({t}, {t}) -> {t2}']
for cls in [*TILE_SCALAR_OPS, *UNARY_OPS, *TERNARY_OPS, *FILL_OPS, TShlOp, TShrOp]:
    bad = "f32" if T.FP32 not in cls.TYPES else ("si32" if T.S32 not in cls.TYPES else "f8E8M0FNU")
    cases.append((f"{cls.MNEMONIC}: element type outside its set ({cls.TYPES_REF})", use(cls, t_of(bad))))
ts = TILE_SCALAR_OPS[0]
un = UNARY_OPS[4]
cases += [
  ("tile-scalar: scalar type neither i64 nor the tile's float type", use(ts, t_of("f32"), "f16")),
  ("tile-scalar: an integer tile's scalar is an i64 raw word", use(TILE_SCALAR_OPS[5], t_of("si32"), "i32")),
  ("tile-scalar: result shape differs from the source", use(ts, t_of("f32"), "i64", t_of("f32", ", valid=2x16"))),
  ("unary: result element type differs", use(un, t_of("f32"), t2=t_of("f16"))),
  ("unary: layout must be row_major (D10)", use(un, "!pto.tile<16x4xf32, col_major>")),
  ("unary: Local tiles only", use(un, t_of("f32", ", shared"))),
  ("unary: tile PEs differ from the op mask (D13)", use(un, t_of("f32", ", pe=1100"))),
]
out=["// Static legality of the unary and tile-scalar families and TSHL/TSHR (D16): one negative",
     "// case per op (its type set, executable ASL) and per family rule (PTO-SPEC 2, 5; D10, D13).",
     "// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s"]
for i,(title, lines) in enumerate(cases):
    src="\n".join(lines)
    r=subprocess.run(['.venv/bin/xdsl-opt','--verify-diagnostics','--parsing-diagnostics'],input=src,capture_output=True,text=True)
    msg=[ln for ln in r.stdout.splitlines()+r.stderr.splitlines() if "op [" in ln]
    assert msg, (title, r.stdout, r.stderr)
    if i:
        out += ["", "// -----", ""]
    out.append(f"// {title}")
    out += lines
    out.append("// CHECK: {{^}}" + msg[0].replace("{{","").strip() + "{{$}}")
open('tests/filecheck/dialects/pto/invalid_elementwise.mlir','w').write("\n".join(out)+"\n")
