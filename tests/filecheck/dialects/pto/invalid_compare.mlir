// Static legality of TCMP / TCMPS / TSEL / TSELS and !pto.pred (D16): one negative case per
// rule (asl/tile/model/legality/operand-schema.asl, execution/comparison.asl,
// legality/descriptor-shape.asl).
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// TCMP: source type outside TileCompareDataTypeSupported
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%p = pto.tcmp %a, %a : (!pto.tile<16x16xf8E8M0FNU>, !pto.tile<16x16xf8E8M0FNU>) -> !pto.pred<16x16, size=256B>
// CHECK: {{^}}'pto.tcmp' op [TileLegality] lhs: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (TileCompareDataTypeSupported, asl/tile/model/execution/comparison.asl){{$}}

// -----

// TCMP: the destination is a numeric tile, not predicate storage
%a = "test.op"() : () -> !pto.tile<8x16xsi32>
%p = pto.tcmp %a, %a : (!pto.tile<8x16xsi32>, !pto.tile<8x16xsi32>) -> !pto.tile<8x16xsi32>
// CHECK: {{^}}'pto.tcmp' op [TileLegality] result: the destination must be a predicate tile (!pto.pred), got !pto.tile<8x16xsi32> (TileStorage_Predicate, TileOperandsLegal_ExecuteTileCompare){{$}}

// -----

// TCMP: predicate geometry differs from the source's (TileLogicalShapeMatch)
%a = "test.op"() : () -> !pto.tile<8x16xsi32>
%p = pto.tcmp %a, %a : (!pto.tile<8x16xsi32>, !pto.tile<8x16xsi32>) -> !pto.pred<8x16, valid=8x10>
// CHECK: {{^}}'pto.tcmp' op [TileLegality] result: predicate shape 8x16 valid 8x10 differs from lhs's 8x16 valid 8x16 (TileLogicalShapeMatch, asl/tile/model/legality/operand-schema.asl){{$}}

// -----

// TCMP: the predicate is held by other PEs than the op's mask
%a = "test.op"() : () -> !pto.tile<8x16xsi32>
%p = pto.tcmp %a, %a : (!pto.tile<8x16xsi32>, !pto.tile<8x16xsi32>) -> !pto.pred<8x16, pe=1000>
// CHECK: {{^}}'pto.tcmp' op [TileLegality] result: held by PEs 1000 but the op's mask is 1111; all bindings share one mask (PTO-SPEC 2, D13){{$}}

// -----

// TCMP: sources differ (TileShapeAndTypeMatch)
%a = "test.op"() : () -> !pto.tile<8x16xsi32>
%b = "test.op"() : () -> !pto.tile<8x16xui32>
%p = pto.tcmp %a, %b : (!pto.tile<8x16xsi32>, !pto.tile<8x16xui32>) -> !pto.pred<8x16>
// CHECK: {{^}}'pto.tcmp' op [TileLegality] rhs: element type ui32 differs from lhs's si32; lhs and rhs must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// TCMPS: the scalar is neither an i64 word nor the tile's float type
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%s = "test.op"() : () -> f16
%p = pto.tcmps %a, %s : (!pto.tile<8x16xf32>, f16) -> !pto.pred<8x16>
// CHECK: {{^}}'pto.tcmps' op [TileLegality] scalar: scalar type f16 must be i64 (a raw GPR word) or f32 (PTO-SPEC 5, TileRawElementValue){{$}}

// -----

// TCMPS: a numeric destination (AVS TCMPS-MASK-001)
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%s = "test.op"() : () -> i64
%p = pto.tcmps %a, %s : (!pto.tile<8x16xf32>, i64) -> !pto.tile<8x16xf32>
// CHECK: {{^}}'pto.tcmps' op [TileLegality] result: the destination must be a predicate tile (!pto.pred), got !pto.tile<8x16xf32> (TileStorage_Predicate, TileOperandsLegal_ExecuteTileCompare){{$}}

// -----

// TSEL: an ordinary numeric tile as the mask (AVS TSEL-MASK-001)
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%d = pto.tsel %a, %a, %a : (!pto.tile<8x16xf32>, !pto.tile<8x16xf32>, !pto.tile<8x16xf32>) -> !pto.tile<8x16xf32>
// CHECK: {{^}}'pto.tsel' op [TileLegality] predicate: an ordinary tile is not a legal mask; it must be a predicate tile (!pto.pred), got !pto.tile<8x16xf32> (TilePredicateValuesLegal, TileOperandsLegal_ExecuteTileSelect){{$}}

// -----

// TSEL: data type outside TileSelectDataTypeSupported
%p = "test.op"() : () -> !pto.pred<16x16, size=256B>
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%d = pto.tsel %p, %a, %a : (!pto.pred<16x16, size=256B>, !pto.tile<16x16xf8E8M0FNU>, !pto.tile<16x16xf8E8M0FNU>) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.tsel' op [TileLegality] on_true: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (TileSelectDataTypeSupported, asl/tile/model/execution/comparison.asl){{$}}

// -----

// TSEL: mask geometry differs from the data tiles'
%p = "test.op"() : () -> !pto.pred<8x16, valid=4x16>
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%d = pto.tsel %p, %a, %a : (!pto.pred<8x16, valid=4x16>, !pto.tile<8x16xf32>, !pto.tile<8x16xf32>) -> !pto.tile<8x16xf32>
// CHECK: {{^}}'pto.tsel' op [TileLegality] predicate: predicate shape 8x16 valid 4x16 differs from on_true's 8x16 valid 8x16 (TileLogicalShapeMatch, asl/tile/model/legality/operand-schema.asl){{$}}

