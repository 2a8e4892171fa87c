"""Fast loading (issue 26): compiled plans kept beside the cached module.

A program run before brings the recipes of its compiled plans
(:class:`interpreter.ssa.compiled.plan.PlanRecipe`, plain data in the entry's plans file) and
their compiled code, so it runs without planning again -- and without loading its module
while every step it takes runs from plain data (a batched loop). The cache must stay
invisible except for speed: every outcome -- result bits, numeric status flags, PTO faults
(kind, op, message), run and argument errors -- of a run from a kept plan equals that of a
fresh run, at tile level and for blocks, with several functions and calls between them, from
``interpreter.run`` and from ``pto-run`` (whose ``.npz`` reader and ``.npy`` folders are
tested here too). The batched loop's vectorised slice finding is checked against an
element-by-element reference (hypothesis).
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import UnitAttr
from xdsl.passes import PassPipeline
from xdsl.printer import Printer

from interpreter import run
from interpreter.ssa import compiled, module_cache, runner
from interpreter.ssa.compiled import plan as plan_module
from interpreter.ssa.runner import RunError, build_context, load_module, load_program
from passes import get_all_passes
from pto_dialect.block_ops import BlockOp
from pto_dialect.faults import PTOFault

bundle_decoded = "_pto_decoded"  # pto_dialect.block_ops's decoding memo: [key, summary, linked op]

TY = "tensor<64x16xi32>"
TILE = "!pto.tile<8x16xsi32>"

SEVERAL = f"""
func.func @rem(%a: {TY}, %b: {TY}, %init: {TY}) -> {TY} {{
  %c0 = arith.constant 0 : index
  %step = arith.constant 32 : index
  %ub = arith.constant 64 : index
  %r = scf.for %i = %c0 to %ub step %step iter_args(%acc = %init) -> ({TY}) {{
    %x = pto.tload %a[%i, %c0] {{pe_stride = [8, 0]}} : {TY} -> {TILE}
    %y = pto.tload %b[%i, %c0] {{pe_stride = [8, 0]}} : {TY} -> {TILE}
    %z = pto.trem %x, %y : {TILE}
    %s = pto.tstore %z, %acc[%i, %c0] {{pe_stride = [8, 0]}} : {TILE} -> {TY}
    scf.yield %s : {TY}
  }}
  func.return %r : {TY}
}}
func.func @twice(%a: {TY}) -> {TY} {{
  %c0 = arith.constant 0 : index
  %x = pto.tload %a[%c0, %c0] : {TY} -> {TILE}
  %y = pto.tadd %x, %x : {TILE}
  %s = pto.tstore %y, %a[%c0, %c0] : {TILE} -> {TY}
  func.return %s : {TY}
}}
func.func @main(%a: {TY}, %b: {TY}, %init: {TY}) -> ({TY}, {TY}) {{
  %r = func.call @rem(%a, %b, %init) : ({TY}, {TY}, {TY}) -> {TY}
  %t = func.call @twice(%r) : ({TY}) -> {TY}
  func.return %t, %r : {TY}, {TY}
}}
"""


def _text(level: str) -> str:
    """SEVERAL at tile level, or lowered to blocks and printed."""
    if level == "tile":
        return SEVERAL
    ctx = build_context()
    module = load_module(SEVERAL, ctx)
    PassPipeline.parse_spec(get_all_passes(), "pto-lower").apply(ctx, module)
    buf = io.StringIO()
    Printer(stream=buf).print_op(module)
    text = buf.getvalue() + "\n"
    assert "pto.block" in text
    return text


def _inputs(zero_at: int | None = None):
    rng = np.random.default_rng(5)
    a = rng.integers(-1000, 1000, (64, 16), dtype=np.int32)
    b = rng.integers(1, 50, (64, 16), dtype=np.int32)
    if zero_at is not None:
        b[zero_at, 3] = 0
    return a, b, rng.integers(-5, 5, (64, 16), dtype=np.int32)


def _outcome(text: str, sym: str, args):
    try:
        return ("ok", *(r.tobytes() for r in run(text, sym, *args, engine="compiled")))
    except PTOFault as e:
        return ("PTOFault", e.kind, e.op, e.message)
    except RunError as e:
        return ("RunError", str(e))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(module_cache.ENV_DIR, str(tmp_path / "cache"))
    monkeypatch.setenv(module_cache.ENV_SWITCH, "1")
    return module_cache.cache_dir()


def _no_planning(monkeypatch):
    def refuse(*_a, **_k):
        raise AssertionError("parsed or planned although the plan was cached")

    monkeypatch.setattr(runner, "parse_module_text", refuse)
    monkeypatch.setattr(plan_module.Compiler, "_emit", refuse)


@pytest.mark.parametrize("level", ["tile", "block"])
@pytest.mark.parametrize("zero_at", [None, 40], ids=["ok", "fault"])
def test_cached_plan_runs_as_a_fresh_run(cache, monkeypatch, level, zero_at):
    """Several functions calling each other, at tile level and lowered to blocks; with an
    integer zero divisor in the second iteration the run faults (TileLegality at pto.trem,
    or its block) the same way from the cache."""
    text = _text(level)
    args = _inputs(zero_at)
    monkeypatch.setenv(module_cache.ENV_SWITCH, "0")
    fresh = _outcome(text, "main", args)
    monkeypatch.setenv(module_cache.ENV_SWITCH, "1")
    miss = _outcome(text, "main", args)  # parses, plans, stores both
    planned = 3 if zero_at is None else 2  # the fault comes before @twice is called
    assert sorted(p.suffix for p in cache.glob("*/*")) == [".code"] * planned + [".pickle", ".plans"]
    if level == "block":  # the batched loop's blocks come without summaries (decoded if asked)
        module = load_program(text)
        memos = [op.__dict__[bundle_decoded][1] for op in module.walk() if isinstance(op, BlockOp)]
        assert None in memos
    with monkeypatch.context() as m:
        _no_planning(m)
        hit = _outcome(text, "main", args)
    assert fresh == miss == hit
    assert fresh[0] == ("ok" if zero_at is None else "PTOFault")
    if zero_at is not None:
        assert "zero divisor" in fresh[3]


def test_run_errors_are_the_same_from_a_cached_plan(cache, monkeypatch):
    text = """
