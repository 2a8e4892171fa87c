// What a run did (issue 27): pto-run --stats prints per-op counts, time, bytes moved and the
// peak tile capacity on stderr; --trace writes the executed ops and blocks, in order, as
// Chrome trace JSON (complete events "ph": "X", ts/dur in microseconds). The figures are
// hand-derived: pto-lower flattens the 4x8 tensors to one 1x32 f32 tile each (128 B, TSize
// 128 B); two TLOAD blocks move 256 B, one TSTORE 128 B; three tiles are live at the TADD:
// 384 B of tile capacity.
// RUN: pto-opt %s -p pto-lower | pto-run - --stats --trace %t.json --output %t.npz 2>&1 | filecheck %s
// RUN: filecheck --input-file %t.json %s --check-prefix=TRACE
// RUN: pto-opt %s -p pto-lower | pto-run - --stats --engine xdsl --output %t.npz 2>&1 | filecheck %s
// RUN: pto-opt %s -p pto-lower | pto-run - --quiet --no-progress 2>&1 | filecheck %s --check-prefix=QUIET

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @main() -> tensor<4x8xf32> {
  %a = arith.constant dense<[[1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5], [0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]]> : tensor<4x8xf32>
  %b = arith.constant dense<[[2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]]> : tensor<4x8xf32>
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %2 = arith.addf %in, %in_0 : f32
    linalg.yield %2 : f32
  } -> tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}

// CHECK: {{^}}pto-run: @main: {{[0-9]+}} ops in {{[0-9.]+}} ms ({{[0-9.]+}} ms in ops), 384 B moved, peak tile capacity 384 B of 262144 B{{$}}
// CHECK-NEXT: {{^}}  op {{ +}}count {{ +}}time ms {{ +}}% {{ +}}bytes moved{{$}}
// CHECK-DAG: {{^}}  pto.block TLOAD {{ +}}2 {{ +}}{{[0-9.]+ +[0-9.]+}} {{ +}}256{{$}}
// CHECK-DAG: {{^}}  pto.block TADD {{ +}}1 {{ +}}{{[0-9.]+ +[0-9.]+}} {{ +}}0{{$}}
// CHECK-DAG: {{^}}  pto.block TSTORE {{ +}}1 {{ +}}{{[0-9.]+ +[0-9.]+}} {{ +}}128{{$}}

// TRACE: {"traceEvents": [{"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "main"}}
// TRACE-SAME: {"name": "pto.block TLOAD", "cat": "block", "ph": "X", "ts": {{[0-9.]+}}, "dur": {{[0-9.]+}}, "pid": 1, "tid": 1, "args": {"loc": "<stdin>:{{[0-9]+}}:{{[0-9]+}}"}}
// TRACE-SAME: "name": "pto.block TLOAD"
// TRACE-SAME: "name": "pto.block TADD"
// TRACE-SAME: "name": "pto.block TSTORE"
// TRACE-SAME: "displayTimeUnit": "ms", "metadata": {"tool": "pto-run", "file": "-", "symbol": "main"}}

// QUIET-NOT: pto-run:
// QUIET: result0: tensor<4x8xf32> = {{\[\[}}3.5, 4.5, 5.5,
// QUIET-NOT: pto-run:
