// pto-assign-registers refuses a program whose live tiles would hold more core tile capacity
// than the tile_capacity system register: a tile charges popcount(pe) x its per-PE size
// (asl/tile/model/capacity/local.asl, asl/block/model/dispatch/destination-shape.asl).
// RUN: not pto-opt %s -p pto-form-blocks,pto-assign-registers 2>&1 | filecheck %s
// RUN: not pto-opt %s -p 'pto-form-blocks,pto-assign-registers{tile_capacity=300000}' 2>&1 | filecheck %s --check-prefix=RANGE
// RUN: pto-opt %s -p 'pto-form-blocks,pto-assign-registers{capacity_check=false}' -t pto-asm | filecheck %s --check-prefix=OFF

// 64 KiB on four PEs (the whole 256 KiB) and a 128 B tile live at once.
func.func @k(%m: tensor<128x128xi32>, %s: tensor<32x1xi32>) -> (!pto.tile<128x128xui32>, !pto.tile<32x1xui32>) {
  %c0 = arith.constant 0 : index
  %a = pto.tload %m[%c0, %c0] : tensor<128x128xi32> -> !pto.tile<128x128xui32>
  %b = pto.tload %s[%c0, %c0] : tensor<32x1xi32> -> !pto.tile<32x1xui32>
  func.return %a, %b : !pto.tile<128x128xui32>, !pto.tile<32x1xui32>
}

// CHECK: [TileAllocation] 'pto.block' needs 512 B of core tile capacity (pe=1111 x 128 B), but 262144 B of the tile_capacity 262144 B are held by live tiles (asl/block/model/dispatch/destination-shape.asl CoreTileCapacityInUse, docs/blocks.md)
// RANGE: pto-assign-registers: tile_capacity must be 0 .. 262144 bytes (asl/tile/model/capacity/local.asl), got 300000
// OFF: B.IOT mask=1111, last, ->t<64KB>
// OFF: B.IOT mask=1111, last, ->t<128B>
