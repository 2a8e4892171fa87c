"""What a run did, while it runs (issue 27): progress, statistics and a trace of the ops.

:func:`interpreter.run` takes an ``observer``; each op the run executes at the level of a
function body (an op of a ``func.func`` or of an ``scf`` body, a ``pto.block`` as one op,
not the ops inside a ``linalg.generic`` or a block) is reported once, after it ran, with
its start and end times: ``observer.op(op, start_ns, end_ns)``. Both engines report: the
compiled engine compiles an observed plan (every step wrapped; :mod:`interpreter.ssa.compiled`)
and the xDSL engine reports from its listener. With ``engine="both"`` the compiled run is
reported (the xDSL run that checks it is not).

Observers (``pto-run`` flags):

* :class:`Progress` -- ``ops done/total, elapsed`` on stderr, rewritten in place, from the
  time the run has taken about 2 s, when stderr is a terminal (``--no-progress`` /
  ``--quiet`` silence it); the total counts loops of constant trip count.
* :class:`Stats` -- per-op counts, time and bytes moved; the peak tile capacity
  (``--stats``).
* :class:`Trace` -- every op in order as Chrome trace JSON (``--trace FILE``): one complete
  event (``"ph": "X"``) per op with ``ts`` / ``dur`` in microseconds; Perfetto
  (ui.perfetto.dev) and chrome://tracing open it.

Bytes moved are the bytes between tensors (global memory) and tiles: an op that makes tiles
from a tensor (a load) moves the valid elements of the tiles it makes, an op that makes a
tensor from tiles (a store) the valid elements of the tiles it reads; other ops move
nothing. The peak tile capacity is the largest core tile capacity held right after an
executed op, as :func:`passes.pto_assign_registers.assign_function` allocates the function's
tiles (the capacity ``pto-lower`` keeps under 256 KiB).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterable
from contextlib import contextmanager
from typing import IO, Any

from xdsl.dialects import arith, builtin, func, scf
from xdsl.ir import Operation
from xdsl.traits import IsTerminator

from passes.pto_assign_registers import assign_function
from pto_dialect.attributes import TileType
from pto_dialect.geometry import TILE_CAPACITY_BYTES
from pto_dialect.upstream.source_diagnostics import op_location

__all__ = [
    "Observer",
    "Observers",
    "Progress",
    "Stats",
    "Trace",
    "bytes_moved",
    "current",
    "expected_ops",
    "observing",
    "observed_step",
    "op_key",
    "reported",
    "suspended",
]

_CURRENT: list[Observer | None] = []


class Observer:
    """Base: ``op(op, start_ns, end_ns)`` after each op; ``start()`` / ``finish()`` around."""

    def start(self) -> None:
        pass

    def op(self, op: Operation, start_ns: int, end_ns: int) -> None:
        pass

    def finish(self) -> None:
        pass


class Observers(Observer):
    """Several observers as one."""

    def __init__(self, observers: Iterable[Observer]):
        self.observers = list(observers)

    def start(self) -> None:
        for o in self.observers:
            o.start()

    def op(self, op: Operation, start_ns: int, end_ns: int) -> None:
        for o in self.observers:
            o.op(op, start_ns, end_ns)

    def finish(self) -> None:
        for o in self.observers:
            o.finish()


def current() -> Observer | None:
    """The observer of the run in progress, or ``None``."""
    return _CURRENT[-1] if _CURRENT else None


@contextmanager
def suspended():
    """No op inside the ``with`` is reported (the reference run of ``engine="both"``)."""
    _CURRENT.append(None)
    try:
        yield
    finally:
        _CURRENT.pop()


@contextmanager
def observing(observer: Observer | None):
    """Report the ops run inside the ``with`` to ``observer`` (``None``: nothing)."""
    if observer is None:
        yield
        return
    _CURRENT.append(observer)
    observer.start()
    try:
        yield
    finally:
        _CURRENT.pop()
        observer.finish()


_REPORTED_PARENTS = ("func.func", "scf.for", "scf.if", "scf.while", "scf.execute_region")


def reported(op: Operation) -> bool:
    """True for the ops a run reports: those directly in a function or an ``scf`` body, but
    not the terminators (``func.return``, ``scf.yield``) nor ``scf.if`` (the compiled engine
    has no step for them: they are control flow in its plan; an ``scf.for`` is one step)."""
    parent = op.parent_op()
    return (
        parent is not None
        and parent.name in _REPORTED_PARENTS
        and not op.has_trait(IsTerminator)
        and not isinstance(op, scf.IfOp)
    )


_KEY = "_pto_op_key"
"""``op.__dict__`` key of :func:`op_key`'s answer (kept on the op: a table by ``id(op)`` gave
a freed op's key to a new op that got its id)."""


