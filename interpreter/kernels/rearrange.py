"""Kernels of the irregular tile-local rearrangements: TGATHER, TSCATTER, TFILLPAD,
TEXTRACT, TINSERT, TMRGSORT, TSORT, THISTOGRAM.

Rows of :data:`interpreter.kernels.LOCAL_ROWS` (call convention of
:mod:`.tile_local`: ``kernel(sources, types, dst_type, dst_valid)`` on the sources' valid
rectangles). TFILLPAD, TEXTRACT, TINSERT, TMRGSORT, TSORT (its sort width first) and THISTOGRAM (its
ByteId first) also take ``params`` (the B.IOR words); TSORT returns two arrays (values,
indices); TFILLPAD's
row is ``physical``: it takes ``dst_shape`` and returns the WHOLE physical destination, every
element defined. TINSERT returns the destination's valid rectangle; the caller keeps the old
destination's payload and definedness outside it (``KEEP_SOURCE``).

* TGATHER (``asl/tile/model/execution/indexed-rearrangement.asl``): ``d[r, c] =
  src[index[r, c], c]``, one ``np.take_along_axis``; bit copies (raw carriers, TF32/HF32
  payloads not validated).
* TSCATTER: a zero destination valid rectangle, then ``d[index[r, c], c] = src[r, c]`` by one
  fancy-index assignment (the caller pads the rest with typed zero, defined).
* Index preflight (``TileGatherReferencesLegal`` / ``TileScatterReferencesLegal``): a
  negative signed index, an index >= the selected tile's valid rows, or (TSCATTER) two
  source elements selecting one coordinate is Fault_TileLegality before any effect. The
  index is the unsigned value of its element-width bits (``TileIndexedRowValue``), so a U64
  index above 2^32 is out of range, never truncated.
* TFILLPAD (``generation.asl`` ``TFILLPAD``): the padding is the low element-width bits of the
  word (``TileRawElementValue``), no numeric conversion; the source's valid rectangle is
  copied at the origin.
* TEXTRACT / TINSERT (``rearrangement.asl``): slices; each offset must be in 0..65535 and the
  window inside the source's (TEXTRACT) / destination's (TINSERT) valid rectangle
  (``TileOperandsLegal_TEXTRACT`` / ``_TINSERT``), else Fault_TileLegality before any effect.
* TIMG2COL (``image-to-column.asl``): the ASL's coordinate decomposition as integer numpy
  arithmetic on the row and column index vectors, one ``np.take`` from the flattened physical
  source; ``params`` = the 20 descriptor fields (``pto_dialect.feature_map.FeatureMap``) then
  posM, posK (their low sixteen bits). The window must lie in the image-to-column matrix and
  every referenced source element be defined, else Fault_TileLegality before any effect.
* TMRGSORT (``sorting.asl``): a stable ``np.lexsort`` of the two sorted streams by the
  ``TileSortLeftBefore`` key; an unsorted stream or a direction other than 0 / 1 faults first.
* TSORT (``sorting.asl``): the same key as an order-preserving int64, one stable
  ``np.argsort`` of all (rows, groups, width) at once (the ASL's bubble sort swaps only
  strictly out-of-order neighbours, so it is the stable sort); a direction other than 0 / 1
  faults first.
"""

from __future__ import annotations

import numpy as np

from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.feature_map import FeatureMap

from . import status

_TL = FaultKind.TILE_LEGALITY


def _rows_of(index: np.ndarray, t: TileDataType, limit: int, what: str) -> np.ndarray:
    """Row numbers of an index tile's valid rectangle (int64 when they fit; faults on a
    negative signed index or a row >= ``limit``)."""
    if t.is_signed:
        neg = index < 0
        if neg.any():
            at = tuple(int(i) for i in np.argwhere(neg)[0])
            raise PTOFault(_TL, f"index: element at {at} is negative ({int(index[at])}) "
                           "(TileIndexedRowIsNegative)")  # fmt: skip
    bad = index >= limit  # unsigned comparison of the raw value (no truncation)
    if bad.any():
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        raise PTOFault(_TL, f"index: element at {at} selects row {int(index[at])}, outside the "
                       f"{what}'s {limit} valid rows")  # fmt: skip
    return index.astype(np.int64)


def tgather(sources, types, dst_type, dst_valid) -> np.ndarray:
    src, index = sources
    rows = _rows_of(index, types[1], src.shape[0], "source")
    return np.take_along_axis(src[:, : dst_valid[1]], rows, axis=0)


def tscatter(sources, types, dst_type, dst_valid) -> np.ndarray:
    src, index = sources
    rows = _rows_of(index, types[1], dst_valid[0], "destination")
    cols = np.broadcast_to(np.arange(src.shape[1]), src.shape)
    flat = rows * dst_valid[1] + cols
    uniq, counts = np.unique(flat, return_counts=True)
    if (counts > 1).any():
        dup = int(uniq[np.argmax(counts > 1)])
        raise PTOFault(_TL, f"index: two source elements select destination element "
                       f"{divmod(dup, dst_valid[1])} (TileScatterReferencesLegal)")  # fmt: skip
    out = np.zeros(dst_valid, src.dtype)
    out[rows, cols] = src
    return out


