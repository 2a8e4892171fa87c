// RUN: not pto-run %s --symbol main 2>&1 | filecheck %s --check-prefix=ARGS
// RUN: not pto-run %s --symbol missing 2>&1 | filecheck %s --check-prefix=SYM
// RUN: not pto-run %s --symbol divzero 2>&1 | filecheck %s --check-prefix=UB

func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}

func.func @divzero() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.constant 0 : i32
  %r = arith.remsi %a, %b : i32
  func.return %r : i32
}

// ARGS: pto-run: error: the function takes 1 argument(s): pass --inputs in.npz
// SYM: pto-run: error: no function named @missing in the module
// UB: pto-run: error: 'arith.remsi': division by zero (undefined behaviour)
