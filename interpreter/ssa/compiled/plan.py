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
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import arith, builtin, func, scf, tensor
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import InterpretationError

from interpreter.observe import observed_step
from interpreter.ssa.module_cache import RECIPES_ATTR, compiled_code
from interpreter.ssa.pto_functions import Owned
from interpreter.ssa.upstream.arith import attr_to_value, finish
from interpreter.ssa.upstream.dtypes import dtype_for
from pto_dialect.block_ops import BlockOp, unchanged
from pto_dialect.data_movement import TLoadOp

from .batch import batch_plan, tile_op_operands
from .builders import PLAN_BUILDERS, BuildContext, store_destination
from .loops import LoopInfo, StoreGeometry, run_loop

__all__ = ["RECIPES_ATTR", "CompiledFunction", "Compiler", "Deferred", "PlanRecipe", "Unsupported",
           "build_plan", "demote"]

_SERIAL = itertools.count()


class Unsupported(Exception):
    """The function has a construct the compiled engine does not cover."""


def demote(x: Any) -> Any:
    """An engine-owned buffer as a plain array (nothing may update it in place any more)."""
    return x.view(np.ndarray) if type(x) is Owned else x


class CompiledFunction:
    """The plan of one function: call it with the converted arguments, get the results."""

    def __init__(self, name: str, fn: Callable[..., tuple[Any, ...]], filename: str,
                 recipe: PlanRecipe, ops: _Ops):
        self.name, self.fn, self.filename = name, fn, filename
        self.recipe, self.ops = recipe, ops

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        return self.fn(*args)

    def op_at(self, tb) -> Operation | None:
        """The op whose plan line raised (innermost frame of this or a callee's plan); a plan
        built without its module (:class:`Deferred`) loads the module to name it."""
        found = None
        while tb is not None:
            code = tb.tb_frame.f_code
            owner = _PLAN_FILES.get(code.co_filename)
            if owner is not None:
                i = owner.recipe.line_ops.get(tb.tb_lineno)
                if i is not None:
                    found = (owner, i)
            tb = tb.tb_next
        if found is None:
            return None
        owner, i = found
        return owner.ops.op(i, owner.recipe.op_names[i])


_PLAN_FILES: weakref.WeakValueDictionary[str, CompiledFunction] = weakref.WeakValueDictionary()


class _Ops:
    """Where a plan's ops come from: ``op(i, name)`` and ``compiler()`` (the module's
    :class:`Compiler`, for xDSL ``@impl`` steps and calls)."""

    def op(self, i: int, name: str) -> Operation:  # pragma: no cover - protocol
        raise NotImplementedError

    def compiler(self) -> Compiler:  # pragma: no cover - protocol
        raise NotImplementedError


class Compiler(_Ops):
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
        self._ops: list[Operation] | None = None
        self._index: dict[int, int] | None = None

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

    # -- the module's ops by number (recipes refer to ops by their walk-order index) ----
    def op_ref(self, op: Operation) -> int:
        if self._index is None:
            self._index = {id(o): i for i, o in enumerate(self._walk())}
        return self._index[id(op)]

    def _walk(self) -> list[Operation]:
        if self._ops is None:
            self._ops = list(self.module.walk())
        return self._ops

    def op(self, i: int, name: str) -> Operation:
        """Op number ``i`` of the module (walk order), which a recipe names ``name``."""
        ops = self._walk()
        op = ops[i] if 0 <= i < len(ops) else None
        if op is None or op.name != name:  # pragma: no cover - a recipe of another module
            raise RuntimeError(f"plan recipe: op {i} is not '{name}'")
        return op

    def compiler(self) -> Compiler:
        return self

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
        plan = build_plan(recipe, self.profile, self, fn.sym_name.data, self.observed)
        self.plans[id(fn)] = plan
        return plan

    def _emit(self, fn: func.FuncOp) -> PlanRecipe:
        emitter = _Emitter(self)
        block = fn.body.block
        params = [emitter.name(a) for a in block.args]
        emitter.line(f"def plan({', '.join(params)}):", None, 0)
        emitter.block(block, 1, terminator=self._return)
        return PlanRecipe("\n".join(emitter.lines) + "\n", emitter.consts, emitter.line_ops,
                          emitter.op_names)

    @staticmethod
    def _return(em: _Emitter, op: Operation, indent: int) -> None:
        if not isinstance(op, func.ReturnOp):
            raise Unsupported(f"terminator '{op.name}' in a function body")
        vals = "".join(f"DEMOTE({em.name(v)}), " for v in op.operands)
        em.line(f"return ({vals})", op, indent)


