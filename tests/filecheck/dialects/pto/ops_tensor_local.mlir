// Round trip of the tensor-level reductions, expansions, transpose, gather and sort
// (pto.reduce, pto.expand, pto.transpose, pto.gather, pto.sort;
// pto_dialect/tensor_local.py) in custom and generic syntax.
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// CHECK: builtin.module {
%x = "test.op"() : () -> tensor<4x6xf32>
// CHECK-NEXT: %x = "test.op"() : () -> tensor<4x6xf32>
%h = "test.op"() : () -> tensor<4x6xbf16>
// CHECK-NEXT: %h = "test.op"() : () -> tensor<4x6xbf16>
%i = "test.op"() : () -> tensor<4x6xi16>
// CHECK-NEXT: %i = "test.op"() : () -> tensor<4x6xi16>
%b = "test.op"() : () -> tensor<4x1xf32>
// CHECK-NEXT: %b = "test.op"() : () -> tensor<4x1xf32>
%c = "test.op"() : () -> tensor<1x6xbf16>
// CHECK-NEXT: %c = "test.op"() : () -> tensor<1x6xbf16>
%s = pto.reduce rowsum %x : (tensor<4x6xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %s = pto.reduce rowsum %x : (tensor<4x6xf32>) -> tensor<4x1xf32>
// GENERIC: %s = "pto.reduce"(%x) <{kind = "rowsum"}> : (tensor<4x6xf32>) -> tensor<4x1xf32>
%a = pto.reduce colargmax %x : (tensor<4x6xf32>) -> tensor<1x6xui32>
// CHECK-NEXT: %a = pto.reduce colargmax %x : (tensor<4x6xf32>) -> tensor<1x6xui32>
// GENERIC: %a = "pto.reduce"(%x) <{kind = "colargmax"}> : (tensor<4x6xf32>) -> tensor<1x6xui32>
%m = pto.reduce rowmin signed %i : (tensor<4x6xi16>) -> tensor<4x1xi16>
// CHECK-NEXT: %m = pto.reduce rowmin signed %i : (tensor<4x6xi16>) -> tensor<4x1xi16>
// GENERIC: %m = "pto.reduce"(%i) <{kind = "rowmin", signedness = "signed"}> : (tensor<4x6xi16>) -> tensor<4x1xi16>
%si = "test.op"() : () -> tensor<4x6xsi32>
// CHECK-NEXT: %si = "test.op"() : () -> tensor<4x6xsi32>
%ms = pto.reduce rowmax signed %si : (tensor<4x6xsi32>) -> tensor<4x1xsi32>
// CHECK-NEXT: %ms = pto.reduce rowmax signed %si : (tensor<4x6xsi32>) -> tensor<4x1xsi32>
%p = pto.reduce colprod %h : (tensor<4x6xbf16>) -> tensor<1x6xbf16>
// CHECK-NEXT: %p = pto.reduce colprod %h : (tensor<4x6xbf16>) -> tensor<1x6xbf16>
// GENERIC: %p = "pto.reduce"(%h) <{kind = "colprod"}> : (tensor<4x6xbf16>) -> tensor<1x6xbf16>
%y = pto.expand row div %x, %b : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %y = pto.expand row div %x, %b : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf32>
// GENERIC: %y = "pto.expand"(%x, %b) <{kind = "row.div"}> : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf32>
%z = pto.expand row copy %b : (tensor<4x1xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %z = pto.expand row copy %b : (tensor<4x1xf32>) -> tensor<4x6xf32>
// GENERIC: %z = "pto.expand"(%b) <{kind = "row.copy"}> : (tensor<4x1xf32>) -> tensor<4x6xf32>
%e = pto.expand col expdif %h, %c : (tensor<4x6xbf16>, tensor<1x6xbf16>) -> tensor<4x6xf32>
// CHECK-NEXT: %e = pto.expand col expdif %h, %c : (tensor<4x6xbf16>, tensor<1x6xbf16>) -> tensor<4x6xf32>
// GENERIC: %e = "pto.expand"(%h, %c) <{kind = "col.expdif"}> : (tensor<4x6xbf16>, tensor<1x6xbf16>) -> tensor<4x6xf32>
%t = pto.transpose %x : (tensor<4x6xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %t = pto.transpose %x : (tensor<4x6xf32>) -> tensor<6x4xf32>
// GENERIC: %t = "pto.transpose"(%x) : (tensor<4x6xf32>) -> tensor<6x4xf32>
%u = pto.transpose %i : (tensor<4x6xi16>) -> tensor<6x4xi16>
// CHECK-NEXT: %u = pto.transpose %i : (tensor<4x6xi16>) -> tensor<6x4xi16>
// GENERIC: %u = "pto.transpose"(%i) : (tensor<4x6xi16>) -> tensor<6x4xi16>
%tab = "test.op"() : () -> tensor<6x8xf32>
// CHECK-NEXT: %tab = "test.op"() : () -> tensor<6x8xf32>
%idx = "test.op"() : () -> tensor<4x8xi64>
// CHECK-NEXT: %idx = "test.op"() : () -> tensor<4x8xi64>
%g = pto.gather %tab, %idx : (tensor<6x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
// CHECK-NEXT: %g = pto.gather %tab, %idx : (tensor<6x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
// GENERIC: %g = "pto.gather"(%tab, %idx) : (tensor<6x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
%so = pto.sort descending %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %so = pto.sort descending %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
// GENERIC: %so = "pto.sort"(%x) <{direction = "descending"}> : (tensor<4x6xf32>) -> tensor<4x6xf32>
// Rows of 1 and of 64 elements (TSORT's group width is 1..64)
%x64 = "test.op"() : () -> tensor<2x64xf32>
// CHECK-NEXT: %x64 = "test.op"() : () -> tensor<2x64xf32>
%s64 = pto.sort descending %x64 : (tensor<2x64xf32>) -> tensor<2x64xf32>
// CHECK-NEXT: %s64 = pto.sort descending %x64 : (tensor<2x64xf32>) -> tensor<2x64xf32>
%x1 = "test.op"() : () -> tensor<2x1xf32>
// CHECK-NEXT: %x1 = "test.op"() : () -> tensor<2x1xf32>
%s1 = pto.sort ascending %x1 : (tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %s1 = pto.sort ascending %x1 : (tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: }
