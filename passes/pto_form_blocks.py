"""``pto-form-blocks``: tile-level ops -> their PTO blocks (PTO-SPEC 2, 3, 4, 5; D11-D14).

Every tile-level op with a block form, in every block of every region (``scf.for`` bodies
included), becomes one linked ``pto.block`` (see :mod:`pto_dialect.block_ops`) in the CANONICAL
form, with the spec's defaults elided. The formers are a table keyed by op family
(:data:`FORMERS`) and read the op classes' ``MNEMONIC`` / ``FUNCTION`` / ``BSTART`` constants
and ``operand_by_role()``, so every family member flows through its row:

* binary TEPL ops (TREM and siblings, PTO-SPEC 5): ``BSTART.<engine> <MNEMONIC>, DT``;
  ``B.DATR`` only when the PadValue is not Null (omitted B.DATR = Null, D9); LB0 = ValidCol
  always, LB1 = ValidRow only when it is not 1, LB2 = Col only when it is not ValidCol; one
  ``B.IOT lhs, rhs, mask, last, ->hand<TSize>``.
* unary and tile-scalar TEPL ops (PTO-SPEC 5): as binary, with one source; a tile-scalar
  op's scalar is read through ``B.IOR [a0], ->zero`` after the B.IOT (the catalog's block
  composition order) and linked after the tile source.
* CUBE ops (TGEMV_MX_BIAS and siblings, PTO-SPEC 4): ``BSTART.<BSTART> AType``; ``B.DATR``
  only when BType != AType, RMode is not the default (code 0 = RNE for CUBE) or Sat is set;
  exactly one ``B.FPATR``; ``B.DIM`` only for a dimension that is not 1; when B.FPATR
  selects scalar post-processing parameters, ``B.IOR [a0[, a1]], ->zero`` (PTO-SPEC 3.3:
  dense order, quant first, then LReLU; LReLU alone uses RegSrc0), the scalars linked after
  the tile sources (RegSrc k = ``a<k>``, the pseudo register convention of docs/blocks.md);
  sources in stream order (the op's operand declaration order), packed two per B.IOT; the
  destinations (D, then RowMaxOut, GroupMaxOut) one per B.IOT on the last B.IOTs, the last
  with ``last``.
* ``pto.tload`` / ``pto.tstore`` (pto-spec ``BSTART.TLOAD.asl`` / ``BSTART.TSTORE.asl``
  block compositions): ``BSTART.TLOAD|TSTORE DT``; ``B.DATR <conversion>, DTYPE_NONE, <Pad>``
  when the tile is a CUBE conversion (ND2M16...; an ordinary load with a pad other than
  Null is rejected: the ISA's ordinary TLOAD leaves padding undefined); LB0 =
  ValidCol, LB1 = ValidRow, LB2 = Col when it is not ValidCol (never for CUBE layouts);
  ``B.IOR [a0, a1, zero], ->zero`` (per-PE GM base and byte row stride, set by the GMADDR
  pseudo-instruction, docs/blocks.md); one terminating destination (load) or source (store)
  B.IOT. The linked block keeps the tensor and offsets as operands and the per-PE step as
  ``pto.pe_stride``.
* LB values use ``C.B.DIMI`` when they fit its 8-bit immediate, else ``B.DIM zero, imm``.
* Each destination's SizeCode is the code of its result type's capacity (TSize, D14).

Registers: this pass does NOT assign them. Each formed block carries ``pto.unassigned``; its
B.IOT source fields hold the placeholder ``t#1`` and its destination hands the type's default
hand, until ``pto-assign-registers`` (passes/pto_assign_registers.py) rewrites them from a
liveness-based allocation and drops the marker. The targets refuse unassigned blocks. The
B.IOR GPRs are not allocated: they follow the fixed ``a<k>`` convention.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.dialects.builtin import IntegerAttr, UnitAttr, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from pto_dialect import isa
from pto_dialect.attributes import Layout, PadValue, RoundingMode, TileType
from pto_dialect.block_ops import (
    GM_BASE_GPR,
    GM_STRIDE_GPR,
    MOVE_LAYOUT_CODES,
    PE_STRIDE_ATTR,
    ROW_STRIDE_ATTR,
    SLOT_GPRS,
    UNASSIGNED_ATTR,
    BlockOp,
)
from pto_dialect.compare_ops import CompareSelectOp, TileCompareOp
from pto_dialect.convert_ops import ConvertTileOp, TCvtOp
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.datatypes import DTYPE_NONE, TileDataType
from pto_dialect.elementwise_ops import TeplElementwiseOp
from pto_dialect.geometry import code_of_size
from pto_dialect.gm_indexed import (
    FOOTPRINT_ATTR,
    PEERS_ATTR,
    GlobalMemoryOp,
    GMovOp,
    TPrefetchOp,
)
from pto_dialect.isa.commands import HANDS, MASK_PE_MODES
from pto_dialect.ops import BinaryTileOp, CubeMatrixOp
from pto_dialect.predicate import PredicateTileType
from pto_dialect.tile_local import GeneratorTileOp, TeplTileOp
from pto_dialect.tile_move import LocalMoveOp

PLACEHOLDER_SOURCE = 0
"""B.IOT source field of an unassigned block (``t#1``) until pto-assign-registers runs."""


def hand_of(t: TileType) -> int:
    """The hand a tile of type ``t`` lives in (docs/blocks.md register model): CUBE_M16/M32 ->
    ``m``, CUBE_N8 -> ``n``, E8M0 (MX scales) -> ``u``, everything else -> ``t``."""
    if t.layout_kind in (Layout.CUBE_M16, Layout.CUBE_M32):
        return HANDS.index("m")
    if t.layout_kind is Layout.CUBE_N8:
        return HANDS.index("n")
    if t.dtype is TileDataType.E8M0:
        return HANDS.index("u")
    return HANDS.index("t")


LB_MAX = 0xFFFF
"""LB0/1/2 hold 16 bits: B.DIM writes (GPR + uimm17)[15:0] (PTO-SPEC 3.4)."""


def _lb(lb: int, value: int) -> isa.Command:
    if not 0 <= value <= LB_MAX:
        raise PassFailedException(
            f"pto-form-blocks: LB{lb} = {value} does not fit the 16-bit loop bound "
            f"(0..{LB_MAX}, PTO-SPEC 3.4); a tile dimension this large has no encoding"
        )
    return isa.CBDimi(lb, value) if 0 <= value < 256 else isa.BDim(lb, 0, value)


def closed_lbs(t: TileType) -> list[isa.Command]:
    """``LB0 = ValidCol; [LB1 = ValidRow]; [LB2 = Col]`` of ``t``, defaults (ValidRow 1, Col =
    ValidCol) elided: the closed TEPL schemas' dimensions."""
    vr, vc = t.valid_shape
    cmds = [_lb(0, vc)]
    if vr != 1:
        cmds.append(_lb(1, vr))
    if t.shape[1] != vc:
        cmds.append(_lb(2, t.shape[1]))
    return cmds


def _pe_mode(op: Operation, mask: str) -> int:
    if mask not in MASK_PE_MODES:
        raise PassFailedException(
            f"'{op.name}': PE mask {mask} has no PEMode encoding (encodable: "
            f"{', '.join(MASK_PE_MODES)})"
        )
    return MASK_PE_MODES[mask]


def _size_code(op: Operation, t: TileType) -> int:
    code = code_of_size(t.capacity)
    if code is None or not 1 <= code <= 10:
        raise PassFailedException(
            f"'{op.name}': result capacity {t.capacity} B has no Local SizeCode (D14)"
        )
    return code


@dataclass
class _Form:
    commands: list[isa.Command]
    ins: list[SSAValue]
    """The linked block's operands (tile sources in stream order, then a CUBE block's scalar
    post-processing parameters in B.IOR order; for data movement the tensor and offsets)."""
    attributes: dict[str, Attribute] = field(default_factory=dict)


def binary_block(op: BinaryTileOp) -> _Form:
    """Canonical binary TEPL block (PTO-SPEC 5), from the op's ``MNEMONIC`` row."""
    return tepl_block(op, [op.lhs, op.rhs], [])


def elementwise_block(op: TeplElementwiseOp) -> _Form:
    """Canonical unary / tile-scalar TEPL block: the catalog composition ``BSTART.<engine>
    <MNEMONIC>, DT; [B.DATR Pad]; B.DIM..; B.IOT src, mask, last, ->dst<TSize>;
    [B.IOR a0, zero, zero, ->zero]; BSTOP`` (the scalar read through RegSrc0 = ``a0``)."""
    return tepl_block(op, op.tile_operands(), op.scalar_operands())


def compare_block(op: CompareSelectOp) -> _Form:
    """Canonical TCMP / TCMPS / TSEL / TSELS block (catalog compositions): as
    :func:`tepl_block`, with DataType the compared (TCMP*) or selected (TSEL*) data type and
    the CMode in B.DATR (``B.DATR CMode, PadValue``; omitted when EQ with Null padding). TSEL
    binds ``Predicate, SrcTrue`` in a source-only B.IOT, then ``SrcFalse, ->Dst``."""
    tiles = op.tile_operands()
    data = tiles[0 if isinstance(op, TileCompareOp) else 1].type
    cmode = op.compare_mode.code if isinstance(op, TileCompareOp) else 0
    return tepl_block(op, tiles, op.scalar_operands(), dtype=data.dtype.value, cmode=cmode)  # type: ignore[attr-defined]


def tepl_block(op, sources: list[SSAValue], scalars: list[SSAValue], *,
               dtype: int | None = None, cmode: int = 0) -> _Form:  # fmt: skip
    """One TEPL block: up to two tile sources in the destination's B.IOT (a third in a
    preceding source-only B.IOT, stream order), then the B.IOR scalars. ``dtype`` overrides
    the BSTART DataType (default: the first source's), ``cmode`` is the B.DATR CMode."""
    rt = op.results[0].type
    t = sources[0].type if sources else rt
    tiles = TileType | PredicateTileType
    assert isinstance(t, tiles) and isinstance(rt, tiles)
    cmds: list[isa.Command] = [isa.BStart.op(op.MNEMONIC, t.dtype.value if dtype is None else dtype)]
    pad = op.pad.data
    if pad is not PadValue.NULL or cmode:
        # PadValue (and CMode) only: every other field 0 (DataType 0 included: DTYPE_NONE is
        # a nonzero value the binary family rejects, ASL TileOperationDATRFieldsLegal).
        cmds.append(isa.BDatr(dtype=0, pad=pad.code, cmode=cmode))
    cmds += closed_lbs(t)
    if len(sources) > 2:  # TFMA: lhs, rhs in a source B.IOT, the addend with the destination
        cmds.append(isa.BIot(src0=PLACEHOLDER_SOURCE, src1=PLACEHOLDER_SOURCE,
                             pe_mode=_pe_mode(op, op.mask.data)))  # fmt: skip
        sources_last = sources[2:]
    else:
        sources_last = sources
    cmds.append(
        isa.BIot(
            src0=PLACEHOLDER_SOURCE if sources_last else None,
            src1=PLACEHOLDER_SOURCE if len(sources_last) > 1 else None,
            last=1,
            size_code=_size_code(op, rt),
            pe_mode=_pe_mode(op, op.mask.data),
            dst_hand=hand_of(rt),
        )
    )
    if scalars:
        cmds.append(isa.BIor(*SLOT_GPRS[: len(scalars)]))
    cmds.append(isa.BStop())
    return _Form(cmds, [*sources, *scalars])


def local_block(op: TeplTileOp) -> _Form:
    """Canonical block of a tile-local TEPL op (reductions, expansions, TTRANS): the catalog
    composition ``BSTART.SFU <op>, DT; [B.DATR [DataType,] PadValue]; B.DIM LB0=ValidCol;
    [LB1=ValidRow]; [LB2=Col]; B.IOT <sources>, ->dst; [B.IOR <params>]; BSTOP`` from the
    op's row (TSORT: ``[B.DIM LB0=sort_width]`` and a second, destination-only B.IOT with
    ``last`` for its indices). DT is the
    first source's type; an EXPDIF destination of another type (FP16/BF16 -> FP32) is named
    by B.DATR DataType; the LBs describe ``op.lb_geometry()``."""
    if op.BLOCK_UNSOUND:
        raise PassFailedException(f"'{op.name}': no block form is modelled: {op.BLOCK_UNSOUND}")
    rt = op.result.type
    g = op.lb_geometry()
    assert isinstance(rt, TileType)
    cmds: list[isa.Command] = [isa.BStart.op(op.MNEMONIC, op.data_type.value)]
    pad = op.pad.data
    # B.DATR DataType names the destination type only where the catalog accepts it (EXPDIF);
    # an arg reduction's S32/U32 index type is the destination descriptor's.
    named = "D" in isa.TEPL_BY_NAME[op.MNEMONIC].datr_fields and rt.dtype is not op.data_type
    fixed = op.block_datr()
    if fixed is not None:  # a mandatory B.DATR (THISTOGRAM: DataType U32, ByteId)
        cmds.append(isa.BDatr(**fixed))
    elif pad is not PadValue.NULL or named:
        # DataType 0 for an op that does not accept the field (TileOperationDATRFieldsLegal);
        # DTYPE_NONE (inherit) where it does
        inherit = DTYPE_NONE if "D" in isa.TEPL_BY_NAME[op.MNEMONIC].datr_fields else 0
        cmds.append(isa.BDatr(pad=pad.code, dtype=rt.dtype.value if named else inherit))
    # TMRGSORT / THISTOGRAM: no B.DIM; TSORT: LB0 = its sort width (omitted when 32)
    cmds += [_lb(k, v) for k, v in op.block_lbs()] if op.NO_LBS else closed_lbs(g)
    results = [r.type for r in op.results]
    cmds.append(
        isa.BIot(
            src0=PLACEHOLDER_SOURCE,
            src1=PLACEHOLDER_SOURCE if len(op.srcs) > 1 else None,
            last=int(len(results) == 1),
            size_code=_size_code(op, rt),
            pe_mode=_pe_mode(op, op.mask.data),
            dst_hand=hand_of(rt),
        )
    )
    for k, t in enumerate(results[1:], start=2):  # TSORT's indices: a destination-only B.IOT
        assert isinstance(t, TileType)
        cmds.append(isa.BIot(last=int(k == len(results)), size_code=_size_code(op, t),
                             pe_mode=_pe_mode(op, op.mask.data), dst_hand=hand_of(t)))  # fmt: skip
    params = list(getattr(op, "params", ()))
    if params:  # B.IOR parameters (TFILLPAD's padding word) in dense RegSrc order
        cmds.append(isa.BIor(*SLOT_GPRS[: len(params)]))
    cmds.append(isa.BStop())
    return _Form(cmds, [*op.srcs, *params])


def generator_block(op: GeneratorTileOp) -> _Form:
    """Canonical TCI / TTRI block (catalog composition): ``BSTART.SFU <op>, DT; LB0=ValidCol;
    [LB1=ValidRow]; [LB2=Col]; [B.IOR a0, a1 (the two parameters)]; B.IOT mask, last,
    ->dst<TSize>; BSTOP``; without parameters there is no B.IOR (defaults 0, 0)."""
    rt = op.result.type
    assert isinstance(rt, TileType)
    cmds: list[isa.Command] = [isa.BStart.op(op.MNEMONIC, rt.dtype.value)]
    cmds += closed_lbs(rt)
    if op.params:
        cmds.append(isa.BIor(*SLOT_GPRS[:2]))
    cmds.append(isa.BIot(last=1, size_code=_size_code(op, rt), pe_mode=_pe_mode(op, op.mask.data),
                         dst_hand=hand_of(rt)))  # fmt: skip
    cmds.append(isa.BStop())
    return _Form(cmds, list(op.params))


def convert_block(op: ConvertTileOp) -> _Form:
    """Canonical TCVT / TQUANT / TDEQUANT block (catalog compositions): ``BSTART.<engine>
    <op>, SrcDT; [B.DATR DstDT, RMode, Sat, Canonicalize, Layout, Pad]; B.DIM LB0=ValidCol;
    [LB1=ValidRow]; [LB2=Col]; [B.IOR a0, a1 (multiplier, zero point)]; B.IOT src, mask,
    last, ->dst<TSize>; BSTOP``. TCVT's B.DATR appears only when a field differs from the
    omitted meaning (destination type inherited, RMode default, no Sat, Layout NORM, Null
    pad); TQUANT / TDEQUANT always carry it (mandatory; PadValue field zero)."""
    s, rt = op.source.type, op.result.type
    assert isinstance(s, TileType) and isinstance(rt, TileType)
    cmds: list[isa.Command] = [isa.BStart.op(op.MNEMONIC, s.dtype.value)]
    rmode, sat = op.rmode.data.code, int(op.sat is not None)
    if isinstance(op, TCvtOp):
        layout, canon, pad = op.layout_code if not op.canonicalize else 0, op.canonicalize, op.pad.data
        if rt.dtype is not s.dtype or rmode or sat or canon or layout or pad is not PadValue.NULL:
            dtype = rt.dtype.value if rt.dtype is not s.dtype else DTYPE_NONE
            cmds.append(isa.BDatr(layout=layout, dtype=dtype, pad=pad.code, rmode=rmode, sat=sat,
                                  canonicalize=int(canon)))  # fmt: skip
    else:
        cmds.append(isa.BDatr(dtype=rt.dtype.value, pad=0, rmode=rmode, sat=sat))
    cmds += closed_lbs(s)
    if op.scalars:
        cmds.append(isa.BIor(*SLOT_GPRS[: len(op.scalars)]))
    cmds.append(isa.BIot(src0=PLACEHOLDER_SOURCE, last=1, size_code=_size_code(op, rt),
                         pe_mode=_pe_mode(op, op.mask.data), dst_hand=hand_of(rt)))  # fmt: skip
    cmds.append(isa.BStop())
    return _Form(cmds, [op.source, *op.scalars])


def cube_block(op: CubeMatrixOp) -> _Form:
    """Canonical CUBE block (PTO-SPEC 4 block composition), from the op's ``FUNCTION`` row."""
    f = op.fpatr_fields
    a, b = op.a.type, op.b.type  # type: ignore[attr-defined]
    assert isinstance(a, TileType) and isinstance(b, TileType)
    fn = isa.CUBE_FUNCTIONS[op.FUNCTION]
    cmds: list[isa.Command] = [isa.BStart.op(fn.name, a.dtype.value)]
    rmode = op.rmode.data
    sat = op.sat is not None
    if b.dtype is not a.dtype or rmode is not RoundingMode.DEFAULT or sat:
        b_code = b.dtype.value if b.dtype is not a.dtype else DTYPE_NONE
        cmds.append(isa.BDatr(dtype=b_code, rmode=rmode.code, sat=int(sat)))
    cmds.append(isa.BFpatr.from_fpatr(f))
    k, n = b.valid_shape
    m = a.valid_shape[0]
    for lb, v in ((0, m), (1, n), (2, k)):
        if v != 1:
            cmds.append(_lb(lb, v))
    # Scalar post-processing parameters: B.IOR dense order (quant, then LReLU), RegSrc k = a<k>.
    by_role = op.operand_by_role()
    scalars = [by_role[r] for r in f.scalar_params()]
    if scalars:
        cmds.append(isa.BIor(*SLOT_GPRS[: len(scalars)]))
    # Stream order = operand declaration order (operand_by_role keeps it).
    srcs = [v for v in by_role.values() if isinstance(v.type, TileType)]
    dsts = list(op.results)
    mode = _pe_mode(op, op.mask.data)
    groups = [srcs[i : i + 2] for i in range(0, len(srcs), 2)]
    while len(groups) < len(dsts):
        groups.append([])
    first_dst = len(groups) - len(dsts)
    for i, g in enumerate(groups):
        d = dsts[i - first_dst] if i >= first_dst else None
        dt = d.type if d is not None else None
        cmds.append(
            isa.BIot(
                src0=PLACEHOLDER_SOURCE if g else None,
                src1=PLACEHOLDER_SOURCE if len(g) > 1 else None,
                last=int(i == len(groups) - 1),
                size_code=_size_code(op, dt) if isinstance(dt, TileType) else 0,
                pe_mode=mode,
                dst_hand=hand_of(dt) if isinstance(dt, TileType) else None,
            )
        )
    cmds.append(isa.BStop())
    return _Form(cmds, [*srcs, *scalars])


def move_block(op: TLoadOp | TStoreOp) -> _Form:
    """Canonical TLOAD / TSTORE block (pto-spec ``BSTART.TLOAD.asl`` / ``BSTART.TSTORE.asl``
    "Local destination" / "Local source" and "Local CUBE" compositions)."""
    load = isinstance(op, TLoadOp)
    t = op.result.type if load else op.tile.type
    assert isinstance(t, TileType)
    codes = MOVE_LAYOUT_CODES.get(t.layout_kind)
    if codes is None:
        raise PassFailedException(f"'{op.name}': no TLOAD/TSTORE conversion for layout "
                                  f"{t.layout_kind.value}")  # fmt: skip
    layout = codes[0 if load else 1]
    pad = op.pad.data if load else PadValue.NULL
    if load and not t.layout_kind.is_cube and pad is not PadValue.NULL:
        # An ordinary TLOAD leaves its physical padding undefined and its B.DATR PadValue
        # must be Zero (asl/tile/model/memory/load-store.asl TLOAD; asl/block/model/dispatch/
        # tile-schema.asl SelectedBundleTileDataAttributesLegal): no TLOAD block pads.
        raise PassFailedException(
            f"'{op.name}': pad = {pad.value} on a {t.layout_kind.value} tile has no TLOAD "
            "block: an ordinary TLOAD leaves padding undefined (PadValue applies to the CUBE "
            "conversions only; asl/block/model/dispatch/tile-schema.asl)")
    cmds: list[isa.Command] = [isa.BStart.op("TLOAD" if load else "TSTORE", t.dtype.value)]
    if layout != 0 or pad is not PadValue.NULL:
        # CUBE conversions need DTYPE_NONE; ordinary forms accept only Layout/PadValue
        # (DataType 0), pto-spec BSTART.TLOAD.asl / BSTART.TSTORE.asl.
        # PadValue is Zero outside the CUBE conversions (tile-schema.asl).
        cube = t.layout_kind.is_cube
        cmds.append(isa.BDatr(layout=layout, dtype=DTYPE_NONE if cube else 0,
                              pad=pad.code if cube else 0))  # fmt: skip
    vr, vc = t.valid_shape
    cmds += [_lb(0, vc), _lb(1, vr)]
    if not t.layout_kind.is_cube and t.shape[1] != vc:
        cmds.append(_lb(2, t.shape[1]))
    # RegSrc1 zero is the encoded-zero row stride (rows alias; tile-schema.asl)
    cmds.append(isa.BIor(GM_BASE_GPR, GM_STRIDE_GPR if op.row_step else 0, 0, 0))
    mode = _pe_mode(op, t.pe_mask)
    if load:
        cmds.append(isa.BIot(last=1, size_code=_size_code(op, t), pe_mode=mode,
                             dst_hand=hand_of(t)))  # fmt: skip
        ins = [op.source, *op.offsets]
    else:
        cmds.append(isa.BIot(src0=PLACEHOLDER_SOURCE, last=1, pe_mode=mode))
        ins = [op.tile, op.dest, *op.offsets]
    cmds.append(isa.BStop())
    attrs: dict[str, Attribute] = {PE_STRIDE_ATTR: op.pe_stride}
    if op.row_step != 1:
        attrs[ROW_STRIDE_ATTR] = IntegerAttr(op.row_step, i64)
    return _Form(cmds, ins, attrs)


def local_move_block(op: LocalMoveOp) -> _Form:
    """Canonical Local TMOV block (``asl/block/execution/BSTART.TMOV.asl`` Function 2
    composition): ``BSTART.TMOV DT; [B.DATR Layout] (ND2DN / ND2ZN / ND2NZ for a column-major /
    ZN / NZ tile; DataType 0); B.IOT src, mask, last, ->d<TSize>; BSTOP``; no B.DIM (omitted
    LBs inherit the source descriptor's ValidCol, ValidRow and Col)."""
    t = op.src.type
    assert isinstance(t, TileType)
    codes = MOVE_LAYOUT_CODES.get(t.layout_kind)
    if codes is None or t.layout_kind.is_cube:
        raise PassFailedException(f"'{op.name}': no TMOV block for a {t.layout_kind.value} tile "
                                  "(no B.DATR Layout selects a CUBE destination layout, "
                                  "TileDataLayoutDestinationLayout)")  # fmt: skip
    cmds: list[isa.Command] = [isa.BStart.op(op.MNEMONIC, t.dtype.value)]
    if codes[0]:
        cmds.append(isa.BDatr(layout=codes[0], dtype=0, pad=0))
    cmds.append(isa.BIot(src0=PLACEHOLDER_SOURCE, last=1, size_code=_size_code(op, t),
                         pe_mode=_pe_mode(op, op.mask.data), dst_hand=hand_of(t)))  # fmt: skip
    cmds.append(isa.BStop())
    return _Form(cmds, [op.src])


def gm_block(op: GlobalMemoryOp) -> _Form:
    """Canonical block of a global-memory TLSU op (``asl/block/execution/BSTART.MGATHER.asl``,
    ``.MGATHER.MASK``, ``.MGATHER.CAS``, ``BSTART.MSCATTER.asl``, ``.MSCATTER.MASK``,
    ``BSTART.TPREFETCH.asl``, ``BSTART.GMOV.asl`` compositions; docs/gm-indexed.md):
    ``BSTART.<op> DT``; ``B.DATR`` PadValue (gathers, when not Null) and Layout (when not
    row-major); LB0 = ValidCol, LB1 = ValidRow when not 1, LB2 = Col when not ValidCol
    (TPREFETCH: all three, its LBs have other defaults; GMOV: none); the B.IOTs of the op's
    schema (MGATHER ``idx -> d``; MGATHER.MASK ``idx, pmask -> d``; MGATHER.CAS ``idx, e`` then
    ``r -> d``; MSCATTER ``data, idx``; MSCATTER.MASK ``data, idx`` then ``pmask``); ``B.IOR
    a0`` (the GM base; TPREFETCH ``a0, a1``: base and row stride; GMOV ``a0``: each PE's
    peer_tid). The linked block keeps the GM tensor and the index scalars as operands; GMOV
    keeps its peers and TPREFETCH its footprint as block attributes."""
    name = op.MNEMONIC
    if isinstance(op, TPrefetchOp):
        t = op.footprint
        assert isinstance(t, TileType)
        vr, vc = t.valid_shape
        cmds: list[isa.Command] = [isa.BStart.op(name, t.dtype.value)]
        codes = MOVE_LAYOUT_CODES.get(t.layout_kind)
        if codes and codes[0]:
            cmds.append(isa.BDatr(layout=codes[0], dtype=0, pad=0))
        cmds += [_lb(0, vc), _lb(1, vr), _lb(2, t.shape[1]),
                 isa.BIor(GM_BASE_GPR, GM_STRIDE_GPR, 0, 0), isa.BStop()]  # fmt: skip
        return _Form(cmds, [op.gm, op.base, op.row_stride], {FOOTPRINT_ATTR: t})
    anchor = op.result.type if op.GATHERS or isinstance(op, GMovOp) else op.data.type
    assert isinstance(anchor, TileType)
    mode = _pe_mode(op, op.op_mask)
    cmds = [isa.BStart.op(name, anchor.dtype.value)]
    codes = MOVE_LAYOUT_CODES.get(anchor.layout_kind)
    if codes is None or anchor.layout_kind.is_cube:
        raise PassFailedException(f"'{op.name}': no {name} block for a "
                                  f"{anchor.layout_kind.value} tile")  # fmt: skip
    pad = op.pad.data if op.GATHERS else PadValue.NULL
    if codes[0] or pad is not PadValue.NULL:
        cmds.append(isa.BDatr(layout=codes[0], dtype=0,
                              pad=pad.code if pad is not PadValue.NULL else 0))  # fmt: skip
    if isinstance(op, GMovOp):
        cmds += [isa.BIot(src0=PLACEHOLDER_SOURCE, last=1, size_code=_size_code(op, anchor),
                          pe_mode=mode, dst_hand=hand_of(anchor)),
                 isa.BIor(SLOT_GPRS[0], 0, 0, 0), isa.BStop()]  # fmt: skip
        return _Form(cmds, [op.src], {PEERS_ATTR: op.peers})
    vr, vc = anchor.valid_shape
    cmds.append(_lb(0, vc))
    if vr != 1:
        cmds.append(_lb(1, vr))
    if anchor.shape[1] != vc:
        cmds.append(_lb(2, anchor.shape[1]))
    src = PLACEHOLDER_SOURCE
    dst = {"size_code": _size_code(op, anchor), "dst_hand": hand_of(anchor)} if op.GATHERS else {}
    if op.MNEMONIC == "MGATHER":
        cmds.append(isa.BIot(src0=src, last=1, pe_mode=mode, **dst))
        ins = [op.gm, op.base, op.index]
    elif op.MNEMONIC == "MGATHER_MASK":
        cmds.append(isa.BIot(src0=src, src1=src, last=1, pe_mode=mode, **dst))
        ins = [op.gm, op.base, op.index, op.mask]
    elif op.MNEMONIC == "MGATHER_CAS":
        cmds += [isa.BIot(src0=src, src1=src, pe_mode=mode),
                 isa.BIot(src0=src, last=1, pe_mode=mode, **dst)]  # fmt: skip
        ins = [op.gm, op.base, op.index, op.expected, op.replacement]
    elif op.MNEMONIC == "MSCATTER":
        cmds.append(isa.BIot(src0=src, src1=src, last=1, pe_mode=mode))
        ins = [op.data, op.gm, op.base, op.index]
    else:
        cmds += [isa.BIot(src0=src, src1=src, pe_mode=mode),
                 isa.BIot(src0=src, last=1, pe_mode=mode)]  # fmt: skip
        ins = [op.data, op.gm, op.base, op.index, op.mask]
    cmds += [isa.BIor(GM_BASE_GPR, 0, 0, 0), isa.BStop()]
    return _Form(cmds, ins)


FORMERS: tuple[tuple[type[Operation], Callable[[Any], _Form]], ...] = (
    (BinaryTileOp, binary_block),
    (CompareSelectOp, compare_block),
    (TeplElementwiseOp, elementwise_block),
    (TeplTileOp, local_block),
    (GeneratorTileOp, generator_block),
    (ConvertTileOp, convert_block),
    (CubeMatrixOp, cube_block),
    (TLoadOp, move_block),
    (TStoreOp, move_block),
    (LocalMoveOp, local_move_block),
    (GlobalMemoryOp, gm_block),
)
"""Tile-level op family -> its block former (a table, one row per family)."""


def former_of(op: Operation) -> Callable[[Any], _Form] | None:
    for cls, former in FORMERS:
        if isinstance(op, cls):
            return former
    return None


def form_op(op: Operation, former: Callable[[Any], _Form]) -> BlockOp:
    """Replace ``op`` by its linked block (register fields unassigned)."""
    form = former(op)
    new = BlockOp(form.commands, form.ins, [r.type for r in op.results])
    new.attributes.update({k: v for k, v in op.attributes.items() if k.startswith("pto.")})
    new.attributes.update(form.attributes)
    new.attributes[UNASSIGNED_ATTR] = UnitAttr()
    Rewriter.replace_op(op, new)
    return new


@dataclass(frozen=True)
class PTOFormBlocksPass(ModulePass):
    """Rewrite tile-level PTO ops into canonical ``pto.block`` ops (module docstring)."""

    name = "pto-form-blocks"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for inner in list(op.walk()):
            former = former_of(inner)
            if former is not None:
                form_op(inner, former)
