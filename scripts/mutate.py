"""``make mutate``: mutation testing of the kernels, the verifiers and the lowering rows (issue 27).

A small runner of our own (mutmut and cosmic-ray mutate one installed package and run one test
command; we need the per-module fast test subsets below and lit for the verifiers). For each
mutant -- one deliberate bug -- it runs only the tests mapped to the mutated module, with a
timeout, in a copy of the repository (the worktree is never touched), and reports the mutants
no test kills.

Mutations (on the AST, one site at a time):

* ``cmp``: a comparison shifted at its boundary (``<`` <-> ``<=``, ``>`` <-> ``>=``) or negated
  (``==`` <-> ``!=``, ``is`` <-> ``is not``, ``in`` <-> ``not in``);
* ``arith``: ``+`` <-> ``-``;
* ``const``: an integer constant off by one (``n`` -> ``n + 1``);
* ``raise``: a ``raise`` under an ``if`` deleted (a verifier rule or a fault check removed);
* ``minmax``: ``np.fmax`` <-> ``np.fmin``, ``np.maximum`` <-> ``np.minimum``, ``max`` <-> ``min``;
* ``round``: ``np.floor`` <-> ``np.ceil``, ``np.rint`` <-> ``np.trunc``, and the rounding modes
  RNE <-> RNA, RTZ <-> RTO, RTM <-> RTP (as ``RoundingMode`` members or ``"rne"`` strings).

Usage::

    python scripts/mutate.py --sample 40 --seed 1 [--timeout 120] [--only kernels|verifiers|lowering]
    python scripts/mutate.py --list            # the sites, by module and kind
    python scripts/mutate.py --check-map       # every subset is green on the unmutated code

Survivors are written to ``scripts/mutation_survivors.txt`` (module:line, kind, the mutated
line, and the reason when ``scripts/mutation_equivalent.txt`` names it an equivalent
mutant). The survival rate is printed per group. Runs under ``nice``; each mutant's tests
have ``--timeout`` seconds; a mutant whose tests time out is listed as undecided and left out
of the rate (on a busy machine a slow subset times out without any mutant making it hang).
A subset runs its lit files first, then its pytest files; hypothesis runs under the
``mutate`` profile of tests/conftest.py (derandomized, no shrinking: reproducible verdicts, and
a failing property fails at once); lit passes PYTHONPATH to the tools, so they import the
mutated copy (tests/lit_support/lit_setup.py).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
SURVIVORS = ROOT / "scripts" / "mutation_survivors.txt"
EQUIVALENT = ROOT / "scripts" / "mutation_equivalent.txt"
CACHE = ROOT / ".mutate-cache"

LIT = "tests/filecheck/dialects/pto/"
# module -> the fast tests that should kill its mutants (pytest files, lit files).
KERNELS: dict[str, list[str]] = {
    "interpreter/kernels/accumulate.py": ["tests/interpreter/test_kernel_cube_fp32_ties.py", "tests/interpreter/test_kernel_cube.py", "tests/interpreter/test_kernel_numerics.py", "tests/interpreter/test_kernel_rescaled.py", "tests/interpreter/test_kernel_profiles.py", "tests/interpreter/test_kernel_tgemv.py", "tests/interpreter/test_cube_pinning_evidence.py", "tests/interpreter/test_mutants_seed5101.py"],
    "interpreter/kernels/compare.py": ["tests/evidence/test_compare_evidence.py", "tests/interpreter/test_kernel_legality.py", "tests/conformance/test_avs_compare.py", "tests/interpreter/test_kernel_api_faults.py", "tests/interpreter/test_valid_rect_classes.py"],
    "interpreter/kernels/convert.py": ["tests/evidence/test_convert_evidence.py", "tests/interpreter/test_kernel_legality.py", "tests/interpreter/test_kernel_speedpaths.py", "tests/interpreter/test_kernel_fastpaths.py", "tests/conformance/test_avs_convert.py", "tests/interpreter/test_numeric_status.py", "tests/interpreter/test_postprocess_status.py", "tests/interpreter/test_mutants_seed31.py", "tests/interpreter/test_numeric_jit.py", "tests/interpreter/test_convert_classes.py", "tests/interpreter/test_valid_rect_classes.py", "tests/interpreter/test_status_classes.py"],
    "interpreter/kernels/cube.py": ["tests/interpreter/test_kernel_integer_wrap.py", "tests/interpreter/test_kernel_cube_fp32_ties.py", "tests/interpreter/test_kernel_cube.py", "tests/evidence/test_cube_evidence.py", "tests/interpreter/test_kernel_tgemv.py", "tests/interpreter/test_kernel_profiles.py", "tests/interpreter/test_postprocess_status.py", "tests/interpreter/test_kernel_legality.py", "tests/conformance/test_avs_tile_model_cube.py", "tests/conformance/test_avs_block_exec.py"],
    "interpreter/kernels/elementwise.py": ["tests/interpreter/test_kernel_binary_edges.py", "tests/evidence/test_elementwise_evidence.py", "tests/interpreter/test_kernel_binary.py", "tests/interpreter/test_kernel_legality.py", "tests/interpreter/test_kernel_trem.py", "tests/conformance/test_avs_tile.py", "tests/conformance/test_avs_elementwise.py", "tests/interpreter/test_kernel_api_faults.py", "tests/evidence/test_binary_evidence.py", "tests/interpreter/test_kernel_numerics.py", "tests/interpreter/test_valid_rect_classes.py", "tests/interpreter/test_elementwise_classes.py"],
    "interpreter/kernels/move.py": ["tests/evidence/test_sort_move_evidence.py"],
    "interpreter/kernels/mx.py": ["tests/interpreter/test_kernel_integer_wrap.py", "tests/interpreter/test_kernel_mx.py", "tests/interpreter/test_mx_quantize.py", "tests/interpreter/test_kernel_rescaled.py", "tests/interpreter/test_kernel_profiles.py", "tests/interpreter/test_kernel_tgemv.py", "tests/conformance/test_avs_datatypes.py", "tests/interpreter/test_kernel_numerics.py", "tests/interpreter/test_kernel_cube.py"],
    "interpreter/kernels/nanfix.py": ["tests/interpreter/test_kernel_unary_blocks.py", "tests/interpreter/test_kernel_unary_edges.py", "tests/evidence/test_reduction_nan_evidence.py", "tests/evidence/test_elementwise_evidence.py", "tests/interpreter/test_kernel_binary.py", "tests/evidence/test_binary_evidence.py"],
    "interpreter/kernels/padding.py": ["tests/interpreter/test_kernel_trem.py", "tests/interpreter/test_kernel_binary.py", "tests/interpreter/test_kernel_api_faults.py", "tests/interpreter/test_valid_rect_classes.py"],
    "interpreter/kernels/postprocess.py": ["tests/interpreter/test_postprocess_offset_bounds.py", "tests/interpreter/test_kernel_tgemv.py", "tests/interpreter/test_postprocess_status.py", "tests/interpreter/test_kernel_values.py", "tests/interpreter/test_kernel_cube.py", "tests/interpreter/test_kernel_numerics.py", "tests/conformance/test_avs_tile_model_cube.py", "tests/conformance/test_avs_datatypes.py", "tests/interpreter/test_core_blocks.py", "tests/interpreter/test_mutants_seed5101.py"],
    "interpreter/kernels/postprocess_status.py": ["tests/interpreter/test_postprocess_offset_bounds.py", "tests/interpreter/test_postprocess_reduction_flags.py", "tests/interpreter/test_postprocess_status.py", "tests/conformance/test_avs_block_todo.py", "tests/conformance/test_avs_status.py"],
    "interpreter/kernels/rearrange.py": ["tests/interpreter/test_kernel_local_edges.py", "tests/evidence/test_rearrange_evidence.py", "tests/evidence/test_img2col_evidence.py", "tests/evidence/test_sort_move_evidence.py", "tests/conformance/test_avs_sort_move.py", "tests/conformance/test_avs_rearrange.py", "tests/conformance/test_avs_img2col.py", "tests/interpreter/test_local_classes.py"],
    "interpreter/kernels/status.py": ["tests/interpreter/test_numeric_status.py", "tests/interpreter/test_local_status.py", "tests/interpreter/test_postprocess_status.py", "tests/conformance/test_avs_status.py", "tests/conformance/test_avs_convert.py", "tests/interpreter/test_tfma_edges_evidence.py", "tests/evidence/test_reduction_nan_evidence.py", "tests/interpreter/test_kernel_speedpaths.py", "tests/conformance/test_avs_compare.py", "tests/conformance/test_avs_elementwise.py", "tests/evidence/test_convert_evidence.py", "tests/interpreter/test_mutants_seed31.py", "tests/interpreter/test_status_classes.py"],
    "interpreter/kernels/tepl.py": ["tests/interpreter/test_kernel_binary.py", "tests/interpreter/test_kernel_trem.py", "tests/evidence/test_elementwise_evidence.py", "tests/interpreter/test_kernel_legality.py", "tests/interpreter/test_tfma_edges_evidence.py", "tests/interpreter/test_kernel_api_faults.py", "tests/interpreter/test_valid_rect_classes.py"],
    "interpreter/kernels/ternary.py": ["tests/interpreter/test_kernel_fma_ties.py", "tests/interpreter/test_kernel_fma_round_to_odd.py", "tests/evidence/test_elementwise_evidence.py", "tests/interpreter/test_tfma_edges_evidence.py", "tests/interpreter/test_kernel_legality.py", "tests/interpreter/test_kernel_api_faults.py", "tests/interpreter/test_valid_rect_classes.py"],
    "interpreter/kernels/tgemv.py": ["tests/interpreter/test_kernel_tgemv.py"],
    "interpreter/kernels/tile_local.py": ["tests/interpreter/test_kernel_local_edges.py", "tests/evidence/test_tile_local_evidence.py", "tests/interpreter/test_local_status.py", "tests/interpreter/test_kernel_legality.py", "tests/conformance/test_avs_tile_local.py", "tests/evidence/test_reduction_nan_evidence.py", "tests/interpreter/test_kernel_api_faults.py", "tests/interpreter/test_reduce_jit.py", "tests/interpreter/test_local_classes.py"],
    "interpreter/kernels/tile_scalar.py": ["tests/interpreter/test_kernel_binary_edges.py", "tests/evidence/test_elementwise_evidence.py", "tests/interpreter/test_kernel_legality.py", "tests/conformance/test_avs_elementwise.py", "tests/evidence/test_compare_evidence.py", "tests/evidence/test_binary_evidence.py", "tests/interpreter/test_valid_rect_classes.py", "tests/interpreter/test_numeric_status.py"],
    "interpreter/kernels/unary.py": ["tests/interpreter/test_kernel_unary_blocks.py", "tests/interpreter/test_kernel_unary_edges.py", "tests/evidence/test_elementwise_evidence.py", "tests/interpreter/test_kernel_legality.py", "tests/conformance/test_avs_elementwise.py", "tests/interpreter/test_valid_rect_classes.py"],
}  # fmt: skip
VERIFIERS: dict[str, list[str]] = {
    "pto_dialect/ops.py": ["tests/dialect/test_pto_cube_builder.py", LIT + "invalid_tgemv.mlir", LIT + "invalid_trem.mlir", LIT + "invalid_family.mlir", LIT + "invalid_matmul_epilogue.mlir", LIT + "ops.mlir", LIT + "ops_family.mlir", LIT + "ops_matmul_epilogue.mlir", "tests/dialect/test_pto_roundtrip_properties.py", "tests/evidence/test_completeness.py", "tests/dialect/test_doc_examples.py"],
    "pto_dialect/compare_ops.py": [LIT + "invalid_compare.mlir", LIT + "ops_compare.mlir", "tests/evidence/test_completeness.py", "tests/conformance/test_avs_compare.py", "tests/dialect/test_doc_examples.py"],
    "pto_dialect/convert_ops.py": [LIT + "invalid_convert.mlir", LIT + "ops_convert.mlir", "tests/evidence/test_completeness.py", "tests/conformance/test_avs_convert.py", "tests/dialect/test_doc_examples.py"],
    "pto_dialect/data_movement.py": [LIT + "invalid_data_movement.mlir", LIT + "ops_data_movement.mlir", "tests/interpreter/test_mutants_seed31.py", "tests/dialect/test_doc_examples.py", "tests/dialect/test_mutants_verifiers.py"],
    "pto_dialect/elementwise_ops.py": [LIT + "invalid_elementwise.mlir", LIT + "ops_elementwise.mlir", "tests/evidence/test_completeness.py", "tests/conformance/test_avs_elementwise.py", "tests/interpreter/test_mutants_seed31.py", "tests/dialect/test_doc_examples.py", "tests/dialect/test_mutants_verifiers.py"],
    "pto_dialect/tile_local.py": [LIT + "invalid_tile_local.mlir", LIT + "ops_tile_local.mlir", "tests/evidence/test_completeness.py", "tests/conformance/test_avs_tile_local.py", "tests/dialect/test_doc_examples.py", "tests/dialect/test_mutants_verifiers.py"],
    "pto_dialect/tile_local_base.py": [LIT + "invalid_tile_local.mlir", LIT + "ops_tile_local.mlir", LIT + "invalid_tile_rearrange.mlir", LIT + "ops_tile_rearrange.mlir", "tests/evidence/test_completeness.py", "tests/conformance/test_avs_tile_local.py", "tests/conformance/test_avs_rearrange.py", "tests/dialect/test_doc_examples.py"],
    "pto_dialect/tile_rearrange.py": [LIT + "invalid_sort_move.mlir", LIT + "ops_sort_move.mlir", LIT + "invalid_tile_rearrange.mlir", LIT + "ops_tile_rearrange.mlir", LIT + "invalid_tile_img2col.mlir", LIT + "ops_tile_img2col.mlir", "tests/evidence/test_completeness.py", "tests/conformance/test_avs_sort_move.py", "tests/conformance/test_avs_rearrange.py", "tests/conformance/test_avs_img2col.py", "tests/dialect/test_doc_examples.py", "tests/dialect/test_mutants_verifiers.py"],
    "pto_dialect/tile_move.py": [LIT + "invalid_sort_move.mlir", LIT + "ops_sort_move.mlir", "tests/evidence/test_completeness.py", "tests/conformance/test_avs_sort_move.py", "tests/dialect/test_doc_examples.py"],
    "pto_dialect/tensor_local.py": [LIT + "invalid_tensor_local.mlir", LIT + "ops_tensor_local.mlir", "tests/dialect/test_doc_examples.py", "tests/dialect/test_mutants_verifiers.py"],
    "pto_dialect/tensor_convert.py": [LIT + "invalid_convert.mlir", LIT + "ops_tensor_convert.mlir", "tests/dialect/test_doc_examples.py", "tests/dialect/test_mutants_verifiers.py"],
}  # fmt: skip
LOWLIT = "tests/filecheck/lowering/"
_LOWERING_COMMON = ["tests/passes/test_lowering_differential.py", "tests/passes/test_family_lowering_differential.py", "tests/passes/test_normalise_lowering.py", "tests/passes/test_convert_linalg_to_pto.py", "tests/passes/test_fusion_index.py"]
LOWERING: dict[str, list[str]] = {
    "passes/lowering/elementwise.py": [LOWLIT + "elementwise_rows.mlir", LOWLIT + "elementwise_kept.mlir", LOWLIT + "fusion.mlir", "tests/passes/test_elementwise_lowering.py", "tests/passes/test_mutants_lowering.py", "tests/passes/test_approximate_lowering.py", "tests/passes/test_dense_constants_lowering.py", *_LOWERING_COMMON],
    "passes/lowering/compare_select.py": [LOWLIT + "compare_select_rows.mlir", "tests/passes/test_compare_select_lowering.py", "tests/passes/test_cmpsel_lowering.py", "tests/passes/test_mutants_lowering.py", *_LOWERING_COMMON],
    "passes/lowering/conversion.py": [LOWLIT + "conversion_rows.mlir", LOWLIT + "conversion_kept.mlir", "tests/passes/test_conversion_lowering.py", "tests/passes/test_mutants_lowering.py", *_LOWERING_COMMON],
    "passes/lowering/reductions.py": [LOWLIT + "reductions_and_epilogues.mlir", LOWLIT + "column_gather.mlir", "tests/passes/test_reductions_lowering.py", "tests/passes/test_mutants_lowering.py", *_LOWERING_COMMON],
}  # fmt: skip
GROUPS = {"kernels": KERNELS, "verifiers": VERIFIERS, "lowering": LOWERING}

_CMP = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}  # fmt: skip
_NAMES = {"fmax": "fmin", "fmin": "fmax", "maximum": "minimum", "minimum": "maximum"}
_ROUND_ATTRS = {"floor": "ceil", "ceil": "floor", "rint": "trunc", "trunc": "rint"}
_MODES = {"RNE": "RNA", "RNA": "RNE", "RTZ": "RTO", "RTO": "RTZ", "RTM": "RTP", "RTP": "RTM"}
_MODE_STRINGS = {k.lower(): v.lower() for k, v in _MODES.items()}


@dataclass(frozen=True)
class Mutant:
    path: str
    index: int  # position of the node in ast.walk order
    kind: str
    line: int
    what: str

    def ident(self) -> str:
        """``path:line kind what`` (``#n`` added when the line has several such sites)."""
        return f"{self.path}:{self.line} {self.kind} {self.what}"


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """Docstrings, annotations and decorators: never mutated."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                skip.add(id(body[0].value))
        for ann in [getattr(node, "annotation", None), getattr(node, "returns", None)]:
            if ann is not None:
                skip.update(id(n) for n in ast.walk(ann))
        for dec in getattr(node, "decorator_list", []):
            skip.update(id(n) for n in ast.walk(dec))
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def _parents(tree: ast.Module) -> dict[int, ast.AST]:
    return {id(c): p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}


def _reshape_minus_one(node: ast.Constant, parents: dict[int, ast.AST]) -> bool:
    """The 1 of ``x.reshape(-1)``: numpy reads every negative length as the unknown dimension,
    so ``reshape(-2)`` is the same call (an equivalent mutant, never proposed)."""
    neg = parents.get(id(node))
    call = parents.get(id(neg))
    return (node.value == 1 and isinstance(neg, ast.UnaryOp) and isinstance(neg.op, ast.USub)
            and isinstance(call, ast.Call) and neg in call.args
            and isinstance(call.func, ast.Attribute) and call.func.attr == "reshape")  # fmt: skip


def sites(path: str, base: Path = ROOT) -> list[Mutant]:
    """Every mutation site of one module (as it is under ``base``)."""
    tree = ast.parse((base / path).read_text())
    skip = _skipped_nodes(tree)
    parents = _parents(tree)
    out: list[Mutant] = []
    for i, node in enumerate(ast.walk(tree)):
        if id(node) in skip:
            continue
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            for j, op in enumerate(node.ops):
                if type(op) in _CMP:
                    out.append(Mutant(path, i, "cmp", line, f"op{j} {type(op).__name__}->{_CMP[type(op)].__name__}"))
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, (ast.Add, ast.Sub)):
            out.append(Mutant(path, i, "arith", line, "+->-" if isinstance(node.op, ast.Add) else "-->+"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            if _reshape_minus_one(node, parents):
                continue
            out.append(Mutant(path, i, "const", line, f"{node.value}->{node.value + 1}"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in _MODE_STRINGS:
            out.append(Mutant(path, i, "round", line, f"'{node.value}'->'{_MODE_STRINGS[node.value]}'"))
        elif isinstance(node, ast.Raise) and isinstance(parents.get(id(node)), ast.If):
            out.append(Mutant(path, i, "raise", line, "raise deleted"))
        elif isinstance(node, ast.Attribute):
            if node.attr in _NAMES:
                out.append(Mutant(path, i, "minmax", line, f"{node.attr}->{_NAMES[node.attr]}"))
            elif node.attr in _ROUND_ATTRS:
                out.append(Mutant(path, i, "round", line, f"{node.attr}->{_ROUND_ATTRS[node.attr]}"))
            elif node.attr in _MODES and isinstance(node.value, ast.Name) and node.value.id == "RoundingMode":
                out.append(Mutant(path, i, "round", line, f"{node.attr}->{_MODES[node.attr]}"))
        elif isinstance(node, ast.Name) and node.id in ("max", "min") and isinstance(
            parents.get(id(node)), ast.Call
        ):
            out.append(Mutant(path, i, "minmax", line, f"{node.id}->{'min' if node.id == 'max' else 'max'}"))
    seen: dict[str, int] = {}
    unique = []
    for m in out:  # a second site with the same description on the same line: what#2
        n = seen[m.ident()] = seen.get(m.ident(), 0) + 1
        unique.append(m if n == 1 else Mutant(m.path, m.index, m.kind, m.line, f"{m.what}#{n}"))
    return unique


def mutated_source(m: Mutant, text: str) -> str:
    """``text`` (the module ``m`` was found in) with the mutation applied."""
    tree = ast.parse(text)
    node = list(ast.walk(tree))[m.index]
    if m.kind == "cmp":
        j = int(m.what.split()[0][2:])
        node.ops[j] = _CMP[type(node.ops[j])]()
    elif m.kind == "arith":
        node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
    elif m.kind == "const":
        node.value = node.value + 1
    elif m.kind == "raise":
        parent = _parents(tree)[id(node)]
        for field in ("body", "orelse"):
            stmts = getattr(parent, field)
            if node in stmts:
                stmts[stmts.index(node)] = ast.Pass()
    elif m.kind == "minmax" and isinstance(node, ast.Attribute):
        node.attr = _NAMES[node.attr]
    elif m.kind == "minmax":
        node.id = "min" if node.id == "max" else "max"
    elif m.kind == "round" and isinstance(node, ast.Constant):
        node.value = _MODE_STRINGS[node.value]
    elif m.kind == "round":
        node.attr = _ROUND_ATTRS.get(node.attr) or _MODES[node.attr]
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _copy_repo(dest: Path, rev: str | None = None) -> None:
    if rev is not None:  # the tree of a commit (a measurement at a fixed revision)
        names = ["pto_dialect", "passes", "interpreter", "tests", "examples", "scripts", "pyproject.toml"]
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *names], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(dest)], input=tar.stdout, check=True)
        return
    for name in ("pto_dialect", "passes", "interpreter", "tests", "examples", "scripts"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "Output", ".hypothesis"))
    for name in ("pyproject.toml",):
        shutil.copy(ROOT / name, dest / name)


def _env(copy: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=f"{copy}{os.pathsep}{copy / 'scripts'}",
                PATH=f"{VENV_BIN}:{os.environ.get('PATH', '')}", PYTHONDONTWRITEBYTECODE="1",
                HYPOTHESIS_PROFILE="mutate")  # fmt: skip (tests/conftest.py)


def run_tests(copy: Path, tests: list[str], timeout: float) -> tuple[str, float]:
    """'pass' / 'fail' / 'timeout' of the mapped tests in ``copy``, and the seconds taken.

    Python entries may be test files or node ids (``file::test[param]``, run in the given order).
    """
    lit = [t for t in tests if not t.split("::")[0].endswith(".py")]
    py = [t for t in tests if t.split("::")[0].endswith(".py")]
    start = time.monotonic()
    commands = []  # lit first: the verifiers' negative tests are the quick killers
    if lit:
        commands.append([str(VENV_BIN / "lit"), "-q", *lit])
    if py:
        commands.append([str(VENV_BIN / "python"), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *py])
    for cmd in commands:
        left = timeout - (time.monotonic() - start)
        if cmd[1:3] == ["-m", "pytest"] and FORK:
            verdict = _pytest_forked(copy, cmd[3:], max(left, 1))
            if verdict != "pass":
                return verdict, time.monotonic() - start
            continue
        try:
            r = subprocess.run(["nice", *cmd], cwd=copy, env=_env(copy), capture_output=True, timeout=max(left, 1))
        except subprocess.TimeoutExpired:
            return "timeout", time.monotonic() - start
        if r.returncode != 0:
            return "fail", time.monotonic() - start
    return "pass", time.monotonic() - start


FORK = hasattr(os, "fork")  # --no-fork: a new interpreter per mutant
_PRELOADED = False


def _pytest_forked(copy: Path, args: list[str], timeout: float) -> str:
    """pytest in a forked child of this process, which has imported the third-party packages
    once (numpy, ml_dtypes, hypothesis, xdsl, pytest: about 3 s of each run); the child imports
    the project itself from ``copy`` (with the mutated module). 'pass' / 'fail' / 'timeout'."""
    global _PRELOADED
    if not _PRELOADED:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no BLAS threads across fork
        for name in ("numpy", "ml_dtypes", "hypothesis", "xdsl.ir", "xdsl.dialects.builtin", "pytest"):
            __import__(name)
        _PRELOADED = True
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            os.nice(10)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            os.chdir(copy)
            os.environ.update(_env(copy), HYPOTHESIS_PROFILE="mutate")
            sys.dont_write_bytecode = True  # a same-size mutant must never reuse a stale .pyc
            import hypothesis

            # the ci profile without shrinking: the same verdict, but a failing property does
            # not spend minutes shrinking its example (tests/conftest.py loads the profile)
            hypothesis.settings.register_profile(
                "mutate", derandomize=True, deadline=None, database=None,
                suppress_health_check=[hypothesis.HealthCheck.too_slow],
                phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate])
            sys.path[:0] = [str(copy), str(copy / "scripts")]
            import pytest

            code = int(pytest.main(args))
        finally:
            os._exit(code)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return "pass" if os.waitstatus_to_exitcode(status) == 0 else "fail"
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.05)


@dataclass
class Trace:
    """Which mapped test executes which line of one module (scripts/mutate_trace.py)."""

    global_lines: set[int]
    tests: dict[str, tuple[float, set[int]]]  # node id -> (seconds, lines)


def trace_modules(copy: Path, modules: dict[str, list[str]]) -> dict[str, Trace | None]:
    """Run the union of the modules' pytest files once under the line tracer
    (scripts/mutate_trace.py, all modules at once); each module's Trace keeps the tests of
    its own map (None: it maps no pytest file).

    Cached in ``.mutate-cache/`` under a hash of the modules, the test files and the tracer.
    """
    py = sorted({t for tests in modules.values() for t in tests if t.endswith(".py")})
    paths = sorted(p for p, tests in modules.items() if any(t.endswith(".py") for t in tests))
    out: dict[str, Trace | None] = dict.fromkeys(modules)
    if not paths:
        return out
    h = hashlib.sha256()
    for f in [*paths, *py, "tests/conftest.py", "scripts/mutate_trace.py"]:
        h.update(f.encode() + b"\0" + (copy / f).read_bytes())
    cache = CACHE / f"{h.hexdigest()[:20]}.json"
    if not cache.exists():
        CACHE.mkdir(exist_ok=True)
        print(f"tracing {len(paths)} modules over {len(py)} test files ...", flush=True)
        env = dict(_env(copy), MUTATE_TRACE_FILE=os.pathsep.join(paths), MUTATE_TRACE_OUT=str(cache))
        cmd = [str(VENV_BIN / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "mutate_trace", *py]
        r = subprocess.run(["nice", *cmd], cwd=copy, env=env, capture_output=True)
        if r.returncode != 0:
            cache.unlink(missing_ok=True)
            raise SystemExit(f"the mapped tests fail unmutated:\n{r.stdout.decode()[-3000:]}")
    data = json.loads(cache.read_text())
    for p in paths:
        mine = {t for t in modules[p] if t.endswith(".py")}
        tests = {k: (v[0], set(v[1])) for k, v in data[p]["tests"].items() if k.split("::")[0] in mine}
        out[p] = Trace(set(data[p]["global"]), tests)
    return out


def _spans(path: str, base: Path) -> dict[int, tuple[int, int, bool]]:
    """Site index -> the lines of its smallest enclosing statement (a compound statement: its
    header) and whether that statement runs only inside a function (not at import)."""
    tree = ast.parse((base / path).read_text())
    out: dict[int, tuple[int, int, bool]] = {}

    def visit(node: ast.AST, stmt: ast.stmt | None, in_func: bool) -> None:
        for child in ast.iter_child_nodes(node):
            s, f = stmt, in_func
            if isinstance(child, ast.stmt):
                s, f = child, in_func or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            elif isinstance(child, ast.Lambda):
                f = True
            visit(child, s, f)
            if s is not None:
                body = getattr(s, "body", None)
                end = body[0].lineno - 1 if isinstance(body, list) and body and isinstance(body[0], ast.stmt) else s.end_lineno
                out[id(child)] = (s.lineno, max(s.lineno, end or s.lineno), f)

    visit(tree, None, False)
    return {i: out[id(n)] for i, n in enumerate(ast.walk(tree)) if id(n) in out}


def select_tests(m: Mutant, span: tuple[int, int, bool], trace: Trace) -> list[str] | None:
    """The traced tests that execute the mutated statement, fastest first (all of them when it
    runs at import); None when no test executes it (the mutant cannot change any outcome)."""
    lo, hi, in_func = span
    lines = set(range(lo, hi + 1))
    if not in_func or lines & trace.global_lines:
        chosen = list(trace.tests)
    else:
        chosen = [t for t, (_, hit) in trace.tests.items() if lines & hit]
    if not chosen:
        return None
    return sorted(chosen, key=lambda t: trace.tests[t][0])


def _line_hash(text: str) -> str:
    """8 hex digits of a source line's stripped text: anchors an equivalent entry to its line's
    content, so the entry follows the line when code above it moves."""
    return hashlib.sha1(text.strip().encode()).hexdigest()[:8]


@dataclass(frozen=True)
class Equivalent:
    """One entry of scripts/mutation_equivalent.txt: ``path:line kind what @hash -- why``
    (``@hash``: :func:`_line_hash` of the mutated line)."""

    ident: str
    digest: str | None
    why: str

    @property
    def anchor(self) -> tuple[str, str, str] | None:
        """(path, ``kind what``, line hash): the entry's key without its line number."""
        if self.digest is None:
            return None
        path_line, desc = self.ident.split(" ", 1)
        return path_line.rsplit(":", 1)[0], desc, self.digest


def _read_equivalent() -> list[Equivalent]:
    out = []
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text().splitlines():
            if line.strip() and not line.startswith("#") and " -- " in line:
                key, why = line.split(" -- ", 1)
                key, digest = key.strip(), None
                if " @" in key:
                    key, digest = key.rsplit(" @", 1)
                out.append(Equivalent(key, digest, why.strip()))
    return out


class EquivalentTable:
    """The equivalent mutants: a site matches an entry with its ``path:line kind what`` and its
    line's content (``@hash``), or, when the line moved, the one entry with the same path, kind,
    what and content (a line whose text occurs twice in its module matches by number only)."""

    def __init__(self, entries: list[Equivalent]):
        self.entries = entries
        self.by_ident = {e.ident: e for e in entries}
        count: dict[tuple[str, str, str], int] = {}
        for e in entries:
            if e.anchor is not None:
                count[e.anchor] = count.get(e.anchor, 0) + 1
        self.by_anchor = {e.anchor: e for e in entries if e.anchor is not None and count[e.anchor] == 1}

    def entry(self, m: Mutant, line_text: str, unique_line: bool = True) -> Equivalent | None:
        digest = _line_hash(line_text)
        e = self.by_ident.get(m.ident())
        if e is not None and e.digest in (None, digest):
            return e
        if not unique_line:
            return None
        base_what = m.what
        return self.by_anchor.get((m.path, f"{m.kind} {base_what}", digest))

    def why(self, m: Mutant, line_text: str, unique_line: bool = True) -> str | None:
        e = self.entry(m, line_text, unique_line)
        return None if e is None else e.why


def _module_lines(path: str, base: Path = ROOT) -> tuple[list[str], set[str]]:
    """The module's lines and the stripped texts that occur on more than one line."""
    lines = (base / path).read_text().splitlines()
    seen: dict[str, int] = {}
    for ln in lines:
        seen[ln.strip()] = seen.get(ln.strip(), 0) + 1
    return lines, {t for t, n in seen.items() if n > 1}


def check_equivalent(modules: list[str], rekey: bool) -> int:
    """Print the entries that name no site of ``modules`` (stale: the line changed or went);
    with ``rekey``, write every matched entry back with its current line number and hash."""
    table = EquivalentTable(_read_equivalent())
    matched: dict[int, str] = {}
    for p in modules:
        lines, repeated = _module_lines(p)
        for m in sites(p):
            text = lines[m.line - 1]
            e = table.entry(m, text, text.strip() not in repeated)
            if e is not None:
                matched[id(e)] = f"{m.ident()} @{_line_hash(text)}"
    stale = [e for e in table.entries if e.ident.split(":")[0] in modules and id(e) not in matched]
    for e in stale:
        print(f"stale: {e.ident}")
    print(f"{len(stale)} stale equivalent entries")
    if rekey:
        out = []
        by_id = {id(e): e for e in table.entries}
        new_key = {(e.ident, e.digest, e.why): matched[i] for i, e in by_id.items() if i in matched}
        for line in EQUIVALENT.read_text().splitlines():
            if line.strip() and not line.startswith("#") and " -- " in line:
                key, why = line.split(" -- ", 1)
                key, digest = key.strip(), None
                if " @" in key:
                    key, digest = key.rsplit(" @", 1)
                line = f"{new_key.get((key, digest, why.strip()), key + ('' if digest is None else ' @' + digest))} -- {why.strip()}"
            out.append(line)
        EQUIVALENT.write_text("\n".join(out) + "\n")
        print(f"re-keyed {len(matched)} entries")
    return 1 if stale else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=40, help="mutants to run (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant")
    ap.add_argument("--only", choices=sorted(GROUPS), action="append")
    ap.add_argument("--module", action="append", help="only this module (path)")
    ap.add_argument("--list", action="store_true", help="count the sites and exit")
    ap.add_argument("--check-map", action="store_true", help="run every subset unmutated")
    ap.add_argument("--check-equivalent", action="store_true", help="list the entries of "
                    "scripts/mutation_equivalent.txt that name no site of the modules (stale: "
                    "the code moved or changed; re-key or drop them) and exit")
    ap.add_argument("--rekey", action="store_true", help="write every entry of "
                    "scripts/mutation_equivalent.txt that still names a site back with that "
                    "site's current line number and line hash (after code moved), list the "
                    "stale ones and exit")
    ap.add_argument("--output", type=Path, default=SURVIVORS)
    ap.add_argument("--rerun", type=Path, help="run exactly the mutants listed in this "
                    "survivors file (after adding tests: are they killed now?)")
    ap.add_argument("--rev", help="mutate the tree of this git revision (default: the worktree)")
    ap.add_argument("--no-fork", action="store_true", help="a new interpreter per mutant "
                    "(default: fork this one after importing numpy, xdsl, hypothesis, pytest)")
    ap.add_argument("--no-select", action="store_true", help="run every mapped test for every "
                    "mutant (default: only the traced tests that execute the mutated line)")
    args = ap.parse_args(argv)
    global FORK
    FORK = FORK and not args.no_fork

    groups = {g: GROUPS[g] for g in (args.only or GROUPS)}
    modules = {p: (g, tests) for g, table in groups.items() for p, tests in table.items()}
    if args.module:
        modules = {p: modules[p] for p in args.module}
    if args.check_equivalent or args.rekey:
        return check_equivalent(list(modules), args.rekey)
    if args.list:
        for p in modules:
            kinds: dict[str, int] = {}
            for m in sites(p):
                kinds[m.kind] = kinds.get(m.kind, 0) + 1
            print(f"{p}: {sum(kinds.values())} {kinds}")
        print(f"{sum(len(sites(p)) for p in modules)} sites")
        return 0
    with tempfile.TemporaryDirectory(prefix="pto-mutate-") as tmp:
        copy = Path(tmp)
        _copy_repo(copy, args.rev)
        if args.check_map:
            bad = 0
            for p, (_, tests) in modules.items():
                verdict, secs = run_tests(copy, tests, args.timeout)
                print(f"{verdict:7} {secs:6.1f}s {p}", flush=True)
                bad += verdict != "pass"
            return 1 if bad else 0
        all_sites = [m for p in modules for m in sites(p, copy)]
        rng = random.Random(args.seed)
        chosen = rng.sample(all_sites, min(args.sample, len(all_sites)))
        if args.rerun is not None:
            wanted = {ln.split("  | ")[0] for ln in args.rerun.read_text().splitlines()
                      if ln.strip() and not ln.startswith("#")}  # fmt: skip
            chosen = [m for m in all_sites if m.ident() in wanted]
        table = EquivalentTable(_read_equivalent())
        repeated = {p: _module_lines(p, copy)[1] for p in modules}
        results: list[tuple[Mutant, str, float]] = []
        lines_of: dict[Mutant, str] = {}
        traces: dict[str, Trace | None] = {}
        uncovered: set[Mutant] = set()
        spans: dict[str, dict[int, tuple[int, int, bool]]] = {}
        for n, m in enumerate(chosen, 1):
            target = copy / m.path
            original = target.read_text()
            lines_of[m] = original.splitlines()[m.line - 1].strip()
            tests = modules[m.path][1]
            if not args.no_select:
                if not traces:  # every module of the run in one traced run (one cache
                    # entry for every seed of the same modules and tests)
                    traces = trace_modules(copy, {p: t for p, (_, t) in modules.items()})
                if m.path not in spans:
                    spans[m.path] = _spans(m.path, copy)
                trace = traces[m.path]
                if trace is not None:
                    lit = [t for t in tests if not t.endswith(".py")]
                    py = select_tests(m, spans[m.path][m.index], trace)
                    tests = lit + (py or [])
            if not tests:  # no mapped test executes the mutated line
                verdict, secs = "uncovered", 0.0
            else:
                try:
                    target.write_text(mutated_source(m, original))
                    verdict, secs = run_tests(copy, tests, args.timeout)
                finally:
                    target.write_text(original)
            if verdict == "uncovered":
                uncovered.add(m)
            results.append((m, "pass" if verdict == "uncovered" else verdict, secs))
            word = {"pass": "SURVIVED", "fail": "killed  ", "timeout": "TIMEOUT ", "uncovered": "SURVIVED (no test runs it)"}[verdict]
            print(f"[{n}/{len(chosen)}] {word} {secs:6.1f}s {m.ident()}", flush=True)
    equivalent = {m: w for m, _, _ in results
                  if (w := table.why(m, lines_of[m], lines_of[m] not in repeated[m.path]))}
    if args.rerun is not None:
        alive = [m for m, v, _ in results if v != "fail"]
        print(f"rerun: {len(results)} mutants, {len(alive)} not killed (alive or timed out)")
        for m in alive:
            print(f"  {m.ident()}")
        return 0
    lines = [f"# scripts/mutate.py --sample {args.sample} --seed {args.seed}"
             f"{''.join(' --only ' + g for g in args.only or [])}"
             f"{''.join(' --module ' + p for p in args.module or [])}"
             f"{' --rev ' + args.rev if args.rev else ''}: the surviving mutants "
             "(path:line kind what [-- why it is equivalent])"]  # fmt: skip
    for g in groups:
        mine = [(m, v) for m, v, _ in results if modules[m.path][0] == g]
        if not mine:
            continue
        alive = [m for m, v in mine if v == "pass"]
        slow = [m for m, v in mine if v == "timeout"]
        real = [m for m in alive if m not in equivalent]
        decided = len(mine) - len(slow)
        rate = 100 * len(real) / decided if decided else 0.0
        summary = (f"{g}: {len(mine)} mutants, {len(alive)} survived ({len(alive) - len(real)} "
                   f"of them equivalent), {len(slow)} timed out (not counted): {rate:.0f}% of "
                   f"{decided} surviving")  # fmt: skip
        print(summary)
        lines.append(f"# {summary}")
        for p in dict.fromkeys(m.path for m, _ in mine):
            n_p = [(m, v) for m, v in mine if m.path == p]
            alive_p = [m for m, v in n_p if v == "pass" and m not in equivalent]
            eq_p = sum(v == "pass" and m in equivalent for m, v in n_p)
            per = (f"  {p}: {len(n_p)} mutants, {len(n_p) - len(alive_p) - eq_p - sum(v == 'timeout' for _, v in n_p)} "
                   f"killed, {eq_p} equivalent, {len(alive_p)} alive")  # fmt: skip
            print(per)
            lines.append(f"#{per}")
        for m in alive:
            why = equivalent.get(m) or ("no mapped test executes the line" if m in uncovered else None)
            lines.append(f"{m.ident()}  | {lines_of[m]}" + (f" -- {why}" if why else ""))
        for m in slow:
            lines.append(f"{m.ident()}  | {lines_of[m]} -- timed out: undecided")
    args.output.write_text("\n".join(lines) + "\n")
    print(f"survivors: {args.output.relative_to(ROOT) if args.output.is_relative_to(ROOT) else args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
