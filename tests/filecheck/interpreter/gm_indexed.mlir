// The global-memory ops end to end through pto-run (docs/gm-indexed.md, D25): an embedding-
// style gather of three FP32 rows' first element from a 32-byte GM at byte displacements
// 8 0 4, a scatter back, at tile level and as linked blocks (pto-form-blocks +
// pto-assign-registers), both engines; a lane outside GM is a DataPage fault with its address.
// RUN: pto-run %s --symbol gather --engine both | filecheck %s
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers | pto-run - --symbol gather --engine both | filecheck %s
// RUN: pto-run %s --symbol scatter --engine both | filecheck %s --check-prefix=SCATTER
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers | pto-run - --symbol scatter | filecheck %s --check-prefix=SCATTER
// RUN: not pto-run %s --symbol outside 2>&1 | filecheck %s --check-prefix=FAULT

func.func @gather() -> !pto.tile<8x4xf32, valid=1x3, pe=1000> {
  %c0 = arith.constant 0 : index
  %gm = arith.constant dense<[0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64, 0, 0, 160, 64, 0, 0, 192, 64, 0, 0, 224, 64, 0, 0, 0, 65]> : tensor<32xi8>
  %ids = arith.constant dense<[[8, 0, 4]]> : tensor<1x3xi32>
  %idx = pto.tload %ids[%c0, %c0] : tensor<1x3xi32> -> !pto.tile<8x4xsi32, valid=1x3, pe=1000>
  %d = pto.mgather %gm, %c0, %idx : (tensor<32xi8>, index, !pto.tile<8x4xsi32, valid=1x3, pe=1000>) -> !pto.tile<8x4xf32, valid=1x3, pe=1000>
  func.return %d : !pto.tile<8x4xf32, valid=1x3, pe=1000>
}
// CHECK: result0: !pto.tile<8x4xf32, valid=1x3, pe=1000>
// CHECK-SAME: [3.0, 1.0, 2.0]

func.func @scatter() -> tensor<16xi8> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %gm = arith.constant dense<0> : tensor<16xi8>
  %ids = arith.constant dense<[[3, -4, 7]]> : tensor<1x3xi32>
  %vals = arith.constant dense<[[17, 34, 51]]> : tensor<1x3xi8>
  %idx = pto.tload %ids[%c0, %c0] : tensor<1x3xi32> -> !pto.tile<8x4xsi32, valid=1x3, pe=1000>
  %v = pto.tload %vals[%c0, %c0] : tensor<1x3xi8> -> !pto.tile<32x4xui8, valid=1x3, pe=1000>
  %g = pto.mscatter %v, %gm, %c4, %idx : (!pto.tile<32x4xui8, valid=1x3, pe=1000>, tensor<16xi8>, index, !pto.tile<8x4xsi32, valid=1x3, pe=1000>) -> tensor<16xi8>
  func.return %g : tensor<16xi8>
}
// SCATTER: result0: tensor<16xi8>
// SCATTER-SAME: [34, {{ *}}0, {{ *}}0, {{ *}}0, {{ *}}0, {{ *}}0, {{ *}}0, 17, {{ *}}0, {{ *}}0, {{ *}}0, 51, {{ *}}0, {{ *}}0, {{ *}}0, {{ *}}0]

func.func @outside() -> !pto.tile<8x4xf32, valid=1x3, pe=1000> {
  %c0 = arith.constant 0 : index
  %gm = arith.constant dense<0> : tensor<32xi8>
  %ids = arith.constant dense<[[0, 32, 4]]> : tensor<1x3xi32>
  %idx = pto.tload %ids[%c0, %c0] : tensor<1x3xi32> -> !pto.tile<8x4xsi32, valid=1x3, pe=1000>
  %d = pto.mgather %gm, %c0, %idx : (tensor<32xi8>, index, !pto.tile<8x4xsi32, valid=1x3, pe=1000>) -> !pto.tile<8x4xf32, valid=1x3, pe=1000>
  func.return %d : !pto.tile<8x4xf32, valid=1x3, pe=1000>
}
// FAULT: pto-run: fault [DataPage] 'MGATHER': MGATHER: a 4-byte access at GM address 0x20 is outside the 32 permitted bytes

// An embedding table as GM: rows 2 and 0 of a 4x2 FP32 table (byte displacement row * 8 +
// column * 4), the table's row-major bytes being the GM.
// RUN: pto-run %s --symbol embedding --engine both | filecheck %s --check-prefix=EMB
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers | pto-run - --symbol embedding | filecheck %s --check-prefix=EMB
func.func @embedding() -> !pto.tile<8x4xf32, valid=2x2, pe=1000> {
  %c0 = arith.constant 0 : index
  %table = arith.constant dense<[[0.5, 1.5], [2.5, 3.5], [4.5, 5.5], [6.5, 7.5]]> : tensor<4x2xf32>
  %disp = arith.constant dense<[[16, 20], [0, 4]]> : tensor<2x2xi32>
  %idx = pto.tload %disp[%c0, %c0] : tensor<2x2xi32> -> !pto.tile<8x4xsi32, valid=2x2, pe=1000>
  %d = pto.mgather %table, %c0, %idx : (tensor<4x2xf32>, index, !pto.tile<8x4xsi32, valid=2x2, pe=1000>) -> !pto.tile<8x4xf32, valid=2x2, pe=1000>
  func.return %d : !pto.tile<8x4xf32, valid=2x2, pe=1000>
}
// EMB: result0: !pto.tile<8x4xf32, valid=2x2, pe=1000>
// EMB-SAME: {{\[\[\[}}4.5, 5.5],
// EMB-NEXT: [0.5, 1.5]]]
