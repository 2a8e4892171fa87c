// Static legality of the tensor-level reductions, expansions, transposes, gathers and sorts
// (pto.reduce, pto.expand, pto.transpose, pto.gather, pto.sort).
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// Unknown kind
%x = "test.op"() : () -> tensor<4x6xf32>
%s = pto.reduce rowmean %x : (tensor<4x6xf32>) -> tensor<4x1xf32>
// CHECK: {{^ *}}unknown pto.reduce kind 'rowmean' (expected one of rowsum, rowmax, {{.*}}, colargmin){{$}}

// -----

// Row reduction result shape Mx1
%x = "test.op"() : () -> tensor<4x6xf32>
%s = pto.reduce rowsum %x : (tensor<4x6xf32>) -> tensor<1x6xf32>
// CHECK: {{^}}'pto.reduce' op [TileLegality] result: shape 1x6 must be 4x1 (asl/tile/reduce-and-expand/row-reduction/TROWSUM.asl){{$}}

// -----

// Reduction result element type is the input's
%x = "test.op"() : () -> tensor<4x6xf32>
%s = pto.reduce colmax %x : (tensor<4x6xf32>) -> tensor<1x6xf16>
// CHECK: {{^}}'pto.reduce' op [TileLegality] result: element type f16 must be the input's (asl/tile/reduce-and-expand/column-reduction/TCOLMAX.asl){{$}}

// -----

// Arg reductions give 32-bit integer indices
%x = "test.op"() : () -> tensor<4x6xf32>
%s = pto.reduce rowargmin %x : (tensor<4x6xf32>) -> tensor<4x1xi16>
// CHECK: {{^}}'pto.reduce' op [TileLegality] result: index element type i16 must be i32, si32 or ui32 (asl/tile/reduce-and-expand/row-reduction/TROWARGMIN.asl){{$}}

// -----

// Signless integers need a signedness
%i = "test.op"() : () -> tensor<4x6xi32>
%s = pto.reduce rowmax %i : (tensor<4x6xi32>) -> tensor<4x1xi32>
// CHECK: {{^}}'pto.reduce' op [TileLegality] input: signless i32 needs 'signed' or 'unsigned' (PTO-SPEC 5){{$}}

// -----

// Element type outside the arg-reduction set (FP64)
%d = "test.op"() : () -> tensor<4x6xf64>
%s = pto.reduce rowargmax %d : (tensor<4x6xf64>) -> tensor<4x1xi32>
// CHECK: {{^}}'pto.reduce' op [TileLegality] input: element type f64 is not supported (allowed: BF16, FP16, FP32, S16, S32, S8, U16, U32, U8) (PTO-SPEC 5){{$}}

// -----

// Inputs are static 2-D tensors
%v = "test.op"() : () -> tensor<24xf32>
%s = pto.reduce rowsum %v : (tensor<24xf32>) -> tensor<24x1xf32>
// CHECK: {{^}}'pto.reduce' op [TileLegality] input must be a static 2-D tensor, got tensor<24xf32> (PTO-SPEC 5){{$}}

// -----

// Row broadcast shape Mx1
%x = "test.op"() : () -> tensor<4x6xf32>
%b = "test.op"() : () -> tensor<1x6xf32>
%y = pto.expand row add %x, %b : (tensor<4x6xf32>, tensor<1x6xf32>) -> tensor<4x6xf32>
// CHECK: {{^}}'pto.expand' op [TileLegality] broadcast: shape 1x6 must be 4x1 (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDADD.asl){{$}}

// -----

// Expansion operand count
%x = "test.op"() : () -> tensor<4x6xf32>
%y = pto.expand col mul %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK: {{^}}'pto.expand' op [TileLegality] operands: col mul takes 2 tensor(s), got 1 (asl/tile/reduce-and-expand/column-expansion/TCOLEXPANDMUL.asl){{$}}

// -----

// Broadcast element type is the input's
%x = "test.op"() : () -> tensor<4x6xf32>
%b = "test.op"() : () -> tensor<4x1xf16>
%y = pto.expand row min %x, %b : (tensor<4x6xf32>, tensor<4x1xf16>) -> tensor<4x6xf32>
// CHECK: {{^}}'pto.expand' op [TileLegality] broadcast: element type must be the input's (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDMIN.asl){{$}}

// -----

// EXPDIF type pair
%x = "test.op"() : () -> tensor<4x6xf32>
%b = "test.op"() : () -> tensor<4x1xf32>
%y = pto.expand row expdif %x, %b : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf16>
// CHECK: {{^}}'pto.expand' op [TileLegality] result: (FP32,FP16) is not an EXPDIF type pair (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDEXPDIF.asl){{$}}

// -----

