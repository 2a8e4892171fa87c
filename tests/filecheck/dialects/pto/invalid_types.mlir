// Type- and attribute-level rules are parse errors with a source location (PTO-SPEC 1, 2, 3.2, 3.3;
// D9, D10, D11, D13, D14, D15). One case per rule; each checks the location and the full message.
// RUN: xdsl-opt %s --parsing-diagnostics --split-input-file | filecheck %s
// RUN: pto-opt %s --parsing-diagnostics --split-input-file | filecheck %s

// i32 is not a TileDataType (PTO-SPEC 1)
%x = "test.op"() : () -> !pto.tile<4x8xi32>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}element type i32 is not a PTO TileDataType (PTO-SPEC 1); integers must be signed (si32) or unsigned (ui32){{$}}

// -----

// index is not a TileDataType (PTO-SPEC 1)
%x = "test.op"() : () -> !pto.tile<4x8xindex>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}element type index is not a PTO TileDataType (PTO-SPEC 1); integers must be signed (si32) or unsigned (ui32){{$}}

// -----

// Local TSize code 11 (128 KiB) is out of range: Local codes are 1..10 (D14)
%x = "test.op"() : () -> !pto.tile<256x128xf32>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: capacity 131072 B is not a local TSize (128 B * 2^(code-1), code 1..10; PTO-SPEC 2, D14){{$}}

// -----

// Shared TSize code 13 (512 KiB) is out of range: Shared codes reach 12 (PTO-SPEC 2)
%x = "test.op"() : () -> !pto.tile<1024x128xf32, shared>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: capacity 524288 B is not a shared TSize (128 B * 2^(code-1), code 1..12; PTO-SPEC 2, D14){{$}}

// -----

// TSize must be 128 B * 2^k: 3 KiB is not (D14)
%x = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat, size=3KB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: capacity 3072 B is not a local TSize (128 B * 2^(code-1), code 1..10; PTO-SPEC 2, D14){{$}}

// -----

// TSize below 128 B (D14)
%x = "test.op"() : () -> !pto.tile<2x8xf32, size=64B>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: capacity 64 B is not a local TSize (128 B * 2^(code-1), code 1..10; PTO-SPEC 2, D14){{$}}

// -----

// A row-major tile whose exact size (3*16*4 = 192 B) is no TSize (D14)
%x = "test.op"() : () -> !pto.tile<3x16xf32>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: capacity 192 B is not a local TSize (128 B * 2^(code-1), code 1..10; PTO-SPEC 2, D14){{$}}

// -----

// Row-major Col must be a power of two (D14)
%x = "test.op"() : () -> !pto.tile<4x12xf32, size=256B>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: row_major Col 12 must be a power of two (PTO-SPEC 2, D14){{$}}

// -----

// Row-major Rows = TSize*8/(Col*bits) = 512*8/(16*32) = 8, not 4 (D14)
%x = "test.op"() : () -> !pto.tile<4x16xf32, size=512B>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: row_major Rows must equal TSize*8/(Col*bits) = 512*8/(16*32) exactly, got 4 (PTO-SPEC 2, D14){{$}}

// -----

// Col-major Rows must be a power of two
%x = "test.op"() : () -> !pto.tile<12x4xf32, col_major, size=256B>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: col_major Rows 12 must be a power of two (PTO-SPEC 2, D14){{$}}

// -----

// Col-major Col = TSize*8/(Rows*bits) = 256*8/(8*16) = 16, not 8
%x = "test.op"() : () -> !pto.tile<8x8xf16, col_major, size=256B>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: col_major Col must equal TSize*8/(Rows*bits) = 256*8/(8*16) exactly, got 8 (PTO-SPEC 2, D14){{$}}

// -----

// ZN fractals are 16 rows x 32 bytes: 8 rows do not tile
%x = "test.op"() : () -> !pto.tile<8x8xf32, zn>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: zn tiles are made of 16-row x 32-byte fractals: 8x8 of 32-bit elements does not tile (PTO-SPEC 2){{$}}

// -----

// NZ: 16x8 f32 tiles but fills 512 B, not its 1 KiB capacity
%x = "test.op"() : () -> !pto.tile<16x8xf32, nz, size=1KB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: nz tile 16x8 of 32-bit elements must fill its capacity 1024 B exactly (PTO-SPEC 2, D14){{$}}

// -----

