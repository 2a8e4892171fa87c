#!/bin/sh
# Build a timing driver for the hw-native-sys/pto-isa C++ CPU simulator (issue 26):
#   scripts/build_ptoisa_sim.sh /path/to/pto-isa [out-dir]
# Copies the checkout's include/ to out-dir (default build/ptoisa_sim; git ignores build/),
# replaces the one `static_assert(false, ...)` in pto/cpu/TReduceIdx.hpp that g++ 12 rejects
# (a dependent false instead), writes our driver (TMATMUL at M=128, K=N=1024 for float, half
# and bfloat16 inputs; best of 2 calls after one warm-up) and builds it with
# g++ -std=c++20 -O2 -D__CPU_SIM -D__PTO_AUTO__. `make bench` (benchmarks/bench_cube.py)
# runs out-dir/sim_bench when it exists. No pto-isa code is kept in this repository.
set -eu
src=${1:?usage: build_ptoisa_sim.sh /path/to/pto-isa [out-dir]}
out=${2:-build/ptoisa_sim}
[ -d "$src/include/pto" ] || { echo "no include/pto under $src" >&2; exit 1; }
mkdir -p "$out"
rm -rf "$out/include"
cp -r "$src/include" "$out/include"
sed -i 's/static_assert(false, "Unsupported element cmp.");/static_assert(sizeof(DType) == 0, "Unsupported element cmp.");/' \
    "$out/include/pto/cpu/TReduceIdx.hpp"
cat > "$out/driver.cpp" <<'CPP'
// TMATMUL of the pto-isa CPU simulator: seconds per call (best of 2 after a warm-up).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <pto/pto-inst.hpp>
using namespace pto;

template <typename T, int M, int K, int N>
double seconds()
{
    TileLeft<T, M, K, M, K> a;
    TileRight<T, K, N, K, N> b;
    TileAcc<float, M, N, M, N> c;
    for (int i = 0; i < M; ++i)
        for (int k = 0; k < K; ++k) a.SetElement(i, k, static_cast<T>(0.125f * ((i + 3 * k) % 9) - 0.5f));
    for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j) b.SetElement(k, j, static_cast<T>(0.25f * ((5 * k + j) % 7) - 0.75f));
    TMATMUL(c, a, b);
    double best = 1e30;
    for (int r = 0; r < 2; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        TMATMUL(c, a, b);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

int main()
{
    std::printf("TMATMUL f16 M=128 K=1024 N=1024 %.6f\n", seconds<half, 128, 1024, 1024>());
    std::printf("TMATMUL bf16 M=128 K=1024 N=1024 %.6f\n", seconds<bfloat16_t, 128, 1024, 1024>());
    std::printf("TMATMUL f32 M=128 K=1024 N=1024 %.6f\n", seconds<float, 128, 1024, 1024>());
    return 0;
}
CPP
g++ -std=c++20 -O2 -D__CPU_SIM -D__PTO_AUTO__ -I"$out/include" "$out/driver.cpp" -o "$out/sim_bench" -lpthread
echo "built $out/sim_bench"
