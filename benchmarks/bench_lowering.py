"""Lowering benchmarks (ratios measured in the same run; no timing asserts anywhere).

1. ``pto-opt -p <tile-level pto-lower>`` on a module of 1,000 functions (the six examples'
   functions, renamed) versus ``pto-opt`` parse + print alone on the same file (target <= 3x).
2. ``interpreter.run`` of the lowered 16384 x 4096 MXFP8 GEMV, tile level and blocks, on the
   compiled engine (and the xDSL reference engine) versus one call of the kernel API on the
   whole problem (target <= 1.5x, stretch 1.1x).
3. TGEMV/TREM instructions emitted versus the lower bound ceil(bytes / (4 PEs x 64 KiB)).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ml_dtypes
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TILE_PIPELINE = "convert-linalg-to-pto,pto-tile-to-capacity"


def _pto_opt() -> str:
    exe = Path(sys.executable).with_name("pto-opt")
    return str(exe) if exe.exists() else "pto-opt"


def _functions_text() -> list[str]:
    """The generic-printed func.func ops of every example (affine maps inlined)."""
    from xdsl.dialects import func
    from xdsl.printer import Printer

    from interpreter.ssa.runner import load_module

    out = []
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        module = load_module(path)
        for op in module.ops:
            if isinstance(op, func.FuncOp):
                import io

                buf = io.StringIO()
                Printer(stream=buf).print_op(op)
                out.append(buf.getvalue())
    return out


def _big_module(n: int) -> str:
    funcs = _functions_text()
    parts = []
    for i in range(n):
        text = funcs[i % len(funcs)]
        parts.append(re.sub(r"func\.func @(\w+)", lambda m, i=i: f"func.func @{m.group(1)}_{i}", text, count=1))
    return "builtin.module {\n" + "\n".join(parts) + "\n}\n"


def _time_cmd(cmd: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t0)
    return best


def bench_compile(n: int, repeat: int) -> None:
    text = _big_module(n)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "many.mlir"
        path.write_text(text)
        base = _time_cmd([_pto_opt(), str(path)], repeat)
        lower = _time_cmd([_pto_opt(), str(path), "-p", TILE_PIPELINE], repeat)
    print(
        f"pto-opt -p {TILE_PIPELINE} on {n} functions ({len(text) / 1e6:.2f} MB): {lower:6.2f} s; "
        f"parse+print alone {base:6.2f} s; ratio {lower / base:4.2f}x (target <= 3)"
    )


GEMV = """
func.func @gemv(%x: tensor<{K}xf8E4M3FN>, %xs: tensor<{KB}xf8E8M0FNU>, %w: tensor<{K}x{N}xf8E4M3FN>,
                %ws: tensor<{KB}x{N}xf8E8M0FNU>, %bias: tensor<{N}xf32>) -> tensor<{N}xf32> {{
  %y = linalg.generic {{indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (k floordiv 32)>,
      affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (k floordiv 32, n)>, affine_map<(n, k) -> (n)>],
      iterator_types = ["parallel", "reduction"]}}
      ins(%x, %xs, %w, %ws : tensor<{K}xf8E4M3FN>, tensor<{KB}xf8E8M0FNU>, tensor<{K}x{N}xf8E4M3FN>,
          tensor<{KB}x{N}xf8E8M0FNU>) outs(%bias : tensor<{N}xf32>) {{
  ^bb0(%a: f8E4M3FN, %as: f8E8M0FNU, %b: f8E4M3FN, %bs: f8E8M0FNU, %acc: f32):
    %a32 = arith.extf %a : f8E4M3FN to f32
    %as32 = arith.extf %as : f8E8M0FNU to f32
    %av = arith.mulf %a32, %as32 : f32
    %b32 = arith.extf %b : f8E4M3FN to f32
    %bs32 = arith.extf %bs : f8E8M0FNU to f32
    %bv = arith.mulf %b32, %bs32 : f32
    %p = arith.mulf %av, %bv : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> tensor<{N}xf32>
  func.return %y : tensor<{N}xf32>
}}
"""


def bench_run_gemv(k: int, n: int, repeat: int) -> None:
    from xdsl.passes import PassPipeline

    from interpreter import kernels, run
    from interpreter.ssa.runner import build_context, load_module
    from passes import get_all_passes

    kb = -(-k // 32)
    ctx = build_context()
    module = load_module(GEMV.format(K=k, N=n, KB=kb), ctx)
    t0 = time.perf_counter()
    avail = get_all_passes()
    # the tile level of the same program as the blocks (pto-lower picks one tile size)
    PassPipeline.parse_spec(avail, "pto-lower{level=tile}").apply(ctx, module)
    compile_s = time.perf_counter() - t0
    rng = np.random.default_rng(0)
    x = rng.standard_normal(k).astype(ml_dtypes.float8_e4m3fn)
    w = rng.standard_normal((k, n)).astype(ml_dtypes.float8_e4m3fn)
    xs = rng.integers(120, 134, kb, dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu)
    ws = rng.integers(120, 134, (kb, n), dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu)
    bias = rng.standard_normal(n).astype(np.float32)

    def lowered():
        return run(module, "gemv", x, xs, w, ws, bias)

    def direct():
        return kernels.tgemv_mx_bias(x, w, bias.reshape(1, n), a_scale=xs.reshape(1, kb), b_scale=ws)

    blocks = load_module(GEMV.format(K=k, N=n, KB=kb), ctx)
    PassPipeline.parse_spec(avail, "pto-lower").apply(ctx, blocks)

    def lowered_blocks():
        return run(blocks, "gemv", x, xs, w, ws, bias)

    from benchmarks.bench_interpreter import cpu_best_of

    lowered()
    lowered_blocks()
    t_run = min(_timed(lowered) for _ in range(repeat))
    t_blocks = min(_timed(lowered_blocks) for _ in range(repeat))
    t_kernel = min(_timed(direct) for _ in range(repeat))
    c_run, c_blocks, c_kernel = (cpu_best_of(f, repeat) for f in (lowered, lowered_blocks, direct))
    t_ref = _timed(lambda: run(module, "gemv", x, xs, w, ws, bias, engine="xdsl"))
    t_ref_blocks = _timed(lambda: run(blocks, "gemv", x, xs, w, ws, bias, engine="xdsl"))
    (y,) = lowered()
    (yb,) = lowered_blocks()
    assert yb.tobytes() == y.tobytes(), "block level differs from tile level"
    d = direct()
    err = float(np.max(np.abs(y - d.reshape(-1)) / (np.abs(d.reshape(-1)) + 1e-3)))
    print(
        f"interpreter.run of the lowered {k}x{n} MXFP8 GEMV (compiled engine): tile level "
        f"{t_run * 1e3:7.1f} ms, blocks {t_blocks * 1e3:7.1f} ms; kernel API once "
        f"{t_kernel * 1e3:7.1f} ms; ratios {t_run / t_kernel:4.2f}x / {t_blocks / t_kernel:4.2f}x "
        f"(target <= 1.5, stretch 1.1); CPU-time ratios {c_run / c_kernel:4.2f}x / "
        f"{c_blocks / c_kernel:4.2f}x; xdsl engine {t_ref / t_kernel:4.2f}x / "
        f"{t_ref_blocks / t_kernel:4.2f}x; compile {compile_s:.2f} s; max rel. difference {err:.1e}"
    )


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def fn_result_rows(module) -> int:
    from xdsl.dialects import func

    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    return fn.function_type.outputs.data[0].get_shape()[0]


def bench_counts() -> None:
    """Compute instructions ``pto-lower`` executes per example versus the lower bound under
    the 256 KiB core tile capacity (one op's tiles must fit it together, on 4 PEs): a CUBE op
    holds B beside at least A, C/bias, D (and scales), so B takes at most 32 KiB per PE; a
    binary op or TREM holds two sources and a result of one size, at most 16 KiB each. The
    bound is ceil(largest operand / (4 x that size)) per lowered computation. Also shown:
    what ``pto-tile-to-capacity`` alone emits with 64 KiB tiles."""
    from xdsl.dialects import func
    from xdsl.passes import PassPipeline

    from interpreter.ssa.runner import build_context, load_module
    from interpreter.ssa.upstream.dtypes import dtype_for
    from passes import get_all_passes
    from passes.pto_tile_to_capacity import executed_op_counts
    from pto_dialect.ops import BINARY_OPS, CUBE_OPS

    for path in sorted((ROOT / "examples").glob("*.mlir")):
        ctx = build_context()
        module = load_module(path, ctx)
        sizes = []
        for op in module.ops:
            if isinstance(op, func.FuncOp):
                for t in op.function_type.inputs.data:
                    shape = t.get_shape()
                    bits = getattr(t.element_type, "bitwidth", None) or dtype_for(t).itemsize * 8
                    sizes.append(int(np.prod(shape)) * bits // 8)
        PassPipeline.parse_spec(get_all_passes(), TILE_PIPELINE).apply(ctx, module)
        counts = executed_op_counts(module)
        compute = {c.name for c in CUBE_OPS} | {b.name for b in BINARY_OPS}
        n = sum(v for k, v in counts.items() if k in compute)
        # One bound per lowered computation: the CUBE family counts as one (a K chain is one
        # GEMV), each elementwise op kind as one (the example inputs share their shapes).
        cube = {c.name for c in CUBE_OPS}
        groups = {"cube" if k in cube else k for k, v in counts.items() if k in compute and v}
        bound = sum(-(-max(sizes) // (4 * (32768 if g == "cube" else 16384))) for g in groups)
        bound = max(1, bound)
        note = ""
        if counts.get("pto.tmatmul", 0) or counts.get("pto.tmatmul_mx", 0):
            # One TMATMUL holds at most 32 rows of A (cube_m32), so B streams through the PEs
            # once per M tile: the bound is ceil(M / 32) x ceil(bytes of B / (4 x 32 KiB)).
            m = fn_result_rows(module)
            bound *= -(-m // 32)
            note = f" (per M tile: ceil({m}/32) x the operand bound)"
        fitted = load_module(path, ctx)
        PassPipeline.parse_spec(get_all_passes(), "pto-lower{level=tile}").apply(ctx, fitted)
        n_fit = sum(v for k, v in executed_op_counts(fitted).items() if k in compute)
        print(
            f"{path.name:28s} pto-lower {n_fit:4d}; lower bound {bound:4d}; "
            f"ratio {n_fit / bound:.2f}{note}; tiler alone at 64 KiB {n:4d}"
        )


def run(quick: bool = False) -> None:
    print("\n== lowering ==")
    bench_counts()
    bench_compile(100 if quick else 1000, repeat=1 if quick else 3)
    if quick:
        bench_run_gemv(2048, 512, repeat=2)
    else:
        bench_run_gemv(16384, 4096, repeat=3)
