"""Tensor-level forms of the reductions, expansions and rearrangements (what lowering targets
before tiling).

* ``pto.reduce <kind> [signed|unsigned] %x : tensor<MxNxT> -> tensor<Mx1xR>`` (row kinds) or
  ``-> tensor<1xNxR>`` (column kinds): kinds ``rowsum rowmax rowmin rowprod rowargmax
  rowargmin colsum colmax colmin colprod colargmax colargmin``, the TROW*/TCOL* instruction of
  the same name on the whole tensor (``pto_dialect/tile_local.py`` for the semantics: a
  typed increasing-index left fold; arg kinds give the first winning index as si32/ui32/i32).
* ``pto.transpose %x : (tensor<MxNxT>) -> tensor<NxMxT>``: TTRANS on the whole tensor.
* ``pto.gather %t, %i : (tensor<RxCxT>, tensor<MxNxI>) -> tensor<MxNxT>``: TGATHER
  (``r[i, j] = t[idx[i, j], j]``) with the whole table in one tile.
* ``pto.sort <ascending|descending> %x : (tensor<MxNxT>) -> tensor<MxNxT>``: TSORT of every
  row (at most 64 elements), the sorted values (a stable sort).
* ``pto.expand <axis> <op> [signed|unsigned] %x, %b : (tensor<MxNxT>, tensor<Mx1xT>) ->
  tensor<MxNxT>`` (``row``; ``col`` takes ``tensor<1xNxT>``), ops ``add sub mul div max min
  expdif``, and ``pto.expand <axis> copy %b : (tensor<Mx1xT>) -> tensor<MxNxT>``: the
  TROWEXPAND*/TCOLEXPAND* instruction on the whole tensor (EXPDIF may widen FP16/BF16 to
  FP32).

Signless integers need ``signed`` or ``unsigned`` (it selects the S/U tile type). The element
types are the tile op's set without TF32 and HF32 (no tensor element type). The kind tables
:data:`REDUCE_KINDS` / :data:`EXPAND_KINDS` map each form to its tile instruction.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, IntegerType, Signedness, StringAttr, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind
from pto_dialect.ops import PTOOp, type_name
from pto_dialect.syntax import FunctionType, SignKeyword, Words
from pto_dialect.tensor_ops import floor_mod_dtype
from pto_dialect.tile_local import (
    EXPAND_OPS,
    EXPDIF_PAIRS,
    REDUCE_OPS,
    TRANS_TYPES,
    ExpandTileOp,
    ReduceTileOp,
)
from pto_dialect.tile_rearrange import INDEX_TYPES, INDEXED_VALUE_TYPES, SORT_TYPES

TL = FaultKind.TILE_LEGALITY
_NO_TENSOR = frozenset({TileDataType.TF32, TileDataType.HF32})

REDUCE_KINDS: dict[str, type[ReduceTileOp]] = {
    c.AXIS + c.REDUCTION: c for c in REDUCE_OPS
}
"""``pto.reduce`` kind -> tile op class (``rowsum`` -> TROWSUM ...)."""
EXPAND_KINDS: dict[tuple[str, str], type[ExpandTileOp]] = {
    (c.AXIS, c.OPERATION): c for c in EXPAND_OPS
}
"""``pto.expand`` (axis, op) -> tile op class (``(row, add)`` -> TROWEXPANDADD ...)."""


def _dtype(op: PTOOp, role: str, t: Attribute, sign: str | None, types) -> TileDataType:
    """The tile type of tensor ``t``'s elements, with the usual signedness rules."""
    if not isinstance(t, TensorType) or not t.has_static_shape() or t.get_num_dims() != 2:
        raise op.fault(TL, f"{role} must be a static 2-D tensor, got {type_name(t)}", "PTO-SPEC 5")
    elt = t.element_type
    if sign is not None and sign not in ("signed", "unsigned"):
        raise op.fault(TL, f"signedness '{sign}' must be signed or unsigned", "PTO-SPEC 5")
    if isinstance(elt, AnyFloat) and sign is not None:
        raise op.fault(TL, f"float elements take no signedness, got {sign}", "PTO-SPEC 5")
    if isinstance(elt, IntegerType):
        s = elt.signedness.data
        if s is Signedness.SIGNLESS and sign is None:
            raise op.fault(TL, f"{role}: signless {type_name(elt)} needs 'signed' or 'unsigned'",
                           "PTO-SPEC 5")  # fmt: skip
        if s is not Signedness.SIGNLESS and sign is not None and (
            (s is Signedness.SIGNED) != (sign == "signed")
        ):
            raise op.fault(TL, f"{role}: {type_name(elt)} contradicts '{sign}'", "PTO-SPEC 5")
    dt = floor_mod_dtype(elt, sign, types - _NO_TENSOR)
    if dt is None:
        allowed = ", ".join(sorted(x.name for x in types - _NO_TENSOR))
        raise op.fault(TL, f"{role}: element type {type_name(elt)} is not supported (allowed: "
                       f"{allowed})", "PTO-SPEC 5")  # fmt: skip
    return dt


