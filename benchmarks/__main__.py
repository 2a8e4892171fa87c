"""``python -m benchmarks [--quick]``: run every benchmark module and print its figures."""

from __future__ import annotations

import argparse

from benchmarks import (
    bench_compare,
    bench_convert,
    bench_cube,
    bench_elementwise,
    bench_indexed,
    bench_interpreter,
    bench_kernels,
    bench_loading,
    bench_lowering,
    bench_reduce,
    bench_status,
    bench_tile_local,
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a few seconds)")
    args = ap.parse_args(argv)
    bench_kernels.run(quick=args.quick)
    bench_interpreter.run(quick=args.quick)
    bench_lowering.run(quick=args.quick)
    bench_tile_local.run(quick=args.quick)
    bench_convert.run(quick=args.quick)
    bench_convert.run_compiled(quick=args.quick)
    bench_elementwise.run(quick=args.quick)
    bench_compare.run(quick=args.quick)
    bench_status.run(quick=args.quick)
    bench_cube.run(quick=args.quick)
    bench_reduce.run(quick=args.quick)
    bench_indexed.run(quick=args.quick)
    bench_loading.run(quick=args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