def raw_element(word: int, t: TileDataType, dtype: np.dtype) -> np.ndarray:
    """``TileRawElementValue``: the low element-width bits of a 64-bit word as one element."""
    bits = t.info.carrier_bits
    raw = np.array([int(word) & ((1 << bits) - 1)], dtype=f"u{bits // 8}")
    return raw.view(dtype)


def tfillpad(sources, types, dst_type, dst_valid, *, params, dst_shape) -> np.ndarray:
    (src,) = sources
    (word,) = params or (0,)
    out = np.full(dst_shape, raw_element(word, dst_type, src.dtype)[0], src.dtype)
    out[: src.shape[0], : src.shape[1]] = src
    return out


def _window(params, extent: tuple[int, int], within: tuple[int, int], what: str) -> tuple[int, int]:
    """The (row, column) offsets, checked: 0..65535 each and ``offset + extent <= within``."""
    r, c = (int(p) for p in (params or (0, 0)))
    for name, off, n, lim in (("row", r, extent[0], within[0]), ("column", c, extent[1], within[1])):
        if not 0 <= off <= 65535:
            raise PTOFault(_TL, f"{name}_offset: {off} is outside 0..65535")
        if off + n > lim:
            raise PTOFault(_TL, f"{name}_offset: {off} + {n} exceeds the {what}'s {lim} valid "
                           f"{name}s")  # fmt: skip
    return r, c


def textract(sources, types, dst_type, dst_valid, *, params) -> np.ndarray:
    (src,) = sources
    r, c = _window(params, dst_valid, src.shape, "source")
    return src[r : r + dst_valid[0], c : c + dst_valid[1]].copy()


def tinsert(sources, types, dst_type, dst_valid, *, params) -> np.ndarray:
    old, src = sources
    r, c = _window(params, src.shape, dst_valid, "destination")
    out = old.copy()
    out[r : r + src.shape[0], c : c + src.shape[1]] = src
    return out


def timg2col(sources, types, dst_type, dst_valid, *, params, defined) -> np.ndarray:
    """TIMG2COL on one PE: ``sources`` = the source's whole physical payload, ``defined`` its
    definedness mask (the descriptor indexes the physical row-major element order)."""

    fm = FeatureMap(*params[:-2])
    pos_m, pos_k = (int(p) & 0xFFFF for p in params[-2:])  # B.IOR: the low sixteen bits
    (src,), (dfn,) = sources, defined
    vr, vc = dst_valid
    lr, lk = fm.logical_shape()
    for name, pos, n, lim in (("pos_m", pos_m, vr, lr), ("pos_k", pos_k, vc, lk)):
        if pos + n > lim:
            raise PTOFault(_TL, f"{name}: {pos} + {n} exceeds the {lr}x{lk} image-to-column "
                           "matrix (TileOperandsLegal_TIMG2COL)")  # fmt: skip
    oh, ow, c0 = fm.output_height(), fm.output_width(), fm.channels_per_group
    n_d, rem = np.divmod(pos_m + np.arange(vr, dtype=np.int64), oh * ow)  # n*D + d, oy*OW + ox
    oy, ox = np.divmod(rem, ow)
    g, rem = np.divmod(pos_k + np.arange(vc, dtype=np.int64), fm.filter_height * fm.filter_width * c0)
    ky, rem = np.divmod(rem, fm.filter_width * c0)
    kx, ch = np.divmod(rem, c0)
    iy = oy[:, None] * fm.stride_height + ky * fm.dilation_height - fm.pad_top
    ix = ox[:, None] * fm.stride_width + kx * fm.dilation_width - fm.pad_left
    inside = ((g * c0 + ch < fm.logical_channels) & (iy >= 0) & (iy < fm.height) & (ix >= 0)
              & (ix < fm.width))  # fmt: skip
    index = ((((n_d[:, None] * fm.channel_groups + g) * fm.height + iy) * fm.width + ix) * c0 + ch)
    index = np.where(inside, index, 0)
    undefined = inside & ~dfn.reshape(-1)[index]
    if undefined.any():
        r, c = (int(i) for i in np.argwhere(undefined)[0])
        raise PTOFault(_TL, f"src: element {int(index[r, c])} (read by destination ({r}, {c})) "
                       "is undefined (TileImageToColumnReferencedSourcesDefined)")  # fmt: skip
    pad = raw_element(fm.padding, types[0], src.dtype)[0]
    return np.where(inside, src.reshape(-1)[index], pad)