class _TensorLocalOp(PTOOp):
    """Shared syntax: ``<words> [signed|unsigned] %a[, %b] : (types) -> type``."""

    ins = var_operand_def(TensorType)
    result = result_def(TensorType)
    kind = prop_def(StringAttr)
    signedness = opt_prop_def(StringAttr)

    traits = traits_def(Pure())

    WORDS: ClassVar[int] = 1
    WORD_CHOICES: ClassVar[tuple[str, ...]] = ()

    custom_directives = (Words, SignKeyword, FunctionType)
    assembly_format = (
        "custom<Words>($kind) custom<SignKeyword>($signedness) $ins attr-dict "
        "`:` custom<FunctionType>(type(operands), type(results))"
    )

    def __init__(self, kind: str, ins, result_type: Attribute, signedness: str | None = None):
        props: dict[str, Attribute] = {"kind": StringAttr(kind)}
        if signedness:
            props["signedness"] = StringAttr(signedness)
        super().__init__(operands=[list(ins)], result_types=[result_type], properties=props)

    @property
    def signedness_kind(self) -> str | None:
        return self.signedness.data if self.signedness is not None else None

    @classmethod
    def known(cls, kind: str) -> bool:
        return kind in cls.WORD_CHOICES


@irdl_op_definition
class ReduceOp(_TensorLocalOp):
    """``pto.reduce`` — a row / column reduction of a whole 2-D tensor (module docstring).

    Example::

        %s = pto.reduce rowsum %x : (tensor<64x128xf32>) -> tensor<64x1xf32>
        %i = pto.reduce colargmax signed %y : (tensor<8x16xi16>) -> tensor<1x16xi32>
    """

    name = "pto.reduce"
    WORD_CHOICES: ClassVar[tuple[str, ...]] = tuple(REDUCE_KINDS)

    @property
    def tile_op(self) -> type[ReduceTileOp]:
        return REDUCE_KINDS[self.kind.data]

    @property
    def dtype(self) -> TileDataType:
        return _dtype(self, "input", self.ins[0].type, self.signedness_kind, self.tile_op.TYPES)

    @property
    def index_dtype(self) -> TileDataType:
        """The result's tile type (the source type, or S32 / U32 for the arg kinds)."""
        elt = self.result.type.element_type  # type: ignore[union-attr]
        if not self.tile_op.is_arg():
            return self.dtype
        if isinstance(elt, IntegerType) and elt.width.data == 32:
            return TileDataType.U32 if elt.signedness.data is Signedness.UNSIGNED else TileDataType.S32
        raise self.fault(TL, f"result: index element type {type_name(elt)} must be i32, si32 "
                         "or ui32", self.tile_op.SPEC)  # fmt: skip

    def verify_(self) -> None:
        if self.kind.data not in REDUCE_KINDS:
            raise self.fault(TL, f"unknown kind '{self.kind.data}' ({', '.join(REDUCE_KINDS)})", "PTO-SPEC 5")
        cls = self.tile_op
        if len(self.ins) != 1:
            raise self.fault(TL, f"operands: {self.name} takes one tensor, got {len(self.ins)}", cls.SPEC)
        dt = self.dtype
        m, n = self.ins[0].type.get_shape()  # type: ignore[union-attr]
        want = [m, 1] if cls.AXIS == "row" else [1, n]
        rt = self.result.type
        assert isinstance(rt, TensorType)
        if list(rt.get_shape()) != want:
            raise self.fault(TL, f"result: shape {'x'.join(map(str, rt.get_shape()))} must be "
                             f"{want[0]}x{want[1]}", cls.SPEC)  # fmt: skip
        if cls.is_arg():
            self.index_dtype  # noqa: B018  (raises on a bad index type)
        elif rt.element_type != self.ins[0].type.element_type:  # type: ignore[union-attr]
            raise self.fault(TL, f"result: element type {type_name(rt.element_type)} must be the "
                             f"input's", cls.SPEC)  # fmt: skip
        assert dt is not None


