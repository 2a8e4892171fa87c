// Static legality of pto.tload / pto.tstore on packed 4-bit GM (docs/dialect.md "Packed 4-bit
// GM") and with a row_stride: one negative case per rule.
// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Only a signless i8 tensor holds packed bytes: ui8 is not a packed 4-bit GM tensor
%gm = "test.op"() : () -> tensor<2x4xui8>
%i = "test.op"() : () -> index
%t = pto.tload %gm[%i, %i] : tensor<2x4xui8> -> !pto.tile<64x4xui4, valid=2x2>
// CHECK: {{^}}'pto.tload' op [TileLegality] element types differ: source ui8 vs tile ui4 (a packed 4-bit tile also moves to or from an i8 byte tensor) (docs/dialect.md){{$}}

// -----

// A byte tensor holds packed X2 elements only: an 8-bit tile keeps the ordinary element rule
%gm = "test.op"() : () -> tensor<2x4xi8>
%i = "test.op"() : () -> index
%t = pto.tload %gm[%i, %i] : tensor<2x4xi8> -> !pto.tile<32x4xf8E4M3FN, valid=2x2>
// CHECK: {{^}}'pto.tload' op [TileLegality] element types differ: source i8 vs tile f8E4M3FN (docs/dialect.md){{$}}

// -----

// A valid row of 5 packed elements (on each of the four PEs) covers ceil(5/2) = 3 bytes: it does not fit 2 byte columns
%gm = "test.op"() : () -> tensor<2x2xi8>
%i = "test.op"() : () -> index
%t = pto.tload %gm[%i, %i] : tensor<2x2xi8> -> !pto.tile<64x8xsi4, valid=2x5>
// CHECK: {{^}}'pto.tload' op [TileLegality] dimension 1: 4 PE slice(s) of 3 with stride 0 exceed the source's extent 2 (docs/dialect.md){{$}}

// -----

// The column pe_stride counts bytes: two PE slices of 2 bytes, 2 bytes apart, need 4 columns
%gm = "test.op"() : () -> tensor<2x3xi8>
%t = "test.op"() : () -> !pto.tile<64x4x!pto.hif4x2, valid=2x4, pe=1100>
%i = "test.op"() : () -> index
%r = pto.tstore %t, %gm[%i, %i] {pe_stride = [0, 2]} : !pto.tile<64x4x!pto.hif4x2, valid=2x4, pe=1100> -> tensor<2x3xi8>
// CHECK: {{^}}'pto.tstore' op [TileLegality] dimension 1: 2 PE slice(s) of 2 with stride 2 exceed the destination's extent 3 (docs/dialect.md){{$}}

// -----

// Constant offsets: byte column 3 + 1 byte (two elements) lies outside 3 byte columns
%gm = "test.op"() : () -> tensor<2x3xi8>
%c0 = arith.constant 0 : index
%c3 = arith.constant 3 : index
%t = pto.tload %gm[%c0, %c3] : tensor<2x3xi8> -> !pto.tile<64x4x!pto.e1m2x2, valid=2x2>
// CHECK: {{^}}'pto.tload' op [TileLegality] offset 1 = 3: the PE slice(s) [3, 4) lie outside the source's extent 3 (docs/dialect.md){{$}}

// -----

// Two PEs (pe=1100) at column stride 16: the second PE's slice [49, 65) ends beyond the 64
// columns (the first one's [33, 49) does not); at offset 32 both fit (tests/dialect/
// test_mutants_verifiers.py)
%gm = "test.op"() : () -> tensor<2x64xf32>
%c0 = arith.constant 0 : index
%c33 = arith.constant 33 : index
%t = pto.tload %gm[%c0, %c33] {pe_stride = [0, 16]} : tensor<2x64xf32> -> !pto.tile<1x32xf32, valid=1x16, pe=1100>
// CHECK: {{^}}'pto.tload' op [TileLegality] offset 1 = 33: the PE slice(s) [33, 65) lie outside the source's extent 64 (docs/dialect.md){{$}}

// -----

// A signless tensor moves to a signed / unsigned tile of its own width only (i32 -> si32
// verifies: tests/dialect/test_mutants_verifiers.py)
%gm = "test.op"() : () -> tensor<8x16xi16>
%i = "test.op"() : () -> index
%t = pto.tload %gm[%i, %i] : tensor<8x16xi16> -> !pto.tile<8x16xsi32, valid=4x16>
// CHECK: {{^}}'pto.tload' op [TileLegality] element types differ: source i16 vs tile si32 (docs/dialect.md){{$}}

