"""The per-tile feature-map descriptor of TIMG2COL (``asl/tile/model/state/feature-map-descriptors.asl``)
and its image-to-column geometry (``asl/tile/model/legality/image-to-column.asl``).

In the ASL the descriptor is core tile state, one per Local tile register
(``_TileFeatureMapDescriptors``): only the harness function ``ConfigureTileFeatureMapDescriptor``
writes it (no instruction does), every allocation of the tile invalidates it
(``asl/tile/model/state/allocation.asl``) and TIMG2COL reads it, read-only, from its source.

Two levels model it (docs/rearrange.md "TIMG2COL"):

* the tile-instruction level (``interpreter.machine.tile_registers.TileRegisters``) holds it as
  register state beside the tile: ``configure_feature_map`` is the harness function, a
  reallocation or release invalidates it, and ``execute("pto.timg2col", ...)`` reads the
  source register's descriptor;
* the SSA tile level makes ``pto.timg2col`` a pure function of its operands: the descriptor is
  the op's ``fmap`` property, ``#pto.fmap<...>`` (:class:`FeatureMapAttr`), verified against
  the source tile by :func:`descriptor_errors` (``TileFeatureMapDescriptorStructurallyValid``
  and the static part of ``TileOperandsLegal_TIMG2COL``).

Syntax (fields by their ASL names; only the ones that differ from the default are printed;
every extent, filter, stride, dilation and ``logical_channels`` defaults to 1, the pads, the
padding word and ``transposed`` to 0)::

    #pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2, padding = 99>
    #pto.fmap<ndc1hwc0, depth = 2, channels_per_group = 16, logical_channels = 3>
"""

from __future__ import annotations

from typing import NamedTuple

from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

LAYOUTS = ("nc1hwc0", "ndc1hwc0")
"""``TileFeatureMapLayout``: NC1HWC0 (depth must be 1) and NDC1HWC0, as codes 0 and 1."""


class FeatureMap(NamedTuple):
    """``TileFeatureMapDescriptor`` without ``valid`` (a descriptor that exists is valid; an
    invalid one is an absent one). ``layout`` is an index into :data:`LAYOUTS`."""

    layout: int = 0
    batches: int = 1
    depth: int = 1
    channel_groups: int = 1
    height: int = 1
    width: int = 1
    channels_per_group: int = 1
    filter_height: int = 1
    filter_width: int = 1
    stride_height: int = 1
    stride_width: int = 1
    dilation_height: int = 1
    dilation_width: int = 1
    pad_left: int = 0
    pad_right: int = 0
    pad_top: int = 0
    pad_bottom: int = 0
    logical_channels: int = 1
    padding: int = 0
    """The typed padding value as a 64-bit word (``TileRawElementValue``: its low element-width
    bits, no conversion)."""
    transposed: int = 0

    # -- image-to-column geometry (asl/tile/model/legality/image-to-column.asl) ------------
    def output_height(self) -> int:
        """``TileImageToColumnOutputHeight`` (0 when the receptive field exceeds the padded
        height)."""
        return _output(self.height + self.pad_top + self.pad_bottom, self.filter_height,
                       self.dilation_height, self.stride_height)  # fmt: skip

    def output_width(self) -> int:
        """``TileImageToColumnOutputWidth``."""
        return _output(self.width + self.pad_left + self.pad_right, self.filter_width,
                       self.dilation_width, self.stride_width)  # fmt: skip

    def logical_shape(self) -> tuple[int, int]:
        """The image-to-column matrix: (N*D*outH*outW rows, C1*filterH*filterW*C0 columns)."""
        rows = self.batches * self.depth * self.output_height() * self.output_width()
        cols = self.channel_groups * self.filter_height * self.filter_width * self.channels_per_group
        return rows, cols

    def physical_elements(self) -> int:
        """Source elements the descriptor spans: N*D*C1*H*W*C0."""
        return (self.batches * self.depth * self.channel_groups * self.height * self.width
                * self.channels_per_group)  # fmt: skip


def _output(padded: int, filt: int, dilation: int, stride: int) -> int:
    receptive = dilation * (filt - 1) + 1
    return 0 if padded < receptive else (padded - receptive) // stride + 1


FIELDS = FeatureMap._fields[1:]
"""The integer fields in ASL order (after the layout)."""
DEFAULTS = FeatureMap()
ZERO_BASED = frozenset({"pad_left", "pad_right", "pad_top", "pad_bottom"})
"""Fields of range 0..65535; ``padding`` is a 64-bit word, ``transposed`` a boolean; every
other field is 1..65535 (``TileFeatureMapDescriptor``)."""
WORD_MIN, WORD_MAX = -(1 << 63), (1 << 64) - 1
"""The padding word as a signed or unsigned 64-bit value."""


