"""A disk cache of verified modules, keyed by the program text (issue 26: fast loading).

Parsing MLIR with xDSL costs far more than running a lowered program's kernels (a lowered
16384 x 4096 MXFP8 GEMV at block level: about a second of parsing and verification for
0.2 s of kernels). :func:`interpreter.run` and ``pto-run`` therefore keep every program
they parsed and verified, with its source positions and its decoded blocks
(:func:`pto_dialect.block_ops.decoded`), as a pickle under the user cache directory; the next
run of the same text loads it in milliseconds, without parsing or verifying again.

* Key: SHA-256 of the text and its name (the name is in source positions and messages).
* Invalidation: entries live in a folder named by :func:`stamp` (the package version, the
  size and modification time of every source file of ``pto_dialect``, ``passes`` and
  ``interpreter`` and of xDSL's package files, the numpy and Python versions); storing an entry removes the
  folders of every other stamp, so an upgrade or a source edit starts an empty cache.
* Location: ``$PTO_CACHE_DIR`` or the user cache directory (``$XDG_CACHE_HOME`` or
  ``~/.cache`` on Linux, ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows)
  ``/pto-xdsl/modules``, created private to the user (mode 0700): pickles are only ever read
  from the user's own folder. ``PTO_MODULE_CACHE=0`` turns the cache off.
* Only verified, size-checked modules are stored; a parse or verification error is computed
  (and reported) every time. An unreadable or corrupt entry is a miss and is removed; a module
  that cannot be pickled (nesting deeper than the recursion limit) is simply not stored.
* At most :data:`MAX_ENTRIES` entries per stamp (the least recently written go first).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import marshal
import os
import pickle
import re
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from types import CodeType

from xdsl.dialects import builtin, func
from xdsl.ir import Attribute, SSAValues
from xdsl.traits import SymbolTable

from pto_dialect.upstream.source_diagnostics import set_op_spans, set_span_table, span_table

__all__ = ["ENV_DIR", "ENV_SWITCH", "MAX_ENTRIES", "PLANS_ATTR", "RECIPES_ATTR", "cache_dir",
           "clear", "compiled_code", "enabled", "forget", "key", "load", "load_plans", "shared",
           "stamp", "store", "update"]

ENV_DIR = "PTO_CACHE_DIR"
PLANS_ATTR = "_pto_compiled_plans"
"""``module.__dict__`` key of the compiled engine's live plans (closures: never stored; the
plans' recipes are, :data:`RECIPES_ATTR`)."""
RECIPES_ATTR = "_pto_plan_recipes"
"""``module.__dict__`` key: ``{(symbol, profile): PlanRecipe}`` of the unobserved plans
(:class:`interpreter.ssa.compiled.plan.PlanRecipe`, plain data): kept in the entry's plans
file, not in the module's pickle."""
_ENTRY_ATTR = "_pto_cache_entry"
"""``module.__dict__`` key: the entry a cached module was loaded from or stored to."""
ENV_SWITCH = "PTO_MODULE_CACHE"
MAX_ENTRIES = 256
FORMAT = 3
_PACKAGES = ("pto_dialect", "passes", "interpreter")
_STAMP: str | None = None


def enabled() -> bool:
    """False when ``$PTO_MODULE_CACHE`` is ``0``, ``off``, ``no`` or ``false``."""
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "off", "no", "false")


def _user_cache_root() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    if os.name == "nt":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def cache_dir() -> Path:
    """The folder of the module cache (not created here)."""
    root = os.environ.get(ENV_DIR)
    return (Path(root) if root else _user_cache_root() / "pto-xdsl") / "modules"