func.func @main(%a: i32, %b: i32) -> i32 {
  %q = arith.divsi %a, %b : i32
  func.return %q : i32
}
"""
    args = (np.int32(1), np.int32(0))
    monkeypatch.setenv(module_cache.ENV_SWITCH, "0")
    fresh = _outcome(text, "main", args)
    monkeypatch.setenv(module_cache.ENV_SWITCH, "1")
    _outcome(text, "main", args)
    with monkeypatch.context() as m:
        _no_planning(m)
        assert _outcome(text, "main", args) == fresh
    assert fresh[0] == "RunError" and "'arith.divsi'" in fresh[1]


def test_a_new_function_or_profile_is_planned_and_kept(cache, monkeypatch):
    args = _inputs()
    (r,) = run(SEVERAL, "rem", *args)  # only @rem planned
    (t,) = run(SEVERAL, "twice", r)  # from the cache; @twice planned, the entry updated
    (e,) = run(SEVERAL, "rem", *args, profile="exact")
    module = load_program(SEVERAL)
    kept = module.__dict__[plan_module.RECIPES_ATTR]
    assert set(kept) == {("rem", "ordered"), ("twice", "ordered"), ("rem", "exact")}
    with monkeypatch.context() as m:
        _no_planning(m)
        assert run(SEVERAL, "twice", r)[0].tobytes() == t.tobytes()
        assert run(SEVERAL, "rem", *args, profile="exact")[0].tobytes() == e.tobytes()


def test_observed_plans_are_not_kept_and_clear_plans_forgets(cache):
    from interpreter.observe import Observer

    args = _inputs()
    run(SEVERAL, "rem", *args, observer=Observer())
    module = load_program(SEVERAL)
    assert plan_module.RECIPES_ATTR not in module.__dict__
    run(module, "rem", *args)
    assert plan_module.RECIPES_ATTR in module.__dict__
    compiled.clear_plans(module)
    assert plan_module.RECIPES_ATTR not in module.__dict__


def test_corrupt_code_entry_is_a_miss_and_the_switch_stores_nothing(cache, monkeypatch):
    args = _inputs()
    (expected,) = run(SEVERAL, "rem", *args)
    (code,) = cache.glob("*/*.code")
    code.write_bytes(b"\x00not marshal")
    assert run(SEVERAL, "rem", *args)[0].tobytes() == expected.tobytes()
    assert code.exists() and code.read_bytes() != b"\x00not marshal"  # compiled and stored
    monkeypatch.setenv(module_cache.ENV_SWITCH, "0")
    module_cache.clear()
    assert run(SEVERAL, "rem", *args)[0].tobytes() == expected.tobytes()
    assert not cache.exists()


def test_a_module_changed_after_loading_is_not_stored_under_its_text(cache):
    """After ``clear_plans`` (or verifying again, what a change requires) the module may
    differ from its text: its new plans must not replace the text's entry."""
    args = _inputs()
    module = load_program(SEVERAL)
    run(module, "rem", *args)  # plans kept with the entry
    (entry,) = cache.glob("*/*.pickle")
    before = entry.read_bytes()
    for k, forget in enumerate((compiled.clear_plans, load_module)):
        module.attributes[f"test.changed{k}"] = UnitAttr()  # a change
        forget(module)
        compiled.clear_plans(module)
        run(module, "rem", *args)
        assert entry.read_bytes() == before