def field_errors(fm: FeatureMap) -> list[str]:
    """Fields outside their ``TileFeatureMapDescriptor`` range."""
    out = []
    if fm.layout not in (0, 1):
        out.append(f"layout {fm.layout} is not NC1HWC0 or NDC1HWC0")
    for name in FIELDS:
        v = getattr(fm, name)
        if name == "padding":
            ok, rng = WORD_MIN <= v <= WORD_MAX, "a 64-bit word"
        elif name == "transposed":
            ok, rng = v in (0, 1), "0..1"
        else:
            lo = 0 if name in ZERO_BASED else 1
            ok, rng = lo <= v <= 65535, f"{lo}..65535"
        if not ok:
            out.append(f"{name} {v} is outside {rng}")
    return out


def descriptor_errors(fm: FeatureMap, rows: int, cols: int, capacity_elements: int) -> list[str]:
    """The rules TIMG2COL's legality applies to a descriptor on a source tile of physical
    ``rows`` x ``cols`` holding ``capacity_elements`` (``TileFeatureMapDescriptorStructurallyValid``
    and the nonzero output of ``TileOperandsLegal_TIMG2COL``); the first failing rule first."""
    errs = field_errors(fm)
    if errs:
        return errs
    if fm.transposed:
        return ["transposed mode is illegal"]
    if fm.layout == 0 and fm.depth != 1:
        return [f"an NC1HWC0 descriptor has depth 1, got {fm.depth}"]
    if fm.logical_channels > fm.channel_groups * fm.channels_per_group:
        return [f"logical_channels {fm.logical_channels} exceed channel_groups * "
                f"channels_per_group = {fm.channel_groups * fm.channels_per_group}"]  # fmt: skip
    n = fm.physical_elements()
    if n > rows * cols or n > capacity_elements:
        return [f"the descriptor spans {n} elements (N*D*C1*H*W*C0) but the source holds "
                f"{min(rows * cols, capacity_elements)} ({rows}x{cols})"]  # fmt: skip
    if fm.output_height() == 0 or fm.output_width() == 0:
        return [f"the receptive field exceeds the padded input: output {fm.output_height()}x"
                f"{fm.output_width()}"]  # fmt: skip
    return []


@irdl_attr_definition
class FeatureMapAttr(Data[tuple[int, ...]]):
    """``#pto.fmap<layout, field = value, ...>``: a TIMG2COL feature-map descriptor (module
    docstring). Ranges are the op verifier's rules (so the diagnostic names the op); the
    attribute only requires integers."""

    name = "pto.fmap"

    @staticmethod
    def of(fm: FeatureMap) -> FeatureMapAttr:
        return FeatureMapAttr(tuple(fm))

    @property
    def fields(self) -> FeatureMap:
        return FeatureMap(*self.data)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[int, ...]:
        values = DEFAULTS._asdict()
        first = [True]

        def one():
            pos = parser.pos
            key = parser.parse_identifier()
            if first[0]:
                first[0] = False
                if key not in LAYOUTS:
                    parser.raise_error(f"feature-map layout '{key}' is not one of {list(LAYOUTS)}",
                                       pos)  # fmt: skip
                values["layout"] = LAYOUTS.index(key)
                return
            if key not in FIELDS:
                parser.raise_error(f"unknown feature-map field '{key}'; fields are {list(FIELDS)}",
                                   pos)  # fmt: skip
            parser.parse_punctuation("=")
            values[key] = parser.parse_integer(allow_boolean=False, allow_negative=True)

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, one)
        if first[0]:
            parser.raise_error("a feature-map descriptor starts with its layout (nc1hwc0 or "
                               "ndc1hwc0)")  # fmt: skip
        return tuple(FeatureMap(**values))

    def print_parameter(self, printer: Printer) -> None:
        fm = self.fields
        items = [LAYOUTS[fm.layout] if fm.layout in (0, 1) else str(fm.layout)]
        items += [f"{n} = {getattr(fm, n)}" for n in FIELDS
                  if getattr(fm, n) != getattr(DEFAULTS, n)]  # fmt: skip
        printer.print_string(f"<{', '.join(items)}>")

    def verify(self) -> None:
        if len(self.data) != len(FeatureMap._fields) or not all(
            isinstance(v, int) for v in self.data
        ):
            raise VerifyException(f"#pto.fmap has {len(FeatureMap._fields)} integer fields")
