"""Plan of the compare-and-select family (TCMP, TCMPS, TSEL, TSELS), for both engines.

``compare_select_plan(op) -> plan(*tiles, *scalars) -> (result,)``: the static parts (roles,
descriptors, kernel, CMode, PEs) resolved once; every source is preflighted (allocated, its
descriptor, its valid rectangle defined: a predicate with undefined valid bits is
``TilePredicateValuesLegal`` = false) and every PE computed before anything is published
(D12). A predicate result holds one ``bool`` payload per PE (:mod:`interpreter.kernels.compare`).
"""

from __future__ import annotations

import numpy as np

from interpreter import kernels
from interpreter.kernels.status import staged
from interpreter.kernels.storage import pe_indices
from interpreter.ssa.runtime import TileValue, mask_zero_noop, source_check
from pto_dialect.compare_ops import CompareSelectOp, TileCompareOp


def compare_select_plan(op: CompareSelectOp):
    rtype = op.results[0].type
    if (noop := mask_zero_noop(op)) is not None:  # before GPR, predicate or source reads
        return noop
    n = len(op.TILE_ROLES)
    checks = [source_check(op.name, role, v.type)  # type: ignore[arg-type]
              for role, v in zip(op.TILE_ROLES, op.tile_operands())]  # fmt: skip
    kernel = kernels.KERNELS[op.MNEMONIC]
    pes = pe_indices(op.mask.data)
    # the element type: the compared source's, or the selected data's
    data_t = op.tile_operands()[0 if isinstance(op, TileCompareOp) else 1].type.dtype  # type: ignore[attr-defined]
    extra = {"cmode": op.compare_mode.value} if isinstance(op, TileCompareOp) else {}
    valid, pad, freeze = rtype.valid_shape, op.pad.data.value, TileValue.freeze  # type: ignore[attr-defined]

    def plan(*args):
        tiles = [c(a) for c, a in zip(checks, args[:n])]
        scalars = [int(a) if isinstance(a, (int, np.integer)) else a for a in args[n:]]
        payloads: dict[int, np.ndarray] = {}
        defined: dict[int, np.ndarray] = {}
        with staged():  # numeric status publishes with the result, after every PE (D12)
            for p in pes:
                payload, dfn = kernel(*(t.payloads[p] for t in tiles), *scalars, valid, pad,
                                      data_t, **extra)  # fmt: skip
                freeze(p, payload, dfn, payloads, defined)
        return (TileValue(rtype, payloads, defined),)  # type: ignore[arg-type]

    return plan
