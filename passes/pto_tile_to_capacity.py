"""``pto-tile-to-capacity``: tensor-level PTO ops -> tload / TREM or TGEMV_MX_BIAS / tstore.

Every tile the pass creates is a Local tile that fits ``tile-bytes`` (default 64 KiB, the
Local maximum; D14), in the layouts D10 requires, and is held by up to four PEs at once
(mask ``1111``, D13), each PE taking its own slice through the ``pe_stride`` of
``pto.tload`` / ``pto.tstore`` (see ``pto_dialect/data_movement.py``).

**TREM** (``pto.floor_mod``, PTO-SPEC 5). The tensor (static, contiguous) is viewed as a
2-D ``R x C`` tensor with ``tensor.collapse_shape`` / ``tensor.expand_shape``, where ``C`` is
the largest power of two dividing the element count E (capped by the tile's capacity). A
row-major tile of Col = C then has ``Rows = TSize*8 / (C*bits)`` (D14) and is *exactly* full,
so one TREM on four PEs covers ``4 * TSize`` bytes of each operand and the number of TREMs
is the lower bound ``ceil(E * bytes / (PEs * TSize))``. Full groups run in an ``scf.for``;
the tail group uses a smaller valid (and physical) shape, with the PEs' slices placed at a
uniform stride that may overlap (overlapping PEs compute and store identical values).
TSize is at most :func:`binary_tile_bytes`: the two sources and the result must fit the core
tile capacity together (16 KiB on four PEs). The other tile-local families (maps,
conversions, compare-select, reductions, expansions, transposes; one module each) are capped
likewise by :func:`family_tile_bytes`, from the number of tiles their op holds
(:data:`LIVE_TILES`).

**GEMV** (``pto.gemv``, PTO-SPEC 4). N is split across the PEs (PE q takes columns
``n + q*Nc``), K into chunks of ``Kc`` (a multiple of 32 when a side is MX-scaled, so that the
E8M0 scales of a chunk start at ``k/32``, D1). Tiles: A ``MtxKc`` CUBE_M16/M32 mat, B
``KcxNc`` CUBE_N8 mat, C/D ``MtxNc`` in A's layout, mat; scales and bias row-major (D10).
The chunks chain through the accumulate forms (``chain=acc``, :func:`lower_cube`): chunk 0
is TGEMV(_MX)(_BIAS) / TMATMUL(_MX) (or _ACC with the matmul's init as C), later chunks the
_ACC form with C = the previous D; only the last applies ReLU and the F322F16/F322BF16
conversion. ``chain=memory`` keeps the older GEMV chain through an FP32 tensor used as
the next chunk's bias. ``(Kc, Nc)`` minimise the CUBE op count, then the chain length, with
every tile within ``tile-bytes`` and one op's tiles together within the core tile capacity
(:func:`cube_live_bytes`); a ``16384 x 4096`` MXFP8 GEMV takes the lower bound of 512 (B
tiles of 32 KiB per PE, :func:`b_tile_limit`).

**Binary siblings** (``pto.elementwise``): TADD ... TMIN tile exactly like TREM.

**Reductions and expansions** (``pto.reduce``, ``pto.expand``): one instruction per PE group
over whole rows (or whole columns for the column reductions), never splitting a reduced
line (:mod:`passes.tile_local_to_capacity`).

On target ``a2a3`` there are no MX CUBE functions (D15): MX products are left as they are,
FP16/BF16 ones use the ordinary forms.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin, scf, tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    TensorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from passes.cmpsel_to_capacity import lower_cmpsel
from passes.convert_to_capacity import lower_convert
from passes.lowering.emitter import (  # MOVED
    Emitter,
    empty_tensor,
    reshape,
    trip_count,
)
from passes.lowering.idioms import target_of
from passes.lowering.tile_plans import (  # MOVED
    LIVE_TILES,
    LOCAL_MAX_BYTES,
    NUM_PES,
    GemvPlan,
    GemvShape,
    b_tile_limit,
    binary_tile_bytes,
    ceil_div,
    cover,
    cube_live_bytes,
    cube_tile,
    family_tile_bytes,
    gemv_lower_bound,
    plan_gemv,
    plan_trem,
    row_major_tile,
    trem_lower_bound,
)
from passes.tile_local_to_capacity import (
    lower_gather,
    lower_sort,
    lower_tensor_local,
    lower_transpose,
)
from pto_dialect.attributes import PadValue, TargetProfile, TileType, element_type
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.datatypes import MX_BLOCK, MX_INPUT_TYPES, TileDataType
from pto_dialect.families import OP_OF_MNEMONIC
from pto_dialect.geometry import (
    Layout,
    Storage,
    code_of_size,
    default_size,
    max_code,
)
from pto_dialect.ops import (
    BinaryTileOp,
    CubeMatrixOp,
    TGemvAccOp,
    TGemvBiasOp,
    TGemvMxAccOp,
    TGemvMxBiasOp,
    TGemvMxOp,
    TGemvOp,
    TMatmulAccOp,
    TMatmulBiasOp,
    TMatmulMxAccOp,
    TMatmulMxBiasOp,
    TMatmulMxOp,
    TMatmulOp,
    TRemOp,
)
from pto_dialect.postprocess import Fpatr, ReluMode
from pto_dialect.tensor_compare import CmpSelOp
from pto_dialect.tensor_convert import ConvertOp
from pto_dialect.tensor_local import ExpandOp, GatherOp, ReduceOp, SortOp, TransposeOp
from pto_dialect.tensor_map import MapOp
from pto_dialect.tensor_ops import ElementwiseOp, FloorModOp, GemvOp, MatmulOp

MAX_INSTRUCTIONS_PER_OP = 1 << 16
"""Lowering limit (documented in docs/hardening.md): one tensor-level op tiles into at most
this many compute instructions. Planning and emission are linear in the instructions; a
larger op (e.g. a GEMV with K = 10^20) is refused before planning, with this limit named."""

PRE_QUANT_FOR_OUTPUT = {
    TileDataType.FP32: 0, TileDataType.FP16: 1, TileDataType.BF16: 16,
    TileDataType.S32: 0, TileDataType.U32: 0,
}  # fmt: skip
"""PreQuantMode converting the accumulator to the result type (PTO-SPEC 3.3, D11): none for
an FP32 / S32 / U32 result, F322F16 / F322BF16 for FP16 / BF16."""


# ======================================================================================
# Capacity arithmetic (pure Python; D14 through pto_dialect.geometry)
# ======================================================================================


# -- TREM --------------------------------------------------------------------------------


# -- GEMV --------------------------------------------------------------------------------


# ======================================================================================
# IR emission
# ======================================================================================


# -- TREM --------------------------------------------------------------------------------


def lower_floor_mod(op: FloorModOp, tile_bytes: int, npe: int) -> None:
    """``pto.floor_mod`` -> TREM (PTO-SPEC 5, D6-D8)."""
    lower_binary(op, TRemOp, op.dtype, tile_bytes, npe)


def lower_map(op: MapOp, tile_bytes: int, npe: int) -> None:
    """``pto.map`` -> tload, the unary / tile-scalar tile op, tstore over the same cover."""
    lower_binary(op, op.tile_op, op.dtype, tile_bytes, npe)


def lower_binary(
    op: FloorModOp | ElementwiseOp | MapOp,
    tile_op: type[BinaryTileOp],
    dt: TileDataType,
    tile_bytes: int,
    npe: int,
) -> None:
    """One elementwise tensor op -> tload, ``tile_op``, tstore over the plan_trem cover."""
    t = op.result.type
    assert isinstance(t, TensorType)
    plan = plan_trem(math.prod(t.get_shape()), dt, tile_bytes, npe)
    consts: dict[int, SSAValue] = {}
    emit = Emitter(InsertPoint.before(op), consts, InsertPoint.before(op))
    view = (plan.rows, plan.cols)
    mapped = isinstance(op, MapOp)
    a = reshape(emit, op.source if mapped else op.lhs, view)
    b = None if mapped else reshape(emit, op.rhs, view)
    acc = empty_tensor(emit, TensorType(t.element_type, list(view)))
    full_size = tile_bytes
    for run in plan.runs:
        if run.valid == plan.tile_rows:
            tile = TileType(
                (plan.tile_rows, plan.cols), dt, size=full_size, pe=run.mask
            )
        else:
            tile = row_major_tile((run.valid, plan.cols), dt, run.mask, col=plan.cols)
        stride = (run.stride, 0)

        def body(e: Emitter, row: SSAValue, cur: SSAValue, tile=tile, stride=stride):
            c0 = e.index(0)
            if mapped and not tile_op.TILE_ROLES:  # the fill (TEXPANDS): nothing to load
                tr = e(tile_op.from_roles({"scalar": op.scalars[0]}, tile, PadValue.NULL,
                                     tile.pe_mask)).results[0]  # fmt: skip
                return e(TStoreOp(tr, cur, [row, c0], pe_stride=stride)).results[0]
            ta = e(TLoadOp(a, [row, c0], tile, pe_stride=stride)).results[0]
            if mapped:  # unary / tile-scalar: one source, the scalar is defined outside
                roles = dict(zip((*tile_op.TILE_ROLES, *tile_op.SCALAR_ROLES),
                                 [ta, *op.scalars]))  # fmt: skip
                tr = e(tile_op.from_roles(roles, tile, PadValue.NULL, tile.pe_mask)).results[0]
                return e(TStoreOp(tr, cur, [row, c0], pe_stride=stride)).results[0]
            tb = e(TLoadOp(b, [row, c0], tile, pe_stride=stride)).results[0]
            tr = e(tile_op(ta, tb, tile, mask=tile.pe_mask)).results[0]
            return e(TStoreOp(tr, cur, [row, c0], pe_stride=stride)).results[0]

        acc = emit.for_loop(run.start, run.count, run.step, acc, body)
    res = reshape(emit, acc, t.get_shape())
    Rewriter.replace_op(op, [], [res])


# -- GEMV --------------------------------------------------------------------------------


def cube_shape(op: GemvOp | MatmulOp) -> GemvShape:
    m = op.m if isinstance(op, MatmulOp) else 1
    return GemvShape(
        op.k,
        op.n,
        op.a_dtype,
        op.b_dtype,
        op.out_dtype,
        op.a_scale is not None,
        op.b_scale is not None,
        m,
        op.acc_dtype,
    )


gemv_shape = cube_shape


def _as_row(emit: Emitter, v: SSAValue | None) -> SSAValue | None:
    """``tensor<X>`` -> ``tensor<1xX>`` (tload moves 2-D tensors)."""
    if v is None:
        return None
    t = v.type
    assert isinstance(t, TensorType)
    if t.get_num_dims() == 2:
        return v
    return reshape(emit, v, (1, t.get_shape()[0]))


def lower_gemv_memory(op: GemvOp, plan: GemvPlan) -> None:
    """The ``chain=memory`` GEMV: every chunk is a TGEMV_MX_BIAS whose bias is the partial
    result of the previous chunk, stored to and loaded back from an FP32 tensor."""
    s = plan.shape
    consts: dict[int, SSAValue] = {}
    emit = Emitter(InsertPoint.before(op), consts, InsertPoint.before(op))
    a = _as_row(emit, op.a)
    a_scale = _as_row(emit, op.a_scale)
    b, b_scale = op.b, op.b_scale
    f32 = element_type(TileDataType.FP32)
    acc_t = TensorType(f32, [1, s.n])
    if op.bias is not None:
        acc = _as_row(emit, op.bias)
    else:
        zero = DenseIntOrFPElementsAttr.from_list(acc_t, [0.0])
        acc = emit(arith.ConstantOp(zero)).results[0]
    assert acc is not None
    out_t = TensorType(element_type(s.out), [1, s.n])

    def chunk(e: Emitter, k: SSAValue, kb: SSAValue, kv: int, src: SSAValue, dst: SSAValue, last: bool):
        """One K chunk of ``kv`` elements at ``k``: every N run, bias from ``src``, D to ``dst``."""
        d_dt = s.out if last else TileDataType.FP32
        fpatr = Fpatr(
            pre_quant_mode=PRE_QUANT_FOR_OUTPUT[d_dt] if last else 0,
            relu_mode=ReluMode.RELU.value if (last and op.has_relu) else 0,
        )
        nbv = ceil_div(kv, MX_BLOCK)
        a_tiles: dict[str, tuple[SSAValue, SSAValue | None]] = {}

        def a_for(mask: str):
            if mask not in a_tiles:
                c0 = e.index(0)
                ta = e(TLoadOp(a, [c0, k], cube_tile((1, kv), s.a, Layout.CUBE_M16, mask))).results[0]
                tas = None
                if a_scale is not None:
                    tt = row_major_tile((1, nbv), TileDataType.E8M0, mask)
                    tas = e(TLoadOp(a_scale, [c0, kb], tt)).results[0]
                a_tiles[mask] = (ta, tas)
            return a_tiles[mask]

        for run in plan.runs:
            mask, nv = run.mask, run.valid
            ta, tas = a_for(mask)
            stride = (0, run.stride)
            b_tile = cube_tile((kv, nv), s.b, Layout.CUBE_N8, mask)
            bs_tile = row_major_tile((nbv, nv), TileDataType.E8M0, mask)
            bias_tile = row_major_tile((1, nv), TileDataType.FP32, mask)
            d_tile = cube_tile((1, nv), d_dt, Layout.CUBE_M16, mask)

            def body(e2: Emitter, n: SSAValue, cur: SSAValue, ta=ta, tas=tas, stride=stride,
                     b_tile=b_tile, bs_tile=bs_tile, bias_tile=bias_tile, d_tile=d_tile, mask=mask):
                c0 = e2.index(0)
                tb = e2(TLoadOp(b, [k, n], b_tile, pe_stride=stride)).results[0]
                tbs = None
                if b_scale is not None:
                    tbs = e2(TLoadOp(b_scale, [kb, n], bs_tile, pe_stride=stride)).results[0]
                tbias = e2(TLoadOp(src, [c0, n], bias_tile, pe_stride=stride)).results[0]
                gemv = TGemvMxBiasOp(
                    {"a": ta, "a_scale": tas, "b": tb, "b_scale": tbs, "bias": tbias},
                    [d_tile],
                    fpatr=fpatr,
                    mask=mask,
                )
                d = e2(gemv).results[0]
                return e2(TStoreOp(d, cur, [c0, n], pe_stride=stride)).results[0]

            dst = e.for_loop(run.start, run.count, run.step, dst, body)
        return dst

    # Chunks 0 .. nk-2 accumulate into ``acc`` (FP32, through memory: D10), the last one
    # converts and writes the result.
    if plan.nk > 1:
        step = plan.kc

        def k_body(e: Emitter, k: SSAValue, cur: SSAValue):
            if isinstance(k.owner, arith.ConstantOp):
                kb = e.index(k.owner.value.value.data // MX_BLOCK)  # type: ignore[union-attr]
            else:
                kb = e(arith.DivUIOp(k, e.index(MX_BLOCK))).results[0]
            return chunk(e, k, kb, plan.kc, cur, cur, last=False)

        acc = emit.for_loop(0, plan.nk - 1, step, acc, k_body)
    k_last0 = (plan.nk - 1) * plan.kc
    out = empty_tensor(emit, out_t)
    out = chunk(
        emit, emit.index(k_last0), emit.index(k_last0 // MX_BLOCK), plan.k_last, acc, out, last=True
    )
    res_t = op.result.type
    assert isinstance(res_t, TensorType)
    res = reshape(emit, out, res_t.get_shape())
    Rewriter.replace_op(op, [], [res])


CUBE_FORMS: dict[tuple[bool, bool], tuple[type[CubeMatrixOp], ...]] = {
    # (gemv, mx): (first chunk, first chunk with bias, later chunks)
    (True, True): (TGemvMxOp, TGemvMxBiasOp, TGemvMxAccOp),
    (True, False): (TGemvOp, TGemvBiasOp, TGemvAccOp),
    (False, True): (TMatmulMxOp, TMatmulMxBiasOp, TMatmulMxAccOp),
    (False, False): (TMatmulOp, TMatmulBiasOp, TMatmulAccOp),
}
"""Which live CUBE function each step of a K chain uses (PTO-SPEC 3.1)."""


def lower_cube(op: GemvOp | MatmulOp, plan: GemvPlan) -> None:
    """A GEMV or matmul as a K chain through the accumulate forms (PTO-SPEC 3.1, D3, D10).

    Loops: M tiles (``scf.for``) > N runs (``scf.for`` per run) > the K chain, unrolled, so
    no tile crosses a loop boundary. Chunk 0 is TGEMV(_MX)(_BIAS) / TMATMUL(_MX)(_BIAS) — a
    matmul init that is not zero enters as chunk 0's C through TMATMUL(_MX)_ACC — and every
    later chunk is the _ACC form with C = the previous D (FP32, A's layout). Only the last
    chunk converts (PreQuantMode 1/16) and applies ReLU. When the plan hoists them
    (:attr:`GemvPlan.hoist`), the A chunks (and their scales) are loaded once per M tile and
    PE mask, outside the N loop.
    """
    s = plan.shape
    gemv = isinstance(op, GemvOp)
    consts: dict[int, SSAValue] = {}
    emit = Emitter(InsertPoint.before(op), consts, InsertPoint.before(op))
    a = _as_row(emit, op.a)
    a_scale = _as_row(emit, op.a_scale)
    b, b_scale = op.b, op.b_scale
    bias = _as_row(emit, op.bias)
    init = None if gemv else op.acc
    relu = op.has_relu
    first_plain, first_bias, acc_form = CUBE_FORMS[(gemv, s.mx)]
    layout, mt = plan.layout, plan.mt
    res_elt = op.result.type.element_type  # type: ignore[union-attr]
    out_t = TensorType(res_elt, [s.m, s.n])  # signless i32 stays signless (tstore allows it)
    fp32 = TileDataType.FP32
    acc_dt = s.acc
    chunks = [(c * plan.kc, plan.kc if c < plan.nk - 1 else plan.k_last) for c in range(plan.nk)]
    hoist = plan.hoist

    def a_chunk(e: Emitter, m: SSAValue, mv: int, c: int, mask: str):
        k0, kv = chunks[c]
        ta = e(TLoadOp(a, [m, e.index(k0)], cube_tile((mv, kv), s.a, layout, mask))).results[0]
        tas = None
        if a_scale is not None:
            tt = row_major_tile((mv, ceil_div(kv, MX_BLOCK)), TileDataType.E8M0, mask)
            tas = e(TLoadOp(a_scale, [m, e.index(k0 // MX_BLOCK)], tt)).results[0]
        return ta, tas

    def m_body(e: Emitter, m: SSAValue, cur: SSAValue, mv: int):
        for run in plan.runs:
            mask, nv = run.mask, run.valid
            stride = (0, run.stride)
            a_tiles = [a_chunk(e, m, mv, c, mask) for c in range(plan.nk)] if hoist else None

            def n_body(e2: Emitter, n: SSAValue, acc_t: SSAValue, mask=mask, nv=nv,
                       stride=stride, a_tiles=a_tiles):
                prev = None
                for c, (k0, kv) in enumerate(chunks):
                    last = c == plan.nk - 1
                    ta, tas = a_tiles[c] if a_tiles is not None else a_chunk(e2, m, mv, c, mask)
                    nbv = ceil_div(kv, MX_BLOCK)
                    b_tile = cube_tile((kv, nv), s.b, Layout.CUBE_N8, mask)
                    tb = e2(TLoadOp(b, [e2.index(k0), n], b_tile, pe_stride=stride)).results[0]
                    tbs = None
                    if b_scale is not None:
                        bs_tile = row_major_tile((nbv, nv), TileDataType.E8M0, mask)
                        kb = e2.index(k0 // MX_BLOCK)
                        tbs = e2(TLoadOp(b_scale, [kb, n], bs_tile, pe_stride=stride)).results[0]
                    roles: dict[str, SSAValue | None] = {"a": ta, "b": tb}
                    if s.mx:
                        roles.update(a_scale=tas, b_scale=tbs)
                    if prev is not None:
                        form = acc_form
                        roles["c"] = prev
                    elif bias is not None:
                        form = first_bias
                        bt = row_major_tile((1, nv), fp32, mask)
                        roles["bias"] = e2(
                            TLoadOp(bias, [e2.index(0), n], bt, pe_stride=stride)
                        ).results[0]
                    elif init is not None:
                        form = acc_form
                        ct = cube_tile((mv, nv), acc_dt, layout, mask)
                        roles["c"] = e2(TLoadOp(init, [m, n], ct, pe_stride=stride)).results[0]
                    else:
                        form = first_plain
                    d_dt = s.out if last else acc_dt
                    fpatr = Fpatr(
                        pre_quant_mode=PRE_QUANT_FOR_OUTPUT[d_dt] if last else 0,
                        relu_mode=ReluMode.RELU.value if (last and relu) else 0,
                    )
                    d_tile = cube_tile((mv, nv), d_dt, layout, mask)
                    prev = e2(form(roles, [d_tile], fpatr=fpatr, mask=mask)).results[0]
                assert prev is not None
                return e2(TStoreOp(prev, acc_t, [m, n], pe_stride=stride)).results[0]

            cur = e.for_loop(run.start, run.count, run.step, cur, n_body)
        return cur

    out = empty_tensor(emit, out_t)
    full, tail = divmod(s.m, mt)
    if full:
        out = emit.for_loop(0, full, mt, out, lambda e, m, cur: m_body(e, m, cur, mt))
    if tail:
        out = m_body(emit, emit.index(full * mt), out, tail)
    res_t = op.result.type
    assert isinstance(res_t, TensorType)
    res = reshape(emit, out, res_t.get_shape())
    Rewriter.replace_op(op, [], [res])


# ======================================================================================
# Counting (tests, docs, benchmarks)
# ======================================================================================


def executed_op_counts(root: Operation) -> Counter[str]:
    """How many times each op runs (static ``scf.for`` trip counts multiplied out)."""
    counts: Counter[str] = Counter()

    def walk(op: Operation, mult: int):
        counts[op.name] += mult
        inner = mult
        if isinstance(op, scf.ForOp):
            trips = trip_count(op)
            if trips is None:
                raise ValueError("scf.for with non-constant bounds: cannot count statically")
            inner = mult * trips
        for region in op.regions:
            for block in region.blocks:
                for o in block.ops:
                    walk(o, inner)

    walk(root, 1)
    return counts


# ======================================================================================
# The pass
# ======================================================================================


CHAINS = ("acc", "memory")


@dataclass(frozen=True)
class PtoTileToCapacityPass(ModulePass):
    """Tile the tensor-level PTO ops into tload / CUBE or TEPL instructions / tstore.

    ``pto.gemv`` and ``pto.matmul`` -> the TGEMV / TMATMUL family (K chain through the ACC
    forms), ``pto.floor_mod`` -> TREM, ``pto.elementwise`` -> TADD ... TMIN.

    Options:
      * ``tile-bytes`` — the largest TSize a tile may take, per PE (a Local TSize: a power
        of two from 128 to 65536; default 65536, D14).
      * ``pes`` — how many PEs to use, 1..4 (default 4; masks use the first ``pes`` PEs).
      * ``target`` — ``a5`` or ``a2a3``; empty (default) reads the module's ``pto.target``.
        On ``a2a3`` only the FP16/BF16 (non-MX) products are tiled; MX ones stay (D15).
      * ``chain`` — ``acc`` (default): K chunks chain through the _ACC forms; ``memory``:
        GEMV chunks chain through an FP32 tensor and TGEMV_MX_BIAS (matmul always uses acc).
      * ``cube-tile-bytes`` — the largest TSize of the GEMV / matmul tiles (default 0: the
        same as ``tile-bytes``). Their plan budgets its own live set, so ``pto-lower`` keeps
        it at the maximum while it shrinks the other families' tiles.
    """

    name = "pto-tile-to-capacity"

    tile_bytes: int = LOCAL_MAX_BYTES
    pes: int = NUM_PES
    target: str = ""
    chain: str = "acc"
    cube_tile_bytes: int = 0

    @property
    def cube_bytes(self) -> int:
        """The largest TSize of a GEMV / matmul tile."""
        return self.cube_tile_bytes or self.tile_bytes

    def check_options(self) -> None:
        for opt, v in (("tile-bytes", self.tile_bytes), ("cube-tile-bytes", self.cube_bytes)):
            code = code_of_size(v)
            if code is None or code > max_code(Storage.LOCAL):
                raise PassFailedException(
                    f"{self.name}: {opt}={v} is not a Local TSize "
                    "(128 B * 2^k up to 65536 B; D14)"
                )
        if not 1 <= self.pes <= NUM_PES:
            raise PassFailedException(f"{self.name}: pes={self.pes} must be 1..{NUM_PES} (D13)")
        if self.chain not in CHAINS:
            raise PassFailedException(
                f"{self.name}: chain={self.chain} must be one of {', '.join(CHAINS)}"
            )

    def budget(self, family: str) -> int:
        """The TSize cap of ``family``'s tiles (:func:`family_tile_bytes`)."""
        return family_tile_bytes(family, self.tile_bytes, self.pes)

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:

        self.check_options()
        try:
            target = target_of(op, self.target)
        except ValueError as e:
            raise PassFailedException(f"{self.name}: {e}") from None
        for o in list(op.walk()):
            if isinstance(o, FloorModOp | ElementwiseOp | GemvOp | MatmulOp) and _lower_empty(
                o, self.name
            ):
                continue
            binary_bytes = binary_tile_bytes(self.tile_bytes, self.pes)
            if isinstance(o, FloorModOp | ElementwiseOp):
                t = o.result.type
                assert isinstance(t, TensorType)
                dt = o.dtype
                _check_size(
                    self.name,
                    f"the {'x'.join(map(str, t.get_shape()))} {o.name}",
                    trem_lower_bound(math.prod(t.get_shape()), dt, binary_bytes, self.pes),
                )
            if isinstance(o, FloorModOp):
                lower_floor_mod(o, binary_bytes, self.pes)
            elif isinstance(o, MapOp):
                lower_map(o, self.budget("map"), self.pes)
            elif isinstance(o, ElementwiseOp):
                lower_binary(o, OP_OF_MNEMONIC[o.mnemonic], o.dtype, binary_bytes, self.pes)
            elif isinstance(o, CmpSelOp):
                lower_cmpsel(o, self.budget("cmpsel"), self.pes)
            elif isinstance(o, ReduceOp | ExpandOp):
                family = "reduce" if isinstance(o, ReduceOp) else "expand"
                lower_tensor_local(o, self.budget(family), self.pes, self.tile_bytes)
            elif isinstance(o, ConvertOp) and not _lower_empty(o, self.name):
                lower_convert(o, self.budget("convert"), self.pes)
            elif isinstance(o, TransposeOp):
                lower_transpose(o, self.budget("transpose"), self.pes, self.tile_bytes)
            elif isinstance(o, GatherOp):  # the index and result tiles: a transpose's budget
                lower_gather(o, self.budget("transpose"), self.pes, self.tile_bytes)
            elif isinstance(o, SortOp):  # the source and the values (+ U32 indices)
                lower_sort(o, self.budget("expand"), self.pes, self.tile_bytes)
            elif isinstance(o, GemvOp | MatmulOp):
                s = cube_shape(o)
                if s.mx and target is not TargetProfile.A5:
                    continue  # no MX CUBE function on a2a3 (D15)
                what = f"the {s.m}x{s.k}x{s.n} product"
                _check_size(self.name, what, gemv_lower_bound(s, self.cube_bytes, self.pes))
                plan = plan_gemv(s, self.cube_bytes, self.pes)
                if plan is not None:
                    _check_size(self.name, what, plan.instructions)
                if plan is None:
                    raise PassFailedException(
                        f"{self.name}: no tiling of the {s.m}x{s.k}x{s.n} product fits "
                        f"tile-bytes={self.cube_bytes} (D14)"
                    )
                mx_pair = s.a in MX_INPUT_TYPES and s.b in MX_INPUT_TYPES
                if isinstance(o, GemvOp) and self.chain == "memory" and target is TargetProfile.A5 and mx_pair:
                    lower_gemv_memory(o, plan)
                else:
                    lower_cube(o, plan)


def _check_size(pass_name: str, what: str, count: int) -> None:
    if count > MAX_INSTRUCTIONS_PER_OP:
        raise PassFailedException(
            f"{pass_name}: {what} needs at least {count} compute instructions, more than the "
            f"lowering limit of {MAX_INSTRUCTIONS_PER_OP} per op (split it at the source)"
        )


def _lower_empty(o: FloorModOp | ElementwiseOp | GemvOp | MatmulOp, pass_name: str) -> bool:
    """Zero-sized work: an op whose result has no element lowers to nothing (its result is
    an empty tensor); an empty contraction (K = 0) is refused. True when ``o`` was handled."""
    t = o.result.type
    assert isinstance(t, TensorType)
    shapes = [t.get_shape()] + [
        v.type.get_shape() for v in o.operands if isinstance(v.type, TensorType)
    ]
    if all(d > 0 for shape in shapes for d in shape):
        return False
    if any(d == 0 for d in t.get_shape()):
        empty = tensor.EmptyOp((), t)
        Rewriter.replace_op(o, empty)
        return True
    raise PassFailedException(
        f"{pass_name}: '{o.name}' has an operand with a zero-sized dimension "
        "(an empty contraction, K = 0), which has no PTO instruction; remove it at the source"
    )


__all__ = [
    "PtoTileToCapacityPass",
    "CUBE_FORMS",
    "lower_binary",
    "lower_cube",
    "plan_trem",
    "plan_gemv",
    "trem_lower_bound",
    "gemv_lower_bound",
    "b_tile_limit",
    "LIVE_TILES",
    "binary_tile_bytes",
    "family_tile_bytes",
    "cube_live_bytes",
    "cover",
    "executed_op_counts",
    "default_size",
]
