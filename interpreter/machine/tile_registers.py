"""The Local tile register file at the tile-instruction level (PTO-SPEC 2; D12, D16).

An instruction here names **architectural tile IDs** (0..63: hands T U M N of 16) for its
destinations and sources, as the pto-spec tile-instruction contracts do
(``InstructionContractExecute_<OP>(destination, sources...)``, the operands of
``asl/tile/model/dispatch/top-level.asl``). It is the one level of the ISA where a destination
can name the same tile as a source:

* a **block** cannot: a B.IOT destination field is a 2-bit hand, and the block resolves it to
  an *unallocated* register of that hand (``ResolveBundleTileDestinationsWithShapeAndType`` in
  ``asl/block/model/dispatch/destination-shape.asl``, ``ResolveBundleTMATMULCubeDestinationGroup``
  in ``cube-destination.asl``) while every source stays allocated (a Local tile is released only
  by the rollback of a faulting block, ``asl/block/model/faults/rollback.asl``). Our blocks
  (``interpreter/ssa/block_functions.py``) and ``pto-assign-registers`` do the same;
* the **SSA tile level** cannot name a register at all (every result is a fresh value).

No instruction reaches the contracts except through a block, so this level is what the AVS
tests of the contracts exercise (their harness names tile IDs); :class:`TileRegisters` is our
model of it (tests/conformance/test_avs_alias.py, docs/conformance.md "Destination aliasing").

Semantics of :meth:`TileRegisters.execute` (read before write, faults before effects):

1. every named register must be allocated (configured), else TileLegality
   (``TileDescriptorLegal``); two destinations never name one register, and the operations
   whose contract forbids a destination/source alias (:data:`DISTINCT`) fault TileLegality
   when it is named anyway;
2. every source register is read (a snapshot of its whole value) before anything is written;
   the operation is built detached on the snapshots' descriptors, verified (the legality rules
   of every other level) and run on the same kernels through its row of the tile-plan table
   (:mod:`interpreter.machine.dispatch`, without re-entering IR: no function, module or
   :func:`interpreter.run`); a register named twice as a source is one operand value, so
   source-alias rules such as CUBE ``A == B`` are the verifier's;
3. only when it completed are the destinations written (each keeps its configured
   descriptor: the instruction's result type is the destination's). A fault leaves every
   register unchanged.

So with ``dst == src`` the result is computed from the complete old payload (``asl/tile/model/
execution/elementwise.asl`` ``ExecuteTileBinary``: "Snapshot both sources before the first
destination write"; AVS ``TMUL-ALIAS-001``, ``TFMA-ALIAS-001``, ...).

A register holds the valid rectangle of its tile on every PE, shape ``(P, VR, VC)`` (the
:func:`interpreter.run` boundary), and the PadValue of the positions outside it: every
producer (:meth:`TileRegisters.configure`, :meth:`~TileRegisters.write`, an executed
destination) leaves Null padding (undefined), as the ASL's producers do outside a block
(``TileWithPadding(result, CurrentBundlePadValue())``); :meth:`~TileRegisters.apply_padding`
is the ASL's ``ApplyTilePadding``, and :meth:`~TileRegisters.physical` shows the whole
physical tile (payload and definedness). Elements outside the valid rectangle are therefore
not "the destination's previous bits" of the ASL.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects import builtin
from xdsl.ir import Attribute, Block, BlockArgument, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from interpreter.kernels.padding import parse_pad
from interpreter.kernels.storage import pe_indices, storage_dtype
from interpreter.machine.dispatch import DECODE_CACHE, run_tile_op
from interpreter.machine.words import typed_values
from interpreter.ssa.runner import build_context
from interpreter.ssa.runtime import TileValue, array_from_tile, tile_from_array
from pto_dialect.attributes import TileType
from pto_dialect.families import TILE_OP_FAMILIES
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.feature_map import FeatureMap, FeatureMapAttr, field_errors
from pto_dialect.geometry import TILE_CAPACITY_BYTES, core_allocation_bytes
from pto_dialect.ops import CubeMatrixOp
from pto_dialect.predicate import PredicateTileType
from pto_dialect.tile_local import ReduceTileOp
from pto_dialect.tile_rearrange import THistogramOp, TImg2ColOp, TMrgSortOp, TSortOp

if TYPE_CHECKING:
    from interpreter.ssa.runtime import TileValue

REGISTERS = 64
"""Local tile IDs 0..63 (``PTO_TILE_REGISTER_COUNT``): hand * 16 + k - 1 names ``t#k``.."""

