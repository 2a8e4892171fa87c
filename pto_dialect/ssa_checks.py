"""Module-level checks xDSL 0.75 does not make: SSA dominance and unsupported float widths.

``pto-opt`` and ``pto-run`` call :func:`check_module` after parsing, before verification
and execution; a violation is a :class:`~xdsl.utils.exceptions.VerifyException`.

**Dominance** (MLIR's rule for SSACFG regions): every use of a value is dominated by its
definition. An operation's result is available to the operations after it in its block
and in the blocks its block dominates, a block argument to its whole block and the blocks
it dominates; a result is never available inside the op's own regions, and a value from
outside an ``IsolatedFromAbove`` op is never available inside it. xDSL 0.75 checks none of
this, so ``%0 = arith.addf %0, %a`` or a ``pto.tstore`` above the ``pto.tload`` it
stores would otherwise be accepted, printed and lowered in the wrong order.

Graph regions are excepted, as in MLIR: the body of ``builtin.module`` (and of an
unregistered op, whose region kind is unknown) may use values before they are defined.
Uses in unreachable blocks are accepted (MLIR does the same).

**Float widths**: ``f80`` and ``f128`` attributes parse but xDSL can neither print nor
evaluate them; they are rejected here with the reason.
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float80Type, Float128Type, ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import VerifyException

__all__ = ["check_dominance", "check_float_widths", "check_module"]


def _is_graph_region(region: Region) -> bool:
    parent = region.parent_op()
    if parent is None:
        return True
    if isinstance(parent, ModuleOp):
        return True
    from xdsl.dialects.builtin import UnregisteredOp

    return isinstance(parent, UnregisteredOp)


def _value_name(user: Operation, value: SSAValue) -> str:
    index = next((i for i, o in enumerate(user.operands) if o is value), None)
    which = f"operand #{index}" if index is not None else "an operand"
    return f"{which} (%{value.name_hint})" if value.name_hint else which


class _Dominance:
    """Block dominators per region, computed on demand (iterative data-flow)."""

    def __init__(self) -> None:
        self._dom: dict[Region, dict[Block, set[Block]]] = {}
        self._index: dict[Block, dict[Operation, int]] = {}

    def dominators(self, region: Region) -> dict[Block, set[Block]]:
        if region in self._dom:
            return self._dom[region]
        blocks = list(region.blocks)
        preds: dict[Block, list[Block]] = {b: [] for b in blocks}
        for b in blocks:
            term = b.last_op
            if term is not None:
                for s in term.successors:
                    if s in preds:
                        preds[s].append(b)
        # Reachable blocks from the entry.
        entry = blocks[0]
        reach = {entry}
        stack = [entry]
        while stack:
            b = stack.pop()
            term = b.last_op
            for s in term.successors if term is not None else ():
                if s in preds and s not in reach:
                    reach.add(s)
                    stack.append(s)
        order = [b for b in blocks if b in reach]
        dom: dict[Block, set[Block]] = {b: set(order) for b in order}
        dom[entry] = {entry}
        changed = True
        while changed:
            changed = False
            for b in order[1:]:
                ps = [dom[p] for p in preds[b] if p in reach]
                new = set.intersection(*ps) if ps else set()
                new = new | {b}
                if new != dom[b]:
                    dom[b] = new
                    changed = True
        self._dom[region] = dom
        return dom

    def index(self, op: Operation) -> int:
        block = op.parent_block()
        assert block is not None
        table = self._index.get(block)
        if table is None:
            table = {o: i for i, o in enumerate(block.ops)}
            self._index[block] = table
        return table[op]


def _check_use(dom: _Dominance, user: Operation, value: SSAValue) -> None:
    if isinstance(value, BlockArgument):
        def_block, def_op = value.block, None
    else:
        def_op = value.owner
        assert isinstance(def_op, Operation)
        def_block = def_op.parent_block()
    if def_block is None:
        raise VerifyException(
            f"'{user.name}' op uses {_value_name(user, value)}, which is defined outside the module"
        )
    def_region = def_block.parent
    # Climb from the user to its ancestor in the definition's region.
    ancestor: Operation | None = user
    while ancestor is not None and ancestor.parent_region() is not def_region:
        parent = ancestor.parent_op()
        if parent is not None and parent.has_trait(IsolatedFromAbove):
            raise VerifyException(
                f"'{user.name}' op uses {_value_name(user, value)}, defined outside the "
                f"isolated-from-above '{parent.name}' around it"
            )
        ancestor = parent
    if ancestor is None:
        raise VerifyException(
            f"'{user.name}' op uses {_value_name(user, value)}, which is not visible here "
            "(defined in a region that does not enclose this use)"
        )
    if def_op is not None and ancestor is def_op:
        raise VerifyException(
            f"'{user.name}' op uses {_value_name(user, value)} inside its own definition"
        )
    if def_region is None or _is_graph_region(def_region):
        return
    use_block = ancestor.parent_block()
    assert use_block is not None
    if use_block is def_block:
        if def_op is not None and dom.index(def_op) > dom.index(ancestor):
            raise VerifyException(
                f"'{user.name}' op uses {_value_name(user, value)} before its definition "
                "(operand does not dominate this use)"
            )
        return
    doms = dom.dominators(def_region)
    if use_block not in doms:  # unreachable: accepted, as in MLIR
        return
    if def_block not in doms[use_block]:
        raise VerifyException(
            f"'{user.name}' op uses {_value_name(user, value)}, whose definition does not dominate "
            "this use (it is not defined on every path to it)"
        )


def check_dominance(module: Operation) -> None:
    """Raise :class:`VerifyException` at the first use its definition does not dominate."""
    dom = _Dominance()
    for op in module.walk():
        for operand in op.operands:
            _check_use(dom, op, operand)


_BAD_FLOATS = (Float80Type, Float128Type)


def _has_bad_float(attr: Attribute, depth: int = 0) -> bool:
    if isinstance(attr, _BAD_FLOATS):
        return True
    if depth > 8:
        return False
    params = getattr(attr, "parameters", None)
    if isinstance(params, tuple):
        return any(isinstance(p, Attribute) and _has_bad_float(p, depth + 1) for p in params)
    return False


def check_float_widths(module: Operation) -> None:
    """Reject ``f80``/``f128`` attributes and types: xDSL cannot print or evaluate them."""
    for op in module.walk():
        attrs = [*op.attributes.values(), *op.properties.values()]
        types = [r.type for r in op.results] + [o.type for o in op.operands]
        for attr in (*attrs, *types):
            if _has_bad_float(attr):
                raise VerifyException(
                    f"'{op.name}' op uses f80 or f128, which this toolchain does not support "
                    "(float types up to f64 only)"
                )


def check_module(module: Operation) -> None:
    """Every check of this module, in order: float widths, then dominance."""
    check_float_widths(module)
    check_dominance(module)
