"""The compiled engine against the xDSL reference engine (issue 12).

``engine="both"`` runs a function on both engines and raises ``EngineMismatch`` unless the
results are bitwise equal (tile results: definedness too) or both raise the same error at
the same op. The whole test suite runs with ``PTO_ENGINE=both`` (``tests/conftest.py``), so
every differential and evidence test checks the two engines; this file adds the examples at
every level, the loop forms (batched, two threads, in order) and their faults.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from upstream_programs import MX_GEMV
from xdsl.dialects import func
from xdsl.passes import PassPipeline
from xdsl.traits import SymbolTable

from interpreter import run
from interpreter.ssa import compiled
from interpreter.ssa.compiled import loops
from interpreter.ssa.runner import EngineMismatch, build_context, load_module
from passes import get_all_passes
from pto_dialect.faults import FaultKind, PTOFault

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))


def _gen_inputs():
    spec = importlib.util.spec_from_file_location("gen_inputs", ROOT / "examples/Inputs/gen_inputs.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _lowered(text_or_path, pipeline: str | None):
    ctx = build_context()
    module = load_module(text_or_path, ctx)
    if pipeline:
        PassPipeline.parse_spec(get_all_passes(), pipeline).apply(ctx, module)
    return module


@pytest.fixture(params=["inorder", "threads", "batched"])
def loop_mode(request, monkeypatch):
    """Each loop form in turn: per iteration, two threads, batched (the default)."""
    monkeypatch.setattr(loops, "BATCH", request.param == "batched")
    monkeypatch.setattr(loops, "THREADS", 1 if request.param == "inorder" else 2)
    return request.param


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_agrees_on_both_engines_at_every_level(path):
    gen = _gen_inputs()
    module = load_module(path)
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    rng = np.random.default_rng(7)
    args = [gen.values(t, rng, "floor" in path.stem) for t in fn.function_type.inputs.data]
    if "gather" in path.stem:  # ids index the first argument's rows (random ids would only fault)
        rows = args[0].shape[0]
        args = [args[0], *(rng.integers(0, rows, a.shape).astype(a.dtype) for a in args[1:])]
    name = fn.sym_name.data
    for pipeline in ("pto-lower{level=tile}", "pto-lower"):
        lowered = _lowered(path, pipeline)
        got = run(lowered, name, *args, engine="both")
        again = run(lowered, name, *args, engine="compiled")  # the cached plan
        assert all(a.tobytes() == b.tobytes() for a, b in zip(got, again))


def _mx_gemv_operands(k: int, n: int, seed: int) -> tuple[np.ndarray, ...]:
    """x, its scales, W, its scales and the bias of ``MX_GEMV`` (E4M3, moderate scales)."""
    import ml_dtypes

    kb = -(-k // 32)
    rng = np.random.default_rng(seed)
    e4m3, e8m0 = ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e8m0fnu
    return (rng.standard_normal(k).astype(e4m3),
            rng.integers(118, 136, kb, dtype=np.uint8).view(e8m0),
            rng.standard_normal((k, n)).astype(e4m3),
            rng.integers(118, 136, (kb, n), dtype=np.uint8).view(e8m0),
            rng.standard_normal(n).astype(np.float32))


@pytest.mark.parametrize("k,n,profile", [(2000, 3000, "exact"), (2048, 1024, "fp32-sequential")])
def test_gemv_loops_agree_in_every_loop_form(k, n, profile, loop_mode):
    """A K chain per N group (K chunks, several N groups, a ragged tail): batched along
    columns, on two threads or in order, bitwise what the xDSL engine computes."""
    operands = _mx_gemv_operands(k, n, k + n)
    text = MX_GEMV.format(K=k, N=n, KB=-(-k // 32))
    loops.STATS.clear()
    results = [
        run(_lowered(text, p), "mx", *operands, engine="both", profile=profile)[0]
        for p in ("pto-lower{level=tile}", "pto-lower")
    ]
    assert results[0].tobytes() == results[1].tobytes()
    assert loops.STATS == {loop_mode: 2}


@pytest.mark.parametrize("profile,calls", [("ordered", 2), ("exact", None)])
def test_a_k_chain_of_acc_ops_is_one_kernel_call(monkeypatch, profile, calls):
    """The batched form runs ACC ops that continue each other's C over neighbouring K ranges
    of B (here, with 4 KiB tiles, a bias op, then 15 ACC ops over 256-row K chunks, the last
    one ragged) as
    one kernel call in the ordered profile (ADR-0047: C, then every term in K order, is one
    FMA chain), bitwise what the xDSL engine computes op by op; ``exact`` rounds once per op,
    so it keeps one call per op."""
    from interpreter.ssa.compiled import batch

    k, n = 4070, 1024
    operands = _mx_gemv_operands(k, n, 11)
    seen = []
    real = batch._cube_call
    monkeypatch.setattr(batch, "_cube_call", lambda *a: seen.append(a[0]) or real(*a))
    monkeypatch.setattr(loops, "BATCH", True)
    loops.STATS.clear()
    lowered = _lowered(MX_GEMV.format(K=k, N=n, KB=-(-k // 32)),
                       "pto-lower{level=tile tile-bytes=4096}")
    cube_ops = sum(1 for op in lowered.walk() if op.name.startswith("pto.tgemv"))
    run(lowered, "mx", *operands, engine="both", profile=profile)
    assert loops.STATS.get("batched") == 1 and cube_ops == 16
    assert len(seen) == (calls or cube_ops)


def _trem_loop(n_iter: int, rows: int = 8, extra: str = "") -> str:
    """TREM over an n_iter x 4-PE row loop of 8x16 si32 tiles, as pto-tile-to-capacity
    writes it; ``extra`` adds ops after the loop."""
    total = n_iter * 4 * rows
    ty = f"tensor<{total}x16xi32>"
    tile = f"!pto.tile<{rows}x16xsi32>"
    return f"""
