"""Compile one ``func.func`` into an executable plan: straight-line Python over numpy.

The function body becomes the source text of one Python function: every SSA value is a
Python local, every op one call of a prebuilt step (:mod:`.builders`; ops without a fast row
call their xDSL ``@impl`` function directly), ``scf.for`` a call of :func:`.loops.run_loop`
on a nested body function, ``scf.if`` an ``if``, ``func.call`` a call of the callee's plan and
``func.return`` a ``return``. Nothing on the hot path interprets, verifies or looks up the IR.
An error is attributed to the op whose line raised it (the traceback's line in the plan).

A function the compiler does not cover (an unstructured CFG: several blocks, ``cf``
branches) raises :class:`Unsupported`; :func:`interpreter.run` then runs it on the xDSL
engine.

In-place stores. A store's destination value is *exclusive* when nothing else can still see
its buffer after the store: it has one use (the store) and is itself a store result, or an
``scf.for`` iter_arg / result whose yielded value is exclusive (an init that is not exclusive
is demoted to a plain array at loop entry). A store into an exclusive destination that holds
an engine-owned buffer (:class:`interpreter.ssa.pto_functions.Owned`) writes in place; any other
store copies once into a fresh owned buffer. Buffers are demoted to plain arrays at return.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import builtin, func, scf
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import InterpretationError

from interpreter.observe import observed_step
from interpreter.ssa.module_cache import compiled_code
from interpreter.ssa.pto_functions import Owned
from interpreter.ssa.upstream.arith import finish
from interpreter.ssa.upstream.dtypes import dtype_for
from pto_dialect.block_ops import BlockOp, unchanged
from pto_dialect.data_movement import TLoadOp

from .batch import batch_plan, tile_op_operands
from .builders import PLAN_BUILDERS, BuildContext, store_destination
from .loops import LoopInfo, StoreGeometry, run_loop

__all__ = ["RECIPES_ATTR", "CompiledFunction", "Compiler", "PlanRecipe", "Unsupported", "demote"]

_SERIAL = itertools.count()


class Unsupported(Exception):
    """The function has a construct the compiled engine does not cover."""


def demote(x: Any) -> Any:
    """An engine-owned buffer as a plain array (nothing may update it in place any more)."""
    return x.view(np.ndarray) if type(x) is Owned else x


class CompiledFunction:
    """The plan of one function: call it with the converted arguments, get the results."""

    def __init__(self, name: str, fn: Callable[..., tuple[Any, ...]], filename: str,
                 line_ops: dict[int, Operation]):
        self.name, self.fn, self.filename, self.line_ops = name, fn, filename, line_ops

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        return self.fn(*args)

    def op_at(self, tb) -> Operation | None:
        """The op whose plan line raised (innermost frame of this or a callee's plan)."""
        found = None
        while tb is not None:
            code = tb.tb_frame.f_code
            owner = _PLAN_FILES.get(code.co_filename)
            if owner is not None:
                found = owner.line_ops.get(tb.tb_lineno, found)
            tb = tb.tb_next
        return found


_PLAN_FILES: weakref.WeakValueDictionary[str, CompiledFunction] = weakref.WeakValueDictionary()


class Compiler:
    """Compiles the functions of one module for one numeric profile (plans cached)."""

    def __init__(self, module: builtin.ModuleOp, profile: str, interpreter: Interpreter,
                 observed: bool = False):
        self.module, self.profile, self.interp = module, profile, interpreter
        self.observed = observed
        self.impls = interpreter._impls._impl_dict  # pyright: ignore[reportPrivateUsage]
        self.plans: dict[int, CompiledFunction] = {}
        self.new_recipes = False  # a plan was emitted (not built from a kept recipe)
        self.cx = BuildContext(profile, self._in_place)
        self._exclusive: dict[int, bool] = {}

    # -- exclusivity (in-place stores) ---------------------------------------------------
    def _in_place(self, op: Operation) -> bool:
        i = store_destination(op)
        return i is not None and self.exclusive(op.operands[i])

    def exclusive(self, v: SSAValue) -> bool:
        key = id(v)
        if key in self._exclusive:
            return self._exclusive[key]
        self._exclusive[key] = False  # cycles (yield of the iter_arg itself) are not exclusive
        result = False
        if v.has_one_use():
            if isinstance(v, OpResult):
                op = v.op
                if store_destination(op) is not None:
                    result = True
                elif isinstance(op, scf.ForOp):
                    result = self._yield_exclusive(op, v.index)
            elif isinstance(v, BlockArgument):
                owner = v.block.parent_op()
                if isinstance(owner, scf.ForOp) and v.index >= 1:
                    result = self._yield_exclusive(owner, v.index - 1)
        self._exclusive[key] = result
        return result

    def _yield_exclusive(self, loop: scf.ForOp, i: int) -> bool:
        y = loop.body.block.last_op
        return isinstance(y, scf.YieldOp) and self.exclusive(y.operands[i])

    # -- functions ---------------------------------------------------------------------
    def function(self, fn: func.FuncOp) -> CompiledFunction:
        hit = self.plans.get(id(fn))
        if hit is not None:
            return hit
        if len(fn.body.blocks) != 1:
            raise Unsupported(f"@{fn.sym_name.data} has {len(fn.body.blocks)} blocks")
        key = (fn.sym_name.data, self.profile)
        table = None if self.observed else self.module.__dict__.get(RECIPES_ATTR)
        recipe = table.get(key) if isinstance(table, dict) else None
        if not isinstance(recipe, PlanRecipe):
            recipe = self._emit(fn)
            if not self.observed:  # kept with the module (module_cache stores it)
                self.module.__dict__.setdefault(RECIPES_ATTR, {})[key] = recipe
                self.new_recipes = True
        ns: dict[str, Any] = {"DEMOTE": demote, "run_loop": run_loop}
        for name, part in recipe.consts.items():
            ns[name] = self._rebuild(ns, name, part)
        filename = f"<pto-plan {next(_SERIAL)} @{fn.sym_name.data}>"
        code = compiled_code(recipe.source, filename)  # kept on disk with the module cache
        exec(code, ns)
        plan = CompiledFunction(fn.sym_name.data, ns["plan"], filename, recipe.line_ops)
        plan.source = recipe.source  # type: ignore[attr-defined]
        _PLAN_FILES[filename] = plan
        self.plans[id(fn)] = plan
        return plan

    def _emit(self, fn: func.FuncOp) -> PlanRecipe:
        emitter = _Emitter(self)
        block = fn.body.block
        params = [emitter.name(a) for a in block.args]
        emitter.line(f"def plan({', '.join(params)}):", None, 0)
        emitter.block(block, 1, terminator=self._return)
        return PlanRecipe("\n".join(emitter.lines) + "\n", emitter.consts, emitter.line_ops)

    def _rebuild(self, ns: dict[str, Any], name: str, part: tuple) -> Any:
        """The namespace entry ``name`` of a plan from its recipe part (see PlanRecipe)."""
        kind = part[0]
        if kind == "value":
            return part[1]
        if kind == "step":  # a fast row, built on its first call
            op, in_place = part[1], part[2]
            cx = BuildContext(self.profile, lambda _op: in_place)
            return _LazyStep(ns, name, PLAN_BUILDERS[type(op)], op, cx, self.observed)
        if kind == "generic":
            step = _generic_step(self, part[1])[0]
            return observed_step(step, part[1]) if self.observed else step
        if kind == "call":
            step = _CallStep(self, part[1])
            return observed_step(step, part[1]) if self.observed else step
        if kind == "iv":
            dtype = part[1]
            return np.int64 if dtype == np.dtype(np.int64) else (lambda i, d=dtype: finish(np.int64(i), d))
        if kind == "loop":
            _kind, stores, batch, outer = part
            return LoopInfo(stores, batch, [id(v) for v in outer])
        if kind == "run_loop":
            return observed_step(run_loop, part[1])
        raise ValueError(f"unknown plan recipe part {kind!r}")  # pragma: no cover

    @staticmethod
    def _return(em: _Emitter, op: Operation, indent: int) -> None:
        if not isinstance(op, func.ReturnOp):
            raise Unsupported(f"terminator '{op.name}' in a function body")
        vals = "".join(f"DEMOTE({em.name(v)}), " for v in op.operands)
        em.line(f"return ({vals})", op, indent)


@dataclass
class PlanRecipe:
    """A function's plan as data, from which :meth:`Compiler.function` builds it: the plan's
    source text, the recipe of every name it uses besides ``DEMOTE`` and ``run_loop``, and
    the op of each source line (errors are attributed by line). Recipe parts:
    ``("step", op, in_place)`` a fast row (:data:`PLAN_BUILDERS`), ``("generic", op)`` the
    op's xDSL ``@impl``, ``("call", op)`` a ``func.call``, ``("iv", dtype)`` an induction
    variable's conversion, ``("loop", stores, batch, outer values)`` a :class:`LoopInfo`,
    ``("run_loop", op)`` an observed loop, ``("value", v)`` a constant. It holds IR objects
    and plain data only, so it is pickled with its module
    (:mod:`interpreter.ssa.module_cache`): a program loaded from the cache runs without
    planning again."""

    source: str
    consts: dict[str, tuple]
    line_ops: dict[int, Operation]


RECIPES_ATTR = "_pto_plan_recipes"
"""``module.__dict__`` key: ``{(symbol, profile): PlanRecipe}`` of the unobserved plans."""


class _Emitter:
    """Source text of one function's plan."""

    def __init__(self, compiler: Compiler):
        self.c = compiler
        self.lines: list[str] = []
        self.line_ops: dict[int, Operation] = {}
        self.consts: dict[str, tuple] = {}
        self.names: dict[int, str] = {}
        self.iv_names: dict[int, str] = {}
        self.ids = itertools.count()

    def name(self, v: SSAValue) -> str:
        n = self.names.get(id(v))
        if n is None:
            n = self.names[id(v)] = f"v{next(self.ids)}"
        return n

    def const(self, part: tuple, prefix: str = "K") -> str:
        """A new name for the plan entry of recipe ``part`` (:class:`PlanRecipe`)."""
        n = f"{prefix}{next(self.ids)}"
        self.consts[n] = part
        return n

    def line(self, text: str, op: Operation | None, indent: int) -> None:
        self.lines.append("    " * indent + text)
        if op is not None:
            self.line_ops[len(self.lines)] = op

    def block(self, block: Block, indent: int, terminator) -> None:
        for op in block.ops:
            if op is block.last_op and op.has_trait(IsTerminator):
                terminator(self, op, indent)
                return
            self.op(op, indent)
        terminator(self, None, indent)  # pragma: no cover - verified IR has terminators

    def op(self, op: Operation, indent: int) -> None:
        outs = "".join(f"{self.name(r)}, " for r in op.results) or "_"
        ins = ", ".join(self.name(v) for v in op.operands)
        if isinstance(op, scf.ForOp):
            return self.for_op(op, indent)
        if isinstance(op, scf.IfOp):
            return self.if_op(op, indent)
        if isinstance(op, func.CallOp):  # resolved lazily: recursion works
            self.line(f"{outs} = {self.const(('call', op), 'CALL')}({ins})", op, indent)
            return
        if type(op) in PLAN_BUILDERS:
            # Built on first call (:class:`_LazyStep`): a loop that runs batched never calls
            # the steps of its body, and building them all cost most of the planning time.
            in_place = store_destination(op) is not None and self.c.cx.in_place(op)
            self.line(f"{outs} = {self.const(('step', op, in_place))}({ins})", op, indent)
            return
        captured = _captured_values(op) if op.regions else []
        ins = ", ".join([*(self.name(v) for v in op.operands), *(self.name(v) for v in captured)])
        self.line(f"{outs} = {self.const(('generic', op))}({ins})", op, indent)

    # -- structured control flow ---------------------------------------------------------
    def for_op(self, op: scf.ForOp, indent: int) -> None:
        body = op.body.block
        k = next(self.ids)
        iv, *bargs = body.args
        ivn = self.iv_names[k] = self.const(("iv", dtype_for(op.lb.type)), "IV")
        carried = [f"c{k}_{j}" for j in range(len(bargs))]
        params = ", ".join([f"i{k}", *carried])
        self.line(f"def body{k}({params}):", None, indent)
        self.line(f"{self.name(iv)} = {ivn}(i{k})", None, indent + 1)
        for b, c in zip(bargs, carried):
            self.line(f"{self.name(b)} = {c}", None, indent + 1)

        def yield_(em: _Emitter, t: Operation | None, ind: int) -> None:
            vals = "".join(f"{em.name(v)}, " for v in (t.operands if t is not None else ()))
            em.line(f"return ({vals})", t, ind)

        self.block(body, indent + 1, yield_)
        info, outer = self.loop_info(op, k, indent)
        inits = []
        for b, init in zip(bargs, op.iter_args):
            name = self.name(init)
            if self.c.exclusive(b) and not self.c.exclusive(init):
                name = f"DEMOTE({name})"
            inits.append(name)
        outs = "".join(f"{self.name(r)}, " for r in op.results) or "_"
        lb, ub, st = (self.name(v) for v in (op.lb, op.ub, op.step))
        loop = self.const(("run_loop", op), "RUN_LOOP") if self.c.observed else "run_loop"
        part = ("value", None) if info is None else ("loop", info.stores, info.batch, outer)
        self.line(
            f"{outs} = {loop}({lb}, {ub}, {st}, ({''.join(i + ', ' for i in inits)}), body{k}, "
            f"{self.const(part, 'LOOP')}, {f'offs{k}' if info is not None else 'None'}, "
            f"{f'env{k}' if info is not None and info.batch is not None else 'None'})",
            op, indent,
        )

    def loop_info(self, op: scf.ForOp, k: int, indent: int) -> tuple[LoopInfo | None, list]:
        """Independence facts of a loop whose iterations may run on two threads, plus the
        nested function computing each iteration's store offsets (None when not eligible),
        and the loop-invariant values its batched form reads."""
        body = op.body.block
        iv, *bargs = body.args
        y = body.last_op
        if not bargs or not isinstance(y, scf.YieldOp):
            return None, []
        stores: list[Operation] = []
        for j, b in enumerate(bargs):
            uses = list(b.uses)
            if len(uses) != 1 or not self.c.exclusive(b):
                return None, []
            st = uses[0].operation
            if store_destination(st) != uses[0].index or st.parent_block() is not body:
                return None, []
            if y.operands[j] is not st.results[0] or not st.results[0].has_one_use():
                return None, []
            stores.append(st)
        if not _effect_free(body):
            return None, []
        # The offsets: a backward slice of scalar ops of the body, evaluated per iteration.
        needed: list[Operation] = []
        seen: set[int] = set()

        def visit(v: SSAValue) -> bool:
            if isinstance(v, BlockArgument):
                return v.block is not body or v is iv
            o = v.op
            if o.parent_block() is not body:
                return not _inside(o, body)
            if id(o) in seen:
                return True
            if o.regions or any(not isinstance(r.type, builtin.IndexType | builtin.IntegerType)
                                for r in o.results):
                return False
            seen.add(id(o))
            if not all(visit(x) for x in o.operands):
                return False
            needed.append(o)
            return True

        geometry = [StoreGeometry.of(st) for st in stores]
        if any(g is None for g in geometry):
            return None, []
        for st in stores:
            if not all(visit(v) for v in st.operands[2:]):
                return None, []
        # Batched form: every load of the body too, with offsets from the same slice.
        loads = [o for o in body.ops if o not in stores and _is_load(o)]
        movers = [*stores, *loads]
        batch = None
        if all(visit(v) for o in loads for v in o.operands[-2:]):
            batch = batch_plan(list(body.ops)[:-1], movers, stores, {id(o) for o in needed},
                               self.c.profile)
        else:
            movers = stores
        needed.sort(key=lambda o: body.get_operation_index(o))
        self.line(f"def offs{k}(i{k}):", None, indent)
        self.line(f"{self.name(iv)} = {self.iv_names[k]}(i{k})", None, indent + 1)
        for o in needed:
            self.op(o, indent + 1)
        pairs = "".join(f"({self.name(o.operands[-2])}, {self.name(o.operands[-1])}), " for o in movers)
        self.line(f"return ({pairs})", None, indent + 1)
        outer: list[SSAValue] = []
        if batch is not None:
            for st in batch.steps:
                for v in st.args:
                    inside = (v.owner is body) if isinstance(v, BlockArgument) else _inside(v.owner, body)
                    if not inside and all(v is not w for w in outer):
                        outer.append(v)
            self.line(f"def env{k}():", None, indent)
            self.line(f"return ({''.join(self.name(v) + ', ' for v in outer)})", None, indent + 1)
        return LoopInfo(geometry, batch, [id(v) for v in outer]), outer  # type: ignore[arg-type]

    def if_op(self, op: scf.IfOp, indent: int) -> None:
        outs = [self.name(r) for r in op.results]
        self.line(f"if {self.name(op.cond)}:", op, indent)

        def yield_(em: _Emitter, t: Operation | None, ind: int) -> None:
            vals = list(t.operands) if t is not None else []
            if outs:
                em.line(f"{', '.join(outs)}, = ({''.join(em.name(v) + ', ' for v in vals)})", t, ind)
            else:
                em.line("pass", t, ind)

        for region, head in ((op.true_region, None), (op.false_region, "else:")):
            if head is not None:
                self.line(head, None, indent)
            if region.blocks:
                self.block(region.block, indent + 1, yield_)
            else:
                self.line("pass", None, indent + 1)


def _generic_step(c: Compiler, op: Operation) -> tuple[Callable[..., tuple[Any, ...]], list[SSAValue]]:
    """The op's xDSL ``@impl`` called directly; for an op with regions the values its
    regions use from outside are passed after the operands and put in scope."""
    entry = c.impls.get(type(op))
    if entry is None:
        def missing(*_args):
            raise InterpretationError(f"Could not find interpretation function for op {op.name}")

        return missing, []
    ft, impl = entry
    interp = c.interp
    if not op.regions:
        def step(*args):
            return impl(ft, interp, op, args).values

        return step, []
    captured = _captured_values(op)
    n = len(op.operands)

    def step_regions(*args):
        interp.push_scope("compiled")
        try:
            interp.set_values(zip(captured, args[n:]))
            return impl(ft, interp, op, args[:n]).values
        finally:
            interp.pop_scope()

    return step_regions, captured


def _inside(op: Operation, block: Block) -> bool:
    p = op.parent_block()
    while p is not None:
        if p is block:
            return True
        parent = p.parent_op()
        p = parent.parent_block() if parent is not None else None
    return False


def _effect_free(block: Block) -> bool:
    """No calls and no xDSL region ops (they share the interpreter's scope stack) in the
    block, only ops with a plan row, structured control flow and upstream value ops."""
    for inner in block.ops:
        if type(inner) in PLAN_BUILDERS or isinstance(inner, scf.YieldOp):
            continue
        if isinstance(inner, scf.ForOp | scf.IfOp):
            if not all(_effect_free(b) for r in inner.regions for b in r.blocks):
                return False
        elif inner.regions or not _pure_tensor_op(inner):
            return False
    return True


def _is_load(op: Operation) -> bool:

    if isinstance(op, TLoadOp):
        return True
    found = tile_op_operands(op) if isinstance(op, BlockOp) else None
    return found is not None and isinstance(found[0], TLoadOp)


def _pure_tensor_op(op: Operation) -> bool:
    """Upstream ops without regions compute values only (arith, tensor reshapes)."""
    return op.name.split(".")[0] in ("arith", "tensor", "math")


def _captured_values(op: Operation) -> list[SSAValue]:
    """Values used inside ``op``'s regions but defined outside it, in first-use order."""
    out: list[SSAValue] = []
    seen: set[int] = set()
    for inner in op.walk():
        if inner is op:
            continue
        for v in inner.operands:
            if id(v) in seen:
                continue
            owner = v.owner.parent_op() if isinstance(v, BlockArgument) else v.owner  # type: ignore[union-attr]
            if isinstance(v, BlockArgument):
                inside = owner is op or (owner is not None and op.is_ancestor(owner))
            else:
                inside = op.is_ancestor(owner)  # type: ignore[arg-type]
            if not inside:
                seen.add(id(v))
                out.append(v)
    return out


class _LazyStep:
    """A fast-row step built on its first call, which then replaces this stub in the plan's
    namespace (the plan looks steps up there by name on every call). Building is a pure
    function of the op (the store-in-place fact is decided when the plan is emitted), so two
    threads building the same step at once is harmless."""

    __slots__ = ("ns", "name", "builder", "op", "cx", "observed")

    def __init__(self, ns: dict[str, Any], name: str, builder, op: Operation,
                 cx: BuildContext, observed: bool):
        self.ns, self.name, self.builder, self.op = ns, name, builder, op
        self.cx, self.observed = cx, observed

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        with unchanged():  # the module does not change after its first run
            step = self.builder(self.op, self.cx)
        if self.observed:
            step = observed_step(step, self.op)
        self.ns[self.name] = step
        return step(*args)


class _CallStep:
    """``func.call``: the callee's plan (compiled on first call; xDSL for unsupported ones)."""

    def __init__(self, compiler: Compiler, op: func.CallOp):
        self.c, self.op, self.target = compiler, op, None

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        target = self.target
        if target is None:
            from xdsl.traits import SymbolTable

            callee = SymbolTable.lookup_symbol(self.c.module, self.op.callee)
            assert isinstance(callee, func.FuncOp)
            try:
                target = self.c.function(callee)
            except Unsupported:
                interp = self.c.interp

                def target(*a):
                    return tuple(interp.call_op(callee, a))

            self.target = target
        return target(*args)