@irdl_op_definition
class ExpandOp(_TensorLocalOp):
    """``pto.expand`` — a row / column broadcast op on a whole 2-D tensor (module docstring).

    Example::

        %y = pto.expand row add %x, %bias : (tensor<64x128xf32>, tensor<64x1xf32>) -> tensor<64x128xf32>
        %z = pto.expand col copy %b : (tensor<1x128xf16>) -> tensor<64x128xf16>
    """

    name = "pto.expand"
    WORDS: ClassVar[int] = 2
    WORD_CHOICES: ClassVar[tuple[str, ...]] = tuple(f"{a}.{o}" for a, o in EXPAND_KINDS)

    @property
    def tile_op(self) -> type[ExpandTileOp]:
        axis, _, op = self.kind.data.partition(".")
        return EXPAND_KINDS[(axis, op)]

    @property
    def dtype(self) -> TileDataType:
        return _dtype(self, "input", self.ins[0].type, self.signedness_kind, self.tile_op.TYPES)

    @property
    def result_dtype(self) -> TileDataType:
        if self.tile_op.OPERATION != "expdif":
            return self.dtype
        return _dtype(self, "result", self.result.type, None, frozenset({TileDataType.FP16,
                      TileDataType.BF16, TileDataType.FP32}))  # fmt: skip

    def verify_(self) -> None:
        if not self.known(self.kind.data):
            raise self.fault(TL, f"unknown kind '{self.kind.data.replace('.', ' ')}'", "PTO-SPEC 5")
        cls = self.tile_op
        if len(self.ins) != len(cls.SOURCES):
            raise self.fault(TL, f"operands: {self.kind.data.replace('.', ' ')} takes "
                             f"{len(cls.SOURCES)} tensor(s), got {len(self.ins)}", cls.SPEC)  # fmt: skip
        src_dt = self.dtype
        rt = self.result.type
        assert isinstance(rt, TensorType)
        m, n = rt.get_shape()
        b = self.ins[-1].type
        assert isinstance(b, TensorType)
        want_b = [m, 1] if cls.AXIS == "row" else [1, n]
        if list(b.get_shape()) != want_b:
            raise self.fault(TL, f"broadcast: shape {'x'.join(map(str, b.get_shape()))} must be "
                             f"{want_b[0]}x{want_b[1]}", cls.SPEC)  # fmt: skip
        if len(self.ins) == 2:
            x = self.ins[0].type
            assert isinstance(x, TensorType)
            if list(x.get_shape()) != [m, n]:
                raise self.fault(TL, "input: shape must be the result's", cls.SPEC)
            if b.element_type != x.element_type:
                raise self.fault(TL, "broadcast: element type must be the input's", cls.SPEC)
        if cls.OPERATION == "expdif":

            if (src_dt, self.result_dtype) not in EXPDIF_PAIRS:
                raise self.fault(TL, f"result: ({src_dt.name},{self.result_dtype.name}) is not "
                                 "an EXPDIF type pair", cls.SPEC)  # fmt: skip
        elif rt.element_type != b.element_type:
            raise self.fault(TL, "result: element type must be the input's", cls.SPEC)