def op_key(op: Operation) -> str:
    """``pto.block TLOAD`` for a block (its BSTART mnemonic), else the op name."""
    key = op.__dict__.get(_KEY)
    if key is None:
        key = op.name
        if op.name == "pto.block" and op.regions and op.regions[0].blocks:
            first = op.regions[0].blocks[0].first_op
            if first is not None and first.name == "pto.b.start":
                words = str(first).split()
                if len(words) > 1:
                    key = f"pto.block {words[1].rstrip(',')}"
        op.__dict__[_KEY] = key
    return key


def _tile_bytes(t: Any) -> int:
    if not isinstance(t, TileType):
        return 0
    rows, cols = t.valid_shape
    return rows * cols * t.dtype.info.carrier_bits // 8


def bytes_moved(op: Operation) -> int:
    """Bytes between tensors and tiles (module docstring): a load's tile results, a store's
    tile operands; 0 for other ops."""
    tiles_out = sum(_tile_bytes(r.type) for r in op.results)
    tiles_in = sum(_tile_bytes(v.type) for v in op.operands)
    tensor_in = any(isinstance(v.type, builtin.TensorType) for v in op.operands)
    tensor_out = any(isinstance(r.type, builtin.TensorType) for r in op.results)
    if tiles_out and tensor_in and not tiles_in:
        return tiles_out
    if tiles_in and tensor_out and not tiles_out:
        return tiles_in
    return 0


def _constant(v) -> int | None:
    owner = getattr(v, "op", None)
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, builtin.IntegerAttr):
        return owner.value.value.data
    return None


