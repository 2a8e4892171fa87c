// Static legality of the unary and tile-scalar families and TSHL/TSHR (D16): one negative
// case per op (its type set, executable ASL) and per family rule (PTO-SPEC 2, 5; D10, D13).
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// TADDS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%s = "test.op"() : () -> i64
%d = "pto.tadds"(%a, %s) : (!pto.tile<16x16xf8E8M0FNU>, i64) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.tadds' op [TileLegality] source: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TSUBS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%s = "test.op"() : () -> i64
%d = "pto.tsubs"(%a, %s) : (!pto.tile<16x16xf8E8M0FNU>, i64) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.tsubs' op [TileLegality] source: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TMULS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%s = "test.op"() : () -> i64
%d = "pto.tmuls"(%a, %s) : (!pto.tile<16x16xf8E8M0FNU>, i64) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.tmuls' op [TileLegality] source: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TDIVS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%s = "test.op"() : () -> i64
%d = "pto.tdivs"(%a, %s) : (!pto.tile<16x16xf8E8M0FNU>, i64) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.tdivs' op [TileLegality] source: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TREMS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%s = "test.op"() : () -> i64
%d = "pto.trems"(%a, %s) : (!pto.tile<16x16xf8E8M0FNU>, i64) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.trems' op [TileLegality] source: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TANDS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%s = "test.op"() : () -> i64
%d = "pto.tands"(%a, %s) : (!pto.tile<4x16xf32>, i64) -> !pto.tile<4x16xf32>
// CHECK: {{^}}'pto.tands' op [TileLegality] source: element type f32 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TORS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%s = "test.op"() : () -> i64
%d = "pto.tors"(%a, %s) : (!pto.tile<4x16xf32>, i64) -> !pto.tile<4x16xf32>
// CHECK: {{^}}'pto.tors' op [TileLegality] source: element type f32 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TXORS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%s = "test.op"() : () -> i64
%d = "pto.txors"(%a, %s) : (!pto.tile<4x16xf32>, i64) -> !pto.tile<4x16xf32>
// CHECK: {{^}}'pto.txors' op [TileLegality] source: element type f32 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TSHLS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%s = "test.op"() : () -> i64
%d = "pto.tshls"(%a, %s) : (!pto.tile<4x16xf32>, i64) -> !pto.tile<4x16xf32>
// CHECK: {{^}}'pto.tshls' op [TileLegality] source: element type f32 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TSHRS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%s = "test.op"() : () -> i64
%d = "pto.tshrs"(%a, %s) : (!pto.tile<4x16xf32>, i64) -> !pto.tile<4x16xf32>
// CHECK: {{^}}'pto.tshrs' op [TileLegality] source: element type f32 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TMAXS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%s = "test.op"() : () -> i64
%d = "pto.tmaxs"(%a, %s) : (!pto.tile<16x16xf8E8M0FNU>, i64) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.tmaxs' op [TileLegality] source: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TMINS: element type outside its set (PTO-SPEC 5, TileBinaryDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%s = "test.op"() : () -> i64
%d = "pto.tmins"(%a, %s) : (!pto.tile<16x16xf8E8M0FNU>, i64) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.tmins' op [TileLegality] source: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileBinaryDataTypeSupported){{$}}

// -----

// TABS: element type outside its set (PTO-SPEC 5, TileVecArithmeticDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%d = "pto.tabs"(%a) : (!pto.tile<16x16xf8E8M0FNU>) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.tabs' op [TileLegality] source: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileVecArithmeticDataTypeSupported){{$}}

// -----

// TNOT: element type outside its set (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%d = "pto.tnot"(%a) : (!pto.tile<4x16xf32>) -> !pto.tile<4x16xf32>
// CHECK: {{^}}'pto.tnot' op [TileLegality] source: element type f32 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported){{$}}

// -----