# -- kept plans run without their module ------------------------------------------------------
REM_ONLY = SEVERAL[: SEVERAL.index("func.func @twice")]  # @rem alone: one batched loop


def _no_module(monkeypatch):
    """A warm run that needs its module (an op, a call, an error) fails the test."""
    def refuse(*_a, **_k):
        raise AssertionError("loaded the module although the plan was kept")

    _no_planning(monkeypatch)
    monkeypatch.setattr(module_cache, "load", refuse)


def _flagged(text: str, args, profile: str = "ordered"):
    from interpreter.kernels.status import NumericStatus

    flags = NumericStatus()
    try:
        out = ("ok", *(r.tobytes() for r in run(text, "rem", *args, profile=profile, flags=flags,
                                              engine="compiled")))
    except PTOFault as e:
        out = ("PTOFault", e.kind, e.op, e.message)
    return out, flags


@pytest.mark.parametrize("level", ["tile", "block"])
def test_a_kept_plan_runs_without_its_module_and_faults_as_a_fresh_run(cache, monkeypatch, level):
    """A batched loop runs from the kept recipe alone (no module loaded, no parse); when its
    batched form is abandoned for a fault (a zero divisor), the module is loaded then and the
    fault, its op and message, and the numeric status flags equal a fresh run's."""
    text = REM_ONLY
    if level == "block":
        text = _text("block")
        text = text[: text.index("func.func @twice")] + "}\n"
    for zero_at, profile in ((None, "ordered"), (40, "ordered"), (None, "exact")):
        args = _inputs(zero_at)
        monkeypatch.setenv(module_cache.ENV_SWITCH, "0")
        fresh = _flagged(text, args, profile)
        monkeypatch.setenv(module_cache.ENV_SWITCH, "1")
        module_cache.clear()
        assert _flagged(text, args, profile) == fresh  # parses, plans, keeps
        assert module_cache.load_plans(text, "<string>") is not None
        with monkeypatch.context() as m:
            (_no_module if zero_at is None else _no_planning)(m)
            assert _flagged(text, args, profile) == fresh
        assert fresh[0][0] == ("ok" if zero_at is None else "PTOFault")


