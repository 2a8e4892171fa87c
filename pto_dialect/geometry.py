"""Tile descriptor geometry: layouts, locations, capacity codes and CUBE cells (PTO-SPEC 2, D14).

Pure Python. The type verifier, the lowering's tiling and the interpreter share these rules.
"""

from __future__ import annotations

from enum import Enum

from pto_dialect.datatypes import TileDataType


class Layout(str, Enum):
    ROW_MAJOR = "row_major"
    COL_MAJOR = "col_major"
    ZN = "zn"
    NZ = "nz"
    CUBE_M16 = "cube_m16"
    CUBE_M32 = "cube_m32"
    CUBE_N8 = "cube_n8"
    IMPL_DEFINED = "impl_defined"
    """ImplementationDefined: a model-only value that always rejects (PTO-SPEC 2, D10)."""

    @property
    def is_cube(self) -> bool:
        return self in (Layout.CUBE_M16, Layout.CUBE_M32, Layout.CUBE_N8)


class Location(str, Enum):
    VEC = "vec"
    MAT = "mat"
    MEM = "mem"
    ANY = "any"


class Storage(str, Enum):
    LOCAL = "local"
    SHARED = "shared"


CELL_BYTES = 128
LOCAL_MAX_CODE = 10
SHARED_MAX_CODE = 12


TILE_CAPACITY_BYTES = 256 * 1024
"""The core's tile capacity: the ``tile_capacity`` system register's reset value and largest
legal value (``PTO_TILE_CAPACITY_BYTES``, asl/arch/features/tile-allocation.asl)."""


def core_allocation_bytes(pe_mask: str, per_pe_bytes: int) -> int:
    """Core tile capacity a tile of ``per_pe_bytes`` (its TSize) held by the PEs of
    ``pe_mask`` charges: one fragment per PE (``TileCoreAllocationBytes``,
    asl/tile/model/legality/pe-mask.asl)."""
    return pe_mask.count("1") * per_pe_bytes


def size_of_code(code: int) -> int:
    """B.IOT SizeCode -> TSize in bytes: 128 B * 2^(code-1) (PTO-SPEC 2, D14)."""
    return CELL_BYTES << (code - 1)


