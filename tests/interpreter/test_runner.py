"""interpreter.run and the pto-run CLI: argument checks, bit patterns, errors, faults."""

from __future__ import annotations

import io

import ml_dtypes
import numpy as np
import pytest
from xdsl.interpreter import InterpreterFunctions, impl, register_impls

import interpreter.ssa.runner as runner
from interpreter import RunError, run
from interpreter.tools import pto_run
from pto_dialect.faults import PTOFault
from pto_dialect.upstream import RemFOp

PROGRAM = """
func.func @main(%a: tensor<2x3xbf16>, %s: f32) -> (tensor<2x3xf32>, f32) {
  %x = arith.extf %a : tensor<2x3xbf16> to tensor<2x3xf32>
  %c = arith.constant 0.5 : f32
  %y = arith.remf %s, %c : f32
  func.return %x, %y : tensor<2x3xf32>, f32
}
func.func @nothing() -> tensor<2xi32> {
  %c = arith.constant dense<[7, -1]> : tensor<2xi32>
  func.return %c : tensor<2xi32>
}
func.func @narrow(%a: tensor<2xf4E2M1FN>) -> tensor<2xf32> {
  %x = arith.extf %a : tensor<2xf4E2M1FN> to tensor<2xf32>
  func.return %x : tensor<2xf32>
}
"""


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    p = tmp_path_factory.mktemp("prog") / "prog.mlir"
    p.write_text(PROGRAM)
    return p


def test_run_from_path_text_and_module(path):
    a = np.array([[1, 2, 3], [4, 5, 6]], np.float32).astype(ml_dtypes.bfloat16)
    for source in (path, str(path), PROGRAM, runner.load_module(PROGRAM)):
        x, y = run(source, "main", a, 1.75)
        assert x.dtype == np.float32 and x.tolist() == [[1, 2, 3], [4, 5, 6]]
        assert y.dtype == np.float32 and y.ndim == 0 and float(y) == 0.25


def test_bit_patterns_are_viewed_not_cast(path):
    a = np.array([[1, 2, 3], [4, 5, 6]], np.float32).astype(ml_dtypes.bfloat16)
    x, _ = run(path, "main", a.view(np.uint16), np.float32(0))
    assert x.tolist() == [[1, 2, 3], [4, 5, 6]]
    (n,) = run(path, "narrow", np.array([0x7, 0xF], np.uint8))  # E2M1: 6.0, -6.0
    assert n.tolist() == [6.0, -6.0]
    with pytest.raises(RunError, match="4 bits"):
        run(path, "narrow", np.array([0x17, 0], np.uint8))


@pytest.mark.parametrize(
    "args, message",
    [
        ((), "takes 2 argument"),
        ((np.zeros((3, 2), ml_dtypes.bfloat16), 1.0), "expected shape 2x3"),
        ((np.zeros((2, 3), np.float32), 1.0), "expected dtype bfloat16"),
        ((np.zeros((2, 3), np.int16), 1.0), "expected dtype bfloat16"),
        (([[0.0] * 3] * 2, 1.0), "expected a numpy array"),
        ((np.zeros((2, 3), ml_dtypes.bfloat16), np.float64(1)), "argument 1"),
    ],
)
def test_argument_errors(path, args, message):
    with pytest.raises(RunError, match=message):
        run(path, "main", *args)


def test_module_errors(path, tmp_path):
    with pytest.raises(RunError, match="no function named @missing"):
        run(path, "missing")
    with pytest.raises(RunError, match="cannot read"):
        run(tmp_path / "absent.mlir", "main")
    with pytest.raises(RunError, match=r"^parse error: <string>:2:15: use of undefined value %x$"):
        run("func.func @f() {\n  func.return %x : i32\n}", "f")
    with pytest.raises(RunError, match="^verification failed"):
        run("func.func @f() -> i32 {\n  func.return\n}", "f")


def test_undefined_behaviour_names_the_op():
    program = """
func.func @f(%a: i32, %b: i32) -> i32 {
  %r = arith.remsi %a, %b : i32
  func.return %r : i32
}"""
    with pytest.raises(RunError, match=r"^'arith.remsi': .*division by zero"):
        run(program, "f", 1, 0)


@register_impls
class _FaultingRemF(InterpreterFunctions):
    """Stands in for PTOFunctions: any remf raises a PTO fault."""

    @impl(RemFOp)
    def run_remf(self, interpreter, op, args):
        raise PTOFault("TileLegality", "integer zero divisor", op="pto.trem")


