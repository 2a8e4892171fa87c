"""``pto-run``: run one function of an MLIR file on numpy arrays from an ``.npz``.

    pto-run FILE --symbol NAME [--inputs in.npz] [--output out.npz] [--profile P]
            [--engine compiled|xdsl|both] [--print-flags] [--stats] [--trace FILE]
            [--no-progress | --quiet]

``FILE`` may be ``-`` (stdin). Arrays ``arg0, arg1, ...`` of ``in.npz`` are the arguments
in order (bf16 / f8 / f6 / f4 / E8M0 arguments as unsigned bit patterns of the same
width, see :func:`interpreter.run`); ``--inputs`` may also be a folder of ``arg0.npy,
arg1.npy, ...``, memory-mapped read-only: no copy and no checksum, so large inputs cost only
what the kernels read (the files must not change during the run). ``out.npz`` receives ``result0, result1, ...``;
results whose dtype only ml_dtypes has are written as unsigned bit patterns. Without
``--output`` the results are printed, e.g. ``result0: tensor<1x4xf32> = [[...]]``, floats
with the shortest digits that identify the value in its own type, arrays above 1000
elements summarised. ``--print-flags`` adds ``flags: NV NX (0x11)`` (or ``flags: none
(0x00)``), the run's sticky numeric status (:mod:`interpreter.kernels.status`); a faulting run
prints the flags of the operations before the fault on stderr.

Errors are one line on stderr and exit status 1: ``pto-run: fault [Kind] ...`` for a
:class:`~pto_dialect.faults.PTOFault`, ``pto-run: error: ...`` otherwise; an unexpected
error says it is a bug and how to report it (``--debug`` shows the traceback). Arguments are
checked before anything runs: ``--profile`` must be a known profile, ``--inputs`` an ``.npz``
archive (a ``.npy`` file, a pickle or text is named as such), ``--output`` is written at
exactly the path given (never a directory), ``--symbol`` takes ``main`` or ``@main``. A
program nested beyond the recursion limit or asking for more memory than there is fails
with a message saying so (:mod:`pto_dialect.tools.boundary`).

What ran (:mod:`interpreter.observe`): a progress line on stderr (``pto-run: 1200/5000 ops,
3.1 s``) while a run takes over about 2 s and stderr is a terminal (``--no-progress`` or
``--quiet`` silence it); ``--stats`` prints per-op counts, time, bytes moved and the peak tile
capacity on stderr after the run; ``--trace FILE`` writes every executed op and block as
Chrome trace JSON. Both are written after a fault too, up to the faulting op.

The program is parsed and verified once; a text run before comes from the disk cache of
verified modules (:mod:`interpreter.ssa.module_cache`, ``PTO_MODULE_CACHE=0`` turns it off),
and a function run before with the same profile runs from its kept plan without loading the
module (:func:`interpreter.ssa.runner.kept_function`; not with ``--stats``, ``--trace``, a
progress line or another engine, which need the module).

xDSL's ``xDSLRunMain`` passes arguments as attribute text and prints Python values, so
it does not fit the npz interface; this is a small argparse tool on :func:`interpreter.run`.
"""

from __future__ import annotations

import argparse
import os
import sys
import zipfile
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib import format as npformat

from interpreter.kernels import PROFILES, NumericProfile
from interpreter.kernels.status import NumericStatus
from interpreter.observe import Observer, Observers, Progress, Stats, Trace, expected_ops
from interpreter.ssa.runner import RunError, kept_function, load_program, run
from pto_dialect.faults import PTOFault
from pto_dialect.tools.boundary import first_line, guarded
from pto_dialect.upstream.source_diagnostics import no_function_message

__all__ = ["format_flags", "format_result", "main"]

_PRINT_THRESHOLD = 1000


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pto-xdsl")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