func.func @main(%a: {ty}, %b: {ty}, %init: {ty}) -> ({ty}, {ty}) {{
  %c0 = arith.constant 0 : index
  %step = arith.constant {4 * rows} : index
  %ub = arith.constant {total} : index
  %r = scf.for %i = %c0 to %ub step %step iter_args(%acc = %init) -> ({ty}) {{
    %x = pto.tload %a[%i, %c0] {{pe_stride = [{rows}, 0]}} : {ty} -> {tile}
    %y = pto.tload %b[%i, %c0] {{pe_stride = [{rows}, 0]}} : {ty} -> {tile}
    %z = pto.trem %x, %y : {tile}
    %s = pto.tstore %z, %acc[%i, %c0] {{pe_stride = [{rows}, 0]}} : {tile} -> {ty}
    scf.yield %s : {ty}
  }}
  {extra}
  func.return %r, %init : {ty}, {ty}
}}
"""


def _trem_inputs(n_iter: int, rows: int = 8, seed: int = 0):
    rng = np.random.default_rng(seed)
    shape = (n_iter * 4 * rows, 16)
    a = rng.integers(-1000, 1000, shape, dtype=np.int32)
    b = rng.integers(1, 50, shape, dtype=np.int32)
    init = rng.integers(-5, 5, shape, dtype=np.int32)
    return a, b, init


@pytest.mark.parametrize("level", ["tile", "block"])
def test_trem_loop_result_and_inputs_untouched(level, loop_mode):
    """The init tensor is an argument also returned: stores must never write into it."""
    text = _trem_loop(5)
    module = _lowered(text, "pto-lower" if level == "block" else None)
    a, b, init = _trem_inputs(5)
    keep = init.copy()
    loops.STATS.clear()
    r, same = run(module, "main", a, b, init, engine="both")
    assert loops.STATS == {loop_mode: 1}
    assert np.array_equal(init, keep) and np.array_equal(same, keep)
    ref = a - np.floor_divide(a, b) * b  # floor remainder, written differently
    assert np.array_equal(r, ref)


@pytest.mark.parametrize("bad_iter", [0, 3, 4])
def test_a_fault_in_iteration_j_is_the_same_fault_at_the_same_op(bad_iter, loop_mode):
    """An integer zero divisor in one iteration: TileLegality from pto.trem on both engines
    (the batched attempt is abandoned, threads report the lowest faulting iteration)."""
    module = _lowered(_trem_loop(5), None)
    a, b, init = _trem_inputs(5)
    b[bad_iter * 32 + 3, 5] = 0
    with pytest.raises(PTOFault) as e:
        run(module, "main", a, b, init, engine="both")
    assert e.value.kind == FaultKind.TILE_LEGALITY and "zero divisor" in e.value.message


def test_two_faulting_iterations_report_the_first(monkeypatch):
    monkeypatch.setattr(loops, "BATCH", False)
    monkeypatch.setattr(loops, "THREADS", 2)
    module = _lowered(_trem_loop(6), None)
    a, b, init = _trem_inputs(6)
    b[1 * 32, 0] = 0  # iteration 1 (first thread) ...
    b[5 * 32, 0] = 0  # ... and iteration 5 (second thread)
    with pytest.raises(PTOFault) as e:
        run(module, "main", a, b, init, engine="compiled")
    with pytest.raises(PTOFault) as ref:
        run(module, "main", a, b, init, engine="xdsl")
    assert (e.value.kind, e.value.op, e.value.message) == (
        ref.value.kind, ref.value.op, ref.value.message)


def test_out_of_bounds_store_in_a_loop_faults_like_the_reference(loop_mode):
    """The last iteration's tiles run past the tensor: the offsets are computed first, the
    batched and threaded forms refuse, and the in-order run faults at pto.tload."""
    text = _trem_loop(3).replace("%ub = arith.constant 96", "%ub = arith.constant 128")
    module = _lowered(text, None)
    a, b, init = _trem_inputs(3)
    with pytest.raises(PTOFault) as e:
        run(module, "main", a, b, init, engine="both")
    assert e.value.kind == FaultKind.TILE_LEGALITY and e.value.op == "pto.tload"


def test_reading_an_unallocated_tile_faults_on_both_engines():
    """A mask-0 TREM is a strict no-op whose result is unallocated (D12); reading it is
    TileLegality at the reading op on both engines, with no result."""
    ty = "!pto.tile<8x16xsi32, pe=1000>"
    text = f"""
