"""A seeded mutation fuzzer of ``pto-opt`` and ``pto-run`` (issue 13), run in-process.

Seeds: the examples and lit tests (MLIR), assembly and hex words made from the examples,
and ``.npz`` inputs of a small kernel. Each mutant is one seed with 1-3 random edits (delete,
duplicate or swap spans and lines, splice tokens from other seeds, extreme numbers, stray
quotes and braces, truncation, byte flips), fed to the tool the way a user would: MLIR with
no pass, with ``pto-lower`` (tile or block level) and a target, with a mutated pipeline, assembly to ``-t pto-bin``,
hex to ``-t pto-asm``, MLIR and ``.npz`` to ``pto-run``.

Outcomes: ``ok`` (status 0), ``rejected`` (status 1, a diagnostic), and the failures the
tool boundary must never show -- ``internal`` (an "internal error" line), ``traceback``
(an exception escaped the tool, or "Traceback" on stderr), ``hang`` (over the time bound),
``bad-status`` (status 1 with an empty stderr, or status 0 with an error message).

    python -m tests.fuzz.fuzz --mutants 20000 --seed 1     # make fuzz
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAILURES = ("internal", "traceback", "hang", "bad-status")

_EXTREMES = [
    "0", "-1", "1", "65535", "65536", "131072", "2147483648", "9223372036854775808",
    "18446744073709551616", "100000000000000000000", "1.0e+39", "65537.0", "nan", "-0",
    "0x7FFFFFFF", "0xFFFFFFFF", "0x0", "?",
]
_SNIPPETS = ['"', "{", "}", "(", ")", "<", ">", "%", "@", "^bb1", ":", ",", "x", "\n", "//",
             "#", "!", "[", "]", "f128", "f80", "i1", "index", "-> ()", "0x", "dense<"]


_PIPELINES = [
    "pto-lower",
    "pto-lower{level=tile}",
    "convert-linalg-to-pto,pto-tile-to-capacity{tile-bytes=4096 pes=2}",
    "pto-tile-to-capacity{chain=memory target=a5}",
]


class Hang(BaseException):
    """Raised by the alarm: the mutant exceeded its time bound (not an Exception, so the
    tool boundary lets it through)."""


@dataclass
class Seed:
    kind: str  # mlir | asm | hex | npz
    name: str
    data: bytes


@dataclass
class Result:
    outcome: str
    detail: str = ""


@dataclass
class Report:
    counts: Counter = field(default_factory=Counter)
    failures: list[tuple[str, str, str, bytes]] = field(default_factory=list)


def _mlir_seeds() -> list[Seed]:
    paths = sorted((ROOT / "examples").glob("*.mlir")) + sorted(
        (ROOT / "tests" / "filecheck").rglob("*.mlir")
    )
    return [Seed("mlir", str(p.relative_to(ROOT)), p.read_bytes()) for p in paths]


def _run_tool(main: Callable[[list[str]], int], argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="strict")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as e:  # argparse
                status = e.code if isinstance(e.code, int) else 1
    finally:
        sys.stdin = old_stdin
    return int(status or 0), out.getvalue(), err.getvalue()


def _opt(argv: list[str]) -> int:
    from pto_dialect.tools.pto_opt import main

    return main(argv)


def _run(argv: list[str]) -> int:
    from interpreter.tools.pto_run import main

    return main(argv)


def derived_seeds() -> list[Seed]:
    """Assembly and hex of two small examples, and the inputs of a small kernel."""
    seeds: list[Seed] = []
    with tempfile.TemporaryDirectory() as d:
        for ex in ("remui_u32.mlir", "mxfp8_gemv.mlir"):
            path = str(ROOT / "examples" / ex)
            for target, kind in (("pto-asm", "asm"), ("pto-bin", "hex")):
                status, out, _ = _run_tool(_opt, [path, "-p", "pto-lower", "-t", target])
                if status == 0 and out:
                    # keep the first few blocks: mutants stay small and fast
                    text = "\n\n".join(out.split("\n\n")[:6]) if kind == "asm" else "\n".join(
                        out.splitlines()[:60]
                    )
                    seeds.append(Seed(kind, f"{ex}:{target}", text.encode()))
        import numpy as np

        npz = os.path.join(d, "in.npz")
        np.savez(npz, arg0=np.arange(8, dtype=np.int32).reshape(2, 4),
                 arg1=np.full((2, 4), 3, dtype=np.int32))
        seeds.append(Seed("npz", "remsi-inputs", Path(npz).read_bytes()))
    return seeds


NPZ_PROGRAM = """\
func.func @main(%a: tensor<2x4xi32>, %b: tensor<2x4xi32>) -> tensor<2x4xi32> {
  %e = tensor.empty() : tensor<2x4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x4xi32>, tensor<2x4xi32>) outs(%e : tensor<2x4xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.addi %x, %y : i32
    linalg.yield %q : i32
  } -> tensor<2x4xi32>
  func.return %r : tensor<2x4xi32>
}
"""

_TOKEN = re.compile(rb"[%@^#!]?[\w.$-]+|\S")


def mutate(rng: random.Random, seed: Seed, tokens: list[bytes]) -> bytes:
    data = seed.data
    for _ in range(rng.randint(1, 3)):
        data = _one_edit(rng, seed.kind, data, tokens)
    return data


def _one_edit(rng: random.Random, kind: str, data: bytes, tokens: list[bytes]) -> bytes:
    if not data:
        return rng.choice(tokens)
    n = len(data)
    i = rng.randrange(n)
    j = min(n, i + rng.randint(1, 40))
    if kind == "npz":
        choice = rng.randrange(4)
        if choice == 0:
            return data[: rng.randrange(n)]
        if choice == 1:
            b = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                b[rng.randrange(n)] = rng.randrange(256)
            return bytes(b)
        if choice == 2:
            return rng.choice([b"\x93NUMPY\x01\x00", b"\x80\x04K\x01.", b"hello\n", b""]) + data[:64]
        return data[:i] + data[j:]
    if kind == "hex" and rng.random() < 0.5:
        lines = data.split(b"\n")
        k = rng.randrange(len(lines))
        word = rng.getrandbits(rng.choice((16, 32)))
        lines[k] = (f"0x{word:08X}" if word >> 16 else f"0x{word:04X}").encode()
        return b"\n".join(lines)
    op = rng.randrange(9)
    if op == 0:  # delete a span
        return data[:i] + data[j:]
    if op == 1:  # duplicate a span
        return data[:j] + data[i:j] + data[j:]
    if op == 2:  # swap two lines
        lines = data.split(b"\n")
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
        return b"\n".join(lines)
    if op == 3:  # replace a token by a token of the corpus
        ms = list(_TOKEN.finditer(data))
        if not ms:
            return data
        m = rng.choice(ms)
        return data[: m.start()] + rng.choice(tokens) + data[m.end():]
    if op == 4:  # an extreme number in place of a number
        ms = list(re.finditer(rb"-?\d+(\.\d+)?(e[+-]?\d+)?", data))
        if not ms:
            return data
        m = rng.choice(ms)
        return data[: m.start()] + rng.choice(_EXTREMES).encode() + data[m.end():]
    if op == 5:  # a stray snippet
        return data[:i] + rng.choice(_SNIPPETS).encode() + data[i:]
    if op == 6:  # truncate
        return data[:i]
    if op == 7:  # delete a line
        lines = data.split(b"\n")
        del lines[rng.randrange(len(lines))]
        return b"\n".join(lines)
    # an unterminated string or a long run of letters
    return data[:i] + b'"' + bytes(rng.choice(b"abcxyz") for _ in range(rng.randint(1, 60))) + data[i:]


def _alarm(signum, frame):
    raise Hang()


def classify(status: int, err: str) -> str:
    if "Traceback (most recent call last)" in err:
        return "traceback"
    if "internal error" in err:
        return "internal"
    if status == 0:
        return "ok" if "error" not in err.lower() or "warning" in err.lower() else "bad-status"
    if not err.strip() and status != 0:
        return "bad-status"
    return "rejected"


def run_one(rng: random.Random, seed: Seed, data: bytes, tmp: str, time_bound: float) -> Result:
    ext = {"mlir": ".mlir", "asm": ".pto.s", "hex": ".hex", "npz": ".npz"}[seed.kind]
    path = os.path.join(tmp, "mutant" + ext)
    with open(path, "wb") as f:
        f.write(data)
    if seed.kind == "mlir":
        r = rng.random()
        if r < 0.55:
            argv, tool = [path], _opt
        elif r < 0.7:
            argv, tool = [path, "-p", "pto-lower{level=tile}"], _opt
        elif r < 0.8:
            argv, tool = [path, "-p", "pto-lower", "-t", rng.choice(["pto-asm", "pto-bin"])], _opt
        elif r < 0.95:
            argv, tool = [path, "--symbol", rng.choice(["main", "@main", "f"])], _run
        else:  # a mutated pass pipeline
            spec = rng.choice(_PIPELINES).encode()
            spec = _one_edit(rng, "pipeline", spec, [s.encode() for s in _SNIPPETS])
            argv, tool = [path, "-p", spec.decode("utf-8", "replace")], _opt
    elif seed.kind == "asm":
        argv, tool = [path, "-t", rng.choice(["pto-bin", "pto-asm", "mlir"])], _opt
    elif seed.kind == "hex":
        argv, tool = [path, "-t", rng.choice(["pto-asm", "mlir"])], _opt
    else:
        prog = os.path.join(tmp, "prog.mlir")
        if not os.path.exists(prog):
            Path(prog).write_text(NPZ_PROGRAM)
        argv, tool = [prog, "--inputs", path, "--output", os.path.join(tmp, "out.npz")], _run
    signal.setitimer(signal.ITIMER_REAL, time_bound)
    try:
        status, _, err = _run_tool(tool, argv)
    except Hang:
        return Result("hang", " ".join(argv))
    except BaseException as e:  # noqa: BLE001 - an escaped exception is a finding
        return Result("traceback", f"{type(e).__name__}: {e}"[:300])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    outcome = classify(status, err)
    return Result(outcome, err.strip().splitlines()[-1][:300] if err.strip() else "")


def fuzz(mutants: int, seed: int, time_bound: float = 20.0, log: Callable[[str], None] | None = None,
         kinds: tuple[str, ...] = ("mlir", "asm", "hex", "npz")) -> Report:
    rng = random.Random(seed)
    seeds = [s for s in _mlir_seeds() + derived_seeds() if s.kind in kinds]
    tokens = sorted({m.group(0) for s in seeds if s.kind != "npz" for m in _TOKEN.finditer(s.data)})
    report = Report()
    old = signal.signal(signal.SIGALRM, _alarm)
    start = time.monotonic()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for i in range(mutants):
                s = rng.choice(seeds)
                data = mutate(rng, s, tokens)
                res = run_one(rng, s, data, tmp, time_bound)
                report.counts[res.outcome] += 1
                if res.outcome in FAILURES:
                    report.failures.append((res.outcome, s.name, res.detail, data))
                    if log:
                        log(f"  mutant {i}: {res.outcome}: seed {s.name}: {res.detail}")
                if log and (i + 1) % 1000 == 0:
                    log(f"{i + 1} mutants, {time.monotonic() - start:.0f} s: {dict(report.counts)}")
    finally:
        signal.signal(signal.SIGALRM, old)
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz.fuzz", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mutants", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time-bound", type=float, default=20.0, help="seconds per mutant")
    p.add_argument("--save", metavar="DIR", help="write failing mutants here")
    a = p.parse_args(argv)
    report = fuzz(a.mutants, a.seed, a.time_bound, log=lambda m: print(m, flush=True))
    print(f"fuzz: {a.mutants} mutants (seed {a.seed}): "
          + ", ".join(f"{k} {v}" for k, v in sorted(report.counts.items())))
    for k, (outcome, name, detail, data) in enumerate(report.failures[:50]):
        print(f"  {outcome}: seed {name}: {detail}")
        if a.save:
            os.makedirs(a.save, exist_ok=True)
            Path(a.save, f"{k:04d}-{outcome}.bin").write_bytes(data)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
