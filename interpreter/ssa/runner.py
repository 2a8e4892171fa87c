"""``interpreter.run``: parse, verify and execute one function of an MLIR module on numpy.

The context holds xDSL's dialects with our upstream ``linalg``/``arith`` replacing
xDSL's (:func:`pto_dialect.upstream.register_upstream_overrides`) and the ``pto``
dialect when :mod:`pto_dialect.dialect` exists. The interpreter gets the numpy functions
of :mod:`interpreter.ssa.upstream` and, when :mod:`interpreter.ssa.pto_functions` exists,
``PTOFunctions(profile=profile)`` (registered last, overriding on conflict).

Argument conventions (checked against the function signature before running):

* a tensor argument is an ``np.ndarray`` of the exact shape (``?`` matches any size) and
  of the element type's dtype (:func:`interpreter.ssa.upstream.dtype_for`). Bit patterns are
  accepted without a value cast: an unsigned integer array of the same width is *viewed*
  as bf16 / f16 / f8 / f6 / f4 / E8M0 when the signature asks for those (f6 and f4 codes
  must fit their 6 / 4 bits), and as a signless integer of the same width;
* a scalar argument is a numpy scalar of its dtype, or a Python ``bool``/``int``/``float``.

Results come back as numpy arrays (0-d for scalar results). PTO run-time faults
(:class:`pto_dialect.faults.PTOFault`) propagate unchanged; every other problem is a
:class:`RunError` with a one-line message.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.ir import Attribute, Operation
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import DiagnosticException, InterpretationError, ParseError

from interpreter.kernels.status import NumericStatus, active, record, recording
from interpreter.observe import Observer, current, observing, reported, suspended
from interpreter.ssa import compiled, module_cache
from interpreter.ssa.block_functions import PTOBlockFunctions
from interpreter.ssa.gm_functions import GlobalMemoryFunctions
from interpreter.ssa.pto_functions import PTOFunctions
from interpreter.ssa.runtime import TileValue, array_from_tile, tile_from_array
from interpreter.ssa.tensor_convert_functions import TensorConvertFunctions
from interpreter.ssa.tensor_functions import TensorPTOFunctions
from interpreter.ssa.tensor_local_functions import TensorLocalFunctions
from interpreter.ssa.upstream import upstream_functions
from interpreter.ssa.upstream.dtypes import UnsupportedTypeError, dtype_for
from pto_dialect.attributes import TileType
from pto_dialect.dialect import PTO
from pto_dialect.faults import PTOFault
from pto_dialect.predicate import PredicateTileType
from pto_dialect.ssa_checks import check_module
from pto_dialect.tools.boundary import first_line, parser_location
from pto_dialect.upstream import register_upstream_overrides
from pto_dialect.upstream.source_diagnostics import (
    SourceParser,
    failing_op,
    no_function_message,
    op_location,
)
from pto_dialect.upstream.xdsl_fixes import check_dense_sizes, fix_parse_error

__all__ = [
    "ENGINES",
    "EngineMismatch",
    "KeptFunction",
    "RunError",
    "build_context",
    "convert_argument",
    "extra_functions",
    "kept_function",
    "load_module",
    "load_program",
    "parse_module_text",
    "run",
]


class RunError(ValueError):
    """A problem running a program: bad input, module, symbol, arguments or execution.

    ``str(err)`` is one line; ``details`` keeps the full diagnostic when there is one.
    """

    def __init__(self, message: str, details: str | None = None):
        super().__init__(message)
        self.details = details if details is not None else message


def build_context() -> Context:
    """xDSL's dialects, our upstream ``linalg``/``arith`` overrides and ``pto``."""
    from xdsl.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    register_upstream_overrides(ctx)

    if "pto" not in ctx.registered_dialect_names:
        ctx.register_dialect("pto", lambda: PTO)
    return ctx


def _one_line(err: Exception) -> str:
    text = str(err).strip()
    lines = [line for line in text.splitlines() if line.strip()]
    if isinstance(err, ParseError) and len(lines) >= 2:
        return f"{lines[0]}: {lines[-1].strip()}"
    return lines[0] if lines else type(err).__name__


