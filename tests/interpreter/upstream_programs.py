"""MLIR input forms of the lowering issue (GEMV, MX GEMV, floor modulo), shared by tests."""

GEMV_MATMUL = """
func.func @main(%a: tensor<1x{K}x{T}>, %b: tensor<{K}x{N}x{T}>) -> tensor<1x{N}x{T}> {{
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x{N}xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x{N}xf32>) -> tensor<1x{N}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x{K}x{T}>, tensor<{K}x{N}x{T}>) outs(%f : tensor<1x{N}xf32>) -> tensor<1x{N}xf32>
  %e2 = tensor.empty() : tensor<1x{N}x{T}>
  %t = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
      ins(%r : tensor<1x{N}xf32>) outs(%e2 : tensor<1x{N}x{T}>) {{
  ^bb0(%in: f32, %out: {T}):
    %x = arith.truncf %in : f32 to {T}
    linalg.yield %x : {T}
  }} -> tensor<1x{N}x{T}>
  func.return %t : tensor<1x{N}x{T}>
}}
"""

GEMV_F32 = """
func.func @matmul(%a: tensor<1x{K}x{T}>, %b: tensor<{K}x{N}x{T}>) -> tensor<1x{N}xf32> {{
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x{N}xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x{N}xf32>) -> tensor<1x{N}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x{K}x{T}>, tensor<{K}x{N}x{T}>) outs(%f : tensor<1x{N}xf32>) -> tensor<1x{N}xf32>
  func.return %r : tensor<1x{N}xf32>
}}
func.func @vecmat(%a: tensor<{K}x{T}>, %b: tensor<{K}x{N}x{T}>) -> tensor<{N}xf32> {{
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{N}xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<{N}xf32>) -> tensor<{N}xf32>
  %r = linalg.vecmat ins(%a, %b : tensor<{K}x{T}>, tensor<{K}x{N}x{T}>) outs(%f : tensor<{N}xf32>) -> tensor<{N}xf32>
  func.return %r : tensor<{N}xf32>
}}
func.func @matvec(%bt: tensor<{N}x{K}x{T}>, %a: tensor<{K}x{T}>) -> tensor<{N}xf32> {{
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{N}xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<{N}xf32>) -> tensor<{N}xf32>
  %r = linalg.matvec ins(%bt, %a : tensor<{N}x{K}x{T}>, tensor<{K}x{T}>) outs(%f : tensor<{N}xf32>) -> tensor<{N}xf32>
  func.return %r : tensor<{N}xf32>
}}
func.func @generic(%a: tensor<{K}x{T}>, %b: tensor<{K}x{N}x{T}>) -> tensor<{N}xf32> {{
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{N}xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<{N}xf32>) -> tensor<{N}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"]}}
      ins(%a, %b : tensor<{K}x{T}>, tensor<{K}x{N}x{T}>) outs(%f : tensor<{N}xf32>) {{
  ^bb0(%x: {T}, %y: {T}, %acc: f32):
    %xf = arith.extf %x : {T} to f32
    %yf = arith.extf %y : {T} to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> tensor<{N}xf32>
  func.return %r : tensor<{N}xf32>
}}
"""

MX_GEMV = """
#a = affine_map<(n, k) -> (k)>
#as = affine_map<(n, k) -> (k floordiv 32)>
#b = affine_map<(n, k) -> (k, n)>
#bs = affine_map<(n, k) -> (k floordiv 32, n)>
#o = affine_map<(n, k) -> (n)>
func.func @mx(%a: tensor<{K}xf8E4M3FN>, %as: tensor<{KB}xf8E8M0FNU>, %b: tensor<{K}x{N}xf8E4M3FN>, %bs: tensor<{KB}x{N}xf8E8M0FNU>, %bias: tensor<{N}xf32>) -> tensor<{N}xf32> {{
  %r = linalg.generic {{indexing_maps = [#a, #as, #b, #bs, #o], iterator_types = ["parallel", "reduction"]}}
      ins(%a, %as, %b, %bs : tensor<{K}xf8E4M3FN>, tensor<{KB}xf8E8M0FNU>, tensor<{K}x{N}xf8E4M3FN>, tensor<{KB}x{N}xf8E8M0FNU>)
      outs(%bias : tensor<{N}xf32>) {{
  ^bb0(%x: f8E4M3FN, %sx: f8E8M0FNU, %y: f8E4M3FN, %sy: f8E8M0FNU, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %sxf = arith.extf %sx : f8E8M0FNU to f32
    %xs = arith.mulf %xf, %sxf : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %syf = arith.extf %sy : f8E8M0FNU to f32
    %ys = arith.mulf %yf, %syf : f32
    %p = arith.mulf %xs, %ys : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> tensor<{N}xf32>
  func.return %r : tensor<{N}xf32>
}}
"""

FLOOR_MOD_I32 = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @floor_mod(%a: tensor<{R}x{C}xi32>, %b: tensor<{R}x{C}xi32>) -> tensor<{R}x{C}xi32> {{
  %e = tensor.empty() : tensor<{R}x{C}xi32>
  %r = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b : tensor<{R}x{C}xi32>, tensor<{R}x{C}xi32>) outs(%e : tensor<{R}x{C}xi32>) {{
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
  }} -> tensor<{R}x{C}xi32>
  func.return %r : tensor<{R}x{C}xi32>
}}
func.func @rem_u(%a: tensor<{R}x{C}xi32>, %b: tensor<{R}x{C}xi32>) -> tensor<{R}x{C}xi32> {{
  %e = tensor.empty() : tensor<{R}x{C}xi32>
  %r = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b : tensor<{R}x{C}xi32>, tensor<{R}x{C}xi32>) outs(%e : tensor<{R}x{C}xi32>) {{
  ^bb0(%x: i32, %y: i32, %o: i32):
    %rem = arith.remui %x, %y : i32
    linalg.yield %rem : i32
  }} -> tensor<{R}x{C}xi32>
  func.return %r : tensor<{R}x{C}xi32>
}}
"""

FLOOR_MOD_F = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @floor_mod_f(%a: tensor<{R}x{C}x{T}>, %b: tensor<{R}x{C}x{T}>) -> tensor<{R}x{C}x{T}> {{
  %e = tensor.empty() : tensor<{R}x{C}x{T}>
  %r = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b : tensor<{R}x{C}x{T}>, tensor<{R}x{C}x{T}>) outs(%e : tensor<{R}x{C}x{T}>) {{
  ^bb0(%x: {T}, %y: {T}, %o: {T}):
    %rem = arith.remf %x, %y : {T}
    %c0 = arith.constant 0.0 : {T}
    %nz = arith.cmpf une, %rem, %c0 : {T}
    %yneg = arith.cmpf olt, %y, %c0 : {T}
    %rneg = arith.cmpf olt, %rem, %c0 : {T}
    %diff = arith.xori %yneg, %rneg : i1
    %fix = arith.andi %diff, %nz : i1
    %adj = arith.addf %rem, %y : {T}
    %res = arith.select %fix, %adj, %rem : {T}
    linalg.yield %res : {T}
  }} -> tensor<{R}x{C}x{T}>
  func.return %r : tensor<{R}x{C}x{T}>
}}
"""
