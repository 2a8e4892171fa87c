"""MGATHER / MSCATTER kernel benchmarks (D25): ratios against numpy fancy indexing in the same run.

The kernels (:mod:`interpreter.kernels.indexed`) compute every lane's byte address from a
signed 64-bit byte-displacement index, preflight all lanes (DataAlignment / DataPage) and then
move the elements; the baseline is the bare numpy gather ``table[rows]`` / scatter
``table[rows] = v`` on the same table with the element indices precomputed (no address
arithmetic, no checks). An embedding-style FP32 lookup from a table in GM, ``n`` random lanes
(with duplicates), a small table (fits the caches) and a large one.
``python -m benchmarks.bench_indexed`` (also in ``make bench``). Target: ratio <= 2.

Times are the best of a few repeats; the machine is shared, so compare ratios. Prints only.
"""

from __future__ import annotations

import numpy as np

from benchmarks.bench_kernels import best_of
from interpreter.kernels.indexed import byte_addresses, gather, scatter
from interpreter.machine.global_memory import GlobalMemory
from pto_dialect.datatypes import TileDataType as T


def _one_table(table_mib: int, n: int, repeat: int, rng) -> None:
    words = table_mib << 18  # FP32 elements
    table = rng.standard_normal(words).astype(np.float32)
    mem = GlobalMemory(table.view(np.uint8))
    rows = rng.integers(0, words, n)
    disp = rows.astype(np.int64) * 4  # the index tile: byte displacements
    vals = rng.standard_normal(n).astype(np.float32)
    vbits = vals.view(np.uint32)

    def k_gather():
        return gather(mem, byte_addresses(0, disp, T.S64), T.FP32)

    def k_scatter():
        scatter(mem, byte_addresses(0, disp, T.S64), T.FP32, vbits)

    def b_scatter():
        table[rows] = vals

    assert np.array_equal(k_gather().view(np.float32), table[rows])
    for name, base, k in ((f"MGATHER  vs table[rows], {table_mib} MiB", lambda: table[rows],
                           k_gather),
                          (f"MSCATTER vs table[rows]=v, {table_mib} MiB", b_scatter,
                           k_scatter)):  # fmt: skip
        t_b, t_k = best_of(base, repeat), best_of(k, repeat)
        print(f"  {name:34s} {t_b * 1e3:8.2f} {t_k * 1e3:8.2f} {t_k / t_b:6.2f}")


def run(quick: bool = False, n: int = 1 << 22, repeat: int = 5) -> None:
    if quick:
        n, repeat = 1 << 18, 3
    rng = np.random.default_rng(0)
    print(f"MGATHER/MSCATTER kernels, {n / 2**20:.2f}M FP32 lanes, S64 byte displacements "
          f"(ms, best of {repeat}); target <= 2")
    print(f"  {'':34s} {'numpy':>8s} {'kernel':>8s} {'ratio':>6s}")
    for table_mib in (1, 64 if not quick else 16):
        _one_table(table_mib, n, repeat, rng)


if __name__ == "__main__":
    run()
