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
from passes.lowering.convolution import tap_product_types_ok, window_roles
from passes.lowering.elementwise import why_not
from passes.lowering.expand import COMMUTATIVE, EXPAND_BINARY, broadcast_axis
from passes.lowering.idioms import (
    SIGNED_IDIOM,
    float_idiom,
    match_elementwise_body,
    match_floor_mod_body,
)
from passes.lowering.integer_contraction import wide_integer_matmul
from passes.lowering.reductions import Reduction, match_reduction
from passes.lowering.rows import BODY_ROWS, missing_for, pto_op_available
from pto_dialect.tensor_ops import cube_accumulator, cube_dtype_of, floor_mod_dtype, result_dtype_of
from pto_dialect.upstream import window_spec


def _needs(names: list[str]) -> str:
    return ", ".join(sorted(set(names)))


NOT_WRITTEN = " (in the pto dialect; the lowering onto it is not written yet)"
"""The tail of a reason whose instructions exist but which the lowering does not emit yet."""


def _tail(*mnemonics: str) -> str:
    if all(pto_op_available(m) for m in mnemonics):
        return NOT_WRITTEN
    return ", not in the pto dialect yet"


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


def _floor_mod_idiom(op: Operation) -> tuple[bool, bool]:
    """(the body is the floor-modulo idiom, its element type is one ``pto.floor_mod`` takes)."""

    if not op.regions or not op.regions[0].blocks or not op.results:
        return False, False
    block = op.regions[0].block
    signed = match_floor_mod_body(block, SIGNED_IDIOM) is not None
    if not signed and match_floor_mod_body(block, float_idiom()) is None:
        return False, False
    elt = op.results[0].type.get_element_type()  # type: ignore[union-attr]
    return True, floor_mod_dtype(elt, "signed" if signed else None) is not None


def _elementwise(op: Operation, c) -> str:

    if op.name == "linalg.generic":
        why = why_not(op)
        if why is None:
            return ("elementwise: pto-lower converts it (passes/lowering/elementwise.py): the "
                    "program was not lowered (-p pto-lower)")  # fmt: skip
        return f"elementwise: {why}"
    return _named_elementwise(op, c)


def _named_elementwise(op: Operation, c) -> str:
    is_fm, type_ok = _floor_mod_idiom(op)
    if is_fm and not type_ok:
        elt = op.results[0].type.get_element_type()  # type: ignore[union-attr]
        return f"elementwise: the floor-modulo idiom on {elt}: outside pto.floor_mod's element types (TREM, D6)"
    if is_fm:
        c.body_ops = []  # the idiom is TREM's: only the operands can be in the way
    missing, impossible = _body_reason(c.body_ops)
    body = " + ".join(o.name for o in c.body_ops) or "a copy"
    parts: list[str] = []
    if impossible:
        parts.append(f"body op {', '.join(impossible)} has no exact PTO lowering")
    if missing:
        parts.append(f"body ({body}) needs {_needs(missing)}, not in the pto dialect yet")
    bwhy = _broadcast_reason(op, c)
    if bwhy:
        parts.append(bwhy)
    elif c.broadcast_inputs:
        exp = [m for m in ("TROWEXPAND", "TCOLEXPAND") if not pto_op_available(m)]
        ins = ", ".join(f"input {i} ({c.maps[i]})" for i in c.broadcast_inputs)
        parts.append(
            f"broadcast operand {ins}"
            + (f" needs {_needs(exp)}, not in the pto dialect yet" if exp
               else f" needs TROWEXPAND/TCOLEXPAND{NOT_WRITTEN}")
        )
    consts = [o for o in c.body_ops for v in o.operands if v.owner.__class__.__name__ == "ConstantOp"]
    if consts and not pto_op_available("TADDS"):
        parts.append("a constant operand needs the tile-scalar forms (TADDS ...), not in the pto dialect yet")
    if not parts:
        if len(c.body_ops) > 1:
            parts.append(f"body of {len(c.body_ops)} ops ({body}): no idiom matches and the "
                         "expression-tree lowering does not take it yet")
        else:
            row = BODY_ROWS.get(c.body_ops[0].name) if c.body_ops else None
            if row is not None and row.needs:
                parts.append(f"body ({body}) needs {_needs(list(row.needs))}{NOT_WRITTEN}")
            else:
                parts.append(f"body ({body}) with these types has no PTO row (types: {', '.join(c.element_types)})")
    return "elementwise: " + "; ".join(parts)


