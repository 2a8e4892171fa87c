"""Local tile-to-tile moves: TMOV (TLSU Function 2), the local-copy family.

TMOV is a TLSU operation (``BSTART.TMOV``), not a TEPL one, so it has its own small base,
:class:`LocalMoveOp` (one source, one destination of the same descriptor, the PE mask) and
one row, :class:`TMovOp`. Its block former, block checks and decoded dispatch are rows of
the TLSU tables (``pto_dialect.isa.block``, ``passes.pto_form_blocks``,
``pto_dialect.block_ops``); its kernel is ``interpreter.kernels.KERNELS["TMOV"]``.

NOT modelled (no Shared register state in this project): the Shared TMOV forms of the same
``BSTART.TMOV`` carrier, Functions 9 ``TMOV.L2S.INSERT``, 10 ``TMOV.L2S.PUBLISH``, 11
``TMOV.S2L.BROADCAST`` and 12 ``TMOV.S2L.EXTRACT`` (``asl/block/execution/BSTART.TMOV.asl``,
``asl/tile/model/memory/shared-movement.asl``): they read or write the per-core Shared
registers Sx with their allocation mask, initialized quarters and publication flag
(``asl/tile/model/state/shared-registers.asl``). They decode and their blocks are checked
structurally (a zero PE mask is a strict no-op); they execute on architectural state
(:class:`interpreter.machine.shared_blocks.Core`, docs/shared-registers.md), not as SSA values
(:data:`SHARED_TMOV_UNMODELLED`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from pto_dialect.attributes import MaskAttr, TileType
from pto_dialect.faults import FaultKind
from pto_dialect.geometry import Storage
from pto_dialect.isa.commands import BlockFamily
from pto_dialect.ops import PTOOp, type_name
from pto_dialect.syntax import FunctionType
from pto_dialect.tile_local_base import shape_text

TL = FaultKind.TILE_LEGALITY

SHARED_TMOV_UNMODELLED = (
    "the Shared TMOV forms (BSTART.TMOV Functions 9 INSERT, 10 PUBLISH, 11 BROADCAST, 12 "
    "EXTRACT) read or write Shared registers Sx, their allocation mask, initialized quarters "
    "and publication flag (asl/tile/model/state/shared-registers.asl), which SSA tiles and "
    "linked blocks cannot name; they run on architectural state (interpreter.machine.shared_blocks.Core)"
)
"""Why the Shared TMOV forms do not execute at the SSA level (decoded-block errors cite it)."""


class LocalMoveOp(PTOOp):
    """Base of the Local-to-Local TLSU moves: ``src`` -> ``result`` of the same descriptor
    (``TileShapeAndTypeMatch``), the PE mask (D13). Syntax::

        %d = pto.<op> %src [{mask = #pto.mask<1100>}] : (T) -> T
    """

    BLOCK_FAMILY: ClassVar[BlockFamily | None] = BlockFamily.TLSU
    MNEMONIC: ClassVar[str]
    SPEC: ClassVar[str]

    src = operand_def(TileType)
    result = result_def(TileType)
    mask = prop_def(MaskAttr, MaskAttr("1111"))

    traits = traits_def(Pure())

    PROPERTY_DEFAULTS: ClassVar[dict[str, Attribute]] = {"mask": MaskAttr("1111")}

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (FunctionType,)
    assembly_format = "$src attr-dict `:` custom<FunctionType>(type(operands), type(results))"

    def __init__(self, src: SSAValue, result_type: Attribute, *, mask: str = "1111"):
        super().__init__(operands=[src], result_types=[result_type],
                         properties={"mask": MaskAttr(mask)})  # fmt: skip

    def verify_(self) -> None:
        s, d = self.src.type, self.result.type
        assert isinstance(s, TileType) and isinstance(d, TileType), "the definitions hold tiles"
        if self.mask.is_zero:  # strict no-op with no further checks (PTO-SPEC 2, D12)
            return
        for role, t in (("src", s), ("result", d)):
            if t.storage_kind is not Storage.LOCAL:
                raise self.fault(TL, f"{role}: Local TMOV moves Local tiles, got shared; "
                                 f"{SHARED_TMOV_UNMODELLED}", self.SPEC)  # fmt: skip
            if t.pe_mask != self.mask.data:
                raise self.fault(TL, f"{role}: held by PEs {t.pe_mask} but the op's mask is "
                                 f"{self.mask.data}; all bindings share one mask",
                                 "PTO-SPEC 2, D13")  # fmt: skip
        rule = "src's, TileShapeAndTypeMatch"
        for what, get in (("element type", lambda t: type_name(t.element_type)),
                          ("physical shape", lambda t: shape_text(t.shape)),
                          ("valid shape", lambda t: shape_text(t.valid_shape)),
                          ("layout", lambda t: t.layout_kind.value)):  # fmt: skip
            if get(d) != get(s):
                raise self.fault(TL, f"result: {what} {get(d)} must be {get(s)} ({rule})",
                                 self.SPEC)  # fmt: skip


@irdl_op_definition
class TMovOp(LocalMoveOp):
    """``pto.tmov`` — d = src: a copy of the whole physical payload AND its per-element definedness (TLSU Function 2).

    Semantics (``asl/tile/model/memory/shared-movement.asl`` ``TMOV``)::

        d.payload = src.payload      (every physical element, padding included, bit for bit)
        d.defined = src.defined      (undefined source elements stay undefined: no fault)
        src persists

    Static legality (``TileOperandsLegal_TMOV`` = ``TileShapeAndTypeMatch``): d has src's
    element type, physical and valid shape, layout and (Local) storage; any element type and
    layout. There is no run-time fault: TMOV reads no element value.

    Example::

        %d = pto.tmov %s : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=1x2>

    Block: ``BSTART.TMOV DT; [B.DATR Layout] (the tiles' layout when not row-major: ND2DN,
    ND2ZN, ND2NZ); B.IOT src, mask, last, ->d<TSize>; BSTOP``; the LBs are omitted (they
    inherit ValidCol, ValidRow and Col from the source descriptor; catalog composition and
    ``asl/block/execution/BSTART.TMOV.asl``). The Shared forms of the carrier are not
    modelled (module docstring).
    Spec: ``asl/tile/layout-and-rearrangement/layout/TMOV.asl``.
    """

    name = "pto.tmov"
    MNEMONIC: ClassVar[str] = "TMOV"
    SPEC: ClassVar[str] = "asl/tile/layout-and-rearrangement/layout/TMOV.asl"


MOVE_OPS: list[type[LocalMoveOp]] = [TMovOp]
"""The Local-to-Local TLSU moves (joins the op registry ``pto_dialect.families``)."""