def parse_module_text(
    text: str, name: str = "<string>", ctx: Context | None = None
) -> builtin.ModuleOp:
    """Parse MLIR text (not verified); a parse error is a one-line :class:`RunError`."""
    if not text.strip():
        raise RunError(f"'{name}' is empty: there is no module to run")

    try:
        check_dense_sizes(text, name)
        return SourceParser(ctx or build_context(), text, name).parse_module()
    except ParseError as e:

        fix_parse_error(e)
        raise RunError(f"parse error: {_one_line(e)}", str(e)) from None
    except (RecursionError, MemoryError):
        raise
    except Exception as e:  # an exception inside xDSL's parser: malformed input

        where = parser_location(e) or name
        reason = (
            "a value is out of range for its type"
            if isinstance(e, OverflowError)
            else first_line(e)
        )
        raise RunError(f"parse error: {where}: malformed input: {reason}") from None


def load_module(
    module_or_path: builtin.ModuleOp | str | os.PathLike[str], ctx: Context | None = None
) -> builtin.ModuleOp:
    """Parse (a path, or MLIR text) and verify; a ``ModuleOp`` is verified as is."""
    if isinstance(module_or_path, builtin.ModuleOp):
        module = module_or_path
        module_cache.forget(module)  # verified again after a change: not its text's any more
    else:
        module = parse_module_text(*_source_text(module_or_path), ctx or build_context())

    try:
        check_module(module)
        module.verify()
    except DiagnosticException as e:
        notes = "\n".join(getattr(e, "__notes__", []))
        op = failing_op(e)
        where = op_location(op) if op is not None else None
        at = f"{where}: " if where else ""
        raise RunError(f"verification failed: {at}{_one_line(e)}", f"{e}\n{notes}") from None
    except (RecursionError, MemoryError):
        raise
    except Exception as e:  # an exception inside an xDSL verifier: malformed op

        raise RunError(f"verification failed: malformed input: {first_line(e)}") from None
    return module


def _source_text(path_or_text: str | os.PathLike[str]) -> tuple[str, str]:
    """(text, name) of a path or of MLIR text (a string with ``{`` or a newline)."""
    if isinstance(path_or_text, os.PathLike) or (
        isinstance(path_or_text, str) and not any(c in path_or_text for c in "{\n")
    ):
        path = Path(path_or_text)
        try:
            return path.read_text(), str(path)
        except OSError as e:
            raise RunError(f"cannot read '{path}': {e.strerror or e}") from None
        except UnicodeDecodeError as e:
            raise RunError(f"'{path}' is not UTF-8 text (byte {e.start}: {e.reason})") from None
    if isinstance(path_or_text, str):
        return path_or_text, "<string>"
    raise RunError(f"expected a ModuleOp, a path or MLIR text, got {type(path_or_text)}")


_CHECKED = "_pto_checked"
"""``module.__dict__`` flag: :func:`load_program` verified and size-checked this module."""


def load_program(text: str, name: str = "<string>") -> builtin.ModuleOp:
    """Parse, verify and size-check MLIR text, once: a text loaded before (by any process)
    comes verified from the disk cache of :mod:`interpreter.ssa.module_cache`, without
    parsing. :func:`run` does not verify the result again; it must not be mutated (or pass it
    to :func:`load_module` after the change)."""
    module = module_cache.load(text, name)
    if module is None:
        module = load_module(parse_module_text(text, name))
        _check_tensor_sizes(module)
        module_cache.store(text, name, module)
    module.__dict__[_CHECKED] = True
    return module


def extra_functions(profile: str) -> list[InterpreterFunctions]:
    """The PTO interpreter functions: tile-level ops, tensor-level ops and decoded blocks."""

    return [
        cls(profile=profile)
        for cls in (
            PTOFunctions,
            TensorPTOFunctions,
            TensorLocalFunctions,
            TensorConvertFunctions,
            PTOBlockFunctions,
            GlobalMemoryFunctions,
        )
    ]


def _shape_matches(want: Sequence[int], have: Sequence[int]) -> bool:
    return len(want) == len(have) and all(
        w == builtin.DYNAMIC_INDEX or w == h for w, h in zip(want, have, strict=True)
    )


