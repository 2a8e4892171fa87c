"""The ``pto`` dialect object (and :func:`apply_xdsl_fixes`, which a tool applies with it)."""

from xdsl.ir import Dialect

from pto_dialect.attributes import PTO_TYPES_AND_ATTRS
from pto_dialect.block_ops import BLOCK_OPS
from pto_dialect.compare_ops import COMPARE_SELECT_OPS, CompareModeAttr
from pto_dialect.convert_ops import CONVERT_OPS
from pto_dialect.data_movement import DATA_MOVEMENT_OPS
from pto_dialect.elementwise_ops import ELEMENTWISE_FAMILY_OPS
from pto_dialect.feature_map import FeatureMapAttr
from pto_dialect.gm_indexed import GM_OPS
from pto_dialect.ops import PTO_OPS
from pto_dialect.predicate import PredicateTileType
from pto_dialect.tensor_compare import CmpSelOp
from pto_dialect.tensor_convert import TENSOR_CONVERT_OPS
from pto_dialect.tensor_local import TENSOR_LOCAL_OPS
from pto_dialect.tensor_map import MapOp
from pto_dialect.tensor_ops import TENSOR_OPS
from pto_dialect.tile_local import GENERATOR_OPS, LOCAL_OPS
from pto_dialect.tile_move import MOVE_OPS
from pto_dialect.upstream.xdsl_fixes import apply_xdsl_fixes

__all__ = ["PTO", "apply_xdsl_fixes"]

PTO = Dialect(
    "pto",
    [
        *PTO_OPS, *ELEMENTWISE_FAMILY_OPS, *COMPARE_SELECT_OPS, *LOCAL_OPS, *GENERATOR_OPS, *DATA_MOVEMENT_OPS,
        *TENSOR_OPS, MapOp, CmpSelOp, *TENSOR_LOCAL_OPS, *BLOCK_OPS, *CONVERT_OPS, *TENSOR_CONVERT_OPS,
        *MOVE_OPS, *GM_OPS,
    ],
    [*PTO_TYPES_AND_ATTRS, PredicateTileType, CompareModeAttr, FeatureMapAttr],
)  # fmt: skip
