#!/bin/sh
# Build a timing driver for the hw-native-sys/pto-isa C++ CPU simulator (issue 26):
#   scripts/build_ptoisa_sim.sh /path/to/pto-isa [out-dir]
# Copies the checkout's include/ to out-dir (default build/ptoisa_sim; git ignores build/),
# replaces the one `static_assert(false, ...)` in pto/cpu/TReduceIdx.hpp that g++ 12 rejects
# (a dependent false instead), writes our driver (TMATMUL at M=128, K=N=1024 for float, half
# and bfloat16 inputs and TMATMUL_MX E4M3 at that shape, best of 2 calls after one warm-up; the
# MX GEMV with bias at K=16384, N=4096 as 8 x 2 calls on 2048 x 2048 blocks, best of 2 rounds
# after one) and builds it with
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
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>
#include <pto/cpu/MXTypes.hpp>
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

template <int M, int K, int N, int VM = M>
struct MxOperands {
    // E4M3 A (M x K), B (K x N) and E8M0 block scales (one per 32 values along K), both
    // scales in [2^-7, 2^7]; the values repeat with short periods, as in seconds() above.
    TileLeft<float8_e4m3_t, M, K, VM, K> a;
    TileLeftScale<float8_e8m0_t, M, K / 32, VM, K / 32> sa;
    TileRight<float8_e4m3_t, K, N, K, N> b;
    TileRightScale<float8_e8m0_t, K / 32, N, K / 32, N> sb;
    MxOperands(int k0, int n0)
    {
        for (int i = 0; i < VM; ++i)
            for (int k = 0; k < K; ++k) a.SetElement(i, k, float8_e4m3_t(0.125 * ((i + 3 * (k + k0)) % 9) - 0.5));
        for (int i = 0; i < VM; ++i)
            for (int k = 0; k < K / 32; ++k) sa.SetElement(i, k, float8_e8m0_t(std::ldexp(1.0, (i + k) % 15 - 7)));
        for (int k = 0; k < K; ++k)
            for (int j = 0; j < N; ++j)
                b.SetElement(k, j, float8_e4m3_t(0.25 * ((5 * (k + k0) + j + n0) % 7) - 0.75));
        for (int k = 0; k < K / 32; ++k)
            for (int j = 0; j < N; ++j) sb.SetElement(k, j, float8_e8m0_t(std::ldexp(1.0, (k + 2 * j) % 15 - 7)));
    }
};

template <int M, int K, int N>
double seconds_mx()
{
    static MxOperands<M, K, N> x(0, 0);
    TileAcc<float, M, N, M, N> c;
    TMATMUL_MX(c, x.a, x.sa, x.b, x.sb);
    double best = 1e30;
    for (int r = 0; r < 2; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        TMATMUL_MX(c, x.a, x.sa, x.b, x.sb);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

// The MX GEMV with bias, K = 16384, N = 4096, one row of A. One simulator call takes at most
// 4095 along K and N (CheckDynamicMmad), so the product runs as 8 x 2 calls on 2048 x 2048
// blocks, accumulating along K (TMATMUL_MX with an input accumulator), plus the bias.
double seconds_gemv_mx()
{
    constexpr int KC = 2048, NC = 2048, KB = 8, NB = 2;
    using Ops = MxOperands<16, KC, NC, 1>;  // a Left tile has 16 rows; one is valid
    static std::vector<std::unique_ptr<Ops>> ops;
    for (int kb = 0; kb < KB; ++kb)
        for (int nb = 0; nb < NB; ++nb) ops.push_back(std::make_unique<Ops>(kb * KC, nb * NC));
    TileAcc<float, 16, NC, 1, NC> c[NB];
    std::vector<float> bias(NB * NC);
    for (int j = 0; j < NB * NC; ++j) bias[j] = 0.5f * (j % 5) - 1.0f;
    double best = 1e30;
    for (int r = 0; r < 3; ++r) {  // the first round warms up
        auto t0 = std::chrono::steady_clock::now();
        for (int nb = 0; nb < NB; ++nb) {
            for (int kb = 0; kb < KB; ++kb) {
                Ops& o = *ops[kb * NB + nb];
                if (kb == 0)
                    TMATMUL_MX(c[nb], o.a, o.sa, o.b, o.sb);
                else
                    TMATMUL_MX(c[nb], c[nb], o.a, o.sa, o.b, o.sb);
            }
            for (int j = 0; j < NC; ++j) c[nb].SetElement(0, j, c[nb].GetElement(0, j) + bias[nb * NC + j]);
        }
        double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (r > 0) best = std::min(best, t);
    }
    return best;
}

int main()
{
    std::printf("TMATMUL f16 M=128 K=1024 N=1024 %.6f\n", seconds<half, 128, 1024, 1024>());
    std::printf("TMATMUL bf16 M=128 K=1024 N=1024 %.6f\n", seconds<bfloat16_t, 128, 1024, 1024>());
    std::printf("TMATMUL f32 M=128 K=1024 N=1024 %.6f\n", seconds<float, 128, 1024, 1024>());
    std::printf("TMATMUL_MX E4M3 M=128 K=1024 N=1024 %.6f\n", seconds_mx<128, 1024, 1024>());
    std::printf("TGEMV_MX_BIAS E4M3 ordered K=16384 N=4096 %.6f\n", seconds_gemv_mx());
    return 0;
}
CPP
g++ -std=c++20 -O2 -D__CPU_SIM -D__PTO_AUTO__ -I"$out/include" "$out/driver.cpp" -o "$out/sim_bench" -lpthread
echo "built $out/sim_bench"
