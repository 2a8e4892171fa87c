"""``interpreter.run``: parse, verify and execute one function of an MLIR module on numpy.

The context holds xDSL's dialects with our upstream ``linalg``/``arith`` replacing
xDSL's (:func:`pto_dialect.upstream.register_upstream_overrides`) and the ``pto``
dialect when :mod:`pto_dialect.dialect` exists. The interpreter gets the numpy functions
of :mod:`interpreter.upstream` and, when :mod:`interpreter.pto_functions` exists,
``PTOFunctions(profile=profile)`` (registered last, overriding on conflict).

Argument conventions (checked against the function signature before running):

* a tensor argument is an ``np.ndarray`` of the exact shape (``?`` matches any size) and
  of the element type's dtype (:func:`interpreter.upstream.dtype_for`). Bit patterns are
  accepted without a value cast: an unsigned integer array of the same width is *viewed*
  as bf16 / f16 / f8 / f6 / f4 / E8M0 when the signature asks for those (f6 and f4 codes
  must fit their 6 / 4 bits), and as a signless integer of the same width;
* a scalar argument is a numpy scalar of its dtype, or a Python ``bool``/``int``/``float``.

Results come back as numpy arrays (0-d for scalar results). PTO run-time faults
(:class:`pto_dialect.faults.PTOFault`) propagate unchanged; every other problem is a
:class:`RunError` with a one-line message.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import DiagnosticException, InterpretationError, ParseError

from interpreter.upstream import upstream_functions
from interpreter.upstream.dtypes import UnsupportedTypeError, dtype_for
from pto_dialect.faults import PTOFault
from pto_dialect.upstream import register_upstream_overrides

__all__ = [
    "RunError",
    "build_context",
    "extra_functions",
    "load_module",
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
    """xDSL's dialects, our upstream ``linalg``/``arith`` overrides and ``pto`` if present."""
    from xdsl.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    register_upstream_overrides(ctx)
    try:
        from pto_dialect.dialect import PTO  # pyright: ignore[reportMissingImports]
    except ImportError:
        pass
    else:
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
    try:
        return Parser(ctx or build_context(), text, name).parse_module()
    except ParseError as e:
        raise RunError(f"parse error: {_one_line(e)}", str(e)) from None


def load_module(
    module_or_path: builtin.ModuleOp | str | os.PathLike[str], ctx: Context | None = None
) -> builtin.ModuleOp:
    """Parse (a path, or MLIR text) and verify; a ``ModuleOp`` is verified as is."""
    if isinstance(module_or_path, builtin.ModuleOp):
        module = module_or_path
    else:
        ctx = ctx or build_context()
        if isinstance(module_or_path, os.PathLike) or (
            isinstance(module_or_path, str) and not any(c in module_or_path for c in "{\n")
        ):
            path = Path(module_or_path)
            try:
                text = path.read_text()
            except OSError as e:
                raise RunError(f"cannot read '{path}': {e.strerror or e}") from None
            name = str(path)
        elif isinstance(module_or_path, str):
            text, name = module_or_path, "<string>"
        else:
            raise RunError(f"expected a ModuleOp, a path or MLIR text, got {type(module_or_path)}")
        module = parse_module_text(text, name, ctx)
    try:
        module.verify()
    except DiagnosticException as e:
        notes = "\n".join(getattr(e, "__notes__", []))
        raise RunError(f"verification failed: {_one_line(e)}", f"{e}\n{notes}") from None
    return module


def extra_functions(profile: str) -> list[InterpreterFunctions]:
    """The PTO interpreter functions: tile-level ops, tensor-level ops and decoded blocks."""
    from interpreter.pto_functions import PTOFunctions

    funcs: list[InterpreterFunctions] = [PTOFunctions(profile=profile)]
    for module, cls in (
        ("interpreter.tensor_functions", "TensorPTOFunctions"),
        ("interpreter.tensor_local_functions", "TensorLocalFunctions"),
        ("interpreter.bundle_functions", "PTOBundleFunctions"),
    ):
        try:
            mod = __import__(module, fromlist=[cls])
        except ImportError as e:
            if e.name != module:
                raise
            continue
        funcs.append(getattr(mod, cls)(profile=profile))
    return funcs