@irdl_op_definition
class TransposeOp(PTOOp):
    """``pto.transpose`` — ``r[j, i] = x[i, j]`` on a whole 2-D tensor (TTRANS, a bit copy).

    What lowering targets for ``linalg.transpose`` (a Gemm ``transB = 1`` weight, say);
    ``pto-tile-to-capacity`` makes it tload / ``pto.ttrans`` / tstore over row groups
    (``asl/tile/layout-and-rearrangement/layout/TTRANS.asl``). Element types: TTRANS's
    (every type but HiF4X2; signless integers move as signed tiles: a bit copy).

    Example::

        %t = pto.transpose %w : (tensor<16x40xf32>) -> tensor<40x16xf32>
    """

    name = "pto.transpose"

    source = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    custom_directives = (FunctionType,)
    assembly_format = "$source attr-dict `:` custom<FunctionType>(type(operands), type(results))"

    def __init__(self, source: SSAValue, result_type: Attribute):
        super().__init__(operands=[source], result_types=[result_type])

    @property
    def dtype(self) -> TileDataType:
        elt = self.source.type.element_type  # type: ignore[union-attr]
        sign = "signed" if isinstance(elt, IntegerType) and elt.signedness.data is Signedness.SIGNLESS else None
        dt = floor_mod_dtype(elt, sign, TRANS_TYPES - _NO_TENSOR)
        assert dt is not None, "verified"
        return dt

    def verify_(self) -> None:
        spec = "asl/tile/layout-and-rearrangement/layout/TTRANS.asl"
        t, rt = self.source.type, self.result.type
        for role, x in (("source", t), ("result", rt)):
            if not isinstance(x, TensorType) or not x.has_static_shape() or x.get_num_dims() != 2:
                raise self.fault(TL, f"{role} must be a static 2-D tensor, got {type_name(x)}", spec)
        assert isinstance(t, TensorType) and isinstance(rt, TensorType)
        m, n = t.get_shape()
        if tuple(rt.get_shape()) != (n, m):
            raise self.fault(TL, f"result: shape {'x'.join(map(str, rt.get_shape()))} must be {n}x{m} "
                             "(the source's transposed)", spec)  # fmt: skip
        if rt.element_type != t.element_type:
            raise self.fault(TL, "result: element type must be the source's", spec)
        elt = t.element_type
        sign = "signed" if isinstance(elt, IntegerType) and elt.signedness.data is Signedness.SIGNLESS else None
        if floor_mod_dtype(elt, sign, TRANS_TYPES - _NO_TENSOR) is None:
            raise self.fault(TL, f"source: element type {type_name(elt)} is not supported by TTRANS", spec)


@irdl_op_definition
class GatherOp(PTOOp):
    """``pto.gather`` — ``r[i, j] = table[index[i, j], j]`` (TGATHER within one tile: bit
    copies of table rows chosen per element).

    What lowering targets for an embedding lookup (``tensor.extract %table[%id, %j]`` in a
    ``linalg.generic``, the index broadcast along the row); ``pto-tile-to-capacity`` loads
    the whole table into one tile on every PE of a row group and runs tload (index rows) /
    ``pto.tgather`` / tstore (``asl/tile/irregular-and-complex/layout/TGATHER.asl``). A
    table larger than one tile needs MGATHER from global memory (not this op). Value types:
    TGATHER's (``IndexedTLSUTransferDataTypeLegal``); index types S16 U16 S32 U32 S64 U64
    (signless integers are signed); an index that is negative or not below the table's rows
    is a TileLegality fault at run time (D16), before any effect.

    Example::

        %r = pto.gather %table, %idx : (tensor<32x16xf32>, tensor<8x16xi64>) -> tensor<8x16xf32>
    """

    name = "pto.gather"

    table = operand_def(TensorType)
    index = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    custom_directives = (FunctionType,)
    assembly_format = (
        "$table `,` $index attr-dict `:` custom<FunctionType>(type(operands), type(results))"
    )

    SPEC: ClassVar[str] = "asl/tile/irregular-and-complex/layout/TGATHER.asl"

    def __init__(self, table: SSAValue, index: SSAValue, result_type: Attribute):
        super().__init__(operands=[table, index], result_types=[result_type])

    @staticmethod
    def _dt(elt: Attribute, types) -> TileDataType | None:
        sign = "signed" if isinstance(elt, IntegerType) and elt.signedness.data is Signedness.SIGNLESS else None
        return floor_mod_dtype(elt, sign, types - _NO_TENSOR)

    @property
    def dtype(self) -> TileDataType:
        dt = self._dt(self.table.type.element_type, INDEXED_VALUE_TYPES)  # type: ignore[union-attr]
        assert dt is not None, "verified"
        return dt

    @property
    def index_dtype(self) -> TileDataType:
        dt = self._dt(self.index.type.element_type, INDEX_TYPES)  # type: ignore[union-attr]
        assert dt is not None, "verified"
        return dt

    def verify_(self) -> None:
        t, it, rt = self.table.type, self.index.type, self.result.type
        for role, x in (("table", t), ("index", it), ("result", rt)):
            if not isinstance(x, TensorType) or not x.has_static_shape() or x.get_num_dims() != 2:
                raise self.fault(TL, f"{role} must be a static 2-D tensor, got {type_name(x)}", self.SPEC)
        assert isinstance(t, TensorType) and isinstance(it, TensorType) and isinstance(rt, TensorType)
        if rt.element_type != t.element_type:
            raise self.fault(TL, "result: element type must be the table's", self.SPEC)
        if self._dt(t.element_type, INDEXED_VALUE_TYPES) is None:
            raise self.fault(TL, f"table: element type {type_name(t.element_type)} is not "
                             "supported by TGATHER", self.SPEC)  # fmt: skip
        if self._dt(it.element_type, INDEX_TYPES) is None:
            raise self.fault(TL, f"index: element type {type_name(it.element_type)} is not a "
                             "row-index type (i16, i32, i64)", self.SPEC)  # fmt: skip
        if tuple(rt.get_shape()) != tuple(it.get_shape()):
            raise self.fault(TL, "result: shape must be the index's", self.SPEC)
        if t.get_shape()[1] < rt.get_shape()[1]:
            raise self.fault(TL, f"table: {t.get_shape()[1]} columns are fewer than the "
                             f"result's {rt.get_shape()[1]}", self.SPEC)  # fmt: skip


