"""Fast loading (issue 26): the disk cache of verified modules, verification done once, and
the decoding memo of blocks.

The cache must be invisible except for speed: a hit gives the bytes a fresh parse gives, a
changed text, a new package stamp, a corrupt entry or a disabled cache all fall back to
parsing, and only verified programs are stored.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.printer import Printer

from interpreter import run
from interpreter.ssa import module_cache, runner
from interpreter.ssa.runner import RunError, build_context, load_module, load_program
from interpreter.tools import pto_run
from passes.pto_lower import PTOLowerPass
from pto_dialect import block_ops, isa
from pto_dialect.block_ops import BlockOp
from pto_dialect.upstream.source_diagnostics import op_location

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "Inputs"))
from gen_inputs import values  # noqa: E402


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The module cache on, in a temporary folder."""
    monkeypatch.setenv(module_cache.ENV_DIR, str(tmp_path / "cache"))
    monkeypatch.setenv(module_cache.ENV_SWITCH, "1")
    return module_cache.cache_dir()


def _entries(root: Path) -> list[Path]:
    return sorted(root.glob("*/*.pickle"))


@pytest.fixture(scope="module")
def lowered():
    """floormod_f32 lowered to blocks, as text, with arguments."""
    ctx = build_context()
    module = load_module(ROOT / "examples" / "floormod_f32.mlir", ctx)
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    rng = np.random.default_rng(3)
    args = [values(t, rng, True) for t in fn.function_type.inputs.data]
    PTOLowerPass().apply(ctx, module)
    buf = io.StringIO()
    Printer(stream=buf).print_op(module)
    return buf.getvalue() + "\n", fn.sym_name.data, args


def _no_parse(monkeypatch):
    def refuse(*_a, **_k):
        raise AssertionError("parsed although the module was cached")

    monkeypatch.setattr(runner, "parse_module_text", refuse)


def test_miss_then_hit_gives_identical_bits(cache, lowered, monkeypatch, tmp_path):
    text, sym, args = lowered
    assert "pto.block" in text
    path = tmp_path / "prog.mlir"
    path.write_text(text)
    monkeypatch.setenv("PTO_MODULE_CACHE", "0")
    (cold,) = run(path, sym, *args)  # no cache: the reference
    monkeypatch.setenv("PTO_MODULE_CACHE", "1")
    (miss,) = run(path, sym, *args)
    assert len(_entries(cache)) == 1
    _no_parse(monkeypatch)
    (hit,) = run(path, sym, *args)
    assert hit.dtype == cold.dtype and hit.tobytes() == miss.tobytes() == cold.tobytes()
    # the hit's ops keep their source positions (messages, traces)
    module = load_program(text, str(path))
    blocks = [op for op in module.walk() if isinstance(op, BlockOp)]
    assert blocks and op_location(blocks[0]).startswith(f"{path}:")


def test_other_text_or_name_misses(cache, lowered):
    text, _, _ = lowered
    load_program(text, "a.mlir")
    assert module_cache.load(text, "a.mlir") is not None
    assert module_cache.load(text + "\n// changed\n", "a.mlir") is None
    assert module_cache.load(text, "b.mlir") is None  # positions name the file


def test_new_stamp_invalidates_and_prunes(cache, lowered, monkeypatch):
    text, _, _ = lowered
    load_program(text, "p.mlir")
    (old,) = _entries(cache)
    monkeypatch.setattr(module_cache, "stamp", lambda refresh=False: "another-version")
    assert module_cache.load(text, "p.mlir") is None
    load_program(text, "p.mlir")
    (new,) = _entries(cache)
    assert new.parent.name == "another-version" and not old.exists()


def test_stamp_follows_package_version(monkeypatch):
    before = module_cache.stamp(refresh=True)
    monkeypatch.setattr(module_cache, "_package_version", lambda: "999.0")
    try:
        assert module_cache.stamp(refresh=True) != before
    finally:
        monkeypatch.undo()
        module_cache.stamp(refresh=True)


def test_corrupt_entry_is_a_miss_and_removed(cache, lowered, monkeypatch):
    text, sym, args = lowered
    (expected,) = run(text, sym, *args)
    (entry,) = _entries(cache)
    entry.write_bytes(b"not a pickle")
    (got,) = run(text, sym, *args)
    assert got.tobytes() == expected.tobytes()
    (entry,) = _entries(cache)  # parsed again and stored again
    _no_parse(monkeypatch)
    assert module_cache.load(text, "<string>") is not None


def test_disabled_cache_stores_nothing(cache, lowered, monkeypatch):
    text, sym, args = lowered
    monkeypatch.setenv(module_cache.ENV_SWITCH, "off")
    run(text, sym, *args)
    assert _entries(cache) == []


def test_errors_are_not_cached(cache):
    bad = "func.func @f(%a: i32) -> i32 {\n  func.return %b : i32\n}\n"
    for _ in range(2):
        with pytest.raises(RunError, match="undefined value %b"):
            run(bad, "f", np.int32(1))
    assert _entries(cache) == []


def test_pto_run_verifies_once(cache, lowered, monkeypatch, tmp_path):
    text, sym, args = lowered
    path = tmp_path / "prog.mlir"
    path.write_text(text)
    inputs = tmp_path / "in.npz"
    np.savez(inputs, **{f"arg{i}": a for i, a in enumerate(args)})
    calls = []
    real = runner.load_module
    monkeypatch.setattr(runner, "load_module", lambda m, *a: calls.append(1) or real(m, *a))
    argv = [str(path), "--symbol", sym, "--inputs", str(inputs), "--output",
            str(tmp_path / "out.npz")]  # fmt: skip
    with redirect_stdout(io.StringIO()):
        assert pto_run.main(argv) == 0  # a miss: parsed and verified once
        assert len(calls) == 1
        _no_parse(monkeypatch)
        assert pto_run.main(argv) == 0  # a hit: neither parsed nor verified
    assert len(calls) == 1
    (expected,) = run(path, sym, *args)
    with np.load(tmp_path / "out.npz") as d:
        assert d["result0"].tobytes() == expected.view(d["result0"].dtype).tobytes()


def test_blocks_are_decoded_once(lowered, monkeypatch):
    text, sym, args = lowered
    calls = []
    real = isa.check_block
    monkeypatch.setattr(isa, "check_block", lambda *a, **k: calls.append(1) or real(*a, **k))
    module = load_program(text)
    n_blocks = sum(isinstance(op, BlockOp) for op in module.walk())
    run(module, sym, *args, engine="compiled")
    assert 0 < len(calls) <= n_blocks


def test_decoding_memo_follows_changes(lowered):
    """A block rewritten after it was decoded is decoded again (a pass may change it)."""
    text, _, _ = lowered
    module = load_module(text)
    block = next(op for op in module.walk() if isinstance(op, BlockOp) and op.linked)
    s = block.summary()
    assert block.summary() is s and block_ops.check_linked(block, s) is block_ops.check_linked(block, s)
    cmds = block.commands()
    for op in list(block.body.block.ops):
        op.detach()
        op.erase()
    for c in cmds:
        block.body.block.add_op(block_ops.BlockCommandOp.from_command(c))
    again = block.summary()
    assert again is not s and again == s
