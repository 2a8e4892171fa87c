// RUN: pto-run %s --symbol imod | filecheck %s --check-prefix=INT
// RUN: pto-run %s --symbol fmod | filecheck %s --check-prefix=FLT
// RUN: pto-run %s --symbol umod | filecheck %s --check-prefix=UNS
// The torch-mlir floor-modulo idioms (D7, D8): the result takes the divisor's sign,
// float zero results keep the dividend's sign.

#id = affine_map<(d0) -> (d0)>
func.func @imod() -> tensor<5xi32> {
  %a = arith.constant dense<[-7, 7, -7, -2147483648, 6]> : tensor<5xi32>
  %b = arith.constant dense<[3, -3, -3, -1, 3]> : tensor<5xi32>
  %e = tensor.empty() : tensor<5xi32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %b : tensor<5xi32>, tensor<5xi32>) outs(%e : tensor<5xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %rem = arith.remsi %x, %y : i32
    %c0 = arith.constant 0 : i32
    %nz = arith.cmpi ne, %rem, %c0 : i32
    %yneg = arith.cmpi slt, %y, %c0 : i32
    %rneg = arith.cmpi slt, %rem, %c0 : i32
    %diff = arith.xori %yneg, %rneg : i1
    %fix = arith.andi %diff, %nz : i1
    %adj = arith.addi %rem, %y : i32
    %res = arith.select %fix, %adj, %rem : i32
    linalg.yield %res : i32
  } -> tensor<5xi32>
  func.return %r : tensor<5xi32>
}

func.func @fmod() -> tensor<4xf32> {
  %a = arith.constant dense<[-4.0, 4.0, 5.5, -5.5]> : tensor<4xf32>
  %b = arith.constant dense<[2.0, -2.0, -2.0, 2.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %rem = arith.remf %x, %y : f32
    %c0 = arith.constant 0.0 : f32
    %nz = arith.cmpf une, %rem, %c0 : f32
    %yneg = arith.cmpf olt, %y, %c0 : f32
    %rneg = arith.cmpf olt, %rem, %c0 : f32
    %diff = arith.xori %yneg, %rneg : i1
    %fix = arith.andi %diff, %nz : i1
    %adj = arith.addf %rem, %y : f32
    %res = arith.select %fix, %adj, %rem : f32
    linalg.yield %res : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

func.func @umod() -> tensor<2xi32> {
  %a = arith.constant dense<[-1, 7]> : tensor<2xi32>
  %b = arith.constant dense<[10, -1]> : tensor<2xi32>
  %r = arith.remui %a, %b : tensor<2xi32>
  func.return %r : tensor<2xi32>
}

// INT: result0: tensor<5xi32> = [ 2, -2, -1, 0, 0]
// FLT: result0: tensor<4xf32> = [-0.0, 0.0, -0.5, 0.5]
// UNS: result0: tensor<2xi32> = [5, 7]