OPS: dict[str, type[IRDLOperation]] = {op.name: op for _, ops in TILE_OP_FAMILIES for op in ops}


@dataclass(frozen=True)
class Scalar:
    """A scalar operand (a GPR value at the contract level), e.g. TADDS's scalar."""

    value: int | float
    type: Attribute = builtin.i64


_REDUCTION = "TileOperandsLegal_ExecuteTileReduction (asl/tile/model/legality/reduction-and-expansion.asl)"
_ACC = "TileOperandsLegal_TMATMUL_ACC / _MX_ACC: D != C (asl/tile/model/legality/matrix-shape.asl)"


def _distinct_rules() -> dict[str, tuple[tuple[tuple[int, int], ...], str]]:
    """op name -> ((result index, tile-operand index) pairs that must name different tiles,
    the pto-spec rule)."""
    rules: dict[str, tuple[tuple[tuple[int, int], ...], str]] = {}
    for _, ops in TILE_OP_FAMILIES:
        for op in ops:
            if issubclass(op, ReduceTileOp):
                rules[op.name] = (((0, 0),), _REDUCTION)
            elif issubclass(op, CubeMatrixOp) and op.is_acc():  # C is the first operand
                rules[op.name] = (((0, 0),), _ACC)
    rules[TMrgSortOp.name] = (((0, 0), (0, 1)), "TileOperandsLegal_TMRGSORT "
                              "(asl/tile/model/legality/sorting.asl)")  # fmt: skip
    rules[TSortOp.name] = (((0, 0), (1, 0)), "TileOperandsLegal_TSORT "
                           "(asl/tile/model/legality/sorting.asl)")  # fmt: skip
    rules[THistogramOp.name] = (((0, 0), (0, 1)), "TileOperandsLegal_THISTOGRAM "
                                "(asl/tile/model/legality/indexed-layout.asl)")  # fmt: skip
    return rules


DISTINCT = _distinct_rules()
"""Destination/source pairs a contract forbids to alias (TileLegality): the reductions, the
ACC matrix forms (D != C), TMRGSORT, TSORT (its two destinations are distinct by the general
rule of :meth:`TileRegisters.execute`) and THISTOGRAM. Every other operation accepts
``dst == src`` with snapshot semantics (the ASL execution functions read their sources into
values before the first destination write)."""

Operand = int | Scalar | None | Sequence[int | Scalar]
"""One operand definition of the op: a register, a scalar, ``None`` for an absent optional
operand, or a list for a variadic one."""


def _fault_of(e: VerifyException, op: str) -> PTOFault:
    m = re.search(r"\[(\w+)\]", str(e))
    kind = m.group(1) if m and m.group(1) in FaultKind._value2member_map_ else None
    if kind is None:  # a malformed instruction (no fault kind): not a PTO fault
        lines = [x.strip() for x in str(e).splitlines() if x.strip()]
        raise ValueError(f"{op}: {' '.join(lines[:2])}") from None
    return PTOFault(kind, str(e).splitlines()[0], op=op)