@dataclass
class PlanRecipe:
    """A function's plan as plain data, from which :func:`build_plan` builds it: the plan's
    source text, the recipe of every name it uses besides ``DEMOTE`` and ``run_loop``, the op
    of each source line (errors are attributed by line) and the name of every op it refers
    to. Ops are referred to by their index in the module's walk order (the same for every
    parse of the same text), never held: the recipe is kept in the plan cache apart from the
    module (:func:`interpreter.ssa.module_cache.load_plans`), and a warm run builds and runs
    its plan without loading the module until a step needs an op (:class:`Deferred`).
    Recipe parts: ``("step", i, in_place)`` op i's fast row (:data:`PLAN_BUILDERS`, built on
    its first call), ``("generic", i)`` op i's xDSL ``@impl``, ``("call", i)`` the
    ``func.call`` op i, ``("iv", dtype)`` an induction variable's conversion, ``("loop",
    stores, batch, outer value numbers)`` a :class:`LoopInfo`, ``("run_loop", i)`` an
    observed loop, ``("value", v)`` a constant (a folded scalar ``arith.constant``),
    ``("reshape", shape)`` a static ``tensor.expand_shape`` / ``collapse_shape`` and
    ``("zeros", shape, dtype)`` a static ``tensor.empty`` (what their ``@impl`` computes)."""

    source: str
    consts: dict[str, tuple]
    line_ops: dict[int, int]
    op_names: dict[int, str]


class Deferred(_Ops):
    """The ops of a plan built without its module (a warm run from the plan cache): the
    module is loaded (``load()`` returns its :class:`Compiler`) the first time a step needs
    an op -- a loop that does not run batched, a call, an error to attribute -- once, even
    when two loop threads ask at the same time."""

    def __init__(self, load: Callable[[], Compiler]):
        self._load, self._compiler = load, None
        self._lock = threading.Lock()

    def loaded(self) -> Compiler | None:
        return self._compiler

    def compiler(self) -> Compiler:
        c = self._compiler
        if c is None:
            with self._lock:
                if self._compiler is None:
                    self._compiler = self._load()
                c = self._compiler
        return c

    def op(self, i: int, name: str) -> Operation:
        return self.compiler().op(i, name)


def build_plan(recipe: PlanRecipe, profile: str, ops: _Ops, symbol: str,
               observed: bool = False) -> CompiledFunction:
    """The plan of ``recipe`` for ``profile``, its ops from ``ops``."""
    ns: dict[str, Any] = {"DEMOTE": demote, "run_loop": run_loop}
    for name, part in recipe.consts.items():
        ns[name] = _rebuild(ns, name, part, profile, ops, recipe.op_names, observed)
    filename = f"<pto-plan {next(_SERIAL)} @{symbol}>"
    code = compiled_code(recipe.source, filename)  # kept on disk with the module cache
    exec(code, ns)
    plan = CompiledFunction(symbol, ns["plan"], filename, recipe, ops)
    plan.source = recipe.source  # type: ignore[attr-defined]
    _PLAN_FILES[filename] = plan
    return plan


def _reshape(shape: tuple[int, ...]):
    def reshape(x, *_sizes):  # tensor.expand_shape / collapse_shape: a view where numpy can
        return (np.asarray(x).reshape(shape),)

    return reshape


def _zeros(shape: tuple[int, ...], dtype: np.dtype):
    def zeros():  # tensor.empty
        return (np.zeros(shape, dtype=dtype),)

    return zeros