// M16 b32 cell 16x2: ceil(33/2) = 17 cells > 2KB (D14)
%x = "test.op"() : () -> !pto.tile<1x33xf32, cube_m16, mat, size=2KB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m16 1x33xFP32 needs 17 cells x 128 B = 2176 B, more than its capacity 2048 B (PTO-SPEC 2, D14){{$}}

// -----

// M16 b16 cell 16x4: ceil(65/4) = 17 cells > 2KB (D14)
%x = "test.op"() : () -> !pto.tile<1x65xbf16, cube_m16, mat, size=2KB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m16 1x65xBF16 needs 17 cells x 128 B = 2176 B, more than its capacity 2048 B (PTO-SPEC 2, D14){{$}}

// -----

// M16 b8 cell 16x8: ceil(129/8) = 17 cells > 2KB (D14)
%x = "test.op"() : () -> !pto.tile<1x129xf8E5M2, cube_m16, mat, size=2KB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m16 1x129xE5M2 needs 17 cells x 128 B = 2176 B, more than its capacity 2048 B (PTO-SPEC 2, D14){{$}}

// -----

// M16 6-bit types use the b8 cell 16x8: ceil(9/8) = 2 cells > 128B (D14)
%x = "test.op"() : () -> !pto.tile<16x9xf6E2M3FN, cube_m16, mat, size=128B>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m16 16x9xE2M3 needs 2 cells x 128 B = 256 B, more than its capacity 128 B (PTO-SPEC 2, D14){{$}}

// -----

// M16 b4 cell 16x16: ceil(257/16) = 17 cells > 2KB (D14)
%x = "test.op"() : () -> !pto.tile<1x257xsi4, cube_m16, mat, size=2KB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m16 1x257xS4X2 needs 17 cells x 128 B = 2176 B, more than its capacity 2048 B (PTO-SPEC 2, D14){{$}}

// -----

// M32 b32 cell 32x1: 17 columns = 17 cells > 2KB (D14)
%x = "test.op"() : () -> !pto.tile<1x17xsi32, cube_m32, mat, size=2KB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m32 1x17xS32 needs 17 cells x 128 B = 2176 B, more than its capacity 2048 B (PTO-SPEC 2, D14){{$}}

// -----

// M32 b16 cell 32x2: ceil(33/2) = 17 cells > 2KB (D14)
%x = "test.op"() : () -> !pto.tile<1x33xf16, cube_m32, mat, size=2KB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m32 1x33xFP16 needs 17 cells x 128 B = 2176 B, more than its capacity 2048 B (PTO-SPEC 2, D14){{$}}

// -----

// M32 b8 cell 32x4: ceil(65/4) = 17 cells > 2KB (D14)
%x = "test.op"() : () -> !pto.tile<1x65xui8, cube_m32, mat, size=2KB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m32 1x65xU8 needs 17 cells x 128 B = 2176 B, more than its capacity 2048 B (PTO-SPEC 2, D14){{$}}

// -----

// M32 b4 cell 32x8: ceil(129/8) = 17 cells > 2KB (D14)
%x = "test.op"() : () -> !pto.tile<1x129xf4E2M1FN, cube_m32, mat, size=2KB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m32 1x129xE2M1X2 needs 17 cells x 128 B = 2176 B, more than its capacity 2048 B (PTO-SPEC 2, D14){{$}}

// -----

// N8 b32 cell 4x8: ceil(5/4) * ceil(8/8) = 2 cells > 128B (D14)
%x = "test.op"() : () -> !pto.tile<5x8xf32, cube_n8, mat, size=128B>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_n8 5x8xFP32 needs 2 cells x 128 B = 256 B, more than its capacity 128 B (PTO-SPEC 2, D14){{$}}

// -----

// N8 b16 cell 8x8: ceil(8/8) * ceil(9/8) = 2 cells > 128B (D14)
%x = "test.op"() : () -> !pto.tile<8x9xf16, cube_n8, mat, size=128B>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_n8 8x9xFP16 needs 2 cells x 128 B = 256 B, more than its capacity 128 B (PTO-SPEC 2, D14){{$}}

// -----

// N8 b8 cell 16x8: ceil(17/16) = 2 cells > 128B (D14)
%x = "test.op"() : () -> !pto.tile<17x8xf8E4M3FN, cube_n8, mat, size=128B>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_n8 17x8xE4M3 needs 2 cells x 128 B = 256 B, more than its capacity 128 B (PTO-SPEC 2, D14){{$}}

// -----

