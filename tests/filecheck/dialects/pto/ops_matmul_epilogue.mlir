// Round trip of pto.matmul with its epilogues (bias, relu; pto_dialect/tensor_ops.py).
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// CHECK: builtin.module {
%a = "test.op"() : () -> tensor<4x40xf32>
// CHECK-NEXT: %a = "test.op"() : () -> tensor<4x40xf32>
%b = "test.op"() : () -> tensor<40x16xf32>
// CHECK-NEXT: %b = "test.op"() : () -> tensor<40x16xf32>
%bias = "test.op"() : () -> tensor<16xf32>
// CHECK-NEXT: %bias = "test.op"() : () -> tensor<16xf32>
%r = pto.matmul %a, %b bias %bias {relu} : (tensor<4x40xf32>, tensor<40x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %r = pto.matmul %a, %b bias %bias {relu} : (tensor<4x40xf32>, tensor<40x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
%h = pto.matmul %a, %b {relu} : (tensor<4x40xf32>, tensor<40x16xf32>) -> tensor<4x16xf16>
// CHECK-NEXT: %h = pto.matmul %a, %b {relu} : (tensor<4x40xf32>, tensor<40x16xf32>) -> tensor<4x16xf16>
// CHECK-NEXT: }
