"""What a run did (issue 27): interpreter.observe's progress, statistics and trace, in both
engines, and pto-run's flags. The command-line figures are in
tests/filecheck/interpreter/observe.mlir."""

from __future__ import annotations

import io
import json
import time

import numpy as np
import pytest
from xdsl.dialects import func

from interpreter.observe import (
    Observers,
    Progress,
    Stats,
    Trace,
    bytes_moved,
    expected_ops,
    op_key,
)
from interpreter.ssa.runner import parse_module_text, run
from interpreter.tools import pto_run

LOOP = """
func.func @main(%x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %x) -> (i32) {
    %n = arith.addi %acc, %acc : i32
    %m = arith.addi %n, %x : i32
    scf.yield %m : i32
  }
  %s = func.call @twice(%r) : (i32) -> i32
  func.return %s : i32
}
func.func @twice(%y: i32) -> i32 {
  %z = arith.addi %y, %y : i32
  func.return %z : i32
}
"""
# Reported: 3 constants, 5 x 2 addi, the scf.for, the call, the callee's addi = 16 ops.
LOOP_OPS = 16


def _main(module):
    return next(o for o in module.walk() if isinstance(o, func.FuncOp) and o.sym_name.data == "main")


@pytest.mark.parametrize("engine", ["compiled", "xdsl"])
def test_every_op_reported_once_in_order(engine):
    module = parse_module_text(LOOP)
    stats, trace = Stats(), Trace()
    (out,) = run(module, "main", np.int32(1), engine=engine, observer=Observers([stats, trace]))
    assert int(out) == 126  # x = 1: acc -> 2 acc + 1 five times is 63; the callee doubles it
    assert sum(stats.count.values()) == LOOP_OPS
    assert stats.count == {"arith.constant": 3, "arith.addi": 11, "scf.for": 1, "func.call": 1}
    assert expected_ops(_main(module), module) == (LOOP_OPS, True)
    names = [e["name"] for e in trace.events]
    assert names[:3] == ["arith.constant"] * 3
    assert names[3:13] == ["arith.addi"] * 10 and names[13] == "scf.for"
    # the callee's op ends before the call does
    assert names[14:] == ["arith.addi", "func.call"]
    assert stats.moved == {k: 0 for k in stats.count} and stats.peak == 0  # no tiles


def test_engines_report_the_same_sequence():
    seqs = []
    for engine in ("compiled", "xdsl"):
        trace = Trace()
        run(parse_module_text(LOOP), "main", np.int32(3), engine=engine, observer=trace)
        seqs.append([e["name"] for e in trace.events])
    assert seqs[0] == seqs[1]


def test_unobserved_runs_report_nothing():
    trace = Trace()
    module = parse_module_text(LOOP)
    run(module, "main", np.int32(1), observer=trace)
    run(module, "main", np.int32(1))  # the plain plan: no observer, nothing recorded
    assert len(trace.events) == LOOP_OPS


def test_trace_is_chrome_json():
    trace = Trace()
    run(parse_module_text(LOOP, "loop.mlir"), "main", np.int32(1), observer=trace)
    out = io.StringIO()
    trace.write(out, {"symbol": "main"})
    doc = json.loads(out.getvalue())
    events = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    assert len(events) == LOOP_OPS
    for e in events:
        assert set(e) >= {"name", "ph", "ts", "dur", "pid", "tid"}
        assert e["dur"] >= 0 and e["ts"] >= 0
    ends = [round(e["ts"] + e["dur"], 3) for e in events]  # in the order the ops completed
    assert ends == sorted(ends)
    loop = next(e for e in events if e["name"] == "scf.for")  # the loop's span holds its body
    body = events[3:13]
    assert all(loop["ts"] <= e["ts"] and e["ts"] + e["dur"] <= loop["ts"] + loop["dur"] for e in body)
    assert events[0]["args"]["loc"] == "loop.mlir:3:3"
    assert doc["metadata"] == {"symbol": "main"}


def test_trace_limit_says_what_it_dropped():
    trace = Trace(limit=4)
    run(parse_module_text(LOOP), "main", np.int32(1), observer=trace)
    doc = trace.document()
    assert len([e for e in doc["traceEvents"] if e["ph"] == "X"]) == 4
    assert doc["metadata"]["dropped_events"] == LOOP_OPS - 4


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_line_and_its_end():
    stream = _Terminal()
    p = Progress(total=5, exact=True, stream=stream, after=0.0, every=0.02)
    p.start()
    for _ in range(3):
        p.op(None, 0, 0)  # type: ignore[arg-type]
    time.sleep(0.2)
    p.finish()
    text = stream.getvalue()
    assert "pto-run: 3/5 ops, " in text and " s" in text
    assert text.startswith("\r\x1b[K") and text.endswith("\r\x1b[K")  # rewritten, then cleared


def test_progress_is_silent_for_short_runs():
    stream = _Terminal()
    p = Progress(total=5, exact=False, stream=stream, after=5.0)
    p.start()
    p.op(None, 0, 0)  # type: ignore[arg-type]
    p.finish()
    assert stream.getvalue() == ""
    assert p.line().startswith("pto-run: 1/~5 ops")


@pytest.mark.parametrize(
    "flags, terminal, progress",
    [([], True, True), (["--quiet"], True, False), (["--no-progress"], True, False), ([], False, False)],
)
def test_progress_only_on_a_terminal_unless_silenced(flags, terminal, progress, monkeypatch):
    monkeypatch.setattr("sys.stderr", _Terminal() if terminal else io.StringIO())
    seen = []
    real = pto_run._observers

    def spy(args, module, callee):
        got = real(args, module, callee)
        seen.extend(type(o).__name__ for o in got)
        return got

    monkeypatch.setattr(pto_run, "_observers", spy)
    no_args = LOOP.replace("@main(%x: i32) -> i32 {", "@main() -> i32 {\n  %x = arith.constant 1 : i32")
    monkeypatch.setattr("sys.stdin", io.StringIO(no_args))
    assert pto_run.main(["-", *flags]) == 0
    assert ("Progress" in seen) == progress


def test_stats_and_trace_after_a_fault(tmp_path, capsys):
    program = (
        "func.func @main() -> i32 {\n  %a = arith.constant 1 : i32\n  %b = arith.constant 0 : i32\n"
        "  %r = arith.remsi %a, %b : i32\n  func.return %r : i32\n}\n"
    )
    path = tmp_path / "p.mlir"
    path.write_text(program)
    trace = tmp_path / "t.json"
    assert pto_run.main([str(path), "--stats", "--trace", str(trace)]) == 1
    err = capsys.readouterr().err
    assert "pto-run: @main: 2 ops in" in err and "division by zero" in err
    names = [e["name"] for e in json.loads(trace.read_text())["traceEvents"] if e["ph"] == "X"]
    assert names == ["arith.constant", "arith.constant"]  # what ran before the faulting op


def test_block_key():
    module = parse_module_text(
        "func.func @f(%t: tensor<1x32xf32>) -> !pto.tile<1x32xf32, pe=1000> {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %0 = pto.tload %t[%c0, %c0] : tensor<1x32xf32> -> !pto.tile<1x32xf32, pe=1000>\n"
        "  func.return %0 : !pto.tile<1x32xf32, pe=1000>\n}\n"
    )
    load = next(o for o in module.walk() if o.name == "pto.tload")
    assert op_key(load) == "pto.tload"
    assert bytes_moved(load) == 128  # 1 x 32 f32