// N8 b4 cell 32x8: ceil(33/32) * ceil(16/8) = 4 cells > 256B (D14)
%x = "test.op"() : () -> !pto.tile<33x16x!pto.e1m2x2, cube_n8, mat, size=256B>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_n8 33x16xE1M2X2 needs 4 cells x 128 B = 512 B, more than its capacity 256 B (PTO-SPEC 2, D14){{$}}

// -----

// cube_m16 stores at most 16 rows
%x = "test.op"() : () -> !pto.tile<17x64xf16, cube_m16, mat>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m16 stores at most 16 rows (M <= 16), got 17 (PTO-SPEC 2){{$}}

// -----

// cube_m32 stores at most 32 rows
%x = "test.op"() : () -> !pto.tile<33x64xf16, cube_m32, mat>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m32 stores at most 32 rows (M <= 32), got 33 (PTO-SPEC 2){{$}}

// -----

// FP64 has no CUBE geometry (PTO-SPEC 2)
%x = "test.op"() : () -> !pto.tile<1x8xf64, cube_m16, mat>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: FP64 has no CUBE geometry (b64 types and HiF4X2 are illegal in cube_m16; PTO-SPEC 2){{$}}

// -----

// U64 has no CUBE geometry (PTO-SPEC 2)
%x = "test.op"() : () -> !pto.tile<1x8xui64, cube_n8, mat>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: U64 has no CUBE geometry (b64 types and HiF4X2 are illegal in cube_n8; PTO-SPEC 2){{$}}

// -----

// HIF4X2 has no CUBE geometry (PTO-SPEC 2)
%x = "test.op"() : () -> !pto.tile<1x8x!pto.hif4x2, cube_m32, mat>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: HIF4X2 has no CUBE geometry (b64 types and HiF4X2 are illegal in cube_m32; PTO-SPEC 2){{$}}

// -----

// valid shape exceeds the physical shape (D14)
%x = "test.op"() : () -> !pto.tile<8x16xsi32, valid=9x16>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: valid shape 9x16 exceeds physical shape 8x16 (PTO-SPEC 2, D14){{$}}

// -----

// valid shape must be positive
%x = "test.op"() : () -> !pto.tile<8x16xsi32, valid=0x3>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: valid shape 0x3 must be positive (PTO-SPEC 2){{$}}

// -----

// physical shape must be positive
%x = "test.op"() : () -> !pto.tile<0x16xsi32>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: physical shape 0x16 must be positive (PTO-SPEC 2){{$}}

// -----

// ImplementationDefined always rejects (D10)
%x = "test.op"() : () -> !pto.tile<4x8xf32, impl_defined>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: layout impl_defined always rejects (PTO-SPEC 2, D10){{$}}

// -----

// A tile is held by at least one PE (D13)
%x = "test.op"() : () -> !pto.tile<4x8xf32, pe=0000>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: a tile is held by at least one PE: pe=0000 (D13){{$}}

// -----

// Only the 8 masks the 3-bit PEMode expresses are legal (PTO-SPEC 2, D13)
%x = "test.op"() : () -> !pto.tile<4x8xf32, pe=0011>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:35{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: PE mask 0011 is not encodable: the 3-bit PEMode expresses only 0000, 1000, 0100, 0010, 0001, 1100, 1110, 1111 (PTO-SPEC 2, D13){{$}}

// -----

// A PE mask is four binary digits
%x = "test.op"() : () -> !pto.tile<4x8xf32, pe=12>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}expected a 4-digit PE mask such as 1111 or 0011 (PE0 leftmost){{$}}

// -----

// Dynamic dimensions do not exist for tiles
%x = "test.op"() : () -> !pto.tile<?x8xf32>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}tile dimensions are static: '?' is not allowed{{$}}

// -----

// Dynamic valid shape
%x = "test.op"() : () -> !pto.tile<4x8xf32, valid=?x2>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}valid shape is static: '?' is not allowed{{$}}

// -----

// Two dimensions exactly
%x = "test.op"() : () -> !pto.tile<4x8x2xf32>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}a tile has exactly two dimensions: ROWSxCOLSxELT{{$}}

// -----

// Unknown field
%x = "test.op"() : () -> !pto.tile<4x8xf32, row_mayor>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}unknown !pto.tile field 'row_mayor' (expected valid=, a layout ['row_major', 'col_major', 'zn', 'nz', 'cube_m16', 'cube_m32', 'cube_n8', 'impl_defined'], a location ['vec', 'mat', 'mem', 'any'], local/shared, size= or pe=){{$}}

