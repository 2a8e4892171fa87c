// Static legality of the format-conversion family (TCVT, TQUANT, TDEQUANT; D16): one
// negative case per rule (asl/tile/model/legality/operand-schema.asl, the catalog contracts).
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// TCVT: source and result valid shapes differ (TileOperandsLegal_TCVT)
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%d = "pto.tcvt"(%a) : (!pto.tile<8x16xf32>) -> !pto.tile<8x16xf16, valid=4x16>
// CHECK: {{^}}'pto.tcvt' op [TileLegality] result: valid shape 4x16 must equal the source's 8x16 (asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// TCVT: source and result physical shapes differ (equal Row and Col)
%a = "test.op"() : () -> !pto.tile<8x16xf32, valid=8x8>
%d = "pto.tcvt"(%a) : (!pto.tile<8x16xf32, valid=8x8>) -> !pto.tile<8x8xf16>
// CHECK: {{^}}'pto.tcvt' op [TileLegality] result: shape 8x8 must equal the source's 8x16 (equal Row and Col) (TileOperandsLegal_TCVT, asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// TCVT: an E8M0 destination takes only FP16, BF16, FP32 (HardwareTCVTTypePairSupported)
%a = "test.op"() : () -> !pto.tile<16x8xf8E4M3FN>
%d = "pto.tcvt"(%a) : (!pto.tile<16x8xf8E4M3FN>) -> !pto.tile<16x8xf8E8M0FNU>
// CHECK: {{^}}'pto.tcvt' op [TileLegality] src: an E8M0 destination takes FP16, BF16 or FP32 sources, not E4M3 (HardwareTCVTTypePairSupported, asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// TCVT: no B.DATR Layout maps col_major to col_major (TileDataLayoutSourceLayout)
%a = "test.op"() : () -> !pto.tile<8x16xf32, col_major>
%d = "pto.tcvt"(%a) : (!pto.tile<8x16xf32, col_major>) -> !pto.tile<8x16xf16, col_major>
// CHECK: {{^}}'pto.tcvt' op [TileLegality] result: no B.DATR Layout transforms col_major into col_major (TileDataLayoutSourceLayout, asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// TCVT: a CUBE (location mat) source is canonicalized with NORM: row_major tiles only
%a = "test.op"() : () -> !pto.tile<8x16xf32, mat>
%d = "pto.tcvt"(%a) : (!pto.tile<8x16xf32, mat>) -> !pto.tile<8x16xf16, col_major>
// CHECK: {{^}}'pto.tcvt' op [TileLegality] src: a private CUBE (location mat) source is canonicalized with Layout NORM: both tiles row_major (TileOperandsLegal_TCVT, asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// TCVT: every binding shares the op's PE mask (D13)
%a = "test.op"() : () -> !pto.tile<8x16xf32, pe=0001>
%d = "pto.tcvt"(%a) : (!pto.tile<8x16xf32, pe=0001>) -> !pto.tile<8x16xf16, pe=0001>
// CHECK: {{^}}'pto.tcvt' op [TileLegality] src: held by PEs 0001 but the op's mask is 1111; all bindings share one mask (PTO-SPEC 2, D13){{$}}

// -----

// TCVT: takes no scalar operand (closed TCVT schema)
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%s = "test.op"() : () -> i64
%d = "pto.tcvt"(%a, %s) : (!pto.tile<8x16xf32>, i64) -> !pto.tile<8x16xf16>
// CHECK: {{^}}'pto.tcvt' op [TileLegality] scalars: TCVT takes no scalar operand(s) (none), got 1 (asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// TCVT: operands are Local tiles
%a = "test.op"() : () -> !pto.tile<8x16xf32, shared>
%d = "pto.tcvt"(%a) : (!pto.tile<8x16xf32, shared>) -> !pto.tile<8x16xf16>
// CHECK: {{^}}'pto.tcvt' op [TileLegality] src: operands are Local tiles, got shared (asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// TQUANT: the source is FP32 (InstructionContractDataTypesLegal_TQUANT)
%a = "test.op"() : () -> !pto.tile<8x16xf16>
%d = "pto.tquant"(%a) : (!pto.tile<8x16xf16>) -> !pto.tile<8x16xsi8, valid=8x16>
// CHECK: {{^}}'pto.tquant' op [TileLegality] src: element type f16 is not supported (allowed: FP32) (InstructionContractDataTypesLegal_TQUANT, asl/tile/irregular-and-complex/format-conversion/TQUANT.asl){{$}}

// -----

// TQUANT: the destination is S8 or U8
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%d = "pto.tquant"(%a) : (!pto.tile<8x16xf32>) -> !pto.tile<8x16xsi16>
// CHECK: {{^}}'pto.tquant' op [TileLegality] result: element type si16 must be si8 or ui8 (InstructionContractDataTypesLegal_TQUANT, asl/tile/irregular-and-complex/format-conversion/TQUANT.asl){{$}}

// -----

// TQUANT: row-major tiles only
%a = "test.op"() : () -> !pto.tile<8x16xf32, col_major>
%d = "pto.tquant"(%a) : (!pto.tile<8x16xf32, col_major>) -> !pto.tile<8x16xsi8, valid=8x16>
// CHECK: {{^}}'pto.tquant' op [TileLegality] src: layout col_major must be row_major (PTO-SPEC 2, D10, asl/tile/irregular-and-complex/format-conversion/TQUANT.asl){{$}}

// -----

