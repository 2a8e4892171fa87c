// An embedding lookup at tile level (docs/gm-indexed.md): four token ids select rows of a
// 16 x 4 FP32 table that stays in GM (the table's bytes are the MGATHER's GM operand, D25).
// The byte displacement of (token n, column c) is ids[n] * 16 + c * 4, built with tile ops:
// TROWEXPAND broadcasts the ids over the columns, TCI makes the column iota, TCOLEXPAND
// broadcasts it over the rows, TMULS scales both, TADD sums them; MGATHER reads the rows.
// Run it from Python (tests/evidence/test_gm_indexed_evidence.py compares it with numpy's
// table[ids] at tile level and as blocks):
//   interpreter.run("examples/embedding_gather.mlir", "embedding", table, ids)
//
// RUN: pto-opt %s | pto-opt | filecheck %s
// RUN: pto-opt %s -p pto-form-blocks,pto-assign-registers -t pto-asm | filecheck %s --check-prefix=ASM
// CHECK: %emb = pto.mgather %table, %c0, %disp : (tensor<16x4xf32>, index, !pto.tile<8x4xsi32, valid=4x4, pe=1000>) -> !pto.tile<8x4xf32, valid=4x4, pe=1000>
// ASM: BSTART.MGATHER FP32
// ASM-NEXT: C.B.DIMI 4, ->lb0
// ASM-NEXT: C.B.DIMI 4, ->lb1
// ASM-NEXT: B.IOT t#{{[0-9]+}}, mask=1000, last, ->t<128B>
// ASM-NEXT: B.IOR [a0, zero, zero], ->zero
// ASM-NEXT: BSTOP
func.func @embedding(%table: tensor<16x4xf32>, %ids: tensor<4x1xi32>) -> !pto.tile<8x4xf32, valid=4x4, pe=1000> {
  %c0 = arith.constant 0 : index
  %row_bytes = arith.constant 16 : i64
  %elem_bytes = arith.constant 4 : i64
  %id = pto.tload %ids[%c0, %c0] : tensor<4x1xi32> -> !pto.tile<32x1xsi32, valid=4x1, pe=1000>
  %rows = pto.trowexpand %id {mask = #pto.mask<1000>} : (!pto.tile<32x1xsi32, valid=4x1, pe=1000>) -> !pto.tile<8x4xsi32, valid=4x4, pe=1000>
  %row_off = pto.tmuls %rows, %row_bytes {mask = #pto.mask<1000>} : !pto.tile<8x4xsi32, valid=4x4, pe=1000>, i64
  %iota = pto.tci {mask = #pto.mask<1000>} : () -> !pto.tile<8x4xsi32, valid=1x4, pe=1000>
  %cols = pto.tcolexpand %iota {mask = #pto.mask<1000>} : (!pto.tile<8x4xsi32, valid=1x4, pe=1000>) -> !pto.tile<8x4xsi32, valid=4x4, pe=1000>
  %col_off = pto.tmuls %cols, %elem_bytes {mask = #pto.mask<1000>} : !pto.tile<8x4xsi32, valid=4x4, pe=1000>, i64
  %disp = pto.tadd %row_off, %col_off {mask = #pto.mask<1000>} : !pto.tile<8x4xsi32, valid=4x4, pe=1000>
  %emb = pto.mgather %table, %c0, %disp : (tensor<16x4xf32>, index, !pto.tile<8x4xsi32, valid=4x4, pe=1000>) -> !pto.tile<8x4xf32, valid=4x4, pe=1000>
  func.return %emb : !pto.tile<8x4xf32, valid=4x4, pe=1000>
}