class TileRegisters:
    """The 64 Local tile registers; :meth:`execute` runs one tile instruction on named IDs.

    Core tile capacity (asl/tile/model/capacity/local.asl; ADR-0013): an allocated register
    charges ``popcount(pe) x size`` (:func:`pto_dialect.geometry.core_allocation_bytes`);
    :attr:`capacity_in_use` is their sum (``TileCapacityInUse``). :meth:`configure` checks
    the sum with the register's own old charge replaced by the new one against
    ``tile_capacity`` (the system register, default and at most 256 KiB) before any effect.
    """

    def __init__(self, tile_capacity: int = TILE_CAPACITY_BYTES) -> None:
        if not 0 <= tile_capacity <= TILE_CAPACITY_BYTES:
            raise ValueError(f"tile_capacity must be 0 .. {TILE_CAPACITY_BYTES} bytes "
                             f"(asl/tile/model/capacity/local.asl), got {tile_capacity}")  # fmt: skip
        self.tile_capacity = tile_capacity
        self._type: dict[int, TileType | PredicateTileType] = {}
        self._value: dict[int, np.ndarray] = {}
        self._undefined: set[int] = set()
        """Allocated registers whose contents are not defined (a partial Shared EXTRACT)."""
        self.shared: Any = None
        """The :class:`interpreter.machine.shared_registers.SharedRegisters` sharing this capacity."""
        self._feature_map: dict[int, FeatureMap] = {}  # valid descriptors only
        self._pad: dict[int, str] = {}
        """PadValue of a register's positions outside its valid rectangle (absent: Null)."""

    # -- state (the AVS harness's ConfigureTile / WriteTileElement / ReadTileElement) -------
    def configure(self, index: int, ttype: TileType | PredicateTileType | str, value: Any, *,
                  defined: bool = True) -> None:
        """Allocate tile ``index`` with descriptor ``ttype`` and contents ``value`` (its valid
        rectangle, ``(VR, VC)`` or ``(P, VR, VC)``, as :func:`interpreter.run` takes it).
        ``ttype`` may be the descriptor's text (``"!pto.tile<...>"``): an illegal descriptor
        (e.g. a CUBE shape that does not fit its capacity) is then TileLegality with every
        register unchanged, the ASL's ``ConfigureTile`` / ``ConfigureCubeTile`` returning
        FALSE (asl/tile/model/state/allocation.asl).
        Reconfiguring an allocated register replaces its capacity charge; the Shared tiles of
        an attached :attr:`shared` file count too (``CoreTileCapacityInUse``). ``defined=False``
        allocates it with contents that are not defined (``contents_defined`` false: reading
        it as a source is TileLegality, ``TileSourceContentsDefined``). Beyond
        ``tile_capacity`` -> TileLegality with every register unchanged (ADR-0013: aggregate
        overflow of a direct allocation is a tile-legality fault, the old destination kept)."""
        self._check_index(index)

        if isinstance(ttype, str):
            ttype = _descriptor(ttype)
        need = core_allocation_bytes(ttype.pe_mask, ttype.capacity)
        held = self.capacity_in_use_except(index)
        held += self.shared.capacity_in_use if self.shared is not None else 0
        if held + need > self.tile_capacity:
            raise PTOFault(FaultKind.TILE_LEGALITY, f"tile {index} needs {need} B of core tile "
                           f"capacity but {held} B of the tile_capacity {self.tile_capacity} B "
                           "are allocated (TileCapacityInUseExcept, asl/tile/model/state/"
                           "allocation.asl; ADR-0013)", op="configure")  # fmt: skip
        contents = array_from_tile(tile_from_array(ttype, np.asarray(value)))
        self._value[index] = contents
        self._type[index] = ttype
        (self._undefined.discard if defined else self._undefined.add)(index)
        self._feature_map.pop(index, None)  # every allocation invalidates it (allocation.asl)
        self._pad.pop(index, None)

    def capacity_in_use_except(self, excluded: int | None) -> int:
        """Core tile capacity charged by the allocated registers other than ``excluded``."""
        return sum(core_allocation_bytes(t.pe_mask, t.capacity)
                   for i, t in self._type.items() if i != excluded)  # fmt: skip

    @property
    def capacity_in_use(self) -> int:
        """``TileCapacityInUse``: the charges of every allocated register."""
        return self.capacity_in_use_except(None)

    def release(self, index: int) -> None:
        self._type.pop(index, None)
        self._value.pop(index, None)
        self._undefined.discard(index)
        self._feature_map.pop(index, None)
        self._pad.pop(index, None)

    def contents_defined(self, index: int) -> bool:
        """``contents_defined`` of an allocated register."""
        self._require(index, "read")
        return index not in self._undefined

    def allocated(self, index: int) -> bool:
        return index in self._type

    def type_of(self, index: int) -> TileType | PredicateTileType:
        self._require(index, "read")
        return self._type[index]

    def configure_feature_map(self, index: int, fmap: FeatureMap) -> None:
        """``ConfigureTileFeatureMapDescriptor``: tile ``index``'s (allocated) feature-map
        descriptor, valid until the tile is configured again or released; TIMG2COL reads its
        source's (asl/tile/model/state/feature-map-descriptors.asl)."""
        self._require(index, "configure_feature_map")
        if errs := field_errors(fmap):
            raise ValueError(f"feature-map descriptor: {'; '.join(errs)}")
        self._feature_map[index] = FeatureMap(*fmap)

    def feature_map(self, index: int) -> FeatureMap | None:
        """``ReadTileFeatureMapDescriptor``: the valid descriptor of tile ``index`` or None."""
        return self._feature_map.get(index)

    def write(self, index: int, value: Any) -> None:
        """Replace the contents of allocated tile ``index`` (its valid rectangle, ``(VR, VC)``
        or ``(P, VR, VC)``) and mark them defined; descriptor, capacity charge and
        feature-map descriptor are unchanged (a producer writing its destination, e.g. the
        ASL's ``TLOAD``: ``_Tiles[[destination]] = result``)."""
        self._require(index, "write")

        ttype = self._type[index]
        self._value[index] = array_from_tile(tile_from_array(ttype, np.asarray(value)))  # type: ignore[arg-type]
        self._undefined.discard(index)
        self._pad.pop(index, None)

    def read(self, index: int) -> np.ndarray:
        """A copy of tile ``index``'s valid rectangles, shape ``(P, VR, VC)``."""
        self._require(index, "read")
        return self._value[index].copy()

    def apply_padding(self, index: int, pad: str | int) -> None:
        """``ApplyTilePadding``: every position of allocated tile ``index`` outside its valid
        rectangle holds PadValue ``pad`` (a name or its 2-bit code), defined unless ``pad`` is
        Null; the valid elements and ``contents_defined`` are unchanged (asl/tile/model/
        definedness/elements.asl ``TileWithPadding``)."""

        self._require(index, "apply_padding")
        if not isinstance(self._type[index], TileType):
            raise ValueError(f"tile {index} is a predicate tile: apply_padding pads data tiles")
        pad = parse_pad(pad)
        if pad == "null":
            self._pad.pop(index, None)
        else:
            self._pad[index] = pad

    def physical(self, index: int) -> TileValue:
        """Tile ``index`` as a physical tile: each PE's whole ``rows x cols`` payload (CUBE
        layouts in logical coordinates: :func:`pto_dialect.geometry.cube_payload_index` gives
        the payload order) with its definedness mask. Valid elements are defined iff
        :meth:`contents_defined`; the other positions hold the register's padding
        (:meth:`apply_padding`; Null: undefined)."""

        self._require(index, "physical")
        ttype, value = self._type[index], self._value[index]
        if isinstance(ttype, TileType):
            per_pe = dict(zip(pe_indices(ttype.pe_mask), value, strict=True))
            tile = TileValue.from_valid(ttype, per_pe, self._pad.get(index, "null"))
        else:
            tile = tile_from_array(ttype, value)
        if index not in self._undefined:
            return tile
        vr, vc = ttype.valid_shape
        defined = {}
        for p, d in tile.defined.items():
            d = d.copy()
            d[:vr, :vc] = False
            defined[p] = d
        return TileValue(tile.type, dict(tile.payloads), defined)  # type: ignore[arg-type]

    # -- one instruction ------------------------------------------------------------------------
    def execute(
        self,
        op: str,
        dst: int | Sequence[int | None],
        *operands: Operand,
        properties: dict[str, Attribute] | None = None,
        profile: str = "ordered",
    ) -> None:
        """Run tile instruction ``op`` (e.g. ``"pto.tmul"``) writing ``dst`` (one register, or
        one per result definition, ``None`` for an absent optional result) from ``operands``
        (one per operand definition of the op). See the module docstring for the order."""
        cls = OPS.get(op)
        if cls is None:
            raise ValueError(f"'{op}' is not a tile operation (known: pto.tadd, pto.tmul, ...)")
        dsts = [dst] if isinstance(dst, int) else list(dst)
        irdl = cls.get_irdl_definition()
        if len(dsts) != len(irdl.results) or len(operands) != len(irdl.operands):
            raise ValueError(
                f"'{op}' takes {len(irdl.operands)} operand(s) "
                f"({', '.join(n for n, _ in irdl.operands)}) and {len(irdl.results)} "
                f"destination(s), got {len(operands)} and {len(dsts)}"
            )
        flat: list[int] = []  # tile operands in order
        for o in operands:
            for x in o if isinstance(o, Sequence) else [o]:
                if isinstance(x, int):
                    flat.append(x)
        named = [d for d in dsts if d is not None]
        for i in [*flat, *named]:
            self._require(i, op)
        for i in flat:
            if i in self._undefined:
                raise PTOFault(FaultKind.TILE_LEGALITY, f"source tile {i} has no defined "
                               "contents (TileSourceContentsDefined, asl/tile/model/legality/"
                               "descriptor-shape.asl)", op=op)  # fmt: skip
        if len(set(named)) != len(named):
            raise PTOFault(FaultKind.TILE_LEGALITY, f"two destinations name one tile {named} "
                           "(TileOperandsLegal_TSORT, asl/tile/model/legality/sorting.asl; the "
                           "CUBE output group likewise, asl/block/model/dispatch/"
                           "descriptor-legality.asl)", op=op)  # fmt: skip
        if cls is TImg2ColOp:  # the descriptor is the source register's state (read-only)
            if "fmap" in (properties or {}):
                raise ValueError(f"'{op}' reads its source register's feature-map descriptor "
                                 "(configure_feature_map), not an fmap property")  # fmt: skip
            fm = self._feature_map.get(flat[0]) if flat else None
            properties = {**(properties or {}), **({"fmap": FeatureMapAttr.of(fm)} if fm else {})}
        pairs, rule = DISTINCT.get(op, ((), ""))
        for r, s in pairs:
            if r < len(dsts) and s < len(flat) and dsts[r] == flat[s]:
                raise PTOFault(FaultKind.TILE_LEGALITY, f"destination {r} aliases source {s} "
                               f"(tile {flat[s]}): the operation needs distinct tiles ({rule})",
                               op=op)  # fmt: skip
        # read every source before any write: one snapshot per register, one SSA argument
        regs = sorted(set(flat))
        snapshot = {i: self._value[i].copy() for i in regs}
        out = run_tile_instruction(
            op, operands, [None if d is None else self._type[d] for d in dsts],
            {i: self._type[i] for i in regs}, snapshot, properties, profile)  # fmt: skip
        for d, v in zip(named, out, strict=True):  # after the whole instruction: publish
            self._value[d] = register_storage(self._type[d], v)
            self._undefined.discard(d)
            self._pad.pop(d, None)

    # -- helpers --------------------------------------------------------------------------------
    @staticmethod
    def _check_index(index: int) -> None:
        if not isinstance(index, int) or not 0 <= index < REGISTERS:
            raise ValueError(f"tile ID {index!r} is not a Local tile register (0..{REGISTERS - 1})")

    def _require(self, index: int, where: str) -> None:
        self._check_index(index)
        if index not in self._type:
            raise PTOFault(FaultKind.TILE_LEGALITY, f"tile {index} is not allocated "
                           "(TileDescriptorLegal)", op=where)  # fmt: skip


