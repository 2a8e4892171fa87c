"""Numpy interpreter for PTO programs and the linalg-like programs they come from."""

from interpreter.quantize import dequantize_mx, quantize_mx
from interpreter.runner import RunError, run

__all__ = ["RunError", "dequantize_mx", "quantize_mx", "run"]