class _VersionAction(argparse.Action):
    """``--version``: the version looked up when asked (``importlib.metadata`` reads the
    package metadata: milliseconds every run otherwise)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog} {_version()}")
        parser.exit()


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

    if path is None:
        if count:
            raise RunError(f"the function takes {count} argument(s): pass --inputs in.npz")
        return []
    if os.path.isdir(path):
        arrays = _load_npy_folder(path)
    else:
        _check_npz(path)
        try:
            arrays = _read_npz(path)
        except MemoryError:
            raise
        except Exception as e:  # noqa: BLE001 - zipfile/zlib/numpy raise many kinds on bad data

            raise RunError(f"cannot read inputs '{path}': not a valid .npz archive ({first_line(e)})") from None
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


def _read_npz(path: str) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` archive, as ``np.load(path, allow_pickle=False)`` gives them.
    An uncompressed member (what ``np.savez`` writes) is read straight into its array, one
    copy, its CRC-32 checked as ``zipfile`` does (``np.load`` copies it twice more through
    ``zipfile``'s buffers); an archive with any other member is read by ``np.load``."""
    with open(path, "rb") as f, zipfile.ZipFile(f) as z:
        infos = z.infolist()
        if not all(i.compress_type == zipfile.ZIP_STORED and not i.flag_bits & 0x1
                   and i.filename.endswith(".npy") for i in infos):  # fmt: skip
            return _np_load(path)
        arrays = {}
        for info in infos:
            f.seek(info.header_offset)
            head = f.read(30)
            if len(head) != 30 or head[:4] != b"PK\x03\x04":
                raise ValueError(f"{info.filename}: bad local file header")
            start = info.header_offset + 30 + int.from_bytes(head[26:28], "little") \
                + int.from_bytes(head[28:30], "little")
            f.seek(start)
            version = npformat.read_magic(f)
            if version not in ((1, 0), (2, 0)):
                return _np_load(path)
            read_header = (npformat.read_array_header_1_0 if version == (1, 0)
                           else npformat.read_array_header_2_0)
            shape, fortran, dtype = read_header(f)
            if dtype.hasobject or dtype.itemsize == 0:
                return _np_load(path)  # (object arrays are refused there: no pickles)
            header = f.tell() - start
            count = int(np.prod(shape, dtype=np.int64))
            nbytes = count * dtype.itemsize
            if header + nbytes != info.file_size:
                return _np_load(path)  # (a malformed member: np.load names the problem)
            raw = np.empty(nbytes, np.uint8)
            if f.readinto(memoryview(raw)) != nbytes:
                raise ValueError(f"{info.filename}: truncated")
            f.seek(start)
            crc = zlib.crc32(raw, zlib.crc32(f.read(header)))
            if crc != info.CRC:
                raise ValueError(f"Bad CRC-32 for file {info.filename!r}")
            arrays[info.filename[:-4]] = raw.view(dtype).reshape(shape, order="F" if fortran else "C")
        return arrays


def _np_load(path: str) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


def _load_npy_folder(path: str) -> dict[str, np.ndarray]:
    """The ``arg<i>.npy`` files of folder ``path``, memory-mapped read-only (no copy, no
    checksum: a large input costs what the kernels read of it). Other files are ignored."""
    arrays: dict[str, np.ndarray] = {}
    try:
        names = sorted(os.listdir(path))
    except OSError as e:
        raise RunError(f"cannot read inputs '{path}': {e.strerror or e}") from None
    for file in names:
        stem = file[:-4]
        if not (file.endswith(".npy") and stem.startswith("arg") and stem[3:].isdigit()):
            continue
        full = os.path.join(path, file)
        try:
            arr = np.load(full, mmap_mode="r", allow_pickle=False)
        except MemoryError:
            raise
        except Exception as e:  # noqa: BLE001 - numpy raises many kinds on bad data
            raise RunError(f"cannot read input '{full}': not a valid .npy file ({first_line(e)})") from None
        arrays[stem] = np.asarray(arr)  # a plain read-only view of the mapping
    return arrays


_NPZ_HINT = "pto-run reads .npz archives: np.savez(path, arg0=..., arg1=...)"


def _check_npz(path: str) -> None:
    """``--inputs`` must be a readable ``.npz`` (zip) archive; name what it is otherwise."""

    try:
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError as e:
        raise RunError(f"cannot read inputs '{path}': {e.strerror or e}") from None
    if head.startswith(b"PK"):
        return
    if head.startswith(b"\x93NUMPY"):
        what = "a single-array .npy file"
    elif head[:1] == b"\x80" or head[:1] in (b"(", b"]", b"}"):
        what = "a Python pickle (never loaded: pickles can run code)"
    elif not head:
        what = "empty"
    else:
        try:
            head.decode("utf-8")
            what = "a text file"
        except UnicodeDecodeError:
            what = "not an .npz archive"
    raise RunError(f"inputs '{path}' is {what}; {_NPZ_HINT}")


def _write_npz(path: str, arrays: dict[str, np.ndarray]) -> None:
    """Write an ``.npz`` at exactly ``path`` (np.savez would append ``.npz`` to a name)."""

    if os.path.isdir(path):
        raise RunError(f"--output '{path}' is a directory; give a file name such as out.npz")
    try:
        with open(path, "wb") as f:
            np.savez(f, **arrays)
    except OSError as e:
        raise RunError(f"cannot write '{path}': {e.strerror or e}") from None


