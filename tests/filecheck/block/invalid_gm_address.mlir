// Where a linked TLOAD/TSTORE block's GM base and row stride come from (docs/blocks.md,
// "GM base and row stride"; pto-spec asl/block/model/dispatch/tile-schema.asl): one negative
// case per rule, all TileLegality.
// RUN: pto-opt %s --verify-diagnostics --split-input-file | filecheck %s

// B.IOR names a register other than a0 / zero for the base
func.func @f(%m: tensor<2x2xi32>) -> !pto.tile<32x2xui32, valid=2x2, pe=1000> {
  %c0 = arith.constant 0 : index
  %r = pto.block (%m, %c0, %c0) {
    pto.b.start TLOAD, U32
    pto.b.dimi <lb = 0, imm = 2>
    pto.b.dimi <lb = 1, imm = 2>
    pto.b.ior <src0 = a1, src1 = a1, src2 = zero, dst = zero>
    pto.b.iot <last = 1, size_code = "256B", pe_mode = "1000", dst_hand = t>
    pto.b.stop
  } {pto.pe_stride = array<i64: 0, 0>} : (tensor<2x2xi32>, index, index) -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  func.return %r : !pto.tile<32x2xui32, valid=2x2, pe=1000>
}
// CHECK: 'pto.block' op [TileLegality] a linked TLOAD block reads its GM base and row stride through B.IOR [a0 or zero, a1 or zero, zero], ->zero (the GMADDR pseudo-instruction's registers)

// -----

// RegSrc1 zero is the encoded-zero stride: the linked op must say row_stride 0
func.func @f(%m: tensor<2x2xi32>) -> !pto.tile<32x2xui32, valid=2x2, pe=1000> {
  %c0 = arith.constant 0 : index
  %r = pto.block (%m, %c0, %c0) {
    pto.b.start TLOAD, U32
    pto.b.dimi <lb = 0, imm = 2>
    pto.b.dimi <lb = 1, imm = 2>
    pto.b.ior <src0 = a0, src1 = zero, src2 = zero, dst = zero>
    pto.b.iot <last = 1, size_code = "256B", pe_mode = "1000", dst_hand = t>
    pto.b.stop
  } {pto.pe_stride = array<i64: 0, 0>} : (tensor<2x2xi32>, index, index) -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  func.return %r : !pto.tile<32x2xui32, valid=2x2, pe=1000>
}
// CHECK: 'pto.block' op [TileLegality] B.IOR RegSrc1 zero is the encoded-zero row stride (rows alias one GM row): the tile op's row_stride is 1, not 0

// -----

// Base zero (RegSrc0 zero, or no B.IOR): the tensor must be GM from address 0
func.func @f(%m: tensor<2x2xi32>, %i: index) -> !pto.tile<32x2xui32, valid=2x2, pe=1000> {
  %c0 = arith.constant 0 : index
  %r = pto.block (%m, %i, %c0) {
    pto.b.start TLOAD, U32
    pto.b.dimi <lb = 0, imm = 2>
    pto.b.dimi <lb = 1, imm = 2>
    pto.b.ior <src0 = zero, src1 = zero, src2 = zero, dst = zero>
    pto.b.iot <last = 1, size_code = "256B", pe_mode = "1000", dst_hand = t>
    pto.b.stop
  } {pto.pe_stride = array<i64: 0, 0>, pto.row_stride = 0 : i64} : (tensor<2x2xi32>, index, index) -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  func.return %r : !pto.tile<32x2xui32, valid=2x2, pe=1000>
}
// CHECK: 'pto.block' op [TileLegality] B.IOR RegSrc0 zero reads GM from address 0: the linked tensor must be GM from its first element (constant offsets [0, 0], pe_stride [0, 0])

// -----

// No B.IOR: base 0 and the dense stride of Col = 2 elements; the tensor's rows hold 3
func.func @f(%m: tensor<2x3xi32>) -> !pto.tile<32x2xui32, valid=2x2, pe=1000> {
  %c0 = arith.constant 0 : index
  %r = pto.block (%m, %c0, %c0) {
    pto.b.start TLOAD, U32
    pto.b.dimi <lb = 0, imm = 2>
    pto.b.dimi <lb = 1, imm = 2>
    pto.b.iot <last = 1, size_code = "256B", pe_mode = "1000", dst_hand = t>
    pto.b.stop
  } {pto.pe_stride = array<i64: 0, 0>} : (tensor<2x3xi32>, index, index) -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  func.return %r : !pto.tile<32x2xui32, valid=2x2, pe=1000>
}
// CHECK: 'pto.block' op [TileLegality] an omitted B.IOR reads rows at the dense stride of Col = 2 elements (8 B): the tensor's rows must be 8 B and row_stride 1
