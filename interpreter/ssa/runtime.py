"""The run-time tile model of the interpreter (PTO-SPEC 2, D9, D12, D13).

A :class:`TileValue` is an immutable SSA value: its descriptor (the ``!pto.tile`` type), one
physical payload per PE that holds it, and a per-element definedness mask per PE. Elements
are stored logically (row-major ``rows x cols``) whatever the layout: layouts change how the
hardware places bytes, not the values. Element storage: the numpy / ml_dtypes dtype of the
TileDataType where one exists; ``float32`` for TF32 and HF32 (their values are float32s with
low mantissa bits zero); ``uint8`` codes, one logical element per byte, for HiF8, E1M2X2,
HiF4X2, S4X2 and U4X2.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, impl
from xdsl.ir import Operation

from interpreter.kernels import pad_tile
from interpreter.kernels.status import staged
from interpreter.kernels.storage import SHARED_DEFINED, all_defined, pe_indices, storage_dtype
from pto_dialect.attributes import TileType
from pto_dialect.faults import FaultKind, PTOFault


@dataclass(frozen=True)
class TileValue:
    """A tile as the interpreter holds it: descriptor, per-PE payloads and definedness.

    ``payloads[p]`` is the physical ``rows x cols`` array of PE ``p``; ``defined[p]`` its
    definedness mask. An unallocated tile (the result of a mask-0 no-op) has no payloads.
    Payload arrays are never mutated after construction (SSA value semantics).
    """

    type: TileType
    payloads: dict[int, np.ndarray] = field(default_factory=dict)
    defined: dict[int, np.ndarray] = field(default_factory=dict)

    @property
    def allocated(self) -> bool:
        return bool(self.payloads)

    @property
    def pes(self) -> list[int]:
        return sorted(self.payloads)

    def valid(self, pe: int) -> np.ndarray:
        vr, vc = self.type.valid_shape
        return self.payloads[pe][:vr, :vc]

    def valid_stack(self) -> np.ndarray:
        """Valid rectangles of every PE stacked: shape (P, VR, VC)."""
        return np.stack([self.valid(p) for p in self.pes])

    @staticmethod
    def from_valid(
        ttype: TileType, valid_per_pe: dict[int, np.ndarray], pad: str = "null",
        storage: np.dtype | None = None,
    ) -> TileValue:
        """Build a tile from each PE's valid rectangle, padding the rest (D9). ``storage``
        overrides the payload dtype (the raw-carrier profile stores int64 payload words)."""

        dt = ttype.dtype
        sdt = storage_dtype(dt) if storage is None else np.dtype(storage)
        payloads, defined = {}, {}
        vr, vc = ttype.valid_shape
        for p, v in valid_per_pe.items():
            v = np.asarray(v).reshape(vr, vc)
            if ttype.valid_shape == ttype.shape:
                # No padding to write: the payload is the valid rectangle itself (a read-only
                # view is safe, tensors and payloads are never mutated), all defined.
                payload = v if v.dtype == sdt else v.astype(sdt)
                dfn = all_defined(ttype.shape)
            else:
                phys = np.zeros(ttype.shape, dtype=sdt)
                phys[:vr, :vc] = v
                payload, dfn = pad_tile(phys, (vr, vc), pad, dt)
            TileValue.freeze(p, payload, dfn, payloads, defined)
        return TileValue(ttype, payloads, defined)

    @staticmethod
    def freeze(p, payload, dfn, payloads, defined) -> None:
        """Store one PE's payload read-only (tile values are immutable)."""
        payload = payload.view()
        payload.setflags(write=False)
        if dfn.flags.writeable:
            dfn.setflags(write=False)
        payloads[p], defined[p] = payload, dfn


def require_source(op_name: str, role: str, value: object, expected: TileType) -> TileValue:
    """Preflight a source tile: allocated, the expected descriptor, valid rectangle defined.

    Raises Fault_TileLegality (D9, D16) before any effect.
    """
    return source_check(op_name, role, expected)(value)


def source_check(
    op_name: str,
    role: str,
    expected: TileType,
    read: tuple[int, int] | None = None,
    pes: Sequence[int] | None = None,
):
    """:func:`require_source` for one operand, with the descriptor's facts resolved once:
    ``check(value) -> value`` (the compiled engine builds one per operand). ``read``: only
    these (rows, cols) at the origin must be defined (THISTOGRAM's filter,
    ``TileHistogramPrefixDefined``); default the whole valid rectangle. ``pes``: only these
    PEs are read (each must hold the tile); default every PE holding it."""
    vr, vc = expected.valid_shape if read is None else read
    shared = SHARED_DEFINED

    def fault(message: str) -> PTOFault:
        return PTOFault(FaultKind.TILE_LEGALITY, f"{role}: {message}", op_name)

    def check(value: object) -> TileValue:
        if not isinstance(value, TileValue):
            raise fault("not a tile value")
        if not value.payloads:
            raise fault("tile is not allocated (produced by a mask-0 no-op)")
        if value.type is not expected and value.type != expected:
            raise fault("descriptor differs from the IR type")
        defined = value.defined
        if pes is not None:
            for p in pes:
                if p not in defined:  # a PE not holding the tile has nothing defined
                    raise fault(f"PE{p} reads undefined elements in its valid rectangle (D9)")
            defined = {p: defined[p] for p in pes}
        for dfn in defined.values():
            if id(dfn) not in shared and not dfn[:vr, :vc].all():
                for p, d in sorted(defined.items()):  # the lowest PE is reported
                    if not d[:vr, :vc].all():
                        raise fault(f"PE{p} reads undefined elements in its valid rectangle (D9)")
        return value

    return check


