// Static legality of pto.matmul's epilogues (bias, relu).
// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// Bias with acc: TMATMUL_BIAS is the first K chunk, the ACC forms take C instead
%a = "test.op"() : () -> tensor<4x40xf32>
%b = "test.op"() : () -> tensor<40x16xf32>
%c = "test.op"() : () -> tensor<4x16xf32>
%bias = "test.op"() : () -> tensor<16xf32>
%r = pto.matmul %a, %b acc %c bias %bias : (tensor<4x40xf32>, tensor<40x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK: {{^}}'pto.matmul' op [TileLegality] bias: only an FP32-accumulator product without acc takes one (TMATMUL(_MX)_BIAS is the first K chunk) (PTO-SPEC 3.1, D3){{$}}

// -----

// Bias elements are f32
%a = "test.op"() : () -> tensor<4x40xf16>
%b = "test.op"() : () -> tensor<40x16xf16>
%bias = "test.op"() : () -> tensor<16xf16>
%r = pto.matmul %a, %b bias %bias : (tensor<4x40xf16>, tensor<40x16xf16>, tensor<16xf16>) -> tensor<4x16xf32>
// CHECK: {{^}}'pto.matmul' op [TileLegality] bias: element type f16 must be f32 (D3){{$}}

// -----

// Bias is one value per column
%a = "test.op"() : () -> tensor<4x40xf32>
%b = "test.op"() : () -> tensor<40x16xf32>
%bias = "test.op"() : () -> tensor<4x16xf32>
%r = pto.matmul %a, %b bias %bias : (tensor<4x40xf32>, tensor<40x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: {{^}}'pto.matmul' op [TileLegality] bias must be tensor<16> or tensor<1x16> (PTO-SPEC 3.1){{$}}

// -----

// Integer products have no bias
%a = "test.op"() : () -> tensor<4x40xi8>
%b = "test.op"() : () -> tensor<40x16xi8>
%bias = "test.op"() : () -> tensor<16xf32>
%r = pto.matmul %a, %b bias %bias : (tensor<4x40xi8>, tensor<40x16xi8>, tensor<16xf32>) -> tensor<4x16xi32>
// CHECK: {{^}}'pto.matmul' op [TileLegality] bias: only an FP32-accumulator product without acc takes one (TMATMUL(_MX)_BIAS is the first K chunk) (PTO-SPEC 3.1, D3){{$}}

// -----

// Integer products have no ReluMode
%a = "test.op"() : () -> tensor<4x40xi8>
%b = "test.op"() : () -> tensor<40x16xi8>
%r = pto.matmul %a, %b {relu} : (tensor<4x40xi8>, tensor<40x16xi8>) -> tensor<4x16xi32>
// CHECK: {{^}}'pto.matmul' op [TileLegality] relu: only an FP32 accumulator has ReluMode (accumulator S32) (PTO-SPEC 3.3){{$}}