def _coerce_bits(arr: np.ndarray, dtype: np.dtype[Any], t: Attribute, where: object) -> np.ndarray:
    """View an unsigned bit-pattern array as ``dtype`` (same width), checking narrow codes."""
    if arr.dtype.kind != "u" or arr.dtype.itemsize != dtype.itemsize or dtype == np.bool_:
        raise RunError(f"{where}: expected dtype {dtype} for {t}, got {arr.dtype}")
    elem = t.get_element_type() if isinstance(t, builtin.ShapedType) else t
    bits = getattr(elem, "bitwidth", dtype.itemsize * 8)
    if bits < 8 * dtype.itemsize and arr.size and int(arr.max()) >> bits:
        raise RunError(f"{where}: {t} codes must fit in {bits} bits, found {int(arr.max()):#x}")
    return np.ascontiguousarray(arr).view(dtype)


class _Where:
    """``argument <index> (<type>)``, formatted when a message is."""

    def __init__(self, index: int, t: Attribute):
        self.index, self.t = index, t

    def __str__(self) -> str:
        return f"argument {self.index} ({self.t})"


def _convert_argument(value: Any, t: Attribute, index: int) -> Any:
    where = _Where(index, t)  # printed only in a message (printing a type costs ~0.1 ms)

    if isinstance(t, TileType | PredicateTileType):
        try:
            return tile_from_array(t, np.asarray(value))
        except ValueError as e:
            raise RunError(f"{where}: {e}") from None
    try:
        dtype = dtype_for(t)
    except UnsupportedTypeError as e:
        raise RunError(f"{where}: {e}") from None
    if isinstance(t, builtin.TensorType):
        if not isinstance(value, np.ndarray):
            raise RunError(f"{where}: expected a numpy array, got {type(value).__name__}")
        shape = tuple(t.get_shape())
        if not _shape_matches(shape, value.shape):
            want = "x".join("?" if d == builtin.DYNAMIC_INDEX else str(d) for d in shape)
            raise RunError(f"{where}: expected shape {want or '()'}, got {value.shape}")
        if value.dtype == dtype:
            return value
        return _coerce_bits(value, dtype, t, where)
    if isinstance(t, builtin.ShapedType):
        raise RunError(f"{where}: only tensor and scalar arguments are supported")
    if isinstance(value, np.generic | np.ndarray) and np.ndim(value) == 0:
        arr = np.asarray(value)
        if arr.dtype == dtype:
            return arr[()]
        return _coerce_bits(arr, dtype, t, where)[()]
    if isinstance(value, bool | int | float) and not (
        isinstance(value, float) and np.issubdtype(dtype, np.integer)
    ):
        try:
            return np.array(value).astype(dtype)[()]
        except (OverflowError, ValueError) as e:
            raise RunError(f"{where}: {e}") from None
    raise RunError(f"{where}: expected a scalar of dtype {dtype}, got {value!r}")


def convert_argument(value: Any, t: Attribute, index: int) -> Any:
    """Argument ``index`` of type ``t`` as :func:`run` takes it (module docstring): a tile's
    :class:`~interpreter.ssa.runtime.TileValue`, a tensor's array, a scalar's numpy scalar;
    :class:`RunError` naming the argument otherwise. The machine model converts the operands
    of the instructions it runs on registers with it (:mod:`interpreter.machine.dispatch`)."""
    return _convert_argument(value, t, index)


MAX_TENSOR_BYTES = 1 << 32
"""Memory limit of :func:`run`: no tensor the program names may need more than 4 GiB."""


def _check_tensor_sizes(module: Operation) -> None:
    """Refuse a program with a static tensor larger than :data:`MAX_TENSOR_BYTES` before
    running anything (numpy would fail late, or the machine would swap)."""
    seen: set[int] = set()  # by identity: hashing an attribute walks its parameters
    for op in module.walk():
        for value in (*op.results, *op.operands):
            t = value.type
            if not isinstance(t, builtin.TensorType) or id(t) in seen:
                continue
            seen.add(id(t))
            shape = [d for d in t.get_shape() if d != builtin.DYNAMIC_INDEX]
            elem = t.element_type
            bits = getattr(elem, "bitwidth", None) or getattr(
                getattr(elem, "width", None), "data", 8
            )
            nbytes = (int(np.prod(shape, dtype=object)) * max(int(bits), 8)) // 8
            if nbytes > MAX_TENSOR_BYTES:
                raise RunError(
                    f"'{op.name}': {t} needs {nbytes} bytes, more than pto-run's memory limit "
                    f"of {MAX_TENSOR_BYTES} bytes per tensor"
                )


