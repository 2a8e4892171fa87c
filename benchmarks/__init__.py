"""Benchmarks of the interpreter kernels. Run all with ``python -m benchmarks [--quick]``."""
