"""Block structure checker (PTO-SPEC 3.2-3.5, D12): a pure function over commands.

:func:`check_block` takes one block (``BSTART``, header commands, ``BSTOP``/``C.BSTOP``/``L.BSTOP``) and
:func:`check_program` a stream of blocks; both either return decoded :class:`BlockSummary`
values or raise the first :class:`~pto_dialect.faults.PTOFault` the architecture would raise.

Check order (follows the ASL's sequential command semantics, read in pto-spec e599a3d3
``asl/block/model/dispatch/commands.asl`` ``ExecuteDecodedBundleCommand``,
``asl/block/model/operands/tile-bindings.asl``, ``shared-bindings.asl``,
``asl/block/model/schema/dimensions.asl``, ``asl/block/model/commit/validation.asl``,
``asl/block/model/dispatch/tile-execution.asl`` and ``cube-tmatmul.asl``):

1. Commands are checked one by one in stream order, so the first offending command wins.
   For each command: reserved/malformed field values -> IllegalInstruction (decode); then:

   * a command outside an active block, or BSTOP with no active block -> BundleControl;
   * a second B.DATR -> BundleControl; a second B.CATR -> BundleControl (``asl/block/model/
     dispatch/commands.asl``: B.CATR is header-only and unique);
   * B.FPATR: a second one, one in a non-CUBE block (e.g. TREM), or one after any B.IOR /
     effective B.IOT / effective B.IOS -> BundleControl (``BundleFixedPointAttributesCanBe
     Placed``); then its consistency rules -> TileLegality (checked at latch);
   * a second write to LB0/1/2 by B.DIM or C.B.DIMI -> BundleControl;
   * a second B.IOR -> BundleControl;
   * B.IOT / B.IOS with PEMode 000 are strict no-ops (no further checks, not counted);
     an effective B.IOT after one with ``last`` -> BundleControl; a PE mask different from
     the earlier bindings' -> TileLegality; a fifth effective B.IOT -> TileLegality (ASL
     ``AddBundleTileBinding``; the prose says "the applicable fault"); a B.IOT with a
     destination field in a TMOV Local-to-Shared block (Functions 9, 10) -> TileLegality
     (``asl/block/model/dispatch/commands.asl``); a duplicate Shared register or fifth B.IOS ->
     BundleControl.
   * The stream ending inside a block (no BSTOP) -> BundleControl. The next BSTART also
     completes a block (PTO-SPEC 3).

2. At completion, first B.CATR DR=1 outside a VEC/SFU/TLSU block (CUBE) -> BundleControl
   (``CompleteBundleAt``, before the operation executes). Then, CUBE (``ExecuteBundleTMATMULOperation``, PTO-SPEC 3.5 for TGEMV_MX_BIAS):
   all bindings zero-mask -> no-op (summary ``noop=True``); no B.FPATR -> BundleControl;
   then TileLegality for the
   static rules: MX type pair (D2) / ordinary same-class pair, binding-stream counts
   (Local sources = [C] + A + [As] + B + [Bs] + [Bias] + RowMaxIn + vector params;
   destinations = 1 + RowMaxEn + GroupMaxEn; terminated with ``last``), B.IOR surplus fields,
   B.DATR must-zero fields + the PreQuantMode/RMode/Sat cross-rule (PTO-SPEC 3.2 "Gap": enforced
   here), LB values 0, GEMV with M != 1, Trans bits on a Local primary, CScaleEn outside the
   two FP32 ACC forms (D11), PreQuantMode of the wrong accumulator class.

3. At completion, TEPL (``ExecuteBundleTileOperationLocally...``, PTO-SPEC 3.5 for TREM):
   zero-mask -> no-op; an effective B.IOS -> TileLegality (Shared bindings unconsumed, checked
   before the selector in the ASL); binding counts against the catalog schema, missing
   ``last``, a B.IOR with a nonzero field for a closed-schema (tile-only) operation and a
   nonzero B.IOR field beyond the operation's scalar inputs (tile-scalar: RegSrc0; TCI /
   TTRI / TQUANT / TDEQUANT: RegSrc0-1; TFILLPAD / TMRGSORT: RegSrc0; ASL
   ``BundleOperationScalarBindingSchemaLegal``) -> BundleControl
   (``BundleOperationBindingsComplete``; an all-zero B.IOR is accepted, as the B.IOR contract
   says); B.DATR fields the operation does not accept -> TileLegality (ASL
   ``TileOperationDATRFieldsLegal``: any nonzero field value, so for TREM every DataType but
   0, DTYPE_NONE included); for the closed schemas (mode 0 binary/unary, mode 2
   reductions/expansions, TTRANS), the mode-1 tile-scalar schema and the generators LB0 is
   required and nonzero, and for modes 2 and TTRANS an explicit LB1/LB2 must be nonzero ->
   TileLegality; the closed binary schema (one terminating B.IOT) and TREM's type set (D6)
   -> TileLegality.

Left to the verifier / interpreter (they need descriptors or data): tile shapes, layouts and
locations, definedness, the integer-zero divisor, register/capacity allocation
(TileAllocation), LB values read from GPRs, and Shared CUBE schemas (``interpreter.machine.shared_blocks``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pto_dialect.datatypes import (
    DTYPE_NONE,
    MATMUL_INPUT_TYPES,
    MX_INPUT_TYPES,
    SORT_TYPES,
    TREM_TYPES,
    VEC_ARITH_TYPES,
    VEC_INT_TYPES,
    TileDataType,
    mx_needs_scale,
)
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.geometry import CELL_BYTES, Layout, cube_cells
from pto_dialect.isa.commands import (
    DR_KINDS,
    PAD_NULL,
    PE_MODE_MASKS,
    SCALAR_START_TYPES,
    STOP_TYPES,
    BCatr,
    BDatr,
    BDim,
    BFpatr,
    BIor,
    BIos,
    BIot,
    BlockFamily,
    BStart,
    CBDimi,
    Command,
    check_reserved,
    size_code_bytes,
    tile_block_kind,
)
from pto_dialect.isa.errors import NotModelledError
from pto_dialect.postprocess import PRE_QUANT_MODES, Fpatr, QuantOp

_IL = FaultKind.ILLEGAL_INSTRUCTION
_BC = FaultKind.BUNDLE_CONTROL
_TL = FaultKind.TILE_LEGALITY

PROFILES = ("a5", "a2a3")
"""The values of ``pto_dialect.targets.TargetProfile`` (D15), spelled here because the ISA
layer is pure Python (no xDSL import; ``tests/isa/test_isa_encoding.py``)."""
"""Target profiles (D15)."""


@dataclass(frozen=True)
class BlockSummary:
    """Decoded view of one well-formed block."""

    start: BStart
    op_name: str | None
    a_type: int
    """BSTART DataType (AType for CUBE)."""
    b_type: int
    """B.DATR DataType when concrete, else the BSTART type (BType for CUBE)."""
    datr: BDatr
    """Effective data attributes; omitted B.DATR = Null pad, RMode 0, no Sat (PTO-SPEC 2)."""
    datr_present: bool
    fpatr: Fpatr | None
    lb_written: tuple[bool, bool, bool]
    lb: tuple[int | None, int | None, int | None]
    """Static LB values ((zero + imm)[15:0]); None when unwritten or read from a GPR."""
    lb_regs: tuple[int | None, int | None, int | None]
    """RegSrc of a register-form B.DIM (its value is known only at run time)."""
    dims: tuple[int | None, int | None, int | None]
    """LBs with the operation's defaults: CUBE (M, N, K) default 1; closed-schema TEPL
    (:func:`closed_lb_schema`: modes 0 and 2, TTRANS) (ValidCol, ValidRow = 1, Col = ValidCol)."""
    sources: tuple[int, ...]
    """Local source register indices in stream order."""
    destinations: tuple[tuple[int, int], ...]
    """(hand, SizeCode) of each Local destination in stream order."""
    pe_mode: int | None
    """Common PEMode of the effective bindings (None when there are none)."""
    noop: bool
    """PE mask zero: the block is a strict no-op (D12)."""
    scalars: BIor | None
    shared: tuple[BIos, ...]
    terminated: bool
    """The last effective B.IOT had ``last``."""
    catr: BCatr | None = None
    """The latched B.CATR control attributes (None when the block has none)."""
    commands: tuple[Command, ...] = field(repr=False, default=())

    @property
    def family(self) -> BlockFamily:
        return self.start.family

    @property
    def mask(self) -> str:
        return PE_MODE_MASKS[self.pe_mode] if self.pe_mode is not None else "0000"


class _State:
    def __init__(self, start: BStart):
        self.start = start
        self.datr: BDatr | None = None
        self.fpatr: Fpatr | None = None
        self.lb: list[Command | None] = [None, None, None]
        self.iots: list[BIot] = []
        self.ios: list[BIos] = []
        self.ior: BIor | None = None
        self.zero_seen = False
        self.pe_mode: int | None = None
        self.catr: BCatr | None = None
        self.cmds: list[Command] = [start]


def _fault(kind: FaultKind, msg: str, cmd: Command | str | None, index: int) -> PTOFault:
    """``cmd`` is the offending command, or the operation name for a completion fault."""
    if isinstance(cmd, str):
        return PTOFault(kind, f"at block completion (command {index}): {msg}", op=cmd)
    op = cmd.mnemonic if cmd is not None else None
    return PTOFault(kind, f"command {index}: {msg}", op=op)


L2S_TMOV = ("TMOV_L2S_INSERT", "TMOV_L2S_PUBLISH")
"""The TMOV Local-to-Shared forms (TLSU Functions 9, 10)."""


def _header(st: _State, cmd: Command, i: int) -> None:
    """Latch one header command (step 1 of the module docstring)."""
    if isinstance(cmd, BDatr):
        if st.datr is not None:
            raise _fault(_BC, "duplicate B.DATR (at most one per block)", cmd, i)
        st.datr = cmd
    elif isinstance(cmd, BFpatr):
        if st.fpatr is not None:
            raise _fault(_BC, "duplicate B.FPATR (exactly one per CUBE block)", cmd, i)
        if st.start.family is not BlockFamily.CUBE:
            name = st.start.op_name or f"{st.start.family} block"
            raise _fault(_BC, f"B.FPATR in a non-CUBE block ({name})", cmd, i)
        if st.ior is not None or st.iots or st.ios:
            raise _fault(_BC, "B.FPATR after a B.IOR/B.IOT/B.IOS binding", cmd, i)
        errs = cmd.fpatr.consistency_errors()
        if errs:
            raise _fault(_TL, "B.FPATR " + "; ".join(errs), cmd, i)
        st.fpatr = cmd.fpatr
    elif isinstance(cmd, BDim | CBDimi):
        if st.lb[cmd.lb] is not None:
            raise _fault(_BC, f"LB{cmd.lb} written twice (write-once per block)", cmd, i)
        st.lb[cmd.lb] = cmd
    elif isinstance(cmd, BCatr):
        if st.catr is not None:
            raise _fault(_BC, "duplicate B.CATR (at most one per block header)", cmd, i)
        st.catr = cmd
    elif isinstance(cmd, BIor):
        if st.ior is not None:
            raise _fault(_BC, "duplicate B.IOR (at most one per block)", cmd, i)
        st.ior = cmd
    elif isinstance(cmd, BIot | BIos):
        if cmd.pe_mode == 0:
            st.zero_seen = True  # strict no-op: no placement, count or schema checks
            return
        if isinstance(cmd, BIot) and any(b.last for b in st.iots):
            raise _fault(_BC, "B.IOT after the binding sequence was closed by 'last'", cmd, i)
        if st.pe_mode is not None and cmd.pe_mode != st.pe_mode:
            raise _fault(
                _TL,
                f"mask={PE_MODE_MASKS[cmd.pe_mode]} differs from the block's mask="
                f"{PE_MODE_MASKS[st.pe_mode]}",
                cmd,
                i,
            )
        if isinstance(cmd, BIot) and cmd.has_destination and st.start.op_name in L2S_TMOV:
            # asl/block/model/dispatch/commands.asl (B.IOT): a TMOV Local-to-Shared binding is
            # source-only (the Shared TSize is the B.IOS's): a DstTile field -> TileLegality
            raise _fault(_TL, f"{st.start.op_name} binds a source-only B.IOT (its destination "
                         "is the B.IOS)", cmd, i)  # fmt: skip
        if isinstance(cmd, BIot):
            if len(st.iots) == 4:
                raise _fault(_TL, "more than 4 effective B.IOT bindings", cmd, i)
            st.iots.append(cmd)
        else:
            if any(b.tid == cmd.tid for b in st.ios):
                raise _fault(_BC, f"Shared register S{cmd.tid} bound twice", cmd, i)
            if len(st.ios) == 4:
                raise _fault(_BC, "more than 4 effective B.IOS bindings", cmd, i)
            st.ios.append(cmd)
        st.pe_mode = cmd.pe_mode
    else:  # pragma: no cover - guarded by the caller
        raise TypeError(cmd)


def lb_value(c: BDim | CBDimi, gpr: int = 0) -> int:
    """The LB value a dimension command writes (``SetBundleDimension``): C.B.DIMI its imm8;
    B.DIM ``zero-extend((GPR[RegSrc] + uimm17)[15:0])`` with ``gpr`` the register's value
    (any integer: only its low 16 bits matter; the zero register reads 0;
    asl/block/attributes/B.DIM.asl, AVS ``B-DIM-LOW16-001``)."""
    if isinstance(c, CBDimi):
        return c.imm
    return (gpr + c.imm) & 0xFFFF


def _lb_static(c: Command | None) -> int | None:
    if isinstance(c, CBDimi) or (isinstance(c, BDim) and c.reg == 0):
        return lb_value(c)
    return None


def _summary(st: _State, noop: bool) -> BlockSummary:
    start = st.start
    datr = st.datr if st.datr is not None else BDatr(pad=PAD_NULL)
    # B.DATR DataType overrides the BSTART type only where the operation accepts it (BType
    # of CUBE, "D" operations); elsewhere it is 0 (its zero meaning) or rejected.
    takes_dtype = start.family is BlockFamily.CUBE or (
        start.tepl is not None and "D" in start.tepl.datr_fields
    )
    b_type = datr.dtype if takes_dtype and datr.dtype != DTYPE_NONE else start.dtype
    lb = tuple(_lb_static(c) for c in st.lb)
    written = tuple(c is not None for c in st.lb)
    regs = tuple(c.reg if isinstance(c, BDim) and c.reg != 0 else None for c in st.lb)
    if start.family is BlockFamily.CUBE:
        dims = tuple(v if w else 1 for v, w in zip(lb, written))
    elif start.family is BlockFamily.TEPL and start.tepl is not None and (
        start.mode == 1 or closed_lb_schema(start.tepl.name, start.mode)
        or start.tepl.name in GENERATORS or start.tepl.name in QUANT_OPS
    ):
        col = lb[0]
        dims = (col, lb[1] if written[1] else 1, lb[2] if written[2] else col)
    else:
        dims = lb
    srcs = tuple(s for b in st.iots for s in b.sources)
    dsts = tuple((b.dst_hand, b.size_code) for b in st.iots if b.dst_hand is not None)
    return BlockSummary(
        start=start,
        op_name=start.op_name,
        a_type=start.dtype,
        b_type=b_type,
        datr=datr,
        datr_present=st.datr is not None,
        fpatr=st.fpatr,
        lb_written=written,  # type: ignore[arg-type]
        lb=lb,  # type: ignore[arg-type]
        lb_regs=regs,  # type: ignore[arg-type]
        dims=dims,  # type: ignore[arg-type]
        sources=srcs,
        destinations=dsts,  # type: ignore[arg-type]
        pe_mode=st.pe_mode,
        noop=noop,
        scalars=st.ior,
        shared=tuple(st.ios),
        terminated=bool(st.iots) and bool(st.iots[-1].last),
        catr=st.catr,
        commands=tuple(st.cmds),
    )


def _dt_name(code: int) -> str:
    return TileDataType(code).asm if code in TileDataType._value2member_map_ else str(code)


def _complete_cube(st: _State, i: int, profile: str) -> BlockSummary:
    start = st.start
    fn = start.cube
    assert fn is not None  # reserved functions were rejected at decode
    at = fn.name
    if st.zero_seen and not st.iots and not st.ios:
        return _summary(st, noop=True)
    if st.fpatr is None:
        raise _fault(_BC, f"{fn.name} block has no B.FPATR (exactly one is required)", at, i)
    s = _summary(st, noop=False)
    fp = st.fpatr
    errs: list[str] = []
    a, b = s.a_type, s.b_type
    if fn.is_mx:
        for side, t in (("AType", a), ("BType", b)):
            if t not in MX_INPUT_TYPES:
                errs.append(f"{side} {_dt_name(t)} is not an MX input type (D2)")
    else:
        for side, t in (("AType", a), ("BType", b)):
            if t not in MATMUL_INPUT_TYPES:
                errs.append(f"{side} {_dt_name(t)} is not an ordinary matmul input type (PTO-SPEC 1)")
        if not errs and TileDataType(a).klass != TileDataType(b).klass:
            errs.append(f"AType {_dt_name(a)} and BType {_dt_name(b)} are of different classes")
    if st.ios:
        if fn.is_gemv:
            errs.append("TGEMV is Local-only: B.IOS bindings are illegal")
    elif not errs:
        n_src = (
            int(fn.is_acc)
            + 2
            + (int(mx_needs_scale(TileDataType(a))) + int(mx_needs_scale(TileDataType(b))))
            * int(fn.is_mx)
            + int(fn.is_bias)
            + len(fp.vector_param_sources())
        )
        n_dst = 1 + len(fp.aux_destinations())
        if len(s.sources) != n_src:
            errs.append(f"{fn.name} needs {n_src} Local sources, the block binds {len(s.sources)}")
        if len(s.destinations) != n_dst:
            errs.append(
                f"{fn.name} needs {n_dst} destination(s), the block binds {len(s.destinations)}"
            )
        if st.iots and not s.terminated:
            errs.append("the B.IOT sequence is not terminated with 'last'")
        if fn.is_acc and s.sources and s.destinations and s.sources[0] == s.destinations[0][0]:
            # ASL BundleMatrixAccumulatorDestinationIndicesDistinct (PTO-CUBE-ACCUMULATOR-
            # OUTPUT-001): C's encoded selector differs from the zero-extended DstTile hand.
            errs.append(f"C's selector t#{s.sources[0]} equals the destination hand "
                        f"{s.destinations[0][0]} (C and D must be distinct)")
    if st.ior is not None:
        n_gpr = len(fp.scalar_params())
        if any(r != 0 for r in st.ior.sources[n_gpr:]) or st.ior.dst != 0:
            errs.append(f"B.IOR has nonzero fields beyond the {n_gpr} consumed scalar(s)")
    d = s.datr
    for name in ("layout", "pad", "cmode", "canonicalize"):
        if st.datr is not None and getattr(d, name) != 0:
            errs.append(f"B.DATR {name} must be 0 for CUBE")
    if fp.pre_quant_mode in PRE_QUANT_MODES:
        mode = PRE_QUANT_MODES[fp.pre_quant_mode]
        acc = TileDataType.FP32 if fn.is_mx else TileDataType(a).accumulator
        if mode.acc is not None and mode.acc != acc:
            errs.append(
                f"PreQuantMode {mode.name} needs a {mode.acc.asm} accumulator, not {acc.asm}"
            )
        # PreQuantMode 0 accepts any RMode and Sat (D11, AVS TMATMUL-EXEC-001).
        if fp.pre_quant_mode != 0 and mode.fixed_rounding is not None and d.rmode:
            errs.append(f"PreQuantMode {mode.name} fixes its rounding: B.DATR RMode must be 0")
        elif mode.op is QuantOp.SHIFT and (d.rmode or d.sat):
            errs.append(f"PreQuantMode {mode.name} requires B.DATR RMode=0 and Sat=0")
    for k, (v, w) in enumerate(zip(s.lb, s.lb_written)):
        if w and v == 0:
            errs.append(f"LB{k} is 0 (M, N and K must be nonzero)")
    if not st.ios and (fp.trans_a or fp.trans_b):
        errs.append("TransA/TransB must be 0 for Local primaries")
    if fp.cscale_en and fn.code not in (2, 6):
        errs.append("CScaleEn is legal only for TMATMUL.ACC and TMATMULMX.ACC (D11)")
    if errs:
        raise _fault(_TL, "; ".join(errs), at, i)
    if fn.is_gemv and s.dims[0] is not None and s.dims[0] != 1:
        raise _fault(_TL, f"{fn.name} needs M = 1, LB0 is {s.dims[0]}", at, i)
    if not st.ios:
        acc = TileDataType.FP32 if fn.is_mx else TileDataType(a).accumulator
        _check_cube_aux_capacity(s, fp, acc, fn.name, i)
    return s


def _check_cube_aux_capacity(s: BlockSummary, fp, acc: TileDataType, name: str, i: int) -> None:
    """ASL ResolveBundleTileDestinationsWithShapeAndType for the auxiliary CUBE outputs: the
    RowMax output is M x 1 and the GroupMax output M x ceil(N / GroupN) of the accumulator
    type; each must fit its destination SizeCode (``TileDescriptorShapeLegal``: derived rows
    nonzero and >= M, M x columns within the capacity), else TileAllocation before any
    destination is allocated, even when only the last one fails (AVS
    TILE-POSTPROCESS-ROLLBACK-003). Checked when M and N are immediates (B.DIM / C.B.DIMI)."""
    m, n = s.lb[0], s.lb[1]
    if not (s.lb_written[0] and s.lb_written[1]) or not m or not n:
        return  # register-supplied or source-derived dimensions: checked when the block runs
    for (_, code), aux in zip(s.destinations[1:], fp.aux_destinations()):
        cols = 1 if aux == "row_max" else -(-n // fp.group_n)
        have = size_code_bytes(code)
        rows = have * 8 // (cols * acc.bits)
        if rows == 0 or m > rows or m * cols * acc.bits > have * 8:
            raise PTOFault(FaultKind.TILE_ALLOCATION, f"at block completion (command {i}): the "
                           f"{aux} output {m} x {cols} {acc.asm} does not fit its destination "
                           f"SizeCode ({have} B)", op=name)  # fmt: skip


QUANT_OPS = ("TQUANT", "TDEQUANT")
"""TQUANT / TDEQUANT (catalog compositions): B.DATR mandatory with the S8|U8 / FP32 DataType,
LB0 = ValidCol required, LB1 default 1, LB2 default ValidCol, optional B.IOR RegSrc0 / RegSrc1
(multiplier, zero point; RegSrc2 and RegDst zero)."""
QUANT_DATR_TYPES = {
    "TQUANT": frozenset({TileDataType.S8, TileDataType.U8}),
    "TDEQUANT": frozenset({TileDataType.FP32}),
}
E8M0_TCVT_SOURCES = frozenset({TileDataType.FP16, TileDataType.BF16, TileDataType.FP32})
"""``HardwareTCVTE8M0SourceTypeSupported`` (an E8M0 TCVT destination, AVS E8M0-PAIRS-005)."""

GENERATORS = ("TCI", "TTRI")
"""Destination-only TEPL operations whose parameters come through B.IOR RegSrc0/RegSrc1
(RegSrc2 and RegDst zero) and whose LBs follow the closed-schema defaults (catalog)."""
IOR_PARAMS = {"TCI": 2, "TTRI": 2, "TFILLPAD": 1, "TMRGSORT": 1, "TSORT": 1}
"""TEPL mode-3 operations that read parameters through B.IOR RegSrc0.. (this many; the
other selectors and RegDst must be zero). TFILLPAD: the padding word (NDF contract
``PTO-TFILLPAD-CONTRACT-001``: ``B.IOR.RegSrc0``, omitted B.IOR = zero); TMRGSORT: its
direction flag (``BundleSortingDescending``, omitted = ascending); TSORT likewise."""
QUANT_IOR = 2
"""TQUANT / TDEQUANT read their multiplier and zero point through B.IOR RegSrc0/RegSrc1."""
NO_LB_OPS = ("TMRGSORT", "THISTOGRAM")
"""TEPL operations whose block has no B.DIM at all (``SelectedBundleClosedSortingSchemaLegal``,
``SelectedBundleClosedHistogramSchemaLegal``: the destination shape derives from the
sources)."""


def closed_lb_schema(name: str, mode: int) -> bool:
    """TEPL operations whose block takes no scalar and whose LBs are ``LB0 = ValidCol``
    (required, nonzero), ``LB1 = ValidRow`` (default 1), ``LB2 = Col`` (default ValidCol):
    the mode-0 closed binary/unary schemas, the mode-2 reductions and expansions (their
    ``block`` composition in ``spec/catalog/tile-operations.json``) and, by this model's
    assumption (its catalog composition only says ``B.DIM LB0; B.DIM (LB1/LB2 for 2D)``),
    TTRANS (its LBs describe the source) and TCONCAT (they describe the destination); and the
    TPART* union operations (catalog: LB0 =
    ValidCol, LB1 = ValidRow default 1, LB2 = Col default ValidCol; no B.DATR/B.IOR/B.IOS);
    TGATHER / TSCATTER (their catalog composition: the destination's LB0 = ValidCol, LB1 =
    ValidRow optional, LB2 = Col optional) and, by the TCONCAT assumption, TFILLPAD (which
    reads its padding word through B.IOR, :data:`IOR_PARAMS`)."""
    return mode in (0, 2) or name in (
        "TTRANS", "TCONCAT", "TPARTADD", "TPARTMUL", "TPARTMAX", "TPARTMIN", "TGATHER",
        "TSCATTER", "TFILLPAD",
    )


@dataclass
class _TeplCheck:
    """What the TEPL completion rules read: the block state, its summary, the operation, the
    command index, the TREM type set (D6) and whether the operation's LB schema is closed."""

    st: _State
    s: BlockSummary
    i: int
    trem_types: frozenset[TileDataType]

    @property
    def op(self):
        assert self.st.start.tepl is not None
        return self.st.start.tepl

    @property
    def at(self) -> str:
        return self.op.name

    @property
    def closed(self) -> bool:
        return closed_lb_schema(self.op.name, self.op.mode)