def _package_version() -> str:
    """The pto-xdsl version: from ``pyproject.toml`` in a source tree or editable install
    (``importlib.metadata`` scans every installed distribution: 50 ms, more than a cache hit
    saves on a small program), else from the installed metadata."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    with contextlib.suppress(OSError):
        found = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(), re.MULTILINE)
        if found:
            return found.group(1)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pto-xdsl")
    except PackageNotFoundError:  # pragma: no cover - neither
        return "unknown"


def _file_state(path: str | None) -> str:
    """``path:size:mtime`` (a reinstalled package rewrites its files)."""
    if path is None:
        return "?"
    try:
        st = os.stat(path)
    except OSError:
        return path
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def _source_state() -> list[str]:
    """(path, size, mtime) of every ``.py`` file of the packages whose classes a pickle holds:
    an edit of an editable install changes the stamp even when the version does not."""
    top = Path(__file__).resolve().parents[2]  # interpreter/ssa/module_cache.py
    out: list[str] = []
    for pkg in _PACKAGES:
        stack = [top / pkg]
        while stack:
            with contextlib.suppress(OSError), os.scandir(stack.pop()) as it:
                for e in it:
                    if e.is_dir() and e.name != "__pycache__":
                        stack.append(Path(e.path))
                    elif e.name.endswith(".py"):
                        st = e.stat()
                        out.append(f"{e.path}:{st.st_size}:{st.st_mtime_ns}")
    return sorted(out)


def stamp(refresh: bool = False) -> str:
    """The cache generation: package version, source files, xDSL / numpy / Python versions
    (computed once per process; ``refresh`` computes it again)."""
    global _STAMP
    if _STAMP is None or refresh:
        import numpy
        import xdsl

        h = hashlib.sha256()
        # xDSL by its files: its __version__ asks importlib.metadata (slow, see above)
        for part in (str(FORMAT), _package_version(), _file_state(xdsl.__file__),
                     numpy.__version__, sys.version, *_source_state()):  # fmt: skip
            h.update(part.encode() + b"\0")
        _STAMP = h.hexdigest()[:20]
    return _STAMP


def key(text: str, name: str) -> str:
    """The entry name of a program: SHA-256 of its name and text."""
    return hashlib.sha256(name.encode() + b"\0" + text.encode()).hexdigest()


def _entry(text: str, name: str) -> Path:
    return cache_dir() / stamp() / f"{key(text, name)}.pickle"


def _plans_path(entry: Path) -> Path:
    return entry.with_suffix(".plans")


def _entry_or_none(text: str, name: str) -> Path | None:
    """The entry's path, or None when there is no user cache directory (no home: the cache
    is off)."""
    try:
        return _entry(text, name)
    except (RuntimeError, KeyError, OSError):  # Path.home() without HOME or a passwd entry
        return None


def load(text: str, name: str) -> builtin.ModuleOp | None:
    """The cached verified module of ``text`` (read from ``name``), or None on a miss."""
    path = _entry_or_none(text, name) if enabled() else None
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    collecting = gc.isenabled()
    gc.disable()  # unpickling builds ~10^5 objects: no collection passes meanwhile (2x faster)
    try:
        entry = pickle.loads(data)
        module = entry["module"]
        if entry.get("format") != FORMAT or not isinstance(module, builtin.ModuleOp):
            raise ValueError("not a module entry")
    except Exception:  # noqa: BLE001 - a corrupt or foreign entry is a miss
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    finally:
        if collecting:
            gc.enable()
    _tenure()
    set_op_spans(entry.get("spans", ()))
    if entry.get("span_table") is not None:
        set_span_table(module, entry["span_table"], text)
    module.__dict__[_ENTRY_ATTR] = path
    plans = _read_plans(_plans_path(path))
    if plans is not None:
        module.__dict__[RECIPES_ATTR] = dict(plans["plans"])
    return module


def load_plans(text: str, name: str) -> dict | None:
    """The kept plans of ``text`` (read from ``name``) without its module: ``{"plans":
    {(symbol, profile): PlanRecipe}, "inputs": {symbol: argument types}, "outputs": {symbol:
    result types}}``, or None on a miss. A plan runs from its recipe alone until a step needs the module's ops
    (:class:`interpreter.ssa.compiled.plan.Deferred`); the module comes from :func:`load`."""
    path = _entry_or_none(text, name) if enabled() else None
    return None if path is None else _read_plans(_plans_path(path))


def _read_plans(path: Path) -> dict | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        entry = pickle.loads(data)
        if (not isinstance(entry, dict) or entry.get("format") != FORMAT
                or not isinstance(entry.get("plans"), dict)
                or not isinstance(entry.get("inputs"), dict)
                or not isinstance(entry.get("outputs"), dict)):
            raise ValueError("not a plans entry")
    except Exception:  # noqa: BLE001 - a corrupt or foreign entry is a miss
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    return entry


def _tenure() -> None:
    """Move every object the collector tracks to its oldest generation at once (freeze, then
    unfreeze): the ~10^5 objects of a module just unpickled are long-lived, and the young
    collections would otherwise traverse them all, twice, during the run (about as long as
    the unpickling itself). Skipped when the process froze objects itself."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


