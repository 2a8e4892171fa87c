"""Tile geometry (PTO-SPEC 2, D14) against numbers worked out by hand from the spec text.

Nothing here recomputes an expectation with the formula under test: each number was derived
on paper from PTO-SPEC 2 (TSize = 128 B * 2^(code-1); row-major Rows = TSize*8/(Col*bits);
CUBE cells of 128 B with the per-width shapes 16x{2,4,8,16}, 32x{1,2,4,8}, {4,8,16,32}x8).
"""

from __future__ import annotations

import pytest

from pto_dialect.datatypes import TileDataType as T
from pto_dialect.geometry import (
    Layout,
    Storage,
    code_of_size,
    cube_cell_shape,
    cube_cells,
    default_size,
    format_size,
    geometry_errors,
    parse_size,
    size_of_code,
)

M16, M32, N8 = Layout.CUBE_M16, Layout.CUBE_M32, Layout.CUBE_N8
RM, CM = Layout.ROW_MAJOR, Layout.COL_MAJOR


@pytest.mark.parametrize(
    "code, size",
    [(1, 128), (2, 256), (3, 512), (4, 1024), (5, 2048), (6, 4096), (7, 8192), (8, 16384),
     (9, 32768), (10, 65536), (11, 131072), (12, 262144)],
)
def test_size_codes(code, size):
    """D14: SizeCode 1..10 = 128 B .. 64 KiB (Local); Shared codes 11-12 reach 256 KiB."""
    assert size_of_code(code) == size
    assert code_of_size(size) == code


@pytest.mark.parametrize("size", [0, 64, 127, 192, 384, 1000, 3072, 129])
def test_sizes_that_are_no_tsize(size):
    assert code_of_size(size) is None


# ---- CUBE CELL shapes per layout and element width (PTO-SPEC 2) -------------------------
CELL_TABLE = [
    # layout, dtype, (cell rows, cell cols)
    (M16, T.FP32, (16, 2)), (M16, T.S32, (16, 2)), (M16, T.FP16, (16, 4)), (M16, T.BF16, (16, 4)),
    (M16, T.E4M3, (16, 8)), (M16, T.U8, (16, 8)), (M16, T.E3M2, (16, 8)), (M16, T.E2M3, (16, 8)),
    (M16, T.E2M1X2, (16, 16)), (M16, T.S4X2, (16, 16)),
    (M32, T.FP32, (32, 1)), (M32, T.TF32, (32, 1)), (M32, T.FP16, (32, 2)), (M32, T.E5M2, (32, 4)),
    (M32, T.E1M2X2, (32, 8)), (M32, T.U4X2, (32, 8)),
    (N8, T.FP32, (4, 8)), (N8, T.HF32, (4, 8)), (N8, T.BF16, (8, 8)), (N8, T.S16, (8, 8)),
    (N8, T.E4M3, (16, 8)), (N8, T.HIF8, (16, 8)), (N8, T.E2M1X2, (32, 8)), (N8, T.U4X2, (32, 8)),
]


@pytest.mark.parametrize("layout, dtype, shape", CELL_TABLE)
def test_cube_cell_shapes(layout, dtype, shape):
    """PTO-SPEC 2: one 128-byte CELL is 16x{2,4,8,16}, 32x{1,2,4,8} or {4,8,16,32}x8 (b32..b4);
    6-bit types use the 8-bit carrier."""
    assert cube_cell_shape(layout, dtype) == shape


@pytest.mark.parametrize("layout", [M16, M32, N8])
@pytest.mark.parametrize("dtype", [T.FP64, T.S64, T.U64, T.HIF4X2])
def test_no_cube_geometry_for_b64_and_hif4x2(layout, dtype):
    """PTO-SPEC 2: HiF4X2 and b64 types are illegal in CUBE layouts."""
    assert cube_cell_shape(layout, dtype) is None
    assert default_size(layout, dtype, 1, 8) is None
    errs = geometry_errors(1, 8, dtype, 1, 8, layout, Storage.LOCAL, 128)
    assert errs and "has no CUBE geometry" in errs[0]