def _tepl_bindings(c: _TeplCheck) -> None:
    """Operand counts, B.IOT termination, B.IOR fields the operation does not read
    (BundleControl)."""
    st, s, op, at, i = c.st, c.s, c.op, c.at, c.i
    closed = c.closed
    if len(s.sources) != op.sources or len(s.destinations) != op.destinations:
        raise _fault(
            _BC,
            f"{op.name} binds {op.sources} source(s) and {op.destinations} destination(s); the "
            f"block has {len(s.sources)} and {len(s.destinations)}",
            at,
            i,
        )
    if st.iots and not s.terminated:
        raise _fault(_BC, "the B.IOT sequence is not terminated with 'last'", at, i)
    if closed and op.name not in IOR_PARAMS and st.ior is not None and (
        any(st.ior.sources) or st.ior.dst
    ):
        raise _fault(_BC, f"{op.name} takes no scalar operand: B.IOR must be all zero", at, i)
    n_ior = 1 if op.mode == 1 else QUANT_IOR if op.name in QUANT_OPS else IOR_PARAMS.get(op.name)
    if n_ior is not None and st.ior is not None and (any(st.ior.sources[n_ior:]) or st.ior.dst):
        # BundleOperationScalarBindingSchemaLegal (asl/block/model/dispatch/scalar-schema.asl)
        # is part of BundleOperationBindingsComplete: Fault_BundleControl, before the B.DATR
        # and value rules (asl/block/model/dispatch/tile-execution.asl)
        used = "/".join(f"RegSrc{k}" for k in range(n_ior))
        rest = " and ".join([*(f"RegSrc{k}" for k in range(n_ior, 3)), "RegDst"])
        raise _fault(_BC, f"{op.name} reads B.IOR {used} only: {rest} must be zero (surplus "
                     "B.IOR field)", at, i)  # fmt: skip