class _OpTracker(Interpreter.Listener):
    """Remembers which ops are being interpreted, to name the one that failed; with
    ``observe``, reports the ops of function and ``scf`` bodies to the run's observer."""

    def __init__(self, observe: bool = False) -> None:
        self.stack: list[Operation] = []
        self.observer = current() if observe else None
        self.started: list[int] = []

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        self.stack.append(op)
        if self.observer is not None:
            self.started.append(time.perf_counter_ns())

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        self.stack.pop()
        if self.observer is not None:
            t0 = self.started.pop()
            if reported(op):
                self.observer.op(op, t0, time.perf_counter_ns())


ENGINES = ("compiled", "xdsl", "both")
"""``compiled``: the plan engine (:mod:`interpreter.ssa.compiled`, the default); ``xdsl``: the
reference engine, xDSL's interpreter; ``both``: run the two and require identical outcomes
(bitwise results, or the same error at the same op). ``PTO_ENGINE`` sets the default."""


class EngineMismatch(AssertionError):
    """``engine="both"``: the compiled and the xDSL engines disagreed."""


def run(
    module_or_path: builtin.ModuleOp | str | os.PathLike[str],
    symbol: str,
    *arrays: Any,
    profile: str = "ordered",
    engine: str | None = None,
    flags: NumericStatus | None = None,
    observer: Observer | None = None,
) -> tuple[np.ndarray, ...]:
    """Run function ``@symbol`` of a module (a ``ModuleOp``, a path or MLIR text).

    Returns the function's results as numpy arrays. Raises :class:`RunError` for bad
    input and execution errors, and lets :class:`~pto_dialect.faults.PTOFault` through.
    ``engine`` is one of :data:`ENGINES` (default ``$PTO_ENGINE`` or ``compiled``).

    ``flags``: a :class:`~interpreter.kernels.status.NumericStatus` (sticky NV DZ OF UF NX,
    ``asl/arch/state/numeric-status.asl``) that every operation of the run ORs its numeric
    status flags into; it is never cleared here, so one object accumulates over runs like the
    ISA's CORE_STATE flags. When a run faults, it holds the flags of the operations that
    completed before the fault and none of the faulting one (D12). Without ``flags`` no flag
    is computed.

    ``observer``: an :class:`interpreter.observe.Observer` told of every op the run executes
    (progress, statistics, a trace: :mod:`interpreter.observe`).
    """
    engine = engine or os.environ.get("PTO_ENGINE") or "compiled"
    if engine not in ENGINES:
        raise RunError(f"unknown engine '{engine}' (choose from {', '.join(ENGINES)})")

    if not isinstance(module_or_path, builtin.ModuleOp):
        text, name = _source_text(module_or_path)
        if engine == "compiled" and observer is None and current() is None:
            kept = kept_function(text, name, symbol, profile)
            if kept is not None and len(arrays) == len(kept.inputs):
                return kept(*arrays, flags=flags)
        module, checked = load_program(text, name), True
    else:
        module = module_or_path
        # verified and size-checked by load_program or when its first plan was compiled
        checked = bool(module.__dict__.get(_CHECKED)) or compiled.cached(module)
        if not checked:
            load_module(module)
    callee = SymbolTable.lookup_symbol(module, symbol)
    if callee is None:
        raise RunError(no_function_message(module, symbol))
    if not isinstance(callee, func.FuncOp):
        raise RunError(f"@{symbol} is a '{callee.name}', not a func.func")
    if not callee.body.blocks:
        raise RunError(f"@{symbol} is a declaration without a body")
    inputs = callee.function_type.inputs.data
    if len(arrays) != len(inputs):
        raise RunError(f"@{symbol} takes {len(inputs)} argument(s), got {len(arrays)}")
    args = tuple(_convert_argument(v, t, i) for i, (v, t) in enumerate(zip(arrays, inputs)))
    if not checked:
        _check_tensor_sizes(module)
    if engine == "xdsl":
        runner = _run_xdsl
    elif engine == "compiled":
        runner = _run_compiled
    else:
        runner = _run_both
    with observing(observer):
        if flags is None:
            results = runner(module, callee, args, profile)
        else:
            with recording(flags):
                results = runner(module, callee, args, profile)
    inputs_ = [a for a in args if isinstance(a, np.ndarray)]
    return tuple(_unaliased(_convert_result(r), inputs_) for r in results)


