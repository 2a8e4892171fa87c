"""Classify a structured linalg op by its indexing maps, iterators and body.

* ``elementwise`` — all iterators parallel, the output map the identity, every input map a
  projected permutation (identity, or a broadcast that drops dimensions) or a constant;
* ``contraction`` — at least one reduction, body ``yield add(acc, mul(f(x), g(y)))``
  (GEMV when the output has one non-unit dimension, matmul, batched matmul);
* ``reduction`` — reductions with any other body (sum, max ...);
* ``transpose`` / ``fill`` / ``copy`` / ``broadcast`` — the data-movement named ops.

The result also records which inputs are broadcast (their map is not the identity) and
the body's computing ops, which :mod:`passes.lowering.explain` turns into reasons.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import ShapedType
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

ELEMENTWISE, CONTRACTION, REDUCTION = "elementwise", "contraction", "reduction"
DATA_MOVEMENT_NAMED = {
    "linalg.transpose": "transpose",
    "linalg.fill": "fill",
    "linalg.copy": "copy",
    "linalg.broadcast": "broadcast",
}


@dataclass
class Classified:
    kind: str
    maps: list[AffineMap] = field(default_factory=list)
    broadcast_inputs: list[int] = field(default_factory=list)
    scalar_inputs: list[int] = field(default_factory=list)
    body_ops: list[Operation] = field(default_factory=list)
    reductions: int = 0
    element_types: list[str] = field(default_factory=list)


def _is_broadcast_map(m: AffineMap) -> bool:
    """A projected permutation possibly with constant-0 results: what broadcasting emits."""
    dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
    ok = all(isinstance(e, AffineDimExpr | AffineConstantExpr) for e in m.results)
    return ok and len(dims) == len(set(dims))


def _body(op: Operation) -> list[Operation]:
    if not op.regions or not op.regions[0].blocks:
        return []
    return [
        o
        for o in op.regions[0].block.ops
        if not isinstance(o, arith.ConstantOp | linalg.YieldOp)
    ]


def _elt(t) -> str:
    return str(t.get_element_type()) if isinstance(t, ShapedType) else str(t)


def classify(op: Operation) -> Classified | None:
    """The class of a structured linalg op; None for anything else."""
    if op.name in DATA_MOVEMENT_NAMED:
        return Classified(DATA_MOVEMENT_NAMED[op.name], element_types=[_elt(o.type) for o in op.operands])
    if not isinstance(op, LinalgStructuredOperation):
        return None
    try:
        maps = [m.data for m in op.get_indexing_maps().data]
        its = [it.data for it in op.get_iterator_types().data]
    except Exception:  # a malformed op: nothing to classify
        return None
    body = _body(op)
    types = [_elt(o.type) for o in op.operands]
    n_in = len(op.inputs)
    reductions = sum(1 for it in its if it is IteratorType.REDUCTION)
    if reductions == 0 and maps and maps[-1] == AffineMap.identity(len(its)):
        bcast = [
            i for i, m in enumerate(maps[:n_in])
            if m != AffineMap.identity(len(its)) and isinstance(op.inputs[i].type, ShapedType)
        ]
        scalars = [i for i in range(n_in) if not isinstance(op.inputs[i].type, ShapedType)]
        if all(_is_broadcast_map(m) for m in maps[:n_in]):
            return Classified(ELEMENTWISE, maps, bcast, scalars, body, 0, types)
    if reductions:
        names = [o.name for o in body]
        is_contraction = (
            n_in >= 2
            and any(n in ("arith.mulf", "arith.muli") for n in names)
            and names[-1:] in (["arith.addf"], ["arith.addi"])
        )
        kind = CONTRACTION if is_contraction else REDUCTION
        return Classified(kind, maps, [], [], body, reductions, types)
    return Classified("other", maps, [], [], body, 0, types)
