"""Packaging and layering: the xDSL plugin, where the packages resolve, and the import rule
``pto_dialect`` < ``passes`` < ``interpreter`` (common brief, checked statically with ``ast``)."""

from __future__ import annotations

import ast
import importlib
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from xdsl.universe import Universe

REPO = Path(__file__).resolve().parents[2]


def test_plugin_entry_point_registered():
    eps = {ep.name: ep for ep in entry_points(group="xdsl.universe")}
    assert "pto" in eps
    assert eps["pto"].value == "pto_dialect.universe:PTO_UNIVERSE"


def test_multiverse_has_pto_dialect():
    dialects = Universe.get_multiverse().all_dialects
    assert "pto" in dialects
    pto = dialects["pto"]()
    assert pto.name == "pto"
    assert {op.name for op in pto.operations} >= {"pto.tgemv_mx_bias", "pto.trem"}
    assert {a.name for a in pto.attributes} >= {
        "pto.tile", "pto.hf32", "pto.hif8", "pto.e1m2x2", "pto.hif4x2",
        "pto.rmode", "pto.pad", "pto.mask", "pto.fpatr", "pto.target",
    }


@pytest.mark.parametrize("package", ["pto_dialect", "passes", "interpreter"])
def test_packages_resolve_inside_the_repo(package):
    mod = importlib.import_module(package)
    assert mod.__file__ is not None
    assert Path(mod.__file__).resolve().is_relative_to(REPO), mod.__file__


def _imported_roots(path: Path) -> set[str]:
    """Top-level package names a module imports (absolute imports, anywhere in the file)."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                roots.add(node.args[0].value.split(".")[0])
    return roots


def _modules(package: str, exclude: tuple[str, ...] = ()) -> list[Path]:
    base = REPO / package
    return sorted(
        p for p in base.rglob("*.py")
        if not any(p.relative_to(REPO).as_posix().startswith(e) for e in exclude)
    )


# pto_dialect/universe.py and pto_dialect/tools/ are the allowed lazy glue (plugin, pto-opt).
DIALECT_MODULES = _modules("pto_dialect", exclude=("pto_dialect/universe.py", "pto_dialect/tools/"))
PASSES_MODULES = _modules("passes")


def test_scan_finds_modules():
    assert any(p.name == "ops.py" for p in DIALECT_MODULES)
    assert PASSES_MODULES


@pytest.mark.parametrize("path", DIALECT_MODULES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_dialect_imports_neither_passes_nor_interpreter(path):
    bad = _imported_roots(path) & {"passes", "interpreter"}
    assert not bad, f"{path.relative_to(REPO)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", PASSES_MODULES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_passes_do_not_import_interpreter(path):
    assert "interpreter" not in _imported_roots(path), f"{path.relative_to(REPO)} imports interpreter"


def test_scanner_sees_lazy_imports(tmp_path):
    """The scan catches imports inside functions too (what the glue modules do)."""
    f = tmp_path / "m.py"
    f.write_text("def f():\n    from interpreter.ssa.runner import x\n    import passes.a\n")
    assert _imported_roots(f) == {"interpreter", "passes"}