def test_pto_faults_propagate_unchanged(path, monkeypatch):
    monkeypatch.setattr(runner, "extra_functions", lambda profile: [_FaultingRemF()])
    a = np.zeros((2, 3), ml_dtypes.bfloat16)
    with pytest.raises(PTOFault) as info:
        run(path, "main", a, 1.0)
    assert info.value.kind == "TileLegality"
    assert not getattr(info.value, "__notes__", None)


def test_profile_reaches_pto_functions(path, monkeypatch):
    seen = []
    monkeypatch.setattr(runner, "extra_functions", lambda profile: seen.append(profile) or [])
    run(path, "nothing", profile="fp32-sequential")
    assert seen and set(seen) == {"fp32-sequential"}  # once per engine run


# -- pto-run -------------------------------------------------------------------------


def test_cli_prints_results(path, capsys):
    assert pto_run.main([str(path), "--symbol", "nothing"]) == 0
    assert capsys.readouterr().out == "result0: tensor<2xi32> = [ 7, -1]\n"


def test_cli_npz_round_trip(path, tmp_path, capsys):
    inp, out = tmp_path / "in.npz", tmp_path / "out.npz"
    a = np.array([[1.5, 2, 3], [4, 5, -0.1]], np.float32).astype(ml_dtypes.bfloat16)
    np.savez(inp, arg0=a.view(np.uint16), arg1=np.float32(3.25))
    assert pto_run.main([str(path), "--inputs", str(inp), "--output", str(out)]) == 0
    with np.load(out) as data:
        assert sorted(data.files) == ["result0", "result1"]
        assert data["result0"].tolist() == a.astype(np.float32).tolist()
        assert float(data["result1"]) == 0.25
    assert pto_run.main([str(path), "--inputs", str(inp)]) == 0
    printed = capsys.readouterr().out
    assert "result0: tensor<2x3xf32> = [[1.5, 2.0, 3.0],\n [4.0, 5.0, -0.100097656]]" in printed
    assert "result1: f32 = 0.25" in printed


def test_cli_stdin_and_bf16_results_as_bits(tmp_path, monkeypatch):
    program = """
func.func @main() -> tensor<2xbf16> {
  %c = arith.constant dense<[1.0, -2.0]> : tensor<2xbf16>
  func.return %c : tensor<2xbf16>
}"""
    monkeypatch.setattr("sys.stdin", io.StringIO(program))
    out = tmp_path / "o.npz"
    assert pto_run.main(["-", "--output", str(out)]) == 0
    with np.load(out) as data:
        assert data["result0"].dtype == np.uint16
        assert data["result0"].tolist() == [0x3F80, 0xC000]


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["{path}", "--symbol", "nope"], "pto-run: error: no function named @nope in the module"),
        (["{path}"], "pto-run: error: the function takes 2 argument(s): pass --inputs in.npz"),
        (["{tmp}/absent.mlir"], "pto-run: error: cannot read"),
        (["{path}", "--inputs", "{tmp}/bad.npz"], "pto-run: error: inputs '"),
        (["{path}", "--inputs", "{tmp}/few.npz"], "pto-run: error: inputs '"),
        (["{tmp}/broken.mlir"], "pto-run: error: parse error:"),
    ],
)
def test_cli_errors_are_one_line(path, tmp_path, capsys, argv, expected):
    (tmp_path / "bad.npz").write_text("not a zip")
    np.savez(tmp_path / "few.npz", arg0=np.zeros((2, 3), np.uint16))
    (tmp_path / "broken.mlir").write_text("func.func @f( {")
    argv = [a.format(path=path, tmp=tmp_path) for a in argv]
    assert pto_run.main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(expected) and err.count("\n") == 1, err


def test_cli_fault_line(path, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(runner, "extra_functions", lambda profile: [_FaultingRemF()])
    np.savez(tmp_path / "in.npz", arg0=np.zeros((2, 3), np.uint16), arg1=np.float32(1))
    assert pto_run.main([str(path), "--inputs", str(tmp_path / "in.npz")]) == 1
    assert capsys.readouterr().err == (
        "pto-run: fault [TileLegality] 'pto.trem': integer zero divisor\n"
    )


def test_cli_version(capsys):
    with pytest.raises(SystemExit) as info:
        pto_run.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("pto-run ")