// TNEG: element type outside its set (PTO-SPEC 5, TileVecArithmeticDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%d = "pto.tneg"(%a) : (!pto.tile<16x16xf8E8M0FNU>) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.tneg' op [TileLegality] source: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileVecArithmeticDataTypeSupported){{$}}

// -----

// TEXP: element type outside its set (PTO-SPEC 5, TileFloatingElementwiseDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xsi32>
%d = "pto.texp"(%a) : (!pto.tile<4x16xsi32>) -> !pto.tile<4x16xsi32>
// CHECK: {{^}}'pto.texp' op [TileLegality] source: element type si32 is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, TF32) (PTO-SPEC 5, TileFloatingElementwiseDataTypeSupported){{$}}

// -----

// TLOG: element type outside its set (PTO-SPEC 5, TileFloatingElementwiseDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xsi32>
%d = "pto.tlog"(%a) : (!pto.tile<4x16xsi32>) -> !pto.tile<4x16xsi32>
// CHECK: {{^}}'pto.tlog' op [TileLegality] source: element type si32 is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, TF32) (PTO-SPEC 5, TileFloatingElementwiseDataTypeSupported){{$}}

// -----

// TRECIP: element type outside its set (PTO-SPEC 5, TileFloatingElementwiseDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xsi32>
%d = "pto.trecip"(%a) : (!pto.tile<4x16xsi32>) -> !pto.tile<4x16xsi32>
// CHECK: {{^}}'pto.trecip' op [TileLegality] source: element type si32 is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, TF32) (PTO-SPEC 5, TileFloatingElementwiseDataTypeSupported){{$}}

// -----

// TSQRT: element type outside its set (PTO-SPEC 5, TileFloatingElementwiseDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xsi32>
%d = "pto.tsqrt"(%a) : (!pto.tile<4x16xsi32>) -> !pto.tile<4x16xsi32>
// CHECK: {{^}}'pto.tsqrt' op [TileLegality] source: element type si32 is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, TF32) (PTO-SPEC 5, TileFloatingElementwiseDataTypeSupported){{$}}

// -----

// TRSQRT: element type outside its set (PTO-SPEC 5, TileFloatingElementwiseDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xsi32>
%d = "pto.trsqrt"(%a) : (!pto.tile<4x16xsi32>) -> !pto.tile<4x16xsi32>
// CHECK: {{^}}'pto.trsqrt' op [TileLegality] source: element type si32 is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, TF32) (PTO-SPEC 5, TileFloatingElementwiseDataTypeSupported){{$}}

// -----

// TRELU: element type outside its set (PTO-SPEC 5, TileVecArithmeticDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%d = "pto.trelu"(%a) : (!pto.tile<16x16xf8E8M0FNU>) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.trelu' op [TileLegality] source: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileVecArithmeticDataTypeSupported){{$}}

// -----

// TFMA: element type outside its set (PTO-SPEC 5, TileFusedMultiplyAddDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<16x16xf8E8M0FNU>
%d = "pto.tfma"(%a, %a, %a) : (!pto.tile<16x16xf8E8M0FNU>, !pto.tile<16x16xf8E8M0FNU>, !pto.tile<16x16xf8E8M0FNU>) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.tfma' op [TileLegality] lhs: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TileFusedMultiplyAddDataTypeSupported){{$}}

// -----

// TEXPANDS: element type outside its set (PTO-SPEC 5, TEXPANDS.asl)
%s = "test.op"() : () -> i64
%d = "pto.texpands"(%s) : (i64) -> !pto.tile<16x16xf8E8M0FNU>
// CHECK: {{^}}'pto.texpands' op [TileLegality] result: element type f8E8M0FNU is not supported (allowed: BF16, E4M3, E5M2, FP16, FP32, FP64, HF32, S16, S32, S64, S8, TF32, U16, U32, U64, U8) (PTO-SPEC 5, TEXPANDS.asl){{$}}

// -----

