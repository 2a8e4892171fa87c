"""The flagship example end to end: an MXFP8 GEMV written in linalg, lowered to PTO, run.

``make demo`` runs this file. Steps:

1. parse and verify ``examples/mxfp8_gemv.mlir`` (a linalg.generic MX GEMV, K = 5000, N = 1000);
2. run it with the numpy interpreter (``interpreter.run``);
3. lower it with ``pto-lower`` (recognition, tiling to 64 KiB per PE on 4 PEs, and, where the
   pipeline reaches it, blocks with assigned tile registers) and show the result;
4. run the lowered program and compare it with step 2 and with one call of the kernel API;
5. print the block assembly (``-t pto-asm``) of the lowered program when blocks are formed.

Each figure is followed by a ``->`` note saying what it is compared with and why it matters.
``make demo`` then runs ``mx_quantize_mlp.py`` (MX quantization of an ONNX MLP layer).
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "Inputs"))

from gen_inputs import values  # noqa: E402
from xdsl.dialects import func  # noqa: E402
from xdsl.passes import PassPipeline  # noqa: E402
from xdsl.printer import Printer  # noqa: E402

from interpreter import kernels, run  # noqa: E402
from interpreter.ssa.runner import build_context, load_module  # noqa: E402
from passes import get_all_passes, get_all_targets  # noqa: E402
from passes.pto_tile_to_capacity import executed_op_counts  # noqa: E402

EXAMPLE = HERE / "mxfp8_gemv.mlir"
SYMBOL = "mxfp8_gemv"


def banner(text: str) -> None:
    print(f"\n=== {text} " + "=" * max(0, 70 - len(text)))


def note(*lines: str) -> None:
    """An explanation under a figure: what is compared with what, and why it matters."""
    print("\n".join("  -> " + ln if i == 0 else "     " + ln for i, ln in enumerate(lines)))


def loop_summary(module) -> list[str]:
    """'17 stanzas in a loop body run 3 times' for each scf.for holding blocks."""
    from xdsl.dialects import scf

    out = []
    outside = sum(1 for op in module.walk() if op.name == "pto.block")
    for loop in (op for op in module.walk() if isinstance(op, scf.ForOp)):
        inner = sum(1 for op in loop.walk() if op.name == "pto.block")
        trips = executed_op_counts(loop)["pto.block"] // max(inner, 1)
        outside -= inner
        out.append(f"{inner} stanzas in an scf.for body run {trips} times")
    return [f"{outside} stanzas outside loops run once", *out]


def main() -> int:
    ctx = build_context()
    banner(f"1. {EXAMPLE.name}: linalg input")
    module = load_module(EXAMPLE, ctx)
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    sig = ", ".join(str(t) for t in fn.function_type.inputs.data)
    print(f"@{SYMBOL}({sig}) -> {fn.function_type.outputs.data[0]}")
    print(f"ops: {sorted({op.name for op in module.walk()})}")
    note("y = (x * xs) @ (W * ws) + bias: E4M3 codes times E8M0 scales (one per 32 K elements)",
         "in a single linalg.generic; nothing PTO-specific yet.")

    rng = np.random.default_rng(2024)
    args = [values(t, rng, False) for t in fn.function_type.inputs.data]

    banner("2. run before lowering (numpy interpreter)")
    t0 = time.perf_counter()
    (before,) = run(module, SYMBOL, *args)
    print(f"y[:6] = {before[:6]}   ({(time.perf_counter() - t0) * 1e3:.0f} ms)")
    note("The reference: the linalg program itself, run by the numpy interpreter (f32 sums",
         "in k order), on seeded random E4M3 codes and E8M0 scales.")

    banner("3. pto-opt -p pto-lower")
    lowered = load_module(EXAMPLE, ctx)
    t0 = time.perf_counter()
    PassPipeline.parse_spec(get_all_passes(), "pto-lower").apply(ctx, lowered)
    buf = io.StringIO()
    Printer(stream=buf).print_op(lowered)
    text = buf.getvalue()
    counts = executed_op_counts(lowered)
    compute = {k: v for k, v in counts.items() if k.startswith("pto.") and "load" not in k and "store" not in k}
    print(f"lowered in {(time.perf_counter() - t0) * 1e3:.0f} ms to {len(text)} bytes of IR")
    print(f"PTO ops executed (loop trip counts multiplied out): {dict(sorted(compute.items()))}")
    bound = -(-5000 * 1000 // (4 * 32768))
    n_cube = counts.get("pto.b.fpatr", 0)
    n_blocks = counts.get("pto.block", 0)
    print(f"lower bound ceil(bytes of B / (4 PEs x 32 KiB)) = {bound}; TGEMV blocks executed "
          f"= {n_cube}")
    note(f"Each pto.block is one BSTART..BSTOP; {n_blocks} blocks run. Every TGEMVMX block has "
         f"one B.FPATR, so {n_cube}",
         f"of them compute; every TLOAD/TSTORE block has one B.IOR (its GM address), so "
         f"{counts.get('pto.b.ior', 0)} move data.",
         "The bound: one TGEMV's tiles (A, W, scales, C, D) must fit the 256 KiB core tile",
         "capacity together on 4 PEs, so it reads at most 32 KiB of W per PE (64 KiB would fill "
         "it alone);",
         f"W holds 5000 x 1000 one-byte codes, so no lowering can use fewer than {bound} TGEMVs. "
         + (f"{n_cube} = {bound}: every TGEMV fills its capacity."
            if n_cube == bound else f"{n_cube} > {bound}: the N tail group runs under capacity."))
    print("\n".join(text.splitlines()[:14]) + "\n  ...")

    banner("4. run after lowering and compare")
    t0 = time.perf_counter()
    (after,) = run(lowered, SYMBOL, *args)
    print(f"y[:6] = {after[:6]}   ({(time.perf_counter() - t0) * 1e3:.0f} ms)")
    x, xs, w, ws, bias = args
    direct = kernels.tgemv_mx_bias(x, w, bias.reshape(1, -1), a_scale=xs.reshape(1, -1), b_scale=ws)
    # The linalg program accumulates in f32 in k order; PTO's default `ordered` profile is a
    # K-ordered FP32 FMA chain too (D4, ADR-0047), but the lowered program chains K chunks
    # through FP32 tensors. Both are within (K + nk + 1) * 2^-24 * sum|terms| of the exact
    # value, so compare on that scale.
    k = x.shape[0]
    av = np.abs(x.astype(np.float64) * np.repeat(xs.astype(np.float64), 32)[:k])
    bv = np.abs(w.astype(np.float64) * np.repeat(ws.astype(np.float64), 32, axis=0)[:k])
    terms = av @ bv + np.abs(bias.astype(np.float64))
    rel_before = np.max(np.abs(after - before) / terms)
    rel_kernel = np.max(np.abs(after - direct.reshape(-1)) / terms)
    print(f"max |after - before| / sum|terms| = {rel_before:.2e}  (bound (K+1)*2^-24 = {(k + 1) * 2**-24:.1e})")
    print(f"max |after - kernel API| / sum|terms| = {rel_kernel:.2e}")
    note(f"after = the lowered program ({n_cube} TGEMVMX over K chunks and N groups, `exact` profile:",
         "exact products, f32 rounding per chunk). before = linalg's f32 sums in k order. Any two",
         "f32 summation orders differ by at most (K+1)*2^-24 * sum|terms| (the bound above), so",
         "a difference under it is rounding order, not a lowering error. The kernel API",
         "computes the whole GEMV in one call (one rounding); the lowered program rounds",
         "once per K chunk, hence a few 2^-24 apart.")
    ok = rel_before <= (k + 1) * 2**-24 and rel_kernel <= 8 * 2**-24

    blocks = [op for op in lowered.walk() if op.name == "pto.block"]
    banner("5. block assembly (-t pto-asm)")
    if blocks:
        target = get_all_targets()["pto-asm"]()
        out = io.StringIO()
        target().emit(ctx, lowered, out)
        asm = out.getvalue().strip().split("\n\n")
        compute = [b for b in asm if "BSTART.TGEMV" in b or "BSTART.TMATMUL" in b]
        print(f"{len(asm)} block stanzas ({len(compute)} compute); the first load and compute:\n")
        print("\n\n".join([asm[0], *compute[:1]]))
        loops = loop_summary(lowered)
        note(f"The assembly is program text: each block appears once, so {len(asm)} stanzas "
             f"({len(compute)} compute)",
             f"stand for the {n_blocks} blocks ({n_cube} compute) step 3 counted as executed:",
             "; ".join(loops) + ".",
             "Loop control and GM addresses are scalar code outside the block ISA (the "
             "`# pseudo` lines).")
    else:
        print("pto-lower stops at tile level in this build: no blocks to print")
    print("\nresult:", "OK, lowered program matches the linalg program" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