class KeptFunction:
    """A function whose plan the module cache kept (:func:`kept_function`): ``inputs`` and
    ``outputs`` are its argument and result types; calling it runs it as :func:`run` does
    (compiled engine, no observer), from the kept recipe without loading the module: the
    arguments are checked against the kept types and the plan is built from its recipe; the
    module (verified when it was first loaded) is loaded only when a step needs its ops
    (:class:`interpreter.ssa.compiled.Deferred`)."""

    def __init__(self, text: str, name: str, symbol: str, profile: str,
                 recipe: compiled.PlanRecipe, inputs: tuple[Attribute, ...],
                 outputs: tuple[Attribute, ...]):
        self.text, self.name, self.symbol, self.profile = text, name, symbol, profile
        self.recipe, self.inputs, self.outputs = recipe, inputs, outputs

    def __call__(self, *arrays: Any, flags: NumericStatus | None = None) -> tuple[np.ndarray, ...]:
        symbol, profile, inputs = self.symbol, self.profile, self.inputs
        if len(arrays) != len(inputs):
            raise RunError(f"@{symbol} takes {len(inputs)} argument(s), got {len(arrays)}")
        args = tuple(_convert_argument(v, t, i) for i, (v, t) in enumerate(zip(arrays, inputs)))

        def load() -> compiled.Compiler:
            module = load_program(self.text, self.name)
            return compiled.compiler(module, profile,
                                     lambda: _interpreter(module, profile, _OpTracker()))

        ops = compiled.Deferred(load)
        plan = compiled.build_plan(self.recipe, profile, ops, symbol)
        try:
            with recording(flags) if flags is not None else contextlib.nullcontext():
                results = plan(*args)
        except PTOFault as e:
            _drop_notes(e)
            raise
        except (InterpretationError, DiagnosticException, UnsupportedTypeError) as e:
            c = ops.loaded()
            stack = c.interp.listeners[0].stack if c is not None else []  # type: ignore[attr-defined]
            op = stack[-1] if stack else plan.op_at(e.__traceback__)
            where = f"'{op.name}': " if op is not None else ""
            _drop_notes(e)
            raise RunError(f"{where}{_one_line(e)}", str(e)) from e
        finally:
            c = ops.loaded()
            if c is not None:
                compiled.keep_plans(c.module)  # a callee planned meanwhile is kept too
        inputs_ = [a for a in args if isinstance(a, np.ndarray)]
        return tuple(_unaliased(_convert_result(r), inputs_) for r in results)


def kept_function(text: str, name: str, symbol: str, profile: str = "ordered") -> KeptFunction | None:
    """Function ``@symbol`` of the program ``text`` (read from ``name``) as the module cache
    kept its plan for ``profile`` (:func:`interpreter.ssa.module_cache.load_plans`), or None
    when none is kept (then :func:`load_program` and :func:`run` the module)."""
    kept = module_cache.load_plans(text, name)
    if kept is None:
        return None
    recipe, inputs = kept["plans"].get((symbol, profile)), kept["inputs"].get(symbol)
    outputs = kept["outputs"].get(symbol)
    if (not isinstance(recipe, compiled.PlanRecipe) or not isinstance(inputs, tuple)
            or not isinstance(outputs, tuple)):
        return None
    return KeptFunction(text, name, symbol, profile, recipe, inputs, outputs)


def _unaliased(result: np.ndarray, inputs: list[np.ndarray]) -> np.ndarray:
    """A result never shares memory with an argument (reshapes are views, D12 values)."""
    if any(np.may_share_memory(result, a) for a in inputs):
        return result.copy()
    return result


def _interpreter(module: builtin.ModuleOp, profile: str, tracker: _OpTracker) -> Interpreter:
    interpreter = Interpreter(module, index_bitwidth=64, listeners=(tracker,))
    for functions in upstream_functions():
        interpreter.register_implementations(functions)
    for functions in extra_functions(profile):
        interpreter.register_implementations(functions, override=True)
    return interpreter


