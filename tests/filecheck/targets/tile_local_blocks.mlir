// Canonical blocks of the tile-local TEPL ops (catalog compositions in
// spec/catalog/tile-operations.json): BSTART.SFU <op>, DT; [B.DATR [DataType,] PadValue];
// LB0=ValidCol, LB1=ValidRow, LB2=Col; one terminating B.IOT; BSTOP. The assembly and the
// binary words read back to the same program.
// RUN: pto-opt %s -p 'pto-form-blocks,pto-assign-registers' -t pto-asm | filecheck %s
// RUN: pto-opt %s -p 'pto-form-blocks,pto-assign-registers' -t pto-asm > %t.pto.s && pto-opt %t.pto.s -t pto-asm | filecheck %s
// RUN: pto-opt %s -p 'pto-form-blocks,pto-assign-registers' -t pto-bin > %t.hex && pto-opt %t.hex -t pto-asm | filecheck %s
func.func @f(%s: !pto.tile<8x16xf32, valid=4x5>, %h: !pto.tile<8x16xbf16, valid=4x5>,
             %hb: !pto.tile<4x16xbf16, valid=1x5>) -> (!pto.tile<32x1xf32, valid=4x1>,
    !pto.tile<2x16xui32, valid=1x5>, !pto.tile<8x16xf32, valid=4x5>, !pto.tile<16x8xf32, valid=5x4>) {
  %d = pto.trowsum %s {pad = #pto.pad<zero>} : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<32x1xf32, valid=4x1>
  %e = pto.tcolargmax %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<2x16xui32, valid=1x5>
  %x = pto.tcolexpandexpdif %h, %hb : (!pto.tile<8x16xbf16, valid=4x5>, !pto.tile<4x16xbf16, valid=1x5>) -> !pto.tile<8x16xf32, valid=4x5>
  %t = pto.ttrans %s : (!pto.tile<8x16xf32, valid=4x5>) -> !pto.tile<16x8xf32, valid=5x4>
  func.return %d, %e, %x, %t : !pto.tile<32x1xf32, valid=4x1>, !pto.tile<2x16xui32, valid=1x5>, !pto.tile<8x16xf32, valid=4x5>, !pto.tile<16x8xf32, valid=5x4>
}
// CHECK: BSTART.SFU TROWSUM, FP32
// CHECK-NEXT: B.DATR NORM, FP64, Zero
// CHECK-NEXT: C.B.DIMI 5, ->lb0
// CHECK-NEXT: C.B.DIMI 4, ->lb1
// CHECK-NEXT: C.B.DIMI 16, ->lb2
// CHECK-NEXT: B.IOT t#1, mask=1111, last, ->t<128B>
// CHECK-NEXT: BSTOP
// CHECK-EMPTY:
// CHECK-NEXT: BSTART.SFU TCOLARGMAX, FP32
// CHECK-NEXT: C.B.DIMI 5, ->lb0
// CHECK-NEXT: C.B.DIMI 4, ->lb1
// CHECK-NEXT: C.B.DIMI 16, ->lb2
// CHECK-NEXT: B.IOT t#1, mask=1111, last, ->t<128B>
// CHECK-NEXT: BSTOP
// CHECK-EMPTY:
// CHECK-NEXT: BSTART.SFU TCOLEXPANDEXPDIF, BF16
// CHECK-NEXT: B.DATR NORM, FP32, Null
// CHECK-NEXT: C.B.DIMI 5, ->lb0
// CHECK-NEXT: C.B.DIMI 4, ->lb1
// CHECK-NEXT: C.B.DIMI 16, ->lb2
// CHECK-NEXT: B.IOT t#2, t#3, mask=1111, last, ->t<512B>
// CHECK-NEXT: BSTOP
// CHECK-EMPTY:
// CHECK-NEXT: BSTART.SFU TTRANS, FP32
// CHECK-NEXT: C.B.DIMI 5, ->lb0
// CHECK-NEXT: C.B.DIMI 4, ->lb1
// CHECK-NEXT: C.B.DIMI 16, ->lb2
// CHECK-NEXT: B.IOT t#1, mask=1111, last, ->t<512B>
// CHECK-NEXT: BSTOP