def _broadcast_reason(op: Operation, c) -> str | None:
    """A precise reason for a two-input broadcast the expand patterns leave, or None."""

    if len(c.broadcast_inputs) != 1 or len(getattr(op, "inputs", ())) != 2 or not op.regions:
        return None
    bi = c.broadcast_inputs[0]
    rank = c.maps[-1].num_dims
    bt = op.inputs[bi].type  # type: ignore[attr-defined]
    axis = broadcast_axis(c.maps[bi], bt) if rank == 2 else None
    if axis is None:
        if isinstance(bt, ShapedType) and all(d == 1 for d in bt.get_shape()):
            return (f"broadcast operand input {bi} ({c.maps[bi]}) is one element: a scalar "
                    "operand, the tile-scalar forms (TADDS ...) of the expression-tree lowering")  # fmt: skip
        return (f"broadcast operand input {bi} ({c.maps[bi]}): only a row (d0) or column (d1) "
                "vector of a 2-D iteration maps to TROWEXPAND*/TCOLEXPAND*")  # fmt: skip
    m = match_elementwise_body(op.regions[0].block)
    if m is None:
        return (f"broadcast {axis} operand input {bi} under a body that is not one binary op: "
                f"T{axis.upper()}EXPAND* apply one op (a multi-op body needs the expression-tree "
                f"lowering with T{axis.upper()}EXPAND copies)")  # fmt: skip
    kind, _, ia, _ = m
    if kind not in EXPAND_BINARY:
        return f"{kind} against a broadcast {axis}: no T{axis.upper()}EXPAND{kind.upper()} instruction"
    if ia == bi and kind not in COMMUTATIVE:
        return (f"{kind} with the broadcast {axis} as the first operand: T{axis.upper()}EXPAND"
                f"{kind.upper()} computes x {kind} b only (b - x is not -(x - b) on zeros, D18)")  # fmt: skip
    return None


def _contraction(op: Operation, c) -> str:

    ts = c.element_types
    vals = list(op.operands)
    dts = [cube_dtype_of(v.type.get_element_type()) for v in vals[:2] if isinstance(v.type, ShapedType)]
    if len(dts) == 2 and None not in dts and len(vals) == 3:
        acc = cube_accumulator(dts[0], dts[1], False)  # type: ignore[arg-type]
        out = result_dtype_of(vals[2].type.get_element_type())  # type: ignore[union-attr]
        if acc is None:
            return f"contraction {ts[0]} x {ts[1]}: neither an MX pair (D2) nor an ordinary pair of one class (PTO-SPEC 1)"
        if out is not acc:
            return f"contraction {ts[0]} x {ts[1]} -> {ts[-1]}: the result is not the {acc.name} accumulator (D3)"
        default = getattr(op, "get_default_indexing_maps", None)
        if op.name in ("linalg.matmul", "linalg.batch_matmul") and default is not None:
            if list(c.maps) == list(default()):
                return (
                    f"contraction {ts[0]} x {ts[1]} -> {ts[-1]} that pto-lower converts "
                    "(TGEMV/TMATMUL): the program was not lowered (-p pto-lower)"
                )
    elif len(vals) == 3:
        return f"contraction on {', '.join(ts)}: not a CUBE input type pair (D2, PTO-SPEC 1)"
    if c.maps and c.maps[-1].num_dims >= 4:
        return "batched contraction with maps other than (b, m, k), (b, k, n) -> (b, m, n)"
    return (
        "contraction with transposed, broadcast or scaled operand maps no pattern matches "
        "(a transposed operand needs TTRANS)"
    )


