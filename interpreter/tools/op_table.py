"""Generate ``docs/ops.md`` — one row per tile op — from the family tables, so the docs cannot
drift (``python -m interpreter.tools.op_table > docs/ops.md``; a test compares the file).

For each op of :data:`pto_dialect.families.TILE_OP_FAMILIES`: its IR name, catalog mnemonic,
selector, element types, the first line of its docstring (semantics), the spec ASL path and
which layers implement it: ``dialect`` (always), ``encoding`` (a row in the ISA tables),
``kernel`` (``interpreter.kernels.KERNELS``), ``block`` (a ``pto-form-bundles`` former) and
``decoded`` (a decoded-dispatch row back to the op class). This module lives in the
interpreter package because it reads every layer (the layering rule allows only that).
"""

from __future__ import annotations

import sys

from interpreter.kernels import KERNELS
from passes import pto_form_bundles
from pto_dialect import isa
from pto_dialect.bundle import (
    BINARY_OP_OF_SELECTOR,
    CUBE_OP_OF_FUNCTION,
    GENERATOR_OP_OF_SELECTOR,
    LOCAL_OP_OF_SELECTOR,
)
from pto_dialect.compare_ops import COMPARE_SELECT_OP_OF_SELECTOR
from pto_dialect.convert_ops import CONVERT_OP_OF_SELECTOR
from pto_dialect.elementwise_ops import ELEMENTWISE_OP_OF_SELECTOR
from pto_dialect.families import TILE_OP_FAMILIES
from pto_dialect.gm_indexed import GM_OP_OF_FUNCTION, GlobalMemoryOp, GMovOp, TPrefetchOp
from pto_dialect.ops import CubeMatrixOp
from pto_dialect.tile_move import MOVE_OP_OF_FUNCTION, LocalMoveOp

_CATEGORY = {
    **dict.fromkeys(("TADD", "TSUB", "TMUL", "TMAX", "TMIN"), "arithmetic"),
    **dict.fromkeys(("TDIV", "TREM"), "transcendental"),
    **dict.fromkeys(("TAND", "TOR", "TXOR", "TSHL", "TSHR"), "logical"),
}


def _spec_path(cls) -> str:
    if hasattr(cls, "SPEC"):
        return cls.SPEC
    if issubclass(cls, CubeMatrixOp):
        name = isa.CUBE_FUNCTIONS[cls.FUNCTION].name
        kind = "matrix-vector" if cls.is_gemv() else "matrix-matrix"
        return f"asl/tile/matrix-and-matrix-vector/{kind}/{name}.asl"
    return f"asl/tile/elementwise-tile-tile/{_CATEGORY[cls.MNEMONIC]}/{cls.MNEMONIC}.asl"


def _row(cls) -> dict[str, str]:
    if issubclass(cls, CubeMatrixOp):
        f = isa.CUBE_FUNCTIONS.get(cls.FUNCTION)
        mnemonic = f.name if f else "?"
        selector = f"CUBE {cls.FUNCTION}"
        types = "D2 (MX) / ordinary matmul types" if cls.is_mx() else "ordinary matmul types"
        layers = {
            "encoding": f is not None,
            "kernel": mnemonic in KERNELS,
            "decoded": CUBE_OP_OF_FUNCTION.get(cls.FUNCTION) is cls,
        }
    elif issubclass(cls, GlobalMemoryOp):
        f = isa.TLSU_FUNCTIONS.get(cls.FUNCTION)
        mnemonic = cls.MNEMONIC
        selector = f"TLSU {cls.FUNCTION}"
        types = "every non-packed type; integer index tiles" if cls is not GMovOp and (
            cls is not TPrefetchOp) else "every type"  # fmt: skip
        layers = {
            "encoding": f is not None and f.name == mnemonic,
            "kernel": mnemonic in KERNELS,
            "decoded": GM_OP_OF_FUNCTION.get(cls.FUNCTION) is cls,
        }
    elif issubclass(cls, LocalMoveOp):
        f = isa.TLSU_FUNCTIONS.get(cls.FUNCTION)
        mnemonic = cls.MNEMONIC
        selector = f"TLSU {cls.FUNCTION}"
        types = "every type"
        layers = {
            "encoding": f is not None and f.name == mnemonic,
            "kernel": mnemonic in KERNELS,
            "decoded": MOVE_OP_OF_FUNCTION.get(cls.FUNCTION) is cls,
        }
    else:
        key = (cls.MODE, cls.FUNCTION)
        mnemonic = cls.MNEMONIC
        selector = f"TEPL {cls.MODE}/{cls.FUNCTION}"
        types = " ".join(sorted(t.asm for t in cls.TYPES))
        row = isa.TEPL_OPS.get(key)
        layers = {
            "encoding": row is not None and row.name == mnemonic,
            "kernel": mnemonic in KERNELS,
            "decoded": (BINARY_OP_OF_SELECTOR.get(key) or ELEMENTWISE_OP_OF_SELECTOR.get(key)
                        or LOCAL_OP_OF_SELECTOR.get(key) or GENERATOR_OP_OF_SELECTOR.get(key)
                        or COMPARE_SELECT_OP_OF_SELECTOR.get(key)
                        or CONVERT_OP_OF_SELECTOR.get(key))
            is cls,
        }
    layers["block"] = any(issubclass(cls, fam) for fam, _ in pto_form_bundles.FORMERS) and not (
        getattr(cls, "BLOCK_UNSOUND", "")
    )
    doc = (cls.__doc__ or "").strip().splitlines()[0].rstrip(".")
    semantics = doc.split("—", 1)[-1].strip() if "—" in doc else doc
    semantics = semantics.split(" (TEPL")[0].split(" (CUBE function")[0].split(" (TLSU")[0]
    order = ("encoding", "block", "kernel", "decoded")
    impl = ", ".join(["dialect", *(k for k in order if layers.get(k))])
    if getattr(cls, "BLOCK_UNSOUND", ""):
        impl += " (no block form: contradictory in the spec, docs/rearrange.md)"
    return {
        "op": f"`{cls.name}`",
        "mnemonic": mnemonic,
        "selector": selector,
        "types": types,
        "semantics": semantics.replace("|", "\\|"),
        "spec": f"`{_spec_path(cls)}`",
        "layers": impl,
    }


def render() -> str:
    cols = ("op", "mnemonic", "selector", "types", "semantics", "spec", "layers")
    out = [
        "# Tile operations (generated)",
        "",
        "Generated by `python -m interpreter.tools.op_table > docs/ops.md` from the family tables",
        "(`pto_dialect/families.py`); `tests/evidence/test_op_table.py` fails when this file",
        "is stale. Layers: `dialect` (op + verifier), `encoding` (ISA selector row), `block`",
        "(pto-form-bundles former), `kernel` (numpy kernel), `decoded` (decoded-block dispatch).",
        "",
    ]
    total = 0
    for family, ops in TILE_OP_FAMILIES:
        out += [f"## {family} ({len(ops)} ops)", ""]
        out.append("| " + " | ".join(cols) + " |")
        out.append("|" + "---|" * len(cols))
        for cls in ops:
            r = _row(cls)
            out.append("| " + " | ".join(r[c] for c in cols) + " |")
        out.append("")
        total += len(ops)
    out.append(f"Total: {total} tile operations.")
    return "\n".join(out) + "\n"


def main() -> None:
    sys.stdout.write(render())


if __name__ == "__main__":
    main()
