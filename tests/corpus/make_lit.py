"""Write one lit test per corpus program into ``tests/filecheck/corpus`` (issue 10, D19).

Run with the project's venv after the lowering changes (it runs the real lowering)::

    .venv/bin/python tests/corpus/make_lit.py [NAME ...]   # every program, or these

* A program that lowers completely: ``pto-lower`` leaves no ``linalg``/``math`` op and no
  ``arith`` on tensors, and ``-t pto-asm`` assembles it without a word on stderr (stderr is
  piped into FileCheck, so the ``CHECK-NOT`` lines before and after the assembly can fire).
* A program that does not: ``-t pto-asm`` must fail with exactly the recorded D19
  diagnostics (one line per leftover op, its location and why). No XFAIL: the test pins
  today's precise reason, so a change (an op that lands, a regression) shows up as a
  failure to look at, and this script rewrites the expectation.
"""

from __future__ import annotations

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "tests", "filecheck", "corpus")
sys.path.insert(0, HERE)

from corpus import CASES  # noqa: E402

PROGRAM = "%S/../../corpus/programs/{name}.mlir"


def _pto_opt(*args: str) -> subprocess.CompletedProcess[str]:
    exe = os.path.join(os.path.dirname(sys.executable), "pto-opt")
    return subprocess.run([exe, *args], capture_output=True, text=True)


def main(names: list[str]) -> int:
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith(".test") and (not names or f[:-5] in names):
            os.remove(os.path.join(OUT, f))
    full = 0
    for case in CASES:
        if names and case.name not in names:
            continue
        src = os.path.join(HERE, "programs", f"{case.name}.mlir")
        prog = PROGRAM.format(name=case.name)
        r = _pto_opt(src, "-p", "pto-lower", "-t", "pto-asm")
        lines = [f"// Corpus program {case.name} (tests/corpus, written by tests/corpus/make_lit.py)."]
        if r.returncode == 0:
            assert not r.stderr.strip(), (case.name, r.stderr)
            full += 1
            lines += [
                "// It lowers completely: -t pto-asm assembles it, which it refuses while any",
                "// linalg / math / arith-on-tensors op is left (D19).",
                "// stderr goes into FileCheck too (ahead of or among stdout), so an error or a",
                "// traceback printed by a run that still exits 0 fails the test.",
                f"// RUN: pto-opt {prog} -p pto-lower -t pto-asm 2>&1 | filecheck %s",
                "// CHECK-NOT: {{error|Error|Traceback}}",
                "// CHECK: BSTART.",
                "// CHECK-NOT: {{error|Error|Traceback}}",
            ]
        else:
            diag = [x for x in r.stderr.splitlines() if x.strip()]
            assert diag and "not lowered to PTO" in diag[0], (case.name, r.stderr)
            first = diag[0].removeprefix("pto-opt: error: ")
            lines += [
                "// It does not lower completely yet: -t pto-asm refuses it with one diagnostic",
                "// per leftover op (D19), exactly these:",
                f"// RUN: not pto-opt {prog} -p pto-lower -t pto-asm 2>&1 | filecheck %s",
                f"// CHECK: {{{{^}}}}pto-opt: error: {first}{{{{$}}}}",
            ]
            lines += [f"// CHECK-NEXT: {{{{^}}}}{d}{{{{$}}}}" for d in diag[1:]]
        with open(os.path.join(OUT, f"{case.name}.test"), "w") as f:
            f.write("\n".join(lines) + "\n")
    print(f"{len(names) or len(CASES)} lit tests written, {full} lowering completely")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
