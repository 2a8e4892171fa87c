// Round trip of every !pto type, attribute and op form, in custom and generic syntax
// (PTO-SPEC 1-5, D1-D15). Non-canonical spellings (explicit defaults) print canonically.
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pto-opt %s | pto-opt | filecheck %s
// RUN: pto-opt %s --print-op-generic | pto-opt | filecheck %s
// CHECK: builtin.module attributes {pto.target = #pto.target<a5>} {
builtin.module attributes {pto.target = #pto.target<a5>} {

// ---- The 25 TileDataTypes (PTO-SPEC 1), row-major, 128 B each: Rows = 1024/(Col*bits) (D14)
%t_fp64 = "test.op"() : () -> !pto.tile<2x8xf64>
// CHECK-NEXT: %t_fp64 = "test.op"() : () -> !pto.tile<2x8xf64>{{$}}
%t_fp32 = "test.op"() : () -> !pto.tile<4x8xf32>
// CHECK-NEXT: %t_fp32 = "test.op"() : () -> !pto.tile<4x8xf32>{{$}}
%t_tf32 = "test.op"() : () -> !pto.tile<4x8xtf32>
// CHECK-NEXT: %t_tf32 = "test.op"() : () -> !pto.tile<4x8xtf32>{{$}}
%t_hf32 = "test.op"() : () -> !pto.tile<4x8x!pto.hf32>
// CHECK-NEXT: %t_hf32 = "test.op"() : () -> !pto.tile<4x8x!pto.hf32>{{$}}
%t_fp16 = "test.op"() : () -> !pto.tile<8x8xf16>
// CHECK-NEXT: %t_fp16 = "test.op"() : () -> !pto.tile<8x8xf16>{{$}}
%t_bf16 = "test.op"() : () -> !pto.tile<8x8xbf16>
// CHECK-NEXT: %t_bf16 = "test.op"() : () -> !pto.tile<8x8xbf16>{{$}}
%t_hif8 = "test.op"() : () -> !pto.tile<16x8x!pto.hif8>
// CHECK-NEXT: %t_hif8 = "test.op"() : () -> !pto.tile<16x8x!pto.hif8>{{$}}
%t_e4m3 = "test.op"() : () -> !pto.tile<16x8xf8E4M3FN>
// CHECK-NEXT: %t_e4m3 = "test.op"() : () -> !pto.tile<16x8xf8E4M3FN>{{$}}
%t_e5m2 = "test.op"() : () -> !pto.tile<16x8xf8E5M2>
// CHECK-NEXT: %t_e5m2 = "test.op"() : () -> !pto.tile<16x8xf8E5M2>{{$}}
%t_e3m2 = "test.op"() : () -> !pto.tile<16x8xf6E3M2FN>
// CHECK-NEXT: %t_e3m2 = "test.op"() : () -> !pto.tile<16x8xf6E3M2FN>{{$}}
%t_e2m3 = "test.op"() : () -> !pto.tile<16x8xf6E2M3FN>
// CHECK-NEXT: %t_e2m3 = "test.op"() : () -> !pto.tile<16x8xf6E2M3FN>{{$}}
%t_e2m1x2 = "test.op"() : () -> !pto.tile<32x8xf4E2M1FN>
// CHECK-NEXT: %t_e2m1x2 = "test.op"() : () -> !pto.tile<32x8xf4E2M1FN>{{$}}
%t_e1m2x2 = "test.op"() : () -> !pto.tile<32x8x!pto.e1m2x2>
// CHECK-NEXT: %t_e1m2x2 = "test.op"() : () -> !pto.tile<32x8x!pto.e1m2x2>{{$}}
%t_e8m0 = "test.op"() : () -> !pto.tile<16x8xf8E8M0FNU>
// CHECK-NEXT: %t_e8m0 = "test.op"() : () -> !pto.tile<16x8xf8E8M0FNU>{{$}}
%t_hif4x2 = "test.op"() : () -> !pto.tile<32x8x!pto.hif4x2>
// CHECK-NEXT: %t_hif4x2 = "test.op"() : () -> !pto.tile<32x8x!pto.hif4x2>{{$}}
%t_s64 = "test.op"() : () -> !pto.tile<2x8xsi64>
// CHECK-NEXT: %t_s64 = "test.op"() : () -> !pto.tile<2x8xsi64>{{$}}
%t_s32 = "test.op"() : () -> !pto.tile<4x8xsi32>
// CHECK-NEXT: %t_s32 = "test.op"() : () -> !pto.tile<4x8xsi32>{{$}}
%t_s16 = "test.op"() : () -> !pto.tile<8x8xsi16>
// CHECK-NEXT: %t_s16 = "test.op"() : () -> !pto.tile<8x8xsi16>{{$}}
%t_s8 = "test.op"() : () -> !pto.tile<16x8xsi8>
// CHECK-NEXT: %t_s8 = "test.op"() : () -> !pto.tile<16x8xsi8>{{$}}
%t_s4x2 = "test.op"() : () -> !pto.tile<32x8xsi4>
// CHECK-NEXT: %t_s4x2 = "test.op"() : () -> !pto.tile<32x8xsi4>{{$}}
%t_u64 = "test.op"() : () -> !pto.tile<2x8xui64>
// CHECK-NEXT: %t_u64 = "test.op"() : () -> !pto.tile<2x8xui64>{{$}}
%t_u32 = "test.op"() : () -> !pto.tile<4x8xui32>
// CHECK-NEXT: %t_u32 = "test.op"() : () -> !pto.tile<4x8xui32>{{$}}
%t_u16 = "test.op"() : () -> !pto.tile<8x8xui16>
// CHECK-NEXT: %t_u16 = "test.op"() : () -> !pto.tile<8x8xui16>{{$}}
%t_u8 = "test.op"() : () -> !pto.tile<16x8xui8>
// CHECK-NEXT: %t_u8 = "test.op"() : () -> !pto.tile<16x8xui8>{{$}}
%t_u4x2 = "test.op"() : () -> !pto.tile<32x8xui4>
// CHECK-NEXT: %t_u4x2 = "test.op"() : () -> !pto.tile<32x8xui4>{{$}}

// ---- Layouts (PTO-SPEC 2); explicit defaults are dropped when printing
%l_row = "test.op"() : () -> !pto.tile<4x8xf32, row_major>
// CHECK-NEXT: %l_row = "test.op"() : () -> !pto.tile<4x8xf32>{{$}}
%l_col = "test.op"() : () -> !pto.tile<8x4xf32, col_major>
// CHECK-NEXT: %l_col = "test.op"() : () -> !pto.tile<8x4xf32, col_major>{{$}}
%l_zn = "test.op"() : () -> !pto.tile<16x8xf32, zn>
// CHECK-NEXT: %l_zn = "test.op"() : () -> !pto.tile<16x8xf32, zn>{{$}}
%l_nz = "test.op"() : () -> !pto.tile<16x16xf16, nz>
// CHECK-NEXT: %l_nz = "test.op"() : () -> !pto.tile<16x16xf16, nz>{{$}}
%l_m16 = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
// CHECK-NEXT: %l_m16 = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>{{$}}
%l_m32 = "test.op"() : () -> !pto.tile<1x64xf8E5M2, cube_m32, mat>
// CHECK-NEXT: %l_m32 = "test.op"() : () -> !pto.tile<1x64xf8E5M2, cube_m32, mat>{{$}}
%l_n8 = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
// CHECK-NEXT: %l_n8 = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>{{$}}
%l_m16_b4 = "test.op"() : () -> !pto.tile<16x32xsi4, cube_m16, mat>
// CHECK-NEXT: %l_m16_b4 = "test.op"() : () -> !pto.tile<16x32xsi4, cube_m16, mat>{{$}}
%l_n8_b4 = "test.op"() : () -> !pto.tile<40x9xui4, cube_n8, mat>
// CHECK-NEXT: %l_n8_b4 = "test.op"() : () -> !pto.tile<40x9xui4, cube_n8, mat>{{$}}

// ---- Locations, storage, capacity, PE mask, valid shape
%loc_vec = "test.op"() : () -> !pto.tile<4x8xf32, vec>
// CHECK-NEXT: %loc_vec = "test.op"() : () -> !pto.tile<4x8xf32, vec>{{$}}
%loc_mat = "test.op"() : () -> !pto.tile<4x8xf32, mat>
// CHECK-NEXT: %loc_mat = "test.op"() : () -> !pto.tile<4x8xf32, mat>{{$}}
%loc_mem = "test.op"() : () -> !pto.tile<4x8xf32, mem>
// CHECK-NEXT: %loc_mem = "test.op"() : () -> !pto.tile<4x8xf32, mem>{{$}}
%loc_any = "test.op"() : () -> !pto.tile<4x8xf32, any>
// CHECK-NEXT: %loc_any = "test.op"() : () -> !pto.tile<4x8xf32>{{$}}
%st_local = "test.op"() : () -> !pto.tile<4x8xf32, local>
// CHECK-NEXT: %st_local = "test.op"() : () -> !pto.tile<4x8xf32>{{$}}
%st_shared = "test.op"() : () -> !pto.tile<128x128xf32, shared>
// CHECK-NEXT: %st_shared = "test.op"() : () -> !pto.tile<128x128xf32, shared>{{$}}
// Shared capacity codes 11 and 12 (128 KiB, 256 KiB; PTO-SPEC 2)
%st_shared11 = "test.op"() : () -> !pto.tile<256x128xf32, shared>
// CHECK-NEXT: %st_shared11 = "test.op"() : () -> !pto.tile<256x128xf32, shared>{{$}}
%st_shared12 = "test.op"() : () -> !pto.tile<512x128xf32, shared>
// CHECK-NEXT: %st_shared12 = "test.op"() : () -> !pto.tile<512x128xf32, shared>{{$}}
// 64 KiB: the largest Local TSize (code 10, D14)
%sz_max_local = "test.op"() : () -> !pto.tile<128x128xf32>
// CHECK-NEXT: %sz_max_local = "test.op"() : () -> !pto.tile<128x128xf32>{{$}}
// A CUBE tile may be given more than its minimal capacity
%sz_explicit = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat, size=4KB>
// CHECK-NEXT: %sz_explicit = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat, size=4KB>{{$}}
%sz_canonical = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat, size=2048B>
// CHECK-NEXT: %sz_canonical = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>{{$}}
%sz_bytes = "test.op"() : () -> !pto.tile<1x1xf32, cube_m16, mat, size=512B>
// CHECK-NEXT: %sz_bytes = "test.op"() : () -> !pto.tile<1x1xf32, cube_m16, mat, size=512B>{{$}}
%sz_kb = "test.op"() : () -> !pto.tile<1x1xf32, cube_m16, mat, size=1024B>
// CHECK-NEXT: %sz_kb = "test.op"() : () -> !pto.tile<1x1xf32, cube_m16, mat, size=1KB>{{$}}
%pe_pe01 = "test.op"() : () -> !pto.tile<4x8xf32, pe=1100>
// CHECK-NEXT: %pe_pe01 = "test.op"() : () -> !pto.tile<4x8xf32, pe=1100>{{$}}
%pe_pe0 = "test.op"() : () -> !pto.tile<4x8xf32, pe=1000>
// CHECK-NEXT: %pe_pe0 = "test.op"() : () -> !pto.tile<4x8xf32, pe=1000>{{$}}
%pe_all = "test.op"() : () -> !pto.tile<4x8xf32, pe=1111>
// CHECK-NEXT: %pe_all = "test.op"() : () -> !pto.tile<4x8xf32>{{$}}
%v_part = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
// CHECK-NEXT: %v_part = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>{{$}}
%v_full = "test.op"() : () -> !pto.tile<8x16xsi32, valid=8x16>
// CHECK-NEXT: %v_full = "test.op"() : () -> !pto.tile<8x16xsi32>{{$}}
// Every field at once, in canonical order
%all_fields = "test.op"() : () -> !pto.tile<4x32xf16, valid=1x20, vec, shared, pe=1110>
// CHECK-NEXT: %all_fields = "test.op"() : () -> !pto.tile<4x32xf16, valid=1x20, vec, shared, pe=1110>{{$}}
%reordered = "test.op"() : () -> !pto.tile<4x32xf16, pe=1110, shared, vec, valid=1x20, row_major>
// CHECK-NEXT: %reordered = "test.op"() : () -> !pto.tile<4x32xf16, valid=1x20, vec, shared, pe=1110>{{$}}

// ---- Attributes: #pto.rmode (8, PTO-SPEC 3.2), #pto.pad (4, D9), #pto.mask (D13), #pto.fpatr (D11)
"test.op"() {r0 = #pto.rmode<default>, r1 = #pto.rmode<rne>, r2 = #pto.rmode<rtz>, r3 = #pto.rmode<rtm>, r4 = #pto.rmode<rtp>, r5 = #pto.rmode<rna>, r6 = #pto.rmode<rto>, r7 = #pto.rmode<rhb>} : () -> ()
// CHECK-NEXT: "test.op"() {r0 = #pto.rmode<default>, r1 = #pto.rmode<rne>, r2 = #pto.rmode<rtz>, r3 = #pto.rmode<rtm>, r4 = #pto.rmode<rtp>, r5 = #pto.rmode<rna>, r6 = #pto.rmode<rto>, r7 = #pto.rmode<rhb>} : () -> (){{$}}
"test.op"() {p0 = #pto.pad<zero>, p1 = #pto.pad<max>, p2 = #pto.pad<min>, p3 = #pto.pad<null>} : () -> ()
// CHECK-NEXT: "test.op"() {p0 = #pto.pad<zero>, p1 = #pto.pad<max>, p2 = #pto.pad<min>, p3 = #pto.pad<null>} : () -> (){{$}}
"test.op"() {m0 = #pto.mask<1111>, m1 = #pto.mask<0000>, m2 = #pto.mask<0100>, m3 = #pto.mask<1000>} : () -> ()
// CHECK-NEXT: "test.op"() {m0 = #pto.mask<1111>, m1 = #pto.mask<0000>, m2 = #pto.mask<0100>, m3 = #pto.mask<1000>} : () -> (){{$}}
"test.op"() {f0 = #pto.fpatr<>, f1 = #pto.fpatr<pre_quant_mode = 38, relu_mode = 3, group_n_code = 9, row_max_en = 1, group_max_en = 1, row_max_init = 1, max_abs_en = 1, trans_a = 1, trans_b = 1, cscale_en = 1>} : () -> ()
// CHECK-NEXT: "test.op"() {f0 = #pto.fpatr<>, f1 = #pto.fpatr<pre_quant_mode = 38, relu_mode = 3, group_n_code = 9, row_max_en = 1, group_max_en = 1, row_max_init = 1, max_abs_en = 1, trans_a = 1, trans_b = 1, cscale_en = 1>} : () -> (){{$}}
// Fields in any order; zero fields are dropped; reserved values parse (the op verifier rejects them)
"test.op"() {f2 = #pto.fpatr<relu_mode = 1, pre_quant_mode = 0, trans_b = 0>, f3 = #pto.fpatr<pre_quant_mode = 63, relu_mode = 7, group_n_code = 15>} : () -> ()
// CHECK-NEXT: "test.op"() {f2 = #pto.fpatr<relu_mode = 1>, f3 = #pto.fpatr<pre_quant_mode = 63, relu_mode = 7, group_n_code = 15>} : () -> (){{$}}

// ---- pto.tgemv_mx_bias (PTO-SPEC 4, D1-D3, D10, D11)
%a8 = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>
// CHECK-NEXT: %a8 = "test.op"() : () -> !pto.tile<1x64xf8E4M3FN, cube_m16, mat>{{$}}
%as2 = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x2>
// CHECK-NEXT: %as2 = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x2>{{$}}
%b8 = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>
// CHECK-NEXT: %b8 = "test.op"() : () -> !pto.tile<64x32xf8E4M3FN, cube_n8, mat>{{$}}
%bs2 = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x32>
// CHECK-NEXT: %bs2 = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x32>{{$}}
%bias = "test.op"() : () -> !pto.tile<1x32xf32>
// CHECK-NEXT: %bias = "test.op"() : () -> !pto.tile<1x32xf32>{{$}}
%a16 = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>
// CHECK-NEXT: %a16 = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat>{{$}}
%b16 = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>
// CHECK-NEXT: %b16 = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat>{{$}}
// E4M3 x E4M3, both scales: K = 64, N = 32, scales 1x2 and 2x32 (D1)
%d0 = pto.tgemv_mx_bias %a8, a_scale %as2, %b8, b_scale %bs2, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d0 = pto.tgemv_mx_bias %a8, a_scale %as2, %b8, b_scale %bs2, %bias : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
// FP16 x FP16: neither side carries a scale (D2)
%d1 = pto.tgemv_mx_bias %a16, %b16, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d1 = pto.tgemv_mx_bias %a16, %b16, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
// Default properties are dropped when printing
%d1e = pto.tgemv_mx_bias %a16, %b16, %bias {rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d1e = pto.tgemv_mx_bias %a16, %b16, %bias : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
%abf = "test.op"() : () -> !pto.tile<1x64xbf16, cube_m32, mat>
// CHECK-NEXT: %abf = "test.op"() : () -> !pto.tile<1x64xbf16, cube_m32, mat>{{$}}
%b52 = "test.op"() : () -> !pto.tile<64x32xf8E5M2, cube_n8, mat>
// CHECK-NEXT: %b52 = "test.op"() : () -> !pto.tile<64x32xf8E5M2, cube_n8, mat>{{$}}
// Mixed BF16 (no scale) x E5M2 (scaled), A in cube_m32 so D in cube_m32 (D2, D10)
%d2 = pto.tgemv_mx_bias %abf, %b52, b_scale %bs2, %bias : (!pto.tile<1x64xbf16, cube_m32, mat>, !pto.tile<64x32xf8E5M2, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m32, mat>
// CHECK-NEXT: %d2 = pto.tgemv_mx_bias %abf, %b52, b_scale %bs2, %bias : (!pto.tile<1x64xbf16, cube_m32, mat>, !pto.tile<64x32xf8E5M2, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m32, mat>{{$}}
%a4 = "test.op"() : () -> !pto.tile<1x64xf4E2M1FN, cube_m16, mat>
// CHECK-NEXT: %a4 = "test.op"() : () -> !pto.tile<1x64xf4E2M1FN, cube_m16, mat>{{$}}
// Mixed E2M1X2 (scaled) x FP16 (no scale)
%d3 = pto.tgemv_mx_bias %a4, a_scale %as2, %b16, %bias : (!pto.tile<1x64xf4E2M1FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d3 = pto.tgemv_mx_bias %a4, a_scale %as2, %b16, %bias : (!pto.tile<1x64xf4E2M1FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
%ae12 = "test.op"() : () -> !pto.tile<1x64x!pto.e1m2x2, cube_m16, mat>
// CHECK-NEXT: %ae12 = "test.op"() : () -> !pto.tile<1x64x!pto.e1m2x2, cube_m16, mat>{{$}}
%be12 = "test.op"() : () -> !pto.tile<64x32x!pto.e1m2x2, cube_n8, mat>
// CHECK-NEXT: %be12 = "test.op"() : () -> !pto.tile<64x32x!pto.e1m2x2, cube_n8, mat>{{$}}
// E1M2X2 x E1M2X2 (the !pto.e1m2x2 spelling)
%d4 = pto.tgemv_mx_bias %ae12, a_scale %as2, %be12, b_scale %bs2, %bias : (!pto.tile<1x64x!pto.e1m2x2, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32x!pto.e1m2x2, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d4 = pto.tgemv_mx_bias %ae12, a_scale %as2, %be12, b_scale %bs2, %bias : (!pto.tile<1x64x!pto.e1m2x2, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32x!pto.e1m2x2, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
%ak1 = "test.op"() : () -> !pto.tile<1x1xf8E4M3FN, cube_m16, mat>
// CHECK-NEXT: %ak1 = "test.op"() : () -> !pto.tile<1x1xf8E4M3FN, cube_m16, mat>{{$}}
%ask1 = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x1>
// CHECK-NEXT: %ask1 = "test.op"() : () -> !pto.tile<1x128xf8E8M0FNU, valid=1x1>{{$}}
%bk1 = "test.op"() : () -> !pto.tile<1x32xf8E4M3FN, cube_n8, mat>
// CHECK-NEXT: %bk1 = "test.op"() : () -> !pto.tile<1x32xf8E4M3FN, cube_n8, mat>{{$}}
%bsk1 = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=1x32>
// CHECK-NEXT: %bsk1 = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=1x32>{{$}}
// K = 1: one partial scale block, scales 1x1 and 1x32 (D1)
%d5 = pto.tgemv_mx_bias %ak1, a_scale %ask1, %bk1, b_scale %bsk1, %bias : (!pto.tile<1x1xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x1>, !pto.tile<1x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=1x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d5 = pto.tgemv_mx_bias %ak1, a_scale %ask1, %bk1, b_scale %bsk1, %bias : (!pto.tile<1x1xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x1>, !pto.tile<1x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=1x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
%ak40 = "test.op"() : () -> !pto.tile<1x40xf8E5M2, cube_m16, mat>
// CHECK-NEXT: %ak40 = "test.op"() : () -> !pto.tile<1x40xf8E5M2, cube_m16, mat>{{$}}
%bk40 = "test.op"() : () -> !pto.tile<40x32xf8E5M2, cube_n8, mat>
// CHECK-NEXT: %bk40 = "test.op"() : () -> !pto.tile<40x32xf8E5M2, cube_n8, mat>{{$}}
// K = 40, not a multiple of 32: ceil(40/32) = 2 scale blocks, the last partial (D1)
%d6 = pto.tgemv_mx_bias %ak40, a_scale %as2, %bk40, b_scale %bs2, %bias : (!pto.tile<1x40xf8E5M2, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<40x32xf8E5M2, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d6 = pto.tgemv_mx_bias %ak40, a_scale %as2, %bk40, b_scale %bs2, %bias : (!pto.tile<1x40xf8E5M2, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<40x32xf8E5M2, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
%bn1 = "test.op"() : () -> !pto.tile<64x1xf16, cube_n8, mat>
// CHECK-NEXT: %bn1 = "test.op"() : () -> !pto.tile<64x1xf16, cube_n8, mat>{{$}}
%biasn1 = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x1>
// CHECK-NEXT: %biasn1 = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x1>{{$}}
// N = 1
%d7 = pto.tgemv_mx_bias %a16, %bn1, %biasn1 : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x1xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat>
// CHECK-NEXT: %d7 = pto.tgemv_mx_bias %a16, %bn1, %biasn1 : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x1xf16, cube_n8, mat>, !pto.tile<1x32xf32, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat>{{$}}
%bsn1 = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x1>
// CHECK-NEXT: %bsn1 = "test.op"() : () -> !pto.tile<2x64xf8E8M0FNU, valid=2x1>{{$}}
%bn1s = "test.op"() : () -> !pto.tile<64x1xf8E4M3FN, cube_n8, mat>
// CHECK-NEXT: %bn1s = "test.op"() : () -> !pto.tile<64x1xf8E4M3FN, cube_n8, mat>{{$}}
// N = 1 with scales: B scale 2x1
%d7s = pto.tgemv_mx_bias %a8, a_scale %as2, %bn1s, b_scale %bsn1, %biasn1 : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x1xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x1>, !pto.tile<1x32xf32, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat>
// CHECK-NEXT: %d7s = pto.tgemv_mx_bias %a8, a_scale %as2, %bn1s, b_scale %bsn1, %biasn1 : (!pto.tile<1x64xf8E4M3FN, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x1xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x1>, !pto.tile<1x32xf32, valid=1x1>) -> !pto.tile<1x1xf32, cube_m16, mat>{{$}}
%am16p = "test.op"() : () -> !pto.tile<16x64xf8E4M3FN, valid=1x64, cube_m16, mat>
// CHECK-NEXT: %am16p = "test.op"() : () -> !pto.tile<16x64xf8E4M3FN, valid=1x64, cube_m16, mat>{{$}}
// M is A's valid row count: a 16-row A with valid 1x64 is legal (PTO-SPEC 4)
%d8 = pto.tgemv_mx_bias %am16p, a_scale %as2, %b8, b_scale %bs2, %bias : (!pto.tile<16x64xf8E4M3FN, valid=1x64, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d8 = pto.tgemv_mx_bias %am16p, a_scale %as2, %b8, b_scale %bs2, %bias : (!pto.tile<16x64xf8E4M3FN, valid=1x64, cube_m16, mat>, !pto.tile<1x128xf8E8M0FNU, valid=1x2>, !pto.tile<64x32xf8E4M3FN, cube_n8, mat>, !pto.tile<2x64xf8E8M0FNU, valid=2x32>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}

// ---- Post-processing operands and results (PTO-SPEC 3.3)
%rmi = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x1>
// CHECK-NEXT: %rmi = "test.op"() : () -> !pto.tile<1x32xf32, valid=1x1>{{$}}
%q = "test.op"() : () -> !pto.tile<1x32xui64>
// CHECK-NEXT: %q = "test.op"() : () -> !pto.tile<1x32xui64>{{$}}
%pr = "test.op"() : () -> !pto.tile<1x32xui64>
// CHECK-NEXT: %pr = "test.op"() : () -> !pto.tile<1x32xui64>{{$}}
// Every vector source and both auxiliary results: VQF322B8_PRE -> S8, vector PReLU, GroupN 16 -> group_max 1x2
%d9, %rowmax, %groupmax = pto.tgemv_mx_bias %a16, %b16, %bias, row_max_in %rmi, quant %q, prelu %pr {fpatr = #pto.fpatr<pre_quant_mode = 23, relu_mode = 3, group_n_code = 2, row_max_en = 1, group_max_en = 1, row_max_init = 1, max_abs_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xf32, valid=1x1>, !pto.tile<1x32xui64>, !pto.tile<1x32xui64>) -> (!pto.tile<1x32xsi8, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>, !pto.tile<1x32xf32, valid=1x2>)
// CHECK-NEXT: %d9, %rowmax, %groupmax = pto.tgemv_mx_bias %a16, %b16, %bias, row_max_in %rmi, quant %q, prelu %pr {fpatr = #pto.fpatr<pre_quant_mode = 23, relu_mode = 3, group_n_code = 2, row_max_en = 1, group_max_en = 1, row_max_init = 1, max_abs_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xf32, valid=1x1>, !pto.tile<1x32xui64>, !pto.tile<1x32xui64>) -> (!pto.tile<1x32xsi8, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>, !pto.tile<1x32xf32, valid=1x2>){{$}}
// row_max only (no initial value)
%d10, %rowmax2 = pto.tgemv_mx_bias %a16, %b16, %bias {fpatr = #pto.fpatr<row_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK-NEXT: %d10, %rowmax2 = pto.tgemv_mx_bias %a16, %b16, %bias {fpatr = #pto.fpatr<row_max_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>){{$}}
// group_max only: GroupN 128 > N gives one group
%d11, %groupmax2 = pto.tgemv_mx_bias %a16, %b16, %bias {fpatr = #pto.fpatr<group_n_code = 9, group_max_en = 1, max_abs_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>)
// CHECK-NEXT: %d11, %groupmax2 = pto.tgemv_mx_bias %a16, %b16, %bias {fpatr = #pto.fpatr<group_n_code = 9, group_max_en = 1, max_abs_en = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> (!pto.tile<1x32xf32, cube_m16, mat>, !pto.tile<1x32xf32, valid=1x1>){{$}}
%qs = "test.op"() : () -> i64
// CHECK-NEXT: %qs = "test.op"() : () -> i64{{$}}
%ls = "test.op"() : () -> i64
// CHECK-NEXT: %ls = "test.op"() : () -> i64{{$}}
// Scalar quant and LReLU parameter words (i64), with rmode and sat
%d12 = pto.tgemv_mx_bias %a16, %b16, %bias, quant_scalar %qs, lrelu_scalar %ls {rmode = #pto.rmode<rna>, sat, fpatr = #pto.fpatr<pre_quant_mode = 24, relu_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64, i64) -> !pto.tile<1x32xsi8, cube_m16, mat>
// CHECK-NEXT: %d12 = pto.tgemv_mx_bias %a16, %b16, %bias, quant_scalar %qs, lrelu_scalar %ls {rmode = #pto.rmode<rna>, sat, fpatr = #pto.fpatr<pre_quant_mode = 24, relu_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64, i64) -> !pto.tile<1x32xsi8, cube_m16, mat>{{$}}
// LReLU alone
%d13 = pto.tgemv_mx_bias %a16, %b16, %bias, lrelu_scalar %ls {fpatr = #pto.fpatr<relu_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d13 = pto.tgemv_mx_bias %a16, %b16, %bias, lrelu_scalar %ls {fpatr = #pto.fpatr<relu_mode = 2>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
// ReLU
%d14 = pto.tgemv_mx_bias %a16, %b16, %bias {fpatr = #pto.fpatr<relu_mode = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d14 = pto.tgemv_mx_bias %a16, %b16, %bias {fpatr = #pto.fpatr<relu_mode = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
// QF322F32_PRE keeps FP32 and allows any rmode
%d15 = pto.tgemv_mx_bias %a16, %b16, %bias, quant_scalar %qs {rmode = #pto.rmode<rtz>, sat, fpatr = #pto.fpatr<pre_quant_mode = 27>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d15 = pto.tgemv_mx_bias %a16, %b16, %bias, quant_scalar %qs {rmode = #pto.rmode<rtz>, sat, fpatr = #pto.fpatr<pre_quant_mode = 27>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
// PreQuantMode output types (PTO-SPEC 3.3): F322F16 -> f16 (sat allowed, rounding fixed)
%d16 = pto.tgemv_mx_bias %a16, %b16, %bias {sat, fpatr = #pto.fpatr<pre_quant_mode = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf16, cube_m16, mat>
// CHECK-NEXT: %d16 = pto.tgemv_mx_bias %a16, %b16, %bias {sat, fpatr = #pto.fpatr<pre_quant_mode = 1>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf16, cube_m16, mat>{{$}}
%d17 = pto.tgemv_mx_bias %a16, %b16, %bias {fpatr = #pto.fpatr<pre_quant_mode = 16>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xbf16, cube_m16, mat>
// CHECK-NEXT: %d17 = pto.tgemv_mx_bias %a16, %b16, %bias {fpatr = #pto.fpatr<pre_quant_mode = 16>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xbf16, cube_m16, mat>{{$}}
%d18 = pto.tgemv_mx_bias %a16, %b16, %bias, quant_scalar %qs {fpatr = #pto.fpatr<pre_quant_mode = 25>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32x!pto.hif8, cube_m16, mat>
// CHECK-NEXT: %d18 = pto.tgemv_mx_bias %a16, %b16, %bias, quant_scalar %qs {fpatr = #pto.fpatr<pre_quant_mode = 25>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, i64) -> !pto.tile<1x32x!pto.hif8, cube_m16, mat>{{$}}
%d19 = pto.tgemv_mx_bias %a16, %b16, %bias, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 37>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xui64>) -> !pto.tile<1x32xf8E4M3FN, cube_m16, mat>
// CHECK-NEXT: %d19 = pto.tgemv_mx_bias %a16, %b16, %bias, quant %q {fpatr = #pto.fpatr<pre_quant_mode = 37>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xui64>) -> !pto.tile<1x32xf8E4M3FN, cube_m16, mat>{{$}}
%d20 = pto.tgemv_mx_bias %a16, %b16, %bias, quant %q {rmode = #pto.rmode<rtp>, fpatr = #pto.fpatr<pre_quant_mode = 38>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xui64>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d20 = pto.tgemv_mx_bias %a16, %b16, %bias, quant %q {rmode = #pto.rmode<rtp>, fpatr = #pto.fpatr<pre_quant_mode = 38>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>, !pto.tile<1x32xui64>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}

// ---- PE masks (D13) and the mask-0 no-op (D12)
%a16m = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat, pe=1100>
// CHECK-NEXT: %a16m = "test.op"() : () -> !pto.tile<1x64xf16, cube_m16, mat, pe=1100>{{$}}
%b16m = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat, pe=1100>
// CHECK-NEXT: %b16m = "test.op"() : () -> !pto.tile<64x32xf16, cube_n8, mat, pe=1100>{{$}}
%biasm = "test.op"() : () -> !pto.tile<1x32xf32, pe=1100>
// CHECK-NEXT: %biasm = "test.op"() : () -> !pto.tile<1x32xf32, pe=1100>{{$}}
%d21 = pto.tgemv_mx_bias %a16m, %b16m, %biasm {mask = #pto.mask<1100>} : (!pto.tile<1x64xf16, cube_m16, mat, pe=1100>, !pto.tile<64x32xf16, cube_n8, mat, pe=1100>, !pto.tile<1x32xf32, pe=1100>) -> !pto.tile<1x32xf32, cube_m16, mat, pe=1100>
// CHECK-NEXT: %d21 = pto.tgemv_mx_bias %a16m, %b16m, %biasm {mask = #pto.mask<1100>} : (!pto.tile<1x64xf16, cube_m16, mat, pe=1100>, !pto.tile<64x32xf16, cube_n8, mat, pe=1100>, !pto.tile<1x32xf32, pe=1100>) -> !pto.tile<1x32xf32, cube_m16, mat, pe=1100>{{$}}
// mask 0 is a strict no-op: no TileLegality check applies (D12)
%d22 = pto.tgemv_mx_bias %a16, %b16, %bias {fpatr = #pto.fpatr<trans_a = 1, cscale_en = 1>, mask = #pto.mask<0000>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d22 = pto.tgemv_mx_bias %a16, %b16, %bias {fpatr = #pto.fpatr<trans_a = 1, cscale_en = 1>, mask = #pto.mask<0000>} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}
// Discardable attributes survive
%d23 = pto.tgemv_mx_bias %a16, %b16, %bias {mask = #pto.mask<1111>, "my.tag" = 7 : i64} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>
// CHECK-NEXT: %d23 = pto.tgemv_mx_bias %a16, %b16, %bias {my.tag = 7 : i64} : (!pto.tile<1x64xf16, cube_m16, mat>, !pto.tile<64x32xf16, cube_n8, mat>, !pto.tile<1x32xf32>) -> !pto.tile<1x32xf32, cube_m16, mat>{{$}}

// ---- pto.trem: each D6 type, each pad value (D9), masks (D13)
%x_si32 = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
// CHECK-NEXT: %x_si32 = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>{{$}}
%r_si32 = pto.trem %x_si32, %x_si32 : !pto.tile<8x16xsi32, valid=3x5>
// CHECK-NEXT: %r_si32 = pto.trem %x_si32, %x_si32 : !pto.tile<8x16xsi32, valid=3x5>{{$}}
%x_ui32 = "test.op"() : () -> !pto.tile<8x16xui32, valid=3x5>
// CHECK-NEXT: %x_ui32 = "test.op"() : () -> !pto.tile<8x16xui32, valid=3x5>{{$}}
%r_ui32 = pto.trem %x_ui32, %x_ui32 : !pto.tile<8x16xui32, valid=3x5>
// CHECK-NEXT: %r_ui32 = pto.trem %x_ui32, %x_ui32 : !pto.tile<8x16xui32, valid=3x5>{{$}}
%x_f32 = "test.op"() : () -> !pto.tile<8x16xf32, valid=3x5>
// CHECK-NEXT: %x_f32 = "test.op"() : () -> !pto.tile<8x16xf32, valid=3x5>{{$}}
%r_f32 = pto.trem %x_f32, %x_f32 : !pto.tile<8x16xf32, valid=3x5>
// CHECK-NEXT: %r_f32 = pto.trem %x_f32, %x_f32 : !pto.tile<8x16xf32, valid=3x5>{{$}}
%x_si16 = "test.op"() : () -> !pto.tile<8x32xsi16, valid=3x5>
// CHECK-NEXT: %x_si16 = "test.op"() : () -> !pto.tile<8x32xsi16, valid=3x5>{{$}}
%r_si16 = pto.trem %x_si16, %x_si16 : !pto.tile<8x32xsi16, valid=3x5>
// CHECK-NEXT: %r_si16 = pto.trem %x_si16, %x_si16 : !pto.tile<8x32xsi16, valid=3x5>{{$}}
%x_ui16 = "test.op"() : () -> !pto.tile<8x32xui16, valid=3x5>
// CHECK-NEXT: %x_ui16 = "test.op"() : () -> !pto.tile<8x32xui16, valid=3x5>{{$}}
%r_ui16 = pto.trem %x_ui16, %x_ui16 : !pto.tile<8x32xui16, valid=3x5>
// CHECK-NEXT: %r_ui16 = pto.trem %x_ui16, %x_ui16 : !pto.tile<8x32xui16, valid=3x5>{{$}}
%x_f16 = "test.op"() : () -> !pto.tile<8x32xf16, valid=3x5>
// CHECK-NEXT: %x_f16 = "test.op"() : () -> !pto.tile<8x32xf16, valid=3x5>{{$}}
%r_f16 = pto.trem %x_f16, %x_f16 : !pto.tile<8x32xf16, valid=3x5>
// CHECK-NEXT: %r_f16 = pto.trem %x_f16, %x_f16 : !pto.tile<8x32xf16, valid=3x5>{{$}}
%x_bf16 = "test.op"() : () -> !pto.tile<8x32xbf16, valid=3x5>
// CHECK-NEXT: %x_bf16 = "test.op"() : () -> !pto.tile<8x32xbf16, valid=3x5>{{$}}
%r_bf16 = pto.trem %x_bf16, %x_bf16 : !pto.tile<8x32xbf16, valid=3x5>
// CHECK-NEXT: %r_bf16 = pto.trem %x_bf16, %x_bf16 : !pto.tile<8x32xbf16, valid=3x5>{{$}}
%rp_zero = pto.trem %x_si32, %x_si32 {pad = #pto.pad<zero>} : !pto.tile<8x16xsi32, valid=3x5>
// CHECK-NEXT: %rp_zero = pto.trem %x_si32, %x_si32 {pad = #pto.pad<zero>} : !pto.tile<8x16xsi32, valid=3x5>{{$}}
%rp_max = pto.trem %x_si32, %x_si32 {pad = #pto.pad<max>} : !pto.tile<8x16xsi32, valid=3x5>
// CHECK-NEXT: %rp_max = pto.trem %x_si32, %x_si32 {pad = #pto.pad<max>} : !pto.tile<8x16xsi32, valid=3x5>{{$}}
%rp_min = pto.trem %x_si32, %x_si32 {pad = #pto.pad<min>} : !pto.tile<8x16xsi32, valid=3x5>
// CHECK-NEXT: %rp_min = pto.trem %x_si32, %x_si32 {pad = #pto.pad<min>} : !pto.tile<8x16xsi32, valid=3x5>{{$}}
// null is the default PadValue (omitted B.DATR, D9)
%rp_null = pto.trem %x_si32, %x_si32 {pad = #pto.pad<null>} : !pto.tile<8x16xsi32, valid=3x5>
// CHECK-NEXT: %rp_null = pto.trem %x_si32, %x_si32 : !pto.tile<8x16xsi32, valid=3x5>{{$}}
%xm = "test.op"() : () -> !pto.tile<4x32xf32, vec, pe=0100>
// CHECK-NEXT: %xm = "test.op"() : () -> !pto.tile<4x32xf32, vec, pe=0100>{{$}}
%rm = pto.trem %xm, %xm {pad = #pto.pad<zero>, mask = #pto.mask<0100>} : !pto.tile<4x32xf32, vec, pe=0100>
// CHECK-NEXT: %rm = pto.trem %xm, %xm {pad = #pto.pad<zero>, mask = #pto.mask<0100>} : !pto.tile<4x32xf32, vec, pe=0100>{{$}}
// The function-type spelling is accepted; identical types print in the short form
%rf = pto.trem %x_si32, %x_si32 : (!pto.tile<8x16xsi32, valid=3x5>, !pto.tile<8x16xsi32, valid=3x5>) -> !pto.tile<8x16xsi32, valid=3x5>
// CHECK-NEXT: %rf = pto.trem %x_si32, %x_si32 : !pto.tile<8x16xsi32, valid=3x5>{{$}}
// mask 0: no check applies (D12); differing types print as a function type
%r0 = pto.trem %t_s8, %x_si32 {mask = #pto.mask<0000>} : (!pto.tile<16x8xsi8>, !pto.tile<8x16xsi32, valid=3x5>) -> !pto.tile<4x8xf32>
// CHECK-NEXT: %r0 = pto.trem %t_s8, %x_si32 {mask = #pto.mask<0000>} : (!pto.tile<16x8xsi8>, !pto.tile<8x16xsi32, valid=3x5>) -> !pto.tile<4x8xf32>{{$}}

// ---- Target profile a2a3 on a nested module: TREM stays legal (D15)
// CHECK-NEXT: builtin.module attributes {pto.target = #pto.target<a2a3>} {
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  %x_a2 = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>
// CHECK-NEXT: %x_a2 = "test.op"() : () -> !pto.tile<8x16xsi32, valid=3x5>{{$}}
  %r_a2 = pto.trem %x_a2, %x_a2 : !pto.tile<8x16xsi32, valid=3x5>
// CHECK-NEXT: %r_a2 = pto.trem %x_a2, %x_a2 : !pto.tile<8x16xsi32, valid=3x5>{{$}}
}
// CHECK-NEXT: }
}
// CHECK-NEXT: }

// Generic form: properties, operand and result segment sizes.
// GENERIC:      "pto.tgemv_mx_bias"(%a8, %as2, %b8, %bs2, %bias) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:      %d9, %rowmax, %groupmax = "pto.tgemv_mx_bias"(%a16, %b16, %bias, %rmi, %q, %pr) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<pre_quant_mode = 23, relu_mode = 3, group_n_code = 2, row_max_en = 1, group_max_en = 1, row_max_init = 1, max_abs_en = 1>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 0, 1, 0, 1, 1, 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 1, 1>}>
// GENERIC:      %d11, %groupmax2 = "pto.tgemv_mx_bias"(%a16, %b16, %bias) <{rmode = #pto.rmode<default>, fpatr = #pto.fpatr<group_n_code = 9, group_max_en = 1, max_abs_en = 1>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 0, 1, 0, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 1>}>
// GENERIC:      %d12 = "pto.tgemv_mx_bias"(%a16, %b16, %bias, %qs, %ls) <{rmode = #pto.rmode<rna>, fpatr = #pto.fpatr<pre_quant_mode = 24, relu_mode = 2>, mask = #pto.mask<1111>, operandSegmentSizes = array<i32: 1, 0, 1, 0, 1, 0, 0, 0, 1, 1>, resultSegmentSizes = array<i32: 1, 0, 0>, sat}>
// GENERIC:      %rp_zero = "pto.trem"(%x_si32, %x_si32) <{pad = #pto.pad<zero>, mask = #pto.mask<1111>}>