def _rebuild(ns: dict[str, Any], name: str, part: tuple, profile: str, ops: _Ops,
             names: dict[int, str], observed: bool) -> Any:
    """The namespace entry ``name`` of a plan from its recipe part (see PlanRecipe)."""
    kind = part[0]
    if kind == "value":
        return part[1]
    if kind == "step":  # a fast row, built on its first call
        i, in_place = part[1], part[2]
        return _LazyStep(ns, name, ops, i, names[i], BuildContext(profile, lambda _op: in_place),
                         observed)
    if kind == "generic":
        if observed:  # (observed plans are never kept: their ops are at hand)
            op = ops.op(part[1], names[part[1]])
            return observed_step(_generic_step(ops.compiler(), op)[0], op)
        return _LazyGeneric(ns, name, ops, part[1], names[part[1]])
    if kind == "call":
        step = _CallStep(ops, part[1], names[part[1]])
        return observed_step(step, ops.op(part[1], names[part[1]])) if observed else step
    if kind == "iv":
        dtype = part[1]
        return np.int64 if dtype == np.dtype(np.int64) else (lambda i, d=dtype: finish(np.int64(i), d))
    if kind == "loop":
        _kind, stores, batch, outer = part
        return LoopInfo(stores, batch, list(outer))
    if kind == "run_loop":
        return observed_step(run_loop, ops.op(part[1], names[part[1]]))
    if kind == "reshape":
        return _reshape(part[1])
    if kind == "zeros":
        return _zeros(part[1], part[2])
    raise ValueError(f"unknown plan recipe part {kind!r}")  # pragma: no cover


class _Emitter:
    """Source text of one function's plan."""

    def __init__(self, compiler: Compiler):
        self.c = compiler
        self.lines: list[str] = []
        self.line_ops: dict[int, int] = {}
        self.op_names: dict[int, str] = {}
        self.consts: dict[str, tuple] = {}
        self.nums: dict[int, int] = {}
        self.values: dict[int, SSAValue] = {}
        self.iv_names: dict[int, str] = {}
        self.ids = itertools.count()

    def num(self, v: SSAValue) -> int:
        """The number of value ``v`` (its plan name is ``v<number>``)."""
        n = self.nums.get(id(v))
        if n is None:
            n = self.nums[id(v)] = next(self.ids)
            self.values[n] = v
        return n

    def name(self, v: SSAValue) -> str:
        return f"v{self.num(v)}"

    def ref(self, op: Operation) -> int:
        """The number of ``op`` in the recipe (its module walk-order index)."""
        i = self.c.op_ref(op)
        self.op_names[i] = op.name
        return i

    def const(self, part: tuple, prefix: str = "K") -> str:
        """A new name for the plan entry of recipe ``part`` (:class:`PlanRecipe`)."""
        n = f"{prefix}{next(self.ids)}"
        self.consts[n] = part
        return n

    def line(self, text: str, op: Operation | None, indent: int) -> None:
        self.lines.append("    " * indent + text)
        if op is not None:
            self.line_ops[len(self.lines)] = self.ref(op)

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
            self.line(f"{outs} = {self.const(('call', self.ref(op)), 'CALL')}({ins})", op, indent)
            return
        if type(op) in PLAN_BUILDERS:
            # Built on first call (:class:`_LazyStep`): a loop that runs batched never calls
            # the steps of its body, and building them all cost most of the planning time.
            in_place = store_destination(op) is not None and self.c.cx.in_place(op)
            self.line(f"{outs} = {self.const(('step', self.ref(op), in_place))}({ins})", op,
                      indent)
            return
        plain = None if self.c.observed else _plain_part(op)
        if plain is not None and plain[0] == "value":
            self.line(f"{self.name(op.results[0])} = {self.const(plain)}", op, indent)
            return
        if plain is not None:
            self.line(f"{outs} = {self.const(plain)}({ins})", op, indent)
            return
        captured = _captured_values(op) if op.regions else []
        ins = ", ".join([*(self.name(v) for v in op.operands), *(self.name(v) for v in captured)])
        self.line(f"{outs} = {self.const(('generic', self.ref(op)))}({ins})", op, indent)

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
        loop = self.const(("run_loop", self.ref(op)), "RUN_LOOP") if self.c.observed else "run_loop"
        part = (("value", None) if info is None
                else ("loop", info.stores, info.batch, [self.num(v) for v in outer]))
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
                               self.c.profile, self.num)
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
                for v in (self.values[n] for n in st.args):
                    inside = (v.owner is body) if isinstance(v, BlockArgument) else _inside(v.owner, body)
                    if not inside and all(v is not w for w in outer):
                        outer.append(v)
            self.line(f"def env{k}():", None, indent)
            self.line(f"return ({''.join(self.name(v) + ', ' for v in outer)})", None, indent + 1)
        return LoopInfo(geometry, batch, [self.num(v) for v in outer]), outer  # type: ignore[arg-type]

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

    __slots__ = ("ns", "name", "ops", "i", "op_name", "cx", "observed")

    def __init__(self, ns: dict[str, Any], name: str, ops: _Ops, i: int, op_name: str,
                 cx: BuildContext, observed: bool):
        self.ns, self.name, self.ops, self.i, self.op_name = ns, name, ops, i, op_name
        self.cx, self.observed = cx, observed

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        op = self.ops.op(self.i, self.op_name)
        with unchanged():  # the module does not change after its first run
            step = PLAN_BUILDERS[type(op)](op, self.cx)
        if self.observed:
            step = observed_step(step, op)
        self.ns[self.name] = step
        return step(*args)


