"""Regression tests of issue 13: each crash, hang and leak class found by fuzzing and by hand
is one readable diagnostic with exit status 1 -- never a traceback, a hang or an internal
error -- and the fuzzer itself runs a small seeded budget clean."""

from __future__ import annotations

import time

import numpy as np
import pytest

from interpreter.tools import pto_run
from pto_dialect.tools import pto_opt
from pto_dialect.tools.boundary import user_text
from tests.fuzz import fuzz


def opt(tmp_path, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    return fuzz._run_tool(pto_opt.main, [str(path), *args])


def run(tmp_path, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    return fuzz._run_tool(pto_run.main, [str(path), *args])


def assert_clean(status: int, err: str, *needles: str) -> None:
    assert status == 1, err
    assert "Traceback (most" not in err and "internal error" not in err, err
    assert err.strip(), "an error needs a message"
    for n in needles:
        assert n in err, err


FUNC = "func.func @f(%a: tensor<8xf32>, %b: tensor<8x4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {{\n  {body}\n}}\n"


# -- parsers validate operand counts ----------------------------------------------------


@pytest.mark.parametrize(
    "op",
    [
        "%r = linalg.vecmat ins(%a : tensor<8xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>",
        "%r = linalg.matvec outs(%c : tensor<4xf32>) -> tensor<4xf32>",
        "%r = linalg.matmul outs(%c : tensor<4xf32>) -> tensor<4xf32>",
    ],
)
def test_malformed_contractions(tmp_path, op):
    text = FUNC.format(body=op + "\n  func.return %r : tensor<4xf32>")
    status, _, err = opt(tmp_path, text)
    assert_clean(status, err, "expects 2 inputs and 1 output")


# -- zero-sized work and lowering limits --------------------------------------------------

REMUI = """func.func @f(%a: tensor<{s}xi32>, %b: tensor<{s}xi32>) -> tensor<{s}xi32> {{
  %init = tensor.empty() : tensor<{s}xi32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%a, %b : tensor<{s}xi32>, tensor<{s}xi32>) outs(%init : tensor<{s}xi32>) {{
  ^bb0(%x: i32, %y: i32, %out: i32):
    %rem = arith.remui %x, %y : i32
    linalg.yield %rem : i32
  }} -> tensor<{s}xi32>
  return %r : tensor<{s}xi32>
}}
"""

GEMV = """func.func @g(%x: tensor<1x{k}xf16>, %w: tensor<{k}x{n}xf16>, %acc: tensor<1x{n}xf32>) -> tensor<1x{n}xf32> {{
  %mm = linalg.matmul ins(%x, %w : tensor<1x{k}xf16>, tensor<{k}x{n}xf16>) outs(%acc : tensor<1x{n}xf32>) -> tensor<1x{n}xf32>
  return %mm : tensor<1x{n}xf32>
}}
"""


def test_zero_sized_elementwise_lowers_to_nothing(tmp_path):
    status, out, err = opt(tmp_path, REMUI.format(s="0x8"), "-p", "pto-lower")
    assert status == 0, err
    assert "pto." not in out and "tensor.empty() : tensor<0x8xi32>" in out


def test_empty_contraction_is_refused(tmp_path):
    status, _, err = opt(tmp_path, GEMV.format(k=0, n=16), "-p", "pto-lower")
    assert_clean(status, err, "zero-sized dimension")


def test_huge_k_is_refused_quickly(tmp_path):
    start = time.monotonic()
    status, _, err = opt(tmp_path, GEMV.format(k=10**20, n=16), "-p", "pto-lower")
    assert_clean(status, err, "lowering limit of 65536")
    assert time.monotonic() - start < 10


# -- lexer hang ----------------------------------------------------------------------------


def test_unterminated_string_is_fast(tmp_path):
    text = '%0 = "test.op"() {a = "' + "a" * 60 + "} : () -> ()\n"
    start = time.monotonic()
    status, _, err = opt(tmp_path, text)
    assert time.monotonic() - start < 2
    assert_clean(status, err, "closing string literal")


# -- dominance -----------------------------------------------------------------------------


def test_use_before_definition(tmp_path):
    text = "func.func @f(%a: f32) -> f32 {\n  %0 = arith.addf %0, %a : f32\n  func.return %0 : f32\n}\n"
    assert_clean(*opt(tmp_path, text)[::2], "its own definition")
    assert_clean(*run(tmp_path, text, "--symbol", "f")[::2], "its own definition")


def test_store_above_load(tmp_path):
    text = """func.func @f(%a: tensor<16x64xf16>, %d: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %c0 = arith.constant 0 : index
  %r = pto.tstore %t, %d[%c0, %c0] : !pto.tile<1x64xf16, cube_m16, mat> -> tensor<16x64xf16>
  %t = pto.tload %a[%c0, %c0] : tensor<16x64xf16> -> !pto.tile<1x64xf16, cube_m16, mat>
  func.return %r : tensor<16x64xf16>
}
"""
    assert_clean(*opt(tmp_path, text)[::2], "before its definition")


def test_branch_dominance(tmp_path):
    text = """func.func @f(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addi %a, %a : i32
  cf.br ^bb2
^bb2:
  func.return %x : i32
}
"""
    assert_clean(*opt(tmp_path, text)[::2], "does not dominate")


def test_graph_region_allows_forward_use(tmp_path):
    text = '%1 = "test.op"(%0) : (i32) -> i32\n%0 = "test.op"() : () -> i32\n'
    status, _, err = opt(tmp_path, text)
    assert status == 0, err


# -- static bounds -------------------------------------------------------------------------


def test_constant_tload_out_of_bounds(tmp_path):
    text = """func.func @f(%a: tensor<16x64xf16>) -> !pto.tile<1x64xf16, cube_m16, mat> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %t = pto.tload %a[%c16, %c0] : tensor<16x64xf16> -> !pto.tile<1x64xf16, cube_m16, mat>
  func.return %t : !pto.tile<1x64xf16, cube_m16, mat>
}
"""
    assert_clean(*opt(tmp_path, text)[::2], "[TileLegality] offset 0 = 16")


# -- xDSL internals --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, needle",
    [
        ('"linalg.fill"() : () -> ()\n', "linalg.fill"),
        ("%0 = arith.constant 1.0 : f128\n", "f80 or f128"),
        ("%0 = arith.constant 1.0 : f80\n", "f80 or f128"),
        ("%0 = arith.constant dense<[1.0, 65537.0]> : tensor<2xf16>\n", "out of range"),
        ("linalg.fill\n", ""),
        ("%0 = \"test.op\"() : () -> tensor<9223372036854775808xf32>\n", ""),
    ],
)
def test_xdsl_internal_errors_are_diagnostics(tmp_path, text, needle):
    status, _, err = opt(tmp_path, text)
    if status == 0:
        return  # accepted as valid input (e.g. a test.op type); nothing leaked
    assert_clean(status, err, needle)


def test_directory_input(tmp_path):
    assert_clean(*fuzz._run_tool(pto_opt.main, [str(tmp_path)])[::2], "is a directory")
    assert_clean(*fuzz._run_tool(pto_run.main, [str(tmp_path)])[::2], "is a directory")


def test_not_utf8(tmp_path):
    path = tmp_path / "x.mlir"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert_clean(*fuzz._run_tool(pto_opt.main, [str(path)])[::2], "not UTF-8")
    assert_clean(*fuzz._run_tool(pto_run.main, [str(path)])[::2], "not UTF-8")


def test_broken_pipe_is_quiet(monkeypatch):
    """``pto-opt x | head -1``: the write into the closed pipe ends the tool silently."""
    from pto_dialect.tools import boundary

    quieted = []
    monkeypatch.setattr(boundary, "_quiet_stdout", lambda: quieted.append(True))

    def write_to_closed_pipe():
        raise BrokenPipeError(32, "Broken pipe")

    status, out, err = fuzz._run_tool(lambda argv: boundary.guarded("pto-opt", write_to_closed_pipe), [])
    assert (status, err, quieted) == (1, "", [True])


def test_internal_error_is_one_line_and_debug_shows_traceback(tmp_path, monkeypatch):
    from pto_dialect.tools import boundary

    def boom():
        raise IndexError("tuple index out of range")

    status, _, err = fuzz._run_tool(lambda argv: boundary.guarded("pto-opt", boom), [])
    assert status == 1 and err.count("\n") == 1
    assert "pto-opt: internal error: IndexError" in err and "--debug" in err
    with pytest.raises(IndexError):
        boundary.guarded("pto-opt", boom, debug=True)


def test_no_python_reprs():
    assert user_text("value <OpResult[i32] name_hint: x, index: 0> in <ModuleOp object at 0x7f>") == (
        "value an SSA value in the module"
    )


# -- pto-run arguments --------------------------------------------------------------------

PROGRAM = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  func.return %a : tensor<2xf32>\n}\n"