def test_kept_plan_argument_errors_and_switch(cache, monkeypatch):
    """Arguments are checked against the kept types with the messages of a fresh run; a
    corrupt plans file is a miss (removed, planned again); ``PTO_MODULE_CACHE=0`` reads no
    kept plan."""
    args = _inputs()
    (expected,) = run(REM_ONLY, "rem", *args, engine="compiled")
    bad = (args[0].astype(np.int64), args[1], args[2])
    monkeypatch.setenv(module_cache.ENV_SWITCH, "0")
    with pytest.raises(RunError) as fresh:
        run(REM_ONLY, "rem", *bad, engine="compiled")
    monkeypatch.setenv(module_cache.ENV_SWITCH, "1")
    with monkeypatch.context() as m:
        _no_module(m)
        with pytest.raises(RunError) as kept:
            run(REM_ONLY, "rem", *bad, engine="compiled")
        assert str(kept.value) == str(fresh.value)
    (plans,) = cache.glob("*/*.plans")
    plans.write_bytes(b"\x80\x05not a pickle")
    assert module_cache.load_plans(REM_ONLY, "<string>") is None and not plans.exists()
    assert run(REM_ONLY, "rem", *args, engine="compiled")[0].tobytes() == expected.tobytes()
    assert plans.exists()  # planned from the module's recipes and kept again
    monkeypatch.setenv(module_cache.ENV_SWITCH, "0")
    assert module_cache.load_plans(REM_ONLY, "<string>") is None
    with monkeypatch.context() as m:
        m.setattr(compiled, "build_plan", lambda *_a, **_k: pytest.fail("used a kept plan"))
        assert run(REM_ONLY, "rem", *args, engine="compiled")[0].tobytes() == expected.tobytes()


def test_pto_run_runs_a_kept_plan_without_the_module(cache, monkeypatch, tmp_path, capsys):
    """``pto-run`` of a program run before: the kept plan (no module loaded), the same output
    file and printed results; ``--stats`` needs the module and loads it."""
    from interpreter.tools import pto_run

    src = tmp_path / "rem.mlir"
    src.write_text(REM_ONLY)
    inputs = tmp_path / "in.npz"
    np.savez(inputs, **{f"arg{i}": a for i, a in enumerate(_inputs())})
    outs = [tmp_path / f"out{k}.npz" for k in range(2)]
    monkeypatch.setenv("PTO_ENGINE", "compiled")

    def cli(out, *extra):
        argv = [str(src), "--symbol", "rem", "--inputs", str(inputs), "--quiet", *extra]
        assert pto_run.main(argv + (["--output", str(out)] if out else [])) == 0
        return capsys.readouterr().out

    cli(outs[0])  # parses, plans, keeps
    printed = cli(None)
    with monkeypatch.context() as m:
        _no_module(m)
        cli(outs[1])
        assert cli(None) == printed
        assert pto_run.main([str(src), "--symbol", "rem", "--inputs", str(inputs), "--stats"]) == 1
        assert "loaded the module although the plan was kept" in capsys.readouterr().err
    with np.load(outs[0]) as a, np.load(outs[1]) as b:
        assert a["result0"].tobytes() == b["result0"].tobytes()


def test_pto_run_reads_a_folder_of_npy_inputs(cache, tmp_path, capsys):
    """``--inputs`` as a folder of ``arg<i>.npy`` (memory-mapped): the results of the .npz
    run; a missing argument and a bad file are one-line errors."""
    from interpreter.tools import pto_run

    src = tmp_path / "rem.mlir"
    src.write_text(REM_ONLY)
    args = _inputs()
    np.savez(tmp_path / "in.npz", **{f"arg{i}": a for i, a in enumerate(args)})
    folder = tmp_path / "in"
    folder.mkdir()
    for i, a in enumerate(args):
        np.save(folder / f"arg{i}.npy", a)
    (folder / "notes.txt").write_text("ignored")
    for k, inputs in enumerate((tmp_path / "in.npz", folder)):
        argv = [str(src), "--symbol", "rem", "--inputs", str(inputs), "--output",
                str(tmp_path / f"out{k}.npz")]
        assert pto_run.main(argv) == 0
    with np.load(tmp_path / "out0.npz") as a, np.load(tmp_path / "out1.npz") as b:
        assert a["result0"].tobytes() == b["result0"].tobytes()
    (folder / "arg2.npy").unlink()
    assert pto_run.main([str(src), "--symbol", "rem", "--inputs", str(folder)]) == 1
    assert "missing arg2" in capsys.readouterr().err
    (folder / "arg2.npy").write_bytes(b"not numpy")
    assert pto_run.main([str(src), "--symbol", "rem", "--inputs", str(folder)]) == 1
    assert "not a valid .npy file" in capsys.readouterr().err


