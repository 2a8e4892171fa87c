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