def _shape_matches(want: Sequence[int], have: Sequence[int]) -> bool:
    return len(want) == len(have) and all(
        w == builtin.DYNAMIC_INDEX or w == h for w, h in zip(want, have, strict=True)
    )


def _coerce_bits(arr: np.ndarray, dtype: np.dtype[Any], t: Attribute, where: str) -> np.ndarray:
    """View an unsigned bit-pattern array as ``dtype`` (same width), checking narrow codes."""
    if arr.dtype.kind != "u" or arr.dtype.itemsize != dtype.itemsize or dtype == np.bool_:
        raise RunError(f"{where}: expected dtype {dtype} for {t}, got {arr.dtype}")
    elem = t.get_element_type() if isinstance(t, builtin.ShapedType) else t
    bits = getattr(elem, "bitwidth", dtype.itemsize * 8)
    if bits < 8 * dtype.itemsize and arr.size and int(arr.max()) >> bits:
        raise RunError(f"{where}: {t} codes must fit in {bits} bits, found {int(arr.max()):#x}")
    return np.ascontiguousarray(arr).view(dtype)


def _convert_argument(value: Any, t: Attribute, index: int) -> Any:
    where = f"argument {index} ({t})"
    from pto_dialect.attributes import TileType

    if isinstance(t, TileType):
        from interpreter.runtime import tile_from_array

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


class _OpTracker(Interpreter.Listener):
    """Remembers which ops are being interpreted, to name the one that failed."""

    def __init__(self) -> None:
        self.stack: list[Operation] = []

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        self.stack.append(op)

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        self.stack.pop()


def run(
    module_or_path: builtin.ModuleOp | str | os.PathLike[str],
    symbol: str,
    *arrays: Any,
    profile: str = "exact",
) -> tuple[np.ndarray, ...]:
    """Run function ``@symbol`` of a module (a ``ModuleOp``, a path or MLIR text).

    Returns the function's results as numpy arrays. Raises :class:`RunError` for bad
    input and execution errors, and lets :class:`~pto_dialect.faults.PTOFault` through.
    """
    module = load_module(module_or_path)
    callee = SymbolTable.lookup_symbol(module, symbol)
    if callee is None:
        raise RunError(f"no function named @{symbol} in the module")
    if not isinstance(callee, func.FuncOp):
        raise RunError(f"@{symbol} is a '{callee.name}', not a func.func")
    if not callee.body.blocks:
        raise RunError(f"@{symbol} is a declaration without a body")
    inputs = callee.function_type.inputs.data
    if len(arrays) != len(inputs):
        raise RunError(f"@{symbol} takes {len(inputs)} argument(s), got {len(arrays)}")
    args = tuple(_convert_argument(v, t, i) for i, (v, t) in enumerate(zip(arrays, inputs)))

    tracker = _OpTracker()
    interpreter = Interpreter(module, index_bitwidth=64, listeners=(tracker,))
    for functions in upstream_functions():
        interpreter.register_implementations(functions)
    for functions in extra_functions(profile):
        interpreter.register_implementations(functions, override=True)
    try:
        results = interpreter.call_op(callee, args)
    except PTOFault as e:
        _drop_notes(e)
        raise
    except (InterpretationError, DiagnosticException, UnsupportedTypeError) as e:
        where = f"'{tracker.stack[-1].name}': " if tracker.stack else ""
        _drop_notes(e)
        raise RunError(f"{where}{_one_line(e)}", str(e)) from e
    return tuple(_convert_result(r) for r in results)


def _convert_result(value: Any) -> np.ndarray:
    from interpreter.runtime import TileValue, array_from_tile

    if isinstance(value, TileValue):
        return array_from_tile(value)
    return np.asarray(value)


def _drop_notes(e: BaseException) -> None:
    """xDSL attaches a printout of the whole module to failing ops; keep errors short."""
    if hasattr(e, "__notes__"):
        del e.__notes__