CONSTANTS = """
func.func @consts(%x: tensor<2x3xf32>) -> (f32, f32, bf16, f16, i1, index, i8, tensor<6xf32>, tensor<3x2xi32>) {
  %nz = arith.constant -0.0 : f32
  %nan = arith.constant 0x7FC00001 : f32
  %b = arith.constant 1.0e-30 : bf16
  %h = arith.constant 0x7C01 : f16
  %t = arith.constant true
  %i = arith.constant 12345 : index
  %m = arith.constant -128 : i8
  %r = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %e = tensor.empty() : tensor<3x2xi32>
  func.return %nz, %nan, %b, %h, %t, %i, %m, %r, %e : f32, f32, bf16, f16, i1, index, i8, tensor<6xf32>, tensor<3x2xi32>
}
"""


def test_folded_constants_and_plain_reshapes_keep_their_bits(cache, monkeypatch):
    """Scalar constants (signed zero, NaN payloads, narrow floats, i1, index), a static
    reshape and ``tensor.empty`` are plain recipe parts: from the kept plan (no module) they
    give the bits and dtypes of the xDSL engine, and the reshape is not the argument."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)

    def outcome():
        out = run(CONSTANTS, "consts", x, engine="compiled")
        assert not any(np.may_share_memory(r, x) for r in out)
        return [(r.dtype.str, r.shape, r.tobytes()) for r in out]

    reference = [(r.dtype.str, r.shape, r.tobytes())
                 for r in run(CONSTANTS, "consts", x, engine="xdsl")]  # fmt: skip
    assert outcome() == reference  # parses, plans, keeps
    with monkeypatch.context() as m:
        _no_module(m)
        assert outcome() == reference
    (plans,) = cache.glob("*/*.plans")
    assert b"generic" not in plans.read_bytes()  # every op of @consts is a plain part


def test_pto_run_reads_stored_npz_members_as_np_load_does(tmp_path):
    """pto-run's own reader of uncompressed ``.npz`` members gives np.load's arrays (values,
    dtype, shape, memory order) and checks their CRC-32; a compressed archive is np.load's."""
    from interpreter.tools import pto_run

    rng = np.random.default_rng(1)
    arrays = {
        "arg0": rng.standard_normal((3, 5)).astype(np.float32),
        "arg1": np.asfortranarray(rng.integers(0, 9, (4, 3), dtype=np.int16)),
        "arg2": np.arange(6, dtype=">f8").reshape(2, 3),
        "arg3": np.array(True),
        "arg4": np.zeros((0, 4), np.uint8),
        "arg5": rng.integers(0, 255, 7, dtype=np.uint8),
    }
    for save in (np.savez, np.savez_compressed):
        path = tmp_path / f"{save.__name__}.npz"
        save(path, **arrays)
        got, want = pto_run._read_npz(str(path)), pto_run._np_load(str(path))
        assert list(got) == list(want) == list(arrays)
        for name, a in arrays.items():
            for x in (got[name], want[name]):
                assert (x.dtype, x.shape, x.tobytes("A")) == (a.dtype, a.shape, a.tobytes("A"))
                assert x.flags.f_contiguous == a.flags.f_contiguous
    path = tmp_path / "savez.npz"
    data = bytearray(path.read_bytes())
    data[data.index(arrays["arg5"].tobytes()) + 3] ^= 1  # one bit of arg5's data
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="CRC"):
        pto_run._read_npz(str(path))