def _reduction(op: Operation, c) -> str:
    """Why a reduction generic did not lower (:func:`passes.lowering.reductions.match_reduction`)."""

    names = " + ".join(o.name for o in c.body_ops) or "no body"
    if len(getattr(op, "outputs", ())) > 1:
        return (f"reduction ({names}) with {len(op.outputs)} used results: one TROW*/TCOL* "  # type: ignore[attr-defined]
                "computes one result; an arg-max/arg-min index is TROWARGMAX/TROWARGMIN only where "
                "its rule matches (it skips NaN and moves from -0 to +0, `cmpf ogt` + select "
                "does neither: D18), not written")  # fmt: skip
    if len(getattr(op, "inputs", ())) != 1:
        return f"reduction ({names}) of {len(op.inputs)} inputs: TROW*/TCOL* fold one tensor"  # type: ignore[attr-defined]
    r = match_reduction(op)
    if isinstance(r, str):
        return f"reduction ({names}): {r}"
    if isinstance(r, Reduction):
        return f"reduction ({names}): lowers to T{r.axis.upper()}{r.body.reduction.upper()}{NOT_WRITTEN}"
    return f"reduction ({names}): no PTO reduction computes it"


def _window_reason(op: Operation) -> str | None:
    """Convolutions, poolings and ``tensor.pad``: what their normalisations need
    (:mod:`passes.lowering.convolution`)."""
    spec = window_spec(op)
    if spec is not None:
        what = "convolution" if spec.kind == "conv" else f"{spec.kind} pooling"
        if spec.kind == "conv" and window_roles(spec)["in_channel"] and not tap_product_types_ok(op):  # type: ignore[arg-type]
            types = ", ".join(str(v.type.get_element_type()) for v in op.operands)  # type: ignore[union-attr]
            return (f"convolution on {types}: not a CUBE input type pair with that accumulator "
                    "(D2, PTO-SPEC 1)")
        return (f"{what}: the per-filter-tap decomposition (TMATMUL chains, elementwise chains) "
                "needs static shapes, and for a convolution the channels and the pixels as two "
                "contiguous blocks of the input, kernel and output layouts")
    if op.name == "linalg.matmul" and wide_integer_matmul(op):
        return ("integer matmul with an i64 result: the exact decompositions need a zero init "
                "and K * 2^14 below 2^31 (balanced 8-bit digits on the S16 CUBE path), or operands "
                "bounded within i16 (passes/lowering/integer_contraction.py)")
    if op.name == "tensor.pad":
        return ("tensor.pad: only a pad with static sizes and a constant value lowers (a splat "
                "constant with the source inserted)")
    return None


def explain(op: Operation) -> str:
    """One sentence: what ``op`` is and why it is not (yet) PTO."""
    window = _window_reason(op)
    if window is not None:
        return window
    c = classify(op)
    if c is None:
        if op.name.startswith(("math.", "arith.")):
            shaped = any(isinstance(v.type, ShapedType) for v in (*op.operands, *op.results))
            if shaped:
                m = missing_for(op.name)
                if m:
                    return f"{op.name} on tensors: needs {_needs(list(m))}, not in the pto dialect yet"
                return f"{op.name} on tensors: not lowered (wrap it in a linalg.generic)"
        if op.name == "tm_tensor.sort":
            return ("tm_tensor.sort (TopK): lowers to TSORT along the last dimension of a 2-D "
                    "f32/f16 tensor, rows of at most 64, comparator oge/ole, indices unused "
                    "(TSORT's U32 indices to the iota's i64 are not written); not this one")
        if op.name == "tensor.concat":
            return "tensor.concat: only static shapes lower (insert_slice at offsets)"
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
        return ("transpose: a permutation of a static tensor lowers as 2-D blocks (slices, "
                "TTRANS) of an element type TTRANS takes, at most 256 blocks; not this one")
    if c.kind == "fill":
        users = sorted({u.operation.name for r in op.results for u in r.uses
                        if u.operation.name.startswith("linalg.")})  # fmt: skip
        if users:
            return (f"fill: the initial value of {', '.join(users)}, which stays; a fill is "
                    "lowered with its reader (TEXPANDS when no linalg op reads it)")  # fmt: skip
        return "fill: pto-lower converts it to TEXPANDS: the program was not lowered (-p pto-lower)"
    if c.kind == "broadcast":
        return ("broadcast: lowers as a generic (TROWEXPAND/TCOLEXPAND copies) when static: "
                "the program was not lowered (-p pto-lower)")
    if c.kind == "copy":
        return "copy: needs a TLOAD/TSTORE pair (not generated yet)"
    return f"{op.name}: iterators/maps of no PTO family"
