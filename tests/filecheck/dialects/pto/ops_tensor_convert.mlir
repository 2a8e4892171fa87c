// Round trip of the tensor-level pto.convert (TCVT on whole tensors, D20).
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// CHECK: builtin.module {
builtin.module {
%x = "test.op"() : () -> tensor<4x8xf32>
// CHECK-NEXT: %x = "test.op"() : () -> tensor<4x8xf32>{{$}}
// GENERIC: %x = "test.op"() : () -> tensor<4x8xf32>
%a = pto.convert %x {rmode = #pto.rmode<rtm>, sat, dst_sign = "signed"} : tensor<4x8xf32> -> tensor<4x8xi16>
// CHECK-NEXT: %a = pto.convert %x {rmode = #pto.rmode<rtm>, sat, dst_sign = "signed"} : tensor<4x8xf32> -> tensor<4x8xi16>{{$}}
// GENERIC: %a = "pto.convert"(%x) <{rmode = #pto.rmode<rtm>, sat, dst_sign = "signed"}> : (tensor<4x8xf32>) -> tensor<4x8xi16>
%b = pto.convert %x : tensor<4x8xf32> -> tensor<4x8xf16>
// CHECK-NEXT: %b = pto.convert %x : tensor<4x8xf32> -> tensor<4x8xf16>{{$}}
// GENERIC: %b = "pto.convert"(%x) <{rmode = #pto.rmode<default>}> : (tensor<4x8xf32>) -> tensor<4x8xf16>
%c = pto.convert %a {src_sign = "signed", dst_sign = "unsigned"} : tensor<4x8xi16> -> tensor<4x8xi8>
// CHECK-NEXT: %c = pto.convert %a {src_sign = "signed", dst_sign = "unsigned"} : tensor<4x8xi16> -> tensor<4x8xi8>{{$}}
// GENERIC: %c = "pto.convert"(%a) <{rmode = #pto.rmode<default>, src_sign = "signed", dst_sign = "unsigned"}> : (tensor<4x8xi16>) -> tensor<4x8xi8>
%d = pto.convert %b {rmode = #pto.rmode<rtp>} : tensor<4x8xf16> -> tensor<4x8xf8E8M0FNU>
// CHECK-NEXT: %d = pto.convert %b {rmode = #pto.rmode<rtp>} : tensor<4x8xf16> -> tensor<4x8xf8E8M0FNU>{{$}}
// GENERIC: %d = "pto.convert"(%b) <{rmode = #pto.rmode<rtp>}> : (tensor<4x8xf16>) -> tensor<4x8xf8E8M0FNU>
}
// CHECK-NEXT: }