SORT_DIRECTIONS = ("ascending", "descending")


@irdl_op_definition
class SortOp(PTOOp):
    """``pto.sort <ascending|descending>`` — every row of a 2-D tensor stably sorted (TSORT
    with ``sort_width`` = the row length, at most 64; the sorted values).

    What lowering targets for torch-mlir's TopK sort (``tm_tensor.sort`` along the last
    dimension whose indices are not used); ``pto-tile-to-capacity`` makes it tload of row
    groups / ``pto.tsort`` / tstore of the values (``asl/tile/irregular-and-complex/sorting/
    TSORT.asl``). Key order: numbers by value, +0 and -0 equal (ties keep their order), every
    NaN after every number. Element types: FP32, FP16 (``TileSortDataTypeSupported``).

    Example::

        %s = pto.sort descending %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
    """

    name = "pto.sort"

    source = operand_def(TensorType)
    result = result_def(TensorType)
    direction = prop_def(StringAttr)

    traits = traits_def(Pure())

    WORD_CHOICES: ClassVar[tuple[str, ...]] = SORT_DIRECTIONS

    custom_directives = (Words, FunctionType)
    assembly_format = (
        "custom<Words>($direction) $source attr-dict `:` "
        "custom<FunctionType>(type(operands), type(results))"
    )

    SPEC: ClassVar[str] = "asl/tile/irregular-and-complex/sorting/TSORT.asl"
    MAX_WIDTH: ClassVar[int] = 64

    def __init__(self, direction: str, source: SSAValue, result_type: Attribute):
        super().__init__(operands=[source], result_types=[result_type],
                         properties={"direction": StringAttr(direction)})  # fmt: skip

    @property
    def descending(self) -> bool:
        return self.direction.data == "descending"

    @property
    def dtype(self) -> TileDataType:
        dt = floor_mod_dtype(self.source.type.element_type, None, SORT_TYPES)  # type: ignore[union-attr]
        assert dt is not None, "verified"
        return dt

    def verify_(self) -> None:
        t, rt = self.source.type, self.result.type
        if self.direction.data not in SORT_DIRECTIONS:
            raise self.fault(TL, f"direction '{self.direction.data}' must be ascending or "
                             "descending", self.SPEC)  # fmt: skip
        for role, x in (("source", t), ("result", rt)):
            if not isinstance(x, TensorType) or not x.has_static_shape() or x.get_num_dims() != 2:
                raise self.fault(TL, f"{role} must be a static 2-D tensor, got {type_name(x)}", self.SPEC)
        assert isinstance(t, TensorType) and isinstance(rt, TensorType)
        if rt != t:
            raise self.fault(TL, "result: type must be the source's", self.SPEC)
        if floor_mod_dtype(t.element_type, None, SORT_TYPES) is None:
            raise self.fault(TL, f"source: element type {type_name(t.element_type)} is not "
                             "FP32 or FP16 (TileSortDataTypeSupported)", self.SPEC)  # fmt: skip
        if not 1 <= t.get_shape()[1] <= self.MAX_WIDTH:
            raise self.fault(TL, f"source: rows of {t.get_shape()[1]} elements: TSORT sorts "
                             f"groups of at most {self.MAX_WIDTH}", self.SPEC)  # fmt: skip


TENSOR_LOCAL_OPS = [ReduceOp, ExpandOp, TransposeOp, GatherOp, SortOp]
