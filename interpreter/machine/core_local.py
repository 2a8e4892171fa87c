"""Decoded (unlinked) Local TEPL and CUBE blocks on :class:`~interpreter.machine.shared_blocks.Core`
(PTO-SPEC 3.5; D12, D16).

A block read from assembly or hex names registers only: its B.IOT sources are Local tile IDs
0..63 and its destinations are hands. On a :class:`Core` the registers exist, so the block
runs as the ASL completes it (``asl/block/model/dispatch/destination-shape.asl``
``ResolveBundleTileDestinationsWithShapeAndType``, ``cube-destination.asl``):

1. every source register must be allocated (TileLegality, ``TileDescriptorLegal``);
2. the destination descriptors are derived (:func:`destination_types`): shape from the LBs
   (closed schemas: ValidCol = LB0, ValidRow = LB1 else 1, Col = LB2 else ValidCol), from the
   source (reductions: ``VR x 1`` / ``1 x VC``; the comparisons' predicate: the source's
   shape), type the effective DataType (B.DATR DataType when concrete, else BSTART; arg
   reductions U32; CUBE the accumulator type or the B.FPATR PreQuant output type, its RowMax /
   GroupMax outputs the accumulator type), layout row-major (TCVT: the one its B.DATR Layout
   names; CUBE D: A's layout, location mat), capacity the B.IOT SizeCode, PE mask the
   binding's; a SizeCode too small for it is TileAllocation;
3. each destination hand resolves to its lowest unallocated register (distinct registers for
   several destinations) and the whole group's capacity is charged against ``tile_capacity``
   (``CoreTileCapacityInUse``): no free register or not enough capacity -> TileAllocation;
4. every source's contents must be defined (TileLegality, ``TileSourceContentsDefined``: part
   of the operation's execution, after the destinations are resolved,
   ``asl/block/model/dispatch/tile-execution.asl``); the scalar operands (tile-scalar
   scalars, TQUANT/TDEQUANT, TCI/TTRI/TFILLPAD parameters, CUBE post-processing parameters,
   register-base B.DIM values) are read from the dispatching agent's GPRs through the B.IOR /
   B.DIM selectors in the linked path's B.IOR dense order (:func:`pto_dialect.block_ops.
   scalar_roles`);
5. the block then runs as its linked block would, without becoming one
   (:mod:`interpreter.machine.dispatch`): the decode selects the tile-level op, which is built
   detached on the register descriptors and checked as a linked block's is (the same
   reconstruction, verifier and block/type checks, :func:`pto_dialect.block_ops.check_computed`;
   the scalars are those the B.IOR names, so the linked ``a<k>`` naming is not required); a
   register-base B.DIM's LB is checked against the tiles (:func:`pto_dialect.block_ops.
   check_dim_values`); the op's row of :data:`interpreter.ssa.tile_plans.TILE_PLANS` runs its
   kernels on the register values (:func:`interpreter.ssa.block_functions.linked_plan`: the
   block's operand order). No ``pto.block``, function or module is built and nothing is
   decoded or verified again;
6. only then are the destinations allocated and written. Any fault leaves every register
   unchanged.

Families (:data:`FAMILIES`): the TEPL binary family (TREM included), tile-scalar, unary and
TFMA (the elementwise table), compare (predicate result) and select, conversions (TCVT with
its B.DATR Layout transformations, TQUANT, TDEQUANT), the generators (TCI, TTRI), the
row/column reductions and expansions, TCONCAT, TPART*, TGATHER, TSCATTER, TFILLPAD, TSORT, TMRGSORT, THISTOGRAM and the
Local CUBE / GEMV blocks (their RowMax / GroupMax outputs included). TTRANS, the block-unsound
TEXTRACT / TINSERT / TIMG2COL, a B.DATR Layout on a TEPL destination other than TCVT's and
B.CATR ``trap`` raise :class:`~pto_dialect.isa.errors.NotModelledError` naming
the block.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from xdsl.dialects.builtin import i64
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from interpreter.machine.block_control import BlockResult
from interpreter.machine.descriptors import derived_rows
from interpreter.machine.dispatch import DECODE_CACHE, checked_op, run_decoded_block
from interpreter.machine.global_memory import element_bits
from interpreter.machine.tile_registers import register_storage
from pto_dialect.attributes import TileType
from pto_dialect.block_ops import (
    dim_registers,
    op_class_of,
    scalar_roles,
    source_roles,
    unsound_reason,
)
from pto_dialect.compare_ops import TileCompareOp, TileSelectOp
from pto_dialect.convert_ops import LAYOUT_PAIR_OF_CODE, ConvertTileOp, TCvtOp
from pto_dialect.datatypes import TileDataType
from pto_dialect.elementwise_ops import TeplElementwiseOp
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import Layout, Location, size_of_code
from pto_dialect.isa import BDim, BlockFamily, BlockSummary, Command
from pto_dialect.isa.block import lb_value
from pto_dialect.isa.commands import PE_MODE_MASKS
from pto_dialect.isa.errors import NotModelledError
from pto_dialect.ops import BinaryTileOp
from pto_dialect.postprocess import pre_quant_output_type
from pto_dialect.predicate import PredicateTileType
from pto_dialect.tile_local import ExpandTileOp, GeneratorTileOp, ReduceTileOp, TTransOp
from pto_dialect.tile_local_base import TeplTileOp
from pto_dialect.tile_rearrange import (
    THistogramOp,
    TMrgSortOp,
    TSortOp,
    smallest_physical_columns,
)

_TL = FaultKind.TILE_LEGALITY
_TA = FaultKind.TILE_ALLOCATION
FAMILIES = ("binary", "elementwise", "compare", "select", "convert", "generator", "reduce",
            "expand", "rearrange", "sort", "mrgsort", "histogram", "cube")  # fmt: skip
"""The Local block families :meth:`Core.execute` runs unlinked (docs/blocks.md)."""


LOCAL_FAMILIES = {TSortOp: "sort", TMrgSortOp: "mrgsort", THistogramOp: "histogram"}
"""Tile-local ops whose destination shape the ASL derives from the sources; the other
rearrangements (TCONCAT, TPART*, TGATHER, TSCATTER, TFILLPAD) take the closed LB schema.
TTRANS is not run on Core: its LBs describe the source, and the ASL resolves its destination
with that (untransposed) shape."""


def family_of(s: BlockSummary) -> str:
    """The :data:`FAMILIES` entry of a Local TEPL / CUBE block; NotModelledError otherwise."""
    if s.family is BlockFamily.CUBE:
        return "cube"
    if s.family is BlockFamily.TEPL:
        if op_class_of(s, BinaryTileOp) is not None:
            return "binary"
        if op_class_of(s, TileCompareOp) is not None:
            return "compare"
        if op_class_of(s, TileSelectOp) is not None:
            return "select"
        if op_class_of(s, TeplElementwiseOp) is not None:
            return "elementwise"
        if op_class_of(s, ConvertTileOp) is not None:
            return "convert"
        if op_class_of(s, GeneratorTileOp) is not None:
            return "generator"
        local = op_class_of(s, TeplTileOp)
        if local is not None and issubclass(local, ReduceTileOp):
            return "reduce"
        if local is not None and issubclass(local, ExpandTileOp):
            return "expand"
        if local is not None and local is not TTransOp:
            return LOCAL_FAMILIES.get(local, "rearrange")
        if local is TTransOp:
            raise NotModelledError("TTRANS on Core: its LBs describe the source (the linked "
                                   "form), and the ASL resolves its destination with that "
                                   "untransposed shape (destination-shape.asl); not modelled")  # fmt: skip
        if unsound_reason(s):
            raise NotModelledError(f"{s.op_name}: {unsound_reason(s)}")
    raise NotModelledError(f"{s.op_name or 'this block'}: Core runs the decoded Local blocks of "
                           f"the families {', '.join(FAMILIES)}; this one runs as a linked "
                           "pto.block (interpreter.run)")  # fmt: skip


def destination_types(s: BlockSummary, fam: str, srcs: list[Attribute],
                      lbs: list[int | None]) -> list[Attribute]:  # fmt: skip
    """The descriptor each B.IOT destination is configured with (module docstring, step 2)
    from the source descriptors ``srcs`` and the block's LB0..2 values ``lbs`` (None:
    unwritten); TileAllocation when a SizeCode does not hold it."""
    mask = PE_MODE_MASKS[s.pe_mode]  # type: ignore[index]
    name = s.op_name
    out: list[Attribute] = []
    for ordinal, (_hand, code) in enumerate(s.destinations):
        cap = size_of_code(code)
        try:
            t = _derived(s, fam, ordinal, cap, srcs, lbs, mask)
            errs = ["no whole number of rows"] if t is None else t.legality_errors()  # type: ignore[attr-defined]
        except VerifyException as e:  # the descriptor's own check: e.g. it exceeds the SizeCode
            errs = [str(e).split("invalid !pto.tile: ", 1)[-1]]
        if errs:
            raise PTOFault(_TA, f"at block completion: destination {ordinal} SizeCode {code} "
                           f"({cap} B) does not hold its derived descriptor: {'; '.join(errs)} "
                           "(ResolveBundleTileDestinationsWithShapeAndType, asl/block/model/"
                           "dispatch/destination-shape.asl)", op=name)  # fmt: skip
        out.append(t)  # type: ignore[arg-type]
    return out


def _derived(s: BlockSummary, fam: str, ordinal: int, cap: int, srcs: list[Attribute],
             lbs: list[int | None], mask: str) -> Attribute | None:  # fmt: skip
    """The descriptor of destination ``ordinal`` (``cap`` bytes); None when ``cap`` holds no
    whole number of rows; VerifyException when the descriptor is not legal."""
    if fam == "cube" and ordinal == 0:
        return _cube_destination(s, srcs, lbs, cap, mask)
    if fam == "cube":
        return _cube_auxiliary(s, ordinal, lbs, cap, mask)
    if fam == "compare":
        src = srcs[0]
        assert isinstance(src, TileType)
        return PredicateTileType(src.shape, valid=src.valid_shape, size=cap, pe=mask)
    layout = _destination_layout(s, fam)
    vr, vc, col, dt = _tile_shape(s, fam, srcs, lbs)
    dt = dt if ordinal == 0 else TileDataType.U32  # a second destination: U32 indices
    rows = _rows(cap, col, dt, layout) if 1 <= col <= 32768 and vc >= 1 else 0
    return TileType((rows, col), dt, valid=(vr, vc), layout=layout, location=Location.ANY,
                    size=cap, pe=mask) if rows else None  # fmt: skip


@lru_cache(maxsize=DECODE_CACHE)
def _destination_types(s: BlockSummary, fam: str, srcs: tuple[Attribute, ...],
                       lbs: tuple[int | None, ...]) -> list[Attribute]:  # fmt: skip
    """:func:`destination_types` remembered per (decode, sources, LBs); faults raise again."""
    return destination_types(s, fam, list(srcs), list(lbs))


def _destination_layout(s: BlockSummary, fam: str) -> Layout:
    """``CurrentBundleTileLayout``: row-major without a B.DATR Layout; TCVT's Layout code names
    a (source, destination) layout pair (``TileDataLayoutDestinationLayout``,
    :data:`pto_dialect.convert_ops.LAYOUT_PAIR_OF_CODE`); any other layout is not modelled."""
    code = s.datr.layout if s.datr_present else 0
    if code == 0:
        return Layout.ROW_MAJOR
    if fam == "convert" and op_class_of(s, TCvtOp) is TCvtOp and code in LAYOUT_PAIR_OF_CODE:
        return LAYOUT_PAIR_OF_CODE[code][1]
    raise NotModelledError(f"{s.op_name} with B.DATR Layout {code}: only the row-major "
                           "destination (and TCVT's layout transformations) is modelled on Core")  # fmt: skip


def _rows(cap: int, col: int, dt: TileDataType, layout: Layout) -> int:
    """Physical rows of a ``cap``-byte destination of ``col`` columns: ``TSize * 8 / (Col *
    bits)`` (``DerivedTileRows``; 0 when not whole)."""
    if layout is Layout.ROW_MAJOR:
        return derived_rows(cap, col, dt)
    bits = col * element_bits(dt)
    return cap * 8 // bits if (cap * 8) % bits == 0 else 0


def _tile_shape(s: BlockSummary, fam: str, srcs: list[Attribute],
                lbs: list[int | None]) -> tuple[int, int, int, TileDataType]:  # fmt: skip
    """(ValidRow, ValidCol, Col, type) of a non-CUBE data destination
    (``ResolveBundleTileDestinationsForOperation``)."""
    src = srcs[0] if srcs else None
    local = op_class_of(s, TeplTileOp)
    if fam == "reduce":
        assert isinstance(src, TileType) and local is not None and issubclass(local, ReduceTileOp)
        vr, vc = src.valid_shape
        dt = TileDataType.U32 if local.is_arg() else src.dtype
        return (vr, 1, 1, dt) if local.AXIS == "row" else (1, vc, src.shape[1], dt)
    if fam == "sort":  # TSORT: the source's shape and type (indices: U32)
        assert isinstance(src, TileType)
        return (*src.valid_shape, src.shape[1], src.dtype)
    if fam == "mrgsort":  # 1 x (left VC + right VC), Col the smallest power of two covering it
        left, right = srcs[0], srcs[1]
        assert isinstance(left, TileType) and isinstance(right, TileType)
        n = left.valid_shape[1] + right.valid_shape[1]
        return 1, n, smallest_physical_columns(n) if n <= 32768 else 0, left.dtype
    if fam == "histogram":  # source valid rows x 256, the effective type
        assert isinstance(src, TileType)
        return src.valid_shape[0], 256, 256, TileDataType(s.b_type)
    vc = lbs[0] or 0  # the closed LB schemas: LB0 = ValidCol, LB1 = ValidRow, LB2 = Col
    return lbs[1] or 1, vc, lbs[2] or vc, TileDataType(s.b_type)


def _cube_destination(s: BlockSummary, srcs: list[Attribute], lbs: list[int | None], cap: int,
                      mask: str) -> TileType:  # fmt: skip
    """``ResolveBundleTMATMULDestination`` (cube-destination.asl): ``M x N`` of the
    accumulator type (MX: FP32) or the B.FPATR PreQuant output type; a CUBE-layout A makes it
    a CUBE tile of A's layout (location mat), else row-major ``M x N``."""

    fp = s.fpatr
    assert fp is not None
    m, n = (lbs[i] or 1 for i in range(2))
    a_t = TileDataType(s.a_type)
    acc = TileDataType.FP32 if s.start.cube is not None and s.start.cube.is_mx else a_t.accumulator
    dt = pre_quant_output_type(fp.pre_quant_mode, acc) if fp.pre_quant_mode else acc
    roles = source_roles(s, [t for t in srcs if isinstance(t, TileType)])
    a = srcs[roles.index("a")] if "a" in roles and len(srcs) == len(roles) else None
    if isinstance(a, TileType) and a.layout_kind.is_cube:
        return TileType((m, n), dt, layout=a.layout_kind, location=Location.MAT, size=cap,
                        pe=mask)  # fmt: skip
    return TileType((m, n), dt, layout=Layout.ROW_MAJOR, location=Location.ANY, size=cap,
                    pe=mask)  # fmt: skip