def _check_args(args: argparse.Namespace) -> None:

    if args.profile not in PROFILES:
        raise RunError(
            f"unknown --profile '{args.profile}' (choose from {', '.join(PROFILES)})"
        )
    args.profile = NumericProfile(args.profile)
    args.symbol = args.symbol.removeprefix("@")
    if not args.symbol:
        raise RunError("--symbol needs a function name, e.g. --symbol main")
    if args.output is not None and os.path.isdir(args.output):
        raise RunError(
            f"--output '{args.output}' is a directory; give a file name such as out.npz"
        )
    if args.trace is not None:
        folder = os.path.dirname(os.path.abspath(args.trace))
        if os.path.isdir(args.trace) or not os.path.isdir(folder):
            raise RunError(
                f"--trace '{args.trace}' is not a file that can be written (a directory, or "
                "its folder does not exist)"
            )
    if args.inputs is not None and not os.path.isdir(args.inputs):
        _check_npz(args.inputs)


def _run(args: argparse.Namespace) -> int:
    from xdsl.dialects import func
    from xdsl.traits import SymbolTable


    _check_args(args)
    if args.file == "-":
        stream = getattr(sys.stdin, "buffer", sys.stdin)
        text, name = _read_text(stream, "<stdin>"), "<stdin>"
    else:
        if os.path.isdir(args.file):
            raise RunError(f"'{args.file}' is a directory, not an MLIR file")
        if not os.path.isfile(args.file):
            raise RunError(f"cannot read '{args.file}': no such file")
        if args.file.endswith((".s", ".hex")):
            raise RunError(
                f"'{args.file}' is PTO assembly or hex words; pto-run reads MLIR "
                f"(pto-opt {args.file} | pto-run - ... runs it)"
            )
        try:
            with open(args.file, "rb") as f:
                text = _read_text(f, args.file)
        except OSError as e:
            raise RunError(f"cannot read '{args.file}': {e.strerror or e}") from None
        name = args.file
    flags = NumericStatus() if args.print_flags else None
    kept = None
    if (args.engine or os.environ.get("PTO_ENGINE") or "compiled") == "compiled" and not (
        args.stats or args.trace is not None or _shows_progress(args)
    ):  # a program run before: its kept plan, without loading the module
        kept = kept_function(text, name, args.symbol, args.profile)
    if kept is not None:
        arrays = _load_inputs(args.inputs, len(kept.inputs))
        observers: list[Observer] = []
        result_types = kept.outputs
        call = lambda: kept(*arrays, flags=flags)  # noqa: E731
    else:
        module = load_program(text, name)
        callee = SymbolTable.lookup_symbol(module, args.symbol)
        if callee is None:
            raise RunError(no_function_message(module, args.symbol))
        if not isinstance(callee, func.FuncOp):
            raise RunError(f"@{args.symbol} is a '{callee.name}', not a func.func")
        arrays = _load_inputs(args.inputs, len(callee.function_type.inputs.data))
        observers = _observers(args, module, callee)
        result_types = callee.function_type.outputs.data
        call = lambda: run(module, args.symbol, *arrays, profile=args.profile,  # noqa: E731
                           engine=args.engine, flags=flags,
                           observer=Observers(observers) if observers else None)
    try:
        results = call()
    except PTOFault:
        if flags is not None:  # the flags of the operations completed before the fault
            print(f"pto-run: flags before the fault: {format_flags(flags)}", file=sys.stderr)
        raise
    finally:
        _report(args, observers)
    if args.output is not None:
        _write_npz(args.output, {f"result{i}": _bits(r) for i, r in enumerate(results)})
    else:
        for i, (t, r) in enumerate(zip(result_types, results, strict=True)):
            print(format_result(i, str(t), r))
    if flags is not None:
        print(f"flags: {format_flags(flags)}")
    return 0


def _shows_progress(args: argparse.Namespace) -> bool:
    return not (args.quiet or args.no_progress) and _is_terminal(sys.stderr)


def _observers(args: argparse.Namespace, module: Any, callee: Any) -> list[Observer]:
    """The observers the flags ask for: progress (a terminal, not --quiet / --no-progress),
    --stats, --trace."""
    observers: list[Observer] = []
    if _shows_progress(args):
        total, exact = expected_ops(callee, module)
        observers.append(Progress(total, exact, sys.stderr, after=args.progress_after))
    if args.stats:
        observers.append(Stats())
    if args.trace is not None:
        observers.append(Trace())
    return observers