def test_run_profile_inputs_output_symbol(tmp_path):
    assert_clean(*run(tmp_path, PROGRAM, "--profile", "bogus")[::2], "unknown --profile 'bogus'")
    npy = tmp_path / "a.npy"
    np.save(npy, np.ones(2, np.float32))
    assert_clean(*run(tmp_path, PROGRAM, "--inputs", str(npy))[::2], ".npy file")
    txt = tmp_path / "a.txt"
    txt.write_text("1 2\n")
    assert_clean(*run(tmp_path, PROGRAM, "--inputs", str(txt))[::2], "text file")
    pkl = tmp_path / "a.pkl"
    pkl.write_bytes(b"\x80\x04K\x01.")
    assert_clean(*run(tmp_path, PROGRAM, "--inputs", str(pkl))[::2], "pickle")
    npz = tmp_path / "in.npz"
    np.savez(npz, arg0=np.ones(2, np.float32))
    assert_clean(*run(tmp_path, PROGRAM, "--inputs", str(npz), "--output", str(tmp_path))[::2], "is a directory")
    out = tmp_path / "result.bin"
    status, _, err = run(tmp_path, PROGRAM, "--symbol", "@main", "--inputs", str(npz), "--output", str(out))
    assert status == 0, err
    assert out.exists() and not (tmp_path / "result.bin.npz").exists()
    assert_clean(*run(tmp_path, PROGRAM, "--symbol", "@nope")[::2], "no function named @nope")


