"""Shared helpers of the lowering tests: program text builders and pass running."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin

from interpreter.ssa.runner import build_context, parse_module_text


def parse(text: str) -> builtin.ModuleOp:
    m = parse_module_text(text)
    m.verify()
    return m


def apply(pass_obj, module: builtin.ModuleOp) -> builtin.ModuleOp:
    """Apply a pass to a clone; the result is verified."""
    ctx: Context = build_context()
    out = module.clone()
    pass_obj.apply(ctx, out)
    out.verify()
    return out


ID2 = "affine_map<(d0, d1) -> (d0, d1)>"


def floor_mod_program(shape: tuple[int, ...], elt: str, kind: str) -> str:
    """A linalg.generic floor-mod program: kind ``signed`` / ``unsigned`` / ``float``."""
    t = f"tensor<{'x'.join(map(str, shape))}x{elt}>"
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    idm = f"affine_map<({dims}) -> ({dims})>"
    its = ", ".join(['"parallel"'] * rank)
    if kind == "unsigned":
        body = f"""    %q = arith.remui %x, %y : {elt}
    linalg.yield %q : {elt}"""
        const = ""
    else:
        rem, cmp, add, ne, lt = (
            ("arith.remsi", "arith.cmpi", "arith.addi", "ne", "slt")
            if kind == "signed"
            else ("arith.remf", "arith.cmpf", "arith.addf", "one", "olt")
        )
        const = f"  %z = arith.constant {'0' if kind == 'signed' else '0.0'} : {elt}\n"
        body = f"""    %r = {rem} %x, %y : {elt}
    %nz = {cmp} {ne}, %r, %z : {elt}
    %bn = {cmp} {lt}, %y, %z : {elt}
    %rn = {cmp} {lt}, %r, %z : {elt}
    %s = arith.xori %bn, %rn : i1
    %fix = arith.andi %nz, %s : i1
    %sum = {add} %r, %y : {elt}
    %res = arith.select %fix, %sum, %r : {elt}
    linalg.yield %res : {elt}"""
    return f"""func.func @f(%a: {t}, %b: {t}) -> {t} {{
{const}  %e = tensor.empty() : {t}
  %o = linalg.generic {{indexing_maps = [{idm}, {idm}, {idm}], iterator_types = [{its}]}} ins(%a, %b : {t}, {t}) outs(%e : {t}) {{
  ^bb0(%x: {elt}, %y: {elt}, %out: {elt}):
{body}
  }} -> {t}
  return %o : {t}
}}
"""


def gemv_program(
    k: int,
    n: int,
    a_elt: str,
    b_elt: str,
    *,
    bias: bool = False,
    relu: bool = False,
    out_elt: str = "f32",
) -> str:
    """A vecmat-shaped linalg.generic GEMV (MX-scaled sides for non-f16/bf16 types),
    optionally with a broadcast bias add, ReLU and a truncf epilogue."""
    nb = -(-k // 32)
    a_scaled = a_elt not in ("f16", "bf16")
    b_scaled = b_elt not in ("f16", "bf16")
    ins, types, maps, args = ["%a"], [f"tensor<{k}x{a_elt}>"], ["affine_map<(n, k) -> (k)>"], [f"%x: {a_elt}"]
    params = [f"%a: tensor<{k}x{a_elt}>"]
    body = ["    %a32 = arith.extf %x : " + f"{a_elt} to f32"]
    av = "%a32"
    if a_scaled:
        params.append(f"%as: tensor<{nb}xf8E8M0FNU>")
        ins.append("%as")
        types.append(f"tensor<{nb}xf8E8M0FNU>")
        maps.append("affine_map<(n, k) -> (k floordiv 32)>")
        args.append("%xs: f8E8M0FNU")
        body += ["    %as32 = arith.extf %xs : f8E8M0FNU to f32", "    %av = arith.mulf %a32, %as32 : f32"]
        av = "%av"
    params.append(f"%b: tensor<{k}x{n}x{b_elt}>")
    ins.append("%b")
    types.append(f"tensor<{k}x{n}x{b_elt}>")
    maps.append("affine_map<(n, k) -> (k, n)>")
    args.append(f"%y: {b_elt}")
    body.append(f"    %b32 = arith.extf %y : {b_elt} to f32")
    bv = "%b32"
    if b_scaled:
        params.append(f"%bs: tensor<{nb}x{n}xf8E8M0FNU>")
        ins.append("%bs")
        types.append(f"tensor<{nb}x{n}xf8E8M0FNU>")
        maps.append("affine_map<(n, k) -> (k floordiv 32, n)>")
        args.append("%ys: f8E8M0FNU")
        body += ["    %bs32 = arith.extf %ys : f8E8M0FNU to f32", "    %bv = arith.mulf %b32, %bs32 : f32"]
        bv = "%bv"
    if bias:
        params.append(f"%bias: tensor<{n}xf32>")
    body += [f"    %p = arith.mulf {av}, {bv} : f32", "    %s = arith.addf %acc, %p : f32",
             "    linalg.yield %s : f32"]
    maps.append("affine_map<(n, k) -> (n)>")
    args.append("%acc: f32")
    idm = "affine_map<(d0) -> (d0)>"
    res_t = f"tensor<{n}x{out_elt}>"
    lines = [
        f"func.func @f({', '.join(params)}) -> {res_t} {{",
        "  %zero = arith.constant 0.000000e+00 : f32",
        f"  %e = tensor.empty() : tensor<{n}xf32>",
        f"  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<{n}xf32>) -> tensor<{n}xf32>",
        f"  %r0 = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [\"parallel\", \"reduction\"]}} "
        f"ins({', '.join(ins)} : {', '.join(types)}) outs(%z : tensor<{n}xf32>) {{",
        f"  ^bb0({', '.join(args)}):",
        *body,
        f"  }} -> tensor<{n}xf32>",
    ]
    cur = "%r0"
    if bias:
        lines += [
            f"  %r1 = linalg.generic {{indexing_maps = [{idm}, {idm}, {idm}], iterator_types = [\"parallel\"]}} "
            f"ins({cur}, %bias : tensor<{n}xf32>, tensor<{n}xf32>) outs(%e : tensor<{n}xf32>) {{",
            "  ^bb0(%u: f32, %v: f32, %o: f32):",
            "    %t = arith.addf %u, %v : f32",
            "    linalg.yield %t : f32",
            f"  }} -> tensor<{n}xf32>",
        ]
        cur = "%r1"
    if relu:
        lines += [
            f"  %r2 = linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = [\"parallel\"]}} "
            f"ins({cur} : tensor<{n}xf32>) outs(%e : tensor<{n}xf32>) {{",
            "  ^bb0(%u: f32, %o: f32):",
            "    %t = arith.maximumf %u, %zero : f32",
            "    linalg.yield %t : f32",
            f"  }} -> tensor<{n}xf32>",
        ]
        cur = "%r2"
    if out_elt != "f32":
        lines += [
            f"  %e3 = tensor.empty() : {res_t}",
            f"  %r3 = linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = [\"parallel\"]}} "
            f"ins({cur} : tensor<{n}xf32>) outs(%e3 : {res_t}) {{",
            f"  ^bb0(%u: f32, %o: {out_elt}):",
            f"    %t = arith.truncf %u : f32 to {out_elt}",
            f"    linalg.yield %t : {out_elt}",
            f"  }} -> {res_t}",
        ]
        cur = "%r3"
    lines += [f"  return {cur} : {res_t}", "}"]
    return "\n".join(lines) + "\n"