func.func @main(%x: {ty}, %y: {ty}) -> {ty} {{
  %t = pto.trem %x, %y {{mask = #pto.mask<0000>}} : {ty}
  %u = pto.trem %t, %y {{mask = #pto.mask<1000>}} : {ty}
  func.return %u : {ty}
}}
"""
    x = np.arange(1, 129, dtype=np.int32).reshape(8, 16)
    with pytest.raises(PTOFault) as e:
        run(text, "main", x, x, engine="both")
    assert e.value.kind == FaultKind.TILE_LEGALITY and "not allocated" in e.value.message


def test_loop_with_a_live_init_is_not_updated_in_place(loop_mode):
    """The loop's init is also used after the loop: its buffer must stay intact."""
    extra = "%again = pto.tload %init[%c0, %c0] : tensor<160x16xi32> -> !pto.tile<8x16xsi32>"
    text = _trem_loop(5, extra=extra)
    module = _lowered(text, None)
    a, b, init = _trem_inputs(5)
    r, same = run(module, "main", a, b, init, engine="both")
    assert np.array_equal(same, init)


def test_xdsl_region_ops_and_calls_run_inside_plans():
    """linalg.generic (an xDSL region op, captured values included) and func.call."""
    text = """
func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  func.return %y : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %z = func.call @twice(%y) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %z : tensor<4xf32>
}
"""
    x = np.array([1, 2, 3, -4], np.float32)
    (r,) = run(text, "main", x, np.float32(1.5), engine="both")
    assert r.tolist() == [3.0, 6.0, 9.0, -12.0]


def test_run_error_names_the_same_op():
    text = """
func.func @main(%a: i32, %b: i32) -> i32 {
  %q = arith.divsi %a, %b : i32
  func.return %q : i32
}
"""
    from interpreter.ssa.runner import RunError

    for engine in ("compiled", "xdsl"):
        with pytest.raises(RunError, match="'arith.divsi'"):
            run(text, "main", np.int32(1), np.int32(0), engine=engine)
    with pytest.raises(RunError, match="'arith.divsi'"):
        run(text, "main", np.int32(1), np.int32(0), engine="both")


def test_plans_are_cached_per_module_and_function():
    module = _lowered(_trem_loop(2), None)
    fn = SymbolTable.lookup_symbol(module, "main")
    a, b, init = _trem_inputs(2)
    run(module, "main", a, b, init, engine="compiled")
    make = pytest.fail  # a cached plan builds no interpreter
    plan = compiled.compiled_function(module, fn, "ordered", make)
    assert plan is compiled.compiled_function(module, fn, "ordered", make)


def test_engine_mismatch_is_reported(monkeypatch):
    from interpreter.ssa import runner

    module = _lowered(_trem_loop(2), None)
    a, b, init = _trem_inputs(2)
    real = runner._run_compiled

    def wrong(*args):
        out = real(*args)
        return (out[0] + 1, out[1])

    monkeypatch.setattr(runner, "_run_compiled", wrong)
    with pytest.raises(EngineMismatch, match="result 0 differs"):
        run(module, "main", a, b, init, engine="both")


def test_unknown_engine_is_a_clear_error():
    from interpreter.ssa.runner import RunError

    with pytest.raises(RunError, match="unknown engine 'fast'"):
        run("func.func @f() { func.return }", "f", engine="fast")
