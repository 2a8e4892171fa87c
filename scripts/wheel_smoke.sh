#!/usr/bin/env bash
# Wheel smoke test (issue 24): build the wheel, install it (not editable) into a scratch venv
# and, from outside the checkout, import every package of the distribution, run pto-opt and
# pto-run through their installed entry points and lower one example.
#
# The scratch venv takes the dependencies (xdsl, numpy, ml_dtypes) from the project's venv
# through a .pth line, so nothing but the build backend is fetched; the project itself comes
# only from the wheel (checked: every imported module's file lies in the scratch venv).
# Usage: scripts/wheel_smoke.sh [python-of-the-project-venv]   (make wheel-smoke)
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
PY="${1:-$REPO/.venv/bin/python}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

"$PY" -m pip wheel -q --no-deps -w "$WORK/dist" "$REPO"
WHEEL="$(ls "$WORK"/dist/pto_xdsl-*.whl)"

"$PY" -m venv --without-pip "$WORK/venv"
SCRATCH="$WORK/venv/bin/python"
SITE="$("$SCRATCH" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
DEPS="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$DEPS" > "$SITE/project-deps.pth"
"$PY" -m pip --python "$SCRATCH" install -q --no-deps "$WHEEL"

cd "$WORK"  # outside the checkout: the repository is not on sys.path
"$SCRATCH" - "$WORK/venv" "$REPO" <<'EOF'
import importlib, pkgutil, sys
from pathlib import Path

venv, repo = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
count = 0
for root in ("pto_dialect", "passes", "interpreter"):
    pkg = importlib.import_module(root)
    names = [root] + [m.name for m in pkgutil.walk_packages(pkg.__path__, root + ".")]
    for name in names:
        mod = importlib.import_module(name)
        where = Path(mod.__file__).resolve()
        assert where.is_relative_to(venv), f"{name} imported from {where}, not the wheel"
        assert not where.is_relative_to(repo), f"{name} imported from the checkout"
        count += 1
from importlib.metadata import entry_points
assert any(ep.value == "pto_dialect.universe:PTO_UNIVERSE" for ep in entry_points(group="xdsl.universe"))
print(f"wheel smoke: {count} modules import from the installed wheel")
EOF
"$WORK/venv/bin/pto-opt" --help > /dev/null
"$WORK/venv/bin/pto-run" --help > /dev/null
"$WORK/venv/bin/pto-opt" -p "pto-lower{level=tile}" "$REPO/examples/floormod_i32.mlir" > lowered.mlir
grep -q "pto.trem" lowered.mlir
echo "wheel smoke: pto-opt and pto-run run from the wheel; floormod_i32.mlir lowers to pto.trem"