class _LazyGeneric:
    """An op's xDSL ``@impl`` step (:func:`_generic_step`), made on its first call (a plan
    built without its module loads it then)."""

    __slots__ = ("ns", "name", "ops", "i", "op_name")

    def __init__(self, ns: dict[str, Any], name: str, ops: _Ops, i: int, op_name: str):
        self.ns, self.name, self.ops, self.i, self.op_name = ns, name, ops, i, op_name

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        op = self.ops.op(self.i, self.op_name)
        step = _generic_step(self.ops.compiler(), op)[0]
        self.ns[self.name] = step
        return step(*args)


class _CallStep:
    """``func.call``: the callee's plan (compiled on first call; xDSL for unsupported ones)."""

    def __init__(self, ops: _Ops, i: int, op_name: str):
        self.ops, self.i, self.op_name, self.target = ops, i, op_name, None

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        target = self.target
        if target is None:
            from xdsl.traits import SymbolTable

            c = self.ops.compiler()
            op = c.op(self.i, self.op_name)
            assert isinstance(op, func.CallOp)
            callee = SymbolTable.lookup_symbol(c.module, op.callee)
            assert isinstance(callee, func.FuncOp)
            try:
                target = c.function(callee)
            except Unsupported:
                interp = c.interp

                def target(*a):
                    return tuple(interp.call_op(callee, a))

            self.target = target
        return target(*args)


def _plain_part(op: Operation) -> tuple | None:
    """The recipe part of an op whose ``@impl`` result is a function of plain data (no IR
    at run time): a scalar ``arith.constant`` (its value), a static reshape or
    ``tensor.empty``; None for every other op (or when its ``@impl`` would raise: the generic
    step then raises at run time, as before)."""
    try:
        if type(op) is arith.ConstantOp:
            t = op.result.type
            if isinstance(t, builtin.ShapedType):
                return None  # a dense array: a fresh copy per run (results must not share it)
            v = attr_to_value(op.value, t)
            return ("value", v) if isinstance(v, np.generic) else None
        if type(op) in (tensor.ExpandShapeOp, tensor.CollapseShapeOp):
            t = op.result.type
            if not isinstance(t, builtin.TensorType):
                return None
            shape = list(t.get_shape())
            if shape.count(builtin.DYNAMIC_INDEX) > 1:
                return None
            return ("reshape", tuple(-1 if d == builtin.DYNAMIC_INDEX else d for d in shape))
        if type(op) is tensor.EmptyOp and not op.operands:
            t = op.tensor.type
            if not isinstance(t, builtin.TensorType) or builtin.DYNAMIC_INDEX in t.get_shape():
                return None
            return ("zeros", tuple(t.get_shape()), dtype_for(t))
    except Exception:  # noqa: BLE001 - not plain: the generic step (and its error)
        return None
    return None
