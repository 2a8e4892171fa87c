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
from interpreter.runtime import TileValue, pe_indices, require_source, storage_dtype
from pto_dialect.attributes import TargetProfile, TileType
from pto_dialect.data_movement import TLoadOp, TStoreOp
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.ops import BINARY_OPS, CUBE_OPS, BinaryTileOp, CubeMatrixOp, target_profile
from pto_dialect.tile_local import GENERATOR_OPS, LOCAL_OPS, GeneratorTileOp, TeplTileOp

PROFILES = ("exact", "fp32-sequential", "raw-carrier")


def _unallocated(t: TileType) -> TileValue:
    return TileValue(t)


_COLUMN_ROLES = frozenset({"b", "b_scale", "bias", "c", "quant", "prelu"})
"""CUBE operands indexed by output column (N); the others are indexed by row (M) or K only."""


def _column_batchable(f, per_pe: dict[int, dict[str, np.ndarray]]) -> bool:
    """True when the PEs differ only in column operands and no row reduction is enabled."""
    if f.row_max_en or f.group_max_en:
        return False
    first = next(iter(per_pe.values()))
    for tiles in per_pe.values():
        for role, arr in tiles.items():
            if role in _COLUMN_ROLES:
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


def _family_impls(cls):
    """One interpreter implementation per family member, driven by the dialect's op lists."""

    def cube(self, interpreter: Interpreter, op: CubeMatrixOp, args: tuple[Any, ...]):
        return self._run_cube(op, args)

    def binary(self, interpreter: Interpreter, op: BinaryTileOp, args: tuple[Any, ...]):
        return self._run_binary(op, args)

    for op_cls in CUBE_OPS:
        setattr(cls, f"run_{op_cls.name[4:]}", impl(op_cls)(cube))
    def local(self, interpreter: Interpreter, op: TeplTileOp, args: tuple[Any, ...]):
        return self._run_local(op, args)

    for op_cls in BINARY_OPS:
        setattr(cls, f"run_{op_cls.name[4:]}", impl(op_cls)(binary))
    for op_cls in LOCAL_OPS:
        setattr(cls, f"run_{op_cls.name[4:]}", impl(op_cls)(local))

    def generator(self, interpreter: Interpreter, op: GeneratorTileOp, args: tuple[Any, ...]):
        return self._run_generator(op, args)

    for op_cls in GENERATOR_OPS:
        setattr(cls, f"run_{op_cls.name[4:]}", impl(op_cls)(generator))
    return cls


