"""D19: find computation that is neither PTO, data movement nor scalar control.

The block targets (``-t pto-asm``, ``-t pto-bin``) call :func:`check_fully_lowered`; the
lowering report (:mod:`passes.lowering.report`) lists the same ops. What may remain in a
lowered program:

* ``pto.*`` ops (the targets separately insist on ``pto.block``);
* structure and scalar control: ``builtin.module``, ``func.*``, ``scf.*``, ``arith`` ops on
  scalars and ``arith.constant`` (also dense tensor constants: data);
* data movement on tensors in global memory: ``tensor.empty``, ``expand_shape``,
  ``collapse_shape``, ``extract_slice``, ``insert_slice``, ``cast``, ``dim``, ``reshape``,
  ``extract``, ``from_elements``.

Everything else (``linalg.*``, ``math.*``, ``arith`` on tensors, ``tensor.generate`` /
``pad`` ...) is a leftover; each is reported once, with its location and the reason from
:func:`passes.lowering.explain.explain` (ops inside a leftover's body are not repeated).

xDSL 0.75 keeps no source locations, so a location is the enclosing function, the op's
position in it (1-based, in program order, nested ops included) and its result's name.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, builtin, func
from xdsl.dialects.builtin import ShapedType
from xdsl.ir import Operation

from passes.lowering.explain import explain
from pto_dialect.tools.boundary import ToolError

DATA_MOVEMENT = frozenset(
    {
        "tensor.empty", "tensor.expand_shape", "tensor.collapse_shape", "tensor.extract_slice",
        "tensor.insert_slice", "tensor.cast", "tensor.dim", "tensor.reshape", "tensor.extract",
        "tensor.from_elements",
    }
)
STRUCTURE_PREFIXES = ("pto.", "func.", "scf.", "builtin.")


def is_allowed(op: Operation) -> bool:
    """PTO, structure, scalar control or data movement (see the module docstring)."""
    if op.name.startswith(STRUCTURE_PREFIXES) or op.name in DATA_MOVEMENT:
        return True
    if isinstance(op, arith.ConstantOp):
        return True
    if op.name.startswith("arith."):
        return not any(isinstance(v.type, ShapedType) for v in (*op.operands, *op.results))
    return False


@dataclass(frozen=True)
class Leftover:
    op: Operation
    location: str
    reason: str

    def diagnostic(self) -> str:
        return f"{self.location}: '{self.op.name}' not lowered to PTO: {self.reason}"


def location_of(op: Operation, positions: dict[Operation, tuple[str, int]] | None = None) -> str:
    fn = op.parent_op()
    while fn is not None and not isinstance(fn, func.FuncOp):
        fn = fn.parent_op()
    sym = f"@{fn.sym_name.data}" if isinstance(fn, func.FuncOp) else "<module>"
    idx = positions[op][1] if positions and op in positions else None
    where = f"{sym} op {idx}" if idx is not None else sym
    names = [f"%{r.name_hint}" for r in op.results if r.name_hint]
    return where + (f" ({', '.join(names)})" if names else "")


def _positions(module: builtin.ModuleOp) -> dict[Operation, tuple[str, int]]:
    out: dict[Operation, tuple[str, int]] = {}
    for f in module.walk():
        if isinstance(f, func.FuncOp):
            for i, o in enumerate(f.walk()):
                if o is not f:
                    out[o] = (f.sym_name.data, i)
    return out


def find_leftovers(module: builtin.ModuleOp) -> list[Leftover]:
    """Every op of ``module`` that is not allowed, outermost first, in program order."""
    positions = _positions(module)
    found: list[Leftover] = []

    def visit(op: Operation) -> None:
        if not is_allowed(op):
            found.append(Leftover(op, location_of(op, positions), explain(op)))
            return  # its body ops belong to it
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    visit(inner)

    visit(module)
    return found


class NotFullyLoweredError(ToolError, ValueError):
    """A block target was asked to emit a program that still computes outside PTO (D19): a
    user-facing error (the tools print it as one diagnostic, exit status 1)."""


def check_fully_lowered(module: builtin.ModuleOp, target: str) -> None:
    """Raise :class:`NotFullyLoweredError` listing every leftover, one line each."""
    left = find_leftovers(module)
    if not left:
        return
    lines = [
        f"-t {target}: {len(left)} operation(s) not lowered to PTO; emitting blocks would "
        "drop their computation (D19)"
        + ("; lower it first (-p pto-lower)" if any("(-p pto-lower)" in x.reason for x in left) else "")
        + ":"
    ]
    lines += [f"  {x.diagnostic()}" for x in left]
    raise NotFullyLoweredError("\n".join(lines))
