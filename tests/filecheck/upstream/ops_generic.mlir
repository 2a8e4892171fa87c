// RUN: pto-opt %s --print-op-generic | filecheck %s
// The mixed-type matmul's hidden body casts to the output type (upstream OpDSL cast_signed).

func.func @f(%a: tensor<1x8xbf16>, %b: tensor<8x4xbf16>, %c: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1x8xbf16>, tensor<8x4xbf16>) outs(%c : tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// CHECK:      "linalg.matmul"
// CHECK:      ^{{.*}}(%{{.*}}: bf16, %{{.*}}: bf16, %[[ACC:.*]]: f32):
// CHECK-NEXT:   %[[X:.*]] = "arith.extf"(%{{.*}}) : (bf16) -> f32
// CHECK-NEXT:   %[[Y:.*]] = "arith.extf"(%{{.*}}) : (bf16) -> f32
// CHECK-NEXT:   %[[P:.*]] = "arith.mulf"(%[[X]], %[[Y]])
// CHECK-NEXT:   %[[S:.*]] = "arith.addf"(%[[ACC]], %[[P]])
// CHECK-NEXT:   "linalg.yield"(%[[S]])
