"""Numpy interpreter for PTO programs and the linalg-like programs they come from."""

from interpreter.kernels.status import NumericStatus
from interpreter.quantize import dequantize_mx, quantize_mx
from interpreter.ssa.runner import RunError, run

__all__ = ["NumericStatus", "RunError", "dequantize_mx", "quantize_mx", "run"]