// -----

// A field given twice
%x = "test.op"() : () -> !pto.tile<4x8xf32, mat, vec>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}'location' given twice in !pto.tile{{$}}

// -----

// Size units are B and KB
%x = "test.op"() : () -> !pto.tile<4x8xf32, size=1MB>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}size is written like 128B, 4KB or 64KB{{$}}

// -----

// RMode spellings (PTO-SPEC 3.2)
"test.op"() {a = #pto.rmode<rn>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}Expected `default`, `rne`, `rtz`, `rtm`, `rtp`, `rna`, `rto`, or `rhb`.{{$}}

// -----

// PadValue spellings (D9)
"test.op"() {a = #pto.pad<nan>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}Expected `zero`, `max`, `min`, or `null`.{{$}}

// -----

// Target profiles (D15)
"test.op"() {a = #pto.target<a3>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}Expected `a5`, or `a2a3`.{{$}}

// -----

// Op masks are 4 binary digits too (D13)
"test.op"() {a = #pto.mask<2111>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}expected a 4-digit PE mask such as 1111 or 0011 (PE0 leftmost){{$}}

// -----

// An op mask must be encodable in PEMode too (D13)
"test.op"() {a = #pto.mask<0101>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}PE mask 0101 is not encodable: the 3-bit PEMode expresses only 0000, 1000, 0100, 0010, 0001, 1100, 1110, 1111 (PTO-SPEC 2, D13){{$}}

// -----

// Unknown B.FPATR field (D11)
"test.op"() {a = #pto.fpatr<relu = 1>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}unknown B.FPATR field 'relu'; fields are ['pre_quant_mode', 'relu_mode', 'group_n_code', 'row_max_en', 'group_max_en', 'row_max_init', 'max_abs_en', 'trans_a', 'trans_b', 'cscale_en']{{$}}

// -----

// B.FPATR pre_quant_mode is a 6-bit field (PTO-SPEC 3.3)
"test.op"() {a = #pto.fpatr<pre_quant_mode = 64>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}B.FPATR pre_quant_mode = 64 does not fit its 6-bit field (PTO-SPEC 3.3){{$}}

// -----

// B.FPATR relu_mode is a 3-bit field (PTO-SPEC 3.3)
"test.op"() {a = #pto.fpatr<relu_mode = 8>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}B.FPATR relu_mode = 8 does not fit its 3-bit field (PTO-SPEC 3.3){{$}}

// -----

// B.FPATR group_n_code is a 4-bit field (PTO-SPEC 3.3)
"test.op"() {a = #pto.fpatr<group_n_code = 16>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}B.FPATR group_n_code = 16 does not fit its 4-bit field (PTO-SPEC 3.3){{$}}

// -----

// B.FPATR row_max_en is a 1-bit field (PTO-SPEC 3.3)
"test.op"() {a = #pto.fpatr<row_max_en = 2>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}B.FPATR row_max_en = 2 does not fit its 1-bit field (PTO-SPEC 3.3){{$}}

// -----

// B.FPATR cscale_en is a 1-bit field (PTO-SPEC 3.3)
"test.op"() {a = #pto.fpatr<cscale_en = 2>} : () -> ()
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}B.FPATR cscale_en = 2 does not fit its 1-bit field (PTO-SPEC 3.3){{$}}

// -----

// A CUBE layout outside location mat is not a legal descriptor, so no TLOAD/TSTORE CUBE
// conversion or CUBE op can name one (asl/tile/model/legality/descriptor-shape.asl
// TileCubeDescriptorLegal; AVS CUBE-LOCATION-003, BLOCK-TSTORE-CUBE-DESCRIPTOR-004)
%x = "test.op"() : () -> !pto.tile<16x16xf32, cube_m16, vec>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_m16 tiles live in location mat, got vec (asl/tile/model/legality/descriptor-shape.asl TileCubeDescriptorLegal){{$}}

// -----

// The default location any is not a CUBE location either
%x = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8>
// CHECK: {{^.*}}invalid_types.mlir:{{[0-9]+}}:{{[0-9]+}}{{$}}
// CHECK: {{^ *}}[TileLegality] invalid !pto.tile: cube_n8 tiles live in location mat, got any (asl/tile/model/legality/descriptor-shape.asl TileCubeDescriptorLegal){{$}}
