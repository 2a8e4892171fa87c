// A linked block whose B.DIM reads a GPR (register base): the GPR's run-time value is the
// block's trailing i64 operand (docs/blocks.md "Register-base B.DIM"); custom and generic
// syntax round-trip, the asm keeps the B.DIM, and a block without the operand is refused.
// RUN: pto-opt %s --print-op-generic | pto-opt | filecheck %s
// RUN: pto-opt %s -t pto-asm | filecheck %s --check-prefix=ASM
// RUN: pto-run %s --symbol f --engine both | filecheck %s --check-prefix=OUT
// RUN: not pto-run %s --symbol wraps 2>&1 | filecheck %s --check-prefix=FAULT
// RUN: sed -e 's/(%m, %c0, %c0, %g)/(%m, %c0, %c0)/' -e 's/index, i64) ->/index) ->/' %s | not pto-opt 2>&1 | filecheck %s --check-prefix=MISSING

// CHECK: %r = pto.block (%m, %c0, %c0, %g) {
// CHECK-NEXT: pto.b.start TLOAD, U32
// CHECK-NEXT: pto.b.dim <lb = 0, reg = x3, imm = 1>
// CHECK: } {pto.pe_stride = array<i64: 0, 0>} : (tensor<2x3xi32>, index, index, i64) -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
// ASM: # pseudo MV x3 <- %g  (B.DIM bases; not encoded, docs/blocks.md)
// ASM-NEXT: BSTART.TLOAD U32
// ASM-NEXT: B.DIM x3, 1, ->lb0
// OUT-LABEL: result0: !pto.tile<32x2xui32, valid=2x2, pe=1000>
// OUT-SAME: [1, 2]
// FAULT: pto-run: fault [TileLegality] 'pto.block': LB0 (ValidCol) is 0 = (x3 = 65535 + 1)[15:0] at run time, the tiles say 2
// MISSING: [TileLegality] a register-base B.DIM reads its GPR at run time: a linked block takes the value of x3 as 1 trailing i64 operand(s)

func.func @load(%m: tensor<2x3xi32>, %g: i64) -> !pto.tile<32x2xui32, valid=2x2, pe=1000> {
  %c0 = arith.constant 0 : index
  %r = pto.block (%m, %c0, %c0, %g) {
    pto.b.start TLOAD, U32
    pto.b.dim <lb = 0, reg = x3, imm = 1>
    pto.b.dimi <lb = 1, imm = 2>
    pto.b.ior <src0 = a0, src1 = a1, src2 = zero, dst = zero>
    pto.b.iot <last = 1, size_code = "256B", pe_mode = "1000", dst_hand = t>
    pto.b.stop
  } {pto.pe_stride = array<i64: 0, 0>} : (tensor<2x3xi32>, index, index, i64) -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  func.return %r : !pto.tile<32x2xui32, valid=2x2, pe=1000>
}

func.func @f() -> !pto.tile<32x2xui32, valid=2x2, pe=1000> {
  %m = arith.constant dense<[[1, 2, 9], [3, 4, 9]]> : tensor<2x3xi32>
  %g = arith.constant 65537 : i64
  %r = func.call @load(%m, %g) : (tensor<2x3xi32>, i64) -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  func.return %r : !pto.tile<32x2xui32, valid=2x2, pe=1000>
}

func.func @wraps() -> !pto.tile<32x2xui32, valid=2x2, pe=1000> {
  %m = arith.constant dense<[[1, 2, 9], [3, 4, 9]]> : tensor<2x3xi32>
  %g = arith.constant 65535 : i64
  %r = func.call @load(%m, %g) : (tensor<2x3xi32>, i64) -> !pto.tile<32x2xui32, valid=2x2, pe=1000>
  func.return %r : !pto.tile<32x2xui32, valid=2x2, pe=1000>
}