def register_storage(ttype: Attribute, value: np.ndarray) -> np.ndarray:
    """A result in a register's storage: raw-carrier (D4) results are the ASL's 64-bit raw
    payload words, of which an element keeps its low bits."""

    value = np.asarray(value)
    if not isinstance(ttype, TileType) or value.dtype == storage_dtype(ttype.dtype):
        return value
    return typed_values(ttype.dtype, value.astype(np.int64).view(np.uint64))


def _descriptor(text: str) -> TileType | PredicateTileType:
    """A ``!pto.tile`` / ``!pto.pred`` descriptor from its text; an illegal one (a
    [TileLegality] diagnostic) -> that :class:`PTOFault`, other text -> ValueError."""
    from xdsl.utils.exceptions import ParseError


    try:
        ttype = Parser(build_context(), text).parse_type()
    except (ParseError, VerifyException) as e:
        lines = [x.strip() for x in str(e).splitlines() if x.strip()]
        rule = next((x for x in lines if "[TileLegality]" in x), None)
        if rule is None:
            raise ValueError(f"not a tile descriptor {text!r}: {' '.join(lines[-1:])}") from None
        raise PTOFault(FaultKind.TILE_LEGALITY, rule.replace("[TileLegality] ", ""),
                       op="configure") from None
    if not isinstance(ttype, TileType | PredicateTileType):
        raise ValueError(f"not a tile descriptor {text!r} (a !pto.tile or !pto.pred type)")
    return ttype


