// Round trip of TSORT (pto_dialect/tile_rearrange.py; two results, the sort_width property)
// and TMOV (pto_dialect/tile_move.py) in custom and generic syntax; explicit defaults print
// canonically.
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s

// CHECK: builtin.module {
%s = "test.op"() : () -> !pto.tile<8x4xf32, valid=2x4>
// CHECK-NEXT: %s = "test.op"() : () -> !pto.tile<8x4xf32, valid=2x4>
%w = "test.op"() : () -> i64
// CHECK-NEXT: %w = "test.op"() : () -> i64
%tsort, %tsorti = pto.tsort %s, %w {sort_width = 3 : i64} : (!pto.tile<8x4xf32, valid=2x4>, i64) -> (!pto.tile<8x4xf32, valid=2x4>, !pto.tile<8x4xui32, valid=2x4>)
// CHECK-NEXT: %tsort, %tsorti = pto.tsort %s, %w {sort_width = 3 : i64} : (!pto.tile<8x4xf32, valid=2x4>, i64) -> (!pto.tile<8x4xf32, valid=2x4>, !pto.tile<8x4xui32, valid=2x4>)
// GENERIC: %tsort, %tsorti = "pto.tsort"(%s, %w) <{pad = #pto.pad<null>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1>, sort_width = 3 : i64}> : (!pto.tile<8x4xf32, valid=2x4>, i64) -> (!pto.tile<8x4xf32, valid=2x4>, !pto.tile<8x4xui32, valid=2x4>)
// sort_width 1: an end of 1..64
%tsort1, %tsort1i = pto.tsort %s, %w {sort_width = 1 : i64} : (!pto.tile<8x4xf32, valid=2x4>, i64) -> (!pto.tile<8x4xf32, valid=2x4>, !pto.tile<8x4xui32, valid=2x4>)
// CHECK-NEXT: %tsort1, %tsort1i = pto.tsort %s, %w {sort_width = 1 : i64} : (!pto.tile<8x4xf32, valid=2x4>, i64) -> (!pto.tile<8x4xf32, valid=2x4>, !pto.tile<8x4xui32, valid=2x4>)
// ... and the other end
%tsort64, %tsort64i = pto.tsort %s, %w {sort_width = 64 : i64} : (!pto.tile<8x4xf32, valid=2x4>, i64) -> (!pto.tile<8x4xf32, valid=2x4>, !pto.tile<8x4xui32, valid=2x4>)
// CHECK-NEXT: %tsort64, %tsort64i = pto.tsort %s, %w {sort_width = 64 : i64} : (!pto.tile<8x4xf32, valid=2x4>, i64) -> (!pto.tile<8x4xf32, valid=2x4>, !pto.tile<8x4xui32, valid=2x4>)
%h = "test.op"() : () -> !pto.tile<16x4xf16, valid=1x3>
// CHECK-NEXT: %h = "test.op"() : () -> !pto.tile<16x4xf16, valid=1x3>
%tsortd, %tsortdi = pto.tsort %h {sort_width = 32 : i64, mask = #pto.mask<1111>} : (!pto.tile<16x4xf16, valid=1x3>) -> (!pto.tile<16x4xf16, valid=1x3>, !pto.tile<16x4xui32, valid=1x3>)
// CHECK-NEXT: %tsortd, %tsortdi = pto.tsort %h : (!pto.tile<16x4xf16, valid=1x3>) -> (!pto.tile<16x4xf16, valid=1x3>, !pto.tile<16x4xui32, valid=1x3>)
%b = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
// CHECK-NEXT: %b = "test.op"() : () -> !pto.tile<32x4xui8, valid=1x2>
%tmov = pto.tmov %b : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=1x2>
// CHECK-NEXT: %tmov = pto.tmov %b : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=1x2>
// GENERIC: %tmov = "pto.tmov"(%b) <{mask = #pto.mask<1111>}> : (!pto.tile<32x4xui8, valid=1x2>) -> !pto.tile<32x4xui8, valid=1x2>
%p = "test.op"() : () -> !pto.tile<16x8xbf16, valid=3x5, pe=1100>
// CHECK-NEXT: %p = "test.op"() : () -> !pto.tile<16x8xbf16, valid=3x5, pe=1100>
%tmovm = pto.tmov %p {mask = #pto.mask<1100>} : (!pto.tile<16x8xbf16, valid=3x5, pe=1100>) -> !pto.tile<16x8xbf16, valid=3x5, pe=1100>
// CHECK-NEXT: %tmovm = pto.tmov %p {mask = #pto.mask<1100>} : (!pto.tile<16x8xbf16, valid=3x5, pe=1100>) -> !pto.tile<16x8xbf16, valid=3x5, pe=1100>
// CHECK-NEXT: }