def test_run_recursion_and_memory(tmp_path):
    rec = "func.func @main() -> i32 {\n  %0 = func.call @main() : () -> i32\n  func.return %0 : i32\n}\n"
    assert_clean(*run(tmp_path, rec)[::2], "recursion too deep")
    big = "func.func @main() -> tensor<100000x100000xf32> {\n  %0 = tensor.empty() : tensor<100000x100000xf32>\n  func.return %0 : tensor<100000x100000xf32>\n}\n"
    assert_clean(*run(tmp_path, big)[::2], "memory limit")


# -- the fuzzer, small budget ---------------------------------------------------------------


def test_fuzz_small_budget():
    report = fuzz.fuzz(60, seed=13, time_bound=30.0)
    assert sum(report.counts.values()) == 60
    assert not report.failures, report.failures[:3]


def test_parse_error_messages_are_formatted(tmp_path):
    status, _, err = opt(tmp_path, '%0 = "test.op"() : () -> !\n')
    assert_clean(status, err, "Expected suffix identifier after '!'")
    assert "{first_char}" not in err


def test_second_bstart_in_a_block_names_the_rule():
    from pto_dialect import isa
    from pto_dialect.faults import PTOFault

    cmds = isa.parse_program("BSTART.SFU TREM, S32\nBSTART.SFU TREM, S32\nBSTOP\n")
    with pytest.raises(PTOFault) as info:
        isa.check_block(cmds)
    assert "second BSTART" in str(info.value) and "check_program" not in str(info.value)