// -----

// TSEL: the destination differs from the sources
%p = "test.op"() : () -> !pto.pred<8x16>
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%d = pto.tsel %p, %a, %a : (!pto.pred<8x16>, !pto.tile<8x16xf32>, !pto.tile<8x16xf32>) -> !pto.tile<8x16xsi32>
// CHECK: {{^}}'pto.tsel' op [TileLegality] result: element type si32 differs from on_true's f32; on_true, on_false and result must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// TSELS: a numeric mask
%a = "test.op"() : () -> !pto.tile<8x16xf32>
%s = "test.op"() : () -> i64
%d = pto.tsels %a, %a, %s : (!pto.tile<8x16xf32>, !pto.tile<8x16xf32>, i64) -> !pto.tile<8x16xf32>
// CHECK: {{^}}'pto.tsels' op [TileLegality] predicate: an ordinary tile is not a legal mask; it must be a predicate tile (!pto.pred), got !pto.tile<8x16xf32> (TilePredicateValuesLegal, TileOperandsLegal_ExecuteTileSelect){{$}}

// -----

// TSELS: scalar type
%p = "test.op"() : () -> !pto.pred<8x16>
%a = "test.op"() : () -> !pto.tile<8x16xsi32>
%s = "test.op"() : () -> f32
%d = pto.tsels %p, %a, %s : (!pto.pred<8x16>, !pto.tile<8x16xsi32>, f32) -> !pto.tile<8x16xsi32>
// CHECK: {{^}}'pto.tsels' op [TileLegality] scalar: scalar type f32 must be i64 (a raw GPR word) (PTO-SPEC 5, TileRawElementValue){{$}}

// -----

// !pto.pred: packed bits exceed the capacity (PredicateTileStorageBytes)
%p = "test.op"() : () -> !pto.pred<64x128, size=128B>
// CHECK: [TileLegality] invalid !pto.pred: 64x128 predicate bits need 1024 B, more than the capacity 128 B (PredicateTileStorageBytes)

// -----

// !pto.pred: more elements than the U8 element capacity (TileDescriptorConfigured)
%p = "test.op"() : () -> !pto.pred<16x16, size=128B>
// CHECK: [TileLegality] invalid !pto.pred: 16x16 = 256 elements exceed the capacity's U8 element count 128 (TileDescriptorConfigured, TileLogicalElementCapacity)

// -----

// !pto.pred: valid shape beyond the physical shape; capacity not a TSize
%p = "test.op"() : () -> !pto.pred<8x16, valid=9x16, size=100B>
// CHECK: [TileLegality] invalid !pto.pred: valid shape 9x16 exceeds physical shape 8x16 (PTO-SPEC 2); capacity 100 B is not a local TSize (128 B * 2^(code-1), code 1..10; PTO-SPEC 2, D14)

// -----

// pto.cmpsel: signless integers need signed/unsigned for the comparison
%a = "test.op"() : () -> tensor<64xi32>
%r = pto.cmpsel lt %a, %a, %a, %a : (tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
// CHECK: {{^}}'pto.cmpsel' op [TileLegality] lhs: element type i32 is not supported by TCMP (the TileCompareDataTypeSupported types; signless integers need signed/unsigned) (docs/predicates.md){{$}}

// -----

// pto.cmpsel: shapes differ
%a = "test.op"() : () -> tensor<64xf32>
%t = "test.op"() : () -> tensor<32xf32>
%r = pto.cmpsel lt %a, %a, %t, %t : (tensor<64xf32>, tensor<64xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
// CHECK: {{^}}'pto.cmpsel' op [TileLegality] on_true: shape tensor<32xf32> differs from lhs's (docs/predicates.md){{$}}

// -----

// pto.cmpsel: on_false's type differs from on_true's
%a = "test.op"() : () -> tensor<64xf32>
%t = "test.op"() : () -> tensor<64xf16>
%r = pto.cmpsel lt %a, %a, %a, %t : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf16>) -> tensor<64xf32>
// CHECK: {{^}}'pto.cmpsel' op [TileLegality] on_false must have on_true's type (docs/predicates.md){{$}}

// -----

// pto.cmpsel: a scalar of the wrong type
%a = "test.op"() : () -> tensor<64xf32>
%s = "test.op"() : () -> f16
%r = pto.cmpsel lt %a, %s, %a, %a : (tensor<64xf32>, f16, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
// CHECK: {{^}}'pto.cmpsel' op [TileLegality] rhs: scalar type f16 must be i64 (a raw word) or the element's float type (docs/predicates.md){{$}}

// -----

// pto.cmpsel: the selected type is not in TileSelectDataTypeSupported
%a = "test.op"() : () -> tensor<64xf32>
%t = "test.op"() : () -> tensor<64xi1>
%r = pto.cmpsel lt %a, %a, %t, %t : (tensor<64xf32>, tensor<64xf32>, tensor<64xi1>, tensor<64xi1>) -> tensor<64xi1>
// CHECK: {{^}}'pto.cmpsel' op [TileLegality] on_true: element type i1 is not supported by TSEL (TileSelectDataTypeSupported) (docs/predicates.md){{$}}
