"""xDSL interpreter functions for the ``pto`` tile-level ops.

Each op runs its vectorised numpy kernel once per selected PE (D13) after a complete
preflight; faults (:class:`pto_dialect.faults.PTOFault`) are raised before any effect (D12),
and results are fresh SSA values, so publication is atomic by construction.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from interpreter import kernels
from interpreter.kernels.profiles import NumericProfile, numeric_profile
from interpreter.kernels.status import staged
from interpreter.kernels.storage import all_defined, pe_indices, storage_dtype
from interpreter.ssa.compare_functions import compare_select_plan
from interpreter.ssa.runtime import (
    TileValue,
    mask_zero_noop,
    per_pe_plan,
    register_plans,
    require_source,
    source_check,
)
from pto_dialect.attributes import TargetProfile, TileType
from pto_dialect.compare_ops import COMPARE_SELECT_OPS, CompareSelectOp
from pto_dialect.convert_ops import CONVERT_OPS, ConvertTileOp, TCvtOp
from pto_dialect.data_movement import TLoadOp, TStoreOp, gm_row_span, gm_valid_shape
from pto_dialect.elementwise_ops import ELEMENTWISE_FAMILY_OPS, TeplElementwiseOp
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.mx_quant import pack_x2, unpack_x2
from pto_dialect.ops import BINARY_OPS, CUBE_OPS, BinaryTileOp, CubeMatrixOp, target_profile
from pto_dialect.tile_local import GENERATOR_OPS, LOCAL_OPS, GeneratorTileOp, TeplTileOp
from pto_dialect.tile_move import MOVE_OPS, LocalMoveOp

COLUMN_ROLES = frozenset({"b", "b_scale", "bias", "c", "quant", "prelu"})
"""CUBE operands indexed by output column (N); the others are indexed by row (M) or K only."""


def _column_batchable(f, per_pe: dict[int, dict[str, np.ndarray]]) -> bool:
    """True when the PEs differ only in column operands and no row reduction is enabled."""
    if f.row_max_en or f.group_max_en:
        return False
    first = next(iter(per_pe.values()))
    for tiles in per_pe.values():
        for role, arr in tiles.items():
            if role in COLUMN_ROLES:
                if arr.shape[0] != first[role].shape[0]:
                    return False
            elif arr.shape != first[role].shape or arr.tobytes() != first[role].tobytes():
                return False
    return True


def _join_columns(parts: list[np.ndarray]) -> np.ndarray:
    """The PEs' column slices side by side. When they are adjacent windows of one array (as
    ``pto.tload`` with a column ``pe_stride`` produces), a strided view of the union avoids a
    copy; otherwise they are concatenated."""
    first = parts[0]
    base = first.base
    if base is not None and all(p.base is base and p.strides == first.strides for p in parts):
        start = first.__array_interface__["data"][0]
        step = first.shape[1] * first.strides[1]
        if all(
            p.shape[0] == first.shape[0]
            and p.__array_interface__["data"][0] == start + i * step
            for i, p in enumerate(parts)
        ):
            cols = sum(p.shape[1] for p in parts)
            # as_strided goes through __array_interface__, which cannot describe ml_dtypes
            # types: stride an unsigned view of the same width and view the result back.
            if first.dtype.itemsize in (1, 2, 4, 8):
                raw = first.view(f"u{first.dtype.itemsize}")
                joined = np.lib.stride_tricks.as_strided(
                    raw, shape=(first.shape[0], cols), strides=first.strides, writeable=False
                )
                return joined.view(first.dtype)
    return np.concatenate(parts, axis=1)


class Owned(np.ndarray):
    """A tensor buffer the compiled engine allocated itself and may update in place.

    A ``pto.tstore`` whose destination is such a buffer, and whose destination SSA value dies
    at the store (the compiled engine proves that statically, :mod:`interpreter.ssa.compiled`),
    writes into it instead of copying the whole tensor. The xDSL engine never creates one."""


def owned_copy(x: np.ndarray) -> Owned:
    """A fresh engine-owned buffer holding a copy of ``x``."""
    out = Owned(x.shape, x.dtype)
    out[...] = x
    return out


def binary_plan(op: BinaryTileOp):
    """The binary elementwise family member ``op`` with its static parts resolved once:
    ``plan(lhs, rhs) -> (result,)`` (PTO-SPEC 2, D9, D12, D13)."""
    rtype = op.result.type
    assert isinstance(rtype, TileType)
    if (noop := mask_zero_noop(op)) is not None:  # strict no-op (PTO-SPEC 2, D12)
        return noop
    lrole, rrole = op.ROLES
    check_lhs = source_check(op.name, lrole, op.lhs.type)  # type: ignore[arg-type]
    check_rhs = source_check(op.name, rrole, op.rhs.type)  # type: ignore[arg-type]
    row = kernels.BINARY_ROWS[op.MNEMONIC]
    valid, pad, dt = rtype.valid_shape, op.pad.data.value, rtype.dtype
    pes = pe_indices(op.mask.data)
    binary_tile, freeze = kernels.binary_tile, TileValue.freeze
    # A full valid rectangle leaves no padding: the kernel's result is all defined (D9), so
    # the shared all-defined mask stands for it (later definedness checks are then free).
    full = all_defined(rtype.shape) if valid == rtype.shape else None

    def plan(lhs, rhs):
        lhs, rhs = check_lhs(lhs), check_rhs(rhs)
        payloads: dict[int, np.ndarray] = {}
        defined: dict[int, np.ndarray] = {}
        # Every PE is checked and computed before anything is published (D12): a fault on
        # any PE propagates with no result value created.
        for p in pes:
            payload, dfn = binary_tile(row, lhs.payloads[p], rhs.payloads[p], valid, pad, dt)
            freeze(p, payload, dfn if full is None else full, payloads, defined)
        return (TileValue(rtype, payloads, defined),)

    return plan


def elementwise_plan(op: TeplElementwiseOp):
    """A unary / tile-scalar / TFMA / TEXPANDS op with its static parts resolved once:
    ``plan(*tiles, *scalars) -> (result,)``, one kernel call per selected PE
    (``kernels.KERNELS[MNEMONIC]``: the sources' payloads, then the scalars), every PE before
    any publication (D12). TCMP / TCMPS / TSEL / TSELS (predicate tiles) have their own plan."""
    if isinstance(op, CompareSelectOp):
        return compare_select_plan(op)
    rtype = op.results[0].type
    assert isinstance(rtype, TileType)
    if (noop := mask_zero_noop(op)) is not None:  # strict no-op before GPR or descriptor reads
        return noop
    checks = [source_check(op.name, role, v.type)  # type: ignore[arg-type]
              for role, v in zip(op.TILE_ROLES, op.tile_operands())]  # fmt: skip
    extra = {} if checks else {"shape": rtype.shape}  # TEXPANDS: no source
    tail = (rtype.valid_shape, op.pad.data.value, rtype.dtype)
    return per_pe_plan(rtype, checks, kernels.KERNELS[op.MNEMONIC], pe_indices(op.mask.data),
                       tail, extra)  # fmt: skip


def local_plan(op: TeplTileOp):
    """A tile-local op (reduction, expansion, TTRANS, TCONCAT, TPART*) with its static parts
    resolved once: ``plan(*sources) -> (result,)``; every PE is computed before anything is
    published (D12)."""
    rtype = op.result.type
    rtypes: list[TileType] = [r.type for r in op.results]  # type: ignore[misc]
    assert isinstance(rtype, TileType)
    if (noop := mask_zero_noop(op)) is not None:  # strict no-op (PTO-SPEC 2, D12)
        return noop
    sources = [(role, v.type) for role, v in zip(op.SOURCES, op.srcs)]
    n = len(sources)
    pes = pe_indices(op.mask.data)
    name, mnemonic = op.name, op.MNEMONIC
    pad = op.FIXED_PAD or op.pad.data.value
    local_tile = kernels.local_tile
    physical = kernels.LOCAL_ROWS[mnemonic].physical
    whole = kernels.LOCAL_ROWS[mnemonic].whole  # TIMG2COL: physical payloads + definedness
    keep = op.SOURCES.index(op.KEEP_SOURCE) if op.KEEP_SOURCE else None
    vr, vc = rtype.valid_shape

    static = op.static_params()
    checks = [source_check(name, role, t,  # type: ignore[arg-type]
                           op.referenced(role) if role in op.PARTIAL_SOURCES else None)
              for role, t in sources]  # fmt: skip

    def plan(*args):
        tiles = [check(a) for check, a in zip(checks, args)]
        types = [t.type.dtype for t in tiles]
        # B.IOR parameters follow the tile sources; an omitted B.IOR reads zeros
        params = static + (tuple(int(a) for a in args[n:]) or (0,) * len(op.PARAMS))
        with staged():  # numeric status publishes with the result, after every PE (D12)
            out = {p: local_tile(mnemonic, [t.payloads[p] if whole else t.valid(p) for t in tiles],
                                 types, rtype.dtype, rtype.valid_shape, params, rtype.shape,
                                 [t.defined[p] for t in tiles] if whole else None)
                   for p in pes}  # fmt: skip
        if physical or keep is not None:
            payloads: dict[int, np.ndarray] = {}
            defined: dict[int, np.ndarray] = {}
            for p, v in out.items():
                if keep is None:  # the kernel wrote every physical element: all defined
                    payload, dfn = v, all_defined(rtype.shape)
                else:  # outside the valid rectangle: the kept source's payload, definedness
                    payload, dfn = tiles[keep].payloads[p].copy(), tiles[keep].defined[p].copy()
                    payload[:vr, :vc], dfn[:vr, :vc] = v, True
                TileValue.freeze(p, payload, dfn, payloads, defined)
            return (TileValue(rtype, payloads, defined),)
        if len(rtypes) > 1:  # TSORT: values and indices, published together
            return tuple(TileValue.from_valid(t, {p: v[k] for p, v in out.items()}, pad)
                         for k, t in enumerate(rtypes))  # fmt: skip
        return (TileValue.from_valid(rtype, out, pad),)

    return plan


def move_plan(op: LocalMoveOp):
    """TMOV: ``plan(src) -> (result,)``: every selected PE's payload and definedness, as they
    are (undefined elements included: TMOV reads no value, ``TileOperandsLegal_TMOV``)."""
    rtype, stype = op.result.type, op.src.type
    assert isinstance(rtype, TileType) and isinstance(stype, TileType)
    if (noop := mask_zero_noop(op)) is not None:  # strict no-op before source reads (PTO-SPEC 2, D12)
        return noop
    check = source_check(op.name, "src", stype, (0, 0))  # allocated, descriptor; no values
    kernel = kernels.KERNELS[op.MNEMONIC]
    pes = pe_indices(op.mask.data)

    def plan(src):
        src = check(src)
        payloads: dict[int, np.ndarray] = {}
        defined: dict[int, np.ndarray] = {}
        for p in pes:
            payload, dfn = kernel(src.payloads[p], src.defined[p])
            TileValue.freeze(p, payload, dfn, payloads, defined)
        return (TileValue(rtype, payloads, defined),)

    return plan


def convert_plan(op: ConvertTileOp):
    """TCVT / TQUANT / TDEQUANT with the static parts resolved once: ``plan(src[, multiplier,
    zero_point]) -> (result,)``; omitted scalars are the B.IOR defaults (1.0, 0). Every PE
    is checked and converted before anything is published (D12)."""
    rtype = op.result.type
    stype = op.source.type
    assert isinstance(rtype, TileType) and isinstance(stype, TileType)
    if (noop := mask_zero_noop(op)) is not None:  # strict no-op before GPR or descriptor reads
        return noop
    check = source_check(op.name, "src", stype)
    pes = pe_indices(op.mask.data)
    kernel = kernels.KERNELS[op.MNEMONIC]
    rmode, sat, valid = op.rmode.data.code, op.sat is not None, rtype.valid_shape
    full = all_defined(rtype.shape) if valid == rtype.shape else None
    if isinstance(op, TCvtOp):
        pad, s_t, d_t = op.pad.data.value, stype.dtype, rtype.dtype

        def call(payload, _scalars):
            return kernel(payload, valid, pad, s_t, d_t, rmode=rmode, sat=sat)
    else:
        int_t = rtype.dtype if op.MNEMONIC == "TQUANT" else stype.dtype
        extra = {"sat": sat} if op.MNEMONIC == "TQUANT" else {}

        def call(payload, scalars):
            m, z = scalars if scalars else (None, None)
            return kernel(payload, m, z, valid, int_t, rmode=rmode, **extra)

    def plan(src, *scalars):
        src = check(src)
        sc = [float(a) if isinstance(a, (float, np.floating)) else int(a) for a in scalars]
        payloads: dict[int, np.ndarray] = {}
        defined: dict[int, np.ndarray] = {}
        with staged():  # numeric status publishes with the result, after every PE (D12)
            for p in pes:
                payload, dfn = call(src.payloads[p], sc)
                TileValue.freeze(p, payload, dfn if full is None else full, payloads, defined)
        return (TileValue(rtype, payloads, defined),)

    return plan


def generator_plan(op: GeneratorTileOp):
    """TCI / TTRI: ``plan(*params) -> (result,)``; parameters (0, 0) without operands (no
    B.IOR); a bad flag faults before any effect (D16); Null padding."""
    rtype = op.result.type
    assert isinstance(rtype, TileType)
    if (noop := mask_zero_noop(op)) is not None:  # strict no-op before GPR reads (PTO-SPEC 2, D12)
        return noop
    row = kernels.GENERATOR_ROWS[op.MNEMONIC]
    pes = pe_indices(op.mask.data)

    def plan(*args):
        params = tuple(int(a) for a in args) if args else (0, 0)
        valid = row(params, rtype.dtype, rtype.valid_shape)
        return (TileValue.from_valid(rtype, {p: valid for p in pes}, "null"),)

    return plan


def cube_plan(op: CubeMatrixOp, profile: str):
    """The CUBE function ``op`` with its static parts resolved once (roles, B.FPATR, types,
    PEs, kernel arguments): ``plan(*operands) -> results`` (PTO-SPEC 3, D4, D12, D13, D15)."""
    result_types = [r.type for r in op.results]
    name = op.name
    if op.is_mx() and target_profile(op) is TargetProfile.A2A3:  # decoding first (D12, D15)
        def illegal(*_args):
            raise PTOFault(
                FaultKind.ILLEGAL_INSTRUCTION,
                f"CUBE function {op.FUNCTION} is an MX function, illegal on target a2a3 (D15)",
                name,
            )

        return illegal
    if (noop := mask_zero_noop(op)) is not None:  # strict no-op (PTO-SPEC 2, D12)
        return noop
    roles = [(role, v.type if isinstance(v.type, TileType) else None)
             for role, v in op.operand_by_role().items()]
    pes = pe_indices(op.mask.data)
    f = op.fpatr_fields
    types = dict(roles)
    a_t, b_t, c_t = types["a"], types["b"], types.get("c")
    static = dict(
        a_type=a_t.dtype, b_type=b_t.dtype, c_type=c_t.dtype if c_t is not None else None,
        fpatr=f, rmode=op.rmode.data.value, sat=op.sat is not None, profile=profile,
    )
    function = op.FUNCTION
    tile_roles = [r for r, t in roles if t is not None]
    reductions = f.row_max_en or f.group_max_en
    cube_matrix = kernels.cube_matrix
    # raw-carrier results are the ASL's raw payload words (D4): stored as int64 words (the
    # integer 11, not the float 11.0), never converted to the tile's float type
    raw = np.dtype(np.int64) if profile == NumericProfile.RAW_CARRIER else None
    out_dtypes = [storage_dtype(rt.dtype) if raw is None else raw  # type: ignore[union-attr]
                  for rt in result_types]

    def call(tiles: dict[str, Any], scalars: dict[str, int]):
        res = cube_matrix(
            function, tiles["a"], tiles["b"], c=tiles.get("c"), bias=tiles.get("bias"),
            a_scale=tiles.get("a_scale"), b_scale=tiles.get("b_scale"),
            quant=tiles.get("quant"), prelu=tiles.get("prelu"),
            quant_scalar=scalars.get("quant_scalar"), lrelu_scalar=scalars.get("lrelu_scalar"),
            row_max_in=tiles.get("row_max_in"), **static,
        )
        return res if isinstance(res, tuple) else (res,)

    def plan(*args):
        by_role: dict[str, TileValue] = {}
        scalars: dict[str, int] = {}
        for (role, t), arg in zip(roles, args):
            if t is not None:
                by_role[role] = require_source(name, role, arg, t)
            else:
                scalars[role] = int(arg)
        per_pe = {p: {r: by_role[r].valid(p) for r in tile_roles} for p in pes}
        outs_per_pe: dict[int, tuple[np.ndarray, ...]] = {}
        with staged():  # CommitMatrixResult records the flags of every PE, or none (D12)
            if len(pes) > 1 and not reductions and _column_batchable(f, per_pe):
                # Every output column depends only on the same column of the column
                # operands, so the PEs' column slices run as one kernel call, split after.
                widths = [per_pe[p]["b"].shape[1] for p in pes]
                batched = dict(per_pe[pes[0]])
                for role in COLUMN_ROLES & batched.keys():
                    batched[role] = _join_columns([per_pe[p][role] for p in pes])
                (d,) = call(batched, scalars)
                cuts = np.cumsum(widths)[:-1]
                for p, part in zip(pes, np.split(np.asarray(d), cuts, axis=1)):
                    outs_per_pe[p] = (part,)
            else:
                for p in pes:  # compute everything first; publish at the end (D12)
                    outs_per_pe[p] = call(per_pe[p], scalars)
        results = []
        for i, rt in enumerate(result_types):
            valid = {
                p: np.asarray(outs_per_pe[p][i]).reshape(rt.valid_shape).astype(  # type: ignore[union-attr]
                    out_dtypes[i], copy=False
                )
                for p in pes
            }
            results.append(TileValue.from_valid(rt, valid, "null", raw))  # type: ignore[arg-type]
        return tuple(results)

    return plan


def _move_slices(op: TLoadOp | TStoreOp, tile_t: TileType):
    """``slices(shape, i0, j0) -> {pe: (rows, cols)}`` for TLOAD/TSTORE, bounds-checked."""
    s0, s1 = op.pe_stride.get_values()
    vr, vc = gm_valid_shape(tile_t, op.packed)  # packed 4-bit GM: ceil(VC / 2) bytes
    k = op.row_step  # tensor rows between tile rows; 0: every row is the first (one slice row)
    span = gm_row_span(vr, k)
    pes = list(enumerate(pe_indices(tile_t.pe_mask)))
    name = op.name

    def slices(shape: tuple[int, ...], i0: Any, j0: Any) -> dict[int, tuple[slice, slice]]:
        i0, j0 = int(i0), int(j0)
        out = {}
        for q, p in pes:
            r, c = i0 + q * s0, j0 + q * s1
            if r < 0 or c < 0 or r + span > shape[0] or c + vc > shape[1]:
                raise PTOFault(
                    FaultKind.TILE_LEGALITY,
                    f"PE{p} slice [{r}:{r + span}, {c}:{c + vc}] is outside the tensor of shape "
                    f"{shape[0]}x{shape[1]}",
                    name,
                )
            out[p] = (slice(r, r + span, max(k, 1)), slice(c, c + vc))
        return out

    return slices


def tload_plan(op: TLoadOp):
    """TLOAD with its descriptor resolved once: ``plan(tensor, i0, j0) -> (tile,)``."""
    tt = op.result.type
    assert isinstance(tt, TileType)
    slices = _move_slices(op, tt)
    dtype = storage_dtype(tt.dtype)
    pad = op.pad.data.value
    from_valid = TileValue.from_valid
    vr, vc = tt.valid_shape
    if op.row_step == 0:  # the encoded-zero row stride: every row reads the first one
        def rows(x):
            return np.broadcast_to(x, (vr, x.shape[1]))
    else:
        def rows(x):
            return x
    if op.packed:
        def packed_plan(src, i0, j0):
            src = np.asarray(src)
            sl = slices(src.shape, i0, j0)
            # each byte: low nibble = even element, high nibble = odd element
            valid = {p: rows(unpack_x2(src[s].view(np.uint8), vc).view(dtype))
                     for p, s in sl.items()}  # fmt: skip
            return (from_valid(tt, valid, pad),)

        return packed_plan

    def plan(src, i0, j0):
        src = np.asarray(src)
        sl = slices(src.shape, i0, j0)
        same = src.dtype.itemsize == dtype.itemsize
        valid = {p: rows(src[s].view(dtype) if same else src[s].astype(dtype))
                 for p, s in sl.items()}  # fmt: skip
        return (from_valid(tt, valid, pad),)

    return plan


def _store_packed(out: np.ndarray, s: tuple[slice, slice], v: np.ndarray) -> None:
    """Write a valid rectangle of 4-bit codes into packed GM bytes ``out[s]``, low nibble
    first; with an odd column count the high nibble of each row's last byte is kept."""
    gm = out.view(np.uint8)
    new = pack_x2(v.view(np.uint8))
    if v.shape[1] % 2:
        new[:, -1] |= gm[s][:, -1] & 0xF0
    gm[s] = new


def tstore_plan(op: TStoreOp, in_place: bool = False):
    """TSTORE with its descriptor resolved once: ``plan(tile, tensor, i0, j0) -> (tensor,)``.

    The result is a new tensor (SSA). With ``in_place`` (only the compiled engine asks, when
    the destination value dies here) an :class:`Owned` destination is updated in place; any
    other destination is copied once into a fresh :class:`Owned` buffer."""
    tt = op.tile.type
    assert isinstance(tt, TileType)
    slices = _move_slices(op, tt)
    name = op.name
    packed = op.packed
    aliased = op.row_step == 0

    def plan(tile, dst, i0, j0):
        tile = require_source(name, "tile", tile, tt)
        dst = np.asarray(dst) if not isinstance(dst, np.ndarray) else dst
        sl = slices(dst.shape, i0, j0)  # every check before any effect (D12)
        if in_place and type(dst) is Owned and dst.flags.owndata:
            out = dst
        elif in_place:
            out = owned_copy(dst)
        else:
            out = np.array(dst, copy=True, subok=False)
        for p, s in sl.items():
            v = tile.valid(p)
            if aliased:  # the encoded-zero row stride: rows in order, the last one remains
                v = v[-1:]
            if packed:
                _store_packed(out, s, v)
            else:
                out[s] = v.view(out.dtype) if v.dtype.itemsize == out.dtype.itemsize else v
        return (out,)

    return plan


@register_impls
@register_plans([
    (CUBE_OPS, lambda self, op: cube_plan(op, self.profile)),
    (BINARY_OPS, lambda self, op: binary_plan(op)),
    ([*ELEMENTWISE_FAMILY_OPS, *COMPARE_SELECT_OPS], lambda self, op: elementwise_plan(op)),
    (LOCAL_OPS, lambda self, op: local_plan(op)),
    (GENERATOR_OPS, lambda self, op: generator_plan(op)),
    (CONVERT_OPS, lambda self, op: convert_plan(op)),
    (MOVE_OPS, lambda self, op: move_plan(op)),
])
class PTOFunctions(InterpreterFunctions):
    """Interpreter functions for the pto dialect; ``profile`` selects the GEMV numerics (D4)."""

    def __init__(self, profile: str = "ordered"):
        self.profile = numeric_profile(profile)

    # -- data movement ---------------------------------------------------------------
    @impl(TLoadOp)
    def run_tload(self, interpreter: Interpreter, op: TLoadOp, args: tuple[Any, ...]):
        return tload_plan(op)(*args)

    @impl(TStoreOp)
    def run_tstore(self, interpreter: Interpreter, op: TStoreOp, args: tuple[Any, ...]):
        return tstore_plan(op)(*args)
