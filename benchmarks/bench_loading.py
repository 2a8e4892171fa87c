"""Fast loading (issue 26): ``pto-run`` of a lowered program from its file against one kernel
call, measured in the same run (alternating rounds, best of each; the machine is shared).

The program is the MXFP8 GEMV of ``examples/mxfp8_gemv.mlir`` at K = 16384, N = 4096
(``--quick``: 2048 x 1024), lowered by ``pto-lower{level=tile}`` (tile level) and
``pto-lower`` (blocks) and printed to files. Per form:

* ``file``: :func:`interpreter.run` on the file's path, the module cache warm (what a
  ``pto-run`` after the first one costs, minus the interpreter's imports): read the text,
  load the kept plan's recipe (not the module: :func:`interpreter.ssa.runner.kept_function`),
  build the plan, run (target <= 1.5x one kernel call);
* ``cli``: ``pto-run FILE --inputs in.npz --output out.npz`` in this process (adds reading
  and writing the ``.npz`` arrays: 64 MiB of weights, copied and checksummed);
* ``npy``: the same with ``--inputs`` a folder of ``arg<i>.npy`` files (memory-mapped: no
  copy, no checksum);
* ``first``: the same with an empty cache: parse, verify once, store, plan, run, store the
  plans;
* ``module``: an already loaded and planned module run again (the kernels' own time);
* ``kernel``: ``kernels.tgemv_mx_bias`` once on the whole problem (the anchor).

Wall times are the best of alternating rounds; the process CPU time (all threads, best of the
same calls) is printed too, as its ratio depends less on the other load of the machine. Each
call starts after a garbage collection (not timed), as a fresh ``pto-run`` process would:
the modules earlier calls loaded are garbage, and collecting them inside a timed call charged
it for its predecessors.
The results of every path are checked to be bit-identical. No assertions on times.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import sys
import tempfile
import time
from pathlib import Path

import ml_dtypes
import numpy as np

from benchmarks.bench_lowering import GEMV


def _lowered_texts(k: int, n: int) -> dict[str, str]:
    from xdsl.passes import PassPipeline
    from xdsl.printer import Printer

    from interpreter.ssa.runner import build_context, load_module
    from passes import get_all_passes

    out = {}
    for form, spec in (("tile level", "pto-lower{level=tile}"), ("blocks", "pto-lower")):
        ctx = build_context()
        module = load_module(GEMV.format(K=k, N=n, KB=k // 32), ctx)
        PassPipeline.parse_spec(get_all_passes(), spec).apply(ctx, module)
        buf = io.StringIO()
        Printer(stream=buf).print_op(module)
        out[form] = buf.getvalue() + "\n"
    return out


def _timed(fn) -> tuple[float, float]:
    gc.collect()  # not timed: no garbage of earlier calls (a pto-run process has none)
    c0, w0 = time.process_time(), time.perf_counter()
    fn()
    return time.perf_counter() - w0, time.process_time() - c0


def _best(fns: dict[str, object], rounds: int) -> dict[str, tuple[float, float]]:
    """Best (wall, cpu) of every function, alternating between them each round."""
    best = {name: (float("inf"), float("inf")) for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            w, c = _timed(fn)
            best[name] = (min(best[name][0], w), min(best[name][1], c))
    return best


def run(quick: bool = False) -> None:
    from interpreter import kernels
    from interpreter.ssa import module_cache
    from interpreter.ssa.runner import load_program
    from interpreter.ssa.runner import run as run_program
    from interpreter.tools import pto_run

    k, n = (2048, 1024) if quick else (16384, 4096)
    rounds = 3 if quick else 9
    kb = k // 32
    rng = np.random.default_rng(0)
    x = rng.standard_normal(k).astype(ml_dtypes.float8_e4m3fn)
    w = rng.standard_normal((k, n)).astype(ml_dtypes.float8_e4m3fn)
    xs = rng.integers(120, 134, kb, dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu)
    ws = rng.integers(120, 134, (kb, n), dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu)
    bias = rng.standard_normal(n).astype(np.float32)
    args = (x, xs, w, ws, bias)

    def kernel():
        return kernels.tgemv_mx_bias(x, w, bias.reshape(1, n), a_scale=xs.reshape(1, kb),
                                     b_scale=ws)  # fmt: skip

    print(f"\n== loading (issue 26): pto-run of the lowered {k}x{n} MXFP8 GEMV from its file "
          "vs one kernel call ==")
    texts = _lowered_texts(k, n)
    saved = os.environ.get(module_cache.ENV_DIR)
    with tempfile.TemporaryDirectory(prefix="pto-bench-loading-") as tmp:
        os.environ[module_cache.ENV_DIR] = str(Path(tmp) / "cache")
        try:
            inputs = Path(tmp) / "in.npz"
            bits = {f"arg{i}": a.view(f"u{a.dtype.itemsize}") if a.dtype.itemsize == 1 else a
                    for i, a in enumerate(args)}  # fmt: skip
            np.savez(inputs, **bits)
            folder = Path(tmp) / "in"
            folder.mkdir()
            for name, a in bits.items():
                np.save(folder / f"{name}.npy", a)
            kernel()
            expected = None
            print(f"  {'form':10s} {'MB':>5s} {'kernel':>7s} {'file':>7s} {'ratio':>6s} {'cpu':>6s} "
                  f"{'cli':>7s} {'ratio':>6s} {'npy':>7s} {'ratio':>6s} {'module':>7s} "
                  f"{'ratio':>6s} {'first':>7s} "
                  f"{'ratio':>6s}   (ms; target file <= 1.5x)")
            for form, text in texts.items():
                path = Path(tmp) / f"gemv_{form.replace(' ', '_')}.mlir"
                path.write_text(text)
                out = Path(tmp) / "out.npz"
                module_cache.clear()
                t0 = time.perf_counter()
                (y,) = run_program(path, "gemv", *args)  # a miss: parse, verify, store
                first = time.perf_counter() - t0
                module = load_program(text, str(path))
                run_program(module, "gemv", *args)
                cli_argv = [str(path), "--symbol", "gemv", "--inputs", str(inputs), "--output",
                            str(out), "--quiet"]  # fmt: skip

                npy_argv = [*cli_argv[:4], str(folder), *cli_argv[5:]]

                def cli(argv=cli_argv):
                    with contextlib.redirect_stdout(io.StringIO()):
                        assert pto_run.main(argv) == 0

                best = _best({
                    "kernel": kernel,
                    "file": lambda p=path: run_program(p, "gemv", *args),
                    "module": lambda m=module: run_program(m, "gemv", *args),
                    "cli": cli,
                    "npy": lambda a=npy_argv: cli(a),
                }, rounds)  # fmt: skip
                (y_file,) = run_program(path, "gemv", *args)
                with np.load(out) as d:
                    y_cli = d["result0"]
                cli(npy_argv)
                with np.load(out) as d:
                    y_npy = d["result0"]
                expected = y if expected is None else expected
                for other in (y, y_file, y_cli, y_npy):
                    assert other.tobytes() == expected.tobytes(), f"{form}: results differ"
                kw, kc = best["kernel"]
                print(f"  {form:10s} {len(text) / 1e6:5.2f} {kw * 1e3:7.1f} "
                      f"{best['file'][0] * 1e3:7.1f} {best['file'][0] / kw:6.2f} "
                      f"{best['file'][1] / kc:6.2f} {best['cli'][0] * 1e3:7.1f} "
                      f"{best['cli'][0] / kw:6.2f} {best['npy'][0] * 1e3:7.1f} "
                      f"{best['npy'][0] / kw:6.2f} {best['module'][0] * 1e3:7.1f} "
                      f"{best['module'][0] / kw:6.2f} {first * 1e3:7.0f} {first / kw:6.2f}")
        finally:
            if saved is None:
                os.environ.pop(module_cache.ENV_DIR, None)
            else:
                os.environ[module_cache.ENV_DIR] = saved
    print("  file: interpreter.run(path) with the module cache warm; cpu: its process-CPU "
          "ratio; cli: pto-run with .npz I/O; npy: with a folder of .npy inputs (memory-mapped); "
          "module: a loaded, planned module; first: empty cache")


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
