// pto.map static legality: the kind's type set, signedness, scalar count and type.
// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s
%a = "test.op"() : () -> tensor<8xi32>
%r = pto.map exp signed %a : tensor<8xi32>
// CHECK: 'pto.map' op [TileLegality] element type i32 signed is not supported by TEXP

// -----

%a = "test.op"() : () -> tensor<8xi32>
%s = "test.op"() : () -> i64
%r = pto.map adds %a, %s : tensor<8xi32>, i64
// CHECK: 'pto.map' op [TileLegality] element type i32 is not supported by TADDS

// -----

%a = "test.op"() : () -> tensor<8xf32>
%r = "pto.map"(%a) <{kind = "adds"}> : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: 'pto.map' op [TileLegality] adds takes 1 scalar operand(s), got 0

// -----

%a = "test.op"() : () -> tensor<8xf32>
%s = "test.op"() : () -> f16
%r = pto.map muls %a, %s : tensor<8xf32>, f16
// CHECK: 'pto.map' op [TileLegality] scalar type f16 must be i64 (a raw word) or the element's float type
