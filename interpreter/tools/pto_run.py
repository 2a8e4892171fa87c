"""``pto-run``: run one function of an MLIR file on numpy arrays from an ``.npz``.

    pto-run FILE --symbol NAME [--inputs in.npz] [--output out.npz] [--profile P]

``FILE`` may be ``-`` (stdin). Arrays ``arg0, arg1, ...`` of ``in.npz`` are the arguments
in order (bf16 / f8 / f6 / f4 / E8M0 arguments as unsigned bit patterns of the same
width, see :func:`interpreter.run`). ``out.npz`` receives ``result0, result1, ...``;
results whose dtype only ml_dtypes has are written as unsigned bit patterns. Without
``--output`` the results are printed, e.g. ``result0: tensor<1x4xf32> = [[...]]``, floats
with the shortest digits that identify the value in its own type, arrays above 1000
elements summarised.

Errors are one line on stderr and exit status 1: ``pto-run: fault [Kind] ...`` for a
:class:`~pto_dialect.faults.PTOFault`, ``pto-run: error: ...`` otherwise.

xDSL's ``xDSLRunMain`` passes arguments as attribute text and prints Python values, so
it does not fit the npz interface; this is a small argparse tool on :func:`interpreter.run`.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["main", "format_result"]

_PRINT_THRESHOLD = 1000


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pto-xdsl")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


def _format_float(x: Any) -> str:
    value = float(x)
    if value != 0 and np.isfinite(value) and not 1e-4 <= abs(value) < 1e16:
        return np.format_float_scientific(x, unique=True, trim="0")
    return np.format_float_positional(x, unique=True, trim="0")


def _printable(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "V" or arr.dtype.type.__module__.startswith("ml_dtypes"):
        return arr.astype(np.float32)  # exact for every ml_dtypes float type
    return arr


def format_result(index: int, type_text: str, value: np.ndarray) -> str:
    """``result<i>: <type> = <values>`` with full precision for small arrays."""
    arr = _printable(np.asarray(value))
    body = np.array2string(
        arr,
        separator=", ",
        threshold=_PRINT_THRESHOLD,
        max_line_width=100,
        formatter={"float_kind": _format_float},
    )
    return f"result{index}: {type_text} = {body}"


def _bits(arr: np.ndarray) -> np.ndarray:
    """ml_dtypes arrays become unsigned bit patterns of the same width for ``.npz``."""
    if arr.dtype.type.__module__.startswith("ml_dtypes"):
        return np.ascontiguousarray(arr).view(f"u{arr.dtype.itemsize}")
    return arr


def _load_inputs(path: str | None, count: int) -> list[np.ndarray]:
    from interpreter.runner import RunError

    if path is None:
        if count:
            raise RunError(f"the function takes {count} argument(s): pass --inputs in.npz")
        return []
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise RunError(f"cannot read inputs '{path}': {e}") from None
    expected = [f"arg{i}" for i in range(count)]
    missing = [n for n in expected if n not in arrays]
    extra = sorted(set(arrays) - set(expected))
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"missing {', '.join(missing)}")
        if extra:
            parts.append(f"unexpected {', '.join(extra)}")
        raise RunError(f"inputs '{path}': {'; '.join(parts)} (expected {count} array(s) arg0..)")
    result = []
    for name in expected:
        arr = arrays[name]
        if arr.dtype.kind == "V":  # raw 1/2-byte records, e.g. ml_dtypes saved by numpy
            arr = arr.view(f"u{arr.dtype.itemsize}")
        result.append(arr)
    return result


def _run(args: argparse.Namespace) -> int:
    from xdsl.dialects import func
    from xdsl.traits import SymbolTable

    from interpreter.runner import RunError, load_module, parse_module_text, run

    if args.file == "-":
        module = load_module(parse_module_text(sys.stdin.read(), "<stdin>"))
    else:
        import os

        if not os.path.isfile(args.file):
            raise RunError(f"cannot read '{args.file}': no such file")
        module = load_module(os.fspath(args.file))
    callee = SymbolTable.lookup_symbol(module, args.symbol)
    if not isinstance(callee, func.FuncOp):
        raise RunError(f"no function named @{args.symbol} in the module")
    arrays = _load_inputs(args.inputs, len(callee.function_type.inputs.data))
    results = run(module, args.symbol, *arrays, profile=args.profile)
    if args.output is not None:
        try:
            np.savez(args.output, **{f"result{i}": _bits(r) for i, r in enumerate(results)})
        except OSError as e:
            raise RunError(f"cannot write '{args.output}': {e.strerror or e}") from None
        return 0
    result_types = callee.function_type.outputs.data
    for i, (t, r) in enumerate(zip(result_types, results, strict=True)):
        print(format_result(i, str(t), r))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="pto-run", description="Run a function of an MLIR module on numpy arrays."
    )
    parser.add_argument("file", metavar="FILE", help="MLIR file, or - for stdin")
    parser.add_argument("--symbol", default="main", help="function to run (default: main)")
    parser.add_argument("--inputs", metavar="IN.npz", help="arguments arg0, arg1, ...")
    parser.add_argument("--output", metavar="OUT.npz", help="write result0, result1, ... here")
    parser.add_argument(
        "--profile",
        default="ordered",
        help="numeric profile of PTO ops (D4): ordered (default; ADR-0047 K-ordered FP32 "
        "FMAs), exact (one rounding), raw-carrier (raw payload words), fp32-sequential "
        "(alias of ordered)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    args = parser.parse_args(argv)

    from interpreter.runner import RunError
    from pto_dialect.faults import PTOFault

    try:
        return _run(args)
    except PTOFault as e:
        where = f"'{e.op}': " if e.op else ""
        print(f"pto-run: fault [{e.kind}] {where}{e.message}", file=sys.stderr)
    except RunError as e:
        print(f"pto-run: error: {e}", file=sys.stderr)
    except Exception as e:  # never a traceback for users
        message = str(e).strip().splitlines()[0] if str(e).strip() else ""
        print(f"pto-run: internal error: {type(e).__name__}: {message}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