CELLS = [
    # layout, dtype, rows, cols, cells (by hand)
    (M16, T.FP32, 1, 32, 16),      # 32 cols / 2 per cell
    (M16, T.FP32, 1, 33, 17),      # ceil(33/2)
    (M16, T.FP16, 1, 64, 16),      # 64 / 4
    (M16, T.E4M3, 1, 64, 8),       # 64 / 8
    (M16, T.E4M3, 16, 64, 8),      # rows do not count for M layouts (up to 16)
    (M16, T.E2M1X2, 1, 64, 4),     # 64 / 16
    (M16, T.FP32, 1, 1, 1),
    (M32, T.FP32, 1, 32, 32),      # 1 col per cell
    (M32, T.BF16, 1, 64, 32),      # 64 / 2
    (M32, T.E5M2, 1, 65, 17),      # ceil(65/4)
    (N8, T.E4M3, 64, 32, 16),      # ceil(64/16) * ceil(32/8) = 4 * 4
    (N8, T.E5M2, 40, 32, 12),      # ceil(40/16) = 3, times 4
    (N8, T.FP16, 64, 1, 8),        # ceil(64/8) * ceil(1/8) = 8 * 1
    (N8, T.FP32, 5, 8, 2),         # ceil(5/4) * 1
    (N8, T.E1M2X2, 33, 16, 4),     # ceil(33/32) * ceil(16/8) = 2 * 2
    (N8, T.E4M3, 1, 32, 4),        # K = 1: one row of cells, 4 wide
]


@pytest.mark.parametrize("layout, dtype, rows, cols, cells", CELLS)
def test_cube_cell_counts(layout, dtype, rows, cols, cells):
    assert cube_cells(layout, dtype, rows, cols) == cells


DEFAULT_SIZES = [
    # layout, dtype, rows, cols, canonical TSize in bytes (by hand)
    (RM, T.FP32, 4, 8, 128),
    (RM, T.S32, 8, 16, 512),
    (RM, T.FP64, 2, 8, 128),
    (RM, T.E2M1X2, 32, 8, 128),    # 256 elements * 4 bits
    (RM, T.E3M2, 16, 8, 128),      # 6-bit type in an 8-bit carrier
    (RM, T.FP32, 3, 16, 192),      # exact, and not a TSize (rejected by the rules)
    (CM, T.FP32, 8, 4, 128),
    (Layout.ZN, T.FP32, 16, 8, 512),
    (M16, T.FP16, 1, 64, 2048),    # 16 cells
    (M16, T.E5M2, 1, 40, 1024),    # 5 cells, rounded up to a power of two
    (M16, T.FP32, 1, 1, 128),
    (M16, T.S8, 1, 32, 512),       # 4 cells
    (M32, T.FP32, 1, 32, 4096),    # 32 cells
    (N8, T.E4M3, 64, 32, 2048),    # 16 cells
    (N8, T.E5M2, 40, 32, 2048),    # 12 cells -> 16
    (N8, T.E1M2X2, 64, 32, 1024),  # 2 * 4 = 8 cells
]


@pytest.mark.parametrize("layout, dtype, rows, cols, size", DEFAULT_SIZES)
def test_default_sizes(layout, dtype, rows, cols, size):
    """The canonical capacity: exact for linear layouts, the minimal TSize for CUBE layouts."""
    assert default_size(layout, dtype, rows, cols) == size


ROW_MAJOR = [
    # rows, cols, dtype, TSize, legal?  Rows must be TSize*8/(Col*bits) (D14), worked by hand
    (8, 16, T.FP32, 512, True),       # 4096 / 512 = 8
    (4, 16, T.FP32, 512, False),
    (128, 128, T.FP32, 65536, True),  # 524288 / 4096 = 128
    (32, 8, T.E2M1X2, 128, True),     # 1024 / 32 = 32
    (16, 8, T.E3M2, 128, True),       # 8-bit carrier: 1024 / 64 = 16
    (21, 8, T.E3M2, 128, False),      # 6 real bits would give 21.3: carriers count, not bits
    (1, 32, T.FP32, 128, True),       # 1024 / 1024 = 1
    (1, 64, T.FP16, 128, True),
    (2, 64, T.FP16, 128, False),
    (1, 256, T.S4X2, 128, True),      # 1024 / 1024 = 1
    (4, 12, T.FP32, 256, False),      # Col not a power of two
    (1, 32, T.U64, 256, True),        # 2048 / 2048 = 1
]


@pytest.mark.parametrize("rows, cols, dtype, size, legal", ROW_MAJOR)
def test_row_major_rows_rule(rows, cols, dtype, size, legal):
    errs = geometry_errors(rows, cols, dtype, rows, cols, RM, Storage.LOCAL, size)
    assert (errs == []) is legal, errs