@pytest.mark.parametrize("profile", ["ordered", "exact"])
def test_a_kept_mx_gemv_plan_runs_its_chain_without_the_module(cache, monkeypatch, profile):
    """The lowered MXFP8 GEMV (a BIAS op, then a chain of ACC ops over K chunks, batched over
    N), at tile level and as blocks: its kept plan runs without the module and gives the bits
    and numeric status flags of a fresh run (and of the xDSL engine)."""
    import ml_dtypes
    from upstream_programs import MX_GEMV

    k, n = 2048, 256  # (a ragged K hoists A's loads out of the loop: steps that need the module)
    kb = -(-k // 32)
    rng = np.random.default_rng(2)
    args = (rng.standard_normal(k).astype(ml_dtypes.float8_e4m3fn),
            rng.integers(118, 136, kb, dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu),
            rng.standard_normal((k, n)).astype(ml_dtypes.float8_e4m3fn),
            rng.integers(118, 136, (kb, n), dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu),
            rng.standard_normal(n).astype(np.float32))  # fmt: skip
    for pipeline in ("pto-lower{level=tile}", "pto-lower"):
        ctx = build_context()
        module = load_module(MX_GEMV.format(K=k, N=n, KB=kb), ctx)
        PassPipeline.parse_spec(get_all_passes(), pipeline).apply(ctx, module)
        buf = io.StringIO()
        Printer(stream=buf).print_op(module)
        text = buf.getvalue() + "\n"

        def outcome(text=text):
            from interpreter.kernels.status import NumericStatus

            flags = NumericStatus()
            (y,) = run(text, "mx", *args, profile=profile, flags=flags, engine="compiled")
            return y.tobytes(), flags.bits

        (ref,) = run(text, "mx", *args, profile=profile, engine="xdsl")
        first = outcome()  # parses, plans, keeps
        with monkeypatch.context() as m:
            _no_module(m)
            assert outcome() == first
        assert first[0] == ref.tobytes()


# -- the batched loop's covered slices, all movers at once ------------------------------------
def _one_cover(geometry, offsets, shape):
    """Reference: the covered slice of one mover, element by element in Python (piece (i, q)
    of iteration i and PE q at offsets[i] + q * stride, pieces k = i * npe + q side by side
    along one axis); None when not one contiguous slice inside ``shape``."""
    vr, vc, s0, s1, npe = geometry
    if npe == 0:
        return None
    origins = [(r + q * s0, c + q * s1) for r, c in offsets for q in range(npe)]
    r0, c0 = origins[0]
    n = len(origins)
    if all(o == (r0, c0 + k * vc) for k, o in enumerate(origins)):
        sl = (slice(r0, r0 + vr), slice(c0, c0 + n * vc))
        axis = 1
    elif all(o == (r0 + k * vr, c0) for k, o in enumerate(origins)):
        sl = (slice(r0, r0 + n * vr), slice(c0, c0 + vc))
        axis = 0
    else:
        return None
    if r0 < 0 or c0 < 0 or sl[0].stop > shape[0] or sl[1].stop > shape[1]:
        return None
    return axis, sl, n


@st.composite
def _movers(draw):
    iters = draw(st.integers(1, 5))
    geometries, columns = [], []
    for _ in range(draw(st.integers(1, 4))):
        vr, vc, npe = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(0, 3))
        s0, s1 = draw(st.sampled_from([(0, vc), (vr, 0), (0, 0), (vr, vc),
                                       (draw(st.integers(-2, 3)), draw(st.integers(-2, 3)))]))
        r0, c0 = draw(st.integers(-1, 4)), draw(st.integers(-1, 4))
        dr, dc = draw(st.sampled_from([(0, npe * vc), (npe * vr, 0), (0, 0),
                                       (draw(st.integers(-2, 4)), draw(st.integers(-2, 4)))]))
        offs = [[r0 + i * dr, c0 + i * dc] for i in range(iters)]
        for _ in range(draw(st.integers(0, 1))):  # a perturbed iteration
            i, j = draw(st.integers(0, iters - 1)), draw(st.integers(0, 1))
            offs[i][j] += draw(st.integers(-2, 2))
        geometries.append((vr, vc, s0, s1, npe))
        columns.append(offs)
    shape = (draw(st.integers(1, 30)), draw(st.integers(1, 30)))
    table = np.array([[columns[m][i] for m in range(len(columns))] for i in range(iters)],
                     np.int64).reshape(iters, len(columns), 2)
    return geometries, table, shape


@settings(max_examples=150, deadline=None)
@given(_movers())
def test_every_movers_slice_at_once_is_each_movers_slice(movers):
    """``batch._covers`` (one vectorised pass over every load and store) then ``_union``
    give, per mover, the slice (or the abandon) of the element-by-element reference."""
    from interpreter.ssa.compiled import batch

    geometries, table, shape = movers
    covers = batch._covers(np.array(geometries, np.int64).reshape(-1, 5), table)
    for m, geometry in enumerate(geometries):
        want = _one_cover(geometry, table[:, m].tolist(), shape)
        try:
            got = batch._union(covers[m], geometry, shape)
        except batch._Abandon:
            got = None
        assert got == want, (geometry, table[:, m].tolist(), shape)