// TQUANT: padding is always Null (B.DATR PadValue must be zero)
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%d = "pto.tquant"(%a) <{pad = #pto.pad<zero>}> : (!pto.tile<8x16xf32>) -> !pto.tile<8x16xsi8, valid=8x16>
// CHECK: {{^}}'pto.tquant' op [TileLegality] pad: TQUANT padding is always Null (B.DATR PadValue must be zero) (asl/tile/irregular-and-complex/format-conversion/TQUANT.asl){{$}}

// -----

// TQUANT: the zero point is an i64 word (TileQuantizationZeroPointLegal)
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%m = "test.op"() : () -> i64
%z = "test.op"() : () -> f32
%d = "pto.tquant"(%a, %m, %z) : (!pto.tile<8x16xf32>, i64, f32) -> !pto.tile<8x16xsi8, valid=8x16>
// CHECK: {{^}}'pto.tquant' op [TileLegality] zero_point: scalar type f32 must be i64 (TileQuantizationZeroPointLegal, asl/tile/irregular-and-complex/format-conversion/TQUANT.asl){{$}}

// -----

// TQUANT: B.IOR supplies both scalars or neither
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%m = "test.op"() : () -> i64
%d = "pto.tquant"(%a, %m) : (!pto.tile<8x16xf32>, i64) -> !pto.tile<8x16xsi8, valid=8x16>
// CHECK: {{^}}'pto.tquant' op [TileLegality] scalars: TQUANT takes 0 or 2 scalar operand(s) (multiplier, zero_point), got 1 (asl/tile/irregular-and-complex/format-conversion/TQUANT.asl){{$}}

// -----

// TDEQUANT: the source is S8 or U8 (InstructionContractDataTypesLegal_TDEQUANT)
%a = "test.op"() : () -> !pto.tile<8x16xsi16>
%d = "pto.tdequant"(%a) : (!pto.tile<8x16xsi16>) -> !pto.tile<8x16xf32>
// CHECK: {{^}}'pto.tdequant' op [TileLegality] src: element type si16 is not supported (allowed: S8, U8) (InstructionContractDataTypesLegal_TDEQUANT, asl/tile/irregular-and-complex/format-conversion/TDEQUANT.asl){{$}}

// -----

// TDEQUANT: the destination is FP32
%a = "test.op"() : () -> !pto.tile<8x16xsi8, valid=8x16>
%d = "pto.tdequant"(%a) : (!pto.tile<8x16xsi8, valid=8x16>) -> !pto.tile<8x16xf16>
// CHECK: {{^}}'pto.tdequant' op [TileLegality] result: element type f16 must be f32 (InstructionContractDataTypesLegal_TDEQUANT, asl/tile/irregular-and-complex/format-conversion/TDEQUANT.asl){{$}}

// -----

// TDEQUANT: takes no Sat (B.DATR Sat must be zero)
%a = "test.op"() : () -> !pto.tile<8x16xsi8, valid=8x16>
%d = "pto.tdequant"(%a) <{sat}> : (!pto.tile<8x16xsi8, valid=8x16>) -> !pto.tile<8x16xf32>
// CHECK: {{^}}'pto.tdequant' op [TileLegality] sat: TDEQUANT takes no Sat (B.DATR Sat must be zero) (asl/tile/irregular-and-complex/format-conversion/TDEQUANT.asl){{$}}

// -----

// pto.convert: source and result shapes are equal
%x = "test.op"() : () -> tensor<4x8xf32>
%r = "pto.convert"(%x) : (tensor<4x8xf32>) -> tensor<8x4xf16>
// CHECK: {{^}}'pto.convert' op [TileLegality] result: shape (8, 4) must equal the source's (4, 8) (rank >= 1) (PTO-SPEC 5, asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// pto.convert: a signless integer needs src_sign / dst_sign
%x = "test.op"() : () -> tensor<4x8xf32>
%r = "pto.convert"(%x) : (tensor<4x8xf32>) -> tensor<4x8xi32>
// CHECK: {{^}}'pto.convert' op [TileLegality] result: element type i32 has no TCVT tile type (signless integers need signed/unsigned) (PTO-SPEC 5, asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// pto.convert: the sign keyword is signed or unsigned
%x = "test.op"() : () -> tensor<4x8xf32>
%r = "pto.convert"(%x) <{dst_sign = "maybe"}> : (tensor<4x8xf32>) -> tensor<4x8xi32>
// CHECK: {{^}}'pto.convert' op [TileLegality] dst_sign: 'maybe' must be signed or unsigned (PTO-SPEC 5, asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// pto.convert: a signed or unsigned integer takes no sign keyword
%x = "test.op"() : () -> tensor<4x8xf32>
%r = "pto.convert"(%x) <{dst_sign = "signed"}> : (tensor<4x8xf32>) -> tensor<4x8xsi32>
// CHECK: {{^}}'pto.convert' op [TileLegality] dst_sign: si32 already has a signedness (PTO-SPEC 5, asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}

// -----

// pto.convert: an E8M0 destination takes only FP16, BF16, FP32 (HardwareTCVTTypePairSupported)
%x = "test.op"() : () -> tensor<4x8xf64>
%r = "pto.convert"(%x) : (tensor<4x8xf64>) -> tensor<4x8xf8E8M0FNU>
// CHECK: {{^}}'pto.convert' op [TileLegality] source: an E8M0 destination takes FP16, BF16 or FP32 sources, not FP64 (HardwareTCVTTypePairSupported, asl/tile/elementwise-tile-tile/format-conversion/TCVT.asl){{$}}