def _run_xdsl(module: builtin.ModuleOp, callee: func.FuncOp, args: tuple[Any, ...], profile: str):
    tracker = _OpTracker(observe=True)
    interpreter = _interpreter(module, profile, tracker)
    try:
        return interpreter.call_op(callee, args)
    except PTOFault as e:
        _drop_notes(e)
        raise
    except (InterpretationError, DiagnosticException, UnsupportedTypeError) as e:
        where = f"'{tracker.stack[-1].name}': " if tracker.stack else ""
        _drop_notes(e)
        raise RunError(f"{where}{_one_line(e)}", str(e)) from e


def _run_compiled(
    module: builtin.ModuleOp, callee: func.FuncOp, args: tuple[Any, ...], profile: str
):

    tracker = _OpTracker()
    try:
        observed = current() is not None
        plan = compiled.compiled_function(
            module, callee, profile, lambda: _interpreter(module, profile, tracker),
            observed=observed,
        )
    except compiled.Unsupported:
        return _run_xdsl(module, callee, args, profile)
    interp = compiled.interpreter_of(module, profile, observed)
    listener = interp.listeners[0]  # type: ignore[union-attr]
    listener.stack.clear()
    try:
        return plan(*args)
    except PTOFault as e:
        _drop_notes(e)
        raise
    except (InterpretationError, DiagnosticException, UnsupportedTypeError) as e:
        # The innermost op xDSL was interpreting (inside a region op), else the plan's op.
        op = listener.stack[-1] if listener.stack else plan.op_at(e.__traceback__)
        where = f"'{op.name}': " if op is not None else ""
        _drop_notes(e)
        raise RunError(f"{where}{_one_line(e)}", str(e)) from e
    finally:
        compiled.keep_plans(module)  # a cached module: its new plans are cached too


def _outcome(fn, *args):
    try:
        return fn(*args), None
    except Exception as e:  # noqa: BLE001 - compared, then re-raised
        return None, e


def _describe(e: BaseException) -> tuple[Any, ...]:
    if isinstance(e, PTOFault):
        return ("PTOFault", e.kind, e.op, e.message)
    if isinstance(e, RecursionError | MemoryError):
        return (type(e).__name__,)  # resource limits: Python's wording depends on where
    return (type(e).__name__, str(e))


def _run_both(module: builtin.ModuleOp, callee: func.FuncOp, args: tuple[Any, ...], profile: str):
    outer = active()  # flags are computed (and compared) only when the run asks for them
    with recording() if outer else contextlib.nullcontext() as got_flags:
        got, err = _outcome(_run_compiled, module, callee, args, profile)
    with recording() if outer else contextlib.nullcontext() as ref_flags, suspended():
        ref, ref_err = _outcome(_run_xdsl, module, callee, args, profile)
    name = f"@{callee.sym_name.data}"
    if got_flags is not None and ref_flags is not None:
        if got_flags != ref_flags:
            raise EngineMismatch(f"{name}: numeric status flags differ: compiled engine "
                                 f"{got_flags}, xdsl engine {ref_flags}")  # fmt: skip
        record(got_flags.bits)
    if err is not None or ref_err is not None:
        if err is None or ref_err is None or _describe(err) != _describe(ref_err):
            raise EngineMismatch(
                f"{name}: compiled engine "
                f"{_describe(err) if err is not None else 'returned results'}, xdsl engine "
                f"{_describe(ref_err) if ref_err is not None else 'returned results'}"
            )
        raise err
    assert got is not None and ref is not None
    if len(got) != len(ref):
        raise EngineMismatch(f"{name}: {len(got)} results (compiled) vs {len(ref)} (xdsl)")
    for i, (a, b) in enumerate(zip(got, ref)):
        x, y = _convert_result(a), _convert_result(b)
        if x.dtype != y.dtype or x.shape != y.shape or x.tobytes() != y.tobytes():
            raise EngineMismatch(f"{name}: result {i} differs between the compiled and xdsl engines")
        if _defined(a) != _defined(b):
            raise EngineMismatch(f"{name}: result {i} definedness differs between the engines")
    return got


def _defined(value: Any) -> Any:

    if isinstance(value, TileValue):
        return {p: d.tobytes() for p, d in value.defined.items()}
    return None


def _convert_result(value: Any) -> np.ndarray:

    if isinstance(value, TileValue):
        return array_from_tile(value)
    return np.asarray(value)


def _drop_notes(e: BaseException) -> None:
    """xDSL attaches a printout of the whole module to failing ops; keep errors short."""
    if hasattr(e, "__notes__"):
        del e.__notes__
