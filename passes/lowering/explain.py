"""Why an op was not lowered to PTO: one sentence per op (D19, the lowering report).

:func:`explain` classifies the op (:mod:`passes.lowering.classify`) and checks it against
the lowering rules and the per-op table (:mod:`passes.lowering.rows`). Reasons name the
missing PTO instruction when that is what is missing, so that an op which starts lowering
once an instruction lands is easy to find (``needs TEXP``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ShapedType
from xdsl.ir import Operation

from passes.lowering.classify import CONTRACTION, ELEMENTWISE, REDUCTION, classify
from passes.lowering.rows import BODY_ROWS, missing_for, pto_op_available

_CONTRACTION_TYPES_LOWERED = {
    ("f16", "f16", "f32"), ("bf16", "bf16", "f32"), ("f16", "bf16", "f32"), ("bf16", "f16", "f32"),
}
"""Input/output element types whose contractions lower today (pto.gemv / pto.matmul)."""


def _needs(names: list[str]) -> str:
    return ", ".join(sorted(set(names)))


def _body_reason(body: list[Operation]) -> tuple[list[str], list[str]]:
    """(missing instructions, ops with no exact PTO composition) of a body."""
    missing: list[str] = []
    impossible: list[str] = []
    for o in body:
        m = missing_for(o.name)
        if m is None:
            row = BODY_ROWS.get(o.name)
            impossible.append(f"{o.name}" + (f" ({row.why})" if row and row.why else ""))
        else:
            missing.extend(m)
    return missing, impossible


def _elementwise(op: Operation, c) -> str:
    missing, impossible = _body_reason(c.body_ops)
    body = " + ".join(o.name for o in c.body_ops) or "a copy"
    parts: list[str] = []
    if impossible:
        parts.append(f"body op {', '.join(impossible)} has no exact PTO lowering")
    if missing:
        parts.append(f"body ({body}) needs {_needs(missing)}, not in the pto dialect yet")
    if c.broadcast_inputs:
        exp = [m for m in ("TROWEXPAND", "TCOLEXPAND") if not pto_op_available(m)]
        ins = ", ".join(f"input {i} ({c.maps[i]})" for i in c.broadcast_inputs)
        parts.append(
            f"broadcast operand {ins}"
            + (f" needs {_needs(exp)}, not in the pto dialect yet" if exp else " is not expanded yet")
        )
    consts = [o for o in c.body_ops for v in o.operands if v.owner.__class__.__name__ == "ConstantOp"]
    if consts and not pto_op_available("TADDS"):
        parts.append("a constant operand needs the tile-scalar forms (TADDS ...), not in the pto dialect yet")
    if not parts:
        if len(c.body_ops) > 1:
            parts.append(f"body of {len(c.body_ops)} ops ({body}): no idiom matches and the "
                         "expression-tree lowering does not take it yet")
        else:
            parts.append(f"body ({body}) with these types has no PTO row (types: {', '.join(c.element_types)})")
    return "elementwise: " + "; ".join(parts)


def _contraction(op: Operation, c) -> str:
    ts = c.element_types
    if op.name == "linalg.batch_matmul" or (c.maps and c.maps[-1].num_dims >= 4):
        return (
            f"batched contraction ({' x '.join(ts[:2])} -> {ts[-1]}): batch loop of CUBE ops "
            "not implemented yet"
        )
    if len(ts) >= 3 and tuple(ts[:3]) not in _CONTRACTION_TYPES_LOWERED:
        return (
            f"contraction {ts[0]} x {ts[1]} -> {ts[-1]}: only f16/bf16 -> f32 and MX-scaled "
            "inputs lower yet (ordinary TGEMV/TMATMUL FP32 and S8/U8/S16 -> S32 forms "
            "not implemented in the lowering)"
        )
    identity_like = all(m.num_symbols == 0 for m in c.maps)
    if identity_like:
        return "contraction with transposed or broadcast operand maps: needs TTRANS or a data-movement rewrite"
    return "contraction: not recognised"


def _reduction(op: Operation, c) -> str:
    names = [o.name for o in c.body_ops]
    want = {
        "arith.addf": "TROWSUM/TCOLSUM", "arith.addi": "TROWSUM/TCOLSUM",
        "arith.maximumf": "TROWMAX/TCOLMAX", "arith.maxnumf": "TROWMAX/TCOLMAX",
        "arith.minimumf": "TROWMIN/TCOLMIN", "arith.minnumf": "TROWMIN/TCOLMIN",
        "arith.maxsi": "TROWMAX/TCOLMAX", "arith.minsi": "TROWMIN/TCOLMIN",
        "arith.mulf": "TROWPROD/TCOLPROD",
    }
    needs = sorted({want[n] for n in names if n in want})
    if needs:
        avail = all(pto_op_available(m) for n in needs for m in n.split("/"))
        tail = "" if avail else ", not in the pto dialect yet"
        return f"reduction ({' + '.join(names)}): needs {', '.join(needs)}{tail}"
    return f"reduction ({' + '.join(names) or 'no body'}): no PTO reduction computes it"


def explain(op: Operation) -> str:
    """One sentence: what ``op`` is and why it is not (yet) PTO."""
    c = classify(op)
    if c is None:
        if op.name.startswith(("math.", "arith.")):
            shaped = any(isinstance(v.type, ShapedType) for v in (*op.operands, *op.results))
            if shaped:
                m = missing_for(op.name)
                if m:
                    return f"{op.name} on tensors: needs {_needs(list(m))}, not in the pto dialect yet"
                return f"{op.name} on tensors: not lowered (wrap it in a linalg.generic)"
        if op.name.startswith("tensor."):
            return f"{op.name}: computes tensor contents, not data movement PTO expresses"
        return f"'{op.name}' is not a PTO op, data movement or scalar control"
    if c.kind == ELEMENTWISE:
        return _elementwise(op, c)
    if c.kind == CONTRACTION:
        return _contraction(op, c)
    if c.kind == REDUCTION:
        return _reduction(op, c)
    if c.kind == "transpose":
        tail = "" if pto_op_available("TTRANS") else ", not in the pto dialect yet"
        return f"transpose: needs TTRANS (or folding into its consumer's map){tail}"
    if c.kind == "fill":
        tail = "" if pto_op_available("TEXPANDS") else ", not in the pto dialect yet"
        return f"fill of a tensor with a scalar: needs TEXPANDS{tail}"
    if c.kind == "broadcast":
        return "broadcast: needs TROWEXPAND/TCOLEXPAND"
    if c.kind == "copy":
        return "copy: needs a TLOAD/TSTORE pair (not generated yet)"
    return f"{op.name}: iterators/maps of no PTO family"