class TraceWriteError(Exception):
    """The --trace file cannot be written (one line: ``pto-run: error: ...``)."""


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _report(args: argparse.Namespace, observers: list[Observer]) -> None:
    """After the run (also after a fault: what ran until then): the statistics on stderr,
    the trace file."""
    for o in observers:
        if isinstance(o, Stats):
            print(o.table(f"pto-run: @{args.symbol}"), file=sys.stderr)
        elif isinstance(o, Trace):
            try:
                with open(args.trace, "w") as f:
                    o.write(f, {"tool": "pto-run", "file": args.file, "symbol": args.symbol})
            except OSError as e:
                raise TraceWriteError(
                    f"cannot write --trace '{args.trace}': {e.strerror or e}"
                ) from None


def format_flags(flags: Any) -> str:
    """``NV DZ`` style (set flags NV first, then the 5-bit value), or ``none``."""
    return f"{' '.join(flags.names)} (0x{flags.bits:02x})" if flags.bits else "none (0x00)"


def _read_text(stream: Any, name: str) -> str:

    data = stream.read()
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RunError(f"'{name}' is not UTF-8 text (byte {e.start}: {e.reason})") from None


_EXAMPLE = """\
example:
  python -c "import numpy as np; np.savez('in.npz', arg0=np.ones((1, 64), np.float16), \\
             arg1=np.ones((64, 32), np.float16))"
  pto-run kernel.mlir --symbol main --inputs in.npz              # prints result0: ...
  pto-opt kernel.mlir -p pto-lower | pto-run - --symbol main --inputs in.npz --output out.npz

Arrays arg0, arg1, ... of IN.npz are the function's arguments in order (bf16 / f8 / f6 / f4
/ E8M0 as unsigned bit patterns of the same width); OUT.npz receives result0, result1, ...
Errors: one line on stderr, exit status 1 (pto-run: fault [Kind] ... for a PTO fault).
"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="pto-run",
        description="Run one function of an MLIR module (linalg / arith / tensor / pto, "
        "tensor-, tile- or block-level) on numpy arrays, with the PTO numeric model.",
        epilog=_EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="MLIR file, or - for stdin")
    parser.add_argument(
        "--symbol", default="main", help="function to run, main or @main (default: main)"
    )
    parser.add_argument("--inputs", metavar="IN.npz", help="arguments arg0, arg1, ... (an .npz "
                        "archive, or a folder of arg0.npy, arg1.npy, ... read memory-mapped)")
    parser.add_argument("--output", metavar="OUT.npz", help="write result0, result1, ... here")
    parser.add_argument(
        "--profile",
        default="ordered",
        help="numeric profile of PTO ops (D4): ordered (default; ADR-0047 K-ordered FP32 "
        "FMAs), exact (one rounding), raw-carrier (raw payload words), fp32-sequential "
        "(alias of ordered)",
    )
    parser.add_argument(
        "--debug", action="store_true", help="on an internal error, show the Python traceback"
    )
    parser.add_argument(
        "--engine",
        choices=("compiled", "xdsl", "both"),
        default=None,
        help="compiled: plans at kernel speed (default, or $PTO_ENGINE); xdsl: the reference "
        "interpreter; both: run the two and require identical results or faults",
    )
    parser.add_argument(
        "--print-flags",
        action="store_true",
        help="print the run's sticky numeric status flags (NV DZ OF UF NX, "
        "RecordNumericStatusFlags) after the results: 'flags: NV NX (0x11)' or 'flags: none'",
    )
    parser.add_argument(
        "--stats",
        action="store_true",
        help="after the run, print per-op statistics on stderr: count, time, bytes moved "
        "between tensors and tiles, and the peak tile capacity",
    )
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help="write the executed ops and blocks, in order, to FILE as Chrome trace JSON "
        "(open it in ui.perfetto.dev or chrome://tracing)",
    )
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress line (shown on stderr when it is a terminal and the run takes "
        "over about 2 s)",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="same as --no-progress")
    parser.add_argument(
        "--progress-after", type=float, default=2.0, help=argparse.SUPPRESS
    )  # seconds before the progress line shows (tests use 0)
    parser.add_argument("--version", action=_VersionAction, nargs=0,
                        help="show program's version number and exit")
    args = parser.parse_args(argv)


    def describe(e: BaseException) -> str | None:
        if isinstance(e, PTOFault):
            where = f"'{e.op}': " if e.op else ""
            return f"pto-run: fault [{e.kind}] {where}{e.message}"
        if isinstance(e, RunError | TraceWriteError):
            return f"pto-run: error: {e}"
        return None

    return guarded("pto-run", lambda: _run(args), debug=args.debug, describe=describe)


if __name__ == "__main__":
    sys.exit(main())
