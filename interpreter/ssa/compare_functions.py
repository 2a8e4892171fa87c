"""Plan of the compare-and-select family (TCMP, TCMPS, TSEL, TSELS), for both engines.

``compare_select_plan(op) -> plan(*tiles, *scalars) -> (result,)``: the static parts (roles,
descriptors, kernel, CMode, PEs) resolved once; every source is preflighted (allocated, its
descriptor, its valid rectangle defined: a predicate with undefined valid bits is
``TilePredicateValuesLegal`` = false) and every PE computed before anything is published
(D12). A predicate result holds one ``bool`` payload per PE (:mod:`interpreter.kernels.compare`).
"""

from __future__ import annotations

from interpreter import kernels
from interpreter.kernels.storage import pe_indices
from interpreter.ssa.runtime import mask_zero_noop, per_pe_plan, source_check
from pto_dialect.compare_ops import CompareSelectOp, TileCompareOp


def compare_select_plan(op: CompareSelectOp):
    rtype = op.results[0].type
    if (noop := mask_zero_noop(op)) is not None:  # before GPR, predicate or source reads
        return noop
    checks = [source_check(op.name, role, v.type)  # type: ignore[arg-type]
              for role, v in zip(op.TILE_ROLES, op.tile_operands())]  # fmt: skip
    # the element type: the compared source's, or the selected data's
    data_t = op.tile_operands()[0 if isinstance(op, TileCompareOp) else 1].type.dtype  # type: ignore[attr-defined]
    extra = {"cmode": op.compare_mode.value} if isinstance(op, TileCompareOp) else {}
    tail = (rtype.valid_shape, op.pad.data.value, data_t)  # type: ignore[attr-defined]
    return per_pe_plan(rtype, checks, kernels.KERNELS[op.MNEMONIC], pe_indices(op.mask.data),
                       tail, extra)  # fmt: skip