def store(text: str, name: str, module: builtin.ModuleOp) -> bool:
    """Keep the verified ``module`` parsed from ``text``; False when it cannot be stored."""
    path = _entry_or_none(text, name) if enabled() else None
    if path is None:
        return False
    module.__dict__[_ENTRY_ATTR] = path
    return _store_at(path, module)


def forget(module: builtin.ModuleOp) -> None:
    """``module`` (loaded from or stored to the cache) may have changed: never store it under
    its text's entry again (:func:`update`)."""
    module.__dict__.pop(_ENTRY_ATTR, None)


def update(module: builtin.ModuleOp) -> bool:
    """Store the recipes of ``module``'s compiled plans (:data:`RECIPES_ATTR`, new ones were
    added) in the plans file of the entry it was loaded from or stored to, with the argument
    and result types of their functions, and the module again (planning dropped the block
    summaries a batched loop does not read, :func:`pto_dialect.block_ops.keep_linked_only`);
    False for a module that is not in the cache."""
    path = module.__dict__.get(_ENTRY_ATTR)
    recipes = module.__dict__.get(RECIPES_ATTR)
    if not isinstance(path, Path) or not isinstance(recipes, dict) or not enabled():
        return False
    inputs, outputs = {}, {}
    for symbol in {sym for sym, _profile in recipes}:
        callee = SymbolTable.lookup_symbol(module, symbol)
        if not isinstance(callee, func.FuncOp):  # pragma: no cover - a planned function
            return False
        inputs[symbol] = tuple(callee.function_type.inputs.data)
        outputs[symbol] = tuple(callee.function_type.outputs.data)
    try:  # equal types (a tile type per load) pickled once: a tenth of the loading time
        buf = io.BytesIO()
        _SharingPickler(buf).dump({"format": FORMAT, "plans": recipes, "inputs": inputs,
                                   "outputs": outputs})
        data = buf.getvalue()
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return False
    _store_at(path, module)  # again: planning dropped what a batched run never reads
    return _write(_plans_path(path), data)


def _store_at(path: Path, module: builtin.ModuleOp) -> bool:
    transient = {k: module.__dict__.pop(k) for k in (PLANS_ATTR, _ENTRY_ATTR, RECIPES_ATTR)
                 if k in module.__dict__}  # fmt: skip
    try:
        others, table = span_table(module)
        data = _dumps({"format": FORMAT, "module": module, "spans": others, "span_table": table})
    finally:
        module.__dict__.update(transient)
    if data is None:
        return False
    return _write(path, data)


def compiled_code(source: str, filename: str) -> CodeType:
    """``compile(source, filename, "exec")``, kept (marshalled, as CPython keeps ``.pyc``
    files) beside the modules under SHA-256 of the source: compiling the text of a
    compiled-engine plan (:mod:`interpreter.ssa.compiled.plan`) costs milliseconds, more than
    the rest of its planning. A corrupt entry is a miss and is removed."""
    name = hashlib.sha256(source.encode()).hexdigest()
    path = _code_entry(name) if enabled() else None
    if path is not None:
        with contextlib.suppress(OSError):
            data = path.read_bytes()
            try:
                code = marshal.loads(data)
                if not isinstance(code, CodeType):
                    raise ValueError("not a code object")
                return _renamed(code, filename)
            except Exception:  # noqa: BLE001 - a corrupt entry is a miss
                with contextlib.suppress(OSError):
                    path.unlink()
    code = compile(source, filename, "exec")
    if path is not None:
        _write(path, marshal.dumps(code))
    return code


