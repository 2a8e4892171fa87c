// Round trip of TCMP / TCMPS / TSEL / TSELS and the predicate tile type !pto.pred, custom and
// generic (asl/tile/model/execution/comparison.asl; docs/predicates.md).
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s
// CHECK: builtin.module {
builtin.module {
%s = "test.op"() : () -> i64
// CHECK-NEXT: %s = "test.op"() : () -> i64{{$}}
%a = "test.op"() : () -> !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %a = "test.op"() : () -> !pto.tile<4x16xf32, valid=3x10>{{$}}
%b = "test.op"() : () -> !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %b = "test.op"() : () -> !pto.tile<4x16xf32, valid=3x10>{{$}}
%p = pto.tcmp %a, %b {cmode = #pto.cmode<lt>, pad = #pto.pad<max>} : (!pto.tile<4x16xf32, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>) -> !pto.pred<4x16, valid=3x10>
// CHECK-NEXT: %p = pto.tcmp %a, %b {cmode = #pto.cmode<lt>, pad = #pto.pad<max>} : (!pto.tile<4x16xf32, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>) -> !pto.pred<4x16, valid=3x10>{{$}}
// GENERIC: %p = "pto.tcmp"(%a, %b) <{pad = #pto.pad<max>, mask = #pto.mask<1111>, cmode = #pto.cmode<lt>}> : (!pto.tile<4x16xf32, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>) -> !pto.pred<4x16, valid=3x10>
%q = pto.tcmps %a, %s : (!pto.tile<4x16xf32, valid=3x10>, i64) -> !pto.pred<4x16, valid=3x10, size=256B>
// CHECK-NEXT: %q = pto.tcmps %a, %s : (!pto.tile<4x16xf32, valid=3x10>, i64) -> !pto.pred<4x16, valid=3x10, size=256B>{{$}}
// GENERIC: %q = "pto.tcmps"(%a, %s) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, cmode = #pto.cmode<eq>}> : (!pto.tile<4x16xf32, valid=3x10>, i64) -> !pto.pred<4x16, valid=3x10, size=256B>
%d = pto.tsel %p, %a, %b {pad = #pto.pad<zero>} : (!pto.pred<4x16, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>) -> !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %d = pto.tsel %p, %a, %b {pad = #pto.pad<zero>} : (!pto.pred<4x16, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>) -> !pto.tile<4x16xf32, valid=3x10>{{$}}
// GENERIC: %d = "pto.tsel"(%p, %a, %b) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}> : (!pto.pred<4x16, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>) -> !pto.tile<4x16xf32, valid=3x10>
%x = "test.op"() : () -> f32
// CHECK-NEXT: %x = "test.op"() : () -> f32{{$}}
%e = pto.tsels %p, %a, %x {mask = #pto.mask<1111>} : (!pto.pred<4x16, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>, f32) -> !pto.tile<4x16xf32, valid=3x10>
// CHECK-NEXT: %e = pto.tsels %p, %a, %x : (!pto.pred<4x16, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>, f32) -> !pto.tile<4x16xf32, valid=3x10>{{$}}
// GENERIC: %e = "pto.tsels"(%p, %a, %x) <{pad = #pto.pad<null>, mask = #pto.mask<1111>}> : (!pto.pred<4x16, valid=3x10>, !pto.tile<4x16xf32, valid=3x10>, f32) -> !pto.tile<4x16xf32, valid=3x10>
%i = "test.op"() : () -> !pto.tile<2x64xsi8, pe=1000>
// CHECK-NEXT: %i = "test.op"() : () -> !pto.tile<2x64xsi8, pe=1000>{{$}}
%r = pto.tcmp %i, %i {cmode = #pto.cmode<ge>, mask = #pto.mask<1000>} : (!pto.tile<2x64xsi8, pe=1000>, !pto.tile<2x64xsi8, pe=1000>) -> !pto.pred<2x64, pe=1000>
// CHECK-NEXT: %r = pto.tcmp %i, %i {cmode = #pto.cmode<ge>, mask = #pto.mask<1000>} : (!pto.tile<2x64xsi8, pe=1000>, !pto.tile<2x64xsi8, pe=1000>) -> !pto.pred<2x64, pe=1000>{{$}}
// GENERIC: %r = "pto.tcmp"(%i, %i) <{pad = #pto.pad<null>, mask = #pto.mask<1000>, cmode = #pto.cmode<ge>}> : (!pto.tile<2x64xsi8, pe=1000>, !pto.tile<2x64xsi8, pe=1000>) -> !pto.pred<2x64, pe=1000>
%v = "test.op"() : () -> tensor<64xf32>
// CHECK-NEXT: %v = "test.op"() : () -> tensor<64xf32>{{$}}
%w = "test.op"() : () -> tensor<64xi32>
// CHECK-NEXT: %w = "test.op"() : () -> tensor<64xi32>{{$}}
%c = pto.cmpsel lt %v, %v, %v, %v : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
// CHECK-NEXT: %c = pto.cmpsel lt %v, %v, %v, %v : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>{{$}}
// GENERIC: %c = "pto.cmpsel"(%v, %v, %v, %v) <{mode = "lt"}> : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
%k = pto.cmpsel ge unsigned %w, %s, %v, %x : (tensor<64xi32>, i64, tensor<64xf32>, f32) -> tensor<64xf32>
// CHECK-NEXT: %k = pto.cmpsel ge unsigned %w, %s, %v, %x : (tensor<64xi32>, i64, tensor<64xf32>, f32) -> tensor<64xf32>{{$}}
// GENERIC: %k = "pto.cmpsel"(%w, %s, %v, %x) <{mode = "ge", signedness = "unsigned"}> : (tensor<64xi32>, i64, tensor<64xf32>, f32) -> tensor<64xf32>
}
// CHECK-NEXT: }
