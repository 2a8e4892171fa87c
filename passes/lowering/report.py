"""The lowering report: which ops were lowered to what, which were not and why.

Two ways to get it (printed to stderr, so the IR on stdout stays usable):

* ``pto-opt prog.mlir -p 'pto-lower{report=true}'`` — records every computing op of the
  input (its location and class), follows the recognition rewrites (a listener on the
  rewriter: op -> the tensor-level PTO op that replaced it, epilogues folded into a CUBE op
  included) and, after lowering, lists each source op as ``lowered -> pto.X`` or ``kept:
  <reason>``, then the PTO instructions the program executes (static loop trip counts
  multiplied out);
* ``pto-opt prog.mlir -p pto-lowering-report`` — for any program (lowered or not): its
  leftovers with reasons (:mod:`passes.lowering.leftovers`) and its PTO instruction counts.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriterListener

from passes.lowering.classify import classify
from passes.lowering.emitter import trip_count
from passes.lowering.leftovers import find_leftovers
from pto_dialect import isa
from pto_dialect.block_ops import BlockCommandOp, BlockOp

__all__ = ["LoweringTrace", "PTOLoweringReportPass", "instruction_counts", "format_counts"]


def _describe(op: Operation) -> str:
    c = classify(op)
    kind = f" [{c.kind}: {', '.join(c.element_types)}]" if c is not None else ""
    return f"'{op.name}'{kind}"


VIEWS = frozenset({"tensor.collapse_shape", "tensor.expand_shape"})
"""Reshapes around a replacement are views: the report names the op that computes."""


def _producer(v: SSAValue) -> Operation | None:
    """The op computing ``v``, looking through reshapes."""
    o = v.owner
    while isinstance(o, Operation) and o.name in VIEWS and o.operands:
        o = o.operands[0].owner
    return o if isinstance(o, Operation) else None


@dataclass
class LoweringTrace:
    """Source ops of a module before lowering and what replaced each of them."""

    sources: list[tuple[Operation, str, str]] = field(default_factory=list)
    replaced_by: dict[Operation, list[Operation]] = field(default_factory=dict)
    stand_in: dict[Operation, list[Operation]] = field(default_factory=dict)
    """A rewritten op that still computes (a fused ``linalg.generic``) -> the source ops it
    now stands for (:mod:`passes.lowering.fusion`)."""

    @classmethod
    def start(cls, module: builtin.ModuleOp) -> LoweringTrace:
        t = cls()
        for x in find_leftovers(module):
            t.sources.append((x.op, x.location, _describe(x.op)))
        return t

    def listener(self) -> PatternRewriterListener:
        def on_replace(old: Operation, new: Sequence[SSAValue | None]) -> None:
            owners = [o for v in new if v is not None and (o := _producer(v)) is not None]
            roots = self.stand_in.pop(old, None) or [old]
            for o in owners:
                if o.name.startswith("linalg."):
                    have = self.stand_in.setdefault(o, [])
                    have += [r for r in roots if r not in have]
            if owners:
                for r in roots:
                    self.replaced_by[r] = owners

        return PatternRewriterListener(operation_replacement_handler=[on_replace])

    def final_ops(self, op: Operation) -> list[Operation]:
        """The ops that finally replaced ``op`` (following ops replaced in turn)."""
        found: list[Operation] = []
        todo, seen = [op], set()
        while todo:
            o = todo.pop()
            if o in seen:
                continue
            seen.add(o)
            if o in self.replaced_by:
                todo += self.replaced_by[o]
            elif o is not op:
                found.append(o)
        return found

    def replacement(self, op: Operation) -> str:
        """What finally replaced ``op``, by name."""
        return ", ".join(sorted({o.name for o in self.final_ops(op)}))

    def lines(self, module: builtin.ModuleOp) -> list[str]:
        remaining = {x.op: x for x in find_leftovers(module)}
        out: list[str] = []
        kept_as: dict[Operation, list[Operation]] = {}
        for op, _, _ in self.sources:
            # a source normalised into another non-PTO op (a generic losing dead results)
            # is kept: the report gives the reason of what it became
            kept_as[op] = [op] if op in remaining else [o for o in self.final_ops(op) if o in remaining]
        standing = {r: x for x, rs in self.stand_in.items() if x in remaining for r in rs}
        lowered = sum(1 for op, _, _ in self.sources if not kept_as[op] and op not in standing)
        out.append(f"pto-lower report: {lowered} of {len(self.sources)} computing op(s) lowered")
        for op, loc, desc in self.sources:
            if op in remaining:
                out.append(f"  kept     {loc}: {desc}: {remaining[op].reason}")
            elif op in standing:
                x = remaining[standing[op]]
                out.append(f"  kept     {loc}: {desc}: fused into {x.location}: {x.reason}")
            elif kept_as[op]:
                reasons = "; ".join(dict.fromkeys(remaining[o].reason for o in kept_as[op]))
                out.append(f"  kept     {loc}: {desc}: {reasons}")
            else:
                to = self.replacement(op) or "erased (dead, or folded into its consumer)"
                out.append(f"  lowered  {loc}: {desc} -> {to}")
        accounted = {o for ops in kept_as.values() for o in ops}
        extra = [x for op, x in remaining.items() if op not in accounted and op not in self.stand_in]
        for x in extra:
            out.append(f"  kept     {x.location}: {_describe(x.op)}: {x.reason}")
        counts = instruction_counts(module)
        out.append("  instructions executed: " + (format_counts(counts) or "none"))
        return out


def instruction_counts(module: builtin.ModuleOp) -> Counter[str]:
    """PTO instructions executed, by mnemonic (``scf.for`` with constant bounds multiplied
    out): a ``pto.block`` counts as its instruction (its B.START), a tile-level op as its
    name, a tensor-level op (``pto.gemv`` ...) as itself."""
    from xdsl.dialects import scf


    counts: Counter[str] = Counter()

    def walk(op: Operation, mult: int) -> None:
        if isinstance(op, BlockOp):
            cmds = op.commands()
            start = cmds[0] if cmds else None
            counts[start.op_name if isinstance(start, isa.BStart) else "pto.block"] += mult
            return
        if op.name.startswith("pto.") and not isinstance(op, BlockCommandOp):
            counts[op.name] += mult
        inner = mult
        if isinstance(op, scf.ForOp):
            trips = trip_count(op)
            inner = mult * (trips if trips is not None else 1)
        for region in op.regions:
            for block in region.blocks:
                for o in block.ops:
                    walk(o, inner)

    walk(module, 1)
    return counts


def format_counts(counts: Counter[str]) -> str:
    return ", ".join(f"{v} x {k}" for k, v in sorted(counts.items()))


def report_lines(module: builtin.ModuleOp) -> list[str]:
    left = find_leftovers(module)
    out = [f"pto lowering report: {len(left)} op(s) not lowered to PTO"]
    out += [f"  kept     {x.location}: {_describe(x.op)}: {x.reason}" for x in left]
    out.append("  instructions executed: " + (format_counts(instruction_counts(module)) or "none"))
    return out


@dataclass(frozen=True)
class PTOLoweringReportPass(ModulePass):
    """``pto-lowering-report``: print what is not PTO in the module and why (stderr).

    Changes nothing. Each line: location, op, class, reason (D19); then the PTO
    instructions the program executes.
    """

    name = "pto-lowering-report"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        print_lines(report_lines(op))


def print_lines(lines: list[str], stream: IO[str] | None = None) -> None:
    s = stream or sys.stderr
    for line in lines:
        print(line, file=s)
