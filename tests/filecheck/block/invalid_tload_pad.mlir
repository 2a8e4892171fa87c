// pto-form-blocks refuses a pto.tload that pads an ordinary (non-CUBE) tile: the ISA's ordinary
// TLOAD leaves padding undefined and its B.DATR PadValue must be Zero (asl/block/model/dispatch/tile-schema.asl).
// RUN: not pto-opt %s -p pto-form-blocks 2>&1 | filecheck %s

func.func @k(%src: tensor<4x8xf32>) -> !pto.tile<4x8xf32, valid=2x3> {
  %c0 = arith.constant 0 : index
  %t = pto.tload %src[%c0, %c0] {pad = max} : tensor<4x8xf32> -> !pto.tile<4x8xf32, valid=2x3>
  func.return %t : !pto.tile<4x8xf32, valid=2x3>
}

// CHECK: 'pto.tload': pad = max on a row_major tile has no TLOAD block: an ordinary TLOAD leaves padding undefined (PadValue applies to the CUBE conversions only; asl/block/model/dispatch/tile-schema.asl)