// Transpose result shape is the source's transposed
%x = "test.op"() : () -> tensor<4x6xf32>
%t = pto.transpose %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK: {{^}}'pto.transpose' op [TileLegality] result: shape 4x6 must be 6x4 (the source's transposed) (asl/tile/layout-and-rearrangement/layout/TTRANS.asl){{$}}

// -----

// Transpose keeps the element type
%x = "test.op"() : () -> tensor<4x6xf32>
%t = pto.transpose %x : (tensor<4x6xf32>) -> tensor<6x4xf16>
// CHECK: {{^}}'pto.transpose' op [TileLegality] result: element type must be the source's (asl/tile/layout-and-rearrangement/layout/TTRANS.asl){{$}}

// -----

// Transpose takes static 2-D tensors
%x = "test.op"() : () -> tensor<2x4x6xf32>
%t = pto.transpose %x : (tensor<2x4x6xf32>) -> tensor<6x4x2xf32>
// CHECK: {{^}}'pto.transpose' op [TileLegality] source must be a static 2-D tensor, got tensor<2x4x6xf32> (asl/tile/layout-and-rearrangement/layout/TTRANS.asl){{$}}

// -----

// Transpose element types are TTRANS's
%x = "test.op"() : () -> tensor<4x6xi1>
%t = pto.transpose %x : (tensor<4x6xi1>) -> tensor<6x4xi1>
// CHECK: {{^}}'pto.transpose' op [TileLegality] source: element type i1 is not supported by TTRANS (asl/tile/layout-and-rearrangement/layout/TTRANS.asl){{$}}

// -----

// Gather takes static 2-D tensors
%t = "test.op"() : () -> tensor<2x6x8xf32>
%i = "test.op"() : () -> tensor<4x8xi64>
%g = pto.gather %t, %i : (tensor<2x6x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
// CHECK: {{^}}'pto.gather' op [TileLegality] table must be a static 2-D tensor, got tensor<2x6x8xf32> (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// Gather keeps the table's element type
%t = "test.op"() : () -> tensor<6x8xf32>
%i = "test.op"() : () -> tensor<4x8xi64>
%g = pto.gather %t, %i : (tensor<6x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf16>
// CHECK: {{^}}'pto.gather' op [TileLegality] result: element type must be the table's (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// Gather value types are TGATHER's
%t = "test.op"() : () -> tensor<6x8xi1>
%i = "test.op"() : () -> tensor<4x8xi64>
%g = pto.gather %t, %i : (tensor<6x8xi1>, tensor<4x8xi64>) -> tensor<4x8xi1>
// CHECK: {{^}}'pto.gather' op [TileLegality] table: element type i1 is not supported by TGATHER (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// Gather indices are row-index integers
%t = "test.op"() : () -> tensor<6x8xf32>
%i = "test.op"() : () -> tensor<4x8xf32>
%g = pto.gather %t, %i : (tensor<6x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: {{^}}'pto.gather' op [TileLegality] index: element type f32 is not a row-index type (i16, i32, i64) (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// Gather result has the index's shape
%t = "test.op"() : () -> tensor<6x8xf32>
%i = "test.op"() : () -> tensor<4x8xi64>
%g = pto.gather %t, %i : (tensor<6x8xf32>, tensor<4x8xi64>) -> tensor<4x4xf32>
// CHECK: {{^}}'pto.gather' op [TileLegality] result: shape must be the index's (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// Gather reads at most the table's columns
%t = "test.op"() : () -> tensor<6x4xf32>
%i = "test.op"() : () -> tensor<4x8xi64>
%g = pto.gather %t, %i : (tensor<6x4xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
// CHECK: {{^}}'pto.gather' op [TileLegality] table: 4 columns are fewer than the result's 8 (asl/tile/irregular-and-complex/layout/TGATHER.asl){{$}}

// -----

// Sort takes FP32 or FP16
%x = "test.op"() : () -> tensor<4x8xi32>
%s = pto.sort descending %x : (tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK: {{^}}'pto.sort' op [TileLegality] source: element type i32 is not FP32 or FP16 (TileSortDataTypeSupported) (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// Sort rows are at most 64
%x = "test.op"() : () -> tensor<2x80xf32>
%s = pto.sort descending %x : (tensor<2x80xf32>) -> tensor<2x80xf32>
// CHECK: {{^}}'pto.sort' op [TileLegality] source: rows of 80 elements: TSORT sorts groups of at most 64 (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// Sort keeps the source's type
%x = "test.op"() : () -> tensor<4x8xf32>
%s = pto.sort descending %x : (tensor<4x8xf32>) -> tensor<4x8xf16>
// CHECK: {{^}}'pto.sort' op [TileLegality] result: type must be the source's (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// Sort takes static 2-D tensors
%x = "test.op"() : () -> tensor<8xf32>
%s = pto.sort descending %x : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: {{^}}'pto.sort' op [TileLegality] source must be a static 2-D tensor, got tensor<8xf32> (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// Sort direction is ascending or descending
%x = "test.op"() : () -> tensor<4x8xf32>
%s = pto.sort upward %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: {{^ *}}unknown pto.sort direction 'upward' (expected one of ascending, descending){{$}}

// -----

// An explicitly signed integer contradicting the signedness word
%i = "test.op"() : () -> tensor<4x6xsi32>
%s = pto.reduce rowmax unsigned %i : (tensor<4x6xsi32>) -> tensor<4x1xsi32>
// CHECK: {{^}}'pto.reduce' op [TileLegality] input: si32 contradicts 'unsigned' (PTO-SPEC 5){{$}}

// -----

// Generic form: a pto.reduce kind the custom syntax cannot spell is refused by the verifier
%x = "test.op"() : () -> tensor<4x6xf32>
%s = "pto.reduce"(%x) <{kind = "rowmean"}> : (tensor<4x6xf32>) -> tensor<4x1xf32>
// CHECK: {{^}}'pto.reduce' op [TileLegality] unknown kind 'rowmean' (rowsum, rowmax, rowmin, rowprod, rowargmax, rowargmin, colsum, colmax, colmin, colprod, colargmax, colargmin) (PTO-SPEC 5){{$}}

// -----

// Generic form: pto.reduce takes exactly one tensor
%x = "test.op"() : () -> tensor<4x6xf32>
%s = "pto.reduce"(%x, %x) <{kind = "rowsum"}> : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x1xf32>
// CHECK: {{^}}'pto.reduce' op [TileLegality] operands: pto.reduce takes one tensor, got 2 (asl/tile/reduce-and-expand/row-reduction/TROWSUM.asl){{$}}

// -----

// Generic form: an unknown pto.expand kind
%x = "test.op"() : () -> tensor<4x6xf32>
%y = "pto.expand"(%x, %x) <{kind = "row.mod"}> : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK: {{^}}'pto.expand' op [TileLegality] unknown kind 'row mod' (PTO-SPEC 5){{$}}

// -----

// Generic form: a sort direction other than ascending / descending
%x = "test.op"() : () -> tensor<4x6xf32>
%so = "pto.sort"(%x) <{direction = "sideways"}> : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK: {{^}}'pto.sort' op [TileLegality] direction 'sideways' must be ascending or descending (asl/tile/irregular-and-complex/sorting/TSORT.asl){{$}}

// -----

// Generic form: signedness is 'signed' or 'unsigned'
%i = "test.op"() : () -> tensor<4x6xi16>
%m = "pto.reduce"(%i) <{kind = "rowmin", signedness = "both"}> : (tensor<4x6xi16>) -> tensor<4x1xi16>
// CHECK: {{^}}'pto.reduce' op [TileLegality] signedness 'both' must be signed or unsigned (PTO-SPEC 5){{$}}

// -----

// Generic form: a float tensor takes no signedness
%x = "test.op"() : () -> tensor<4x6xf32>
%m = "pto.reduce"(%x) <{kind = "rowmin", signedness = "signed"}> : (tensor<4x6xf32>) -> tensor<4x1xf32>
// CHECK: {{^}}'pto.reduce' op [TileLegality] float elements take no signedness, got signed (PTO-SPEC 5){{$}}

// -----

// pto.expand: the input has the result's shape
%x = "test.op"() : () -> tensor<4x5xf32>
%b = "test.op"() : () -> tensor<4x1xf32>
%y = "pto.expand"(%x, %b) <{kind = "row.add"}> : (tensor<4x5xf32>, tensor<4x1xf32>) -> tensor<4x6xf32>
// CHECK: {{^}}'pto.expand' op [TileLegality] input: shape must be the result's (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDADD.asl){{$}}

// -----

// pto.expand (not EXPDIF): the result has the input's element type
%x = "test.op"() : () -> tensor<4x6xf32>
%b = "test.op"() : () -> tensor<4x1xf32>
%y = "pto.expand"(%x, %b) <{kind = "row.add"}> : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf16>
// CHECK: {{^}}'pto.expand' op [TileLegality] result: element type must be the input's (asl/tile/reduce-and-expand/row-expansion/TROWEXPANDADD.asl){{$}}

// -----

// Syntax: the function type lists one type per operand
%x = "test.op"() : () -> tensor<4x6xf32>
%s = pto.reduce rowsum %x : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x1xf32>
// CHECK: {{^ *}}pto.reduce takes 1 operand type(s) and one result{{$}}

// -----

// Syntax: ... and one result type
%x = "test.op"() : () -> tensor<4x6xf32>
%s = pto.reduce rowsum %x : (tensor<4x6xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>)
// CHECK: {{^ *}}pto.reduce takes 1 operand type(s) and one result{{$}}

// -----

// Syntax: pto.gather names a table and an index
%tab = "test.op"() : () -> tensor<6x8xf32>
%idx = "test.op"() : () -> tensor<4x8xi64>
%g = pto.gather %tab : (tensor<6x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
// CHECK: {{^ *}}Expected ','{{$}}

// -----

// Syntax: ... with one type each
%tab = "test.op"() : () -> tensor<6x8xf32>
%idx = "test.op"() : () -> tensor<4x8xi64>
%g = pto.gather %tab, %idx : (tensor<6x8xf32>) -> tensor<4x8xf32>
// CHECK: {{^ *}}pto.gather takes 2 operand type(s) and one result{{$}}

// -----

// Syntax: ... and one result type
%tab = "test.op"() : () -> tensor<6x8xf32>
%idx = "test.op"() : () -> tensor<4x8xi64>
%g = pto.gather %tab, %idx : (tensor<6x8xf32>, tensor<4x8xi64>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: {{^ *}}pto.gather takes 2 operand type(s) and one result{{$}}