def test_loop_bounds_beyond_16_bits_are_refused():
    from xdsl.utils.exceptions import PassFailedException

    from passes.pto_form_blocks import LB_MAX, _lb

    assert _lb(0, 255).mnemonic == "C.B.DIMI" and _lb(1, LB_MAX).mnemonic == "B.DIM"
    with pytest.raises(PassFailedException, match="16-bit loop bound"):
        _lb(0, LB_MAX + 1)


def test_encode_error_shows_assembly_not_repr(tmp_path):
    status, _, err = opt(tmp_path, "pto.b.dim <lb = 0, reg = 0, imm = 300000>\n")
    assert_clean(status, err, "does not fit in 17 bits")
    assert "BDim(" not in err


def test_wide_byte_tiles_stay_encodable(tmp_path):
    """A 1x65536 ui8 elementwise op once tiled into 65536-column tiles, whose LB0 wrapped
    to 0; columns are now capped at 2^15 and the lowered program computes the same."""
    from interpreter.ssa.runner import run as run_module

    text = """func.func @f(%a: tensor<1x65536xui8>, %b: tensor<1x65536xui8>) -> tensor<1x65536xui8> {
  %r = pto.elementwise add %a, %b : tensor<1x65536xui8>
  func.return %r : tensor<1x65536xui8>
}
"""
    status, lowered, err = opt(tmp_path, text, "-p", "pto-lower")
    assert status == 0, err
    a = (np.arange(65536) % 251).astype(np.uint8).reshape(1, 65536)
    b = np.full((1, 65536), 7, np.uint8)
    (got,) = run_module(lowered, "f", a, b)
    assert got.view(np.uint8).tolist() == ((a.astype(np.int64) + 7) % 256).tolist()


def test_empty_input_to_pto_run(tmp_path):
    assert_clean(*run(tmp_path, "  \n")[::2], "is empty")


def test_corrupt_npz_is_an_input_error(tmp_path):
    npz = tmp_path / "in.npz"
    np.savez(npz, arg0=np.ones(2, np.float32))
    data = bytearray(npz.read_bytes())
    central = bytes(data).index(b"PK\x01\x02")
    # "version needed to extract" 20.2 in the central directory: NotImplementedError in zipfile
    data[central + 6 : central + 8] = b"\xca\x00"
    npz.write_bytes(bytes(data))
    assert_clean(*run(tmp_path, PROGRAM, "--inputs", str(npz))[::2], "cannot read inputs")


def test_help_lists_every_pto_pass_first():
    from passes import get_all_passes

    status, out, _ = fuzz._run_tool(pto_opt.main, ["--help"])
    assert status == 0
    assert out.index("pto-opt: the optimizer driver of pto-xdsl") < out.index("options:")
    for name in get_all_passes():
        assert f"  {name}  " in out, name
    assert "riscv" not in out and "--help-upstream" in out


@pytest.mark.parametrize(
    "pipeline, needle",
    [
        ("pto-lower{level=", "Error parsing pass pipeline specification"),  # a BaseException
        (",,", "Expected pass name here"),
        ("pto-tile-to-capacity{pes=abc}", "expected int"),
        ("no-such-pass", "unknown pass 'no-such-pass'"),
    ],
)
def test_malformed_pipelines(tmp_path, pipeline, needle):
    status, _, err = opt(tmp_path, "", "-p", pipeline)
    assert_clean(status, err, needle)
    assert "<class" not in err


def test_huge_dense_splat_is_refused_quickly(tmp_path):
    """Fuzz find (seed 1001, mutant 9882): a 64x65535 f8 splat took 22 s inside xDSL."""
    text = "%b = arith.constant dense<0.5> : tensor<64x65535xf8E4M3FN>\n"
    start = time.monotonic()
    assert_clean(*opt(tmp_path, text)[::2], "over the input limit of 1048576")
    assert_clean(*run(tmp_path, text)[::2], "over the input limit of 1048576")
    assert time.monotonic() - start < 10


def test_unknown_extension_is_a_user_error(tmp_path):
    path = tmp_path / "kernel.bin"
    path.write_text("func.func @f() {\n  func.return\n}\n")
    assert_clean(*fuzz._run_tool(pto_opt.main, [str(path)])[::2], "unknown file extension")
