"""Diagnostics at the source and pass instrumentation (issue 27): pto_dialect.upstream.
source_diagnostics and pto-opt's --time-passes / --print-ir-after-all. The command-line forms
are in tests/filecheck/tools/diagnostics_at_source.test."""

from __future__ import annotations

import os

import pytest
from xdsl.dialects import test as test_dialect
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import ParseError, VerifyException

from interpreter.ssa.runner import build_context
from pto_dialect.attributes import TileType
from pto_dialect.datatypes import TileDataType
from pto_dialect.ops import TRemOp
from pto_dialect.tools import pto_opt
from pto_dialect.upstream.source_diagnostics import (
    SourceParser,
    did_you_mean,
    failing_op,
    located_message,
    no_function_message,
    op_location,
)

HERE = os.path.dirname(os.path.abspath(__file__))
ABS = os.path.join(HERE, "corpus", "programs", "abs_f32.mlir")


def _parse(text: str, name: str = "x.mlir") -> ModuleOp:
    return SourceParser(build_context(), text, name).parse_module()


def test_undefined_value_at_first_use():
    text = (
        "func.func @f(%a: i32) -> i32 {\n"
        "  %0 = arith.addi %a, %a : i32\n"
        "  %1 = arith.addi %0, %zz : i32\n"
        "  %2 = arith.addi %yy, %zz : i32\n"
        "  func.return %1 : i32\n"
        "}\n"
    )
    with pytest.raises(ParseError) as info:
        _parse(text)
    e = info.value
    assert e.msg == "use of undefined value %zz (also undefined: %yy)"
    loc = e.span.get_location()
    assert (loc.line, loc.col) == (3, 23)
    assert str(e).splitlines()[1] == "  %1 = arith.addi %0, %zz : i32"


def test_forward_reference_defined_later_is_no_error():
    """A graph region (the module body) may use a value before its definition."""
    text = '%1 = "test.op"(%0) : (i32) -> i32\n%0 = "test.op"() : () -> i32\n'
    module = _parse(text)
    ops = list(module.ops)
    assert op_location(ops[0]) == "x.mlir:1:1" and op_location(ops[1]) == "x.mlir:2:1"


def test_verifier_error_at_the_ops_line():
    text = (
        "func.func @f(%a: !pto.tile<8x16xsi32>, %b: !pto.tile<8x16xf32>) -> !pto.tile<8x16xsi32> {\n"
        "  %0 = pto.trem %a, %b : (!pto.tile<8x16xsi32>, !pto.tile<8x16xf32>) -> !pto.tile<8x16xsi32>\n"
        "  func.return %0 : !pto.tile<8x16xsi32>\n"
        "}\n"
    )
    module = _parse(text)
    with pytest.raises(VerifyException) as info:
        module.verify()
    assert failing_op(info.value).name == "pto.trem"
    lines = located_message(info.value, "pto-opt").splitlines()
    assert lines[0] == "x.mlir:2:3"
    assert lines[1].startswith("  %0 = pto.trem %a, %b")
    assert lines[2] == "  " + "^" * len("%0 = pto.trem")
    assert lines[3].startswith("  'pto.trem' op [TileLegality] divisor: element type f32 differs")
    assert len(lines) == 4  # no module dump


def test_verifier_error_of_a_built_op_shows_the_op_alone():
    """An op no parser read (built by a pass) has no source line: it is printed by itself."""
    a = test_dialect.TestOp(result_types=[TileType((8, 16), TileDataType.S32)])
    b = test_dialect.TestOp(result_types=[TileType((8, 16), TileDataType.FP32)])
    rem = TRemOp(a.results[0], b.results[0], TileType((8, 16), TileDataType.S32))
    module = ModuleOp([a, b, rem])
    with pytest.raises(VerifyException) as info:
        module.verify()
    lines = located_message(info.value, "pto-opt").splitlines()
    assert lines[0].startswith("pto-opt: error: 'pto.trem' op [TileLegality] divisor:")
    assert lines[1].startswith("  in: %0 = pto.trem %1, %2 : (!pto.tile<8x16xsi32>, ")
    assert len(lines) == 2


def test_did_you_mean_and_missing_function():
    assert did_you_mean("pto-lowr", ["pto-lower", "dce"]) == " (did you mean 'pto-lower'?)"
    assert did_you_mean("zzz", ["pto-lower", "dce"]) == ""
    module = _parse("func.func @main() {\n  func.return\n}\nfunc.func @other() {\n  func.return\n}\n")
    assert no_function_message(module, "mian") == (
        "no function named @mian in the module (did you mean '@main'?); its functions: @main, @other"
    )
    assert no_function_message(ModuleOp([]), "main") == (
        "no function named @main in the module; it has no function"
    )


def test_time_passes_sees_the_sub_passes_of_pto_lower(capsys):
    assert pto_opt.main([ABS, "-p", "pto-lower", "--time-passes"]) == 0
    out = capsys.readouterr().out
    timed = [ln.split()[1] for ln in out.splitlines() if ln.startswith("Pass ")]
    assert timed == [
        "pto-lower/convert-linalg-to-pto",
        "pto-lower/pto-tile-to-capacity",
        "pto-lower/dce",
        "pto-lower/pto-form-blocks",
        "pto-lower/pto-assign-registers",
        "pto-lower",
    ]


def test_print_ir_after_all_dumps_each_sub_pass(capsys):
    assert pto_opt.main([ABS, "-p", "pto-lower{level=tile}", "--print-ir-after-all"]) == 0
    captured = capsys.readouterr()
    heads = [ln for ln in captured.err.splitlines() if ln.startswith("// -----// IR Dump After")]
    assert heads == [
        f"// -----// IR Dump After {n} //----- //"
        for n in (
            "pto-lower/convert-linalg-to-pto",
            "pto-lower/pto-tile-to-capacity",
            "pto-lower/dce",
            "pto-lower/pto-form-blocks",
            "pto-lower/pto-assign-registers",
            "pto-lower",
        )
    ]
    # The dump after recognition holds tensor-level pto ops; the one after bundling, blocks.
    parts = captured.err.split("// -----// IR Dump After ")
    assert "linalg.generic" not in parts[1] and "pto." in parts[1]
    assert "pto.block" in parts[4]
    assert "pto.block" not in captured.out  # level=tile: the output stops at tiles
    assert pto_opt.main([ABS, "-p", "pto-lower"]) == 0
    assert "IR Dump" not in capsys.readouterr().err  # only with the flag