def code_of_size(size: int) -> int | None:
    """TSize in bytes -> SizeCode, or None when ``size`` is not 128 B * 2^k."""
    if size < CELL_BYTES or size % CELL_BYTES or (size & (size - 1)):
        return None
    return (size // CELL_BYTES).bit_length()


def max_code(storage: Storage) -> int:
    return LOCAL_MAX_CODE if storage is Storage.LOCAL else SHARED_MAX_CODE


def format_size(size: int) -> str:
    """Assembly spelling of a capacity: 128B, 256B, 512B, 1KB ... 64KB."""
    return f"{size // 1024}KB" if size >= 1024 and size % 1024 == 0 else f"{size}B"


def parse_size(text: str) -> int | None:
    t = text.strip().upper()
    for suffix, mult in (("KB", 1024), ("B", 1)):
        if t.endswith(suffix) and t[: -len(suffix)].isdigit():
            return int(t[: -len(suffix)]) * mult
    return None


def is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def cube_cell_shape(layout: Layout, dtype: TileDataType) -> tuple[int, int] | None:
    """Rows x cols of one 128-byte CUBE CELL for ``dtype`` (PTO-SPEC 2), None if illegal.

    b64 types and HiF4X2 have no CUBE geometry. 6-bit types use their 8-bit carrier.
    """
    if dtype is TileDataType.HIF4X2:
        return None
    bits = dtype.info.carrier_bits
    col_per_width = {32: 0, 16: 1, 8: 2, 4: 3}
    if bits not in col_per_width:
        return None
    i = col_per_width[bits]
    if layout is Layout.CUBE_M16:
        return (16, (2, 4, 8, 16)[i])
    if layout is Layout.CUBE_M32:
        return (32, (1, 2, 4, 8)[i])
    if layout is Layout.CUBE_N8:
        return ((4, 8, 16, 32)[i], 8)
    return None


def cube_cells(layout: Layout, dtype: TileDataType, rows: int, cols: int) -> int | None:
    """Number of 128-byte cells a CUBE tile of logical rows x cols needs (PTO-SPEC 2)."""
    shape = cube_cell_shape(layout, dtype)
    if shape is None:
        return None
    cell_rows, cell_cols = shape
    if layout is Layout.CUBE_N8:
        return _ceil(rows, cell_rows) * _ceil(cols, cell_cols)
    return _ceil(cols, cell_cols)


def cube_storage_shape(
    layout: Layout, dtype: TileDataType, valid_rows: int, valid_cols: int
) -> tuple[int, int] | None:
    """(storage rows, storage columns) of a CUBE tile: the valid shape rounded up to whole
    CELLs (N8 in both directions; M16/M32 keep one CELL of rows and need valid_rows to fit
    it). None if the shape has no CUBE storage (asl/tile/model/shape/cube-cell.asl
    ``TileCubeStorageRows`` / ``TileCubeStorageColumns``)."""
    shape = cube_cell_shape(layout, dtype)
    if shape is None or valid_rows <= 0 or valid_cols <= 0:
        return None
    cr, cc = shape
    cols = _ceil(valid_cols, cc) * cc
    if layout is Layout.CUBE_N8:
        return _ceil(valid_rows, cr) * cr, cols
    return (cr, cols) if valid_rows <= cr else None


_M16_B4_COLUMNS = (0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15)
"""CUBE_M16 4-bit CELLs store logical columns 4..7 and 8..11 swapped."""


def cube_payload_index(
    layout: Layout, dtype: TileDataType, valid_rows: int, valid_cols: int, row: int, col: int
) -> int:
    """Physical payload position of logical element (row, col) of a CUBE tile (PTO-SPEC 2;
    asl/tile/model/shape/cube-cell.asl ``TileCubePayloadIndex``): CELLs are consecutive runs
    of 128 bytes; N8 CELLs are ordered K-fastest (cell = n * k_repeat + k) and store their
    elements column-major; M16/M32 CELLs follow the columns and store row-major (4-bit M16
    CELLs with columns 4..7 and 8..11 swapped)."""
    cr, cc = cube_cell_shape(layout, dtype) or (0, 0)
    storage = cube_storage_shape(layout, dtype, valid_rows, valid_cols)
    if storage is None or not (0 <= row < storage[0] and 0 <= col < storage[1]):
        raise ValueError(f"({row}, {col}) is outside the CUBE storage of {valid_rows}x"
                         f"{valid_cols} {dtype.name} {layout.value}")  # fmt: skip
    if layout is Layout.CUBE_N8:
        cell = (col // cc) * (storage[0] // cr) + row // cr
        local = (col % cc) * cr + row % cr
    else:
        inner = col % cc
        if layout is Layout.CUBE_M16 and dtype.bits == 4:
            inner = _M16_B4_COLUMNS[inner]
        cell, local = col // cc, row * cc + inner
    return cell * cr * cc + local


def fractal_inner_elements(dtype: TileDataType) -> int:
    """Elements of one 32-byte fractal row (ZN / NZ fractals are 16 rows x 32 bytes; a packed
    X2 format has 64 separately addressed nibbles): asl/tile/model/definedness/elements.asl
    ``TileFractalInnerElements``."""
    return 256 // dtype.info.carrier_bits


def linear_index(
    layout: Layout, dtype: TileDataType, rows: int, cols: int, row: int, col: int
) -> int:
    """Physical element position of (row, col) in a rows x cols tile of a linear layout
    (PTO-SPEC 2; asl/tile/model/definedness/elements.asl ``TileLinearIndex``): row_major
    ``row * cols + col``, col_major ``col * rows + row``; ZN orders its 16-row fractals
    row-major and stores each column-major, NZ orders them column-major and stores each
    row-major. The interpreter keeps elements logically; this is where they sit in storage.
    CUBE layouts use :func:`cube_payload_index`."""
    if not (0 <= row < rows and 0 <= col < cols):
        raise ValueError(f"({row}, {col}) is outside a {rows}x{cols} tile")
    if layout is Layout.ROW_MAJOR:
        return row * cols + col
    if layout is Layout.COL_MAJOR:
        return col * rows + row
    inner = fractal_inner_elements(dtype)
    if layout not in (Layout.ZN, Layout.NZ) or rows % 16 or cols % inner:
        raise ValueError(f"{layout.value} {rows}x{cols} {dtype.name} has no linear index")
    block = 16 * inner
    br, bc, ir, ic = row // 16, col // inner, row % 16, col % inner
    if layout is Layout.ZN:
        return (br * (cols // inner) + bc) * block + ic * 16 + ir
    return (bc * (rows // 16) + br) * block + ir * inner + ic


def default_size(
    layout: Layout, dtype: TileDataType, rows: int, cols: int
) -> int | None:
    """The canonical TSize of a tile: exact for linear layouts, minimal for CUBE layouts."""
    if layout.is_cube:
        cells = cube_cells(layout, dtype, rows, cols)
        if cells is None:
            return None
        size = CELL_BYTES
        while size < cells * CELL_BYTES:
            size *= 2
        return size
    total_bits = rows * cols * dtype.info.carrier_bits
    if total_bits % 8:
        return None
    return total_bits // 8


def valid_shape_error(
    valid: tuple[int, int] | list[int], physical: tuple[int, int] | None = None, role: str = ""
) -> str | None:
    """Why a valid rectangle is illegal, or None: every tile has a nonempty valid shape
    within its physical one (PTO-SPEC 2, D14; e.g. ``TileOperandsLegal_ExecuteTileReduction``
    refuses ``valid_rows == 0``). The one check of every kernel entry point."""
    vr, vc = (int(valid[0]), int(valid[1])) if len(valid) == 2 else (0, 0)
    who = f"{role}: " if role else ""
    if physical is None:
        if vr > 0 and vc > 0:
            return None
        return f"{who}valid shape {vr}x{vc} must be nonempty"
    rows, cols = physical
    if 0 < vr <= rows and 0 < vc <= cols:
        return None
    return f"{who}valid shape {vr}x{vc} must be nonempty and within {rows}x{cols}"


def partial_coverage_error(
    left: tuple[int, int], right: tuple[int, int], result: tuple[int, int]
) -> str | None:
    """Why TPARTADD/MUL/MAX/MIN's sources do not cover the result's valid rectangle, or None
    (``TilePartialCoverageLegal``, ``asl/tile/model/legality/allocation-capacity.asl``): each
    source's valid shape fits in the result's and every result coordinate is covered; with
    origin-anchored rectangles that means one source spans the whole result."""
    dr, dc = result
    for role, (vr, vc) in (("left", left), ("right", right)):
        if vr > dr or vc > dc:
            return f"{role}: valid shape {vr}x{vc} exceeds the result's {dr}x{dc}"
    if tuple(left) != (dr, dc) and tuple(right) != (dr, dc):
        return f"result: valid shape {dr}x{dc} is not covered: one source must span it"
    return None


def geometry_errors(
    rows: int,
    cols: int,
    dtype: TileDataType,
    valid_rows: int,
    valid_cols: int,
    layout: Layout,
    storage: Storage,
    size: int,
) -> list[str]:
    """Every D14 geometry rule the descriptor breaks (empty list = legal).

    Messages name the rule and cite the spec.
    """
    errs: list[str] = []
    if rows <= 0 or cols <= 0:
        errs.append(f"physical shape {rows}x{cols} must be positive (PTO-SPEC 2)")
        return errs
    if valid_rows <= 0 or valid_cols <= 0:
        errs.append(f"valid shape {valid_rows}x{valid_cols} must be positive (PTO-SPEC 2)")
    if valid_rows > rows or valid_cols > cols:
        errs.append(
            f"valid shape {valid_rows}x{valid_cols} exceeds physical shape {rows}x{cols} "
            "(PTO-SPEC 2, D14)"
        )
    code = code_of_size(size)
    limit = max_code(storage)
    if code is None or code > limit:
        errs.append(
            f"capacity {size} B is not a {storage.value} TSize "
            f"(128 B * 2^(code-1), code 1..{limit}; PTO-SPEC 2, D14)"
        )
        return errs
    bits = dtype.info.carrier_bits
    if layout is Layout.IMPL_DEFINED:
        errs.append("layout impl_defined always rejects (PTO-SPEC 2, D10)")
    elif layout is Layout.ROW_MAJOR or layout is Layout.COL_MAJOR:
        major, minor, what = (
            (cols, rows, "Col") if layout is Layout.ROW_MAJOR else (rows, cols, "Rows")
        )
        other = "Rows" if what == "Col" else "Col"
        if not is_pow2(major):
            errs.append(f"{layout.value} {what} {major} must be a power of two (PTO-SPEC 2, D14)")
        elif (size * 8) % (major * bits) or (size * 8) // (major * bits) != minor:
            errs.append(
                f"{layout.value} {other} must equal TSize*8/({what}*bits) = "
                f"{size}*8/({major}*{bits}) exactly, got {minor} (PTO-SPEC 2, D14)"
            )
    elif layout in (Layout.ZN, Layout.NZ):
        frac_cols_bits = 32 * 8
        if rows % 16 or (cols * bits) % frac_cols_bits:
            errs.append(
                f"{layout.value} tiles are made of 16-row x 32-byte fractals: {rows}x{cols} of "
                f"{bits}-bit elements does not tile (PTO-SPEC 2)"
            )
        elif rows * cols * bits != size * 8:
            errs.append(
                f"{layout.value} tile {rows}x{cols} of {bits}-bit elements must fill its "
                f"capacity {size} B exactly (PTO-SPEC 2, D14)"
            )
    else:  # CUBE layouts
        shape = cube_cell_shape(layout, dtype)
        if shape is None:
            errs.append(
                f"{dtype.name} has no CUBE geometry (b64 types and HiF4X2 are illegal in "
                f"{layout.value}; PTO-SPEC 2)"
            )
            return errs
        if layout is Layout.CUBE_M16 and rows > 16:
            errs.append(f"cube_m16 stores at most 16 rows (M <= 16), got {rows} (PTO-SPEC 2)")
        if layout is Layout.CUBE_M32 and rows > 32:
            errs.append(f"cube_m32 stores at most 32 rows (M <= 32), got {rows} (PTO-SPEC 2)")
        cells = cube_cells(layout, dtype, rows, cols)
        assert cells is not None
        if cells * CELL_BYTES > size:
            errs.append(
                f"{layout.value} {rows}x{cols}x{dtype.name} needs {cells} cells x 128 B = "
                f"{cells * CELL_BYTES} B, more than its capacity {size} B (PTO-SPEC 2, D14)"
            )
    return errs