@register_impls
@_family_impls
class PTOFunctions(InterpreterFunctions):
    """Interpreter functions for the pto dialect; ``profile`` selects the GEMV numerics (D4)."""

    def __init__(self, profile: str = "exact"):
        if profile not in PROFILES:
            raise ValueError(f"unknown numeric profile '{profile}' (choose from {', '.join(PROFILES)})")
        self.profile = profile

    # -- binary elementwise family ---------------------------------------------------
    def _run_binary(self, op: BinaryTileOp, args: tuple[Any, ...]) -> tuple[TileValue]:
        rtype = op.result.type
        assert isinstance(rtype, TileType)
        if op.mask.is_zero:  # strict no-op (PTO-SPEC 2, D12)
            return (_unallocated(rtype),)
        lhs = require_source(op.name, op.ROLES[0], args[0], op.lhs.type)  # type: ignore[arg-type]
        rhs = require_source(op.name, op.ROLES[1], args[1], op.rhs.type)  # type: ignore[arg-type]
        row = kernels.BINARY_ROWS[op.MNEMONIC]
        payloads: dict[int, np.ndarray] = {}
        defined: dict[int, np.ndarray] = {}
        # Every PE is checked and computed before anything is published (D12): a fault on
        # any PE propagates with no result value created.
        for p in pe_indices(op.mask.data):
            payload, dfn = kernels.binary_tile(
                row, lhs.payloads[p], rhs.payloads[p], rtype.valid_shape, op.pad.data.value,
                rtype.dtype,
            )
            TileValue.freeze(p, payload, dfn, payloads, defined)
        return (TileValue(rtype, payloads, defined),)

    # -- tile-local families (reductions, expansions, TTRANS) ------------------------
    def _run_local(self, op: TeplTileOp, args: tuple[Any, ...]) -> tuple[TileValue]:
        rtype = op.result.type
        assert isinstance(rtype, TileType)
        if op.mask.is_zero:  # strict no-op (PTO-SPEC 2, D12)
            return (_unallocated(rtype),)
        tiles = [
            require_source(op.name, role, a, v.type)  # type: ignore[arg-type]
            for role, a, v in zip(op.SOURCES, args, op.srcs)
        ]
        types = [t.type.dtype for t in tiles]
        # Every PE is computed before anything is published (D12).
        out = {
            p: kernels.local_tile(op.MNEMONIC, [t.valid(p) for t in tiles], types, rtype.dtype,
                                  rtype.valid_shape)  # fmt: skip
            for p in pe_indices(op.mask.data)
        }
        return (TileValue.from_valid(rtype, out, op.pad.data.value),)

    def _run_generator(self, op: GeneratorTileOp, args: tuple[Any, ...]) -> tuple[TileValue]:
        """TCI / TTRI: parameters (0, 0) without operands (no B.IOR); a bad flag faults
        before any effect (D16); Null padding."""
        rtype = op.result.type
        assert isinstance(rtype, TileType)
        if op.mask.is_zero:  # strict no-op before GPR reads (PTO-SPEC 2, D12)
            return (_unallocated(rtype),)
        params = tuple(int(a) for a in args) if args else (0, 0)
        valid = kernels.GENERATOR_ROWS[op.MNEMONIC](params, rtype.dtype, rtype.valid_shape)
        return (TileValue.from_valid(rtype, {p: valid for p in pe_indices(op.mask.data)}, "null"),)

    # -- CUBE family -----------------------------------------------------------------
    def _run_cube(self, op: CubeMatrixOp, args: tuple[Any, ...]) -> tuple[TileValue, ...]:
        result_types = [r.type for r in op.results]
        if op.is_mx() and target_profile(op) is TargetProfile.A2A3:  # decoding first (D12, D15)
            raise PTOFault(
                FaultKind.ILLEGAL_INSTRUCTION,
                f"CUBE function {op.FUNCTION} is an MX function, illegal on target a2a3 (D15)",
                op.name,
            )
        if op.mask.is_zero:
            return tuple(_unallocated(t) for t in result_types)  # type: ignore[arg-type]
        by_role: dict[str, Any] = {}
        values = iter(args)
        for role, v in op.operand_by_role().items():
            arg = next(values)
            if isinstance(v.type, TileType):
                by_role[role] = require_source(op.name, role, arg, v.type)
            else:
                by_role[role] = int(arg)
        pes = pe_indices(op.mask.data)
        f = op.fpatr_fields
        a_t: TileType = by_role["a"].type
        b_t: TileType = by_role["b"].type
        c_t: TileType | None = by_role["c"].type if "c" in by_role else None

        def call(tiles: dict[str, np.ndarray | None]):
            res = kernels.cube_matrix(
                op.FUNCTION,
                tiles["a"],
                tiles["b"],
                c=tiles.get("c"),
                bias=tiles.get("bias"),
                a_scale=tiles.get("a_scale"),
                b_scale=tiles.get("b_scale"),
                a_type=a_t.dtype,
                b_type=b_t.dtype,
                c_type=c_t.dtype if c_t is not None else None,
                fpatr=f,
                rmode=op.rmode.data.value,
                sat=op.sat is not None,
                quant=tiles.get("quant"),
                prelu=tiles.get("prelu"),
                quant_scalar=by_role.get("quant_scalar"),
                lrelu_scalar=by_role.get("lrelu_scalar"),
                row_max_in=tiles.get("row_max_in"),
                profile=self.profile,
            )
            return res if isinstance(res, tuple) else (res,)

        per_pe = {
            p: {r: t.valid(p) for r, t in by_role.items() if isinstance(t, TileValue)} for p in pes
        }
        outs_per_pe: dict[int, tuple[np.ndarray, ...]] = {}
        if len(pes) > 1 and _column_batchable(f, per_pe):
            # Every output column depends only on the same column of the column operands,
            # so the PEs' column slices run as one kernel call and are split afterwards.
            widths = [per_pe[p]["b"].shape[1] for p in pes]
            batched = dict(per_pe[pes[0]])
            for role in _COLUMN_ROLES & batched.keys():
                batched[role] = _join_columns([per_pe[p][role] for p in pes])
            (d,) = call(batched)
            cuts = np.cumsum(widths)[:-1]
            for p, part in zip(pes, np.split(np.asarray(d), cuts, axis=1)):
                outs_per_pe[p] = (part,)
        else:
            for p in pes:  # compute everything first; publish at the end (D12)
                outs_per_pe[p] = call(per_pe[p])
        results = []
        for i, rt in enumerate(result_types):
            assert isinstance(rt, TileType)
            valid = {
                p: np.asarray(outs_per_pe[p][i]).reshape(rt.valid_shape).astype(
                    storage_dtype(rt.dtype), copy=False
                )
                for p in pes
            }
            results.append(TileValue.from_valid(rt, valid, "null"))
        return tuple(results)


    # -- data movement ---------------------------------------------------------------
    @staticmethod
    def _slices(op: TLoadOp | TStoreOp, tile_t: TileType, shape: tuple[int, ...], offs):
        i0, j0 = (int(o) for o in offs)
        s0, s1 = op.pe_stride.get_values()
        vr, vc = tile_t.valid_shape
        out = {}
        for q, p in enumerate(pe_indices(tile_t.pe_mask)):
            r, c = i0 + q * s0, j0 + q * s1
            if r < 0 or c < 0 or r + vr > shape[0] or c + vc > shape[1]:
                raise PTOFault(
                    FaultKind.TILE_LEGALITY,
                    f"PE{p} slice [{r}:{r + vr}, {c}:{c + vc}] is outside the tensor of shape "
                    f"{shape[0]}x{shape[1]}",
                    op.name,
                )
            out[p] = (slice(r, r + vr), slice(c, c + vc))
        return out

    @impl(TLoadOp)
    def run_tload(self, interpreter: Interpreter, op: TLoadOp, args: tuple[Any, ...]):
        src = np.asarray(args[0])
        tt = op.result.type
        assert isinstance(tt, TileType)
        sl = self._slices(op, tt, src.shape, args[1:])
        dtype = storage_dtype(tt.dtype)
        valid = {p: src[s].view(dtype) if src.dtype.itemsize == dtype.itemsize else src[s].astype(dtype)
                 for p, s in sl.items()}
        return (TileValue.from_valid(tt, valid, op.pad.data.value),)

    @impl(TStoreOp)
    def run_tstore(self, interpreter: Interpreter, op: TStoreOp, args: tuple[Any, ...]):
        tt = op.tile.type
        assert isinstance(tt, TileType)
        tile = require_source(op.name, "tile", args[0], tt)
        dst = np.asarray(args[1])
        sl = self._slices(op, tt, dst.shape, args[2:])
        out = dst.copy()
        for p, s in sl.items():
            v = tile.valid(p)
            out[s] = v.view(out.dtype) if v.dtype.itemsize == out.dtype.itemsize else v
        return (out,)
