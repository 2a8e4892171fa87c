"""Numpy interpreter for PTO programs and the linalg-like programs they come from."""

from interpreter.runner import RunError, run

__all__ = ["RunError", "run"]