def run_tile_instruction(
    op: str,
    operands: Sequence[Operand],
    result_types: Sequence[Attribute | None],
    types: dict[int, Attribute],
    values: dict[int, np.ndarray],
    properties: dict[str, Attribute] | None = None,
    profile: str = "ordered",
) -> list[np.ndarray]:
    """Build tile instruction ``op`` on operand keys (each tile key names one argument of
    ``types[key]`` holding ``values[key]``, ``(P, VR, VC)``), verify it (a diagnostic with a fault
    kind -> that :class:`PTOFault`) and run it on its kernels through its row of the tile-plan
    table (:func:`interpreter.machine.dispatch.run_tile_op`: no function, module or
    :func:`interpreter.run`); returns the results (``None`` result type: an absent optional
    result). The verified op is a pure function of the op, the operands' pattern, the
    descriptors and the properties and is remembered (a successful one only: an illegal
    instruction is built, and faults, every time)."""
    keys = sorted(types)
    where = {k: i for i, k in enumerate(keys)}
    scalars: list[Scalar] = []

    def code(x: int | Scalar) -> int | Attribute:
        if isinstance(x, Scalar):
            scalars.append(x)
            return x.type
        return where[x]

    pattern = tuple(None if o is None else tuple(code(x) for x in o) if isinstance(o, Sequence)
                    else code(o) for o in operands)  # fmt: skip
    spec = (op, pattern, tuple(types[k] for k in keys), tuple(result_types),
            tuple(sorted((properties or {}).items())))  # fmt: skip
    try:
        instr, numbers = _verified(*spec)
    except TypeError:  # an unhashable property: build it without the memo
        instr, numbers = _verified.__wrapped__(*spec)
    args = [*(values[k] for k in keys), *(s.value for s in scalars)]
    return run_tile_op(instr, [args[k] for k in numbers], profile, numbers)


