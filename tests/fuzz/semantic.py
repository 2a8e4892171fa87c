"""The semantic fuzzer of the lowering (issue 23): wrong answers, not crashes.

For each program of :mod:`tests.fuzz.programs`: parse and verify it, run it with the
reference interpreter (``interpreter.run`` before lowering) on random inputs that include
NaNs (quiet, signalling, with payloads, negative), infinities, signed zeros, subnormals and
the extremes; lower it with ``pto-lower{level=tile}`` and with ``pto-lower`` (register-
assigned blocks), run both, and compare with the reference:

* bit for bit (integers; floats, signed zeros included), except that two NaNs are equal when
  the program has an op whose NaN payload MLIR leaves open (arithmetic, conversions,
  maxnum/maximum; docs/decisions.md D21) -- a program made only of selects, negations,
  absolute values and data movement must keep the payload exactly;
* a float contraction (the last stage): NaN where the reference is NaN, the same infinity,
  and finite results within ``(2K + 2) u S + K t`` of the reference, S = sum |a||b| + |c|
  in float64, u and t the unit roundoff and the smallest subnormal of the accumulation
  type (docs/decisions.md D18, D4: both sides are K-step chains of one or two roundings);
* a program with dense constants is also run as its *twin*, the constants passed as
  arguments holding the intended bits: the constants must be read as those bits.

Outcomes: ``ok``; ``ok-partial`` (some ops kept unlowered -- the report names them);
``skipped-undefined`` (the reference met undefined behaviour or poison); ``refused`` (the
lowering declined with a diagnostic, e.g. capacity); ``known`` (a finding explained by a
bug in :data:`UNFIXED`); ``finding`` (a mismatch, a crash, a fault after lowering).
Each finding is minimised (stages dropped, bodies and shapes shrunk) and written as a
reproducer (``.mlir`` with the input seed in a comment).

    python -m tests.fuzz.semantic --programs 5000 --seed 1      # make fuzz-semantic
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
import warnings
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from tests.fuzz.programs import (
    CLASSES,
    ELTS,
    NP_DTYPE,
    Limits,
    Program,
    bits_value,
    generate,
    make_inputs,
    quiet_snans,
)

ROOT = Path(__file__).resolve().parents[2]

UNFIXED: dict[str, str] = {}
"""Known bugs being fixed elsewhere, by program feature (``Program.keys``: ``hex-dense``,
``index``, ``maxnumf``, ``int-sum-0d``): a finding of a program with such a feature is
``known`` (after the feature's check, :func:`explain_known`) instead of a finding. Empty
now: the four bugs the first campaigns met (issue 23 items 1 and 2, the reference
interpreter's maxnumf with a signalling NaN and its 0-d integer reductions) are fixed;
add a key while a new bug's fix is under way."""

OUTCOMES = ("ok", "ok-partial", "skipped-undefined", "refused", "known", "finding")


@dataclass
class Outcome:
    kind: str
    detail: str = ""
    leftovers: list[str] = field(default_factory=list)
    known: str = ""


_CTX = None


def _context():
    global _CTX
    if _CTX is None:
        from interpreter.ssa.runner import build_context

        _CTX = build_context()
    return _CTX


def _parse(text: str):
    from interpreter.ssa.runner import parse_module_text

    return parse_module_text(text)  # interpreter.run verifies


def _lower(module, level: str, options: dict | None = None):
    from passes.pto_lower import PTOLowerPass

    out = module.clone()
    PTOLowerPass(level=level, **(options or {})).apply(_context(), out)
    return out  # verified by interpreter.run


def _undefined(err: Exception) -> bool:
    text = f"{err} {getattr(err, 'details', '')}".lower()
    return "undefined behaviour" in text or "(poison)" in text or "(undefined)" in text


def compare(before: np.ndarray, after: np.ndarray, program: Program,
            inputs: list[np.ndarray]) -> str | None:
    """Why ``after`` is not ``before`` under ``program``'s policy, or None."""
    before, after = np.asarray(before), np.asarray(after)
    if before.shape != after.shape or before.dtype != after.dtype:
        return f"result {after.dtype}{after.shape} != reference {before.dtype}{before.shape}"
    if before.dtype.kind in "iub":
        bad = before != after
    else:
        if program.contraction:
            return _compare_contraction(before, after, program, inputs)
        w = f"u{before.dtype.itemsize}"
        nan_b = np.isnan(before.astype(np.float32))
        nan_a = np.isnan(after.astype(np.float32))
        bad = before.view(w) != after.view(w)
        if program.free_nan:
            bad &= ~(nan_b & nan_a)
    if not bad.any():
        return None
    idx = tuple(int(i) for i in np.argwhere(bad)[0]) if bad.ndim else ()
    return (f"{int(bad.sum())} of {bad.size} elements differ; at {list(idx)}: "
            f"{_show(before[idx])} expected, got {_show(after[idx])}")


def _show(x) -> str:
    x = np.asarray(x)
    if x.dtype.kind in "iub":
        return str(x)
    bits = int(x.view(f"u{x.dtype.itemsize}"))
    return f"{float(x)!r} (0x{bits:0{x.dtype.itemsize * 2}X})"


def _compare_contraction(before, after, program: Program, inputs) -> str | None:
    b64 = before.astype(np.float64)
    a64 = after.astype(np.float64)
    ops = [np.abs(inputs[i].astype(np.float64)) for i in program.contraction_args]
    with np.errstate(all="ignore"):
        s = np.matmul(ops[0], ops[1])
        if program.contraction_init is not None:
            lit = program.contraction_init
            c = bits_value(int(lit, 16), program.contraction_elt) if lit.startswith("0x") else float(lit)
            s = s + abs(c)
        else:
            s = s + ops[2]
        if program.contraction_bias is not None:  # one more rounding, of a sum with |bias|
            s = s + np.abs(inputs[program.contraction_bias].astype(np.float64))
    k = program.contraction_k + (program.contraction_bias is not None)
    elt = program.contraction_elt
    info = np.finfo(NP_DTYPE[elt])
    u = float(info.eps) / 2
    tiny = float(info.smallest_subnormal)
    bound = (2 * k + 2) * u * s + (k + 1) * tiny
    nan_b, nan_a = np.isnan(b64), np.isnan(a64)
    with np.errstate(all="ignore"):
        bad = (nan_b != nan_a) | (np.isinf(b64) & (a64 != b64)) | (
            ~nan_b & ~np.isinf(b64) & ~(np.abs(a64 - b64) <= bound))
    if not bad.any():
        return None
    idx = tuple(int(i) for i in np.argwhere(bad)[0]) if bad.ndim else ()
    return (f"{int(bad.sum())} of {bad.size} elements outside the D18 contraction bound; at "
            f"{list(idx)}: {_show(before[idx])} expected, got {_show(after[idx])}, "
            f"bound {float(np.asarray(bound)[idx]):.3g}")


def _opts(program: Program) -> str:
    o = program.lower_options
    return f" (tile-bytes={o['tile_bytes']} pes={o['pes']})" if o else ""


def _leftovers(module) -> list[str]:
    from passes.lowering.leftovers import find_leftovers

    return [f"{lo.op.name}: {lo.reason}" for lo in find_leftovers(module)]


def check(program: Program, seed: int, inputs: list[np.ndarray] | None = None) -> Outcome:
    """Run one program before and after lowering (see the module docstring) on ``inputs``
    (default: :func:`make_inputs` of ``seed``)."""
    from xdsl.utils.exceptions import PassFailedException

    from interpreter import run
    from interpreter.ssa.runner import RunError
    from pto_dialect.faults import PTOFault

    try:
        module = _parse(program.text)
    except Exception as e:  # the generator wrote an invalid program: a fuzzer bug
        return Outcome("finding", f"invalid program: {str(e).splitlines()[0][:300]}")
    if inputs is None:
        inputs = make_inputs(program.args, seed)
    try:
        before = run(module, "f", *inputs)[0]
    except RunError as e:
        if _undefined(e):
            return Outcome("skipped-undefined", str(e)[:200])
        return Outcome("finding", f"reference: {str(e)[:300]}")
    except PTOFault as e:
        return Outcome("finding", f"reference: PTOFault {e}"[:300])
    except Exception as e:  # an exception escaped interpreter.run
        return Outcome("finding", f"reference crashed: {type(e).__name__}: {str(e)[:300]}")
    if program.twin is not None:
        twin = run(_parse(program.twin), "f", *inputs, *[v for _, v in program.constants])[0]
        why = compare(twin, before, replace(program, contraction=False), inputs)
        if why:
            return Outcome("finding", f"dense constants: not the bits written: {why}")
    leftovers: list[str] = []
    for level in ("tile", "block"):
        try:
            low = _lower(module, level, program.lower_options)
        except PassFailedException as e:
            return Outcome("refused", f"pto-lower{{level={level}}}: {str(e).splitlines()[0]}")
        except Exception as e:
            return Outcome("finding", f"pto-lower{{level={level}}} crashed{_opts(program)}: "
                                      f"{type(e).__name__}: "
                                      f"{str(e).splitlines()[0] if str(e) else ''}"[:400])
        if level == "tile":
            leftovers = _leftovers(low)
        try:
            after = run(low, "f", *inputs)[0]
        except (RunError, PTOFault) as e:
            return Outcome("finding", f"level={level}{_opts(program)}: the lowered program failed: "
                                      f"{type(e).__name__}: {str(e)[:300]}")
        except Exception as e:
            return Outcome("finding", f"level={level}: running the lowered program crashed: "
                                      f"{type(e).__name__}: {str(e)[:300]}")
        why = compare(before, after, program, inputs)
        if why:
            return Outcome("finding", f"level={level}: {why}{_opts(program)}", leftovers)
    return Outcome("ok-partial" if leftovers else "ok", leftovers=leftovers)


def explain_known(program: Program, seed: int, outcome: Outcome) -> str:
    """The :data:`UNFIXED` key that explains a finding, or ''."""
    keys = program.keys & set(UNFIXED)
    if "hex-dense" in keys and "dense constants" in outcome.detail:
        return "hex-dense"
    if "maxnumf" in keys:  # confirmed only if the finding goes away with quiet NaNs
        quiet = check(program, seed, quiet_snans(make_inputs(program.args, seed)))
        if quiet.kind != "finding":
            return "maxnumf"
    if "int-sum-0d" in keys and "reference crashed: OverflowError" in outcome.detail:
        return "int-sum-0d"
    for k in ("index", "hex-dense"):
        if k in keys:
            return k
    return ""


def classify(seed: int, limits: Limits | None = None) -> tuple[Program, Outcome]:
    program = generate(seed, limits)
    try:
        outcome = check(program, seed)
    except Exception as e:  # the harness itself: reported, never fatal
        tb = traceback.format_exc().strip().splitlines()[-1]
        outcome = Outcome("finding", f"harness error: {type(e).__name__}: {tb}"[:400])
    if outcome.kind == "finding":
        key = explain_known(program, seed, outcome)
        if key:
            outcome.kind, outcome.known = "known", key
    return program, outcome


def minimise(seed: int, outcome: Outcome) -> tuple[Program, Outcome, Limits]:
    """Smaller programs of ``seed`` with a finding of the same kind: fewer stages, shallower
    bodies, smaller dims (each stage has its own random stream, so the others stay)."""
    limits = Limits()
    program = generate(seed, limits)
    best = (program, outcome, limits)
    head = outcome.detail.split(":")[0]

    def same(lim: Limits) -> bool:
        nonlocal best
        p, o = classify(seed, lim)
        if o.kind == "finding" and o.detail.split(":")[0] == head:
            best = (p, o, lim)
            return True
        return False

    for n in range(1, program.stages):
        if same(replace(limits, stages=n)):
            limits = best[2]
            break
    for i in range(best[0].stages):
        for d in (0, 1):
            lim = replace(limits, depth={**limits.depth, i: d})
            if same(lim):
                limits = lim
                break
    for cap in (8, 4, 2, 1):
        lim = replace(limits, max_dim=cap)
        if same(lim):
            limits = lim
    return best


def reproducer(out_dir: Path, seed: int, program: Program, outcome: Outcome,
               limits: Limits) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"semantic-{seed}.mlir"
    header = [
        f"// semantic fuzzer finding, program seed {seed}: {outcome.detail}",
        f"// minimised with {limits}; pto-lower options {program.lower_options or 'default'}",
        f"// inputs: tests.fuzz.programs.make_inputs(generate({seed}, limits).args, {seed})",
    ]
    path.write_text("\n".join(header) + "\n" + program.text)
    np.savez(path.with_suffix(".npz"), *make_inputs(program.args, seed))
    return path


def campaign(n: int, seed: int, out_dir: Path | None, log=print, start: int = 0,
             progress: int = 0) -> dict:
    by_outcome: Counter = Counter()
    by_class: dict[str, Counter] = {c: Counter() for c in CLASSES}
    by_elt: dict[str, Counter] = {e: Counter() for e in ELTS}
    kept: Counter = Counter()
    known: Counter = Counter()
    refused: Counter = Counter()
    findings: list[tuple[int, Outcome, Path | None]] = []
    t0 = time.process_time()
    warnings.filterwarnings("ignore", category=RuntimeWarning)  # numpy's overflow notes
    for i in range(start, start + n):
        s = seed * 1_000_000 + i
        program, outcome = classify(s)
        by_outcome[outcome.kind] += 1
        for c in program.classes:
            by_class[c][outcome.kind] += 1
        for e in program.elts:
            by_elt[e][outcome.kind] += 1
        for lo in outcome.leftovers:
            kept[lo.split(":")[0]] += 1
        if outcome.known:
            known[outcome.known] += 1
        if outcome.kind == "refused":
            refused[outcome.detail[:160]] += 1
        if progress and (i + 1 - start) % progress == 0:
            log(f"[{i + 1 - start}/{n}] " + ", ".join(f"{by_outcome[o]} {o}" for o in OUTCOMES)
                + f"; {time.process_time() - t0:.0f} CPU-s")
        if outcome.kind == "finding":
            path = None
            if out_dir is not None:
                p, o, lim = minimise(s, outcome)
                path = reproducer(out_dir, s, p, o, lim)
            findings.append((s, outcome, path))
            log(f"FINDING seed {s}: {outcome.detail}" + (f"\n  reproducer: {path}" if path else ""))
    cpu = time.process_time() - t0
    _report(n, by_outcome, by_class, by_elt, kept, known, findings, cpu, log)
    for why, count in refused.most_common(5):
        log(f"refused ({count}): {why}")
    return {"outcomes": by_outcome, "classes": by_class, "elts": by_elt, "findings": findings,
            "known": known, "cpu": cpu}


def _table(title: str, rows: dict[str, Counter], log) -> None:
    log(f"\n{title:<14}" + "".join(f"{o:>18}" for o in OUTCOMES))
    for name, c in rows.items():
        log(f"{name:<14}" + "".join(f"{c[o]:>18}" for o in OUTCOMES))


def _report(n, by_outcome, by_class, by_elt, kept, known, findings, cpu, log) -> None:
    log(f"\n{n} programs in {cpu:.0f} CPU-s: "
        + ", ".join(f"{by_outcome[o]} {o}" for o in OUTCOMES))
    _table("class", by_class, log)
    _table("element type", by_elt, log)
    if known:
        log("\nknown (UNFIXED): " + ", ".join(f"{k} {v}" for k, v in known.most_common()))
    if kept:
        log("\nops kept unlowered (programs): " + ", ".join(f"{k} {v}" for k, v in
                                                          kept.most_common(12)))
    log(f"\n{len(findings)} finding(s)")
    for s, o, path in findings:
        log(f"  seed {s}: {o.detail}" + (f" [{path}]" if path else ""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--programs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--progress", type=int, default=0, help="print counts every N programs")
    ap.add_argument("--start", type=int, default=0,
                    help="first program index (split one campaign over processes)")
    ap.add_argument("--out", default=str(ROOT / "fuzz-findings"),
                    help="directory of the minimised reproducers ('' for none)")
    ap.add_argument("--show", type=int, help="print the program of this seed and its outcome")
    args = ap.parse_args(argv)
    if args.show is not None:
        p, o = classify(args.show)
        print(p.text)
        print(f"classes {sorted(p.classes)}, types {sorted(p.elts)}, keys {sorted(p.keys)}")
        print(f"{o.kind}: {o.detail} {o.known}")
        for lo in o.leftovers:
            print(f"  kept: {lo}")
        return 0
    result = campaign(args.programs, args.seed, Path(args.out) if args.out else None,
                      start=args.start, progress=args.progress)
    return 1 if result["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