def mask_zero_noop(op: Operation) -> Callable[..., tuple] | None:
    """The plan of ``op`` when its PE mask is 0000: a strict no-op that reads nothing (no
    source, GPR or descriptor) and leaves every tile result unallocated (PTO-SPEC 2, D12);
    None for any other mask."""
    if not op.mask.is_zero:  # type: ignore[attr-defined]
        return None
    types = [r.type for r in op.results]

    def noop(*_args):
        return tuple(TileValue(t) for t in types)  # type: ignore[arg-type]

    return noop


def per_pe_plan(rtype: Any, checks: Sequence[Callable], kernel: Callable, pes: Sequence[int],
                tail: tuple, extra: dict[str, Any]):
    """``plan(*tiles, *scalars) -> (result,)`` of an elementwise TEPL op: each tile source
    through its :func:`source_check`, then ``kernel(*payloads, *scalars, *tail, **extra)``
    once per PE of ``pes``; every PE is computed before anything is published, numeric
    status included (D12)."""
    n, freeze = len(checks), TileValue.freeze

    def plan(*args):
        tiles = [c(a) for c, a in zip(checks, args[:n])]
        scalars = [int(a) if isinstance(a, (int, np.integer)) else a for a in args[n:]]
        payloads: dict[int, np.ndarray] = {}
        defined: dict[int, np.ndarray] = {}
        with staged():  # numeric status publishes with the result, after every PE (D12)
            for p in pes:
                payload, dfn = kernel(*(t.payloads[p] for t in tiles), *scalars, *tail, **extra)
                freeze(p, payload, dfn, payloads, defined)
        return (TileValue(rtype, payloads, defined),)

    return plan


def register_plans(rows: Sequence[tuple[Sequence[type[Operation]], Callable[[Any, Any], Any]]]):
    """Class decorator of an ``InterpreterFunctions`` class: for each ``(ops, plan_of)`` row, one
    ``@impl`` per op, ``run_<name>``, running ``plan_of(self, op)(*args)`` (the family's plan,
    built from the op's static facts)."""

    def decorate(cls):
        for ops, plan_of in rows:
            def run(self, interpreter: Interpreter, op: Operation, args: tuple[Any, ...],
                    plan_of=plan_of):  # fmt: skip
                return plan_of(self, op)(*args)

            for op_cls in ops:
                setattr(cls, f"run_{op_cls.name[4:]}", impl(op_cls)(run))
        return cls

    return decorate


def tile_from_array(ttype: TileType, array: np.ndarray) -> TileValue:
    """A function argument of tile type: ``array`` is the valid rectangle ``(VR, VC)``,
    replicated on every PE of the tile's mask, or ``(P, VR, VC)`` with one slice per PE.

    Elements outside the valid rectangle are Null padding (undefined, D9). A predicate tile
    (``!pto.pred``) takes a bool array (or 0/1 integers): its unpacked bits.
    """
    pes = pe_indices(ttype.pe_mask)
    vr, vc = ttype.valid_shape
    a = np.asarray(array)
    if not isinstance(ttype, TileType):  # a predicate tile: its bits
        return _predicate_from_array(ttype, a, pes)
    dtype = storage_dtype(ttype.dtype)
    if a.dtype != dtype:
        if a.dtype.itemsize == dtype.itemsize and a.dtype.kind in "ui":
            a = a.view(dtype)
        else:
            raise ValueError(
                f"tile argument of element type {ttype.dtype.name} needs dtype {dtype}, got {a.dtype}"
            )
    if a.shape == (vr, vc):
        per_pe = {p: a for p in pes}
    elif a.shape == (len(pes), vr, vc):
        per_pe = {p: a[i] for i, p in enumerate(pes)}
    else:
        raise ValueError(
            f"tile argument needs shape ({vr}, {vc}) or ({len(pes)}, {vr}, {vc}) for its "
            f"{len(pes)} PE(s), got {a.shape}"
        )
    return TileValue.from_valid(ttype, per_pe, "null")


def array_from_tile(value: TileValue) -> np.ndarray:
    """A tile result crossing the function boundary: the valid rectangles, shape (P, VR, VC)."""
    if not value.allocated:
        raise PTOFault(FaultKind.TILE_LEGALITY, "result tile is not allocated (mask-0 no-op)")
    return value.valid_stack()


def _predicate_from_array(ttype, a: np.ndarray, pes: list[int]) -> TileValue:
    vr, vc = ttype.valid_shape
    if a.dtype != np.bool_:
        if a.dtype.kind not in "ui" or (a.size and not np.isin(a, (0, 1)).all()):
            raise ValueError(f"predicate tile argument needs bool (or 0/1) values, got {a.dtype}")
        a = a.astype(bool)
    if a.shape == (vr, vc):
        per_pe = {p: a for p in pes}
    elif a.shape == (len(pes), vr, vc):
        per_pe = {p: a[i] for i, p in enumerate(pes)}
    else:
        raise ValueError(f"predicate tile argument needs shape ({vr}, {vc}) or ({len(pes)}, "
                         f"{vr}, {vc}), got {a.shape}")  # fmt: skip
    payloads: dict[int, np.ndarray] = {}
    defined: dict[int, np.ndarray] = {}
    for p, v in per_pe.items():
        bits = np.zeros(ttype.shape, bool)
        bits[:vr, :vc] = v
        dfn = np.zeros(ttype.shape, bool)
        dfn[:vr, :vc] = True  # outside the valid rectangle: Null padding (undefined)
        TileValue.freeze(p, bits, dfn, payloads, defined)
    return TileValue(ttype, payloads, defined)