@pytest.mark.parametrize(
    "rows, cols, dtype, size, legal",
    [(8, 4, T.FP32, 128, True), (16, 8, T.FP16, 256, True), (12, 4, T.FP32, 256, False),
     (8, 8, T.FP16, 256, False)],
)
def test_col_major_rule(rows, cols, dtype, size, legal):
    """Column-major mirrors row-major: Rows a power of two, Col = TSize*8/(Rows*bits)."""
    errs = geometry_errors(rows, cols, dtype, rows, cols, CM, Storage.LOCAL, size)
    assert (errs == []) is legal, errs


@pytest.mark.parametrize(
    "layout, rows, cols, dtype, size, legal",
    [
        (Layout.ZN, 16, 8, T.FP32, 512, True),    # one 16x32 B fractal column block, 4 fractals
        (Layout.NZ, 16, 16, T.FP16, 512, True),
        (Layout.ZN, 8, 8, T.FP32, 256, False),    # 8 rows: not a 16-row fractal
        (Layout.NZ, 16, 4, T.FP32, 256, False),   # 16 bytes wide: not a 32-byte fractal
        (Layout.NZ, 16, 8, T.FP32, 1024, False),  # tiles, but fills only 512 of 1024 B
    ],
)
def test_fractal_layouts(layout, rows, cols, dtype, size, legal):
    errs = geometry_errors(rows, cols, dtype, rows, cols, layout, Storage.LOCAL, size)
    assert (errs == []) is legal, errs


@pytest.mark.parametrize(
    "layout, rows, cols, dtype, size, legal",
    [
        (M16, 1, 64, T.FP16, 2048, True),   # 16 cells fit exactly
        (M16, 1, 65, T.FP16, 2048, False),  # 17 cells
        (M16, 1, 64, T.FP16, 4096, True),   # more capacity than needed is fine (D14)
        (M16, 16, 8, T.E4M3, 128, True),
        (M16, 17, 8, T.E4M3, 256, False),   # M <= 16
        (M32, 32, 1, T.FP32, 128, True),
        (M32, 33, 1, T.FP32, 128, False),   # M <= 32
        (N8, 64, 32, T.E4M3, 2048, True),
        (N8, 65, 32, T.E4M3, 2048, False),  # ceil(65/16) = 5 rows of cells: 20 cells
        (N8, 1000, 1, T.FP32, 32768, True),  # 250 cells; M/N/K any positive value
    ],
)
def test_cube_capacity(layout, rows, cols, dtype, size, legal):
    errs = geometry_errors(rows, cols, dtype, rows, cols, layout, Storage.LOCAL, size)
    assert (errs == []) is legal, errs


@pytest.mark.parametrize(
    "storage, size, legal",
    [(Storage.LOCAL, 65536, True), (Storage.LOCAL, 131072, False), (Storage.SHARED, 131072, True),
     (Storage.SHARED, 262144, True), (Storage.SHARED, 524288, False)],
)
def test_capacity_limits_by_storage(storage, size, legal):
    """D14 / PTO-SPEC 2: Local codes 1..10 (64 KiB), Shared up to code 12 (256 KiB)."""
    errs = geometry_errors(1, 1, T.FP32, 1, 1, M16, storage, size)
    assert (errs == []) is legal, errs


def test_valid_shape_rules():
    errs = geometry_errors(8, 16, T.S32, 9, 16, RM, Storage.LOCAL, 512)
    assert errs == ["valid shape 9x16 exceeds physical shape 8x16 (PTO-SPEC 2, D14)"]
    assert geometry_errors(8, 16, T.S32, 3, 5, RM, Storage.LOCAL, 512) == []
    assert "must be positive" in geometry_errors(8, 16, T.S32, 0, 5, RM, Storage.LOCAL, 512)[0]
    assert "must be positive" in geometry_errors(0, 16, T.S32, 0, 16, RM, Storage.LOCAL, 512)[0]


def test_impl_defined_always_rejects():
    """D10: ImplementationDefined is a model-only value that always rejects."""
    errs = geometry_errors(4, 8, T.FP32, 4, 8, Layout.IMPL_DEFINED, Storage.LOCAL, 128)
    assert errs == ["layout impl_defined always rejects (PTO-SPEC 2, D10)"]


@pytest.mark.parametrize("size, text", [(128, "128B"), (512, "512B"), (1024, "1KB"), (65536, "64KB")])
def test_size_spelling(size, text):
    assert format_size(size) == text
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["1MB", "KB", "12", "4 K"])
def test_bad_size_spelling(text):
    assert parse_size(text) is None