def _sort_keys(x: np.ndarray, descending: bool) -> tuple[np.ndarray, np.ndarray]:
    """(NaN flag, numeric key) of ``TileSortLeftBefore``: numbers by value (reversed when
    descending; +0 and -0 equal), then every NaN, NaNs mutually equal."""
    with np.errstate(invalid="ignore"):  # a signalling NaN converts quietly (still a NaN)
        v = x.astype(np.float64)
    nan = np.isnan(v)
    key = np.where(nan, 0.0, -v if descending else v) + 0.0  # -0 -> +0
    return nan, key


def _flag(params, what: str) -> bool:
    (v,) = params or (0,)
    if int(v) not in (0, 1):
        raise PTOFault(_TL, f"{what}: must be exactly 0 or 1, got {int(v)}")
    return bool(v)


def tmrgsort(sources, types, dst_type, dst_valid, *, params) -> np.ndarray:
    """TMRGSORT: preflight each stream's order (``TileSortSequenceOrdered``), then the stable
    merge, which for sorted streams is the stable sort of ``left ++ right`` by the key."""
    desc = _flag(params, "descending")
    streams = [s.reshape(-1) for s in sources]
    for role, s in zip(("left", "right"), streams):
        nan, key = _sort_keys(s, desc)
        ok = np.where(nan[:-1], nan[1:], nan[1:] | (key[:-1] <= key[1:]))
        if not ok.all():
            at = int(np.argmin(ok))
            raise PTOFault(_TL, f"{role}: not sorted {'descending' if desc else 'ascending'} at "
                           f"columns {at}, {at + 1} (TileSortSequenceOrdered)")  # fmt: skip
    both = np.concatenate(streams)
    nan, key = _sort_keys(both, desc)
    if status.active():  # a signalling NaN stays sortable and records NV
        status.record(status.signalling_nan_flags(streams, types[0]))
    return both[np.lexsort((key, nan))].reshape(dst_valid)


def _order_keys(x: np.ndarray, desc: bool) -> np.ndarray:
    """int64 keys whose signed order is ``TileSortLeftBefore``'s: the value (negated when
    descending; -0 read as +0) as an order-preserving integer, every NaN one above every
    number, all NaNs equal (the stable sort keeps their order)."""
    nan, key = _sort_keys(x, desc)
    bits = key.view(np.int64)
    out = bits ^ ((bits >> 63) & np.int64(0x7FFFFFFFFFFFFFFF))  # monotone in the value
    out[nan] = np.iinfo(np.int64).max - 1
    return out


def tsort(sources, types, dst_type, dst_valid, *, params) -> tuple[np.ndarray, np.ndarray]:
    """TSORT: ``params`` = (sort width, descending). The valid rectangle is viewed as (rows,
    groups, width), the short last group filled with keys above every NaN, and one stable
    ``np.argsort`` of the integer keys along the last axis sorts every group; the index of an
    element is its position in its group. Returns (values, U32 indices)."""
    width, flag = params
    desc = _flag((flag,), "descending")
    (src,) = sources
    rows, cols = src.shape
    groups = -(-cols // width)
    keys = np.full((rows, groups * width), np.iinfo(np.int64).max, np.int64)  # fill: last
    keys[:, :cols] = _order_keys(src, desc).reshape(rows, cols)
    order = np.argsort(keys.reshape(rows, groups, width), axis=-1, kind="stable")
    order = order.reshape(rows, groups * width)
    pos = order + np.arange(groups)[:, None].repeat(width, 1).reshape(-1) * width
    pos = pos[:, :cols]  # the filler sorts last, so the first cols positions are the data
    values = np.take_along_axis(src, pos, axis=1)
    if status.active():  # a signalling NaN stays a sortable value and records NV
        status.record(status.signalling_nan_flags([src], types[0]))
    return values, order[:, :cols].astype(np.uint32)


def thistogram(sources, types, dst_type, dst_valid, *, params) -> np.ndarray:
    """THISTOGRAM (``complex.asl``): per row, count the selected byte of the values whose
    more-significant bytes pass the filter (module docstring), then the inclusive prefix sum
    over the 256 bins; one ``np.bincount`` for all rows."""
    src, filt = sources
    (byte_id, *_) = params
    v = src.astype(np.uint64)
    rows = v.shape[0]

    def byte(k: int) -> np.ndarray:
        return (v >> np.uint64(8 * k)) & np.uint64(0xFF)

    sel = np.ones(v.shape, bool)
    if types[0] is TileDataType.U16 and byte_id == 0:
        sel = byte(1) == filt[:rows, :1].astype(np.uint64)
    elif types[0] is TileDataType.U32:
        for k, frow in ((3, 0), (2, 1), (1, 2)):
            if byte_id < k:
                sel &= byte(k) == np.uint64(filt[frow, 0])
    bins = byte(byte_id).astype(np.int64) + 256 * np.arange(rows)[:, None]
    counts = np.bincount(bins[sel], minlength=rows * 256).reshape(rows, 256)
    return np.cumsum(counts, axis=1).astype(np.uint32)
