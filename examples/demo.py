"""The flagship example end to end: an MXFP8 GEMV written in linalg, lowered to PTO, run.

``make demo`` runs this file. Steps:

1. parse and verify ``examples/mxfp8_gemv.mlir`` (a linalg.generic MX GEMV, K = 5000, N = 1000);
2. run it with the numpy interpreter (``interpreter.run``);
3. lower it with ``pto-lower`` (recognition, tiling to 64 KiB per PE on 4 PEs, and, where the
   pipeline reaches it, blocks with assigned tile registers) and show the result;
4. run the lowered program and compare it with step 2 and with one call of the kernel API;
5. print the block assembly (``-t pto-asm``) of the lowered program when blocks are formed.
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
from interpreter.runner import build_context, load_module  # noqa: E402
from passes import get_all_passes, get_all_targets  # noqa: E402
from passes.pto_tile_to_capacity import executed_op_counts  # noqa: E402

EXAMPLE = HERE / "mxfp8_gemv.mlir"
SYMBOL = "mxfp8_gemv"


def banner(text: str) -> None:
    print(f"\n=== {text} " + "=" * max(0, 70 - len(text)))


def main() -> int:
    ctx = build_context()
    banner(f"1. {EXAMPLE.name}: linalg input")
    module = load_module(EXAMPLE, ctx)
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    sig = ", ".join(str(t) for t in fn.function_type.inputs.data)
    print(f"@{SYMBOL}({sig}) -> {fn.function_type.outputs.data[0]}")
    print(f"ops: {sorted({op.name for op in module.walk()})}")

    rng = np.random.default_rng(2024)
    args = [values(t, rng, False) for t in fn.function_type.inputs.data]

    banner("2. run before lowering (numpy interpreter)")
    t0 = time.perf_counter()
    (before,) = run(module, SYMBOL, *args)
    print(f"y[:6] = {before[:6]}   ({(time.perf_counter() - t0) * 1e3:.0f} ms)")

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
    bound = -(-5000 * 1000 // (4 * 65536))
    print(f"lower bound ceil(bytes of B / (4 PEs x 64 KiB)) = {bound}")
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
    else:
        print("pto-lower stops at tile level in this build: no blocks to print")
    print("\nresult:", "OK, lowered program matches the linalg program" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
