"""Interpreter overhead per pto op on tiny tiles (issue: interpreter benchmarks).

A function of ``OPS`` chained ``pto.trem`` ops on 8x16 si32 tiles (one PE and four PEs) is run
through ``interpreter.run``; the figure is (time per op) / (time of one direct kernel call on
the same payload), both measured in this run.
"""

from __future__ import annotations

import numpy as np

from benchmarks.bench_kernels import best_of

OPS = 200


def _program(mask: str) -> str:
    ty = f"!pto.tile<8x16xsi32, pe={mask}>"
    lines = [f"func.func @main(%a: {ty}, %b: {ty}) -> {ty} {{", "  %r0 = pto.trem %a, %b"
             f" {{mask = #pto.mask<{mask}>}} : {ty}"]
    for i in range(1, OPS):
        lines.append(f"  %r{i} = pto.trem %r{i - 1}, %b {{mask = #pto.mask<{mask}>}} : {ty}")
    lines += [f"  func.return %r{OPS - 1} : {ty}", "}"]
    return "\n".join(lines)


def run(quick: bool = False) -> None:
    from interpreter import kernels
    from interpreter import run as run_program
    from interpreter.runner import load_module

    rng = np.random.default_rng(0)
    a = rng.integers(-1000, 1000, (8, 16), dtype=np.int32)
    b = rng.integers(1, 50, (8, 16), dtype=np.int32)
    print("\n== interpreter overhead per pto op (8x16 si32 TREM tiles) ==")
    direct = best_of(lambda: kernels.trem_tile(a, b, (8, 16), "null", "S32"), repeat=50)
    for mask in ("1000", "1111"):
        module = load_module(_program(mask))
        t = best_of(lambda m=module: run_program(m, "main", a, b), repeat=3 if quick else 5)
        per_op = t / OPS
        print(
            f"mask {mask}: {per_op * 1e6:8.1f} us per op; one direct kernel call "
            f"{direct * 1e6:6.1f} us; ratio {per_op / direct:5.1f}x"
        )
