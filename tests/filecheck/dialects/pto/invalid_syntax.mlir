// Custom-syntax errors of the pto ops are parse errors with a location.
// RUN: xdsl-opt %s --parsing-diagnostics --split-input-file | filecheck %s

%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%d = pto.tgemv_mx_bias %a, scale %a, %a, %a : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^.*}}invalid_syntax.mlir:{{[0-9]+}}:28{{$}}
// CHECK: {{^ *}}'scale' is not an optional operand of pto.tgemv_mx_bias; expected one of ['a_scale', 'b_scale', 'lrelu_scalar', 'prelu', 'quant', 'quant_scalar', 'row_max_in']{{$}}

// -----

%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%d = pto.tgemv_mx_bias %a, a_scale %a, a_scale %a, %a, %a : (!pto.tile<1x64xf16, cube_m16, mat>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^.*}}invalid_syntax.mlir:{{[0-9]+}}:40{{$}}
// CHECK: {{^ *}}operand 'a_scale' given twice{{$}}

// -----

%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%d = pto.tgemv_mx_bias %a, %a, %a, %a : (!pto.tile<1x64xf16, cube_m16, mat>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^.*}}invalid_syntax.mlir:{{[0-9]+}}:36{{$}}
// CHECK: {{^ *}}too many operands for pto.tgemv_mx_bias{{$}}

// -----

%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%d = pto.tgemv_mx_bias %a, %a : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^.*}}invalid_syntax.mlir:{{[0-9]+}}:24{{$}}
// CHECK: {{^ *}}pto.tgemv_mx_bias expects operand(s) ['bias']{{$}}

// -----

%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%d = pto.tgemv_mx_bias %a, %a, %a : (!pto.tile<1x64xf16, cube_m16, mat>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK: {{^.*}}invalid_syntax.mlir:{{[0-9]+}}:37{{$}}
// CHECK: {{^ *}}expected 3 operand types, got 1{{$}}

// -----

%a = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
%d:4 = pto.tgemv_mx_bias %a, %a, %a : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<1x64xf16, cube_m16, mat>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, cube_m16, mat>)
// CHECK: {{^.*}}invalid_syntax.mlir:{{[0-9]+}}:39{{$}}
// CHECK: {{^ *}}expected 1 to 3 result types{{$}}

// -----

%x = "test.op"() : () -> !pto.tile<4x8xf32>
%r = pto.trem %x, %x : (!pto.tile<4x8xf32>) -> !pto.tile<4x8xf32>
// CHECK: {{^.*}}invalid_syntax.mlir:{{[0-9]+}}:24{{$}}
// CHECK: {{^ *}}pto.trem takes 2 operand type(s) and one result{{$}}

// -----

%x = "test.op"() : () -> !pto.tile<4x8xf32>
%r = pto.trem %x : !pto.tile<4x8xf32>
// CHECK: {{^.*}}invalid_syntax.mlir:{{[0-9]+}}:18{{$}}
// CHECK: {{^ *}}Expected ','{{$}}

// -----

// The kind words of the tensor-level ops are a fixed table (syntax.Words, WORD_CHOICES)
%x = "test.op"() : () -> tensor<4x8xf32>
%r = pto.map sqroot %x : tensor<4x8xf32>
// CHECK: {{^ *}}unknown pto.map kind 'sqroot' (expected one of {{.*}}){{$}}

// -----

%x = "test.op"() : () -> tensor<4x8xf32>
%r = pto.elementwise plus %x, %x : tensor<4x8xf32>
// CHECK: {{^ *}}unknown pto.elementwise kind 'plus' (expected one of add, {{.*}}){{$}}

// -----

%x = "test.op"() : () -> tensor<4x8xf32>
%r = pto.cmpsel less %x, %x, %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: {{^ *}}unknown pto.cmpsel mode 'less' (expected one of eq, {{.*}}){{$}}

// -----

// A function type must list one type per operand written (syntax.FunctionType)
%x = "test.op"() : () -> tensor<4x8xf32>
%r = pto.transpose %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK: {{^ *}}pto.transpose takes 1 operand type(s) and one result{{$}}

// -----

// A type that fits no operand / result constraint: at the op, naming the operand
// (pto_dialect/upstream/xdsl_fixes.py; before, "i64 should be of base attribute tensor" alone)
%x = "test.op"() : () -> tensor<4x8xf32>
%r = pto.transpose %x : (i64) -> tensor<8x4xf32>
// CHECK: {{^.*}}invalid_syntax.mlir:{{[0-9]+}}:20{{$}}
// CHECK-NEXT: {{^}}%r = pto.transpose %x : (i64) -> tensor<8x4xf32>{{$}}
// CHECK-NEXT: {{^}}                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
// CHECK-NEXT: {{^ *}}pto.transpose operand 'source' type: i64 should be of base attribute tensor{{$}}

// -----

// A property repeated in the attribute dictionary (the word says rowsum)
%x = "test.op"() : () -> tensor<4x6xf32>
%s = pto.reduce rowsum %x {kind = "rowmax"} : (tensor<4x6xf32>) -> tensor<4x1xf32>
// CHECK: {{^.*}}invalid_syntax.mlir:{{[0-9]+}}:17{{$}}
// CHECK: {{^ *}}pto.reduce: 'kind' is a property written in the op's own syntax, not in its attribute dictionary{{$}}