// -----

// row_stride counts tensor rows between tile rows: it is not negative
%gm = "test.op"() : () -> tensor<4x4xf32>
%i = "test.op"() : () -> index
%t = pto.tload %gm[%i, %i] {row_stride = -1} : tensor<4x4xf32> -> !pto.tile<8x4xf32, valid=2x4>
// CHECK: {{^}}'pto.tload' op [TileLegality] row_stride -1 is negative (tensor rows between tile rows: 0 or more) (docs/dialect.md){{$}}

// -----

// 3 rows at row_stride 2 span 5 tensor rows
%gm = "test.op"() : () -> tensor<4x4xf32>
%t = "test.op"() : () -> !pto.tile<8x4xf32, valid=3x4, pe=1000>
%i = "test.op"() : () -> index
%r = pto.tstore %t, %gm[%i, %i] {row_stride = 2} : !pto.tile<8x4xf32, valid=3x4, pe=1000> -> tensor<4x4xf32>
// CHECK: {{^}}'pto.tstore' op [TileLegality] dimension 0: 1 PE slice(s) of 5 with stride 0 exceed the destination's extent 4 (docs/dialect.md){{$}}

// -----

// Two index offsets, one per dimension of the 2-D tensor: three is refused
%gm = "test.op"() : () -> tensor<2x4xf32>
%i = "test.op"() : () -> index
%t = "pto.tload"(%gm, %i, %i, %i) <{pe_stride = array<i64: 0, 0>, pad = #pto.pad<null>}> : (tensor<2x4xf32>, index, index, index) -> !pto.tile<32x4xf32, valid=2x2>
// CHECK: {{^}}'pto.tload' op [TileLegality] takes exactly two index offsets (docs/dialect.md){{$}}

// -----

// The GM side of a move is a 2-D tensor: a 3-D source is refused
%gm = "test.op"() : () -> tensor<1x2x4xf32>
%i = "test.op"() : () -> index
%t = "pto.tload"(%gm, %i, %i) <{pe_stride = array<i64: 0, 0>, pad = #pto.pad<null>}> : (tensor<1x2x4xf32>, index, index) -> !pto.tile<32x4xf32, valid=2x2>
// CHECK: {{^}}'pto.tload' op [TileLegality] source must be a 2-D ranked tensor, got tensor<1x2x4xf32> (docs/dialect.md){{$}}

// -----

// ... and so is a 3-D destination of pto.tstore
%gm = "test.op"() : () -> tensor<1x2x4xf32>
%i = "test.op"() : () -> index
%t = "test.op"() : () -> !pto.tile<32x4xf32, valid=2x2>
%r = "pto.tstore"(%t, %gm, %i, %i) <{pe_stride = array<i64: 0, 0>}> : (!pto.tile<32x4xf32, valid=2x2>, tensor<1x2x4xf32>, index, index) -> tensor<1x2x4xf32>
// CHECK: {{^}}'pto.tstore' op [TileLegality] destination must be a 2-D ranked tensor, got tensor<1x2x4xf32> (docs/dialect.md){{$}}

// -----

// pe_stride: two non-negative integers (a negative one is refused; 0 is legal, ops_data_movement.mlir)
%gm = "test.op"() : () -> tensor<2x4xf32>
%i = "test.op"() : () -> index
%t = "pto.tload"(%gm, %i, %i) <{pe_stride = array<i64: 0, -1>, pad = #pto.pad<null>}> : (tensor<2x4xf32>, index, index) -> !pto.tile<32x4xf32, valid=2x2>
// CHECK: {{^}}'pto.tload' op [TileLegality] pe_stride holds two non-negative integers (docs/dialect.md){{$}}

// -----

// ... and exactly two
%gm = "test.op"() : () -> tensor<2x4xf32>
%i = "test.op"() : () -> index
%t = "pto.tload"(%gm, %i, %i) <{pe_stride = array<i64: 0, 0, 0>, pad = #pto.pad<null>}> : (tensor<2x4xf32>, index, index) -> !pto.tile<32x4xf32, valid=2x2>
// CHECK: {{^}}'pto.tload' op [TileLegality] pe_stride holds two non-negative integers (docs/dialect.md){{$}}
