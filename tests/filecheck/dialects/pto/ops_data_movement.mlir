// Round trip of pto.tload / pto.tstore on packed 4-bit GM (a tile of a packed X2 type moved to
// or from a signless i8 byte tensor) and with a row_stride (pto_dialect/data_movement.py,
// docs/dialect.md "Packed 4-bit GM"), in custom and generic syntax.
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s

// CHECK: builtin.module {
%gm = "test.op"() : () -> tensor<2x4xi8>
// CHECK-NEXT: %gm = "test.op"() : () -> tensor<2x4xi8>
%i = "test.op"() : () -> index
// CHECK-NEXT: %i = "test.op"() : () -> index
%t = pto.tload %gm[%i, %i] : tensor<2x4xi8> -> !pto.tile<64x4xui4, valid=2x3, pe=1000>
// CHECK-NEXT: %t = pto.tload %gm[%i, %i] : tensor<2x4xi8> -> !pto.tile<64x4xui4, valid=2x3, pe=1000>
// GENERIC: %t = "pto.tload"(%gm, %i, %i) <{pe_stride = array<i64: 0, 0>, pad = #pto.pad<null>}> : (tensor<2x4xi8>, index, index) -> !pto.tile<64x4xui4, valid=2x3, pe=1000>
%f = pto.tload %gm[%i, %i] {pe_stride = [0, 1]} : tensor<2x4xi8> -> !pto.tile<64x4xf4E2M1FN, valid=2x2, pe=1100>
// CHECK-NEXT: %f = pto.tload %gm[%i, %i] {pe_stride = [0, 1]} : tensor<2x4xi8> -> !pto.tile<64x4xf4E2M1FN, valid=2x2, pe=1100>
%r = pto.tstore %t, %gm[%i, %i] : !pto.tile<64x4xui4, valid=2x3, pe=1000> -> tensor<2x4xi8>
// CHECK-NEXT: %r = pto.tstore %t, %gm[%i, %i] : !pto.tile<64x4xui4, valid=2x3, pe=1000> -> tensor<2x4xi8>
// GENERIC: %r = "pto.tstore"(%t, %gm, %i, %i) <{pe_stride = array<i64: 0, 0>}> : (!pto.tile<64x4xui4, valid=2x3, pe=1000>, tensor<2x4xi8>, index, index) -> tensor<2x4xi8>
%h = pto.tstore %f, %gm[%i, %i] {pe_stride = [0, 1]} : !pto.tile<64x4xf4E2M1FN, valid=2x2, pe=1100> -> tensor<2x4xi8>
// CHECK-NEXT: %h = pto.tstore %f, %gm[%i, %i] {pe_stride = [0, 1]} : !pto.tile<64x4xf4E2M1FN, valid=2x2, pe=1100> -> tensor<2x4xi8>
%w = "test.op"() : () -> tensor<5x4xf32>
// CHECK-NEXT: %w = "test.op"() : () -> tensor<5x4xf32>
%s = pto.tload %w[%i, %i] {row_stride = 2, pad = zero} : tensor<5x4xf32> -> !pto.tile<8x4xf32, valid=3x4>
// CHECK-NEXT: %s = pto.tload %w[%i, %i] {row_stride = 2, pad = zero} : tensor<5x4xf32> -> !pto.tile<8x4xf32, valid=3x4>
// GENERIC: %s = "pto.tload"(%w, %i, %i) <{pe_stride = array<i64: 0, 0>, pad = #pto.pad<zero>, row_stride = 2 : i64}> : (tensor<5x4xf32>, index, index) -> !pto.tile<8x4xf32, valid=3x4>
%z = pto.tstore %s, %w[%i, %i] {pe_stride = [1, 0], row_stride = 0} : !pto.tile<8x4xf32, valid=3x4> -> tensor<5x4xf32>
// CHECK-NEXT: %z = pto.tstore %s, %w[%i, %i] {pe_stride = [1, 0], row_stride = 0} : !pto.tile<8x4xf32, valid=3x4> -> tensor<5x4xf32>
// GENERIC: %z = "pto.tstore"(%s, %w, %i, %i) <{pe_stride = array<i64: 1, 0>, row_stride = 0 : i64}> : (!pto.tile<8x4xf32, valid=3x4>, tensor<5x4xf32>, index, index) -> tensor<5x4xf32>
%o = pto.tload %w[%i, %i] {row_stride = 1} : tensor<5x4xf32> -> !pto.tile<8x4xf32, valid=3x4>
// CHECK-NEXT: %o = pto.tload %w[%i, %i] : tensor<5x4xf32> -> !pto.tile<8x4xf32, valid=3x4>
// CHECK-NEXT: }
