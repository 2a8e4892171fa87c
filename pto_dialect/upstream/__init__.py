"""Upstream MLIR ops xDSL 0.75 lacks, packaged as replacement ``linalg`` / ``arith`` dialects.

Our tools (``pto-opt``, ``pto-run``) register these two dialects **instead of** xDSL's:

* ``linalg``: every op of xDSL's ``Linalg`` except its ``linalg.matmul``, replaced by
  :class:`~pto_dialect.upstream.ops.MatmulOp` (mixed element types), and its
  ``linalg.generic``, replaced by :class:`~pto_dialect.upstream.ops.GenericOp` (also parses
  ``-> (t1, t2)``), and its ``linalg.quantized_matmul`` (upstream's casts for any integer
  types), plus
  ``linalg.vecmat``, ``linalg.matvec`` and ``linalg.batch_matmul``, and the convolution
  and pooling family of :mod:`~pto_dialect.upstream.window_ops` (replacing xDSL's
  ``conv_2d_*`` and ``pooling_nchw_max``);
* ``arith``: every op of xDSL's ``Arith`` plus ``arith.remf``.

xDSL 0.75 already has ``arith.remsi``, ``arith.remui``, ``arith.cmpi``, ``arith.cmpf`` and
``arith.select``; it has no ``arith.remf``, ``linalg.vecmat`` or ``linalg.matvec``.

Registration: ``Context.register_dialect`` refuses a second factory for a name, so call
:func:`register_upstream_overrides` **after** the tool registered the multiverse's dialects;
it swaps the lazy factories (and, if a dialect was already loaded, the loaded op classes).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.ir import Dialect

from .ops import (
    BatchMatmulOp,
    GenericOp,
    MatmulOp,
    MatvecOp,
    QuantizedMatmulOp,
    RemFOp,
    VecmatOp,
    cast_signed,
    contraction_region,
)
from .tm_tensor import SortOp, TmTensor, TmYieldOp
from .window_ops import WINDOW_OP_CLASSES, WINDOW_OPS, WindowOperation, WindowSpec, window_spec
from .xdsl_fixes import apply_xdsl_fixes

__all__ = [
    "BatchMatmulOp",
    "GenericOp",
    "MatmulOp",
    "MatvecOp",
    "QuantizedMatmulOp",
    "RemFOp",
    "SortOp",
    "TmYieldOp",
    "VecmatOp",
    "cast_signed",
    "contraction_region",
    "WINDOW_OPS",
    "WINDOW_OP_CLASSES",
    "WindowOperation",
    "WindowSpec",
    "window_spec",
    "upstream_linalg",
    "upstream_tm_tensor",
    "upstream_arith",
    "upstream_dialects",
    "upstream_dialect_factories",
    "register_upstream_overrides",
]

_REPLACED = {
    xlinalg.MatmulOp: MatmulOp,
    xlinalg.GenericOp: GenericOp,
    xlinalg.QuantizedMatmulOp: QuantizedMatmulOp,
}


def upstream_linalg() -> Dialect:
    """xDSL's ``linalg`` with our ``linalg.matmul`` and ``linalg.vecmat``/``linalg.matvec``."""
    windows = {op.name for op in WINDOW_OP_CLASSES}
    ops = [_REPLACED.get(op, op) for op in Linalg.operations if op.name not in windows]
    return Dialect(
        "linalg",
        [*ops, VecmatOp, MatvecOp, BatchMatmulOp, *WINDOW_OP_CLASSES],
        list(Linalg.attributes),
    )


def upstream_arith() -> Dialect:
    """xDSL's ``arith`` plus ``arith.remf`` (keeps its attributes and interfaces)."""
    return Dialect(
        "arith",
        [*Arith.operations, RemFOp],
        list(Arith.attributes),
        list(Arith._interfaces),  # pyright: ignore[reportPrivateUsage]
    )


def upstream_dialect_factories() -> dict[str, Callable[[], Dialect]]:
    """Lazy factories keyed by dialect name, in the shape ``Context.register_dialect`` takes."""
    return {"linalg": upstream_linalg, "arith": upstream_arith, "tm_tensor": upstream_tm_tensor}


def upstream_tm_tensor() -> Dialect:
    """torch-mlir's ``tm_tensor.sort`` and ``tm_tensor.yield`` (:mod:`.tm_tensor`)."""
    return TmTensor


def upstream_dialects() -> list[Dialect]:
    """The replacement ``linalg`` and ``arith`` dialects."""
    return [factory() for factory in upstream_dialect_factories().values()]


def register_upstream_overrides(ctx: Context) -> None:
    """Make ``ctx`` use our ``linalg`` and ``arith`` instead of xDSL's.

    Works whether the names are unregistered (plain ``register_dialect``), registered
    but not loaded (the lazy factory is swapped), or already loaded (the loaded op
    classes are replaced so that later parsing builds ours). Idempotent.
    xDSL's ``Context`` has no public API to replace a registration, so this touches its
    private tables; it is the only place in the project that does.
    """
    apply_xdsl_fixes()
    registered = ctx._registered_dialects  # pyright: ignore[reportPrivateUsage]
    loaded = ctx._loaded_dialects  # pyright: ignore[reportPrivateUsage]
    loaded_ops = ctx._loaded_ops  # pyright: ignore[reportPrivateUsage]
    for name, factory in upstream_dialect_factories().items():
        if name not in registered:
            ctx.register_dialect(name, factory)
            continue
        registered[name] = factory
        if name in loaded:
            dialect = factory()
            loaded[name] = dialect
            for op in dialect.operations:
                loaded_ops[op.name] = op
            for attr in dialect.attributes:
                if attr not in ctx.loaded_attrs and attr not in ctx.loaded_types:
                    ctx.load_attr_or_type(attr)
