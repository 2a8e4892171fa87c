"""The import graph of ``pto_dialect``, ``passes`` and ``interpreter`` (issue 24), read with ``ast``.

Fails on
- any import circle between project modules (imports at module level and inside functions both
  count as edges; ``if TYPE_CHECKING:`` imports do not, they never run);
- any private name (``_x``) imported from another project module, by ``from m import _x`` or as
  ``m._x`` through an imported module;
- a project import inside a function that is not in ``LAZY_ALLOWED`` (each key with the reason:
  an optional dependency or the tool boundary), or more than 10 such import statements;
- a layering violation: ``pto_dialect`` imports neither ``passes`` nor ``interpreter``, ``passes``
  does not import ``interpreter``.

An edge goes to the module an import names: ``from a.b import c`` is an edge to ``a.b.c`` when that
is a module, else to ``a.b``. The implicit import of a parent package's ``__init__`` is not an edge.

``python tests/test_import_graph.py`` prints the figures of the house (circles, lazy imports,
private imports, largest function, lines per op).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("pto_dialect", "passes", "interpreter")

# Project imports inside functions that stay: (importing module, imported package or module)
# -> why. A key covers the imports of that module or of any module below it.
LAZY_ALLOWED: dict[tuple[str, str], str] = {
    ("passes", "passes.registry"): "the tool boundary: pto-opt and xdsl-opt register the pass "
    "names at start-up; every pass module loads with the first pass a pipeline names (they cost "
    "about as much again as pto-opt with the dialect, python -X importtime)",
    ("passes", "passes.pto_targets"): "the tool boundary: the assembly / hex targets and "
    "frontends load when -t / -f / a .s or .hex input first names one",
    ("pto_dialect.universe", "pto_dialect.dialect"): "the xDSL plugin: a dialect factory, "
    "loaded when a context first needs the pto dialect (the tool boundary)",
    ("interpreter.kernels.jit", "interpreter.kernels.cube_jit"): "optional dependency numba: "
    "loaded on the first compiled kernel call, never at start-up",
    ("interpreter.kernels.tile_local", "interpreter.kernels.reduce_jit"): "optional dependency "
    "numba: loaded on the first compiled reduction, never at start-up",
    ("interpreter.kernels.jit", "interpreter.kernels.numeric_jit"): "optional dependency "
    "numba: loaded on the first compiled TCVT / TQUANT / TSQRT, never at start-up",
}
MAX_LAZY_STATEMENTS = 10
"""At most this many import statements inside functions (issue 24)."""

LAYERS = {"pto_dialect": 0, "passes": 1, "interpreter": 2}
# The tool boundary ties the layers together: the xDSL plugin and pto-opt (common brief).
TOOLS = ("pto_dialect.universe", "pto_dialect.tools.")


@dataclass
class Module:
    name: str
    path: Path
    tree: ast.Module
    edges: set[str] = field(default_factory=set)
    lazy: list[tuple[int, str]] = field(default_factory=list)
    private: list[tuple[int, str, str]] = field(default_factory=list)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.Module):
    """(node, inside_function) for every import that runs, skipping ``if TYPE_CHECKING:``."""

    def walk(node: ast.AST, in_function: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    yield from walk(other, in_function)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, in_function
            nested = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            )
            yield from walk(child, nested)

    yield from walk(tree, False)


def load_graph() -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            name = _module_name(path)
            modules[name] = Module(name, path, ast.parse(path.read_text(), filename=str(path)))

    def is_project(name: str) -> bool:
        return name.split(".")[0] in PACKAGES

    for mod in modules.values():
        is_package = mod.path.name == "__init__.py"
        aliases: dict[str, str] = {}  # local name -> project module it is bound to
        for node, in_function in _import_nodes(mod.tree):
            targets: list[tuple[str, str | None]] = []  # (module, imported name or None)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if is_project(alias.name):
                        targets.append((alias.name, None))
                        if alias.asname:
                            aliases[alias.asname] = alias.name
            else:
                if node.level:
                    base = mod.name.split(".")
                    base = base[: len(base) - node.level + (1 if is_package else 0)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                if not is_project(source):
                    continue
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    if sub in modules:
                        targets.append((sub, None))
                        aliases[alias.asname or alias.name] = sub
                    else:
                        targets.append((source, alias.name))
            for target in dict.fromkeys(t for t, _ in targets if t in modules):
                if target != mod.name:
                    mod.edges.add(target)
                if in_function:
                    mod.lazy.append((node.lineno, target))
            for target, name in targets:
                if name and name.startswith("_") and not name.startswith("__"):
                    mod.private.append((node.lineno, target, name))
        # m._x through a module bound by an import
        for node in ast.walk(mod.tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                mod.private.append((node.lineno, aliases[node.value.id], node.attr))
    return modules


def circles(modules: dict[str, Module]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def connect(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(modules[v].edges):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(modules)))
    try:
        for v in sorted(modules):
            if v not in index:
                connect(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def lazy_imports(modules: dict[str, Module]) -> list[tuple[str, int, str]]:
    return [(m.name, line, target) for m in modules.values() for line, target in m.lazy]


def lazy_statements(modules: dict[str, Module]) -> list[tuple[str, int]]:
    """The import statements inside functions (one per statement, whatever it names)."""
    return sorted({(m, line) for m, line, _ in lazy_imports(modules)})


def private_imports(modules: dict[str, Module]) -> list[tuple[str, int, str, str]]:
    return [
        (m.name, line, target, name)
        for m in modules.values()
        for line, target, name in m.private
        if target != m.name
    ]


def layering_violations(modules: dict[str, Module]) -> list[tuple[str, str]]:
    bad = []
    for m in modules.values():
        if m.name.startswith(TOOLS):
            continue
        layer = LAYERS[m.name.split(".")[0]]
        for target in m.edges:
            if LAYERS[target.split(".")[0]] > layer:
                bad.append((m.name, target))
    return sorted(bad)


def largest_functions(modules: dict[str, Module], n: int = 5) -> list[tuple[int, str]]:
    sizes = []
    for m in modules.values():
        for node in ast.walk(m.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                sizes.append((node.end_lineno - node.lineno + 1, f"{m.name}.{node.name}"))
    return sorted(sizes, reverse=True)[:n]


def source_lines(modules: dict[str, Module]) -> int:
    return sum(len(m.path.read_text().splitlines()) for m in modules.values())


# --- the tests


GRAPH = load_graph()


def test_graph_sees_the_packages():
    assert {"pto_dialect.ops", "passes.pto_lower", "interpreter.ssa.runner"} <= set(GRAPH)
    assert all(m.edges for name, m in GRAPH.items() if name == "passes.pto_lower")


def test_no_import_circles():
    found = circles(GRAPH)
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_private_names_imported_across_modules():
    found = private_imports(GRAPH)
    assert not found, "private names imported across modules:\n" + "\n".join(
        f"{m}:{line} imports {target}.{name}" for m, line, target, name in found
    )


def allowed_by(module: str, target: str) -> tuple[str, str] | None:
    """The :data:`LAZY_ALLOWED` key that allows ``module`` to import ``target`` lazily."""
    for key in LAZY_ALLOWED:
        m, prefix = key
        if m == module and (target == prefix or target.startswith(prefix + ".")):
            return key
    return None


def test_lazy_project_imports_only_where_allowed():
    found = lazy_imports(GRAPH)
    statements = lazy_statements(GRAPH)
    assert len(statements) <= MAX_LAZY_STATEMENTS, "the tool boundary grew: " + str(statements)
    bad = [(m, line, t) for m, line, t in found if allowed_by(m, t) is None]
    assert not bad, "project imports inside functions:\n" + "\n".join(
        f"{m}:{line} imports {t}" for m, line, t in bad
    )


def test_lazy_allowlist_is_short_and_used():
    assert len(LAZY_ALLOWED) <= 10
    used = {allowed_by(m, t) for m, _, t in lazy_imports(GRAPH)}
    assert set(LAZY_ALLOWED) <= used, set(LAZY_ALLOWED) - used


def test_pass_registry_names_match_the_classes():
    import passes
    from passes import pto_targets, registry

    assert tuple(registry.PASSES) == passes.PASS_NAMES
    assert tuple(pto_targets.TARGETS) == passes.TARGET_NAMES
    assert tuple(pto_targets.FRONTENDS) == passes.FRONTEND_KEYS
    assert {n: f() for n, f in passes.get_all_passes().items()} == registry.PASSES


def test_layering():
    found = layering_violations(GRAPH)
    assert not found, "layering violations:\n" + "\n".join(f"{a} imports {b}" for a, b in found)


def figures(modules: dict[str, Module]) -> dict[str, object]:
    from pto_dialect.dialect import PTO  # noqa: PLC0415 - only the printed figures need the op count

    ops = len(list(PTO.operations))
    lines = source_lines(modules)
    return {
        "modules": len(modules),
        "circles": [len(c) for c in circles(modules)],
        "lazy project imports": len(lazy_statements(modules)),
        "private imports": len(private_imports(modules)),
        "layering violations": len(layering_violations(modules)),
        "largest functions": largest_functions(modules),
        "source lines": lines,
        "ops": ops,
        "lines per op": round(lines / ops, 1),
    }


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(REPO))
    for key, value in figures(GRAPH).items():
        print(f"{key}: {value}")
    if "-v" in sys.argv:
        for c in circles(GRAPH):
            print("circle:", " ".join(c))
        for m, line, t in lazy_imports(GRAPH):
            print(f"lazy: {m}:{line} -> {t}")
        for m, line, t, n in private_imports(GRAPH):
            print(f"private: {m}:{line} -> {t}.{n}")
        for a, b in layering_violations(GRAPH):
            print(f"layer: {a} -> {b}")