def _code_entry(name: str) -> Path | None:
    try:
        return cache_dir() / stamp() / f"{name}.code"
    except (RuntimeError, KeyError, OSError):  # no home directory: no cache
        return None


def _renamed(code: CodeType, filename: str) -> CodeType:
    """``code`` and the code objects nested in it with ``co_filename`` = ``filename`` (a
    plan's tracebacks name their plan by it)."""
    consts = tuple(_renamed(c, filename) if isinstance(c, CodeType) else c
                   for c in code.co_consts)  # fmt: skip
    return code.replace(co_filename=filename, co_consts=consts)


def _write(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically in the private cache folder; False on failure."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _prune(path.parent)
    except OSError:
        return False  # a read-only or full disk: run without the cache
    return True


_DUMP_STACK = 256 << 20
_DUMP_DEPTH = 200_000


def shared(value: Attribute | SSAValues) -> Attribute | SSAValues:
    """Unpickling: the value itself (pickled once, referred to at every other place)."""
    return value


class _SharingPickler(pickle.Pickler):
    """Pickles every attribute once per value: IR attributes are immutable values, and a
    module holds thousands of equal ones (integers, types, strings), each otherwise
    unpickled as an object of its own (a third of the loading time of a block program).
    Values are compared by their own pickled bytes, so only exactly equal ones are shared
    (``-0.0`` is not ``0.0``, ``True`` is not ``1``). The empty operand and result tuples
    of ops (immutable too) are shared the same way."""

    def __init__(self, file: io.BytesIO):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.canonical: dict[tuple[type, bytes], Attribute] = {}
        self.no_values: SSAValues | None = None

    def reducer_override(self, obj: object):
        if type(obj) is SSAValues and not obj:  # an op without operands or results
            if self.no_values is None:
                self.no_values = obj
                return NotImplemented
            return NotImplemented if obj is self.no_values else (shared, (self.no_values,))
        if not isinstance(obj, Attribute):
            return NotImplemented
        try:
            first = self.canonical.setdefault(
                (type(obj), pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)), obj)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            return NotImplemented
        return NotImplemented if first is obj else (shared, (first,))


def _dumps(entry: dict) -> bytes | None:
    """``pickle.dumps(entry)``, or None when it cannot be pickled. pickle recurses along the
    IR's linked lists (an op's next op, a value's uses), a few levels per op, so it runs on a
    thread of its own with a 256 MiB stack and a recursion limit to match (the limit is
    restored after)."""
    out: list[bytes | None] = [None]

    def work() -> None:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, _DUMP_DEPTH))
        try:
            buf = io.BytesIO()
            _SharingPickler(buf).dump(entry)
            out[0] = buf.getvalue()
        except (RecursionError, MemoryError, pickle.PicklingError, TypeError, AttributeError):
            out[0] = None  # deeper still, or an object pickle cannot take: not stored
        finally:
            sys.setrecursionlimit(old)

    previous = threading.stack_size()
    try:
        threading.stack_size(_DUMP_STACK)
        worker = threading.Thread(target=work, name="pto-module-cache")
    except (ValueError, RuntimeError):  # a platform without settable thread stacks
        return None
    finally:
        threading.stack_size(previous)
    worker.start()
    worker.join()
    return out[0]


def _prune(folder: Path) -> None:
    """Remove the folders of other stamps and the oldest entries beyond MAX_ENTRIES."""
    for other in folder.parent.iterdir():
        if other != folder and other.is_dir():
            shutil.rmtree(other, ignore_errors=True)
    for kind in ("*.pickle", "*.plans", "*.code"):
        entries = list(folder.glob(kind))
        if len(entries) > MAX_ENTRIES:
            entries.sort(key=lambda p: p.stat().st_mtime_ns)
            for old in entries[: len(entries) - MAX_ENTRIES]:
                with contextlib.suppress(OSError):
                    old.unlink()


def clear() -> int:
    """Remove every cached module (all stamps); the number of entries removed."""
    root = cache_dir()
    n = sum(1 for _ in root.glob("*/*.pickle")) if root.is_dir() else 0
    shutil.rmtree(root, ignore_errors=True)
    return n