def _cube_auxiliary(s: BlockSummary, ordinal: int, lbs: list[int | None], cap: int,
                    mask: str) -> TileType | None:  # fmt: skip
    """The RowMax (``M x 1``) or GroupMax (``M x ceil(N / GroupN)``) destination of a CUBE
    block: the accumulator type, row-major, location any (``ResolveBundleTMATMULCubeDestination
    Group``, cube-destination.asl); None when ``cap`` holds no whole number of rows."""
    fp = s.fpatr
    assert fp is not None
    m, n = (lbs[i] or 1 for i in range(2))
    a_t = TileDataType(s.a_type)
    acc = TileDataType.FP32 if s.start.cube is not None and s.start.cube.is_mx else a_t.accumulator
    row = bool(fp.row_max_en) and ordinal == 1
    cols = 1 if row else -(-n // max(fp.group_n, 1))
    rows = derived_rows(cap, cols, acc)
    return TileType((rows, cols), acc, valid=(m, cols), location=Location.ANY, size=cap,
                    pe=mask) if rows else None  # fmt: skip


class LocalBlocks:
    """The Local TEPL / CUBE blocks of :class:`~interpreter.machine.shared_blocks.Core` (mixin)."""

    def _local_block(self, s: BlockSummary, cmds: list[Command], profile: str):

        core = self  # type: ignore[assignment]
        name = s.op_name
        fam = family_of(s)
        if s.catr is not None and s.catr.trap:
            raise NotModelledError(f"{name}: B.CATR trap (a post-commit trap) on a decoded Local "
                                   "block is not modelled on Core")  # fmt: skip
        for i in s.sources:  # the schema reads every source's descriptor
            if not core.local.allocated(i):
                raise PTOFault(_TL, f"at block completion: source tile {i} is not allocated "
                               "(TileDescriptorLegal, asl/tile/model/legality/"
                               "descriptor-shape.asl)", op=name)  # fmt: skip
        agent = core.memory.agent
        lbs = [s.lb[k] if s.lb_regs[k] is None else lb_value(
            next(c for c in s.commands if isinstance(c, BDim) and c.lb == k),
            core.read_gpr(agent, s.lb_regs[k])) for k in range(3)]  # fmt: skip
        srcs = [core.local.type_of(i) for i in s.sources]
        outs = _destination_types(s, fam, tuple(srcs), tuple(lbs))
        mask = PE_MODE_MASKS[s.pe_mode]  # type: ignore[index]
        dsts = core._resolve_destinations([h for h, _ in s.destinations],
                                          [t.capacity for t in outs], mask, name)  # fmt: skip
        for i in s.sources:  # execution after the destinations are resolved (tile-execution.asl)
            if not core.local.contents_defined(i):
                raise PTOFault(_TL, f"at block completion: source tile {i} has no defined "
                               "contents (TileSourceContentsDefined, asl/tile/model/legality/"
                               "descriptor-shape.asl)", op=name)  # fmt: skip
        roles = scalar_roles(s)
        ior = s.scalars
        scalars = [core.read_gpr(agent, ior.sources[k]) for k in range(len(roles))] if ior else []
        dims = [core.read_gpr(agent, r) for r in dim_registers(s)]
        words = [int(np.uint64(v).view(np.int64)) for v in (*scalars, *dims)]
        # the linked path's reconstruction and checks, on the register descriptors
        tile_op = checked_op(s, (*srcs, *[i64] * len(scalars)), tuple(outs))
        results = run_decoded_block(s, tile_op, [core.local.read(i) for i in s.sources], srcs,
                                    words, profile)  # fmt: skip
        for d, t, v in zip(dsts, outs, results, strict=True):  # publish after completion
            core.local.configure(d, t, register_storage(t, v))
        return BlockResult(name, dsts[0] if dsts else None, others=tuple(dsts[1:]))