def expected_ops(fn: func.FuncOp, module: Operation | None = None, _depth: int = 0) -> tuple[int, bool]:
    """(the number of ops a run of ``fn`` reports, exact?): loops of constant bounds count
    their trip count, others one iteration; a call counts its callee's ops."""
    exact = True
    funcs = {}
    if module is not None:
        funcs = {o.sym_name.data: o for o in module.walk() if isinstance(o, func.FuncOp)}

    def count(block_ops) -> int:
        nonlocal exact
        total = 0
        for op in block_ops:
            if op.has_trait(IsTerminator):
                continue
            total += not isinstance(op, scf.IfOp)
            if isinstance(op, scf.ForOp):
                lb, ub, st = (_constant(v) for v in (op.lb, op.ub, op.step))
                trips = 1
                if None in (lb, ub, st) or not st:
                    exact = False
                else:
                    trips = max(0, -(-(ub - lb) // st))
                total += trips * count(op.body.block.ops)
            elif isinstance(op, scf.IfOp):
                exact = False
                total += count(op.true_region.block.ops) if op.true_region.blocks else 0
            elif isinstance(op, func.CallOp) and _depth < 8:
                callee = funcs.get(op.callee.root_reference.data)
                if callee is not None and callee.body.blocks:
                    n, ok = expected_ops(callee, module, _depth + 1)
                    total += n
                    exact = exact and ok
                else:
                    exact = False
        return total

    n = count(fn.body.block.ops) if fn.body.blocks else 0
    return n, exact


class Progress(Observer):
    """``pto-run: 1200/5000 ops, 3.1 s`` on ``stream``, rewritten in place every ``every``
    seconds once the run has taken ``after`` seconds; the line is cleared at the end."""

    def __init__(self, total: int, exact: bool, stream: IO[str] | None = None,
                 after: float = 2.0, every: float = 0.25):
        self.total, self.exact = total, exact
        self.stream = stream if stream is not None else sys.stderr
        self.after, self.every = after, every
        self.done = 0
        self.shown = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._t0 = 0.0

    def start(self) -> None:
        self._t0 = time.perf_counter()
        self._thread = threading.Thread(target=self._loop, name="pto-run progress", daemon=True)
        self._thread.start()

    def op(self, op: Operation, start_ns: int, end_ns: int) -> None:
        self.done += 1

    def line(self) -> str:
        total = f"{self.total}" if self.exact else f"~{self.total}"
        if self.done > self.total:
            total = f"~{self.done}"
        return f"pto-run: {self.done}/{total} ops, {time.perf_counter() - self._t0:.1f} s"

    def _loop(self) -> None:
        if self._stop.wait(self.after):
            return
        while True:
            self.stream.write("\r\x1b[K" + self.line())
            self.stream.flush()
            self.shown = True
            if self._stop.wait(self.every):
                return

    def finish(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


class Stats(Observer):
    """Per op kind: count, time, bytes moved; the run's time and peak tile capacity."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}
        self.ns: dict[str, int] = {}
        self.moved: dict[str, int] = {}
        self.peak = 0
        self._bytes: dict[int, int] = {}
        self._in_use: dict[int, dict[Operation | None, int] | None] = {}
        self._lock = threading.Lock()
        self.wall_ns = 0
        self._t0 = 0

    def start(self) -> None:
        self._t0 = time.perf_counter_ns()

    def finish(self) -> None:
        self.wall_ns += time.perf_counter_ns() - self._t0

    def _held(self, op: Operation) -> int:
        fn = op.parent_op()
        while fn is not None and not isinstance(fn, func.FuncOp):
            fn = fn.parent_op()
        if fn is None:
            return 0
        table = self._in_use.get(id(fn), False)
        if table is False:
            try:
                table = assign_function(fn, None).in_use
            except Exception:  # noqa: BLE001 - no allocation (e.g. a register runs out): no peak
                table = None
            self._in_use[id(fn)] = table
        return table.get(op, 0) if table else 0

    def op(self, op: Operation, start_ns: int, end_ns: int) -> None:
        key = op_key(op)
        moved = self._bytes.get(id(op))
        if moved is None:
            moved = self._bytes[id(op)] = bytes_moved(op)
        held = self._held(op)
        with self._lock:
            self.count[key] = self.count.get(key, 0) + 1
            self.ns[key] = self.ns.get(key, 0) + end_ns - start_ns
            self.moved[key] = self.moved.get(key, 0) + moved
            self.peak = max(self.peak, held)

    def table(self, title: str) -> str:
        """The statistics as text: a summary line, then one row per op kind, slowest first."""
        ops = sum(self.count.values())
        op_ns = sum(self.ns.values())
        moved = sum(self.moved.values())
        lines = [
            f"{title}: {ops} ops in {self.wall_ns / 1e6:.3f} ms ({op_ns / 1e6:.3f} ms in ops), "
            f"{moved} B moved, peak tile capacity {self.peak} B of {TILE_CAPACITY_BYTES} B",
            f"  {'op':<28} {'count':>9} {'time ms':>11} {'%':>6} {'bytes moved':>13}",
        ]
        for key in sorted(self.count, key=lambda k: (-self.ns[k], k)):
            share = 100 * self.ns[key] / op_ns if op_ns else 0.0
            lines.append(
                f"  {key:<28} {self.count[key]:>9} {self.ns[key] / 1e6:>11.3f} {share:>6.1f} "
                f"{self.moved[key]:>13}"
            )
        return "\n".join(lines)


class Trace(Observer):
    """Every reported op as a Chrome trace complete event (``ph`` ``X``, ``ts``/``dur`` in
    microseconds from the start of the run, one ``tid`` per thread). At most ``limit``
    events are kept; the trace says when some were dropped."""

    def __init__(self, limit: int = 1_000_000):
        self.events: list[dict[str, Any]] = []
        self.limit = limit
        self.dropped = 0
        self._t0 = 0
        self._tids: dict[int, int] = {}
        self._lock = threading.Lock()
        self._where: dict[int, str | None] = {}

    def start(self) -> None:
        self._t0 = time.perf_counter_ns()

    def _location(self, op: Operation) -> str | None:
        if id(op) not in self._where:
            self._where[id(op)] = op_location(op)
        return self._where[id(op)]

    def op(self, op: Operation, start_ns: int, end_ns: int) -> None:
        with self._lock:
            if len(self.events) >= self.limit:
                self.dropped += 1
                return
            tid = self._tids.setdefault(threading.get_ident(), len(self._tids) + 1)
            event: dict[str, Any] = {
                "name": op_key(op),
                "cat": "block" if op.name == "pto.block" else "op",
                "ph": "X",
                "ts": (start_ns - self._t0) / 1000,
                "dur": (end_ns - start_ns) / 1000,
                "pid": 1,
                "tid": tid,
            }
            where = self._location(op)
            if where is not None:
                event["args"] = {"loc": where}
            self.events.append(event)

    def document(self, metadata: dict[str, Any] | None = None) -> dict[str, Any]:
        meta = dict(metadata or {})
        if self.dropped:
            meta["dropped_events"] = self.dropped
        names = [
            {"name": "thread_name", "ph": "M", "pid": 1, "tid": tid,
             "args": {"name": "main" if tid == 1 else f"loop worker {tid - 1}"}}
            for tid in sorted(self._tids.values())
        ]  # fmt: skip
        return {"traceEvents": names + self.events, "displayTimeUnit": "ms", "metadata": meta}

    def write(self, stream: IO[str], metadata: dict[str, Any] | None = None) -> None:
        json.dump(self.document(metadata), stream)
        stream.write("\n")


def observed_step(step, op: Operation):
    """``step`` of a compiled plan, reporting ``op`` to the current observer (if any)."""
    clock = time.perf_counter_ns

    def run(*args):
        observer = current()
        if observer is None:
            return step(*args)
        t0 = clock()
        out = step(*args)
        observer.op(op, t0, clock())
        return out

    return run

