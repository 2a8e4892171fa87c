"""The compiled engine of :func:`interpreter.run` (``engine="compiled"``, the default).

A function is compiled once into a plan (:mod:`.plan`): straight-line Python over numpy in
which every op is one call of a step prepared ahead of time (:mod:`.builders`) and loops
are Python loops, independent ones on two threads (:mod:`.loops`). Plans are cached per
module object, function and numeric profile; a module must not be mutated after its first
compiled run (or call :func:`clear_plans` on it). The xDSL interpreter stays the reference engine
(``engine="xdsl"``); ``engine="both"`` runs the two and checks that they agree.
"""

from __future__ import annotations

from xdsl.dialects import builtin, func
from xdsl.interpreter import Interpreter

from interpreter.ssa import module_cache
from pto_dialect.block_ops import unchanged

from .builders import PLAN_BUILDERS, BuildContext
from .plan import (
    RECIPES_ATTR,
    CompiledFunction,
    Compiler,
    Deferred,
    PlanRecipe,
    Unsupported,
    build_plan,
)

__all__ = [
    "PLAN_BUILDERS",
    "BuildContext",
    "CompiledFunction",
    "Deferred",
    "PlanRecipe",
    "Unsupported",
    "build_plan",
    "clear_plans",
    "compiled_function",
    "compiler",
    "keep_plans",
]

_ATTR = module_cache.PLANS_ATTR
"""The plans live on the module object itself (a cycle the garbage collector frees with the
module; a global table would keep every module that ever ran alive)."""


def _compilers(module: builtin.ModuleOp) -> dict[str, Compiler]:
    table = module.__dict__.get(_ATTR)
    if table is None:
        table = {}
        setattr(module, _ATTR, table)
    return table


def clear_plans(module: builtin.ModuleOp) -> None:
    """Forget the cached plans of ``module`` (after mutating a module that already ran)."""
    module.__dict__.pop(_ATTR, None)
    module.__dict__.pop(RECIPES_ATTR, None)
    module_cache.forget(module)  # changed: its text's cache entry is not its own any more


def cached(module: builtin.ModuleOp) -> bool:
    """True when some plan of ``module`` is cached (it was verified when compiled)."""
    return bool(module.__dict__.get(_ATTR))


def compiler(module: builtin.ModuleOp, profile: str, make_interpreter,
             observed: bool = False) -> Compiler:
    """The :class:`Compiler` of ``module`` for ``profile`` (made on first use with the xDSL
    interpreter ``make_interpreter()`` returns, whose implementation tables the plans call
    for ops without a fast row)."""
    per_profile = _compilers(module)
    key = f"{profile}+observed" if observed else profile
    found = per_profile.get(key)
    if found is None:
        interp: Interpreter = make_interpreter()
        found = per_profile[key] = Compiler(module, profile, interp, observed=observed)
    return found


def compiled_function(
    module: builtin.ModuleOp, callee: func.FuncOp, profile: str, make_interpreter,
    observed: bool = False,
) -> CompiledFunction:
    """The plan of ``callee`` (compiled on first use); see :func:`compiler`.
    ``observed``: the plan reports each op to :func:`interpreter.observe.current` (a plan of
    its own, cached apart). Raises :class:`Unsupported` for functions outside the compiled
    subset."""
    found = compiler(module, profile, make_interpreter, observed)
    with unchanged():  # decode each block once (pto_dialect.block_ops.decoded)
        return found.function(callee)


def keep_plans(module: builtin.ModuleOp) -> None:
    """After a run: when plans were emitted for ``module`` (its function, and the callees
    it planned on their first call), store the module again with their recipes, if it came
    from the module cache (:func:`interpreter.ssa.module_cache.update`)."""
    new = False
    for compiler in _compilers(module).values():
        new, compiler.new_recipes = new or compiler.new_recipes, False
    if new:
        module_cache.update(module)


def interpreter_of(
    module: builtin.ModuleOp, profile: str, observed: bool = False
) -> Interpreter | None:
    compiler = _compilers(module).get(f"{profile}+observed" if observed else profile)
    return None if compiler is None else compiler.interp
