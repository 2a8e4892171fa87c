// RUN: pto-opt %s --split-input-file --parsing-diagnostics | filecheck %s
// A hex float element is a bit pattern: no leading minus, no more bits than the type has.

%0 = arith.constant dense<-0xFF800000> : tensor<f32>
// CHECK: hexadecimal float literal should not have a leading minus

// -----

%1 = arith.constant dense<[0x1FFFF, 0x0]> : tensor<2xf16>
// CHECK: hexadecimal float constant out of range for type f16