@lru_cache(maxsize=DECODE_CACHE)
def _verified(op: str, pattern: tuple, key_types: tuple[Attribute, ...],
              result_types: tuple[Attribute | None, ...],
              properties: tuple[tuple[str, Attribute], ...]) -> tuple[IRDLOperation, list[int]]:  # fmt: skip
    """The detached, verified op of :func:`run_tile_instruction` and, per operand, the number
    of the argument it reads (the key's position; scalars after the keys, in operand order).
    ``pattern``: per operand definition None, a key position or a scalar's type, or a tuple
    of those (variadic)."""
    body = Block(arg_types=list(key_types))
    n_keys = len(key_types)

    def value(c: int | Attribute) -> SSAValue:
        if isinstance(c, int):
            return body.args[c]
        return body.insert_arg(c, len(body.args))

    built = [[] if p is None else [value(c) for c in p] if isinstance(p, tuple) else value(p)
             for p in pattern]  # fmt: skip
    # the generic IRDL builder (some ops define a convenience ``build`` of their own)
    instr = IRDLOperation.build.__func__(  # type: ignore[attr-defined]
        OPS[op], operands=built, result_types=[[] if t is None else t for t in result_types],
        properties=dict(properties),
    )
    try:
        instr.verify()
    except VerifyException as e:
        raise _fault_of(e, op) from None
    assert all(isinstance(v, BlockArgument) for v in instr.operands) and n_keys <= len(body.args)
    return instr, [v.index for v in instr.operands]  # type: ignore[attr-defined]