def _tepl_datr_fields(c: _TeplCheck) -> None:
    """B.DATR fields not applicable to the operation (TileOperationDATRFieldsLegal)."""
    st, op, at, i = c.st, c.op, c.at, c.i
    if st.datr is not None:
        d = st.datr
        allowed = op.datr_fields
        bad = [
            name
            for name, letter in (("pad", "P"), ("cmode", "C"), ("sat", "S"),
                                 ("canonicalize", "Z"), ("rmode", "R"), ("layout", "L"))
            if getattr(d, name) != 0 and letter not in allowed
        ]  # fmt: skip
        if "D" not in allowed and d.dtype != 0:
            # ASL TileOperationDATRFieldsLegal: an explicit B.DATR encodes every field, and a
            # nonzero DataType (DTYPE_NONE included) is TileLegality unless the operation
            # accepts DataType; encoded 0 is the zero meaning (TREM: PadValue only).
            bad.append("dtype")
        if bad:
            raise _fault(_TL, f"B.DATR fields {', '.join(bad)} are not applicable to {op.name}",
                         at, i)  # fmt: skip


def _tepl_member_rules(c: _TeplCheck) -> None:
    """The per-operation schemas: no B.DIM, TSORT's LB0, the sort and histogram types,
    TQUANT / TDEQUANT, TCVT to E8M0."""
    st, s, op, at, i = c.st, c.s, c.op, c.at, c.i
    start = st.start
    if op.name in NO_LB_OPS and any(s.lb_written):
        raise _fault(_TL, f"{op.name} takes no B.DIM (its destination shape derives from the "
                     "sources)", at, i)  # fmt: skip
    if op.name == "TSORT":
        # SelectedBundleClosedSortingSchemaLegal: LB0 = sort width (<= 64; omitted or zero: 32),
        # no LB1 / LB2
        if s.lb_written[1] or s.lb_written[2]:
            raise _fault(_TL, "TSORT takes no LB1/LB2 (LB0 is its sort width)", at, i)
        if s.lb[0] is not None and s.lb[0] > 64:
            raise _fault(_TL, f"TSORT sort width LB0 = {s.lb[0]} is above 64", at, i)
    if op.name in ("TSORT", "TMRGSORT") and start.dtype not in SORT_TYPES:  # SelectedBundleClosedSortingSchemaLegal
        raise _fault(_TL, f"{op.name} does not support {_dt_name(start.dtype)} (FP32 or FP16, "
                     "TileSortDataTypeSupported)", at, i)  # fmt: skip
    if op.name == "THISTOGRAM":
        # SelectedBundleClosedHistogramSchemaLegal: B.DATR mandatory with DataType U32; no B.IOR
        if st.datr is None or st.datr.dtype != TileDataType.U32.value:
            raise _fault(_TL, "THISTOGRAM needs B.DATR with DataType U32 (and its ByteId)", at, i)
        if st.ior is not None:
            raise _fault(_TL, "THISTOGRAM takes no B.IOR", at, i)
    if op.name in QUANT_OPS:
        _check_quant(st, s, op.name, i)
    if op.name == "TCVT" and s.b_type == TileDataType.E8M0 and start.dtype not in E8M0_TCVT_SOURCES:
        raise _fault(_TL, f"TCVT to E8M0 takes FP16, BF16 or FP32 sources, not "
                     f"{_dt_name(start.dtype)} (HardwareTCVTTypePairSupported)", at, i)  # fmt: skip