// TSHL: element type outside its set (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%d = "pto.tshl"(%a, %a) : (!pto.tile<4x16xf32>, !pto.tile<4x16xf32>) -> !pto.tile<4x16xf32>
// CHECK: {{^}}'pto.tshl' op [TileLegality] lhs: element type f32 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported){{$}}

// -----

// TSHR: element type outside its set (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported)
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%d = "pto.tshr"(%a, %a) : (!pto.tile<4x16xf32>, !pto.tile<4x16xf32>) -> !pto.tile<4x16xf32>
// CHECK: {{^}}'pto.tshr' op [TileLegality] lhs: element type f32 is not supported (allowed: S16, S32, S64, S8, U16, U32, U64, U8) (PTO-SPEC 5, TileVecScalarIntegerDataTypeSupported){{$}}

// -----

// tile-scalar: scalar type neither i64 nor the tile's float type
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%s = "test.op"() : () -> f16
%d = "pto.tadds"(%a, %s) : (!pto.tile<4x16xf32>, f16) -> !pto.tile<4x16xf32>
// CHECK: {{^}}'pto.tadds' op [TileLegality] scalar: scalar type f16 must be i64 (a raw GPR word) or f32 (PTO-SPEC 5, TileRawElementValue){{$}}

// -----

// tile-scalar: an integer tile's scalar is an i64 raw word
%a = "test.op"() : () -> !pto.tile<4x16xsi32>
%s = "test.op"() : () -> i32
%d = "pto.tands"(%a, %s) : (!pto.tile<4x16xsi32>, i32) -> !pto.tile<4x16xsi32>
// CHECK: {{^}}'pto.tands' op [TileLegality] scalar: scalar type i32 must be i64 (a raw GPR word) (PTO-SPEC 5, TileRawElementValue){{$}}

// -----

// tile-scalar: result shape differs from the source
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%s = "test.op"() : () -> i64
%d = "pto.tadds"(%a, %s) : (!pto.tile<4x16xf32>, i64) -> !pto.tile<4x16xf32, valid=2x16>
// CHECK: {{^}}'pto.tadds' op [TileLegality] result: valid shape 2x16 differs from source's 4x16; source and result must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// unary: result element type differs
%a = "test.op"() : () -> !pto.tile<4x16xf32>
%d = "pto.tlog"(%a) : (!pto.tile<4x16xf32>) -> !pto.tile<8x16xf16>
// CHECK: {{^}}'pto.tlog' op [TileLegality] result: element type f16 differs from source's f32; source and result must match exactly (PTO-SPEC 5, D10){{$}}

// -----

// unary: layout must be row_major (D10)
%a = "test.op"() : () -> !pto.tile<16x4xf32, col_major>
%d = "pto.tlog"(%a) : (!pto.tile<16x4xf32, col_major>) -> !pto.tile<16x4xf32, col_major>
// CHECK: {{^}}'pto.tlog' op [TileLegality] source: layout col_major must be row_major (PTO-SPEC 5, D10){{$}}

// -----

// unary: Local tiles only
%a = "test.op"() : () -> !pto.tile<4x16xf32, shared>
%d = "pto.tlog"(%a) : (!pto.tile<4x16xf32, shared>) -> !pto.tile<4x16xf32, shared>
// CHECK: {{^}}'pto.tlog' op [TileLegality] source: operands are Local tiles, got shared (PTO-SPEC 5){{$}}

// -----

// unary: tile PEs differ from the op mask (D13)
%a = "test.op"() : () -> !pto.tile<4x16xf32, pe=1100>
%d = "pto.tlog"(%a) : (!pto.tile<4x16xf32, pe=1100>) -> !pto.tile<4x16xf32, pe=1100>
// CHECK: {{^}}'pto.tlog' op [TileLegality] source: held by PEs 1100 but the op's mask is 1111; all bindings share one mask (PTO-SPEC 2, D13){{$}}