def _tepl_lb_values(c: _TeplCheck) -> None:
    """LB0 = ValidCol nonzero; an explicit LB1 / LB2 nonzero."""
    s, op, at, i = c.s, c.op, c.at, c.i
    closed = c.closed
    if (closed or op.mode == 1 or op.name in GENERATORS + QUANT_OPS) and not s.dims[0]:
        raise _fault(_TL, f"{op.name} needs LB0 = ValidCol (nonzero)", at, i)
    if (closed or op.name in GENERATORS + QUANT_OPS) and op.mode != 0:
        for k in (1, 2):
            if s.lb_written[k] and s.lb[k] == 0:
                raise _fault(_TL, f"{op.name}: an explicit LB{k} must be nonzero", at, i)


def _tepl_closed_schema(c: _TeplCheck) -> None:
    """The closed binary / unary / TFMA schemas: B.IOT shape, type set, destination
    capacity."""
    st, s, op, at, i = c.st, c.s, c.op, c.at, c.i
    start, trem_types = st.start, c.trem_types
    schema = CLOSED_SCHEMAS.get(op.name)
    if schema is not None:
        # ASL SelectedBundleClosed{Binary,Unary,TFMA}SchemaLegal (block/model/dispatch/
        # tile-schema.asl): the exact B.IOT sequence, no B.IOR for TFMA, the operation's type
        # set (TREM: D6) -> TileLegality.
        label, shape, types = schema
        got = tuple((b.has_destination, len(b.sources), bool(b.last)) for b in st.iots)
        if got != shape:
            raise _fault(_TL, f"{op.name} binds {_schema_text(shape)} (closed {label} schema); "
                         f"the block binds {_schema_text(got)}", at, i)  # fmt: skip
        if label == "TFMA" and st.ior is not None:
            raise _fault(_TL, "TFMA takes no scalar binding (closed TFMA schema): B.IOR is "
                         "illegal", at, i)  # fmt: skip
        if op.name == "TREM":
            types = trem_types
        if start.dtype not in types:
            raise _fault(_TL, f"{op.name} does not support {_dt_name(start.dtype)} (closed "
                         f"{label} schema type set, D6)", at, i)  # fmt: skip
        col, rows = s.dims[2], s.dims[1]
        if col is not None and rows is not None and s.destinations:
            need = -(-col * rows * TileDataType(start.dtype).bits // 8)
            have = size_code_bytes(s.destinations[0][1])
            if need > have:
                # ASL ResolveBundleTileDestinations: the shape does not fit the destination's
                # SizeCode -> TileAllocation (AVS tile-fault-*-capacity-001).
                raise PTOFault(FaultKind.TILE_ALLOCATION, f"at block completion (command {i}): "
                               f"{rows} x {col} {_dt_name(start.dtype)} needs {need} B, the "
                               f"destination SizeCode gives {have} B", op=at)  # fmt: skip


def _tepl_compare_select(c: _TeplCheck) -> None:
    """The comparison schemas (TCMP, TCMPS, TSEL, TSELS)."""
    st, s, op, at, i = c.st, c.s, c.op, c.at, c.i
    if op.name in COMPARE_SELECT_SCHEMAS:
        _check_compare_select(st, s, op.name, at, i)


TEPL_RULES: tuple[Callable[[_TeplCheck], None], ...] = (
    _tepl_bindings,
    _tepl_datr_fields,
    _tepl_member_rules,
    _tepl_lb_values,
    _tepl_closed_schema,
    _tepl_compare_select,
)
"""The completion rules of a TEPL block, in the order their faults take precedence (the first
that fails is reported)."""


def _complete_tepl(st: _State, i: int, trem_types: frozenset[TileDataType]) -> BlockSummary:
    start = st.start
    op = start.tepl
    assert op is not None
    at = op.name
    if st.zero_seen and not st.iots and not st.ios:
        return _summary(st, noop=True)
    if st.ios:
        raise _fault(_TL, f"{op.name} consumes no Shared operand: B.IOS is illegal", at, i)
    s = _summary(st, noop=False)
    c = _TeplCheck(st, s, i, trem_types)
    for rule in TEPL_RULES:
        rule(c)
    return s


COMPARE_SELECT_SCHEMAS = {"TCMP": (2,), "TCMPS": (1,), "TSEL": (2, 1), "TSELS": (2,)}
"""Closed comparison schemas (``asl/block/model/dispatch/comparison-schema.asl``, catalog
block lines): the source count of each B.IOT in stream order, the destination in the last."""


def _check_compare_select(st: _State, s: BlockSummary, name: str, at: str, i: int) -> None:
    """TCMP / TCMPS / TSEL / TSELS block rules (``SelectedBundleClosedTCMPSchemaLegal``,
    ``SelectedBundleClosedTSELSchemaLegal``, the catalog contracts): the B.IOT shape, no B.IOR
    for the tile-tile forms (CMode 6 and 7 are reserved encodings, IllegalInstruction at
    decode), the data type in TileVecArithmeticDataTypeSupported,
    and a destination SizeCode large enough for the packed predicate
    (``ResolveBundlePredicateDestination``: ``ceil(Row*Col/8)`` bytes, TileAllocation) or the
    numeric result."""
    shape = tuple(len(b.sources) for b in st.iots)
    if shape != COMPARE_SELECT_SCHEMAS[name] or any(b.dst_hand is not None for b in st.iots[:-1]):
        raise _fault(_TL, f"{name} binds its tiles as B.IOT source groups "
                     f"{list(COMPARE_SELECT_SCHEMAS[name])} with the destination in the last; the "
                     f"block has {list(shape)}", at, i)  # fmt: skip
    if name in ("TCMP", "TSEL") and st.ior is not None:
        raise _fault(_TL, f"{name} takes no scalar: B.IOR presence is illegal", at, i)
    if s.start.dtype not in VEC_ARITH_TYPES:
        raise _fault(_TL, f"{name} does not support {_dt_name(s.start.dtype)} "
                     "(TileCompareDataTypeSupported / TileSelectDataTypeSupported, D6)", at, i)  # fmt: skip
    col, rows = s.dims[2], s.dims[1]
    if col is None or rows is None or not s.destinations:
        return
    bits = 1 if name.startswith("TCMP") else TileDataType(s.start.dtype).bits
    need = -(-col * rows * bits // 8)
    have = size_code_bytes(s.destinations[0][1])
    if need > have:
        raise PTOFault(FaultKind.TILE_ALLOCATION, f"at block completion (command {i}): {rows} x "
                       f"{col} {'predicate bits' if bits == 1 else _dt_name(s.start.dtype)} need "
                       f"{need} B, the destination SizeCode gives {have} B", op=at)  # fmt: skip


def _check_quant(st: _State, s: BlockSummary, name: str, i: int) -> None:
    """TQUANT / TDEQUANT static rules (catalog legality): BSTART type S8|U8 / FP32, B.DATR
    present with the destination DataType (its B.IOR surplus fields are BundleControl, checked
    with the other operations' in :func:`_complete_tepl`)."""
    src_ok = (TileDataType.FP32,) if name == "TQUANT" else (TileDataType.S8, TileDataType.U8)
    if st.start.dtype not in src_ok:
        raise _fault(_TL, f"{name} source type must be {' or '.join(t.asm for t in src_ok)}, "
                     f"not {_dt_name(st.start.dtype)}", name, i)  # fmt: skip
    if st.datr is None or st.datr.dtype not in QUANT_DATR_TYPES[name]:
        want = " or ".join(sorted(t.asm for t in QUANT_DATR_TYPES[name]))
        raise _fault(_TL, f"{name} needs B.DATR with DataType {want} (mandatory)", name, i)
    if st.ior is not None and st.ior.src0 == 0:
        # an encoded zero selector is a real GPR0 read: multiplier 0 is illegal
        raise _fault(_TL, f"{name}: a present B.IOR reading RegSrc0 = zero selects multiplier "
                     "0 (TileQuantizationScaleLegal)", name, i)  # fmt: skip


def _schema_text(shape) -> str:
    """``((True, 2, True),)`` -> ``[dst + 2 src, last]``."""
    parts = [("dst + " if d else "") + f"{n} src" + (", last" if last else "")
             for d, n, last in shape]  # fmt: skip
    return " ".join(f"[{p}]" for p in parts) or "no B.IOT"


CLOSED_BINARY_OPS = frozenset({"TADD", "TSUB", "TMUL", "TDIV", "TREM", "TMAX", "TMIN"})
"""ASL ``TileOperationUsesClosedBinarySchema``."""
CLOSED_SCHEMAS = {
    **{name: ("binary", ((True, 2, True),), VEC_ARITH_TYPES) for name in CLOSED_BINARY_OPS},
    **{name: ("unary", ((True, 1, True),), VEC_ARITH_TYPES) for name in ("TABS", "TNEG", "TRELU")},
    "TNOT": ("unary", ((True, 1, True),), VEC_INT_TYPES),
    "TFMA": ("TFMA", ((False, 2, False), (True, 1, True)), VEC_ARITH_TYPES),
}
"""The closed TEPL schemas (ASL ``TileOperationUsesClosed{Binary,Unary,TFMA}Schema``): a label,
the B.IOT sequence as (destination bound, source count, ``last``) per binding, and the type set
(``TileVecArithmeticDataTypeSupported``; TNOT ``TileVecScalarIntegerDataTypeSupported``;
TREM's set is the checker's ``trem_types``, D6)."""

LOAD_LAYOUTS = frozenset({0, 1, 3, 4, 21, 22, 23})
"""B.DATR Layout codes a Local TLOAD accepts: NORM and the ND2* conversions (ND2DN, ND2ZN,
ND2NZ, ND2M32, ND2M16, ND2N8)."""
STORE_LAYOUTS = frozenset({0, 6, 17, 27, 24, 25, 26})
"""B.DATR Layout codes a Local TSTORE accepts: NORM and the *2ND conversions (DN2ND, ZN2ND,
NZ2ND, M322ND, M162ND, N82ND)."""
CUBE_MOVE_LAYOUTS = frozenset({21, 22, 23, 24, 25, 26})
CUBE_ILLEGAL_TYPES = frozenset({TileDataType.FP64, TileDataType.S64, TileDataType.U64,
                                TileDataType.HIF4X2})  # fmt: skip
"""Types without CUBE CELL geometry (ASL ``TileCubeDataTypeSupported`` is false)."""
"""The CUBE conversions (pto-spec ``BSTART.TLOAD.asl`` / ``BSTART.TSTORE.asl`` contracts)."""


def _complete_tlsu(st: _State, i: int) -> BlockSummary:
    """Local TLOAD / TSTORE block composition (pto-spec ``asl/block/execution/BSTART.TLOAD.asl``,
    ``BSTART.TSTORE.asl`` contracts; docs/blocks.md):

    * TLOAD: ``BSTART.TLOAD DT; [B.DATR Layout]; B.DIM LB0 ValidCol, LB1 ValidRow, [LB2 Col];
      [B.IOR base, row stride]; exactly one terminating destination B.IOT; BSTOP``;
    * TSTORE: the same with exactly one terminating SOURCE B.IOT and no destination;
    * CUBE conversions (ND2M32/ND2M16/ND2N8 for TLOAD, M322ND/M162ND/N82ND for TSTORE) need
      DataType = DTYPE_NONE in B.DATR, explicit nonzero LB0/LB1 and no LB2.

    Binding-schema violations are BundleControl, field/dimension rules TileLegality (the
    contract's "malformed binding schema" / "invalid dimensions"). Other TLSU functions and
    Shared (B.IOS) forms are only checked structurally here; the Shared forms execute, with
    their state-dependent rules, in ``interpreter.machine.shared_blocks.Core``.
    """
    start = st.start
    name = start.op_name
    if st.zero_seen and not st.iots and not st.ios:
        return _summary(st, noop=True)
    s = _summary(st, noop=False)
    if (name in ("TLOAD", "TSTORE", "TSTORE_SPART") and st.datr is not None
            and st.datr.layout not in CUBE_MOVE_LAYOUTS and st.datr.pad != 0):
        # asl/block/model/dispatch/tile-schema.asl SelectedBundleTileDataAttributesLegal:
        # PadValue belongs to the Local CUBE conversions; ordinary and Shared TLOAD/TSTORE
        # keep the zero-only rule (an ordinary TLOAD leaves its padding undefined,
        # asl/tile/model/memory/load-store.asl TLOAD).
        raise _fault(_TL, f"an ordinary or Shared {name} needs B.DATR PadValue Zero (PadValue "
                     "applies to the CUBE conversions only)", name, i)  # fmt: skip
    if name == "TSTORE_SPART" or (name == "TSTORE" and st.ios):
        # BSTART.TSTORE.asl: the Shared forms bind exactly one source B.IOS and no B.IOT;
        # Function 1 (full) needs PE_MASK 1111, Function 14 (SPART) any nonzero subset.
        if st.iots or len(st.ios) != 1 or st.ios[0].size_code != 0:
            raise _fault(_BC, f"a Shared {name} binds exactly one source B.IOS and no B.IOT",
                         name, i)  # fmt: skip
        if name == "TSTORE" and s.mask != "1111":
            raise _fault(_TL, "a Shared TSTORE (Function 1) needs mask=1111; use TSTORE.SPART "
                         "(Function 14) for a PE subset", name, i)  # fmt: skip
        return s
    if name is not None and name.startswith("TMOV"):
        _check_tmov(st, s, name, i)
        return s
    if name not in ("TLOAD", "TSTORE") or st.ios:
        return s
    load = name == "TLOAD"
    want_src, want_dst = (0, 1) if load else (1, 0)
    if len(s.sources) != want_src or len(s.destinations) != want_dst or len(st.iots) != 1:
        raise _fault(
            _BC,
            f"a Local {name} binds exactly {want_src} source(s) and {want_dst} destination(s) "
            f"in one B.IOT; the block has {len(s.sources)} and {len(s.destinations)} in "
            f"{len(st.iots)} B.IOT(s)",
            name,
            i,
        )
    if not s.terminated:
        raise _fault(_BC, "the B.IOT sequence is not terminated with 'last'", name, i)
    if st.ior is not None and (st.ior.src2 or st.ior.dst):
        raise _fault(_BC, f"{name} reads B.IOR RegSrc0/RegSrc1 only: RegSrc2 and RegDst "
                     "must be zero", name, i)  # fmt: skip
    d = s.datr
    if st.datr is not None:
        bad = [n for n in ("cmode", "sat", "canonicalize", "rmode") if getattr(d, n)]
        if bad:
            raise _fault(_TL, f"B.DATR fields {', '.join(bad)} are not applicable to {name}",
                         name, i)  # fmt: skip
        legal = LOAD_LAYOUTS if load else STORE_LAYOUTS
        if d.layout not in legal:
            raise _fault(_TL, f"B.DATR Layout {d.layout} is not a {name} layout", name, i)
        if d.layout in CUBE_MOVE_LAYOUTS:
            if start.dtype in CUBE_ILLEGAL_TYPES:
                # asl/tile/model/shape/cube-cell.asl TileCubeDataTypeSupported (AVS
                # BLOCK-TLOAD-CUBE-DTYPE-005): b64 types and HiF4X2 have no CUBE CELL geometry.
                raise _fault(_TL, f"a CUBE {name} does not support {_dt_name(start.dtype)} "
                             "(no CUBE CELL geometry for b64 types and HiF4X2)", name, i)  # fmt: skip
            if d.dtype != DTYPE_NONE:
                raise _fault(_TL, f"a CUBE {name} needs B.DATR DataType DTYPE_NONE", name, i)
            if not (s.lb_written[0] and s.lb_written[1]) or s.lb_written[2]:
                raise _fault(_TL, f"a CUBE {name} needs explicit LB0 and LB1 and no LB2",
                             name, i)  # fmt: skip
        elif d.dtype != 0:
            raise _fault(_TL, f"an ordinary {name} accepts only Layout and PadValue in "
                         "B.DATR: DataType must be 0 (ASL TileOperationDATRFieldsLegal)",
                         name, i)  # fmt: skip
    for k in (0, 1, 2):
        if s.lb_written[k] and s.lb[k] == 0:
            raise _fault(_TL, f"LB{k} is 0 ({name} dimensions are nonzero)", name, i)
    if load and s.destinations:
        _check_tload_capacity(s, d.layout if st.datr is not None else 0, name, i)
    return s


TMOV_LAYOUTS = frozenset({0, 1, 3, 4, 6, 8, 9, 17, 18, 20, 27, 28, 30})
"""B.DATR Layout codes of a Local TMOV: those with a destination layout (NORM and the
ND/DN/ZN/NZ conversions; the CUBE codes have none, ``TileDataLayoutDestinationLayout``)."""
SHARED_TMOV_SCHEMAS = {
    "TMOV_L2S_INSERT": "one source-only B.IOT and one destination B.IOS",
    "TMOV_L2S_PUBLISH": "one source-only B.IOT and one destination B.IOS",
    "TMOV_S2L_BROADCAST": "one source B.IOS and one destination-only B.IOT",
    "TMOV_S2L_EXTRACT": "one source B.IOS and one destination-only B.IOT",
}
"""The binding schemas of the Shared TMOV forms (``BundleSharedTMOVLocalSchemaLegal``,
``BundleSharedTMOVDestinationSchemaLegal``); they execute on architectural state
(``interpreter.machine.shared_blocks.Core``)."""


def _check_tmov(st: _State, s: BlockSummary, name: str, i: int) -> None:
    """BSTART.TMOV blocks (``asl/block/execution/BSTART.TMOV.asl`` contract). Local copy
    (Function 2): one terminating B.IOT binding one source and one destination (else
    BundleControl, the malformed binding schema), no B.IOS and no nonzero B.IOR (TileLegality /
    BundleControl), B.DATR with Layout only (a destination layout, :data:`TMOV_LAYOUTS`;
    PadValue must be zero, DataType 0: ``TileOperationDATRFieldsLegal``), explicit LBs
    nonzero. The Shared forms (Functions 9-12): their B.IOT / B.IOS schema (TileLegality,
    ``ExecuteBundleSharedTLSUOperation``); the rules that need Shared state are checked where
    they execute (``interpreter.machine.shared_blocks.Core``)."""
    shared = SHARED_TMOV_SCHEMAS.get(name)
    if shared is not None:
        iot_ok = len(st.iots) == 1 and st.iots[0].last and (
            (len(s.sources) == 1 and not s.destinations) if name.startswith("TMOV_L2S")
            else (not s.sources and len(s.destinations) == 1))  # fmt: skip
        ios_ok = len(st.ios) == 1 and (st.ios[0].size_code != 0) == name.startswith("TMOV_L2S")
        if not (iot_ok and ios_ok):
            raise _fault(_TL, f"{name} binds {shared}", name, i)
        return
    if st.ios:
        raise _fault(_TL, "a Local TMOV (Function 2) binds no Shared register: B.IOS is illegal",
                     name, i)  # fmt: skip
    if len(st.iots) != 1 or len(s.sources) != 1 or len(s.destinations) != 1 or not s.terminated:
        raise _fault(_BC, "a Local TMOV binds exactly one source and one destination in one "
                     f"terminating B.IOT; the block has {len(s.sources)} and "
                     f"{len(s.destinations)} in {len(st.iots)} B.IOT(s)", name, i)  # fmt: skip
    if st.ior is not None and (any(st.ior.sources) or st.ior.dst):
        raise _fault(_BC, "TMOV takes no scalar operand: B.IOR must be all zero", name, i)
    if st.datr is not None:
        d = st.datr
        bad = [n for n in ("pad", "cmode", "sat", "canonicalize", "rmode", "dtype") if getattr(d, n)]
        if bad:
            raise _fault(_TL, f"B.DATR fields {', '.join(bad)} are not applicable to TMOV (Layout "
                         "only)", name, i)  # fmt: skip
        if d.layout not in TMOV_LAYOUTS:
            raise _fault(_TL, f"B.DATR Layout {d.layout} has no destination layout (a CUBE "
                         "conversion): not a TMOV layout", name, i)  # fmt: skip
    for k in (0, 1, 2):
        if s.lb_written[k] and s.lb[k] == 0:
            raise _fault(_TL, f"LB{k} is 0 (TMOV dimensions are nonzero)", name, i)


def _check_tload_capacity(s: BlockSummary, layout: int, name: str, i: int) -> None:
    """ASL ResolveBundleTileDestinations for TLOAD: the destination shape (ValidRow x Col
    elements, or whole 128-byte CELLs for a CUBE conversion, ``TileCubeRequiredBytes``) must
    fit the destination's SizeCode, else TileAllocation before any effect (AVS
    BLOCK-B-IOT-CONSUMER-001, BLOCK-TLOAD-CUBE-TSIZE-006)."""

    vc, vr = s.lb[0], s.lb[1]
    col = s.lb[2] if s.lb_written[2] else vc
    if vc is None or vr is None or col is None or not vc or not vr:
        return  # register-supplied or omitted dimensions: checked when the block runs
    dt = TileDataType(s.start.dtype)
    cube = {21: Layout.CUBE_M32, 22: Layout.CUBE_M16, 23: Layout.CUBE_N8}.get(layout)
    if cube is not None:
        cells = cube_cells(cube, dt, vr, vc)
        need = None if cells is None else cells * CELL_BYTES
    else:
        need = -(-vr * col * dt.bits // 8)
    have = size_code_bytes(s.destinations[0][1])
    if need is not None and need > have:
        raise PTOFault(FaultKind.TILE_ALLOCATION, f"at block completion (command {i}): "
                       f"{vr} x {vc if cube else col} {_dt_name(s.start.dtype)} needs {need} B, "
                       f"the destination SizeCode gives {have} B", op=name)  # fmt: skip


def _complete(st: _State, i: int, profile: str, trem_types) -> BlockSummary:
    # CompleteBundleAt: DR (dimension reduction) commits only in VEC/SFU/TLSU blocks; checked
    # before the operation executes (so before the zero-mask no-op and every TileLegality rule)
    kind = tile_block_kind(st.start)
    if st.catr is not None and st.catr.dr and kind not in DR_KINDS:
        name = st.start.op_name or f"{st.start.family} block"
        raise _fault(_BC, f"B.CATR DR=1 in a {kind} block ({name}): dimension reduction is "
                     "only for VEC, SFU and TLSU blocks", name, i)  # fmt: skip
    fam = st.start.family
    if fam is BlockFamily.CUBE:
        return _complete_cube(st, i, profile)
    if fam is BlockFamily.TEPL:
        return _complete_tepl(st, i, trem_types)
    return _complete_tlsu(st, i)


def check_program(
    cmds: Sequence[Command],
    *,
    profile: str = "a5",
    trem_types: frozenset[TileDataType] = TREM_TYPES,
) -> list[BlockSummary]:
    """Check a command stream made of blocks; returns one summary per block.

    ``profile`` is ``"a5"`` or ``"a2a3"`` (D15); ``trem_types`` is TREM's type set (D6
    default; pass ``datatypes.VEC_ARITH_TYPES`` for the wider profile).
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile '{profile}' (expected one of {PROFILES})")
    out: list[BlockSummary] = []
    st: _State | None = None
    for i, cmd in enumerate(cmds):
        if not isinstance(cmd, Command):
            raise TypeError(f"command {i}: {cmd!r} is not a PTO block command")
        check_reserved_at(cmd, i)
        if isinstance(cmd, BStart):
            if st is not None:  # the next BSTART completes the active block
                out.append(_complete(st, i, profile, trem_types))
            # On a2a3 the MX selectors do not decode (D15): this is decoding, so it precedes
            # the mask-0 no-op ("a strict no-op before any check but decoding", D12).
            if profile == "a2a3" and cmd.cube is not None and cmd.cube.is_mx:
                raise _fault(
                    _IL, f"{cmd.cube.name} (MX) is not available in the a2a3 profile (D15)", cmd, i
                )
            st = _State(cmd)
            continue
        if isinstance(cmd, SCALAR_START_TYPES):
            raise NotModelledError(
                f"command {i}: {cmd.mnemonic} opens a scalar ({cmd.kind}) block: this checker "
                "checks tile blocks only (the start/stop state of scalar blocks is modelled by "
                "interpreter.machine.block_control; their scalar bodies are not)"
            )
        if isinstance(cmd, STOP_TYPES):
            if st is None:
                raise _fault(_BC, f"{cmd.mnemonic} with no active block", cmd, i)
            st.cmds.append(cmd)
            out.append(_complete(st, i, profile, trem_types))
            st = None
            continue
        if st is None:
            if isinstance(cmd, BIot | BIos) and cmd.pe_mode == 0:
                # A zero-mask binding is a strict no-op before placement checks, also
                # outside a block (AVS B-IOS-ZERO-MASK-001, B-IOT-PLACEMENT-001).
                continue
            raise _fault(_BC, f"{cmd.mnemonic} outside an active block", cmd, i)
        st.cmds.append(cmd)
        _header(st, cmd, i)
    if st is not None:
        raise _fault(_BC, "the stream ends inside a block (missing BSTOP)", None, len(cmds))
    return out


def check_reserved_at(cmd: Command, i: int) -> None:
    try:
        check_reserved(cmd)
    except PTOFault as e:
        raise PTOFault(e.kind, f"command {i}: {e.message}", op=e.op) from None


def check_block(
    cmds: Sequence[Command],
    *,
    profile: str = "a5",
    trem_types: frozenset[TileDataType] = TREM_TYPES,
) -> BlockSummary:
    """Check exactly one block ``BSTART ... BSTOP`` and return its summary."""
    for i, c in enumerate(cmds[1:], start=1):
        if isinstance(c, BStart):
            raise _fault(_BC, "a second BSTART inside one block (one BSTART ... BSTOP per block)", c, i)
    blocks = check_program(cmds, profile=profile, trem_types=trem_types)
    if len(blocks) != 1:
        raise _fault(_BC, "expected one BSTART ... BSTOP block", None, 0)
    return blocks[0]


__all__ = ["BlockSummary", "PROFILES", "check_block", "check_program"]
